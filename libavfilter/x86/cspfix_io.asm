;*****************************************************************************
;* SIMD kernels of the cspfix filter, io family: samples <-> float32 rows
;* (unpack, pack, semi-planar unpack_x2/pack_x2), code tables (lut, lut_8) and the
;* one-pass maps of codes (map_8, map_16), bit-exact with the C versions in
;* libavfilter/cspfix_dsp.c and cspfix_dsp_template.c (same operations in the same
;* order, no fused multiply-add).
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

; CspfixMap8 and CspfixMap16 (pinned by static_assert in x86/cspfix_init.c)
%define MAP8_MUL    0                   ; uint16_t
%define MAP8_ADD    2                   ; int16_t
%define MAP8_SHIFT  4                   ; int32_t
%define MAP8_LO     8                   ; uint8_t
%define MAP8_HI     9                   ; uint8_t
%define MAP8_CLIP  10                   ; uint8_t
%define MAP16_S     0                   ; floats
%define MAP16_O     4
%define MAP16_LO    8
%define MAP16_HI   12

SECTION_RODATA 64

; lut_8 (AVX-512 ICL): the 64 codes of a step reordered so that the byte planes of
; their floats, interleaved by punpck{l,h}bw and punpck{l,h}wd (within 128-bit lanes),
; come out in sample order: code 16 k + 4 L + j goes to byte 16 L + 4 k + j
lut8_order:
             db 0, 1, 2, 3, 16, 17, 18, 19, 32, 33, 34, 35, 48, 49, 50, 51
             db 4, 5, 6, 7, 20, 21, 22, 23, 36, 37, 38, 39, 52, 53, 54, 55
             db 8, 9, 10, 11, 24, 25, 26, 27, 40, 41, 42, 43, 56, 57, 58, 59
             db 12, 13, 14, 15, 28, 29, 30, 31, 44, 45, 46, 47, 60, 61, 62, 63
; byte p of the floats 64 c + j of the table (+ p): j < 32 from the table's vectors
; 4 c, 4 c + 1, j >= 32 from 4 c + 2, 4 c + 3 (vpermi2b of two vectors each)
lut8_split:
             db 0, 4, 8, 12, 16, 20, 24, 28, 32, 36, 40, 44, 48, 52, 56, 60
             db 64, 68, 72, 76, 80, 84, 88, 92, 96, 100, 104, 108, 112, 116, 120, 124
             db 0, 4, 8, 12, 16, 20, 24, 28, 32, 36, 40, 44, 48, 52, 56, 60
             db 64, 68, 72, 76, 80, 84, 88, 92, 96, 100, 104, 108, 112, 116, 120, 124

; pack (AVX-512): the qwords of packusdw's lanes in sample order
pack_qperm:  dq 0, 2, 4, 6, 1, 3, 5, 7

; dither_ed: the Floyd-Steinberg weights, and lane l's column offset -3 l (for the
; AVX2 signed compare, biased by 2^31)
ed_k1:       times 16 dd 0.0625
ed_k3:       times 16 dd 0.1875
ed_k5:       times 16 dd 0.3125
ed_k7:       times 16 dd 0.4375
ed_one:      times 16 dd 1
ed_col:      dd 0, -3, -6, -9, -12, -15, -18, -21, -24, -27, -30, -33, -36, -39, -42, -45
ed_colx:     dd 0x80000000, 0x7ffffffd, 0x7ffffffa, 0x7ffffff7
             dd 0x7ffffff4, 0x7ffffff1, 0x7fffffee, 0x7fffffeb

x2_lowbyte:  times 8 dd 0x000000ff
x4_keep:     times 8 dd 0xffffff00
; x3: 8-bit samples every 3 bytes (packed rgb24/bgr24). gather: 4 samples (bytes 0, 3,
; 6, 9 of a 16-byte load) into dwords, in each 128-bit lane; shuf/keep: 16 samples in
; sample order into their bytes of 3 16-byte chunks (0x80: zero), and the bytes the
; chunks keep (the other components)
x3_gather:   db 0, -1, -1, -1, 3, -1, -1, -1, 6, -1, -1, -1, 9, -1, -1, -1
             db 0, -1, -1, -1, 3, -1, -1, -1, 6, -1, -1, -1, 9, -1, -1, -1
x3_shuf:     db 0, -1, -1, 1, -1, -1, 2, -1, -1, 3, -1, -1, 4, -1, -1, 5
             db -1, -1, 6, -1, -1, 7, -1, -1, 8, -1, -1, 9, -1, -1, 10, -1
             db -1, 11, -1, -1, 12, -1, -1, 13, -1, -1, 14, -1, -1, 15, -1, -1
x3_keep:     db 0, -1, -1, 0, -1, -1, 0, -1, -1, 0, -1, -1, 0, -1, -1, 0
             db -1, -1, 0, -1, -1, 0, -1, -1, 0, -1, -1, 0, -1, -1, 0, -1
             db -1, 0, -1, -1, 0, -1, -1, 0, -1, -1, 0, -1, -1, 0, -1, -1
x2_keepodd:  times 16 dw 0xff00
half:        dd 0.5

SECTION .text

; (No argument is named c or d: x86inc would turn cmp and dd into their operands.)
; The float rows of the filter have at least 16 floats of padding: the in-place
; float kernels below process whole vectors and may read and write it.
; Kernels that touch frame rows (pack, unpack) stop exactly at w.

;-----------------------------------------------------------------------------
; void unpack_8(float *dst, const uint8_t *src, int w)
; void unpack_16(float *dst, const uint8_t *src, int w)
;-----------------------------------------------------------------------------
%macro UNPACK 1 ; bits per sample container
%assign %%bs %1 / 8
cglobal cspfix_unpack_%1, 3, 5, 2, dst, src, w, x, val
    movsxdifnidn wq, wd
    xor     xq, xq
    lea     valq, [wq - (mmsize / 4 - 1)]
.loop:
    cmp     xq, valq
    jge .tail
%if %1 == 8
    pmovzxbd m0, [srcq + xq]
%else
    pmovzxwd m0, [srcq + xq * 2]
