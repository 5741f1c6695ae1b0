/*
 * cspfix libFuzzer target: random frames, tags and options through the filter
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
 * The input bytes are read in this order (missing bytes read as 0):
 *   flags      threads 1..3, auto-conversion, C kernels only, options as a
 *              string or by av_opt_set, number of frames 1..3, commands
 *   width, height   one byte each: 1..40; 0xe0 and above: two more bytes, 1..4096
 *              (the area is capped at 2^18 samples to keep runs fast)
 *   format     one of the supported formats (ff_cspfix_pix_fmts) or an unsupported one
 *   options    a count, then per option a key byte and value byte(s)
 *   per frame  primaries, transfer, matrix, range, chroma location (each a
 *              valid, reserved or out-of-range value, or cspfix's own opRGB and
 *              DCI-P3 values), an ICC byte (bit 7: an ICC profile made of an ICC
 *              header and the pixel data, read by lcms2 with icc=auto), a format
 *              change byte, and for frames after the first a runtime command
 *   from byte 80: pixel data (repeated to fill every plane, padding included)
 *
 * The filter runs through the libavfilter API (buffer -> cspfix -> buffersink).
 * It must either fail with an error logged at AV_LOG_ERROR, or give one frame
 * per input frame with the input's size, pts, the expected format and valid
 * tags that match the options; anything else abort()s.  Memory errors, leaks
 * and undefined behaviour are the sanitizers' job.
 */

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libavfilter/avfilter.h>
#include <libavfilter/buffersink.h>
#include <libavfilter/buffersrc.h>
#include <libavutil/bprint.h>
#include <libavutil/cpu.h>
#include <libavutil/error.h>
#include <libavutil/frame.h>
#include <libavutil/log.h>
#include <libavutil/macros.h>
#include <libavutil/opt.h>
#include <libavutil/pixdesc.h>
#include <libavutil/avstring.h>

#define MAX_FRAMES 3
#define MAX_AREA   (1 << 18)
#define HEAD       80

/* the supported formats: the filter's own list (the fuzzer links cspfix_io.o) */
const enum AVPixelFormat *ff_cspfix_pix_fmts(void);

static const enum AVPixelFormat unsupported_fmts[] = {
    AV_PIX_FMT_PAL8,        AV_PIX_FMT_BAYER_RGGB8, AV_PIX_FMT_BAYER_BGGR16LE,
    AV_PIX_FMT_XYZ12LE,     AV_PIX_FMT_UYYVYY411,   AV_PIX_FMT_VAAPI,
};
#define NB_UNSUPPORTED (int)(sizeof(unsupported_fmts) / sizeof(unsupported_fmts[0]))

static int nb_supported(void)
{
    static int n;
    if (!n)
        while (ff_cspfix_pix_fmts()[n] != AV_PIX_FMT_NONE)
            n++;
    return n;
}

/* the `all` presets of vf_cspfix.c: primaries, transfer, matrix */
static const int presets[9][3] = {
    { 0 },
    { AVCOL_PRI_BT470M,    AVCOL_TRC_GAMMA22,   AVCOL_SPC_SMPTE170M },
    { AVCOL_PRI_BT470BG,   AVCOL_TRC_GAMMA28,   AVCOL_SPC_BT470BG   },
    { AVCOL_PRI_SMPTE170M, AVCOL_TRC_SMPTE170M, AVCOL_SPC_SMPTE170M },
    { AVCOL_PRI_BT470BG,   AVCOL_TRC_SMPTE170M, AVCOL_SPC_BT470BG   },
    { AVCOL_PRI_BT709,     AVCOL_TRC_BT709,     AVCOL_SPC_BT709     },
    { AVCOL_PRI_SMPTE170M, AVCOL_TRC_SMPTE170M, AVCOL_SPC_SMPTE170M },
    { AVCOL_PRI_SMPTE240M, AVCOL_TRC_SMPTE240M, AVCOL_SPC_SMPTE240M },
    { AVCOL_PRI_BT2020,    AVCOL_TRC_BT2020_10, AVCOL_SPC_BT2020_NCL },
};

static const char *const colorimetries[] = {
    "bt601", "bt709", "bt2020", "bt2020-10", "bt2100-pq", "bt2100-hlg", "smpte240m",
    "sRGB", "2:4:5:4", "1:3:5:1", "2:6:14:7", "0:0:0:0", "9:9:9:9", "bt709x", "",
};
static const char *const v4l2_names[4][8] = {
    { "smpte170m", "rec709", "srgb", "bt2020", "oprgb", "dci_p3", "raw", "nonsense" },
    { "default", "601", "709", "bt2020", "bt2020_const_lum", "smpte240m", "xv709", "x" },
    { "default", "full_range", "lim_range", "y", NULL },
    { "default", "709", "srgb", "oprgb", "smpte240m", "none", "dci_p3", "smpte2084" },
};

