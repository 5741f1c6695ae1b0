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

#ifndef AVFILTER_CSPFIX_TF_H
#define AVFILTER_CSPFIX_TF_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "libavutil/mem_internal.h"
#include "libavutil/pixfmt.h"

/*
 * A transfer table approximates one scalar function f on all floats by cubic
 * polynomials, indexed directly by the bits of the float: the sign, the 8 exponent
 * bits and the top CSPFIX_TF_SEG_BITS mantissa bits select one of CSPFIX_TF_SEGS
 * segments (each octave [2^e, 2^(e+1)) of each sign cut into 2^CSPFIX_TF_SEG_BITS
 * equal parts), and the remaining mantissa bits give the local variable t in
 * [0, 1). Segments are fitted for |x| in [2^TF_EMIN, 2^TF_EMAX); below, f(0) is
 * used; above (and for infinities and NaNs) the last fitted segment of the sign
 * is repeated. Evaluation is integer/bit work plus 3 fused multiply-adds (Horner)
 * in a fixed order: the C (fmaf) and SIMD (FMA3) versions give identical results.
 */
#define CSPFIX_TF_SEG_BITS  6
#define CSPFIX_TF_EMIN    (-48)
#define CSPFIX_TF_EMAX      8
#define CSPFIX_TF_SHIFT   (23 - CSPFIX_TF_SEG_BITS)
#define CSPFIX_TF_SEGS    (1 << (32 - CSPFIX_TF_SHIFT))

/*
 * The power form. A curve that is an odd power of its input, f(x) = sign(x) k |x|^g
 * (BT.1886, gamma 2.2 and 2.8, and compositions of them), is also evaluated without
 * any memory lookup: |x| = m 2^e with m in [1, 2), f(x) = sign(x) s[e] P(m - 1),
 * where P is one polynomial of degree deg (CSPFIX_TF_POW_DEG_MIN .. CSPFIX_TF_POW_DEG:
 * the lowest within the precision the table is built for; fitted to f on [1, 2)) and
 * s[e] = 2^(g e) one of 32 octave scales indexed by the low 5 bits of the biased
 * exponent, few enough for a vector ISA to hold them in registers. The octaves
 * 2^CSPFIX_TF_POW_EMIN .. 2 are biased exponents 97..127, so slot 0 is the slot of
 * zero and the denormals, where s is 0. Inputs with |x| in [2^EMIN, 2) or 0 take
 * the power form, others the segments. A curve that is a power below a point t1 and
 * affine from there (sRGB decode then BT.1886 encode, and the reverse) has the form
 * too: from t1 on, f(x) = sign(x) fma(|x|, s1, c1); the tf kernel (ff_cspfix_tf_eval_row())
 * uses it, the other kernels that evaluate tables use the segments only.
 */
#define CSPFIX_TF_POW_DEG   7
#define CSPFIX_TF_POW_DEG_MIN 5
/** The power form's tolerance for 12-bit and deeper outputs and float: degree 7. */
#define CSPFIX_TF_POW_TOL  3e-7
#define CSPFIX_TF_POW_EMIN (-30)

typedef struct CspfixTFPower {
    int32_t  on;                       ///< f is a power: the fields below apply
    uint32_t lo;                       ///< bits of 2^CSPFIX_TF_POW_EMIN
    uint32_t span;                     ///< bits of 2.0 minus lo
    uint32_t t1;                       ///< bits of |x| from which f is affine (0x7f800000: never)
    float    p[12];                    ///< P(u) = sum p[k] u^k (k <= DEG), u = m - 1
    float    s[32];                    ///< scale of each exponent slot
    float    s1, c1;                   ///< f(x) = sign(x) fma(|x|, s1, c1) for |x| >= t1
    int32_t  deg;                      ///< degree of P
} CspfixTFPower;

typedef struct CspfixTFTable {
    float c[CSPFIX_TF_SEGS][4];  ///< c0 + c1 t + c2 t^2 + c3 t^3 per segment
    CspfixTFPower pow;           ///< the power form (pow.on == 0: none)
    /**
     * The tonemap kernels' input scale and floor, in every lane: they look the table up
     * at max(x * in_scale, in_floor) (a tone curve's table is built for that variable, so
     * that its corner falls on a segment boundary, and the floor below which the curve is
     * constant is not in the table: ff_cspfix_tone_tables()); 1 and -FLT_MAX in the
     * other tables.
     */
    DECLARE_ALIGNED(64, float, in_scale)[16];
    DECLARE_ALIGNED(64, float, in_floor)[16];
} CspfixTFTable;

