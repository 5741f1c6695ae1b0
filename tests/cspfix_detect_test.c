/*
 * cspfix detector tests: mislabelled clips found, correct ones left alone
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
 * Generated clips of several kinds (moving smooth pictures with noise, dark scenes, flat
 * frames, noise, colour bars; Y'CbCr and RGB; limited and full range), each correctly
 * labelled (a detector message is a false alarm) and mislabelled the classic ways (full
 * range tagged limited, limited tagged full, RGB data in a Y'CbCr format and the reverse,
 * BT.601 bars tagged BT.709 and the reverse: a message naming it is a hit). Each kind
 * with several seeds. detect=fix: frames from the one after the message on equal the
 * frames of the option the message names; frames before, the tags' conversion.
 */

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libavutil/common.h>
#include <libavutil/frame.h>
#include <libavutil/log.h>

#include "cspfix_check.h"
#include "cspfix_testutil.h"

#define W 320
#define H 180
#define SEEDS 4

enum Content { C_SMOOTH, C_DARK, C_FLAT, C_NOISE, C_BARS601, C_BARS709, C_NB };
static const char *const content_names[C_NB] = {
    "moving picture", "dark scene", "flat frames", "noise", "bars 601", "bars 709",
};

static uint32_t rng;
static double frand(void)
{
    rng = rng * 1664525u + 1013904223u;
    return (rng >> 8) / 16777216.0;
}

/* The waves of a frame, per column and per row (the same values content_rgb() would
 * compute per pixel: the content's terms are separable) */
typedef struct Waves {
    double s6u[W], c5u[W], s5u[3][W];   ///< sin(6u + ph), cos(5u - ph), sin(5u + ph + k)
    double c4v[H], s3v[H];              ///< cos(4v - ph), sin(3v + ph)
} Waves;

static void waves_init(Waves *w, int seed, int t)
{
    const double ph = seed * 0.7 + t * 0.05;
    for (int x = 0; x < W; x++) {
        const double u = (double)x / W;
        w->s6u[x] = sin(6.0 * u + ph);
        w->c5u[x] = cos(5.0 * u - ph);
        for (int k = 0; k < 3; k++)
            w->s5u[k][x] = sin(5.0 * u + ph + k);
    }
    for (int y = 0; y < H; y++) {
        const double v = (double)y / H;
        w->c4v[y] = cos(4.0 * v - ph);
        w->s3v[y] = sin(3.0 * v + ph);
    }
}

/* R'G'B' in [0, 1] of content c at (x, y), frame t (its waves in w) */
static void content_rgb(int c, int seed, int clean, int x, int y, const Waves *w, double rgb[3])
{
    const double u = (double)x / W, v = (double)y / H;
    switch (c) {
    case C_SMOOTH: {
        /* a shared lightness, colour that varies slowly, grain */
        const double l = 0.5 + 0.6 * w->s6u[x] * w->c4v[y];
        rgb[0] = l + 0.25 * w->s3v[y];
        rgb[1] = l;
        rgb[2] = l + 0.25 * w->c5u[x];
        for (int k = 0; k < 3; k++)
            rgb[k] += 0.01 * (frand() - 0.5);
        break;
    }
    case C_DARK:
        for (int k = 0; k < 3; k++)
            rgb[k] = 0.06 + 0.05 * w->s5u[k][x] * v + 0.01 * frand();
        break;
    case C_FLAT:
        rgb[0] = 0.3 + 0.1 * seed;
        rgb[1] = 0.5;
        rgb[2] = 0.6 - 0.1 * seed;
        break;
    case C_NOISE:
        for (int k = 0; k < 3; k++)
            rgb[k] = frand();
        break;
    default: {
        /* 75 % bars across the top two thirds, a grey ramp below */
        static const int bars[7][3] = {
            { 1, 1, 1 }, { 1, 1, 0 }, { 0, 1, 1 }, { 0, 1, 0 }, { 1, 0, 1 }, { 1, 0, 0 }, { 0, 0, 1 },
        };
        const int b = x * 7 / W;
        for (int k = 0; k < 3; k++)
            rgb[k] = y < H * 2 / 3 ? 0.75 * bars[b][k] : u;
        break;
    }
    }
    /* clean: clipped to the nominal range (graphics, RGB sources); else with the
     * under- and overshoots of camera video (limited range keeps codes 1-254) */
    for (int k = 0; k < 3; k++)
        rgb[k] = clean ? av_clipd(rgb[k], 0.0, 1.0) : av_clipd(rgb[k], -0.05, 1.05);
}

