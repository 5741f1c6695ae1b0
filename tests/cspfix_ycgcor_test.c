/*
 * cspfix YCgCo-R tests: exact lifting against H.273's equations, lossless round trips
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
 * YCgCo-R (H.273 MatrixCoefficients 16 and 17) through the filter's public interface:
 * RGB on a grid (every 8-bit triple) to ycgco-re/ro, each coded sample compared with
 * this file's own forward lifting, and back to RGB: the input, exactly. A YCgCo-R frame
 * converted to 4:2:0 BT.709 gives the frame its RGB gives; the errors (subsampled,
 * limited range, depths without an RGB twin, alpha) are errors, not crashes.
 */

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libavutil/common.h>
#include <libavutil/frame.h>
#include <libavutil/intreadwrite.h>
#include <libavutil/log.h>
#include <libavutil/pixdesc.h>

#include "cspfix_check.h"
#include "cspfix_testutil.h"

static long long samples;   /* coded and RGB samples compared */
static int maxdiff;         /* the largest difference of any comparison that must be 0 */

static int depth_of(int fmt)
{
    return av_pix_fmt_desc_get(fmt)->comp[0].depth;
}

/* a coded sample, of either endianness */
static int coded_sample(const AVFrame *f, int p, int x, int y)
{
    const uint8_t *s = f->data[p] + (ptrdiff_t)y * f->linesize[p] + 2 * x;
    return av_pix_fmt_desc_get(f->format)->flags & AV_PIX_FMT_FLAG_BE ? AV_RB16(s) : AV_RL16(s);
}

/* H.273 V3 / H.265 eqs E-41..E-48, forward, with the coded offset */
static void forward(int r, int g, int b, int off, int *y, int *cb, int *cr)
{
    const int co = r - b;
    const int t  = b + (co >> 1);
    const int cg = g - t;
    *y  = t + (cg >> 1);
    *cb = cg + off;
    *cr = co + off;
}

/* every N-bit triple when there are at most 2^24, else an even grid of 256 values a
 * component (0 and the maximum among them) */
static AVFrame *rgb_grid(int fmt)
{
    const int n = depth_of(fmt), k = FFMIN(1 << n, 256), max = (1 << n) - 1;
    const int w = 4096, h = k * k * k / w;
    AVFrame *f = cspfix_alloc_frame(fmt, w, h, AVCOL_PRI_BT709, AVCOL_TRC_IEC61966_2_1,
                                    AVCOL_SPC_RGB, AVCOL_RANGE_JPEG);
    for (int i = 0; f && i < k * k * k; i++) {
        const int x = i % w, y = i / w;
        const int r = (i / (k * k)) * max / (k - 1), g = (i / k % k) * max / (k - 1),
                  b = (i % k) * max / (k - 1);
        cspfix_set_sample(f, 2, x, y, n > 8, r);
        cspfix_set_sample(f, 0, x, y, n > 8, g);
        cspfix_set_sample(f, 1, x, y, n > 8, b);
    }
    return f;
}

