/*
 * cspfix format tests: every layout, alpha, gray, float, chroma siting, dither
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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libavutil/common.h>
#include <libavutil/intreadwrite.h>
#include <libavutil/log.h>
#include <libavutil/pixdesc.h>

#include "cspfix_refmodel.h"
#include "cspfix_testutil.h"

#include "cspfix_check.h"

/* Every format the filter takes, with its planar equivalent (same samples, planar layout). */
static const struct { enum AVPixelFormat fmt, planar; } formats[] = {
    { AV_PIX_FMT_YUV420P,    AV_PIX_FMT_YUV420P },   { AV_PIX_FMT_YUV422P,   AV_PIX_FMT_YUV422P },
    { AV_PIX_FMT_YUV444P,    AV_PIX_FMT_YUV444P },   { AV_PIX_FMT_YUV420P10, AV_PIX_FMT_YUV420P10 },
    { AV_PIX_FMT_YUV422P10,  AV_PIX_FMT_YUV422P10 }, { AV_PIX_FMT_YUV444P10, AV_PIX_FMT_YUV444P10 },
    { AV_PIX_FMT_YUV420P12,  AV_PIX_FMT_YUV420P12 }, { AV_PIX_FMT_YUV444P12, AV_PIX_FMT_YUV444P12 },
    { AV_PIX_FMT_YUV420P16,  AV_PIX_FMT_YUV420P16 }, { AV_PIX_FMT_YUV444P16, AV_PIX_FMT_YUV444P16 },
    { AV_PIX_FMT_YUVA420P,   AV_PIX_FMT_YUVA420P },  { AV_PIX_FMT_YUVA422P,  AV_PIX_FMT_YUVA422P },
    { AV_PIX_FMT_YUVA444P,   AV_PIX_FMT_YUVA444P },  { AV_PIX_FMT_YUVA420P10, AV_PIX_FMT_YUVA420P10 },
    { AV_PIX_FMT_YUVA444P10, AV_PIX_FMT_YUVA444P10 },
    { AV_PIX_FMT_NV12,       AV_PIX_FMT_YUV420P },   { AV_PIX_FMT_NV21,      AV_PIX_FMT_YUV420P },
    { AV_PIX_FMT_NV16,       AV_PIX_FMT_YUV422P },   { AV_PIX_FMT_NV24,      AV_PIX_FMT_YUV444P },
    { AV_PIX_FMT_P010LE,     AV_PIX_FMT_YUV420P10 }, { AV_PIX_FMT_P012LE,    AV_PIX_FMT_YUV420P12 },
    { AV_PIX_FMT_P016LE,     AV_PIX_FMT_YUV420P16 }, { AV_PIX_FMT_P210LE,    AV_PIX_FMT_YUV422P10 },
    { AV_PIX_FMT_GBRP,       AV_PIX_FMT_GBRP },      { AV_PIX_FMT_GBRP10,    AV_PIX_FMT_GBRP10 },
    { AV_PIX_FMT_GBRP12,     AV_PIX_FMT_GBRP12 },    { AV_PIX_FMT_GBRP16,    AV_PIX_FMT_GBRP16 },
    { AV_PIX_FMT_GBRAP,      AV_PIX_FMT_GBRAP },     { AV_PIX_FMT_GBRAP10,   AV_PIX_FMT_GBRAP10 },
    { AV_PIX_FMT_GBRAP12,    AV_PIX_FMT_GBRAP12 },   { AV_PIX_FMT_GBRAP16,   AV_PIX_FMT_GBRAP16 },
    { AV_PIX_FMT_RGB24,      AV_PIX_FMT_GBRP },      { AV_PIX_FMT_BGR24,     AV_PIX_FMT_GBRP },
    { AV_PIX_FMT_RGBA,       AV_PIX_FMT_GBRAP },     { AV_PIX_FMT_BGRA,      AV_PIX_FMT_GBRAP },
    { AV_PIX_FMT_ARGB,       AV_PIX_FMT_GBRAP },     { AV_PIX_FMT_ABGR,      AV_PIX_FMT_GBRAP },
    { AV_PIX_FMT_RGB48LE,    AV_PIX_FMT_GBRP16 },    { AV_PIX_FMT_RGBA64LE,  AV_PIX_FMT_GBRAP16 },
    { AV_PIX_FMT_X2RGB10LE,  AV_PIX_FMT_GBRP10 },
    { AV_PIX_FMT_GBRPF32LE,  AV_PIX_FMT_GBRPF32LE }, { AV_PIX_FMT_GBRAPF32LE, AV_PIX_FMT_GBRAPF32LE },
    { AV_PIX_FMT_GRAY8,      AV_PIX_FMT_GRAY8 },     { AV_PIX_FMT_GRAY10LE,  AV_PIX_FMT_GRAY10LE },
    { AV_PIX_FMT_GRAY16LE,   AV_PIX_FMT_GRAY16LE },
};
#define NB_FORMATS (int)(sizeof(formats) / sizeof(formats[0]))

/* the filter's own list (libavfilter/cspfix_io.c) */
const enum AVPixelFormat *ff_cspfix_pix_fmts(void);

static int is_rgb(enum AVPixelFormat f)   { return !!(av_pix_fmt_desc_get(f)->flags & AV_PIX_FMT_FLAG_RGB); }
static int is_float(enum AVPixelFormat f) { return !!(av_pix_fmt_desc_get(f)->flags & AV_PIX_FMT_FLAG_FLOAT); }
static int is_gray(enum AVPixelFormat f)  { return av_pix_fmt_desc_get(f)->nb_components <= 2; }

/* Component values as uint32 (float samples as their bit patterns). */
/* av_read/write_image_line2() read pixel 0 for bit-stream components of 32-bit words
 * (xv30be): those by hand, one big-endian word a pixel */
static int word32(const AVPixFmtDescriptor *d, int c)
{
    return (d->flags & AV_PIX_FMT_FLAG_BITSTREAM) && d->comp[c].step > 8;
}

