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

/**
 * @file
 * Tone mapping in float64 (doc/conversion-model.md section 4): the tone curves, the
 * gain and desaturation of a TONEMAP op, and which curve a conversion runs between
 * which peaks (ff_cspfix_tone()).
 */

#include <math.h>
#include <string.h>

#include "libavutil/common.h"

#include "cspfix_hdrmeta.h"
#include "cspfix_plan.h"
#include "cspfix_tf.h"
#include "cspfix_tonemap.h"

static double pq_enc_nits(double nits)
{
    return ff_cspfix_curve_encode(CSPFIX_CURVE_PQ, nits / CSPFIX_REF_WHITE);
}

static double pq_dec_nits(double e)
{
    return ff_cspfix_curve_decode(CSPFIX_CURVE_PQ, e) * CSPFIX_REF_WHITE;
}

static double hable(double x)
{
    /* J. Hable's filmic curve: A shoulder, B linear, C angle, D toe, E, F toe ratios */
    const double a = 0.15, b = 0.50, c = 0.10, d = 0.20, e = 0.02, f = 0.30;
    return (x * (a * x + c * b) + d * e) / (x * (a * x + b) + d * f) - e / f;
}

/* SMPTE ST 2094-40 Annex B: the knee's line, then the Bernstein polynomial (de Casteljau) */
static double st2094_40(const CspfixBezier *bz, double x)
{
    double q[16], t;

    if (x >= 1.0)
        return 1.0;
    if (x <= bz->kx)
        return bz->kx > 0.0 ? x * bz->ky / bz->kx : bz->ky;
    t = (x - bz->kx) / (1.0 - bz->kx);
    memcpy(q, bz->p, (bz->n + 1) * sizeof(*q));
    for (int r = bz->n; r > 0; r--)
        for (int k = 0; k < r; k++)
            q[k] += t * (q[k + 1] - q[k]);
    return bz->ky + (1.0 - bz->ky) * q[0];
}

/* One tone curve: l cd/m2 (>= 0) -> cd/m2, source peak ls, target peak lt. */
#define TM_FLOOR 1e-6

static double light_gain(const CspfixToneCurve *tc, double m);
static double light_desat(const CspfixToneCurve *tc, double m);

/* A tone curve's constants (cspfix_tonemap.h), computed once per table */
void ff_cspfix_tone_curve_init(CspfixToneCurve *tc, const CspfixOp *op)
{
    memset(tc, 0, sizeof(*tc));
    tc->op = op;
    tc->tm = op->tm;
    tc->ls = op->src_peak;
    tc->lt = op->dst_peak;
    if (tc->tm == CSPFIX_TM_BT2390 || tc->tm == CSPFIX_TM_SPLINE) {
        tc->pb      = pq_enc_nits(0.0);
        tc->span    = pq_enc_nits(tc->ls) - tc->pb;
        tc->max_lum = (pq_enc_nits(tc->lt) - tc->pb) / tc->span;
        tc->ks      = FFMAX(1.5 * tc->max_lum - 0.5, 0.0);
    }
    if (tc->tm == CSPFIX_TM_BT2390 && op->dst_black > 0.0) {
        /* BT.2390 step 4: b = minLum, the target black in the normalised PQ domain (at
         * most 1: a black above the source peak lifts everything to it). E2 + b (1 - E2)^4
         * has the slope 1 - 4b (1 - E2)^3, negative near black when b > 1/4 (a target
         * black of about 2 cd/m2 for a 1000 cd/m2 source): there the exponent is 1/b
         * (slope 1 - (1 - E2)^(1/b - 1) >= 0), so the curve stays non-decreasing. */
        tc->lift_b = FFMIN(FFMAX((pq_enc_nits(op->dst_black) - tc->pb) / tc->span, 0.0), 1.0);
        tc->lift_k = tc->lift_b > 0.25 ? 1.0 / tc->lift_b : 4.0;
    }
    if (tc->tm == CSPFIX_TM_SPLINE && tc->max_lum < 1.0) {
        /* the knee: BT.2390's KS; or, when the scene's average (normalised PQ) is above
         * it, the average, at most halfway from KS to the source peak (exposure: a bright
         * scene keeps its mid-tones' contrast). Its output kd is then on the chord from
         * (KS, KS) to (1, maxLum), the light below it scaled by kd / knee in the PQ
         * domain, and the highlights above it keep the chord's average slope. */
        const double ks0 = tc->ks;
        tc->kd    = ks0;
        tc->slope = 1.0;
        if (op->src_avg > 0.0) {
            const double a  = (pq_enc_nits(op->src_avg) - tc->pb) / tc->span;
            const double ks = FFMIN(a, ks0 + 0.5 * (1.0 - ks0));
            if (ks > ks0) {
                tc->ks    = ks;
                tc->kd    = ks0 + (ks - ks0) * (tc->max_lum - ks0) / (1.0 - ks0);
                tc->slope = tc->kd / ks;
            }
        }
        tc->spline_a = (tc->max_lum - tc->kd) / (1.0 - tc->ks);
        tc->spline_b = tc->spline_a / tc->slope;
    }
    if (tc->tm == CSPFIX_TM_BT2446A) {
        /* Report ITU-R BT.2446-1 Method A: rho = 1 + 32 (L / 10000)^(1/2.4) of the HDR
         * peak (the source) and of the SDR peak (here the target, SDR or not) */
        tc->rho_hdr = 1.0 + 32.0 * pow(tc->ls / CSPFIX_PQ_PEAK, 1.0 / 2.4);
        tc->rho_sdr = 1.0 + 32.0 * pow(tc->lt / CSPFIX_PQ_PEAK, 1.0 / 2.4);
        tc->ln_hdr  = log1p(tc->rho_hdr - 1.0);
        tc->ln_sdr  = log1p(tc->rho_sdr - 1.0);
    }
    if (op->trim.target > 0.0)
        tc->trim_pq = pq_enc_nits(op->trim.target);
    tc->gain0  = light_gain(tc, TM_FLOOR);
    tc->desat0 = light_desat(tc, TM_FLOOR);
}

