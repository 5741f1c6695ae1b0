/*
 * cspfix precision test: the filter against the float64 reference model
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

/*
 * Drives cspfix through the libavfilter API on exhaustive / dense inputs and
 * compares every in-gamut output sample with the unrounded reference value:
 * no sample may be 1 code or more away, and at least 99.9 % (8/10-bit output)
 * or 99.5 % (12-bit and more) must be exactly the correctly rounded value.
 * Usage: cspfix_precision [-v] [name-substring]
 * The integer rows run on as many worker threads as the machine has cores (at most 4;
 * CSPFIX_PRECISION_JOBS=N sets it), each row's filter with one thread; the table is
 * printed in its order once all rows are done.
 */

#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libavutil/common.h>
#include <libavutil/cpu.h>
#include <libavutil/intreadwrite.h>
#include <libavutil/pixdesc.h>
#include <libavutil/pixfmt.h>

#include "cspfix_refmodel.h"
#include "cspfix_testutil.h"

enum Source {
    SRC_ALL8,       ///< every 8-bit triple, 4:4:4, 4096x4096
    SRC_GRID10,     ///< 10-bit triples on a dense grid, 4:4:4
    SRC_BLOCKS420,  ///< 16x16 flat blocks in 4:2:0, interiors compared
    SRC_GRID10S,    ///< 10-bit triples on a 128^3 grid (every residue mod 8), 4:4:4
    SRC_ALL8SUB,    ///< every 8-bit triple, chroma subsampled (4:2:0, 4:2:2): 20x20 luma blocks
                    ///< of one chroma value, the 256 luma codes in their 16x16 interiors
    SRC_GRID10SUB,  ///< as SRC_ALL8SUB at 10 bits: chroma on the grid10() levels, and the
                    ///< interiors' 256 luma codes 4 i + r, r = (bx + by) % 4: all 1024 codes
    SRC_EDGES10,    ///< 10-bit RGB primaries and secondaries at every level: row r has the
                    ///< components of bit mask r + 1 at code x (1024 x 6), the rest at 0
    SRC_GRIDN,      ///< 256 levels a component over the input depth's codes, i (2^n - 1) / 255
                    ///< (0 and the maximum, every residue mod 2; every 8-bit triple at 8 bits),
                    ///< 4:4:4, 4096x4096. A YCgCo-R input: the levels of its N-bit RGB, lifted
                    ///< by the model (every code triple a lifting makes, at N = 8)
};

/* SRC_ALL8SUB: the block size, and the interior's offset in the block */
#define SUB_BLOCK 20
#define SUB_OFF   2

typedef struct Conv {
    const char *name;
    enum Source src;
    enum AVPixelFormat in_fmt, out_fmt;
    RefDesc in, out;
    int linearize;
    double max_bound;   ///< 0: the standard bound (< 1 LSB); else a documented exception
    int tonemap, gamut; ///< RefTonemap, RefGamut (0: the filter's defaults)
    double peak, target_peak, desat;
    double min_exact;   ///< 0: the standard 99.9 % (99.5 % at 12 bit)
    int all_samples;    ///< count out-of-gamut samples too (their reference is clamped)
} Conv;

#define D(p, t, m, r, d) { AVCOL_PRI_ ## p, AVCOL_TRC_ ## t, AVCOL_SPC_ ## m, AVCOL_RANGE_ ## r, d }
/* primaries and transfers FFmpeg has no value for (opRGB, the DCI-P3 projector's 2.6): the
 * model's own values, handed to the filter by name (prim_name(), trc_name()) and, on the
 * input side, as the iprimaries/itrc overrides of an unspecified tag */
#define DX(p, t, m, r, d) { p, t, AVCOL_SPC_ ## m, AVCOL_RANGE_ ## r, d }

