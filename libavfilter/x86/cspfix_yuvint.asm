;*****************************************************************************
;* SIMD kernels of the cspfix filter, yuvint family: the integer matrix-only path of
;* 8- to 10-bit Y'CbCr (ichroma, idelta, ivblend, iluma, 8-bit samples and 16-bit
;* containers), int32 fixed point, bit-exact with the C versions in
;* libavfilter/cspfix_dsp.c.
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

SECTION_RODATA 64

; ichroma: Cb' and Cr' dwords of the 128-bit lanes (packssdw, packuswb) in sample order
int_perm:   dd 0, 4, 1, 5, 2, 6, 3, 7
int_perm16: dd 0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15
; iluma (AVX-512): the qwords of two vectors packed to bytes (packuswb) in sample order
int_qperm:  dq 0, 2, 4, 6, 1, 3, 5, 7

; iluma: even words 0-3 and odd words 4-7 (of each 16 bytes) interleaved
int_weave:  db 0, 1, 8, 9, 2, 3, 10, 11, 4, 5, 12, 13, 6, 7, 14, 15
            db 0, 1, 8, 9, 2, 3, 10, 11, 4, 5, 12, 13, 6, 7, 14, 15

; iluma (AVX2): the luma bytes of the interleaved even/odd lanes, zero-extended to dwords
int_ylo:    db 0, -1, -1, -1, 1, -1, -1, -1, 2, -1, -1, -1, 3, -1, -1, -1
            db 8, -1, -1, -1, 9, -1, -1, -1, 10, -1, -1, -1, 11, -1, -1, -1
int_yhi:    db 4, -1, -1, -1, 5, -1, -1, -1, 6, -1, -1, -1, 7, -1, -1, -1
            db 12, -1, -1, -1, 13, -1, -1, -1, 14, -1, -1, -1, 15, -1, -1, -1

; CspfixYuvInt (int32 fields; pinned by static_assert in x86/cspfix_init.c):
; cb, cr (CspfixIMat2: c[3], lo, hi), dc[3], a, lo, hi, shift, mask, fold[3]
%define YI_CB_C   0                     ; cb.c[3]
%define YI_CB_LO 12
%define YI_CB_HI 16
%define YI_CR_C  20                     ; cr.c[3]
%define YI_CR_LO 32
%define YI_CR_HI 36
%define YI_DC    40                     ; dc[3]
%define YI_A     52
%define YI_LO    56
%define YI_HI    60
%define YI_SHIFT 64
%define YI_MASK  68
%define YI_FOLD  72

; constants of the definition (cspfix_dsp.h; pinned by static_assert in x86/cspfix_init.c)
%define YI_S8        22                 ; CSPFIX_YUVINT_SHIFT8: S of 8-bit samples
%define YI_MID8_LOG2 7                  ; CSPFIX_YUVINT_MID8 = 1 << 7
%define YI_DSHIFT    4                  ; CSPFIX_YUVINT_DSHIFT: deltas at 2^-(S - 4)

SECTION .text

; BCASTB m, mem, zero: broadcast the low byte of a dword
%macro BCASTB 3
%if cpuflag(avx2)
    vpbroadcastb %1, %2
%else
    movd    %1, %2
    pshufb  %1, %3
%endif
%endmacro

; HALVES dst, tmp, b|w, lo offset, hi offset (register numbers, byte or word): the value
; at [pq + lo offset] broadcast to the low half of m<dst>, the one at [pq + hi offset] to
; the high half (AVX2 and AVX-512; uses m<tmp>)
%macro HALVES 5
%if mmsize == 64
    vpbroadcast%3 ym%1, [pq + %4]
    vpbroadcast%3 ym%2, [pq + %5]
    vinserti64x4 m%1, m%1, ym%2, 1
%else
    vpbroadcast%3 xm%1, [pq + %4]
    vpbroadcast%3 xm%2, [pq + %5]
    vinserti128  m%1, m%1, xm%2, 1
%endif
%endmacro

; COPYS size, dst, src, n, idx, tmp: copy n (> 0) samples of size bytes (1 or 2)
%macro COPYS 6
    xor     %5q, %5q
%%loop:
%if %1 == 1
    movzx   %6d, byte [%3 + %5q]
    mov     [%2 + %5q], %6b
