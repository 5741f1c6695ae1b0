/*
 * cspfix_example: use the cspfix filter from an application
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

/*
 * Builds buffer -> cspfix -> buffersink, feeds SMPTE 170M limited-range
 * frames (colour fields set on each AVFrame), reads the converted frames back
 * and checks them: tags BT.709 full range, timestamps kept, and the pixels of
 * a neutral grey ramp (which the primaries/transfer/matrix change leaves
 * neutral: SMPTE 170M and BT.709 share the D65 white and the transfer curve)
 * equal the range expansion Y' = (Y - 16) * 255 / 219, Cb = Cr = 128.
 * Exits non-zero if anything is wrong.
 *
 * Build against an installed FFmpeg with cspfix:
 *   cc cspfix_example.c $(pkg-config --cflags --libs libavfilter) -lm
 * Usage: cspfix_example [filter options]   (default "all=bt709:range=pc")
 */

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <libavfilter/avfilter.h>
#include <libavfilter/buffersink.h>
#include <libavfilter/buffersrc.h>
#include <libavutil/frame.h>
#include <libavutil/macros.h>
#include <libavutil/pixdesc.h>

#define W        64
#define H        32
#define NB_FRAMES 5

static int build_graph(AVFilterGraph **graph, AVFilterContext **src,
                       AVFilterContext **sink, const char *opts)
{
    AVFilterContext *conv;
    AVBufferSrcParameters *par;
    char args[256];
    int ret;

    if (!(*graph = avfilter_graph_alloc()))
        return AVERROR(ENOMEM);
    snprintf(args, sizeof(args), "video_size=%dx%d:pix_fmt=%s:time_base=1/25:"
             "pixel_aspect=1/1", W, H, av_get_pix_fmt_name(AV_PIX_FMT_YUV420P));
    if ((ret = avfilter_graph_create_filter(src, avfilter_get_by_name("buffer"), "in",
                                            args, NULL, *graph)) < 0)
        return ret;
    /* the source link's colour description, for format negotiation */
    if (!(par = av_buffersrc_parameters_alloc()))
        return AVERROR(ENOMEM);
    par->format      = -1;
    par->color_space = AVCOL_SPC_SMPTE170M;
    par->color_range = AVCOL_RANGE_MPEG;
    ret = av_buffersrc_parameters_set(*src, par);
    av_free(par);
    if (ret < 0)
        return ret;
    if (!avfilter_get_by_name("cspfix")) {
        fprintf(stderr, "this libavfilter has no cspfix filter\n");
        return AVERROR_FILTER_NOT_FOUND;
    }
    if ((ret = avfilter_graph_create_filter(&conv, avfilter_get_by_name("cspfix"), "cspfix",
                                            opts, NULL, *graph)) < 0)
        return ret;
    if ((ret = avfilter_graph_create_filter(sink, avfilter_get_by_name("buffersink"), "out",
                                            NULL, NULL, *graph)) < 0)
        return ret;
    if ((ret = avfilter_link(*src, 0, conv, 0)) < 0 ||
        (ret = avfilter_link(conv, 0, *sink, 0)) < 0)
        return ret;
    return avfilter_graph_config(*graph, NULL);
}

/* a grey ramp across the picture, 16..235, neutral chroma */
static AVFrame *make_frame(int n)
{
    AVFrame *f = av_frame_alloc();
    if (!f)
        return NULL;
    f->format = AV_PIX_FMT_YUV420P;
    f->width  = W;
    f->height = H;
    if (av_frame_get_buffer(f, 0) < 0) {
        av_frame_free(&f);
        return NULL;
    }
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            f->data[0][y * f->linesize[0] + x] = 16 + (x * 219 + n * 7) % 220;
    for (int p = 1; p < 3; p++)
        for (int y = 0; y < H / 2; y++)
            for (int x = 0; x < W / 2; x++)
                f->data[p][y * f->linesize[p] + x] = 128;
    f->pts             = n * 2;
    f->color_primaries = AVCOL_PRI_SMPTE170M;
    f->color_trc       = AVCOL_TRC_SMPTE170M;
    f->colorspace      = AVCOL_SPC_SMPTE170M;
    f->color_range     = AVCOL_RANGE_MPEG;
    return f;
}