enum OptKind { K_INT, K_ENUM, K_FMT, K_COLORIMETRY, K_V4L2 };
static const struct Opt {
    const char *name;
    enum OptKind kind;
    int lo, hi;          ///< K_INT: value range tried (a little beyond the valid range)
    int field;           ///< 0 prim, 1 trc, 2 csp, 3 range, 4 all; -1 none
    int runtime;         ///< may be sent as a command
} opts[] = {
    { "all",          K_INT,  -1, 10, 4, 1 },
    { "primaries",    K_ENUM,  0,  0, 0, 1 },
    { "trc",          K_ENUM,  0,  0, 1, 1 },
    { "space",        K_ENUM,  0,  0, 2, 1 },
    { "range",        K_ENUM,  0,  0, 3, 0 },
    { "format",       K_FMT,   0,  0, -1, 0 },
    { "iall",         K_INT,  -1, 10, -1, 1 },
    { "iprimaries",   K_ENUM,  0,  0, -1, 1 },
    { "itrc",         K_ENUM,  0,  0, -1, 1 },
    { "ispace",       K_ENUM,  0,  0, -1, 1 },
    { "irange",       K_ENUM,  0,  0, -1, 1 },
    { "fast",         K_INT,   0,  2, -1, 1 },
    { "dither",       K_INT,  -2,  4, -1, 1 },
    { "wpadapt",      K_INT,  -1,  3, -1, 1 },
    { "linearize",    K_INT,  -1,  2, -1, 1 },
    { "chroma_loc",   K_INT,  -1,  8, -1, 1 },
    { "ichroma_loc",  K_INT,  -1,  8, -1, 1 },
    { "guess",        K_INT,   0,  1, -1, 1 },
    { "clip",         K_INT,   0,  1, -1, 1 },
    { "clipgamut",    K_INT,   0,  2, -1, 1 },
    { "colorimetry",  K_COLORIMETRY, 0, 0, -1, 0 },
    { "icolorimetry", K_COLORIMETRY, 0, 0, -1, 0 },
    { "v4l2_colorspace",   K_V4L2, 0, 0, -1, 0 },
    { "v4l2_ycbcr_enc",    K_V4L2, 1, 0, -1, 0 },
    { "v4l2_quantization", K_V4L2, 2, 0, -1, 0 },
    { "v4l2_xfer_func",    K_V4L2, 3, 0, -1, 0 },
};
#define NB_OPTS (int)(sizeof(opts) / sizeof(opts[0]))

typedef struct Reader {
    const uint8_t *p;
    size_t n;
} Reader;

static unsigned rd8(Reader *r)
{
    if (!r->n)
        return 0;
    r->n--;
    return *r->p++;
}

static unsigned rd16(Reader *r)
{
    unsigned v = rd8(r);
    return v | rd8(r) << 8;
}

static int pick_dim(Reader *r)
{
    unsigned v = rd8(r);
    return v < 0xe0 ? 1 + v % 40 : 1 + rd16(r) % 4096;
}

/* a colour enum value: mostly the valid and reserved values, sometimes far out */
static int pick_enum(Reader *r)
{
    unsigned v = rd8(r);
    if (v < 0xe0)
        return v % 28;
    switch (v & 7) {
    case 0:  return -1;
    case 1:  return 256;     /* the first extended value (V-Gamut, V-Log) */
    case 2:  return 257;
    case 3:  return INT_MAX;
    case 4:  return INT_MIN;
    case 5:  return 1000;
    case 6:  return 2;       /* unspecified */
    default: {
        const unsigned b = rd8(r);
        return b >= 0xf0 ? 0x400 + (b & 1) : b; /* cspfix's own values (opRGB, DCI-P3) */
    }
    }
}

static enum AVPixelFormat pick_fmt(Reader *r)
{
    unsigned v = rd8(r);
    /* mostly supported formats */
    return v < 0xe0 ? ff_cspfix_pix_fmts()[v % nb_supported()]
                    : unsupported_fmts[v % NB_UNSUPPORTED];
}

static int error_logged, verbose;