static uint32_t get(const AVFrame *f, int c, int x, int y)
{
    const AVPixFmtDescriptor *d = av_pix_fmt_desc_get(f->format);
    uint32_t v;
    if (word32(d, c)) {
        const uint8_t *p = f->data[0] + (ptrdiff_t)y * f->linesize[0] + 4 * x;
        return (AV_RB32(p) >> d->comp[c].offset) & ((1u << d->comp[c].depth) - 1);
    }
    av_read_image_line2(&v, (const uint8_t **)f->data, f->linesize, d, x, y, c, 1, 0, 4);
    return v;
}

static void put(AVFrame *f, int c, int x, int y, uint32_t v)
{
    const AVPixFmtDescriptor *d = av_pix_fmt_desc_get(f->format);
    if (word32(d, c)) {
        uint8_t *p = f->data[0] + (ptrdiff_t)y * f->linesize[0] + 4 * x;
        const uint32_t m = ((1u << d->comp[c].depth) - 1) << d->comp[c].offset;
        AV_WB32(p, (AV_RB32(p) & ~m) | (v << d->comp[c].offset & m));
        return;
    }
    av_write_image_line2(&v, f->data, f->linesize, d, x, y, c, 1, 4);
}

static int comp_w(const AVFrame *f, int c)
{
    const AVPixFmtDescriptor *d = av_pix_fmt_desc_get(f->format);
    return (c == 1 || c == 2) && !(d->flags & AV_PIX_FMT_FLAG_RGB) ?
           AV_CEIL_RSHIFT(f->width, d->log2_chroma_w) : f->width;
}

static int comp_h(const AVFrame *f, int c)
{
    const AVPixFmtDescriptor *d = av_pix_fmt_desc_get(f->format);
    return (c == 1 || c == 2) && !(d->flags & AV_PIX_FMT_FLAG_RGB) ?
           AV_CEIL_RSHIFT(f->height, d->log2_chroma_h) : f->height;
}

static AVFrame *make(enum AVPixelFormat fmt, int w, int h, unsigned seed)
{
    const AVPixFmtDescriptor *d = av_pix_fmt_desc_get(fmt);
    const int rgb = is_rgb(fmt);
    AVFrame *f = cspfix_alloc_frame(fmt, w, h, AVCOL_PRI_BT709,
                                    rgb ? AVCOL_TRC_IEC61966_2_1 : AVCOL_TRC_BT709,
                                    rgb ? AVCOL_SPC_RGB : AVCOL_SPC_BT709,
                                    rgb ? AVCOL_RANGE_JPEG : AVCOL_RANGE_MPEG);
    for (int c = 0; c < d->nb_components; c++)
        for (int y = 0; y < comp_h(f, c); y++)
            for (int x = 0; x < comp_w(f, c); x++) {
                uint32_t v;
                seed = seed * 1664525u + 1013904223u;
                if (is_float(fmt) && d->comp[c].depth == 16) {
                    v = ((seed >> 8) & 0xffff) % 0x3c01; /* half floats 0 .. 1 */
                } else if (is_float(fmt)) {
                    float fv = ((seed >> 8) & 0xffff) / 60000.0f - 0.05f; /* a little outside 0..1 */
                    memcpy(&v, &fv, 4);
                } else {
                    v = (seed >> 8) & ((1u << d->comp[c].depth) - 1);
                }
                put(f, c, x, y, v);
            }
    return f;
}

/* Same samples in another layout. */
static AVFrame *relayout(const AVFrame *src, enum AVPixelFormat fmt)
{
    AVFrame *f = cspfix_alloc_frame(fmt, src->width, src->height, src->color_primaries,
                                    src->color_trc, src->colorspace, src->color_range);
    for (int c = 0; c < av_pix_fmt_desc_get(fmt)->nb_components; c++)
        for (int y = 0; y < comp_h(f, c); y++)
            for (int x = 0; x < comp_w(f, c); x++)
                put(f, c, x, y, get(src, c, x, y));
    return f;
}

static int same_samples(const AVFrame *a, const AVFrame *b)
{
    const int n = av_pix_fmt_desc_get(a->format)->nb_components;
    if (n != av_pix_fmt_desc_get(b->format)->nb_components ||
        a->width != b->width || a->height != b->height)
        return 0;
    for (int c = 0; c < n; c++)
        for (int y = 0; y < comp_h(a, c); y++)
            for (int x = 0; x < comp_w(a, c); x++)
                if (get(a, c, x, y) != get(b, c, x, y))
                    return 0;
    return 1;
}

/* input family x output family, and layouts equal to their planar equivalents */
static void test_matrix(void)
{
    int runs = 0, bad = 0, layout_bad = 0, checks = 0;

    for (int i = 0; i < NB_FORMATS; i++) {
        AVFrame *in = make(formats[i].fmt, 34, 18, 100 + i);
        AVFrame *inp = relayout(in, formats[i].planar);
        for (int o = 0; o < NB_FORMATS; o++) {
            char filt[128];
            AVFrame *out = NULL, *outp = NULL;
            const int expect_err = is_gray(formats[o].fmt) && !is_gray(formats[i].fmt);
            int ret;

            snprintf(filt, sizeof(filt), "cspfix=all=bt2020:format=%s:dither=none",
                     av_get_pix_fmt_name(formats[o].fmt));
            ret = cspfix_run1(in, filt, 1, &out);
            runs++;
            if (expect_err ? ret >= 0 : ret < 0 || out->format != formats[o].fmt ||
                out->width != 34 || out->height != 18) {
                bad++;
                printf("  %s -> %s: %s\n", av_get_pix_fmt_name(formats[i].fmt),
                       av_get_pix_fmt_name(formats[o].fmt), ret < 0 ? av_err2str(ret) : "wrong frame");
            }
            /* planar-equivalent input to planar-equivalent output gives the same samples */
            if (!expect_err && ret >= 0 &&
                (formats[i].planar != formats[i].fmt || formats[o].planar != formats[o].fmt)) {
                snprintf(filt, sizeof(filt), "cspfix=all=bt2020:format=%s:dither=none",
                         av_get_pix_fmt_name(formats[o].planar));
                if (cspfix_run1(inp, filt, 1, &outp) >= 0) {
                    AVFrame *rl = relayout(out, formats[o].planar);
                    checks++;
                    if (!same_samples(rl, outp)) {
                        layout_bad++;
                        printf("  %s -> %s differs from %s -> %s\n",
                               av_get_pix_fmt_name(formats[i].fmt), av_get_pix_fmt_name(formats[o].fmt),
                               av_get_pix_fmt_name(formats[i].planar), av_get_pix_fmt_name(formats[o].planar));
                    }
                    av_frame_free(&rl);
                }
            }
            av_frame_free(&out);
            av_frame_free(&outp);
        }
        av_frame_free(&in);
        av_frame_free(&inp);
    }
    CHECK(!bad, "format matrix: %d of %d input x output runs wrong", bad, runs);
    CHECK(!layout_bad && checks > 500, "packed/semi-planar equal planar: %d of %d differ",
          layout_bad, checks);
    printf("format matrix: %d formats, %d runs, %d layout comparisons\n", NB_FORMATS, runs, checks);
}

