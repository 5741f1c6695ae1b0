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

static void dither_ed_c(float *c, int w, float *cur, float *next, float lo, float hi)
{
    for (int x = 0; x < w; x++) {
        float v = c[x] + cur[x + 1], q, e;
        v = v > lo ? v : lo;
        v = v < hi ? v : hi;
        q = (float)(int)(v + 0.5f);
        q = q < hi ? q : hi;
        e = v - q;
        cur[x + 2]  += e * (7.0f / 16);
        next[x]     += e * (3.0f / 16);
        next[x + 1] += e * (5.0f / 16);
        next[x + 2] += e * (1.0f / 16);
        c[x] = q;
    }
}

static void map8_c(uint8_t *dst, const uint8_t *src, int w, const CspfixMap8 *m)
{
    for (int x = 0; x < w; x++) {
        const int v = (src[x] * m->mul) >> 8;
        dst[x] = av_clip((v + m->add) >> m->shift, m->lo, m->hi);
    }
}

static void map16_c(uint16_t *dst, const uint16_t *src, int w, const CspfixMap16 *m)
{
    for (int x = 0; x < w; x++) {
        float v = (float)src[x] * m->s + m->o;
        v = v + 0.5f;
        v = v > m->lo ? v : m->lo;
        v = v < m->hi ? v : m->hi;
        dst[x] = (int)v;
    }
}

/* one code through the integer map, or -1 if an intermediate leaves int16 */
static int map8_code(int x, int mul, int add, int shift, int lo, int hi)
{
    const int v = (x * mul) >> 8;
    if (v + add < INT16_MIN || v + add > INT16_MAX)
        return -1;
    return av_clip((v + add) >> shift, lo, hi);
}

void ff_cspfix_map8_set_clip(CspfixMap8 *m)
{
    m->clip = 0;
    for (int x = 0; x < 256; x++) {
        const int r = av_clip_uint8(((x * m->mul >> 8) + m->add) >> m->shift);
        if (r < m->lo || r > m->hi)
            m->clip = 1;
    }
}

int ff_cspfix_map8_init(CspfixMap8 *m, const CspfixDSPContext *dsp, float s, float o,
                        float lo, float hi)
{
    DECLARE_ALIGNED(32, float, row)[256 + 16];
    DECLARE_ALIGNED(32, float, bias)[16];
    uint8_t want[256];
    int ilo, ihi;

    if (!(s > 0.0f) || s >= 2.0f || !(lo >= 0.0f) || !(hi <= 255.0f) || !(lo <= hi))
        return AVERROR(EINVAL);
    ilo = (int)lo;
    ihi = (int)hi;
    if (ilo != lo || ihi != hi)
        return AVERROR(EINVAL);
    /* what the float kernels give */
    for (int x = 0; x < 256 + 16; x++)
        row[x] = x < 256 ? x : 0.0f;
    for (int i = 0; i < 16; i++)
        bias[i] = 0.5f;
    dsp->affine(row, 256, s, o);
    dsp->pack[0](want, row, 256, bias, lo, hi);

    for (int shift = 7; shift >= 0; shift--) {
        const double scale = ldexp(1.0, shift);
        const long mul0 = lrint(s * scale * 256.0);
        /* + 0.5 for the rounding, + 0.5 for the floor of v */
        const long add0 = lrint((o + 0.5) * scale + 0.5);
        if (mul0 > UINT16_MAX)
            continue;
        for (int dm = 0; dm <= 4; dm++) {
            for (int da = 0; da <= 8; da++) {
                const long mul = mul0 + (dm & 1 ? -(dm + 1) / 2 : dm / 2);
                const long add = add0 + (da & 1 ? -(da + 1) / 2 : da / 2);
                int x;
                if (mul < 0 || mul > UINT16_MAX || add < INT16_MIN || add > INT16_MAX)
                    continue;
                for (x = 0; x < 256; x++)
                    if (map8_code(x, mul, add, shift, ilo, ihi) != want[x])
                        break;
                if (x == 256) {
                    *m = (CspfixMap8){ .mul = mul, .add = add, .shift = shift,
                                       .lo = ilo, .hi = ihi };
                    ff_cspfix_map8_set_clip(m);
                    return 0;
                }
            }
        }
    }
    return AVERROR(ERANGE);
}

