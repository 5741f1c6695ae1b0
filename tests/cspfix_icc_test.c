/*
 * cspfix ICC tests: profiles in (icc=) and out (icc_out=) against Little CMS 2
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
 * Profiles made with lcms2 (Display P3 and Adobe RGB (1998) like the ones phones and
 * cameras write, version 4 and version 2), attached to RGB frames that go through
 * FFmpeg's PNG encoder and decoder (the iCCP chunk), then through cspfix to sRGB:
 * within 1 code of lcms2's own float transform of the same pixels. Output profiles
 * (icc_out) read back with lcms2 give cspfix's conversion within 1e-4. Profiles cspfix
 * cannot take (not a profile, truncated, Lab, primaries or a curve it has not) leave the
 * frame to its tags, with a message that says why.
 */

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <lcms2.h>
#include <libavcodec/avcodec.h>
#include <libavutil/frame.h>
#include <libavutil/common.h>
#include <libavutil/cpu.h>
#include <libavutil/log.h>
#include <libavutil/mem.h>

#include "cspfix_check.h"
#include "cspfix_testutil.h"

#define W 256
#define H 64

/* ---- profiles ---- */

enum { P_P3, P_ADOBE, P_ADOBE_V2, P_ODD_PRIM, P_GAMMA18, P_LSTAR, P_PARAM5, P_FALLING,
       P_MIXED, P_LUT, P_NB };

/* CIE L* as a decoding curve (ECI RGB v2's): E' = L* / 100 */
static double lstar_decode(double e)
{
    const double l = 100.0 * e;
    return l > 8.0 ? pow((l + 16.0) / 116.0, 3.0) : l * 27.0 / 24389.0;
}

static cmsHPROFILE make_profile(int kind);

/* the LUT profile's A2B0: R'G'B' -> gamma 2.2 -> a cross term no matrix/TRC profile has
 * (green gains 4 % of red x blue) -> Display P3's colorants (D50) -> 16-bit PCS XYZ
 * (0x8000 = 1.0) */
static double lut_colorants[3][3];

static cmsInt32Number lut_sampler(const cmsUInt16Number in[], cmsUInt16Number out[], void *cargo)
{
    double v[3];

    for (int c = 0; c < 3; c++)
        v[c] = pow(in[c] / 65535.0, 2.2);
    v[1] = fmin(v[1] + 0.04 * v[0] * v[2], 1.0);
    for (int r = 0; r < 3; r++) {
        double x = 0.0;
        for (int c = 0; c < 3; c++)
            x += lut_colorants[r][c] * v[c];
        out[r] = (cmsUInt16Number)lrint(fmin(fmax(x * 32768.0, 0.0), 65535.0));
    }
    return 1;
}

/* a display profile of A2B0 alone (a 17^3 CLUT): a LUT profile */
static cmsHPROFILE make_lut_profile(void)
{
    cmsHPROFILE p3 = make_profile(P_P3), h = cmsCreateProfilePlaceholder(NULL);
    cmsPipeline *lut = cmsPipelineAlloc(NULL, 3, 3);
    cmsStage *clut = cmsStageAllocCLut16bit(NULL, 17, 3, 3, NULL);
    cmsMLU *mlu = cmsMLUalloc(NULL, 1);
    cmsToneCurve *id = cmsBuildGamma(NULL, 1.0), *ids[3] = { id, id, id };
    const cmsTagSignature col[3] = { cmsSigRedColorantTag, cmsSigGreenColorantTag,
                                     cmsSigBlueColorantTag };
    int ok = p3 && h && lut && clut && mlu && id;

    for (int c = 0; ok && c < 3; c++) {
        const cmsCIEXYZ *x = cmsReadTag(p3, col[c]);
        if (!(ok = !!x))
            break;
        lut_colorants[0][c] = x->X;
        lut_colorants[1][c] = x->Y;
        lut_colorants[2][c] = x->Z;
    }
    if (ok) {
        cmsSetProfileVersion(h, 4.3);
        cmsSetDeviceClass(h, cmsSigDisplayClass);
        cmsSetColorSpace(h, cmsSigRgbData);
        cmsSetPCS(h, cmsSigXYZData);
        /* lutAtoBType: A curves, CLUT, B curves (identities around the CLUT) */
        ok = cmsStageSampleCLut16bit(clut, lut_sampler, NULL, 0) &&
             cmsPipelineInsertStage(lut, cmsAT_END, cmsStageAllocToneCurves(NULL, 3, ids)) &&
             cmsPipelineInsertStage(lut, cmsAT_END, clut) &&
             cmsPipelineInsertStage(lut, cmsAT_END, cmsStageAllocToneCurves(NULL, 3, ids)) &&
             cmsWriteTag(h, cmsSigAToB0Tag, lut) &&
             cmsWriteTag(h, cmsSigMediaWhitePointTag, cmsD50_XYZ()) &&
             cmsMLUsetASCII(mlu, "en", "US", "cspfix test LUT profile") &&
             cmsWriteTag(h, cmsSigProfileDescriptionTag, mlu);
        clut = NULL; /* the pipeline's */
    }
    if (clut)
        cmsStageFree(clut);
    if (lut)
        cmsPipelineFree(lut);
    if (mlu)
        cmsMLUfree(mlu);
    if (id)
        cmsFreeToneCurve(id);
    if (p3)
        cmsCloseProfile(p3);
    if (!ok && h) {
        cmsCloseProfile(h);
        h = NULL;
    }
    return h;
}