%else
    movzx   %6d, word [%3 + 2 * %5q]
    mov     [%2 + 2 * %5q], %6w
%endif
    inc     %5q
    cmp     %5q, %4q
    jl %%loop
%endmacro

; ICHROMA_ROW vec, samples per step, bytes per sample: the ichroma loop, and the last
; w % step samples via the stack (cb, cr at rsp, rsp + mmsize; out at rsp + 2 mmsize)
%macro ICHROMA_ROW 3
    xor     xq, xq
    mov     remq, wq
    sub     remq, %2
    jl .tail
.loop:
    %1      [dcbq + %3 * xq], [dcrq + %3 * xq], cbq + %3 * xq, crq + %3 * xq
    add     xq, %2
    cmp     xq, remq
    jle .loop
.tail:
    mov     remq, wq
    sub     remq, xq
    jle .end
    lea     cbq, [cbq + %3 * xq]
    lea     crq, [crq + %3 * xq]
    lea     dcbq, [dcbq + %3 * xq]
    lea     dcrq, [dcrq + %3 * xq]
    COPYS   %3, rsp, cbq, rem, x, tmp
    COPYS   %3, rsp + mmsize, crq, rem, x, tmp
    %1      [rsp + 2 * mmsize], [rsp + 2 * mmsize + mmsize / 2], rsp, rsp + mmsize
    COPYS   %3, dcbq, rsp + 2 * mmsize, rem, x, tmp
    COPYS   %3, dcrq, rsp + 2 * mmsize + mmsize / 2, rem, x, tmp
.end:
    RET
%endmacro

; IDELTA_ROW cmat, bytes per sample: the idelta loop (mmsize / 4 deltas a step), the rest
; via the stack (dst is padded: whole vectors are stored)
%macro IDELTA_ROW 2
    xor     xq, xq
    mov     remq, wq
    sub     remq, mmsize / 4
    jl .tail
.loop:
    %1      [cbq + %2 * xq], [crq + %2 * xq]
    psrad   m0, YI_DSHIFT
    movu    [dstq + 4 * xq], m0
    add     xq, mmsize / 4
    cmp     xq, remq
    jle .loop
.tail:
    mov     remq, wq
    sub     remq, xq
    jle .end
    lea     dstq, [dstq + 4 * xq]
    lea     cbq, [cbq + %2 * xq]
    lea     crq, [crq + %2 * xq]
    COPYS   %2, rsp, cbq, rem, x, tmp
    COPYS   %2, rsp + mmsize, crq, rem, x, tmp
    %1      [rsp], [rsp + mmsize]
    psrad   m0, YI_DSHIFT
    movu    [dstq], m0
.end:
    RET
%endmacro

; ILUMA_STEPS vec, bytes per sample, phase, unit: iluma's loop of mmsize / 2 samples a
; step from x, and the rest via the stack (y at rsp, out at rsp + mmsize)
%macro ILUMA_STEPS 4
    mov     remq, wq
    sub     remq, mmsize / 2
    cmp     xq, remq
    jg .tail%3%4
.loop%3%4:
    %1      [dstq + %2 * xq], yq + %2 * xq, 2 * xq, %3, %4
    add     xq, mmsize / 2
    cmp     xq, remq
    jle .loop%3%4
.tail%3%4:
    mov     remq, wq
    sub     remq, xq
    jle .end
    lea     yq, [yq + %2 * xq]
    lea     dstq, [dstq + %2 * xq]
    lea     dltq, [dltq + 2 * xq]
    COPYS   %2, rsp, yq, rem, x, tmp
    %1      [rsp + mmsize], rsp, 0, %3, %4
    COPYS   %2, dstq, rsp + mmsize, rem, x, tmp
    jmp .end
%endmacro

; u * c0 + v * c1 + c2 of mmsize / 4 chroma samples into m0 (uses m1; m2, m3 = c0, c1,
; m4 = c2 - 128 (c0 + c1): the int32 products may wrap, the sum does not)
%macro CMAT 2 ; cb, cr
    pmovzxbd m0, %1
    pmovzxbd m1, %2
    pmulld  m0, m2
    pmulld  m1, m3
    paddd   m0, m1
    paddd   m0, m4
%endmacro

