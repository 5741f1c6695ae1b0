/*
 * cspfix: the conversion plan: two colour descriptions checked and turned into a list
 * of float64 stages, optimised
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
 * The plan is data: a list of stages built from the two descriptions in double
 * precision (doc/conversion-model.md), then optimised: inverse stage pairs
 * cancel, adjacent matrices fuse, identity matrices go. Kernels are bound to it
 * in cspfix_exec.c.
 */

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "libavutil/avassert.h"
#include "libavutil/avstring.h"
#include "libavutil/bprint.h"
#include "libavutil/csp.h"
#include "libavutil/error.h"
#include "libavutil/log.h"
#include "libavutil/pixdesc.h"

#include "cspfix_colorimetry.h"
#include "cspfix_custom.h"
#include "cspfix_hdrmeta.h"
#include "cspfix_plan.h"
#include "cspfix_signal.h"
#include "cspfix_tf.h"
#include "cspfix_tonemap.h"

/* ---- descriptions ---- */

static int is_cl(enum AVColorSpace csp)
{
    return csp == AVCOL_SPC_BT2020_CL || csp == AVCOL_SPC_CHROMA_DERIVED_CL;
}

static const int supported_prim[] = {
    AVCOL_PRI_BT709, AVCOL_PRI_BT470M, AVCOL_PRI_BT470BG, AVCOL_PRI_SMPTE170M,
    AVCOL_PRI_SMPTE240M, AVCOL_PRI_FILM, AVCOL_PRI_BT2020, AVCOL_PRI_SMPTE428,
    AVCOL_PRI_SMPTE431, AVCOL_PRI_SMPTE432, AVCOL_PRI_EBU3213, AVCOL_PRI_V_GAMUT,
    CSPFIX_PRI_OPRGB,
};

/* the supported transfers are those with a curve (ff_cspfix_curve()) */
static int trc_supported(int trc)
{
    return ff_cspfix_curve(trc, CSPFIX_LIN_SCENE) >= 0;
}

static const enum AVColorSpace supported_csp[] = {
    AVCOL_SPC_RGB, AVCOL_SPC_BT709, AVCOL_SPC_FCC, AVCOL_SPC_BT470BG,
    AVCOL_SPC_SMPTE170M, AVCOL_SPC_SMPTE240M, AVCOL_SPC_YCGCO, AVCOL_SPC_BT2020_NCL,
    AVCOL_SPC_BT2020_CL, AVCOL_SPC_CHROMA_DERIVED_NCL, AVCOL_SPC_CHROMA_DERIVED_CL,
    AVCOL_SPC_ICTCP, AVCOL_SPC_SMPTE2085, AVCOL_SPC_IPT_C2,
};

#define LIST_NAMES(bp, arr, namefn)                                     \
    for (int i = 0; i < FF_ARRAY_ELEMS(arr); i++)                       \
        av_bprintf(bp, "%s%s", i ? ", " : "", namefn(arr[i]))

static int in_list(const int *arr, int n, int v)
{
    for (int i = 0; i < n; i++)
        if (arr[i] == v)
            return 1;
    return 0;
}

static const char *name_or_num(const char *name, char *buf, int v)
{
    if (name)
        return name;
    snprintf(buf, 16, "%d", v);
    return buf;
}

