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

static decl_cspfix_unpack_fn(FUNC(unpack))
{
    const pixel *s = (const pixel *)src;
    for (int x = 0; x < w; x++)
        dst[x] = s[x];
}

static decl_cspfix_pack_fn(FUNC(pack))
{
    pixel *d = (pixel *)dst;
    for (int x = 0; x < w; x++) {
        float v = src[x] + bias[x & 15];
        v = v > lo ? v : lo;
        v = v < hi ? v : hi;
        d[x] = (int)v;
    }
}

/* matrix() with c0 read from samples: the unpack of the first row fused into the matrix */
static decl_cspfix_matrix_in_fn(FUNC(matrix_in))
{
    const pixel *s = (const pixel *)src;
    for (int x = 0; x < w; x++) {
        const float a = s[x], b = c1[x], c = c2[x];
        c0[x] = fmaf(m[2],  c, fmaf(m[1], b, fmaf(m[0], a, m[3])));
        c1[x] = fmaf(m[6],  c, fmaf(m[5], b, fmaf(m[4], a, m[7])));
        c2[x] = fmaf(m[10], c, fmaf(m[9], b, fmaf(m[8], a, m[11])));
    }
}

/* matrix() whose first output row goes through pack() to samples instead of c0 */
static decl_cspfix_matrix_out_fn(FUNC(matrix_out))
{
    pixel *d = (pixel *)dst;
    for (int x = 0; x < w; x++) {
        const float a = c0[x], b = c1[x], c = c2[x];
        float v = fmaf(m[2], c, fmaf(m[1], b, fmaf(m[0], a, m[3])));
        c1[x] = fmaf(m[6],  c, fmaf(m[5], b, fmaf(m[4], a, m[7])));
        c2[x] = fmaf(m[10], c, fmaf(m[9], b, fmaf(m[8], a, m[11])));
        v = v + bias[x & 15];
        v = v > lo ? v : lo;
        v = v < hi ? v : hi;
        d[x] = (int)v;
    }
}

static av_always_inline int FUNC(pack1)(float v, float bias, float lo, float hi)
{
    v = v + bias;
    v = v > lo ? v : lo;
    v = v < hi ? v : hi;
    return (int)v;
}

static decl_cspfix_yrow_fn(FUNC(yrow))
{
    const pixel *s = (const pixel *)src;
    pixel *d = (pixel *)dst;
    for (int x = 0; x < w; x++) {
        const float v = fmaf(m[2], c2[x], fmaf(m[1], c1[x], fmaf(m[0], (float)s[x], m[3])));
        d[x] = FUNC(pack1)(v, bias[x & 15], lo, hi);
    }
}

static decl_cspfix_crow_fn(FUNC(crow))
{
    const pixel *scb = (const pixel *)cb, *scr = (const pixel *)cr;
    pixel *pcb = (pixel *)dcb, *pcr = (pixel *)dcr;
    for (int x = 0; x < w; x++) {
        const float b = scb[x], c = scr[x];
        const float u = fmaf(p->k[0][1], c, fmaf(p->k[0][0], b, p->k[0][2]));
        const float v = fmaf(p->k[1][1], c, fmaf(p->k[1][0], b, p->k[1][2]));
        pcb[x] = FUNC(pack1)(u, bias_cb[x & 15], p->lo[0], p->hi[0]);
        pcr[x] = FUNC(pack1)(v, bias_cr[x & 15], p->lo[1], p->hi[1]);
    }
}

#undef pixel
#undef FUNC
#undef FUNC1
#undef FUNC2
