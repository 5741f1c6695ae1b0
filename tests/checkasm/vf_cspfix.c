/*
 * checkasm tests of the cspfix DSP functions: every SIMD kernel against its C
 * reference, bit for bit, at several widths and parameter sets.
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

#include <math.h>
#include <string.h>

#include "checkasm.h"
#include "libavfilter/cspfix_custom.h"
#include "libavfilter/cspfix_dsp.h"
#include "libavfilter/cspfix_kparams.h"
#include "libavfilter/cspfix_plan.h"
#include "libavfilter/cspfix_tf.h"
#include "libavfilter/cspfix_tonemap.h"
#include "libavutil/intfloat.h"
#include "libavutil/mem.h"
#include "libavutil/mem_internal.h"

#define MAXW 1024
#define PAD  16
/* The float rows of the stage, fused and chroma checks are 64-byte aligned, as the
 * engine's scratch rows are (ff_cspfix_exec_alloc()): the AVX-512 kernels' timings
 * are then those of whole cache lines. */

/* with tails of every kind for vectors of 4, 8 and 16 floats (31, 61: the AVX-512
 * resampling kernels' last, masked vector of 16 and 15 outputs or chroma samples) */
static const int widths[] = { 1, 7, 8, 15, 16, 17, 31, 33, 61, 64, 100, 1023, MAXW };
#define MAP_ROWS 3   /* rows of the multi-row kernels (map8, map16) */

/* a float in [lo, hi) */
static float rnd_float(float lo, float hi)
{
    return lo + (hi - lo) * (float)(rnd() & 0xffffff) / (float)0x1000000;
}

/* values a transfer curve meets: signals, linear light over many octaves, negatives,
 * and now and then any bit pattern (denormals, infinities, NaNs) */
static float rnd_signal(void)
{
    switch (rnd() & 15) {
    case 0:  return -rnd_float(0.0f, 1.0f);
    case 1:  return ldexpf(rnd_float(1.0f, 2.0f), -(int)(rnd() % 60));
    case 2:  return rnd_float(1.0f, 300.0f);
    case 3:  return (rnd() & 1) ? 0.0f : -0.0f;
    case 4:  return av_int2float(rnd());
    default: return rnd_float(0.0f, 1.1f);
    }
}

static void fill_floats(float *dst, int n, float lo, float hi)
{
    for (int i = 0; i < n; i++)
        dst[i] = rnd_float(lo, hi);
}

static void check_matrix(const CspfixDSPContext *dsp)
{
    LOCAL_ALIGNED_64(float, ref_buf, [3 * (MAXW + PAD)]);
    LOCAL_ALIGNED_64(float, new_buf, [3 * (MAXW + PAD)]);
    float *ref[3], *new[3], m[12];
    declare_func(void, CSPFIX_MATRIX_ARGS);

    for (int c = 0; c < 3; c++) {
        ref[c] = ref_buf + c * (MAXW + PAD);
        new[c] = new_buf + c * (MAXW + PAD);
    }
    for (int i = 0; i < 12; i++)
        m[i] = rnd_float(-300.0f, 300.0f);
    if (check_func(dsp->stage.matrix, "cspfix_matrix")) {
        for (int i = 0; i < FF_ARRAY_ELEMS(widths); i++) {
            const int w = widths[i];
            fill_floats(ref_buf, 3 * (MAXW + PAD), -2.0f, 2.0f);
            memcpy(new_buf, ref_buf, 3 * (MAXW + PAD) * sizeof(float));
            call_ref(ref[0], ref[1], ref[2], w, m);
            call_new(new[0], new[1], new[2], w, m);
            for (int c = 0; c < 3; c++)
                if (memcmp(ref[c], new[c], w * sizeof(float))) {
                    fail();
                    break;
                }
        }
        bench_new(new[0], new[1], new[2], MAXW, m);
    }
    report("matrix");
}

/* widths of the kernels that take whole 16-sample blocks */
static const int widths16[] = { 16, 32, 48, 512, MAXW };

/* a 3x4 matrix of the size of colour conversions on codes up to about max */
static void rnd_matrix(float m[12], float off)
{
    for (int i = 0; i < 12; i++)
        m[i] = i % 4 == 3 ? rnd_float(-off, off) : rnd_float(-1.5f, 1.5f);
}

/* matrix_in / matrix_out: against C, and against the unpack + matrix and matrix + pack
 * they replace */
static void check_matrix_io(const CspfixDSPContext *dsp)
{
    LOCAL_ALIGNED_64(float, ref_buf, [3 * (MAXW + PAD)]);
    LOCAL_ALIGNED_64(float, new_buf, [3 * (MAXW + PAD)]);
    LOCAL_ALIGNED_64(float, alt_buf, [3 * (MAXW + PAD)]);
    LOCAL_ALIGNED_64(uint8_t, src, [2 * (MAXW + PAD)]);
    LOCAL_ALIGNED_64(uint8_t, ref_px, [2 * (MAXW + PAD)]);
    LOCAL_ALIGNED_64(uint8_t, new_px, [2 * (MAXW + PAD)]);
    LOCAL_ALIGNED_64(float, bias, [16]);
    float *ref[3], *new[3], *alt[3], m[12];

    for (int c = 0; c < 3; c++) {
        ref[c] = ref_buf + c * (MAXW + PAD);
        new[c] = new_buf + c * (MAXW + PAD);
        alt[c] = alt_buf + c * (MAXW + PAD);
    }
    for (int b = 0; b < 2; b++) {
        const int bytes = b + 1, max = b ? 1023 : 255;
        declare_func(void, CSPFIX_MATRIX_IN_ARGS);
        rnd_matrix(m, max);
        if (check_func(dsp->fused.matrix_in[b], "cspfix_matrix_in_%d", b ? 16 : 8)) {
            for (int i = 0; i < FF_ARRAY_ELEMS(widths16); i++) {
                const int w = widths16[i];
                for (int x = 0; x < bytes * (MAXW + PAD); x++)
                    src[x] = rnd();
                fill_floats(ref_buf, 3 * (MAXW + PAD), -max, max);
                memcpy(new_buf, ref_buf, 3 * (MAXW + PAD) * sizeof(float));
                memcpy(alt_buf, ref_buf, 3 * (MAXW + PAD) * sizeof(float));
                call_ref(ref[0], ref[1], ref[2], src, w, m);
                call_new(new[0], new[1], new[2], src, w, m);
                dsp->io.unpack[b](alt[0], src, w);
                dsp->stage.matrix(alt[0], alt[1], alt[2], w, m);
                for (int c = 0; c < 3; c++)
                    if (memcmp(ref[c], new[c], w * sizeof(float)) ||
                        memcmp(alt[c], new[c], w * sizeof(float))) {
                        fail();
                        break;
                    }
            }
            bench_new(new[0], new[1], new[2], src, MAXW, m);
        }
    }
    report("matrix_in");

    for (int b = 0; b < 2; b++) {
        const int bytes = b + 1, max = b ? 1023 : 255;
        declare_func_float(void, CSPFIX_MATRIX_OUT_ARGS);
        rnd_matrix(m, max / 4);
        if (check_func(dsp->fused.matrix_out[b], "cspfix_matrix_out_%d", b ? 16 : 8)) {
            for (int i = 0; i < FF_ARRAY_ELEMS(widths16); i++) {
                const int w = widths16[i];
                const float lo = i & 1 ? 16 << (2 * b) : 0, hi = i & 1 ? 235 << (2 * b) : max;
                for (int x = 0; x < 16; x++)
                    bias[x] = i & 2 ? rnd_float(0.0f, 1.0f) : 0.5f;
                fill_floats(ref_buf, 3 * (MAXW + PAD), -max / 4, max * 1.25f);
                memcpy(new_buf, ref_buf, 3 * (MAXW + PAD) * sizeof(float));
                memcpy(alt_buf, ref_buf, 3 * (MAXW + PAD) * sizeof(float));
                memset(ref_px, 0xaa, bytes * (MAXW + PAD));
                memset(new_px, 0xaa, bytes * (MAXW + PAD));
                call_ref(ref_px, ref[0], ref[1], ref[2], w, m, bias, lo, hi);
                call_new(new_px, new[0], new[1], new[2], w, m, bias, lo, hi);
                if (memcmp(ref_px, new_px, bytes * (MAXW + PAD)) ||
                    memcmp(ref[1], new[1], w * sizeof(float)) ||
                    memcmp(ref[2], new[2], w * sizeof(float)) ||
                    memcmp(ref[0], new[0], w * sizeof(float)))   /* c0 only read */
                    fail();
                dsp->stage.matrix(alt[0], alt[1], alt[2], w, m);
                dsp->io.pack[b](ref_px, alt[0], w, bias, lo, hi);
                if (memcmp(ref_px, new_px, bytes * w) ||
                    memcmp(alt[1], new[1], w * sizeof(float)) ||
                    memcmp(alt[2], new[2], w * sizeof(float)))
                    fail();
            }
            bench_new(new_px, new[0], new[1], new[2], MAXW, m, bias, 0.0f, (float)max);
        }
    }
    report("matrix_out");
}

