/*
 * cspfix: YCgCo-R (H.273 MatrixCoefficients 16 and 17): the lossless integer lifting
 * between planar RGB and 4:4:4 YCgCo-R
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
 * An integer pre-pass (input) and post-pass (output) around the engine, on YCgCo-R frames
 * only: the rows through the ycgcor DSP family (C kernels in cspfix_dsp.c, SIMD twins in
 * x86/cspfix_ycgcor.asm). The equations are doc/conversion-model.md's (H.273 V3, H.265
 * Annex E eqs E-41..E-48); ycgco-re and ycgco-ro differ only in the depth of the coded
 * signal, hence in its offset.
 */

#include <string.h>

#include "libavutil/common.h"
#include "libavutil/log.h"
#include "libavutil/pixdesc.h"

#include "cspfix_ycgcor.h"

int ff_cspfix_is_ycgcor(enum AVColorSpace csp)
{
    return csp == AVCOL_SPC_YCGCO_RE || csp == AVCOL_SPC_YCGCO_RO;
}

/* the planar RGB format of each depth, native endian */
static enum AVPixelFormat rgb_of_depth(int n)
{
    switch (n) {
    case  8: return AV_PIX_FMT_GBRP;
    case  9: return AV_PIX_FMT_GBRP9;
    case 10: return AV_PIX_FMT_GBRP10;
    case 12: return AV_PIX_FMT_GBRP12;
    case 14: return AV_PIX_FMT_GBRP14;
    }
    return AV_PIX_FMT_NONE;
}

/* 3-component planar Y'CbCr, one 16-bit sample per component in its own plane, at
 * ycc subsampling (0: any) */
static int planar_ycc(const AVPixFmtDescriptor *d, int any_subsampling)
{
    if (!d || d->nb_components != 3 || (d->flags & (AV_PIX_FMT_FLAG_RGB | AV_PIX_FMT_FLAG_FLOAT |
        AV_PIX_FMT_FLAG_PAL | AV_PIX_FMT_FLAG_BITSTREAM | AV_PIX_FMT_FLAG_HWACCEL)) ||
        !(d->flags & AV_PIX_FMT_FLAG_PLANAR))
        return 0;
    if (!any_subsampling && (d->log2_chroma_w || d->log2_chroma_h))
        return 0;
    for (int c = 0; c < 3; c++)
        if (d->comp[c].plane != c || d->comp[c].step != 2 || d->comp[c].shift ||
            d->comp[c].offset || d->comp[c].depth != d->comp[0].depth)
            return 0;
    return 1;
}

enum AVPixelFormat ff_cspfix_ycgcor_rgb_fmt(enum AVColorSpace csp, enum AVPixelFormat ycc_fmt)
{
    const AVPixFmtDescriptor *d = av_pix_fmt_desc_get(ycc_fmt);

    if (!ff_cspfix_is_ycgcor(csp) || !planar_ycc(d, 0))
        return AV_PIX_FMT_NONE;
    return rgb_of_depth(d->comp[0].depth - (csp == AVCOL_SPC_YCGCO_RE ? 2 : 1));
}

int ff_cspfix_ycgcor_check(void *log_ctx, const char *what, enum AVColorSpace csp,
                           enum AVPixelFormat ycc_fmt, enum AVColorRange range,
                           enum AVPixelFormat *rgb_fmt)
{
    const AVPixFmtDescriptor *d = av_pix_fmt_desc_get(ycc_fmt);
    const char *name = av_color_space_name(csp), *fmt = d ? d->name : "none";
    const int input = !strcmp(what, "input");

