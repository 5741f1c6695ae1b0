/*
 * cspfix hue and lightness through tone mapping, measured in IPT
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
 * A measurement of what tone mapping does to hue and lightness, with a float64 model
 * of its own (no libavfilter/cspfix_* headers):
 * - Colours: the BT.2020 primaries and secondaries, the P3-D65 ones expressed in
 *   BT.2020 (negative components, P3 red's B, clamped to 0 as PQ encodes them), and
 *   four mid-saturation skin and sky colours (defined in BT.709), each scaled in linear
 *   light so that its max(R,G,B) is 50 .. 4000 cd/m2; next to each a neutral grey of
 *   the same input luminance Y. One gbrpf32le PQ BT.2020 frame (full range, no input
 *   quantisation) with HDR10 side data (a P3 mastering display of 4000 cd/m2, MaxCLL
 *   4000: the source peak is 4000).
 * - Conversions through the filter:
 *   (a) HDR -> HDR: gbrpf32le PQ BT.2020, target_peak=1000;
 *   (b) HDR -> SDR in BT.2020 primaries: gbrp16le bt2020-10 (an integer output, since
 *       tonemap=auto is none into float samples; 16 bits so that quantisation stays
 *       far below the figures);
 *   (c) HDR -> SDR BT.709: gbrp16le bt709, with every gamut= mode;
 *   each for every tonemap= mode and desat=0 (the default) and desat=0.5, and some with
 *   tmmode=ipt (the curve on IPT's intensity, P and T scaled alike; desat does nothing).
 * - Metrics per colour, on the input's linear light and the output's display light
 *   (PQ decoded; SDR as BT.1886 with Lw = 1 on a display whose 1.0 is 203 cd/m2):
 *   the hue angle h = atan2(T, P) in IPT (Ebner and Fairchild 1998), |dh| in radians;
 *   the ratios out/in of IPT I and of luminance Y; and the darkening ratio: the
 *   colour's output Y over the output Y of its grey (the same curve applied to
 *   luminance would give 1).
 * Checks (what holds today and must keep holding): the IPT model's self-checks; every
 * output finite, with the tags asked for; (a) no curve's output above 1000 cd/m2;
 * tonemap=none and clip keep hue (|dh| < 1e-4 in float, 3e-4 at 16 bits, whose rounding
 * alone gives 1e-4) and I (1e-3) below the target peak in (a) and (b), and in (c) for the
 * colours inside BT.709 with gamut none, clip or desaturate; max-RGB ratio scaling (every
 * curve, desat=0) keeps hue within 1e-3 rad in (a) and (b), and so does tmmode=ipt;
 * hue_bound_default(): the default within 3e-3 rad (issue 30's bound). The rest is
 * printed.
 *
 * IPT's nonlinearity is a pure power, so a scaling in linear light keeps its hue
 * exactly: the max-RGB ratio scaling moves IPT hue only by rounding. What moves it is
 * mixing toward grey (desat, gamut=desaturate), per-component clipping (tonemap=none,
 * out-of-gamut colours into BT.709) and gamut=compress. What ratio scaling costs is
 * lightness: a saturated highlight's max(R,G,B) is far above its luminance, so it is
 * compressed much more than a grey of the same luminance ("dark" in the tables).
 */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libavutil/frame.h>
#include <libavutil/log.h>
#include <libavutil/macros.h>
#include <libavutil/mastering_display_metadata.h>
#include <libavutil/pixdesc.h>
#include <libavutil/pixfmt.h>

#include "cspfix_testutil.h"

#include "cspfix_check.h"

#define REF_WHITE   203.0       /* cd/m2 of SDR 1.0 (target_peak unset) */
#define SRC_PEAK    4000        /* the frames' mastering display and MaxCLL */
#define HDR_TARGET  1000.0      /* target_peak of conversion (a) */
#define ACHROMATIC  2e-3        /* chroma / I below which an output has no hue */
/* |dh| of light that should come out unchanged: float output; 16-bit output, whose
 * rounding alone moves the hue of skin-dk at 50 cd/m2 by 1.05e-4 (measured 1.06e-4) */
#define KEEP_DH_FLOAT 1e-4
#define KEEP_DH_INT16 3e-4

/* ---- the model: matrices, PQ, IPT ---- */

typedef double Mat[3][3];

static void mat_mul(Mat r, const Mat a, const Mat b)
{
    Mat t;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            t[i][j] = a[i][0] * b[0][j] + a[i][1] * b[1][j] + a[i][2] * b[2][j];
    memcpy(r, t, sizeof(t));
}

