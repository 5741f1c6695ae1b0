/*
 * cspfix planner unit tests: stages and fused coefficients, no pixels
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
 * Builds plans from pairs of descriptions and checks which stages they hold,
 * and that the fused coefficients equal the float64 reference model's map.
 * Links the static libavfilter for the internal ff_cspfix_* functions.
 */

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "libavutil/log.h"
#include "libavutil/pixfmt.h"
#include "libavfilter/cspfix_colorimetry.h"
#include "libavfilter/cspfix_plan.h"
#include "libavfilter/cspfix_tf.h"
#include "libavfilter/cspfix_tonemap.h"

#include "cspfix_refmodel.h"

#include "cspfix_check.h"

static CspfixDesc desc(int prim, int trc, int csp, int range, int depth)
{
    CspfixDesc d = { prim, trc, csp, range, depth };
    return d;
}

static int build(CspfixPlan *p, CspfixDesc in, CspfixDesc out, int lin)
{
    CspfixPlanOptions o = { .linearize = lin, .wpadapt = CSPFIX_WP_BRADFORD };
    return ff_cspfix_plan_build(p, &in, &out, &o, NULL);
}

static const char *types(const CspfixPlan *p, char *buf)
{
    static const char *const names[] = { "M", "T", "O", "CLd", "CLe", "C", "TM", "G" };
    buf[0] = 0;
    for (int i = 0; i < p->nb_ops; i++) {
        strcat(buf, names[p->ops[i].type]);
        if (i + 1 < p->nb_ops)
            strcat(buf, ",");
    }
    return buf;
}

/* the plan's single affine map applied to codes, against the reference model */
static double max_matrix_error(const CspfixPlan *p, CspfixDesc in, CspfixDesc out)
{
    RefDesc ri = { in.prim, in.trc, in.csp, in.range, in.depth };
    RefDesc ro = { out.prim, out.trc, out.csp, out.range, out.depth };
    RefOptions opt = { REF_LIN_DISPLAY, REF_WP_BRADFORD };
    double maxe = 0.0;
    const int max = (1 << in.depth) - 1;

    for (int i = 0; i < 1000; i++) {
        double c[3] = { (i * 37) % (max + 1), (i * 101) % (max + 1), (i * 211) % (max + 1) };
        double r[3], g[3];
        if (ref_convert(&ri, &ro, &opt, c, r, NULL) < 0)
            return INFINITY;
        for (int k = 0; k < 3; k++) {
            g[k] = p->nb_ops ? p->ops[0].m[k][0] * c[0] + p->ops[0].m[k][1] * c[1] +
                               p->ops[0].m[k][2] * c[2] + p->ops[0].m[k][3] : c[k];
            maxe = fmax(maxe, fabs(g[k] - r[k]));
        }
    }
    return maxe;
}

