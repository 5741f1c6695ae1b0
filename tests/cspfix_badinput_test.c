/*
 * cspfix bad-input tests: tiny, huge, flipped, padded, cropped, hardware and
 * changing frames, bad values, allocation failure; nothing lost over 1000 frames
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

#include <errno.h>
#include <limits.h>
#include <malloc.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libavfilter/avfilter.h>
#include <libavfilter/buffersink.h>
#include <libavfilter/buffersrc.h>
#include <libavutil/cpu.h>
#include <libavutil/dict.h>
#include <libavutil/display.h>
#include <libavutil/imgutils.h>
#include <libavutil/log.h>
#include <libavutil/macros.h>
#include <libavutil/mastering_display_metadata.h>
#include <libavutil/mem.h>
#include <libavutil/opt.h>
#include <libavutil/pixdesc.h>

#include "cspfix_testutil.h"

#include "cspfix_check.h"

/* -v: print every check, passed ones too */
static int verbose;
#define VCHECK(cond, ...) do {                                  \
        int ok_ = !!(cond);                                     \
        CHECK(ok_, __VA_ARGS__);                                \
        if (ok_ && verbose) {                                   \
            printf("ok: ");                                     \
            printf(__VA_ARGS__);                                \
            printf("\n");                                       \
        }                                                       \
    } while (0)

/* ---- allocation failure: libavutil's allocations go through these (ld --wrap) ---- */
int __real_posix_memalign(void **ptr, size_t align, size_t size);
void *__real_realloc(void *ptr, size_t size);
int __wrap_posix_memalign(void **ptr, size_t align, size_t size);
void *__wrap_realloc(void *ptr, size_t size);

static long alloc_count, fail_at = -1;   ///< fail_at >= 0: the fail_at-th allocation fails

int __wrap_posix_memalign(void **ptr, size_t align, size_t size)
{
    if (fail_at >= 0 && alloc_count++ == fail_at)
        return ENOMEM;
    return __real_posix_memalign(ptr, align, size);
}

void *__wrap_realloc(void *ptr, size_t size)
{
    if (fail_at >= 0 && alloc_count++ == fail_at)
        return NULL;
    return __real_realloc(ptr, size);
}

/*
 * Bytes in use on the heap, exact only without glibc's per-thread cache (its
 * chunks count as in use): tests.mk runs this test with
 * GLIBC_TUNABLES=glibc.malloc.tcache_count=0; otherwise 0 (no check here).
 * Under ASan mallinfo2() gives 0 and LeakSanitizer checks instead.
 */
static size_t heap_in_use(void)
{
#if defined(__GLIBC__) && (__GLIBC__ > 2 || __GLIBC_MINOR__ >= 33)
    const char *t = getenv("GLIBC_TUNABLES");
    if (t && strstr(t, "glibc.malloc.tcache_count=0"))
        return mallinfo2().uordblks;
#endif
    return 0;
}

/* ---- log capture, in a fixed buffer (no allocation while counting them) ---- */

static int log_has(const char *s)
{
    return strstr(cspfix_log_text, s) != NULL;
}

/* ---- frames ---- */

static int plane_h(const AVFrame *f, int p)
{
    const AVPixFmtDescriptor *d = av_pix_fmt_desc_get(f->format);
    return (p == 1 || p == 2) ? AV_CEIL_RSHIFT(f->height, d->log2_chroma_h) : f->height;
}

static int is_rgb(int fmt)
{
    return !!(av_pix_fmt_desc_get(fmt)->flags & AV_PIX_FMT_FLAG_RGB);
}

/* every byte of every plane pseudo-random (padding included) */
static AVFrame *pattern(int fmt, int w, int h, unsigned seed)
{
    const int rgb = is_rgb(fmt);
    AVFrame *f = cspfix_alloc_frame(fmt, w, h, rgb ? AVCOL_PRI_BT709 : AVCOL_PRI_SMPTE170M,
                                    rgb ? AVCOL_TRC_IEC61966_2_1 : AVCOL_TRC_SMPTE170M,
                                    rgb ? AVCOL_SPC_RGB : AVCOL_SPC_SMPTE170M,
                                    rgb ? AVCOL_RANGE_JPEG : AVCOL_RANGE_MPEG);
    if (!f)
        abort();
    for (int i = 0; i < AV_NUM_DATA_POINTERS && f->buf[i]; i++)
        for (size_t o = 0; o < f->buf[i]->size; o++) {
            seed = seed * 1103515245u + 12345u;
            f->buf[i]->data[o] = seed >> 16;
        }
    if (av_pix_fmt_desc_get(fmt)->flags & AV_PIX_FMT_FLAG_FLOAT) {
        /* float samples: values in [-0.25, 1.25), no NaN */
        for (int p = 0; p < av_pix_fmt_count_planes(fmt); p++)
            for (int y = 0; y < h; y++) {
                float *row = (float *)(f->data[p] + (ptrdiff_t)y * f->linesize[p]);
                for (int x = 0; x < w; x++) {
                    seed = seed * 1103515245u + 12345u;
                    row[x] = (seed >> 8 & 0xffff) / 65536.0f * 1.5f - 0.25f;
                }
            }
    }
    return f;
}

enum { COPY, NEG_SAME, FLIP_COPY, NEG_FLIP_VIEW };

/*
 * A new frame with the samples of src in its own buffer:
 *   COPY           same image, linesize = row bytes + extra
 *   NEG_SAME       same image, stored bottom-up (negative linesizes)
 *   FLIP_COPY      the image flipped vertically, positive linesizes
 *   NEG_FLIP_VIEW  the image flipped vertically, as src's rows read bottom-up
 *                  (negative linesizes into a copy of src)
 * Buffers get 64 bytes of padding, as av_frame_get_buffer() gives.
 */
static AVFrame *relayout(const AVFrame *src, int extra, int mode)
{
    AVFrame *f = av_frame_alloc();
    const int planes = av_pix_fmt_count_planes(src->format);

    if (!f || av_frame_copy_props(f, src) < 0)
        abort();
    f->format = src->format;
    f->width  = src->width;
    f->height = src->height;
    for (int p = 0; p < planes; p++) {
        const int bytes = av_image_get_linesize(src->format, src->width, p);
        const int ls = bytes + extra, ph = plane_h(src, p);
        uint8_t *base;

        if (!(f->buf[p] = av_buffer_allocz((size_t)ls * ph + 64)))
            abort();
        base = f->buf[p]->data;
        for (int y = 0; y < ph; y++) {
            const int sy = (mode == FLIP_COPY) ? ph - 1 - y : y;
            int dy = y;
            if (mode == NEG_SAME)
                dy = ph - 1 - y;     /* row y stored at the bottom */
            memcpy(base + (ptrdiff_t)dy * ls, src->data[p] + (ptrdiff_t)sy * src->linesize[p], bytes);
        }
        if (mode == NEG_SAME || mode == NEG_FLIP_VIEW) {
            f->data[p]     = base + (ptrdiff_t)(ph - 1) * ls;
            f->linesize[p] = -ls;
        } else {
            f->data[p]     = base;
            f->linesize[p] = ls;
        }
    }
    return f;
}

