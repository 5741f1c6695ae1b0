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
 *   float from 2^-20 to 64 in steps of 2^-8 of an octave, on max-RGB and on IPT's
 *   intensity; a step down of rounding size, where a curve is flat at its top, is
 *   allowed (float64 1e-12, the tables TABLE_STEP, below); the largest are printed.
 * - bt2446a against Report ITU-R BT.2446-1 Method A written here and against values
 *   worked out by hand; bt2390 with target_black against BT.2390's EETF with its black
 *   lift (step 4) written here, and without target_black unchanged; spline and bt2446a
 *   reach the target at the source peak.
 * - A neutral ramp (PQ, every 10-bit code) stays neutral through every tone curve, with
 *   desat, every gamut mode and peak=auto: Cb and Cr of the SDR output within 1 LSB of 128.
 */

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libavutil/frame.h>
#include <libavutil/hdr_dynamic_metadata.h>
#include <libavutil/log.h>
#include <libavutil/macros.h>
#include <libavutil/mem.h>
#include <libavutil/pixfmt.h>

#include "libavfilter/cspfix_plan.h"
#include "libavfilter/cspfix_tf.h"
#include "libavfilter/cspfix_tonemap.h"

#include "cspfix_testutil.h"

#include "cspfix_check.h"

/* The float tables (one cubic per 1/64 octave) have their variable scaled so that the
 * curve's corner (tonemap=clip at its target, the other curves where they reach the
 * target) and the floor below which the gain is constant fall on segment boundaries
 * (ff_cspfix_tone_tables()): no cubic spans a corner. What is left is rounding: G(m) m
 * in float where the curve is flat, G(m) = top / m, steps by a float ulp or two. Before
 * the scaling the cubics across corners stepped down by up to 1.8e-4. */
#define TABLE_STEP (3 * FLT_EPSILON)
/* An L2 trim's crush (a negative offset) takes the darkest light to 0: there the tables'
 * cubics wiggle around 0 by 1e-32 or so. Steps that small in absolute terms (1.0 = 203
 * cd/m2; 1e-12 is 2e-10 cd/m2, a 60th of the smallest 16-bit PQ code) are not counted. */
#define TABLE_ZERO 1e-12
/* Above 2^8 (52,000 cd/m2) the tables continue the flat light out octave by octave; before,
 * they repeated their last segment, and the light out was wrong by up to 50 %. */
#define TABLE_HIGH 1e-6

static const int curves[] = { CSPFIX_TM_CLIP, CSPFIX_TM_BT2390, CSPFIX_TM_REINHARD,
                              CSPFIX_TM_HABLE, CSPFIX_TM_MOBIUS, CSPFIX_TM_ST2094_40,
                              CSPFIX_TM_BT2446A, CSPFIX_TM_SPLINE, CSPFIX_TM_BT2390,
                              CSPFIX_TM_BT2390, CSPFIX_TM_SPLINE };
static const char *const curve_names[] = { "clip", "bt2390", "reinhard", "hable", "mobius",
                                           "st2094-40", "bt2446a", "spline",
                                           "bt2390 target_black=0.1",
                                           "bt2390 target_black=5",
                                           "spline, scene average 150 cd/m2" };
/* target_black (cd/m2) of each: 5 is past BT.2390's b = 1/4 for every source peak here */
static const double curve_blacks[] = { 0, 0, 0, 0, 0, 0, 0, 0, 0.1, 5, 0 };
/* the scene's average (cd/m2; spline's knee) */
static const double curve_avgs[] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 150 };

/* An HDR10+ curve as a grading tool writes one (knee, 9 anchors), for a 1000 cd/m2 display */
static const int knee[2] = { 160, 380 };            /* of 4095 */
static const int anchors[9] = { 310, 520, 670, 780, 850, 905, 945, 975, 993 };  /* of 1023 */

