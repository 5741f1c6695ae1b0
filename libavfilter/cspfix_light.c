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
    /* the curve the tables are built from (relative light, 1.0 = CSPFIX_REF_WHITE) */
    return ff_cspfix_curve_decode(CSPFIX_CURVE_PQ, av_clipd(e, 0.0, 1.0)) * CSPFIX_REF_WHITE;
}

/* One component of a frame, read at luma coordinates: (sample - off) * scale. */
typedef struct CompReader {
    const uint8_t *data;
    ptrdiff_t linesize;
    int step, offset, shift, bytes, be, flt, xs, ys;
    unsigned mask;
    double off, scale;
} CompReader;

/* component r of the row starting at p (read_row()) at luma column x; kind 1, 2: every
 * component is 8-bit, 16-bit little-endian integer (a constant: the others' tests go) */
static av_always_inline double read_at(const CompReader *r, const uint8_t *p, int x, int kind)
{
    unsigned v;

    p += (ptrdiff_t)(x >> r->xs) * r->step;
    if (kind)
        return ((((kind == 1 ? *p : AV_RL16(p)) >> r->shift) & r->mask) - r->off) * r->scale;
    if (r->flt) {
        const union { uint32_t u; float f; } u = { r->be ? AV_RB32(p) : AV_RL32(p) };
        return u.f;
    }
    v = r->bytes == 1 ? *p : r->be ? AV_RB16(p) : AV_RL16(p);
    return (((v >> r->shift) & r->mask) - r->off) * r->scale;
}