static int convert(const AVFrame *in, const char *filters, int threads, AVFrame **out)
{
    int ret = cspfix_run1(in, filters, threads, out);
    if (ret < 0)
        *out = NULL;
    return ret;
}

/* ---- 1x1, 2x1 ... in 4:2:0: a flat tiny frame converts as a flat large one does ---- */
static void set_flat(AVFrame *f, const int v[4])
{
    const AVPixFmtDescriptor *d = av_pix_fmt_desc_get(f->format);
    for (int c = 0; c < d->nb_components; c++) {
        const int cw = (c == 1 || c == 2) ? AV_CEIL_RSHIFT(f->width, d->log2_chroma_w) : f->width;
        const int ch = (c == 1 || c == 2) ? AV_CEIL_RSHIFT(f->height, d->log2_chroma_h) : f->height;
        uint32_t line[64];
        for (int x = 0; x < cw; x++)
            line[x] = v[c];
        for (int y = 0; y < ch; y++)
            av_write_image_line2(line, f->data, f->linesize, d, 0, y, c, cw, 4);
    }
}

static void test_tiny(void)
{
    static const int fmts[] = { AV_PIX_FMT_YUV420P, AV_PIX_FMT_NV12, AV_PIX_FMT_P010LE,
                                AV_PIX_FMT_YUVA420P, AV_PIX_FMT_YUV422P };
    static const int sizes[][2] = { { 1, 1 }, { 2, 1 }, { 1, 2 }, { 3, 1 }, { 1, 3 }, { 2, 2 } };
    static const char *const filters[] = {
        "cspfix=all=bt709:dither=none",
        "cspfix=all=bt709:format=yuv444p:dither=none",
        "cspfix=all=bt2020:format=p010le:chroma_loc=topleft:dither=none",
        "cspfix=range=pc:format=yuv420p:dither=none",
    };
    int bad = 0, n = 0;

    for (int fi = 0; fi < FF_ARRAY_ELEMS(fmts); fi++) {
        const int depth = av_pix_fmt_desc_get(fmts[fi])->comp[0].depth, sh = depth - 8;
        const int v[4] = { 81 << sh, 90 << sh, 240 << sh, 200 << sh };
        AVFrame *big = cspfix_alloc_frame(fmts[fi], 16, 16, AVCOL_PRI_SMPTE170M,
                                          AVCOL_TRC_SMPTE170M, AVCOL_SPC_SMPTE170M,
                                          AVCOL_RANGE_MPEG);
        set_flat(big, v);
        for (int k = 0; k < FF_ARRAY_ELEMS(filters); k++) {
            AVFrame *ob, *ot;
            if (convert(big, filters[k], 1, &ob) < 0) {
                bad++;
                continue;
            }
            for (int si = 0; si < FF_ARRAY_ELEMS(sizes); si++) {
                AVFrame *tiny = cspfix_alloc_frame(fmts[fi], sizes[si][0], sizes[si][1],
                                                   AVCOL_PRI_SMPTE170M, AVCOL_TRC_SMPTE170M,
                                                   AVCOL_SPC_SMPTE170M, AVCOL_RANGE_MPEG);
                const AVPixFmtDescriptor *d;
                int ok;
                set_flat(tiny, v);
                ok = convert(tiny, filters[k], 1, &ot) == 0 && ot->width == sizes[si][0] &&
                     ot->height == sizes[si][1] && ot->format == ob->format;
                /* every output sample equals the large frame's (flat) output */
                d = ok ? av_pix_fmt_desc_get(ot->format) : NULL;
                for (int c = 0; ok && c < d->nb_components; c++) {
                    const int cw = (c == 1 || c == 2) ? AV_CEIL_RSHIFT(ot->width, d->log2_chroma_w) : ot->width;
                    const int ch = (c == 1 || c == 2) ? AV_CEIL_RSHIFT(ot->height, d->log2_chroma_h) : ot->height;
                    uint32_t a[16], b[16];
                    av_read_image_line2(b, (const uint8_t **)ob->data, ob->linesize, d, 0, 0, c, 1, 0, 4);
                    for (int y = 0; y < ch; y++) {
                        av_read_image_line2(a, (const uint8_t **)ot->data, ot->linesize, d, 0, y, c, cw, 0, 4);
                        for (int x = 0; x < cw; x++)
                            ok &= a[x] == b[0];
                    }
                }
                if (!ok) {
                    bad++;
                    printf("  %s %dx%d '%s': output differs from the flat large frame's\n",
                           av_get_pix_fmt_name(fmts[fi]), sizes[si][0], sizes[si][1], filters[k]);
                }
                n++;
                av_frame_free(&ot);
                av_frame_free(&tiny);
            }
            av_frame_free(&ob);
        }
        av_frame_free(&big);
    }
    VCHECK(!bad, "tiny frames (1x1, 2x1, 1x2, 3x1, 1x3, 2x2; 4:2:0, NV12, P010, alpha, 4:2:2): "
          "%d of %d conversions equal the flat 16x16 result", n - bad, n);
}

/* ---- 16384-wide frames: every window equals the conversion of that window alone ---- */
static int window_equal(const AVFrame *wide, const AVFrame *win, int x0, int skip_l, int skip_r)
{
    const AVPixFmtDescriptor *d = av_pix_fmt_desc_get(wide->format);
    for (int c = 0; c < d->nb_components; c++) {
        const int sx = (c == 1 || c == 2) ? d->log2_chroma_w : 0;
        const int sy = (c == 1 || c == 2) ? d->log2_chroma_h : 0;
        const int cw = AV_CEIL_RSHIFT(win->width, sx), ch = AV_CEIL_RSHIFT(win->height, sy);
        uint32_t a[512], b[512];
        for (int y = 0; y < ch; y++) {
            av_read_image_line2(a, (const uint8_t **)wide->data, wide->linesize, d, x0 >> sx, y, c, cw, 0, 4);
            av_read_image_line2(b, (const uint8_t **)win->data, win->linesize, d, 0, y, c, cw, 0, 4);
            for (int x = skip_l >> sx; x < cw - (skip_r >> sx); x++)
                if (a[x] != b[x])
                    return 0;
        }
    }
    return 1;
}

