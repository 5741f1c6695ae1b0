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
#include <math.h>

#include "libavutil/attributes.h"
#include "libavutil/common.h"
#include "libavutil/error.h"
#include "libavutil/intfloat.h"
#include "libavutil/intreadwrite.h"
#include "libavutil/mem_internal.h"

#include "cspfix_dsp.h"

#define BIT_DEPTH 8
#include "cspfix_dsp_template.c"
#undef BIT_DEPTH

#define BIT_DEPTH 16
#include "cspfix_dsp_template.c"
#undef BIT_DEPTH

/* The order of the operations is the SIMD kernels' (bit-exact): the row above's
 * share, the sample and the clamp first, then this row's error at s - 1, so that
 * only that last fused multiply-add and the rounding are on the chain from one
 * sample to the next. q is v rounded to the nearest integer, ties to even (rintf in
 * the default rounding mode). |e| <= 1/2, so v is within 7/32 of [lo, hi] (integers)
 * and q in [lo, hi]. */
static decl_cspfix_dither_ed_fn(dither_ed_c)
{
    for (int i = 0; i < n; i++) {
        float *c = rows[i];
        float up0 = err[0], up1 = err[1], ep = 0.0f;

        for (int s = 0; s < w; s++) {
            const float up2 = err[s + 2];
            float v = fmaf(up2, 3.0f / 16, fmaf(up1, 5.0f / 16, up0 * (1.0f / 16))), q;

            v = c[s] + v;
            v = v > lo ? v : lo;
            v = v < hi ? v : hi;
            v = fmaf(ep, 7.0f / 16, v);
            q = rintf(v);
            c[s]   = q;
            err[s] = ep;            /* this row's error at s - 1 (read up0 already) */
            ep  = v - q;
            up0 = up1;
            up1 = up2;
        }
        err[w] = ep;
    }
}

static decl_cspfix_map8_fn(map8_c)
{
    for (int y = 0; y < h; y++) {
        for (int x = 0; x < w; x++) {
            const int v = (src[x] * m->mul) >> 8;
            dst[x] = av_clip((v + m->add) >> m->shift, m->lo, m->hi);
        }
        dst += dst_stride;
        src += src_stride;
    }
}

static decl_cspfix_map16_fn(map16_c)
{
    for (int y = 0; y < h; y++) {
        for (int x = 0; x < w; x++) {
            float v = (float)src[x] * m->s + m->o;
            v = v + 0.5f;
            v = v > m->lo ? v : m->lo;
            v = v < m->hi ? v : m->hi;
            dst[x] = (int)v;
        }
        dst = (uint16_t *)((uint8_t *)dst + dst_stride);
        src = (const uint16_t *)((const uint8_t *)src + src_stride);
    }
}

static decl_cspfix_affine_fn(affine_c)
{
    for (int x = 0; x < w; x++)
        c[x] = c[x] * s + o;
}

static decl_cspfix_matrix_fn(matrix_c)
{
    for (int x = 0; x < w; x++) {
        const float a = c0[x], b = c1[x], c = c2[x];
        c0[x] = fmaf(m[2],  c, fmaf(m[1], b, fmaf(m[0], a, m[3])));
        c1[x] = fmaf(m[6],  c, fmaf(m[5], b, fmaf(m[4], a, m[7])));
        c2[x] = fmaf(m[10], c, fmaf(m[9], b, fmaf(m[8], a, m[11])));
    }
}

static decl_cspfix_tf_fn(tf_c)
{
    for (int x = 0; x < w; x++) {
        c0[x] = ff_cspfix_tf_eval_row(t, c0[x]);
        c1[x] = ff_cspfix_tf_eval_row(t, c1[x]);
        c2[x] = ff_cspfix_tf_eval_row(t, c2[x]);
    }
}

static decl_cspfix_lut_fn(lut_c)
{
    for (int x = 0; x < w; x++)
        c[x] = lut[FFMIN((int)c[x], n - 1)];
}

static decl_cspfix_lut8_fn(lut8_c)
{
    for (int x = 0; x < w; x++)
        dst[x] = lut[src[x]];
}

static decl_cspfix_ootf_fn(ootf_c)
{
    for (int x = 0; x < w; x++) {
        const float y = (k[0] * c0[x] + k[1] * c1[x]) + k[2] * c2[x];
        const float s = ff_cspfix_tf_eval(t, y);
        c0[x] *= s;
        c1[x] *= s;
        c2[x] *= s;
    }
}