%endif
    cvtdq2ps m0, m0
    movu    [dstq + xq * 4], m0
    add     xq, mmsize / 4
    jmp .loop
.tail:
    cmp     xq, wq
    jge .end
%if %1 == 8
    movzx   vald, byte [srcq + xq]
%else
    movzx   vald, word [srcq + xq * 2]
%endif
    cvtsi2ss xm0, xm0, vald
    movss   [dstq + xq * 4], xm0
    inc     xq
    jmp .tail
.end:
    RET
%endmacro

;-----------------------------------------------------------------------------
; Shared by pack_8/16 and pack_x2_8: m4, m5 = (int)min(max(src[x..] + bias, lo), hi)
; of 2 vectors (m0 = lo, m1 = hi; AVX2: m2, m3 = bias[0..15], the loop steps 16;
; AVX-512: m2 = m3 = bias[0..15], the loop steps 32;
; SSE: the loop steps 8 and loads the bias half of x into m2, m3).
%macro PACK_CLAMP2 0
%if mmsize >= 32
    addps   m4, m2, [srcq + xq * 4]
    addps   m5, m3, [srcq + xq * 4 + mmsize]
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

; LOHI_ARGS: lo, hi (float arguments, in xmm0, xmm1 on UNIX64) into xm0, xm1, which are
; xmm16, xmm17 when x86inc uses the upper registers (AVX-512)
%macro LOHI_ARGS 0
%if UNIX64 && high_mm_regs
    vmovaps xm0, xmm0
    vmovaps xm1, xmm1
%endif
%endmacro

; UNPACK8_TAIL sample[, step]: the samples after the vector loop one by one, each read
; as "movzx vald, sample", then "step" (e.g. add pq, 3)
%macro UNPACK8_TAIL 1-2
.tail:
    cmp     xq, wq
    jge .end
    movzx   vald, %1
    cvtsi2ss xm0, xm0, vald
    movss   [dstq + xq * 4], xm0
    inc     xq
%if %0 == 2
    %2
%endif
    jmp .tail
.end:
    RET
%endmacro

; PACK_ARGS name, gprs, xmms[, extra gpr]: the prologue of the pack kernels: arguments
; dst, src, w, bias, lo, hi (lo, hi in xm0, xm1), then x, val, bidx (and the extra one)
%macro PACK_ARGS 3-4
%if UNIX64 && %0 == 4
cglobal cspfix_%1, 4, %2, %3, dst, src, w, bias, x, val, bidx, %4
%elif UNIX64
cglobal cspfix_%1, 4, %2, %3, dst, src, w, bias, x, val, bidx
%else
%if %0 == 4
cglobal cspfix_%1, 6, %2, %3, dst, src, w, bias, lo, hi, x, %4
%else
cglobal cspfix_%1, 6, %2, %3, dst, src, w, bias, lo, hi, x
%endif
    movss   xm0, lom
    movss   xm1, him
%if %0 == 4
    DEFINE_ARGS dst, src, w, bias, val, bidx, x, %4
%else
    DEFINE_ARGS dst, src, w, bias, val, bidx, x
%endif
%endif
    movsxdifnidn wq, wd
    LOHI_ARGS
%endmacro

; PACK_TAIL store[, step]: the samples after the vector loop one by one (xm6, xm7 = lo,
; hi), each stored by "store val" (e.g. mov [dstq + xq], valb), then "step"
%macro PACK_TAIL 1-2
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
%if %0 == 2
    %2
%endif
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
cglobal cspfix_pack_%1, 4, 7, 10, dst, src, w, bias, x, val, bidx
%else
cglobal cspfix_pack_%1, 6, 7, 10, dst, src, w, bias, lo, hi, x
    movss   xm0, lom
    movss   xm1, him
    DEFINE_ARGS dst, src, w, bias, val, bidx, x
%endif
    movsxdifnidn wq, wd
    LOHI_ARGS
    movss   xm6, xm0                    ; scalar lo, hi for the tail
    movss   xm7, xm1
    VBROADCASTSS m0, xm0
    VBROADCASTSS m1, xm1
%if mmsize == 64
    movu    m2, [biasq]
    mova    m3, m2
    movu    m9, [pack_qperm]
%else
    movu    m2, [biasq]
    movu    m3, [biasq + 32]
%endif
    xor     xq, xq
    lea     valq, [wq - (mmsize / 2 - 1)]
.loop:
    cmp     xq, valq
    jge .tail
    PACK_CLAMP2
    packusdw m4, m5
%if mmsize == 64
    vpermq  m4, m9, m4                  ; 32 words in sample order
%if %1 == 8
    vpmovwb [dstq + xq], m4             ; values in [lo, hi], within [0, 255]
%else
    movu    [dstq + xq * 2], m4
%endif
%elif mmsize == 32
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
%if mmsize == 64
    vpbroadcastd m2, [x2_lowbyte]
%else
    mova    m2, [x2_lowbyte]
%endif
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
    UNPACK8_TAIL {byte [srcq + xq * 2]}

; 16 (AVX2) or 8 (SSE4.1) samples per step, the bias row's matching half for SSE
    PACK_ARGS pack_x2_8, 7, 10
    movss   xm6, xm0                    ; scalar lo, hi for the tail
    movss   xm7, xm1
%if mmsize == 64
    VBROADCASTSS m0, xm0
    VBROADCASTSS m1, xm1
    movu    m2, [biasq]
    mova    m3, m2
    movu    m9, [pack_qperm]
    vpbroadcastd m8, [x2_keepodd]
%elif mmsize == 32
    VBROADCASTSS m0, xm0
    VBROADCASTSS m1, xm1
    movu    m2, [biasq]
    movu    m3, [biasq + 32]
    mova    m8, [x2_keepodd]
%else
    shufps  m0, m0, 0
    shufps  m1, m1, 0
    mova    m8, [x2_keepodd]
%endif
    xor     xq, xq
    lea     valq, [wq - mmsize / 2]
.loop:
    cmp     xq, valq
    jge .tail
    PACK_CLAMP2
    packusdw m4, m5
%if mmsize == 64
    vpermq  m4, m9, m4                  ; 32 words, each a sample in its low byte