static const Conv convs[] = {
    { "smpte170m->bt709 (full chain)", SRC_ALL8, AV_PIX_FMT_YUV444P, AV_PIX_FMT_YUV444P,
      D(SMPTE170M, SMPTE170M, SMPTE170M, MPEG, 8), D(BT709, BT709, BT709, MPEG, 8), 0 },
    { "smpte170m->bt709 scene-linear", SRC_ALL8, AV_PIX_FMT_YUV444P, AV_PIX_FMT_YUV444P,
      D(SMPTE170M, SMPTE170M, SMPTE170M, MPEG, 8), D(BT709, BT709, BT709, MPEG, 8), 1 },
    { "smpte170m->bt709 4:2:0 blocks", SRC_BLOCKS420, AV_PIX_FMT_YUV420P, AV_PIX_FMT_YUV420P,
      D(SMPTE170M, SMPTE170M, SMPTE170M, MPEG, 8), D(BT709, BT709, BT709, MPEG, 8), 0 },
    { "matrix bt470bg->bt709", SRC_ALL8, AV_PIX_FMT_YUV444P, AV_PIX_FMT_YUV444P,
      D(BT709, BT709, BT470BG, MPEG, 8), D(BT709, BT709, BT709, MPEG, 8), 0 },
    /* matrix-only 8-bit conversions with subsampled chroma (the integer path) */
    { "matrix smpte170m->bt709 4:2:0", SRC_ALL8SUB, AV_PIX_FMT_YUV420P, AV_PIX_FMT_YUV420P,
      D(BT709, BT709, SMPTE170M, MPEG, 8), D(BT709, BT709, BT709, MPEG, 8), 0 },
    { "matrix bt709->bt2020nc 4:2:2", SRC_ALL8SUB, AV_PIX_FMT_YUV422P, AV_PIX_FMT_YUV422P,
      D(BT709, BT709, BT709, MPEG, 8), D(BT709, BT709, BT2020_NCL, MPEG, 8), 0 },
    { "matrix+range pc->tv 601 4:2:0", SRC_ALL8SUB, AV_PIX_FMT_YUV420P, AV_PIX_FMT_YUV420P,
      D(BT709, BT709, BT709, JPEG, 8), D(BT709, BT709, BT470BG, MPEG, 8), 0 },
    /* matrix-only 10-bit with subsampled chroma (the integer path at 10 bits) */
    { "matrix smpte170m->bt709 4:2:0 10-bit", SRC_GRID10SUB, AV_PIX_FMT_YUV420P10, AV_PIX_FMT_YUV420P10,
      D(BT709, BT709, SMPTE170M, MPEG, 10), D(BT709, BT709, BT709, MPEG, 10), 0 },
    { "matrix bt709->bt2020nc 4:2:2 10-bit", SRC_GRID10SUB, AV_PIX_FMT_YUV422P10, AV_PIX_FMT_YUV422P10,
      D(BT709, BT709, BT709, MPEG, 10), D(BT709, BT709, BT2020_NCL, MPEG, 10), 0 },
    { "range pc->tv", SRC_ALL8, AV_PIX_FMT_YUV444P, AV_PIX_FMT_YUV444P,
      D(BT709, BT709, BT709, JPEG, 8), D(BT709, BT709, BT709, MPEG, 8), 0 },
    { "transfer iec61966-2-1->bt709", SRC_ALL8, AV_PIX_FMT_YUV444P, AV_PIX_FMT_YUV444P,
      D(BT709, IEC61966_2_1, BT709, MPEG, 8), D(BT709, BT709, BT709, MPEG, 8), 0 },
    { "bt709 8-bit->bt2020 10-bit", SRC_ALL8, AV_PIX_FMT_YUV444P, AV_PIX_FMT_YUV444P10,
      D(BT709, BT709, BT709, MPEG, 8), D(BT2020, BT2020_10, BT2020_NCL, MPEG, 10), 0 },
    { "bt709 8-bit->bt2020 12-bit", SRC_ALL8, AV_PIX_FMT_YUV444P, AV_PIX_FMT_YUV444P12,
      D(BT709, BT709, BT709, MPEG, 8), D(BT2020, BT2020_12, BT2020_NCL, MPEG, 12), 0 },
    { "bt2020 10-bit->bt709 8-bit", SRC_GRID10, AV_PIX_FMT_YUV444P10, AV_PIX_FMT_YUV444P,
      D(BT2020, BT2020_10, BT2020_NCL, MPEG, 10), D(BT709, BT709, BT709, MPEG, 8), 0 },
    { "PQ bt2020->PQ smpte432", SRC_GRID10, AV_PIX_FMT_YUV444P10, AV_PIX_FMT_YUV444P10,
      D(BT2020, SMPTE2084, BT2020_NCL, MPEG, 10), D(SMPTE432, SMPTE2084, BT2020_NCL, MPEG, 10), 0 },
    { "HLG->PQ bt2020", SRC_GRID10, AV_PIX_FMT_YUV444P10, AV_PIX_FMT_YUV444P10,
      D(BT2020, ARIB_STD_B67, BT2020_NCL, MPEG, 10), D(BT2020, SMPTE2084, BT2020_NCL, MPEG, 10), 0 },
    { "bt2020c->bt2020nc", SRC_GRID10, AV_PIX_FMT_YUV444P10, AV_PIX_FMT_YUV444P10,
      D(BT2020, BT2020_10, BT2020_CL, MPEG, 10), D(BT2020, BT2020_10, BT2020_NCL, MPEG, 10), 0 },
    /* Known limitation: LMS -> RGB cancels in float32 next to black, where PQ is steepest
     * (doc/design.md); bounded here so that a regression still fails. The worst sample
     * moves with the float32 rounding of the chain: 1.37 LSB with separate multiplies and
     * adds, 2.28 with fused multiply-adds (same mean, 0.207 LSB). */
    { "ictcp PQ->bt2020nc PQ", SRC_GRID10, AV_PIX_FMT_YUV444P10, AV_PIX_FMT_YUV444P10,
      D(BT2020, SMPTE2084, ICTCP, MPEG, 10), D(BT2020, SMPTE2084, BT2020_NCL, MPEG, 10), 0, 2.5 },
    /* IPT-C2 (H.273, SMPTE ST 2128) and ST 2085's Y'D'zD'x on PQ-coded CIE XYZ, both ways.
     * IPT-C2 in has ictcp's known limitation, larger: its LMS -> RGB matrix (3.24 L - 2.32 M
     * ...) cancels more, and an error of 4e-9 of PQ's peak next to black is a 10-bit code;
     * 4.67 LSB at worst, mean 0.227 LSB (ictcp: 0.207) */
    { "ipt-c2 PQ->bt2020nc PQ", SRC_GRID10, AV_PIX_FMT_YUV444P10, AV_PIX_FMT_YUV444P10,
      D(BT2020, SMPTE2084, IPT_C2, MPEG, 10), D(BT2020, SMPTE2084, BT2020_NCL, MPEG, 10), 0, 5.0 },
    { "bt2020nc PQ->ipt-c2 PQ", SRC_GRID10, AV_PIX_FMT_YUV444P10, AV_PIX_FMT_YUV444P10,
      D(BT2020, SMPTE2084, BT2020_NCL, MPEG, 10), D(BT2020, SMPTE2084, IPT_C2, MPEG, 10), 0 },
    { "smpte2085 XYZ PQ->bt2020nc PQ", SRC_GRID10, AV_PIX_FMT_YUV444P10, AV_PIX_FMT_YUV444P10,
      DX(REF_PRI_XYZ_D65, AVCOL_TRC_SMPTE2084, SMPTE2085, MPEG, 10), D(BT2020, SMPTE2084, BT2020_NCL, MPEG, 10), 0 },
    { "bt2020nc PQ->smpte2085 XYZ PQ", SRC_GRID10, AV_PIX_FMT_YUV444P10, AV_PIX_FMT_YUV444P10,
      D(BT2020, SMPTE2084, BT2020_NCL, MPEG, 10), DX(REF_PRI_XYZ_D65, AVCOL_TRC_SMPTE2084, SMPTE2085, MPEG, 10), 0 },
    { "gbrp sRGB->bt709 Y'CbCr", SRC_ALL8, AV_PIX_FMT_GBRP, AV_PIX_FMT_YUV444P,
      D(BT709, IEC61966_2_1, RGB, JPEG, 8), D(BT709, BT709, BT709, MPEG, 8), 0 },
    { "bt709 Y'CbCr->gbrp10 sRGB", SRC_ALL8, AV_PIX_FMT_YUV444P, AV_PIX_FMT_GBRP10,
      D(BT709, BT709, BT709, MPEG, 8), D(BT709, IEC61966_2_1, RGB, JPEG, 10), 0 },
    /* HDR: tone and gamut mapping (doc/conversion-model.md section 4); bounds 1 LSB at 8 bit,
     * 2 LSB at 10 bit */
#define PQ2020 D(BT2020, SMPTE2084, BT2020_NCL, MPEG, 10)
#define HLG2020 D(BT2020, ARIB_STD_B67, BT2020_NCL, MPEG, 10)
#define SDR709_8 D(BT709, BT709, BT709, MPEG, 8)
#define SDR709_10 D(BT709, BT709, BT709, MPEG, 10)
    { "PQ->SDR bt2390 (default)", SRC_GRID10S, AV_PIX_FMT_YUV444P10, AV_PIX_FMT_YUV444P,
      PQ2020, SDR709_8, 0, 1.0, REF_TM_AUTO, 0, 1000 },
    { "PQ->SDR bt2390 10-bit", SRC_GRID10S, AV_PIX_FMT_YUV444P10, AV_PIX_FMT_YUV444P10,
      PQ2020, SDR709_10, 0, 2.0, REF_TM_BT2390, 0, 1000 },
    { "PQ->SDR clip", SRC_GRID10S, AV_PIX_FMT_YUV444P10, AV_PIX_FMT_YUV444P,
      PQ2020, SDR709_8, 0, 1.0, REF_TM_CLIP, 0, 1000 },
    { "PQ->SDR reinhard peak 4000", SRC_GRID10S, AV_PIX_FMT_YUV444P10, AV_PIX_FMT_YUV444P,
      PQ2020, SDR709_8, 0, 1.0, REF_TM_REINHARD, 0, 4000 },
    { "PQ->SDR hable", SRC_GRID10S, AV_PIX_FMT_YUV444P10, AV_PIX_FMT_YUV444P,
      PQ2020, SDR709_8, 0, 1.0, REF_TM_HABLE, 0, 1000 },
    { "PQ->SDR mobius", SRC_GRID10S, AV_PIX_FMT_YUV444P10, AV_PIX_FMT_YUV444P,
      PQ2020, SDR709_8, 0, 1.0, REF_TM_MOBIUS, 0, 1000 },
    { "PQ->SDR none target 203", SRC_GRID10S, AV_PIX_FMT_YUV444P10, AV_PIX_FMT_YUV444P,
      PQ2020, SDR709_8, 0, 1.0, REF_TM_NONE, 0, 1000, 203 },
    { "PQ->SDR bt2390 desat 0.5 compress", SRC_GRID10S, AV_PIX_FMT_YUV444P10, AV_PIX_FMT_YUV444P,
      PQ2020, SDR709_8, 0, 1.0, REF_TM_BT2390, REF_GAMUT_COMPRESS, 1000, 0, 0.5 },
    { "PQ->SDR bt2390 gamut desaturate", SRC_GRID10S, AV_PIX_FMT_YUV444P10, AV_PIX_FMT_YUV444P,
      PQ2020, SDR709_8, 0, 1.0, REF_TM_BT2390, REF_GAMUT_DESATURATE, 1000 },
    { "HLG->SDR bt2390", SRC_GRID10S, AV_PIX_FMT_YUV444P10, AV_PIX_FMT_YUV444P,
      HLG2020, SDR709_8, 0, 1.0, REF_TM_AUTO, 0, 1000 },
    { "HLG->SDR bt2390 10-bit", SRC_GRID10S, AV_PIX_FMT_YUV444P10, AV_PIX_FMT_YUV444P10,
      HLG2020, SDR709_10, 0, 2.0, REF_TM_AUTO, 0, 1000 },
    { "HLG 2000 cd/m2 ->PQ", SRC_GRID10S, AV_PIX_FMT_YUV444P10, AV_PIX_FMT_YUV444P10,
      HLG2020, PQ2020, 0, 2.0, REF_TM_AUTO, 0, 2000 },
    { "SDR->PQ white at 300 cd/m2", SRC_GRID10S, AV_PIX_FMT_YUV444P10, AV_PIX_FMT_YUV444P10,
      SDR709_10, PQ2020, 0, 2.0, REF_TM_AUTO, 0, 0, 300 },
    /* P3-D65 primaries and secondaries carried in BT.2020 (the usual HDR mastering case):
     * P3 red and magenta have a slightly negative BT.2020 blue, which PQ and HLG encode as
     * black (ST 2084 and BT.2100 define them for non-negative light only) */
    { "P3 edges in BT.2020 PQ", SRC_EDGES10, AV_PIX_FMT_GBRP10, AV_PIX_FMT_YUV444P10,
      D(SMPTE432, SMPTE2084, RGB, JPEG, 10), PQ2020, 0, 1.0, .all_samples = 1 },
    { "P3 edges in BT.2020 HLG", SRC_EDGES10, AV_PIX_FMT_GBRP10, AV_PIX_FMT_YUV444P10,
      D(SMPTE432, ARIB_STD_B67, RGB, JPEG, 10), HLG2020, 0, 1.0, .all_samples = 1 },
    /* in-gamut colours next to the BT.709 gamut's edges, into pure-power curves (infinite
     * slope at black): float rounding of the gamut matrix must not move a code */
    { "bt2020->bt709 edges gamma22 10-bit", SRC_GRID10S, AV_PIX_FMT_YUV444P10, AV_PIX_FMT_GBRP10,
      D(BT2020, BT2020_10, BT2020_NCL, MPEG, 10), D(BT709, GAMMA22, RGB, JPEG, 10), 0 },
    { "bt2020->bt709 edges gamma28 12-bit", SRC_GRID10S, AV_PIX_FMT_YUV444P10, AV_PIX_FMT_YUV444P12,
      D(BT2020, BT2020_10, BT2020_NCL, MPEG, 10), D(BT709, GAMMA28, BT709, MPEG, 12), 0 },
    { "bt2020->bt709 edges bt1886 12-bit", SRC_GRID10S, AV_PIX_FMT_YUV444P10, AV_PIX_FMT_GBRP12,
      D(BT2020, BT2020_10, BT2020_NCL, MPEG, 10), D(BT709, BT709, RGB, JPEG, 12), 0 },
    { "bt2020->bt709 gamut compress", SRC_GRID10S, AV_PIX_FMT_YUV444P10, AV_PIX_FMT_YUV444P,
      D(BT2020, BT2020_10, BT2020_NCL, MPEG, 10), SDR709_8, 0, 1.0, 0, REF_GAMUT_COMPRESS },
    /* opRGB (IEC 61966-2-5: a pure power 563/256, infinite slope at black as gamma22; BT.709's
     * red and blue) and the DCI-P3 projector's pure power 2.6 (SMPTE RP 431-2), with the
     * standard bound as the gamma22 row above */
    { "gbrp sRGB->opRGB", SRC_ALL8, AV_PIX_FMT_GBRP, AV_PIX_FMT_GBRP,
      D(BT709, IEC61966_2_1, RGB, JPEG, 8), DX(REF_PRI_OPRGB, REF_TRC_OPRGB, RGB, JPEG, 8), 0 },
    { "gbrp10 sRGB->gbrp16 opRGB", SRC_GRID10, AV_PIX_FMT_GBRP10, AV_PIX_FMT_GBRP16,
      D(BT709, IEC61966_2_1, RGB, JPEG, 10), DX(REF_PRI_OPRGB, REF_TRC_OPRGB, RGB, JPEG, 16), 0 },
    { "gbrp opRGB->sRGB", SRC_ALL8, AV_PIX_FMT_GBRP, AV_PIX_FMT_GBRP,
      DX(REF_PRI_OPRGB, REF_TRC_OPRGB, RGB, JPEG, 8), D(BT709, IEC61966_2_1, RGB, JPEG, 8), 0 },
    { "bt709 10b->gbrp10 smpte431 dci-p3", SRC_GRID10, AV_PIX_FMT_YUV444P10, AV_PIX_FMT_GBRP10,
      SDR709_10, DX(AVCOL_PRI_SMPTE431, REF_TRC_DCIP3, RGB, JPEG, 10), 0 },
    /* CIE X'Y'Z' (xyz12le: packed, each component 12 bits in the high bits of a 16-bit word;
     * SMPTE ST 428-1's 2.6 power and 52.37/48 normalisation, full range), components X, Y, Z
     * in the descriptor's order. The model's XYZ primaries carry the white of the content
     * (xyzwhite=, for white point adaptation only): REF_PRI_XYZ_D65 or REF_PRI_XYZ_DCI */
#define XYZ12(white) DX(white, AVCOL_TRC_SMPTE428, RGB, JPEG, 12)
#define SRGB(d) D(BT709, IEC61966_2_1, RGB, JPEG, d)
    { "gbrp10 sRGB->xyz12 (d65 white)", SRC_GRID10, AV_PIX_FMT_GBRP10, AV_PIX_FMT_XYZ12LE,
      SRGB(10), XYZ12(REF_PRI_XYZ_D65), 0 },
    { "gbrp10 sRGB->xyz12 (dci white)", SRC_GRID10, AV_PIX_FMT_GBRP10, AV_PIX_FMT_XYZ12LE,
      SRGB(10), XYZ12(REF_PRI_XYZ_DCI), 0 },
    { "xyz12->gbrp10 sRGB (d65 white)", SRC_GRIDN, AV_PIX_FMT_XYZ12LE, AV_PIX_FMT_GBRP10,
      XYZ12(REF_PRI_XYZ_D65), SRGB(10), 0 },
    { "xyz12->gbrp10 sRGB (dci white)", SRC_GRIDN, AV_PIX_FMT_XYZ12LE, AV_PIX_FMT_GBRP10,
      XYZ12(REF_PRI_XYZ_DCI), SRGB(10), 0 },
    { "xyz12->bt709 10-bit tv (d65 white)", SRC_GRIDN, AV_PIX_FMT_XYZ12LE, AV_PIX_FMT_YUV444P10,
      XYZ12(REF_PRI_XYZ_D65), SDR709_10, 0 },
    /* YCgCo-R (H.273 matrix_coefficients 16, 17): exact integer lifting between N-bit RGB
     * and Y, Cg, Co of N + 2 (re) or N + 1 (ro) bits, full range. Between it and the RGB it
     * carries (same primaries and transfer) every sample must be exact (min_exact 100 %);
     * "any codes" feeds codes no lifting makes too, whose RGB the contract clips (all count) */
#define YCGCOR(m, t, d) { AVCOL_PRI_BT709, AVCOL_TRC_ ## t, AVCOL_SPC_YCGCO_ ## m, AVCOL_RANGE_JPEG, d }
    { "ycgco-re 10-bit->gbrp sRGB", SRC_GRIDN, AV_PIX_FMT_YUV444P10, AV_PIX_FMT_GBRP,
      YCGCOR(RE, IEC61966_2_1, 10), SRGB(8), 0, .min_exact = 100.0 },
    { "ycgco-re 10-bit any codes->gbrp", SRC_GRID10, AV_PIX_FMT_YUV444P10, AV_PIX_FMT_GBRP,
      YCGCOR(RE, IEC61966_2_1, 10), SRGB(8), 0, .min_exact = 100.0, .all_samples = 1 },
    { "gbrp sRGB->ycgco-re 10-bit", SRC_ALL8, AV_PIX_FMT_GBRP, AV_PIX_FMT_YUV444P10,
      SRGB(8), YCGCOR(RE, IEC61966_2_1, 10), 0, .min_exact = 100.0 },
    { "ycgco-ro 9-bit->gbrp sRGB", SRC_GRIDN, AV_PIX_FMT_YUV444P9, AV_PIX_FMT_GBRP,
      YCGCOR(RO, IEC61966_2_1, 9), SRGB(8), 0, .min_exact = 100.0 },
    { "gbrp sRGB->ycgco-ro 9-bit", SRC_ALL8, AV_PIX_FMT_GBRP, AV_PIX_FMT_YUV444P9,
      SRGB(8), YCGCOR(RO, IEC61966_2_1, 9), 0, .min_exact = 100.0 },
    { "ycgco-re 16-bit->gbrp14 sRGB", SRC_GRIDN, AV_PIX_FMT_YUV444P16, AV_PIX_FMT_GBRP14,
      YCGCOR(RE, IEC61966_2_1, 16), SRGB(14), 0, .min_exact = 100.0 },
    { "gbrp14 sRGB->ycgco-re 16-bit", SRC_GRIDN, AV_PIX_FMT_GBRP14, AV_PIX_FMT_YUV444P16,
      SRGB(14), YCGCOR(RE, IEC61966_2_1, 16), 0, .min_exact = 100.0 },
    /* the matrix (and range) conversions of the RGB a YCgCo-R signal carries. Output: the
     * model rounds its N-bit RGB and lifts it, so the reference is an integer; where an
     * RGB value is a near-tie (G = 20.500000366 for Y'CbCr 78 123 227) float32 may round it
     * the other way, and one RGB code moves each of Y, Cg, Co by at most 1: bound 1.5 */
    { "ycgco-re 10-bit->bt709 10-bit tv", SRC_GRIDN, AV_PIX_FMT_YUV444P10, AV_PIX_FMT_YUV444P10,
      YCGCOR(RE, BT709, 10), SDR709_10, 0 },
    { "bt709 8-bit tv->ycgco-re 10-bit", SRC_ALL8, AV_PIX_FMT_YUV444P, AV_PIX_FMT_YUV444P10,
      SDR709_8, YCGCOR(RE, BT709, 10), 0, 1.5 },
};

