/*
 * cspfix interlace tests: per-field vertical chroma resampling of interlaced frames
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
 * A frame whose two fields carry different chroma (top field Cb 90 Cr 166, bottom
 * field Cb 166 Cr 90, uniform luma) must come out with each field's samples equal to
 * what a uniform frame of that field's colour gives: vertical chroma resampling of an
 * interlaced frame never mixes the fields. Field order (tff/bff) does not change which
 * lines belong to which field, so both orders give the same picture.
 */

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libavutil/bprint.h>
#include <libavutil/imgutils.h>
#include <libavutil/log.h>
#include <libavutil/macros.h>
#include <libavutil/pixdesc.h>

#include "cspfix_testutil.h"

#include "cspfix_check.h"

#define W 72
#define H 70            /* 35 chroma rows: 18 in the top field, 17 in the bottom */
#define LUMA 120

static const int field_cb[2] = { 90, 166 }, field_cr[2] = { 166, 90 };

static AVBPrint logbuf;

static void log_cb(void *avcl, int level, const char *fmt, va_list vl)
{
    if (level > AV_LOG_VERBOSE)
        return;
    av_vbprintf(&logbuf, fmt, vl);
}

/* field-alternating frame; uniform: every row has field fld's chroma */
static AVFrame *field_frame(int fmt, int flags, int uniform, int fld)
{
    AVFrame *f = cspfix_alloc_frame(fmt, W, H, AVCOL_PRI_SMPTE170M, AVCOL_TRC_SMPTE170M,
                                    AVCOL_SPC_SMPTE170M, AVCOL_RANGE_MPEG);
    const AVPixFmtDescriptor *d = av_pix_fmt_desc_get(fmt);
    const int sh = d->comp[0].depth - 8;

    for (int p = 0; p < 3; p++) {
        const int pw = p ? AV_CEIL_RSHIFT(W, d->log2_chroma_w) : W;
        const int ph = p ? AV_CEIL_RSHIFT(H, d->log2_chroma_h) : H;
        for (int y = 0; y < ph; y++) {
            /* chroma row k of 4:2:0 belongs to field k & 1, any other row y to y & 1 */
            const int r = uniform ? fld : y & 1;
            for (int x = 0; x < pw; x++)
                cspfix_set_sample(f, p, x, y, sh > 0,
                                  (!p ? LUMA : p == 1 ? field_cb[r] : field_cr[r]) << sh);
        }
    }
    f->flags = flags;
    return f;
}

/* Largest difference, over every sample of every plane (in codes), between out
 * and the model: row y of each plane as the uniform frame of field y & 1's colour
 * converts (model[y & 1]). */
static int field_dev(const AVFrame *out, AVFrame *const model[2])
{
    const AVPixFmtDescriptor *d = av_pix_fmt_desc_get(out->format);
    const int big = d->comp[0].depth > 8;
    int dev = 0;

    for (int p = 0; p < av_pix_fmt_count_planes(out->format); p++) {
        const int pw = av_image_get_linesize(out->format, W, p) >> big;
        const int ph = p == 1 || p == 2 ? AV_CEIL_RSHIFT(H, d->log2_chroma_h) : H;
        for (int y = 0; y < ph; y++)
            for (int x = 0; x < pw; x++)
                dev = FFMAX(dev, abs(cspfix_sample(out, p, x, y, big) -
                                     cspfix_sample(model[y & 1], p, x, y, big)));
    }
    return dev;
}

/* filters with opt added to each cspfix of the chain */
static void with_opt(char *buf, int size, const char *filters, const char *opt)
{
    int n = 0;
    for (const char *p = filters; *p && n < size - 1; p++) {
        if (*p == ',')
            n += snprintf(buf + n, size - n, ":%s", opt);
        if (n < size - 1)
            buf[n++] = *p;
    }
    snprintf(buf + FFMIN(n, size - 1), size - FFMIN(n, size - 1), ":%s", opt);
}

