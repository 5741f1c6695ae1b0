/*
 * cspfix: the row machinery: rows read, chroma resampled, stages run, rows written
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
 * The row machinery of the execution paths: a slice's scratch rows, input rows read
 * into float rows (chroma upsampled), the stages run on them, chroma downsampled,
 * rows dithered (ordered or error diffusion) and written, alpha copied.
 */

#include <string.h>

#include "libavutil/avassert.h"
#include "libavutil/common.h"

#include "cspfix_exec.h"
#include "cspfix_custom.h"
#include "cspfix_rows.h"

/* ---- the row machinery: stages on rows of floats ---- */

/* Every stage is pointwise, so a row runs in chunks of this many samples (a multiple
 * of the vector length): a chunk's three rows and the curve tables stay in L1. */
#define STAGE_CHUNK 512

static void run_stages_chunk(const CspfixExec *e, float *c0, float *c1, float *c2, int w,
                             const CspfixRowIO *io);

void ff_cspfix_run_stages(const CspfixExec *e, float *c0, float *c1, float *c2, int w,
                          const CspfixRowIO *io)
{
    const int bi = e->fuse_in - 1, bo = e->fuse_out - 1;

    for (int x = 0; x < w; x += STAGE_CHUNK) {
        CspfixRowIO chunk = { NULL };
        if (io && io->src)
            chunk.src = io->src + ((ptrdiff_t)x << bi);
        if (io && io->dst) {
            chunk.dst  = io->dst + ((ptrdiff_t)x << bo);
            chunk.bias = io->bias;
        }
        run_stages_chunk(e, c0 + x, c1 + x, c2 + x, FFMIN(STAGE_CHUNK, w - x), &chunk);
    }
}

/* the first matrix with the unpack of c0 fused in */
static void matrix_in(const CspfixExec *e, float *c0, float *c1, float *c2, int w,
                      const float m[12], const uint8_t *src)
{
    const int b = e->fuse_in - 1, w16 = cspfix_whole_blocks(w);
    CspfixTail t;

    if (w16)
        e->dsp.fused.matrix_in[b](c0, c1, c2, src, w16, m);
    if (w > w16)
        e->dsp.fused.matrix_in[b](c0 + w16, c1 + w16, c2 + w16,
                                  cspfix_tail_in(&t, 0, src + ((ptrdiff_t)w16 << b), w - w16, b),
                                  CSPFIX_BLOCK, m);
}

/* the last matrix with the pack of its first row fused in (c0 is left as it was) */
static void matrix_out(const CspfixExec *e, float *c0, float *c1, float *c2, int w,
                       const float m[12], const CspfixRowIO *io)
{
    const int b = e->fuse_out - 1, w16 = cspfix_whole_blocks(w);
    CspfixTail t;

    if (w16)
        e->dsp.fused.matrix_out[b](io->dst, c0, c1, c2, w16, m, io->bias, e->lo[0], e->hi[0]);
    if (w > w16) {
        e->dsp.fused.matrix_out[b](t.buf[0], c0 + w16, c1 + w16, c2 + w16, CSPFIX_BLOCK, m,
                                   io->bias, e->lo[0], e->hi[0]);
        cspfix_tail_out(&t, 0, io->dst + ((ptrdiff_t)w16 << b), w - w16, b);
    }
}