/* yrow / crow: against C, and against the unpack + matrix + pack they replace */
static void check_rows(const CspfixDSPContext *dsp)
{
    LOCAL_ALIGNED_64(float, buf, [3 * (MAXW + PAD)]);
    LOCAL_ALIGNED_64(float, row1, [MAXW + PAD]);
    LOCAL_ALIGNED_64(float, row2, [MAXW + PAD]);
    LOCAL_ALIGNED_64(uint8_t, src1, [2 * (MAXW + PAD)]);
    LOCAL_ALIGNED_64(uint8_t, src2, [2 * (MAXW + PAD)]);
    LOCAL_ALIGNED_64(uint8_t, ref1, [2 * (MAXW + PAD)]);
    LOCAL_ALIGNED_64(uint8_t, ref2, [2 * (MAXW + PAD)]);
    LOCAL_ALIGNED_64(uint8_t, new1, [2 * (MAXW + PAD)]);
    LOCAL_ALIGNED_64(uint8_t, new2, [2 * (MAXW + PAD)]);
    LOCAL_ALIGNED_64(float, bias1, [16]);
    LOCAL_ALIGNED_64(float, bias2, [16]);
    float *c[3], m[12];
    CspfixCRow p;

    for (int i = 0; i < 3; i++)
        c[i] = buf + i * (MAXW + PAD);
    for (int b = 0; b < 2; b++) {
        const int bytes = b + 1, max = b ? 1023 : 255;
        declare_func_float(void, CSPFIX_YROW_ARGS);
        if (!check_func(dsp->fused.yrow[b], "cspfix_yrow_%d", b ? 16 : 8))
            continue;
        for (int i = 0; i < FF_ARRAY_ELEMS(widths16); i++) {
            const int w = widths16[i];
            const float lo = i & 1 ? 16 << (2 * b) : 0, hi = i & 1 ? 235 << (2 * b) : max;
            rnd_matrix(m, max / 4);
            for (int x = 0; x < 16; x++)
                bias1[x] = i & 2 ? rnd_float(0.0f, 1.0f) : 0.5f;
            for (int x = 0; x < bytes * (MAXW + PAD); x++)
                src1[x] = rnd();
            fill_floats(row1, MAXW + PAD, -max / 2, max / 2);
            fill_floats(row2, MAXW + PAD, -max / 2, max / 2);
            memset(ref1, 0xaa, bytes * (MAXW + PAD));
            memset(new1, 0xaa, bytes * (MAXW + PAD));
            call_ref(ref1, src1, row1, row2, w, m, bias1, lo, hi);
            call_new(new1, src1, row1, row2, w, m, bias1, lo, hi);
            if (memcmp(ref1, new1, bytes * (MAXW + PAD)))
                fail();
            dsp->io.unpack[b](c[0], src1, w);
            memcpy(c[1], row1, w * sizeof(float));
            memcpy(c[2], row2, w * sizeof(float));
            dsp->stage.matrix(c[0], c[1], c[2], w, m);
            dsp->io.pack[b](ref1, c[0], w, bias1, lo, hi);
            if (memcmp(ref1, new1, bytes * w))
                fail();
        }
        bench_new(new1, src1, row1, row2, MAXW, m, bias1, 0.0f, (float)max);
    }
    report("yrow");

    for (int b = 0; b < 2; b++) {
        const int bytes = b + 1, max = b ? 1023 : 255;
        declare_func(void, CSPFIX_CROW_ARGS);
        if (!check_func(dsp->fused.crow[b], "cspfix_crow_%d", b ? 16 : 8))
            continue;
        for (int i = 0; i < FF_ARRAY_ELEMS(widths16); i++) {
            const int w = widths16[i];
            const float lo = i & 1 ? 16 << (2 * b) : 0, hi = i & 1 ? 240 << (2 * b) : max;
            rnd_matrix(m, max);
            if (i == 2)
                m[7] = -0.0f;
            ff_cspfix_crow_init(&p, m, lo, hi, 0.0f, max);
            for (int x = 0; x < 16; x++) {
                bias1[x] = i & 2 ? rnd_float(0.0f, 1.0f) : 0.5f;
                bias2[x] = i & 2 ? rnd_float(0.0f, 1.0f) : 0.5f;
            }
            for (int x = 0; x < bytes * (MAXW + PAD); x++) {
                src1[x] = rnd();
                src2[x] = rnd();
            }
            memset(ref1, 0xaa, bytes * (MAXW + PAD));
            memset(new1, 0xaa, bytes * (MAXW + PAD));
            memset(ref2, 0xaa, bytes * (MAXW + PAD));
            memset(new2, 0xaa, bytes * (MAXW + PAD));
            call_ref(ref1, ref2, src1, src2, w, &p, bias1, bias2);
            call_new(new1, new2, src1, src2, w, &p, bias1, bias2);
            if (memcmp(ref1, new1, bytes * (MAXW + PAD)) ||
                memcmp(ref2, new2, bytes * (MAXW + PAD)))
                fail();
            memset(c[0], 0, w * sizeof(float));
            dsp->io.unpack[b](c[1], src1, w);
            dsp->io.unpack[b](c[2], src2, w);
            dsp->stage.matrix(c[0], c[1], c[2], w, m);
            dsp->io.pack[b](ref1, c[1], w, bias1, lo, hi);
            dsp->io.pack[b](ref2, c[2], w, bias2, 0.0f, max);
            if (memcmp(ref1, new1, bytes * w) || memcmp(ref2, new2, bytes * w))
                fail();
        }
        bench_new(new1, new2, src1, src2, MAXW, &p, bias1, bias2);
    }
    report("crow");
}

static void check_affine(const CspfixDSPContext *dsp)
{
    LOCAL_ALIGNED_64(float, ref, [MAXW + PAD]);
    LOCAL_ALIGNED_64(float, new, [MAXW + PAD]);
    declare_func_float(void, CSPFIX_AFFINE_ARGS);

    if (check_func(dsp->stage.affine, "cspfix_affine")) {
        for (int i = 0; i < FF_ARRAY_ELEMS(widths); i++) {
            const int w = widths[i];
            const float s = rnd_float(0.0f, 5.0f), o = rnd_float(-100.0f, 100.0f);
            fill_floats(ref, MAXW + PAD, 0.0f, 65535.0f);
            memcpy(new, ref, (MAXW + PAD) * sizeof(float));
            call_ref(ref, w, s, o);
            call_new(new, w, s, o);
            if (memcmp(ref, new, w * sizeof(float)))
                fail();
        }
        bench_new(new, MAXW, 1.5f, 3.0f);
    }
    report("affine");
}

typedef struct Curve {
    const char *name;
    CspfixCurvePair c;
} Curve;

/* Mostly |x| in [t1, 2), where an affine piece applies (whole vectors take it),
 * both signs; now and then t1 itself, the float below it, 2 or a small value. */
static float tf_above_t1(const CspfixTFPower *pw)
{
    const float t1 = pw->t1 < 0x3f800000u ? av_int2float(pw->t1) : 0.5f;
    const float s  = (rnd() & 1) ? -1.0f : 1.0f;

    switch (rnd() & 255) {
    case 0:  return s * t1;
    case 1:  return s * av_int2float(av_float2int(t1) - 1);
    case 2:  return s * 2.0f;
    case 3:  return s * rnd_float(0.0f, t1);
    default: return s * rnd_float(t1, 1.99f);
    }
}

/* what a picture's rows mostly are: positive, in the top 16 octaves of the power form's
 * window (the AVX2 tf's four-vector step takes a step only if all its samples are), and
 * now and then a sample that is not: at either edge of those octaves, 0, negative, any */
static float tf_picture(void)
{
    switch (rnd() & 255) {
    case 0:  return ldexpf(1.0f, -15);
    case 1:  return nextafterf(ldexpf(1.0f, -15), 0.0f);
    case 2:  return nextafterf(2.0f, 0.0f);
    case 3:  return 2.0f;
    case 4:  return 0.0f;
    case 5:  return -rnd_float(0.0f, 1.0f);
    case 6:  return rnd_signal();
    default: return ldexpf(rnd_float(1.0f, 2.0f), -(int)(rnd() % 16));
    }
}

/* Every curve both ways (the power form where the curve is a power, the segments
 * elsewhere), four compositions (a power; a power below a point and affine above
 * it, both ways; neither), on three signals: rnd_signal() (vectors mixing the
 * power form's window with what lies outside it) and values within the window
 * (|x| < 2, both signs, zeros), where whole vectors take the power form; and values
 * mostly above the affine piece's start t1 (tf_above_t1()), where whole vectors take it. */
static void check_tf(const CspfixDSPContext *dsp)
{
    static const char *const names[CSPFIX_CURVE_NB] = {
        [CSPFIX_CURVE_BT1886] = "bt1886", [CSPFIX_CURVE_BT1886_1361] = "bt1886_1361",
        [CSPFIX_CURVE_BT709] = "bt709",   [CSPFIX_CURVE_BT1361] = "bt1361",
        [CSPFIX_CURVE_SMPTE240M] = "smpte240m", [CSPFIX_CURVE_GAMMA22] = "gamma22",
        [CSPFIX_CURVE_GAMMA28] = "gamma28", [CSPFIX_CURVE_SRGB] = "srgb",
        [CSPFIX_CURVE_LOG100] = "log100", [CSPFIX_CURVE_LOG316] = "log316",
        [CSPFIX_CURVE_SMPTE428] = "smpte428", [CSPFIX_CURVE_PQ] = "pq",
        [CSPFIX_CURVE_HLG] = "hlg", [CSPFIX_CURVE_VLOG] = "vlog",
        [CSPFIX_CURVE_IPT] = "ipt", [CSPFIX_CURVE_OPRGB] = "oprgb",
        [CSPFIX_CURVE_DCIP3] = "dcip3",
    };
    Curve curves[2 * CSPFIX_CURVE_NB + 9];
    char cnames[2 * CSPFIX_CURVE_NB][32];
    LOCAL_ALIGNED_32(float, ref_buf, [3 * (MAXW + PAD)]);
    LOCAL_ALIGNED_32(float, new_buf, [3 * (MAXW + PAD)]);
    CspfixTFTable *tab = av_malloc(sizeof(*tab));
    float *ref[3], *new[3];
    int n = 0;
    declare_func(void, CSPFIX_TF_ARGS);

    if (!tab)
        return;
    for (int c = CSPFIX_CURVE_NONE + 1; c < CSPFIX_CURVE_NB; c++) {
        for (int enc = 0; enc < 2; enc++) {
            snprintf(cnames[n], sizeof(cnames[n]), "%s_%s", names[c], enc ? "encode" : "decode");
            curves[n] = (Curve){ cnames[n], { c, enc, CSPFIX_CURVE_NONE, 0 } };
            n++;
        }
    }
    curves[n++] = (Curve){ "bt1886_to_gamma22", { CSPFIX_CURVE_BT1886, 0, CSPFIX_CURVE_GAMMA22, 1 } };
    curves[n++] = (Curve){ "srgb_to_bt1886", { CSPFIX_CURVE_SRGB, 0, CSPFIX_CURVE_BT1886, 1 } };
    curves[n++] = (Curve){ "bt1886_to_srgb", { CSPFIX_CURVE_BT1886, 0, CSPFIX_CURVE_SRGB, 1 } };
    curves[n++] = (Curve){ "srgb_to_gamma22", { CSPFIX_CURVE_SRGB, 0, CSPFIX_CURVE_GAMMA22, 1 } };
    curves[n++] = (Curve){ "oprgb_to_srgb", { CSPFIX_CURVE_OPRGB, 0, CSPFIX_CURVE_SRGB, 1 } };
    {
        /* curves of ICC profiles (cspfix_custom.h): sampled (L*), and ICC's parametric
         * type 4 (a power with a black offset and a linear toe), both ways */
        static CspfixCustomCurve lstar = { 0 };
        static const CspfixCustomCurve p5 = { 5, { 2.0, 0.9, 0.1, 0.3, 0.05, 0.002, 0.001 } };
        int t1, t2;
        for (int i = 0; i < CSPFIX_CUSTOM_SAMPLES; i++) {
            const double l = 100.0 * i / (CSPFIX_CUSTOM_SAMPLES - 1);
            lstar.s[i] = l > 8.0 ? pow((l + 16.0) / 116.0, 3.0) : l * 27.0 / 24389.0;
        }
        t1 = ff_cspfix_custom_trc(&lstar);
        t2 = ff_cspfix_custom_trc(&p5);
        if (t1 >= 0 && t2 >= 0) {
            const int c1 = t1 - CSPFIX_TRC_CUSTOM + CSPFIX_CURVE_CUSTOM;
            const int c2 = t2 - CSPFIX_TRC_CUSTOM + CSPFIX_CURVE_CUSTOM;
            curves[n++] = (Curve){ "icc_sampled_decode", { c1, 0, CSPFIX_CURVE_NONE, 0 } };
            curves[n++] = (Curve){ "icc_sampled_encode", { c1, 1, CSPFIX_CURVE_NONE, 0 } };
            curves[n++] = (Curve){ "icc_param5_decode", { c2, 0, CSPFIX_CURVE_NONE, 0 } };
            curves[n++] = (Curve){ "icc_param5_to_srgb", { c2, 0, CSPFIX_CURVE_SRGB, 1 } };
        }
    }
    for (int c = 0; c < 3; c++) {
        ref[c] = ref_buf + c * (MAXW + PAD);
        new[c] = new_buf + c * (MAXW + PAD);
    }
    /* each curve built for float, 10-bit and 8-bit output (the power form's degrees) */
    for (int k = 0; k < 3 * n; k++) {
        const int depth = (int[]){ 0, 10, 8 }[k / n];
        ff_cspfix_tf_build(tab, ff_cspfix_curve_func, (void *)&curves[k % n].c,
                           ff_cspfix_tf_tol(depth));
        if (check_func(dsp->stage.tf, "cspfix_tf_%s_%d", curves[k % n].name, depth)) {
            for (int i = 0; i < FF_ARRAY_ELEMS(widths); i++) {
                const int w = widths[i];
                for (int sig = 0; sig < 4; sig++) {
                    for (int x = 0; x < 3 * (MAXW + PAD); x++) {
                        if (!sig)
                            ref_buf[x] = rnd_signal();
                        else if (sig == 1)
                            ref_buf[x] = (rnd() & 31) ? rnd_float(-1.99f, 1.99f) : 0.0f;
                        else if (sig == 2)
                            ref_buf[x] = tf_above_t1(&tab->pow);
                        else
                            ref_buf[x] = tf_picture();
                    }
                    memcpy(new_buf, ref_buf, 3 * (MAXW + PAD) * sizeof(float));
                    call_ref(ref[0], ref[1], ref[2], w, tab);
                    call_new(new[0], new[1], new[2], w, tab);
                    for (int c = 0; c < 3; c++)
                        if (memcmp(ref[c], new[c], w * sizeof(float))) {
                            fail();
                            break;
                        }
                }
            }
        }
    }
    /* Timing: the kernel runs in place, so time it on curves that keep the values where
     * they are (a real curve applied thousands of times drifts into denormals or
     * constants): the identity (the power form; its cost does not depend on the curve),
     * and the affine piece of sRGB decode then BT.1886 encode (B7's curve), which keeps
     * values in [t1, 1): (x + 0.055) / 1.055 */
    {
        static const struct { const char *name; Curve c; int depth; float lo; } timed[] = {
            { "cspfix_tf", { "identity", { CSPFIX_CURVE_NONE } }, 0, 0.0f },
            { "cspfix_tf_affine", { "srgb_to_bt1886",
              { CSPFIX_CURVE_SRGB, 0, CSPFIX_CURVE_BT1886, 1 } }, 8, 0.05f },
        };
        for (int k = 0; k < FF_ARRAY_ELEMS(timed); k++) {
            if (!check_func(dsp->stage.tf, "%s", timed[k].name))
                continue;
            ff_cspfix_tf_build(tab, ff_cspfix_curve_func, (void *)&timed[k].c.c,
                               ff_cspfix_tf_tol(timed[k].depth));
            fill_floats(ref_buf, 3 * (MAXW + PAD), timed[k].lo, 1.0f);
            memcpy(new_buf, ref_buf, 3 * (MAXW + PAD) * sizeof(float));
            call_ref(ref[0], ref[1], ref[2], MAXW, tab);
            call_new(new[0], new[1], new[2], MAXW, tab);
            if (memcmp(ref_buf, new_buf, 3 * (MAXW + PAD) * sizeof(float)))
                fail();
            bench_new(new[0], new[1], new[2], MAXW, tab);
        }
    }
    av_free(tab);
    report("tf");
}

