/*
 * cspfix tests: run a filter graph on frames through the libavfilter API
 * Copyright (c) 2026 the cspfix developers
 *
 * This file is part of FFmpeg.
 *
 * FFmpeg is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Lesser General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 *
 * FFmpeg is distributed in the hope that it will be useful,
 * but WITHOUT ANY WARRANTY; without even the implied warranty of
 * MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.  See the GNU
 * Lesser General Public License for more details.
 *
 * You should have received a copy of the GNU Lesser General Public
 * License along with FFmpeg; if not, write to the Free Software
 * Foundation, Inc., 51 Franklin Street, Fifth Floor, Boston, MA 02110-1301 USA
 */

#include <stdio.h>
#include <string.h>

#include <libavfilter/avfilter.h>
#include <libavfilter/buffersink.h>
#include <libavfilter/buffersrc.h>
#include <libavutil/dovi_meta.h>
#include <libavutil/error.h>
#include <libavutil/mem.h>
#include <libavutil/imgutils.h>
#include <libavutil/log.h>
#include <libavutil/macros.h>
#include <libavutil/mastering_display_metadata.h>
#include <libavutil/pixdesc.h>

#include "cspfix_testutil.h"

AVFrame *cspfix_alloc_frame(int fmt, int w, int h, int prim, int trc, int csp, int range)
{
    AVFrame *f = av_frame_alloc();
    if (!f)
        return NULL;
    f->format = fmt;
    f->width  = w;
    f->height = h;
    if (av_frame_get_buffer(f, 0) < 0) {
        av_frame_free(&f);
        return NULL;
    }
    /* zeroed, so that writers which OR bits in (av_write_image_line2) start clean */
    for (int i = 0; i < FF_ARRAY_ELEMS(f->buf) && f->buf[i]; i++)
        memset(f->buf[i]->data, 0, f->buf[i]->size);
    f->color_primaries = prim;
    f->color_trc       = trc;
    f->colorspace      = csp;
    f->color_range     = range;
    f->sample_aspect_ratio = (AVRational){ 1, 1 };
    return f;
}

int cspfix_pull_frames(AVFilterContext *sink, AVFrame **out, int max_out, int *nb_out)
{
    for (;;) {
        AVFrame *o = av_frame_alloc();
        int ret;

        if (!o)
            return AVERROR(ENOMEM);
        if ((ret = av_buffersink_get_frame(sink, o)) < 0) {
            av_frame_free(&o);
            return ret;
        }
        if (*nb_out < max_out)
            out[(*nb_out)++] = o;
        else
            av_frame_free(&o);
    }
}

int cspfix_graph_auto;
char cspfix_graph_auto_name[64];

int cspfix_run_graph(AVFrame *const *in, int nb_in, const char *filters, int threads,
                     AVFrame **out, int max_out, int *nb_out)
{
    AVFilterGraph *graph = avfilter_graph_alloc();
    AVFilterContext *src = NULL, *sink = NULL;
    AVFilterInOut *outputs = NULL, *inputs = NULL;
    char args[256];
    int ret;

    *nb_out = 0;
    if (!graph)
        return AVERROR(ENOMEM);
    graph->nb_threads = threads;
    snprintf(args, sizeof(args),
             "video_size=%dx%d:pix_fmt=%d:time_base=1/25:pixel_aspect=1/1:colorspace=%d:range=%d",
             in[0]->width, in[0]->height, in[0]->format, in[0]->colorspace, in[0]->color_range);
    if ((ret = avfilter_graph_create_filter(&src, avfilter_get_by_name("buffer"), "in",
                                            args, NULL, graph)) < 0 ||
        (ret = avfilter_graph_create_filter(&sink, avfilter_get_by_name("buffersink"), "out",
                                            NULL, NULL, graph)) < 0)
        goto end;

    outputs = avfilter_inout_alloc();
    inputs  = avfilter_inout_alloc();
    if (!outputs || !inputs) {
        ret = AVERROR(ENOMEM);
        goto end;
    }
    outputs->name       = av_strdup("in");
    outputs->filter_ctx = src;
    inputs->name        = av_strdup("out");
    inputs->filter_ctx  = sink;
    cspfix_graph_auto = 0;
    cspfix_graph_auto_name[0] = 0;
    if ((ret = avfilter_graph_parse_ptr(graph, filters, &inputs, &outputs, NULL)) < 0 ||
        (ret = avfilter_graph_config(graph, NULL)) < 0)
        goto end;
    for (unsigned i = 0; i < graph->nb_filters; i++)
        if (graph->filters[i]->name && !strncmp(graph->filters[i]->name, "auto_", 5) &&
            !cspfix_graph_auto++)
            snprintf(cspfix_graph_auto_name, sizeof(cspfix_graph_auto_name), "%s",
                     graph->filters[i]->name);

    for (int i = 0; i <= nb_in; i++) {
        if (i < nb_in) {
            AVFrame *f = av_frame_clone(in[i]);
            if (!f) {
                ret = AVERROR(ENOMEM);
                goto end;
            }
            f->pts = i;
            ret = av_buffersrc_add_frame_flags(src, f, AV_BUFFERSRC_FLAG_KEEP_REF);
            av_frame_free(&f);
        } else {
            ret = av_buffersrc_add_frame(src, NULL);
        }
        if (ret < 0)
            goto end;
        ret = cspfix_pull_frames(sink, out, max_out, nb_out);
        if (ret != AVERROR(EAGAIN) && ret != AVERROR_EOF)
            goto end;
    }
    ret = 0;
end:
    avfilter_inout_free(&inputs);
    avfilter_inout_free(&outputs);
    avfilter_graph_free(&graph);
    return ret;
}

