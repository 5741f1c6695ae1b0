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

/**
 * @file
 * Colorimetry in float64: 3x3 and 3x4 (affine) matrices, the normalised primary
 * matrix of a primaries value, white-point adaptation between two primaries, the luma
 * coefficients of a Y'CbCr matrix.
 */

#include <math.h>
#include <string.h>

#include "libavutil/csp.h"
#include "libavutil/error.h"
#include "libavutil/pixdesc.h"

#include "cspfix_colorimetry.h"
#include "cspfix_custom.h"
#include "cspfix_plan.h"

/* ---- 3x3 and 3x4 matrix helpers ---- */

void ff_cspfix_mat3_mul(double d[3][3], const double a[3][3], const double b[3][3])
{
    double t[3][3];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            t[i][j] = a[i][0] * b[0][j] + a[i][1] * b[1][j] + a[i][2] * b[2][j];
    memcpy(d, t, sizeof(t));
}

int ff_cspfix_mat3_inv(double d[3][3], const double a[3][3])
{
    double t[3][3], det;

    t[0][0] = a[1][1] * a[2][2] - a[1][2] * a[2][1];
    t[0][1] = a[0][2] * a[2][1] - a[0][1] * a[2][2];
    t[0][2] = a[0][1] * a[1][2] - a[0][2] * a[1][1];
    t[1][0] = a[1][2] * a[2][0] - a[1][0] * a[2][2];
    t[1][1] = a[0][0] * a[2][2] - a[0][2] * a[2][0];
    t[1][2] = a[0][2] * a[1][0] - a[0][0] * a[1][2];
    t[2][0] = a[1][0] * a[2][1] - a[1][1] * a[2][0];
    t[2][1] = a[0][1] * a[2][0] - a[0][0] * a[2][1];
    t[2][2] = a[0][0] * a[1][1] - a[0][1] * a[1][0];
    det = a[0][0] * t[0][0] + a[0][1] * t[1][0] + a[0][2] * t[2][0];
    /* scale-free: code-value matrices of 16-bit formats have determinants near 1e-15 */
    if (det == 0.0 || !isfinite(det))
        return AVERROR(EINVAL);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            d[i][j] = t[i][j] / det;
    return 0;
}

/* affine maps: d = a o b (b first) */
void ff_cspfix_aff_compose(double d[3][4], const double a[3][4], const double b[3][4])
{
    double t[3][4];
    for (int i = 0; i < 3; i++) {
        for (int j = 0; j < 4; j++)
            t[i][j] = a[i][0] * b[0][j] + a[i][1] * b[1][j] + a[i][2] * b[2][j];
        t[i][3] += a[i][3];
    }
    /* round-off of inverse pairs must not hide a zero: per-plane detection needs it */
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 4; j++)
            if (fabs(t[i][j]) < 1e-12)
                t[i][j] = 0.0;
    memcpy(d, t, sizeof(t));
}

void ff_cspfix_aff_from_mat3(double d[3][4], const double m[3][3])
{
    for (int i = 0; i < 3; i++) {
        for (int j = 0; j < 3; j++)
            d[i][j] = m[i][j];
        d[i][3] = 0.0;
    }
}

int ff_cspfix_aff_inv(double d[3][4], const double a[3][4])
{
    double m[3][3], mi[3][3];
    int ret;

    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            m[i][j] = a[i][j];
    if ((ret = ff_cspfix_mat3_inv(mi, m)) < 0)
        return ret;
    for (int i = 0; i < 3; i++) {
        for (int j = 0; j < 3; j++)
            d[i][j] = mi[i][j];
        d[i][3] = -(mi[i][0] * a[0][3] + mi[i][1] * a[1][3] + mi[i][2] * a[2][3]);
    }
    return 0;
}

int ff_cspfix_aff_is_identity(const double a[3][4])
{
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 4; j++)
            if (fabs(a[i][j] - (i == j)) > 1e-12)
                return 0;
    return 1;
}

/* ---- colorimetry from libavutil/csp.h ---- */

void ff_cspfix_xy_to_xyz(double xyz[3], double x, double y)
{
    xyz[0] = x / y;
    xyz[1] = 1.0;
    xyz[2] = (1.0 - x - y) / y;
}

int ff_cspfix_is_xyz_prim(int prim)
{
    return prim == AVCOL_PRI_SMPTE428 || prim == CSPFIX_PRI_XYZ_D65 || prim == CSPFIX_PRI_XYZ_DCI;
}

