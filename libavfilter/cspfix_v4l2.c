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

/*
 * The meaning of every V4L2 value follows the kernel documentation
 * (Documentation/userspace-api/media/v4l/colorspaces-defs.rst and
 * colorspaces-details.rst); the default rules are the macros of
 * include/uapi/linux/videodev2.h.  Decisions where V4L2 and FFmpeg do not
 * line up one to one:
 *
 * - V4L2_XFER_FUNC_709 is one curve, which FFmpeg tags several ways.  It is
 *   tagged smpte170m for the SDTV colorspaces (SMPTE170M, BT878, 470_SYSTEM_M,
 *   470_SYSTEM_BG), bt2020-10 for BT2020 and bt709 otherwise, which is what a
 *   decoder of the equivalent H.273-tagged stream reports.
 * - The 470_SYSTEM_M and 470_SYSTEM_BG colorspaces use the Rec. 709 transfer
 *   and the BT.601 matrix (the kernel documentation's choice), not gamma 2.2
 *   / 2.8 or the FCC matrix.  470_SYSTEM_BG ("EBU Tech. 3213" in the kernel)
 *   has the chromaticities of AVCOL_PRI_BT470BG (0.64/0.33, 0.29/0.60,
 *   0.15/0.06, D65), not those of AVCOL_PRI_EBU3213 (JEDEC P22).
 * - The BT.601 matrix (601, deprecated SYCC, XV601) is tagged bt470bg for the
 *   470_SYSTEM_BG and JPEG colorspaces (FFmpeg's MJPEG decoder tags JPEG so)
 *   and smpte170m otherwise; both name the same matrix.
 * - BT878 is deprecated ("no driver will ever return this"); its default
 *   rules are those of SMPTE170M, and it is mapped as SMPTE170M.
 * - XV601/XV709 (xvYCC, IEC 61966-2-4) with the Rec. 709 transfer are tagged
 *   AVCOL_TRC_IEC61966_2_4, the Rec. 709 curve extended to negative values as
 *   the kernel documents it for xvYCC.  The kernel says xvYCC is always
 *   limited range; an explicit FULL_RANGE is nevertheless honoured.
 * - JPEG is sRGB primaries and transfer, the BT.601 matrix and, by default,
 *   full range.  DCI_P3 primaries are SMPTE RP 431-2 (DCI white).
 * - V4L2_COLORSPACE_DEFAULT ("the driver fills it in") is not guessed: the
 *   primaries and every DEFAULT field that depends on the colorspace are
 *   left unspecified (the filter has its own logged guess for those).
 * - RGB/HSV pixel formats get the matrix AVCOL_SPC_RGB whatever ycbcr_enc
 *   (or hsv_enc) says.
 */

#include <stddef.h>

#include "libavutil/avstring.h"
#include "libavutil/error.h"
#include "libavutil/log.h"
#include "libavutil/pixdesc.h"
#include "libavutil/pixfmt.h"

#include "cspfix_v4l2.h"

int ff_cspfix_v4l2_map_colorspace_default(int is_sdtv, int is_hdtv)
{
    return is_sdtv ? CSPFIX_V4L2_COLORSPACE_SMPTE170M :
           is_hdtv ? CSPFIX_V4L2_COLORSPACE_REC709 :
                     CSPFIX_V4L2_COLORSPACE_SRGB;
}

int ff_cspfix_v4l2_map_xfer_func_default(int colsp)
{
    return colsp == CSPFIX_V4L2_COLORSPACE_OPRGB     ? CSPFIX_V4L2_XFER_FUNC_OPRGB     :
           colsp == CSPFIX_V4L2_COLORSPACE_SMPTE240M ? CSPFIX_V4L2_XFER_FUNC_SMPTE240M :
           colsp == CSPFIX_V4L2_COLORSPACE_DCI_P3    ? CSPFIX_V4L2_XFER_FUNC_DCI_P3    :
           colsp == CSPFIX_V4L2_COLORSPACE_RAW       ? CSPFIX_V4L2_XFER_FUNC_NONE      :
           colsp == CSPFIX_V4L2_COLORSPACE_SRGB ||
           colsp == CSPFIX_V4L2_COLORSPACE_JPEG      ? CSPFIX_V4L2_XFER_FUNC_SRGB      :
                                                       CSPFIX_V4L2_XFER_FUNC_709;
}