/** Kinds of curve, with the curves that are the same function merged. */
enum CspfixCurve {
    CSPFIX_CURVE_NONE = 0,     ///< identity (linear light)
    CSPFIX_CURVE_BT1886,       ///< E'^2.4 (display form of the BT.709 family)
    CSPFIX_CURVE_BT1886_1361,  ///< E'^2.4 with the BT.1361 negative branch
    CSPFIX_CURVE_BT709,        ///< BT.709/601/2020 OETF family (scene form)
    CSPFIX_CURVE_BT1361,       ///< BT.709 with the BT.1361 negative branch
    CSPFIX_CURVE_SMPTE240M,
    CSPFIX_CURVE_GAMMA22,
    CSPFIX_CURVE_GAMMA28,
    CSPFIX_CURVE_SRGB,
    CSPFIX_CURVE_LOG100,
    CSPFIX_CURVE_LOG316,
    CSPFIX_CURVE_SMPTE428,
    CSPFIX_CURVE_PQ,
    CSPFIX_CURVE_HLG,          ///< per-component part of HLG (scene light)
    CSPFIX_CURVE_VLOG,
    CSPFIX_CURVE_IPT,          ///< IPT's nonlinearity (Ebner-Fairchild): L' = L^0.43, odd
    CSPFIX_CURVE_OPRGB,        ///< opRGB (IEC 61966-2-5): E'^(563/256)
    CSPFIX_CURVE_DCIP3,        ///< DCI-P3 reference projector (SMPTE RP 431-2): E'^2.6
    CSPFIX_CURVE_NB,
};

enum CspfixLinearize {
    CSPFIX_LIN_DISPLAY = 0,
    CSPFIX_LIN_SCENE   = 1,
};

/** The exponent of IPT's LMS nonlinearity. */
#define CSPFIX_IPT_EXP 0.43

/** Reference white in cd/m2: relative linear light 1.0 (BT.2408). */
#define CSPFIX_REF_WHITE 203.0
/** HLG nominal display peak in cd/m2 and system gamma. */
#define CSPFIX_HLG_LW    1000.0
#define CSPFIX_HLG_GAMMA 1.2

/** Curve of a transfer characteristic in a linearisation mode; <0 if unsupported. */
int ff_cspfix_curve(int trc, int linearize);

/** Signal to relative linear light, and back (float64). */
double ff_cspfix_curve_decode(enum CspfixCurve c, double e);
double ff_cspfix_curve_encode(enum CspfixCurve c, double l);

typedef double (*CspfixScalarFunc)(void *opaque, double x);

/** A curve, or two in a row (curve2 CSPFIX_CURVE_NONE: one), for ff_cspfix_curve_func(). */
typedef struct CspfixCurvePair {
    int curve, encode, curve2, encode2;
} CspfixCurvePair;

/** The CspfixScalarFunc of a CspfixCurvePair (opaque). */
double ff_cspfix_curve_func(void *opaque, double x);

/**
 * Fill a table approximating f (Chebyshev-node cubic per segment), and its power form
 * if f is a power, of the lowest degree whose measured relative error is within tol
 * (ff_cspfix_tf_tol(); tol <= CSPFIX_TF_POW_TOL: degree 7, kept if within
 * CSPFIX_TF_POW_TOL). Returns the largest error of the
 * segments against f at their midpoints, relative to max(|f(x)|, 1).
 */
double ff_cspfix_tf_build(CspfixTFTable *t, CspfixScalarFunc f, void *opaque, double tol);

/**
 * The relative error a curve may have on its way to samples of depth bits (0: float):
 * 2^-(depth + 10), about a thousandth of a code at the top of the range; from 12 bits
 * on, and for float, CSPFIX_TF_POW_TOL (degree 7).
 */
double ff_cspfix_tf_tol(int depth);

static inline float ff_cspfix_tf_eval(const CspfixTFTable *t, float x)
{
    union { float f; uint32_t u; } v = { .f = x };
    const float *c = t->c[v.u >> CSPFIX_TF_SHIFT];
    const float tt = (float)(int)(v.u & ((1u << CSPFIX_TF_SHIFT) - 1)) *
                     (1.0f / (1 << CSPFIX_TF_SHIFT));

    return fmaf(fmaf(fmaf(c[3], tt, c[2]), tt, c[1]), tt, c[0]);
}

/** Does the power form apply to x (|x| in its window, or 0)? */
static inline int ff_cspfix_tf_pow_takes(const CspfixTFPower *pw, float x)
{
    union { float f; uint32_t u; } v = { .f = x };
    const uint32_t a = v.u & 0x7fffffffu;

    return pw->on && (a - pw->lo < pw->span || !a);
}

/** The power form of x, for x it takes (ff_cspfix_tf_pow_takes()). */
static inline float ff_cspfix_tf_pow_eval(const CspfixTFPower *pw, float x)
{
    union { float f; uint32_t u; } v = { .f = x }, m, y;
    const uint32_t a = v.u & 0x7fffffffu;
    float u, h;

    if (a >= pw->t1) {
        m.u = a;
        y.f = fmaf(m.f, pw->s1, pw->c1);
        y.u ^= v.u & 0x80000000u;
        return y.f;
    }
    m.u = (a & 0x007fffffu) | 0x3f800000u;
    u   = m.f - 1.0f;
    /* one Horner chain: the fewest multiplies (the kernels run several chains at once) */
    h   = pw->p[pw->deg];
    for (int i = pw->deg - 1; i >= 0; i--)
        h = fmaf(h, u, pw->p[i]);
    y.f = h * pw->s[(a >> 23) & 31];
    y.u ^= v.u & 0x80000000u;
    return y.f;
}

/** One sample as the tf kernel evaluates it: the power form where it applies. */
static inline float ff_cspfix_tf_eval_row(const CspfixTFTable *t, float x)
{
    return ff_cspfix_tf_pow_takes(&t->pow, x) ? ff_cspfix_tf_pow_eval(&t->pow, x)
                                              : ff_cspfix_tf_eval(t, x);
}

#endif /* AVFILTER_CSPFIX_TF_H */
