;*****************************************************************************
;* SIMD kernels of the cspfix filter, stage family: in-place float32 rows of
;* three components (matrix, affine, tf, tonemap, clip, gamut_desat/compress,
;* lut3d; AVX2 and AVX-512, affine also SSE2), bit-exact with the C versions in
;* libavfilter/cspfix_dsp.c: the same operations in the same order, with fused
;* multiply-adds (FMA3) exactly where the C code calls fmaf() (matrix and the
;* transfer tables' polynomials), nowhere else.
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

; transfer tables, see libavfilter/cspfix_tf.h; pinned by static_assert in
; x86/cspfix_init.c: CSPFIX_TF_SEG_BITS, 16-byte segments at offset 0
%define TF_SEG_BITS     6                       ; top mantissa bits selecting a segment
%define TF_MANT_BITS    (23 - TF_SEG_BITS)      ; mantissa bits of t (CSPFIX_TF_SHIFT)
%define TF_SEG_LOG2SIZE 4                       ; bytes per segment: 4 floats
; the power form (CspfixTFPower), right after the segments
%define TF_POW      (1 << (32 - TF_MANT_BITS + TF_SEG_LOG2SIZE))
%define TF_POW_ON   (TF_POW + 0)
%define TF_POW_LO   (TF_POW + 4)
%define TF_POW_SPAN (TF_POW + 8)
%define TF_POW_T1   (TF_POW + 12)
%define TF_POW_P    (TF_POW + 16)                ; CSPFIX_TF_POW_DEG + 1 floats
%define TF_POW_S    (TF_POW + 64)                ; 32 floats (p has 12 places)
%define TF_POW_S1   (TF_POW + 192)
%define TF_POW_C1   (TF_POW + 196)
%define TF_POW_DEGREE (TF_POW + 200)              ; deg: 5, 6 or 7
%define TF_POW_DEG  7
%define TF_IN_SCALE (TF_POW + 256)               ; CspfixTFTable.in_scale: 16 floats
%define TF_IN_FLOOR (TF_POW + 320)               ; CspfixTFTable.in_floor: 16 floats

SECTION_RODATA 32

tf_fracmask_v: times 8 dd 0x007fffff    ; the power form's m = (a & fracmask) | 1.0
tf_one_v:      times 8 dd 1.0
tf_pow_top8_v: times 8 dd 0x3c000000 - 1 ; bits of 2^-7, minus 1 (the AVX2 tf's top 8 octaves)
tf_pow_top16_v: times 8 dd 0x38000000  ; bits of 2^-15 (the AVX2 tf's four-vector step: the top 16 octaves)
tf_pow_out16_v: times 8 dd 0xf8000000  ; x - 2^-15 outside [0, 2^27): x outside [2^-15, 2)
tf_mantmask: dd (1 << TF_MANT_BITS) - 1   ; the mantissa bits of t (broadcast)
tf_tscale:   dd (127 - TF_MANT_BITS) << 23 ; 2^-TF_MANT_BITS (broadcast)
tf_absmask:  dd 0x7fffffff
gamut_one:   dd 1.0
gamut_sign:  dd 0x80000000

SECTION .text

; (No argument is named c or d: x86inc would turn cmp and dd into their operands.)
; The float rows of the filter have at least 16 floats of padding: the in-place
; float kernels below process whole vectors and may read and write it.
; Kernels that touch frame rows (pack, unpack) stop exactly at w.

;-----------------------------------------------------------------------------
; void matrix(float *c0, float *c1, float *c2, int w, const float m[12])
; c_i = fma(m[4i+2], c2, fma(m[4i+1], c1, fma(m[4i], c0, m[4i+3]))) (AVX2+FMA3)
;-----------------------------------------------------------------------------
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
; ROW2 name, a, b, op_a, op_b: void name(float *c, int w, float a, float b):
; c = op_b(op_a(c, a), b) on one row
; void affine(float *c, int w, float s, float o)   c = c * s + o
; void clip(float *c, int w, float lo, float hi)   c = min(max(c, lo), hi)
; (maxps a, b is a > b ? a : b and minps a, b is a < b ? a : b, as in C)
;-----------------------------------------------------------------------------
%macro ROW2 5
%if UNIX64
cglobal cspfix_%1, 2, 3, 4, row, w, x
%else
cglobal cspfix_%1, 4, 5, 4, row, w, %2, %3, x
    movss   xmm0, %2 %+ m
    movss   xmm1, %3 %+ m
%endif
    movsxdifnidn wq, wd
    VBROADCASTSS m0, xmm0               ; the arguments' registers, which with
    VBROADCASTSS m1, xmm1               ; AVX-512 are not xm0, xm1
    xor     xq, xq
.loop:
    movu    m2, [rowq + xq * 4]
    %4      m2, m0
    %5      m2, m1
    movu    [rowq + xq * 4], m2
    add     xq, mmsize / 4
    cmp     xq, wq
    jl .loop
    RET
%endmacro

%macro AFFINE 0
    ROW2 affine, s, o, mulps, addps
%endmacro

;-----------------------------------------------------------------------------
; void tf(float *c0, float *c1, float *c2, int w, const CspfixTFTable *t)
; (AVX2, or AVX-512 for tables with the power form only; with FMA3: the polynomials are fused multiply-adds, as fmaf()
; in C) No gathers (slow on many x86 cores): each lane loads its segment's 4
; coefficients with one 16-byte load (into a 128-bit part of a vector), and a 4x4
; transpose per 128-bit lane turns them into coefficient vectors. The rows go in
; blocks of TF_BLOCK samples, in two passes: the segment byte offsets (the float's top 15 bits, sign included,
; times 16) of the whole block to the stack first, then the evaluation, whose
; scalar offset loads then never wait for a store just made.
;-----------------------------------------------------------------------------
%define TF_BLOCK 256

; TF_OFFSETS x, dst: segment byte offsets of the floats in x to the memory dst;
; clobbers x.
%macro TF_OFFSETS 2
    psrld   %1, TF_MANT_BITS
    pslld   %1, TF_SEG_LOG2SIZE
    mova    %2, %1
%endmacro

; TF_T x: the local variable t of the floats in x, in place. Needs m11
; tf_mantmask, m12 tf_tscale.
%macro TF_T 1
%if mmsize == 64
    vpandd  %1, m11
%else
    pand    %1, m11
%endif
    cvtdq2ps %1, %1
    mulps   %1, m12
%endmacro

; TF_LOAD16 k, part, addr: the 16 bytes at addr into 128-bit part part of m<k>
%macro TF_LOAD16 3
%if %2 == 0
    movu    xm%1, [%3]
%elif mmsize == 64
    vinsertf32x4 m%1, m%1, [%3], %2
%else
    vinsertf128 m%1, m%1, [%3], %2
%endif
%endmacro

; TF_EVAL table, t, dst, addr: dst = the cubics of the segments whose byte
; offsets are at [addr] evaluated at t (dst may be t). Clobbers m0-m3, m5, m6
; (but not t), i0, i1, i2.
%macro TF_EVAL 4
    ; m<k>: lanes k and k + 4 (k + 8 and k + 12 with zmm); the offsets of two lanes
    ; per 64-bit load (k, k + 1: k + 1 for m<k + 1>)
%assign tfk_ 0
%rep 2
%assign tfk1_ tfk_ + 1
%assign tfh_ 0
%rep mmsize / 32
    mov     i0q, [%4 + 4 * tfk_ + 32 * tfh_]
    mov     i1q, [%4 + 4 * tfk_ + 32 * tfh_ + 16]
    mov     i2d, i0d
    shr     i0q, 32
    TF_LOAD16 tfk_, 2 * tfh_, %1 + i2q
    mov     i2d, i1d
    shr     i1q, 32
    TF_LOAD16 tfk_, 2 * tfh_ + 1, %1 + i2q
    TF_LOAD16 tfk1_, 2 * tfh_, %1 + i0q
    TF_LOAD16 tfk1_, 2 * tfh_ + 1, %1 + i1q
%assign tfh_ tfh_ + 1
%endrep
%assign tfk_ tfk_ + 2
%endrep
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
    vpbroadcastd m11, [tf_mantmask]
    vpbroadcastd m12, [tf_tscale]
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

;-----------------------------------------------------------------------------
; The power form (CspfixTFPower in cspfix_tf.h; ff_cspfix_tf_eval_row() in C):
; a = |x|; lanes with a in [lo, lo + span) or a == 0 take
; sign(x) * s[(a >> 23) & 31] * P((a & 0x7fffff | 1.0) - 1), P by one Horner chain
; of fused multiply-adds, P = p0 + u (p1 + ... u (p6 + u p7)), two vectors per step
; (two chains at once); s comes from registers (vpermi2ps over 32 entries with
; AVX-512; four vpermps and three blends with AVX2), P's coefficients from
; registers (AVX-512) or broadcast copies on the stack (AVX2). A vector with any
; other lane also runs the segment lookup (TF_EVAL) and keeps its value there.
; With an affine piece (t1 < 0x7f800000), a step whose two vectors lie wholly in
; it (t1 <= a < lo + span) stores fma(a, s1, c1) with x's sign and skips the rest.
;-----------------------------------------------------------------------------
; AVX-512. m16..m24: p0..p8, m13/m14: s[0..15]/s[16..31], m25: lo, m26: span,
; m27: abs mask, m28: mantissa mask, m29: 1.0
%macro TF_POW_CONSTANTS_ZMM 0
%assign tfp_i 0
%rep TF_POW_DEG + 1
%assign tfp_r 16 + tfp_i
    vbroadcastss m %+ tfp_r, [tq + TF_POW_P + 4 * tfp_i]
%assign tfp_i tfp_i + 1
%endrep
    movu    m13, [tq + TF_POW_S]
    movu    m14, [tq + TF_POW_S + 64]
    vpbroadcastd m25, [tq + TF_POW_LO]
    vpbroadcastd m26, [tq + TF_POW_SPAN]
    vpbroadcastd m27, [tf_absmask]
    vpbroadcastd m28, [tf_fracmask_v]
    vpbroadcastd m29, [tf_one_v]
    vbroadcastss m24, [tq + TF_POW_S1]
    vbroadcastss m5, [tq + TF_POW_C1]
    mova    [rsp + mmsize], m5
    vpbroadcastd m5, [tq + TF_POW_T1]
    mova    [rsp + 2 * mmsize], m5
    mov     i0d, [tq + TF_POW_LO]       ; lo + span - t1 (0 if t1 is above): the
    add     i0d, [tq + TF_POW_SPAN]     ; affine lanes are a - t1 <u that
    xor     i1d, i1d
    sub     i0d, [tq + TF_POW_T1]
    cmovb   i0d, i1d
    vpbroadcastd m5, i0d
    mova    [rsp + 3 * mmsize], m5
%endmacro

; TF_POW_CALC_ZMM x, a, u, y, k, k', t, t', affine, t'', k'', deg: y = the power form of
; the floats in x; k = the lanes that take it; with affine (1), the lanes with
; a >= t1 take fma(a, s1, c1) (m24: s1; c1 and t1 on the stack); clobbers a, u,
; k', t, t', t'', k''
%macro TF_POW_CALC_ZMM 12
    vpandd  %2, %1, m27                 ; a
%if %9
    vpcmpud %11, %2, [rsp + 2 * mmsize], 5 ; a >= t1
    vmovaps %10, %2
    vfmadd213ps %10, m24, [rsp + mmsize]   ; fma(a, s1, c1)
%endif
    vpsubd  %3, %2, m25
    vpcmpud %5, %3, m26, 1              ; a - lo <u span
    vptestnmd %6, %2, %2                ; a == 0
    korw    %5, %5, %6
    vgetmantps %3, %1, 4                ; m in [1, 2) (as (a & fracmask) | 1.0 where
    vsubps  %3, %3, m29                 ; the form applies); u = m - 1
    vpsrld  %2, %2, 23
    vpermi2ps %2, m13, m14              ; s of the exponent's slot
%assign tfp_r 16 + %12
    vmovaps %4, m %+ tfp_r              ; P = p0 + u (p1 + ... u p_deg)
%rep %12
%assign tfp_r tfp_r - 1
    vfmadd213ps %4, %3, m %+ tfp_r
%endrep
    vmulps  %4, %4, %2
%if %9
    vmovaps %4{%11}, %10
%endif
    vpternlogd %4, %1, m27, 0xb4        ; y ^ (x & ~abs): the sign of x
%endmacro

; TF_POW_MIXED_ZMM x, a, y, k, store label: a vector not all in the power form:
; the segment lookup for the lanes not in k (clobbers x, a), then to the store
%macro TF_POW_MIXED_ZMM 5
    mova    %2, %1
    TF_OFFSETS %2, [rsp]
    TF_T    %1
    TF_EVAL tq, %1, %1, rsp
    vmovaps %1{%4}, %3
    mova    %3, %1
    jmp %5
%endmacro

; TF_POW_FAST4_ZMM row, deg: the step of four vectors at x (without an affine piece)
; when every lane is positive and in the window, lo <= x < 2 (most of a picture): no
; sign to put back, no zero, and four Horner chains at once (two keep the FMA units
; waiting on each other's latency); to .pow_pair (the steps below, which take any
; lanes) otherwise. Clobbers m0-m10, m15, k1-k4 (not m11, m12: TF_T).
%macro TF_POW_FAST4_ZMM 2
%assign tfp_i 0
%rep 4
    movu    m %+ tfp_i, [%1 + xq * 4 + tfp_i * mmsize]
%assign tfp_r 4 + tfp_i
    vpsubd  m %+ tfp_r, m %+ tfp_i, m25
%assign tfp_i tfp_i + 1
%endrep
    vpcmpud k1, m4, m26, 1              ; x - lo <u span: in the window (so positive)
    vpcmpud k2, m5, m26, 1
    vpcmpud k3, m6, m26, 1
    vpcmpud k4, m7, m26, 1
    kandw   k1, k1, k2
    kandw   k3, k3, k4
    kandw   k1, k1, k3
    kortestw k1, k1
    jnc .pow_pair_%+tfp_l
%assign tfp_i 0
%rep 4
%assign tfp_r 4 + tfp_i
    vgetmantps m %+ tfp_r, m %+ tfp_i, 4 ; m in [1, 2)
    vsubps  m %+ tfp_r, m %+ tfp_r, m29 ; u = m - 1
    vpsrld  m %+ tfp_i, m %+ tfp_i, 23
    vpermi2ps m %+ tfp_i, m13, m14      ; s of the exponent's slot
%assign tfp_i tfp_i + 1
%endrep
%assign tfp_r 16 + %2
    vmovaps m8, m %+ tfp_r              ; the four chains, interleaved
    vmovaps m9, m %+ tfp_r
    vmovaps m10, m %+ tfp_r
    vmovaps m15, m %+ tfp_r
%rep %2
%assign tfp_r tfp_r - 1
    vfmadd213ps m8, m4, m %+ tfp_r
    vfmadd213ps m9, m5, m %+ tfp_r
    vfmadd213ps m10, m6, m %+ tfp_r
    vfmadd213ps m15, m7, m %+ tfp_r
%endrep
    vmulps  m8, m8, m0
    vmulps  m9, m9, m1
    vmulps  m10, m10, m2
    vmulps  m15, m15, m3
    movu    [%1 + xq * 4], m8
    movu    [%1 + xq * 4 + mmsize], m9
    movu    [%1 + xq * 4 + 2 * mmsize], m10
    movu    [%1 + xq * 4 + 3 * mmsize], m15
    add     xq, 4 * mmsize / 4
    cmp     xq, wq
    jl .pow_loop_%+tfp_l
    jmp .pow_done_%+tfp_l
%endmacro

; TF_POW_ROW_ZMM row, affine, deg: the power form over one row, in place; two vectors
; per iteration (two independent Horner chains), the last one alone if need be
%macro TF_POW_ROW_ZMM 3
%define tfp_l %1 %+ _ %+ %2 %+ _ %+ %3
    xor     xq, xq
.pow_loop_%+tfp_l:
%ifn %2
    lea     i0q, [xq + 4 * mmsize / 4]
    cmp     i0q, wq
    jg .pow_pair_%+tfp_l
    TF_POW_FAST4_ZMM %1, %3
.pow_pair_%+tfp_l:
%endif
    lea     i0q, [xq + mmsize / 4]
    cmp     i0q, wq
    jge .pow_one_%+tfp_l
    movu    m7, [%1 + xq * 4]
    movu    m15, [%1 + xq * 4 + mmsize]
%if %2
    ; both vectors in the affine piece (t1 <= a < 2, most of a picture above a
    ; toe): fma(a, s1, c1) and the sign, as TF_POW_CALC_ZMM gives them there
    vpandd  m8, m7, m27
    vpandd  m30, m15, m27
    vpsubd  m9, m8, [rsp + 2 * mmsize]
    vpsubd  m31, m30, [rsp + 2 * mmsize]
    vpcmpud k1, m9, [rsp + 3 * mmsize], 1
    vpcmpud k3, m31, [rsp + 3 * mmsize], 1
    kandw   k1, k1, k3
    kortestw k1, k1
    jnc .pow_calc_%+tfp_l
    vfmadd213ps m8, m24, [rsp + mmsize]
    vfmadd213ps m30, m24, [rsp + mmsize]
    vpternlogd m8, m7, m27, 0xb4
    vpternlogd m30, m15, m27, 0xb4
    movu    [%1 + xq * 4], m8
    movu    [%1 + xq * 4 + mmsize], m30
    add     xq, 2 * mmsize / 4
    cmp     xq, wq
    jl .pow_loop_%+tfp_l
    jmp .pow_done_%+tfp_l
.pow_calc_%+tfp_l:
%endif
    TF_POW_CALC_ZMM m7, m8, m9, m10, k1, k2, m0, m1, %2, m5, k5, %3
    TF_POW_CALC_ZMM m15, m30, m31, m4, k3, k4, m2, m3, %2, m6, k6, %3
    kortestw k1, k1
    jnc .pow_mixed_a_%+tfp_l
.pow_store_a_%+tfp_l:
    movu    [%1 + xq * 4], m10
    kortestw k3, k3
    jnc .pow_mixed_b_%+tfp_l
.pow_store_b_%+tfp_l:
    movu    [%1 + xq * 4 + mmsize], m4
    add     xq, 2 * mmsize / 4
    cmp     xq, wq
    jl .pow_loop_%+tfp_l
    jmp .pow_done_%+tfp_l
.pow_one_%+tfp_l:
    movu    m7, [%1 + xq * 4]
    TF_POW_CALC_ZMM m7, m8, m9, m10, k1, k2, m0, m1, %2, m5, k5, %3
    kortestw k1, k1
    jnc .pow_mixed_one_%+tfp_l
.pow_store_one_%+tfp_l:
    movu    [%1 + xq * 4], m10
    jmp .pow_done_%+tfp_l
.pow_mixed_a_%+tfp_l:
    TF_POW_MIXED_ZMM m7, m8, m10, k1, .pow_store_a_%+tfp_l
.pow_mixed_b_%+tfp_l:
    TF_POW_MIXED_ZMM m15, m30, m4, k3, .pow_store_b_%+tfp_l
.pow_mixed_one_%+tfp_l:
    TF_POW_MIXED_ZMM m7, m8, m10, k1, .pow_store_one_%+tfp_l
.pow_done_%+tfp_l:
%endmacro
; AVX2
%define TF_POW_STACK (mmsize * (TF_POW_DEG + 1))
; m13: abs mask, m14: lo - 1, m15: lo + span; stack: p0..p7 broadcast, s in m7..m10
; is reloaded per vector from [t]: AVX2 has 16 registers
%macro TF_POW_CONSTANTS_YMM 0
%assign tfp_i 0
%rep TF_POW_DEG + 1
    vbroadcastss m4, [tq + TF_POW_P + 4 * tfp_i]
    mova    [rsp + mmsize * tfp_i], m4
%assign tfp_i tfp_i + 1
%endrep
    vpbroadcastd m13, [tf_absmask]
    vpbroadcastd m14, [tq + TF_POW_LO]
    vpbroadcastd m15, [tq + TF_POW_SPAN]
    vpaddd  m15, m14                    ; lo + span (no signed overflow: < 2^31)
    vpcmpeqd m4, m4
    vpaddd  m14, m4                     ; lo - 1
    vbroadcastss m5, [tq + TF_POW_S1]   ; the affine piece: s1, c1, t1 - 1
    mova    [rsp + TF_POW_STACK + 3 * mmsize], m5
    vbroadcastss m5, [tq + TF_POW_C1]
    mova    [rsp + TF_POW_STACK + 4 * mmsize], m5
    vpbroadcastd m5, [tq + TF_POW_T1]
    vpaddd  m5, m4
    mova    [rsp + TF_POW_STACK + 5 * mmsize], m5
%endmacro

; TF_POW_S8X2_YMM idx, s, t, bit3, off: s = the octave scales of the 16 slots at byte
; offset off of s[] (0: slots 0..15, 64: 16..31) picked by the low 4 bits of the slots
; in idx: two vpermps (which read the low 3 bits) and a blend on bit3 (idx << 28)
%macro TF_POW_S8X2_YMM 5
    vpermps %2, %1, [tq + TF_POW_S + %5]
    vpermps %3, %1, [tq + TF_POW_S + %5 + 32]
    vblendvps %2, %2, %3, %4
%endmacro

; TF_POW_S_YMM idx, s, t, t', t'': s = the octave scales of the slots in idx (its
; low 5 bits): two halves of 16 slots, and a blend on bit 4
%macro TF_POW_S_YMM 5
    vpslld  %4, %1, 28                  ; bit 3 of the slot to the sign
    TF_POW_S8X2_YMM %1, %2, %3, %4, 0
    TF_POW_S8X2_YMM %1, %3, %5, %4, 64
    vpslld  %4, %1, 27                  ; bit 4
    vblendvps %2, %2, %3, %4
%endmacro

; TF_POW_U_YMM u, x, fracmask, one: u = m - 1, m = (x & fracmask) | 1.0 in [1, 2)
%macro TF_POW_U_YMM 4
    vpand   %1, %2, %3
    vpor    %1, %4
    vsubps  %1, %1, %4
%endmacro

; TF_POW_FINISH_YMM y, a, x, t, t', affine: with affine (1), y = fma(a, s1, c1) in the
; lanes with a >= t1 (s1, c1, t1 - 1 on the stack); then the sign of x onto y
%macro TF_POW_FINISH_YMM 6
%if %6
    mova    %4, [rsp + TF_POW_STACK + 3 * mmsize]
    vfmadd213ps %4, %2, [rsp + TF_POW_STACK + 4 * mmsize]
    vpcmpgtd %5, %2, [rsp + TF_POW_STACK + 5 * mmsize]
    vblendvps %1, %1, %4, %5
%endif
    vpandn  %5, m13, %3
    vpxor   %1, %5
%endmacro

; TF_POW_HORNER p, u, deg: p = P(u) (one Horner chain; the coefficients on the stack)
%macro TF_POW_HORNER 3
    mova    %1, [rsp + mmsize * %3]
%assign tfp_i %3 - 1
%rep %3
    vfmadd213ps %1, %2, [rsp + mmsize * tfp_i]
%assign tfp_i tfp_i - 1
%endrep
%endmacro

; TF_POW_FAST4_YMM row, deg: the step of four vectors at x (without an affine piece)
; when every lane is positive with 2^-15 <= x < 2 (the top 16 octaves of the
; window, most of a picture): no sign to put back, no zero, no mask to gather, s
; from two vpermps and a blend, and four Horner chains at once (two keep the FMA
; units waiting on each other's latency); to .pow_pair (the steps below, which take
; any lanes) otherwise. One test for the four: x - bits of 2^-15 is below 2^27
; (unsigned) exactly in [2^-15, 2), so no lane has a bit of 0xf8000000 set in it.
%macro TF_POW_FAST4_YMM 2
    movu    m0, [%1 + xq * 4]
    movu    m1, [%1 + xq * 4 + mmsize]
    movu    m2, [%1 + xq * 4 + 2 * mmsize]
    movu    m3, [%1 + xq * 4 + 3 * mmsize]
    mova    m4, [tf_pow_top16_v]
    vpsubd  m5, m0, m4
    vpsubd  m6, m1, m4
    vpor    m5, m6
    vpsubd  m6, m2, m4
    vpor    m5, m6
    vpsubd  m6, m3, m4
    vpor    m5, m6
    vptest  m5, [tf_pow_out16_v]
    jnz .pow_pair_%+tfp_l
    mova    m4, [tf_fracmask_v]
    mova    m5, [tf_one_v]
%assign tfp_i 0
%rep 4
    TF_POW_U_YMM m %+ tfp_i, m %+ tfp_i, m4, m5
%assign tfp_i tfp_i + 1
%endrep
    mova    m8, [rsp + mmsize * %2]     ; the four chains, interleaved
    mova    m9, m8
    mova    m10, m8
    mova    m11, m8
%assign tfp_i %2 - 1
%rep %2
    vfmadd213ps m8, m0, [rsp + mmsize * tfp_i]
    vfmadd213ps m9, m1, [rsp + mmsize * tfp_i]
    vfmadd213ps m10, m2, [rsp + mmsize * tfp_i]
    vfmadd213ps m11, m3, [rsp + mmsize * tfp_i]
%assign tfp_i tfp_i - 1
%endrep
%assign tfp_i 0
%rep 4
%assign tfp_r 8 + tfp_i
    movu    m0, [%1 + xq * 4 + tfp_i * mmsize]
    vpsrld  m0, 23                      ; the slot, in 16..31
    vpslld  m3, m0, 28
    TF_POW_S8X2_YMM m0, m1, m2, m3, 64  ; s
    vmulps  m %+ tfp_r, m %+ tfp_r, m1
    movu    [%1 + xq * 4 + tfp_i * mmsize], m %+ tfp_r
%assign tfp_i tfp_i + 1
%endrep
    add     xq, 4 * mmsize / 4
    jmp .pow_loop2_%+tfp_l
%endmacro

; TF_POW_ROW_YMM row, affine, deg: two vectors per step (two Horner chains at once); a
; step with a lane outside the form, and the last vector, go one vector at a time
; (the loop below, up to end)
%macro TF_POW_ROW_YMM 3
%define tfp_l %1 %+ _ %+ %2 %+ _ %+ %3
    xor     xq, xq
.pow_loop2_%+tfp_l:
%ifn %2
    lea     endq, [xq + 4 * mmsize / 4]
    cmp     endq, wq
    jg .pow_pair_%+tfp_l
    TF_POW_FAST4_YMM %1, %3
.pow_pair_%+tfp_l:
%endif
    lea     endq, [xq + 2 * mmsize / 4]
    cmp     endq, wq
    jg .pow_last_%+tfp_l
    movu    m7, [%1 + xq * 4]
    movu    m0, [%1 + xq * 4 + mmsize]
    vpand   m8, m7, m13                 ; a (>= 0 as int32)
    vpand   m1, m0, m13
%if %2
    ; both vectors in the affine piece (t1 <= a < 2, most of a picture above a
    ; toe): fma(a, s1, c1) and the sign, as TF_POW_FINISH_YMM gives them there
    mova    m6, [rsp + TF_POW_STACK + 5 * mmsize]
    vpcmpgtd m9, m8, m6
    vpcmpgtd m6, m1, m6
    vpand   m9, m6
    vpcmpgtd m6, m15, m8
    vpand   m9, m6
    vpcmpgtd m6, m15, m1
    vpand   m9, m6
    vmovmskps i0d, m9
    cmp     i0d, (1 << (mmsize / 4)) - 1
    jne .pow_calc2_%+tfp_l
    mova    m9, [rsp + TF_POW_STACK + 3 * mmsize]
    vfmadd213ps m8, m9, [rsp + TF_POW_STACK + 4 * mmsize]
    vfmadd213ps m1, m9, [rsp + TF_POW_STACK + 4 * mmsize]
    vpandn  m6, m13, m7
    vpxor   m8, m6
    vpandn  m6, m13, m0
    vpxor   m1, m6
    movu    [%1 + xq * 4], m8
    movu    [%1 + xq * 4 + mmsize], m1
    mov     xq, endq
    jmp .pow_loop2_%+tfp_l
.pow_calc2_%+tfp_l:
%endif
    ; the top 8 octaves of the window, 2^-7 <= a < lo + span (= 2), or a == 0: s
    ; from one vpermps (slots 24..31); a vector with any other lane goes alone
    vpcmpgtd m6, m8, [tf_pow_top8_v]
    vpcmpgtd m9, m15, m8
    vpand   m6, m9
    vpcmpgtd m2, m1, [tf_pow_top8_v]
    vpcmpgtd m9, m15, m1
    vpand   m2, m9
    vpxor   m9, m9
    vpcmpeqd m10, m8, m9                ; a == 0 (s = 0, as s[0])
    vpor    m6, m10
    vpcmpeqd m11, m1, m9
    vpor    m2, m11
    vpand   m6, m2
    vmovmskps i0d, m6
    cmp     i0d, (1 << (mmsize / 4)) - 1
    jne .pow_loop_%+tfp_l
    vpsrld  m9, m8, 23
    vpermps m12, m9, [tq + TF_POW_S + 96]
    vpandn  m10, m10, m12               ; s
    vpsrld  m4, m1, 23
    vpermps m12, m4, [tq + TF_POW_S + 96]
    vpandn  m3, m11, m12
    TF_POW_U_YMM m9, m7, [tf_fracmask_v], [tf_one_v]
    TF_POW_U_YMM m4, m0, [tf_fracmask_v], [tf_one_v]
    mova    m11, [rsp + mmsize * %3]    ; the two chains, interleaved
    mova    m5, m11
%assign tfp_i %3 - 1
%rep %3
    vfmadd213ps m11, m9, [rsp + mmsize * tfp_i]
    vfmadd213ps m5, m4, [rsp + mmsize * tfp_i]
%assign tfp_i tfp_i - 1
%endrep
    vmulps  m11, m11, m10
    vmulps  m5, m5, m3
    TF_POW_FINISH_YMM m11, m8, m7, m12, m10, %2
    TF_POW_FINISH_YMM m5, m1, m0, m3, m10, %2
    movu    [%1 + xq * 4], m11
    movu    [%1 + xq * 4 + mmsize], m5
    mov     xq, endq
    jmp .pow_loop2_%+tfp_l
.pow_last_%+tfp_l:
    cmp     xq, wq
    jge .pow_done_%+tfp_l
    mov     endq, wq
.pow_loop_%+tfp_l:
    movu    m7, [%1 + xq * 4]
    vpand   m8, m7, m13                 ; a (>= 0 as int32)
    vpcmpgtd m9, m8, m14                ; a >= lo
    vpcmpgtd m10, m15, m8               ; a < lo + span
    vpand   m9, m10
    vpxor   m10, m10
    vpcmpeqd m10, m8                    ; a == 0
    vpor    m6, m9, m10                 ; lanes of the power form
    ; s: the exponent's slot among 32 (vpermps reads its low 3 bits)
    vpsrld  m9, m8, 23
    TF_POW_S_YMM m9, m10, m11, m12, m5
    TF_POW_U_YMM m9, m7, [tf_fracmask_v], [tf_one_v]
    TF_POW_HORNER m11, m9, %3           ; P = p0 + u (p1 + ... u p_deg)
    vmulps  m11, m11, m10
    TF_POW_FINISH_YMM m11, m8, m7, m2, m3, %2
    vmovmskps i0d, m6
    cmp     i0d, (1 << (mmsize / 4)) - 1
    jne .pow_mixed_%+tfp_l
.pow_store_%+tfp_l:
    movu    [%1 + xq * 4], m11
    add     xq, mmsize / 4
    cmp     xq, endq
    jl .pow_loop_%+tfp_l
    cmp     xq, wq
    jl .pow_loop2_%+tfp_l
    jmp .pow_done_%+tfp_l
.pow_mixed_%+tfp_l:                        ; the segments for the other lanes
    mova    [rsp + TF_POW_STACK + mmsize], m6
    mova    [rsp + TF_POW_STACK + 2 * mmsize], m11
    TF_CONSTANTS
    mova    m4, m7
    TF_OFFSETS m4, [rsp + TF_POW_STACK]
    TF_T    m7
    TF_EVAL tq, m7, m7, rsp + TF_POW_STACK
    mova    m6, [rsp + TF_POW_STACK + mmsize]
    vblendvps m11, m7, [rsp + TF_POW_STACK + 2 * mmsize], m6
    jmp .pow_store_%+tfp_l
.pow_done_%+tfp_l:
%endmacro

; TF_POW_ROWS affine, deg: the power form over the three rows (one loop: c0 <- c1 <- c2
; after each), then return
%macro TF_POW_ROWS 2
    mov     x0d, 3
.pow_rows_%1_%2:
%if mmsize == 64
    TF_POW_ROW_ZMM c0q, %1, %2
%else
    TF_POW_ROW_YMM c0q, %1, %2
%endif
    mov     c0q, c1q
    mov     c1q, c2q
    dec     x0d
    jnz .pow_rows_%1_%2
    RET
%endmacro

; TF_POW_DISPATCH: to the rows' loop of the table's degree, with the affine piece or not
%macro TF_POW_DISPATCH 0
    mov     i0d, [tq + TF_POW_DEGREE]
    cmp     dword [tq + TF_POW_T1], 0x7f800000
    jne .pow_affine
    TF_POW_DEGREES 0
.pow_affine:
    TF_POW_DEGREES 1
%endmacro

%macro TF_POW_DEGREES 1
    cmp     i0d, 6
    jl .pow_d5_%1
    je .pow_d6_%1
    TF_POW_ROWS %1, 7
.pow_d6_%1:
    TF_POW_ROWS %1, 6
.pow_d5_%1:
    TF_POW_ROWS %1, 5
%endmacro

%macro TF 0
%if mmsize == 64
cglobal cspfix_tf, 5, 12, 32, 3 * TF_BLOCK * 4, c0, c1, c2, w, t, x, i0, i1, p, end, x0, i2
%else
cglobal cspfix_tf, 5, 12, 16, 3 * TF_BLOCK * 4, c0, c1, c2, w, t, x, i0, i1, p, end, x0, i2
%endif
    movsxdifnidn wq, wd
    TF_CONSTANTS
%if mmsize == 64
    ; power-form tables only (x86/cspfix_init.c sends the others to AVX2)
    TF_POW_CONSTANTS_ZMM
    TF_POW_DISPATCH
%else
    cmp     dword [tq + TF_POW_ON], 0
    jne .pow
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
.pow:
    TF_POW_CONSTANTS_YMM
    TF_POW_DISPATCH
%endif
%endmacro

;-----------------------------------------------------------------------------
; void tonemap(float *c0, float *c1, float *c2, int w, const float k[3],
;              const CspfixTFTable *gain, const CspfixTFTable *desat)
; m = max(max(c0, c1, c2) * in_scale, in_floor); c *= gain(m); with desat: y = (k0 r + k1 g) + k2 b,
; c = c + desat(m) * (y - c). maxps a, b is a > b ? a : b, as in C. Both
; tables are read at the same segments; two passes per block as in tf.
;-----------------------------------------------------------------------------
; TONEMAP_MAX first: m4 = max(max(m7, m8, m9) * in_scale, in_floor) of the rows at x
; (first: of m7, IPT's I), the tables' variable
%macro TONEMAP_MAX 1
    movu    m7, [c0q + xq * 4]
%if %1
    mulps   m4, m7, [gainq + TF_IN_SCALE]
%else
    movu    m8, [c1q + xq * 4]
    movu    m9, [c2q + xq * 4]
    vmaxps  m4, m7, m8                  ; v-forms: x86inc would swap the operands
    vmaxps  m4, m4, m9                  ; of maxps m<8, m>=8 (VEX size), not C's
    mulps   m4, [gainq + TF_IN_SCALE]
%endif
    vmaxps  m4, m4, [gainq + TF_IN_FLOOR] ; m4 > floor ? m4 : floor, as in C
%endmacro

; TONEMAP_LOAD: the rows at x to m7-m9 and the variable the first pass stored to m4
%macro TONEMAP_LOAD 0
    movu    m7, [c0q + xq * 4]
    movu    m8, [c1q + xq * 4]
    movu    m9, [c2q + xq * 4]
    movu    m4, [pq + xq * 4 + TF_BLOCK * 4]
%endmacro

; TONEMAP name, first: cspfix_tonemap (gain of max-RGB) and cspfix_tonemap_i (of c0).
; The first pass stores each vector's variable (after the block's offsets on the
; stack), the second reads it back.
%macro TONEMAP 2
cglobal cspfix_%1, 7, 13, 16, 2 * TF_BLOCK * 4, c0, c1, c2, w, i2, gain, desat, x, i0, i1, p, end, x0
    movsxdifnidn wq, wd
    TF_CONSTANTS
    VBROADCASTSS m13, [i2q]             ; k (i2 is free after this)
    VBROADCASTSS m14, [i2q + 4]
    VBROADCASTSS m15, [i2q + 8]
    xor     xq, xq
.block:
    TF_BLOCK_START
.offsets:
    TONEMAP_MAX %2
    movu    [pq + xq * 4 + TF_BLOCK * 4], m4
    TF_OFFSETS m4, [pq + xq * 4]
    add     xq, mmsize / 4
    cmp     xq, endq
    jl .offsets
    mov     xq, x0q
    test    desatq, desatq
    jnz .eval_desat
.eval:
    TONEMAP_LOAD
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
    TONEMAP_LOAD
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

%macro CLIP 0
    ROW2 clip, lo, hi, maxps, minps
%endmacro

; GAMUT_LT mask, a, b: mask = a < b (AVX2: a vector of all-ones lanes; AVX-512: k)
; GAMUT_LT_AND mask, a, b: mask &= a < b
; GAMUT_SEL dst, src, mask: dst = mask ? src : dst
%macro GAMUT_LT 3
%if mmsize == 64
    vcmpps  %1, %2, %3, 1
%else
    cmpps   %1, %2, %3, 1
%endif
%endmacro
%macro GAMUT_LT_AND 3
%if mmsize == 64
    vcmpps  %1{%1}, %2, %3, 1
%else
    cmpps   m6, %2, %3, 1
    andps   %1, m6
%endif
%endmacro
%macro GAMUT_SEL 3
%if mmsize == 64
    vmovaps %1{%3}, %2
%else
    blendvps %1, %1, %2, %3
%endif
%endmacro

;-----------------------------------------------------------------------------
; void gamut_desat(float *c0, float *c1, float *c2, int w, const float k[3], float hi)
; as gamut_desat_c: the two candidate t (and o) are computed in every lane and kept
; where C's conditions hold; divisions are IEEE divisions.
;-----------------------------------------------------------------------------
%macro GAMUT_DESAT 0
%if UNIX64
cglobal cspfix_gamut_desat, 5, 6, 16, c0, c1, c2, w, k, x
%else
cglobal cspfix_gamut_desat, 6, 7, 16, c0, c1, c2, w, k, hi, x
    movss   xmm0, him
%endif
    movsxdifnidn wq, wd
    VBROADCASTSS m13, xmm0              ; hi (before m0 is written: on AVX2 it is xmm0)
    VBROADCASTSS m10, [kq]
    VBROADCASTSS m11, [kq + 4]
    VBROADCASTSS m12, [kq + 8]
    xorps   m14, m14                    ; 0
    VBROADCASTSS m15, [gamut_one]
%if mmsize == 64
    %define CND1 k1
    %define CND2 k2
%else
    %define CND1 m7
    %define CND2 m3
%endif
    xor     xq, xq
.loop:
    movu    m0, [c0q + xq * 4]
    movu    m1, [c1q + xq * 4]
    movu    m2, [c2q + xq * 4]
    minps   m3, m0, m1
    minps   m3, m2                      ; mn
    maxps   m4, m0, m1
    maxps   m4, m2                      ; mx
    ; no lane with mn < 0 or mx > hi (a vector in the gamut, most of a picture): t = 1,
    ; o = 0 everywhere, and clamp(1 c + 0) is clamp(c) (-0 and NaN give 0 either way),
    ; without the two divisions
%if mmsize == 64
    vcmpps  k1, m3, m14, 1
    vcmpps  k2, m13, m4, 1
    kortestw k1, k2
%else
    cmpps   m5, m3, m14, 1
    cmpps   m6, m13, m4, 1
    orps    m5, m6
    vptest  m5, m5
%endif
    jz .inside
    mulps   m5, m0, m10
    mulps   m6, m1, m11
    addps   m5, m6
    mulps   m6, m2, m12
    addps   m5, m6
    vmaxps  m5, m5, m14
    vminps  m5, m5, m13                 ; y
    ; mn < 0: v = y / (y - mn); where v < 1: t = v, o = -(v mn)
    subps   m6, m5, m3
    divps   m9, m5, m6                  ; v
    GAMUT_LT CND1, m3, m14
    GAMUT_LT_AND CND1, m9, m15
    mova    m8, m15                     ; t = 1
    GAMUT_SEL m8, m9, CND1
    mulps   m9, m3
    VBROADCASTSS m6, [gamut_sign]
    xorps   m9, m6                      ; -(v mn)
    xorps   m6, m6
    GAMUT_SEL m6, m9, CND1
    mova    m7, m6                      ; o (CND1 is dead)
    ; mx > hi: v = (hi - y) / (mx - y); where v < t: t = v, o = hi - v mx
    subps   m6, m4, m5
    subps   m9, m13, m5
    divps   m9, m6                      ; v
%if mmsize == 64
    GAMUT_LT CND2, m13, m4
    GAMUT_LT_AND CND2, m9, m8
%else
    cmpps   m3, m13, m4, 1              ; mn is dead
    cmpps   m6, m9, m8, 1
    andps   m3, m6
%endif
    GAMUT_SEL m8, m9, CND2
    mulps   m9, m4
    subps   m9, m13, m9
    GAMUT_SEL m7, m9, CND2
    ; c = clamp(t c + o, 0, hi)
    mulps   m0, m8
    addps   m0, m7
    vmaxps  m0, m0, m14
    vminps  m0, m0, m13
    movu    [c0q + xq * 4], m0
    mulps   m1, m8
    addps   m1, m7
    vmaxps  m1, m1, m14
    vminps  m1, m1, m13
    movu    [c1q + xq * 4], m1
    mulps   m2, m8
    addps   m2, m7
.clamp:
    vmaxps  m2, m2, m14
    vminps  m2, m2, m13
    movu    [c2q + xq * 4], m2
    add     xq, mmsize / 4
    cmp     xq, wq
    jl .loop
    RET
.inside:
    vmaxps  m0, m0, m14
    vminps  m0, m0, m13
    movu    [c0q + xq * 4], m0
    vmaxps  m1, m1, m14
    vminps  m1, m1, m13
    movu    [c1q + xq * 4], m1
    jmp .clamp
%undef CND1
%undef CND2
%endmacro

;-----------------------------------------------------------------------------
; void gamut_compress(float *c0, float *c1, float *c2, int w, float thr,
;                     const float sinv[3], float hi)
; as gamut_compress_c (with FMA3): n = fma(-thr, a, a - c) per component, compressed
; where a > 0 and n > 0 to a (1 - thr - n / fma(sinv, n, a)), then clamped. A row
; with no compressed lane in a vector skips its division (the same results).
;-----------------------------------------------------------------------------
; GAMUT_COMPRESS_C c, sinv, row: one component: n (m4) and its lanes (GC_LANES: k4 with
; AVX-512, m7 before; m3 a, a > 0 in k3 or m5), the compressed value in them, then
; the clamp and the store
%macro GAMUT_COMPRESS_C 3
%if mmsize == 64
    %define GC_LANES k4
%else
    %define GC_LANES m7
%endif
    subps   m4, m3, %1                  ; a - c
    vfnmadd231ps m4, m13, m3            ; n = (a - c) - thr a, one rounding
%if mmsize == 64
    vcmpps  GC_LANES{k3}, m9, m4, 1     ; a > 0 and n > 0
    kortestw GC_LANES, GC_LANES
%else
    cmpps   GC_LANES, m9, m4, 1
    andps   GC_LANES, m5
    vptest  GC_LANES, GC_LANES
%endif
    jz %%clamp
    mova    m8, %2
    vfmadd213ps m8, m4, m3              ; sinv n + a
    divps   m4, m8                      ; q = n / (a + sinv n)
    subps   m4, m15, m4
    mulps   m4, m3                      ; a (1 - thr - q)
%if mmsize == 64
    vmovaps %1{GC_LANES}, m4
%else
    blendvps %1, %1, m4, GC_LANES
%endif
%%clamp:
    vmaxps  %1, %1, m9
    vminps  %1, %1, m14
    movu    [%3 + xq * 4], %1
%endmacro

%macro GAMUT_COMPRESS 0
%if UNIX64
cglobal cspfix_gamut_compress, 5, 6, 16, c0, c1, c2, w, sinv, x
%else
cglobal cspfix_gamut_compress, 7, 8, 16, c0, c1, c2, w, thr, sinv, hi, x
    movss   xmm0, thrm
    movss   xmm1, him
%endif
    movsxdifnidn wq, wd
    movss   xm15, [gamut_one]
    subss   xm15, xmm0                  ; 1 - thr (before m0, m1 are written)
    VBROADCASTSS m15, xm15
    VBROADCASTSS m13, xmm0              ; thr
    VBROADCASTSS m14, xmm1              ; hi
    VBROADCASTSS m10, [sinvq]
    VBROADCASTSS m11, [sinvq + 4]
    VBROADCASTSS m12, [sinvq + 8]
    xorps   m9, m9
    xor     xq, xq
.loop:
    movu    m0, [c0q + xq * 4]
    movu    m1, [c1q + xq * 4]
    movu    m2, [c2q + xq * 4]
    maxps   m3, m0, m1
    maxps   m3, m2                      ; a
%if mmsize == 64
    vcmpps  k3, m9, m3, 1               ; a > 0
%else
    cmpps   m5, m9, m3, 1
%endif
    GAMUT_COMPRESS_C m0, m10, c0q
    GAMUT_COMPRESS_C m1, m11, c1q
    GAMUT_COMPRESS_C m2, m12, c2q
    add     xq, mmsize / 4
    cmp     xq, wq
    jl .loop
    RET
%endmacro

;-----------------------------------------------------------------------------
; void lut3d(float *c0, float *c1, float *c2, int w, const float *t, int n)
; as lut3d_c: each (c0, c1, c2) clamped to [0, 1] (maxps first: NaN and -0 give +0,
; as C's fmaxf(x, 0); a signalling NaN too, where glibc's fmaxf, called by a GCC
; build, gives NaN and C then clamps it to 1), times m = n - 1, cell ir = min((int)r,
; m - 1), fractions
; fr = r - ir; the tetrahedron by C's strict compares, its weights 1 - f1, f1 - f2,
; f2 - f3, f3 of the sorted fractions (their values are the max, the median and the
; min whichever branch picks them: the fractions are in [+0, 1], never NaN or -0),
; out = ((w0 p0 + w1 p1) + w2 p2) + w3 p3 in separate multiplies and adds.
; No gathers: each corner's 3 floats come with one 16-byte load (the AVX2 tf's
; records, 4 lanes per 128-bit part with vinsertf128 / vinsertf32x4, a 4x4 transpose
; per part). p0, p1 and p2 are read from their first float (their 4th float is at
; most p3's first), p3 from the float before it (p3 may be the table's last point),
; so no load leaves the table. Byte offsets in int32: n < 560 (the tables have
; n <= 129, ff_cspfix_custom_lut3d()).
; Two passes per block of LUT3D_BLOCK samples, as tf: the byte offsets of the 4
; corners and the 3 sorted fractions to the stack, then the loads and the sums.
;-----------------------------------------------------------------------------
%define LUT3D_BLOCK 256
%define LUT3D_VEC   (7 * mmsize)                       ; stack bytes per vector
%define LUT3D_K     (LUT3D_BLOCK / (mmsize / 4) * LUT3D_VEC) ; the constants
%define LUT3D_MF    (LUT3D_K + 0 * mmsize)             ; m as a float
%define LUT3D_MM1   (LUT3D_K + 1 * mmsize)             ; m - 1
%define LUT3D_DR    (LUT3D_K + 2 * mmsize)             ; byte steps: 12
%define LUT3D_DG    (LUT3D_K + 3 * mmsize)             ; 12 n
%define LUT3D_DB    (LUT3D_K + 4 * mmsize)             ; 12 n^2
%define LUT3D_D3    (LUT3D_K + 5 * mmsize)             ; 12 (1 + n + n^2) - 4

; LUT3D_SEL dst, f, t, mask: dst = mask ? t : f (mask: a k register with AVX-512)
%macro LUT3D_SEL 4
%if mmsize == 64
    vblendmps %1{%4}, %2, %3
%else
    vblendvps %1, %2, %3, %4
%endif
%endmacro

; LUT3D_RECORDS offsets, disp: m0-m3 = the 16 bytes at t + disp + the byte offsets
; of the lanes at [offsets] (m<k>: lanes k, k + 4, k + 8, k + 12, one per 128-bit
; part; two lanes' offsets per 64-bit load as in tf). Clobbers i0, i1, i2.
%macro LUT3D_RECORDS 2
%assign l3k_ 0
%rep 2
%assign l3k1_ l3k_ + 1
%assign l3h_ 0
%rep mmsize / 32
    mov     i0q, [%1 + 4 * l3k_ + 32 * l3h_]
    mov     i1q, [%1 + 4 * l3k_ + 32 * l3h_ + 16]
    mov     i2d, i0d
    shr     i0q, 32
    TF_LOAD16 l3k_, 2 * l3h_, tq + i2q + %2
    mov     i2d, i1d
    shr     i1q, 32
    TF_LOAD16 l3k_, 2 * l3h_ + 1, tq + i2q + %2
    TF_LOAD16 l3k1_, 2 * l3h_, tq + i0q + %2
    TF_LOAD16 l3k1_, 2 * l3h_ + 1, tq + i1q + %2
%assign l3h_ l3h_ + 1
%endrep
%assign l3k_ l3k_ + 2
%endrep
%endmacro

; LUT3D_CORNER offsets, disp, shifted, w: the corner's components times the weight w:
; r to m1, g to m4, b to m0 (records r g b x, or x r g b when shifted); clobbers m2,
; m3, m5
%macro LUT3D_CORNER 4
    LUT3D_RECORDS %1, %2
    unpcklps m4, m0, m1                 ; r0 r1 g0 g1 (shifted: x0 x1 r0 r1)
    unpckhps m0, m1                     ; b0 b1 x0 x1 (g0 g1 b0 b1)
    unpcklps m5, m2, m3
    unpckhps m2, m3
%if %3
    unpckhpd m1, m4, m5
    unpcklpd m4, m0, m2
    unpckhpd m0, m2
%else
    unpcklpd m1, m4, m5
    unpckhpd m4, m5
    unpcklpd m0, m2
%endif
    mulps   m1, %4
    mulps   m4, %4
    mulps   m0, %4
%endmacro

%macro LUT3D 0
cglobal cspfix_lut3d, 6, 13, 16, 6 * mmsize + LUT3D_K, c0, c1, c2, w, t, n, x, end, x0, p, i0, i1, i2
    movsxdifnidn wq, wd
    lea     i0d, [nq - 1]               ; m
    movd    xm0, i0d
    vpbroadcastd m0, xm0
    cvtdq2ps m0, m0
    mova    [rsp + LUT3D_MF], m0
    dec     i0d                         ; m - 1
    movd    xm0, i0d
    vpbroadcastd m0, xm0
    mova    [rsp + LUT3D_MM1], m0
    mov     i0d, 12
    movd    xm0, i0d
    vpbroadcastd m0, xm0
    mova    [rsp + LUT3D_DR], m0
    imul    i0d, nd                     ; 12 n
    movd    xm0, i0d
    vpbroadcastd m0, xm0
    mova    [rsp + LUT3D_DG], m0
    mov     i1d, i0d
    imul    i1d, nd                     ; 12 n^2
    movd    xm0, i1d
    vpbroadcastd m0, xm0
    mova    [rsp + LUT3D_DB], m0
    lea     i0d, [i0q + i1q + 8]        ; p3 - p0 - 4
    movd    xm0, i0d
    vpbroadcastd m0, xm0
    mova    [rsp + LUT3D_D3], m0
    VBROADCASTSS m14, [gamut_one]
    xorps   m15, m15
    xor     xq, xq
.block:
    lea     endq, [xq + LUT3D_BLOCK]
    cmp     endq, wq
    cmovg   endq, wq
    mov     x0q, xq
    mov     pq, rsp
    mova    m9,  [rsp + LUT3D_DR]
    mova    m10, [rsp + LUT3D_DB]
    mova    m11, [rsp + LUT3D_DG]
    mova    m12, [rsp + LUT3D_MM1]
    mova    m13, [rsp + LUT3D_MF]
%if mmsize == 64
    %define L3A k1
    %define L3B k2
    %define L3C k3
    %define L3D k4
    %define L3E k5
%else
    %define L3A m4
    %define L3B m5
    %define L3C m5
    %define L3D m6
    %define L3E m6
%endif
.offsets:
    movu    m0, [c0q + xq * 4]
    movu    m1, [c1q + xq * 4]
    movu    m2, [c2q + xq * 4]
    vmaxps  m0, m0, m15                 ; c > 0 ? c : 0, as fmaxf(c, 0)
    vmaxps  m1, m1, m15
    vmaxps  m2, m2, m15
    vminps  m0, m0, m14
    vminps  m1, m1, m14
    vminps  m2, m2, m14
    mulps   m0, m13                     ; r
    mulps   m1, m13                     ; g
    mulps   m2, m13                     ; b
    cvttps2dq m3, m0
    cvttps2dq m4, m1
    cvttps2dq m5, m2
    pminsd  m3, m12                     ; ir
    pminsd  m4, m12                     ; ig
    pminsd  m5, m12                     ; ib
    cvtdq2ps m6, m3
    subps   m0, m6                      ; fr
    cvtdq2ps m6, m4
    subps   m1, m6                      ; fg
    cvtdq2ps m6, m5
    subps   m2, m6                      ; fb
    pmulld  m3, m9
    pmulld  m4, m11
    pmulld  m5, m10
    paddd   m3, m4
    paddd   m3, m5                      ; p0 (byte offset)
    ; the first step o1 = fr > fg ? (fr > fb ? dr : db) : (fb > fg ? db : dg)
    GAMUT_LT L3A, m1, m0                ; fr > fg
    GAMUT_LT L3C, m2, m0                ; fr > fb
    GAMUT_LT L3D, m1, m2                ; fb > fg
    LUT3D_SEL m7, m10, m9, L3C
    LUT3D_SEL m8, m11, m10, L3D
    LUT3D_SEL m7, m8, m7, L3A
    ; the last step o3 = fr > fg ? (fg > fb ? db : dg) : (fb > fr ? dr : db)
    GAMUT_LT L3B, m2, m1                ; fg > fb
    GAMUT_LT L3E, m0, m2                ; fb > fr
    LUT3D_SEL m8, m11, m10, L3B
    LUT3D_SEL m5, m10, m9, L3E
    LUT3D_SEL m8, m5, m8, L3A
    paddd   m7, m3                      ; p1
    paddd   m4, m3, [rsp + LUT3D_D3]    ; p3 - 4
    psubd   m8, m4, m8                  ; p2 - 4 = p3 - 4 - o3
    mova    [pq], m3
    mova    [pq + mmsize], m7
    mova    [pq + 2 * mmsize], m8
    mova    [pq + 3 * mmsize], m4
    ; the sorted fractions f1 >= f2 >= f3
    vmaxps  m4, m0, m1
    vminps  m5, m0, m1
    vmaxps  m6, m4, m2                  ; f1
    vminps  m4, m4, m2
    vminps  m7, m5, m2                  ; f3
    vmaxps  m5, m5, m4                  ; f2
    mova    [pq + 4 * mmsize], m6
    mova    [pq + 5 * mmsize], m5
    mova    [pq + 6 * mmsize], m7
    add     pq, LUT3D_VEC
    add     xq, mmsize / 4
    cmp     xq, endq
    jl .offsets
    mov     xq, x0q
    mov     pq, rsp
.sums:
    mova    m11, [pq + 4 * mmsize]
    mova    m12, [pq + 5 * mmsize]
    mova    m13, [pq + 6 * mmsize]      ; w3 = f3
    subps   m10, m14, m11               ; w0 = 1 - f1
    subps   m11, m12                    ; w1 = f1 - f2
    subps   m12, m13                    ; w2 = f2 - f3
    LUT3D_CORNER pq, 0, 0, m10
    mova    m7, m1
    mova    m8, m4
    mova    m9, m0
    LUT3D_CORNER pq + mmsize, 0, 0, m11
    addps   m7, m1
    addps   m8, m4
    addps   m9, m0
    LUT3D_CORNER pq + 2 * mmsize, 4, 0, m12
    addps   m7, m1
    addps   m8, m4
    addps   m9, m0
    LUT3D_CORNER pq + 3 * mmsize, 0, 1, m13
    addps   m7, m1
    addps   m8, m4
    addps   m9, m0
    movu    [c0q + xq * 4], m7
    movu    [c1q + xq * 4], m8
    movu    [c2q + xq * 4], m9
    add     pq, LUT3D_VEC
    add     xq, mmsize / 4
    cmp     xq, endq
    jl .sums
    cmp     xq, wq
    jl .block
    RET
%undef L3A
%undef L3B
%undef L3C
%undef L3D
%undef L3E
%endmacro

%if ARCH_X86_64
INIT_XMM sse2
AFFINE
%if HAVE_AVX2_EXTERNAL
INIT_YMM avx2
AFFINE
MATRIX
TF
TONEMAP tonemap, 0
TONEMAP tonemap_i, 1
CLIP
GAMUT_DESAT
GAMUT_COMPRESS
LUT3D
%endif ; HAVE_AVX2_EXTERNAL
%if HAVE_AVX512_EXTERNAL
INIT_ZMM avx512
AFFINE
MATRIX
TF
TONEMAP tonemap, 0
TONEMAP tonemap_i, 1
CLIP
GAMUT_DESAT
GAMUT_COMPRESS
LUT3D
%endif ; HAVE_AVX512_EXTERNAL
%endif ; ARCH_X86_64