;-----------------------------------------------------------------------------
; void ichroma_8(uint8_t *dcb, uint8_t *dcr, const uint8_t *cb, const uint8_t *cr, int w,
;              const CspfixYuvInt *p)
; m8..m10 / m11..m13 = Cb' / Cr' coefficients (c2 with the 128s folded in), m7 = the
; final dword order (AVX2), m14/m15 = lo/hi bytes, Cb' in the low, Cr' in the high half
;-----------------------------------------------------------------------------
; one output of mmsize / 4 samples: %1 = (cb * c0 + cr * c1 + c2 - 128 (c0 + c1)) >> 22
; (the int32 products may wrap, the sum, u * c0 + v * c1 + c2, does not)
%macro CMUL 6 ; dst, cb, cr, c0, c1, c2
    pmulld  %1, %2, %4
    pmulld  m6, %3, %5
    paddd   %1, m6
    paddd   %1, %6
    psrad   %1, YI_S8
%endmacro

%macro ICHROMA_VEC 4 ; dcb, dcr (operands), cb, cr (addresses): mmsize / 2 samples
    pmovzxbd m0, [%3]
    pmovzxbd m1, [%4]
    pmovzxbd m2, [%3 + mmsize / 4]
    pmovzxbd m3, [%4 + mmsize / 4]
    CMUL    m4, m0, m1, m8, m9, m10
    CMUL    m5, m2, m3, m8, m9, m10
    packssdw m4, m5                     ; Cb' (0-3, 8-11 | 4-7, 12-15 with ymm)
    CMUL    m5, m0, m1, m11, m12, m13
    CMUL    m0, m2, m3, m11, m12, m13
    packssdw m5, m0                     ; Cr'
    packuswb m4, m5
%if mmsize >= 32
    vpermd  m4, m7, m4                  ; Cb' 0-15 (0-31), Cr' 0-15 (0-31)
%endif
    pmaxub  m4, m14
    pminub  m4, m15
%if mmsize == 64
    movu    %1, ym4
    vextracti64x4 %2, m4, 1
%elif mmsize == 32
    movu    %1, xm4
    vextracti128 %2, m4, 1
%else
    movq    %1, m4
    movhps  %2, m4
%endif
%endmacro

%macro ICHROMA 0
cglobal cspfix_ichroma_8, 6, 9, 16, -3 * mmsize, dcb, dcr, cb, cr, w, p, x, rem, tmp
    movsxdifnidn wq, wd
    VBROADCASTSS m8,  [pq + YI_CB_C]
    VBROADCASTSS m9,  [pq + YI_CB_C + 4]
    VBROADCASTSS m11, [pq + YI_CR_C]
    VBROADCASTSS m12, [pq + YI_CR_C + 4]
    ; c2 - 128 (c0 + c1)
    VBROADCASTSS m10, [pq + YI_CB_C + 8]
    paddd   m0, m8, m9
    pslld   m0, YI_MID8_LOG2
    psubd   m10, m0
    VBROADCASTSS m13, [pq + YI_CR_C + 8]
    paddd   m0, m11, m12
    pslld   m0, YI_MID8_LOG2
    psubd   m13, m0
    pxor    xm1, xm1
%if mmsize >= 32
    HALVES  14, 2, b, YI_CB_LO, YI_CR_LO
    HALVES  15, 2, b, YI_CB_HI, YI_CR_HI
%if mmsize == 64
    movu    m7, [int_perm16]
%else
    mova    m7, [int_perm]
%endif
%else
    BCASTB  m14, [pq + YI_CB_LO], m1
    BCASTB  m2,  [pq + YI_CR_LO], m1
    punpcklqdq m14, m2
    BCASTB  m15, [pq + YI_CB_HI], m1
    BCASTB  m2,  [pq + YI_CR_HI], m1
    punpcklqdq m15, m2
%endif
    ICHROMA_ROW ICHROMA_VEC, mmsize / 2, 1
%endmacro

;-----------------------------------------------------------------------------
; void idelta_8(int32_t *dst, const uint8_t *cb, const uint8_t *cr, int w, const int32_t c[3])
; dst is padded: whole vectors are stored
;-----------------------------------------------------------------------------
%macro IDELTA 0
cglobal cspfix_idelta_8, 5, 8, 8, -2 * mmsize, dst, cb, cr, w, coef, x, rem, tmp
    movsxdifnidn wq, wd
    VBROADCASTSS m2, [coefq]
    VBROADCASTSS m3, [coefq + 4]
    VBROADCASTSS m4, [coefq + 8]
    paddd   m0, m2, m3
    pslld   m0, YI_MID8_LOG2
    psubd   m4, m0
    IDELTA_ROW CMAT, 1