static void bezier(CspfixBezier *bz)
{
    memset(bz, 0, sizeof(*bz));
    bz->n      = 10;
    bz->kx     = knee[0] / 4095.0;
    bz->ky     = knee[1] / 4095.0;
    bz->target = 1000.0;
    for (int k = 1; k < bz->n; k++)
        bz->p[k] = anchors[k - 1] / 1023.0;
    bz->p[bz->n] = 1.0;
}

/* SMPTE ST 2094-40 Annex B written here: y(x) for x = L / Ls */
static double st2094_model(double x)
{
    const double kx = knee[0] / 4095.0, ky = knee[1] / 4095.0;
    const int n = 10;
    double t, b = 0.0, binom = 1.0;

    if (x >= 1.0)
        return 1.0;
    if (x <= kx)
        return ky / kx * x;
    t = (x - kx) / (1.0 - kx);
    for (int k = 0; k <= n; k++) {
        const double p = k == 0 ? 0.0 : k == n ? 1.0 : anchors[k - 1] / 1023.0;
        b += binom * pow(t, k) * pow(1.0 - t, n - k) * p;
        binom = binom * (n - k) / (k + 1);
    }
    return ky + (1.0 - ky) * b;
}

static void test_monotonic(void)
{
    static const double peaks[] = { 203, 300, 400, 600, 1000, 1500, 2000, 4000, 6000, 10000 };
    static const double targets[] = { 203, 100, 600, 1000 };
    /* Dolby Vision L2 trims (for the 100 cd/m2 display an SDR output is), on max-RGB
     * curves to SDR white: brighter with a lifted black, darker with a crushed one, the
     * extremes of the 12-bit codes */
    static const CspfixTrim trims[] = {
        { 100.0, 1.3, 0.05, 0.8 }, { 100.0, 0.6, -0.1, 1.4 }, { 100.0, 4095 / 4096.0 + 0.5,
          4095 / 4096.0 - 0.5, 0.5 },
    };
    const int nt = 2 * FF_ARRAY_ELEMS(targets);
    CspfixTFTable *t = av_malloc(sizeof(*t)), *t2 = av_malloc(sizeof(*t2));
    int nb = 0, bad = 0;
    double worst = 0.0, worst_f = 0.0, worst_h = 0.0;

    if (!t || !t2) {
        av_free(t);
        av_free(t2);
        CHECK(0, "out of memory");
        return;
    }
    for (int c = 0; c < FF_ARRAY_ELEMS(curves); c++) {
        for (int p = 0; p < FF_ARRAY_ELEMS(peaks); p++) {
            for (int d = 0; d < nt + FF_ARRAY_ELEMS(trims); d++) {
                /* d odd: the curve on IPT's intensity (tmmode=ipt): m is I, G(I) I the
                 * intensity out; d >= nt: trimmed */
                const double lt = d < nt ? targets[d / 2] : 203.0;
                CspfixOp op = { .type = CSPFIX_OP_TONEMAP, .tm = curves[c],
                                .src_peak = peaks[p], .dst_peak = lt,
                                .out_white = lt, .dst_black = curve_blacks[c],
                                .by_first = d < nt && (d & 1), .desat = 0.75,
                                .src_avg = curve_avgs[c] };
                CspfixToneCurve tc;
                double prev = 0.0;
                float prevf = 0.0f;
                int ok = 1;

                bezier(&op.bz);
                if (d >= nt)
                    op.trim = trims[d - nt];
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
                ff_cspfix_tone_tables(t, t2, &op);
                for (int e = -20; e < 64; e++) {
                    for (int i = 0; i < 256; i++) {
                        const float m = ldexpf(1.0f + i / 256.0f, e);
                        const float ms = m * t->in_scale[0];
                        const float x  = ms > t->in_floor[0] ? ms : t->in_floor[0];
                        const float l  = ff_cspfix_tf_eval(t, x) * m;
                        if (l < prevf && prevf > TABLE_ZERO) {
                            ok &= l >= prevf * (1.0 - TABLE_STEP);
                            worst_f = FFMAX(worst_f, (prevf - l) / prevf);
                        }
                        prevf = l;
                        /* above the fitted range (2^8): the curve's light, continued */
                        if (e >= CSPFIX_TF_EMAX) {
                            const double lm = ff_cspfix_tone_curve_gain(&tc, m) * m;
                            const double err = fabs(l - lm) / lm;
                            /* and the desaturation weight (0.75 at most) */
                            const double dm = ff_cspfix_tone_curve_desat(&tc, m);
                            const double derr = fabs(ff_cspfix_tf_eval(t2, x) - dm) / 0.75;
                            ok &= err <= TABLE_HIGH && derr <= TABLE_HIGH;
                            worst_h = FFMAX(worst_h, FFMAX(err, derr));
                        }
                    }
                }
                nb++;
                if (!ok && bad++ < 5)
                    printf("  not monotonic: %s%s %g -> %g cd/m2 (float64 %d)\n", curve_names[c],
                           d >= nt ? " L2 trim" : d & 1 ? " tmmode=ipt" : "", peaks[p], lt, d);
            }
        }
    }
    printf("tone curves: %d of %d (curve, source peak 203..10000, target, max-RGB and IPT's "
           "intensity, and %d Dolby Vision L2 trims) non-decreasing (largest step down, relative: float64 %.2g (rounding "
           "where a curve is flat; allowed 1e-12), float tables %.2g (rounding where a curve "
           "is flat; allowed %.2g, 3 float ulps)); light from 2^8 to 2^64 (above the fitted "
           "range) against float64: largest error of G m and of D (desat 0.75) %.2g relative (allowed %.2g)\n",
           nb - bad, nb, (int)FF_ARRAY_ELEMS(trims), worst, worst_f, TABLE_STEP, worst_h, TABLE_HIGH);
    CHECK(!bad, "%d tone curves decrease somewhere", bad);
    av_free(t);
    av_free(t2);
}

