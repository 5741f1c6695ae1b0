;*****************************************************************************
;* SIMD kernels of the cspfix filter, dovi family: Dolby Vision reshaping (the MMR
;* of a chroma piece, dovi_mmr; base layer codes to signal, dovi_norm, and the 4:2:0
;* luma mean, dovi_mean420), bit-exact with the C versions in libavfilter/cspfix_dsp.c
;* (the same operations, fused multiply-adds where they have them, in the same order);
;* AVX2 (+FMA3) and AVX-512.
;* Copyright (c) 2026 the cspfix developers
;*
;* This file is part of FFmpeg.
;*
;* FFmpeg is free software; you can redistribute it and/or
;* modify it under the terms of the GNU Lesser General Public
;* License as published by the Free Software Foundation; either
;* version 2.1 of the License, or (at your option) any later version.
;*
;* FFmpeg is distributed in the hope that it will be useful,
;* but WITHOUT ANY WARRANTY; without even the implied warranty of
;* MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.  See the GNU
;* Lesser General Public License for more details.
;*
;* You should have received a copy of the GNU Lesser General Public
;* License along with FFmpeg; if not, write to the Free Software
;* Foundation, Inc., 51 Franklin Street, Fifth Floor, Boston, MA 02110-1301 USA

%include "libavutil/x86/x86util.asm"

SECTION_RODATA

scale16: dd 65535.0
half:    dd 0.5
lo16:    dd 0xffff

SECTION .text

; MMR_TERM t, row: y (m7) = fmaf(t, fmaf(t, fmaf(t, k[row + 2], k[row + 1]), k[row]), y)
; (table rows of 16 floats, 64 bytes; uses m8)
%macro MMR_TERM 2
    movu        m8, [coefq + (%2 + 2) * 64]
    vfmadd213ps m8, %1, [coefq + (%2 + 1) * 64]
    vfmadd213ps m8, %1, [coefq + %2 * 64]
    vfmadd231ps m7, %1, m8
%endmacro

;-----------------------------------------------------------------------------
; void dovi_mmr(uint16_t *dst, const float *x0, const float *x1, const float *x2,
;               const float (*k)[16], int w)
;   whole vectors: reads x0..x2 and writes dst up to the next multiple of mmsize / 4
;-----------------------------------------------------------------------------
%macro DOVI_MMR 0
cglobal cspfix_dovi_mmr, 6, 7, 16, dst, s0, s1, s2, coef, w, x
    movsxdifnidn wq, wd
    VBROADCASTSS m14, [scale16]
    VBROADCASTSS m15, [half]
    xor         xq, xq
.loop:
    movu        m0, [s0q + xq * 4]
    movu        m1, [s1q + xq * 4]
    movu        m2, [s2q + xq * 4]
    mulps       m3, m0, m1              ; x0 x1
    mulps       m4, m0, m2              ; x0 x2
    mulps       m5, m1, m2              ; x1 x2
    mulps       m6, m3, m2              ; x0 x1 x2
    movu        m7, [coefq]             ; the constant
    MMR_TERM    m0, 1
    MMR_TERM    m1, 4
    MMR_TERM    m2, 7
    MMR_TERM    m3, 10
    MMR_TERM    m4, 13
    MMR_TERM    m5, 16
    MMR_TERM    m6, 19
    maxps       m7, [coefq + 22 * 64]   ; lo
    minps       m7, [coefq + 23 * 64]   ; hi
    vfmadd213ps m7, m14, m15            ; y 65535 + 0.5
    cvttps2dq   m7, m7
%if mmsize == 64
    vpmovusdw   [dstq + xq * 2], m7
%else
    vextracti128 xm8, m7, 1
    packusdw    xm7, xm8
    movu        [dstq + xq * 2], xm7
%endif
    add         xq, mmsize / 4
    cmp         xq, wq
    jl .loop
    RET
%endmacro