static void test_shapes(void)
{
    CspfixPlan p;
    char buf[256];
    CspfixDesc a, b;

    a = desc(AVCOL_PRI_BT709, AVCOL_TRC_BT709, AVCOL_SPC_BT709, AVCOL_RANGE_MPEG, 8);
    CHECK(build(&p, a, a, 0) == 0 && p.nb_ops == 0, "identical descriptions: identity, got %s",
          types(&p, buf));

    b = a;
    b.range = AVCOL_RANGE_JPEG;
    CHECK(build(&p, a, b, 0) == 0 && p.nb_ops == 1 && ff_cspfix_plan_is_per_plane(&p),
          "range-only: one per-plane map, got %s", types(&p, buf));
    CHECK(max_matrix_error(&p, a, b) < 1e-9, "range-only coefficients vs reference: %g",
          max_matrix_error(&p, a, b));

    b = a;
    b.depth = 10;
    CHECK(build(&p, a, b, 0) == 0 && p.nb_ops == 1 && ff_cspfix_plan_is_per_plane(&p),
          "depth-only: one per-plane map, got %s", types(&p, buf));

    b = a;
    a.csp = AVCOL_SPC_BT470BG;
    CHECK(build(&p, a, b, 0) == 0 && ff_cspfix_plan_is_linear(&p) && p.nb_ops == 1 &&
          !ff_cspfix_plan_is_per_plane(&p), "matrix-only: one 3x3, got %s", types(&p, buf));
    CHECK(max_matrix_error(&p, a, b) < 1e-9, "matrix-only coefficients vs reference: %g",
          max_matrix_error(&p, a, b));
    /* chroma out of a matrix-only change does not depend on luma in */
    CHECK(p.ops[0].m[1][0] == 0.0 && p.ops[0].m[2][0] == 0.0,
          "matrix-only: chroma independent of luma (%g %g)", p.ops[0].m[1][0], p.ops[0].m[2][0]);

    a = desc(AVCOL_PRI_SMPTE170M, AVCOL_TRC_SMPTE170M, AVCOL_SPC_SMPTE170M, AVCOL_RANGE_MPEG, 8);
    b = desc(AVCOL_PRI_BT709, AVCOL_TRC_BT709, AVCOL_SPC_BT709, AVCOL_RANGE_MPEG, 8);
    CHECK(build(&p, a, b, 0) == 0 && !strcmp(types(&p, buf), "M,T,M,T,M"),
          "full chain: M,T,M,T,M, got %s", types(&p, buf));
    CHECK(p.nb_ops == 5 && p.ops[1].curve == CSPFIX_CURVE_BT1886 && !p.ops[1].encode &&
          p.ops[3].curve == CSPFIX_CURVE_BT1886 && p.ops[3].encode,
          "display mode uses BT.1886 both ways");
    CHECK(build(&p, a, b, 1) == 0 && p.nb_ops == 5 && p.ops[1].curve == CSPFIX_CURVE_BT709,
          "scene mode uses the inverse OETF");

    /* same primaries, different curve: no gamut matrix */
    a = desc(AVCOL_PRI_BT709, AVCOL_TRC_IEC61966_2_1, AVCOL_SPC_BT709, AVCOL_RANGE_MPEG, 8);
    CHECK(build(&p, a, b, 0) == 0 && !strcmp(types(&p, buf), "M,T,M"),
          "transfer only: M,T,M (two curves in one table), got %s", types(&p, buf));
    CHECK(p.nb_ops == 3 && p.ops[1].curve == CSPFIX_CURVE_SRGB && !p.ops[1].encode &&
          p.ops[1].curve2 == CSPFIX_CURVE_BT1886 && p.ops[1].encode2,
          "transfer only: sRGB decode then BT.1886 encode");

    /* bt709 and smpte170m curves are the same function: matrix only */
    a = desc(AVCOL_PRI_BT709, AVCOL_TRC_SMPTE170M, AVCOL_SPC_BT709, AVCOL_RANGE_MPEG, 8);
    CHECK(build(&p, a, b, 0) == 0 && p.nb_ops == 0, "smpte170m vs bt709 transfer: identity, got %s",
          types(&p, buf));

    /* HLG both sides with the same primaries: OOTF pair cancels */
    a = desc(AVCOL_PRI_BT2020, AVCOL_TRC_ARIB_STD_B67, AVCOL_SPC_BT2020_NCL, AVCOL_RANGE_MPEG, 10);
    b = a;
    b.range = AVCOL_RANGE_JPEG;
    CHECK(build(&p, a, b, 0) == 0 && p.nb_ops == 1 && ff_cspfix_plan_is_per_plane(&p),
          "HLG range-only: per-plane, got %s", types(&p, buf));
    b = a;
    b.trc = AVCOL_TRC_SMPTE2084;
    CHECK(build(&p, a, b, 0) == 0 && !strcmp(types(&p, buf), "M,T,O,T,M"),
          "HLG -> PQ: M,T,O,T,M, got %s", types(&p, buf));

    /* constant luminance decode/encode pair cancels on a range change */
    a = desc(AVCOL_PRI_BT2020, AVCOL_TRC_BT2020_10, AVCOL_SPC_BT2020_CL, AVCOL_RANGE_MPEG, 10);
    b = a;
    b.range = AVCOL_RANGE_JPEG;
    CHECK(build(&p, a, b, 0) == 0 && p.nb_ops == 1, "bt2020c range-only: one map, got %s",
          types(&p, buf));
    b = a;
    b.csp = AVCOL_SPC_BT2020_NCL;
    CHECK(build(&p, a, b, 0) == 0 && !strcmp(types(&p, buf), "M,CLd,M"),
          "bt2020c -> bt2020nc: M,CLd,M, got %s", types(&p, buf));
}

