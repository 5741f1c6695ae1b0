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
 * This file is the filter's glue: options, format negotiation, and per frame the
 * descriptions (cspfix_describe.c), the plan (cspfix_plan.c, cached), the engine
 * (cspfix_exec.c), the output's tags and side data (cspfix_hdrmeta.c).
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

/* Vertical chroma resampling of 4:2:0 frames (option interlace) */
enum CspfixInterlace {
    INTERLACE_AUTO,         ///< the frame's AV_FRAME_FLAG_INTERLACED
    INTERLACE_PROGRESSIVE,  ///< over the whole frame
    INTERLACE_INTERLACED,   ///< per field: each field's chroma only from its own lines
    INTERLACE_NB,
};

/* What a plan is made for: the same key, the same plan. Compared with memcmp(). */
typedef struct PlanKey {
    CspfixDesc in, out;
    enum AVPixelFormat in_fmt, out_fmt;
    enum AVChromaLocation in_loc, out_loc;
    double src_peak;
    double src_avg;              ///< the scene's average (tonemap=spline only)
    double src_prim[3][2];       ///< mastering display primaries (gamut=compress)
    int dovi;                    ///< Dolby Vision reshaped input: its colour below
    CspfixDoviColor dovi_color;
    CspfixBezier bezier;         ///< the frame's HDR10+ curve
} PlanKey;

typedef struct CspfixContext {
    const AVClass *class;

    /* options (the description options in d) */
    CspfixDescribe d;            ///< what the input is, what the output is to be
    int format;
    int fast, dither, wpadapt, linearize, clip, clipgamut;
    int loc, iloc;               ///< chroma_loc, ichroma_loc
    int interlace;               ///< enum CspfixInterlace
    int tonemap, gamut;          ///< enum CspfixTonemap, enum CspfixGamut
    int tmmode;                  ///< enum CspfixToneMode
    double desat, peak, target_peak;
    double target_black;         ///< bt2390's black lift, cd/m2 (0: none)
    double src_peak;             ///< source peak of the current frame (cd/m2), 0: none
    CspfixLight light;           ///< peak=auto: the light measured so far
    int warned_measure;
    int warned_dovi;
    int warned_bezier;           ///< tonemap=st2094-40 on frames without a curve
    int dovi;                    ///< option dovi: 1 auto (apply RPUs), 0 ignore
    CspfixDovi dv;               ///< the RPU's reshaping (cspfix_dovi.h)
    int reshaping;               ///< the frame being converted is dv.frame, reshaped
    int lookahead;               ///< frames measured ahead of their conversion
    AVFifo *queue;               ///< lookahead: the frames waiting (QueuedFrame)
    CspfixDesc warned_out;       ///< the output description last warned about
    CspfixIcc icc;               ///< ICC profiles read (icc=) and made (icc_out=)
    int icc_out;                 ///< enum CspfixIccOut
    int warned_icc_out;
    int detect;                  ///< enum CspfixDetectMode
    CspfixDetect det;            ///< the detector's statistics
    /* YCgCo-R (cspfix_ycgcor.h): lifted into RGB before the engine, out of it after */
    int lifting_in;              ///< the frame being converted is YCgCo-R, lifted into yc_in
    AVFrame *yc_in;              ///< the lifted input (reused)
    enum AVPixelFormat yc_fmt;   ///< YCgCo-R output: the engine's RGB format, else NONE
    AVFrame *yc_out;             ///< YCgCo-R output: the engine's RGB frame (reused)

    /* current plan */
    int have_plan;
    PlanKey key;                 ///< what the current plan is made for
    enum AVChromaLocation in_loc, out_loc;
    int field;                   ///< the current frame is resampled vertically per field
    int logged_field;            ///< the field mode last logged (-1: none since the plan)
    CspfixPlan plan;
    CspfixExec exec;             ///< the plan bound to kernels, run on slices
    unsigned guessed;            ///< fields guessed for the current description
    int warned_hdr;
    int warned_timeline;         ///< enable= mixes two descriptions in one stream
    int link_sd_checked;         ///< the first output frame's HDR metadata was compared
                                 ///< with the output link's
} CspfixContext;