%endmacro

;-----------------------------------------------------------------------------
; void ivblend(int32_t *dst, const int32_t *da, const int32_t *db, int n, int wb)
; dst[k] = 4 da[k] + wb (db[k] - da[k]) for k = -1 .. n (whole vectors: up to n + mmsize / 4)
; The vectors start at k = 0, where the rows are vector-aligned (no load or store
; splits a cache line), k = -1 goes through GPRs; wb = 1 and 3 (4:2:0, chroma
; between the luma rows) without pmulld: 3 da + db = 4 da + (db - da),
; da + 3 db = 4 db - (db - da). Both halved the time of a 960-delta row.
;-----------------------------------------------------------------------------
; IVBLEND_LOOP name, ops: dst = ops on m0 = da, m1 = db - da (m2 free)
%macro IVBLEND_LOOP 1
    xor     xq, xq
.loop%1:
    movu    m0, [srcaq + xq * 4]
    movu    m1, [srcbq + xq * 4]
%ifidn %1, 1
    psubd   m1, m0
    pslld   m0, 2
    paddd   m0, m1
%elifidn %1, 3
    psubd   m2, m1, m0
    pslld   m0, m1, 2
    psubd   m0, m2
%else
    psubd   m1, m0
    pmulld  m1, m3
    pslld   m0, 2
    paddd   m0, m1
%endif
    movu    [dstq + xq * 4], m0
    add     xq, mmsize / 4
    cmp     xq, nq
    jle .loop%1
    RET
%endmacro

%macro IVBLEND 0
cglobal cspfix_ivblend, 5, 7, 4, dst, srca, srcb, n, wgt, x, e
    movsxdifnidn nq, nd
    mov     ed, [srcbq - 4]
    mov     xd, [srcaq - 4]
    sub     ed, xd
    imul    ed, wgtd
    lea     ed, [ed + xd * 4]
    mov     [dstq - 4], ed
    cmp     wgtd, 1
    je .w1
    cmp     wgtd, 3
    je .w3
    movd    xm3, wgtd
    VBROADCASTSS m3, xm3
    IVBLEND_LOOP any
.w1:
    IVBLEND_LOOP 1
.w3:
    IVBLEND_LOOP 3
%endmacro

;-----------------------------------------------------------------------------
; void iluma_8(uint8_t *dst, const uint8_t *y, const int32_t *d, int w, int phase,
;            const CspfixYuvInt *p)
; mmsize / 2 luma samples per step, from mmsize / 4 deltas d[k - 1 .. k + mmsize / 4]
; (d vertically interpolated by ivblend)
;-----------------------------------------------------------------------------
; m8 = a, m9/m10 = lo/hi bytes, m11/m12 = luma shuffles (AVX2)
; ILUMA_WORDS y, byte offset of d[k], phase, a == 1 << 22: the outputs of mmsize / 2
; luma samples as words in m0 (before the saturation to bytes and the clamp)
%macro ILUMA_WORDS 4
    movu    m1, [dltq + %2]          ; d[k]
    movu    m2, [dltq + %2 + 4]      ; d[k + 1]
    ; interpolated deltas of the even and odd luma samples into m0, m1 (>> 22 if a == 1 << 22)
%if %3
    movu    m0, [dltq + %2 - 4]      ; d[k - 1]
    pslld   m3, m1, 1
    paddd   m1, m3                      ; 3 d[k]
    paddd   m0, m1                      ; even: d[k - 1] + 3 d[k]
    paddd   m1, m2                      ; odd:  3 d[k] + d[k + 1]
%if %4
    psrad   m0, YI_S8
    psrad   m1, YI_S8
%endif
%elif %4
    paddd   m2, m1
    psrad   m0, m1, YI_S8 - 2           ; even: 4 d[k] >> 22
    psrad   m1, m2, YI_S8 - 1           ; odd:  2 (d[k] + d[k + 1]) >> 22