static void check_lut(const CspfixDSPContext *dsp)
{
    static const int sizes[] = { 256, 1024, 4096 };
    LOCAL_ALIGNED_32(float, ref, [MAXW + PAD]);
    LOCAL_ALIGNED_32(float, new, [MAXW + PAD]);
    float *lut = av_malloc((4096 + 16) * sizeof(*lut));
    declare_func(void, CSPFIX_LUT_ARGS);

    if (!lut)
        return;
    for (int k = 0; k < FF_ARRAY_ELEMS(sizes); k++) {
        const int n = sizes[k];
        for (int i = 0; i < n + 16; i++)
            lut[i] = rnd_float(-1.0f, 2.0f);
        if (!check_func(dsp->io.lut, "cspfix_lut_%d", n))
            continue;
        for (int i = 0; i < FF_ARRAY_ELEMS(widths); i++) {
            const int w = widths[i];
            /* codes, and now and then a 16-bit word beyond the table */
            for (int x = 0; x < MAXW + PAD; x++)
                ref[x] = rnd() & 7 ? rnd() % n : rnd() & 0xffff;
            memcpy(new, ref, (MAXW + PAD) * sizeof(float));
            call_ref(ref, w, lut, n);
            call_new(new, w, lut, n);
            if (memcmp(ref, new, w * sizeof(float)))
                fail();
        }
        for (int x = 0; x < MAXW + PAD; x++)
            new[x] = rnd() % n;
        bench_new(new, MAXW, lut, n);
    }
    if (check_func(dsp->io.lut8, "cspfix_lut_8")) {
        declare_func(void, CSPFIX_LUT8_ARGS);
        LOCAL_ALIGNED_32(uint8_t, src, [MAXW + PAD]);
        for (int i = 0; i < 256 + 16; i++)
            lut[i] = rnd_float(-1.0f, 2.0f);
        for (int i = 0; i < FF_ARRAY_ELEMS(widths); i++) {
            const int w = widths[i];
            for (int x = 0; x < MAXW + PAD; x++)
                src[x] = rnd();
            memset(ref, 0, (MAXW + PAD) * sizeof(float));
            memset(new, 0, (MAXW + PAD) * sizeof(float));
            call_ref(ref, src, w, lut);
            call_new(new, src, w, lut);
            if (memcmp(ref, new, w * sizeof(float)))
                fail();
            /* whole vectors may go into the row's padding of 16 floats, not further */
            for (int x = w + 16; x < MAXW + PAD; x++)
                if (new[x] != 0.0f)
                    fail();
        }
        bench_new(new, src, MAXW, lut);
    }
    av_free(lut);
    report("lut");
}

static void check_unpack(const CspfixDSPContext *dsp)
{
    LOCAL_ALIGNED_32(uint8_t, src, [2 * MAXW]);
    LOCAL_ALIGNED_32(float, ref, [MAXW + PAD]);
    LOCAL_ALIGNED_32(float, new, [MAXW + PAD]);
    declare_func(void, CSPFIX_UNPACK_ARGS);

    for (int b = 0; b < 2; b++) {
        if (!check_func(dsp->io.unpack[b], "cspfix_unpack_%d", b ? 16 : 8))
            continue;
        for (int i = 0; i < FF_ARRAY_ELEMS(widths); i++) {
            const int w = widths[i];
            for (int x = 0; x < 2 * MAXW; x++)
                src[x] = rnd();
            for (int x = 0; x < MAXW + PAD; x++)
                ref[x] = new[x] = -1.0f;
            call_ref(ref, src, w);
            call_new(new, src, w);
            /* nothing may be written past w: the row may be a frame's */
            if (memcmp(ref, new, (MAXW + PAD) * sizeof(float)))
                fail();
        }
        bench_new(new, src, MAXW);
    }
    report("unpack");
}

static void check_pack(const CspfixDSPContext *dsp)
{
    LOCAL_ALIGNED_32(float, src, [MAXW + PAD]);
    LOCAL_ALIGNED_32(uint8_t, ref, [2 * MAXW + 64]);
    LOCAL_ALIGNED_32(uint8_t, new, [2 * MAXW + 64]);
    LOCAL_ALIGNED_32(float, bias, [16]);
    declare_func_float(void, CSPFIX_PACK_ARGS);

    for (int b = 0; b < 2; b++) {
        const float max = b ? 65535.0f : 255.0f;
        if (!check_func(dsp->io.pack[b], "cspfix_pack_%d", b ? 16 : 8))
            continue;
        for (int i = 0; i < FF_ARRAY_ELEMS(widths); i++) {
            const int w = widths[i];
            const float lo = (rnd() & 1) ? 0.0f : 16.0f, hi = (rnd() & 1) ? max : 235.0f;
            for (int x = 0; x < 16; x++)
                bias[x] = (rnd() & 1) ? 0.5f : rnd_float(0.0f, 1.0f);
            fill_floats(src, MAXW + PAD, -20.0f, max + 20.0f);
            for (int x = 0; x < w; x += 3) /* exact halves and integers */
                src[x] = (float)(int)src[x] + ((x & 4) ? 0.5f : 0.0f);
            memset(ref, 0xaa, 2 * MAXW + 64);
            memset(new, 0xaa, 2 * MAXW + 64);
            call_ref(ref, src, w, bias, lo, hi);
            call_new(new, src, w, bias, lo, hi);
            if (memcmp(ref, new, 2 * MAXW + 64))
                fail();
        }
        bench_new(new, src, MAXW, bias, 0.0f, max);
    }
    report("pack");
}

/* Guard floats after a row's n samples and PAD floats of padding: a kernel that writes
 * there (beyond what cspfix_dsp.h lets SIMD versions write) fails. */
#define GUARD 32

static void guard_set(float *row, int n)
{
    memset(row + n + PAD, 0xee, (MAXW - n + GUARD) * sizeof(*row));
}

static int guard_hit(const float *row, int n)
{
    const uint8_t *g = (const uint8_t *)(row + n + PAD);
    for (size_t i = 0; i < (MAXW - n + GUARD) * sizeof(*row); i++)
        if (g[i] != 0xee)
            return 1;
    return 0;
}

