/*
 * Self-test of the cspfix float64 reference model against published values
 * (ITU-T H.273, ITU-T H.265 Annex E, ITU-R BT.709/2020/2100/2408, SMPTE ST 2084,
 * IEC 61966-2-1/2-5, Adobe RGB (1998), SMPTE RP 431-2, Bradford CAT).
 *
 * This file is part of cspfix.
 *
 * cspfix is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Lesser General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 *
 * cspfix is distributed in the hope that it will be useful,
 * but WITHOUT ANY WARRANTY; without even the implied warranty of
 * MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.  See the GNU
 * Lesser General Public License for more details.
 *
 * You should have received a copy of the GNU Lesser General Public
 * License along with cspfix; if not, write to the Free Software
 * Foundation, Inc., 51 Franklin Street, Fifth Floor, Boston, MA 02110-1301 USA
 */

/*
 * Build and run:
 *   gcc -O2 -Wall -Wextra -std=c11 -o /tmp/selftest tests/cspfix_refmodel.c \
 *       tests/cspfix_refmodel_selftest.c -lm && /tmp/selftest
 * Prints one line per check and a final "N passed, M failed"; exit status 1 on any failure.
 */

#include <math.h>
#include <stdarg.h>
#include <stdio.h>

#include "cspfix_refmodel.h"

static int npassed, nfailed;

static void check(int ok, const char *fmt, ...)
{
    va_list ap;
    printf("%s: ", ok ? "PASS" : "FAIL");
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
    if (ok)
        npassed++;
    else
        nfailed++;
}

static void check_near(const char *what, double got, double want, double tol)
{
    check(fabs(got - want) <= tol, "%s = %.9g, expected %.9g (tol %g)", what, got, want, tol);
}

static void check_row(const char *what, const double got[3], const double want[3], double tol)
{
    int ok = 1;
    for (int i = 0; i < 3; i++)
        ok &= fabs(got[i] - want[i]) <= tol;
    check(ok, "%s = [%.7f %.7f %.7f], expected [%.7f %.7f %.7f] (tol %g)", what,
          got[0], got[1], got[2], want[0], want[1], want[2], tol);
}

/* Half a unit in the last printed decimal (plus a hair for binary representation). */
#define DEC4 (0.5e-4 + 1e-12)
#define DEC3 (0.5e-3 + 1e-12)

/* ------------------------------------------------------------------------------------------ */

static void test_npm(void)
{
    double m[3][3];
    static const double bt709[3][3] = { /* BT.709-6 / IEC 61966-2-1, 4 decimals */
        { 0.4124, 0.3576, 0.1805 },
        { 0.2126, 0.7152, 0.0722 },
        { 0.0193, 0.1192, 0.9505 },
    };
    static const double bt2020_y[3] = { 0.2627, 0.6780, 0.0593 }; /* BT.2020-2 */
    static const double fcc_y[3]    = { 0.30, 0.59, 0.11 };       /* H.273 matrix 4 (FCC) */
    static const double xyz_id[3][3] = { { 1, 0, 0 }, { 0, 1, 0 }, { 0, 0, 1 } };

    check(ref_npm(REF_PRI_BT709, m) == 0, "ref_npm(bt709) succeeds");
    for (int i = 0; i < 3; i++) {
        char name[64];
        snprintf(name, sizeof(name), "NPM bt709 row %d", i);
        check_row(name, m[i], bt709[i], DEC4);
    }
    check(ref_npm(REF_PRI_BT2020, m) == 0, "ref_npm(bt2020) succeeds");
    check_row("NPM bt2020 Y row", m[1], bt2020_y, DEC4);
    check(ref_npm(REF_PRI_BT470M, m) == 0, "ref_npm(bt470m) succeeds");
    check_row("NPM bt470m (white C) Y row vs FCC Kr/Kg/Kb (2 decimals)", m[1], fcc_y, 0.5e-2);
    check(ref_npm(REF_PRI_SMPTE428, m) == 0, "ref_npm(smpte428) succeeds");
    for (int i = 0; i < 3; i++) {
        char name[64];
        snprintf(name, sizeof(name), "NPM smpte428 (XYZ) row %d", i);
        check_row(name, m[i], xyz_id[i], 1e-12);
    }

    double kr = NAN, kb = NAN;
    int ret = ref_luma_coeffs(REF_SPC_CHROMA_DERIVED_NCL, REF_PRI_BT709, &kr, &kb);
    check(ret == 0 && fabs(kr - 0.2126) <= DEC4 && fabs(kb - 0.0722) <= DEC4,
          "chroma-derived-nc with bt709 primaries: Kr = %.6f Kb = %.6f (BT.709: 0.2126 0.0722)",
          kr, kb);
    ret = ref_luma_coeffs(REF_SPC_CHROMA_DERIVED_CL, REF_PRI_BT2020, &kr, &kb);
    check(ret == 0 && fabs(kr - 0.2627) <= DEC4 && fabs(kb - 0.0593) <= DEC4,
          "chroma-derived-c with bt2020 primaries: Kr = %.6f Kb = %.6f (BT.2020: 0.2627 0.0593)",
          kr, kb);
    check(ref_luma_coeffs(REF_SPC_RGB, REF_PRI_BT709, &kr, &kb) < 0,
          "ref_luma_coeffs(rgb) has no (Kr, Kb)");
}

static void test_cl_constants(void)
{
    double nb, pb, nr, pr;
    int ret = ref_cl_constants(REF_SPC_BT2020_CL, REF_PRI_BT2020, REF_TRC_BT2020_10,
                               &nb, &pb, &nr, &pr);
    check(ret == 0, "ref_cl_constants(bt2020c, bt2020-10) succeeds");
    /* The model uses H.273's precise alpha/beta, which gives H.273's note values
     * Nb = 0.9702, Pb = 0.7910, Nr = 0.8591, Pr = 0.4969. */
    check_near("bt2020c 2*Nb (BT.2020: 1.9404)", 2 * nb, 1.9404, 2 * DEC4);
    check_near("bt2020c 2*Nr (H.273: 2 * 0.8591)", 2 * nr, 1.7182, 2 * DEC4);
    check_near("bt2020c 2*Pr (H.273: 2 * 0.4969)", 2 * pr, 0.9938, 2 * DEC4);
    check_near("bt2020c 2*Pb (H.273: 2 * 0.7910)", 2 * pb, 1.5820, 2 * DEC4);
    check(fabs(2 * pb - 1.5816) <= 5e-4,
          "bt2020c 2*Pb = %.6f vs BT.2020 table 1.5816: differs by %.1e because BT.2020's table "
          "was computed with the rounded 10-bit alpha = 1.099, beta = 0.018 (tol 5e-4)",
          2 * pb, fabs(2 * pb - 1.5816));
    ret = ref_cl_constants(REF_SPC_BT2020_CL, REF_PRI_BT2020, REF_TRC_BT709, &nb, &pb, &nr, &pr);
    check(ret == 0 && fabs(2 * nb - 1.9404) <= 2 * DEC4, "bt2020c with trc bt709: same constants "
          "(2*Nb = %.6f)", 2 * nb);

    /* Formula check (not the model): the doc's Pb = 1 - TF(Kb), Nb = TF(1 - Kb) with BT.2020's
     * rounded 10-bit constants, each rounded to 4 decimals as in BT.2020's table, reproduces
     * the printed divisors 1.9404, 1.5816, 1.7184, 0.9936 exactly. */
    {
        const double a = 1.099, b = 0.018, kr = 0.2627, kb = 0.0593;
#define TF10(x) ((x) < b ? 4.5 * (x) : a * pow((x), 0.45) - (a - 1))
        double v[4] = { TF10(1 - kb), 1 - TF10(kb), TF10(1 - kr), 1 - TF10(kr) };
#undef TF10
        static const double want[4] = { 1.9404, 1.5816, 1.7184, 0.9936 };
        int ok = 1;
        for (int i = 0; i < 4; i++)
            ok &= fabs(2 * (round(v[i] * 1e4) / 1e4) - want[i]) < 1e-9;
        check(ok, "CL formula with BT.2020 10-bit alpha/beta reproduces BT.2020's printed "
              "divisors 1.9404 1.5816 1.7184 0.9936 (got %.4f %.4f %.4f %.4f)",
              2 * round(v[0] * 1e4) / 1e4, 2 * round(v[1] * 1e4) / 1e4,
              2 * round(v[2] * 1e4) / 1e4, 2 * round(v[3] * 1e4) / 1e4);
    }
}

