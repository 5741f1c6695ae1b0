/*
 * cspfix: HDR (which transfers are HDR; the source peak from side data; the output's
 * side data)
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

#include <math.h>
#include <string.h>

#include "libavutil/csp.h"
#include "libavutil/frame.h"
#include "libavutil/hdr_dynamic_metadata.h"
#include "libavutil/mastering_display_metadata.h"

#include "cspfix_hdrmeta.h"
#include "cspfix_tf.h"

int ff_cspfix_is_hdr_trc(enum AVColorTransferCharacteristic trc)
{
    return trc == AVCOL_TRC_SMPTE2084 || trc == AVCOL_TRC_ARIB_STD_B67;
}

/* The first processing window (the whole picture) of the frame's HDR10+ (SMPTE ST
 * 2094-40) metadata, NULL if none */
static const AVHDRPlusColorTransformParams *hdr10plus_window(const AVFrame *in)
{
    const AVFrameSideData *sd = av_frame_get_side_data(in, AV_FRAME_DATA_DYNAMIC_HDR_PLUS);
    const AVDynamicHDRPlus *h;

    if (!sd || sd->size < sizeof(*h))
        return NULL;
    h = (const AVDynamicHDRPlus *)sd->data;
    return h->num_windows < 1 ? NULL : &h->params[0];
}

/* An HDR10+ light value (FFmpeg stores 0.1 cd/m2 units, up to 100000, divided by 100000)
 * in cd/m2, 0 if unset */
static double hdr10plus_nits(AVRational q)
{
    return q.den && q.num > 0 ? FFMIN(av_q2d(q), 1.0) * 10000.0 : 0.0;
}

/* The scene's brightest component in cd/m2 from HDR10+ metadata, 0 if none: the largest
 * MaxSCL; when the maxRGB distribution's top percentile is above it (a writer that left
 * MaxSCL 0 or wrong), that percentile, since no percentile exceeds the maximum. */
static double hdr10plus_peak(const AVFrame *in)
{
    const AVHDRPlusColorTransformParams *p = hdr10plus_window(in);
    double m = 0.0;

    if (!p)
        return 0.0;
    for (int c = 0; c < 3; c++)
        m = FFMAX(m, hdr10plus_nits(p->maxscl[c]));
    for (int i = 0; i < FFMIN(p->num_distribution_maxrgb_percentiles, 15); i++)
        m = FFMAX(m, hdr10plus_nits(p->distribution_maxrgb[i].percentile));
    return m;
}

/* The scene's average in cd/m2 from HDR10+ metadata, 0 if none: average maxRGB, else the
 * maxRGB distribution's median (the 50th percentile) */
static double hdr10plus_avg(const AVFrame *in)
{
    const AVHDRPlusColorTransformParams *p = hdr10plus_window(in);
    double a;

    if (!p)
        return 0.0;
    if ((a = hdr10plus_nits(p->average_maxrgb)) > 0.0)
        return a;
    for (int i = 0; i < FFMIN(p->num_distribution_maxrgb_percentiles, 15); i++)
        if (p->distribution_maxrgb[i].percentage == 50)
            return hdr10plus_nits(p->distribution_maxrgb[i].percentile);
    return 0.0;
}

double ff_cspfix_source_avg(const AVFrame *in, int hdr_in, double measured, double rpu)
{
    if (!hdr_in)
        return 0.0;
    return measured > 0.0 ? measured : rpu > 0.0 ? rpu : hdr10plus_avg(in);
}

int ff_cspfix_hdr10plus_curve(const AVFrame *in, CspfixBezier *bz)
{
    const AVFrameSideData *sd = av_frame_get_side_data(in, AV_FRAME_DATA_DYNAMIC_HDR_PLUS);
    const AVDynamicHDRPlus *h;
    const AVHDRPlusColorTransformParams *p;

    memset(bz, 0, sizeof(*bz));
    if (!sd || sd->size < sizeof(*h))
        return 0;
    h = (const AVDynamicHDRPlus *)sd->data;
    p = &h->params[0];
    if (h->num_windows < 1 || !p->tone_mapping_flag || !p->knee_point_x.den ||
        !p->knee_point_y.den || !h->targeted_system_display_maximum_luminance.den ||
        p->num_bezier_curve_anchors > 15)
        return 0;
    bz->target = av_q2d(h->targeted_system_display_maximum_luminance);
    bz->kx     = av_clipd(av_q2d(p->knee_point_x), 0.0, 1.0);
    bz->ky     = av_clipd(av_q2d(p->knee_point_y), 0.0, 1.0);
    if (bz->target <= 0.0 || bz->kx >= 1.0) {
        memset(bz, 0, sizeof(*bz));
        return 0;
    }
    bz->n = p->num_bezier_curve_anchors + 1;
    /* anchors made non-decreasing in [0, 1]: the curve cannot turn down */
    for (int k = 1; k < bz->n; k++)
        bz->p[k] = av_clipd(p->bezier_curve_anchors[k - 1].den ?
                            av_q2d(p->bezier_curve_anchors[k - 1]) : 0.0, bz->p[k - 1], 1.0);
    bz->p[bz->n] = 1.0;
    return 1;
}

