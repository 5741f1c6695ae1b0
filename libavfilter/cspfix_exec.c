/*
 * cspfix: execution engine (a plan bound to kernels, run on frame slices)
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
 * The execution engine: stages bound to kernels, the table of execution paths, the
 * row machinery (unpack, chroma resampling, stages, dither, pack) and scratch rows.
 */

#include <math.h>
#include <string.h>

#include "libavutil/avassert.h"
#include "libavutil/common.h"
#include "libavutil/mem.h"
#include "libavutil/pixdesc.h"

#include "cspfix_exec.h"
#include "cspfix_kparams.h"

/* ---- plan ops bound to kernel parameters ---- */

static void free_stages(CspfixExec *e)
{
    for (int i = 0; i < e->nb_stages; i++) {
        av_freep(&e->stages[i].tab);
        av_freep(&e->stages[i].tab2);
    }
    e->nb_stages   = 0;
    e->stage_start = 0;
    av_freep(&e->in_lut);
}

static double curve_func(void *opaque, double x)
{
    const int *p = opaque;           /* { curve, encode, curve2, encode2 } */
    x = p[1] ? ff_cspfix_curve_encode(p[0], x) : ff_cspfix_curve_decode(p[0], x);
    if (p[2] != CSPFIX_CURVE_NONE)
        x = p[3] ? ff_cspfix_curve_encode(p[2], x) : ff_cspfix_curve_decode(p[2], x);
    return x;
}

static double ootf_func(void *opaque, double y)
{
    const CspfixOp *op = opaque;
    return y > 0.0 ? op->gain * pow(y, op->power) : 0.0;
}

static double tm_gain_func(void *opaque, double m)
{
    return ff_cspfix_tonemap_gain(opaque, m);
}

static double tm_desat_func(void *opaque, double m)
{
    return ff_cspfix_tonemap_desat(opaque, m);
}

static int alloc_table(CspfixTFTable **t, CspfixScalarFunc f, void *opaque)
{
    if (!(*t = av_malloc(sizeof(**t))))
        return AVERROR(ENOMEM);
    ff_cspfix_tf_build(*t, f, opaque);
    return 0;
}

static int alloc_curve2(CspfixTFTable **t, int curve, int encode, int curve2, int encode2)
{
    int p[4] = { curve, encode, curve2, encode2 };
    return alloc_table(t, curve_func, p);
}

static int alloc_curve(CspfixTFTable **t, int curve, int encode)
{
    return alloc_curve2(t, curve, encode, CSPFIX_CURVE_NONE, 0);
}

/* Bind plan ops to kernel parameters (float matrices, tables). */
static int bind_stages(CspfixExec *e)
{
    const CspfixPlan *p = &e->plan;
    int ret;

    free_stages(e);
    for (int i = 0; i < p->nb_ops; i++) {
        const CspfixOp *op = &p->ops[i];
        CspfixStage *st = &e->stages[e->nb_stages++];

        memset(st, 0, sizeof(*st));
        st->type = op->type;
        switch (op->type) {
        case CSPFIX_OP_MATRIX:
            for (int r = 0; r < 3; r++)
                for (int c = 0; c < 4; c++)
                    st->m[4 * r + c] = op->m[r][c];
            break;
        case CSPFIX_OP_TF:
            if ((ret = alloc_curve2(&st->tab, op->curve, op->encode, op->curve2,
                                    op->encode2)) < 0)
                return ret;
            break;
        case CSPFIX_OP_OOTF:
            for (int c = 0; c < 3; c++)
                st->k[c] = op->k[c];
            if ((ret = alloc_table(&st->tab, ootf_func, (void *)op)) < 0)
                return ret;
            break;
        case CSPFIX_OP_CL_DECODE:
        case CSPFIX_OP_CL_ENCODE:
            if ((ret = alloc_curve(&st->tab, op->curve, 0)) < 0 ||
                (ret = alloc_curve(&st->tab2, op->curve, 1)) < 0)
                return ret;
            st->cl.kr      = op->k[0];
            st->cl.kg      = op->k[1];
            st->cl.kb      = op->k[2];
            st->cl.kg_inv  = 1.0 / op->k[1];
            st->cl.nb2     = op->cl[0];
            st->cl.pb2     = op->cl[1];
            st->cl.nr2     = op->cl[2];
            st->cl.pr2     = op->cl[3];
            st->cl.nb2_inv = 1.0 / op->cl[0];
            st->cl.pb2_inv = 1.0 / op->cl[1];
            st->cl.nr2_inv = 1.0 / op->cl[2];
            st->cl.pr2_inv = 1.0 / op->cl[3];
            st->cl.to_light  = st->tab;
            st->cl.to_signal = st->tab2;
            break;
        case CSPFIX_OP_CLIP:
            st->lo = op->lo;
            st->hi = op->hi;
            break;
        case CSPFIX_OP_TONEMAP:
            for (int c = 0; c < 3; c++)
                st->k[c] = op->k[c];
            if ((ret = alloc_table(&st->tab, tm_gain_func, (void *)op)) < 0 ||
                (op->desat > 0.0 &&
                 (ret = alloc_table(&st->tab2, tm_desat_func, (void *)op)) < 0))
                return ret;
            break;
        case CSPFIX_OP_GAMUT:
            for (int c = 0; c < 3; c++) {
                st->k[c]    = op->k[c];
                st->sinv[c] = op->s[c];
            }
            st->gmode = op->gmode;
            st->thr   = op->thr;
            st->hi    = op->hi;
            break;
        }
    }
    return 0;
}

/* ---- the row machinery: stages on rows of floats ---- */

/* Every stage is pointwise, so a row runs in chunks of this many samples (a multiple
 * of the vector length): a chunk's three rows and the curve tables stay in L1. */
#define STAGE_CHUNK 512

/* Frame rows a row's first and last matrices read and write directly (fuse_in, fuse_out),
 * or NULL. */
typedef struct RowIO {
    const uint8_t *src;     ///< samples of the first component (input)
    uint8_t *dst;           ///< samples of the first component (output)
    const float *bias;      ///< pack bias of dst
} RowIO;

static void run_stages_chunk(const CspfixExec *e, float *c0, float *c1, float *c2, int w,
                             const RowIO *io);

static void run_stages(const CspfixExec *e, float *c0, float *c1, float *c2, int w,
                       const RowIO *io)
{
    const int bi = e->fuse_in - 1, bo = e->fuse_out - 1;

    for (int x = 0; x < w; x += STAGE_CHUNK) {
        RowIO chunk = { NULL };
        if (io && io->src)
            chunk.src = io->src + ((ptrdiff_t)x << bi);
        if (io && io->dst) {
            chunk.dst  = io->dst + ((ptrdiff_t)x << bo);
            chunk.bias = io->bias;
        }
        run_stages_chunk(e, c0 + x, c1 + x, c2 + x, FFMIN(STAGE_CHUNK, w - x), &chunk);
    }
}

/* The fused kernels process whole 16-sample blocks (SIMD vectors); the rest of a row goes
 * through the kernels they fuse, which do the same operations. */
