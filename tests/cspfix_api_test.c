/*
 * cspfix API tests: tags, threads, mid-stream changes, bad input, pass-through
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

#include <stdarg.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libavutil/ambient_viewing_environment.h>
#include <libavutil/bprint.h>
#include <libavutil/hdr_dynamic_metadata.h>
#include <libavutil/intreadwrite.h>
#include <libavutil/log.h>
#include <libavutil/macros.h>
#include <libavutil/dovi_meta.h>
#include <libavutil/mastering_display_metadata.h>
#include <libavutil/pixdesc.h>

#include <libavfilter/avfilter.h>
#include <libavfilter/buffersink.h>
#include <libavfilter/buffersrc.h>

#include "cspfix_testutil.h"

#include "cspfix_check.h"

/* ---- log capture ---- */
static AVBPrint logbuf;

static void log_cb(void *avcl, int level, const char *fmt, va_list vl)
{
    if (level > AV_LOG_VERBOSE)
        return;
    av_vbprintf(&logbuf, fmt, vl);
}

static void log_reset(void)
{
    av_bprint_clear(&logbuf);
}

static int log_has(const char *s)
{
    return logbuf.str && strstr(logbuf.str, s) != NULL;
}

/* a frame with every sample different: a deterministic pseudo-random pattern */
static AVFrame *pattern(int fmt, int w, int h, int prim, int trc, int csp, int range,
                        unsigned seed)
{
    AVFrame *f = cspfix_alloc_frame(fmt, w, h, prim, trc, csp, range);
    const AVPixFmtDescriptor *d = av_pix_fmt_desc_get(fmt);
    const int big = d->comp[0].depth > 8, max = (1 << d->comp[0].depth) - 1;

    for (int p = 0; p < av_pix_fmt_count_planes(fmt); p++) {
        int pw = (p == 1 || p == 2) ? AV_CEIL_RSHIFT(w, d->log2_chroma_w) : w;
        int ph = (p == 1 || p == 2) ? AV_CEIL_RSHIFT(h, d->log2_chroma_h) : h;
        for (int y = 0; y < ph; y++)
            for (int x = 0; x < pw; x++) {
                seed = seed * 1103515245u + 12345u;
                cspfix_set_sample(f, p, x, y, big, (seed >> 12) & max);
            }
    }
    return f;
}

static void test_tags(void)
{
    AVFrame *in = pattern(AV_PIX_FMT_YUV420P, 64, 48, AVCOL_PRI_SMPTE170M, AVCOL_TRC_SMPTE170M,
                          AVCOL_SPC_SMPTE170M, AVCOL_RANGE_MPEG, 1), *out;
    int ret;

    ret = cspfix_run1(in, "cspfix=all=bt709", 1, &out);
    CHECK(ret == 0 && out->color_primaries == AVCOL_PRI_BT709 && out->color_trc == AVCOL_TRC_BT709 &&
          out->colorspace == AVCOL_SPC_BT709 && out->color_range == AVCOL_RANGE_MPEG,
          "all=bt709 tags the output bt709/tv");
    av_frame_free(&out);

    ret = cspfix_run1(in, "cspfix=range=pc", 1, &out);
    CHECK(ret == 0 && out->color_primaries == AVCOL_PRI_SMPTE170M &&
          out->color_trc == AVCOL_TRC_SMPTE170M && out->colorspace == AVCOL_SPC_SMPTE170M &&
          out->color_range == AVCOL_RANGE_JPEG, "range=pc changes only the range");
    av_frame_free(&out);

    ret = cspfix_run1(in, "cspfix=format=gbrp", 1, &out);
    CHECK(ret == 0 && out->format == AV_PIX_FMT_GBRP && out->colorspace == AVCOL_SPC_RGB &&
          out->color_range == AVCOL_RANGE_JPEG, "RGB output: matrix rgb, full range");
    av_frame_free(&out);

    ret = cspfix_run1(in, "cspfix=matrix=bt709:transfer=bt709", 1, &out);
    CHECK(ret == 0 && out->colorspace == AVCOL_SPC_BT709 && out->color_trc == AVCOL_TRC_BT709 &&
          out->color_primaries == AVCOL_PRI_SMPTE170M, "aliases matrix/transfer");
    av_frame_free(&out);
    av_frame_free(&in);

    in = pattern(AV_PIX_FMT_GBRP, 64, 48, AVCOL_PRI_BT709, AVCOL_TRC_IEC61966_2_1,
                 AVCOL_SPC_RGB, AVCOL_RANGE_JPEG, 2);
    ret = cspfix_run1(in, "cspfix=format=yuv420p", 1, &out);
    CHECK(ret == 0 && out->colorspace == AVCOL_SPC_SMPTE170M && out->color_range == AVCOL_RANGE_MPEG,
          "YUV from RGB at 48 lines: matrix guessed smpte170m, limited range (got %s/%s)",
          av_color_space_name(out ? out->colorspace : 0), av_color_range_name(out ? out->color_range : 0));
    av_frame_free(&out);
    av_frame_free(&in);
}

static void test_threads(void)
{
    static const char *const filters[] = {
        "cspfix=all=bt709:dither=none",
        "cspfix=all=bt709:format=yuv420p:dither=ordered",
        "cspfix=all=bt709:format=nv12:dither=ed",
        "cspfix=range=pc:format=yuv420p:dither=ed",
        "cspfix=space=bt709",
        "cspfix=range=pc",
        "cspfix=primaries=bt2020:trc=bt2020-10:space=bt2020nc:format=yuv444p10",
    };
    for (int i = 0; i < FF_ARRAY_ELEMS(filters); i++) {
        AVFrame *in = pattern(i == 1 || i == 2 || i == 3 ? AV_PIX_FMT_YUV420P10 : AV_PIX_FMT_YUV420P, 98, 70,
                              AVCOL_PRI_SMPTE170M, AVCOL_TRC_SMPTE170M, AVCOL_SPC_SMPTE170M,
                              AVCOL_RANGE_MPEG, 3 + i);
        AVFrame *o1, *o2, *o7;
        int r1 = cspfix_run1(in, filters[i], 1, &o1);
        int r2 = cspfix_run1(in, filters[i], 2, &o2);
        int r7 = cspfix_run1(in, filters[i], 7, &o7);
        CHECK(!r1 && !r2 && !r7 && cspfix_frames_equal(o1, o2) && cspfix_frames_equal(o1, o7),
              "threads 1/2/7 identical for %s", filters[i]);
        av_frame_free(&o1);
        av_frame_free(&o2);
        av_frame_free(&o7);
        av_frame_free(&in);
    }
}

static void test_midstream(void)
{
    AVFrame *in[3], *out[4], *single;
    int n, ret, same = 1;

    in[0] = pattern(AV_PIX_FMT_YUV420P, 64, 48, AVCOL_PRI_SMPTE170M, AVCOL_TRC_SMPTE170M,
                    AVCOL_SPC_SMPTE170M, AVCOL_RANGE_MPEG, 7);
    in[1] = av_frame_clone(in[0]);
    in[2] = av_frame_clone(in[0]);
    in[1]->color_primaries = AVCOL_PRI_BT470BG;
    in[1]->colorspace      = AVCOL_SPC_BT470BG;
    in[2]->color_trc       = AVCOL_TRC_IEC61966_2_1;

    log_reset();
    ret = cspfix_run_graph(in, 3, "cspfix=all=bt709:dither=none", 1, out, 4, &n);
    CHECK(ret == 0 && n == 3, "three frames in, three out (%d, %d)", ret, n);
    for (int i = 0; i < n && !ret; i++) {
        cspfix_run1(in[i], "cspfix=all=bt709:dither=none", 1, &single);
        same &= cspfix_frames_equal(single, out[i]) && out[i]->pts == i;
        av_frame_free(&single);
    }
    CHECK(!ret && same, "each frame converted as its own description says");
    CHECK(!ret && !cspfix_frames_equal(out[0], out[1]) && !cspfix_frames_equal(out[0], out[2]),
          "a changed description changes the output");
    for (int i = 0; i < n; i++)
        av_frame_free(&out[i]);
    for (int i = 0; i < 3; i++)
        av_frame_free(&in[i]);
}

