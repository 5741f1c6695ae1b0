/*
 * cspfix: colour space conversion filter (options, negotiation, per-frame dispatch)
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

/**
 * @file
 * Converts between colour descriptions (primaries, transfer, matrix, range).
 * This file is the filter's glue: options, commands, links, and per frame the order of
 * things: the passes before the engine (cspfix_passes.c: measured light, Dolby Vision
 * reshaping, YCgCo-R lifting), the frame's plan (cspfix_update.c: descriptions, plan,
 * engine), the engine's slices, the output's tags, side data and ICC profile. The
 * context is in cspfix_filter.h.
 */

#include <math.h>
#include <string.h>

#include "libavutil/dovi_meta.h"
#include "libavutil/fifo.h"
#include "libavutil/frame.h"
#include "libavutil/opt.h"
#include "libavutil/pixdesc.h"

#include "avfilter.h"
#include "filters.h"
#include "formats.h"
#include "video.h"

#include "cspfix_colorimetry.h"
#include "cspfix_describe.h"
#include "cspfix_detect.h"
#include "cspfix_dovi.h"
#include "cspfix_exec.h"
#include "cspfix_hdrmeta.h"
#include "cspfix_io.h"
#include "cspfix_negotiate.h"
#include "cspfix_plan.h"
#include "cspfix_tf.h"
#include "cspfix_tonemap.h"
#include "cspfix_light.h"
#include "cspfix_ycgcor.h"
#include "cspfix_filter.h"

typedef struct ThreadData {
    const AVFrame *in;
    AVFrame *out;
} ThreadData;

/* A frame waiting for its conversion (lookahead), with its light measurement's index */
typedef struct QueuedFrame {
    AVFrame *frame;
    int64_t light;              ///< ff_cspfix_light_add()'s index, -1: not measured
} QueuedFrame;

/* ---- pixels ---- */


/* icc_out: an RGB output without a profile that still describes it gets one (the input's
 * stays when the conversion kept its primaries and transfer) */
static int icc_output(AVFilterContext *ctx, AVFrame *out)
{
    CspfixContext *s = ctx->priv;
    const CspfixDesc *od = &s->key.out;
    AVBufferRef *buf = NULL;
    int ret;

    if (s->icc_out == CSPFIX_ICC_OUT_NONE || od->csp != AVCOL_SPC_RGB ||
        ff_cspfix_is_xyz_prim(od->prim) ||
        av_frame_get_side_data(out, AV_FRAME_DATA_ICC_PROFILE))
        return 0;
    if (s->icc_out == CSPFIX_ICC_OUT_AUTO && od->prim == AVCOL_PRI_BT709 &&
        (od->trc == AVCOL_TRC_IEC61966_2_1 || od->trc == AVCOL_TRC_BT709))
        return 0;
    s->icc.linearize = s->linearize;
    ret = ff_cspfix_icc_make(&s->icc, od->prim, od->trc, &buf);
    if (ret == AVERROR(ENOMEM))
        return ret;
    if (ret < 0) {
        /* the tags say PQ, HLG and the rest a profile cannot carry; only cspfix's own
         * values are then lost */
        const int lost = ff_cspfix_prim_tag(od->prim) != od->prim ||
                         ff_cspfix_trc_tag(od->trc) != od->trc;
        if (!s->warned_icc_out && (lost || s->icc_out == CSPFIX_ICC_OUT_WRITE))
            av_log(ctx, AV_LOG_WARNING, "No ICC profile for the output (primaries %s, "
                   "transfer %s): %s.%s\n", ff_cspfix_prim_name(od->prim),
                   ff_cspfix_trc_name(od->trc), ret == AVERROR(ENOSYS) ?
                   "FFmpeg is built without lcms2 (--enable-lcms2)" :
                   "a profile cannot describe that transfer", lost ?
                   " The frames' tags cannot say it either: they are unspecified." : "");
        s->warned_icc_out = 1;
        return 0;
    }
    if (!av_frame_new_side_data_from_buf(out, AV_FRAME_DATA_ICC_PROFILE, buf)) {
        av_buffer_unref(&buf);
        return AVERROR(ENOMEM);
    }
    return 0;
}

static int tag_output(AVFilterContext *ctx, AVFrame *out)
{
    CspfixContext *s = ctx->priv;
    int ret;

    out->color_primaries = ff_cspfix_prim_tag(s->key.out.prim);
    out->color_trc       = ff_cspfix_trc_tag(s->key.out.trc);
    out->colorspace      = s->key.out.csp;
    out->color_range     = s->key.out.range;
    if (s->exec.fout.hsub || s->exec.fout.vsub)
        out->chroma_location = s->out_loc;
    if ((ret = ff_cspfix_output_side_data(out, &s->key.in, &s->key.out, lrint(s->plan.tm_peak),
                                          s->plan.tone_mapped, s->target_peak)) < 0)
        return ret;
    return icc_output(ctx, out);
}

/* The frame's mastering display and content light level equal the link's. */
static int same_hdr_meta(const AVFrame *f, const AVFilterLink *l)
{
    static const enum AVFrameSideDataType types[] = {
        AV_FRAME_DATA_MASTERING_DISPLAY_METADATA, AV_FRAME_DATA_CONTENT_LIGHT_LEVEL,
    };
    for (int i = 0; i < FF_ARRAY_ELEMS(types); i++) {
        const AVFrameSideData *a = av_frame_get_side_data(f, types[i]);
        const AVFrameSideData *b = av_frame_side_data_get(l->side_data, l->nb_side_data, types[i]);
        if (!a != !b || (a && (a->size != b->size || memcmp(a->data, b->data, a->size))))
            return 0;
    }
    return 1;
}

/* Tags and side data of an output frame. The first is compared with the output link
 * when the input frame had what its link announced (in_agrees): else the source, not
 * cspfix, announced something else. */