static void test_alpha(void)
{
    AVFrame *in = make(AV_PIX_FMT_YUVA420P, 34, 18, 7), *out;
    int ok = 1;

    cspfix_run1(in, "cspfix=all=bt2020:format=yuva420p10", 1, &out);
    for (int y = 0; y < 18; y++)
        for (int x = 0; x < 34; x++)
            ok &= get(out, 3, x, y) == (uint32_t)lrint(get(in, 3, x, y) * 1023.0 / 255.0);
    CHECK(ok, "alpha rescaled 8 -> 10 bit, never colour-converted");
    av_frame_free(&out);

    cspfix_run1(in, "cspfix=all=bt2020:format=yuva420p", 1, &out);
    ok = 1;
    for (int y = 0; y < 18; y++)
        for (int x = 0; x < 34; x++)
            ok &= get(out, 3, x, y) == get(in, 3, x, y);
    CHECK(ok, "alpha bit-identical at the same depth");
    av_frame_free(&out);
    av_frame_free(&in);

    in = make(AV_PIX_FMT_YUV420P, 34, 18, 8);
    cspfix_run1(in, "cspfix=format=rgba", 1, &out);
    ok = 1;
    for (int y = 0; y < 18; y++)
        for (int x = 0; x < 34; x++)
            ok &= get(out, 3, x, y) == 255;
    CHECK(ok, "alpha-less input gives opaque alpha");
    av_frame_free(&out);
    av_frame_free(&in);
}

static void test_float(void)
{
    AVFrame *in = cspfix_alloc_frame(AV_PIX_FMT_GBRPF32LE, 4, 2, AVCOL_PRI_BT709,
                                     AVCOL_TRC_LINEAR, AVCOL_SPC_RGB, AVCOL_RANGE_JPEG), *out;
    const float vals[4] = { -0.25f, 0.5f, 1.0f, 2.0f };
    int ok;

    for (int c = 0; c < 3; c++)
        for (int y = 0; y < 2; y++)
            for (int x = 0; x < 4; x++) {
                uint32_t v;
                memcpy(&v, &vals[x], 4);
                put(in, c, x, y, v);
            }
    cspfix_run1(in, "cspfix=trc=bt709", 1, &out);
    {
        uint32_t b0 = get(out, 0, 0, 0), b3 = get(out, 0, 3, 0);
        float f0, f3;
        memcpy(&f0, &b0, 4);
        memcpy(&f3, &b3, 4);
        ok = f0 < 0.0f && f3 > 1.0f;
        CHECK(ok, "float keeps values outside 0..1 (%f, %f)", f0, f3);
    }
    av_frame_free(&out);
    av_frame_free(&in);

    /* float32 -> half: round to nearest, ties to even; subnormals; overflow to infinity */
    {
        static const struct { float v; uint32_t h; } cases[] = {
            { 1.0f + 1.0f / 2048, 0x3c00 },     /* tie: to the even 1.0 */
            { 1.0f + 3.0f / 2048, 0x3c02 },     /* tie: to the even mantissa 2 */
            { 1.0f + 1.5f / 2048, 0x3c01 },     /* above the tie */
            { -0.5f, 0xb800 }, { 0.0f, 0x0000 },
            { 5.9604645e-8f, 0x0001 },          /* 2^-24, the smallest subnormal */
            { 2.9802322e-8f, 0x0000 },          /* 2^-25: tie to even 0 */
            { 65504.0f, 0x7bff }, { 65520.0f, 0x7c00 }, /* largest, and to infinity */
        };
        const int n = FF_ARRAY_ELEMS(cases);
        AVFrame *fin = cspfix_alloc_frame(AV_PIX_FMT_GBRPF32LE, n, 1, AVCOL_PRI_BT709,
                                          AVCOL_TRC_LINEAR, AVCOL_SPC_RGB, AVCOL_RANGE_JPEG), *fo = NULL;
        ok = 1;
        for (int c = 0; c < 3; c++)
            for (int x = 0; x < n; x++) {
                uint32_t v;
                memcpy(&v, &cases[x].v, 4);
                put(fin, c, x, 0, v);
            }
        cspfix_run1(fin, "cspfix=format=gbrpf16le", 1, &fo);
        for (int c = 0; c < 3 && fo; c++)
            for (int x = 0; x < n; x++)
                if (get(fo, c, x, 0) != cases[x].h) {
                    ok = 0;
                    printf("  %g -> half 0x%04x, expected 0x%04x\n", cases[x].v,
                           (unsigned)get(fo, c, x, 0), (unsigned)cases[x].h);
                }
        CHECK(fo && ok, "float32 -> half float: nearest even, subnormals, overflow");
        av_frame_free(&fo);
        av_frame_free(&fin);
    }
}

