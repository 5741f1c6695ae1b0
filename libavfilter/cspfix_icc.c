/*
 * cspfix: ICC profiles in and out (Little CMS 2)
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
#include <string.h>

#include "config.h"
#include "libavutil/avstring.h"
#include "libavutil/error.h"
#include "libavutil/macros.h"
#include "libavutil/mem.h"
#include "libavutil/pixfmt.h"

#include "cspfix_colorimetry.h"
#include "cspfix_custom.h"
#include "cspfix_icc.h"
#include "cspfix_plan.h"
#include "cspfix_tf.h"

#if CONFIG_LCMS2
#include <lcms2.h>

/* lcms2's messages go to the profile's reason, not to stderr */
static void lcms_error(cmsContext ctx, cmsUInt32Number code, const char *text)
{
    CspfixIcc *c = cmsGetContextUserData(ctx);
    if (c && !c->why[0])
        snprintf(c->why, sizeof(c->why), "lcms2: %s", text);
}

static cmsContext new_context(CspfixIcc *c)
{
    cmsContext ctx = cmsCreateContext(NULL, c);
    if (ctx)
        cmsSetLogErrorHandlerTHR(ctx, lcms_error);
    return ctx;
}

/* ICC's profile connection space white: D50 (ICC.1 7.2.16) */
static const double pcs_d50[3] = { 0.9642, 1.0, 0.8249 };

static void xyz_vec(double v[3], const cmsCIEXYZ *x)
{
    v[0] = x->X;
    v[1] = x->Y;
    v[2] = x->Z;
}

static void mat3_apply(double d[3], const double m[3][3], const double v[3])
{
    double t[3];
    for (int i = 0; i < 3; i++)
        t[i] = m[i][0] * v[0] + m[i][1] * v[1] + m[i][2] * v[2];
    memcpy(d, t, sizeof(t));
}

/* the colorants' and white's chromaticities in the profile's own white */
static int read_colorants(CspfixIcc *c, cmsHPROFILE h, double xy[4][2])
{
    static const cmsTagSignature sig[3] = {
        cmsSigRedColorantTag, cmsSigGreenColorantTag, cmsSigBlueColorantTag,
    };
    const cmsCIEXYZ *wtpt = cmsReadTag(h, cmsSigMediaWhitePointTag);
    const double *chad = cmsReadTag(h, cmsSigChromaticAdaptationTag);
    double to_own[3][3], v[4][3];

    if (chad) {
        double m[3][3];
        memcpy(m, chad, sizeof(m));
        if (ff_cspfix_mat3_inv(to_own, m) < 0) {
            snprintf(c->why, sizeof(c->why), "its chromatic adaptation (chad) matrix is singular");
            return AVERROR_INVALIDDATA;
        }
        mat3_apply(v[3], to_own, pcs_d50);
    } else if (wtpt && wtpt->Y > 0.0 &&
               (fabs(wtpt->X / wtpt->Y - pcs_d50[0]) > 1e-3 ||
                fabs(wtpt->Z / wtpt->Y - pcs_d50[2]) > 1e-3)) {
        /* version 2: colorants adapted to D50 from the media white, by Bradford in
         * practice (ICC.1:2001-04 and its white paper on chromatic adaptation) */
        xyz_vec(v[3], wtpt);
        for (int i = 0; i < 3; i++)
            v[3][i] /= wtpt->Y;
        ff_cspfix_adapt_matrix(to_own, pcs_d50, v[3], CSPFIX_WP_BRADFORD);
    } else {
        memset(to_own, 0, sizeof(to_own));
        for (int i = 0; i < 3; i++)
            to_own[i][i] = 1.0;
        memcpy(v[3], pcs_d50, sizeof(pcs_d50));
    }
    for (int k = 0; k < 3; k++) {
        const cmsCIEXYZ *x = cmsReadTag(h, sig[k]);
        if (!x) {
            snprintf(c->why, sizeof(c->why), "it has no %s colorant tag",
                     k == 0 ? "rXYZ" : k == 1 ? "gXYZ" : "bXYZ");
            return AVERROR_INVALIDDATA;
        }
        xyz_vec(v[k], x);
        mat3_apply(v[k], to_own, v[k]);
    }
    for (int k = 0; k < 4; k++) {
        const double s = v[k][0] + v[k][1] + v[k][2];
        static const char *const name[4] = { "red colorant", "green colorant",
                                             "blue colorant", "white" };
        if (!(s > 1e-9)) {
            snprintf(c->why, sizeof(c->why), "its %s has no chromaticity (X+Y+Z = %g)",
                     name[k], s);
            return AVERROR_INVALIDDATA;
        }
        if (!(v[k][1] >= 0.0)) {
            snprintf(c->why, sizeof(c->why), "its %s has a negative Y (%g)", name[k], v[k][1]);
            return AVERROR_INVALIDDATA;
        }
        xy[k][0] = v[k][0] / s;
        xy[k][1] = v[k][1] / s;
    }
    return 0;
}

