/*
 * cspfix float64 reference model, written from the standards
 * (ITU-T H.273, ITU-T H.265 Annex E, ITU-R BT.601/709/1886/2020/2100/2408, SMPTE ST 2084/428-1,
 * SMPTE RP 177/431-2, IEC 61966-2-1/2-4/2-5, ARIB STD-B67). Independent of libavutil's colour code: it only uses
 * the AVCOL_* enum numbering (= H.273 code points) as identifiers, and values of its own
 * (REF_PRI_OPRGB, REF_TRC_OPRGB, REF_TRC_DCIP3) for what H.273 has no code point for.
 *
 * This file is part of cspfix.
 *
 * cspfix is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Lesser General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 *
 * cspfix is distributed in the hope that it will be useful,
 * but WITHOUT ANY WARRANTY; without even the implied warranty of
 * MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.  See the GNU
 * Lesser General Public License for more details.
 *
 * You should have received a copy of the GNU Lesser General Public
 * License along with cspfix; if not, write to the Free Software
 * Foundation, Inc., 51 Franklin Street, Fifth Floor, Boston, MA 02110-1301 USA
 */

/*
 * Straight double-precision implementation of doc/conversion-model.md. Section numbers in the
 * comments refer to that document. Nothing here is optimised; clarity first.
 */

#include <math.h>
#include <stddef.h>
#include <string.h>

#include "cspfix_refmodel.h"

/* ------------------------------------------------------------------------------------------ */
/* 3x3 matrix helpers                                                                          */
/* ------------------------------------------------------------------------------------------ */

static void mat_identity(double m[3][3])
{
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            m[i][j] = i == j;
}

static void mat_copy(double dst[3][3], const double src[3][3])
{
    memcpy(dst, src, sizeof(double[3][3]));
}

/* dst = a * b (dst may alias a or b) */
static void mat_mul(double dst[3][3], const double a[3][3], const double b[3][3])
{
    double t[3][3];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            t[i][j] = a[i][0] * b[0][j] + a[i][1] * b[1][j] + a[i][2] * b[2][j];
    mat_copy(dst, t);
}

/* dst = m * v (dst may alias v) */
static void mat_vec(double dst[3], const double m[3][3], const double v[3])
{
    double t[3];
    for (int i = 0; i < 3; i++)
        t[i] = m[i][0] * v[0] + m[i][1] * v[1] + m[i][2] * v[2];
    memcpy(dst, t, sizeof(t));
}

/* Inverse by the adjugate. Returns <0 for a singular matrix. dst may alias m. */
static int mat_invert(double dst[3][3], const double m[3][3])
{
    double c[3][3];
    c[0][0] = m[1][1] * m[2][2] - m[1][2] * m[2][1];
    c[0][1] = m[0][2] * m[2][1] - m[0][1] * m[2][2];
    c[0][2] = m[0][1] * m[1][2] - m[0][2] * m[1][1];
    c[1][0] = m[1][2] * m[2][0] - m[1][0] * m[2][2];
    c[1][1] = m[0][0] * m[2][2] - m[0][2] * m[2][0];
    c[1][2] = m[0][2] * m[1][0] - m[0][0] * m[1][2];
    c[2][0] = m[1][0] * m[2][1] - m[1][1] * m[2][0];
    c[2][1] = m[0][1] * m[2][0] - m[0][0] * m[2][1];
    c[2][2] = m[0][0] * m[1][1] - m[0][1] * m[1][0];
    double det = m[0][0] * c[0][0] + m[0][1] * c[1][0] + m[0][2] * c[2][0];
    if (det == 0.0 || !isfinite(det))
        return -1;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            dst[i][j] = c[i][j] / det;
    return 0;
}

/* ------------------------------------------------------------------------------------------ */
/* Section 3: transfer functions                                                               */
/* ------------------------------------------------------------------------------------------ */

/* Odd extension: f is defined for x >= 0, f(-x) = -f(x). */
static double odd(double (*f)(double), double x)
{
    return x < 0 ? -f(-x) : f(x);
}

/* PQ and HLG are defined for non-negative light only (ST 2084, BT.2100): negative linear
 * light (an out-of-gamut colour) encodes as black, f(0). */
static double nonneg(double (*f)(double), double x)
{
    return f(x < 0 ? 0.0 : x);
}

/* BT.1886 with Lw = 1, Lb = 0 (display mode of the SDR broadcast curves). */
static double bt1886_eotf(double e)     { return pow(e, 2.4); }
static double bt1886_inv_eotf(double l) { return pow(l, 1.0 / 2.4); }

/* BT.709 / BT.601 / BT.2020 OETF (H.273 transfer_characteristics 1, 6, 14, 15), precise
 * constants as in H.273. */
#define BT709_ALPHA 1.099296826809442
#define BT709_BETA  0.018053968510807

static double bt709_oetf(double l)
{
    return l < BT709_BETA ? 4.5 * l : BT709_ALPHA * pow(l, 0.45) - (BT709_ALPHA - 1.0);
}

static double bt709_inv_oetf(double e)
{
    /* E' < 4.5 beta <-> L < beta: the inverse of the branch above */
    return e < 4.5 * BT709_BETA ? e / 4.5 : pow((e + BT709_ALPHA - 1.0) / BT709_ALPHA, 1.0 / 0.45);
}

/* SMPTE ST 240M (H.273 transfer_characteristics 7). The two segments do not meet exactly
 * (4 * 0.0228 = 0.0912, 1.1115 * 0.0228^0.45 - 0.1115 = 0.09127): inherent to ST 240M. */
#define ST240_ALPHA 1.1115
#define ST240_BETA  0.0228

static double st240_oetf(double l)
{
    return l < ST240_BETA ? 4.0 * l : ST240_ALPHA * pow(l, 0.45) - (ST240_ALPHA - 1.0);
}

static double st240_inv_oetf(double e)
{
    return e < 4.0 * ST240_BETA ? e / 4.0 : pow((e + ST240_ALPHA - 1.0) / ST240_ALPHA, 1.0 / 0.45);
}

/* IEC 61966-2-1 (sRGB). The encoding threshold is the image of the decoding threshold
 * (0.04045 / 12.92 = 0.0031308049...) so that encoding is the exact inverse of decoding;
 * IEC 61966-2-1 prints it rounded as 0.0031308. */
static double srgb_eotf(double e)
{
    return e <= 0.04045 ? e / 12.92 : pow((e + 0.055) / 1.055, 2.4);
}

static double srgb_inv_eotf(double l)
{
    return l <= 0.04045 / 12.92 ? l * 12.92 : 1.055 * pow(l, 1.0 / 2.4) - 0.055;
}

/* Pure powers. */
static double pow22(double x)     { return pow(x, 2.2); }
static double pow22_inv(double x) { return pow(x, 1.0 / 2.2); }
static double pow28(double x)     { return pow(x, 2.8); }
static double pow28_inv(double x) { return pow(x, 1.0 / 2.8); }

/* IEC 61966-2-5 (opRGB, Adobe RGB (1998)): a pure power of exponent 563/256 = 2.19921875
 * (not 2.2), without a linear segment; black at 0 (the reference display's black level is
 * the viewing condition, not part of the encoding). */
#define OPRGB_GAMMA (563.0 / 256.0)
static double pow_oprgb(double x)     { return pow(x, OPRGB_GAMMA); }
static double pow_oprgb_inv(double x) { return pow(x, 1.0 / OPRGB_GAMMA); }

/* SMPTE RP 431-2 reference projector: a pure power 2.6 on relative light (ST 428-1's
 * 52.37 / 48 scaling is for its XYZ encoding, not used here). */
#define DCIP3_GAMMA 2.6
static double pow_dcip3(double x)     { return pow(x, DCIP3_GAMMA); }
static double pow_dcip3_inv(double x) { return pow(x, 1.0 / DCIP3_GAMMA); }