static cmsHPROFILE make_profile(int kind)
{
    /* D65, and the primaries of Display P3 (SMPTE EG 432-1), opRGB (IEC 61966-2-5),
     * and of no standard */
    static const cmsCIExyY d65 = { 0.3127, 0.3290, 1.0 };
    static const cmsCIExyYTRIPLE p3 = { { 0.680, 0.320, 1 }, { 0.265, 0.690, 1 }, { 0.150, 0.060, 1 } };
    static const cmsCIExyYTRIPLE adobe = { { 0.64, 0.33, 1 }, { 0.21, 0.71, 1 }, { 0.15, 0.06, 1 } };
    static const cmsCIExyYTRIPLE odd = { { 0.70, 0.29, 1 }, { 0.20, 0.75, 1 }, { 0.14, 0.05, 1 } };
    const double srgb[5] = { 2.4, 1.0 / 1.055, 0.055 / 1.055, 1.0 / 12.92, 0.04045 };
    /* ICC type 4 (lcms2 5): a power with a black offset and a linear toe */
    const double p5[7] = { 2.0, 0.9, 0.1, 0.3, 0.05, 0.002, 0.001 };
    float tab[4096];
    cmsToneCurve *t, *t2 = NULL;
    cmsHPROFILE h;

    if (kind == P_LUT)
        return make_lut_profile();
    for (int i = 0; i < 4096; i++)
        tab[i] = kind == P_FALLING ? 1.0 - i / 4095.0 : lstar_decode(i / 4095.0);
    t = kind == P_P3 ? cmsBuildParametricToneCurve(NULL, 4, srgb) :
        kind == P_GAMMA18 ? cmsBuildGamma(NULL, 1.8) :
        kind == P_ODD_PRIM || kind == P_MIXED ? cmsBuildGamma(NULL, 2.2) :
        kind == P_LSTAR || kind == P_FALLING ? cmsBuildTabulatedToneCurveFloat(NULL, 4096, tab) :
        kind == P_PARAM5 ? cmsBuildParametricToneCurve(NULL, 5, p5) :
        cmsBuildGamma(NULL, 563.0 / 256.0);
    if (kind == P_MIXED)
        t2 = cmsBuildGamma(NULL, 2.4);
    {
        cmsToneCurve *c[3] = { t, t2 ? t2 : t, t };
        h = cmsCreateRGBProfile(&d65, kind == P_P3 ? &p3 : kind == P_ODD_PRIM ? &odd : &adobe, c);
    }
    cmsFreeToneCurve(t);
    if (t2)
        cmsFreeToneCurve(t2);
    if (h && kind == P_ADOBE_V2)
        cmsSetProfileVersion(h, 2.1);
    return h;
}

/* sRGB as H.273 and cspfix say it: BT.709 primaries, D65 at (0.3127, 0.3290) (lcms2's own
 * sRGB profile takes D65 from 6504 K, 2e-5 away: enough to move a pure power curve's
 * output by 400 of 65535 codes next to black, where its slope is infinite) */
