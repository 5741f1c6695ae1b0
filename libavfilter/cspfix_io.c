/*
 * cspfix: pixel formats (which are supported, how each stores its components) and
 * rows of one or three components read and written as float
 * Copyright (c) 2026 the cspfix developers
 *
 * This file is part of FFmpeg.
 *
 * FFmpeg is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Lesser General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 *
 * FFmpeg is distributed in the hope that it will be useful,
 * but WITHOUT ANY WARRANTY; without even the implied warranty of
 * MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.  See the GNU
 * Lesser General Public License for more details.
 *
 * You should have received a copy of the GNU Lesser General Public
 * License along with FFmpeg; if not, write to the Free Software
 * Foundation, Inc., 51 Franklin Street, Fifth Floor, Boston, MA 02110-1301 USA
 */

#include <math.h>
#include <string.h>

#include "libavutil/common.h"
#include "libavutil/error.h"
#include "libavutil/intfloat.h"
#include "libavutil/intreadwrite.h"
#include "libavutil/pixdesc.h"
#include "libavutil/thread.h"

#include "cspfix_io.h"

/*
 * The formats are chosen from the pixel format descriptors of the libavutil the
 * filter runs with, so that every format of that FFmpeg version (8.1, 9.0, ...)
 * with a colour model the filter knows is taken without a list to keep in step.
 */
const char *ff_cspfix_unsupported_reason(enum AVPixelFormat fmt)
{
    const AVPixFmtDescriptor *d = av_pix_fmt_desc_get(fmt);
    const int fl = d ? d->flags : 0;

    if (!d)
        return "unknown pixel format";
    if (fl & AV_PIX_FMT_FLAG_HWACCEL)
        return "hardware surface: download it first (hwdownload,format=...)";
    if (fl & AV_PIX_FMT_FLAG_PAL)
        return "paletted: the colours are in a palette, not in the samples; convert it "
               "to RGB first (format=rgb24 or scale)";
    if (fl & AV_PIX_FMT_FLAG_BAYER)
        return "Bayer mosaic: it needs demosaicing first";
    if (d->nb_components < 1 || d->nb_components > 4 ||
        (d->nb_components == 2 && !(fl & AV_PIX_FMT_FLAG_ALPHA)) ||
        (d->nb_components == 4 && !(fl & AV_PIX_FMT_FLAG_ALPHA)))
        return "components the filter cannot place";
    if (d->log2_chroma_w > 2 || d->log2_chroma_h > 2)
        return "chroma subsampling beyond 4:1";
    for (int c = 0; c < d->nb_components; c++) {
        const AVComponentDescriptor *cd = &d->comp[c];
        if (fl & AV_PIX_FMT_FLAG_FLOAT ? cd->depth != 16 && cd->depth != 32 : cd->depth > 16)
            return "samples wider than 16 bits are not exact in the filter's float pipeline";
        if (!cd->depth)
            return "a component without samples";
    }
    /* packed chroma beside luma: a chroma sample per 2^hsub luma samples at a regular
     * step (uyyvyy411 is not regular) */
    if (d->nb_components >= 3 && !(fl & AV_PIX_FMT_FLAG_RGB) &&
        d->comp[1].plane == d->comp[0].plane && !(fl & AV_PIX_FMT_FLAG_BITSTREAM) &&
        d->comp[0].step << d->log2_chroma_w != d->comp[1].step)
        return "irregular packing of luma and chroma";
    if ((d->nb_components <= 2 || (fl & AV_PIX_FMT_FLAG_RGB)) &&
        (d->log2_chroma_w || d->log2_chroma_h))
        return "subsampled RGB or gray";
    return NULL;
}

static enum AVPixelFormat supported[AV_PIX_FMT_NB + 1];
static AVOnce supported_once = AV_ONCE_INIT;