/* A frame waiting for its conversion (lookahead), with its light measurement's index */
typedef struct QueuedFrame {
    AVFrame *frame;
    int64_t light;              ///< ff_cspfix_light_add()'s index, -1: not measured
} QueuedFrame;

typedef struct ThreadData {
    const AVFrame *in;
    AVFrame *out;
} ThreadData;

/* ---- describing frames ---- */

static int desc_differs(const CspfixDesc *a, const CspfixDesc *b)
{
    return a->prim != b->prim || a->trc != b->trc || a->csp != b->csp || a->range != b->range;
}

/* Options that contradict each other or the input: say what happens. */
static void warn_plan(AVFilterContext *ctx, const CspfixDesc *id, const CspfixDesc *od)
{
    const CspfixContext *s = ctx->priv;

    if (s->clipgamut && s->gamut != CSPFIX_GAMUT_NONE && s->gamut != CSPFIX_GAMUT_CLIP)
        av_log(ctx, AV_LOG_WARNING, "clipgamut=rgb clips linear RGB to the output gamut, so "
               "gamut=%s does not run; set one of them.\n",
               s->gamut == CSPFIX_GAMUT_COMPRESS ? "compress" : "desaturate");
    if (s->tonemap != CSPFIX_TM_AUTO && !ff_cspfix_is_hdr_trc(id->trc))
        av_log(ctx, AV_LOG_WARNING, "tonemap=%s has no effect: the input (%s) is SDR, tone "
               "curves map PQ or HLG light.\n", ff_cspfix_tonemap_name(s->tonemap),
               ff_cspfix_trc_name(id->trc));
    if (s->peak > 0.0 && !ff_cspfix_is_hdr_trc(id->trc))
        av_log(ctx, AV_LOG_WARNING, "peak=%g has no effect: the input (%s) is SDR; peak is "
               "the source peak of PQ or HLG input.\n", s->peak, ff_cspfix_trc_name(id->trc));
    if (s->desat > 0.0 && s->plan.tone.tm != CSPFIX_TM_NONE && s->tmmode == CSPFIX_TMMODE_IPT)
        av_log(ctx, AV_LOG_WARNING, "desat=%g has no effect with tmmode=ipt, which keeps "
               "the chroma to intensity ratio of IPT (desat moves max-RGB colours toward "
               "their luminance).\n", s->desat);
    if (s->target_black > 0.0 && s->plan.tone.tm != CSPFIX_TM_BT2390)
        av_log(ctx, AV_LOG_WARNING, "target_black=%g has no effect: it is BT.2390's black "
               "level lift, and the tone curve is %s.\n", s->target_black,
               ff_cspfix_tonemap_name(s->plan.tone.tm));
    if (s->desat > 0.0 && s->plan.tone.tm == CSPFIX_TM_NONE)
        av_log(ctx, AV_LOG_WARNING, "desat=%g has no effect: no tone curve runs (%s to %s%s).\n",
               s->desat, ff_cspfix_trc_name(id->trc), ff_cspfix_trc_name(od->trc),
               ff_cspfix_is_hdr_trc(id->trc) ? "" : ", SDR input");
    if (s->fast && (id->trc != od->trc || id->prim != od->prim))
        av_log(ctx, AV_LOG_WARNING, "fast=1 skips linearisation: the change of %s%s%s is a "
               "relabel, not a conversion; leave fast unset to convert.\n",
               id->prim != od->prim ? "primaries" : "",
               id->prim != od->prim && id->trc != od->trc ? " and " : "",
               id->trc != od->trc ? "transfer" : "");
}

/* Logs the vertical chroma resampling of this frame when it differs from the last one
 * logged (frames of one stream may switch between progressive and interlaced). */
