/*
 * cspfix: the execution paths: one slice conversion per path
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
 * The slice function of each execution path (the table in cspfix_exec.c): per plane,
 * integer, chroma at its own resolution, and full rows.
 */

#include "libavutil/common.h"

#include "cspfix_exec.h"
#include "cspfix_paths.h"
#include "cspfix_rows.h"

/* Rows [*y0, *y1) of plane component c this slice converts, and the plane's width. */
static int plane_rows(const CspfixExec *e, const AVFrame *in, int c, int jobnr, int nb_jobs,
                      int *y0, int *y1)
{
    const int h = c ? AV_CEIL_RSHIFT(in->height, e->fin.vsub) : in->height;

    ff_cspfix_slice_rows(h, c && !e->fin.rgb ? e->band >> e->fin.vsub : e->band,
                         jobnr, nb_jobs, y0, y1);
    return c ? AV_CEIL_RSHIFT(in->width, e->fin.hsub) : in->width;
}

/* The per-plane map of component c: scale and offset (the plan's diagonal matrix, or none). */
void ff_cspfix_plane_map(const CspfixExec *e, int c, float *sc, float *of)
{
    const CspfixOp *op = &e->plan.ops[0];

    *sc = e->plan.nb_ops ? op->m[c][c] : 1.0f;
    *of = e->plan.nb_ops ? op->m[c][3] : 0.0f;
}

/* The alpha rows of a slice of the per-plane paths. */
static void plane_alpha(const CspfixExec *e, const AVFrame *in, AVFrame *out, int jobnr,
                        int nb_jobs, CspfixSliceBuf *b)
{
    int y0, y1;

    ff_cspfix_slice_rows(in->height, e->band, jobnr, nb_jobs, &y0, &y1);
    ff_cspfix_copy_alpha(e, in, out, y0, y1, b->t0);
}

/* Range/depth only: every component on its own, at its own resolution. */
void ff_cspfix_convert_plane(const CspfixExec *e, const AVFrame *in, AVFrame *out,
                             int jobnr, int nb_jobs, CspfixSliceBuf *b)
{
    for (int c = 0; c < e->fin.nb_colour; c++) {
        float sc, of;
        int y0, y1;
        const int w = plane_rows(e, in, c, jobnr, nb_jobs, &y0, &y1);

        ff_cspfix_plane_map(e, c, &sc, &of);
        for (int y = y0; y < y1; y++) {
            ff_cspfix_read(&e->dsp, &e->fin, in, c, y, w, b->t0);
            e->dsp.stage.affine(b->t0, w, sc, of);
            ff_cspfix_write_comp(e, b, out, c, y, w, b->t0);
        }
    }
    plane_alpha(e, in, out, jobnr, nb_jobs, b);
}

/* ff_cspfix_convert_plane() through the one-pass maps (map8: 8-bit planes in integers,
 * map16: planes in 16-bit containers), a slice's rows of a plane in one call (per row,
 * the map's loads wait for the previous row's stores: doc/design.md). */
void ff_cspfix_convert_map(const CspfixExec *e, const AVFrame *in, AVFrame *out,
                           int jobnr, int nb_jobs, CspfixSliceBuf *b)
{
    for (int c = 0; c < e->fin.nb_colour; c++) {
        const CspfixComp *ci = &e->fin.comp[c], *co = &e->fout.comp[c];
        const ptrdiff_t ls = in->linesize[ci->plane], ld = out->linesize[co->plane];
        int y0, y1;
        const int w = plane_rows(e, in, c, jobnr, nb_jobs, &y0, &y1);
        uint8_t *dst = ff_cspfix_row_ptr(out, co, y0), *src = ff_cspfix_row_ptr(in, ci, y0);

        if (y1 <= y0)
            continue;
        if (e->path == CSPFIX_PATH_MAP8)
            e->dsp.io.map8(dst, ld, src, ls, w, y1 - y0, &e->map8[c]);
        else
            e->dsp.io.map16((uint16_t *)dst, ld, (const uint16_t *)src, ls, w, y1 - y0,
                            &e->map16[c]);
    }
    plane_alpha(e, in, out, jobnr, nb_jobs, b);
}

