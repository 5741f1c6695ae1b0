/*
 * cspfix mapping tests: V4L2 and GStreamer colour descriptions to and from AVFrame fields
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
 * Every expected value below is written out from the kernel documentation
 * (Documentation/userspace-api/media/v4l/colorspaces-details.rst, the
 * comments of include/uapi/linux/videodev2.h) and GStreamer's
 * gst-libs/gst/video/video-color.{h,c}; none is computed by the code under
 * test.  Build:
 *   gcc -Wall -Wextra -std=c11 -I<prefix>/include -I<src> \
 *       tests/cspfix_map_test.c libavfilter/cspfix_v4l2.c \
 *       libavfilter/cspfix_gst.c -lavutil
 */

#include <stdio.h>
#include <string.h>

#include "libavutil/error.h"
#include "libavutil/log.h"
#include "libavutil/pixfmt.h"
#include "libavfilter/cspfix_gst.h"
#include "libavfilter/cspfix_v4l2.h"

#include "cspfix_check.h"

#define NELEMS(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* short aliases for the tables */
#define P_UNS   AVCOL_PRI_UNSPECIFIED
#define T_UNS   AVCOL_TRC_UNSPECIFIED
#define S_UNS   AVCOL_SPC_UNSPECIFIED
#define R_UNS   AVCOL_RANGE_UNSPECIFIED
#define R_TV    AVCOL_RANGE_MPEG
#define R_PC    AVCOL_RANGE_JPEG
#define ENOSYS_ AVERROR(ENOSYS)
#define EINVAL_ AVERROR(EINVAL)

/* V4L2 short aliases */
#define CS(x)  CSPFIX_V4L2_COLORSPACE_ ## x
#define ENC(x) CSPFIX_V4L2_YCBCR_ENC_ ## x
#define Q(x)   CSPFIX_V4L2_QUANTIZATION_ ## x
#define XF(x)  CSPFIX_V4L2_XFER_FUNC_ ## x

typedef struct Fields {
    enum AVColorPrimaries prim;
    enum AVColorTransferCharacteristic trc;
    enum AVColorSpace csp;
    enum AVColorRange range;
} Fields;

static int fields_eq(Fields a, Fields b)
{
    return a.prim == b.prim && a.trc == b.trc && a.csp == b.csp && a.range == b.range;
}

/* tags that name the same thing: one transfer curve, one matrix */
static int trc_class(enum AVColorTransferCharacteristic t)
{
    switch (t) {
    case AVCOL_TRC_SMPTE170M:
    case AVCOL_TRC_BT2020_10:
    case AVCOL_TRC_BT2020_12: return AVCOL_TRC_BT709;
    default:                  return t;
    }
}

static int csp_class(enum AVColorSpace c)
{
    return c == AVCOL_SPC_BT470BG ? AVCOL_SPC_SMPTE170M : c;
}

static int fields_equiv(Fields a, Fields b)
{
    return a.prim == b.prim && trc_class(a.trc) == trc_class(b.trc) &&
           csp_class(a.csp) == csp_class(b.csp) && a.range == b.range;
}

static void v4l2_from(int cs, int enc, int q, int xf, int is_rgb,
                      Fields *f, int *ret, const char **why)
{
    CspfixV4L2 v = { cs, enc, q, xf };
    *ret = ff_cspfix_from_v4l2(&v, is_rgb, &f->prim, &f->trc, &f->csp, &f->range, why);
}

/* ---------------------------------------------------------------- V4L2 --- */

static void test_v4l2_values(void)
{
    /* include/uapi/linux/videodev2.h */
    static const int v[][2] = {
        { CS(DEFAULT), 0 }, { CS(SMPTE170M), 1 }, { CS(SMPTE240M), 2 },
        { CS(REC709), 3 }, { CS(BT878), 4 }, { CS(470_SYSTEM_M), 5 },
        { CS(470_SYSTEM_BG), 6 }, { CS(JPEG), 7 }, { CS(SRGB), 8 },
        { CS(OPRGB), 9 }, { CS(BT2020), 10 }, { CS(RAW), 11 }, { CS(DCI_P3), 12 },
        { XF(DEFAULT), 0 }, { XF(709), 1 }, { XF(SRGB), 2 }, { XF(OPRGB), 3 },
        { XF(SMPTE240M), 4 }, { XF(NONE), 5 }, { XF(DCI_P3), 6 }, { XF(SMPTE2084), 7 },
        { ENC(DEFAULT), 0 }, { ENC(601), 1 }, { ENC(709), 2 }, { ENC(XV601), 3 },
        { ENC(XV709), 4 }, { ENC(SYCC), 5 }, { ENC(BT2020), 6 },
        { ENC(BT2020_CONST_LUM), 7 }, { ENC(SMPTE240M), 8 },
        { CSPFIX_V4L2_HSV_ENC_180, 128 }, { CSPFIX_V4L2_HSV_ENC_256, 129 },
        { Q(DEFAULT), 0 }, { Q(FULL_RANGE), 1 }, { Q(LIM_RANGE), 2 },
    };
    for (int i = 0; i < NELEMS(v); i++)
        CHECK(v[i][0] == v[i][1], "V4L2 constant #%d is %d, kernel says %d", i, v[i][0], v[i][1]);
}

static void test_v4l2_default_rules(void)
{
    /* the mapping comments of enum v4l2_xfer_func and v4l2_ycbcr_encoding */
    static const struct { int cs, xfer, enc; } t[] = {
        { CS(DEFAULT),       XF(709),       ENC(601)       }, /* macro fall-through */
        { CS(SMPTE170M),     XF(709),       ENC(601)       },
        { CS(SMPTE240M),     XF(SMPTE240M), ENC(SMPTE240M) },
        { CS(REC709),        XF(709),       ENC(709)       },
        { CS(BT878),         XF(709),       ENC(601)       },
        { CS(470_SYSTEM_M),  XF(709),       ENC(601)       },
        { CS(470_SYSTEM_BG), XF(709),       ENC(601)       },
        { CS(JPEG),          XF(SRGB),      ENC(601)       },
        { CS(SRGB),          XF(SRGB),      ENC(601)       },
        { CS(OPRGB),         XF(OPRGB),     ENC(601)       },
        { CS(BT2020),        XF(709),       ENC(BT2020)    },
        { CS(RAW),           XF(NONE),      ENC(601)       },
        { CS(DCI_P3),        XF(DCI_P3),    ENC(709)       },
    };
    for (int i = 0; i < NELEMS(t); i++) {
        int x = ff_cspfix_v4l2_map_xfer_func_default(t[i].cs);
        int e = ff_cspfix_v4l2_map_ycbcr_enc_default(t[i].cs);
        CHECK(x == t[i].xfer, "xfer default of colorspace %d: %d, want %d", t[i].cs, x, t[i].xfer);
        CHECK(e == t[i].enc, "ycbcr default of colorspace %d: %d, want %d", t[i].cs, e, t[i].enc);
        /* R'G'B'/HSV: always full; Y'CbCr: limited except JPEG; enc unused */
        for (int enc = 0; enc < CSPFIX_V4L2_YCBCR_ENC_NB; enc++) {
            int qr = ff_cspfix_v4l2_map_quantization_default(1, t[i].cs, enc);
            int qy = ff_cspfix_v4l2_map_quantization_default(0, t[i].cs, enc);
            int wy = t[i].cs == CS(JPEG) ? Q(FULL_RANGE) : Q(LIM_RANGE);
            CHECK(qr == Q(FULL_RANGE), "RGB quant default cs %d enc %d: %d", t[i].cs, enc, qr);
            CHECK(qy == wy, "YUV quant default cs %d enc %d: %d, want %d", t[i].cs, enc, qy, wy);
        }
    }
    CHECK(ff_cspfix_v4l2_map_colorspace_default(1, 0) == CS(SMPTE170M), "sdtv");
    CHECK(ff_cspfix_v4l2_map_colorspace_default(1, 1) == CS(SMPTE170M), "sdtv+hdtv");
    CHECK(ff_cspfix_v4l2_map_colorspace_default(0, 1) == CS(REC709), "hdtv");
    CHECK(ff_cspfix_v4l2_map_colorspace_default(0, 0) == CS(SRGB), "neither");
}

typedef struct V4L2Case {
    int cs, enc, q, xf, is_rgb;
    Fields want;
    int ret;
    const char *why_has;   ///< substring the message must contain, if ret < 0
} V4L2Case;