%else
    pslld   m0, m1, 2                   ; even: 4 d[k]
    paddd   m1, m2
    pslld   m1, 1                       ; odd:  2 (d[k] + d[k + 1])
%endif
%if %4
    ; (2^22 y + h) >> 22 = y + (h >> 22): even and odd h >> 22 packed to words,
    ; interleaved by a shuffle
    packssdw m0, m1
    pshufb  m0, m11
    pmovzxbw m3, [%1]
    paddw   m0, m3
%else
    punpckhdq m2, m0, m1
    punpckldq m0, m1
%if mmsize == 64
    ; lane i of m0 / m2: luma 8i .. 8i + 3 / 8i + 4 .. 8i + 7; so are the luma words
    ; of lane i unpacked with zero (m12)
    pmovzxbw m4, [%1]
    punpcklwd m3, m4, m12
    punpckhwd m4, m12
%elif mmsize == 32
    vbroadcasti128 m3, [%1]
    pshufb  m4, m3, m12
    pshufb  m3, m11
%else
    pmovzxbd m3, [%1]
    pmovzxbd m4, [%1 + 4]
%endif
    pmulld  m3, m8
    pmulld  m4, m8
    paddd   m0, m3
    paddd   m2, m4
    psrad   m0, YI_S8
    psrad   m2, YI_S8
    packssdw m0, m2
%endif
%endmacro

; ILUMA_VEC dst, y, byte offset of d[k], phase, a == 1 << 22: mmsize / 2 samples
%macro ILUMA_VEC 5
    ILUMA_WORDS %2, %3, %4, %5
%if mmsize == 64
    pxor    xm2, xm2
    pmaxsw  m0, m2
    vpmovuswb ym0, m0                   ; [0, 32767] to bytes, saturated as packuswb
%elif mmsize == 32
    vextracti128 xm2, m0, 1
    packuswb xm0, xm2
%else
    packuswb m0, m0
%endif
%if mmsize == 64
    pmaxub  ym0, ym9
    pminub  ym0, ym10
    movu    %1, ym0
%else
    pmaxub  xm0, xm9
    pminub  xm0, xm10
%endif
%if mmsize == 64
%elif mmsize == 32
    movu    %1, xm0
%else
    movq    %1, xm0
%endif
%endmacro

%macro ILUMA_PHASE 2 ; phase, a == 1 << 22
%if mmsize >= 32
    ; 2 vectors per step: one saturation to bytes, clamp and store for both
    mov     remq, wq
    sub     remq, mmsize
    jl .one%1%2
.loop2%1%2:
    ILUMA_WORDS yq + xq, 2 * xq, %1, %2
    mova    m13, m0
    ILUMA_WORDS yq + xq + mmsize / 2, 2 * xq + mmsize, %1, %2
    packuswb m13, m0
%if mmsize == 64
    vpermq  m13, m14, m13
%else
    vpermq  m13, m13, q3120
%endif
    pmaxub  m13, m9
    pminub  m13, m10
    movu    [dstq + xq], m13
    add     xq, mmsize
    cmp     xq, remq
    jle .loop2%1%2
.one%1%2:
%endif
    ILUMA_STEPS ILUMA_VEC, 1, %1, %2
%endmacro

%macro ILUMA 0
cglobal cspfix_iluma_8, 6, 9, 15, -2 * mmsize, dst, y, dlt, w, phase, p, x, rem, tmp
    movsxdifnidn wq, wd
    VBROADCASTSS m8, [pq + YI_A]
    pxor    xm1, xm1
    BCASTB  m9, [pq + YI_LO], m1
    BCASTB  m10, [pq + YI_HI], m1
    xor     xq, xq
%if mmsize == 64
    movu    m14, [int_qperm]
%endif
    cmp     dword [pq + YI_A], 1 << YI_S8
    je .unit
%if mmsize == 64
    pxor    xm12, xm12
%elif mmsize == 32
    mova    m11, [int_ylo]
    mova    m12, [int_yhi]
%endif
    test    phased, phased
    jnz .phase1
    ILUMA_PHASE 0, 0
.phase1:
    ILUMA_PHASE 1, 0
.unit:
%if mmsize == 64
    vbroadcasti32x4 m11, [int_weave]
%else
    mova    m11, [int_weave]
%endif
    test    phased, phased
    jnz .phase1u
    ILUMA_PHASE 0, 1
