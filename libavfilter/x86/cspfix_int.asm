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

; iluma: even words 0-3 and odd words 4-7 (of each 16 bytes) interleaved
int_weave:  db 0, 1, 8, 9, 2, 3, 10, 11, 4, 5, 12, 13, 6, 7, 14, 15
            db 0, 1, 8, 9, 2, 3, 10, 11, 4, 5, 12, 13, 6, 7, 14, 15

int_c128:   times 8 dd 128
; iluma (AVX2): the luma bytes of the interleaved even/odd lanes, zero-extended to dwords
int_ylo:    db 0, -1, -1, -1, 1, -1, -1, -1, 2, -1, -1, -1, 3, -1, -1, -1
            db 8, -1, -1, -1, 9, -1, -1, -1, 10, -1, -1, -1, 11, -1, -1, -1
int_yhi:    db 4, -1, -1, -1, 5, -1, -1, -1, 6, -1, -1, -1, 7, -1, -1, -1
            db 12, -1, -1, -1, 13, -1, -1, -1, 14, -1, -1, -1, 15, -1, -1, -1

; CspfixYuvInt: cb, cr (CspfixIMat2: c[3], lo, hi), dc[3], a, lo, hi (int32)
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
; void ichroma(uint8_t *dcb, uint8_t *dcr, const uint8_t *cb, const uint8_t *cr, int w,
;              const CspfixYuvInt *p)
; m8..m10 / m11..m13 = Cb' / Cr' coefficients, m7 = 128, m14/m15 = lo/hi bytes of
; Cb' in the low and of Cr' in the high half of each 8 bytes (xmm)
;-----------------------------------------------------------------------------
%macro ICHROMA_VEC 4 ; dcb, dcr, cb, cr
    pmovzxbd m0, %3
    pmovzxbd m1, %4
    psubd   m0, m7
    psubd   m1, m7
    pmulld  m2, m0, m8
    pmulld  m3, m1, m9
    paddd   m2, m3
    pmulld  m3, m0, m11
    pmulld  m4, m1, m12
    paddd   m3, m4
    paddd   m2, m10
    paddd   m3, m13
    psrad   m2, 22
    psrad   m3, 22
    packssdw m2, m3                     ; Cb' 0-3, Cr' 0-3 (| Cb' 4-7, Cr' 4-7)
%if mmsize == 32
    vextracti128 xm3, m2, 1
    punpckhqdq xm4, xm2, xm3            ; Cr' 0-7
    punpcklqdq xm2, xm3                 ; Cb' 0-7
    packuswb xm2, xm4
    pmaxub  xm2, xm14
    pminub  xm2, xm15
    movq    %1, xm2
    movhps  %2, xm2
%else
    packuswb m2, m2
    pmaxub  m2, m14
    pminub  m2, m15
    movd    %1, m2
    psrlq   m2, 32
    movd    %2, m2
%endif
%endmacro

; BYTES2 xm, lo_mem, hi_mem, tmp, zero: the byte at lo_mem in the low mmsize / 4 bytes of
; each 8, the byte at hi_mem in the others
%macro BYTES2 5
    BCASTB  %1, %2, %5
    BCASTB  %4, %3, %5
%if mmsize == 32
    punpcklqdq %1, %4
%else
    punpckldq %1, %4
%endif
%endmacro

%macro ICHROMA 0
cglobal cspfix_ichroma, 6, 9, 16, -2 * mmsize - 32, dcb, dcr, cb, cr, w, p, x, rem, tmp
    movsxdifnidn wq, wd
    BCASTD  m8,  [pq]
    BCASTD  m9,  [pq + 4]
    BCASTD  m10, [pq + 8]
    BCASTD  m11, [pq + 20]
    BCASTD  m12, [pq + 24]
    BCASTD  m13, [pq + 28]
    pxor    xm1, xm1
    BYTES2  xm14, [pq + 12], [pq + 32], xm2, xm1
    BYTES2  xm15, [pq + 16], [pq + 36], xm2, xm1
    mova    m7, [int_c128]
    xor     xq, xq
    mov     remq, wq
    sub     remq, mmsize / 4
    jl .tail
