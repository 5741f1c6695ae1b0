/*
 * cspfix: what a frame is (its description after overrides and guesses) and what the
 * output is to be
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

#include <string.h>

#include "libavutil/avstring.h"
#include "libavutil/common.h"
#include "libavutil/frame.h"
#include "libavutil/log.h"
#include "libavutil/pixdesc.h"

#include "cspfix_colorimetry.h"
#include "cspfix_custom.h"
#include "cspfix_describe.h"
#include "cspfix_gst.h"
#include "cspfix_io.h"
#include "cspfix_tf.h"

int ff_cspfix_is_rgb_fmt(enum AVPixelFormat fmt)
{
    const AVPixFmtDescriptor *d = av_pix_fmt_desc_get(fmt);
    return d && (d->flags & (AV_PIX_FMT_FLAG_RGB | AV_PIX_FMT_FLAG_XYZ));
}

int ff_cspfix_is_xyz_fmt(enum AVPixelFormat fmt)
{
    const AVPixFmtDescriptor *d = av_pix_fmt_desc_get(fmt);
    return d && (d->flags & AV_PIX_FMT_FLAG_XYZ);
}

/* primaries, transfer, matrix of each `all`/`iall` preset */
const int ff_cspfix_all_presets[CSPFIX_ALL_NB][3] = {
    [CSPFIX_ALL_BT470M]    = { AVCOL_PRI_BT470M,    AVCOL_TRC_GAMMA22,   AVCOL_SPC_SMPTE170M },
    [CSPFIX_ALL_BT470BG]   = { AVCOL_PRI_BT470BG,   AVCOL_TRC_GAMMA28,   AVCOL_SPC_BT470BG   },
    [CSPFIX_ALL_BT601_525] = { AVCOL_PRI_SMPTE170M, AVCOL_TRC_SMPTE170M, AVCOL_SPC_SMPTE170M },
    [CSPFIX_ALL_BT601_625] = { AVCOL_PRI_BT470BG,   AVCOL_TRC_SMPTE170M, AVCOL_SPC_BT470BG   },
    [CSPFIX_ALL_BT709]     = { AVCOL_PRI_BT709,     AVCOL_TRC_BT709,     AVCOL_SPC_BT709     },
    [CSPFIX_ALL_SMPTE170M] = { AVCOL_PRI_SMPTE170M, AVCOL_TRC_SMPTE170M, AVCOL_SPC_SMPTE170M },
    [CSPFIX_ALL_SMPTE240M] = { AVCOL_PRI_SMPTE240M, AVCOL_TRC_SMPTE240M, AVCOL_SPC_SMPTE240M },
    [CSPFIX_ALL_BT2020]    = { AVCOL_PRI_BT2020,    AVCOL_TRC_BT2020_10, AVCOL_SPC_BT2020_NCL },
};

int ff_cspfix_is_full_range_only(enum AVPixelFormat fmt)
{
    const char *name = av_get_pix_fmt_name(fmt);
    return (name && !strncmp(name, "yuvj", 4)) || ff_cspfix_is_xyz_fmt(fmt);
}

/* Size classes of untagged Y'CbCr, as players guess (mpv, libplacebo's mpv glue):
 * HD from 1280 columns or more than 576 rows (cropped movies: 1280x544, 1920x800),
 * BT.601 625 at 576 rows, else BT.601 525 (SMPTE 170M). */
enum { GUESS_HD, GUESS_625, GUESS_525 };

static int guess_class(int width, int height)
{
    return width >= 1280 || height > 576 ? GUESS_HD : height == 576 ? GUESS_625 : GUESS_525;
}

static const char *guess_reason(const AVFrame *f, int rgb)
{
    static const char *const why[] = {
        [GUESS_HD]  = "HD size: width >= 1280 or height > 576",
        [GUESS_625] = "SD size, height 576",
        [GUESS_525] = "SD size: width < 1280, height <= 576, not 576",
    };
    return rgb ? "RGB pixel format" : why[guess_class(f->width, f->height)];
}