/* Float outputs (gbrpf32le, full range) of in-gamut inputs: the error of each sample
 * against the model's normalised output, relative to max(|model|, 1) (so, below 1.0, of
 * the full scale). At least 99.9 % of the samples must be within FLOAT_BOUND, and all
 * within FLOAT_MAX: near black, the encoding's slope (x^(1/2.4) at 0) turns the float
 * rounding of a gamut matrix that cancels to almost 0 into errors of up to 1.2e-4 (as it
 * does in the integer rows' documented exceptions). The depth of their output
 * descriptions is the model's only. */
#define FLOAT_BOUND 2e-6
#define FLOAT_MAX   5e-4
static const Conv float_convs[] = {
    { "smpte170m->bt709 float RGB", SRC_ALL8, AV_PIX_FMT_YUV444P, AV_PIX_FMT_GBRPF32LE,
      D(SMPTE170M, SMPTE170M, SMPTE170M, MPEG, 8), D(BT709, BT709, RGB, JPEG, 16) },
    { "bt2020 10-bit->bt709 float RGB", SRC_GRID10, AV_PIX_FMT_YUV444P10, AV_PIX_FMT_GBRPF32LE,
      D(BT2020, BT2020_10, BT2020_NCL, MPEG, 10), D(BT709, BT709, RGB, JPEG, 16) },
    { "sRGB Y'CbCr->bt709 float RGB", SRC_ALL8, AV_PIX_FMT_YUV444P, AV_PIX_FMT_GBRPF32LE,
      D(BT709, IEC61966_2_1, BT709, MPEG, 8), D(BT709, BT709, RGB, JPEG, 16) },
};

