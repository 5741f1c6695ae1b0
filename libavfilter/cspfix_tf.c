/*
 * cspfix: transfer functions and their piecewise-cubic float tables
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

#include <float.h>
#include <math.h>
#include <stdio.h>

#include "libavutil/csp.h"
#include "libavutil/macros.h"

#include "cspfix_colorimetry.h"
#include "cspfix_custom.h"
#include "cspfix_tf.h"

int ff_cspfix_curve(int trc, int linearize)
{
    const int display = linearize == CSPFIX_LIN_DISPLAY;

    switch (trc) {
    case AVCOL_TRC_LINEAR:       return CSPFIX_CURVE_NONE;
    case AVCOL_TRC_BT709:
    case AVCOL_TRC_SMPTE170M:
    case AVCOL_TRC_BT2020_10:
    case AVCOL_TRC_BT2020_12:
    case AVCOL_TRC_IEC61966_2_4: return display ? CSPFIX_CURVE_BT1886 : CSPFIX_CURVE_BT709;
    case AVCOL_TRC_BT1361_ECG:   return display ? CSPFIX_CURVE_BT1886_1361 : CSPFIX_CURVE_BT1361;
    case AVCOL_TRC_SMPTE240M:    return display ? CSPFIX_CURVE_BT1886 : CSPFIX_CURVE_SMPTE240M;
    case AVCOL_TRC_GAMMA22:      return CSPFIX_CURVE_GAMMA22;
    case AVCOL_TRC_GAMMA28:      return CSPFIX_CURVE_GAMMA28;
    case AVCOL_TRC_IEC61966_2_1: return CSPFIX_CURVE_SRGB;
    case AVCOL_TRC_LOG:          return CSPFIX_CURVE_LOG100;
    case AVCOL_TRC_LOG_SQRT:     return CSPFIX_CURVE_LOG316;
    case AVCOL_TRC_SMPTE428:     return CSPFIX_CURVE_SMPTE428;
    case AVCOL_TRC_SMPTE2084:    return CSPFIX_CURVE_PQ;
    case AVCOL_TRC_ARIB_STD_B67: return CSPFIX_CURVE_HLG;
    case AVCOL_TRC_V_LOG:        return CSPFIX_CURVE_VLOG;
    case CSPFIX_TRC_OPRGB:       return CSPFIX_CURVE_OPRGB;
    case CSPFIX_TRC_DCIP3:       return CSPFIX_CURVE_DCIP3;
    default:
        /* a LUT profile's table: to linear light */
        if (ff_cspfix_custom_lut3d_of_trc(trc))
            return CSPFIX_CURVE_NONE;
        return ff_cspfix_custom_curve_of_trc(trc) ?
               trc - CSPFIX_TRC_CUSTOM + CSPFIX_CURVE_CUSTOM : -1;
    }
}

/*
 * Non-negative branch of each curve, signal -> relative light. libavutil's
 * scalar curves (av_csp_trc_func_*) are the H.273 OETFs and their inverses.
 */
static double decode_pos(enum CspfixCurve c, double e)
{
    switch (c) {
    case CSPFIX_CURVE_BT1886:
    case CSPFIX_CURVE_BT1886_1361:
        return pow(e, 2.4);
    case CSPFIX_CURVE_BT709:
    case CSPFIX_CURVE_BT1361:
        return av_csp_trc_func_inv_from_id(AVCOL_TRC_BT709)(e);
    case CSPFIX_CURVE_SMPTE240M:
        return av_csp_trc_func_inv_from_id(AVCOL_TRC_SMPTE240M)(e);
    case CSPFIX_CURVE_GAMMA22:
        return av_csp_trc_func_inv_from_id(AVCOL_TRC_GAMMA22)(e);
    case CSPFIX_CURVE_GAMMA28:
        return av_csp_trc_func_inv_from_id(AVCOL_TRC_GAMMA28)(e);
    case CSPFIX_CURVE_SRGB:
        return av_csp_trc_func_inv_from_id(AVCOL_TRC_IEC61966_2_1)(e);
    case CSPFIX_CURVE_LOG100:
        return e <= 0.0 ? 0.0 : av_csp_trc_func_inv_from_id(AVCOL_TRC_LOG)(e);
    case CSPFIX_CURVE_LOG316:
        return e <= 0.0 ? 0.0 : av_csp_trc_func_inv_from_id(AVCOL_TRC_LOG_SQRT)(e);
    case CSPFIX_CURVE_SMPTE428:
        return av_csp_trc_func_inv_from_id(AVCOL_TRC_SMPTE428)(e);
    case CSPFIX_CURVE_PQ:
        return av_csp_trc_func_inv_from_id(AVCOL_TRC_SMPTE2084)(FFMIN(e, 1.0)) /
               CSPFIX_REF_WHITE;
    case CSPFIX_CURVE_HLG:
        return av_csp_trc_func_inv_from_id(AVCOL_TRC_ARIB_STD_B67)(e);
    case CSPFIX_CURVE_VLOG:
        return av_csp_trc_func_inv_from_id(AVCOL_TRC_V_LOG)(e);
    case CSPFIX_CURVE_IPT:
        return pow(e, 1.0 / CSPFIX_IPT_EXP);
    case CSPFIX_CURVE_OPRGB:
        return pow(e, CSPFIX_OPRGB_GAMMA);
    case CSPFIX_CURVE_DCIP3:
        return pow(e, CSPFIX_DCIP3_GAMMA);
    default:
        return ff_cspfix_custom_curve(c) ? ff_cspfix_custom_decode(ff_cspfix_custom_curve(c), e) : e;
    }
}