static void mat_vec(double r[3], const Mat m, const double v[3])
{
    double t[3];
    for (int i = 0; i < 3; i++)
        t[i] = m[i][0] * v[0] + m[i][1] * v[1] + m[i][2] * v[2];
    memcpy(r, t, sizeof(t));
}

static void mat_inv(Mat r, const Mat m)
{
    const double det = m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) -
                       m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0]) +
                       m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
    Mat t;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            /* cofactor of m[j][i] */
            const int r0 = (j + 1) % 3, r1 = (j + 2) % 3, c0 = (i + 1) % 3, c1 = (i + 2) % 3;
            t[i][j] = (m[r0][c0] * m[r1][c1] - m[r0][c1] * m[r1][c0]) / det;
        }
    memcpy(r, t, sizeof(t));
}

/* RGB -> XYZ (Y of white 1), SMPTE RP 177, from the primaries' and white's xy */
static void npm(Mat r, const double xy[4][2])
{
    Mat p, pi;
    double w[3], s[3];
    for (int j = 0; j < 3; j++) {
        p[0][j] = xy[j][0] / xy[j][1];
        p[1][j] = 1.0;
        p[2][j] = (1.0 - xy[j][0] - xy[j][1]) / xy[j][1];
    }
    w[0] = xy[3][0] / xy[3][1];
    w[1] = 1.0;
    w[2] = (1.0 - xy[3][0] - xy[3][1]) / xy[3][1];
    mat_inv(pi, p);
    mat_vec(s, pi, w);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            r[i][j] = p[i][j] * s[j];
}

static const double xy_2020[4][2] = { { 0.708, 0.292 }, { 0.170, 0.797 }, { 0.131, 0.046 },
                                      { 0.3127, 0.3290 } };
static const double xy_p3[4][2]   = { { 0.680, 0.320 }, { 0.265, 0.690 }, { 0.150, 0.060 },
                                      { 0.3127, 0.3290 } };
static const double xy_709[4][2]  = { { 0.640, 0.330 }, { 0.300, 0.600 }, { 0.150, 0.060 },
                                      { 0.3127, 0.3290 } };

static Mat npm_2020, npm_709, p3_to_2020, bt709_to_2020;

static void init_matrices(void)
{
    Mat p3, inv2020;
    npm(npm_2020, xy_2020);
    npm(npm_709, xy_709);
    npm(p3, xy_p3);
    mat_inv(inv2020, npm_2020);
    mat_mul(p3_to_2020, inv2020, p3);
    mat_mul(bt709_to_2020, inv2020, npm_709);
}

/* SMPTE ST 2084: signal <-> cd/m2 */
#define PQ_M1 (2610.0 / 16384)
#define PQ_M2 (2523.0 / 4096 * 128)
#define PQ_C1 (3424.0 / 4096)
#define PQ_C2 (2413.0 / 4096 * 32)
#define PQ_C3 (2392.0 / 4096 * 32)

static double pq_to_nits(double e)
{
    double p;
    e = av_clipd(e, 0.0, 1.0);
    p = pow(e, 1.0 / PQ_M2);
    return 10000.0 * pow(FFMAX(p - PQ_C1, 0.0) / (PQ_C2 - PQ_C3 * p), 1.0 / PQ_M1);
}

static double nits_to_pq(double l)
{
    const double y = pow(FFMAX(l, 0.0) / 10000.0, PQ_M1);
    return pow((PQ_C1 + PQ_C2 * y) / (1.0 + PQ_C3 * y), PQ_M2);
}

/*
 * IPT (Ebner and Fairchild 1998): XYZ (D65) -> LMS by the Hunt-Pointer-Estevez matrix
 * normalised to D65 as IPT defines it, |LMS|^0.43 with the sign kept, then the IPT
 * matrix. The nonlinearity is a pure power: scaling linear light by k scales I, P and T
 * by k^0.43, so neither the hue angle nor a ratio I_out / I_in depends on the unit of
 * light (cd/m2 is used throughout).
 */
static const Mat ipt_lms = { {  0.4002, 0.7075, -0.0807 },
                             { -0.2280, 1.1500,  0.0612 },
                             {  0.0,    0.0,     0.9184 } };
static const Mat ipt_mat = { { 0.4000,  0.4000,  0.2000 },
                             { 4.4550, -4.8510,  0.3960 },
                             { 0.8056,  0.3572, -1.1628 } };

