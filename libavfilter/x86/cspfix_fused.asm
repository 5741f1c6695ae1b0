;*****************************************************************************
;* SIMD kernels of the cspfix filter, fused family: matrix rows with the
;* unpack and/or pack of 8-bit samples or 16-bit containers in one pass
;* (matrix_in, matrix_out, yrow, crow; AVX2+FMA3 and AVX-512), bit-exact with the C versions in
;* libavfilter/cspfix_dsp_template.c: the same operations in the same order, with
;* fused multiply-adds exactly where the C code calls fmaf(), nowhere else.
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
%include "libavfilter/x86/cspfix_util.inc"

; CspfixCRow (pinned by static_assert in x86/cspfix_init.c): k[2][4] (coefficient of
; Cb, of Cr, offset, unused), lo[2], hi[2] (floats)
%define CROW_K0 0                       ; k[0]: Cb'
%define CROW_K1 16                      ; k[1]: Cr'
%define CROW_LO 32
%define CROW_HI 40

SECTION .text

; (No argument is named c or d: x86inc would turn cmp and dd into their operands.)
; The float rows of the filter have at least 16 floats of padding: the in-place
; float kernels below process whole vectors and may read and write it.
; Kernels that touch frame rows (pack, unpack) stop exactly at w.
; Float arguments are named xmm0, xmm1 (not xm0, xm1): with AVX-512, x86inc maps
; m0-m15 to zmm16-31, and the arguments arrive in xmm0, xmm1.
; The AVX-512 versions go by 16 samples (w % 16 == 0: no tails); they pack with
; vpmovusdw/vpmovusdb, which give what packusdw/packuswb give for the clamped
; values in [lo, hi] (0 <= lo, hi <= the largest code).

; ROW_LOAD dst, samples, bits: mmsize / 4 samples as floats
%macro ROW_LOAD 3
%if %3 == 8
    pmovzxbd %1, %2
%else
    pmovzxwd %1, %2
%endif
    cvtdq2ps %1, %1
%endmacro

;-----------------------------------------------------------------------------
; void matrix_in(float *c0, float *c1, float *c2, const uint8_t *src, int w,
;                const float m[12])
; matrix with c0 = the samples of src (8-bit or 16-bit containers), w % 16 == 0
;-----------------------------------------------------------------------------
%macro MATRIX_IN 1 ; bits per sample container
%assign %%bs %1 / 8
cglobal cspfix_matrix_in_%1, 6, 7, 16, c0, c1, c2, src, w, m, x
    movsxdifnidn wq, wd
    MATRIX_COEFS0
    MATRIX_COEFS12
    xor     xq, xq
.loop:
    ROW_LOAD m0, [srcq + xq * %%bs], %1
    movu    m1, [c1q + xq * 4]
    movu    m2, [c2q + xq * 4]
    MATRIX_ROW m15, m12, m3, m4, m5
    movu    [c0q + xq * 4], m15
    MATRIX_ROWS12 0
    add     xq, mmsize / 4
    cmp     xq, wq
    jl .loop
    RET
%endmacro

;-----------------------------------------------------------------------------
; void matrix_out(uint8_t *dst, const float *c0, float *c1, float *c2, int w,
;                 const float m[12], const float *bias, float lo, float hi)
; matrix whose first row goes through pack to dst (8-bit or 16-bit containers)
; instead of to c0, w % 16 == 0; 16 samples per step, so that bias[x & 15] is
; the vectors at bias. AVX2: row 0's coefficients live on the stack (memory
; operands), which frees registers for lo and hi; AVX-512: in m16-m19.
;-----------------------------------------------------------------------------
; MATRIX_OUT_HALF k, dst: samples x + mmsize / 4 * k .. of row 0, packed, in dst
; (as dwords)
%macro MATRIX_OUT_HALF 2
    movu    m0, [c0q + xq * 4 + mmsize * %1]
    movu    m1, [c1q + xq * 4 + mmsize * %1]
    movu    m2, [c2q + xq * 4 + mmsize * %1]
    mova    m15, MO_C3
    vfmadd231ps m15, m0, MO_C0
    vfmadd231ps m15, m1, MO_C1
    vfmadd231ps m15, m2, MO_C2
    addps   m15, [biasq + mmsize * %1]
    maxps   m15, m12
    minps   m15, m3
    cvttps2dq %2, m15
    MATRIX_ROWS12 mmsize * %1