static cmsHPROFILE make_srgb(void)
{
    static const cmsCIExyY d65 = { 0.3127, 0.3290, 1.0 };
    static const cmsCIExyYTRIPLE bt709 = { { 0.64, 0.33, 1 }, { 0.30, 0.60, 1 }, { 0.15, 0.06, 1 } };
    const double srgb[5] = { 2.4, 1.0 / 1.055, 0.055 / 1.055, 1.0 / 12.92, 0.04045 };
    cmsToneCurve *t = cmsBuildParametricToneCurve(NULL, 4, srgb);
    cmsToneCurve *c[3] = { t, t, t };
    cmsHPROFILE h = t ? cmsCreateRGBProfile(&d65, &bt709, c) : NULL;

    cmsFreeToneCurve(t);
    return h;
}

static AVBufferRef *save_profile(cmsHPROFILE h)
{
    cmsUInt32Number size = 0;
    AVBufferRef *b;

    if (!cmsSaveProfileToMem(h, NULL, &size) || !(b = av_buffer_alloc(size)))
        return NULL;
    if (!cmsSaveProfileToMem(h, b->data, &size))
        av_buffer_unref(&b);
    return b;
}

/* ---- frames ---- */

/* a 25^3 grid of R'G'B' (0..255) then a grey ramp */
static void fill_test_pattern(AVFrame *f, int deep)
{
    for (int y = 0; y < H; y++) {
        for (int x = 0; x < W; x++) {
            const int i = y * W + x;
            int v[3];
            if (i < 25 * 25 * 25) {
                v[0] = (i % 25) * 255 / 24;
                v[1] = (i / 25 % 25) * 255 / 24;
                v[2] = (i / 625) * 255 / 24;
            } else {
                v[0] = v[1] = v[2] = (i - 15625) * 255 / (W * H - 15625 - 1);
            }
            for (int c = 0; c < 3; c++) {
                if (deep)
                    ((uint16_t *)(f->data[0] + y * f->linesize[0]))[3 * x + c] = v[c] * 257;
                else
                    f->data[0][y * f->linesize[0] + 3 * x + c] = v[c];
            }
        }
    }
}

static double sample01(const AVFrame *f, int x, int y, int c, int deep)
{
    return deep ? ((const uint16_t *)(f->data[0] + y * f->linesize[0]))[3 * x + c] / 65535.0 :
                  f->data[0][y * f->linesize[0] + 3 * x + c] / 255.0;
}

/* through FFmpeg's PNG encoder and decoder: the profile as the iCCP chunk */
static AVFrame *png_roundtrip(const AVFrame *in)
{
    const AVCodec *enc = avcodec_find_encoder(AV_CODEC_ID_PNG);
    const AVCodec *dec = avcodec_find_decoder(AV_CODEC_ID_PNG);
    AVCodecContext *e = enc ? avcodec_alloc_context3(enc) : NULL;
    AVCodecContext *d = dec ? avcodec_alloc_context3(dec) : NULL;
    AVPacket *pkt = av_packet_alloc();
    AVFrame *out = av_frame_alloc();
    int ok = 0;

    if (e && d && pkt && out) {
        e->width     = in->width;
        e->height    = in->height;
        e->pix_fmt   = in->format;
        e->time_base = (AVRational){ 1, 25 };
        ok = avcodec_open2(e, enc, NULL) >= 0 && avcodec_open2(d, dec, NULL) >= 0 &&
             avcodec_send_frame(e, in) >= 0 && avcodec_receive_packet(e, pkt) >= 0 &&
             avcodec_send_packet(d, pkt) >= 0 && avcodec_receive_frame(d, out) >= 0;
    }
    avcodec_free_context(&e);
    avcodec_free_context(&d);
    av_packet_free(&pkt);
    if (!ok)
        av_frame_free(&out);
    return out;
}

static AVFrame *pattern_frame(int fmt, const AVBufferRef *icc)
{
    AVFrame *f = cspfix_alloc_frame(fmt, W, H, AVCOL_PRI_UNSPECIFIED, AVCOL_TRC_UNSPECIFIED,
                                    AVCOL_SPC_RGB, AVCOL_RANGE_JPEG);
    AVBufferRef *b;

    if (!f)
        return NULL;
    fill_test_pattern(f, fmt == AV_PIX_FMT_RGB48LE);
    if (icc && (!(b = av_buffer_ref(icc)) ||
                !av_frame_new_side_data_from_buf(f, AV_FRAME_DATA_ICC_PROFILE, b)))
        av_frame_free(&f);
    return f;
}

/* ---- log capture ---- */

static char log_text[8192];