%elif mmsize == 32
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


;-----------------------------------------------------------------------------
; void unpack_x3_8(float *dst, const uint8_t *src, int w)    (AVX2)
; void unpack_x4_8(float *dst, const uint8_t *src, int w)
; void pack_x3_8(uint8_t *dst, const float *src, int w, const float *bias, float lo, float hi)
; void pack_x4_8(...)
; 8-bit samples every 3 or 4 bytes (packed RGB: rgb24, bgr24, rgba, ...), our component
; at src/dst; pack keeps the other components' bytes (read-modify-write). Vector loops
; never touch a byte past the last pixel of the row, whichever component this is (an
; offset of up to step - 1 bytes); the rest goes one sample at a time.
;-----------------------------------------------------------------------------
%macro XN 0
cglobal cspfix_unpack_x3_8, 3, 6, 3, dst, src, w, x, val, p
    movsxdifnidn wq, wd
    mova    m2, [x3_gather]
    xor     xq, xq
    mov     pq, srcq
    lea     valq, [wq - 9]              ; 8 samples read bytes 3x .. 3x + 27 <= 3w - 3
.loop:
    cmp     xq, valq
    jge .tail
    movu    xm0, [pq]
    vinserti128 m0, m0, [pq + 12], 1
    pshufb  m0, m2
    cvtdq2ps m0, m0
    movu    [dstq + xq * 4], m0
    add     xq, 8
    add     pq, 24
    jmp .loop
    UNPACK8_TAIL {byte [pq]}, {add pq, 3}

cglobal cspfix_unpack_x4_8, 3, 5, 3, dst, src, w, x, val
    movsxdifnidn wq, wd
    mova    m2, [x2_lowbyte]
    xor     xq, xq
    lea     valq, [wq - 8]              ; 8 samples read bytes 4x .. 4x + 31 <= 4w - 4
.loop:
    cmp     xq, valq
    jge .tail
    movu    m0, [srcq + xq * 4]
    pand    m0, m2
    cvtdq2ps m0, m0
    movu    [dstq + xq * 4], m0
    add     xq, 8
    jmp .loop
    UNPACK8_TAIL {byte [srcq + xq * 4]}

