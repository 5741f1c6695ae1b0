/*
 * cspfix: the kernel families (parameters, signatures, the function table filled
 * by CPU) and the numeric contract the C and SIMD kernels share
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

#ifndef AVFILTER_CSPFIX_DSP_H
#define AVFILTER_CSPFIX_DSP_H

#include <stddef.h>
#include <stdint.h>

#include "cspfix_tf.h"

/*
 * All colour maths runs in float32 on rows of samples, one row per component.
 * Every kernel does its arithmetic in one fixed order, so that SIMD versions can
 * be bit-exact with these C versions: fused multiply-adds (C fmaf(), SIMD FMA3)
 * exactly where the C code calls fmaf() (matrix, and the transfer tables'
 * polynomials), nowhere else; the kernels using them have C, AVX2+FMA3 (and some
 * AVX-512+FMA3) versions only, since SSE cannot fuse.
 * Rows of floats passed to the in-place kernels (affine, matrix, tf, ootf,
 * cl_*, clip, tonemap, gamut_*) must have 16 floats of padding after w: SIMD
 * versions process whole vectors. Divisions (gamut_*) are IEEE divisions, never
 * reciprocal approximations, so that they too are bit-exact.
 */

/** Parameters of a constant-luminance decode or encode stage. */
typedef struct CspfixCLParams {
    float kr, kg, kb, kg_inv;
    float nb2, pb2, nr2, pr2;              ///< decode: 2Nb, 2Pb, 2Nr, 2Pr
    float nb2_inv, pb2_inv, nr2_inv, pr2_inv;
    const CspfixTFTable *to_light;         ///< TF^-1 (scene OETF inverse)
    const CspfixTFTable *to_signal;        ///< TF
} CspfixCLParams;

/*
 * Kernel parameters. The kernels only read them (the asm at fixed offsets, pinned in
 * x86/cspfix_init.c); the solvers that compute them for a conversion are in
 * cspfix_kparams.h.
 */

/**
 * An integer affine map of 8-bit codes, the fast form of a per-plane float map
 * (range-only conversions): v = (x * mul) >> 8 (the high word of (x << 8) * mul, as
 * pmulhuw gives it), out = clip((v + add) >> shift, lo, hi), where v + add fits in
 * int16. ff_cspfix_map8_init() only accepts parameters that give, for all 256 codes,
 * exactly what the float kernels give. clip is 0 when no code needs the clamp to
 * [lo, hi] beyond the saturation to [0, 255] (ff_cspfix_map8_set_clip()).
 */
typedef struct CspfixMap8 {
    uint16_t mul;
    int16_t add;
    int32_t shift;
    uint8_t lo, hi, clip;
} CspfixMap8;

/**
 * The per-plane float map of codes in 16-bit containers in one pass: out =
 * (int)min(max(x * s + o + 0.5, lo), hi) with the operations of unpack[1], affine
 * and pack[1] (bias 0.5) in their order, so that it gives what they give. (An integer
 * form like CspfixMap8 cannot: at 10 bits and more, maps such as tv -> pc range
 * have codes exactly halfway between two outputs, which float rounding decides.)
 */
typedef struct CspfixMap16 {
    float s, o, lo, hi;
} CspfixMap16;

/*
 * Integer matrix-only conversion of 8- to 10-bit Y'CbCr (ff_cspfix_yuvint_init()),
 * depth D, S = 30 - D (22 at 8 bits), mid = 2^(D-1), u = Cb - mid, v = Cr - mid at chroma
 * resolution:
 *   chroma out = clip((c[0] * u + c[1] * v + c[2]) >> S, lo, hi)    (CspfixIMat2)
 *   luma delta d = (c[0] * u + c[1] * v + c[2]) >> 4                 (2^-(S-4) codes)
 * d is interpolated to luma positions with integer weights summing to 16 (vertical
 * quarters, then horizontal quarters), h, and luma out = clip((a * Y + h) >> S, lo, hi);
 * the rounding constant is folded into the offsets. Every intermediate fits in int32.
 * The 16-bit-container kernels use only the low D bits of each sample.
 */
