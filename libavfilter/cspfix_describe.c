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

#include "libavutil/common.h"
#include "libavutil/frame.h"
#include "libavutil/log.h"
#include "libavutil/pixdesc.h"

#include "cspfix_describe.h"
#include "cspfix_gst.h"
#include "cspfix_io.h"

int ff_cspfix_is_rgb_fmt(enum AVPixelFormat fmt)
{
    const AVPixFmtDescriptor *d = av_pix_fmt_desc_get(fmt);
    return d && (d->flags & AV_PIX_FMT_FLAG_RGB);
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

void ff_cspfix_preset_prim_trc(CspfixDesc *d, int all, enum AVColorPrimaries prim,
                               enum AVColorTransferCharacteristic trc)
{
    if (all) {
        d->prim = ff_cspfix_all_presets[all][0];
        d->trc  = ff_cspfix_all_presets[all][1];
    }
    if (prim != AVCOL_PRI_UNSPECIFIED)
        d->prim = prim;
    if (trc != AVCOL_TRC_UNSPECIFIED)
        d->trc = trc;
}

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

int ff_cspfix_describe_input(void *ctx, const CspfixDescribe *s, const AVFrame *f,
                             CspfixDesc *d, unsigned *guessed)
{
    const int rgb = ff_cspfix_is_rgb_fmt(f->format);
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
        d->prim = ff_cspfix_all_presets[s->iall][0];
        d->trc  = ff_cspfix_all_presets[s->iall][1];
        if (!rgb)
            d->csp = ff_cspfix_all_presets[s->iall][2];
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
    return 0;
}

int ff_cspfix_describe_output(void *ctx, CspfixDescribe *s, const AVFrame *in,
                              enum AVPixelFormat ofmt, const CspfixDesc *id, CspfixDesc *od)
{
    const int in_rgb = ff_cspfix_is_rgb_fmt(in->format), out_rgb = ff_cspfix_is_rgb_fmt(ofmt);
    int csp = s->csp;

    /* free fields: the input's, on later frames the first frame's output */
    od->prim  = s->have_first ? s->first_out.prim : id->prim;
    od->trc   = s->have_first ? s->first_out.trc : id->trc;
    CspfixFormat fmt;
    int ret;

    if ((ret = ff_cspfix_format_init(&fmt, ofmt)) < 0)
        return ret;
    od->depth = fmt.depth;
    if (s->all && csp == AVCOL_SPC_UNSPECIFIED)
        csp = ff_cspfix_all_presets[s->all][2];
    ff_cspfix_preset_prim_trc(od, s->all, s->prim, s->trc);

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
    if ((fmt.is_float || fmt.depth < 8) && od->range != AVCOL_RANGE_JPEG) {
        /* float samples carry the signal itself; fewer than 8 bits have no limited range */
        if (s->range == AVCOL_RANGE_MPEG && !s->warned_range) {
            av_log(ctx, AV_LOG_WARNING, "range=tv is ignored for %s output: %s are always "
                   "full range.\n", av_get_pix_fmt_name(ofmt), fmt.is_float ?
                   "float formats" : "formats with fewer than 8 bits");
            s->warned_range = 1;
        }
        od->range = AVCOL_RANGE_JPEG;
        s->range_from = fmt.is_float ? "full: float format" : "full: fewer than 8 bits";
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
               av_color_primaries_name(d->prim), why);
    if (guessed & CSPFIX_GUESS_TRC)
        av_log(ctx, AV_LOG_INFO, "Input transfer unspecified: guessing %s (%s).\n",
               av_color_transfer_name(d->trc), why);
    if (guessed & CSPFIX_GUESS_CSP)
        av_log(ctx, AV_LOG_INFO, "Input matrix unspecified: guessing %s (%s).\n",
               av_color_space_name(d->csp), why);
    if (guessed & CSPFIX_GUESS_RANGE)
        av_log(ctx, AV_LOG_INFO, "Input range unspecified: guessing %s.\n",
               av_color_range_name(d->range));
}

/* A GStreamer colorimetry string fills the fields the options left unset. */
int ff_cspfix_apply_colorimetry(void *ctx, const char *str, const char *opt,
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
