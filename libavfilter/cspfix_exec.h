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

#ifndef AVFILTER_CSPFIX_EXEC_H
#define AVFILTER_CSPFIX_EXEC_H

/*
 * The engine takes a plan (cspfix_plan.h), the input and output pixel formats and chroma
 * sitings, binds the plan's ops to kernel parameters (float matrices, curve tables),
 * chooses one execution path from a table (tried in order; each either declines or
 * prepares its parameters) and runs it on slices of AVFrames. It needs nothing of
 * libavfilter: tests drive it directly. cspfix_exec.c is this face and the path table,
 * cspfix_paths.c the paths' slice functions, cspfix_rows.c the row machinery they share.
 *
 *     CspfixExec e;
 *     ff_cspfix_exec_init(&e);
 *     ff_cspfix_exec_configure(&e, &cfg);          // per plan
 *     ff_cspfix_exec_alloc(&e, width, nb_threads); // per width / thread count
 *     ff_cspfix_exec_prepare_output(&e, out);      // per frame
 *     for (j = 0; j < n; j++)                      // n = ff_cspfix_exec_jobs(&e, height)
 *         ff_cspfix_exec_slice(&e, in, out, field, j, n);
 *     ff_cspfix_exec_uninit(&e);
 */

#include "libavutil/frame.h"
#include "libavutil/pixfmt.h"

#include "cspfix_dsp.h"
#include "cspfix_io.h"
#include "cspfix_plan.h"
#include "cspfix_tf.h"

enum CspfixDither {
    CSPFIX_DITHER_AUTO = -1,    ///< ordered when the output has fewer bits than the input
    CSPFIX_DITHER_NONE,
    CSPFIX_DITHER_ORDERED,
    CSPFIX_DITHER_ED,           ///< Floyd-Steinberg error diffusion in fixed 32-row bands
    CSPFIX_DITHER_NB,
};

/* With error diffusion, slices are cut on multiples of this many luma rows, where the
 * diffusion restarts, so the output is the same for any thread count. */
#define CSPFIX_ED_BAND 32
/* Without it, on multiples of this many (whole 4:2:0 chroma rows of both fields of an
 * interlaced frame): slices of nearly equal size for any job count. */
#define CSPFIX_SLICE_BAND 4

/* The execution paths, in the order they are tried (ff_cspfix_exec_configure()). */
enum CspfixPath {
    CSPFIX_PATH_PASSTHROUGH,    ///< no pixel changes: the frame goes out re-tagged
    CSPFIX_PATH_MAP8,           ///< per plane, 8-bit codes through an integer map
    CSPFIX_PATH_MAP16,          ///< per plane, 16-bit containers through the float map in one pass
    CSPFIX_PATH_PLANE,          ///< per plane, at each plane's resolution (range/depth only)
    CSPFIX_PATH_YUVINT,         ///< matrix only, chroma at its resolution, in integers
    CSPFIX_PATH_OWN_ROWS,       ///< matrix only, chroma at its resolution, samples to samples
    CSPFIX_PATH_OWN,            ///< linear plan, chroma at its resolution
    CSPFIX_PATH_ROWS_VN,        ///< full rows, output chroma subsampled vertically by 4
    CSPFIX_PATH_ROWS_V2,        ///< full rows in a ring, output chroma subsampled vertically by 2
    CSPFIX_PATH_ROWS,           ///< full rows (output chroma at most subsampled horizontally)
    CSPFIX_PATH_NB,
};

typedef struct CspfixExecConfig {
    const CspfixPlan *plan;
    enum AVPixelFormat in_fmt, out_fmt;
    enum AVChromaLocation in_loc, out_loc; ///< resolved sitings (not unspecified)
    int in_depth, out_depth;    ///< bits of the colour components, 0: float
    int dither;                 ///< enum CspfixDither (AUTO resolved here)
    int clip_legal;             ///< clamp to the limited range's nominal codes
    int force_generic;          ///< test hook: each path family's generic member, no fusion
} CspfixExecConfig;

/* A plan op bound to kernel parameters. */
typedef struct CspfixStage {
    enum CspfixOpType type;
    float m[12];
    float k[3];
    float lo, hi;
    CspfixTFTable *tab;
    CspfixTFTable *tab2;
    CspfixCLParams cl;
    int first;                  ///< TONEMAP: the gain of the first component (IPT)
    int gmode;                  ///< GAMUT: enum CspfixGamut
    float thr, sinv[3];         ///< GAMUT compress
    const struct CspfixLut3D *lut; ///< LUT3D
} CspfixStage;

