/*
 * cspfix HDR demo: the HDR test pattern in linear light, shared by the generators
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
 * The 640x360 HDR test pattern as linear BT.2020 RGB in cd/m2, and the PQ (SMPTE ST 2084)
 * curves, for tools/hdr_pattern.c (HDR10 Y'CbCr) and tools/hdr_clip.c (a Dolby Vision
 * profile 5 base layer of the same picture). Rows: a grey ramp uniform in PQ from 0 to
 * 10000 cd/m2 with tick marks at 100, 203, 1000 and 4000 cd/m2; six BT.709 colours and six
 * BT.2020 primaries/secondaries at 100, 400, 1000 and 4000 cd/m2 peaks; skin tones around
 * reference white with specular highlights; a saturated hue sweep at 1000 cd/m2.
 */

#ifndef CSPFIX_TOOLS_HDR_PATTERN_H
#define CSPFIX_TOOLS_HDR_PATTERN_H

#include <math.h>

#define PATTERN_W 640
#define PATTERN_H 360

typedef double PatternLight[PATTERN_H][PATTERN_W][3];

static void pattern_fill(PatternLight lin, int x0, int y0, int x1, int y1,
                         double r, double g, double b)
{
    for (int y = y0; y < y1 && y < PATTERN_H; y++)
        for (int x = x0; x < x1 && x < PATTERN_W; x++) {
            lin[y][x][0] = r;
            lin[y][x][1] = g;
            lin[y][x][2] = b;
        }
}

/* ST 2084 inverse EOTF, cd/m2 -> signal */
static double pq(double l)
{
    const double m1 = 2610.0 / 16384, m2 = 2523.0 / 4096 * 128;
    const double c1 = 3424.0 / 4096, c2 = 2413.0 / 4096 * 32, c3 = 2392.0 / 4096 * 32;
    double p = pow(fmax(l, 0.0) / 10000.0, m1);
    return pow((c1 + c2 * p) / (1.0 + c3 * p), m2);
}

/* ST 2084 EOTF, signal -> cd/m2 */
static double pq_inv(double e)
{
    const double m1 = 2610.0 / 16384, m2 = 2523.0 / 4096 * 128;
    const double c1 = 3424.0 / 4096, c2 = 2413.0 / 4096 * 32, c3 = 2392.0 / 4096 * 32;
    double p = pow(e, 1.0 / m2);
    return 10000.0 * pow(fmax(p - c1, 0.0) / (c2 - c3 * p), 1.0 / m1);
}

/* BT.709 RGB -> BT.2020 RGB (BT.2087) */
static void from709(double c[3], double r, double g, double b)
{
    c[0] = 0.6274 * r + 0.3293 * g + 0.0433 * b;
    c[1] = 0.0691 * r + 0.9195 * g + 0.0114 * b;
    c[2] = 0.0164 * r + 0.0880 * g + 0.8956 * b;
}

