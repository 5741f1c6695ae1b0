;*****************************************************************************
;* SIMD kernels of the cspfix filter: float32 rows, bit-exact with the C
;* versions in libavfilter/cspfix_dsp.c (same operations in the same order,
;* no fused multiply-add).
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
;******************************************************************************

%include "libavutil/x86/x86util.asm"

SECTION_RODATA 32

; transfer tables, see libavfilter/cspfix_tf.h (SEG_BITS 6, EMIN -48, EMAX 8)
tf_mantmask: times 8 dd 0x0001ffff            ; low 23 - SEG_BITS mantissa bits
tf_tscale:   times 8 dd 0x37000000            ; 2^-17
x2_lowbyte:  times 8 dd 0x000000ff
x2_keepodd:  times 16 dw 0xff00
half:          dd 0.5
quarter:       dd 0.25
threequarters: dd 0.75
eighth:        dd 0.125
three:         dd 3.0

SECTION .text

; (No argument is named c or d: x86inc would turn cmp and dd into their operands.)
; The float rows of the filter have at least 16 floats of padding: the in-place
; float kernels below process whole vectors and may read and write it.
; Kernels that touch frame rows (pack, unpack) stop exactly at w.

;-----------------------------------------------------------------------------
; void matrix(float *c0, float *c1, float *c2, int w, const float m[12])
; c_i = fma(m[4i+2], c2, fma(m[4i+1], c1, fma(m[4i], c0, m[4i+3]))) (AVX2+FMA3)
;-----------------------------------------------------------------------------
; MATRIX_ROW dst, offset, coefficients of c0, c1, c2 (inputs m0, m1, m2)
%macro MATRIX_ROW 5
    mova    %1, %2
    vfmadd231ps %1, m0, %3
    vfmadd231ps %1, m1, %4
    vfmadd231ps %1, m2, %5
%endmacro

; MATRIX_COEFS0 / MATRIX_COEFS12: m[] (in mq) broadcast: row 0 to m3-m5 and its offset
; to m12; rows 1 and 2 to m6-m8, m9-m11 and their offsets to m13, m14
%macro MATRIX_COEFS0 0
    VBROADCASTSS m3,  [mq + 0]
    VBROADCASTSS m4,  [mq + 4]
    VBROADCASTSS m5,  [mq + 8]
    VBROADCASTSS m12, [mq + 12]
%endmacro

%macro MATRIX_COEFS12 0
    VBROADCASTSS m6,  [mq + 16]
    VBROADCASTSS m7,  [mq + 20]
    VBROADCASTSS m8,  [mq + 24]
    VBROADCASTSS m13, [mq + 28]
    VBROADCASTSS m9,  [mq + 32]
    VBROADCASTSS m10, [mq + 36]
    VBROADCASTSS m11, [mq + 40]
    VBROADCASTSS m14, [mq + 44]
%endmacro

; MATRIX_ROWS12 byte offset: rows 1 and 2 of m0-m2 stored to c1, c2 at x (uses m15)
%macro MATRIX_ROWS12 1
    MATRIX_ROW m15, m13, m6, m7, m8
    movu    [c1q + xq * 4 + %1], m15
    MATRIX_ROW m15, m14, m9, m10, m11
    movu    [c2q + xq * 4 + %1], m15
%endmacro

; ROW_LOAD dst, samples, bits: 8 samples as floats
%macro ROW_LOAD 3
%if %3 == 8
    pmovzxbd %1, %2
%else
    pmovzxwd %1, %2
%endif
    cvtdq2ps %1, %1
%endmacro

%macro MATRIX 0
cglobal cspfix_matrix, 5, 6, 16, c0, c1, c2, w, m, x
    movsxdifnidn wq, wd
    MATRIX_COEFS0
    MATRIX_COEFS12
    xor     xq, xq
.loop:
    movu    m0, [c0q + xq * 4]
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
; void matrix_in(float *c0, float *c1, float *c2, const uint8_t *src, int w,
;                const float m[12])
; matrix with c0 = the samples of src (8-bit or 16-bit containers), w % 16 == 0
;-----------------------------------------------------------------------------
%macro MATRIX_IN 1 ; bits per sample container
%assign %%bs %1 / 8
cglobal cspfix_matrix_in%1, 6, 7, 16, c0, c1, c2, src, w, m, x
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
; the two vectors at bias. Row 0's coefficients live on the stack (memory
; operands), which frees registers for lo and hi.
;-----------------------------------------------------------------------------
; MATRIX_OUT_HALF k, dst: samples x + 8 k .. x + 8 k + 7, their packed row 0 in dst
; (as dwords)
%macro MATRIX_OUT_HALF 2
    movu    m0, [c0q + xq * 4 + 32 * %1]
    movu    m1, [c1q + xq * 4 + 32 * %1]
    movu    m2, [c2q + xq * 4 + 32 * %1]
    mova    m15, [rsp + 96]
    vfmadd231ps m15, m0, [rsp]
    vfmadd231ps m15, m1, [rsp + 32]
    vfmadd231ps m15, m2, [rsp + 64]
    addps   m15, [biasq + 32 * %1]
    maxps   m15, m12
    minps   m15, m3
    cvttps2dq %2, m15
    MATRIX_ROWS12 32 * %1
%endmacro

%macro MATRIX_OUT 1 ; bits per sample container
%if UNIX64
cglobal cspfix_matrix_out%1, 7, 8, 16, 128, dst, c0, c1, c2, w, m, bias, x
%else
cglobal cspfix_matrix_out%1, 7, 8, 16, 128, dst, c0, c1, c2, w, m, bias, lo, hi, x
    movss   xm0, lom
    movss   xm1, him
%endif
    movsxdifnidn wq, wd
    VBROADCASTSS m12, xm0               ; lo
    VBROADCASTSS m3,  xm1               ; hi
    VBROADCASTSS m15, [mq + 0]
    mova    [rsp], m15
    VBROADCASTSS m15, [mq + 4]
    mova    [rsp + 32], m15
    VBROADCASTSS m15, [mq + 8]
    mova    [rsp + 64], m15
    VBROADCASTSS m15, [mq + 12]
    mova    [rsp + 96], m15
    MATRIX_COEFS12
    xor     xq, xq