typedef struct CspfixExec {
    CspfixDSPContext dsp;
    enum CspfixPath path;

    /* the configuration */
    CspfixPlan plan;
    CspfixFormat fin, fout;
    int in_phase_x, in_off_y2, out_phase_x, out_off_y2;
    int dither;                 ///< enum CspfixDither applied (not AUTO)
    int band;                   ///< slices start on multiples of this many luma rows
    float lo[3], hi[3];         ///< output code clamp per component

    /* the row machinery: the plan's stages, the first ones possibly as code tables,
     * the first and last matrices possibly reading and writing samples themselves */
    CspfixStage stages[CSPFIX_MAX_OPS];
    int nb_stages;
    int stage_start;            ///< stages before it are folded into in_lut
    float *in_lut;              ///< RGB input: per-component table of the first stages
    int in_lut_stride;          ///< floats per component table
    int fuse_in;                ///< 0, or 1 + container index: the first matrix reads luma samples
    int fuse_out;               ///< 0, or 1 + container index: the last matrix writes luma samples

    /* parameters of the fast paths */
    CspfixMap8 map8[3];
    CspfixMap16 map16[3];
    int own_kind;               ///< OWN_ROWS: container index (0: 8-bit, 1: 16-bit)
    CspfixCRow crow;
    CspfixYuvInt yuvint;

    /* the current frame */
    int field;                  ///< resampled vertically per field

    /* per-slice scratch rows */
    float *scratch;
    int scratch_stride;         ///< floats per slice
    int row_stride;             ///< floats per scratch row
    int scratch_w;              ///< width the scratch was sized for
    int nb_threads;
    int max_jobs;               ///< slices the scratch has rows for

    float bias_round[16];
    float bias_zero[16];
    float bias_dither[16][16];
} CspfixExec;

/** Set up an engine with no plan: kernels for this CPU, dither tables. */
void ff_cspfix_exec_init(CspfixExec *e);

/**
 * Bind cfg->plan (copied) for the formats and sitings of cfg and choose the path.
 * Returns 0 or an AVERROR (allocation).
 */
int ff_cspfix_exec_configure(CspfixExec *e, const CspfixExecConfig *cfg);

/** Scratch rows for frames of width w, run on nb_threads threads (1: none). */
int ff_cspfix_exec_alloc(CspfixExec *e, int w, int nb_threads);

/** 1 if frames of width w need ff_cspfix_exec_alloc() first. */
int ff_cspfix_exec_needs_alloc(const CspfixExec *e, int w);

/** Number of slices to cut a frame of height h into (the path's job policy). */
int ff_cspfix_exec_jobs(const CspfixExec *e, int h);

/** Prepare an output frame before the slices run (zero padding bits the kernels skip). */
void ff_cspfix_exec_prepare_output(const CspfixExec *e, AVFrame *out);

/**
 * Convert slice jobnr of nb_jobs of in into out (field: the frame is resampled vertically
 * per field). Slices touch disjoint rows: they may run on different threads.
 */
void ff_cspfix_exec_slice(const CspfixExec *e, const AVFrame *in, AVFrame *out, int field,
                          int jobnr, int nb_jobs);

void ff_cspfix_exec_uninit(CspfixExec *e);

/** Short name of a path ("map8", "rows", ...). */
const char *ff_cspfix_exec_path_name(enum CspfixPath path);

/** What the path does, for the plan log ("per-plane, integer", ...). */
const char *ff_cspfix_exec_path_desc(enum CspfixPath path);

/** The path a fast path equals byte for byte (itself for a generic path). */
enum CspfixPath ff_cspfix_exec_path_twin(enum CspfixPath path);

/** 1 if the path's output equals its twin's byte for byte, 0 if within one code. */
int ff_cspfix_exec_path_exact(enum CspfixPath path);

/** 1 if the path runs per plane (range/depth only) or passes frames through. */
int ff_cspfix_exec_path_per_plane(enum CspfixPath path);

#endif /* AVFILTER_CSPFIX_EXEC_H */