static int match_primaries(CspfixIcc *c, const double xy[4][2])
{
    double best = INFINITY, npm[3][3];
    int prim = -1;

    if (ff_cspfix_npm_xy(xy, npm) < 0) {
        snprintf(c->why, sizeof(c->why), "its colorants (R %.4f,%.4f G %.4f,%.4f B %.4f,%.4f, "
                 "white %.4f,%.4f) give no RGB-to-XYZ matrix", xy[0][0], xy[0][1],
                 xy[1][0], xy[1][1], xy[2][0], xy[2][1], xy[3][0], xy[3][1]);
        return AVERROR_INVALIDDATA;
    }

    for (int p = 1; p <= CSPFIX_PRI_OPRGB; p++) {
        double ref[4][2], d = 0.0;
        if (p == AVCOL_PRI_SMPTE428 || ff_cspfix_prim_xy(p, ref) < 0)
            continue;
        for (int k = 0; k < 4; k++)
            d = FFMAX(d, FFMAX(fabs(xy[k][0] - ref[k][0]), fabs(xy[k][1] - ref[k][1])));
        if (d < best) {
            best = d;
            prim = p;
        }
    }
    if (best <= CSPFIX_ICC_XY_TOL)
        return prim;
    /* primaries of their own: the colorants themselves */
    if ((prim = ff_cspfix_custom_prim(xy)) < 0) {
        snprintf(c->why, sizeof(c->why), "more than %d profiles with primaries of their own "
                 "in this process", CSPFIX_CUSTOM_MAX);
        return prim;
    }
    snprintf(c->note, sizeof(c->note), " (R %.4f,%.4f G %.4f,%.4f B %.4f,%.4f, white "
             "%.4f,%.4f)", xy[0][0], xy[0][1], xy[1][0], xy[1][1], xy[2][0], xy[2][1],
             xy[3][0], xy[3][1]);
    return prim;
}

/* the decoding curves a profile's TRC is matched to, nearest first on ties */
static const int trc_candidates[] = {
    AVCOL_TRC_IEC61966_2_1, AVCOL_TRC_BT709, AVCOL_TRC_GAMMA22, CSPFIX_TRC_OPRGB,
    AVCOL_TRC_GAMMA28, CSPFIX_TRC_DCIP3, AVCOL_TRC_LINEAR, AVCOL_TRC_SMPTE240M,
};