#define TFF (AV_FRAME_FLAG_INTERLACED | AV_FRAME_FLAG_TOP_FIELD_FIRST)
#define BFF AV_FRAME_FLAG_INTERLACED

static void test_fields(void)
{
    static const struct {
        int in_fmt;
        const char *filters;
    } cases[] = {
        /* SMPTE 170M -> BT.709: linear light, every sample resampled */
        { AV_PIX_FMT_YUV420P, "cspfix=all=bt709" },
        { AV_PIX_FMT_YUV420P, "cspfix=all=bt709:format=yuv444p" },
        { AV_PIX_FMT_YUV444P, "cspfix=all=bt709:format=yuv420p" },
        { AV_PIX_FMT_YUV420P, "cspfix=all=bt709:format=nv12" },
        /* matrix only: chroma at its own resolution, luma from upsampled chroma */
        { AV_PIX_FMT_YUV420P, "cspfix=space=bt709" },
        { AV_PIX_FMT_YUV420P, "cspfix=space=bt709:format=yuv444p" },
        /* 4:2:0 -> 4:4:4 -> 4:2:0 and back to SMPTE 170M */
        { AV_PIX_FMT_YUV420P, "cspfix=all=bt709:format=yuv444p,cspfix=all=smpte170m:format=yuv420p" },
        { AV_PIX_FMT_YUV420P, "cspfix=format=yuv444p,cspfix=format=yuv420p" },
        /* 4:2:0 -> RGB -> 4:2:0 */
        { AV_PIX_FMT_YUV420P, "cspfix=format=gbrp,cspfix=format=yuv420p:space=smpte170m" },
        /* 10-bit matrix only: the integer path for progressive frames, the float path
         * (per field) for interlaced ones */
        { AV_PIX_FMT_YUV420P10, "cspfix=space=bt709" },
        { AV_PIX_FMT_YUV420P10, "cspfix=all=bt709:format=yuv420p10" },
        /* other sitings */
        { AV_PIX_FMT_YUV420P, "cspfix=all=bt709:ichroma_loc=topleft:chroma_loc=topleft" },
        { AV_PIX_FMT_YUV420P, "cspfix=all=bt709:ichroma_loc=bottomleft:chroma_loc=bottom" },
        { AV_PIX_FMT_YUV420P, "cspfix=all=bt709:ichroma_loc=left:chroma_loc=center" },
    };

    for (int i = 0; i < FF_ARRAY_ELEMS(cases); i++) {
        const char *fl = cases[i].filters;
        AVFrame *model[2], *tff1 = NULL, *tff3 = NULL, *bff1 = NULL, *bff3 = NULL;
        AVFrame *prog = NULL, *forced = NULL, *asprog = NULL, *in, *pin;
        char buf[256];
        int ret = 0, dev_tff, dev_prog;

        for (int f = 0; f < 2; f++) {
            AVFrame *u = field_frame(cases[i].in_fmt, 0, 1, f);
            ret |= cspfix_run1(u, fl, 1, &model[f]);
            av_frame_free(&u);
        }
        in = field_frame(cases[i].in_fmt, TFF, 0, 0);
        ret |= cspfix_run1(in, fl, 1, &tff1);
        ret |= cspfix_run1(in, fl, 3, &tff3);
        in->flags = BFF;
        ret |= cspfix_run1(in, fl, 1, &bff1);
        ret |= cspfix_run1(in, fl, 3, &bff3);
        if (ret < 0) {
            CHECK(0, "%s runs", fl);
            goto next;
        }
        dev_tff = field_dev(tff1, model);
        printf("  %-11s %-80s per-field deviation %d\n", av_get_pix_fmt_name(cases[i].in_fmt),
               fl, dev_tff);
        CHECK(dev_tff <= 1, "%s, tff: fields kept apart (max deviation %d from the "
              "per-field model, at most 1)", fl, dev_tff);
        CHECK(field_dev(bff1, model) <= 1, "%s, bff: fields kept apart (max deviation %d)",
              fl, field_dev(bff1, model));
        CHECK(cspfix_frames_equal(tff1, tff3) && cspfix_frames_equal(tff1, bff1) &&
              cspfix_frames_equal(tff1, bff3),
              "%s: tff and bff, threads 1 and 3 identical", fl);
        CHECK((tff1->flags & TFF) == TFF && (bff1->flags & TFF) == BFF,
              "%s: the output keeps the interlaced and field order flags", fl);

        /* interlace=interlaced on a frame flagged progressive: the same per-field result */
        pin = field_frame(cases[i].in_fmt, 0, 0, 0);
        with_opt(buf, sizeof(buf), fl, "interlace=interlaced");
        ret = cspfix_run1(pin, buf, 3, &forced);
        CHECK(!ret && cspfix_frames_equal(forced, tff1),
              "%s on a progressive frame = the interlaced frame's result", buf);

        /* a progressive frame, and interlace=progressive on an interlaced one: the
         * frame-wide resampling, byte for byte the same */
        ret = cspfix_run1(pin, fl, 1, &prog);
        with_opt(buf, sizeof(buf), fl, "interlace=progressive");
        ret |= cspfix_run1(in, buf, 3, &asprog);
        dev_prog = ret < 0 ? -1 : field_dev(prog, model);
        printf("  %-11s %-80s progressive deviation %d\n", av_get_pix_fmt_name(cases[i].in_fmt),
               fl, dev_prog);
        CHECK(!ret && cspfix_frames_equal(prog, asprog),
              "%s on an interlaced frame = a progressive frame's result", buf);
        av_frame_free(&pin);
next:
        av_frame_free(&in);
        av_frame_free(&model[0]);
        av_frame_free(&model[1]);
        av_frame_free(&tff1);
        av_frame_free(&tff3);
        av_frame_free(&bff1);
        av_frame_free(&bff3);
        av_frame_free(&prog);
        av_frame_free(&forced);
        av_frame_free(&asprog);
    }
}