/* rgb_fmt -> (csp, ycc_fmt): each coded sample against forward(), tags; back: exact */
static void round_trip(int rgb_fmt, int csp, int ycc_fmt, int threads)
{
    const char *name = av_color_space_name(csp);
    const int n = depth_of(rgb_fmt), d = depth_of(ycc_fmt), off = 1 << (d - 1);
    AVFrame *in = rgb_grid(rgb_fmt), *ycc = NULL, *back = NULL;
    char filters[160];
    int ret, bad = 0, worst = 0;

    snprintf(filters, sizeof(filters), "cspfix=space=%s:format=%s:range=pc", name,
             av_get_pix_fmt_name(ycc_fmt));
    cspfix_log_reset();
    ret = cspfix_run1(in, filters, threads, &ycc);
    CHECK(ret >= 0 && ycc && ycc->format == ycc_fmt, "%s: %s [%s]", filters, av_err2str(ret), cspfix_log_text);
    if (ret < 0 || !ycc)
        goto end;
    CHECK(ycc->colorspace == csp && ycc->color_range == AVCOL_RANGE_JPEG &&
          ycc->color_primaries == AVCOL_PRI_BT709 && ycc->color_trc == AVCOL_TRC_IEC61966_2_1,
          "%s: tagged %s/%s", filters, av_color_space_name(ycc->colorspace),
          av_color_range_name(ycc->color_range));
    for (int y = 0; y < in->height; y++)
        for (int x = 0; x < in->width; x++) {
            int want[3], diff;
            forward(cspfix_sample(in, 2, x, y, n > 8), cspfix_sample(in, 0, x, y, n > 8),
                    cspfix_sample(in, 1, x, y, n > 8), off, &want[0], &want[1], &want[2]);
            for (int p = 0; p < 3; p++) {
                diff = abs(coded_sample(ycc, p, x, y) - want[p]);
                worst = FFMAX(worst, diff);
                bad += diff != 0;
                samples++;
            }
        }
    CHECK(!bad, "%s: %d coded samples differ from H.273's forward lifting (max %d)", filters, bad, worst);
    maxdiff = FFMAX(maxdiff, worst);

    snprintf(filters, sizeof(filters), "cspfix=format=%s", av_get_pix_fmt_name(rgb_fmt));
    cspfix_log_reset();
    ret = cspfix_run1(ycc, filters, threads, &back);
    CHECK(ret >= 0 && back && back->format == rgb_fmt, "%s from %s: %s [%s]", filters, name,
          av_err2str(ret), cspfix_log_text);
    if (ret < 0 || !back)
        goto end;
    worst = bad = 0;
    for (int p = 0; p < 3; p++)
        for (int y = 0; y < in->height; y++)
            for (int x = 0; x < in->width; x++) {
                const int diff = abs(cspfix_sample(back, p, x, y, n > 8) - cspfix_sample(in, p, x, y, n > 8));
                worst = FFMAX(worst, diff);
                bad += diff != 0;
                samples++;
            }
    CHECK(!bad && back->colorspace == AVCOL_SPC_RGB, "%s -> %s -> %s: %d RGB samples differ "
          "(max %d)", av_get_pix_fmt_name(rgb_fmt), name, av_get_pix_fmt_name(ycc_fmt), bad, worst);
    maxdiff = FFMAX(maxdiff, worst);
    printf("%s %s <-> %s (%dx%d, %d threads): exact both ways\n", av_get_pix_fmt_name(rgb_fmt),
           name, av_get_pix_fmt_name(ycc_fmt), in->width, in->height, threads);
end:
    av_frame_free(&in);
    av_frame_free(&ycc);
    av_frame_free(&back);
}

/* A smooth 8-bit (or n-bit) RGB picture */
static AVFrame *rgb_picture(int fmt, int w, int h)
{
    const int n = depth_of(fmt), max = (1 << n) - 1;
    AVFrame *f = cspfix_alloc_frame(fmt, w, h, AVCOL_PRI_BT709, AVCOL_TRC_BT709,
                                    AVCOL_SPC_RGB, AVCOL_RANGE_JPEG);
    for (int y = 0; f && y < h; y++)
        for (int x = 0; x < w; x++) {
            cspfix_set_sample(f, 2, x, y, n > 8, x * max / (w - 1));
            cspfix_set_sample(f, 0, x, y, n > 8, y * max / (h - 1));
            cspfix_set_sample(f, 1, x, y, n > 8, ((x + y) * 7 + (x * y) % 31) % (max + 1));
        }
    return f;
}

/* rgb coded as csp in ycc_fmt by this file's forward() */
static AVFrame *coded(const AVFrame *rgb, int csp, int ycc_fmt, int range)
{
    const int n = depth_of(rgb->format), off = 1 << (depth_of(ycc_fmt) - 1);
    AVFrame *f = cspfix_alloc_frame(ycc_fmt, rgb->width, rgb->height, rgb->color_primaries,
                                    rgb->color_trc, csp, range);
    for (int y = 0; f && y < rgb->height; y++)
        for (int x = 0; x < rgb->width; x++) {
            int v[3];
            forward(cspfix_sample(rgb, 2, x, y, n > 8), cspfix_sample(rgb, 0, x, y, n > 8),
                    cspfix_sample(rgb, 1, x, y, n > 8), off, &v[0], &v[1], &v[2]);
            for (int p = 0; p < 3; p++)
                cspfix_set_sample(f, p, x, y, 1, v[p]);
        }
    return f;
}

