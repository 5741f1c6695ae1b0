/*
 * cspfix: sample <-> float kernels, templated on the sample container
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

/* Included by cspfix_dsp.c with BIT_DEPTH 8 (uint8_t samples) or 16 (uint16_t). */

#if BIT_DEPTH == 8
#define pixel uint8_t
#else
#define pixel uint16_t
#endif

#define FUNC2(a, b) a ## _ ## b
#define FUNC1(a, b) FUNC2(a, b)
#define FUNC(a)     FUNC1(a, BIT_DEPTH)

static void FUNC(unpack)(float *dst, const uint8_t *src8, int w)
{
    const pixel *src = (const pixel *)src8;
    for (int x = 0; x < w; x++)
        dst[x] = src[x];
}

static void FUNC(pack)(uint8_t *dst8, const float *src, int w, const float *bias,
                       float lo, float hi)
{
    pixel *dst = (pixel *)dst8;
    for (int x = 0; x < w; x++) {
        float v = src[x] + bias[x & 15];
        v = v > lo ? v : lo;
        v = v < hi ? v : hi;
        dst[x] = (int)v;
    }
}

/* matrix() with c0 read from samples: the unpack of the first row fused into the matrix */
static void FUNC(matrix_in)(float *c0, float *c1, float *c2, const uint8_t *src8, int w,
                            const float m[12])
{
    const pixel *src = (const pixel *)src8;
    for (int x = 0; x < w; x++) {
        const float a = src[x], b = c1[x], c = c2[x];
        c0[x] = fmaf(m[2],  c, fmaf(m[1], b, fmaf(m[0], a, m[3])));
        c1[x] = fmaf(m[6],  c, fmaf(m[5], b, fmaf(m[4], a, m[7])));
        c2[x] = fmaf(m[10], c, fmaf(m[9], b, fmaf(m[8], a, m[11])));
    }
}

/* matrix() whose first output row goes through pack() to samples instead of c0 */
static void FUNC(matrix_out)(uint8_t *dst8, const float *c0, float *c1, float *c2, int w,
                             const float m[12], const float *bias, float lo, float hi)
{
    pixel *dst = (pixel *)dst8;
    for (int x = 0; x < w; x++) {
        const float a = c0[x], b = c1[x], c = c2[x];
        float v = fmaf(m[2], c, fmaf(m[1], b, fmaf(m[0], a, m[3])));
        c1[x] = fmaf(m[6],  c, fmaf(m[5], b, fmaf(m[4], a, m[7])));
        c2[x] = fmaf(m[10], c, fmaf(m[9], b, fmaf(m[8], a, m[11])));
        v = v + bias[x & 15];
        v = v > lo ? v : lo;
        v = v < hi ? v : hi;
        dst[x] = (int)v;
    }
}

static av_always_inline int FUNC(pack1)(float v, float bias, float lo, float hi)
{
    v = v + bias;
    v = v > lo ? v : lo;
    v = v < hi ? v : hi;
    return (int)v;
}

static void FUNC(yrow)(uint8_t *dst8, const uint8_t *src8, const float *c1, const float *c2,
                       int w, const float m[4], const float *bias, float lo, float hi)
{
    const pixel *src = (const pixel *)src8;
    pixel *dst = (pixel *)dst8;
    for (int x = 0; x < w; x++) {
        const float v = fmaf(m[2], c2[x], fmaf(m[1], c1[x], fmaf(m[0], (float)src[x], m[3])));
        dst[x] = FUNC(pack1)(v, bias[x & 15], lo, hi);
    }
}

static void FUNC(crow)(uint8_t *dcb8, uint8_t *dcr8, const uint8_t *cb8, const uint8_t *cr8,
                       int w, const CspfixCRow *p, const float *bias_cb, const float *bias_cr)
{
    const pixel *cb = (const pixel *)cb8, *cr = (const pixel *)cr8;
    pixel *dcb = (pixel *)dcb8, *dcr = (pixel *)dcr8;
    for (int x = 0; x < w; x++) {
        const float b = cb[x], c = cr[x];
        const float u = fmaf(p->k[0][1], c, fmaf(p->k[0][0], b, p->k[0][2]));
        const float v = fmaf(p->k[1][1], c, fmaf(p->k[1][0], b, p->k[1][2]));
        dcb[x] = FUNC(pack1)(u, bias_cb[x & 15], p->lo[0], p->hi[0]);
        dcr[x] = FUNC(pack1)(v, bias_cr[x & 15], p->lo[1], p->hi[1]);
    }
}

#undef pixel
#undef FUNC
#undef FUNC1
#undef FUNC2
