/*
 * cspfix: Dolby Vision reshaping (the RPU's composer) and colour
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

/**
 * @file
 * Dolby Vision: an RPU's reshaping applied to its base layer and its colour handed to
 * the plan (doc/conversion-model.md section 9). Polynomial pieces run as a table per
 * base layer code (evaluated in float64); MMR pieces (chroma) per chroma sample in float32
 * by the dovi DSP family (fused multiply-adds, as GPU renderers evaluate them: within
 * 1e-5 of float64 for coefficients up to about 10), with the mean of the luma samples the
 * chroma sample covers.
 */

#include <string.h>

#include "libavutil/common.h"
#include "libavutil/csp.h"
#include "libavutil/mastering_display_metadata.h"
#include "libavutil/mem.h"
#include "libavutil/pixdesc.h"

#include "cspfix_colorimetry.h"
#include "cspfix_dovi.h"
#include "cspfix_dsp.h"
#include "cspfix_hdrmeta.h"
#include "cspfix_tf.h"

/* Dolby Vision's BT.2020 RGB -> LMS (14-bit): its inverse takes the RPU's LMS to RGB */
static const double dovi_rgb_to_lms[3][3] = {
    { 7222 / 16384.0,  8771 / 16384.0,   390 / 16384.0 },
    { 2654 / 16384.0, 12430 / 16384.0,  1300 / 16384.0 },
    {    0 / 16384.0,   422 / 16384.0, 15962 / 16384.0 },
};

/* NLQ parameters that leave the base layer as it is (no enhancement layer in effect) */
static int nlq_trivial(const AVDOVIRpuDataHeader *h, const AVDOVIDataMapping *m)
{
    if (m->nlq_method_idc == AV_DOVI_NLQ_NONE)
        return 1;
    if (m->nlq_method_idc != AV_DOVI_NLQ_LINEAR_DZ)
        return 0;
    for (int c = 0; c < 3; c++) {
        const AVDOVINLQParams *n = &m->nlq[c];
        if (n->nlq_offset || n->vdr_in_max != (UINT64_C(1) << h->coef_log2_denom) ||
            n->linear_deadzone_slope || n->linear_deadzone_threshold)
            return 0;
    }
    return 1;
}

enum CspfixDoviUse ff_cspfix_dovi_check(const AVFrame *in)
{
    const AVFrameSideData *sd = av_frame_get_side_data(in, AV_FRAME_DATA_DOVI_METADATA);
    const AVDOVIMetadata *md;
    const AVDOVIRpuDataHeader *h;

    if (!sd)
        return CSPFIX_DOVI_NONE;
    md = (const AVDOVIMetadata *)sd->data;
    h  = av_dovi_get_header(md);
    if (h->disable_residual_flag || nlq_trivial(h, av_dovi_get_mapping(md)))
        return CSPFIX_DOVI_APPLY;
    return CSPFIX_DOVI_BASE;
}

/* ---- the curves ---- */

static double poly_eval(const CspfixDoviPiece *p, double x)
{
    double y = p->poly[0] + x * p->poly[1];
    if (p->order >= 2)
        y += x * x * p->poly[2];
    return y;
}

static int piece_of(const CspfixDoviCurve *cv, double x)
{
    int k = 0;
    for (int i = 1; i < cv->nb_pieces; i++)
        k += x >= cv->pivot[i];
    return k;
}

static uint16_t to16(double r)
{
    return av_clip_uint16(lrint(r * 65535.0));
}