static int count_samples(const AVFrame *f)
{
    const AVPixFmtDescriptor *d = av_pix_fmt_desc_get(f->format);
    return f->width * f->height * (1 + 2 / (1 << (d->log2_chroma_w + d->log2_chroma_h)));
}

/* A YCgCo-R frame converted as its RGB would be, to Y'CbCr 4:2:0 and to RGB */
static void same_as_rgb(int rgb_fmt, int csp, int ycc_fmt, const char *filters, int range)
{
    AVFrame *rgb = rgb_picture(rgb_fmt, 96, 64), *ycc = coded(rgb, csp, ycc_fmt, range);
    AVFrame *a = NULL, *b = NULL;
    int ra, rb;

    cspfix_log_reset();
    ra = cspfix_run1(ycc, filters, 2, &a);
    rb = cspfix_run1(rgb, filters, 2, &b);
    CHECK(ra >= 0 && rb >= 0 && cspfix_frames_equal(a, b) && a->colorspace == b->colorspace &&
          a->color_range == b->color_range, "%s %s (range %s) with %s: not the output of its "
          "RGB [%s]", av_color_space_name(csp), av_get_pix_fmt_name(ycc_fmt),
          av_color_range_name(range), filters, cspfix_log_text);
    if (ra >= 0 && a)
        samples += count_samples(a);
    av_frame_free(&rgb);
    av_frame_free(&ycc);
    av_frame_free(&a);
    av_frame_free(&b);
}

/* The output: what the engine makes for the RGB format, lifted */
static void output_lifted(int csp, int ycc_fmt, int rgb_fmt)
{
    AVFrame *in = cspfix_alloc_frame(AV_PIX_FMT_YUV420P10, 96, 64, AVCOL_PRI_BT709,
                                     AVCOL_TRC_BT709, AVCOL_SPC_BT709, AVCOL_RANGE_MPEG);
    AVFrame *rgb = NULL, *ycc = NULL, *want = NULL;
    char filters[160];
    int ret;

    for (int p = 0; p < 3; p++)
        for (int y = 0; y < (p ? 32 : 64); y++)
            for (int x = 0; x < (p ? 48 : 96); x++)
                cspfix_set_sample(in, p, x, y, 1, p ? 64 + (x * 13 + y * 29) % 897 : 64 + (x * 9 + y * 5) % 877);
    snprintf(filters, sizeof(filters), "cspfix=format=%s:trc=iec61966-2-1", av_get_pix_fmt_name(rgb_fmt));
    ret = cspfix_run1(in, filters, 1, &rgb);
    snprintf(filters, sizeof(filters), "cspfix=space=%s:format=%s:trc=iec61966-2-1",
             av_color_space_name(csp), av_get_pix_fmt_name(ycc_fmt));
    cspfix_log_reset();
    if (ret >= 0)
        ret = cspfix_run1(in, filters, 2, &ycc);
    if (ret >= 0)
        want = coded(rgb, csp, ycc_fmt, AVCOL_RANGE_JPEG);
    CHECK(ret >= 0 && want && cspfix_frames_equal(ycc, want) && ycc->colorspace == csp &&
          ycc->color_range == AVCOL_RANGE_JPEG, "yuv420p10 bt709 with %s: not the lifted %s "
          "output [%s]", filters, av_get_pix_fmt_name(rgb_fmt), cspfix_log_text);
    if (want)
        samples += count_samples(want);
    av_frame_free(&in);
    av_frame_free(&rgb);
    av_frame_free(&ycc);
    av_frame_free(&want);
}