/* No pixel changes (the filter passes such frames through without a slice): a copy. */
void ff_cspfix_convert_passthrough(const CspfixExec *e, const AVFrame *in, AVFrame *out,
                                   int jobnr, int nb_jobs, CspfixSliceBuf *b)
{
    if (!jobnr)
        av_frame_copy(out, in);
}

/* The frame rows of row y the fused first and last matrices use (own: y's output row
 * is this slice's to write). */
static void row_io(const CspfixExec *e, const AVFrame *in, AVFrame *out, int y, int own,
                   CspfixRowIO *io)
{
    const CspfixComp *ci = &e->fin.comp[0], *co = &e->fout.comp[0];

    *io = (CspfixRowIO){ NULL };
    if (e->fuse_in)
        io->src = ff_cspfix_row_ptr(in, ci, y);
    if (e->fuse_out && own) {
        io->dst  = ff_cspfix_row_ptr(out, co, y);
        io->bias = ff_cspfix_bias_row(e, y, 0);
    }
}

/* Luma row from samples to samples: row 0 of m on the luma samples and the upsampled
 * chroma rows c1, c2. */
static void own_luma(const CspfixExec *e, uint8_t *dst, const uint8_t *src, float *const c[3],
                     int w, const float *m, const float *bias)
{
    const CspfixDSPContext *dsp = &e->dsp;
    const int k = e->own_kind, n = cspfix_whole_blocks(w);
    CspfixTail t;

    if (n)
        dsp->fused.yrow[k](dst, src, c[1], c[2], n, m, bias, e->lo[0], e->hi[0]);
    if (w > n) {
        dsp->fused.yrow[k](t.buf[1], cspfix_tail_in(&t, 0, src + ((ptrdiff_t)n << k), w - n, k),
                           c[1] + n, c[2] + n, CSPFIX_BLOCK, m, bias, e->lo[0], e->hi[0]);
        cspfix_tail_out(&t, 1, dst + ((ptrdiff_t)n << k), w - n, k);
    }
}

/* Chroma rows from samples to samples: rows 1 and 2 of m (e->crow) at chroma resolution. */
static void own_chroma(const CspfixExec *e, uint8_t *dcb, uint8_t *dcr, const uint8_t *cb,
                       const uint8_t *cr, int cw, const float *bcb, const float *bcr)
{
    const CspfixDSPContext *dsp = &e->dsp;
    const int k = e->own_kind, n = cspfix_whole_blocks(cw);
    CspfixTail t;

    if (n)
        dsp->fused.crow[k](dcb, dcr, cb, cr, n, &e->crow, bcb, bcr);
    if (cw > n) {
        dsp->fused.crow[k](t.buf[2], t.buf[3],
                           cspfix_tail_in(&t, 0, cb + ((ptrdiff_t)n << k), cw - n, k),
                           cspfix_tail_in(&t, 1, cr + ((ptrdiff_t)n << k), cw - n, k),
                           CSPFIX_BLOCK, &e->crow, bcb, bcr);
        cspfix_tail_out(&t, 2, dcb + ((ptrdiff_t)n << k), cw - n, k);
        cspfix_tail_out(&t, 3, dcr + ((ptrdiff_t)n << k), cw - n, k);
    }
}

/* ff_cspfix_convert_own() from samples to samples: luma by yrow from the upsampled chroma, chroma
 * by crow at its own resolution. */
