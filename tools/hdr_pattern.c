/*
 * cspfix HDR demo: an HDR10 (PQ, BT.2020) test pattern with highlights
 * Copyright (c) 2026 the cspfix developers
 *
 * This file is part of cspfix.
 *
 * cspfix is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Lesser General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 *
 * cspfix is distributed in the hope that it will be useful,
 * but WITHOUT ANY WARRANTY; without even the implied warranty of
 * MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.  See the GNU
 * Lesser General Public License for more details.
 *
 * You should have received a copy of the GNU Lesser General Public
 * License along with cspfix; if not, write to the Free Software
 * Foundation, Inc., 51 Franklin Street, Fifth Floor, Boston, MA 02110-1301 USA
 */

/*
 * Writes raw yuv420p10le frames of a 640x360 HDR10 test pattern to stdout: BT.2020
 * primaries, PQ (SMPTE ST 2084), BT.2020 non-constant-luminance limited-range Y'CbCr.
 * The pattern (a grey ramp to 10000 cd/m2, BT.709 and BT.2020 colours at four peaks, skin
 * tones with speculars, a hue sweep) is drawn by hdr_pattern.h.
 * Usage: hdr_pattern FRAMES > clip.yuv
 */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "hdr_pattern.h"

#define W PATTERN_W
#define H PATTERN_H

static PatternLight lin;   /* linear light in cd/m2, BT.2020 RGB */

int main(int argc, char **argv)
{
    static uint16_t y[H][W], u[H / 2][W / 2], v[H / 2][W / 2];
    int frames = argc > 1 ? atoi(argv[1]) : 1;

    pattern_draw(lin);
    pattern_ycbcr(lin, y, u, v);
    for (int f = 0; f < frames; f++) {
        fwrite(y, 2, W * H, stdout);
        fwrite(u, 2, W * H / 4, stdout);
        fwrite(v, 2, W * H / 4, stdout);
    }
    return 0;
}