int ff_cspfix_v4l2_map_ycbcr_enc_default(int colsp)
{
    return colsp == CSPFIX_V4L2_COLORSPACE_REC709 ||
           colsp == CSPFIX_V4L2_COLORSPACE_DCI_P3    ? CSPFIX_V4L2_YCBCR_ENC_709       :
           colsp == CSPFIX_V4L2_COLORSPACE_BT2020    ? CSPFIX_V4L2_YCBCR_ENC_BT2020    :
           colsp == CSPFIX_V4L2_COLORSPACE_SMPTE240M ? CSPFIX_V4L2_YCBCR_ENC_SMPTE240M :
                                                       CSPFIX_V4L2_YCBCR_ENC_601;
}

int ff_cspfix_v4l2_map_quantization_default(int is_rgb_or_hsv, int colsp,
                                            int ycbcr_enc)
{
    (void)ycbcr_enc; /* unused by the kernel, kept for the macro's signature */
    return is_rgb_or_hsv || colsp == CSPFIX_V4L2_COLORSPACE_JPEG ?
           CSPFIX_V4L2_QUANTIZATION_FULL_RANGE : CSPFIX_V4L2_QUANTIZATION_LIM_RANGE;
}

static int is_sdtv_colorspace(int colsp)
{
    return colsp == CSPFIX_V4L2_COLORSPACE_SMPTE170M ||
           colsp == CSPFIX_V4L2_COLORSPACE_BT878     ||
           colsp == CSPFIX_V4L2_COLORSPACE_470_SYSTEM_M ||
           colsp == CSPFIX_V4L2_COLORSPACE_470_SYSTEM_BG;
}

static const char why_oprgb_both[] =
    "V4L2 colorspace oprgb: neither its primaries (opRGB = Adobe RGB (1998), "
    "IEC 61966-2-5) nor its transfer function (pure power 2.19921875) has an "
    "FFmpeg value";
static const char why_oprgb_prim[] =
    "V4L2 colorspace oprgb: the opRGB primaries (Adobe RGB (1998), "
    "IEC 61966-2-5) have no FFmpeg colour primaries value";
static const char why_raw_prim[] =
    "V4L2 colorspace raw: raw data in the device's own, undocumented "
    "colorspace has no FFmpeg colour primaries value";
static const char why_oprgb_trc[] =
    "V4L2 xfer_func oprgb: the opRGB transfer function (pure power "
    "2.19921875, IEC 61966-2-5) has no FFmpeg transfer characteristic "
    "(gamma22 is a pure power 2.2)";
static const char why_dcip3_trc[] =
    "V4L2 xfer_func dci_p3: the DCI-P3 transfer function (pure power 2.6, "
    "SMPTE RP 431-2) has no FFmpeg transfer characteristic";