#define CSPFIX_YUVINT_SHIFT8 22       ///< S of 8-bit samples, built into the 8-bit kernels
#define CSPFIX_YUVINT_MID8   128      ///< mid of 8-bit samples, built into the 8-bit kernels
#define CSPFIX_YUVINT_DSHIFT 4        ///< the luma deltas are at 2^-(S - DSHIFT) codes

typedef struct CspfixIMat2 {
    int32_t c[3];
    int32_t lo, hi;
} CspfixIMat2;

typedef struct CspfixYuvInt {
    CspfixIMat2 cb, cr;          ///< chroma outputs
    int32_t dc[3];               ///< luma delta coefficients (c[] of the delta)
    int32_t a;                   ///< luma scale, 2^S = 1
    int32_t lo, hi;              ///< luma output clamp
    int32_t shift;               ///< S
    int32_t mask;                ///< 2^D - 1
    int32_t fold[3];             ///< c[2] - mid (c[0] + c[1]) of cb, cr, the delta (mod 2^32)
} CspfixYuvInt;

/**
 * The chroma rows of a matrix whose chroma outputs do not involve luma, for crow():
 * row r (0: Cb', 1: Cr') is fmaf(k[r][1], cr, fmaf(k[r][0], cb, k[r][2])), where
 * k[r][2] = fmaf(m[r+1][0], 0.0f, m[r+1][3]) (the matrix kernel's value for c0 = 0).
 */
typedef struct CspfixCRow {
    float k[2][4];
    float lo[2], hi[2];
} CspfixCRow;

/*
 * Kernel families. Each kernel signature is written once, as an argument-list macro
 * CSPFIX_<KERNEL>_ARGS and a declarator macro decl_cspfix_<kernel>_fn(name) built on it
 * (as dav1d's decl_*_fn): the context member, the C definitions, the per-ISA prototypes
 * in x86/cspfix_init.c and checkasm's declare_func all use them, so that they cannot
 * drift apart. One family = one section here, one x86/cspfix_<family>.asm, one
 * checkasm function. SIMD symbols are named ff_cspfix_<kernel>[_<8|16>]_<isa>.
 */

/* ---- stage: in-place float kernels on the rows of three components ---- */

/** (c0,c1,c2) = m * (c0,c1,c2,1); m is 3 rows of 4; row r is
 * fmaf(m[4r+2], c2, fmaf(m[4r+1], c1, fmaf(m[4r], c0, m[4r+3]))) */
#define CSPFIX_MATRIX_ARGS float *c0, float *c1, float *c2, int w, const float m[12]
/** c = c * s + o */
#define CSPFIX_AFFINE_ARGS float *c, int w, float s, float o
/** one transfer curve on three rows */
#define CSPFIX_TF_ARGS float *c0, float *c1, float *c2, int w, const CspfixTFTable *t
/** c *= t(k . c) on three rows (HLG OOTF and its inverse) */
#define CSPFIX_OOTF_ARGS float *c0, float *c1, float *c2, int w, const float k[3], \
                         const CspfixTFTable *t
/** constant-luminance decode or encode */
#define CSPFIX_CL_ARGS float *c0, float *c1, float *c2, int w, const CspfixCLParams *p
/** c = min(max(c, lo), hi) */
#define CSPFIX_CLIP_ARGS float *c, int w, float lo, float hi
/**
 * Tone mapping on three rows: m = max(max(c0, c1, c2) * gain->in_scale[0],
 * gain->in_floor[0]), c *= gain(m); then, if desat is not NULL, y = k . c and
 * c += desat(m) * (y - c).
 */
#define CSPFIX_TONEMAP_ARGS float *c0, float *c1, float *c2, int w, const float k[3], \
                            const CspfixTFTable *gain, const CspfixTFTable *desat
/**
 * Gamut desaturation: y = clamp(k . c, 0, hi); c = y + t (c - y) with the largest
 * t <= 1 that brings min(c) to >= 0 and max(c) to <= hi, evaluated as t c + o with
 * o = -t min(c) or hi - t max(c) for the limiting side (0 when t = 1), so that the
 * limiting component lands exactly on 0 or hi; then c = clamp(c, 0, hi).
 */
#define CSPFIX_GAMUT_DESAT_ARGS float *c0, float *c1, float *c2, int w, const float k[3], \
                                float hi