void ff_cspfix_crow_init(CspfixCRow *p, const float m[12], float lo_cb, float hi_cb,
                         float lo_cr, float hi_cr)
{
    for (int r = 0; r < 2; r++) {
        const float *row = m + 4 * (r + 1);
        p->k[r][0] = row[1];
        p->k[r][1] = row[2];
        p->k[r][2] = fmaf(row[0], 0.0f, row[3]);
        p->k[r][3] = 0.0f;
    }
    p->lo[0] = lo_cb;
    p->hi[0] = hi_cb;
    p->lo[1] = lo_cr;
    p->hi[1] = hi_cr;
}

static void affine_c(float *c, int w, float s, float o)
{
    for (int x = 0; x < w; x++)
        c[x] = c[x] * s + o;
}

static void matrix_c(float *c0, float *c1, float *c2, int w, const float m[12])
{
    for (int x = 0; x < w; x++) {
        const float a = c0[x], b = c1[x], c = c2[x];
        c0[x] = fmaf(m[2],  c, fmaf(m[1], b, fmaf(m[0], a, m[3])));
        c1[x] = fmaf(m[6],  c, fmaf(m[5], b, fmaf(m[4], a, m[7])));
        c2[x] = fmaf(m[10], c, fmaf(m[9], b, fmaf(m[8], a, m[11])));
    }
}

static void tf_c(float *c0, float *c1, float *c2, int w, const CspfixTFTable *t)
{
    for (int x = 0; x < w; x++) {
        c0[x] = ff_cspfix_tf_eval(t, c0[x]);
        c1[x] = ff_cspfix_tf_eval(t, c1[x]);
        c2[x] = ff_cspfix_tf_eval(t, c2[x]);
    }
}

static void lut_c(float *c, int w, const float *lut, int n)
{
    for (int x = 0; x < w; x++)
        c[x] = lut[FFMIN((int)c[x], n - 1)];
}

