/*
 * cspfix-bench: cspfix against colorspace, zscale (and zimg at AVX2), scale and a copy
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
 * The benchmark of shared/bench/conversions.md (B1..B8). For each conversion
 * and thread count, one `buffer -> X -> buffersink` graph per filter X (cspfix,
 * colorspace, zscale, scale, and the `copy` filter as the memory floor) is
 * built and configured once. A run pushes 2 warm-up frames, then times N
 * frames from the first push to the last pulled output; the filters, at every
 * thread count, take turns within a run, so every ratio (between filters, and
 * between thread counts) compares figures of the same run. The
 * input frame is generated and tagged once and pushed by reference
 * (AV_BUFFERSRC_FLAG_KEEP_REF), so only the graph's work is timed. Each
 * peer's first output is compared with cspfix's (max abs difference per
 * component, in output codes), and filters that libavfilter inserted by
 * itself (auto_scale_*) are reported: the sink accepts only the output format.
 *
 * zscale asks zimg for ZIMG_CPU_AUTO_64B, which on a CPU with AVX-512 runs
 * zimg's AVX-512 kernels. So where zscale can do a conversion there is also a
 * "zimg-avx2" line: the same zimg conversion, set up as zscale sets it up,
 * through zimg's API with ZIMG_CPU_AUTO (AVX2 at most), 1 thread, timed the same
 * way (one frame's conversion per pushed frame). On such a CPU the "cspfix-avx2"
 * line is cspfix's graph built with AVX-512 masked from the CPU flags: cspfix's
 * AVX2 kernels, to set against zimg-avx2.
 *
 * Usage: cspfix-bench [--runs N] [--frames N] [--threads 1,all] [--only B1,B3]
 *                     [--peers colorspace,copy] [--cpu-time] [--json] [--json-file F]
 *                     [--quick] [--verbose]
 * The environment variable CSPFIX_BENCH_CPUFLAGS, if set, changes the CPU flags FFmpeg
 * uses as ffmpeg's -cpuflags does (e.g. -avx512: the same binary without its AVX-512
 * kernels); the header's flags line shows the result.
 */

#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <lcms2.h>
#include <libavfilter/avfilter.h>
#include <libavfilter/buffersink.h>
#include <libavfilter/buffersrc.h>
#include <libavutil/avstring.h>
#include <libavutil/avutil.h>
#include <libavutil/common.h>
#include <libavutil/cpu.h>
#include <libavutil/dovi_meta.h>
#include <libavutil/csp.h>
#include <libavutil/error.h>
#include <libavutil/frame.h>
#include <libavutil/imgutils.h>
#include <libavutil/mastering_display_metadata.h>
#include <libavutil/mathematics.h>
#include <libavutil/opt.h>
#include <libavutil/pixdesc.h>
#include <libavutil/time.h>

#include <zimg.h>

#define MAX_PEERS     16
#define MAX_RUNS      100
#define MAX_TSETS     8     ///< thread counts
#define WARMUP        2     ///< untimed frames before each timed run
#define SLOW_SETUP_MS 100   ///< report first frames slower than this (lazy setup)
#define QUICK_W       320   ///< --quick frame size (2160p conversions: twice)
#define QUICK_H       180

/* ---------------------------------------------------------------------------
 * The conversions
 * ------------------------------------------------------------------------- */

typedef struct PeerDef {
    const char *name;     ///< row label
    const char *filters;  ///< filtergraph between buffer and buffersink; NULL: n/a
    const char *note;     ///< n/a reason, or what to know about this line
    int zimg;             ///< 1: zimg's API directly (ZIMG_CPU_AUTO), filters unused
    int zdither;          ///< its zimg_dither_type_e
    int cpumask;          ///< CPU flags masked (av_force_cpu_flags) while the graph is built
} PeerDef;

typedef struct ColorDesc {
    enum AVColorPrimaries prim;
    enum AVColorTransferCharacteristic trc;
    enum AVColorSpace csp;
    enum AVColorRange range;
} ColorDesc;

/** How the test picture becomes the input signal. */
enum Pattern {
    PAT_SIGNAL,           ///< the picture is the input's R'G'B' signal itself
    PAT_709_IN_2020,      ///< BT.709-gamut colours as BT.2020 with the BT.1886 curve
    PAT_709_IN_PQ,        ///< BT.709-gamut colours up to 1000 cd/m2 as BT.2020 PQ
};

typedef struct ConvDef {
    const char *id;
    int w, h;
    enum AVPixelFormat in_fmt, out_fmt;
    ColorDesc in, out;
    enum Pattern pattern;
    int hdr10;            ///< HDR10 side data: 1 true (1000 cd/m2), 2 claiming 10000;
                          ///< 3: a Dolby Vision profile 5 RPU instead; 4: an Adobe RGB
                          ///< (1998) ICC profile
    const char *what;
    const char *note;     ///< printed under the table
    PeerDef peers[MAX_PEERS];
    int options;          ///< options section: cspfix with its options, against its defaults
} ConvDef;

/* A peer line: name, filtergraph and an optional note; NA: what it cannot do. */
#define PEER(n, f)            { .name = n, .filters = f }
#define PEER_NOTE(n, f, why)  { .name = n, .filters = f, .note = why }
#define NA(n, why)            { .name = n, .note = why }
/* zimg as zscale sets it up (bilinear chroma, approximate gamma), but with
 * ZIMG_CPU_AUTO, which stops at AVX2: the same library at cspfix's ISA */
#define ZIMG_AVX2(d)          { .name = "zimg-avx2", .zimg = 1, .zdither = d, .note = ZIMG_NOTE }
#define ZIMG_NOTE   "zimg's API called directly, set up as zscale sets it (bilinear chroma, " \
                    "approximate gamma) but with ZIMG_CPU_AUTO (AVX2 at most, where zscale asks " \
                    "for ZIMG_CPU_AUTO_64B); one thread; writes into one reused frame"

#define SCALE_IN(p, t, m, r)  "scale=in_primaries=" p ":in_transfer=" t ":in_color_matrix=" m ":in_range=" r
#define SCALE_OUT709          ":out_primaries=bt709:out_transfer=bt709:out_color_matrix=bt709:out_range=tv"
#define ZSCALE_OUT709         ":p=709:t=709:m=709:r=tv"
#define CS_OUT709             ":all=bt709:range=tv:format=yuv420p"

#define CS_SCENE    "linearises scene light (inverse OETF); cspfix's default is display light " \
                    "(EOTF), so pictures differ by design (cspfix linearize=scene matches it)"
#define CS_NO_NV12  "n/a: colorspace takes planar Y'CbCr only (no nv12); it would need auto-inserted nv12<->yuv420p conversions"
#define ZS_EXACT    "zscale with zimg's exact transfer curves (agamma=0: no approximate gamma), " \
                    "the precision class of cspfix's curves; the zscale line above is zimg's default"
#define ZS_NO_NV12  "n/a: zscale takes planar formats only (no nv12); it would need auto-inserted nv12<->yuv420p conversions"

/* B5 and B10: HDR10 in, SDR BT.709 out, and issue 6's zscale+tonemap chain */
#define PQ_IN   { AVCOL_PRI_BT2020, AVCOL_TRC_SMPTE2084, AVCOL_SPC_BT2020_NCL, AVCOL_RANGE_MPEG }
#define OUT_709 { AVCOL_PRI_BT709, AVCOL_TRC_BT709, AVCOL_SPC_BT709, AVCOL_RANGE_MPEG }
#define ZSCALE_TONEMAP "zscale=t=linear:npl=100,format=gbrpf32le,tonemap=hable," \
                       "zscale=p=709:t=709:m=709:r=tv,format=yuv420p"