/*
 * tonemap=st2094-40: the curve against the Annex B formula written above; the filter runs
 * it from the frame's AVDynamicHDRPlus: auto picks it when target_peak is the curve's
 * display (and bt2390 otherwise), and without a curve in the frames st2094-40 is bt2390.
 */
static int add_hdr10plus(AVFrame *f, double maxscl)
{
    AVDynamicHDRPlus *h = av_dynamic_hdr_plus_create_side_data(f);
    AVHDRPlusColorTransformParams *p;

    if (!h)
        return AVERROR(ENOMEM);
    h->itu_t_t35_country_code = 0xB5;
    h->application_version    = 1;
    h->num_windows            = 1;
    h->targeted_system_display_maximum_luminance = av_make_q(1000, 1);
    p = &h->params[0];
    for (int c = 0; c < 3; c++)
        p->maxscl[c] = av_make_q(lrint(maxscl * 10), 100000);
    p->average_maxrgb          = av_make_q(100, 100000);
    p->tone_mapping_flag       = 1;
    p->knee_point_x            = av_make_q(knee[0], 4095);
    p->knee_point_y            = av_make_q(knee[1], 4095);
    p->num_bezier_curve_anchors = 9;
    for (int k = 0; k < 9; k++)
        p->bezier_curve_anchors[k] = av_make_q(anchors[k], 1023);
    return 0;
}