int ff_cspfix_desc_check(void *log_ctx, const CspfixDesc *d, const char *what)
{
    AVBPrint bp;
    char buf[16];
    const char *field = NULL, *value = NULL;

    av_bprint_init(&bp, 0, AV_BPRINT_SIZE_AUTOMATIC);
    if (!in_list((const int *)supported_prim, FF_ARRAY_ELEMS(supported_prim), d->prim) &&
        !ff_cspfix_custom_prim_name(d->prim) && !ff_cspfix_is_xyz_prim(d->prim)) {
        field = "primaries";
        value = name_or_num(ff_cspfix_prim_name(d->prim), buf, d->prim);
        LIST_NAMES(&bp, supported_prim, ff_cspfix_prim_name);
    } else if (!trc_supported(d->trc)) {
        field = "transfer characteristics";
        value = name_or_num(ff_cspfix_trc_name(d->trc), buf, d->trc);
        for (int t = 0, n = 0; t <= CSPFIX_TRC_DCIP3; t++)
            if (trc_supported(t))
                av_bprintf(&bp, "%s%s", n++ ? ", " : "", ff_cspfix_trc_name(t));
    } else if (!in_list((const int *)supported_csp, FF_ARRAY_ELEMS(supported_csp), d->csp)) {
        field = "matrix (colorspace)";
        value = name_or_num(av_color_space_name(d->csp), buf, d->csp);
        LIST_NAMES(&bp, supported_csp, av_color_space_name);
    } else if (d->range != AVCOL_RANGE_MPEG && d->range != AVCOL_RANGE_JPEG) {
        field = "range";
        value = name_or_num(av_color_range_name(d->range), buf, d->range);
        av_bprintf(&bp, "tv (limited), pc (full)");
    } else if ((d->csp == AVCOL_SPC_ICTCP &&
                (d->prim != AVCOL_PRI_BT2020 || !ff_cspfix_is_hdr_trc(d->trc))) ||
               (d->csp == AVCOL_SPC_IPT_C2 &&
                (d->prim != AVCOL_PRI_BT2020 || d->trc != AVCOL_TRC_SMPTE2084))) {
        const int ict = d->csp == AVCOL_SPC_ICTCP;
        av_log(log_ctx, AV_LOG_ERROR, "Unsupported %s description: matrix %s needs "
               "primaries bt2020 and transfer %s (got %s, %s)\n", what,
               ict ? "ictcp" : "ipt-c2", ict ? "smpte2084 or arib-std-b67" : "smpte2084",
               name_or_num(ff_cspfix_prim_name(d->prim), buf, d->prim),
               ff_cspfix_trc_name(d->trc));
        av_bprint_finalize(&bp, NULL);
        return AVERROR(EINVAL);
    }
    if (field) {
        /* the input override that fixes a mislabelled input */
        const char *fix = strcmp(what, "input") ? NULL :
                          !strcmp(field, "primaries") ? "iprimaries" :
                          !strcmp(field, "range") ? "irange" :
                          !strcmp(field, "transfer characteristics") ? "itrc" : "ispace";
        av_log(log_ctx, AV_LOG_ERROR, "Unsupported %s %s: %s. Supported: %s%s%s%s\n",
               what, field, value, bp.str, fix ? ". If the input is mislabelled, set its real "
               "value with " : "", fix ? fix : "", fix ? "=" : "");
        av_bprint_finalize(&bp, NULL);
        return AVERROR(EINVAL);
    }
    av_bprint_finalize(&bp, NULL);
    return 0;
}

/* ---- building ---- */

static CspfixOp *add_op(CspfixPlan *p, enum CspfixOpType type)
{
    CspfixOp *op;
    av_assert0(p->nb_ops < CSPFIX_MAX_OPS);
    op = &p->ops[p->nb_ops++];
    memset(op, 0, sizeof(*op));
    op->type = type;
    return op;
}

static void add_matrix(CspfixPlan *p, const double m[3][4])
{
    CspfixOp *op = add_op(p, CSPFIX_OP_MATRIX);
    memcpy(op->m, m, sizeof(op->m));
}

static void add_scale(CspfixPlan *p, double s)
{
    double m[3][4] = { { s, 0, 0, 0 }, { 0, s, 0, 0 }, { 0, 0, s, 0 } };
    add_matrix(p, m);
}

static void add_tf(CspfixPlan *p, int curve, int encode)
{
    CspfixOp *op;
    if (curve == CSPFIX_CURVE_NONE)
        return;
    op = add_op(p, CSPFIX_OP_TF);
    op->curve  = curve;
    op->encode = encode;
}

/* The constant-luminance TF normalised to TF(1) = 1 (PQ: 1.0 = 10000 cd/m2) */
static double cl_tf(int curve, double x)
{
    if (curve == CSPFIX_CURVE_PQ)
        x *= 10000.0 / CSPFIX_REF_WHITE;
    return ff_cspfix_curve_encode(curve, x);
}

static int cl_params(CspfixOp *op, const CspfixDesc *d)
{
    const int curve = ff_cspfix_curve(d->trc, CSPFIX_LIN_SCENE);
    double kr, kb;
    int ret;

    if ((ret = ff_cspfix_luma_coeffs(d->csp, d->prim, &kr, &kb)) < 0)
        return ret;
    op->curve = curve;
    op->k[0]  = kr;
    op->k[1]  = 1.0 - kr - kb;
    op->k[2]  = kb;
    op->cl[0] = 2.0 * cl_tf(curve, 1.0 - kb);
    op->cl[1] = 2.0 * (1.0 - cl_tf(curve, kb));
    op->cl[2] = 2.0 * cl_tf(curve, 1.0 - kr);
    op->cl[3] = 2.0 * (1.0 - cl_tf(curve, kr));
    return 0;
}

