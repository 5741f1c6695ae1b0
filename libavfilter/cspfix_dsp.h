/*
 * cspfix: DSP functions (C reference kernels)
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
 * polynomials), nowhere else; the kernels using them have C and AVX2+FMA3
 * versions only, since SSE cannot fuse.
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

typedef struct CspfixDSPContext {
    /** samples to float, [0] 8-bit samples, [1] 16-bit containers */
    void (*unpack[2])(float *dst, const uint8_t *src, int w);
    /**
     * float to samples: floor(clamp(src[x] + bias[x & 15], lo, hi)); bias is 0.5
     * for rounding or an ordered-dither row.
     */
    void (*pack[2])(uint8_t *dst, const float *src, int w, const float *bias,
                    float lo, float hi);
    /**
     * Floyd-Steinberg error diffusion of one row: c becomes integer-valued (rounded and
     * clamped to [lo, hi]); cur holds this row's incoming error and receives 7/16 to
     * the right; next receives 3/16, 5/16, 1/16 below. cur and next have w + 2
     * entries, sample x at index x + 1.
     */
    void (*dither_ed)(float *c, int w, float *cur, float *next, float lo, float hi);
    /** c = c * s + o */
    void (*affine)(float *c, int w, float s, float o);
    /**
     * (c0,c1,c2) = m * (c0,c1,c2,1); m is 3 rows of 4; row r is
     * fmaf(m[4r+2], c2, fmaf(m[4r+1], c1, fmaf(m[4r], c0, m[4r+3])))
     */
    void (*matrix)(float *c0, float *c1, float *c2, int w, const float m[12]);
    /**
     * matrix() with c0 taken from the samples src ([0] 8-bit, [1] 16-bit containers):
     * unpack and matrix in one pass. w is a multiple of 16.
     */
    void (*matrix_in[2])(float *c0, float *c1, float *c2, const uint8_t *src, int w,
                         const float m[12]);
    /**
     * matrix() whose first output row goes through pack() (bias, lo, hi as there) to
     * the samples dst instead of to c0 (c0 is only read). w is a multiple of 16.
     */
    void (*matrix_out[2])(uint8_t *dst, const float *c0, float *c1, float *c2, int w,
                          const float m[12], const float *bias, float lo, float hi);
    /**
     * Row 0 of a matrix from samples to samples: dst = pack(fmaf(m[2], c2, fmaf(m[1], c1,
     * fmaf(m[0], src, m[3])))) (bias, lo, hi as pack); w is a multiple of 16.
     */
    void (*yrow[2])(uint8_t *dst, const uint8_t *src, const float *c1, const float *c2, int w,
                    const float m[4], const float *bias, float lo, float hi);
    /** The chroma rows of p from samples to samples (pack with bias_cb/bias_cr and p's
     * lo, hi); w is a multiple of 16. */
    void (*crow[2])(uint8_t *dcb, uint8_t *dcr, const uint8_t *cb, const uint8_t *cr, int w,
                    const CspfixCRow *p, const float *bias_cb, const float *bias_cr);
    /** one transfer curve on three rows */
    void (*tf)(float *c0, float *c1, float *c2, int w, const CspfixTFTable *t);
    /** c *= t(k . c) on three rows (HLG OOTF and its inverse) */
    void (*ootf)(float *c0, float *c1, float *c2, int w, const float k[3],
                 const CspfixTFTable *t);
    void (*cl_decode)(float *c0, float *c1, float *c2, int w, const CspfixCLParams *p);
    void (*cl_encode)(float *c0, float *c1, float *c2, int w, const CspfixCLParams *p);
    /** c = min(max(c, lo), hi) */
    void (*clip)(float *c, int w, float lo, float hi);
    /**
     * Tone mapping on three rows: m = max(c0, c1, c2), c *= gain(m); then, if desat is not
     * NULL, y = k . c and c += desat(m) * (y - c).
     */
    void (*tonemap)(float *c0, float *c1, float *c2, int w, const float k[3],
                    const CspfixTFTable *gain, const CspfixTFTable *desat);
    /**
     * Gamut desaturation: y = clamp(k . c, 0, hi); c = y + t (c - y) with the largest
     * t <= 1 that brings min(c) to >= 0 and max(c) to <= hi, evaluated as t c + o with
     * o = -t min(c) or hi - t max(c) for the limiting side (0 when t = 1), so that the
     * limiting component lands exactly on 0 or hi; then c = clamp(c, 0, hi).
     */
    void (*gamut_desat)(float *c0, float *c1, float *c2, int w, const float k[3], float hi);
    /**
     * Gamut compression: a = max(c); per component d = (a - c) / a; where d > thr,
     * e = d - thr, c = a - (thr + e / (1 + e * sinv)) * a; then c = clamp(c, 0, hi).
     */
    void (*gamut_compress)(float *c0, float *c1, float *c2, int w, float thr,
                           const float sinv[3], float hi);
    /* strided samples (packed and semi-planar layouts); step in bytes */
    void (*unpack_s8)(float *dst, const uint8_t *src, int w, int step);
    /** 16-bit little-endian words: (word >> shift) & mask */
    void (*unpack_s16)(float *dst, const uint8_t *src, int w, int step, int shift, int mask);
    void (*unpack_f32)(float *dst, const uint8_t *src, int w, int step);
    /** 8-bit samples every 2 bytes (semi-planar chroma): unpack_s8/pack_s8 with step 2 */
    void (*unpack_x2_8)(float *dst, const uint8_t *src, int w);
    void (*pack_x2_8)(uint8_t *dst, const float *src, int w, const float *bias,
                      float lo, float hi);
    void (*pack_s8)(uint8_t *dst, const float *src, int w, int step, const float *bias,
                    float lo, float hi);
    void (*pack_s16)(uint8_t *dst, const float *src, int w, int step, int shift,
                     const float *bias, float lo, float hi);
    void (*pack_f32)(uint8_t *dst, const float *src, int w, int step);
    /** x2rgb10le: three 10-bit fields in a 32-bit word, padding bits 0 */
    void (*pack_x2rgb10)(uint8_t *dst, const float *r, const float *g, const float *b, int w,
                         const float *bias, float lo, float hi);

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
    void (*upsample_h2)(float *dst, const float *src, int w, int phase);
    void (*downsample_h2)(float *dst, const float *src, int w, int phase);
    /**
     * c[x] = lut[min((int)c[x], n - 1)] for integer-valued c in [0, 2^31) (codes as
     * ff_cspfix_read gives them)
     */
    void (*lut)(float *c, int w, const float *lut, int n);
    /** dst[x] = lut[src[x]]: 8-bit codes through a 256-entry table */
    void (*lut8)(float *dst, const uint8_t *src, int w, const float *lut);
    /** w 8-bit codes through m (see CspfixMap8); dst and src do not overlap */
    void (*map8)(uint8_t *dst, const uint8_t *src, int w, const CspfixMap8 *m);
    /** w 16-bit codes through m (see CspfixMap16); dst and src do not overlap */
    void (*map16)(uint16_t *dst, const uint16_t *src, int w, const CspfixMap16 *m);
    /** dst = a * wa + b * wb */
    void (*blend)(float *dst, const float *a, const float *b, int w, float wa, float wb);
    /** dst = ((a + b) + (b + c)) / 4 */
    void (*filter3)(float *dst, const float *a, const float *b, const float *c, int w);
    /** dst = ((a + d) + 3 (b + c)) / 8 */
    void (*filter4)(float *dst, const float *a, const float *b, const float *c,
                    const float *d, int w);

    /* ---- integer matrix-only path (CspfixYuvInt) ---- */
    /** chroma outputs: dcb[k], dcr[k] through p->cb, p->cr (CspfixIMat2) */
    void (*ichroma)(uint8_t *dcb, uint8_t *dcr, const uint8_t *cb, const uint8_t *cr, int w,
                    const CspfixYuvInt *p);
    /** dst[k] = (c0 * (cb[k] - 128) + c1 * (cr[k] - 128) + c2) >> 4; dst has 16
     * entries of padding after w (SIMD versions write whole vectors there) */
    void (*idelta)(int32_t *dst, const uint8_t *cb, const uint8_t *cr, int w, const int32_t c[3]);
    /**
     * Vertical interpolation of two delta rows: dst[k] = 4 da[k] + wb (db[k] - da[k])
     * (0 <= wb <= 4) for k = -1 .. n; SIMD versions write whole vectors, up to dst[n + 7],
     * and read da, db as far.
     */
    void (*ivblend)(int32_t *dst, const int32_t *da, const int32_t *db, int n, int wb);
    /**
     * ivblend in eighths: dst[k] = (8 da[k] + wb (db[k] - da[k]) + 1) >> 1 (0 <= wb <= 8)
     * for k = -1 .. n (interlaced 4:2:0, odd wb); C only
     */
    void (*ivblend8)(int32_t *dst, const int32_t *da, const int32_t *db, int n, int wb);
    /**
     * Luma row: h = horizontal 2x bilinear upsampling of the interpolated deltas d
     * (weights in quarters, phase as upsample_h2), dst[x] = clip((a * y[x] + h[x]) >> 22,
     * lo, hi). d has (w + 1) / 2 entries and the edges [-1], [(w + 1) / 2] (ivblend's
     * range); SIMD versions read up to [(w + 1) / 2 + 8].
     */
    void (*iluma)(uint8_t *dst, const uint8_t *y, const int32_t *d, int w, int phase,
                  const CspfixYuvInt *p);
    /** ichroma, idelta, iluma for 9- and 10-bit samples in 16-bit containers (p->shift,
     * p->mask, p->fold); SIMD versions read and write as their 8-bit twins */
    void (*ichroma16)(uint16_t *dcb, uint16_t *dcr, const uint16_t *cb, const uint16_t *cr,
                      int w, const CspfixYuvInt *p);
    void (*idelta16)(int32_t *dst, const uint16_t *cb, const uint16_t *cr, int w,
                     const CspfixYuvInt *p);
    void (*iluma16)(uint16_t *dst, const uint16_t *y, const int32_t *d, int w, int phase,
                    const CspfixYuvInt *p);
} CspfixDSPContext;

