/*
 * cspfix: the signal matrices
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

/*
 * The matrices between codes and signals (doc/conversion-model.md sections 1 and 2): codes to
 * the normalised signal, Y'CbCr (YCgCo, SMPTE ST 2085) to R'G'B', and the systems on LMS
 * (ICtCp, IPT-C2): RGB to LMS and L'M'S' to the signal. The plan (cspfix_plan.c) builds
 * its matrix stages from them.
 */

#include <math.h>
#include <string.h>

#include "libavutil/pixfmt.h"

#include "cspfix_colorimetry.h"
#include "cspfix_signal.h"

/* codes -> normalised signal (section 1 of the model) */
void ff_cspfix_norm_matrix(double m[3][4], const CspfixDesc *d)
{
    const int rgb = d->csp == AVCOL_SPC_RGB;
    const double sh = d->depth ? ldexp(1.0, d->depth - 8) : 1.0;
    const double max = d->depth ? (1 << d->depth) - 1 : 1.0;
    double sy, oy, sc, oc;

    memset(m, 0, sizeof(double) * 12);
    if (!d->depth) {
        /* float samples are the signal itself */
        sy = sc = 1.0;
        oy = oc = 0.0;
    } else if (d->range == AVCOL_RANGE_JPEG) {
        sy = 1.0 / max;
        oy = 0.0;
        sc = 1.0 / max;
        oc = -(1 << (d->depth - 1)) / max;
    } else {
        sy = 1.0 / (219.0 * sh);
        oy = -16.0 / 219.0;
        sc = 1.0 / (224.0 * sh);
        oc = -128.0 / 224.0;
    }
    for (int i = 0; i < 3; i++) {
        m[i][i] = (i && !rgb) ? sc : sy;
        m[i][3] = (i && !rgb) ? oc : oy;
    }
}

/* normalised Y'CbCr -> R'G'B' (NCL, YCgCo, RGB) */
int ff_cspfix_ycc_matrix(double m[3][4], const CspfixDesc *d)
{
    double kr, kb, kg;
    int ret;

    memset(m, 0, sizeof(double) * 12);
    if (d->csp == AVCOL_SPC_RGB) {
        m[0][0] = m[1][1] = m[2][2] = 1.0;
        return 0;
    }
    if (d->csp == AVCOL_SPC_YCGCO) {
        const double t[3][4] = { { 1, -1, 1, 0 }, { 1, 1, 0, 0 }, { 1, -1, -1, 0 } };
        memcpy(m, t, sizeof(t));
        return 0;
    }
    if (d->csp == AVCOL_SPC_SMPTE2085) {
        /* H.273 MatrixCoefficients 11 (SMPTE ST 2085 Y'D'zD'x, on X'Y'Z' as R'G'B'):
         * Y' = G', D'z = (0.986566 B' - Y') / 2, D'x = (R' - 0.991902 Y') / 2 */
        const double t[3][4] = {
            { 0.991902, 0, 2, 0 }, { 1, 0, 0, 0 }, { 1 / 0.986566, 2 / 0.986566, 0, 0 },
        };
        memcpy(m, t, sizeof(t));
        return 0;
    }
    if ((ret = ff_cspfix_luma_coeffs(d->csp, d->prim, &kr, &kb)) < 0)
        return ret;
    kg = 1.0 - kr - kb;
    /* R' = Y' + 2(1-Kr) Cr, B' = Y' + 2(1-Kb) Cb, G' = (Y' - Kr R' - Kb B') / Kg */
    m[0][0] = 1.0; m[0][2] = 2.0 * (1.0 - kr);
    m[2][0] = 1.0; m[2][1] = 2.0 * (1.0 - kb);
    m[1][0] = 1.0;
    m[1][1] = -kb * 2.0 * (1.0 - kb) / kg;
    m[1][2] = -kr * 2.0 * (1.0 - kr) / kg;
    return 0;
}

static const double lms_from_rgb[3][3] = {
    { 1688 / 4096.0, 2146 / 4096.0,  262 / 4096.0 },
    {  683 / 4096.0, 2951 / 4096.0,  462 / 4096.0 },
    {   99 / 4096.0,  309 / 4096.0, 3688 / 4096.0 },
};

/* BT.2100-2 Table 7: L'M'S' -> ICtCp, PQ and HLG rows */
static const double ictcp_from_lms_pq[3][3] = {
    {          0.5,             0.5,            0.0 },
    {  6610 / 4096.0, -13613 / 4096.0,  7003 / 4096.0 },
    { 17933 / 4096.0, -17390 / 4096.0,  -543 / 4096.0 },
};

static const double ictcp_from_lms_hlg[3][3] = {
    {          0.5,             0.5,            0.0 },
    {  3625 / 4096.0,  -7465 / 4096.0,  3840 / 4096.0 },
    {  9500 / 4096.0,  -9212 / 4096.0,  -288 / 4096.0 },
};

/* H.273 MatrixCoefficients 15, IPT-C2 (SMPTE ST 2128, the Dolby Vision profile 5 signal):
 * BT.2020 RGB -> LMS with 2 % crosstalk, PQ, then L'M'S' -> IPT */
static const double iptc2_lms_from_rgb[3][3] = {
    { 1747 / 4096.0, 2169 / 4096.0,  180 / 4096.0 },
    {  673 / 4096.0, 3029 / 4096.0,  394 / 4096.0 },
    {   50 / 4096.0,  207 / 4096.0, 3839 / 4096.0 },
};

static const double iptc2_from_lms[3][3] = {
    {  1638 / 4096.0,   1638 / 4096.0,   820 / 4096.0 },
    { 18248 / 4096.0, -19870 / 4096.0,  1622 / 4096.0 },
    {  3300 / 4096.0,   1463 / 4096.0, -4763 / 4096.0 },
};

/* the systems on LMS: ICtCp and IPT-C2 */
int ff_cspfix_is_lms(enum AVColorSpace csp)
{
    return csp == AVCOL_SPC_ICTCP || csp == AVCOL_SPC_IPT_C2;
}

const double (*ff_cspfix_lms_matrix(enum AVColorSpace csp))[3]
{
    return csp == AVCOL_SPC_IPT_C2 ? iptc2_lms_from_rgb : lms_from_rgb;
}

/* L'M'S' -> the signal */
const double (*ff_cspfix_lms_signal_matrix(const CspfixDesc *d))[3]
{
    if (d->csp == AVCOL_SPC_IPT_C2)
        return iptc2_from_lms;
    return d->trc == AVCOL_TRC_ARIB_STD_B67 ? ictcp_from_lms_hlg : ictcp_from_lms_pq;
}