static void test_pq(void)
{
    static const struct { double cdm2, e; } tab[] = { /* ST 2084 */
        { 100, 0.5081 }, { 1000, 0.7518 }, { 10000, 1.0 }, { 203, 0.5807 },
    };
    for (size_t i = 0; i < sizeof(tab) / sizeof(tab[0]); i++) {
        char name[64];
        double e = ref_delinearize(REF_TRC_SMPTE2084, REF_LIN_DISPLAY, tab[i].cdm2 / 203.0);
        snprintf(name, sizeof(name), "PQ inverse EOTF(%g cd/m2)", tab[i].cdm2);
        check_near(name, e, tab[i].e, DEC4);
    }
    check_near("PQ EOTF(1.0) in cd/m2", ref_linearize(REF_TRC_SMPTE2084, REF_LIN_DISPLAY, 1.0) * 203,
               10000.0, 1e-9);
    check_near("PQ EOTF(0.5081) in cd/m2 (~100)",
               ref_linearize(REF_TRC_SMPTE2084, REF_LIN_SCENE, 0.5081) * 203, 100.0, 0.1);
    check_near("PQ EOTF clamps E' = 1.2 to 10000 cd/m2",
               ref_linearize(REF_TRC_SMPTE2084, REF_LIN_DISPLAY, 1.2) * 203, 10000.0, 1e-9);
}

static void test_hlg(void)
{
    RefOptions opt = { REF_LIN_DISPLAY, REF_WP_BRADFORD };
    double out[3];
    int g;

    check_near("HLG OETF(1/12)", ref_delinearize(REF_TRC_ARIB_STD_B67, REF_LIN_DISPLAY, 1.0 / 12),
               0.5, 1e-12);
    check_near("HLG OETF(1)", ref_delinearize(REF_TRC_ARIB_STD_B67, REF_LIN_DISPLAY, 1.0),
               1.0, 1e-8);
    check_near("HLG inverse OETF(0.5) = 1/12",
               ref_linearize(REF_TRC_ARIB_STD_B67, REF_LIN_DISPLAY, 0.5), 1.0 / 12, 1e-12);
    check_near("HLG scene mode: 75% signal -> relative 1.0",
               ref_linearize(REF_TRC_ARIB_STD_B67, REF_LIN_SCENE, 0.75), 1.0, 1e-12);

    /* BT.2408: HLG 75% (10-bit narrow 721) is reference white, 203 cd/m2 on a 1000 cd/m2
     * display, = PQ 58% (10-bit narrow 572). */
    {
        RefDesc in  = { REF_PRI_BT2020, REF_TRC_ARIB_STD_B67, REF_SPC_BT2020_NCL, REF_RANGE_TV, 10 };
        RefDesc out_pc = { REF_PRI_BT2020, REF_TRC_SMPTE2084, REF_SPC_RGB, REF_RANGE_PC, 10 };
        RefDesc out_tv = { REF_PRI_BT2020, REF_TRC_SMPTE2084, REF_SPC_BT2020_NCL, REF_RANGE_TV, 10 };
        double grey[3] = { 721, 512, 512 };
        int ret = ref_convert(&in, &out_pc, &opt, grey, out, &g);
        double cd = ref_linearize(REF_TRC_SMPTE2084, REF_LIN_DISPLAY, out[1] / 1023) * 203;
        check(ret == 0 && fabs(cd - 203) <= 1 && fabs(out[0] - out[1]) < 1e-9 &&
              fabs(out[2] - out[1]) < 1e-9,
              "HLG 75%% grey (10-bit tv 721) -> PQ display light %.3f cd/m2 (BT.2408: 203 +-1)", cd);
        check(fabs(out[1] - 594) <= 0.5,
              "HLG 75%% grey -> PQ 10-bit full-range code %.3f (PQ(203) * 1023 ~ 594, +-0.5)",
              out[1]);
        ret = ref_convert(&in, &out_tv, &opt, grey, out, &g);
        check(ret == 0 && fabs(out[0] - 572) <= 1 && fabs(out[1] - 512) < 1e-9 &&
              fabs(out[2] - 512) < 1e-9,
              "HLG 75%% -> PQ 10-bit tv (%.3f, %.3f, %.3f) (BT.2408: 572, 512, 512; +-1)",
              out[0], out[1], out[2]);
        double white[3] = { 940, 512, 512 };
        ret = ref_convert(&in, &out_pc, &opt, white, out, &g);
        check(ret == 0 && fabs(out[1] / 1023 - 0.7518) <= DEC4,
              "HLG 100%% white -> PQ E' %.6f (1000 cd/m2 peak, ST 2084: 0.7518)", out[1] / 1023);
    }
}

static void test_sdr_curves(void)
{
    check_near("sRGB EOTF(0.5)", ref_linearize(REF_TRC_IEC61966_2_1, REF_LIN_DISPLAY, 0.5),
               0.21404, 0.5e-5);
    check_near("sRGB inverse EOTF(0.0031308)",
               ref_delinearize(REF_TRC_IEC61966_2_1, REF_LIN_DISPLAY, 0.0031308), 0.04045, 1e-6);
    check_near("BT.709 OETF(beta = 0.018053968510807)",
               ref_delinearize(REF_TRC_BT709, REF_LIN_SCENE, 0.018053968510807),
               0.081242858298635, 1e-12);
    check_near("BT.709 OETF(0.18) (18% grey -> 40.9%)",
               ref_delinearize(REF_TRC_BT709, REF_LIN_SCENE, 0.18), 0.409, DEC3);
    check_near("BT.709 OETF(1)", ref_delinearize(REF_TRC_BT2020_12, REF_LIN_SCENE, 1.0), 1.0, 1e-12);
    check_near("BT.1886 (Lw=1, Lb=0) EOTF(0.5) = 0.5^2.4",
               ref_linearize(REF_TRC_BT709, REF_LIN_DISPLAY, 0.5), pow(0.5, 2.4), 1e-15);
    check_near("log100: 0.01 -> 0, 1.0 -> 1", ref_delinearize(REF_TRC_LOG100, REF_LIN_SCENE, 0.01) +
               ref_delinearize(REF_TRC_LOG100, REF_LIN_SCENE, 1.0), 1.0, 1e-12);
    check_near("bt1361e scene: E' = -0.25 -> L = -L709(1)/4",
               ref_linearize(REF_TRC_BT1361E, REF_LIN_SCENE, -0.25), -0.25, 1e-12);
}