.loop:
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
    add     xq, 16
    cmp     xq, wq
    jl .loop
    RET
%endmacro

;-----------------------------------------------------------------------------
; Matrix rows straight from samples to samples (chroma_own, the linear plans that keep
; chroma at its own resolution), w % 16 == 0, 8 samples per half step:
; void yrow(uint8_t *dst, const uint8_t *src, const float *c1, const float *c2, int w,
;           const float m[4], const float *bias, float lo, float hi)
;   dst = pack(fma(m2, c2, fma(m1, c1, fma(m0, src, m3))))
; void crow(uint8_t *dcb, uint8_t *dcr, const uint8_t *cb, const uint8_t *cr, int w,
;           const CspfixCRow *p, const float *bias_cb, const float *bias_cr)
;   dcb/dcr = pack(fma(k1, cr, fma(k0, cb, k2))) of rows 0/1 of p
;-----------------------------------------------------------------------------

; ROW_STORE dst, v, tmp (register numbers), bits: 8 samples from the dwords in m<v>
; (in [0, 65535]; clobbered)
%macro ROW_STORE 4
    vextracti128 xm%3, m%2, 1
    packusdw xm%2, xm%3
%if %4 == 8
    packuswb xm%2, xm%2
    movq    %1, xm%2
%else
    movu    %1, xm%2
%endif
%endmacro

%macro YROW 1 ; bits per sample container
%assign %%bs %1 / 8
%if UNIX64
cglobal cspfix_yrow%1, 7, 8, 12, dst, src, c1, c2, w, m, bias, x
%else
cglobal cspfix_yrow%1, 7, 8, 12, dst, src, c1, c2, w, m, bias, lo, hi, x
    movss   xm0, lom
    movss   xm1, him
%endif
    movsxdifnidn wq, wd
    VBROADCASTSS m10, xm0
    VBROADCASTSS m11, xm1
    VBROADCASTSS m2, [mq]
    VBROADCASTSS m3, [mq + 4]
    VBROADCASTSS m4, [mq + 8]
    VBROADCASTSS m5, [mq + 12]
    xor     xq, xq
.loop:
%assign %%k 0
%rep 2
    ROW_LOAD m0, [srcq + xq * %%bs + 8 * %%k * %%bs], %1
    mova    m1, m5
    vfmadd231ps m1, m0, m2
    vfmadd231ps m1, m3, [c1q + xq * 4 + 32 * %%k]
    vfmadd231ps m1, m4, [c2q + xq * 4 + 32 * %%k]
    addps   m1, [biasq + 32 * %%k]
    maxps   m1, m10
    minps   m1, m11
    cvttps2dq m1, m1
    ROW_STORE [dstq + xq * %%bs + 8 * %%k * %%bs], 1, 6, %1
%assign %%k %%k + 1
%endrep
    add     xq, 16
    cmp     xq, wq
    jl .loop
    RET
%endmacro

; CspfixCRow: k[2][4] (coefficient of Cb, of Cr, offset, unused), lo[2], hi[2]
%macro CROW 1 ; bits per sample container
%assign %%bs %1 / 8
cglobal cspfix_crow%1, 8, 9, 15, dcb, dcr, cb, cr, w, p, bcb, bcr, x
    movsxdifnidn wq, wd
    VBROADCASTSS m2,  [pq]
    VBROADCASTSS m3,  [pq + 4]
    VBROADCASTSS m4,  [pq + 8]
    VBROADCASTSS m5,  [pq + 16]
    VBROADCASTSS m6,  [pq + 20]
    VBROADCASTSS m7,  [pq + 24]
    VBROADCASTSS m8,  [pq + 32]         ; lo, hi of Cb'
    VBROADCASTSS m9,  [pq + 40]
    VBROADCASTSS m10, [pq + 36]         ; lo, hi of Cr'
    VBROADCASTSS m11, [pq + 44]
    xor     xq, xq
.loop:
%assign %%k 0
%rep 2
    ROW_LOAD m0, [cbq + xq * %%bs + 8 * %%k * %%bs], %1
    ROW_LOAD m1, [crq + xq * %%bs + 8 * %%k * %%bs], %1
    mova    m12, m4
    vfmadd231ps m12, m0, m2
    vfmadd231ps m12, m1, m3
    addps   m12, [bcbq + 32 * %%k]
    maxps   m12, m8
    minps   m12, m9
    cvttps2dq m12, m12
    ROW_STORE [dcbq + xq * %%bs + 8 * %%k * %%bs], 12, 13, %1
    mova    m12, m7
    vfmadd231ps m12, m0, m5
    vfmadd231ps m12, m1, m6
    addps   m12, [bcrq + 32 * %%k]
    maxps   m12, m10
    minps   m12, m11
    cvttps2dq m12, m12
    ROW_STORE [dcrq + xq * %%bs + 8 * %%k * %%bs], 12, 13, %1
%assign %%k %%k + 1
%endrep
    add     xq, 16
    cmp     xq, wq
    jl .loop
    RET
%endmacro

; LUT8_4 xmm: the floats of the 4 low codes of v into xmm (v shifted by 32)
%macro LUT8_4 1
    movzx   i0d, vb
    movzx   i1d, vw
    shr     i1d, 8
    movd    %1, [lutq + i0q * 4]
    pinsrd  %1, [lutq + i1q * 4], 1
    shr     vq, 16
    movzx   i0d, vb
    movzx   i1d, vw
    shr     i1d, 8
    pinsrd  %1, [lutq + i0q * 4], 2
    pinsrd  %1, [lutq + i1q * 4], 3
    shr     vq, 16
%endmacro

;-----------------------------------------------------------------------------
; void lut(float *c, int w, const float *lut, int n)
; c[x] = lut[min((int)c[x], n - 1)] (and >= 0: garbage cannot read outside lut)
;-----------------------------------------------------------------------------
%macro LUT 0
cglobal cspfix_lut, 4, 6, 6, mmsize, row, w, lut, n, x, i0
    movsxdifnidn wq, wd
    dec     nd
    movd    xm3, nd
    VBROADCASTSS m3, xm3
    pxor    m4, m4
    xor     xq, xq