/* SMPTE ST 428-1: L = (52.37 / 48) E'^2.6, i.e. E' = (48 L / 52.37)^(1/2.6) (H.273 tc 17). */
static double st428_eotf(double e)     { return 52.37 / 48.0 * pow(e, 2.6); }
static double st428_inv_eotf(double l) { return pow(48.0 * l / 52.37, 1.0 / 2.6); }

/* SMPTE ST 2084 (PQ), on luminance normalised to 10000 cd/m2. */
#define PQ_M1 (2610.0 / 16384.0)
#define PQ_M2 (2523.0 / 4096.0 * 128.0)
#define PQ_C1 (3424.0 / 4096.0)
#define PQ_C2 (2413.0 / 4096.0 * 32.0)
#define PQ_C3 (2392.0 / 4096.0 * 32.0)

/* e >= 0; clamped to 1 (section 3). Returns Y in [0, 1]. */
static double pq_eotf(double e)
{
    if (e > 1.0)
        e = 1.0;
    double p = pow(e, 1.0 / PQ_M2);
    double num = p - PQ_C1;
    if (num < 0.0)
        num = 0.0;
    return pow(num / (PQ_C2 - PQ_C3 * p), 1.0 / PQ_M1);
}

/* y >= 0 (normalised to 10000 cd/m2). Note pq_inv_eotf(0) = c1^m2 = 7.3e-7, not 0: the
 * EOTF maps all of [0, c1^m2] to 0, so the round trip cannot be exact there. */
static double pq_inv_eotf(double y)
{
    double p = pow(y, PQ_M1);
    return pow((PQ_C1 + PQ_C2 * p) / (1.0 + PQ_C3 * p), PQ_M2);
}

/* Relative units (1.0 = 203 cd/m2). */
#define REF_WHITE_CDM2 203.0
#define PQ_PEAK_CDM2   10000.0

static double pq_eotf_rel(double e)     { return pq_eotf(e) * (PQ_PEAK_CDM2 / REF_WHITE_CDM2); }
static double pq_inv_eotf_rel(double l) { return pq_inv_eotf(l * (REF_WHITE_CDM2 / PQ_PEAK_CDM2)); }

/* ARIB STD-B67 / BT.2100 HLG OETF on normalised scene light E in [0, 1].
 * b and c are computed from a by their defining formulas (b = 1 - 4a, c = 0.5 - a ln(4a)),
 * which makes the two segments meet exactly at E' = 1/2; they round to the printed values
 * 0.28466892 and 0.55991073. */
#define HLG_A 0.17883277
#define HLG_B (1.0 - 4.0 * HLG_A)
#define HLG_C (0.5 - HLG_A * log(4.0 * HLG_A))

static double hlg_oetf(double E)
{
    return E <= 1.0 / 12.0 ? sqrt(3.0 * E) : HLG_A * log(12.0 * E - HLG_B) + HLG_C;
}

static double hlg_inv_oetf(double e)
{
    return e <= 0.5 ? e * e / 3.0 : (exp((e - HLG_C) / HLG_A) + HLG_B) / 12.0;
}

/* E at E' = 0.75 (HLG reference white, BT.2408). */
static double hlg_e75(void)
{
    return hlg_inv_oetf(0.75);
}

static double hlg_scene_lin(double e)  { return hlg_inv_oetf(e) / hlg_e75(); }
static double hlg_scene_enc(double l)  { return hlg_oetf(l * hlg_e75()); }

/* HLG OOTF parameters (BT.2100 reference display). */
#define HLG_LW    1000.0
#define HLG_GAMMA 1.2

/* Log transfers (H.273 tc 9 and 10): no odd extension, E' <= 0 -> 0. */
static double log_decode(double e, double range)
{
    return e <= 0.0 ? 0.0 : pow(10.0, range * (e - 1.0));
}

static double log_encode(double l, double range)
{
    double lmin = pow(10.0, -range); /* 0.01 or 0.00316227766 */
    return l < lmin ? 0.0 : 1.0 + log10(l) / range;
}

static int trc_supported(int trc)
{
    switch (trc) {
    case REF_TRC_BT709: case REF_TRC_GAMMA22: case REF_TRC_GAMMA28: case REF_TRC_SMPTE170M:
    case REF_TRC_SMPTE240M: case REF_TRC_LINEAR: case REF_TRC_LOG100: case REF_TRC_LOG316:
    case REF_TRC_IEC61966_2_4: case REF_TRC_BT1361E: case REF_TRC_IEC61966_2_1:
    case REF_TRC_BT2020_10: case REF_TRC_BT2020_12: case REF_TRC_SMPTE2084:
    case REF_TRC_SMPTE428: case REF_TRC_ARIB_STD_B67: case REF_TRC_OPRGB: case REF_TRC_DCIP3:
        return 1;
    default:
        return 0;
    }
}

double ref_linearize(int trc, int linearize, double e)
{
    int scene = linearize == REF_LIN_SCENE;

    switch (trc) {
    case REF_TRC_BT709:
    case REF_TRC_SMPTE170M:
    case REF_TRC_BT2020_10:
    case REF_TRC_BT2020_12:
    case REF_TRC_IEC61966_2_4:
        return odd(scene ? bt709_inv_oetf : bt1886_eotf, e);
    case REF_TRC_SMPTE240M:
        return odd(scene ? st240_inv_oetf : bt1886_eotf, e);
    case REF_TRC_BT1361E:
        /* Positive part as BT.709 (BT.1886 in display mode); negative part extended with the
         * factor 4 of BT.1361: L = -f(-4 E') / 4. */
        if (scene)
            return e >= 0 ? bt709_inv_oetf(e) : -bt709_inv_oetf(-4.0 * e) / 4.0;
        return e >= 0 ? bt1886_eotf(e) : -bt1886_eotf(-4.0 * e) / 4.0;
    case REF_TRC_GAMMA22:
        return odd(pow22, e);
    case REF_TRC_GAMMA28:
        return odd(pow28, e);
    case REF_TRC_OPRGB:
        return odd(pow_oprgb, e);
    case REF_TRC_DCIP3:
        return odd(pow_dcip3, e);
    case REF_TRC_LINEAR:
        return e;
    case REF_TRC_IEC61966_2_1:
        return odd(srgb_eotf, e);
    case REF_TRC_SMPTE428:
        return odd(st428_eotf, e);
    case REF_TRC_LOG100:
        return log_decode(e, 2.0);
    case REF_TRC_LOG316:
        return log_decode(e, 2.5);
    case REF_TRC_SMPTE2084:
        return odd(pq_eotf_rel, e);
    case REF_TRC_ARIB_STD_B67:
        /* display mode: plain inverse OETF (scene light E), the OOTF follows in ref_convert */
        return odd(scene ? hlg_scene_lin : hlg_inv_oetf, e);
    default:
        return NAN;
    }
}

double ref_delinearize(int trc, int linearize, double l)
{
    int scene = linearize == REF_LIN_SCENE;

    switch (trc) {
    case REF_TRC_BT709:
    case REF_TRC_SMPTE170M:
    case REF_TRC_BT2020_10:
    case REF_TRC_BT2020_12:
    case REF_TRC_IEC61966_2_4:
        return odd(scene ? bt709_oetf : bt1886_inv_eotf, l);
    case REF_TRC_SMPTE240M:
        return odd(scene ? st240_oetf : bt1886_inv_eotf, l);
    case REF_TRC_BT1361E:
        /* inverse of L = -f(-4 E') / 4:  E' = -f^-1(-4 L) / 4 */
        if (scene)
            return l >= 0 ? bt709_oetf(l) : -bt709_oetf(-4.0 * l) / 4.0;
        return l >= 0 ? bt1886_inv_eotf(l) : -bt1886_inv_eotf(-4.0 * l) / 4.0;
    case REF_TRC_GAMMA22:
        return odd(pow22_inv, l);
    case REF_TRC_GAMMA28:
        return odd(pow28_inv, l);
    case REF_TRC_OPRGB:
        return odd(pow_oprgb_inv, l);
    case REF_TRC_DCIP3:
        return odd(pow_dcip3_inv, l);
    case REF_TRC_LINEAR:
        return l;
    case REF_TRC_IEC61966_2_1:
        return odd(srgb_inv_eotf, l);
    case REF_TRC_SMPTE428:
        return odd(st428_inv_eotf, l);
    case REF_TRC_LOG100:
        return log_encode(l, 2.0);
    case REF_TRC_LOG316:
        return log_encode(l, 2.5);
    case REF_TRC_SMPTE2084:
        /* negative light encodes as PQ(0); not clamped above: linear light above 10000 cd/m2
         * gives E' > 1 (the filter's output codes clip); such samples are out of gamut
         * (section 7) */
        return nonneg(pq_inv_eotf_rel, l);
    case REF_TRC_ARIB_STD_B67:
        return nonneg(scene ? hlg_scene_enc : hlg_oetf, l);
    default:
        return NAN;
    }
}