int ff_cspfix_from_v4l2(const CspfixV4L2 *v, int is_rgb,
                        enum AVColorPrimaries *prim,
                        enum AVColorTransferCharacteristic *trc,
                        enum AVColorSpace *csp, enum AVColorRange *range,
                        const char **why)
{
    const char *msg = NULL;
    int colsp = v->colorspace, enc = v->ycbcr_enc;
    int quant = v->quantization, xfer = v->xfer_func;
    int known = colsp != CSPFIX_V4L2_COLORSPACE_DEFAULT;
    int ret = 0, xv;

    *prim  = AVCOL_PRI_UNSPECIFIED;
    *trc   = AVCOL_TRC_UNSPECIFIED;
    *csp   = AVCOL_SPC_UNSPECIFIED;
    *range = AVCOL_RANGE_UNSPECIFIED;
    if (why)
        *why = NULL;

    if (colsp < 0 || colsp >= CSPFIX_V4L2_COLORSPACE_NB)
        msg = "unknown V4L2 colorspace value";
    else if (xfer < 0 || xfer >= CSPFIX_V4L2_XFER_FUNC_NB)
        msg = "unknown V4L2 xfer_func value";
    else if (quant < 0 || quant >= CSPFIX_V4L2_QUANTIZATION_NB)
        msg = "unknown V4L2 quantization value";
    else if (!(enc >= 0 && enc < CSPFIX_V4L2_YCBCR_ENC_NB) &&
             !(is_rgb && (enc == CSPFIX_V4L2_HSV_ENC_180 ||
                          enc == CSPFIX_V4L2_HSV_ENC_256)))
        msg = "unknown V4L2 ycbcr_enc value";
    if (msg) {
        if (why)
            *why = msg;
        return AVERROR(EINVAL);
    }

    /* the kernel's default rules; unknown colorspace: leave DEFAULT fields */
    if (xfer == CSPFIX_V4L2_XFER_FUNC_DEFAULT && known)
        xfer = ff_cspfix_v4l2_map_xfer_func_default(colsp);
    if (enc == CSPFIX_V4L2_YCBCR_ENC_DEFAULT && known)
        enc = ff_cspfix_v4l2_map_ycbcr_enc_default(colsp);
    if (quant == CSPFIX_V4L2_QUANTIZATION_DEFAULT && (known || is_rgb))
        quant = ff_cspfix_v4l2_map_quantization_default(is_rgb, colsp, enc);

    switch (colsp) {
    case CSPFIX_V4L2_COLORSPACE_DEFAULT:       *prim = AVCOL_PRI_UNSPECIFIED; break;
    case CSPFIX_V4L2_COLORSPACE_SMPTE170M:
    case CSPFIX_V4L2_COLORSPACE_BT878:         *prim = AVCOL_PRI_SMPTE170M;   break;
    case CSPFIX_V4L2_COLORSPACE_SMPTE240M:     *prim = AVCOL_PRI_SMPTE240M;   break;
    case CSPFIX_V4L2_COLORSPACE_REC709:
    case CSPFIX_V4L2_COLORSPACE_JPEG:
    case CSPFIX_V4L2_COLORSPACE_SRGB:          *prim = AVCOL_PRI_BT709;       break;
    case CSPFIX_V4L2_COLORSPACE_470_SYSTEM_M:  *prim = AVCOL_PRI_BT470M;      break;
    case CSPFIX_V4L2_COLORSPACE_470_SYSTEM_BG: *prim = AVCOL_PRI_BT470BG;     break;
    case CSPFIX_V4L2_COLORSPACE_BT2020:        *prim = AVCOL_PRI_BT2020;      break;
    case CSPFIX_V4L2_COLORSPACE_DCI_P3:        *prim = AVCOL_PRI_SMPTE431;    break;
    case CSPFIX_V4L2_COLORSPACE_OPRGB:
        msg = xfer == CSPFIX_V4L2_XFER_FUNC_OPRGB ? why_oprgb_both : why_oprgb_prim;
        break;
    case CSPFIX_V4L2_COLORSPACE_RAW:
        msg = why_raw_prim;
        break;
    }

    xv = !is_rgb && (enc == CSPFIX_V4L2_YCBCR_ENC_XV601 ||
                     enc == CSPFIX_V4L2_YCBCR_ENC_XV709);
    switch (xfer) {
    case CSPFIX_V4L2_XFER_FUNC_DEFAULT:   *trc = AVCOL_TRC_UNSPECIFIED;  break;
    case CSPFIX_V4L2_XFER_FUNC_709:
        *trc = xv                              ? AVCOL_TRC_IEC61966_2_4 :
               is_sdtv_colorspace(colsp)       ? AVCOL_TRC_SMPTE170M    :
               colsp == CSPFIX_V4L2_COLORSPACE_BT2020 ? AVCOL_TRC_BT2020_10 :
                                                 AVCOL_TRC_BT709;
        break;
    case CSPFIX_V4L2_XFER_FUNC_SRGB:      *trc = AVCOL_TRC_IEC61966_2_1; break;
    case CSPFIX_V4L2_XFER_FUNC_SMPTE240M: *trc = AVCOL_TRC_SMPTE240M;    break;
    case CSPFIX_V4L2_XFER_FUNC_NONE:      *trc = AVCOL_TRC_LINEAR;       break;
    case CSPFIX_V4L2_XFER_FUNC_SMPTE2084: *trc = AVCOL_TRC_SMPTE2084;    break;
    case CSPFIX_V4L2_XFER_FUNC_OPRGB:
        if (!msg)
            msg = why_oprgb_trc;
        break;
    case CSPFIX_V4L2_XFER_FUNC_DCI_P3:
        if (!msg)
            msg = why_dcip3_trc;
        break;
    }

    if (is_rgb) {
        *csp = AVCOL_SPC_RGB;
    } else {
        switch (enc) {
        case CSPFIX_V4L2_YCBCR_ENC_DEFAULT:
            *csp = AVCOL_SPC_UNSPECIFIED;
            break;
        case CSPFIX_V4L2_YCBCR_ENC_601:
        case CSPFIX_V4L2_YCBCR_ENC_XV601:
        case CSPFIX_V4L2_YCBCR_ENC_SYCC:
            *csp = colsp == CSPFIX_V4L2_COLORSPACE_470_SYSTEM_BG ||
                   colsp == CSPFIX_V4L2_COLORSPACE_JPEG ?
                   AVCOL_SPC_BT470BG : AVCOL_SPC_SMPTE170M;
            break;
        case CSPFIX_V4L2_YCBCR_ENC_709:
        case CSPFIX_V4L2_YCBCR_ENC_XV709:
            *csp = AVCOL_SPC_BT709;
            break;
        case CSPFIX_V4L2_YCBCR_ENC_BT2020:           *csp = AVCOL_SPC_BT2020_NCL; break;
        case CSPFIX_V4L2_YCBCR_ENC_BT2020_CONST_LUM: *csp = AVCOL_SPC_BT2020_CL;  break;
        case CSPFIX_V4L2_YCBCR_ENC_SMPTE240M:        *csp = AVCOL_SPC_SMPTE240M;  break;
        }
    }

    switch (quant) {
    case CSPFIX_V4L2_QUANTIZATION_DEFAULT:    *range = AVCOL_RANGE_UNSPECIFIED; break;
    case CSPFIX_V4L2_QUANTIZATION_FULL_RANGE: *range = AVCOL_RANGE_JPEG;        break;
    case CSPFIX_V4L2_QUANTIZATION_LIM_RANGE:  *range = AVCOL_RANGE_MPEG;        break;
    }

    if (msg) {
        ret = AVERROR(ENOSYS);
        if (why)
            *why = msg;
    }
    return ret;
}

