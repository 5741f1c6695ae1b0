/*
 * cspfix: format negotiation: the formats, colour spaces and ranges offered, what
 * negotiation chose, and what converters libavfilter inserted next to cspfix change
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
#include "libavutil/pixdesc.h"

#include "avfilter.h"
#include "filters.h"
#include "formats.h"

#include "cspfix_colorimetry.h"
#include "cspfix_describe.h"
#include "cspfix_io.h"
#include "cspfix_negotiate.h"
#include "cspfix_ycgcor.h"

int ff_cspfix_query_formats(void *log_ctx, const CspfixDescribe *d, enum AVPixelFormat format,
                            AVFilterFormatsConfig **cfg_in, AVFilterFormatsConfig **cfg_out)
{
    AVFilterFormats *formats;
    int ret, rng, csp = d->out_set.csp;

    if (format != AV_PIX_FMT_NONE && ff_cspfix_unsupported_reason(format)) {
        av_log(log_ctx, AV_LOG_ERROR, "Unsupported output format %s: %s.\n",
               av_get_pix_fmt_name(format), ff_cspfix_unsupported_reason(format));
        return AVERROR(EINVAL);
    }

    /* Colour spaces and ranges: any on the input; on the output the one the
     * options fix, else any (negotiation then keeps the input's value when the
     * consumer takes it, else picks one the consumer takes and config_output()
     * makes it the target: no auto-inserted scale converts after us). */
    if (format != AV_PIX_FMT_NONE && ff_cspfix_is_rgb_fmt(format))
        csp = AVCOL_SPC_RGB;
    if ((ret = ff_formats_ref(ff_all_color_spaces(), &cfg_in[0]->color_spaces)) < 0)
        return ret;
    if ((ret = ff_formats_ref(csp != AVCOL_SPC_UNSPECIFIED ?
                              ff_make_formats_list_singleton(csp) : ff_all_color_spaces(),
                              &cfg_out[0]->color_spaces)) < 0)
        return ret;
    rng = d->out_set.range;
    if (rng == AVCOL_RANGE_UNSPECIFIED && ((format != AV_PIX_FMT_NONE &&
        ff_cspfix_is_rgb_fmt(format)) || ff_cspfix_is_ycgcor(csp)))
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
    if (format != AV_PIX_FMT_NONE) {
        formats = ff_make_formats_list_singleton(format);
    } else {
        /* what the options ask of the format: matrix rgb an RGB format, a Y'CbCr matrix
         * set by space= a Y'CbCr (or gray) one, limited range not a yuvj one (negotiation
         * then picks their yuv twins), YCgCo-R the native-endian
         * 4:4:4 formats of its depths, primaries other than CIE XYZ not an X'Y'Z' one */
        formats = NULL;
        for (const enum AVPixelFormat *p = ff_cspfix_pix_fmts(); *p != AV_PIX_FMT_NONE; p++) {
            const int rgb = ff_cspfix_is_rgb_fmt(*p);
            if ((csp == AVCOL_SPC_RGB && !rgb) ||
                (d->csp_explicit && csp != AVCOL_SPC_RGB && rgb) ||
                (rng == AVCOL_RANGE_MPEG && ff_cspfix_is_full_range_only(*p)) ||
                (ff_cspfix_is_xyz_fmt(*p) && d->out_set.prim != AVCOL_PRI_UNSPECIFIED &&
                 !ff_cspfix_is_xyz_prim(d->out_set.prim)) ||
                (ff_cspfix_is_ycgcor(csp) && (ff_cspfix_ycgcor_rgb_fmt(csp, *p) == AV_PIX_FMT_NONE ||
                 !(av_pix_fmt_desc_get(*p)->flags & AV_PIX_FMT_FLAG_BE) != !AV_NE(1, 0))))
                continue;
            if ((ret = ff_add_format(&formats, *p)) < 0)
                return ret;
        }
    }
    if (!formats)
        return AVERROR(ENOMEM);
    return ff_formats_ref(formats, &cfg_out[0]->formats);
}