/* 4:2:0 -> 4:4:4 with each siting: the upsampled chroma against the reference model's */
static void test_siting(void)
{
    static const char *const names[] = { "left", "center", "topleft", "top", "bottomleft", "bottom" };
    static const int locs[] = { AVCHROMA_LOC_LEFT, AVCHROMA_LOC_CENTER, AVCHROMA_LOC_TOPLEFT,
                                AVCHROMA_LOC_TOP, AVCHROMA_LOC_BOTTOMLEFT, AVCHROMA_LOC_BOTTOM };
    double cb[16 * 16], cr[16 * 16];

    /* a sharp vertical edge in Cb at chroma column 8, a horizontal one in Cr at row 8 */
    for (int y = 0; y < 16; y++)
        for (int x = 0; x < 16; x++) {
            cb[y * 16 + x] = x < 8 ? 40 : 220;
            cr[y * 16 + x] = y < 8 ? 60 : 200;
        }
    for (int l = 0; l < 6; l++) {
        AVFrame *in = cspfix_alloc_frame(AV_PIX_FMT_YUV420P, 32, 32, AVCOL_PRI_BT709, AVCOL_TRC_BT709,
                                         AVCOL_SPC_BT709, AVCOL_RANGE_MPEG), *out;
        int ok = 1;
        in->chroma_location = locs[l];
        for (int y = 0; y < 32; y++)
            for (int x = 0; x < 32; x++)
                put(in, 0, x, y, 128);
        for (int y = 0; y < 16; y++)
            for (int x = 0; x < 16; x++) {
                put(in, 1, x, y, cb[y * 16 + x]);
                put(in, 2, x, y, cr[y * 16 + x]);
            }
        cspfix_run1(in, "cspfix=format=yuv444p", 1, &out);
        for (int y = 0; y < 32 && out; y++)
            for (int x = 0; x < 32; x++) {
                double rb = ref_chroma_upsample(cb, 16, 16, locs[l], x, y);
                double rr = ref_chroma_upsample(cr, 16, 16, locs[l], x, y);
                ok &= get(out, 1, x, y) == (uint32_t)floor(rb + 0.5) &&
                      get(out, 2, x, y) == (uint32_t)floor(rr + 0.5) &&
                      out->chroma_location == locs[l];
            }
        CHECK(out && ok, "4:2:0 -> 4:4:4 edge at the right position with siting %s", names[l]);
        av_frame_free(&out);
        av_frame_free(&in);
    }
}

/* 4:1:0 and 4:1:1 -> 4:4:4: chroma sample j sits at luma 4j (left, top), 4j + 1.5 (centre)
 * or 4j + 3 (bottom); between samples the value is linear, at the edges it repeats. With
 * ramps in Cb (horizontal) and Cr (vertical) the upsampled values follow the positions. */
static double ramp_at(double pos, int n)
{
    /* ramp 16 + 16 j over n samples, linear in j, edges held */
    const double j = av_clipd(pos, 0, n - 1);
    return 16 + 16 * j;
}

static void test_siting4(void)
{
    static const struct { int loc; double ox, oy; const char *name; } locs[] = {
        { AVCHROMA_LOC_LEFT,    0.0, 1.5, "left" },   { AVCHROMA_LOC_CENTER,  1.5, 1.5, "center" },
        { AVCHROMA_LOC_TOPLEFT, 0.0, 0.0, "topleft" }, { AVCHROMA_LOC_BOTTOM,  1.5, 3.0, "bottom" },
    };
    static const enum AVPixelFormat fmts[] = { AV_PIX_FMT_YUV410P, AV_PIX_FMT_YUV411P };

    for (int f = 0; f < 2; f++)
        for (int l = 0; l < FF_ARRAY_ELEMS(locs); l++) {
            const int vs = fmts[f] == AV_PIX_FMT_YUV410P;
            AVFrame *in = cspfix_alloc_frame(fmts[f], 32, 32, AVCOL_PRI_BT709, AVCOL_TRC_BT709,
                                             AVCOL_SPC_BT709, AVCOL_RANGE_MPEG), *out = NULL;
            int ok = 1;
            in->chroma_location = locs[l].loc;
            for (int y = 0; y < 32; y++)
                for (int x = 0; x < 32; x++)
                    put(in, 0, x, y, 128);
            for (int y = 0; y < (vs ? 8 : 32); y++)
                for (int x = 0; x < 8; x++) {
                    put(in, 1, x, y, 16 + 16 * x);
                    put(in, 2, x, y, vs ? 16 + 16 * y : 100);
                }
            cspfix_run1(in, "cspfix=format=yuv444p:dither=none", 1, &out);
            for (int y = 0; y < 32 && out; y++)
                for (int x = 0; x < 32; x++) {
                    const double cb = ramp_at((x - locs[l].ox) / 4, 8);
                    const double cr = vs ? ramp_at((y - locs[l].oy) / 4, 8) : 100;
                    ok &= get(out, 1, x, y) == (uint32_t)floor(cb + 0.5) &&
                          get(out, 2, x, y) == (uint32_t)floor(cr + 0.5);
                }
            CHECK(out && ok, "%s -> 4:4:4: chroma at the %s positions", av_get_pix_fmt_name(fmts[f]),
                  locs[l].name);
            av_frame_free(&out);
            av_frame_free(&in);
        }
}

/* 4:4:4 -> 4:1:0: the tent over (-4, 4) around each chroma position keeps a ramp's
 * value at that position (interior samples; the edges repeat) */
