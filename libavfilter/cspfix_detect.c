/*
 * cspfix: the detector of mislabelled input
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

#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "libavutil/common.h"
#include "libavutil/log.h"
#include "libavutil/intreadwrite.h"
#include "libavutil/pixdesc.h"
#include "libavutil/timestamp.h"

#include "cspfix_colorimetry.h"
#include "cspfix_describe.h"
#include "cspfix_detect.h"

#define R_RANGE_FULL    1
#define R_RANGE_LIMITED 2
#define R_RGB_AS_YCC    4
#define R_YCC_AS_RGB    8
#define R_MATRIX        16

/* frames of statistics a verdict needs */
#define MIN_FRAMES_RANGE   8
#define MIN_FRAMES_LIMITED 48
#define MIN_FRAMES_LAYOUT  8
#define MIN_FRAMES_BARS    3

/* A readable component: whole bytes per sample (8-bit or 16-bit words), any layout. */
typedef struct Comp {
    const uint8_t *data;
    ptrdiff_t linesize;
    int step, offset, shift, depth, wide, be, log2w, log2h;
} Comp;

static int comps_init(Comp c[3], const AVFrame *f)
{
    const AVPixFmtDescriptor *d = av_pix_fmt_desc_get(f->format);

    if (!d || d->nb_components < 1 ||
        (d->flags & (AV_PIX_FMT_FLAG_BITSTREAM | AV_PIX_FMT_FLAG_FLOAT |
                     AV_PIX_FMT_FLAG_PAL | AV_PIX_FMT_FLAG_HWACCEL)))
        return 0;
    for (int i = 0; i < FFMIN(d->nb_components, 3); i++) {
        /* RGB: G first (it carries the picture, as luma does), then B, R */
        const int rgb = !!(d->flags & AV_PIX_FMT_FLAG_RGB), k = rgb ? (i + 1) % 3 : i;
        const AVComponentDescriptor *cd = &d->comp[d->nb_components >= 3 ? k : 0];
        const int bytes = cd->depth + cd->shift <= 8 ? 1 : 2;
        if (cd->depth < 8 || cd->depth + cd->shift > 16 || cd->step % bytes ||
            cd->offset % bytes)
            return 0;
        c[i] = (Comp){ f->data[cd->plane], f->linesize[cd->plane], cd->step, cd->offset,
                       cd->shift, cd->depth, bytes == 2, !!(d->flags & AV_PIX_FMT_FLAG_BE),
                       i && !rgb ? d->log2_chroma_w : 0, i && !rgb ? d->log2_chroma_h : 0 };
    }
    return d->nb_components >= 3 ? 3 : 1;
}

/* sample at (x, y) of the component's own grid, scaled to 8 bits (0..255.x) */
static double sample8(const Comp *c, int x, int y)
{
    const uint8_t *p = c->data + y * c->linesize + x * c->step + c->offset;
    unsigned v = c->wide ? (c->be ? AV_RB16(p) : AV_RL16(p)) : *p;
    v = (v >> c->shift) & ((1u << c->depth) - 1);
    return v / (double)(1 << (c->depth - 8));
}

/* ---- range ---- */

static double hist_share(const CspfixDetect *d, int lo, int hi)
{
    uint64_t n = 0, t = 0;
    for (int i = 0; i < 256; i++) {
        t += d->hist[i];
        n += i >= lo && i <= hi ? d->hist[i] : 0;
    }
    return t ? (double)n / t : 0.0;
}

/* ---- colour bars ---- */

/* Y'CbCr codes (8-bit scale) of an R'G'B' colour in matrix (kr, kb) and range */
static void bar_codes(double out[3], const double rgb[3], double kr, double kb, int full)
{
    const double y = kr * rgb[0] + (1.0 - kr - kb) * rgb[1] + kb * rgb[2];
    const double cb = (rgb[2] - y) / (2.0 * (1.0 - kb)), cr = (rgb[0] - y) / (2.0 * (1.0 - kr));
    out[0] = full ? 255.0 * y : 16.0 + 219.0 * y;
    out[1] = 128.0 + (full ? 255.0 : 224.0) * cb;
    out[2] = 128.0 + (full ? 255.0 : 224.0) * cr;
}