static void log_field(AVFilterContext *ctx)
{
    CspfixContext *s = ctx->priv;

    const CspfixExec *e = &s->exec;

    if (ff_cspfix_exec_path_per_plane(e->path) || (!e->fin.vsub && !e->fout.vsub) ||
        s->field == s->logged_field)
        return;
    av_log(ctx, AV_LOG_VERBOSE, "  vertical chroma resampling: %s\n",
           s->field ? "per field (interlaced)" : "over the frame (progressive)");
    s->logged_field = s->field;
}

/* The plan options of the filter options (the source peak is the frame's) */
static CspfixPlanOptions plan_options(const CspfixContext *s)
{
    const CspfixPlanOptions po = {
        .linearize = s->linearize,
        .wpadapt   = s->wpadapt,
        .fast      = s->fast,
        .clipgamut = s->clipgamut,
        .tonemap   = s->tonemap,
        .tmmode    = s->tmmode,
        .gamut     = s->gamut,
        .desat     = s->desat,
        .src_peak  = 0.0,
        .dst_peak  = s->target_peak,
        .dst_black = s->target_black,
        .hlg_lw    = FFMAX(s->peak, 0.0),
    };
    return po;
}

static int light_slice(AVFilterContext *ctx, void *arg, int jobnr, int nb_jobs)
{
    ff_cspfix_light_scan_job(arg, jobnr);
    return 0;
}

/* peak=auto: measure a PQ frame's light (cspfix_light.h) into s->light: *idx its index
 * there, -1 when not measured (not PQ, samples it cannot read, a description error,
 * which the conversion reports) */
static int measure_light(AVFilterContext *ctx, const AVFrame *in, int64_t *idx)
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

/* in: what the engine converts; coded: the frame whose tags and format describe the
 * input (in, or the YCgCo-R frame lifted into in); light: the frame's light
 * measurement (measure_light()), -1: none */
static int update_plan(AVFilterContext *ctx, const AVFrame *coded, const AVFrame *in,
                       enum AVPixelFormat ofmt, int64_t light)
{
    CspfixContext *s = ctx->priv;
    CspfixDesc id, od, pod;
    enum AVPixelFormat efmt = ofmt;
    CspfixPlanOptions po = plan_options(s);
    CspfixExecConfig ec = { 0 };
    PlanKey key;
    unsigned guessed;
    int ret;

    s->icc.linearize = s->linearize;
    s->field = s->interlace == INTERLACE_INTERLACED ||
               (s->interlace == INTERLACE_AUTO && (in->flags & AV_FRAME_FLAG_INTERLACED));
    /* an out-of-range frame value counts as unspecified */
    s->in_loc  = s->iloc != AVCHROMA_LOC_UNSPECIFIED ? s->iloc :
                 in->chroma_location > AVCHROMA_LOC_UNSPECIFIED &&
                 in->chroma_location < AVCHROMA_LOC_NB ? in->chroma_location :
                 AVCHROMA_LOC_LEFT;
    s->out_loc = s->loc != AVCHROMA_LOC_UNSPECIFIED ? s->loc : s->in_loc;