double ref_hlg_gamma(double lw)
{
    return HLG_GAMMA + 0.42 * log10(lw / HLG_LW);
}

/* HLG OOTF (BT.2100 Table 5): display light (relative units) from normalised scene light,
 * F_D = Lw Ys^(gamma - 1) E on a display of peak Lw (black 0). */
void ref_hlg_ootf_lw(double kr, double kb, double lw, const double e[3], double l[3])
{
    double kg = 1.0 - kr - kb;
    double ys = kr * e[0] + kg * e[1] + kb * e[2];
    if (ys <= 0.0) {
        l[0] = l[1] = l[2] = 0.0;
        return;
    }
    double g = lw * pow(ys, ref_hlg_gamma(lw) - 1.0) / REF_WHITE_CDM2;
    for (int i = 0; i < 3; i++)
        l[i] = g * e[i];
}

/* Inverse HLG OOTF: Ys = (Yd / Lw)^(1/gamma), E = F_D / (Lw Ys^(gamma - 1)). */
void ref_hlg_inverse_ootf_lw(double kr, double kb, double lw, const double l[3], double e[3])
{
    double kg = 1.0 - kr - kb;
    double yd = (kr * l[0] + kg * l[1] + kb * l[2]) * REF_WHITE_CDM2; /* cd/m2 */
    double gamma = ref_hlg_gamma(lw);
    if (yd <= 0.0) {
        e[0] = e[1] = e[2] = 0.0;
        return;
    }
    double ys = pow(yd / lw, 1.0 / gamma);
    double g = REF_WHITE_CDM2 / (lw * pow(ys, gamma - 1.0));
    for (int i = 0; i < 3; i++)
        e[i] = g * l[i];
}

void ref_hlg_ootf(double kr, double kb, const double e[3], double l[3])
{
    ref_hlg_ootf_lw(kr, kb, HLG_LW, e, l);
}

void ref_hlg_inverse_ootf(double kr, double kb, const double l[3], double e[3])
{
    ref_hlg_inverse_ootf_lw(kr, kb, HLG_LW, l, e);
}

/* ---- section 4: tone curves (cd/m2 -> cd/m2) ---- */

/* BT.2390 EETF (section 5.4 of ITU-R BT.2390): in the PQ domain normalised to the source
 * range [Lb, Lw] (here Lb = 0 and target black 0, so no black lift), a Hermite spline from the
 * knee KS = 1.5 maxLum - 0.5 to the target maximum maxLum. */
static double eetf_bt2390(double l, double ls, double lt)
{
    const double pb = pq_inv_eotf(0.0);
    const double pw = pq_inv_eotf(ls / PQ_PEAK_CDM2);
    const double max_lum = (pq_inv_eotf(lt / PQ_PEAK_CDM2) - pb) / (pw - pb);
    double ks = 1.5 * max_lum - 0.5, e1, e2;

    if (ks < 0.0)
        ks = 0.0;
    e1 = (pq_inv_eotf(l / PQ_PEAK_CDM2) - pb) / (pw - pb);
    e1 = e1 < 0.0 ? 0.0 : e1 > 1.0 ? 1.0 : e1;
    if (e1 < ks) {
        e2 = e1;
    } else {
        double t = (e1 - ks) / (1.0 - ks);
        double h00 = 2 * t * t * t - 3 * t * t + 1;
        double h10 = t * t * t - 2 * t * t + t;
        double h01 = -2 * t * t * t + 3 * t * t;
        e2 = h00 * ks + h10 * (1.0 - ks) + h01 * max_lum;
    }
    return pq_eotf(e2 * (pw - pb) + pb) * PQ_PEAK_CDM2;
}

static double hable_curve(double x)
{
    /* J. Hable, "Filmic tonemapping operators" (2010): A = 0.15 shoulder strength,
     * B = 0.50 linear strength, C = 0.10 linear angle, D = 0.20 toe strength,
     * E = 0.02 toe numerator, F = 0.30 toe denominator. */
    const double A = 0.15, B = 0.50, C = 0.10, D = 0.20, E = 0.02, F = 0.30;
    return (x * (A * x + C * B) + D * E) / (x * (A * x + B) + D * F) - E / F;
}

double ref_tone_curve(int tonemap, double l, double ls, double lt)
{
    double x = l / lt, p = ls / lt, y;

    switch (tonemap) {
    case REF_TM_BT2390:
        y = ls <= lt ? l : eetf_bt2390(l, ls, lt);
        return y < lt ? y : lt;
    case REF_TM_REINHARD:
        /* Reinhard et al. 2002, eq. 4 with the white point at the source peak */
        y = p <= 1.0 ? x : x * (1.0 + x / (p * p)) / (1.0 + x);
        break;
    case REF_TM_HABLE:
        y = hable_curve(x) / hable_curve(p > 1.0 ? p : 1.0);
        break;
    case REF_TM_MOBIUS: {
        /* identity up to j; above, y = A (x + a) / (x + b), a Mobius map with y(j) = j,
         * y'(j) = 1 and y(p) = 1 */
        const double j = 0.3;
        if (p <= 1.0 || x <= j) {
            y = x;
        } else {
            double a = -j * j * (p - 1.0) / (j * j - 2.0 * j + p);
            double b = (j * j - 2.0 * j * p + p) / (p - 1.0);
            y = (b * b + 2.0 * b * j + j * j) / (b - a) * (x + a) / (x + b);
        }
        break;
    }
    default: /* clip */
        y = x;
        break;
    }
    return lt * (y < 1.0 ? y : 1.0);
}

#define TM_FLOOR 1e-6 /* relative light below which the gain is held (the curves are linear) */

/* Tone mapping on max(R,G,B) with ratio scaling: every component gets the same gain, so
 * the ratios (hue and saturation) stay; then optional desaturation toward Y. */
static void tonemap_rgb(int tm, double ls, double lt, double out_white, double desat,
                        double kr, double kb, double c[3])
{
    double m = fmax(fmax(c[0], c[1]), c[2]), l, f, g, d, y;

    if (m < TM_FLOOR)
        m = TM_FLOOR;
    l = m * REF_WHITE_CDM2;
    f = ref_tone_curve(tm, l, ls, lt);
    g = f / (out_white * m);
    d = desat * fmin(fmax(1.0 - f / l, 0.0), 1.0);
    for (int i = 0; i < 3; i++)
        c[i] *= g;
    y = kr * c[0] + (1.0 - kr - kb) * c[1] + kb * c[2];
    for (int i = 0; i < 3; i++)
        c[i] += d * (y - c[i]);
}

