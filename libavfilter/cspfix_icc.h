/*
 * cspfix: ICC profiles in and out (Little CMS 2)
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

#ifndef AVFILTER_CSPFIX_ICC_H
#define AVFILTER_CSPFIX_ICC_H

/*
 * ICC profiles (AV_FRAME_DATA_ICC_PROFILE), read and written with Little CMS 2 when
 * FFmpeg is configured with --enable-lcms2 (else every call says AVERROR(ENOSYS)).
 *
 * In: a matrix/TRC profile (RGB: rXYZ, gXYZ, bXYZ and rTRC, gTRC, bTRC; grey: grayTRC)
 * is read as the primaries and transfer it describes. The colorants are taken back from
 * the profile connection space's D50 to the profile's own white (by its chad tag; in a
 * version 2 profile without one, by Bradford from its wtpt), and their chromaticities
 * matched to the nearest primaries cspfix has (within CSPFIX_ICC_XY_TOL); the curve is
 * evaluated at CSPFIX_ICC_CURVE_POINTS points and matched to the nearest decoding curve
 * cspfix has in the filter's linearisation mode (within CSPFIX_ICC_CURVE_TOL). cspfix's
 * own stages then convert: the same as the tags that name those values. Colorants and a
 * curve that match none are values of their own (cspfix_custom.h): the colorants' own
 * chromaticities, the curve's ICC parametric form or its samples. A profile that lcms2
 * cannot read, a LUT profile (A2B/B2A tags), per-channel curves that differ, a curve
 * that does not increase: the reason, and the tags are used.
 *
 * Out: a version 4 matrix/TRC profile for the output's primaries and transfer (its
 * colorants adapted to D50 by Bradford, a chad tag, the curve parametric where ICC has
 * the form: pure powers and the sRGB/BT.709 piecewise curves).
 */

#include <stddef.h>
#include <stdint.h>

#include "libavutil/buffer.h"
#include "libavutil/frame.h"

/** Options icc= (input) and icc_out= */
/** Grid points per axis of the table a LUT profile is read as. */
#define CSPFIX_ICC_LUT_N 33

enum CspfixIccMode {
    CSPFIX_ICC_IGNORE = 0,     ///< the tags, never the profile
    CSPFIX_ICC_AUTO,           ///< the profile over the frame's tags (logged when they differ)
    CSPFIX_ICC_USE,            ///< the profile over the tags and the input overrides
    CSPFIX_ICC_NB,
};

enum CspfixIccOut {
    CSPFIX_ICC_OUT_NONE = 0,   ///< never write one (a profile that no longer describes
                               ///< the output is dropped all the same)
    CSPFIX_ICC_OUT_AUTO,       ///< RGB output in anything but sRGB/BT.709 primaries and
                               ///< transfer, and values FFmpeg's tags cannot say
    CSPFIX_ICC_OUT_WRITE,      ///< every RGB output
    CSPFIX_ICC_OUT_NB,
};

#define CSPFIX_ICC_XY_TOL       2e-3
#define CSPFIX_ICC_CURVE_TOL    5e-4
#define CSPFIX_ICC_CURVE_POINTS 1024

typedef struct CspfixIcc {
    int linearize;             ///< the filter's linearize (enum CspfixLinearize)
    /* the last profile read: the same bytes give the same answer */
    uint8_t *data;
    size_t size;
    int ret;                   ///< 0: usable, else AVERROR
    int prim, trc;             ///< what it describes (*_UNSPECIFIED: nothing, e.g. grey's primaries)
    char desc[128];            ///< its description tag
    char why[256];             ///< why it is not used
    char note[192];            ///< what its primaries and curve of their own are
    /* what was last logged about it, to log each change once */
    int logged, logged_prim, logged_trc;
    /* the last profile made for an output */
    AVBufferRef *out;
    int out_prim, out_trc, out_linearize;
} CspfixIcc;

/**
 * What the profile sd describes: 0 with *prim and *trc (*_UNSPECIFIED for a field it
 * leaves open), else an AVERROR with c->why saying why it is not used.
 */
int ff_cspfix_icc_read(CspfixIcc *c, const AVFrameSideData *sd, int *prim, int *trc);

/**
 * A profile describing RGB in primaries prim with transfer trc (decoded as c->linearize
 * says) in *buf (a reference owned by the caller). AVERROR(EINVAL) for a transfer a
 * profile does not carry (PQ, HLG, the log curves, SMPTE ST 428), ENOSYS without lcms2.
 */
int ff_cspfix_icc_make(CspfixIcc *c, int prim, int trc, AVBufferRef **buf);

/** 1 when lcms2 is built in. */
int ff_cspfix_icc_available(void);

void ff_cspfix_icc_uninit(CspfixIcc *c);

#endif /* AVFILTER_CSPFIX_ICC_H */