static void test_st2094_40(void)
{
    static const char *const graphs[][2] = {
        { "tonemap=auto:target_peak=1000", "tonemap=st2094-40:target_peak=1000" },
        { "tonemap=auto:target_peak=400",  "tonemap=bt2390:target_peak=400" },
        { "tonemap=auto",                  "tonemap=bt2390" },
    };
    const CspfixOp op0 = { .type = CSPFIX_OP_TONEMAP, .tm = CSPFIX_TM_ST2094_40,
                           .src_peak = 4000, .dst_peak = 1000, .out_white = 1000 };
    CspfixOp op = op0;
    CspfixToneCurve tc;
    AVFrame *in, *bare = NULL, *a = NULL, *b = NULL;
    double worst = 0.0;
    int ret, same;

    bezier(&op.bz);
    ff_cspfix_tone_curve_init(&tc, &op);
    for (int k = 1; k <= 40000; k++) {
        const double m = k * (4000.0 / CSPFIX_REF_WHITE) / 40000;
        const double l = ff_cspfix_tone_curve_gain(&tc, m) * m * 1000.0;
        const double ref = 1000.0 * st2094_model(m * CSPFIX_REF_WHITE / 4000.0);
        worst = FFMAX(worst, fabs(l - ref) / ref);
    }
    printf("st2094-40: the curve against ST 2094-40 Annex B (knee, 9 anchors), 4000 -> 1000 "
           "cd/m2: max relative difference %.2g\n", worst);
    CHECK(worst < 1e-12, "st2094-40: the curve is Annex B's (%g)", worst);

    in = cspfix_alloc_frame(AV_PIX_FMT_YUV420P10, 256, 8, AVCOL_PRI_BT2020, AVCOL_TRC_SMPTE2084,
                            AVCOL_SPC_BT2020_NCL, AVCOL_RANGE_JPEG);
    if (!in || !(bare = av_frame_clone(in)) || add_hdr10plus(in, 4000) < 0) {
        CHECK(0, "st2094-40: out of memory");
        goto end;
    }
    for (int y = 0; y < 8; y++)
        for (int x = 0; x < 256; x++) {
            cspfix_set_sample(in, 0, x, y, 1, x * 4);
            if (x < 128 && y < 4) {
                cspfix_set_sample(in, 1, x, y, 1, 512 + (x & 31) * 4);
                cspfix_set_sample(in, 2, x, y, 1, 512 - (x & 15) * 8);
            }
        }
    for (int i = 0; i < FF_ARRAY_ELEMS(graphs); i++) {
        char ga[256], gb[256];
        snprintf(ga, sizeof(ga), "cspfix=all=bt709:format=yuv420p:%s", graphs[i][0]);
        snprintf(gb, sizeof(gb), "cspfix=all=bt709:format=yuv420p:%s", graphs[i][1]);
        ret = cspfix_run1(in, ga, 1, &a);
        if (ret >= 0)
            ret = cspfix_run1(in, gb, 1, &b);
        same = ret >= 0 && cspfix_frames_equal(a, b);
        CHECK(same, "st2094-40: %s gives %s", graphs[i][0], graphs[i][1]);
        av_frame_free(&a);
        av_frame_free(&b);
    }
    /* the curve differs from bt2390, and without HDR10+ st2094-40 is bt2390 */
    ret = cspfix_run1(in, "cspfix=all=bt709:format=yuv420p:tonemap=st2094-40:target_peak=1000", 1, &a);
    if (ret >= 0)
        ret = cspfix_run1(in, "cspfix=all=bt709:format=yuv420p:tonemap=bt2390:target_peak=1000", 1, &b);
    CHECK(ret >= 0 && !cspfix_frames_equal(a, b), "st2094-40: the HDR10+ curve is not bt2390's");
    av_frame_free(&a);
    av_frame_free(&b);
    ret = cspfix_run1(bare, "cspfix=all=bt709:format=yuv420p:tonemap=st2094-40", 1, &a);
    if (ret >= 0)
        ret = cspfix_run1(bare, "cspfix=all=bt709:format=yuv420p:tonemap=bt2390", 1, &b);
    CHECK(ret >= 0 && cspfix_frames_equal(a, b), "st2094-40 without HDR10+ is bt2390");
end:
    av_frame_free(&a);
    av_frame_free(&b);
    av_frame_free(&in);
    av_frame_free(&bare);
}

