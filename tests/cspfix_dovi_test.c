/*
 * cspfix Dolby Vision tests: the RPU's reshaping and colour against a float64 model
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

/*
 * Profile 5 style frames (10-bit full-range IPT-PQ-c2 base layer, no enhancement layer)
 * with a Dolby Vision RPU (AV_FRAME_DATA_DOVI_METADATA) are converted to float BT.2020 PQ
 * R'G'B' (gbrpf32le, no tone mapping) and compared, sample by sample, with a float64
 * model of doc/conversion-model.md section 9 written here from that text alone:
 * base layer codes to signal, the luma mean of a chroma sample (4:2:0 and 4:2:2, odd
 * sizes), pivots and pieces, polynomials of order 1 and 2, MMR of order 1, 2 and 3, the
 * clamp to [p_0, p_{n-1}], E' = N (r - o'), the PQ EOTF, F L, and back to PQ. Subsampled
 * chroma is reshaped at its own resolution and then upsampled (section 8, bilinear at
 * the frame's siting), in the model as in the filter.
 * - Precision, in PQ signal units: the model carries the reshaped signal at 16 bits as
 *   section 9 says the filter does (r x 65535 rounded), and the filter must be within 2e-4
 *   of it and of the model without that rounding. Counted: samples whose model E' and
 *   linear light lie in [0, 1] ("in gamut") and whose output moves by at most 1e-4 for
 *   one 16-bit step of any reshaped component. The rest are ill-conditioned: a linear
 *   component near 0 as the difference of nearly equal LMS contributions, where PQ's
 *   slope makes one step of r worth up to 1e-2; those, and the samples outside [0, 1],
 *   are reported, not counted. Figures printed per case.
 * - The model checks itself first: an identity RPU maps every code to itself.
 * - The RPU is not in the output; 1 and 3 threads give the same frames.
 * - dovi=ignore on IPT-C2 frames is an error (and the option exists).
 * - An RPU whose enhancement layer is used (non-identity NLQ) is not silently reshaped:
 *   an error or a warning; what happened is printed.
 */

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libavutil/bprint.h>
#include <libavutil/buffer.h>
#include <libavutil/dovi_meta.h>
#include <libavutil/frame.h>
#include <libavutil/log.h>
#include <libavutil/mastering_display_metadata.h>
#include <libavutil/macros.h>
#include <libavutil/mem.h>
#include <libavutil/pixdesc.h>
#include <libavutil/pixfmt.h>
#include <libavutil/rational.h>

#include "cspfix_testutil.h"

#include "cspfix_check.h"

#define BITS      10
#define LOG2_DEN  23
#define MAX_ERR   2e-4      /* PQ signal units */
#define GAMUT_EPS 1e-9
#define COND_MAX  1e-4      /* counted: R'G'B' moves at most this for one 16-bit step of r */

#define OUTPUT "cspfix=format=gbrpf32le:space=gbr:primaries=bt2020:trc=smpte2084:range=pc"

/* ---- log capture: warnings and errors ---- */
static AVBPrint logbuf;

static void log_cb(void *avcl, int level, const char *fmt, va_list vl)
{
    if (level > AV_LOG_WARNING && !(level <= AV_LOG_VERBOSE && strstr(fmt, "L2 trim for")))
        return;
    av_vbprintf(&logbuf, fmt, vl);
}

static void log_reset(void)
{
    av_bprint_clear(&logbuf);
}

static const char *log_str(void)
{
    return logbuf.str && logbuf.len ? logbuf.str : "(nothing logged)\n";
}

/* ---- the float64 model (doc/conversion-model.md section 9) ---- */

/* SMPTE ST 2084 */
#define PQ_M1 (2610.0 / 16384)
#define PQ_M2 (2523.0 / 4096 * 128)
#define PQ_C1 (3424.0 / 4096)
#define PQ_C2 (2413.0 / 4096 * 32)
#define PQ_C3 (2392.0 / 4096 * 32)

/* signal to light (1.0 = 10000 cd/m2); odd extension, |E'| clamped to 1 (section 3) */
static double pq_eotf(double e)
{
    const double a = FFMIN(fabs(e), 1.0), p = pow(a, 1.0 / PQ_M2);
    const double y = pow(FFMAX(p - PQ_C1, 0.0) / (PQ_C2 - PQ_C3 * p), 1.0 / PQ_M1);
    return e < 0 ? -y : y;
}

/* light to signal; negative light is the signal of black (section 3) */
static double pq_inv_eotf(double y)
{
    const double p = pow(FFMAX(y, 0.0), PQ_M1);
    return pow((PQ_C1 + PQ_C2 * p) / (1.0 + PQ_C3 * p), PQ_M2);
}

/* Dolby Vision's BT.2020 RGB -> LMS matrix, x 16384 */
static const int dv_lms[3][3] = {
    { 7222,  8771,   390 },
    { 2654, 12430,  1300 },
    {    0,   422, 15962 },
};

static void inv3(const double m[3][3], double r[3][3])
{
    const double det = m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) -
                       m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0]) +
                       m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            /* cofactor of m[j][i] */
            const int a0 = (j + 1) % 3, a1 = (j + 2) % 3, b0 = (i + 1) % 3, b1 = (i + 2) % 3;
            r[i][j] = (m[a0][b0] * m[a1][b1] - m[a0][b1] * m[a1][b0]) / det;
        }
}

/* F: the inverse of dv_lms / 16384 */
static void dv_lms_inverse(double f[3][3])
{
    double m[3][3];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            m[i][j] = dv_lms[i][j] / 16384.0;
    inv3(m, f);
}

/*
 * Step 2 for component c: s its signal, t the clamped (x0, x1, x2) at the sample (the
 * MMR inputs), den = 2^b - 1, d = 2^coef_log2_denom.
 */
static double reshape(const AVDOVIReshapingCurve *cv, double s, const double t[3],
                      double den, double d)
{
    const int n = cv->num_pivots;
    const double x = av_clipd(s, 0.0, 1.0);
    double y = 0.0;
    int k = 0;

    for (int i = 1; i <= n - 2; i++)
        k += x >= cv->pivots[i] / den;
    if (cv->mapping_idc[k] == AV_DOVI_MAPPING_POLYNOMIAL) {
        for (int j = 0; j <= cv->poly_order[k]; j++)
            y += cv->poly_coef[k][j] / d * pow(x, j);
    } else {
        const double tt[7] = { t[0], t[1], t[2], t[0] * t[1], t[0] * t[2], t[1] * t[2],
                               t[0] * t[1] * t[2] };
        y = cv->mmr_constant[k] / d;
        for (int o = 1; o <= cv->mmr_order[k]; o++)
            for (int i = 0; i < 7; i++)
                y += cv->mmr_coef[k][o - 1][i] / d * pow(tt[i], o);
    }
    return av_clipd(y, cv->pivots[0] / den, cv->pivots[n - 1] / den);
}

/* chroma siting (section 8): position of chroma sample k in luma units is 2k + sx */
static void siting(int loc, double *sx, double *sy)
{
    switch (loc) {
    case AVCHROMA_LOC_CENTER:     *sx = 0.5; *sy = 0.5; break;
    case AVCHROMA_LOC_TOPLEFT:    *sx = 0.0; *sy = 0.0; break;
    case AVCHROMA_LOC_TOP:        *sx = 0.5; *sy = 0.0; break;
    case AVCHROMA_LOC_BOTTOMLEFT: *sx = 0.0; *sy = 1.0; break;
    case AVCHROMA_LOC_BOTTOM:     *sx = 0.5; *sy = 1.0; break;
    default:                      *sx = 0.0; *sy = 0.5; break;   /* left */
    }
}

