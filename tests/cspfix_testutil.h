/*
 * cspfix tests: run a filter graph on frames through the libavfilter API
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

#ifndef CSPFIX_TESTUTIL_H
#define CSPFIX_TESTUTIL_H

#include <libavfilter/avfilter.h>
#include <libavutil/frame.h>

/**
 * Run buffer -> filters -> buffersink on nb_in frames (not consumed), with the
 * given number of filter threads. Output frames are stored in out[] (up to
 * max_out); *nb_out is set. Returns 0 or a negative AVERROR.
 */
/** Filters libavfilter inserted itself (auto_*) in the graph the last cspfix_run_graph()
 * configured, and the name of the first of them (or ""). */
extern int cspfix_graph_auto;
extern char cspfix_graph_auto_name[64];

int cspfix_run_graph(AVFrame *const *in, int nb_in, const char *filters, int threads,
                     AVFrame **out, int max_out, int *nb_out);

/**
 * Take every frame the sink has now into out[] (up to max_out, the rest freed),
 * counting in *nb_out. Returns what ended it: AVERROR(EAGAIN), AVERROR_EOF, or an
 * error (AVERROR(ENOMEM) if no frame could be allocated).
 */
int cspfix_pull_frames(AVFilterContext *sink, AVFrame **out, int max_out, int *nb_out);

/** Single frame convenience: *out gets the one output frame. */
int cspfix_run1(const AVFrame *in, const char *filters, int threads, AVFrame **out);

/** Allocate a frame with the given format, size and colour tags. */
AVFrame *cspfix_alloc_frame(int fmt, int w, int h, int prim, int trc, int csp, int range);

/**
 * HDR10 side data on f, replacing any: a DCI-P3 D65 mastering display of max_lum cd/m2
 * (0: without luminances, < 0: none) and a content light level MaxCLL maxcll, MaxFALL
 * maxcll / 4 (< 0: none). Returns 0 or AVERROR(ENOMEM).
 */
int cspfix_set_hdr10(AVFrame *f, int max_lum, int maxcll);

/** A zeroed Dolby Vision RPU (AVDOVIMetadata) attached to f, to be filled; NULL: no memory. */
struct AVDOVIMetadata *cspfix_attach_dovi(AVFrame *f);

/** 1 if the two frames have identical visible samples in every plane. */
int cspfix_frames_equal(const AVFrame *a, const AVFrame *b);

/** Read sample (x, y) of plane p. */
static inline int cspfix_sample(const AVFrame *f, int p, int x, int y, int big)
{
    const uint8_t *row = f->data[p] + (ptrdiff_t)y * f->linesize[p];
    return big ? ((const uint16_t *)row)[x] : row[x];
}

static inline void cspfix_set_sample(AVFrame *f, int p, int x, int y, int big, int v)
{
    uint8_t *row = f->data[p] + (ptrdiff_t)y * f->linesize[p];
    if (big)
        ((uint16_t *)row)[x] = v;
    else
        row[x] = v;
}

/* Warnings and errors libav* logs (av_log at AV_LOG_WARNING and above), collected in
 * cspfix_log_text (cspfix_log_len bytes) since cspfix_log_reset(), once
 * cspfix_log_capture() has set the log callback. */
extern char cspfix_log_text[16384];
extern size_t cspfix_log_len;
void cspfix_log_capture(void);
void cspfix_log_reset(void);

#endif /* CSPFIX_TESTUTIL_H */
