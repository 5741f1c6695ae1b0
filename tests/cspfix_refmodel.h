/*
 * cspfix float64 reference model, written from the standards
 * (ITU-T H.273, ITU-R BT.601/709/1886/2020/2100, SMPTE ST 2084/428-1, IEC 61966-2-1/2-4/2-5,
 * ARIB STD-B67, SMPTE RP 177/431-2). Independent of libavutil's colour code: it only uses
 * the AVCOL_* enum numbering as identifiers.
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

#ifndef CSPFIX_REFMODEL_H
#define CSPFIX_REFMODEL_H

/* H.273 code points (identical to the AVCOL_* numbering of libavutil/pixfmt.h), defined here so
 * that the model and its self-test need no FFmpeg header. Only the supported values are listed. */
enum RefPrimaries {
    REF_PRI_BT709     = 1,
    REF_PRI_BT470M    = 4,
    REF_PRI_BT470BG   = 5,
    REF_PRI_SMPTE170M = 6,
    REF_PRI_SMPTE240M = 7,
    REF_PRI_FILM      = 8,
    REF_PRI_BT2020    = 9,
    REF_PRI_SMPTE428  = 10,
    REF_PRI_SMPTE431  = 11,
    REF_PRI_SMPTE432  = 12,
    REF_PRI_EBU3213   = 22,
    /* No H.273 code point: values above H.273's range, the same numbers as the filter's
     * (so a model description can be handed to it) */
    REF_PRI_OPRGB     = 0x400, /* IEC 61966-2-5 opRGB = Adobe RGB (1998), white D65 */
    /* CIE XYZ (SMPTE ST 428-1: its samples are XYZ itself) whose content's white, for
     * white point adaptation only, is D65 or the DCI-P3 projector's (SMPTE RP 431-2) */
    REF_PRI_XYZ_D65   = 0x401,
    REF_PRI_XYZ_DCI   = 0x402,
};

enum RefTransfer {
    REF_TRC_BT709        = 1,
    REF_TRC_GAMMA22      = 4,
    REF_TRC_GAMMA28      = 5,
    REF_TRC_SMPTE170M    = 6,
    REF_TRC_SMPTE240M    = 7,
    REF_TRC_LINEAR       = 8,
    REF_TRC_LOG100       = 9,
    REF_TRC_LOG316       = 10,
    REF_TRC_IEC61966_2_4 = 11,
    REF_TRC_BT1361E      = 12,
    REF_TRC_IEC61966_2_1 = 13,
    REF_TRC_BT2020_10    = 14,
    REF_TRC_BT2020_12    = 15,
    REF_TRC_SMPTE2084    = 16,
    REF_TRC_SMPTE428     = 17,
    REF_TRC_ARIB_STD_B67 = 18,
    /* No H.273 code point (as REF_PRI_OPRGB): pure powers, odd-extended like gamma22 */
    REF_TRC_OPRGB        = 0x400, /* IEC 61966-2-5 opRGB: L = E'^(563/256) */
    REF_TRC_DCIP3        = 0x401, /* SMPTE RP 431-2 reference projector: L = E'^2.6 */
};

enum RefMatrix {
    REF_SPC_RGB       = 0,
    REF_SPC_BT709     = 1,
    REF_SPC_FCC       = 4,
    REF_SPC_BT470BG   = 5,
    REF_SPC_SMPTE170M = 6,
    REF_SPC_SMPTE240M = 7,
    REF_SPC_YCGCO     = 8,
    REF_SPC_BT2020_NCL = 9,
    REF_SPC_BT2020_CL = 10,
    REF_SPC_SMPTE2085 = 11,
    REF_SPC_CHROMA_DERIVED_NCL = 12,
    REF_SPC_CHROMA_DERIVED_CL  = 13,
    REF_SPC_ICTCP     = 14,
    REF_SPC_IPT_C2    = 15,
    /* YCgCo-R (H.273 V3, H.265 Annex E): exact integer lifting of N-bit RGB codes, coded on
     * N + 2 (re, even addition of bits) or N + 1 (ro, odd) bits; full range, 4:4:4 */
    REF_SPC_YCGCO_RE  = 16,
    REF_SPC_YCGCO_RO  = 17,
};

enum RefRange { REF_RANGE_TV = 1, REF_RANGE_PC = 2 };

/* One side of a conversion. Values are AVCOL_* numbers (libavutil/pixfmt.h numbering), or for
 * prim and trc the REF_PRI_OPRGB, REF_TRC_OPRGB, REF_TRC_DCIP3 values above. */
typedef struct RefDesc {
    int prim;    /* AVColorPrimaries */
    int trc;     /* AVColorTransferCharacteristic */
    int matrix;  /* AVColorSpace; AVCOL_SPC_RGB for RGB pixels */
    int range;   /* AVCOL_RANGE_MPEG (tv) or AVCOL_RANGE_JPEG (pc) */
    int depth;   /* bits per component, 8..16 (YCgCo-R: of the coded Y, Cg, Co; its RGB has
                    ref_ycgcor_rgb_depth() bits, at least 8) */
} RefDesc;