/*
 * tonemap=bt2446a against Report ITU-R BT.2446-1 Method A written here as plainly as it
 * reads (log, pow, the three pieces), and against values worked out by hand from it.
 */
static double bt2446a_model(double l, double lhdr, double lsdr)
{
    const double rho_hdr = 1.0 + 32.0 * pow(lhdr / 10000.0, 1.0 / 2.4);
    const double rho_sdr = 1.0 + 32.0 * pow(lsdr / 10000.0, 1.0 / 2.4);
    const double y  = pow(l / lhdr, 1.0 / 2.4);
    const double yp = log(1.0 + (rho_hdr - 1.0) * y) / log(rho_hdr);
    double yc;

    if (yp <= 0.7399)
        yc = 1.0770 * yp;
    else if (yp < 0.9909)
        yc = -1.1510 * yp * yp + 2.7811 * yp - 0.6302;
    else
        yc = 0.5 * yp + 0.5;
    return lsdr * pow((pow(rho_sdr, yc) - 1.0) / (rho_sdr - 1.0), 2.4);
}

static double bt2446a_curve(double l, double ls, double lt)
{
    const CspfixOp op = { .type = CSPFIX_OP_TONEMAP, .tm = CSPFIX_TM_BT2446A,
                          .src_peak = ls, .dst_peak = lt, .out_white = lt };
    const double m = l / CSPFIX_REF_WHITE;
    return ff_cspfix_tonemap_gain(&op, m) * m * lt;
}

static void test_bt2446a(void)
{
    static const double pairs[][2] = { { 1000, 100 }, { 1000, 203 }, { 4000, 203 },
                                       { 4000, 1000 }, { 10000, 600 } };
    /*
     * By hand, 1000 -> 100 cd/m2: rho_HDR = 1 + 32 * 0.1^(1/2.4) = 13.25980, ln 2.584737;
     * rho_SDR = 1 + 32 * 0.01^(1/2.4) = 5.696958.
     *   l = 1000: Y' = 1, Y'p = 1, Y'c = 1, Y'SDR = 1: 100 (the target, exactly).
     *   l = 203 (HDR reference white): Y' = 0.203^(1/2.4) = 0.514584,
     *     Y'p = ln(1 + 12.25980 * 0.514584) / 2.584737 = ln 7.30870 / 2.584737 = 0.769543,
     *     Y'c = -1.1510 Y'p^2 + 2.7811 Y'p - 0.6302 = 0.828358 (middle piece),
     *     Y'SDR = (5.696958^0.828358 - 1) / 4.696958 = 3.226129 / 4.696958 = 0.686855,
     *     100 * 0.686855^2.4 = 40.5953.
     *   l = 10: Y' = 0.01^(1/2.4) = 0.146780, Y'p = ln 2.79949 / 2.584737 = 0.398276,
     *     Y'c = 1.0770 Y'p = 0.428943, Y'SDR = (2.109249 - 1) / 4.696958 = 0.236163,
     *     100 * 0.236163^2.4 = 3.13119.
     *   l = 950: Y' = 0.95^(1/2.4) = 0.978855, Y'p = ln 13.00056 / 2.584737 = 0.992361,
     *     Y'c = 0.5 Y'p + 0.5 = 0.996181, Y'SDR = (5.659224 - 1) / 4.696958 = 0.991966,
     *     100 * 0.991966^2.4 = 98.0828.
     */
    static const double hand[][2] = { { 203, 40.5953 }, { 10, 3.13119 }, { 950, 98.0828 } };
    double worst = 0.0, worst_hand = 0.0, at_peak = 0.0;

    for (int i = 0; i < FF_ARRAY_ELEMS(pairs); i++) {
        const double ls = pairs[i][0], lt = pairs[i][1];
        at_peak = FFMAX(at_peak, fabs(bt2446a_curve(ls, ls, lt) - lt) / lt);
        for (int k = 1; k <= 10000; k++) {
            /* 1e-3 cd/m2 (above the gain's floor) to the peak, dense in the shadows */
            const double l = 1e-3 + (ls - 1e-3) * pow(k / 10000.0, 3.0);
            const double ref = bt2446a_model(l, ls, lt);
            worst = FFMAX(worst, fabs(bt2446a_curve(l, ls, lt) - ref) / ref);
        }
    }
    for (int i = 0; i < FF_ARRAY_ELEMS(hand); i++) {
        const double l = bt2446a_curve(hand[i][0], 1000, 100);
        worst_hand = FFMAX(worst_hand, fabs(l - hand[i][1]) / hand[i][1]);
    }
    printf("bt2446a: against BT.2446-1 Method A written here (5 peak pairs, 10000 levels "
           "each) max relative difference %.2g; the source peak gives the target within %.2g "
           "(the curve exactly, then the gain's division); against the values by hand "
           "(1000 -> 100 cd/m2, 6 digits) %.2g\n", worst, at_peak, worst_hand);
    CHECK(worst < 1e-11, "bt2446a: the curve is Method A's (%g)", worst);
    CHECK(at_peak < 1e-15, "bt2446a: the source peak maps to the target (%g)", at_peak);
    CHECK(worst_hand < 2e-5, "bt2446a: the values by hand (%g)", worst_hand);
}

