;*****************************************************************************
;* Integer kernels of the cspfix filter (matrix-only 8-bit Y'CbCr): int32
;* fixed point, bit-exact with the C versions in libavfilter/cspfix_dsp.c.
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

int_c128:   times 8 dd 128
; iluma (AVX2): the luma bytes of the interleaved even/odd lanes, zero-extended to dwords
int_ylo:    db 0, -1, -1, -1, 1, -1, -1, -1, 2, -1, -1, -1, 3, -1, -1, -1
            db 8, -1, -1, -1, 9, -1, -1, -1, 10, -1, -1, -1, 11, -1, -1, -1
int_yhi:    db 4, -1, -1, -1, 5, -1, -1, -1, 6, -1, -1, -1, 7, -1, -1, -1
            db 12, -1, -1, -1, 13, -1, -1, -1, 14, -1, -1, -1, 15, -1, -1, -1

; CspfixIMat2: c[3], lo, hi (int32); CspfixYuvInt: cb, cr, dc[3], a, lo, hi
%define IMAT2_LO 12
%define IMAT2_HI 16
%define YI_A     52
%define YI_LO    56
%define YI_HI    60

SECTION .text

; BCASTD m, mem: broadcast one dword
%macro BCASTD 2
%if cpuflag(avx2)
    vpbroadcastd %1, %2
%else
    movd    %1, %2
    pshufd  %1, %1, 0
%endif
%endmacro

; BCASTB m, mem, zero: broadcast the low byte of a dword
%macro BCASTB 3
%if cpuflag(avx2)
    vpbroadcastb %1, %2
%else
    movd    %1, %2
    pshufb  %1, %3
%endif
%endmacro

; COPYB dst, src, n, idx, tmp: copy n (> 0) bytes
%macro COPYB 5
    xor     %4q, %4q
%%loop:
    movzx   %5d, byte [%2 + %4q]
    mov     [%1 + %4q], %5b
    inc     %4q
    cmp     %4q, %3q
    jl %%loop
%endmacro

; u * c0 + v * c1 + c2 of mmsize / 4 chroma samples into m0 (uses m1; m2..m4 = c0..c2,
; m7 = 128)
%macro CMAT 2 ; cb, cr
    pmovzxbd m0, %1
    pmovzxbd m1, %2
    psubd   m0, m7
    psubd   m1, m7
    pmulld  m0, m2
    pmulld  m1, m3
    paddd   m0, m1
    paddd   m0, m4
%endmacro

;-----------------------------------------------------------------------------
; void imat2(uint8_t *dst, const uint8_t *cb, const uint8_t *cr, int w, const CspfixIMat2 *m)
;-----------------------------------------------------------------------------
%macro IMAT2_VEC 3 ; dst, cb, cr
    CMAT    %2, %3
    psrad   m0, 22
%if mmsize == 32
    vextracti128 xm1, m0, 1
    packssdw xm0, xm1
%else
    packssdw m0, m0
%endif
    packuswb xm0, xm0
    pmaxub  xm0, xm5
    pminub  xm0, xm6
%if mmsize == 32
    movq    %1, xm0
%else
    movd    %1, xm0
%endif
%endmacro

%macro IMAT2 0
cglobal cspfix_imat2, 5, 8, 8, -3 * mmsize, dst, cb, cr, w, mat, x, rem, tmp
    movsxdifnidn wq, wd
    BCASTD  m2, [matq]
    BCASTD  m3, [matq + 4]
    BCASTD  m4, [matq + 8]
    pxor    xm1, xm1
    BCASTB  xm5, [matq + IMAT2_LO], xm1
    BCASTB  xm6, [matq + IMAT2_HI], xm1
    mova    m7, [int_c128]
    xor     xq, xq
    mov     remq, wq
    sub     remq, mmsize / 4
    jl .tail
.loop:
    IMAT2_VEC [dstq + xq], [cbq + xq], [crq + xq]
    add     xq, mmsize / 4
    cmp     xq, remq
    jle .loop
.tail:                                  ; the last w % (mmsize / 4) samples via the stack
    mov     remq, wq
    sub     remq, xq
    jle .end
    add     cbq, xq
    add     crq, xq
    add     dstq, xq
    COPYB   rsp, cbq, rem, x, tmp
    COPYB   rsp + mmsize, crq, rem, x, tmp
    IMAT2_VEC [rsp + 2 * mmsize], [rsp], [rsp + mmsize]
    COPYB   dstq, rsp + 2 * mmsize, rem, x, tmp
.end:
    RET
%endmacro

;-----------------------------------------------------------------------------
; void idelta(int32_t *dst, const uint8_t *cb, const uint8_t *cr, int w, const int32_t c[3])
; dst is padded: whole vectors are stored
;-----------------------------------------------------------------------------
%macro IDELTA 0
cglobal cspfix_idelta, 5, 8, 8, -2 * mmsize, dst, cb, cr, w, coef, x, rem, tmp
    movsxdifnidn wq, wd
    BCASTD  m2, [coefq]
    BCASTD  m3, [coefq + 4]
    BCASTD  m4, [coefq + 8]
    mova    m7, [int_c128]
    xor     xq, xq
    mov     remq, wq
    sub     remq, mmsize / 4
    jl .tail
.loop:
    CMAT    [cbq + xq], [crq + xq]
    psrad   m0, 4
    movu    [dstq + 4 * xq], m0
    add     xq, mmsize / 4
    cmp     xq, remq
    jle .loop
.tail:
    mov     remq, wq
    sub     remq, xq
    jle .end
    lea     dstq, [dstq + 4 * xq]
    add     cbq, xq
    add     crq, xq
    COPYB   rsp, cbq, rem, x, tmp
    COPYB   rsp + mmsize, crq, rem, x, tmp
    CMAT    [rsp], [rsp + mmsize]
    psrad   m0, 4
    movu    [dstq], m0
.end:
    RET
%endmacro

;-----------------------------------------------------------------------------
; void iblend(int32_t *dst, const int32_t *a, const int32_t *b, int w, int wb)
; dst = 4 a + wb (b - a); whole vectors (dst, a and b are padded)
;-----------------------------------------------------------------------------
%macro IBLEND 0
cglobal cspfix_iblend, 5, 6, 3, dst, a, b, w, wgt, x
    movsxdifnidn wq, wd
    movd    xm2, wgtd
%if mmsize == 32
    vpbroadcastd m2, xm2
%else
    pshufd  m2, m2, 0
%endif
    xor     xq, xq
.loop:
    movu    m0, [aq + 4 * xq]
    movu    m1, [bq + 4 * xq]
    psubd   m1, m0
    pmulld  m1, m2
    pslld   m0, 2
    paddd   m0, m1
    movu    [dstq + 4 * xq], m0
    add     xq, mmsize / 4
    cmp     xq, wq
    jl .loop
    RET
%endmacro

;-----------------------------------------------------------------------------
; void iluma(uint8_t *dst, const uint8_t *y, const int32_t *d, int w, int phase,
;            const CspfixYuvInt *p)
; mmsize / 2 luma samples per step, from mmsize / 4 deltas d[k - 1 .. k + mmsize / 4]
;-----------------------------------------------------------------------------
; m8 = a, m9/m10 = lo/hi bytes (xmm), m11/m12 = luma shuffles (AVX2)
%macro ILUMA_VEC 4 ; dst, y, d (address of d[k]), phase
    movu    m1, [%3]                    ; d[k]
    movu    m2, [%3 + 4]                ; d[k + 1]
%if %4
    movu    m0, [%3 - 4]                ; d[k - 1]
    pslld   m3, m1, 1
    paddd   m1, m3                      ; 3 d[k]
    paddd   m0, m1                      ; even: d[k - 1] + 3 d[k]
    paddd   m1, m2                      ; odd:  3 d[k] + d[k + 1]
%else
    pslld   m0, m1, 2                   ; even: 4 d[k]
    paddd   m1, m2
    pslld   m1, 1                       ; odd:  2 (d[k] + d[k + 1])
%endif
    punpckhdq m2, m0, m1
    punpckldq m0, m1
%if mmsize == 32
    vbroadcasti128 m3, [%2]
    pshufb  m4, m3, m12
    pshufb  m3, m11
%else
    pmovzxbd m3, [%2]
    pmovzxbd m4, [%2 + 4]
%endif
    pmulld  m3, m8
    pmulld  m4, m8
    paddd   m0, m3
    paddd   m2, m4
    psrad   m0, 22
    psrad   m2, 22
    packssdw m0, m2
%if mmsize == 32
    vextracti128 xm2, m0, 1
    packuswb xm0, xm2
%else
    packuswb m0, m0
%endif
    pmaxub  xm0, xm9
    pminub  xm0, xm10
%if mmsize == 32
    movu    %1, xm0
%else
    movq    %1, xm0
%endif
%endmacro

%macro ILUMA_PHASE 1
    mov     remq, wq
    sub     remq, mmsize / 2
    jl .tail%1
.loop%1:
    ILUMA_VEC [dstq + xq], yq + xq, dltq + 2 * xq, %1
    add     xq, mmsize / 2
    cmp     xq, remq
    jle .loop%1
.tail%1:
    mov     remq, wq
    sub     remq, xq
    jle .end
    add     yq, xq
    add     dstq, xq
    lea     dltq, [dltq + 2 * xq]
    COPYB   rsp, yq, rem, x, tmp
    ILUMA_VEC [rsp + mmsize], rsp, dltq, %1
    COPYB   dstq, rsp + mmsize, rem, x, tmp
    jmp .end
%endmacro

%macro ILUMA 0
cglobal cspfix_iluma, 6, 9, 13, -2 * mmsize, dst, y, dlt, w, phase, p, x, rem, tmp
    movsxdifnidn wq, wd
    BCASTD  m8, [pq + YI_A]
    pxor    xm1, xm1
    BCASTB  xm9, [pq + YI_LO], xm1
    BCASTB  xm10, [pq + YI_HI], xm1
%if mmsize == 32
    mova    m11, [int_ylo]
    mova    m12, [int_yhi]
%endif
    xor     xq, xq
    test    phased, phased
    jnz .phase1
    ILUMA_PHASE 0
.phase1:
    ILUMA_PHASE 1
.end:
    RET
%endmacro

%if ARCH_X86_64
INIT_XMM sse4
IMAT2
IDELTA
IBLEND
ILUMA
%if HAVE_AVX2_EXTERNAL
INIT_YMM avx2
IMAT2
IDELTA
IBLEND
ILUMA
%endif
%endif
