/*
 * cspfix: Dolby Vision reshaping (the RPU's composer) and colour
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

#ifndef AVFILTER_CSPFIX_DOVI_H
#define AVFILTER_CSPFIX_DOVI_H

/*
 * A Dolby Vision RPU (AVDOVIMetadata) applied to its base layer, as
 * doc/conversion-model.md section 9 says: the reshaping curves (polynomial and MMR
 * pieces between pivots) turn the frame's codes into the reshaped signal, carried at 16
 * bits in a frame of the same subsampling; the RPU's colour (its Y'CbCr matrix and
 * offsets, PQ, its LMS matrix) is what the plan then converts from (CspfixDoviColor).
 *
 *     CspfixDovi d = { 0 };
 *     ff_cspfix_dovi_update(log, &d, rpu, fmt, w, h, nb_jobs);  // per frame (cached)
 *     for (j = 0; j < n; j++)                                     // in threads
 *         ff_cspfix_dovi_slice(&d, in, d.frame, j, n);
 *     ff_cspfix_dovi_uninit(&d);
 */

#include "libavutil/dovi_meta.h"
#include "libavutil/frame.h"
#include "libavutil/mem_internal.h"
#include "libavutil/pixfmt.h"

#include "cspfix_dsp.h"
#include "cspfix_io.h"
#include "cspfix_plan.h"

/** The RPU's colour: what the plan converts the reshaped 16-bit codes from. */
typedef struct CspfixDoviColor {
    double ycc[3][4];       ///< 16-bit reshaped codes -> PQ-coded E' (N (r - o'))
    double lms[3][3];       ///< linear E -> linear BT.2020 RGB (F L)
} CspfixDoviColor;

typedef struct CspfixDoviPiece {
    int mmr;                ///< 0: polynomial, 1: MMR
    int order;
    double poly[3];         ///< polynomial coefficients of x^0..x^2
    /** the MMR kernel's table (CspfixDoviDSP.mmr: float32, 0 above the piece's order) */
    DECLARE_ALIGNED(64, float, mmr_v)[CSPFIX_DOVI_MMR_K][16];
} CspfixDoviPiece;

typedef struct CspfixDoviCurve {
    int nb_pieces;
    double pivot[AV_DOVI_MAX_PIECES + 1];   ///< normalised to the base layer's signal
    CspfixDoviPiece piece[AV_DOVI_MAX_PIECES];
    int has_mmr;
    uint16_t *lut;          ///< per base layer code: the reshaped signal x 65535 (polynomial
                            ///< pieces; MMR pieces: unused)
    uint8_t *piece_of;      ///< per base layer code: its piece
} CspfixDoviCurve;

typedef struct CspfixDovi {
    int depth;              ///< base layer bits
    double max_code;        ///< 2^depth - 1
    CspfixDoviNorm norm;    ///< codes to signal (the dovi DSP)
    CspfixDoviCurve curve[3];
    CspfixDoviColor color;
    double l1_max;          ///< the shot's L1 max in cd/m2, 0: no L1 block
    double l1_avg;          ///< the shot's L1 average (mean max(R,G,B) in PQ) in cd/m2, 0: none
    CspfixTrim trims[CSPFIX_MAX_TRIMS]; ///< the shot's L2 trims, one per target display
    int nb_trims;

    /* what the curves were built from: rebuilt when these change */
    AVDOVIRpuDataHeader header;
    AVDOVIDataMapping mapping;
    AVDOVIColorMetadata col;
    int built;

    CspfixFormat fin;       ///< the base layer's format
    CspfixDSPContext dsp;
    AVFrame *frame;         ///< the reshaped signal: yuv4xxp16, the input's size
    float *scratch;         ///< per job: CSPFIX_DOVI_ROWS rows of floats
    int scratch_w, scratch_jobs;
} CspfixDovi;

#define CSPFIX_DOVI_ROWS 7

/** What ff_cspfix_dovi_check() finds in a frame's RPU. */
enum CspfixDoviUse {
    CSPFIX_DOVI_NONE = 0,   ///< no RPU
    CSPFIX_DOVI_APPLY,      ///< an RPU cspfix applies
    CSPFIX_DOVI_BASE,       ///< an RPU whose enhancement layer is in use: base layer only
};

/** Whether the RPU on in (if any) can be applied. */
enum CspfixDoviUse ff_cspfix_dovi_check(const AVFrame *in);

/**
 * Make d ready for in's RPU: its curves and colour (rebuilt only when the RPU's header,
 * mapping or colour changed) and the reshaped frame for in's size and subsampling.
 * Returns 0, or an AVERROR with an error logged that names what is unsupported.
 */
int ff_cspfix_dovi_update(void *log_ctx, CspfixDovi *d, const AVFrame *in, int nb_jobs);

/** Reshape slice jobnr of nb_jobs of in into d->frame (rows of chroma; threads). */
void ff_cspfix_dovi_slice(CspfixDovi *d, const AVFrame *in, int jobnr, int nb_jobs);

/** The number of jobs to run ff_cspfix_dovi_slice() in for frames of height h. */
int ff_cspfix_dovi_jobs(const CspfixDovi *d, int h, int nb_threads);

/**
 * HDR10 metadata of a reshaped frame (out, a copy of in's properties) from in's RPU, where
 * out has none: the mastering display from level 6 (else the RPU's source_max_pq and
 * source_min_pq) with level 9's primaries (else BT.2020's), and MaxCLL/MaxFALL from level 6.
 * Returns 0 or AVERROR(ENOMEM).
 */
int ff_cspfix_dovi_hdr10(const AVFrame *in, AVFrame *out);

void ff_cspfix_dovi_uninit(CspfixDovi *d);

#endif /* AVFILTER_CSPFIX_DOVI_H */