/* bilinear weights along one axis: luma position p, chroma samples 0..n-1 */
static void axis(int p, int sub, double site, int n, int *i0, int *i1, double *f)
{
    double u, fl;

    if (!sub) {
        *i0 = *i1 = p;
        *f  = 0.0;
        return;
    }
    u   = (p - site) / 2.0;
    fl  = floor(u);
    *f  = u - fl;
    *i0 = av_clip((int)fl, 0, n - 1);
    *i1 = av_clip((int)fl + 1, 0, n - 1);
}

typedef struct Model {
    int w, h;
    double *rgb;        /* R'G'B', 3 per pixel, from r carried at 16 bits as the filter does */
    double *exact;      /* R'G'B' from r in float64 */
    double *cond;       /* the most R'G'B' moves for one 16-bit step of one r component */
    uint8_t *in_gamut;  /* E' and linear light in [0, 1] */
} Model;

static void model_free(Model *m)
{
    free(m->rgb);
    free(m->exact);
    free(m->cond);
    free(m->in_gamut);
}

typedef struct Colour {
    double n[3][3], off[3], fl[3][3];
} Colour;

/* step 3 and back to PQ: r to R'G'B'; returns 1 when E' and linear light are in [0, 1] */
static int colour(const Colour *k, const double r[3], double out[3])
{
    double e[3], lin[3];
    int ok = 1;

    for (int i = 0; i < 3; i++) {
        e[i] = 0.0;
        for (int j = 0; j < 3; j++)
            e[i] += k->n[i][j] * (r[j] - k->off[j]);
        ok &= e[i] >= -GAMUT_EPS && e[i] <= 1 + GAMUT_EPS;
        e[i] = pq_eotf(e[i]);
    }
    for (int i = 0; i < 3; i++) {
        lin[i] = k->fl[i][0] * e[0] + k->fl[i][1] * e[1] + k->fl[i][2] * e[2];
        ok &= lin[i] >= -GAMUT_EPS && lin[i] <= 1 + GAMUT_EPS;
        out[i] = pq_inv_eotf(lin[i]);
    }
    return ok;
}

static double q16(double r)
{
    return lrint(r * 65535.0) / 65535.0;
}

/* the value at luma (x, y) of a plane of cw x ch chroma samples (bilinear, section 8) */
static double upsample(const double *p, int cw, int ch, int x, int y, int ssx, int ssy,
                       double sx, double sy)
{
    int x0, x1, y0, y1;
    double fx, fy;

    axis(x, ssx, sx, cw, &x0, &x1, &fx);
    axis(y, ssy, sy, ch, &y0, &y1, &fy);
    return (1 - fy) * ((1 - fx) * p[y0 * cw + x0] + fx * p[y0 * cw + x1]) +
           fy       * ((1 - fx) * p[y1 * cw + x0] + fx * p[y1 * cw + x1]);
}

/* section 9 on a planar 10-bit Y'CbCr frame f with the RPU md */
static int model_frame(const AVFrame *f, const AVDOVIMetadata *md, Model *m)
{
    const AVPixFmtDescriptor *desc = av_pix_fmt_desc_get(f->format);
    const AVDOVIRpuDataHeader *hdr = av_dovi_get_header(md);
    const AVDOVIDataMapping *map   = av_dovi_get_mapping(md);
    const AVDOVIColorMetadata *col = av_dovi_get_color(md);
    const int w = f->width, h = f->height;
    const int ssx = desc->log2_chroma_w, ssy = desc->log2_chroma_h;
    const int cw = AV_CEIL_RSHIFT(w, ssx), ch = AV_CEIL_RSHIFT(h, ssy);
    const double den = (1 << hdr->bl_bit_depth) - 1, d = ldexp(1.0, hdr->coef_log2_denom);
    double fm[3][3], l[3][3], sx, sy;
    Colour k = { { { 0 } } };
    /* reshaped luma, then chroma (Cb, Cr at chroma resolution); exact and 16-bit */
    double *r0 = malloc(sizeof(*r0) * 2 * w * h), *rc = malloc(sizeof(*rc) * 4 * cw * ch);
    double *r0q = r0 + w * h, *rcq = rc + 2 * cw * ch;

    m->w = w;
    m->h = h;
    m->rgb      = malloc(sizeof(*m->rgb) * 3 * w * h);
    m->exact    = malloc(sizeof(*m->exact) * 3 * w * h);
    m->cond     = malloc(sizeof(*m->cond) * w * h);
    m->in_gamut = malloc(w * h);
    if (!r0 || !rc || !m->rgb || !m->exact || !m->cond || !m->in_gamut) {
        free(r0);
        free(rc);
        model_free(m);
        return -1;
    }
    for (int i = 0; i < 9; i++) {
        k.n[i / 3][i % 3] = av_q2d(col->ycc_to_rgb_matrix[i]);
        l[i / 3][i % 3]   = av_q2d(col->rgb_to_lms_matrix[i]);
    }
    for (int i = 0; i < 3; i++)
        k.off[i] = av_q2d(col->ycc_to_rgb_offset[i]) * (1 << hdr->bl_bit_depth) / den;
    dv_lms_inverse(fm);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            for (int n = 0; n < 3; n++)
                k.fl[i][j] += fm[i][n] * l[n][j];
    siting(f->chroma_location, &sx, &sy);

    /* chroma, at its own resolution: x0 is the mean of the luma samples it covers */
    for (int cy = 0; cy < ch; cy++)
        for (int cx = 0; cx < cw; cx++) {
            double sum = 0.0, t[3];
            int cnt = 0;
            for (int y = cy << ssy; y < FFMIN((cy + 1) << ssy, h); y++)
                for (int x = cx << ssx; x < FFMIN((cx + 1) << ssx, w); x++, cnt++)
                    sum += cspfix_sample(f, 0, x, y, 1) / den;
            t[0] = av_clipd(sum / cnt, 0.0, 1.0);
            for (int c = 1; c < 3; c++)
                t[c] = av_clipd(cspfix_sample(f, c, cx, cy, 1) / den, 0.0, 1.0);
            for (int c = 1; c < 3; c++) {
                const int i = (c - 1) * cw * ch + cy * cw + cx;
                rc[i]  = reshape(&map->curves[c], t[c], t, den, d);
                rcq[i] = q16(rc[i]);
            }
        }
    /* luma (MMR is for chroma only; its inputs would be the co-located samples) */
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            double t[3];
            t[0] = av_clipd(cspfix_sample(f, 0, x, y, 1) / den, 0.0, 1.0);
            for (int c = 1; c < 3; c++)
                t[c] = av_clipd(cspfix_sample(f, c, x >> ssx, y >> ssy, 1) / den, 0.0, 1.0);
            r0[y * w + x]  = reshape(&map->curves[0], t[0], t, den, d);
            r0q[y * w + x] = q16(r0[y * w + x]);
        }

    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            const int i = y * w + x;
            double r[3], rq[3], o[3], worst = 0.0;

            r[0]  = r0[i];
            rq[0] = r0q[i];
            for (int c = 1; c < 3; c++) {
                r[c]  = upsample(rc  + (c - 1) * cw * ch, cw, ch, x, y, ssx, ssy, sx, sy);
                rq[c] = upsample(rcq + (c - 1) * cw * ch, cw, ch, x, y, ssx, ssy, sx, sy);
            }
            m->in_gamut[i] = colour(&k, r, m->exact + 3 * i);
            colour(&k, rq, m->rgb + 3 * i);
            for (int j = 0; j < 3; j++)
                for (int s = -1; s <= 1; s += 2) {
                    double rs[3] = { rq[0], rq[1], rq[2] };
                    rs[j] += s / 65535.0;
                    colour(&k, rs, o);
                    for (int c = 0; c < 3; c++)
                        worst = FFMAX(worst, fabs(o[c] - m->rgb[3 * i + c]));
                }
            m->cond[i] = worst;
        }
    free(r0);
    free(rc);
    return 0;
}