static const ConvDef convs[] = {
    { "B1", 1920, 1080, AV_PIX_FMT_YUV420P, AV_PIX_FMT_YUV420P,
      { AVCOL_PRI_SMPTE170M, AVCOL_TRC_SMPTE170M, AVCOL_SPC_SMPTE170M, AVCOL_RANGE_MPEG },
      { AVCOL_PRI_BT709, AVCOL_TRC_BT709, AVCOL_SPC_BT709, AVCOL_RANGE_MPEG },
      PAT_SIGNAL, 0, "full chain: matrix, linearise, gamut, delinearise", NULL, {
        PEER("cspfix", "cspfix=all=bt709:dither=none"),
        PEER_NOTE("colorspace", "colorspace=iall=smpte170m:irange=tv" CS_OUT709, CS_SCENE),
        PEER("zscale", "zscale=pin=smpte170m:tin=smpte170m:min=smpte170m:rin=tv" ZSCALE_OUT709 ":d=none"),
        PEER_NOTE("zscale-exact", "zscale=pin=smpte170m:tin=smpte170m:min=smpte170m:rin=tv" ZSCALE_OUT709 ":d=none" ":agamma=0", ZS_EXACT),
        ZIMG_AVX2(ZIMG_DITHER_NONE),
        PEER("scale", SCALE_IN("smpte170m", "smpte170m", "smpte170m", "tv") SCALE_OUT709),
    }, 0 },
    { "B2", 1920, 1080, AV_PIX_FMT_YUV420P, AV_PIX_FMT_YUV420P,
      { AVCOL_PRI_BT709, AVCOL_TRC_BT709, AVCOL_SPC_SMPTE170M, AVCOL_RANGE_MPEG },
      { AVCOL_PRI_BT709, AVCOL_TRC_BT709, AVCOL_SPC_BT709, AVCOL_RANGE_MPEG },
      PAT_SIGNAL, 0, "matrix only (the classic 601/709 mix-up)", NULL, {
        PEER("cspfix", "cspfix=space=bt709:dither=none"),
        PEER("colorspace", "colorspace=iprimaries=bt709:itrc=bt709:ispace=smpte170m:irange=tv" CS_OUT709),
        PEER("zscale", "zscale=pin=709:tin=709:min=smpte170m:rin=tv" ZSCALE_OUT709 ":d=none"),
        ZIMG_AVX2(ZIMG_DITHER_NONE),
        PEER("scale", SCALE_IN("bt709", "bt709", "smpte170m", "tv") SCALE_OUT709),
    }, 0 },
    { "B3", 1920, 1080, AV_PIX_FMT_YUV420P, AV_PIX_FMT_YUV420P,
      { AVCOL_PRI_BT709, AVCOL_TRC_BT709, AVCOL_SPC_BT709, AVCOL_RANGE_JPEG },
      { AVCOL_PRI_BT709, AVCOL_TRC_BT709, AVCOL_SPC_BT709, AVCOL_RANGE_MPEG },
      PAT_SIGNAL, 0, "range only", NULL, {
        PEER("cspfix", "cspfix=range=tv:dither=none"),
        PEER("colorspace", "colorspace=iall=bt709:irange=pc" CS_OUT709),
        PEER("zscale", "zscale=pin=709:tin=709:min=709:rin=pc" ZSCALE_OUT709 ":d=none"),
        ZIMG_AVX2(ZIMG_DITHER_NONE),
        PEER("scale", SCALE_IN("bt709", "bt709", "bt709", "pc") SCALE_OUT709),
    }, 0 },
    { "B4", 1920, 1080, AV_PIX_FMT_YUV420P10LE, AV_PIX_FMT_YUV420P,
      { AVCOL_PRI_BT2020, AVCOL_TRC_BT2020_10, AVCOL_SPC_BT2020_NCL, AVCOL_RANGE_MPEG },
      { AVCOL_PRI_BT709, AVCOL_TRC_BT709, AVCOL_SPC_BT709, AVCOL_RANGE_MPEG },
      PAT_709_IN_2020, 0, "gamut reduction + depth reduction (dithered)",
      "B4: cspfix dithers with its 16x16 ordered pattern, zscale with d=ordered, colorspace "
      "with dither=fsb (its only dither), scale with libswscale's default dither: "
      "differences of a few codes are the dither patterns.", {
        PEER("cspfix", "cspfix=all=bt709:format=yuv420p"),
        PEER_NOTE("colorspace", "colorspace=iall=bt2020:irange=tv" CS_OUT709 ":dither=fsb", CS_SCENE),
        PEER("zscale", "zscale=pin=2020:tin=2020_10:min=2020_ncl:rin=tv" ZSCALE_OUT709 ":d=ordered"),
        PEER_NOTE("zscale-exact", "zscale=pin=2020:tin=2020_10:min=2020_ncl:rin=tv" ZSCALE_OUT709 ":d=ordered" ":agamma=0", ZS_EXACT),
        ZIMG_AVX2(ZIMG_DITHER_ORDERED),
        PEER("scale", SCALE_IN("bt2020", "bt2020-10", "bt2020nc", "tv") SCALE_OUT709),
    }, 0 },
    { "B5", 3840, 2160, AV_PIX_FMT_YUV420P10LE, AV_PIX_FMT_YUV420P, PQ_IN, OUT_709,
      PAT_709_IN_PQ, 1, "PQ tone mapping to SDR (HDR10 side data)",
      "B5: cspfix tone-maps in its one pass (BT.2390 EETF on max-RGB, source peak from the "
      "HDR10 side data, SDR white = 100 cd/m2); cspfix:hable uses the same curve as the "
      "zscale+tonemap chain (issue 6's reference peer). The plain zscale line clips "
      "(npl=203, no tone mapping); scale:perceptual tone-maps with its own curve: pictures "
      "differ by design, the ratio to zscale+tonemap is the issue-6 figure.", {
        PEER("cspfix", "cspfix=all=bt709:format=yuv420p:tonemap=bt2390"),
        PEER("cspfix:hable", "cspfix=all=bt709:format=yuv420p:tonemap=hable"),
        NA("colorspace", "n/a: colorspace has no PQ/HLG transfer (itrc)"),
        PEER_NOTE("zscale",
                  "zscale=pin=2020:tin=smpte2084:min=2020_ncl:rin=tv" ZSCALE_OUT709 ":d=ordered:npl=203",
                  "clips (npl=203, no tone mapping)"),
        PEER_NOTE("zscale+tonemap", ZSCALE_TONEMAP,
                  "tone-maps (hable); the chain of issue 6"),
        PEER_NOTE("scale", SCALE_IN("bt2020", "smpte2084", "bt2020nc", "tv") SCALE_OUT709,
                  "intent=relative_colorimetric (default)"),
        PEER_NOTE("scale:perceptual",
                  SCALE_IN("bt2020", "smpte2084", "bt2020nc", "tv") SCALE_OUT709 ":intent=perceptual",
                  "tone-maps (perceptual)"),
    }, 0 },
    { "B10", 3840, 2160, AV_PIX_FMT_YUV420P10LE, AV_PIX_FMT_YUV420P, PQ_IN, OUT_709,
      PAT_709_IN_PQ, 2, "measured light: B5 whose HDR10 side data claims 10000 cd/m2, peak=auto",
      "B10: cspfix measures each frame (peak=auto: histogram of max(R',G',B'), shots); "
      "cspfix:static is the same graph on the same frames trusting the lying metadata "
      "(B5's work: the ratio is peak=auto's cost); no peer measures light on the CPU, so "
      "zscale+tonemap (issue 6's chain) is the reference.", {
        PEER("cspfix", "cspfix=all=bt709:format=yuv420p:peak=auto"),
        PEER("cspfix:static", "cspfix=all=bt709:format=yuv420p"),
        PEER_NOTE("zscale+tonemap", ZSCALE_TONEMAP,
                  "tone-maps (hable) from no measurement"),
    }, 0 },
    { "B9", 3840, 2160, AV_PIX_FMT_YUV420P10LE, AV_PIX_FMT_YUV420P,
      { AVCOL_PRI_BT2020, AVCOL_TRC_SMPTE2084, AVCOL_SPC_IPT_C2, AVCOL_RANGE_JPEG }, OUT_709,
      PAT_709_IN_PQ, 3, "Dolby Vision profile 5 (IPT-PQ-c2 + RPU: polynomial luma, MMR chroma) to SDR",
      "B9: cspfix applies the RPU (4 polynomial luma pieces, MMR order 3 chroma) and its "
      "IPT-PQ-c2 colour, then B5's tone mapping; cspfix:b5 is B5 (the same frames read as BT.2020 PQ "
      "Y'CbCr: the ratio is the reshaping's cost); no peer reshapes Dolby Vision on the CPU, so "
      "zscale+tonemap on the HDR10 frames (B5's chain) is the reference.", {
        PEER("cspfix", "cspfix=all=bt709:format=yuv420p"),
        PEER_NOTE("cspfix:b5", "cspfix=all=bt709:range=tv:format=yuv420p:dovi=ignore:ispace=bt2020nc",
                  "the frames' RPU ignored, read as HDR10 (B5's work)"),
        PEER_NOTE("zscale+tonemap", "zscale=pin=2020:tin=smpte2084:min=2020_ncl:rin=pc:t=linear:npl=100,"
                  "format=gbrpf32le,tonemap=hable,zscale=p=709:t=709:m=709:r=tv,format=yuv420p",
                  "B5's chain, on the frames read as HDR10"),
        PEER_NOTE("scale", "setparams=colorspace=bt2020nc," SCALE_IN("bt2020", "smpte2084", "bt2020nc", "pc")
                  SCALE_OUT709, "libswscale on the frames read as HDR10 (no Dolby Vision)"),
    }, 0 },
    { "B6", 1920, 1080, AV_PIX_FMT_GBRP, AV_PIX_FMT_YUV420P,
      { AVCOL_PRI_BT709, AVCOL_TRC_IEC61966_2_1, AVCOL_SPC_RGB, AVCOL_RANGE_JPEG },
      { AVCOL_PRI_BT709, AVCOL_TRC_BT709, AVCOL_SPC_BT709, AVCOL_RANGE_MPEG },
      PAT_SIGNAL, 0, "RGB in, transfer change, chroma downsampling", NULL, {
        PEER("cspfix", "cspfix=all=bt709:format=yuv420p"),
        NA("colorspace", "n/a: colorspace takes planar Y'CbCr only (no gbrp input)"),
        PEER("zscale", "zscale=pin=709:tin=iec61966-2-1:min=gbr:rin=pc" ZSCALE_OUT709 ":d=none"),
        PEER_NOTE("zscale-exact", "zscale=pin=709:tin=iec61966-2-1:min=gbr:rin=pc" ZSCALE_OUT709 ":d=none" ":agamma=0", ZS_EXACT),
        ZIMG_AVX2(ZIMG_DITHER_NONE),
        PEER("scale", "scale=in_primaries=bt709:in_transfer=iec61966-2-1:in_range=pc" SCALE_OUT709),
    }, 0 },
    { "B7", 1920, 1080, AV_PIX_FMT_YUV420P, AV_PIX_FMT_YUV420P,
      { AVCOL_PRI_BT709, AVCOL_TRC_IEC61966_2_1, AVCOL_SPC_BT709, AVCOL_RANGE_MPEG },
      { AVCOL_PRI_BT709, AVCOL_TRC_BT709, AVCOL_SPC_BT709, AVCOL_RANGE_MPEG },
      PAT_SIGNAL, 0, "transfer only (sRGB vs BT.709 mix-up)", NULL, {
        PEER("cspfix", "cspfix=trc=bt709"),
        PEER_NOTE("colorspace", "colorspace=iprimaries=bt709:itrc=srgb:ispace=bt709:irange=tv" CS_OUT709,
                  CS_SCENE),
        PEER("zscale", "zscale=pin=709:tin=iec61966-2-1:min=709:rin=tv" ZSCALE_OUT709 ":d=none"),
        PEER_NOTE("zscale-exact", "zscale=pin=709:tin=iec61966-2-1:min=709:rin=tv" ZSCALE_OUT709 ":d=none" ":agamma=0", ZS_EXACT),
        ZIMG_AVX2(ZIMG_DITHER_NONE),
        PEER("scale", SCALE_IN("bt709", "iec61966-2-1", "bt709", "tv") SCALE_OUT709),
    }, 0 },
    { "B8", 1920, 1080, AV_PIX_FMT_NV12, AV_PIX_FMT_NV12,
      { AVCOL_PRI_SMPTE170M, AVCOL_TRC_SMPTE170M, AVCOL_SPC_SMPTE170M, AVCOL_RANGE_MPEG },
      { AVCOL_PRI_BT709, AVCOL_TRC_BT709, AVCOL_SPC_BT709, AVCOL_RANGE_MPEG },
      PAT_SIGNAL, 0, "semi-planar in and out", NULL, {
        PEER("cspfix", "cspfix=all=bt709"),
        NA("colorspace", CS_NO_NV12),
        NA("zscale", ZS_NO_NV12),
        PEER("scale", SCALE_IN("smpte170m", "smpte170m", "smpte170m", "tv") SCALE_OUT709),
    }, 0 },
    { "B11", 1920, 1080, AV_PIX_FMT_RGB24, AV_PIX_FMT_RGB24,
      { AVCOL_PRI_UNSPECIFIED, AVCOL_TRC_UNSPECIFIED, AVCOL_SPC_RGB, AVCOL_RANGE_JPEG },
      { AVCOL_PRI_BT709, AVCOL_TRC_IEC61966_2_1, AVCOL_SPC_RGB, AVCOL_RANGE_JPEG },
      PAT_SIGNAL, 4, "ICC-driven: rgb24 Adobe RGB (1998) by its ICC profile to sRGB",
      "B11: cspfix reads the frame's ICC profile (lcms2, once per distinct profile) and "
      "converts with its own stages; cspfix:tags is the same conversion told by options "
      "(the profile's cost is the ratio). No peer reads ICC profiles or has the Adobe RGB "
      "primaries; compare B11 with B6 (RGB in, 1080p) of the same run.", {
        PEER("cspfix", "cspfix=primaries=bt709:trc=iec61966-2-1"),
        PEER_NOTE("cspfix:tags", "cspfix=iprimaries=oprgb:itrc=oprgb:icc=ignore:primaries=bt709:trc=iec61966-2-1",
                  "the profile ignored, its description given by options"),
        NA("colorspace", "n/a: no ICC, no Adobe RGB primaries, no RGB input"),
        NA("zscale", "n/a: no ICC, no Adobe RGB (1998) primaries in zimg"),
        NA("scale", "n/a: no ICC, no Adobe RGB (1998) primaries in libswscale"),
    }, 0 },

/* The options section: one conversion with each of cspfix's quality options, each line
 * against the first (the defaults), so that an option off the fast paths shows. */
#define B4_CSPFIX   "cspfix=all=bt709:format=yuv420p"
#define B5_CSPFIX   "cspfix=all=bt709:format=yuv420p"
#define B1_CSPFIX   "cspfix=all=bt709:dither=none"
#define OPT(o, f)   PEER(o, f ":" o)
    { "B4-opt", 1920, 1080, AV_PIX_FMT_YUV420P10LE, AV_PIX_FMT_YUV420P,
      { AVCOL_PRI_BT2020, AVCOL_TRC_BT2020_10, AVCOL_SPC_BT2020_NCL, AVCOL_RANGE_MPEG },
      { AVCOL_PRI_BT709, AVCOL_TRC_BT709, AVCOL_SPC_BT709, AVCOL_RANGE_MPEG },
      PAT_709_IN_2020, 0, "B4 with each dither and gamut mode", NULL, {
        PEER_NOTE("cspfix", B4_CSPFIX, "defaults: dither=ordered (auto), gamut=none"),
        OPT("dither=none", B4_CSPFIX), OPT("dither=ed", B4_CSPFIX),
        OPT("gamut=clip", B4_CSPFIX), OPT("gamut=desaturate", B4_CSPFIX),
        OPT("gamut=compress", B4_CSPFIX),
        PEER_NOTE("zscale:ed", "zscale=pin=2020:tin=2020_10:min=2020_ncl:rin=tv" ZSCALE_OUT709
                  ":d=error_diffusion", "zscale's error diffusion, for dither=ed"),
    }, 1 },
    { "B5-opt", 3840, 2160, AV_PIX_FMT_YUV420P10LE, AV_PIX_FMT_YUV420P,
      { AVCOL_PRI_BT2020, AVCOL_TRC_SMPTE2084, AVCOL_SPC_BT2020_NCL, AVCOL_RANGE_MPEG },
      { AVCOL_PRI_BT709, AVCOL_TRC_BT709, AVCOL_SPC_BT709, AVCOL_RANGE_MPEG },
      PAT_709_IN_PQ, 1, "B5 with each tone curve, dither and gamut mode", NULL, {
        PEER_NOTE("cspfix", B5_CSPFIX, "defaults: tonemap=bt2390 (auto), dither=ordered, gamut=none"),
        OPT("tonemap=clip", B5_CSPFIX), OPT("tonemap=reinhard", B5_CSPFIX),
        OPT("tonemap=hable", B5_CSPFIX), OPT("tonemap=mobius", B5_CSPFIX),
        OPT("tonemap=bt2446a", B5_CSPFIX), OPT("tonemap=spline", B5_CSPFIX),
        OPT("target_black=0.1", B5_CSPFIX),
        OPT("dither=none", B5_CSPFIX), OPT("dither=ed", B5_CSPFIX),
        OPT("gamut=clip", B5_CSPFIX), OPT("gamut=desaturate", B5_CSPFIX),
        OPT("gamut=compress", B5_CSPFIX), OPT("peak=auto", B5_CSPFIX),
        OPT("tmmode=ipt", B5_CSPFIX),
        PEER_NOTE("zscale:ed", "zscale=pin=2020:tin=smpte2084:min=2020_ncl:rin=tv" ZSCALE_OUT709
                  ":d=error_diffusion:npl=203", "zscale's error diffusion (clips: npl=203), for dither=ed"),
    }, 1 },
    { "R4K-opt", 3840, 2160, AV_PIX_FMT_YUV420P10LE, AV_PIX_FMT_YUV420P10LE,
      { AVCOL_PRI_BT2020, AVCOL_TRC_BT2020_10, AVCOL_SPC_BT2020_NCL, AVCOL_RANGE_MPEG },
      { AVCOL_PRI_BT2020, AVCOL_TRC_BT2020_10, AVCOL_SPC_BT2020_NCL, AVCOL_RANGE_JPEG },
      PAT_709_IN_2020, 0, "4K 10-bit range change (tv -> pc) with error diffusion", NULL, {
        PEER_NOTE("cspfix", "cspfix=range=pc", "defaults: no dither at the same depth (integer map)"),
        OPT("dither=ed", "cspfix=range=pc"),
        PEER_NOTE("zscale:ed", "zscale=rin=tv:r=pc:d=error_diffusion", "zscale's error diffusion"),
        PEER_NOTE("zscale", "zscale=rin=tv:r=pc:d=none", "zscale without dither"),
    }, 1 },
    { "B1-opt", 1920, 1080, AV_PIX_FMT_YUV420P, AV_PIX_FMT_YUV420P,
      { AVCOL_PRI_SMPTE170M, AVCOL_TRC_SMPTE170M, AVCOL_SPC_SMPTE170M, AVCOL_RANGE_MPEG },
      { AVCOL_PRI_BT709, AVCOL_TRC_BT709, AVCOL_SPC_BT709, AVCOL_RANGE_MPEG },
      PAT_SIGNAL, 0, "B1 with scene light, other white-point adaptations and a chroma siting change",
      NULL, {
        PEER_NOTE("cspfix", B1_CSPFIX, "defaults: linearize=display, wpadapt=bradford, siting kept"),
        OPT("linearize=scene", B1_CSPFIX), OPT("wpadapt=vonkries", B1_CSPFIX),
        OPT("wpadapt=identity", B1_CSPFIX), OPT("chroma_loc=center", B1_CSPFIX),
    }, 1 },
};