static void test_errors(void)
{
    AVFrame *in = pattern(AV_PIX_FMT_YUV420P, 64, 48, AVCOL_PRI_BT709, AVCOL_TRC_BT709,
                          AVCOL_SPC_BT709, AVCOL_RANGE_MPEG, 9), *out = NULL;
    int ret;

    in->color_primaries = AVCOL_PRI_RESERVED;
    log_reset();
    ret = cspfix_run1(in, "cspfix=all=bt709", 1, &out);
    CHECK(ret < 0 && log_has("Unsupported input primaries: reserved") && log_has("Supported: bt709"),
          "reserved primaries: clear error (%d) [%s]", ret, logbuf.str);
    av_frame_free(&out);

    in->color_primaries = AVCOL_PRI_UNSPECIFIED;
    log_reset();
    ret = cspfix_run1(in, "cspfix=all=bt709:guess=0", 1, &out);
    CHECK(ret < 0 && log_has("Input colour primaries is unspecified"),
          "guess=0 names the unspecified field [%s]", logbuf.str);
    av_frame_free(&out);

    log_reset();
    ret = cspfix_run1(in, "cspfix=all=bt709", 1, &out);
    CHECK(ret == 0 && log_has("guessing smpte170m"), "guess logged [%s]", logbuf.str);
    av_frame_free(&out);
    in->color_primaries = AVCOL_PRI_BT709;

    log_reset();
    ret = cspfix_run1(in, "cspfix=space=bt709:format=gbrp", 1, &out);
    CHECK(ret < 0 && log_has("cannot be used with the RGB output format"),
          "YUV matrix with RGB output rejected [%s]", logbuf.str);
    av_frame_free(&out);

    log_reset();
    ret = cspfix_run1(in, "cspfix=space=ictcp", 1, &out);
    CHECK(ret < 0 && log_has("ictcp needs primaries bt2020"), "ictcp with bt709 rejected [%s]",
          logbuf.str);
    av_frame_free(&out);

    log_reset();
    ret = cspfix_run1(in, "cspfix=space=ipt-c2", 1, &out);
    CHECK(ret < 0 && log_has("ipt-c2 needs primaries bt2020 and transfer smpte2084"),
          "ipt-c2 with bt709 rejected [%s]", logbuf.str);
    av_frame_free(&out);

    /* a frame tagged with a value the filter cannot convert: the error names the input
     * override that fixes it (every matrix tag buffersrc passes converts) */
    log_reset();
    in->color_primaries = AVCOL_PRI_RESERVED;
    ret = cspfix_run1(in, "cspfix=all=bt709", 1, &out);
    CHECK(ret < 0 && log_has("set its real value with iprimaries="),
          "reserved input primaries: error names iprimaries [%s]", logbuf.str);
    av_frame_free(&out);
    in->color_primaries = AVCOL_PRI_BT709;

    log_reset();
    ret = cspfix_run1(in, "cspfix=primaries=nonsense", 1, &out);
    CHECK(ret < 0, "unknown option value rejected");
    av_frame_free(&out);
    av_frame_free(&in);
}

static void test_names(void)
{
    /* every name libavutil prints for a supported value is accepted as an option value */
    AVFrame *in = pattern(AV_PIX_FMT_YUV444P10, 16, 16, AVCOL_PRI_BT2020, AVCOL_TRC_BT2020_10,
                          AVCOL_SPC_BT2020_NCL, AVCOL_RANGE_MPEG, 11), *out;
    char f[256];
    int bad = 0;

    for (int i = 1; i < AVCOL_PRI_NB; i++) {
        const char *n = av_color_primaries_name(i);
        if (!n || i == AVCOL_PRI_UNSPECIFIED || i == AVCOL_PRI_RESERVED || (i > 12 && i < 22))
            continue;
        snprintf(f, sizeof(f), "cspfix=primaries=%s", n);
        if (cspfix_run1(in, f, 1, &out) < 0 || out->color_primaries != i)
            bad++, printf("  primaries %s not accepted\n", n);
        av_frame_free(&out);
    }
    for (int i = 1; i < AVCOL_TRC_NB; i++) {
        const char *n = av_color_transfer_name(i);
        if (!n || i == AVCOL_TRC_UNSPECIFIED || i == AVCOL_TRC_RESERVED)
            continue;
        snprintf(f, sizeof(f), "cspfix=trc=%s", n);
        if (cspfix_run1(in, f, 1, &out) < 0 || out->color_trc != i)
            bad++, printf("  transfer %s not accepted\n", n);
        av_frame_free(&out);
    }
    for (int i = 1; i < AVCOL_SPC_NB; i++) {
        const char *n = av_color_space_name(i);
        /* ictcp and ipt-c2 need bt2020 and PQ (tested above) */
        if (!n || i == AVCOL_SPC_UNSPECIFIED || i == AVCOL_SPC_RESERVED || i == AVCOL_SPC_ICTCP ||
            i == AVCOL_SPC_IPT_C2 || i >= AVCOL_SPC_YCGCO_RE)
            continue;
        snprintf(f, sizeof(f), "cspfix=space=%s", n);
        if (cspfix_run1(in, f, 1, &out) < 0 || out->colorspace != i)
            bad++, printf("  matrix %s not accepted\n", n);
        av_frame_free(&out);
    }
    CHECK(!bad, "every libavutil name of a supported value accepted (%d bad)", bad);
    av_frame_free(&in);
}

static void test_passthrough(void)
{
    AVFrame *in = pattern(AV_PIX_FMT_YUV420P, 64, 48, AVCOL_PRI_BT709, AVCOL_TRC_BT709,
                          AVCOL_SPC_BT709, AVCOL_RANGE_MPEG, 13), *out;
    AVFrameSideData *sd;
    int ret;

    in->sample_aspect_ratio = (AVRational){ 4, 3 };
    in->duration = 1;
    av_mastering_display_metadata_create_side_data(in);
    sd = av_frame_new_side_data(in, AV_FRAME_DATA_SEI_UNREGISTERED, 20);
    memset(sd->data, 0x42, 20);
    ret = cspfix_run1(in, "cspfix=all=bt709", 1, &out);
    CHECK(ret == 0 && out->data[0] == in->data[0], "identical description: no copy");
    av_frame_free(&out);

    ret = cspfix_run1(in, "cspfix=all=bt709:clip=1", 1, &out);
    CHECK(ret == 0 && out->data[0] != in->data[0], "clip=1 on an identical description still clips");
    av_frame_free(&out);

    in->chroma_location = AVCHROMA_LOC_LEFT;
    ret = cspfix_run1(in, "cspfix=chroma_loc=center", 1, &out);
    CHECK(ret == 0 && out->data[0] != in->data[0] && out->chroma_location == AVCHROMA_LOC_CENTER &&
          !cspfix_frames_equal(in, out), "a siting change resamples chroma");
    av_frame_free(&out);

    ret = cspfix_run1(in, "cspfix=range=pc", 1, &out);
    CHECK(ret == 0 && out->data[0] != in->data[0] && out->duration == 1 &&
          av_frame_get_side_data(out, AV_FRAME_DATA_SEI_UNREGISTERED) &&
          !av_frame_get_side_data(out, AV_FRAME_DATA_MASTERING_DISPLAY_METADATA),
          "converted frame keeps duration and side data, drops HDR metadata for SDR");
    av_frame_free(&out);
    av_frame_free(&in);
}

static void test_plan_log(void)
{
    AVFrame *in = pattern(AV_PIX_FMT_YUV420P, 64, 48, AVCOL_PRI_BT709, AVCOL_TRC_BT709,
                          AVCOL_SPC_BT709, AVCOL_RANGE_JPEG, 17), *out;
    av_log_set_level(AV_LOG_VERBOSE);
    log_reset();
    cspfix_run1(in, "cspfix=range=tv", 1, &out);
    CHECK(log_has("(per-plane, integer)") && log_has("0: matrix"),
          "8-bit range-only plan printed as per-plane, integer");
    av_frame_free(&out);
    log_reset();
    in->color_range = AVCOL_RANGE_MPEG;
    in->colorspace  = AVCOL_SPC_BT470BG;
    cspfix_run1(in, "cspfix=space=bt709", 1, &out);
    CHECK(log_has("0: matrix") && !log_has("1: ") &&
          log_has("(chroma at its own resolution, integer)"),
          "8-bit 4:2:0 matrix-only plan is one stage, chroma at its own resolution, integer");
    av_frame_free(&out);
    av_log_set_level(AV_LOG_INFO);
    av_frame_free(&in);
}

static void test_odd_sizes(void)
{
    static const int sizes[][2] = { { 33, 17 }, { 1, 1 }, { 2, 1 }, { 3, 3 } };
    for (int i = 0; i < 4; i++) {
        AVFrame *in = pattern(AV_PIX_FMT_YUV420P, sizes[i][0], sizes[i][1], AVCOL_PRI_SMPTE170M,
                              AVCOL_TRC_SMPTE170M, AVCOL_SPC_SMPTE170M, AVCOL_RANGE_MPEG, 19), *out;
        int ret = cspfix_run1(in, "cspfix=all=bt709", 1, &out);
        CHECK(ret == 0 && out->width == sizes[i][0] && out->height == sizes[i][1],
              "odd size %dx%d converts", sizes[i][0], sizes[i][1]);
        av_frame_free(&out);
        av_frame_free(&in);
    }
}

