/*
 * cspfix: what a frame is (its description after overrides and guesses) and what the
 * output is to be
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

#ifndef AVFILTER_CSPFIX_DESCRIBE_H
#define AVFILTER_CSPFIX_DESCRIBE_H

#include "libavutil/frame.h"
#include "libavutil/pixfmt.h"

#include "cspfix_icc.h"
#include "cspfix_plan.h"
#include "cspfix_v4l2.h"

/* Presets of the all/iall options */
enum CspfixAll {
    CSPFIX_ALL_UNSET = 0,
    CSPFIX_ALL_BT470M, CSPFIX_ALL_BT470BG, CSPFIX_ALL_BT601_525, CSPFIX_ALL_BT601_625,
    CSPFIX_ALL_BT709, CSPFIX_ALL_SMPTE170M, CSPFIX_ALL_SMPTE240M, CSPFIX_ALL_BT2020,
    CSPFIX_ALL_NB,
};

/** X(name, value) for each preset: the option's constants and the names in messages */
#define CSPFIX_ALL_NAMES(X)                                                          \
    X("bt470m", CSPFIX_ALL_BT470M) X("bt470bg", CSPFIX_ALL_BT470BG)                  \
    X("bt601-6-525", CSPFIX_ALL_BT601_525) X("bt601-6-625", CSPFIX_ALL_BT601_625)    \
    X("bt709", CSPFIX_ALL_BT709) X("smpte170m", CSPFIX_ALL_SMPTE170M)                \
    X("smpte240m", CSPFIX_ALL_SMPTE240M) X("bt2020", CSPFIX_ALL_BT2020)

/** primaries, transfer, matrix of each preset */
extern const int ff_cspfix_all_presets[CSPFIX_ALL_NB][3];

/* Fields ff_cspfix_describe_input() guessed */
#define CSPFIX_GUESS_PRIM  1
#define CSPFIX_GUESS_TRC   2
#define CSPFIX_GUESS_CSP   4
#define CSPFIX_GUESS_RANGE 8
/* and tags it did not take: rgb on a gray format, limited range on a yuvj format */
#define CSPFIX_NOTE_GRAY_RGB 16
#define CSPFIX_NOTE_YUVJ_TV  32

/** The options and the state that decide the input's and the output's descriptions. */
/** The white CIE XYZ content is taken to have (xyzwhite=). */
enum CspfixXyzWhite {
    CSPFIX_XYZ_D65,             ///< D65 (none for D65 outputs: as libswscale's xyz12)
    CSPFIX_XYZ_DCI,             ///< the DCI-P3 projector's white (SMPTE RP 431-2)
    CSPFIX_XYZ_E,               ///< H.273's equal-energy white of smpte428
};

typedef struct CspfixDescribe {
    /* options: output (AVCOL_*_UNSPECIFIED, CSPFIX_ALL_UNSET: unset) */
    int all, prim, trc, csp, range;
    /* options: input overrides */
    int iall, iprim, itrc, icsp, irange;
    int guess;                  ///< guess unspecified input fields (else an error)
    char *colorimetry, *icolorimetry;        ///< GStreamer colorimetry strings
    char *v4l2_csp, *v4l2_enc, *v4l2_quant, *v4l2_xfer;
    CspfixV4L2 v4l2;            ///< parsed V4L2 input description
    int use_v4l2;
    int icc_mode;               ///< icc= (enum CspfixIccMode)
    int xyz_white;              ///< xyzwhite= (enum CspfixXyzWhite)
    /* detect=fix: the range and matrix the detector found (*_UNSPECIFIED: none), over
     * the tags and under the input overrides */
    int det_range, det_csp;
    CspfixIcc *icc;             ///< the input profiles read (the filter's)
    /* what the options above set, by ff_cspfix_resolve_options() (*_UNSPECIFIED where
     * none does; the input's without the V4L2 fields, which depend on the pixel format) */
    CspfixDesc out_set, in_set;
    int csp_explicit;           ///< the output matrix is set by space/matrix (no preset)
    /* what format negotiation chose for the output link where the options leave
     * the field free and the consumer could not take the input's value
     * (*_UNSPECIFIED: keep the input's) */
    enum AVColorSpace neg_csp;
    enum AVColorRange neg_range;
    /* the output description of the first frame: the output fields the options leave
     * free keep these on later frames (the link, the encoder and the container keep
     * one description), which are converted to them */
    int have_first;
    CspfixDesc first_out;
    const char *csp_from, *range_from; ///< where the output matrix and range came from
    int warned_range;                  ///< limited range asked of a full-range-only format
} CspfixDescribe;

/** 1 for the RGB pixel formats, and the X'Y'Z' ones (R'G'B' of the smpte428 primaries). */
int ff_cspfix_is_rgb_fmt(enum AVPixelFormat fmt);

/** 1 for the X'Y'Z' pixel formats (xyz12). */
int ff_cspfix_is_xyz_fmt(enum AVPixelFormat fmt);

/** 1 for the formats that are full range by definition (yuvj*). */
int ff_cspfix_is_full_range_only(enum AVPixelFormat fmt);

/**
 * Resolve the description options into s->out_set and s->in_set, each field from the
 * option of highest precedence that sets it: a field's own option (space, primaries,
 * trc, range; ispace, ...), then all (iall), then colorimetry (icolorimetry), then (input)
 * the v4l2_* options. With warn, two options setting a field to different values are
 * warned about.
 * Parses the colorimetry and v4l2_* strings: an error names a bad one.
 */
int ff_cspfix_resolve_options(void *log_ctx, CspfixDescribe *s, int warn);

/**
 * The description of input frame f: its tags, its ICC profile's primaries and transfer
 * over them (icc=auto), the V4L2 fields and the other input options over them
 * (s->in_set; icc=use: the profile over those too), unspecified fields guessed
 * (CSPFIX_GUESS_* in *guessed) or, with guess off, an error naming the field.
 */
int ff_cspfix_describe_input(void *log_ctx, const CspfixDescribe *s, const AVFrame *f,
                             CspfixDesc *d, unsigned *guessed);

/**
 * The output description of input in (described as id) in format ofmt: the options, then
 * negotiation, then the first frame's output, then the defaults of the family change;
 * sets s->csp_from and s->range_from.
 */
int ff_cspfix_describe_output(void *log_ctx, CspfixDescribe *s, const AVFrame *in,
                              enum AVPixelFormat ofmt, const CspfixDesc *id, CspfixDesc *od);

/** Log the guessed fields of d and why. */
void ff_cspfix_log_guesses(void *log_ctx, const CspfixDesc *d, unsigned guessed,
                           const AVFrame *f);

/** Parse the v4l2_* option strings into s->v4l2 (s->use_v4l2 when any is set). */
int ff_cspfix_parse_v4l2(void *log_ctx, CspfixDescribe *s);

#endif /* AVFILTER_CSPFIX_DESCRIBE_H */
