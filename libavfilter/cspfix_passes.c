/*
 * cspfix: the passes around the engine: measured light, Dolby Vision reshaping, YCgCo-R lifting
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

static int light_slice(AVFilterContext *ctx, void *arg, int jobnr, int nb_jobs)
{
    ff_cspfix_light_scan_job(arg, jobnr);
    return 0;
}

/* peak=auto: measure a PQ frame's light (cspfix_light.h) into s->light: *idx its index
 * there, -1 when not measured (not PQ, samples it cannot read, a description error,
 * which the conversion reports) */
int ff_cspfix_measure_light(AVFilterContext *ctx, const AVFrame *in, int64_t *idx)
{
    CspfixContext *s = ctx->priv;
    CspfixLightScan *scan;
    CspfixFrameLight fl;
    CspfixDesc id;
    unsigned guessed;
    int ret, new_shot;

    *idx = -1;
    s->icc.linearize = s->linearize;
    if (s->peak >= 0.0 || ff_cspfix_describe_input(ctx, &s->d, in, &id, &guessed) < 0)
        return 0;
    if (s->dovi && ff_cspfix_dovi_check(in) == CSPFIX_DOVI_APPLY) {
        /* the base layer's codes are not the picture's light: the RPU's L1 is */
        if (!s->warned_measure)
            av_log(ctx, AV_LOG_WARNING, "peak=auto on Dolby Vision frames: the source peak "
                   "is the RPU's L1 shot maximum (the base layer is measured only once "
                   "reshaped, which is not built yet).\n");
        s->warned_measure = 1;
        return 0;
    }
    if (id.trc == AVCOL_TRC_SMPTE2084 && ff_cspfix_is_ycgcor(id.csp)) {
        if (!s->warned_measure)
            av_log(ctx, AV_LOG_WARNING, "peak=auto does not measure %s frames (their Y is "
                   "coded at more bits than the RGB it lifts to): the source peak comes from "
                   "the metadata.\n", av_color_space_name(id.csp));
        s->warned_measure = 1;
        return 0;
    }
    if (id.trc != AVCOL_TRC_SMPTE2084) {
        if (!s->warned_measure && ff_cspfix_is_hdr_trc(id.trc))
            av_log(ctx, AV_LOG_WARNING, "peak=auto measures PQ input; the input is %s, "
                   "whose peak is its nominal display's: the metadata's or 1000 cd/m2.\n",
                   ff_cspfix_trc_name(id.trc));
        s->warned_measure = 1;
        return 0;
    }
    if ((ret = ff_cspfix_light_scan_init(&scan, in, &id, ff_filter_get_nb_threads(ctx))) < 0) {
        if (ret != AVERROR(ENOSYS))
            return ret;
        if (!s->warned_measure)
            av_log(ctx, AV_LOG_WARNING, "peak=auto cannot read %s samples: the source peak "
                   "comes from the metadata.\n", av_get_pix_fmt_name(in->format));
        s->warned_measure = 1;
        return 0;
    }
    ff_filter_execute(ctx, light_slice, scan, NULL, ff_cspfix_light_scan_jobs(scan));
    ff_cspfix_light_scan_finish(scan, &fl);
    ff_cspfix_light_scan_free(&scan);
    if (fl.luma_only && !s->warned_measure) {
        av_log(ctx, AV_LOG_WARNING, "peak=auto measures the %s matrix's first component "
               "(no R'G'B' without the full conversion): saturated highlights count less.\n",
               av_color_space_name(id.csp));
        s->warned_measure = 1;
    }
    *idx = ff_cspfix_light_add(&s->light, &fl, &new_shot);
    if (new_shot)
        av_log(ctx, AV_LOG_VERBOSE, "Shot %d from pts %"PRId64": measured peak %.0f cd/m2, "
               "mean max(R,G,B) %.3f (PQ).\n", s->light.shots, in->pts,
               ff_cspfix_pq_to_nits(fl.peak_pq), fl.mean_pq);
    return 0;
}


/*
 * Dolby Vision (doc/conversion-model.md section 9): with dovi=auto an RPU cspfix can apply
 * (no enhancement layer in effect) is applied: returns 1, and the frame is reshaped and
 * converted from the RPU's colour. Otherwise never silent: an RPU whose enhancement layer
 * is in use (profile 7) leaves the base layer converted by its tags with a warning once,
 * as does dovi=ignore; profile 5 frames (ipt-c2: no HDR10 or HLG base layer) cannot be
 * converted without the RPU: an error unless ispace= says what they are. Returns 0 then.
 */
int ff_cspfix_check_dovi(AVFilterContext *ctx, const AVFrame *in)
{
    CspfixContext *s = ctx->priv;
    const enum CspfixDoviUse use = ff_cspfix_dovi_check(in);
    const int ipt = in->colorspace == AVCOL_SPC_IPT_C2 && s->d.icsp == AVCOL_SPC_UNSPECIFIED &&
                    s->d.iall == CSPFIX_ALL_UNSET;

    if (use == CSPFIX_DOVI_APPLY && s->dovi)
        return 1;
    if (use != CSPFIX_DOVI_NONE && ipt) {
        av_log(ctx, AV_LOG_ERROR, "Dolby Vision profile 5 input (matrix ipt-c2: an IPT-PQ-c2 "
               "signal with an RPU, and no HDR10 or HLG base layer): its picture needs the "
               "RPU's reshaping, %s, and converted without it the colours are wrong (green "
               "and purple). Set ispace= if the frames are mislabelled.\n",
               s->dovi ? "which needs an enhancement layer these frames do not have" :
               "which dovi=ignore turns off (dovi=auto applies it)");
        return AVERROR_PATCHWELCOME;
    }
    if (use != CSPFIX_DOVI_NONE && !s->warned_dovi) {
        av_log(ctx, AV_LOG_WARNING, "Dolby Vision RPU on the frames: the base layer (%s, %s) "
               "is converted by its tags, without the RPU's reshaping and per-shot light "
               "(%s); the output carries no RPU once its transfer changes or a tone curve "
               "runs.\n", ff_cspfix_prim_name(in->color_primaries),
               ff_cspfix_trc_name(in->color_trc), !s->dovi ? "dovi=ignore" :
               "the RPU uses an enhancement layer (profile 7) that is not in these frames: "
               "base layer only");
        s->warned_dovi = 1;
    }
    return 0;
}