typedef struct Clip {
    int content, seed;
    int fmt;            ///< yuv420p, yuv444p or gbrp
    int full;           ///< the codes are full range
    int csp;            ///< the matrix the codes were made with (Y'CbCr)
    int swap;           ///< 1: RGB data written into the Y'CbCr planes (G, B, R); 2:
                        ///< Y'CbCr data written into the gbrp planes (Y, Cb, Cr)
    int tag_range, tag_csp;
    int frames;
    int clean;          ///< no under- or overshoots
} Clip;

static int code(double v, int full, int chroma)
{
    const double c = chroma ? 128.0 + (full ? 255.0 : 224.0) * v : full ? 255.0 * v : 16.0 + 219.0 * v;
    return av_clip_uint8(lrint(c));
}

static AVFrame *clip_frame(const Clip *c, int t)
{
    const int rgbfmt = c->fmt == AV_PIX_FMT_GBRP;
    AVFrame *f = cspfix_alloc_frame(c->fmt, W, H, AVCOL_PRI_BT709, AVCOL_TRC_BT709,
                                    rgbfmt ? AVCOL_SPC_RGB : c->tag_csp, c->tag_range);
    const double kr = c->csp == AVCOL_SPC_BT709 ? 0.2126 : 0.299;
    const double kb = c->csp == AVCOL_SPC_BT709 ? 0.0722 : 0.114;
    const int sub = c->fmt == AV_PIX_FMT_YUV420P;

    static Waves w;

    if (!f)
        return NULL;
    waves_init(&w, c->seed, t);
    rng = 12345u + 977u * c->seed + 131u * t;
    for (int y = 0; y < H; y++) {
        for (int x = 0; x < W; x++) {
            double rgb[3], ycc[3];
            int v[3];
            content_rgb(c->content, c->seed, c->clean, x, y, &w, rgb);
            ycc[0] = kr * rgb[0] + (1 - kr - kb) * rgb[1] + kb * rgb[2];
            ycc[1] = (rgb[2] - ycc[0]) / (2 * (1 - kb));
            ycc[2] = (rgb[0] - ycc[0]) / (2 * (1 - kr));
            if (rgbfmt != (c->swap == 2) || c->swap == 1) {
                /* R'G'B' codes: into gbrp's G, B, R planes, or (swap 1) into Y, Cb, Cr */
                v[0] = code(rgb[1], c->full, 0);
                v[1] = code(rgb[2], c->full, 0);
                v[2] = code(rgb[0], c->full, 0);
            } else {
                for (int k = 0; k < 3; k++)
                    v[k] = code(ycc[k], c->full, k > 0);
            }
            f->data[0][y * f->linesize[0] + x] = v[0];
            if (!sub || (!(x & 1) && !(y & 1))) {
                const int cx = sub ? x / 2 : x, cy = sub ? y / 2 : y;
                f->data[1][cy * f->linesize[1] + cx] = v[1];
                f->data[2][cy * f->linesize[2] + cx] = v[2];
            }
        }
    }
    f->pts = t;
    return f;
}

static char log_text[16384];

static void log_cb(void *avcl, int level, const char *fmt, va_list vl)
{
    size_t n = strlen(log_text);
    if ((level <= AV_LOG_WARNING || (level <= AV_LOG_INFO && strstr(fmt, "detect=fix"))) &&
        n < sizeof(log_text) - 1)
        vsnprintf(log_text + n, sizeof(log_text) - n, fmt, vl);
}