; 16 samples per step (the bias row's period)
    PACK_ARGS pack_x4_8, 7, 10
    movss   xm6, xm0
    movss   xm7, xm1
    VBROADCASTSS m0, xm0
    VBROADCASTSS m1, xm1
    movu    m2, [biasq]
    movu    m3, [biasq + 32]
    mova    m8, [x4_keep]
    xor     xq, xq
    lea     valq, [wq - 16]             ; 16 samples write bytes 4x .. 4x + 63 <= 4w - 4
.loop:
    cmp     xq, valq
    jge .tail
    PACK_CLAMP2                         ; m4, m5: 8 + 8 samples, each in a dword's low byte
    pand    m9, m8, [dstq + xq * 4]
    por     m4, m9
    pand    m9, m8, [dstq + xq * 4 + 32]
    por     m5, m9
    movu    [dstq + xq * 4], m4
    movu    [dstq + xq * 4 + 32], m5
    add     xq, 16
    jmp .loop
    PACK_TAIL {[dstq + xq * 4], valb}

    PACK_ARGS pack_x3_8, 8, 12, p
    movss   xm6, xm0
    movss   xm7, xm1
    VBROADCASTSS m0, xm0
    VBROADCASTSS m1, xm1
    movu    m2, [biasq]
    movu    m3, [biasq + 32]
    xor     xq, xq
    mov     pq, dstq
    lea     valq, [wq - 16]             ; 16 samples write bytes 3x .. 3x + 47 <= 3w - 3
.loop:
    cmp     xq, valq
    jge .tail
    PACK_CLAMP2
    packusdw m4, m5
    vpermq  m4, m4, q3120               ; 16 words in sample order
    vextracti128 xm5, m4, 1
    packuswb xm4, xm5                   ; 16 bytes in sample order
    pshufb  xm8, xm4, [x3_shuf]
    pshufb  xm9, xm4, [x3_shuf + 16]
    pshufb  xm10, xm4, [x3_shuf + 32]
    movu    xm5, [pq]
    movu    xm11, [pq + 16]
    pand    xm5, [x3_keep]
    pand    xm11, [x3_keep + 16]
    por     xm8, xm5
    por     xm9, xm11
    movu    xm5, [pq + 32]
    pand    xm5, [x3_keep + 32]
    por     xm10, xm5
    movu    [pq], xm8
    movu    [pq + 16], xm9
    movu    [pq + 32], xm10
    add     xq, 16
    add     pq, 48
    jmp .loop
    PACK_TAIL {[pq], valb}, {add pq, 3}
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
; void lut_8(float *dst, const uint8_t *src, int w, const float *lut)
; dst[x] = lut[src[x]]; reads src up to w exactly (frame rows), writes whole
; vectors of dst (a padded float row). No gathers (vgatherdps is slower than
; scalar code on many x86 cores): 8 codes are read at once into a register and
; taken apart with integer instructions, the floats inserted with pinsrd.
;-----------------------------------------------------------------------------
cglobal cspfix_lut_8, 4, 8, 2, dst, src, w, lut, x, v, i0, i1
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

; NEXT_ROW label: on to the next row of the multi-row maps (map_8, map_16), back to label
%macro NEXT_ROW 1
    add     dstq, dstsq
    add     srcq, srcsq
    dec     rowsd
    jg %1
%endmacro

;-----------------------------------------------------------------------------
; void map_8(uint8_t *dst, ptrdiff_t dst_stride, const uint8_t *src, ptrdiff_t src_stride,
;            int w, int h, const CspfixMap8 *m)
; out = clip(((x * mul) >> 8 + add) >> shift, lo, hi), in int16 lanes: the bytes
; interleaved above zeros are x << 8, and pmulhuw(x << 8, mul) is (x * mul) >> 8.
; Unpacking and packing within 128-bit lanes keeps the order. The clamp to [lo, hi]
; is left out when m->clip says no code needs it (packuswb saturates to [0, 255]).
; m1 = mul, m2 = add, xm3 = shift, m4/m6 = lo/hi bytes, m5 = 0
;-----------------------------------------------------------------------------
%macro MAP8_WORDS 3 ; words of x << 8 in place; mul, add
    pmulhuw %1, %2
    paddw   %1, %3
    psraw   %1, xm3
%endmacro

; MAP8_HALF dst, src, clip: mmsize / 2 codes (xmm registers with AVX2, ymm with AVX-512)
%macro MAP8_HALF 3
%if mmsize == 64
    movu    ym0, %2
    punpckhbw ym7, ym5, ym0
    punpcklbw ym8, ym5, ym0
    MAP8_WORDS ym8, ym1, ym2
    MAP8_WORDS ym7, ym1, ym2
    packuswb ym0, ym8, ym7
%elif mmsize == 32
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
%if %3 && mmsize == 64
    pmaxub  ym0, ym4
    pminub  ym0, ym6
%elif %3
    pmaxub  xm0, xm4
    pminub  xm0, xm6
%endif
%if mmsize == 64
    movu    %1, ym0
%elif mmsize == 32
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

; MAP8_ROWS clip: the rows (w >= mmsize / 2 in wq, rows >= 1)
%macro MAP8_ROWS 1
.row%1:
    xor     xq, xq
    mov     nq, wq
    sub     nq, mmsize                  ; whole vectors while they fit
    jl .single%1
.loop%1:
    MAP8_FULL dstq + xq, srcq + xq, %1
    add     xq, mmsize
    cmp     xq, nq
    jle .loop%1
.single%1:
    add     nq, mmsize / 2              ; the last half vector ends exactly at w
.half%1:
    cmp     xq, nq
    jge .last%1
    MAP8_HALF [dstq + xq], [srcq + xq], %1
    add     xq, mmsize / 2
    jmp .half%1
.last%1:
    MAP8_HALF [dstq + nq], [srcq + nq], %1
    NEXT_ROW .row%1
    RET
%endmacro

%macro MAP8 0
cglobal cspfix_map_8, 7, 10, 9, mmsize, dst, dsts, src, srcs, w, rows, m, x, val, n
    movsxdifnidn wq, wd
%if mmsize >= 32
    vpbroadcastw m1, [mq + MAP8_MUL]
    vpbroadcastw m2, [mq + MAP8_ADD]
    movd    xm3, [mq + MAP8_SHIFT]
    vpbroadcastb m4, [mq + MAP8_LO]
    vpbroadcastb m6, [mq + MAP8_HI]
%else
    movd    m1, [mq + MAP8_MUL]
    pshuflw m1, m1, 0
    punpcklqdq m1, m1
    movd    m2, [mq + MAP8_ADD]
    pshuflw m2, m2, 0
    punpcklqdq m2, m2
    movd    m3, [mq + MAP8_SHIFT]
    movd    m4, [mq + MAP8_LO]                  ; lo, hi
    punpcklbw m4, m4
    pshuflw m6, m4, q1111
    pshuflw m4, m4, q0000
    punpcklqdq m4, m4
    punpcklqdq m6, m6
%endif
    pxor    m5, m5
    test    wq, wq
    jle .end
    test    rowsd, rowsd
    jle .end
    cmp     wq, mmsize / 2
    jl .small
    cmp     byte [mq + MAP8_CLIP], 0
    je .noclip
    MAP8_ROWS 1
.noclip:
    MAP8_ROWS 0
.small:                                 ; w < half a vector: through the stack
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
    NEXT_ROW .small
.end:
    RET
%endmacro


;-----------------------------------------------------------------------------
; void map_16(uint16_t *dst, ptrdiff_t dst_stride, const uint16_t *src, ptrdiff_t src_stride,
;             int w, int h, const CspfixMap16 *m) (strides in bytes)
; out = (int)min(max(x * s + o + 0.5, lo), hi): unpack_16, affine and pack_16 in one
; pass, with their operations in their order
;-----------------------------------------------------------------------------
; MAP16_VEC dst, src: mmsize / 2 codes (m2 s, m3 o, m4 0.5, m5 lo, m6 hi; AVX-512: m7
; the qword order)
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
%if mmsize == 64
    vpermq  m0, m7, m0                  ; m7 = pack_qperm
%elif mmsize == 32
    vpermq  m0, m0, q3120
%endif
    movu    [%1], m0
%endmacro

%macro MAP16 0
cglobal cspfix_map_16, 7, 10, 8, mmsize, dst, dsts, src, srcs, w, rows, m, x, val, n
    movsxdifnidn wq, wd
%if mmsize == 64
    movu    m7, [pack_qperm]
%endif
    VBROADCASTSS m2, [mq + MAP16_S]
    VBROADCASTSS m3, [mq + MAP16_O]
    VBROADCASTSS m5, [mq + MAP16_LO]
    VBROADCASTSS m6, [mq + MAP16_HI]
    VBROADCASTSS m4, [half]
    test    wq, wq
    jle .end
    test    rowsd, rowsd
    jle .end
    add     wq, wq                      ; bytes
    cmp     wq, mmsize
    jl .small
    lea     nq, [wq - mmsize]
.row:
    xor     xq, xq
.loop:                                  ; whole vectors, then one ending exactly at w
    MAP16_VEC dstq + xq, srcq + xq
    add     xq, mmsize
    cmp     xq, nq
    jl .loop
    MAP16_VEC dstq + nq, srcq + nq
    NEXT_ROW .row
    RET
.small:                                 ; w < one vector: through the stack
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
    NEXT_ROW .small
.end:
    RET
%endmacro


;-----------------------------------------------------------------------------
; void dither_ed(float *const *rows, int n, int w, float *err, float lo, float hi)
; Floyd-Steinberg over n rows as a wavefront: lane l runs row l (of a group of
; L = mmsize / 4 rows) three samples behind lane l - 1, so that at step t lane l is
; at column c = t - 3 l and everything it needs from the row above (its errors at
; columns c - 1, c, c + 1, made at steps t - 4, t - 3, t - 2) is done a step
; before it is needed: the only dependency at distance one step is the row's own
; error at c - 1 (7/16), so the latency of a step is that of its own chain. The
; errors travel down one lane per step (lane 0 takes the row above the group from
; err); two registers take turns holding the errors of steps t - 1 and t - 2.
; Blocks of L steps: L skewed row loads, an L x L transpose (vector j = step
; t0 + j of every lane), the steps, the transpose back, L skewed stores. Columns
; outside [0, w) have error 0 (masks), so that the edges get no neighbour there.
; The operations are C's in C's order (fused multiply-adds where C has fmaf); the
; chain from one step to the next is one fma and the error (v - round(v)). The
; rounding is to nearest, ties to even, as rintf. (AVX2 with FMA3.)
; Lane n - 1's errors go to err, behind the reads of lane 0.
;-----------------------------------------------------------------------------
; ED_T16 o0 .. o3, i0 .. i3, u0 .. u3: 128-bit blocks: o_m = (i0.m, i1.m, i2.m, i3.m)
%macro ED_BLOCKS4 12
    vshuff32x4 %9,  %5, %6, 0x44
    vshuff32x4 %10, %5, %6, 0xee
    vshuff32x4 %11, %7, %8, 0x44
    vshuff32x4 %12, %7, %8, 0xee
    vshuff32x4 %1,  %9,  %11, 0x88
    vshuff32x4 %2,  %9,  %11, 0xdd
    vshuff32x4 %3,  %10, %12, 0x88
    vshuff32x4 %4,  %10, %12, 0xdd
%endmacro

; ED_4X4 r0, r1, r2, r3, tmp: 4x4 transposes within 128-bit lanes; the columns
; 0, 1, 2, 3 of each lane end in r0, r2, r1, r3
%macro ED_4X4 5
    unpcklps %5, %1, %2
    unpckhps %2, %1, %2
    unpcklps %1, %3, %4
    unpckhps %4, %3, %4                 ; %5 = L01, %2 = H01, %1 = L23, %4 = H23
    unpckhpd %3, %5, %1                 ; column 1
    unpcklpd %1, %5, %1                 ; column 0
    unpcklpd %5, %2, %4                 ; column 2
    unpckhpd %4, %2, %4                 ; column 3
    mova     %2, %5
%endmacro

; ED_TRANSPOSE: m0 .. m(L-1) transposed in place
%macro ED_TRANSPOSE 0
%if mmsize == 64
    ED_4X4 m0,  m1,  m2,  m3,  m26
    ED_4X4 m4,  m5,  m6,  m7,  m26
    ED_4X4 m8,  m9,  m10, m11, m26
    ED_4X4 m12, m13, m14, m15, m26
    ; group G, column c of its 128-bit lanes: m(4 G + (0, 2, 1, 3)[c])
    ED_BLOCKS4 m0, m4, m8, m12,  m0, m4, m8, m12,  m26, m27, m28, m29
    ED_BLOCKS4 m3, m7, m11, m15, m3, m7, m11, m15, m26, m27, m28, m29
    ED_BLOCKS4 m30, m31, m19, m20, m2, m6, m10, m14, m26, m27, m28, m29
    ED_BLOCKS4 m2, m6, m10, m14, m1, m5, m9, m13, m26, m27, m28, m29
    mova    m1,  m30
    mova    m5,  m31
    mova    m9,  m19
    mova    m13, m20
%else
    ED_4X4 m0, m1, m2, m3, m11
    ED_4X4 m4, m5, m6, m7, m11
    ; group G, column c of its lanes: m(4 G + (0, 2, 1, 3)[c]); lane m is column 4 m + c
    vperm2f128 m11, m0, m4, 0x20
    vperm2f128 m4,  m0, m4, 0x31
    mova       m0,  m11
    vperm2f128 m11, m3, m7, 0x20
    vperm2f128 m7,  m3, m7, 0x31
    mova       m3,  m11
    vperm2f128 m11, m2, m6, 0x20        ; column 1
    vperm2f128 m12, m2, m6, 0x31        ; column 5
    vperm2f128 m2,  m1, m5, 0x20        ; column 2
    vperm2f128 m6,  m1, m5, 0x31        ; column 6
    mova       m1,  m11
    mova       m5,  m12
%endif
%endmacro

; ED_STEP j, E1, E2: step t + j on vector m<j> (the samples in, q out); E1 holds the
; errors of step t + j - 1, E2 those of step t + j - 2 and receives those of t + j
%macro ED_STEP 3
    mulps   m18, [ed_k1]                ; e_up[c - 1] / 16
    vfmadd231ps m18, m17, [ed_k5]       ;  + 5 e_up[c] / 16
    vbroadcastss m19, [errq + xq * 4 + (%1 + 2) * 4]
%if mmsize == 64
    valignd m19, %3, m19, 15            ; e_up[c + 1]: lane l - 1's error of step t - 2
%else
    vperm2f128 m20, %3, %3, 0x08
    vpalignr m20, %3, m20, 12
    vblendps m19, m20, m19, 1
%endif
    vfmadd231ps m18, m19, [ed_k3]       ;  + 3 e_up[c + 1] / 16
    addps   m18, m %+ %1                ;  + the sample
    maxps   m18, EDLO
    minps   m18, EDHI
    vfmadd231ps m18, %2, [ed_k7]        ;  + 7 e[c - 1] / 16: v
    ED_MASKED_E %3, m18, m %+ %1, EDCOL, k1, m20
    vpermps m20, EDIDX, %3                ; lane n - 1's error
    movss   [errwq + xq * 4 + %1 * 4], xm20
    mova    m18, m17
    mova    m17, m19
%endmacro

; ED_STEP2 j, eA1, eA2, SA1, SA2, eB1, eB2, SB1, SB2: step t + j of a group of 2 L
; rows, A (rows 0 .. L - 1) and B (rows L .. 2 L - 1) each in a vector (two chains,
; so that one's latency hides the other's); e1, e2 the errors of steps t + j - 1 and
; t + j - 2 (e2 receives those of t + j), S1, S2 the sums' S(t - 1) and S(t - 2) (S2
; receives S(t)). B's lane 0 takes its row above from A's lane L - 1 (two steps
; back). m8, m10 the sums of A and B, m9, m13 scratch, m11, m12 the columns of A and
; B, m14, m15 lo and hi; the samples in and q out at [rsp + ED_TA/ED_TB + j * mmsize].
%macro ED_STEP2 9
    mulps   m10, %9, EDK1            ; B: e_up[c - 1] / 16