static int whole_blocks(int w)
{
    return w & ~15;
}

/* the first matrix with the unpack of c0 fused in */
static void matrix_in(const CspfixExec *e, float *c0, float *c1, float *c2, int w,
                      const float m[12], const uint8_t *src)
{
    const int b = e->fuse_in - 1, w16 = whole_blocks(w);

    if (w16)
        e->dsp.fused.matrix_in[b](c0, c1, c2, src, w16, m);
    if (w > w16) {
        e->dsp.io.unpack[b](c0 + w16, src + ((ptrdiff_t)w16 << b), w - w16);
        e->dsp.stage.matrix(c0 + w16, c1 + w16, c2 + w16, w - w16, m);
    }
}

/* the last matrix with the pack of its first row fused in (c0 is left as it was) */
static void matrix_out(const CspfixExec *e, float *c0, float *c1, float *c2, int w,
                       const float m[12], const RowIO *io)
{
    const int b = e->fuse_out - 1, w16 = whole_blocks(w);

    if (w16)
        e->dsp.fused.matrix_out[b](io->dst, c0, c1, c2, w16, m, io->bias, e->lo[0], e->hi[0]);
    if (w > w16) {
        e->dsp.stage.matrix(c0 + w16, c1 + w16, c2 + w16, w - w16, m);
        e->dsp.io.pack[b](io->dst + ((ptrdiff_t)w16 << b), c0 + w16, w - w16, io->bias,
                       e->lo[0], e->hi[0]);
    }
}

static void run_stages_chunk(const CspfixExec *e, float *c0, float *c1, float *c2, int w,
                             const RowIO *io)
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
            dsp->stage.tonemap(c0, c1, c2, w, st->k, st->tab, st->tab2);
            break;
        case CSPFIX_OP_GAMUT:
            if (st->gmode == CSPFIX_GAMUT_COMPRESS)
                dsp->stage.gamut_compress(c0, c1, c2, w, st->thr, st->sinv, st->hi);
            else
                dsp->stage.gamut_desat(c0, c1, c2, w, st->k, st->hi);
            break;
        }
    }
}

/* ---- reading, resampling and writing rows ---- */

/* Chroma siting as (horizontal phase, vertical offset in luma rows x 2). */
static void siting(enum AVChromaLocation loc, int *phase_x, int *off_y2)
{
    *phase_x = loc == AVCHROMA_LOC_CENTER || loc == AVCHROMA_LOC_TOP ||
               loc == AVCHROMA_LOC_BOTTOM;
    *off_y2  = loc == AVCHROMA_LOC_TOPLEFT || loc == AVCHROMA_LOC_TOP ? 0 :
               loc == AVCHROMA_LOC_BOTTOMLEFT || loc == AVCHROMA_LOC_BOTTOM ? 2 : 1;
}

typedef struct SliceBuf {
    float *ring[8][3];      ///< full-resolution rows after the plan, slot = row & 3 (row & 7 for interlaced frames)
                            ///< (per-field 4:2:0 output: row & 7)
    float *t0, *t1, *t2;    ///< chroma-resolution scratch
    /* error diffusion: each component's rows are collected (up to 32, a band) and
     * diffused together (a wavefront over the rows), then written */
    float *ed_row[3][CSPFIX_ED_ROWS]; ///< the collected rows (CSPFIX_ED_PAD floats of padding)
    float *ed_err[3];       ///< errors of the last row diffused (0 at a band start)
    int ed_y[3][CSPFIX_ED_ROWS];      ///< their row numbers
    int ed_n[3];            ///< rows collected
    int ed_w[3];            ///< their width
    AVFrame *ed_out;        ///< the frame they go to
    int ed_joint;           ///< x2rgb10 rows given a row at a time (all components),
                            ///< written together; else each component on its own
    float *crow[2][4];      ///< the last two unpacked input rows of Cb and Cr (interlaced:
                            ///< four, two per field, slot = row & 3)
    int crow_y[2][4];       ///< their row numbers (-1: empty)
    int field;              ///< the frame is resampled vertically per field
} SliceBuf;

#define SCRATCH_ROWS 41
/* per job after those: 3 x 33 error diffusion rows (32 rows and the errors) */
#define ED_ROWS (3 * (CSPFIX_ED_ROWS + 1))

static int ed_stride(const CspfixExec *e)
{
    return e->row_stride + 2 * CSPFIX_ED_PAD;
}

static void slice_buf(const CspfixExec *e, int jobnr, int field, SliceBuf *b)
{
    /* 16 floats before each thread's rows: row[-1] of its first row is its own */
    float *base = e->scratch + (size_t)jobnr * e->scratch_stride + 16;

    b->field = field;
    for (int r = 0; r < 4; r++)
        for (int i = 0; i < 3; i++)
            b->ring[r][i] = base + (3 * r + i) * e->row_stride;
    for (int r = 4; r < 8; r++)
        for (int i = 0; i < 3; i++)
            b->ring[r][i] = base + (25 + 3 * (r - 4) + i) * e->row_stride;
    b->t0 = base + 12 * e->row_stride;
    b->t1 = base + 13 * e->row_stride;
    b->t2 = base + 14 * e->row_stride;
    for (int i = 0; i < 3; i++) {
        /* after the 41 rows and their 32 floats of slack */
        float *ed = base + SCRATCH_ROWS * e->row_stride + 32 + CSPFIX_ED_PAD +
                    (CSPFIX_ED_ROWS + 1) * i * ed_stride(e);
        b->ed_err[i] = ed;
        for (int j = 0; j < CSPFIX_ED_ROWS; j++)
            b->ed_row[i][j] = ed + (j + 1) * ed_stride(e);
        b->ed_n[i] = 0;
    }
    b->ed_out = NULL;
    b->ed_joint = 0;
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++) {
            b->crow[i][j]   = base + (21 + 2 * i + j) * e->row_stride;
            b->crow_y[i][j] = -1;
        }
    for (int i = 0; i < 2; i++)
        for (int j = 2; j < 4; j++) {
            b->crow[i][j]   = base + (37 + 2 * i + j - 2) * e->row_stride;
            b->crow_y[i][j] = -1;
        }
}

/* Rows [*y0, *y1) of job j of n over h rows, cut on multiples of band. */
static void slice_rows(int h, int band, int j, int n, int *y0, int *y1)
{
    const int nb = (h + band - 1) / band;
    *y0 = FFMIN(nb * j / n * band, h);
    *y1 = FFMIN(nb * (j + 1) / n * band, h);
}

static void fill_row(float *dst, int w, float v)
{
    for (int x = 0; x < w; x++)
        dst[x] = v;
}

/* Unpacked row r of chroma component c (cw samples) from the slice's two-row cache
 * (each input chroma row serves two luma rows), not evicting row keep; interlaced, a
 * four-row cache (the luma rows alternate between the fields' row pairs 2j, 2j + 2 and
 * 2j + 1, 2j + 3). */