/* The figures: chroma of the two fields at the centre of the frame,
 * SMPTE 170M -> BT.709, 4:2:0 -> 4:2:0 (tff) */
static void test_figures(void)
{
    AVFrame *in = field_frame(AV_PIX_FMT_YUV420P, TFF, 0, 0), *out = NULL;
    int ret = cspfix_run1(in, "cspfix=all=bt709", 1, &out);

    if (!ret) {
        const int k = AV_CEIL_RSHIFT(H, 1) / 2 & ~1, x = W / 4;
        printf("  4:2:0 tff smpte170m -> bt709: top field Cb %d Cr %d, bottom field Cb %d Cr %d\n",
               cspfix_sample(out, 1, x, k, 0), cspfix_sample(out, 2, x, k, 0),
               cspfix_sample(out, 1, x, k + 1, 0), cspfix_sample(out, 2, x, k + 1, 0));
        CHECK(abs(cspfix_sample(out, 1, x, k, 0) - cspfix_sample(out, 1, x, k + 1, 0)) > 60,
              "the two fields' Cb stay far apart");
    } else {
        CHECK(0, "cspfix=all=bt709 runs");
    }
    av_frame_free(&out);
    av_frame_free(&in);
}

/*
 * The siting of interlaced 4:2:0 (left): chroma row k at frame row 2k + 1/2, in field
 * k & 1, so a chroma ramp linear in frame position within each field is reproduced
 * exactly away from the field's edges: 4:2:0 -> 4:4:4 by linear interpolation between
 * rows of the field (top-field chroma 1/4, bottom-field 3/4 of the way between that
 * field's luma rows), 4:4:4 -> 4:2:0 by the tent filter (3 7 5 1)/16, (1 5 7 3)/16.
 * Top field Cb = 40 + 2 p, bottom field Cb = 200 - 2 p at frame position p; Cr = 128.
 */
static int ramp(int fld, double p)
{
    return lrint(fld ? 200 - 2 * p : 40 + 2 * p);
}