/* The matrices bars are tried in: 601 (smpte170m), 709, 2020 ncl */
static const int bar_csps[3] = { AVCOL_SPC_SMPTE170M, AVCOL_SPC_BT709, AVCOL_SPC_BT2020_NCL };

/* Which of bar_csps the flat runs of colour along three rows of a Y'CbCr frame match
 * (bit k: bar_csps[k] matches at least 4 distinct bar colours); 0: no bars */
static unsigned bars_matrices(const Comp c[3], int w, int h, int full)
{
    static const double levels[2] = { 0.75, 1.0 };
    /* yellow, cyan, green, magenta, red, blue */
    static const int bars[6][3] = {
        { 1, 1, 0 }, { 0, 1, 1 }, { 0, 1, 0 }, { 1, 0, 1 }, { 1, 0, 0 }, { 0, 0, 1 },
    };
    double codes[3][2][6][3];
    unsigned seen[3] = { 0 }, res = 0;
    const int cw = AV_CEIL_RSHIFT(w, c[1].log2w), ch = AV_CEIL_RSHIFT(h, c[1].log2h);
    const int minrun = FFMAX(cw / 24, 4);

    for (int m = 0; m < 3; m++) {
        double kr, kb;
        ff_cspfix_luma_coeffs(bar_csps[m], AVCOL_PRI_BT709, &kr, &kb);
        for (int l = 0; l < 2; l++)
            for (int b = 0; b < 6; b++) {
                const double rgb[3] = { levels[l] * bars[b][0], levels[l] * bars[b][1],
                                        levels[l] * bars[b][2] };
                bar_codes(codes[m][l][b], rgb, kr, kb, full);
            }
    }
    for (int r = 1; r <= 3; r++) {
        const int cy = ch * r / 8, y = cy << c[1].log2h;
        int start = 0;
        double v0[3];
        for (int cx = 0; cx <= cw; cx++) {
            double v[3] = { 0 };
            int same = cx < cw;
            if (cx < cw) {
                v[0] = sample8(&c[0], FFMIN(cx << c[1].log2w, w - 1), y);
                v[1] = sample8(&c[1], cx, cy);
                v[2] = sample8(&c[2], cx, cy);
                if (cx == start)
                    memcpy(v0, v, sizeof(v));
                for (int k = 0; k < 3; k++)
                    same &= fabs(v[k] - v0[k]) <= 1.5;
            }
            if (same)
                continue;
            if (cx - start >= minrun) {
                for (int m = 0; m < 3; m++)
                    for (int l = 0; l < 2; l++)
                        for (int b = 0; b < 6; b++)
                            if (fabs(v0[0] - codes[m][l][b][0]) <= 2.0 &&
                                fabs(v0[1] - codes[m][l][b][1]) <= 2.0 &&
                                fabs(v0[2] - codes[m][l][b][2]) <= 2.0)
                                seen[m] |= 1u << (6 * l + b);
            }
            start = cx;
            if (cx < cw)
                memcpy(v0, v, sizeof(v));
        }
    }
    for (int m = 0; m < 3; m++)
        if (av_popcount(seen[m]) >= 4)
            res |= 1u << m;
    return res;
}

static const char *csp_option_name(int csp)
{
    return csp == AVCOL_SPC_SMPTE170M ? "smpte170m" : csp == AVCOL_SPC_BT709 ? "bt709" :
                                                                             "bt2020nc";
}

/* one colour matrix of bar_csps for a tagged matrix (bt470bg, smpte170m and the like
 * have 601's coefficients) */
static int matrix_family(int csp)
{
    double kr, kb, kr2, kb2;
    if (ff_cspfix_luma_coeffs(csp, AVCOL_PRI_BT709, &kr, &kb) < 0)
        return -1;
    for (int m = 0; m < 3; m++) {
        ff_cspfix_luma_coeffs(bar_csps[m], AVCOL_PRI_BT709, &kr2, &kb2);
        if (fabs(kr - kr2) < 1e-4 && fabs(kb - kb2) < 1e-4)
            return m;
    }
    return -1;
}

/* ---- the frame ---- */

/* detect=fix: log when the fix starts; returns 0 (for the callers' expressions) */
static int fixed(void *ctx, const CspfixDetect *d, const AVFrame *f, const char *what)
{
    av_log(ctx, AV_LOG_INFO, "detect=fix: the input is taken as %s from frame %"PRId64
           " on (the one after pts %s).\n", what, d->frames + 1, av_ts2str(f->pts));
    return 0;
}