static void log_cb(void *avcl, int level, const char *fmt, va_list vl)
{
    if (level <= AV_LOG_ERROR)
        error_logged = 1;
    if (verbose)
        vfprintf(stderr, fmt, vl);
}

#define FAIL(...) do { fprintf(stderr, "cspfix_fuzz: " __VA_ARGS__); fputc('\n', stderr); abort(); } while (0)

/* RGB, and X'Y'Z' (matrix rgb: H.273's identity, as for XYZ) */
static int is_rgb(enum AVPixelFormat f)
{
    return !!(av_pix_fmt_desc_get(f)->flags & (AV_PIX_FMT_FLAG_RGB | AV_PIX_FMT_FLAG_XYZ));
}

static int is_float(enum AVPixelFormat f)
{
    return !!(av_pix_fmt_desc_get(f)->flags & AV_PIX_FMT_FLAG_FLOAT);
}

/* formats cspfix writes only in full range (doc/cspfix.texi): float, fewer than 8 bits */
static int full_only(enum AVPixelFormat f)
{
    const AVPixFmtDescriptor *d = av_pix_fmt_desc_get(f);
    int depth = 0;
    for (int i = 0; i < d->nb_components; i++)
        depth = FFMAX(depth, d->comp[i].depth);
    return is_float(f) || depth < 8 || !strncmp(av_get_pix_fmt_name(f), "yuvj", 4);
}

static int supported(enum AVPixelFormat f)
{
    for (int i = 0; ff_cspfix_pix_fmts()[i] != AV_PIX_FMT_NONE; i++)
        if (ff_cspfix_pix_fmts()[i] == f)
            return 1;
    return 0;
}

/* What the options fix on the output: -1 where they leave a field open. */
typedef struct Expect {
    int field[4];        ///< primaries, transfer, matrix, range
    enum AVPixelFormat fmt;
    int loose;           ///< a command changed options: only validity is checked
    int any_fmt;         ///< the options let negotiation pick the output format
    int own;             ///< primaries and transfer may be cspfix's own values (an
                         ///< option set one, or a frame's ICC profile may say one),
                         ///< whose tags are unspecified
} Expect;

static void be32(uint8_t *p, uint32_t v)
{
    p[0] = v >> 24;
    p[1] = v >> 16;
    p[2] = v >> 8;
    p[3] = v;
}

/* an ICC profile: a header lcms2 accepts (RGB display profile, version 4, XYZ PCS),
 * then the fuzzer's bytes from the tag count on */
static int attach_icc(AVFrame *f, const uint8_t *pix, size_t npix)
{
    const size_t n = FFMIN(npix, 4096);
    AVFrameSideData *sd = av_frame_new_side_data(f, AV_FRAME_DATA_ICC_PROFILE, 128 + n);

    if (!sd)
        return AVERROR(ENOMEM);
    memset(sd->data, 0, 128);
    be32(sd->data, 128 + n);
    be32(sd->data + 8, 0x04300000);
    memcpy(sd->data + 12, "mntrRGB XYZ ", 12);
    memcpy(sd->data + 36, "acsp", 4);
    be32(sd->data + 68, 0x0000f6d6);    /* D50 illuminant, s15Fixed16 */
    be32(sd->data + 72, 0x00010000);
    be32(sd->data + 76, 0x0000d32d);
    memcpy(sd->data + 128, pix, n);
    return 0;
}

static AVFrame *make_frame(enum AVPixelFormat fmt, int w, int h, Reader *r,
                           const uint8_t *pix, size_t npix, int64_t pts)
{
    AVFrame *f = av_frame_alloc();
    if (!f)
        return NULL;
    f->format = fmt;
    f->width  = w;
    f->height = h;
    if (av_frame_get_buffer(f, 0) < 0) {
        av_frame_free(&f);
        return NULL;
    }
    for (int i = 0; i < AV_NUM_DATA_POINTERS && f->buf[i]; i++) {
        uint8_t *d = f->buf[i]->data;
        const size_t size = f->buf[i]->size;
        if (!npix) {
            memset(d, 0x80, size);
            continue;
        }
        for (size_t o = 0; o < size; o += npix)
            memcpy(d + o, pix, FFMIN(npix, size - o));
    }
    f->color_primaries = pick_enum(r);
    f->color_trc       = pick_enum(r);
    f->colorspace      = pick_enum(r);
    f->color_range     = pick_enum(r);
    f->chroma_location = pick_enum(r);
    if ((rd8(r) & 0x80) && npix && attach_icc(f, pix, npix) < 0) {
        av_frame_free(&f);
        return NULL;
    }
    f->pts             = pts;
    f->duration        = 1;
    f->sample_aspect_ratio = (AVRational){ 1, 1 };
    return f;
}

