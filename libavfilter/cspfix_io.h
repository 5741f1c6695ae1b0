/*
 * cspfix: pixel formats (which are supported, how each stores its components) and
 * rows of one or three components read and written as float
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

#ifndef AVFILTER_CSPFIX_IO_H
#define AVFILTER_CSPFIX_IO_H

#include "libavutil/frame.h"
#include "libavutil/pixfmt.h"

#include "cspfix_dsp.h"

enum CspfixCompKind {
    CSPFIX_COMP_PLANAR8,    ///< contiguous 8-bit samples
    CSPFIX_COMP_PLANAR16,   ///< contiguous 16-bit samples, no shift
    CSPFIX_COMP_S8,         ///< 8-bit samples every step bytes
    CSPFIX_COMP_S16,        ///< 16-bit LE words every step bytes, shifted and masked
    CSPFIX_COMP_F32,        ///< float32 LE every step bytes
    CSPFIX_COMP_GENERIC,    ///< anything else, one sample at a time from the descriptor
};

typedef struct CspfixComp {
    int plane, step, offset, shift, depth;
    enum CspfixCompKind kind;   ///< how the component is read
    int wgeneric;               ///< written by the generic code (shares its word: read-modify-write)
    /* the generic code */
    int bits;                   ///< word read: 8, 16 or 32 bits; 0: bit stream (step, offset in bits)
    int be;                     ///< big-endian words
    int half;                   ///< IEEE half-float samples
    int invert;                 ///< code = max - sample (monow: 0 is white)
    float scale;                ///< code to sample: the component's depth differs from the format's
} CspfixComp;

/** How a pixel format stores colour: components in R,G,B or Y,Cb,Cr order, [3] alpha. */
typedef struct CspfixFormat {
    enum AVPixelFormat fmt;
    int nb_colour;          ///< 3, or 1 for gray
    int rgb, is_float, alpha, x2rgb10;
    int clear;              ///< output frames are zeroed first: padding (X) no kernel
                            ///< writes, or words shared by components (read-modify-write)
    int depth;              ///< bits per colour component (the largest); 0 for float
    int hsub, vsub;         ///< log2 chroma subsampling
    CspfixComp comp[4];
} CspfixFormat;

/** Row y of component c of a frame (its first sample). */
static inline uint8_t *ff_cspfix_row_ptr(const AVFrame *f, const CspfixComp *c, int y)
{
    return f->data[c->plane] + (ptrdiff_t)y * f->linesize[c->plane] + c->offset;
}

/**
 * Every supported pixel format of the libavutil the filter runs with,
 * AV_PIX_FMT_NONE terminated (made from the descriptors on first use).
 */
const enum AVPixelFormat *ff_cspfix_pix_fmts(void);

/**
 * Why fmt is not supported (a sentence), or NULL when it is.
 */
const char *ff_cspfix_unsupported_reason(enum AVPixelFormat fmt);

/** Fill f for fmt; AVERROR(ENOSYS) if the format is not supported. */
int ff_cspfix_format_init(CspfixFormat *f, enum AVPixelFormat fmt);

/** Read w samples of component c (0..3) from row y of its plane. */
void ff_cspfix_read(const CspfixDSPContext *dsp, const CspfixFormat *f, const AVFrame *frame,
                    int c, int y, int w, float *dst);

/** ff_cspfix_read() then lut (n entries, see CspfixDSPContext.lut) in one pass. */
void ff_cspfix_read_lut(const CspfixDSPContext *dsp, const CspfixFormat *f, const AVFrame *frame,
                        int c, int y, int w, float *dst, const float *lut, int n);

/** Write w samples of component c to row y of its plane (floor(v + bias) clamped). */
void ff_cspfix_write(const CspfixDSPContext *dsp, const CspfixFormat *f, AVFrame *frame,
                     int c, int y, int w, const float *src, const float *bias,
                     float lo, float hi);

/** Write the three colour components of a full-resolution row. */
void ff_cspfix_write3(const CspfixDSPContext *dsp, const CspfixFormat *f, AVFrame *frame,
                      int y, int w, float *const c[3], const float *bias,
                      const float lo[3], const float hi[3]);

#endif /* AVFILTER_CSPFIX_IO_H */