static void check_chroma(const CspfixDSPContext *dsp)
{
    LOCAL_ALIGNED_64(float, a, [MAXW + PAD]);
    LOCAL_ALIGNED_64(float, b, [MAXW + PAD]);
    LOCAL_ALIGNED_64(float, c, [MAXW + PAD]);
    LOCAL_ALIGNED_64(float, d, [MAXW + PAD]);
    LOCAL_ALIGNED_64(float, src_buf, [MAXW / 2 + PAD + 8]);
    LOCAL_ALIGNED_64(float, ref, [MAXW + PAD]);
    LOCAL_ALIGNED_64(float, new, [MAXW + PAD + GUARD]);
    LOCAL_ALIGNED_64(float, wide, [MAXW + 64]);
    float *src = src_buf + 8;

    fill_floats(a, MAXW + PAD, -10.0f, 1100.0f);
    fill_floats(b, MAXW + PAD, -10.0f, 1100.0f);
    fill_floats(c, MAXW + PAD, -10.0f, 1100.0f);
    fill_floats(d, MAXW + PAD, -10.0f, 1100.0f);
    {
        declare_func_float(void, CSPFIX_BLEND_ARGS);
        if (check_func(dsp->chroma.blend, "cspfix_blend")) {
            for (int i = 0; i < FF_ARRAY_ELEMS(widths); i++) {
                const int w = widths[i];
                const float wa = (rnd() & 3) * 0.25f;
                guard_set(new, w);
                call_ref(ref, a, b, w, wa, 1.0f - wa);
                call_new(new, a, b, w, wa, 1.0f - wa);
                if (memcmp(ref, new, w * sizeof(float)) || guard_hit(new, w))
                    fail();
            }
            bench_new(new, a, b, MAXW, 0.25f, 0.75f);
        }
    }
    {
        declare_func(void, CSPFIX_FILTER3_ARGS);
        if (check_func(dsp->chroma.filter3, "cspfix_filter3")) {
            for (int i = 0; i < FF_ARRAY_ELEMS(widths); i++) {
                guard_set(new, widths[i]);
                call_ref(ref, a, b, c, widths[i]);
                call_new(new, a, b, c, widths[i]);
                if (memcmp(ref, new, widths[i] * sizeof(float)) || guard_hit(new, widths[i]))
                    fail();
            }
            bench_new(new, a, b, c, MAXW);
        }
    }
    {
        declare_func(void, CSPFIX_FILTER4_ARGS);
        if (check_func(dsp->chroma.filter4, "cspfix_filter4")) {
            for (int i = 0; i < FF_ARRAY_ELEMS(widths); i++) {
                guard_set(new, widths[i]);
                call_ref(ref, a, b, c, d, widths[i]);
                call_new(new, a, b, c, d, widths[i]);
                if (memcmp(ref, new, widths[i] * sizeof(float)) || guard_hit(new, widths[i]))
                    fail();
            }
            bench_new(new, a, b, c, d, MAXW);
        }
    }
    {
        declare_func(void, CSPFIX_RESAMPLE_ARGS);
        for (int phase = 0; phase < 2; phase++) {
            if (!check_func(dsp->chroma.upsample_h2, "cspfix_upsample_h2_phase%d", phase))
                continue;
            for (int i = 0; i < FF_ARRAY_ELEMS(widths); i++) {
                const int w = widths[i], cw = (w + 1) / 2;
                fill_floats(src_buf, MAXW / 2 + PAD + 8, 0.0f, 1023.0f);
                src[-1] = src[0];           /* the caller's edge contract */
                src[cw] = src[cw - 1];
                guard_set(new, w);
                call_ref(ref, src, w, phase);
                call_new(new, src, w, phase);
                if (memcmp(ref, new, w * sizeof(float)) || guard_hit(new, w))
                    fail();
            }
            bench_new(new, src, MAXW, phase);
        }
        for (int phase = 0; phase < 2; phase++) {
            if (!check_func(dsp->chroma.downsample_h2, "cspfix_downsample_h2_phase%d", phase))
                continue;
            for (int i = 0; i < FF_ARRAY_ELEMS(widths); i++) {
                const int w = widths[i], cw = (w + 1) / 2;
                float *row = wide + 8;          /* row[-1] .. row[w + 16] exist */
                fill_floats(wide, MAXW + 64, 0.0f, 1023.0f);
                row[-1]    = row[0];            /* the caller's edge contract */
                row[w]     = row[w - 1];
                row[w + 1] = row[w - 1];
                guard_set(new, cw);
                call_ref(ref, row, w, phase);
                call_new(new, row, w, phase);
                if (memcmp(ref, new, cw * sizeof(float)) || guard_hit(new, cw))
                    fail();
            }
            bench_new(new, wide + 8, MAXW, phase);
        }
    }
    report("chroma");
}

/* 8-bit samples every 2 bytes (semi-planar chroma), 3 and 4 (packed RGB), from each
 * component of the pixel: the bytes of the other components are kept. */
static void check_xn(const CspfixDSPContext *dsp)
{
    LOCAL_ALIGNED_32(float, fsrc, [MAXW + PAD]);
    LOCAL_ALIGNED_32(float, fref, [MAXW + PAD]);
    LOCAL_ALIGNED_32(float, fnew, [MAXW + PAD]);
    LOCAL_ALIGNED_32(uint8_t, bytes, [4 * MAXW + 64]);
    LOCAL_ALIGNED_32(uint8_t, ref, [4 * MAXW + 64]);
    LOCAL_ALIGNED_32(uint8_t, new, [4 * MAXW + 64]);
    LOCAL_ALIGNED_32(float, bias, [16]);
    decl_cspfix_unpack_fn(*const unpack[3]) = { dsp->io.unpack_x2_8, dsp->io.unpack_x3_8,
                                                dsp->io.unpack_x4_8 };
    decl_cspfix_pack_fn(*const pack[3]) = { dsp->io.pack_x2_8, dsp->io.pack_x3_8,
                                            dsp->io.pack_x4_8 };
    const int size = 4 * MAXW + 64;

    for (int step = 2; step <= 4; step++) {
        char name[32];
        {
            declare_func(void, CSPFIX_UNPACK_ARGS);
            snprintf(name, sizeof(name), "cspfix_unpack_x%d_8", step);
            if (check_func(unpack[step - 2], "%s", name)) {
                for (int i = 0; i < FF_ARRAY_ELEMS(widths); i++) {
                    for (int off = 0; off < step; off++) {
                        const int w = widths[i];
                        for (int x = 0; x < size; x++)
                            bytes[x] = rnd();
                        call_ref(fref, bytes + off, w);
                        call_new(fnew, bytes + off, w);
                        if (memcmp(fref, fnew, w * sizeof(float)))
                            fail();
                    }
                }
                bench_new(fnew, bytes, MAXW);
            }
        }
        {
            declare_func_float(void, CSPFIX_PACK_ARGS);
            snprintf(name, sizeof(name), "cspfix_pack_x%d_8", step);
            if (check_func(pack[step - 2], "%s", name)) {
                for (int i = 0; i < FF_ARRAY_ELEMS(widths); i++) {
                    for (int off = 0; off < step; off++) {
                        const int w = widths[i];
                        const float lo = (rnd() & 1) ? 0.0f : 16.0f, hi = (rnd() & 1) ? 255.0f : 240.0f;
                        for (int x = 0; x < 16; x++)
                            bias[x] = (rnd() & 1) ? 0.5f : rnd_float(0.0f, 1.0f);
                        fill_floats(fsrc, MAXW + PAD, -20.0f, 275.0f);
                        for (int x = 0; x < size; x++)
                            ref[x] = new[x] = rnd();
                        call_ref(ref + off, fsrc, w, bias, lo, hi);
                        call_new(new + off, fsrc, w, bias, lo, hi);
                        if (memcmp(ref, new, size))
                            fail();
                    }
                }
                bench_new(new, fsrc, MAXW, bias, 0.0f, 255.0f);
            }
        }
    }
    report("packed8");
}

/* 8-bit integer maps: random parameters within the kernel's int16 contract, and the
 * parameters ff_cspfix_map8_init() finds for the range conversions */
static void check_map8(const CspfixDSPContext *dsp)
{
    static const float ranges[][4] = {   /* scale, offset, lo, hi */
        { 255.0f / 219, -16.0f * 255 / 219, 0, 255 }, { 219.0f / 255, 16, 0, 255 },
        { 255.0f / 224, 128 - 128.0f * 255 / 224, 0, 255 }, { 224.0f / 255, 128 - 128.0f * 224 / 255, 0, 255 },
        { 219.0f / 255, 16, 16, 235 },
    };
    /* up to MAP_ROWS rows, with strides that differ between dst and src */
    enum { SS = MAXW + PAD + 48, DS = MAXW + PAD + 16 };
    LOCAL_ALIGNED_32(uint8_t, src, [MAP_ROWS * SS]);
    LOCAL_ALIGNED_32(uint8_t, ref, [MAP_ROWS * DS]);
    LOCAL_ALIGNED_32(uint8_t, new, [MAP_ROWS * DS]);
    CspfixMap8 m;
    declare_func(void, CSPFIX_MAP8_ARGS);

    if (check_func(dsp->io.map8, "cspfix_map_8")) {
        for (int k = 0; k < 40; k++) {
            if (k < FF_ARRAY_ELEMS(ranges)) {
                if (ff_cspfix_map8_init(&m, dsp, ranges[k][0], ranges[k][1], ranges[k][2],
                                        ranges[k][3]) < 0)
                    fail();
            } else {
                const int mul  = rnd() % 65536;
                const int vmax = (255 * mul) >> 8;
                const int lo   = rnd() % 256, hi = lo + rnd() % (256 - lo);
                m = (CspfixMap8){ .mul = mul, .shift = rnd() % 8, .lo = lo, .hi = hi,
                                  .add = -32768 + (int)(rnd() % (65536 - vmax)) };
                ff_cspfix_map8_set_clip(&m);
                if (k & 1) {  /* a map within [lo, hi] */
                    m.lo = 0;
                    m.hi = 255;
                    m.clip = 0;
                }
            }
            for (int i = 0; i < FF_ARRAY_ELEMS(widths); i++) {
                const int w = widths[i], h = 1 + (i + k) % MAP_ROWS;
                for (int x = 0; x < MAP_ROWS * SS; x++)
                    src[x] = rnd();
                memset(ref, 0xaa, MAP_ROWS * DS);
                memset(new, 0xaa, MAP_ROWS * DS);
                call_ref(ref, DS, src, SS, w, h, &m);
                call_new(new, DS, src, SS, w, h, &m);
                /* nothing written past w, between the rows or past h either */
                if (memcmp(ref, new, MAP_ROWS * DS))
                    fail();
            }
        }
        bench_new(new, DS, src, SS, MAXW, 1, &m);
    }
    report("map8");
}

/* the one-pass float map of 16-bit containers: the range conversions of 10-, 12- and
 * 16-bit codes, and random ones; random codes include ones above the depth */
