/*
 * cspfix: the conversion plan: two colour descriptions checked and turned into a list
 * of float64 stages, optimised
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

#ifndef AVFILTER_CSPFIX_PLAN_H
#define AVFILTER_CSPFIX_PLAN_H

#include "libavutil/pixfmt.h"

/** What a picture is: the four H.273 fields plus its code layout. */
typedef struct CspfixDesc {
    enum AVColorPrimaries prim;
    enum AVColorTransferCharacteristic trc;
    enum AVColorSpace csp;      ///< AVCOL_SPC_RGB for RGB pixels
    enum AVColorRange range;
    int depth;                  ///< bits per component; 0 for float samples
} CspfixDesc;

/**
 * An SMPTE ST 2094-40 (HDR10+) tone curve (Annex B): for x = L / Ls (Ls the scene's peak),
 * y = ky / kx x up to the knee kx, above it y = ky + (1 - ky) B(t), t = (x - kx) / (1 - kx),
 * B the Bernstein polynomial of degree n on p[0] = 0, the anchors, p[n] = 1; the output
 * light is y times the targeted display's peak.
 */
typedef struct CspfixBezier {
    int n;                      ///< degree (anchors + 1); 0: no curve
    double kx, ky;              ///< knee point
    double p[16];               ///< p[0] = 0, p[1..n-1] the anchors (made non-decreasing), p[n] = 1
    double target;              ///< targeted system display maximum luminance, cd/m2
} CspfixBezier;

/**
 * A Dolby Vision L2 trim (SMPTE ST 2094-10's trim pass, made by the colourist for one
 * target display): on the tone curve's output, y its PQ value relative to the target's
 * peak, y' = min(max(S y + O, 0), 1)^P (doc/conversion-model.md section 9).
 */
typedef struct CspfixTrim {
    double target;              ///< the target display's peak in cd/m2; 0: no trim
    double slope, offset, power; ///< S, O, P (neutral 1, 0, 1)
} CspfixTrim;

#define CSPFIX_MAX_TRIMS 8

typedef struct CspfixPlanOptions {
    int linearize;              ///< enum CspfixLinearize
    int wpadapt;                ///< enum CspfixWpAdapt
    int fast;                   ///< Y'CbCr/range only: no linearisation, no gamut
    int clipgamut;              ///< clip linear RGB to the output gamut (= gamut clip)
    int tonemap;                ///< enum CspfixTonemap
    int gamut;                  ///< enum CspfixGamut
    double desat;               ///< tone mapping: desaturation of highlights, 0..1
    double src_peak;            ///< source peak in cd/m2 (tone mapping of HDR input); 0: 1000
    /** the scene's average light: cd/m2 of the mean of max(R,G,B) in PQ (measured, Dolby
     * Vision L1, HDR10+), 0: unknown; tonemap=spline sets its knee by it */
    double src_avg;
    double hlg_lw;              ///< HLG input: nominal display peak Lw in cd/m2; 0: 1000
    double dst_peak;            ///< target_peak in cd/m2; 0: 203 (SDR white, BT.2408)
    double dst_black;           ///< target_black in cd/m2 (bt2390's black lift); 0: none
    /** gamut=compress: mastering display primaries (x, y of R, G, B), all 0 if unknown */
    double src_prim[3][2];
    /** Dolby Vision reshaped input (cspfix_dovi.h, doc/conversion-model.md section 9):
     * 16-bit reshaped codes -> PQ-coded E', and linear E -> BT.2020 RGB; dovi 0: none */
    int dovi;
    double dovi_ycc[3][4];
    double dovi_lms[3][3];
    int tmmode;                 ///< enum CspfixToneMode: what the tone curve runs on
    /** the frame's HDR10+ tone curve (tonemap=st2094-40, auto when its display matches) */
    CspfixBezier bezier;
    /** the frame's Dolby Vision L2 trims; the one made for the curve's target display runs */
    CspfixTrim trims[CSPFIX_MAX_TRIMS];
    int nb_trims;
} CspfixPlanOptions;