/* Widths that are not a multiple of 8 (the SIMD kernels take the whole vectors of 8,
 * the C kernel the rest): an RGB picture lifted in (YCgCo-R in, RGB out) and out (RGB in,
 * YCgCo-R out), each exact */
static void odd_width(int rgb_fmt, int csp, int ycc_fmt, int w)
{
    AVFrame *rgb = rgb_picture(rgb_fmt, w, 5), *ycc = coded(rgb, csp, ycc_fmt, AVCOL_RANGE_JPEG);
    AVFrame *a = NULL, *b = NULL;
    char filters[160];
    int ra, rb;

    snprintf(filters, sizeof(filters), "cspfix=format=%s:trc=bt709", av_get_pix_fmt_name(rgb_fmt));
    ra = cspfix_run1(ycc, filters, 2, &a);
    snprintf(filters, sizeof(filters), "cspfix=space=%s:range=pc:format=%s:trc=bt709",
             av_color_space_name(csp), av_get_pix_fmt_name(ycc_fmt));
    rb = cspfix_run1(rgb, filters, 2, &b);
    CHECK(ra >= 0 && rb >= 0 && cspfix_frames_equal(a, rgb) && cspfix_frames_equal(b, ycc),
          "%s %s, width %d: lifting in %s, out %s [%s]", av_color_space_name(csp),
          av_get_pix_fmt_name(ycc_fmt), w, ra >= 0 && cspfix_frames_equal(a, rgb) ? "exact" : "wrong",
          rb >= 0 && cspfix_frames_equal(b, ycc) ? "exact" : "wrong", cspfix_log_text);
    if (ra >= 0 && rb >= 0)
        samples += count_samples(a) + count_samples(b);
    av_frame_free(&rgb);
    av_frame_free(&ycc);
    av_frame_free(&a);
    av_frame_free(&b);
}

/* Errors: a return code and the message, no output and no crash */
static void error_case(int fmt, int csp, int range, const char *filters, const char *msg)
{
    AVFrame *in = cspfix_alloc_frame(fmt, 32, 16, AVCOL_PRI_BT709, AVCOL_TRC_BT709, csp, range);
    AVFrame *out = NULL;
    int ret;

    cspfix_log_reset();
    ret = cspfix_run1(in, filters, 2, &out);
    CHECK(ret < 0 && !out && strstr(cspfix_log_text, msg), "%s %s with %s: %s, log [%s] without '%s'",
          av_get_pix_fmt_name(fmt), av_color_space_name(csp), filters,
          ret < 0 ? "an error" : "no error", cspfix_log_text, msg);
    av_frame_free(&in);
    av_frame_free(&out);
}