    if ((ret = ff_cspfix_describe_input(ctx, &s->d, coded, &id, &guessed)) < 0 ||
        (ret = ff_cspfix_describe_output(ctx, &s->d, coded, ofmt, &id, &od)) < 0)
        return ret;
    if (s->lifting_in) {
        /* the engine converts the lifted RGB (lift_input()) */
        id.csp   = AVCOL_SPC_RGB;
        id.range = AVCOL_RANGE_JPEG;
        id.depth = av_pix_fmt_desc_get(in->format)->comp[0].depth;
        guessed &= ~(CSPFIX_GUESS_CSP | CSPFIX_GUESS_RANGE);
    }
    /* YCgCo-R output: the engine converts to its RGB, lifted after it (lift()) */
    pod = od;
    if (ff_cspfix_is_ycgcor(od.csp)) {
        if (s->d.out_set.range != AVCOL_RANGE_MPEG) {
            od.range = AVCOL_RANGE_JPEG;
            s->d.range_from = "full: YCgCo-R";
        }
        if ((ret = ff_cspfix_ycgcor_check(ctx, "output", od.csp, ofmt, od.range, &efmt)) < 0)
            return ret;
        pod.csp   = AVCOL_SPC_RGB;
        pod.range = AVCOL_RANGE_JPEG;
        pod.depth = av_pix_fmt_desc_get(efmt)->comp[0].depth;
    }
    if (s->reshaping) {
        /* the RPU says what the reshaped signal is */
        id.prim  = AVCOL_PRI_BT2020;
        id.trc   = AVCOL_TRC_SMPTE2084;
        id.csp   = AVCOL_SPC_BT2020_NCL;
        id.range = AVCOL_RANGE_JPEG;
        po.dovi  = 1;
        memcpy(po.dovi_ycc, s->dv.color.ycc, sizeof(po.dovi_ycc));
        memcpy(po.dovi_lms, s->dv.color.lms, sizeof(po.dovi_lms));
    }
    po.src_peak = ff_cspfix_source_peak(ctx, in, ff_cspfix_is_hdr_trc(id.trc), s->peak,
                                        light >= 0 && s->peak < 0.0 ?
                                        ff_cspfix_light_peak(&s->light, light) : 0.0,
                                        s->reshaping ? s->dv.l1_max : 0.0,
                                        s->gamut == CSPFIX_GAMUT_COMPRESS, po.src_prim,
                                        &s->src_peak);
    /* only spline's knee depends on the average: other curves' plans stay as they are */
    if (s->tonemap == CSPFIX_TM_SPLINE)
        po.src_avg = ff_cspfix_source_avg(in, ff_cspfix_is_hdr_trc(id.trc),
                                          light >= 0 && s->peak < 0.0 ?
                                          ff_cspfix_light_mean(&s->light, light) : 0.0,
                                          s->reshaping ? s->dv.l1_avg : 0.0);
    memset(&key, 0, sizeof(key));
    key.in       = id;
    key.out      = od;
    key.in_fmt   = in->format;
    key.out_fmt  = ofmt;
    key.in_loc   = s->in_loc;
    key.out_loc  = s->out_loc;
    key.src_peak = po.src_peak;
    key.src_avg  = po.src_avg;
    memcpy(key.src_prim, po.src_prim, sizeof(key.src_prim));
    if (ff_cspfix_is_hdr_trc(id.trc))
        ff_cspfix_hdr10plus_curve(in, &po.bezier);
    memcpy(&key.bezier, &po.bezier, sizeof(key.bezier));
    if ((key.dovi = s->reshaping))
        key.dovi_color = s->dv.color;
    if (s->have_plan && !memcmp(&key, &s->key, sizeof(key))) {
        log_field(ctx);
        return 0;
    }