/* ---- RPUs ---- */

/* a piece, in real numbers (converted to fixed point with denominator 2^LOG2_DEN) */
typedef struct Piece {
    int is_mmr;         /* 0: polynomial, 1: MMR */
    int order;
    double poly[3];     /* x^0, x^1, x^2 */
    double neutral;     /* MMR: the value at x0 = x1 = x2 = 1/2 (sets the constant) */
    double mmr[3][7];   /* (x0, x1, x2, x0x1, x0x2, x1x2, x0x1x2)^order */
} Piece;

typedef struct Curve {
    int n;              /* pivots */
    int pivots[9];
    Piece piece[8];
} Curve;

/* the luma curves */
static const Curve luma_4pieces = {   /* both ends overshoot [0, 1]: clamped */
    5, { 0, 256, 512, 768, 1023 }, {
        { 0, 1, { -0.03, 1.06 } },
        { 0, 2, { -0.012, 0.98, 0.06 } },
        { 0, 2, { 0.0, 0.9, 0.12 } },
        { 0, 1, { -0.08, 1.13 } },
    }
};

static const Curve luma_1piece = {    /* clamped to inner pivots 64/1023 .. 960/1023 */
    2, { 64, 960 }, { { 0, 2, { 0.03, 0.85, 0.2 } } }
};

static const Curve identity = { 2, { 0, 1023 }, { { 0, 1, { 0.0, 1.0 } } } };

/* luma with 9 pivots (8 pieces), orders 1 and 2 alternately */
static void luma_8pieces(Curve *cv)
{
    memset(cv, 0, sizeof(*cv));
    cv->n = 9;
    for (int i = 0; i < 9; i++)
        cv->pivots[i] = i < 8 ? 128 * i : 1023;
    for (int k = 0; k < 8; k++) {
        Piece *p = &cv->piece[k];
        p->order   = 1 + (k & 1);
        p->poly[0] = 0.01 * (k % 3) - 0.015;
        p->poly[1] = 0.96 + 0.01 * k;
        p->poly[2] = k & 1 ? 0.03 : 0.0;
    }
}

/* chroma polynomials: component c (1 Cb, 2 Cr), 3 pivots */
static void chroma_poly(Curve *cv, int c)
{
    static const Piece cb[2] = { { 0, 1, { -0.05, 1.1 } }, { 0, 2, { -0.03, 1.0, 0.06 } } };
    static const Piece cr[2] = { { 0, 2, { 0.01, 0.95, 0.06 } }, { 0, 1, { -0.06, 1.1 } } };

    memset(cv, 0, sizeof(*cv));
    cv->n = 3;
    cv->pivots[1] = 512;
    cv->pivots[2] = 1023;
    for (int k = 0; k < 2; k++)
        cv->piece[k] = c == 1 ? cb[k] : cr[k];
}

/* chroma MMR: component c, 4 pivots, pieces of order 1, 2, 3; x0 weighs in strongly */
static void chroma_mmr(Curve *cv, int c)
{
    /* written for Cb (own term x1); for Cr, x1 <-> x2 and x0x1 <-> x0x2 */
    static const double coef[3][3][7] = {
        { { 0.15,  1.00,  0.03, 0.05, -0.02,  0.04,  0.02 } },
        { { 0.12,  0.90,  0.02, 0.04,  0.01, -0.03,  0.02 },
          { 0.03,  0.10,  0.01, 0.02,  0.00,  0.01, -0.01 } },
        { { 0.10,  0.85, -0.02, 0.03,  0.02,  0.02,  0.01 },
          { 0.02,  0.10,  0.01, 0.00,  0.01,  0.00,  0.00 },
          { 0.01,  0.05,  0.00, 0.01,  0.00,  0.00,  0.005 } },
    };
    static const int swap[7] = { 0, 2, 1, 4, 3, 5, 6 };

    memset(cv, 0, sizeof(*cv));
    cv->n = 4;
    cv->pivots[1] = 400;
    cv->pivots[2] = 700;
    cv->pivots[3] = 1023;
    for (int k = 0; k < 3; k++) {
        Piece *p = &cv->piece[k];
        p->is_mmr  = 1;
        p->order   = k + 1;
        p->neutral = 0.5 + 0.004 * (k - 1) * (c == 1 ? 1 : -1);
        for (int o = 0; o <= k; o++)
            for (int i = 0; i < 7; i++)
                p->mmr[o][c == 1 ? i : swap[i]] = coef[k][o][i];
    }
}

static int64_t fixp(double v)
{
    return llrint(v * (1 << LOG2_DEN));
}

static void set_curve(AVDOVIReshapingCurve *dst, const Curve *src)
{
    memset(dst, 0, sizeof(*dst));
    dst->num_pivots = src->n;
    for (int i = 0; i < src->n; i++)
        dst->pivots[i] = src->pivots[i];
    for (int k = 0; k < src->n - 1; k++) {
        const Piece *p = &src->piece[k];
        if (!p->is_mmr) {
            dst->mapping_idc[k] = AV_DOVI_MAPPING_POLYNOMIAL;
            dst->poly_order[k]  = p->order;
            for (int j = 0; j <= p->order; j++)
                dst->poly_coef[k][j] = fixp(p->poly[j]);
        } else {
            /* the constant puts the neutral point (1/2, 1/2, 1/2) at p->neutral */
            double at_half = 0.0;
            dst->mapping_idc[k] = AV_DOVI_MAPPING_MMR;
            dst->mmr_order[k]   = p->order;
            for (int o = 0; o < p->order; o++)
                for (int i = 0; i < 7; i++) {
                    dst->mmr_coef[k][o][i] = fixp(p->mmr[o][i]);
                    at_half += p->mmr[o][i] * pow(i < 3 ? 0.5 : i < 6 ? 0.25 : 0.125, o + 1);
                }
            dst->mmr_constant[k] = fixp(p->neutral - at_half);
        }
    }
}

enum { CHROMA_POLY, CHROMA_MMR, CHROMA_IDENTITY };
enum { LUMA_4PIECES, LUMA_1PIECE, LUMA_8PIECES, LUMA_IDENTITY };

/*
 * A profile 5 style RPU on f: the luma and chroma curves given, profile 5's colour (or,
 * with ident, N = I, no offset, L = the BT.2020 RGB -> LMS matrix: F L = I); nlq: the
 * enhancement layer in use with non-identity NLQ parameters.
 */