/** Tone curves (doc/conversion-model.md section 4). */
enum CspfixTonemap {
    CSPFIX_TM_AUTO = 0,         ///< bt2390 for HDR -> SDR, none otherwise
    CSPFIX_TM_NONE,             ///< linear: L / target, highlights clip per channel
    CSPFIX_TM_CLIP,             ///< min(L, target) on max(R,G,B)
    CSPFIX_TM_BT2390,           ///< ITU-R BT.2390 EETF (PQ domain Hermite knee)
    CSPFIX_TM_REINHARD,         ///< extended Reinhard, white at the source peak
    CSPFIX_TM_HABLE,            ///< Hable filmic curve
    CSPFIX_TM_MOBIUS,           ///< Mobius: linear to 0.3 of target, then a Mobius map
    CSPFIX_TM_ST2094_40,        ///< the frame's HDR10+ (ST 2094-40) Bezier curve, else bt2390
    CSPFIX_TM_BT2446A,          ///< Report ITU-R BT.2446 Method A luminance curve
    CSPFIX_TM_SPLINE,           ///< BT.2390's knee, then a C1 quadratic spline in the PQ domain
    CSPFIX_TM_NB,
};

/** What the tone curve runs on (option tmmode). */
enum CspfixToneMode {
    CSPFIX_TMMODE_MAX = 0,      ///< max(R,G,B), all three scaled alike (desat: toward Y)
    CSPFIX_TMMODE_IPT,          ///< IPT's intensity, P and T scaled alike, then max-RGB clip
    CSPFIX_TMMODE_NB,
};

enum CspfixGamut {
    CSPFIX_GAMUT_NONE = 0,      ///< out-of-gamut values clip at the output codes
    CSPFIX_GAMUT_CLIP,          ///< clamp each linear component to [0, peak]
    CSPFIX_GAMUT_DESATURATE,    ///< move toward the luminance axis until in gamut
    CSPFIX_GAMUT_COMPRESS,      ///< soft-knee compression of the distance from the achromatic axis
    CSPFIX_GAMUT_NB,
};

/** Default nits of target_peak, one convention both ways (BT.2408): HDR reference white,
 * 203 cd/m2, is SDR 100 %: HDR -> SDR maps 203 cd/m2 to SDR white, SDR -> HDR puts SDR
 * white at 203 cd/m2. */
#define CSPFIX_SDR_PEAK_DEFAULT 203.0
#define CSPFIX_HDR_TARGET_DEFAULT 203.0
/** The brightest light PQ encodes (SMPTE ST 2084), cd/m2. */
#define CSPFIX_PQ_PEAK 10000.0
/** Source peak when neither the frame nor peak= gives one. */
#define CSPFIX_SRC_PEAK_DEFAULT 1000.0
/** gamut=compress: distances from the achromatic axis below this stay. */
#define CSPFIX_GAMUT_THRESHOLD 0.8

enum CspfixWpAdapt {
    CSPFIX_WP_BRADFORD = 0,
    CSPFIX_WP_VONKRIES,
    CSPFIX_WP_IDENTITY,
    CSPFIX_WP_NB,
};

enum CspfixOpType {
    CSPFIX_OP_MATRIX,           ///< c = m * (c0, c1, c2, 1)
    CSPFIX_OP_TF,               ///< per component transfer curve
    CSPFIX_OP_OOTF,             ///< c *= gain * Y^power, Y = k . c (0 where Y <= 0)
    CSPFIX_OP_CL_DECODE,        ///< constant-luminance Y'CbCr -> R'G'B'
    CSPFIX_OP_CL_ENCODE,        ///< R'G'B' -> constant-luminance Y'CbCr
    CSPFIX_OP_CLIP,             ///< c = min(max(c, lo), hi)
    CSPFIX_OP_TONEMAP,          ///< c *= G(max(c)) (by_first: G(c0)); with desat: c += D(max(c)) (k . c - c)
    CSPFIX_OP_GAMUT,            ///< gamut desaturate or compress, then clamp to [0, hi]
    CSPFIX_OP_LUT3D,            ///< c = the 3D table at c (a LUT profile's, tetrahedral)
};