static float *chroma_row(const CspfixExec *e, const AVFrame *in, int c, int r, int keep,
                         int cw, SliceBuf *b)
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
static int floor_div(int a, int b)
{
    return a >= 0 ? a / b : -((-a + b - 1) / b);
}

static void upsample_hn(float *dst, const float *src, int w, int sub, int where)
{
    const int n = 1 << sub, den = 2 * n, o2 = where * (n - 1), cw = AV_CEIL_RSHIFT(w, sub);

    for (int x = 0; x < w; x++) {
        const int num = 2 * x - o2, j = floor_div(num, den), frac = num - j * den;
        const float a = src[av_clip(j, 0, cw - 1)], b = src[av_clip(j + 1, 0, cw - 1)];
        dst[x] = a * ((float)(den - frac) / den) + b * ((float)frac / den);
    }
}

static void downsample_hn(float *dst, const float *src, int w, int sub, int where)
{
    const int n = 1 << sub, o2 = where * (n - 1), cw = AV_CEIL_RSHIFT(w, sub);

    for (int j = 0; j < cw; j++) {
        const int p2 = 2 * n * j + o2;
        float sum = 0.0f;
        int wsum = 0;
        for (int x = floor_div(p2 - 2 * n, 2); x <= (p2 + 2 * n) / 2; x++) {
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
                     int frac, int den, int cw, SliceBuf *b, float *row)
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
                        SliceBuf *b)
{
    const CspfixFormat *f = &e->fin;
    const int w = in->width, cw = AV_CEIL_RSHIFT(w, f->hsub);
    const int ch = AV_CEIL_RSHIFT(in->height, f->vsub);
    float *row = f->hsub ? b->t0 : dst, *v = NULL;

    if (f->hsub > 1 || f->vsub > 1) {
        if (f->vsub) {
            const int n = 1 << f->vsub, den = 2 * n;
            const int num = 2 * y - e->in_off_y2 * (n - 1), r = floor_div(num, den);
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
static void load_row(const CspfixExec *e, const AVFrame *in, int y, float *const c[3],
                     SliceBuf *b, int skip0)
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
            fill_row(c[i], in->width, f->depth ? 1 << (f->depth - 1) : 0.0f);
        else if (f->rgb || (!f->hsub && !f->vsub))
            ff_cspfix_read(&e->dsp, f, in, i, y, in->width, c[i]);
        else
            load_chroma(e, in, i, y, c[i], b);
    }
}

static const float *bias_row(const CspfixExec *e, int y, int c)
{
    if (e->fout.is_float || e->dither != CSPFIX_DITHER_ORDERED)
        return e->bias_round;
    /* decorrelate the components: offset the pattern per component */
    return e->bias_dither[(y + 5 * c) & 15];
}

/* Diffuse the collected rows of component c, and write them. */
static void ed_flush(const CspfixExec *e, SliceBuf *b, int c)
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
static void ed_flush3(const CspfixExec *e, SliceBuf *b)
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

static void ed_flush_all(const CspfixExec *e, SliceBuf *b)
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
 * row of all three components at a time (write_full), written together; the plane
 * path gives x2rgb10 a component at a time (each written into its bits on its own).
 */
static void diffuse(const CspfixExec *e, SliceBuf *b, AVFrame *out, int c, int y, int w,
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
            memset(b->ed_err[c] - CSPFIX_ED_PAD, 0, ed_stride(e) * sizeof(float));
    }
    b->ed_out   = out;
    b->ed_joint = joint;
    b->ed_w[c]  = w;
    b->ed_y[c][b->ed_n[c]] = y;
    memcpy(b->ed_row[c][b->ed_n[c]++], row, w * sizeof(float));
}

static void write_comp(const CspfixExec *e, SliceBuf *b, AVFrame *out, int c, int y, int w,
                       float *src)
{
    if (e->dither == CSPFIX_DITHER_ED && !e->fout.is_float) {
        diffuse(e, b, out, c, y, w, src, 0);
        return;
    }
    ff_cspfix_write(&e->dsp, &e->fout, out, c, y, w, src, bias_row(e, y, c), e->lo[c], e->hi[c]);
}

static void write_full(const CspfixExec *e, SliceBuf *b, AVFrame *out, int y, float *const c[3])
{
    const CspfixFormat *f = &e->fout;
    if (f->nb_colour == 1) {
        write_comp(e, b, out, 0, y, out->width, c[0]);
    } else if (f->rgb || (!f->hsub && !f->vsub)) {
        if (f->x2rgb10) {
            if (e->dither == CSPFIX_DITHER_ED) {
                for (int i = 0; i < 3; i++)
                    diffuse(e, b, out, i, y, out->width, c[i], 1);
                return;
            }
            ff_cspfix_write3(&e->dsp, f, out, y, out->width, c, bias_row(e, y, 0), e->lo, e->hi);
        } else {
            for (int i = 0; i < 3; i++)
                write_comp(e, b, out, i, y, out->width, c[i]);
        }
    } else {
        write_comp(e, b, out, 0, y, out->width, c[0]);
    }
}

static void copy_alpha(const CspfixExec *e, const AVFrame *in, AVFrame *out, int y0, int y1,
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
            fill_row(row, w, maxo);
        }
        ff_cspfix_write(&e->dsp, fo, out, 3, y, w, row, e->bias_round, 0.0f, maxo);
    }
}

/* ---- the execution paths ---- */

/* Rows [*y0, *y1) of plane component c this slice converts, and the plane's width. */
static int plane_rows(const CspfixExec *e, const AVFrame *in, int c, int jobnr, int nb_jobs,
                      int *y0, int *y1)
{
    const int h = c ? AV_CEIL_RSHIFT(in->height, e->fin.vsub) : in->height;

    slice_rows(h, c && !e->fin.rgb ? CSPFIX_ED_BAND >> e->fin.vsub : CSPFIX_ED_BAND,
               jobnr, nb_jobs, y0, y1);
    return c ? AV_CEIL_RSHIFT(in->width, e->fin.hsub) : in->width;
}

/* The per-plane map of component c: scale and offset (the plan's diagonal matrix, or none). */
static void plane_map(const CspfixExec *e, int c, float *sc, float *of)
{
    const CspfixOp *op = &e->plan.ops[0];

    *sc = e->plan.nb_ops ? op->m[c][c] : 1.0f;
    *of = e->plan.nb_ops ? op->m[c][3] : 0.0f;
}

/* The alpha rows of a slice of the per-plane paths. */
static void plane_alpha(const CspfixExec *e, const AVFrame *in, AVFrame *out, int jobnr,
                        int nb_jobs, SliceBuf *b)
{
    int y0, y1;

    slice_rows(in->height, CSPFIX_ED_BAND, jobnr, nb_jobs, &y0, &y1);
    copy_alpha(e, in, out, y0, y1, b->t0);
}