static int add_rpu(AVFrame *f, int luma, int chroma, int nlq)
{
    static const int ycc[9] = { 8192, 799, 1681, 8192, -933, 1091, 8192, 267, -5545 };
    static const int lms[9] = { 17081, -349, -349, -349, 17081, -349, -349, -349, 17081 };
    const int ident = luma == LUMA_IDENTITY;
    AVDOVIMetadata *md = cspfix_attach_dovi(f);
    AVDOVIRpuDataHeader *hdr;
    AVDOVIDataMapping *map;
    AVDOVIColorMetadata *col;
    Curve cv;

    if (!md)
        return AVERROR(ENOMEM);
    hdr = av_dovi_get_header(md);
    map = av_dovi_get_mapping(md);
    col = av_dovi_get_color(md);

    hdr->rpu_type                 = 2;
    hdr->rpu_format               = 0;
    hdr->vdr_rpu_profile          = 1;
    hdr->vdr_rpu_level            = 0;
    hdr->coef_data_type           = 0;
    hdr->coef_log2_denom          = LOG2_DEN;
    hdr->vdr_rpu_normalized_idc   = 1;
    hdr->bl_video_full_range_flag = 1;
    hdr->bl_bit_depth             = BITS;
    hdr->el_bit_depth             = BITS;
    hdr->vdr_bit_depth            = 12;
    hdr->disable_residual_flag    = !nlq;

    switch (luma) {
    case LUMA_4PIECES: set_curve(&map->curves[0], &luma_4pieces); break;
    case LUMA_1PIECE:  set_curve(&map->curves[0], &luma_1piece);  break;
    case LUMA_8PIECES: luma_8pieces(&cv); set_curve(&map->curves[0], &cv); break;
    default:           set_curve(&map->curves[0], &identity);     break;
    }
    for (int c = 1; c < 3; c++) {
        if (chroma == CHROMA_POLY)
            chroma_poly(&cv, c);
        else if (chroma == CHROMA_MMR)
            chroma_mmr(&cv, c);
        else
            cv = identity;
        set_curve(&map->curves[c], &cv);
    }
    map->nlq_method_idc = AV_DOVI_NLQ_NONE;
    if (nlq) {
        map->nlq_method_idc   = AV_DOVI_NLQ_LINEAR_DZ;
        map->num_x_partitions = 1;
        map->num_y_partitions = 1;
        for (int c = 0; c < 3; c++) {
            map->nlq[c].nlq_offset                = 512;
            map->nlq[c].vdr_in_max                = 3 << (LOG2_DEN - 2);
            map->nlq[c].linear_deadzone_slope     = 1 << (LOG2_DEN - 1);
            map->nlq[c].linear_deadzone_threshold = 1 << (LOG2_DEN - 6);
        }
    }

    col->dm_metadata_id     = 0;
    col->scene_refresh_flag = 1;
    for (int i = 0; i < 9; i++) {
        col->ycc_to_rgb_matrix[i] = av_make_q(ident ? (i % 4 ? 0 : 8192) : ycc[i], 8192);
        col->rgb_to_lms_matrix[i] = av_make_q(ident ? dv_lms[i / 3][i % 3] : lms[i], 16384);
    }
    for (int i = 0; i < 3; i++)
        col->ycc_to_rgb_offset[i] = av_make_q(ident || !i ? 0 : 1 << 27, 1 << 28);
    col->signal_bit_depth       = 12;
    col->signal_full_range_flag = 1;
    col->source_min_pq          = 62;
    col->source_max_pq          = 3079;
    return 0;
}

/* ---- frames ---- */

/*
 * A profile 5 style frame: every plane a permutation-like pattern of codes that covers
 * 0..1023 (luma always); chroma uniform (cb, cr) when cb >= 0.
 */
static AVFrame *p5_frame(int fmt, int w, int h, int loc, int cb, int cr, unsigned seed)
{
    static const unsigned mul[3] = { 389, 613, 877 }, add[3] = { 17, 101, 555 };
    AVFrame *f = cspfix_alloc_frame(fmt, w, h, AVCOL_PRI_BT2020, AVCOL_TRC_SMPTE2084,
                                    AVCOL_SPC_IPT_C2, AVCOL_RANGE_JPEG);
    const AVPixFmtDescriptor *d = av_pix_fmt_desc_get(fmt);

    if (!f)
        return NULL;
    f->chroma_location = loc;
    for (int p = 0; p < 3; p++) {
        const int pw = p ? AV_CEIL_RSHIFT(w, d->log2_chroma_w) : w;
        const int ph = p ? AV_CEIL_RSHIFT(h, d->log2_chroma_h) : h;
        for (int y = 0; y < ph; y++)
            for (int x = 0; x < pw; x++) {
                const unsigned i = y * pw + x;
                int v = (i * mul[p] + add[p] + seed * 131 + (i >> 10) * 311) & 1023;
                if (p && cb >= 0)
                    v = p == 1 ? cb : cr;
                cspfix_set_sample(f, p, x, y, 1, v);
            }
    }
    return f;
}

/* one output sample (gbrpf32: planes G, B, R) */
static double out_sample(const AVFrame *f, int c, int x, int y)
{
    static const int plane[3] = { 2, 0, 1 };   /* R, G, B */
    return ((const float *)(f->data[plane[c]] + (ptrdiff_t)y * f->linesize[plane[c]]))[x];
}

typedef struct Stats {
    double max, sum, max_exact, sum_exact, max_ill, max_out;
    int n, n_ill, n_out;
    int worst_x, worst_y, worst_c;
} Stats;

static double nan_inf(double e)
{
    return isnan(e) ? INFINITY : e;
}

/*
 * Counted: in gamut and well conditioned (one 16-bit step of r moves R'G'B' by at most
 * COND_MAX); the rest is reported apart.
 */
static void compare(const AVFrame *out, const Model *m, Stats *st)
{
    memset(st, 0, sizeof(*st));
    for (int y = 0; y < m->h; y++)
        for (int x = 0; x < m->w; x++) {
            const int i = y * m->w + x;
            for (int c = 0; c < 3; c++) {
                const double v = out_sample(out, c, x, y);
                const double e = nan_inf(fabs(v - m->rgb[3 * i + c]));
                const double ex = nan_inf(fabs(v - m->exact[3 * i + c]));
                if (!m->in_gamut[i]) {
                    st->max_out = FFMAX(st->max_out, e);
                    st->n_out++;
                } else if (m->cond[i] > COND_MAX) {
                    st->max_ill = FFMAX(st->max_ill, e);
                    st->n_ill++;
                } else {
                    if (e > st->max) {
                        st->max = e;
                        st->worst_x = x;
                        st->worst_y = y;
                        st->worst_c = c;
                    }
                    st->max_exact = FFMAX(st->max_exact, ex);
                    st->sum += e;
                    st->sum_exact += ex;
                    st->n++;
                }
            }
        }
}

/* ---- the model's own checks ---- */

static void test_model(void)
{
    double f[3][3], worst_f = 0.0, worst_id = 0.0, worst_rt = 0.0;
    AVFrame *in = p5_frame(AV_PIX_FMT_YUV444P10, 1024, 2, AVCHROMA_LOC_LEFT, -1, -1, 0);
    const AVFrameSideData *sd;
    Model m = { 0 };

    dv_lms_inverse(f);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            double s = 0.0;
            for (int k = 0; k < 3; k++)
                s += f[i][k] * dv_lms[k][j] / 16384.0;
            worst_f = FFMAX(worst_f, fabs(s - (i == j)));
        }
    /* code 0 is light 0, whose signal is E'(0) = c1^m2 */
    for (int i = 0; i <= 1023; i++)
        worst_rt = FFMAX(worst_rt, fabs(pq_inv_eotf(pq_eotf(i / 1023.0)) -
                                        (i ? i / 1023.0 : pow(PQ_C1, PQ_M2))));
    /* an identity RPU maps every code to itself */
    if (!in || add_rpu(in, LUMA_IDENTITY, CHROMA_IDENTITY, 0) < 0 ||
        !(sd = av_frame_get_side_data(in, AV_FRAME_DATA_DOVI_METADATA)) ||
        model_frame(in, (const AVDOVIMetadata *)sd->data, &m) < 0) {
        CHECK(0, "model: out of memory");
    } else {
        int all_in = 1;
        for (int y = 0; y < 2; y++)
            for (int x = 0; x < 1024; x++) {
                for (int c = 0; c < 3; c++) {
                    const int v = cspfix_sample(in, c, x, y, 1);
                    worst_id = FFMAX(worst_id, fabs(m.exact[3 * (y * 1024 + x) + c] -
                                                    (v ? v / 1023.0 : pow(PQ_C1, PQ_M2))));
                }
                all_in &= m.in_gamut[y * 1024 + x];
            }
        CHECK(all_in, "model: an identity RPU keeps every code in gamut");
    }
    printf("model self-check: F x DV LMS - I %.1e; PQ round trip %.1e; identity RPU over "
           "codes 0..1023 %.1e (code 0: E'(0) = %.2e)\n", worst_f, worst_rt, worst_id,
           pow(PQ_C1, PQ_M2));
    CHECK(worst_f < 1e-12, "model: F is the inverse of the LMS matrix (%g)", worst_f);
    CHECK(worst_rt < 1e-12, "model: PQ EOTF and its inverse (%g)", worst_rt);
    CHECK(worst_id < 1e-12, "model: the identity RPU (%g)", worst_id);
    model_free(&m);
    av_frame_free(&in);
}