static void test_foreign_descriptions(void)
{
    AVFrame *in = pattern(AV_PIX_FMT_YUV420P, 64, 48, AVCOL_PRI_UNSPECIFIED, AVCOL_TRC_UNSPECIFIED,
                          AVCOL_SPC_UNSPECIFIED, AVCOL_RANGE_UNSPECIFIED, 23), *out, *ref;
    int ret;

    ret = cspfix_run1(in, "cspfix=icolorimetry=bt601:colorimetry=bt709", 1, &out);
    cspfix_run1(in, "cspfix=iprimaries=smpte170m:itrc=smpte170m:ispace=smpte170m:irange=tv:all=bt709:range=tv", 1, &ref);
    CHECK(ret == 0 && out->colorspace == AVCOL_SPC_BT709 && out->color_primaries == AVCOL_PRI_BT709 &&
          out->color_range == AVCOL_RANGE_MPEG && cspfix_frames_equal(out, ref),
          "GStreamer colorimetry bt601 -> bt709 equals the same conversion by AVCOL names");
    av_frame_free(&out);
    av_frame_free(&ref);

    ret = cspfix_run1(in, "cspfix=colorimetry=2\\\\\\:6\\\\\\:14\\\\\\:7", 1, &out); /* escaped for graph and option parsing */
    CHECK(ret == 0 && out->colorspace == AVCOL_SPC_BT2020_NCL && out->color_trc == AVCOL_TRC_SMPTE2084 &&
          out->color_primaries == AVCOL_PRI_BT2020, "numeric GStreamer colorimetry 2:6:14:7 (got %d)", ret);
    av_frame_free(&out);

    log_reset();
    ret = cspfix_run1(in, "cspfix=colorimetry=bt709x", 1, &out);
    CHECK(ret < 0 && log_has("colorimetry=bt709x"), "bad colorimetry named in the error [%s]", logbuf.str);
    av_frame_free(&out);

    ret = cspfix_run1(in, "cspfix=v4l2_colorspace=rec709:all=bt709", 1, &out);
    cspfix_run1(in, "cspfix=iall=bt709:irange=tv:all=bt709", 1, &ref);
    CHECK(ret == 0 && cspfix_frames_equal(out, ref), "v4l2_colorspace=rec709 describes BT.709 limited");
    av_frame_free(&out);
    av_frame_free(&ref);

    /* opRGB and the DCI-P3 projector's 2.6 power: cspfix's own values (the V4L2 defaults:
     * oprgb's 601 encoding, dci_p3's 709; limited range) */
    ret = cspfix_run1(in, "cspfix=v4l2_colorspace=oprgb:all=bt709", 1, &out);
    cspfix_run1(in, "cspfix=iprimaries=oprgb:itrc=oprgb:ispace=smpte170m:irange=tv:all=bt709", 1, &ref);
    CHECK(ret == 0 && cspfix_frames_equal(out, ref), "v4l2_colorspace=oprgb describes opRGB");
    av_frame_free(&out);
    av_frame_free(&ref);
    ret = cspfix_run1(in, "cspfix=v4l2_colorspace=dci_p3:all=bt709", 1, &out);
    cspfix_run1(in, "cspfix=iprimaries=smpte431:itrc=dci-p3:ispace=bt709:irange=tv:all=bt709", 1, &ref);
    CHECK(ret == 0 && cspfix_frames_equal(out, ref), "v4l2_colorspace=dci_p3 describes DCI-P3, 2.6");
    av_frame_free(&out);
    av_frame_free(&ref);

    log_reset();
    ret = cspfix_run1(in, "cspfix=v4l2_colorspace=raw:all=bt709", 1, &out);
    CHECK(ret < 0 && log_has("raw"), "raw primaries get a clear message [%s]", logbuf.str);
    av_frame_free(&out);
    av_frame_free(&in);
}

/* The source peak comes from peak= (the user wins), then the frame (MaxCLL, then the
 * mastering display), then 1000; it is re-read per frame; HDR side data is rewritten or
 * removed. */
/* a Dolby Vision RPU (AVDOVIMetadata) on f: residual says the enhancement layer is used */
static int add_dovi(AVFrame *f, int residual)
{
    AVDOVIMetadata *md = cspfix_attach_dovi(f);

    if (!md)
        return AVERROR(ENOMEM);
    av_dovi_get_header(md)->disable_residual_flag = !residual;
    av_dovi_get_header(md)->rpu_type = 2;
    av_dovi_get_header(md)->bl_bit_depth = 10;
    return 0;
}

/* Dolby Vision is never silent: with dovi=ignore profile 5 (ipt-c2) is a clear error and
 * a base layer with an RPU is converted with a warning (once); an RPU that uses the
 * enhancement layer leaves the base layer, said; the RPU leaves the output when the
 * transfer changes; an RPU that is not valid (no pivots) is an error naming it. (The
 * reshaping itself: tests/cspfix_dovi_test.c.) */
static void test_dovi(void)
{
    AVFrame *in = pattern(AV_PIX_FMT_YUV420P10, 64, 48, AVCOL_PRI_BT2020, AVCOL_TRC_SMPTE2084,
                          AVCOL_SPC_BT2020_NCL, AVCOL_RANGE_MPEG, 7), *out = NULL;
    AVFrame *p5 = pattern(AV_PIX_FMT_YUV420P10, 64, 48, AVCOL_PRI_BT2020, AVCOL_TRC_SMPTE2084,
                          AVCOL_SPC_IPT_C2, AVCOL_RANGE_JPEG, 8);
    AVFrame *ins[2] = { in, in }, *outs[2] = { NULL };
    int ret, nb = 0;

    if (!in || !p5 || add_dovi(in, 0) < 0 || add_dovi(p5, 0) < 0) {
        CHECK(0, "dovi: out of memory");
        goto end;
    }
    log_reset();
    ret = cspfix_run1(p5, "cspfix=all=bt709:format=yuv420p:dovi=ignore", 1, &out);
    CHECK(ret < 0 && log_has("Dolby Vision profile 5") && log_has("dovi=ignore"),
          "DV profile 5, dovi=ignore: a clear error (%d) [%s]", ret, logbuf.str);
    av_frame_free(&out);
    log_reset();
    ret = cspfix_run1(p5, "cspfix=all=bt709:format=yuv420p", 1, &out);
    CHECK(ret < 0 && log_has("Dolby Vision RPU: component 0 has 0 pivots"),
          "DV RPU without pivots: an error naming it (%d) [%s]", ret, logbuf.str);
    av_frame_free(&out);
    log_reset();
    ret = cspfix_run_graph(ins, 2, "cspfix=all=bt709:format=yuv420p:dovi=ignore", 1, outs, 2, &nb);
    CHECK(ret >= 0 && nb == 2 && log_has("Dolby Vision RPU on the frames: the base layer "
                                         "(bt2020, smpte2084)") && !log_has("enhancement layer"),
          "DV 8.1, dovi=ignore: base layer converted, said (%d) [%s]", ret, logbuf.str);
    {
        const char *first = logbuf.str ? strstr(logbuf.str, "Dolby Vision RPU") : NULL;
        CHECK(first && !strstr(first + 1, "Dolby Vision RPU"), "DV 8.1: said once, not per frame");
    }
    CHECK(nb == 2 && !av_frame_get_side_data(outs[0], AV_FRAME_DATA_DOVI_METADATA),
          "DV 8.1 to SDR: the RPU is not in the output");
    for (int i = 0; i < 2; i++)
        av_frame_free(&outs[i]);
    av_frame_remove_side_data(in, AV_FRAME_DATA_DOVI_METADATA);
    log_reset();
    if (add_dovi(in, 1) >= 0)
        ret = cspfix_run1(in, "cspfix=all=bt709:format=yuv420p", 1, &out);
    CHECK(ret >= 0 && log_has("enhancement layer (profile 7)") && log_has("base layer only"),
          "DV with a residual: base layer only, said [%s]", logbuf.str);
end:
    av_frame_free(&out);
    av_frame_free(&in);
    av_frame_free(&p5);
}