static void test_positions(void)
{
    AVFrame *in = field_frame(AV_PIX_FMT_YUV420P, TFF, 0, 0), *in444, *out = NULL, *out3 = NULL;
    const int ch = AV_CEIL_RSHIFT(H, 1);
    int dev = 0, rows = 0, ret;

    for (int k = 0; k < ch; k++)
        for (int x = 0; x < W / 2; x++) {
            cspfix_set_sample(in, 1, x, k, 0, ramp(k & 1, 2 * k + 0.5));
            cspfix_set_sample(in, 2, x, k, 0, 128);
        }
    ret = cspfix_run1(in, "cspfix=format=yuv444p", 1, &out) |
          cspfix_run1(in, "cspfix=format=yuv444p", 3, &out3);
    /* luma row y of field f between that field's first and last chroma positions */
    for (int y = 0; !ret && y < H; y++) {
        const int f = y & 1, first = f, last = ch - 1 - ((ch - 1 - f) & 1);
        if (y < 2 * first + 0.5 || y > 2 * last + 0.5)
            continue;
        rows++;
        for (int x = 0; x < W; x++)
            dev = FFMAX(dev, abs(cspfix_sample(out, 1, x, y, 0) - ramp(f, y)));
    }
    printf("  4:2:0 -> 4:4:4 per-field ramp: %d rows, max deviation %d\n", rows, dev);
    CHECK(!ret && rows > H / 2 && !dev && cspfix_frames_equal(out, out3),
          "4:2:0 -> 4:4:4: interlaced siting reproduced exactly (deviation %d, %d rows)", dev, rows);
    av_frame_free(&out);
    av_frame_free(&out3);

    in444 = field_frame(AV_PIX_FMT_YUV444P, BFF, 0, 0);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            cspfix_set_sample(in444, 1, x, y, 0, ramp(y & 1, y));
            cspfix_set_sample(in444, 2, x, y, 0, 128);
        }
    ret = cspfix_run1(in444, "cspfix=format=yuv420p", 1, &out) |
          cspfix_run1(in444, "cspfix=format=yuv420p", 3, &out3);
    dev = rows = 0;
    /* chroma row k whose taps (frame rows 2k - 3 .. 2k + 4 of its field) are inside */
    for (int k = 0; !ret && k < ch; k++) {
        const int lo = k & 1 ? 2 * k - 3 : 2 * k - 2, hi = k & 1 ? 2 * k + 3 : 2 * k + 4;
        if (lo < 0 || hi > H - 1)
            continue;
        rows++;
        for (int x = 0; x < W / 2; x++)
            dev = FFMAX(dev, abs(cspfix_sample(out, 1, x, k, 0) - ramp(k & 1, 2 * k + 0.5)));
    }
    printf("  4:4:4 -> 4:2:0 per-field ramp: %d rows, max deviation %d\n", rows, dev);
    CHECK(!ret && rows > ch / 2 && !dev && cspfix_frames_equal(out, out3),
          "4:4:4 -> 4:2:0: per-field tent filter centred on the interlaced siting (deviation %d, "
          "%d rows)", dev, rows);
    av_frame_free(&out);
    av_frame_free(&out3);
    av_frame_free(&in444);
    av_frame_free(&in);
}

/*
 * Matrix-only 8- and 10-bit 4:2:0 runs in integers (yuvint) with its own per-field
 * interpolation: on random samples its luma must agree with the float path's (the
 * same conversion to the semi-planar twin, nv12 or p010, which the integer path does
 * not take) within the integer path's rounding, and be far from the frame-wide
 * interpolation.
 */