static void run_stages_chunk(const CspfixExec *e, float *c0, float *c1, float *c2, int w,
                             const CspfixRowIO *io)
{
    const CspfixDSPContext *dsp = &e->dsp;

    for (int i = e->stage_start; i < e->nb_stages; i++) {
        const CspfixStage *st = &e->stages[i];
        switch (st->type) {
        case CSPFIX_OP_MATRIX:
            if (io->src && i == e->stage_start)
                matrix_in(e, c0, c1, c2, w, st->m, io->src);
            else if (io->dst && i == e->nb_stages - 1)
                matrix_out(e, c0, c1, c2, w, st->m, io);
            else
                dsp->stage.matrix(c0, c1, c2, w, st->m);
            break;
        case CSPFIX_OP_TF:
            dsp->stage.tf(c0, c1, c2, w, st->tab);
            break;
        case CSPFIX_OP_OOTF:
            dsp->stage.ootf(c0, c1, c2, w, st->k, st->tab);
            break;
        case CSPFIX_OP_CL_DECODE:
            dsp->stage.cl_decode(c0, c1, c2, w, &st->cl);
            break;
        case CSPFIX_OP_CL_ENCODE:
            dsp->stage.cl_encode(c0, c1, c2, w, &st->cl);
            break;
        case CSPFIX_OP_CLIP:
            dsp->stage.clip(c0, w, st->lo, st->hi);
            dsp->stage.clip(c1, w, st->lo, st->hi);
            dsp->stage.clip(c2, w, st->lo, st->hi);
            break;
        case CSPFIX_OP_TONEMAP:
            if (st->first)
                dsp->stage.tonemap_i(c0, c1, c2, w, st->k, st->tab, st->tab2);
            else
                dsp->stage.tonemap(c0, c1, c2, w, st->k, st->tab, st->tab2);
            break;
        case CSPFIX_OP_GAMUT:
            if (st->gmode == CSPFIX_GAMUT_COMPRESS)
                dsp->stage.gamut_compress(c0, c1, c2, w, st->thr, st->sinv, st->hi);
            else
                dsp->stage.gamut_desat(c0, c1, c2, w, st->k, st->hi);
            break;
        case CSPFIX_OP_LUT3D:
            dsp->stage.lut3d(c0, c1, c2, w, st->lut->t, st->lut->n);
            break;
        }
    }
}

/* ---- a slice's rows; reading, resampling and writing them ---- */

void ff_cspfix_slice_buf(const CspfixExec *e, int jobnr, int field, CspfixSliceBuf *b)
{
    /* 16 floats before each thread's rows: row[-1] of its first row is its own */
    float *const base = e->scratch + (size_t)jobnr * e->scratch_stride + 16;
    float *p = base;

    b->field = field;
    /* the named regions, in the order of cspfix_rows.h */
    for (int r = 0; r < 8; r++)
        for (int i = 0; i < 3; i++, p += e->row_stride)
            b->ring[r][i] = p;
    b->t0 = p;
    p += e->row_stride;
    b->t1 = p;
    p += e->row_stride;
    b->t2 = p;
    p += e->row_stride;
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 4; j++, p += e->row_stride) {
            b->crow[i][j]   = p;
            b->crow_y[i][j] = -1;
        }
    for (int k = 0; k < CSPFIX_SCR_DELTA; k++, p += e->row_stride)
        b->delta[k] = (int32_t *)p;
    av_assert1(p == base + CSPFIX_SCRATCH_ROWS * e->row_stride);
    for (int i = 0; i < 3; i++) {
        /* after the rows and their 32 floats of slack */
        float *ed = base + CSPFIX_SCRATCH_ROWS * e->row_stride + 32 + CSPFIX_ED_PAD +
                    (CSPFIX_ED_ROWS + 1) * i * cspfix_ed_stride(e);
        b->ed_err[i] = ed;
        for (int j = 0; j < CSPFIX_ED_ROWS; j++)
            b->ed_row[i][j] = ed + (j + 1) * cspfix_ed_stride(e);
        b->ed_n[i] = 0;
    }
    b->ed_out = NULL;
    b->ed_joint = 0;
}

/* Rows [*y0, *y1) of job j of n over h rows, cut on multiples of band. */
void ff_cspfix_slice_rows(int h, int band, int j, int n, int *y0, int *y1)
{
    const int nb = (h + band - 1) / band;
    *y0 = FFMIN(nb * j / n * band, h);
    *y1 = FFMIN(nb * (j + 1) / n * band, h);
}

void ff_cspfix_fill_row(float *dst, int w, float v)
{
    for (int x = 0; x < w; x++)
        dst[x] = v;
}

/* Unpacked row r of chroma component c (cw samples) from the slice's two-row cache
 * (each input chroma row serves two luma rows), not evicting row keep; interlaced, a
 * four-row cache (the luma rows alternate between the fields' row pairs 2j, 2j + 2 and
 * 2j + 1, 2j + 3). */