static void test_wide(void)
{
    static const struct { int fmt, w; const char *f; } t[] = {
        { AV_PIX_FMT_YUV420P,   16384, "cspfix=all=bt709:dither=none" },
        { AV_PIX_FMT_YUV420P10, 16385, "cspfix=all=bt709:format=yuv420p:dither=none" },
        { AV_PIX_FMT_RGB24,     16384, "cspfix=all=bt2020:format=p010le" },
    };
    for (int i = 0; i < FF_ARRAY_ELEMS(t); i++) {
        AVFrame *in = pattern(t[i].fmt, t[i].w, 4, 31 + i), *out = NULL;
        int ret = convert(in, t[i].f, 2, &out), ok = ret == 0 && out->width == t[i].w;
        /* windows of 128 columns at the left edge, the middle and the right edge; the
         * 8 columns next to a cut are resampled against the cut and are not compared */
        const int x0s[] = { 0, 8192, (t[i].w - 128) & ~1 };
        for (int k = 0; ok && k < 3; k++) {
            AVFrame *win = av_frame_clone(in), *wo = NULL;
            win->crop_left  = x0s[k];
            win->crop_right = k == 2 ? 0 : t[i].w - 128 - x0s[k];
            av_frame_apply_cropping(win, AV_FRAME_CROP_UNALIGNED);
            ok = convert(win, t[i].f, 1, &wo) == 0 &&
                 window_equal(out, wo, x0s[k], k ? 8 : 0, k < 2 ? 8 : 0);
            av_frame_free(&wo);
            av_frame_free(&win);
        }
        VCHECK(ok, "%d-wide %s (%s): converts, and windows at both edges and the middle equal "
              "their own conversion (ret %d)", t[i].w, av_get_pix_fmt_name(t[i].fmt), t[i].f, ret);
        av_frame_free(&out);
        av_frame_free(&in);
    }
}

/* ---- negative linesizes, padded linesizes ---- */
static const struct { int fmt; const char *f; } layouts[] = {
    { AV_PIX_FMT_YUV420P,    "cspfix=all=bt709:dither=none" },
    { AV_PIX_FMT_YUV420P,    "cspfix=range=pc" },
    { AV_PIX_FMT_YUV420P10,  "cspfix=all=bt709:format=yuv420p:dither=ed" },
    { AV_PIX_FMT_NV12,       "cspfix=all=bt709:format=yuv444p" },
    { AV_PIX_FMT_P010LE,     "cspfix=all=bt709:format=nv12" },
    { AV_PIX_FMT_YUVA422P,   "cspfix=all=bt709:format=rgba" },
    { AV_PIX_FMT_RGB24,      "cspfix=all=bt709:format=yuv420p" },
    { AV_PIX_FMT_GBRAP10,    "cspfix=all=bt2020:format=yuva444p10" },
    { AV_PIX_FMT_X2RGB10LE,  "cspfix=all=bt709:format=x2rgb10le" },
    { AV_PIX_FMT_GBRPF32LE,  "cspfix=trc=bt709:format=gbrp16" },
    { AV_PIX_FMT_GRAY8,      "cspfix=range=pc" },
};

static void test_negative_linesize(void)
{
    static const int sizes[][2] = { { 33, 17 }, { 64, 48 } };
    int bad = 0, n = 0;

    for (int i = 0; i < FF_ARRAY_ELEMS(layouts); i++)
        for (int s = 0; s < 2; s++) {
            AVFrame *a = pattern(layouts[i].fmt, sizes[s][0], sizes[s][1], 41 + i);
            AVFrame *same = relayout(a, 0, NEG_SAME), *view = relayout(a, 0, NEG_FLIP_VIEW);
            AVFrame *flip = relayout(a, 0, FLIP_COPY), *oa, *osame, *oview, *oflip;
            int ok = convert(a, layouts[i].f, 2, &oa) == 0 &&
                     convert(same, layouts[i].f, 2, &osame) == 0 &&
                     convert(view, layouts[i].f, 2, &oview) == 0 &&
                     convert(flip, layouts[i].f, 1, &oflip) == 0;
            /* the same image stored bottom-up converts identically; a flipped view
             * converts as the flipped image does */
            if (!ok || !cspfix_frames_equal(oa, osame) || !cspfix_frames_equal(oview, oflip)) {
                bad++;
                printf("  %s %dx%d '%s': negative linesize output differs\n",
                       av_get_pix_fmt_name(layouts[i].fmt), sizes[s][0], sizes[s][1], layouts[i].f);
            }
            n++;
            av_frame_free(&oa);
            av_frame_free(&osame);
            av_frame_free(&oview);
            av_frame_free(&oflip);
            av_frame_free(&a);
            av_frame_free(&same);
            av_frame_free(&view);
            av_frame_free(&flip);
        }
    VCHECK(!bad, "negative linesizes: %d of %d (format, size) equal the positive-linesize "
          "conversion of the same image", n - bad, n);

    /* a vertical flip commutes with the conversion where nothing depends on the row
     * parity: 4:4:4, RGB, and 4:2:0 of even height with vertically centred chroma */
    {
        static const struct { int fmt; const char *f; } t[] = {
            { AV_PIX_FMT_YUV444P, "cspfix=all=bt709" },
            { AV_PIX_FMT_GBRP,    "cspfix=all=bt2020:format=gbrp10:dither=none" },
            { AV_PIX_FMT_YUV420P, "cspfix=all=bt709:chroma_loc=left:dither=none" },
            { AV_PIX_FMT_NV12,    "cspfix=all=bt709:format=yuv420p:chroma_loc=center:dither=none" },
        };
        bad = 0;
        for (int i = 0; i < FF_ARRAY_ELEMS(t); i++) {
            AVFrame *a = pattern(t[i].fmt, 46, 32, 51 + i), *view = relayout(a, 0, NEG_FLIP_VIEW);
            AVFrame *oa, *oview, *oflip;
            int ok = convert(a, t[i].f, 1, &oa) == 0 && convert(view, t[i].f, 3, &oview) == 0;
            oflip = ok ? relayout(oa, 0, FLIP_COPY) : NULL;
            if (!ok || !cspfix_frames_equal(oview, oflip)) {
                bad++;
                printf("  %s '%s': the flipped input's output is not the flipped output\n",
                       av_get_pix_fmt_name(t[i].fmt), t[i].f);
            }
            av_frame_free(&oa);
            av_frame_free(&oview);
            av_frame_free(&oflip);
            av_frame_free(&a);
            av_frame_free(&view);
        }
        VCHECK(!bad, "vflipped input (negative linesize): output equals the flipped conversion");
    }
}

