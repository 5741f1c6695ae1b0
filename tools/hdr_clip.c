/*
 * cspfix HDR demo and tests: clips of the HDR test pattern with dynamic metadata
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
 * hdr_clip dovi: writes the HDR test pattern of hdr_pattern.h as Dolby Vision profile 5 in AV1 (10.0:
 * an IPT-PQ-c2 base layer, full range, no HDR10 compatibility) to a Matroska file, encoded
 * by FFmpeg's libsvtav1 wrapper with its dolbyvision option: the RPU of every frame is
 * written by FFmpeg's RPU writer as ITU-T T.35 metadata OBUs, and the decoder configuration
 * record goes into the container. Decoded with libdav1d, FFmpeg's RPU parser gives the
 * frames their AV_FRAME_DATA_DOVI_METADATA.
 *
 * The base layer inverts doc/conversion-model.md section 9: linear BT.2020 RGB -> LMS
 * (Dolby Vision's RGB -> LMS matrix, then the inverse of the RPU's crosstalk matrix), PQ,
 * IPT = N^-1 L'M'S' + o' (the RPU's ycc_to_rgb matrix and offsets), then a forward reshaping
 * that the RPU's backward reshaping undoes: I -> I^0.8 (undone by eight quadratic pieces
 * fitted by least squares), and P, T scaled about neutral by 1 / (a + b I) with I the base
 * layer luma of the chroma sample (undone exactly by an MMR of order 1).
 * The frames are tagged BT.2020, PQ, matrix ipt-c2 (H.273 15), full range; SVT-AV1 codes
 * them at preset 4, CRF 1. The round trip of the base layer through the RPU's backward
 * reshaping (section 9 step 2, in double) is measured against the IPT signal and printed.
 *
 * hdr_clip hdr10plus: the pattern as HDR10 (BT.2020 PQ Y'CbCr 4:2:0, 10-bit, limited) with
 * HDR10+ (SMPTE ST 2094-40) metadata on every frame: the scene's MaxSCL, percentiles, and a
 * tone curve (knee, 9 Bezier anchors) for a 400 cd/m2 display, encoded by FFmpeg's libaom
 * wrapper, which writes it as ITU-T T.35 metadata OBUs; libdav1d gives the frames their
 * AV_FRAME_DATA_DYNAMIC_HDR_PLUS back.
 * Usage: hdr_clip dovi|hdr10plus OUT.mkv [FRAMES]
 */

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libavcodec/avcodec.h"
#include "libavformat/avformat.h"
#include "libavutil/dovi_meta.h"
#include "libavutil/error.h"
#include "libavutil/frame.h"
#include "libavutil/hdr_dynamic_metadata.h"
#include "libavutil/intreadwrite.h"
#include "libavutil/mem.h"
#include "libavutil/opt.h"

#include "hdr_pattern.h"

#define W PATTERN_W
#define H PATTERN_H
#define DEPTH  10
#define MAXC   ((1 << DEPTH) - 1)
#define DENOM  23                      ///< coef_log2_denom
#define PIECES 8                       ///< luma polynomial pieces

/* the RPU's colour: IPT-PQ-c2 (as in tools/cspfix-bench.c) */
static const int ycc_to_rgb[9] = { 8192, 799, 1681, 8192, -933, 1091, 8192, 267, -5545 };
static const int rgb_to_lms[9] = { 17081, -349, -349, -349, 17081, -349, -349, -349, 17081 };
/* Dolby Vision's BT.2020 RGB -> LMS, / 16384 */
static const int dv_lms[9] = { 7222, 8771, 390, 2654, 12430, 1300, 0, 422, 15962 };

/* luma pivots (base layer codes), denser at the dark end where I^1.25 bends most */
static const int pivots[PIECES + 1] = { 0, 24, 64, 128, 224, 352, 528, 752, MAXC };
#define GAMMA 0.8                      ///< forward luma curve: s = r^GAMMA
/* forward chroma: s = n + (r - n) / (a + b x0), n neutral, x0 the chroma sample's luma */
static const double chroma_a[2] = { 0.75, 0.9 };
static const double chroma_b[2] = { 0.6, 0.35 };

static PatternLight lin;

static void mat3_from(double m[9], const int *v, double den)
{
    for (int i = 0; i < 9; i++)
        m[i] = v[i] / den;
}