static decl_cspfix_cl_fn(cl_decode_c)
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

static decl_cspfix_cl_fn(cl_encode_c)
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

static decl_cspfix_clip_fn(clip_c)
{
    for (int x = 0; x < w; x++) {
        float v = c[x] > lo ? c[x] : lo;
        c[x] = v < hi ? v : hi;
    }
}

static av_always_inline void tonemap_row(CSPFIX_TONEMAP_ARGS, int first)
{
    /* read once: the rows' stores may alias the table for the compiler */
    const float scale = gain->in_scale[0], lo = gain->in_floor[0];

    for (int x = 0; x < w; x++) {
        const float ab = c0[x] > c1[x] ? c0[x] : c1[x];
        const float ms = (first ? c0[x] : ab > c2[x] ? ab : c2[x]) * scale;
        const float m  = ms > lo ? ms : lo;
        const float g  = ff_cspfix_tf_eval(gain, m);
        const float r = c0[x] * g, gg = c1[x] * g, b = c2[x] * g;
        if (desat) {
            const float d = ff_cspfix_tf_eval(desat, m);
            const float y = (k[0] * r + k[1] * gg) + k[2] * b;
            c0[x] = r  + d * (y - r);
            c1[x] = gg + d * (y - gg);
            c2[x] = b  + d * (y - b);
        } else {
            c0[x] = r;
            c1[x] = gg;
            c2[x] = b;
        }
    }
}

static decl_cspfix_tonemap_fn(tonemap_c)
{
    tonemap_row(c0, c1, c2, w, k, gain, desat, 0);
}

static decl_cspfix_tonemap_fn(tonemap_i_c)
{
    tonemap_row(c0, c1, c2, w, k, gain, desat, 1);
}

static decl_cspfix_gamut_desat_fn(gamut_desat_c)
{
    for (int x = 0; x < w; x++) {
        const float r = c0[x], g = c1[x], b = c2[x];
        const float mn0 = r < g ? r : g, mn = mn0 < b ? mn0 : b;
        const float mx0 = r > g ? r : g, mx = mx0 > b ? mx0 : b;
        float y = (k[0] * r + k[1] * g) + k[2] * b, t = 1.0f, o = 0.0f, v;
        y = y > 0.0f ? y : 0.0f;
        y = y < hi ? y : hi;
        /* c' = y + t (c - y) written as t c + o, with o anchored on the component that
         * limits t, so that it lands exactly on 0 or hi */
        if (mn < 0.0f) {
            v = y / (y - mn);
            if (v < t) {
                t = v;
                o = -(v * mn);
            }
        }
        if (mx > hi) {
            v = (hi - y) / (mx - y);
            if (v < t) {
                t = v;
                o = hi - v * mx;
            }
        }
        v = t * r + o;
        v = v > 0.0f ? v : 0.0f;
        c0[x] = v < hi ? v : hi;
        v = t * g + o;
        v = v > 0.0f ? v : 0.0f;
        c1[x] = v < hi ? v : hi;
        v = t * b + o;
        v = v > 0.0f ? v : 0.0f;
        c2[x] = v < hi ? v : hi;
    }
}

static inline float clamp01(float x)
{
    x = x > 0.0f ? x : 0.0f;
    return x < 1.0f ? x : 1.0f;
}