static int dovi_slice(AVFilterContext *ctx, void *arg, int jobnr, int nb_jobs)
{
    CspfixContext *s = ctx->priv;

    ff_cspfix_dovi_slice(&s->dv, arg, jobnr, nb_jobs);
    return 0;
}

/* A frame with in's properties and side data that borrows buf's planes (its format,
 * in's size): what a pass before the engine gives the engine to convert */
static int borrow_view(const AVFrame *in, const AVFrame *buf, AVFrame **view)
{
    AVFrame *v = av_frame_alloc();
    int ret;

    if (!v)
        return AVERROR(ENOMEM);
    if ((ret = av_frame_copy_props(v, in)) < 0) {
        av_frame_free(&v);
        return ret;
    }
    v->format = buf->format;
    v->width  = in->width;
    v->height = in->height;
    for (int i = 0; i < 3; i++) {
        v->data[i]     = buf->data[i];
        v->linesize[i] = buf->linesize[i];
    }
    *view = v;
    return 0;
}

/* The reshaped signal of in (with in's properties and side data) in *view, which
 * borrows s->dv.frame's buffers. */
int ff_cspfix_reshape(AVFilterContext *ctx, const AVFrame *in, AVFrame **view)
{
    CspfixContext *s = ctx->priv;
    const int nb_threads = ff_filter_get_nb_threads(ctx);
    AVFrame *v;
    int ret;

    if ((ret = ff_cspfix_dovi_update(ctx, &s->dv, in, nb_threads)) < 0 ||
        (ret = borrow_view(in, s->dv.frame, &v)) < 0)
        return ret;
    /* what the plan converts from is the RPU's colour (ff_cspfix_update_plan()); these
     * tags are the output's defaults: HDR10 (BT.2020 PQ Y'CbCr, limited range) */
    v->color_primaries = AVCOL_PRI_BT2020;
    v->color_trc       = AVCOL_TRC_SMPTE2084;
    v->colorspace      = AVCOL_SPC_BT2020_NCL;
    v->color_range     = AVCOL_RANGE_MPEG;
    ff_filter_execute(ctx, dovi_slice, (void *)in, NULL,
                      ff_cspfix_dovi_jobs(&s->dv, in->height, nb_threads));
    *view = v;
    return 0;
}

typedef struct LiftData {
    const AVFrame *src;
    AVFrame *dst;
    int to_rgb;                 ///< inverse lifting (YCgCo-R to RGB), else forward
} LiftData;

static int lift_slice(AVFilterContext *ctx, void *arg, int jobnr, int nb_jobs)
{
    const CspfixContext *s = ctx->priv;
    const LiftData *ld = arg;
    const int y0 = ld->dst->height * jobnr / nb_jobs;
    const int y1 = ld->dst->height * (jobnr + 1) / nb_jobs;

    ff_cspfix_ycgcor_lift(&s->yc_dsp, ld->src, ld->dst, ld->to_rgb, y0, y1);
    return 0;
}

void ff_cspfix_lift(AVFilterContext *ctx, const AVFrame *src, AVFrame *dst, int to_rgb)
{
    LiftData ld = { src, dst, to_rgb };

    ff_filter_execute(ctx, lift_slice, &ld, NULL,
                      FFMAX(1, FFMIN(dst->height, ff_filter_get_nb_threads(ctx))));
}

/* A YCgCo-R input (its matrix after the input options): its RGB (with in's properties
 * and side data, tagged rgb, full range) in *view, which borrows s->yc_in's buffers;
 * returns 1. Returns 0 for other input. */
int ff_cspfix_lift_input(AVFilterContext *ctx, const AVFrame *in, AVFrame **view)
{
    CspfixContext *s = ctx->priv;
    enum AVPixelFormat fmt;
    CspfixDesc id;
    unsigned guessed;
    AVFrame *v;
    int ret;

    if ((ret = ff_cspfix_describe_input(ctx, &s->d, in, &id, &guessed)) < 0)
        return ret;
    if (!ff_cspfix_is_ycgcor(id.csp))
        return 0;
    /* full range is the only one: an unspecified range is taken as full */
    if ((ret = ff_cspfix_ycgcor_check(ctx, "input", id.csp, in->format,
                                      guessed & CSPFIX_GUESS_RANGE ? AVCOL_RANGE_JPEG :
                                      id.range, &fmt)) < 0 ||
        (ret = ff_cspfix_ycgcor_frame(&s->yc_in, fmt, in->width, in->height)) < 0 ||
        (ret = borrow_view(in, s->yc_in, &v)) < 0)
        return ret;
    v->colorspace  = AVCOL_SPC_RGB;
    v->color_range = AVCOL_RANGE_JPEG;
    ff_cspfix_lift(ctx, in, s->yc_in, 1);
    *view = v;
    return 1;
}