double ff_cspfix_hlg_gamma(double lw)
{
    return CSPFIX_HLG_GAMMA + 0.42 * log10(lw / CSPFIX_HLG_LW);
}

static int add_ootf(CspfixPlan *p, enum AVColorPrimaries prim, int inverse, double lw)
{
    const double gamma = ff_cspfix_hlg_gamma(lw);
    double npm[3][3];
    CspfixOp *op;
    int ret;

    if ((ret = ff_cspfix_npm(prim, npm)) < 0)
        return ret;
    op = add_op(p, CSPFIX_OP_OOTF);
    for (int i = 0; i < 3; i++)
        op->k[i] = npm[1][i];
    op->lw = lw;
    if (!inverse) {
        /* scene E -> display light / 203: Lw/203 * Ys^(gamma-1) * E */
        op->gain  = lw / CSPFIX_REF_WHITE;
        op->power = gamma - 1.0;
    } else {
        /* E = L * (203/Lw)^(1/gamma) * Yd^((1-gamma)/gamma) */
        op->gain  = pow(CSPFIX_REF_WHITE / lw, 1.0 / gamma);
        op->power = (1.0 - gamma) / gamma;
    }
    op->encode = inverse;
    return 0;
}

static double hlg_scene_white(void)
{
    return ff_cspfix_curve_decode(CSPFIX_CURVE_HLG, 0.75);
}


/* ---- tone and gamut mapping stages (doc/conversion-model.md section 4) ---- */

static int add_tonemap(CspfixPlan *p, enum AVColorPrimaries prim, int tm, double ls, double lt,
                       double out_white, double desat, double black, const CspfixBezier *bz)
{
    double npm[3][3];
    CspfixOp *op;
    int ret;

    if ((ret = ff_cspfix_npm(prim, npm)) < 0)
        return ret;
    op = add_op(p, CSPFIX_OP_TONEMAP);
    for (int i = 0; i < 3; i++)
        op->k[i] = npm[1][i];
    op->tm        = tm;
    op->src_peak  = ls;
    op->src_avg   = tm == CSPFIX_TM_SPLINE ? p->tone.src_avg : 0.0;
    op->dst_peak  = lt;
    op->out_white = out_white;
    op->desat     = desat;
    /* BT.2390's black lift: bt2390 only (0 keeps the curve bit-identical) */
    op->dst_black = tm == CSPFIX_TM_BT2390 ? black : 0.0;
    if (tm == CSPFIX_TM_ST2094_40)
        op->bz = *bz;
    return 0;
}

/* IPT (Ebner and Fairchild 1998): XYZ (D65) -> LMS (Hunt-Pointer-Estevez, D65 normalised),
 * L'M'S' = LMS^0.43 (odd), L'M'S' -> IPT */
static const double ipt_lms_from_xyz[3][3] = {
    {  0.4002, 0.7075, -0.0807 },
    { -0.2280, 1.1500,  0.0612 },
    {  0.0,    0.0,     0.9184 },
};

static const double ipt_from_lms[3][3] = {
    { 0.4000,  0.4000,  0.2000 },
    { 4.4550, -4.8510,  0.3960 },
    { 0.8056,  0.3572, -1.1628 },
};

/*
 * Tone mapping on IPT's intensity (tmmode=ipt): linear RGB in prim -> IPT, (I, P, T)
 * scaled by G_I(I) (the curve applied to the light of a grey of that I; P and T by the
 * same factor: hue and the chroma to intensity ratio are kept), back to RGB, then light
 * above the target scaled down on max-RGB (clip: IPT is homogeneous, so the hue holds).
 */
