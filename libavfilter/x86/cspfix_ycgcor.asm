;*****************************************************************************
;* SIMD kernels of the cspfix filter, ycgcor family: the YCgCo-R lifting (H.273 V3,
;* H.265 eqs E-41..E-48) between Y, Cg, Co codes and planar G, B, R of 8 or 16 bits,
;* bit-exact with the C versions in libavfilter/cspfix_dsp.c (the same integer
;* operations on 32-bit lanes); AVX2.
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

SECTION .text

; The kernels take native-endian codes (be = 0, not read) and w a multiple of 8 (> 0),
; 8 samples a step, each component in 8 dwords; they read and write exactly w samples.
; Results go out through packusdw, whose unsigned saturation is the clamp at 0 (the
; clamp at max is pminsd before it); every value stored is in [0, 65535], as in C.

; YCGCOR_STORE bits, dst, k: the 8 dwords of m<k> (in [0, 65535] after the packing's
; saturation) to dst as samples of bits (8: in [0, 255]); clobbers m3
%macro YCGCOR_STORE 3
    vextracti128 xm3, m%3, 1
    packusdw     xm%3, xm3
%if %1 == 16
    movu         [%2 + xq * 2], xm%3
%else
    packuswb     xm%3, xm%3
    movq         [%2 + xq], xm%3
%endif
%endmacro

; YCGCOR_START: w sign-extended, off in m5 and max in m6 (dwords), x = 0
%macro YCGCOR_START 0
    movsxdifnidn wq, wd
    movd         xm5, offd
    vpbroadcastd m5, xm5
    movd         xm6, maxd
    vpbroadcastd m6, xm6
    xor          xq, xq
%endmacro

;-----------------------------------------------------------------------------
; void ycgcor_to_rgb_<bits>(uint8_t *g, uint8_t *b, uint8_t *r, const uint8_t *cy,
;                           const uint8_t *ccg, const uint8_t *cco, int w, int off,
;                           int max, int be)
; (CSPFIX_YCGCOR_ARGS: d0..d2 = G, B, R; s0..s2 = Y, Cg, Co)
;-----------------------------------------------------------------------------
%macro YCGCOR_TO_RGB 1 ; RGB sample bits
cglobal cspfix_ycgcor_to_rgb_%1, 9, 10, 7, g, b, r, py, pcg, pco, w, off, max, x
    YCGCOR_START
.loop:
    pmovzxwd     m0, [pyq  + xq * 2]
    pmovzxwd     m1, [pcgq + xq * 2]
    pmovzxwd     m2, [pcoq + xq * 2]
    psubd        m1, m5                 ; cg
    psubd        m2, m5                 ; co
    psrad        m3, m1, 1
    psubd        m0, m3                 ; t = Y - (cg >> 1)
    paddd        m1, m0                 ; g = t + cg
    psrad        m3, m2, 1
    psubd        m0, m3                 ; b = t - (co >> 1)
    paddd        m2, m0                 ; r = b + co
    pminsd       m0, m6
    pminsd       m1, m6
    pminsd       m2, m6
    YCGCOR_STORE %1, gq, 1
    YCGCOR_STORE %1, bq, 0
    YCGCOR_STORE %1, rq, 2
    add          xq, 8
    cmp          xq, wq
    jl .loop
    RET
%endmacro

;-----------------------------------------------------------------------------
; void ycgcor_from_rgb_<bits>(uint8_t *cy, uint8_t *ccg, uint8_t *cco, const uint8_t *g,
;                             const uint8_t *b, const uint8_t *r, int w, int off,
;                             int max, int be)
; (CSPFIX_YCGCOR_ARGS: d0..d2 = Y, Cg, Co; s0..s2 = G, B, R)
;-----------------------------------------------------------------------------
%macro YCGCOR_FROM_RGB 1 ; RGB sample bits
cglobal cspfix_ycgcor_from_rgb_%1, 9, 10, 7, py, pcg, pco, g, b, r, w, off, max, x
    YCGCOR_START
.loop:
%if %1 == 16
    pmovzxwd     m0, [gq + xq * 2]
    pmovzxwd     m1, [bq + xq * 2]
    pmovzxwd     m2, [rq + xq * 2]
    pminsd       m0, m6                 ; padding bits set: clipped to max
    pminsd       m1, m6
    pminsd       m2, m6
%else
    pmovzxbd     m0, [gq + xq]
    pmovzxbd     m1, [bq + xq]
    pmovzxbd     m2, [rq + xq]
%endif
    psubd        m2, m1                 ; co = r - b
    psrad        m3, m2, 1
    paddd        m1, m3                 ; t = b + (co >> 1)
    psubd        m0, m1                 ; cg = g - t
    psrad        m3, m0, 1
    paddd        m1, m3                 ; Y = t + (cg >> 1)
    paddd        m0, m5                 ; Cg = cg + off
    paddd        m2, m5                 ; Co = co + off
    YCGCOR_STORE 16, pyq,  1
    YCGCOR_STORE 16, pcgq, 0
    YCGCOR_STORE 16, pcoq, 2
    add          xq, 8
    cmp          xq, wq
    jl .loop
    RET
%endmacro

%if ARCH_X86_64
%if HAVE_AVX2_EXTERNAL
INIT_YMM avx2
YCGCOR_TO_RGB 8
YCGCOR_TO_RGB 16
YCGCOR_FROM_RGB 8
YCGCOR_FROM_RGB 16
%endif
%endif