/* a format get_comp() and set_comp() read and write: not bit streams, floats or palettes */
static int int_layout(enum AVPixelFormat fmt)
{
    const AVPixFmtDescriptor *d = av_pix_fmt_desc_get(fmt);
    if (!d || d->nb_components < 3 ||
        (d->flags & (AV_PIX_FMT_FLAG_BITSTREAM | AV_PIX_FMT_FLAG_FLOAT | AV_PIX_FMT_FLAG_PAL)))
        return 0;
    for (int c = 0; c < 3; c++)
        if (d->comp[c].shift + d->comp[c].depth > 16)
            return 0;
    return 1;
}

/*
 * Component c of sample (x, y) of its plane (chroma coordinates for subsampled chroma), as
 * the format's AVPixFmtDescriptor says: planar or packed (plane, step, offset), the depth's
 * bits at shift in an 8- or 16-bit word of the format's byte order. c is the descriptor's
 * order, the model's: Y, Cb, Cr; R, G, B (gbrp stores G, B, R in planes 0, 1, 2); X, Y, Z
 * (xyz12: one plane, 6 bytes a pixel, 12 bits at shift 4).
 */
static int get_comp(const AVFrame *f, int c, int x, int y)
{
    const AVPixFmtDescriptor *d = av_pix_fmt_desc_get(f->format);
    const AVComponentDescriptor *k = &d->comp[c];
    const uint8_t *p = f->data[k->plane] + (ptrdiff_t)y * f->linesize[k->plane] +
                       (ptrdiff_t)x * k->step + k->offset;
    const unsigned mask = (1u << k->depth) - 1;

    if (k->shift + k->depth <= 8)
        return *p >> k->shift & mask;
    return ((d->flags & AV_PIX_FMT_FLAG_BE) ? AV_RB16(p) : AV_RL16(p)) >> k->shift & mask;
}

