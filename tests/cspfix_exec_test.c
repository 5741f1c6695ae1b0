/*
 * cspfix: every fast execution path against the generic path of its family
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
 * Drives the execution engine (libavfilter/cspfix_exec.h) without a filter graph. Each
 * case is a conversion whose plan takes a fast path (an integer map, the integer matrix,
 * samples-to-samples rows, code tables, fused first/last matrices); the test checks the
 * engine chooses that path, then converts random frames of every width 1..67 (and a few
 * wider ones, across the 512-sample stage chunks) and odd heights, progressive and
 * interlaced, once as chosen and once with the generic member of the path's family forced
 * (CspfixExecConfig.force_generic: no fast path, no fusion, no code tables), on 1 and on 4
 * slices, and compares every sample. Exact paths must match sample for sample; the integer
 * matrix path (fixed point, see doc/design.md) within one code.
 * Usage: [CSPFIX_CPUFLAGS=0] exec_test [-v] [--shard K/N]
 * --shard K/N runs the items (the three checks, then the cases) whose index is K modulo
 * N, so that N processes share them (make check-asan runs two).
 */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libavutil/common.h"
#include "libavutil/cpu.h"
#include "libavutil/mem.h"
#include "libavutil/frame.h"
#include "libavutil/pixdesc.h"
#include "libavfilter/cspfix_custom.h"
#include "libavfilter/cspfix_exec.h"
#include "libavfilter/cspfix_plan.h"

#include "cspfix_check.h"
#include "cspfix_testutil.h"

typedef struct Case {
    const char *name;
    enum AVPixelFormat in_fmt, out_fmt;
    CspfixDesc id, od;              ///< depth filled from the formats
    int dither, clip_legal;
    enum AVChromaLocation in_loc, out_loc;
    enum CspfixPath path;           ///< the path the engine must choose
    int fuse;                       ///< the rows must run fused (fuse_in or fuse_out) or tables
    int tmmode;                     ///< tone mapping of HDR input: enum CspfixToneMode
} Case;

#define D(p, t, c, r) { AVCOL_PRI_##p, AVCOL_TRC_##t, AVCOL_SPC_##c, AVCOL_RANGE_##r, 0 }
#define BT709_TV    D(BT709, BT709, BT709, MPEG)
#define BT709_PC    D(BT709, BT709, BT709, JPEG)
#define BT601_TV    D(SMPTE170M, SMPTE170M, SMPTE170M, MPEG)
#define BT601_709M  D(SMPTE170M, SMPTE170M, BT709, MPEG)
#define BT2020_TV   D(BT2020, BT2020_10, BT2020_NCL, MPEG)
#define SRGB        D(BT709, IEC61966_2_1, RGB, JPEG)
#define SRGB_TV     D(BT709, IEC61966_2_1, RGB, MPEG)
#define RGB2020     D(BT2020, BT2020_10, RGB, JPEG)
#define PQ2020_TV   D(BT2020, SMPTE2084, BT2020_NCL, MPEG)
#define L(x) AVCHROMA_LOC_##x
#define NONE    CSPFIX_DITHER_NONE
#define ORDERED CSPFIX_DITHER_ORDERED
#define ED      CSPFIX_DITHER_ED
#define AUTO    CSPFIX_DITHER_AUTO
#define F(x)    AV_PIX_FMT_##x

