/*
 * cspfix measured-light tests: peak=auto against metadata that lies, scene cuts
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
 * HDR10 clips (yuv420p10le, BT.2020, PQ) of neutral patches: a mid-grey background, a
 * diffuse-white patch and a highlight patch at the content's peak, converted to SDR
 * BT.709 (the default tone curve) and read back as linear light at the patches' centres
 * (BT.1886: neutral in, neutral out). Figures are printed.
 * - Metadata that lies stops mattering: with peak=auto, a clip whose metadata claims
 *   10000 cd/m2, one with none, and one that claims 1000 cd/m2 with content at 4000 come
 *   out within 2 % of the same clip with true metadata; without peak=auto the lies show
 *   (more than 5 % somewhere), so the comparison can fail; and the measured peak is the
 *   content's (peak=auto within 2 % of peak=<the content's peak>).
 * - Two shots, dark then bright: the first frame of the second shot already has its
 *   shot's curve (as the shot alone gives it); inside a shot the mean output intensity
 *   moves by less than 0.5 % from frame to frame; the curve of the first shot would
 *   give the second shot's diffuse white more than 5 % off (the cut matters).
 * - The same output for 1 and 3 threads.
 * - lookahead=8: one curve over a shot from its first frame; frames, timestamps and
 *   side data in order; lookahead with enable= refused.
 * - HDR10+: the scene's MaxSCL is the source peak (over MaxCLL, under peak=).
 * - The scene's average (tonemap=spline's knee): from HDR10+ average maxRGB, else its
 *   median; a bright average darkens the mid-tones, bt2390 ignores it; an HDR10+ MaxSCL
 *   left 0 is the distribution's top percentile; peak=auto's measured mean moves it too.
 */

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libavutil/csp.h>
#include <libavutil/frame.h>
#include <libavutil/hdr_dynamic_metadata.h>
#include <libavutil/log.h>
#include <libavutil/macros.h>
#include <libavutil/pixfmt.h>

#include "cspfix_testutil.h"

#include "cspfix_check.h"

#define W 256
#define H 144
#define NB 8            /* frames per shot */

typedef struct Scene {
    double grey, white, highlight;      /* cd/m2 */
} Scene;

/* patch centres: background, diffuse white, highlight */
static const int px[3] = { 200, 40, 120 }, py[3] = { 120, 40, 40 };

static int pq_code(double nits)
{
    return lrint(64 + 876 * av_csp_trc_func_from_id(AVCOL_TRC_SMPTE2084)(nits));
}

/* a frame of scene sc (neutral patches), metadata claiming meta cd/m2 (0: none) */
static AVFrame *scene_frame(const Scene *sc, int meta, int pts)
{
    AVFrame *f = cspfix_alloc_frame(AV_PIX_FMT_YUV420P10, W, H, AVCOL_PRI_BT2020,
                                    AVCOL_TRC_SMPTE2084, AVCOL_SPC_BT2020_NCL, AVCOL_RANGE_MPEG);
    const int g = pq_code(sc->grey), w = pq_code(sc->white), hl = pq_code(sc->highlight);

    if (!f)
        return NULL;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            const int in_w  = x >= 16 && x < 64 && y >= 16 && y < 64;
            const int in_hl = x >= 104 && x < 136 && y >= 24 && y < 56;
            cspfix_set_sample(f, 0, x, y, 1, in_hl ? hl : in_w ? w : g);
        }
    for (int p = 1; p < 3; p++)
        for (int y = 0; y < H / 2; y++)
            for (int x = 0; x < W / 2; x++)
                cspfix_set_sample(f, p, x, y, 1, 512);
    f->pts = pts;
    if (meta > 0 && cspfix_set_hdr10(f, meta, meta) < 0)
        av_frame_free(&f);
    return f;
}

/* linear light (SDR, 1.0 = white) of the output's luma at (x, y) */
static double out_light(const AVFrame *f, int x, int y)
{
    const double e = (cspfix_sample(f, 0, x, y, 0) - 16) / 219.0;
    return pow(FFMAX(e, 0.0), 2.4);
}

static double mean_light(const AVFrame *f)
{
    double s = 0.0;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            s += out_light(f, x, y);
    return s / (W * H);
}

/* run nb frames of scenes sc[i] (meta each) through filters; out[] gets the outputs */
static int run(const Scene *sc, int nb, int meta, const char *filters, int threads,
               AVFrame **out)
{
    AVFrame *in[2 * NB] = { 0 };
    int nb_out = 0, ret = 0;

    for (int i = 0; i < nb; i++)
        if (!(in[i] = scene_frame(&sc[i], meta, i)))
            ret = -1;
    if (!ret)
        ret = cspfix_run_graph(in, nb, filters, threads, out, nb, &nb_out);
    for (int i = 0; i < nb; i++)
        av_frame_free(&in[i]);
    return ret < 0 || nb_out != nb ? -1 : 0;
}