static int output_frame_props(AVFilterContext *ctx, AVFrame *out, int in_agrees)
{
    CspfixContext *s = ctx->priv;
    int ret = tag_output(ctx, out);

    if (ret >= 0 && !s->link_sd_checked) {
        s->link_sd_checked = 1;
        if (in_agrees && !same_hdr_meta(out, ctx->outputs[0]))
            av_log(ctx, AV_LOG_WARNING, "The output frames' mastering display/content light "
                   "level metadata differ from what the output link announced when it was "
                   "configured, before any frame (the input's transfer and primaries were "
                   "unknown then): an encoder opened with the link's (x265, SVT-AV1 in "
                   "ffmpeg) writes the link's into its headers. Set itrc=/iprimaries= (or "
                   "icolorimetry=) and trc=/primaries= so both agree.\n");
    }
    return ret;
}

/* Frames libavfilter lets through to us: hardware surfaces, and a size the link
 * was not configured for (the output buffer has the link's size). */
static int check_frame(AVFilterContext *ctx, const AVFilterLink *inlink, const AVFrame *in)
{
    const AVPixFmtDescriptor *d = av_pix_fmt_desc_get(in->format);

    if ((d && (d->flags & AV_PIX_FMT_FLAG_HWACCEL)) || in->hw_frames_ctx) {
        av_log(ctx, AV_LOG_ERROR, "Hardware frames (%s) are not supported; download them "
               "first (hwdownload,format=...).\n", d ? d->name : "unknown format");
        return AVERROR(ENOSYS);
    }
    if (in->width != inlink->w || in->height != inlink->h) {
        av_log(ctx, AV_LOG_ERROR, "Frame size %dx%d differs from the configured %dx%d; a size "
               "change needs the filter graph to be reconfigured.\n",
               in->width, in->height, inlink->w, inlink->h);
        return AVERROR(EINVAL);
    }
    return 0;
}

static int convert_slice(AVFilterContext *ctx, void *arg, int jobnr, int nb_jobs)
{
    const CspfixContext *s = ctx->priv;
    const ThreadData *td = arg;

    ff_cspfix_exec_slice(&s->exec, td->in, td->out, s->field, jobnr, nb_jobs);
    return 0;
}

/* Convert a frame (light: its light measurement, -1: none) and send it on */
/* detect: the frame (described by ff_cspfix_update_plan() as s->key.in) into the detector's
 * statistics; a fix it finds applies from the next frame */
static void detect_frame(AVFilterContext *ctx, const AVFrame *in)
{
    CspfixContext *s = ctx->priv;

    ff_cspfix_detect_frame(ctx, &s->det, s->detect, in, &s->key.in,
                           s->d.in_set.range != AVCOL_RANGE_UNSPECIFIED,
                           s->d.in_set.csp != AVCOL_SPC_UNSPECIFIED);
    if (s->detect == CSPFIX_DETECT_FIX) {
        s->d.det_range = s->det.range;
        s->d.det_csp   = s->det.csp;
    }
}

static int convert_frame(AVFilterContext *ctx, AVFrame *in, int64_t light)
{
    CspfixContext *s = ctx->priv;
    AVFilterLink *inlink = ctx->inputs[0], *outlink = ctx->outputs[0];
    ThreadData td;
    AVFrame *out, *dst, *view = NULL;
    const AVFrame *src = in;
    int ret, in_agrees = 0;

    if (!s->link_sd_checked)
        in_agrees = same_hdr_meta(in, inlink);
    if ((ret = check_frame(ctx, inlink, in)) < 0 || (ret = ff_cspfix_check_dovi(ctx, in)) < 0) {
        av_frame_free(&in);
        return ret;
    }
    /* Dolby Vision: the reshaped frame is what is converted; YCgCo-R: its RGB */
    s->reshaping  = ret;
    s->lifting_in = 0;
    if (s->reshaping)
        ret = ff_cspfix_reshape(ctx, in, &view);
    else
        ret = s->lifting_in = ff_cspfix_lift_input(ctx, in, &view);
    if (ret < 0) {
        av_frame_free(&in);
        return ret;
    }
    if (view)
        src = view;
    if ((ret = ff_cspfix_update_plan(ctx, s->reshaping ? src : in, src, outlink->format, light)) < 0) {
        av_frame_free(&view);
        av_frame_free(&in);
        return ret;
    }
    if (s->detect != CSPFIX_DETECT_OFF && !s->reshaping && !s->lifting_in)
        detect_frame(ctx, in);

    if (s->exec.path == CSPFIX_PATH_PASSTHROUGH && !view && s->yc_fmt == AV_PIX_FMT_NONE) {
        if ((ret = output_frame_props(ctx, in, in_agrees)) < 0) {
            av_frame_free(&in);
            return ret;
        }
        return ff_filter_frame(outlink, in);
    }

    out = ff_get_video_buffer(outlink, outlink->w, outlink->h);
    if (!out) {
        ret = AVERROR(ENOMEM);
        goto fail;
    }
    if ((ret = av_frame_copy_props(out, in)) < 0)
        goto fail;
    /* YCgCo-R output: the engine writes its RGB, lifted into out below */
    dst = out;
    if (s->yc_fmt != AV_PIX_FMT_NONE) {
        if ((ret = ff_cspfix_ycgcor_frame(&s->yc_out, s->yc_fmt, out->width, out->height)) < 0)
            goto fail;
        dst = s->yc_out;
    }
    ff_cspfix_exec_prepare_output(&s->exec, dst);
    /* Dolby Vision: HDR10 metadata from the RPU (adjusted to the output as any frame's;
     * the output link, configured before the first RPU, cannot have it) */
    if (s->reshaping && (ret = ff_cspfix_dovi_hdr10(in, out)) < 0)
        goto fail;
    if ((ret = output_frame_props(ctx, out, in_agrees && !s->reshaping)) < 0)
        goto fail;
    if (s->reshaping) {
        /* the output is no longer the RPU's signal */
        av_frame_remove_side_data(out, AV_FRAME_DATA_DOVI_METADATA);
        av_frame_remove_side_data(out, AV_FRAME_DATA_DOVI_RPU_BUFFER);
    }

    if (ff_cspfix_exec_needs_alloc(&s->exec, in->width) &&
        (ret = ff_cspfix_exec_alloc(&s->exec, in->width, ff_filter_get_nb_threads(ctx))) < 0)
        goto fail;
    if (s->exec.path == CSPFIX_PATH_PASSTHROUGH) {
        /* the reshaped or lifted signal is the output, or what is lifted into it */
        if (dst == out && (ret = av_frame_copy(out, src)) < 0)
            goto fail;
        if (dst != out)
            ff_cspfix_lift(ctx, src, out, 0);
    } else {
        td.in  = src;
        td.out = dst;
        ff_filter_execute(ctx, convert_slice, &td, NULL,
                          ff_cspfix_exec_jobs(&s->exec, in->height));
        if (dst != out)
            ff_cspfix_lift(ctx, dst, out, 0);
    }

    av_frame_free(&view);
    av_frame_free(&in);
    return ff_filter_frame(outlink, out);
fail:
    av_frame_free(&view);
    av_frame_free(&in);
    av_frame_free(&out);
    return ret;
}