static void init_supported(void)
{
    const AVPixFmtDescriptor *d = NULL;
    int n = 0;

    while ((d = av_pix_fmt_desc_next(d)) && n < AV_PIX_FMT_NB) {
        const enum AVPixelFormat f = av_pix_fmt_desc_get_id(d);
        if (!ff_cspfix_unsupported_reason(f))
            supported[n++] = f;
    }
    supported[n] = AV_PIX_FMT_NONE;
}

const enum AVPixelFormat *ff_cspfix_pix_fmts(void)
{
    ff_thread_once(&supported_once, init_supported);
    return supported;
}

/* bytes of the word a component is written in by the code of its kind */
static int kind_bytes(const CspfixComp *cp)
{
    return cp->kind == CSPFIX_COMP_GENERIC ? cp->bits >> 3 :
           cp->kind == CSPFIX_COMP_PLANAR8 || cp->kind == CSPFIX_COMP_S8 ? 1 :
           cp->kind == CSPFIX_COMP_F32 ? 4 : 2;
}

/* the bytes of a group of `group` bytes that component cp writes */
static uint64_t byte_mask(const CspfixComp *cp, int group)
{
    const int off = cp->offset + (cp->kind == CSPFIX_COMP_GENERIC && cp->bits == 8 && cp->be);
    uint64_t m = 0;
    for (int k = 0; k < group / cp->step; k++)
        for (int b = 0; b < kind_bytes(cp); b++)
            if (off + k * cp->step + b >= 0 && off + k * cp->step + b < 64)
                m |= 1ULL << (off + k * cp->step + b);
    return m;
}

int ff_cspfix_format_init(CspfixFormat *f, enum AVPixelFormat fmt)
{
    const AVPixFmtDescriptor *d = av_pix_fmt_desc_get(fmt);
    int nb, be, bits;

    if (!d || ff_cspfix_unsupported_reason(fmt))
        return AVERROR(ENOSYS);

    memset(f, 0, sizeof(*f));
    nb           = d->nb_components;
    be           = !!(d->flags & AV_PIX_FMT_FLAG_BE);
    bits         = !!(d->flags & AV_PIX_FMT_FLAG_BITSTREAM);
    f->fmt       = fmt;
    /* X'Y'Z' (xyz12: DCI cinema) as R'G'B' of the smpte428 primaries */
    f->rgb       = !!(d->flags & (AV_PIX_FMT_FLAG_RGB | AV_PIX_FMT_FLAG_XYZ));
    f->is_float  = !!(d->flags & AV_PIX_FMT_FLAG_FLOAT);
    f->alpha     = !!(d->flags & AV_PIX_FMT_FLAG_ALPHA);
    f->x2rgb10   = fmt == AV_PIX_FMT_X2RGB10LE;
    f->nb_colour = nb >= 3 ? 3 : 1;
    f->hsub      = f->nb_colour == 3 ? d->log2_chroma_w : 0;
    f->vsub      = f->nb_colour == 3 ? d->log2_chroma_h : 0;
    f->depth     = 0;
    for (int c = 0; c < f->nb_colour && !f->is_float; c++)
        f->depth = FFMAX(f->depth, d->comp[c].depth);

    for (int c = 0; c < nb; c++) {
        const AVComponentDescriptor *cd = &d->comp[c];
        const int colour = c < f->nb_colour;
        CspfixComp *cp = &f->comp[colour ? c : 3];

        cp->plane  = cd->plane;
        cp->step   = cd->step;
        cp->offset = cd->offset;
        cp->shift  = cd->shift;
        cp->depth  = cd->depth;
        cp->be     = be;
        cp->half   = f->is_float && cd->depth == 16;
        cp->invert = fmt == AV_PIX_FMT_MONOWHITE;
        cp->scale  = colour && !f->is_float && cd->depth != f->depth ?
                     (float)((1 << f->depth) - 1) / ((1 << cd->depth) - 1) : 1.0f;
        cp->bits   = bits ? 0 : cd->shift + cd->depth <= 8  ? 8 :
                                cd->shift + cd->depth <= 16 ? 16 : 32;
        if (bits || be || cp->scale != 1.0f || cp->invert)
            cp->kind = CSPFIX_COMP_GENERIC;
        else if (f->is_float)
            cp->kind = cd->depth == 32 ? CSPFIX_COMP_F32 : CSPFIX_COMP_GENERIC;
        else if (cd->depth == 8 && !cd->shift)
            cp->kind = cd->step == 1 && !cd->offset ? CSPFIX_COMP_PLANAR8 : CSPFIX_COMP_S8;
        else if (cd->depth > 8 && cd->shift + cd->depth <= 16 &&
                 (cd->step == 2 ? !cd->offset : cd->offset + 2 <= cd->step))
            cp->kind = cd->step == 2 && !cd->shift ? CSPFIX_COMP_PLANAR16 : CSPFIX_COMP_S16;
        else
            cp->kind = CSPFIX_COMP_GENERIC;
    }

    /* words the kernels would write whole but other components share are written by
     * read-modify-write of zeroed frames; bytes no component writes (X) stay zero */
    for (int p = 0; p < 4; p++) {
        uint64_t m[4] = { 0 }, all = 0;
        int group = 0, any = 0;
        for (int c = 0; c < nb; c++)
            if (d->comp[c].plane == p)
                group = FFMAX(group, d->comp[c].step);
        if (!group)
            continue;
        if (bits || group > 32) {
            f->clear = 1;
            for (int c = 0; c < 4; c++)
                if (f->comp[c].depth && f->comp[c].plane == p)
                    f->comp[c].wgeneric = 1;
            continue;
        }
        for (int c = 0; c < 4; c++) {
            CspfixComp *cp = &f->comp[c];
            if (!cp->depth || cp->plane != p)
                continue;
            m[c] = byte_mask(cp, group);
            any = 1;
        }
        for (int c = 0; c < 4 && any; c++) {
            CspfixComp *cp = &f->comp[c];
            if (!cp->depth || cp->plane != p)
                continue;
            for (int o = 0; o < 4; o++)
                if (o != c && (m[o] & m[c]))
                    cp->wgeneric = 1;
            f->clear |= cp->wgeneric;
            all |= m[c];
        }
        if (all != (group >= 64 ? ~0ULL : (1ULL << group) - 1))
            f->clear = 1;
    }
    return 0;
}