typedef struct CspfixOp {
    enum CspfixOpType type;
    double m[3][4];             ///< MATRIX
    int curve;                  ///< TF, CL_*: enum CspfixCurve
    int encode;                 ///< TF: 1 = light to signal, 0 = signal to light
    int curve2, encode2;        ///< TF: a second curve applied after the first, fused into
                                ///< one table (CSPFIX_CURVE_NONE: none)
    double k[3];                ///< OOTF: luminance weights; CL_*: Kr, Kg, Kb
    double gain, power;         ///< OOTF
    double cl[4];               ///< CL_*: 2Nb, 2Pb, 2Nr, 2Pr
    double lo, hi;              ///< CLIP; GAMUT: hi
    double lw;                  ///< OOTF: display peak in cd/m2
    int tm;                     ///< TONEMAP: enum CspfixTonemap
    double src_peak, dst_peak;  ///< TONEMAP: cd/m2
    double src_avg;             ///< TONEMAP spline: the scene's average (cd/m2), 0: unknown
    double dst_black;           ///< TONEMAP bt2390: target black in cd/m2 (black lift), 0: none
    double out_white;           ///< TONEMAP: cd/m2 of output relative light 1.0
    double desat;               ///< TONEMAP
    int by_first;               ///< TONEMAP: G of the first component (IPT's I), not max(c)
    CspfixBezier bz;            ///< TONEMAP st2094-40: the curve
    CspfixTrim trim;            ///< TONEMAP: the Dolby Vision L2 trim on the curve's output
    int gmode;                  ///< GAMUT: enum CspfixGamut (desaturate, compress)
    double thr, s[3];           ///< GAMUT compress: threshold, 1 / knee scale (0: none)
    const struct CspfixLut3D *lut; ///< LUT3D (interned: lives as long as the process)
} CspfixOp;

#define CSPFIX_MAX_OPS 24

/** Tone mapping of a conversion: which curve, between which peaks (cd/m2) */
typedef struct CspfixTone {
    int tm;                     ///< enum CspfixTonemap: the curve that runs (NONE: none)
    int bezier_missing;         ///< tonemap=st2094-40 without a curve in the frame: bt2390
    double src_peak;            ///< source peak (HLG: at most lw_in)
    double src_avg;             ///< the scene's average (CspfixPlanOptions.src_avg)
    double dst_peak;            ///< the curve's target; HDR -> SDR: SDR white
    double clip_peak;           ///< HDR -> HDR without a curve: light above it clips (0: none)
    double lw_in, lw_out;       ///< HLG display peaks of the input and output
    CspfixTrim trim;            ///< the L2 trim made for the target display (target 0: none)
} CspfixTone;

typedef struct CspfixPlan {
    int nb_ops;
    CspfixOp ops[CSPFIX_MAX_OPS];
    CspfixTone tone;
    int hdr_to_sdr;             ///< PQ/HLG input to an SDR output without tone mapping
    double src_peak;            ///< source peak used (cd/m2), 0 when it does not matter
    int tone_mapped;            ///< a tone curve (TONEMAP op) runs
    double tm_peak;             ///< HDR output: the peak (cd/m2) light is tone mapped or
                                ///< clipped to, 0: none
} CspfixPlan;

/**
 * Check that a description can be converted; logs an error naming the value and
 * listing what is supported. what: "input" or "output".
 */
int ff_cspfix_desc_check(void *log_ctx, const CspfixDesc *d, const char *what);

/** Build and optimise the plan that converts in to out. */
int ff_cspfix_plan_build(CspfixPlan *p, const CspfixDesc *in, const CspfixDesc *out,
                         const CspfixPlanOptions *opt, void *log_ctx);

/** Only matrices: 0 ops (identity) or one affine map. */
int ff_cspfix_plan_is_linear(const CspfixPlan *p);
/** Linear and each output component depends on its own input component only. */
int ff_cspfix_plan_is_per_plane(const CspfixPlan *p);

/** HLG system gamma for a display peak Lw (cd/m2): 1.2 + 0.42 log10(Lw / 1000). */
double ff_cspfix_hlg_gamma(double lw);

/** Print the plan, one line per stage. */
void ff_cspfix_plan_print(void *log_ctx, int level, const CspfixPlan *p);

#endif /* AVFILTER_CSPFIX_PLAN_H */