const char *ff_cspfix_prim_name(int prim)
{
    return prim == CSPFIX_PRI_OPRGB ? "oprgb" :
           prim == CSPFIX_PRI_XYZ_D65 ? "smpte428 (D65 white)" :
           prim == CSPFIX_PRI_XYZ_DCI ? "smpte428 (DCI white)" :
           prim >= CSPFIX_PRI_CUSTOM ? ff_cspfix_custom_prim_name(prim) :
           av_color_primaries_name(prim);
}

const char *ff_cspfix_trc_name(int trc)
{
    return trc == CSPFIX_TRC_OPRGB ? "oprgb" :
           trc == CSPFIX_TRC_DCIP3 ? "dci-p3" :
           trc >= CSPFIX_TRC_CUSTOM ? ff_cspfix_custom_trc_name(trc) :
           av_color_transfer_name(trc);
}

enum AVColorPrimaries ff_cspfix_prim_tag(int prim)
{
    if (ff_cspfix_is_xyz_prim(prim))
        return AVCOL_PRI_SMPTE428;
    return prim >= CSPFIX_PRI_OPRGB ? AVCOL_PRI_UNSPECIFIED : prim;
}

enum AVColorTransferCharacteristic ff_cspfix_trc_tag(int trc)
{
    return trc >= CSPFIX_TRC_OPRGB ? AVCOL_TRC_UNSPECIFIED : trc;
}

int ff_cspfix_prim_xy(int prim, double xy[4][2])
{
    /* IEC 61966-2-5 (opRGB): R, G, B, D65 */
    static const double oprgb[4][2] = {
        { 0.64, 0.33 }, { 0.21, 0.71 }, { 0.15, 0.06 }, { 0.3127, 0.3290 },
    };
    /* H.273 SMPTE ST 428-1: CIE 1931 XYZ itself (R=(1,0), G=(0,1), B=(0,0), white E) */
    static const double xyz[4][2] = {
        { 1.0, 0.0 }, { 0.0, 1.0 }, { 0.0, 0.0 }, { 1.0 / 3.0, 1.0 / 3.0 },
    };
    const AVColorPrimariesDesc *d;

    if (prim == CSPFIX_PRI_OPRGB || ff_cspfix_is_xyz_prim(prim)) {
        memcpy(xy, prim == CSPFIX_PRI_OPRGB ? oprgb : xyz, sizeof(oprgb));
        if (prim == CSPFIX_PRI_XYZ_D65) {
            xy[3][0] = 0.3127;
            xy[3][1] = 0.3290;
        } else if (prim == CSPFIX_PRI_XYZ_DCI) {
            xy[3][0] = 0.314;
            xy[3][1] = 0.351;
        }
        return 0;
    }
    if (prim >= CSPFIX_PRI_CUSTOM)
        return ff_cspfix_custom_prim_xy(prim, xy);
    if (prim < 0 || !(d = av_csp_primaries_desc_from_id(prim)))
        return AVERROR(EINVAL);
    for (int c = 0; c < 4; c++) {
        const AVCIExy *p = c == 0 ? &d->prim.r : c == 1 ? &d->prim.g :
                           c == 2 ? &d->prim.b : &d->wp;
        xy[c][0] = av_q2d(p->x);
        xy[c][1] = av_q2d(p->y);
    }
    return 0;
}

int ff_cspfix_npm_xy(const double xy[4][2], double m[3][3])
{
    double p[3][3], pi[3][3], w[3], s[3];

    /* a primary may have y < 0 (V-Gamut's and ACES AP0's blue), not y = 0; the white
     * has y > 0 */
    for (int c = 0; c < 4; c++)
        if (!isfinite(xy[c][0]) || !isfinite(xy[c][1]) || xy[c][1] == 0.0 ||
            (c == 3 && xy[c][1] < 0.0))
            return AVERROR(EINVAL);
    for (int c = 0; c < 3; c++) {
        double col[3];
        ff_cspfix_xy_to_xyz(col, xy[c][0], xy[c][1]);
        for (int i = 0; i < 3; i++)
            p[i][c] = col[i];
    }
    ff_cspfix_xy_to_xyz(w, xy[3][0], xy[3][1]);
    if (ff_cspfix_mat3_inv(pi, p) < 0)
        return AVERROR(EINVAL);
    for (int i = 0; i < 3; i++)
        s[i] = pi[i][0] * w[0] + pi[i][1] * w[1] + pi[i][2] * w[2];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            if (!isfinite(m[i][j] = p[i][j] * s[j]))
                return AVERROR(EINVAL);
    return 0;
}