static void test_odd_linesize(void)
{
    int bad = 0, n = 0;
    for (int i = 0; i < FF_ARRAY_ELEMS(layouts); i++) {
        const int big = av_pix_fmt_desc_get(layouts[i].fmt)->comp[0].depth > 8;
        static const int extras[] = { 1, 3, 7 };
        AVFrame *a = pattern(layouts[i].fmt, 35, 19, 61 + i), *oa;
        if (convert(a, layouts[i].f, 1, &oa) < 0) {
            bad++;
            continue;
        }
        for (int k = 0; k < 3; k++) {
            /* 16-bit samples: an odd number of extra samples; the rows stay aligned
             * to their sample size, as FFmpeg requires */
            AVFrame *p = relayout(a, extras[k] * (big ? 2 : 1), COPY), *op;
            if (convert(p, layouts[i].f, 2, &op) < 0 || !cspfix_frames_equal(oa, op)) {
                bad++;
                printf("  %s linesize +%d: output differs\n", av_get_pix_fmt_name(layouts[i].fmt),
                       extras[k]);
            }
            n++;
            av_frame_free(&op);
            av_frame_free(&p);
        }
        av_frame_free(&oa);
        av_frame_free(&a);
    }
    VCHECK(!bad, "linesize = row + 1, 3, 7 (odd) samples: %d of %d conversions identical", n - bad, n);
}

/* ---- cropped frames: libavfilter passes the crop fields through untouched ---- */
static void test_crop(void)
{
    static const struct { int fmt; const char *f; int exact; } t[] = {
        { AV_PIX_FMT_YUV420P, "cspfix=all=bt709", 0 },
        { AV_PIX_FMT_YUV444P, "cspfix=all=bt709:dither=none", 1 },
        { AV_PIX_FMT_RGB24,   "cspfix=all=bt2020:format=gbrp", 1 },
    };
    for (int i = 0; i < FF_ARRAY_ELEMS(t); i++) {
        AVFrame *a = pattern(t[i].fmt, 64, 48, 71 + i), *c = av_frame_clone(a);
        AVFrame *oa = NULL, *oc = NULL, *cropped_in = NULL, *ocropped = NULL;
        int ok;

        c->crop_left = 5; c->crop_top = 3; c->crop_right = 10; c->crop_bottom = 2;
        ok = convert(a, t[i].f, 1, &oa) == 0 && convert(c, t[i].f, 2, &oc) == 0 &&
             oc->crop_left == 5 && oc->crop_top == 3 && oc->crop_right == 10 &&
             oc->crop_bottom == 2 && cspfix_frames_equal(oa, oc);
        VCHECK(ok, "%s cropped: crop fields kept, the whole picture converted", av_get_pix_fmt_name(t[i].fmt));
        if (ok && t[i].exact) {
            /* where samples convert independently, cropping commutes with the filter
             * (the cropped input has unaligned data pointers) */
            cropped_in = av_frame_clone(c);
            av_frame_apply_cropping(cropped_in, AV_FRAME_CROP_UNALIGNED);
            av_frame_apply_cropping(oc, AV_FRAME_CROP_UNALIGNED);
            ok = convert(cropped_in, t[i].f, 1, &ocropped) == 0 &&
                 ocropped->width == 49 && cspfix_frames_equal(oc, ocropped);
            VCHECK(ok, "%s: crop then convert = convert then crop", av_get_pix_fmt_name(t[i].fmt));
        }
        av_frame_free(&oa);
        av_frame_free(&oc);
        av_frame_free(&cropped_in);
        av_frame_free(&ocropped);
        av_frame_free(&c);
        av_frame_free(&a);
    }
}

/* ---- frames the configured graph did not expect ---- */

/* run frames through one graph configured for in[0]; returns the first error */
static int run_frames(AVFrame **in, int nb, const char *filters, AVFrame **out, int *nb_out)
{
    return cspfix_run_graph(in, nb, filters, 1, out, nb, nb_out);
}

static void test_hardware(void)
{
    AVFrame *in[2], *out[2] = { NULL }, *hw;
    AVFilterGraph *g = avfilter_graph_alloc();
    AVFilterContext *src = NULL;
    int ret, n;

    /* a hardware source format: rejected when the graph is configured */
    cspfix_log_reset();
    ret = avfilter_graph_create_filter(&src, avfilter_get_by_name("buffer"), "in",
                                       "video_size=64x48:pix_fmt=vaapi:time_base=1/25", NULL, g);
    if (ret >= 0) {
        AVFilterContext *f = NULL, *sink = NULL;
        if ((ret = avfilter_graph_create_filter(&f, avfilter_get_by_name("cspfix"), "c", "all=bt709", NULL, g)) >= 0 &&
            (ret = avfilter_graph_create_filter(&sink, avfilter_get_by_name("buffersink"), "o", NULL, NULL, g)) >= 0 &&
            (ret = avfilter_link(src, 0, f, 0)) >= 0 && (ret = avfilter_link(f, 0, sink, 0)) >= 0)
            ret = avfilter_graph_config(g, NULL);
    }
    VCHECK(ret < 0 && cspfix_log_len > 0, "VAAPI source: the graph is refused with a message [%s]", cspfix_log_text);
    avfilter_graph_free(&g);

    /* a hardware frame arriving on a software link */
    in[0] = pattern(AV_PIX_FMT_YUV420P, 64, 48, 81);
    hw = av_frame_alloc();
    hw->format = AV_PIX_FMT_VAAPI;
    hw->width  = 64;
    hw->height = 48;
    hw->buf[0] = av_buffer_allocz(64);
    hw->data[3] = hw->buf[0]->data;      /* a surface id, never to be read as pixels */
    in[1] = hw;
    cspfix_log_reset();
    ret = run_frames(in, 2, "cspfix=all=bt709", out, &n);
    VCHECK(ret < 0 && n == 1 && log_has("ardware") && log_has("vaapi") && log_has("hwdownload"),
          "VAAPI frame mid-stream: clear error naming it [%s]", cspfix_log_text);
    av_frame_free(&out[0]);
    av_frame_free(&out[1]);

    /* a software-format frame that carries a hardware frames context */
    av_frame_unref(hw);
    av_frame_ref(hw, in[0]);
    hw->hw_frames_ctx = av_buffer_allocz(16);
    cspfix_log_reset();
    ret = run_frames(in, 2, "cspfix=all=bt709", out, &n);
    VCHECK(ret < 0 && n == 1 && log_has("ardware"), "frame with hw_frames_ctx: clear error [%s]", cspfix_log_text);
    av_frame_free(&out[0]);
    av_frame_free(&out[1]);
    av_frame_free(&in[0]);
    av_frame_free(&in[1]);
}