/*
 * tonemap=bt2390 with target_black: BT.2390's EETF with step 4 written here, its own PQ;
 * the lift is below b = 1/4 (as specified) for 0.1 cd/m2; target_black=0 is the curve
 * without a lift bit for bit; spline reaches the target exactly at the source peak.
 */
static double pq_model(double nits)
{
    const double m1 = 2610.0 / 16384, m2 = 2523.0 / 4096 * 128, c1 = 3424.0 / 4096;
    const double c2 = 2413.0 / 4096 * 32, c3 = 2392.0 / 4096 * 32;
    const double y = pow(nits / 10000.0, m1);
    return pow((c1 + c2 * y) / (1.0 + c3 * y), m2);
}

static double pq_model_inv(double e)
{
    const double m1 = 2610.0 / 16384, m2 = 2523.0 / 4096 * 128, c1 = 3424.0 / 4096;
    const double c2 = 2413.0 / 4096 * 32, c3 = 2392.0 / 4096 * 32;
    const double p = pow(e, 1.0 / m2);
    return 10000.0 * pow(FFMAX(p - c1, 0.0) / (c2 - c3 * p), 1.0 / m1);
}

static double bt2390_model(double l, double ls, double lt, double lb)
{
    const double pb = pq_model(0.0), span = pq_model(ls) - pb;
    const double e1 = FFMIN((pq_model(l) - pb) / span, 1.0);
    const double max_lum = (pq_model(lt) - pb) / span, min_lum = (pq_model(lb) - pb) / span;
    const double ks = 1.5 * max_lum - 0.5;
    double e2 = e1;

    if (e1 >= ks) {
        const double t = (e1 - ks) / (1.0 - ks);
        e2 = (2 * t * t * t - 3 * t * t + 1) * ks + (t * t * t - 2 * t * t + t) * (1.0 - ks) +
             (-2 * t * t * t + 3 * t * t) * max_lum;
    }
    e2 += min_lum * pow(1.0 - e2, 4.0);
    return FFMIN(pq_model_inv(e2 * span + pb), lt);
}