static void test_adaptation(void)
{
    double w65[3], wc[3], m[3][3], v[3];

    ref_white_xyz(REF_PRI_BT709, w65);
    ref_white_xyz(REF_PRI_BT470M, wc);
    check(ref_adapt_matrix(REF_WP_BRADFORD, w65, wc, m) == 0, "Bradford D65 -> C matrix");
    for (int i = 0; i < 3; i++)
        v[i] = m[i][0] * w65[0] + m[i][1] * w65[1] + m[i][2] * w65[2];
    /* CIE C (0.310, 0.316), Y = 1: X = 0.310/0.316, Z = 0.374/0.316 */
    double c_xyz[3] = { 0.310 / 0.316, 1.0, (1 - 0.310 - 0.316) / 0.316 };
    check_row("Bradford D65 -> C applied to D65 white", v, c_xyz, 1e-12);

    /* Published Bradford D65 -> D50 matrix (B. Lindbloom, with his D65 = (0.95047, 1, 1.08883)
     * and D50 = (0.96422, 1, 0.82521)), 7 decimals. */
    {
        static const double d65[3] = { 0.95047, 1.0, 1.08883 }, d50[3] = { 0.96422, 1.0, 0.82521 };
        static const double want[3][3] = {
            {  1.0478112, 0.0228866, -0.0501270 },
            {  0.0295424, 0.9904844, -0.0170491 },
            { -0.0092345, 0.0150436,  0.7521316 },
        };
        ref_adapt_matrix(REF_WP_BRADFORD, d65, d50, m);
        for (int i = 0; i < 3; i++) {
            char name[64];
            snprintf(name, sizeof(name), "Bradford D65 -> D50 row %d (Lindbloom)", i);
            check_row(name, m[i], want[i], 0.5e-7 + 1e-12);
        }
    }
    check(ref_adapt_matrix(REF_WP_VONKRIES, w65, wc, m) == 0, "von Kries D65 -> C matrix");
    for (int i = 0; i < 3; i++)
        v[i] = m[i][0] * w65[0] + m[i][1] * w65[1] + m[i][2] * w65[2];
    check_row("von Kries D65 -> C applied to D65 white", v, c_xyz, 1e-12);

    /* gamut matrix of a white: bt709 white (1,1,1) -> bt470m RGB (1,1,1) after adaptation */
    {
        double g[3][3], one[3] = { 1, 1, 1 }, r[3];
        ref_gamut_matrix(REF_PRI_BT709, REF_PRI_BT470M, REF_WP_BRADFORD, g);
        for (int i = 0; i < 3; i++)
            r[i] = g[i][0] + g[i][1] + g[i][2];
        check_row("bt709 -> bt470m (D65 -> C, Bradford): RGB white stays (1,1,1)", r, one, 1e-12);
        ref_gamut_matrix(REF_PRI_BT709, REF_PRI_SMPTE431, REF_WP_IDENTITY, g);
        double xyz65[3];
        ref_white_xyz(REF_PRI_BT709, xyz65);
        for (int i = 0; i < 3; i++)
            r[i] = g[i][0] + g[i][1] + g[i][2];
        check(fabs(r[0] - r[1]) > 1e-3,
              "wpadapt=identity bt709 -> smpte431: D65 white is not DCI white (%.4f %.4f %.4f)",
              r[0], r[1], r[2]);
    }
}

/*
 * opRGB (IEC 61966-2-5 = Adobe RGB (1998)) and the DCI-P3 projector's pure power 2.6 (SMPTE
 * RP 431-2), which have no H.273 code point. Expected values computed in exact rational
 * arithmetic from the chromaticities (R 0.64 0.33, G 0.21 0.71, B 0.15 0.06, D65 0.3127 0.3290),
 * printed to 9 decimals. (The often quoted Y row 0.2973769 0.6273491 0.0752741 is
 * B. Lindbloom's, computed with his D65 XYZ (0.95047, 1, 1.08883) instead of the D65 of these
 * xy values (0.9504559, 1, 1.0890578): 3e-5 off, so not used here.)
 */
static void test_oprgb_dcip3(void)
{
    static const double oprgb_y[3] = { 0.297344975, 0.627363566, 0.075291458 };
    /* Adobe RGB (1998) Color Image Encoding (2005), normalised XYZ -> RGB, 5 decimals */
    static const double adobe_inv[3][3] = {
        {  2.04159, -0.56501, -0.34473 },
        { -0.96924,  1.87597,  0.04156 },
        {  0.01344, -0.11836,  1.01517 },
    };
    /* BT.709/sRGB 8-bit full-range primaries in opRGB 8-bit full range: red and blue share
     * their chromaticities (only their scale changes), green is the same linear green plus
     * some red and blue; rounded: (219, 0, 0), (144, 255, 60), (0, 0, 250) */
    static const double want[3][3] = {
        { 218.940858585,   0.0,           0.0          },
        { 144.067927827, 255.0,          59.778068676 },
        {   0.0,           0.0,         250.172531968 },
    };
    const RefDesc srgb  = { REF_PRI_BT709, REF_TRC_IEC61966_2_1, REF_SPC_RGB, REF_RANGE_PC, 8 };
    const RefDesc oprgb = { REF_PRI_OPRGB, REF_TRC_OPRGB, REF_SPC_RGB, REF_RANGE_PC, 8 };
    const RefOptions opt = { REF_LIN_DISPLAY, REF_WP_BRADFORD };
    double m[3][3], kr = NAN, kb = NAN;
    int ret;

    check(ref_npm(REF_PRI_OPRGB, m) == 0, "ref_npm(oprgb) succeeds");
    check_row("NPM oprgb Y row (exact from xy)", m[1], oprgb_y, 1e-6);
    for (int i = 0; i < 3; i++) {
        double p[3];
        for (int j = 0; j < 3; j++)
            p[j] = adobe_inv[i][0] * m[0][j] + adobe_inv[i][1] * m[1][j] +
                   adobe_inv[i][2] * m[2][j];
        double id[3] = { i == 0, i == 1, i == 2 };
        char name[80];
        snprintf(name, sizeof(name), "Adobe RGB (1998) XYZ->RGB row %d times NPM oprgb", i);
        /* 5 printed decimals: at most 0.5e-5 times a column sum of the NPM (<= 1.255) */
        check_row(name, p, id, 0.5e-5 * 1.255 + 1e-12);
    }
    ret = ref_luma_coeffs(REF_SPC_CHROMA_DERIVED_NCL, REF_PRI_OPRGB, &kr, &kb);
    check(ret == 0 && fabs(kr - oprgb_y[0]) <= 1e-6 && fabs(kb - oprgb_y[2]) <= 1e-6,
          "chroma-derived-nc with oprgb primaries: Kr = %.7f Kb = %.7f", kr, kb);
    for (int c = 0; c < 3; c++) {
        double in[3] = { 255.0 * (c == 0), 255.0 * (c == 1), 255.0 * (c == 2) };
        double out[3] = { NAN, NAN, NAN };
        int g = 0;
        char name[80];

        ret = ref_convert(&srgb, &oprgb, &opt, in, out, &g);
        snprintf(name, sizeof(name), "sRGB %s -> opRGB 8-bit (ret %d, in gamut %d)",
                 c == 0 ? "red" : c == 1 ? "green" : "blue", ret, g);
        check(ret == 0 && g, "%s", name);
        check_row(name, out, want[c], 1e-6);
    }

    /* the curves: 563/256 = 2.19921875, not 2.2; 2.6; odd, and the same in both modes */
    for (int mode = 0; mode < 2; mode++) {
        const char *mn = mode ? "scene" : "display";
        check_near(mode ? "opRGB decode(0.5) scene" : "opRGB decode(0.5) display",
                   ref_linearize(REF_TRC_OPRGB, mode, 0.5), 0.217755528144395, 1e-14);
        check(fabs(ref_linearize(REF_TRC_OPRGB, mode, 0.5) -
                   ref_linearize(REF_TRC_GAMMA22, mode, 0.5)) > 1e-4,
              "opRGB decode(0.5) differs from gamma22's 0.217637640824031 (%s)", mn);
        check_near(mode ? "opRGB encode(0.217755528144395) scene" :
                   "opRGB encode(0.217755528144395) display",
                   ref_delinearize(REF_TRC_OPRGB, mode, 0.217755528144395), 0.5, 1e-14);
        check_near(mode ? "DCI-P3 decode(0.5) scene" : "DCI-P3 decode(0.5) display",
                   ref_linearize(REF_TRC_DCIP3, mode, 0.5), 0.164938488846612, 1e-14);
        check_near(mode ? "DCI-P3 encode(0.164938488846612) scene" :
                   "DCI-P3 encode(0.164938488846612) display",
                   ref_delinearize(REF_TRC_DCIP3, mode, 0.164938488846612), 0.5, 1e-14);
        const double op = ref_linearize(REF_TRC_OPRGB, mode, 0.5);
        const double p3 = ref_delinearize(REF_TRC_DCIP3, mode, 0.25);
        check(ref_linearize(REF_TRC_OPRGB, mode, 1.0) == 1.0 &&
              ref_linearize(REF_TRC_DCIP3, mode, 1.0) == 1.0 &&
              ref_linearize(REF_TRC_OPRGB, mode, -0.5) == -op &&
              ref_delinearize(REF_TRC_DCIP3, mode, -0.25) == -p3,
              "opRGB and DCI-P3 curves: 1 -> 1, odd extension below black (%s)", mn);
    }
}