static void mat3_mul(double out[9], const double a[9], const double b[9])
{
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            out[3 * i + j] = a[3 * i] * b[j] + a[3 * i + 1] * b[3 + j] + a[3 * i + 2] * b[6 + j];
}

static void mat3_apply(double out[3], const double m[9], const double v[3])
{
    for (int i = 0; i < 3; i++)
        out[i] = m[3 * i] * v[0] + m[3 * i + 1] * v[1] + m[3 * i + 2] * v[2];
}

static void mat3_invert(double out[9], const double m[9])
{
    const double det = m[0] * (m[4] * m[8] - m[5] * m[7]) -
                       m[1] * (m[3] * m[8] - m[5] * m[6]) +
                       m[2] * (m[3] * m[7] - m[4] * m[6]);

    out[0] =  (m[4] * m[8] - m[5] * m[7]) / det;
    out[1] = -(m[1] * m[8] - m[2] * m[7]) / det;
    out[2] =  (m[1] * m[5] - m[2] * m[4]) / det;
    out[3] = -(m[3] * m[8] - m[5] * m[6]) / det;
    out[4] =  (m[0] * m[8] - m[2] * m[6]) / det;
    out[5] = -(m[0] * m[5] - m[2] * m[3]) / det;
    out[6] =  (m[3] * m[7] - m[4] * m[6]) / det;
    out[7] = -(m[0] * m[7] - m[1] * m[6]) / det;
    out[8] =  (m[0] * m[4] - m[1] * m[3]) / det;
}

static double clip01(double v)
{
    return v < 0.0 ? 0.0 : v > 1.0 ? 1.0 : v;
}

static uint16_t code(double s)
{
    return (uint16_t)lrint(clip01(s) * MAXC);
}

/* Least-squares quadratic c0 + c1 x + c2 x^2 of the backward luma curve x^(1/GAMMA)
 * over [lo, hi], from the normal equations. */
static void fit_piece(double c[3], double lo, double hi)
{
    double ata[9] = { 0 }, atb[3] = { 0 }, inv[9];

    for (int i = 0; i <= 1000; i++) {
        const double x = lo + (hi - lo) * i / 1000.0, y = pow(x, 1.0 / GAMMA);
        const double p[3] = { 1.0, x, x * x };
        for (int j = 0; j < 3; j++) {
            atb[j] += p[j] * y;
            for (int k = 0; k < 3; k++)
                ata[3 * j + k] += p[j] * p[k];
        }
    }
    mat3_invert(inv, ata);
    mat3_apply(c, inv, atb);
}

/* The backward luma mapping as the RPU carries it (section 9 step 2). */
static double backward_luma(const AVDOVIReshapingCurve *cv, double x)
{
    int k = 0;
    double y = 0.0;

    for (int i = 1; i < cv->num_pivots - 1; i++)
        k += x >= cv->pivots[i] / (double)MAXC;
    for (int j = cv->poly_order[k]; j >= 0; j--)
        y = y * x + cv->poly_coef[k][j] / (double)(1 << DENOM);
    return fmin(fmax(y, cv->pivots[0] / (double)MAXC),
                cv->pivots[cv->num_pivots - 1] / (double)MAXC);
}

static double backward_chroma(const AVDOVIReshapingCurve *cv, double x0, double x1, double x2)
{
    const double t[7] = { x0, x1, x2, x0 * x1, x0 * x2, x1 * x2, x0 * x1 * x2 };
    double y = cv->mmr_constant[0] / (double)(1 << DENOM);

    for (int o = 1; o <= cv->mmr_order[0]; o++)
        for (int i = 0; i < 7; i++)
            y += cv->mmr_coef[0][o - 1][i] / (double)(1 << DENOM) * pow(t[i], o);
    return clip01(y);
}

/* The RPU: the IPT-PQ-c2 colour, the backward reshaping and an L1 block of the frame's
 * min/max/average max(R',G',B') as 12-bit PQ codes. */