static int add_tonemap_ipt(CspfixPlan *p, enum AVColorPrimaries prim, int tm, double ls,
                           double lt, double out_white, double black, const CspfixBezier *bz)
{
    double npm[3][3], m[3][3], mi[3][3], a[3][4];
    CspfixOp *op;
    int ret;

    if ((ret = ff_cspfix_npm(prim, npm)) < 0)
        return ret;
    ff_cspfix_mat3_mul(m, ipt_lms_from_xyz, npm);
    ff_cspfix_aff_from_mat3(a, m);
    add_matrix(p, a);
    add_tf(p, CSPFIX_CURVE_IPT, 1);
    ff_cspfix_aff_from_mat3(a, ipt_from_lms);
    add_matrix(p, a);
    if ((ret = add_tonemap(p, prim, tm, ls, lt, out_white, 0.0, black, bz)) < 0)
        return ret;
    op = &p->ops[p->nb_ops - 1];
    op->by_first = 1;
    op->trim     = p->tone.trim;
    ff_cspfix_mat3_inv(mi, ipt_from_lms);
    ff_cspfix_aff_from_mat3(a, mi);
    add_matrix(p, a);
    add_tf(p, CSPFIX_CURVE_IPT, 0);
    if ((ret = ff_cspfix_mat3_inv(mi, m)) < 0)
        return ret;
    ff_cspfix_aff_from_mat3(a, mi);
    add_matrix(p, a);
    return add_tonemap(p, prim, CSPFIX_TM_CLIP, ls, lt, out_white, 0.0, 0.0, bz);
}

static int add_tone(CspfixPlan *p, const CspfixPlanOptions *o, enum AVColorPrimaries prim,
                    int tm, double ls, double lt, double out_white)
{
    int ret;

    if (o->tmmode == CSPFIX_TMMODE_IPT)
        return add_tonemap_ipt(p, prim, tm, ls, lt, out_white, o->dst_black, &o->bezier);
    if ((ret = add_tonemap(p, prim, tm, ls, lt, out_white, o->desat, o->dst_black, &o->bezier)) < 0)
        return ret;
    p->ops[p->nb_ops - 1].trim = p->tone.trim;
    return 0;
}

/* gamut=desaturate/compress in the output primaries; g maps input to output RGB */
static int add_gamut(CspfixPlan *p, int mode, enum AVColorPrimaries prim, const double g0[3][3],
                     double hi, const double src_prim[3][2])
{
    double npm[3][3], g[3][3];
    CspfixOp *op;
    int ret;

    if ((ret = ff_cspfix_npm(prim, npm)) < 0)
        return ret;
    memcpy(g, g0, sizeof(g));
    if (src_prim[0][1] > 0.0 && src_prim[1][1] > 0.0 && src_prim[2][1] > 0.0) {
        /* the content's gamut is the mastering display's: its primaries in output RGB
         * (distances are ratios, so the primaries' luminances do not matter) */
        double inv[3][3], xyz[3];
        if ((ret = ff_cspfix_mat3_inv(inv, npm)) < 0)
            return ret;
        for (int j = 0; j < 3; j++) {
            ff_cspfix_xy_to_xyz(xyz, src_prim[j][0], src_prim[j][1]);
            for (int i = 0; i < 3; i++)
                g[i][j] = inv[i][0] * xyz[0] + inv[i][1] * xyz[1] + inv[i][2] * xyz[2];
        }
    }
    op = add_op(p, CSPFIX_OP_GAMUT);
    op->gmode = mode;
    op->hi    = hi;
    op->thr   = CSPFIX_GAMUT_THRESHOLD;
    for (int i = 0; i < 3; i++)
        op->k[i] = npm[1][i];
    for (int i = 0; i < 3; i++) {
        /* the farthest input primary from the achromatic axis, as (ach - c) / ach */
        double lim = 0.0;
        for (int j = 0; j < 3; j++) {
            double ach = FFMAX(FFMAX(g[0][j], g[1][j]), g[2][j]);
            if (ach > 0.0)
                lim = FFMAX(lim, (ach - g[i][j]) / ach);
        }
        /* knee scale so that lim maps to 1 (component 0): thr + e / (1 + e / s), e = d - thr */
        op->s[i] = lim > 1.0 + 1e-6 ?
                   ((lim - op->thr) / (1.0 - op->thr) - 1.0) / (lim - op->thr) : 0.0;
    }
    return 0;
}