static void test_downsample4(void)
{
    static const struct { int loc; double ox, oy; const char *name; } locs[] = {
        { AVCHROMA_LOC_LEFT, 0.0, 1.5, "left" }, { AVCHROMA_LOC_CENTER, 1.5, 1.5, "center" },
        { AVCHROMA_LOC_TOPLEFT, 0.0, 0.0, "topleft" }, { AVCHROMA_LOC_BOTTOM, 1.5, 3.0, "bottom" },
    };
    for (int l = 0; l < FF_ARRAY_ELEMS(locs); l++) {
        AVFrame *in = cspfix_alloc_frame(AV_PIX_FMT_YUV444P, 32, 32, AVCOL_PRI_BT709, AVCOL_TRC_BT709,
                                         AVCOL_SPC_BT709, AVCOL_RANGE_MPEG), *out = NULL;
        char filt[96];
        int ok = 1;
        for (int y = 0; y < 32; y++)
            for (int x = 0; x < 32; x++) {
                put(in, 0, x, y, 128);
                put(in, 1, x, y, 20 + 2 * x);
                put(in, 2, x, y, 20 + 2 * y);
            }
        snprintf(filt, sizeof(filt), "cspfix=format=yuv410p:dither=none:chroma_loc=%s", locs[l].name);
        cspfix_run1(in, filt, 1, &out);
        for (int r = 1; r < 7 && out; r++)
            for (int j = 1; j < 7; j++)
                ok &= get(out, 1, j, r) == (uint32_t)floor(20 + 2 * (4 * j + locs[l].ox) + 0.5) &&
                      get(out, 2, j, r) == (uint32_t)floor(20 + 2 * (4 * r + locs[l].oy) + 0.5);
        CHECK(out && ok, "4:4:4 -> 4:1:0 with siting %s: the ramp's value at each chroma position",
              locs[l].name);
        av_frame_free(&out);
        av_frame_free(&in);
    }
}

/* longest run of adjacent columns that are identical in every row: a visible band */
static int longest_band(const AVFrame *f, int w, int h)
{
    int longest = 1, run = 1;
    for (int x = 1; x < w; x++) {
        int same = 1;
        for (int y = 0; y < h && same; y++)
            same = get(f, 0, x, y) == get(f, 0, x - 1, y);
        run = same ? run + 1 : 1;
        longest = FFMAX(longest, run);
    }
    return longest;
}

static void test_dither(void)
{
    /* a smooth 10-bit ramp (1/8 of an 8-bit step per column) reduced to 8 bit */
    const int w = 1024, h = 64;
    AVFrame *in = cspfix_alloc_frame(AV_PIX_FMT_YUV444P10, w, h, AVCOL_PRI_BT709, AVCOL_TRC_BT709,
                                     AVCOL_SPC_BT709, AVCOL_RANGE_JPEG), *out;
    double sum_err = 0;
    int band_dither, band_none;

    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            put(in, 0, x, y, 256 + x / 2);
            put(in, 1, x, y, 512);
            put(in, 2, x, y, 512);
        }
    cspfix_run1(in, "cspfix=format=yuv444p:dither=ordered", 1, &out);
    band_dither = longest_band(out, w, h);
    for (int x = 0; x < w; x++) {
        double mean = 0, ref = (256 + x / 2) * 255.0 / 1023.0;
        for (int y = 0; y < h; y++)
            mean += get(out, 0, x, y);
        sum_err += mean / h - ref;
    }
    av_frame_free(&out);

    cspfix_run1(in, "cspfix=format=yuv444p:dither=none", 1, &out);
    band_none = longest_band(out, w, h);
    av_frame_free(&out);

    {
        double ed_err = 0;
        int band_ed;
        cspfix_run1(in, "cspfix=format=yuv444p:dither=ed", 1, &out);
        band_ed = longest_band(out, w, h);
        for (int x = 0; x < w; x++) {
            double mean = 0, ref = (256 + x / 2) * 255.0 / 1023.0;
            for (int y = 0; y < h; y++)
                mean += get(out, 0, x, y);
            ed_err += mean / h - ref;
        }
        CHECK(2 * band_ed <= band_none && fabs(ed_err / w) < 0.1,
              "error diffusion breaks the bands (%d) and keeps the mean (%.4f LSB)", band_ed, ed_err / w);
        printf("dither=ed: widest band %d columns, mean error %.4f LSB\n", band_ed, ed_err / w);
        av_frame_free(&out);
    }

    /* an 8-bit step spans 8 columns of the ramp: rounding makes bands that wide */
    CHECK(band_none >= 7, "dither=none rounds: bands of %d columns", band_none);
    /* one 10-bit code spans 2 columns; codes that land on an 8-bit value stay flat */
    CHECK(band_dither <= 3, "ordered dither breaks the bands: widest %d columns", band_dither);
    CHECK(fabs(sum_err / w) < 0.1, "ordered dither keeps the mean: %.4f LSB", sum_err / w);
    printf("dither: widest band %d columns (dither=none: %d), mean error %.4f LSB\n",
           band_dither, band_none, sum_err / w);
    av_frame_free(&in);
}

/* ---- every format the filter takes, against its planar equivalent ---- */

static int is_half(enum AVPixelFormat f)
{
    return is_float(f) && av_pix_fmt_desc_get(f)->comp[0].depth == 16;
}

static float half_value(uint32_t h)
{
    const int e = (h >> 10) & 31, m = h & 1023;
    const float v = e ? ldexpf(m + 1024, e - 25) : ldexpf(m, -24);
    return h & 0x8000 ? -v : v;
}

/* largest colour depth; 0 when the colour components differ in depth (rgb565) */
static int equal_depth(enum AVPixelFormat f)
{
    const AVPixFmtDescriptor *d = av_pix_fmt_desc_get(f);
    const int n = d->nb_components >= 3 ? 3 : 1;
    for (int c = 1; c < n; c++)
        if (d->comp[c].depth != d->comp[0].depth)
            return 0;
    return d->comp[0].depth;
}

/* The planar format with the same samples (colour components only for gray + alpha);
 * AV_PIX_FMT_NONE when there is none. */
static enum AVPixelFormat planar_equiv(enum AVPixelFormat f)
{
    const AVPixFmtDescriptor *d = av_pix_fmt_desc_get(f);
    const int alpha = !!(d->flags & AV_PIX_FMT_FLAG_ALPHA), depth = equal_depth(f);
    static const char *const sub[3][3] = { { "444", "440", NULL }, { "422", "420", NULL },
                                           { "411", NULL, "410" } };
    char name[32], bits[16] = "";