static int build_curve(void *log_ctx, CspfixDovi *d, int c, const AVDOVIRpuDataHeader *h,
                       const AVDOVIReshapingCurve *src)
{
    CspfixDoviCurve *cv = &d->curve[c];
    const double den = ldexp(1.0, h->coef_log2_denom);
    const int n = 1 << d->depth;

    if (src->num_pivots < 2 || src->num_pivots > AV_DOVI_MAX_PIECES + 1) {
        av_log(log_ctx, AV_LOG_ERROR, "Dolby Vision RPU: component %d has %d pivots; 2 to "
               "%d are valid.\n", c, src->num_pivots, AV_DOVI_MAX_PIECES + 1);
        return AVERROR_INVALIDDATA;
    }
    cv->nb_pieces = src->num_pivots - 1;
    cv->has_mmr   = 0;
    for (int i = 0; i < src->num_pivots; i++)
        cv->pivot[i] = src->pivots[i] / d->max_code;
    for (int k = 0; k < cv->nb_pieces; k++) {
        CspfixDoviPiece *p = &cv->piece[k];
        memset(p, 0, sizeof(*p));
        if (src->mapping_idc[k] == AV_DOVI_MAPPING_POLYNOMIAL) {
            p->order = src->poly_order[k];
            if (p->order < 1 || p->order > 2) {
                av_log(log_ctx, AV_LOG_ERROR, "Dolby Vision RPU: component %d piece %d has a "
                       "polynomial of order %d; 1 and 2 are valid.\n", c, k, p->order);
                return AVERROR_INVALIDDATA;
            }
            for (int j = 0; j <= p->order; j++)
                p->poly[j] = src->poly_coef[k][j] / den;
        } else if (src->mapping_idc[k] == AV_DOVI_MAPPING_MMR && c > 0) {
            p->mmr   = 1;
            p->order = src->mmr_order[k];
            if (p->order < 1 || p->order > 3) {
                av_log(log_ctx, AV_LOG_ERROR, "Dolby Vision RPU: component %d piece %d has an "
                       "MMR mapping of order %d; 1 to 3 are valid.\n", c, k, p->order);
                return AVERROR_INVALIDDATA;
            }
            /* the kernel's table: the constant, coefficient (term i, order o + 1) at row
             * 1 + 3 i + o (0 above the piece's order), lo, hi */
            for (int r = 0; r < CSPFIX_DOVI_MMR_K; r++) {
                const int o = (r - 1) % 3, i = (r - 1) / 3;
                const double v = r == 0  ? src->mmr_constant[k] / den :
                                 r == 22 ? cv->pivot[0] :
                                 r == 23 ? cv->pivot[cv->nb_pieces] :
                                 o < p->order ? src->mmr_coef[k][o][i] / den : 0.0;
                for (int l = 0; l < 16; l++)
                    p->mmr_v[r][l] = v;
            }
            cv->has_mmr = 1;
        } else {
            av_log(log_ctx, AV_LOG_ERROR, "Dolby Vision RPU: component %d piece %d has mapping "
                   "method %d; polynomial (0) and, for chroma, MMR (1) are valid.\n", c, k,
                   src->mapping_idc[k]);
            return AVERROR_INVALIDDATA;
        }
    }
    /* one entry per code: the piece, and the polynomial pieces' result */
    if (!cv->lut) {
        /* the SIMD lookups read one entry after the last */
        cv->lut      = av_calloc((1 << 16) + 16, sizeof(*cv->lut));
        cv->piece_of = av_malloc(1 << 16);
        if (!cv->lut || !cv->piece_of)
            return AVERROR(ENOMEM);
    }
    for (int v = 0; v < n; v++) {
        const double x = v / d->max_code;
        const int k = piece_of(cv, x);
        const CspfixDoviPiece *p = &cv->piece[k];
        cv->piece_of[v] = k;
        cv->lut[v] = p->mmr ? 0 :
                     to16(FFMIN(FFMAX(poly_eval(p, x), cv->pivot[0]),
                                cv->pivot[cv->nb_pieces]));
    }
    return 0;
}