void ff_cspfix_dsp_init(CspfixDSPContext *dsp);

/** crow() parameters of the chroma rows of the 3x4 matrix m with output clamps lo, hi */
void ff_cspfix_crow_init(CspfixCRow *p, const float m[12], float lo_cb, float hi_cb,
                         float lo_cr, float hi_cr);

/**
 * Find integer parameters for the float map floor(min(max(x * s + o + 0.5, lo), hi))
 * of every 8-bit code x, as dsp's affine and pack kernels compute it.
 * Returns 0 and fills m if some parameters reproduce all 256 results, else <0.
 */
/** Sets m->clip from the other fields. */
void ff_cspfix_map8_set_clip(CspfixMap8 *m);
int ff_cspfix_map8_init(CspfixMap8 *m, const CspfixDSPContext *dsp, float s, float o,
                        float lo, float hi);
/**
 * Integer form of the matrix m (3 rows of 4, in codes of depth bits, 8 to 10) for
 * Y'CbCr whose chroma rows do not involve luma (m[1][0] == m[2][0] == 0), with output
 * clamps lo[3], hi[3]. Returns 0 and fills p, or <0 if the coefficients do not fit.
 */
int ff_cspfix_yuvint_init(CspfixYuvInt *p, const double m[3][4], const float lo[3],
                          const float hi[3], int depth);
void ff_cspfix_dsp_init_x86(CspfixDSPContext *dsp);

#endif /* AVFILTER_CSPFIX_DSP_H */