static int match_curve(CspfixIcc *c, const cmsToneCurve *const t[3], int n)
{
    double best = INFINITY;
    int trc = -1;

    for (int k = 1; k < n; k++) {
        for (int i = 0; i <= CSPFIX_ICC_CURVE_POINTS; i++) {
            const float e = (float)i / CSPFIX_ICC_CURVE_POINTS;
            if (fabsf(cmsEvalToneCurveFloat(t[k], e) - cmsEvalToneCurveFloat(t[0], e)) > 1e-6f) {
                snprintf(c->why, sizeof(c->why), "its red, green and blue curves differ "
                         "(at %.4f: %.6f, %.6f)", e, cmsEvalToneCurveFloat(t[0], e),
                         cmsEvalToneCurveFloat(t[k], e));
                return AVERROR_PATCHWELCOME;
            }
        }
    }
    for (int j = 0; j < FF_ARRAY_ELEMS(trc_candidates); j++) {
        const int curve = ff_cspfix_curve(trc_candidates[j], c->linearize);
        double d = 0.0;
        for (int i = 0; i <= CSPFIX_ICC_CURVE_POINTS; i++) {
            const double e = (double)i / CSPFIX_ICC_CURVE_POINTS;
            d = FFMAX(d, fabs(cmsEvalToneCurveFloat(t[0], e) - ff_cspfix_curve_decode(curve, e)));
        }
        if (d < best) {
            best = d;
            trc = trc_candidates[j];
        }
    }
    if (best <= CSPFIX_ICC_CURVE_TOL)
        return trc;
    /* a curve of its own: ICC's parametric form, else samples */
    {
        CspfixCustomCurve cc = { 0 };
        const int type = cmsGetToneCurveParametricType(t[0]);
        int ret;
        if (type >= 1 && type <= 5) {
            const cmsFloat64Number *p = cmsGetToneCurveParams(t[0]);
            cc.type = type;
            memcpy(cc.p, p, sizeof(cc.p));
        } else {
            for (int i = 0; i < CSPFIX_CUSTOM_SAMPLES; i++)
                cc.s[i] = cmsEvalToneCurveFloat(t[0], (float)i / (CSPFIX_CUSTOM_SAMPLES - 1));
        }
        if ((ret = ff_cspfix_custom_trc(&cc)) < 0) {
            snprintf(c->why, sizeof(c->why), ret == AVERROR(ENOSPC) ? "more than %d profiles "
                     "with curves of their own in this process" : "its curve does not increase "
                     "from 0 (a decoding curve cspfix cannot invert)", CSPFIX_CUSTOM_MAX);
            return ret;
        }
        {
            char g[32] = "";
            if (type == 1)
                snprintf(g, sizeof(g), ", gamma %.4f", cc.p[0]);
            av_strlcatf(c->note, sizeof(c->note), " (%s curve%s)", type >= 1 && type <= 5 ?
                        "a parametric" : "a sampled", g);
        }
        return ret;
    }
}

/*
 * A LUT profile (A2B): lcms2's relative colorimetric transform of its R'G'B' into linear
 * BT.2020 (D65), at CSPFIX_ICC_LUT_N^3 grid points, interned as a transfer value of its
 * own (cspfix_custom.h); the primaries are bt2020. Linear light, as lcms2 interpolates
 * a profile's CLUT (tetrahedral, in PCS XYZ): a 33^3 grid holds the points of a 17^3
 * CLUT, and its tetrahedra lie in the CLUT's.
 */
