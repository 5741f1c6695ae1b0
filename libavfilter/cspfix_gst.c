/*
 * cspfix: mapping between GStreamer colorimetry strings and AVFrame colour fields
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
 * GStreamer's enums are mapped to FFmpeg's (the ITU-T H.273 code points) as
 * GStreamer itself does in gst_video_color_matrix_to_iso(),
 * gst_video_transfer_function_to_iso() and gst_video_color_primaries_to_iso()
 * (gst-libs/gst/video/video-color.c), with these additions:
 * - GAMMA10 ("linear RGB, gamma 1.0 curve") is AVCOL_TRC_LINEAR (H.273 8),
 *   as GStreamer's to_iso maps it too;
 * - GAMMA18, GAMMA20 and the ADOBERGB transfer and primaries have no H.273
 *   value (GStreamer maps them to "unspecified"); here they are an error;
 * - MATRIX_BT601 is AVCOL_SPC_SMPTE170M; AVCOL_SPC_BT470BG (the same matrix)
 *   also becomes BT601 in the other direction;
 * - RANGE_0_1 (GStreamer 1.30, float formats) is full range.
 */

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "libavutil/avstring.h"
#include "libavutil/error.h"
#include "libavutil/pixfmt.h"

#include "cspfix_gst.h"

typedef struct GstColorimetry {
    int range, matrix, transfer, primaries;
} GstColorimetry;

/* the named table of video-color.c (MAKE_COLORIMETRY), in its order */
static const struct {
    const char *name;
    GstColorimetry c;
} named[] = {
    { "bt601",      { CSPFIX_GST_RANGE_16_235, CSPFIX_GST_MATRIX_BT601,
                      CSPFIX_GST_TRANSFER_BT601, CSPFIX_GST_PRIMARIES_SMPTE170M } },
    { "bt709",      { CSPFIX_GST_RANGE_16_235, CSPFIX_GST_MATRIX_BT709,
                      CSPFIX_GST_TRANSFER_BT709, CSPFIX_GST_PRIMARIES_BT709 } },
    { "smpte240m",  { CSPFIX_GST_RANGE_16_235, CSPFIX_GST_MATRIX_SMPTE240M,
                      CSPFIX_GST_TRANSFER_SMPTE240M, CSPFIX_GST_PRIMARIES_SMPTE240M } },
    { "sRGB",       { CSPFIX_GST_RANGE_0_255, CSPFIX_GST_MATRIX_RGB,
                      CSPFIX_GST_TRANSFER_SRGB, CSPFIX_GST_PRIMARIES_BT709 } },
    { "bt2020",     { CSPFIX_GST_RANGE_16_235, CSPFIX_GST_MATRIX_BT2020,
                      CSPFIX_GST_TRANSFER_BT2020_12, CSPFIX_GST_PRIMARIES_BT2020 } },
    { "bt2020-10",  { CSPFIX_GST_RANGE_16_235, CSPFIX_GST_MATRIX_BT2020,
                      CSPFIX_GST_TRANSFER_BT2020_10, CSPFIX_GST_PRIMARIES_BT2020 } },
    { "bt2100-pq",  { CSPFIX_GST_RANGE_16_235, CSPFIX_GST_MATRIX_BT2020,
                      CSPFIX_GST_TRANSFER_SMPTE2084, CSPFIX_GST_PRIMARIES_BT2020 } },
    { "bt2100-hlg", { CSPFIX_GST_RANGE_16_235, CSPFIX_GST_MATRIX_BT2020,
                      CSPFIX_GST_TRANSFER_ARIB_STD_B67, CSPFIX_GST_PRIMARIES_BT2020 } },
};

static const char why_malformed[] =
    "malformed GStreamer colorimetry: expected a name (bt601, bt709, smpte240m, "
    "sRGB, bt2020, bt2020-10, bt2100-pq, bt2100-hlg) or range:matrix:transfer:"
    "primaries as four decimal integers";
static const char why_unknown[] =
    "GStreamer colorimetry: a range, matrix, transfer or primaries number that "
    "is not in GStreamer's enums";
static const char why_adobe_both[] =
    "GStreamer colorimetry: neither Adobe RGB primaries nor the Adobe RGB "
    "transfer (pure power 2.19921875) has an FFmpeg value";
static const char why_adobe_prim[] =
    "GStreamer primaries adobergb: Adobe RGB (1998) primaries have no FFmpeg "
    "colour primaries value";
static const char why_adobe_trc[] =
    "GStreamer transfer adobergb: the Adobe RGB transfer (pure power "
    "2.19921875) has no FFmpeg transfer characteristic";
static const char why_gamma18[] =
    "GStreamer transfer gamma18: a pure power 1.8 has no FFmpeg transfer "
    "characteristic";