static const Case cases[] = {
    /* per plane: integer maps of 8-bit planes, the float map of 16-bit containers */
    { "map8 yuv420p tv->pc",          F(YUV420P), F(YUV420P), BT709_TV, BT709_PC, NONE, 0, L(LEFT), L(LEFT), CSPFIX_PATH_MAP8 },
    { "map8 yuv444p pc->tv clip",     F(YUV444P), F(YUV444P), BT709_PC, BT709_TV, NONE, 1, L(LEFT), L(LEFT), CSPFIX_PATH_MAP8 },
    { "map8 gbrp pc->tv",             F(GBRP), F(GBRP), SRGB, SRGB_TV, NONE, 0, L(LEFT), L(LEFT), CSPFIX_PATH_MAP8 },
    { "map8 gray tv->pc",             F(GRAY8), F(GRAY8), BT709_TV, BT709_PC, NONE, 0, L(LEFT), L(LEFT), CSPFIX_PATH_MAP8 },
    { "map16 yuv420p10 tv->pc",       F(YUV420P10LE), F(YUV420P10LE), BT709_TV, BT709_PC, NONE, 0, L(LEFT), L(LEFT), CSPFIX_PATH_MAP16 },
    { "map16 yuv422p12 pc->tv clip",  F(YUV422P12LE), F(YUV422P12LE), BT709_PC, BT709_TV, NONE, 1, L(LEFT), L(LEFT), CSPFIX_PATH_MAP16 },
    { "map16 yuv444p16 tv->pc",       F(YUV444P16LE), F(YUV444P16LE), BT709_TV, BT709_PC, NONE, 0, L(LEFT), L(LEFT), CSPFIX_PATH_MAP16 },
    /* matrix only, chroma at its resolution: integers (within one code) */
    { "yuvint yuv420p 601->709",      F(YUV420P), F(YUV420P), BT601_TV, BT601_709M, NONE, 0, L(LEFT), L(LEFT), CSPFIX_PATH_YUVINT },
    { "yuvint yuv420p center",        F(YUV420P), F(YUV420P), BT601_TV, BT601_709M, NONE, 0, L(CENTER), L(CENTER), CSPFIX_PATH_YUVINT },
    { "yuvint yuv422p tv->pc+matrix", F(YUV422P), F(YUV422P), BT601_TV, D(SMPTE170M, SMPTE170M, BT709, JPEG), NONE, 0, L(LEFT), L(LEFT), CSPFIX_PATH_YUVINT },
    { "yuvint yuv420p10 601->709",    F(YUV420P10LE), F(YUV420P10LE), BT601_TV, BT601_709M, NONE, 0, L(TOPLEFT), L(TOPLEFT), CSPFIX_PATH_YUVINT },
    /* matrix only, samples to samples */
    { "own-rows yuv420p12 601->709",  F(YUV420P12LE), F(YUV420P12LE), BT601_TV, BT601_709M, NONE, 0, L(LEFT), L(LEFT), CSPFIX_PATH_OWN_ROWS },
    { "own-rows yuv420p ordered",     F(YUV420P), F(YUV420P), BT601_TV, BT601_709M, ORDERED, 0, L(LEFT), L(LEFT), CSPFIX_PATH_OWN_ROWS },
    { "own-rows yuv440p",             F(YUV440P), F(YUV440P), BT601_TV, BT601_709M, NONE, 0, L(TOPLEFT), L(TOPLEFT), CSPFIX_PATH_OWN_ROWS },
    { "own-rows yuv410p center",      F(YUV410P), F(YUV410P), BT601_TV, BT601_709M, NONE, 0, L(CENTER), L(CENTER), CSPFIX_PATH_OWN_ROWS },
    /* chroma at its resolution, the first matrix reading luma samples */
    { "own yuv420p ed (fused in)",    F(YUV420P), F(YUV420P), BT601_TV, BT601_709M, ED, 0, L(LEFT), L(LEFT), CSPFIX_PATH_OWN, 1 },
    { "own nv12 (fused in)",          F(NV12), F(NV12), BT601_TV, BT601_709M, NONE, 0, L(LEFT), L(LEFT), CSPFIX_PATH_OWN, 1 },
    /* full rows: fused first and last matrices */
    { "rows-v2 yuv420p 709->2020",    F(YUV420P), F(YUV420P), BT709_TV, BT2020_TV, AUTO, 0, L(LEFT), L(LEFT), CSPFIX_PATH_ROWS_V2, 1 },
    { "rows-v2 yuv420p10->8 ordered", F(YUV420P10LE), F(YUV420P), BT2020_TV, BT709_TV, AUTO, 0, L(LEFT), L(LEFT), CSPFIX_PATH_ROWS_V2, 1 },
    { "rows-v2 yuv420p10 2020->709",  F(YUV420P10LE), F(YUV420P10LE), BT2020_TV, BT709_TV, NONE, 0, L(TOPLEFT), L(TOPLEFT), CSPFIX_PATH_ROWS_V2, 1 },
    /* HDR10 to SDR: the tone curve on max-RGB and on IPT's intensity */
    { "rows-v2 pq->709 tonemap",      F(YUV420P10LE), F(YUV420P), PQ2020_TV, BT709_TV, AUTO, 0, L(LEFT), L(LEFT), CSPFIX_PATH_ROWS_V2, 1 },
    { "rows-v2 pq->709 tmmode=ipt",   F(YUV420P10LE), F(YUV420P), PQ2020_TV, BT709_TV, AUTO, 0, L(LEFT), L(LEFT), CSPFIX_PATH_ROWS_V2, 1, CSPFIX_TMMODE_IPT },
    { "rows-v2 yuv444p->420p",        F(YUV444P), F(YUV420P), BT709_TV, BT2020_TV, NONE, 0, L(LEFT), L(CENTER), CSPFIX_PATH_ROWS_V2, 1 },
    { "rows yuv422p 709->2020",       F(YUV422P), F(YUV422P), BT709_TV, BT2020_TV, NONE, 0, L(LEFT), L(LEFT), CSPFIX_PATH_ROWS, 1 },
    { "rows yuv444p10 709->2020",     F(YUV444P10LE), F(YUV444P10LE), BT709_TV, BT2020_TV, NONE, 0, L(LEFT), L(LEFT), CSPFIX_PATH_ROWS, 1 },
    { "rows-vn yuv410p 709->2020",    F(YUV410P), F(YUV410P), BT709_TV, BT2020_TV, NONE, 0, L(LEFT), L(LEFT), CSPFIX_PATH_ROWS_VN, 1 },
    /* RGB input: the first scale and curve as code tables */
    { "rows gbrp tables",             F(GBRP), F(GBRP), SRGB, RGB2020, NONE, 0, L(LEFT), L(LEFT), CSPFIX_PATH_ROWS, 1 },
    { "rows gbrp10 tables -> 420p",   F(GBRP10LE), F(YUV420P10LE), SRGB, BT2020_TV, NONE, 0, L(LEFT), L(LEFT), CSPFIX_PATH_ROWS_V2, 1 },
    { "rows rgb24 tables (packed)",   F(RGB24), F(YUV444P), SRGB, BT709_TV, NONE, 0, L(LEFT), L(LEFT), CSPFIX_PATH_ROWS, 1 },
};