static decl_cspfix_lut3d_fn(lut3d_c)
{
    const int m = n - 1;
    const ptrdiff_t dr = 3, dg = 3 * n, db = 3 * n * n;

    for (int x = 0; x < w; x++) {
        /* clamped as (x > 0 ? x : 0) < 1 ? . : 1, not by fmaxf/fminf: any NaN, signalling
         * ones too, gives 0 on every build (as the SIMD twins' maxps) */
        const float r = clamp01(c0[x]) * m;
        const float g = clamp01(c1[x]) * m;
        const float b = clamp01(c2[x]) * m;
        const int ir = FFMIN((int)r, m - 1), ig = FFMIN((int)g, m - 1), ib = FFMIN((int)b, m - 1);
        const float fr = r - ir, fg = g - ig, fb = b - ib;
        const float *p0 = t + ib * db + ig * dg + ir * dr, *p3 = p0 + dr + dg + db;
        const float *p1, *p2;
        float w0, w1, w2, w3;

        /* the tetrahedron of the cube's diagonal that holds the point: corners p0, p1
         * (one step), p2 (two steps), p3 (three), weights from the sorted fractions */
        if (fr > fg) {
            if (fg > fb) {
                p1 = p0 + dr; p2 = p1 + dg; w1 = fr - fg; w2 = fg - fb; w3 = fb; w0 = 1.0f - fr;
            } else if (fr > fb) {
                p1 = p0 + dr; p2 = p1 + db; w1 = fr - fb; w2 = fb - fg; w3 = fg; w0 = 1.0f - fr;
            } else {
                p1 = p0 + db; p2 = p1 + dr; w1 = fb - fr; w2 = fr - fg; w3 = fg; w0 = 1.0f - fb;
            }
        } else {
            if (fb > fg) {
                p1 = p0 + db; p2 = p1 + dg; w1 = fb - fg; w2 = fg - fr; w3 = fr; w0 = 1.0f - fb;
            } else if (fb > fr) {
                p1 = p0 + dg; p2 = p1 + db; w1 = fg - fb; w2 = fb - fr; w3 = fr; w0 = 1.0f - fg;
            } else {
                p1 = p0 + dg; p2 = p1 + dr; w1 = fg - fr; w2 = fr - fb; w3 = fb; w0 = 1.0f - fg;
            }
        }
        c0[x] = w0 * p0[0] + w1 * p1[0] + w2 * p2[0] + w3 * p3[0];
        c1[x] = w0 * p0[1] + w1 * p1[1] + w2 * p2[1] + w3 * p3[1];
        c2[x] = w0 * p0[2] + w1 * p1[2] + w2 * p2[2] + w3 * p3[2];
    }
}

static decl_cspfix_gamut_compress_fn(gamut_compress_c)
{
    float *const c[3] = { c0, c1, c2 };
    const float omt = 1.0f - thr;

    for (int x = 0; x < w; x++) {
        const float ab = c0[x] > c1[x] ? c0[x] : c1[x];
        const float a  = ab > c2[x] ? ab : c2[x];
        for (int i = 0; i < 3; i++) {
            /* d = (a - v) / a is compressed above thr to thr + e / (1 + e sinv), e = d - thr:
             * with n = (a - v) - thr a = e a, v becomes a (1 - thr - n / (a + sinv n)), one
             * division, and d > thr is n > 0 */
            const float n = fmaf(-thr, a, a - c[i][x]);
            float v = c[i][x];
            if (a > 0.0f && n > 0.0f)
                v = a * (omt - n / fmaf(sinv[i], n, a));
            v = v > 0.0f ? v : 0.0f;
            c[i][x] = v < hi ? v : hi;
        }
    }
}

static decl_cspfix_unpack_s8_fn(unpack_s8_c)
{
    for (int x = 0; x < w; x++)
        dst[x] = src[x * step];
}

static decl_cspfix_unpack_s16_fn(unpack_s16_c)
{
    for (int x = 0; x < w; x++)
        dst[x] = (AV_RL16(src + x * step) >> shift) & mask;
}

static decl_cspfix_unpack_f32_fn(unpack_f32_c)
{
    for (int x = 0; x < w; x++)
        dst[x] = av_int2float(AV_RL32(src + x * step));
}

static av_always_inline int quantize(float v, float bias, float lo, float hi)
{
    v = v + bias;
    v = v > lo ? v : lo;
    v = v < hi ? v : hi;
    return (int)v;
}

static decl_cspfix_pack_s8_fn(pack_s8_c)
{
    for (int x = 0; x < w; x++)
        dst[x * step] = quantize(src[x], bias[x & 15], lo, hi);
}

static decl_cspfix_unpack_fn(unpack_x2_8_c)
{
    unpack_s8_c(dst, src, w, 2);
}

static decl_cspfix_pack_fn(pack_x2_8_c)
{
    pack_s8_c(dst, src, w, 2, bias, lo, hi);
}

static decl_cspfix_unpack_fn(unpack_x3_8_c)
{
    unpack_s8_c(dst, src, w, 3);
}

static decl_cspfix_pack_fn(pack_x3_8_c)
{
    pack_s8_c(dst, src, w, 3, bias, lo, hi);
}

static decl_cspfix_unpack_fn(unpack_x4_8_c)
{
    unpack_s8_c(dst, src, w, 4);
}