/* Range/depth only: every component on its own, at its own resolution. */
static void convert_plane(const CspfixExec *e, const AVFrame *in, AVFrame *out,
                          int jobnr, int nb_jobs, SliceBuf *b)
{
    for (int c = 0; c < e->fin.nb_colour; c++) {
        float sc, of;
        int y0, y1;
        const int w = plane_rows(e, in, c, jobnr, nb_jobs, &y0, &y1);

        plane_map(e, c, &sc, &of);
        for (int y = y0; y < y1; y++) {
            ff_cspfix_read(&e->dsp, &e->fin, in, c, y, w, b->t0);
            e->dsp.stage.affine(b->t0, w, sc, of);
            write_comp(e, b, out, c, y, w, b->t0);
        }
    }
    plane_alpha(e, in, out, jobnr, nb_jobs, b);
}

/* convert_plane() through the one-pass maps (map8: 8-bit planes in integers, map16:
 * planes in 16-bit containers), a slice's rows of a plane in one call. (Called per row,
 * each call's loads of the map at its start sometimes waited for the previous row's
 * stores: B3, 1080p range only, took 0.080 or 0.120 ms/frame on Zen 5 depending only on
 * where the map happened to lie, with the same kernel on the same frames.) */
static void convert_map(const CspfixExec *e, const AVFrame *in, AVFrame *out,
                        int jobnr, int nb_jobs, SliceBuf *b)
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
static void convert_passthrough(const CspfixExec *e, const AVFrame *in, AVFrame *out,
                                int jobnr, int nb_jobs, SliceBuf *b)
{
    if (!jobnr)
        av_frame_copy(out, in);
}

/* The frame rows of row y the fused first and last matrices use (own: y's output row
 * is this slice's to write). */
static void row_io(const CspfixExec *e, const AVFrame *in, AVFrame *out, int y, int own,
                   RowIO *io)
{
    const CspfixComp *ci = &e->fin.comp[0], *co = &e->fout.comp[0];

    *io = (RowIO){ NULL };
    if (e->fuse_in)
        io->src = ff_cspfix_row_ptr(in, ci, y);
    if (e->fuse_out && own) {
        io->dst  = ff_cspfix_row_ptr(out, co, y);
        io->bias = bias_row(e, y, 0);
    }
}

/* Luma row from samples to samples: row 0 of m on the luma samples and the upsampled
 * chroma rows c1, c2 (c0: scratch for the tail). */
static void own_luma(const CspfixExec *e, uint8_t *dst, const uint8_t *src, float *const c[3],
                     int w, const float *m, const float *bias)
{
    const CspfixDSPContext *dsp = &e->dsp;
    const int k = e->own_kind, n = whole_blocks(w);

    if (n)
        dsp->fused.yrow[k](dst, src, c[1], c[2], n, m, bias, e->lo[0], e->hi[0]);
    if (w > n) {
        dsp->io.unpack[k](c[0] + n, src + ((ptrdiff_t)n << k), w - n);
        dsp->stage.matrix(c[0] + n, c[1] + n, c[2] + n, w - n, m);
        dsp->io.pack[k](dst + ((ptrdiff_t)n << k), c[0] + n, w - n, bias, e->lo[0], e->hi[0]);
    }
}

/* Chroma rows from samples to samples: rows 1 and 2 of m (e->crow) at chroma resolution
 * (c: scratch for the tail). */
static void own_chroma(const CspfixExec *e, uint8_t *dcb, uint8_t *dcr, const uint8_t *cb,
                       const uint8_t *cr, float *const c[3], int cw, const float *m,
                       const float *bcb, const float *bcr)
{
    const CspfixDSPContext *dsp = &e->dsp;
    const int k = e->own_kind, n = whole_blocks(cw);

    if (n)
        dsp->fused.crow[k](dcb, dcr, cb, cr, n, &e->crow, bcb, bcr);
    if (cw > n) {
        fill_row(c[0] + n, cw - n, 0.0f);
        dsp->io.unpack[k](c[1] + n, cb + ((ptrdiff_t)n << k), cw - n);
        dsp->io.unpack[k](c[2] + n, cr + ((ptrdiff_t)n << k), cw - n);
        dsp->stage.matrix(c[0] + n, c[1] + n, c[2] + n, cw - n, m);
        dsp->io.pack[k](dcb + ((ptrdiff_t)n << k), c[1] + n, cw - n, bcb, e->lo[1], e->hi[1]);
        dsp->io.pack[k](dcr + ((ptrdiff_t)n << k), c[2] + n, cw - n, bcr, e->lo[2], e->hi[2]);
    }
}

/* convert_own() from samples to samples: luma by yrow from the upsampled chroma, chroma
 * by crow at its own resolution. */
static void convert_own_rows(const CspfixExec *e, const AVFrame *in, AVFrame *out, int jobnr,
                             int nb_jobs, SliceBuf *b)
{
    const CspfixComp *ci = e->fin.comp, *co = e->fout.comp;
    const float *m = e->stages[e->stage_start].m;
    const int w = in->width, cw = AV_CEIL_RSHIFT(w, e->fin.hsub);
    const int ch = AV_CEIL_RSHIFT(in->height, e->fin.vsub);
    float *const *c = b->ring[0];
    int y0, y1;

    slice_rows(in->height, CSPFIX_ED_BAND, jobnr, nb_jobs, &y0, &y1);
    for (int y = y0; y < y1; y++) {
        load_row(e, in, y, c, b, 1);
        own_luma(e, ff_cspfix_row_ptr(out, &co[0], y), ff_cspfix_row_ptr(in, &ci[0], y), c, w, m,
                 bias_row(e, y, 0));
    }
    copy_alpha(e, in, out, y0, y1, b->t0);

    slice_rows(ch, CSPFIX_ED_BAND >> e->fin.vsub, jobnr, nb_jobs, &y0, &y1);
    for (int y = y0; y < y1; y++)
        own_chroma(e, ff_cspfix_row_ptr(out, &co[1], y), ff_cspfix_row_ptr(out, &co[2], y), ff_cspfix_row_ptr(in, &ci[1], y),
                   ff_cspfix_row_ptr(in, &ci[2], y), c, cw, m, bias_row(e, y, 1), bias_row(e, y, 2));
}

/* Linear plan, same subsampling: luma sees upsampled chroma, chroma stays at its resolution
 * (its rows of the matrix do not involve luma). */