static int verbose;
static unsigned rng_state = 12345;

static unsigned rnd(void)
{
    rng_state = rng_state * 1664525u + 1013904223u;
    return rng_state >> 8;
}

static int fmt_depth(enum AVPixelFormat fmt)
{
    CspfixFormat f;
    return ff_cspfix_format_init(&f, fmt) < 0 ? -1 : f.depth;
}

static int comp_width(const AVPixFmtDescriptor *d, int c, int w)
{
    return (c == 1 || c == 2) ? AV_CEIL_RSHIFT(w, d->log2_chroma_w) : w;
}

static int comp_height(const AVPixFmtDescriptor *d, int c, int h)
{
    return (c == 1 || c == 2) ? AV_CEIL_RSHIFT(h, d->log2_chroma_h) : h;
}

static AVFrame *alloc_frame(enum AVPixelFormat fmt, int w, int h)
{
    return cspfix_alloc_frame(fmt, w, h, AVCOL_PRI_UNSPECIFIED, AVCOL_TRC_UNSPECIFIED,
                              AVCOL_SPC_UNSPECIFIED, AVCOL_RANGE_UNSPECIFIED);
}

/* Random codes of each component's depth (what a decoder gives) into a frame of
 * cspfix_alloc_frame() (zeroed: av_write_image_line2() ORs the codes in). */
static void fill_random(AVFrame *f)
{
    const AVPixFmtDescriptor *d = av_pix_fmt_desc_get(f->format);
    uint32_t line[1024];

    for (int c = 0; c < d->nb_components; c++) {
        const int w = comp_width(d, c, f->width), h = comp_height(d, c, f->height);
        const uint32_t mask = (1u << d->comp[c].depth) - 1;
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < w; x++)
                line[x] = rnd() & mask;
            av_write_image_line2(line, f->data, f->linesize, d, 0, y, c, w, 4);
        }
    }
}

/* Largest difference of any sample of a and b; *nd counts the differing samples; the
 * first one differing is described in where. */