static void guess_ycc(int width, int height, int *prim, int *trc, int *csp)
{
    static const int guess[][3] = {
        [GUESS_HD]  = { AVCOL_PRI_BT709,     AVCOL_TRC_BT709,     AVCOL_SPC_BT709     },
        [GUESS_625] = { AVCOL_PRI_BT470BG,   AVCOL_TRC_SMPTE170M, AVCOL_SPC_BT470BG   },
        [GUESS_525] = { AVCOL_PRI_SMPTE170M, AVCOL_TRC_SMPTE170M, AVCOL_SPC_SMPTE170M },
    };
    const int c = guess_class(width, height);
    *prim = guess[c][0];
    *trc  = guess[c][1];
    *csp  = guess[c][2];
}

/* ---- the description options, resolved in one order of precedence ---- */

enum { F_PRIM, F_TRC, F_CSP, F_RANGE, F_NB };

static const int field_unset[F_NB] = {
    AVCOL_PRI_UNSPECIFIED, AVCOL_TRC_UNSPECIFIED, AVCOL_SPC_UNSPECIFIED, AVCOL_RANGE_UNSPECIFIED,
};

static const char *field_value(int f, int v)
{
    const char *n = f == F_PRIM ? ff_cspfix_prim_name(v) :
                    f == F_TRC  ? ff_cspfix_trc_name(v) :
                    f == F_CSP  ? av_color_space_name(v) : av_color_range_name(v);
    return n ? n : "?";
}

/* One option that sets description fields; v[f] is field_unset[f] where it sets none. */
typedef struct FieldSource {
    char opt[64];
    int v[F_NB];
    int refines;    ///< a field's own option: refining a preset is its purpose
} FieldSource;

static void source_init(FieldSource *s, const char *opt, const char *val)
{
    snprintf(s->opt, sizeof(s->opt), "%s%s%s", opt, val ? "=" : "", val ? val : "");
    memcpy(s->v, field_unset, sizeof(s->v));
    s->refines = 0;
}

/* Each field from the first source (highest precedence) that sets it; sources from
 * nb_store on are applied elsewhere and only warned about. With warn, each pair of sources
 * setting fields to different values is said once: a warning for two presets, verbose for
 * a field's own option over a preset (all=bt2020:trc=smpte2084 is how PQ is asked for). */
static void resolve_fields(void *ctx, int warn, const char *side, const FieldSource *src,
                           int nb, int nb_store, const char *order, CspfixDesc *r)
{
    static const char *const names[F_NB] = { "primaries", "transfer", "matrix", "range" };
    int v[F_NB], win[F_NB];

    for (int f = 0; f < F_NB; f++) {
        v[f] = field_unset[f];
        win[f] = -1;
        for (int i = 0; i < nb && win[f] < 0; i++)
            if (src[i].v[f] != field_unset[f])
                win[f] = i, v[f] = src[i].v[f];
    }
    for (int j = 0; warn && j < nb; j++) {
        for (int i = j + 1; i < nb; i++) {
            char what[128] = "", used[128] = "", lost[128] = "";
            int n = 0, nb_f = 0;
            for (int f = 0; f < F_NB; f++)
                nb_f += win[f] == j && src[i].v[f] != field_unset[f] && src[i].v[f] != v[f];
            for (int f = 0; f < F_NB; f++) {
                if (win[f] != j || src[i].v[f] == field_unset[f] || src[i].v[f] == v[f])
                    continue;
                av_strlcatf(what, sizeof(what), "%s%s", !n ? "" : n == nb_f - 1 ? " and " : ", ",
                            names[f]);
                av_strlcatf(used, sizeof(used), "%s%s", n ? "/" : "", field_value(f, v[f]));
                av_strlcatf(lost, sizeof(lost), "%s%s", n ? "/" : "", field_value(f, src[i].v[f]));
                n++;
            }
            if (n)
                av_log(ctx, src[j].refines ? AV_LOG_VERBOSE : AV_LOG_WARNING,
                       "%s and %s both set the %s %s: %s (from %s) %s used, not %s. "
                       "Precedence: %s.\n", src[j].opt, src[i].opt, side, what, used,
                       src[j].opt, n > 1 ? "are" : "is", lost, order);
        }
    }
    for (int f = 0; f < F_NB; f++)
        if (win[f] >= nb_store)
            v[f] = field_unset[f];
    r->prim  = v[F_PRIM];
    r->trc   = v[F_TRC];
    r->csp   = v[F_CSP];
    r->range = v[F_RANGE];
}

static int parse_colorimetry(void *ctx, const char *str, const char *opt, FieldSource *s)
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
    source_init(s, opt, str);
    s->v[F_PRIM]  = p;
    s->v[F_TRC]   = t;
    s->v[F_CSP]   = c;
    s->v[F_RANGE] = r;
    return 0;
}