static int read_lut(CspfixIcc *c, cmsContext ctx, cmsHPROFILE h, int *prim, int *trc)
{
    static const cmsCIExyY d65 = { 0.3127, 0.3290, 1.0 };
    static const cmsCIExyYTRIPLE bt2020 = {
        { 0.708, 0.292, 1.0 }, { 0.170, 0.797, 1.0 }, { 0.131, 0.046, 1.0 },
    };
    const int n = CSPFIX_ICC_LUT_N, np = n * n * n;
    cmsToneCurve *lin = cmsBuildGamma(ctx, 1.0);
    cmsToneCurve *curves[3] = { lin, lin, lin };
    cmsHPROFILE out = lin ? cmsCreateRGBProfileTHR(ctx, &d65, &bt2020, curves) : NULL;
    cmsHTRANSFORM xf = out ? cmsCreateTransformTHR(ctx, h, TYPE_RGB_FLT, out, TYPE_RGB_FLT,
                                                   INTENT_RELATIVE_COLORIMETRIC,
                                                   cmsFLAGS_NOCACHE | cmsFLAGS_NOOPTIMIZE) : NULL;
    float *t = xf ? av_malloc_array(np, 3 * sizeof(*t)) : NULL;
    int ret = AVERROR(ENOMEM);

    if (lin && out && !xf) {
        snprintf(c->why, sizeof(c->why), "lcms2 cannot make a transform of its A2B table");
        ret = AVERROR_INVALIDDATA;
    }
    if (t) {
        for (int i = 0; i < np; i++) {
            t[3 * i + 0] = (float)(i % n) / (n - 1);
            t[3 * i + 1] = (float)(i / n % n) / (n - 1);
            t[3 * i + 2] = (float)(i / (n * n)) / (n - 1);
        }
        cmsDoTransform(xf, t, t, np);
        ret = 0;
        for (int i = 0; i < 3 * np; i++) {
            if (!isfinite(t[i])) {
                snprintf(c->why, sizeof(c->why), "its A2B table gives values that are not "
                         "finite");
                ret = AVERROR_INVALIDDATA;
                break;
            }
        }
        if (!ret && (ret = ff_cspfix_custom_lut3d(t, n)) == AVERROR(ENOSPC))
            snprintf(c->why, sizeof(c->why), "more than %d LUT profiles in one process",
                     CSPFIX_CUSTOM_MAX);
        if (ret >= 0) {
            *prim = AVCOL_PRI_BT2020;
            *trc  = ret;
            snprintf(c->note, sizeof(c->note), "a LUT profile, read as a %d^3 table into "
                     "BT.2020", n);
            ret = 0;
        }
    }
    av_free(t);
    if (xf)
        cmsDeleteTransform(xf);
    if (out)
        cmsCloseProfile(out);
    if (lin)
        cmsFreeToneCurve(lin);
    return ret;
}

static int read_profile(CspfixIcc *c, cmsContext ctx, cmsHPROFILE h, int *prim, int *trc)
{
    static const cmsTagSignature luts[] = {
        cmsSigAToB0Tag, cmsSigAToB1Tag, cmsSigAToB2Tag, cmsSigDToB0Tag,
    };
    const cmsColorSpaceSignature cs = cmsGetColorSpace(h);
    const cmsToneCurve *t[3];
    double xy[4][2];
    int ret;

    cmsGetProfileInfoASCII(h, cmsInfoDescription, "en", "US", c->desc, sizeof(c->desc));
    if (cs != cmsSigRgbData && cs != cmsSigGrayData) {
        snprintf(c->why, sizeof(c->why), "it describes colour space '%c%c%c%c'; cspfix "
                 "takes RGB and grey profiles", (cs >> 24) & 0xff, (cs >> 16) & 0xff,
                 (cs >> 8) & 0xff, cs & 0xff);
        return AVERROR_PATCHWELCOME;
    }
    for (int i = 0; i < FF_ARRAY_ELEMS(luts); i++) {
        if (cmsIsTag(h, luts[i])) {
            if (cs != cmsSigRgbData) {
                snprintf(c->why, sizeof(c->why), "it is a grey LUT profile (A2B/D2B tags), "
                         "which cspfix does not take");
                return AVERROR_PATCHWELCOME;
            }
            return read_lut(c, ctx, h, prim, trc);
        }
    }
    if (cs == cmsSigGrayData) {
        if (!(t[0] = cmsReadTag(h, cmsSigGrayTRCTag))) {
            snprintf(c->why, sizeof(c->why), "it has no grayTRC tag");
            return AVERROR_INVALIDDATA;
        }
        *prim = AVCOL_PRI_UNSPECIFIED;
        return (*trc = match_curve(c, t, 1)) < 0 ? *trc : 0;
    }
    t[0] = cmsReadTag(h, cmsSigRedTRCTag);
    t[1] = cmsReadTag(h, cmsSigGreenTRCTag);
    t[2] = cmsReadTag(h, cmsSigBlueTRCTag);
    if (!t[0] || !t[1] || !t[2]) {
        snprintf(c->why, sizeof(c->why), "it has no rTRC, gTRC and bTRC tags");
        return AVERROR_INVALIDDATA;
    }
    if ((ret = read_colorants(c, h, xy)) < 0 || (ret = match_primaries(c, xy)) < 0)
        return ret;
    *prim = ret;
    return (*trc = match_curve(c, t, 3)) < 0 ? *trc : 0;
}