static unsigned compare(const AVFrame *a, const AVFrame *b, long *nd, long *n, char *where,
                        int size)
{
    const AVPixFmtDescriptor *d = av_pix_fmt_desc_get(a->format);
    uint32_t la[1024], lb[1024];
    unsigned max = 0;

    for (int c = 0; c < d->nb_components; c++) {
        const int w = comp_width(d, c, a->width), h = comp_height(d, c, a->height);
        for (int y = 0; y < h; y++) {
            av_read_image_line2(la, (const uint8_t **)a->data, a->linesize, d, 0, y, c, w, 0, 4);
            av_read_image_line2(lb, (const uint8_t **)b->data, b->linesize, d, 0, y, c, w, 0, 4);
            for (int x = 0; x < w; x++) {
                const unsigned diff = la[x] > lb[x] ? la[x] - lb[x] : lb[x] - la[x];
                if (diff && !max)
                    snprintf(where, size, "component %d (%d, %d): %u vs %u", c, x, y,
                             la[x], lb[x]);
                max = FFMAX(max, diff);
                *nd += !!diff;
            }
            *n += w;
        }
    }
    return max;
}

/* as the filter does: scratch rows allocated when the frames grow wider (here also when the
 * thread count changes), else kept with what earlier frames left in them */
static int convert(CspfixExec *e, const AVFrame *in, AVFrame *out, int field, int threads)
{
    int ret, jobs;

    if ((ff_cspfix_exec_needs_alloc(e, in->width) || e->nb_threads != FFMAX(1, threads)) &&
        (ret = ff_cspfix_exec_alloc(e, in->width, threads)) < 0)
        return ret;
    ff_cspfix_exec_prepare_output(e, out);
    jobs = ff_cspfix_exec_jobs(e, in->height);
    for (int j = 0; j < jobs; j++)
        ff_cspfix_exec_slice(e, in, out, field, j, jobs);
    return 0;
}

static void run_case(const Case *t)
{
    static const int heights[] = { 1, 3, 5, 7, 17, 33, 35 };
    static const int wide[] = { 127, 515, 600 };
    CspfixDesc id = t->id, od = t->od;
    CspfixPlanOptions po = { .linearize = CSPFIX_LIN_DISPLAY, .wpadapt = CSPFIX_WP_BRADFORD,
                             .tmmode = t->tmmode };
    CspfixExecConfig cfg = {
        .plan = NULL, .in_fmt = t->in_fmt, .out_fmt = t->out_fmt,
        .in_loc = t->in_loc, .out_loc = t->out_loc,
        .dither = t->dither, .clip_legal = t->clip_legal,
    };
    CspfixPlan plan;
    CspfixExec fast, generic;
    const int exact = ff_cspfix_exec_path_exact(t->path);
    const enum CspfixPath twin = ff_cspfix_exec_path_twin(t->path);
    unsigned max = 0;
    long nd = 0, n = 0, frames = 0;
    int ok = 1;

    id.depth = fmt_depth(t->in_fmt);
    od.depth = fmt_depth(t->out_fmt);
    if (id.depth < 0 || od.depth < 0 || ff_cspfix_plan_build(&plan, &id, &od, &po, NULL) < 0) {
        CHECK(0, "%s: no plan", t->name);
        return;
    }
    cfg.plan = &plan;
    ff_cspfix_exec_init(&fast);
    ff_cspfix_exec_init(&generic);
    if (ff_cspfix_exec_configure(&fast, &cfg) < 0) {
        CHECK(0, "%s: configure failed", t->name);
        goto end;
    }
    cfg.force_generic = 1;
    if (ff_cspfix_exec_configure(&generic, &cfg) < 0) {
        CHECK(0, "%s: configure (generic) failed", t->name);
        goto end;
    }
    /* the case tests what it says it tests */
    CHECK(fast.path == t->path, "%s: path %s, expected %s", t->name,
          ff_cspfix_exec_path_name(fast.path), ff_cspfix_exec_path_name(t->path));
    CHECK(generic.path == twin && generic.path == ff_cspfix_exec_path_twin(generic.path) &&
          !generic.fuse_in && !generic.fuse_out && !generic.in_lut,
          "%s: forced generic path %s (fused %d/%d, tables %d), expected %s unfused",
          t->name, ff_cspfix_exec_path_name(generic.path), generic.fuse_in, generic.fuse_out,
          !!generic.in_lut, ff_cspfix_exec_path_name(twin));
    if (t->fuse)
        CHECK(fast.fuse_in || fast.fuse_out || fast.in_lut,
              "%s: expected fused matrices or code tables, none", t->name);

    for (int wi = 1; wi <= 67 + FF_ARRAY_ELEMS(wide) && ok; wi++) {
        const int w = wi <= 67 ? wi : wide[wi - 68];
        for (int hi = 0; hi < FF_ARRAY_ELEMS(heights) && ok; hi++) {
            const int h = heights[hi];
            for (int field = 0; field < 2 && ok; field++) {
                AVFrame *in = alloc_frame(t->in_fmt, w, h);
                AVFrame *a  = alloc_frame(t->out_fmt, w, h);
                AVFrame *b  = alloc_frame(t->out_fmt, w, h);
                char where[128] = "";
                unsigned m;
                long d0 = nd;

                if (!in || !a || !b) {
                    CHECK(0, "%s: out of memory", t->name);
                    ok = 0;
                } else {
                    fill_random(in);
                    /* output buffers start with different garbage */
                    memset(a->buf[0]->data, 0x55, a->buf[0]->size);
                    memset(b->buf[0]->data, 0xaa, b->buf[0]->size);
                    for (int i = 1; i < 4 && a->buf[i]; i++) {
                        memset(a->buf[i]->data, 0x55, a->buf[i]->size);
                        memset(b->buf[i]->data, 0xaa, b->buf[i]->size);
                    }
                    if (convert(&fast, in, a, field, 1 + (w & 1)) < 0 ||
                        convert(&generic, in, b, field, 4) < 0) {
                        CHECK(0, "%s: scratch allocation failed", t->name);
                        ok = 0;
                    } else {
                        m = compare(a, b, &nd, &n, where, sizeof(where));
                        max = FFMAX(max, m);
                        frames++;
                        if (exact ? m != 0 : m > 1) {
                            CHECK(0, "%s: %dx%d %s: %ld samples differ, max %u code(s); "
                                  "first: %s (as chosen vs generic)", t->name, w, h,
                                  field ? "interlaced" : "progressive", nd - d0, m, where);
                            ok = 0;
                        }
                    }
                }
                av_frame_free(&in);
                av_frame_free(&a);
                av_frame_free(&b);
            }
        }
    }
    if (ok)
        CHECK(1, "%s", t->name);
    if (verbose || !exact || !ok)
        printf("  %-30s %-8s vs %-6s %4ld frames: %ld of %ld samples differ, max %u code(s)%s\n",
               t->name, ff_cspfix_exec_path_name(fast.path), ff_cspfix_exec_path_name(twin),
               frames, nd, n, max, exact ? "" : " (fixed point, bound 1)");
end:
    ff_cspfix_exec_uninit(&fast);
    ff_cspfix_exec_uninit(&generic);
}