int ff_cspfix_to_v4l2(enum AVColorPrimaries prim,
                      enum AVColorTransferCharacteristic trc,
                      enum AVColorSpace csp, enum AVColorRange range,
                      CspfixV4L2 *v)
{
    int ret = 0;
    int xv_matrix = csp == AVCOL_SPC_BT709 || csp == AVCOL_SPC_BT470BG ||
                    csp == AVCOL_SPC_SMPTE170M;
    int xv = trc == AVCOL_TRC_IEC61966_2_4 && xv_matrix &&
             range != AVCOL_RANGE_JPEG;

    v->colorspace   = CSPFIX_V4L2_COLORSPACE_DEFAULT;
    v->ycbcr_enc    = CSPFIX_V4L2_YCBCR_ENC_DEFAULT;
    v->quantization = CSPFIX_V4L2_QUANTIZATION_DEFAULT;
    v->xfer_func    = CSPFIX_V4L2_XFER_FUNC_DEFAULT;

    switch (prim) {
    case AVCOL_PRI_UNSPECIFIED:                                                  break;
    case AVCOL_PRI_BT709:
        v->colorspace = trc == AVCOL_TRC_IEC61966_2_1 ? CSPFIX_V4L2_COLORSPACE_SRGB :
                                                        CSPFIX_V4L2_COLORSPACE_REC709;
        break;
    case AVCOL_PRI_SMPTE170M: v->colorspace = CSPFIX_V4L2_COLORSPACE_SMPTE170M;     break;
    case AVCOL_PRI_SMPTE240M: v->colorspace = CSPFIX_V4L2_COLORSPACE_SMPTE240M;     break;
    case AVCOL_PRI_BT470M:    v->colorspace = CSPFIX_V4L2_COLORSPACE_470_SYSTEM_M;  break;
    case AVCOL_PRI_BT470BG:   v->colorspace = CSPFIX_V4L2_COLORSPACE_470_SYSTEM_BG; break;
    case AVCOL_PRI_BT2020:    v->colorspace = CSPFIX_V4L2_COLORSPACE_BT2020;        break;
    case AVCOL_PRI_SMPTE431:  v->colorspace = CSPFIX_V4L2_COLORSPACE_DCI_P3;        break;
    default:                  ret = AVERROR(ENOSYS);                                break;
    }

    switch (trc) {
    case AVCOL_TRC_UNSPECIFIED:                                               break;
    case AVCOL_TRC_BT709:
    case AVCOL_TRC_SMPTE170M:
    case AVCOL_TRC_BT2020_10:
    case AVCOL_TRC_BT2020_12:    v->xfer_func = CSPFIX_V4L2_XFER_FUNC_709;       break;
    case AVCOL_TRC_IEC61966_2_4:
        if (xv)
            v->xfer_func = CSPFIX_V4L2_XFER_FUNC_709;
        else
            ret = AVERROR(ENOSYS);
        break;
    case AVCOL_TRC_IEC61966_2_1: v->xfer_func = CSPFIX_V4L2_XFER_FUNC_SRGB;      break;
    case AVCOL_TRC_SMPTE240M:    v->xfer_func = CSPFIX_V4L2_XFER_FUNC_SMPTE240M; break;
    case AVCOL_TRC_LINEAR:       v->xfer_func = CSPFIX_V4L2_XFER_FUNC_NONE;      break;
    case AVCOL_TRC_SMPTE2084:    v->xfer_func = CSPFIX_V4L2_XFER_FUNC_SMPTE2084; break;
    default:                     ret = AVERROR(ENOSYS);                          break;
    }

    switch (csp) {
    case AVCOL_SPC_UNSPECIFIED:
    case AVCOL_SPC_RGB:                                                          break;
    case AVCOL_SPC_BT709:
        v->ycbcr_enc = xv ? CSPFIX_V4L2_YCBCR_ENC_XV709 : CSPFIX_V4L2_YCBCR_ENC_709;
        break;
    case AVCOL_SPC_BT470BG:
    case AVCOL_SPC_SMPTE170M:
        v->ycbcr_enc = xv ? CSPFIX_V4L2_YCBCR_ENC_XV601 : CSPFIX_V4L2_YCBCR_ENC_601;
        break;
    case AVCOL_SPC_SMPTE240M:  v->ycbcr_enc = CSPFIX_V4L2_YCBCR_ENC_SMPTE240M;        break;
    case AVCOL_SPC_BT2020_NCL: v->ycbcr_enc = CSPFIX_V4L2_YCBCR_ENC_BT2020;           break;
    case AVCOL_SPC_BT2020_CL:  v->ycbcr_enc = CSPFIX_V4L2_YCBCR_ENC_BT2020_CONST_LUM; break;
    default:                   ret = AVERROR(ENOSYS);                                break;
    }

    switch (range) {
    case AVCOL_RANGE_UNSPECIFIED:                                                break;
    case AVCOL_RANGE_MPEG: v->quantization = CSPFIX_V4L2_QUANTIZATION_LIM_RANGE;  break;
    case AVCOL_RANGE_JPEG: v->quantization = CSPFIX_V4L2_QUANTIZATION_FULL_RANGE; break;
    default:               ret = AVERROR(ENOSYS);                                 break;
    }

    return ret;
}