static void check_map16(const CspfixDSPContext *dsp)
{
    /* up to MAP_ROWS rows, strides in samples (the kernel takes bytes) */
    enum { SS = MAXW + PAD + 24, DS = MAXW + PAD + 8 };
    LOCAL_ALIGNED_32(uint16_t, src, [MAP_ROWS * SS]);
    LOCAL_ALIGNED_32(uint16_t, ref, [MAP_ROWS * DS]);
    LOCAL_ALIGNED_32(uint16_t, new, [MAP_ROWS * DS]);
    LOCAL_ALIGNED_32(float, row, [MAXW + PAD]);
    LOCAL_ALIGNED_32(float, bias, [16]);
    CspfixMap16 m;
    declare_func(void, CSPFIX_MAP16_ARGS);

    if (check_func(dsp->io.map16, "cspfix_map_16")) {
        for (int k = 0; k < 40; k++) {
            const int depth = (int[]){ 10, 12, 16 }[k % 3], sh = depth - 8;
            const float max = (1 << depth) - 1;
            if (k < 15) {
                /* tv -> pc and pc -> tv of luma and chroma, pc -> tv clipped */
                const float y = 219 << sh, c = 224 << sh, mid = 128 << sh;
                const float sc[5] = { max / y, y / max, max / c, c / max, y / max };
                const float of[5] = { -(16 << sh) * sc[0], 16 << sh, mid - mid * sc[2],
                                      mid - mid * sc[3], 16 << sh };
                const int j = k / 3;
                m = (CspfixMap16){ .s = sc[j], .o = of[j], .lo = j == 4 ? 16 << sh : 0,
                                   .hi = j == 4 ? 235 << sh : max };
            } else {
                const float lo = rnd_float(0.0f, max);
                m = (CspfixMap16){ .s = rnd_float(0.0f, 2.0f), .o = rnd_float(-max, max),
                                   .lo = floorf(lo), .hi = floorf(rnd_float(lo, max)) };
            }
            for (int i = 0; i < FF_ARRAY_ELEMS(widths); i++) {
                const int w = widths[i], h = 1 + (i + k) % MAP_ROWS;
                for (int x = 0; x < MAP_ROWS * SS; x++)
                    src[x] = i & 1 ? rnd() : rnd() & (int)max;
                memset(ref, 0xaa, sizeof(*ref) * MAP_ROWS * DS);
                memset(new, 0xaa, sizeof(*new) * MAP_ROWS * DS);
                call_ref(ref, 2 * DS, src, 2 * SS, w, h, &m);
                call_new(new, 2 * DS, src, 2 * SS, w, h, &m);
                /* nothing written past w, between the rows or past h either */
                if (memcmp(ref, new, sizeof(*ref) * MAP_ROWS * DS))
                    fail();
                /* and what the three kernels of the float path give */
                for (int x = 0; x < 16; x++)
                    bias[x] = 0.5f;
                for (int y = 0; y < h; y++) {
                    dsp->io.unpack[1](row, (const uint8_t *)(src + y * SS), w);
                    dsp->stage.affine(row, w, m.s, m.o);
                    dsp->io.pack[1]((uint8_t *)(ref + y * DS), row, w, bias, m.lo, m.hi);
                }
                if (memcmp(ref, new, sizeof(*ref) * MAP_ROWS * DS))
                    fail();
            }
        }
        bench_new(new, 2 * DS, src, 2 * SS, MAXW, 1, &m);
    }
    report("map16");
}

/* ---- integer matrix-only kernels ---- */

/* parameters of a random 8-bit Y'CbCr matrix within ff_cspfix_yuvint_init()'s limits,
 * or of a real conversion (smpte170m -> bt709 and back, tv range) */
static void rnd_yuvint_depth(CspfixYuvInt *p, int k, int depth)
{
    static const double real[2][3][4] = {
        { { 1, -0.115550, -0.207938, 41.406386 }, { 0, 1.018640, 0.114618, -17.056983 },
          { 0, 0.075049, 1.025327, -12.848195 } },
        { { 1, 0.099312, 0.191700, -37.249625 }, { 0, 0.989018, -0.110563, 15.533616 },
          { 0, -0.072391, 0.983429, 11.479474 } },
    };
    double m[3][4];
    float lo[3], hi[3];

    do {
        for (int r = 0; r < 3; r++) {
            for (int c = 0; c < 4; c++)
                m[r][c] = k < 2 ? real[k][r][c] : rnd_float(-1.2f, 1.2f) * (c == 3 ? 200 : 1);
            lo[r] = k < 2 ? 16 : rnd() % 128;
            hi[r] = k < 2 ? (r ? 240 : 235) : 128 + rnd() % 128;
            m[r][3] *= 1 << (depth - 8);
            lo[r]   *= 1 << (depth - 8);
            hi[r]   *= 1 << (depth - 8);
        }
        if (k >= 2)
            m[0][0] = rnd_float(0.0f, 1.9f);
        m[1][0] = m[2][0] = 0.0;
    } while (ff_cspfix_yuvint_init(p, m, lo, hi, depth) < 0);
}

static void rnd_yuvint(CspfixYuvInt *p, int k)
{
    rnd_yuvint_depth(p, k, 8);
}

#define NB_YUVINT 8

/* The edges of two delta rows of n entries that ivblend and iluma read ([-1] and [n]),
 * repeated as the engine repeats them */
static void repeat_edges(int32_t *da, int32_t *db, int n)
{
    da[-1] = da[0];
    da[n]  = da[n - 1];
    db[-1] = db[0];
    db[n]  = db[n - 1];
}

static void check_yuvint8(const CspfixDSPContext *dsp)
{
    LOCAL_ALIGNED_32(uint8_t, cb, [MAXW + PAD]);
    LOCAL_ALIGNED_32(uint8_t, cr, [MAXW + PAD]);
    LOCAL_ALIGNED_32(uint8_t, y, [2 * MAXW + PAD]);
    LOCAL_ALIGNED_32(uint8_t, ref8, [2 * MAXW + PAD]);
    LOCAL_ALIGNED_32(uint8_t, new8, [2 * MAXW + PAD]);
    LOCAL_ALIGNED_32(int32_t, da, [MAXW + 2 * PAD]);
    LOCAL_ALIGNED_32(int32_t, db, [MAXW + 2 * PAD]);
    LOCAL_ALIGNED_32(int32_t, ref32, [MAXW + 2 * PAD]);
    LOCAL_ALIGNED_32(int32_t, new32, [MAXW + 2 * PAD]);
    CspfixYuvInt p[NB_YUVINT];

    for (int k = 0; k < NB_YUVINT; k++)
        rnd_yuvint(&p[k], k);

#define FILL_CHROMA()                           \
    for (int x = 0; x < MAXW + PAD; x++) {      \
        cb[x] = rnd();                          \
        cr[x] = rnd();                          \
    }

    if (check_func(dsp->yuvint.ichroma, "cspfix_ichroma_8")) {
        declare_func(void, CSPFIX_ICHROMA8_ARGS);
        LOCAL_ALIGNED_32(uint8_t, ref2, [MAXW + PAD]);
        LOCAL_ALIGNED_32(uint8_t, new2, [MAXW + PAD]);
        for (int k = 0; k < NB_YUVINT; k++) {
            for (int i = 0; i < FF_ARRAY_ELEMS(widths); i++) {
                const int w = widths[i];
                FILL_CHROMA();
                memset(ref8, 0xaa, MAXW + PAD);
                memset(new8, 0xaa, MAXW + PAD);
                memset(ref2, 0xaa, MAXW + PAD);
                memset(new2, 0xaa, MAXW + PAD);
                call_ref(ref8, ref2, cb, cr, w, &p[k]);
                call_new(new8, new2, cb, cr, w, &p[k]);
                /* nothing written past w */
                if (memcmp(ref8, new8, MAXW + PAD) || memcmp(ref2, new2, MAXW + PAD))
                    fail();
            }
        }
        bench_new(new8, new2, cb, cr, MAXW, &p[0]);
    }

    if (check_func(dsp->yuvint.idelta, "cspfix_idelta_8")) {
        declare_func(void, CSPFIX_IDELTA8_ARGS);
        for (int k = 0; k < NB_YUVINT; k++) {
            for (int i = 0; i < FF_ARRAY_ELEMS(widths); i++) {
                const int w = widths[i];
                FILL_CHROMA();
                call_ref(ref32, cb, cr, w, p[k].dc);
                call_new(new32, cb, cr, w, p[k].dc);
                if (memcmp(ref32, new32, w * sizeof(*ref32)))
                    fail();
            }
        }
        bench_new(new32, cb, cr, MAXW, p[0].dc);
    }

    if (check_func(dsp->yuvint.ivblend, "cspfix_ivblend")) {
        declare_func(void, CSPFIX_IVBLEND_ARGS);
        for (int k = 0; k < NB_YUVINT; k++) {
            for (int i = 0; i < FF_ARRAY_ELEMS(widths); i++) {
                const int cw = widths[i];
                FILL_CHROMA();
                dsp->yuvint.idelta(da + PAD, cb, cr, MAXW, p[k].dc);
                dsp->yuvint.idelta(db + PAD, cr, cb, MAXW, p[k].dc);
                repeat_edges(da + PAD, db + PAD, cw);
                for (int wb = 0; wb <= 4; wb++) {
                    call_ref(ref32 + PAD, da + PAD, db + PAD, cw, wb);
                    call_new(new32 + PAD, da + PAD, db + PAD, cw, wb);
                    if (memcmp(ref32 + PAD - 1, new32 + PAD - 1, (cw + 2) * sizeof(*ref32)))
                        fail();
                }
            }
        }
        bench_new(new32 + PAD, da + PAD, db + PAD, MAXW, 3);
    }

    if (check_func(dsp->yuvint.iluma, "cspfix_iluma_8")) {
        declare_func(void, CSPFIX_ILUMA8_ARGS);
        for (int k = 0; k < NB_YUVINT; k++) {
            for (int i = 0; i < FF_ARRAY_ELEMS(widths); i++) {
                /* odd and even luma widths */
                const int lw = 2 * widths[i] - (rnd() & 1), cw = (lw + 1) / 2;
                FILL_CHROMA();
                /* deltas as idelta and ivblend make them, edges repeated */
                dsp->yuvint.idelta(da + PAD, cb, cr, MAXW, p[k].dc);
                dsp->yuvint.idelta(db + PAD, cr, cb, MAXW, p[k].dc);
                repeat_edges(da + PAD, db + PAD, cw);
                for (int x = 0; x < 2 * MAXW + PAD; x++)
                    y[x] = rnd();
                for (int wb = 0; wb <= 4; wb++) {
                    dsp->yuvint.ivblend(ref32 + PAD, da + PAD, db + PAD, cw, wb);
                    for (int phase = 0; phase < 2; phase++) {
                        memset(ref8, 0xaa, 2 * MAXW + PAD);
                        memset(new8, 0xaa, 2 * MAXW + PAD);
                        call_ref(ref8, y, ref32 + PAD, lw, phase, &p[k]);
                        call_new(new8, y, ref32 + PAD, lw, phase, &p[k]);
                        if (memcmp(ref8, new8, 2 * MAXW + PAD))   /* nothing written past w */
                            fail();
                    }
                }
            }
        }
        /* the parameters the deltas in ref32 were made for (the last k): others can
         * overflow the sum the kernels' ranges were checked for */
        bench_new(new8, y, ref32 + PAD, 2 * MAXW, 0, &p[NB_YUVINT - 1]);
    }
#undef FILL_CHROMA
    report("yuvint");
}

/* 9- and 10-bit samples in 16-bit containers; the samples' bits above the depth are
 * random too (the kernels ignore them) */