static void test_hdr(void)
{
    AVFrame *in = pattern(AV_PIX_FMT_YUV420P10, 64, 48, AVCOL_PRI_BT2020, AVCOL_TRC_SMPTE2084,
                          AVCOL_SPC_BT2020_NCL, AVCOL_RANGE_MPEG, 31), *out = NULL, *ref = NULL;
    AVFrame *ins[3], *outs[3] = { NULL };
    const char *sdr = "cspfix=all=bt709:format=yuv420p:dither=none";
    const AVFrameSideData *sd;
    int ret, nb = 0;

    /* a bright pattern: every luma code in the upper half */
    for (int y = 0; y < 48; y++)
        for (int x = 0; x < 64; x++)
            cspfix_set_sample(in, 0, x, y, 1, 512 + ((x * 7 + y * 13) % 428));

    cspfix_set_hdr10(in, 4000, 1500);
    cspfix_run1(in, sdr, 1, &out);
    cspfix_set_hdr10(in, -1, -1);
    cspfix_run1(in, "cspfix=all=bt709:format=yuv420p:dither=none:peak=1500", 1, &ref);
    CHECK(out && ref && cspfix_frames_equal(out, ref),
          "MaxCLL 1500 is the source peak (before the mastering display's 4000)");
    CHECK(out && !av_frame_get_side_data(out, AV_FRAME_DATA_MASTERING_DISPLAY_METADATA) &&
          !av_frame_get_side_data(out, AV_FRAME_DATA_CONTENT_LIGHT_LEVEL),
          "SDR output: mastering display and content light level removed");
    av_frame_free(&out);
    av_frame_free(&ref);

    /* peak= wins over the frame's metadata, and the log says where the peak came from */
    cspfix_set_hdr10(in, 4000, 1500);
    log_reset();
    av_log_set_level(AV_LOG_VERBOSE);
    cspfix_run1(in, "cspfix=all=bt709:format=yuv420p:dither=none:peak=2500", 1, &out);
    av_log_set_level(AV_LOG_INFO);
    CHECK(log_has("Source peak 2500 cd/m2 (peak option)"), "the log names the peak option [%s]",
          logbuf.str);
    cspfix_set_hdr10(in, -1, -1);
    cspfix_run1(in, "cspfix=all=bt709:format=yuv420p:dither=none:peak=2500", 1, &ref);
    CHECK(out && ref && cspfix_frames_equal(out, ref),
          "peak=2500 wins over MaxCLL 1500 and the mastering display's 4000");
    av_frame_free(&out);
    av_frame_free(&ref);

    cspfix_set_hdr10(in, 4000, 0);
    cspfix_run1(in, sdr, 1, &out);
    cspfix_set_hdr10(in, -1, -1);
    cspfix_run1(in, "cspfix=all=bt709:format=yuv420p:dither=none:peak=4000", 1, &ref);
    CHECK(out && ref && cspfix_frames_equal(out, ref), "MaxCLL 0: the mastering display's 4000");
    av_frame_free(&out);
    av_frame_free(&ref);

    cspfix_run1(in, sdr, 1, &out);
    cspfix_run1(in, "cspfix=all=bt709:format=yuv420p:dither=none:peak=1000", 1, &ref);
    CHECK(out && ref && cspfix_frames_equal(out, ref), "no metadata, no peak=: 1000");
    av_frame_free(&ref);
    cspfix_run1(in, "cspfix=all=bt709:format=yuv420p:dither=none:peak=4000", 1, &ref);
    CHECK(out && ref && !cspfix_frames_equal(out, ref), "the peak changes the picture");
    av_frame_free(&out);
    av_frame_free(&ref);

    /* gamut=compress takes the mastering display's primaries (P3 here), other modes not */
    cspfix_set_hdr10(in, 1000, -1);
    cspfix_run1(in, "cspfix=all=bt709:format=yuv420p:dither=none:gamut=compress", 1, &out);
    cspfix_run1(in, "cspfix=all=bt709:format=yuv420p:dither=none:gamut=desaturate", 1, &ref);
    cspfix_set_hdr10(in, -1, -1);
    {
        AVFrame *out2 = NULL, *ref2 = NULL;
        cspfix_run1(in, "cspfix=all=bt709:format=yuv420p:dither=none:gamut=compress", 1, &out2);
        cspfix_run1(in, "cspfix=all=bt709:format=yuv420p:dither=none:gamut=desaturate", 1, &ref2);
        CHECK(out && out2 && !cspfix_frames_equal(out, out2),
              "gamut=compress follows the mastering display primaries");
        CHECK(ref && ref2 && cspfix_frames_equal(ref, ref2),
              "gamut=desaturate does not depend on them");
        av_frame_free(&out2);
        av_frame_free(&ref2);
    }
    av_frame_free(&out);
    av_frame_free(&ref);

    /* per frame: 1000, 4000, 1000 in one stream */
    for (int i = 0; i < 3; i++) {
        ins[i] = av_frame_clone(in);
        av_frame_make_writable(ins[i]);
        cspfix_set_hdr10(ins[i], i == 1 ? 4000 : 1000, -1);
        ins[i]->pts = i;
    }
    ret = cspfix_run_graph(ins, 3, sdr, 1, outs, 3, &nb);
    CHECK(ret == 0 && nb == 3 && cspfix_frames_equal(outs[0], outs[2]) &&
          !cspfix_frames_equal(outs[0], outs[1]), "the peak is re-read per frame (plan rebuilt)");
    for (int i = 0; i < 3; i++) {
        av_frame_free(&ins[i]);
        av_frame_free(&outs[i]);
    }

    /* HDR -> HDR tone mapped to 600: the peak and MaxCLL are rewritten; the mastering
     * display's primaries (P3) describe that display, not the container: kept */
    cspfix_set_hdr10(in, 4000, 3000);
    ret = cspfix_run1(in, "cspfix=primaries=bt709:tonemap=bt2390:target_peak=600", 1, &out);
    sd = out ? av_frame_get_side_data(out, AV_FRAME_DATA_MASTERING_DISPLAY_METADATA) : NULL;
    CHECK(ret == 0 && sd && av_q2d(((AVMasteringDisplayMetadata *)sd->data)->max_luminance) == 600 &&
          fabs(av_q2d(((AVMasteringDisplayMetadata *)sd->data)->display_primaries[0][0]) - 0.680) < 1e-6,
          "HDR output tone mapped: mastering peak 600, mastering primaries kept");
    sd = out ? av_frame_get_side_data(out, AV_FRAME_DATA_CONTENT_LIGHT_LEVEL) : NULL;
    CHECK(sd && ((AVContentLightMetadata *)sd->data)->MaxCLL == 600 &&
          ((AVContentLightMetadata *)sd->data)->MaxFALL == 600,
          "HDR output tone mapped: MaxCLL/MaxFALL capped at 600");
    av_frame_free(&out);
    av_frame_free(&in);

    /* SDR -> PQ: metadata describing SDR white at target_peak */
    in = pattern(AV_PIX_FMT_YUV420P, 64, 48, AVCOL_PRI_BT709, AVCOL_TRC_BT709, AVCOL_SPC_BT709,
                 AVCOL_RANGE_MPEG, 5);
    ret = cspfix_run1(in, "cspfix=all=bt2020:trc=smpte2084:format=yuv420p10le", 1, &out);
    sd = out ? av_frame_get_side_data(out, AV_FRAME_DATA_MASTERING_DISPLAY_METADATA) : NULL;
    CHECK(ret == 0 && sd && av_q2d(((AVMasteringDisplayMetadata *)sd->data)->max_luminance) == 203 &&
          av_frame_get_side_data(out, AV_FRAME_DATA_CONTENT_LIGHT_LEVEL),
          "SDR -> PQ: mastering display 203 cd/m2 and a content light level added");
    av_frame_free(&out);
    ret = cspfix_run1(in, "cspfix=all=bt2020:trc=arib-std-b67:format=yuv420p10le", 1, &out);
    sd = out ? av_frame_get_side_data(out, AV_FRAME_DATA_MASTERING_DISPLAY_METADATA) : NULL;
    {
        const AVFrameSideData *cl = out ? av_frame_get_side_data(out, AV_FRAME_DATA_CONTENT_LIGHT_LEVEL) : NULL;
        CHECK(ret == 0 && sd && av_q2d(((AVMasteringDisplayMetadata *)sd->data)->max_luminance) == 1000 &&
              cl && ((AVContentLightMetadata *)cl->data)->MaxCLL == 203,
              "SDR -> HLG: the 1000 cd/m2 reference display, content up to 203 cd/m2");
    }
    av_frame_free(&out);

    log_reset();
    ret = cspfix_run1(in, "cspfix=tonemap=fancy", 1, &out);
    CHECK(ret < 0 && log_has("fancy"), "unknown tonemap value named [%s]", logbuf.str);
    av_frame_free(&out);
    av_frame_free(&in);
}

/* Options that lose silently elsewhere: explicit per-field options win over v4l2_*,
 * contradictions are said, a mid-stream change still gives the first frame's output, and
 * the log says what runs. */
static void test_option_conflicts(void)
{
    AVFrame *in = pattern(AV_PIX_FMT_YUV420P, 64, 48, AVCOL_PRI_BT709, AVCOL_TRC_BT709,
                          AVCOL_SPC_BT709, AVCOL_RANGE_MPEG, 21), *out = NULL, *ref = NULL;
    AVFrame *ins[3], *outs[3] = { NULL };
    int ret, nb = 0, ok = 1;

    /* v4l2 smpte170m says BT.601 matrix, limited range: ispace and irange win, in either order */
    ret  = cspfix_run1(in, "cspfix=v4l2_colorspace=smpte170m:ispace=bt709:irange=pc:all=bt709", 1, &out);
    ret |= cspfix_run1(in, "cspfix=iprimaries=smpte170m:itrc=bt709:ispace=bt709:irange=pc:all=bt709", 1, &ref);
    CHECK(!ret && cspfix_frames_equal(out, ref), "ispace/irange win over v4l2_colorspace");
    av_frame_free(&out);
    ret = cspfix_run1(in, "cspfix=irange=pc:ispace=bt709:all=bt709:v4l2_colorspace=smpte170m", 1, &out);
    CHECK(!ret && cspfix_frames_equal(out, ref), "... whatever the order of the options");
    av_frame_free(&out);
    av_frame_free(&ref);

    /* contradictions: each said, with what runs */
    {
        static const struct { const char *f, *say; } warn[] = {
            { "cspfix=primaries=bt2020:clipgamut=rgb:gamut=compress", "gamut=compress does not run" },
            { "cspfix=all=bt2020:tonemap=hable",                      "tonemap=hable has no effect" },
            { "cspfix=trc=iec61966-2-1:fast=1",                       "is a relabel, not a conversion" },
        };
        for (int i = 0; i < FF_ARRAY_ELEMS(warn); i++) {
            log_reset();
            ret = cspfix_run1(in, warn[i].f, 1, &out);
            CHECK(!ret && log_has(warn[i].say), "%s warned [%s]", warn[i].f, logbuf.str);
            av_frame_free(&out);
        }
    }

    /* mid-stream: tv, pc, tv frames through a cspfix with the range left free: every frame
     * comes out as the first (tv), the pc one converted */
    for (int i = 0; i < 3; i++) {
        ins[i] = av_frame_clone(in);
        ins[i]->pts = i;
    }
    ins[1]->color_range = AVCOL_RANGE_JPEG;
    ret = cspfix_run_graph(ins, 3, "cspfix=dither=none", 1, outs, 3, &nb);
    cspfix_run1(ins[1], "cspfix=range=tv:dither=none", 1, &ref);
    for (int i = 0; i < nb; i++)
        ok &= outs[i]->color_range == AVCOL_RANGE_MPEG;
    CHECK(!ret && nb == 3 && ok && ref && cspfix_frames_equal(outs[1], ref),
          "a mid-stream pc frame is converted to the first frame's tv");
    av_frame_free(&ref);
    for (int i = 0; i < 3; i++) {
        av_frame_free(&ins[i]);
        av_frame_free(&outs[i]);
    }

    /* the log says what runs */
    log_reset();
    av_log_set_level(AV_LOG_VERBOSE);
    ret = cspfix_run1(in, "cspfix=chroma_loc=center", 1, &out);
    CHECK(!ret && log_has("no colour change; chroma resampled") && !log_has("identity"),
          "a chroma-location-only change is not logged as identity [%s]", logbuf.str);
    av_frame_free(&out);
    log_reset();
    ret = cspfix_run1(in, "cspfix=space=smpte170m", 1, &out);
    CHECK(!ret && log_has("(matrix as set, range the input's)"), "the plan says where the "
          "output fields come from [%s]", logbuf.str);
    av_frame_free(&out);
    log_reset();
    in->color_trc = AVCOL_TRC_BT709;
    ret = cspfix_run1(in, "cspfix=all=bt2020", 1, &out);
    CHECK(!ret && !log_has("Source peak"), "no source peak logged for SDR input [%s]", logbuf.str);
    av_log_set_level(AV_LOG_INFO);
    av_frame_free(&out);
    av_frame_free(&in);
}