/**
 * Gamut compression: a = max(c); per component d = (a - c) / a; where d > thr,
 * e = d - thr, c = a - (thr + e / (1 + e * sinv)) * a; then c = clamp(c, 0, hi).
 * Evaluated with n = fmaf(-thr, a, a - c) (= e a): where a > 0 and n > 0,
 * c = a * ((1 - thr) - n / fmaf(sinv, n, a)) (one division, none for the test).
 */
#define CSPFIX_GAMUT_COMPRESS_ARGS float *c0, float *c1, float *c2, int w, float thr, \
                                   const float sinv[3], float hi

/**
 * c = the 3D table t (n^3 x 3 floats, point (r, g, b) at 3 ((b n + g) n + r)) at
 * (c0, c1, c2) clamped to [0, 1], by tetrahedral interpolation: weights in one fixed
 * order of multiplies and adds (AVX2 and AVX-512 twins, bit-exact; any NaN input,
 * signalling ones too, is taken as 0).
 */
#define CSPFIX_LUT3D_ARGS float *c0, float *c1, float *c2, int w, const float *t, int n
#define decl_cspfix_lut3d_fn(name)          void (name)(CSPFIX_LUT3D_ARGS)

#define decl_cspfix_matrix_fn(name)         void (name)(CSPFIX_MATRIX_ARGS)
#define decl_cspfix_affine_fn(name)         void (name)(CSPFIX_AFFINE_ARGS)
#define decl_cspfix_tf_fn(name)             void (name)(CSPFIX_TF_ARGS)
#define decl_cspfix_ootf_fn(name)           void (name)(CSPFIX_OOTF_ARGS)
#define decl_cspfix_cl_fn(name)             void (name)(CSPFIX_CL_ARGS)
#define decl_cspfix_clip_fn(name)           void (name)(CSPFIX_CLIP_ARGS)
#define decl_cspfix_tonemap_fn(name)        void (name)(CSPFIX_TONEMAP_ARGS)
#define decl_cspfix_gamut_desat_fn(name)    void (name)(CSPFIX_GAMUT_DESAT_ARGS)
#define decl_cspfix_gamut_compress_fn(name) void (name)(CSPFIX_GAMUT_COMPRESS_ARGS)

typedef struct CspfixStageDSP {
    decl_cspfix_matrix_fn(*matrix);
    decl_cspfix_affine_fn(*affine);
    decl_cspfix_tf_fn(*tf);
    decl_cspfix_ootf_fn(*ootf);
    decl_cspfix_cl_fn(*cl_decode);
    decl_cspfix_cl_fn(*cl_encode);
    decl_cspfix_clip_fn(*clip);
    decl_cspfix_tonemap_fn(*tonemap);
    /** tonemap with the gain (and desat weight) of c0, not of max(c0, c1, c2) */
    decl_cspfix_tonemap_fn(*tonemap_i);
    decl_cspfix_gamut_desat_fn(*gamut_desat);
    decl_cspfix_gamut_compress_fn(*gamut_compress);
    decl_cspfix_lut3d_fn(*lut3d);
} CspfixStageDSP;

/* ---- fused: matrix rows with the unpack and/or pack of samples in one pass ---- */

/**
 * matrix() with c0 taken from the samples src ([0] 8-bit, [1] 16-bit containers):
 * unpack and matrix in one pass. w is a multiple of 16 (CSPFIX_BLOCK: cspfix_rows.h
 * gives row tails a block of their own).
 */
#define CSPFIX_MATRIX_IN_ARGS float *c0, float *c1, float *c2, const uint8_t *src, int w, \
                              const float m[12]
/**
 * matrix() whose first output row goes through pack() (bias, lo, hi as there) to
 * the samples dst instead of to c0 (c0 is only read). w is a multiple of 16.
 */
#define CSPFIX_MATRIX_OUT_ARGS uint8_t *dst, const float *c0, float *c1, float *c2, int w, \
                               const float m[12], const float *bias, float lo, float hi
/**
 * Row 0 of a matrix from samples to samples: dst = pack(fmaf(m[2], c2, fmaf(m[1], c1,
 * fmaf(m[0], src, m[3])))) (bias, lo, hi as pack); w is a multiple of 16.
 */
#define CSPFIX_YROW_ARGS uint8_t *dst, const uint8_t *src, const float *c1, const float *c2, \
                         int w, const float m[4], const float *bias, float lo, float hi
