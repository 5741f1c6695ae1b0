/*
 * cspfix: mapping between V4L2 colour descriptions and AVFrame colour fields
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

#ifndef AVFILTER_CSPFIX_V4L2_H
#define AVFILTER_CSPFIX_V4L2_H

#include "libavutil/pixfmt.h"

/*
 * Numeric values of the V4L2 colour enums, from the Linux kernel UAPI header
 * include/uapi/linux/videodev2.h (enum v4l2_colorspace, v4l2_xfer_func,
 * v4l2_ycbcr_encoding, v4l2_quantization).  They are stable UAPI; they are
 * repeated here so that this code builds without <linux/videodev2.h>.
 */
#define CSPFIX_V4L2_COLORSPACE_DEFAULT           0
#define CSPFIX_V4L2_COLORSPACE_SMPTE170M         1
#define CSPFIX_V4L2_COLORSPACE_SMPTE240M         2
#define CSPFIX_V4L2_COLORSPACE_REC709            3
#define CSPFIX_V4L2_COLORSPACE_BT878             4  ///< deprecated in the kernel
#define CSPFIX_V4L2_COLORSPACE_470_SYSTEM_M      5
#define CSPFIX_V4L2_COLORSPACE_470_SYSTEM_BG     6
#define CSPFIX_V4L2_COLORSPACE_JPEG              7
#define CSPFIX_V4L2_COLORSPACE_SRGB              8
#define CSPFIX_V4L2_COLORSPACE_OPRGB             9  ///< formerly ADOBERGB
#define CSPFIX_V4L2_COLORSPACE_BT2020           10
#define CSPFIX_V4L2_COLORSPACE_RAW              11
#define CSPFIX_V4L2_COLORSPACE_DCI_P3           12
#define CSPFIX_V4L2_COLORSPACE_NB               13

#define CSPFIX_V4L2_XFER_FUNC_DEFAULT            0
#define CSPFIX_V4L2_XFER_FUNC_709                1
#define CSPFIX_V4L2_XFER_FUNC_SRGB               2
#define CSPFIX_V4L2_XFER_FUNC_OPRGB              3  ///< formerly ADOBERGB
#define CSPFIX_V4L2_XFER_FUNC_SMPTE240M          4
#define CSPFIX_V4L2_XFER_FUNC_NONE               5
#define CSPFIX_V4L2_XFER_FUNC_DCI_P3             6
#define CSPFIX_V4L2_XFER_FUNC_SMPTE2084          7
#define CSPFIX_V4L2_XFER_FUNC_NB                 8

#define CSPFIX_V4L2_YCBCR_ENC_DEFAULT            0
#define CSPFIX_V4L2_YCBCR_ENC_601                1
#define CSPFIX_V4L2_YCBCR_ENC_709                2
#define CSPFIX_V4L2_YCBCR_ENC_XV601              3
#define CSPFIX_V4L2_YCBCR_ENC_XV709              4
#define CSPFIX_V4L2_YCBCR_ENC_SYCC               5  ///< deprecated, identical to 601
#define CSPFIX_V4L2_YCBCR_ENC_BT2020             6
#define CSPFIX_V4L2_YCBCR_ENC_BT2020_CONST_LUM   7
#define CSPFIX_V4L2_YCBCR_ENC_SMPTE240M          8
#define CSPFIX_V4L2_YCBCR_ENC_NB                 9
/* enum v4l2_hsv_encoding shares the ycbcr_enc field of RGB/HSV formats */
#define CSPFIX_V4L2_HSV_ENC_180                128
#define CSPFIX_V4L2_HSV_ENC_256                129

#define CSPFIX_V4L2_QUANTIZATION_DEFAULT         0
#define CSPFIX_V4L2_QUANTIZATION_FULL_RANGE      1
#define CSPFIX_V4L2_QUANTIZATION_LIM_RANGE       2
#define CSPFIX_V4L2_QUANTIZATION_NB              3

/**
 * The four colour fields of struct v4l2_pix_format(_mplane).
 */
typedef struct CspfixV4L2 {
    int colorspace, ycbcr_enc, quantization, xfer_func;
} CspfixV4L2;

/**
 * The kernel's default rules, exactly as the videodev2.h macros define them
 * (V4L2_MAP_COLORSPACE_DEFAULT, V4L2_MAP_XFER_FUNC_DEFAULT,
 * V4L2_MAP_YCBCR_ENC_DEFAULT, V4L2_MAP_QUANTIZATION_DEFAULT).  The
 * quantization rule is the kernel's current one: R'G'B'/HSV and the JPEG
 * colorspace are full range, everything else limited; ycbcr_enc is unused
 * (older kernels made xvYCC full range and BT.2020 R'G'B' limited).
 */
