/*
 * cspfix: format negotiation (the formats, colour spaces and ranges offered; what
 * negotiation chose; the converters libavfilter inserted next to cspfix)
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

#ifndef AVFILTER_CSPFIX_NEGOTIATE_H
#define AVFILTER_CSPFIX_NEGOTIATE_H

#include "libavutil/pixfmt.h"

#include "avfilter.h"
#include "formats.h"

#include "cspfix_describe.h"

/**
 * The formats, colour spaces and ranges cspfix takes and gives (format: the format
 * option, AV_PIX_FMT_NONE: unset): every one on the input, so that no converter is
 * inserted before it; on the output what the options fix, else every supported one.
 */
int ff_cspfix_query_formats(void *log_ctx, const CspfixDescribe *d, enum AVPixelFormat format,
                            AVFilterFormatsConfig **cfg_in, AVFilterFormatsConfig **cfg_out);

/**
 * After negotiation: a colour space or range the consumer forced on a field the options
 * leave free becomes the target (d->neg_csp, d->neg_range); an auto-inserted converter
 * next to cspfix that changes the colour model, depth, range or matrix is warned about.
 */
void ff_cspfix_negotiated_target(AVFilterContext *ctx, CspfixDescribe *d);

#endif /* AVFILTER_CSPFIX_NEGOTIATE_H */