/* Frames are measured as they arrive; with lookahead=N each waits until N more have
 * arrived (or the input ends), so that its measurement sees its shot's next N frames. */
static int filter_frame(AVFilterLink *inlink, AVFrame *in)
{
    AVFilterContext *ctx = inlink->dst;
    CspfixContext *s = ctx->priv;
    QueuedFrame q = { in, -1 };
    int ret;

    if ((ret = ff_cspfix_measure_light(ctx, in, &q.light)) < 0) {
        av_frame_free(&in);
        return ret;
    }
    if (!s->lookahead)
        return convert_frame(ctx, in, q.light);
    if ((ret = av_fifo_write(s->queue, &q, 1)) < 0) {
        av_frame_free(&in);
        return ret;
    }
    if (av_fifo_can_read(s->queue) <= s->lookahead)
        return 0;
    av_fifo_read(s->queue, &q, 1);
    return convert_frame(ctx, q.frame, q.light);
}

/* At the end of the input, the frames still waiting go out, one per request. */
static int request_frame(AVFilterLink *outlink)
{
    AVFilterContext *ctx = outlink->src;
    CspfixContext *s = ctx->priv;
    QueuedFrame q;
    int ret = ff_request_frame(ctx->inputs[0]);

    if (ret == AVERROR_EOF && s->queue && av_fifo_read(s->queue, &q, 1) >= 0)
        return convert_frame(ctx, q.frame, q.light);
    return ret;
}

/* ---- negotiation ---- */

static int query_formats(const AVFilterContext *ctx, AVFilterFormatsConfig **cfg_in,
                         AVFilterFormatsConfig **cfg_out)
{
    const CspfixContext *s = ctx->priv;
    return ff_cspfix_query_formats((void *)ctx, &s->d, s->format, cfg_in, cfg_out);
}

static int config_input(AVFilterLink *inlink)
{
    AVFilterContext *ctx = inlink->dst;
    const char *why = ff_cspfix_unsupported_reason(inlink->format);

    if (why) {
        av_log(ctx, AV_LOG_ERROR, "Unsupported input pixel format %s: %s.\n",
               av_get_pix_fmt_name(inlink->format), why);
        return AVERROR(ENOSYS);
    }
    return 0;
}

/*
 * The output link's side data (copied from the input link before config_output()).
 * It is what an encoder is opened with: ffmpeg hands the buffersink's side data to the
 * encoder, and x265 and SVT-AV1 write their mastering display and content light level
 * headers from it, not from the frames. The frames' rules (ff_cspfix_output_side_data())
 * apply to it, with what is known before any frame: the input counts as HDR when itrc=
 * (or iall=) says so or its link carries a mastering display or content light level,
 * else as SDR; the output's transfer and primaries are the options', else the input's.
 */
static int link_side_data(AVFilterContext *ctx, AVFilterLink *outlink)
{
    const CspfixContext *s = ctx->priv;
    const CspfixDescribe *d = &s->d;
    CspfixDesc id = { .prim = AVCOL_PRI_UNSPECIFIED, .trc = AVCOL_TRC_UNSPECIFIED };
    CspfixDesc od;
    AVFrame *tmp;
    int tm_peak = 0, tone_mapped = 0, ret = 0;

    id.prim = d->in_set.prim;
    id.trc  = d->in_set.trc;
    if (id.trc == AVCOL_TRC_UNSPECIFIED &&
        (av_frame_side_data_get(outlink->side_data, outlink->nb_side_data,
                                AV_FRAME_DATA_MASTERING_DISPLAY_METADATA) ||
         av_frame_side_data_get(outlink->side_data, outlink->nb_side_data,
                                AV_FRAME_DATA_CONTENT_LIGHT_LEVEL)))
        id.trc = AVCOL_TRC_SMPTE2084; /* HDR: PQ or HLG, the rules are the same */
    if (ctx->inputs[0]->colorspace == AVCOL_SPC_IPT_C2 && s->dovi &&
        id.trc == AVCOL_TRC_UNSPECIFIED) {
        /* Dolby Vision profile 5: the RPU's colour is BT.2020 PQ */
        id.prim = id.prim == AVCOL_PRI_UNSPECIFIED ? AVCOL_PRI_BT2020 : id.prim;
        id.trc  = AVCOL_TRC_SMPTE2084;
    }
    od = id;
    if (d->out_set.prim != AVCOL_PRI_UNSPECIFIED)
        od.prim = d->out_set.prim;
    if (d->out_set.trc != AVCOL_TRC_UNSPECIFIED)
        od.trc = d->out_set.trc;

    if (!(tmp = av_frame_alloc()))
        return AVERROR(ENOMEM);
    FFSWAP(AVFrameSideData **, tmp->side_data, outlink->side_data);
    FFSWAP(int, tmp->nb_side_data, outlink->nb_side_data);
    /* the tone mapping of the plan (cspfix_tonemap.c), from the link's source peak */
    if (ff_cspfix_is_hdr_trc(id.trc) && ff_cspfix_is_hdr_trc(od.trc)) {
        CspfixPlanOptions po = ff_cspfix_plan_options(s);
        CspfixTone t;
        double prim[3][2];
        po.src_peak = ff_cspfix_source_peak(ctx, tmp, 1, s->peak, 0.0, 0.0, 0, prim, NULL);
        ff_cspfix_tone(&id, &od, &po, &t);
        tone_mapped = t.tm != CSPFIX_TM_NONE;
        tm_peak = lrint(tone_mapped ? t.dst_peak : t.clip_peak);
    }
    ret = ff_cspfix_output_side_data(tmp, &id, &od, tm_peak, tone_mapped, s->target_peak);
    FFSWAP(AVFrameSideData **, tmp->side_data, outlink->side_data);
    FFSWAP(int, tmp->nb_side_data, outlink->nb_side_data);
    av_frame_free(&tmp);
    return ret;
}