/** The memory floor: the input frame through the copy filter (av_frame_copy
 *  into a frame from the link's pool), with the same graph overhead as X. */
static const PeerDef copy_peer = {
    .name = "copy", .filters = "copy", .note = "memory floor: input frame through the copy filter"
};

/** cspfix's own graph with the AVX-512 kernels masked (the CPU flags forced while the
 *  filter picks its kernels): the AVX2 versions in the same run. Only on CPUs with
 *  AVX-512; filters is the conversion's cspfix graph. */
#define AVX2_PEER "cspfix-avx2"
#define AVX2_MASK (AV_CPU_FLAG_AVX512 | AV_CPU_FLAG_AVX512ICL)
#define AVX2_NOTE "cspfix with AVX-512 masked (-cpuflags without avx512/avx512icl): its AVX2 kernels"


/* ---------------------------------------------------------------------------
 * Options
 * ------------------------------------------------------------------------- */

/* where the JSON report goes: stdout with --json, the file of --json-file, else nowhere */
static FILE *json_out;

typedef struct Options {
    int runs;
    int frames;           ///< 0: 20 per run at 1080p, 5 at 2160p
    int threads[MAX_TSETS];
    int nb_threads;
    const char *only;     ///< comma-separated ids, NULL: all
    const char *peers;    ///< comma-separated filter names, NULL: all (cspfix always runs)
    int cpu_time;         ///< time with the process CPU clock instead of the wall clock
    int json;
    int quick;
    int verbose;
} Options;

static void usage(FILE *f)
{
    fprintf(f,
            "Usage: cspfix-bench [options]\n"
            "  --runs N         timed runs per filter (default 5; median reported)\n"
            "  --frames N       frames per run (default 20 at 1080p, 5 at 2160p)\n"
            "  --threads LIST   filter-graph thread counts, e.g. 1,all (default 1,all)\n"
            "  --only LIST      conversions to run, e.g. B1,B3 (default all)\n"
            "  --peers LIST     filters to run besides cspfix, e.g. colorspace,copy (default all)\n"
            "  --cpu-time       process CPU time instead of wall time (steadier on a busy machine;\n"
            "                   with N threads it is the sum over threads)\n"
            "  --json           JSON instead of the markdown report\n"
            "  --json-file F    the JSON report into file F as well (for tools/bench-chart.sh)\n"
            "  --quick          small frames, 1 run, 2 frames, 1 thread (a smoke test)\n"
            "  --verbose        libav* log at verbose level (cspfix prints its plans)\n");
}

static int parse_count(const char *s, int min, int max, int *out)
{
    char *end;
    long v = strtol(s, &end, 10);

    if (*s == '\0' || *end != '\0' || v < min || v > max)
        return AVERROR(EINVAL);
    *out = v;
    return 0;
}

static int parse_threads(const char *list, Options *o)
{
    o->nb_threads = 0;
    while (*list) {
        size_t len = strcspn(list, ",");
        char tok[16];
        int n, dup = 0;

        if (!len || len >= sizeof(tok))
            return AVERROR(EINVAL);
        memcpy(tok, list, len);
        tok[len] = '\0';
        list += len + (list[len] == ',');
        if (!strcmp(tok, "all"))
            n = av_cpu_count();
        else if (parse_count(tok, 1, 1024, &n) < 0)
            return AVERROR(EINVAL);
        for (int i = 0; i < o->nb_threads; i++)
            dup |= o->threads[i] == n;
        if (dup)
            continue;
        if (o->nb_threads == MAX_TSETS)
            return AVERROR(EINVAL);
        o->threads[o->nb_threads++] = n;
    }
    return o->nb_threads ? 0 : AVERROR(EINVAL);
}