.phase1u:
    ILUMA_PHASE 1, 1
.end:
    RET
%endmacro


;-----------------------------------------------------------------------------
; 9- and 10-bit samples in 16-bit containers (AVX2): as the 8-bit kernels, with the
; shift S and the sample mask from CspfixYuvInt, the mid-level folded into c2 (fold[]),
; and natural sample order throughout (no byte weaving).
;-----------------------------------------------------------------------------
; CMAT16 cb, cr: m0 = c0 u + c1 v + fold of mmsize / 4 samples (m2, m3 = c0, c1,
; m4 = fold, m5 = the sample mask as dwords; uses m1)
%macro CMAT16 2
    pmovzxwd m0, %1
    pmovzxwd m1, %2
    pand    m0, m5
    pand    m1, m5
    pmulld  m0, m2
    pmulld  m1, m3
    paddd   m0, m1
    paddd   m0, m4
%endmacro

; void idelta_16(int32_t *dst, const uint16_t *cb, const uint16_t *cr, int w,
;               const CspfixYuvInt *p)
%macro IDELTA16 0
cglobal cspfix_idelta_16, 5, 8, 6, -2 * mmsize, dst, cb, cr, w, p, x, rem, tmp
    movsxdifnidn wq, wd
    VBROADCASTSS m2, [pq + YI_DC]
    VBROADCASTSS m3, [pq + YI_DC + 4]
    VBROADCASTSS m4, [pq + YI_FOLD + 8]
    VBROADCASTSS m5, [pq + YI_MASK]
    IDELTA_ROW CMAT16, 2
%endmacro

; void ichroma_16(uint16_t *dcb, uint16_t *dcr, const uint16_t *cb, const uint16_t *cr,
;                int w, const CspfixYuvInt *p): mmsize / 4 samples per step
; m8..m10 / m11..m13 = Cb' / Cr' c0, c1, fold; m5 = mask, xm7 = S,
; m14 / m15 = lo / hi words (Cb' in the low, Cr' in the high half)
%macro ICHROMA16_VEC 4 ; dcb, dcr (operands), cb, cr (addresses)
    pmovzxwd m0, [%3]
    pmovzxwd m1, [%4]
    pand    m0, m5
    pand    m1, m5
    pmulld  m2, m0, m8
    pmulld  m3, m1, m9
    paddd   m2, m3
    paddd   m2, m10
    psrad   m2, xm7                     ; Cb'
    pmulld  m3, m0, m11
    pmulld  m4, m1, m12
    paddd   m3, m4
    paddd   m3, m13
    psrad   m3, xm7                     ; Cr'
    packssdw m2, m3                     ; Cb' 0-3, Cr' 0-3 | Cb' 4-7, Cr' 4-7 ...
%if mmsize == 64
    vpermq  m2, m6, m2                  ; Cb' 0-15 | Cr' 0-15
%else
    vpermq  m2, m2, q3120               ; Cb' 0-7 | Cr' 0-7
%endif
    pmaxsw  m2, m14
    pminsw  m2, m15
%if mmsize == 64
    movu    %1, ym2
    vextracti64x4 %2, m2, 1
%else
    movu    %1, xm2
    vextracti128 %2, m2, 1
%endif
%endmacro

%macro ICHROMA16 0
cglobal cspfix_ichroma_16, 6, 9, 16, -3 * mmsize, dcb, dcr, cb, cr, w, p, x, rem, tmp
    movsxdifnidn wq, wd
    VBROADCASTSS m8,  [pq + YI_CB_C]
    VBROADCASTSS m9,  [pq + YI_CB_C + 4]
    VBROADCASTSS m10, [pq + YI_FOLD]
    VBROADCASTSS m11, [pq + YI_CR_C]
    VBROADCASTSS m12, [pq + YI_CR_C + 4]
    VBROADCASTSS m13, [pq + YI_FOLD + 4]
    VBROADCASTSS m5,  [pq + YI_MASK]
    movd    xm7, [pq + YI_SHIFT]
    HALVES  14, 0, w, YI_CB_LO, YI_CR_LO
    HALVES  15, 0, w, YI_CB_HI, YI_CR_HI
%if mmsize == 64
    movu    m6, [int_qperm]