/* The tf kernel's curves: the power form (cspfix_tf.h) is taken exactly by the
 * odd power curves (and those affine above a point) and stays within 3e-7 of their float64 definition over
 * [2^-30, 2) of either sign; other curves, and inputs outside that window, get
 * the segments' values. */
typedef struct TFCurve {
    CspfixCurvePair c;
    int power;
} TFCurve;

static void check_tf_forms(void)
{
    static TFCurve curves[2 * CSPFIX_CURVE_NB + 4];
    CspfixTFTable *t = av_malloc(sizeof(*t));
    int n = 0;

    if (!t) {
        CHECK(0, "tf forms: out of memory");
        return;
    }
    for (int c = CSPFIX_CURVE_NONE + 1; c < CSPFIX_CURVE_NB; c++) {
        const int power = c == CSPFIX_CURVE_BT1886 || c == CSPFIX_CURVE_GAMMA22 ||
                          c == CSPFIX_CURVE_GAMMA28 || c == CSPFIX_CURVE_SMPTE428 ||
                          c == CSPFIX_CURVE_IPT || c == CSPFIX_CURVE_OPRGB ||
                          c == CSPFIX_CURVE_DCIP3;
        for (int enc = 0; enc < 2; enc++)
            curves[n++] = (TFCurve){ { c, enc, CSPFIX_CURVE_NONE, 0 }, power };
    }
    /* compositions: BT.1886 decode then gamma 2.2 encode (a power); sRGB decode then
     * BT.1886 encode, and the reverse (a power below a point, affine above it); sRGB
     * decode then gamma 2.2 encode (neither) */
    curves[n++] = (TFCurve){ { CSPFIX_CURVE_BT1886, 0, CSPFIX_CURVE_GAMMA22, 1 }, 1 };
    curves[n++] = (TFCurve){ { CSPFIX_CURVE_SRGB, 0, CSPFIX_CURVE_BT1886, 1 }, 1 };
    curves[n++] = (TFCurve){ { CSPFIX_CURVE_BT1886, 0, CSPFIX_CURVE_SRGB, 1 }, 1 };
    curves[n++] = (TFCurve){ { CSPFIX_CURVE_SRGB, 0, CSPFIX_CURVE_GAMMA22, 1 }, 0 };
    /* every curve built for float or 16-bit output (degree 7), for 10-bit and for 8-bit
     * output (lower degrees where they stay within the depth's tolerance) */
    for (int i = 0; i < 3 * n; i++) {
        const TFCurve *c = &curves[i % n];
        const int depth = (int[]){ 0, 10, 8 }[i / n];
        const double tol = ff_cspfix_tf_tol(depth);
        double max_err = 0.0, worst = 0.0;
        int same_outside = 1;

        ff_cspfix_tf_build(t, ff_cspfix_curve_func, (void *)&c->c, tol);
        CHECK(t->pow.on == c->power, "tf curve %d%s%s: power form %s, expected %s", c->c.curve,
              c->c.encode ? " encode" : " decode", c->c.curve2 ? " (composite)" : "",
              t->pow.on ? "on" : "off", c->power ? "on" : "off");
        CHECK(!t->pow.on || (t->pow.deg >= CSPFIX_TF_POW_DEG_MIN && t->pow.deg <= CSPFIX_TF_POW_DEG),
              "tf curve %d: degree %d for depth %d", c->c.curve, t->pow.deg, depth);
        /* float output: degree 7; 8-bit output: degree 5 for every power (the lowest
         * within tol) */
        CHECK(!t->pow.on || depth || t->pow.deg == CSPFIX_TF_POW_DEG,
              "tf curve %d: degree %d for float output", c->c.curve, t->pow.deg);
        CHECK(!t->pow.on || depth != 8 || t->pow.deg == CSPFIX_TF_POW_DEG_MIN,
              "tf curve %d: degree %d for 8-bit output", c->c.curve, t->pow.deg);
        for (int e = -30; e < 1; e++) {
            for (int k = 0; k < 256; k++) {
                for (int sgn = 0; sgn < 2; sgn++) {
                    const float x = (sgn ? -1.0f : 1.0f) * ldexpf(1.0f + (k + 0.37f) / 256.0f, e);
                    const double ref = ff_cspfix_curve_func((void *)&c->c, x);
                    const float y = ff_cspfix_tf_eval_row(t, x), ys = ff_cspfix_tf_eval(t, x);
                    const double err = fabs(y - ref) / FFMAX(fabs(ref), 1e-30);
                    if (!c->power && memcmp(&y, &ys, sizeof(y)))
                        same_outside = 0;
                    if (c->power && err > max_err) {
                        max_err = err;
                        worst = x;
                    }
                }
            }
        }
        /* outside the power form's window the segments answer */
        for (int k = 0; k < 8; k++) {
            static const float outside[] = { 2.0f, 3.5f, 100.0f, 0x1p-31f, 0x1p-40f, -2.5f, -0x1p-35f, 1e-39f };
            const float a = ff_cspfix_tf_eval_row(t, outside[k]), b = ff_cspfix_tf_eval(t, outside[k]);
            if (memcmp(&a, &b, sizeof(a)) && !(outside[k] == 1e-39f && t->pow.on))
                same_outside = 0;
        }
        CHECK(max_err < tol, "tf curve %d%s%s (depth %d): max relative error %.3g at %.9g",
              c->c.curve, c->c.encode ? " encode" : " decode", c->c.curve2 ? " (composite)" : "",
              depth, max_err, worst);
        CHECK(same_outside, "tf curve %d%s: not the segments' values where they apply",
              c->c.curve, c->c.encode ? " encode" : " decode");
        if (verbose)
            printf("tf curve %d%s%s, depth %d: power form %s, degree %d, its max relative error %.3g\n",
                   c->c.curve, c->c.encode ? " encode" : " decode", c->c.curve2 ? " (composite)" : "",
                   depth, t->pow.on ? "on" : "off", t->pow.deg, max_err);
    }
    av_free(t);
}