static double encode_pos(enum CspfixCurve c, double l)
{
    switch (c) {
    case CSPFIX_CURVE_BT1886:
    case CSPFIX_CURVE_BT1886_1361:
        return pow(l, 1.0 / 2.4);
    case CSPFIX_CURVE_BT709:
    case CSPFIX_CURVE_BT1361:
        return av_csp_trc_func_from_id(AVCOL_TRC_BT709)(l);
    case CSPFIX_CURVE_SMPTE240M:
        return av_csp_trc_func_from_id(AVCOL_TRC_SMPTE240M)(l);
    case CSPFIX_CURVE_GAMMA22:
        return av_csp_trc_func_from_id(AVCOL_TRC_GAMMA22)(l);
    case CSPFIX_CURVE_GAMMA28:
        return av_csp_trc_func_from_id(AVCOL_TRC_GAMMA28)(l);
    case CSPFIX_CURVE_SRGB:
        return av_csp_trc_func_from_id(AVCOL_TRC_IEC61966_2_1)(l);
    case CSPFIX_CURVE_LOG100:
        return av_csp_trc_func_from_id(AVCOL_TRC_LOG)(l);
    case CSPFIX_CURVE_LOG316:
        return av_csp_trc_func_from_id(AVCOL_TRC_LOG_SQRT)(l);
    case CSPFIX_CURVE_SMPTE428:
        return av_csp_trc_func_from_id(AVCOL_TRC_SMPTE428)(l);
    case CSPFIX_CURVE_PQ:
        return av_csp_trc_func_from_id(AVCOL_TRC_SMPTE2084)(l * CSPFIX_REF_WHITE);
    case CSPFIX_CURVE_HLG:
        return av_csp_trc_func_from_id(AVCOL_TRC_ARIB_STD_B67)(l);
    case CSPFIX_CURVE_VLOG:
        return av_csp_trc_func_from_id(AVCOL_TRC_V_LOG)(l);
    case CSPFIX_CURVE_IPT:
        return pow(l, CSPFIX_IPT_EXP);
    case CSPFIX_CURVE_OPRGB:
        return pow(l, 1.0 / CSPFIX_OPRGB_GAMMA);
    case CSPFIX_CURVE_DCIP3:
        return pow(l, 1.0 / CSPFIX_DCIP3_GAMMA);
    default:
        return ff_cspfix_custom_curve(c) ? ff_cspfix_custom_encode(ff_cspfix_custom_curve(c), l) : l;
    }
}

/* Curves whose negative branch is not the odd extension. */
static int has_own_negative(enum CspfixCurve c)
{
    return c == CSPFIX_CURVE_BT1886_1361 || c == CSPFIX_CURVE_BT1361 ||
           c == CSPFIX_CURVE_LOG100 || c == CSPFIX_CURVE_LOG316 ||
           c == CSPFIX_CURVE_VLOG;
}

