;*****************************************************************************
;* SIMD kernels of the cspfix filter, chroma family: resampling by 2 and the
;* vertical filters of float32 rows (upsample_h2, downsample_h2, blend, filter3,
;* filter4), bit-exact with the C versions in libavfilter/cspfix_dsp.c (same
;* operations in the same order, no fused multiply-add).
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

SECTION_RODATA 32

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


%if ARCH_X86_64
INIT_XMM sse2
FILTERS
UPSAMPLE
DOWNSAMPLE
%if HAVE_AVX2_EXTERNAL
INIT_YMM avx2
FILTERS
UPSAMPLE
DOWNSAMPLE
%endif ; HAVE_AVX2_EXTERNAL
%endif ; ARCH_X86_64