/* ---- the filter against the model ---- */

typedef struct Case {
    const char *name;
    int fmt, w, h, loc;
    int luma, chroma;
    int cb, cr;         /* uniform chroma codes, or -1 */
} Case;

static void run_case(const Case *c)
{
    AVFrame *in = p5_frame(c->fmt, c->w, c->h, c->loc, c->cb, c->cr, c->w + c->h);
    AVFrame *out = NULL, *out3 = NULL;
    const AVFrameSideData *sd;
    Model m = { 0 };
    Stats st;
    int ret;

    if (!in || add_rpu(in, c->luma, c->chroma, 0) < 0 ||
        !(sd = av_frame_get_side_data(in, AV_FRAME_DATA_DOVI_METADATA)) ||
        model_frame(in, (const AVDOVIMetadata *)sd->data, &m) < 0) {
        CHECK(0, "%s: out of memory", c->name);
        av_frame_free(&in);
        return;
    }
    log_reset();
    ret = cspfix_run1(in, OUTPUT, 1, &out);
    if (ret < 0 || !out) {
        printf("%-40s the filter failed (%s): %s", c->name, av_err2str(ret), log_str());
        CHECK(0, "%s: the graph ran (%d)", c->name, ret);
        goto end;
    }
    if (out->format != AV_PIX_FMT_GBRPF32LE || out->width != c->w || out->height != c->h) {
        CHECK(0, "%s: gbrpf32le %dx%d output (%s %dx%d)", c->name, c->w, c->h,
              av_get_pix_fmt_name(out->format), out->width, out->height);
        goto end;
    }
    compare(out, &m, &st);
    ret = cspfix_run1(in, OUTPUT, 3, &out3);
    printf("%-40s %4.1f %% counted: max %.2e mean %.2e (%.4f / %.5f codes), vs float64 r "
           "max %.2e; ill-conditioned %4.1f %% max %.1e, outside %4.1f %% max %.1e%s\n",
           c->name, 100.0 * st.n / (st.n + st.n_ill + st.n_out), st.max,
           st.n ? st.sum / st.n : 0.0, 1023 * st.max, st.n ? 1023 * st.sum / st.n : 0.0,
           st.max_exact, 100.0 * st.n_ill / (st.n + st.n_ill + st.n_out), st.max_ill,
           100.0 * st.n_out / (st.n + st.n_ill + st.n_out), st.max_out,
           ret >= 0 && cspfix_frames_equal(out, out3) ? "" : " [3 threads differ]");
    if (st.max > MAX_ERR) {
        const AVPixFmtDescriptor *d = av_pix_fmt_desc_get(c->fmt);
        const int x = st.worst_x, y = st.worst_y, i = 3 * (y * c->w + x) + st.worst_c;
        printf("  worst: (%d, %d) %c: codes Y %d Cb %d Cr %d, filter %.6f, model %.6f\n",
               x, y, "RGB"[st.worst_c], cspfix_sample(in, 0, x, y, 1),
               cspfix_sample(in, 1, x >> d->log2_chroma_w, y >> d->log2_chroma_h, 1),
               cspfix_sample(in, 2, x >> d->log2_chroma_w, y >> d->log2_chroma_h, 1),
               out_sample(out, st.worst_c, x, y), m.rgb[i]);
    }
    CHECK(st.n >= (st.n + st.n_ill + st.n_out) / 10, "%s: %d of %d samples counted (too few)",
          c->name, st.n, st.n + st.n_ill + st.n_out);
    CHECK(st.max <= MAX_ERR, "%s: max error %.3e (PQ signal) over %g", c->name, st.max, MAX_ERR);
    CHECK(st.max_exact <= MAX_ERR, "%s: max error %.3e (PQ signal) from the float64 r over %g",
          c->name, st.max_exact, MAX_ERR);
    CHECK(!av_frame_get_side_data(out, AV_FRAME_DATA_DOVI_METADATA),
          "%s: the RPU is not in the output", c->name);
    CHECK(out->color_primaries == AVCOL_PRI_BT2020 && out->color_trc == AVCOL_TRC_SMPTE2084 &&
          out->colorspace == AVCOL_SPC_RGB, "%s: output tagged bt2020 smpte2084 gbr (%d %d %d)",
          c->name, out->color_primaries, out->color_trc, out->colorspace);
    CHECK(ret >= 0 && cspfix_frames_equal(out, out3), "%s: 1 and 3 threads give the same frame",
          c->name);
end:
    model_free(&m);
    av_frame_free(&in);
    av_frame_free(&out);
    av_frame_free(&out3);
}

static void test_precision(void)
{
    static const Case cases[] = {
        { "identity RPU, 4:4:4 67x45",
          AV_PIX_FMT_YUV444P10, 67, 45, AVCHROMA_LOC_LEFT, LUMA_IDENTITY, CHROMA_IDENTITY, -1, -1 },
        { "4:4:4 67x45 poly 4+2+2 pieces",
          AV_PIX_FMT_YUV444P10, 67, 45, AVCHROMA_LOC_LEFT, LUMA_4PIECES, CHROMA_POLY, -1, -1 },
        { "4:4:4 64x48 poly 1 piece, MMR 1/2/3",
          AV_PIX_FMT_YUV444P10, 64, 48, AVCHROMA_LOC_LEFT, LUMA_1PIECE, CHROMA_MMR, -1, -1 },
        { "4:4:4 67x45 poly 8 pieces, MMR 1/2/3",
          AV_PIX_FMT_YUV444P10, 67, 45, AVCHROMA_LOC_LEFT, LUMA_8PIECES, CHROMA_MMR, -1, -1 },
        { "4:2:0 67x45 MMR, uniform Cb Cr 512",
          AV_PIX_FMT_YUV420P10, 67, 45, AVCHROMA_LOC_LEFT, LUMA_4PIECES, CHROMA_MMR, 512, 512 },
        { "4:2:0 67x45 MMR, uniform Cb Cr 300 700",
          AV_PIX_FMT_YUV420P10, 67, 45, AVCHROMA_LOC_LEFT, LUMA_4PIECES, CHROMA_MMR, 300, 700 },
        { "4:2:0 67x45 MMR, uniform Cb Cr 800 450",
          AV_PIX_FMT_YUV420P10, 67, 45, AVCHROMA_LOC_LEFT, LUMA_8PIECES, CHROMA_MMR, 800, 450 },
        { "4:2:0 64x48 MMR, uniform Cb Cr 620 380",
          AV_PIX_FMT_YUV420P10, 64, 48, AVCHROMA_LOC_LEFT, LUMA_1PIECE, CHROMA_MMR, 620, 380 },
        { "4:2:0 67x45 poly, uniform Cb Cr 480 560",
          AV_PIX_FMT_YUV420P10, 67, 45, AVCHROMA_LOC_LEFT, LUMA_4PIECES, CHROMA_POLY, 480, 560 },
        { "4:2:0 67x45 MMR, varying chroma",
          AV_PIX_FMT_YUV420P10, 67, 45, AVCHROMA_LOC_LEFT, LUMA_4PIECES, CHROMA_MMR, -1, -1 },
        { "4:2:0 66x46 MMR, varying, topleft",
          AV_PIX_FMT_YUV420P10, 66, 46, AVCHROMA_LOC_TOPLEFT, LUMA_1PIECE, CHROMA_MMR, -1, -1 },
        { "4:2:2 67x45 MMR, varying chroma",
          AV_PIX_FMT_YUV422P10, 67, 45, AVCHROMA_LOC_LEFT, LUMA_8PIECES, CHROMA_MMR, -1, -1 },
        { "4:2:0 257x143 MMR, varying (threads)",
          AV_PIX_FMT_YUV420P10, 257, 143, AVCHROMA_LOC_LEFT, LUMA_4PIECES, CHROMA_MMR, -1, -1 },
    };

    for (int i = 0; i < FF_ARRAY_ELEMS(cases); i++)
        run_case(&cases[i]);
}