/* Draws the pattern into lin: linear BT.2020 RGB, cd/m2. */
static void pattern_draw(PatternLight lin)
{
    static const double col709[6][3] = {
        { 1, 0, 0 }, { 0, 1, 0 }, { 0, 0, 1 }, { 0, 1, 1 }, { 1, 0, 1 }, { 1, 1, 0 },
    };
    static const double skin[4][3] = {   /* BT.709 linear, relative */
        { 0.42, 0.26, 0.19 }, { 0.62, 0.42, 0.33 }, { 0.74, 0.53, 0.43 }, { 0.25, 0.13, 0.07 },
    };
    static const double peaks[4] = { 100, 400, 1000, 4000 };
    const int W = PATTERN_W, H = PATTERN_H;

    pattern_fill(lin, 0, 0, W, H, 5, 5, 5);
    /* grey ramp, uniform in PQ, with ticks */
    for (int x = 0; x < W; x++) {
        double l = pq_inv(x / (W - 1.0));
        pattern_fill(lin, x, 0, x + 1, 40, l, l, l);
    }
    for (int i = 0; i < 4; i++) {
        static const double ticks[4] = { 100, 203, 1000, 4000 };
        int x = (int)floor(pq(ticks[i]) * (W - 1) + 0.5);
        pattern_fill(lin, x, 40, x + 2, 48, 203, 203, 203);
    }
    /* colour patches: rows = peaks, 6 BT.709 colours then 6 BT.2020 colours */
    for (int r = 0; r < 4; r++)
        for (int i = 0; i < 12; i++) {
            double c[3];
            if (i < 6)
                from709(c, col709[i][0], col709[i][1], col709[i][2]);
            else
                c[0] = col709[i - 6][0], c[1] = col709[i - 6][1], c[2] = col709[i - 6][2];
            pattern_fill(lin, i * 53 + 2, 52 + r * 38, i * 53 + 51, 52 + r * 38 + 36,
                         c[0] * peaks[r], c[1] * peaks[r], c[2] * peaks[r]);
        }
    /* skin tones at reference white (203 cd/m2 = 1.0) with specular highlights */
    for (int i = 0; i < 4; i++) {
        double c[3];
        from709(c, skin[i][0] * 203, skin[i][1] * 203, skin[i][2] * 203);
        pattern_fill(lin, i * 160, 206, i * 160 + 160, 290, c[0], c[1], c[2]);
        pattern_fill(lin, i * 160 + 60, 230, i * 160 + 100, 250, 1000, 1000, 1000);
        pattern_fill(lin, i * 160 + 110, 230, i * 160 + 140, 250, 4000, 3800, 3400);
    }
    /* hue sweep at 1000 cd/m2 peak, fully saturated BT.2020, fading to grey downward */
    for (int x = 0; x < W; x++) {
        double h = 6.0 * x / W, c[3];
        int k = (int)h;
        double f = h - k, t[3];
        static const int seq[6][3] = { {0,1,2}, {1,0,2}, {1,2,0}, {2,1,0}, {2,0,1}, {0,2,1} };
        t[seq[k][0]] = 1.0;
        t[seq[k][1]] = k & 1 ? 1.0 - f : f;
        t[seq[k][2]] = 0.0;
        for (int yy = 294; yy < H; yy++) {
            double s = 1.0 - (yy - 294) / (double)(H - 294);
            for (int i = 0; i < 3; i++)
                c[i] = 1000.0 * (1.0 - s + s * t[i]);
            pattern_fill(lin, x, yy, x + 1, yy + 1, c[0], c[1], c[2]);
        }
    }
}

static uint16_t pattern_code10(double v)
{
    v = floor(v + 0.5);
    return v < 0 ? 0 : v > 1023 ? 1023 : (uint16_t)v;
}

/* The pattern as BT.2020 PQ Y'CbCr 4:2:0, 10-bit limited range (chroma: the mean of the
 * Cb and Cr of its 2x2 block) */
static void pattern_ycbcr(PatternLight lin, uint16_t y[PATTERN_H][PATTERN_W],
                          uint16_t u[PATTERN_H / 2][PATTERN_W / 2],
                          uint16_t v[PATTERN_H / 2][PATTERN_W / 2])
{
    const double kr = 0.2627, kb = 0.0593, kg = 1.0 - kr - kb;

    for (int j = 0; j < PATTERN_H; j++)
        for (int i = 0; i < PATTERN_W; i++) {
            const double *p = lin[j][i];
            double e[3] = { pq(p[0]), pq(p[1]), pq(p[2]) };
            y[j][i] = pattern_code10(64 + 876 * (kr * e[0] + kg * e[1] + kb * e[2]));
        }
    for (int j = 0; j < PATTERN_H / 2; j++)
        for (int i = 0; i < PATTERN_W / 2; i++) {
            double cb = 0, cr = 0;
            for (int k = 0; k < 4; k++) {
                const double *p = lin[2 * j + (k >> 1)][2 * i + (k & 1)];
                double e[3] = { pq(p[0]), pq(p[1]), pq(p[2]) };
                double yy = kr * e[0] + kg * e[1] + kb * e[2];
                cb += (e[2] - yy) / (2 * (1 - kb)) / 4;
                cr += (e[0] - yy) / (2 * (1 - kr)) / 4;
            }
            u[j][i] = pattern_code10(512 + 896 * cb);
            v[j][i] = pattern_code10(512 + 896 * cr);
        }
}

#endif /* CSPFIX_TOOLS_HDR_PATTERN_H */