static void check_yuvint16(const CspfixDSPContext *dsp)
{
    LOCAL_ALIGNED_32(uint16_t, cb, [MAXW + PAD]);
    LOCAL_ALIGNED_32(uint16_t, cr, [MAXW + PAD]);
    LOCAL_ALIGNED_32(uint16_t, y, [2 * MAXW + PAD]);
    LOCAL_ALIGNED_32(uint16_t, ref16, [2 * MAXW + PAD]);
    LOCAL_ALIGNED_32(uint16_t, new16, [2 * MAXW + PAD]);
    LOCAL_ALIGNED_32(uint16_t, ref2, [MAXW + PAD]);
    LOCAL_ALIGNED_32(uint16_t, new2, [MAXW + PAD]);
    LOCAL_ALIGNED_32(int32_t, da, [MAXW + 2 * PAD]);
    LOCAL_ALIGNED_32(int32_t, db, [MAXW + 2 * PAD]);
    LOCAL_ALIGNED_32(int32_t, ref32, [MAXW + 2 * PAD]);
    LOCAL_ALIGNED_32(int32_t, new32, [MAXW + 2 * PAD]);
    CspfixYuvInt p[2 * NB_YUVINT];

    for (int k = 0; k < 2 * NB_YUVINT; k++)
        rnd_yuvint_depth(&p[k], k % NB_YUVINT, 9 + k / NB_YUVINT);

#define FILL_CHROMA16()                         \
    for (int x = 0; x < MAXW + PAD; x++) {      \
        cb[x] = rnd();                          \
        cr[x] = rnd();                          \
    }

    if (check_func(dsp->yuvint.ichroma16, "cspfix_ichroma_16")) {
        declare_func(void, CSPFIX_ICHROMA16_ARGS);
        for (int k = 0; k < 2 * NB_YUVINT; k++) {
            for (int i = 0; i < FF_ARRAY_ELEMS(widths); i++) {
                const int w = widths[i];
                FILL_CHROMA16();
                memset(ref16, 0xaa, 2 * (MAXW + PAD));
                memset(new16, 0xaa, 2 * (MAXW + PAD));
                memset(ref2, 0xaa, 2 * (MAXW + PAD));
                memset(new2, 0xaa, 2 * (MAXW + PAD));
                call_ref(ref16, ref2, cb, cr, w, &p[k]);
                call_new(new16, new2, cb, cr, w, &p[k]);
                /* nothing written past w */
                if (memcmp(ref16, new16, 2 * (MAXW + PAD)) || memcmp(ref2, new2, 2 * (MAXW + PAD)))
                    fail();
            }
        }
        bench_new(new16, new2, cb, cr, MAXW, &p[NB_YUVINT]);
    }

    if (check_func(dsp->yuvint.idelta16, "cspfix_idelta_16")) {
        declare_func(void, CSPFIX_IDELTA16_ARGS);
        for (int k = 0; k < 2 * NB_YUVINT; k++) {
            for (int i = 0; i < FF_ARRAY_ELEMS(widths); i++) {
                const int w = widths[i];
                FILL_CHROMA16();
                call_ref(ref32, cb, cr, w, &p[k]);
                call_new(new32, cb, cr, w, &p[k]);
                if (memcmp(ref32, new32, w * sizeof(*ref32)))
                    fail();
            }
        }
        bench_new(new32, cb, cr, MAXW, &p[NB_YUVINT]);
    }

    if (check_func(dsp->yuvint.iluma16, "cspfix_iluma_16")) {
        declare_func(void, CSPFIX_ILUMA16_ARGS);
        for (int k = 0; k < 2 * NB_YUVINT; k++) {
            for (int i = 0; i < FF_ARRAY_ELEMS(widths); i++) {
                /* odd and even luma widths */
                const int lw = 2 * widths[i] - (rnd() & 1), cw = (lw + 1) / 2;
                FILL_CHROMA16();
                /* deltas as idelta16 and ivblend make them, edges repeated */
                dsp->yuvint.idelta16(da + PAD, cb, cr, MAXW, &p[k]);
                dsp->yuvint.idelta16(db + PAD, cr, cb, MAXW, &p[k]);
                repeat_edges(da + PAD, db + PAD, cw);
                for (int x = 0; x < 2 * MAXW + PAD; x++)
                    y[x] = rnd();
                for (int wb = 0; wb <= 4; wb++) {
                    dsp->yuvint.ivblend(ref32 + PAD, da + PAD, db + PAD, cw, wb);
                    for (int phase = 0; phase < 2; phase++) {
                        memset(ref16, 0xaa, 2 * (2 * MAXW + PAD));
                        memset(new16, 0xaa, 2 * (2 * MAXW + PAD));
                        call_ref(ref16, y, ref32 + PAD, lw, phase, &p[k]);
                        call_new(new16, y, ref32 + PAD, lw, phase, &p[k]);
                        if (memcmp(ref16, new16, 2 * (2 * MAXW + PAD)))   /* nothing written past w */
                            fail();
                    }
                }
            }
        }
        bench_new(new16, y, ref32 + PAD, 2 * MAXW, 0, &p[2 * NB_YUVINT - 1]);
    }
#undef FILL_CHROMA16
    report("yuvint16");
}

/* linear light a tone or gamut mapping stage meets: out-of-gamut negatives, highlights */
static float rnd_light(void)
{
    switch (rnd() & 3) {
    case 0:  return rnd_float(-0.6f, 0.1f);
    case 1:  return rnd_float(1.0f, 49.3f);
    default: return rnd_float(0.0f, 1.2f);
    }
}

static void check_tonemap(const CspfixDSPContext *dsp)
{
    LOCAL_ALIGNED_32(float, ref_buf, [3 * (MAXW + PAD)]);
    LOCAL_ALIGNED_32(float, new_buf, [3 * (MAXW + PAD)]);
    CspfixOp op = { .type = CSPFIX_OP_TONEMAP, .tm = CSPFIX_TM_BT2390, .src_peak = 4000,
                    .dst_peak = 100, .out_white = 100, .desat = 0.6 };
    const float k[3] = { 0.2627f, 0.6780f, 0.0593f };
    CspfixTFTable *gain = av_malloc(sizeof(*gain)), *desat = av_malloc(sizeof(*desat));
    float *ref[3], *new[3];
    declare_func(void, CSPFIX_TONEMAP_ARGS);

    if (!gain || !desat)
        goto end;
    /* the tables as the filter builds them: their variable is max(m * in_scale, in_floor)
     * (in_scale 0.9896 for this curve's corner at 4000 cd/m2, m = 19.70) */
    ff_cspfix_tone_tables(gain, desat, &op);
    for (int c = 0; c < 3; c++) {
        ref[c] = ref_buf + c * (MAXW + PAD);
        new[c] = new_buf + c * (MAXW + PAD);
    }
    /* d & 1: with desat; d & 2: tonemap_i, the gain of c0 (IPT's intensity) */
    for (int d = 0; d < 4; d++) {
        const CspfixTFTable *dt = d & 1 ? desat : NULL;
        if (!check_func(d & 2 ? dsp->stage.tonemap_i : dsp->stage.tonemap, "cspfix_tonemap%s%s",
                        d & 2 ? "_i" : "", d & 1 ? "_desat" : ""))
            continue;
        for (int i = 0; i < FF_ARRAY_ELEMS(widths); i++) {
            const int w = widths[i];
            for (int x = 0; x < 3 * (MAXW + PAD); x++)
                ref_buf[x] = rnd_light();
            memcpy(new_buf, ref_buf, 3 * (MAXW + PAD) * sizeof(float));
            call_ref(ref[0], ref[1], ref[2], w, k, gain, dt);
            call_new(new[0], new[1], new[2], w, k, gain, dt);
            for (int c = 0; c < 3; c++)
                if (memcmp(ref[c], new[c], w * sizeof(float))) {
                    fail();
                    break;
                }
        }
        bench_new(new[0], new[1], new[2], MAXW, k, gain, dt);
    }
end:
    av_free(gain);
    av_free(desat);
    report("tonemap");
}

static void check_gamut(const CspfixDSPContext *dsp)
{
    LOCAL_ALIGNED_32(float, ref_buf, [3 * (MAXW + PAD)]);
    LOCAL_ALIGNED_32(float, new_buf, [3 * (MAXW + PAD)]);
    const float k[3] = { 0.2126f, 0.7152f, 0.0722f }, sinv[3] = { 1.3f, 0.0f, 2.1f };
    const float hi[2] = { 1.0f, 0.7f }, thr = 0.8f;
    float *ref[3], *new[3];

    for (int c = 0; c < 3; c++) {
        ref[c] = ref_buf + c * (MAXW + PAD);
        new[c] = new_buf + c * (MAXW + PAD);
    }
    {
        declare_func_float(void, CSPFIX_GAMUT_DESAT_ARGS);
        if (check_func(dsp->stage.gamut_desat, "cspfix_gamut_desat")) {
            /* odd i: mostly in the gamut (the SIMD versions skip the divisions of a
             * vector with no lane out), with -0, NaN and lanes just out now and then */
            for (int i = 0; i < 2 * FF_ARRAY_ELEMS(widths); i++) {
                const int w = widths[i >> 1];
                for (int x = 0; x < 3 * (MAXW + PAD); x++) {
                    if (!(i & 1))
                        ref_buf[x] = (rnd() & 7) ? rnd_light() : rnd_signal();
                    else if (rnd() & 63)
                        ref_buf[x] = rnd_float(0.0f, hi[(i >> 1) & 1]);
                    else
                        ref_buf[x] = (float[]){ -0.0f, NAN, -1e-6f, 1.01f * hi[(i >> 1) & 1],
                                                rnd_signal() }[rnd() % 5];
                }
                memcpy(new_buf, ref_buf, 3 * (MAXW + PAD) * sizeof(float));
                call_ref(ref[0], ref[1], ref[2], w, k, hi[(i >> 1) & 1]);
                call_new(new[0], new[1], new[2], w, k, hi[(i >> 1) & 1]);
                for (int c = 0; c < 3; c++)
                    if (memcmp(ref[c], new[c], w * sizeof(float))) {
                        fail();
                        break;
                    }
            }
            bench_new(new[0], new[1], new[2], MAXW, k, 1.0f);
        }
    }
    {
        declare_func_float(void, CSPFIX_GAMUT_COMPRESS_ARGS);
        if (check_func(dsp->stage.gamut_compress, "cspfix_gamut_compress")) {
            /* odd i: mostly colours far from the edge (d < 0.7: the SIMD versions skip
             * a vector with no lane near it), some with d within a few ulps of thr,
             * and now and then any value */
            for (int i = 0; i < 2 * FF_ARRAY_ELEMS(widths); i++) {
                const int w = widths[i >> 1];
                for (int x = 0; x < 3 * (MAXW + PAD); x++)
                    ref_buf[x] = (rnd() & 7) ? rnd_light() : rnd_signal();
                for (int x = 0; (i & 1) && x < MAXW + PAD; x++) {
                    const float a = rnd_float(0.0f, hi[(i >> 1) & 1]);
                    const int top = rnd() % 3;
                    for (int c = 0; c < 3; c++)
                        ref[c][x] = c == top ? a : a * rnd_float(0.3f, 1.0f);
                    if (!(rnd() & 15))
                        ref[(top + 1) % 3][x] = a * (1.0f - thr) *
                                                (1.0f + (int)(rnd() % 17 - 8) * 0x1p-23f);
                    if (!(rnd() & 63))
                        ref[rnd() % 3][x] = (float[]){ -0.0f, 0.0f, NAN, 1e-35f, rnd_light(),
                                                       rnd_signal() }[rnd() % 6];
                }
                memcpy(new_buf, ref_buf, 3 * (MAXW + PAD) * sizeof(float));
                call_ref(ref[0], ref[1], ref[2], w, thr, sinv, hi[(i >> 1) & 1]);
                call_new(new[0], new[1], new[2], w, thr, sinv, hi[(i >> 1) & 1]);
                for (int c = 0; c < 3; c++)
                    if (memcmp(ref[c], new[c], w * sizeof(float))) {
                        fail();
                        break;
                    }
            }
            bench_new(new[0], new[1], new[2], MAXW, thr, sinv, 1.0f);
        }
    }
    {
        declare_func_float(void, CSPFIX_CLIP_ARGS);
        if (check_func(dsp->stage.clip, "cspfix_clip")) {
            for (int i = 0; i < FF_ARRAY_ELEMS(widths); i++) {
                const int w = widths[i];
                const float lo = (rnd() & 1) ? 0.0f : -0.25f, hi = (rnd() & 1) ? 1.0f : 3.5f;
                for (int x = 0; x < MAXW + PAD; x++)
                    ref_buf[x] = rnd_signal();
                memcpy(new_buf, ref_buf, (MAXW + PAD) * sizeof(float));
                call_ref(ref[0], w, lo, hi);
                call_new(new[0], w, lo, hi);
                if (memcmp(ref[0], new[0], w * sizeof(float)))
                    fail();
            }
            bench_new(new[0], MAXW, 0.0f, 1.0f);
        }
    }
    report("gamut");
}