/* The sources of the options of one field each (prefix "" or "i"), those that are set */
static int field_sources(FieldSource *src, const char *prefix, int prim, int trc, int csp,
                         int range)
{
    static const char *const opts[F_NB] = { "primaries", "trc", "space", "range" };
    const int v[F_NB] = { prim, trc, csp, range };
    int nb = 0;

    for (int f = 0; f < F_NB; f++) {
        char name[32];
        if (v[f] == field_unset[f])
            continue;
        snprintf(name, sizeof(name), "%s%s", prefix, opts[f]);
        source_init(&src[nb], name, field_value(f, v[f]));
        src[nb].refines = 1;
        src[nb++].v[f] = v[f];
    }
    return nb;
}

static const char *all_name(int all)
{
#define ALL_NAME(name, value) [value] = name,
    static const char *const names[CSPFIX_ALL_NB] = { CSPFIX_ALL_NAMES(ALL_NAME) };
#undef ALL_NAME
    return all > 0 && all < CSPFIX_ALL_NB ? names[all] : "?";
}

/* The sources of the preset option (all, iall) and colorimetry string that are set */
static int preset_sources(void *ctx, FieldSource *src, const char *all_opt, int all,
                          const char *col_opt, const char *col, int *nb)
{
    if (all) {
        source_init(&src[*nb], all_opt, all_name(all));
        for (int f = 0; f < 3; f++)
            src[*nb].v[f] = ff_cspfix_all_presets[all][f];
        (*nb)++;
    }
    return col ? parse_colorimetry(ctx, col, col_opt, &src[(*nb)++]) : 0;
}

/*
 * The V4L2 fields' description (ff_cspfix_from_v4l2()), with cspfix's own values where
 * FFmpeg has none: opRGB primaries and transfer, DCI-P3's 2.6 power. Only raw primaries
 * stay inexpressible (AVERROR(ENOSYS)).
 */
static int v4l2_fields(const CspfixDescribe *s, int rgb, int *prim, int *trc, int *csp,
                       int *range, const char **why)
{
    enum AVColorPrimaries vp;
    enum AVColorTransferCharacteristic vt;
    enum AVColorSpace vc;
    enum AVColorRange vr;
    const CspfixV4L2 *v = &s->v4l2;
    int ret = ff_cspfix_from_v4l2(v, rgb, &vp, &vt, &vc, &vr, why);

    *prim  = vp;
    *trc   = vt;
    *csp   = vc;
    *range = vr;
    if (ret == AVERROR(ENOSYS) && v->colorspace != CSPFIX_V4L2_COLORSPACE_RAW) {
        const int xfer = v->xfer_func != CSPFIX_V4L2_XFER_FUNC_DEFAULT ? v->xfer_func :
                         ff_cspfix_v4l2_map_xfer_func_default(v->colorspace);
        if (v->colorspace == CSPFIX_V4L2_COLORSPACE_OPRGB)
            *prim = CSPFIX_PRI_OPRGB;
        if (xfer == CSPFIX_V4L2_XFER_FUNC_OPRGB)
            *trc = CSPFIX_TRC_OPRGB;
        else if (xfer == CSPFIX_V4L2_XFER_FUNC_DCI_P3)
            *trc = CSPFIX_TRC_DCIP3;
        ret = 0;
    }
    return ret;
}

int ff_cspfix_resolve_options(void *ctx, CspfixDescribe *s, int warn)
{
    FieldSource src[F_NB + 3];
    int nb, store, ret;

    /* output: space/primaries/trc/range, then all, then colorimetry */
    nb = field_sources(src, "", s->prim, s->trc, s->csp, s->range);
    if ((ret = preset_sources(ctx, src, "all", s->all, "colorimetry", s->colorimetry, &nb)) < 0)
        return ret;
    resolve_fields(ctx, warn, "output", src, nb, nb,
                   "a field's own option, then all, then colorimetry", &s->out_set);
    s->csp_explicit = s->csp != AVCOL_SPC_UNSPECIFIED;

    /* input: ispace/iprimaries/itrc/irange, then iall, then icolorimetry, then v4l2_*
     * (applied per frame, since it depends on the pixel format: here for the warning) */
    nb = field_sources(src, "i", s->iprim, s->itrc, s->icsp, s->irange);
    if ((ret = preset_sources(ctx, src, "iall", s->iall, "icolorimetry", s->icolorimetry,
                              &nb)) < 0)
        return ret;
    store = nb;
    if ((ret = ff_cspfix_parse_v4l2(ctx, s)) < 0)
        return ret;
    if (s->use_v4l2) {
        int vp, vt, vc, vr;
        source_init(&src[nb], "the v4l2_* options", NULL);
        if (v4l2_fields(s, 0, &vp, &vt, &vc, &vr, NULL) >= 0) {
            src[nb].v[F_PRIM]  = vp;
            src[nb].v[F_TRC]   = vt;
            src[nb].v[F_CSP]   = vc;
            src[nb].v[F_RANGE] = vr;
        }
        nb++;
    }
    resolve_fields(ctx, warn, "input", src, nb, store, "a field's own option, then iall, then "
                   "icolorimetry, then the v4l2_* options", &s->in_set);
    return 0;
}