static double base_curve(const CspfixToneCurve *tc, double l)
{
    const double ls = tc->ls, lt = tc->lt, x = l / lt, p = ls / lt;

    switch (tc->tm) {
    case CSPFIX_TM_BT2390: {
        /* BT.2390 EETF in the PQ domain, source black 0, target black 0 unless
         * target_black is set (step 4, the black level lift) */
        const double pb = tc->pb, span = tc->span, max_lum = tc->max_lum, ks = tc->ks;
        double e1, e2;
        if (ls <= lt) {
            if (tc->lift_b <= 0.0)
                return FFMIN(l, lt);
            /* no compression, the black lift only (light above the source peak as is) */
            e2 = FFMAX((pq_enc_nits(l) - pb) / span, 0.0);
        } else {
            e1 = FFMIN(FFMAX((pq_enc_nits(l) - pb) / span, 0.0), 1.0);
            if (e1 < ks) {
                e2 = e1;
            } else {
                const double t = (e1 - ks) / (1.0 - ks), t2 = t * t, t3 = t2 * t;
                e2 = (2.0 * t3 - 3.0 * t2 + 1.0) * ks + (t3 - 2.0 * t2 + t) * (1.0 - ks) +
                     (-2.0 * t3 + 3.0 * t2) * max_lum;
            }
        }
        /* E3 = E2 + b (1 - E2)^4 (b = 0: nothing, bit for bit) */
        if (tc->lift_b > 0.0 && e2 < 1.0)
            e2 += tc->lift_b * pow(1.0 - e2, tc->lift_k);
        return FFMIN(pq_dec_nits(e2 * span + pb), lt);
    }
    case CSPFIX_TM_SPLINE: {
        /* Below the knee KS the line E2 = s E1 (s = 1 unless the scene's average moved
         * the knee: ff_cspfix_tone_curve_init()), then a C1 quadratic spline in the
         * normalised PQ domain: over T = (E1 - KS)/(1 - KS) the slope falls linearly from
         * s (at T = 0) to a (at T = b = a / s) and to 0 (at T = 1), a = (maxLum - kd) /
         * (1 - KS) being the average slope, so that it reaches maxLum at T = 1 (s = 1:
         * a = b, 1/3 unless KS = 0) */
        const double ks = tc->ks, a = tc->spline_a, b = tc->spline_b, s = tc->slope;
        const double d = 1.0 - ks;
        double e1, e2, t;
        if (ls <= lt)
            return FFMIN(l, lt);
        e1 = FFMAX((pq_enc_nits(l) - tc->pb) / tc->span, 0.0);
        if (e1 >= 1.0)
            return lt;
        if (e1 <= ks) {
            e2 = e1 * s;
        } else {
            t = (e1 - ks) / d;
            if (t <= b)
                e2 = tc->kd + d * (s * t - (s - a) / (2.0 * b) * t * t);
            else
                e2 = tc->max_lum - d * a / (2.0 * (1.0 - b)) * (1.0 - t) * (1.0 - t);
        }
        return FFMIN(pq_dec_nits(e2 * tc->span + tc->pb), lt);
    }
    case CSPFIX_TM_BT2446A: {
        /*
         * Report ITU-R BT.2446-1, Method A (HDR to SDR), the luminance steps (its chroma
         * correction does not apply to a scaling of max-RGB or IPT):
         *   Y' = (l / L_HDR)^(1/2.4), L_HDR the source peak;
         *   step 1: Y'p = log(1 + (rho_HDR - 1) Y') / log(rho_HDR);
         *   step 2: Y'c = 1.0770 Y'p                             0 <= Y'p <= 0.7399
         *                 -1.1510 Y'p^2 + 2.7811 Y'p - 0.6302    0.7399 < Y'p < 0.9909
         *                 0.5 Y'p + 0.5                          0.9909 <= Y'p <= 1
         *           (the pieces meet within 6e-4, each joint a step up: non-decreasing);
         *   step 3: Y'SDR = (rho_SDR^Y'c - 1) / (rho_SDR - 1), L_SDR the target peak;
         *   light: L_SDR Y'SDR^2.4.
         * log1p/expm1 keep the shadows accurate, and Y' = 1 gives exactly 1 throughout.
         */
        double y, yp, yc;
        if (ls <= lt)
            return FFMIN(l, lt);
        y  = pow(FFMIN(l / ls, 1.0), 1.0 / 2.4);
        yp = log1p((tc->rho_hdr - 1.0) * y) / tc->ln_hdr;
        if (yp <= 0.7399)
            yc = 1.0770 * yp;
        else if (yp < 0.9909)
            yc = (-1.1510 * yp + 2.7811) * yp - 0.6302;
        else
            yc = 0.5 * yp + 0.5;
        return lt * FFMIN(pow(expm1(yc * tc->ln_sdr) / expm1(tc->ln_sdr), 2.4), 1.0);
    }
    case CSPFIX_TM_REINHARD:
        if (p <= 1.0)
            return FFMIN(l, lt);
        /* extended Reinhard: x (1 + x / p^2) / (1 + x), 1 at the source peak */
        return lt * FFMIN(x * (1.0 + x / (p * p)) / (1.0 + x), 1.0);
    case CSPFIX_TM_HABLE:
        return lt * FFMIN(hable(x) / hable(FFMAX(p, 1.0)), 1.0);
    case CSPFIX_TM_MOBIUS: {
        /* linear up to j, then a Mobius transform reaching 1 at the source peak with slope 1 at j */
        const double j = 0.3;
        double a, b;
        if (p <= 1.0 || x <= j)
            return FFMIN(l, lt);
        a = -j * j * (p - 1.0) / (j * j - 2.0 * j + p);
        b = (j * j - 2.0 * j * p + p) / (p - 1.0);
        return lt * FFMIN((b * b + 2.0 * b * j + j * j) / (b - a) * (x + a) / (x + b), 1.0);
    }
    case CSPFIX_TM_ST2094_40:
        /* the curve maps the scene's light relative to its peak to the display's */
        return lt * st2094_40(&tc->op->bz, l / ls);
    case CSPFIX_TM_CLIP:
    default:
        return FFMIN(l, lt);
    }
}