static void test_bt2390_black(void)
{
    static const double peaks[] = { 400, 1000, 4000, 10000 };
    double worst = 0.0, lift = 0.0, spline_peak = 0.0;
    int same = 1;

    for (int p = 0; p < FF_ARRAY_ELEMS(peaks); p++) {
        CspfixOp op = { .type = CSPFIX_OP_TONEMAP, .tm = CSPFIX_TM_BT2390,
                        .src_peak = peaks[p], .dst_peak = 203, .out_white = 203 };
        CspfixOp ob = op, sp = op;
        CspfixToneCurve tc, tb;

        ob.dst_black = 0.1;
        sp.tm = CSPFIX_TM_SPLINE;
        ff_cspfix_tone_curve_init(&tc, &op);
        ff_cspfix_tone_curve_init(&tb, &ob);
        spline_peak = FFMAX(spline_peak, fabs(ff_cspfix_tonemap_gain(&sp, peaks[p] /
                            CSPFIX_REF_WHITE) * peaks[p] / CSPFIX_REF_WHITE - 1.0));
        for (int k = 1; k <= 10000; k++) {
            /* 1e-3 cd/m2 (above the gain's floor) to the peak, dense in the shadows */
            const double l = 1e-3 + (peaks[p] - 1e-3) * pow(k / 10000.0, 3.0);
            const double m = l / CSPFIX_REF_WHITE;
            const double ref = bt2390_model(l, peaks[p], 203, 0.1);
            const double got = ff_cspfix_tone_curve_gain(&tb, m) * m * 203;
            worst = FFMAX(worst, fabs(got - ref) / ref);
            /* the lift at the darkest level of the grid (1e-3 cd/m2), over the target black */
            if (k == 1)
                lift = FFMAX(lift, got / 0.1);
            op.dst_black = 0.0;
            same &= ff_cspfix_tone_curve_gain(&tc, m) == ff_cspfix_tonemap_gain(&op, m);
        }
    }
    printf("bt2390 target_black=0.1: against BT.2390's EETF with its black lift written here "
           "(sources 400..10000 -> 203 cd/m2) max relative difference %.2g (the darkest level "
           "(1e-3 cd/m2) comes out at %.4g x the target black); spline at the source peak: the "
           "target within %.2g\n", worst, lift, spline_peak);
    CHECK(worst < 1e-9, "bt2390 target_black: the curve is BT.2390's (%g)", worst);
    CHECK(lift >= 1.0 && lift < 1.5, "bt2390 target_black: black lifts to it (%g)", lift);
    CHECK(same, "bt2390 target_black=0: the curve without a lift");
    CHECK(spline_peak < 1e-15, "spline: the source peak maps to the target (%g)", spline_peak);
}

/*
 * tonemap=spline in the normalised PQ domain (its own PQ): E2(E1) by finite differences has
 * slope s below and at the knee, never above s nor below 0 (monotonic, C1: no jump in
 * the slope between neighbouring steps), and 0 at the source peak. Without the scene's
 * average the knee is BT.2390's KS and s = 1; with an average a above KS (in the
 * normalised PQ domain) the knee is a, at most (1 + KS) / 2, its output on the chord from
 * (KS, KS) to (1, maxLum), and s that output over the knee (written here from the
 * description in cspfix_tonemap.c); a brighter average never brightens the mid-tones.
 */