static void test_format_change(void)
{
    static const int fmts[] = { AV_PIX_FMT_YUV420P, AV_PIX_FMT_YUV444P, AV_PIX_FMT_NV12,
                                AV_PIX_FMT_P010LE, AV_PIX_FMT_GBRP, AV_PIX_FMT_YUV420P };
    enum { N = FF_ARRAY_ELEMS(fmts) };
    AVFrame *in[N], *out[N] = { NULL }, *big[2], *bout[2] = { NULL };
    int ret, n, same = 1;

    for (int i = 0; i < N; i++) {
        in[i] = pattern(fmts[i], 64, 48, 91 + i);
        in[i]->colorspace  = fmts[i] == AV_PIX_FMT_GBRP ? AVCOL_SPC_RGB : AVCOL_SPC_SMPTE170M;
        in[i]->color_range = fmts[i] == AV_PIX_FMT_GBRP ? AVCOL_RANGE_JPEG : AVCOL_RANGE_MPEG;
    }
    cspfix_log_reset();
    ret = run_frames(in, N, "cspfix=all=bt709:dither=none", out, &n);
    VCHECK(ret == 0 && n == N, "pixel format changing every frame: %d frames in, %d out (%d)", N, n, ret);
    for (int i = 0; i < n; i++) {
        /* each as its own graph converting to the negotiated format does */
        AVFrame *ref;
        same &= out[i]->format == AV_PIX_FMT_YUV420P &&
                convert(in[i], "cspfix=all=bt709:dither=none:format=yuv420p", 1, &ref) == 0 &&
                cspfix_frames_equal(ref, out[i]);
        av_frame_free(&ref);
        av_frame_free(&out[i]);
    }
    VCHECK(ret == 0 && same, "each frame converted from its own format into the link's yuv420p");

    /* an unsupported format mid-stream */
    av_frame_free(&in[1]);
    in[1] = pattern(AV_PIX_FMT_PAL8, 64, 48, 99);
    cspfix_log_reset();
    ret = run_frames(in, 2, "cspfix=all=bt709", out, &n);
    VCHECK(ret < 0 && n == 1 && log_has("Unsupported input pixel format pal8: paletted"),
          "unsupported format mid-stream named [%s]", cspfix_log_text);
    for (int i = 0; i < N; i++) {
        av_frame_free(&out[i]);
        av_frame_free(&in[i]);
    }

    /* a size change without reconfiguring the graph */
    big[0] = pattern(AV_PIX_FMT_YUV420P, 64, 48, 101);
    big[1] = pattern(AV_PIX_FMT_YUV420P, 96, 64, 102);
    cspfix_log_reset();
    ret = run_frames(big, 2, "cspfix=all=bt709", bout, &n);
    VCHECK(ret < 0 && n == 1 && log_has("96x64") && log_has("64x48"),
          "frame size change mid-stream: clear error, no overflow [%s]", cspfix_log_text);
    av_frame_free(&bout[0]);
    av_frame_free(&bout[1]);
    av_frame_free(&big[0]);
    av_frame_free(&big[1]);
}

/* ---- reserved and out-of-range values ---- */
static void test_bad_values(void)
{
    static const struct {
        int field, value;
        const char *msg;
    } frame_vals[] = {
        { 0, AVCOL_PRI_RESERVED,  "Unsupported input primaries: reserved" },
        { 0, AVCOL_PRI_RESERVED0, NULL }, /* like unspecified: guessed */
        { 0, 200,                 "Unsupported input primaries: 200" },
        { 0, -3,                  "Unsupported input primaries: -3" },
        { 1, AVCOL_TRC_RESERVED,  "Unsupported input transfer characteristics: reserved" },
        { 1, 300,                 "Unsupported input transfer characteristics: 300" },
        { 2, AVCOL_SPC_RESERVED,  "Unsupported input matrix (colorspace): reserved" },
        { 2, 99,                  "Unsupported input matrix (colorspace): 99" },
        { 3, 3,                   "Unsupported input range: 3" },
        { 3, -1,                  "Unsupported input range: -1" },
    };
    static const struct { const char *f, *msg; } opt_vals[] = {
        { "cspfix=primaries=100",   "Unsupported output primaries: 100" },
        { "cspfix=primaries=3",     "Unsupported output primaries: reserved" },
        { "cspfix=trc=255",         "Unsupported output transfer characteristics: 255" },
        { "cspfix=space=3",         "Unsupported output matrix (colorspace): reserved" },
        { "cspfix=iprimaries=99",   "Unsupported input primaries: 99" },
        { "cspfix=range=3",         "out of range" },
        { "cspfix=ichroma_loc=7",   "out of range" },
        { "cspfix=dither=9",        "out of range" },
        { "cspfix=all=bt709x",      "Unable to parse" },
        { "cspfix=format=pal8",     "Unsupported output format pal8: paletted" },
    };
    AVFrame *in = pattern(AV_PIX_FMT_YUV420P, 32, 16, 111), *out;
    AVFrame *ref;
    int ret, bad = 0;

    for (int i = 0; i < FF_ARRAY_ELEMS(frame_vals); i++) {
        AVFrame *f = av_frame_clone(in);
        int *field[4] = { (int *)&f->color_primaries, (int *)&f->color_trc,
                          (int *)&f->colorspace, (int *)&f->color_range };
        AVFrame *two[2] = { in, f }, *o2[2] = { NULL };
        int n;
        *field[frame_vals[i].field] = frame_vals[i].value;
        /* after a good frame, so that the buffer source's own checks do not see it */
        cspfix_log_reset();
        ret = run_frames(two, 2, "cspfix=all=bt709", o2, &n);
        out = o2[1];
        av_frame_free(&o2[0]);
        if (frame_vals[i].msg ? ret >= 0 || n != 1 || !log_has(frame_vals[i].msg) || !log_has("Supported:")
                              : ret < 0 || n != 2) {
            bad++;
            printf("  frame field %d = %d: ret %d [%s]\n", frame_vals[i].field, frame_vals[i].value,
                   ret, cspfix_log_text);
        }
        av_frame_free(&out);
        av_frame_free(&f);
    }
    VCHECK(!bad, "reserved/out-of-range frame tags: each a clear error naming the value and "
          "what is supported (%d bad)", bad);

    bad = 0;
    for (int i = 0; i < FF_ARRAY_ELEMS(opt_vals); i++) {
        cspfix_log_reset();
        ret = convert(in, opt_vals[i].f, 1, &out);
        if (ret >= 0 || !log_has(opt_vals[i].msg)) {
            bad++;
            printf("  %s: ret %d [%s]\n", opt_vals[i].f, ret, cspfix_log_text);
        }
        av_frame_free(&out);
    }
    VCHECK(!bad, "reserved/out-of-range option values: each a clear error (%d bad)", bad);

    /* an out-of-range chroma location is treated as unspecified */
    {
        AVFrame *f = av_frame_clone(in);
        f->chroma_location = 42;
        cspfix_log_reset();
        ret = convert(f, "cspfix=all=bt709", 1, &out);
        convert(in, "cspfix=all=bt709", 1, &ref);
        VCHECK(ret == 0 && cspfix_frames_equal(out, ref) && out->chroma_location == AVCHROMA_LOC_LEFT,
              "chroma_location 42 converts as unspecified (left) [%s]", cspfix_log_text);
        av_frame_free(&out);
        av_frame_free(&ref);
        av_frame_free(&f);
    }
    av_frame_free(&in);
}