static void convert_own(const CspfixExec *e, const AVFrame *in, AVFrame *out,
                        int jobnr, int nb_jobs, SliceBuf *b)
{
    const int w = in->width, cw = AV_CEIL_RSHIFT(w, e->fin.hsub);
    const int ch = AV_CEIL_RSHIFT(in->height, e->fin.vsub);
    float *const *c = b->ring[0];
    int y0, y1;

    slice_rows(in->height, CSPFIX_ED_BAND, jobnr, nb_jobs, &y0, &y1);
    for (int y = y0; y < y1; y++) {
        RowIO io;
        row_io(e, in, out, y, 0, &io);
        load_row(e, in, y, c, b, !!io.src);
        run_stages(e, c[0], c[1], c[2], w, &io);
        write_comp(e, b, out, 0, y, w, c[0]);
    }
    copy_alpha(e, in, out, y0, y1, b->t0);

    slice_rows(ch, CSPFIX_ED_BAND >> e->fin.vsub, jobnr, nb_jobs, &y0, &y1);
    fill_row(c[0], cw, 0.0f);
    for (int y = y0; y < y1; y++) {
        ff_cspfix_read(&e->dsp, &e->fin, in, 1, y, cw, c[1]);
        ff_cspfix_read(&e->dsp, &e->fin, in, 2, y, cw, c[2]);
        run_stages(e, c[0], c[1], c[2], cw, NULL);
        write_comp(e, b, out, 1, y, cw, c[1]);
        write_comp(e, b, out, 2, y, cw, c[2]);
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
            e->dsp.yuvint.idelta16(rows[i], (const uint16_t *)u, (const uint16_t *)v, cw, &e->yuvint);
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

/* convert_own() in integers: luma adds the interpolated chroma contribution
 * computed at chroma resolution; chroma is a 2x2 matrix. */
static void convert_yuvint(const CspfixExec *e, const AVFrame *in, AVFrame *out,
                           int jobnr, int nb_jobs, SliceBuf *b)
{
    const CspfixYuvInt *p = &e->yuvint;
    const CspfixComp *iy = &e->fin.comp[0], *oy = &e->fout.comp[0];
    const int w = in->width, cw = AV_CEIL_RSHIFT(w, 1);
    const int ch = AV_CEIL_RSHIFT(in->height, e->fin.vsub);
    /* delta rows cached by row & 1; interlaced 4:2:0 by row & 3 (two per field) */
    int32_t *const rows[4] = { (int32_t *)b->ring[0][0], (int32_t *)b->ring[0][1],
                               (int32_t *)b->ring[1][1], (int32_t *)b->ring[1][2] };
    /* the interpolated deltas of two luma rows: row y's are made before row y - 1's
     * luma, so iluma never reads deltas just stored (its loads straddle ivblend's
     * stores, and waiting for them to drain cost about a fifth of the frame) */
    int32_t *const d[2] = { (int32_t *)b->ring[0][2], (int32_t *)b->ring[1][0] };
    const int field = b->field && e->fin.vsub, mask = field ? 3 : 1;
    int tag[4] = { -1, -1, -1, -1 }, y0, y1, c0, c1, cnext;

    /* This slice's chroma rows are made as soon as the luma deltas have read them
     * (still in cache), the rest after the luma rows. */
    slice_rows(ch, CSPFIX_ED_BAND >> e->fin.vsub, jobnr, nb_jobs, &c0, &c1);
    cnext = c0;
    slice_rows(in->height, CSPFIX_ED_BAND, jobnr, nb_jobs, &y0, &y1);
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
                e->dsp.yuvint.iluma16((uint16_t *)dst, (const uint16_t *)src, d[yl & 1], w, e->in_phase_x, p);
            else
                e->dsp.yuvint.iluma(dst, src, d[yl & 1], w, e->in_phase_x, p);
        }
    }
    copy_alpha(e, in, out, y0, y1, b->t0);
    for (; cnext < c1; cnext++)
        yuvint_chroma_row(e, in, out, cnext, cw);
}

/* Horizontal 2:1 chroma filter; sets the edges the kernels read. */
static void downsample(const CspfixExec *e, float *dst, float *src, int w)
{
    if (e->fout.hsub > 1) {
        downsample_hn(dst, src, w, e->fout.hsub, e->out_phase_x);
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
static void store_chroma_v(const CspfixExec *e, AVFrame *out, int k, SliceBuf *b)
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
            downsample(e, b->t2, b->t1, w);
            write_comp(e, b, out, i, k, cw, b->t2);
        } else {
            write_comp(e, b, out, i, k, cw, b->t1);
        }
    }
}

/* Output chroma subsampled vertically by more than 2 (4:1:0): each slice makes its
 * luma rows, then each chroma row from the full-resolution rows under its tent
 * (made again: the format is rare, the code simple). */
static void convert_rows_vn(const CspfixExec *e, const AVFrame *in, AVFrame *out,
                           int jobnr, int nb_jobs, SliceBuf *b)
{
    const CspfixFormat *fo = &e->fout;
    const int w = in->width, h = in->height, n = 1 << fo->vsub;
    const int ch = AV_CEIL_RSHIFT(h, fo->vsub), cw = AV_CEIL_RSHIFT(w, fo->hsub);
    const int o2 = e->out_off_y2 * (n - 1);
    float *const *c = b->ring[0];
    float *const acc[2] = { b->ring[1][0], b->ring[1][1] };
    int k0, k1, y0, y1;

    slice_rows(ch, CSPFIX_ED_BAND >> fo->vsub, jobnr, nb_jobs, &k0, &k1);
    y0 = FFMIN(k0 * n, h);
    y1 = FFMIN(k1 * n, h);
    for (int y = y0; y < y1; y++) {
        load_row(e, in, y, c, b, 0);
        run_stages(e, c[0], c[1], c[2], w, NULL);
        write_full(e, b, out, y, c);
    }
    copy_alpha(e, in, out, y0, y1, b->t0);

    for (int k = k0; k < k1; k++) {
        const int p2 = 2 * n * k + o2;
        int wsum = 0;
        fill_row(acc[0], w, 0.0f);
        fill_row(acc[1], w, 0.0f);
        for (int y = floor_div(p2 - 2 * n, 2); y <= (p2 + 2 * n) / 2; y++) {
            const int wt = 2 * n - FFABS(2 * y - p2);
            if (wt <= 0)
                continue;
            load_row(e, in, av_clip(y, 0, h - 1), c, b, 0);
            run_stages(e, c[0], c[1], c[2], w, NULL);
            for (int i = 0; i < 2; i++)
                for (int x = 0; x < w; x++)
                    acc[i][x] += wt * c[i + 1][x];
            wsum += wt;
        }
        for (int i = 0; i < 2; i++) {
            for (int x = 0; x < w; x++)
                acc[i][x] /= wsum;
            if (fo->hsub) {
                downsample_hn(b->t1, acc[i], w, fo->hsub, e->out_phase_x);
                write_comp(e, b, out, i + 1, k, cw, b->t1);
            } else {
                write_comp(e, b, out, i + 1, k, cw, acc[i]);
            }
        }
    }
}

/* Full rows; output chroma subsampled horizontally only is downsampled row by row. */
static void convert_rows(const CspfixExec *e, const AVFrame *in, AVFrame *out,
                         int jobnr, int nb_jobs, SliceBuf *b)
{
    const CspfixFormat *fo = &e->fout;
    const int w = in->width, cw = AV_CEIL_RSHIFT(w, fo->hsub);
    const int sub_out = fo->nb_colour == 3 && !fo->rgb && fo->hsub;
    float *const *c = b->ring[0];
    int y0, y1;

    slice_rows(in->height, CSPFIX_ED_BAND, jobnr, nb_jobs, &y0, &y1);
    for (int y = y0; y < y1; y++) {
        RowIO io;
        row_io(e, in, out, y, 1, &io);
        load_row(e, in, y, c, b, !!io.src);
        run_stages(e, c[0], c[1], c[2], w, &io);
        if (!io.dst)
            write_full(e, b, out, y, c);
        if (sub_out) {
            for (int i = 1; i < 3; i++) {
                downsample(e, b->t1, c[i], w);
                write_comp(e, b, out, i, y, cw, b->t1);
            }
        }
    }
    copy_alpha(e, in, out, y0, y1, b->t0);
}