;-----------------------------------------------------------------------------
; void dovi_lut(uint16_t *dst, const uint16_t *src, int w, const uint16_t *lut, int max)
;   dst = lut[min(src, max)] by dword gathers (the entry and the next; the low word kept);
;   whole vectors: reads src and writes dst up to the next multiple of mmsize / 4. AVX2
;   only: 16-lane gathers are slower on Zen 4 (checkasm: 1069 cycles against 983 per 1024)
;-----------------------------------------------------------------------------
%macro DOVI_LUT 0
cglobal cspfix_dovi_lut, 5, 6, 6, dst, src, w, lut, max, x
    movsxdifnidn wq, wd
    movd        xm1, maxd
    vpbroadcastd m1, xm1
%if mmsize == 32
    VBROADCASTSS m4, [lo16]
%endif
    xor         xq, xq
.loop:
    vpmovzxwd   m0, [srcq + xq * 2]
    pminud      m0, m1
%if mmsize == 64
    kxnorw      k1, k1, k1
    vpgatherdd  m2{k1}, [lutq + m0 * 2]
    vpmovdw     [dstq + xq * 2], m2
%else
    pcmpeqd     m3, m3
    pxor        m2, m2
    vpgatherdd  m2, [lutq + m0 * 2], m3
    pand        m2, m4
    vextracti128 xm5, m2, 1
    packusdw    xm2, xm5
    movu        [dstq + xq * 2], xm2
%endif
    add         xq, mmsize / 4
    cmp         xq, wq
    jl .loop
    RET
%endmacro

; (CspfixDoviNorm: inv at 0, inv4 at 4, max at 8)
;-----------------------------------------------------------------------------
; void dovi_norm(float *dst, const uint16_t *src, int w, const CspfixDoviNorm *n)
;   whole vectors: reads src and writes dst up to the next multiple of mmsize / 4
;-----------------------------------------------------------------------------
%macro DOVI_NORM 0
cglobal cspfix_dovi_norm, 4, 5, 3, dst, src, w, nrm, x
    movsxdifnidn wq, wd
    VBROADCASTSS m0, [nrmq]
    vpbroadcastw m1, [nrmq + 8]
    xor         xq, xq
.loop:
%if mmsize == 64
    movu        ym2, [srcq + xq * 2]
    vpminuw     ym2, ym2, ym1
    vpmovzxwd   m2, ym2
%else
    movu        xm2, [srcq + xq * 2]
    vpminuw     xm2, xm2, xm1
    vpmovzxwd   m2, xm2
%endif
    cvtdq2ps    m2, m2
    mulps       m2, m0
    movu        [dstq + xq * 4], m2
    add         xq, mmsize / 4
    cmp         xq, wq
    jl .loop
    RET
%endmacro

;-----------------------------------------------------------------------------
; void dovi_mean420(float *dst, const uint16_t *y0, const uint16_t *y1, int w,
;                   const CspfixDoviNorm *n)
;   whole vectors: writes dst up to the next multiple of mmsize / 4, reads y0, y1
;   twice as far
;-----------------------------------------------------------------------------
%macro DOVI_MEAN420 0
cglobal cspfix_dovi_mean420, 5, 6, 6, dst, y0, y1, w, nrm, x
    movsxdifnidn wq, wd
    VBROADCASTSS m0, [nrmq + 4]
    vpbroadcastw m1, [nrmq + 8]
    VBROADCASTSS m5, [lo16]
    xor         xq, xq
.loop:
    movu        m2, [y0q + xq * 4]
    movu        m3, [y1q + xq * 4]
    pminuw      m2, m1
    pminuw      m3, m1
    pand        m4, m2, m5              ; even samples
    psrld       m2, 16                  ; odd samples
    paddd       m2, m4
    pand        m4, m3, m5
    psrld       m3, 16
    paddd       m3, m4
    paddd       m2, m3
    cvtdq2ps    m2, m2
    mulps       m2, m0
    movu        [dstq + xq * 4], m2
    add         xq, mmsize / 4
    cmp         xq, wq
    jl .loop
    RET
%endmacro

%if HAVE_AVX2_EXTERNAL
INIT_YMM avx2
DOVI_MMR
DOVI_LUT
DOVI_NORM
DOVI_MEAN420
%endif

%if HAVE_AVX512_EXTERNAL
INIT_ZMM avx512
DOVI_MMR
DOVI_NORM
DOVI_MEAN420
%endif