/** The chroma rows of p from samples to samples (pack with bias_cb/bias_cr and p's
 * lo, hi); w is a multiple of 16. */
#define CSPFIX_CROW_ARGS uint8_t *dcb, uint8_t *dcr, const uint8_t *cb, const uint8_t *cr, \
                         int w, const CspfixCRow *p, const float *bias_cb, \
                         const float *bias_cr

#define decl_cspfix_matrix_in_fn(name)  void (name)(CSPFIX_MATRIX_IN_ARGS)
#define decl_cspfix_matrix_out_fn(name) void (name)(CSPFIX_MATRIX_OUT_ARGS)
#define decl_cspfix_yrow_fn(name)       void (name)(CSPFIX_YROW_ARGS)
#define decl_cspfix_crow_fn(name)       void (name)(CSPFIX_CROW_ARGS)

/** [0] 8-bit samples, [1] 16-bit containers */
typedef struct CspfixFusedDSP {
    decl_cspfix_matrix_in_fn(*matrix_in[2]);
    decl_cspfix_matrix_out_fn(*matrix_out[2]);
    decl_cspfix_yrow_fn(*yrow[2]);
    decl_cspfix_crow_fn(*crow[2]);
} CspfixFusedDSP;

/* ---- io: samples <-> float rows, code tables and maps ---- */

/** samples to float */
#define CSPFIX_UNPACK_ARGS float *dst, const uint8_t *src, int w
/**
 * float to samples: floor(clamp(src[x] + bias[x & 15], lo, hi)); bias is 0.5
 * for rounding or an ordered-dither row.
 */
#define CSPFIX_PACK_ARGS uint8_t *dst, const float *src, int w, const float *bias, \
                         float lo, float hi
/**
 * Floyd-Steinberg error diffusion of the n rows rows[0..n-1] of w samples, in that
 * order: each sample becomes an integer in [lo, hi] (integers; rounded to nearest,
 * ties to even) and passes its error e to the right (7/16) and to the row below (3/16
 * left, 5/16 under, 1/16 right). Sample s of a row is
 * v = fma(7/16, e[s-1], clamp(x + fma(3/16, e_up[s+1], fma(5/16, e_up[s], e_up[s-1] / 16)), lo, hi))
 * (x the sample, fma one rounding, missing neighbours 0): only the last fma depends
 * on the sample before, and since |e| <= 1/2 the rounded v stays in [lo, hi].
 * err[s + 1] holds e_up[s], the errors of the row before rows[0] (all 0 to start a
 * band), and receives the errors of rows[n-1]; err[0] and err[w + 1] are 0.
 * Rows and err have ED_PAD floats of padding before and after w: SIMD versions
 * read and write them (a row wavefront: row l runs three samples behind row l - 1).
 * n is at most CSPFIX_ED_ROWS, and rows[] has CSPFIX_ED_ROWS valid rows: SIMD
 * versions may overwrite rows[n..] and err's padding.
 */
#define CSPFIX_ED_PAD  128
#define CSPFIX_ED_ROWS 32
#define CSPFIX_DITHER_ED_ARGS float *const *rows, int n, int w, float *err, float lo, float hi
/* strided samples (packed and semi-planar layouts); step in bytes */
#define CSPFIX_UNPACK_S8_ARGS  float *dst, const uint8_t *src, int w, int step
/** 16-bit little-endian words: (word >> shift) & mask */
#define CSPFIX_UNPACK_S16_ARGS float *dst, const uint8_t *src, int w, int step, int shift, \
                               int mask
#define CSPFIX_UNPACK_F32_ARGS float *dst, const uint8_t *src, int w, int step
#define CSPFIX_PACK_S8_ARGS    uint8_t *dst, const float *src, int w, int step, \
                               const float *bias, float lo, float hi
#define CSPFIX_PACK_S16_ARGS   uint8_t *dst, const float *src, int w, int step, int shift, \
                               const float *bias, float lo, float hi
#define CSPFIX_PACK_F32_ARGS   uint8_t *dst, const float *src, int w, int step
/** x2rgb10le: three 10-bit fields in a 32-bit word, padding bits 0 */
#define CSPFIX_PACK_X2RGB10_ARGS uint8_t *dst, const float *r, const float *g, \
                                 const float *b, int w, const float *bias, float lo, float hi
