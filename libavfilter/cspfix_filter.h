/*
 * cspfix: the filter's context, shared by the filter's glue (vf_cspfix.c), a frame's
 * plan (cspfix_update.c) and the passes around the engine (cspfix_passes.c)
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

#ifndef AVFILTER_CSPFIX_FILTER_H
#define AVFILTER_CSPFIX_FILTER_H

#include "libavutil/dovi_meta.h"
#include "libavutil/fifo.h"
#include "libavutil/frame.h"
#include "libavutil/opt.h"
#include "libavutil/pixdesc.h"

#include "avfilter.h"

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
    CspfixTrim trims[CSPFIX_MAX_TRIMS]; ///< the frame's Dolby Vision L2 trims
    int nb_trims;
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
    CspfixYcgcorDSP yc_dsp;      ///< the lifting kernels

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

/* cspfix_update.c */

/** The plan options of the filter options (the source peak is the frame's). */
CspfixPlanOptions ff_cspfix_plan_options(const CspfixContext *s);

/**
 * Describe a frame, and make its plan and configure the engine when what the plan is
 * made for changed. in: what the engine converts; coded: the frame whose tags and format
 * describe the input (in, or the YCgCo-R frame lifted into in); light: the frame's light
 * measurement (ff_cspfix_measure_light()), -1: none.
 */
int ff_cspfix_update_plan(AVFilterContext *ctx, const AVFrame *coded, const AVFrame *in,
                          enum AVPixelFormat ofmt, int64_t light);

/* cspfix_passes.c */

/** peak=auto: measure a PQ frame's light into s->light; *idx its index, -1: none. */
int ff_cspfix_measure_light(AVFilterContext *ctx, const AVFrame *in, int64_t *idx);

/** Dolby Vision: 1 if the frame's RPU is applied, 0 if not, else an AVERROR. */
int ff_cspfix_check_dovi(AVFilterContext *ctx, const AVFrame *in);

/** The reshaped signal of in in *view (borrowing s->dv.frame's buffers). */
int ff_cspfix_reshape(AVFilterContext *ctx, const AVFrame *in, AVFrame **view);

/** YCgCo-R lifting of src into dst, threaded by rows (to_rgb: the inverse). */
void ff_cspfix_lift(AVFilterContext *ctx, const AVFrame *src, AVFrame *dst, int to_rgb);

/** A YCgCo-R input's RGB in *view (borrowing s->yc_in's buffers): 1; 0 for other input. */
int ff_cspfix_lift_input(AVFilterContext *ctx, const AVFrame *in, AVFrame **view);

#endif /* AVFILTER_CSPFIX_FILTER_H */