int ff_cspfix_icc_read(CspfixIcc *c, const AVFrameSideData *sd, int *prim, int *trc)
{
    cmsContext ctx;
    cmsHPROFILE h;

    if (c->data && c->size == sd->size && !memcmp(c->data, sd->data, sd->size))
        goto done;
    av_freep(&c->data);
    c->size = 0;
    c->desc[0] = c->why[0] = c->note[0] = 0;
    c->prim = AVCOL_PRI_UNSPECIFIED;
    c->trc  = AVCOL_TRC_UNSPECIFIED;
    c->logged = 0;
    if (!(c->data = av_memdup(sd->data, sd->size)))
        return AVERROR(ENOMEM);
    c->size = sd->size;
    if (!(ctx = new_context(c))) {
        av_freep(&c->data);
        return AVERROR(ENOMEM);
    }
    if (sd->size > UINT32_MAX || !(h = cmsOpenProfileFromMemTHR(ctx, sd->data, sd->size))) {
        if (!c->why[0])
            snprintf(c->why, sizeof(c->why), "lcms2 cannot read it");
        c->ret = AVERROR_INVALIDDATA;
    } else {
        c->ret = read_profile(c, ctx, h, &c->prim, &c->trc);
        cmsCloseProfile(h);
    }
    cmsDeleteContext(ctx);
done:
    *prim = c->prim;
    *trc  = c->trc;
    return c->ret;
}

/* the decoding curve of trc as an ICC curve, or NULL (EINVAL) */
static cmsToneCurve *build_curve(cmsContext ctx, int trc, int linearize)
{
    const int curve = ff_cspfix_curve(trc, linearize);
    /* ICC parametric type 3 (lcms2 type 4): Y = (a X + b)^g for X >= d, else c X */
    const double srgb[5]  = { 2.4, 1.0 / 1.055, 0.055 / 1.055, 1.0 / 12.92, 0.04045 };
    const double bt709[5] = { 1.0 / 0.45, 1.0 / 1.099, 0.099 / 1.099, 1.0 / 4.5, 0.081 };

    switch (curve) {
    case CSPFIX_CURVE_NONE:     return cmsBuildGamma(ctx, 1.0);
    case CSPFIX_CURVE_BT1886:   return cmsBuildGamma(ctx, 2.4);
    case CSPFIX_CURVE_GAMMA22:  return cmsBuildGamma(ctx, 2.2);
    case CSPFIX_CURVE_GAMMA28:  return cmsBuildGamma(ctx, 2.8);
    case CSPFIX_CURVE_OPRGB:    return cmsBuildGamma(ctx, CSPFIX_OPRGB_GAMMA);
    case CSPFIX_CURVE_DCIP3:    return cmsBuildGamma(ctx, CSPFIX_DCIP3_GAMMA);
    case CSPFIX_CURVE_SRGB:     return cmsBuildParametricToneCurve(ctx, 4, srgb);
    case CSPFIX_CURVE_BT709:    return cmsBuildParametricToneCurve(ctx, 4, bt709);
    }
    {
        const CspfixCustomCurve *cc = ff_cspfix_custom_curve(curve);
        if (!cc)
            return NULL;
        return cc->type ? cmsBuildParametricToneCurve(ctx, cc->type, cc->p) :
                          cmsBuildTabulatedToneCurveFloat(ctx, CSPFIX_CUSTOM_SAMPLES, cc->s);
    }
}