void ff_cspfix_convert_own_rows(const CspfixExec *e, const AVFrame *in, AVFrame *out, int jobnr,
                                int nb_jobs, CspfixSliceBuf *b)
{
    const CspfixComp *ci = e->fin.comp, *co = e->fout.comp;
    const float *m = e->stages[e->stage_start].m;
    const int w = in->width, cw = AV_CEIL_RSHIFT(w, e->fin.hsub);
    const int ch = AV_CEIL_RSHIFT(in->height, e->fin.vsub);
    float *const *c = b->ring[0];
    int y0, y1;

    ff_cspfix_slice_rows(in->height, e->band, jobnr, nb_jobs, &y0, &y1);
    for (int y = y0; y < y1; y++) {
        ff_cspfix_load_row(e, in, y, c, b, 1);
        own_luma(e, ff_cspfix_row_ptr(out, &co[0], y), ff_cspfix_row_ptr(in, &ci[0], y), c, w, m,
                 ff_cspfix_bias_row(e, y, 0));
    }
    ff_cspfix_copy_alpha(e, in, out, y0, y1, b->t0);

    ff_cspfix_slice_rows(ch, e->band >> e->fin.vsub, jobnr, nb_jobs, &y0, &y1);
    for (int y = y0; y < y1; y++)
        own_chroma(e, ff_cspfix_row_ptr(out, &co[1], y), ff_cspfix_row_ptr(out, &co[2], y),
                   ff_cspfix_row_ptr(in, &ci[1], y), ff_cspfix_row_ptr(in, &ci[2], y), cw,
                   ff_cspfix_bias_row(e, y, 1), ff_cspfix_bias_row(e, y, 2));
}

/* Linear plan, same subsampling: luma sees upsampled chroma, chroma stays at its resolution
 * (its rows of the matrix do not involve luma). */
void ff_cspfix_convert_own(const CspfixExec *e, const AVFrame *in, AVFrame *out,
                           int jobnr, int nb_jobs, CspfixSliceBuf *b)
{
    const int w = in->width, cw = AV_CEIL_RSHIFT(w, e->fin.hsub);
    const int ch = AV_CEIL_RSHIFT(in->height, e->fin.vsub);
    float *const *c = b->ring[0];
    int y0, y1;

    ff_cspfix_slice_rows(in->height, e->band, jobnr, nb_jobs, &y0, &y1);
    for (int y = y0; y < y1; y++) {
        CspfixRowIO io;
        row_io(e, in, out, y, 0, &io);
        ff_cspfix_load_row(e, in, y, c, b, !!io.src);
        ff_cspfix_run_stages(e, c[0], c[1], c[2], w, &io);
        ff_cspfix_write_comp(e, b, out, 0, y, w, c[0]);
    }
    ff_cspfix_copy_alpha(e, in, out, y0, y1, b->t0);

    ff_cspfix_slice_rows(ch, e->band >> e->fin.vsub, jobnr, nb_jobs, &y0, &y1);
    ff_cspfix_fill_row(c[0], cw, 0.0f);
    for (int y = y0; y < y1; y++) {
        ff_cspfix_read(&e->dsp, &e->fin, in, 1, y, cw, c[1]);
        ff_cspfix_read(&e->dsp, &e->fin, in, 2, y, cw, c[2]);
        ff_cspfix_run_stages(e, c[0], c[1], c[2], cw, NULL);
        ff_cspfix_write_comp(e, b, out, 1, y, cw, c[1]);
        ff_cspfix_write_comp(e, b, out, 2, y, cw, c[2]);
    }
}

/* Luma delta row r of chroma (the integer path), cached in int32 row r & mask (mask 1:
 * two rows; 3: four, for interlaced frames). */
static const int32_t *delta_row(const CspfixExec *e, const AVFrame *in, int r,
                                int32_t *const rows[4], int tag[4], int mask)
{
    const CspfixComp *cb = &e->fin.comp[1], *cr = &e->fin.comp[2];
    const int cw = AV_CEIL_RSHIFT(in->width, 1), i = r & mask;

    if (tag[i] != r) {
        const uint8_t *u = ff_cspfix_row_ptr(in, cb, r);
        const uint8_t *v = ff_cspfix_row_ptr(in, cr, r);
        if (e->fin.depth > 8)
            e->dsp.yuvint.idelta16(rows[i], (const uint16_t *)u, (const uint16_t *)v, cw,
                                   &e->yuvint);
        else
            e->dsp.yuvint.idelta(rows[i], u, v, cw, e->yuvint.dc);
        rows[i][-1] = rows[i][0];
        rows[i][cw] = rows[i][cw - 1];
        tag[i] = r;
    }
    return rows[i];
}