/**
 * c[x] = lut[min((int)c[x], n - 1)] for integer-valued c in [0, 2^31) (codes as
 * ff_cspfix_read gives them)
 */
#define CSPFIX_LUT_ARGS  float *c, int w, const float *lut, int n
/** dst[x] = lut[src[x]]: 8-bit codes through a 256-entry table */
#define CSPFIX_LUT8_ARGS float *dst, const uint8_t *src, int w, const float *lut
/**
 * h rows of w 8-bit codes through m (see CspfixMap8), rows dst_stride and src_stride bytes
 * apart; dst and src do not overlap. One call for a slice's rows: m is read once.
 */
#define CSPFIX_MAP8_ARGS  uint8_t *dst, ptrdiff_t dst_stride, const uint8_t *src, \
                          ptrdiff_t src_stride, int w, int h, const CspfixMap8 *m
/** h rows of w 16-bit codes through m (see CspfixMap16), as map8 (strides in bytes) */
#define CSPFIX_MAP16_ARGS uint16_t *dst, ptrdiff_t dst_stride, const uint16_t *src, \
                          ptrdiff_t src_stride, int w, int h, const CspfixMap16 *m

#define decl_cspfix_unpack_fn(name)       void (name)(CSPFIX_UNPACK_ARGS)
#define decl_cspfix_pack_fn(name)         void (name)(CSPFIX_PACK_ARGS)
#define decl_cspfix_dither_ed_fn(name)    void (name)(CSPFIX_DITHER_ED_ARGS)
#define decl_cspfix_unpack_s8_fn(name)    void (name)(CSPFIX_UNPACK_S8_ARGS)
#define decl_cspfix_unpack_s16_fn(name)   void (name)(CSPFIX_UNPACK_S16_ARGS)
#define decl_cspfix_unpack_f32_fn(name)   void (name)(CSPFIX_UNPACK_F32_ARGS)
#define decl_cspfix_pack_s8_fn(name)      void (name)(CSPFIX_PACK_S8_ARGS)
#define decl_cspfix_pack_s16_fn(name)     void (name)(CSPFIX_PACK_S16_ARGS)
#define decl_cspfix_pack_f32_fn(name)     void (name)(CSPFIX_PACK_F32_ARGS)
#define decl_cspfix_pack_x2rgb10_fn(name) void (name)(CSPFIX_PACK_X2RGB10_ARGS)
#define decl_cspfix_lut_fn(name)          void (name)(CSPFIX_LUT_ARGS)
#define decl_cspfix_lut8_fn(name)         void (name)(CSPFIX_LUT8_ARGS)
#define decl_cspfix_map8_fn(name)         void (name)(CSPFIX_MAP8_ARGS)
#define decl_cspfix_map16_fn(name)        void (name)(CSPFIX_MAP16_ARGS)

typedef struct CspfixIODSP {
    /** [0] 8-bit samples, [1] 16-bit containers */
    decl_cspfix_unpack_fn(*unpack[2]);
    decl_cspfix_pack_fn(*pack[2]);
    decl_cspfix_dither_ed_fn(*dither_ed);
    decl_cspfix_unpack_s8_fn(*unpack_s8);
    decl_cspfix_unpack_s16_fn(*unpack_s16);
    decl_cspfix_unpack_f32_fn(*unpack_f32);
    /** 8-bit samples every 2 bytes (semi-planar chroma): unpack_s8/pack_s8 with step 2 */
    decl_cspfix_unpack_fn(*unpack_x2_8);
    decl_cspfix_pack_fn(*pack_x2_8);
    /** every 3 and 4 bytes (packed RGB: rgb24, rgba and the like): steps 3 and 4 */
    decl_cspfix_unpack_fn(*unpack_x3_8);
    decl_cspfix_pack_fn(*pack_x3_8);
    decl_cspfix_unpack_fn(*unpack_x4_8);
    decl_cspfix_pack_fn(*pack_x4_8);
    decl_cspfix_pack_s8_fn(*pack_s8);
    decl_cspfix_pack_s16_fn(*pack_s16);
    decl_cspfix_pack_f32_fn(*pack_f32);
    decl_cspfix_pack_x2rgb10_fn(*pack_x2rgb10);
    decl_cspfix_lut_fn(*lut);
    decl_cspfix_lut8_fn(*lut8);
    decl_cspfix_map8_fn(*map8);
    decl_cspfix_map16_fn(*map16);
} CspfixIODSP;

