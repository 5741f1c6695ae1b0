/*
 * cspfix: tone curves and the choice of tone mapping
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

#ifndef AVFILTER_CSPFIX_TONEMAP_H
#define AVFILTER_CSPFIX_TONEMAP_H

/* Tone mapping in float64 (cspfix_tonemap.c, doc/conversion-model.md section 4). */

#include "cspfix_plan.h"
#include "cspfix_tf.h"

/**
 * The tone mapping of in -> out with options opt (opt->src_peak: the frame's source
 * peak, 0: unknown): tonemap=auto runs BT.2390 for HDR -> SDR (not into float), and for
 * HDR -> HDR when the source is brighter than the output holds (target_peak when set,
 * else the HLG display peak or 10000 cd/m2 for PQ).
 */
void ff_cspfix_tone(const CspfixDesc *in, const CspfixDesc *out, const CspfixPlanOptions *opt,
                    CspfixTone *t);

/**
 * A TONEMAP op's curve with its constants computed once (for building its tables: the
 * same values as ff_cspfix_tonemap_gain()/_desat(), much faster per point).
 */
typedef struct CspfixToneCurve {
    const CspfixOp *op;
    int tm;
    double ls, lt;                  ///< source and target peak, cd/m2
    double pb, span, max_lum, ks;   ///< BT.2390, spline: PQ black, span, target peak, knee
    double lift_b, lift_k;          ///< BT.2390's black lift b (1 - E)^k, b = 0: none
    double spline_a;                ///< spline: the average slope above the knee (1/3)
    double spline_b;                ///< spline: where its slope reaches spline_a
    double kd, slope;               ///< spline: the knee's output, the slope below it
    double rho_hdr, rho_sdr;        ///< BT.2446 Method A: rho_HDR, rho_SDR
    double ln_hdr, ln_sdr;          ///< their natural logarithms
    double gain0, desat0;           ///< G and D at and below the floor (1e-6)
    double trim_pq;                 ///< the L2 trim's target peak in PQ (op->trim)
} CspfixToneCurve;

void ff_cspfix_tone_curve_init(CspfixToneCurve *tc, const CspfixOp *op);
/** G(m) and D(m) as below, of a CspfixToneCurve (opaque): CspfixScalarFunc. */
double ff_cspfix_tone_curve_gain(void *opaque, double m);
double ff_cspfix_tone_curve_desat(void *opaque, double m);

/**
 * The corner at the top of a curve: the least m from which the light out, G(m) m, is at
 * its largest (where it reaches the target, or clips); 0 if none below 2^CSPFIX_TF_EMAX.
 */
double ff_cspfix_tone_curve_corner(const CspfixToneCurve *tc);

/**
 * The kernels' tables of a TONEMAP op: G (gain) and, unless desat is NULL, D, of the
 * variable x = m in_scale, in_scale (in (64/65, 1]) putting the curve's corner on a
 * boundary of the tables' segments: no cubic is fitted across it, so the tables are as
 * exact there as elsewhere and the light out never steps down.
 */
void ff_cspfix_tone_tables(CspfixTFTable *gain, CspfixTFTable *desat, const CspfixOp *op);

/**
 * The gain G(m) of a TONEMAP op on the largest component m of relative linear light
 * (output = G(m) * input), and the desaturation weight D(m).
 */
double ff_cspfix_tonemap_gain(const CspfixOp *op, double m);
double ff_cspfix_tonemap_desat(const CspfixOp *op, double m);

/** The tonemap= name of a CspfixTonemap value. */
const char *ff_cspfix_tonemap_name(int tm);

#endif /* AVFILTER_CSPFIX_TONEMAP_H */