/* ---- conversions the plan cannot express ---- */
static void test_inexpressible(void)
{
    static const struct { int fmt, csp; const char *f, *msg; } t[] = {
        { AV_PIX_FMT_YUV420P, AVCOL_SPC_BT709, "cspfix=space=ictcp",        "ictcp needs primaries bt2020" },
        { AV_PIX_FMT_YUV420P, AVCOL_SPC_BT709, "cspfix=space=ipt-c2",       "ipt-c2 needs primaries bt2020" },
        { AV_PIX_FMT_YUV420P, AVCOL_SPC_BT709, "cspfix=space=ycgco-re:format=yuv420p10", "needs 4:4:4" },
        { AV_PIX_FMT_YUV420P, AVCOL_SPC_BT709, "cspfix=format=gray8",       "needs the chroma" },
        { AV_PIX_FMT_YUV420P, AVCOL_SPC_BT709, "cspfix=space=rgb:format=yuv444p", "needs an RGB output format" },
        { AV_PIX_FMT_YUV420P, AVCOL_SPC_BT709, "cspfix=space=bt709:format=gbrp",  "cannot be used with the RGB output" },
        { AV_PIX_FMT_YUV420P, AVCOL_SPC_RGB,   "cspfix=all=bt709",          "Input matrix rgb on the Y'CbCr" },
        { AV_PIX_FMT_YUV420P, AVCOL_SPC_BT709, "cspfix=v4l2_colorspace=raw", "raw" },
        { AV_PIX_FMT_YUV420P, AVCOL_SPC_UNSPECIFIED, "cspfix=all=bt709:guess=0", "unspecified and guess=0" },
        { AV_PIX_FMT_YUV420P, AVCOL_SPC_BT709, "cspfix=colorimetry=bt709x", "colorimetry=bt709x" },
    };
    int bad = 0;
    for (int i = 0; i < FF_ARRAY_ELEMS(t); i++) {
        AVFrame *in = pattern(t[i].fmt, 32, 16, 121), *out;
        int ret;
        in->color_primaries = AVCOL_PRI_BT709;
        in->color_trc = AVCOL_TRC_BT709;
        in->colorspace = t[i].csp;
        cspfix_log_reset();
        ret = convert(in, t[i].f, 1, &out);
        if (ret >= 0 || !log_has(t[i].msg)) {
            bad++;
            printf("  %s: ret %d [%s]\n", t[i].f, ret, cspfix_log_text);
        }
        av_frame_free(&out);
        av_frame_free(&in);
    }
    VCHECK(!bad, "%d conversions the plan cannot express: each a clear error (%d bad)",
          (int)FF_ARRAY_ELEMS(t), bad);
}

/* ---- allocation failure ---- */

/*
 * buffer -> cspfix -> buffersink built without parsing option strings with
 * avfilter_graph_parse/avfilter_init_str: FFmpeg's process_options() ignores
 * av_dict_set() failing, so an allocation failure there silently drops an
 * option (of any filter) instead of failing.  Options go through
 * av_opt_set_from_string(), which reports its errors.
 */
static int run_api(AVFrame *const *in, int nb_in, const char *opts, int threads,
                   AVFrame **out, int max_out, int *nb_out)
{
    AVFilterGraph *g = avfilter_graph_alloc();
    AVFilterContext *src, *filt, *sink;
    AVBufferSrcParameters *par = av_buffersrc_parameters_alloc();
    int ret;

    /* unnamed filters: FFmpeg 8.1's ff_filter_alloc() leaks the instance name when a
     * later allocation fails (fixed in 9.0) */
    *nb_out = 0;
    if (!g || !par ||
        !(src  = avfilter_graph_alloc_filter(g, avfilter_get_by_name("buffer"), NULL)) ||
        !(filt = avfilter_graph_alloc_filter(g, avfilter_get_by_name("cspfix"), NULL)) ||
        !(sink = avfilter_graph_alloc_filter(g, avfilter_get_by_name("buffersink"), NULL))) {
        ret = AVERROR(ENOMEM);
        goto end;
    }
    g->nb_threads = threads;
    par->format = in[0]->format;
    par->width  = in[0]->width;
    par->height = in[0]->height;
    par->time_base = (AVRational){ 1, 25 };
    par->sample_aspect_ratio = (AVRational){ 1, 1 };
    par->color_space = in[0]->colorspace;
    par->color_range = in[0]->color_range;
    if ((ret = av_buffersrc_parameters_set(src, par)) < 0 ||
        (ret = avfilter_init_dict(src, NULL)) < 0 ||
        (ret = av_opt_set_from_string(filt->priv, opts, NULL, "=", ":")) < 0 ||
        (ret = avfilter_init_dict(filt, NULL)) < 0 ||
        (ret = avfilter_init_dict(sink, NULL)) < 0 ||
        (ret = avfilter_link(src, 0, filt, 0)) < 0 ||
        (ret = avfilter_link(filt, 0, sink, 0)) < 0 ||
        (ret = avfilter_graph_config(g, NULL)) < 0)
        goto end;
    for (int i = 0; i <= nb_in; i++) {
        ret = av_buffersrc_add_frame_flags(src, i < nb_in ? in[i] : NULL, AV_BUFFERSRC_FLAG_KEEP_REF);
        if (ret < 0)
            goto end;
        ret = cspfix_pull_frames(sink, out, max_out, nb_out);
        if (ret != AVERROR(EAGAIN) && ret != AVERROR_EOF)
            goto end;
    }
    ret = 0;
end:
    av_free(par);
    avfilter_graph_free(&g);
    return ret;
}

/* Fail allocation k for k = 0, 1, ... until a run no longer reaches it: each run
 * either succeeds with the right output or fails with an error; either way the
 * heap returns to where it was (LeakSanitizer checks the same under ASan). */
