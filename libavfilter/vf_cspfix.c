/*
 * cspfix: colour space conversion filter (options, negotiation, per-frame dispatch)
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
 * Converts between colour descriptions (primaries, transfer, matrix, range).
 * The conversion is planned in cspfix_plan.c and run by the kernels of
 * cspfix_dsp.c; this file resolves what each frame is and dispatches slices.
 */

#include <math.h>
#include <string.h>

#include "libavutil/avassert.h"
#include "libavutil/csp.h"
#include "libavutil/frame.h"
#include "libavutil/internal.h"
#include "libavutil/mastering_display_metadata.h"
#include "libavutil/mem.h"
#include "libavutil/opt.h"
#include "libavutil/pixdesc.h"

#include "avfilter.h"
#include "filters.h"
#include "formats.h"
#include "video.h"

#include "cspfix_dsp.h"
#include "cspfix_gst.h"
#include "cspfix_io.h"
#include "cspfix_kparams.h"
#include "cspfix_plan.h"
#include "cspfix_tf.h"
#include "cspfix_v4l2.h"

enum CspfixDither {
    DITHER_AUTO = -1,   ///< ordered when the output has fewer bits than the input
    DITHER_NONE,
    DITHER_ORDERED,
    DITHER_ED,          ///< Floyd-Steinberg error diffusion in fixed 16-row bands
    DITHER_NB,
};

/* Vertical chroma resampling of 4:2:0 frames (option interlace) */
enum CspfixInterlace {
    INTERLACE_AUTO,         ///< the frame's AV_FRAME_FLAG_INTERLACED
    INTERLACE_PROGRESSIVE,  ///< over the whole frame
    INTERLACE_INTERLACED,   ///< per field: each field's chroma only from its own lines
    INTERLACE_NB,
};

/* Error diffusion restarts every ED_BAND luma rows, so slices cut on bands give the
 * same output for any thread count. */
#define ED_BAND 16

enum CspfixAll {
    ALL_UNSET = 0,
    ALL_BT470M, ALL_BT470BG, ALL_BT601_525, ALL_BT601_625, ALL_BT709,
    ALL_SMPTE170M, ALL_SMPTE240M, ALL_BT2020,
    ALL_NB,
};

/* primaries, transfer, matrix of each `all`/`iall` preset */
static const int all_presets[ALL_NB][3] = {
    [ALL_BT470M]    = { AVCOL_PRI_BT470M,    AVCOL_TRC_GAMMA22,   AVCOL_SPC_SMPTE170M },
    [ALL_BT470BG]   = { AVCOL_PRI_BT470BG,   AVCOL_TRC_GAMMA28,   AVCOL_SPC_BT470BG   },
    [ALL_BT601_525] = { AVCOL_PRI_SMPTE170M, AVCOL_TRC_SMPTE170M, AVCOL_SPC_SMPTE170M },
    [ALL_BT601_625] = { AVCOL_PRI_BT470BG,   AVCOL_TRC_SMPTE170M, AVCOL_SPC_BT470BG   },
    [ALL_BT709]     = { AVCOL_PRI_BT709,     AVCOL_TRC_BT709,     AVCOL_SPC_BT709     },
    [ALL_SMPTE170M] = { AVCOL_PRI_SMPTE170M, AVCOL_TRC_SMPTE170M, AVCOL_SPC_SMPTE170M },
    [ALL_SMPTE240M] = { AVCOL_PRI_SMPTE240M, AVCOL_TRC_SMPTE240M, AVCOL_SPC_SMPTE240M },
    [ALL_BT2020]    = { AVCOL_PRI_BT2020,    AVCOL_TRC_BT2020_10, AVCOL_SPC_BT2020_NCL },
};

/* A plan op bound to kernel parameters. */
typedef struct CspfixStage {
    enum CspfixOpType type;
    float m[12];
    float k[3];
    float lo, hi;
    CspfixTFTable *tab;
    CspfixTFTable *tab2;
    CspfixCLParams cl;
    int gmode;                   ///< GAMUT: enum CspfixGamut
    float thr, sinv[3];          ///< GAMUT compress
} CspfixStage;

typedef struct CspfixContext {
    const AVClass *class;

    /* options: output */
    int all, prim, trc, csp, range, format;
    /* options: input overrides */
    int iall, iprim, itrc, icsp, irange;
    int fast, dither, wpadapt, linearize, guess, clip, clipgamut;
    int loc, iloc;               ///< chroma_loc, ichroma_loc
    int interlace;               ///< enum CspfixInterlace
    int tonemap, gamut;          ///< enum CspfixTonemap, enum CspfixGamut
    double desat, peak, target_peak;
    double src_peak;             ///< source peak of the current frame (cd/m2), 0: none
    double plan_src_peak;
    double plan_src_prim[3][2];  ///< mastering display primaries the plan used (compress)
    int plan_tm_peak;            ///< HDR output tone-mapped to this peak (cd/m2), 0: none
    int plan_tone_mapped;        ///< the plan runs a tone curve
    char *colorimetry, *icolorimetry;        ///< GStreamer colorimetry strings
    char *v4l2_csp, *v4l2_enc, *v4l2_quant, *v4l2_xfer;
    CspfixV4L2 v4l2;             ///< parsed V4L2 input description
    int use_v4l2;
    /* what format negotiation chose for the output link where the options leave
     * the field free and the consumer could not take the input's value
     * (*_UNSPECIFIED: keep the input's) */
    enum AVColorSpace neg_csp;
    enum AVColorRange neg_range;
    /* the output description of the first frame: the output fields the options leave
     * free keep these on later frames (the link, the encoder and the container keep
     * one description), which are converted to them */
    int have_first;
    CspfixDesc first_out;
    CspfixDesc warned_out;       ///< the output description last warned about
    const char *csp_from, *range_from; ///< where the output matrix and range came from

    CspfixDSPContext dsp;

    /* current plan */
    int have_plan;
    enum AVPixelFormat plan_in_fmt, plan_out_fmt;
    CspfixDesc in_desc, out_desc;
    CspfixFormat fin, fout;
    enum AVChromaLocation in_loc, out_loc;
    enum AVChromaLocation plan_in_loc, plan_out_loc;
    int passthrough;             ///< the frame goes out as it came, re-tagged
    int in_phase_x, in_off_y2, out_phase_x, out_off_y2;
    int field;                   ///< the current frame is resampled vertically per field
    int logged_field;            ///< the field mode last logged (-1: none since the plan)
    CspfixPlan plan;
    CspfixStage stages[CSPFIX_MAX_OPS];
    int nb_stages;
    int stage_start;             ///< stages before it are folded into in_lut
    int fuse_in;                 ///< 0, or 1 + container index: the first matrix reads luma samples
    int fuse_out;                ///< 0, or 1 + container index: the last matrix writes luma samples
    float *in_lut;               ///< RGB input: per-component table of the first stages
    int in_lut_stride;           ///< floats per component table
    int per_plane;
    int map8;                    ///< per-plane 8-bit maps in integer form (map8p)
    CspfixMap8 map8p[3];
    int map16;                   ///< per-plane float maps of 16-bit containers in one pass
    CspfixMap16 map16p[3];
    int chroma_own;              ///< linear plan, same subsampling: chroma at its own resolution
    int own_rows;                ///< chroma_own from samples to samples (yrow, crow): 1 + container index
    CspfixCRow crow_p;
    int yuvint;                  ///< chroma_own in integer form (yuvint_p)
    CspfixYuvInt yuvint_p;
    int use_dither;              ///< enum CspfixDither actually applied
    float lo[3], hi[3];          ///< output code clamp per component
    unsigned guessed;            ///< fields guessed for the current description
    int warned_hdr;

    /* per-thread scratch rows */
    float *scratch;
    int scratch_stride;          ///< floats per thread
    int row_stride;              ///< floats per scratch row
    int scratch_w;               ///< width the scratch was sized for
    int nb_threads;
    int max_jobs;                ///< slices per frame (scratch rows are per slice)

    float bias_round[16];
    float bias_zero[16];
    float bias_dither[16][16];
} CspfixContext;

typedef struct ThreadData {
    AVFrame *in, *out;
} ThreadData;

#define GUESS_PRIM  1
#define GUESS_TRC   2
#define GUESS_CSP   4
#define GUESS_RANGE 8

static int is_rgb_fmt(enum AVPixelFormat fmt)
{
    const AVPixFmtDescriptor *d = av_pix_fmt_desc_get(fmt);
    return d && (d->flags & AV_PIX_FMT_FLAG_RGB);
}

static int is_hdr_trc(enum AVColorTransferCharacteristic trc)
{
    return trc == AVCOL_TRC_SMPTE2084 || trc == AVCOL_TRC_ARIB_STD_B67;
}

static void free_stages(CspfixContext *s)
{
    for (int i = 0; i < s->nb_stages; i++) {
        av_freep(&s->stages[i].tab);
        av_freep(&s->stages[i].tab2);
    }
    s->nb_stages   = 0;
    s->stage_start = 0;
    av_freep(&s->in_lut);
}

static double curve_func(void *opaque, double x)
{
    const int *p = opaque;           /* { curve, encode, curve2, encode2 } */
    x = p[1] ? ff_cspfix_curve_encode(p[0], x) : ff_cspfix_curve_decode(p[0], x);
    if (p[2] != CSPFIX_CURVE_NONE)
        x = p[3] ? ff_cspfix_curve_encode(p[2], x) : ff_cspfix_curve_decode(p[2], x);
    return x;
}

static double ootf_func(void *opaque, double y)
{
    const CspfixOp *op = opaque;
    return y > 0.0 ? op->gain * pow(y, op->power) : 0.0;
}

static double tm_gain_func(void *opaque, double m)
{
    return ff_cspfix_tonemap_gain(opaque, m);
}

static double tm_desat_func(void *opaque, double m)
{
    return ff_cspfix_tonemap_desat(opaque, m);
}

static int alloc_table(CspfixTFTable **t, CspfixScalarFunc f, void *opaque)
{
    if (!(*t = av_malloc(sizeof(**t))))
        return AVERROR(ENOMEM);
    ff_cspfix_tf_build(*t, f, opaque);
    return 0;
}

static int alloc_curve2(CspfixTFTable **t, int curve, int encode, int curve2, int encode2)
{
    int p[4] = { curve, encode, curve2, encode2 };
    return alloc_table(t, curve_func, p);
}

static int alloc_curve(CspfixTFTable **t, int curve, int encode)
{
    return alloc_curve2(t, curve, encode, CSPFIX_CURVE_NONE, 0);
}

/* Bind plan ops to kernel parameters (float matrices, tables). */
static int bind_stages(CspfixContext *s)
{
    const CspfixPlan *p = &s->plan;
    int ret;

    free_stages(s);
    for (int i = 0; i < p->nb_ops; i++) {
        const CspfixOp *op = &p->ops[i];
        CspfixStage *st = &s->stages[s->nb_stages++];

        memset(st, 0, sizeof(*st));
        st->type = op->type;
        switch (op->type) {
        case CSPFIX_OP_MATRIX:
            for (int r = 0; r < 3; r++)
                for (int c = 0; c < 4; c++)
                    st->m[4 * r + c] = op->m[r][c];
            break;
        case CSPFIX_OP_TF:
            if ((ret = alloc_curve2(&st->tab, op->curve, op->encode, op->curve2,
                                    op->encode2)) < 0)
                return ret;
            break;
        case CSPFIX_OP_OOTF:
            for (int c = 0; c < 3; c++)
                st->k[c] = op->k[c];
            if ((ret = alloc_table(&st->tab, ootf_func, (void *)op)) < 0)
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
            if ((ret = alloc_table(&st->tab, tm_gain_func, (void *)op)) < 0 ||
                (op->desat > 0.0 &&
                 (ret = alloc_table(&st->tab2, tm_desat_func, (void *)op)) < 0))
                return ret;
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
        }
    }
    return 0;
}

/* Every stage is pointwise, so a row runs in chunks of this many samples (a multiple
 * of the vector length): a chunk's three rows and the curve tables stay in L1. */
#define STAGE_CHUNK 512

/* Frame rows a row's first and last matrices read and write directly (fuse_in, fuse_out),
 * or NULL. */
typedef struct RowIO {
    const uint8_t *src;     ///< samples of the first component (input)
    uint8_t *dst;           ///< samples of the first component (output)
    const float *bias;      ///< pack bias of dst
} RowIO;

static void run_stages_chunk(const CspfixContext *s, float *c0, float *c1, float *c2, int w,
                             const RowIO *io);

static void run_stages(const CspfixContext *s, float *c0, float *c1, float *c2, int w,
                       const RowIO *io)
{
    const int bi = s->fuse_in - 1, bo = s->fuse_out - 1;

    for (int x = 0; x < w; x += STAGE_CHUNK) {
        RowIO chunk = { NULL };
        if (io && io->src)
            chunk.src = io->src + ((ptrdiff_t)x << bi);
        if (io && io->dst) {
            chunk.dst  = io->dst + ((ptrdiff_t)x << bo);
            chunk.bias = io->bias;
        }
        run_stages_chunk(s, c0 + x, c1 + x, c2 + x, FFMIN(STAGE_CHUNK, w - x), &chunk);
    }
}

/* the first matrix with the unpack of c0 fused in: whole 16-sample blocks in one kernel,
 * the rest as unpack and matrix (the same operations) */
static void matrix_in(const CspfixContext *s, float *c0, float *c1, float *c2, int w,
                      const float m[12], const uint8_t *src)
{
    const int b = s->fuse_in - 1, w16 = w & ~15;

    if (w16)
        s->dsp.fused.matrix_in[b](c0, c1, c2, src, w16, m);
    if (w > w16) {
        s->dsp.io.unpack[b](c0 + w16, src + ((ptrdiff_t)w16 << b), w - w16);
        s->dsp.stage.matrix(c0 + w16, c1 + w16, c2 + w16, w - w16, m);
    }
}

/* the last matrix with the pack of its first row fused in (c0 is left as it was) */
static void matrix_out(const CspfixContext *s, float *c0, float *c1, float *c2, int w,
                       const float m[12], const RowIO *io)
{
    const int b = s->fuse_out - 1, w16 = w & ~15;

    if (w16)
        s->dsp.fused.matrix_out[b](io->dst, c0, c1, c2, w16, m, io->bias, s->lo[0], s->hi[0]);
    if (w > w16) {
        s->dsp.stage.matrix(c0 + w16, c1 + w16, c2 + w16, w - w16, m);
        s->dsp.io.pack[b](io->dst + ((ptrdiff_t)w16 << b), c0 + w16, w - w16, io->bias,
                       s->lo[0], s->hi[0]);
    }
}

static void run_stages_chunk(const CspfixContext *s, float *c0, float *c1, float *c2, int w,
                             const RowIO *io)
{
    const CspfixDSPContext *dsp = &s->dsp;

    for (int i = s->stage_start; i < s->nb_stages; i++) {
        const CspfixStage *st = &s->stages[i];
        switch (st->type) {
        case CSPFIX_OP_MATRIX:
            if (io->src && i == s->stage_start)
                matrix_in(s, c0, c1, c2, w, st->m, io->src);
            else if (io->dst && i == s->nb_stages - 1)
                matrix_out(s, c0, c1, c2, w, st->m, io);
            else
                dsp->stage.matrix(c0, c1, c2, w, st->m);
            break;
        case CSPFIX_OP_TF:
            dsp->stage.tf(c0, c1, c2, w, st->tab);
            break;
        case CSPFIX_OP_OOTF:
            dsp->stage.ootf(c0, c1, c2, w, st->k, st->tab);
            break;
        case CSPFIX_OP_CL_DECODE:
            dsp->stage.cl_decode(c0, c1, c2, w, &st->cl);
            break;
        case CSPFIX_OP_CL_ENCODE:
            dsp->stage.cl_encode(c0, c1, c2, w, &st->cl);
            break;
        case CSPFIX_OP_CLIP:
            dsp->stage.clip(c0, w, st->lo, st->hi);
            dsp->stage.clip(c1, w, st->lo, st->hi);
            dsp->stage.clip(c2, w, st->lo, st->hi);
            break;
        case CSPFIX_OP_TONEMAP:
            dsp->stage.tonemap(c0, c1, c2, w, st->k, st->tab, st->tab2);
            break;
        case CSPFIX_OP_GAMUT:
            if (st->gmode == CSPFIX_GAMUT_COMPRESS)
                dsp->stage.gamut_compress(c0, c1, c2, w, st->thr, st->sinv, st->hi);
            else
                dsp->stage.gamut_desat(c0, c1, c2, w, st->k, st->hi);
            break;
        }
    }
}

