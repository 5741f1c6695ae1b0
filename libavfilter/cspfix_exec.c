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
 * The engine's face: the plan's ops bound to kernel parameters, the table of execution
 * paths and the choice among them, scratch and slices.
 */

#include <math.h>
#include <string.h>

#include "libavutil/avassert.h"
#include "libavutil/common.h"
#include "libavutil/mem.h"
#include "libavutil/pixdesc.h"

#include "cspfix_exec.h"
#include "cspfix_kparams.h"
#include "cspfix_paths.h"
#include "cspfix_rows.h"
#include "cspfix_tonemap.h"

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

static double ootf_func(void *opaque, double y)
{
    const CspfixOp *op = opaque;
    return y > 0.0 ? op->gain * pow(y, op->power) : 0.0;
}

static int alloc_table(CspfixTFTable **t, CspfixScalarFunc f, void *opaque, double tol)
{
    if (!(*t = av_malloc(sizeof(**t))))
        return AVERROR(ENOMEM);
    ff_cspfix_tf_build(*t, f, opaque, tol);
    return 0;
}

static int alloc_curve2(CspfixTFTable **t, int curve, int encode, int curve2, int encode2,
                        double tol)
{
    CspfixCurvePair p = { curve, encode, curve2, encode2 };
    return alloc_table(t, ff_cspfix_curve_func, &p, tol);
}

static int alloc_curve(CspfixTFTable **t, int curve, int encode)
{
    return alloc_curve2(t, curve, encode, CSPFIX_CURVE_NONE, 0, CSPFIX_TF_POW_TOL);
}

/* The tables of ops a and b (with precision tol_a, tol_b) are the same: the fields
 * they are built from are equal. */
static int same_tables(const CspfixOp *a, double tol_a, const CspfixOp *b, double tol_b)
{
    if (a->type != b->type)
        return 0;
    switch (a->type) {
    case CSPFIX_OP_TF:
        return a->curve == b->curve && a->encode == b->encode && a->curve2 == b->curve2 &&
               a->encode2 == b->encode2 && tol_a == tol_b;
    case CSPFIX_OP_TONEMAP:
        return a->tm == b->tm && a->src_peak == b->src_peak && a->dst_peak == b->dst_peak &&
               a->out_white == b->out_white && a->desat == b->desat &&
               a->dst_black == b->dst_black && !memcmp(&a->trim, &b->trim, sizeof(a->trim)) &&
               !memcmp(a->k, b->k, sizeof(a->k)) && a->by_first == b->by_first &&
               (a->tm != CSPFIX_TM_ST2094_40 || !memcmp(&a->bz, &b->bz, sizeof(a->bz)));
    default:
        return 0;
    }
}

/* A stage of the previous configuration with op's tables: they move to st (so that a
 * plan rebuilt for a new source peak rebuilds the tone curve's tables only). */
static int reuse_tables(CspfixStage *st, const CspfixOp *op, double tol, CspfixStage *old,
                        const CspfixOp *old_ops, int nb_old, double old_tol)
{
    for (int i = 0; i < nb_old; i++) {
        if (old[i].tab && same_tables(op, tol, &old_ops[i], old_tol)) {
            st->tab  = old[i].tab;
            st->tab2 = old[i].tab2;
            old[i].tab = old[i].tab2 = NULL;
            return 1;
        }
    }
    return 0;
}

/* Bind plan ops to kernel parameters (float matrices, tables). The curves' power forms
 * are as precise as the output samples need (ff_cspfix_tf_tol()). The tables of the
 * previous configuration (old: its stages, ops and precision) are reused where the ops
 * they were built for are the same. */
static int bind_stages(CspfixExec *e, CspfixStage *old, const CspfixOp *old_ops, int nb_old,
                       double old_tol)
{
    const CspfixPlan *p = &e->plan;
    const double tol = ff_cspfix_tf_tol(e->fout.depth);
    int ret;

    e->nb_stages   = 0;
    e->stage_start = 0;
    av_freep(&e->in_lut);
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
            if (!reuse_tables(st, op, tol, old, old_ops, nb_old, old_tol) &&
                (ret = alloc_curve2(&st->tab, op->curve, op->encode, op->curve2,
                                    op->encode2, tol)) < 0)
                return ret;
            break;
        case CSPFIX_OP_OOTF:
            for (int c = 0; c < 3; c++)
                st->k[c] = op->k[c];
            if ((ret = alloc_table(&st->tab, ootf_func, (void *)op, CSPFIX_TF_POW_TOL)) < 0)
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
            st->first = op->by_first;
            if (reuse_tables(st, op, tol, old, old_ops, nb_old, old_tol))
                break;
            if (!(st->tab = av_malloc(sizeof(*st->tab))) ||
                (op->desat > 0.0 && !(st->tab2 = av_malloc(sizeof(*st->tab2)))))
                return AVERROR(ENOMEM);
            ff_cspfix_tone_tables(st->tab, st->tab2, op);
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
        case CSPFIX_OP_LUT3D:
            st->lut = op->lut;
            break;
        }
    }
    return 0;
}

/* ---- choosing the path ---- */