/* the other bits of the word are kept (the frames are zeroed when allocated) */
static void set_comp(AVFrame *f, int c, int x, int y, int v)
{
    const AVPixFmtDescriptor *d = av_pix_fmt_desc_get(f->format);
    const AVComponentDescriptor *k = &d->comp[c];
    uint8_t *p = f->data[k->plane] + (ptrdiff_t)y * f->linesize[k->plane] +
                 (ptrdiff_t)x * k->step + k->offset;
    const unsigned mask = ((1u << k->depth) - 1) << k->shift, u = (unsigned)v << k->shift & mask;

    if (k->shift + k->depth <= 8) {
        *p = (*p & ~mask) | u;
    } else if (d->flags & AV_PIX_FMT_FLAG_BE) {
        AV_WB16(p, (AV_RB16(p) & ~mask) | u);
    } else {
        AV_WL16(p, (AV_RL16(p) & ~mask) | u);
    }
}

/* the filter's option names of the model's values (FFmpeg's names, and cspfix's own) */
static const char *prim_name(int prim)
{
    /* CIE XYZ with D65 or the DCI white as its content's: smpte428 (and xyzwhite=) */
    return prim == REF_PRI_OPRGB ? "oprgb" :
           prim == REF_PRI_XYZ_D65 || prim == REF_PRI_XYZ_DCI ? "smpte428" :
           av_color_primaries_name(prim);
}

/* the filter's xyzwhite= of the model's CIE XYZ primaries (REF_PRI_SMPTE428: H.273's, whose
 * white is E), NULL for others */
static const char *xyz_white_name(int prim)
{
    return prim == REF_PRI_XYZ_D65 ? "d65" : prim == REF_PRI_XYZ_DCI ? "dci" :
           prim == REF_PRI_SMPTE428 ? "e" : NULL;
}

static const char *trc_name(int trc)
{
    return trc == REF_TRC_OPRGB ? "oprgb" :
           trc == REF_TRC_DCIP3 ? "dci-p3" : av_color_transfer_name(trc);
}

/* a frame can only be tagged with FFmpeg's values: cspfix's own are left unspecified (and
 * given to the filter as iprimaries/itrc, in_overrides()) */
static int is_own_prim(int prim)
{
    return prim == REF_PRI_OPRGB;
}

static int is_own_trc(int trc)
{
    return trc == REF_TRC_OPRGB || trc == REF_TRC_DCIP3;
}

/* CIE XYZ is tagged smpte428, its white given as xyzwhite= (in_overrides()) */
static AVFrame *alloc_input(const Conv *cv, int w, int h)
{
    return cspfix_alloc_frame(cv->in_fmt, w, h,
                              is_own_prim(cv->in.prim) ? AVCOL_PRI_UNSPECIFIED :
                              xyz_white_name(cv->in.prim) ? AVCOL_PRI_SMPTE428 : cv->in.prim,
                              is_own_trc(cv->in.trc) ? AVCOL_TRC_UNSPECIFIED : cv->in.trc,
                              cv->in.matrix, cv->in.range);
}