static void build_color(CspfixDovi *d, const AVDOVIColorMetadata *col)
{
    double nm[3][3], l[3][3], f[3][3];
    const double oscale = (d->max_code + 1.0) / d->max_code;

    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            nm[i][j] = av_q2d(col->ycc_to_rgb_matrix[3 * i + j]);
            l[i][j]  = av_q2d(col->rgb_to_lms_matrix[3 * i + j]);
        }
    /* E' = N (code / 65535 - o') */
    for (int i = 0; i < 3; i++) {
        double off = 0.0;
        for (int j = 0; j < 3; j++) {
            d->color.ycc[i][j] = nm[i][j] / 65535.0;
            off += nm[i][j] * av_q2d(col->ycc_to_rgb_offset[j]) * oscale;
        }
        d->color.ycc[i][3] = -off;
    }
    ff_cspfix_mat3_inv(f, dovi_rgb_to_lms);
    ff_cspfix_mat3_mul(d->color.lms, f, l);
}

static int same_rpu(const CspfixDovi *d, const AVDOVIRpuDataHeader *h,
                    const AVDOVIDataMapping *m, const AVDOVIColorMetadata *col)
{
    return d->built && !memcmp(&d->header, h, sizeof(*h)) &&
           !memcmp(&d->mapping, m, sizeof(*m)) && !memcmp(&d->col, col, sizeof(*col));
}

static enum AVPixelFormat reshaped_format(int hsub, int vsub)
{
    if (!hsub && !vsub)
        return AV_PIX_FMT_YUV444P16;
    if (hsub == 1 && !vsub)
        return AV_PIX_FMT_YUV422P16;
    if (hsub == 1 && vsub == 1)
        return AV_PIX_FMT_YUV420P16;
    return AV_PIX_FMT_NONE;
}

/* The L2 trims (ST 2094-10 trim pass), 12-bit codes: slope = code / 4096 + 0.5, offset =
 * code / 4096 - 0.5, power = code / 4096 + 0.5 (2048: neutral); the target display's peak
 * is target_max_pq, 12-bit PQ. Chroma weight, saturation gain and ms_weight are not used
 * (doc/conversion-model.md section 9). */
static void get_trims(CspfixDovi *d, const AVDOVIMetadata *md)
{
    d->nb_trims = 0;
    for (int i = 0; i < md->num_ext_blocks && d->nb_trims < CSPFIX_MAX_TRIMS; i++) {
        const AVDOVIDmData *e = av_dovi_get_ext(md, i);
        CspfixTrim *tr = &d->trims[d->nb_trims];
        if (e->level != 2 || !e->l2.target_max_pq)
            continue;
        tr->target = ff_cspfix_curve_decode(CSPFIX_CURVE_PQ, e->l2.target_max_pq / 4095.0) *
                     CSPFIX_REF_WHITE;
        tr->slope  = e->l2.trim_slope  / 4096.0 + 0.5;
        tr->offset = e->l2.trim_offset / 4096.0 - 0.5;
        tr->power  = e->l2.trim_power  / 4096.0 + 0.5;
        d->nb_trims++;
    }
}