/* ---- the generic component code: one sample at a time, as the descriptor says ---- */

static float half_to_float(unsigned h)
{
    const int e = (h >> 10) & 31, m = h & 1023;
    float v = e == 0  ? ldexpf(m, -24) :
              e == 31 ? (m ? NAN : INFINITY) : ldexpf(m + 1024, e - 25);
    return h & 0x8000 ? -v : v;
}

/* round to nearest, ties to even */
static unsigned float_to_half(float f)
{
    const uint32_t x = av_float2int(f), sign = (x >> 16) & 0x8000;
    const uint32_t m = x & 0x7fffff;
    const int e = (int)((x >> 23) & 255) - 127 + 15;
    uint32_t hm, rem, half;
    int sh;

    if (((x >> 23) & 255) == 255)
        return sign | 0x7c00 | (m ? 0x200 : 0);
    if (e >= 31)
        return sign | 0x7c00;
    if (e > 0) {
        uint32_t r = sign | (uint32_t)e << 10 | m >> 13;
        rem = m & 0x1fff;
        if (rem > 0x1000 || (rem == 0x1000 && (r & 1)))
            r++; /* a carry into the exponent is the right result */
        return r;
    }
    if (e < -10)
        return sign;
    sh   = 14 - e;
    hm   = (m | 0x800000) >> sh;
    rem  = (m | 0x800000) & ((1u << sh) - 1);
    half = 1u << (sh - 1);
    if (rem > half || (rem == half && (hm & 1)))
        hm++;
    return sign | hm;
}