static void siting(enum AVChromaLocation loc, int *phase_x, int *off_y2);

/* ---- describing frames ---- */

static const char *guess_reason(const AVFrame *f, int rgb)
{
    return rgb ? "RGB pixel format" : f->height >= 720 ? "height >= 720" :
           f->height == 576 ? "height 576" : "height < 720";
}

static void guess_ycc(int height, int *prim, int *trc, int *csp)
{
    if (height >= 720) {
        *prim = AVCOL_PRI_BT709;
        *trc  = AVCOL_TRC_BT709;
        *csp  = AVCOL_SPC_BT709;
    } else if (height == 576) {
        *prim = AVCOL_PRI_BT470BG;
        *trc  = AVCOL_TRC_SMPTE170M;
        *csp  = AVCOL_SPC_BT470BG;
    } else {
        *prim = AVCOL_PRI_SMPTE170M;
        *trc  = AVCOL_TRC_SMPTE170M;
        *csp  = AVCOL_SPC_SMPTE170M;
    }
}

static int describe_input(AVFilterContext *ctx, const AVFrame *f, CspfixDesc *d,
                          unsigned *guessed)
{
    CspfixContext *s = ctx->priv;
    const int rgb = is_rgb_fmt(f->format);
    CspfixFormat fmt;
    int gp, gt, gc, ret;

    if ((ret = ff_cspfix_format_init(&fmt, f->format)) < 0) {
        av_log(ctx, AV_LOG_ERROR, "Unsupported input pixel format %s: %s.\n",
               av_get_pix_fmt_name(f->format), ff_cspfix_unsupported_reason(f->format));
        return ret;
    }

    d->prim  = f->color_primaries;
    d->trc   = f->color_trc;
    d->csp   = rgb ? AVCOL_SPC_RGB : f->colorspace;
    d->range = f->color_range;
    d->depth = fmt.depth;
    if (s->iall) {
        d->prim = all_presets[s->iall][0];
        d->trc  = all_presets[s->iall][1];
        if (!rgb)
            d->csp = all_presets[s->iall][2];
    }
    /* V4L2 fields describe the whole input: the explicit per-field options win */
    if (s->use_v4l2) {
        enum AVColorPrimaries vp;
        enum AVColorTransferCharacteristic vt;
        enum AVColorSpace vc;
        enum AVColorRange vr;
        const char *why = NULL;
        if ((ret = ff_cspfix_from_v4l2(&s->v4l2, rgb, &vp, &vt, &vc, &vr, &why)) < 0) {
            av_log(ctx, AV_LOG_ERROR, "V4L2 description %s/%s/%s/%s: %s\n",
                   ff_cspfix_v4l2_colorspace_name(s->v4l2.colorspace),
                   ff_cspfix_v4l2_ycbcr_enc_name(s->v4l2.ycbcr_enc),
                   ff_cspfix_v4l2_quantization_name(s->v4l2.quantization),
                   ff_cspfix_v4l2_xfer_func_name(s->v4l2.xfer_func),
                   why ? why : "not expressible in FFmpeg");
            return ret;
        }
        if (vp != AVCOL_PRI_UNSPECIFIED)   d->prim  = vp;
        if (vt != AVCOL_TRC_UNSPECIFIED)   d->trc   = vt;
        if (vc != AVCOL_SPC_UNSPECIFIED && !rgb) d->csp = vc;
        if (vr != AVCOL_RANGE_UNSPECIFIED) d->range = vr;
    }
    if (s->iprim != AVCOL_PRI_UNSPECIFIED)
        d->prim = s->iprim;
    if (s->itrc != AVCOL_TRC_UNSPECIFIED)
        d->trc = s->itrc;
    if (s->icsp != AVCOL_SPC_UNSPECIFIED && !rgb)
        d->csp = s->icsp;
    if (s->irange != AVCOL_RANGE_UNSPECIFIED)
        d->range = s->irange;
    if (!rgb && d->csp == AVCOL_SPC_RGB) {
        av_log(ctx, AV_LOG_ERROR, "Input matrix rgb on the Y'CbCr pixel format %s is not "
               "supported; use a gbrp format for RGB.\n", av_get_pix_fmt_name(f->format));
        return AVERROR(EINVAL);
    }

    if (rgb)
        gp = AVCOL_PRI_BT709, gt = AVCOL_TRC_IEC61966_2_1, gc = AVCOL_SPC_RGB;
    else
        guess_ycc(f->height, &gp, &gt, &gc);

    *guessed = 0;
#define GUESS(field, flag, value, name)                                             \
    if (field == 0 || field == 2 /* reserved0, unspecified */) {                  \
        if (!s->guess) {                                                            \
            av_log(ctx, AV_LOG_ERROR, "Input %s is unspecified and guess=0; set "   \
                   "it with the i* options.\n", name);                              \
            return AVERROR(EINVAL);                                                 \
        }                                                                           \
        field = value;                                                              \
        *guessed |= flag;                                                           \
    }
    GUESS(d->prim, GUESS_PRIM, gp, "colour primaries");
    GUESS(d->trc, GUESS_TRC, gt, "transfer characteristics");
    if (!rgb)
        GUESS(d->csp, GUESS_CSP, gc, "matrix (colorspace)");
#undef GUESS
    if (d->range == AVCOL_RANGE_UNSPECIFIED) {
        if (!s->guess) {
            av_log(ctx, AV_LOG_ERROR, "Input range is unspecified and guess=0; set it "
                   "with irange.\n");
            return AVERROR(EINVAL);
        }
        d->range = rgb ? AVCOL_RANGE_JPEG : AVCOL_RANGE_MPEG;
        *guessed |= GUESS_RANGE;
    }
    if (fmt.is_float || fmt.depth < 8)
        d->range = AVCOL_RANGE_JPEG; /* float samples carry the signal itself; fewer than
                                      * 8 bits have no limited range */
    return 0;
}

static int describe_output(AVFilterContext *ctx, const AVFrame *in, enum AVPixelFormat ofmt,
                           const CspfixDesc *id, CspfixDesc *od)
{
    CspfixContext *s = ctx->priv;
    const int in_rgb = is_rgb_fmt(in->format), out_rgb = is_rgb_fmt(ofmt);
    int csp = s->csp;

    /* free fields: the input's, on later frames the first frame's output */
    od->prim  = s->have_first ? s->first_out.prim : id->prim;
    od->trc   = s->have_first ? s->first_out.trc : id->trc;
    CspfixFormat fmt;
    int ret;

    if ((ret = ff_cspfix_format_init(&fmt, ofmt)) < 0)
        return ret;
    od->depth = fmt.depth;
    if (s->all) {
        od->prim = all_presets[s->all][0];
        od->trc  = all_presets[s->all][1];
        if (csp == AVCOL_SPC_UNSPECIFIED)
            csp = all_presets[s->all][2];
    }
    if (s->prim != AVCOL_PRI_UNSPECIFIED)
        od->prim = s->prim;
    if (s->trc != AVCOL_TRC_UNSPECIFIED)
        od->trc = s->trc;

    if (out_rgb) {
        if (s->csp != AVCOL_SPC_UNSPECIFIED && s->csp != AVCOL_SPC_RGB) {
            av_log(ctx, AV_LOG_ERROR, "Output matrix %s cannot be used with the RGB output "
                   "format %s; for Y'CbCr output set format= to a Y'CbCr format (e.g. "
                   "format=yuv444p).\n", av_color_space_name(s->csp), av_get_pix_fmt_name(ofmt));
            return AVERROR(EINVAL);
        }
        od->csp = AVCOL_SPC_RGB;
        s->csp_from = "RGB output";
    } else if (csp != AVCOL_SPC_UNSPECIFIED) {
        od->csp = csp;
        s->csp_from = "as set";
    } else if (s->neg_csp != AVCOL_SPC_UNSPECIFIED) {
        od->csp = s->neg_csp;
        s->csp_from = "negotiated";
    } else if (s->have_first && s->first_out.csp != AVCOL_SPC_RGB) {
        od->csp = s->first_out.csp;
        s->csp_from = "kept from the first frame";
    } else if (in_rgb) {
        int gp, gt;
        guess_ycc(in->height, &gp, &gt, &csp);
        od->csp = csp;
        s->csp_from = "guessed for RGB input";
    } else {
        od->csp = id->csp;
        s->csp_from = "the input's";
    }
    if (!out_rgb && od->csp == AVCOL_SPC_RGB) {
        av_log(ctx, AV_LOG_ERROR, "Output matrix rgb needs an RGB output format "
               "(e.g. format=gbrp), not %s.\n", av_get_pix_fmt_name(ofmt));
        return AVERROR(EINVAL);
    }

    if (s->range != AVCOL_RANGE_UNSPECIFIED) {
        od->range = s->range;
        s->range_from = "as set";
    } else if (s->neg_range != AVCOL_RANGE_UNSPECIFIED) {
        od->range = s->neg_range;
        s->range_from = "negotiated";
    } else if (s->have_first) {
        od->range = s->first_out.range;
        s->range_from = "kept from the first frame";
    } else if (out_rgb != in_rgb) {
        od->range = out_rgb ? AVCOL_RANGE_JPEG : AVCOL_RANGE_MPEG;
        s->range_from = out_rgb ? "full for RGB output" : "limited for Y'CbCr from RGB";
    } else {
        od->range = id->range;
        s->range_from = "the input's";
    }
    if (fmt.is_float || fmt.depth < 8)
        od->range = AVCOL_RANGE_JPEG;
    if (fmt.nb_colour == 1 && !(av_pix_fmt_desc_get(in->format)->nb_components <= 2)) {
        av_log(ctx, AV_LOG_ERROR, "Gray output (%s) from colour input (%s) needs the chroma "
               "this filter would drop; convert to gray with another filter first.\n",
               av_get_pix_fmt_name(ofmt), av_get_pix_fmt_name(in->format));
        return AVERROR(EINVAL);
    }
    return 0;
}

static void log_guesses(AVFilterContext *ctx, const CspfixDesc *d, unsigned guessed,
                        const AVFrame *f)
{
    const char *why = guess_reason(f, is_rgb_fmt(f->format));
    if (guessed & GUESS_PRIM)
        av_log(ctx, AV_LOG_INFO, "Input colour primaries unspecified: guessing %s (%s).\n",
               av_color_primaries_name(d->prim), why);
    if (guessed & GUESS_TRC)
        av_log(ctx, AV_LOG_INFO, "Input transfer unspecified: guessing %s (%s).\n",
               av_color_transfer_name(d->trc), why);
    if (guessed & GUESS_CSP)
        av_log(ctx, AV_LOG_INFO, "Input matrix unspecified: guessing %s (%s).\n",
               av_color_space_name(d->csp), why);
    if (guessed & GUESS_RANGE)
        av_log(ctx, AV_LOG_INFO, "Input range unspecified: guessing %s.\n",
               av_color_range_name(d->range));
}

static void setup_pack(CspfixContext *s, enum AVPixelFormat ofmt, const CspfixDesc *od)
{
    const int rgb = is_rgb_fmt(ofmt);
    const int max = od->depth ? (1 << od->depth) - 1 : 1, sh = FFMAX(od->depth - 8, 0);

    for (int c = 0; c < 3; c++) {
        s->lo[c] = 0.0f;
        s->hi[c] = max;
        if (s->clip && od->range == AVCOL_RANGE_MPEG) {
            s->lo[c] = 16 << sh;
            s->hi[c] = ((c && !rgb) ? 240 : 235) << sh;
        }
    }
}

/* Per-plane map without dither: of 8-bit planes, the integer kernel when it reproduces
 * the float result for every code; of planes in 16-bit containers, the float map in
 * one pass. */
static void setup_map(CspfixContext *s)
{
    const int ok = s->per_plane && s->use_dither == DITHER_NONE;

    s->map8 = s->map16 = ok;
    for (int c = 0; c < s->fin.nb_colour && ok; c++) {
        const CspfixComp *ci = &s->fin.comp[c], *co = &s->fout.comp[c];
        const CspfixOp *op = &s->plan.ops[0];
        const float sc = s->plan.nb_ops ? op->m[c][c] : 1.0f;
        const float of = s->plan.nb_ops ? op->m[c][3] : 0.0f;
        s->map8 &= ci->kind == CSPFIX_COMP_PLANAR8 && co->kind == CSPFIX_COMP_PLANAR8 &&
                   ff_cspfix_map8_init(&s->map8p[c], &s->dsp, sc, of, s->lo[c], s->hi[c]) >= 0;
        s->map16 &= ci->kind == CSPFIX_COMP_PLANAR16 && co->kind == CSPFIX_COMP_PLANAR16;
        s->map16p[c] = (CspfixMap16){ .s = sc, .o = of, .lo = s->lo[c], .hi = s->hi[c] };
    }
}

/* 1 + container index of a component read or written by the unpack/pack kernels
 * (contiguous 8-bit or 16-bit samples), else 0 */
static int planar_kind(const CspfixComp *c)
{
    return c->kind == CSPFIX_COMP_PLANAR8 ? 1 : c->kind == CSPFIX_COMP_PLANAR16 ? 2 : 0;
}

/* The first matrix of the row plan reads the first component's samples itself, and the
 * last one writes luma samples itself, where the kernels allow (no lookup tables in,
 * no error diffusion out, luma the only full-resolution output). */
static void setup_fuse(CspfixContext *s)
{
    const CspfixFormat *fi = &s->fin, *fo = &s->fout;
    const int first = s->stage_start, last = s->nb_stages - 1;

    s->fuse_in = s->fuse_out = s->own_rows = 0;
    if (first > last)
        return;
    /* chroma_own: the matrix rows straight from samples to samples, same containers in
     * and out */
    if (s->chroma_own && first == last && s->stages[first].type == CSPFIX_OP_MATRIX &&
        s->use_dither != DITHER_ED && !fo->is_float) {
        const int k = planar_kind(&fi->comp[0]);
        s->own_rows = k;
        for (int c = 0; c < 3; c++)
            if (planar_kind(&fi->comp[c]) != k || planar_kind(&fo->comp[c]) != k)
                s->own_rows = 0;
        ff_cspfix_crow_init(&s->crow_p, s->stages[first].m, s->lo[1], s->hi[1], s->lo[2],
                            s->hi[2]);
    }
    if (s->stages[first].type == CSPFIX_OP_MATRIX && !s->in_lut)
        s->fuse_in = planar_kind(&fi->comp[0]);
    if (s->stages[last].type == CSPFIX_OP_MATRIX && (last > first || !s->fuse_in) &&
        s->use_dither != DITHER_ED && !fo->is_float && fo->nb_colour == 3 && !fo->rgb &&
        (fo->hsub || fo->vsub))
        s->fuse_out = planar_kind(&fo->comp[0]);
}

/* Matrix-only conversion of 8- to 10-bit Y'CbCr (same depth in and out) with chroma
 * subsampled horizontally by 2 (4:2:0, 4:2:2), no dither: the integer kernels, when
 * the coefficients fit. */
