/*
 * cspfix: measured light (per-frame statistics of PQ frames, smoothed within a shot)
 * side data)
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

#ifndef AVFILTER_CSPFIX_LIGHT_H
#define AVFILTER_CSPFIX_LIGHT_H

#include "libavutil/frame.h"

#include "cspfix_plan.h"

/*
 * peak=auto: the source peak of PQ input measured on the pixels, not taken from the
 * metadata (which may lie or be missing). Each frame: max(R', G', B') of about
 * CSPFIX_LIGHT_SAMPLES pixels (every step-th pixel of every step-th row) into a histogram
 * of CSPFIX_LIGHT_BINS bins over the PQ signal [0, 1]; its 99.99th percentile is the
 * frame's peak, the mean its brightness. A frame whose brightness differs from the
 * mean of its shot so far (its last CSPFIX_LIGHT_SMOOTH frames) by more than
 * CSPFIX_LIGHT_CUT (PQ signal) starts a new shot (a scene cut). A frame's peak is the
 * mean of the peaks of the frames of its shot from CSPFIX_LIGHT_SMOOTH - 1 before it to
 * the last one measured: without look-ahead its past, with look-ahead (lookahead=N,
 * frames measured N ahead of their conversion) also its shot's next N frames, so a
 * shot is tone-mapped with its own statistics from its first frame. The peak the plans
 * use changes only when that moves by more than CSPFIX_LIGHT_HYST (relative) or at a
 * new shot, so a plan is not rebuilt every frame. The shot's average (tonemap=spline's
 * knee) is the mean of the same frames' means, changed only when it moves by more than
 * CSPFIX_LIGHT_MEAN_HYST (PQ signal) or at a new shot.
 */
#define CSPFIX_LIGHT_BINS    1024
#define CSPFIX_LIGHT_SAMPLES (1 << 17)
#define CSPFIX_LIGHT_PCT     0.9999
#define CSPFIX_LIGHT_SMOOTH  20
#define CSPFIX_LIGHT_CUT     0.05
#define CSPFIX_LIGHT_HYST    0.02
#define CSPFIX_LIGHT_MEAN_HYST 0.01
/** The longest look-ahead (frames); the history holds it and CSPFIX_LIGHT_SMOOTH more. */
#define CSPFIX_LIGHT_MAX_AHEAD 250
#define CSPFIX_LIGHT_HIST    512

/** One frame's measurement. */
typedef struct CspfixFrameLight {
    double peak_pq;             ///< CSPFIX_LIGHT_PCT percentile of max(R', G', B') (PQ signal)
    double mean_pq;             ///< mean of max(R', G', B') (PQ signal)
    int n;                      ///< pixels measured
    int luma_only;              ///< the matrix has no R'G'B' here (ICtCp, YCgCo): Y'/I only
    int shot;                   ///< its shot (ff_cspfix_light_add())
} CspfixFrameLight;

/** A stream's measurements. */
typedef struct CspfixLight {
    CspfixFrameLight h[CSPFIX_LIGHT_HIST]; ///< frame i at h[i % CSPFIX_LIGHT_HIST]
    int64_t nb;                 ///< frames measured
    int shots;                  ///< shots begun (the first frame begins one)
    double peak;                ///< the peak the plans use, cd/m2 (0: none yet)
    int peak_shot;              ///< the shot it was chosen in
    double mean;                ///< the average the plans use, PQ signal
    int mean_shot;              ///< the shot it was chosen in (0: none yet; shots count from 1)
} CspfixLight;

/**
 * Measure a PQ frame of description id (the resolved input), in jobs (threads): init
 * (AVERROR(ENOSYS) for sample layouts it cannot read: half float, bitstream, palette),
 * then every job 0 .. ff_cspfix_light_scan_jobs() - 1 (in any order, at once), then
 * finish, then free. The result does not depend on the number of jobs (integer sums).
 */
typedef struct CspfixLightScan CspfixLightScan;
int ff_cspfix_light_scan_init(CspfixLightScan **s, const AVFrame *f, const CspfixDesc *id,
                              int nb_jobs);
int ff_cspfix_light_scan_jobs(const CspfixLightScan *s);
void ff_cspfix_light_scan_job(CspfixLightScan *s, int job);
void ff_cspfix_light_scan_finish(CspfixLightScan *s, CspfixFrameLight *fl);
void ff_cspfix_light_scan_free(CspfixLightScan **s);

/**
 * Add a frame's measurement (fl->shot is set); returns its index (the frames measured
 * before it), and sets *new_shot to 1 when it begins a shot (the first frame, a scene
 * cut), else 0.
 */
int64_t ff_cspfix_light_add(CspfixLight *m, CspfixFrameLight *fl, int *new_shot);

/**
 * The source peak in cd/m2 for frame idx (an index ff_cspfix_light_add() returned, of a
 * frame at most CSPFIX_LIGHT_MAX_AHEAD behind the last added), from the frames measured
 * so far; frames are asked for in order.
 */
double ff_cspfix_light_peak(CspfixLight *m, int64_t idx);

/**
 * The scene's average for frame idx, as ff_cspfix_light_peak(): cd/m2 of the mean of
 * max(R', G', B') (PQ signal) of the same frames.
 */
double ff_cspfix_light_mean(CspfixLight *m, int64_t idx);

/** PQ signal (0..1) to cd/m2 (SMPTE ST 2084). */
double ff_cspfix_pq_to_nits(double e);

#endif /* AVFILTER_CSPFIX_LIGHT_H */