/* Side data per type: ICC follows the primaries and transfer, dynamic HDR metadata the
 * transfer and tone mapping, the rest passes through. */
static void add_side_data(AVFrame *f)
{
    AVFrameSideData *icc = av_frame_new_side_data(f, AV_FRAME_DATA_ICC_PROFILE, 16);
    if (icc)
        memset(icc->data, 0x42, icc->size);
    av_dynamic_hdr_plus_create_side_data(f);
    av_ambient_viewing_environment_create_side_data(f);
}

static void test_side_data(void)
{
    static const struct {
        const char *what, *filter;
        int icc, dyn;
    } cases[] = {
        { "matrix change",          "cspfix=space=bt709:format=yuv420p10le",               1, 1 },
        { "range change",           "cspfix=range=pc:format=yuv420p10le",                  1, 1 },
        { "primaries change",       "cspfix=primaries=smpte432:format=yuv420p10le",        0, 1 },
        { "transfer change",        "cspfix=trc=arib-std-b67:format=yuv420p10le",          0, 0 },
        { "HDR -> HDR tone mapped", "cspfix=tonemap=bt2390:target_peak=600",               1, 0 },
        { "HDR -> SDR",             "cspfix=all=bt709:format=yuv420p",                     0, 0 },
    };
    for (int i = 0; i < FF_ARRAY_ELEMS(cases); i++) {
        AVFrame *in = pattern(AV_PIX_FMT_YUV420P10, 32, 16, AVCOL_PRI_BT2020, AVCOL_TRC_SMPTE2084,
                              AVCOL_SPC_BT2020_NCL, AVCOL_RANGE_MPEG, 7 + i), *out = NULL;
        int ret;
        add_side_data(in);
        ret = cspfix_run1(in, cases[i].filter, 1, &out);
        CHECK(ret == 0 && !!av_frame_get_side_data(out, AV_FRAME_DATA_ICC_PROFILE) == cases[i].icc,
              "%s: ICC profile %s", cases[i].what, cases[i].icc ? "kept" : "dropped");
        CHECK(ret == 0 && !!av_frame_get_side_data(out, AV_FRAME_DATA_DYNAMIC_HDR_PLUS) == cases[i].dyn,
              "%s: HDR10+ %s", cases[i].what, cases[i].dyn ? "kept" : "dropped");
        CHECK(ret == 0 && av_frame_get_side_data(out, AV_FRAME_DATA_AMBIENT_VIEWING_ENVIRONMENT),
              "%s: ambient viewing environment passed through", cases[i].what);
        av_frame_free(&out);
        av_frame_free(&in);
    }
}

/* 8-bit limited BT.709 Y'CbCr whose R'G'B' lies in [0, 1] */
static int in_gamut_709(int y, int cb, int cr)
{
    const double yy = (y - 16) / 219.0, u = (cb - 128) / 224.0, v = (cr - 128) / 224.0;
    const double r = yy + 1.5748 * v, b = yy + 1.8556 * u;
    const double g = (yy - 0.2126 * r - 0.0722 * b) / 0.7152;
    return r >= 0 && r <= 1 && g >= 0 && g <= 1 && b >= 0 && b <= 1;
}

/* One reference white both ways (BT.2408): SDR -> HDR -> SDR with defaults gives every
 * in-gamut 8-bit code back within 1 through a 10-bit PQ/HLG signal of the same primaries.
 * Through BT.2020 (figures printed, not bounded), saturated colours with one component a
 * few codes above black come back further off: the quantisation of their large BT.2020
 * components, amplified by the BT.2020 -> BT.709 matrix, is of the size of that small
 * component, whose BT.1886 encoding is steepest there (10 bits: up to 21 codes, 16 bits: 4). */
static void test_sdr_hdr_roundtrip(void)
{
    static const struct {
        const char *to, *back;
        int bound;
    } cases[] = {
        { "cspfix=trc=smpte2084:format=yuv444p10le",              "cspfix=trc=bt709", 1 },
        { "cspfix=trc=arib-std-b67:format=yuv444p10le",           "cspfix=trc=bt709", 1 },
        { "cspfix=all=bt2020:trc=smpte2084:format=yuv444p16le",    "cspfix=all=bt709:format=yuv444p", 0 },
        { "cspfix=all=bt2020:trc=arib-std-b67:format=yuv444p16le", "cspfix=all=bt709:format=yuv444p", 0 },
        { "cspfix=all=bt2020:trc=smpte2084:format=yuv444p10le",    "cspfix=all=bt709:format=yuv444p", 0 },
        { "cspfix=all=bt2020:trc=arib-std-b67:format=yuv444p10le", "cspfix=all=bt709:format=yuv444p", 0 },
    };
    AVFrame *in = cspfix_alloc_frame(AV_PIX_FMT_YUV444P, 4096, 4096, AVCOL_PRI_BT709,
                                     AVCOL_TRC_BT709, AVCOL_SPC_BT709, AVCOL_RANGE_MPEG);

    for (int y = 0; y < 4096; y++)
        for (int x = 0; x < 4096; x++) {
            const int i = y * 4096 + x;
            cspfix_set_sample(in, 0, x, y, 0, i >> 16);
            cspfix_set_sample(in, 1, x, y, 0, (i >> 8) & 255);
            cspfix_set_sample(in, 2, x, y, 0, i & 255);
        }
    for (int t = 0; t < FF_ARRAY_ELEMS(cases); t++) {
        char back[128];
        AVFrame *mid = NULL, *out = NULL;
        int ret, worst = 0, n = 0, wv[3] = { 0 };
        int64_t sum = 0, within1 = 0;
        /* back to 8 bits: the format the source had */
        snprintf(back, sizeof(back), "%s:format=yuv444p", cases[t].back);
        ret = cspfix_run1(in, cases[t].to, 2, &mid);
        if (!ret)
            ret = cspfix_run1(mid, strstr(cases[t].back, "format") ? cases[t].back : back, 2, &out);
        for (int y = 0; !ret && y < 4096; y++)
            for (int x = 0; x < 4096; x++) {
                int v[3], d = 0;
                for (int c = 0; c < 3; c++)
                    v[c] = cspfix_sample(in, c, x, y, 0);
                if (!in_gamut_709(v[0], v[1], v[2]))
                    continue;
                n++;
                for (int c = 0; c < 3; c++) {
                    const int dc = abs(cspfix_sample(out, c, x, y, 0) - v[c]);
                    d = FFMAX(d, dc);
                    sum += dc;
                }
                within1 += d <= 1;
                if (d > worst) {
                    worst = d;
                    memcpy(wv, v, sizeof(wv));
                }
            }
        if (cases[t].bound)
            CHECK(!ret && n > 1000000 && worst <= cases[t].bound, "SDR -> [%s] -> SDR: %d "
                  "in-gamut codes, worst difference %d (at %d,%d,%d)", cases[t].to, n, worst,
                  wv[0], wv[1], wv[2]);
        printf("SDR -> [%s] -> SDR: %d in-gamut triples, max difference %d code(s) (at "
               "%d,%d,%d), mean %.4f, %.4f %% within 1 code%s\n", cases[t].to, n, worst,
               wv[0], wv[1], wv[2], n ? (double)sum / (3.0 * n) : 0.0,
               n ? 100.0 * within1 / n : 0.0, cases[t].bound ? "" : " (not bounded)");
        av_frame_free(&mid);
        av_frame_free(&out);
    }
    av_frame_free(&in);
}

/* HDR into float samples keeps the highlights above SDR white: no tone curve by default,
 * and no warning that they clip. */