/* ------------------------------------------------------------------------------------------ */
/* Round trips                                                                                 */
/* ------------------------------------------------------------------------------------------ */

static const int all_trcs[] = {
    REF_TRC_BT709, REF_TRC_GAMMA22, REF_TRC_GAMMA28, REF_TRC_SMPTE170M, REF_TRC_SMPTE240M,
    REF_TRC_LINEAR, REF_TRC_LOG100, REF_TRC_LOG316, REF_TRC_IEC61966_2_4, REF_TRC_BT1361E,
    REF_TRC_IEC61966_2_1, REF_TRC_BT2020_10, REF_TRC_BT2020_12, REF_TRC_SMPTE2084,
    REF_TRC_SMPTE428, REF_TRC_ARIB_STD_B67, REF_TRC_OPRGB, REF_TRC_DCIP3,
};
#define NB_TRCS (int)(sizeof(all_trcs) / sizeof(all_trcs[0]))

static void test_trc_roundtrip(void)
{
    for (int t = 0; t < NB_TRCS; t++) {
        int trc = all_trcs[t];
        for (int mode = 0; mode < 2; mode++) {
            double worst = 0, worst_x = 0;
            int n = 0;
            /* grid -2 .. 2 step 0.001 */
            for (int k = -2000; k <= 2000; k++) {
                double x = k / 1000.0;
                if ((trc == REF_TRC_LOG100 || trc == REF_TRC_LOG316) && x < 0)
                    continue; /* E' <= 0 all decode to 0 */
                /* PQ: |E'| <= 1 (clamped), and E' = 0 excluded: the EOTF maps [0, c1^m2 = 7.3e-7]
                 * to 0 and the inverse EOTF of 0 is c1^m2 */
                if (trc == REF_TRC_SMPTE2084 && (fabs(x) > 1 || x == 0))
                    continue;
                /* PQ and HLG: negative light encodes as black (checked below) */
                if ((trc == REF_TRC_SMPTE2084 || trc == REF_TRC_ARIB_STD_B67) && x < 0)
                    continue;
                double y = ref_delinearize(trc, mode, ref_linearize(trc, mode, x));
                double err = fabs(y - x);
                if (!(err <= worst)) {
                    worst = err;
                    worst_x = x;
                }
                n++;
            }
            check(worst <= 1e-12, "trc %2d %-7s delinearize(linearize(x)) == x over %d points, "
                  "max err %.2e at x = %g", trc, mode ? "scene" : "display", n, worst, worst_x);
        }
    }
    /* PQ and HLG are defined for non-negative light: negative light encodes as E'(0) */
    for (int mode = 0; mode < 2; mode++) {
        check(ref_delinearize(REF_TRC_SMPTE2084, mode, -0.0012) ==
              ref_delinearize(REF_TRC_SMPTE2084, mode, 0.0),
              "PQ encodes linear -0.0012 as PQ(0) (%s)", mode ? "scene" : "display");
        check(ref_delinearize(REF_TRC_ARIB_STD_B67, mode, -0.0012) == 0.0,
              "HLG encodes linear -0.0012 as 0 (%s)", mode ? "scene" : "display");
        check(ref_delinearize(REF_TRC_GAMMA22, mode, -0.0012) < 0.0,
              "gamma22 keeps the odd extension below black (%s)", mode ? "scene" : "display");
    }
    check(ref_cl_tf(REF_TRC_SMPTE2084, -0.5) == ref_cl_tf(REF_TRC_SMPTE2084, 0.0) &&
          ref_cl_tf(REF_TRC_ARIB_STD_B67, -0.5) == 0.0,
          "constant-luminance PQ/HLG encodings clamp negative light too");
    /* CL TF round trips */
    for (int t = 0; t < NB_TRCS; t++) {
        int trc = all_trcs[t];
        double worst = 0;
        for (int k = 1; k <= 1000; k++) {
            double x = k / 1000.0;
            if (trc == REF_TRC_LOG100 && x <= 0.01) /* TF(x <= 0.01) = 0 */
                continue;
            if (trc == REF_TRC_LOG316 && x < 0.0032)
                continue;
            double err = fabs(ref_cl_tf_inv(trc, ref_cl_tf(trc, x)) - x);
            if (!(err <= worst))
                worst = err;
        }
        check(worst <= 1e-12 && fabs(ref_cl_tf(trc, 1.0) - (trc == REF_TRC_SMPTE428 ?
              pow(48 / 52.37, 1 / 2.6) : 1.0)) < 1e-8,
              "trc %2d CL TF: TF^-1(TF(x)) == x on (0,1], max err %.2e; TF(1) = %.9f", trc, worst,
              ref_cl_tf(trc, 1.0));
    }
}

static int is_hdr_or_log(int trc)
{
    return trc == REF_TRC_SMPTE2084 || trc == REF_TRC_ARIB_STD_B67 ||
           trc == REF_TRC_LOG100 || trc == REF_TRC_LOG316;
}

/* Skip filter for constant luminance: the CL decode goes through TF^-1 and TF on Y', R', B'
 * and on the derived linear G; where one of these is not invertible (log curves clip below
 * 0.01 / 0.00316, PQ near 0) the input (Y', Cb, Cr) is not the CL encoding of any R'G'B' and
 * cannot round-trip. */
static int cl_invertible(const RefDesc *d, const RefTrace *tr)
{
    double kr, kb;
    if (d->matrix != REF_SPC_BT2020_CL && d->matrix != REF_SPC_CHROMA_DERIVED_CL)
        return 1;
    /* Y' ~ 0 with non-neutral chroma (out of gamut: R' or B' < 0): the re-encoded
     * Y = Kr R + Kg G + Kb B is 0 only up to rounding (~1e-17) and TF has an infinite slope at
     * 0 for pure power curves (1e-17^(1/2.8) ~ 1e-6): ill-conditioned, not a model error. */
    if (fabs(tr->in_norm[0]) < 1e-3)
        return 0;
    ref_luma_coeffs(d->matrix, d->prim, &kr, &kb);
    double e[3] = { tr->in_norm[0], tr->in_nl[0], tr->in_nl[2] };
    double l[3];
    for (int i = 0; i < 3; i++) {
        l[i] = ref_cl_tf_inv(d->trc, e[i]);
        if (fabs(ref_cl_tf(d->trc, l[i]) - e[i]) > 1e-12)
            return 0;
    }
    double g = (l[0] - kr * l[1] - kb * l[2]) / (1 - kr - kb);
    return fabs(ref_cl_tf_inv(d->trc, ref_cl_tf(d->trc, g)) - g) <= 1e-12;
}