static void log_cb(void *avcl, int level, const char *fmt, va_list vl)
{
    size_t n = strlen(log_text);
    if (level <= AV_LOG_WARNING && n < sizeof(log_text) - 1)
        vsnprintf(log_text + n, sizeof(log_text) - n, fmt, vl);
}

/* ---- comparisons ---- */

typedef struct Diff {
    int max;            ///< largest difference in codes
    double mean;        ///< mean absolute difference in codes
    double exact;       ///< share of samples equal
} Diff;

/* cspfix's output (fmt rgb24 or rgb48) against lcms2's float transform of in (8-bit
 * codes) from profile src to dst, rounded to the output's codes */
static Diff against_lcms(const AVFrame *in, const AVFrame *out, cmsHPROFILE src, cmsHPROFILE dst)
{
    const int deep = out->format == AV_PIX_FMT_RGB48LE;
    const double scale = deep ? 65535.0 : 255.0;
    cmsHTRANSFORM t = cmsCreateTransform(src, TYPE_RGB_DBL, dst, TYPE_RGB_DBL,
                                         INTENT_RELATIVE_COLORIMETRIC, 0);
    Diff d = { 0 };
    long n = 0, eq = 0;
    double sum = 0.0;

    if (!t) {
        d.max = 1 << 30;
        return d;
    }
    for (int y = 0; y < H; y++) {
        for (int x = 0; x < W; x++) {
            double a[3], b[3];
            for (int c = 0; c < 3; c++)
                a[c] = sample01(in, x, y, c, in->format == AV_PIX_FMT_RGB48LE);
            cmsDoTransform(t, a, b, 1);
            for (int c = 0; c < 3; c++) {
                const double r = b[c] != b[c] ? 0.0 : fmin(fmax(b[c], 0.0), 1.0);
                const int ref = lrint(r * scale);
                const int got = lrint(sample01(out, x, y, c, deep) * scale);
                const int e = abs(got - ref);
                if (getenv("ICC_DEBUG") && e > d.max)
                    printf("  worst so far: in %.5f %.5f %.5f ch %d: lcms2 %.6f cspfix %d\n",
                           a[0], a[1], a[2], c, b[c] * scale, got);
                d.max = e > d.max ? e : d.max;
                sum += e;
                eq += !e;
                n++;
            }
        }
    }
    cmsDeleteTransform(t);
    d.mean  = sum / n;
    d.exact = (double)eq / n;
    return d;
}

/* largest |XYZ| difference between a's pixels through profile pa and b's through pb
 * (lcms2, float, relative colorimetric: D50 PCS), both 16-bit RGB */
static double xyz_error(const AVFrame *a, cmsHPROFILE pa, const AVFrame *b, cmsHPROFILE pb)
{
    cmsHPROFILE xyz = cmsCreateXYZProfile();
    cmsHTRANSFORM ta = cmsCreateTransform(pa, TYPE_RGB_DBL, xyz, TYPE_XYZ_DBL, INTENT_RELATIVE_COLORIMETRIC, 0);
    cmsHTRANSFORM tb = cmsCreateTransform(pb, TYPE_RGB_DBL, xyz, TYPE_XYZ_DBL, INTENT_RELATIVE_COLORIMETRIC, 0);
    double m = ta && tb ? 0.0 : INFINITY;

    for (int y = 0; ta && tb && y < H; y++) {
        for (int x = 0; x < W; x++) {
            double va[3], vb[3], xa[3], xb[3];
            for (int c = 0; c < 3; c++) {
                va[c] = sample01(a, x, y, c, a->format == AV_PIX_FMT_RGB48LE);
                vb[c] = sample01(b, x, y, c, b->format == AV_PIX_FMT_RGB48LE);
            }
            cmsDoTransform(ta, va, xa, 1);
            cmsDoTransform(tb, vb, xb, 1);
            for (int c = 0; c < 3; c++)
                m = fmax(m, fabs(xa[c] - xb[c]));
        }
    }
    if (ta)
        cmsDeleteTransform(ta);
    if (tb)
        cmsDeleteTransform(tb);
    cmsCloseProfile(xyz);
    return m;
}

/* ---- tests ---- */