static void test_constants(void)
{
    CspfixPlan p;
    CspfixDesc a = desc(AVCOL_PRI_BT2020, AVCOL_TRC_BT2020_10, AVCOL_SPC_BT2020_CL, AVCOL_RANGE_MPEG, 10);
    CspfixDesc b = a;
    double npm[3][3], ref[3][3];

    b.csp = AVCOL_SPC_BT2020_NCL;
    build(&p, a, b, 0);
    /* BT.2020 Table 4 (to 4 decimals, H.273 formulas with the precise alpha/beta) */
    CHECK(fabs(p.ops[1].cl[0] - 1.9404) < 1e-4 && fabs(p.ops[1].cl[2] - 1.7182) < 1e-4 &&
          fabs(p.ops[1].cl[3] - 0.9938) < 1e-4, "CL constants %f %f %f %f",
          p.ops[1].cl[0], p.ops[1].cl[1], p.ops[1].cl[2], p.ops[1].cl[3]);

    for (int prim = 1; prim <= 22; prim++) {
        if (prim == 2 || prim == 3 || (prim > 12 && prim < 22))
            continue;
        if (ff_cspfix_npm(prim, npm) < 0 || ref_npm(prim, ref) < 0) {
            CHECK(0, "NPM of primaries %d unavailable", prim);
            continue;
        }
        double e = 0;
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++)
                e = fmax(e, fabs(npm[i][j] - ref[i][j]));
        CHECK(e < 1e-9, "NPM of primaries %d differs from the reference by %g", prim, e);
    }
}

static void test_curves(void)
{
    /* the planner's float64 curves against the reference model's, both modes */
    static const int trcs[] = { 1, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18 };
    for (int lin = 0; lin < 2; lin++)
        for (int i = 0; i < sizeof(trcs) / sizeof(trcs[0]); i++) {
            int curve = ff_cspfix_curve(trcs[i], lin);
            double maxe = 0;
            for (int k = -200; k <= 1100; k++) {
                double e = k / 1000.0, a, b;
                if (trcs[i] == AVCOL_TRC_ARIB_STD_B67 && lin == 1)
                    continue; /* scene HLG: the model scales by 1/E75, checked via ref_convert */
                a = ff_cspfix_curve_decode(curve, e);
                b = ref_linearize(trcs[i], lin, e);
                if (isfinite(b))
                    maxe = fmax(maxe, fabs(a - b) / fmax(1.0, fabs(b)));
            }
            /* HLG: libavutil uses the printed 8-digit b and c, the model 1 - 4a and
             * 0.5 - a ln(4a): 3e-9 apart */
            CHECK(maxe < (trcs[i] == AVCOL_TRC_ARIB_STD_B67 ? 1e-8 : 1e-12),
                  "curve of trc %d mode %d differs from the reference by %g", trcs[i], lin, maxe);
        }
}

static void test_errors(void)
{
    CspfixPlan p;
    CspfixDesc ok = desc(AVCOL_PRI_BT709, AVCOL_TRC_BT709, AVCOL_SPC_BT709, AVCOL_RANGE_MPEG, 8);
    CspfixDesc bad;

    bad = ok; bad.prim = AVCOL_PRI_RESERVED;
    CHECK(build(&p, bad, ok, 0) < 0, "reserved primaries rejected");
    bad = ok; bad.trc = AVCOL_TRC_RESERVED;
    CHECK(build(&p, ok, bad, 0) < 0, "reserved transfer rejected");
    bad = ok; bad.csp = AVCOL_SPC_RESERVED;
    CHECK(build(&p, bad, ok, 0) < 0, "reserved matrix rejected");
    bad = ok; bad.csp = AVCOL_SPC_IPT_C2;
    CHECK(build(&p, bad, ok, 0) < 0, "ipt-c2 with bt709 primaries rejected");
    bad = ok; bad.csp = AVCOL_SPC_SMPTE2085;
    CHECK(build(&p, bad, ok, 0) == 0, "smpte2085 on bt709 R'G'B' accepted");
    bad = ok; bad.csp = AVCOL_SPC_ICTCP;
    CHECK(build(&p, bad, ok, 0) < 0, "ictcp with bt709 primaries rejected");
    bad = ok; bad.range = AVCOL_RANGE_UNSPECIFIED;
    CHECK(build(&p, bad, ok, 0) < 0, "unspecified range rejected by the planner");
}

static int build_o(CspfixPlan *p, CspfixDesc in, CspfixDesc out, CspfixPlanOptions o)
{
    return ff_cspfix_plan_build(p, &in, &out, &o, NULL);
}