static void test_convert_identity(void)
{
    static const int matrices[] = {
        REF_SPC_RGB, REF_SPC_BT709, REF_SPC_FCC, REF_SPC_BT470BG, REF_SPC_SMPTE170M,
        REF_SPC_SMPTE240M, REF_SPC_YCGCO, REF_SPC_BT2020_NCL, REF_SPC_BT2020_CL,
        REF_SPC_CHROMA_DERIVED_NCL, REF_SPC_CHROMA_DERIVED_CL, REF_SPC_ICTCP,
    };
    static const int hdr_trcs[] = { REF_TRC_SMPTE2084, REF_TRC_ARIB_STD_B67 };

    for (size_t mi = 0; mi < sizeof(matrices) / sizeof(matrices[0]); mi++) {
        int matrix = matrices[mi];
        const int *trcs = matrix == REF_SPC_ICTCP ? hdr_trcs : all_trcs;
        int ntrcs = matrix == REF_SPC_ICTCP ? 2 : NB_TRCS;
        for (int range = REF_RANGE_TV; range <= REF_RANGE_PC; range++) {
            for (int depth = 8; depth <= 10; depth += 2) {
                int n = 0, nskip = 0, nfail_local = 0, ret_fail = 0;
                double worst = 0;
                char worst_desc[160] = "";
                for (int ti = 0; ti < ntrcs; ti++) {
                    int trc = trcs[ti];
                    int prim = matrix == REF_SPC_ICTCP || matrix == REF_SPC_BT2020_CL ||
                               matrix == REF_SPC_BT2020_NCL ? REF_PRI_BT2020 : REF_PRI_BT709;
                    if (matrix == REF_SPC_CHROMA_DERIVED_CL)
                        prim = REF_PRI_SMPTE432;
                    RefDesc d = { prim, trc, matrix, range, depth };
                    for (int mode = 0; mode < 2; mode++) {
                        RefOptions opt = { mode, REF_WP_BRADFORD };
                        double maxc = (1 << depth) - 1;
                        double step = maxc / 15.0; /* non-integer grid: avoids special values */
                        for (double a = 0; a <= maxc; a += step)
                        for (double b = 0; b <= maxc; b += step)
                        for (double c = 0; c <= maxc; c += step) {
                            double in[3] = { a, b, c }, out[3];
                            int g;
                            RefTrace tr;
                            if (ref_convert_trace(&d, &d, &opt, in, out, &g, &tr) < 0) {
                                ret_fail++;
                                continue;
                            }
                            /* HDR / log curves are only invertible inside the signal range */
                            int skip = is_hdr_or_log(trc) && !g;
                            /* and no component in a non-invertible spot of its curve (PQ near 0,
                             * the ST 240M / sRGB segment joins) */
                            for (int i = 0; i < 3; i++) {
                                double x = tr.in_nl[i];
                                if (fabs(ref_delinearize(trc, mode, ref_linearize(trc, mode, x)) - x)
                                    > 1e-12)
                                    skip = 1;
                            }
                            if (!cl_invertible(&d, &tr))
                                skip = 1;
                            if (skip) {
                                nskip++;
                                continue;
                            }
                            n++;
                            double err = 0;
                            for (int i = 0; i < 3; i++)
                                err = fmax(err, fabs(out[i] - in[i]));
                            if (!(err <= 1e-9))
                                nfail_local++;
                            if (!(err <= worst)) {
                                worst = err;
                                snprintf(worst_desc, sizeof(worst_desc),
                                         "trc %d %s in (%.3f %.3f %.3f) out (%.3f %.3f %.3f)",
                                         trc, mode ? "scene" : "display", in[0], in[1], in[2],
                                         out[0], out[1], out[2]);
                            }
                        }
                    }
                }
                check(nfail_local == 0 && ret_fail == 0 && n > 0,
                      "identity convert matrix %2d %s %2d-bit: %d points (%d skipped), max |out-in| "
                      "%.2e%s%s", matrix, range == REF_RANGE_TV ? "tv" : "pc", depth, n, nskip,
                      worst, nfail_local || ret_fail ? " worst: " : "",
                      nfail_local || ret_fail ? worst_desc : "");
            }
        }
    }
}

/* ------------------------------------------------------------------------------------------ */

static void test_range(void)
{
    RefOptions opt = { REF_LIN_DISPLAY, REF_WP_BRADFORD };
    for (int depth = 8; depth <= 10; depth += 2) {
        double s = depth == 8 ? 1 : 4, maxc = (1 << depth) - 1, half = 1 << (depth - 1);
        RefDesc tv = { REF_PRI_BT709, REF_TRC_BT709, REF_SPC_BT709, REF_RANGE_TV, depth };
        RefDesc pc = tv;
        pc.range = REF_RANGE_PC;
        double in[3], out[3];
        int g;

        in[0] = 16 * s; in[1] = 128 * s; in[2] = 128 * s;
        ref_convert(&tv, &pc, &opt, in, out, &g);
        check(fabs(out[0]) < 1e-9 && fabs(out[1] - half) < 1e-9 && fabs(out[2] - half) < 1e-9,
              "%d-bit tv (%g,%g,%g) -> pc (%.6f,%.6f,%.6f), expected (0,%g,%g)", depth, in[0], in[1],
              in[2], out[0], out[1], out[2], half, half);
        in[0] = 235 * s;
        ref_convert(&tv, &pc, &opt, in, out, &g);
        check(fabs(out[0] - maxc) < 1e-9 && fabs(out[1] - half) < 1e-9,
              "%d-bit tv Y=%g -> pc %.6f, expected %g", depth, in[0], out[0], maxc);
        in[0] = maxc; in[1] = half; in[2] = half;
        ref_convert(&pc, &tv, &opt, in, out, &g);
        check(fabs(out[0] - 235 * s) < 1e-9 && fabs(out[1] - 128 * s) < 1e-9,
              "%d-bit pc Y=%g -> tv %.6f, expected %g", depth, in[0], out[0], 235 * s);
        /* tv chroma extremes map to +-0.5 of full range: Cr = 240 * s -> half + 0.5 * maxc */
        in[0] = 126 * s; in[1] = 128 * s; in[2] = 240 * s;
        ref_convert(&tv, &pc, &opt, in, out, &g);
        check(fabs(out[2] - (half + 0.5 * maxc)) < 1e-9,
              "%d-bit tv Cr=%g -> pc %.6f, expected %g", depth, in[2], out[2], half + 0.5 * maxc);
        /* RGB: tv RGB black/white */
        RefDesc rtv = { REF_PRI_BT709, REF_TRC_BT709, REF_SPC_RGB, REF_RANGE_TV, depth };
        RefDesc rpc = rtv;
        rpc.range = REF_RANGE_PC;
        in[0] = 16 * s; in[1] = 235 * s; in[2] = 16 * s;
        ref_convert(&rtv, &rpc, &opt, in, out, &g);
        check(fabs(out[0]) < 1e-9 && fabs(out[1] - maxc) < 1e-9 && fabs(out[2]) < 1e-9,
              "%d-bit tv RGB (%g,%g,%g) -> pc (%.6f,%.6f,%.6f)", depth, in[0], in[1], in[2],
              out[0], out[1], out[2]);
    }
}