static int parse_options(int argc, char **argv, Options *o)
{
    int frames_set = 0, runs_set = 0, threads_set = 0;

    *o = (Options){ .runs = 5 };
    if (parse_threads("1,all", o) < 0)
        return AVERROR(EINVAL);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        int ret = 0;

        if (!strcmp(a, "--json")) {
            o->json = 1;
            json_out = stdout;
            continue;
        } else if (!strcmp(a, "--quick")) {
            o->quick = 1;
            continue;
        } else if (!strcmp(a, "--verbose")) {
            o->verbose = 1;
            continue;
        } else if (!strcmp(a, "--cpu-time")) {
            o->cpu_time = 1;
            continue;
        } else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            exit(0);
        }
        if (!v) {
            fprintf(stderr, "cspfix-bench: unknown option or missing value: %s\n", a);
            return AVERROR(EINVAL);
        }
        if (!strcmp(a, "--runs")) {
            ret = parse_count(v, 1, MAX_RUNS, &o->runs);
            runs_set = 1;
        } else if (!strcmp(a, "--frames")) {
            ret = parse_count(v, 1, 10000, &o->frames);
            frames_set = 1;
        } else if (!strcmp(a, "--threads")) {
            ret = parse_threads(v, o);
            threads_set = 1;
        } else if (!strcmp(a, "--only")) {
            o->only = v;
        } else if (!strcmp(a, "--peers")) {
            o->peers = v;
        } else if (!strcmp(a, "--json-file")) {
            if (!(json_out = fopen(v, "w"))) {
                fprintf(stderr, "cspfix-bench: cannot write %s\n", v);
                return AVERROR(errno);
            }
        } else {
            ret = AVERROR(EINVAL);
        }
        if (ret < 0) {
            fprintf(stderr, "cspfix-bench: bad option: %s %s\n", a, v);
            return ret;
        }
        i++;
    }
    if (o->quick) {
        if (!runs_set)
            o->runs = 1;
        if (!frames_set)
            o->frames = 2;
        if (!threads_set)
            parse_threads("1", o);
    }
    return 0;
}

/** 1 if id is in the comma-separated list p (NULL: everything). */
static int in_list(const char *p, const char *id)
{
    size_t n = strlen(id);

    if (!p)
        return 1;
    while (*p) {
        size_t len = strcspn(p, ",");
        if (len == n && !av_strncasecmp(p, id, n))
            return 1;
        p += len + (p[len] == ',');
    }
    return 0;
}

/* ---------------------------------------------------------------------------
 * The input frames: smooth waves plus noise, in-gamut, tagged
 * ------------------------------------------------------------------------- */

/** Integer hash (lowbias32): per-sample noise without state. */
static uint32_t hash32(uint32_t x)
{
    x ^= x >> 16;
    x *= 0x7feb352dU;
    x ^= x >> 15;
    x *= 0x846ca68bU;
    x ^= x >> 16;
    return x;
}

/** Deterministic noise in [-1, 1] for sample (x, y) of channel c. */
static double noise(int x, int y, int c)
{
    uint32_t h = hash32((uint32_t)x * 0x9e3779b1U ^ hash32((uint32_t)y * 4 + c));
    return h / 2147483647.5 - 1.0;
}

/**
 * The test picture at luma position (x, y) of a w x h frame, as non-linear
 * R'G'B' in [0, 1]: a grey ramp left to right under three differently
 * oriented colour waves, plus +-2% noise; every value is a legal RGB colour.
 */
static void pattern_rgb(int x, int y, int w, int h, double rgb[3])
{
    const double u = (double)x / w, v = (double)y / h;
    const double ramp = 0.1 + 0.8 * u;
    double wave[3];

    wave[0] = sin(2 * M_PI * (1.3 * u + 0.4 * v));
    wave[1] = sin(2 * M_PI * (0.7 * u - 1.1 * v) + 1.0);
    wave[2] = cos(2 * M_PI * (0.5 * u + 0.9 * v) + 2.0);
    for (int c = 0; c < 3; c++)
        rgb[c] = av_clipd(ramp + 0.3 * wave[c] + 0.02 * noise(x, y, c), 0.0, 1.0);
}

/** SMPTE ST 2084 inverse EOTF: cd/m2 to signal. */
static double pq_encode(double nits)
{
    const double m1 = 2610.0 / 16384, m2 = 2523.0 / 4096 * 128;
    const double c1 = 3424.0 / 4096, c2 = 2413.0 / 4096 * 32, c3 = 2392.0 / 4096 * 32;
    const double y = pow(FFMAX(nits, 0.0) / 10000, m1);

    return pow((c1 + c2 * y) / (1 + c3 * y), m2);
}

/**
 * Re-encode a BT.709-gamut R'G'B' picture as BT.2020 (the wide-gamut inputs
 * hold colours the BT.709 output can represent, as real content mostly does,
 * so that the peers' outputs can be compared without their different
 * out-of-gamut policies dominating the difference).
 */
static void pattern_to_2020(double rgb[3], enum Pattern pat)
{
    static const double m[3][3] = { /* linear BT.709 to BT.2020, ITU-R BT.2087 */
        { 0.6274, 0.3293, 0.0433 }, { 0.0691, 0.9195, 0.0114 }, { 0.0164, 0.0880, 0.8956 },
    };
    double lin[3];

    for (int c = 0; c < 3; c++)
        lin[c] = pow(rgb[c], 2.4);                              /* BT.1886 display light */
    for (int c = 0; c < 3; c++) {
        double l = m[c][0] * lin[0] + m[c][1] * lin[1] + m[c][2] * lin[2];
        rgb[c] = pat == PAT_709_IN_PQ ? pq_encode(1000 * l) : pow(l, 1 / 2.4);
    }
}

/** Code value of component c (Y, Cb, Cr or R, G, B) of an R'G'B' colour. */
static int sample_code(const AVPixFmtDescriptor *desc, int c, const double rgb[3],
                       const ColorDesc *cd)
{
    const int depth = desc->comp[c].depth, max = (1 << depth) - 1;
    const int full  = cd->range == AVCOL_RANGE_JPEG;
    const double sh = 1 << (depth - 8);
    double e;

    if (desc->flags & AV_PIX_FMT_FLAG_RGB)
        return full ? lrint(rgb[c] * max) : lrint((16 + 219 * rgb[c]) * sh);

    {
        const AVLumaCoefficients *lc = av_csp_luma_coeffs_from_avcsp(cd->csp);
        const double kr = av_q2d(lc->cr), kb = av_q2d(lc->cb), kg = 1.0 - kr - kb;
        const double y = kr * rgb[0] + kg * rgb[1] + kb * rgb[2];

        if (c == 0)
            return full ? lrint(y * max) : lrint((16 + 219 * y) * sh);
        e = c == 1 ? (rgb[2] - y) / (2 * (1 - kb)) : (rgb[0] - y) / (2 * (1 - kr));
        return av_clip(full ? lrint((1 << (depth - 1)) + e * max)
                            : lrint((128 + 224 * e) * sh), 0, max);
    }
}

/** Write the test picture into every component of f. */
static void fill_pattern(AVFrame *f, const ColorDesc *cd, enum Pattern pat)
{
    const AVPixFmtDescriptor *desc = av_pix_fmt_desc_get(f->format);
    const int rgb = !!(desc->flags & AV_PIX_FMT_FLAG_RGB);
    uint16_t *row = av_malloc_array(f->width, sizeof(*row));

    if (!row)
        return;
    for (int c = 0; c < desc->nb_components; c++) {
        const int chroma = !rgb && (c == 1 || c == 2);
        const int sw = chroma ? desc->log2_chroma_w : 0, sh = chroma ? desc->log2_chroma_h : 0;
        const int cw = AV_CEIL_RSHIFT(f->width, sw), ch = AV_CEIL_RSHIFT(f->height, sh);

        for (int y = 0; y < ch; y++) {
            for (int x = 0; x < cw; x++) {
                double px[3];
                pattern_rgb(x << sw, y << sh, f->width, f->height, px);
                if (pat != PAT_SIGNAL)
                    pattern_to_2020(px, pat);
                row[x] = sample_code(desc, c, px, cd);
            }
            av_write_image_line2(row, f->data, f->linesize, desc, 0, y, c, cw, 2);
        }
    }
    av_free(row);
}

/** An Adobe RGB (1998) ICC profile (its primaries, D65, the 563/256 power), as a camera or
 * an image editor writes one (B11). */
static int add_adobe_icc(AVFrame *f)
{
    static const cmsCIExyY d65 = { 0.3127, 0.3290, 1.0 };
    static const cmsCIExyYTRIPLE adobe = { { 0.64, 0.33, 1 }, { 0.21, 0.71, 1 }, { 0.15, 0.06, 1 } };
    cmsToneCurve *t = cmsBuildGamma(NULL, 563.0 / 256.0);
    cmsToneCurve *c[3] = { t, t, t };
    cmsHPROFILE h = t ? cmsCreateRGBProfile(&d65, &adobe, c) : NULL;
    cmsUInt32Number size = 0;
    AVFrameSideData *sd = NULL;

    if (h && cmsSaveProfileToMem(h, NULL, &size) &&
        (sd = av_frame_new_side_data(f, AV_FRAME_DATA_ICC_PROFILE, size)) &&
        !cmsSaveProfileToMem(h, sd->data, &size))
        sd = NULL;
    if (h)
        cmsCloseProfile(h);
    if (t)
        cmsFreeToneCurve(t);
    return sd ? 0 : AVERROR(ENOMEM);
}

/** HDR10 side data: a 1000 cd/m2 BT.2020 mastering display, MaxCLL 1000, MaxFALL 400;
 * with lie, a 10000 cd/m2 display and MaxCLL 10000 (B10: metadata that lies). */
static int add_hdr10_side_data(AVFrame *f, int lie)
{
    static const double prim[3][2] = { { 0.708, 0.292 }, { 0.170, 0.797 }, { 0.131, 0.046 } };
    AVMasteringDisplayMetadata *md = av_mastering_display_metadata_create_side_data(f);
    AVContentLightMetadata *cll = av_content_light_metadata_create_side_data(f);

    if (!md || !cll)
        return AVERROR(ENOMEM);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 2; j++)
            md->display_primaries[i][j] = av_make_q(lrint(prim[i][j] * 50000), 50000);
    md->white_point[0] = av_make_q(15635, 50000);
    md->white_point[1] = av_make_q(16450, 50000);
    md->min_luminance  = av_make_q(1, 10000);
    md->max_luminance  = av_make_q(lie ? 10000 : 1000, 1);
    md->has_primaries  = 1;
    md->has_luminance  = 1;
    cll->MaxCLL  = lie ? 10000 : 1000;
    cll->MaxFALL = 400;
    return 0;
}

/** A Dolby Vision profile 5 RPU: IPT-PQ-c2 colour, 4 polynomial luma pieces (orders 1 and
 * 2), one MMR piece of order 3 per chroma component (B9). */