    if (!depth || depth < 8 || d->log2_chroma_w > 2 || d->log2_chroma_h > 2)
        return AV_PIX_FMT_NONE;
    if (depth > 8 && !is_float(f))
        snprintf(bits, sizeof(bits), "%dle", depth);
    if (is_float(f))
        snprintf(name, sizeof(name), "%s%s", d->nb_components <= 2 ? "grayf" :
                 alpha ? "gbrapf" : "gbrpf", depth == 16 ? "16le" : "32le");
    else if (d->nb_components <= 2)
        snprintf(name, sizeof(name), "gray%s", bits);
    else if (is_rgb(f))
        snprintf(name, sizeof(name), "gbr%sp%s", alpha ? "a" : "", bits);
    else if (sub[d->log2_chroma_w][d->log2_chroma_h])
        snprintf(name, sizeof(name), "yuv%s%sp%s", alpha ? "a" : "",
                 sub[d->log2_chroma_w][d->log2_chroma_h], bits);
    else
        return AV_PIX_FMT_NONE;
    return av_get_pix_fmt(name);
}

/* Same samples in the planar equivalent (half floats as float32 values). */
static AVFrame *to_planar(const AVFrame *src, enum AVPixelFormat p)
{
    const int n = FFMIN(av_pix_fmt_desc_get(src->format)->nb_components,
                        av_pix_fmt_desc_get(p)->nb_components);
    AVFrame *f = cspfix_alloc_frame(p, src->width, src->height, src->color_primaries,
                                    src->color_trc, src->colorspace, src->color_range);
    for (int c = 0; c < n; c++)
        for (int y = 0; y < comp_h(f, c); y++)
            for (int x = 0; x < comp_w(f, c); x++) {
                uint32_t v = get(src, c, x, y);
                if (is_half(src->format) && !is_half(p)) {
                    const float fv = half_value(v);
                    memcpy(&v, &fv, 4);
                }
                put(f, c, x, y, v);
            }
    return f;
}

/* colour components of a (in its planar equivalent) against b; half floats within
 * half-float rounding of b's float32 */
static int same_colour(const AVFrame *a, const AVFrame *b)
{
    const int n = av_pix_fmt_desc_get(a->format)->nb_components >= 3 ? 3 : 1;
    AVFrame *pa = to_planar(a, b->format);
    int ok = 1;

    for (int c = 0; c < n && ok; c++)
        for (int y = 0; y < comp_h(b, c); y++)
            for (int x = 0; x < comp_w(b, c); x++) {
                const uint32_t va = get(pa, c, x, y), vb = get(b, c, x, y);
                if (is_half(a->format) && !is_half(b->format)) {
                    float fa, fb;
                    memcpy(&fa, &va, 4);
                    memcpy(&fb, &vb, 4);
                    ok &= fabsf(fa - fb) <= fabsf(fb) / 2048.0f + 1e-7f;
                } else {
                    ok &= va == vb;
                }
            }
    av_frame_free(&pa);
    return ok;
}

static int same_alpha(const AVFrame *a, const AVFrame *b)
{
    const int ca = av_pix_fmt_desc_get(a->format)->nb_components - 1;
    const int cb = av_pix_fmt_desc_get(b->format)->nb_components - 1;
    for (int y = 0; y < a->height; y++)
        for (int x = 0; x < a->width; x++)
            if (get(a, ca, x, y) != get(b, cb, x, y))
                return 0;
    return 1;
}

static void test_all_formats(void)
{
    const enum AVPixelFormat *list = ff_cspfix_pix_fmts();
    int nb = 0, run_bad = 0, auto_in = 0, auto_out = 0, in_bad = 0, out_bad = 0;
    int in_cmp = 0, out_cmp = 0, alpha_bad = 0, alpha_cmp = 0, no_equiv = 0;

    for (int i = 0; list[i] != AV_PIX_FMT_NONE; i++, nb++) {
        if (av_pix_fmt_desc_get(list[i])->flags & AV_PIX_FMT_FLAG_XYZ) {
            nb--; /* CIE XYZ samples, whatever the options' primaries: test_xyz12() */
            continue;
        }
        const enum AVPixelFormat f = list[i], p = planar_equiv(f);
        const char *name = av_get_pix_fmt_name(f);
        const int gray = is_gray(f), alpha = !!(av_pix_fmt_desc_get(f)->flags & AV_PIX_FMT_FLAG_ALPHA);
        AVFrame *in = make(f, 34, 18, 1000 + i), *src, *out = NULL, *out2 = NULL, *inp;
        char filt[160];
        int ret;

        /* as input, nothing inserted before us; the format is kept */
        ret = cspfix_run1(in, "cspfix=all=bt2020:dither=none", 1, &out);
        if (ret < 0 || out->format != f) {
            run_bad++;
            printf("  %s: %s\n", name, ret < 0 ? av_err2str(ret) : av_get_pix_fmt_name(out->format));
        }
        if (cspfix_graph_auto) {
            auto_in++;
            printf("  %s as input: %s inserted\n", name, cspfix_graph_auto_name);
        }
        if (alpha && ret >= 0) {
            alpha_cmp++;
            if (!same_alpha(in, out)) {
                alpha_bad++;
                printf("  %s: alpha not kept\n", name);
            }
        }
        av_frame_free(&out);

        /* as input: the same result as the planar equivalent's */
        if (p != AV_PIX_FMT_NONE) {
            inp = to_planar(in, p);
            if (!strncmp(name, "yuvj", 4))  /* full range whatever the tag */
                inp->color_range = AVCOL_RANGE_JPEG;
            cspfix_run1(in, "cspfix=all=bt2020:format=yuv444p16le:dither=none", 1, &out);
            cspfix_run1(inp, "cspfix=all=bt2020:format=yuv444p16le:dither=none", 1, &out2);
            in_cmp++;
            if (!out || !out2 || !same_samples(out, out2)) {
                in_bad++;
                printf("  %s -> yuv444p16le differs from %s -> yuv444p16le\n", name,
                       av_get_pix_fmt_name(p));
            }
            av_frame_free(&out);
            av_frame_free(&out2);
            av_frame_free(&inp);
        } else {
            no_equiv++;
        }

        /* as output: nothing inserted after us, and the planar equivalent's samples */
        src = make(gray ? AV_PIX_FMT_GRAY10LE : AV_PIX_FMT_YUV420P10LE, 34, 18, 2000 + i);
        snprintf(filt, sizeof(filt), "cspfix=all=bt709,format=%s", name);
        ret = cspfix_run1(src, filt, 1, &out);
        if (ret < 0 || cspfix_graph_auto || out->format != f) {
            auto_out++;
            printf("  %s as output: %s\n", name, ret < 0 ? av_err2str(ret) :
                   cspfix_graph_auto ? cspfix_graph_auto_name : "wrong format");
        }
        av_frame_free(&out);
        if (p != AV_PIX_FMT_NONE) {
            /* yuvj formats are full range */
            const char *rng = !strncmp(name, "yuvj", 4) ? ":range=pc" : "";
            snprintf(filt, sizeof(filt), "cspfix=all=bt2020:format=%s:dither=none%s", name, rng);
            cspfix_run1(src, filt, 1, &out);
            snprintf(filt, sizeof(filt), "cspfix=all=bt2020:format=%s:dither=none%s",
                     av_get_pix_fmt_name(p), rng);
            cspfix_run1(src, filt, 1, &out2);
            out_cmp++;
            if (!out || !out2 || !same_colour(out, out2)) {
                out_bad++;
                printf("  yuv420p10le -> %s differs from -> %s\n", name, av_get_pix_fmt_name(p));
            }
            av_frame_free(&out);
            av_frame_free(&out2);
        }
        av_frame_free(&src);
        av_frame_free(&in);
    }
    CHECK(nb >= 200, "%d pixel formats taken", nb);
    CHECK(!run_bad, "every format through the filter, kept: %d of %d wrong", run_bad, nb);
    CHECK(!auto_in, "no converter inserted before the filter: %d of %d formats", auto_in, nb);
    CHECK(!auto_out, "no converter inserted after the filter: %d of %d formats", auto_out, nb);
    CHECK(!in_bad, "as input, equal to the planar equivalent: %d of %d differ", in_bad, in_cmp);
    CHECK(!out_bad, "as output, equal to the planar equivalent: %d of %d differ", out_bad, out_cmp);
    CHECK(!alpha_bad, "alpha kept: %d of %d formats", alpha_bad, alpha_cmp);
    printf("all formats: %d taken, %d/%d compared with a planar equivalent (%d have none)\n",
           nb, in_cmp, out_cmp, no_equiv);
}