static void free_frames(AVFrame **f, int nb)
{
    for (int i = 0; i < nb; i++)
        av_frame_free(&f[i]);
}

/* the largest relative difference of the patches' light between a and b */
static double patch_diff(const AVFrame *a, const AVFrame *b)
{
    double d = 0.0;
    for (int k = 0; k < 3; k++) {
        const double la = out_light(a, px[k], py[k]), lb = out_light(b, px[k], py[k]);
        d = FFMAX(d, fabs(la - lb) / FFMAX(lb, 1e-3));
    }
    return d;
}

#define AUTO  "cspfix=all=bt709:format=yuv420p:dither=none:peak=auto"
#define META  "cspfix=all=bt709:format=yuv420p:dither=none"

static void test_lies(void)
{
    static const struct {
        const char *name;
        double peak;            /* the content's */
        int truth, lie;         /* metadata: the content's, and what the clip claims */
    } cases[] = {
        { "claims 10000 cd/m2, content 1000",  1000.0, 1000, 10000 },
        { "no metadata, content 2000",         2000.0, 2000, 0 },
        { "claims 1000 cd/m2, content 4000",   4000.0, 4000, 1000 },
    };

    for (int i = 0; i < FF_ARRAY_ELEMS(cases); i++) {
        Scene sc[3];
        AVFrame *t[3] = { 0 }, *l[3] = { 0 }, *tm[3] = { 0 }, *lm[3] = { 0 }, *p[3] = { 0 };
        char explicit[128];
        int ok;

        for (int k = 0; k < 3; k++)
            sc[k] = (Scene){ 20.0, 203.0, cases[i].peak };
        snprintf(explicit, sizeof(explicit), META ":peak=%g", cases[i].peak);
        ok = !run(sc, 3, cases[i].truth, AUTO, 1, t) && !run(sc, 3, cases[i].lie, AUTO, 1, l) &&
             !run(sc, 3, cases[i].truth, META, 1, tm) && !run(sc, 3, cases[i].lie, META, 1, lm) &&
             !run(sc, 3, cases[i].truth, explicit, 1, p);
        CHECK(ok, "%s: the graphs ran", cases[i].name);
        if (ok) {
            const double d_auto = patch_diff(l[2], t[2]), d_meta = patch_diff(lm[2], tm[2]);
            const double d_meas = patch_diff(t[2], p[2]);
            printf("%-36s peak=auto: %.2f %% from true metadata (metadata alone: %.1f %%); "
                   "measured vs peak=%g: %.2f %%\n", cases[i].name, 100 * d_auto, 100 * d_meta,
                   cases[i].peak, 100 * d_meas);
            CHECK(d_auto <= 0.02, "%s: peak=auto %.3f from the true metadata's output",
                  cases[i].name, d_auto);
            CHECK(d_meta > 0.05, "%s: without peak=auto the lie should show (%.3f)",
                  cases[i].name, d_meta);
            CHECK(d_meas <= 0.02, "%s: the measured peak's output %.3f from peak=%g's",
                  cases[i].name, d_meas, cases[i].peak);
        }
        free_frames(t, 3);
        free_frames(l, 3);
        free_frames(tm, 3);
        free_frames(lm, 3);
        free_frames(p, 3);
    }
}

