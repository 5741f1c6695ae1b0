/*
 * cspfix: primaries and curves of ICC profiles, as values
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

#ifndef AVFILTER_CSPFIX_CUSTOM_H
#define AVFILTER_CSPFIX_CUSTOM_H

/*
 * Primaries and transfer curves that no standard names (an ICC profile's colorants and
 * curve), as values of the description's fields like the others: each distinct one is
 * interned once per process in a table of CSPFIX_CUSTOM_MAX entries and is
 * CSPFIX_PRI_CUSTOM + k (CSPFIX_TRC_CUSTOM + k, whose curve is CSPFIX_CURVE_CUSTOM + k).
 * Entries are never changed or removed, so a value means one thing for the process's
 * life: plans, their cache keys and the fusing of curves compare values as they do
 * FFmpeg's. Frames carry unspecified tags for them (and, RGB, an ICC profile).
 */

#define CSPFIX_CUSTOM_MAX     32
#define CSPFIX_PRI_CUSTOM     0x500
#define CSPFIX_TRC_CUSTOM     0x500
#define CSPFIX_CURVE_CUSTOM   0x100
/** samples of a sampled curve: E' = i / (CSPFIX_CUSTOM_SAMPLES - 1) */
#define CSPFIX_CUSTOM_SAMPLES 1025

/**
 * A decoding curve L = f(E') on [0, 1] (and beyond it by its formula, or its end
 * segments' slopes), odd below 0: ICC's parametric curves (ICC.1:2022 table 68;
 * numbered as lcms2 does) or samples joined by straight lines.
 */
typedef struct CspfixCustomCurve {
    int type;                  ///< 1: E^g; 2: (aE + b)^g, 0 below -b/a; 3: type 2 + c
                               ///< (c below); 4: (aE + b)^g from d, cE below; 5: type 4
                               ///< + e from d, cE + f below; 0: sampled
    double p[7];               ///< g, a, b, c, d, e, f (the type's first ones)
    float s[CSPFIX_CUSTOM_SAMPLES]; ///< type 0: f(i / (CSPFIX_CUSTOM_SAMPLES - 1))
} CspfixCustomCurve;

/** The value for primaries with chromaticities xy (R, G, B, white); <0: AVERROR(ENOSPC). */
/*
 * The R'G'B' of a LUT profile (A2B0) as a 3D table: its relative colorimetric rendering
 * into linear BT.2020 (D65), at n^3 grid points of the profile's R'G'B' in [0, 1]. A
 * frame with one has primaries bt2020 and, as transfer, the table's value (from
 * CSPFIX_TRC_LUT3D), whose curve is linear: the plan reads it through a LUT3D op
 * (tetrahedral interpolation) to linear light.
 */
#define CSPFIX_TRC_LUT3D      0x600
typedef struct CspfixLut3D {
    int n;                     ///< grid points per axis
    float *t;                  ///< n^3 x 3 floats, point (r, g, b) at 3 ((b n + g) n + r)
} CspfixLut3D;

/**
 * The value of the table t (n^3 x 3 floats, copied; the same table gives the same value);
 * AVERROR(ENOSPC) past CSPFIX_CUSTOM_MAX tables, AVERROR(ENOMEM).
 */
int ff_cspfix_custom_lut3d(const float *t, int n);

/** The table of a transfer value, NULL if it is not one. */
const CspfixLut3D *ff_cspfix_custom_lut3d_of_trc(int trc);

int ff_cspfix_custom_prim(const double xy[4][2]);

/** The value for curve c (checked increasing); <0: AVERROR(ENOSPC) or AVERROR(EINVAL). */
int ff_cspfix_custom_trc(const CspfixCustomCurve *c);

/** Chromaticities of a custom primaries value; <0 if prim is none. */
int ff_cspfix_custom_prim_xy(int prim, double xy[4][2]);

/** The curve of a custom transfer value or curve id (NULL: none). */
const CspfixCustomCurve *ff_cspfix_custom_curve_of_trc(int trc);
const CspfixCustomCurve *ff_cspfix_custom_curve(int curve);

/** Name of a custom value ("icc-primaries-K", "icc-curve-K"); NULL if none. */
const char *ff_cspfix_custom_prim_name(int prim);
const char *ff_cspfix_custom_trc_name(int trc);

/** The curve on non-negative signal (light), and its inverse. */
double ff_cspfix_custom_decode(const CspfixCustomCurve *c, double e);
double ff_cspfix_custom_encode(const CspfixCustomCurve *c, double l);

#endif /* AVFILTER_CSPFIX_CUSTOM_H */