%if mmsize == 64
    valignd %9, %7, %3, 15              ; B's S(t), before A's step overwrites %3
%else
    vperm2f128 m13, %7, %3, 0x03
    vpalignr %9, %7, m13, 12
%endif
    mulps   m8, %5, EDK1             ; A, as in ED_STEP
    vfmadd231ps m8, %4, EDK5
    vbroadcastss %5, [errq + xq * 4 + (%1 + 2) * 4]
%if mmsize == 64
    valignd %5, %3, %5, 15
%else
    vperm2f128 m13, %3, %3, 0x08
    vpalignr m13, %3, m13, 12
    vblendps %5, m13, %5, 1
%endif
    ED_FINISH m8, %5, %2, %3, [rsp + ED_TA + %1 * mmsize], m11, k1
    vfmadd231ps m10, %8, EDK5        ; B
    ED_FINISH m10, %9, %6, %7, [rsp + ED_TB + %1 * mmsize], m12, k2
%if mmsize == 64
    vpermps m13, m16, %7                ; lane n - 1 - L's error
%else
    movu    m13, [rsp + ED_MISC + 3 * mmsize]
    vpermps m13, m13, %7
%endif
    movss   [errwq + xq * 4 + %1 * 4], xm13
%endmacro

; ED_FINISH sums, S(t), e(t - 1), e out, samples, columns, k: v = the sums (of S(t - 2)
; and S(t - 1)) + 3 S(t) / 16, + the samples, clamped, + 7 e(t - 1) / 16; q back to the
; samples, the error to e out (m9 scratch)
%macro ED_FINISH 7
    vfmadd231ps %1, %2, EDK3
    addps   %1, %5
    vmaxps  %1, %1, m14
    vminps  %1, %1, m15
    vfmadd231ps %1, %3, EDK7
    ED_MASKED_E %4, %1, m9, %6, %7, m13
    movu    %5, m9