static void test_601_to_709(void)
{
    RefOptions opt = { REF_LIN_DISPLAY, REF_WP_BRADFORD };
    RefDesc in  = { REF_PRI_SMPTE170M, REF_TRC_SMPTE170M, REF_SPC_SMPTE170M, REF_RANGE_TV, 8 };
    RefDesc out = { REF_PRI_SMPTE170M, REF_TRC_SMPTE170M, REF_SPC_BT709, REF_RANGE_TV, 8 };
    double o[3];
    int g;

    /* 100% red: BT.601 (81, 90, 240), BT.709 (63, 102, 240) (published 8-bit colour-bar codes) */
    double red_int[3] = { 81, 90, 240 };
    ref_convert(&in, &out, &opt, red_int, o, &g);
    check(fabs(o[0] - 63) <= 1 && fabs(o[1] - 102) <= 1 && fabs(o[2] - 240) <= 1,
          "BT.601 tv (81,90,240) -> BT.709 (%.3f,%.3f,%.3f), expected (63,102,240) +-1", o[0], o[1],
          o[2]);
    double red_exact[3] = { 16 + 219 * 0.299, 128 - 224 * 0.299 / 1.772, 240 };
    ref_convert(&in, &out, &opt, red_exact, o, &g);
    check(round(o[0]) == 63 && round(o[1]) == 102 && round(o[2]) == 240,
          "BT.601 exact red (%.3f,%.3f,%.3f) -> BT.709 (%.3f,%.3f,%.3f), rounds to (63,102,240)",
          red_exact[0], red_exact[1], red_exact[2], o[0], o[1], o[2]);
    /* 75% yellow (BT.709 8-bit colour bars: 168, 44, 136) from BT.601 (162, 44, 142) */
    double yel601[3] = { 16 + 219 * 0.75 * 0.886, 128 - 224 * 0.75 * 0.886 / 1.772,
                         128 + 224 * 0.75 * 0.114 / 1.402 };
    ref_convert(&in, &out, &opt, yel601, o, &g);
    check(round(o[0]) == 168 && round(o[1]) == 44 && round(o[2]) == 136,
          "BT.601 75%% yellow -> BT.709 (%.3f,%.3f,%.3f), rounds to (168,44,136)", o[0], o[1], o[2]);
}

static void test_ictcp(void)
{
    RefOptions opt = { REF_LIN_DISPLAY, REF_WP_BRADFORD };
    RefDesc ic = { REF_PRI_BT2020, REF_TRC_SMPTE2084, REF_SPC_ICTCP, REF_RANGE_PC, 16 };
    RefDesc rgb = { REF_PRI_BT2020, REF_TRC_SMPTE2084, REF_SPC_RGB, REF_RANGE_PC, 16 };
    double o[3], tmp[3];
    int g;

    /* achromatic: Ct = Cp = 0, I = PQ(Y) */
    double grey_e = ref_delinearize(REF_TRC_SMPTE2084, REF_LIN_DISPLAY, 1.0);
    double grey[3] = { grey_e * 65535, grey_e * 65535, grey_e * 65535 };
    ref_convert(&rgb, &ic, &opt, grey, o, &g);
    check(fabs(o[0] / 65535 - 0.5807) <= DEC4 && fabs(o[1] - 32768) < 1e-6 &&
          fabs(o[2] - 32768) < 1e-6,
          "ICtCp of 203 cd/m2 grey: I = %.6f (PQ 0.5807), Ct, Cp codes %.6f %.6f (neutral 32768)",
          o[0] / 65535, o[1], o[2]);
    /* unsupported combinations */
    RefDesc bad = ic;
    bad.trc = REF_TRC_BT709;
    check(ref_convert(&bad, &rgb, &opt, grey, tmp, &g) < 0, "ictcp with trc bt709 is rejected");
    bad = ic;
    bad.prim = REF_PRI_BT709;
    check(ref_convert(&bad, &rgb, &opt, grey, tmp, &g) < 0, "ictcp with bt709 primaries is rejected");
    bad = ic;
    bad.matrix = 3;
    check(ref_convert(&bad, &rgb, &opt, grey, tmp, &g) < 0, "reserved matrix is rejected");
    bad = ic;
    bad.matrix = REF_SPC_IPT_C2;
    bad.trc = REF_TRC_ARIB_STD_B67;
    check(ref_convert(&bad, &rgb, &opt, grey, tmp, &g) < 0, "ipt-c2 with HLG is rejected");
    bad = ic;
    bad.prim = 2;
    check(ref_convert(&bad, &rgb, &opt, grey, tmp, &g) < 0, "unspecified primaries are rejected");
    bad = ic;
    bad.trc = 2;
    check(ref_convert(&bad, &rgb, &opt, grey, tmp, &g) < 0, "unspecified trc is rejected");
    check(isnan(ref_linearize(3, 0, 0.5)), "ref_linearize of a reserved trc is NAN");
}

/* ------------------------------------------------------------------------------------------ */

/* YCgCo-R (H.273 V3 matrix_coefficients 16, 17; H.265 eqs E-41..E-48): values worked by hand
 * from the equations, forward then inverse lifting the identity on every 8-bit triple, and
 * ref_convert() between RGB codes and the coded signal. */
