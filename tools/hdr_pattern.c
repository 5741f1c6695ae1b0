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

static uint16_t clip10(double v)
{
    v = floor(v + 0.5);
    return v < 0 ? 0 : v > 1023 ? 1023 : (uint16_t)v;
}

int main(int argc, char **argv)
{
    static uint16_t y[H][W], u[H / 2][W / 2], v[H / 2][W / 2];
    const double kr = 0.2627, kb = 0.0593, kg = 1.0 - kr - kb;
    int frames = argc > 1 ? atoi(argv[1]) : 1;

    pattern_draw(lin);
    for (int j = 0; j < H; j++)
        for (int i = 0; i < W; i++) {
            const double *p = lin[j][i];
            double e[3] = { pq(p[0]), pq(p[1]), pq(p[2]) };
            y[j][i] = clip10(64 + 876 * (kr * e[0] + kg * e[1] + kb * e[2]));
        }
    for (int j = 0; j < H / 2; j++)
        for (int i = 0; i < W / 2; i++) {
            double cb = 0, cr = 0;
            for (int k = 0; k < 4; k++) {
                const double *p = lin[2 * j + (k >> 1)][2 * i + (k & 1)];
                double e[3] = { pq(p[0]), pq(p[1]), pq(p[2]) };
                double yy = kr * e[0] + kg * e[1] + kb * e[2];
                cb += (e[2] - yy) / (2 * (1 - kb)) / 4;
                cr += (e[0] - yy) / (2 * (1 - kr)) / 4;
            }
            u[j][i] = clip10(512 + 896 * cb);
            v[j][i] = clip10(512 + 896 * cr);
        }
    for (int f = 0; f < frames; f++) {
        fwrite(y, 2, W * H, stdout);
        fwrite(u, 2, W * H / 4, stdout);
        fwrite(v, 2, W * H / 4, stdout);
    }
    return 0;
}