/* The curve, then the Dolby Vision L2 trim (CspfixTrim) made for its target display: the
 * output relative to the target's peak lt is that display's light r T, its PQ value relative
 * to the peak's y = PQ(r T) / PQ(T); y' = min(max(S y + O, 0), 1)^P. A negative O crushes
 * the blacks: below y1 = -2 O / S the line is the toe S^2 y^2 / (-4 O), which meets it at
 * y1 with its slope (a corner where the line reaches 0 is more than the tables' cubics can
 * follow). S > 0 and P > 0: the trimmed curve is non-decreasing and at most lt. */
static double tone_curve(const CspfixToneCurve *tc, double l)
{
    const CspfixTrim *tr = &tc->op->trim;
    const double out = base_curve(tc, l), s = tr->slope, o = tr->offset;
    double y, v;

    if (!(tr->target > 0.0))
        return out;
    y = pq_enc_nits(out / tc->lt * tr->target) / tc->trim_pq;
    v = o < 0.0 && y < -2.0 * o / s ? s * s * y * y / (-4.0 * o) : s * y + o;
    y = pow(FFMIN(FFMAX(v, 0.0), 1.0), tr->power);
    return FFMIN(pq_dec_nits(y * tc->trim_pq) / tr->target, 1.0) * tc->lt;
}