/* Output chroma row y of the integer matrix-only path. */
static void yuvint_chroma_row(const CspfixExec *e, const AVFrame *in, AVFrame *out, int y,
                              int cw)
{
    const CspfixComp *ib = &e->fin.comp[1], *ir = &e->fin.comp[2];
    const CspfixComp *ob = &e->fout.comp[1], *ocr = &e->fout.comp[2];

    uint8_t *dcb = ff_cspfix_row_ptr(out, ob, y);
    uint8_t *dcr = ff_cspfix_row_ptr(out, ocr, y);
    const uint8_t *cb = ff_cspfix_row_ptr(in, ib, y);
    const uint8_t *cr = ff_cspfix_row_ptr(in, ir, y);

    if (e->fin.depth > 8)
        e->dsp.yuvint.ichroma16((uint16_t *)dcb, (uint16_t *)dcr, (const uint16_t *)cb,
                         (const uint16_t *)cr, cw, &e->yuvint);
    else
        e->dsp.yuvint.ichroma(dcb, dcr, cb, cr, cw, &e->yuvint);
}

/* ff_cspfix_convert_own() in integers: luma adds the interpolated chroma contribution
 * computed at chroma resolution; chroma is a 2x2 matrix. */
void ff_cspfix_convert_yuvint(const CspfixExec *e, const AVFrame *in, AVFrame *out,
                              int jobnr, int nb_jobs, CspfixSliceBuf *b)
{
    const CspfixYuvInt *p = &e->yuvint;
    const CspfixComp *iy = &e->fin.comp[0], *oy = &e->fout.comp[0];
    const int w = in->width, cw = AV_CEIL_RSHIFT(w, 1);
    const int ch = AV_CEIL_RSHIFT(in->height, e->fin.vsub);
    /* delta rows cached by row & 1; interlaced 4:2:0 by row & 3 (two per field) */
    int32_t *const rows[4] = { b->delta[0], b->delta[1], b->delta[2], b->delta[3] };
    /* the interpolated deltas of two luma rows: row y's are made before row y - 1's
     * luma, so iluma never reads deltas just stored (its loads straddle ivblend's
     * stores, and waiting for them to drain cost about a fifth of the frame) */
    int32_t *const d[2] = { b->delta[4], b->delta[5] };
    const int field = b->field && e->fin.vsub, mask = field ? 3 : 1;
    int tag[4] = { -1, -1, -1, -1 }, y0, y1, c0, c1, cnext;

    /* This slice's chroma rows are made as soon as the luma deltas have read them
     * (still in cache), the rest after the luma rows. */
    ff_cspfix_slice_rows(ch, e->band >> e->fin.vsub, jobnr, nb_jobs, &c0, &c1);
    cnext = c0;
    ff_cspfix_slice_rows(in->height, e->band, jobnr, nb_jobs, &y0, &y1);
    for (int y = y0; y <= y1; y++) {
        if (y < y1 && field) {
            /* interlaced: the rows and eighths of load_chroma(); even eighths are
             * quarters, odd ones go through ivblend8 (the same values, halved with
             * rounding) */
            const int fld = ch > 1 ? y & 1 : 0, n = (ch - fld + 1) >> 1;
            const int pos8 = 2 * (y - 2 * fld) - e->in_off_y2;
            const int j0 = av_clip(pos8 >> 3, 0, n - 1), j1 = av_clip((pos8 >> 3) + 1, 0, n - 1);
            const int ra = 2 * j0 + fld, rb = 2 * j1 + fld, frac = j0 != j1 ? pos8 & 7 : 0;
            const int32_t *da = delta_row(e, in, ra, rows, tag, mask);
            const int32_t *db = frac ? delta_row(e, in, rb, rows, tag, mask) : da;

            if (frac & 1)
                e->dsp.yuvint.ivblend8(d[y & 1], da, db, cw, frac);
            else
                e->dsp.yuvint.ivblend(d[y & 1], da, db, cw, frac >> 1);
            for (; cnext < c1 && cnext <= (frac ? rb : ra); cnext++)
                yuvint_chroma_row(e, in, out, cnext, cw);
        } else if (y < y1) {
            /* chroma row r sits at luma row 2r + off_y2 / 2 (as in load_chroma()) */
            const int pos4 = e->fin.vsub ? 2 * y - e->in_off_y2 : 4 * y;
            const int r0 = pos4 >> 2, frac = pos4 & 3;
            const int ra = av_clip(r0, 0, ch - 1), rb = av_clip(r0 + 1, 0, ch - 1);
            const int32_t *da = delta_row(e, in, ra, rows, tag, mask);
            const int32_t *db = frac ? delta_row(e, in, rb, rows, tag, mask) : da;

            e->dsp.yuvint.ivblend(d[y & 1], da, db, cw, frac);
            for (; cnext < c1 && cnext <= (frac ? rb : ra); cnext++)
                yuvint_chroma_row(e, in, out, cnext, cw);
        }
        if (y > y0) {
            const int yl = y - 1;
            uint8_t *dst = ff_cspfix_row_ptr(out, oy, yl);
            const uint8_t *src = ff_cspfix_row_ptr(in, iy, yl);
            if (e->fin.depth > 8)
                e->dsp.yuvint.iluma16((uint16_t *)dst, (const uint16_t *)src, d[yl & 1], w,
                                      e->in_phase_x, p);
            else
                e->dsp.yuvint.iluma(dst, src, d[yl & 1], w, e->in_phase_x, p);
        }
    }
    ff_cspfix_copy_alpha(e, in, out, y0, y1, b->t0);
    for (; cnext < c1; cnext++)
        yuvint_chroma_row(e, in, out, cnext, cw);
}

