/*
 * cspfix: measured light (per-frame statistics of PQ frames, smoothed within a shot)
 * side data)
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

#include "libavutil/common.h"
#include "libavutil/csp.h"
#include "libavutil/error.h"
#include "libavutil/intreadwrite.h"
#include "libavutil/mem.h"
#include "libavutil/pixdesc.h"

#include "cspfix_colorimetry.h"
#include "cspfix_light.h"
#include "cspfix_tf.h"

double ff_cspfix_pq_to_nits(double e)
{
    return av_csp_trc_func_inv_from_id(AVCOL_TRC_SMPTE2084)(av_clipd(e, 0.0, 1.0));
}

/* One component of a frame, read at luma coordinates: (sample - off) * scale. */
typedef struct CompReader {
    const uint8_t *data;
    ptrdiff_t linesize;
    int step, offset, shift, bytes, be, flt, xs, ys;
    unsigned mask;
    double off, scale;
} CompReader;

static double read_comp(const CompReader *r, int x, int y)
{
    const uint8_t *p = r->data + (ptrdiff_t)(y >> r->ys) * r->linesize +
                       (ptrdiff_t)(x >> r->xs) * r->step + r->offset;
    unsigned v;

    if (r->flt) {
        const union { uint32_t u; float f; } u = { r->be ? AV_RB32(p) : AV_RL32(p) };
        return u.f;
    }
    v = r->bytes == 1 ? *p : r->be ? AV_RB16(p) : AV_RL16(p);
    return (((v >> r->shift) & r->mask) - r->off) * r->scale;
}

/* Reader of component c (0: Y'/R', ... as the descriptor orders them) normalised to
 * the signal: Y', R', G', B' in [0, 1], Cb, Cr in [-1/2, 1/2] (range as id says). */
static int comp_reader(CompReader *r, const AVFrame *f, const AVPixFmtDescriptor *d, int c,
                       const CspfixDesc *id)
{
    const AVComponentDescriptor *cd = &d->comp[c];
    const int chroma = !(d->flags & AV_PIX_FMT_FLAG_RGB) && c > 0 && c < 3;
    const int depth = cd->depth, tv = id->range == AVCOL_RANGE_MPEG;
    const double s = depth > 8 ? (double)(1 << (depth - 8)) : 1.0;

    if (cd->depth > 16 && !(d->flags & AV_PIX_FMT_FLAG_FLOAT))
        return AVERROR(ENOSYS);
    if ((d->flags & AV_PIX_FMT_FLAG_FLOAT) && cd->depth != 32)
        return AVERROR(ENOSYS);
    memset(r, 0, sizeof(*r));
    r->data     = f->data[cd->plane];
    r->linesize = f->linesize[cd->plane];
    r->step     = cd->step;
    r->offset   = cd->offset;
    r->shift    = cd->shift;
    r->mask     = depth < 32 ? (1u << depth) - 1 : ~0u;
    r->bytes    = cd->shift + depth > 8 ? 2 : 1;
    r->be       = !!(d->flags & AV_PIX_FMT_FLAG_BE);
    r->flt      = !!(d->flags & AV_PIX_FMT_FLAG_FLOAT);
    r->xs       = chroma ? d->log2_chroma_w : 0;
    r->ys       = chroma ? d->log2_chroma_h : 0;
    if (r->flt) {
        r->scale = 1.0;
        return 0;
    }
    if (chroma) {
        r->off   = tv ? 128 * s : (double)(1 << (depth - 1));
        r->scale = 1.0 / (tv ? 224 * s : (double)((1 << depth) - 1));
    } else {
        r->off   = tv ? 16 * s : 0.0;
        r->scale = 1.0 / (tv ? 219 * s : (double)((1 << depth) - 1));
    }
    return 0;
}

