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

#ifndef AVFILTER_CSPFIX_GST_H
#define AVFILTER_CSPFIX_GST_H

#include <stddef.h>

#include "libavutil/pixfmt.h"

/*
 * Numeric values of the GStreamer colorimetry enums, from gst-plugins-base
 * gst-libs/gst/video/video-color.h (GstVideoColorRange, GstVideoColorMatrix,
 * GstVideoTransferFunction, GstVideoColorPrimaries).  They are the integers
 * of the "range:matrix:transfer:primaries" string form.
 */
#define CSPFIX_GST_RANGE_UNKNOWN             0
#define CSPFIX_GST_RANGE_0_255               1
#define CSPFIX_GST_RANGE_16_235              2
#define CSPFIX_GST_RANGE_0_1                 3  ///< since 1.30, float formats
#define CSPFIX_GST_RANGE_NB                  4

#define CSPFIX_GST_MATRIX_UNKNOWN            0
#define CSPFIX_GST_MATRIX_RGB                1
#define CSPFIX_GST_MATRIX_FCC                2
#define CSPFIX_GST_MATRIX_BT709              3
#define CSPFIX_GST_MATRIX_BT601              4
#define CSPFIX_GST_MATRIX_SMPTE240M          5
#define CSPFIX_GST_MATRIX_BT2020             6
#define CSPFIX_GST_MATRIX_NB                 7

#define CSPFIX_GST_TRANSFER_UNKNOWN          0
#define CSPFIX_GST_TRANSFER_GAMMA10          1
#define CSPFIX_GST_TRANSFER_GAMMA18          2
#define CSPFIX_GST_TRANSFER_GAMMA20          3
#define CSPFIX_GST_TRANSFER_GAMMA22          4
#define CSPFIX_GST_TRANSFER_BT709            5
#define CSPFIX_GST_TRANSFER_SMPTE240M        6
#define CSPFIX_GST_TRANSFER_SRGB             7
#define CSPFIX_GST_TRANSFER_GAMMA28          8
#define CSPFIX_GST_TRANSFER_LOG100           9
#define CSPFIX_GST_TRANSFER_LOG316          10
#define CSPFIX_GST_TRANSFER_BT2020_12       11
#define CSPFIX_GST_TRANSFER_ADOBERGB        12
#define CSPFIX_GST_TRANSFER_BT2020_10       13
#define CSPFIX_GST_TRANSFER_SMPTE2084       14
#define CSPFIX_GST_TRANSFER_ARIB_STD_B67    15
#define CSPFIX_GST_TRANSFER_BT601           16
#define CSPFIX_GST_TRANSFER_NB              17

#define CSPFIX_GST_PRIMARIES_UNKNOWN         0
#define CSPFIX_GST_PRIMARIES_BT709           1
#define CSPFIX_GST_PRIMARIES_BT470M          2
#define CSPFIX_GST_PRIMARIES_BT470BG         3
#define CSPFIX_GST_PRIMARIES_SMPTE170M       4
#define CSPFIX_GST_PRIMARIES_SMPTE240M       5
#define CSPFIX_GST_PRIMARIES_FILM            6
#define CSPFIX_GST_PRIMARIES_BT2020          7
#define CSPFIX_GST_PRIMARIES_ADOBERGB        8
#define CSPFIX_GST_PRIMARIES_SMPTEST428      9
#define CSPFIX_GST_PRIMARIES_SMPTERP431     10
#define CSPFIX_GST_PRIMARIES_SMPTEEG432     11
#define CSPFIX_GST_PRIMARIES_EBU3213        12
#define CSPFIX_GST_PRIMARIES_NB             13

/**
 * Translate a GStreamer colorimetry string (as in caps "colorimetry=...")
 * into AVFrame colour fields.
 *
 * Accepted: the named colorimetries of gst_video_colorimetry_from_string
 * ("bt601", "bt709", "smpte240m", "sRGB", "bt2020", "bt2020-10",
 * "bt2100-pq", "bt2100-hlg"; case-sensitive like GStreamer) and the numeric
 * form "range:matrix:transfer:primaries" of four decimal integers.  Unlike
 * GStreamer's sscanf, no sign, white space or trailing characters are
 * accepted, and each integer must be a value of its enum.  NULL means
 * "no colorimetry": every field unspecified, like GStreamer.
 *
 * UNKNOWN fields become *_UNSPECIFIED; the linear GAMMA10 transfer is
 * AVCOL_TRC_LINEAR; RANGE_0_1 (float formats) is full range.
 *
 * @param why if not NULL, set to a static message on failure, else NULL
 * @return 0; AVERROR(EINVAL) for a malformed string or an unknown enum value
 *         (all fields *_UNSPECIFIED); AVERROR(ENOSYS) if a field has no
 *         FFmpeg equivalent (GAMMA18, GAMMA20, ADOBERGB transfer, ADOBERGB
 *         primaries): that field is *_UNSPECIFIED, the others are set.
 */
int ff_cspfix_from_gst_colorimetry(const char *str,
                                   enum AVColorPrimaries *prim,
                                   enum AVColorTransferCharacteristic *trc,
                                   enum AVColorSpace *csp,
                                   enum AVColorRange *range,
                                   const char **why);

/**
 * Write the GStreamer colorimetry string of AVFrame colour fields into buf:
 * the name when a named colorimetry matches all four values exactly (as
 * gst_video_colorimetry_to_string does), else the numeric form.  All
 * unspecified gives "0:0:0:0" (GStreamer's to_string returns NULL there).
 *
 * @return 0; AVERROR(ENOSYS) if a field has no GStreamer equivalent (buf is
 *         then set to the empty string); AVERROR_BUFFER_TOO_SMALL if the
 *         string and its terminating NUL do not fit in size bytes (16 bytes
 *         always suffice).
 */
int ff_cspfix_to_gst_colorimetry(enum AVColorPrimaries prim,
                                 enum AVColorTransferCharacteristic trc,
                                 enum AVColorSpace csp, enum AVColorRange range,
                                 char *buf, size_t size);

#endif /* AVFILTER_CSPFIX_GST_H */