static decl_cspfix_pack_fn(pack_x4_8_c)
{
    pack_s8_c(dst, src, w, 4, bias, lo, hi);
}

static decl_cspfix_pack_s16_fn(pack_s16_c)
{
    for (int x = 0; x < w; x++)
        AV_WL16(dst + x * step, quantize(src[x], bias[x & 15], lo, hi) << shift);
}

static decl_cspfix_pack_f32_fn(pack_f32_c)
{
    for (int x = 0; x < w; x++)
        AV_WL32(dst + x * step, av_float2int(src[x]));
}

static decl_cspfix_pack_x2rgb10_fn(pack_x2rgb10_c)
{
    for (int x = 0; x < w; x++) {
        const float d = bias[x & 15];
        AV_WL32(dst + 4 * x, (unsigned)quantize(r[x], d, lo, hi) << 20 |
                             (unsigned)quantize(g[x], d, lo, hi) << 10 |
                             (unsigned)quantize(b[x], d, lo, hi));
    }
}

static decl_cspfix_resample_fn(upsample_h2_c)
{
    const int last = (w + 1) / 2 - 1;
    for (int x = 0; x < w; x++) {
        const int k = x >> 1;
        if (!phase) {
            dst[x] = (x & 1) ? (src[k] + src[FFMIN(k + 1, last)]) * 0.5f : src[k];
        } else if (x & 1) {
            dst[x] = src[k] * 0.75f + src[FFMIN(k + 1, last)] * 0.25f;
        } else {
            dst[x] = src[FFMAX(k - 1, 0)] * 0.25f + src[k] * 0.75f;
        }
    }
}

static decl_cspfix_resample_fn(downsample_h2_c)
{
    const int cw = (w + 1) / 2;
    for (int k = 0; k < cw; k++) {
        const float a = src[FFMAX(2 * k - 1, 0)], b = src[2 * k];
        const float c = src[FFMIN(2 * k + 1, w - 1)], d = src[FFMIN(2 * k + 2, w - 1)];
        dst[k] = phase ? ((a + d) + (b + c) * 3.0f) * 0.125f : ((a + b) + (b + c)) * 0.25f;
    }
}

static decl_cspfix_blend_fn(blend_c)
{
    for (int x = 0; x < w; x++)
        dst[x] = a[x] * wa + b[x] * wb;
}

static decl_cspfix_filter3_fn(filter3_c)
{
    for (int x = 0; x < w; x++)
        dst[x] = ((a[x] + b[x]) + (b[x] + c[x])) * 0.25f;
}

static decl_cspfix_filter4_fn(filter4_c)
{
    for (int x = 0; x < w; x++)
        dst[x] = ((a[x] + d[x]) + (b[x] + c[x]) * 3.0f) * 0.125f;
}

/* ---- integer matrix-only path ---- */

static av_always_inline int imat2(const CspfixIMat2 *m, int u, int v, int shift)
{
    return av_clip((m->c[0] * u + m->c[1] * v + m->c[2]) >> shift, m->lo, m->hi);
}

/* iluma's h: the deltas d interpolated to luma sample x (weights summing to 4) */
static av_always_inline int32_t iluma_h(const int32_t *d, int x, int phase)
{
    const int k = x >> 1;
    if (!phase)
        return x & 1 ? 2 * (d[k] + d[k + 1]) : 4 * d[k];
    return x & 1 ? 3 * d[k] + d[k + 1] : d[k - 1] + 3 * d[k];
}

static decl_cspfix_ichroma8_fn(ichroma_c)
{
    for (int x = 0; x < w; x++) {
        const int u = cb[x] - CSPFIX_YUVINT_MID8, v = cr[x] - CSPFIX_YUVINT_MID8;
        dcb[x] = imat2(&p->cb, u, v, CSPFIX_YUVINT_SHIFT8);
        dcr[x] = imat2(&p->cr, u, v, CSPFIX_YUVINT_SHIFT8);
    }
}

static decl_cspfix_idelta8_fn(idelta_c)
{
    for (int x = 0; x < w; x++)
        dst[x] = (c[0] * (cb[x] - CSPFIX_YUVINT_MID8) + c[1] * (cr[x] - CSPFIX_YUVINT_MID8) +
                  c[2]) >> CSPFIX_YUVINT_DSHIFT;
}

