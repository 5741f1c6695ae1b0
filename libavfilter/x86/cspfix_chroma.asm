;*****************************************************************************
;* SIMD kernels of the cspfix filter, chroma family: resampling by 2 and the
;* vertical filters of float32 rows (upsample_h2, downsample_h2, blend, filter3,
;* filter4), bit-exact with the C versions in libavfilter/cspfix_dsp.c (same
;* operations in the same order, no fused multiply-add); SSE2, AVX2 and AVX-512.
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

SECTION_RODATA 64

%if HAVE_AVX512_EXTERNAL
; vpermt2ps indices interleaving two zmm (0-15 the first, 16-31 the second):
; outputs 0-15 and 16-31 of e0 o0 e1 o1 ... (upsample_h2's STORE_PAIRS)
pairs_lo:      dd  0, 16,  1, 17,  2, 18,  3, 19,  4, 20,  5, 21,  6, 22,  7, 23
pairs_hi:      dd  8, 24,  9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31
; vpermpd indices: the qwords of shufps's per-lane halves in order (downsample_h2)
lanes_even:    dq 0, 2, 4, 6, 1, 3, 5, 7
%endif

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
; Float arguments are named xmm0, xmm1 (not xm0, xm1): with AVX-512, x86inc maps
; m0-m15 to zmm16-31, and the arguments arrive in xmm0, xmm1.
; The AVX-512 resampling kernels go by whole vectors of 16 chroma samples while
; they stay within what the AVX2 versions read and write, and do the last, partial
; vector with masks (k1-k4), so that they need no more padding than those.

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
    movss   xmm0, r4m
    movss   xmm1, r5m
%endif
    movsxdifnidn wq, wd
    VBROADCASTSS m0, xmm0
    VBROADCASTSS m1, xmm1
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
; dst + ci * 8 (2 * mmsize bytes); clobbers all four registers. AVX-512: needs the
; indices pairs_lo, pairs_hi in m8, m9; the stores go through the masks SM0, SM1
; (defined empty for whole vectors).
;-----------------------------------------------------------------------------
%macro STORE_PAIRS 4
%if mmsize == 64
    mova    %3, %1
    vpermt2ps %3, m8, %2
    vpermt2ps %1, m9, %2
    MOVM    [dstq + ciq * 8] SM0, %3
    MOVM    [dstq + ciq * 8 + mmsize] SM1, %1
%else
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
%endif
%endmacro

; UP_MASKS_WHOLE / UP_MASKS_TAIL: the decorators of the loads (LM0: src[k - 1] and
; src[k], LM1: src[k + 1]) and of the stores (SM0, SM1) for a whole vector and for
; the last one; MOVM is the move that takes them (empty below AVX-512)
%macro UP_MASKS_WHOLE 0
%if mmsize == 64
%define MOVM vmovups
%else
%define MOVM movu
%endif
%define LM0
%define LM1
%define SM0
%define SM1
%endmacro

%macro UP_MASKS_TAIL 0
%define LM0 {k1}{z}
%define LM1 {k2}{z}
%define SM0 {k3}
%define SM1 {k4}
%endmacro

; UP_PHASE0 / UP_PHASE1: the output pairs of the chroma samples at ci
%macro UP_PHASE0 0
    MOVM    m0 LM0, [srcq + ciq * 4]    ; s[k..]
    MOVM    m1 LM1, [srcq + ciq * 4 + 4]
    addps   m1, m0                      ; s[k] + s[k+1]
    mulps   m1, m5
    STORE_PAIRS m0, m1, m2, m3          ; even m0, odd m1
%endmacro

%macro UP_PHASE1 0
    MOVM    m0 LM0, [srcq + ciq * 4]    ; s[k]
    mulps   m1, m0, m7                  ; s[k] * 0.75
    MOVM    m2 LM0, [srcq + ciq * 4 - 4]
    mulps   m2, m6                      ; s[k-1] * 0.25
    addps   m2, m1                      ; even outputs
    MOVM    m3 LM1, [srcq + ciq * 4 + 4]
    mulps   m3, m6                      ; s[k+1] * 0.25
    addps   m3, m1, m3                  ; odd outputs: s[k]*0.75 + s[k+1]*0.25
    STORE_PAIRS m2, m3, m0, m1          ; even m2, odd m3
%endmacro

;-----------------------------------------------------------------------------
; void upsample_h2(float *dst, const float *src, int w, int phase)
; src carries replicated edges: src[-1] = src[0], src[cw] = src[cw - 1].
; Output pairs 2k, 2k+1 from src[k-1], src[k], src[k+1]:
;   phase 0: src[k], (src[k] + src[k+1]) * 0.5
;   phase 1: src[k-1] * 0.25 + src[k] * 0.75, src[k] * 0.75 + src[k+1] * 0.25
; AVX-512: whole vectors while 16 chroma samples remain (they read up to src[cw]),
; then one masked vector: n = cw - k samples, loads of src[k - 1 .. k + n - 1],
; src[k .. k + n], src[k + 1 .. k + n], stores of 2 n outputs.
;-----------------------------------------------------------------------------
%macro UP_LOOP 1 ; phase
%if mmsize == 64
.phase%1:
    lea     tq, [ciq + mmsize / 4]
    cmp     tq, wq
    jg .tail%1
    UP_PHASE%1
    mov     ciq, tq
    cmp     ciq, wq
    jl .phase%1
    RET
.tail%1:
    sub     wq, ciq                     ; n, 1 .. 15
    mov     td, -1
    bzhi    ud, td, wd
    kmovw   k2, ud
    lea     ud, [wq + 1]
    bzhi    ud, td, ud
    kmovw   k1, ud
    add     wd, wd
    bzhi    ud, td, wd
    kmovd   k3, ud
    kshiftrd k4, k3, 16
    UP_MASKS_TAIL
    UP_PHASE%1
    UP_MASKS_WHOLE
    RET
%else
.phase%1:
    UP_PHASE%1
    add     ciq, mmsize / 4
    cmp     ciq, wq
    jl .phase%1
    RET
%endif
%endmacro

%macro UPSAMPLE 0
cglobal cspfix_upsample_h2, 4, 7, 10, dst, src, w, ph, ci, t, u
    movsxdifnidn wq, wd
    add     wq, 1
    shr     wq, 1                       ; chroma samples to produce pairs for
    VBROADCASTSS m5, [half]
    VBROADCASTSS m6, [quarter]
    VBROADCASTSS m7, [threequarters]
%if mmsize == 64
    mova    m8, [pairs_lo]
    mova    m9, [pairs_hi]
%endif
    UP_MASKS_WHOLE
    xor     ciq, ciq
    test    phd, phd
    jnz .phase1
    UP_LOOP 0
    UP_LOOP 1
%endmacro


;-----------------------------------------------------------------------------
; void downsample_h2(float *dst, const float *src, int w, int phase)
; Needs the caller's edges src[-1] = src[0], src[w] = src[w + 1] = src[w - 1].
; a, b, c, d = src[2k - 1], src[2k], src[2k + 1], src[2k + 2]: even/odd samples
; of three windows, in the lane order of shufps; one vpermpd puts them right
; (AVX-512: with the indices lanes_even in m10).
; AVX-512: whole vectors while 16 outputs remain (they read up to src[w + 2]), then
; one masked vector of n = cw - k outputs: its first-half loads read up to
; src[2k + 17] <= src[w + 16], as the AVX2 version's; its second-half loads (LM1)
; only src[2k - 1 + 16 ..] up to src[2k + 2n + 3] <= src[w + 4].
;-----------------------------------------------------------------------------
%macro DOWN_PERMUTE 1
%if mmsize == 64
    vpermpd %1, m10, %1
%elif mmsize == 32
    vpermpd %1, %1, q3120
%endif
%endmacro

%macro DOWN_PHASE0 0
    movu    m0, [srcq + kiq * 8 - 4]
    MOVM    m1 LM1, [srcq + kiq * 8 + mmsize - 4]
    shufps  m2, m0, m1, q2020           ; a
    movu    m3, [srcq + kiq * 8]
    MOVM    m4 LM1, [srcq + kiq * 8 + mmsize]
    shufps  m5, m3, m4, q2020           ; b
    shufps  m6, m3, m4, q3131           ; c
    addps   m2, m5
    addps   m5, m6
    addps   m2, m5
    mulps   m2, m8
    DOWN_PERMUTE m2
    MOVM    [dstq + kiq * 4] SM0, m2
%endmacro

%macro DOWN_PHASE1 0
    movu    m0, [srcq + kiq * 8 - 4]
    MOVM    m1 LM1, [srcq + kiq * 8 + mmsize - 4]
    shufps  m2, m0, m1, q2020           ; a
    movu    m0, [srcq + kiq * 8 + 8]
    MOVM    m1 LM1, [srcq + kiq * 8 + mmsize + 8]
    shufps  m0, m1, q2020               ; d
    movu    m3, [srcq + kiq * 8]
    MOVM    m4 LM1, [srcq + kiq * 8 + mmsize]
    shufps  m5, m3, m4, q2020           ; b
    shufps  m6, m3, m4, q3131           ; c
    addps   m2, m0
    addps   m5, m6
    mulps   m5, m7
    addps   m2, m5
    mulps   m2, m9
    DOWN_PERMUTE m2
    MOVM    [dstq + kiq * 4] SM0, m2
%endmacro

%macro DOWN_LOOP 1 ; phase
%if mmsize == 64
.phase%1:
    lea     tq, [kiq + mmsize / 4]
    cmp     tq, wq
    jg .tail%1
    DOWN_PHASE%1
    mov     kiq, tq
    cmp     kiq, wq
    jl .phase%1
    RET
.tail%1:
    sub     wq, kiq                     ; n, 1 .. 15
    mov     td, -1
    bzhi    ud, td, wd
    kmovw   k3, ud                      ; the n outputs
    lea     ud, [wq * 2 + 2]
    bzhi    ud, td, ud                  ; src[2k - 1 .. 2k + 2n], the floats read
    shr     ud, 16
    kmovw   k2, ud                      ; ... of the second halves
    UP_MASKS_TAIL
    DOWN_PHASE%1
    UP_MASKS_WHOLE
    RET
%else
.phase%1:
    DOWN_PHASE%1
    add     kiq, mmsize / 4
    cmp     kiq, wq
    jl .phase%1
    RET
%endif
%endmacro

%macro DOWNSAMPLE 0
cglobal cspfix_downsample_h2, 4, 7, 11, dst, src, w, ph, ki, t, u
    movsxdifnidn wq, wd
    inc     wq
    shr     wq, 1                       ; cw
    xor     kiq, kiq
    VBROADCASTSS m7, [three]
    VBROADCASTSS m8, [quarter]
    VBROADCASTSS m9, [eighth]
%if mmsize == 64
    mova    m10, [lanes_even]
%endif
    UP_MASKS_WHOLE
    test    phd, phd
    jnz .phase1
    DOWN_LOOP 0
    DOWN_LOOP 1
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
%if HAVE_AVX512_EXTERNAL
INIT_ZMM avx512
FILTERS
UPSAMPLE
DOWNSAMPLE
%endif ; HAVE_AVX512_EXTERNAL
%endif ; ARCH_X86_64