/*
 * A configuration for a new source peak reuses the tables of the one before it where
 * their ops are the same (the curves), rebuilds the tone curve's, and converts as a
 * fresh configuration does.
 */
static void check_reuse(void)
{
    CspfixDesc id = { AVCOL_PRI_BT2020, AVCOL_TRC_SMPTE2084, AVCOL_SPC_BT2020_NCL,
                      AVCOL_RANGE_MPEG, 10 };
    const CspfixDesc od = { AVCOL_PRI_BT709, AVCOL_TRC_BT709, AVCOL_SPC_BT709,
                            AVCOL_RANGE_MPEG, 8 };
    CspfixPlanOptions po = { .linearize = CSPFIX_LIN_DISPLAY, .wpadapt = CSPFIX_WP_BRADFORD,
                             .tonemap = CSPFIX_TM_AUTO, .desat = 0.5 };
    CspfixExecConfig cfg = { .in_fmt = AV_PIX_FMT_YUV420P10, .out_fmt = AV_PIX_FMT_YUV420P,
                             .in_loc = AVCHROMA_LOC_LEFT, .out_loc = AVCHROMA_LOC_LEFT };
    const CspfixTFTable *before[CSPFIX_MAX_OPS] = { 0 };
    CspfixPlan p1, p2;
    CspfixExec e, fresh;
    AVFrame *in = alloc_frame(AV_PIX_FMT_YUV420P10, 96, 16);
    AVFrame *a = alloc_frame(AV_PIX_FMT_YUV420P, 96, 16), *b = alloc_frame(AV_PIX_FMT_YUV420P, 96, 16);
    int kept = 0, rebuilt = 0, tf = 0, ok;
    long nd = 0, n = 0;
    char where[128] = "";

    ff_cspfix_exec_init(&e);
    ff_cspfix_exec_init(&fresh);
    po.src_peak = 1000.0;
    ok = in && a && b && ff_cspfix_plan_build(&p1, &id, &od, &po, NULL) >= 0;
    po.src_peak = 2500.0;
    ok = ok && ff_cspfix_plan_build(&p2, &id, &od, &po, NULL) >= 0;
    cfg.plan = &p1;
    ok = ok && ff_cspfix_exec_configure(&e, &cfg) >= 0;
    for (int i = 0; ok && i < e.nb_stages; i++)
        before[i] = e.stages[i].tab;
    cfg.plan = &p2;
    ok = ok && ff_cspfix_exec_configure(&e, &cfg) >= 0 && ff_cspfix_exec_configure(&fresh, &cfg) >= 0;
    CHECK(ok, "table reuse: plans and configurations");
    if (ok) {
        for (int i = 0; i < e.nb_stages; i++) {
            if (e.stages[i].type == CSPFIX_OP_TF) {
                tf++;
                kept += e.stages[i].tab == before[i];
            } else if (e.stages[i].type == CSPFIX_OP_TONEMAP) {
                rebuilt += e.stages[i].tab && e.stages[i].tab2 && e.stages[i].tab != before[i];
            }
        }
        CHECK(tf == 2 && kept == 2 && rebuilt == 1,
              "table reuse: %d of %d curve tables kept, %d tone curve tables rebuilt", kept, tf,
              rebuilt);
        fill_random(in);
        CHECK(convert(&e, in, a, 0, 2) >= 0 && convert(&fresh, in, b, 0, 2) >= 0 &&
              !compare(a, b, &nd, &n, where, sizeof(where)),
              "table reuse: the reconfigured exec converts as a fresh one (%s)", where);
        /* then HLG input: its own decode table, the same encode table */
        id.trc = AVCOL_TRC_ARIB_STD_B67;
        for (int i = 0; i < e.nb_stages; i++)
            before[i] = e.stages[i].tab;
        ok = ff_cspfix_plan_build(&p1, &id, &od, &po, NULL) >= 0;
        cfg.plan = &p1;
        ok = ok && ff_cspfix_exec_configure(&e, &cfg) >= 0 && ff_cspfix_exec_configure(&fresh, &cfg) >= 0;
        kept = tf = 0;
        for (int i = 0; ok && i < e.nb_stages; i++)
            for (int j = 0; j < CSPFIX_MAX_OPS; j++)
                kept += e.stages[i].type == CSPFIX_OP_TF && before[j] && e.stages[i].tab == before[j];
        CHECK(ok && kept == 1 && convert(&e, in, a, 0, 2) >= 0 && convert(&fresh, in, b, 0, 2) >= 0 &&
              !compare(a, b, &nd, &n, where, sizeof(where)),
              "table reuse: PQ then HLG input keeps %d curve table (1: the encode) and converts "
              "as a fresh exec (%s)", kept, where);
    }
    ff_cspfix_exec_uninit(&e);
    ff_cspfix_exec_uninit(&fresh);
    av_frame_free(&in);
    av_frame_free(&a);
    av_frame_free(&b);
}