/* codes -> linear RGB (relative) */
static int build_input(CspfixPlan *p, const CspfixDesc *d, const CspfixPlanOptions *o,
                       double lw)
{
    double n[3][4], m[3][4];
    int curve = ff_cspfix_curve(d->trc, o->linearize);
    int ret;

    ff_cspfix_norm_matrix(n, d);
    if (o->dovi) {
        double a[3][4];
        /* the RPU's colour: reshaped codes -> PQ-coded E', PQ, its LMS -> BT.2020 RGB */
        add_matrix(p, o->dovi_ycc);
        add_tf(p, ff_cspfix_curve(AVCOL_TRC_SMPTE2084, o->linearize), 0);
        ff_cspfix_aff_from_mat3(a, o->dovi_lms);
        add_matrix(p, a);
        return 0;
    }
    if (ff_cspfix_is_lms(d->csp)) {
        double ii[3][3], a[3][4];
        ff_cspfix_mat3_inv(ii, ff_cspfix_lms_signal_matrix(d));
        ff_cspfix_aff_from_mat3(a, ii);
        ff_cspfix_aff_compose(m, a, n);
        add_matrix(p, m);
        /* LMS carry the PQ EOTF or the HLG inverse OETF, then back to RGB */
        add_tf(p, curve, 0);
        ff_cspfix_mat3_inv(ii, ff_cspfix_lms_matrix(d->csp));
        ff_cspfix_aff_from_mat3(a, ii);
        add_matrix(p, a);
    } else {
        if (is_cl(d->csp)) {
            add_matrix(p, n);
            if ((ret = cl_params(add_op(p, CSPFIX_OP_CL_DECODE), d)) < 0)
                return ret;
        } else {
            if ((ret = ff_cspfix_ycc_matrix(m, d)) < 0)
                return ret;
            ff_cspfix_aff_compose(m, m, n);
            add_matrix(p, m);
        }
        if (o->fast)
            return 0;
        /* a LUT profile's R'G'B': its table to linear BT.2020 (the curve is linear) */
        if (ff_cspfix_custom_lut3d_of_trc(d->trc))
            add_op(p, CSPFIX_OP_LUT3D)->lut = ff_cspfix_custom_lut3d_of_trc(d->trc);
        add_tf(p, curve, 0);
    }
    if (curve == CSPFIX_CURVE_HLG) {
        if (o->linearize == CSPFIX_LIN_DISPLAY)
            return add_ootf(p, d->prim, 0, lw);
        add_scale(p, 1.0 / hlg_scene_white());
    }
    return 0;
}

/* linear RGB (relative) -> codes */
static int build_output(CspfixPlan *p, const CspfixDesc *d, const CspfixPlanOptions *o,
                        double lw)
{
    double n[3][4], ni[3][4], m[3][4], mi[3][4];
    int curve = ff_cspfix_curve(d->trc, o->linearize);
    int ret;

    if (curve == CSPFIX_CURVE_HLG && !o->fast) {
        if (o->linearize == CSPFIX_LIN_DISPLAY) {
            if ((ret = add_ootf(p, d->prim, 1, lw)) < 0)
                return ret;
        } else {
            add_scale(p, hlg_scene_white());
        }
    }
    ff_cspfix_norm_matrix(n, d);
    if ((ret = ff_cspfix_aff_inv(ni, n)) < 0)
        return ret;
    if (ff_cspfix_is_lms(d->csp)) {
        double a[3][4];
        ff_cspfix_aff_from_mat3(a, ff_cspfix_lms_matrix(d->csp));
        add_matrix(p, a);
        add_tf(p, curve, 1);
        ff_cspfix_aff_from_mat3(a, ff_cspfix_lms_signal_matrix(d));
        ff_cspfix_aff_compose(m, ni, a);
        add_matrix(p, m);
        return 0;
    }
    if (!o->fast)
        add_tf(p, curve, 1);
    if (is_cl(d->csp)) {
        if ((ret = cl_params(add_op(p, CSPFIX_OP_CL_ENCODE), d)) < 0)
            return ret;
        add_matrix(p, ni);
        return 0;
    }
    if ((ret = ff_cspfix_ycc_matrix(m, d)) < 0 || (ret = ff_cspfix_aff_inv(mi, m)) < 0)
        return ret;
    ff_cspfix_aff_compose(m, ni, mi);
    add_matrix(p, m);
    return 0;
}

static int ops_cancel(const CspfixOp *a, const CspfixOp *b)
{
    if (a->type != b->type)
        return 0;
    switch (a->type) {
    case CSPFIX_OP_TF:
        return a->curve == b->curve && a->encode != b->encode;
    case CSPFIX_OP_OOTF:
        return a->encode != b->encode && !memcmp(a->k, b->k, sizeof(a->k)) && a->lw == b->lw;
    default:
        return 0;
    }
}

static int cl_cancel(const CspfixOp *a, const CspfixOp *b)
{
    return a->type == CSPFIX_OP_CL_DECODE && b->type == CSPFIX_OP_CL_ENCODE &&
           a->curve == b->curve && !memcmp(a->k, b->k, sizeof(a->k));
}

