/*
 * cspfix: kernel parameter solvers (integer maps, integer matrices, fused chroma rows)
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
#include <stdint.h>

#include "libavutil/attributes.h"
#include "libavutil/common.h"
#include "libavutil/error.h"
#include "libavutil/mem_internal.h"

#include "cspfix_kparams.h"

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
    dsp->stage.affine(row, 256, s, o);
    dsp->io.pack[0](want, row, 256, bias, lo, hi);

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