static void setup_yuvint(CspfixContext *s)
{
    const int d = s->fin.depth;
    const enum CspfixCompKind kind = d == 8 ? CSPFIX_COMP_PLANAR8 : CSPFIX_COMP_PLANAR16;

    s->yuvint = s->chroma_own && s->use_dither == DITHER_NONE &&
                s->fin.hsub == 1 && s->fin.vsub <= 1 && d >= 8 && d <= 10 && s->fout.depth == d;
    for (int c = 0; c < 3 && s->yuvint; c++)
        s->yuvint = s->fin.comp[c].kind == kind && s->fout.comp[c].kind == kind;
    if (s->yuvint)
        s->yuvint = ff_cspfix_yuvint_init(&s->yuvint_p, s->plan.ops[0].m, s->lo, s->hi, d) >= 0;
}

/*
 * Source peak of an HDR frame in cd/m2, for tone mapping: peak= (the user wins), then the
 * content light level MaxCLL (the brightest pixel of the content), then the mastering
 * display's maximum luminance (which bounds what was graded), then 1000. 0 for SDR input.
 */
static double source_peak(AVFilterContext *ctx, const AVFrame *in, int hdr_in,
                          double prim[3][2])
{
    CspfixContext *s = ctx->priv;
    const AVFrameSideData *sd;
    const AVMasteringDisplayMetadata *m = NULL;
    double peak = 0.0;
    const char *from = "default";

    memset(prim, 0, sizeof(double) * 6);
    if (!hdr_in)
        return 0.0;
    if ((sd = av_frame_get_side_data(in, AV_FRAME_DATA_MASTERING_DISPLAY_METADATA))) {
        m = (const AVMasteringDisplayMetadata *)sd->data;
        if (m->has_primaries && s->gamut == CSPFIX_GAMUT_COMPRESS)
            for (int c = 0; c < 3; c++)
                for (int i = 0; i < 2; i++)
                    prim[c][i] = m->display_primaries[c][i].den ?
                                 av_q2d(m->display_primaries[c][i]) : 0.0;
    }
    if (s->peak > 0.0) {
        peak = s->peak;
        from = "peak option";
    }
    if (!peak && (sd = av_frame_get_side_data(in, AV_FRAME_DATA_CONTENT_LIGHT_LEVEL))) {
        const AVContentLightMetadata *c = (const AVContentLightMetadata *)sd->data;
        if (c->MaxCLL > 0) {
            peak = c->MaxCLL;
            from = "content light level MaxCLL";
        }
    }
    if (!peak && m && m->has_luminance && m->max_luminance.den &&
        av_q2d(m->max_luminance) > 0.0) {
        peak = av_q2d(m->max_luminance);
        from = "mastering display maximum luminance";
    }
    if (!peak)
        peak = CSPFIX_SRC_PEAK_DEFAULT;
    if (peak != s->src_peak)
        av_log(ctx, AV_LOG_VERBOSE, "Source peak %g cd/m2 (%s).\n", peak, from);
    s->src_peak = peak;
    return peak;
}

/*
 * Integer RGB input of at most 12 bits whose plan starts with a per-component scale
 * (a diagonal matrix) and a curve: those two stages become one table per component,
 * indexed by the code. The tables are made by the same kernels from every code, so
 * the result is the same, only the per-pixel work goes.
 */
static int setup_in_lut(CspfixContext *s)
{
    const CspfixStage *m = &s->stages[0];
    const int n = 1 << s->fin.depth;
    float *l[3];

    if (!s->fin.rgb || s->fin.is_float || s->fin.nb_colour != 3 || s->fin.depth > 12 ||
        s->per_plane || s->nb_stages < 2 || m->type != CSPFIX_OP_MATRIX ||
        s->stages[1].type != CSPFIX_OP_TF)
        return 0;
    /* the tables are indexed by integer codes */
    for (int c = 0; c < 3; c++)
        if (s->fin.comp[c].scale != 1.0f || s->fin.comp[c].invert)
            return 0;
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++)
            if (r != c && m->m[4 * r + c] != 0.0f)
                return 0;
    s->in_lut_stride = n + 16;
    if (!(s->in_lut = av_malloc_array(3 * s->in_lut_stride, sizeof(*s->in_lut))))
        return AVERROR(ENOMEM);
    for (int c = 0; c < 3; c++) {
        l[c] = s->in_lut + c * s->in_lut_stride;
        for (int x = 0; x < s->in_lut_stride; x++)
            l[c][x] = FFMIN(x, n - 1);
    }
    s->dsp.stage.matrix(l[0], l[1], l[2], n, m->m);
    s->dsp.stage.tf(l[0], l[1], l[2], n, s->stages[1].tab);
    s->stage_start = 2;
    return 0;
}

static int desc_differs(const CspfixDesc *a, const CspfixDesc *b)
{
    return a->prim != b->prim || a->trc != b->trc || a->csp != b->csp || a->range != b->range;
}

/* Options that contradict each other or the input: say what happens. */
static void warn_plan(AVFilterContext *ctx, const CspfixDesc *id, const CspfixDesc *od)
{
    const CspfixContext *s = ctx->priv;

    if (s->clipgamut && s->gamut != CSPFIX_GAMUT_NONE && s->gamut != CSPFIX_GAMUT_CLIP)
        av_log(ctx, AV_LOG_WARNING, "clipgamut=rgb clips linear RGB to the output gamut, so "
               "gamut=%s does not run; set one of them.\n",
               s->gamut == CSPFIX_GAMUT_COMPRESS ? "compress" : "desaturate");
    if (s->tonemap != CSPFIX_TM_AUTO && !is_hdr_trc(id->trc))
        av_log(ctx, AV_LOG_WARNING, "tonemap=%s has no effect: the input (%s) is SDR, tone "
               "curves map PQ or HLG light.\n", ff_cspfix_tonemap_name(s->tonemap),
               av_color_transfer_name(id->trc));
    if (s->fast && (id->trc != od->trc || id->prim != od->prim))
        av_log(ctx, AV_LOG_WARNING, "fast=1 skips linearisation: the change of %s%s%s is a "
               "relabel, not a conversion; leave fast unset to convert.\n",
               id->prim != od->prim ? "primaries" : "",
               id->prim != od->prim && id->trc != od->trc ? " and " : "",
               id->trc != od->trc ? "transfer" : "");
}

/* Logs the vertical chroma resampling of this frame when it differs from the last one
 * logged (frames of one stream may switch between progressive and interlaced). */
static void log_field(AVFilterContext *ctx)
{
    CspfixContext *s = ctx->priv;

    if (s->per_plane || s->passthrough || (!s->fin.vsub && !s->fout.vsub) ||
        s->field == s->logged_field)
        return;
    av_log(ctx, AV_LOG_VERBOSE, "  vertical chroma resampling: %s\n",
           s->field ? "per field (interlaced)" : "over the frame (progressive)");
    s->logged_field = s->field;
}

static int update_plan(AVFilterContext *ctx, const AVFrame *in, enum AVPixelFormat ofmt)
{
    CspfixContext *s = ctx->priv;
    CspfixDesc id, od;
    CspfixPlanOptions po = {
        .linearize = s->linearize,
        .wpadapt   = s->wpadapt,
        .fast      = s->fast,
        .clipgamut = s->clipgamut,
        .tonemap   = s->tonemap,
        .gamut     = s->gamut,
        .desat     = s->desat,
        .src_peak  = 0.0,
        .dst_peak  = s->target_peak,
    };
    unsigned guessed;
    int ret, in_depth, same_siting;

    s->field = s->interlace == INTERLACE_INTERLACED ||
               (s->interlace == INTERLACE_AUTO && (in->flags & AV_FRAME_FLAG_INTERLACED));
    /* an out-of-range frame value counts as unspecified */
    s->in_loc  = s->iloc != AVCHROMA_LOC_UNSPECIFIED ? s->iloc :
                 in->chroma_location > AVCHROMA_LOC_UNSPECIFIED &&
                 in->chroma_location < AVCHROMA_LOC_NB ? in->chroma_location :
                 AVCHROMA_LOC_LEFT;
    s->out_loc = s->loc != AVCHROMA_LOC_UNSPECIFIED ? s->loc : s->in_loc;
    siting(s->in_loc, &s->in_phase_x, &s->in_off_y2);
    siting(s->out_loc, &s->out_phase_x, &s->out_off_y2);

    if ((ret = describe_input(ctx, in, &id, &guessed)) < 0 ||
        (ret = describe_output(ctx, in, ofmt, &id, &od)) < 0)
        return ret;
    po.src_peak = source_peak(ctx, in, is_hdr_trc(id.trc), po.src_prim);
    po.hlg_lw   = s->peak;
    if (s->have_plan && s->plan_in_fmt == in->format && s->plan_out_fmt == ofmt &&
        s->plan_in_loc == s->in_loc && s->plan_out_loc == s->out_loc &&
        s->plan_src_peak == po.src_peak &&
        !memcmp(s->plan_src_prim, po.src_prim, sizeof(po.src_prim)) &&
        !memcmp(&id, &s->in_desc, sizeof(id)) && !memcmp(&od, &s->out_desc, sizeof(od))) {
        log_field(ctx);
        return 0;
    }

    s->have_plan = 0;
    if ((ret = ff_cspfix_plan_build(&s->plan, &id, &od, &po, ctx)) < 0)
        return ret;
    warn_plan(ctx, &id, &od);
    if ((ret = bind_stages(s)) < 0)
        return ret;
    if (guessed != s->guessed || guessed)
        log_guesses(ctx, &id, guessed, in);
    s->guessed = guessed;
    if (s->plan.hdr_to_sdr && !s->warned_hdr) {
        av_log(ctx, AV_LOG_WARNING, "HDR (%s) to SDR (%s) with tonemap=none: "
               "highlights above target_peak clip.\n",
               av_color_transfer_name(id.trc), av_color_transfer_name(od.trc));
        s->warned_hdr = 1;
    }

    ff_cspfix_format_init(&s->fin, in->format);
    ff_cspfix_format_init(&s->fout, ofmt);
    in_depth      = id.depth ? id.depth : 32;
    s->use_dither = !od.depth ? DITHER_NONE :
                    s->dither == DITHER_AUTO ? (od.depth < in_depth ? DITHER_ORDERED : DITHER_NONE) :
                    s->dither;
    /* a change of chroma siting needs resampling, even when the colours stay */
    same_siting   = (!s->fin.hsub && !s->fin.vsub) || s->in_loc == s->out_loc;
    s->per_plane  = ff_cspfix_plan_is_per_plane(&s->plan) && same_siting &&
                    s->fin.hsub == s->fout.hsub && s->fin.vsub == s->fout.vsub &&
                    s->fin.rgb == s->fout.rgb && s->fin.nb_colour == s->fout.nb_colour;
    s->passthrough = !s->plan.nb_ops && in->format == ofmt && same_siting &&
                     !(s->clip && od.range == AVCOL_RANGE_MPEG);
    s->chroma_own = !s->per_plane && ff_cspfix_plan_is_linear(&s->plan) && s->plan.nb_ops == 1 &&
                    !s->fin.rgb && !s->fout.rgb && s->fin.nb_colour == 3 && s->fout.nb_colour == 3 &&
                    s->fin.hsub == s->fout.hsub && s->fin.vsub == s->fout.vsub &&
                    (s->fin.hsub || s->fin.vsub) && s->in_loc == s->out_loc &&
                    s->plan.ops[0].m[1][0] == 0.0 && s->plan.ops[0].m[2][0] == 0.0;
    setup_pack(s, ofmt, &od);
    setup_map(s);
    setup_yuvint(s);
    if ((ret = setup_in_lut(s)) < 0)
        return ret;
    setup_fuse(s);

    av_log(ctx, AV_LOG_VERBOSE, "Plan %s %s/%s/%s/%s -> %s %s/%s/%s/%s (matrix %s, range %s)%s:\n",
           av_get_pix_fmt_name(in->format), av_color_primaries_name(id.prim),
           av_color_transfer_name(id.trc), av_color_space_name(id.csp),
           av_color_range_name(id.range), av_get_pix_fmt_name(ofmt),
           av_color_primaries_name(od.prim), av_color_transfer_name(od.trc),
           av_color_space_name(od.csp), av_color_range_name(od.range), s->csp_from, s->range_from,
           s->map8 ? " (per-plane, integer)" : s->map16 ? " (per-plane, one pass)" :
           s->per_plane ? " (per-plane)" :
           s->yuvint ? " (chroma at its own resolution, integer)" :
           s->chroma_own ? " (chroma at its own resolution)" : "");
    if (!s->plan.nb_ops && !s->passthrough)
        av_log(ctx, AV_LOG_VERBOSE, "  plan: no colour change; %s\n",
               s->in_loc != s->out_loc && (s->fin.hsub || s->fin.vsub) ?
               "chroma resampled to the output siting" : "samples repacked");
    else
        ff_cspfix_plan_print(ctx, AV_LOG_VERBOSE, &s->plan);
    if (s->in_lut)
        av_log(ctx, AV_LOG_VERBOSE, "  (stages 0 and 1 run as one table per component, "
               "indexed by the %d-bit code)\n", s->fin.depth);
    s->logged_field = -1;
    log_field(ctx);

    s->in_desc      = id;
    s->out_desc     = od;
    s->plan_in_loc  = s->in_loc;
    s->plan_out_loc = s->out_loc;
    s->plan_in_fmt  = in->format;
    s->plan_out_fmt = ofmt;
    s->plan_src_peak = po.src_peak;
    memcpy(s->plan_src_prim, po.src_prim, sizeof(po.src_prim));
    if (!s->have_first) {
        s->have_first = 1;
        s->first_out  = od;
        s->warned_out = od;
    } else if (desc_differs(&od, &s->warned_out)) {
        av_log(ctx, AV_LOG_WARNING, "The output changes mid-stream from %s/%s/%s/%s to "
               "%s/%s/%s/%s (primaries/transfer/matrix/range): encoders and containers keep "
               "the description they were opened with, so the output is mis-tagged from "
               "here on. Set these output fields once to keep them constant.\n",
               av_color_primaries_name(s->warned_out.prim), av_color_transfer_name(s->warned_out.trc),
               av_color_space_name(s->warned_out.csp), av_color_range_name(s->warned_out.range),
               av_color_primaries_name(od.prim), av_color_transfer_name(od.trc),
               av_color_space_name(od.csp), av_color_range_name(od.range));
        s->warned_out = od;
    }
    s->plan_tm_peak  = 0;
    s->plan_tone_mapped = 0;
    for (int i = 0; i < s->plan.nb_ops; i++) {
        if (s->plan.ops[i].type != CSPFIX_OP_TONEMAP)
            continue;
        s->plan_tone_mapped = 1;
        if (is_hdr_trc(od.trc))
            s->plan_tm_peak = lrint(s->plan.ops[i].dst_peak);
    }
    s->have_plan    = 1;
    return 0;
}

/* ---- pixels ---- */

/* Chroma siting as (horizontal phase, vertical offset in luma rows x 2). */
static void siting(enum AVChromaLocation loc, int *phase_x, int *off_y2)
{
    *phase_x = loc == AVCHROMA_LOC_CENTER || loc == AVCHROMA_LOC_TOP ||
               loc == AVCHROMA_LOC_BOTTOM;
    *off_y2  = loc == AVCHROMA_LOC_TOPLEFT || loc == AVCHROMA_LOC_TOP ? 0 :
               loc == AVCHROMA_LOC_BOTTOMLEFT || loc == AVCHROMA_LOC_BOTTOM ? 2 : 1;
}

typedef struct SliceBuf {
    float *ring[8][3];      ///< full-resolution rows after the plan, slot = row & 3 (row & 7 for interlaced frames)
                            ///< (per-field 4:2:0 output: row & 7)
    float *t0, *t1, *t2;    ///< chroma-resolution scratch
    float *ed[3][2];        ///< error diffusion: this row's and the next row's errors
    float *crow[2][4];      ///< the last two unpacked input rows of Cb and Cr (interlaced:
                            ///< four, two per field, slot = row & 3)
    int crow_y[2][4];       ///< their row numbers (-1: empty)
} SliceBuf;

#define SCRATCH_ROWS 41