static decl_cspfix_ivblend_fn(ivblend_c)
{
    for (int k = -1; k <= n; k++)
        dst[k] = 4 * da[k] + wb * (db[k] - da[k]);
}

static decl_cspfix_ivblend_fn(ivblend8_c)
{
    for (int k = -1; k <= n; k++)
        dst[k] = (8 * da[k] + wb * (db[k] - da[k]) + 1) >> 1;
}

static decl_cspfix_iluma8_fn(iluma_c)
{
    for (int x = 0; x < w; x++)
        dst[x] = av_clip((p->a * y[x] + iluma_h(d, x, phase)) >> CSPFIX_YUVINT_SHIFT8,
                         p->lo, p->hi);
}

static decl_cspfix_ichroma16_fn(ichroma16_c)
{
    const int mid = (p->mask + 1) >> 1;
    for (int x = 0; x < w; x++) {
        const int u = (cb[x] & p->mask) - mid, v = (cr[x] & p->mask) - mid;
        dcb[x] = imat2(&p->cb, u, v, p->shift);
        dcr[x] = imat2(&p->cr, u, v, p->shift);
    }
}

static decl_cspfix_idelta16_fn(idelta16_c)
{
    const int mid = (p->mask + 1) >> 1;
    for (int x = 0; x < w; x++)
        dst[x] = (p->dc[0] * ((cb[x] & p->mask) - mid) + p->dc[1] * ((cr[x] & p->mask) - mid) +
                  p->dc[2]) >> CSPFIX_YUVINT_DSHIFT;
}

static decl_cspfix_iluma16_fn(iluma16_c)
{
    for (int x = 0; x < w; x++)
        dst[x] = av_clip((p->a * (y[x] & p->mask) + iluma_h(d, x, phase)) >> p->shift,
                         p->lo, p->hi);
}

static decl_cspfix_dovi_mmr_fn(dovi_mmr_c)
{
    const float lo = k[22][0], hi = k[23][0];

    for (int x = 0; x < w; x++) {
        const float a = x0[x], b = x1[x], c = x2[x], ab = a * b;
        const float t[7] = { a, b, c, ab, a * c, b * c, ab * c };
        float y = k[0][0];
        for (int i = 0; i < 7; i++)
            y = fmaf(t[i], fmaf(t[i], fmaf(t[i], k[3 + 3 * i][0], k[2 + 3 * i][0]),
                                k[1 + 3 * i][0]), y);
        y = FFMIN(FFMAX(y, lo), hi);
        dst[x] = (int)fmaf(y, 65535.0f, 0.5f);
    }
}

static decl_cspfix_dovi_lut_fn(dovi_lut_c)
{
    for (int x = 0; x < w; x++)
        dst[x] = lut[FFMIN(src[x], max)];
}

static decl_cspfix_dovi_norm_fn(dovi_norm_c)
{
    for (int x = 0; x < w; x++)
        dst[x] = FFMIN(src[x], n->max) * n->inv;
}

static decl_cspfix_dovi_mean_fn(dovi_mean420_c)
{
    const int max = n->max;
    for (int x = 0; x < w; x++)
        dst[x] = (FFMIN(y0[2 * x], max) + FFMIN(y0[2 * x + 1], max) +
                  FFMIN(y1[2 * x], max) + FFMIN(y1[2 * x + 1], max)) * n->inv4;
}

/* the codes: 16-bit, of either endianness */
#define RD16(p, x)    (be ? AV_RB16((p) + 2 * (x)) : AV_RL16((p) + 2 * (x)))
#define WR16(p, x, v) do { if (be) AV_WB16((p) + 2 * (x), v); else AV_WL16((p) + 2 * (x), v); } while (0)

decl_cspfix_ycgcor_fn(ff_cspfix_ycgcor_to_rgb_c)
{
    for (int x = 0; x < w; x++) {
        const int cg = RD16(s1, x) - off, co = RD16(s2, x) - off;
        const int t  = RD16(s0, x) - (cg >> 1);
        const int b  = t - (co >> 1);
        /* R from the unclamped B (the standard's equations), then each clamped: a
         * no-op on any signal a forward lifting made */
        const int g = av_clip(t + cg, 0, max), r = av_clip(b + co, 0, max);
        if (max > 255) {
            ((uint16_t *)d0)[x] = g;
            ((uint16_t *)d1)[x] = av_clip(b, 0, max);
            ((uint16_t *)d2)[x] = r;
        } else {
            d0[x] = g;
            d1[x] = av_clip(b, 0, max);
            d2[x] = r;
        }
    }
}

