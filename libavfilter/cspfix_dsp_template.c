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

#undef pixel
#undef FUNC
#undef FUNC1
#undef FUNC2