/* Output chroma subsampled vertically by more than 2 (4:1:0): each slice makes its
 * luma rows, then each chroma row from the full-resolution rows under its tent
 * (made again: the format is rare, the code simple). */
void ff_cspfix_convert_rows_vn(const CspfixExec *e, const AVFrame *in, AVFrame *out,
                               int jobnr, int nb_jobs, CspfixSliceBuf *b)
{
    const CspfixFormat *fo = &e->fout;
    const int w = in->width, h = in->height, n = 1 << fo->vsub;
    const int ch = AV_CEIL_RSHIFT(h, fo->vsub), cw = AV_CEIL_RSHIFT(w, fo->hsub);
    const int o2 = e->out_off_y2 * (n - 1);
    float *const *c = b->ring[0];
    float *const acc[2] = { b->ring[1][0], b->ring[1][1] };
    int k0, k1, y0, y1;

    ff_cspfix_slice_rows(ch, e->band >> fo->vsub, jobnr, nb_jobs, &k0, &k1);
    y0 = FFMIN(k0 * n, h);
    y1 = FFMIN(k1 * n, h);
    for (int y = y0; y < y1; y++) {
        ff_cspfix_load_row(e, in, y, c, b, 0);
        ff_cspfix_run_stages(e, c[0], c[1], c[2], w, NULL);
        ff_cspfix_write_full(e, b, out, y, c);
    }
    ff_cspfix_copy_alpha(e, in, out, y0, y1, b->t0);

    for (int k = k0; k < k1; k++) {
        const int p2 = 2 * n * k + o2;
        int wsum = 0;
        ff_cspfix_fill_row(acc[0], w, 0.0f);
        ff_cspfix_fill_row(acc[1], w, 0.0f);
        for (int y = cspfix_floor_div(p2 - 2 * n, 2); y <= (p2 + 2 * n) / 2; y++) {
            const int wt = 2 * n - FFABS(2 * y - p2);
            if (wt <= 0)
                continue;
            ff_cspfix_load_row(e, in, av_clip(y, 0, h - 1), c, b, 0);
            ff_cspfix_run_stages(e, c[0], c[1], c[2], w, NULL);
            for (int i = 0; i < 2; i++)
                for (int x = 0; x < w; x++)
                    acc[i][x] += wt * c[i + 1][x];
            wsum += wt;
        }
        for (int i = 0; i < 2; i++) {
            for (int x = 0; x < w; x++)
                acc[i][x] /= wsum;
            if (fo->hsub) {
                ff_cspfix_downsample_hn(b->t1, acc[i], w, fo->hsub, e->out_phase_x);
                ff_cspfix_write_comp(e, b, out, i + 1, k, cw, b->t1);
            } else {
                ff_cspfix_write_comp(e, b, out, i + 1, k, cw, acc[i]);
            }
        }
    }
}