static void append_opt(AVBPrint *bp, const char *key, const char *val)
{
    av_bprintf(bp, "%s%s=", bp->len ? ":" : "", key);
    /* escaped for av_opt_set_from_string: ':' separates, '\' escapes */
    for (const char *c = val; *c; c++)
        av_bprintf(bp, "%s%c", *c == ':' || *c == '\\' || *c == '=' ? "\\" : "", *c);
}

static void check_output(const AVFrame *o, const AVFrame *in, const Expect *e, int w, int h)
{
    const char *pn = av_color_primaries_name(o->color_primaries);
    const char *tn = av_color_transfer_name(o->color_trc);
    const char *cn = av_color_space_name(o->colorspace);
    const int got[4] = { o->color_primaries, o->color_trc, o->colorspace, o->color_range };

    if (o->width != w || o->height != h)
        FAIL("output %dx%d for input %dx%d", o->width, o->height, w, h);
    if (e->fmt != AV_PIX_FMT_NONE && o->format != e->fmt)
        FAIL("output format %s, expected %s", av_get_pix_fmt_name(o->format),
             av_get_pix_fmt_name(e->fmt));
    if (!supported(o->format))
        FAIL("output in unsupported format %s", av_get_pix_fmt_name(o->format));
    if (o->pts != in->pts || o->duration != in->duration)
        FAIL("pts/duration %"PRId64"/%"PRId64", expected %"PRId64"/%"PRId64,
             o->pts, o->duration, in->pts, in->duration);
    if (!pn || !tn || !cn ||
        (o->color_primaries == AVCOL_PRI_UNSPECIFIED && !e->own) ||
        o->color_primaries == AVCOL_PRI_RESERVED0 || o->color_primaries == AVCOL_PRI_RESERVED ||
        (o->color_trc == AVCOL_TRC_UNSPECIFIED && !e->own) || o->color_trc == AVCOL_TRC_RESERVED0 ||
        o->color_trc == AVCOL_TRC_RESERVED || o->colorspace == AVCOL_SPC_UNSPECIFIED ||
        o->colorspace == AVCOL_SPC_RESERVED ||
        (o->color_range != AVCOL_RANGE_MPEG && o->color_range != AVCOL_RANGE_JPEG))
        FAIL("output tags not a supported description: %d/%d/%d/%d",
             o->color_primaries, o->color_trc, o->colorspace, o->color_range);
    if (is_rgb(o->format) != (o->colorspace == AVCOL_SPC_RGB))
        FAIL("output matrix %s on %s", cn, av_get_pix_fmt_name(o->format));
    if (full_only(o->format) && o->color_range != AVCOL_RANGE_JPEG)
        FAIL("%s output tagged limited range", av_get_pix_fmt_name(o->format));
    if (e->loose)
        return;
    for (int i = 0; i < 4; i++)
        if (e->field[i] >= 0 && got[i] != (e->field[i] >= 0x400 ? 2 : e->field[i]) &&
            !(i == 2 && is_rgb(o->format)) && !(i == 3 && full_only(o->format)))
            FAIL("output field %d is %d, the options say %d", i, got[i], e->field[i]);
}

