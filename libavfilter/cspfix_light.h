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
 * frame's peak, the mean its brightness. Within a shot both are averaged over the last
 * CSPFIX_LIGHT_SMOOTH frames (a running mean from the shot's first frame, so no lag); a
 * frame whose brightness differs from the shot's by more than CSPFIX_LIGHT_CUT (PQ
 * signal) starts a new shot with its own values (a scene cut). The peak the plans use
 * changes only when the measurement moves by more than CSPFIX_LIGHT_HYST (relative) or
 * at a cut, so a plan is not rebuilt every frame.
 */
#define CSPFIX_LIGHT_BINS    1024
#define CSPFIX_LIGHT_SAMPLES (1 << 17)
#define CSPFIX_LIGHT_PCT     0.9999
#define CSPFIX_LIGHT_SMOOTH  20
#define CSPFIX_LIGHT_CUT     0.05
#define CSPFIX_LIGHT_HYST    0.02

/** One frame's measurement. */
typedef struct CspfixFrameLight {
    double peak_pq;             ///< CSPFIX_LIGHT_PCT percentile of max(R', G', B') (PQ signal)
    double mean_pq;             ///< mean of max(R', G', B') (PQ signal)
    int n;                      ///< pixels measured
    int luma_only;              ///< the matrix has no R'G'B' here (ICtCp, YCgCo): Y'/I only
} CspfixFrameLight;

/** A stream's measurement so far. */
typedef struct CspfixLight {
    int frames;                 ///< frames of the current shot (0: none yet)
    double peak_pq, mean_pq;    ///< the shot's running means
    double peak;                ///< the peak the plans use, cd/m2 (0: none yet)
    int cuts;                   ///< scene cuts found (the first frame counts as one)
} CspfixLight;

/**
 * Measure a PQ frame of description id (the resolved input). Returns 0, or
 * AVERROR(ENOSYS) for sample layouts it cannot read (half float, bitstream, palette).
 */
int ff_cspfix_light_measure(const AVFrame *f, const CspfixDesc *id, CspfixFrameLight *fl);

/**
 * Add a frame's measurement to the stream's; returns 1 when it starts a shot (the first
 * frame, a scene cut), else 0. m->peak is then the peak to use.
 */
int ff_cspfix_light_update(CspfixLight *m, const CspfixFrameLight *fl);

/** PQ signal (0..1) to cd/m2 (SMPTE ST 2084). */
double ff_cspfix_pq_to_nits(double e);

#endif /* AVFILTER_CSPFIX_LIGHT_H */