/* dovi=ignore: IPT-C2 without reshaping is an error; the option itself is accepted */
static void test_ignore(void)
{
    AVFrame *in = p5_frame(AV_PIX_FMT_YUV444P10, 67, 45, AVCHROMA_LOC_LEFT, -1, -1, 3);
    AVFrame *base = p5_frame(AV_PIX_FMT_YUV420P10, 64, 48, AVCHROMA_LOC_LEFT, -1, -1, 4);
    AVFrame *out = NULL;
    int ret, ret_base;

    if (!in || !base || add_rpu(in, LUMA_4PIECES, CHROMA_MMR, 0) < 0) {
        CHECK(0, "dovi=ignore: out of memory");
        goto end;
    }
    base->colorspace  = AVCOL_SPC_BT2020_NCL;
    base->color_range = AVCOL_RANGE_MPEG;
    log_reset();
    ret = cspfix_run1(in, OUTPUT ":dovi=ignore", 1, &out);
    printf("dovi=ignore on IPT-C2 with an RPU: %s: %s", ret < 0 ? "error" : "converted", log_str());
    av_frame_free(&out);
    log_reset();
    ret_base = cspfix_run1(base, OUTPUT ":dovi=ignore", 1, &out);
    if (ret_base < 0)
        printf("dovi=ignore on a BT.2020 PQ frame: error: %s", log_str());
    CHECK(ret < 0, "dovi=ignore: IPT-C2 frames without reshaping are an error");
    CHECK(ret_base >= 0, "dovi=ignore is an option (a BT.2020 PQ frame converts: %d)", ret_base);
end:
    av_frame_free(&out);
    av_frame_free(&in);
    av_frame_free(&base);
}

/* an RPU whose enhancement layer is used (NLQ not the identity): an error or a warning */
static void test_nlq(void)
{
    AVFrame *in = p5_frame(AV_PIX_FMT_YUV444P10, 67, 45, AVCHROMA_LOC_LEFT, -1, -1, 5);
    AVFrame *out = NULL;
    const AVFrameSideData *sd;
    Model m = { 0 };
    int ret;

    if (!in || add_rpu(in, LUMA_4PIECES, CHROMA_POLY, 1) < 0 ||
        !(sd = av_frame_get_side_data(in, AV_FRAME_DATA_DOVI_METADATA)) ||
        model_frame(in, (const AVDOVIMetadata *)sd->data, &m) < 0) {
        CHECK(0, "NLQ: out of memory");
        av_frame_free(&in);
        return;
    }
    log_reset();
    ret = cspfix_run1(in, OUTPUT, 1, &out);
    if (ret < 0) {
        printf("enhancement layer in use (NLQ linear dead zone): error %s: %s",
               av_err2str(ret), log_str());
    } else {
        Stats st;
        compare(out, &m, &st);
        printf("enhancement layer in use (NLQ linear dead zone): converted (base layer "
               "reshaped: max %.2e from the model over %d samples); logged: %s", st.max, st.n,
               log_str());
    }
    CHECK(ret < 0 || logbuf.len, "NLQ: not silently reshaped (an error, or a warning)");
    model_free(&m);
    av_frame_free(&in);
    av_frame_free(&out);
}

/*
 * Profile 8.1: an HDR10 base layer (BT.2020 Y'CbCr, limited range) whose RPU has the identity
 * reshaping and the base layer's own colour (N: the BT.2020 limited-range Y'CbCr matrix in
 * 1/8192, offsets 64 and 512 of 1024 codes, L: the BT.2020 RGB -> LMS matrix, F L = I):
 * dovi=auto must give the HDR10 conversion of the same frame (dovi=ignore), up to N's
 * 13-bit coefficients and the 16-bit carry.
 */
static void test_profile8(void)
{
    const double kr = 0.2627, kb = 0.0593, kg = 1.0 - kr - kb;
    const double sy = 1023.0 / 876, sc = 1023.0 / 896;
    const double n[9] = { sy, 0.0, 2 * (1 - kr) * sc,
                          sy, -2 * (1 - kb) * kb / kg * sc, -2 * (1 - kr) * kr / kg * sc,
                          sy, 2 * (1 - kb) * sc, 0.0 };
    AVFrame *in = p5_frame(AV_PIX_FMT_YUV420P10, 64, 48, AVCHROMA_LOC_LEFT, -1, -1, 6);
    AVFrame *a = NULL, *b = NULL;
    const AVFrameSideData *sd;
    double worst = 0.0;
    int ret_a, ret_b;

    if (!in || add_rpu(in, LUMA_IDENTITY, CHROMA_IDENTITY, 0) < 0 ||
        !(sd = av_frame_get_side_data(in, AV_FRAME_DATA_DOVI_METADATA))) {
        CHECK(0, "profile 8.1: out of memory");
        av_frame_free(&in);
        return;
    }
    {
        AVDOVIColorMetadata *col = av_dovi_get_color((AVDOVIMetadata *)sd->data);
        for (int i = 0; i < 9; i++)
            col->ycc_to_rgb_matrix[i] = av_make_q(lrint(n[i] * 8192), 8192);
        col->ycc_to_rgb_offset[0] = av_make_q(1 << 24, 1 << 28);
        col->ycc_to_rgb_offset[1] = col->ycc_to_rgb_offset[2] = av_make_q(1 << 27, 1 << 28);
    }
    in->colorspace  = AVCOL_SPC_BT2020_NCL;
    in->color_range = AVCOL_RANGE_MPEG;
    /* codes inside the limited range, where the two conversions are defined alike */
    for (int p = 0; p < 3; p++)
        for (int y = 0; y < (p ? 24 : 48); y++)
            for (int x = 0; x < (p ? 32 : 64); x++)
                cspfix_set_sample(in, p, x, y, 1, 64 + cspfix_sample(in, p, x, y, 1) *
                                  (p ? 896 : 876) / 1024);
    log_reset();
    ret_a = cspfix_run1(in, OUTPUT, 1, &a);
    ret_b = cspfix_run1(in, OUTPUT ":dovi=ignore", 1, &b);
    if (ret_a >= 0 && ret_b >= 0)
        for (int c = 0; c < 3; c++)
            for (int y = 0; y < 48; y++)
                for (int x = 0; x < 64; x++) {
                    const double va = out_sample(a, c, x, y), vb = out_sample(b, c, x, y);
                    if (vb > 0.0 && vb < 1.0)
                        worst = FFMAX(worst, fabs(va - vb));
                }
    printf("profile 8.1 (HDR10 base layer, identity reshaping, its own colour): dovi=auto "
           "against dovi=ignore max %.2e PQ (%.3f 10-bit codes)\n", worst, worst * 1023);
    CHECK(ret_a >= 0 && ret_b >= 0 && worst < 3e-4,
          "profile 8.1: the RPU's colour gives the HDR10 conversion (%d, %d, %g) [%s]",
          ret_a, ret_b, worst, log_str());
    av_frame_free(&a);
    av_frame_free(&b);
    av_frame_free(&in);
}