static void remove_ops(CspfixPlan *p, int i, int n)
{
    memmove(&p->ops[i], &p->ops[i + n], (p->nb_ops - i - n) * sizeof(p->ops[0]));
    p->nb_ops -= n;
}

static void optimize(CspfixPlan *p)
{
    int changed = 1;

    while (changed) {
        changed = 0;
        for (int i = 0; i < p->nb_ops; i++) {
            CspfixOp *a = &p->ops[i];
            if (a->type == CSPFIX_OP_MATRIX && ff_cspfix_aff_is_identity(a->m)) {
                remove_ops(p, i, 1);
                changed = 1;
                break;
            }
            if (i + 1 >= p->nb_ops)
                continue;
            if (a->type == CSPFIX_OP_MATRIX && a[1].type == CSPFIX_OP_MATRIX) {
                ff_cspfix_aff_compose(a->m, a[1].m, a->m);
                remove_ops(p, i + 1, 1);
                changed = 1;
                break;
            }
            if (ops_cancel(a, &a[1]) || cl_cancel(a, &a[1])) {
                remove_ops(p, i, 2);
                changed = 1;
                break;
            }
        }
    }
    /* Two curves in a row (a transfer change without a gamut change) become one
     * table of their composition: half the work, one approximation instead of two. */
    for (int i = 0; i + 1 < p->nb_ops; i++) {
        CspfixOp *a = &p->ops[i];
        if (a->type == CSPFIX_OP_TF && a[1].type == CSPFIX_OP_TF &&
            a->curve2 == CSPFIX_CURVE_NONE && a[1].curve2 == CSPFIX_CURVE_NONE) {
            a->curve2  = a[1].curve;
            a->encode2 = a[1].encode;
            remove_ops(p, i + 1, 1);
        }
    }
}

int ff_cspfix_plan_build(CspfixPlan *p, const CspfixDesc *in, const CspfixDesc *out,
                         const CspfixPlanOptions *opt, void *log_ctx)
{
    CspfixPlanOptions o = *opt;
    CspfixDesc din = *in;
    double src_peak, dst_peak, lw_in, lw_out;
    int ret, tm, hdr_in, hdr_out;

    memset(p, 0, sizeof(*p));
    /* ICtCp is defined on linear light: "fast" cannot skip linearisation; nor can the
     * colour of a Dolby Vision RPU, which is BT.2020 PQ whatever its matrix */
    if (ff_cspfix_is_lms(in->csp) || ff_cspfix_is_lms(out->csp) || o.dovi || ff_cspfix_custom_lut3d_of_trc(in->trc))
        o.fast = 0;
    if (o.dovi) {
        din.prim  = AVCOL_PRI_BT2020;
        din.trc   = AVCOL_TRC_SMPTE2084;
        din.csp   = AVCOL_SPC_BT2020_NCL;
        din.range = AVCOL_RANGE_JPEG;
        in = &din;
    }
    opt = &o;
    if ((ret = ff_cspfix_desc_check(log_ctx, in, "input")) < 0 ||
        (ret = ff_cspfix_desc_check(log_ctx, out, "output")) < 0)
        return ret;

    hdr_in  = ff_cspfix_is_hdr_trc(in->trc);
    hdr_out = ff_cspfix_is_hdr_trc(out->trc);
    ff_cspfix_tone(in, out, opt, &p->tone);
    tm       = p->tone.tm;
    src_peak = p->tone.src_peak;
    dst_peak = p->tone.dst_peak;
    lw_in    = p->tone.lw_in;
    lw_out   = p->tone.lw_out;

    if ((ret = build_input(p, in, opt, lw_in)) < 0)
        return ret;
    if (!opt->fast) {
        double g[3][3], a[3][4];
        const double hi = out->trc == AVCOL_TRC_SMPTE2084 ? 10000.0 / CSPFIX_REF_WHITE :
                          out->trc == AVCOL_TRC_ARIB_STD_B67 ? lw_out / CSPFIX_REF_WHITE : 1.0;
        const int gmode = opt->clipgamut ? CSPFIX_GAMUT_CLIP : opt->gamut;
        /* the top of the output's light: what it holds, or where light clips (HDR -> HDR,
         * tonemap=none, a source above the target) */
        const double clip_hi = p->tone.clip_peak > 0.0 ? p->tone.clip_peak / CSPFIX_REF_WHITE : hi;

        if ((ret = ff_cspfix_gamut_matrix(g, in->prim, out->prim, opt->wpadapt)) < 0)
            return ret;
        ff_cspfix_aff_from_mat3(a, g);
        add_matrix(p, a);
        if (hdr_in && !hdr_out) {
            /* HDR -> SDR: the SDR output's 1.0 is target_peak cd/m2 */
            if (tm == CSPFIX_TM_NONE)
                add_scale(p, CSPFIX_REF_WHITE / dst_peak);
            else if ((ret = add_tone(p, opt, out->prim, tm, src_peak, dst_peak, dst_peak)) < 0)
                return ret;
            p->tone_mapped = tm != CSPFIX_TM_NONE;
            p->hdr_to_sdr  = tm == CSPFIX_TM_NONE && out->depth;
            p->src_peak   = src_peak;
        } else if (!hdr_in && hdr_out) {
            /* SDR -> HDR: SDR 1.0 lands at target_peak cd/m2 (203 by default, BT.2408) */
            add_scale(p, dst_peak / CSPFIX_REF_WHITE);
        } else if (hdr_in && hdr_out && tm != CSPFIX_TM_NONE) {
            /* HDR -> HDR: compress to dst_peak (ff_cspfix_tone()) */
            if ((ret = add_tone(p, opt, out->prim, tm, src_peak, dst_peak, CSPFIX_REF_WHITE)) < 0)
                return ret;
            p->tone_mapped = 1;
            p->tm_peak     = dst_peak;
            p->src_peak    = src_peak;
        }
        if (in->trc == AVCOL_TRC_ARIB_STD_B67 && out->trc != AVCOL_TRC_ARIB_STD_B67)
            p->src_peak = src_peak;
        if (gmode == CSPFIX_GAMUT_CLIP) {
            CspfixOp *op = add_op(p, CSPFIX_OP_CLIP);
            op->lo = 0.0;
            op->hi = clip_hi;
        } else if (gmode != CSPFIX_GAMUT_NONE) {
            if ((ret = add_gamut(p, gmode, out->prim, g, clip_hi, opt->src_prim)) < 0)
                return ret;
        } else if (p->tone.clip_peak > 0.0) {
            /* HDR -> HDR without a curve: light above what the output holds clips there,
             * per component (its metadata says that peak) */
            CspfixOp *op = add_op(p, CSPFIX_OP_CLIP);
            op->lo = -FLT_MAX;
            op->hi = clip_hi;
        }
    }
    /* what clipped there is no brighter in the output */
    if (p->tone.clip_peak > 0.0)
        p->tm_peak = p->tone.clip_peak;
    if ((ret = build_output(p, out, opt, lw_out)) < 0)
        return ret;
    optimize(p);
    return 0;
}