static void test_hdr_to_float(void)
{
    AVFrame *in = pattern(AV_PIX_FMT_YUV444P10, 64, 16, AVCOL_PRI_BT2020, AVCOL_TRC_SMPTE2084,
                          AVCOL_SPC_BT2020_NCL, AVCOL_RANGE_MPEG, 3), *out = NULL;
    float max = 0.0f;
    int ret;

    for (int x = 0; x < 64; x++)
        for (int c = 0; c < 3; c++)
            cspfix_set_sample(in, c, x, 0, 1, c ? 512 : 940); /* 10000 cd/m2 white */
    log_reset();
    ret = cspfix_run1(in, "cspfix=all=bt709:format=gbrpf32le", 1, &out);
    for (int p = 0; !ret && p < 3; p++)
        for (int x = 0; x < 64; x++)
            max = FFMAX(max, ((const float *)out->data[p])[x]);
    /* 10000 cd/m2 = 10000 / 203 SDR white, BT.1886-encoded */
    CHECK(!ret && fabs(max - pow(10000.0 / 203.0, 1.0 / 2.4)) < 0.01,
          "PQ -> float: 10000 cd/m2 is %g (not tone mapped)", max);
    CHECK(!ret && !log_has("clip"), "PQ -> float: no clipping warning [%s]", logbuf.str);
    av_frame_free(&out);
    av_frame_free(&in);
}

/*
 * The side data of the output link after configuring buffer (announcing f's side data,
 * as ffmpeg does with the first frame's) -> filters -> buffersink, into res: what ffmpeg
 * opens an encoder with. f is then sent through; *warned: cspfix said the frame's HDR
 * metadata differ from the link's.
 */
static int link_side_data(const AVFrame *f, int announce, const char *filters, AVFrame *res,
                          int *warned)
{
    AVFilterGraph *graph = avfilter_graph_alloc();
    AVBufferSrcParameters *par = av_buffersrc_parameters_alloc();
    AVFilterContext *src = NULL, *sink = NULL;
    AVFilterInOut *outputs = avfilter_inout_alloc(), *inputs = avfilter_inout_alloc();
    AVFrame *o = av_frame_alloc();
    const AVFrameSideData *const *sd;
    char args[256];
    int nb = 0, ret = AVERROR(ENOMEM);

    *warned = 0;
    if (!graph || !par || !outputs || !inputs || !o)
        goto end;
    snprintf(args, sizeof(args),
             "video_size=%dx%d:pix_fmt=%d:time_base=1/25:pixel_aspect=1/1:colorspace=%d:range=%d",
             f->width, f->height, f->format, f->colorspace, f->color_range);
    if ((ret = avfilter_graph_create_filter(&src, avfilter_get_by_name("buffer"), "in",
                                            args, NULL, graph)) < 0 ||
        (ret = avfilter_graph_create_filter(&sink, avfilter_get_by_name("buffersink"), "out",
                                            NULL, NULL, graph)) < 0)
        goto end;
    par->format       = -1;
    if (announce) {
        par->side_data    = f->side_data;   /* cloned by av_buffersrc_parameters_set() */
        par->nb_side_data = f->nb_side_data;
    }
    ret = av_buffersrc_parameters_set(src, par);
    par->side_data    = NULL;
    par->nb_side_data = 0;
    if (ret < 0)
        goto end;
    outputs->name       = av_strdup("in");
    outputs->filter_ctx = src;
    inputs->name        = av_strdup("out");
    inputs->filter_ctx  = sink;
    if ((ret = avfilter_graph_parse_ptr(graph, filters, &inputs, &outputs, NULL)) < 0 ||
        (ret = avfilter_graph_config(graph, NULL)) < 0)
        goto end;
    sd = av_buffersink_get_side_data(sink, &nb);
    for (int i = 0; i < nb; i++)
        if ((ret = av_frame_side_data_clone(&res->side_data, &res->nb_side_data, sd[i], 0)) < 0)
            goto end;
    log_reset();
    if ((ret = av_buffersrc_add_frame_flags(src, (AVFrame *)f, AV_BUFFERSRC_FLAG_KEEP_REF)) < 0 ||
        (ret = av_buffersrc_add_frame(src, NULL)) < 0 ||
        (ret = av_buffersink_get_frame(sink, o)) < 0)
        goto end;
    *warned = log_has("differ from what the output link announced");
end:
    av_frame_free(&o);
    avfilter_inout_free(&inputs);
    avfilter_inout_free(&outputs);
    av_free(par);
    avfilter_graph_free(&graph);
    return ret;
}

/* max luminance, MaxCLL, MaxFALL, red x (x10000) of res's HDR10 side data (-1: none) */
static void hdr10_of(const AVFrame *res, int v[4])
{
    const AVFrameSideData *m = av_frame_get_side_data(res, AV_FRAME_DATA_MASTERING_DISPLAY_METADATA);
    const AVFrameSideData *c = av_frame_get_side_data(res, AV_FRAME_DATA_CONTENT_LIGHT_LEVEL);
    const AVMasteringDisplayMetadata *md = m ? (const AVMasteringDisplayMetadata *)m->data : NULL;
    const AVContentLightMetadata *cl = c ? (const AVContentLightMetadata *)c->data : NULL;

    v[0] = md && md->has_luminance ? lrint(av_q2d(md->max_luminance)) : -1;
    v[1] = cl ? cl->MaxCLL : -1;
    v[2] = cl ? cl->MaxFALL : -1;
    v[3] = md && md->has_primaries ? lrint(av_q2d(md->display_primaries[0][0]) * 10000) : -1;
}

/* The output link carries the HDR10 metadata the frames will carry (encoders are opened
 * with the link's), and a difference the link could not foresee is warned about. */
static void test_link_side_data(void)
{
    static const struct {
        int hdr_in;            /* PQ input with a P3 display of 1000, MaxCLL 800 (2: 4000,
                                * 4000), else SDR */
        int announce;          /* the buffer source announces the frame's side data */
        const char *filters;
        int v[4];              /* hdr10_of() of the link */
        int warn;
    } t[] = {
        { 1, 1, "cspfix=range=pc",                          { 1000, 800, 200, 6800 }, 0 },
        { 1, 1, "cspfix=all=bt709:format=yuv420p",          { -1, -1, -1, -1 },       0 },
        { 1, 1, "cspfix=tonemap=bt2390:target_peak=400",    { 400, 400, 200, 6800 },  0 },
        { 1, 1, "cspfix=trc=hlg",                           { 1000, 800, 200, 6800 }, 0 },
        { 0, 1, "cspfix=primaries=bt2020:trc=smpte2084:space=bt2020nc:format=yuv420p10:target_peak=600",
                                                            { 600, 600, 600, 7080 },  0 },
        /* the SDR input's primaries (the mastering display's) are unknown on the link */
        { 0, 1, "cspfix=trc=smpte2084:format=yuv420p10",     { 203, 203, 203, -1 },    1 },
        { 0, 1, "cspfix=iprimaries=bt709:trc=smpte2084:format=yuv420p10", { 203, 203, 203, 6400 }, 0 },
        /* a 4000 cd/m2 source into HLG (1000 cd/m2) is tone mapped to it, and so is a
         * target_peak below the source's into PQ; tonemap=none clips there */
        { 2, 1, "cspfix=trc=hlg",                           { 1000, 1000, 1000, 6800 }, 0 },
        { 2, 1, "cspfix=target_peak=2000",                  { 2000, 2000, 1000, 6800 }, 0 },
        { 2, 1, "cspfix=trc=hlg:tonemap=none",              { 1000, 1000, 1000, 6800 }, 0 },
        { 2, 1, "cspfix=range=pc",                          { 4000, 4000, 1000, 6800 }, 0 },
        /* a source that did not announce its frames' side data: not cspfix's to warn about */
        { 1, 0, "cspfix=range=pc",                          { -1, -1, -1, -1 },       0 },
    };
    AVFrame *hdr = pattern(AV_PIX_FMT_YUV420P10, 64, 48, AVCOL_PRI_BT2020, AVCOL_TRC_SMPTE2084,
                           AVCOL_SPC_BT2020_NCL, AVCOL_RANGE_MPEG, 5);
    AVFrame *sdr = pattern(AV_PIX_FMT_YUV420P, 64, 48, AVCOL_PRI_BT709, AVCOL_TRC_BT709,
                           AVCOL_SPC_BT709, AVCOL_RANGE_MPEG, 6);

    AVFrame *hdr4k = pattern(AV_PIX_FMT_YUV420P10, 64, 48, AVCOL_PRI_BT2020, AVCOL_TRC_SMPTE2084,
                             AVCOL_SPC_BT2020_NCL, AVCOL_RANGE_MPEG, 5);

    cspfix_set_hdr10(hdr, 1000, 800);
    cspfix_set_hdr10(hdr4k, 4000, 4000);
    for (int i = 0; i < FF_ARRAY_ELEMS(t); i++) {
        AVFrame *res = av_frame_alloc();
        int v[4] = { 0 }, warned = 0;
        int ret = res ? link_side_data(t[i].hdr_in == 2 ? hdr4k : t[i].hdr_in ? hdr : sdr, t[i].announce, t[i].filters,
                                       res, &warned) : AVERROR(ENOMEM);

        if (res)
            hdr10_of(res, v);
        CHECK(ret >= 0 && !memcmp(v, t[i].v, sizeof(v)) && warned == t[i].warn,
              "link side data of %s input (%s), %s: max lum %d MaxCLL %d MaxFALL %d red x %d, "
              "warned %d (expected %d %d %d %d, %d; ret %d)", t[i].hdr_in ? "HDR10" : "SDR",
              t[i].announce ? "announced" : "not announced", t[i].filters, v[0], v[1], v[2], v[3], warned, t[i].v[0], t[i].v[1], t[i].v[2],
              t[i].v[3], t[i].warn, ret);
        av_frame_free(&res);
    }
    /* the tone curve lowered the luminances of the output frames and of the link, not
     * those of the frame sent in, whose side data buffers they shared */
    {
        int v[4], want[4] = { 1000, 800, 200, 6800 };
        hdr10_of(hdr, v);
        CHECK(!memcmp(v, want, sizeof(v)), "the input frame's HDR10 side data unchanged: "
              "max lum %d MaxCLL %d MaxFALL %d red x %d", v[0], v[1], v[2], v[3]);
    }
    av_frame_free(&hdr);
    av_frame_free(&hdr4k);
    av_frame_free(&sdr);
}