%endmacro

%macro MATRIX_OUT 1 ; bits per sample container
%if mmsize == 64
%define MO_C0 m16
%define MO_C1 m17
%define MO_C2 m18
%define MO_C3 m19
%assign %%regs  20
%assign %%stack 0
%else
%define MO_C0 [rsp]
%define MO_C1 [rsp + 32]
%define MO_C2 [rsp + 64]
%define MO_C3 [rsp + 96]
%assign %%regs  16
%assign %%stack 128
%endif
%if UNIX64
cglobal cspfix_matrix_out_%1, 7, 8, %%regs, %%stack, dst, c0, c1, c2, w, m, bias, x
%else
cglobal cspfix_matrix_out_%1, 7, 8, %%regs, %%stack, dst, c0, c1, c2, w, m, bias, lo, hi, x
    movss   xmm0, lom
    movss   xmm1, him
%endif
    movsxdifnidn wq, wd
    VBROADCASTSS m12, xmm0              ; lo
    VBROADCASTSS m3,  xmm1              ; hi
%if mmsize == 64
    VBROADCASTSS m16, [mq + 0]
    VBROADCASTSS m17, [mq + 4]
    VBROADCASTSS m18, [mq + 8]
    VBROADCASTSS m19, [mq + 12]
%else
    VBROADCASTSS m15, [mq + 0]
    mova    MO_C0, m15
    VBROADCASTSS m15, [mq + 4]
    mova    MO_C1, m15
    VBROADCASTSS m15, [mq + 8]
    mova    MO_C2, m15
    VBROADCASTSS m15, [mq + 12]
    mova    MO_C3, m15
%endif
    MATRIX_COEFS12
    xor     xq, xq
.loop:
%if mmsize == 64
    MATRIX_OUT_HALF 0, m4
%if %1 == 8
    vpmovusdb xm4, m4
    movu    [dstq + xq], xm4
%else
    vpmovusdw ym4, m4
    movu    [dstq + xq * 2], ym4
%endif
%else
    MATRIX_OUT_HALF 0, m4
    MATRIX_OUT_HALF 1, m5
    packusdw m4, m5                     ; 0-3 8-11 | 4-7 12-15
    vpermq  m4, m4, q3120
%if %1 == 8
    vextracti128 xm5, m4, 1
    packuswb xm4, xm5
    movu    [dstq + xq], xm4
%else
    movu    [dstq + xq * 2], m4
%endif
%endif
    add     xq, 16
    cmp     xq, wq
    jl .loop
    RET
%endmacro

;-----------------------------------------------------------------------------
; Matrix rows straight from samples to samples (chroma_own, the linear plans that keep
; chroma at its own resolution), w % 16 == 0, mmsize / 4 samples per part of a step:
; void yrow(uint8_t *dst, const uint8_t *src, const float *c1, const float *c2, int w,
;           const float m[4], const float *bias, float lo, float hi)
;   dst = pack(fma(m2, c2, fma(m1, c1, fma(m0, src, m3))))
; void crow(uint8_t *dcb, uint8_t *dcr, const uint8_t *cb, const uint8_t *cr, int w,
;           const CspfixCRow *p, const float *bias_cb, const float *bias_cr)
;   dcb/dcr = pack(fma(k1, cr, fma(k0, cb, k2))) of rows 0/1 of p
;-----------------------------------------------------------------------------

; ROW_STORE dst, v, tmp (register numbers), bits: mmsize / 4 samples from the dwords
; in m<v> (in [0, 65535]; clobbered)
%macro ROW_STORE 4
%if mmsize == 64
%if %4 == 8
    vpmovusdb xm%2, m%2
    movu    %1, xm%2
%else
    vpmovusdw ym%2, m%2
    movu    %1, ym%2
%endif
%else
    vextracti128 xm%3, m%2, 1
    packusdw xm%2, xm%3
%if %4 == 8
    packuswb xm%2, xm%2
    movq    %1, xm%2
%else
    movu    %1, xm%2
%endif
%endif
%endmacro