/* ---- chroma: resampling by 2 and vertical filters of float rows ---- */

/*
 * Chroma resampling by 2. Phase 0: chroma co-sited with even luma samples;
 * phase 1: half-way between luma samples.
 * upsample_h2: bilinear, dst has w samples, src (w + 1) / 2 (edges repeat);
 * src must also carry the repeated edges src[-1] = src[0] and
 * src[(w + 1) / 2] = src[(w + 1) / 2 - 1] (SIMD versions read them).
 * downsample_h2: phase 0 taps [1 2 1]/4 at 2k, phase 1 [1 3 3 1]/8 at 2k+1/2;
 * dst has (w + 1) / 2 samples (edges repeat); src must carry the repeated edges
 * src[-1] = src[0] and src[w] = src[w + 1] = src[w - 1], and SIMD versions
 * read up to src[w + 16].
 */
#define CSPFIX_RESAMPLE_ARGS float *dst, const float *src, int w, int phase
/** dst = a * wa + b * wb */
#define CSPFIX_BLEND_ARGS    float *dst, const float *a, const float *b, int w, float wa, \
                             float wb
/** dst = ((a + b) + (b + c)) / 4 */
#define CSPFIX_FILTER3_ARGS  float *dst, const float *a, const float *b, const float *c, int w
/** dst = ((a + d) + 3 (b + c)) / 8 */
#define CSPFIX_FILTER4_ARGS  float *dst, const float *a, const float *b, const float *c, \
                             const float *d, int w

#define decl_cspfix_resample_fn(name) void (name)(CSPFIX_RESAMPLE_ARGS)
#define decl_cspfix_blend_fn(name)    void (name)(CSPFIX_BLEND_ARGS)
#define decl_cspfix_filter3_fn(name)  void (name)(CSPFIX_FILTER3_ARGS)
#define decl_cspfix_filter4_fn(name)  void (name)(CSPFIX_FILTER4_ARGS)

typedef struct CspfixChromaDSP {
    decl_cspfix_resample_fn(*upsample_h2);
    decl_cspfix_resample_fn(*downsample_h2);
    decl_cspfix_blend_fn(*blend);
    decl_cspfix_filter3_fn(*filter3);
    decl_cspfix_filter4_fn(*filter4);
} CspfixChromaDSP;

/* ---- yuvint: the integer matrix-only path (CspfixYuvInt) ---- */

/** chroma outputs: dcb[k], dcr[k] through p->cb, p->cr (CspfixIMat2) */
#define CSPFIX_ICHROMA8_ARGS  uint8_t *dcb, uint8_t *dcr, const uint8_t *cb, \
                              const uint8_t *cr, int w, const CspfixYuvInt *p
/** dst[k] = (c0 * (cb[k] - 128) + c1 * (cr[k] - 128) + c2) >> 4; dst has 16
 * entries of padding after w (SIMD versions write whole vectors there) */
#define CSPFIX_IDELTA8_ARGS   int32_t *dst, const uint8_t *cb, const uint8_t *cr, int w, \
                              const int32_t c[3]
/**
 * Vertical interpolation of two delta rows: dst[k] = 4 da[k] + wb (db[k] - da[k])
 * (0 <= wb <= 4) for k = -1 .. n; SIMD versions write whole vectors, up to dst[n + 15],
 * and read da, db as far.
 * ivblend8, in eighths: dst[k] = (8 da[k] + wb (db[k] - da[k]) + 1) >> 1 (0 <= wb <= 8)
 * for k = -1 .. n (interlaced 4:2:0, odd wb); C only
 */
#define CSPFIX_IVBLEND_ARGS   int32_t *dst, const int32_t *da, const int32_t *db, int n, int wb
/**
 * Luma row: h = horizontal 2x bilinear upsampling of the interpolated deltas d
 * (weights in quarters, phase as upsample_h2), dst[x] = clip((a * y[x] + h[x]) >> 22,
 * lo, hi). d has (w + 1) / 2 entries and the edges [-1], [(w + 1) / 2] (ivblend's
 * range); SIMD versions read up to [(w + 1) / 2 + 16].
 */