/* Components sharing a word written one at a time (per-plane plans: a pure repack or a
 * range/depth change): each written without clobbering the others' bits (x2rgb10le
 * written per component lost G and the top bits of B before) */
static void test_shared_words(void)
{
    static const enum AVPixelFormat fmts[][2] = {
        { AV_PIX_FMT_X2RGB10LE, AV_PIX_FMT_GBRP10 }, { AV_PIX_FMT_X2BGR10LE, AV_PIX_FMT_GBRP10 },
        { AV_PIX_FMT_XV30LE, AV_PIX_FMT_YUV444P10 }, { AV_PIX_FMT_RGB565LE, AV_PIX_FMT_NONE },
    };
    for (int i = 0; i < FF_ARRAY_ELEMS(fmts); i++) {
        const enum AVPixelFormat f = fmts[i][0], p = fmts[i][1];
        const char *name = av_get_pix_fmt_name(f);
        AVFrame *in = make(f, 34, 18, 300 + i), *out = NULL, *back = NULL, *pin;
        char filt[96];
        int ok;

        if (p == AV_PIX_FMT_NONE) {
            /* gbrp -> rgb565le -> rgb565le range change and back: same samples as
             * the input (a 5/6-bit code survives the 8-bit round trip) */
            snprintf(filt, sizeof(filt), "cspfix=format=gbrp:dither=none");
            ok = cspfix_run1(in, filt, 1, &out) >= 0;
            snprintf(filt, sizeof(filt), "cspfix=format=%s:dither=none", name);
            ok = ok && cspfix_run1(out, filt, 1, &back) >= 0 && same_samples(in, back);
        } else {
            pin = to_planar(in, p);
            snprintf(filt, sizeof(filt), "cspfix=format=%s:dither=none", name);
            ok = cspfix_run1(pin, filt, 1, &out) >= 0 && same_samples(in, out);
            av_frame_free(&pin);
        }
        CHECK(ok, "%s written per component keeps every field", name);
        av_frame_free(&back);
        av_frame_free(&out);
        av_frame_free(&in);
    }
}

/* formats the filter refuses: a clear error, no converter inserted before it */
static void test_refused(void)
{
    static const char *const names[] = { "pal8", "bayer_rggb8" };
    for (int i = 0; i < FF_ARRAY_ELEMS(names); i++) {
        enum AVPixelFormat f = av_get_pix_fmt(names[i]);
        AVFrame *in = cspfix_alloc_frame(f, 34, 18, AVCOL_PRI_BT709, AVCOL_TRC_BT709,
                                         AVCOL_SPC_BT709, AVCOL_RANGE_MPEG), *out = NULL;
        int ret = cspfix_run1(in, "cspfix=all=bt2020", 1, &out);
        CHECK(ret < 0 && !cspfix_graph_auto, "%s refused (%s), not converted behind our back",
              names[i], ret < 0 ? av_err2str(ret) : "taken");
        av_frame_free(&out);
        av_frame_free(&in);
    }
}

/* ---- CIE X'Y'Z' (xyz12: DCI cinema, SMPTE ST 428-1) against the reference model ---- */

/* component c of pixel (x, y), as libavutil reads it */
static int px(const AVFrame *f, int c, int x, int y)
{
    const AVPixFmtDescriptor *d = av_pix_fmt_desc_get(f->format);
    uint16_t v;
    av_read_image_line2(&v, (const uint8_t **)f->data, f->linesize, d, x, y, c, 1, 0, 2);
    return v;
}

static void set_px(AVFrame *f, int c, int x, int y, int v)
{
    const AVPixFmtDescriptor *d = av_pix_fmt_desc_get(f->format);
    const uint16_t u = v;
    av_write_image_line2(&u, f->data, f->linesize, d, x, y, c, 1, 2);
}