int main(void)
{
    const int re = AVCOL_SPC_YCGCO_RE, ro = AVCOL_SPC_YCGCO_RO;

    cspfix_log_capture();
    /* (a) exact lifting and round trips: every 8-bit triple; grids at 9 and 10 bits */
    round_trip(AV_PIX_FMT_GBRP,   re, AV_PIX_FMT_YUV444P10, 2);
    round_trip(AV_PIX_FMT_GBRP,   ro, AV_PIX_FMT_YUV444P9,  1);
    round_trip(AV_PIX_FMT_GBRP10, re, AV_PIX_FMT_YUV444P12, 2);
    round_trip(AV_PIX_FMT_GBRP9,  ro, AV_PIX_FMT_YUV444P10, 2);
    round_trip(AV_PIX_FMT_GBRP12, re, AV_PIX_FMT_YUV444P14, 2);
    round_trip(AV_PIX_FMT_GBRP14, re, AV_PIX_FMT_YUV444P16, 2);
    /* big-endian coded samples */
    round_trip(AV_PIX_FMT_GBRP,   re, AV_PIX_FMT_YUV444P10BE, 2);

    /* widths with a tail after the vectors of 8 */
    for (int w = 1; w <= 19; w += 6) {
        odd_width(AV_PIX_FMT_GBRP,   re, AV_PIX_FMT_YUV444P10, w + 40);
        odd_width(AV_PIX_FMT_GBRP,   ro, AV_PIX_FMT_YUV444P9,  w + 40);
        odd_width(AV_PIX_FMT_GBRP10, re, AV_PIX_FMT_YUV444P12, w + 16);
        odd_width(AV_PIX_FMT_GBRP14, re, AV_PIX_FMT_YUV444P16, w + 8);
    }

    /* (b) a YCgCo-R frame converts as its RGB does */
    same_as_rgb(AV_PIX_FMT_GBRP, re, AV_PIX_FMT_YUV444P10, "cspfix=space=bt709:range=tv:format=yuv420p", AVCOL_RANGE_JPEG);
    same_as_rgb(AV_PIX_FMT_GBRP, re, AV_PIX_FMT_YUV444P10, "cspfix=space=bt709:range=tv:format=yuv420p", AVCOL_RANGE_UNSPECIFIED);
    same_as_rgb(AV_PIX_FMT_GBRP, ro, AV_PIX_FMT_YUV444P9, "cspfix=space=bt709:range=tv:format=yuv420p", AVCOL_RANGE_JPEG);
    same_as_rgb(AV_PIX_FMT_GBRP10, re, AV_PIX_FMT_YUV444P12, "cspfix=all=bt2020:range=tv:format=yuv420p10", AVCOL_RANGE_JPEG);
    same_as_rgb(AV_PIX_FMT_GBRP, re, AV_PIX_FMT_YUV444P10, "cspfix=format=gbrp16:trc=iec61966-2-1", AVCOL_RANGE_JPEG);
    /* ispace= says what untagged frames are */
    {
        AVFrame *rgb = rgb_picture(AV_PIX_FMT_GBRP, 96, 64);
        AVFrame *ycc = coded(rgb, AVCOL_SPC_UNSPECIFIED, AV_PIX_FMT_YUV444P10, AVCOL_RANGE_JPEG);
        AVFrame *a = NULL;
        int ret = cspfix_run1(ycc, "cspfix=ispace=ycgco-re:format=gbrp", 1, &a);
        CHECK(ret >= 0 && a && cspfix_frames_equal(a, rgb), "ispace=ycgco-re: not the RGB");
        av_frame_free(&rgb);
        av_frame_free(&ycc);
        av_frame_free(&a);
    }
    /* the output: the engine's RGB, lifted; from YCgCo-R to YCgCo-R of the other kind */
    output_lifted(re, AV_PIX_FMT_YUV444P10, AV_PIX_FMT_GBRP);
    output_lifted(ro, AV_PIX_FMT_YUV444P9, AV_PIX_FMT_GBRP);
    output_lifted(re, AV_PIX_FMT_YUV444P12, AV_PIX_FMT_GBRP10);
    output_lifted(ro, AV_PIX_FMT_YUV444P10, AV_PIX_FMT_GBRP9);
    {
        AVFrame *rgb = rgb_picture(AV_PIX_FMT_GBRP, 96, 64);
        AVFrame *ycc = coded(rgb, re, AV_PIX_FMT_YUV444P10, AVCOL_RANGE_JPEG);
        AVFrame *want = coded(rgb, ro, AV_PIX_FMT_YUV444P9, AVCOL_RANGE_JPEG), *a = NULL, *b = NULL;
        int ret = cspfix_run1(ycc, "cspfix=space=ycgco-ro:format=yuv444p9", 2, &a);
        CHECK(ret >= 0 && a && cspfix_frames_equal(a, want), "ycgco-re 10 -> ycgco-ro 9: not exact");
        /* negotiation picks a 4:4:4 format of a YCgCo-R depth when format= is unset */
        ret = cspfix_run1(rgb, "cspfix=space=ycgco-re", 1, &b);
        CHECK(ret >= 0 && b && b->format == AV_PIX_FMT_YUV444P10 && b->colorspace == re &&
              b->color_range == AVCOL_RANGE_JPEG, "gbrp with space=ycgco-re (format unset): %s %s",
              b ? av_get_pix_fmt_name(b->format) : "none", av_err2str(ret));
        av_frame_free(&rgb);
        av_frame_free(&ycc);
        av_frame_free(&want);
        av_frame_free(&a);
        av_frame_free(&b);
    }

    /* peak=auto on PQ YCgCo-R: not measured (its Y is not R'G'B' at the coded depth), said once */
    {
        AVFrame *rgb = rgb_picture(AV_PIX_FMT_GBRP10, 96, 64), *ycc, *a = NULL;
        int ret;
        rgb->color_primaries = AVCOL_PRI_BT2020;
        rgb->color_trc = AVCOL_TRC_SMPTE2084;
        ycc = coded(rgb, re, AV_PIX_FMT_YUV444P12, AVCOL_RANGE_JPEG);
        cspfix_log_reset();
        ret = cspfix_run1(ycc, "cspfix=all=bt709:range=tv:format=yuv420p:peak=auto", 1, &a);
        CHECK(ret >= 0 && a && strstr(cspfix_log_text, "does not measure"), "peak=auto on PQ ycgco-re: %s [%s]",
              av_err2str(ret), cspfix_log_text);
        av_frame_free(&rgb);
        av_frame_free(&ycc);
        av_frame_free(&a);
    }

    /* (c) errors */
    error_case(AV_PIX_FMT_YUV420P10, re, AVCOL_RANGE_JPEG, "cspfix=space=bt709", "needs 4:4:4");
    error_case(AV_PIX_FMT_YUV422P10, ro, AVCOL_RANGE_JPEG, "cspfix=space=bt709", "needs 4:4:4");
    error_case(AV_PIX_FMT_YUV444P10, re, AVCOL_RANGE_MPEG, "cspfix=space=bt709", "full range only");
    error_case(AV_PIX_FMT_YUV444P10, AVCOL_SPC_BT709, AVCOL_RANGE_MPEG, "cspfix=ispace=ycgco-re", "full range only");
    error_case(AV_PIX_FMT_YUV444P12, ro, AVCOL_RANGE_JPEG, "cspfix=space=bt709", "ycgco-ro in yuv444p12");
    error_case(AV_PIX_FMT_YUV444P9, re, AVCOL_RANGE_JPEG, "cspfix=space=bt709", "ycgco-re in yuv444p9");
    error_case(AV_PIX_FMT_YUV444P, re, AVCOL_RANGE_JPEG, "cspfix=space=bt709", "ycgco-re in yuv444p");
    error_case(AV_PIX_FMT_YUVA444P10, re, AVCOL_RANGE_JPEG, "cspfix=space=bt709", "alpha");
    error_case(AV_PIX_FMT_NV24, re, AVCOL_RANGE_JPEG, "cspfix=space=bt709", "Unsupported input YCgCo-R");
    error_case(AV_PIX_FMT_GBRP, AVCOL_SPC_RGB, AVCOL_RANGE_JPEG, "cspfix=space=ycgco-re:format=yuv420p10", "needs 4:4:4");
    error_case(AV_PIX_FMT_GBRP, AVCOL_SPC_RGB, AVCOL_RANGE_JPEG, "cspfix=space=ycgco-re:format=yuv444p", "ycgco-re in yuv444p");
    error_case(AV_PIX_FMT_GBRP, AVCOL_SPC_RGB, AVCOL_RANGE_JPEG, "cspfix=space=ycgco-ro:format=yuv444p12", "ycgco-ro in yuv444p12");
    error_case(AV_PIX_FMT_GBRP, AVCOL_SPC_RGB, AVCOL_RANGE_JPEG, "cspfix=space=ycgco-re:format=yuv444p10:range=tv", "full range only");
    error_case(AV_PIX_FMT_GBRP, AVCOL_SPC_RGB, AVCOL_RANGE_JPEG, "cspfix=space=ycgco-re:format=yuva444p10", "alpha");

    printf("ycgcor_test: %d passed, %d failed; %lld samples compared, max difference %d\n",
           passed, failed, samples, maxdiff);
    return failed != 0;
}