int ff_cspfix_plan_is_linear(const CspfixPlan *p)
{
    return p->nb_ops == 0 || (p->nb_ops == 1 && p->ops[0].type == CSPFIX_OP_MATRIX);
}

int ff_cspfix_plan_is_per_plane(const CspfixPlan *p)
{
    if (!ff_cspfix_plan_is_linear(p))
        return 0;
    for (int i = 0; i < p->nb_ops; i++)
        for (int r = 0; r < 3; r++)
            for (int c = 0; c < 3; c++)
                if (r != c && p->ops[i].m[r][c] != 0.0)
                    return 0;
    return 1;
}

static const char *const curve_names[CSPFIX_CURVE_NB] = {
    [CSPFIX_CURVE_NONE]        = "linear",
    [CSPFIX_CURVE_BT1886]      = "bt1886",
    [CSPFIX_CURVE_BT1886_1361] = "bt1886+bt1361-negative",
    [CSPFIX_CURVE_BT709]       = "bt709-oetf",
    [CSPFIX_CURVE_BT1361]      = "bt1361-oetf",
    [CSPFIX_CURVE_SMPTE240M]   = "smpte240m-oetf",
    [CSPFIX_CURVE_GAMMA22]     = "gamma2.2",
    [CSPFIX_CURVE_GAMMA28]     = "gamma2.8",
    [CSPFIX_CURVE_SRGB]        = "srgb",
    [CSPFIX_CURVE_LOG100]      = "log100",
    [CSPFIX_CURVE_LOG316]      = "log316",
    [CSPFIX_CURVE_SMPTE428]    = "smpte428",
    [CSPFIX_CURVE_PQ]          = "pq",
    [CSPFIX_CURVE_HLG]         = "hlg",
    [CSPFIX_CURVE_VLOG]        = "vlog",
    [CSPFIX_CURVE_IPT]         = "ipt (^0.43)",
    [CSPFIX_CURVE_OPRGB]       = "oprgb (^563/256)",
    [CSPFIX_CURVE_DCIP3]       = "dci-p3 (^2.6)",
};