static int config_output(AVFilterLink *outlink)
{
    AVFilterContext *ctx = outlink->src;
    AVFilterLink *inlink = ctx->inputs[0];
    CspfixContext *s = ctx->priv;
    int ret;

    outlink->w = inlink->w;
    outlink->h = inlink->h;
    outlink->sample_aspect_ratio = inlink->sample_aspect_ratio;
    s->have_plan  = 0;
    s->d.have_first = 0;
    s->link_sd_checked = 0;
    if ((ret = ff_cspfix_resolve_options(ctx, &s->d, 1)) < 0)
        return ret;
    ff_cspfix_negotiated_target(ctx, &s->d);
    if ((ret = link_side_data(ctx, outlink)) < 0)
        return ret;
    return ff_cspfix_exec_alloc(&s->exec, inlink->w, ff_filter_get_nb_threads(ctx));
}

static av_cold int init(AVFilterContext *ctx)
{
    CspfixContext *s = ctx->priv;
    CspfixDSPContext dsp;
    int ret;

    ff_cspfix_dsp_init(&dsp);
    s->yc_dsp = dsp.ycgcor;

    s->d.neg_csp   = AVCOL_SPC_UNSPECIFIED;
    s->d.neg_range = AVCOL_RANGE_UNSPECIFIED;
    s->d.icc       = &s->icc;
    s->d.det_range = AVCOL_RANGE_UNSPECIFIED;
    s->d.det_csp   = AVCOL_SPC_UNSPECIFIED;
    s->logged_field = -1;
    s->yc_fmt       = AV_PIX_FMT_NONE;
    /* conflicts are warned about in config_output(): ffmpeg initialises a graph twice */
    if ((ret = ff_cspfix_resolve_options(ctx, &s->d, 0)) < 0)
        return ret;
    /* negotiation would refuse it without naming it */
    if (s->d.csp == AVCOL_SPC_RESERVED) {
        av_log(ctx, AV_LOG_ERROR, "Unsupported output matrix (colorspace): reserved.\n");
        return AVERROR(EINVAL);
    }

    if (s->lookahead) {
        /* frames the timeline disables pass by the queue, which would reorder them */
        if (ctx->enable_str) {
            av_log(ctx, AV_LOG_ERROR, "lookahead=%d cannot be combined with enable= (frames "
                   "outside the enabled intervals would overtake the %d waiting); convert "
                   "every frame, or use lookahead=0.\n", s->lookahead, s->lookahead);
            return AVERROR(EINVAL);
        }
        if (!(s->queue = av_fifo_alloc2(s->lookahead + 1, sizeof(QueuedFrame), 0)))
            return AVERROR(ENOMEM);
    }
    ff_cspfix_exec_init(&s->exec);
    return 0;
}

static av_cold void uninit(AVFilterContext *ctx)
{
    CspfixContext *s = ctx->priv;
    QueuedFrame q;

    while (s->queue && av_fifo_read(s->queue, &q, 1) >= 0)
        av_frame_free(&q.frame);
    av_fifo_freep2(&s->queue);
    ff_cspfix_exec_uninit(&s->exec);
    ff_cspfix_dovi_uninit(&s->dv);
    av_frame_free(&s->yc_in);
    av_frame_free(&s->yc_out);
    ff_cspfix_icc_uninit(&s->icc);
}

#define OFFSET(x) offsetof(CspfixContext, x)
#define FLAGS AV_OPT_FLAG_FILTERING_PARAM | AV_OPT_FLAG_VIDEO_PARAM
#define RFLAGS FLAGS | AV_OPT_FLAG_RUNTIME_PARAM
#define C(name, val, u) { name, NULL, 0, AV_OPT_TYPE_CONST, { .i64 = val }, INT_MIN, INT_MAX, FLAGS, .unit = u }

#define PRIM_CONSTS(u)                                                                   \
    C("unknown", AVCOL_PRI_UNSPECIFIED, u), C("unspecified", AVCOL_PRI_UNSPECIFIED, u),   \
    C("bt709", AVCOL_PRI_BT709, u), C("bt470m", AVCOL_PRI_BT470M, u),                     \
    C("bt470bg", AVCOL_PRI_BT470BG, u), C("smpte170m", AVCOL_PRI_SMPTE170M, u),           \
    C("smpte240m", AVCOL_PRI_SMPTE240M, u), C("film", AVCOL_PRI_FILM, u),                 \
    C("bt2020", AVCOL_PRI_BT2020, u), C("smpte428", AVCOL_PRI_SMPTE428, u),               \
    C("smpte428_1", AVCOL_PRI_SMPTE428, u), C("smpte431", AVCOL_PRI_SMPTE431, u),         \
    C("smpte432", AVCOL_PRI_SMPTE432, u), C("jedec-p22", AVCOL_PRI_JEDEC_P22, u),         \
    C("ebu3213", AVCOL_PRI_EBU3213, u), C("vgamut", AVCOL_PRI_V_GAMUT, u),                \
    C("dci-p3", AVCOL_PRI_SMPTE431, u), C("display-p3", AVCOL_PRI_SMPTE432, u),           \
    C("oprgb", CSPFIX_PRI_OPRGB, u), C("adobe-rgb", CSPFIX_PRI_OPRGB, u)