    s->have_plan = 0;
    if ((ret = ff_cspfix_plan_build(&s->plan, &id, &pod, &po, ctx)) < 0)
        return ret;
    warn_plan(ctx, &id, &pod);
    if (guessed != s->guessed || guessed)
        ff_cspfix_log_guesses(ctx, &id, guessed, in);
    s->guessed = guessed;
    if (s->plan.tone.bezier_missing && !s->warned_bezier) {
        av_log(ctx, AV_LOG_WARNING, "tonemap=st2094-40: the frames carry no HDR10+ tone "
               "curve (AV_FRAME_DATA_DYNAMIC_HDR_PLUS with tone_mapping_flag); bt2390 runs "
               "until one does.\n");
        s->warned_bezier = 1;
    }
    if (s->plan.tone.tm == CSPFIX_TM_ST2094_40)
        av_log(ctx, AV_LOG_VERBOSE, "HDR10+ tone curve: knee (%g, %g), %d anchors, made for "
               "a %g cd/m2 display, to %g cd/m2.\n", po.bezier.kx, po.bezier.ky,
               po.bezier.n - 1, po.bezier.target, s->plan.tone.dst_peak);
    if (s->plan.hdr_to_sdr && !s->warned_hdr) {
        av_log(ctx, AV_LOG_WARNING, "HDR (%s) to SDR (%s) with tonemap=none: "
               "highlights above target_peak clip.\n",
               ff_cspfix_trc_name(id.trc), ff_cspfix_trc_name(od.trc));
        s->warned_hdr = 1;
    }
    if (s->plan.tone.clip_peak > 0.0 && !s->warned_hdr) {
        av_log(ctx, AV_LOG_WARNING, "HDR (%s, source peak %g cd/m2) to %s, which holds %g "
               "cd/m2, with tonemap=none: light above %g cd/m2 clips (tonemap=auto maps it "
               "with bt2390).\n", ff_cspfix_trc_name(id.trc), s->plan.tone.src_peak,
               ff_cspfix_trc_name(od.trc), s->plan.tone.clip_peak, s->plan.tone.clip_peak);
        s->warned_hdr = 1;
    }
    if (s->tonemap == CSPFIX_TM_AUTO && s->plan.tone.tm != CSPFIX_TM_NONE &&
        ff_cspfix_is_hdr_trc(id.trc) && ff_cspfix_is_hdr_trc(od.trc))
        av_log(ctx, AV_LOG_INFO, "HDR (%s) source peak %g cd/m2 is above the %g cd/m2 %s "
               "holds: tone mapped to it with %s (tonemap=auto); the output's mastering "
               "display and content light level say so.\n", ff_cspfix_trc_name(id.trc),
               s->plan.tone.src_peak, s->plan.tone.dst_peak, s->target_peak > 0.0 ?
               "target_peak" : ff_cspfix_trc_name(od.trc),
               ff_cspfix_tonemap_name(s->plan.tone.tm));

    ec.plan          = &s->plan;
    ec.in_fmt        = in->format;
    ec.out_fmt       = efmt;
    ec.in_loc        = s->in_loc;
    ec.out_loc       = s->out_loc;
    ec.dither        = s->dither;
    ec.clip_legal    = s->clip && od.range == AVCOL_RANGE_MPEG;
    if ((ret = ff_cspfix_exec_configure(&s->exec, &ec)) < 0)
        return ret;
    s->yc_fmt = efmt != ofmt ? efmt : AV_PIX_FMT_NONE;

    av_log(ctx, AV_LOG_VERBOSE, "Plan %s %s/%s/%s/%s -> %s %s/%s/%s/%s (matrix %s, range %s) (%s):\n",
           av_get_pix_fmt_name(in->format), ff_cspfix_prim_name(id.prim),
           ff_cspfix_trc_name(id.trc), av_color_space_name(id.csp),
           av_color_range_name(id.range), av_get_pix_fmt_name(ofmt),
           ff_cspfix_prim_name(od.prim), ff_cspfix_trc_name(od.trc),
           av_color_space_name(od.csp), av_color_range_name(od.range), s->d.csp_from, s->d.range_from,
           ff_cspfix_exec_path_desc(s->exec.path));
    if (!s->plan.nb_ops && s->exec.path != CSPFIX_PATH_PASSTHROUGH)
        av_log(ctx, AV_LOG_VERBOSE, "  plan: no colour change; %s\n",
               s->in_loc != s->out_loc && (s->exec.fin.hsub || s->exec.fin.vsub) ?
               "chroma resampled to the output siting" : "samples repacked");
    else
        ff_cspfix_plan_print(ctx, AV_LOG_VERBOSE, &s->plan);
    if (s->lifting_in || s->yc_fmt != AV_PIX_FMT_NONE)
        av_log(ctx, AV_LOG_VERBOSE, "  YCgCo-R lifting (exact integers):%s%s%s%s\n",
               s->lifting_in ? " the input into " : "",
               s->lifting_in ? av_get_pix_fmt_name(in->format) : "",
               s->yc_fmt != AV_PIX_FMT_NONE ? " the output from " : "",
               s->yc_fmt != AV_PIX_FMT_NONE ? av_get_pix_fmt_name(s->yc_fmt) : "");
    if (s->exec.in_lut)
        av_log(ctx, AV_LOG_VERBOSE, "  (stages 0 and 1 run as one table per component, "
               "indexed by the %d-bit code)\n", s->exec.fin.depth);
    s->logged_field = -1;
    log_field(ctx);