/*
 * HDR10 metadata of the reshaped output from the RPU: level 6 gives the mastering display's
 * luminance and MaxCLL/MaxFALL (its primaries BT.2020's without level 9); without level 6 the
 * RPU's source_max_pq/source_min_pq; none for SDR output.
 */
static const void *side_data(const AVFrame *f, enum AVFrameSideDataType type)
{
    const AVFrameSideData *sd = f ? av_frame_get_side_data(f, type) : NULL;
    return sd ? sd->data : NULL;
}

static void test_hdr10_meta(void)
{
    AVFrame *in = p5_frame(AV_PIX_FMT_YUV420P10, 64, 48, AVCHROMA_LOC_LEFT, -1, -1, 7);
    AVFrame *out = NULL;
    const AVFrameSideData *sd;
    const AVMasteringDisplayMetadata *m;
    const AVContentLightMetadata *c;
    AVDOVIMetadata *md;
    int ret;

    if (!in || add_rpu(in, LUMA_4PIECES, CHROMA_MMR, 0) < 0 ||
        !(sd = av_frame_get_side_data(in, AV_FRAME_DATA_DOVI_METADATA))) {
        CHECK(0, "hdr10 metadata: out of memory");
        av_frame_free(&in);
        return;
    }
    md = (AVDOVIMetadata *)sd->data;
    /* without level 6: source_max_pq 3079 (1000.6 cd/m2), source_min_pq 62 */
    ret = cspfix_run1(in, "cspfix=format=yuv420p10le", 1, &out);
    m = side_data(out, AV_FRAME_DATA_MASTERING_DISPLAY_METADATA);
    printf("DV -> HDR10 without level 6: mastering display %s %.1f / %.4f cd/m2, tags %s/%s/%s/%s\n",
           m ? "" : "none", m ? av_q2d(m->max_luminance) : 0.0, m ? av_q2d(m->min_luminance) : 0.0,
           out ? av_color_primaries_name(out->color_primaries) : "-",
           out ? av_color_transfer_name(out->color_trc) : "-",
           out ? av_color_space_name(out->colorspace) : "-",
           out ? av_color_range_name(out->color_range) : "-");
    CHECK(ret >= 0 && m && fabs(av_q2d(m->max_luminance) - 1000.6) < 1.0 &&
          av_q2d(m->min_luminance) > 0.0 && av_q2d(m->min_luminance) < 0.01 &&
          av_q2d(m->display_primaries[0][0]) == 0.708 && out->color_trc == AVCOL_TRC_SMPTE2084 &&
          out->colorspace == AVCOL_SPC_BT2020_NCL && out->color_range == AVCOL_RANGE_MPEG,
          "DV -> HDR10: the mastering display from the RPU's source range, BT.2020, HDR10 tags");
    av_frame_free(&out);
    /* level 6 */
    {
        AVDOVIDmData *l6 = av_dovi_get_ext(md, md->num_ext_blocks++);
        memset(l6, 0, sizeof(*l6));
        l6->level = 6;
        l6->l6.max_luminance = 4000;
        l6->l6.min_luminance = 50;
        l6->l6.max_cll       = 3500;
        l6->l6.max_fall      = 400;
    }
    ret = cspfix_run1(in, "cspfix=format=yuv420p10le", 1, &out);
    m = side_data(out, AV_FRAME_DATA_MASTERING_DISPLAY_METADATA);
    c = side_data(out, AV_FRAME_DATA_CONTENT_LIGHT_LEVEL);
    CHECK(ret >= 0 && m && av_q2d(m->max_luminance) == 4000 && av_q2d(m->min_luminance) == 0.005 &&
          c && c->MaxCLL == 3500 && c->MaxFALL == 400,
          "DV -> HDR10: level 6's mastering display and content light level");
    av_frame_free(&out);
    ret = cspfix_run1(in, "cspfix=all=bt709:format=yuv420p", 1, &out);
    CHECK(ret >= 0 && !side_data(out, AV_FRAME_DATA_MASTERING_DISPLAY_METADATA) &&
          !side_data(out, AV_FRAME_DATA_CONTENT_LIGHT_LEVEL),
          "DV -> SDR: no HDR10 metadata");
    av_frame_free(&out);
    av_frame_free(&in);
}

/*
 * L1 (the shot's min/avg/max PQ): max is the source peak; avg is the scene's average,
 * which moves tonemap=spline's knee (a bright average darkens the picture) and nothing
 * else (bt2390 the same with any avg).
 */
/* A 64x48 profile 5 frame with its RPU (4 polynomial luma pieces, MMR chroma) and an L1
 * block: a 4000 cd/m2 shot of average avg_pq; *md its metadata, for more blocks */
static AVFrame *l1_frame(int avg_pq, AVDOVIMetadata **md)
{
    AVFrame *in = p5_frame(AV_PIX_FMT_YUV420P10, 64, 48, AVCHROMA_LOC_LEFT, -1, -1, 7);
    const AVFrameSideData *sd;
    AVDOVIDmData *l1;

    if (!in || add_rpu(in, LUMA_4PIECES, CHROMA_MMR, 0) < 0 ||
        !(sd = av_frame_get_side_data(in, AV_FRAME_DATA_DOVI_METADATA))) {
        av_frame_free(&in);
        return NULL;
    }
    *md = (AVDOVIMetadata *)sd->data;
    l1  = av_dovi_get_ext(*md, (*md)->num_ext_blocks++);
    memset(l1, 0, sizeof(*l1));
    l1->level     = 1;
    l1->l1.min_pq = 62;
    l1->l1.max_pq = 3696;                           /* 4000 cd/m2 */
    l1->l1.avg_pq = avg_pq;
    return in;
}

static void test_l1(void)
{
    static const int avgs[] = { 0, 1000, 2600 };     /* of 4095: none, ~5, ~330 cd/m2 */
    static const char *const graphs[] = { "cspfix=all=bt709:format=yuv420p:tonemap=spline",
                                          "cspfix=all=bt709:format=yuv420p" };
    AVFrame *out[2][3] = { { NULL } }, *peak4000 = NULL, *l1max = NULL;
    double mean[2][3] = { { 0 } };
    int ok = 1;

    for (int g = 0; g < 2; g++) {
        for (int i = 0; i < 3; i++) {
            AVDOVIMetadata *md;
            AVFrame *in = l1_frame(avgs[i], &md);

            if (!in) {
                ok = 0;
                continue;
            }
            if (cspfix_run1(in, graphs[g], 1, &out[g][i]) < 0)
                ok = 0;
            if (g == 1 && i == 0) {
                md->num_ext_blocks--;
                if (cspfix_run1(in, "cspfix=all=bt709:format=yuv420p:peak=4000", 1, &peak4000) < 0 ||
                    cspfix_run1(in, "cspfix=all=bt709:format=yuv420p", 1, &l1max) < 0)
                    ok = 0;
            }
            av_frame_free(&in);
        }
    }
    CHECK(ok, "L1: the graphs ran");
    if (!ok)
        goto end;
    for (int g = 0; g < 2; g++)
        for (int i = 0; i < 3; i++) {
            for (int y = 0; y < 48; y++)
                for (int x = 0; x < 64; x++)
                    mean[g][i] += cspfix_sample(out[g][i], 0, x, y, 0) / 255.0;
            mean[g][i] /= 64 * 48;
        }
    printf("DV L1: mean luma out (8-bit code / 255) with tonemap=spline and L1 avg none / 5 / 330 cd/m2: "
           "%.4f / %.4f / %.4f; bt2390 the same for all three: %s; L1 max 4000 is the source "
           "peak: %s\n", mean[0][0], mean[0][1], mean[0][2],
           cspfix_frames_equal(out[1][0], out[1][2]) && cspfix_frames_equal(out[1][0], out[1][1]) ?
           "yes" : "no", cspfix_frames_equal(out[1][0], peak4000) &&
           !cspfix_frames_equal(out[1][0], l1max) ? "yes" : "no");
    CHECK(cspfix_frames_equal(out[0][0], out[0][1]), "L1: a dark average leaves spline's knee");
    CHECK(mean[0][2] < mean[0][0] - 0.01, "L1: a bright average darkens spline's output");
    CHECK(cspfix_frames_equal(out[1][0], out[1][2]), "L1: bt2390 ignores the average");
    CHECK(cspfix_frames_equal(out[1][0], peak4000) && !cspfix_frames_equal(out[1][0], l1max),
          "L1: max is the source peak");
end:
    for (int g = 0; g < 2; g++)
        for (int i = 0; i < 3; i++)
            av_frame_free(&out[g][i]);
    av_frame_free(&peak4000);
    av_frame_free(&l1max);
}