#define TRC_CONSTS(u)                                                                    \
    C("unknown", AVCOL_TRC_UNSPECIFIED, u), C("unspecified", AVCOL_TRC_UNSPECIFIED, u),   \
    C("bt709", AVCOL_TRC_BT709, u), C("bt470m", AVCOL_TRC_GAMMA22, u),                    \
    C("gamma22", AVCOL_TRC_GAMMA22, u), C("bt470bg", AVCOL_TRC_GAMMA28, u),               \
    C("gamma28", AVCOL_TRC_GAMMA28, u), C("smpte170m", AVCOL_TRC_SMPTE170M, u),           \
    C("smpte240m", AVCOL_TRC_SMPTE240M, u), C("linear", AVCOL_TRC_LINEAR, u),             \
    C("log100", AVCOL_TRC_LOG, u), C("log", AVCOL_TRC_LOG, u),                            \
    C("log316", AVCOL_TRC_LOG_SQRT, u), C("log_sqrt", AVCOL_TRC_LOG_SQRT, u),             \
    C("iec61966-2-4", AVCOL_TRC_IEC61966_2_4, u), C("iec61966_2_4", AVCOL_TRC_IEC61966_2_4, u), \
    C("xvycc", AVCOL_TRC_IEC61966_2_4, u), C("bt1361e", AVCOL_TRC_BT1361_ECG, u),         \
    C("bt1361", AVCOL_TRC_BT1361_ECG, u), C("iec61966-2-1", AVCOL_TRC_IEC61966_2_1, u),   \
    C("iec61966_2_1", AVCOL_TRC_IEC61966_2_1, u), C("srgb", AVCOL_TRC_IEC61966_2_1, u),   \
    C("bt2020-10", AVCOL_TRC_BT2020_10, u), C("bt2020_10bit", AVCOL_TRC_BT2020_10, u),    \
    C("bt2020-12", AVCOL_TRC_BT2020_12, u), C("bt2020_12bit", AVCOL_TRC_BT2020_12, u),    \
    C("smpte2084", AVCOL_TRC_SMPTE2084, u), C("pq", AVCOL_TRC_SMPTE2084, u),              \
    C("smpte428", AVCOL_TRC_SMPTE428, u), C("smpte428_1", AVCOL_TRC_SMPTE428, u),         \
    C("arib-std-b67", AVCOL_TRC_ARIB_STD_B67, u), C("hlg", AVCOL_TRC_ARIB_STD_B67, u),    \
    C("vlog", AVCOL_TRC_V_LOG, u), C("oprgb", CSPFIX_TRC_OPRGB, u),                      \
    C("adobe-rgb", CSPFIX_TRC_OPRGB, u), C("dci-p3", CSPFIX_TRC_DCIP3, u)

#define CSP_CONSTS(u)                                                                    \
    C("unknown", AVCOL_SPC_UNSPECIFIED, u), C("unspecified", AVCOL_SPC_UNSPECIFIED, u),   \
    C("rgb", AVCOL_SPC_RGB, u), C("gbr", AVCOL_SPC_RGB, u),                               \
    C("bt709", AVCOL_SPC_BT709, u), C("fcc", AVCOL_SPC_FCC, u),                           \
    C("bt470bg", AVCOL_SPC_BT470BG, u), C("smpte170m", AVCOL_SPC_SMPTE170M, u),           \
    C("smpte240m", AVCOL_SPC_SMPTE240M, u), C("ycgco", AVCOL_SPC_YCGCO, u),               \
    C("ycocg", AVCOL_SPC_YCGCO, u), C("bt2020nc", AVCOL_SPC_BT2020_NCL, u),               \
    C("bt2020ncl", AVCOL_SPC_BT2020_NCL, u), C("bt2020_ncl", AVCOL_SPC_BT2020_NCL, u),    \
    C("bt2020c", AVCOL_SPC_BT2020_CL, u), C("bt2020cl", AVCOL_SPC_BT2020_CL, u),          \
    C("bt2020_cl", AVCOL_SPC_BT2020_CL, u),                                               \
    C("chroma-derived-nc", AVCOL_SPC_CHROMA_DERIVED_NCL, u),                              \
    C("chroma-derived-c", AVCOL_SPC_CHROMA_DERIVED_CL, u),                                \
    C("ictcp", AVCOL_SPC_ICTCP, u), C("ipt-c2", AVCOL_SPC_IPT_C2, u),                     \
    C("smpte2085", AVCOL_SPC_SMPTE2085, u), C("ycgco-re", AVCOL_SPC_YCGCO_RE, u),         \
    C("ycgco-ro", AVCOL_SPC_YCGCO_RO, u)

#define RANGE_CONSTS(u)                                                                  \
    C("unknown", AVCOL_RANGE_UNSPECIFIED, u), C("unspecified", AVCOL_RANGE_UNSPECIFIED, u), \
    C("tv", AVCOL_RANGE_MPEG, u), C("mpeg", AVCOL_RANGE_MPEG, u),                         \
    C("limited", AVCOL_RANGE_MPEG, u), C("pc", AVCOL_RANGE_JPEG, u),                      \
    C("jpeg", AVCOL_RANGE_JPEG, u), C("full", AVCOL_RANGE_JPEG, u)

#define ALL_CONST(name, value) C(name, value, "all"),
#define ALL_CONSTS C("unset", CSPFIX_ALL_UNSET, "all"), CSPFIX_ALL_NAMES(ALL_CONST)