/* an input of the 3D table stage on an n-point grid (m = n - 1): in and out of [0, 1],
 * grid points k / m (exact where m is a power of 2; the float below k otherwise), points
 * on a 1/4-cell sub-grid (the same fraction in other cells: ties between components),
 * 0, -0, 1, the float above 1, quiet and signalling NaNs of any sign and payload, +-inf,
 * huge values (C clamps without libm's fmaxf, whose result for a signalling NaN depends on
 * the build: every NaN is 0 in C and SIMD alike). */
static float lut3d_in(int m)
{
    switch (rnd() & 15) {
    case 0:  return (float)(int)(rnd() % (m + 1)) / m;
    case 1:  return (float)(int)(rnd() % (4 * m + 1)) / (4 * m);
    case 2:  return (rnd() & 1) ? 0.0f : -0.0f;
    case 3:  return (rnd() & 1) ? 1.0f : av_int2float(0x3f800001);
    case 4:  return av_int2float(0x7fc00000 | (rnd() & 0x803fffff));
    case 8:  return av_int2float(0x7f800001 | (rnd() & 0x801ffffe)); /* signalling */
    case 5:  return (rnd() & 1) ? INFINITY : -INFINITY;
    case 6:  return (rnd() & 1) ? 1e30f : -1e30f;
    case 7:  return rnd_float(-0.2f, 0.0f);
    default: return rnd_float(-0.2f, 1.2f);
    }
}

/* a 3D table of n^3 points: a smooth colour transform (a matrix, curves, cross terms;
 * some values out of [0, 1]) with noise, or (zeros) signed zeros, mostly -0, and some
 * infinities */
static void lut3d_table(float *t, int n, int zeros)
{
    for (int i = 0; i < n * n * n; i++) {
        const float r = (float)(i % n) / (n - 1), g = (float)(i / n % n) / (n - 1);
        const float b = (float)(i / (n * n)) / (n - 1);
        float *p = t + 3 * i;
        if (zeros) {
            for (int c = 0; c < 3; c++)
                p[c] = !(rnd() & 15) ? ((rnd() & 1) ? INFINITY : -INFINITY) :
                       (rnd() & 7) ? -0.0f : 0.0f;
            continue;
        }
        p[0] = 1.12f * r - 0.09f * g - 0.03f * b * b + 0.02f * sinf(5.0f * g);
        p[1] = 0.05f * r + 0.93f * sqrtf(g) + 0.04f * b - 0.01f;
        p[2] = -0.02f * r + 0.1f * g * r + 1.05f * b * b * b;
        for (int c = 0; c < 3; c++)
            p[c] += rnd_float(-0.01f, 0.01f);
    }
}

/* The 3D table (LUT profiles, CSPFIX_ICC_LUT_N = 33 points per axis) on tables of a
 * smooth colour transform with noise at n = 33 and small n (m a power of 2 or not), and on
 * tables of signed zeros with a few infinities: there the sum is -0 only where all four
 * corners are -0, and NaN where a corner of weight 0 is infinite, so the corners that
 * each tie picks show. Inputs: lut3d_in() per component, and in a quarter of the pixels
 * two or three equal components. */
static void check_lut3d(const CspfixDSPContext *dsp)
{
    static const struct { int n, zeros; } tabs[] = {
        { 33, 0 }, { 2, 0 }, { 3, 0 }, { 5, 0 }, { 6, 0 }, { 17, 0 }, { 3, 1 }, { 5, 1 },
    };
    LOCAL_ALIGNED_64(float, ref_buf, [3 * (MAXW + PAD)]);
    LOCAL_ALIGNED_64(float, new_buf, [3 * (MAXW + PAD)]);
    float *ref[3], *new[3], *lut = av_malloc(33 * 33 * 33 * 3 * sizeof(*lut));
    /* the table is not called t: FFmpeg 8.1's bench_new() declares a uint64_t t of its
     * own, which would then be passed as the table */
    declare_func(void, CSPFIX_LUT3D_ARGS);

    if (!lut)
        return;
    for (int c = 0; c < 3; c++) {
        ref[c] = ref_buf + c * (MAXW + PAD);
        new[c] = new_buf + c * (MAXW + PAD);
    }
    if (check_func(dsp->stage.lut3d, "cspfix_lut3d")) {
        for (int k = 0; k < FF_ARRAY_ELEMS(tabs); k++) {
            const int n = tabs[k].n, m = n - 1;
            lut3d_table(lut, n, tabs[k].zeros);
            for (int i = 0; i < FF_ARRAY_ELEMS(widths); i++) {
                const int w = widths[i];
                for (int x = 0; x < MAXW + PAD; x++) {
                    for (int c = 0; c < 3; c++)
                        ref[c][x] = lut3d_in(m);
                    switch (rnd() & 7) {
                    case 0:  ref[1][x] = ref[0][x]; break;
                    case 1:  ref[2][x] = ref[0][x]; break;
                    case 2:  ref[2][x] = ref[1][x]; break;
                    case 3:  ref[1][x] = ref[2][x] = ref[0][x]; break;
                    }
                }
                memcpy(new_buf, ref_buf, 3 * (MAXW + PAD) * sizeof(float));
                call_ref(ref[0], ref[1], ref[2], w, lut, n);
                call_new(new[0], new[1], new[2], w, lut, n);
                for (int c = 0; c < 3; c++)
                    if (memcmp(ref[c], new[c], w * sizeof(float))) {
                        fail();
                        break;
                    }
            }
        }
        lut3d_table(lut, 33, 0);
        fill_floats(new_buf, 3 * (MAXW + PAD), 0.0f, 1.0f);
        bench_new(new[0], new[1], new[2], MAXW, lut, 33);
    }
    av_free(lut);
    report("lut3d");
}

/* ---- one function per kernel family (cspfix_dsp.h), each running the checks of
 * its kernels (reported per kernel) ---- */

static void check_stage(const CspfixDSPContext *dsp)
{
    check_matrix(dsp);
    check_affine(dsp);
    check_tf(dsp);
    check_tonemap(dsp);
    check_gamut(dsp);
    check_lut3d(dsp);
}

/* Error diffusion: n rows and the error row, padded by CSPFIX_ED_PAD on both sides;
 * the padding and the rows past n hold garbage (the kernels may read and write it,
 * and it must not reach the results). */
#define ED_STRIDE (CSPFIX_ED_PAD + MAXW + PAD + CSPFIX_ED_PAD)
static void check_dither_ed(const CspfixDSPContext *dsp)
{
    static const int ns[] = { 1, 2, 3, 7, 8, 9, 15, 16, 17, 23, 24, 25, 31, 32 };
    float *buf = av_malloc(2 * (CSPFIX_ED_ROWS + 1) * ED_STRIDE * sizeof(float));
    float *rows[2][CSPFIX_ED_ROWS], *err[2];
    declare_func_float(void, CSPFIX_DITHER_ED_ARGS);

    if (!buf)
        return;
    for (int k = 0; k < 2; k++) {
        err[k] = buf + k * (CSPFIX_ED_ROWS + 1) * ED_STRIDE + CSPFIX_ED_PAD;
        for (int i = 0; i < CSPFIX_ED_ROWS; i++)
            rows[k][i] = err[k] + (i + 1) * ED_STRIDE;
    }
    if (check_func(dsp->io.dither_ed, "cspfix_dither_ed")) {
        for (int i = 0; i < FF_ARRAY_ELEMS(widths); i++) {
            for (int j = 0; j < FF_ARRAY_ELEMS(ns); j++) {
                const int w = widths[i], n = ns[j];
                const float max = (rnd() & 1) ? 255.0f : (rnd() & 1) ? 1023.0f : 65535.0f;
                const float lo = (rnd() & 1) ? 0.0f : 16.0f, hi = (rnd() & 1) ? max : 235.0f;
                float *r = buf;
                for (int x = 0; x < (CSPFIX_ED_ROWS + 1) * ED_STRIDE; x++) /* garbage everywhere first */
                    r[x] = (rnd() & 3) ? rnd_float(-1000.0f, 70000.0f) : av_int2float(rnd());
                for (int y = 0; y < CSPFIX_ED_ROWS; y++) {
                    fill_floats(rows[0][y], w, lo - 20.0f, hi + 20.0f);
                    for (int x = 0; x < w; x += 5) /* exact halves (a tie first: err 0) and integers */
                        rows[0][y][x] = (float)(int)rows[0][y][x] + ((x & 8) || !x ? 0.5f : 0.0f);
                }
                /* the errors of a row before: 0 (a band's start) or any */
                err[0][0] = err[0][w + 1] = 0.0f;
                for (int x = 1; x <= w; x++)
                    err[0][x] = (j & 1) ? rnd_float(-0.5f, 0.5f) : 0.0f;
                memcpy(buf + (CSPFIX_ED_ROWS + 1) * ED_STRIDE, buf, (CSPFIX_ED_ROWS + 1) * ED_STRIDE * sizeof(float));
                call_ref(rows[0], n, w, err[0], lo, hi);
                call_new(rows[1], n, w, err[1], lo, hi);
                for (int y = 0; y < n; y++)
                    if (memcmp(rows[0][y], rows[1][y], w * sizeof(float)))
                        fail();
                if (memcmp(err[0], err[1], (w + 2) * sizeof(float)))
                    fail();
            }
        }
        for (int y = 0; y < CSPFIX_ED_ROWS; y++)
            fill_floats(rows[1][y], MAXW, 0.0f, 255.0f);
        memset(err[1] - CSPFIX_ED_PAD, 0, ED_STRIDE * sizeof(float));
        bench_new(rows[1], CSPFIX_ED_ROWS, MAXW, err[1], 0.0f, 255.0f);
    }
    report("dither_ed");
    av_free(buf);
}

static void check_fused(const CspfixDSPContext *dsp)
{
    check_matrix_io(dsp);
    check_rows(dsp);
}