double ff_cspfix_curve_decode(enum CspfixCurve c, double e)
{
    if (e >= 0.0 || !has_own_negative(c))
        return e < 0.0 ? -decode_pos(c, -e) : decode_pos(c, e);
    switch (c) {
    case CSPFIX_CURVE_BT1886_1361:
    case CSPFIX_CURVE_BT1361:
        return -decode_pos(c, -4.0 * e) / 4.0;
    case CSPFIX_CURVE_VLOG:
        return decode_pos(c, e);
    default: /* log curves: no light below their floor */
        return 0.0;
    }
}

double ff_cspfix_curve_encode(enum CspfixCurve c, double l)
{
    /* PQ and HLG are defined for non-negative light only (SMPTE ST 2084, BT.2100):
     * negative light (out of the output gamut) encodes as black */
    if (l < 0.0 && (c == CSPFIX_CURVE_PQ || c == CSPFIX_CURVE_HLG))
        return encode_pos(c, 0.0);
    if (l >= 0.0 || !has_own_negative(c))
        return l < 0.0 ? -encode_pos(c, -l) : encode_pos(c, l);
    switch (c) {
    case CSPFIX_CURVE_BT1886_1361:
    case CSPFIX_CURVE_BT1361:
        return -encode_pos(c, -4.0 * l) / 4.0;
    case CSPFIX_CURVE_VLOG:
        return encode_pos(c, l);
    default:
        return 0.0;
    }
}

double ff_cspfix_curve_func(void *opaque, double x)
{
    const CspfixCurvePair *p = opaque;
    x = p->encode ? ff_cspfix_curve_encode(p->curve, x) : ff_cspfix_curve_decode(p->curve, x);
    if (p->curve2 != CSPFIX_CURVE_NONE)
        x = p->encode2 ? ff_cspfix_curve_encode(p->curve2, x) : ff_cspfix_curve_decode(p->curve2, x);
    return x;
}

/* Cubic through f at the 4 Chebyshev nodes of [a, b), in powers of t in [0, 1). */
static void fit_cubic(float c[4], CspfixScalarFunc f, void *opaque, double a, double b)
{
    double tn[4], dd[4], p[4] = { 0 };

    /* Newton form, then expanded */
    for (int k = 0; k < 4; k++) {
        tn[k] = 0.5 + 0.5 * cos(M_PI * (2 * k + 1) / 8);
        dd[k] = f(opaque, a + (b - a) * tn[k]);
    }
    for (int j = 1; j < 4; j++)
        for (int k = 3; k >= j; k--)
            dd[k] = (dd[k] - dd[k - 1]) / (tn[k] - tn[k - j]);
    p[0] = dd[3];
    for (int k = 2; k >= 0; k--) {
        double q[4] = { 0 };
        for (int d = 0; d < 3; d++) {
            q[d + 1] += p[d];
            q[d]     -= p[d] * tn[k];
        }
        q[0] += dd[k];
        memcpy(p, q, sizeof(p));
    }
    for (int k = 0; k < 4; k++)
        c[k] = (float)p[k];
}

/* The function the power form's P is fitted to: f itself (a power on [1, 2)), or,
 * where f is affine from t1 < 2 on, the power k x^g it is below t1. */
typedef struct PowerFit {
    CspfixScalarFunc f;
    void *opaque;
    double t1, k, g;
} PowerFit;

static double power_fit_func(const PowerFit *pf, double x)
{
    return x < pf->t1 ? pf->f(pf->opaque, x) : pf->k * pow(x, pf->g);
}

/* p[0..n]: the polynomial in u of degree n through F(1 + u) / k at the n + 1
 * Chebyshev nodes of [0, 1] (Newton form, then expanded; float64). */
static void fit_power_poly(double *p, int n, const PowerFit *pf)
{
    double un[CSPFIX_TF_POW_DEG + 1], dd[CSPFIX_TF_POW_DEG + 1];

    for (int i = 0; i <= n; i++) {
        un[i] = 0.5 + 0.5 * cos(M_PI * (2 * i + 1) / (2 * (n + 1)));
        dd[i] = power_fit_func(pf, 1.0 + un[i]) / pf->k;
    }
    for (int j = 1; j <= n; j++)
        for (int i = n; i >= j; i--)
            dd[i] = (dd[i] - dd[i - 1]) / (un[i] - un[i - j]);
    memset(p, 0, (n + 1) * sizeof(*p));
    p[0] = dd[n];
    for (int i = n - 1; i >= 0; i--) {
        /* p = p * (u - un[i]) + dd[i] */
        for (int d = n; d > 0; d--)
            p[d] = p[d - 1] - p[d] * un[i];
        p[0] = dd[i] - p[0] * un[i];
    }
}