typedef struct NameVal {
    const char *name;
    int val;
} NameVal;

/* the first entry for a value is its canonical name */
static const NameVal colorspace_names[] = {
    { "default",       CSPFIX_V4L2_COLORSPACE_DEFAULT       },
    { "smpte170m",     CSPFIX_V4L2_COLORSPACE_SMPTE170M     },
    { "smpte240m",     CSPFIX_V4L2_COLORSPACE_SMPTE240M     },
    { "rec709",        CSPFIX_V4L2_COLORSPACE_REC709        },
    { "bt878",         CSPFIX_V4L2_COLORSPACE_BT878         },
    { "470_system_m",  CSPFIX_V4L2_COLORSPACE_470_SYSTEM_M  },
    { "470_system_bg", CSPFIX_V4L2_COLORSPACE_470_SYSTEM_BG },
    { "jpeg",          CSPFIX_V4L2_COLORSPACE_JPEG          },
    { "srgb",          CSPFIX_V4L2_COLORSPACE_SRGB          },
    { "oprgb",         CSPFIX_V4L2_COLORSPACE_OPRGB         },
    { "adobergb",      CSPFIX_V4L2_COLORSPACE_OPRGB         },
    { "bt2020",        CSPFIX_V4L2_COLORSPACE_BT2020        },
    { "raw",           CSPFIX_V4L2_COLORSPACE_RAW           },
    { "dci_p3",        CSPFIX_V4L2_COLORSPACE_DCI_P3        },
    { NULL, 0 }
};