/* Output chroma subsampled vertically by 2 (4:2:0): chroma row k filters full-resolution
 * rows 2k-1 .. 2k+2 kept in a ring, or per field (field_taps()) rows 2k-3 .. 2k+4. */
static void convert_rows_v2(const CspfixExec *e, const AVFrame *in, AVFrame *out,
                            int jobnr, int nb_jobs, SliceBuf *b)
{
    const int w = in->width, h = in->height;
    const int ch = AV_CEIL_RSHIFT(h, 1), mask = b->field ? 7 : 3;
    const int before = b->field ? 3 : 1, after = b->field ? 4 : 2;
    int k0, k1, own0, own1, next;

    slice_rows(ch, CSPFIX_ED_BAND / 2, jobnr, nb_jobs, &k0, &k1);
    own0 = 2 * k0;
    own1 = FFMIN(2 * k1, h);
    next = FFMAX(own0 - before, 0);

    for (int k = k0; k < k1; k++) {
        const int need = FFMIN(2 * k + after, h - 1);
        for (; next <= need; next++) {
            float *const *c = b->ring[next & mask];
            const int own = next >= own0 && next < own1;
            RowIO io;
            row_io(e, in, out, next, own, &io);
            load_row(e, in, next, c, b, !!io.src);
            run_stages(e, c[0], c[1], c[2], w, &io);
            if (own && !io.dst)
                write_full(e, b, out, next, c);
        }
        store_chroma_v(e, out, k, b);
    }
    copy_alpha(e, in, out, own0, own1, b->t0);
}

/* ---- choosing the path ---- */

static void setup_clamp(CspfixExec *e, int clip_legal)
{
    const int depth = e->fout.depth, rgb = e->fout.rgb;
    const int max = depth ? (1 << depth) - 1 : 1, sh = FFMAX(depth - 8, 0);

    for (int c = 0; c < 3; c++) {
        e->lo[c] = 0.0f;
        e->hi[c] = max;
        if (clip_legal) {
            e->lo[c] = 16 << sh;
            e->hi[c] = ((c && !rgb) ? 240 : 235) << sh;
        }
    }
}

/* 1 + container index of a component read or written by the unpack/pack kernels
 * (contiguous 8-bit or 16-bit samples), else 0 */
static int planar_kind(const CspfixComp *c)
{
    return c->kind == CSPFIX_COMP_PLANAR8 ? 1 : c->kind == CSPFIX_COMP_PLANAR16 ? 2 : 0;
}

/* Every colour component of the input and the output of this kind. */
static int all_kind(const CspfixExec *e, enum CspfixCompKind kind)
{
    for (int c = 0; c < e->fin.nb_colour; c++)
        if (e->fin.comp[c].kind != kind || e->fout.comp[c].kind != kind)
            return 0;
    return 1;
}

static int same_siting(const CspfixExec *e, const CspfixExecConfig *cfg)
{
    return (!e->fin.hsub && !e->fin.vsub) || cfg->in_loc == cfg->out_loc;
}

/* Range/depth only and the same layout of components: each plane on its own. */
static int per_plane(const CspfixExec *e, const CspfixExecConfig *cfg)
{
    const CspfixFormat *fi = &e->fin, *fo = &e->fout;

    return ff_cspfix_plan_is_per_plane(&e->plan) && same_siting(e, cfg) &&
           fi->hsub == fo->hsub && fi->vsub == fo->vsub && fi->rgb == fo->rgb &&
           fi->nb_colour == fo->nb_colour;
}

/* A linear one-stage plan on Y'CbCr with the same subsampling and siting in and out,
 * whose chroma rows do not involve luma: chroma can stay at its resolution. */
static int chroma_own(const CspfixExec *e, const CspfixExecConfig *cfg)
{
    const CspfixFormat *fi = &e->fin, *fo = &e->fout;
    const CspfixPlan *p = &e->plan;

    return ff_cspfix_plan_is_linear(p) && p->nb_ops == 1 && !fi->rgb && !fo->rgb &&
           fi->nb_colour == 3 && fo->nb_colour == 3 && fi->hsub == fo->hsub &&
           fi->vsub == fo->vsub && (fi->hsub || fi->vsub) && cfg->in_loc == cfg->out_loc &&
           p->ops[0].m[1][0] == 0.0 && p->ops[0].m[2][0] == 0.0;
}

/* Output chroma subsampled (Y'CbCr with fewer chroma samples than luma samples). */
static int sub_out(const CspfixExec *e)
{
    const CspfixFormat *fo = &e->fout;
    return fo->nb_colour == 3 && !fo->rgb && (fo->hsub || fo->vsub);
}

/*
 * Integer RGB input of at most 12 bits whose plan starts with a per-component scale
 * (a diagonal matrix) and a curve: those two stages become one table per component,
 * indexed by the code. The tables are made by the same kernels from every code, so
 * the result is the same, only the per-pixel work goes.
 */
static int setup_in_lut(CspfixExec *e)
{
    const CspfixStage *m = &e->stages[0];
    const int n = 1 << e->fin.depth;
    float *l[3];

    if (!e->fin.rgb || e->fin.is_float || e->fin.nb_colour != 3 || e->fin.depth > 12 ||
        e->nb_stages < 2 || m->type != CSPFIX_OP_MATRIX || e->stages[1].type != CSPFIX_OP_TF)
        return 0;
    /* the tables are indexed by integer codes */
    for (int c = 0; c < 3; c++)
        if (e->fin.comp[c].scale != 1.0f || e->fin.comp[c].invert)
            return 0;
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++)
            if (r != c && m->m[4 * r + c] != 0.0f)
                return 0;
    e->in_lut_stride = n + 16;
    if (!(e->in_lut = av_malloc_array(3 * e->in_lut_stride, sizeof(*e->in_lut))))
        return AVERROR(ENOMEM);
    for (int c = 0; c < 3; c++) {
        l[c] = e->in_lut + c * e->in_lut_stride;
        for (int x = 0; x < e->in_lut_stride; x++)
            l[c][x] = FFMIN(x, n - 1);
    }
    e->dsp.stage.matrix(l[0], l[1], l[2], n, m->m);
    e->dsp.stage.tf(l[0], l[1], l[2], n, e->stages[1].tab);
    e->stage_start = 2;
    return 0;
}

/*
 * The row machinery's fast forms (unless the generic form is forced): code tables for
 * RGB input; the first matrix reading the first component's samples itself and the last
 * one writing luma samples itself, where the kernels allow (no lookup tables in, no error
 * diffusion out, luma the only full-resolution output).
 */