static void run_v4l2_cases(const char *what, const V4L2Case *t, int n)
{
    for (int i = 0; i < n; i++) {
        Fields f;
        const char *why = (const char *)1;
        int ret;
        v4l2_from(t[i].cs, t[i].enc, t[i].q, t[i].xf, t[i].is_rgb, &f, &ret, &why);
        CHECK(ret == t[i].ret && fields_eq(f, t[i].want),
              "%s #%d (cs %d enc %d q %d xf %d rgb %d): ret %d prim %d trc %d csp %d range %d, "
              "want ret %d prim %d trc %d csp %d range %d", what, i,
              t[i].cs, t[i].enc, t[i].q, t[i].xf, t[i].is_rgb, ret,
              f.prim, f.trc, f.csp, f.range, t[i].ret,
              t[i].want.prim, t[i].want.trc, t[i].want.csp, t[i].want.range);
        if (t[i].ret < 0)
            CHECK(why && why != (const char *)1 && strstr(why, t[i].why_has),
                  "%s #%d: message \"%s\" lacks \"%s\"", what, i,
                  why && why != (const char *)1 ? why : "(none)", t[i].why_has);
        else
            CHECK(!why, "%s #%d: message set on success", what, i);
    }
}

static void test_v4l2_colorspaces(void)
{
    /* colorspaces-details.rst: each colorspace with every other field DEFAULT */
    static const V4L2Case yuv[] = {
        { CS(DEFAULT),       0, 0, 0, 0, { P_UNS, T_UNS, S_UNS, R_UNS }, 0, NULL },
        { CS(SMPTE170M),     0, 0, 0, 0, { AVCOL_PRI_SMPTE170M, AVCOL_TRC_SMPTE170M,
                                           AVCOL_SPC_SMPTE170M, R_TV }, 0, NULL },
        { CS(SMPTE240M),     0, 0, 0, 0, { AVCOL_PRI_SMPTE240M, AVCOL_TRC_SMPTE240M,
                                           AVCOL_SPC_SMPTE240M, R_TV }, 0, NULL },
        { CS(REC709),        0, 0, 0, 0, { AVCOL_PRI_BT709, AVCOL_TRC_BT709,
                                           AVCOL_SPC_BT709, R_TV }, 0, NULL },
        { CS(BT878),         0, 0, 0, 0, { AVCOL_PRI_SMPTE170M, AVCOL_TRC_SMPTE170M,
                                           AVCOL_SPC_SMPTE170M, R_TV }, 0, NULL },
        { CS(470_SYSTEM_M),  0, 0, 0, 0, { AVCOL_PRI_BT470M, AVCOL_TRC_SMPTE170M,
                                           AVCOL_SPC_SMPTE170M, R_TV }, 0, NULL },
        { CS(470_SYSTEM_BG), 0, 0, 0, 0, { AVCOL_PRI_BT470BG, AVCOL_TRC_SMPTE170M,
                                           AVCOL_SPC_BT470BG, R_TV }, 0, NULL },
        { CS(JPEG),          0, 0, 0, 0, { AVCOL_PRI_BT709, AVCOL_TRC_IEC61966_2_1,
                                           AVCOL_SPC_BT470BG, R_PC }, 0, NULL },
        { CS(SRGB),          0, 0, 0, 0, { AVCOL_PRI_BT709, AVCOL_TRC_IEC61966_2_1,
                                           AVCOL_SPC_SMPTE170M, R_TV }, 0, NULL },
        { CS(OPRGB),         0, 0, 0, 0, { P_UNS, T_UNS, AVCOL_SPC_SMPTE170M, R_TV },
          ENOSYS_, "opRGB" },
        { CS(BT2020),        0, 0, 0, 0, { AVCOL_PRI_BT2020, AVCOL_TRC_BT2020_10,
                                           AVCOL_SPC_BT2020_NCL, R_TV }, 0, NULL },
        { CS(RAW),           0, 0, 0, 0, { P_UNS, AVCOL_TRC_LINEAR, AVCOL_SPC_SMPTE170M,
                                           R_TV }, ENOSYS_, "raw" },
        { CS(DCI_P3),        0, 0, 0, 0, { AVCOL_PRI_SMPTE431, T_UNS, AVCOL_SPC_BT709,
                                           R_TV }, ENOSYS_, "2.6" },
    };
    /* R'G'B' pixel formats: matrix rgb, default quantization full everywhere */
    static const V4L2Case rgb[] = {
        { CS(DEFAULT),       0, 0, 0, 1, { P_UNS, T_UNS, AVCOL_SPC_RGB, R_PC }, 0, NULL },
        { CS(SMPTE170M),     0, 0, 0, 1, { AVCOL_PRI_SMPTE170M, AVCOL_TRC_SMPTE170M,
                                           AVCOL_SPC_RGB, R_PC }, 0, NULL },
        { CS(SMPTE240M),     0, 0, 0, 1, { AVCOL_PRI_SMPTE240M, AVCOL_TRC_SMPTE240M,
                                           AVCOL_SPC_RGB, R_PC }, 0, NULL },
        { CS(REC709),        0, 0, 0, 1, { AVCOL_PRI_BT709, AVCOL_TRC_BT709,
                                           AVCOL_SPC_RGB, R_PC }, 0, NULL },
        { CS(BT878),         0, 0, 0, 1, { AVCOL_PRI_SMPTE170M, AVCOL_TRC_SMPTE170M,
                                           AVCOL_SPC_RGB, R_PC }, 0, NULL },
        { CS(470_SYSTEM_M),  0, 0, 0, 1, { AVCOL_PRI_BT470M, AVCOL_TRC_SMPTE170M,
                                           AVCOL_SPC_RGB, R_PC }, 0, NULL },
        { CS(470_SYSTEM_BG), 0, 0, 0, 1, { AVCOL_PRI_BT470BG, AVCOL_TRC_SMPTE170M,
                                           AVCOL_SPC_RGB, R_PC }, 0, NULL },
        { CS(JPEG),          0, 0, 0, 1, { AVCOL_PRI_BT709, AVCOL_TRC_IEC61966_2_1,
                                           AVCOL_SPC_RGB, R_PC }, 0, NULL },
        { CS(SRGB),          0, 0, 0, 1, { AVCOL_PRI_BT709, AVCOL_TRC_IEC61966_2_1,
                                           AVCOL_SPC_RGB, R_PC }, 0, NULL },
        { CS(OPRGB),         0, 0, 0, 1, { P_UNS, T_UNS, AVCOL_SPC_RGB, R_PC },
          ENOSYS_, "Adobe RGB" },
        { CS(BT2020),        0, 0, 0, 1, { AVCOL_PRI_BT2020, AVCOL_TRC_BT2020_10,
                                           AVCOL_SPC_RGB, R_PC }, 0, NULL },
        { CS(RAW),           0, 0, 0, 1, { P_UNS, AVCOL_TRC_LINEAR, AVCOL_SPC_RGB, R_PC },
          ENOSYS_, "raw" },
        { CS(DCI_P3),        0, 0, 0, 1, { AVCOL_PRI_SMPTE431, T_UNS, AVCOL_SPC_RGB, R_PC },
          ENOSYS_, "DCI-P3" },
        /* the HSV encodings share the field; accepted for RGB/HSV only */
        { CS(SRGB), CSPFIX_V4L2_HSV_ENC_180, 0, 0, 1,
          { AVCOL_PRI_BT709, AVCOL_TRC_IEC61966_2_1, AVCOL_SPC_RGB, R_PC }, 0, NULL },
        { CS(SRGB), CSPFIX_V4L2_HSV_ENC_256, 0, 0, 1,
          { AVCOL_PRI_BT709, AVCOL_TRC_IEC61966_2_1, AVCOL_SPC_RGB, R_PC }, 0, NULL },
        /* explicit limited-range R'G'B' */
        { CS(SRGB), 0, Q(LIM_RANGE), 0, 1,
          { AVCOL_PRI_BT709, AVCOL_TRC_IEC61966_2_1, AVCOL_SPC_RGB, R_TV }, 0, NULL },
    };
    run_v4l2_cases("v4l2 colorspace yuv", yuv, NELEMS(yuv));
    run_v4l2_cases("v4l2 colorspace rgb", rgb, NELEMS(rgb));
}