static AVBufferRef *make_rpu(const int l1[3])
{
    const double one = 1 << DENOM, neutral = (1 << (DEPTH - 1)) / (double)MAXC;
    size_t size;
    AVDOVIMetadata *md = av_dovi_metadata_alloc(&size);
    AVDOVIRpuDataHeader *h;
    AVDOVIDataMapping *m;
    AVDOVIColorMetadata *col;
    AVDOVIDmData *ext;
    AVBufferRef *buf;

    if (!md)
        return NULL;
    if (!(buf = av_buffer_create((uint8_t *)md, size, NULL, NULL, 0))) {
        av_free(md);
        return NULL;
    }
    h   = av_dovi_get_header(md);
    m   = av_dovi_get_mapping(md);
    col = av_dovi_get_color(md);
    h->rpu_type                = 2;
    h->rpu_format              = 18;
    h->vdr_rpu_profile         = 0;  /* with a full range base layer: profile 5 */
    h->coef_data_type          = 0;  /* fixed point */
    h->coef_log2_denom         = DENOM;
    h->vdr_rpu_normalized_idc  = 1;
    h->bl_video_full_range_flag = 1;
    h->bl_bit_depth            = DEPTH;
    h->el_bit_depth            = DEPTH;
    h->vdr_bit_depth           = 12;
    h->disable_residual_flag   = 1;

    m->num_x_partitions = m->num_y_partitions = 1;
    m->nlq_method_idc   = AV_DOVI_NLQ_NONE;
    m->curves[0].num_pivots = PIECES + 1;
    for (int i = 0; i <= PIECES; i++)
        m->curves[0].pivots[i] = pivots[i];
    for (int k = 0; k < PIECES; k++) {
        double c[3];
        fit_piece(c, pivots[k] / (double)MAXC, pivots[k + 1] / (double)MAXC);
        m->curves[0].mapping_idc[k] = AV_DOVI_MAPPING_POLYNOMIAL;
        m->curves[0].poly_order[k]  = 2;
        for (int j = 0; j < 3; j++)
            m->curves[0].poly_coef[k][j] = llrint(c[j] * one);
    }
    /* r = n + (x1 - n)(a + b x0) = n (1 - a) - n b x0 + a x1 + b x0 x1 */
    for (int c = 1; c < 3; c++) {
        AVDOVIReshapingCurve *cv = &m->curves[c];
        const double a = chroma_a[c - 1], b = chroma_b[c - 1];
        cv->num_pivots     = 2;
        cv->pivots[0]      = 0;
        cv->pivots[1]      = MAXC;
        cv->mapping_idc[0] = AV_DOVI_MAPPING_MMR;
        cv->mmr_order[0]   = 1;
        cv->mmr_constant[0]  = llrint(neutral * (1.0 - a) * one);
        cv->mmr_coef[0][0][0] = llrint(-neutral * b * one);
        cv->mmr_coef[0][0][c] = llrint(a * one);
        cv->mmr_coef[0][0][c == 1 ? 3 : 4] = llrint(b * one);
    }

    col->dm_metadata_id     = 0;
    col->scene_refresh_flag = 1;
    for (int i = 0; i < 9; i++) {
        col->ycc_to_rgb_matrix[i] = av_make_q(ycc_to_rgb[i], 1 << 13);
        col->rgb_to_lms_matrix[i] = av_make_q(rgb_to_lms[i], 1 << 14);
    }
    col->ycc_to_rgb_offset[0] = av_make_q(0, 1 << 28);
    col->ycc_to_rgb_offset[1] = col->ycc_to_rgb_offset[2] = av_make_q(1 << 27, 1 << 28);
    col->signal_eotf            = 65535;
    col->signal_bit_depth       = 12;
    col->signal_full_range_flag = 1;
    col->source_min_pq          = 62;    /* 0.005 cd/m2 */
    col->source_max_pq          = lrint(pq(4000) * 4095);
    col->source_diagonal        = 42;

    md->num_ext_blocks = 2;
    ext = av_dovi_get_ext(md, 0);
    ext->level     = 1;
    ext->l1.min_pq = l1[0];
    ext->l1.max_pq = l1[1];
    ext->l1.avg_pq = l1[2];
    /* an L2 trim for a 1000 cd/m2 display (slope 1.125): an SDR output is not that
     * display, so the clip's SDR conversions are untouched */
    ext = av_dovi_get_ext(md, 1);
    ext->level                   = 2;
    ext->l2.target_max_pq        = 3079;
    ext->l2.trim_slope           = 2560;
    ext->l2.trim_offset          = 2048;
    ext->l2.trim_power           = 2048;
    ext->l2.trim_chroma_weight   = 2048;
    ext->l2.trim_saturation_gain = 2048;
    ext->l2.ms_weight            = 2048;
    return buf;
}

