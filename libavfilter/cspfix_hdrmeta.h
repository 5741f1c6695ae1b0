/*
 * cspfix: HDR (which transfers are HDR; the source peak from side data; the output's
 * side data)
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

#ifndef AVFILTER_CSPFIX_HDRMETA_H
#define AVFILTER_CSPFIX_HDRMETA_H

#include "libavutil/csp.h"
#include "libavutil/frame.h"
#include "libavutil/mastering_display_metadata.h"
#include "libavutil/pixfmt.h"

#include "cspfix_plan.h"

/** 1 for the HDR transfers (PQ, HLG). */
int ff_cspfix_is_hdr_trc(enum AVColorTransferCharacteristic trc);

/** Metadata that differs from the measured peak by more than this factor is logged. */
#define CSPFIX_META_MARGIN 1.25

/**
 * Source peak in cd/m2 of an HDR frame (hdr_in), for tone mapping: peak_opt when > 0 (the
 * user wins), then measured when > 0 (peak=auto: the frame's measured light, cspfix_light.h),
 * then rpu when > 0 (the Dolby Vision RPU's L1 shot maximum, cspfix_dovi.h), then the scene's largest MaxSCL from HDR10+ metadata (AV_FRAME_DATA_DYNAMIC_HDR_PLUS,
 * first window; raised to its maxRGB distribution's top percentile when that is above it), then the content light level MaxCLL, then the mastering display's maximum luminance,
 * then CSPFIX_SRC_PEAK_DEFAULT; 0 for SDR input. prim gets the mastering display's
 * primaries when want_prim (gamut compression), else zeros. A peak other than *last is
 * logged (verbose; with metadata the measurement overrules by more than
 * CSPFIX_META_MARGIN, saying so); *last is set to it (last NULL: no log).
 */
double ff_cspfix_source_peak(void *log_ctx, const AVFrame *in, int hdr_in, double peak_opt,
                             double measured, double rpu, int want_prim, double prim[3][2],
                             double *last);

/**
 * The scene's average light of an HDR frame (hdr_in) in cd/m2, for tonemap=spline's knee:
 * measured when > 0 (peak=auto: cd/m2 of the mean of max(R', G', B') in PQ, smoothed over
 * the shot), then rpu when > 0 (the Dolby Vision RPU's L1 shot average, the same
 * quantity), then HDR10+ average maxRGB (a mean of linear light: at or above the PQ mean
 * of the same pixels) or, without it, the maxRGB distribution's median; 0: unknown.
 */
double ff_cspfix_source_avg(const AVFrame *in, int hdr_in, double measured, double rpu);

/** A mastering display's primaries and white point from d (has_primaries set). */
void ff_cspfix_mdm_primaries(AVMasteringDisplayMetadata *m, const AVColorPrimariesDesc *d);

/**
 * The HDR10+ (SMPTE ST 2094-40) tone curve of the frame's first window into bz: 1 when
 * there is one (tone_mapping_flag, a knee below 1, a targeted display), else 0 (bz zeroed).
 */
int ff_cspfix_hdr10plus_curve(const AVFrame *in, CspfixBezier *bz);

/**
 * Adjust the side data of out (a copy of the input's) to the conversion id -> od:
 * tm_peak is the peak in cd/m2 an HDR output was tone-mapped to (0: none), tone_mapped
 * says a tone curve ran, target_peak is the target_peak option (0: default).
 * Returns 0 or AVERROR(ENOMEM).
 */
int ff_cspfix_output_side_data(AVFrame *out, const CspfixDesc *id, const CspfixDesc *od,
                               int tm_peak, int tone_mapped, double target_peak);

#endif /* AVFILTER_CSPFIX_HDRMETA_H */