/* The PQ signal (SMPTE ST 2084 inverse EOTF, 0..1) of a luminance in cd/m2 */
static double pq_signal(double nits)
{
    const double m1 = 2610.0 / 16384, m2 = 2523.0 / 4096 * 128, c1 = 3424.0 / 4096;
    const double c2 = 2413.0 / 4096 * 32, c3 = 2392.0 / 4096 * 32;
    const double yp = pow(nits / 10000.0, m1);
    return pow((c1 + c2 * yp) / (1 + c3 * yp), m2);
}

/* Where HDR reference white (203 cd/m2) lands in SDR: white with clip and none, or with a
 * source peak of 203; below it with the other curves, which compress from the source peak
 * (the figures are in doc/cspfix.texi, target_peak). */
static void test_ref_white(void)
{
    static const struct { const char *tm; int peak; double lo, hi; } t[] = {
        { "clip",     1000, 254.99, 255.01 },
        { "none",     1000, 254.99, 255.01 },
        { "bt2390",    203, 254.99, 255.01 },
        { "bt2390",   1000, 200.0, 254.5 },
        { "bt2390",   4000, 150.0, 254.5 },
        { "reinhard", 1000, 100.0, 254.5 },
        { "hable",    1000, 100.0, 254.5 },
        { "mobius",   1000, 100.0, 255.01 },
    };
    const double e = pq_signal(203.0);
    AVFrame *in = cspfix_alloc_frame(AV_PIX_FMT_GBRPF32LE, 4, 2, AVCOL_PRI_BT709,
                                     AVCOL_TRC_SMPTE2084, AVCOL_SPC_RGB, AVCOL_RANGE_JPEG);

    for (int p = 0; p < 3; p++)
        for (int y = 0; y < 2; y++)
            for (int x = 0; x < 4; x++)
                ((float *)(in->data[p] + y * in->linesize[p]))[x] = e;
    for (int i = 0; i < FF_ARRAY_ELEMS(t); i++) {
        char f[128];
        AVFrame *out = NULL;
        double v;
        int ret;
        snprintf(f, sizeof(f), "cspfix=trc=bt709:format=gbrp16le:dither=none:tonemap=%s:peak=%d",
                 t[i].tm, t[i].peak);
        ret = cspfix_run1(in, f, 1, &out);
        v = out ? AV_RL16(out->data[0]) * 255.0 / 65535.0 : -1;
        CHECK(!ret && v >= t[i].lo && v <= t[i].hi, "203 cd/m2 with tonemap=%s, source peak %d: "
              "%.2f of 255 (expected %.2f..%.2f)", t[i].tm, t[i].peak, v, t[i].lo, t[i].hi);
        printf("203 cd/m2 -> SDR (bt709, 8-bit scale) with tonemap=%s, source peak %d cd/m2: "
               "%.2f of 255\n", t[i].tm, t[i].peak, v);
        av_frame_free(&out);
    }
    av_frame_free(&in);
}