/* HDR stages: where tone and gamut mapping go, and the float64 curves against the model */
static void test_hdr(void)
{
    static const int tms[] = { CSPFIX_TM_CLIP, CSPFIX_TM_BT2390, CSPFIX_TM_REINHARD,
                               CSPFIX_TM_HABLE, CSPFIX_TM_MOBIUS };
    CspfixDesc pq  = desc(AVCOL_PRI_BT2020, AVCOL_TRC_SMPTE2084, AVCOL_SPC_BT2020_NCL, AVCOL_RANGE_MPEG, 10);
    CspfixDesc hlg = desc(AVCOL_PRI_BT2020, AVCOL_TRC_ARIB_STD_B67, AVCOL_SPC_BT2020_NCL, AVCOL_RANGE_MPEG, 10);
    CspfixDesc sdr = desc(AVCOL_PRI_BT709, AVCOL_TRC_BT709, AVCOL_SPC_BT709, AVCOL_RANGE_MPEG, 8);
    CspfixPlanOptions o = { 0 };
    CspfixPlan p;
    char buf[128];

    CHECK(build_o(&p, pq, sdr, o) == 0 && !strcmp(types(&p, buf), "M,T,M,TM,T,M") &&
          p.ops[3].tm == CSPFIX_TM_BT2390 && p.ops[3].src_peak == 1000 && p.ops[3].dst_peak == 203 &&
          !p.hdr_to_sdr, "PQ -> SDR: bt2390 1000 -> 203 (SDR white, BT.2408) after the gamut matrix, got %s", types(&p, buf));
    o.tonemap = CSPFIX_TM_NONE;
    CHECK(build_o(&p, pq, sdr, o) == 0 && !strcmp(types(&p, buf), "M,T,M,T,M") && p.hdr_to_sdr,
          "PQ -> SDR tonemap=none: scale fused into the gamut matrix, flagged, got %s", types(&p, buf));
    o.tonemap = 0;
    o.gamut   = CSPFIX_GAMUT_COMPRESS;
    CHECK(build_o(&p, pq, sdr, o) == 0 && !strcmp(types(&p, buf), "M,T,M,TM,G,T,M") &&
          p.ops[4].s[0] > 0 && p.ops[4].s[1] > 0 && p.ops[4].s[2] > 0,
          "PQ -> SDR gamut=compress: G after TM, knees on all components, got %s", types(&p, buf));
    {
        /* a P3-D65 mastering display in the BT.2020 container: less room to compress */
        static const double p3[3][2] = { { 0.680, 0.320 }, { 0.265, 0.690 }, { 0.150, 0.060 } };
        double s2020[3];
        int less = 1;
        for (int c = 0; c < 3; c++)
            s2020[c] = p.ops[4].s[c];
        memcpy(o.src_prim, p3, sizeof(p3));
        build_o(&p, pq, sdr, o);
        for (int c = 0; c < 3; c++)
            less &= p.ops[4].s[c] < s2020[c];
        CHECK(less, "gamut=compress knees from P3 mastering primaries are softer than from the "
              "BT.2020 container (%g %g %g vs %g %g %g)", p.ops[4].s[0], p.ops[4].s[1],
              p.ops[4].s[2], s2020[0], s2020[1], s2020[2]);
        memset(o.src_prim, 0, sizeof(o.src_prim));
    }
    o.gamut = 0;
    CHECK(build_o(&p, sdr, pq, o) == 0 && !strcmp(types(&p, buf), "M,T,M,T,M"),
          "SDR -> PQ at 203: no extra stage, got %s", types(&p, buf));
    o.src_peak = 2000;
    o.hlg_lw   = 2000;
    CHECK(build_o(&p, hlg, hlg, o) == 0 && p.nb_ops == 0,
          "HLG -> HLG on a 2000 cd/m2 display: the OOTF pair cancels, got %s", types(&p, buf));
    CHECK(build_o(&p, hlg, sdr, o) == 0 && !strcmp(types(&p, buf), "M,T,O,M,TM,T,M") &&
          fabs(p.ops[2].power - (ff_cspfix_hlg_gamma(2000) - 1.0)) < 1e-15 &&
          fabs(ff_cspfix_hlg_gamma(2000) - 1.3264) < 1e-4 && p.ops[4].src_peak == 2000,
          "HLG -> SDR: OOTF with gamma(2000) then tone mapping from 2000, got %s", types(&p, buf));
    o.src_peak = 0;

    /* the planner's float64 gain against the reference model's curves */
    for (int i = 0; i < 5; i++) {
        CspfixOp op = { .type = CSPFIX_OP_TONEMAP, .tm = tms[i], .src_peak = 4000,
                        .dst_peak = 100, .out_white = 100 };
        double maxe = 0;
        for (int k = 1; k <= 2000; k++) {
            double m = k * 0.01, l = m * 203.0;
            double want = ref_tone_curve(tms[i], l, 4000, 100) / (100 * m);
            maxe = fmax(maxe, fabs(ff_cspfix_tonemap_gain(&op, m) - want) / want);
        }
        CHECK(maxe < 1e-9, "tone curve %d: planner and model agree (%g)", tms[i], maxe);
    }
}

int main(void)
{
    av_log_set_level(AV_LOG_QUIET);
    test_shapes();
    test_constants();
    test_curves();
    test_errors();
    test_hdr();
    printf("plan: %d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