.loop:
    cvttps2dq m0, [rowq + xq * 4]
    pminsd  m0, m3
    pmaxsd  m0, m4
%if mmsize == 32
    pcmpeqd m2, m2
    pxor    m1, m1                      ; no dependency on the last gather
    vgatherdps m1, [lutq + m0 * 4], m2
%else
    movu    [rsp], m0
    mov     i0d, [rsp]
    movss   m1, [lutq + i0q * 4]
    mov     i0d, [rsp + 4]
    movss   m5, [lutq + i0q * 4]
    unpcklps m1, m5
    mov     i0d, [rsp + 8]
    movss   m2, [lutq + i0q * 4]
    mov     i0d, [rsp + 12]
    movss   m5, [lutq + i0q * 4]
    unpcklps m2, m5
    movlhps m1, m2
%endif
    movu    [rowq + xq * 4], m1
    add     xq, mmsize / 4
    cmp     xq, wq
    jl .loop
    RET

;-----------------------------------------------------------------------------
; void lut8(float *dst, const uint8_t *src, int w, const float *lut)
; dst[x] = lut[src[x]]; reads src up to w exactly (frame rows), writes whole
; vectors of dst (a padded float row). No gathers (vgatherdps is slower than
; scalar code on many x86 cores): 8 codes are read at once into a register and
; taken apart with integer instructions, the floats inserted with pinsrd.
;-----------------------------------------------------------------------------
cglobal cspfix_lut8, 4, 8, 2, dst, src, w, lut, x, v, i0, i1
    movsxdifnidn wq, wd
    xor     xq, xq
    sub     wq, 7
.vec:
    cmp     xq, wq
    jge .tail
    mov     vq, [srcq + xq]
    LUT8_4  xm0
    LUT8_4  xm1
%if mmsize == 32
    vinserti128 m0, m0, xm1, 1
    movu    [dstq + xq * 4], m0
%else
    movu    [dstq + xq * 4], m0
    movu    [dstq + xq * 4 + 16], m1
%endif
    add     xq, 8
    jmp .vec
.tail:
    add     wq, 7
.tail1:
    cmp     xq, wq
    jge .end
    movzx   i0d, byte [srcq + xq]
    movss   xm1, [lutq + i0q * 4]
    movss   [dstq + xq * 4], xm1
    inc     xq
    jmp .tail1
.end:
    RET
%endmacro

;-----------------------------------------------------------------------------
; void affine(float *c, int w, float s, float o)   c = c * s + o
;-----------------------------------------------------------------------------
%macro AFFINE 0
%if UNIX64
cglobal cspfix_affine, 2, 3, 4, row, w, x
%else
cglobal cspfix_affine, 4, 5, 4, row, w, s, o, x
    movss   xm0, sm
    movss   xm1, om
%endif
    movsxdifnidn wq, wd
    VBROADCASTSS m0, xm0
    VBROADCASTSS m1, xm1
    xor     xq, xq
.loop:
    movu    m2, [rowq + xq * 4]
    mulps   m2, m0
    addps   m2, m1
    movu    [rowq + xq * 4], m2
    add     xq, mmsize / 4
    cmp     xq, wq
    jl .loop
    RET
%endmacro

%if ARCH_X86_64
INIT_XMM sse2
AFFINE
INIT_XMM sse4
LUT
%if HAVE_AVX2_EXTERNAL
INIT_YMM avx2
MATRIX
MATRIX_IN 8
MATRIX_IN 16
MATRIX_OUT 8
MATRIX_OUT 16
YROW 8
YROW 16
CROW 8
CROW 16
AFFINE
LUT

%endif ; HAVE_AVX2_EXTERNAL

;-----------------------------------------------------------------------------
; void tf(float *c0, float *c1, float *c2, int w, const CspfixTFTable *t)
; (AVX2+FMA3: the polynomials are fused multiply-adds, as fmaf() in C)
; No gathers (slow on many x86 cores): each lane loads its segment's 4
; coefficients with one 16-byte load, and a 4x4 transpose per 128-bit lane turns
; them into coefficient vectors. The rows go in blocks of TF_BLOCK samples, in
; two passes: the segment byte offsets (the float's top 15 bits, sign included,
; times 16) of the whole block to the stack first, then the evaluation, whose
; scalar offset loads then never wait for a store just made.
;-----------------------------------------------------------------------------
%define TF_BLOCK 256

; TF_OFFSETS x, dst: segment byte offsets of the floats in x to the memory dst;
; clobbers x.
%macro TF_OFFSETS 2
    psrld   %1, 23 - 6
    pslld   %1, 4
    mova    %2, %1
%endmacro

; TF_T x: the local variable t of the floats in x, in place. Needs m11
; tf_mantmask, m12 tf_tscale.
%macro TF_T 1
    pand    %1, m11
    cvtdq2ps %1, %1
    mulps   %1, m12
%endmacro

; TF_EVAL table, t, dst, addr: dst = the cubics of the segments whose byte
; offsets are at [addr] evaluated at t (dst may be t). Clobbers m0-m3, m5, m6
; (but not t), i0, i1.
%macro TF_EVAL 4
    ; m<k>: lanes k and k + 4
    mov     i0d, [%4 + 0]
    mov     i1d, [%4 + 16]
    movu    xm0, [%1 + i0q]
    vinsertf128 m0, m0, [%1 + i1q], 1
    mov     i0d, [%4 + 4]
    mov     i1d, [%4 + 20]
    movu    xm1, [%1 + i0q]
    vinsertf128 m1, m1, [%1 + i1q], 1
    mov     i0d, [%4 + 8]
    mov     i1d, [%4 + 24]
    movu    xm2, [%1 + i0q]
    vinsertf128 m2, m2, [%1 + i1q], 1
    mov     i0d, [%4 + 12]
    mov     i1d, [%4 + 28]
    movu    xm3, [%1 + i0q]
    vinsertf128 m3, m3, [%1 + i1q], 1
    ; m0..m3: c0 c1 c2 c3 of lanes 0..3 (per 128-bit half)
    unpcklps m5, m0, m1                 ; c0_0 c0_1 c1_0 c1_1
    unpckhps m0, m1                     ; c2_0 c2_1 c3_0 c3_1
    unpcklps m6, m2, m3                 ; c0_2 c0_3 c1_2 c1_3
    unpckhps m2, m3                     ; c2_2 c2_3 c3_2 c3_3
    unpckhpd m1, m0, m2                 ; c3
    unpcklpd m0, m2                     ; c2
    vfmadd213ps m1, %2, m0              ; c3 t + c2
    unpckhpd m3, m5, m6                 ; c1
    unpcklpd m5, m6                     ; c0
    vfmadd213ps m1, %2, m3
    vfmadd213ps m1, %2, m5
    mova    %3, m1
