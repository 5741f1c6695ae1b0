/*
 * cspfix: the execution paths' slice functions
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

#ifndef AVFILTER_CSPFIX_PATHS_H
#define AVFILTER_CSPFIX_PATHS_H

/*
 * The slice function of each execution path (cspfix_paths.c), which the path table in
 * cspfix_exec.c names: convert slice jobnr of nb_jobs of in into out with the scratch
 * rows b. Internal to the engine.
 */

#include "libavutil/frame.h"

#include "cspfix_exec.h"
#include "cspfix_rows.h"

/** The per-plane map of component c: scale and offset (the plan's diagonal matrix, or none). */
void ff_cspfix_plane_map(const CspfixExec *e, int c, float *sc, float *of);

void ff_cspfix_convert_passthrough(const CspfixExec *e, const AVFrame *in, AVFrame *out,
                                   int jobnr, int nb_jobs, CspfixSliceBuf *b);
void ff_cspfix_convert_map(const CspfixExec *e, const AVFrame *in, AVFrame *out,
                           int jobnr, int nb_jobs, CspfixSliceBuf *b);
void ff_cspfix_convert_plane(const CspfixExec *e, const AVFrame *in, AVFrame *out,
                             int jobnr, int nb_jobs, CspfixSliceBuf *b);
void ff_cspfix_convert_yuvint(const CspfixExec *e, const AVFrame *in, AVFrame *out,
                              int jobnr, int nb_jobs, CspfixSliceBuf *b);
void ff_cspfix_convert_own_rows(const CspfixExec *e, const AVFrame *in, AVFrame *out,
                                int jobnr, int nb_jobs, CspfixSliceBuf *b);
void ff_cspfix_convert_own(const CspfixExec *e, const AVFrame *in, AVFrame *out,
                           int jobnr, int nb_jobs, CspfixSliceBuf *b);
void ff_cspfix_convert_rows_vn(const CspfixExec *e, const AVFrame *in, AVFrame *out,
                               int jobnr, int nb_jobs, CspfixSliceBuf *b);
void ff_cspfix_convert_rows_v2(const CspfixExec *e, const AVFrame *in, AVFrame *out,
                               int jobnr, int nb_jobs, CspfixSliceBuf *b);
void ff_cspfix_convert_rows(const CspfixExec *e, const AVFrame *in, AVFrame *out,
                            int jobnr, int nb_jobs, CspfixSliceBuf *b);

#endif /* AVFILTER_CSPFIX_PATHS_H */