static void slice_buf(const CspfixContext *s, int jobnr, SliceBuf *b)
{
    /* 16 floats before each thread's rows: row[-1] of its first row is its own */
    float *base = s->scratch + (size_t)jobnr * s->scratch_stride + 16;
    for (int r = 0; r < 4; r++)
        for (int i = 0; i < 3; i++)
            b->ring[r][i] = base + (3 * r + i) * s->row_stride;
    for (int r = 4; r < 8; r++)
        for (int i = 0; i < 3; i++)
            b->ring[r][i] = base + (25 + 3 * (r - 4) + i) * s->row_stride;
    b->t0 = base + 12 * s->row_stride;
    b->t1 = base + 13 * s->row_stride;
    b->t2 = base + 14 * s->row_stride;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 2; j++)
            b->ed[i][j] = base + (15 + 2 * i + j) * s->row_stride;
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++) {
            b->crow[i][j]   = base + (21 + 2 * i + j) * s->row_stride;
            b->crow_y[i][j] = -1;
        }
    for (int i = 0; i < 2; i++)
        for (int j = 2; j < 4; j++) {
            b->crow[i][j]   = base + (37 + 2 * i + j - 2) * s->row_stride;
            b->crow_y[i][j] = -1;
        }
}

/* Rows [*y0, *y1) of job j of n over h rows, cut on multiples of band. */
static void slice_rows(int h, int band, int j, int n, int *y0, int *y1)
{
    const int nb = (h + band - 1) / band;
    *y0 = FFMIN(nb * j / n * band, h);
    *y1 = FFMIN(nb * (j + 1) / n * band, h);
}

static void fill_row(float *dst, int w, float v)
{
    for (int x = 0; x < w; x++)
        dst[x] = v;
}

/* Unpacked row r of chroma component c (cw samples) from the slice's two-row cache
 * (each input chroma row serves two luma rows), not evicting row keep; interlaced, a
 * four-row cache (the luma rows alternate between the fields' row pairs 2j, 2j + 2 and
 * 2j + 1, 2j + 3). */
static float *chroma_row(const CspfixContext *s, const AVFrame *in, int c, int r, int keep,
                         int cw, SliceBuf *b)
{
    int *tag = b->crow_y[c - 1];
    const int slot = s->field ? r & 3 :
                     tag[0] == r ? 0 : tag[1] == r ? 1 : tag[0] == keep ? 1 : 0;

    if (tag[slot] != r) {
        ff_cspfix_read(&s->dsp, &s->fin, in, c, r, cw, b->crow[c - 1][slot]);
        tag[slot] = r;
    }
    return b->crow[c - 1][slot];
}

/*
 * Subsampling by n = 2^sub > 2 (4:1:1, 4:1:0), in C: chroma sample j sits at luma
 * position n j + o2 / 2, o2 = where (n - 1) with where 0 (left, top), 1 (centre)
 * or 2 (bottom), the positions the 2:1 kernels use for n = 2. Upsampling is linear
 * between the two nearest samples; downsampling a tent over (-n, n) luma samples
 * (for n = 2 the taps of downsample_h2 and of filter3/filter4). Edges repeat.
 */
static int floor_div(int a, int b)
{
    return a >= 0 ? a / b : -((-a + b - 1) / b);
}

static void upsample_hn(float *dst, const float *src, int w, int sub, int where)
{
    const int n = 1 << sub, den = 2 * n, o2 = where * (n - 1), cw = AV_CEIL_RSHIFT(w, sub);

    for (int x = 0; x < w; x++) {
        const int num = 2 * x - o2, j = floor_div(num, den), frac = num - j * den;
        const float a = src[av_clip(j, 0, cw - 1)], b = src[av_clip(j + 1, 0, cw - 1)];
        dst[x] = a * ((float)(den - frac) / den) + b * ((float)frac / den);
    }
}

static void downsample_hn(float *dst, const float *src, int w, int sub, int where)
{
    const int n = 1 << sub, o2 = where * (n - 1), cw = AV_CEIL_RSHIFT(w, sub);

    for (int j = 0; j < cw; j++) {
        const int p2 = 2 * n * j + o2;
        float sum = 0.0f;
        int wsum = 0;
        for (int x = floor_div(p2 - 2 * n, 2); x <= (p2 + 2 * n) / 2; x++) {
            const int wt = 2 * n - FFABS(2 * x - p2);
            if (wt <= 0)
                continue;
            sum  += wt * src[av_clip(x, 0, w - 1)];
            wsum += wt;
        }
        dst[j] = sum / wsum;
    }
}

/* Chroma rows r0 and r1 of component c blended with weights (den - frac) / den and
 * frac / den (exact binary fractions) into row; row r0 itself when frac is 0. */
static float *vblend(const CspfixContext *s, const AVFrame *in, int c, int r0, int r1,
                     int frac, int den, int cw, SliceBuf *b, float *row)
{
    float *a = chroma_row(s, in, c, r0, frac ? r1 : -1, cw, b);

    if (!frac)
        return a;
    s->dsp.chroma.blend(row, a, chroma_row(s, in, c, r1, r0, cw, b), cw,
                 (float)(den - frac) / den, (float)frac / den);
    return row;
}

/* Chroma component c of input luma row y, upsampled to full resolution. */
static void load_chroma(const CspfixContext *s, const AVFrame *in, int c, int y, float *dst,
                        SliceBuf *b)
{
    const CspfixFormat *f = &s->fin;
    const int w = in->width, cw = AV_CEIL_RSHIFT(w, f->hsub);
    const int ch = AV_CEIL_RSHIFT(in->height, f->vsub);
    float *row = f->hsub ? b->t0 : dst, *v = NULL;

    if (f->hsub > 1 || f->vsub > 1) {
        if (f->vsub) {
            const int n = 1 << f->vsub, den = 2 * n;
            const int num = 2 * y - s->in_off_y2 * (n - 1), r = floor_div(num, den);
            v = vblend(s, in, c, av_clip(r, 0, ch - 1), av_clip(r + 1, 0, ch - 1),
                       num - r * den, den, cw, b, row);
            if (v != row)
                memcpy(row, v, cw * sizeof(*row));
        } else {
            ff_cspfix_read(&s->dsp, f, in, c, y, cw, row);
        }
        if (f->hsub)
            upsample_hn(dst, row, w, f->hsub, s->in_phase_x);
        else if (row != dst)
            memcpy(dst, row, w * sizeof(*row));
        return;
    }
    if (f->vsub && s->field) {
        /* interlaced: chroma row r belongs to field r & 1 and sits at luma row
         * 2r + off_y2 / 2; luma row y (field y & 1) is interpolated linearly between
         * the two nearest chroma rows of its own field, 4 luma rows apart. A frame of
         * one chroma row (height <= 2) has chroma in the top field only. */
        const int fld = ch > 1 ? y & 1 : 0, n = (ch - fld + 1) >> 1;
        const int pos8 = 2 * (y - 2 * fld) - s->in_off_y2;  /* 8 x field chroma row position */
        const int j0 = av_clip(pos8 >> 3, 0, n - 1), j1 = av_clip((pos8 >> 3) + 1, 0, n - 1);
        v = vblend(s, in, c, 2 * j0 + fld, 2 * j1 + fld, j0 != j1 ? pos8 & 7 : 0, 8, cw, b, row);
    } else if (f->vsub) {
        /* chroma row r sits at luma row 2r + off_y2 / 2: bilinear between two rows */
        const int pos4 = 2 * y - s->in_off_y2;        /* 4 x chroma row position */
        v = vblend(s, in, c, av_clip(pos4 >> 2, 0, ch - 1), av_clip((pos4 >> 2) + 1, 0, ch - 1),
                   pos4 & 3, 4, cw, b, row);
    } else {
        ff_cspfix_read(&s->dsp, f, in, c, y, cw, row);
    }
    if (v && f->hsub)
        row = v;
    else if (v && v != row)
        memcpy(row, v, cw * sizeof(*row));
    if (f->hsub) {
        row[-1] = row[0];
        row[cw] = row[cw - 1];
        s->dsp.chroma.upsample_h2(dst, row, w, s->in_phase_x);
    }
}

/* Input row y as three full-resolution float rows. */
static void load_row(const CspfixContext *s, const AVFrame *in, int y, float *const c[3],
                     SliceBuf *b, int skip0)
{
    const CspfixFormat *f = &s->fin;

    if (s->in_lut) {
        for (int i = 0; i < 3; i++)
            ff_cspfix_read_lut(&s->dsp, f, in, i, y, in->width, c[i],
                               s->in_lut + i * s->in_lut_stride, s->in_lut_stride - 16);
        return;
    }
    if (!skip0)
        ff_cspfix_read(&s->dsp, f, in, 0, y, in->width, c[0]);
    for (int i = 1; i < 3; i++) {
        if (f->nb_colour == 1)
            fill_row(c[i], in->width, f->depth ? 1 << (f->depth - 1) : 0.0f);
        else if (f->rgb || (!f->hsub && !f->vsub))
            ff_cspfix_read(&s->dsp, f, in, i, y, in->width, c[i]);
        else
            load_chroma(s, in, i, y, c[i], b);
    }
}

static const float *bias_row(const CspfixContext *s, int y, int c)
{
    if (s->fout.is_float || s->use_dither != DITHER_ORDERED)
        return s->bias_round;
    /* decorrelate the components: offset the pattern per component */
    return s->bias_dither[(y + 5 * c) & 15];
}

/* Error diffusion of row y of component c (rows of that component's plane). */
static void diffuse(const CspfixContext *s, SliceBuf *b, int c, int y, int w, float *row)
{
    const int band = c && !s->fout.rgb ? ED_BAND >> s->fout.vsub : ED_BAND;
    float *tmp;

    if (!(y % band)) {
        memset(b->ed[c][0], 0, (w + 2) * sizeof(float));
        memset(b->ed[c][1], 0, (w + 2) * sizeof(float));
    }
    s->dsp.io.dither_ed(row, w, b->ed[c][0], b->ed[c][1], s->lo[c], s->hi[c]);
    tmp = b->ed[c][0];
    b->ed[c][0] = b->ed[c][1];
    b->ed[c][1] = tmp;
    memset(b->ed[c][1], 0, (w + 2) * sizeof(float));
}

static void write_comp(const CspfixContext *s, SliceBuf *b, AVFrame *out, int c, int y, int w,
                       float *src)
{
    if (s->use_dither == DITHER_ED && !s->fout.is_float) {
        diffuse(s, b, c, y, w, src);
        ff_cspfix_write(&s->dsp, &s->fout, out, c, y, w, src, s->bias_zero, s->lo[c], s->hi[c]);
        return;
    }
    ff_cspfix_write(&s->dsp, &s->fout, out, c, y, w, src, bias_row(s, y, c), s->lo[c], s->hi[c]);
}

static void write_full(const CspfixContext *s, SliceBuf *b, AVFrame *out, int y, float *const c[3])
{
    const CspfixFormat *f = &s->fout;
    if (f->nb_colour == 1) {
        write_comp(s, b, out, 0, y, out->width, c[0]);
    } else if (f->rgb || (!f->hsub && !f->vsub)) {
        if (f->x2rgb10) {
            const float *bias = bias_row(s, y, 0);
            if (s->use_dither == DITHER_ED) {
                for (int i = 0; i < 3; i++)
                    diffuse(s, b, i, y, out->width, c[i]);
                bias = s->bias_zero;
            }
            ff_cspfix_write3(&s->dsp, f, out, y, out->width, c, bias, s->lo, s->hi);
        } else {
            for (int i = 0; i < 3; i++)
                write_comp(s, b, out, i, y, out->width, c[i]);
        }
    } else {
        write_comp(s, b, out, 0, y, out->width, c[0]);
    }
}

static void copy_alpha(const CspfixContext *s, const AVFrame *in, AVFrame *out, int y0, int y1,
                       float *row)
{
    const CspfixFormat *fi = &s->fin, *fo = &s->fout;
    const int w = out->width;
    const float maxo = fo->is_float ? 1.0f : (1 << fo->comp[3].depth) - 1;

    if (!fo->alpha)
        return;
    for (int y = y0; y < y1; y++) {
        if (fi->alpha) {
            const float maxi = fi->is_float ? 1.0f : (1 << fi->comp[3].depth) - 1;
            ff_cspfix_read(&s->dsp, fi, in, 3, y, w, row);
            if (maxi != maxo)
                s->dsp.stage.affine(row, w, maxo / maxi, 0.0f);
        } else {
            fill_row(row, w, maxo);
        }
        ff_cspfix_write(&s->dsp, fo, out, 3, y, w, row, s->bias_round, 0.0f, maxo);
    }
}

/* Row y of component c of a frame */
static uint8_t *comp_row(const AVFrame *f, const CspfixComp *c, int y)
{
    return f->data[c->plane] + (ptrdiff_t)y * f->linesize[c->plane] + c->offset;
}

/* Range/depth only: every component on its own, at its own resolution. */
static void convert_per_plane(const CspfixContext *s, const AVFrame *in, AVFrame *out,
                              int jobnr, int nb_jobs, SliceBuf *b)
{
    const CspfixOp *op = &s->plan.ops[0];

    for (int c = 0; c < s->fin.nb_colour; c++) {
        const int w = c ? AV_CEIL_RSHIFT(in->width, s->fin.hsub) : in->width;
        const int h = c ? AV_CEIL_RSHIFT(in->height, s->fin.vsub) : in->height;
        const float sc = s->plan.nb_ops ? op->m[c][c] : 1.0f;
        const float of = s->plan.nb_ops ? op->m[c][3] : 0.0f;
        int y0, y1;

        slice_rows(h, c && !s->fin.rgb ? ED_BAND >> s->fin.vsub : ED_BAND, jobnr, nb_jobs, &y0, &y1);
        if (s->map8) {
            const CspfixComp *ci = &s->fin.comp[c], *co = &s->fout.comp[c];
            for (int y = y0; y < y1; y++)
                s->dsp.io.map8(comp_row(out, co, y), comp_row(in, ci, y), w, &s->map8p[c]);
            continue;
        }
        if (s->map16) {
            const CspfixComp *ci = &s->fin.comp[c], *co = &s->fout.comp[c];
            for (int y = y0; y < y1; y++)
                s->dsp.io.map16((uint16_t *)comp_row(out, co, y), (const uint16_t *)comp_row(in, ci, y),
                             w, &s->map16p[c]);
            continue;
        }
        for (int y = y0; y < y1; y++) {
            ff_cspfix_read(&s->dsp, &s->fin, in, c, y, w, b->t0);
            s->dsp.stage.affine(b->t0, w, sc, of);
            write_comp(s, b, out, c, y, w, b->t0);
        }
    }
}

/* The frame rows of row y the fused first and last matrices use (own: y's output row
 * is this slice's to write). */
static void row_io(const CspfixContext *s, const AVFrame *in, AVFrame *out, int y, int own,
                   RowIO *io)
{
    const CspfixComp *ci = &s->fin.comp[0], *co = &s->fout.comp[0];

    *io = (RowIO){ NULL };
    if (s->fuse_in)
        io->src = comp_row(in, ci, y);
    if (s->fuse_out && own) {
        io->dst  = comp_row(out, co, y);
        io->bias = bias_row(s, y, 0);
    }
}

/* convert_chroma_own() from samples to samples: luma by yrow from the upsampled chroma,
 * chroma by crow at its own resolution; whole 16-sample blocks, the rest through the
 * kernels they fuse (the same operations). */