static const char why_gamma20[] =
    "GStreamer transfer gamma20: a pure power 2.0 has no FFmpeg transfer "
    "characteristic";

/* one decimal field of the numeric form; returns the end or NULL */
static const char *parse_field(const char *p, int *val)
{
    int v = 0, n = 0;

    while (*p >= '0' && *p <= '9') {
        if (v < 1000)
            v = v * 10 + (*p - '0');
        p++;
        n++;
    }
    *val = v;
    return n ? p : NULL;
}

static int parse_numeric(const char *s, GstColorimetry *c)
{
    int f[4];

    for (int i = 0; i < 4; i++) {
        s = parse_field(s, &f[i]);
        if (!s || *s != (i < 3 ? ':' : '\0'))
            return 0;
        s++;
    }
    c->range     = f[0];
    c->matrix    = f[1];
    c->transfer  = f[2];
    c->primaries = f[3];
    return 1;
}

int ff_cspfix_from_gst_colorimetry(const char *str,
                                   enum AVColorPrimaries *prim,
                                   enum AVColorTransferCharacteristic *trc,
                                   enum AVColorSpace *csp,
                                   enum AVColorRange *range,
                                   const char **why)
{
    GstColorimetry c = { 0 };
    const char *msg = NULL;
    int found = !str;

    *prim  = AVCOL_PRI_UNSPECIFIED;
    *trc   = AVCOL_TRC_UNSPECIFIED;
    *csp   = AVCOL_SPC_UNSPECIFIED;
    *range = AVCOL_RANGE_UNSPECIFIED;
    if (why)
        *why = NULL;

    for (size_t i = 0; str && !found && i < sizeof(named) / sizeof(named[0]); i++) {
        if (!strcmp(named[i].name, str)) {
            c = named[i].c;
            found = 1;
        }
    }
    if (!found && !parse_numeric(str, &c)) {
        if (why)
            *why = why_malformed;
        return AVERROR(EINVAL);
    }
    if (c.range     < 0 || c.range     >= CSPFIX_GST_RANGE_NB     ||
        c.matrix    < 0 || c.matrix    >= CSPFIX_GST_MATRIX_NB    ||
        c.transfer  < 0 || c.transfer  >= CSPFIX_GST_TRANSFER_NB  ||
        c.primaries < 0 || c.primaries >= CSPFIX_GST_PRIMARIES_NB) {
        if (why)
            *why = why_unknown;
        return AVERROR(EINVAL);
    }

    switch (c.range) {
    case CSPFIX_GST_RANGE_UNKNOWN: *range = AVCOL_RANGE_UNSPECIFIED; break;
    case CSPFIX_GST_RANGE_0_255:
    case CSPFIX_GST_RANGE_0_1:     *range = AVCOL_RANGE_JPEG;        break;
    case CSPFIX_GST_RANGE_16_235:  *range = AVCOL_RANGE_MPEG;        break;
    }

    switch (c.matrix) {
    case CSPFIX_GST_MATRIX_UNKNOWN:   *csp = AVCOL_SPC_UNSPECIFIED; break;
    case CSPFIX_GST_MATRIX_RGB:       *csp = AVCOL_SPC_RGB;         break;
    case CSPFIX_GST_MATRIX_FCC:       *csp = AVCOL_SPC_FCC;         break;
    case CSPFIX_GST_MATRIX_BT709:     *csp = AVCOL_SPC_BT709;       break;
    case CSPFIX_GST_MATRIX_BT601:     *csp = AVCOL_SPC_SMPTE170M;   break;
    case CSPFIX_GST_MATRIX_SMPTE240M: *csp = AVCOL_SPC_SMPTE240M;   break;
    case CSPFIX_GST_MATRIX_BT2020:    *csp = AVCOL_SPC_BT2020_NCL;  break;
    }

    switch (c.primaries) {
    case CSPFIX_GST_PRIMARIES_UNKNOWN:    *prim = AVCOL_PRI_UNSPECIFIED; break;
    case CSPFIX_GST_PRIMARIES_BT709:      *prim = AVCOL_PRI_BT709;       break;
    case CSPFIX_GST_PRIMARIES_BT470M:     *prim = AVCOL_PRI_BT470M;      break;
    case CSPFIX_GST_PRIMARIES_BT470BG:    *prim = AVCOL_PRI_BT470BG;     break;
    case CSPFIX_GST_PRIMARIES_SMPTE170M:  *prim = AVCOL_PRI_SMPTE170M;   break;
    case CSPFIX_GST_PRIMARIES_SMPTE240M:  *prim = AVCOL_PRI_SMPTE240M;   break;
    case CSPFIX_GST_PRIMARIES_FILM:       *prim = AVCOL_PRI_FILM;        break;
    case CSPFIX_GST_PRIMARIES_BT2020:     *prim = AVCOL_PRI_BT2020;      break;
    case CSPFIX_GST_PRIMARIES_SMPTEST428: *prim = AVCOL_PRI_SMPTE428;    break;
    case CSPFIX_GST_PRIMARIES_SMPTERP431: *prim = AVCOL_PRI_SMPTE431;    break;
    case CSPFIX_GST_PRIMARIES_SMPTEEG432: *prim = AVCOL_PRI_SMPTE432;    break;
    case CSPFIX_GST_PRIMARIES_EBU3213:    *prim = AVCOL_PRI_EBU3213;     break;
    case CSPFIX_GST_PRIMARIES_ADOBERGB:
        msg = c.transfer == CSPFIX_GST_TRANSFER_ADOBERGB ? why_adobe_both :
                                                           why_adobe_prim;
        break;
    }

    switch (c.transfer) {
    case CSPFIX_GST_TRANSFER_UNKNOWN:      *trc = AVCOL_TRC_UNSPECIFIED;  break;
    case CSPFIX_GST_TRANSFER_GAMMA10:      *trc = AVCOL_TRC_LINEAR;       break;
    case CSPFIX_GST_TRANSFER_GAMMA22:      *trc = AVCOL_TRC_GAMMA22;      break;
    case CSPFIX_GST_TRANSFER_BT709:        *trc = AVCOL_TRC_BT709;        break;
    case CSPFIX_GST_TRANSFER_SMPTE240M:    *trc = AVCOL_TRC_SMPTE240M;    break;
    case CSPFIX_GST_TRANSFER_SRGB:         *trc = AVCOL_TRC_IEC61966_2_1; break;
    case CSPFIX_GST_TRANSFER_GAMMA28:      *trc = AVCOL_TRC_GAMMA28;      break;
    case CSPFIX_GST_TRANSFER_LOG100:       *trc = AVCOL_TRC_LOG;          break;
    case CSPFIX_GST_TRANSFER_LOG316:       *trc = AVCOL_TRC_LOG_SQRT;     break;
    case CSPFIX_GST_TRANSFER_BT2020_12:    *trc = AVCOL_TRC_BT2020_12;    break;
    case CSPFIX_GST_TRANSFER_BT2020_10:    *trc = AVCOL_TRC_BT2020_10;    break;
    case CSPFIX_GST_TRANSFER_SMPTE2084:    *trc = AVCOL_TRC_SMPTE2084;    break;
    case CSPFIX_GST_TRANSFER_ARIB_STD_B67: *trc = AVCOL_TRC_ARIB_STD_B67; break;
    case CSPFIX_GST_TRANSFER_BT601:        *trc = AVCOL_TRC_SMPTE170M;    break;
    case CSPFIX_GST_TRANSFER_GAMMA18:
        if (!msg)
            msg = why_gamma18;
        break;
    case CSPFIX_GST_TRANSFER_GAMMA20:
        if (!msg)
            msg = why_gamma20;
        break;
    case CSPFIX_GST_TRANSFER_ADOBERGB:
        if (!msg)
            msg = why_adobe_trc;
        break;
    }

    if (msg) {
        if (why)
            *why = msg;
        return AVERROR(ENOSYS);
    }
    return 0;
}