static const NameVal ycbcr_enc_names[] = {
    { "default",          CSPFIX_V4L2_YCBCR_ENC_DEFAULT          },
    { "601",              CSPFIX_V4L2_YCBCR_ENC_601              },
    { "709",              CSPFIX_V4L2_YCBCR_ENC_709              },
    { "xv601",            CSPFIX_V4L2_YCBCR_ENC_XV601            },
    { "xv709",            CSPFIX_V4L2_YCBCR_ENC_XV709            },
    { "sycc",             CSPFIX_V4L2_YCBCR_ENC_SYCC             },
    { "bt2020",           CSPFIX_V4L2_YCBCR_ENC_BT2020           },
    { "bt2020_const_lum", CSPFIX_V4L2_YCBCR_ENC_BT2020_CONST_LUM },
    { "smpte240m",        CSPFIX_V4L2_YCBCR_ENC_SMPTE240M        },
    { NULL, 0 }
};

static const NameVal quantization_names[] = {
    { "default",    CSPFIX_V4L2_QUANTIZATION_DEFAULT    },
    { "full_range", CSPFIX_V4L2_QUANTIZATION_FULL_RANGE },
    { "lim_range",  CSPFIX_V4L2_QUANTIZATION_LIM_RANGE  },
    { NULL, 0 }
};

static const NameVal xfer_func_names[] = {
    { "default",   CSPFIX_V4L2_XFER_FUNC_DEFAULT   },
    { "709",       CSPFIX_V4L2_XFER_FUNC_709       },
    { "srgb",      CSPFIX_V4L2_XFER_FUNC_SRGB      },
    { "oprgb",     CSPFIX_V4L2_XFER_FUNC_OPRGB     },
    { "adobergb",  CSPFIX_V4L2_XFER_FUNC_OPRGB     },
    { "smpte240m", CSPFIX_V4L2_XFER_FUNC_SMPTE240M },
    { "none",      CSPFIX_V4L2_XFER_FUNC_NONE      },
    { "dci_p3",    CSPFIX_V4L2_XFER_FUNC_DCI_P3    },
    { "smpte2084", CSPFIX_V4L2_XFER_FUNC_SMPTE2084 },
    { NULL, 0 }
};

