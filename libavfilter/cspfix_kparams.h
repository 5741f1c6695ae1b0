/*
 * cspfix: kernel parameter solvers (integer maps, integer matrices, fused chroma rows)
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

#ifndef AVFILTER_CSPFIX_KPARAMS_H
#define AVFILTER_CSPFIX_KPARAMS_H

/*
 * Kernel parameter solvers: the parameters of the integer and fused kernels of
 * cspfix_dsp.h (CspfixMap8, CspfixYuvInt, CspfixCRow) for a conversion, each
 * checked to give exactly what the float kernels give. Used by the engine when it
 * builds a plan's execution; the kernels only read the results.
 */

#include "cspfix_dsp.h"

/** crow() parameters of the chroma rows of the 3x4 matrix m with output clamps lo, hi */
void ff_cspfix_crow_init(CspfixCRow *p, const float m[12], float lo_cb, float hi_cb,
                         float lo_cr, float hi_cr);

/** Sets m->clip from the other fields. */
void ff_cspfix_map8_set_clip(CspfixMap8 *m);

/**
 * Find integer parameters for the float map floor(min(max(x * s + o + 0.5, lo), hi))
 * of every 8-bit code x, as dsp's affine and pack kernels compute it.
 * Returns 0 and fills m if some parameters reproduce all 256 results, else <0.
 */
int ff_cspfix_map8_init(CspfixMap8 *m, const CspfixDSPContext *dsp, float s, float o,
                        float lo, float hi);

/**
 * Integer form of the matrix m (3 rows of 4, in codes of depth bits, 8 to 10) for
 * Y'CbCr whose chroma rows do not involve luma (m[1][0] == m[2][0] == 0), with output
 * clamps lo[3], hi[3]. Returns 0 and fills p, or <0 if the coefficients do not fit.
 */
int ff_cspfix_yuvint_init(CspfixYuvInt *p, const double m[3][4], const float lo[3],
                          const float hi[3], int depth);

#endif /* AVFILTER_CSPFIX_KPARAMS_H */