static void test_alloc_fail(void)
{
    static const struct { const char *f; int fmt, threads; } t[] = {
        { "all=bt709:format=yuv420p", AV_PIX_FMT_YUV420P10, 1 },
        { "range=pc:dither=ed", AV_PIX_FMT_YUV420P, 2 },
        { "iall=bt709:all=bt709", AV_PIX_FMT_YUV420P, 1 },   /* pass-through */
    };
    for (int i = 0; i < FF_ARRAY_ELEMS(t); i++) {
        AVFrame *in[3], *out[3], *ref[3];
        int n, nref, runs = 0, failed_runs = 0, wrong = 0, leaks = 0, ret;
        size_t before;

        for (int k = 0; k < 3; k++)
            in[k] = pattern(t[i].fmt, 40, 20, 131 + k);
        in[1]->color_primaries = AVCOL_PRI_BT470BG;   /* a new plan mid-stream */
        in[1]->colorspace = AVCOL_SPC_BT470BG;
        ret = run_api(in, 3, t[i].f, t[i].threads, ref, 3, &nref);
        if (ret < 0 || nref != 3) {
            VCHECK(0, "allocation failure: reference run of %s failed", t[i].f);
            continue;
        }
        for (long k = 0;; k++) {
            before = heap_in_use();
            alloc_count = 0;
            fail_at = k;
            ret = run_api(in, 3, t[i].f, t[i].threads, out, 3, &n);
            fail_at = -1;
            if (ret < 0)
                failed_runs++;
            else
                for (int j = 0; j < 3; j++) {
                    int w = n != 3 || j >= n || !cspfix_frames_equal(out[j], ref[j]);
                    if (w && getenv("CSPFIX_DEBUG"))
                        printf("  k=%ld: %d frames, frame %d differs: %s %dx%d csp %d range %d vs %s\n", k, n, j, av_get_pix_fmt_name(out[j]->format), out[j]->width, out[j]->height, out[j]->colorspace, out[j]->color_range, av_get_pix_fmt_name(ref[j]->format));
                    wrong += w;
                }
            for (int j = 0; j < n; j++)
                av_frame_free(&out[j]);
            if (heap_in_use() != before) {
                leaks++;
                if (getenv("CSPFIX_DEBUG"))
                    printf("  k=%ld: ret %d, heap %+ld bytes\n", k, ret, (long)(heap_in_use() - before));
            }
            runs++;
            if (alloc_count <= k)   /* the run made fewer than k + 1 allocations */
                break;
        }
        VCHECK(runs > 20 && !wrong && !leaks,
              "%s: allocation k failed for each of the %d allocations a run makes: %d runs "
              "failed cleanly, %d succeeded; %d wrong outputs, %d runs leaked",
              t[i].f, runs - 1, failed_runs, runs - failed_runs, wrong, leaks);
        for (int k = 0; k < 3; k++) {
            av_frame_free(&in[k]);
            av_frame_free(&ref[k]);
        }
    }

    /* av_max_alloc(): a limit below the transfer tables, and below the scratch rows of a
     * wide frame; both fail cleanly and leak nothing */
    {
        AVFrame *in = pattern(AV_PIX_FMT_YUV420P, 64, 16, 141), *wide = pattern(AV_PIX_FMT_YUV420P, 16384, 2, 142);
        AVFrame *out = NULL;
        size_t before = heap_in_use();
        int r1, r2;
        av_max_alloc(100000);
        r1 = convert(in, "cspfix=all=bt709", 1, &out);
        av_frame_free(&out);
        av_max_alloc(1000000);
        r2 = convert(wide, "cspfix=range=pc", 1, &out);
        av_frame_free(&out);
        av_max_alloc(INT_MAX);
        VCHECK(r1 == AVERROR(ENOMEM) && r2 == AVERROR(ENOMEM) && heap_in_use() == before,
              "av_max_alloc below the tables / the scratch rows: ENOMEM (%d, %d), no leak", r1, r2);
        av_frame_free(&in);
        av_frame_free(&wide);
    }
}

/* ---- nothing lost: 1000 frames, descriptions changing every few frames ---- */
static const int descs[][4] = {
    { AVCOL_PRI_SMPTE170M, AVCOL_TRC_SMPTE170M, AVCOL_SPC_SMPTE170M, AVCOL_RANGE_MPEG },
    { AVCOL_PRI_BT709,     AVCOL_TRC_BT709,     AVCOL_SPC_BT709,     AVCOL_RANGE_MPEG }, /* = output */
    { AVCOL_PRI_BT2020,    AVCOL_TRC_SMPTE2084, AVCOL_SPC_BT2020_NCL, AVCOL_RANGE_MPEG },
    { AVCOL_PRI_BT470BG,   AVCOL_TRC_GAMMA28,   AVCOL_SPC_BT470BG,   AVCOL_RANGE_JPEG },
    { AVCOL_PRI_UNSPECIFIED, AVCOL_TRC_UNSPECIFIED, AVCOL_SPC_UNSPECIFIED, AVCOL_RANGE_UNSPECIFIED },
    { AVCOL_PRI_BT2020,    AVCOL_TRC_ARIB_STD_B67, AVCOL_SPC_BT2020_NCL, AVCOL_RANGE_MPEG },
    { AVCOL_PRI_BT709,     AVCOL_TRC_IEC61966_2_1, AVCOL_SPC_BT709,  AVCOL_RANGE_JPEG },
};