/* a LUT profile's 3D table (LUT3D stage): the row paths with it, against the generic
 * form (a table of the sRGB curve with a cross term, interned as the filter does) */
static void check_lut3d(void)
{
    const int n = 17;
    float *t = malloc(sizeof(*t) * 3 * n * n * n);
    int v;

    if (!t) {
        CHECK(0, "lut3d: no memory");
        return;
    }
    for (int i = 0; i < n * n * n; i++) {
        const double r = (double)(i % n) / (n - 1), g = (double)(i / n % n) / (n - 1),
                     b = (double)(i / (n * n)) / (n - 1);
        t[3 * i + 0] = pow(r, 2.2);
        t[3 * i + 1] = pow(g, 2.2) + 0.04 * r * b;
        t[3 * i + 2] = pow(b, 2.2);
    }
    v = ff_cspfix_custom_lut3d(t, n);
    free(t);
    CHECK(v >= CSPFIX_TRC_LUT3D, "lut3d: the table interned (%d)", v);
    if (v >= 0) {
        Case c[] = {
            { "rows gbrp LUT profile -> 420p", F(GBRP), F(YUV420P), SRGB, BT709_TV, AUTO, 0,
              L(LEFT), L(LEFT), CSPFIX_PATH_ROWS_V2, 1 },
            { "rows rgb24 LUT profile",        F(RGB24), F(RGB24), SRGB, SRGB, NONE, 0,
              L(LEFT), L(LEFT), CSPFIX_PATH_ROWS, 0 },
        };
        for (int i = 0; i < FF_ARRAY_ELEMS(c); i++) {
            c[i].id.prim = AVCOL_PRI_BT2020;
            c[i].id.trc  = v;
            run_case(&c[i]);
        }
    }
}