int ff_cspfix_dovi_update(void *log_ctx, CspfixDovi *d, const AVFrame *in, int nb_jobs)
{
    const AVFrameSideData *sd = av_frame_get_side_data(in, AV_FRAME_DATA_DOVI_METADATA);
    const AVPixFmtDescriptor *desc = av_pix_fmt_desc_get(in->format);
    const AVDOVIMetadata *md;
    const AVDOVIRpuDataHeader *h;
    const AVDOVIDataMapping *m;
    const AVDOVIColorMetadata *col;
    const AVDOVIDmData *l1;
    enum AVPixelFormat rfmt;
    int ret;

    if (!sd || !desc)
        return 0;
    md  = (const AVDOVIMetadata *)sd->data;
    h   = av_dovi_get_header(md);
    m   = av_dovi_get_mapping(md);
    col = av_dovi_get_color(md);

    if ((desc->flags & (AV_PIX_FMT_FLAG_RGB | AV_PIX_FMT_FLAG_FLOAT)) ||
        desc->nb_components < 3 ||
        (rfmt = reshaped_format(desc->log2_chroma_w, desc->log2_chroma_h)) == AV_PIX_FMT_NONE) {
        av_log(log_ctx, AV_LOG_ERROR, "Dolby Vision RPU on %s frames: its reshaping applies "
               "to integer Y'CbCr 4:2:0, 4:2:2 or 4:4:4 base layers (use dovi=ignore to "
               "convert the frames by their tags).\n", av_get_pix_fmt_name(in->format));
        return AVERROR(ENOSYS);
    }
    if (h->bl_bit_depth != desc->comp[0].depth) {
        av_log(log_ctx, AV_LOG_ERROR, "Dolby Vision RPU for a %d-bit base layer on %d-bit "
               "frames (%s): the frames are not the RPU's base layer (use dovi=ignore to "
               "convert them by their tags).\n", h->bl_bit_depth, desc->comp[0].depth,
               av_get_pix_fmt_name(in->format));
        return AVERROR_INVALIDDATA;
    }

    if (!same_rpu(d, h, m, col)) {
        d->built    = 0;
        d->depth    = h->bl_bit_depth;
        d->max_code = (1 << d->depth) - 1;
        d->norm.max  = d->max_code;
        d->norm.inv  = 1.0f / d->norm.max;
        d->norm.inv4 = d->norm.inv * 0.25f;
        for (int c = 0; c < 3; c++)
            if ((ret = build_curve(log_ctx, d, c, h, &m->curves[c])) < 0)
                return ret;
        build_color(d, col);
        d->header  = *h;
        d->mapping = *m;
        d->col     = *col;
        d->built   = 1;
    }
    l1 = av_dovi_find_level(md, 1);
    d->l1_max = l1 && l1->l1.max_pq ?
                ff_cspfix_curve_decode(CSPFIX_CURVE_PQ, l1->l1.max_pq / 4095.0) * CSPFIX_REF_WHITE :
                0.0;
    d->l1_avg = l1 && l1->l1.avg_pq ?
                ff_cspfix_curve_decode(CSPFIX_CURVE_PQ, l1->l1.avg_pq / 4095.0) * CSPFIX_REF_WHITE :
                0.0;
    get_trims(d, md);

    if (d->fin.fmt != in->format || !d->frame || d->frame->width != in->width ||
        d->frame->height != in->height) {
        if ((ret = ff_cspfix_format_init(&d->fin, in->format)) < 0)
            return ret;
        ff_cspfix_dsp_init(&d->dsp);
        av_frame_free(&d->frame);
        if (!(d->frame = av_frame_alloc()))
            return AVERROR(ENOMEM);
        d->frame->format = rfmt;
        d->frame->width  = in->width;
        d->frame->height = in->height;
        /* rows of whole 64-byte vectors: the MMR kernels write up to them */
        if ((ret = av_frame_get_buffer(d->frame, 64)) < 0) {
            av_frame_free(&d->frame);
            return ret;
        }
    }
    if (d->scratch_w < in->width || d->scratch_jobs < nb_jobs) {
        av_freep(&d->scratch);
        d->scratch_w    = FFALIGN(in->width, 64) + 64;
        d->scratch_jobs = nb_jobs;
        if (!(d->scratch = av_calloc((size_t)d->scratch_w * CSPFIX_DOVI_ROWS * nb_jobs, sizeof(float)))) {
            d->scratch_w = d->scratch_jobs = 0;
            return AVERROR(ENOMEM);
        }
    }
    return 0;
}

int ff_cspfix_dovi_jobs(const CspfixDovi *d, int h, int nb_threads)
{
    const int ch = AV_CEIL_RSHIFT(h, d->fin.vsub);
    return FFMAX(FFMIN3(nb_threads, d->scratch_jobs, ch / 8), 1);
}

/* chroma row: the table where the piece is a polynomial, MMR elsewhere (each MMR piece
 * over the row into tmp, taken where it applies) */