#define CSPFIX_ILUMA8_ARGS    uint8_t *dst, const uint8_t *y, const int32_t *d, int w, \
                              int phase, const CspfixYuvInt *p
/** ichroma, idelta, iluma for 9- and 10-bit samples in 16-bit containers (p->shift,
 * p->mask, p->fold); SIMD versions read and write as their 8-bit twins */
#define CSPFIX_ICHROMA16_ARGS uint16_t *dcb, uint16_t *dcr, const uint16_t *cb, \
                              const uint16_t *cr, int w, const CspfixYuvInt *p
#define CSPFIX_IDELTA16_ARGS  int32_t *dst, const uint16_t *cb, const uint16_t *cr, int w, \
                              const CspfixYuvInt *p
#define CSPFIX_ILUMA16_ARGS   uint16_t *dst, const uint16_t *y, const int32_t *d, int w, \
                              int phase, const CspfixYuvInt *p

#define decl_cspfix_ichroma8_fn(name)  void (name)(CSPFIX_ICHROMA8_ARGS)
#define decl_cspfix_idelta8_fn(name)   void (name)(CSPFIX_IDELTA8_ARGS)
#define decl_cspfix_ivblend_fn(name)   void (name)(CSPFIX_IVBLEND_ARGS)
#define decl_cspfix_iluma8_fn(name)    void (name)(CSPFIX_ILUMA8_ARGS)
#define decl_cspfix_ichroma16_fn(name) void (name)(CSPFIX_ICHROMA16_ARGS)
#define decl_cspfix_idelta16_fn(name)  void (name)(CSPFIX_IDELTA16_ARGS)
#define decl_cspfix_iluma16_fn(name)   void (name)(CSPFIX_ILUMA16_ARGS)

typedef struct CspfixYuvIntDSP {
    decl_cspfix_ichroma8_fn(*ichroma);
    decl_cspfix_idelta8_fn(*idelta);
    decl_cspfix_ivblend_fn(*ivblend);
    decl_cspfix_ivblend_fn(*ivblend8);
    decl_cspfix_iluma8_fn(*iluma);
    decl_cspfix_ichroma16_fn(*ichroma16);
    decl_cspfix_idelta16_fn(*idelta16);
    decl_cspfix_iluma16_fn(*iluma16);
} CspfixYuvIntDSP;

/* ---- dovi: Dolby Vision reshaping (cspfix_dovi.c) ---- */

/** Rows of a CSPFIX_DOVI_MMR_ARGS coefficient table: [0] the constant, [1 + 3 i + o]
 * term i's coefficient of order o + 1, [22] lo, [23] hi; each row the value 16 times. */
#define CSPFIX_DOVI_MMR_K 24

/**
 * MMR of order 3 (lower orders: zero coefficients) on the signals x0, x1, x2 with the
 * terms t = (x0, x1, x2, x0 x1, x0 x2, x1 x2, x0 x1 x2) (products left to right):
 * y = k0; y = fmaf(t_i, fmaf(t_i, fmaf(t_i, k3_i, k2_i), k1_i), y) for i = 0..6;
 * dst[x] = (int)fmaf(min(max(y, lo), hi), 65535, 0.5) for x < w. SIMD versions process
 * whole vectors of up to 16 samples: they read x0..x2 and write dst up to the next
 * multiple of 16 (the reshaped frame's rows and the scratch rows have that room).
 */
#define CSPFIX_DOVI_MMR_ARGS uint16_t *dst, const float *x0, const float *x1, \
                             const float *x2, const float (*k)[16], int w

/** Base layer codes to signal: max the largest code, inv = 1 / max, inv4 = inv / 4 */
typedef struct CspfixDoviNorm {
    float inv, inv4;
    int max;
} CspfixDoviNorm;

/**
 * norm: dst[x] = min(src[x], max) * inv (float32);
 * mean420: dst[x] = (min(y0[2x], max) + min(y0[2x + 1], max) + min(y1[2x], max) +
 * min(y1[2x + 1], max)) * inv4, the integer sum converted exactly, then one product.
 * SIMD versions process whole vectors of up to 16 outputs: they write dst and read the
 * code rows (scratch copies) that far.
 */