static void check_profiles_in(void)
{
    static const struct {
        int kind;
        const char *name;
    } cases[] = {
        { P_P3, "Display P3 (v4)" }, { P_ADOBE, "Adobe RGB (1998) (v4)" },
        { P_ADOBE_V2, "Adobe RGB (1998) (v2)" },
        /* values of their own: primaries no standard has, a gamma 1.8 (ProPhoto's,
         * old Macs'), L* sampled at 4096 points (ECI RGB v2's), ICC's parametric type 4 */
        { P_ODD_PRIM, "own primaries" }, { P_GAMMA18, "gamma 1.8" },
        { P_LSTAR, "sampled L* curve" }, { P_PARAM5, "parametric type 4" },
        /* a LUT profile (A2B0 only: a 17^3 CLUT), read as a 33^3 table */
        { P_LUT, "LUT profile (A2B0)" },
    };
    cmsHPROFILE srgb = make_srgb();

    for (int i = 0; i < FF_ARRAY_ELEMS(cases); i++) {
        cmsHPROFILE h = make_profile(cases[i].kind);
        AVBufferRef *icc = h ? save_profile(h) : NULL;
        AVFrame *src = icc ? pattern_frame(AV_PIX_FMT_RGB24, icc) : NULL;
        AVFrame *png = src ? png_roundtrip(src) : NULL;
        const AVFrameSideData *sd = png ? av_frame_get_side_data(png, AV_FRAME_DATA_ICC_PROFILE) : NULL;
        AVFrame *out8 = NULL, *out16 = NULL, *ign = NULL, *tagged = NULL;

        CHECK(png && sd && sd->size == icc->size && !memcmp(sd->data, icc->data, icc->size),
              "%s: the PNG round trip keeps the profile", cases[i].name);
        if (!png || !sd)
            goto next;
        CHECK(cspfix_run1(png, "cspfix=primaries=bt709:trc=iec61966-2-1:format=rgb24", 1, &out8) >= 0 &&
              cspfix_run1(png, "cspfix=primaries=bt709:trc=iec61966-2-1:format=rgb48le", 1, &out16) >= 0 &&
              cspfix_run1(png, "cspfix=primaries=bt709:trc=iec61966-2-1:format=rgb24:icc=ignore", 1, &ign) >= 0,
              "%s: conversions run", cases[i].name);
        if (out8 && out16 && ign) {
            const Diff d8 = against_lcms(png, out8, h, srgb), d16 = against_lcms(png, out16, h, srgb);
            printf("%-24s -> sRGB against lcms2: 8-bit max %d mean %.4f exact %.2f%%; "
                   "16-bit max %d mean %.2f codes\n", cases[i].name, d8.max, d8.mean,
                   100 * d8.exact, d16.max, d16.mean);
            CHECK(d8.max <= 1, "%s: 8-bit output within 1 code of lcms2 (max %d)", cases[i].name, d8.max);
            CHECK(d8.exact >= 0.99, "%s: 8-bit output equal to lcms2 for 99%% of samples (%.4f)",
                  cases[i].name, d8.exact);
            /* a LUT profile's table: 16-bit outputs next to black after a cancelling gamut
             * matrix (BT.2020 -> BT.709 red of a dark red with saturated blue) move up
             * to 88 codes (a third of an 8-bit code) */
            CHECK(d16.max <= (cases[i].kind == P_LUT ? 128 : 32), "%s: 16-bit output within "
                  "%d codes of lcms2 (max %d)", cases[i].name, cases[i].kind == P_LUT ? 128 : 32,
                  d16.max);
            /* the profile is what changes the pixels: without it the tags (guessed sRGB)
             * make the conversion an identity */
            CHECK(cspfix_frames_equal(ign, png), "%s: icc=ignore converts by the tags",
                  cases[i].name);
            CHECK(!cspfix_frames_equal(out8, png), "%s: icc=auto converts", cases[i].name);
            CHECK(!av_frame_get_side_data(out8, AV_FRAME_DATA_ICC_PROFILE),
                  "%s: the sRGB output drops the input's profile", cases[i].name);
        }
        /* the 3D table stage's SIMD kernels (lut3d, AVX2/AVX-512) give C's outputs: the
         * same conversions with the C kernels only (as -cpuflags 0) */
        if (cases[i].kind == P_LUT && out8 && out16) {
            AVFrame *c8 = NULL, *c16 = NULL;
            av_force_cpu_flags(0);
            CHECK(cspfix_run1(png, "cspfix=primaries=bt709:trc=iec61966-2-1:format=rgb24", 1, &c8) >= 0 &&
                  cspfix_run1(png, "cspfix=primaries=bt709:trc=iec61966-2-1:format=rgb48le", 1, &c16) >= 0,
                  "%s: conversions run with the C kernels", cases[i].name);
            av_force_cpu_flags(-1);
            CHECK(c8 && c16 && cspfix_frames_equal(c8, out8) && cspfix_frames_equal(c16, out16),
                  "%s: 8- and 16-bit outputs of the C kernels and of the CPU's (flags 0x%x) equal",
                  cases[i].name, av_get_cpu_flags());
            av_frame_free(&c8);
            av_frame_free(&c16);
        }
        /* a value of its own kept on the output (the primaries, or the curve): the profile
         * made for the output says it (lcms2 through both profiles, in XYZ) */
        if (cases[i].kind == P_ODD_PRIM || cases[i].kind == P_GAMMA18) {
            AVFrame *own = NULL;
            const AVFrameSideData *osd;
            cmsHPROFILE oh;
            const char *g = cases[i].kind == P_ODD_PRIM ?
                            "cspfix=trc=iec61966-2-1:format=rgb48le" :
                            "cspfix=primaries=bt2020:format=rgb48le";
            if (cspfix_run1(png, g, 1, &own) >= 0 &&
                (osd = av_frame_get_side_data(own, AV_FRAME_DATA_ICC_PROFILE)) &&
                (oh = cmsOpenProfileFromMem(osd->data, osd->size))) {
                const double e = xyz_error(png, h, own, oh);
                printf("%-24s -> its own %s kept, the output's profile against the input's "
                       "(XYZ): max %.2e\n", cases[i].name,
                       cases[i].kind == P_ODD_PRIM ? "primaries" : "curve", e);
                CHECK(e <= 1e-4, "%s: the output's profile says the output (%.2e)", cases[i].name, e);
                CHECK(own->color_primaries == AVCOL_PRI_UNSPECIFIED ||
                      own->color_trc == AVCOL_TRC_UNSPECIFIED, "%s: tags unspecified", cases[i].name);
                cmsCloseProfile(oh);
            } else {
                CHECK(0, "%s: output keeping its own value, with a profile", cases[i].name);
            }
            av_frame_free(&own);
        }
        /* tags that contradict the profile: auto takes the profile and warns; use takes
         * it over iprimaries too */
        png->color_primaries = AVCOL_PRI_BT709;
        png->color_trc       = AVCOL_TRC_IEC61966_2_1;
        log_text[0] = 0;
        if (cspfix_run1(png, "cspfix=primaries=bt709:trc=iec61966-2-1:format=rgb24", 1, &tagged) >= 0) {
            CHECK(out8 && cspfix_frames_equal(tagged, out8), "%s: tagged sRGB, the profile wins",
                  cases[i].name);
            CHECK(strstr(log_text, "the profile is taken"), "%s: the contradiction is logged (%s)",
                  cases[i].name, log_text);
            av_frame_free(&tagged);
        }
        if (cspfix_run1(png, "cspfix=primaries=bt709:trc=iec61966-2-1:format=rgb24:icc=use:"
                        "iprimaries=bt709:itrc=iec61966-2-1", 1, &tagged) >= 0) {
            CHECK(out8 && cspfix_frames_equal(tagged, out8), "%s: icc=use over the input overrides",
                  cases[i].name);
            av_frame_free(&tagged);
        }
        if (cspfix_run1(png, "cspfix=primaries=bt709:trc=iec61966-2-1:format=rgb24:"
                        "iprimaries=bt709:itrc=iec61966-2-1", 1, &tagged) >= 0) {
            CHECK(ign && cspfix_frames_equal(tagged, ign), "%s: icc=auto: the input overrides win",
                  cases[i].name);
            av_frame_free(&tagged);
        }
next:
        av_frame_free(&out8);
        av_frame_free(&out16);
        av_frame_free(&ign);
        av_frame_free(&png);
        av_frame_free(&src);
        av_buffer_unref(&icc);
        if (h)
            cmsCloseProfile(h);
    }
    cmsCloseProfile(srgb);
}