/* Full rows; output chroma subsampled horizontally only is downsampled row by row. */
void ff_cspfix_convert_rows(const CspfixExec *e, const AVFrame *in, AVFrame *out,
                            int jobnr, int nb_jobs, CspfixSliceBuf *b)
{
    const CspfixFormat *fo = &e->fout;
    const int w = in->width, cw = AV_CEIL_RSHIFT(w, fo->hsub);
    const int sub_out = fo->nb_colour == 3 && !fo->rgb && fo->hsub;
    float *const *c = b->ring[0];
    int y0, y1;

    ff_cspfix_slice_rows(in->height, e->band, jobnr, nb_jobs, &y0, &y1);
    for (int y = y0; y < y1; y++) {
        CspfixRowIO io;
        row_io(e, in, out, y, 1, &io);
        ff_cspfix_load_row(e, in, y, c, b, !!io.src);
        ff_cspfix_run_stages(e, c[0], c[1], c[2], w, &io);
        if (!io.dst)
            ff_cspfix_write_full(e, b, out, y, c);
        if (sub_out) {
            for (int i = 1; i < 3; i++) {
                ff_cspfix_downsample_h(e, b->t1, c[i], w);
                ff_cspfix_write_comp(e, b, out, i, y, cw, b->t1);
            }
        }
    }
    ff_cspfix_copy_alpha(e, in, out, y0, y1, b->t0);
}

/* Output chroma subsampled vertically by 2 (4:2:0): chroma row k filters full-resolution
 * rows 2k-1 .. 2k+2 kept in a ring, or per field (field_taps()) rows 2k-3 .. 2k+4. */
void ff_cspfix_convert_rows_v2(const CspfixExec *e, const AVFrame *in, AVFrame *out,
                               int jobnr, int nb_jobs, CspfixSliceBuf *b)
{
    const int w = in->width, h = in->height;
    const int ch = AV_CEIL_RSHIFT(h, 1), mask = b->field ? 7 : 3;
    const int before = b->field ? 3 : 1, after = b->field ? 4 : 2;
    int k0, k1, own0, own1, next;

    ff_cspfix_slice_rows(ch, e->band / 2, jobnr, nb_jobs, &k0, &k1);
    own0 = 2 * k0;
    own1 = FFMIN(2 * k1, h);
    next = FFMAX(own0 - before, 0);

    for (int k = k0; k < k1; k++) {
        const int need = FFMIN(2 * k + after, h - 1);
        for (; next <= need; next++) {
            float *const *c = b->ring[next & mask];
            const int own = next >= own0 && next < own1;
            CspfixRowIO io;
            row_io(e, in, out, next, own, &io);
            ff_cspfix_load_row(e, in, next, c, b, !!io.src);
            ff_cspfix_run_stages(e, c[0], c[1], c[2], w, &io);
            if (own && !io.dst)
                ff_cspfix_write_full(e, b, out, next, c);
        }
        ff_cspfix_store_chroma_v(e, out, k, b);
    }
    ff_cspfix_copy_alpha(e, in, out, own0, own1, b->t0);
}
