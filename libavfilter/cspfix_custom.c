/*
 * cspfix: primaries and curves of ICC profiles, as values
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

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "libavutil/error.h"
#include "libavutil/macros.h"
#include "libavutil/mem.h"
#include "libavutil/thread.h"

#include "cspfix_custom.h"

static AVMutex lock = AV_MUTEX_INITIALIZER;
static int nb_prims, nb_curves;
static double prims[CSPFIX_CUSTOM_MAX][4][2];
static CspfixCustomCurve curves[CSPFIX_CUSTOM_MAX];
static char prim_names[CSPFIX_CUSTOM_MAX][24], curve_names[CSPFIX_CUSTOM_MAX][24];
/* the tables live as long as the process, as the other values (reachable from here) */
static int nb_luts;
static CspfixLut3D luts[CSPFIX_CUSTOM_MAX];
static char lut_names[CSPFIX_CUSTOM_MAX][24];

int ff_cspfix_custom_lut3d(const float *t, int n)
{
    const size_t size = (size_t)n * n * n * 3 * sizeof(*t);
    int k, ret;

    if (n < 2 || n > 129)
        return AVERROR(EINVAL);
    ff_mutex_lock(&lock);
    for (k = 0; k < nb_luts && (luts[k].n != n || memcmp(luts[k].t, t, size)); k++)
        ;
    ret = k < CSPFIX_CUSTOM_MAX ? CSPFIX_TRC_LUT3D + k : AVERROR(ENOSPC);
    if (k == nb_luts && k < CSPFIX_CUSTOM_MAX) {
        if (!(luts[k].t = av_memdup(t, size))) {
            ret = AVERROR(ENOMEM);
        } else {
            luts[k].n = n;
            snprintf(lut_names[k], sizeof(lut_names[k]), "icc-lut-%d", k);
            nb_luts++;
        }
    }
    ff_mutex_unlock(&lock);
    return ret;
}

int ff_cspfix_custom_prim(const double xy[4][2])
{
    int k;

    ff_mutex_lock(&lock);
    for (k = 0; k < nb_prims && memcmp(prims[k], xy, sizeof(prims[k])); k++)
        ;
    if (k == nb_prims && k < CSPFIX_CUSTOM_MAX) {
        memcpy(prims[k], xy, sizeof(prims[k]));
        snprintf(prim_names[k], sizeof(prim_names[k]), "icc-primaries-%d", k);
        nb_prims++;
    }
    ff_mutex_unlock(&lock);
    return k < CSPFIX_CUSTOM_MAX ? CSPFIX_PRI_CUSTOM + k : AVERROR(ENOSPC);
}

static int params_of(int type)
{
    static const int n[6] = { 0, 1, 3, 4, 5, 7 };
    return type >= 0 && type <= 5 ? n[type] : -1;
}

int ff_cspfix_custom_trc(const CspfixCustomCurve *c)
{
    CspfixCustomCurve n = { .type = c->type };
    double prev = 0.0;
    int k;

    if (params_of(c->type) < 0)
        return AVERROR(EINVAL);
    /* a canonical copy: the fields the type does not use are 0 */
    memcpy(n.p, c->p, params_of(c->type) * sizeof(*n.p));
    if (!c->type)
        memcpy(n.s, c->s, sizeof(n.s));
    /* increasing (non-decreasing, with f(1) > f(0)), finite, f(0) >= 0: what a
     * decoding curve is; the encoding direction is its inverse */
    for (int i = 0; i < CSPFIX_CUSTOM_SAMPLES; i++) {
        const double v = ff_cspfix_custom_decode(&n, (double)i / (CSPFIX_CUSTOM_SAMPLES - 1));
        if (!isfinite(v) || (i ? v < prev : v < 0.0))
            return AVERROR(EINVAL);
        prev = v;
    }
    if (!(prev > ff_cspfix_custom_decode(&n, 0.0)) || (c->type && !(n.p[0] > 0.0)) ||
        (c->type > 1 && !(n.p[1] > 0.0)) || (c->type >= 4 && n.p[3] < 0.0))
        return AVERROR(EINVAL);

    ff_mutex_lock(&lock);
    for (k = 0; k < nb_curves && memcmp(&curves[k], &n, sizeof(n)); k++)
        ;
    if (k == nb_curves && k < CSPFIX_CUSTOM_MAX) {
        curves[k] = n;
        snprintf(curve_names[k], sizeof(curve_names[k]), "icc-curve-%d", k);
        nb_curves++;
    }
    ff_mutex_unlock(&lock);
    return k < CSPFIX_CUSTOM_MAX ? CSPFIX_TRC_CUSTOM + k : AVERROR(ENOSPC);
}

/* entries below the count are never written again: reading them needs no lock once
 * the value is known (it came from the interning functions, through the lock) */