/* Issue 28: what real media brings. */
static void test_real_media(void)
{
    AVFrame *out = NULL, *ref = NULL;
    int ret;

    /* untagged Y'CbCr is guessed from width and height, as players do: cropped HD
     * (1280x544, 1920x800) is BT.709; 576 rows BT.601 625; other SD SMPTE 170M */
    {
        static const struct { int w, h, prim, trc, csp; } t[] = {
            { 1280, 544, AVCOL_PRI_BT709,     AVCOL_TRC_BT709,     AVCOL_SPC_BT709     },
            { 1920, 800, AVCOL_PRI_BT709,     AVCOL_TRC_BT709,     AVCOL_SPC_BT709     },
            {  960, 720, AVCOL_PRI_BT709,     AVCOL_TRC_BT709,     AVCOL_SPC_BT709     },
            {  720, 576, AVCOL_PRI_BT470BG,   AVCOL_TRC_SMPTE170M, AVCOL_SPC_BT470BG   },
            { 1024, 576, AVCOL_PRI_BT470BG,   AVCOL_TRC_SMPTE170M, AVCOL_SPC_BT470BG   },
            {  720, 480, AVCOL_PRI_SMPTE170M, AVCOL_TRC_SMPTE170M, AVCOL_SPC_SMPTE170M },
            {  640, 360, AVCOL_PRI_SMPTE170M, AVCOL_TRC_SMPTE170M, AVCOL_SPC_SMPTE170M },
        };
        for (int i = 0; i < FF_ARRAY_ELEMS(t); i++) {
            AVFrame *u = pattern(AV_PIX_FMT_YUV420P, t[i].w, t[i].h, AVCOL_PRI_UNSPECIFIED,
                                 AVCOL_TRC_UNSPECIFIED, AVCOL_SPC_UNSPECIFIED,
                                 AVCOL_RANGE_MPEG, 40 + i);
            AVFrame *k = av_frame_clone(u);
            k->color_primaries = t[i].prim;
            k->color_trc       = t[i].trc;
            k->colorspace      = t[i].csp;
            log_reset();
            ret  = cspfix_run1(u, "cspfix=all=bt2020:format=yuv420p10", 1, &out);
            ret |= cspfix_run1(k, "cspfix=all=bt2020:format=yuv420p10", 1, &ref);
            CHECK(!ret && cspfix_frames_equal(out, ref) &&
                  log_has(av_color_space_name(t[i].csp)),
                  "untagged %dx%d is read as %s/%s/%s [%s]", t[i].w, t[i].h,
                  av_color_primaries_name(t[i].prim), av_color_transfer_name(t[i].trc),
                  av_color_space_name(t[i].csp), logbuf.str);
            av_frame_free(&out);
            av_frame_free(&ref);
            av_frame_free(&u);
            av_frame_free(&k);
        }
    }

    /* grey tagged rgb (FFmpeg's PNG decoder does so): the matrix does not matter, so
     * it is taken, as the same grey tagged with a Y'CbCr matrix */
    {
        static const enum AVPixelFormat fmts[] = {
            AV_PIX_FMT_GRAY8, AV_PIX_FMT_GRAY16BE, AV_PIX_FMT_YA8, AV_PIX_FMT_YA16BE,
        };
        for (int i = 0; i < FF_ARRAY_ELEMS(fmts); i++) {
            AVFrame *g = pattern(fmts[i], 64, 48, AVCOL_PRI_BT709, AVCOL_TRC_IEC61966_2_1,
                                 AVCOL_SPC_RGB, AVCOL_RANGE_JPEG, 50 + i);
            AVFrame *k = av_frame_clone(g);
            k->colorspace = AVCOL_SPC_BT709;
            log_reset();
            av_log_set_level(AV_LOG_VERBOSE);
            ret  = cspfix_run1(g, "cspfix=trc=bt709:format=rgb24", 1, &out);
            av_log_set_level(AV_LOG_INFO);
            ret |= cspfix_run1(k, "cspfix=trc=bt709:format=rgb24", 1, &ref);
            CHECK(!ret && cspfix_frames_equal(out, ref) && log_has("matrix rgb ignored"),
                  "%s tagged rgb converts as grey, and -v verbose says why (ret %d) [%s]",
                  av_get_pix_fmt_name(fmts[i]), ret, logbuf.str);
            av_frame_free(&out);
            av_frame_free(&ref);
            ret = cspfix_run1(g, "cspfix=trc=bt709", 1, &out);
            CHECK(!ret && out && out->format == fmts[i], "%s tagged rgb to %s",
                  av_get_pix_fmt_name(fmts[i]), out ? av_get_pix_fmt_name(out->format) : "-");
            av_frame_free(&out);
            av_frame_free(&g);
            av_frame_free(&k);
        }
    }

    /* HDR to HDR: a PQ source with highlights at 2000-4000 cd/m2 into HLG (1000 cd/m2)
     * is tone mapped, not clipped: the highlights keep distinct, increasing codes */
    {
        static const double nits[] = { 100, 500, 1000, 1500, 2000, 2500, 3000, 3500, 4000 };
        const int n = FF_ARRAY_ELEMS(nits);
        AVFrame *pq = cspfix_alloc_frame(AV_PIX_FMT_YUV444P10, n, 2, AVCOL_PRI_BT2020,
                                         AVCOL_TRC_SMPTE2084, AVCOL_SPC_BT2020_NCL,
                                         AVCOL_RANGE_MPEG);
        int codes[FF_ARRAY_ELEMS(nits)], incr = 1, top = 0;  /* nits[2], [4]: 1000, 2000 */
        const AVFrameSideData *sd;
        for (int x = 0; x < n; x++) {
            const int code = lrint(64 + 876 * pq_signal(nits[x]));
            for (int y = 0; y < 2; y++) {
                cspfix_set_sample(pq, 0, x, y, 1, code);
                cspfix_set_sample(pq, 1, x, y, 1, 512);
                cspfix_set_sample(pq, 2, x, y, 1, 512);
            }
        }
        cspfix_set_hdr10(pq, 4000, 4000);
        log_reset();
        ret = cspfix_run1(pq, "cspfix=trc=hlg:dither=none", 1, &out);
        for (int x = 0; out && x < n; x++) {
            codes[x] = cspfix_sample(out, 0, x, 0, 1);
            /* increasing; BT.2390's spline ends flat at the source peak (slope 0) */
            incr &= !x || (nits[x] <= 2500 ? codes[x] > codes[x - 1] : codes[x] >= codes[x - 1]);
            top = FFMAX(top, codes[x]);
        }
        sd = out ? av_frame_get_side_data(out, AV_FRAME_DATA_MASTERING_DISPLAY_METADATA) : NULL;
        CHECK(!ret && out && incr && top <= 940 && codes[4] < top &&
              log_has("tone mapped to it with bt2390 (tonemap=auto)"),
              "PQ 100..4000 cd/m2 (MaxCLL 4000) to HLG: increasing codes %d %d %d %d %d %d %d %d "
              "%d, top %d <= 940 (nominal peak) [%s]", codes[0], codes[1], codes[2], codes[3],
              codes[4], codes[5], codes[6], codes[7], codes[8], top, logbuf.str);
        CHECK(sd && lrint(av_q2d(((AVMasteringDisplayMetadata *)sd->data)->max_luminance)) == 1000,
              "PQ 4000 to HLG: the output's mastering display says 1000 cd/m2");
        sd = out ? av_frame_get_side_data(out, AV_FRAME_DATA_CONTENT_LIGHT_LEVEL) : NULL;
        CHECK(sd && ((AVContentLightMetadata *)sd->data)->MaxCLL == 1000,
              "PQ 4000 to HLG: the output's MaxCLL is 1000");
        av_frame_free(&out);
        /* tonemap=none clips there, says so, and the metadata still describes the output */
        log_reset();
        ret = cspfix_run1(pq, "cspfix=trc=hlg:tonemap=none:dither=none", 1, &out);
        sd = out ? av_frame_get_side_data(out, AV_FRAME_DATA_CONTENT_LIGHT_LEVEL) : NULL;
        CHECK(!ret && log_has("light above 1000 cd/m2 clips") && sd &&
              ((AVContentLightMetadata *)sd->data)->MaxCLL == 1000,
              "PQ 4000 to HLG with tonemap=none: warned, MaxCLL 1000 [%s]", logbuf.str);
        av_frame_free(&out);
        /* a source within what HLG holds is not tone mapped */
        cspfix_set_hdr10(pq, 1000, 1000);
        ret  = cspfix_run1(pq, "cspfix=trc=hlg:dither=none", 1, &out);
        ret |= cspfix_run1(pq, "cspfix=trc=hlg:tonemap=none:dither=none", 1, &ref);
        CHECK(!ret && cspfix_frames_equal(out, ref), "PQ 1000 to HLG: no tone curve");
        av_frame_free(&out);
        av_frame_free(&ref);
        av_frame_free(&pq);
    }

    /* one rule of precedence: a field's own option, then all/iall, then
     * colorimetry/icolorimetry, then v4l2_*, whatever the order on the command line;
     * presets that disagree are warned about */
    {
        static const struct { const char *a, *b, *say; } t[] = {
            { "cspfix=all=bt709:colorimetry=bt2100-pq:format=yuv420p10",
              "cspfix=primaries=bt709:trc=bt709:space=bt709:range=tv:format=yuv420p10",
              "all=bt709 and colorimetry=bt2100-pq both set the output primaries, transfer and matrix" },
            { "cspfix=colorimetry=bt2100-pq:all=bt709:format=yuv420p10",
              "cspfix=primaries=bt709:trc=bt709:space=bt709:range=tv:format=yuv420p10",
              "all=bt709 and colorimetry=bt2100-pq both set" },
            { "cspfix=colorimetry=bt2100-pq:trc=bt709:format=yuv420p10",
              "cspfix=primaries=bt2020:trc=bt709:space=bt2020nc:range=tv:format=yuv420p10",
              "trc=bt709 and colorimetry=bt2100-pq both set the output transfer" }, /* verbose */
            { "cspfix=icolorimetry=bt709:iall=smpte170m:all=bt2020",
              "cspfix=iprimaries=smpte170m:itrc=smpte170m:ispace=smpte170m:irange=tv:all=bt2020",
              "iall=smpte170m and icolorimetry=bt709 both set the input primaries, transfer and matrix" },
            { "cspfix=iall=smpte170m:icolorimetry=bt709:all=bt2020",
              "cspfix=iprimaries=smpte170m:itrc=smpte170m:ispace=smpte170m:irange=tv:all=bt2020",
              "iall=smpte170m and icolorimetry=bt709 both set" },
            { "cspfix=v4l2_colorspace=rec709:iall=smpte170m:all=bt2020",
              "cspfix=iprimaries=smpte170m:itrc=smpte170m:ispace=smpte170m:all=bt2020",
              "iall=smpte170m and the v4l2_* options both set" },
            { "cspfix=iall=smpte170m:v4l2_colorspace=rec709:all=bt2020",
              "cspfix=iprimaries=smpte170m:itrc=smpte170m:ispace=smpte170m:all=bt2020",
              "iall=smpte170m and the v4l2_* options both set" },
        };
        AVFrame *in = pattern(AV_PIX_FMT_YUV420P, 64, 48, AVCOL_PRI_BT709, AVCOL_TRC_BT709,
                              AVCOL_SPC_BT709, AVCOL_RANGE_MPEG, 60);
        for (int i = 0; i < FF_ARRAY_ELEMS(t); i++) {
            log_reset();
            ret = cspfix_run1(in, t[i].a, 1, &out);
            ret |= cspfix_run1(in, t[i].b, 1, &ref);
            CHECK(!ret && cspfix_frames_equal(out, ref) &&
                  out->color_primaries == ref->color_primaries &&
                  out->color_trc == ref->color_trc && out->colorspace == ref->colorspace &&
                  out->color_range == ref->color_range &&
                  log_has(t[i].say),
                  "%s is %s [%s]", t[i].a, t[i].b, logbuf.str);
            av_frame_free(&out);
            av_frame_free(&ref);
        }
        av_frame_free(&in);
    }

    /* yuvj formats are full range: a limited-range tag on yuvj input is not taken (with a
     * warning), irange=tv is; range=tv gives the yuv twin, not limited codes in yuvj */
    {
        AVFrame *j = pattern(AV_PIX_FMT_YUVJ420P, 64, 48, AVCOL_PRI_BT709, AVCOL_TRC_BT709,
                             AVCOL_SPC_BT709, AVCOL_RANGE_MPEG, 70);
        AVFrame *k = av_frame_clone(j);
        k->color_range = AVCOL_RANGE_JPEG;
        log_reset();
        ret  = cspfix_run1(j, "cspfix=format=gbrp", 1, &out);
        ret |= cspfix_run1(k, "cspfix=format=gbrp", 1, &ref);
        CHECK(!ret && cspfix_frames_equal(out, ref) && log_has("the yuvj formats are full range"),
              "yuvj420p tagged tv is read as full range, with a warning [%s]", logbuf.str);
        av_frame_free(&out);
        av_frame_free(&ref);
        ret  = cspfix_run1(k, "cspfix=irange=tv:format=gbrp", 1, &out);
        ret |= cspfix_run1(k, "cspfix=format=gbrp", 1, &ref);
        CHECK(!ret && !cspfix_frames_equal(out, ref), "irange=tv reads yuvj as limited range");
        av_frame_free(&out);
        av_frame_free(&ref);
        ret = cspfix_run1(k, "cspfix=range=tv", 1, &out);
        CHECK(!ret && out && out->format == AV_PIX_FMT_YUV420P &&
              out->color_range == AVCOL_RANGE_MPEG,
              "yuvj420p with range=tv comes out as yuv420p tv (got %s %s)",
              out ? av_get_pix_fmt_name(out->format) : "-",
              out ? av_color_range_name(out->color_range) : "-");
        av_frame_free(&out);
        log_reset();
        ret = cspfix_run1(k, "cspfix=range=tv:format=yuvj420p", 1, &out);
        CHECK(!ret && out && out->color_range == AVCOL_RANGE_JPEG &&
              log_has("range=tv is ignored for yuvj420p output"),
              "range=tv with format=yuvj420p: full range, warned [%s]", logbuf.str);
        av_frame_free(&out);
        av_frame_free(&j);
        av_frame_free(&k);
    }
}

int main(void)
{
    av_bprint_init(&logbuf, 0, AV_BPRINT_SIZE_UNLIMITED);
    av_log_set_callback(log_cb);
    av_log_set_level(AV_LOG_INFO);
    test_tags();
    test_threads();
    test_midstream();
    test_errors();
    test_names();
    test_passthrough();
    test_plan_log();
    test_odd_sizes();
    test_foreign_descriptions();
    test_hdr();
    test_dovi();
    test_option_conflicts();
    test_side_data();
    test_sdr_hdr_roundtrip();
    test_hdr_to_float();
    test_link_side_data();
    test_real_media();
    test_ref_white();
    printf("api: %d passed, %d failed\n", passed, failed);
    av_bprint_finalize(&logbuf, NULL);
    return failed ? 1 : 0;
}