/* profiles cspfix does not take: the tags convert, a warning says why, no crash */
static void check_profiles_refused(void)
{
    cmsHPROFILE good = make_profile(P_ADOBE);
    AVBufferRef *valid = good ? save_profile(good) : NULL;
    cmsHPROFILE lab = cmsCreateLab4Profile(NULL);
    cmsHPROFILE odd = make_profile(P_FALLING), g18 = make_profile(P_MIXED);
    /* red's colorant the same as green's: no RGB-to-XYZ matrix (the fuzzer's seed
     * icc-degenerate-colorants, whose red has y = 0, failed without a message) */
    cmsHPROFILE flat = make_profile(P_ADOBE);
    const cmsCIEXYZ *green = flat ? cmsReadTag(flat, cmsSigGreenColorantTag) : NULL;
    const cmsCIEXYZ green_copy = green ? *green : (cmsCIEXYZ){ 0 };
    AVBufferRef *b[7] = { NULL };
    const char *what[7] = { "random bytes", "a truncated profile", "a Lab profile",
                            "a falling curve", "different curves per channel", "an empty buffer",
                            "red's colorant green's" };
    const char *why[7] = { "lcms2", "", "colour space", "does not increase", "curves differ", "",
                           "no RGB-to-XYZ matrix" };
    AVFrame *ref = NULL, *plain = pattern_frame(AV_PIX_FMT_RGB24, NULL);

    if (!valid || !plain || cspfix_run1(plain, "cspfix=primaries=bt2020:format=rgb24", 1, &ref) < 0) {
        CHECK(0, "refused profiles: setup");
        goto end;
    }
    if ((b[0] = av_buffer_alloc(700)))
        for (int i = 0; i < 700; i++)
            b[0]->data[i] = (i * 2654435761u) >> 13;
    if ((b[1] = av_buffer_alloc(valid->size / 2)))
        memcpy(b[1]->data, valid->data, valid->size / 2);
    b[2] = lab ? save_profile(lab) : NULL;
    b[3] = odd ? save_profile(odd) : NULL;
    b[4] = g18 ? save_profile(g18) : NULL;
    b[5] = av_buffer_alloc(1);
    b[6] = green && cmsWriteTag(flat, cmsSigRedColorantTag, &green_copy) ? save_profile(flat) : NULL;
    for (int i = 0; i < 7; i++) {
        AVFrame *f = b[i] ? pattern_frame(AV_PIX_FMT_RGB24, b[i]) : NULL;
        AVFrame *out = NULL;
        int ret;
        log_text[0] = 0;
        ret = f ? cspfix_run1(f, "cspfix=primaries=bt2020:format=rgb24", 1, &out) : -1;
        CHECK(ret >= 0 && out && cspfix_frames_equal(out, ref),
              "%s: converted by the tags (ret %d)", what[i], ret);
        CHECK(strstr(log_text, "is not used") && strstr(log_text, why[i]),
              "%s: the warning says why (%s)", what[i], log_text);
        printf("refused, %s: %s", what[i], log_text);
        av_frame_free(&out);
        av_frame_free(&f);
    }
end:
    for (int i = 0; i < 7; i++)
        av_buffer_unref(&b[i]);
    av_buffer_unref(&valid);
    av_frame_free(&ref);
    av_frame_free(&plain);
    for (cmsHPROFILE *p = (cmsHPROFILE[]){ good, lab, odd, g18, flat }, *e = p + 5; p < e; p++)
        if (*p)
            cmsCloseProfile(*p);
}