static void chroma_row(const CspfixDovi *d, int c, const uint16_t *codes, const float *x0,
                       const float *x1, const float *x2, uint16_t *dst, uint16_t *tmp, int w)
{
    const CspfixDoviCurve *cv = &d->curve[c];
    const int max = d->max_code;

    if (cv->nb_pieces == 1 && cv->piece[0].mmr) {
        d->dsp.dovi.mmr(dst, x0, x1, x2, (const float (*)[16])cv->piece[0].mmr_v, w);
        return;
    }
    d->dsp.dovi.lut(dst, codes, w, cv->lut, max);
    for (int k = 0; k < cv->nb_pieces; k++) {
        if (!cv->piece[k].mmr)
            continue;
        d->dsp.dovi.mmr(tmp, x0, x1, x2, (const float (*)[16])cv->piece[k].mmr_v, w);
        for (int x = 0; x < w; x++)
            if (cv->piece_of[FFMIN(codes[x], max)] == k)
                dst[x] = tmp[x];
    }
}

/* row y of component c (of h rows) as codes: the frame's own 16-bit samples where whole
 * vectors read after w stay inside the frame (a row with one after it, at least 64 samples
 * wide), else a copy in buf (a scratch row); fbuf: float scratch for the generic reader */
static const uint16_t *code_row(const CspfixDovi *d, const AVFrame *in, int c, int y, int w,
                                int h, uint16_t *buf, float *fbuf)
{
    const CspfixComp *cp = &d->fin.comp[c];
    const uint8_t *src = ff_cspfix_row_ptr(in, cp, y);

    if (cp->kind == CSPFIX_COMP_PLANAR16) {
        if (y + 1 < h && w >= 64 && in->linesize[cp->plane] >= 2 * w)
            return (const uint16_t *)src;
        memcpy(buf, src, w * sizeof(*buf));
        return buf;
    }
    if (cp->kind == CSPFIX_COMP_PLANAR8) {
        for (int x = 0; x < w; x++)
            buf[x] = src[x];
        return buf;
    }
    ff_cspfix_read(&d->dsp, &d->fin, in, c, y, w, fbuf);
    for (int x = 0; x < w; x++)
        buf[x] = (int)fbuf[x];
    return buf;
}

/* x0: the mean of the luma samples each chroma sample covers, as signal (4:2:0 of an
 * even width: the dovi DSP's mean420, the same numbers) */
static void luma_mean(const CspfixDovi *d, float *x0, const uint16_t *const yr[2], int nl,
                      int w, int cw, int hs)
{
    const int max = d->norm.max;
    const float inv = d->norm.inv;

    if (nl == 2 && hs == 1 && !(w & 1)) {
        d->dsp.dovi.mean420(x0, yr[0], yr[1], cw, &d->norm);
        return;
    }
    for (int x = 0; x < cw; x++) {
        const int lx0 = x << hs, nx = FFMIN(1 << hs, w - lx0);
        int sum = 0;
        for (int i = 0; i < nl; i++)
            for (int j = 0; j < nx; j++)
                sum += FFMIN(yr[i][lx0 + j], max);
        x0[x] = sum / (float)(nl * nx) * inv;
    }
}

