/*
 * cspfix: pixel layouts, reading and writing rows of one component as float
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

#include "libavutil/error.h"
#include "libavutil/pixdesc.h"

#include "cspfix_io.h"

const enum AVPixelFormat ff_cspfix_pix_fmts[] = {
    AV_PIX_FMT_YUV420P,     AV_PIX_FMT_YUV422P,     AV_PIX_FMT_YUV444P,
    AV_PIX_FMT_YUV420P10,   AV_PIX_FMT_YUV422P10,   AV_PIX_FMT_YUV444P10,
    AV_PIX_FMT_YUV420P12,   AV_PIX_FMT_YUV422P12,   AV_PIX_FMT_YUV444P12,
    AV_PIX_FMT_YUV420P16,   AV_PIX_FMT_YUV422P16,   AV_PIX_FMT_YUV444P16,
    AV_PIX_FMT_YUVA420P,    AV_PIX_FMT_YUVA422P,    AV_PIX_FMT_YUVA444P,
    AV_PIX_FMT_YUVA420P10,  AV_PIX_FMT_YUVA422P10,  AV_PIX_FMT_YUVA444P10,
    AV_PIX_FMT_NV12,        AV_PIX_FMT_NV21,        AV_PIX_FMT_NV16,
    AV_PIX_FMT_NV24,        AV_PIX_FMT_P010LE,      AV_PIX_FMT_P012LE,
    AV_PIX_FMT_P016LE,      AV_PIX_FMT_P210LE,
    AV_PIX_FMT_GBRP,        AV_PIX_FMT_GBRP10,      AV_PIX_FMT_GBRP12,
    AV_PIX_FMT_GBRP16,      AV_PIX_FMT_GBRAP,       AV_PIX_FMT_GBRAP10,
    AV_PIX_FMT_GBRAP12,     AV_PIX_FMT_GBRAP16,     AV_PIX_FMT_GBRPF32LE,
    AV_PIX_FMT_GBRAPF32LE,
    AV_PIX_FMT_RGB24,       AV_PIX_FMT_BGR24,       AV_PIX_FMT_RGBA,
    AV_PIX_FMT_BGRA,        AV_PIX_FMT_ARGB,        AV_PIX_FMT_ABGR,
    AV_PIX_FMT_RGB48LE,     AV_PIX_FMT_RGBA64LE,    AV_PIX_FMT_X2RGB10LE,
    AV_PIX_FMT_GRAY8,       AV_PIX_FMT_GRAY10LE,    AV_PIX_FMT_GRAY16LE,
    AV_PIX_FMT_NONE
};

int ff_cspfix_format_init(CspfixFormat *f, enum AVPixelFormat fmt)
{
    const AVPixFmtDescriptor *d = av_pix_fmt_desc_get(fmt);
    int found = 0;

    for (int i = 0; ff_cspfix_pix_fmts[i] != AV_PIX_FMT_NONE; i++)
        found |= ff_cspfix_pix_fmts[i] == fmt;
    if (!found || !d)
        return AVERROR(ENOSYS);

    memset(f, 0, sizeof(*f));
    f->fmt       = fmt;
    f->rgb       = !!(d->flags & AV_PIX_FMT_FLAG_RGB);
    f->is_float  = !!(d->flags & AV_PIX_FMT_FLAG_FLOAT);
    f->alpha     = !!(d->flags & AV_PIX_FMT_FLAG_ALPHA);
    f->x2rgb10   = fmt == AV_PIX_FMT_X2RGB10LE;
    f->nb_colour = d->nb_components - f->alpha;
    f->depth     = f->is_float ? 0 : d->comp[0].depth;
    f->hsub      = f->nb_colour == 3 ? d->log2_chroma_w : 0;
    f->vsub      = f->nb_colour == 3 ? d->log2_chroma_h : 0;

    for (int c = 0; c < d->nb_components; c++) {
        const AVComponentDescriptor *cd = &d->comp[c];
        CspfixComp *cp = &f->comp[c < f->nb_colour ? c : 3];
        const int bytes = cd->depth > 16 ? 4 : cd->depth > 8 ? 2 : 1;

        cp->plane  = cd->plane;
        cp->step   = cd->step;
        cp->offset = cd->offset;
        cp->shift  = cd->shift;
        cp->depth  = cd->depth;
        if (f->is_float)
            cp->kind = CSPFIX_COMP_F32;
        else if (cd->step == bytes && !cd->shift && !cd->offset)
            cp->kind = bytes == 1 ? CSPFIX_COMP_PLANAR8 : CSPFIX_COMP_PLANAR16;
        else
            cp->kind = bytes == 1 && !cd->shift ? CSPFIX_COMP_S8 : CSPFIX_COMP_S16;
    }
    return 0;
}

static const uint8_t *row_ptr(const AVFrame *frame, const CspfixComp *cp, int y)
{
    return frame->data[cp->plane] + (ptrdiff_t)y * frame->linesize[cp->plane] + cp->offset;
}

void ff_cspfix_read(const CspfixDSPContext *dsp, const CspfixFormat *f, const AVFrame *frame,
                    int c, int y, int w, float *dst)
{
    const CspfixComp *cp = &f->comp[c];
    const uint8_t *src = row_ptr(frame, cp, y);

    switch (cp->kind) {
    case CSPFIX_COMP_PLANAR8:  dsp->unpack[0](dst, src, w);                  break;
    case CSPFIX_COMP_PLANAR16: dsp->unpack[1](dst, src, w);                  break;
    case CSPFIX_COMP_S8:
        if (cp->step == 2)
            dsp->unpack_x2_8(dst, src, w);
        else
            dsp->unpack_s8(dst, src, w, cp->step);
        break;
    case CSPFIX_COMP_S16:      dsp->unpack_s16(dst, src, w, cp->step, cp->shift,
                                               (1 << cp->depth) - 1);        break;
    case CSPFIX_COMP_F32:      dsp->unpack_f32(dst, src, w, cp->step);       break;
    }
}

void ff_cspfix_read_lut(const CspfixDSPContext *dsp, const CspfixFormat *f, const AVFrame *frame,
                        int c, int y, int w, float *dst, const float *lut, int n)
{
    const CspfixComp *cp = &f->comp[c];

    if (cp->kind == CSPFIX_COMP_PLANAR8 && n == 256) {
        dsp->lut8(dst, row_ptr(frame, cp, y), w, lut);
        return;
    }
    ff_cspfix_read(dsp, f, frame, c, y, w, dst);
    dsp->lut(dst, w, lut, n);
}

void ff_cspfix_write(const CspfixDSPContext *dsp, const CspfixFormat *f, AVFrame *frame,
                     int c, int y, int w, const float *src, const float *bias,
                     float lo, float hi)
{
    const CspfixComp *cp = &f->comp[c];
    uint8_t *dst = (uint8_t *)row_ptr(frame, cp, y);

    switch (cp->kind) {
    case CSPFIX_COMP_PLANAR8:  dsp->pack[0](dst, src, w, bias, lo, hi);      break;
    case CSPFIX_COMP_PLANAR16: dsp->pack[1](dst, src, w, bias, lo, hi);      break;
    case CSPFIX_COMP_S8:
        if (cp->step == 2)
            dsp->pack_x2_8(dst, src, w, bias, lo, hi);
        else
            dsp->pack_s8(dst, src, w, cp->step, bias, lo, hi);
        break;
    case CSPFIX_COMP_S16:      dsp->pack_s16(dst, src, w, cp->step, cp->shift, bias, lo, hi); break;
    case CSPFIX_COMP_F32:      dsp->pack_f32(dst, src, w, cp->step);         break;
    }
}

void ff_cspfix_write3(const CspfixDSPContext *dsp, const CspfixFormat *f, AVFrame *frame,
                      int y, int w, float *const c[3], const float *bias,
                      const float lo[3], const float hi[3])
{
    if (f->x2rgb10) {
        dsp->pack_x2rgb10(frame->data[0] + (ptrdiff_t)y * frame->linesize[0], c[0], c[1], c[2],
                          w, bias, lo[0], hi[0]);
        return;
    }
    for (int i = 0; i < 3; i++)
        ff_cspfix_write(dsp, f, frame, i, y, w, c[i], bias, lo[i], hi[i]);
}
