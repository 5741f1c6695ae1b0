/*
 * cspfix: compares two renderings of the same picture (tools/dovi-vs-libplacebo.sh)
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
 * Usage: dovi_compare [-m MASK.gbrp16le] [-w WHITE] [-k BLACK] [-K BLACK_B] pq|sdr W H A B
 *        dovi_compare pattern OUT.gbrp16le
 *
 * pattern writes the HDR test pattern of hdr_pattern.h (the picture in
 * build/hdr-demo/dovi-profile5.mkv) exactly: BT.2020 PQ gbrp16le, 640x360, full range.
 *
 * A and B are one frame each of planar 16-bit full-range RGB (FFmpeg's gbrp16le:
 * G, B, R planes).
 *   pq:  BT.2020 primaries, PQ (SMPTE ST 2084): the per-pixel largest difference of
 *        the three components in 10-bit PQ codes (16-bit codes * 1023 / 65535), and
 *        dE_ITP of the absolute light the codes say.
 *   sdr: BT.709 primaries, shown on a BT.1886 display (Annex 1: L = a max(V + b, 0)^2.4)
 *        with white WHITE cd/m2 (default 203, the BT.2408 reference white both cspfix
 *        and libplacebo map SDR white to) and black BLACK (default 0: a pure 2.4
 *        power, cspfix's model; libplacebo encodes for WHITE/1000; -K: B on a display
 *        of another black): dE_ITP, and the largest component difference in 8-bit
 *        codes for scale.
 * dE_ITP is ITU-R BT.2124: linear BT.2020 RGB in cd/m2 -> LMS (BT.2100) -> PQ ->
 * ICtCp, dE = 720 sqrt(dI^2 + (0.5 dCt)^2 + dCp^2); 1 is about a just noticeable
 * difference.
 * The pixels are split in "flat" and "edge": a pixel is flat when, in MASK (default
 * A), no component steps by more than 256 16-bit codes (four 10-bit codes) from a
 * pixel to its right or lower neighbour anywhere in the 10x10 window of the 5x5
 * 4:2:0 chroma samples around the pixel's own (so smooth ramps are flat). Chroma
 * upsampling, and reshaping chroma at 4:2:0 against the 2x2 luma mean instead of
 * after upsampling, change only edge pixels. Flat pixels are also reported without
 * those with a component below 1 cd/m2 in A or B (whose codes PQ spreads far apart:
 * 0.001 cd/m2 is 15 10-bit codes above 0, 0.01 is 51).
 * Each line: mean, 95th and 99th percentile, max, and the share within 1 (code or
 * dE_ITP); the last line "max10 ..." / "p95de ..." is for scripts.
 */

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hdr_pattern.h"

static int w, h;

#define STEP 256 /* 16-bit codes: four 10-bit codes */

static uint16_t *load(const char *name)
{
    size_t n = (size_t)w * h * 3;
    uint16_t *p = malloc(n * 2);
    uint8_t *b = malloc(n * 2);
    FILE *f = fopen(name, "rb");
    if (!p || !b || !f || fread(b, 2, n, f) != n) {
        fprintf(stderr, "dovi_compare: cannot read %zu bytes of %s\n", n * 2, name);
        exit(1);
    }
    fclose(f);
    for (size_t i = 0; i < n; i++)
        p[i] = b[2 * i] | b[2 * i + 1] << 8;
    free(b);
    return p;
}

/* component c (0 R, 1 G, 2 B) of pixel i; gbrp planes are G, B, R */
static inline int px(const uint16_t *p, int c, size_t i)
{
    static const int plane[3] = { 2, 0, 1 };
    return p[(size_t)plane[c] * w * h + i];
}

static double pq_eotf(double e) /* E' -> cd/m2 */
{
    const double m1 = 2610.0 / 16384, m2 = 2523.0 / 4096 * 128;
    const double c1 = 3424.0 / 4096, c2 = 2413.0 / 4096 * 32, c3 = 2392.0 / 4096 * 32;
    double p = pow(e > 0 ? e : 0, 1 / m2);
    double d = c2 - c3 * p;
    return 10000 * pow(fmax(p - c1, 0) / d, 1 / m1);
}

static double pq_oetf(double l) /* cd/m2 -> E' */
{
    const double m1 = 2610.0 / 16384, m2 = 2523.0 / 4096 * 128;
    const double c1 = 3424.0 / 4096, c2 = 2413.0 / 4096 * 32, c3 = 2392.0 / 4096 * 32;
    double y = pow(fmax(l, 0) / 10000, m1);
    return pow((c1 + c2 * y) / (1 + c3 * y), m2);
}