/* G and D of the light m > 0 (1.0 = 203 cd/m2) */
static double light_gain(const CspfixToneCurve *tc, double m)
{
    return tone_curve(tc, m * CSPFIX_REF_WHITE) / (tc->op->out_white * m);
}

static double light_desat(const CspfixToneCurve *tc, double m)
{
    const double l = m * CSPFIX_REF_WHITE, r = tone_curve(tc, l) / l;
    return tc->op->desat * FFMIN(FFMAX(1.0 - r, 0.0), 1.0);
}

/* G and D of m, their value at TM_FLOOR at and below fl (and for NaN): the curve's own
 * (fl = TM_FLOOR), or continued down to 0 (fl = 0, for the tables). by_first (IPT's
 * intensity i): the gain of the grey of that intensity (light i^(1/0.43)), to the 0.43 */
static double gain_above(const CspfixToneCurve *tc, double m, double fl)
{
    if (tc->op->by_first) {
        const double y = m > 0.0 ? pow(m, 1.0 / CSPFIX_IPT_EXP) : 0.0;
        return pow(!(y > fl) ? tc->gain0 : light_gain(tc, y), CSPFIX_IPT_EXP);
    }
    return !(m > fl) ? tc->gain0 : light_gain(tc, m);
}

static double desat_above(const CspfixToneCurve *tc, double m, double fl)
{
    return !(m > fl) ? tc->desat0 : light_desat(tc, m);
}

double ff_cspfix_tone_curve_gain(void *opaque, double m)
{
    return gain_above(opaque, m, TM_FLOOR);
}

double ff_cspfix_tone_curve_desat(void *opaque, double m)
{
    return desat_above(opaque, m, TM_FLOOR);
}

double ff_cspfix_tone_curve_corner(const CspfixToneCurve *tc)
{
    const double top = ldexp(1.0, CSPFIX_TF_EMAX);
    const double lmax = gain_above(tc, top, TM_FLOOR) * top;
    double lo = TM_FLOOR, hi = top;

    if (gain_above(tc, lo, TM_FLOOR) * lo >= lmax * (1.0 - 1e-12))
        return 0.0;
    while (hi - lo > 1e-15 * hi) {
        const double mid = 0.5 * (lo + hi);
        if (gain_above(tc, mid, TM_FLOOR) * mid >= lmax * (1.0 - 1e-12))
            hi = mid;
        else
            lo = mid;
    }
    return hi < top ? hi : 0.0;
}

/* A tone table's function: G or D of x / in_scale (x the kernels' variable), without
 * the floor (the kernels clamp x to in_floor, the floor times in_scale, so the table
 * holds the curve continued smoothly below it, and no corner) */
typedef struct ToneTableFunc {
    CspfixToneCurve tc;
    double inv;
} ToneTableFunc;

static double table_gain(void *opaque, double x)
{
    const ToneTableFunc *f = opaque;
    return gain_above(&f->tc, x * f->inv, 0.0);
}

static double table_desat(void *opaque, double x)
{
    const ToneTableFunc *f = opaque;
    return desat_above(&f->tc, x * f->inv, 0.0);
}

/* Is f, on the last fitted octave [2^(EMAX-1), 2^EMAX), w - K / x for one K? */
static int inverse_on_last_octave(CspfixScalarFunc f, void *opaque, double w)
{
    const double x0 = ldexp(1.0, CSPFIX_TF_EMAX - 1), k0 = (w - f(opaque, x0)) * x0;

    for (int i = 1; i <= 16; i++) {
        const double x = x0 * (1.0 + i / 16.0);
        if (fabs((w - f(opaque, x)) * x - k0) > 1e-9 * FFMAX(fabs(k0), 1e-30))
            return 0;
    }
    return 1;
}