/* the first byte of component r at luma row y */
static const uint8_t *read_row(const CompReader *r, int y)
{
    return r->data + (ptrdiff_t)(y >> r->ys) * r->linesize + r->offset;
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

/* A frame being measured: its sample grid is cut into jobs by rows, each with its own
 * histogram and integer sums, so that the result is the same for any number of jobs. */
struct CspfixLightScan {
    const AVFrame *f;
    CompReader r[3];
    double kr, kb, kg;
    double cr_r, cb_b, cb_g, cr_g;  ///< R' = Y' + cr_r Cr, B' = Y' + cb_b Cb, G' = Y' + cb_g Cb + cr_g Cr
    int rgb, luma_only, step, nb_jobs;
    uint32_t (*hist)[CSPFIX_LIGHT_BINS];
    int64_t *sum;               ///< per job: max(R', G', B') in units of 2^-24
    int64_t *n;
};

/* the fixed point of the sums: exact whatever the order of addition */
#define SUM_ONE (1 << 24)

int ff_cspfix_light_scan_init(CspfixLightScan **ps, const AVFrame *f, const CspfixDesc *id,
                              int nb_jobs)
{
    const AVPixFmtDescriptor *d = av_pix_fmt_desc_get(f->format);
    CspfixLightScan *s;
    int ret;

    *ps = NULL;
    if (!d || d->nb_components < 3 || (d->flags & (AV_PIX_FMT_FLAG_BITSTREAM | AV_PIX_FMT_FLAG_PAL |
                                                   AV_PIX_FMT_FLAG_HWACCEL)))
        return AVERROR(ENOSYS);
    if (!(s = av_mallocz(sizeof(*s))))
        return AVERROR(ENOMEM);
    for (int c = 0; c < 3; c++)
        if ((ret = comp_reader(&s->r[c], f, d, c, id)) < 0) {
            av_free(s);
            return ret;
        }
    s->f    = f;
    s->rgb  = !!(d->flags & AV_PIX_FMT_FLAG_RGB);
    if (!s->rgb && ff_cspfix_luma_coeffs(id->csp, id->prim, &s->kr, &s->kb) < 0)
        s->luma_only = 1; /* ICtCp, YCgCo: I or Y' alone */
    s->kg   = 1.0 - s->kr - s->kb;
    s->cr_r = 2.0 * (1.0 - s->kr);
    s->cb_b = 2.0 * (1.0 - s->kb);
    s->cb_g = -s->kb * s->cb_b / s->kg;
    s->cr_g = -s->kr * s->cr_r / s->kg;
    s->step = FFMAX(1, (int)ceil(sqrt((double)f->width * f->height / CSPFIX_LIGHT_SAMPLES)));
    s->nb_jobs = av_clip(nb_jobs, 1, FFMAX((f->height + s->step - 1) / s->step, 1));
    s->hist = av_calloc(s->nb_jobs, sizeof(*s->hist));
    s->sum  = av_calloc(s->nb_jobs, sizeof(*s->sum));
    s->n    = av_calloc(s->nb_jobs, sizeof(*s->n));
    if (!s->hist || !s->sum || !s->n) {
        ff_cspfix_light_scan_free(&s);
        return AVERROR(ENOMEM);
    }
    *ps = s;
    return 0;
}

int ff_cspfix_light_scan_jobs(const CspfixLightScan *s)
{
    return s->nb_jobs;
}

static av_always_inline void scan_job(CspfixLightScan *s, int job, int kind)
{
    const int rows = (s->f->height - s->step / 2 + s->step - 1) / s->step;
    const int r0 = rows * job / s->nb_jobs, r1 = rows * (job + 1) / s->nb_jobs;
    uint32_t *hist = s->hist[job];
    int64_t sum = 0, n = 0;

    for (int row = r0; row < r1; row++) {
        const int y = s->step / 2 + row * s->step;
        const uint8_t *p0 = read_row(&s->r[0], y), *p1 = read_row(&s->r[1], y),
                      *p2 = read_row(&s->r[2], y);
        for (int x = s->step / 2; x < s->f->width; x += s->step) {
            double m;
            if (s->rgb) {
                /* the descriptor orders R, G, B */
                m = FFMAX3(read_at(&s->r[0], p0, x, kind), read_at(&s->r[1], p1, x, kind),
                           read_at(&s->r[2], p2, x, kind));
            } else if (s->luma_only) {
                m = read_at(&s->r[0], p0, x, kind);
            } else {
                const double yy = read_at(&s->r[0], p0, x, kind), cb = read_at(&s->r[1], p1, x, kind),
                             cr = read_at(&s->r[2], p2, x, kind);
                const double rr = yy + s->cr_r * cr, bb = yy + s->cb_b * cb;
                const double gg = yy + s->cb_g * cb + s->cr_g * cr;
                m = FFMAX3(rr, gg, bb);
            }
            m = av_clipd(m, 0.0, 1.0);
            sum += (int64_t)(m * SUM_ONE + 0.5);
            hist[FFMIN((int)(m * CSPFIX_LIGHT_BINS), CSPFIX_LIGHT_BINS - 1)]++;
            n++;
        }
    }
    s->sum[job] = sum;
    s->n[job]   = n;
}

void ff_cspfix_light_scan_job(CspfixLightScan *s, int job)
{
    int kind = 0;

    /* the usual layouts without the per-sample tests */
    if (!s->r[0].flt && !s->r[0].be) {
        kind = s->r[0].bytes;
        for (int c = 1; c < 3; c++)
            if (s->r[c].flt || s->r[c].be || s->r[c].bytes != kind)
                kind = 0;
    }
    if (kind == 2)
        scan_job(s, job, 2);
    else if (kind == 1)
        scan_job(s, job, 1);
    else
        scan_job(s, job, 0);
}

void ff_cspfix_light_scan_finish(CspfixLightScan *s, CspfixFrameLight *fl)
{
    uint64_t hist[CSPFIX_LIGHT_BINS] = { 0 };
    int64_t sum = 0, n = 0;
    double above = 0.0, k;
    int b;

    for (int j = 0; j < s->nb_jobs; j++) {
        for (int i = 0; i < CSPFIX_LIGHT_BINS; i++)
            hist[i] += s->hist[j][i];
        sum += s->sum[j];
        n   += s->n[j];
    }
    memset(fl, 0, sizeof(*fl));
    /* the percentile: the value below which CSPFIX_LIGHT_PCT of the samples lie,
     * interpolated within its bin */
    k = n * (1.0 - CSPFIX_LIGHT_PCT);
    for (b = CSPFIX_LIGHT_BINS - 1; b > 0 && above + hist[b] < k; b--)
        above += hist[b];
    fl->peak_pq   = hist[b] ? (b + 1 - (k - above) / hist[b]) / CSPFIX_LIGHT_BINS
                            : (double)b / CSPFIX_LIGHT_BINS;
    fl->peak_pq   = av_clipd(fl->peak_pq, 0.0, 1.0);
    fl->mean_pq   = n ? (double)sum / SUM_ONE / n : 0.0;
    fl->n         = n;
    fl->luma_only = s->luma_only;
}

void ff_cspfix_light_scan_free(CspfixLightScan **ps)
{
    CspfixLightScan *s = *ps;

    if (!s)
        return;
    av_freep(&s->hist);
    av_freep(&s->sum);
    av_freep(&s->n);
    av_freep(ps);
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

/* The mean of peak_pq (mean 0) or of mean_pq (mean 1) of frame idx's shot's frames from
 * CSPFIX_LIGHT_SMOOTH - 1 before it to the last one measured */
static double shot_mean(const CspfixLight *m, int64_t idx, int mean)
{
    const int shot = m->h[idx % CSPFIX_LIGHT_HIST].shot;
    double sum = 0.0;
    int n = 0;

    for (int64_t j = FFMAX(idx - CSPFIX_LIGHT_SMOOTH + 1, 0); j < m->nb; j++) {
        const CspfixFrameLight *h = &m->h[j % CSPFIX_LIGHT_HIST];
        if (h->shot == shot) {
            sum += mean ? h->mean_pq : h->peak_pq;
            n++;
        }
    }
    return sum / n;
}

double ff_cspfix_light_mean(CspfixLight *m, int64_t idx)
{
    const int shot = m->h[idx % CSPFIX_LIGHT_HIST].shot;
    const double mean = shot_mean(m, idx, 1);

    if (shot != m->mean_shot || fabs(mean - m->mean) > CSPFIX_LIGHT_MEAN_HYST) {
        m->mean      = mean;
        m->mean_shot = shot;
    }
    return ff_cspfix_pq_to_nits(m->mean);
}

double ff_cspfix_light_peak(CspfixLight *m, int64_t idx)
{
    const int shot = m->h[idx % CSPFIX_LIGHT_HIST].shot;
    /* content dimmer than reference white needs no compression */
    const double peak = FFMAX(ff_cspfix_pq_to_nits(shot_mean(m, idx, 0)), CSPFIX_REF_WHITE);

    if (shot != m->peak_shot || !m->peak || fabs(peak / m->peak - 1.0) > CSPFIX_LIGHT_HYST) {
        m->peak      = peak;
        m->peak_shot = shot;
    }
    return m->peak;
}