/* Gamut mapping of linear RGB in the output primaries to [0, hi]. */
static void gamut_map(int mode, const double g[3][3], double kr, double kb, double hi, double c[3])
{
    if (mode == REF_GAMUT_DESATURATE) {
        /* the point on the segment from (Y, Y, Y) to c nearest to c that is inside the cube */
        double y = kr * c[0] + (1.0 - kr - kb) * c[1] + kb * c[2], t = 1.0;
        double mn = fmin(fmin(c[0], c[1]), c[2]), mx = fmax(fmax(c[0], c[1]), c[2]);
        y = fmin(fmax(y, 0.0), hi);
        if (mn < 0.0)
            t = fmin(t, y / (y - mn));
        if (mx > hi)
            t = fmin(t, (hi - y) / (mx - y));
        for (int i = 0; i < 3; i++)
            c[i] = y + t * (c[i] - y);
    } else if (mode == REF_GAMUT_COMPRESS) {
        /* distance from the achromatic axis per component, d = (max - c) / max; distances
         * above thr = 0.8 are compressed so that the farthest input primary (lim) lands on the
         * boundary d = 1: d' = thr + e / (1 + e / s), e = d - thr */
        const double thr = 0.8;
        double a = fmax(fmax(c[0], c[1]), c[2]);
        for (int i = 0; i < 3 && a > 0.0; i++) {
            double lim = 0.0, d = (a - c[i]) / a;
            for (int j = 0; j < 3; j++) {
                double aj = fmax(fmax(g[0][j], g[1][j]), g[2][j]);
                if (aj > 0.0)
                    lim = fmax(lim, (aj - g[i][j]) / aj);
            }
            if (lim > 1.0 + 1e-6 && d > thr) {
                double e = d - thr, s = (lim - thr) / ((lim - thr) / (1.0 - thr) - 1.0);
                c[i] = a - (thr + e / (1.0 + e / s)) * a;
            }
        }
    }
    if (mode != REF_GAMUT_NONE)
        for (int i = 0; i < 3; i++)
            c[i] = fmin(fmax(c[i], 0.0), hi);
}

/* ------------------------------------------------------------------------------------------ */
/* Constant-luminance TF                                                                       */
/* ------------------------------------------------------------------------------------------ */

/*
 * The CL equations of H.273 (matrix_coefficients 10 and 13) need an encoding function TF with
 * TF(1) = 1 so that Pb = 1 - TF(Kb) etc. bound Cb/Cr to [-0.5, 0.5]. Choice made here (see the
 * header): the scene-form encoding of the frame's transfer on normalised linear light; for PQ
 * the inverse EOTF on luminance / 10000 cd/m2, for HLG the OETF on E (no E75 scaling), for all
 * other curves the scene-mode delinearisation of section 3 (BT.709 OETF for bt709 /
 * smpte170m / bt2020-10 / bt2020-12, which gives BT.2020's constant-luminance system).
 */
double ref_cl_tf(int trc, double x)
{
    switch (trc) {
    case REF_TRC_SMPTE2084:
        return nonneg(pq_inv_eotf, x);
    case REF_TRC_ARIB_STD_B67:
        return nonneg(hlg_oetf, x);
    default:
        return trc_supported(trc) ? ref_delinearize(trc, REF_LIN_SCENE, x) : NAN;
    }
}

double ref_cl_tf_inv(int trc, double e)
{
    switch (trc) {
    case REF_TRC_SMPTE2084:
        return odd(pq_eotf, e);
    case REF_TRC_ARIB_STD_B67:
        return odd(hlg_inv_oetf, e);
    default:
        return trc_supported(trc) ? ref_linearize(trc, REF_LIN_SCENE, e) : NAN;
    }
}

/* ------------------------------------------------------------------------------------------ */
/* Section 5: primaries, white points, adaptation                                              */
/* ------------------------------------------------------------------------------------------ */

typedef struct Chroma {
    double rx, ry, gx, gy, bx, by, wx, wy;
} Chroma;

#define WHITE_D65 0.3127, 0.3290
#define WHITE_C   0.310, 0.316

/* H.273 Table 2; opRGB from IEC 61966-2-5 (= Adobe RGB (1998): BT.709's red and blue,
 * a greener green, D65). */
static int prim_chroma(int prim, Chroma *c)
{
    static const struct { int prim; Chroma c; } tab[] = {
        { REF_PRI_BT709,     { 0.640, 0.330, 0.300, 0.600, 0.150, 0.060, WHITE_D65 } },
        { REF_PRI_BT470M,    { 0.67,  0.33,  0.21,  0.71,  0.14,  0.08,  WHITE_C   } },
        { REF_PRI_BT470BG,   { 0.64,  0.33,  0.29,  0.60,  0.15,  0.06,  WHITE_D65 } },
        { REF_PRI_SMPTE170M, { 0.630, 0.340, 0.310, 0.595, 0.155, 0.070, WHITE_D65 } },
        { REF_PRI_SMPTE240M, { 0.630, 0.340, 0.310, 0.595, 0.155, 0.070, WHITE_D65 } },
        { REF_PRI_FILM,      { 0.681, 0.319, 0.243, 0.692, 0.145, 0.049, WHITE_C   } },
        { REF_PRI_BT2020,    { 0.708, 0.292, 0.170, 0.797, 0.131, 0.046, WHITE_D65 } },
        { REF_PRI_SMPTE428,  { 1.0,   0.0,   0.0,   1.0,   0.0,   0.0,   1.0 / 3.0, 1.0 / 3.0 } },
        { REF_PRI_SMPTE431,  { 0.680, 0.320, 0.265, 0.690, 0.150, 0.060, 0.314, 0.351 } },
        { REF_PRI_SMPTE432,  { 0.680, 0.320, 0.265, 0.690, 0.150, 0.060, WHITE_D65 } },
        { REF_PRI_EBU3213,   { 0.630, 0.340, 0.295, 0.605, 0.155, 0.077, WHITE_D65 } },
        { REF_PRI_OPRGB,     { 0.64,  0.33,  0.21,  0.71,  0.15,  0.06,  WHITE_D65 } },
        { REF_PRI_XYZ_D65,   { 1.0,   0.0,   0.0,   1.0,   0.0,   0.0,   WHITE_D65 } },
        { REF_PRI_XYZ_DCI,   { 1.0,   0.0,   0.0,   1.0,   0.0,   0.0,   0.314, 0.351 } },
    };
    for (size_t i = 0; i < sizeof(tab) / sizeof(tab[0]); i++) {
        if (tab[i].prim == prim) {
            *c = tab[i].c;
            return 0;
        }
    }
    return -1;
}

static void xy_to_XYZ(double x, double y, double xyz[3])
{
    xyz[0] = x / y;
    xyz[1] = 1.0;
    xyz[2] = (1.0 - x - y) / y;
}

int ref_white_xyz(int prim, double xyz[3])
{
    Chroma c;
    if (prim_chroma(prim, &c) < 0)
        return -1;
    xy_to_XYZ(c.wx, c.wy, xyz);
    return 0;
}

/*
 * SMPTE RP 177: P = columns (x, y, z) of the primaries, S = P^-1 W with W = white XYZ (Y = 1),
 * NPM = P diag(S). Uses (x, y, z) rather than (x/y, 1, z/y) so that the XYZ "primaries" of
 * smpte428 (y = 0 for R and B) work.
 */
static int npm_compute(int prim, double m[3][3])
{
    Chroma c;
    if (prim_chroma(prim, &c) < 0)
        return -1;
    double p[3][3] = {
        { c.rx,              c.gx,              c.bx              },
        { c.ry,              c.gy,              c.by              },
        { 1.0 - c.rx - c.ry, 1.0 - c.gx - c.gy, 1.0 - c.bx - c.by },
    };
    double pinv[3][3], w[3], s[3];
    if (mat_invert(pinv, p) < 0)
        return -1;
    /* XYZ's samples are XYZ whatever white its content has (ST 428-1) */
    if (prim == REF_PRI_XYZ_D65 || prim == REF_PRI_XYZ_DCI) {
        mat_identity(m);
        return 0;
    }
    xy_to_XYZ(c.wx, c.wy, w);
    mat_vec(s, pinv, w);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            m[i][j] = p[i][j] * s[j];
    return 0;
}

/* The matrices are per conversion, the model runs per sample: each thread keeps the last
 * ones it computed (the same arithmetic, done once). */
typedef struct MatMemo {
    int key[3], valid, ret;
    double m[3][3];
} MatMemo;