    *rgb_fmt = ff_cspfix_ycgcor_rgb_fmt(csp, ycc_fmt);
    if (d && (d->log2_chroma_w || d->log2_chroma_h)) {
        av_log(log_ctx, AV_LOG_ERROR, "Lossless YCgCo-R (%s %s) needs 4:4:4, not the "
               "subsampled %s: %s.\n", what, name, fmt, input ?
               "a subsampled YCgCo-R signal cannot be lifted back to RGB; if the frames "
               "are mislabelled set ispace= to their matrix" :
               "set format= to a 4:4:4 format (yuv444p10 for ycgco-re of 8-bit RGB), or "
               "space= to a matrix for subsampled output (e.g. ycgco, bt709)");
        return AVERROR(EINVAL);
    }
    if (*rgb_fmt == AV_PIX_FMT_NONE) {
        av_log(log_ctx, AV_LOG_ERROR, "Unsupported %s YCgCo-R: %s in %s (%d-bit%s): YCgCo-R "
               "codes N-bit RGB in 4:4:4 planar Y'CbCr of N + %d bits, and N has to be the "
               "depth of a planar RGB format; supported: ycgco-re in yuv444p10/12/14/16 "
               "(RGB of 8/10/12/14 bits), ycgco-ro in yuv444p9/10 (RGB of 8/9 bits)%s.\n",
               what, name, fmt, d ? d->comp[0].depth : 0,
               d && d->nb_components == 4 ? ", with alpha" :
               d && d->comp[0].depth > 8 && !planar_ycc(d, 1) ? ", not planar" : "",
               csp == AVCOL_SPC_YCGCO_RE ? 2 : 1,
               d && d->nb_components == 4 ? "; alpha is not carried" : "");
        return AVERROR(EINVAL);
    }
    if (range != AVCOL_RANGE_JPEG) {
        av_log(log_ctx, AV_LOG_ERROR, "Unsupported %s range %s with matrix %s: YCgCo-R is "
               "full range only (H.273)%s.\n", what, av_color_range_name(range), name,
               input ? "; if the frames are mislabelled set irange=pc" : "; set range=pc");
        return AVERROR(EINVAL);
    }
    return 0;
}

int ff_cspfix_ycgcor_frame(AVFrame **f, enum AVPixelFormat fmt, int w, int h)
{
    if (*f && (*f)->format == fmt && (*f)->width == w && (*f)->height == h &&
        av_frame_is_writable(*f))
        return 0;
    av_frame_free(f);
    if (!(*f = av_frame_alloc()))
        return AVERROR(ENOMEM);
    (*f)->format = fmt;
    (*f)->width  = w;
    (*f)->height = h;
    return av_frame_get_buffer(*f, 64);
}

void ff_cspfix_ycgcor_lift(const CspfixYcgcorDSP *dsp, const AVFrame *src, AVFrame *dst,
                           int to_rgb, int y0, int y1)
{
    const AVFrame *ycc = to_rgb ? src : dst, *rgb = to_rgb ? dst : src;
    const AVPixFmtDescriptor *dy = av_pix_fmt_desc_get(ycc->format);
    const AVPixFmtDescriptor *dr = av_pix_fmt_desc_get(rgb->format);
    const int be  = !!(dy->flags & AV_PIX_FMT_FLAG_BE);
    const int off = 1 << (dy->comp[0].depth - 1);
    const int max = (1 << dr->comp[0].depth) - 1, k = max > 255;
    /* the SIMD kernel on a row's whole vectors of 8, the C kernel on the rest and on
     * big-endian codes (the C kernel takes either endianness) */
    decl_cspfix_ycgcor_fn(*const simd) = to_rgb ? dsp->to_rgb[k] : dsp->from_rgb[k];
    decl_cspfix_ycgcor_fn(*const c)    = to_rgb ? ff_cspfix_ycgcor_to_rgb_c :
                                                  ff_cspfix_ycgcor_from_rgb_c;
    const int w = dst->width, w8 = be ? 0 : w & ~7;
    /* the byte offsets of sample w8: codes of 2 bytes, RGB samples of 1 << k */
    const int ts = to_rgb ? 2 * w8 : w8 << k;
    const int td = to_rgb ? w8 << k : 2 * w8;
    const uint8_t *s[3];
    uint8_t *d[3];

    for (int y = y0; y < y1; y++) {
        for (int p = 0; p < 3; p++) {
            s[p] = src->data[p] + (ptrdiff_t)y * src->linesize[p];
            d[p] = dst->data[p] + (ptrdiff_t)y * dst->linesize[p];
        }
        if (w8)
            simd(d[0], d[1], d[2], s[0], s[1], s[2], w8, off, max, 0);
        if (w8 < w)
            c(d[0] + td, d[1] + td, d[2] + td, s[0] + ts, s[1] + ts, s[2] + ts,
              w - w8, off, max, be);
    }
}
