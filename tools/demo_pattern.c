/*
 * cspfix demo: the built-in test pattern (SMPTE 170M, limited range, 4:2:0)
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
 * Writes raw yuv420p frames of a 640x360 pattern to stdout: skin tones,
 * saturated patches, a grey ramp and near-white spreadsheet rows, encoded as
 * BT.601 525 (SMPTE 170M) limited-range Y'CbCr.
 * Usage: demo_pattern FRAMES > clip.yuv
 */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define W 640
#define H 360

static double rgb[H][W][3];

static void fill(int x0, int y0, int x1, int y1, double r, double g, double b)
{
    for (int y = y0; y < y1 && y < H; y++)
        for (int x = x0; x < x1 && x < W; x++) {
            rgb[y][x][0] = r;
            rgb[y][x][1] = g;
            rgb[y][x][2] = b;
        }
}

static unsigned char clip8(double v)
{
    v = floor(v + 0.5);
    return v < 0 ? 0 : v > 255 ? 255 : (unsigned char)v;
}

int main(int argc, char **argv)
{
    /* R'G'B' of ColorChecker-like skin patches and saturated patches (0..255) */
    static const int skin[6][3] = {
        { 115, 82, 68 }, { 194, 150, 130 }, { 224, 172, 138 },
        { 141, 85, 36 }, { 255, 219, 172 }, { 198, 134, 66 },
    };
    static const int sat[8][3] = {
        { 191, 191, 191 }, { 191, 191, 0 }, { 0, 191, 191 }, { 0, 191, 0 },
        { 191, 0, 191 }, { 191, 0, 0 }, { 0, 0, 191 }, { 255, 0, 0 },
    };
    static unsigned char y[H][W], u[H / 2][W / 2], v[H / 2][W / 2];
    const double kr = 0.299, kb = 0.114, kg = 1.0 - kr - kb;
    int frames = argc > 1 ? atoi(argv[1]) : 25;

    fill(0, 0, W, H, 0.5, 0.5, 0.5);
    for (int i = 0; i < 6; i++)     /* skin tones, top row */
        fill(i * 106, 0, i * 106 + 106, 90, skin[i][0] / 255.0, skin[i][1] / 255.0, skin[i][2] / 255.0);
    for (int i = 0; i < 8; i++)     /* 75 % bars and 100 % red */
        fill(i * 80, 90, i * 80 + 80, 180, sat[i][0] / 255.0, sat[i][1] / 255.0, sat[i][2] / 255.0);
    for (int x = 0; x < W; x++)     /* grey ramp */
        fill(x, 180, x + 1, 230, x / (W - 1.0), x / (W - 1.0), x / (W - 1.0));
    for (int row = 0; row < 12; row++) { /* spreadsheet: white / near-white rows, grid lines */
        double c = row & 1 ? 0.94 : 1.0;
        fill(0, 232 + row * 10, W, 232 + row * 10 + 9, c, c, c);
        fill(0, 232 + row * 10 + 9, W, 232 + row * 10 + 10, 0.85, 0.85, 0.85);
    }
    for (int x = 0; x < W; x += 80)
        fill(x, 232, x + 1, H, 0.85, 0.85, 0.85);

    for (int j = 0; j < H; j++)
        for (int i = 0; i < W; i++) {
            const double *p = rgb[j][i];
            y[j][i] = clip8(16 + 219 * (kr * p[0] + kg * p[1] + kb * p[2]));
        }
    for (int j = 0; j < H / 2; j++)
        for (int i = 0; i < W / 2; i++) {
            double cb = 0, cr = 0;
            for (int k = 0; k < 4; k++) {
                const double *p = rgb[2 * j + (k >> 1)][2 * i + (k & 1)];
                double yy = kr * p[0] + kg * p[1] + kb * p[2];
                cb += (p[2] - yy) / (2 * (1 - kb)) / 4;
                cr += (p[0] - yy) / (2 * (1 - kr)) / 4;
            }
            u[j][i] = clip8(128 + 224 * cb);
            v[j][i] = clip8(128 + 224 * cr);
        }
    for (int f = 0; f < frames; f++) {
        fwrite(y, 1, sizeof(y), stdout);
        fwrite(u, 1, sizeof(u), stdout);
        fwrite(v, 1, sizeof(v), stdout);
    }
    return 0;
}