static int from_name(const NameVal *t, const char *name)
{
    if (!name)
        return AVERROR(EINVAL);
    for (; t->name; t++)
        if (!av_strcasecmp(t->name, name))
            return t->val;
    return AVERROR(EINVAL);
}

static const char *to_name(const NameVal *t, int val)
{
    for (; t->name; t++)
        if (t->val == val)
            return t->name;
    return NULL;
}

int ff_cspfix_v4l2_colorspace_from_name(const char *name)
{
    return from_name(colorspace_names, name);
}

int ff_cspfix_v4l2_ycbcr_enc_from_name(const char *name)
{
    return from_name(ycbcr_enc_names, name);
}

int ff_cspfix_v4l2_quantization_from_name(const char *name)
{
    return from_name(quantization_names, name);
}

int ff_cspfix_v4l2_xfer_func_from_name(const char *name)
{
    return from_name(xfer_func_names, name);
}

const char *ff_cspfix_v4l2_colorspace_name(int val)
{
    return to_name(colorspace_names, val);
}

const char *ff_cspfix_v4l2_ycbcr_enc_name(int val)
{
    return to_name(ycbcr_enc_names, val);
}

const char *ff_cspfix_v4l2_quantization_name(int val)
{
    return to_name(quantization_names, val);
}

const char *ff_cspfix_v4l2_xfer_func_name(int val)
{
    return to_name(xfer_func_names, val);
}

int ff_cspfix_v4l2_tag(void *log_ctx, const CspfixV4L2 *v, int is_rgb,
                       enum AVColorPrimaries *prim,
                       enum AVColorTransferCharacteristic *trc,
                       enum AVColorSpace *csp, enum AVColorRange *range)
{
    enum AVColorPrimaries p;
    enum AVColorTransferCharacteristic t;
    enum AVColorSpace c;
    enum AVColorRange r;
    const char *why = NULL;
    int ret = ff_cspfix_from_v4l2(v, is_rgb, &p, &t, &c, &r, &why);

    if (ret == AVERROR(EINVAL)) {
        av_log(log_ctx, AV_LOG_WARNING, "V4L2 colorimetry %d/%d/%d/%d "
               "(colorspace/ycbcr_enc/quantization/xfer_func): %s; frames left "
               "untagged.\n", v->colorspace, v->ycbcr_enc, v->quantization,
               v->xfer_func, why ? why : "invalid");
        return ret;
    }
    if (p != AVCOL_PRI_UNSPECIFIED)   *prim  = p;
    if (t != AVCOL_TRC_UNSPECIFIED)   *trc   = t;
    if (c != AVCOL_SPC_UNSPECIFIED)   *csp   = c;
    if (r != AVCOL_RANGE_UNSPECIFIED) *range = r;
    av_log(log_ctx, ret < 0 ? AV_LOG_WARNING : AV_LOG_VERBOSE,
           "V4L2 colorimetry %s/%s/%s/%s -> primaries %s, transfer %s, matrix %s, "
           "range %s%s%s\n",
           ff_cspfix_v4l2_colorspace_name(v->colorspace),
           ff_cspfix_v4l2_ycbcr_enc_name(v->ycbcr_enc),
           ff_cspfix_v4l2_quantization_name(v->quantization),
           ff_cspfix_v4l2_xfer_func_name(v->xfer_func),
           av_color_primaries_name(p), av_color_transfer_name(t),
           av_color_space_name(c), av_color_range_name(r),
           ret < 0 ? ": " : "", ret < 0 && why ? why : "");
    return ret;
}