static int memo_hit(const MatMemo *c, int a, int b, int d, double m[3][3])
{
    if (!c->valid || c->key[0] != a || c->key[1] != b || c->key[2] != d)
        return 0;
    memcpy(m, c->m, sizeof(c->m));
    return 1;
}

static int memo_store(MatMemo *c, int a, int b, int d, int ret, double m[3][3])
{
    *c = (MatMemo){ { a, b, d }, 1, ret };
    memcpy(c->m, m, sizeof(c->m));
    return ret;
}

int ref_npm(int prim, double m[3][3])
{
    /* two entries: a conversion's input and output primaries */
    static _Thread_local MatMemo memo[2];
    static _Thread_local int next;
    for (int i = 0; i < 2; i++)
        if (memo_hit(&memo[i], prim, 0, 0, m))
            return memo[i].ret;
    next ^= 1;
    return memo_store(&memo[next], prim, 0, 0, npm_compute(prim, m), m);
}

int ref_adapt_matrix(int wpadapt, const double w_in[3], const double w_out[3], double m[3][3])
{
    static const double bradford[3][3] = {
        {  0.8951,  0.2664, -0.1614 },
        { -0.7502,  1.7135,  0.0367 },
        {  0.0389, -0.0685,  1.0296 },
    };
    static const double vonkries[3][3] = { /* Hunt-Pointer-Estevez */
        {  0.40024, 0.70760, -0.08081 },
        { -0.22630, 1.16532,  0.04570 },
        {  0.0,     0.0,      0.91822 },
    };
    const double (*a)[3];

    switch (wpadapt) {
    case REF_WP_BRADFORD: a = bradford; break;
    case REF_WP_VONKRIES: a = vonkries; break;
    case REF_WP_IDENTITY: mat_identity(m); return 0;
    default: return -1;
    }

    double ain[3], aout[3], ainv[3][3], d[3][3] = { { 0 } };
    mat_vec(ain, a, w_in);
    mat_vec(aout, a, w_out);
    if (mat_invert(ainv, a) < 0)
        return -1;
    for (int i = 0; i < 3; i++)
        d[i][i] = aout[i] / ain[i];
    mat_mul(m, d, a);
    mat_mul(m, ainv, m);
    return 0;
}

static int chroma_equal(const Chroma *a, const Chroma *b)
{
    return a->rx == b->rx && a->ry == b->ry && a->gx == b->gx && a->gy == b->gy &&
           a->bx == b->bx && a->by == b->by && a->wx == b->wx && a->wy == b->wy;
}

static int gamut_compute(int prim_in, int prim_out, int wpadapt, double m[3][3]);

int ref_gamut_matrix(int prim_in, int prim_out, int wpadapt, double m[3][3])
{
    static _Thread_local MatMemo memo;
    if (memo_hit(&memo, prim_in, prim_out, wpadapt, m))
        return memo.ret;
    return memo_store(&memo, prim_in, prim_out, wpadapt, gamut_compute(prim_in, prim_out, wpadapt, m), m);
}

static int gamut_compute(int prim_in, int prim_out, int wpadapt, double m[3][3])
{
    Chroma ci, co;
    if (prim_chroma(prim_in, &ci) < 0 || prim_chroma(prim_out, &co) < 0)
        return -1;
    if (wpadapt != REF_WP_BRADFORD && wpadapt != REF_WP_VONKRIES && wpadapt != REF_WP_IDENTITY)
        return -1;
    if (chroma_equal(&ci, &co)) {
        mat_identity(m);
        return 0;
    }

    double npm_in[3][3], npm_out[3][3], npm_out_inv[3][3], adapt[3][3];
    if (ref_npm(prim_in, npm_in) < 0 || ref_npm(prim_out, npm_out) < 0 ||
        mat_invert(npm_out_inv, npm_out) < 0)
        return -1;

    if (ci.wx == co.wx && ci.wy == co.wy) {
        mat_identity(adapt);
    } else {
        double w_in[3], w_out[3];
        xy_to_XYZ(ci.wx, ci.wy, w_in);
        xy_to_XYZ(co.wx, co.wy, w_out);
        if (ref_adapt_matrix(wpadapt, w_in, w_out, adapt) < 0)
            return -1;
    }

    /* RGB_out = NPM_out^-1 * M * NPM_in * RGB_in */
    mat_mul(m, adapt, npm_in);
    mat_mul(m, npm_out_inv, m);
    /* Entries that are 0 in exact arithmetic (a primary both sides share, as BT.709, BT.470BG
     * and opRGB share red and blue) come out as rounding residues below 1e-15. Through a pure
     * power's infinite slope at black (gamma22, opRGB) a residue of 1e-17 would show as
     * 1e-8, and a negative one would put a colour on the gamut's boundary outside it: they
     * are zeroed (no real entry is anywhere near 1e-12). */
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            if (fabs(m[i][j]) < 1e-12)
                m[i][j] = 0.0;
    return 0;
}

/* ------------------------------------------------------------------------------------------ */
/* Section 2: matrices                                                                         */
/* ------------------------------------------------------------------------------------------ */

int ref_luma_coeffs(int matrix, int prim, double *kr, double *kb)
{
    double npm[3][3];

    switch (matrix) {
    case REF_SPC_BT709:      *kr = 0.2126; *kb = 0.0722; return 0;
    case REF_SPC_FCC:        *kr = 0.30;   *kb = 0.11;   return 0;
    case REF_SPC_BT470BG:
    case REF_SPC_SMPTE170M:  *kr = 0.299;  *kb = 0.114;  return 0;
    case REF_SPC_SMPTE240M:  *kr = 0.212;  *kb = 0.087;  return 0;
    case REF_SPC_BT2020_NCL:
    case REF_SPC_BT2020_CL:  *kr = 0.2627; *kb = 0.0593; return 0;
    case REF_SPC_CHROMA_DERIVED_NCL:
    case REF_SPC_CHROMA_DERIVED_CL:
        if (ref_npm(prim, npm) < 0)
            return -1;
        *kr = npm[1][0];
        *kb = npm[1][2];
        return 0;
    default:
        return -1;
    }
}

static int is_cl(int matrix)
{
    return matrix == REF_SPC_BT2020_CL || matrix == REF_SPC_CHROMA_DERIVED_CL;
}

/* ---- YCgCo-R (H.273 V3 matrix_coefficients 16 and 17; H.265 eqs E-41..E-48) ---- */

static int is_ycgcor(int matrix)
{
    return matrix == REF_SPC_YCGCO_RE || matrix == REF_SPC_YCGCO_RO;
}

int ref_ycgcor_rgb_depth(int matrix, int depth)
{
    /* BitDepthY = BitDepthC = N + 2 (re: "even" addition of bits) or N + 1 (ro: "odd") */
    return matrix == REF_SPC_YCGCO_RE ? depth - 2 : matrix == REF_SPC_YCGCO_RO ? depth - 1 : -1;
}

/* The standards' x >> 1 is an arithmetic shift of a two's complement integer: floor(x / 2),
 * -3 >> 1 = -2. Written as the floor, not with C's >> (implementation-defined on negatives). */
static int asr1(int x)
{
    return (int)floor(x / 2.0);
}

void ref_ycgcor_forward(int depth, const int rgb[3], int ycc[3])
{
    const int off = 1 << (depth - 1); /* the coded zero of Cg and Co */
    const int co = rgb[0] - rgb[2];   /* Co = R - B */
    const int t  = rgb[2] + asr1(co); /* t  = B + (Co >> 1) */
    const int cg = rgb[1] - t;        /* Cg = G - t */
    ycc[0] = t + asr1(cg);            /* Y  = t + (Cg >> 1) */
    ycc[1] = cg + off;
    ycc[2] = co + off;
}