/* The base layer (IPT-PQ-c2 reshaped by the inverse of the RPU's mapping) into f. */
static void make_base_layer(AVFrame *f, const AVDOVIMetadata *md)
{
    static double ipt[H][W][3];
    static uint16_t y[H][W];
    const AVDOVIDataMapping *m = av_dovi_get_mapping(md);
    const double neutral = (1 << (DEPTH - 1)) / (double)MAXC;
    double ncl[9], lms[9], l[9], ninv[9], linv[9], rgb2lms[9];
    double err[3] = { 0 }, sum_err[3] = { 0 }, lo[3] = { 1, 1, 1 }, hi[3] = { 0 };
    int clipped = 0;

    mat3_from(ncl, ycc_to_rgb, 8192);
    mat3_from(lms, dv_lms, 16384);
    mat3_from(l, rgb_to_lms, 16384);
    mat3_invert(ninv, ncl);
    mat3_invert(linv, l);
    mat3_mul(rgb2lms, linv, lms);

    for (int j = 0; j < H; j++)
        for (int i = 0; i < W; i++) {
            double e[3], p[3], d;
            mat3_apply(e, rgb2lms, lin[j][i]);
            for (int c = 0; c < 3; c++)
                p[c] = pq(e[c]);
            mat3_apply(ipt[j][i], ninv, p);
            ipt[j][i][1] += neutral;
            ipt[j][i][2] += neutral;
            for (int c = 0; c < 3; c++) {
                lo[c] = fmin(lo[c], ipt[j][i][c]);
                hi[c] = fmax(hi[c], ipt[j][i][c]);
            }
            y[j][i] = code(pow(clip01(ipt[j][i][0]), GAMMA));
            d = fabs(backward_luma(&m->curves[0], y[j][i] / (double)MAXC) - ipt[j][i][0]);
            err[0]      = fmax(err[0], d);
            sum_err[0] += d;
            AV_WN16A(f->data[0] + j * f->linesize[0] + 2 * i, y[j][i]);
        }
    for (int j = 0; j < H / 2; j++)
        for (int i = 0; i < W / 2; i++) {
            double r[2] = { 0 }, x0 = 0, s[2];
            uint16_t uv[2];
            for (int k = 0; k < 4; k++) {
                const int yy = 2 * j + (k >> 1), xx = 2 * i + (k & 1);
                r[0] += ipt[yy][xx][1] / 4;
                r[1] += ipt[yy][xx][2] / 4;
                x0   += y[yy][xx] / (4.0 * MAXC);
            }
            for (int c = 0; c < 2; c++) {
                s[c]  = neutral + (r[c] - neutral) / (chroma_a[c] + chroma_b[c] * x0);
                clipped += s[c] < 0.0 || s[c] > 1.0;
                uv[c] = code(s[c]);
                AV_WN16A(f->data[c + 1] + j * f->linesize[c + 1] + 2 * i, uv[c]);
            }
            for (int c = 0; c < 2; c++) {
                const double d = fabs(backward_chroma(&m->curves[c + 1], x0, uv[0] / (double)MAXC,
                                                      uv[1] / (double)MAXC) - r[c]);
                err[c + 1]      = fmax(err[c + 1], d);
                sum_err[c + 1] += d;
            }
        }
    fprintf(stderr, "hdr_clip: IPT range I %.3f..%.3f P %.3f..%.3f T %.3f..%.3f; "
            "chroma samples clipped by the forward reshaping: %d\n",
            lo[0], hi[0], lo[1], hi[1], lo[2], hi[2], clipped);
    fprintf(stderr, "hdr_clip: base layer through the RPU's backward reshaping vs the "
            "IPT signal, in 10-bit codes: I mean %.3f max %.3f, P mean %.3f max %.3f, "
            "T mean %.3f max %.3f\n",
            sum_err[0] * MAXC / (W * H), err[0] * MAXC,
            sum_err[1] * MAXC / (W * H / 4), err[1] * MAXC,
            sum_err[2] * MAXC / (W * H / 4), err[2] * MAXC);
}

/* The frame's L1: min, max and mean of max(R',G',B') (BT.2020 PQ), 12-bit codes. */
static void measure_l1(int l1[3])
{
    double mn = 1.0, mx = 0.0, sum = 0.0;

    for (int j = 0; j < H; j++)
        for (int i = 0; i < W; i++) {
            const double *p = lin[j][i];
            const double v = pq(fmax(p[0], fmax(p[1], p[2])));
            mn   = fmin(mn, v);
            mx   = fmax(mx, v);
            sum += v;
        }
    l1[0] = lrint(mn * 4095);
    l1[1] = lrint(mx * 4095);
    l1[2] = lrint(sum / (W * H) * 4095);
}