static int add_dovi_rpu(AVFrame *f)
{
    static const int ycc[9] = { 8192, 799, 1681, 8192, -933, 1091, 8192, 267, -5545 };
    static const int lms[9] = { 17081, -349, -349, -349, 17081, -349, -349, -349, 17081 };
    const int den = 23;
    size_t size;
    AVDOVIMetadata *md = av_dovi_metadata_alloc(&size);
    AVDOVIRpuDataHeader *h;
    AVDOVIDataMapping *m;
    AVDOVIColorMetadata *col;
    AVBufferRef *buf;

    if (!md)
        return AVERROR(ENOMEM);
    if (!(buf = av_buffer_create((uint8_t *)md, size, NULL, NULL, 0))) {
        av_free(md);
        return AVERROR(ENOMEM);
    }
    h = av_dovi_get_header(md);
    m = av_dovi_get_mapping(md);
    col = av_dovi_get_color(md);
    h->rpu_type = 2;
    h->vdr_rpu_profile = 0;
    h->bl_bit_depth = h->el_bit_depth = 10;
    h->vdr_bit_depth = 12;
    h->coef_log2_denom = den;
    h->disable_residual_flag = 1;
    h->bl_video_full_range_flag = 1;
    m->nlq_method_idc = AV_DOVI_NLQ_NONE;
    /* luma: 4 pieces, a slight S curve */
    m->curves[0].num_pivots = 5;
    for (int i = 0; i < 5; i++)
        m->curves[0].pivots[i] = i * 1023 / 4;
    for (int k = 0; k < 4; k++) {
        const double x0 = k / 4.0, g = k == 0 || k == 3 ? 0.9 : 1.05;
        m->curves[0].mapping_idc[k] = AV_DOVI_MAPPING_POLYNOMIAL;
        m->curves[0].poly_order[k]  = 1 + (k & 1);
        m->curves[0].poly_coef[k][0] = llrint((x0 - g * x0 + (k >= 2 ? 0.05 : 0.0)) * (1 << den));
        m->curves[0].poly_coef[k][1] = llrint(g * (1 << den));
        m->curves[0].poly_coef[k][2] = k & 1 ? llrint(-0.02 * (1 << den)) : 0;
    }
    /* chroma: MMR of order 3, near the identity on the own component */
    for (int c = 1; c < 3; c++) {
        AVDOVIReshapingCurve *cv = &m->curves[c];
        cv->num_pivots = 2;
        cv->pivots[0] = 0;
        cv->pivots[1] = 1023;
        cv->mapping_idc[0] = AV_DOVI_MAPPING_MMR;
        cv->mmr_order[0] = 3;
        cv->mmr_constant[0] = llrint(0.01 * (1 << den));
        for (int o = 0; o < 3; o++)
            for (int i = 0; i < 7; i++)
                cv->mmr_coef[0][o][i] = llrint((i == c ? (o ? 0.0 : 0.98) : 0.01 / (o + 1)) *
                                               (1 << den));
    }
    for (int i = 0; i < 9; i++) {
        col->ycc_to_rgb_matrix[i] = av_make_q(ycc[i], 8192);
        col->rgb_to_lms_matrix[i] = av_make_q(lms[i], 16384);
    }
    col->ycc_to_rgb_offset[0] = av_make_q(0, 1 << 28);
    col->ycc_to_rgb_offset[1] = col->ycc_to_rgb_offset[2] = av_make_q(1 << 27, 1 << 28);
    col->source_max_pq = 3079;
    col->source_min_pq = 62;
    if (!av_frame_new_side_data_from_buf(f, AV_FRAME_DATA_DOVI_METADATA, buf)) {
        av_buffer_unref(&buf);
        return AVERROR(ENOMEM);
    }
    return 0;
}

/** A frame with its own buffers, planes and lines 64-byte aligned (as zimg wants). */
static AVFrame *aligned_frame(enum AVPixelFormat fmt, int w, int h)
{
    AVFrame *f = av_frame_alloc();

    if (!f)
        return NULL;
    f->format = fmt;
    f->width  = w;
    f->height = h;
    if (av_frame_get_buffer(f, 64) < 0)
        av_frame_free(&f);
    return f;
}

/** The tagged input frame of conversion c at w x h. */
static AVFrame *make_input(const ConvDef *c, int w, int h)
{
    const AVPixFmtDescriptor *desc = av_pix_fmt_desc_get(c->in_fmt);
    AVFrame *f = aligned_frame(c->in_fmt, w, h);

    if (!f)
        return NULL;
    /* zeroed: av_write_image_line2() ORs bits into the samples */
    for (size_t i = 0; i < FF_ARRAY_ELEMS(f->buf) && f->buf[i]; i++)
        memset(f->buf[i]->data, 0, f->buf[i]->size);
    f->color_primaries     = c->in.prim;
    f->color_trc           = c->in.trc;
    f->colorspace          = c->in.csp;
    f->color_range         = c->in.range;
    f->sample_aspect_ratio = (AVRational){ 1, 1 };
    if (!(desc->flags & AV_PIX_FMT_FLAG_RGB) && desc->log2_chroma_h)
        f->chroma_location = AVCHROMA_LOC_LEFT;
    {
        /* B9: the pattern's codes as BT.2020 Y'CbCr, tagged ipt-c2 (the RPU's signal) */
        ColorDesc fill = c->in;
        if (fill.csp == AVCOL_SPC_IPT_C2)
            fill.csp = AVCOL_SPC_BT2020_NCL;
        fill_pattern(f, &fill, c->pattern);
    }
    if (c->hdr10 == 4 ? add_adobe_icc(f) < 0 : c->hdr10 == 3 ? add_dovi_rpu(f) < 0 :
        c->hdr10 && add_hdr10_side_data(f, c->hdr10 == 2) < 0)
        av_frame_free(&f);
    return f;
}

/* ---------------------------------------------------------------------------
 * Graphs
 * ------------------------------------------------------------------------- */

typedef struct Graph {
    AVFilterGraph *graph;
    AVFilterContext *src, *sink;
    AVFrame *tmp;         ///< output frames land here and are released at once
    int64_t pts;
} Graph;

static void graph_close(Graph *g)
{
    avfilter_graph_free(&g->graph);
    av_frame_free(&g->tmp);
    memset(g, 0, sizeof(*g));
}

/** buffer (described like in) -> filters -> buffersink (out_fmt only), configured. */
static int graph_open(Graph *g, const AVFrame *in, enum AVPixelFormat out_fmt,
                      const char *filters, int threads)
{
    AVFilterInOut *outputs = NULL, *inputs = NULL;
    char args[256];
    int ret;

    memset(g, 0, sizeof(*g));
    g->graph = avfilter_graph_alloc();
    g->tmp   = av_frame_alloc();
    if (!g->graph || !g->tmp) {
        ret = AVERROR(ENOMEM);
        goto fail;
    }
    g->graph->nb_threads = threads;
    snprintf(args, sizeof(args),
             "video_size=%dx%d:pix_fmt=%s:time_base=1/25:pixel_aspect=1/1:colorspace=%d:range=%d",
             in->width, in->height, av_get_pix_fmt_name(in->format), in->colorspace,
             in->color_range);
    if ((ret = avfilter_graph_create_filter(&g->src, avfilter_get_by_name("buffer"), "in",
                                            args, NULL, g->graph)) < 0)
        goto fail;
    /* The sink takes only the conversion's output format, so X must produce it:
     * nothing may be converted after X without showing up as an auto_ filter. */
    g->sink = avfilter_graph_alloc_filter(g->graph, avfilter_get_by_name("buffersink"), "out");
    if (!g->sink) {
        ret = AVERROR(ENOMEM);
        goto fail;
    }
    if ((ret = av_opt_set(g->sink, "pixel_formats", av_get_pix_fmt_name(out_fmt),
                          AV_OPT_SEARCH_CHILDREN)) < 0 ||
        (ret = avfilter_init_dict(g->sink, NULL)) < 0)
        goto fail;

    outputs = avfilter_inout_alloc();
    inputs  = avfilter_inout_alloc();
    if (!outputs || !inputs) {
        ret = AVERROR(ENOMEM);
        goto fail;
    }
    outputs->name       = av_strdup("in");
    outputs->filter_ctx = g->src;
    inputs->name        = av_strdup("out");
    inputs->filter_ctx  = g->sink;
    if ((ret = avfilter_graph_parse_ptr(g->graph, filters, &inputs, &outputs, NULL)) < 0 ||
        (ret = avfilter_graph_config(g->graph, NULL)) < 0)
        goto fail;
    avfilter_inout_free(&inputs);
    avfilter_inout_free(&outputs);
    return 0;
fail:
    avfilter_inout_free(&inputs);
    avfilter_inout_free(&outputs);
    graph_close(g);
    return ret;
}

/** Names of the conversion filters libavfilter inserted by itself ("" if none). */
static void graph_auto_filters(const Graph *g, char *buf, size_t size)
{
    buf[0] = '\0';
    for (unsigned i = 0; i < g->graph->nb_filters; i++) {
        const AVFilterContext *f = g->graph->filters[i];
        if (strncmp(f->name, "auto_", 5))
            continue;
        av_strlcatf(buf, size, "%s%s (%s -> %s)", buf[0] ? ", " : "", f->name,
                    av_get_pix_fmt_name(f->inputs[0]->format),
                    av_get_pix_fmt_name(f->outputs[0]->format));
    }
}

/** Pull every frame the sink has; the first one goes to *keep if keep && !*keep. */
static int graph_drain(Graph *g, AVFrame **keep, int *got)
{
    int ret;

    while ((ret = av_buffersink_get_frame(g->sink, g->tmp)) >= 0) {
        (*got)++;
        if (keep && !*keep) {
            if (!(*keep = av_frame_alloc()))
                return AVERROR(ENOMEM);
            av_frame_move_ref(*keep, g->tmp);
        } else {
            av_frame_unref(g->tmp);
        }
    }
    return ret == AVERROR(EAGAIN) ? 0 : ret;
}

/** Push in n times (by reference) and pull all outputs; returns the number pulled. */
static int graph_run(Graph *g, AVFrame *in, int n, AVFrame **keep)
{
    int got = 0, ret;

    for (int i = 0; i < n; i++) {
        in->pts = g->pts++;
        if ((ret = av_buffersrc_add_frame_flags(g->src, in, AV_BUFFERSRC_FLAG_KEEP_REF)) < 0 ||
            (ret = graph_drain(g, keep, &got)) < 0)
            return ret;
    }
    return got;
}

/* ---------------------------------------------------------------------------
 * zimg's API directly (the zimg-avx2 lines)
 * ------------------------------------------------------------------------- */

typedef struct ZimgRun {
    zimg_filter_graph *graph;
    void *tmp;
    AVFrame *out;         ///< the output, reused (the input is read where it is: 64-byte aligned)
    zimg_image_buffer_const src;
    zimg_image_buffer dst;
} ZimgRun;

static void zpeer_close(ZimgRun *z)
{
    zimg_filter_graph_free(z->graph);
    free(z->tmp);
    av_frame_free(&z->out);
    memset(z, 0, sizeof(*z));
}