static void xyz_to_ipt(double ipt[3], const double xyz[3])
{
    double lms[3];
    mat_vec(lms, ipt_lms, xyz);
    for (int i = 0; i < 3; i++)
        lms[i] = copysign(pow(fabs(lms[i]), 0.43), lms[i]);
    mat_vec(ipt, ipt_mat, lms);
}

static void ipt_to_xyz(double xyz[3], const double ipt[3])
{
    Mat a, b;
    double lms[3];
    mat_inv(a, ipt_mat);
    mat_inv(b, ipt_lms);
    mat_vec(lms, a, ipt);
    for (int i = 0; i < 3; i++)
        lms[i] = copysign(pow(fabs(lms[i]), 1.0 / 0.43), lms[i]);
    mat_vec(xyz, b, lms);
}

static void rgb2020_to_ipt(double ipt[3], const double rgb[3])
{
    double xyz[3];
    mat_vec(xyz, npm_2020, rgb);
    xyz_to_ipt(ipt, xyz);
}

static double hue(const double ipt[3])
{
    return atan2(ipt[2], ipt[1]);
}

static double hue_diff(double a, double b)
{
    double d = remainder(a - b, 2 * M_PI);
    return fabs(d);
}

/* ICtCp (BT.2100, PQ) hue, only to show the contrast with IPT in the self-check */
static double ictcp_hue(const double rgb2020[3])
{
    static const Mat lms = { { 1688, 2146, 262 }, { 683, 2951, 462 }, { 99, 309, 3688 } };
    double l[3];
    mat_vec(l, lms, rgb2020);
    for (int i = 0; i < 3; i++)
        l[i] = nits_to_pq(l[i] / 4096.0);
    return atan2((17933 * l[0] - 17390 * l[1] - 543 * l[2]) / 4096.0,
                 (6610 * l[0] - 13613 * l[1] + 7003 * l[2]) / 4096.0);
}

/* the IPT model against what is known of it */
static void test_model(void)
{
    /* published pairs (colour-science's XYZ_to_IPT examples, 8 digits) */
    static const double ref[2][2][3] = {
        { { 0.20654008, 0.12197225, 0.05136952 }, { 0.38426191, 0.38487306, 0.18886838 } },
        { { 0.96907232, 1.0,        1.12179215 }, { 1.00300825, 0.01906918, -0.01369292 } },
    };
    const double d65[3] = { 0.3127 / 0.3290, 1.0, (1.0 - 0.3127 - 0.3290) / 0.3290 };
    const double blue[3] = { 0.0, 0.0, 4000.0 }, white[3] = { 4000.0, 4000.0, 4000.0 };
    double ipt[3], xyz[3], rgb[3], worst_ref = 0.0, worst_rt = 0.0, worst_scale = 0.0;
    double mix_max = 0.0, h0, d_ictcp;

    for (int i = 0; i < 2; i++) {
        xyz_to_ipt(ipt, ref[i][0]);
        for (int k = 0; k < 3; k++)
            worst_ref = FFMAX(worst_ref, fabs(ipt[k] - ref[i][1][k]));
        ipt_to_xyz(xyz, ipt);
        for (int k = 0; k < 3; k++)
            worst_rt = FFMAX(worst_rt, fabs(xyz[k] - ref[i][0][k]));
    }
    CHECK(worst_ref < 1e-7, "IPT: published values within 1e-7 (%.2g)", worst_ref);
    CHECK(worst_rt < 1e-12, "IPT: XYZ -> IPT -> XYZ within 1e-12 (%.2g)", worst_rt);

    /* D65 white: on the neutral axis, I = 1 for Y = 1 (up to the 4-digit matrices) */
    xyz_to_ipt(ipt, d65);
    CHECK(fabs(ipt[0] - 1.0) < 1e-4 && hypot(ipt[1], ipt[2]) < 2e-4,
          "IPT: D65 white is (1, 0, 0): (%.6f, %.2g, %.2g)", ipt[0], ipt[1], ipt[2]);
    printf("model: D65 white IPT (%.6f, %.6f, %.6f); published values within %.1e\n",
           ipt[0], ipt[1], ipt[2], worst_ref);

    /* the BT.2020 luminance row */
    CHECK(fabs(npm_2020[1][0] - 0.2627) < 1e-4 && fabs(npm_2020[1][1] - 0.6780) < 1e-4 &&
          fabs(npm_2020[1][2] - 0.0593) < 1e-4, "BT.2020 Y row (%.4f %.4f %.4f)",
          npm_2020[1][0], npm_2020[1][1], npm_2020[1][2]);

    /* scaling in linear light (what max-RGB ratio scaling does) keeps IPT hue exactly
     * (the power is homogeneous) and scales I by k^0.43; so does scaling L'M'S' */
    for (int c = 0; c < 7; c++) {
        const double base[3] = { c & 1 ? 1.0 : 0.2, c & 2 ? 1.0 : 0.05, c & 4 ? 1.0 : 0.1 };
        double ipt0[3];
        rgb2020_to_ipt(ipt0, base);
        for (double k = 0.01; k < 50.0; k *= 1.7) {
            const double s[3] = { base[0] * k, base[1] * k, base[2] * k };
            rgb2020_to_ipt(ipt, s);
            worst_scale = FFMAX(worst_scale, hue_diff(hue(ipt), hue(ipt0)));
            worst_scale = FFMAX(worst_scale, fabs(ipt[0] / ipt0[0] / pow(k, 0.43) - 1.0));
        }
    }
    CHECK(worst_scale < 1e-12, "IPT: hue and I of linear-light scalings (%.2g)", worst_scale);

    /* mixing toward white in linear light (what desat and gamut=desaturate do) does
     * move IPT hue: the metric sees it (BT.2020 blue, 10 % .. 90 % white) */
    rgb2020_to_ipt(ipt, blue);
    h0 = hue(ipt);
    for (int i = 1; i < 10; i++) {
        for (int k = 0; k < 3; k++)
            rgb[k] = blue[k] + 0.1 * i * (white[k] - blue[k]);
        rgb2020_to_ipt(ipt, rgb);
        mix_max = FFMAX(mix_max, hue_diff(hue(ipt), h0));
    }
    CHECK(mix_max > 1e-2, "IPT: mixing blue with white in linear light moves hue (%.3g)",
          mix_max);

    /* in ICtCp (PQ, not homogeneous) a linear-light scaling moves hue */
    {
        const double b1[3] = { 0.0, 0.0, 1000.0 };
        d_ictcp = hue_diff(ictcp_hue(blue), ictcp_hue(b1));
    }
    printf("model: linear-light scaling moves IPT hue by %.1e (exact); BT.2020 blue mixed "
           "with white moves it up to %.3f rad; for reference, BT.2020 blue 4000 -> 1000 "
           "cd/m2 moves ICtCp hue by %.4f rad\n", worst_scale, mix_max, d_ictcp);
}