static int same_prim(int a, int b)
{
    double xa[4][2], xb[4][2];
    return a == b || (ff_cspfix_prim_xy(a, xa) >= 0 && ff_cspfix_prim_xy(b, xb) >= 0 &&
                      !memcmp(xa, xb, sizeof(xa)));
}

static int is_unset(int v)
{
    return v == 0 || v == 2; /* reserved0, unspecified: the same in all four fields */
}

/* icc=auto, use: the primaries and transfer of the frame's ICC profile over *prim, *trc
 * where they say something else (a profile that says what the tags say leaves them) */
static void apply_icc(void *ctx, const CspfixDescribe *s, const AVFrame *f, int *prim, int *trc)
{
    const AVFrameSideData *sd = av_frame_get_side_data(f, AV_FRAME_DATA_ICC_PROFILE);
    CspfixIcc *c = s->icc;
    int ip, it, dp, dt;

    if (!sd || !c || s->icc_mode == CSPFIX_ICC_IGNORE)
        return;
    if (ff_cspfix_icc_read(c, sd, &ip, &it) < 0) {
        if (!c->logged)
            av_log(ctx, AV_LOG_WARNING, "The frame's ICC profile%s%s%s is not used: %s; the "
                   "tags describe the input (icc=ignore: no message).\n", c->desc[0] ? " (\"" : "",
                   c->desc, c->desc[0] ? "\")" : "", c->why[0] ? c->why : "it cannot be read");
        c->logged = 1;
        return;
    }
    dp = ip != AVCOL_PRI_UNSPECIFIED && !same_prim(ip, *prim);
    dt = it != AVCOL_TRC_UNSPECIFIED &&
         ff_cspfix_curve(it, c->linearize) != ff_cspfix_curve(*trc, c->linearize);
    if (!c->logged || c->logged_prim != *prim || c->logged_trc != *trc) {
        const int contradict = (dp && !is_unset(*prim)) || (dt && !is_unset(*trc));
        av_log(ctx, contradict ? AV_LOG_WARNING : AV_LOG_VERBOSE, "The frame's ICC profile "
               "(\"%s\") describes primaries %s, transfer %s%s%s%s%s%s%s.\n", c->desc,
               ip == AVCOL_PRI_UNSPECIFIED ? "(none: grey)" : ff_cspfix_prim_name(ip),
               ff_cspfix_trc_name(it), c->note, contradict ? "; the frame's tags say " : "",
               contradict ? ff_cspfix_prim_name(*prim) : "", contradict ? "/" : "",
               contradict ? ff_cspfix_trc_name(*trc) : "",
               contradict ? ": the profile is taken (icc=ignore takes the tags)" : "");
        c->logged = 1;
        c->logged_prim = *prim;
        c->logged_trc  = *trc;
    }
    if (dp)
        *prim = ip;
    if (dt)
        *trc = it;
}

/* CIE XYZ with the white of xyzwhite= */
static int xyz_white(const CspfixDescribe *s, int prim)
{
    if (prim != AVCOL_PRI_SMPTE428)
        return prim;
    return s->xyz_white == CSPFIX_XYZ_D65 ? CSPFIX_PRI_XYZ_D65 :
           s->xyz_white == CSPFIX_XYZ_DCI ? CSPFIX_PRI_XYZ_DCI : prim;
}