    if (ctx->enable_str && !s->warned_timeline &&
        desc_differs(&od, &(const CspfixDesc){
            .prim = in->color_primaries, .trc = in->color_trc, .range = in->color_range,
            .csp  = ff_cspfix_is_rgb_fmt(in->format) ? AVCOL_SPC_RGB : in->colorspace })) {
        av_log(ctx, AV_LOG_WARNING, "With enable='%s', frames outside the enabled intervals "
               "pass through as they are (tagged %s/%s/%s/%s) and frames inside come out as "
               "%s/%s/%s/%s (primaries/transfer/matrix/range): one stream with two "
               "descriptions, which encoders and containers cannot tag (they keep one). To "
               "fix a mislabelled segment, convert it to the stream's description (e.g. "
               "cspfix=iall=<what it is>:all=<the stream's>:enable=...); to change the "
               "description, convert every frame.\n", ctx->enable_str,
               ff_cspfix_prim_name(in->color_primaries), ff_cspfix_trc_name(in->color_trc),
               av_color_space_name(in->colorspace), av_color_range_name(in->color_range),
               ff_cspfix_prim_name(od.prim), ff_cspfix_trc_name(od.trc),
               av_color_space_name(od.csp), av_color_range_name(od.range));
        s->warned_timeline = 1;
    }

    s->key = key;
    if (!s->d.have_first) {
        s->d.have_first = 1;
        s->d.first_out  = od;
        s->warned_out = od;
    } else if (desc_differs(&od, &s->warned_out)) {
        av_log(ctx, AV_LOG_WARNING, "The output changes mid-stream from %s/%s/%s/%s to "
               "%s/%s/%s/%s (primaries/transfer/matrix/range): encoders and containers keep "
               "the description they were opened with, so the output is mis-tagged from "
               "here on. Set these output fields once to keep them constant.\n",
               ff_cspfix_prim_name(s->warned_out.prim), ff_cspfix_trc_name(s->warned_out.trc),
               av_color_space_name(s->warned_out.csp), av_color_range_name(s->warned_out.range),
               ff_cspfix_prim_name(od.prim), ff_cspfix_trc_name(od.trc),
               av_color_space_name(od.csp), av_color_range_name(od.range));
        s->warned_out = od;
    }
    s->have_plan = 1;
    return 0;
}

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

/*
 * Dolby Vision (doc/conversion-model.md section 9): with dovi=auto an RPU cspfix can apply
 * (no enhancement layer in effect) is applied: returns 1, and the frame is reshaped and
 * converted from the RPU's colour. Otherwise never silent: an RPU whose enhancement layer
 * is in use (profile 7) leaves the base layer converted by its tags with a warning once,
 * as does dovi=ignore; profile 5 frames (ipt-c2: no HDR10 or HLG base layer) cannot be
 * converted without the RPU: an error unless ispace= says what they are. Returns 0 then.
 */
static int check_dovi(AVFilterContext *ctx, const AVFrame *in)
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

/* The reshaped signal of in (with in's properties and side data) in *view, which
 * borrows s->dv.frame's buffers. */