int ff_cspfix_npm(enum AVColorPrimaries prim, double m[3][3])
{
    double xy[4][2];

    if (ff_cspfix_is_xyz_prim(prim)) {
        /* XYZ itself: the identity (its blue primary has y = 0) */
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++)
                m[i][j] = i == j;
        return 0;
    }
    if (ff_cspfix_prim_xy(prim, xy) < 0)
        return AVERROR(EINVAL);
    return ff_cspfix_npm_xy(xy, m);
}

static void white_xy(enum AVColorPrimaries prim, double *x, double *y)
{
    double xy[4][2] = { { 0 } };

    ff_cspfix_prim_xy(prim, xy);
    *x = xy[3][0];
    *y = xy[3][1];
}

static const double bradford[3][3] = {
    {  0.8951,  0.2664, -0.1614 },
    { -0.7502,  1.7135,  0.0367 },
    {  0.0389, -0.0685,  1.0296 },
};

static const double vonkries[3][3] = {
    {  0.40024, 0.70760, -0.08081 },
    { -0.22630, 1.16532,  0.04570 },
    {  0.00000, 0.00000,  0.91822 },
};

void ff_cspfix_adapt_matrix(double m[3][3], const double wi[3], const double wo[3], int wpadapt)
{
    const double (*a)[3] = wpadapt == CSPFIX_WP_VONKRIES ? vonkries : bradford;
    double ai[3][3], ri[3], ro[3], dg[3][3] = { { 0 } };

    for (int i = 0; i < 3; i++) {
        ri[i] = a[i][0] * wi[0] + a[i][1] * wi[1] + a[i][2] * wi[2];
        ro[i] = a[i][0] * wo[0] + a[i][1] * wo[1] + a[i][2] * wo[2];
        dg[i][i] = ro[i] / ri[i];
    }
    ff_cspfix_mat3_inv(ai, a);
    ff_cspfix_mat3_mul(m, dg, a);
    ff_cspfix_mat3_mul(m, ai, m);
}

/* linear RGB (in) -> linear RGB (out), with white adaptation */
int ff_cspfix_gamut_matrix(double g[3][3], enum AVColorPrimaries pin,
                           enum AVColorPrimaries pout, int wpadapt)
{
    double nin[3][3], nout[3][3], nouti[3][3], adapt[3][3] = { { 1, 0, 0 }, { 0, 1, 0 }, { 0, 0, 1 } };
    double wix, wiy, wox, woy;
    int ret;

    if ((ret = ff_cspfix_npm(pin, nin)) < 0 || (ret = ff_cspfix_npm(pout, nout)) < 0)
        return ret;
    white_xy(pin, &wix, &wiy);
    white_xy(pout, &wox, &woy);
    if ((wix != wox || wiy != woy) && wpadapt != CSPFIX_WP_IDENTITY) {
        double wi[3], wo[3];
        ff_cspfix_xy_to_xyz(wi, wix, wiy);
        ff_cspfix_xy_to_xyz(wo, wox, woy);
        ff_cspfix_adapt_matrix(adapt, wi, wo, wpadapt);
    }
    if ((ret = ff_cspfix_mat3_inv(nouti, nout)) < 0)
        return ret;
    ff_cspfix_mat3_mul(g, adapt, nin);
    ff_cspfix_mat3_mul(g, nouti, g);
    return 0;
}

/* Kr, Kb of a Y'CbCr matrix (chroma-derived: from the primaries) */
int ff_cspfix_luma_coeffs(enum AVColorSpace csp, enum AVColorPrimaries prim,
                          double *kr, double *kb)
{
    if (csp == AVCOL_SPC_CHROMA_DERIVED_NCL || csp == AVCOL_SPC_CHROMA_DERIVED_CL) {
        double npm[3][3];
        int ret = ff_cspfix_npm(prim, npm);
        if (ret < 0)
            return ret;
        *kr = npm[1][0];
        *kb = npm[1][2];
    } else {
        const AVLumaCoefficients *l = av_csp_luma_coeffs_from_avcsp(
            csp == AVCOL_SPC_BT2020_CL ? AVCOL_SPC_BT2020_NCL : csp);
        if (!l)
            return AVERROR(EINVAL);
        *kr = av_q2d(l->cr);
        *kb = av_q2d(l->cb);
    }
    return 0;
}
