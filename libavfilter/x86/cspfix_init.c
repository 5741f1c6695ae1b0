/*
 * cspfix: x86 DSP function table
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

#include "config.h"
#include "libavutil/attributes.h"
#include "libavutil/cpu.h"
#include "libavutil/x86/cpu.h"

#include "libavfilter/cspfix_dsp.h"

void ff_cspfix_affine_sse2(float *c, int w, float s, float o);
void ff_cspfix_affine_avx2(float *c, int w, float s, float o);
void ff_cspfix_matrix_avx2(float *c0, float *c1, float *c2, int w, const float m[12]);
void ff_cspfix_lut_sse4(float *c, int w, const float *lut, int n);
void ff_cspfix_lut_avx2(float *c, int w, const float *lut, int n);
void ff_cspfix_lut8_sse4(float *dst, const uint8_t *src, int w, const float *lut);
void ff_cspfix_lut8_avx2(float *dst, const uint8_t *src, int w, const float *lut);

void ff_cspfix_map8_sse2(uint8_t *dst, const uint8_t *src, int w, const CspfixMap8 *m);
void ff_cspfix_map8_avx2(uint8_t *dst, const uint8_t *src, int w, const CspfixMap8 *m);
void ff_cspfix_matrix_in8_avx2(float *c0, float *c1, float *c2, const uint8_t *src, int w,
                               const float m[12]);
void ff_cspfix_matrix_in16_avx2(float *c0, float *c1, float *c2, const uint8_t *src, int w,
                                const float m[12]);
void ff_cspfix_matrix_out8_avx2(uint8_t *dst, const float *c0, float *c1, float *c2, int w,
                                const float m[12], const float *bias, float lo, float hi);
void ff_cspfix_matrix_out16_avx2(uint8_t *dst, const float *c0, float *c1, float *c2, int w,
                                 const float m[12], const float *bias, float lo, float hi);
#define ROW_FUNCS(bits)                                                                   \
void ff_cspfix_yrow##bits##_avx2(uint8_t *dst, const uint8_t *src, const float *c1,          \
                                 const float *c2, int w, const float m[4],                   \
                                 const float *bias, float lo, float hi);                     \
void ff_cspfix_crow##bits##_avx2(uint8_t *dcb, uint8_t *dcr, const uint8_t *cb,              \
                                 const uint8_t *cr, int w, const CspfixCRow *p,              \
                                 const float *bias_cb, const float *bias_cr);
ROW_FUNCS(8)
ROW_FUNCS(16)
void ff_cspfix_map16_sse4(uint16_t *dst, const uint16_t *src, int w, const CspfixMap16 *m);
void ff_cspfix_map16_avx2(uint16_t *dst, const uint16_t *src, int w, const CspfixMap16 *m);
void ff_cspfix_tonemap_avx2(float *c0, float *c1, float *c2, int w, const float k[3],
                            const CspfixTFTable *gain, const CspfixTFTable *desat);
void ff_cspfix_tf_avx2(float *c0, float *c1, float *c2, int w, const CspfixTFTable *t);
void ff_cspfix_unpack_8_avx2(float *dst, const uint8_t *src, int w);
void ff_cspfix_unpack_16_avx2(float *dst, const uint8_t *src, int w);
void ff_cspfix_pack_8_avx2(uint8_t *dst, const float *src, int w, const float *bias,
                           float lo, float hi);
void ff_cspfix_unpack_8_sse4(float *dst, const uint8_t *src, int w);
void ff_cspfix_unpack_16_sse4(float *dst, const uint8_t *src, int w);
void ff_cspfix_upsample_h2_sse2(float *dst, const float *src, int w, int phase);
void ff_cspfix_downsample_h2_sse2(float *dst, const float *src, int w, int phase);
void ff_cspfix_pack_8_sse4(uint8_t *dst, const float *src, int w, const float *bias,
                           float lo, float hi);
void ff_cspfix_pack_16_sse4(uint8_t *dst, const float *src, int w, const float *bias,
                            float lo, float hi);
void ff_cspfix_blend_sse2(float *dst, const float *a, const float *b, int w, float wa, float wb);
void ff_cspfix_filter3_sse2(float *dst, const float *a, const float *b, const float *c, int w);
void ff_cspfix_filter4_sse2(float *dst, const float *a, const float *b, const float *c,
                            const float *d, int w);
void ff_cspfix_blend_avx2(float *dst, const float *a, const float *b, int w, float wa, float wb);
void ff_cspfix_filter3_avx2(float *dst, const float *a, const float *b, const float *c, int w);
void ff_cspfix_filter4_avx2(float *dst, const float *a, const float *b, const float *c,
                            const float *d, int w);
void ff_cspfix_upsample_h2_avx2(float *dst, const float *src, int w, int phase);
void ff_cspfix_unpack_x2_8_sse4(float *dst, const uint8_t *src, int w);
void ff_cspfix_pack_x2_8_sse4(uint8_t *dst, const float *src, int w, const float *bias,
                              float lo, float hi);
void ff_cspfix_unpack_x2_8_avx2(float *dst, const uint8_t *src, int w);
void ff_cspfix_pack_x2_8_avx2(uint8_t *dst, const float *src, int w, const float *bias,
                              float lo, float hi);
void ff_cspfix_downsample_h2_avx2(float *dst, const float *src, int w, int phase);
void ff_cspfix_pack_16_avx2(uint8_t *dst, const float *src, int w, const float *bias,
                            float lo, float hi);

#define DECL_INT(opt)                                                                     \
void ff_cspfix_ichroma_##opt(uint8_t *dcb, uint8_t *dcr, const uint8_t *cb,              \
                             const uint8_t *cr, int w, const CspfixYuvInt *p);            \
void ff_cspfix_idelta_##opt(int32_t *dst, const uint8_t *cb, const uint8_t *cr, int w,    \
                            const int32_t c[3]);                                          \
void ff_cspfix_ivblend_##opt(int32_t *dst, const int32_t *da, const int32_t *db, int n,   \
                             int wb);                                                     \
void ff_cspfix_iluma_##opt(uint8_t *dst, const uint8_t *y, const int32_t *d, int w,        \
                           int phase, const CspfixYuvInt *p);

DECL_INT(sse4)
DECL_INT(avx2)
void ff_cspfix_ichroma16_avx2(uint16_t *dcb, uint16_t *dcr, const uint16_t *cb,
                              const uint16_t *cr, int w, const CspfixYuvInt *p);
void ff_cspfix_idelta16_avx2(int32_t *dst, const uint16_t *cb, const uint16_t *cr, int w,
                             const CspfixYuvInt *p);
void ff_cspfix_iluma16_avx2(uint16_t *dst, const uint16_t *y, const int32_t *d, int w,
                            int phase, const CspfixYuvInt *p);

/* integer matrix-only kernels (cspfix_int.asm) */
static av_cold void init_int(CspfixDSPContext *dsp, int cpu_flags)
{
    if (EXTERNAL_SSE4(cpu_flags)) {
        dsp->ichroma = ff_cspfix_ichroma_sse4;
        dsp->idelta = ff_cspfix_idelta_sse4;
        dsp->ivblend = ff_cspfix_ivblend_sse4;
        dsp->iluma  = ff_cspfix_iluma_sse4;
    }
#if HAVE_AVX2_EXTERNAL
    if (EXTERNAL_AVX2_FAST(cpu_flags)) {
        dsp->ichroma = ff_cspfix_ichroma_avx2;
        dsp->idelta = ff_cspfix_idelta_avx2;
        dsp->ivblend = ff_cspfix_ivblend_avx2;
        dsp->iluma  = ff_cspfix_iluma_avx2;
    }
    if (EXTERNAL_AVX2_FAST(cpu_flags)) {
        dsp->ichroma16 = ff_cspfix_ichroma16_avx2;
        dsp->idelta16  = ff_cspfix_idelta16_avx2;
        dsp->iluma16   = ff_cspfix_iluma16_avx2;
    }
#endif
}