static void test_shots(void)
{
    Scene sc[2 * NB];
    AVFrame *all[2 * NB] = { 0 }, *alone[NB] = { 0 }, *thr[2 * NB] = { 0 }, *old[1] = { 0 };
    double worst = 0.0;
    int ok, same = 1;

    for (int i = 0; i < NB; i++) {
        /* dark shot; bright shot; highlights drifting by 1 % a frame */
        sc[i]      = (Scene){ 5.0, 100.0, 600.0 * (1.0 - 0.01 * i) };
        sc[NB + i] = (Scene){ 40.0, 300.0, 4000.0 * (1.0 - 0.01 * i) };
    }
    ok = !run(sc, 2 * NB, 0, AUTO, 1, all) && !run(sc + NB, NB, 0, AUTO, 1, alone) &&
         !run(sc, 2 * NB, 0, AUTO, 3, thr) && !run(sc + NB, 1, 0, META ":peak=600", 1, old);
    CHECK(ok, "two shots: the graphs ran");
    if (ok) {
        const double d_first = patch_diff(all[NB], alone[0]);
        const double d_old   = patch_diff(all[NB], old[0]);
        for (int s = 0; s < 2; s++)
            for (int i = 1; i < NB; i++) {
                const double a = mean_light(all[s * NB + i - 1]), b = mean_light(all[s * NB + i]);
                worst = FFMAX(worst, fabs(b - a) / a);
            }
        for (int i = 0; i < 2 * NB; i++)
            same &= cspfix_frames_equal(all[i], thr[i]);
        printf("two shots: first frame of shot 2 %.2f %% from the shot alone (with shot 1's "
               "curve %.1f %%); largest frame-to-frame change of mean intensity in a shot "
               "%.3f %%\n", 100 * d_first, 100 * d_old, 100 * worst);
        CHECK(d_first <= 0.005, "the first frame of shot 2 has its shot's curve (%.4f)", d_first);
        CHECK(d_old > 0.05, "shot 1's curve would differ (%.3f): the cut matters", d_old);
        CHECK(worst < 0.005, "mean intensity inside a shot moves by %.4f a frame", worst);
        CHECK(same, "peak=auto: 1 and 3 threads give the same frames");
    }
    free_frames(all, 2 * NB);
    free_frames(alone, NB);
    free_frames(thr, 2 * NB);
    free_frames(old, 1);
}

/* a frame's own side data (passes through): its index in an unregistered SEI payload */
static int tag_frame(AVFrame *f, int i)
{
    AVFrameSideData *sd = av_frame_new_side_data(f, AV_FRAME_DATA_SEI_UNREGISTERED, 20);
    if (!sd)
        return -1;
    memset(sd->data, 0, 20);
    sd->data[16] = i;
    return 0;
}

static int frame_tag(const AVFrame *f)
{
    const AVFrameSideData *sd = av_frame_get_side_data(f, AV_FRAME_DATA_SEI_UNREGISTERED);
    return sd && sd->size == 20 ? sd->data[16] : -1;
}

/*
 * lookahead=N: a shot whose highlight rises from 300 to 2000 cd/m2 over its 8 frames is
 * tone mapped with one curve from its first frame (its diffuse white the same in every
 * frame; without look-ahead it drifts); the next shot's first frame is as the shot alone
 * gives it; every frame comes out, in order, with its timestamps and side data; and
 * lookahead with enable= is refused.
 */
static void test_lookahead(void)
{
    Scene sc[2 * NB];
    AVFrame *in[2 * NB] = { 0 }, *la[2 * NB] = { 0 }, *causal[2 * NB] = { 0 }, *alone[NB] = { 0 };
    AVFrame *err[1] = { 0 };
    int nb_la = 0, nb_causal = 0, nb_alone = 0, nb_err = 0, ok = 1, order = 1, ret;
    double drift_la = 0.0, drift_causal = 0.0;

    for (int i = 0; i < NB; i++) {
        sc[i]      = (Scene){ 10.0, 150.0, 300.0 + 1700.0 * i / (NB - 1) };
        sc[NB + i] = (Scene){ 40.0, 300.0, 4000.0 };
    }
    for (int i = 0; i < 2 * NB && ok; i++)
        ok = (in[i] = scene_frame(&sc[i], 1000, 1000 + 40 * i)) && !tag_frame(in[i], i);
    ok = ok && cspfix_run_graph(in, 2 * NB, AUTO ":lookahead=8", 2, la, 2 * NB, &nb_la) >= 0 &&
         cspfix_run_graph(in, 2 * NB, AUTO, 1, causal, 2 * NB, &nb_causal) >= 0 &&
         cspfix_run_graph(in + NB, NB, AUTO ":lookahead=8", 1, alone, NB, &nb_alone) >= 0;
    CHECK(ok && nb_la == 2 * NB && nb_causal == 2 * NB && nb_alone == NB,
          "lookahead: every frame out (%d of %d)", nb_la, 2 * NB);
    if (ok && nb_la == 2 * NB && nb_causal == 2 * NB && nb_alone == NB) {
        const double w0 = out_light(la[0], px[1], py[1]), c0 = out_light(causal[0], px[1], py[1]);
        for (int i = 0; i < 2 * NB; i++)
            order &= la[i]->pts == i && frame_tag(la[i]) == i; /* run_graph numbers pts */
        for (int i = 1; i < NB; i++) {
            drift_la     = FFMAX(drift_la, fabs(out_light(la[i], px[1], py[1]) / w0 - 1.0));
            drift_causal = FFMAX(drift_causal, fabs(out_light(causal[i], px[1], py[1]) / c0 - 1.0));
        }
        printf("lookahead=8: diffuse white over a shot whose highlight rises 300 -> 2000 "
               "cd/m2 moves %.2f %% (without look-ahead %.1f %%); next shot's first frame "
               "%.2f %% from the shot alone\n", 100 * drift_la, 100 * drift_causal,
               100 * patch_diff(la[NB], alone[0]));
        CHECK(order, "lookahead: frames in order with their timestamps and side data");
        CHECK(drift_la == 0.0, "lookahead: one curve over the shot (white moves %.4f)", drift_la);
        CHECK(drift_causal > 0.01, "without look-ahead the curve follows the highlight (%.4f)",
              drift_causal);
        CHECK(patch_diff(la[NB], alone[0]) <= 0.005, "lookahead: the next shot from its first frame");
    }
    av_log_set_level(AV_LOG_QUIET);
    ret = cspfix_run_graph(in, 1, AUTO ":lookahead=2:enable='gte(t,0)'", 1, err, 1, &nb_err);
    av_log_set_level(AV_LOG_ERROR);
    CHECK(ret < 0, "lookahead with enable= is refused");
    free_frames(in, 2 * NB);
    free_frames(la, 2 * NB);
    free_frames(causal, 2 * NB);
    free_frames(alone, NB);
    free_frames(err, 1);
}