void ref_ycgcor_inverse(int depth, const int ycc[3], int rgb[3])
{
    const int off = 1 << (depth - 1);
    const int cg = ycc[1] - off, co = ycc[2] - off;
    const int t  = ycc[0] - asr1(cg); /* t = Y - (Cg >> 1) */
    rgb[1] = t + cg;                  /* G = t + Cg */
    rgb[2] = t - asr1(co);            /* B = t - (Co >> 1) */
    rgb[0] = rgb[2] + co;             /* R = B + Co */
}

int ref_cl_constants(int matrix, int prim, int trc,
                     double *nb, double *pb, double *nr, double *pr)
{
    double kr, kb;
    if (!is_cl(matrix) || !trc_supported(trc) || ref_luma_coeffs(matrix, prim, &kr, &kb) < 0)
        return -1;
    *pb = 1.0 - ref_cl_tf(trc, kb);
    *nb = ref_cl_tf(trc, 1.0 - kb);
    *pr = 1.0 - ref_cl_tf(trc, kr);
    *nr = ref_cl_tf(trc, 1.0 - kr);
    return 0;
}

/* Everything needed to apply one side's matrix. */
typedef struct Side {
    const RefDesc *d;
    int linearize;
    double kr, kb;            /* luma coefficients (NC/CL matrices) */
    double nb, pb, nr, pr;    /* CL constants */
    double okr, okb;          /* HLG OOTF weights: Y row of the NPM of the primaries */
    double lw;                /* HLG display peak, cd/m2 */
} Side;

static int matrix_supported(int matrix)
{
    switch (matrix) {
    case REF_SPC_RGB: case REF_SPC_BT709: case REF_SPC_FCC: case REF_SPC_BT470BG:
    case REF_SPC_SMPTE170M: case REF_SPC_SMPTE240M: case REF_SPC_YCGCO:
    case REF_SPC_BT2020_NCL: case REF_SPC_BT2020_CL: case REF_SPC_CHROMA_DERIVED_NCL:
    case REF_SPC_CHROMA_DERIVED_CL: case REF_SPC_ICTCP: case REF_SPC_IPT_C2:
    case REF_SPC_SMPTE2085: case REF_SPC_YCGCO_RE: case REF_SPC_YCGCO_RO:
        return 1;
    default:
        return 0;
    }
}

static int side_init(Side *s, const RefDesc *d, int linearize)
{
    Chroma c;
    double npm[3][3];

    memset(s, 0, sizeof(*s));
    s->d = d;
    s->linearize = linearize;
    if (prim_chroma(d->prim, &c) < 0 || !trc_supported(d->trc) || !matrix_supported(d->matrix))
        return -1;
    if (d->range != REF_RANGE_TV && d->range != REF_RANGE_PC)
        return -1;
    if (d->depth < 8 || d->depth > 16)
        return -1;
    if (d->matrix == REF_SPC_ICTCP &&
        (d->prim != REF_PRI_BT2020 ||
         (d->trc != REF_TRC_SMPTE2084 && d->trc != REF_TRC_ARIB_STD_B67)))
        return -1;
    if (d->matrix == REF_SPC_IPT_C2 && (d->prim != REF_PRI_BT2020 || d->trc != REF_TRC_SMPTE2084))
        return -1;
    /* YCgCo-R: full range only (H.273), of RGB of 8 bits or more */
    if (is_ycgcor(d->matrix) &&
        (d->range != REF_RANGE_PC || ref_ycgcor_rgb_depth(d->matrix, d->depth) < 8))
        return -1;
    if (ref_npm(d->prim, npm) < 0)
        return -1;
    s->okr = npm[1][0];
    s->okb = npm[1][2];
    if (ref_luma_coeffs(d->matrix, d->prim, &s->kr, &s->kb) < 0) {
        s->kr = s->kb = 0.0; /* rgb, ycgco, ictcp: not used */
    }
    if (is_cl(d->matrix) &&
        ref_cl_constants(d->matrix, d->prim, d->trc, &s->nb, &s->pb, &s->nr, &s->pr) < 0)
        return -1;
    return 0;
}

/* ICtCp (BT.2100-2 Table 7): HLG has its own Ct/Cp rows. */

static const double lms_from_rgb[3][3] = {
    { 1688.0 / 4096, 2146.0 / 4096,  262.0 / 4096 },
    {  683.0 / 4096, 2951.0 / 4096,  462.0 / 4096 },
    {   99.0 / 4096,  309.0 / 4096, 3688.0 / 4096 },
};

static const double ictcp_from_lms_pq[3][3] = {
    {  2048.0 / 4096,   2048.0 / 4096,     0.0 / 4096 },
    {  6610.0 / 4096, -13613.0 / 4096,  7003.0 / 4096 },
    { 17933.0 / 4096, -17390.0 / 4096,  -543.0 / 4096 },
};

static const double ictcp_from_lms_hlg[3][3] = {
    { 2048.0 / 4096,  2048.0 / 4096,    0.0 / 4096 },
    { 3625.0 / 4096, -7465.0 / 4096, 3840.0 / 4096 },
    { 9500.0 / 4096, -9212.0 / 4096, -288.0 / 4096 },
};

/* IPT-C2 (H.273 matrix_coefficients 15, SMPTE ST 2128): BT.2020 RGB -> LMS with 2 %
 * crosstalk, PQ, L'M'S' -> IPT */
static const double ipt_lms_from_rgb[3][3] = {
    { 1747.0 / 4096, 2169.0 / 4096,  180.0 / 4096 },
    {  673.0 / 4096, 3029.0 / 4096,  394.0 / 4096 },
    {   50.0 / 4096,  207.0 / 4096, 3839.0 / 4096 },
};

static const double ipt_from_lms[3][3] = {
    {  1638.0 / 4096,   1638.0 / 4096,   820.0 / 4096 },
    { 18248.0 / 4096, -19870.0 / 4096,  1622.0 / 4096 },
    {  3300.0 / 4096,   1463.0 / 4096, -4763.0 / 4096 },
};

/* the matrix from L'M'S' to the signal (ICtCp by transfer, IPT-C2) */
static const double (*ictcp_matrix(int matrix, int trc))[3]
{
    if (matrix == REF_SPC_IPT_C2)
        return ipt_from_lms;
    if (trc == REF_TRC_ARIB_STD_B67)
        return ictcp_from_lms_hlg;
    return ictcp_from_lms_pq;
}

static const double (*lms_matrix(int matrix))[3]
{
    return matrix == REF_SPC_IPT_C2 ? ipt_lms_from_rgb : lms_from_rgb;
}

static int is_lms(int matrix)
{
    return matrix == REF_SPC_ICTCP || matrix == REF_SPC_IPT_C2;
}

/* Non-linear R'G'B' -> linear RGB of one side (per component, then the HLG OOTF in display
 * mode). */
static void nl_to_linear(const Side *s, const double nl[3], double lin[3])
{
    double t[3];
    for (int i = 0; i < 3; i++)
        t[i] = ref_linearize(s->d->trc, s->linearize, nl[i]);
    if (s->d->trc == REF_TRC_ARIB_STD_B67 && s->linearize == REF_LIN_DISPLAY)
        ref_hlg_ootf_lw(s->okr, s->okb, s->lw, t, lin);
    else
        memcpy(lin, t, sizeof(t));
}

/* Linear RGB -> non-linear R'G'B' (inverse of nl_to_linear). */
static void linear_to_nl(const Side *s, const double lin[3], double nl[3])
{
    double t[3];
    if (s->d->trc == REF_TRC_ARIB_STD_B67 && s->linearize == REF_LIN_DISPLAY)
        ref_hlg_inverse_ootf_lw(s->okr, s->okb, s->lw, lin, t);
    else
        memcpy(t, lin, sizeof(t));
    for (int i = 0; i < 3; i++)
        nl[i] = ref_delinearize(s->d->trc, s->linearize, t[i]);
}

