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

#ifndef AVFILTER_CSPFIX_YCGCOR_H
#define AVFILTER_CSPFIX_YCGCOR_H

#include "libavutil/frame.h"
#include "libavutil/pixfmt.h"

#include "cspfix_dsp.h"

/*
 * YCgCo-R is not a matrix the plan can run: it is exact integer lifting (H.273 V3,
 * H.265 eqs E-41..E-48) between N-bit RGB and Y, Cg, Co coded at N + 2 bits (ycgco-re)
 * or N + 1 bits (ycgco-ro), full range, 4:4:4. The filter lifts a YCgCo-R input into a
 * planar RGB frame of N bits before the engine, and the engine's planar RGB output into
 * a YCgCo-R frame after it (vf_cspfix.c).
 */

/** 1 for ycgco-re and ycgco-ro. */
int ff_cspfix_is_ycgcor(enum AVColorSpace csp);

/**
 * The native-endian planar RGB format (gbrp, gbrp9 ... gbrp14) whose samples the
 * YCgCo-R matrix csp in the 4:4:4 planar format ycc_fmt codes without loss, or
 * AV_PIX_FMT_NONE when there is none (another layout, alpha, a depth without an RGB
 * twin).
 */
enum AVPixelFormat ff_cspfix_ycgcor_rgb_fmt(enum AVColorSpace csp, enum AVPixelFormat ycc_fmt);

/**
 * As ff_cspfix_ycgcor_rgb_fmt(), checking the range too (full only); an error is
 * logged with what ("input", "output"), the value, the format and what is supported.
 */
int ff_cspfix_ycgcor_check(void *log_ctx, const char *what, enum AVColorSpace csp,
                           enum AVPixelFormat ycc_fmt, enum AVColorRange range,
                           enum AVPixelFormat *rgb_fmt);

/** *f made a writable frame of fmt, w x h, reused when it already is one. */
int ff_cspfix_ycgcor_frame(AVFrame **f, enum AVPixelFormat fmt, int w, int h);

/**
 * Rows [y0, y1) of src into dst: to_rgb, the YCgCo-R frame src into the RGB frame dst
 * (inverse lifting); else the RGB frame src into the YCgCo-R frame dst (forward lifting).
 */
void ff_cspfix_ycgcor_lift(const CspfixYcgcorDSP *dsp, const AVFrame *src, AVFrame *dst,
                           int to_rgb, int y0, int y1);

#endif /* AVFILTER_CSPFIX_YCGCOR_H */