/*
 * HDR10+ (ST 2094-40): the scene's MaxSCL is its source peak, over the static metadata
 * (MaxCLL 1000 here) and under peak= and peak=auto.
 */
static void test_hdr10plus(void)
{
    const Scene sc = { 20.0, 203.0, 4000.0 };
    AVFrame *in = scene_frame(&sc, 1000, 0), *dyn = NULL, *ref = NULL, *stat = NULL;
    AVFrame *user = NULL, *user_ref = NULL;
    AVDynamicHDRPlus *h;

    if (!in || !(h = av_dynamic_hdr_plus_create_side_data(in))) {
        CHECK(0, "HDR10+: out of memory");
        av_frame_free(&in);
        return;
    }
    h->itu_t_t35_country_code = 0xB5;
    h->application_version    = 1;
    h->num_windows            = 1;
    h->params[0].maxscl[0]    = av_make_q(40000, 100000);  /* 4000 cd/m2 */
    h->params[0].maxscl[1]    = av_make_q(32000, 100000);
    h->params[0].maxscl[2]    = av_make_q(21000, 100000);
    h->params[0].average_maxrgb = av_make_q(300, 100000);
    if (cspfix_run1(in, META, 1, &dyn) < 0 || cspfix_run1(in, META ":peak=4000", 1, &ref) < 0 ||
        cspfix_run1(in, META ":peak=1000", 1, &stat) < 0 ||
        cspfix_run1(in, META ":peak=2500", 1, &user) < 0) {
        CHECK(0, "HDR10+: the graphs ran");
    } else {
        av_frame_remove_side_data(in, AV_FRAME_DATA_DYNAMIC_HDR_PLUS);
        CHECK(cspfix_run1(in, META ":peak=2500", 1, &user_ref) >= 0, "HDR10+: the graph ran");
        printf("HDR10+ MaxSCL 4000 over MaxCLL 1000: %.2f %% from peak=4000 (MaxCLL's curve "
               "%.1f %% off)\n", 100 * patch_diff(dyn, ref), 100 * patch_diff(dyn, stat));
        CHECK(patch_diff(dyn, ref) == 0.0 && patch_diff(dyn, stat) > 0.05,
              "HDR10+: MaxSCL is the source peak");
        CHECK(user_ref && cspfix_frames_equal(user, user_ref), "HDR10+: peak= still wins");
    }
    av_frame_free(&in);
    av_frame_free(&dyn);
    av_frame_free(&ref);
    av_frame_free(&stat);
    av_frame_free(&user);
    av_frame_free(&user_ref);
}

/* HDR10+ metadata on f: MaxSCL (cd/m2, 0: left 0), average maxRGB (0: none), and the
 * maxRGB distribution's 50th and 99th percentiles (0: none) */