static void lut8_c(float *dst, const uint8_t *src, int w, const float *lut)
{
    for (int x = 0; x < w; x++)
        dst[x] = lut[src[x]];
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

static void tonemap_c(float *c0, float *c1, float *c2, int w, const float k[3],
                      const CspfixTFTable *gain, const CspfixTFTable *desat)
{
    for (int x = 0; x < w; x++) {
        const float ab = c0[x] > c1[x] ? c0[x] : c1[x];
        const float m  = ab > c2[x] ? ab : c2[x];
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

static void gamut_desat_c(float *c0, float *c1, float *c2, int w, const float k[3], float hi)
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

static void gamut_compress_c(float *c0, float *c1, float *c2, int w, float thr,
                             const float sinv[3], float hi)
{
    float *const c[3] = { c0, c1, c2 };

    for (int x = 0; x < w; x++) {
        const float ab = c0[x] > c1[x] ? c0[x] : c1[x];
        const float a  = ab > c2[x] ? ab : c2[x];
        const float ai = 1.0f / a;
        for (int i = 0; i < 3; i++) {
            float v = c[i][x];
            const float d = (a - v) * ai;
            if (a > 0.0f && d > thr) {
                const float e = d - thr;
                v = a - (thr + e / (1.0f + e * sinv[i])) * a;
            }
            v = v > 0.0f ? v : 0.0f;
            c[i][x] = v < hi ? v : hi;
        }
    }
}

static void unpack_s8_c(float *dst, const uint8_t *src, int w, int step)
{
    for (int x = 0; x < w; x++)
        dst[x] = src[x * step];
}

static void unpack_s16_c(float *dst, const uint8_t *src, int w, int step, int shift, int mask)
{
    for (int x = 0; x < w; x++)
        dst[x] = (AV_RL16(src + x * step) >> shift) & mask;
}

static void unpack_f32_c(float *dst, const uint8_t *src, int w, int step)
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

static void pack_s8_c(uint8_t *dst, const float *src, int w, int step, const float *bias,
                      float lo, float hi)
{
    for (int x = 0; x < w; x++)
        dst[x * step] = quantize(src[x], bias[x & 15], lo, hi);
}

static void unpack_x2_8_c(float *dst, const uint8_t *src, int w)
{
    unpack_s8_c(dst, src, w, 2);
}

static void pack_x2_8_c(uint8_t *dst, const float *src, int w, const float *bias,
                        float lo, float hi)
{
    pack_s8_c(dst, src, w, 2, bias, lo, hi);
}

static void pack_s16_c(uint8_t *dst, const float *src, int w, int step, int shift,
                       const float *bias, float lo, float hi)
{
    for (int x = 0; x < w; x++)
        AV_WL16(dst + x * step, quantize(src[x], bias[x & 15], lo, hi) << shift);
}

static void pack_f32_c(uint8_t *dst, const float *src, int w, int step)
{
    for (int x = 0; x < w; x++)
        AV_WL32(dst + x * step, av_float2int(src[x]));
}

static void pack_x2rgb10_c(uint8_t *dst, const float *r, const float *g, const float *b, int w,
                           const float *bias, float lo, float hi)
{
    for (int x = 0; x < w; x++) {
        const float d = bias[x & 15];
        AV_WL32(dst + 4 * x, (unsigned)quantize(r[x], d, lo, hi) << 20 |
                             (unsigned)quantize(g[x], d, lo, hi) << 10 |
                             (unsigned)quantize(b[x], d, lo, hi));
    }
}

static void upsample_h2_c(float *dst, const float *src, int w, int phase)
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

static void downsample_h2_c(float *dst, const float *src, int w, int phase)
{
    const int cw = (w + 1) / 2;
    for (int k = 0; k < cw; k++) {
        const float a = src[FFMAX(2 * k - 1, 0)], b = src[2 * k];
        const float c = src[FFMIN(2 * k + 1, w - 1)], d = src[FFMIN(2 * k + 2, w - 1)];
        dst[k] = phase ? ((a + d) + (b + c) * 3.0f) * 0.125f : ((a + b) + (b + c)) * 0.25f;
    }
}

static void blend_c(float *dst, const float *a, const float *b, int w, float wa, float wb)
{
    for (int x = 0; x < w; x++)
        dst[x] = a[x] * wa + b[x] * wb;
}

static void filter3_c(float *dst, const float *a, const float *b, const float *c, int w)
{
    for (int x = 0; x < w; x++)
        dst[x] = ((a[x] + b[x]) + (b[x] + c[x])) * 0.25f;
}

static void filter4_c(float *dst, const float *a, const float *b, const float *c,
                      const float *d, int w)
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

static void ichroma_c(uint8_t *dcb, uint8_t *dcr, const uint8_t *cb, const uint8_t *cr, int w,
                      const CspfixYuvInt *p)
{
    for (int x = 0; x < w; x++) {
        const int u = cb[x] - 128, v = cr[x] - 128;
        dcb[x] = imat2(&p->cb, u, v, 22);
        dcr[x] = imat2(&p->cr, u, v, 22);
    }
}

static void idelta_c(int32_t *dst, const uint8_t *cb, const uint8_t *cr, int w,
                     const int32_t c[3])
{
    for (int x = 0; x < w; x++)
        dst[x] = (c[0] * (cb[x] - 128) + c[1] * (cr[x] - 128) + c[2]) >> 4;
}

static void ivblend_c(int32_t *dst, const int32_t *da, const int32_t *db, int n, int wb)
{
    for (int k = -1; k <= n; k++)
        dst[k] = 4 * da[k] + wb * (db[k] - da[k]);
}

static void ivblend8_c(int32_t *dst, const int32_t *da, const int32_t *db, int n, int wb)
{
    for (int k = -1; k <= n; k++)
        dst[k] = (8 * da[k] + wb * (db[k] - da[k]) + 1) >> 1;
}

static void iluma_c(uint8_t *dst, const uint8_t *y, const int32_t *d, int w, int phase,
                    const CspfixYuvInt *p)
{
    for (int x = 0; x < w; x++)
        dst[x] = av_clip((p->a * y[x] + iluma_h(d, x, phase)) >> 22, p->lo, p->hi);
}

static void ichroma16_c(uint16_t *dcb, uint16_t *dcr, const uint16_t *cb, const uint16_t *cr,
                        int w, const CspfixYuvInt *p)
{
    const int mid = (p->mask + 1) >> 1;
    for (int x = 0; x < w; x++) {
        const int u = (cb[x] & p->mask) - mid, v = (cr[x] & p->mask) - mid;
        dcb[x] = imat2(&p->cb, u, v, p->shift);
        dcr[x] = imat2(&p->cr, u, v, p->shift);
    }
}

static void idelta16_c(int32_t *dst, const uint16_t *cb, const uint16_t *cr, int w,
                       const CspfixYuvInt *p)
{
    const int mid = (p->mask + 1) >> 1;
    for (int x = 0; x < w; x++)
        dst[x] = (p->dc[0] * ((cb[x] & p->mask) - mid) + p->dc[1] * ((cr[x] & p->mask) - mid) +
                  p->dc[2]) >> 4;
}

static void iluma16_c(uint16_t *dst, const uint16_t *y, const int32_t *d, int w, int phase,
                      const CspfixYuvInt *p)
{
    for (int x = 0; x < w; x++)
        dst[x] = av_clip((p->a * (y[x] & p->mask) + iluma_h(d, x, phase)) >> p->shift,
                         p->lo, p->hi);
}

/* x at 2^-shift, |x| < 2^(30 - shift) (256 at 8 bits) */
static int fix(double x, int shift, int64_t *r)
{
    if (!(fabs(x) < ldexp(1.0, 30 - shift)))
        return AVERROR(ERANGE);
    *r = llrint(ldexp(x, shift));
    return 0;
}

/* one output row u*c0 + v*c1 + c2 (plus rnd), checked to stay within int32 for
 * |u|, |v| <= mid */
static int imat_row(int32_t c[3], double cu, double cv, double off, int64_t rnd, int shift,
                    int mid)
{
    int64_t c0, c1, c2;
    int ret;
    if ((ret = fix(cu, shift, &c0)) < 0 || (ret = fix(cv, shift, &c1)) < 0 ||
        (ret = fix(off, shift, &c2)) < 0)
        return ret;
    c2 += rnd;
    if (mid * (FFABS(c0) + FFABS(c1)) + FFABS(c2) >= INT32_MAX)
        return AVERROR(ERANGE);
    c[0] = c0;
    c[1] = c1;
    c[2] = c2;
    return 0;
}

/* c[2] - mid (c[0] + c[1]) modulo 2^32: u * c0 + v * c1 + fold on the samples themselves
 * (the products may wrap, the sum does not) */
static int32_t fold_mid(const int32_t c[3], int mid)
{
    return (int32_t)((uint32_t)c[2] - (uint32_t)mid * ((uint32_t)c[0] + (uint32_t)c[1]));
}

av_cold int ff_cspfix_yuvint_init(CspfixYuvInt *p, const double m[3][4], const float lo[3],
                                  const float hi[3], int depth)
{
    CspfixIMat2 *const cm[3] = { NULL, &p->cb, &p->cr };
    const int shift = 30 - depth, mid = 1 << (depth - 1), maxc = (1 << depth) - 1;
    int64_t a, dmax;
    int ret;

    if (depth < 8 || depth > 10 || m[1][0] != 0.0 || m[2][0] != 0.0)
        return AVERROR(EINVAL);
    for (int i = 0; i < 3; i++)
        if (lo[i] != (int)lo[i] || hi[i] != (int)hi[i] || lo[i] < 0 || hi[i] > maxc || lo[i] > hi[i])
            return AVERROR(EINVAL);
    /* chroma: >> S with rounding */
    for (int i = 1; i < 3; i++) {
        if ((ret = imat_row(cm[i]->c, m[i][1], m[i][2], m[i][3] + mid * (m[i][1] + m[i][2]),
                            1 << (shift - 1), shift, mid)) < 0)
            return ret;
        cm[i]->lo = lo[i];
        cm[i]->hi = hi[i];
    }
    /* luma delta: >> 4 with rounding, plus the final rounding 2^(S-1) / 16 at 2^-(S-4) */
    if ((ret = imat_row(p->dc, m[0][1], m[0][2], m[0][3] + mid * (m[0][1] + m[0][2]),
                        (1 << 3) + (1 << (shift - 1)), shift, mid)) < 0 ||
        (ret = fix(m[0][0], shift, &a)) < 0)
        return ret;
    dmax = (mid * (FFABS((int64_t)p->dc[0]) + FFABS((int64_t)p->dc[1])) + FFABS((int64_t)p->dc[2])) >> 4;
    if (a < 0 || maxc * a + 16 * dmax >= INT32_MAX)
        return AVERROR(ERANGE);
    p->a       = a;
    p->lo      = lo[0];
    p->hi      = hi[0];
    p->shift   = shift;
    p->mask    = maxc;
    p->fold[0] = fold_mid(p->cb.c, mid);
    p->fold[1] = fold_mid(p->cr.c, mid);
    p->fold[2] = fold_mid(p->dc, mid);
    return 0;
}

av_cold void ff_cspfix_dsp_init(CspfixDSPContext *dsp)
{
    dsp->unpack[0]  = unpack_8;
    dsp->unpack[1]  = unpack_16;
    dsp->matrix_in[0]  = matrix_in_8;
    dsp->matrix_in[1]  = matrix_in_16;
    dsp->matrix_out[0] = matrix_out_8;
    dsp->matrix_out[1] = matrix_out_16;
    dsp->yrow[0]       = yrow_8;
    dsp->yrow[1]       = yrow_16;
    dsp->crow[0]       = crow_8;
    dsp->crow[1]       = crow_16;
    dsp->pack[0]    = pack_8;
    dsp->pack[1]    = pack_16;
    dsp->affine     = affine_c;
    dsp->map8       = map8_c;
    dsp->map16      = map16_c;
    dsp->dither_ed  = dither_ed_c;
    dsp->matrix     = matrix_c;
    dsp->tf         = tf_c;
    dsp->ootf       = ootf_c;
    dsp->lut        = lut_c;
    dsp->lut8       = lut8_c;
    dsp->cl_decode  = cl_decode_c;
    dsp->cl_encode  = cl_encode_c;
    dsp->clip       = clip_c;
    dsp->tonemap        = tonemap_c;
    dsp->gamut_desat    = gamut_desat_c;
    dsp->gamut_compress = gamut_compress_c;
    dsp->unpack_s8     = unpack_s8_c;
    dsp->unpack_s16    = unpack_s16_c;
    dsp->unpack_f32    = unpack_f32_c;
    dsp->pack_s8       = pack_s8_c;
    dsp->unpack_x2_8   = unpack_x2_8_c;
    dsp->pack_x2_8     = pack_x2_8_c;
    dsp->pack_s16      = pack_s16_c;
    dsp->pack_f32      = pack_f32_c;
    dsp->pack_x2rgb10  = pack_x2rgb10_c;
    dsp->upsample_h2   = upsample_h2_c;
    dsp->downsample_h2 = downsample_h2_c;
    dsp->blend         = blend_c;
    dsp->filter3       = filter3_c;
    dsp->filter4       = filter4_c;
    dsp->ichroma       = ichroma_c;
    dsp->idelta        = idelta_c;
    dsp->ivblend       = ivblend_c;
    dsp->ivblend8      = ivblend8_c;
    dsp->iluma         = iluma_c;
    dsp->ichroma16     = ichroma16_c;
    dsp->idelta16      = idelta16_c;
    dsp->iluma16       = iluma16_c;
#if ARCH_X86
    ff_cspfix_dsp_init_x86(dsp);
#endif
}