/** zimg's description of planar fmt with the colours cd; < 0 if it has none. */
static int zpeer_format(zimg_image_format *f, enum AVPixelFormat fmt, int w, int h,
                       const ColorDesc *cd)
{
    const AVPixFmtDescriptor *d = av_pix_fmt_desc_get(fmt);
    const int rgb = !!(d->flags & AV_PIX_FMT_FLAG_RGB);

    if (!(d->flags & AV_PIX_FMT_FLAG_PLANAR) || (d->flags & AV_PIX_FMT_FLAG_BE) ||
        d->nb_components != 3 || d->comp[0].depth > 16 || (d->flags & AV_PIX_FMT_FLAG_FLOAT))
        return AVERROR(ENOSYS);
    zimg_image_format_default(f, ZIMG_API_VERSION);
    f->width        = w;
    f->height       = h;
    f->pixel_type   = d->comp[0].depth > 8 ? ZIMG_PIXEL_WORD : ZIMG_PIXEL_BYTE;
    f->depth        = d->comp[0].depth;
    f->subsample_w  = d->log2_chroma_w;
    f->subsample_h  = d->log2_chroma_h;
    f->color_family = rgb ? ZIMG_COLOR_RGB : ZIMG_COLOR_YUV;
    /* zimg numbers these as H.273 does, like the AVColor* enums */
    f->matrix_coefficients      = rgb ? ZIMG_MATRIX_RGB : (zimg_matrix_coefficients_e)cd->csp;
    f->transfer_characteristics = (zimg_transfer_characteristics_e)cd->trc;
    f->color_primaries          = (zimg_color_primaries_e)cd->prim;
    f->pixel_range     = cd->range == AVCOL_RANGE_JPEG ? ZIMG_RANGE_FULL : ZIMG_RANGE_LIMITED;
    f->chroma_location = ZIMG_CHROMA_LEFT;
    return 0;
}

/* zimg's planes are Y, U, V or R, G, B; AVFrame's gbrp ones G, B, R */
static int zpeer_plane(const AVFrame *f, int i)
{
    return av_pix_fmt_desc_get(f->format)->flags & AV_PIX_FMT_FLAG_RGB ? (i + 2) % 3 : i;
}

/** Set up the zimg line; on failure or n/a, err says why and z stays closed. */
static void zpeer_open(ZimgRun *z, const ConvDef *c, const AVFrame *in, int threads,
                      int dither, char *err, size_t size)
{
    zimg_image_format src, dst;
    zimg_graph_builder_params p;
    size_t tmp;

    memset(z, 0, sizeof(*z));
    if (threads != 1) {
        snprintf(err, size, "n/a: one thread only (zimg's API converts in the calling thread)");
        return;
    }
    if (zpeer_format(&src, c->in_fmt, in->width, in->height, &c->in) < 0 ||
        zpeer_format(&dst, c->out_fmt, in->width, in->height, &c->out) < 0) {
        snprintf(err, size, "n/a: planar formats only");
        return;
    }
    zimg_graph_builder_params_default(&p, ZIMG_API_VERSION);
    p.resample_filter         = ZIMG_RESIZE_BILINEAR;
    p.resample_filter_uv      = ZIMG_RESIZE_BILINEAR;
    p.dither_type             = (zimg_dither_type_e)dither;
    p.cpu_type                = ZIMG_CPU_AUTO;
    p.allow_approximate_gamma = 1;
    z->out = aligned_frame(c->out_fmt, in->width, in->height);
    if (!z->out) {
        snprintf(err, size, "failed: out of memory");
        zpeer_close(z);
        return;
    }
    z->out->color_primaries = c->out.prim;
    z->out->color_trc       = c->out.trc;
    z->out->colorspace      = c->out.csp;
    z->out->color_range     = c->out.range;
    if (!(z->graph = zimg_filter_graph_build(&src, &dst, &p)) ||
        zimg_filter_graph_get_tmp_size(z->graph, &tmp) ||
        posix_memalign(&z->tmp, 64, tmp)) {
        char msg[128];
        zimg_get_last_error(msg, sizeof(msg));
        snprintf(err, size, "failed to configure zimg: %s", msg);
        zpeer_close(z);
        return;
    }
    z->src.version = ZIMG_API_VERSION;
    z->dst.version = ZIMG_API_VERSION;
    for (int i = 0; i < 3; i++) {
        const int a = zpeer_plane(in, i), b = zpeer_plane(z->out, i);
        z->src.plane[i].data   = in->data[a];
        z->src.plane[i].stride = in->linesize[a];
        z->src.plane[i].mask   = ZIMG_BUFFER_MAX;
        z->dst.plane[i].data   = z->out->data[b];
        z->dst.plane[i].stride = z->out->linesize[b];
        z->dst.plane[i].mask   = ZIMG_BUFFER_MAX;
    }
}

/** Convert the input n times; the first output goes to *keep if keep && !*keep. */
static int zpeer_run(ZimgRun *z, int n, AVFrame **keep)
{
    for (int i = 0; i < n; i++) {
        if (zimg_filter_graph_process(z->graph, &z->src, &z->dst, z->tmp,
                                      NULL, NULL, NULL, NULL))
            return AVERROR_EXTERNAL;
        if (keep && !*keep && !(*keep = av_frame_clone(z->out)))
            return AVERROR(ENOMEM);
    }
    return n;
}

/* ---------------------------------------------------------------------------
 * Measuring
 * ------------------------------------------------------------------------- */

typedef struct Result {
    const PeerDef *def;
    Graph g;
    ZimgRun z;            ///< the zimg-avx2 line instead of g
    char error[160];      ///< set if the graph failed
    char autos[256];      ///< auto-inserted filters
    double ms[MAX_RUNS];  ///< ms per frame of each run
    double median;        ///< median ms per frame
    double first_ms;      ///< the first WARMUP frames through the new graph (its setup)
    AVFrame *out;         ///< first output frame (for the difference)
    int maxdiff[4];
    double meandiff;
    int nb_diff;          ///< components compared, 0: no comparison
} Result;

typedef struct Bench {
    const Options *opt;
    const ConvDef *conv;
    AVFrame *in;
    int threads, frames;
    Result res[MAX_PEERS + 2];
    int nb_res;
    PeerDef avx2;         ///< the cspfix-avx2 line of conv
} Bench;

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(const double *v, int n)
{
    double s[MAX_RUNS];

    memcpy(s, v, n * sizeof(*s));
    qsort(s, n, sizeof(*s), cmp_double);
    return n & 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

/** Build and configure the graph of every peer that can express the conversion. */
static void open_peers(Bench *b)
{
    const ConvDef *c = b->conv;

    b->nb_res = 0;
    for (int i = 0; i <= MAX_PEERS + 1; i++) {
        const PeerDef *p = i < MAX_PEERS ? &c->peers[i] : i == MAX_PEERS ? &b->avx2 : &copy_peer;
        const int flags = av_get_cpu_flags();
        Result *r;
        int ret;

        if (!p->name || (i && !in_list(b->opt->peers, p->name)) || (c->options && i >= MAX_PEERS))
            continue;
        if (p->cpumask && !(flags & p->cpumask))
            continue;                   /* nothing to mask: the cspfix line is this line */
        r = &b->res[b->nb_res++];
        memset(r, 0, sizeof(*r));
        r->def = p;
        if (p->zimg) {
            zpeer_open(&r->z, c, b->in, b->threads, p->zdither, r->error, sizeof(r->error));
            continue;
        }
        if (!p->filters)
            continue;
        if (p->cpumask)
            av_force_cpu_flags(flags & ~p->cpumask);
        ret = graph_open(&r->g, b->in, p == &copy_peer ? c->in_fmt : c->out_fmt,
                         p->filters, b->threads);
        if (p->cpumask)
            av_force_cpu_flags(flags);  /* back to the flags before (CSPFIX_BENCH_CPUFLAGS) */
        if (ret < 0) {
            snprintf(r->error, sizeof(r->error), "failed to configure: %s", av_err2str(ret));
            continue;
        }
        graph_auto_filters(&r->g, r->autos, sizeof(r->autos));
    }
}

/** Microseconds on the bench's clock (wall, or process CPU time). */
static int64_t now_us(const Bench *b)
{
    struct timespec ts;

    if (!b->opt->cpu_time || clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts))
        return av_gettime_relative();
    return ts.tv_sec * INT64_C(1000000) + ts.tv_nsec / 1000;
}

/** 1 if the line has something to run (a graph, or zimg's). */
static int can_run(const Result *r)
{
    return r->g.graph || r->z.graph;
}

/** Push the input n times through the line; the number of outputs, as graph_run(). */
static int line_run(Bench *b, Result *r, int n, AVFrame **keep)
{
    return r->z.graph ? zpeer_run(&r->z, n, keep) : graph_run(&r->g, b->in, n, keep);
}

/** One run of one peer: warm-up frames, then n timed frames; ms per frame. */
static int time_run(Bench *b, Result *r, double *ms)
{
    int64_t t0, t1;
    int got;

    t0 = av_gettime_relative();
    if ((got = line_run(b, r, WARMUP, &r->out)) < 0)
        return got;
    if (!r->first_ms)
        r->first_ms = (av_gettime_relative() - t0) / 1000.0;
    t0 = now_us(b);
    got = line_run(b, r, b->frames, NULL);
    t1 = now_us(b);
    if (got < 0)
        return got;
    if (got != b->frames)
        return AVERROR_BUG;
    *ms = (t1 - t0) / 1000.0 / b->frames;
    return 0;
}

/** Run run of every peer of b, one after another. */
static void measure_run(Bench *b, int run)
{
    const int tty = isatty(2);

    if (!tty)
        fprintf(stderr, "%s, %d thread(s): run %d/%d\n", b->conv->id, b->threads,
                run + 1, b->opt->runs);
    for (int i = 0; i < b->nb_res; i++) {
        Result *r = &b->res[i];
        int ret;

        if (!can_run(r))
            continue;
        if (tty)
            fprintf(stderr, "\r%s, %d thread(s): run %d/%d %-18s", b->conv->id, b->threads,
                    run + 1, b->opt->runs, r->def->name);
        ret = time_run(b, r, &r->ms[run]);
        if (ret < 0) {
            snprintf(r->error, sizeof(r->error), "failed while running: %s",
                     ret == AVERROR_BUG ? "frames held back" : av_err2str(ret));
            graph_close(&r->g);
            zpeer_close(&r->z);
        }
    }
}

/*
 * All runs of the n thread counts of one conversion: within a run every peer takes its
 * turn at every thread count, so that ratios, between peers and between thread counts,
 * compare one stretch of time (on a shared machine, its speed drifts over seconds).
 */
static void measure(Bench *b, int n)
{
    for (int run = 0; run < b->opt->runs; run++)
        for (int t = 0; t < n; t++)
            measure_run(&b[t], run);
    if (isatty(2))
        fprintf(stderr, "\r%-60s\r", "");
    for (int t = 0; t < n; t++)
        for (int i = 0; i < b[t].nb_res; i++)
            if (can_run(&b[t].res[i]))
                b[t].res[i].median = median(b[t].res[i].ms, b->opt->runs);
}