/*
 * One way of a 10-bit sRGB (gbrp10) <-> xyz12le conversion: a grid of n^3 codes of the
 * input, compared with the model (in-gamut samples of the output): max and mean error
 * in output LSB, bounded by 1 (rounding: 0.5 plus float32); returns the samples compared.
 */
static int xyz_way(int to_xyz, const char *opt, int ref_prim, double *maxe, double *sume)
{
    const int n = 33, w = n * n, h = n;
    const RefDesc srgb = { REF_PRI_BT709, REF_TRC_IEC61966_2_1, REF_SPC_RGB, REF_RANGE_PC, 10 };
    const RefDesc xyz = { ref_prim, REF_TRC_SMPTE428, REF_SPC_RGB, REF_RANGE_PC, 12 };
    const RefOptions ro = { 0 };
    const int ifmt = to_xyz ? AV_PIX_FMT_GBRP10 : AV_PIX_FMT_XYZ12LE;
    const int imax = to_xyz ? 1023 : 4095;
    AVFrame *in = cspfix_alloc_frame(ifmt, w, h, to_xyz ? AVCOL_PRI_BT709 : AVCOL_PRI_SMPTE428,
                                     to_xyz ? AVCOL_TRC_IEC61966_2_1 : AVCOL_TRC_SMPTE428,
                                     AVCOL_SPC_RGB, AVCOL_RANGE_JPEG), *out = NULL;
    char f[160];
    int cnt = 0;

    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            const int v[3] = { x % n, x / n, y };
            for (int c = 0; c < 3; c++)
                set_px(in, c, x, y, lrint(v[c] * (double)imax / (n - 1)));
        }
    snprintf(f, sizeof(f), "cspfix=%s:dither=none:%s", to_xyz ? "format=xyz12le" :
             "primaries=bt709:trc=iec61966-2-1:format=gbrp10le", opt);
    if (cspfix_run1(in, f, 1, &out) < 0) {
        av_frame_free(&in);
        return -1;
    }
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            double ic[3], oc[3];
            int ok;
            for (int c = 0; c < 3; c++)
                ic[c] = px(in, c, x, y);
            if (ref_convert(to_xyz ? &srgb : &xyz, to_xyz ? &xyz : &srgb, &ro, ic, oc, &ok) < 0)
                continue;
            if (!ok)
                continue;
            for (int c = 0; c < 3; c++) {
                const double e = fabs(px(out, c, x, y) - oc[c]);
                *maxe = FFMAX(*maxe, e);
                *sume += e;
            }
            cnt++;
        }
    av_frame_free(&in);
    av_frame_free(&out);
    return cnt;
}

static void test_xyz12(void)
{
    static const struct { const char *opt; int prim; } whites[] = {
        { "xyzwhite=d65", REF_PRI_XYZ_D65 }, { "xyzwhite=dci", REF_PRI_XYZ_DCI },
        { "xyzwhite=e", REF_PRI_SMPTE428 },
    };
    AVFrame *in, *out = NULL;

    for (int i = 0; i < FF_ARRAY_ELEMS(whites); i++)
        for (int to = 0; to < 2; to++) {
            double maxe = 0.0, sume = 0.0;
            const int cnt = xyz_way(!to, whites[i].opt, whites[i].prim, &maxe, &sume);
            printf("  %s %s: %d in-gamut samples, max %.4f LSB, mean %.4f LSB\n",
                   !to ? "gbrp10 sRGB -> xyz12" : "xyz12 -> gbrp10 sRGB", whites[i].opt,
                   cnt, maxe, cnt > 0 ? sume / (3.0 * cnt) : 0.0);
            CHECK(cnt > 1000 && maxe < 1.0, "%s %s against the model (max %.4f LSB)",
                  !to ? "sRGB -> xyz12" : "xyz12 -> sRGB", whites[i].opt, maxe);
        }

    /* SMPTE RP 431-2's reference white (48 cd/m2 at the DCI white): X'Y'Z' 3794 3960 3890
     * is sRGB's white with xyzwhite=dci; D65 at 48 cd/m2 is 3883 3960 4092 */
    in = cspfix_alloc_frame(AV_PIX_FMT_RGB24, 8, 8, AVCOL_PRI_BT709, AVCOL_TRC_IEC61966_2_1,
                            AVCOL_SPC_RGB, AVCOL_RANGE_JPEG);
    for (int y = 0; y < 8; y++)
        memset(in->data[0] + y * in->linesize[0], 255, 24);
    for (int dci = 0; dci < 2; dci++) {
        static const int want[2][3] = { { 3883, 3960, 4092 }, { 3794, 3960, 3890 } };
        int ok;
        if (cspfix_run1(in, dci ? "cspfix=format=xyz12le:xyzwhite=dci" : "cspfix=format=xyz12le",
                        1, &out) < 0) {
            CHECK(0, "sRGB white to xyz12 ran");
            continue;
        }
        ok = out->color_primaries == AVCOL_PRI_SMPTE428 && out->color_trc == AVCOL_TRC_SMPTE428 &&
             out->color_range == AVCOL_RANGE_JPEG;
        for (int c = 0; c < 3; c++)
            ok &= px(out, c, 3, 5) == want[dci][c];
        CHECK(ok, "sRGB white -> X'Y'Z' %d %d %d (%s white), tagged smpte428/smpte428/pc: got "
              "%d %d %d", want[dci][0], want[dci][1], want[dci][2], dci ? "DCI" : "D65",
              px(out, 0, 3, 5), px(out, 1, 3, 5), px(out, 2, 3, 5));
        av_frame_free(&out);
    }
    /* X'Y'Z' output takes only XYZ primaries */
    CHECK(cspfix_run1(in, "cspfix=format=xyz12le:primaries=bt709", 1, &out) < 0,
          "xyz12 output with primaries=bt709 refused");
    av_frame_free(&out);
    av_frame_free(&in);
}

int main(void)
{
    av_log_set_level(AV_LOG_QUIET);
    test_matrix();
    test_all_formats();
    test_refused();
    test_shared_words();
    test_alpha();
    test_float();
    test_siting();
    test_siting4();
    test_downsample4();
    test_dither();
    test_xyz12();
    printf("format: %d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