static int setup_rows(CspfixExec *e, const CspfixExecConfig *cfg)
{
    const CspfixFormat *fi = &e->fin, *fo = &e->fout;
    int first, last, ret;

    if (cfg->force_generic)
        return 1;
    if ((ret = setup_in_lut(e)) < 0)
        return ret;
    first = e->stage_start;
    last  = e->nb_stages - 1;
    if (first > last)
        return 1;
    if (e->stages[first].type == CSPFIX_OP_MATRIX && !e->in_lut)
        e->fuse_in = planar_kind(&fi->comp[0]);
    if (e->stages[last].type == CSPFIX_OP_MATRIX && (last > first || !e->fuse_in) &&
        e->dither != CSPFIX_DITHER_ED && !fo->is_float && sub_out(e))
        e->fuse_out = planar_kind(&fo->comp[0]);
    return 1;
}

static int try_passthrough(CspfixExec *e, const CspfixExecConfig *cfg)
{
    return !e->plan.nb_ops && cfg->in_fmt == cfg->out_fmt && same_siting(e, cfg) &&
           !cfg->clip_legal;
}

/* Per-plane maps of 8-bit planes without dither: the integer kernel when it reproduces
 * the float result for every code. */
static int try_map8(CspfixExec *e, const CspfixExecConfig *cfg)
{
    if (!per_plane(e, cfg) || e->dither != CSPFIX_DITHER_NONE ||
        !all_kind(e, CSPFIX_COMP_PLANAR8))
        return 0;
    for (int c = 0; c < e->fin.nb_colour; c++) {
        float sc, of;
        plane_map(e, c, &sc, &of);
        if (ff_cspfix_map8_init(&e->map8[c], &e->dsp, sc, of, e->lo[c], e->hi[c]) < 0)
            return 0;
    }
    return 1;
}

/* Per-plane maps of planes in 16-bit containers without dither: the float map in one pass. */
static int try_map16(CspfixExec *e, const CspfixExecConfig *cfg)
{
    if (!per_plane(e, cfg) || e->dither != CSPFIX_DITHER_NONE ||
        !all_kind(e, CSPFIX_COMP_PLANAR16))
        return 0;
    for (int c = 0; c < e->fin.nb_colour; c++) {
        float sc, of;
        plane_map(e, c, &sc, &of);
        e->map16[c] = (CspfixMap16){ .s = sc, .o = of, .lo = e->lo[c], .hi = e->hi[c] };
    }
    return 1;
}

static int try_plane(CspfixExec *e, const CspfixExecConfig *cfg)
{
    return per_plane(e, cfg);
}

/* Matrix-only conversion of 8- to 10-bit Y'CbCr (same depth in and out) with chroma
 * subsampled horizontally by 2 (4:2:0, 4:2:2), no dither: the integer kernels, when
 * the coefficients fit. */
static int try_yuvint(CspfixExec *e, const CspfixExecConfig *cfg)
{
    const int d = e->fin.depth;

    if (!chroma_own(e, cfg) || e->dither != CSPFIX_DITHER_NONE || e->fin.hsub != 1 ||
        e->fin.vsub > 1 || d < 8 || d > 10 || e->fout.depth != d ||
        !all_kind(e, d == 8 ? CSPFIX_COMP_PLANAR8 : CSPFIX_COMP_PLANAR16))
        return 0;
    return ff_cspfix_yuvint_init(&e->yuvint, e->plan.ops[0].m, e->lo, e->hi, d) >= 0;
}

/* The matrix rows straight from samples to samples: planar 8-bit or 16-bit containers,
 * the same in and out, no error diffusion. */
static int try_own_rows(CspfixExec *e, const CspfixExecConfig *cfg)
{
    const int k = planar_kind(&e->fin.comp[0]);

    if (!chroma_own(e, cfg) || e->nb_stages != 1 || e->stages[0].type != CSPFIX_OP_MATRIX ||
        e->dither == CSPFIX_DITHER_ED || e->fout.is_float || !k)
        return 0;
    for (int c = 0; c < 3; c++)
        if (planar_kind(&e->fin.comp[c]) != k || planar_kind(&e->fout.comp[c]) != k)
            return 0;
    e->own_kind = k - 1;
    ff_cspfix_crow_init(&e->crow, e->stages[0].m, e->lo[1], e->hi[1], e->lo[2], e->hi[2]);
    return 1;
}

static int try_own(CspfixExec *e, const CspfixExecConfig *cfg)
{
    return chroma_own(e, cfg) ? setup_rows(e, cfg) : 0;
}

static int try_rows_vn(CspfixExec *e, const CspfixExecConfig *cfg)
{
    return sub_out(e) && e->fout.vsub > 1 ? setup_rows(e, cfg) : 0;
}

static int try_rows_v2(CspfixExec *e, const CspfixExecConfig *cfg)
{
    return sub_out(e) && e->fout.vsub == 1 ? setup_rows(e, cfg) : 0;
}

static int try_rows(CspfixExec *e, const CspfixExecConfig *cfg)
{
    return setup_rows(e, cfg);
}

enum JobPolicy {
    JOBS_THREADS,   ///< one slice per thread
    JOBS_BALANCED,  ///< several slices per thread (scratch permitting)
};

typedef struct CspfixPathDesc {
    const char *name;
    const char *desc;
    /** 1 and the path's parameters ready if it can run, 0 if not, <0 on error */
    int (*setup)(CspfixExec *e, const CspfixExecConfig *cfg);
    void (*run)(const CspfixExec *e, const AVFrame *in, AVFrame *out, int jobnr, int nb_jobs,
                SliceBuf *b);
    enum JobPolicy jobs;
    int per_plane;          ///< no colour mixing: components converted each on its own
    enum CspfixPath twin;   ///< the generic path it equals (itself when generic)
    int exact;              ///< equals twin byte for byte (else within one code)
} CspfixPathDesc;

/*
 * Tried in this order; the first whose setup accepts runs. A fast path comes before its
 * twin, the generic path of its family, which it equals. The integer and per-plane paths
 * take well under a millisecond a frame: there, each extra slice's wake-up and edge rows
 * cost more than the balance it buys (1080p, 2 threads: 8 slices 0.200 ms, 2 slices 0.167).
 */