.loop:
    ICHROMA_VEC [dcbq + xq], [dcrq + xq], [cbq + xq], [crq + xq]
    add     xq, mmsize / 4
    cmp     xq, remq
    jle .loop
.tail:                                  ; the last w % (mmsize / 4) samples via the stack
    mov     remq, wq
    sub     remq, xq
    jle .end
    add     cbq, xq
    add     crq, xq
    add     dcbq, xq
    add     dcrq, xq
    COPYB   rsp, cbq, rem, x, tmp
    COPYB   rsp + mmsize, crq, rem, x, tmp
    ICHROMA_VEC [rsp + 2 * mmsize], [rsp + 2 * mmsize + 16], [rsp], [rsp + mmsize]
    COPYB   dcbq, rsp + 2 * mmsize, rem, x, tmp
    COPYB   dcrq, rsp + 2 * mmsize + 16, rem, x, tmp
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
%macro ILUMA_VEC 5 ; dst, y, d (address of d[k]), phase, a == 1 << 22
    movu    m1, [%3]                    ; d[k]
    movu    m2, [%3 + 4]                ; d[k + 1]
%if %5
    ; (2^22 y + h) >> 22 = y + (h >> 22): even and odd h >> 22 packed to words,
    ; interleaved by a shuffle
%if %4
    movu    m0, [%3 - 4]                ; d[k - 1]
    pslld   m3, m1, 1
    paddd   m1, m3                      ; 3 d[k]
    paddd   m0, m1                      ; even: d[k - 1] + 3 d[k]
    paddd   m1, m2                      ; odd:  3 d[k] + d[k + 1]
    psrad   m0, 22
    psrad   m1, 22
%else
    paddd   m2, m1
    psrad   m0, m1, 20                  ; even: 4 d[k] >> 22
    psrad   m1, m2, 21                  ; odd:  2 (d[k] + d[k + 1]) >> 22
%endif
    packssdw m0, m1
    pshufb  m0, m11
    pmovzxbw m3, [%2]
    paddw   m0, m3
%else
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
%endif
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

%macro ILUMA_PHASE 2 ; phase, a == 1 << 22
    mov     remq, wq
    sub     remq, mmsize / 2
    jl .tail%1%2
.loop%1%2:
    ILUMA_VEC [dstq + xq], yq + xq, dltq + 2 * xq, %1, %2
    add     xq, mmsize / 2
    cmp     xq, remq
    jle .loop%1%2
.tail%1%2:
    mov     remq, wq
    sub     remq, xq
    jle .end
    add     yq, xq
    add     dstq, xq
    lea     dltq, [dltq + 2 * xq]
    COPYB   rsp, yq, rem, x, tmp
    ILUMA_VEC [rsp + mmsize], rsp, dltq, %1, %2
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
    xor     xq, xq
    cmp     dword [pq + YI_A], 1 << 22
    je .unit
%if mmsize == 32
    mova    m11, [int_ylo]
    mova    m12, [int_yhi]
%endif
    test    phased, phased
    jnz .phase1
    ILUMA_PHASE 0, 0
.phase1:
    ILUMA_PHASE 1, 0
.unit:
    mova    m11, [int_weave]
    test    phased, phased
    jnz .phase1u
    ILUMA_PHASE 0, 1
.phase1u:
    ILUMA_PHASE 1, 1
.end:
    RET
%endmacro

%if ARCH_X86_64
INIT_XMM sse4
ICHROMA
IDELTA
IBLEND
ILUMA
%if HAVE_AVX2_EXTERNAL
INIT_YMM avx2
ICHROMA
IDELTA
IBLEND
ILUMA
%endif
%endif