int ff_cspfix_describe_input(void *ctx, const CspfixDescribe *s, const AVFrame *f,
                             CspfixDesc *d, unsigned *guessed)
{
    const int rgb = ff_cspfix_is_rgb_fmt(f->format), xyz = ff_cspfix_is_xyz_fmt(f->format);
    CspfixFormat fmt;
    int gp, gt, gc, ret;

    if ((ret = ff_cspfix_format_init(&fmt, f->format)) < 0) {
        av_log(ctx, AV_LOG_ERROR, "Unsupported input pixel format %s: %s.\n",
               av_get_pix_fmt_name(f->format), ff_cspfix_unsupported_reason(f->format));
        return ret;
    }

    /* X'Y'Z' samples are CIE XYZ whatever the tags say (iprimaries= still overrides) */
    d->prim  = xyz ? AVCOL_PRI_SMPTE428 : f->color_primaries;
    d->trc   = f->color_trc;
    d->csp   = rgb ? AVCOL_SPC_RGB : f->colorspace;
    d->range = f->color_range;
    d->depth = fmt.depth;
    /* the V4L2 fields, then the other input options over them (ff_cspfix_resolve_options()) */
    if (s->use_v4l2) {
        int vp, vt, vc, vr;
        const char *why = NULL;
        if ((ret = v4l2_fields(s, rgb, &vp, &vt, &vc, &vr, &why)) < 0) {
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
    if (s->icc_mode == CSPFIX_ICC_AUTO) {
        int p = d->prim, t = d->trc;
        apply_icc(ctx, s, f, &p, &t);
        d->prim = p;
        d->trc  = t;
    }
    if (s->det_range != AVCOL_RANGE_UNSPECIFIED)
        d->range = s->det_range;
    if (s->det_csp != AVCOL_SPC_UNSPECIFIED && !rgb)
        d->csp = s->det_csp;
    if (s->in_set.prim != AVCOL_PRI_UNSPECIFIED)
        d->prim = s->in_set.prim;
    if (s->in_set.trc != AVCOL_TRC_UNSPECIFIED)
        d->trc = s->in_set.trc;
    if (s->icc_mode == CSPFIX_ICC_USE) {
        int p = d->prim, t = d->trc;
        apply_icc(ctx, s, f, &p, &t);
        d->prim = p;
        d->trc  = t;
    }
    if (s->in_set.csp != AVCOL_SPC_UNSPECIFIED && !rgb)
        d->csp = s->in_set.csp;
    if (s->in_set.range != AVCOL_RANGE_UNSPECIFIED)
        d->range = s->in_set.range;

    if (xyz)
        gp = AVCOL_PRI_SMPTE428, gt = AVCOL_TRC_SMPTE428, gc = AVCOL_SPC_RGB;
    else if (rgb)
        gp = AVCOL_PRI_BT709, gt = AVCOL_TRC_IEC61966_2_1, gc = AVCOL_SPC_RGB;
    else
        guess_ycc(f->width, f->height, &gp, &gt, &gc);
    /* the systems defined on one colour: ICtCp and IPT-C2 on BT.2020 (PQ; ICtCp also
     * HLG), ST 2085's Y'D'zD'x on PQ-coded CIE XYZ */
    if (d->csp == AVCOL_SPC_ICTCP || d->csp == AVCOL_SPC_IPT_C2)
        gp = AVCOL_PRI_BT2020, gt = AVCOL_TRC_SMPTE2084;
    else if (d->csp == AVCOL_SPC_SMPTE2085)
        gp = AVCOL_PRI_SMPTE428, gt = AVCOL_TRC_SMPTE2084;

    *guessed = 0;
    if (fmt.nb_colour == 1 && d->csp == AVCOL_SPC_RGB) {
        /* grey has no chroma: every matrix gives R' = G' = B' = Y' (FFmpeg's PNG decoder
         * tags grey images rgb) */
        d->csp = gc;
        *guessed |= CSPFIX_NOTE_GRAY_RGB;
    }
    if (!rgb && d->csp == AVCOL_SPC_RGB) {
        av_log(ctx, AV_LOG_ERROR, "Input matrix rgb on the Y'CbCr pixel format %s is not "
               "supported; use a gbrp format for RGB.\n", av_get_pix_fmt_name(f->format));
        return AVERROR(EINVAL);
    }
    /* the yuvj formats are full range by definition: only irange= (a mislabelled
     * source) overrides that, not the frame's tag */
    if (ff_cspfix_is_full_range_only(f->format) && s->in_set.range == AVCOL_RANGE_UNSPECIFIED) {
        if (d->range == AVCOL_RANGE_MPEG)
            *guessed |= CSPFIX_NOTE_YUVJ_TV;
        d->range = AVCOL_RANGE_JPEG;
    }

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
    GUESS(d->prim, CSPFIX_GUESS_PRIM, gp, "colour primaries");
    GUESS(d->trc, CSPFIX_GUESS_TRC, gt, "transfer characteristics");
    if (!rgb)
        GUESS(d->csp, CSPFIX_GUESS_CSP, gc, "matrix (colorspace)");
#undef GUESS
    if (d->range == AVCOL_RANGE_UNSPECIFIED) {
        if (!s->guess) {
            av_log(ctx, AV_LOG_ERROR, "Input range is unspecified and guess=0; set it "
                   "with irange.\n");
            return AVERROR(EINVAL);
        }
        d->range = rgb ? AVCOL_RANGE_JPEG : AVCOL_RANGE_MPEG;
        *guessed |= CSPFIX_GUESS_RANGE;
    }
    if (fmt.is_float || fmt.depth < 8)
        d->range = AVCOL_RANGE_JPEG; /* float samples carry the signal itself; fewer than
                                      * 8 bits have no limited range */
    d->prim = xyz_white(s, d->prim);
    return 0;
}

int ff_cspfix_describe_output(void *ctx, CspfixDescribe *s, const AVFrame *in,
                              enum AVPixelFormat ofmt, const CspfixDesc *id, CspfixDesc *od)
{
    const int in_rgb = ff_cspfix_is_rgb_fmt(in->format), out_rgb = ff_cspfix_is_rgb_fmt(ofmt);
    const CspfixDesc *set = &s->out_set;
    int csp = set->csp;
    CspfixFormat fmt;
    int ret;

    if ((ret = ff_cspfix_format_init(&fmt, ofmt)) < 0)
        return ret;
    od->depth = fmt.depth;
    /* free fields: the input's, on later frames the first frame's output */
    od->prim  = set->prim != AVCOL_PRI_UNSPECIFIED ? set->prim :
                s->have_first ? s->first_out.prim : id->prim;
    od->trc   = set->trc != AVCOL_TRC_UNSPECIFIED ? set->trc :
                s->have_first ? s->first_out.trc : id->trc;
    if (ff_cspfix_custom_lut3d_of_trc(od->trc)) {
        /* a LUT profile's table reads, it cannot write: the free fields get sRGB */
        od->trc = AVCOL_TRC_IEC61966_2_1;
        if (set->prim == AVCOL_PRI_UNSPECIFIED)
            od->prim = AVCOL_PRI_BT709;
    }
    if (ff_cspfix_is_xyz_fmt(ofmt)) {
        /* X'Y'Z' output: CIE XYZ, by default DCI's X'Y'Z' (SMPTE ST 428-1) */
        if (set->prim != AVCOL_PRI_UNSPECIFIED && !ff_cspfix_is_xyz_prim(set->prim)) {
            av_log(ctx, AV_LOG_ERROR, "Output primaries %s cannot be used with the X'Y'Z' "
                   "output format %s, whose samples are CIE XYZ (primaries smpte428).\n",
                   ff_cspfix_prim_name(set->prim), av_get_pix_fmt_name(ofmt));
            return AVERROR(EINVAL);
        }
        od->prim = AVCOL_PRI_SMPTE428;
        od->trc  = set->trc != AVCOL_TRC_UNSPECIFIED ? set->trc : AVCOL_TRC_SMPTE428;
    }
    od->prim  = xyz_white(s, od->prim);

    if (out_rgb) {
        /* the matrix of a preset (all, colorimetry) does not apply to RGB output */
        if (s->csp_explicit && s->csp != AVCOL_SPC_RGB) {
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
        guess_ycc(in->width, in->height, &gp, &gt, &csp);
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

    if (set->range != AVCOL_RANGE_UNSPECIFIED) {
        od->range = set->range;
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
    if ((fmt.is_float || fmt.depth < 8 || ff_cspfix_is_full_range_only(ofmt)) &&
        od->range != AVCOL_RANGE_JPEG) {
        /* float samples carry the signal itself; fewer than 8 bits have no limited range;
         * the yuvj formats are full range by definition */
        const char *why = fmt.is_float ? "float formats are" : fmt.depth < 8 ?
                          "formats with fewer than 8 bits are" : ff_cspfix_is_xyz_fmt(ofmt) ?
                          "the X'Y'Z' formats are" : "the yuvj formats are";
        if (set->range == AVCOL_RANGE_MPEG && !s->warned_range) {
            av_log(ctx, AV_LOG_WARNING, "range=tv is ignored for %s output: %s always full "
                   "range%s.\n", av_get_pix_fmt_name(ofmt), why,
                   ff_cspfix_is_full_range_only(ofmt) && !ff_cspfix_is_xyz_fmt(ofmt) ?
                   " (leave format unset, or set the "
                   "yuv format of the same layout, for limited range)" : "");
            s->warned_range = 1;
        }
        od->range = AVCOL_RANGE_JPEG;
        s->range_from = fmt.is_float ? "full: float format" : fmt.depth < 8 ?
                        "full: fewer than 8 bits" : ff_cspfix_is_xyz_fmt(ofmt) ?
                        "full: X'Y'Z' format" : "full: yuvj format";
    }
    if (fmt.nb_colour == 1 && !(av_pix_fmt_desc_get(in->format)->nb_components <= 2)) {
        av_log(ctx, AV_LOG_ERROR, "Gray output (%s) from colour input (%s) needs the chroma "
               "this filter would drop; convert to gray with another filter first.\n",
               av_get_pix_fmt_name(ofmt), av_get_pix_fmt_name(in->format));
        return AVERROR(EINVAL);
    }
    return 0;
}

void ff_cspfix_log_guesses(void *ctx, const CspfixDesc *d, unsigned guessed,
                        const AVFrame *f)
{
    const char *why = guess_reason(f, ff_cspfix_is_rgb_fmt(f->format));
    if (guessed & CSPFIX_GUESS_PRIM)
        av_log(ctx, AV_LOG_INFO, "Input colour primaries unspecified: guessing %s (%s).\n",
               ff_cspfix_prim_name(d->prim), why);
    if (guessed & CSPFIX_GUESS_TRC)
        av_log(ctx, AV_LOG_INFO, "Input transfer unspecified: guessing %s (%s).\n",
               ff_cspfix_trc_name(d->trc), why);
    if (guessed & CSPFIX_GUESS_CSP)
        av_log(ctx, AV_LOG_INFO, "Input matrix unspecified: guessing %s (%s).\n",
               av_color_space_name(d->csp), why);
    if (guessed & CSPFIX_GUESS_RANGE)
        av_log(ctx, AV_LOG_INFO, "Input range unspecified: guessing %s.\n",
               av_color_range_name(d->range));
    if (guessed & CSPFIX_NOTE_GRAY_RGB)
        av_log(ctx, AV_LOG_VERBOSE, "Input matrix rgb ignored on the gray format %s: a grey "
               "image has no chroma, so no matrix changes it (taken as %s).\n",
               av_get_pix_fmt_name(f->format), av_color_space_name(d->csp));
    if (guessed & CSPFIX_NOTE_YUVJ_TV)
        av_log(ctx, AV_LOG_WARNING, "Input frames in %s are tagged limited range, but the yuvj "
               "formats are full range: read as full range (irange=tv reads them as "
               "limited).\n", av_get_pix_fmt_name(f->format));
}

int ff_cspfix_parse_v4l2(void *ctx, CspfixDescribe *s)
{
    static const struct {
        const char *opt;
        size_t str, val;
        int (*parse)(const char *name);
    } fields[] = {
        { "v4l2_colorspace",   offsetof(CspfixDescribe, v4l2_csp),   offsetof(CspfixV4L2, colorspace),   ff_cspfix_v4l2_colorspace_from_name },
        { "v4l2_ycbcr_enc",    offsetof(CspfixDescribe, v4l2_enc),   offsetof(CspfixV4L2, ycbcr_enc),    ff_cspfix_v4l2_ycbcr_enc_from_name },
        { "v4l2_quantization", offsetof(CspfixDescribe, v4l2_quant), offsetof(CspfixV4L2, quantization), ff_cspfix_v4l2_quantization_from_name },
        { "v4l2_xfer_func",    offsetof(CspfixDescribe, v4l2_xfer),  offsetof(CspfixV4L2, xfer_func),    ff_cspfix_v4l2_xfer_func_from_name },
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