/* the filter options that describe an input with cspfix's own values, and the white of CIE
 * XYZ on either side (one xyzwhite= for both); n bytes of buf; <0 if the sides' XYZ whites
 * differ */
static int in_overrides(const Conv *cv, char *buf, int n)
{
    const char *wi = xyz_white_name(cv->in.prim), *wo = xyz_white_name(cv->out.prim);
    int len = 0;
    if (wi && wo && strcmp(wi, wo))
        return -1;
    if (is_own_prim(cv->in.prim))
        len += snprintf(buf + len, n - len, ":iprimaries=%s", prim_name(cv->in.prim));
    if (is_own_trc(cv->in.trc))
        len += snprintf(buf + len, n - len, ":itrc=%s", trc_name(cv->in.trc));
    if (wi || wo)
        len += snprintf(buf + len, n - len, ":xyzwhite=%s", wi ? wi : wo);
    return len;
}

static int grid10(int i)
{
    /* 256 levels over 0..1023 touching every residue mod 4 */
    return 4 * i + (i & 3);
}

static int grid10s(int i)
{
    /* 128 levels over 0..1023 touching every residue mod 8 */
    return 8 * i + (i & 7);
}

/* SRC_GRIDN: level i of 256 over n-bit codes */
static int gridn(int i, int n)
{
    return i * ((1 << n) - 1) / 255;
}

static AVFrame *make_input(const Conv *cv, int *w, int *h)
{
    AVFrame *f;

    if (cv->src == SRC_BLOCKS420) {
        unsigned seed = 12345;
        *w = *h = 1024;
        f = alloc_input(cv, *w, *h);
        if (!f)
            return NULL;
        for (int by = 0; by < *h / 16; by++) {
            for (int bx = 0; bx < *w / 16; bx++) {
                int v[3];
                for (int c = 0; c < 3; c++) {
                    seed = seed * 1664525u + 1013904223u;
                    v[c] = (seed >> 16) & ((1 << cv->in.depth) - 1);
                }
                for (int y = 0; y < 16; y++)
                    for (int x = 0; x < 16; x++) {
                        set_comp(f, 0, bx * 16 + x, by * 16 + y, v[0]);
                        if (!(x & 1) && !(y & 1)) {
                            set_comp(f, 1, (bx * 16 + x) / 2, (by * 16 + y) / 2, v[1]);
                            set_comp(f, 2, (bx * 16 + x) / 2, (by * 16 + y) / 2, v[2]);
                        }
                    }
            }
        }
        return f;
    }
    if (cv->src == SRC_ALL8SUB || cv->src == SRC_GRID10SUB) {
        const int vsub = av_pix_fmt_desc_get(cv->in_fmt)->log2_chroma_h;
        const int ten = cv->src == SRC_GRID10SUB;
        *w = *h = 256 * SUB_BLOCK;
        f = alloc_input(cv, *w, *h);
        if (!f)
            return NULL;
        for (int y = 0; y < *h; y++)
            for (int x = 0; x < *w; x++) {
                /* block (Cr, Cb); luma clamped to the interior's codes at the borders */
                const int iy = av_clip(y % SUB_BLOCK - SUB_OFF, 0, 15);
                const int ix = av_clip(x % SUB_BLOCK - SUB_OFF, 0, 15);
                const int bx = x / SUB_BLOCK, by = y / SUB_BLOCK;
                set_comp(f, 0, x, y, ten ? 4 * (16 * iy + ix) + ((bx + by) & 3) : 16 * iy + ix);
                if (!(x & 1) && !(y & vsub)) {
                    set_comp(f, 1, x / 2, y >> vsub, ten ? grid10(bx) : bx);
                    set_comp(f, 2, x / 2, y >> vsub, ten ? grid10(by) : by);
                }
            }
        return f;
    }
    if (cv->src == SRC_EDGES10) {
        *w = 1024;
        *h = 6;
        f = alloc_input(cv, *w, *h);
        if (!f)
            return NULL;
        for (int y = 0; y < *h; y++)
            for (int x = 0; x < *w; x++)
                for (int c = 0; c < 3; c++)
                    set_comp(f, c, x, y, (y + 1) >> c & 1 ? x : 0);
        return f;
    }
    *w = *h = 4096;
    if (cv->src == SRC_GRID10S) {
        *w = 2048;
        *h = 1024;
    }
    f = alloc_input(cv, *w, *h);
    if (!f)
        return NULL;
    if (cv->src == SRC_GRID10S) {
        for (int y = 0; y < *h; y++)
            for (int x = 0; x < *w; x++) {
                int idx = y * *w + x, v[3] = { idx >> 14, (idx >> 7) & 127, idx & 127 };
                for (int c = 0; c < 3; c++)
                    set_comp(f, c, x, y, grid10s(v[c]));
            }
        return f;
    }
    if (cv->src == SRC_GRIDN) {
        const int n = ref_ycgcor_rgb_depth(cv->in.matrix, cv->in.depth);
        for (int y = 0; y < *h; y++)
            for (int x = 0; x < *w; x++) {
                int idx = y * *w + x, v[3] = { idx >> 16, (idx >> 8) & 255, idx & 255 };
                for (int c = 0; c < 3; c++)
                    v[c] = gridn(v[c], n > 0 ? n : cv->in.depth);
                if (n > 0) /* YCgCo-R: the RGB levels lifted */
                    ref_ycgcor_forward(cv->in.depth, (const int[3]){ v[0], v[1], v[2] }, v);
                for (int c = 0; c < 3; c++)
                    set_comp(f, c, x, y, v[c]);
            }
        return f;
    }
    for (int y = 0; y < *h; y++)
        for (int x = 0; x < *w; x++) {
            int idx = y * *w + x, v[3] = { idx >> 16, (idx >> 8) & 255, idx & 255 };
            for (int c = 0; c < 3; c++)
                set_comp(f, c, x, y, cv->src == SRC_GRID10 ? grid10(v[c]) : v[c]);
        }
    return f;
}

static const char *const tm_names[] = { "auto", "none", "clip", "bt2390", "reinhard",
                                        "hable", "mobius" };
static const char *const gamut_names[] = { "none", "clip", "desaturate", "compress" };

typedef struct Stats {
    long long n, exact;
    double max, sum;
    int worst_in[3], worst_c;
    double worst_ref;
    int worst_out;
} Stats;

