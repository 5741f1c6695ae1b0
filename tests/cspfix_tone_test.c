/*
 * cspfix tone-mapping checks a colour scientist would run
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
 * - Every tone curve is non-decreasing, for every source peak from 203 to 10000 cd/m2 and
 *   SDR and HDR targets: the light out, G(m) m, in float64 (the planner's curve) on a fine
 *   grid and as the kernels evaluate it (the float table, G(m) * m in float) on every
 *   float from 2^-20 to 64 in steps of 2^-8 of an octave; in float64 a step down of
 *   rounding size (1e-12, where a curve is flat at its top) is allowed, in the tables one
 *   of TABLE_STEP (at kinks, below); the largest are printed.
 * - A neutral ramp (PQ, every 10-bit code) stays neutral through every tone curve, with
 *   desat, every gamut mode and peak=auto: Cb and Cr of the SDR output within 1 LSB of 128.
 */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libavutil/frame.h>
#include <libavutil/log.h>
#include <libavutil/macros.h>
#include <libavutil/mem.h>
#include <libavutil/pixfmt.h>

#include "libavfilter/cspfix_plan.h"
#include "libavfilter/cspfix_tf.h"
#include "libavfilter/cspfix_tonemap.h"

#include "cspfix_testutil.h"

#include "cspfix_check.h"

/* A float table (one cubic per 1/64 octave) across a curve's kink (tonemap=clip at its
 * target, the other curves where they reach the target at the source peak) wiggles:
 * measured steps down of up to 1.8e-4 relative there (0.04 LSB at 8 bits, 0.16 at 10).
 * The bound until the tables fit kinks exactly. */
#define TABLE_STEP 2.5e-4

static const int curves[] = { CSPFIX_TM_CLIP, CSPFIX_TM_BT2390, CSPFIX_TM_REINHARD,
                              CSPFIX_TM_HABLE, CSPFIX_TM_MOBIUS };
static const char *const curve_names[] = { "clip", "bt2390", "reinhard", "hable", "mobius" };

static void test_monotonic(void)
{
    static const double peaks[] = { 203, 300, 400, 600, 1000, 1500, 2000, 4000, 6000, 10000 };
    static const double targets[] = { 203, 100, 600, 1000 };
    CspfixTFTable *t = av_malloc(sizeof(*t));
    int nb = 0, bad = 0;
    double worst = 0.0, worst_f = 0.0;

    if (!t) {
        CHECK(0, "out of memory");
        return;
    }
    for (int c = 0; c < FF_ARRAY_ELEMS(curves); c++) {
        for (int p = 0; p < FF_ARRAY_ELEMS(peaks); p++) {
            for (int d = 0; d < FF_ARRAY_ELEMS(targets); d++) {
                const CspfixOp op = { .type = CSPFIX_OP_TONEMAP, .tm = curves[c],
                                      .src_peak = peaks[p], .dst_peak = targets[d],
                                      .out_white = targets[d] };
                CspfixToneCurve tc;
                double prev = 0.0;
                float prevf = 0.0f;
                int ok = 1;

                ff_cspfix_tone_curve_init(&tc, &op);
                /* float64, m (1.0 = 203 cd/m2) up to twice the source peak */
                for (int k = 1; k <= 20000; k++) {
                    const double m = k * (2.0 * peaks[p] / CSPFIX_REF_WHITE) / 20000;
                    const double l = ff_cspfix_tone_curve_gain(&tc, m) * m;
                    if (l < prev) {
                        ok &= l >= prev * (1.0 - 1e-12);
                        worst = FFMAX(worst, (prev - l) / prev);
                    }
                    prev = l;
                }
                /* the table, as the kernels evaluate it */
                ff_cspfix_tf_build(t, ff_cspfix_tone_curve_gain, &tc, CSPFIX_TF_POW_TOL);
                for (int e = -20; e < 6; e++) {
                    for (int i = 0; i < 256; i++) {
                        const float m = ldexpf(1.0f + i / 256.0f, e);
                        const float l = ff_cspfix_tf_eval(t, m) * m;
                        if (l < prevf) {
                            ok &= l >= prevf * (1.0 - TABLE_STEP);
                            worst_f = FFMAX(worst_f, (prevf - l) / prevf);
                        }
                        prevf = l;
                    }
                }
                nb++;
                if (!ok && bad++ < 5)
                    printf("  not monotonic: %s %g -> %g cd/m2\n", curve_names[c], peaks[p],
                           targets[d]);
            }
        }
    }
    printf("tone curves: %d of %d (curve, source peak 203..10000, target) non-decreasing "
           "(largest step down, relative: float64 %.2g (rounding where a curve is flat; "
           "allowed 1e-12), float tables %.2g (at kinks; allowed %.2g))\n", nb - bad, nb,
           worst, worst_f, TABLE_STEP);
    CHECK(!bad, "%d tone curves decrease somewhere", bad);
    av_free(t);
}

static void test_neutral(void)
{
    static const char *const modes[] = {
        "tonemap=bt2390", "tonemap=clip", "tonemap=reinhard", "tonemap=hable",
        "tonemap=mobius", "tonemap=none", "tonemap=bt2390:desat=1",
        "tonemap=hable:desat=0.5", "gamut=clip", "gamut=desaturate", "gamut=compress",
        "peak=auto", "peak=auto:lookahead=2:gamut=compress", "peak=10000", "peak=400",
    };
    const int w = 1024, h = 8;
    AVFrame *in = cspfix_alloc_frame(AV_PIX_FMT_YUV420P10, w, h, AVCOL_PRI_BT2020,
                                     AVCOL_TRC_SMPTE2084, AVCOL_SPC_BT2020_NCL, AVCOL_RANGE_JPEG);
    int worst = 0, ok = 1;

    if (!in) {
        CHECK(0, "out of memory");
        return;
    }
    /* every 10-bit code (full range), neutral */
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            cspfix_set_sample(in, 0, x, y, 1, x);
    for (int p = 1; p < 3; p++)
        for (int y = 0; y < h / 2; y++)
            for (int x = 0; x < w / 2; x++)
                cspfix_set_sample(in, p, x, y, 1, 512);
    for (int i = 0; i < FF_ARRAY_ELEMS(modes); i++) {
        char graph[256];
        AVFrame *out = NULL;
        int m = 0;

        snprintf(graph, sizeof(graph), "cspfix=all=bt709:format=yuv420p:%s", modes[i]);
        if (cspfix_run1(in, graph, 2, &out) < 0) {
            CHECK(0, "%s: the graph ran", modes[i]);
            ok = 0;
            continue;
        }
        for (int p = 1; p < 3; p++)
            for (int y = 0; y < h / 2; y++)
                for (int x = 0; x < w / 2; x++)
                    m = FFMAX(m, abs(cspfix_sample(out, p, x, y, 0) - 128));
        CHECK(m <= 1, "%s: a neutral ramp comes out %d LSB off neutral", modes[i], m);
        worst = FFMAX(worst, m);
        av_frame_free(&out);
    }
    if (ok)
        printf("neutral PQ ramp (1024 codes) through %d modes: Cb, Cr at most %d LSB from 128\n",
               (int)FF_ARRAY_ELEMS(modes), worst);
    av_frame_free(&in);
}

int main(void)
{
    av_log_set_level(AV_LOG_ERROR);
    test_monotonic();
    test_neutral();
    printf("tone: %d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