/** Max abs difference per component (and mean over all) of out against ref. */
static void compare(Result *r, const AVFrame *ref)
{
    const AVFrame *o = r->out;
    const AVPixFmtDescriptor *desc = av_pix_fmt_desc_get(ref->format);
    uint16_t *la, *lb;
    double sum = 0;
    int64_t count = 0;

    if (!o || o->format != ref->format || o->width != ref->width || o->height != ref->height)
        return;
    la = av_malloc_array(ref->width, sizeof(*la));
    lb = av_malloc_array(ref->width, sizeof(*lb));
    if (la && lb) {
        for (int c = 0; c < desc->nb_components; c++) {
            const int chroma = !(desc->flags & AV_PIX_FMT_FLAG_RGB) && (c == 1 || c == 2);
            const int cw = AV_CEIL_RSHIFT(ref->width,  chroma ? desc->log2_chroma_w : 0);
            const int ch = AV_CEIL_RSHIFT(ref->height, chroma ? desc->log2_chroma_h : 0);
            int m = 0;

            for (int y = 0; y < ch; y++) {
                av_read_image_line2(la, (const uint8_t **)ref->data, ref->linesize, desc,
                                    0, y, c, cw, 0, 2);
                av_read_image_line2(lb, (const uint8_t **)o->data, o->linesize, desc,
                                    0, y, c, cw, 0, 2);
                for (int x = 0; x < cw; x++) {
                    int d = abs(la[x] - lb[x]);
                    m    = FFMAX(m, d);
                    sum += d;
                }
            }
            count += (int64_t)cw * ch;
            r->maxdiff[c] = m;
        }
        r->nb_diff  = desc->nb_components;
        r->meandiff = sum / count;
    }
    av_free(la);
    av_free(lb);
}

/** Compare each peer's output with cspfix's (res[0]); not the copy. */
static void compare_peers(Bench *b)
{
    const AVFrame *ref = b->res[0].out;

    for (int i = 1; ref && i < b->nb_res; i++)
        if (b->res[i].def != &copy_peer)
            compare(&b->res[i], ref);
}

static void free_results(Bench *b)
{
    for (int i = 0; i < b->nb_res; i++) {
        graph_close(&b->res[i].g);
        zpeer_close(&b->res[i].z);
        av_frame_free(&b->res[i].out);
    }
    b->nb_res = 0;
}

/* ---------------------------------------------------------------------------
 * Report
 * ------------------------------------------------------------------------- */

/** the CPU's AVX-512, before CSPFIX_BENCH_CPUFLAGS (zimg looks at the CPU itself) */
static int host_avx512;

static const struct { int flag; const char *name; } cpu_flag_names[] = {
#if defined(__x86_64__) || defined(__i386__)
    { AV_CPU_FLAG_MMX, "mmx" },       { AV_CPU_FLAG_MMXEXT, "mmxext" },
    { AV_CPU_FLAG_SSE, "sse" },       { AV_CPU_FLAG_SSE2, "sse2" },
    { AV_CPU_FLAG_SSE2SLOW, "sse2slow" }, { AV_CPU_FLAG_SSE3, "sse3" },
    { AV_CPU_FLAG_SSE3SLOW, "sse3slow" }, { AV_CPU_FLAG_SSSE3, "ssse3" },
    { AV_CPU_FLAG_SSSE3SLOW, "ssse3slow" }, { AV_CPU_FLAG_ATOM, "atom" },
    { AV_CPU_FLAG_SSE4, "sse4.1" },   { AV_CPU_FLAG_SSE42, "sse4.2" },
    { AV_CPU_FLAG_AVX, "avx" },       { AV_CPU_FLAG_AVXSLOW, "avxslow" },
    { AV_CPU_FLAG_XOP, "xop" },       { AV_CPU_FLAG_FMA4, "fma4" },
    { AV_CPU_FLAG_3DNOW, "3dnow" },   { AV_CPU_FLAG_3DNOWEXT, "3dnowext" },
    { AV_CPU_FLAG_CMOV, "cmov" },     { AV_CPU_FLAG_AVX2, "avx2" },
    { AV_CPU_FLAG_FMA3, "fma3" },     { AV_CPU_FLAG_BMI1, "bmi1" },
    { AV_CPU_FLAG_BMI2, "bmi2" },     { AV_CPU_FLAG_AESNI, "aesni" },
    { AV_CPU_FLAG_AVX512, "avx512" }, { AV_CPU_FLAG_AVX512ICL, "avx512icl" },
    { AV_CPU_FLAG_SLOW_GATHER, "slowgather" },
#elif defined(__aarch64__) || defined(__arm__)
    { AV_CPU_FLAG_ARMV8, "armv8" },   { AV_CPU_FLAG_NEON, "neon" },
    { AV_CPU_FLAG_VFP, "vfp" },       { AV_CPU_FLAG_DOTPROD, "dotprod" },
    { AV_CPU_FLAG_I8MM, "i8mm" },     { AV_CPU_FLAG_SVE, "sve" },
    { AV_CPU_FLAG_SVE2, "sve2" },
#endif
    { 0, NULL }
};

static void cpu_flags_string(char *buf, size_t size)
{
    int flags = av_get_cpu_flags();

    buf[0] = '\0';
    for (int i = 0; cpu_flag_names[i].name; i++)
        if (flags & cpu_flag_names[i].flag)
            av_strlcatf(buf, size, "%s%s", buf[0] ? " " : "", cpu_flag_names[i].name);
    av_strlcatf(buf, size, "%s(0x%x)", buf[0] ? " " : "", flags);
}

/** The CPU model from /proc/cpuinfo, or "unknown". */
static void cpu_model(char *buf, size_t size)
{
    FILE *f = fopen("/proc/cpuinfo", "r");
    char line[512];

    av_strlcpy(buf, "unknown", size);
    if (!f)
        return;
    while (fgets(line, sizeof(line), f)) {
        char *colon = strchr(line, ':');
        if (colon && !strncmp(line, "model name", 10)) {
            colon += 1 + (colon[1] == ' ');
            colon[strcspn(colon, "\n")] = '\0';
            av_strlcpy(buf, colon, size);
            break;
        }
    }
    fclose(f);
}

/** The 1, 5 and 15 minute load averages, or "unknown": other work on the machine skews timings. */
static void load_average(char *buf, size_t size)
{
    FILE *f = fopen("/proc/loadavg", "r");
    double l[3];

    av_strlcpy(buf, "unknown", size);
    if (!f)
        return;
    if (fscanf(f, "%lf %lf %lf", &l[0], &l[1], &l[2]) == 3)
        snprintf(buf, size, "%.2f %.2f %.2f", l[0], l[1], l[2]);
    fclose(f);
}

static void json_string(const char *s)
{
    fputc('"', json_out);
    for (; s && *s; s++) {
        if (*s == '"' || *s == '\\')
            fprintf(json_out, "\\%c", *s);
        else if ((unsigned char)*s < 0x20)
            fprintf(json_out, "\\u%04x", *s);
        else
            fputc(*s, json_out);
    }
    fputc('"', json_out);
}

static void print_header(const Options *o)
{
    char flags[512], model[256], load[64], threads[64] = "";

    cpu_flags_string(flags, sizeof(flags));
    cpu_model(model, sizeof(model));
    load_average(load, sizeof(load));
    for (int i = 0; i < o->nb_threads; i++)
        av_strlcatf(threads, sizeof(threads), "%s%d", i ? "," : "", o->threads[i]);
    if (json_out) {
        fprintf(json_out, "{\n  \"ffmpeg\": ");
        json_string(av_version_info());
        fprintf(json_out, ",\n  \"libavfilter\": \"%d.%d.%d\",\n  \"cpu\": ",
               AV_VERSION_MAJOR(avfilter_version()), AV_VERSION_MINOR(avfilter_version()),
               AV_VERSION_MICRO(avfilter_version()));
        json_string(model);
        fprintf(json_out, ",\n  \"cpu_flags\": ");
        json_string(flags);
        fprintf(json_out, ",\n  \"avx512\": %s", av_get_cpu_flags() & AV_CPU_FLAG_AVX512 ? "true" : "false");
        fprintf(json_out, ",\n  \"load_average_start\": ");
        json_string(load);
        fprintf(json_out, ",\n  \"nproc\": %d,\n  \"runs\": %d,\n  \"warmup\": %d,\n  \"quick\": %s,\n"
               "  \"results\": [", av_cpu_count(), o->runs, WARMUP, o->quick ? "true" : "false");
        if (o->json)
            return;
    }
    printf("# cspfix-bench\n\n");
    printf("- FFmpeg %s (libavfilter %d.%d.%d)\n", av_version_info(),
           AV_VERSION_MAJOR(avfilter_version()), AV_VERSION_MINOR(avfilter_version()),
           AV_VERSION_MICRO(avfilter_version()));
    printf("- CPU: %s, %d logical cores\n", model, av_cpu_count());
    printf("- CPU flags (av_get_cpu_flags): %s\n", flags);
    if (av_get_cpu_flags() & AV_CPU_FLAG_AVX512)
        printf("- SIMD: cspfix runs its AVX-512 kernels where it has them (AVX-512 ICL ones "
               "too: %s), AVX2+FMA3 ones elsewhere; the cspfix-avx2 line is the same graph with "
               "AVX-512 masked\n",
               av_get_cpu_flags() & AV_CPU_FLAG_AVX512ICL ? "yes" : "no, not in the CPU flags");
    else
        printf("- SIMD: cspfix at most AVX2+FMA3 (no AVX-512 in the CPU flags%s: its AVX-512 "
               "kernels are skipped, and there is no cspfix-avx2 line)\n",
               host_avx512 ? ", masked by CSPFIX_BENCH_CPUFLAGS" : "");
    printf("- peers: zscale asks zimg for ZIMG_CPU_AUTO_64B, %s; zimg-avx2 is the same zimg "
           "conversion at AVX2 at most\n", host_avx512 ?
           "so on this CPU (AVX-512) it runs zimg's AVX-512 kernels" :
           "which is AVX2 at most on this CPU (no AVX-512)");
    printf("- load average at start: %s (other work on the machine skews the timings)\n", load);
    printf("- clock: %s\n", o->cpu_time ? "process CPU time (--cpu-time), summed over threads" :
           "wall time");
    printf("- threads (AVFilterGraph.nb_threads): %s; runs: %d (median); frames per run: ",
           threads, o->runs);
    if (o->frames)
        printf("%d", o->frames);
    else
        printf("20 (1080p), 5 (2160p)");
    printf(", after %d warm-up frames\n", WARMUP);
    if (o->quick)
        printf("- **quick mode: %dx%d frames (2160p ones at twice that), not representative**\n",
               QUICK_W, QUICK_H);
    printf("- ms/frame: the time from the first push to the last pulled frame of a run, "
           "divided by the frames; the input frame is made once and pushed by reference.\n");
    printf("- speed-up: peer's median ms / cspfix's median ms, same process and runs "
           "(> 1: cspfix is faster; against copy, cspfix's fraction of copy speed).\n");
    printf("- max |d|: max abs difference of the peer's output from cspfix's per component "
           "(Y/U/V), in output codes, and the mean over all samples.\n");
    printf("- copy: the input frame through the `copy` filter (av_frame_copy into a pooled "
           "frame; same graph overhead, not threaded).\n\n");
    printf("| conv | thr | filter | ms/frame | Mpix/s | cspfix speed-up | max \\|d\\| vs cspfix (mean) | notes |\n");
    printf("|------|----:|--------|---------:|-------:|----------------:|----------------------------|-------|\n");
}