int ff_cspfix_light_measure(const AVFrame *f, const CspfixDesc *id, CspfixFrameLight *fl)
{
    const AVPixFmtDescriptor *d = av_pix_fmt_desc_get(f->format);
    const int rgb = d && (d->flags & AV_PIX_FMT_FLAG_RGB);
    CompReader r[3];
    double kr = 0.0, kb = 0.0, kg, sum = 0.0, above = 0.0, k;
    unsigned *hist;
    int step, n = 0, luma_only = 0, ret, b;

    memset(fl, 0, sizeof(*fl));
    if (!d || d->nb_components < 3 || (d->flags & (AV_PIX_FMT_FLAG_BITSTREAM | AV_PIX_FMT_FLAG_PAL |
                                                   AV_PIX_FMT_FLAG_HWACCEL)))
        return AVERROR(ENOSYS);
    for (int c = 0; c < 3; c++)
        if ((ret = comp_reader(&r[c], f, d, c, id)) < 0)
            return ret;
    if (!rgb && ff_cspfix_luma_coeffs(id->csp, id->prim, &kr, &kb) < 0)
        luma_only = 1; /* ICtCp, YCgCo: I or Y' alone */
    kg = 1.0 - kr - kb;
    if (!(hist = av_calloc(CSPFIX_LIGHT_BINS, sizeof(*hist))))
        return AVERROR(ENOMEM);
    step = FFMAX(1, (int)sqrt((double)f->width * f->height / CSPFIX_LIGHT_SAMPLES));
    for (int y = step / 2; y < f->height; y += step) {
        for (int x = step / 2; x < f->width; x += step) {
            double m;
            if (rgb) {
                /* the descriptor orders R, G, B */
                m = FFMAX3(read_comp(&r[0], x, y), read_comp(&r[1], x, y), read_comp(&r[2], x, y));
            } else if (luma_only) {
                m = read_comp(&r[0], x, y);
            } else {
                const double yy = read_comp(&r[0], x, y), cb = read_comp(&r[1], x, y),
                             cr = read_comp(&r[2], x, y);
                const double rr = yy + 2.0 * (1.0 - kr) * cr, bb = yy + 2.0 * (1.0 - kb) * cb;
                const double gg = (yy - kr * rr - kb * bb) / kg;
                m = FFMAX3(rr, gg, bb);
            }
            m = av_clipd(m, 0.0, 1.0);
            sum += m;
            hist[FFMIN((int)(m * CSPFIX_LIGHT_BINS), CSPFIX_LIGHT_BINS - 1)]++;
            n++;
        }
    }
    /* the percentile: the value below which CSPFIX_LIGHT_PCT of the samples lie,
     * interpolated within its bin */
    k = n * (1.0 - CSPFIX_LIGHT_PCT);
    for (b = CSPFIX_LIGHT_BINS - 1; b > 0 && above + hist[b] < k; b--)
        above += hist[b];
    fl->peak_pq   = hist[b] ? (b + 1 - (k - above) / hist[b]) / CSPFIX_LIGHT_BINS
                            : (double)b / CSPFIX_LIGHT_BINS;
    fl->peak_pq   = av_clipd(fl->peak_pq, 0.0, 1.0);
    fl->mean_pq   = n ? sum / n : 0.0;
    fl->n         = n;
    fl->luma_only = luma_only;
    av_free(hist);
    return 0;
}

int64_t ff_cspfix_light_add(CspfixLight *m, CspfixFrameLight *fl, int *new_shot)
{
    const int64_t idx = m->nb;
    double mean = 0.0;
    int n = 0;

    /* the brightness of the current shot: the mean of its last frames */
    for (int64_t j = idx - 1; j >= 0 && j > idx - 1 - CSPFIX_LIGHT_SMOOTH; j--) {
        const CspfixFrameLight *h = &m->h[j % CSPFIX_LIGHT_HIST];
        if (h->shot != m->shots)
            break;
        mean += h->mean_pq;
        n++;
    }
    *new_shot = !n || fabs(fl->mean_pq - mean / n) > CSPFIX_LIGHT_CUT;
    if (*new_shot)
        m->shots++;
    fl->shot = m->shots;
    m->h[idx % CSPFIX_LIGHT_HIST] = *fl;
    m->nb++;
    return idx;
}

double ff_cspfix_light_peak(CspfixLight *m, int64_t idx)
{
    const int shot = m->h[idx % CSPFIX_LIGHT_HIST].shot;
    double sum = 0.0, peak;
    int n = 0;

    for (int64_t j = FFMAX(idx - CSPFIX_LIGHT_SMOOTH + 1, 0); j < m->nb; j++) {
        const CspfixFrameLight *h = &m->h[j % CSPFIX_LIGHT_HIST];
        if (h->shot == shot) {
            sum += h->peak_pq;
            n++;
        }
    }
    /* content dimmer than reference white needs no compression */
    peak = FFMAX(ff_cspfix_pq_to_nits(sum / n), CSPFIX_REF_WHITE);
    if (shot != m->peak_shot || !m->peak || fabs(peak / m->peak - 1.0) > CSPFIX_LIGHT_HYST) {
        m->peak      = peak;
        m->peak_shot = shot;
    }
    return m->peak;
}
