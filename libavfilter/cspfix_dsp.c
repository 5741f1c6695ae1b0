/*
 * cspfix: DSP functions (C reference kernels)
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

#include "config.h"
#include "libavutil/attributes.h"

#include "cspfix_dsp.h"

#define BIT_DEPTH 8
#include "cspfix_dsp_template.c"
#undef BIT_DEPTH

#define BIT_DEPTH 16
#include "cspfix_dsp_template.c"
#undef BIT_DEPTH

static void affine_c(float *c, int w, float s, float o)
{
    for (int x = 0; x < w; x++)
        c[x] = c[x] * s + o;
}

static void matrix_c(float *c0, float *c1, float *c2, int w, const float m[12])
{
    for (int x = 0; x < w; x++) {
        const float a = c0[x], b = c1[x], c = c2[x];
        c0[x] = ((m[0] * a + m[1]  * b) + m[2]  * c) + m[3];
        c1[x] = ((m[4] * a + m[5]  * b) + m[6]  * c) + m[7];
        c2[x] = ((m[8] * a + m[9]  * b) + m[10] * c) + m[11];
    }
}

static void tf_c(float *c, int w, const CspfixTFTable *t)
{
    for (int x = 0; x < w; x++)
        c[x] = ff_cspfix_tf_eval(t, c[x]);
}

static void ootf_c(float *c0, float *c1, float *c2, int w, const float k[3],
                   const CspfixTFTable *t)
{
    for (int x = 0; x < w; x++) {
        const float y = (k[0] * c0[x] + k[1] * c1[x]) + k[2] * c2[x];
        const float s = ff_cspfix_tf_eval(t, y);
        c0[x] *= s;
        c1[x] *= s;
        c2[x] *= s;
    }
}

static void cl_decode_c(float *c0, float *c1, float *c2, int w, const CspfixCLParams *p)
{
    for (int x = 0; x < w; x++) {
        const float yp = c0[x], cb = c1[x], cr = c2[x];
        const float bp = yp + (cb <= 0.0f ? p->nb2 : p->pb2) * cb;
        const float rp = yp + (cr <= 0.0f ? p->nr2 : p->pr2) * cr;
        const float y  = ff_cspfix_tf_eval(p->to_light, yp);
        const float r  = ff_cspfix_tf_eval(p->to_light, rp);
        const float b  = ff_cspfix_tf_eval(p->to_light, bp);
        const float g  = ((y - p->kr * r) - p->kb * b) * p->kg_inv;
        c0[x] = rp;
        c1[x] = ff_cspfix_tf_eval(p->to_signal, g);
        c2[x] = bp;
    }
}

static void cl_encode_c(float *c0, float *c1, float *c2, int w, const CspfixCLParams *p)
{
    for (int x = 0; x < w; x++) {
        const float rp = c0[x], gp = c1[x], bp = c2[x];
        const float r  = ff_cspfix_tf_eval(p->to_light, rp);
        const float g  = ff_cspfix_tf_eval(p->to_light, gp);
        const float b  = ff_cspfix_tf_eval(p->to_light, bp);
        const float yp = ff_cspfix_tf_eval(p->to_signal, (p->kr * r + p->kg * g) + p->kb * b);
        const float db = bp - yp, dr = rp - yp;
        c0[x] = yp;
        c1[x] = db * (db <= 0.0f ? p->nb2_inv : p->pb2_inv);
        c2[x] = dr * (dr <= 0.0f ? p->nr2_inv : p->pr2_inv);
    }
}

static void clip_c(float *c, int w, float lo, float hi)
{
    for (int x = 0; x < w; x++) {
        float v = c[x] > lo ? c[x] : lo;
        c[x] = v < hi ? v : hi;
    }
}

static void upsample_h_c(float *dst, const float *src, int w, int hsub)
{
    for (int x = 0; x < w; x++)
        dst[x] = src[x >> hsub];
}

static void downsample_c(float *dst, const float *a, const float *b, int w, int hsub)
{
    if (!hsub) {
        for (int x = 0; x < w; x++)
            dst[x] = (a[x] + b[x]) * 0.5f;
        return;
    }
    for (int x = 0; x < w >> 1; x++)
        dst[x] = ((a[2 * x] + a[2 * x + 1]) + (b[2 * x] + b[2 * x + 1])) * 0.25f;
    if (w & 1)
        dst[w >> 1] = (a[w - 1] + b[w - 1]) * 0.5f;
}

av_cold void ff_cspfix_dsp_init(CspfixDSPContext *dsp)
{
    dsp->unpack[0]  = unpack_8;
    dsp->unpack[1]  = unpack_16;
    dsp->pack[0]    = pack_8;
    dsp->pack[1]    = pack_16;
    dsp->affine     = affine_c;
    dsp->matrix     = matrix_c;
    dsp->tf         = tf_c;
    dsp->ootf       = ootf_c;
    dsp->cl_decode  = cl_decode_c;
    dsp->cl_encode  = cl_encode_c;
    dsp->clip       = clip_c;
    dsp->upsample_h = upsample_h_c;
    dsp->downsample = downsample_c;
}