#define CSPFIX_DOVI_NORM_ARGS float *dst, const uint16_t *src, int w, const CspfixDoviNorm *n
#define CSPFIX_DOVI_MEAN_ARGS float *dst, const uint16_t *y0, const uint16_t *y1, int w, \
                              const CspfixDoviNorm *n

/**
 * lut: dst[x] = lut[min(src[x], max)] (the polynomial pieces' table). SIMD versions process
 * whole vectors of up to 16 samples: they read src and write dst that far, and read one
 * entry after lut[max].
 */
#define CSPFIX_DOVI_LUT_ARGS  uint16_t *dst, const uint16_t *src, int w, const uint16_t *lut, \
                              int max

#define decl_cspfix_dovi_lut_fn(name)  void (name)(CSPFIX_DOVI_LUT_ARGS)
#define decl_cspfix_dovi_mmr_fn(name)  void (name)(CSPFIX_DOVI_MMR_ARGS)
#define decl_cspfix_dovi_norm_fn(name) void (name)(CSPFIX_DOVI_NORM_ARGS)
#define decl_cspfix_dovi_mean_fn(name) void (name)(CSPFIX_DOVI_MEAN_ARGS)

typedef struct CspfixDoviDSP {
    decl_cspfix_dovi_mmr_fn(*mmr);
    decl_cspfix_dovi_lut_fn(*lut);
    decl_cspfix_dovi_norm_fn(*norm);
    decl_cspfix_dovi_mean_fn(*mean420);
} CspfixDoviDSP;

/**
 * YCgCo-R lifting (H.273 V3, H.265 eqs E-41..E-48; cspfix_ycgcor.h) of w samples from the
 * planes s0, s1, s2 into d0, d1, d2, between Y, Cg, Co codes (16-bit, Cg and Co off by off,
 * big-endian when be) and planar G, B, R of max = 2^N - 1 (8-bit samples when max <= 255,
 * else 16-bit native-endian):
 * to_rgb (s = Y, Cg, Co; d = G, B, R): cg = Cg - off, co = Co - off, t = Y - (cg >> 1),
 * b = t - (co >> 1), g = t + cg, r = b + co (from the unclamped b), each clamped to [0, max];
 * from_rgb (s = G, B, R; d = Y, Cg, Co): G, B, R clipped to max (padding bits set),
 * co = r - b, t = b + (co >> 1), cg = g - t; Y = t + (cg >> 1), Cg = cg + off, Co = co + off.
 * The C kernels take any w and be; the SIMD ones (to_rgb[k], from_rgb[k] with k = max > 255)
 * take be = 0 and w a multiple of 8, and touch nothing after w (frame rows).
 */
#define CSPFIX_YCGCOR_ARGS uint8_t *d0, uint8_t *d1, uint8_t *d2, const uint8_t *s0, \
                           const uint8_t *s1, const uint8_t *s2, int w, int off, int max, int be

#define decl_cspfix_ycgcor_fn(name) void (name)(CSPFIX_YCGCOR_ARGS)

/** the C kernels (any w, either endianness): the rows' tails and big-endian codes */
decl_cspfix_ycgcor_fn(ff_cspfix_ycgcor_to_rgb_c);
decl_cspfix_ycgcor_fn(ff_cspfix_ycgcor_from_rgb_c);

typedef struct CspfixYcgcorDSP {
    /** [0] 8-bit RGB samples, [1] 16-bit */
    decl_cspfix_ycgcor_fn(*to_rgb[2]);
    decl_cspfix_ycgcor_fn(*from_rgb[2]);
} CspfixYcgcorDSP;

typedef struct CspfixDSPContext {
    CspfixStageDSP  stage;
    CspfixFusedDSP  fused;
    CspfixIODSP     io;
    CspfixChromaDSP chroma;
    CspfixYuvIntDSP yuvint;
    CspfixDoviDSP   dovi;
    CspfixYcgcorDSP ycgcor;
} CspfixDSPContext;

void ff_cspfix_dsp_init(CspfixDSPContext *dsp);
void ff_cspfix_dsp_init_x86(CspfixDSPContext *dsp);

#endif /* AVFILTER_CSPFIX_DSP_H */