/* ---- the colours ---- */

#define NB_SAT    12
#define NB_MID    4
#define NB_HUES   (NB_SAT + NB_MID)
#define NB_LEVELS 6
#define NB_COL    (NB_HUES * NB_LEVELS)
#define FW        (2 * NB_COL)          /* colour, then its grey */
#define FH        2

static const double levels[NB_LEVELS] = { 50, 100, 400, 1000, 2000, 4000 };

static const char *const hue_names[NB_HUES] = {
    "2020-R", "2020-G", "2020-B", "2020-C", "2020-M", "2020-Y",
    "P3-R", "P3-G", "P3-B", "P3-C", "P3-M", "P3-Y",
    "skin-lt", "skin-dk", "sky", "sky-pale",
};

/* mid-saturation colours, linear BT.709 RGB */
static const double mid_709[NB_MID][3] = {
    { 1.00, 0.60, 0.45 }, { 1.00, 0.50, 0.32 }, { 0.30, 0.50, 1.00 }, { 0.55, 0.70, 1.00 },
};

typedef struct Colour {
    int hue, level;             /* indices into hue_names[] and levels[] */
    double in[3];               /* linear BT.2020 RGB, cd/m2, as the frame carries it */
    double grey;                /* the grey's light (cd/m2), as the frame carries it */
    double ipt[3], y;
    float sig[3], grey_sig;     /* PQ R'G'B' */
    int in_709;                 /* inside the BT.709 gamut */
} Colour;

static Colour col[NB_COL];