static void test_ycgcor(void)
{
    /* by hand: (R, G, B) = (200, 100, 50): Co = 150, t = 50 + 75 = 125, Cg = 100 - 125 = -25,
     * Y = 125 + (-25 >> 1) = 125 - 13 = 112; (10, 20, 255): Co = -245, t = 255 - 123 = 132,
     * Cg = -112, Y = 132 - 56 = 76. Coded Cg, Co + 512 (re, 10 bits), + 256 (ro, 9 bits). */
    static const struct { int rgb[3], depth, ycc[3]; } hand[] = {
        { { 200, 100,  50 }, 10, { 112, 487, 662 } },
        { { 200, 100,  50 },  9, { 112, 231, 406 } },
        { {  10,  20, 255 }, 10, {  76, 400, 267 } },
        { {  10,  20, 255 },  9, {  76, 144,  11 } },
        { { 255, 255, 255 }, 10, { 255, 512, 512 } },
        { {   0,   0,   0 },  9, {   0, 256, 256 } },
    };
    const RefOptions opt = { REF_LIN_DISPLAY, REF_WP_BRADFORD };
    const RefDesc rgb8 = { REF_PRI_BT709, REF_TRC_IEC61966_2_1, REF_SPC_RGB, REF_RANGE_PC, 8 };
    RefDesc re = { REF_PRI_BT709, REF_TRC_IEC61966_2_1, REF_SPC_YCGCO_RE, REF_RANGE_PC, 10 };
    RefDesc bad;
    double in[3], out[3];
    int g;

    for (int i = 0; i < (int)(sizeof(hand) / sizeof(hand[0])); i++) {
        int ycc[3], rgb[3];
        ref_ycgcor_forward(hand[i].depth, hand[i].rgb, ycc);
        ref_ycgcor_inverse(hand[i].depth, hand[i].ycc, rgb);
        check(ycc[0] == hand[i].ycc[0] && ycc[1] == hand[i].ycc[1] && ycc[2] == hand[i].ycc[2] &&
              rgb[0] == hand[i].rgb[0] && rgb[1] == hand[i].rgb[1] && rgb[2] == hand[i].rgb[2],
              "YCgCo-R%s RGB (%d,%d,%d) -> (%d,%d,%d), expected (%d,%d,%d); back (%d,%d,%d)",
              hand[i].depth == 10 ? "e 10-bit" : "o 9-bit", hand[i].rgb[0], hand[i].rgb[1],
              hand[i].rgb[2], ycc[0], ycc[1], ycc[2], hand[i].ycc[0], hand[i].ycc[1],
              hand[i].ycc[2], rgb[0], rgb[1], rgb[2]);
    }
    check(ref_ycgcor_rgb_depth(REF_SPC_YCGCO_RE, 16) == 14 &&
          ref_ycgcor_rgb_depth(REF_SPC_YCGCO_RO, 9) == 8 &&
          ref_ycgcor_rgb_depth(REF_SPC_YCGCO, 10) < 0, "YCgCo-R RGB depths: re 16 -> 14, ro 9 -> 8");

    /* every 8-bit triple: the coded signal within its depth, and lifted back exactly */
    for (int depth = 9; depth <= 10; depth++) {
        long long bad_rt = 0, bad_range = 0;
        for (int v = 0; v < 1 << 24; v++) {
            const int rgb[3] = { v >> 16, (v >> 8) & 255, v & 255 };
            int ycc[3], back[3];
            ref_ycgcor_forward(depth, rgb, ycc);
            ref_ycgcor_inverse(depth, ycc, back);
            bad_rt += back[0] != rgb[0] || back[1] != rgb[1] || back[2] != rgb[2];
            for (int c = 0; c < 3; c++)
                bad_range += ycc[c] < 0 || ycc[c] >= (c ? 1 << depth : 256);
        }
        check(!bad_rt && !bad_range, "YCgCo-R%s: inverse(forward(RGB)) = RGB for every 8-bit "
              "triple (%lld differ), Y in 0..255 and Cg, Co in 0..%d (%lld outside)",
              depth == 10 ? "e" : "o", bad_rt, (1 << depth) - 1, bad_range);
    }
    /* 14-bit RGB in 16 bits (re): a grid with every parity of R - B and G */
    {
        long long bad_rt = 0;
        for (int r = 0; r < 16384; r += 127)
            for (int gg = 0; gg < 16384; gg += 131)
                for (int b = 0; b < 16384; b += 137) {
                    const int rgb[3] = { r, gg, b };
                    int ycc[3], back[3];
                    ref_ycgcor_forward(16, rgb, ycc);
                    ref_ycgcor_inverse(16, ycc, back);
                    bad_rt += back[0] != r || back[1] != gg || back[2] != b ||
                              ycc[0] < 0 || ycc[0] > 16383 || ycc[1] < 0 || ycc[1] > 65535 ||
                              ycc[2] < 0 || ycc[2] > 65535;
                }
        check(!bad_rt, "YCgCo-Re 16-bit (RGB 14): round trip on a 130^3 grid (%lld bad)", bad_rt);
    }

    /* through ref_convert: RGB codes -> coded signal = the forward lifting; back: the codes */
    {
        long long bad_fw = 0, bad_inv = 0;
        for (int r = 0; r < 256; r += 5)
            for (int gg = 0; gg < 256; gg += 3)
                for (int b = 0; b < 256; b += 7) {
                    const int rgb[3] = { r, gg, b };
                    int ycc[3], g2;
                    double o2[3];
                    ref_ycgcor_forward(10, rgb, ycc);
                    in[0] = r; in[1] = gg; in[2] = b;
                    ref_convert(&rgb8, &re, &opt, in, out, &g);
                    bad_fw += !g || out[0] != ycc[0] || out[1] != ycc[1] || out[2] != ycc[2];
                    for (int c = 0; c < 3; c++)
                        in[c] = ycc[c];
                    ref_convert(&re, &rgb8, &opt, in, o2, &g2);
                    bad_inv += !g2 || fabs(o2[0] - r) > 1e-9 || fabs(o2[1] - gg) > 1e-9 ||
                               fabs(o2[2] - b) > 1e-9;
                }
        check(!bad_fw && !bad_inv, "ref_convert gbrp8 <-> ycgco-re 10-bit (same primaries and "
              "transfer): the lifting, exactly (%lld, %lld bad)", bad_fw, bad_inv);
    }
    /* codes no forward lifting makes: (0, 1023, 512) lifts to G = 256, R = B = -255: out of
     * gamut, each clipped */
    in[0] = 0; in[1] = 1023; in[2] = 512;
    ref_convert(&re, &rgb8, &opt, in, out, &g);
    check(!g && fabs(out[0]) < 1e-9 && fabs(out[1] - 255) < 1e-9 && fabs(out[2]) < 1e-9,
          "ycgco-re (0, 1023, 512) -> RGB (%.3f, %.3f, %.3f) in gamut %d, expected (0, 255, 0), 0",
          out[0], out[1], out[2], g);
    /* an RGB between codes: rounded to nearest, then lifted; out of range: clipped */
    in[0] = 254.7; in[1] = 255.4; in[2] = -0.3;
    {
        RefDesc rgb8c = rgb8;
        rgb8c.trc = REF_TRC_LINEAR;
        re.trc = REF_TRC_LINEAR;
        ref_convert(&rgb8c, &re, &opt, in, out, &g);
        /* (255, 255, 0): Co = 255, t = 127, Cg = 128, Y = 191 */
        check(out[0] == 191 && out[1] == 640 && out[2] == 767,
              "RGB (254.7, 255.4, -0.3) -> ycgco-re (%g, %g, %g), expected (191, 640, 767)",
              out[0], out[1], out[2]);
        re.trc = REF_TRC_IEC61966_2_1;
    }
    bad = re;
    bad.range = REF_RANGE_TV;
    check(ref_convert(&bad, &rgb8, &opt, in, out, &g) < 0, "ycgco-re limited range is rejected");
    bad = re;
    bad.depth = 9;
    check(ref_convert(&rgb8, &bad, &opt, in, out, &g) < 0, "ycgco-re of 7-bit RGB is rejected");
    in[0] = 100.5; in[1] = 512; in[2] = 512;
    check(ref_convert(&re, &rgb8, &opt, in, out, &g) < 0, "ycgco-re input codes must be integers");
}