static void test_v4l2_fields(void)
{
    static const V4L2Case t[] = {
        /* each ycbcr_enc, in the REC709 colorspace */
        { CS(REC709), ENC(DEFAULT), 0, 0, 0,
          { AVCOL_PRI_BT709, AVCOL_TRC_BT709, AVCOL_SPC_BT709, R_TV }, 0, NULL },
        { CS(REC709), ENC(601), 0, 0, 0,
          { AVCOL_PRI_BT709, AVCOL_TRC_BT709, AVCOL_SPC_SMPTE170M, R_TV }, 0, NULL },
        { CS(REC709), ENC(709), 0, 0, 0,
          { AVCOL_PRI_BT709, AVCOL_TRC_BT709, AVCOL_SPC_BT709, R_TV }, 0, NULL },
        { CS(REC709), ENC(XV601), 0, 0, 0,
          { AVCOL_PRI_BT709, AVCOL_TRC_IEC61966_2_4, AVCOL_SPC_SMPTE170M, R_TV }, 0, NULL },
        { CS(REC709), ENC(XV709), 0, 0, 0,
          { AVCOL_PRI_BT709, AVCOL_TRC_IEC61966_2_4, AVCOL_SPC_BT709, R_TV }, 0, NULL },
        { CS(REC709), ENC(SYCC), 0, 0, 0,
          { AVCOL_PRI_BT709, AVCOL_TRC_BT709, AVCOL_SPC_SMPTE170M, R_TV }, 0, NULL },
        { CS(REC709), ENC(BT2020), 0, 0, 0,
          { AVCOL_PRI_BT709, AVCOL_TRC_BT709, AVCOL_SPC_BT2020_NCL, R_TV }, 0, NULL },
        { CS(REC709), ENC(BT2020_CONST_LUM), 0, 0, 0,
          { AVCOL_PRI_BT709, AVCOL_TRC_BT709, AVCOL_SPC_BT2020_CL, R_TV }, 0, NULL },
        { CS(REC709), ENC(SMPTE240M), 0, 0, 0,
          { AVCOL_PRI_BT709, AVCOL_TRC_BT709, AVCOL_SPC_SMPTE240M, R_TV }, 0, NULL },
        /* xvYCC in other colorspaces; sRGB keeps its own transfer */
        { CS(470_SYSTEM_BG), ENC(XV601), 0, 0, 0,
          { AVCOL_PRI_BT470BG, AVCOL_TRC_IEC61966_2_4, AVCOL_SPC_BT470BG, R_TV }, 0, NULL },
        { CS(SRGB), ENC(XV601), 0, 0, 0,
          { AVCOL_PRI_BT709, AVCOL_TRC_IEC61966_2_1, AVCOL_SPC_SMPTE170M, R_TV }, 0, NULL },
        { CS(REC709), ENC(XV709), Q(FULL_RANGE), 0, 0,
          { AVCOL_PRI_BT709, AVCOL_TRC_IEC61966_2_4, AVCOL_SPC_BT709, R_PC }, 0, NULL },
        /* each quantization */
        { CS(REC709), 0, Q(DEFAULT), 0, 0,
          { AVCOL_PRI_BT709, AVCOL_TRC_BT709, AVCOL_SPC_BT709, R_TV }, 0, NULL },
        { CS(REC709), 0, Q(FULL_RANGE), 0, 0,
          { AVCOL_PRI_BT709, AVCOL_TRC_BT709, AVCOL_SPC_BT709, R_PC }, 0, NULL },
        { CS(REC709), 0, Q(LIM_RANGE), 0, 0,
          { AVCOL_PRI_BT709, AVCOL_TRC_BT709, AVCOL_SPC_BT709, R_TV }, 0, NULL },
        { CS(JPEG), 0, Q(LIM_RANGE), 0, 0,
          { AVCOL_PRI_BT709, AVCOL_TRC_IEC61966_2_1, AVCOL_SPC_BT470BG, R_TV }, 0, NULL },
        /* each xfer_func, in the REC709 colorspace */
        { CS(REC709), 0, 0, XF(DEFAULT), 0,
          { AVCOL_PRI_BT709, AVCOL_TRC_BT709, AVCOL_SPC_BT709, R_TV }, 0, NULL },
        { CS(REC709), 0, 0, XF(709), 0,
          { AVCOL_PRI_BT709, AVCOL_TRC_BT709, AVCOL_SPC_BT709, R_TV }, 0, NULL },
        { CS(REC709), 0, 0, XF(SRGB), 0,
          { AVCOL_PRI_BT709, AVCOL_TRC_IEC61966_2_1, AVCOL_SPC_BT709, R_TV }, 0, NULL },
        { CS(REC709), 0, 0, XF(OPRGB), 0,
          { AVCOL_PRI_BT709, T_UNS, AVCOL_SPC_BT709, R_TV }, ENOSYS_, "2.19921875" },
        { CS(REC709), 0, 0, XF(SMPTE240M), 0,
          { AVCOL_PRI_BT709, AVCOL_TRC_SMPTE240M, AVCOL_SPC_BT709, R_TV }, 0, NULL },
        { CS(REC709), 0, 0, XF(NONE), 0,
          { AVCOL_PRI_BT709, AVCOL_TRC_LINEAR, AVCOL_SPC_BT709, R_TV }, 0, NULL },
        { CS(REC709), 0, 0, XF(DCI_P3), 0,
          { AVCOL_PRI_BT709, T_UNS, AVCOL_SPC_BT709, R_TV }, ENOSYS_, "2.6" },
        { CS(REC709), 0, 0, XF(SMPTE2084), 0,
          { AVCOL_PRI_BT709, AVCOL_TRC_SMPTE2084, AVCOL_SPC_BT709, R_TV }, 0, NULL },
        /* the 709 curve takes the colorspace's usual tag */
        { CS(SMPTE170M), 0, 0, XF(709), 0,
          { AVCOL_PRI_SMPTE170M, AVCOL_TRC_SMPTE170M, AVCOL_SPC_SMPTE170M, R_TV }, 0, NULL },
        { CS(BT2020), 0, 0, XF(SMPTE2084), 0,
          { AVCOL_PRI_BT2020, AVCOL_TRC_SMPTE2084, AVCOL_SPC_BT2020_NCL, R_TV }, 0, NULL },
        { CS(DCI_P3), 0, 0, XF(SMPTE2084), 0,
          { AVCOL_PRI_SMPTE431, AVCOL_TRC_SMPTE2084, AVCOL_SPC_BT709, R_TV }, 0, NULL },
        /* unknown colorspace: explicit fields only, nothing guessed */
        { CS(DEFAULT), ENC(709), Q(LIM_RANGE), XF(709), 0,
          { P_UNS, AVCOL_TRC_BT709, AVCOL_SPC_BT709, R_TV }, 0, NULL },
        { CS(DEFAULT), ENC(601), 0, XF(SRGB), 0,
          { P_UNS, AVCOL_TRC_IEC61966_2_1, AVCOL_SPC_SMPTE170M, R_UNS }, 0, NULL },
        /* the clear-message cases, and their combinations */
        { CS(OPRGB), 0, 0, XF(SRGB), 0,
          { P_UNS, AVCOL_TRC_IEC61966_2_1, AVCOL_SPC_SMPTE170M, R_TV }, ENOSYS_, "opRGB" },
        { CS(SRGB), 0, 0, XF(OPRGB), 0,
          { AVCOL_PRI_BT709, T_UNS, AVCOL_SPC_SMPTE170M, R_TV }, ENOSYS_, "opRGB" },
        { CS(RAW), 0, 0, XF(DCI_P3), 0,
          { P_UNS, T_UNS, AVCOL_SPC_SMPTE170M, R_TV }, ENOSYS_, "raw" },
        /* values outside the enums */
        { 13, 0, 0, 0, 0, { P_UNS, T_UNS, S_UNS, R_UNS }, EINVAL_, "colorspace" },
        { -1, 0, 0, 0, 0, { P_UNS, T_UNS, S_UNS, R_UNS }, EINVAL_, "colorspace" },
        { CS(REC709), 9, 0, 0, 0, { P_UNS, T_UNS, S_UNS, R_UNS }, EINVAL_, "ycbcr_enc" },
        { CS(REC709), CSPFIX_V4L2_HSV_ENC_180, 0, 0, 0,
          { P_UNS, T_UNS, S_UNS, R_UNS }, EINVAL_, "ycbcr_enc" },
        { CS(REC709), 0, 3, 0, 0, { P_UNS, T_UNS, S_UNS, R_UNS }, EINVAL_, "quantization" },
        { CS(REC709), 0, 0, 8, 0, { P_UNS, T_UNS, S_UNS, R_UNS }, EINVAL_, "xfer_func" },
    };
    run_v4l2_cases("v4l2 fields", t, NELEMS(t));

    {   /* why may be NULL */
        CspfixV4L2 v = { CS(OPRGB), 0, 0, 0 };
        Fields f;
        int ret = ff_cspfix_from_v4l2(&v, 0, &f.prim, &f.trc, &f.csp, &f.range, NULL);
        CHECK(ret == ENOSYS_, "NULL why: ret %d", ret);
    }
}