static void init_colours(void)
{
    for (int h = 0; h < NB_HUES; h++) {
        double rgb[3] = { 0 };
        if (h < NB_SAT) {
            const int s = h % 6;
            /* R, G, B, then C = G + B, M = R + B, Y = R + G */
            const int bits = s < 3 ? 1 << s : 7 & ~(1 << (s - 3));
            double unit[3];
            for (int k = 0; k < 3; k++)
                unit[k] = bits >> k & 1;
            if (h < 6)
                memcpy(rgb, unit, sizeof(rgb));
            else
                mat_vec(rgb, p3_to_2020, unit);
        } else {
            mat_vec(rgb, bt709_to_2020, mid_709[h - NB_SAT]);
        }
        for (int k = 0; k < 3; k++)
            rgb[k] = FFMAX(rgb[k], 0.0);    /* PQ holds no negative light */
        for (int l = 0; l < NB_LEVELS; l++) {
            Colour *c = &col[h * NB_LEVELS + l];
            const double m = FFMAX3(rgb[0], rgb[1], rgb[2]);
            Mat inv709;
            double xyz[3], r709[3];

            c->hue   = h;
            c->level = l;
            for (int k = 0; k < 3; k++) {
                c->sig[k] = nits_to_pq(rgb[k] / m * levels[l]);
                c->in[k]  = pq_to_nits(c->sig[k]);
            }
            mat_vec(xyz, npm_2020, c->in);
            c->y = xyz[1];
            xyz_to_ipt(c->ipt, xyz);
            c->grey_sig = nits_to_pq(c->y);
            c->grey     = pq_to_nits(c->grey_sig);
            mat_inv(inv709, npm_709);
            mat_vec(r709, inv709, xyz);
            c->in_709 = FFMIN3(r709[0], r709[1], r709[2]) >= -1e-9 * c->y;
        }
    }
}

static AVFrame *make_frame(void)
{
    AVFrame *f = cspfix_alloc_frame(AV_PIX_FMT_GBRPF32LE, FW, FH, AVCOL_PRI_BT2020,
                                    AVCOL_TRC_SMPTE2084, AVCOL_SPC_RGB, AVCOL_RANGE_JPEG);
    if (!f)
        return NULL;
    for (int y = 0; y < FH; y++) {
        float *g = (float *)(f->data[0] + y * f->linesize[0]);
        float *b = (float *)(f->data[1] + y * f->linesize[1]);
        float *r = (float *)(f->data[2] + y * f->linesize[2]);
        for (int i = 0; i < NB_COL; i++) {
            r[2 * i] = col[i].sig[0];
            g[2 * i] = col[i].sig[1];
            b[2 * i] = col[i].sig[2];
            r[2 * i + 1] = g[2 * i + 1] = b[2 * i + 1] = col[i].grey_sig;
        }
    }
    if (cspfix_set_hdr10(f, SRC_PEAK, SRC_PEAK) < 0)
        av_frame_free(&f);
    return f;
}

/* ---- the conversions ---- */

enum { CONV_HDR, CONV_SDR2020, CONV_SDR709, NB_CONV };

static const char *const tonemaps[] = { "auto", "clip", "bt2390", "reinhard", "hable",
                                        "mobius", "bt2446a", "spline",
                                        "bt2390:target_black=0.1", "none", "auto:tmmode=ipt",
                                        "bt2390:tmmode=ipt", "hable:tmmode=ipt",
                                        "bt2446a:tmmode=ipt" };
static const char *const gamuts[]   = { "none", "clip", "desaturate", "compress" };
static const double desats[]        = { 0.0, 0.5 };    /* 0 is the default */

static const struct {
    const char *title, *opts;
    int fmt, trc, prim;
    double target;              /* the target peak, cd/m2 */
} convs[NB_CONV] = {
    [CONV_HDR] = {
        "(a) HDR -> HDR: PQ BT.2020 (4000 cd/m2) -> PQ BT.2020 gbrpf32le, target_peak=1000",
        "primaries=bt2020:trc=smpte2084:space=rgb:range=pc:format=gbrpf32le:target_peak=1000",
        AV_PIX_FMT_GBRPF32LE, AVCOL_TRC_SMPTE2084, AVCOL_PRI_BT2020, HDR_TARGET },
    [CONV_SDR2020] = {
        "(b) HDR -> SDR in BT.2020 primaries: gbrp16le bt2020-10 (SDR 1.0 = 203 cd/m2)",
        "primaries=bt2020:trc=bt2020-10:space=rgb:range=pc:format=gbrp16le:dither=none",
        AV_PIX_FMT_GBRP16LE, AVCOL_TRC_BT2020_10, AVCOL_PRI_BT2020, REF_WHITE },
    [CONV_SDR709] = {
        "(c) HDR -> SDR BT.709: gbrp16le bt709 (SDR 1.0 = 203 cd/m2)",
        "primaries=bt709:trc=bt709:space=rgb:range=pc:format=gbrp16le:dither=none",
        AV_PIX_FMT_GBRP16LE, AVCOL_TRC_BT709, AVCOL_PRI_BT709, REF_WHITE },
};