enum RefLinearize { REF_LIN_DISPLAY = 0, REF_LIN_SCENE = 1 };
enum RefWpAdapt   { REF_WP_BRADFORD = 0, REF_WP_VONKRIES = 1, REF_WP_IDENTITY = 2 };

/* Tone curves and gamut mapping of doc/conversion-model.md section 4 (numbering as the
 * filter's tonemap= and gamut= values). */
enum RefTonemap {
    REF_TM_AUTO = 0, /* bt2390 for HDR -> SDR, none otherwise */
    REF_TM_NONE, REF_TM_CLIP, REF_TM_BT2390, REF_TM_REINHARD, REF_TM_HABLE, REF_TM_MOBIUS,
};
enum RefGamut { REF_GAMUT_NONE = 0, REF_GAMUT_CLIP, REF_GAMUT_DESATURATE, REF_GAMUT_COMPRESS };

typedef struct RefOptions {
    int linearize;   /* enum RefLinearize */
    int wpadapt;     /* enum RefWpAdapt */
    int tonemap;     /* enum RefTonemap */
    int gamut;       /* enum RefGamut */
    double desat;    /* 0..1 */
    double src_peak; /* cd/m2; 0: 1000 (also the HLG input display peak) */
    double dst_peak; /* target_peak, cd/m2; 0: 203 (BT.2408 reference white = SDR 100 %) */
} RefOptions;

/* A tone curve on luminance in cd/m2: l -> output cd/m2, source peak ls, target peak lt. */
double ref_tone_curve(int tonemap, double l, double ls, double lt);

/* HLG system gamma for a display peak lw (BT.2100): 1.2 + 0.42 log10(lw / 1000). */
double ref_hlg_gamma(double lw);

/* Transfer functions of doc/conversion-model.md section 3, on one component.
 * ref_linearize: signal -> relative linear light (1.0 = 203 cd/m2 reference white).
 * ref_delinearize: its exact inverse. For arib-std-b67 these are:
 *   scene mode:   ref_linearize = inverse OETF / E75 (75% signal -> 1.0), ref_delinearize = its
 *                 inverse (OETF of l * E75);
 *   display mode: the per-component parts only: ref_linearize = the plain inverse OETF, i.e.
 *                 normalised scene light E (E' = 1 -> E = 1, NOT divided by E75 and NOT in
 *                 relative display units), ref_delinearize = the plain OETF. The OOTF is
 *                 cross-component and is applied by ref_convert() (see ref_hlg_ootf()).
 * Return NAN for an unsupported trc. */
double ref_linearize(int trc, int linearize, double e);
double ref_delinearize(int trc, int linearize, double l);

/* RGB->XYZ normalised primary matrix (SMPTE RP 177) of an AVColorPrimaries value.
 * Returns 0 on success, <0 if unsupported. */
int ref_npm(int prim, double m[3][3]);

/* Luma coefficients (Kr, Kb) for a matrix value (for chroma-derived-*: from prim).
 * Returns 0 on success, <0 if the matrix has no (Kr, Kb) form. */
int ref_luma_coeffs(int matrix, int prim, double *kr, double *kb);

/* Convert one pixel.
 * in_codes / out_codes: code values as doubles, in component order (Y, Cb, Cr) for Y'CbCr or
 * (R, G, B) for RGB (matrix == AVCOL_SPC_RGB). out_codes are unrounded and unclipped, except
 * for a YCgCo-R output: the lifting of the N-bit RGB codes rounded to nearest and clipped
 * (doc/conversion-model.md section 2), integers. YCgCo-R input codes must be integers.
 * *in_gamut (may be NULL) is set per doc/conversion-model.md section 7 (a YCgCo-R input whose
 * lifting leaves [0, 2^N - 1] is out of gamut; its RGB is clipped as the contract says).
 * Returns 0, or <0 for an unsupported description. */
int ref_convert(const RefDesc *in, const RefDesc *out, const RefOptions *opt,
                const double in_codes[3], double out_codes[3], int *in_gamut);

/* ---- Additional helpers (also used by the self-test) ---- */

/* YCgCo-R (matrix REF_SPC_YCGCO_RE / _RO; H.273 V3 equations for matrix_coefficients 16
 * and 17, H.265 eqs E-41..E-48), on integer codes; depth = the coded signal's bits.
 * ref_ycgcor_rgb_depth: N, the depth of the RGB it carries (depth - 2 for re, depth - 1
 * for ro), or <0 for another matrix.
 * ref_ycgcor_forward: N-bit (R, G, B) -> coded (Y, Cb = Cg + 2^(depth-1), Cr = Co + 2^(depth-1)).
 * ref_ycgcor_inverse: coded (Y, Cb, Cr) -> (R, G, B), unclipped (outside [0, 2^N - 1] for
 * codes no forward lifting makes). */