void ff_cspfix_dovi_slice(CspfixDovi *d, const AVFrame *in, int jobnr, int nb_jobs)
{
    const CspfixFormat *f = &d->fin;
    AVFrame *out = d->frame;
    const int w = in->width, h = in->height, hs = f->hsub, vs = f->vsub;
    const int cw = AV_CEIL_RSHIFT(w, hs), ch = AV_CEIL_RSHIFT(h, vs);
    const int c0 = ch * jobnr / nb_jobs, c1 = ch * (jobnr + 1) / nb_jobs;
    const size_t sw = d->scratch_w;
    float *const buf = d->scratch + sw * CSPFIX_DOVI_ROWS * jobnr;
    float *const x0 = buf, *const x1 = buf + sw, *const x2 = buf + 2 * sw, *const fb = buf + 3 * sw;
    uint16_t *const tmp = (uint16_t *)(buf + 4 * sw);
    uint16_t *const cbuf[4] = { (uint16_t *)(buf + 5 * sw), (uint16_t *)(buf + 5 * sw) + sw,
                                (uint16_t *)(buf + 6 * sw), (uint16_t *)(buf + 6 * sw) + sw };
    const int mmr = d->curve[1].has_mmr || d->curve[2].has_mmr;

    for (int cy = c0; cy < c1; cy++) {
        const int ly0 = cy << vs, nl = FFMIN(1 << vs, h - ly0);
        const uint16_t *yr[2], *cb, *cr;

        for (int i = 0; i < nl; i++) {
            yr[i] = code_row(d, in, 0, ly0 + i, w, h, cbuf[i], fb);
            d->dsp.dovi.lut((uint16_t *)(out->data[0] + (ptrdiff_t)(ly0 + i) * out->linesize[0]),
                            yr[i], w, d->curve[0].lut, d->max_code);
        }
        cb = code_row(d, in, 1, cy, cw, ch, cbuf[2], fb);
        cr = code_row(d, in, 2, cy, cw, ch, cbuf[3], fb);
        if (mmr) {
            luma_mean(d, x0, yr, nl, w, cw, hs);
            d->dsp.dovi.norm(x1, cb, cw, &d->norm);
            d->dsp.dovi.norm(x2, cr, cw, &d->norm);
        }
        for (int c = 1; c < 3; c++)
            chroma_row(d, c, c == 1 ? cb : cr, x0, x1, x2,
                       (uint16_t *)(out->data[c] + (ptrdiff_t)cy * out->linesize[c]), tmp, cw);
    }
}

static double pq12_nits(int code)
{
    return ff_cspfix_curve_decode(CSPFIX_CURVE_PQ, code / 4095.0) * CSPFIX_REF_WHITE;
}

int ff_cspfix_dovi_hdr10(const AVFrame *in, AVFrame *out)
{
    const AVFrameSideData *sd = av_frame_get_side_data(in, AV_FRAME_DATA_DOVI_METADATA);
    const AVDOVIMetadata *md;
    const AVDOVIColorMetadata *col;
    const AVDOVIDmData *l6, *l9;

    if (!sd)
        return 0;
    md  = (const AVDOVIMetadata *)sd->data;
    col = av_dovi_get_color(md);
    l6  = av_dovi_find_level(md, 6);
    l9  = av_dovi_find_level(md, 9);
    if (!av_frame_get_side_data(out, AV_FRAME_DATA_MASTERING_DISPLAY_METADATA)) {
        const AVColorPrimariesDesc *p = l9 ? &l9->l9.source_display_primaries :
                                        av_csp_primaries_desc_from_id(AVCOL_PRI_BT2020);
        AVMasteringDisplayMetadata *m = av_mastering_display_metadata_create_side_data(out);
        const double max = l6 && l6->l6.max_luminance ? l6->l6.max_luminance :
                           pq12_nits(col->source_max_pq);
        const double min = l6 && l6->l6.max_luminance ? l6->l6.min_luminance / 10000.0 :
                           pq12_nits(col->source_min_pq);

        if (!m)
            return AVERROR(ENOMEM);
        ff_cspfix_mdm_primaries(m, p);
        m->max_luminance = av_d2q(max, 100000);
        m->min_luminance = av_d2q(min, 100000);
        m->has_luminance = max > 0.0;
    }
    if (l6 && l6->l6.max_cll &&
        !av_frame_get_side_data(out, AV_FRAME_DATA_CONTENT_LIGHT_LEVEL)) {
        AVContentLightMetadata *c = av_content_light_metadata_create_side_data(out);
        if (!c)
            return AVERROR(ENOMEM);
        c->MaxCLL  = l6->l6.max_cll;
        c->MaxFALL = l6->l6.max_fall;
    }
    return 0;
}

void ff_cspfix_dovi_uninit(CspfixDovi *d)
{
    for (int c = 0; c < 3; c++) {
        av_freep(&d->curve[c].lut);
        av_freep(&d->curve[c].piece_of);
    }
    av_frame_free(&d->frame);
    av_freep(&d->scratch);
    d->scratch_w = d->scratch_jobs = 0;
    d->built = 0;
}