static void test_nothing_lost(int threads, const char *filters)
{
    enum { N = 1000 };
    AVFilterGraph *g = avfilter_graph_alloc();
    AVFilterContext *src = NULL, *sink = NULL;
    AVFilterInOut *o = avfilter_inout_alloc(), *i = avfilter_inout_alloc();
    AVFrame *base = pattern(AV_PIX_FMT_YUVA420P, 48, 32, 151), *f, *got = av_frame_alloc();
    int nin = 0, nout = 0, ret, bad_ts = 0, bad_sd = 0, bad_alpha = 0, bad_tags = 0, cmds = 0;
    int64_t pts[N];

    g->nb_threads = threads;
    ret = avfilter_graph_create_filter(&src, avfilter_get_by_name("buffer"), "in",
            "video_size=48x32:pix_fmt=yuva420p:time_base=1/90000:pixel_aspect=1/1", NULL, g);
    if (ret >= 0)
        ret = avfilter_graph_create_filter(&sink, avfilter_get_by_name("buffersink"), "out", NULL, NULL, g);
    o->name = av_strdup("in");  o->filter_ctx = src;
    i->name = av_strdup("out"); i->filter_ctx = sink;
    if (ret >= 0)
        ret = avfilter_graph_parse_ptr(g, filters, &i, &o, NULL);
    if (ret >= 0)
        ret = avfilter_graph_config(g, NULL);
    avfilter_inout_free(&i);
    avfilter_inout_free(&o);

    for (int k = 0; k <= N && ret >= 0; k++) {
        if (k < N) {
            const int *d = descs[(k / 3) % FF_ARRAY_ELEMS(descs)];   /* change every 3 frames */
            AVFrameSideData *sd;
            AVMasteringDisplayMetadata *md;
            f = av_frame_clone(base);
            /* new pixels every frame: alpha included */
            for (int y = 0; y < 32; y++)
                for (int x = 0; x < 48; x++)
                    f->data[3][y * f->linesize[3] + x] = (uint8_t)(k * 7 + x * 3 + y);
            f->color_primaries = d[0];
            f->color_trc       = d[1];
            f->colorspace      = d[2];
            f->color_range     = d[3];
            f->pts      = pts[k] = 1000 + 3003LL * k + (k % 7 == 3 ? 17 : 0); /* irregular */
            f->duration = 3003 + (k & 1);
            f->flags   |= (k % 12 == 0) ? AV_FRAME_FLAG_KEY : 0;
            sd = av_frame_new_side_data(f, AV_FRAME_DATA_SEI_UNREGISTERED, 24);
            memset(sd->data, k & 0xff, 24);
            sd = av_frame_new_side_data(f, AV_FRAME_DATA_A53_CC, 9);
            memset(sd->data, (k * 5) & 0xff, 9);
            sd = av_frame_new_side_data(f, AV_FRAME_DATA_DISPLAYMATRIX, 36);
            av_display_rotation_set((int32_t *)sd->data, 90);
            md = av_mastering_display_metadata_create_side_data(f);
            md->has_luminance = 1;
            md->max_luminance = av_make_q(1000 + k, 1);
            md->min_luminance = av_make_q(1, 200);
            av_content_light_metadata_create_side_data(f);
            av_dict_set_int(&f->metadata, "frame", k, 0);
            if ((ret = av_buffersrc_add_frame_flags(src, f, AV_BUFFERSRC_FLAG_KEEP_REF)) < 0) {
                av_frame_free(&f);
                break;
            }
            nin++;
            /* a runtime command every 250 frames: the output description changes */
            if (k % 250 == 249) {
                avfilter_graph_send_command(g, "cspfix", "trc", k % 500 == 249 ? "smpte2084" : "bt709",
                                            NULL, 0, 0);
                cmds++;
            }
        } else {
            f = NULL;
            ret = av_buffersrc_add_frame(src, NULL);
        }
        while (ret >= 0 && av_buffersink_get_frame(sink, got) >= 0) {
            /* output frame nout came from input frame nout: compare with it */
            const int kk = nout;
            const AVDictionaryEntry *e = av_dict_get(got->metadata, "frame", NULL, 0);
            const int hdr = got->color_trc == AVCOL_TRC_SMPTE2084 || got->color_trc == AVCOL_TRC_ARIB_STD_B67;
            AVFrame *ref = av_frame_clone(base);
            for (int y = 0; y < 32; y++)
                for (int x = 0; x < 48; x++)
                    ref->data[3][y * ref->linesize[3] + x] = (uint8_t)(kk * 7 + x * 3 + y);
            bad_ts += got->pts != pts[kk] || got->duration != 3003 + (kk & 1) ||
                      !!(got->flags & AV_FRAME_FLAG_KEY) != (kk % 12 == 0);
            {
                const AVFrameSideData *a = av_frame_get_side_data(got, AV_FRAME_DATA_SEI_UNREGISTERED);
                const AVFrameSideData *c = av_frame_get_side_data(got, AV_FRAME_DATA_A53_CC);
                const AVFrameSideData *m = av_frame_get_side_data(got, AV_FRAME_DATA_DISPLAYMATRIX);
                const AVFrameSideData *md = av_frame_get_side_data(got, AV_FRAME_DATA_MASTERING_DISPLAY_METADATA);
                const AVFrameSideData *cl = av_frame_get_side_data(got, AV_FRAME_DATA_CONTENT_LIGHT_LEVEL);
                bad_sd += !a || a->size != 24 || a->data[0] != (kk & 0xff) ||
                          !c || c->size != 9 || c->data[0] != ((kk * 5) & 0xff) ||
                          !m || av_display_rotation_get((const int32_t *)m->data) != -90.0 ||
                          !e || atoi(e->value) != kk ||
                          /* colour-dependent HDR metadata: present exactly for PQ/HLG
                           * output (its values are the filter's to rewrite) */
                          !!md != hdr || !!cl != hdr;
            }
            bad_alpha += got->format != AV_PIX_FMT_YUVA420P;
            for (int y = 0; y < 32 && got->format == AV_PIX_FMT_YUVA420P; y++)
                bad_alpha += memcmp(got->data[3] + y * got->linesize[3], ref->data[3] + y * ref->linesize[3], 48) != 0;
            bad_tags += got->color_primaries != AVCOL_PRI_BT709 || got->colorspace != AVCOL_SPC_BT709;
            av_frame_free(&ref);
            av_frame_unref(got);
            nout++;
        }
        av_frame_free(&f);
    }
    VCHECK(ret >= 0 && nin == N && nout == N && !bad_ts && !bad_sd && !bad_alpha && !bad_tags,
          "nothing lost (%d threads, %s, description changing every 3 frames, %d commands): "
          "%d frames in, %d out; %d with wrong pts/duration/flags, %d with wrong side data or "
          "metadata, %d alpha rows differ, %d wrong tags (%d)",
          threads, filters, cmds, nin, nout, bad_ts, bad_sd, bad_alpha, bad_tags, ret);
    av_frame_free(&got);
    av_frame_free(&base);
    avfilter_graph_free(&g);
}

static void test_nothing_lost_all(void)
{
    test_nothing_lost(1, "cspfix=all=bt709");
    test_nothing_lost(2, "cspfix=all=bt709:dither=ed,format=yuva420p");
}

/* Usage: [CSPFIX_CPUFLAGS=0] badinput_test [-v] [test-name-substring] */
int main(int argc, char **argv)
{
    static const struct { const char *name; void (*fn)(void); } tests[] = {
        { "tiny", test_tiny }, { "wide", test_wide }, { "negative_linesize", test_negative_linesize },
        { "odd_linesize", test_odd_linesize }, { "crop", test_crop }, { "hardware", test_hardware },
        { "format_change", test_format_change }, { "bad_values", test_bad_values },
        { "inexpressible", test_inexpressible }, { "alloc_fail", test_alloc_fail },
        { "nothing_lost", test_nothing_lost_all },
    };
    const char *only = NULL;

    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-v"))
            verbose = 1;
        else
            only = argv[i];
    }
    /* CSPFIX_CPUFLAGS=0: C kernels only, which ASan instruments (it does not see
     * the NASM kernels' accesses) */
    if (getenv("CSPFIX_CPUFLAGS"))
        av_force_cpu_flags(atoi(getenv("CSPFIX_CPUFLAGS")));
    cspfix_log_capture();
    av_log_set_level(AV_LOG_WARNING);
    for (int i = 0; i < FF_ARRAY_ELEMS(tests); i++)
        if (!only || strstr(tests[i].name, only))
            tests[i].fn();
    printf("badinput: %d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
