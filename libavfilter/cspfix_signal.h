/*
 * cspfix: the signal matrices
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

#ifndef AVFILTER_CSPFIX_SIGNAL_H
#define AVFILTER_CSPFIX_SIGNAL_H

/*
 * The matrices between codes and signals (cspfix_signal.c): codes to the normalised
 * signal, Y'CbCr to R'G'B', and the LMS systems (ICtCp, IPT-C2).
 */

#include "libavutil/pixfmt.h"

#include "cspfix_plan.h"

/** Codes of d -> its normalised signal (Y' in [0, 1], Cb/Cr in [-0.5, 0.5], or R'G'B'). */
void ff_cspfix_norm_matrix(double m[3][4], const CspfixDesc *d);

/**
 * Normalised Y'CbCr of d's matrix -> R'G'B' (non-constant luminance, YCgCo, SMPTE ST 2085;
 * the identity for RGB). Returns 0 or an AVERROR for a matrix without coefficients.
 */
int ff_cspfix_ycc_matrix(double m[3][4], const CspfixDesc *d);

/** 1 for the systems on LMS: ICtCp and IPT-C2. */
int ff_cspfix_is_lms(enum AVColorSpace csp);

/** Linear BT.2020 RGB -> LMS of such a system. */
const double (*ff_cspfix_lms_matrix(enum AVColorSpace csp))[3];

/** L'M'S' -> the signal of d's LMS system (ICtCp's PQ or HLG rows, IPT-C2's). */
const double (*ff_cspfix_lms_signal_matrix(const CspfixDesc *d))[3];

#endif /* AVFILTER_CSPFIX_SIGNAL_H */