/* "RGB", "Y'CbCr", "gray", "XYZ" or "paletted RGB", and the bits of a pixel format */
static const char *model_name(enum AVPixelFormat fmt)
{
    const AVPixFmtDescriptor *d = av_pix_fmt_desc_get(fmt);
    return !d ? "?" : d->flags & AV_PIX_FMT_FLAG_PAL ? "paletted RGB" :
           d->flags & AV_PIX_FMT_FLAG_XYZ ? "XYZ" : d->flags & AV_PIX_FMT_FLAG_RGB ? "RGB" :
           d->nb_components <= 2 ? "gray" : "Y'CbCr";
}

/* Y'CbCr whose links carry a colour space and range (libavfilter's regular YUV) */
static int is_regular_yuv(enum AVPixelFormat fmt)
{
    const AVPixFmtDescriptor *d = av_pix_fmt_desc_get(fmt);
    return d && d->nb_components >= 3 &&
           !(d->flags & (AV_PIX_FMT_FLAG_RGB | AV_PIX_FMT_FLAG_PAL | AV_PIX_FMT_FLAG_XYZ |
                         AV_PIX_FMT_FLAG_FLOAT | AV_PIX_FMT_FLAG_HWACCEL));
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
void ff_cspfix_negotiated_target(AVFilterContext *ctx, CspfixDescribe *d)
{
    AVFilterLink *inlink = ctx->inputs[0], *outlink = ctx->outputs[0];
    const AVFilterContext *next = outlink->dst;
    /* a preset's matrix (all, colorimetry) does not apply to RGB output */
    const int csp_free = d->out_set.csp == AVCOL_SPC_UNSPECIFIED ||
                         (!d->csp_explicit && ff_cspfix_is_rgb_fmt(outlink->format));
    const int range_free = d->out_set.range == AVCOL_RANGE_UNSPECIFIED;

    d->neg_csp   = AVCOL_SPC_UNSPECIFIED;
    d->neg_range = AVCOL_RANGE_UNSPECIFIED;
    if (csp_free && !ff_cspfix_is_rgb_fmt(outlink->format) &&
        outlink->colorspace != AVCOL_SPC_UNSPECIFIED && outlink->colorspace != AVCOL_SPC_RGB &&
        outlink->colorspace != inlink->colorspace)
        d->neg_csp = outlink->colorspace;
    if (range_free &&
        outlink->color_range != AVCOL_RANGE_UNSPECIFIED &&
        outlink->color_range != inlink->color_range)
        d->neg_range = outlink->color_range;
    if (d->neg_csp != AVCOL_SPC_UNSPECIFIED || d->neg_range != AVCOL_RANGE_UNSPECIFIED)
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
        /* the matrix and range set by the options that the consumer cannot take (they
         * only exist for Y'CbCr on both sides) */
        if (is_regular_yuv(outlink->format) && is_regular_yuv(l->format)) {
            char set[64] = "", takes[64] = "";
            if (!csp_free && l->colorspace != outlink->colorspace) {
                av_strlcatf(set, sizeof(set), "matrix %s", av_color_space_name(outlink->colorspace));
                av_strlcatf(takes, sizeof(takes), "matrix %s", av_color_space_name(l->colorspace));
            }
            if (!range_free && l->color_range != outlink->color_range) {
                av_strlcatf(set, sizeof(set), "%srange %s", *set ? " and " : "",
                            av_color_range_name(outlink->color_range));
                av_strlcatf(takes, sizeof(takes), "%srange %s", *takes ? " and " : "",
                            av_color_range_name(l->color_range));
            }
            if (*set)
                av_log(ctx, AV_LOG_WARNING, "The output's %s is set by the options, but what "
                       "follows only takes %s: the auto-inserted %s converts it again. Leave "
                       "it unset to let cspfix convert to what the consumer takes.\n",
                       set, takes, next->name);
        }
    }
}