%endmacro

; ED_MASKED_E e, v, q, columns, k, scratch: q = v rounded to nearest (ties to even),
; e = v - q where 0 <= column < w, else 0. AVX-512: e in one instruction (vreduceps:
; v - round(v), exact), the only one on the chain after the fma, and q beside it;
; AVX2: scratch holds the compare. The columns step on.
%macro ED_MASKED_E 6
%if mmsize == 64
    vpcmpud %5, %4, EDWLIM, 1
    vreduceps %1{%5}{z}, %2, 0
    vrndscaleps %3, %2, 0
%else
    roundps %3, %2, 0
    vpcmpgtd %6, %4, [rsp + ED_MISC + 2 * mmsize]
    subps   %1, %2, %3
    andnps  %1, %6, %1
%endif
    vpaddd  %4, EDONE
%endmacro

; the stack: 2 L row pointers, then lo, hi, w (AVX2: w - 1 biased), the index of
; the last lane; the two-chain groups' state (8 vectors of errors and sums, 2 of
; columns) and their transposed samples (A, B)
; ED_CONSTS_IN_MEMORY: the constants the steps read, as memory operands (the AVX-512
; two-vector loop holds them in registers while it runs)
%macro ED_CONSTS_IN_MEMORY 0
%define EDK1   [ed_k1]
%define EDK3   [ed_k3]
%define EDK5   [ed_k5]
%define EDK7   [ed_k7]
%define EDONE  [ed_one]
%define EDWLIM [rsp + ED_MISC + 2 * mmsize]
%endmacro

%macro DITHER_ED 0
%assign L mmsize / 4
    ED_CONSTS_IN_MEMORY
%assign ED_MISC 2 * L * 8
%assign ED_ST   ED_MISC + 4 * mmsize
%assign ED_TA   ED_ST + 10 * mmsize
%assign ED_TB   ED_TA + L * mmsize
%if UNIX64
cglobal cspfix_dither_ed, 4, 10, 32, ED_TB + L * mmsize, rows, n, w, err, g, x, p, tend, nl, errw
%else
cglobal cspfix_dither_ed, 6, 10, 32, ED_TB + L * mmsize, rows, n, w, err, lo, hi, g, x, p, tend
    movss   xm0, lom
    movss   xm1, him
    DEFINE_ARGS rows, n, w, err, nl, errw, g, x, p, tend
%endif
    movsxdifnidn wq, wd
    movsxdifnidn nq, nd
    LOHI_ARGS
    VBROADCASTSS m2, xm0
    VBROADCASTSS m3, xm1
    movu    [rsp + ED_MISC], m2
    movu    [rsp + ED_MISC + mmsize], m3
%if mmsize == 64
    movd    xm2, wd
%else
    lea     pd, [wq - 1]
    xor     pd, 0x80000000              ; w - 1 biased: a column > it is outside
    movd    xm2, pd
%endif
    vpbroadcastd m2, xm2
    movu    [rsp + ED_MISC + 2 * mmsize], m2
    xor     gq, gq
.group:
    mov     nlq, nq
    sub     nlq, gq
    cmp     nlq, 2 * L
    jle .nl_ok
    mov     nlq, 2 * L
.nl_ok:
    lea     errwq, [errq + 16]
    lea     pq, [nlq * 3]
    shl     pq, 2
    sub     errwq, pq                   ; err + 4 (4 - 3 nl): lane nl - 1's column + 1
%assign l 0
%rep 2 * L
    mov     pq, [rowsq + gq * 8 + l * 8]
    sub     pq, 12 * l                  ; row l reads column t - 3 l
    mov     [rsp + l * 8], pq
%assign l l + 1
%endrep
    cmp     nlq, L
    jg .two
    ; one vector: rows 0 .. nl - 1 (ED_STEP)