/* Section 4: tone curves, the HLG system gamma, tone and gamut mapping through ref_convert. */
static void test_tonemap(void)
{
    static const int curves[] = { REF_TM_CLIP, REF_TM_BT2390, REF_TM_REINHARD, REF_TM_HABLE,
                                  REF_TM_MOBIUS };
    static const char *const names[] = { "clip", "bt2390", "reinhard", "hable", "mobius" };
    const RefDesc pq = { REF_PRI_BT2020, REF_TRC_SMPTE2084, REF_SPC_RGB, REF_RANGE_PC, 10 };
    const RefDesc sdr = { REF_PRI_BT709, REF_TRC_BT709, REF_SPC_RGB, REF_RANGE_PC, 10 };
    const RefDesc sdr2020 = { REF_PRI_BT2020, REF_TRC_BT709, REF_SPC_RGB, REF_RANGE_PC, 10 };
    RefOptions o = { REF_LIN_DISPLAY, REF_WP_BRADFORD };
    double in[3], out[3], e, y0, y1;
    int mono;

    /* BT.2100 note: gamma = 1.2 at 1000 cd/m2; BT.2390 lists 1.07 at 500 and 1.33 at 2000 */
    check_near("HLG gamma at 1000 cd/m2", ref_hlg_gamma(1000), 1.2, 1e-12);
    check_near("HLG gamma at 500 cd/m2", ref_hlg_gamma(500), 1.07, 0.005);
    check_near("HLG gamma at 2000 cd/m2", ref_hlg_gamma(2000), 1.33, 0.005);

    for (int i = 0; i < 5; i++) {
        char what[96];
        snprintf(what, sizeof(what), "%s(1000 cd/m2) from 1000 to 100 cd/m2", names[i]);
        check_near(what, ref_tone_curve(curves[i], 1000, 1000, 100), 100, 1e-9);
        mono = 1;
        y0 = 0.0;
        for (int k = 1; k <= 4000; k++) {
            y1 = ref_tone_curve(curves[i], k * 0.25, 1000, 100);
            mono &= y1 >= y0 - 1e-12 && y1 <= 100 + 1e-12;
            y0 = y1;
        }
        check(mono, "%s is monotonic and <= target on 0..1000 cd/m2", names[i]);
    }
    /* BT.2390 EETF from 1000 to 100 cd/m2: PQ(100) = 0.5081, PQ(1000) = 0.7518 (BT.2408
     * table), maxLum = 0.6759, KS = 1.5 maxLum - 0.5 = 0.5138 -> 0.3863 in PQ = 20.0 cd/m2:
     * identity below the knee */
    check_near("bt2390 at 10 cd/m2 (below the knee)", ref_tone_curve(REF_TM_BT2390, 10, 1000, 100),
               10, 1e-9);
    check_near("bt2390 at 19 cd/m2 (below the knee)", ref_tone_curve(REF_TM_BT2390, 19, 1000, 100),
               19, 1e-9);
    e = ref_tone_curve(REF_TM_BT2390, 21, 1000, 100);
    check(e < 21 && e > 20.5, "bt2390 at 21 cd/m2 (above the knee, slope ~1) = %.6f", e);
    check_near("bt2390 with the source peak at the target: identity",
               ref_tone_curve(REF_TM_BT2390, 80, 100, 100), 80, 1e-12);
    /* Mobius: identity up to 0.3 target with slope 1 there */
    check_near("mobius at 30 cd/m2", ref_tone_curve(REF_TM_MOBIUS, 30, 1000, 100), 30, 1e-9);
    e = (ref_tone_curve(REF_TM_MOBIUS, 30.001, 1000, 100) - 30) / 0.001;
    check_near("mobius slope at 30 cd/m2", e, 1.0, 1e-3);
    /* Reinhard with white at the source peak: x (1 + x/p^2) / (1 + x), x = 1, p = 10 */
    check_near("reinhard(100 cd/m2) 1000 -> 100", ref_tone_curve(REF_TM_REINHARD, 100, 1000, 100),
               100 * 1.01 / 2, 1e-9);

    /* through ref_convert: PQ 1000 cd/m2 white to SDR = full scale, hue kept */
    o.src_peak = 1000;
    e = 1023 * 0.75182709; /* PQ code of 1000 cd/m2 (full range, 10 bit) */
    in[0] = in[1] = in[2] = e;
    for (int i = 0; i < 5; i++) {
        char what[96];
        o.tonemap = curves[i];
        ref_convert(&pq, &sdr2020, &o, in, out, NULL);
        snprintf(what, sizeof(what), "PQ 1000 cd/m2 white -> SDR code, %s", names[i]);
        check_near(what, out[1], 1023, 0.05);
    }
    /* a saturated highlight keeps its R:G:B ratios in linear light (max-RGB basis) */
    {
        double a[3] = { 0.75 * 1023, 0.6 * 1023, 0.4 * 1023 }, lin_in[3], lin_out[3];
        o.tonemap = REF_TM_BT2390;
        ref_convert(&pq, &sdr2020, &o, a, out, NULL);
        for (int i = 0; i < 3; i++) {
            lin_in[i]  = ref_linearize(REF_TRC_SMPTE2084, REF_LIN_DISPLAY, a[i] / 1023);
            lin_out[i] = ref_linearize(REF_TRC_BT709, REF_LIN_DISPLAY, out[i] / 1023);
        }
        check_near("bt2390 keeps G/R", lin_out[1] / lin_out[0], lin_in[1] / lin_in[0], 1e-9);
        check_near("bt2390 keeps B/R", lin_out[2] / lin_out[0], lin_in[2] / lin_in[0], 1e-9);
    }
    /* SDR -> PQ: SDR white at 203 cd/m2 = PQ 0.5806 (BT.2408) */
    o.tonemap = REF_TM_AUTO;
    in[0] = in[1] = in[2] = 1023;
    ref_convert(&sdr2020, &pq, &o, in, out, NULL);
    check_near("SDR white -> PQ code (203 cd/m2)", out[0] / 1023, 0.58069, 1e-4);
    /* HLG 75 % on a 1000 cd/m2 display is 203 cd/m2 (BT.2408) */
    {
        const RefDesc hlg = { REF_PRI_BT2020, REF_TRC_ARIB_STD_B67, REF_SPC_RGB, REF_RANGE_PC, 10 };
        in[0] = in[1] = in[2] = 0.75 * 1023;
        o.tonemap = REF_TM_NONE;
        ref_convert(&hlg, &pq, &o, in, out, NULL);
        check_near("HLG 75 % -> PQ code (203 cd/m2)", out[0] / 1023, 0.58069, 2e-4);
        /* on a 2000 cd/m2 display (peak from the frame) the same signal is brighter */
        o.src_peak = 2000;
        ref_convert(&hlg, &pq, &o, in, out, NULL);
        e = ref_linearize(REF_TRC_SMPTE2084, REF_LIN_DISPLAY, out[0] / 1023) * 203;
        check_near("HLG 75 % on 2000 cd/m2 (cd/m2)", e,
                   2000 * pow(ref_linearize(REF_TRC_ARIB_STD_B67, REF_LIN_DISPLAY, 0.75),
                              ref_hlg_gamma(2000)), 1e-3);
        o.src_peak = 1000;
        /* HLG -> SDR from display light, SDR white = 203 cd/m2 (BT.2408, both ways):
         * reference white (75 %, 203 cd/m2) goes through bt2390 from the 1000 cd/m2 display
         * to 203 (above the knee: 161 cd/m2), SDR signal 0.903, not the "too dark"
         * 0.26^(1/2.4) of scene light read as SDR */
        o.tonemap = REF_TM_AUTO;
        ref_convert(&hlg, &sdr2020, &o, in, out, NULL);
        check_near("HLG 75 % -> SDR signal", out[0] / 1023,
                   pow(ref_tone_curve(REF_TM_BT2390, 1000 * pow(ref_linearize(REF_TRC_ARIB_STD_B67,
                       REF_LIN_DISPLAY, 0.75), 1.2), 1000, 203) / 203, 1 / 2.4), 1e-9);
        check(out[0] / 1023 > 0.9, "HLG reference white is near SDR white (%.4f)", out[0] / 1023);
        /* SDR white at 203 cd/m2 comes back as SDR white: one convention both ways */
        {
            double w[3] = { 1023, 1023, 1023 }, hdr[3], back[3];
            o.tonemap = REF_TM_AUTO;
            o.src_peak = 203;
            ref_convert(&sdr2020, &pq, &o, w, hdr, NULL);
            ref_convert(&pq, &sdr2020, &o, hdr, back, NULL);
            check_near("SDR white -> PQ -> SDR (peak 203 from the metadata)", back[0], 1023, 1e-6);
            o.src_peak = 1000;
        }
    }
    /* gamut mapping bt2020 -> bt709: in-gamut colours stay, the bt2020 green primary is
     * brought onto the bt709 boundary (a component 0) with its luminance axis kept */
    o.tonemap = REF_TM_NONE;
    in[0] = 0.5 * 1023; in[1] = 0.4 * 1023; in[2] = 0.45 * 1023;
    for (int g = REF_GAMUT_DESATURATE; g <= REF_GAMUT_COMPRESS; g++) {
        double plain[3];
        o.gamut = REF_GAMUT_NONE;
        ref_convert(&sdr2020, &sdr, &o, in, plain, NULL);
        o.gamut = g;
        ref_convert(&sdr2020, &sdr, &o, in, out, NULL);
        check_row(g == REF_GAMUT_DESATURATE ? "desaturate keeps an in-gamut grey-ish colour" :
                  "compress keeps an in-gamut grey-ish colour", out, plain, 1e-9);
        in[0] = 0; in[1] = 1023; in[2] = 0;
        ref_convert(&sdr2020, &sdr, &o, in, out, NULL);
        check(fmin(out[0], out[2]) < 1e-6 && fmin(out[0], out[2]) >= 0 && out[1] > 900,
              "%s: bt2020 green -> (%.3f, %.3f, %.3f), on the boundary",
              g == REF_GAMUT_DESATURATE ? "desaturate" : "compress", out[0], out[1], out[2]);
        in[0] = 0.5 * 1023; in[1] = 0.4 * 1023; in[2] = 0.45 * 1023;
    }
}

int main(void)
{
    test_npm();
    test_cl_constants();
    test_pq();
    test_hlg();
    test_sdr_curves();
    test_adaptation();
    test_oprgb_dcip3();
    test_range();
    test_601_to_709();
    test_ictcp();
    test_trc_roundtrip();
    test_convert_identity();
    test_tonemap();
    test_ycgcor();

    printf("%d passed, %d failed\n", npassed, nfailed);
    return nfailed ? 1 : 0;
}