int ff_cspfix_to_gst_colorimetry(enum AVColorPrimaries prim,
                                 enum AVColorTransferCharacteristic trc,
                                 enum AVColorSpace csp, enum AVColorRange range,
                                 char *buf, size_t size)
{
    GstColorimetry c = { 0 };
    const char *name = NULL;
    size_t len;
    int ok = 1;

    switch (range) {
    case AVCOL_RANGE_UNSPECIFIED: c.range = CSPFIX_GST_RANGE_UNKNOWN; break;
    case AVCOL_RANGE_JPEG:        c.range = CSPFIX_GST_RANGE_0_255;   break;
    case AVCOL_RANGE_MPEG:        c.range = CSPFIX_GST_RANGE_16_235;  break;
    default:                      ok = 0;                             break;
    }

    switch (csp) {
    case AVCOL_SPC_UNSPECIFIED: c.matrix = CSPFIX_GST_MATRIX_UNKNOWN;   break;
    case AVCOL_SPC_RGB:         c.matrix = CSPFIX_GST_MATRIX_RGB;       break;
    case AVCOL_SPC_FCC:         c.matrix = CSPFIX_GST_MATRIX_FCC;       break;
    case AVCOL_SPC_BT709:       c.matrix = CSPFIX_GST_MATRIX_BT709;     break;
    case AVCOL_SPC_BT470BG:
    case AVCOL_SPC_SMPTE170M:   c.matrix = CSPFIX_GST_MATRIX_BT601;     break;
    case AVCOL_SPC_SMPTE240M:   c.matrix = CSPFIX_GST_MATRIX_SMPTE240M; break;
    case AVCOL_SPC_BT2020_NCL:  c.matrix = CSPFIX_GST_MATRIX_BT2020;    break;
    default:                    ok = 0;                                 break;
    }

    switch (trc) {
    case AVCOL_TRC_UNSPECIFIED:  c.transfer = CSPFIX_GST_TRANSFER_UNKNOWN;      break;
    case AVCOL_TRC_LINEAR:       c.transfer = CSPFIX_GST_TRANSFER_GAMMA10;      break;
    case AVCOL_TRC_GAMMA22:      c.transfer = CSPFIX_GST_TRANSFER_GAMMA22;      break;
    case AVCOL_TRC_BT709:        c.transfer = CSPFIX_GST_TRANSFER_BT709;        break;
    case AVCOL_TRC_SMPTE240M:    c.transfer = CSPFIX_GST_TRANSFER_SMPTE240M;    break;
    case AVCOL_TRC_IEC61966_2_1: c.transfer = CSPFIX_GST_TRANSFER_SRGB;         break;
    case AVCOL_TRC_GAMMA28:      c.transfer = CSPFIX_GST_TRANSFER_GAMMA28;      break;
    case AVCOL_TRC_LOG:          c.transfer = CSPFIX_GST_TRANSFER_LOG100;       break;
    case AVCOL_TRC_LOG_SQRT:     c.transfer = CSPFIX_GST_TRANSFER_LOG316;       break;
    case AVCOL_TRC_BT2020_12:    c.transfer = CSPFIX_GST_TRANSFER_BT2020_12;    break;
    case AVCOL_TRC_BT2020_10:    c.transfer = CSPFIX_GST_TRANSFER_BT2020_10;    break;
    case AVCOL_TRC_SMPTE2084:    c.transfer = CSPFIX_GST_TRANSFER_SMPTE2084;    break;
    case AVCOL_TRC_ARIB_STD_B67: c.transfer = CSPFIX_GST_TRANSFER_ARIB_STD_B67; break;
    case AVCOL_TRC_SMPTE170M:    c.transfer = CSPFIX_GST_TRANSFER_BT601;        break;
    default:                     ok = 0;                                        break;
    }

    switch (prim) {
    case AVCOL_PRI_UNSPECIFIED: c.primaries = CSPFIX_GST_PRIMARIES_UNKNOWN;    break;
    case AVCOL_PRI_BT709:       c.primaries = CSPFIX_GST_PRIMARIES_BT709;      break;
    case AVCOL_PRI_BT470M:      c.primaries = CSPFIX_GST_PRIMARIES_BT470M;     break;
    case AVCOL_PRI_BT470BG:     c.primaries = CSPFIX_GST_PRIMARIES_BT470BG;    break;
    case AVCOL_PRI_SMPTE170M:   c.primaries = CSPFIX_GST_PRIMARIES_SMPTE170M;  break;
    case AVCOL_PRI_SMPTE240M:   c.primaries = CSPFIX_GST_PRIMARIES_SMPTE240M;  break;
    case AVCOL_PRI_FILM:        c.primaries = CSPFIX_GST_PRIMARIES_FILM;       break;
    case AVCOL_PRI_BT2020:      c.primaries = CSPFIX_GST_PRIMARIES_BT2020;     break;
    case AVCOL_PRI_SMPTE428:    c.primaries = CSPFIX_GST_PRIMARIES_SMPTEST428; break;
    case AVCOL_PRI_SMPTE431:    c.primaries = CSPFIX_GST_PRIMARIES_SMPTERP431; break;
    case AVCOL_PRI_SMPTE432:    c.primaries = CSPFIX_GST_PRIMARIES_SMPTEEG432; break;
    case AVCOL_PRI_EBU3213:     c.primaries = CSPFIX_GST_PRIMARIES_EBU3213;    break;
    default:                    ok = 0;                                        break;
    }

    if (!size)
        return AVERROR_BUFFER_TOO_SMALL;
    if (!ok) {
        buf[0] = '\0';
        return AVERROR(ENOSYS);
    }

    for (size_t i = 0; i < sizeof(named) / sizeof(named[0]); i++) {
        const GstColorimetry *n = &named[i].c;
        if (n->range == c.range && n->matrix == c.matrix &&
            n->transfer == c.transfer && n->primaries == c.primaries) {
            name = named[i].name;
            break;
        }
    }

    if (name)
        len = av_strlcpy(buf, name, size);
    else
        len = snprintf(buf, size, "%d:%d:%d:%d",
                       c.range, c.matrix, c.transfer, c.primaries);
    if (len >= size) {
        buf[0] = '\0';
        return AVERROR_BUFFER_TOO_SMALL;
    }
    return 0;
}