%if mmsize == 64
    ; m16, m21 e of the last two steps, m17 S(t-1), m18 S(t-2) / sums, m19 S(t),
    ; m20 scratch, m22 columns, m23 lane n - 1, m24 lo, m25 hi; m0-m15 the steps,
    ; m26-m31 transpose scratch
    %define EDLO  m24
    %define EDHI  m25
    %define EDIDX m23
    %define EDCOL m22
    %define EDE2  m21
    movu    m24, [rsp + ED_MISC]
    movu    m25, [rsp + ED_MISC + mmsize]
%else
    ; m8-m15 renamed: e, S(t-1), S(t-2), S(t), scratch, columns, lane n - 1, e
    %define EDE2 m15
    %define m16 m8
    %define m17 m9
    %define m18 m10
    %define m19 m11
    %define m20 m12
    %define EDIDX m14
    %define EDLO  [rsp + ED_MISC]
    %define EDHI  [rsp + ED_MISC + mmsize]
    %define EDCOL m13
%endif
    lea     pd, [nlq - 1]
    movd    xm20, pd
    vpbroadcastd EDIDX, xm20
    lea     tendq, [wq + 3 * (L - 1)]
    pxor    m16, m16
    pxor    EDE2, EDE2
    movss   xm18, [errq]
    movss   xm17, [errq + 4]
%if mmsize == 64
    movu    m22, [ed_col]
%else
    movu    m13, [ed_colx]
%endif
    xor     xq, xq
.block:
%assign l 0
%rep L
    mov     pq, [rsp + l * 8]
    movu    m %+ l, [pq + xq * 4]
%assign l l + 1
%endrep
    ED_TRANSPOSE
%assign l 0
%rep L / 2
    ED_STEP l, m16, EDE2
%assign l l + 1
    ED_STEP l, EDE2, m16
%assign l l + 1
%endrep
    ED_TRANSPOSE
%assign l 0
%rep L
    mov     pq, [rsp + l * 8]
    movu    [pq + xq * 4], m %+ l
%assign l l + 1
%endrep
    add     xq, L
    cmp     xq, tendq
    jl .block
    jmp .next
%undef EDLO
%undef EDHI
%undef EDIDX
%undef EDE2
%undef EDCOL
%if mmsize == 32
%undef m16
%undef m17
%undef m18
%undef m19
%undef m20
%endif

.two:
    ; two vectors: rows 0 .. L - 1 (A) and L .. nl - 1 (B), ED_STEP2
    lea     pd, [nlq - 1 - L]
    movd    xm2, pd
    vpbroadcastd m2, xm2
    movu    [rsp + ED_MISC + 3 * mmsize], m2
    pxor    m0, m0
    movu    [rsp + ED_ST + 0 * mmsize], m0
    movu    [rsp + ED_ST + 1 * mmsize], m0
    movu    [rsp + ED_ST + 4 * mmsize], m0
    movu    [rsp + ED_ST + 5 * mmsize], m0
    movu    [rsp + ED_ST + 6 * mmsize], m0
    movu    [rsp + ED_ST + 7 * mmsize], m0
    movss   xm1, [errq + 4]
    movu    [rsp + ED_ST + 2 * mmsize], m1  ; S(t - 1): lane 0 e_up[0]
    movss   xm1, [errq]
    movu    [rsp + ED_ST + 3 * mmsize], m1  ; S(t - 2): lane 0 e_up[-1]
%if mmsize == 64
    movu    m1, [ed_col]
%else
    movu    m1, [ed_colx]
%endif
    movu    [rsp + ED_ST + 8 * mmsize], m1
    mov     pd, 3 * L
    movd    xm2, pd
    vpbroadcastd m2, xm2
    vpsubd  m1, m2
    movu    [rsp + ED_ST + 9 * mmsize], m1  ; B's columns: 3 L behind
    lea     tendq, [wq + 3 * (2 * L - 1)]
    xor     xq, xq
.block2:
%assign half_ 0
%rep 2
%assign l 0
%rep L
    mov     pq, [rsp + (half_ * L + l) * 8]
    movu    m %+ l, [pq + xq * 4]
%assign l l + 1
%endrep
    ED_TRANSPOSE
%assign l 0
%rep L
    movu    [rsp + ED_TA + (half_ * L + l) * mmsize], m %+ l
%assign l l + 1
%endrep
%assign half_ half_ + 1
%endrep
%assign l 0
%rep 8
    movu    m %+ l, [rsp + ED_ST + l * mmsize]
%assign l l + 1
%endrep
    movu    m11, [rsp + ED_ST + 8 * mmsize]
    movu    m12, [rsp + ED_ST + 9 * mmsize]
    movu    m14, [rsp + ED_MISC]
    movu    m15, [rsp + ED_MISC + mmsize]
%if mmsize == 64
    movu    m16, [rsp + ED_MISC + 3 * mmsize]
    ; the constants in registers the steps leave free (the transposes use m19, m20,
    ; m26-m31): 6 loads a block instead of 8 memory operands a vector and step
    movu    m17, [ed_k1]
    movu    m18, [ed_k3]
    movu    m21, [ed_k5]
    movu    m22, [ed_k7]
    movu    m23, [ed_one]
    movu    m24, [rsp + ED_MISC + 2 * mmsize]
    %define EDK1   m17
    %define EDK3   m18
    %define EDK5   m21
    %define EDK7   m22
    %define EDONE  m23
    %define EDWLIM m24
%endif
%assign l 0
%rep L / 2
    ED_STEP2 l, m0, m1, m2, m3, m4, m5, m6, m7
%assign l l + 1
    ED_STEP2 l, m1, m0, m3, m2, m5, m4, m7, m6
%assign l l + 1
%endrep
    ED_CONSTS_IN_MEMORY
%assign l 0
%rep 8
    movu    [rsp + ED_ST + l * mmsize], m %+ l
%assign l l + 1
%endrep
    movu    [rsp + ED_ST + 8 * mmsize], m11
    movu    [rsp + ED_ST + 9 * mmsize], m12
%assign half_ 0
%rep 2
%assign l 0
%rep L
    movu    m %+ l, [rsp + ED_TA + (half_ * L + l) * mmsize]
%assign l l + 1
%endrep
    ED_TRANSPOSE