static void account(Stats *s, double ref, int out, const int in[3], int c)
{
    double e = fabs(out - ref);
    s->n++;
    s->sum += e;
    s->exact += out == (int)floor(ref + 0.5);
    if (e > s->max) {
        s->max = e;
        memcpy(s->worst_in, in, sizeof(s->worst_in));
        s->worst_c   = c;
        s->worst_ref = ref;
        s->worst_out = out;
    }
}

static int run_conv(const Conv *cv, int verbose, FILE *rep)
{
    char filter[512];
    AVFrame *in, *out = NULL;
    RefOptions ro = { cv->linearize, REF_WP_BRADFORD, cv->tonemap, cv->gamut, cv->desat,
                      cv->peak, cv->target_peak };
    Stats st = { 0 };
    const double bound = cv->min_exact ? cv->min_exact : cv->out.depth >= 12 ? 99.5 : 99.9;
    int w, h, ret, pass, n;
    double pct;

    if (!int_layout(cv->in_fmt) || !int_layout(cv->out_fmt) ||
        in_overrides(cv, filter, sizeof(filter)) < 0) {
        fprintf(stderr, "%s: a format the harness cannot read, or two XYZ whites\n", cv->name);
        return -1;
    }
    in = make_input(cv, &w, &h);
    if (!in)
        return -1;
    n = snprintf(filter, sizeof(filter),
                 "cspfix=primaries=%s:trc=%s:space=%s:range=%s:format=%s:dither=none:linearize=%s",
                 prim_name(cv->out.prim), trc_name(cv->out.trc),
                 av_color_space_name(cv->out.matrix), av_color_range_name(cv->out.range),
                 av_get_pix_fmt_name(cv->out_fmt), cv->linearize ? "scene" : "display");
    n += snprintf(filter + n, sizeof(filter) - n, ":tonemap=%s:gamut=%s:peak=%g:target_peak=%g"
                  ":desat=%g", tm_names[cv->tonemap], gamut_names[cv->gamut], cv->peak,
                  cv->target_peak, cv->desat);
    n += in_overrides(cv, filter + n, sizeof(filter) - n);
    ret = cspfix_run1(in, filter, 1, &out);
    if (ret < 0) {
        fprintf(stderr, "%s: filter failed (%d): %s\n", cv->name, ret, filter);
        av_frame_free(&in);
        return -1;
    }

    if (cv->src == SRC_BLOCKS420) {
        for (int by = 0; by < h / 16; by++)
            for (int bx = 0; bx < w / 16; bx++) {
                int v[3], g;
                double ref[3];
                v[0] = get_comp(in, 0, bx * 16, by * 16);
                v[1] = get_comp(in, 1, bx * 8, by * 8);
                v[2] = get_comp(in, 2, bx * 8, by * 8);
                double dv[3] = { v[0], v[1], v[2] };
                if (ref_convert(&cv->in, &cv->out, &ro, dv, ref, &g) < 0 || !g)
                    continue;
                for (int y = 4; y < 12; y++)
                    for (int x = 4; x < 12; x++)
                        account(&st, ref[0], get_comp(out, 0, bx * 16 + x, by * 16 + y), v, 0);
                for (int c = 1; c < 3; c++)
                    for (int y = 2; y < 6; y++)
                        for (int x = 2; x < 6; x++)
                            account(&st, ref[c], get_comp(out, c, bx * 8 + x, by * 8 + y), v, c);
            }
    } else if (cv->src == SRC_ALL8SUB || cv->src == SRC_GRID10SUB) {
        /* luma of the interiors (whose interpolated chroma is the block's); chroma once per
         * block, with the first luma code the model accepts (a matrix-only conversion's
         * chroma does not depend on luma) */
        const int vsub = av_pix_fmt_desc_get(cv->in_fmt)->log2_chroma_h;
        for (int by = 0; by < h / SUB_BLOCK; by++)
            for (int bx = 0; bx < w / SUB_BLOCK; bx++) {
                int chroma_done = 0;
                for (int i = 0; i < 256; i++) {
                    const int x = bx * SUB_BLOCK + SUB_OFF + (i & 15);
                    const int y = by * SUB_BLOCK + SUB_OFF + (i >> 4);
                    int v[3] = { get_comp(in, 0, x, y), get_comp(in, 1, x / 2, y >> vsub),
                                 get_comp(in, 2, x / 2, y >> vsub) }, g;
                    double dv[3] = { v[0], v[1], v[2] }, ref[3];
                    if (ref_convert(&cv->in, &cv->out, &ro, dv, ref, &g) < 0 || !g)
                        continue;
                    account(&st, ref[0], get_comp(out, 0, x, y), v, 0);
                    if (!chroma_done++)
                        for (int c = 1; c < 3; c++)
                            account(&st, ref[c], get_comp(out, c, x / 2, y >> vsub), v, c);
                }
            }
    } else {
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
                int v[3], g;
                double dv[3], ref[3];
                for (int c = 0; c < 3; c++) {
                    v[c]  = get_comp(in, c, x, y);
                    dv[c] = v[c];
                }
                if (ref_convert(&cv->in, &cv->out, &ro, dv, ref, &g) < 0) {
                    fprintf(stderr, "%s: reference model rejects the description\n", cv->name);
                    av_frame_free(&in);
                    av_frame_free(&out);
                    return -1;
                }
                if (!g && !cv->all_samples)
                    continue;
                for (int c = 0; c < 3; c++)
                    account(&st, ref[c], get_comp(out, c, x, y), v, c);
            }
    }

    pct  = st.n ? 100.0 * st.exact / st.n : 0.0;
    pass = st.n > 0 && st.max < (cv->max_bound ? cv->max_bound : 1.0) && pct >= bound;
    fprintf(rep, "| %-34s | %2d->%2d | %10lld | %7.4f | %8.5f | %8.4f %% | %s |\n", cv->name,
           cv->in.depth, cv->out.depth, st.n, st.max, st.n ? st.sum / st.n : 0.0, pct,
           pass ? "ok" : "FAIL");
    if (!pass || verbose)
        fprintf(rep, "|   worst: in (%d,%d,%d) comp %d ref %.4f out %d\n", st.worst_in[0],
               st.worst_in[1], st.worst_in[2], st.worst_c, st.worst_ref, st.worst_out);
    fflush(rep);
    av_frame_free(&in);
    av_frame_free(&out);
    return pass ? 0 : 1;
}

