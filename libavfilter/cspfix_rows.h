/*
 * cspfix: the row machinery of the execution paths
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

#ifndef AVFILTER_CSPFIX_ROWS_H
#define AVFILTER_CSPFIX_ROWS_H

/*
 * The row machinery (cspfix_rows.c) the paths (cspfix_paths.c) are built of: a slice's
 * scratch rows, input rows read into float rows (chroma upsampled), the stages run on
 * them, chroma downsampled, rows dithered and written. Internal to the engine.
 */

#include <stdint.h>
#include <string.h>

#include "libavutil/frame.h"
#include "libavutil/mem_internal.h"

#include "cspfix_exec.h"

/* Frame rows a row's first and last matrices read and write directly (fuse_in, fuse_out),
 * or NULL. */
typedef struct CspfixRowIO {
    const uint8_t *src;     ///< samples of the first component (input)
    uint8_t *dst;           ///< samples of the first component (output)
    const float *bias;      ///< pack bias of dst
} CspfixRowIO;

typedef struct CspfixSliceBuf {
    float *ring[8][3];      ///< full-resolution rows after the plan, slot = row & 3 (row & 7 for interlaced frames)
                            ///< (per-field 4:2:0 output: row & 7)
    float *t0, *t1, *t2;    ///< chroma-resolution scratch
    int32_t *delta[6];      ///< the integer path's chroma delta rows
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
} CspfixSliceBuf;

/*
 * A slice's scratch rows (e->row_stride floats each): named regions, laid out in this
 * order by ff_cspfix_slice_buf(), then the error diffusion rows.
 */
#define CSPFIX_SCR_RING   (8 * 3)   ///< ring[8][3]: full-resolution rows after the plan
#define CSPFIX_SCR_TEMP   3         ///< t0, t1, t2
#define CSPFIX_SCR_CROW   (2 * 4)   ///< crow[2][4]: unpacked input Cb and Cr rows
#define CSPFIX_SCR_DELTA  6         ///< delta[6]: int32 rows of the integer path
#define CSPFIX_SCRATCH_ROWS (CSPFIX_SCR_RING + CSPFIX_SCR_TEMP + CSPFIX_SCR_CROW + \
                             CSPFIX_SCR_DELTA)
/* per job after those: 3 x 33 error diffusion rows (32 rows and the errors) */
#define CSPFIX_SCRATCH_ED_ROWS (3 * (CSPFIX_ED_ROWS + 1))

/* floats per error diffusion row, with its padding */
static inline int cspfix_ed_stride(const CspfixExec *e)
{
    return e->row_stride + 2 * CSPFIX_ED_PAD;
}

/*
 * Row tails, handled once. The fused kernels (matrix_in, matrix_out, yrow, crow) take
 * whole CSPFIX_BLOCK-sample blocks only. The float rows have a block of padding, so the
 * last partial block of a row runs through the same kernel, its frame samples copied to
 * and from block-sized buffers (unused input samples zero): every sample of a row gets
 * the same operations, wherever it lies.
 */
#define CSPFIX_BLOCK 16

typedef struct CspfixTail {
    DECLARE_ALIGNED(32, uint8_t, buf)[4][CSPFIX_BLOCK * 2];
} CspfixTail;

static inline int cspfix_whole_blocks(int w)
{
    return w & ~(CSPFIX_BLOCK - 1);
}

/** Tail buffer i holding the n samples at src (b: log2 of the bytes per sample). */
static inline const uint8_t *cspfix_tail_in(CspfixTail *t, int i, const uint8_t *src, int n,
                                            int b)
{
    memcpy(t->buf[i], src, (size_t)n << b);
    memset(t->buf[i] + ((size_t)n << b), 0, (size_t)(CSPFIX_BLOCK - n) << b);
    return t->buf[i];
}

/** The first n samples of tail buffer i to dst. */
static inline void cspfix_tail_out(const CspfixTail *t, int i, uint8_t *dst, int n, int b)
{
    memcpy(dst, t->buf[i], (size_t)n << b);
}

static inline int cspfix_floor_div(int a, int b)
{
    return a >= 0 ? a / b : -((-a + b - 1) / b);
}

/** Point b at slice jobnr's scratch rows, caches emptied. */
void ff_cspfix_slice_buf(const CspfixExec *e, int jobnr, int field, CspfixSliceBuf *b);

/** Rows [*y0, *y1) of job j of n over h rows, cut on multiples of band. */
void ff_cspfix_slice_rows(int h, int band, int j, int n, int *y0, int *y1);

void ff_cspfix_fill_row(float *dst, int w, float v);

/** Input row y as three full-resolution float rows (skip0: the first is read by a fused matrix). */
void ff_cspfix_load_row(const CspfixExec *e, const AVFrame *in, int y, float *const c[3],
                        CspfixSliceBuf *b, int skip0);

/** The stages on w samples of three rows (io: fused first/last matrices, or NULL). */
void ff_cspfix_run_stages(const CspfixExec *e, float *c0, float *c1, float *c2, int w,
                          const CspfixRowIO *io);

/** The pack bias of row y of component c (rounding, or the ordered dither's row). */
const float *ff_cspfix_bias_row(const CspfixExec *e, int y, int c);

/** Write row y of component c (w samples), dithered; error diffusion collects it. */
void ff_cspfix_write_comp(const CspfixExec *e, CspfixSliceBuf *b, AVFrame *out, int c, int y,
                          int w, float *src);

/** Write the full-resolution components of output row y. */
void ff_cspfix_write_full(const CspfixExec *e, CspfixSliceBuf *b, AVFrame *out, int y,
                          float *const c[3]);

/** Diffuse and write the rows error diffusion still holds. */
void ff_cspfix_ed_flush_all(const CspfixExec *e, CspfixSliceBuf *b);

/** Alpha rows [y0, y1): copied and rescaled, or opaque (row: scratch). */
void ff_cspfix_copy_alpha(const CspfixExec *e, const AVFrame *in, AVFrame *out, int y0, int y1,
                          float *row);

/** Horizontal chroma downsampling by 2^sub > 2, in C. */
void ff_cspfix_downsample_hn(float *dst, const float *src, int w, int sub, int where);

/** Horizontal chroma downsampling to the output's subsampling (sets src's edges). */
void ff_cspfix_downsample_h(const CspfixExec *e, float *dst, float *src, int w);

/** Output chroma row k of a vertically subsampled-by-2 output, from the ring. */
void ff_cspfix_store_chroma_v(const CspfixExec *e, AVFrame *out, int k, CspfixSliceBuf *b);

#endif /* AVFILTER_CSPFIX_ROWS_H */