/* linear BT.2020 RGB in cd/m2 -> I, T = 0.5 Ct, P = Cp */
static void itp(const double rgb[3], double out[3])
{
    double l = (1688 * rgb[0] + 2146 * rgb[1] +  262 * rgb[2]) / 4096;
    double m = ( 683 * rgb[0] + 2951 * rgb[1] +  462 * rgb[2]) / 4096;
    double s = (  99 * rgb[0] +  309 * rgb[1] + 3688 * rgb[2]) / 4096;
    l = pq_oetf(l), m = pq_oetf(m), s = pq_oetf(s);
    out[0] = 0.5 * l + 0.5 * m;
    out[1] = 0.5 * (6610 * l - 13613 * m + 7003 * s) / 4096;
    out[2] = (17933 * l - 17390 * m - 543 * s) / 4096;
}

static int sdr;
static double sdr_white = 203, sdr_black[2], lut[2][65536];

static void light(const uint16_t *p, const double *lt, size_t i, double rgb[3])
{
    /* BT.709 -> BT.2020 (ITU-R BT.2087) */
    static const double m[3][3] = {
        { 0.627403895934699, 0.329283038377884, 0.043313065687417 },
        { 0.069097289358232, 0.919540395075459, 0.011362315566309 },
        { 0.016391438875150, 0.088013307877226, 0.895595253247624 },
    };
    double v[3];
    for (int c = 0; c < 3; c++)
        v[c] = lt[px(p, c, i)];
    if (!sdr) {
        memcpy(rgb, v, sizeof(v));
        return;
    }
    for (int r = 0; r < 3; r++)
        rgb[r] = m[r][0] * v[0] + m[r][1] * v[1] + m[r][2] * v[2];
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* prints one line of statistics of v[0..n) (sorted in place) */
static double stats(const char *what, const char *unit, double *v, size_t n, double one)
{
    double sum = 0, within = 0;
    if (!n) {
        printf("  %-29s no pixels\n", what);
        return 0;
    }
    qsort(v, n, sizeof(*v), cmp);
    for (size_t i = 0; i < n; i++) {
        sum += v[i];
        within += v[i] <= one;
    }
    printf("  %-29s %6zu px  mean %7.4f  p95 %7.4f  p99 %7.4f  max %7.4f %s",
           what, n, sum / n, v[n * 95 / 100], v[n * 99 / 100], v[n - 1], unit);
    if (one > 0)
        printf("  (%.2f %% within %g)", 100 * within / n, one);
    printf("\n");
    return v[n * 95 / 100];
}

static int write_pattern(const char *name)
{
    static PatternLight lin;
    static uint8_t buf[3][PATTERN_H][PATTERN_W][2];
    static const int plane[3] = { 2, 0, 1 };   /* R, G, B -> gbrp planes */
    FILE *f = fopen(name, "wb");
    if (!f)
        return 1;
    pattern_draw(lin);
    for (int y = 0; y < PATTERN_H; y++)
        for (int x = 0; x < PATTERN_W; x++)
            for (int c = 0; c < 3; c++) {
                int v = (int)lrint(pq(lin[y][x][c]) * 65535);
                buf[plane[c]][y][x][0] = v & 255;
                buf[plane[c]][y][x][1] = v >> 8;
            }
    if (fwrite(buf, sizeof(buf), 1, f) != 1 || fclose(f))
        return 1;
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 3 && !strcmp(argv[1], "pattern"))
        return write_pattern(argv[2]);

    const char *mask = NULL;
    int opt, black_b = 0;
    while ((opt = getopt(argc, argv, "m:w:k:K:")) != -1) {
        if (opt == 'm')
            mask = optarg;
        else if (opt == 'w')
            sdr_white = atof(optarg);
        else if (opt == 'k')
            sdr_black[0] = atof(optarg);
        else if (opt == 'K')
            sdr_black[1] = atof(optarg), black_b = 1;
        else
            return 2;
    }
    argv += optind, argc -= optind;
    if (!black_b)
        sdr_black[1] = sdr_black[0];
    if (argc != 5 || (strcmp(argv[0], "pq") && strcmp(argv[0], "sdr")) || sdr_white <= 0 ||
        fmin(sdr_black[0], sdr_black[1]) < 0 || fmax(sdr_black[0], sdr_black[1]) >= sdr_white) {
        fprintf(stderr, "usage: dovi_compare [-m MASK.gbrp16le] [-w WHITE] [-k BLACK] "
                "[-K BLACK_B] pq|sdr W H A.gbrp16le B.gbrp16le\n");
        return 2;
    }
    sdr = !strcmp(argv[0], "sdr");
    w = atoi(argv[1]), h = atoi(argv[2]);
    if (w < 2 || h < 2)
        return 2;
    uint16_t *a = load(argv[3]), *b = load(argv[4]);
    uint16_t *mk = mask ? load(mask) : a;
    /* BT.1886 Annex 1 */
    for (int k = 0; k < 2; k++) {
        double gw = pow(sdr_white, 1 / 2.4), gb = pow(sdr_black[k], 1 / 2.4);
        double ka = pow(gw - gb, 2.4), kb = gb / (gw - gb);
        for (int i = 0; i < 65536; i++)
            lut[k][i] = sdr ? ka * pow(i / 65535.0 + kb, 2.4) : pq_eotf(i / 65535.0);
    }

    size_t n = (size_t)w * h, nf = 0, nb = 0, ne = 0;
    double *de[4], *cd[4];
    for (int k = 0; k < 4; k++) {
        de[k] = malloc(n * sizeof(double));
        cd[k] = malloc(n * sizeof(double));
    }
    const double code = sdr ? 255.0 / 65535 : 1023.0 / 65535;
    /* steps of MASK: a component changing by more than STEP to the next pixel on the
     * right or below; sat: their summed-area table */
    uint32_t *sat = calloc((size_t)(w + 1) * (h + 1), sizeof(*sat));
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            size_t i = (size_t)y * w + x;
            int st = 0;
            for (int c = 0; c < 3; c++) {
                if (x + 1 < w && abs(px(mk, c, i + 1) - px(mk, c, i)) > STEP)
                    st = 1;
                if (y + 1 < h && abs(px(mk, c, i + w) - px(mk, c, i)) > STEP)
                    st = 1;
            }
            sat[(size_t)(y + 1) * (w + 1) + x + 1] = st + sat[(size_t)y * (w + 1) + x + 1] +
                sat[(size_t)(y + 1) * (w + 1) + x] - sat[(size_t)y * (w + 1) + x];
        }
    double maxcomp[3] = { 0 };
    for (int y = 0; y < h; y++) {
        for (int x = 0; x < w; x++) {
            size_t i = (size_t)y * w + x;
            /* flat: no step in the 10x10 window of the chroma samples cx-2..cx+2,
             * cy-2..cy+2 */
            int x0 = (x / 2 - 2) * 2, y0 = (y / 2 - 2) * 2, x1 = x0 + 10, y1 = y0 + 10;
            x0 = x0 < 0 ? 0 : x0, y0 = y0 < 0 ? 0 : y0;
            x1 = x1 > w ? w : x1, y1 = y1 > h ? h : y1;
            int flat = !(sat[(size_t)y1 * (w + 1) + x1] - sat[(size_t)y0 * (w + 1) + x1] -
                         sat[(size_t)y1 * (w + 1) + x0] + sat[(size_t)y0 * (w + 1) + x0]);
            double la[3], lb[3], ia[3], ib[3], d = 0;
            light(a, lut[0], i, la);
            light(b, lut[1], i, lb);
            itp(la, ia);
            itp(lb, ib);
            double e = 720 * sqrt((ia[0] - ib[0]) * (ia[0] - ib[0]) +
                                  (ia[1] - ib[1]) * (ia[1] - ib[1]) +
                                  (ia[2] - ib[2]) * (ia[2] - ib[2]));
            for (int c = 0; c < 3; c++) {
                double dc = abs(px(a, c, i) - px(b, c, i)) * code;
                maxcomp[c] = fmax(maxcomp[c], dc);
                d = fmax(d, dc);
            }
            /* every pixel goes to [0]; [1] flat, [2] flat with every component of
             * both at 1 cd/m2 or more, [3] edge */
            int bright = 1;
            for (int c = 0; c < 3; c++)
                bright &= lut[0][px(a, c, i)] >= 1 && lut[1][px(b, c, i)] >= 1;
            de[0][i] = e, cd[0][i] = d;
            if (flat) {
                de[1][nf] = e, cd[1][nf++] = d;
                if (bright)
                    de[2][nb] = e, cd[2][nb++] = d;
            } else {
                de[3][ne] = e, cd[3][ne++] = d;
            }
        }
    }
    static const char *part[4] = { "all", "flat", "flat, components >= 1 cd/m2", "edge" };
    double p95[4], worst = 0;
    size_t cnt[4] = { n, nf, nb, ne };
    if (!sdr) {
        printf(" largest component difference, 10-bit PQ codes (R %.3f, G %.3f, B %.3f at most):\n",
               maxcomp[0], maxcomp[1], maxcomp[2]);
        for (int k = 0; k < 4; k++)
            stats(part[k], "codes", cd[k], cnt[k], 1.0);
        worst = cd[0][n - 1];
    } else {
        printf(" largest component difference, 8-bit codes (display: BT.1886, white %g, black %g",
               sdr_white, sdr_black[0]);
        if (sdr_black[1] != sdr_black[0])
            printf(" for A, %g for B", sdr_black[1]);
        printf(" cd/m2):\n");
        for (int k = 0; k < 4; k++)
            stats(part[k], "codes", cd[k], cnt[k], 1.0);
    }
    printf(" dE_ITP (BT.2124)%s:\n",
           sdr ? "" : ", of the absolute PQ light");
    for (int k = 0; k < 4; k++)
        p95[k] = stats(part[k], "", de[k], cnt[k], 1.0);
    if (!sdr)
        printf("max10 %.4f p95de %.4f p95de_flat %.4f\n", worst, p95[0], p95[1]);
    else
        printf("p95de %.4f p95de_flat %.4f\n", p95[0], p95[1]);
    return 0;
}