#define INTOPT(name, help, field, def, min, max, u, flags) \
    { name, help, OFFSET(field), AV_OPT_TYPE_INT, { .i64 = def }, min, max, flags, .unit = u }

static const AVOption cspfix_options[] = {
    INTOPT("all", "Set output primaries, transfer and matrix together (unset: each from its own option, else the input's)", d.all, CSPFIX_ALL_UNSET, 0, CSPFIX_ALL_NB - 1, "all", RFLAGS),
    ALL_CONSTS
    INTOPT("space", "Output matrix (colorspace)", d.csp, AVCOL_SPC_UNSPECIFIED, 0, AVCOL_SPC_NB - 1, "csp", RFLAGS),
    INTOPT("matrix", "Output matrix (colorspace)", d.csp, AVCOL_SPC_UNSPECIFIED, 0, AVCOL_SPC_NB - 1, "csp", RFLAGS),
    CSP_CONSTS("csp"),
    INTOPT("trc", "Output transfer characteristics", d.trc, AVCOL_TRC_UNSPECIFIED, 0, CSPFIX_TRC_DCIP3, "trc", RFLAGS),
    INTOPT("transfer", "Output transfer characteristics", d.trc, AVCOL_TRC_UNSPECIFIED, 0, CSPFIX_TRC_DCIP3, "trc", RFLAGS),
    TRC_CONSTS("trc"),
    INTOPT("primaries", "Output colour primaries", d.prim, AVCOL_PRI_UNSPECIFIED, 0, CSPFIX_PRI_OPRGB, "prm", RFLAGS),
    PRIM_CONSTS("prm"),
    INTOPT("range", "Output range", d.range, AVCOL_RANGE_UNSPECIFIED, 0, AVCOL_RANGE_NB - 1, "rng", RFLAGS),
    RANGE_CONSTS("rng"),
    { "format", "Output pixel format: a name from -pix_fmts that cspfix takes (unset: negotiated, the input's format first)", OFFSET(format), AV_OPT_TYPE_PIXEL_FMT, { .i64 = AV_PIX_FMT_NONE }, -1, INT_MAX, FLAGS },

    INTOPT("iall", "Set input primaries, transfer and matrix together (unset: the frame's tags)", d.iall, CSPFIX_ALL_UNSET, 0, CSPFIX_ALL_NB - 1, "all", RFLAGS),
    INTOPT("ispace", "Input matrix override", d.icsp, AVCOL_SPC_UNSPECIFIED, 0, AVCOL_SPC_NB - 1, "csp", RFLAGS),
    INTOPT("imatrix", "Input matrix override", d.icsp, AVCOL_SPC_UNSPECIFIED, 0, AVCOL_SPC_NB - 1, "csp", RFLAGS),
    INTOPT("itrc", "Input transfer override", d.itrc, AVCOL_TRC_UNSPECIFIED, 0, CSPFIX_TRC_DCIP3, "trc", RFLAGS),
    INTOPT("itransfer", "Input transfer override", d.itrc, AVCOL_TRC_UNSPECIFIED, 0, CSPFIX_TRC_DCIP3, "trc", RFLAGS),
    INTOPT("iprimaries", "Input primaries override", d.iprim, AVCOL_PRI_UNSPECIFIED, 0, CSPFIX_PRI_OPRGB, "prm", RFLAGS),
    INTOPT("irange", "Input range override", d.irange, AVCOL_RANGE_UNSPECIFIED, 0, AVCOL_RANGE_NB - 1, "rng", RFLAGS),

    INTOPT("xyzwhite", "The white of CIE XYZ (smpte428, xyz12) content, for white point adaptation", d.xyz_white, CSPFIX_XYZ_D65, 0, CSPFIX_XYZ_E, "xyzwhite", RFLAGS),
    C("d65", CSPFIX_XYZ_D65, "xyzwhite"), C("dci", CSPFIX_XYZ_DCI, "xyzwhite"),
    C("e", CSPFIX_XYZ_E, "xyzwhite"),
    INTOPT("fast", "Skip linearisation and gamut conversion (matrix/range only)", fast, 0, 0, 1, NULL, RFLAGS),
    INTOPT("dither", "Dithering on depth reduction", dither, CSPFIX_DITHER_AUTO, CSPFIX_DITHER_AUTO, CSPFIX_DITHER_NB - 1, "dither", RFLAGS),
    C("auto", CSPFIX_DITHER_AUTO, "dither"), C("none", CSPFIX_DITHER_NONE, "dither"),
    C("ordered", CSPFIX_DITHER_ORDERED, "dither"), C("ed", CSPFIX_DITHER_ED, "dither"),
    C("fsb", CSPFIX_DITHER_ED, "dither"),
    INTOPT("wpadapt", "White point adaptation", wpadapt, CSPFIX_WP_BRADFORD, 0, CSPFIX_WP_NB - 1, "wpadapt", RFLAGS),
    C("bradford", CSPFIX_WP_BRADFORD, "wpadapt"), C("vonkries", CSPFIX_WP_VONKRIES, "wpadapt"),
    C("identity", CSPFIX_WP_IDENTITY, "wpadapt"),
    INTOPT("linearize", "Linear light: display (EOTF) or scene (inverse OETF)", linearize, CSPFIX_LIN_DISPLAY, 0, 1, "lin", RFLAGS),
    C("display", CSPFIX_LIN_DISPLAY, "lin"), C("scene", CSPFIX_LIN_SCENE, "lin"),
    INTOPT("chroma_loc", "Output chroma siting", loc, AVCHROMA_LOC_UNSPECIFIED, 0, AVCHROMA_LOC_NB - 1, "loc", RFLAGS),
    INTOPT("ichroma_loc", "Input chroma siting override", iloc, AVCHROMA_LOC_UNSPECIFIED, 0, AVCHROMA_LOC_NB - 1, "loc", RFLAGS),
    C("auto", AVCHROMA_LOC_UNSPECIFIED, "loc"), C("unspecified", AVCHROMA_LOC_UNSPECIFIED, "loc"),
    C("left", AVCHROMA_LOC_LEFT, "loc"), C("center", AVCHROMA_LOC_CENTER, "loc"),
    C("topleft", AVCHROMA_LOC_TOPLEFT, "loc"), C("top", AVCHROMA_LOC_TOP, "loc"),
    C("bottomleft", AVCHROMA_LOC_BOTTOMLEFT, "loc"), C("bottom", AVCHROMA_LOC_BOTTOM, "loc"),
    INTOPT("interlace", "Vertical chroma resampling of 4:2:0 frames: per field or over the frame", interlace, INTERLACE_AUTO, 0, INTERLACE_NB - 1, "interlace", RFLAGS),
    C("auto", INTERLACE_AUTO, "interlace"), C("progressive", INTERLACE_PROGRESSIVE, "interlace"),
    C("interlaced", INTERLACE_INTERLACED, "interlace"),
    { "colorimetry", "Output description as a GStreamer colorimetry: bt601, bt709, bt2020, bt2020-10, bt2100-pq, bt2100-hlg, smpte240m, sRGB, or the numeric range:matrix:transfer:primaries form (in a filtergraph: colorimetry='2\\:6\\:14\\:7' is BT.2100 PQ)", OFFSET(d.colorimetry), AV_OPT_TYPE_STRING, { .str = NULL }, 0, 0, RFLAGS },
    { "icolorimetry", "Input description as a GStreamer colorimetry (values as colorimetry)", OFFSET(d.icolorimetry), AV_OPT_TYPE_STRING, { .str = NULL }, 0, 0, RFLAGS },
    { "v4l2_colorspace", "Input V4L2 colorspace: default, smpte170m, smpte240m, rec709, bt878, 470_system_m, 470_system_bg, jpeg, srgb, bt2020, oprgb, dci_p3 (raw: not expressible)", OFFSET(d.v4l2_csp), AV_OPT_TYPE_STRING, { .str = NULL }, 0, 0, RFLAGS },
    { "v4l2_ycbcr_enc", "Input V4L2 Y'CbCr encoding: default, 601, 709, xv601, xv709, sycc, bt2020, bt2020_const_lum, smpte240m", OFFSET(d.v4l2_enc), AV_OPT_TYPE_STRING, { .str = NULL }, 0, 0, RFLAGS },
    { "v4l2_quantization", "Input V4L2 quantization: default, full_range, lim_range", OFFSET(d.v4l2_quant), AV_OPT_TYPE_STRING, { .str = NULL }, 0, 0, RFLAGS },
    { "v4l2_xfer_func", "Input V4L2 transfer function: default, 709, srgb, smpte240m, none, smpte2084, oprgb, dci_p3", OFFSET(d.v4l2_xfer), AV_OPT_TYPE_STRING, { .str = NULL }, 0, 0, RFLAGS },
    INTOPT("guess", "Guess unspecified input fields (0: error)", d.guess, 1, 0, 1, NULL, RFLAGS),
    INTOPT("clip", "Clip output to the nominal range", clip, 0, 0, 1, NULL, RFLAGS),
    INTOPT("clipgamut", "Clip linear RGB to the output gamut", clipgamut, 0, 0, 1, "clipgamut", RFLAGS),
    C("none", 0, "clipgamut"), C("rgb", 1, "clipgamut"),
    INTOPT("tonemap", "Tone curve (auto: bt2390 for HDR to SDR, the frame's HDR10+ curve (st2094-40) when made for the target, else none)", tonemap, CSPFIX_TM_AUTO, 0, CSPFIX_TM_NB - 1, "tonemap", RFLAGS),
    C("auto", CSPFIX_TM_AUTO, "tonemap"), C("none", CSPFIX_TM_NONE, "tonemap"),
    C("clip", CSPFIX_TM_CLIP, "tonemap"), C("bt2390", CSPFIX_TM_BT2390, "tonemap"),
    C("reinhard", CSPFIX_TM_REINHARD, "tonemap"), C("hable", CSPFIX_TM_HABLE, "tonemap"),
    C("mobius", CSPFIX_TM_MOBIUS, "tonemap"), C("st2094-40", CSPFIX_TM_ST2094_40, "tonemap"),
    C("bt2446a", CSPFIX_TM_BT2446A, "tonemap"), C("spline", CSPFIX_TM_SPLINE, "tonemap"),
    { "desat", "Desaturate tone-mapped highlights toward grey (0..1)", OFFSET(desat), AV_OPT_TYPE_DOUBLE, { .dbl = 0.0 }, 0.0, 1.0, RFLAGS },
    { "peak", "Source peak in cd/m2 of HDR input, over the frame's metadata; HLG display peak (0: from MaxCLL, else the mastering display, else 1000; auto: measured on each PQ frame)", OFFSET(peak), AV_OPT_TYPE_DOUBLE, { .dbl = 0.0 }, -1.0, 10000.0, RFLAGS, .unit = "peak" },
    { "auto", "measure each PQ frame's light (smoothed within a shot, reset at scene cuts)", 0, AV_OPT_TYPE_CONST, { .i64 = -1 }, 0, 0, RFLAGS, .unit = "peak" },
    INTOPT("tmmode", "What the tone curve maps: max (the largest of R, G, B; all three scaled alike) or ipt (IPT's intensity, its chroma scaled alike)", tmmode, CSPFIX_TMMODE_MAX, 0, CSPFIX_TMMODE_NB - 1, "tmmode", RFLAGS),
    C("max", CSPFIX_TMMODE_MAX, "tmmode"), C("ipt", CSPFIX_TMMODE_IPT, "tmmode"),
    INTOPT("detect", "Detect mislabelled input from its pixels (range, RGB/Y'CbCr, BT.601/709 by colour bars): off, warn (say which option fixes it), fix (apply the range or matrix fix from the next frame)", detect, CSPFIX_DETECT_WARN, 0, CSPFIX_DETECT_NB - 1, "detect", FLAGS),
    C("off", CSPFIX_DETECT_OFF, "detect"), C("warn", CSPFIX_DETECT_WARN, "detect"), C("fix", CSPFIX_DETECT_FIX, "detect"),
    INTOPT("icc", "Input ICC profile (AV_FRAME_DATA_ICC_PROFILE, read with lcms2): auto (its primaries and transfer over the frame's tags), use (over the input overrides too), ignore", d.icc_mode, CSPFIX_ICC_AUTO, 0, CSPFIX_ICC_NB - 1, "icc", RFLAGS),
    C("auto", CSPFIX_ICC_AUTO, "icc"), C("use", CSPFIX_ICC_USE, "icc"), C("ignore", CSPFIX_ICC_IGNORE, "icc"),
    INTOPT("icc_out", "ICC profile of RGB output: auto (for primaries or transfer other than sRGB/BT.709), write (always), none", icc_out, CSPFIX_ICC_OUT_AUTO, 0, CSPFIX_ICC_OUT_NB - 1, "icc_out", RFLAGS),
    C("auto", CSPFIX_ICC_OUT_AUTO, "icc_out"), C("write", CSPFIX_ICC_OUT_WRITE, "icc_out"), C("none", CSPFIX_ICC_OUT_NONE, "icc_out"),
    INTOPT("dovi", "Dolby Vision: apply the RPU's reshaping and colour to frames that carry one (auto), or convert the frames by their tags (ignore)", dovi, 1, 0, 1, "dovi", FLAGS),
    C("auto", 1, "dovi"), C("ignore", 0, "dovi"),
    INTOPT("lookahead", "peak=auto: frames measured ahead of their conversion, so that each shot is tone mapped with its own light from its first frame (frames are delayed, not dropped or reordered)", lookahead, 0, 0, CSPFIX_LIGHT_MAX_AHEAD, NULL, FLAGS),
    { "target_peak", "Target peak in cd/m2: SDR white (0: 203, BT.2408 reference white, both ways)", OFFSET(target_peak), AV_OPT_TYPE_DOUBLE, { .dbl = 0.0 }, 0.0, 10000.0, RFLAGS },
    { "target_black", "Target black in cd/m2: tonemap=bt2390 lifts the shadows to it (BT.2390's black level lift; 0: none)", OFFSET(target_black), AV_OPT_TYPE_DOUBLE, { .dbl = 0.0 }, 0.0, 10.0, RFLAGS },
    INTOPT("gamut", "Gamut mapping in linear light", gamut, CSPFIX_GAMUT_NONE, 0, CSPFIX_GAMUT_NB - 1, "gamut", RFLAGS),
    C("none", CSPFIX_GAMUT_NONE, "gamut"), C("clip", CSPFIX_GAMUT_CLIP, "gamut"),
    C("desaturate", CSPFIX_GAMUT_DESATURATE, "gamut"), C("compress", CSPFIX_GAMUT_COMPRESS, "gamut"),
    { NULL }
};