static int write_packets(AVCodecContext *enc, AVFormatContext *oc, AVStream *st, AVPacket *pkt)
{
    int ret;

    while ((ret = avcodec_receive_packet(enc, pkt)) >= 0) {
        av_packet_rescale_ts(pkt, enc->time_base, st->time_base);
        pkt->stream_index = st->index;
        if ((ret = av_interleaved_write_frame(oc, pkt)) < 0)
            return ret;
    }
    return ret == AVERROR(EAGAIN) || ret == AVERROR_EOF ? 0 : ret;
}

/* The HDR10+ curve of the hdr10plus clip (also in tests/encode_test.sh's check) */
static const int hdr10plus_knee[2]     = { 160, 380 };      /* of 4095 */
static const int hdr10plus_anchors[9]  = { 310, 520, 670, 780, 850, 905, 945, 975, 993 };

static int add_hdr10plus(AVFrame *f)
{
    static const int pct[9] = { 1, 5, 10, 25, 50, 75, 90, 95, 99 };
    AVDynamicHDRPlus *h = av_dynamic_hdr_plus_create_side_data(f);
    AVHDRPlusColorTransformParams *p;

    if (!h)
        return AVERROR(ENOMEM);
    h->itu_t_t35_country_code = 0xB5;
    h->application_version    = 1;
    h->num_windows            = 1;
    h->targeted_system_display_maximum_luminance = av_make_q(400, 1);
    p = &h->params[0];
    for (int c = 0; c < 3; c++)
        p->maxscl[c] = av_make_q(40000, 100000);    /* 4000 cd/m2, the pattern's peak */
    p->average_maxrgb = av_make_q(2000, 100000);
    p->num_distribution_maxrgb_percentiles = 9;
    for (int i = 0; i < 9; i++) {
        p->distribution_maxrgb[i].percentage = pct[i];
        p->distribution_maxrgb[i].percentile = av_make_q(100 * (i + 1) * (i + 1), 100000);
    }
    p->fraction_bright_pixels    = av_make_q(0, 1000);
    p->tone_mapping_flag         = 1;
    p->knee_point_x              = av_make_q(hdr10plus_knee[0], 4095);
    p->knee_point_y              = av_make_q(hdr10plus_knee[1], 4095);
    p->num_bezier_curve_anchors  = 9;
    for (int k = 0; k < 9; k++)
        p->bezier_curve_anchors[k] = av_make_q(hdr10plus_anchors[k], 1023);
    return 0;
}

static void put_plane(AVFrame *f, int c, const uint16_t *src, int w, int h)
{
    for (int j = 0; j < h; j++)
        memcpy(f->data[c] + j * f->linesize[c], src + j * w, 2 * w);
}