/* Section 2 decode, all matrices but ictcp: (Y', Cb, Cr) -> (R', G', B'). */
static void matrix_decode(const Side *s, const double v[3], double rgb[3])
{
    double y = v[0], cb = v[1], cr = v[2];
    double kr = s->kr, kb = s->kb, kg = 1.0 - kr - kb;
    int trc = s->d->trc;

    switch (s->d->matrix) {
    case REF_SPC_RGB:
        memcpy(rgb, v, 3 * sizeof(double));
        return;
    case REF_SPC_YCGCO_RE:
    case REF_SPC_YCGCO_RO:
        /* section 1 lifted the codes to R'G'B' (codes_to_norm()); each clipped to [0, 1]
         * (the contract's clamp to [0, 2^N - 1]: no-op on a signal a forward lifting made) */
        for (int i = 0; i < 3; i++)
            rgb[i] = v[i] < 0.0 ? 0.0 : v[i] > 1.0 ? 1.0 : v[i];
        return;
    case REF_SPC_SMPTE2085:
        /* H.273 (SMPTE ST 2085): Cb = D'z = (0.986566 B' - Y')/2, Cr = D'x = (R' - 0.991902 Y')/2 */
        rgb[1] = y;
        rgb[2] = (2.0 * cb + y) / 0.986566;
        rgb[0] = 2.0 * cr + 0.991902 * y;
        return;
    case REF_SPC_YCGCO: {
        /* Cb carries Cg, Cr carries Co */
        double t = y - cb;
        rgb[1] = y + cb;
        rgb[2] = t - cr;
        rgb[0] = t + cr;
        return;
    }
    case REF_SPC_BT2020_CL:
    case REF_SPC_CHROMA_DERIVED_CL: {
        double bp = y + (cb <= 0 ? 2.0 * s->nb : 2.0 * s->pb) * cb;
        double rp = y + (cr <= 0 ? 2.0 * s->nr : 2.0 * s->pr) * cr;
        double Y = ref_cl_tf_inv(trc, y);
        double R = ref_cl_tf_inv(trc, rp);
        double B = ref_cl_tf_inv(trc, bp);
        double G = (Y - kr * R - kb * B) / kg;
        rgb[0] = rp;
        rgb[1] = ref_cl_tf(trc, G);
        rgb[2] = bp;
        return;
    }
    default: { /* non-constant luminance */
        double r = y + 2.0 * (1.0 - kr) * cr;
        double b = y + 2.0 * (1.0 - kb) * cb;
        rgb[0] = r;
        rgb[1] = (y - kr * r - kb * b) / kg;
        rgb[2] = b;
        return;
    }
    }
}

/* Section 2 encode (section 6): (R', G', B') -> (Y', Cb, Cr), all matrices but ictcp. */
static void matrix_encode(const Side *s, const double rgb[3], double v[3])
{
    double r = rgb[0], g = rgb[1], b = rgb[2];
    double kr = s->kr, kb = s->kb, kg = 1.0 - kr - kb;
    int trc = s->d->trc;

    switch (s->d->matrix) {
    case REF_SPC_RGB:
    case REF_SPC_YCGCO_RE: /* lifted from N-bit codes in section 6 (norm_to_codes()) */
    case REF_SPC_YCGCO_RO:
        memcpy(v, rgb, 3 * sizeof(double));
        return;
    case REF_SPC_SMPTE2085:
        v[0] = g;
        v[1] = (0.986566 * b - g) / 2.0;
        v[2] = (r - 0.991902 * g) / 2.0;
        return;
    case REF_SPC_YCGCO:
        v[0] = r / 4 + g / 2 + b / 4;
        v[1] = -r / 4 + g / 2 - b / 4;
        v[2] = r / 2 - b / 2;
        return;
    case REF_SPC_BT2020_CL:
    case REF_SPC_CHROMA_DERIVED_CL: {
        double R = ref_cl_tf_inv(trc, r);
        double G = ref_cl_tf_inv(trc, g);
        double B = ref_cl_tf_inv(trc, b);
        double yp = ref_cl_tf(trc, kr * R + kg * G + kb * B);
        double db = b - yp, dr = r - yp;
        v[0] = yp;
        v[1] = db <= 0 ? db / (2.0 * s->nb) : db / (2.0 * s->pb);
        v[2] = dr <= 0 ? dr / (2.0 * s->nr) : dr / (2.0 * s->pr);
        return;
    }
    default: { /* non-constant luminance */
        double y = kr * r + kg * g + kb * b;
        v[0] = y;
        v[1] = (b - y) / (2.0 * (1.0 - kb));
        v[2] = (r - y) / (2.0 * (1.0 - kr));
        return;
    }
    }
}

/* ------------------------------------------------------------------------------------------ */
/* Sections 1 and 6: code values                                                               */
/* ------------------------------------------------------------------------------------------ */

static int is_chroma(const RefDesc *d, int i)
{
    return i > 0 && d->matrix != REF_SPC_RGB;
}

static void codes_to_norm(const RefDesc *d, const double in[3], double v[3])
{
    double s = ldexp(1.0, d->depth - 8);
    double max = ldexp(1.0, d->depth) - 1.0;
    if (is_ycgcor(d->matrix)) {
        /* YCgCo-R: the inverse lifting to N-bit full-range R'G'B' codes (integers, checked by
         * ref_convert_trace()), unclipped */
        const double rgb_max = ldexp(1.0, ref_ycgcor_rgb_depth(d->matrix, d->depth)) - 1.0;
        const int ycc[3] = { (int)in[0], (int)in[1], (int)in[2] };
        int rgb[3];
        ref_ycgcor_inverse(d->depth, ycc, rgb);
        for (int i = 0; i < 3; i++)
            v[i] = rgb[i] / rgb_max;
        return;
    }
    for (int i = 0; i < 3; i++) {
        if (d->range == REF_RANGE_TV)
            v[i] = is_chroma(d, i) ? (in[i] - 128.0 * s) / (224.0 * s)
                                   : (in[i] - 16.0 * s) / (219.0 * s);
        else
            v[i] = is_chroma(d, i) ? (in[i] - ldexp(1.0, d->depth - 1)) / max
                                   : in[i] / max;
    }
}

static void norm_to_codes(const RefDesc *d, const double v[3], double out[3])
{
    double s = ldexp(1.0, d->depth - 8);
    double max = ldexp(1.0, d->depth) - 1.0;
    if (is_ycgcor(d->matrix)) {
        /* YCgCo-R: N-bit R'G'B' codes, rounded to nearest and clipped, forward-lifted */
        const double rgb_max = ldexp(1.0, ref_ycgcor_rgb_depth(d->matrix, d->depth)) - 1.0;
        int rgb[3], ycc[3];
        for (int i = 0; i < 3; i++) {
            const double c = floor(v[i] * rgb_max + 0.5);
            rgb[i] = !(c > 0.0) ? 0 : c > rgb_max ? (int)rgb_max : (int)c;
        }
        ref_ycgcor_forward(d->depth, rgb, ycc);
        for (int i = 0; i < 3; i++)
            out[i] = ycc[i];
        return;
    }
    for (int i = 0; i < 3; i++) {
        if (d->range == REF_RANGE_TV)
            out[i] = is_chroma(d, i) ? v[i] * 224.0 * s + 128.0 * s
                                     : v[i] * 219.0 * s + 16.0 * s;
        else
            out[i] = is_chroma(d, i) ? v[i] * max + ldexp(1.0, d->depth - 1)
                                     : v[i] * max;
    }
}

/* ------------------------------------------------------------------------------------------ */
/* Whole conversion                                                                            */
/* ------------------------------------------------------------------------------------------ */

static int in_range(double x, double lo, double hi)
{
    const double tol = 1e-9;
    return x >= lo - tol && x <= hi + tol;
}