%endmacro

%macro TF_CONSTANTS 0
    mova    m11, [tf_mantmask]
    mova    m12, [tf_tscale]
%endmacro

; TF_BLOCK_START: end = min(x + TF_BLOCK, w), p = rsp - 4 x (so that [p + 4 x]
; is the block's first stack slot), x0 = x.
%macro TF_BLOCK_START 0
    lea     endq, [xq + TF_BLOCK]
    cmp     endq, wq
    cmovg   endq, wq
    mov     x0q, xq
    mov     pq, xq
    neg     pq
    lea     pq, [rsp + pq * 4]
%endmacro

%macro TF 0
cglobal cspfix_tf, 5, 11, 13, 3 * TF_BLOCK * 4, c0, c1, c2, w, t, x, i0, i1, p, end, x0
    movsxdifnidn wq, wd
    TF_CONSTANTS
    xor     xq, xq
.block:
    TF_BLOCK_START
.offsets:
    movu    m7, [c0q + xq * 4]
    movu    m8, [c1q + xq * 4]
    movu    m9, [c2q + xq * 4]
    TF_OFFSETS m7, [pq + xq * 4]
    TF_OFFSETS m8, [pq + xq * 4 + TF_BLOCK * 4]
    TF_OFFSETS m9, [pq + xq * 4 + TF_BLOCK * 8]
    add     xq, mmsize / 4
    cmp     xq, endq
    jl .offsets
    mov     xq, x0q
.eval:
    movu    m7, [c0q + xq * 4]
    movu    m8, [c1q + xq * 4]
    movu    m9, [c2q + xq * 4]
    TF_T    m7
    TF_T    m8
    TF_T    m9
    TF_EVAL tq, m7, m7, pq + xq * 4
    movu    [c0q + xq * 4], m7
    TF_EVAL tq, m8, m8, pq + xq * 4 + TF_BLOCK * 4
    movu    [c1q + xq * 4], m8
    TF_EVAL tq, m9, m9, pq + xq * 4 + TF_BLOCK * 8
    movu    [c2q + xq * 4], m9
    add     xq, mmsize / 4
    cmp     xq, endq
    jl .eval
    cmp     xq, wq
    jl .block
    RET
%endmacro

;-----------------------------------------------------------------------------
; void tonemap(float *c0, float *c1, float *c2, int w, const float k[3],
;              const CspfixTFTable *gain, const CspfixTFTable *desat)
; m = max(c0, c1, c2); c *= gain(m); with desat: y = (k0 r + k1 g) + k2 b,
; c = c + desat(m) * (y - c). maxps a, b is a > b ? a : b, as in C. Both
; tables are read at the same segments; two passes per block as in tf.
;-----------------------------------------------------------------------------
%macro TONEMAP_MAX 0 ; m4 = max(m7, m8, m9) of the rows at x
    movu    m7, [c0q + xq * 4]
    movu    m8, [c1q + xq * 4]
    movu    m9, [c2q + xq * 4]
    maxps   m4, m7, m8
    maxps   m4, m9
%endmacro

%macro TONEMAP 0
cglobal cspfix_tonemap, 7, 13, 16, TF_BLOCK * 4, c0, c1, c2, w, k, gain, desat, x, i0, i1, p, end, x0
    movsxdifnidn wq, wd
    TF_CONSTANTS
    VBROADCASTSS m13, [kq]
    VBROADCASTSS m14, [kq + 4]
    VBROADCASTSS m15, [kq + 8]
    xor     xq, xq
.block:
    TF_BLOCK_START
.offsets:
    TONEMAP_MAX
    TF_OFFSETS m4, [pq + xq * 4]
    add     xq, mmsize / 4
    cmp     xq, endq
    jl .offsets
    mov     xq, x0q
    test    desatq, desatq
    jnz .eval_desat
.eval:
    TONEMAP_MAX
    TF_T    m4
    TF_EVAL gainq, m4, m1, pq + xq * 4
    mulps   m7, m1
    mulps   m8, m1
    mulps   m9, m1
    movu    [c0q + xq * 4], m7
    movu    [c1q + xq * 4], m8
    movu    [c2q + xq * 4], m9
    add     xq, mmsize / 4
    cmp     xq, endq
    jl .eval
    jmp .next
.eval_desat:
    TONEMAP_MAX
    TF_T    m4
    TF_EVAL gainq, m4, m1, pq + xq * 4
    mulps   m7, m1
    mulps   m8, m1
    mulps   m9, m1
    TF_EVAL desatq, m4, m4, pq + xq * 4 ; desat(m)
    mulps   m2, m13, m7
    mulps   m3, m14, m8
    addps   m2, m3
    mulps   m10, m15, m9
    addps   m2, m10                     ; y
    subps   m3, m2, m7
    mulps   m3, m4
    addps   m7, m3
    subps   m3, m2, m8
    mulps   m3, m4
    addps   m8, m3
    subps   m3, m2, m9
    mulps   m3, m4
    addps   m9, m3
    movu    [c0q + xq * 4], m7
    movu    [c1q + xq * 4], m8
    movu    [c2q + xq * 4], m9
    add     xq, mmsize / 4
    cmp     xq, endq
    jl .eval_desat
.next:
    cmp     xq, wq
    jl .block
    RET
%endmacro

%if HAVE_AVX2_EXTERNAL
INIT_YMM avx2
TF
TONEMAP

;-----------------------------------------------------------------------------
; void unpack_8(float *dst, const uint8_t *src, int w)
; void unpack_16(float *dst, const uint8_t *src, int w)
;-----------------------------------------------------------------------------
%macro UNPACK 0
cglobal cspfix_unpack_8, 3, 5, 2, dst, src, w, x, val
    movsxdifnidn wq, wd
    xor     xq, xq
    lea     valq, [wq - (mmsize / 4 - 1)]
.loop:
    cmp     xq, valq
    jge .tail
    pmovzxbd m0, [srcq + xq]
    cvtdq2ps m0, m0
    movu    [dstq + xq * 4], m0
    add     xq, mmsize / 4
    jmp .loop
.tail:
    cmp     xq, wq
    jge .end
    movzx   vald, byte [srcq + xq]
    cvtsi2ss xm0, vald
    movss   [dstq + xq * 4], xm0
    inc     xq
    jmp .tail
.end:
    RET

cglobal cspfix_unpack_16, 3, 5, 2, dst, src, w, x, val
    movsxdifnidn wq, wd
    xor     xq, xq
    lea     valq, [wq - (mmsize / 4 - 1)]
.loop:
    cmp     xq, valq
    jge .tail
    pmovzxwd m0, [srcq + xq * 2]
    cvtdq2ps m0, m0
    movu    [dstq + xq * 4], m0
    add     xq, mmsize / 4
    jmp .loop
.tail:
    cmp     xq, wq
    jge .end
    movzx   vald, word [srcq + xq * 2]
    cvtsi2ss xm0, vald
    movss   [dstq + xq * 4], xm0
    inc     xq
    jmp .tail
.end:
    RET
%endmacro

INIT_XMM sse4
UNPACK
INIT_YMM avx2
UNPACK

;-----------------------------------------------------------------------------
; Shared by pack_8/16 and pack_x2_8: m4, m5 = (int)min(max(src[x..] + bias, lo), hi)
; of 2 vectors (m0 = lo, m1 = hi; AVX2: m2, m3 = bias[0..15], the loop steps 16;
; SSE: the loop steps 8 and loads the bias half of x into m2, m3).
%macro PACK_CLAMP2 0
%if mmsize == 32
    addps   m4, m2, [srcq + xq * 4]
    addps   m5, m3, [srcq + xq * 4 + 32]
%else
    mov     bidxq, xq
    and     bidxq, 8
    movu    m4, [srcq + xq * 4]
    movu    m5, [srcq + xq * 4 + 16]
    movu    m2, [biasq + bidxq * 4]
    movu    m3, [biasq + bidxq * 4 + 16]
    addps   m4, m2
    addps   m5, m3
%endif
    maxps   m4, m0
    maxps   m5, m0
    minps   m4, m1
    minps   m5, m1
    cvttps2dq m4, m4
    cvttps2dq m5, m5
%endmacro

; PACK_TAIL store: the samples after the vector loop one by one (xm6, xm7 = lo, hi),
; each stored by "store val" (e.g. mov [dstq + xq], valb)
%macro PACK_TAIL 1
.tail:
    cmp     xq, wq
    jge .end
    mov     bidxq, xq
    and     bidxq, 15
    movss   xm4, [srcq + xq * 4]
    addss   xm4, [biasq + bidxq * 4]
    maxss   xm4, xm6
    minss   xm4, xm7
    cvttss2si vald, xm4
    mov     %1
    inc     xq
    jmp .tail
.end:
    RET
%endmacro

;-----------------------------------------------------------------------------
; void pack_8(uint8_t *dst, const float *src, int w, const float *bias, float lo, float hi)
; void pack_16(...)   dst[x] = (int)min(max(src[x] + bias[x & 15], lo), hi)
;-----------------------------------------------------------------------------
%macro PACK 1 ; 8 or 16
%if UNIX64
cglobal cspfix_pack_%1, 4, 7, 8, dst, src, w, bias, x, val, bidx
%else
cglobal cspfix_pack_%1, 6, 7, 8, dst, src, w, bias, lo, hi, x
    movss   xm0, lom
    movss   xm1, him
    DEFINE_ARGS dst, src, w, bias, val, bidx, x
%endif
    movsxdifnidn wq, wd
    movss   xm6, xm0                    ; scalar lo, hi for the tail
    movss   xm7, xm1
    VBROADCASTSS m0, xm0
    VBROADCASTSS m1, xm1
    movu    m2, [biasq]
    movu    m3, [biasq + 32]
    xor     xq, xq
    lea     valq, [wq - (mmsize / 2 - 1)]
.loop:
    cmp     xq, valq
    jge .tail
    PACK_CLAMP2
    packusdw m4, m5
%if mmsize == 32
    vpermq  m4, m4, q3120
%if %1 == 8
    vextracti128 xm5, m4, 1
    packuswb xm4, xm5
    movu    [dstq + xq], xm4
%else
    movu    [dstq + xq * 2], m4
%endif
%else
%if %1 == 8
    packuswb m4, m4
    movq    [dstq + xq], m4
%else
    movu    [dstq + xq * 2], m4
%endif
%endif
    add     xq, mmsize / 2
    jmp .loop
%if %1 == 8
    PACK_TAIL {[dstq + xq], valb}
%else
    PACK_TAIL {[dstq + xq * 2], valw}
%endif
%endmacro

PACK 8
PACK 16
INIT_XMM sse4
PACK 8
PACK 16
INIT_YMM avx2

;-----------------------------------------------------------------------------
; void blend(float *dst, const float *a, const float *b, int w, float wa, float wb)
;   dst = a * wa + b * wb
; void filter3(float *dst, const float *a, const float *b, const float *c, int w)
;   dst = ((a + b) + (b + c)) * 0.25
; void filter4(float *dst, const float *a, const float *b, const float *c,
;              const float *d, int w)
;   dst = ((a + d) + (b + c) * 3) * 0.125
;-----------------------------------------------------------------------------
%macro FILTERS 0
cglobal cspfix_blend, 4, 5, 6, dst, ra, rb, w, x
%if WIN64
    movss   xm0, r4m
    movss   xm1, r5m
%endif
    movsxdifnidn wq, wd
    VBROADCASTSS m0, xm0
    VBROADCASTSS m1, xm1
    xor     xq, xq
.loop:
    movu    m2, [raq + xq * 4]
    movu    m3, [rbq + xq * 4]
    mulps   m2, m0
    mulps   m3, m1
    addps   m2, m3
    movu    [dstq + xq * 4], m2
    add     xq, mmsize / 4
    cmp     xq, wq
    jl .loop
    RET

cglobal cspfix_filter3, 5, 6, 4, dst, ra, rb, rc, w, x
    movsxdifnidn wq, wd
    VBROADCASTSS m3, [quarter]
    xor     xq, xq
.loop:
    movu    m1, [rbq + xq * 4]
    movu    m0, [raq + xq * 4]
    movu    m2, [rcq + xq * 4]
    addps   m0, m1
    addps   m1, m2
    addps   m0, m1
    mulps   m0, m3
    movu    [dstq + xq * 4], m0
    add     xq, mmsize / 4
    cmp     xq, wq
    jl .loop
    RET

cglobal cspfix_filter4, 6, 7, 5, dst, ra, rb, rc, rd, w, x
    movsxdifnidn wq, wd
    VBROADCASTSS m3, [eighth]
    VBROADCASTSS m4, [three]
    xor     xq, xq
.loop:
    movu    m0, [raq + xq * 4]
    movu    m2, [rdq + xq * 4]
    addps   m0, m2
    movu    m1, [rbq + xq * 4]
    movu    m2, [rcq + xq * 4]
    addps   m1, m2
    mulps   m1, m4
    addps   m0, m1
    mulps   m0, m3
    movu    [dstq + xq * 4], m0
    add     xq, mmsize / 4
    cmp     xq, wq
    jl .loop
    RET
%endmacro

INIT_XMM sse2
FILTERS
INIT_YMM avx2
FILTERS

;-----------------------------------------------------------------------------
; STORE_PAIRS even, odd, t0, t1: stores even[0] odd[0] even[1] odd[1] ... at
; dst + ci * 8 (2 * mmsize bytes); clobbers all four registers.
;-----------------------------------------------------------------------------
%macro STORE_PAIRS 4
    unpcklps %3, %1, %2
    unpckhps %4, %1, %2
%if mmsize == 32
    vperm2f128 %1, %3, %4, 0x20
    vperm2f128 %2, %3, %4, 0x31
    movu    [dstq + ciq * 8], %1
    movu    [dstq + ciq * 8 + mmsize], %2
%else
    movu    [dstq + ciq * 8], %3
    movu    [dstq + ciq * 8 + mmsize], %4
%endif
%endmacro

;-----------------------------------------------------------------------------
; void upsample_h2(float *dst, const float *src, int w, int phase)
; src carries replicated edges: src[-1] = src[0], src[cw] = src[cw - 1].
; Output pairs 2k, 2k+1 from src[k-1], src[k], src[k+1]:
;   phase 0: src[k], (src[k] + src[k+1]) * 0.5
;   phase 1: src[k-1] * 0.25 + src[k] * 0.75, src[k] * 0.75 + src[k+1] * 0.25
;-----------------------------------------------------------------------------
%macro UPSAMPLE 0
cglobal cspfix_upsample_h2, 4, 5, 8, dst, src, w, ph, ci
    movsxdifnidn wq, wd
    add     wq, 1
    shr     wq, 1                       ; chroma samples to produce pairs for
    VBROADCASTSS m5, [half]
    VBROADCASTSS m6, [quarter]
    VBROADCASTSS m7, [threequarters]
    xor     ciq, ciq
    test    phd, phd
    jnz .phase1
.phase0:
    movu    m0, [srcq + ciq * 4]         ; s[k..k+7]
    movu    m1, [srcq + ciq * 4 + 4]
    addps   m1, m0                      ; s[k] + s[k+1]
    mulps   m1, m5
    STORE_PAIRS m0, m1, m2, m3          ; even m0, odd m1
    add     ciq, mmsize / 4
    cmp     ciq, wq
    jl .phase0
    RET
.phase1:
    movu    m0, [srcq + ciq * 4]         ; s[k]
    mulps   m1, m0, m7                  ; s[k] * 0.75
    movu    m2, [srcq + ciq * 4 - 4]
    mulps   m2, m6                      ; s[k-1] * 0.25
    addps   m2, m1                      ; even outputs
    movu    m3, [srcq + ciq * 4 + 4]
    mulps   m3, m6                      ; s[k+1] * 0.25
    addps   m3, m1, m3                  ; odd outputs: s[k]*0.75 + s[k+1]*0.25
    STORE_PAIRS m2, m3, m0, m1          ; even m2, odd m3
    add     ciq, mmsize / 4
    cmp     ciq, wq
    jl .phase1
    RET
%endmacro

INIT_XMM sse2
UPSAMPLE
INIT_YMM avx2
UPSAMPLE

;-----------------------------------------------------------------------------
; void downsample_h2(float *dst, const float *src, int w, int phase)
; Needs the caller's edges src[-1] = src[0], src[w] = src[w + 1] = src[w - 1].
; a, b, c, d = src[2k - 1], src[2k], src[2k + 1], src[2k + 2]: even/odd samples
; of three windows, in the lane order of shufps; one vpermpd puts them right.
;-----------------------------------------------------------------------------
%macro DOWNSAMPLE 0
cglobal cspfix_downsample_h2, 4, 5, 10, dst, src, w, ph, ki
    movsxdifnidn wq, wd
    inc     wq
    shr     wq, 1                       ; cw
    xor     kiq, kiq
    VBROADCASTSS m7, [three]
    VBROADCASTSS m8, [quarter]
    VBROADCASTSS m9, [eighth]
    test    phd, phd
    jnz .phase1
.phase0:
    movu    m0, [srcq + kiq * 8 - 4]
    movu    m1, [srcq + kiq * 8 + mmsize - 4]
    shufps  m2, m0, m1, q2020           ; a
    movu    m3, [srcq + kiq * 8]
    movu    m4, [srcq + kiq * 8 + mmsize]
    shufps  m5, m3, m4, q2020           ; b
    shufps  m6, m3, m4, q3131           ; c
    addps   m2, m5
    addps   m5, m6
    addps   m2, m5
    mulps   m2, m8
%if mmsize == 32
    vpermpd m2, m2, q3120
%endif
    movu    [dstq + kiq * 4], m2
    add     kiq, mmsize / 4
    cmp     kiq, wq
    jl .phase0
    RET
.phase1:
    movu    m0, [srcq + kiq * 8 - 4]
    movu    m1, [srcq + kiq * 8 + mmsize - 4]
    shufps  m2, m0, m1, q2020           ; a
    movu    m0, [srcq + kiq * 8 + 8]
    movu    m1, [srcq + kiq * 8 + mmsize + 8]
    shufps  m0, m1, q2020               ; d
    movu    m3, [srcq + kiq * 8]
    movu    m4, [srcq + kiq * 8 + mmsize]
    shufps  m5, m3, m4, q2020           ; b
    shufps  m6, m3, m4, q3131           ; c
    addps   m2, m0
    addps   m5, m6
    mulps   m5, m7
    addps   m2, m5
    mulps   m2, m9
%if mmsize == 32
    vpermpd m2, m2, q3120
%endif
    movu    [dstq + kiq * 4], m2
    add     kiq, mmsize / 4
    cmp     kiq, wq
    jl .phase1
    RET
%endmacro

INIT_XMM sse2
DOWNSAMPLE
INIT_YMM avx2
DOWNSAMPLE

;-----------------------------------------------------------------------------
; void unpack_x2_8(float *dst, const uint8_t *src, int w)
; void pack_x2_8(uint8_t *dst, const float *src, int w, const float *bias, float lo, float hi)
; 8-bit samples every 2 bytes (semi-planar chroma). Our samples sit at the even
; bytes from src/dst; the odd bytes belong to the other component: pack keeps
; them (read-modify-write). Vector loops stop early enough never to touch a
; byte past the last sample pair, whichever of the two components src is.
;-----------------------------------------------------------------------------
%macro X2 0
cglobal cspfix_unpack_x2_8, 3, 5, 3, dst, src, w, x, val
    movsxdifnidn wq, wd
    mova    m2, [x2_lowbyte]
    xor     xq, xq
    lea     valq, [wq - mmsize / 4]
.loop:
    cmp     xq, valq
    jge .tail
    pmovzxwd m0, [srcq + xq * 2]
    pand    m0, m2
    cvtdq2ps m0, m0
    movu    [dstq + xq * 4], m0
    add     xq, mmsize / 4
    jmp .loop
.tail:
    cmp     xq, wq
    jge .end
    movzx   vald, byte [srcq + xq * 2]
    cvtsi2ss xm0, vald
    movss   [dstq + xq * 4], xm0
    inc     xq
    jmp .tail
.end:
    RET

; 16 (AVX2) or 8 (SSE4.1) samples per step, the bias row's matching half for SSE
%if UNIX64
cglobal cspfix_pack_x2_8, 4, 7, 9, dst, src, w, bias, x, val, bidx
%else
cglobal cspfix_pack_x2_8, 6, 7, 9, dst, src, w, bias, lo, hi, x
    movss   xm0, lom
    movss   xm1, him
    DEFINE_ARGS dst, src, w, bias, val, bidx, x
%endif
    movsxdifnidn wq, wd
    movss   xm6, xm0                    ; scalar lo, hi for the tail
    movss   xm7, xm1
%if mmsize == 32
    VBROADCASTSS m0, xm0
    VBROADCASTSS m1, xm1
    movu    m2, [biasq]
    movu    m3, [biasq + 32]
%else
    shufps  m0, m0, 0
    shufps  m1, m1, 0
%endif
    mova    m8, [x2_keepodd]
    xor     xq, xq
    lea     valq, [wq - mmsize / 2]
.loop:
    cmp     xq, valq
    jge .tail
    PACK_CLAMP2
    packusdw m4, m5
%if mmsize == 32
    vpermq  m4, m4, q3120               ; 16 words, each a sample in its low byte
%endif
    movu    m5, [dstq + xq * 2]
    pand    m5, m8
    por     m4, m5
    movu    [dstq + xq * 2], m4
    add     xq, mmsize / 2
    jmp .loop
    PACK_TAIL {[dstq + xq * 2], valb}
%endmacro

INIT_XMM sse4
X2
INIT_YMM avx2
X2
%endif ; HAVE_AVX2_EXTERNAL

;-----------------------------------------------------------------------------
; void map8(uint8_t *dst, const uint8_t *src, int w, const CspfixMap8 *m)
; out = clip(((x * mul) >> 8 + add) >> shift, lo, hi), in int16 lanes: the bytes
; interleaved above zeros are x << 8, and pmulhuw(x << 8, mul) is (x * mul) >> 8.
; Unpacking and packing within 128-bit lanes keeps the order. The clamp to [lo, hi]
; is left out when m->clip says no code needs it (packuswb saturates to [0, 255]).
; m1 = mul, m2 = add, xm3 = shift, m4/m6 = lo/hi bytes, m5 = 0
;-----------------------------------------------------------------------------
%define MAP8_CLIP 10                    ; offsetof(CspfixMap8, clip)

%macro MAP8_WORDS 3 ; words of x << 8 in place; mul, add
    pmulhuw %1, %2
    paddw   %1, %3
    psraw   %1, xm3
%endmacro

; MAP8_HALF dst, src, clip: mmsize / 2 codes (xmm registers with AVX2)
%macro MAP8_HALF 3
%if mmsize == 32
    movu    xm0, %2
    punpckhbw xm7, xm5, xm0
    punpcklbw xm8, xm5, xm0
    MAP8_WORDS xm8, xm1, xm2
    MAP8_WORDS xm7, xm1, xm2
    packuswb xm0, xm8, xm7
%else
    movq    m0, %2
    punpcklbw m8, m5, m0
    MAP8_WORDS m8, m1, m2
    packuswb m0, m8, m8
%endif
%if %3
    pmaxub  xm0, xm4
    pminub  xm0, xm6
%endif
%if mmsize == 32
    movu    %1, xm0
%else
    movq    %1, m0
%endif
%endmacro

; MAP8_FULL dst, src, clip: mmsize codes
%macro MAP8_FULL 3
    movu    m0, [%2]
    punpckhbw m7, m5, m0
    punpcklbw m8, m5, m0
    MAP8_WORDS m8, m1, m2
    MAP8_WORDS m7, m1, m2
    packuswb m0, m8, m7
%if %3
    pmaxub  m0, m4
    pminub  m0, m6
%endif
    movu    [%1], m0
%endmacro

; MAP8_ROW clip: the row (w >= mmsize / 2 in wq)
%macro MAP8_ROW 1
    xor     xq, xq
    sub     wq, mmsize                  ; whole vectors while they fit
    jl .single%1
.loop%1:
    MAP8_FULL dstq + xq, srcq + xq, %1
    add     xq, mmsize
    cmp     xq, wq
    jle .loop%1
.single%1:
    add     wq, mmsize / 2              ; the last half vector ends exactly at w
.half%1:
    cmp     xq, wq
    jge .last%1
    MAP8_HALF [dstq + xq], [srcq + xq], %1
    add     xq, mmsize / 2
    jmp .half%1
.last%1:
    MAP8_HALF [dstq + wq], [srcq + wq], %1
    RET
%endmacro

%macro MAP8 0
cglobal cspfix_map8, 4, 6, 9, mmsize, dst, src, w, m, x, val
    movsxdifnidn wq, wd
%if mmsize == 32
    vpbroadcastw m1, [mq]
    vpbroadcastw m2, [mq + 2]
    movd    xm3, [mq + 4]
    vpbroadcastb m4, [mq + 8]
    vpbroadcastb m6, [mq + 9]
%else
    movd    m1, [mq]
    pshuflw m1, m1, 0
    punpcklqdq m1, m1
    movd    m2, [mq + 2]
    pshuflw m2, m2, 0
    punpcklqdq m2, m2
    movd    m3, [mq + 4]
    movd    m4, [mq + 8]
    punpcklbw m4, m4
    pshuflw m6, m4, q1111
    pshuflw m4, m4, q0000
    punpcklqdq m4, m4
    punpcklqdq m6, m6
%endif
    pxor    m5, m5
    cmp     wq, mmsize / 2
    jl .small
    cmp     byte [mq + MAP8_CLIP], 0
    je .noclip
    MAP8_ROW 1
.noclip:
    MAP8_ROW 0
.small:                                 ; w < half a vector: through the stack
    test    wq, wq
    jle .end
    xor     xq, xq
.copyin:
    movzx   vald, byte [srcq + xq]
    mov     [rsp + xq], valb
    inc     xq
    cmp     xq, wq
    jl .copyin
    MAP8_HALF [rsp + mmsize / 2], [rsp], 1
    xor     xq, xq
.copyout:
    movzx   vald, byte [rsp + mmsize / 2 + xq]
    mov     [dstq + xq], valb
    inc     xq
    cmp     xq, wq
    jl .copyout
.end:
    RET
%endmacro

INIT_XMM sse2
MAP8
%if HAVE_AVX2_EXTERNAL
INIT_YMM avx2
MAP8
%endif

;-----------------------------------------------------------------------------
; void map16(uint16_t *dst, const uint16_t *src, int w, const CspfixMap16 *m)
; out = (int)min(max(x * s + o + 0.5, lo), hi): unpack_16, affine and pack_16 in one
; pass, with their operations in their order
;-----------------------------------------------------------------------------
; MAP16_VEC dst, src: mmsize / 2 codes (m2 s, m3 o, m4 0.5, m5 lo, m6 hi)
%macro MAP16_VEC 2
    pmovzxwd m0, [%2]
    pmovzxwd m1, [%2 + mmsize / 2]
    cvtdq2ps m0, m0
    cvtdq2ps m1, m1
    mulps   m0, m2
    mulps   m1, m2
    addps   m0, m3
    addps   m1, m3
    addps   m0, m4
    addps   m1, m4
    maxps   m0, m5
    maxps   m1, m5
    minps   m0, m6
    minps   m1, m6
    cvttps2dq m0, m0
    cvttps2dq m1, m1
    packusdw m0, m1
%if mmsize == 32
    vpermq  m0, m0, q3120
%endif
    movu    [%1], m0
%endmacro

%macro MAP16 0
cglobal cspfix_map16, 4, 6, 7, mmsize, dst, src, w, m, x, val
    movsxdifnidn wq, wd
    VBROADCASTSS m2, [mq]
    VBROADCASTSS m3, [mq + 4]
    VBROADCASTSS m5, [mq + 8]
    VBROADCASTSS m6, [mq + 12]
    VBROADCASTSS m4, [half]
    add     wq, wq                      ; bytes
    cmp     wq, mmsize
    jl .small
    xor     xq, xq
    sub     wq, mmsize
.loop:                                  ; whole vectors, then one ending exactly at w
    MAP16_VEC dstq + xq, srcq + xq
    add     xq, mmsize
    cmp     xq, wq
    jl .loop
    MAP16_VEC dstq + wq, srcq + wq
    RET
.small:                                 ; w < one vector: through the stack
    test    wq, wq
    jle .end
    xor     xq, xq
.copyin:
    movzx   vald, word [srcq + xq]
    mov     [rsp + xq], valw
    add     xq, 2
    cmp     xq, wq
    jl .copyin
    MAP16_VEC rsp, rsp
    xor     xq, xq
.copyout:
    movzx   vald, word [rsp + xq]
    mov     [dstq + xq], valw
    add     xq, 2
    cmp     xq, wq
    jl .copyout
.end:
    RET
%endmacro

INIT_XMM sse4
MAP16
%if HAVE_AVX2_EXTERNAL
INIT_YMM avx2
MAP16
%endif
%endif ; ARCH_X86_64