%endif
    ICHROMA_ROW ICHROMA16_VEC, mmsize / 4, 2
%endmacro

; void iluma_16(uint16_t *dst, const uint16_t *y, const int32_t *d, int w, int phase,
;              const CspfixYuvInt *p): mmsize / 2 samples per step, from d[k - 1 .. k + 8]
; m6 = mask words, xm7 = S, m8 = a, m9 / m10 = lo / hi words, m11 = int_weave, m12 = 0
; ILUMA16_VEC dst (operand), y (address), byte offset of d[k], phase, a == 2^S
%macro ILUMA16_VEC 5
    movu    m1, [dltq + %3]             ; d[k]
    movu    m2, [dltq + %3 + 4]         ; d[k + 1]
%if %4
    movu    m0, [dltq + %3 - 4]         ; d[k - 1]
    pslld   m3, m1, 1
    paddd   m1, m3                      ; 3 d[k]
    paddd   m0, m1                      ; even: d[k - 1] + 3 d[k]
    paddd   m1, m2                      ; odd:  3 d[k] + d[k + 1]
%else
    pslld   m0, m1, 2                   ; even: 4 d[k]
    paddd   m1, m2
    pslld   m1, 1                       ; odd:  2 (d[k] + d[k + 1])
%endif
    movu    m3, [%2]
    pand    m3, m6
%if %5
    ; (2^S y + h) >> S = y + (h >> S): h >> S packed to words, even and odd interleaved
    psrad   m0, xm7
    psrad   m1, xm7
    packssdw m0, m1
    pshufb  m0, m11
    paddw   m0, m3
    pmaxsw  m0, m9
    pminsw  m0, m10
    movu    %1, m0
%else
    punpckldq m2, m0, m1                ; h of samples 0-3 | 8-11
    punpckhdq m0, m1                    ; h of samples 4-7 | 12-15
    punpcklwd m4, m3, m12               ; y of samples 0-3 | 8-11
    punpckhwd m3, m12                   ; y of samples 4-7 | 12-15
    pmulld  m4, m8
    pmulld  m3, m8
    paddd   m2, m4
    paddd   m0, m3
    psrad   m2, xm7
    psrad   m0, xm7
    packssdw m2, m0                     ; samples 0-15
    pmaxsw  m2, m9
    pminsw  m2, m10
    movu    %1, m2
%endif
%endmacro

%macro ILUMA16_PHASE 2 ; phase, a == 2^S
    ILUMA_STEPS ILUMA16_VEC, 2, %1, %2
%endmacro

%macro ILUMA16 0
cglobal cspfix_iluma_16, 6, 10, 13, -2 * mmsize, dst, y, dlt, w, phase, p, x, rem, tmp, sh
    movsxdifnidn wq, wd
    VBROADCASTSS m8, [pq + YI_A]
    vpbroadcastw m6, [pq + YI_MASK]
    movd    xm7, [pq + YI_SHIFT]
    vpbroadcastw m9, [pq + YI_LO]
    vpbroadcastw m10, [pq + YI_HI]
%if mmsize == 64
    vbroadcasti32x4 m11, [int_weave]
%else
    mova    m11, [int_weave]
%endif
    pxor    xm12, xm12
    xor     xq, xq
    xor     shd, shd
    mov     tmpd, [pq + YI_SHIFT]
    bts     shd, tmpd                   ; 2^S
    cmp     [pq + YI_A], shd
    je .unit
    test    phased, phased
    jnz .phase1
    ILUMA16_PHASE 0, 0
.phase1:
    ILUMA16_PHASE 1, 0
.unit:
    test    phased, phased
    jnz .phase1u
    ILUMA16_PHASE 0, 1
.phase1u:
    ILUMA16_PHASE 1, 1
.end:
    RET
%endmacro

%if ARCH_X86_64
INIT_XMM sse4
ICHROMA
IDELTA
IVBLEND
ILUMA
%if HAVE_AVX2_EXTERNAL
INIT_YMM avx2
ICHROMA
IDELTA
IVBLEND
ILUMA
ICHROMA16
IDELTA16
ILUMA16
%endif
%if HAVE_AVX512_EXTERNAL
INIT_ZMM avx512
ICHROMA
IDELTA
IVBLEND
ILUMA
ICHROMA16
IDELTA16
ILUMA16
%endif
%endif