static float *chroma_row(const CspfixExec *e, const AVFrame *in, int c, int r, int keep,
                         int cw, CspfixSliceBuf *b)
{
    int *tag = b->crow_y[c - 1];
    const int slot = b->field ? r & 3 :
                     tag[0] == r ? 0 : tag[1] == r ? 1 : tag[0] == keep ? 1 : 0;

    if (tag[slot] != r) {
        ff_cspfix_read(&e->dsp, &e->fin, in, c, r, cw, b->crow[c - 1][slot]);
        tag[slot] = r;
    }
    return b->crow[c - 1][slot];
}

/*
 * Subsampling by n = 2^sub > 2 (4:1:1, 4:1:0), in C: chroma sample j sits at luma
 * position n j + o2 / 2, o2 = where (n - 1) with where 0 (left, top), 1 (centre)
 * or 2 (bottom), the positions the 2:1 kernels use for n = 2. Upsampling is linear
 * between the two nearest samples; downsampling a tent over (-n, n) luma samples
 * (for n = 2 the taps of downsample_h2 and of filter3/filter4). Edges repeat.
 */
static void upsample_hn(float *dst, const float *src, int w, int sub, int where)
{
    const int n = 1 << sub, den = 2 * n, o2 = where * (n - 1), cw = AV_CEIL_RSHIFT(w, sub);

    for (int x = 0; x < w; x++) {
        const int num = 2 * x - o2, j = cspfix_floor_div(num, den), frac = num - j * den;
        const float a = src[av_clip(j, 0, cw - 1)], b = src[av_clip(j + 1, 0, cw - 1)];
        dst[x] = a * ((float)(den - frac) / den) + b * ((float)frac / den);
    }
}

void ff_cspfix_downsample_hn(float *dst, const float *src, int w, int sub, int where)
{
    const int n = 1 << sub, o2 = where * (n - 1), cw = AV_CEIL_RSHIFT(w, sub);

    for (int j = 0; j < cw; j++) {
        const int p2 = 2 * n * j + o2;
        float sum = 0.0f;
        int wsum = 0;
        for (int x = cspfix_floor_div(p2 - 2 * n, 2); x <= (p2 + 2 * n) / 2; x++) {
            const int wt = 2 * n - FFABS(2 * x - p2);
            if (wt <= 0)
                continue;
            sum  += wt * src[av_clip(x, 0, w - 1)];
            wsum += wt;
        }
        dst[j] = sum / wsum;
    }
}

/* Chroma rows r0 and r1 of component c blended with weights (den - frac) / den and
 * frac / den (exact binary fractions) into row; row r0 itself when frac is 0. */
static float *vblend(const CspfixExec *e, const AVFrame *in, int c, int r0, int r1,
                     int frac, int den, int cw, CspfixSliceBuf *b, float *row)
{
    float *a = chroma_row(e, in, c, r0, frac ? r1 : -1, cw, b);

    if (!frac)
        return a;
    e->dsp.chroma.blend(row, a, chroma_row(e, in, c, r1, r0, cw, b), cw,
                 (float)(den - frac) / den, (float)frac / den);
    return row;
}