/*
 * Source peak of an HDR frame in cd/m2, for tone mapping: peak= (the user wins), then the
 * measured peak (peak=auto), then the scene's MaxSCL from HDR10+ metadata, then the content
 * light level MaxCLL (the brightest pixel of the content), then the mastering display's
 * maximum luminance (which bounds what was graded), then 1000. 0 for SDR input.
 */
double ff_cspfix_source_peak(void *log_ctx, const AVFrame *in, int hdr_in, double peak_opt,
                             double measured, double rpu, int want_prim, double prim[3][2],
                             double *last)
{
    const AVFrameSideData *sd;
    const AVMasteringDisplayMetadata *m = NULL;
    double peak = 0.0, meta = 0.0;
    const char *from = "default", *meta_from = NULL;

    memset(prim, 0, sizeof(double) * 6);
    if (!hdr_in)
        return 0.0;
    if ((sd = av_frame_get_side_data(in, AV_FRAME_DATA_MASTERING_DISPLAY_METADATA))) {
        m = (const AVMasteringDisplayMetadata *)sd->data;
        if (m->has_primaries && want_prim)
            for (int c = 0; c < 3; c++)
                for (int i = 0; i < 2; i++)
                    prim[c][i] = m->display_primaries[c][i].den ?
                                 av_q2d(m->display_primaries[c][i]) : 0.0;
    }
    if ((sd = av_frame_get_side_data(in, AV_FRAME_DATA_CONTENT_LIGHT_LEVEL))) {
        const AVContentLightMetadata *c = (const AVContentLightMetadata *)sd->data;
        if (c->MaxCLL > 0) {
            meta      = c->MaxCLL;
            meta_from = "content light level MaxCLL";
        }
    }
    if (!meta && m && m->has_luminance && m->max_luminance.den &&
        av_q2d(m->max_luminance) > 0.0) {
        meta      = av_q2d(m->max_luminance);
        meta_from = "mastering display maximum luminance";
    }
    if (peak_opt > 0.0) {
        peak = peak_opt;
        from = "peak option";
    } else if (measured > 0.0) {
        peak = measured;
        from = "measured (peak=auto)";
    } else if (rpu > 0.0) {
        peak = rpu;
        from = "Dolby Vision RPU, L1 shot maximum";
    } else if ((peak = hdr10plus_peak(in)) > 0.0) {
        from = "HDR10+ scene MaxSCL";
    } else if (meta > 0.0) {
        peak = meta;
        from = meta_from;
    }
    if (!peak)
        peak = CSPFIX_SRC_PEAK_DEFAULT;
    if (last && peak != *last) {
        if (measured > 0.0 && peak_opt <= 0.0 && meta > 0.0 &&
            (meta > CSPFIX_META_MARGIN * measured || measured > CSPFIX_META_MARGIN * meta))
            av_log(log_ctx, AV_LOG_VERBOSE, "Source peak %g cd/m2 (%s); the %s says %g "
                   "cd/m2: the measurement wins.\n", peak, from, meta_from, meta);
        else
            av_log(log_ctx, AV_LOG_VERBOSE, "Source peak %g cd/m2 (%s).\n", peak, from);
    }
    if (last)
        *last = peak;
    return peak;
}