static int close_to(double a, double b)
{
    return fabs(a - b) <= 1e-12 * FFMAX(fabs(a), 1e-300);
}

/* f(x) = s1 x + c1 on [x, 2)? (probed at x and at points up to 2) */
static int affine_from(CspfixScalarFunc f, void *opaque, double x, double s1, double c1)
{
    for (int i = 0; i < 8; i++) {
        const double xi = x + (2.0 - x) * i / 8.0;
        if (!close_to(f(opaque, xi), s1 * xi + c1))
            return 0;
    }
    return 1;
}

/*
 * The power form (cspfix_tf.h), if f is an odd power: f(0) = 0, f(-x) = -f(x) and
 * f(x) = k x^g at points over the whole range, to 1e-12; or such a power below a
 * point t1 and affine from t1 on (found by bisection). Kept only if its measured
 * error over every octave stays under 3e-7 relative.
 */
static void build_power(CspfixTFTable *t, CspfixScalarFunc f, void *opaque, double tol)
{
    static const double probe[] = { 0x1.4p-30, 0x1.bp-21, 0x1.1p-9, 0.37, 0.81, 1.0, 1.49, 1.99 };
    CspfixTFPower *pw = &t->pow;
    PowerFit pf = { f, opaque, INFINITY, f(opaque, 1.0), 0.0 };
    double p[CSPFIX_TF_POW_DEG + 1], max_err = 0.0, s1, c1, x0 = 1.0;
    CspfixTFPower cand[CSPFIX_TF_POW_DEG - CSPFIX_TF_POW_DEG_MIN + 1];
    double err[CSPFIX_TF_POW_DEG - CSPFIX_TF_POW_DEG_MIN + 1];
    int first;
    union { float f; uint32_t u; } lo = { .f = ldexpf(1.0f, CSPFIX_TF_POW_EMIN) }, hi = { .f = 2.0f },
                                   t1 = { .f = INFINITY };

    memset(pw, 0, sizeof(*pw));
    if (f(opaque, 0.0) != 0.0)
        return;
    /* affine on [1, 2): a power with g = 1 (no offset), or affine from some t1 < 1 */
    s1 = (f(opaque, 1.5) - f(opaque, 1.0)) / 0.5;
    c1 = f(opaque, 1.0) - s1;
    if (c1 != 0.0 && affine_from(f, opaque, 1.0, s1, c1)) {
        double a = ldexp(1.0, CSPFIX_TF_POW_EMIN), b = 1.0;
        if (affine_from(f, opaque, a, s1, c1))
            return;
        for (int i = 0; i < 80; i++) {
            const double m = 0.5 * (a + b);
            if (affine_from(f, opaque, m, s1, c1))
                b = m;
            else
                a = m;
        }
        t1.f = (float)b;
        if (t1.f < b)
            t1.f = nextafterf(t1.f, INFINITY);
        pf.t1 = t1.f;
        x0 = 0.25 * pf.t1;
    } else {
        s1 = c1 = 0.0;
    }
    pf.g = log2(f(opaque, 2.0 * x0) / f(opaque, x0));
    pf.k = f(opaque, x0) / pow(x0, pf.g);
    if (!(pf.k > 0.0) || !isfinite(pf.g) || pf.g <= 0.0 || pf.g > 8.0)
        return;
    for (int i = 0; i < FF_ARRAY_ELEMS(probe); i++) {
        const double x = FFMIN(probe[i], 0.995 * probe[i] * pf.t1 / 2.0), y = f(opaque, x);
        if (!close_to(y, pf.k * pow(x, pf.g)) || !close_to(-f(opaque, -x), y))
            return;
    }
    if (pf.t1 < INFINITY && (!close_to(-f(opaque, -1.5), f(opaque, 1.5)) ||
                             !close_to(-f(opaque, -pf.t1), f(opaque, pf.t1))))
        return;
    for (int e = CSPFIX_TF_POW_EMIN; e < 1; e++)
        pw->s[(e + 127) & 31] = (float)(pf.k * exp2(pf.g * e));
    pw->lo   = lo.u;
    pw->span = hi.u - lo.u;
    pw->t1   = t1.u;
    pw->s1   = (float)s1;
    pw->c1   = (float)c1;
    pw->on   = 1;

    /* the lowest degree within tol (degree 7 for CSPFIX_TF_POW_TOL), measured over every
     * octave at 512 points and the ends; the candidates side by side, f once per point */
    first = tol > CSPFIX_TF_POW_TOL ? CSPFIX_TF_POW_DEG_MIN : CSPFIX_TF_POW_DEG;
    tol = FFMAX(tol, CSPFIX_TF_POW_TOL);
    for (int d = first; d <= CSPFIX_TF_POW_DEG; d++) {
        CspfixTFPower *c = &cand[d - CSPFIX_TF_POW_DEG_MIN];
        *c = *pw;
        c->deg = d;
        fit_power_poly(p, d, &pf);
        memset(c->p, 0, sizeof(c->p));
        for (int i = 0; i <= d; i++)
            c->p[i] = (float)p[i];
        err[d - CSPFIX_TF_POW_DEG_MIN] = 0.0;
    }
    for (int e = CSPFIX_TF_POW_EMIN; e < 1; e++) {
        for (int i = 0; i <= 512; i++) {
            const float x = i == 512 ? nextafterf(ldexpf(1.0f, e + 1), 0.0f)
                                     : ldexpf(1.0f + i / 512.0f + 1.0f / 1024, e);
            const double ref = f(opaque, x);
            for (int d = first; d <= CSPFIX_TF_POW_DEG; d++) {
                const int k = d - CSPFIX_TF_POW_DEG_MIN;
                err[k] = FFMAX(err[k], fabs(ff_cspfix_tf_pow_eval(&cand[k], x) - ref) / fabs(ref));
            }
        }
    }
    for (int d = first; d <= CSPFIX_TF_POW_DEG; d++) {
        *pw     = cand[d - CSPFIX_TF_POW_DEG_MIN];
        max_err = err[d - CSPFIX_TF_POW_DEG_MIN];
        if (max_err <= tol)
            break;
    }
    if (ff_cspfix_tf_eval_row(t, 0.0f) != 0.0f || !(max_err <= tol))
        pw->on = 0;
#ifdef CSPFIX_TF_DEBUG
    fprintf(stderr, "power form: g %.6f k %.6f t1 %g degree %d max rel err %.3g -> %s\n",
            pf.g, pf.k, pf.t1, pw->deg, max_err, pw->on ? "on" : "off");
#endif
}