/*
 * Above the fitted range (x >= 2^CSPFIX_TF_EMAX, light from 52,000 cd/m2, which FATE's
 * synthetic colours between the widest gamuts reach), a table whose function is
 * w - K / x there (the gain beyond the corner: w = 0, G = top / x; the desaturation:
 * D = w (1 - K' / x)) continues exactly: each octave's cubics are the ones an octave
 * below with their distance to w halved. Otherwise the last segment stays repeated.
 */
static void extend_inverse(CspfixTFTable *t, CspfixScalarFunc f, void *opaque, double w)
{
    const int per = 1 << CSPFIX_TF_SEG_BITS, half = CSPFIX_TF_SEGS / 2;
    const float wf = w;

    if (!inverse_on_last_octave(f, opaque, w))
        return;
    for (int i = (127 + CSPFIX_TF_EMAX) * per; i < half; i++) {
        t->c[i][0] = wf + (t->c[i - per][0] - wf) * 0.5f;
        for (int k = 1; k < 4; k++)
            t->c[i][k] = t->c[i - per][k] * 0.5f;
    }
}

void ff_cspfix_tone_tables(CspfixTFTable *gain, CspfixTFTable *desat, const CspfixOp *op)
{
    const int per = 1 << CSPFIX_TF_SEG_BITS;
    /* the floor in the kernels' variable: G and D are constant below it */
    const double fl = op->by_first ? pow(TM_FLOOR, CSPFIX_IPT_EXP) : TM_FLOOR;
    ToneTableFunc f;
    double mk, s = 1.0;

    ff_cspfix_tone_curve_init(&f.tc, op);
    /* the corner down to the boundary of the table's segments (1/64 octave) below it, so
     * that no cubic spans it: s in (64/65, 1]; above 2^8 the table continues the flat
     * light out by extend_inverse() */
    if ((mk = ff_cspfix_tone_curve_corner(&f.tc)) > 0.0) {
        int e;
        const double fr = frexp(mk, &e);        /* mk = fr 2^e, fr in [1/2, 1) */
        s = FFMIN(ldexp(1.0 + floor((2.0 * fr - 1.0) * per) / per, e - 1) / mk, 1.0);
    }
    f.inv = 1.0 / (float)s;
    ff_cspfix_tf_build(gain, table_gain, &f, CSPFIX_TF_POW_TOL);
    extend_inverse(gain, table_gain, &f, 0.0);
    if (desat) {
        ff_cspfix_tf_build(desat, table_desat, &f, CSPFIX_TF_POW_TOL);
        extend_inverse(desat, table_desat, &f, op->desat);
    }
    for (int i = 0; i < FF_ARRAY_ELEMS(gain->in_scale); i++) {
        gain->in_scale[i] = (float)s;
        gain->in_floor[i] = (float)(fl * (float)s);
        if (desat) {
            desat->in_scale[i] = gain->in_scale[i];
            desat->in_floor[i] = gain->in_floor[i];
        }
    }
}

double ff_cspfix_tonemap_gain(const CspfixOp *op, double m)
{
    CspfixToneCurve tc;
    ff_cspfix_tone_curve_init(&tc, op);
    return ff_cspfix_tone_curve_gain(&tc, m);
}

double ff_cspfix_tonemap_desat(const CspfixOp *op, double m)
{
    CspfixToneCurve tc;
    ff_cspfix_tone_curve_init(&tc, op);
    return ff_cspfix_tone_curve_desat(&tc, m);
}

static int bezier_matches(const CspfixBezier *bz, double lt)
{
    return bz->n && fabs(bz->target - lt) <= 0.02 * lt;
}

/* Dolby Vision's SDR grade is made on a 100 cd/m2 display: an SDR output is that display */
#define DV_SDR_DISPLAY 100.0

/* the L2 trim made for a display of this peak (within 2 %), if it changes anything */
static CspfixTrim pick_trim(const CspfixPlanOptions *opt, double display)
{
    static const CspfixTrim none = { 0 };
    for (int i = 0; i < opt->nb_trims; i++) {
        const CspfixTrim *tr = &opt->trims[i];
        if (fabs(tr->target - display) <= 0.02 * display)
            return tr->slope == 1.0 && tr->offset == 0.0 && tr->power == 1.0 ? none : *tr;
    }
    return none;
}

