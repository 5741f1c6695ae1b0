/*
 * cspfix: a frame's plan: its descriptions, the plan (cached), the engine configured for it
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
CspfixPlanOptions ff_cspfix_plan_options(const CspfixContext *s)
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


/* in: what the engine converts; coded: the frame whose tags and format describe the
 * input (in, or the YCgCo-R frame lifted into in); light: the frame's light
 * measurement (ff_cspfix_measure_light()), -1: none */
int ff_cspfix_update_plan(AVFilterContext *ctx, const AVFrame *coded, const AVFrame *in,
                          enum AVPixelFormat ofmt, int64_t light)
{
    CspfixContext *s = ctx->priv;
    CspfixDesc id, od, pod;
    enum AVPixelFormat efmt = ofmt;
    CspfixPlanOptions po = ff_cspfix_plan_options(s);
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
        /* the engine converts the lifted RGB (ff_cspfix_lift_input()) */
        id.csp   = AVCOL_SPC_RGB;
        id.range = AVCOL_RANGE_JPEG;
        id.depth = av_pix_fmt_desc_get(in->format)->comp[0].depth;
        guessed &= ~(CSPFIX_GUESS_CSP | CSPFIX_GUESS_RANGE);
    }
    /* YCgCo-R output: the engine converts to its RGB, lifted after it (ff_cspfix_lift()) */
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
        memcpy(po.trims, s->dv.trims, sizeof(po.trims));
        po.nb_trims = s->dv.nb_trims;
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
    memcpy(key.trims, po.trims, sizeof(key.trims));
    key.nb_trims = po.nb_trims;
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