static void test_yuvint(void)
{
    static const int fmts[] = { AV_PIX_FMT_YUV420P, AV_PIX_FMT_YUV420P10 };
    static const char *const locs[] = { "left", "topleft", "bottomleft", "center" };

    for (int i = 0; i < FF_ARRAY_ELEMS(fmts); i++)
        for (int l = 0; l < FF_ARRAY_ELEMS(locs); l++) {
            AVFrame *in = cspfix_alloc_frame(fmts[i], W, H, AVCOL_PRI_SMPTE170M, AVCOL_TRC_SMPTE170M,
                                             AVCOL_SPC_SMPTE170M, AVCOL_RANGE_MPEG);
            const int big = fmts[i] != AV_PIX_FMT_YUV420P, max = big ? 1023 : 255;
            AVFrame *oi = NULL, *of = NULL, *op = NULL, *o3 = NULL;
            unsigned seed = 7 + l;
            char fi[64], ff[128], fp[128];
            int ret, dev = 0, devp = 0, ndiff = 0;

            for (int p = 0; p < 3; p++)
                for (int y = 0; y < (p ? H / 2 : H); y++)
                    for (int x = 0; x < (p ? W / 2 : W); x++) {
                        seed = seed * 1103515245u + 12345u;
                        cspfix_set_sample(in, p, x, y, big, (seed >> 12) & max);
                    }
            in->flags = TFF;
            snprintf(fi, sizeof(fi), "cspfix=space=bt709:ichroma_loc=%s", locs[l]);
            snprintf(ff, sizeof(ff), "%s:format=%s", fi, big ? "p010le" : "nv12");
            snprintf(fp, sizeof(fp), "%s:interlace=progressive", fi);
            av_bprint_clear(&logbuf);
            av_log_set_level(AV_LOG_VERBOSE);
            ret = cspfix_run1(in, fi, 1, &oi) | cspfix_run1(in, fi, 3, &o3);
            av_log_set_level(AV_LOG_INFO);
            CHECK(strstr(logbuf.str, "integer)") != NULL, "%s %s takes the integer path",
                  av_get_pix_fmt_name(fmts[i]), fi);
            ret |= cspfix_run1(in, ff, 1, &of) | cspfix_run1(in, fp, 1, &op);
            for (int y = 0; !ret && y < H; y++)
                for (int x = 0; x < W; x++) {
                    /* p010 holds 10 bits in the high bits of 16 */
                    const int vf = cspfix_sample(of, 0, x, y, big) >> (big ? 6 : 0);
                    ndiff += cspfix_sample(oi, 0, x, y, big) != vf;
                    dev  = FFMAX(dev, abs(cspfix_sample(oi, 0, x, y, big) - vf));
                    devp = FFMAX(devp, abs(cspfix_sample(oi, 0, x, y, big) - cspfix_sample(op, 0, x, y, big)));
                }
            printf("  %-11s %-40s luma: integer vs float path %d (%d of %d samples differ), "
                   "vs frame-wide %d\n", av_get_pix_fmt_name(fmts[i]), fi, dev, ndiff, W * H, devp);
            CHECK(!ret && dev <= 1 && devp > 4 * (big ? 4 : 1) && cspfix_frames_equal(oi, o3),
                  "%s %s: the integer path interpolates per field as the float path does "
                  "(luma within %d of it, %d from frame-wide), threads 1 and 3 identical",
                  av_get_pix_fmt_name(fmts[i]), fi, dev, devp);
            av_frame_free(&oi);
            av_frame_free(&of);
            av_frame_free(&op);
            av_frame_free(&o3);
            av_frame_free(&in);
        }
}