int main(int argc, char **argv)
{
    static uint16_t py[H][W], pu[H / 2][W / 2], pv[H / 2][W / 2];
    const int dovi = argc > 2 && !strcmp(argv[1], "dovi");
    const int hdr10plus = argc > 2 && !strcmp(argv[1], "hdr10plus");
    const char *name = dovi ? "libsvtav1" : "libaom-av1", *out = argc > 2 ? argv[2] : NULL;
    const AVCodec *codec = avcodec_find_encoder_by_name(name);
    AVCodecContext *enc = NULL;
    AVFormatContext *oc = NULL;
    AVFrame *frame = NULL;
    AVPacket *pkt = NULL;
    AVBufferRef *rpu = NULL, *ref = NULL;
    AVStream *st;
    int frames = argc > 3 ? atoi(argv[3]) : 1, l1[3], ret;

    if (!dovi && !hdr10plus) {
        fprintf(stderr, "Usage: %s dovi|hdr10plus OUT.mkv [FRAMES]\n", argv[0]);
        return 2;
    }
    if (!codec) {
        fprintf(stderr, "hdr_clip: FFmpeg was built without %s\n", name);
        return 1;
    }
    pattern_draw(lin);
    measure_l1(l1);
    if ((dovi && !(rpu = make_rpu(l1))) || !(enc = avcodec_alloc_context3(codec)) ||
        !(frame = av_frame_alloc()) || !(pkt = av_packet_alloc())) {
        ret = AVERROR(ENOMEM);
        goto end;
    }

    enc->width           = W;
    enc->height          = H;
    enc->pix_fmt         = AV_PIX_FMT_YUV420P10;
    enc->time_base       = (AVRational){ 1, 25 };
    enc->framerate       = (AVRational){ 25, 1 };
    enc->color_primaries = AVCOL_PRI_BT2020;
    enc->color_trc       = AVCOL_TRC_SMPTE2084;
    enc->colorspace      = dovi ? AVCOL_SPC_IPT_C2 : AVCOL_SPC_BT2020_NCL;
    enc->color_range     = dovi ? AVCOL_RANGE_JPEG : AVCOL_RANGE_MPEG;
    if (dovi) {
        /* the encoder picks the Dolby Vision profile (10.0: AV1, IPT-PQ-c2) from the RPU
         * it is opened with */
        if (!av_frame_side_data_add(&enc->decoded_side_data, &enc->nb_decoded_side_data,
                                    AV_FRAME_DATA_DOVI_METADATA, &rpu,
                                    AV_FRAME_SIDE_DATA_FLAG_NEW_REF)) {
            ret = AVERROR(ENOMEM);
            goto end;
        }
        if ((ret = av_opt_set_int(enc->priv_data, "dolbyvision", 1, 0)) < 0 ||
            (ret = av_opt_set_int(enc->priv_data, "preset", 4, 0)) < 0 ||
            (ret = av_opt_set_int(enc->priv_data, "crf", 1, 0)) < 0)
            goto end;
    } else if ((ret = av_opt_set_int(enc->priv_data, "cpu-used", 8, 0)) < 0 ||
               (ret = av_opt_set_int(enc->priv_data, "crf", 10, 0)) < 0) {
        goto end;
    }
    if ((ret = avformat_alloc_output_context2(&oc, NULL, NULL, out)) < 0)
        goto end;
    if (oc->oformat->flags & AVFMT_GLOBALHEADER)
        enc->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
    if ((ret = avcodec_open2(enc, codec, NULL)) < 0)
        goto end;
    if (!(st = avformat_new_stream(oc, NULL))) {
        ret = AVERROR(ENOMEM);
        goto end;
    }
    st->time_base = enc->time_base;
    if ((ret = avcodec_parameters_from_context(st->codecpar, enc)) < 0 ||
        (ret = avio_open(&oc->pb, out, AVIO_FLAG_WRITE)) < 0 ||
        (ret = avformat_write_header(oc, NULL)) < 0)
        goto end;

    frame->format = enc->pix_fmt;
    frame->width  = W;
    frame->height = H;
    if ((ret = av_frame_get_buffer(frame, 0)) < 0)
        goto end;
    frame->color_primaries = enc->color_primaries;
    frame->color_trc       = enc->color_trc;
    frame->colorspace      = enc->colorspace;
    frame->color_range     = enc->color_range;
    if (dovi) {
        make_base_layer(frame, (const AVDOVIMetadata *)rpu->data);
        if (!(ref = av_buffer_ref(rpu)) ||
            !av_frame_new_side_data_from_buf(frame, AV_FRAME_DATA_DOVI_METADATA, ref)) {
            av_buffer_unref(&ref);
            ret = AVERROR(ENOMEM);
            goto end;
        }
    } else {
        pattern_ycbcr(lin, py, pu, pv);
        put_plane(frame, 0, &py[0][0], W, H);
        put_plane(frame, 1, &pu[0][0], W / 2, H / 2);
        put_plane(frame, 2, &pv[0][0], W / 2, H / 2);
        if ((ret = add_hdr10plus(frame)) < 0)
            goto end;
    }
    for (int i = 0; i < frames; i++) {
        frame->pts = i;
        if ((ret = avcodec_send_frame(enc, frame)) < 0 ||
            (ret = write_packets(enc, oc, st, pkt)) < 0)
            goto end;
    }
    if ((ret = avcodec_send_frame(enc, NULL)) < 0 ||
        (ret = write_packets(enc, oc, st, pkt)) < 0 ||
        (ret = av_write_trailer(oc)) < 0)
        goto end;

end:
    if (ret < 0)
        fprintf(stderr, "hdr_clip: %s\n", av_err2str(ret));
    if (oc && oc->pb)
        avio_closep(&oc->pb);
    avformat_free_context(oc);
    avcodec_free_context(&enc);
    av_frame_free(&frame);
    av_packet_free(&pkt);
    av_buffer_unref(&rpu);
    return ret < 0;
}