%macro YROW 1 ; bits per sample container
%assign %%bs %1 / 8
%if UNIX64
cglobal cspfix_yrow_%1, 7, 8, 12, dst, src, c1, c2, w, m, bias, x
%else
cglobal cspfix_yrow_%1, 7, 8, 12, dst, src, c1, c2, w, m, bias, lo, hi, x
    movss   xmm0, lom
    movss   xmm1, him
%endif
    movsxdifnidn wq, wd
    VBROADCASTSS m10, xmm0
    VBROADCASTSS m11, xmm1
    VBROADCASTSS m2, [mq]
    VBROADCASTSS m3, [mq + 4]
    VBROADCASTSS m4, [mq + 8]
    VBROADCASTSS m5, [mq + 12]
    xor     xq, xq
.loop:
%assign %%k 0
%rep 64 / mmsize
    ROW_LOAD m0, [srcq + xq * %%bs + mmsize / 4 * %%k * %%bs], %1
    mova    m1, m5
    vfmadd231ps m1, m0, m2
    vfmadd231ps m1, m3, [c1q + xq * 4 + mmsize * %%k]
    vfmadd231ps m1, m4, [c2q + xq * 4 + mmsize * %%k]
    addps   m1, [biasq + mmsize * %%k]
    vmaxps  m1, m1, m10                 ; v-forms: x86inc would swap maxps m<8, m>=8
    vminps  m1, m1, m11
    cvttps2dq m1, m1
    ROW_STORE [dstq + xq * %%bs + mmsize / 4 * %%k * %%bs], 1, 6, %1
%assign %%k %%k + 1
%endrep
    add     xq, 16
    cmp     xq, wq
    jl .loop
    RET
%endmacro

%macro CROW 1 ; bits per sample container
%assign %%bs %1 / 8
cglobal cspfix_crow_%1, 8, 9, 15, dcb, dcr, cb, cr, w, p, bcb, bcr, x
    movsxdifnidn wq, wd
    VBROADCASTSS m2,  [pq + CROW_K0]
    VBROADCASTSS m3,  [pq + CROW_K0 + 4]
    VBROADCASTSS m4,  [pq + CROW_K0 + 8]
    VBROADCASTSS m5,  [pq + CROW_K1]
    VBROADCASTSS m6,  [pq + CROW_K1 + 4]
    VBROADCASTSS m7,  [pq + CROW_K1 + 8]
    VBROADCASTSS m8,  [pq + CROW_LO]     ; lo, hi of Cb'
    VBROADCASTSS m9,  [pq + CROW_HI]
    VBROADCASTSS m10, [pq + CROW_LO + 4] ; lo, hi of Cr'
    VBROADCASTSS m11, [pq + CROW_HI + 4]
    xor     xq, xq
.loop:
%assign %%k 0
%rep 64 / mmsize
    ROW_LOAD m0, [cbq + xq * %%bs + mmsize / 4 * %%k * %%bs], %1
    ROW_LOAD m1, [crq + xq * %%bs + mmsize / 4 * %%k * %%bs], %1
    mova    m12, m4
    vfmadd231ps m12, m0, m2
    vfmadd231ps m12, m1, m3
    addps   m12, [bcbq + mmsize * %%k]
    maxps   m12, m8
    minps   m12, m9
    cvttps2dq m12, m12
    ROW_STORE [dcbq + xq * %%bs + mmsize / 4 * %%k * %%bs], 12, 13, %1
    mova    m12, m7
    vfmadd231ps m12, m0, m5
    vfmadd231ps m12, m1, m6
    addps   m12, [bcrq + mmsize * %%k]
    maxps   m12, m10
    minps   m12, m11
    cvttps2dq m12, m12
    ROW_STORE [dcrq + xq * %%bs + mmsize / 4 * %%k * %%bs], 12, 13, %1
%assign %%k %%k + 1
%endrep
    add     xq, 16
    cmp     xq, wq
    jl .loop
    RET
%endmacro

%macro FUSED 0
MATRIX_IN 8
MATRIX_IN 16
MATRIX_OUT 8
MATRIX_OUT 16
YROW 8
YROW 16
CROW 8
CROW 16
%endmacro

%if ARCH_X86_64
%if HAVE_AVX2_EXTERNAL
INIT_YMM avx2
FUSED
%endif
%if HAVE_AVX512_EXTERNAL
INIT_ZMM avx512
FUSED
%endif
%endif