void ff_cspfix_tone(const CspfixDesc *in, const CspfixDesc *out, const CspfixPlanOptions *opt,
                    CspfixTone *t)
{
    const int hdr_in = ff_cspfix_is_hdr_trc(in->trc), hdr_out = ff_cspfix_is_hdr_trc(out->trc);
    double cap;

    memset(t, 0, sizeof(*t));
    t->src_peak = opt->src_peak > 0.0 ? opt->src_peak : CSPFIX_SRC_PEAK_DEFAULT;
    t->src_avg  = opt->src_avg;
    t->dst_peak = opt->dst_peak > 0.0 ? opt->dst_peak :
                  hdr_out ? CSPFIX_HDR_TARGET_DEFAULT : CSPFIX_SDR_PEAK_DEFAULT;
    /* HLG display peaks: the nominal display in (1000 unless set), the same display out
     * (HLG -> HLG cancels); the tone curve's source is at most that display's peak */
    t->lw_in  = in->trc == AVCOL_TRC_ARIB_STD_B67 && opt->hlg_lw > 0.0 ? opt->hlg_lw : CSPFIX_HLG_LW;
    t->lw_out = in->trc == AVCOL_TRC_ARIB_STD_B67 ? t->lw_in : CSPFIX_HLG_LW;
    if (in->trc == AVCOL_TRC_ARIB_STD_B67)
        t->src_peak = FFMIN(t->src_peak, t->lw_in);
    /* auto: BT.2390 for HDR -> SDR, but not into float samples, which keep the
     * highlights above SDR white */
    t->tm = opt->tonemap == CSPFIX_TM_AUTO ?
            (hdr_in && !hdr_out && out->depth ? CSPFIX_TM_BT2390 : CSPFIX_TM_NONE) : opt->tonemap;
    /* st2094-40 needs the frame's curve: bt2390 without one; auto runs it when the curve
     * was made for this display (target within 2 %) */
    if (t->tm == CSPFIX_TM_ST2094_40 && !opt->bezier.n) {
        t->tm = CSPFIX_TM_BT2390;
        t->bezier_missing = 1;
    }
    if (opt->tonemap == CSPFIX_TM_AUTO && t->tm == CSPFIX_TM_BT2390 &&
        bezier_matches(&opt->bezier, t->dst_peak))
        t->tm = CSPFIX_TM_ST2094_40;
    if (opt->fast)                  /* no linear light: no curve */
        t->tm = CSPFIX_TM_NONE;
    if (hdr_in && !hdr_out && t->tm != CSPFIX_TM_NONE)
        t->trim = pick_trim(opt, DV_SDR_DISPLAY);
    if (!hdr_in || !hdr_out || opt->fast)
        return;
    /* HDR -> HDR: the output holds light up to target_peak when set, else HLG's display
     * peak or PQ's 10000 cd/m2; a brighter source is tone mapped to it (auto), or clips
     * there (tonemap=none). An explicit curve compresses to target_peak (203 unset). */
    cap = opt->dst_peak > 0.0 ? opt->dst_peak :
          out->trc == AVCOL_TRC_ARIB_STD_B67 ? t->lw_out : CSPFIX_PQ_PEAK;
    if (opt->tonemap == CSPFIX_TM_AUTO && t->src_peak > cap) {
        t->tm       = bezier_matches(&opt->bezier, cap) ? CSPFIX_TM_ST2094_40 : CSPFIX_TM_BT2390;
        t->dst_peak = cap;
    } else if (t->tm == CSPFIX_TM_NONE && t->src_peak > cap) {
        t->clip_peak = cap;
    }
    if (t->tm != CSPFIX_TM_NONE)
        t->trim = pick_trim(opt, t->dst_peak);
}

static const char *const tonemap_names[CSPFIX_TM_NB] = {
    [CSPFIX_TM_AUTO] = "auto", [CSPFIX_TM_NONE] = "none", [CSPFIX_TM_CLIP] = "clip",
    [CSPFIX_TM_BT2390] = "bt2390", [CSPFIX_TM_REINHARD] = "reinhard",
    [CSPFIX_TM_HABLE] = "hable", [CSPFIX_TM_MOBIUS] = "mobius",
    [CSPFIX_TM_ST2094_40] = "st2094-40", [CSPFIX_TM_BT2446A] = "bt2446a",
    [CSPFIX_TM_SPLINE] = "spline",
};

const char *ff_cspfix_tonemap_name(int tm)
{
    return tm >= 0 && tm < CSPFIX_TM_NB ? tonemap_names[tm] : "?";
}