/* the word holding sample x and where the sample sits in it */
static uint8_t *word_ptr(const CspfixComp *cp, uint8_t *row, int x, int *shift)
{
    if (!cp->bits) {
        if (cp->step > 8) {
            *shift = cp->offset;
            return row + (ptrdiff_t)x * (cp->step >> 3);
        } else {
            const int skip = x * cp->step + cp->offset;
            *shift = 8 - cp->depth - (skip & 7);
            return row + (skip >> 3);
        }
    }
    *shift = cp->shift;
    return row + (ptrdiff_t)x * cp->step + cp->offset + (cp->bits == 8 && cp->be);
}

static uint32_t load_word(const CspfixComp *cp, const uint8_t *p)
{
    if (!cp->bits)
        return cp->step > 8 ? AV_RB32(p) : p[0];
    if (cp->bits == 8)
        return p[0];
    if (cp->bits == 16)
        return cp->be ? AV_RB16(p) : AV_RL16(p);
    return cp->be ? AV_RB32(p) : AV_RL32(p);
}

static void store_word(const CspfixComp *cp, uint8_t *p, uint32_t v)
{
    if ((!cp->bits && cp->step > 8) || (cp->bits == 32 && cp->be))
        AV_WB32(p, v);
    else if (!cp->bits || cp->bits == 8)
        p[0] = v;
    else if (cp->bits == 16 && cp->be)
        AV_WB16(p, v);
    else if (cp->bits == 16)
        AV_WL16(p, v);
    else
        AV_WL32(p, v);
}

static void read_generic(const CspfixComp *cp, const uint8_t *row, int w, float *dst)
{
    const uint32_t mask = cp->depth >= 32 ? 0xffffffffu : (1u << cp->depth) - 1;

    for (int x = 0; x < w; x++) {
        int sh;
        const uint8_t *p = word_ptr(cp, (uint8_t *)row, x, &sh);
        const uint32_t v = (load_word(cp, p) >> sh) & mask;
        if (cp->half)
            dst[x] = half_to_float(v);
        else if (cp->depth == 32)
            dst[x] = av_int2float(v);
        else
            dst[x] = (cp->invert ? mask - v : v) * cp->scale;
    }
}

static void write_generic(const CspfixComp *cp, uint8_t *row, int w, const float *src,
                          const float *bias, float lo, float hi)
{
    const uint32_t mask = cp->depth >= 32 ? 0xffffffffu : (1u << cp->depth) - 1;
    const float is = 1.0f / cp->scale;

    if (cp->scale != 1.0f) {
        lo = floorf(lo * is + 0.5f);
        hi = mask;
    }
    for (int x = 0; x < w; x++) {
        int sh;
        uint8_t *p = word_ptr(cp, row, x, &sh);
        uint32_t v;
        if (cp->half) {
            v = float_to_half(src[x]);
        } else if (cp->depth == 32) {
            v = av_float2int(src[x]);
        } else {
            float f = (cp->scale != 1.0f ? src[x] * is : src[x]) + bias[x & 15];
            f = f > lo ? f : lo;
            f = f < hi ? f : hi;
            v = (uint32_t)f;
            if (cp->invert)
                v = mask - v;
        }
        if (cp->wgeneric)
            store_word(cp, p, (load_word(cp, p) & ~(mask << sh)) | v << sh);
        else
            store_word(cp, p, v << sh);
    }
}

static uint8_t *line_ptr(const AVFrame *frame, const CspfixComp *cp, int y)
{
    return frame->data[cp->plane] + (ptrdiff_t)y * frame->linesize[cp->plane];
}