/* Chroma component c of input luma row y, upsampled to full resolution. */
static void load_chroma(const CspfixExec *e, const AVFrame *in, int c, int y, float *dst,
                        CspfixSliceBuf *b)
{
    const CspfixFormat *f = &e->fin;
    const int w = in->width, cw = AV_CEIL_RSHIFT(w, f->hsub);
    const int ch = AV_CEIL_RSHIFT(in->height, f->vsub);
    float *row = f->hsub ? b->t0 : dst, *v = NULL;

    if (f->hsub > 1 || f->vsub > 1) {
        if (f->vsub) {
            const int n = 1 << f->vsub, den = 2 * n;
            const int num = 2 * y - e->in_off_y2 * (n - 1), r = cspfix_floor_div(num, den);
            v = vblend(e, in, c, av_clip(r, 0, ch - 1), av_clip(r + 1, 0, ch - 1),
                       num - r * den, den, cw, b, row);
            if (v != row)
                memcpy(row, v, cw * sizeof(*row));
        } else {
            ff_cspfix_read(&e->dsp, f, in, c, y, cw, row);
        }
        if (f->hsub)
            upsample_hn(dst, row, w, f->hsub, e->in_phase_x);
        else if (row != dst)
            memcpy(dst, row, w * sizeof(*row));
        return;
    }
    if (f->vsub && b->field) {
        /* interlaced: chroma row r belongs to field r & 1 and sits at luma row
         * 2r + off_y2 / 2; luma row y (field y & 1) is interpolated linearly between
         * the two nearest chroma rows of its own field, 4 luma rows apart. A frame of
         * one chroma row (height <= 2) has chroma in the top field only. */
        const int fld = ch > 1 ? y & 1 : 0, n = (ch - fld + 1) >> 1;
        const int pos8 = 2 * (y - 2 * fld) - e->in_off_y2;  /* 8 x field chroma row position */
        const int j0 = av_clip(pos8 >> 3, 0, n - 1), j1 = av_clip((pos8 >> 3) + 1, 0, n - 1);
        v = vblend(e, in, c, 2 * j0 + fld, 2 * j1 + fld, j0 != j1 ? pos8 & 7 : 0, 8, cw, b, row);
    } else if (f->vsub) {
        /* chroma row r sits at luma row 2r + off_y2 / 2: bilinear between two rows */
        const int pos4 = 2 * y - e->in_off_y2;        /* 4 x chroma row position */
        v = vblend(e, in, c, av_clip(pos4 >> 2, 0, ch - 1), av_clip((pos4 >> 2) + 1, 0, ch - 1),
                   pos4 & 3, 4, cw, b, row);
    } else {
        ff_cspfix_read(&e->dsp, f, in, c, y, cw, row);
    }
    if (v && f->hsub)
        row = v;
    else if (v && v != row)
        memcpy(row, v, cw * sizeof(*row));
    if (f->hsub) {
        row[-1] = row[0];
        row[cw] = row[cw - 1];
        e->dsp.chroma.upsample_h2(dst, row, w, e->in_phase_x);
    }
}

/* Input row y as three full-resolution float rows. */
void ff_cspfix_load_row(const CspfixExec *e, const AVFrame *in, int y, float *const c[3],
                        CspfixSliceBuf *b, int skip0)
{
    const CspfixFormat *f = &e->fin;

    if (e->in_lut) {
        for (int i = 0; i < 3; i++)
            ff_cspfix_read_lut(&e->dsp, f, in, i, y, in->width, c[i],
                               e->in_lut + i * e->in_lut_stride, e->in_lut_stride - 16);
        return;
    }
    if (!skip0)
        ff_cspfix_read(&e->dsp, f, in, 0, y, in->width, c[0]);
    for (int i = 1; i < 3; i++) {
        if (f->nb_colour == 1)
            ff_cspfix_fill_row(c[i], in->width, f->depth ? 1 << (f->depth - 1) : 0.0f);
        else if (f->rgb || (!f->hsub && !f->vsub))
            ff_cspfix_read(&e->dsp, f, in, i, y, in->width, c[i]);
        else
            load_chroma(e, in, i, y, c[i], b);
    }
}

const float *ff_cspfix_bias_row(const CspfixExec *e, int y, int c)
{
    if (e->fout.is_float || e->dither != CSPFIX_DITHER_ORDERED)
        return e->bias_round;
    /* decorrelate the components: offset the pattern per component */
    return e->bias_dither[(y + 5 * c) & 15];
}

/* Diffuse the collected rows of component c, and write them. */
static void ed_flush(const CspfixExec *e, CspfixSliceBuf *b, int c)
{
    const int n = b->ed_n[c];

    if (!n)
        return;
    e->dsp.io.dither_ed(b->ed_row[c], n, b->ed_w[c], b->ed_err[c], e->lo[c], e->hi[c]);
    for (int i = 0; i < n; i++)
        ff_cspfix_write(&e->dsp, &e->fout, b->ed_out, c, b->ed_y[c][i], b->ed_w[c],
                        b->ed_row[c][i], e->bias_zero, e->lo[c], e->hi[c]);
    b->ed_n[c] = 0;
}