/** The options section's own table: its ratio is the other way round. */
static void print_options_header(void)
{
    printf("\n## Options\n\n");
    printf("Each line is cspfix (or a peer) on the conversion of its id with one option changed; "
           "its ratio is the line's median ms / the first line's (cspfix with its defaults), "
           "same process and runs: > 1 is the option's cost (issue 21's floors: dither=ed <= "
           "1.5 and faster than zscale:ed, gamut modes and tone curves <= 1.3).\n\n");
    printf("| conv | thr | filter | ms/frame | Mpix/s | ratio to the defaults | max \\|d\\| vs defaults (mean) | notes |\n");
    printf("|------|----:|--------|---------:|-------:|----------------------:|-----------------------------|-------|\n");
}

/** Notes of one row: n/a or failure reason, auto-inserted filters, output tags. */
static void row_notes(const Bench *b, const Result *r, char *buf, size_t size)
{
    const ColorDesc *want = r->def == &copy_peer ? &b->conv->in : &b->conv->out;

    buf[0] = '\0';
    if (r->error[0])
        av_strlcatf(buf, size, "%s", r->error);
    else if (r->def->note)
        av_strlcatf(buf, size, "%s", r->def->note);
    if (r->autos[0])
        av_strlcatf(buf, size, "%sauto-inserted: %s", buf[0] ? "; " : "", r->autos);
    if (r->first_ms > SLOW_SETUP_MS)
        av_strlcatf(buf, size, "%sfirst %d frames: %.0f ms (setup, not timed)", buf[0] ? "; " : "",
                    WARMUP, r->first_ms);
    if (r->out && (r->out->color_primaries != want->prim || r->out->color_trc != want->trc ||
                   r->out->colorspace != want->csp || r->out->color_range != want->range))
        av_strlcatf(buf, size, "%soutput tagged %s/%s/%s/%s", buf[0] ? "; " : "",
                    av_color_primaries_name(r->out->color_primaries),
                    av_color_transfer_name(r->out->color_trc),
                    av_color_space_name(r->out->colorspace),
                    av_color_range_name(r->out->color_range));
}

static void diff_string(const Result *r, char *buf, size_t size)
{
    buf[0] = '\0';
    if (!r->nb_diff) {
        av_strlcpy(buf, "-", size);
        return;
    }
    for (int c = 0; c < r->nb_diff; c++)
        av_strlcatf(buf, size, "%s%d", c ? "/" : "", r->maxdiff[c]);
    av_strlcatf(buf, size, " (%.2f)", r->meandiff);
}

static void print_row_markdown(const Bench *b, const Result *r, double px)
{
    const Result *ref = &b->res[0];
    char notes[768], diff[64];

    row_notes(b, r, notes, sizeof(notes));
    diff_string(r, diff, sizeof(diff));
    if (!r->median) {
        printf("| %s | %d | %s | n/a | | | | %s |\n", b->conv->id, b->threads, r->def->name, notes);
        return;
    }
    printf("| %s | %d | %s | %.3f | %.1f | ", b->conv->id, b->threads, r->def->name,
           r->median, px / (r->median * 1000));
    if (r == ref)
        printf("1.00 |");
    else if (ref->median)
        printf("%.2f |", r->median / ref->median);
    else
        printf("- |");
    printf(" %s | %s |\n", r == ref ? "(reference)" : diff, notes);
}

static void print_row_json(const Bench *b, const Result *r, double px, int *first)
{
    const Result *ref = &b->res[0];
    char notes[768];

    row_notes(b, r, notes, sizeof(notes));
    fprintf(json_out, "%s\n    {\"conv\": \"%s\", \"threads\": %d, \"filter\": ", *first ? "" : ",",
           b->conv->id, b->threads);
    *first = 0;
    json_string(r->def->name);
    fprintf(json_out, ", \"graph\": ");
    json_string(r->def->filters);
    fprintf(json_out, ", \"width\": %d, \"height\": %d, \"frames\": %d", b->in->width, b->in->height,
           b->frames);
    if (r->median) {
        fprintf(json_out, ", \"ms_per_frame\": %.4f, \"mpix_per_s\": %.2f, \"runs_ms\": [",
               r->median, px / (r->median * 1000));
        for (int i = 0; i < b->opt->runs; i++)
            fprintf(json_out, "%s%.4f", i ? ", " : "", r->ms[i]);
        fprintf(json_out, "]");
        if (ref->median)
            fprintf(json_out, ", \"cspfix_speedup\": %.4f", r->median / ref->median);
    } else {
        fprintf(json_out, ", \"ms_per_frame\": null");
    }
    if (r->nb_diff) {
        fprintf(json_out, ", \"max_diff\": [");
        for (int c = 0; c < r->nb_diff; c++)
            fprintf(json_out, "%s%d", c ? ", " : "", r->maxdiff[c]);
        fprintf(json_out, "], \"mean_diff\": %.4f", r->meandiff);
    }
    if (r->first_ms)
        fprintf(json_out, ", \"first_frames_ms\": %.3f", r->first_ms);
    fprintf(json_out, ", \"status\": \"%s\", \"notes\": ", r->median ? "ok" : r->error[0] ? "failed" : "n/a");
    json_string(notes);
    fprintf(json_out, "}");
}

static void print_results(const Bench *b, int *first)
{
    const double px = (double)b->in->width * b->in->height;

    for (int i = 0; i < b->nb_res; i++) {
        if (json_out)
            print_row_json(b, &b->res[i], px, first);
        if (!b->opt->json)
            print_row_markdown(b, &b->res[i], px);
    }
    fflush(stdout);
    if (json_out)
        fflush(json_out);
}

static void print_footer(const Options *o)
{
    char load[64];

    load_average(load, sizeof(load));
    if (json_out) {
        fprintf(json_out, "\n  ],\n  \"load_average_end\": ");
        json_string(load);
        fprintf(json_out, "\n}\n");
        if (json_out != stdout)
            fclose(json_out);
        if (o->json)
            return;
    }
    printf("\nLoad average at the end: %s\n", load);
    printf("\n## Conversions and graphs\n\n");
    for (size_t i = 0; i < FF_ARRAY_ELEMS(convs); i++) {
        const ConvDef *c = &convs[i];
        if (!in_list(o->only, c->id))
            continue;
        printf("- **%s** %dx%d %s %s/%s/%s/%s -> %s %s/%s/%s/%s: %s%s\n", c->id, c->w, c->h,
               av_get_pix_fmt_name(c->in_fmt), av_color_primaries_name(c->in.prim),
               av_color_transfer_name(c->in.trc), av_color_space_name(c->in.csp),
               av_color_range_name(c->in.range), av_get_pix_fmt_name(c->out_fmt),
               av_color_primaries_name(c->out.prim), av_color_transfer_name(c->out.trc),
               av_color_space_name(c->out.csp), av_color_range_name(c->out.range), c->what,
               c->hdr10 == 4 ? "; frames carry an Adobe RGB (1998) ICC profile" :
               c->hdr10 == 3 ? "; frames carry a Dolby Vision profile 5 RPU" :
               c->hdr10 ? "; frames carry HDR10 mastering display + content light side data" : "");
        for (int j = 0; j < MAX_PEERS && c->peers[j].name; j++)
            printf("  - %s: `%s`\n", c->peers[j].name,
                   c->peers[j].filters ? c->peers[j].filters : c->peers[j].note);
        if (c->note)
            printf("  - note: %s\n", c->note);
    }
}

/* ---------------------------------------------------------------------------
 * Main
 * ------------------------------------------------------------------------- */

static int bench_conversion(const Options *o, const ConvDef *c, int *first)
{
    const int big = c->w > 1920;
    const int w = o->quick ? QUICK_W << big : c->w, h = o->quick ? QUICK_H << big : c->h;
    static Bench b[MAX_TSETS];
    AVFrame *in = make_input(c, w, h);

    if (!in) {
        fprintf(stderr, "cspfix-bench: %s: cannot make the input frame\n", c->id);
        return AVERROR(ENOMEM);
    }
    for (int t = 0; t < o->nb_threads; t++) {
        b[t] = (Bench){ .opt = o, .conv = c, .in = in, .threads = o->threads[t],
                        .frames = o->frames ? o->frames : big ? 5 : 20,
                        .avx2 = { .name = AVX2_PEER, .filters = c->peers[0].filters,
                                  .note = AVX2_NOTE, .cpumask = AVX2_MASK } };
        open_peers(&b[t]);
    }
    measure(b, o->nb_threads);
    for (int t = 0; t < o->nb_threads; t++) {
        compare_peers(&b[t]);
        print_results(&b[t], first);
        free_results(&b[t]);
    }
    av_frame_free(&in);
    return 0;
}

int main(int argc, char **argv)
{
    host_avx512 = !!(av_get_cpu_flags() & AV_CPU_FLAG_AVX512);
    Options o;
    int first = 1, ret = 0, options_header = 0;

    if (parse_options(argc, argv, &o) < 0) {
        usage(stderr);
        return 2;
    }
    if (getenv("CSPFIX_BENCH_CPUFLAGS")) {
        unsigned flags = av_get_cpu_flags();
        if (av_parse_cpu_caps(&flags, getenv("CSPFIX_BENCH_CPUFLAGS")) < 0) {
            fprintf(stderr, "CSPFIX_BENCH_CPUFLAGS: invalid CPU flags '%s'\n",
                    getenv("CSPFIX_BENCH_CPUFLAGS"));
            return 2;
        }
        av_force_cpu_flags(flags);
    }
    av_log_set_level(o.verbose ? AV_LOG_VERBOSE : AV_LOG_ERROR);
    print_header(&o);
    for (size_t i = 0; i < FF_ARRAY_ELEMS(convs); i++) {
        if (!in_list(o.only, convs[i].id))
            continue;
        if (convs[i].options && !options_header++ && !o.json)
            print_options_header();
        if (bench_conversion(&o, &convs[i], &first) < 0)
            ret = 1;
    }
    print_footer(&o);
    return ret;
}