static void test_spline(void)
{
    static const double peaks[][2] = { { 1000, 203 }, { 4000, 203 }, { 10000, 100 },
                                       { 4000, 1000 } };
    static const double avgs[] = { 0, 5, 30, 100, 300, 2000 };
    const int n = 20000;
    double worst_slope = 0.0, worst_jump = 0.0, knee_dev = 0.0, top = 1.0, moved = 0.0;
    int darker = 1;

    for (int i = 0; i < FF_ARRAY_ELEMS(peaks); i++) {
        const double ls = peaks[i][0], lt = peaks[i][1], pb = pq_model(0.0);
        const double span = pq_model(ls) - pb, max_lum = (pq_model(lt) - pb) / span;
        const double ks0 = 1.5 * max_lum - 0.5;
        double prev_mid = INFINITY;

        for (int v = 0; v < FF_ARRAY_ELEMS(avgs); v++) {
            const double a = avgs[v] > 0.0 ? (pq_model(avgs[v]) - pb) / span : 0.0;
            const double ks = FFMIN(FFMAX(a, ks0), ks0 + 0.5 * (1.0 - ks0));
            const double kd = ks0 + (ks - ks0) * (max_lum - ks0) / (1.0 - ks0), s = kd / ks;
            const CspfixOp op = { .type = CSPFIX_OP_TONEMAP, .tm = CSPFIX_TM_SPLINE,
                                  .src_peak = ls, .dst_peak = lt, .out_white = lt,
                                  .src_avg = avgs[v] };
            CspfixToneCurve tc;
            double prev_e2 = 0.0, prev_slope = s, mid;

            ff_cspfix_tone_curve_init(&tc, &op);
            moved = FFMAX(moved, ks - ks0);
            for (int k = n / 10; k <= n; k++) {
                const double e1 = (double)k / n, m = pq_model_inv(e1 * span + pb) / CSPFIX_REF_WHITE;
                const double e2 = (pq_model(ff_cspfix_tone_curve_gain(&tc, m) * m * lt) - pb) / span;
                if (k > n / 10) {
                    const double slope = (e2 - prev_e2) * n;
                    worst_slope = FFMAX(worst_slope, FFMAX(slope - s, -slope));
                    if (k > n / 10 + 1)
                        worst_jump = FFMAX(worst_jump, fabs(slope - prev_slope));
                    if (e1 <= ks)
                        knee_dev = FFMAX(knee_dev, fabs(slope - s));
                    if (k == n)
                        top = FFMIN(top, slope);
                    prev_slope = slope;
                }
                prev_e2 = e2;
            }
            /* the mid-tones: 20 cd/m2 in */
            mid = ff_cspfix_tone_curve_gain(&tc, 20.0 / CSPFIX_REF_WHITE) * 20.0;
            darker &= mid <= prev_mid * (1.0 + 1e-12);
            prev_mid = mid;
        }
    }
    printf("spline: in the PQ domain (4 peak pairs, 6 scene averages from unknown to 2000 "
           "cd/m2, steps of 1/%d) slope within [0, s] to %.2g, s up to the knee within %.2g, "
           "largest change between steps %.2g (C1), at the source peak %.2g; the knee moved "
           "by up to %.3f (normalised PQ), mid-tones never brighter with a brighter average: "
           "%s\n", n, worst_slope, knee_dev, worst_jump, top, moved, darker ? "yes" : "no");
    CHECK(worst_slope < 1e-6, "spline: slope in [0, s] (%g)", worst_slope);
    CHECK(knee_dev < 1e-6, "spline: slope s up to the knee (%g)", knee_dev);
    CHECK(worst_jump < 1e-3, "spline: the slope has no jump (%g)", worst_jump);
    CHECK(top < 1e-3, "spline: slope 0 at the source peak (%g)", top);
    CHECK(moved > 0.1, "spline: the scene's average moves the knee (%g)", moved);
    CHECK(darker, "spline: a brighter average brightens the mid-tones");
}

static void test_neutral(void)
{
    static const char *const modes[] = {
        "tonemap=bt2390", "tonemap=clip", "tonemap=reinhard", "tonemap=hable",
        "tonemap=mobius", "tonemap=none", "tonemap=bt2390:desat=1",
        "tonemap=hable:desat=0.5", "gamut=clip", "gamut=desaturate", "gamut=compress",
        "peak=auto", "peak=auto:lookahead=2:gamut=compress", "peak=10000", "peak=400",
        "tmmode=ipt", "tmmode=ipt:tonemap=hable:gamut=compress", "tonemap=st2094-40",
        "tonemap=bt2446a", "tonemap=spline", "tonemap=bt2390:target_black=0.1",
        "tmmode=ipt:tonemap=bt2446a", "tmmode=ipt:tonemap=spline",
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
    test_st2094_40();
    test_bt2446a();
    test_bt2390_black();
    test_spline();
    test_neutral();
    printf("tone: %d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