/* x2rgb10: the three components go out together */
static void ed_flush3(const CspfixExec *e, CspfixSliceBuf *b)
{
    const int n = b->ed_n[0];

    if (!n)
        return;
    for (int c = 0; c < 3; c++) {
        e->dsp.io.dither_ed(b->ed_row[c], n, b->ed_w[c], b->ed_err[c], e->lo[c], e->hi[c]);
        b->ed_n[c] = 0;
    }
    for (int i = 0; i < n; i++) {
        float *const r[3] = { b->ed_row[0][i], b->ed_row[1][i], b->ed_row[2][i] };
        ff_cspfix_write3(&e->dsp, &e->fout, b->ed_out, b->ed_y[0][i], b->ed_w[0], r,
                         e->bias_zero, e->lo, e->hi);
    }
}

void ff_cspfix_ed_flush_all(const CspfixExec *e, CspfixSliceBuf *b)
{
    if (b->ed_joint) {
        ed_flush3(e, b);
    } else {
        for (int c = 0; c < 3; c++)
            ed_flush(e, b, c);
    }
}

/*
 * Error diffusion of row y of component c: Floyd-Steinberg in call order (the rows
 * of that component's plane), restarted at every band of CSPFIX_ED_BAND rows (so
 * that slices are independent). The row is collected and diffused with the rest of
 * its band; the errors carry over between the calls of one band. joint: an x2rgb10
 * row of all three components at a time (ff_cspfix_write_full), written together; the plane
 * path gives x2rgb10 a component at a time (each written into its bits on its own).
 */
static void diffuse(const CspfixExec *e, CspfixSliceBuf *b, AVFrame *out, int c, int y, int w,
                    const float *row, int joint)
{
    const int band = c && !e->fout.rgb ? CSPFIX_ED_BAND >> e->fout.vsub : CSPFIX_ED_BAND;

    if (!(y % band) || b->ed_n[c] == CSPFIX_ED_ROWS) {
        if (joint) {
            if (!c)
                ed_flush3(e, b);
        } else {
            ed_flush(e, b, c);
        }
        if (!(y % band))
            memset(b->ed_err[c] - CSPFIX_ED_PAD, 0, cspfix_ed_stride(e) * sizeof(float));
    }
    b->ed_out   = out;
    b->ed_joint = joint;
    b->ed_w[c]  = w;
    b->ed_y[c][b->ed_n[c]] = y;
    memcpy(b->ed_row[c][b->ed_n[c]++], row, w * sizeof(float));
}

void ff_cspfix_write_comp(const CspfixExec *e, CspfixSliceBuf *b, AVFrame *out, int c, int y, int w,
                          float *src)
{
    if (e->dither == CSPFIX_DITHER_ED && !e->fout.is_float) {
        diffuse(e, b, out, c, y, w, src, 0);
        return;
    }
    ff_cspfix_write(&e->dsp, &e->fout, out, c, y, w, src, ff_cspfix_bias_row(e, y, c),
                    e->lo[c], e->hi[c]);
}

void ff_cspfix_write_full(const CspfixExec *e, CspfixSliceBuf *b, AVFrame *out, int y,
                          float *const c[3])
{
    const CspfixFormat *f = &e->fout;
    if (f->nb_colour == 1) {
        ff_cspfix_write_comp(e, b, out, 0, y, out->width, c[0]);
    } else if (f->rgb || (!f->hsub && !f->vsub)) {
        if (f->x2rgb10) {
            if (e->dither == CSPFIX_DITHER_ED) {
                for (int i = 0; i < 3; i++)
                    diffuse(e, b, out, i, y, out->width, c[i], 1);
                return;
            }
            ff_cspfix_write3(&e->dsp, f, out, y, out->width, c, ff_cspfix_bias_row(e, y, 0),
                             e->lo, e->hi);
        } else {
            for (int i = 0; i < 3; i++)
                ff_cspfix_write_comp(e, b, out, i, y, out->width, c[i]);
        }
    } else {
        ff_cspfix_write_comp(e, b, out, 0, y, out->width, c[0]);
    }
}