typedef struct Result {
    double out[3];              /* linear light out, cd/m2, in the output primaries */
    double dh;                  /* |hue out - hue in|, rad; NAN when achromatic out */
    double iratio, yratio, dark;
    int finite;
} Result;

static int out_maxcll;          /* MaxCLL of the last run's output (-1: none) */

/* display light (cd/m2) of output sample x */
static void out_light(int conv, const AVFrame *f, int x, double rgb[3])
{
    static const int plane[3] = { 2, 0, 1 };    /* R, G, B in gbrp */
    for (int k = 0; k < 3; k++) {
        const uint8_t *row = f->data[plane[k]];
        if (convs[conv].fmt == AV_PIX_FMT_GBRPF32LE) {
            const double e = ((const float *)row)[x];
            rgb[k] = isfinite(e) ? pq_to_nits(e) : e;
        } else {
            const double e = ((const uint16_t *)row)[x] / 65535.0;
            rgb[k] = pow(e, 2.4) * convs[conv].target;     /* BT.1886, Lw = 1 */
        }
    }
}

/* run the conversion; res[] gets every colour's figures. 0 or -1. */
static int run(int conv, const AVFrame *in, const char *tm, double desat, const char *gamut,
               Result *res)
{
    char filters[512];
    AVFrame *out = NULL;
    const Mat *npm_out = convs[conv].prim == AVCOL_PRI_BT709 ? &npm_709 : &npm_2020;
    int ret;

    snprintf(filters, sizeof(filters), "cspfix=%s:tonemap=%s:desat=%g%s%s", convs[conv].opts,
             tm, desat, gamut ? ":gamut=" : "", gamut ? gamut : "");
    ret = cspfix_run1(in, filters, 1, &out);
    CHECK(ret >= 0, "%s: the graph ran (%d)", filters, ret);
    if (ret < 0)
        return -1;
    if (out->format != convs[conv].fmt || out->color_trc != convs[conv].trc ||
        out->color_primaries != convs[conv].prim || out->width != FW || out->height != FH) {
        CHECK(0, "%s: output %s %s %s %dx%d", filters, av_get_pix_fmt_name(out->format),
              av_color_transfer_name(out->color_trc),
              av_color_primaries_name(out->color_primaries), out->width, out->height);
        av_frame_free(&out);
        return -1;
    }
    {
        const AVFrameSideData *sd = av_frame_get_side_data(out, AV_FRAME_DATA_CONTENT_LIGHT_LEVEL);
        out_maxcll = sd ? ((const AVContentLightMetadata *)sd->data)->MaxCLL : -1;
    }
    for (int i = 0; i < NB_COL; i++) {
        Result *r = &res[i];
        double grey[3], xyz[3], xyz_grey[3], ipt[3];

        out_light(conv, out, 2 * i, r->out);
        out_light(conv, out, 2 * i + 1, grey);
        r->finite = isfinite(r->out[0]) && isfinite(r->out[1]) && isfinite(r->out[2]) &&
                    isfinite(grey[0]) && isfinite(grey[1]) && isfinite(grey[2]);
        if (!r->finite) {
            r->dh = r->iratio = r->yratio = r->dark = NAN;
            continue;
        }
        mat_vec(xyz, *npm_out, r->out);
        mat_vec(xyz_grey, *npm_out, grey);
        xyz_to_ipt(ipt, xyz);
        r->dh     = hypot(ipt[1], ipt[2]) < ACHROMATIC * FFMAX(ipt[0], 1e-9) ? NAN :
                    hue_diff(hue(ipt), hue(col[i].ipt));
        r->iratio = ipt[0] / col[i].ipt[0];
        r->yratio = xyz[1] / col[i].y;
        r->dark   = xyz_grey[1] > 0.0 ? xyz[1] / xyz_grey[1] : NAN;
    }
    av_frame_free(&out);
    return 0;
}

static void colour_name(char *buf, size_t size, int i)
{
    snprintf(buf, size, "%s@%g", hue_names[col[i].hue], levels[col[i].level]);
}

static void print_header(const char *title)
{
    printf("\n%s\n", title);
    printf("%-20s %5s | %8s %-14s %8s %3s | %-13s | %-13s | %6s %-14s %6s\n",
           "mode", "desat", "max|dh|", "at", "mean|dh|", "nh", "I out/in", "Y out/in",
           "dark", "min at", "@4000");
}