static void own_rows(const CspfixContext *s, const AVFrame *in, AVFrame *out, int jobnr,
                     int nb_jobs, SliceBuf *b)
{
    const CspfixDSPContext *dsp = &s->dsp;
    const CspfixComp *ci = s->fin.comp, *co = s->fout.comp;
    const float *m = s->stages[s->stage_start].m;
    const int k = s->own_rows - 1, w = in->width, cw = AV_CEIL_RSHIFT(w, s->fin.hsub);
    const int ch = AV_CEIL_RSHIFT(in->height, s->fin.vsub);
    float *const *c = b->ring[0];
    int y0, y1, n;

    slice_rows(in->height, ED_BAND, jobnr, nb_jobs, &y0, &y1);
    n = w & ~15;
    for (int y = y0; y < y1; y++) {
        const uint8_t *src = comp_row(in, &ci[0], y);
        uint8_t *dst = comp_row(out, &co[0], y);
        const float *bias = bias_row(s, y, 0);
        load_row(s, in, y, c, b, 1);
        if (n)
            dsp->fused.yrow[k](dst, src, c[1], c[2], n, m, bias, s->lo[0], s->hi[0]);
        if (w > n) {
            dsp->io.unpack[k](c[0] + n, src + ((ptrdiff_t)n << k), w - n);
            dsp->stage.matrix(c[0] + n, c[1] + n, c[2] + n, w - n, m);
            dsp->io.pack[k](dst + ((ptrdiff_t)n << k), c[0] + n, w - n, bias, s->lo[0], s->hi[0]);
        }
    }
    copy_alpha(s, in, out, y0, y1, b->t0);

    slice_rows(ch, ED_BAND >> s->fin.vsub, jobnr, nb_jobs, &y0, &y1);
    n = cw & ~15;
    for (int y = y0; y < y1; y++) {
        const uint8_t *cb = comp_row(in, &ci[1], y), *cr = comp_row(in, &ci[2], y);
        uint8_t *dcb = comp_row(out, &co[1], y), *dcr = comp_row(out, &co[2], y);
        const float *bcb = bias_row(s, y, 1), *bcr = bias_row(s, y, 2);
        if (n)
            dsp->fused.crow[k](dcb, dcr, cb, cr, n, &s->crow_p, bcb, bcr);
        if (cw > n) {
            fill_row(c[0] + n, cw - n, 0.0f);
            dsp->io.unpack[k](c[1] + n, cb + ((ptrdiff_t)n << k), cw - n);
            dsp->io.unpack[k](c[2] + n, cr + ((ptrdiff_t)n << k), cw - n);
            dsp->stage.matrix(c[0] + n, c[1] + n, c[2] + n, cw - n, m);
            dsp->io.pack[k](dcb + ((ptrdiff_t)n << k), c[1] + n, cw - n, bcb, s->lo[1], s->hi[1]);
            dsp->io.pack[k](dcr + ((ptrdiff_t)n << k), c[2] + n, cw - n, bcr, s->lo[2], s->hi[2]);
        }
    }
}

/* Linear plan, same subsampling: luma sees upsampled chroma, chroma stays at its resolution
 * (its rows of the matrix do not involve luma). */
static void convert_chroma_own(const CspfixContext *s, const AVFrame *in, AVFrame *out,
                               int jobnr, int nb_jobs, SliceBuf *b)
{
    const int w = in->width, cw = AV_CEIL_RSHIFT(w, s->fin.hsub);
    const int ch = AV_CEIL_RSHIFT(in->height, s->fin.vsub);
    float *const *c = b->ring[0];
    int y0, y1;

    if (s->own_rows) {
        own_rows(s, in, out, jobnr, nb_jobs, b);
        return;
    }
    slice_rows(in->height, ED_BAND, jobnr, nb_jobs, &y0, &y1);
    for (int y = y0; y < y1; y++) {
        RowIO io;
        row_io(s, in, out, y, 0, &io);
        load_row(s, in, y, c, b, !!io.src);
        run_stages(s, c[0], c[1], c[2], w, &io);
        write_comp(s, b, out, 0, y, w, c[0]);
    }
    copy_alpha(s, in, out, y0, y1, b->t0);

    slice_rows(ch, ED_BAND >> s->fin.vsub, jobnr, nb_jobs, &y0, &y1);
    fill_row(c[0], cw, 0.0f);
    for (int y = y0; y < y1; y++) {
        ff_cspfix_read(&s->dsp, &s->fin, in, 1, y, cw, c[1]);
        ff_cspfix_read(&s->dsp, &s->fin, in, 2, y, cw, c[2]);
        run_stages(s, c[0], c[1], c[2], cw, NULL);
        write_comp(s, b, out, 1, y, cw, c[1]);
        write_comp(s, b, out, 2, y, cw, c[2]);
    }
}

/* Luma delta row r of chroma (the integer path), cached in int32 row r & mask (mask 1:
 * two rows; 3: four, for interlaced frames). */
static const int32_t *delta_row(const CspfixContext *s, const AVFrame *in, int r,
                                int32_t *const rows[4], int tag[4], int mask)
{
    const CspfixComp *cb = &s->fin.comp[1], *cr = &s->fin.comp[2];
    const int cw = AV_CEIL_RSHIFT(in->width, 1), i = r & mask;

    if (tag[i] != r) {
        const uint8_t *u = in->data[cb->plane] + (ptrdiff_t)r * in->linesize[cb->plane] + cb->offset;
        const uint8_t *v = in->data[cr->plane] + (ptrdiff_t)r * in->linesize[cr->plane] + cr->offset;
        if (s->fin.depth > 8)
            s->dsp.yuvint.idelta16(rows[i], (const uint16_t *)u, (const uint16_t *)v, cw, &s->yuvint_p);
        else
            s->dsp.yuvint.idelta(rows[i], u, v, cw, s->yuvint_p.dc);
        rows[i][-1] = rows[i][0];
        rows[i][cw] = rows[i][cw - 1];
        tag[i] = r;
    }
    return rows[i];
}

/* Output chroma row y of the integer matrix-only path. */
static void yuvint_chroma_row(const CspfixContext *s, const AVFrame *in, AVFrame *out, int y,
                              int cw)
{
    const CspfixComp *ib = &s->fin.comp[1], *ir = &s->fin.comp[2];
    const CspfixComp *ob = &s->fout.comp[1], *ocr = &s->fout.comp[2];

    uint8_t *dcb = out->data[ob->plane] + (ptrdiff_t)y * out->linesize[ob->plane] + ob->offset;
    uint8_t *dcr = out->data[ocr->plane] + (ptrdiff_t)y * out->linesize[ocr->plane] + ocr->offset;
    const uint8_t *cb = in->data[ib->plane] + (ptrdiff_t)y * in->linesize[ib->plane] + ib->offset;
    const uint8_t *cr = in->data[ir->plane] + (ptrdiff_t)y * in->linesize[ir->plane] + ir->offset;

    if (s->fin.depth > 8)
        s->dsp.yuvint.ichroma16((uint16_t *)dcb, (uint16_t *)dcr, (const uint16_t *)cb,
                         (const uint16_t *)cr, cw, &s->yuvint_p);
    else
        s->dsp.yuvint.ichroma(dcb, dcr, cb, cr, cw, &s->yuvint_p);
}

/* convert_chroma_own() in integers: luma adds the interpolated chroma contribution
 * computed at chroma resolution; chroma is a 2x2 matrix. */
static void convert_yuvint(const CspfixContext *s, const AVFrame *in, AVFrame *out,
                           int jobnr, int nb_jobs, SliceBuf *b)
{
    const CspfixYuvInt *p = &s->yuvint_p;
    const CspfixComp *iy = &s->fin.comp[0], *oy = &s->fout.comp[0];
    const int w = in->width, cw = AV_CEIL_RSHIFT(w, 1);
    const int ch = AV_CEIL_RSHIFT(in->height, s->fin.vsub);
    /* delta rows cached by row & 1; interlaced 4:2:0 by row & 3 (two per field) */
    int32_t *const rows[4] = { (int32_t *)b->ring[0][0], (int32_t *)b->ring[0][1],
                               (int32_t *)b->ring[1][1], (int32_t *)b->ring[1][2] };
    /* the interpolated deltas of two luma rows: row y's are made before row y - 1's
     * luma, so iluma never reads deltas just stored (its loads straddle ivblend's
     * stores, and waiting for them to drain cost about a fifth of the frame) */
    int32_t *const d[2] = { (int32_t *)b->ring[0][2], (int32_t *)b->ring[1][0] };
    const int field = s->field && s->fin.vsub, mask = field ? 3 : 1;
    int tag[4] = { -1, -1, -1, -1 }, y0, y1, c0, c1, cnext;

    /* This slice's chroma rows are made as soon as the luma deltas have read them
     * (still in cache), the rest after the luma rows. */
    slice_rows(ch, ED_BAND >> s->fin.vsub, jobnr, nb_jobs, &c0, &c1);
    cnext = c0;
    slice_rows(in->height, ED_BAND, jobnr, nb_jobs, &y0, &y1);
    for (int y = y0; y <= y1; y++) {
        if (y < y1 && field) {
            /* interlaced: the rows and eighths of load_chroma(); even eighths are
             * quarters, odd ones go through ivblend8 (the same values, halved with
             * rounding) */
            const int fld = ch > 1 ? y & 1 : 0, n = (ch - fld + 1) >> 1;
            const int pos8 = 2 * (y - 2 * fld) - s->in_off_y2;
            const int j0 = av_clip(pos8 >> 3, 0, n - 1), j1 = av_clip((pos8 >> 3) + 1, 0, n - 1);
            const int ra = 2 * j0 + fld, rb = 2 * j1 + fld, frac = j0 != j1 ? pos8 & 7 : 0;
            const int32_t *da = delta_row(s, in, ra, rows, tag, mask);
            const int32_t *db = frac ? delta_row(s, in, rb, rows, tag, mask) : da;

            if (frac & 1)
                s->dsp.yuvint.ivblend8(d[y & 1], da, db, cw, frac);
            else
                s->dsp.yuvint.ivblend(d[y & 1], da, db, cw, frac >> 1);
            for (; cnext < c1 && cnext <= (frac ? rb : ra); cnext++)
                yuvint_chroma_row(s, in, out, cnext, cw);
        } else if (y < y1) {
            /* chroma row r sits at luma row 2r + off_y2 / 2 (as in load_chroma()) */
            const int pos4 = s->fin.vsub ? 2 * y - s->in_off_y2 : 4 * y;
            const int r0 = pos4 >> 2, frac = pos4 & 3;
            const int ra = av_clip(r0, 0, ch - 1), rb = av_clip(r0 + 1, 0, ch - 1);
            const int32_t *da = delta_row(s, in, ra, rows, tag, mask);
            const int32_t *db = frac ? delta_row(s, in, rb, rows, tag, mask) : da;

            s->dsp.yuvint.ivblend(d[y & 1], da, db, cw, frac);
            for (; cnext < c1 && cnext <= (frac ? rb : ra); cnext++)
                yuvint_chroma_row(s, in, out, cnext, cw);
        }
        if (y > y0) {
            const int yl = y - 1;
            uint8_t *dst = out->data[oy->plane] + (ptrdiff_t)yl * out->linesize[oy->plane] + oy->offset;
            const uint8_t *src = in->data[iy->plane] + (ptrdiff_t)yl * in->linesize[iy->plane] + iy->offset;
            if (s->fin.depth > 8)
                s->dsp.yuvint.iluma16((uint16_t *)dst, (const uint16_t *)src, d[yl & 1], w, s->in_phase_x, p);
            else
                s->dsp.yuvint.iluma(dst, src, d[yl & 1], w, s->in_phase_x, p);
        }
    }
    copy_alpha(s, in, out, y0, y1, b->t0);
    for (; cnext < c1; cnext++)
        yuvint_chroma_row(s, in, out, cnext, cw);
}

/* Horizontal 2:1 chroma filter; sets the edges the kernels read. */
static void downsample(const CspfixContext *s, float *dst, float *src, int w)
{
    if (s->fout.hsub > 1) {
        downsample_hn(dst, src, w, s->fout.hsub, s->out_phase_x);
        return;
    }
    src[-1]    = src[0];
    src[w]     = src[w - 1];
    src[w + 1] = src[w - 1];
    s->dsp.chroma.downsample_h2(dst, src, w, s->out_phase_x);
}

/*
 * Taps of output chroma row k of an interlaced 4:2:0 frame: the full-resolution rows of
 * field k & 1 with a tent of half-width 2 field rows (4 luma rows) centred on the chroma
 * position 2k + off_y2 / 2, edges repeated within the field. Weights in sixteenths:
 * 8 - |2 y - (4 k + off_y2)| (left siting: 3 7 5 1 in the top field, 1 5 7 3 in the
 * bottom). Returns the number of taps (3 or 4).
 */
static int field_taps(int k, int off_y2, int h, int rows[4], float wt[4])
{
    const int fld = k & 1, c2 = 4 * k + off_y2;
    const int last = (h - 1 - fld) & 1 ? h - 2 : h - 1;
    int n = 0;

    for (int y = ((c2 - 7) >> 1) - 1; 2 * y < c2 + 8; y++) {
        const int d = FFABS(2 * y - c2);
        if ((y & 1) != fld || d >= 8)
            continue;
        rows[n] = av_clip(y, fld, last);
        wt[n++] = (8 - d) * 0.0625f;
    }
    return n;
}

/* Output chroma row k of a vertically subsampled output, from the ring. */
static void store_chroma_v(const CspfixContext *s, AVFrame *out, int k, SliceBuf *b)
{
    const int w = out->width, h = out->height, cw = AV_CEIL_RSHIFT(w, s->fout.hsub);
    const int base = 2 * k + (s->out_off_y2 == 2);
    int rows[4], n = 0;
    float wt[4];

    if (s->field)
        n = field_taps(k, s->out_off_y2, h, rows, wt);
    for (int i = 1; i < 3; i++) {
        const float *r[4];
        if (s->field) {
            /* ((r0 w0 + r1 w1) + r2 w2) + r3 w3 by the blend kernel (x * 1 is x) */
            for (int j = 0; j < n; j++)
                r[j] = b->ring[rows[j] & 7][i];
            s->dsp.chroma.blend(b->t1, r[0], r[1], w, wt[0], wt[1]);
            for (int j = 2; j < n; j++)
                s->dsp.chroma.blend(b->t1, b->t1, r[j], w, 1.0f, wt[j]);
        } else {
            for (int j = 0; j < 4; j++)
                r[j] = b->ring[av_clip(base - 1 + j, 0, h - 1) & 3][i];
            if (s->out_off_y2 == 1)
                s->dsp.chroma.filter4(b->t1, r[0], r[1], r[2], r[3], w);
            else
                s->dsp.chroma.filter3(b->t1, r[0], r[1], r[2], w);
        }
        if (s->fout.hsub) {
            downsample(s, b->t2, b->t1, w);
            write_comp(s, b, out, i, k, cw, b->t2);
        } else {
            write_comp(s, b, out, i, k, cw, b->t1);
        }
    }
}

/* Output chroma subsampled vertically by more than 2 (4:1:0): each slice makes its
 * luma rows, then each chroma row from the full-resolution rows under its tent
 * (made again: the format is rare, the code simple). */
static void convert_sub_vn(const CspfixContext *s, const AVFrame *in, AVFrame *out,
                           int jobnr, int nb_jobs, SliceBuf *b)
{
    const CspfixFormat *fo = &s->fout;
    const int w = in->width, h = in->height, n = 1 << fo->vsub;
    const int ch = AV_CEIL_RSHIFT(h, fo->vsub), cw = AV_CEIL_RSHIFT(w, fo->hsub);
    const int o2 = s->out_off_y2 * (n - 1);
    float *const *c = b->ring[0];
    float *const acc[2] = { b->ring[1][0], b->ring[1][1] };
    int k0, k1, y0, y1;

    slice_rows(ch, ED_BAND >> fo->vsub, jobnr, nb_jobs, &k0, &k1);
    y0 = FFMIN(k0 * n, h);
    y1 = FFMIN(k1 * n, h);
    for (int y = y0; y < y1; y++) {
        load_row(s, in, y, c, b, 0);
        run_stages(s, c[0], c[1], c[2], w, NULL);
        write_full(s, b, out, y, c);
    }
    copy_alpha(s, in, out, y0, y1, b->t0);

    for (int k = k0; k < k1; k++) {
        const int p2 = 2 * n * k + o2;
        int wsum = 0;
        fill_row(acc[0], w, 0.0f);
        fill_row(acc[1], w, 0.0f);
        for (int y = floor_div(p2 - 2 * n, 2); y <= (p2 + 2 * n) / 2; y++) {
            const int wt = 2 * n - FFABS(2 * y - p2);
            if (wt <= 0)
                continue;
            load_row(s, in, av_clip(y, 0, h - 1), c, b, 0);
            run_stages(s, c[0], c[1], c[2], w, NULL);
            for (int i = 0; i < 2; i++)
                for (int x = 0; x < w; x++)
                    acc[i][x] += wt * c[i + 1][x];
            wsum += wt;
        }
        for (int i = 0; i < 2; i++) {
            for (int x = 0; x < w; x++)
                acc[i][x] /= wsum;
            if (fo->hsub) {
                downsample_hn(b->t1, acc[i], w, fo->hsub, s->out_phase_x);
                write_comp(s, b, out, i + 1, k, cw, b->t1);
            } else {
                write_comp(s, b, out, i + 1, k, cw, acc[i]);
            }
        }
    }
}