void ff_cspfix_copy_alpha(const CspfixExec *e, const AVFrame *in, AVFrame *out, int y0, int y1,
                          float *row)
{
    const CspfixFormat *fi = &e->fin, *fo = &e->fout;
    const int w = out->width;
    const float maxo = fo->is_float ? 1.0f : (1 << fo->comp[3].depth) - 1;

    if (!fo->alpha)
        return;
    for (int y = y0; y < y1; y++) {
        if (fi->alpha) {
            const float maxi = fi->is_float ? 1.0f : (1 << fi->comp[3].depth) - 1;
            ff_cspfix_read(&e->dsp, fi, in, 3, y, w, row);
            if (maxi != maxo)
                e->dsp.stage.affine(row, w, maxo / maxi, 0.0f);
        } else {
            ff_cspfix_fill_row(row, w, maxo);
        }
        ff_cspfix_write(&e->dsp, fo, out, 3, y, w, row, e->bias_round, 0.0f, maxo);
    }
}

/* Horizontal 2:1 chroma filter; sets the edges the kernels read. */
void ff_cspfix_downsample_h(const CspfixExec *e, float *dst, float *src, int w)
{
    if (e->fout.hsub > 1) {
        ff_cspfix_downsample_hn(dst, src, w, e->fout.hsub, e->out_phase_x);
        return;
    }
    src[-1]    = src[0];
    src[w]     = src[w - 1];
    src[w + 1] = src[w - 1];
    e->dsp.chroma.downsample_h2(dst, src, w, e->out_phase_x);
}

/*
 * Taps of output chroma row k of an interlaced 4:2:0 frame: the full-resolution rows of
 * field k & 1 with a tent of half-width 2 field rows (4 luma rows) centred on the chroma
 * position 2k + off_y2 / 2, edges repeated within the field. Weights in sixteenths:
 * 8 - |2 y - (4 k + off_y2)| (left siting: 3 7 5 1 in the top field, 1 5 7 3 in the
 * bottom). Returns the number of taps (3 or 4).
 */
static int field_taps(int k, int off_y2, int h, int rows[4], float wt[4])
{
    const int fld = k & 1, c2 = 4 * k + off_y2;
    const int last = (h - 1 - fld) & 1 ? h - 2 : h - 1;
    int n = 0;

    for (int y = ((c2 - 7) >> 1) - 1; 2 * y < c2 + 8; y++) {
        const int d = FFABS(2 * y - c2);
        if ((y & 1) != fld || d >= 8)
            continue;
        rows[n] = av_clip(y, fld, last);
        wt[n++] = (8 - d) * 0.0625f;
    }
    return n;
}

/* Output chroma row k of a vertically subsampled output, from the ring. */
void ff_cspfix_store_chroma_v(const CspfixExec *e, AVFrame *out, int k, CspfixSliceBuf *b)
{
    const int w = out->width, h = out->height, cw = AV_CEIL_RSHIFT(w, e->fout.hsub);
    const int base = 2 * k + (e->out_off_y2 == 2);
    int rows[4], n = 0;
    float wt[4];

    if (b->field)
        n = field_taps(k, e->out_off_y2, h, rows, wt);
    for (int i = 1; i < 3; i++) {
        const float *r[4];
        if (b->field) {
            /* ((r0 w0 + r1 w1) + r2 w2) + r3 w3 by the blend kernel (x * 1 is x) */
            for (int j = 0; j < n; j++)
                r[j] = b->ring[rows[j] & 7][i];
            e->dsp.chroma.blend(b->t1, r[0], r[1], w, wt[0], wt[1]);
            for (int j = 2; j < n; j++)
                e->dsp.chroma.blend(b->t1, b->t1, r[j], w, 1.0f, wt[j]);
        } else {
            for (int j = 0; j < 4; j++)
                r[j] = b->ring[av_clip(base - 1 + j, 0, h - 1) & 3][i];
            if (e->out_off_y2 == 1)
                e->dsp.chroma.filter4(b->t1, r[0], r[1], r[2], r[3], w);
            else
                e->dsp.chroma.filter3(b->t1, r[0], r[1], r[2], w);
        }
        if (e->fout.hsub) {
            ff_cspfix_downsample_h(e, b->t2, b->t1, w);
            ff_cspfix_write_comp(e, b, out, i, k, cw, b->t2);
        } else {
            ff_cspfix_write_comp(e, b, out, i, k, cw, b->t1);
        }
    }
}