AVFILTER_DEFINE_CLASS(cspfix);

static int process_command(AVFilterContext *ctx, const char *cmd, const char *args,
                           char *res, int res_len, int flags)
{
    CspfixContext *s = ctx->priv;
    int ret = ff_filter_process_command(ctx, cmd, args, res, res_len, flags);

    if (ret == AVERROR(ENOSYS) && !strcmp(cmd, "format"))
        av_log(ctx, AV_LOG_ERROR, "format cannot change mid-stream: the output pixel "
               "format is negotiated once.\n");
    if (ret < 0)
        return ret;
    /* a colorimetry command replaces the whole description of its side: the field
     * options and the preset set before it no longer apply */
    if (!strcmp(cmd, "colorimetry")) {
        s->d.all  = CSPFIX_ALL_UNSET;
        s->d.prim = AVCOL_PRI_UNSPECIFIED;
        s->d.trc  = AVCOL_TRC_UNSPECIFIED;
        s->d.csp  = AVCOL_SPC_UNSPECIFIED;
        s->d.range = AVCOL_RANGE_UNSPECIFIED;
    } else if (!strcmp(cmd, "icolorimetry")) {
        s->d.iall  = CSPFIX_ALL_UNSET;
        s->d.iprim = AVCOL_PRI_UNSPECIFIED;
        s->d.itrc  = AVCOL_TRC_UNSPECIFIED;
        s->d.icsp  = AVCOL_SPC_UNSPECIFIED;
        s->d.irange = AVCOL_RANGE_UNSPECIFIED;
    }
    ret = ff_cspfix_resolve_options(ctx, &s->d, 1);
    /* every runtime option changes the plan: rebuild it on the next frame */
    s->have_plan = 0;
    return ret;
}

static const AVFilterPad inputs[] = {
    {
        .name         = "default",
        .type         = AVMEDIA_TYPE_VIDEO,
        .filter_frame = filter_frame,
        .config_props = config_input,
    },
};

static const AVFilterPad outputs[] = {
    {
        .name         = "default",
        .type          = AVMEDIA_TYPE_VIDEO,
        .config_props  = config_output,
        .request_frame = request_frame,
    },
};

const FFFilter ff_vf_cspfix = {
    .p.name          = "cspfix",
    .p.description   = NULL_IF_CONFIG_SMALL("Convert colour descriptions: primaries, "
                                            "transfer, matrix, range."),
    .p.priv_class    = &cspfix_class,
    .p.flags         = AVFILTER_FLAG_SUPPORT_TIMELINE_GENERIC | AVFILTER_FLAG_SLICE_THREADS,
    .init            = init,
    .uninit          = uninit,
    .priv_size       = sizeof(CspfixContext),
    FILTER_INPUTS(inputs),
    FILTER_OUTPUTS(outputs),
    FILTER_QUERY_FUNC2(query_formats),
    .process_command = process_command,
};