double ff_cspfix_tf_tol(int depth)
{
    return depth && depth < 12 ? ldexp(1.0, -(depth + 10)) : CSPFIX_TF_POW_TOL;
}

double ff_cspfix_tf_build(CspfixTFTable *t, CspfixScalarFunc f, void *opaque, double tol)
{
    const int per = 1 << CSPFIX_TF_SEG_BITS, half = CSPFIX_TF_SEGS / 2;
    const int first = (127 + CSPFIX_TF_EMIN) * per, end = (127 + CSPFIX_TF_EMAX) * per;
    const float f0 = f(opaque, 0.0);
    double max_err = 0.0;

    for (int neg = 0; neg < 2; neg++) {
        float (*c)[4] = t->c + neg * half;
        const double sgn = neg ? -1.0 : 1.0;

        for (int i = 0; i < first; i++) {
            c[i][0] = f0;
            c[i][1] = c[i][2] = c[i][3] = 0.0f;
        }
        for (int i = first; i < end; i++) {
            const int e = i / per - 127, m = i % per;
            const double a = ldexp(1.0 + (double)m / per, e);
            const double b = ldexp(1.0 + (double)(m + 1) / per, e);
            const double x = (float)(sgn * (a + 0.5 * (b - a)));
            double ref, err;

            fit_cubic(c[i], f, opaque, sgn * a, sgn * b);
            ref = f(opaque, x);
            err = fabs(ff_cspfix_tf_eval(t, (float)x) - ref) / FFMAX(fabs(ref), 1.0);
            if (isfinite(ref) && a < ldexp(1.0, 4) && err > max_err)
                max_err = err;
        }
        for (int i = end; i < half; i++)
            memcpy(c[i], c[end - 1], sizeof(c[i]));
    }
    build_power(t, f, opaque, tol);
    for (int i = 0; i < FF_ARRAY_ELEMS(t->in_scale); i++) {
        t->in_scale[i] = 1.0f;
        t->in_floor[i] = -FLT_MAX;
    }
    return max_err;
}