/* a float output row: max and mean error (see float_convs), the share within FLOAT_BOUND */
static int run_float_conv(const Conv *cv)
{
    char filter[512];
    AVFrame *in, *out = NULL;
    RefOptions ro = { cv->linearize, REF_WP_BRADFORD, cv->tonemap, cv->gamut, cv->desat,
                      cv->peak, cv->target_peak };
    long long n = 0, within = 0;
    double max = 0.0, sum = 0.0;
    int w, h, ret, pass, len;

    if (!int_layout(cv->in_fmt) || in_overrides(cv, filter, sizeof(filter)) < 0) {
        fprintf(stderr, "%s: a format the harness cannot read, or two XYZ whites\n", cv->name);
        return -1;
    }
    in = make_input(cv, &w, &h);
    if (!in)
        return -1;
    len = snprintf(filter, sizeof(filter), "cspfix=primaries=%s:trc=%s:space=rgb:range=pc:format=%s"
                   ":tonemap=%s:gamut=%s:peak=%g:target_peak=%g:desat=%g",
                   prim_name(cv->out.prim), trc_name(cv->out.trc),
                   av_get_pix_fmt_name(cv->out_fmt), tm_names[cv->tonemap], gamut_names[cv->gamut],
                   cv->peak, cv->target_peak, cv->desat);
    in_overrides(cv, filter + len, sizeof(filter) - len);
    ret = cspfix_run1(in, filter, 1, &out);
    if (ret < 0) {
        fprintf(stderr, "%s: filter failed (%d): %s\n", cv->name, ret, filter);
        av_frame_free(&in);
        return -1;
    }
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            double dv[3], ref[3];
            RefTrace tr;
            int g;
            for (int c = 0; c < 3; c++)
                dv[c] = get_comp(in, c, x, y);
            if (ref_convert_trace(&cv->in, &cv->out, &ro, dv, ref, &g, &tr) < 0) {
                fprintf(stderr, "%s: reference model rejects the description\n", cv->name);
                av_frame_free(&in);
                av_frame_free(&out);
                return -1;
            }
            if (!g)
                continue;  /* out of gamut: the model's reference is clamped, the float not */
            for (int c = 0; c < 3; c++) {
                const int p = av_pix_fmt_desc_get(cv->out_fmt)->comp[c].plane;
                const float v = ((const float *)(out->data[p] + y * out->linesize[p]))[x];
                const double e = fabs(v - tr.out_norm[c]) / FFMAX(fabs(tr.out_norm[c]), 1.0);
                n++;
                sum += e;
                max = FFMAX(max, e);
                within += e < FLOAT_BOUND;
            }
        }
    pass = n > 0 && max < FLOAT_MAX && within >= 0.999 * n;
    printf("| %-34s | %2d->f32 | %10lld | %.2e | %.2e | %8.4f %% | %s |\n", cv->name,
           cv->in.depth, n, max, sum / n, 100.0 * within / n, pass ? "ok" : "FAIL");
    fflush(stdout);
    av_frame_free(&in);
    av_frame_free(&out);
    return pass ? 0 : 1;
}

#define MAX_JOBS 4

typedef struct Jobs {
    pthread_mutex_t lock;
    const char *only;
    int verbose, next;
    struct {
        FILE *rep;                     ///< the row's printed lines (open_memstream)
        char *text;
        size_t len;
        int ran, ret;
    } rows[FF_ARRAY_ELEMS(convs)];
} Jobs;

static void *worker(void *arg)
{
    Jobs *j = arg;

    for (;;) {
        int i;
        pthread_mutex_lock(&j->lock);
        i = j->next++;
        pthread_mutex_unlock(&j->lock);
        if (i >= FF_ARRAY_ELEMS(convs))
            return NULL;
        if (j->only && !strstr(convs[i].name, j->only))
            continue;
        j->rows[i].ret = run_conv(&convs[i], j->verbose, j->rows[i].rep);
        j->rows[i].ran = 1;
    }
}

int main(int argc, char **argv)
{
    int passed = 0, failed = 0, verbose = 0;
    const char *only = NULL;

    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-v"))
            verbose = 1;
        else
            only = argv[i];
    }
    av_log_set_level(AV_LOG_ERROR);
    /* CSPFIX_CPUFLAGS=0: the C kernels only (the SIMD ones give the same output) */
    if (getenv("CSPFIX_CPUFLAGS"))
        av_force_cpu_flags(atoi(getenv("CSPFIX_CPUFLAGS")));
    printf("| conversion                         | bits   | samples    | max LSB | mean LSB | exact      | result |\n");
    printf("|------------------------------------|--------|------------|---------|----------|------------|--------|\n");
    {
        /* the rows on worker threads (each row runs the filter with one thread); their
         * lines are printed in table order */
        const int nconv = FF_ARRAY_ELEMS(convs);
        const char *env = getenv("CSPFIX_PRECISION_JOBS");
        Jobs jobs = { .only = only, .verbose = verbose, .next = 0 };
        pthread_t th[MAX_JOBS];
        int nth = env ? atoi(env) : (int)sysconf(_SC_NPROCESSORS_ONLN);

        nth = av_clip(nth, 1, MAX_JOBS);
        pthread_mutex_init(&jobs.lock, NULL);
        for (int i = 0; i < nconv; i++)
            jobs.rows[i].rep = open_memstream(&jobs.rows[i].text, &jobs.rows[i].len);
        for (int t = 0; t < nth; t++)
            if (pthread_create(&th[t], NULL, worker, &jobs)) {
                nth = t;
                break;
            }
        if (!nth)
            worker(&jobs);
        for (int t = 0; t < nth; t++)
            pthread_join(th[t], NULL);
        for (int i = 0; i < nconv; i++) {
            fclose(jobs.rows[i].rep);
            fputs(jobs.rows[i].text ? jobs.rows[i].text : "", stdout);
            free(jobs.rows[i].text);
            if (jobs.rows[i].ran) {
                if (jobs.rows[i].ret == 0)
                    passed++;
                else
                    failed++;
            }
        }
        pthread_mutex_destroy(&jobs.lock);
        fflush(stdout);
    }
    printf("\nFloat outputs: error relative to max(|model|, 1); bounds: max %g, 99.9 %% within %g\n\n",
           FLOAT_MAX, FLOAT_BOUND);
    printf("| conversion                         | bits    | samples    | max       | mean      | within     | result |\n");
    printf("|------------------------------------|---------|------------|-----------|-----------|------------|--------|\n");
    for (int i = 0; i < sizeof(float_convs) / sizeof(float_convs[0]); i++) {
        if (only && !strstr(float_convs[i].name, only))
            continue;
        if (run_float_conv(&float_convs[i]) == 0)
            passed++;
        else
            failed++;
    }
    printf("precision: %d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