static int convert_slice(AVFilterContext *ctx, void *arg, int jobnr, int nb_jobs)
{
    CspfixContext *s = ctx->priv;
    ThreadData *td = arg;
    const AVFrame *in = td->in;
    AVFrame *out = td->out;
    const CspfixFormat *fo = &s->fout;
    const int w = in->width, h = in->height;
    const int sub_out = fo->nb_colour == 3 && !fo->rgb && (fo->hsub || fo->vsub);
    SliceBuf b;

    slice_buf(s, jobnr, &b);
    if (s->per_plane) {
        convert_per_plane(s, in, out, jobnr, nb_jobs, &b);
    } else if (s->yuvint) {
        convert_yuvint(s, in, out, jobnr, nb_jobs, &b);
        return 0;
    } else if (s->chroma_own) {
        convert_chroma_own(s, in, out, jobnr, nb_jobs, &b);
        return 0;
    } else if (sub_out && fo->vsub > 1) {
        convert_sub_vn(s, in, out, jobnr, nb_jobs, &b);
        return 0;
    } else if (!fo->vsub || !sub_out) {
        int y0, y1;
        slice_rows(h, ED_BAND, jobnr, nb_jobs, &y0, &y1);
        for (int y = y0; y < y1; y++) {
            float *const *c = b.ring[0];
            RowIO io;
            row_io(s, in, out, y, 1, &io);
            load_row(s, in, y, c, &b, !!io.src);
            run_stages(s, c[0], c[1], c[2], w, &io);
            if (!io.dst)
                write_full(s, &b, out, y, c);
            if (sub_out) {
                const int cw = AV_CEIL_RSHIFT(w, fo->hsub);
                for (int i = 1; i < 3; i++) {
                    downsample(s, b.t1, c[i], w);
                    write_comp(s, &b, out, i, y, cw, b.t1);
                }
            }
        }
    } else {
        /* 4:2:0 output: chroma row k filters full-resolution rows 2k-1 .. 2k+2, or per
         * field (field_taps()) rows 2k-3 .. 2k+4 */
        const int ch = AV_CEIL_RSHIFT(h, 1), mask = s->field ? 7 : 3;
        const int before = s->field ? 3 : 1, after = s->field ? 4 : 2;
        int k0, k1, own0, own1, next;

        slice_rows(ch, ED_BAND / 2, jobnr, nb_jobs, &k0, &k1);
        own0 = 2 * k0;
        own1 = FFMIN(2 * k1, h);
        next = FFMAX(own0 - before, 0);

        for (int k = k0; k < k1; k++) {
            const int need = FFMIN(2 * k + after, h - 1);
            for (; next <= need; next++) {
                float *const *c = b.ring[next & mask];
                const int own = next >= own0 && next < own1;
                RowIO io;
                row_io(s, in, out, next, own, &io);
                load_row(s, in, next, c, &b, !!io.src);
                run_stages(s, c[0], c[1], c[2], w, &io);
                if (own && !io.dst)
                    write_full(s, &b, out, next, c);
            }
            store_chroma_v(s, out, k, &b);
        }
        copy_alpha(s, in, out, own0, own1, b.t0);
        return 0;
    }
    {
        int y0, y1;
        slice_rows(h, ED_BAND, jobnr, nb_jobs, &y0, &y1);
        copy_alpha(s, in, out, y0, y1, b.t0);
    }
    return 0;
}

static int alloc_scratch(AVFilterContext *ctx, int w)
{
    CspfixContext *s = ctx->priv;

    s->row_stride     = FFALIGN(w, 16) + 16;
    s->nb_threads     = FFMAX(1, ff_filter_get_nb_threads(ctx));
    /* with threads, several slices per thread: a thread the system delays takes
     * fewer of them instead of holding up the frame */
    s->max_jobs       = s->nb_threads > 1 ? 4 * s->nb_threads : 1;
    /* + 16 floats before the rows and 32 after: kernels read src[-1], up to src[w + 16] */
    s->scratch_stride = SCRATCH_ROWS * s->row_stride + 48;
    s->scratch_w      = w;
    av_freep(&s->scratch);
    s->scratch = av_calloc((size_t)s->max_jobs * s->scratch_stride, sizeof(float));
    return s->scratch ? 0 : AVERROR(ENOMEM);
}

static void set_mdm_primaries(AVMasteringDisplayMetadata *m, enum AVColorPrimaries prim)
{
    const AVColorPrimariesDesc *d = av_csp_primaries_desc_from_id(prim);
    if (!d)
        return;
    m->display_primaries[0][0] = d->prim.r.x;
    m->display_primaries[0][1] = d->prim.r.y;
    m->display_primaries[1][0] = d->prim.g.x;
    m->display_primaries[1][1] = d->prim.g.y;
    m->display_primaries[2][0] = d->prim.b.x;
    m->display_primaries[2][1] = d->prim.b.y;
    m->white_point[0]          = d->wp.x;
    m->white_point[1]          = d->wp.y;
    m->has_primaries           = 1;
}

/* Dynamic HDR metadata (per-scene tone mapping hints for the source's transfer and peak). */
static void remove_dynamic_hdr(AVFrame *out)
{
    av_frame_remove_side_data(out, AV_FRAME_DATA_DYNAMIC_HDR_PLUS);
    av_frame_remove_side_data(out, AV_FRAME_DATA_DYNAMIC_HDR_VIVID);
    av_frame_remove_side_data(out, AV_FRAME_DATA_DOVI_RPU_BUFFER);
    av_frame_remove_side_data(out, AV_FRAME_DATA_DOVI_METADATA);
}

/*
 * Side data of the output, per type (doc/cspfix.texi, "Side data"):
 * - ICC profile: describes the RGB colour (primaries and transfer): dropped when either
 *   changes, kept otherwise;
 * - mastering display, content light level: removed for SDR output; created for SDR input
 *   made HDR; on HDR -> HDR kept (the mastering display's primaries describe that display,
 *   not the container), the luminances lowered to the peak a tone curve compressed to;
 * - HDR10+, HDR Vivid, Dolby Vision: removed when the transfer changes or a tone curve
 *   runs (they steer tone mapping of the source signal);
 * - everything else (ambient viewing environment, captions, ...) passes through.
 */
static int output_side_data(const CspfixContext *s, AVFrame *out)
{
    const int hdr_in = is_hdr_trc(s->in_desc.trc), tm_peak = s->plan_tm_peak;
    AVFrameSideData *sd;

    if (s->in_desc.prim != s->out_desc.prim || s->in_desc.trc != s->out_desc.trc)
        av_frame_remove_side_data(out, AV_FRAME_DATA_ICC_PROFILE);
    if (s->in_desc.trc != s->out_desc.trc || s->plan_tone_mapped)
        remove_dynamic_hdr(out);

    if (!is_hdr_trc(s->out_desc.trc)) {
        /* HDR metadata describes PQ/HLG signals; it is wrong for SDR output */
        av_frame_remove_side_data(out, AV_FRAME_DATA_MASTERING_DISPLAY_METADATA);
        av_frame_remove_side_data(out, AV_FRAME_DATA_CONTENT_LIGHT_LEVEL);
        return 0;
    }
    if (!hdr_in) {
        /* SDR content now peaks at target_peak (SDR white) in the output gamut; an HLG
         * signal is made for the 1000 cd/m2 reference display */
        const double peak = s->target_peak > 0.0 ? s->target_peak : CSPFIX_HDR_TARGET_DEFAULT;
        const double display = s->out_desc.trc == AVCOL_TRC_ARIB_STD_B67 ? CSPFIX_HLG_LW : peak;
        AVMasteringDisplayMetadata *m;
        AVContentLightMetadata *c;
        av_frame_remove_side_data(out, AV_FRAME_DATA_MASTERING_DISPLAY_METADATA);
        av_frame_remove_side_data(out, AV_FRAME_DATA_CONTENT_LIGHT_LEVEL);
        if (!(m = av_mastering_display_metadata_create_side_data(out)) ||
            !(c = av_content_light_metadata_create_side_data(out)))
            return AVERROR(ENOMEM);
        set_mdm_primaries(m, s->out_desc.prim);
        m->max_luminance = av_d2q(display, 100000);
        m->min_luminance = av_make_q(0, 1);
        m->has_luminance = 1;
        c->MaxCLL  = lrint(peak);
        c->MaxFALL = 0; /* unknown */
        return 0;
    }
    if (tm_peak > 0 && (sd = av_frame_get_side_data(out, AV_FRAME_DATA_MASTERING_DISPLAY_METADATA))) {
        AVMasteringDisplayMetadata *m = (AVMasteringDisplayMetadata *)sd->data;
        if (m->has_luminance && av_q2d(m->max_luminance) > tm_peak)
            m->max_luminance = av_make_q(tm_peak, 1);
    }
    if (tm_peak > 0 && (sd = av_frame_get_side_data(out, AV_FRAME_DATA_CONTENT_LIGHT_LEVEL))) {
        AVContentLightMetadata *c = (AVContentLightMetadata *)sd->data;
        c->MaxCLL  = FFMIN(c->MaxCLL, tm_peak);
        c->MaxFALL = FFMIN(c->MaxFALL, tm_peak);
    }
    return 0;
}

static int tag_output(const CspfixContext *s, AVFrame *out)
{
    out->color_primaries = s->out_desc.prim;
    out->color_trc       = s->out_desc.trc;
    out->colorspace      = s->out_desc.csp;
    out->color_range     = s->out_desc.range;
    if (s->fout.hsub || s->fout.vsub)
        out->chroma_location = s->out_loc;
    return output_side_data(s, out);
}

/* Frames libavfilter lets through to us: hardware surfaces, and a size the link
 * was not configured for (the output buffer has the link's size). */
static int check_frame(AVFilterContext *ctx, const AVFilterLink *inlink, const AVFrame *in)
{
    const AVPixFmtDescriptor *d = av_pix_fmt_desc_get(in->format);

    if ((d && (d->flags & AV_PIX_FMT_FLAG_HWACCEL)) || in->hw_frames_ctx) {
        av_log(ctx, AV_LOG_ERROR, "Hardware frames (%s) are not supported; download them "
               "first (hwdownload,format=...).\n", d ? d->name : "unknown format");
        return AVERROR(ENOSYS);
    }
    if (in->width != inlink->w || in->height != inlink->h) {
        av_log(ctx, AV_LOG_ERROR, "Frame size %dx%d differs from the configured %dx%d; a size "
               "change needs the filter graph to be reconfigured.\n",
               in->width, in->height, inlink->w, inlink->h);
        return AVERROR(EINVAL);
    }
    return 0;
}

/* Zero every plane: padding bits and words shared by components (see CspfixFormat.clear) */
static void clear_frame(AVFrame *f)
{
    const AVPixFmtDescriptor *d = av_pix_fmt_desc_get(f->format);
    int planes = 0;

    for (int c = 0; c < d->nb_components; c++)
        planes = FFMAX(planes, d->comp[c].plane + 1);
    for (int p = 0; p < planes; p++) {
        const int h = p == 1 || p == 2 ? AV_CEIL_RSHIFT(f->height, d->log2_chroma_h) : f->height;
        for (int y = 0; y < h; y++)
            memset(f->data[p] + (ptrdiff_t)y * f->linesize[p], 0, FFABS(f->linesize[p]));
    }
}

static int filter_frame(AVFilterLink *inlink, AVFrame *in)
{
    AVFilterContext *ctx = inlink->dst;
    CspfixContext *s = ctx->priv;
    AVFilterLink *outlink = ctx->outputs[0];
    ThreadData td;
    AVFrame *out;
    int ret, nb_jobs;

    if ((ret = check_frame(ctx, inlink, in)) < 0 ||
        (ret = update_plan(ctx, in, outlink->format)) < 0) {
        av_frame_free(&in);
        return ret;
    }

    if (s->passthrough) {
        if ((ret = tag_output(s, in)) < 0) {
            av_frame_free(&in);
            return ret;
        }
        return ff_filter_frame(outlink, in);
    }

    out = ff_get_video_buffer(outlink, outlink->w, outlink->h);
    if (!out) {
        av_frame_free(&in);
        return AVERROR(ENOMEM);
    }
    if ((ret = av_frame_copy_props(out, in)) < 0) {
        av_frame_free(&in);
        av_frame_free(&out);
        return ret;
    }
    if (s->fout.clear)
        clear_frame(out);
    if ((ret = tag_output(s, out)) < 0) {
        av_frame_free(&in);
        av_frame_free(&out);
        return ret;
    }

    if (s->nb_threads < 1 || s->scratch_w < in->width) {
        if ((ret = alloc_scratch(ctx, in->width)) < 0) {
            av_frame_free(&in);
            av_frame_free(&out);
            return ret;
        }
    }
    td.in  = in;
    td.out = out;
    /* the integer and per-plane paths take well under a millisecond a frame:
     * there, each extra slice's wake-up and edge rows cost more than the
     * balance it buys (1080p, 2 threads: 8 slices 0.200 ms, 2 slices 0.167) */
    nb_jobs = s->per_plane || s->yuvint ? s->nb_threads : s->max_jobs;
    nb_jobs = FFMIN(nb_jobs, (in->height + ED_BAND - 1) / ED_BAND);
    ff_filter_execute(ctx, convert_slice, &td, NULL, nb_jobs);

    av_frame_free(&in);
    return ff_filter_frame(outlink, out);
}

/* ---- negotiation ---- */

static int query_formats(const AVFilterContext *ctx, AVFilterFormatsConfig **cfg_in,
                         AVFilterFormatsConfig **cfg_out)
{
    const CspfixContext *s = ctx->priv;
    AVFilterFormats *formats;
    int ret, rng, csp = s->csp;

    if (s->all && csp == AVCOL_SPC_UNSPECIFIED)
        csp = all_presets[s->all][2];

    if (s->format != AV_PIX_FMT_NONE && ff_cspfix_unsupported_reason(s->format)) {
        av_log((void *)ctx, AV_LOG_ERROR, "Unsupported output format %s: %s.\n",
               av_get_pix_fmt_name(s->format), ff_cspfix_unsupported_reason(s->format));
        return AVERROR(EINVAL);
    }

    /* Colour spaces and ranges: any on the input; on the output the one the
     * options fix, else any (negotiation then keeps the input's value when the
     * consumer takes it, else picks one the consumer takes and config_output()
     * makes it the target: no auto-inserted scale converts after us). */
    if (s->format != AV_PIX_FMT_NONE && is_rgb_fmt(s->format))
        csp = AVCOL_SPC_RGB;
    if ((ret = ff_formats_ref(ff_all_color_spaces(), &cfg_in[0]->color_spaces)) < 0)
        return ret;
    if ((ret = ff_formats_ref(csp != AVCOL_SPC_UNSPECIFIED ?
                              ff_make_formats_list_singleton(csp) : ff_all_color_spaces(),
                              &cfg_out[0]->color_spaces)) < 0)
        return ret;
    rng = s->range;
    if (rng == AVCOL_RANGE_UNSPECIFIED && s->format != AV_PIX_FMT_NONE &&
        is_rgb_fmt(s->format))
        rng = AVCOL_RANGE_JPEG;
    if ((ret = ff_formats_ref(ff_all_color_ranges(), &cfg_in[0]->color_ranges)) < 0)
        return ret;
    if ((ret = ff_formats_ref(rng != AVCOL_RANGE_UNSPECIFIED ?
                              ff_make_formats_list_singleton(rng) : ff_all_color_ranges(),
                              &cfg_out[0]->color_ranges)) < 0)
        return ret;

    /* Pixel formats: every one but hardware surfaces on the input, so that no
     * converter is inserted before us (config_input() refuses the few the filter
     * cannot take, naming them); on the output every supported one, in a list of
     * its own: negotiation keeps the input's format when the consumer takes it,
     * else picks the closest one it takes, and we convert to it. */
    if ((ret = ff_formats_ref(ff_formats_pixdesc_filter(0, AV_PIX_FMT_FLAG_HWACCEL),
                              &cfg_in[0]->formats)) < 0)
        return ret;
    if (s->format != AV_PIX_FMT_NONE)
        formats = ff_make_formats_list_singleton(s->format);
    else
        formats = ff_make_pixel_format_list(ff_cspfix_pix_fmts());
    if (!formats)
        return AVERROR(ENOMEM);
    return ff_formats_ref(formats, &cfg_out[0]->formats);
}