static void reset(CspfixDetect *d, const AVFrame *f, int rgb)
{
    memset(d, 0, sizeof(*d));
    d->range = AVCOL_RANGE_UNSPECIFIED;
    d->csp   = AVCOL_SPC_UNSPECIFIED;
    d->tag_range = f->color_range;
    d->tag_csp   = f->colorspace;
    d->tag_rgb   = rgb;
    d->fmt       = f->format + 1;
}

void ff_cspfix_detect_frame(void *ctx, CspfixDetect *d, int mode, const AVFrame *f,
                            const CspfixDesc *id, int user_range, int user_csp)
{
    const int rgb = id->csp == AVCOL_SPC_RGB;
    const int fix = mode == CSPFIX_DETECT_FIX;
    const char *unit = rgb ? "G" : "luma";
    Comp c[3];
    int nc, step;

    if (mode == CSPFIX_DETECT_OFF)
        return;
    if (!d->fmt || d->tag_range != f->color_range || d->tag_csp != f->colorspace ||
        d->tag_rgb != rgb || d->fmt != f->format + 1)
        reset(d, f, rgb);
    d->frames++;
    if ((d->frames > CSPFIX_DETECT_DENSE && d->frames % CSPFIX_DETECT_EVERY) ||
        !(nc = comps_init(c, f)))
        return;
    d->sampled++;
    /* about 16384 samples a frame, at most every 4th of every 4th row */
    step = FFMAX(4, (int)sqrt((double)f->width * f->height / 16384.0));

    /* luma (G) histogram */
    for (int y = 0; y < f->height; y += step)
        for (int x = 0; x < f->width; x += step)
            d->hist[FFMIN((int)sample8(&c[0], x, y), 255)]++;

    /* range */
    if (!user_range && !(d->reported & (R_RANGE_FULL | R_RANGE_LIMITED)) &&
        d->sampled >= MIN_FRAMES_RANGE) {
        const double out = 1.0 - hist_share(d, 16, 235), ext = hist_share(d, 0, 1) +
                           hist_share(d, 254, 255);
        if (id->range == AVCOL_RANGE_MPEG && out > 0.02 && ext > 0.002) {
            av_log(ctx, AV_LOG_WARNING, "The input is tagged limited range (tv), but %.1f %% "
                   "of its %s samples are outside 16-235 and %.2f %% at 0-1 or 254-255 (in "
                   "8-bit codes; %"PRId64" frames read): it looks full range. %s\n",
                   100 * out, unit, 100 * ext, d->sampled,
                   fix ? "detect=fix takes it as full range from the next frame (irange=pc)." :
                         "irange=pc converts it as full range (detect=fix does it for you).");
            d->reported |= R_RANGE_FULL;
            if (fix)
                d->range = fixed(ctx, d, f, "full range") + AVCOL_RANGE_JPEG;
        } else if (id->range == AVCOL_RANGE_JPEG && d->sampled >= MIN_FRAMES_LIMITED &&
                   out < 1e-4 && hist_share(d, 16, 20) > 0.01 &&
                   hist_share(d, 230, 235) > 0.01) {
            av_log(ctx, AV_LOG_WARNING, "The input is tagged full range (pc), but its %s "
                   "never leaves 16-235 (in 8-bit codes) over %"PRId64" frames read, while "
                   "reaching both ends of it: it looks limited range. %s\n", unit, d->sampled,
                   fix ? "detect=fix takes it as limited range from the next frame (irange=tv)." :
                         "irange=tv converts it as limited range (detect=fix does it for you).");
            d->reported |= R_RANGE_LIMITED;
            if (fix)
                d->range = fixed(ctx, d, f, "limited range") + AVCOL_RANGE_MPEG;
        }
    }
    if (nc < 3)
        return;

    /* layout: the moments of the three components at the chroma samples */
    {
        const int cw = AV_CEIL_RSHIFT(f->width, c[1].log2w), ch = AV_CEIL_RSHIFT(f->height, c[1].log2h);
        for (int cy = 0; cy < ch; cy += step) {
            for (int cx = 0; cx < cw; cx += step) {
                const double v[3] = {
                    sample8(&c[0], FFMIN(cx << c[1].log2w, f->width - 1),
                            FFMIN(cy << c[1].log2h, f->height - 1)),
                    sample8(&c[1], cx, cy), sample8(&c[2], cx, cy),
                };
                d->n++;
                for (int k = 0; k < 3; k++) {
                    d->s[k]  += v[k];
                    d->ss[k] += v[k] * v[k];
                }
                d->sy[0] += v[0] * v[1];
                d->sy[1] += v[0] * v[2];
            }
        }
        d->layout_frames++;
    }
    if (d->layout_frames >= MIN_FRAMES_LAYOUT && d->n > 0 &&
        !(d->reported & (R_RGB_AS_YCC | R_YCC_AS_RGB))) {
        double m[3], var[3], cor[2];
        for (int k = 0; k < 3; k++) {
            m[k]   = d->s[k] / d->n;
            var[k] = FFMAX(d->ss[k] / d->n - m[k] * m[k], 0.0);
        }
        for (int k = 0; k < 2; k++)
            cor[k] = var[0] > 0.0 && var[k + 1] > 0.0 ?
                     (d->sy[k] / d->n - m[0] * m[k + 1]) / sqrt(var[0] * var[k + 1]) : 0.0;
        if (!rgb && var[0] > 100.0 && cor[0] > 0.75 && cor[1] > 0.75 &&
            var[1] > 0.3 * var[0] && var[2] > 0.3 * var[0]) {
            av_log(ctx, AV_LOG_WARNING, "The input's pixel format %s says Y'CbCr, but its "
                   "chroma planes follow its luma (correlation %.2f, %.2f) and vary as much "
                   "(variance %.0f, %.0f against %.0f): it looks like RGB data in a Y'CbCr "
                   "format. cspfix "
                   "cannot tell which plane is which colour: reinterpret the frames as a gbr "
                   "format before it (the producer's mistake).\n", av_get_pix_fmt_name(f->format),
                   cor[0], cor[1], var[1], var[2], var[0]);
            d->reported |= R_RGB_AS_YCC;
        } else if (rgb && var[0] > 100.0 && var[1] < 0.25 * var[0] && var[2] < 0.25 * var[0] &&
                   fabs(m[1] - 128.0) < 12.0 && fabs(m[2] - 128.0) < 12.0 &&
                   fabs(cor[0]) < 0.5 && fabs(cor[1]) < 0.5) {
            av_log(ctx, AV_LOG_WARNING, "The input's pixel format %s says RGB, but two of "
                   "its planes stay near the middle code (variance %.1f and %.1f against %.1f) "
                   "and do not follow the third, which carries the picture: it looks like "
                   "Y'CbCr data in an RGB format. Reinterpret the frames as a Y'CbCr format "
                   "before cspfix (the producer's mistake).\n", av_get_pix_fmt_name(f->format),
                   var[1], var[2], var[0]);
            d->reported |= R_YCC_AS_RGB;
        }
    }

    /* matrix: colour bars */
    if (!rgb && !user_csp && !(d->reported & R_MATRIX)) {
        const int tagged = matrix_family(id->csp);
        const unsigned found = tagged >= 0 ?
            bars_matrices(c, f->width, f->height, id->range == AVCOL_RANGE_JPEG) : 0;
        if (found && !(found & (1u << tagged))) {
            const int m = ff_ctz(found);
            if (d->bars_frames && d->bars_csp != bar_csps[m])
                d->bars_frames = 0;
            d->bars_csp = bar_csps[m];
            if (++d->bars_frames >= MIN_FRAMES_BARS) {
                av_log(ctx, AV_LOG_WARNING, "The input is tagged matrix %s, but its colour "
                       "bars have the codes of %s (over %d frames): it looks mislabelled. %s%s%s\n",
                       av_color_space_name(id->csp), csp_option_name(d->bars_csp),
                       d->bars_frames, fix ? "detect=fix converts it as " : "imatrix=",
                       csp_option_name(d->bars_csp), fix ? " from the next frame." :
                       " converts it so (detect=fix does it for you).");
                d->reported |= R_MATRIX;
                if (fix)
                    d->csp = fixed(ctx, d, f, csp_option_name(d->bars_csp)) + d->bars_csp;
            }
        } else {
            d->bars_frames = 0;
        }
    }
}