int cspfix_run1(const AVFrame *in, const char *filters, int threads, AVFrame **out)
{
    AVFrame *o[2] = { NULL };
    int n, ret;

    ret = cspfix_run_graph((AVFrame *const *)&in, 1, filters, threads, o, 2, &n);
    *out = NULL;
    if (ret < 0)
        return ret;
    if (n != 1) {
        for (int i = 0; i < n; i++)
            av_frame_free(&o[i]);
        return AVERROR_BUG;
    }
    *out = o[0];
    return 0;
}

int cspfix_frames_equal(const AVFrame *a, const AVFrame *b)
{
    const AVPixFmtDescriptor *d = av_pix_fmt_desc_get(a->format);
    int planes;

    if (a->format != b->format || a->width != b->width || a->height != b->height)
        return 0;
    planes = av_pix_fmt_count_planes(a->format);
    for (int p = 0; p < planes; p++) {
        int bytes = av_image_get_linesize(a->format, a->width, p);
        int h = (p == 1 || p == 2) ? AV_CEIL_RSHIFT(a->height, d->log2_chroma_h) : a->height;
        for (int y = 0; y < h; y++)
            if (memcmp(a->data[p] + (ptrdiff_t)y * a->linesize[p],
                       b->data[p] + (ptrdiff_t)y * b->linesize[p], bytes))
                return 0;
    }
    return 1;
}

AVDOVIMetadata *cspfix_attach_dovi(AVFrame *f)
{
    size_t size;
    AVDOVIMetadata *md = av_dovi_metadata_alloc(&size);
    AVBufferRef *buf;

    if (!md)
        return NULL;
    if (!(buf = av_buffer_create((uint8_t *)md, size, NULL, NULL, 0))) {
        av_free(md);
        return NULL;
    }
    if (!av_frame_new_side_data_from_buf(f, AV_FRAME_DATA_DOVI_METADATA, buf)) {
        av_buffer_unref(&buf);
        return NULL;
    }
    return md;
}

int cspfix_set_hdr10(AVFrame *f, int max_lum, int maxcll)
{
    AVMasteringDisplayMetadata *m;
    AVContentLightMetadata *c;

    av_frame_remove_side_data(f, AV_FRAME_DATA_MASTERING_DISPLAY_METADATA);
    av_frame_remove_side_data(f, AV_FRAME_DATA_CONTENT_LIGHT_LEVEL);
    if (max_lum >= 0) {
        if (!(m = av_mastering_display_metadata_create_side_data(f)))
            return AVERROR(ENOMEM);
        /* a DCI-P3 D65 mastering display */
        m->display_primaries[0][0] = av_make_q(34000, 50000);
        m->display_primaries[0][1] = av_make_q(16000, 50000);
        m->display_primaries[1][0] = av_make_q(13250, 50000);
        m->display_primaries[1][1] = av_make_q(34500, 50000);
        m->display_primaries[2][0] = av_make_q(7500, 50000);
        m->display_primaries[2][1] = av_make_q(3000, 50000);
        m->white_point[0] = av_make_q(15635, 50000);
        m->white_point[1] = av_make_q(16450, 50000);
        m->has_primaries = 1;
        m->max_luminance = av_make_q(max_lum, 1);
        m->min_luminance = av_make_q(50, 10000);
        m->has_luminance = max_lum > 0;
    }
    if (maxcll >= 0) {
        if (!(c = av_content_light_metadata_create_side_data(f)))
            return AVERROR(ENOMEM);
        c->MaxCLL  = maxcll;
        c->MaxFALL = maxcll / 4;
    }
    return 0;
}

char cspfix_log_text[16384];
size_t cspfix_log_len;

static void log_cb(void *avcl, int level, const char *fmt, va_list vl)
{
    int n;
    if (level > AV_LOG_WARNING || cspfix_log_len >= sizeof(cspfix_log_text) - 1)
        return;
    n = vsnprintf(cspfix_log_text + cspfix_log_len, sizeof(cspfix_log_text) - cspfix_log_len,
                  fmt, vl);
    if (n > 0)
        cspfix_log_len = FFMIN(cspfix_log_len + n, sizeof(cspfix_log_text) - 1);
}

void cspfix_log_capture(void)
{
    av_log_set_callback(log_cb);
}

void cspfix_log_reset(void)
{
    cspfix_log_len = 0;
    cspfix_log_text[0] = 0;
}