int ref_ycgcor_rgb_depth(int matrix, int depth);
void ref_ycgcor_forward(int depth, const int rgb[3], int ycc[3]);
void ref_ycgcor_inverse(int depth, const int ycc[3], int rgb[3]);

/* Intermediate values of one ref_convert() call. */
typedef struct RefTrace {
    double in_norm[3];   /* section 1: normalised input components (Y', Cb, Cr) / (R', G', B');
                            YCgCo-R: its lifted R'G'B' / (2^N - 1), unclipped */
    double in_nl[3];     /* section 2: non-linear R'G'B' (for ictcp: L'M'S') */
    double in_rgb_nl[3]; /* R'G'B' tested by in_gamut (= in_nl, except for ictcp: the linear
                            input RGB (for HLG display mode: the scene light before the OOTF)
                            encoded per component with the input transfer and mode) */
    double in_lin[3];    /* section 3: linear RGB in the input primaries (relative units) */
    double out_lin[3];   /* section 5: linear RGB in the output primaries (relative units) */
    double out_nl[3];    /* encoded output R'G'B' (for ictcp: L'M'S') */
    double out_norm[3];  /* normalised output components before section 6 (YCgCo-R: the
                            R'G'B' that is rounded to N bits and lifted) */
} RefTrace;

/* ref_convert() that also fills *trace (may be NULL). */
int ref_convert_trace(const RefDesc *in, const RefDesc *out, const RefOptions *opt,
                      const double in_codes[3], double out_codes[3], int *in_gamut,
                      RefTrace *trace);

/* The constant-luminance "TF" of doc/conversion-model.md section 2 for a trc: an encoding
 * function on normalised linear light with TF(1) = 1 (odd extension for negatives):
 *  - smpte2084: the PQ inverse EOTF on Y normalised to 10000 cd/m2 (x = 1 <-> 10000 cd/m2);
 *  - arib-std-b67: the HLG OETF on normalised scene light E (not divided by E75);
 *  - every other trc: the scene-mode encoding function, ref_delinearize(trc, REF_LIN_SCENE, x)
 *    (BT.709 OETF for bt709/smpte170m/bt2020-10/12, ST 240M OETF, the power for gamma22/28,
 *    sRGB, identity for linear, ...).
 * ref_cl_tf_inv is its inverse. NAN for an unsupported trc. */
double ref_cl_tf(int trc, double x);
double ref_cl_tf_inv(int trc, double e);

/* Constant-luminance constants Nb, Pb, Nr, Pr (H.273 matrix_coefficients 10/13):
 * Pb = 1 - TF(Kb), Nb = TF(1 - Kb), Pr = 1 - TF(Kr), Nr = TF(1 - Kr). */
int ref_cl_constants(int matrix, int prim, int trc,
                     double *nb, double *pb, double *nr, double *pr);

/* XYZ (Y = 1) of the white point of a primaries value. 0 or <0. */
int ref_white_xyz(int prim, double xyz[3]);

/* Chromatic adaptation matrix (XYZ -> XYZ) from white w_in to white w_out (XYZ),
 * M = A^-1 diag(A w_out / A w_in) A; identity for REF_WP_IDENTITY. 0 or <0. */
int ref_adapt_matrix(int wpadapt, const double w_in[3], const double w_out[3], double m[3][3]);

/* Linear RGB_in -> linear RGB_out matrix of section 5 (exact identity for identical
 * primaries). 0 or <0. */
int ref_gamut_matrix(int prim_in, int prim_out, int wpadapt, double m[3][3]);

/* HLG OOTF (BT.2100, Lw = 1000 cd/m2, Lb = 0, gamma = 1.2) with luminance weights kr, kb:
 * normalised scene light e[] -> display light in relative units (cd/m2 / 203), and its inverse. */
void ref_hlg_ootf(double kr, double kb, const double e[3], double l[3]);
void ref_hlg_inverse_ootf(double kr, double kb, const double l[3], double e[3]);
/* The same for a display of peak lw cd/m2 (gamma ref_hlg_gamma(lw)). */
void ref_hlg_ootf_lw(double kr, double kb, double lw, const double e[3], double l[3]);
void ref_hlg_inverse_ootf_lw(double kr, double kb, double lw, const double l[3], double e[3]);

/* Chroma siting (AVCHROMA_LOC_* numbering: left 1, center 2, topleft 3, top 4, bottomleft 5,
 * bottom 6): where chroma sample (k, r) of a 2x2-subsampled plane sits in luma coordinates,
 * (2k + sx, 2r + sy) with sx = 0 (left, topleft, bottomleft) or 1/2, and sy = 0 (topleft, top),
 * 1/2 (left, center) or 1 (bottomleft, bottom). */
void ref_chroma_siting(int loc, double *sx, double *sy);

/* Bilinear interpolation of a cw x ch chroma plane (row-major doubles) at luma position
 * (x, y) for siting loc, with the edge samples repeated (doc/conversion-model.md section 8). */
double ref_chroma_upsample(const double *plane, int cw, int ch, int loc, int x, int y);

#endif /* CSPFIX_REFMODEL_H */