av_cold void ff_cspfix_dsp_init_x86(CspfixDSPContext *dsp)
{
#if ARCH_X86_64
    int cpu_flags = av_get_cpu_flags();

    if (EXTERNAL_SSE2(cpu_flags)) {
        dsp->affine = ff_cspfix_affine_sse2;
        dsp->map8   = ff_cspfix_map8_sse2;
    }
    if (EXTERNAL_SSE4(cpu_flags))
        dsp->map16  = ff_cspfix_map16_sse4;
#if HAVE_AVX2_EXTERNAL
    /* (these SSE versions share their source with the AVX2 ones) */
    if (EXTERNAL_SSE2(cpu_flags)) {
        dsp->blend   = ff_cspfix_blend_sse2;
        dsp->filter3 = ff_cspfix_filter3_sse2;
        dsp->filter4 = ff_cspfix_filter4_sse2;
        dsp->upsample_h2   = ff_cspfix_upsample_h2_sse2;
        dsp->downsample_h2 = ff_cspfix_downsample_h2_sse2;
    }
    if (EXTERNAL_SSE4(cpu_flags)) {
        dsp->lut       = ff_cspfix_lut_sse4;
        dsp->lut8      = ff_cspfix_lut8_sse4;
        dsp->unpack_x2_8 = ff_cspfix_unpack_x2_8_sse4;
        dsp->pack_x2_8   = ff_cspfix_pack_x2_8_sse4;
        dsp->unpack[0] = ff_cspfix_unpack_8_sse4;
        dsp->unpack[1] = ff_cspfix_unpack_16_sse4;
        dsp->pack[0]   = ff_cspfix_pack_8_sse4;
        dsp->pack[1]   = ff_cspfix_pack_16_sse4;
    }
    if (EXTERNAL_AVX2_FAST(cpu_flags)) {
        dsp->affine    = ff_cspfix_affine_avx2;
        dsp->lut       = ff_cspfix_lut_avx2;
        dsp->lut8      = ff_cspfix_lut8_avx2;
        dsp->map8      = ff_cspfix_map8_avx2;
        dsp->map16     = ff_cspfix_map16_avx2;
        dsp->unpack[0] = ff_cspfix_unpack_8_avx2;
        dsp->unpack[1] = ff_cspfix_unpack_16_avx2;
        dsp->pack[0]   = ff_cspfix_pack_8_avx2;
        dsp->pack[1]   = ff_cspfix_pack_16_avx2;
        dsp->blend       = ff_cspfix_blend_avx2;
        dsp->filter3     = ff_cspfix_filter3_avx2;
        dsp->filter4     = ff_cspfix_filter4_avx2;
        dsp->upsample_h2 = ff_cspfix_upsample_h2_avx2;
        dsp->downsample_h2 = ff_cspfix_downsample_h2_avx2;
        dsp->unpack_x2_8   = ff_cspfix_unpack_x2_8_avx2;
        dsp->pack_x2_8     = ff_cspfix_pack_x2_8_avx2;
    }
    /* fused multiply-adds, as the C versions' fmaf(): no SSE versions */
    if (EXTERNAL_AVX2_FAST(cpu_flags) && EXTERNAL_FMA3(cpu_flags)) {
        dsp->matrix  = ff_cspfix_matrix_avx2;
        dsp->matrix_in[0]  = ff_cspfix_matrix_in8_avx2;
        dsp->matrix_in[1]  = ff_cspfix_matrix_in16_avx2;
        dsp->matrix_out[0] = ff_cspfix_matrix_out8_avx2;
        dsp->matrix_out[1] = ff_cspfix_matrix_out16_avx2;
        dsp->yrow[0]       = ff_cspfix_yrow8_avx2;
        dsp->yrow[1]       = ff_cspfix_yrow16_avx2;
        dsp->crow[0]       = ff_cspfix_crow8_avx2;
        dsp->crow[1]       = ff_cspfix_crow16_avx2;
        dsp->tf      = ff_cspfix_tf_avx2;
        dsp->tonemap = ff_cspfix_tonemap_avx2;
    }
#endif
    init_int(dsp, cpu_flags);
#endif /* ARCH_X86_64 */
}