static void test_v4l2_names(void)
{
    static const struct { const char *name; int val; } cs[] = {
        { "default", 0 }, { "smpte170m", 1 }, { "smpte240m", 2 }, { "rec709", 3 },
        { "bt878", 4 }, { "470_system_m", 5 }, { "470_system_bg", 6 }, { "jpeg", 7 },
        { "srgb", 8 }, { "oprgb", 9 }, { "bt2020", 10 }, { "raw", 11 }, { "dci_p3", 12 },
    }, enc[] = {
        { "default", 0 }, { "601", 1 }, { "709", 2 }, { "xv601", 3 }, { "xv709", 4 },
        { "sycc", 5 }, { "bt2020", 6 }, { "bt2020_const_lum", 7 }, { "smpte240m", 8 },
    }, q[] = {
        { "default", 0 }, { "full_range", 1 }, { "lim_range", 2 },
    }, xf[] = {
        { "default", 0 }, { "709", 1 }, { "srgb", 2 }, { "oprgb", 3 }, { "smpte240m", 4 },
        { "none", 5 }, { "dci_p3", 6 }, { "smpte2084", 7 },
    };
    const char *s;

#define NAMES(tab, from, to) \
    for (int i = 0; i < NELEMS(tab); i++) {                                          \
        int v = from(tab[i].name);                                                   \
        CHECK(v == tab[i].val, #from "(\"%s\") = %d, want %d", tab[i].name, v, tab[i].val); \
        s = to(tab[i].val);                                                          \
        CHECK(s && !strcmp(s, tab[i].name), #to "(%d) = %s, want %s", tab[i].val,    \
              s ? s : "NULL", tab[i].name);                                          \
    }
    NAMES(cs,  ff_cspfix_v4l2_colorspace_from_name,   ff_cspfix_v4l2_colorspace_name)
    NAMES(enc, ff_cspfix_v4l2_ycbcr_enc_from_name,    ff_cspfix_v4l2_ycbcr_enc_name)
    NAMES(q,   ff_cspfix_v4l2_quantization_from_name, ff_cspfix_v4l2_quantization_name)
    NAMES(xf,  ff_cspfix_v4l2_xfer_func_from_name,    ff_cspfix_v4l2_xfer_func_name)
#undef NAMES

    CHECK(ff_cspfix_v4l2_colorspace_from_name("REC709") == 3, "case-insensitive");
    CHECK(ff_cspfix_v4l2_colorspace_from_name("adobergb") == 9, "adobergb alias");
    CHECK(ff_cspfix_v4l2_xfer_func_from_name("adobergb") == 3, "adobergb xfer alias");
    CHECK(ff_cspfix_v4l2_colorspace_from_name("bt709") == EINVAL_, "bt709 is not a V4L2 name");
    CHECK(ff_cspfix_v4l2_colorspace_from_name("") == EINVAL_, "empty colorspace name");
    CHECK(ff_cspfix_v4l2_colorspace_from_name(NULL) == EINVAL_, "NULL colorspace name");
    CHECK(ff_cspfix_v4l2_ycbcr_enc_from_name("rec709") == EINVAL_, "rec709 is not an encoding");
    CHECK(ff_cspfix_v4l2_quantization_from_name("full") == EINVAL_, "full is not a quantization");
    CHECK(ff_cspfix_v4l2_xfer_func_from_name("linear") == EINVAL_, "linear is not a V4L2 name");
    CHECK(!ff_cspfix_v4l2_colorspace_name(13), "name of 13");
    CHECK(!ff_cspfix_v4l2_xfer_func_name(-1), "name of -1");
}

static void test_to_v4l2(void)
{
    static const struct {
        Fields in;
        CspfixV4L2 want;
        int ret;
    } t[] = {
        { { AVCOL_PRI_BT709, AVCOL_TRC_BT709, AVCOL_SPC_BT709, R_TV },
          { CS(REC709), ENC(709), Q(LIM_RANGE), XF(709) }, 0 },
        { { AVCOL_PRI_BT709, AVCOL_TRC_IEC61966_2_1, AVCOL_SPC_RGB, R_PC },
          { CS(SRGB), ENC(DEFAULT), Q(FULL_RANGE), XF(SRGB) }, 0 },
        { { AVCOL_PRI_BT709, AVCOL_TRC_IEC61966_2_1, AVCOL_SPC_BT470BG, R_PC },
          { CS(SRGB), ENC(601), Q(FULL_RANGE), XF(SRGB) }, 0 },
        { { AVCOL_PRI_SMPTE170M, AVCOL_TRC_SMPTE170M, AVCOL_SPC_SMPTE170M, R_TV },
          { CS(SMPTE170M), ENC(601), Q(LIM_RANGE), XF(709) }, 0 },
        { { AVCOL_PRI_BT470BG, AVCOL_TRC_SMPTE170M, AVCOL_SPC_BT470BG, R_TV },
          { CS(470_SYSTEM_BG), ENC(601), Q(LIM_RANGE), XF(709) }, 0 },
        { { AVCOL_PRI_BT470M, AVCOL_TRC_BT709, AVCOL_SPC_SMPTE170M, R_TV },
          { CS(470_SYSTEM_M), ENC(601), Q(LIM_RANGE), XF(709) }, 0 },
        { { AVCOL_PRI_SMPTE240M, AVCOL_TRC_SMPTE240M, AVCOL_SPC_SMPTE240M, R_TV },
          { CS(SMPTE240M), ENC(SMPTE240M), Q(LIM_RANGE), XF(SMPTE240M) }, 0 },
        { { AVCOL_PRI_BT2020, AVCOL_TRC_BT2020_10, AVCOL_SPC_BT2020_NCL, R_TV },
          { CS(BT2020), ENC(BT2020), Q(LIM_RANGE), XF(709) }, 0 },
        { { AVCOL_PRI_BT2020, AVCOL_TRC_SMPTE2084, AVCOL_SPC_BT2020_NCL, R_TV },
          { CS(BT2020), ENC(BT2020), Q(LIM_RANGE), XF(SMPTE2084) }, 0 },
        { { AVCOL_PRI_BT2020, AVCOL_TRC_BT2020_12, AVCOL_SPC_BT2020_CL, R_TV },
          { CS(BT2020), ENC(BT2020_CONST_LUM), Q(LIM_RANGE), XF(709) }, 0 },
        { { AVCOL_PRI_SMPTE431, AVCOL_TRC_LINEAR, AVCOL_SPC_RGB, R_PC },
          { CS(DCI_P3), ENC(DEFAULT), Q(FULL_RANGE), XF(NONE) }, 0 },
        { { AVCOL_PRI_BT709, AVCOL_TRC_IEC61966_2_4, AVCOL_SPC_BT709, R_TV },
          { CS(REC709), ENC(XV709), Q(LIM_RANGE), XF(709) }, 0 },
        { { AVCOL_PRI_SMPTE170M, AVCOL_TRC_IEC61966_2_4, AVCOL_SPC_SMPTE170M, R_TV },
          { CS(SMPTE170M), ENC(XV601), Q(LIM_RANGE), XF(709) }, 0 },
        { { P_UNS, T_UNS, S_UNS, R_UNS },
          { CS(DEFAULT), ENC(DEFAULT), Q(DEFAULT), XF(DEFAULT) }, 0 },
        { { P_UNS, AVCOL_TRC_BT709, S_UNS, R_TV },
          { CS(DEFAULT), ENC(DEFAULT), Q(LIM_RANGE), XF(709) }, 0 },
        /* what V4L2 cannot express: that field stays DEFAULT */
        { { AVCOL_PRI_FILM, AVCOL_TRC_BT709, AVCOL_SPC_BT709, R_TV },
          { CS(DEFAULT), ENC(709), Q(LIM_RANGE), XF(709) }, ENOSYS_ },
        { { AVCOL_PRI_SMPTE432, AVCOL_TRC_IEC61966_2_1, AVCOL_SPC_RGB, R_PC },
          { CS(DEFAULT), ENC(DEFAULT), Q(FULL_RANGE), XF(SRGB) }, ENOSYS_ },
        { { AVCOL_PRI_EBU3213, AVCOL_TRC_BT709, AVCOL_SPC_BT709, R_TV },
          { CS(DEFAULT), ENC(709), Q(LIM_RANGE), XF(709) }, ENOSYS_ },
        { { AVCOL_PRI_SMPTE428, AVCOL_TRC_SMPTE428, AVCOL_SPC_RGB, R_PC },
          { CS(DEFAULT), ENC(DEFAULT), Q(FULL_RANGE), XF(DEFAULT) }, ENOSYS_ },
        { { AVCOL_PRI_BT470M, AVCOL_TRC_GAMMA22, AVCOL_SPC_SMPTE170M, R_TV },
          { CS(470_SYSTEM_M), ENC(601), Q(LIM_RANGE), XF(DEFAULT) }, ENOSYS_ },
        { { AVCOL_PRI_BT470BG, AVCOL_TRC_GAMMA28, AVCOL_SPC_BT470BG, R_TV },
          { CS(470_SYSTEM_BG), ENC(601), Q(LIM_RANGE), XF(DEFAULT) }, ENOSYS_ },
        { { AVCOL_PRI_BT2020, AVCOL_TRC_ARIB_STD_B67, AVCOL_SPC_BT2020_NCL, R_TV },
          { CS(BT2020), ENC(BT2020), Q(LIM_RANGE), XF(DEFAULT) }, ENOSYS_ },
        { { AVCOL_PRI_BT709, AVCOL_TRC_BT1361_ECG, AVCOL_SPC_BT709, R_TV },
          { CS(REC709), ENC(709), Q(LIM_RANGE), XF(DEFAULT) }, ENOSYS_ },
        { { AVCOL_PRI_BT709, AVCOL_TRC_LOG, AVCOL_SPC_BT709, R_TV },
          { CS(REC709), ENC(709), Q(LIM_RANGE), XF(DEFAULT) }, ENOSYS_ },
        { { AVCOL_PRI_BT709, AVCOL_TRC_BT709, AVCOL_SPC_FCC, R_TV },
          { CS(REC709), ENC(DEFAULT), Q(LIM_RANGE), XF(709) }, ENOSYS_ },
        { { AVCOL_PRI_BT709, AVCOL_TRC_BT709, AVCOL_SPC_YCGCO, R_TV },
          { CS(REC709), ENC(DEFAULT), Q(LIM_RANGE), XF(709) }, ENOSYS_ },
        { { AVCOL_PRI_BT2020, AVCOL_TRC_SMPTE2084, AVCOL_SPC_ICTCP, R_TV },
          { CS(BT2020), ENC(DEFAULT), Q(LIM_RANGE), XF(SMPTE2084) }, ENOSYS_ },
        /* xvYCC needs the 601/709 matrix and limited range */
        { { AVCOL_PRI_BT2020, AVCOL_TRC_IEC61966_2_4, AVCOL_SPC_BT2020_NCL, R_TV },
          { CS(BT2020), ENC(BT2020), Q(LIM_RANGE), XF(DEFAULT) }, ENOSYS_ },
        { { AVCOL_PRI_BT709, AVCOL_TRC_IEC61966_2_4, AVCOL_SPC_BT709, R_PC },
          { CS(REC709), ENC(709), Q(FULL_RANGE), XF(DEFAULT) }, ENOSYS_ },
    };
    for (int i = 0; i < NELEMS(t); i++) {
        CspfixV4L2 v;
        int ret = ff_cspfix_to_v4l2(t[i].in.prim, t[i].in.trc, t[i].in.csp, t[i].in.range, &v);
        CHECK(ret == t[i].ret && v.colorspace == t[i].want.colorspace &&
              v.ycbcr_enc == t[i].want.ycbcr_enc && v.quantization == t[i].want.quantization &&
              v.xfer_func == t[i].want.xfer_func,
              "to_v4l2 #%d: ret %d {%d,%d,%d,%d}, want ret %d {%d,%d,%d,%d}", i, ret,
              v.colorspace, v.ycbcr_enc, v.quantization, v.xfer_func, t[i].ret,
              t[i].want.colorspace, t[i].want.ycbcr_enc, t[i].want.quantization,
              t[i].want.xfer_func);
    }
}

/* every H.273 value FFmpeg has, plus unspecified */
static const enum AVColorPrimaries all_prim[] = {
    AVCOL_PRI_UNSPECIFIED, AVCOL_PRI_BT709, AVCOL_PRI_BT470M, AVCOL_PRI_BT470BG,
    AVCOL_PRI_SMPTE170M, AVCOL_PRI_SMPTE240M, AVCOL_PRI_FILM, AVCOL_PRI_BT2020,
    AVCOL_PRI_SMPTE428, AVCOL_PRI_SMPTE431, AVCOL_PRI_SMPTE432, AVCOL_PRI_EBU3213,
};
static const enum AVColorTransferCharacteristic all_trc[] = {
    AVCOL_TRC_UNSPECIFIED, AVCOL_TRC_BT709, AVCOL_TRC_GAMMA22, AVCOL_TRC_GAMMA28,
    AVCOL_TRC_SMPTE170M, AVCOL_TRC_SMPTE240M, AVCOL_TRC_LINEAR, AVCOL_TRC_LOG,
    AVCOL_TRC_LOG_SQRT, AVCOL_TRC_IEC61966_2_4, AVCOL_TRC_BT1361_ECG,
    AVCOL_TRC_IEC61966_2_1, AVCOL_TRC_BT2020_10, AVCOL_TRC_BT2020_12,
    AVCOL_TRC_SMPTE2084, AVCOL_TRC_SMPTE428, AVCOL_TRC_ARIB_STD_B67,
};
static const enum AVColorSpace all_csp[] = {
    AVCOL_SPC_RGB, AVCOL_SPC_BT709, AVCOL_SPC_UNSPECIFIED, AVCOL_SPC_FCC,
    AVCOL_SPC_BT470BG, AVCOL_SPC_SMPTE170M, AVCOL_SPC_SMPTE240M, AVCOL_SPC_YCGCO,
    AVCOL_SPC_BT2020_NCL, AVCOL_SPC_BT2020_CL, AVCOL_SPC_SMPTE2085,
    AVCOL_SPC_CHROMA_DERIVED_NCL, AVCOL_SPC_CHROMA_DERIVED_CL, AVCOL_SPC_ICTCP,
};
static const enum AVColorRange all_range[] = {
    AVCOL_RANGE_UNSPECIFIED, AVCOL_RANGE_MPEG, AVCOL_RANGE_JPEG,
};

static void test_v4l2_round_trip(void)
{
    int tried = 0;

    for (int a = 0; a < NELEMS(all_prim); a++)
    for (int b = 0; b < NELEMS(all_trc); b++)
    for (int c = 0; c < NELEMS(all_csp); c++)
    for (int d = 0; d < NELEMS(all_range); d++) {
        Fields in = { all_prim[a], all_trc[b], all_csp[c], all_range[d] }, out;
        CspfixV4L2 v;
        const char *why;
        int ret;

        /* DEFAULT fields come back through the kernel's default rules */
        if (in.prim == P_UNS || in.trc == T_UNS || in.csp == S_UNS || in.range == R_UNS)
            continue;
        if (ff_cspfix_to_v4l2(in.prim, in.trc, in.csp, in.range, &v) < 0)
            continue;
        tried++;
        ret = ff_cspfix_from_v4l2(&v, in.csp == AVCOL_SPC_RGB,
                                  &out.prim, &out.trc, &out.csp, &out.range, &why);
        CHECK(ret == 0 && fields_equiv(in, out),
              "v4l2 round trip %d/%d/%d/%d -> {%d,%d,%d,%d} -> ret %d %d/%d/%d/%d",
              in.prim, in.trc, in.csp, in.range, v.colorspace, v.ycbcr_enc,
              v.quantization, v.xfer_func, ret, out.prim, out.trc, out.csp, out.range);
    }
    CHECK(tried >= 500, "only %d V4L2 round trips", tried);
}

/* ----------------------------------------------------------- GStreamer --- */

static void test_gst_values(void)
{
    /* gst-libs/gst/video/video-color.h */
    static const int v[][2] = {
        { CSPFIX_GST_RANGE_UNKNOWN, 0 }, { CSPFIX_GST_RANGE_0_255, 1 },
        { CSPFIX_GST_RANGE_16_235, 2 }, { CSPFIX_GST_RANGE_0_1, 3 },
        { CSPFIX_GST_MATRIX_UNKNOWN, 0 }, { CSPFIX_GST_MATRIX_RGB, 1 },
        { CSPFIX_GST_MATRIX_FCC, 2 }, { CSPFIX_GST_MATRIX_BT709, 3 },
        { CSPFIX_GST_MATRIX_BT601, 4 }, { CSPFIX_GST_MATRIX_SMPTE240M, 5 },
        { CSPFIX_GST_MATRIX_BT2020, 6 },
        { CSPFIX_GST_TRANSFER_UNKNOWN, 0 }, { CSPFIX_GST_TRANSFER_GAMMA10, 1 },
        { CSPFIX_GST_TRANSFER_GAMMA18, 2 }, { CSPFIX_GST_TRANSFER_GAMMA20, 3 },
        { CSPFIX_GST_TRANSFER_GAMMA22, 4 }, { CSPFIX_GST_TRANSFER_BT709, 5 },
        { CSPFIX_GST_TRANSFER_SMPTE240M, 6 }, { CSPFIX_GST_TRANSFER_SRGB, 7 },
        { CSPFIX_GST_TRANSFER_GAMMA28, 8 }, { CSPFIX_GST_TRANSFER_LOG100, 9 },
        { CSPFIX_GST_TRANSFER_LOG316, 10 }, { CSPFIX_GST_TRANSFER_BT2020_12, 11 },
        { CSPFIX_GST_TRANSFER_ADOBERGB, 12 }, { CSPFIX_GST_TRANSFER_BT2020_10, 13 },
        { CSPFIX_GST_TRANSFER_SMPTE2084, 14 }, { CSPFIX_GST_TRANSFER_ARIB_STD_B67, 15 },
        { CSPFIX_GST_TRANSFER_BT601, 16 },
        { CSPFIX_GST_PRIMARIES_UNKNOWN, 0 }, { CSPFIX_GST_PRIMARIES_BT709, 1 },
        { CSPFIX_GST_PRIMARIES_BT470M, 2 }, { CSPFIX_GST_PRIMARIES_BT470BG, 3 },
        { CSPFIX_GST_PRIMARIES_SMPTE170M, 4 }, { CSPFIX_GST_PRIMARIES_SMPTE240M, 5 },
        { CSPFIX_GST_PRIMARIES_FILM, 6 }, { CSPFIX_GST_PRIMARIES_BT2020, 7 },
        { CSPFIX_GST_PRIMARIES_ADOBERGB, 8 }, { CSPFIX_GST_PRIMARIES_SMPTEST428, 9 },
        { CSPFIX_GST_PRIMARIES_SMPTERP431, 10 }, { CSPFIX_GST_PRIMARIES_SMPTEEG432, 11 },
        { CSPFIX_GST_PRIMARIES_EBU3213, 12 },
    };
    for (int i = 0; i < NELEMS(v); i++)
        CHECK(v[i][0] == v[i][1], "GStreamer constant #%d is %d, video-color.h says %d",
              i, v[i][0], v[i][1]);
}

static void test_gst_named(void)
{
    /* video-color.c, MAKE_COLORIMETRY table */
    static const struct {
        const char *name, *numeric;
        Fields want;
    } t[] = {
        { "bt601",      "2:4:16:4", { AVCOL_PRI_SMPTE170M, AVCOL_TRC_SMPTE170M,
                                      AVCOL_SPC_SMPTE170M, R_TV } },
        { "bt709",      "2:3:5:1",  { AVCOL_PRI_BT709, AVCOL_TRC_BT709,
                                      AVCOL_SPC_BT709, R_TV } },
        { "smpte240m",  "2:5:6:5",  { AVCOL_PRI_SMPTE240M, AVCOL_TRC_SMPTE240M,
                                      AVCOL_SPC_SMPTE240M, R_TV } },
        { "sRGB",       "1:1:7:1",  { AVCOL_PRI_BT709, AVCOL_TRC_IEC61966_2_1,
                                      AVCOL_SPC_RGB, R_PC } },
        { "bt2020",     "2:6:11:7", { AVCOL_PRI_BT2020, AVCOL_TRC_BT2020_12,
                                      AVCOL_SPC_BT2020_NCL, R_TV } },
        { "bt2020-10",  "2:6:13:7", { AVCOL_PRI_BT2020, AVCOL_TRC_BT2020_10,
                                      AVCOL_SPC_BT2020_NCL, R_TV } },
        { "bt2100-pq",  "2:6:14:7", { AVCOL_PRI_BT2020, AVCOL_TRC_SMPTE2084,
                                      AVCOL_SPC_BT2020_NCL, R_TV } },
        { "bt2100-hlg", "2:6:15:7", { AVCOL_PRI_BT2020, AVCOL_TRC_ARIB_STD_B67,
                                      AVCOL_SPC_BT2020_NCL, R_TV } },
    };
    for (int i = 0; i < NELEMS(t); i++) {
        Fields f, g;
        const char *why = (const char *)1;
        char buf[16];
        int ret = ff_cspfix_from_gst_colorimetry(t[i].name, &f.prim, &f.trc, &f.csp,
                                                 &f.range, &why);
        CHECK(ret == 0 && !why && fields_eq(f, t[i].want),
              "gst \"%s\": ret %d %d/%d/%d/%d", t[i].name, ret, f.prim, f.trc, f.csp, f.range);
        ret = ff_cspfix_from_gst_colorimetry(t[i].numeric, &g.prim, &g.trc, &g.csp,
                                             &g.range, NULL);
        CHECK(ret == 0 && fields_eq(g, t[i].want), "gst \"%s\" (numeric of %s): ret %d",
              t[i].numeric, t[i].name, ret);
        ret = ff_cspfix_to_gst_colorimetry(t[i].want.prim, t[i].want.trc, t[i].want.csp,
                                           t[i].want.range, buf, sizeof(buf));
        CHECK(ret == 0 && !strcmp(buf, t[i].name), "to_gst of %s: ret %d \"%s\"",
              t[i].name, ret, buf);
    }
}

/* index = GStreamer value; -1 = no FFmpeg equivalent (ENOSYS) */
static const int gst_range_want[] = {
    R_UNS, R_PC, R_TV, R_PC,
};
static const int gst_matrix_want[] = {
    S_UNS, AVCOL_SPC_RGB, AVCOL_SPC_FCC, AVCOL_SPC_BT709, AVCOL_SPC_SMPTE170M,
    AVCOL_SPC_SMPTE240M, AVCOL_SPC_BT2020_NCL,
};
static const int gst_transfer_want[] = {
    T_UNS, AVCOL_TRC_LINEAR, -1 /* gamma18 */, -1 /* gamma20 */, AVCOL_TRC_GAMMA22,
    AVCOL_TRC_BT709, AVCOL_TRC_SMPTE240M, AVCOL_TRC_IEC61966_2_1, AVCOL_TRC_GAMMA28,
    AVCOL_TRC_LOG, AVCOL_TRC_LOG_SQRT, AVCOL_TRC_BT2020_12, -1 /* adobergb */,
    AVCOL_TRC_BT2020_10, AVCOL_TRC_SMPTE2084, AVCOL_TRC_ARIB_STD_B67,
    AVCOL_TRC_SMPTE170M /* bt601 */,
};
static const int gst_primaries_want[] = {
    P_UNS, AVCOL_PRI_BT709, AVCOL_PRI_BT470M, AVCOL_PRI_BT470BG, AVCOL_PRI_SMPTE170M,
    AVCOL_PRI_SMPTE240M, AVCOL_PRI_FILM, AVCOL_PRI_BT2020, -1 /* adobergb */,
    AVCOL_PRI_SMPTE428, AVCOL_PRI_SMPTE431, AVCOL_PRI_SMPTE432, AVCOL_PRI_EBU3213,
};

static void test_gst_numeric(void)
{
    static const char *const named[] = {
        "bt601", "bt709", "smpte240m", "sRGB", "bt2020", "bt2020-10", "bt2100-pq",
        "bt2100-hlg",
    };
    static const char *const named_numeric[] = {
        "2:4:16:4", "2:3:5:1", "2:5:6:5", "1:1:7:1", "2:6:11:7", "2:6:13:7",
        "2:6:14:7", "2:6:15:7",
    };

    /* every combination of every enum value */
    for (int r = 0; r < NELEMS(gst_range_want); r++)
    for (int m = 0; m < NELEMS(gst_matrix_want); m++)
    for (int t = 0; t < NELEMS(gst_transfer_want); t++)
    for (int p = 0; p < NELEMS(gst_primaries_want); p++) {
        char str[32], buf[16];
        const char *why;
        Fields f;
        int want_ret = gst_transfer_want[t] < 0 || gst_primaries_want[p] < 0 ? ENOSYS_ : 0;
        int ok, ret;

        snprintf(str, sizeof(str), "%d:%d:%d:%d", r, m, t, p);
        ret = ff_cspfix_from_gst_colorimetry(str, &f.prim, &f.trc, &f.csp, &f.range, &why);
        ok = ret == want_ret &&
             (int)f.range == gst_range_want[r] && (int)f.csp == gst_matrix_want[m] &&
             (int)f.trc == (gst_transfer_want[t] < 0 ? T_UNS : gst_transfer_want[t]) &&
             (int)f.prim == (gst_primaries_want[p] < 0 ? P_UNS : gst_primaries_want[p]);
        if (want_ret < 0)
            ok = ok && why && strstr(why, p == 8 ? "Adobe RGB" : t == 2 ? "1.8" :
                                          t == 3 ? "2.0" : "Adobe RGB");
        CHECK(ok, "gst \"%s\": ret %d %d/%d/%d/%d (%s)", str, ret, f.prim, f.trc, f.csp,
              f.range, why ? why : "");

        /* and back: the same string, or the name of that tuple */
        if (ret < 0 || r == CSPFIX_GST_RANGE_0_1)
            continue;
        ret = ff_cspfix_to_gst_colorimetry(f.prim, f.trc, f.csp, f.range, buf, sizeof(buf));
        ok = ret == 0 && !strcmp(buf, str);
        for (int i = 0; i < NELEMS(named); i++)
            if (!strcmp(str, named_numeric[i]))
                ok = ret == 0 && !strcmp(buf, named[i]);
        CHECK(ok, "gst \"%s\" back: ret %d \"%s\"", str, ret, buf);
    }
}

static void test_gst_malformed(void)
{
    static const char *const bad[] = {
        "", "1:2:3", "9:9:9:9", "bt709x", "BT709", "srgb", "1:2:3:4:5", " 2:4:5:4",
        "2:4:5:4 ", "2:4:5:4x", "-1:0:0:0", "+2:4:5:4", "2:4:5:", ":4:5:4", "2::5:4",
        "a:b:c:d", "2;4;5;4", "99999999999999999999:0:0:0", "4:0:0:0", "0:7:0:0",
        "0:0:17:0", "0:0:0:13", "bt601 ", "bt2100_pq",
    };
    for (int i = 0; i < NELEMS(bad); i++) {
        Fields f;
        const char *why = NULL;
        int ret = ff_cspfix_from_gst_colorimetry(bad[i], &f.prim, &f.trc, &f.csp,
                                                 &f.range, &why);
        CHECK(ret == EINVAL_ && why && f.prim == P_UNS && f.trc == T_UNS &&
              f.csp == S_UNS && f.range == R_UNS,
              "malformed \"%s\": ret %d", bad[i], ret);
    }
    {   /* NULL: no colorimetry, like gst_video_colorimetry_from_string */
        Fields f;
        int ret = ff_cspfix_from_gst_colorimetry(NULL, &f.prim, &f.trc, &f.csp, &f.range, NULL);
        CHECK(ret == 0 && f.prim == P_UNS && f.trc == T_UNS && f.csp == S_UNS &&
              f.range == R_UNS, "NULL: ret %d", ret);
    }
    {   /* leading zeros are still decimal integers */
        Fields f;
        int ret = ff_cspfix_from_gst_colorimetry("02:03:05:01", &f.prim, &f.trc, &f.csp,
                                                 &f.range, NULL);
        CHECK(ret == 0 && f.prim == AVCOL_PRI_BT709 && f.range == R_TV, "leading zeros");
    }
}

static void test_to_gst(void)
{
    static const struct {
        Fields in;
        const char *want;
        int ret;
    } t[] = {
        { { P_UNS, T_UNS, S_UNS, R_UNS }, "0:0:0:0", 0 },
        { { AVCOL_PRI_BT470BG, AVCOL_TRC_SMPTE170M, AVCOL_SPC_BT470BG, R_TV }, "2:4:16:3", 0 },
        { { AVCOL_PRI_SMPTE170M, AVCOL_TRC_SMPTE170M, AVCOL_SPC_BT470BG, R_TV }, "bt601", 0 },
        { { AVCOL_PRI_BT709, AVCOL_TRC_BT709, AVCOL_SPC_BT709, R_PC }, "1:3:5:1", 0 },
        { { AVCOL_PRI_BT709, AVCOL_TRC_IEC61966_2_1, AVCOL_SPC_SMPTE170M, R_PC }, "1:4:7:1", 0 },
        { { AVCOL_PRI_BT470M, AVCOL_TRC_GAMMA22, AVCOL_SPC_FCC, R_TV }, "2:2:4:2", 0 },
        { { AVCOL_PRI_FILM, AVCOL_TRC_LINEAR, AVCOL_SPC_RGB, R_PC }, "1:1:1:6", 0 },
        { { AVCOL_PRI_SMPTE432, AVCOL_TRC_SMPTE2084, AVCOL_SPC_BT2020_NCL, R_TV }, "2:6:14:11", 0 },
        { { AVCOL_PRI_EBU3213, AVCOL_TRC_LOG_SQRT, S_UNS, R_UNS }, "0:0:10:12", 0 },
        /* no GStreamer equivalent */
        { { AVCOL_PRI_BT709, AVCOL_TRC_IEC61966_2_4, AVCOL_SPC_BT709, R_TV }, "", ENOSYS_ },
        { { AVCOL_PRI_BT709, AVCOL_TRC_BT1361_ECG, AVCOL_SPC_BT709, R_TV }, "", ENOSYS_ },
        { { AVCOL_PRI_SMPTE428, AVCOL_TRC_SMPTE428, AVCOL_SPC_RGB, R_PC }, "", ENOSYS_ },
        { { AVCOL_PRI_BT2020, AVCOL_TRC_BT2020_10, AVCOL_SPC_BT2020_CL, R_TV }, "", ENOSYS_ },
        { { AVCOL_PRI_BT709, AVCOL_TRC_BT709, AVCOL_SPC_YCGCO, R_TV }, "", ENOSYS_ },
        { { AVCOL_PRI_BT2020, AVCOL_TRC_SMPTE2084, AVCOL_SPC_ICTCP, R_TV }, "", ENOSYS_ },
        { { AVCOL_PRI_RESERVED, AVCOL_TRC_BT709, AVCOL_SPC_BT709, R_TV }, "", ENOSYS_ },
    };
    char buf[16];
    int ret;

    for (int i = 0; i < NELEMS(t); i++) {
        strcpy(buf, "junk");
        ret = ff_cspfix_to_gst_colorimetry(t[i].in.prim, t[i].in.trc, t[i].in.csp,
                                           t[i].in.range, buf, sizeof(buf));
        CHECK(ret == t[i].ret && !strcmp(buf, t[i].want), "to_gst #%d: ret %d \"%s\", want \"%s\"",
              i, ret, buf, t[i].want);
    }
    ret = ff_cspfix_to_gst_colorimetry(AVCOL_PRI_BT2020, AVCOL_TRC_ARIB_STD_B67,
                                       AVCOL_SPC_BT2020_NCL, R_TV, buf, 10);
    CHECK(ret == AVERROR_BUFFER_TOO_SMALL && !buf[0], "bt2100-hlg in 10 bytes: %d", ret);
    ret = ff_cspfix_to_gst_colorimetry(AVCOL_PRI_BT2020, AVCOL_TRC_ARIB_STD_B67,
                                       AVCOL_SPC_BT2020_NCL, R_TV, buf, 11);
    CHECK(ret == 0 && !strcmp(buf, "bt2100-hlg"), "bt2100-hlg in 11 bytes: %d", ret);
    ret = ff_cspfix_to_gst_colorimetry(AVCOL_PRI_SMPTE432, AVCOL_TRC_SMPTE2084,
                                       AVCOL_SPC_BT2020_NCL, R_TV, buf, 9);
    CHECK(ret == AVERROR_BUFFER_TOO_SMALL && !buf[0], "2:6:14:11 in 9 bytes: %d", ret);
    ret = ff_cspfix_to_gst_colorimetry(P_UNS, T_UNS, S_UNS, R_UNS, buf, 0);
    CHECK(ret == AVERROR_BUFFER_TOO_SMALL, "size 0: %d", ret);
}

static void test_gst_round_trip(void)
{
    int tried = 0;

    for (int a = 0; a < NELEMS(all_prim); a++)
    for (int b = 0; b < NELEMS(all_trc); b++)
    for (int c = 0; c < NELEMS(all_csp); c++)
    for (int d = 0; d < NELEMS(all_range); d++) {
        Fields in = { all_prim[a], all_trc[b], all_csp[c], all_range[d] }, out;
        char buf[16];
        int ret;

        if (ff_cspfix_to_gst_colorimetry(in.prim, in.trc, in.csp, in.range,
                                         buf, sizeof(buf)) < 0)
            continue;
        tried++;
        ret = ff_cspfix_from_gst_colorimetry(buf, &out.prim, &out.trc, &out.csp,
                                             &out.range, NULL);
        /* exact but for the BT.601 matrix, one GStreamer value for two tags */
        CHECK(ret == 0 && out.prim == in.prim && out.trc == in.trc &&
              csp_class(out.csp) == csp_class(in.csp) && out.range == in.range,
              "gst round trip %d/%d/%d/%d -> \"%s\" -> ret %d %d/%d/%d/%d",
              in.prim, in.trc, in.csp, in.range, buf, ret,
              out.prim, out.trc, out.csp, out.range);
    }
    CHECK(tried >= 1000, "only %d GStreamer round trips", tried);
}

/* ff_cspfix_v4l2_tag(), the entry point libavdevice's v4l2 input calls with the
 * four fields of VIDIOC_G_FMT: fills the stream's fields, keeps the ones that
 * do not map, writes nothing for invalid values. */
static void test_v4l2_tag(void)
{
    static const struct {
        CspfixV4L2 v;
        int rgb, ret;
        int prim, trc, csp, range;   /* expected, starting from all unspecified */
    } t[] = {
        /* a webcam: sRGB colorspace, everything else DEFAULT, YUYV */
        { { CSPFIX_V4L2_COLORSPACE_SRGB, 0, 0, 0 }, 0, 0,
          AVCOL_PRI_BT709, AVCOL_TRC_IEC61966_2_1, AVCOL_SPC_SMPTE170M, AVCOL_RANGE_MPEG },
        /* the same as RGB: full range, matrix rgb */
        { { CSPFIX_V4L2_COLORSPACE_SRGB, 0, 0, 0 }, 1, 0,
          AVCOL_PRI_BT709, AVCOL_TRC_IEC61966_2_1, AVCOL_SPC_RGB, AVCOL_RANGE_JPEG },
        /* an HDMI receiver: Rec. 709, explicit full range */
        { { CSPFIX_V4L2_COLORSPACE_REC709, CSPFIX_V4L2_YCBCR_ENC_709,
            CSPFIX_V4L2_QUANTIZATION_FULL_RANGE, CSPFIX_V4L2_XFER_FUNC_709 }, 0, 0,
          AVCOL_PRI_BT709, AVCOL_TRC_BT709, AVCOL_SPC_BT709, AVCOL_RANGE_JPEG },
        /* JPEG colorspace (MJPEG cameras): BT.601 matrix, full range by default */
        { { CSPFIX_V4L2_COLORSPACE_JPEG, 0, 0, 0 }, 0, 0,
          AVCOL_PRI_BT709, AVCOL_TRC_IEC61966_2_1, AVCOL_SPC_BT470BG, AVCOL_RANGE_JPEG },
        /* SDTV capture */
        { { CSPFIX_V4L2_COLORSPACE_SMPTE170M, 0, 0, 0 }, 0, 0,
          AVCOL_PRI_SMPTE170M, AVCOL_TRC_SMPTE170M, AVCOL_SPC_SMPTE170M, AVCOL_RANGE_MPEG },
        /* HDR10 */
        { { CSPFIX_V4L2_COLORSPACE_BT2020, 0, 0, CSPFIX_V4L2_XFER_FUNC_SMPTE2084 }, 0, 0,
          AVCOL_PRI_BT2020, AVCOL_TRC_SMPTE2084, AVCOL_SPC_BT2020_NCL, AVCOL_RANGE_MPEG },
        /* opRGB: not expressible; the rest is still set, primaries/transfer kept */
        { { CSPFIX_V4L2_COLORSPACE_OPRGB, 0, 0, 0 }, 0, AVERROR(ENOSYS),
          AVCOL_PRI_UNSPECIFIED, AVCOL_TRC_UNSPECIFIED, AVCOL_SPC_SMPTE170M, AVCOL_RANGE_MPEG },
        /* DCI-P3 gamma 2.6: primaries set, transfer kept */
        { { CSPFIX_V4L2_COLORSPACE_DCI_P3, 0, 0, 0 }, 1, AVERROR(ENOSYS),
          AVCOL_PRI_SMPTE431, AVCOL_TRC_UNSPECIFIED, AVCOL_SPC_RGB, AVCOL_RANGE_JPEG },
        /* driver bug: a value outside the enums: nothing written */
        { { 99, 0, 0, 0 }, 0, AVERROR(EINVAL),
          AVCOL_PRI_UNSPECIFIED, AVCOL_TRC_UNSPECIFIED, AVCOL_SPC_UNSPECIFIED, AVCOL_RANGE_UNSPECIFIED },
    };
    int level = av_log_get_level();
    av_log_set_level(AV_LOG_QUIET); /* the expected warnings */
    for (int i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
        enum AVColorPrimaries p = AVCOL_PRI_UNSPECIFIED;
        enum AVColorTransferCharacteristic tr = AVCOL_TRC_UNSPECIFIED;
        enum AVColorSpace c = AVCOL_SPC_UNSPECIFIED;
        enum AVColorRange r = AVCOL_RANGE_UNSPECIFIED;
        int ret = ff_cspfix_v4l2_tag(NULL, &t[i].v, t[i].rgb, &p, &tr, &c, &r);
        CHECK(ret == t[i].ret && p == t[i].prim && tr == t[i].trc && c == t[i].csp &&
              r == t[i].range, "v4l2_tag #%d: ret %d %d/%d/%d/%d, expected %d %d/%d/%d/%d", i,
              ret, p, tr, c, r, t[i].ret, t[i].prim, t[i].trc, t[i].csp, t[i].range);
    }
    /* fields that do not map keep what the demuxer had */
    {
        CspfixV4L2 v = { CSPFIX_V4L2_COLORSPACE_OPRGB, 0, 0, 0 };
        enum AVColorPrimaries p = AVCOL_PRI_BT709;
        enum AVColorTransferCharacteristic tr = AVCOL_TRC_GAMMA22;
        enum AVColorSpace c = AVCOL_SPC_UNSPECIFIED;
        enum AVColorRange r = AVCOL_RANGE_UNSPECIFIED;
        ff_cspfix_v4l2_tag(NULL, &v, 0, &p, &tr, &c, &r);
        CHECK(p == AVCOL_PRI_BT709 && tr == AVCOL_TRC_GAMMA22, "v4l2_tag overwrote unmapped fields");
    }
    av_log_set_level(level);
}

int main(void)
{
    test_v4l2_values();
    test_v4l2_default_rules();
    test_v4l2_colorspaces();
    test_v4l2_fields();
    test_v4l2_names();
    test_to_v4l2();
    test_v4l2_round_trip();
    test_v4l2_tag();

    test_gst_values();
    test_gst_named();
    test_gst_numeric();
    test_gst_malformed();
    test_to_gst();
    test_gst_round_trip();

    printf("%d passed, %d failed\n", passed, failed);
    return failed != 0;
}