/* one row of the table: hue over all colours with a hue out, the rest over all;
 * darkening over the saturated colours (min, and mean at 4000 cd/m2) */
static void print_row(const char *mode, double desat, const Result *res)
{
    double max_dh = 0.0, sum_dh = 0.0, imin = HUGE_VAL, imax = 0.0, ymin = HUGE_VAL, ymax = 0.0;
    double dmin = HUGE_VAL, dsum4000 = 0.0;
    int at = -1, dat = -1, nh = 0, nd4000 = 0, achro = 0;
    char at_name[32] = "-", dat_name[32] = "-";

    for (int i = 0; i < NB_COL; i++) {
        const Result *r = &res[i];
        if (isnan(r->dh)) {
            achro++;
        } else {
            if (r->dh > max_dh) {
                max_dh = r->dh;
                at = i;
            }
            sum_dh += r->dh;
            nh++;
        }
        imin = FFMIN(imin, r->iratio);
        imax = FFMAX(imax, r->iratio);
        ymin = FFMIN(ymin, r->yratio);
        ymax = FFMAX(ymax, r->yratio);
        if (col[i].hue < NB_SAT && !isnan(r->dark)) {
            if (r->dark < dmin) {
                dmin = r->dark;
                dat = i;
            }
            if (col[i].level == NB_LEVELS - 1) {
                dsum4000 += r->dark;
                nd4000++;
            }
        }
    }
    if (at >= 0)
        colour_name(at_name, sizeof(at_name), at);
    if (dat >= 0)
        colour_name(dat_name, sizeof(dat_name), dat);
    printf("%-20s %5.2f | %8.2e %-14s %8.2e %3d | %5.3f - %5.3f | %5.3f - %5.3f | "
           "%6.3f %-14s %6.3f\n", mode, desat, max_dh, at_name, nh ? sum_dh / nh : 0.0, achro,
           imin, imax, ymin, ymax, dmin, dat_name, nd4000 ? dsum4000 / nd4000 : NAN);
}

static int is_maxrgb_curve(const char *tm)
{
    return strcmp(tm, "none");      /* auto is bt2390 in (a) and (b) */
}

static int keeps_light_below_target(const char *tm)
{
    return !strcmp(tm, "none") || !strcmp(tm, "clip");
}

/* the checks of one run */
static void check_run(int conv, const char *tm, double desat, const char *gamut,
                      const Result *res)
{
    const double target = convs[conv].target;
    const double keep_tol = convs[conv].fmt == AV_PIX_FMT_GBRPF32LE ? KEEP_DH_FLOAT : KEEP_DH_INT16;
    int finite = 1;
    double keep_dh = 0.0, keep_i = 0.0, ratio_dh = 0.0, peak = 0.0;
    int keep_n = 0;

    for (int i = 0; i < NB_COL; i++) {
        const Result *r = &res[i];
        const double m = FFMAX3(col[i].in[0], col[i].in[1], col[i].in[2]);
        finite &= r->finite;
        if (!r->finite)
            continue;
        peak = FFMAX(peak, FFMAX3(r->out[0], r->out[1], r->out[2]));
        /* below the target peak none and clip leave light alone; in (c) only colours
         * inside BT.709, and not through gamut=compress (which compresses in gamut too) */
        if (keeps_light_below_target(tm) && m <= target &&
            (conv != CONV_SDR709 || (col[i].in_709 && strcmp(gamut, "compress")))) {
            keep_dh = FFMAX(keep_dh, isnan(r->dh) ? HUGE_VAL : r->dh);
            keep_i  = FFMAX(keep_i, fabs(r->iratio - 1.0));
            keep_n++;
        }
        if (conv != CONV_SDR709 && desat == 0.0 && is_maxrgb_curve(tm))
            ratio_dh = FFMAX(ratio_dh, isnan(r->dh) ? HUGE_VAL : r->dh);
    }
    CHECK(finite, "conv %d tonemap=%s desat=%g gamut=%s: every output finite", conv, tm,
          desat, gamut ? gamut : "-");
    /* tone curves reach at most target_peak; with tonemap=none light above it clips
     * there, and the output's MaxCLL says so */
    if (conv == CONV_HDR)
        CHECK(peak <= HDR_TARGET * 1.001 && (strcmp(tm, "none") || out_maxcll == 1000),
              "(a) tonemap=%s desat=%g: output peak %.1f cd/m2 above target_peak=1000 "
              "(MaxCLL %d)", tm, desat, peak, out_maxcll);
    if (keep_n)
        CHECK(keep_dh < keep_tol && keep_i < 1e-3, "conv %d tonemap=%s desat=%g gamut=%s: below "
              "the target peak hue and I are kept (|dh| %.2g, |I ratio - 1| %.2g, %d colours)",
              conv, tm, desat, gamut ? gamut : "-", keep_dh, keep_i, keep_n);
    if (conv != CONV_SDR709 && desat == 0.0 && is_maxrgb_curve(tm))
        CHECK(ratio_dh < 1e-3, "conv %d tonemap=%s desat=0: max-RGB ratio scaling keeps hue "
              "(|dh| %.2g)", conv, tm, ratio_dh);
}