/* icc_out: the profile made for the output, read back with lcms2, gives cspfix's
 * conversion; it reads back through cspfix as what it says */
static void check_profiles_out(void)
{
    static const struct {
        const char *opts, *name;
    } outs[] = {
        { "primaries=oprgb:trc=oprgb", "opRGB" },
        { "primaries=display-p3:trc=iec61966-2-1", "Display P3" },
        { "primaries=bt2020:trc=bt709", "BT.2020 (BT.1886)" },
        { "primaries=dci-p3:trc=dci-p3", "DCI-P3 (DCI white, 2.6)" },
        { "primaries=bt709:trc=gamma22", "BT.709 gamma 2.2" },
    };
    cmsHPROFILE srgb = make_srgb();
    AVFrame *in = pattern_frame(AV_PIX_FMT_RGB48LE, NULL);
    char graph[256];

    if (in) {
        in->color_primaries = AVCOL_PRI_BT709;
        in->color_trc       = AVCOL_TRC_IEC61966_2_1;
    }
    for (int i = 0; in && i < FF_ARRAY_ELEMS(outs); i++) {
        AVFrame *out = NULL, *back = NULL;
        const AVFrameSideData *sd;
        cmsHPROFILE h;
        snprintf(graph, sizeof(graph), "cspfix=%s:format=rgb48le", outs[i].opts);
        if (cspfix_run1(in, graph, 1, &out) < 0 ||
            !(sd = av_frame_get_side_data(out, AV_FRAME_DATA_ICC_PROFILE)) ||
            !(h = cmsOpenProfileFromMem(sd->data, sd->size))) {
            CHECK(0, "%s: output with a profile lcms2 reads", outs[i].name);
            av_frame_free(&out);
            continue;
        }
        {
            const double e = xyz_error(in, srgb, out, h);
            printf("icc_out %-24s: the output through its profile against the input through "
                   "sRGB's, in XYZ (lcms2): max %.2e\n", outs[i].name, e);
            CHECK(e <= 1e-4, "%s: the profile read back gives cspfix's conversion within "
                  "1e-4 in XYZ (%.2e)", outs[i].name, e);
        }
        /* back to sRGB through cspfix by the profile alone (tags unspecified) */
        out->color_primaries = AVCOL_PRI_UNSPECIFIED;
        out->color_trc       = AVCOL_TRC_UNSPECIFIED;
        if (cspfix_run1(out, "cspfix=primaries=bt709:trc=iec61966-2-1:format=rgb48le", 1, &back) >= 0) {
            int m = 0;
            for (int y = 0; y < H; y++)
                for (int x = 0; x < 3 * W; x++)
                    m = FFMAX(m, abs(((uint16_t *)(back->data[0] + y * back->linesize[0]))[x] -
                                     ((uint16_t *)(in->data[0] + y * in->linesize[0]))[x]));
            printf("icc_out %-24s: back to sRGB by the profile alone: max %d (16-bit codes)\n",
                   outs[i].name, m);
            CHECK(m <= 32, "%s: round trip by the profile within 32 of 65535 (%d)", outs[i].name, m);
        } else {
            CHECK(0, "%s: round trip runs", outs[i].name);
        }
        cmsCloseProfile(h);
        av_frame_free(&back);
        av_frame_free(&out);
    }
    if (in) {
        AVFrame *o = NULL;
        CHECK(cspfix_run1(in, "cspfix=primaries=oprgb:trc=oprgb:format=rgb48le", 1, &o) >= 0 &&
              o->color_primaries == AVCOL_PRI_UNSPECIFIED && o->color_trc == AVCOL_TRC_UNSPECIFIED,
              "opRGB output: tags unspecified (FFmpeg has no value)");
        av_frame_free(&o);
        CHECK(cspfix_run1(in, "cspfix=primaries=oprgb:trc=oprgb:format=rgb48le:icc_out=none", 1, &o) >= 0 &&
              !av_frame_get_side_data(o, AV_FRAME_DATA_ICC_PROFILE), "icc_out=none: no profile");
        av_frame_free(&o);
        CHECK(cspfix_run1(in, "cspfix=primaries=bt709:trc=bt709:format=rgb48le", 1, &o) >= 0 &&
              !av_frame_get_side_data(o, AV_FRAME_DATA_ICC_PROFILE), "icc_out=auto: none for BT.709");
        av_frame_free(&o);
        CHECK(cspfix_run1(in, "cspfix=primaries=bt709:trc=bt709:format=rgb48le:icc_out=write", 1, &o) >= 0 &&
              av_frame_get_side_data(o, AV_FRAME_DATA_ICC_PROFILE), "icc_out=write: one for BT.709");
        av_frame_free(&o);
        CHECK(cspfix_run1(in, "cspfix=primaries=oprgb:trc=oprgb:format=yuv444p16le:space=bt709", 1, &o) >= 0 &&
              !av_frame_get_side_data(o, AV_FRAME_DATA_ICC_PROFILE), "Y'CbCr output: no profile");
        av_frame_free(&o);
        CHECK(cspfix_run1(in, "cspfix=all=bt2020:trc=smpte2084:format=rgb48le", 1, &o) >= 0 &&
              !av_frame_get_side_data(o, AV_FRAME_DATA_ICC_PROFILE) &&
              o->color_trc == AVCOL_TRC_SMPTE2084, "PQ output: no profile, the tags say it");
        av_frame_free(&o);
    }
    av_frame_free(&in);
    cmsCloseProfile(srgb);
}

int main(void)
{
    av_log_set_callback(log_cb);
    check_profiles_in();
    check_profiles_refused();
    check_profiles_out();
    printf("icc_test: %d passed, %d failed\n", passed, failed);
    return failed != 0;
}