static int run(Reader *r, const uint8_t *pix, size_t npix)
{
    const unsigned flags = rd8(r);
    const int threads = 1 + flags % 3;
    const int auto_convert = flags & 4, c_only = flags & 8, by_opt = flags & 16;
    const int nb_frames = 1 + (flags >> 5) % MAX_FRAMES;
    const int w = pick_dim(r), h0 = pick_dim(r);
    const int h = (int64_t)w * h0 > MAX_AREA ? FFMAX(1, MAX_AREA / w) : h0;
    const enum AVPixelFormat fmt = pick_fmt(r);
    const int nb_opts = rd8(r) % 8;
    AVFilterGraph *graph = NULL;
    AVFilterContext *src = NULL, *sink = NULL, *filt = NULL;
    AVFrame *in[MAX_FRAMES] = { NULL }, *out = NULL;
    AVBPrint args;
    Expect e = { { -1, -1, -1, -1 }, AV_PIX_FMT_NONE, 0, 0 };
    int all = 0, has_colorimetry = 0, nb_out = 0, ret = 0, errors_expected = 1;
    char buf[256];

    av_bprint_init(&args, 0, AV_BPRINT_SIZE_UNLIMITED);
    av_force_cpu_flags(c_only ? 0 : -1);
    error_logged = 0;

    if (!(graph = avfilter_graph_alloc()))
        goto end;
    graph->nb_threads = threads;
    if (!auto_convert)
        avfilter_graph_set_auto_convert(graph, AVFILTER_AUTO_CONVERT_NONE);

    /* options */
    if (!(filt = avfilter_graph_alloc_filter(graph, avfilter_get_by_name("cspfix"), "cspfix"))) {
        ret = AVERROR(ENOMEM);
        goto end;
    }
    for (int i = 0; i < nb_opts; i++) {
        const struct Opt *o = &opts[rd8(r) % NB_OPTS];
        int v = 0;
        switch (o->kind) {
        case K_INT:
            v = o->lo + (int)(rd8(r) % (o->hi - o->lo + 1));
            snprintf(buf, sizeof(buf), "%d", v);
            break;
        case K_ENUM:
            v = pick_enum(r);
            snprintf(buf, sizeof(buf), "%d", v);
            break;
        case K_FMT:
            v = pick_fmt(r);
            snprintf(buf, sizeof(buf), "%s", av_get_pix_fmt_name(v));
            break;
        case K_COLORIMETRY:
            snprintf(buf, sizeof(buf), "%s", colorimetries[rd8(r) % FF_ARRAY_ELEMS(colorimetries)]);
            has_colorimetry = 1;
            break;
        case K_V4L2: {
            const char *const *names = v4l2_names[o->lo];
            int n = 0;
            while (n < 8 && names[n])
                n++;
            snprintf(buf, sizeof(buf), "%s", names[rd8(r) % n]);
            /* V4L2's opRGB and DCI-P3 are cspfix's own values: unspecified tags out */
            if (strstr(buf, "oprgb") || strstr(buf, "dci_p3"))
                e.own = 1;
            break;
        }
        }
        if (v >= 0x400)
            e.own = 1;
        if (o->field == 4)
            all = v;
        else if (o->field >= 0)
            e.field[o->field] = v;
        if (o->kind == K_FMT)
            e.fmt = v;
        if (by_opt) {
            if ((ret = av_opt_set(filt, o->name, buf, AV_OPT_SEARCH_CHILDREN)) < 0)
                goto end;
        } else {
            append_opt(&args, o->name, buf);
        }
    }
    if (!av_bprint_is_complete(&args)) {
        ret = AVERROR(ENOMEM);
        goto end;
    }
    if ((ret = avfilter_init_str(filt, by_opt ? NULL : args.str)) < 0)
        goto end;

    /* what the options fix on the output; an explicit space of the other colour model
     * (rgb on Y'CbCr input, Y'CbCr on RGB input), a colorimetry (sRGB is rgb) and
     * range=tv on yuvj input let negotiation choose another format */
    if (e.fmt == AV_PIX_FMT_NONE &&
        ((e.field[2] >= 0 && e.field[2] != AVCOL_SPC_UNSPECIFIED &&
          (e.field[2] == AVCOL_SPC_RGB) != is_rgb(fmt)) || has_colorimetry ||
         (e.field[3] == AVCOL_RANGE_MPEG && full_only(fmt))))
        e.any_fmt = 1;
    for (int i = 0; i < 3; i++)
        if (e.field[i] == AVCOL_PRI_UNSPECIFIED) /* 2 in every enum: keep the input's */
            e.field[i] = -1;
    if (e.field[3] == AVCOL_RANGE_UNSPECIFIED)
        e.field[3] = -1;
    if (all > 0 && all < 9) {
        for (int i = 0; i < 3; i++)
            if (e.field[i] < 0)
                e.field[i] = presets[all][i];
    }
    if (has_colorimetry)
        e.field[0] = e.field[1] = e.field[2] = e.field[3] = -1;
    /* X'Y'Z' input with other primaries asked of the output: no X'Y'Z' output format */
    if (av_pix_fmt_desc_get(fmt) && (av_pix_fmt_desc_get(fmt)->flags & AV_PIX_FMT_FLAG_XYZ) &&
        ((e.field[0] >= 0 && e.field[0] != AVCOL_PRI_SMPTE428) || has_colorimetry))
        e.any_fmt = 1;
    if (e.fmt == AV_PIX_FMT_NONE && supported(fmt) && !e.any_fmt)
        e.fmt = fmt;
    if (e.fmt != AV_PIX_FMT_NONE && is_rgb(e.fmt))
        e.field[2] = -1;

    /* frames: the pixel data follows all the other fields */
    for (int i = 0; i < nb_frames; i++) {
        unsigned change = rd8(r);
        enum AVPixelFormat f = fmt;
        if (i && change >= 0xc0)
            f = ff_cspfix_pix_fmts()[change % nb_supported()];
        if (!(in[i] = make_frame(f, w, h, r, pix, npix, 3 * i + 1))) {
            ret = 0;                 /* a format av_frame_get_buffer cannot allocate */
            errors_expected = 0;
            goto end;
        }
        if (av_frame_get_side_data(in[i], AV_FRAME_DATA_ICC_PROFILE))
            e.own = 1;
    }

    /* the link's colour space and range: the first frame's, where the buffer source takes them */
    snprintf(buf, sizeof(buf), "video_size=%dx%d:pix_fmt=%d:time_base=1/25:pixel_aspect=1/1",
             w, h, fmt);
    if (in[0]->colorspace >= 0 && in[0]->colorspace < AVCOL_SPC_NB &&
        in[0]->colorspace != AVCOL_SPC_RESERVED)
        av_strlcatf(buf, sizeof(buf), ":colorspace=%d", in[0]->colorspace);
    if (in[0]->color_range >= 0 && in[0]->color_range < AVCOL_RANGE_NB)
        av_strlcatf(buf, sizeof(buf), ":range=%d", in[0]->color_range);
    if ((ret = avfilter_graph_create_filter(&src, avfilter_get_by_name("buffer"), "in", buf,
                                            NULL, graph)) < 0 ||
        (ret = avfilter_graph_create_filter(&sink, avfilter_get_by_name("buffersink"), "out",
                                            NULL, NULL, graph)) < 0 ||
        (ret = avfilter_link(src, 0, filt, 0)) < 0 ||
        (ret = avfilter_link(filt, 0, sink, 0)) < 0 ||
        (ret = avfilter_graph_config(graph, NULL)) < 0)
        goto end;

    for (int i = 0; i <= nb_frames; i++) {
        if (i && i < nb_frames) {
            /* a runtime command between frames */
            unsigned c = rd8(r);
            if (c >= 0xc0) {
                const struct Opt *o = &opts[c % NB_OPTS];
                if (o->runtime) {
                    snprintf(buf, sizeof(buf), "%d", o->kind == K_ENUM ? pick_enum(r) :
                             o->lo + (int)(rd8(r) % (o->hi - o->lo + 1)));
                    if (avfilter_graph_send_command(graph, "cspfix", o->name, buf, NULL, 0, 0) >= 0)
                        e.loose = 1;
                }
            }
        }
        ret = av_buffersrc_add_frame_flags(src, i < nb_frames ? in[i] : NULL,
                                           AV_BUFFERSRC_FLAG_KEEP_REF);
        if (ret < 0)
            goto end;
        for (;;) {
            if (!(out = av_frame_alloc())) {
                ret = AVERROR(ENOMEM);
                goto end;
            }
            ret = av_buffersink_get_frame(sink, out);
            if (ret < 0)
                break;
            if (nb_out >= nb_frames)
                FAIL("more output frames than input frames");
            check_output(out, in[nb_out], &e, w, h);
            nb_out++;
            av_frame_free(&out);
        }
        av_frame_free(&out);
        if (ret != AVERROR(EAGAIN) && ret != AVERROR_EOF)
            goto end;
    }
    if (nb_out != nb_frames)
        FAIL("%d frames in, %d out", nb_frames, nb_out);
    ret = 0;

end:
    if (ret < 0 && errors_expected && !error_logged && ret != AVERROR(ENOMEM))
        FAIL("failed (%s) without an error message", av_err2str(ret));
    av_frame_free(&out);
    for (int i = 0; i < MAX_FRAMES; i++)
        av_frame_free(&in[i]);
    avfilter_graph_free(&graph);
    av_bprint_finalize(&args, NULL);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static int init;
    Reader r = { data, size };
    const size_t head = FFMIN(size, HEAD);

    if (!init) {
        verbose = !!getenv("CSPFIX_FUZZ_VERBOSE");
        av_log_set_callback(log_cb);
        av_log_set_level(verbose ? AV_LOG_VERBOSE : AV_LOG_ERROR);
        init = 1;
    }
    /* The fields are read from the first HEAD bytes (missing ones read as 0); the
     * pixel data is everything after them, so mutating pixels shifts no field. */
    r.n = head;
    return run(&r, data + head, size - head);
}