static const char *curve_name(int curve)
{
    return curve >= 0 && curve < CSPFIX_CURVE_NB ? curve_names[curve] :
           ff_cspfix_custom_curve(curve) ? "icc-curve" : "?";
}

void ff_cspfix_plan_print(void *log_ctx, int level, const CspfixPlan *p)
{
    if (!p->nb_ops)
        av_log(log_ctx, level, "  plan: identity (frame passes through)\n");
    for (int i = 0; i < p->nb_ops; i++) {
        const CspfixOp *op = &p->ops[i];
        switch (op->type) {
        case CSPFIX_OP_MATRIX:
            av_log(log_ctx, level, "  %d: matrix [%.6f %.6f %.6f %+.6f; %.6f %.6f %.6f %+.6f; "
                   "%.6f %.6f %.6f %+.6f]\n", i,
                   op->m[0][0], op->m[0][1], op->m[0][2], op->m[0][3],
                   op->m[1][0], op->m[1][1], op->m[1][2], op->m[1][3],
                   op->m[2][0], op->m[2][1], op->m[2][2], op->m[2][3]);
            break;
        case CSPFIX_OP_TF:
            if (op->curve2 != CSPFIX_CURVE_NONE)
                av_log(log_ctx, level, "  %d: %s %s, then %s %s (one table)\n", i,
                       op->encode ? "encode" : "decode", curve_name(op->curve),
                       op->encode2 ? "encode" : "decode", curve_name(op->curve2));
            else
                av_log(log_ctx, level, "  %d: %s %s\n", i, op->encode ? "encode" : "decode",
                       curve_name(op->curve));
            break;
        case CSPFIX_OP_OOTF:
            av_log(log_ctx, level, "  %d: %s (Y = %.4f R + %.4f G + %.4f B, Lw %g cd/m2, "
                   "gain %.6f, power %.6f)\n", i, op->encode ? "hlg inverse ootf" : "hlg ootf",
                   op->k[0], op->k[1], op->k[2], op->lw, op->gain, op->power);
            break;
        case CSPFIX_OP_CL_DECODE:
        case CSPFIX_OP_CL_ENCODE:
            av_log(log_ctx, level, "  %d: constant-luminance %s (Kr %.4f, Kb %.4f, %s)\n", i,
                   op->type == CSPFIX_OP_CL_DECODE ? "decode" : "encode",
                   op->k[0], op->k[2], curve_name(op->curve));
            break;
        case CSPFIX_OP_CLIP:
            av_log(log_ctx, level, "  %d: clip to [%g, %g]\n", i, op->lo, op->hi);
            break;
        case CSPFIX_OP_TONEMAP:
            av_log(log_ctx, level, "  %d: tone map %s on max(R,G,B): %g -> %g cd/m2, output 1.0 = "
                   "%g cd/m2, desat %g\n", i, ff_cspfix_tonemap_name(op->tm), op->src_peak,
                   op->dst_peak, op->out_white, op->desat);
            if (op->src_avg > 0.0)
                av_log(log_ctx, level, "     knee by the scene's average, %g cd/m2\n",
                       op->src_avg);
            if (op->dst_black > 0.0)
                av_log(log_ctx, level, "     BT.2390 black lift to a target black of %g cd/m2\n",
                       op->dst_black);
            if (op->trim.target > 0.0)
                av_log(log_ctx, level, "     Dolby Vision L2 trim for a %g cd/m2 display: slope "
                       "%g, offset %g, power %g\n", op->trim.target, op->trim.slope,
                       op->trim.offset, op->trim.power);
            break;
        case CSPFIX_OP_GAMUT:
            av_log(log_ctx, level, "  %d: gamut %s to [0, %g] (Y = %.4f R + %.4f G + %.4f B)\n",
                   i, op->gmode == CSPFIX_GAMUT_COMPRESS ? "compress" : "desaturate", op->hi,
                   op->k[0], op->k[1], op->k[2]);
            break;
        case CSPFIX_OP_LUT3D:
            av_log(log_ctx, level, "  %d: 3D table of the ICC profile (%d^3 points, "
                   "tetrahedral) to linear BT.2020\n", i, op->lut->n);
            break;
        }
    }
}