%assign l 0
%rep L
    mov     pq, [rsp + (half_ * L + l) * 8]
    movu    [pq + xq * 4], m %+ l
%assign l l + 1
%endrep
%assign half_ half_ + 1
%endrep
    add     xq, L
    cmp     xq, tendq
    jl .block2
.next:
    add     gq, 2 * L
    cmp     gq, nq
    jl .group
    RET
%endmacro


%if ARCH_X86_64
INIT_XMM sse2
MAP8
INIT_XMM sse4
UNPACK 8
UNPACK 16
PACK 8
PACK 16
X2
LUT
MAP16
%if HAVE_AVX2_EXTERNAL
INIT_YMM avx2
UNPACK 8
UNPACK 16
PACK 8
PACK 16
X2
XN
LUT
MAP8
MAP16
DITHER_ED
%endif ; HAVE_AVX2_EXTERNAL
%if HAVE_AVX512_EXTERNAL
INIT_ZMM avx512
UNPACK 8
UNPACK 16
PACK 8
PACK 16
X2
MAP8
MAP16
DITHER_ED
%endif ; HAVE_AVX512_EXTERNAL
%if HAVE_AVX512ICL_EXTERNAL
;-----------------------------------------------------------------------------
; void lut_8(float *dst, const uint8_t *src, int w, const float *lut) (AVX-512 ICL)
; The table in registers as 4 byte planes (byte p of the 256 floats) of 4 vectors
; each: m16 + 4 p + c holds byte p of lut[64 c .. 64 c + 63]. 64 codes a step: each
; plane is looked up with two vpermi2b (codes < 128 and >= 128, picked by bit 7 of
; the code), and the 4 planes are interleaved back into floats. The last w % 64 codes
; are read with a masked load (nothing past w); the stores are whole vectors of 16
; floats that start before w (dst is a padded float row).
;-----------------------------------------------------------------------------
; LUT8_PLANE dst, p: byte p of the floats of the codes in m0 (k1 = bit 7 of the codes;
; uses m13)
%macro LUT8_PLANE 2
%assign lut8_a 16 + 4 * %2
%assign lut8_b 17 + 4 * %2
%assign lut8_c 18 + 4 * %2
%assign lut8_d 19 + 4 * %2
    mova    %1, m0
    vpermi2b %1, m %+ lut8_a, m %+ lut8_b
    mova    m13, m0
    vpermi2b m13, m %+ lut8_c, m %+ lut8_d
    vmovdqu8 %1{k1}, m13
%endmacro

; LUT8_STEP: the floats of the 64 codes in m0 (in lut8_order) into m2, m5, m4, m1
; (samples 0-15, 16-31, 32-47, 48-63); uses m3, m6, m13, k1
%macro LUT8_STEP 0
    vpmovb2m k1, m0
    LUT8_PLANE m1, 0
    LUT8_PLANE m2, 1
    LUT8_PLANE m3, 2
    LUT8_PLANE m4, 3
    punpcklbw m5, m1, m2                ; bytes 0, 1 of codes 0-7 of each lane
    punpckhbw m1, m2                    ;                     8-15
    punpcklbw m6, m3, m4                ; bytes 2, 3 of codes 0-7
    punpckhbw m3, m4                    ;                     8-15
    punpcklwd m2, m5, m6                ; floats of codes 0-3 of each lane
    punpckhwd m5, m6                    ;                 4-7
    punpcklwd m4, m1, m3                ;                 8-11
    punpckhwd m1, m3                    ;                 12-15
%endmacro

%macro LUT8_STORE 2 ; vector, index (0-3)
    movu    [dstq + xq * 4 + 64 * %2], %1
%endmacro

INIT_ZMM avx512icl
cglobal cspfix_lut_8, 4, 7, 32, dst, src, w, lut, x, tmp, msk
    movsxdifnidn wq, wd
    ; the byte planes: m16 + 4 p + c = the bytes p of lut[64 c .. 64 c + 63]
    movu    m14, [lut8_split]
    vpternlogd m13, m13, m13, 0xff      ; -1 bytes
    mov     tmpq, -1
    shl     tmpq, 32
    kmovq   k2, tmpq                    ; the upper 32 bytes
%assign lut8_p 0
%rep 4
%assign lut8_c 0
%rep 4
%assign lut8_r 16 + 4 * lut8_p + lut8_c
    movu    m0, [lutq + 256 * lut8_c]
    movu    m1, [lutq + 256 * lut8_c + 128]
    mova    m2, m14
    vpermi2b m2, m0, [lutq + 256 * lut8_c + 64]
    mova    m3, m14
    vpermi2b m3, m1, [lutq + 256 * lut8_c + 192]
    vmovdqu8 m2{k2}, m3
    mova    m %+ lut8_r, m2
%assign lut8_c lut8_c + 1
%endrep
    psubb   m14, m13                    ; the next byte of each float
%assign lut8_p lut8_p + 1
%endrep
    movu    m15, [lut8_order]
    xor     xq, xq
    lea     tmpq, [wq - 64]
.loop:
    cmp     xq, tmpq
    jg .tail
    vpermb  m0, m15, [srcq + xq]
    LUT8_STEP
    LUT8_STORE m2, 0
    LUT8_STORE m5, 1
    LUT8_STORE m4, 2
    LUT8_STORE m1, 3
    add     xq, 64
    jmp .loop
.tail:
    mov     tmpq, wq
    sub     tmpq, xq                    ; codes left: 0 .. 63
    jle .end
    mov     mskq, -1
    bzhi    mskq, mskq, tmpq
    kmovq   k3, mskq
    vmovdqu8 m0{k3}{z}, [srcq + xq]
    vpermb  m0, m15, m0
    LUT8_STEP
    LUT8_STORE m2, 0
    cmp     tmpq, 16
    jle .end
    LUT8_STORE m5, 1
    cmp     tmpq, 32
    jle .end
    LUT8_STORE m4, 2
    cmp     tmpq, 48
    jle .end
    LUT8_STORE m1, 3
.end:
    RET
%endif ; HAVE_AVX512ICL_EXTERNAL
%endif ; ARCH_X86_64