static int config_input(AVFilterLink *inlink)
{
    AVFilterContext *ctx = inlink->dst;
    const char *why = ff_cspfix_unsupported_reason(inlink->format);

    if (why) {
        av_log(ctx, AV_LOG_ERROR, "Unsupported input pixel format %s: %s.\n",
               av_get_pix_fmt_name(inlink->format), why);
        return AVERROR(ENOSYS);
    }
    return 0;
}

/* "RGB", "Y'CbCr" or "gray", and the bits of a pixel format */
static const char *model_name(enum AVPixelFormat fmt)
{
    const AVPixFmtDescriptor *d = av_pix_fmt_desc_get(fmt);
    return !d ? "?" : d->flags & AV_PIX_FMT_FLAG_RGB ? "RGB" :
           d->nb_components <= 2 ? "gray" : "Y'CbCr";
}

static int fmt_bits(enum AVPixelFormat fmt)
{
    const AVPixFmtDescriptor *d = av_pix_fmt_desc_get(fmt);
    return d ? d->comp[0].depth : 0;
}

/* What an auto-inserted converter between a and b changes: 0 if nothing we care for. */
static int converter_changes(enum AVPixelFormat a, enum AVColorRange ra,
                             enum AVPixelFormat b, enum AVColorRange rb, char *buf, int size)
{
    int n = 0;

    buf[0] = 0;
    if (strcmp(model_name(a), model_name(b)))
        n += snprintf(buf + n, size - n, "%scolour model %s -> %s", n ? ", " : "",
                      model_name(a), model_name(b));
    if (n < size && fmt_bits(a) != fmt_bits(b))
        n += snprintf(buf + n, size - n, "%sdepth %d -> %d bits", n ? ", " : "",
                      fmt_bits(a), fmt_bits(b));
    if (n < size && ra != rb && ra != AVCOL_RANGE_UNSPECIFIED && rb != AVCOL_RANGE_UNSPECIFIED)
        n += snprintf(buf + n, size - n, "%srange %s -> %s", n ? ", " : "",
                      av_color_range_name(ra), av_color_range_name(rb));
    return n > 0;
}

static int is_auto_scale(const AVFilterContext *f)
{
    return f && f->nb_inputs == 1 && f->nb_outputs == 1 && f->name &&
           !strncmp(f->name, "auto_scale", 10);
}

/* After negotiation: a value the consumer forced on a field the options leave
 * free becomes the target; a value the options fix that the consumer cannot
 * take is converted again by an auto-inserted scale, which is said loudly. */
static void negotiated_target(AVFilterContext *ctx)
{
    CspfixContext *s = ctx->priv;
    AVFilterLink *inlink = ctx->inputs[0], *outlink = ctx->outputs[0];
    const AVFilterContext *next = outlink->dst;
    int csp_free = s->csp == AVCOL_SPC_UNSPECIFIED && !s->all;

    s->neg_csp   = AVCOL_SPC_UNSPECIFIED;
    s->neg_range = AVCOL_RANGE_UNSPECIFIED;
    if (csp_free && !is_rgb_fmt(outlink->format) &&
        outlink->colorspace != AVCOL_SPC_UNSPECIFIED && outlink->colorspace != AVCOL_SPC_RGB &&
        outlink->colorspace != inlink->colorspace)
        s->neg_csp = outlink->colorspace;
    if (s->range == AVCOL_RANGE_UNSPECIFIED &&
        outlink->color_range != AVCOL_RANGE_UNSPECIFIED &&
        outlink->color_range != inlink->color_range)
        s->neg_range = outlink->color_range;
    if (s->neg_csp != AVCOL_SPC_UNSPECIFIED || s->neg_range != AVCOL_RANGE_UNSPECIFIED)
        av_log(ctx, AV_LOG_VERBOSE, "Negotiated (not set by options): the output link "
               "takes %s %s range, converting to it.\n",
               av_color_space_name(outlink->colorspace), av_color_range_name(outlink->color_range));

    if (is_auto_scale(inlink->src)) {
        const AVFilterLink *l = inlink->src->inputs[0];
        char what[256];
        if (converter_changes(l->format, l->color_range, inlink->format, inlink->color_range,
                              what, sizeof(what)))
            av_log(ctx, AV_LOG_WARNING, "The auto-inserted %s before cspfix converts %s "
                   "(%s). Give cspfix the frames as they are (no format filter or fixed "
                   "format before it) to let it do the conversion.\n",
                   inlink->src->name, av_get_pix_fmt_name(l->format), what);
    }
    if (is_auto_scale(next)) {
        const AVFilterLink *l = next->outputs[0];
        char what[256];
        /* the range is said below when the options fixed it */
        if (converter_changes(outlink->format, outlink->color_range, l->format,
                              outlink->color_range, what, sizeof(what)))
            av_log(ctx, AV_LOG_WARNING, "The auto-inserted %s after cspfix converts its %s "
                   "output to %s (%s). Leave format (and range) unset, or set them to what "
                   "the consumer takes, to let cspfix do the conversion.\n",
                   next->name, av_get_pix_fmt_name(outlink->format),
                   av_get_pix_fmt_name(l->format), what);
        if ((s->range != AVCOL_RANGE_UNSPECIFIED && l->color_range != outlink->color_range) ||
            (!csp_free && l->colorspace != outlink->colorspace))
            av_log(ctx, AV_LOG_WARNING, "The output is %s %s range as set, but what follows "
                   "only takes %s %s range: the auto-inserted %s converts it again. Leave "
                   "space/range unset to let cspfix convert to what the consumer takes.\n",
                   av_color_space_name(outlink->colorspace), av_color_range_name(outlink->color_range),
                   av_color_space_name(l->colorspace), av_color_range_name(l->color_range),
                   next->name);
    }
}

static int config_output(AVFilterLink *outlink)
{
    AVFilterContext *ctx = outlink->src;
    AVFilterLink *inlink = ctx->inputs[0];
    CspfixContext *s = ctx->priv;

    outlink->w = inlink->w;
    outlink->h = inlink->h;
    outlink->sample_aspect_ratio = inlink->sample_aspect_ratio;
    s->have_plan  = 0;
    s->have_first = 0;
    negotiated_target(ctx);
    return alloc_scratch(ctx, inlink->w);
}

/* A GStreamer colorimetry string fills the fields the options left unset. */
static int apply_colorimetry(AVFilterContext *ctx, const char *str, const char *opt,
                             int overwrite, int *prim, int *trc, int *csp, int *range)
{
    enum AVColorPrimaries p;
    enum AVColorTransferCharacteristic t;
    enum AVColorSpace c;
    enum AVColorRange r;
    const char *why = NULL;
    int ret = ff_cspfix_from_gst_colorimetry(str, &p, &t, &c, &r, &why);

    if (ret < 0) {
        av_log(ctx, AV_LOG_ERROR, "%s=%s: %s\n", opt, str,
               why ? why : "not a GStreamer colorimetry (a name such as bt709, bt2100-pq, "
                           "sRGB, or range:matrix:transfer:primaries)");
        return ret;
    }
    if (overwrite || *prim == AVCOL_PRI_UNSPECIFIED)    *prim  = p;
    if (overwrite || *trc == AVCOL_TRC_UNSPECIFIED)     *trc   = t;
    if (overwrite || *csp == AVCOL_SPC_UNSPECIFIED)     *csp   = c;
    if (overwrite || *range == AVCOL_RANGE_UNSPECIFIED) *range = r;
    return 0;
}

static int parse_v4l2(AVFilterContext *ctx)
{
    CspfixContext *s = ctx->priv;
    static const struct {
        const char *opt;
        size_t str, val;
        int (*parse)(const char *name);
    } fields[] = {
        { "v4l2_colorspace",   offsetof(CspfixContext, v4l2_csp),   offsetof(CspfixV4L2, colorspace),   ff_cspfix_v4l2_colorspace_from_name },
        { "v4l2_ycbcr_enc",    offsetof(CspfixContext, v4l2_enc),   offsetof(CspfixV4L2, ycbcr_enc),    ff_cspfix_v4l2_ycbcr_enc_from_name },
        { "v4l2_quantization", offsetof(CspfixContext, v4l2_quant), offsetof(CspfixV4L2, quantization), ff_cspfix_v4l2_quantization_from_name },
        { "v4l2_xfer_func",    offsetof(CspfixContext, v4l2_xfer),  offsetof(CspfixV4L2, xfer_func),    ff_cspfix_v4l2_xfer_func_from_name },
    };

    memset(&s->v4l2, 0, sizeof(s->v4l2));
    s->use_v4l2 = 0;
    for (int i = 0; i < FF_ARRAY_ELEMS(fields); i++) {
        const char *str = *(char **)((uint8_t *)s + fields[i].str);
        int v;
        if (!str)
            continue;
        if ((v = fields[i].parse(str)) < 0) {
            av_log(ctx, AV_LOG_ERROR, "Unknown %s value '%s' (the V4L2 enum names without "
                   "prefix, in lower case, e.g. smpte170m, rec709, srgb, bt2020).\n",
                   fields[i].opt, str);
            return AVERROR(EINVAL);
        }
        *(int *)((uint8_t *)&s->v4l2 + fields[i].val) = v;
        s->use_v4l2 = 1;
    }
    return 0;
}

static av_cold int init(AVFilterContext *ctx)
{
    CspfixContext *s = ctx->priv;
    int ret;

    s->neg_csp   = AVCOL_SPC_UNSPECIFIED;
    s->neg_range = AVCOL_RANGE_UNSPECIFIED;
    s->logged_field = -1;
    if ((ret = parse_v4l2(ctx)) < 0)
        return ret;
    if (s->icolorimetry &&
        (ret = apply_colorimetry(ctx, s->icolorimetry, "icolorimetry", 0,
                                 &s->iprim, &s->itrc, &s->icsp, &s->irange)) < 0)
        return ret;
    if (s->colorimetry &&
        (ret = apply_colorimetry(ctx, s->colorimetry, "colorimetry", 0,
                                 &s->prim, &s->trc, &s->csp, &s->range)) < 0)
        return ret;
    /* negotiation would refuse it without naming it */
    if (s->csp == AVCOL_SPC_RESERVED) {
        av_log(ctx, AV_LOG_ERROR, "Unsupported output matrix (colorspace): reserved.\n");
        return AVERROR(EINVAL);
    }

    ff_cspfix_dsp_init(&s->dsp);
    for (int x = 0; x < 16; x++)
        s->bias_round[x] = 0.5f;
    /* 16x16 Bayer matrix: thresholds (b + 0.5) / 256 */
    for (int y = 0; y < 16; y++) {
        for (int x = 0; x < 16; x++) {
            int b = 0;
            for (int bit = 3; bit >= 0; bit--) {
                int xb = (x >> (3 - bit)) & 1, yb = (y >> (3 - bit)) & 1;
                b |= (((xb ^ yb) << 1) | yb) << (2 * bit);
            }
            s->bias_dither[y][x] = (b + 0.5f) / 256.0f;
        }
    }
    return 0;
}

static av_cold void uninit(AVFilterContext *ctx)
{
    CspfixContext *s = ctx->priv;
    free_stages(s);
    av_freep(&s->scratch);
}

#define OFFSET(x) offsetof(CspfixContext, x)
#define FLAGS AV_OPT_FLAG_FILTERING_PARAM | AV_OPT_FLAG_VIDEO_PARAM
#define RFLAGS FLAGS | AV_OPT_FLAG_RUNTIME_PARAM
#define C(name, val, u) { name, NULL, 0, AV_OPT_TYPE_CONST, { .i64 = val }, INT_MIN, INT_MAX, FLAGS, .unit = u }

#define PRIM_CONSTS(u)                                                                   \
    C("unknown", AVCOL_PRI_UNSPECIFIED, u), C("unspecified", AVCOL_PRI_UNSPECIFIED, u),   \
    C("bt709", AVCOL_PRI_BT709, u), C("bt470m", AVCOL_PRI_BT470M, u),                     \
    C("bt470bg", AVCOL_PRI_BT470BG, u), C("smpte170m", AVCOL_PRI_SMPTE170M, u),           \
    C("smpte240m", AVCOL_PRI_SMPTE240M, u), C("film", AVCOL_PRI_FILM, u),                 \
    C("bt2020", AVCOL_PRI_BT2020, u), C("smpte428", AVCOL_PRI_SMPTE428, u),               \
    C("smpte428_1", AVCOL_PRI_SMPTE428, u), C("smpte431", AVCOL_PRI_SMPTE431, u),         \
    C("smpte432", AVCOL_PRI_SMPTE432, u), C("jedec-p22", AVCOL_PRI_JEDEC_P22, u),         \
    C("ebu3213", AVCOL_PRI_EBU3213, u), C("vgamut", AVCOL_PRI_V_GAMUT, u)

#define TRC_CONSTS(u)                                                                    \
    C("unknown", AVCOL_TRC_UNSPECIFIED, u), C("unspecified", AVCOL_TRC_UNSPECIFIED, u),   \
    C("bt709", AVCOL_TRC_BT709, u), C("bt470m", AVCOL_TRC_GAMMA22, u),                    \
    C("gamma22", AVCOL_TRC_GAMMA22, u), C("bt470bg", AVCOL_TRC_GAMMA28, u),               \
    C("gamma28", AVCOL_TRC_GAMMA28, u), C("smpte170m", AVCOL_TRC_SMPTE170M, u),           \
    C("smpte240m", AVCOL_TRC_SMPTE240M, u), C("linear", AVCOL_TRC_LINEAR, u),             \
    C("log100", AVCOL_TRC_LOG, u), C("log", AVCOL_TRC_LOG, u),                            \
    C("log316", AVCOL_TRC_LOG_SQRT, u), C("log_sqrt", AVCOL_TRC_LOG_SQRT, u),             \
    C("iec61966-2-4", AVCOL_TRC_IEC61966_2_4, u), C("iec61966_2_4", AVCOL_TRC_IEC61966_2_4, u), \
    C("xvycc", AVCOL_TRC_IEC61966_2_4, u), C("bt1361e", AVCOL_TRC_BT1361_ECG, u),         \
    C("bt1361", AVCOL_TRC_BT1361_ECG, u), C("iec61966-2-1", AVCOL_TRC_IEC61966_2_1, u),   \
    C("iec61966_2_1", AVCOL_TRC_IEC61966_2_1, u), C("srgb", AVCOL_TRC_IEC61966_2_1, u),   \
    C("bt2020-10", AVCOL_TRC_BT2020_10, u), C("bt2020_10bit", AVCOL_TRC_BT2020_10, u),    \
    C("bt2020-12", AVCOL_TRC_BT2020_12, u), C("bt2020_12bit", AVCOL_TRC_BT2020_12, u),    \
    C("smpte2084", AVCOL_TRC_SMPTE2084, u), C("pq", AVCOL_TRC_SMPTE2084, u),              \
    C("smpte428", AVCOL_TRC_SMPTE428, u), C("smpte428_1", AVCOL_TRC_SMPTE428, u),         \
    C("arib-std-b67", AVCOL_TRC_ARIB_STD_B67, u), C("hlg", AVCOL_TRC_ARIB_STD_B67, u),    \
    C("vlog", AVCOL_TRC_V_LOG, u)