static int reshape(AVFilterContext *ctx, const AVFrame *in, AVFrame **view)
{
    CspfixContext *s = ctx->priv;
    const int nb_threads = ff_filter_get_nb_threads(ctx);
    AVFrame *v;
    int ret;

    if ((ret = ff_cspfix_dovi_update(ctx, &s->dv, in, nb_threads)) < 0)
        return ret;
    if (!(v = av_frame_alloc()))
        return AVERROR(ENOMEM);
    if ((ret = av_frame_copy_props(v, in)) < 0) {
        av_frame_free(&v);
        return ret;
    }
    v->format = s->dv.frame->format;
    v->width  = in->width;
    v->height = in->height;
    /* what the plan converts from is the RPU's colour (update_plan()); these tags are the
     * output's defaults: HDR10 (BT.2020 PQ Y'CbCr, limited range) */
    v->color_primaries = AVCOL_PRI_BT2020;
    v->color_trc       = AVCOL_TRC_SMPTE2084;
    v->colorspace      = AVCOL_SPC_BT2020_NCL;
    v->color_range     = AVCOL_RANGE_MPEG;
    for (int i = 0; i < 3; i++) {
        v->data[i]     = s->dv.frame->data[i];
        v->linesize[i] = s->dv.frame->linesize[i];
    }
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
    const LiftData *ld = arg;
    const int y0 = ld->dst->height * jobnr / nb_jobs;
    const int y1 = ld->dst->height * (jobnr + 1) / nb_jobs;

    if (ld->to_rgb)
        ff_cspfix_ycgcor_to_rgb(ld->src, ld->dst, y0, y1);
    else
        ff_cspfix_ycgcor_from_rgb(ld->src, ld->dst, y0, y1);
    return 0;
}

static void lift(AVFilterContext *ctx, const AVFrame *src, AVFrame *dst, int to_rgb)
{
    LiftData ld = { src, dst, to_rgb };

    ff_filter_execute(ctx, lift_slice, &ld, NULL,
                      FFMAX(1, FFMIN(dst->height, ff_filter_get_nb_threads(ctx))));
}

/* A YCgCo-R input (its matrix after the input options): its RGB (with in's properties
 * and side data, tagged rgb, full range) in *view, which borrows s->yc_in's buffers;
 * returns 1. Returns 0 for other input. */
static int lift_input(AVFilterContext *ctx, const AVFrame *in, AVFrame **view)
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
        (ret = ff_cspfix_ycgcor_frame(&s->yc_in, fmt, in->width, in->height)) < 0)
        return ret;
    if (!(v = av_frame_alloc()))
        return AVERROR(ENOMEM);
    if ((ret = av_frame_copy_props(v, in)) < 0) {
        av_frame_free(&v);
        return ret;
    }
    v->format      = fmt;
    v->width       = in->width;
    v->height      = in->height;
    v->colorspace  = AVCOL_SPC_RGB;
    v->color_range = AVCOL_RANGE_JPEG;
    for (int i = 0; i < 3; i++) {
        v->data[i]     = s->yc_in->data[i];
        v->linesize[i] = s->yc_in->linesize[i];
    }
    lift(ctx, in, s->yc_in, 1);
    *view = v;
    return 1;
}

static int convert_slice(AVFilterContext *ctx, void *arg, int jobnr, int nb_jobs)
{
    const CspfixContext *s = ctx->priv;
    const ThreadData *td = arg;

    ff_cspfix_exec_slice(&s->exec, td->in, td->out, s->field, jobnr, nb_jobs);
    return 0;
}

/* Convert a frame (light: its light measurement, -1: none) and send it on */
/* detect: the frame (described by update_plan() as s->key.in) into the detector's
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
    if ((ret = check_frame(ctx, inlink, in)) < 0 || (ret = check_dovi(ctx, in)) < 0) {
        av_frame_free(&in);
        return ret;
    }
    /* Dolby Vision: the reshaped frame is what is converted; YCgCo-R: its RGB */
    s->reshaping  = ret;
    s->lifting_in = 0;
    if (s->reshaping)
        ret = reshape(ctx, in, &view);
    else
        ret = s->lifting_in = lift_input(ctx, in, &view);
    if (ret < 0) {
        av_frame_free(&in);
        return ret;
    }
    if (view)
        src = view;
    if ((ret = update_plan(ctx, s->reshaping ? src : in, src, outlink->format, light)) < 0) {
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
            lift(ctx, src, out, 0);
    } else {
        td.in  = src;
        td.out = dst;
        ff_filter_execute(ctx, convert_slice, &td, NULL,
                          ff_cspfix_exec_jobs(&s->exec, in->height));
        if (dst != out)
            lift(ctx, dst, out, 0);
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

    if ((ret = measure_light(ctx, in, &q.light)) < 0) {
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
        CspfixPlanOptions po = plan_options(s);
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
    int ret;

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