int main(int argc, char **argv)
{
    int seen[CSPFIX_PATH_NB] = { 0 };
    int shard = 0, nb_shards = 1;

    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-v")) {
            verbose = 1;
        } else if (!strcmp(argv[i], "--shard") && i + 1 < argc &&
                   sscanf(argv[i + 1], "%d/%d", &shard, &nb_shards) == 2 &&
                   nb_shards > 0 && shard >= 0 && shard < nb_shards) {
            i++;
        } else {
            fprintf(stderr, "usage: exec_test [-v] [--shard K/N], 0 <= K < N\n");
            return 2;
        }
    }
    /* CSPFIX_CPUFLAGS=0: C kernels only */
    if (getenv("CSPFIX_CPUFLAGS"))
        av_force_cpu_flags(atoi(getenv("CSPFIX_CPUFLAGS")));
    /* items 0, 1, 2 the checks, then the cases: item i in shard i modulo N */
    if (0 % nb_shards == shard)
        check_tf_forms();
    if (1 % nb_shards == shard)
        check_reuse();
    if (2 % nb_shards == shard)
        check_lut3d();
    for (int i = 0; i < FF_ARRAY_ELEMS(cases); i++) {
        if ((i + 3) % nb_shards == shard)
            run_case(&cases[i]);
        seen[cases[i].path] = 1;
    }
    /* every fast path (one whose twin is another path) has a case */
    for (int p = 0; p < CSPFIX_PATH_NB; p++)
        if (ff_cspfix_exec_path_twin(p) != p)
            CHECK(seen[p], "no case for the fast path %s", ff_cspfix_exec_path_name(p));
    if (nb_shards > 1)
        printf("exec (shard %d/%d): %d passed, %d failed\n", shard, nb_shards, passed, failed);
    else
        printf("exec: %d passed, %d failed\n", passed, failed);
    return failed != 0;
}