/* run the clip; the detector's messages in log_text; outputs in out[] if given */
static int run_clip(const Clip *c, const char *opts, AVFrame **out)
{
    AVFrame *in[320] = { NULL }, *tmp[320] = { NULL };
    char graph[256];
    int nb_out = 0, ret;

    for (int t = 0; t < c->frames; t++)
        if (!(in[t] = clip_frame(c, t)))
            return -1;
    snprintf(graph, sizeof(graph), "cspfix=%s", opts);
    log_text[0] = 0;
    ret = cspfix_run_graph(in, c->frames, graph, 1, out ? out : tmp, c->frames, &nb_out);
    for (int t = 0; t < c->frames; t++) {
        av_frame_free(&in[t]);
        av_frame_free(&tmp[t]);
    }
    return ret < 0 ? ret : nb_out;
}

static const char *const verdicts[] = {
    "looks full range", "looks limited range", "RGB data in a Y'CbCr", "Y'CbCr data in an RGB",
    "looks mislabelled",
};

static int any_verdict(void)
{
    for (int i = 0; i < FF_ARRAY_ELEMS(verdicts); i++)
        if (strstr(log_text, verdicts[i]))
            return 1;
    return 0;
}

int main(void)
{
    int fa = 0, nc = 0, hits = 0, nm = 0;

    av_log_set_callback(log_cb);
    /* correctly labelled: every content, Y'CbCr 4:2:0 and 4:4:4 limited and full range,
     * RGB full range; 64 frames (the full-range clips 320: enough for the limited-range
     * verdict, which needs 48 frames read) */
    for (int content = 0; content < C_NB; content++) {
        for (int seed = 0; seed < SEEDS; seed++) {
            for (int v = 0; v < 4; v++) {
                const int csp = content == C_BARS709 || (content != C_BARS601 && (seed & 1)) ?
                                AVCOL_SPC_BT709 : AVCOL_SPC_SMPTE170M;
                Clip c = { content, seed, v == 3 ? AV_PIX_FMT_GBRP : v == 1 ? AV_PIX_FMT_YUV444P :
                           AV_PIX_FMT_YUV420P, v >= 2, csp, 0, v >= 2 ? AVCOL_RANGE_JPEG :
                           AVCOL_RANGE_MPEG, csp, v >= 2 ? 320 : 64, seed >= 2 };
                const int n = run_clip(&c, "primaries=bt709", NULL);
                CHECK(n == c.frames, "%s seed %d variant %d: %d frames", content_names[content], seed, v, n);
                nc++;
                if (any_verdict()) {
                    fa++;
                    printf("false alarm: %s seed %d variant %d: %s", content_names[content],
                           seed, v, log_text);
                }
            }
        }
    }
    /* mislabelled */
    for (int seed = 0; seed < SEEDS; seed++) {
        static const struct {
            int content, fmt, full, csp, swap, tag_range, tag_csp, frames;
            const char *verdict, *name;
        } m[] = {
            { C_SMOOTH, AV_PIX_FMT_YUV420P, 1, AVCOL_SPC_BT709, 0, AVCOL_RANGE_MPEG, AVCOL_SPC_BT709, 64, "looks full range", "full range tagged tv" },
            { C_BARS601, AV_PIX_FMT_YUV420P, 1, AVCOL_SPC_SMPTE170M, 0, AVCOL_RANGE_MPEG, AVCOL_SPC_SMPTE170M, 64, "looks full range", "full-range bars tagged tv" },
            { C_SMOOTH, AV_PIX_FMT_YUV420P, 0, AVCOL_SPC_BT709, 0, AVCOL_RANGE_JPEG, AVCOL_SPC_BT709, 320, "looks limited range", "limited range tagged pc" },
            { C_SMOOTH, AV_PIX_FMT_GBRP, 0, AVCOL_SPC_BT709, 0, AVCOL_RANGE_JPEG, AVCOL_SPC_RGB, 320, "looks limited range", "limited-range RGB tagged pc" },
            { C_SMOOTH, AV_PIX_FMT_YUV444P, 1, AVCOL_SPC_BT709, 1, AVCOL_RANGE_JPEG, AVCOL_SPC_BT709, 64, "RGB data in a Y'CbCr", "RGB in yuv444p" },
            { C_SMOOTH, AV_PIX_FMT_GBRP, 1, AVCOL_SPC_BT709, 2, AVCOL_RANGE_JPEG, AVCOL_SPC_RGB, 64, "Y'CbCr data in an RGB", "Y'CbCr in gbrp" },
            { C_BARS601, AV_PIX_FMT_YUV420P, 0, AVCOL_SPC_SMPTE170M, 0, AVCOL_RANGE_MPEG, AVCOL_SPC_BT709, 64, "looks mislabelled", "601 bars tagged bt709" },
            { C_BARS709, AV_PIX_FMT_YUV420P, 0, AVCOL_SPC_BT709, 0, AVCOL_RANGE_MPEG, AVCOL_SPC_SMPTE170M, 64, "looks mislabelled", "709 bars tagged smpte170m" },
        };
        for (int i = 0; i < FF_ARRAY_ELEMS(m); i++) {
            const Clip c = { m[i].content, seed, m[i].fmt, m[i].full, m[i].csp, m[i].swap,
                             m[i].tag_range, m[i].tag_csp, m[i].frames, 1 };
            const int n = run_clip(&c, "primaries=bt709", NULL);
            const int hit = n == c.frames && strstr(log_text, m[i].verdict);
            nm++;
            hits += hit;
            if (!hit)
                printf("missed: %s seed %d: %s\n", m[i].name, seed, log_text);
            else if (!seed)
                printf("hit, %s: %s", m[i].name, log_text);
        }
    }
    printf("detector: %d false alarms in %d correctly labelled clips (%.1f %%), %d hits in %d "
           "mislabelled clips (%.1f %%)\n", fa, nc, 100.0 * fa / nc, hits, nm, 100.0 * hits / nm);
    CHECK(fa == 0, "no false alarm (%d)", fa);
    CHECK(hits == nm, "every mislabel found (%d of %d)", hits, nm);

    /* detect=fix: the frames after the message are irange=pc's, the ones before the tags' */
    {
        const Clip c = { C_SMOOTH, 1, AV_PIX_FMT_YUV420P, 1, AVCOL_SPC_BT709, 0,
                         AVCOL_RANGE_MPEG, AVCOL_SPC_BT709, 40, 1 };
        AVFrame *fix[40] = { NULL }, *pc[40] = { NULL }, *tv[40] = { NULL };
        int from = -1, before = 1, after = 1, off_quiet;
        const char *at;
        run_clip(&c, "primaries=bt709:range=tv:detect=fix", fix);
        if ((at = strstr(log_text, "from frame ")))
            from = atoi(at + 11) - 1;
        run_clip(&c, "primaries=bt709:range=tv:irange=pc:detect=off", pc);
        run_clip(&c, "primaries=bt709:range=tv:detect=off", tv);
        off_quiet = !any_verdict();
        for (int t = 0; t < 40 && from > 0; t++) {
            if (!fix[t] || !pc[t] || !tv[t])
                continue;
            if (t < from)
                before &= cspfix_frames_equal(fix[t], tv[t]);
            else
                after &= cspfix_frames_equal(fix[t], pc[t]);
        }
        printf("detect=fix: the fix from frame %d\n", from);
        CHECK(from > 0 && from < 40, "detect=fix says from which frame (%d)", from);
        CHECK(before && after, "detect=fix: frames before it by the tags (%d), from it as "
              "irange=pc (%d)", before, after);
        CHECK(off_quiet, "detect=off: no message");
        for (int t = 0; t < 40; t++) {
            av_frame_free(&fix[t]);
            av_frame_free(&pc[t]);
            av_frame_free(&tv[t]);
        }
    }
    printf("detect_test: %d passed, %d failed\n", passed, failed);
    return failed != 0;
}