int ff_cspfix_icc_make(CspfixIcc *c, int prim, int trc, AVBufferRef **buf)
{
    cmsContext ctx;
    cmsHPROFILE h = NULL;
    cmsToneCurve *t = NULL;
    cmsMLU *mlu = NULL;
    cmsUInt32Number size = 0;
    double xy[4][2];
    char desc[96];
    int ret = AVERROR(ENOMEM);

    if (c->out && c->out_prim == prim && c->out_trc == trc && c->out_linearize == c->linearize)
        goto done;
    av_buffer_unref(&c->out);
    if (ff_cspfix_is_xyz_prim(prim) || ff_cspfix_prim_xy(prim, xy) < 0)
        return AVERROR(EINVAL);
    if (!(ctx = new_context(NULL)))
        return AVERROR(ENOMEM);
    if (!(t = build_curve(ctx, trc, c->linearize))) {
        cmsDeleteContext(ctx);
        return AVERROR(EINVAL);
    }
    {
        cmsCIExyY white = { xy[3][0], xy[3][1], 1.0 };
        cmsCIExyYTRIPLE p = {
            { xy[0][0], xy[0][1], 1.0 }, { xy[1][0], xy[1][1], 1.0 }, { xy[2][0], xy[2][1], 1.0 },
        };
        cmsToneCurve *curves[3] = { t, t, t };
        h = cmsCreateRGBProfileTHR(ctx, &white, &p, curves);
    }
    snprintf(desc, sizeof(desc), "cspfix: primaries %s, transfer %s", ff_cspfix_prim_name(prim),
             ff_cspfix_trc_name(trc));
    if (!h || !(mlu = cmsMLUalloc(ctx, 1)) || !cmsMLUsetASCII(mlu, "en", "US", desc) ||
        !cmsWriteTag(h, cmsSigProfileDescriptionTag, mlu) ||
        !cmsSaveProfileToMem(h, NULL, &size) || !size ||
        !(c->out = av_buffer_alloc(size)) || !cmsSaveProfileToMem(h, c->out->data, &size)) {
        av_buffer_unref(&c->out);
        ret = AVERROR_EXTERNAL;
    } else {
        c->out_prim = prim;
        c->out_trc  = trc;
        c->out_linearize = c->linearize;
        ret = 0;
    }
    if (mlu)
        cmsMLUfree(mlu);
    if (h)
        cmsCloseProfile(h);
    cmsFreeToneCurve(t);
    cmsDeleteContext(ctx);
    if (ret < 0)
        return ret;
done:
    return (*buf = av_buffer_ref(c->out)) ? 0 : AVERROR(ENOMEM);
}

int ff_cspfix_icc_available(void)
{
    return 1;
}

#else /* !CONFIG_LCMS2 */

int ff_cspfix_icc_read(CspfixIcc *c, const AVFrameSideData *sd, int *prim, int *trc)
{
    snprintf(c->why, sizeof(c->why), "FFmpeg is built without lcms2 (--enable-lcms2)");
    *prim = AVCOL_PRI_UNSPECIFIED;
    *trc  = AVCOL_TRC_UNSPECIFIED;
    return AVERROR(ENOSYS);
}

int ff_cspfix_icc_make(CspfixIcc *c, int prim, int trc, AVBufferRef **buf)
{
    return AVERROR(ENOSYS);
}

int ff_cspfix_icc_available(void)
{
    return 0;
}

#endif /* CONFIG_LCMS2 */

void ff_cspfix_icc_uninit(CspfixIcc *c)
{
    av_freep(&c->data);
    av_buffer_unref(&c->out);
}