int ref_convert_trace(const RefDesc *in, const RefDesc *out, const RefOptions *opt,
                      const double in_codes[3], double out_codes[3], int *in_gamut,
                      RefTrace *trace)
{
    static const RefOptions defaults = { REF_LIN_DISPLAY, REF_WP_BRADFORD };
    RefTrace t;
    Side si, so;
    double gamut[3][3], ls, lt, hi;
    int hdr_in, hdr_out, tm;

    if (!opt)
        opt = &defaults;
    if (opt->linearize != REF_LIN_DISPLAY && opt->linearize != REF_LIN_SCENE)
        return -1;
    if (side_init(&si, in, opt->linearize) < 0 || side_init(&so, out, opt->linearize) < 0)
        return -1;
    /* YCgCo-R lifting is defined on integer codes */
    if (is_ycgcor(in->matrix))
        for (int i = 0; i < 3; i++)
            if (in_codes[i] != floor(in_codes[i]) || fabs(in_codes[i]) > 1 << 20)
                return -1;
    if (ref_gamut_matrix(in->prim, out->prim, opt->wpadapt, gamut) < 0)
        return -1;
    hdr_in  = in->trc == REF_TRC_SMPTE2084 || in->trc == REF_TRC_ARIB_STD_B67;
    hdr_out = out->trc == REF_TRC_SMPTE2084 || out->trc == REF_TRC_ARIB_STD_B67;
    ls = opt->src_peak > 0.0 ? opt->src_peak : 1000.0;
    lt = opt->dst_peak > 0.0 ? opt->dst_peak : 203.0; /* BT.2408 reference white both ways */
    tm = opt->tonemap != REF_TM_AUTO ? opt->tonemap : hdr_in && !hdr_out ? REF_TM_BT2390 :
         REF_TM_NONE;
    /* HLG: input displayed at the source peak; HLG output on the same display as an HLG
     * input, else on the 1000 cd/m2 reference display */
    si.lw = in->trc == REF_TRC_ARIB_STD_B67 ? ls : HLG_LW;
    so.lw = in->trc == REF_TRC_ARIB_STD_B67 ? si.lw : HLG_LW;

    memset(&t, 0, sizeof(t));

    /* section 1 */
    codes_to_norm(in, in_codes, t.in_norm);

    /* sections 2 and 3 */
    if (is_lms(in->matrix)) {
        double inv[3][3], rgb_from_lms[3][3], lms[3], e[3];
        mat_invert(inv, ictcp_matrix(in->matrix, in->trc));
        mat_invert(rgb_from_lms, lms_matrix(in->matrix));
        mat_vec(t.in_nl, inv, t.in_norm);                 /* L'M'S' */
        for (int i = 0; i < 3; i++)
            lms[i] = ref_linearize(in->trc, opt->linearize, t.in_nl[i]);
        mat_vec(e, rgb_from_lms, lms);
        /* The R'G'B' this pixel would have in the same transfer and mode (section 7): the
         * per-component encoding of the RGB before the HLG OOTF. (Encoding the display light
         * through the inverse OOTF instead would hide negative scene light, because the
         * OOTF maps everything with Ys <= 0 to black.) Odd-extended here, so that negative
         * light shows as a negative R'G'B' though PQ and HLG encode it as black. */
        for (int i = 0; i < 3; i++)
            t.in_rgb_nl[i] = copysign(ref_delinearize(in->trc, opt->linearize, fabs(e[i])), e[i]);
        if (in->trc == REF_TRC_ARIB_STD_B67 && opt->linearize == REF_LIN_DISPLAY)
            ref_hlg_ootf_lw(si.okr, si.okb, si.lw, e, t.in_lin);
        else
            memcpy(t.in_lin, e, sizeof(e));
    } else {
        matrix_decode(&si, t.in_norm, t.in_nl);
        /* YCgCo-R: the lifted R'G'B' before its clip (codes no forward lifting makes are
         * out of gamut) */
        memcpy(t.in_rgb_nl, is_ycgcor(in->matrix) ? t.in_norm : t.in_nl, sizeof(t.in_nl));
        nl_to_linear(&si, t.in_nl, t.in_lin);
    }

    /* section 5 */
    mat_vec(t.out_lin, gamut, t.in_lin);

    /* section 4: tone mapping (in the output primaries), then gamut mapping */
    if (hdr_in && !hdr_out) {
        if (tm == REF_TM_NONE)
            for (int i = 0; i < 3; i++)
                t.out_lin[i] *= REF_WHITE_CDM2 / lt;
        else
            tonemap_rgb(tm, ls, lt, lt, opt->desat, so.okr, so.okb, t.out_lin);
    } else if (!hdr_in && hdr_out) {
        for (int i = 0; i < 3; i++)
            t.out_lin[i] *= lt / REF_WHITE_CDM2;
    } else if (hdr_in && hdr_out && tm != REF_TM_NONE) {
        tonemap_rgb(tm, ls, lt, REF_WHITE_CDM2, opt->desat, so.okr, so.okb, t.out_lin);
    }
    hi = out->trc == REF_TRC_SMPTE2084 ? PQ_PEAK_CDM2 / REF_WHITE_CDM2 :
         out->trc == REF_TRC_ARIB_STD_B67 ? so.lw / REF_WHITE_CDM2 : 1.0;
    gamut_map(opt->gamut, gamut, so.okr, so.okb, hi, t.out_lin);

    /* section 6: encode */
    if (is_lms(out->matrix)) {
        double e[3], lms[3];
        if (out->trc == REF_TRC_ARIB_STD_B67 && opt->linearize == REF_LIN_DISPLAY)
            ref_hlg_inverse_ootf_lw(so.okr, so.okb, so.lw, t.out_lin, e);
        else
            memcpy(e, t.out_lin, sizeof(e));
        mat_vec(lms, lms_matrix(out->matrix), e);
        for (int i = 0; i < 3; i++)
            t.out_nl[i] = ref_delinearize(out->trc, opt->linearize, lms[i]);
        mat_vec(t.out_norm, ictcp_matrix(out->matrix, out->trc), t.out_nl);
    } else {
        linear_to_nl(&so, t.out_lin, t.out_nl);
        matrix_encode(&so, t.out_nl, t.out_norm);
    }
    norm_to_codes(out, t.out_norm, out_codes);

    /* section 7 */
    if (in_gamut) {
        int ok = 1;
        for (int i = 0; i < 3; i++) {
            ok &= in_range(t.in_rgb_nl[i], 0.0, 1.0);
            ok &= in_range(t.out_lin[i], 0.0, INFINITY);
            ok &= in_range(t.out_nl[i], 0.0, 1.0);
        }
        *in_gamut = ok;
    }
    if (trace)
        *trace = t;
    return 0;
}

int ref_convert(const RefDesc *in, const RefDesc *out, const RefOptions *opt,
                const double in_codes[3], double out_codes[3], int *in_gamut)
{
    return ref_convert_trace(in, out, opt, in_codes, out_codes, in_gamut, NULL);
}

/* ---- section 8: chroma resampling ---- */

void ref_chroma_siting(int loc, double *sx, double *sy)
{
    *sx = (loc == 2 || loc == 4 || loc == 6) ? 0.5 : 0.0;
    *sy = (loc == 3 || loc == 4) ? 0.0 : (loc == 5 || loc == 6) ? 1.0 : 0.5;
}

static int clampi(int v, int lo, int hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

double ref_chroma_upsample(const double *plane, int cw, int ch, int loc, int x, int y)
{
    double sx, sy, u, v, fu, fv, top, bot;
    int u0, v0, ua, ub, va, vb;

    ref_chroma_siting(loc, &sx, &sy);
    u  = (x - sx) / 2.0;
    v  = (y - sy) / 2.0;
    u0 = (int)floor(u);
    v0 = (int)floor(v);
    fu = u - u0;
    fv = v - v0;
    ua = clampi(u0, 0, cw - 1);
    ub = clampi(u0 + 1, 0, cw - 1);
    va = clampi(v0, 0, ch - 1);
    vb = clampi(v0 + 1, 0, ch - 1);
    top = (1 - fu) * plane[va * cw + ua] + fu * plane[va * cw + ub];
    bot = (1 - fu) * plane[vb * cw + ua] + fu * plane[vb * cw + ub];
    return (1 - fv) * top + fv * bot;
}