/* the table index of value v of a range from base, -1 if none (v may be any int) */
static int slot(int v, int base)
{
    return v >= base && v < base + CSPFIX_CUSTOM_MAX ? v - base : -1;
}

int ff_cspfix_custom_prim_xy(int prim, double xy[4][2])
{
    const int k = slot(prim, CSPFIX_PRI_CUSTOM);
    if (k < 0 || !prim_names[k][0])
        return AVERROR(EINVAL);
    memcpy(xy, prims[k], sizeof(prims[k]));
    return 0;
}

const CspfixCustomCurve *ff_cspfix_custom_curve(int curve)
{
    const int k = slot(curve, CSPFIX_CURVE_CUSTOM);
    return k >= 0 && curve_names[k][0] ? &curves[k] : NULL;
}

const CspfixCustomCurve *ff_cspfix_custom_curve_of_trc(int trc)
{
    const int k = slot(trc, CSPFIX_TRC_CUSTOM);
    return k >= 0 && curve_names[k][0] ? &curves[k] : NULL;
}

const char *ff_cspfix_custom_prim_name(int prim)
{
    const int k = slot(prim, CSPFIX_PRI_CUSTOM);
    return k >= 0 && prim_names[k][0] ? prim_names[k] : NULL;
}

const char *ff_cspfix_custom_trc_name(int trc)
{
    const int k = slot(trc, CSPFIX_TRC_CUSTOM), l = slot(trc, CSPFIX_TRC_LUT3D);
    return k >= 0 && curve_names[k][0] ? curve_names[k] :
           l >= 0 && lut_names[l][0] ? lut_names[l] : NULL;
}

const CspfixLut3D *ff_cspfix_custom_lut3d_of_trc(int trc)
{
    const int k = slot(trc, CSPFIX_TRC_LUT3D);
    return k >= 0 && lut_names[k][0] ? &luts[k] : NULL;
}

double ff_cspfix_custom_decode(const CspfixCustomCurve *c, double e)
{
    const double *p = c->p;
    const int n = CSPFIX_CUSTOM_SAMPLES - 1;

    switch (c->type) {
    case 0: {
        /* straight lines between the samples, the end segments extended */
        const int i = e <= 0.0 ? 0 : e >= 1.0 ? n - 1 : FFMIN((int)(e * n), n - 1);
        const double t = e * n - i;
        return c->s[i] + t * (c->s[i + 1] - c->s[i]);
    }
    case 1:
        return pow(e, p[0]);
    case 2:
        return e >= -p[2] / p[1] ? pow(p[1] * e + p[2], p[0]) : 0.0;
    case 3:
        return e >= -p[2] / p[1] ? pow(p[1] * e + p[2], p[0]) + p[3] : p[3];
    case 4:
        return e >= p[4] ? pow(p[1] * e + p[2], p[0]) : p[3] * e;
    default:
        return e >= p[4] ? pow(p[1] * e + p[2], p[0]) + p[5] : p[3] * e + p[6];
    }
}

/* the inverse of a power segment: (aE + b)^g + off = l */
static double pow_inv(const double *p, double l, double off)
{
    const double y = l - off;
    return ((y > 0.0 ? pow(y, 1.0 / p[0]) : 0.0) - p[2]) / p[1];
}

double ff_cspfix_custom_encode(const CspfixCustomCurve *c, double l)
{
    const double *p = c->p;
    const int n = CSPFIX_CUSTOM_SAMPLES - 1;

    switch (c->type) {
    case 0: {
        /* the segment that holds l (the first of a flat run), then along it */
        int lo = 0, hi = n;
        double d;
        if (l <= c->s[0])
            hi = 1;
        else if (l >= c->s[n])
            lo = n - 1;
        while (hi - lo > 1) {
            const int mid = (lo + hi) / 2;
            if (c->s[mid] < l)
                lo = mid;
            else
                hi = mid;
        }
        d = c->s[lo + 1] - c->s[lo];
        return (lo + (d > 0.0 ? (l - c->s[lo]) / d : 0.0)) / n;
    }
    case 1:
        return l > 0.0 ? pow(l, 1.0 / p[0]) : 0.0;
    case 2:
        return pow_inv(p, l, 0.0);
    case 3:
        return pow_inv(p, l, p[3]);
    default: {
        /* the power segment from d on, the line below; a light in a jump between
         * them (a curve that is not continuous at d) encodes as d */
        const double off = c->type == 5 ? p[5] : 0.0, f = c->type == 5 ? p[6] : 0.0;
        if (l >= pow(FFMAX(p[1] * p[4] + p[2], 0.0), p[0]) + off)
            return pow_inv(p, l, off);
        if (l >= p[3] * p[4] + f)
            return p[4];
        return p[3] > 0.0 ? (l - f) / p[3] : 0.0;
    }
    }
}