int main(int argc, char **argv)
{
    const char *opts = argc > 1 ? argv[1] : "all=bt709:range=pc";
    AVFilterGraph *graph = NULL;
    AVFilterContext *src = NULL, *sink = NULL;
    AVFrame *in = NULL, *out = av_frame_alloc();
    int ret, got = 0, bad = 0, maxerr = 0;
    long samples = 0;

    if (!out || (ret = build_graph(&graph, &src, &sink, opts)) < 0) {
        fprintf(stderr, "cspfix_example: cannot build the graph: %s\n",
                av_err2str(out ? ret : AVERROR(ENOMEM)));
        return 1;
    }
    for (int n = 0; n <= NB_FRAMES; n++) {
        if (n < NB_FRAMES) {
            if (!(in = make_frame(n)))
                return 1;
            ret = av_buffersrc_add_frame(src, in);
            av_frame_free(&in);
        } else {
            ret = av_buffersrc_add_frame(src, NULL); /* EOF */
        }
        if (ret < 0) {
            fprintf(stderr, "cspfix_example: feeding frame %d: %s\n", n, av_err2str(ret));
            return 1;
        }
        while ((ret = av_buffersink_get_frame(sink, out)) >= 0) {
            const int k = got++;
            if (out->color_primaries != AVCOL_PRI_BT709 || out->color_trc != AVCOL_TRC_BT709 ||
                out->colorspace != AVCOL_SPC_BT709 || out->color_range != AVCOL_RANGE_JPEG) {
                fprintf(stderr, "frame %d tagged %s/%s/%s/%s, expected bt709/bt709/bt709/pc\n", k,
                        av_color_primaries_name(out->color_primaries),
                        av_color_transfer_name(out->color_trc),
                        av_color_space_name(out->colorspace),
                        av_color_range_name(out->color_range));
                bad++;
            }
            if (out->pts != k * 2 || out->width != W || out->height != H ||
                out->format != AV_PIX_FMT_YUV420P) {
                fprintf(stderr, "frame %d: pts %"PRId64" %dx%d %s, expected pts %d %dx%d yuv420p\n",
                        k, out->pts, out->width, out->height,
                        av_get_pix_fmt_name(out->format), k * 2, W, H);
                bad++;
            }
            for (int y = 0; y < H; y++) {
                for (int x = 0; x < W; x++) {
                    int yin  = 16 + (x * 219 + k * 7) % 220;
                    int want = (int)lrint((yin - 16) * 255.0 / 219.0);
                    int e    = abs(out->data[0][y * out->linesize[0] + x] - want);
                    maxerr = e > maxerr ? e : maxerr;
                    samples++;
                }
            }
            for (int p = 1; p < 3; p++)
                for (int y = 0; y < H / 2; y++)
                    for (int x = 0; x < W / 2; x++) {
                        int e = abs(out->data[p][y * out->linesize[p] + x] - 128);
                        maxerr = e > maxerr ? e : maxerr;
                        samples++;
                    }
            av_frame_unref(out);
        }
        if (ret != AVERROR(EAGAIN) && ret != AVERROR_EOF) {
            fprintf(stderr, "cspfix_example: reading frames: %s\n", av_err2str(ret));
            return 1;
        }
    }
    if (got != NB_FRAMES) {
        fprintf(stderr, "cspfix_example: %d frames out of %d\n", got, NB_FRAMES);
        bad++;
    }
    if (maxerr > 1) {
        fprintf(stderr, "cspfix_example: pixel error %d LSB (> 1)\n", maxerr);
        bad++;
    }
    printf("cspfix_example (%s, libavfilter %s): %d frames, expected tags bt709/bt709/bt709/pc, "
           "max error %d LSB over %ld samples: %s\n", opts, AV_STRINGIFY(LIBAVFILTER_VERSION),
           got, maxerr, samples, bad ? "FAILED" : "ok");
    av_frame_free(&out);
    avfilter_graph_free(&graph);
    return bad ? 1 : 0;
}