static const CspfixPathDesc paths[CSPFIX_PATH_NB] = {
    [CSPFIX_PATH_PASSTHROUGH] = { "passthrough", "no pixel changes",
        try_passthrough, convert_passthrough, JOBS_THREADS, 1, CSPFIX_PATH_PASSTHROUGH, 1 },
    [CSPFIX_PATH_MAP8]        = { "map8", "per-plane, integer",
        try_map8, convert_map, JOBS_THREADS, 1, CSPFIX_PATH_PLANE, 1 },
    [CSPFIX_PATH_MAP16]       = { "map16", "per-plane, one pass",
        try_map16, convert_map, JOBS_THREADS, 1, CSPFIX_PATH_PLANE, 1 },
    [CSPFIX_PATH_PLANE]       = { "plane", "per-plane",
        try_plane, convert_plane, JOBS_THREADS, 1, CSPFIX_PATH_PLANE, 1 },
    [CSPFIX_PATH_YUVINT]      = { "yuvint", "chroma at its own resolution, integer",
        try_yuvint, convert_yuvint, JOBS_THREADS, 0, CSPFIX_PATH_OWN, 0 },
    [CSPFIX_PATH_OWN_ROWS]    = { "own-rows", "chroma at its own resolution, samples to samples",
        try_own_rows, convert_own_rows, JOBS_BALANCED, 0, CSPFIX_PATH_OWN, 1 },
    [CSPFIX_PATH_OWN]         = { "own", "chroma at its own resolution",
        try_own, convert_own, JOBS_BALANCED, 0, CSPFIX_PATH_OWN, 1 },
    [CSPFIX_PATH_ROWS_VN]     = { "rows-vn", "full rows, chroma rows made per slice",
        try_rows_vn, convert_rows_vn, JOBS_BALANCED, 0, CSPFIX_PATH_ROWS_VN, 1 },
    [CSPFIX_PATH_ROWS_V2]     = { "rows-v2", "full rows in a ring",
        try_rows_v2, convert_rows_v2, JOBS_BALANCED, 0, CSPFIX_PATH_ROWS_V2, 1 },
    [CSPFIX_PATH_ROWS]        = { "rows", "full rows",
        try_rows, convert_rows, JOBS_BALANCED, 0, CSPFIX_PATH_ROWS, 1 },
};

/* ---- the engine's face ---- */

av_cold void ff_cspfix_exec_init(CspfixExec *e)
{
    memset(e, 0, sizeof(*e));
    ff_cspfix_dsp_init(&e->dsp);
    for (int x = 0; x < 16; x++)
        e->bias_round[x] = 0.5f;
    /* 16x16 Bayer matrix: thresholds (b + 0.5) / 256 */
    for (int y = 0; y < 16; y++) {
        for (int x = 0; x < 16; x++) {
            int v = 0;
            for (int bit = 3; bit >= 0; bit--) {
                int xb = (x >> (3 - bit)) & 1, yb = (y >> (3 - bit)) & 1;
                v |= (((xb ^ yb) << 1) | yb) << (2 * bit);
            }
            e->bias_dither[y][x] = (v + 0.5f) / 256.0f;
        }
    }
}

int ff_cspfix_exec_configure(CspfixExec *e, const CspfixExecConfig *cfg)
{
    int ret, in_depth;

    e->plan = *cfg->plan;
    if ((ret = bind_stages(e)) < 0 ||
        (ret = ff_cspfix_format_init(&e->fin, cfg->in_fmt)) < 0 ||
        (ret = ff_cspfix_format_init(&e->fout, cfg->out_fmt)) < 0)
        return ret;
    siting(cfg->in_loc, &e->in_phase_x, &e->in_off_y2);
    siting(cfg->out_loc, &e->out_phase_x, &e->out_off_y2);
    in_depth  = e->fin.depth ? e->fin.depth : 32;
    e->dither = !e->fout.depth ? CSPFIX_DITHER_NONE :
                cfg->dither == CSPFIX_DITHER_AUTO ?
                (e->fout.depth < in_depth ? CSPFIX_DITHER_ORDERED : CSPFIX_DITHER_NONE) :
                cfg->dither;
    setup_clamp(e, cfg->clip_legal);
    e->fuse_in = e->fuse_out = 0;

    for (int i = 0; i < CSPFIX_PATH_NB; i++) {
        if (cfg->force_generic && paths[i].twin != i)
            continue;
        if ((ret = paths[i].setup(e, cfg)) < 0)
            return ret;
        if (ret) {
            e->path = i;
            return 0;
        }
    }
    av_assert0(0); /* rows always runs */
    return AVERROR_BUG;
}

int ff_cspfix_exec_needs_alloc(const CspfixExec *e, int w)
{
    return !e->scratch || e->scratch_w < w;
}

int ff_cspfix_exec_alloc(CspfixExec *e, int w, int nb_threads)
{
    e->row_stride     = FFALIGN(w, 16) + 16;
    e->nb_threads     = FFMAX(1, nb_threads);
    /* with threads, several slices per thread: a thread the system delays takes
     * fewer of them instead of holding up the frame */
    e->max_jobs       = e->nb_threads > 1 ? 4 * e->nb_threads : 1;
    /* + 16 floats before the rows and 32 after: kernels read src[-1], up to src[w + 16] */
    e->scratch_stride = SCRATCH_ROWS * e->row_stride + 48 + ED_ROWS * ed_stride(e);
    e->scratch_w      = w;
    av_freep(&e->scratch);
    e->scratch = av_calloc((size_t)e->max_jobs * e->scratch_stride, sizeof(float));
    return e->scratch ? 0 : AVERROR(ENOMEM);
}

int ff_cspfix_exec_jobs(const CspfixExec *e, int h)
{
    const int n = paths[e->path].jobs == JOBS_THREADS ? e->nb_threads : e->max_jobs;
    return FFMAX(1, FFMIN(n, (h + CSPFIX_ED_BAND - 1) / CSPFIX_ED_BAND));
}

/* Zero every plane: padding bits and words shared by components (see CspfixFormat.clear) */
void ff_cspfix_exec_prepare_output(const CspfixExec *e, AVFrame *f)
{
    const AVPixFmtDescriptor *d = av_pix_fmt_desc_get(f->format);
    int planes = 0;

    if (!e->fout.clear)
        return;
    for (int c = 0; c < d->nb_components; c++)
        planes = FFMAX(planes, d->comp[c].plane + 1);
    for (int p = 0; p < planes; p++) {
        const int h = p == 1 || p == 2 ? AV_CEIL_RSHIFT(f->height, d->log2_chroma_h) : f->height;
        for (int y = 0; y < h; y++)
            memset(f->data[p] + (ptrdiff_t)y * f->linesize[p], 0, FFABS(f->linesize[p]));
    }
}

void ff_cspfix_exec_slice(const CspfixExec *e, const AVFrame *in, AVFrame *out, int field,
                          int jobnr, int nb_jobs)
{
    SliceBuf b;

    av_assert1(jobnr < e->max_jobs);
    slice_buf(e, jobnr, field, &b);
    paths[e->path].run(e, in, out, jobnr, nb_jobs, &b);
    ed_flush_all(e, &b);
}

av_cold void ff_cspfix_exec_uninit(CspfixExec *e)
{
    free_stages(e);
    av_freep(&e->scratch);
}

const char *ff_cspfix_exec_path_name(enum CspfixPath path)
{
    return paths[path].name;
}

const char *ff_cspfix_exec_path_desc(enum CspfixPath path)
{
    return paths[path].desc;
}

enum CspfixPath ff_cspfix_exec_path_twin(enum CspfixPath path)
{
    return paths[path].twin;
}

int ff_cspfix_exec_path_exact(enum CspfixPath path)
{
    return paths[path].exact;
}

int ff_cspfix_exec_path_per_plane(enum CspfixPath path)
{
    return paths[path].per_plane;
}
