/*
 * cspfix: colorimetry in float64
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

#ifndef AVFILTER_CSPFIX_COLORIMETRY_H
#define AVFILTER_CSPFIX_COLORIMETRY_H

/*
 * Colorimetry in float64 (cspfix_colorimetry.c), what the plan is built from: 3x3 and
 * 3x4 affine matrices, primaries to XYZ, white-point adaptation, luma coefficients.
 */

#include "libavutil/pixfmt.h"

/*
 * Primaries and transfers that FFmpeg has no value for, as cspfix values above FFmpeg's
 * ranges (they go in the same fields): opRGB (IEC 61966-2-5, Adobe RGB (1998): its
 * primaries with D65, and its pure power 563/256) and the DCI-P3 reference projector's
 * pure power 2.6 (SMPTE RP 431-2; its primaries are FFmpeg's smpte431). Output frames
 * with one carry unspecified tags and an ICC profile that says it (icc_out). Above them,
 * from CSPFIX_PRI_CUSTOM and CSPFIX_TRC_CUSTOM, the primaries and curves of ICC
 * profiles (cspfix_custom.h).
 */
#define CSPFIX_PRI_OPRGB 0x400
#define CSPFIX_TRC_OPRGB 0x400
#define CSPFIX_TRC_DCIP3 0x401
/*
 * CIE XYZ (smpte428) with the white its content is taken to have for white-point
 * adaptation (xyzwhite=): D65, or the DCI-P3 projector's white (SMPTE RP 431-2,
 * 0.314, 0.351). AVCOL_PRI_SMPTE428 itself has H.273's equal-energy white E. Their tag
 * is smpte428.
 */
#define CSPFIX_PRI_XYZ_D65 0x401
#define CSPFIX_PRI_XYZ_DCI 0x402
#define CSPFIX_OPRGB_GAMMA (563.0 / 256.0)
#define CSPFIX_DCIP3_GAMMA 2.6

/** 1 for CIE XYZ (smpte428) with any white. */
int ff_cspfix_is_xyz_prim(int prim);

/** Name of a primaries (transfer) value, FFmpeg's or cspfix's; NULL if none. */
const char *ff_cspfix_prim_name(int prim);
const char *ff_cspfix_trc_name(int trc);

/** The value a frame's tag carries for it: FFmpeg's own, unspecified for cspfix's. */
enum AVColorPrimaries ff_cspfix_prim_tag(int prim);
enum AVColorTransferCharacteristic ff_cspfix_trc_tag(int trc);

/** Chromaticities x, y of R, G, B and white of a primaries value; <0 if unknown. */
int ff_cspfix_prim_xy(int prim, double xy[4][2]);

/** d = a b (d may be a or b). */
void ff_cspfix_mat3_mul(double d[3][3], const double a[3][3], const double b[3][3]);

/** d = a^-1; AVERROR(EINVAL) if a is singular. */
int ff_cspfix_mat3_inv(double d[3][3], const double a[3][3]);

/** Affine maps: d = a o b (b first); entries below 1e-12 become 0. */
void ff_cspfix_aff_compose(double d[3][4], const double a[3][4], const double b[3][4]);
void ff_cspfix_aff_from_mat3(double d[3][4], const double m[3][3]);
int ff_cspfix_aff_inv(double d[3][4], const double a[3][4]);
int ff_cspfix_aff_is_identity(const double a[3][4]);

/** XYZ of chromaticity x, y at Y = 1. */
void ff_cspfix_xy_to_xyz(double xyz[3], double x, double y);

/** Normalised primary matrix RGB -> XYZ of a primaries value; <0 if unknown. */
int ff_cspfix_npm(enum AVColorPrimaries prim, double m[3][3]);

/**
 * Normalised primary matrix of chromaticities xy (R, G, B, white); <0 if they give
 * none (a primary with y = 0, a white with y <= 0, primaries on a line, a matrix that
 * is not finite).
 */
int ff_cspfix_npm_xy(const double xy[4][2], double m[3][3]);

/** XYZ -> XYZ adapting white wi (XYZ) to wo by wpadapt (Bradford or von Kries). */
void ff_cspfix_adapt_matrix(double m[3][3], const double wi[3], const double wo[3], int wpadapt);

/** Linear RGB of pin -> linear RGB of pout, white adapted by wpadapt (enum CspfixWpAdapt). */
int ff_cspfix_gamut_matrix(double g[3][3], enum AVColorPrimaries pin,
                           enum AVColorPrimaries pout, int wpadapt);

/** Kr, Kb of a Y'CbCr matrix (chroma-derived: from the primaries). */
int ff_cspfix_luma_coeffs(enum AVColorSpace csp, enum AVColorPrimaries prim,
                          double *kr, double *kb);

#endif /* AVFILTER_CSPFIX_COLORIMETRY_H */