void ff_cspfix_mdm_primaries(AVMasteringDisplayMetadata *m, const AVColorPrimariesDesc *d)
{
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

static void set_mdm_primaries(AVMasteringDisplayMetadata *m, enum AVColorPrimaries prim)
{
    const AVColorPrimariesDesc *d = av_csp_primaries_desc_from_id(prim);
    if (d)
        ff_cspfix_mdm_primaries(m, d);
}

/* Dynamic HDR metadata (per-scene tone mapping hints for the source's transfer and peak). */
static void remove_dynamic_hdr(AVFrame *out)
{
    av_frame_remove_side_data(out, AV_FRAME_DATA_DYNAMIC_HDR_PLUS);
    av_frame_remove_side_data(out, AV_FRAME_DATA_DYNAMIC_HDR_VIVID);
    av_frame_remove_side_data(out, AV_FRAME_DATA_DOVI_RPU_BUFFER);
    av_frame_remove_side_data(out, AV_FRAME_DATA_DOVI_METADATA);
}

/* The frame's side data of this type, its buffer made the frame's own to write to (the
 * output link's side data shares its buffers with the input link's and the caller's, a
 * frame passed through shares them with the input frame); NULL if absent or out of
 * memory (*err). */
static AVFrameSideData *writable_side_data(AVFrame *f, enum AVFrameSideDataType type, int *err)
{
    AVFrameSideData *sd = av_frame_get_side_data(f, type);
    int ret;

    if (!sd || !sd->buf || av_buffer_is_writable(sd->buf))
        return sd;
    if ((ret = av_buffer_make_writable(&sd->buf)) < 0) {
        *err = ret;
        return NULL;
    }
    sd->data = sd->buf->data;
    return sd;
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
int ff_cspfix_output_side_data(AVFrame *out, const CspfixDesc *id, const CspfixDesc *od,
                               int tm_peak, int tone_mapped, double target_peak)
{
    const int hdr_in = ff_cspfix_is_hdr_trc(id->trc);
    AVFrameSideData *sd;
    int err = 0;

    if (id->prim != od->prim || id->trc != od->trc)
        av_frame_remove_side_data(out, AV_FRAME_DATA_ICC_PROFILE);
    if (id->trc != od->trc || tone_mapped)
        remove_dynamic_hdr(out);

    if (!ff_cspfix_is_hdr_trc(od->trc)) {
        /* HDR metadata describes PQ/HLG signals; it is wrong for SDR output */
        av_frame_remove_side_data(out, AV_FRAME_DATA_MASTERING_DISPLAY_METADATA);
        av_frame_remove_side_data(out, AV_FRAME_DATA_CONTENT_LIGHT_LEVEL);
        return 0;
    }
    if (!hdr_in) {
        /* SDR content now peaks at target_peak (SDR white) in the output gamut; an HLG
         * signal is made for the 1000 cd/m2 reference display */
        const double peak = target_peak > 0.0 ? target_peak : CSPFIX_HDR_TARGET_DEFAULT;
        const double display = od->trc == AVCOL_TRC_ARIB_STD_B67 ? CSPFIX_HLG_LW : peak;
        AVMasteringDisplayMetadata *m;
        AVContentLightMetadata *c;
        av_frame_remove_side_data(out, AV_FRAME_DATA_MASTERING_DISPLAY_METADATA);
        av_frame_remove_side_data(out, AV_FRAME_DATA_CONTENT_LIGHT_LEVEL);
        if (!(m = av_mastering_display_metadata_create_side_data(out)) ||
            !(c = av_content_light_metadata_create_side_data(out)))
            return AVERROR(ENOMEM);
        set_mdm_primaries(m, od->prim);
        m->max_luminance = av_d2q(display, 100000);
        m->min_luminance = av_make_q(0, 1);
        m->has_luminance = 1;
        /* no frame averages above its brightest pixel: MaxFALL's bound is MaxCLL, which
         * an all-white frame reaches (0 would mean unknown; Matroska drops both then) */
        c->MaxCLL  = lrint(peak);
        c->MaxFALL = c->MaxCLL;
        return 0;
    }
    if (tm_peak > 0 &&
        (sd = writable_side_data(out, AV_FRAME_DATA_MASTERING_DISPLAY_METADATA, &err))) {
        AVMasteringDisplayMetadata *m = (AVMasteringDisplayMetadata *)sd->data;
        if (m->has_luminance && av_q2d(m->max_luminance) > tm_peak)
            m->max_luminance = av_make_q(tm_peak, 1);
    }
    if (tm_peak > 0 && !err &&
        (sd = writable_side_data(out, AV_FRAME_DATA_CONTENT_LIGHT_LEVEL, &err))) {
        AVContentLightMetadata *c = (AVContentLightMetadata *)sd->data;
        c->MaxCLL  = FFMIN(c->MaxCLL, tm_peak);
        c->MaxFALL = FFMIN(c->MaxFALL, tm_peak);
    }
    return err;
}