/* Chroma siting as (horizontal phase, vertical offset in luma rows x 2). */
static void siting(enum AVChromaLocation loc, int *phase_x, int *off_y2)
{
    *phase_x = loc == AVCHROMA_LOC_CENTER || loc == AVCHROMA_LOC_TOP ||
               loc == AVCHROMA_LOC_BOTTOM;
    *off_y2  = loc == AVCHROMA_LOC_TOPLEFT || loc == AVCHROMA_LOC_TOP ? 0 :
               loc == AVCHROMA_LOC_BOTTOMLEFT || loc == AVCHROMA_LOC_BOTTOM ? 2 : 1;
}

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
        ff_cspfix_plane_map(e, c, &sc, &of);
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
        ff_cspfix_plane_map(e, c, &sc, &of);
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
                CspfixSliceBuf *b);
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
        try_passthrough, ff_cspfix_convert_passthrough, JOBS_THREADS, 1, CSPFIX_PATH_PASSTHROUGH, 1 },
    [CSPFIX_PATH_MAP8]        = { "map8", "per-plane, integer",
        try_map8, ff_cspfix_convert_map, JOBS_THREADS, 1, CSPFIX_PATH_PLANE, 1 },
    [CSPFIX_PATH_MAP16]       = { "map16", "per-plane, one pass",
        try_map16, ff_cspfix_convert_map, JOBS_THREADS, 1, CSPFIX_PATH_PLANE, 1 },
    [CSPFIX_PATH_PLANE]       = { "plane", "per-plane",
        try_plane, ff_cspfix_convert_plane, JOBS_THREADS, 1, CSPFIX_PATH_PLANE, 1 },
    [CSPFIX_PATH_YUVINT]      = { "yuvint", "chroma at its own resolution, integer",
        try_yuvint, ff_cspfix_convert_yuvint, JOBS_THREADS, 0, CSPFIX_PATH_OWN, 0 },
    [CSPFIX_PATH_OWN_ROWS]    = { "own-rows", "chroma at its own resolution, samples to samples",
        try_own_rows, ff_cspfix_convert_own_rows, JOBS_BALANCED, 0, CSPFIX_PATH_OWN, 1 },
    [CSPFIX_PATH_OWN]         = { "own", "chroma at its own resolution",
        try_own, ff_cspfix_convert_own, JOBS_BALANCED, 0, CSPFIX_PATH_OWN, 1 },
    [CSPFIX_PATH_ROWS_VN]     = { "rows-vn", "full rows, chroma rows made per slice",
        try_rows_vn, ff_cspfix_convert_rows_vn, JOBS_BALANCED, 0, CSPFIX_PATH_ROWS_VN, 1 },
    [CSPFIX_PATH_ROWS_V2]     = { "rows-v2", "full rows in a ring",
        try_rows_v2, ff_cspfix_convert_rows_v2, JOBS_BALANCED, 0, CSPFIX_PATH_ROWS_V2, 1 },
    [CSPFIX_PATH_ROWS]        = { "rows", "full rows",
        try_rows, ff_cspfix_convert_rows, JOBS_BALANCED, 0, CSPFIX_PATH_ROWS, 1 },
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

    CspfixStage old[CSPFIX_MAX_OPS];
    CspfixOp old_ops[CSPFIX_MAX_OPS];
    const int nb_old = e->nb_stages;
    const double old_tol = ff_cspfix_tf_tol(e->fout.depth);

    /* the stages are the plan's ops one for one (bind_stages()) */
    memcpy(old, e->stages, nb_old * sizeof(*old));
    memcpy(old_ops, e->plan.ops, nb_old * sizeof(*old_ops));
    e->nb_stages = 0;
    e->plan = *cfg->plan;
    if ((ret = ff_cspfix_format_init(&e->fin, cfg->in_fmt)) >= 0 &&
        (ret = ff_cspfix_format_init(&e->fout, cfg->out_fmt)) >= 0)
        ret = bind_stages(e, old, old_ops, nb_old, old_tol);
    for (int i = 0; i < nb_old; i++) {
        av_freep(&old[i].tab);
        av_freep(&old[i].tab2);
    }
    if (ret < 0)
        return ret;
    siting(cfg->in_loc, &e->in_phase_x, &e->in_off_y2);
    siting(cfg->out_loc, &e->out_phase_x, &e->out_off_y2);
    in_depth  = e->fin.depth ? e->fin.depth : 32;
    e->dither = !e->fout.depth ? CSPFIX_DITHER_NONE :
                cfg->dither == CSPFIX_DITHER_AUTO ?
                (e->fout.depth < in_depth ? CSPFIX_DITHER_ORDERED : CSPFIX_DITHER_NONE) :
                cfg->dither;
    e->band   = e->dither == CSPFIX_DITHER_ED ? CSPFIX_ED_BAND : CSPFIX_SLICE_BAND;
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
    e->scratch_stride = CSPFIX_SCRATCH_ROWS * e->row_stride + 48 +
                        CSPFIX_SCRATCH_ED_ROWS * cspfix_ed_stride(e);
    e->scratch_w      = w;
    av_freep(&e->scratch);
    e->scratch = av_calloc((size_t)e->max_jobs * e->scratch_stride, sizeof(float));
    return e->scratch ? 0 : AVERROR(ENOMEM);
}

int ff_cspfix_exec_jobs(const CspfixExec *e, int h)
{
    const int n = paths[e->path].jobs == JOBS_THREADS ? e->nb_threads : e->max_jobs;
    return FFMAX(1, FFMIN(n, (h + e->band - 1) / e->band));
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
    CspfixSliceBuf b;

    av_assert1(jobnr < e->max_jobs);
    ff_cspfix_slice_buf(e, jobnr, field, &b);
    paths[e->path].run(e, in, out, jobnr, nb_jobs, &b);
    ff_cspfix_ed_flush_all(e, &b);
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