void ff_cspfix_read(const CspfixDSPContext *dsp, const CspfixFormat *f, const AVFrame *frame,
                    int c, int y, int w, float *dst)
{
    const CspfixComp *cp = &f->comp[c];
    const uint8_t *src = ff_cspfix_row_ptr(frame, cp, y);

    switch (cp->kind) {
    case CSPFIX_COMP_PLANAR8:  dsp->io.unpack[0](dst, src, w);               break;
    case CSPFIX_COMP_PLANAR16: dsp->io.unpack[1](dst, src, w);               break;
    case CSPFIX_COMP_S8:
        switch (cp->step) {
        case 2:  dsp->io.unpack_x2_8(dst, src, w);            break;
        case 3:  dsp->io.unpack_x3_8(dst, src, w);            break;
        case 4:  dsp->io.unpack_x4_8(dst, src, w);            break;
        default: dsp->io.unpack_s8(dst, src, w, cp->step);    break;
        }
        break;
    case CSPFIX_COMP_S16:      dsp->io.unpack_s16(dst, src, w, cp->step, cp->shift,
                                                  (1 << cp->depth) - 1);     break;
    case CSPFIX_COMP_F32:      dsp->io.unpack_f32(dst, src, w, cp->step);    break;
    case CSPFIX_COMP_GENERIC:  read_generic(cp, line_ptr(frame, cp, y), w, dst); break;
    }
}

void ff_cspfix_read_lut(const CspfixDSPContext *dsp, const CspfixFormat *f, const AVFrame *frame,
                        int c, int y, int w, float *dst, const float *lut, int n)
{
    const CspfixComp *cp = &f->comp[c];

    if (cp->kind == CSPFIX_COMP_PLANAR8 && n == 256) {
        dsp->io.lut8(dst, ff_cspfix_row_ptr(frame, cp, y), w, lut);
        return;
    }
    ff_cspfix_read(dsp, f, frame, c, y, w, dst);
    dsp->io.lut(dst, w, lut, n);
}

void ff_cspfix_write(const CspfixDSPContext *dsp, const CspfixFormat *f, AVFrame *frame,
                     int c, int y, int w, const float *src, const float *bias,
                     float lo, float hi)
{
    const CspfixComp *cp = &f->comp[c];
    uint8_t *dst = (uint8_t *)ff_cspfix_row_ptr(frame, cp, y);

    if (cp->wgeneric || cp->kind == CSPFIX_COMP_GENERIC) {
        write_generic(cp, line_ptr(frame, cp, y), w, src, bias, lo, hi);
        return;
    }
    switch (cp->kind) {
    case CSPFIX_COMP_PLANAR8:  dsp->io.pack[0](dst, src, w, bias, lo, hi);   break;
    case CSPFIX_COMP_PLANAR16: dsp->io.pack[1](dst, src, w, bias, lo, hi);   break;
    case CSPFIX_COMP_S8:
        switch (cp->step) {
        case 2:  dsp->io.pack_x2_8(dst, src, w, bias, lo, hi);            break;
        case 3:  dsp->io.pack_x3_8(dst, src, w, bias, lo, hi);            break;
        case 4:  dsp->io.pack_x4_8(dst, src, w, bias, lo, hi);            break;
        default: dsp->io.pack_s8(dst, src, w, cp->step, bias, lo, hi);    break;
        }
        break;
    case CSPFIX_COMP_S16:      dsp->io.pack_s16(dst, src, w, cp->step, cp->shift, bias, lo, hi); break;
    case CSPFIX_COMP_F32:      dsp->io.pack_f32(dst, src, w, cp->step);      break;
    case CSPFIX_COMP_GENERIC:  break;
    }
}

void ff_cspfix_write3(const CspfixDSPContext *dsp, const CspfixFormat *f, AVFrame *frame,
                      int y, int w, float *const c[3], const float *bias,
                      const float lo[3], const float hi[3])
{
    if (f->x2rgb10) {
        dsp->io.pack_x2rgb10(frame->data[0] + (ptrdiff_t)y * frame->linesize[0], c[0], c[1], c[2],
                          w, bias, lo[0], hi[0]);
        return;
    }
    for (int i = 0; i < 3; i++)
        ff_cspfix_write(dsp, f, frame, i, y, w, c[i], bias, lo[i], hi[i]);
}
