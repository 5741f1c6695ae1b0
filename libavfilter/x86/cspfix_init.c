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

#include <assert.h>
#include <stddef.h>

#include "config.h"
#include "libavutil/attributes.h"
#include "libavutil/cpu.h"
#include "libavutil/x86/cpu.h"

#include "libavfilter/cspfix_dsp.h"
#include "libavfilter/cspfix_tf.h"

/*
 * Layouts the asm reads at fixed offsets: each number here is the one named in the
 * asm file given, so that a change of a struct breaks the build, not the output.
 */
#define CHECK_OFFSET(type, field, n) \
    static_assert(offsetof(type, field) == (n), "asm offset of " #type "." #field)

/* cspfix_stage.asm: TF_SEG_BITS, TF_SEG_LOG2SIZE (tf, tonemap) */
static_assert(CSPFIX_TF_SEG_BITS == 6, "TF_SEG_BITS of cspfix_stage.asm");
static_assert(CSPFIX_TF_SHIFT == 23 - 6, "TF_SHIFT of cspfix_stage.asm");
CHECK_OFFSET(CspfixTFTable, c, 0);
static_assert(sizeof(((CspfixTFTable *)0)->c[0]) == 1 << 4, "TF_SEG_LOG2SIZE of cspfix_stage.asm");
CHECK_OFFSET(CspfixTFTable, pow, (size_t)CSPFIX_TF_SEGS << 4);
CHECK_OFFSET(CspfixTFTable, in_scale, ((size_t)CSPFIX_TF_SEGS << 4) + 256); /* TF_IN_SCALE */
CHECK_OFFSET(CspfixTFTable, in_floor, ((size_t)CSPFIX_TF_SEGS << 4) + 320); /* TF_IN_FLOOR */
/* cspfix_stage.asm: TF_POW_* (the power form) */
static_assert(CSPFIX_TF_POW_DEG == 7 && CSPFIX_TF_POW_DEG_MIN == 5,
              "TF_POW_DEGREES of cspfix_stage.asm");
CHECK_OFFSET(CspfixTFPower, on, 0);
CHECK_OFFSET(CspfixTFPower, lo, 4);
CHECK_OFFSET(CspfixTFPower, span, 8);
CHECK_OFFSET(CspfixTFPower, t1, 12);
CHECK_OFFSET(CspfixTFPower, s1, 192);
CHECK_OFFSET(CspfixTFPower, c1, 196);
CHECK_OFFSET(CspfixTFPower, deg, 200);
CHECK_OFFSET(CspfixTFPower, p, 16);
CHECK_OFFSET(CspfixTFPower, s, 64);

/* cspfix_fused.asm: CROW_* (crow) */
CHECK_OFFSET(CspfixCRow, k[0][0], 0);
CHECK_OFFSET(CspfixCRow, k[0][1], 4);
CHECK_OFFSET(CspfixCRow, k[0][2], 8);
CHECK_OFFSET(CspfixCRow, k[1][0], 16);
CHECK_OFFSET(CspfixCRow, k[1][1], 20);
CHECK_OFFSET(CspfixCRow, k[1][2], 24);
CHECK_OFFSET(CspfixCRow, lo[0], 32);
CHECK_OFFSET(CspfixCRow, lo[1], 36);
CHECK_OFFSET(CspfixCRow, hi[0], 40);
CHECK_OFFSET(CspfixCRow, hi[1], 44);

/* cspfix_io.asm: MAP8_* (map_8), MAP16_* (map_16) */
CHECK_OFFSET(CspfixMap8, mul, 0);
CHECK_OFFSET(CspfixMap8, add, 2);
CHECK_OFFSET(CspfixMap8, shift, 4);
CHECK_OFFSET(CspfixMap8, lo, 8);
CHECK_OFFSET(CspfixMap8, hi, 9);
CHECK_OFFSET(CspfixMap8, clip, 10);
CHECK_OFFSET(CspfixMap16, s, 0);
CHECK_OFFSET(CspfixMap16, o, 4);
CHECK_OFFSET(CspfixMap16, lo, 8);
CHECK_OFFSET(CspfixMap16, hi, 12);

/* cspfix_yuvint.asm: YI_S8, YI_MID8_LOG2, YI_DSHIFT; YI_* offsets (ichroma_8, iluma_8,
 * ichroma_16, idelta_16, iluma_16) */
static_assert(CSPFIX_YUVINT_SHIFT8 == 22, "YI_S8 of cspfix_yuvint.asm");
static_assert(CSPFIX_YUVINT_MID8 == 1 << 7, "YI_MID8_LOG2 of cspfix_yuvint.asm");
static_assert(CSPFIX_YUVINT_DSHIFT == 4, "YI_DSHIFT of cspfix_yuvint.asm");
CHECK_OFFSET(CspfixYuvInt, cb.c[0], 0);
CHECK_OFFSET(CspfixYuvInt, cb.c[1], 4);
CHECK_OFFSET(CspfixYuvInt, cb.c[2], 8);
CHECK_OFFSET(CspfixYuvInt, cb.lo, 12);
CHECK_OFFSET(CspfixYuvInt, cb.hi, 16);
CHECK_OFFSET(CspfixYuvInt, cr.c[0], 20);
CHECK_OFFSET(CspfixYuvInt, cr.c[1], 24);
CHECK_OFFSET(CspfixYuvInt, cr.c[2], 28);
CHECK_OFFSET(CspfixYuvInt, cr.lo, 32);
CHECK_OFFSET(CspfixYuvInt, cr.hi, 36);
CHECK_OFFSET(CspfixYuvInt, dc[0], 40);
CHECK_OFFSET(CspfixYuvInt, dc[1], 44);
CHECK_OFFSET(CspfixYuvInt, a, 52);
CHECK_OFFSET(CspfixYuvInt, lo, 56);
CHECK_OFFSET(CspfixYuvInt, hi, 60);
CHECK_OFFSET(CspfixYuvInt, shift, 64);
CHECK_OFFSET(CspfixYuvInt, mask, 68);
CHECK_OFFSET(CspfixYuvInt, fold[0], 72);
CHECK_OFFSET(CspfixYuvInt, fold[1], 76);
CHECK_OFFSET(CspfixYuvInt, fold[2], 80);

/* stage (cspfix_stage.asm) */
decl_cspfix_affine_fn(ff_cspfix_affine_sse2);
decl_cspfix_affine_fn(ff_cspfix_affine_avx2);
decl_cspfix_matrix_fn(ff_cspfix_matrix_avx2);
decl_cspfix_tf_fn(ff_cspfix_tf_avx2);
decl_cspfix_tonemap_fn(ff_cspfix_tonemap_avx2);
decl_cspfix_tonemap_fn(ff_cspfix_tonemap_i_avx2);
decl_cspfix_tf_fn(ff_cspfix_tf_avx512);
decl_cspfix_tonemap_fn(ff_cspfix_tonemap_avx512);
decl_cspfix_tonemap_fn(ff_cspfix_tonemap_i_avx512);
decl_cspfix_affine_fn(ff_cspfix_affine_avx512);
decl_cspfix_matrix_fn(ff_cspfix_matrix_avx512);
#define DECL_GAMUT(opt)                                             \
    decl_cspfix_clip_fn(ff_cspfix_clip_##opt);                      \
    decl_cspfix_gamut_desat_fn(ff_cspfix_gamut_desat_##opt);        \
    decl_cspfix_gamut_compress_fn(ff_cspfix_gamut_compress_##opt)
DECL_GAMUT(avx2);
DECL_GAMUT(avx512);
decl_cspfix_lut3d_fn(ff_cspfix_lut3d_avx2);
decl_cspfix_lut3d_fn(ff_cspfix_lut3d_avx512);

/* fused (cspfix_fused.asm) */
#define DECL_FUSED(bits, opt)                                       \
    decl_cspfix_matrix_in_fn(ff_cspfix_matrix_in_##bits##_##opt);   \
    decl_cspfix_matrix_out_fn(ff_cspfix_matrix_out_##bits##_##opt); \
    decl_cspfix_yrow_fn(ff_cspfix_yrow_##bits##_##opt);             \
    decl_cspfix_crow_fn(ff_cspfix_crow_##bits##_##opt)
DECL_FUSED(8, avx2);
DECL_FUSED(16, avx2);
DECL_FUSED(8, avx512);
DECL_FUSED(16, avx512);

/* io (cspfix_io.asm) */
#define DECL_IO(opt)                                            \
    decl_cspfix_unpack_fn(ff_cspfix_unpack_8_##opt);            \
    decl_cspfix_unpack_fn(ff_cspfix_unpack_16_##opt);           \
    decl_cspfix_pack_fn(ff_cspfix_pack_8_##opt);                \
    decl_cspfix_pack_fn(ff_cspfix_pack_16_##opt);               \
    decl_cspfix_unpack_fn(ff_cspfix_unpack_x2_8_##opt);         \
    decl_cspfix_pack_fn(ff_cspfix_pack_x2_8_##opt);             \
    decl_cspfix_lut_fn(ff_cspfix_lut_##opt);                    \
    decl_cspfix_lut8_fn(ff_cspfix_lut_8_##opt);                 \
    decl_cspfix_map16_fn(ff_cspfix_map_16_##opt)
DECL_IO(sse4);
DECL_IO(avx2);
decl_cspfix_unpack_fn(ff_cspfix_unpack_x3_8_avx2);
decl_cspfix_pack_fn(ff_cspfix_pack_x3_8_avx2);
decl_cspfix_unpack_fn(ff_cspfix_unpack_x4_8_avx2);
decl_cspfix_pack_fn(ff_cspfix_pack_x4_8_avx2);
decl_cspfix_unpack_fn(ff_cspfix_unpack_8_avx512);
decl_cspfix_unpack_fn(ff_cspfix_unpack_16_avx512);
decl_cspfix_pack_fn(ff_cspfix_pack_8_avx512);
decl_cspfix_pack_fn(ff_cspfix_pack_16_avx512);
decl_cspfix_unpack_fn(ff_cspfix_unpack_x2_8_avx512);
decl_cspfix_pack_fn(ff_cspfix_pack_x2_8_avx512);
decl_cspfix_map8_fn(ff_cspfix_map_8_avx512);
decl_cspfix_map16_fn(ff_cspfix_map_16_avx512);
decl_cspfix_lut8_fn(ff_cspfix_lut_8_avx512icl);
decl_cspfix_dither_ed_fn(ff_cspfix_dither_ed_avx2);
decl_cspfix_dither_ed_fn(ff_cspfix_dither_ed_avx512);
decl_cspfix_map8_fn(ff_cspfix_map_8_sse2);
decl_cspfix_map8_fn(ff_cspfix_map_8_avx2);

/* chroma (cspfix_chroma.asm) */
#define DECL_CHROMA(opt)                                        \
    decl_cspfix_resample_fn(ff_cspfix_upsample_h2_##opt);       \
    decl_cspfix_resample_fn(ff_cspfix_downsample_h2_##opt);     \
    decl_cspfix_blend_fn(ff_cspfix_blend_##opt);                \
    decl_cspfix_filter3_fn(ff_cspfix_filter3_##opt);            \
    decl_cspfix_filter4_fn(ff_cspfix_filter4_##opt)
DECL_CHROMA(sse2);
DECL_CHROMA(avx2);
DECL_CHROMA(avx512);

/* yuvint (cspfix_yuvint.asm) */
#define DECL_YUVINT8(opt)                                       \
    decl_cspfix_ichroma8_fn(ff_cspfix_ichroma_8_##opt);         \
    decl_cspfix_idelta8_fn(ff_cspfix_idelta_8_##opt);           \
    decl_cspfix_ivblend_fn(ff_cspfix_ivblend_##opt);            \
    decl_cspfix_iluma8_fn(ff_cspfix_iluma_8_##opt)
DECL_YUVINT8(sse4);
DECL_YUVINT8(avx2);
DECL_YUVINT8(avx512);
decl_cspfix_ichroma16_fn(ff_cspfix_ichroma_16_avx2);
decl_cspfix_idelta16_fn(ff_cspfix_idelta_16_avx2);
decl_cspfix_iluma16_fn(ff_cspfix_iluma_16_avx2);
decl_cspfix_ichroma16_fn(ff_cspfix_ichroma_16_avx512);
decl_cspfix_idelta16_fn(ff_cspfix_idelta_16_avx512);
decl_cspfix_iluma16_fn(ff_cspfix_iluma_16_avx512);

/* ycgcor (cspfix_ycgcor.asm) */
decl_cspfix_ycgcor_fn(ff_cspfix_ycgcor_to_rgb_8_avx2);
decl_cspfix_ycgcor_fn(ff_cspfix_ycgcor_to_rgb_16_avx2);
decl_cspfix_ycgcor_fn(ff_cspfix_ycgcor_from_rgb_8_avx2);
decl_cspfix_ycgcor_fn(ff_cspfix_ycgcor_from_rgb_16_avx2);

/* dovi (cspfix_dovi.asm) */
decl_cspfix_dovi_mmr_fn(ff_cspfix_dovi_mmr_avx2);
decl_cspfix_dovi_mmr_fn(ff_cspfix_dovi_mmr_avx512);
decl_cspfix_dovi_lut_fn(ff_cspfix_dovi_lut_avx2);
decl_cspfix_dovi_norm_fn(ff_cspfix_dovi_norm_avx2);
decl_cspfix_dovi_norm_fn(ff_cspfix_dovi_norm_avx512);
decl_cspfix_dovi_mean_fn(ff_cspfix_dovi_mean420_avx2);
decl_cspfix_dovi_mean_fn(ff_cspfix_dovi_mean420_avx512);

/* The fused multiply-add kernels (as the C versions' fmaf()) have AVX2+FMA3 (and
 * AVX-512+FMA3) versions only; the others SSE versions too, outside
 * HAVE_AVX2_EXTERNAL. */

#if HAVE_AVX512_EXTERNAL && HAVE_AVX2_EXTERNAL
/* ff_cspfix_tf_avx512 takes tables with the power form only: the segment lookup
 * (16-byte loads, 4x4 transposes per 128-bit lane) gains nothing from 16 lanes and
 * runs faster in AVX2's 8 (checkasm, identity curve: 2170 against 2640-3200). */
static decl_cspfix_tf_fn(tf_avx512)
{
    if (t->pow.on)
        ff_cspfix_tf_avx512(c0, c1, c2, w, t);
    else
        ff_cspfix_tf_avx2(c0, c1, c2, w, t);
}
#endif

static av_cold void init_stage(CspfixStageDSP *dsp, int cpu_flags)
{
    if (EXTERNAL_SSE2(cpu_flags))
        dsp->affine = ff_cspfix_affine_sse2;
#if HAVE_AVX2_EXTERNAL
    if (EXTERNAL_AVX2_FAST(cpu_flags)) {
        dsp->affine         = ff_cspfix_affine_avx2;
        dsp->clip           = ff_cspfix_clip_avx2;
        dsp->gamut_desat    = ff_cspfix_gamut_desat_avx2;
        dsp->lut3d          = ff_cspfix_lut3d_avx2;
    }
    if (EXTERNAL_AVX2_FAST(cpu_flags) && EXTERNAL_FMA3(cpu_flags)) {
        dsp->matrix  = ff_cspfix_matrix_avx2;
        dsp->gamut_compress = ff_cspfix_gamut_compress_avx2;
        dsp->tf      = ff_cspfix_tf_avx2;
        dsp->tonemap   = ff_cspfix_tonemap_avx2;
        dsp->tonemap_i = ff_cspfix_tonemap_i_avx2;
    }
#endif
#if HAVE_AVX512_EXTERNAL
    if (EXTERNAL_AVX512(cpu_flags)) {
        dsp->affine         = ff_cspfix_affine_avx512;
        dsp->clip           = ff_cspfix_clip_avx512;
        dsp->gamut_desat    = ff_cspfix_gamut_desat_avx512;
        dsp->lut3d          = ff_cspfix_lut3d_avx512;
    }
    if (EXTERNAL_AVX512(cpu_flags) && EXTERNAL_FMA3(cpu_flags)) {
        dsp->matrix  = ff_cspfix_matrix_avx512;
        dsp->gamut_compress = ff_cspfix_gamut_compress_avx512;
        dsp->tf      = tf_avx512;
        dsp->tonemap   = ff_cspfix_tonemap_avx512;
        dsp->tonemap_i = ff_cspfix_tonemap_i_avx512;
    }
#endif
}

static av_cold void init_fused(CspfixFusedDSP *dsp, int cpu_flags)
{
#if HAVE_AVX2_EXTERNAL
    if (EXTERNAL_AVX2_FAST(cpu_flags) && EXTERNAL_FMA3(cpu_flags)) {
        dsp->matrix_in[0]  = ff_cspfix_matrix_in_8_avx2;
        dsp->matrix_in[1]  = ff_cspfix_matrix_in_16_avx2;
        dsp->matrix_out[0] = ff_cspfix_matrix_out_8_avx2;
        dsp->matrix_out[1] = ff_cspfix_matrix_out_16_avx2;
        dsp->yrow[0]       = ff_cspfix_yrow_8_avx2;
        dsp->yrow[1]       = ff_cspfix_yrow_16_avx2;
        dsp->crow[0]       = ff_cspfix_crow_8_avx2;
        dsp->crow[1]       = ff_cspfix_crow_16_avx2;
    }
#endif
#if HAVE_AVX512_EXTERNAL
    if (EXTERNAL_AVX512(cpu_flags) && EXTERNAL_FMA3(cpu_flags)) {
        dsp->matrix_in[0]  = ff_cspfix_matrix_in_8_avx512;
        dsp->matrix_in[1]  = ff_cspfix_matrix_in_16_avx512;
        dsp->matrix_out[0] = ff_cspfix_matrix_out_8_avx512;
        dsp->matrix_out[1] = ff_cspfix_matrix_out_16_avx512;
        dsp->yrow[0]       = ff_cspfix_yrow_8_avx512;
        dsp->yrow[1]       = ff_cspfix_yrow_16_avx512;
        dsp->crow[0]       = ff_cspfix_crow_8_avx512;
        dsp->crow[1]       = ff_cspfix_crow_16_avx512;
    }
#endif
}

static av_cold void init_io(CspfixIODSP *dsp, int cpu_flags)
{
    if (EXTERNAL_SSE2(cpu_flags))
        dsp->map8 = ff_cspfix_map_8_sse2;
    if (EXTERNAL_SSE4(cpu_flags)) {
        dsp->unpack[0]   = ff_cspfix_unpack_8_sse4;
        dsp->unpack[1]   = ff_cspfix_unpack_16_sse4;
        dsp->pack[0]     = ff_cspfix_pack_8_sse4;
        dsp->pack[1]     = ff_cspfix_pack_16_sse4;
        dsp->unpack_x2_8 = ff_cspfix_unpack_x2_8_sse4;
        dsp->pack_x2_8   = ff_cspfix_pack_x2_8_sse4;
        dsp->lut         = ff_cspfix_lut_sse4;
        dsp->lut8        = ff_cspfix_lut_8_sse4;
        dsp->map16       = ff_cspfix_map_16_sse4;
    }
#if HAVE_AVX2_EXTERNAL
    if (EXTERNAL_AVX2_FAST(cpu_flags)) {
        dsp->unpack[0]   = ff_cspfix_unpack_8_avx2;
        dsp->unpack[1]   = ff_cspfix_unpack_16_avx2;
        dsp->pack[0]     = ff_cspfix_pack_8_avx2;
        dsp->pack[1]     = ff_cspfix_pack_16_avx2;
        dsp->unpack_x2_8 = ff_cspfix_unpack_x2_8_avx2;
        dsp->pack_x2_8   = ff_cspfix_pack_x2_8_avx2;
        dsp->unpack_x3_8 = ff_cspfix_unpack_x3_8_avx2;
        dsp->pack_x3_8   = ff_cspfix_pack_x3_8_avx2;
        dsp->unpack_x4_8 = ff_cspfix_unpack_x4_8_avx2;
        dsp->pack_x4_8   = ff_cspfix_pack_x4_8_avx2;
        dsp->lut         = ff_cspfix_lut_avx2;
        dsp->lut8        = ff_cspfix_lut_8_avx2;
        dsp->map8        = ff_cspfix_map_8_avx2;
        dsp->map16       = ff_cspfix_map_16_avx2;
    }
    if (EXTERNAL_AVX2_FAST(cpu_flags) && EXTERNAL_FMA3(cpu_flags))
        dsp->dither_ed   = ff_cspfix_dither_ed_avx2;
#endif
#if HAVE_AVX512_EXTERNAL
    if (EXTERNAL_AVX512(cpu_flags)) {
        dsp->unpack[0]   = ff_cspfix_unpack_8_avx512;
        dsp->unpack[1]   = ff_cspfix_unpack_16_avx512;
        dsp->pack[0]     = ff_cspfix_pack_8_avx512;
        dsp->pack[1]     = ff_cspfix_pack_16_avx512;
        dsp->unpack_x2_8 = ff_cspfix_unpack_x2_8_avx512;
        dsp->pack_x2_8   = ff_cspfix_pack_x2_8_avx512;
        dsp->map8        = ff_cspfix_map_8_avx512;
        dsp->map16       = ff_cspfix_map_16_avx512;
    }
    if (EXTERNAL_AVX512(cpu_flags) && EXTERNAL_FMA3(cpu_flags))
        dsp->dither_ed   = ff_cspfix_dither_ed_avx512;
#endif
#if HAVE_AVX512ICL_EXTERNAL
    if (EXTERNAL_AVX512ICL(cpu_flags))
        dsp->lut8 = ff_cspfix_lut_8_avx512icl;  /* the table in registers (vpermi2b) */
#endif
}

static av_cold void init_dovi(CspfixDoviDSP *dsp, int cpu_flags)
{
#if HAVE_AVX2_EXTERNAL
    if (EXTERNAL_AVX2_FAST(cpu_flags)) {
        dsp->lut     = ff_cspfix_dovi_lut_avx2;
        dsp->norm    = ff_cspfix_dovi_norm_avx2;
        dsp->mean420 = ff_cspfix_dovi_mean420_avx2;
    }
    if (EXTERNAL_AVX2_FAST(cpu_flags) && EXTERNAL_FMA3(cpu_flags))
        dsp->mmr = ff_cspfix_dovi_mmr_avx2;
#endif
#if HAVE_AVX512_EXTERNAL
    if (EXTERNAL_AVX512(cpu_flags)) {
        dsp->norm    = ff_cspfix_dovi_norm_avx512;
        dsp->mean420 = ff_cspfix_dovi_mean420_avx512;
    }
    if (EXTERNAL_AVX512(cpu_flags) && EXTERNAL_FMA3(cpu_flags))
        dsp->mmr = ff_cspfix_dovi_mmr_avx512;
#endif
}

static av_cold void init_ycgcor(CspfixYcgcorDSP *dsp, int cpu_flags)
{
#if HAVE_AVX2_EXTERNAL
    if (EXTERNAL_AVX2_FAST(cpu_flags)) {
        dsp->to_rgb[0]   = ff_cspfix_ycgcor_to_rgb_8_avx2;
        dsp->to_rgb[1]   = ff_cspfix_ycgcor_to_rgb_16_avx2;
        dsp->from_rgb[0] = ff_cspfix_ycgcor_from_rgb_8_avx2;
        dsp->from_rgb[1] = ff_cspfix_ycgcor_from_rgb_16_avx2;
    }
#endif
}

static av_cold void init_chroma(CspfixChromaDSP *dsp, int cpu_flags)
{
    if (EXTERNAL_SSE2(cpu_flags)) {
        dsp->upsample_h2   = ff_cspfix_upsample_h2_sse2;
        dsp->downsample_h2 = ff_cspfix_downsample_h2_sse2;
        dsp->blend         = ff_cspfix_blend_sse2;
        dsp->filter3       = ff_cspfix_filter3_sse2;
        dsp->filter4       = ff_cspfix_filter4_sse2;
    }
#if HAVE_AVX2_EXTERNAL
    if (EXTERNAL_AVX2_FAST(cpu_flags)) {
        dsp->upsample_h2   = ff_cspfix_upsample_h2_avx2;
        dsp->downsample_h2 = ff_cspfix_downsample_h2_avx2;
        dsp->blend         = ff_cspfix_blend_avx2;
        dsp->filter3       = ff_cspfix_filter3_avx2;
        dsp->filter4       = ff_cspfix_filter4_avx2;
    }
#endif
#if HAVE_AVX512_EXTERNAL
    if (EXTERNAL_AVX512(cpu_flags)) {
        dsp->upsample_h2   = ff_cspfix_upsample_h2_avx512;
        dsp->downsample_h2 = ff_cspfix_downsample_h2_avx512;
        dsp->blend         = ff_cspfix_blend_avx512;
        dsp->filter3       = ff_cspfix_filter3_avx512;
        dsp->filter4       = ff_cspfix_filter4_avx512;
    }
#endif
}

static av_cold void init_yuvint(CspfixYuvIntDSP *dsp, int cpu_flags)
{
    if (EXTERNAL_SSE4(cpu_flags)) {
        dsp->ichroma = ff_cspfix_ichroma_8_sse4;
        dsp->idelta  = ff_cspfix_idelta_8_sse4;
        dsp->ivblend = ff_cspfix_ivblend_sse4;
        dsp->iluma   = ff_cspfix_iluma_8_sse4;
    }
#if HAVE_AVX2_EXTERNAL
    if (EXTERNAL_AVX2_FAST(cpu_flags)) {
        dsp->ichroma   = ff_cspfix_ichroma_8_avx2;
        dsp->idelta    = ff_cspfix_idelta_8_avx2;
        dsp->ivblend   = ff_cspfix_ivblend_avx2;
        dsp->iluma     = ff_cspfix_iluma_8_avx2;
        dsp->ichroma16 = ff_cspfix_ichroma_16_avx2;
        dsp->idelta16  = ff_cspfix_idelta_16_avx2;
        dsp->iluma16   = ff_cspfix_iluma_16_avx2;
    }
#endif
#if HAVE_AVX512_EXTERNAL
    if (EXTERNAL_AVX512(cpu_flags)) {
        dsp->ichroma = ff_cspfix_ichroma_8_avx512;
        dsp->idelta  = ff_cspfix_idelta_8_avx512;
        dsp->ivblend = ff_cspfix_ivblend_avx512;
        dsp->iluma   = ff_cspfix_iluma_8_avx512;
        dsp->ichroma16 = ff_cspfix_ichroma_16_avx512;
        dsp->idelta16  = ff_cspfix_idelta_16_avx512;
        dsp->iluma16   = ff_cspfix_iluma_16_avx512;
    }
#endif
}

av_cold void ff_cspfix_dsp_init_x86(CspfixDSPContext *dsp)
{
#if ARCH_X86_64
    int cpu_flags = av_get_cpu_flags();

    init_stage(&dsp->stage, cpu_flags);
    init_fused(&dsp->fused, cpu_flags);
    init_io(&dsp->io, cpu_flags);
    init_chroma(&dsp->chroma, cpu_flags);
    init_dovi(&dsp->dovi, cpu_flags);
    init_yuvint(&dsp->yuvint, cpu_flags);
    init_ycgcor(&dsp->ycgcor, cpu_flags);
#endif /* ARCH_X86_64 */
}