static int set_hdr10plus(AVFrame *f, double maxscl, double avg, double p50, double p99)
{
    AVDynamicHDRPlus *h = av_dynamic_hdr_plus_create_side_data(f);
    AVHDRPlusColorTransformParams *p;

    if (!h)
        return -1;
    h->itu_t_t35_country_code = 0xB5;
    h->application_version    = 1;
    h->num_windows            = 1;
    p = &h->params[0];
    for (int c = 0; c < 3; c++)
        p->maxscl[c] = av_make_q(lrint(maxscl * 10), 100000);
    p->average_maxrgb = av_make_q(lrint(avg * 10), 100000);
    if (p50 > 0.0 && p99 > 0.0) {
        p->num_distribution_maxrgb_percentiles = 2;
        p->distribution_maxrgb[0].percentage = 50;
        p->distribution_maxrgb[0].percentile = av_make_q(lrint(p50 * 10), 100000);
        p->distribution_maxrgb[1].percentage = 99;
        p->distribution_maxrgb[1].percentile = av_make_q(lrint(p99 * 10), 100000);
    }
    return 0;
}

static void test_scene_average(void)
{
    const Scene sc = { 20.0, 203.0, 4000.0 };
    static const struct {
        double maxscl, avg, p50, p99;
    } meta[] = {
        { 4000, 0, 0, 0 },          /* 0: no average */
        { 4000, 300, 0, 0 },        /* 1: a bright scene */
        { 4000, 0, 300, 3000 },     /* 2: its median only */
        { 0, 300, 300, 4000 },      /* 3: MaxSCL left 0, the 99th percentile 4000 */
    };
    static const char *const graphs[] = { META ":tonemap=spline", META };
    AVFrame *out[2][FF_ARRAY_ELEMS(meta)] = { { 0 } }, *aut[2] = { 0 };
    int ok = 1;

    for (int g = 0; g < 2; g++) {
        for (int i = 0; i < FF_ARRAY_ELEMS(meta); i++) {
            AVFrame *in = scene_frame(&sc, 1000, 0);
            if (!in || set_hdr10plus(in, meta[i].maxscl, meta[i].avg, meta[i].p50,
                                     meta[i].p99) < 0 ||
                cspfix_run1(in, graphs[g], 1, &out[g][i]) < 0)
                ok = 0;
            av_frame_free(&in);
        }
    }
    /* peak=auto: the measured mean (the frame is mostly its 20 cd/m2 background) against a
     * bright one (the background at 300 cd/m2), the same peak */
    for (int b = 0; b < 2; b++) {
        const Scene s2 = { b ? 300.0 : 20.0, 203.0, 4000.0 };
        AVFrame *in = scene_frame(&s2, 0, 0);
        if (!in || cspfix_run1(in, AUTO ":tonemap=spline", 1, &aut[b]) < 0)
            ok = 0;
        av_frame_free(&in);
    }
    CHECK(ok, "scene average: the graphs ran");
    if (ok) {
        /* diffuse white (203 cd/m2 in) */
        const double w0 = out_light(out[0][0], px[1], py[1]), w1 = out_light(out[0][1], px[1], py[1]);
        const double wa0 = out_light(aut[0], px[1], py[1]), wa1 = out_light(aut[1], px[1], py[1]);
        printf("scene average (tonemap=spline): diffuse white out %.4f without it, %.4f with "
               "HDR10+ average maxRGB 300 cd/m2 (%.1f %% darker); its median alone gives the "
               "same: %s; MaxSCL left 0 with a 99th percentile of 4000 the same as MaxSCL "
               "4000: %s; bt2390 unchanged by it: %s; peak=auto, background 20 -> 300 cd/m2: "
               "diffuse white %.4f -> %.4f\n", w0, w1, 100 * (1 - w1 / w0),
               cspfix_frames_equal(out[0][1], out[0][2]) ? "yes" : "no",
               cspfix_frames_equal(out[0][1], out[0][3]) ? "yes" : "no",
               cspfix_frames_equal(out[1][0], out[1][1]) ? "yes" : "no", wa0, wa1);
        CHECK(w1 < 0.97 * w0, "scene average: a bright scene's mid-tones darker (%g, %g)", w1, w0);
        CHECK(cspfix_frames_equal(out[0][1], out[0][2]), "scene average: HDR10+ median");
        CHECK(cspfix_frames_equal(out[0][1], out[0][3]) &&
              cspfix_frames_equal(out[1][1], out[1][3]), "scene peak: HDR10+ top percentile");
        CHECK(cspfix_frames_equal(out[1][0], out[1][1]), "scene average: bt2390 ignores it");
        CHECK(wa1 < 0.97 * wa0, "scene average: peak=auto's mean (%g, %g)", wa1, wa0);
    }
    for (int g = 0; g < 2; g++)
        free_frames(out[g], FF_ARRAY_ELEMS(meta));
    free_frames(aut, 2);
}

int main(void)
{
    av_log_set_level(AV_LOG_ERROR);
    test_lies();
    test_shots();
    test_lookahead();
    test_hdr10plus();
    test_scene_average();
    printf("light: %d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