static void test_conversions(const AVFrame *in)
{
    static Result res[NB_COL];

    for (int conv = 0; conv < NB_CONV; conv++) {
        const int nb_gamut = conv == CONV_SDR709 ? FF_ARRAY_ELEMS(gamuts) : 1;
        print_header(convs[conv].title);
        for (int g = 0; g < nb_gamut; g++) {
            for (int t = 0; t < FF_ARRAY_ELEMS(tonemaps); t++) {
                for (int d = 0; d < FF_ARRAY_ELEMS(desats); d++) {
                    const char *gamut = conv == CONV_SDR709 ? gamuts[g] : NULL;
                    char mode[64];
                    /* desat does nothing without a curve (the filter warns) */
                    if (!strcmp(tonemaps[t], "none") && desats[d] > 0.0)
                        continue;
                    if (run(conv, in, tonemaps[t], desats[d], gamut, res) < 0)
                        continue;
                    snprintf(mode, sizeof(mode), "%s%s%s", tonemaps[t], gamut ? "/" : "",
                             gamut ? gamut : "");
                    print_row(mode, desats[d], res);
                    check_run(conv, tonemaps[t], desats[d], gamut, res);
                }
            }
        }
    }
    printf("\nmax|dh|, mean|dh|: IPT hue change in rad over the colours with a hue out (nh: "
           "the number without, chroma/I < %g); I, Y: out/in over all colours; dark: output Y of "
           "a saturated colour / output Y of the grey of its input luminance (1: a luminance "
           "curve), the lowest and the mean of the 12 primaries and secondaries at 4000 cd/m2\n",
           ACHROMATIC);
}

/*
 * The hue bound of the default mode (tonemap=auto, default desat, tmmode=max) on (a) and
 * (b): every BT.2020 and P3 primary and secondary at every level within 3e-3 rad of its
 * input hue in IPT (issue 30, item 6). max-RGB ratio scaling is a scaling in linear light,
 * which IPT's pure power keeps the hue of: what remains is rounding.
 */
static void hue_bound_default(const AVFrame *in)
{
    static Result res[NB_COL];
    static const int conv_list[] = { CONV_HDR, CONV_SDR2020 };

    for (int c = 0; c < FF_ARRAY_ELEMS(conv_list); c++) {
        const int conv = conv_list[c];
        double worst = 0.0;
        int at = -1, nb_achro = 0;
        char name[32] = "-";

        if (run(conv, in, "auto", 0.0, NULL, res) < 0)
            continue;
        for (int i = 0; i < NB_COL; i++) {
            if (col[i].hue >= NB_SAT)
                continue;
            if (isnan(res[i].dh)) {
                nb_achro++;
                continue;
            }
            if (res[i].dh > worst) {
                worst = res[i].dh;
                at = i;
            }
        }
        if (at >= 0)
            colour_name(name, sizeof(name), at);
        printf("hue_bound_default %s: max |dh| %.2e rad at %s (%d without hue), bound 3e-3\n",
               conv == CONV_HDR ? "(a)" : "(b)", worst, name, nb_achro);
        CHECK(worst <= 3e-3 && !nb_achro, "the default tone mapping keeps the hue of BT.2020 "
              "and P3 primaries and secondaries within 3e-3 rad in IPT (%s: %g at %s)",
              conv == CONV_HDR ? "(a)" : "(b)", worst, name);
    }
}

int main(void)
{
    AVFrame *in;

    av_log_set_level(AV_LOG_ERROR);
    init_matrices();
    test_model();
    init_colours();
    if (!(in = make_frame())) {
        CHECK(0, "out of memory");
    } else {
        test_conversions(in);
        printf("\n");
        hue_bound_default(in);
    }
    av_frame_free(&in);
    printf("hue: %d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