int ff_cspfix_v4l2_map_colorspace_default(int is_sdtv, int is_hdtv);
int ff_cspfix_v4l2_map_xfer_func_default(int colorspace);
int ff_cspfix_v4l2_map_ycbcr_enc_default(int colorspace);
int ff_cspfix_v4l2_map_quantization_default(int is_rgb_or_hsv, int colorspace,
                                            int ycbcr_enc);

/**
 * Translate a V4L2 colour description into AVFrame colour fields.
 *
 * DEFAULT fields are first resolved with the kernel's default rules.
 * V4L2_COLORSPACE_DEFAULT means "not known yet" (the driver fills it in), so
 * the primaries and every field whose default depends on the colorspace
 * become *_UNSPECIFIED; explicit fields are still mapped.
 *
 * @param is_rgb non-zero for R'G'B' (or HSV) pixel formats: the matrix is then
 *               AVCOL_SPC_RGB whatever ycbcr_enc says, and the default
 *               quantization is full range
 * @param why    if not NULL, set to a static message on failure, else NULL
 * @return 0 on success; AVERROR(ENOSYS) if a field has no FFmpeg equivalent
 *         (opRGB primaries or transfer, the DCI-P3 gamma 2.6 transfer, RAW
 *         primaries): the other fields are still set and the inexpressible
 *         ones are *_UNSPECIFIED; AVERROR(EINVAL) for a value that is not in
 *         the V4L2 enums (all fields *_UNSPECIFIED).
 */
int ff_cspfix_from_v4l2(const CspfixV4L2 *v, int is_rgb,
                        enum AVColorPrimaries *prim,
                        enum AVColorTransferCharacteristic *trc,
                        enum AVColorSpace *csp, enum AVColorRange *range,
                        const char **why);

/**
 * Tag a captured stream with the colour description a V4L2 device reports
 * (the four fields of VIDIOC_G_FMT's v4l2_pix_format): ff_cspfix_from_v4l2(),
 * then each field that maps to a specified value is written, the others are
 * left as they were.  Logs the mapping (verbose), or a warning naming what
 * FFmpeg cannot express.  Used by libavdevice's v4l2 input.
 *
 * @return as ff_cspfix_from_v4l2(); on AVERROR(EINVAL) nothing is written
 */
int ff_cspfix_v4l2_tag(void *log_ctx, const CspfixV4L2 *v, int is_rgb,
                       enum AVColorPrimaries *prim,
                       enum AVColorTransferCharacteristic *trc,
                       enum AVColorSpace *csp, enum AVColorRange *range);

/**
 * Translate AVFrame colour fields into a V4L2 colour description.
 *
 * Every specified field is written explicitly (no DEFAULT that would rely on
 * the default rules); *_UNSPECIFIED becomes the matching DEFAULT.
 * AVCOL_TRC_IEC61966_2_4 (xvYCC) becomes XFER_FUNC_709 with YCBCR_ENC_XV601
 * or XV709, which requires the BT.601 or BT.709 matrix and not full range.
 *
 * @return 0, or AVERROR(ENOSYS) if some field has no V4L2 equivalent; that
 *         field is then left at its DEFAULT value and the others are set.
 */
int ff_cspfix_to_v4l2(enum AVColorPrimaries prim,
                      enum AVColorTransferCharacteristic trc,
                      enum AVColorSpace csp, enum AVColorRange range,
                      CspfixV4L2 *v);

/**
 * Option-value names: the kernel enum names without their prefix, in lower
 * case ("smpte170m", "470_system_bg", "bt2020_const_lum", "lim_range", ...),
 * plus "default".  Matching ignores case; the deprecated kernel aliases
 * "adobergb" (colorspace, xfer_func) are accepted too.
 *
 * @return the V4L2 value, or AVERROR(EINVAL) for an unknown name
 */
int ff_cspfix_v4l2_colorspace_from_name(const char *name);
int ff_cspfix_v4l2_ycbcr_enc_from_name(const char *name);
int ff_cspfix_v4l2_quantization_from_name(const char *name);
int ff_cspfix_v4l2_xfer_func_from_name(const char *name);

/**
 * @return the option-value name of a V4L2 value, or NULL if it is unknown
 */
const char *ff_cspfix_v4l2_colorspace_name(int val);
const char *ff_cspfix_v4l2_ycbcr_enc_name(int val);
const char *ff_cspfix_v4l2_quantization_name(int val);
const char *ff_cspfix_v4l2_xfer_func_name(int val);

#endif /* AVFILTER_CSPFIX_V4L2_H */