#define CSP_CONSTS(u)                                                                    \
    C("unknown", AVCOL_SPC_UNSPECIFIED, u), C("unspecified", AVCOL_SPC_UNSPECIFIED, u),   \
    C("rgb", AVCOL_SPC_RGB, u), C("gbr", AVCOL_SPC_RGB, u),                               \
    C("bt709", AVCOL_SPC_BT709, u), C("fcc", AVCOL_SPC_FCC, u),                           \
    C("bt470bg", AVCOL_SPC_BT470BG, u), C("smpte170m", AVCOL_SPC_SMPTE170M, u),           \
    C("smpte240m", AVCOL_SPC_SMPTE240M, u), C("ycgco", AVCOL_SPC_YCGCO, u),               \
    C("ycocg", AVCOL_SPC_YCGCO, u), C("bt2020nc", AVCOL_SPC_BT2020_NCL, u),               \
    C("bt2020ncl", AVCOL_SPC_BT2020_NCL, u), C("bt2020_ncl", AVCOL_SPC_BT2020_NCL, u),    \
    C("bt2020c", AVCOL_SPC_BT2020_CL, u), C("bt2020cl", AVCOL_SPC_BT2020_CL, u),          \
    C("bt2020_cl", AVCOL_SPC_BT2020_CL, u),                                               \
    C("chroma-derived-nc", AVCOL_SPC_CHROMA_DERIVED_NCL, u),                              \
    C("chroma-derived-c", AVCOL_SPC_CHROMA_DERIVED_CL, u),                                \
    C("ictcp", AVCOL_SPC_ICTCP, u)

#define RANGE_CONSTS(u)                                                                  \
    C("unknown", AVCOL_RANGE_UNSPECIFIED, u), C("unspecified", AVCOL_RANGE_UNSPECIFIED, u), \
    C("tv", AVCOL_RANGE_MPEG, u), C("mpeg", AVCOL_RANGE_MPEG, u),                         \
    C("limited", AVCOL_RANGE_MPEG, u), C("pc", AVCOL_RANGE_JPEG, u),                      \
    C("jpeg", AVCOL_RANGE_JPEG, u), C("full", AVCOL_RANGE_JPEG, u)

#define ALL_CONSTS(u)                                                                    \
    C("unset", ALL_UNSET, u), C("bt470m", ALL_BT470M, u), C("bt470bg", ALL_BT470BG, u),                             \
    C("bt601-6-525", ALL_BT601_525, u), C("bt601-6-625", ALL_BT601_625, u),               \
    C("bt709", ALL_BT709, u), C("smpte170m", ALL_SMPTE170M, u),                           \
    C("smpte240m", ALL_SMPTE240M, u), C("bt2020", ALL_BT2020, u)

#define INTOPT(name, help, field, def, min, max, u, flags) \
    { name, help, OFFSET(field), AV_OPT_TYPE_INT, { .i64 = def }, min, max, flags, .unit = u }

static const AVOption cspfix_options[] = {
    INTOPT("all", "Set output primaries, transfer and matrix together (unset: each from its own option, else the input's)", all, ALL_UNSET, 0, ALL_NB - 1, "all", RFLAGS),
    ALL_CONSTS("all"),
    INTOPT("space", "Output matrix (colorspace)", csp, AVCOL_SPC_UNSPECIFIED, 0, AVCOL_SPC_NB - 1, "csp", RFLAGS),
    INTOPT("matrix", "Output matrix (colorspace)", csp, AVCOL_SPC_UNSPECIFIED, 0, AVCOL_SPC_NB - 1, "csp", RFLAGS),
    CSP_CONSTS("csp"),
    INTOPT("trc", "Output transfer characteristics", trc, AVCOL_TRC_UNSPECIFIED, 0, AVCOL_TRC_EXT_NB - 1, "trc", RFLAGS),
    INTOPT("transfer", "Output transfer characteristics", trc, AVCOL_TRC_UNSPECIFIED, 0, AVCOL_TRC_EXT_NB - 1, "trc", RFLAGS),
    TRC_CONSTS("trc"),
    INTOPT("primaries", "Output colour primaries", prim, AVCOL_PRI_UNSPECIFIED, 0, AVCOL_PRI_EXT_NB - 1, "prm", RFLAGS),
    PRIM_CONSTS("prm"),
    INTOPT("range", "Output range", range, AVCOL_RANGE_UNSPECIFIED, 0, AVCOL_RANGE_NB - 1, "rng", RFLAGS),
    RANGE_CONSTS("rng"),
    { "format", "Output pixel format: a name from -pix_fmts that cspfix takes (unset: negotiated, the input's format first)", OFFSET(format), AV_OPT_TYPE_PIXEL_FMT, { .i64 = AV_PIX_FMT_NONE }, -1, INT_MAX, FLAGS },

    INTOPT("iall", "Set input primaries, transfer and matrix together (unset: the frame's tags)", iall, ALL_UNSET, 0, ALL_NB - 1, "all", RFLAGS),
    INTOPT("ispace", "Input matrix override", icsp, AVCOL_SPC_UNSPECIFIED, 0, AVCOL_SPC_NB - 1, "csp", RFLAGS),
    INTOPT("imatrix", "Input matrix override", icsp, AVCOL_SPC_UNSPECIFIED, 0, AVCOL_SPC_NB - 1, "csp", RFLAGS),
    INTOPT("itrc", "Input transfer override", itrc, AVCOL_TRC_UNSPECIFIED, 0, AVCOL_TRC_EXT_NB - 1, "trc", RFLAGS),
    INTOPT("itransfer", "Input transfer override", itrc, AVCOL_TRC_UNSPECIFIED, 0, AVCOL_TRC_EXT_NB - 1, "trc", RFLAGS),
    INTOPT("iprimaries", "Input primaries override", iprim, AVCOL_PRI_UNSPECIFIED, 0, AVCOL_PRI_EXT_NB - 1, "prm", RFLAGS),
    INTOPT("irange", "Input range override", irange, AVCOL_RANGE_UNSPECIFIED, 0, AVCOL_RANGE_NB - 1, "rng", RFLAGS),

    INTOPT("fast", "Skip linearisation and gamut conversion (matrix/range only)", fast, 0, 0, 1, NULL, RFLAGS),
    INTOPT("dither", "Dithering on depth reduction", dither, DITHER_AUTO, DITHER_AUTO, DITHER_NB - 1, "dither", RFLAGS),
    C("auto", DITHER_AUTO, "dither"), C("none", DITHER_NONE, "dither"),
    C("ordered", DITHER_ORDERED, "dither"), C("ed", DITHER_ED, "dither"),
    C("fsb", DITHER_ED, "dither"),
    INTOPT("wpadapt", "White point adaptation", wpadapt, CSPFIX_WP_BRADFORD, 0, CSPFIX_WP_NB - 1, "wpadapt", RFLAGS),
    C("bradford", CSPFIX_WP_BRADFORD, "wpadapt"), C("vonkries", CSPFIX_WP_VONKRIES, "wpadapt"),
    C("identity", CSPFIX_WP_IDENTITY, "wpadapt"),
    INTOPT("linearize", "Linear light: display (EOTF) or scene (inverse OETF)", linearize, CSPFIX_LIN_DISPLAY, 0, 1, "lin", RFLAGS),
    C("display", CSPFIX_LIN_DISPLAY, "lin"), C("scene", CSPFIX_LIN_SCENE, "lin"),
    INTOPT("chroma_loc", "Output chroma siting", loc, AVCHROMA_LOC_UNSPECIFIED, 0, AVCHROMA_LOC_NB - 1, "loc", RFLAGS),
    INTOPT("ichroma_loc", "Input chroma siting override", iloc, AVCHROMA_LOC_UNSPECIFIED, 0, AVCHROMA_LOC_NB - 1, "loc", RFLAGS),
    C("auto", AVCHROMA_LOC_UNSPECIFIED, "loc"), C("unspecified", AVCHROMA_LOC_UNSPECIFIED, "loc"),
    C("left", AVCHROMA_LOC_LEFT, "loc"), C("center", AVCHROMA_LOC_CENTER, "loc"),
    C("topleft", AVCHROMA_LOC_TOPLEFT, "loc"), C("top", AVCHROMA_LOC_TOP, "loc"),
    C("bottomleft", AVCHROMA_LOC_BOTTOMLEFT, "loc"), C("bottom", AVCHROMA_LOC_BOTTOM, "loc"),
    INTOPT("interlace", "Vertical chroma resampling of 4:2:0 frames: per field or over the frame", interlace, INTERLACE_AUTO, 0, INTERLACE_NB - 1, "interlace", RFLAGS),
    C("auto", INTERLACE_AUTO, "interlace"), C("progressive", INTERLACE_PROGRESSIVE, "interlace"),
    C("interlaced", INTERLACE_INTERLACED, "interlace"),
    { "colorimetry", "Output description as a GStreamer colorimetry: bt601, bt709, bt2020, bt2020-10, bt2100-pq, bt2100-hlg, smpte240m, sRGB, or the numeric range:matrix:transfer:primaries form (in a filtergraph: colorimetry='2\\:6\\:14\\:7' is BT.2100 PQ)", OFFSET(colorimetry), AV_OPT_TYPE_STRING, { .str = NULL }, 0, 0, RFLAGS },
    { "icolorimetry", "Input description as a GStreamer colorimetry (values as colorimetry)", OFFSET(icolorimetry), AV_OPT_TYPE_STRING, { .str = NULL }, 0, 0, RFLAGS },
    { "v4l2_colorspace", "Input V4L2 colorspace: default, smpte170m, smpte240m, rec709, bt878, 470_system_m, 470_system_bg, jpeg, srgb, bt2020, raw (oprgb, dci_p3: not expressible)", OFFSET(v4l2_csp), AV_OPT_TYPE_STRING, { .str = NULL }, 0, 0, RFLAGS },
    { "v4l2_ycbcr_enc", "Input V4L2 Y'CbCr encoding: default, 601, 709, xv601, xv709, sycc, bt2020, bt2020_const_lum, smpte240m", OFFSET(v4l2_enc), AV_OPT_TYPE_STRING, { .str = NULL }, 0, 0, RFLAGS },
    { "v4l2_quantization", "Input V4L2 quantization: default, full_range, lim_range", OFFSET(v4l2_quant), AV_OPT_TYPE_STRING, { .str = NULL }, 0, 0, RFLAGS },
    { "v4l2_xfer_func", "Input V4L2 transfer function: default, 709, srgb, smpte240m, none, smpte2084 (oprgb, dci_p3: not expressible)", OFFSET(v4l2_xfer), AV_OPT_TYPE_STRING, { .str = NULL }, 0, 0, RFLAGS },
    INTOPT("guess", "Guess unspecified input fields (0: error)", guess, 1, 0, 1, NULL, RFLAGS),
    INTOPT("clip", "Clip output to the nominal range", clip, 0, 0, 1, NULL, RFLAGS),
    INTOPT("clipgamut", "Clip linear RGB to the output gamut", clipgamut, 0, 0, 1, "clipgamut", RFLAGS),
    C("none", 0, "clipgamut"), C("rgb", 1, "clipgamut"),
    INTOPT("tonemap", "Tone curve (auto: bt2390 for HDR to SDR, else none)", tonemap, CSPFIX_TM_AUTO, 0, CSPFIX_TM_NB - 1, "tonemap", RFLAGS),
    C("auto", CSPFIX_TM_AUTO, "tonemap"), C("none", CSPFIX_TM_NONE, "tonemap"),
    C("clip", CSPFIX_TM_CLIP, "tonemap"), C("bt2390", CSPFIX_TM_BT2390, "tonemap"),
    C("reinhard", CSPFIX_TM_REINHARD, "tonemap"), C("hable", CSPFIX_TM_HABLE, "tonemap"),
    C("mobius", CSPFIX_TM_MOBIUS, "tonemap"),
    { "desat", "Desaturate tone-mapped highlights toward grey (0..1)", OFFSET(desat), AV_OPT_TYPE_DOUBLE, { .dbl = 0.0 }, 0.0, 1.0, RFLAGS },
    { "peak", "Source peak in cd/m2 of HDR input, over the frame's metadata; HLG display peak (0: from MaxCLL, else the mastering display, else 1000)", OFFSET(peak), AV_OPT_TYPE_DOUBLE, { .dbl = 0.0 }, 0.0, 10000.0, RFLAGS },
    { "target_peak", "Target peak in cd/m2: SDR white (0: 203, BT.2408 reference white, both ways)", OFFSET(target_peak), AV_OPT_TYPE_DOUBLE, { .dbl = 0.0 }, 0.0, 10000.0, RFLAGS },
    INTOPT("gamut", "Gamut mapping in linear light", gamut, CSPFIX_GAMUT_NONE, 0, CSPFIX_GAMUT_NB - 1, "gamut", RFLAGS),
    C("none", CSPFIX_GAMUT_NONE, "gamut"), C("clip", CSPFIX_GAMUT_CLIP, "gamut"),
    C("desaturate", CSPFIX_GAMUT_DESATURATE, "gamut"), C("compress", CSPFIX_GAMUT_COMPRESS, "gamut"),
    { NULL }
};

AVFILTER_DEFINE_CLASS(cspfix);

static int process_command(AVFilterContext *ctx, const char *cmd, const char *args,
                           char *res, int res_len, int flags)
{
    CspfixContext *s = ctx->priv;
    int ret = ff_filter_process_command(ctx, cmd, args, res, res_len, flags);

    if (ret == AVERROR(ENOSYS) && !strcmp(cmd, "format"))
        av_log(ctx, AV_LOG_ERROR, "format cannot change mid-stream: the output pixel "
               "format is negotiated once.\n");
    if (ret < 0)
        return ret;
    /* a colorimetry command sets all four fields it describes */
    if (!strcmp(cmd, "colorimetry") && s->colorimetry)
        ret = apply_colorimetry(ctx, s->colorimetry, cmd, 1, &s->prim, &s->trc, &s->csp, &s->range);
    else if (!strcmp(cmd, "icolorimetry") && s->icolorimetry)
        ret = apply_colorimetry(ctx, s->icolorimetry, cmd, 1, &s->iprim, &s->itrc, &s->icsp, &s->irange);
    else if (!strncmp(cmd, "v4l2_", 5))
        ret = parse_v4l2(ctx);
    /* every runtime option changes the plan: rebuild it on the next frame */
    s->have_plan = 0;
    return ret;
}

static const AVFilterPad inputs[] = {
    {
        .name         = "default",
        .type         = AVMEDIA_TYPE_VIDEO,
        .filter_frame = filter_frame,
        .config_props = config_input,
    },
};

static const AVFilterPad outputs[] = {
    {
        .name         = "default",
        .type         = AVMEDIA_TYPE_VIDEO,
        .config_props = config_output,
    },
};

const FFFilter ff_vf_cspfix = {
    .p.name          = "cspfix",
    .p.description   = NULL_IF_CONFIG_SMALL("Convert colour descriptions: primaries, "
                                            "transfer, matrix, range."),
    .p.priv_class    = &cspfix_class,
    .p.flags         = AVFILTER_FLAG_SUPPORT_TIMELINE_GENERIC | AVFILTER_FLAG_SLICE_THREADS,
    .init            = init,
    .uninit          = uninit,
    .priv_size       = sizeof(CspfixContext),
    FILTER_INPUTS(inputs),
    FILTER_OUTPUTS(outputs),
    FILTER_QUERY_FUNC2(query_formats),
    .process_command = process_command,
};