/*
 * L2 trims (ST 2094-10 trim pass): the one made for the output's display runs on the tone
 * curve's output; for an SDR output that is the 100 cd/m2 display (target_max_pq 2081).
 * Neutral codes (2048) and a trim for another display (1000 cd/m2, 3079) change nothing;
 * slope, offset and power move the picture the way a colourist meant them to.
 */
typedef struct L2 { int target, slope, offset, power; } L2;

static int run_l2(const L2 *l2, int n, const char *graph, AVFrame **out)
{
    AVDOVIMetadata *md;
    AVFrame *in = l1_frame(1000, &md);
    int ret;

    if (!in)
        return AVERROR(ENOMEM);
    for (int i = 0; i < n; i++) {
        AVDOVIDmData *e = av_dovi_get_ext(md, md->num_ext_blocks++);
        memset(e, 0, sizeof(*e));
        e->level                   = 2;
        e->l2.target_max_pq        = l2[i].target;
        e->l2.trim_slope           = l2[i].slope;
        e->l2.trim_offset          = l2[i].offset;
        e->l2.trim_power           = l2[i].power;
        e->l2.trim_chroma_weight   = 2048;
        e->l2.trim_saturation_gain = 2048;
        e->l2.ms_weight            = -1;
    }
    ret = cspfix_run1(in, graph, 1, out);
    av_frame_free(&in);
    return ret;
}

/* the mean 8-bit luma of f, and of f where the untrimmed output (base) is dark (16-50) */
static void luma_stats(const AVFrame *f, const AVFrame *base, double *mean, double *dark)
{
    int nd = 0;

    *mean = *dark = 0.0;
    for (int y = 0; y < f->height; y++)
        for (int x = 0; x < f->width; x++) {
            const int v = cspfix_sample(f, 0, x, y, 0), b = cspfix_sample(base, 0, x, y, 0);
            *mean += v;
            if (b >= 16 && b <= 50) {
                *dark += v;
                nd++;
            }
        }
    *mean /= f->width * f->height;
    *dark /= FFMAX(nd, 1);
}

static void test_l2(void)
{
    static const char *const graphs[] = { "cspfix=all=bt709:format=yuv420p",
                                          "cspfix=all=bt709:format=yuv420p:tmmode=ipt" };
    static const L2 neutral = { 2081, 2048, 2048, 2048 }, other = { 3079, 2560, 2048, 2048 };
    static const L2 slope = { 2081, 2560, 2048, 2048 }, power = { 2081, 2048, 2048, 1536 };
    static const L2 lift = { 2081, 2048, 2253, 2048 }, crush = { 2081, 1740, 2048, 2048 };
    static const L2 pair[2] = { { 3079, 1536, 2048, 2048 }, { 2081, 2560, 2048, 2048 } };
    for (int g = 0; g < 2; g++) {
        AVFrame *base = NULL, *f[7] = { NULL };
        double mean[8], dark[8];
        int ok;

        ok = run_l2(NULL, 0, graphs[g], &base) >= 0 &&
             run_l2(&neutral, 1, graphs[g], &f[0]) >= 0 &&
             run_l2(&other, 1, graphs[g], &f[1]) >= 0;
        log_reset();
        ok &= run_l2(&slope, 1, graphs[g], &f[2]) >= 0;
        CHECK(strstr(log_str(), "L2 trim for a 10") && strstr(log_str(), "slope 1.125"),
              "L2 (%s): -v verbose names the trim: %s", graphs[g], log_str());
        ok &= run_l2(&power, 1, graphs[g], &f[3]) >= 0 &&
              run_l2(&lift, 1, graphs[g], &f[4]) >= 0 &&
              run_l2(&crush, 1, graphs[g], &f[5]) >= 0 &&
              run_l2(pair, 2, graphs[g], &f[6]) >= 0;
        CHECK(ok, "L2 (%s): the graphs ran", graphs[g]);
        if (ok) {
            luma_stats(base, base, &mean[7], &dark[7]);
            for (int i = 0; i < 7; i++)
                luma_stats(f[i], base, &mean[i], &dark[i]);
            printf("DV L2 (%s): mean 8-bit luma (and where the untrimmed output has 16-50): "
                   "none %.2f (%.2f), neutral %.2f, for 1000 cd/m2 only %.2f, slope 1.125 %.2f "
                   "(%.2f), power 0.875 %.2f (%.2f), offset +0.05 %.2f (%.2f), slope 0.925 %.2f "
                   "(%.2f)\n", graphs[g], mean[7], dark[7], mean[0], mean[1], mean[2], dark[2],
                   mean[3], dark[3], mean[4], dark[4], mean[5], dark[5]);
            CHECK(cspfix_frames_equal(base, f[0]), "L2 (%s): neutral codes change nothing", graphs[g]);
            CHECK(cspfix_frames_equal(base, f[1]), "L2 (%s): a trim for a 1000 cd/m2 display "
                  "leaves an SDR output", graphs[g]);
            CHECK(mean[2] > mean[7] + 2.0, "L2 (%s): slope 1.125 brightens", graphs[g]);
            CHECK(mean[3] > mean[7] + 1.0 && dark[3] > dark[7] + 1.0, "L2 (%s): power 0.875 "
                  "brightens", graphs[g]);
            CHECK(dark[4] > dark[7] + 1.5 && dark[4] / dark[7] > mean[4] / mean[7], "L2 (%s): "
                  "offset +0.05 lifts the shadows, by more than the mean in proportion", graphs[g]);
            CHECK(mean[5] < mean[7] - 2.0, "L2 (%s): slope 0.925 darkens", graphs[g]);
            CHECK(cspfix_frames_equal(f[6], f[2]), "L2 (%s): of two trims, the SDR display's "
                  "runs", graphs[g]);
        }
        av_frame_free(&base);
        for (int i = 0; i < 7; i++)
            av_frame_free(&f[i]);
    }
}

int main(void)
{
    av_bprint_init(&logbuf, 0, AV_BPRINT_SIZE_UNLIMITED);
    av_log_set_callback(log_cb);
    test_model();
    test_precision();
    test_ignore();
    test_nlq();
    test_profile8();
    test_hdr10_meta();
    test_l1();
    test_l2();
    av_log_set_callback(av_log_default_callback);
    av_bprint_finalize(&logbuf, NULL);
    printf("dovi: %d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
