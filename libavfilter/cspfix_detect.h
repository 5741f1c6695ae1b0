/*
 * cspfix: the detector of mislabelled input (range, RGB vs Y'CbCr, matrix by colour bars)
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

#ifndef AVFILTER_CSPFIX_DETECT_H
#define AVFILTER_CSPFIX_DETECT_H

/*
 * The classic mislabels, found from the pixels (option detect=off|warn|fix):
 * - range: a stream tagged limited (tv) whose luma (G) uses the codes outside
 *   16-235 a lot, including the extremes 0 and 255 that limited range reserves; a stream
 *   tagged full (pc) that stays inside 16-235 over enough frames while reaching near both
 *   of its ends;
 * - RGB data in a Y'CbCr format: "chroma" planes that follow luma (corr > 0.75 both)
 *   and vary nearly as much (variance > 0.3 of luma's); Y'CbCr data in an RGB format: two
 *   planes near the middle code (means within 12 of 128 in 8-bit codes), varying less
 *   than a quarter as much as the third and not following it (|corr| < 0.5);
 * - BT.601 against BT.709 (and BT.2020): flat runs of colour bars (75 % and 100 %
 *   primaries and secondaries) whose codes match another matrix and not the tagged one.
 *   On other content a matrix mislabel shows only as a hue shift no statistic can tell
 *   from the content's own colours: it is not looked for there.
 * Frames are read sparsely (about 16384 samples, at most every 4th of every 4th row;
 * every frame for the first
 * CSPFIX_DETECT_DENSE frames, then every CSPFIX_DETECT_EVERY-th). Verdicts need
 * statistics over several frames; each is reported once (warn: with the option that
 * fixes it; fix: applied from the next frame, logged with its frame number and pts).
 */

#include <stdint.h>

#include "libavutil/frame.h"

#include "cspfix_plan.h"

enum CspfixDetectMode {
    CSPFIX_DETECT_OFF = 0,
    CSPFIX_DETECT_WARN,
    CSPFIX_DETECT_FIX,
    CSPFIX_DETECT_NB,
};

#define CSPFIX_DETECT_DENSE 30
#define CSPFIX_DETECT_EVERY 15

typedef struct CspfixDetect {
    int64_t frames;             ///< frames seen
    int64_t sampled;            ///< frames read
    /* luma (G for RGB) codes scaled to 8 bits, for the range verdicts */
    uint64_t hist[256];
    /* component moments (8-bit scale) at chroma sample positions: layout verdicts */
    double n, s[3], ss[3], sy[2];
    int64_t layout_frames;
    /* colour bars: frames whose bar colours matched each matrix, and not the tagged */
    int bars_frames, bars_csp;
    /* what was found: the field to take, *_UNSPECIFIED while nothing */
    int range, csp;
    unsigned reported;          ///< CSPFIX_DETECT_R_* bits already reported
    /* the description the statistics were gathered under: a change restarts them */
    int tag_range, tag_csp, tag_rgb;
    int fmt;                    ///< the pixel format + 1 (0: nothing seen yet)
} CspfixDetect;

/**
 * Take frame f (described as id, before any fix of the detector's) into the statistics
 * and report what they now show. user_range, user_csp: the input overrides set (the
 * detector then leaves that field alone).
 */
void ff_cspfix_detect_frame(void *log_ctx, CspfixDetect *d, int mode, const AVFrame *f,
                            const CspfixDesc *id, int user_range, int user_csp);

#endif /* AVFILTER_CSPFIX_DETECT_H */