decl_cspfix_ycgcor_fn(ff_cspfix_ycgcor_from_rgb_c)
{
    for (int x = 0; x < w; x++) {
        /* samples above N bits (padding bits set) are clipped to N bits */
        const int g = max > 255 ? FFMIN(((const uint16_t *)s0)[x], max) : s0[x];
        const int b = max > 255 ? FFMIN(((const uint16_t *)s1)[x], max) : s1[x];
        const int r = max > 255 ? FFMIN(((const uint16_t *)s2)[x], max) : s2[x];
        const int co = r - b;
        const int t  = b + (co >> 1);
        const int cg = g - t;
        WR16(d0, x, t + (cg >> 1));
        WR16(d1, x, cg + off);
        WR16(d2, x, co + off);
    }
}

av_cold void ff_cspfix_dsp_init(CspfixDSPContext *dsp)
{
    dsp->stage = (CspfixStageDSP){
        .matrix         = matrix_c,
        .affine         = affine_c,
        .tf             = tf_c,
        .ootf           = ootf_c,
        .cl_decode      = cl_decode_c,
        .cl_encode      = cl_encode_c,
        .clip           = clip_c,
        .tonemap        = tonemap_c,
        .tonemap_i      = tonemap_i_c,
        .gamut_desat    = gamut_desat_c,
        .gamut_compress = gamut_compress_c,
        .lut3d          = lut3d_c,
    };
    dsp->fused = (CspfixFusedDSP){
        .matrix_in  = { matrix_in_8,  matrix_in_16  },
        .matrix_out = { matrix_out_8, matrix_out_16 },
        .yrow       = { yrow_8,       yrow_16       },
        .crow       = { crow_8,       crow_16       },
    };
    dsp->io = (CspfixIODSP){
        .unpack       = { unpack_8, unpack_16 },
        .pack         = { pack_8,   pack_16   },
        .dither_ed    = dither_ed_c,
        .unpack_s8    = unpack_s8_c,
        .unpack_s16   = unpack_s16_c,
        .unpack_f32   = unpack_f32_c,
        .unpack_x2_8  = unpack_x2_8_c,
        .pack_x2_8    = pack_x2_8_c,
        .unpack_x3_8  = unpack_x3_8_c,
        .pack_x3_8    = pack_x3_8_c,
        .unpack_x4_8  = unpack_x4_8_c,
        .pack_x4_8    = pack_x4_8_c,
        .pack_s8      = pack_s8_c,
        .pack_s16     = pack_s16_c,
        .pack_f32     = pack_f32_c,
        .pack_x2rgb10 = pack_x2rgb10_c,
        .lut          = lut_c,
        .lut8         = lut8_c,
        .map8         = map8_c,
        .map16        = map16_c,
    };
    dsp->chroma = (CspfixChromaDSP){
        .upsample_h2   = upsample_h2_c,
        .downsample_h2 = downsample_h2_c,
        .blend         = blend_c,
        .filter3       = filter3_c,
        .filter4       = filter4_c,
    };
    dsp->yuvint = (CspfixYuvIntDSP){
        .ichroma   = ichroma_c,
        .idelta    = idelta_c,
        .ivblend   = ivblend_c,
        .ivblend8  = ivblend8_c,
        .iluma     = iluma_c,
        .ichroma16 = ichroma16_c,
        .idelta16  = idelta16_c,
        .iluma16   = iluma16_c,
    };
    dsp->dovi = (CspfixDoviDSP){
        .mmr     = dovi_mmr_c,
        .lut     = dovi_lut_c,
        .norm    = dovi_norm_c,
        .mean420 = dovi_mean420_c,
    };
    dsp->ycgcor = (CspfixYcgcorDSP){
        .to_rgb   = { ff_cspfix_ycgcor_to_rgb_c, ff_cspfix_ycgcor_to_rgb_c },
        .from_rgb = { ff_cspfix_ycgcor_from_rgb_c, ff_cspfix_ycgcor_from_rgb_c },
    };
#if ARCH_X86
    ff_cspfix_dsp_init_x86(dsp);
#endif
}