static void check_io(const CspfixDSPContext *dsp)
{
    check_unpack(dsp);
    check_pack(dsp);
    check_xn(dsp);
    check_lut(dsp);
    check_map8(dsp);
    check_map16(dsp);
    check_dither_ed(dsp);
}

/* check_chroma() above is the whole chroma family */

static void check_yuvint(const CspfixDSPContext *dsp)
{
    check_yuvint8(dsp);
    check_yuvint16(dsp);
}

/* The dovi family: the MMR of a Dolby Vision chroma piece, orders 1 to 3 (zero rows
 * above the order), clamps inside and at the ends of [0, 1]; whole vectors of 16 may be
 * written after w (the reshaped frame's rows are 64-byte aligned), nothing beyond. */
static void check_dovi(const CspfixDSPContext *dsp)
{
    LOCAL_ALIGNED_64(float, x0, [MAXW + PAD]);
    LOCAL_ALIGNED_64(float, x1, [MAXW + PAD]);
    LOCAL_ALIGNED_64(float, x2, [MAXW + PAD]);
    LOCAL_ALIGNED_64(float, k, [CSPFIX_DOVI_MMR_K * 16]);
    LOCAL_ALIGNED_64(uint16_t, ref, [MAXW + PAD]);
    LOCAL_ALIGNED_64(uint16_t, new, [MAXW + PAD + GUARD]);
    declare_func(void, CSPFIX_DOVI_MMR_ARGS);

    if (check_func(dsp->dovi.mmr, "cspfix_dovi_mmr")) {
        for (int order = 1; order <= 3; order++) {
            for (int i = 0; i < FF_ARRAY_ELEMS(widths); i++) {
                const int w = widths[i], end = FFALIGN(w, 16);
                fill_floats(x0, MAXW + PAD, 0.0f, 1.0f);
                fill_floats(x1, MAXW + PAD, 0.0f, 1.0f);
                fill_floats(x2, MAXW + PAD, 0.0f, 1.0f);
                x0[0] = x1[0] = x2[0] = 0.0f;
                x0[w - 1] = x1[w - 1] = x2[w - 1] = 1.0f;
                for (int r = 0; r < CSPFIX_DOVI_MMR_K; r++) {
                    const float v = r == 0  ? rnd_float(-0.5f, 0.5f) :
                                    r == 22 ? (i & 1 ? 0.0f : rnd_float(0.0f, 0.3f)) :
                                    r == 23 ? (i & 2 ? 1.0f : rnd_float(0.7f, 1.0f)) :
                                    (r - 1) % 3 < order ? rnd_float(-2.0f, 2.0f) : 0.0f;
                    for (int l = 0; l < 16; l++)
                        k[16 * r + l] = v;
                }
                memset(new, 0xee, sizeof(uint16_t) * (MAXW + PAD + GUARD));
                call_ref(ref, x0, x1, x2, (const float (*)[16])k, w);
                call_new(new, x0, x1, x2, (const float (*)[16])k, w);
                if (memcmp(ref, new, w * sizeof(*ref)))
                    fail();
                for (int x = end; x < MAXW + PAD + GUARD; x++)
                    if (new[x] != 0xeeee)
                        fail();
            }
        }
        bench_new(new, x0, x1, x2, (const float (*)[16])k, MAXW);
    }
    {
        /* the polynomial pieces' table: codes of every depth, and above max */
        LOCAL_ALIGNED_64(uint16_t, src, [MAXW + PAD]);
        static DECLARE_ALIGNED(64, uint16_t, tab)[(1 << 16) + 16];
        declare_func(void, CSPFIX_DOVI_LUT_ARGS);

        if (check_func(dsp->dovi.lut, "cspfix_dovi_lut")) {
            for (int i = 0; i < (1 << 16) + 16; i++)
                tab[i] = rnd();
            for (int depth = 8; depth <= 16; depth += 2) {
                const int max = (1 << depth) - 1;
                for (int i = 0; i < FF_ARRAY_ELEMS(widths); i++) {
                    const int w = widths[i], end = FFALIGN(w, 16);
                    for (int x = 0; x < MAXW + PAD; x++)
                        src[x] = rnd() & (rnd() & 7 ? max : 0xffff);
                    src[0] = max;
                    memset(new, 0xee, sizeof(uint16_t) * (MAXW + PAD + GUARD));
                    call_ref(ref, src, w, tab, max);
                    call_new(new, src, w, tab, max);
                    if (memcmp(ref, new, w * sizeof(*ref)))
                        fail();
                    for (int x = end; x < MAXW + PAD + GUARD; x++)
                        if (new[x] != 0xeeee)
                            fail();
                }
            }
            bench_new(new, src, MAXW, tab, 1023);
        }
    }
    {
        /* codes of every depth from 8 to 16 bits, and above max (garbage high bits) */
        LOCAL_ALIGNED_64(uint16_t, y0, [2 * MAXW + 2 * PAD]);
        LOCAL_ALIGNED_64(uint16_t, y1, [2 * MAXW + 2 * PAD]);
        LOCAL_ALIGNED_64(float, fref, [MAXW + PAD]);
        LOCAL_ALIGNED_64(float, fnew, [MAXW + PAD + GUARD]);
        CspfixDoviNorm n;

        for (int f = 0; f < 2; f++) {
            if (!(f ? check_func(dsp->dovi.mean420, "cspfix_dovi_mean420") :
                      check_func(dsp->dovi.norm, "cspfix_dovi_norm")))
                continue;
            for (int depth = 8; depth <= 16; depth += 2) {
                n.max  = (1 << depth) - 1;
                n.inv  = 1.0f / n.max;
                n.inv4 = n.inv * 0.25f;
                for (int i = 0; i < FF_ARRAY_ELEMS(widths); i++) {
                    const int w = widths[i];
                    for (int x = 0; x < 2 * MAXW + 2 * PAD; x++) {
                        y0[x] = rnd() & (rnd() & 7 ? n.max : 0xffff);
                        y1[x] = rnd() & (rnd() & 7 ? n.max : 0xffff);
                    }
                    guard_set(fnew, w);
                    if (f) {
                        declare_func(void, CSPFIX_DOVI_MEAN_ARGS);
                        call_ref(fref, y0, y1, w, &n);
                        call_new(fnew, y0, y1, w, &n);
                    } else {
                        declare_func(void, CSPFIX_DOVI_NORM_ARGS);
                        call_ref(fref, y0, w, &n);
                        call_new(fnew, y0, w, &n);
                    }
                    if (memcmp(fref, fnew, w * sizeof(float)) || guard_hit(fnew, w))
                        fail();
                }
            }
            if (f) {
                declare_func(void, CSPFIX_DOVI_MEAN_ARGS);
                bench_new(fnew, y0, y1, MAXW, &n);
            } else {
                declare_func(void, CSPFIX_DOVI_NORM_ARGS);
                bench_new(fnew, y0, MAXW, &n);
            }
        }
    }
    report("dovi");
}

/* The ycgcor family: YCgCo-R lifting both ways, RGB of 8 to 14 bits coded at N + 2
 * (ycgco-re) and N + 1 (ycgco-ro) bits. to_rgb gets any 16-bit codes (out of range ones
 * clamp), from_rgb RGB samples with padding bits set now and then; the SIMD versions take
 * w a multiple of 8 and write nothing after it. */
static void check_ycgcor(const CspfixDSPContext *dsp)
{
    /* static: LOCAL_ALIGNED of a two-dimensional array is not one on every FFmpeg */
    static DECLARE_ALIGNED(64, uint16_t, in)[3][MAXW + PAD];
    static DECLARE_ALIGNED(64, uint16_t, ref)[3][MAXW + PAD + GUARD];
    static DECLARE_ALIGNED(64, uint16_t, new)[3][MAXW + PAD + GUARD];
    static const int depths[] = { 8, 9, 10, 12, 14 };
    declare_func(void, CSPFIX_YCGCOR_ARGS);

    for (int k = 0; k < 2; k++) {
        for (int dir = 0; dir < 2; dir++) {
            const char *name = dir ? (k ? "cspfix_ycgcor_from_rgb_16" : "cspfix_ycgcor_from_rgb_8") :
                                     (k ? "cspfix_ycgcor_to_rgb_16" : "cspfix_ycgcor_to_rgb_8");
            if (!check_func(dir ? dsp->ycgcor.from_rgb[k] : dsp->ycgcor.to_rgb[k], "%s", name))
                continue;
            for (int d = 0; d < FF_ARRAY_ELEMS(depths); d++) {
                const int n = depths[d], max = (1 << n) - 1;
                if (k != (max > 255))
                    continue;
                for (int ro = 0; ro < 2; ro++) {
                    const int off = 1 << (n + (ro ? 0 : 1));
                    for (int i = 0; i < FF_ARRAY_ELEMS(widths); i++) {
                        const int w = FFMAX(8, widths[i] & ~7);
                        const size_t bytes = (MAXW + PAD + GUARD) * sizeof(uint16_t);
                        for (int c = 0; c < 3; c++) {
                            for (int x = 0; x < MAXW + PAD; x++) {
                                if (dir && k)       /* RGB of n bits, padding bits now and then */
                                    in[c][x] = rnd() & (rnd() & 7 ? max : 0xffff);
                                else if (dir)       /* bytes */
                                    in[c][x] = rnd();
                                else                /* codes: mostly a lifting's, any now and then */
                                    in[c][x] = rnd() & 7 ? (c ? off + (int)(rnd() % (2 * max + 1)) - max :
                                                                rnd() % (max + 1)) : rnd() & 0xffff;
                            }
                            in[c][0] = 0;
                            in[c][w - 1] = dir ? (k ? max : 0xffff) : 0xffff;
                            memset(ref[c], 0xee, bytes);
                            memset(new[c], 0xee, bytes);
                        }
                        call_ref((uint8_t *)ref[0], (uint8_t *)ref[1], (uint8_t *)ref[2],
                                 (const uint8_t *)in[0], (const uint8_t *)in[1],
                                 (const uint8_t *)in[2], w, off, max, 0);
                        call_new((uint8_t *)new[0], (uint8_t *)new[1], (uint8_t *)new[2],
                                 (const uint8_t *)in[0], (const uint8_t *)in[1],
                                 (const uint8_t *)in[2], w, off, max, 0);
                        /* the whole buffers: the samples and the guard after them */
                        for (int c = 0; c < 3; c++)
                            if (memcmp(ref[c], new[c], bytes))
                                fail();
                    }
                }
            }
            bench_new((uint8_t *)new[0], (uint8_t *)new[1], (uint8_t *)new[2],
                      (const uint8_t *)in[0], (const uint8_t *)in[1], (const uint8_t *)in[2],
                      MAXW, 1 << 11, k ? 1023 : 255, 0);
        }
    }
    report("ycgcor");
}

void checkasm_check_cspfix(void)
{
    CspfixDSPContext dsp;

    ff_cspfix_dsp_init(&dsp);
    check_stage(&dsp);
    check_fused(&dsp);
    check_io(&dsp);
    check_chroma(&dsp);
    check_yuvint(&dsp);
    check_dovi(&dsp);
    check_ycgcor(&dsp);
}