/* small and odd sizes: a field may have one chroma row, or none (height <= 2) */
static void test_sizes(void)
{
    static const int sizes[][2] = { { 1, 1 }, { 2, 1 }, { 1, 2 }, { 2, 2 }, { 3, 3 }, { 1, 3 },
                                    { 4, 4 }, { 5, 5 }, { 33, 17 }, { 17, 33 }, { 8, 6 } };
    static const struct {
        int fmt;
        const char *filters;
    } conv[] = {
        { AV_PIX_FMT_YUV420P, "cspfix=all=bt709:interlace=interlaced" },
        { AV_PIX_FMT_YUV420P, "cspfix=space=bt709:interlace=interlaced" },
        { AV_PIX_FMT_YUV420P, "cspfix=format=yuv444p:interlace=interlaced" },
        { AV_PIX_FMT_YUV444P, "cspfix=all=bt709:format=yuv420p:interlace=interlaced" },
        { AV_PIX_FMT_YUV444P, "cspfix=format=yuv420p:chroma_loc=topleft:interlace=interlaced" },
        { AV_PIX_FMT_YUV444P, "cspfix=format=yuv420p:chroma_loc=bottom:interlace=interlaced" },
    };

    for (int i = 0; i < FF_ARRAY_ELEMS(sizes); i++)
        for (int j = 0; j < FF_ARRAY_ELEMS(conv); j++) {
            const int w = sizes[i][0], h = sizes[i][1];
            AVFrame *in = cspfix_alloc_frame(conv[j].fmt, w, h, AVCOL_PRI_SMPTE170M,
                                             AVCOL_TRC_SMPTE170M, AVCOL_SPC_SMPTE170M,
                                             AVCOL_RANGE_MPEG), *o1 = NULL, *o3 = NULL;
            const AVPixFmtDescriptor *d = av_pix_fmt_desc_get(conv[j].fmt);
            int ret;

            for (int p = 0; p < 3; p++)
                for (int y = 0; y < (p ? AV_CEIL_RSHIFT(h, d->log2_chroma_h) : h); y++)
                    for (int x = 0; x < (p ? AV_CEIL_RSHIFT(w, d->log2_chroma_w) : w); x++)
                        cspfix_set_sample(in, p, x, y, 0, !p ? LUMA : (p == 1) == (y & 1) ? 166 : 90);
            in->flags = TFF;
            ret = cspfix_run1(in, conv[j].filters, 1, &o1) | cspfix_run1(in, conv[j].filters, 3, &o3);
            CHECK(!ret && o1->width == w && o1->height == h && cspfix_frames_equal(o1, o3),
                  "%dx%d %s: %s converts, threads 1 and 3 identical", w, h,
                  av_get_pix_fmt_name(conv[j].fmt), conv[j].filters);
            av_frame_free(&o1);
            av_frame_free(&o3);
            av_frame_free(&in);
        }
}

static void test_log(void)
{
    AVFrame *in = field_frame(AV_PIX_FMT_YUV420P, TFF, 0, 0), *out = NULL;

    av_log_set_level(AV_LOG_VERBOSE);
    av_bprint_clear(&logbuf);
    cspfix_run1(in, "cspfix=all=bt709", 1, &out);
    CHECK(strstr(logbuf.str, "vertical chroma resampling: per field (interlaced)") != NULL,
          "the verbose plan says per field for an interlaced frame [%s]", logbuf.str);
    av_frame_free(&out);
    av_bprint_clear(&logbuf);
    cspfix_run1(in, "cspfix=all=bt709:interlace=progressive", 1, &out);
    CHECK(strstr(logbuf.str, "vertical chroma resampling: over the frame (progressive)") != NULL,
          "the verbose plan says over the frame with interlace=progressive");
    av_frame_free(&out);
    av_bprint_clear(&logbuf);
    cspfix_run1(in, "cspfix=interlace=sideways", 1, &out);
    CHECK(!out && strstr(logbuf.str, "sideways") != NULL, "an unknown interlace value is named");
    av_frame_free(&out);
    av_log_set_level(AV_LOG_INFO);
    av_frame_free(&in);
}

int main(void)
{
    av_bprint_init(&logbuf, 0, AV_BPRINT_SIZE_UNLIMITED);
    av_log_set_callback(log_cb);
    av_log_set_level(AV_LOG_INFO);
    test_figures();
    test_fields();
    test_positions();
    test_sizes();
    test_yuvint();
    test_log();
    printf("interlace: %d passed, %d failed\n", passed, failed);
    av_bprint_finalize(&logbuf, NULL);
    return failed ? 1 : 0;
}
