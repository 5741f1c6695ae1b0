#!/usr/bin/env python3
#
# This file is part of cspfix.
#
# cspfix is free software; you can redistribute it and/or
# modify it under the terms of the GNU Lesser General Public
# License as published by the Free Software Foundation; either
# version 2.1 of the License, or (at your option) any later version.
#
# cspfix is distributed in the hope that it will be useful,
# but WITHOUT ANY WARRANTY; without even the implied warranty of
# MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.  See the GNU
# Lesser General Public License for more details.
#
# You should have received a copy of the GNU Lesser General Public
# License along with cspfix; if not, write to the Free Software
# Foundation, Inc., 51 Franklin Street, Fifth Floor, Boston, MA 02110-1301 USA

"""Generate the cspfix FATE test list from the declarative spec (fate/spec.txt).

Usage: tools/fate-gen.py [-o LIST.mak] [--list] [SPEC]

Writes a make fragment for tests/fate-cspfix/cspfix.mak: per group the test
names (CSPFIX_TESTS_<group>) and per test its kind (md5: framemd5 checksums;
err: the filter must fail, its error lines are compared) and its ffmpeg
arguments (CSPFIX_ARGS_<test>).  The output is deterministic: fixed seed,
no dependence on hash order, tests sorted by name within each group.  With -o,
an output that is already up to date (same spec, same generator) is kept.
A summary (tests per group, covering-array pairs) goes to stderr; --list
prints every test with its conversion instead of the make fragment.
"""

import argparse
import fnmatch
import hashlib
import itertools
import os
import random
import re
import sys

GROUPS = ("value", "pair", "fmt", "cover", "opt", "pix")
SIDES = ("in", "out")


class SpecError(Exception):
    pass


# ---- the spec -----------------------------------------------------------------

class Dim:
    def __init__(self, name, opt, key, negotiated, values):
        self.name, self.opt, self.key, self.negotiated = name, opt, key, negotiated
        self.values = []            # cspfix names, in spec order
        self.sp = {}                # cspfix name -> setparams name
        self.unsupported = []
        self.untaggable = []        # frame tags the filter rejects and its options do not offer
        for v in values:
            self.add(v, self.values)

    def add(self, v, into):
        name, _, sp = v.partition("/")
        into.append(name)
        self.sp[name] = sp or name


class Pattern:
    """DIM=GLOB[|GLOB...]"""
    def __init__(self, text, dims):
        dim, eq, alts = text.partition("=")
        if not eq or dim not in dims or not alts:
            raise SpecError("bad pattern '%s' (DIM=VALUE[|VALUE...])" % text)
        self.dim, self.alts, self.text = dim, alts.split("|"), text

    def match(self, side):
        return any(fnmatch.fnmatchcase(side[self.dim], a) for a in self.alts)

    def first(self, dims):
        """first value of the dim matching (else the first alternative)"""
        for v in dims[self.dim].values:
            if self.match({self.dim: v}):
                return v
        return self.alts[0]

    def first_not(self, dims, prefer):
        if not self.match({self.dim: prefer}):
            return prefer
        for v in dims[self.dim].values:
            if not self.match({self.dim: v}):
                return v
        raise SpecError("every value of %s matches %s" % (self.dim, self.text))


class Rule:
    def __init__(self, lhs, rhs, extra):
        self.lhs, self.rhs, self.extra = lhs, rhs, extra

    def ok(self, side):
        return not self.lhs.match(side) or self.rhs.match(side)


class Spec:
    def __init__(self, path):
        self.dims = {}
        self.base = self.fixed = None
        self.requires, self.companions, self.fmtconvs, self.opts = [], [], [], []
        self.pixfmts = []
        self.source = {"size": "64x48", "frames": "2", "rate": "25"}
        self.cover = {"seed": "1", "candidates": "10"}
        with open(path, encoding="utf-8") as f:
            for no, line in enumerate(f, 1):
                line = line.split("#", 1)[0].strip()
                if not line:
                    continue
                try:
                    self.parse(line.split())
                except SpecError as e:
                    raise SpecError("%s:%d: %s" % (path, no, e))
        for what in ("base", "fixed"):
            d = getattr(self, what)
            if d is None or sorted(d) != sorted(self.dims):
                raise SpecError("'%s' must set every dim (%s)" % (what, " ".join(self.dims)))
        if "format" not in self.dims:
            raise SpecError("a 'format' dim is needed")

    def kv(self, tokens, dims_only=True):
        out = {}
        for t in tokens:
            k, eq, v = t.partition("=")
            if not eq or (dims_only and k not in self.dims):
                raise SpecError("expected DIM=VALUE, got '%s'" % t)
            out[k] = v
        return out

    def split_rule(self, tokens):
        if "=>" not in tokens:
            raise SpecError("expected 'A => B'")
        i = tokens.index("=>")
        if i != 1 or len(tokens) < 3:
            raise SpecError("expected 'A => B'")
        return Pattern(tokens[0], self.dims), tokens[2:]

    def parse(self, t):
        kw, args = t[0], t[1:]
        if kw == "dim":
            if ":" not in args:
                raise SpecError("dim NAME cspfix=OPT setparams=KEY [negotiated] : VALUE...")
            i = args.index(":")
            head, values = args[:i], args[i + 1:]
            name, attrs = head[0], head[1:]
            neg = "negotiated" in attrs
            a = self.kv([x for x in attrs if x != "negotiated"], dims_only=False)
            if set(a) != {"cspfix", "setparams"} or not values:
                raise SpecError("dim %s: needs cspfix=, setparams= and values" % name)
            self.dims[name] = Dim(name, a["cspfix"], None if a["setparams"] == "-" else a["setparams"],
                                  neg, values)
        elif kw in ("unsupported", "untaggable"):
            if len(args) < 3 or args[1] != ":" or args[0] not in self.dims:
                raise SpecError("%s DIM : VALUE..." % kw)
            for v in args[2:]:
                self.dims[args[0]].add(v, getattr(self.dims[args[0]], kw))
        elif kw in ("base", "fixed"):
            setattr(self, kw, self.kv(args))
        elif kw == "require":
            lhs, rest = self.split_rule(args)
            rhs = Pattern(rest[0], self.dims)
            extra = dict(x.partition("=")[::2] for x in rest[1:])
            errs = [s for s in extra.get("errors", "").split(",") if s]
            if set(extra) - {"errors"} or set(errs) - set(SIDES):
                raise SpecError("require A => B [errors=in,out]")
            self.requires.append(Rule(lhs, rhs, errs))
        elif kw == "companion":
            if not args or args[0] not in ("side", "shared"):
                raise SpecError("companion side|shared A => K=V...")
            lhs, rest = self.split_rule(args[1:])
            self.companions.append(Rule(lhs, self.kv(rest), args[0]))
        elif kw == "fmtconv":
            self.fmtconvs.append((args[0], self.kv(args[1:])))
        elif kw in ("source", "cover"):
            d = getattr(self, kw)
            for k, v in self.kv(args, dims_only=False).items():
                if k not in d:
                    raise SpecError("%s: unknown key %s" % (kw, k))
                d[k] = v
        elif kw == "pixfmt":
            for a in args:
                f, slash, b = a.partition("/")
                if not slash or not f or not b:
                    raise SpecError("pixfmt FORMAT/PLANAR...")
                fmt_info(b)
                self.pixfmts.append((f, b))
                REPACK[f] = b
        elif kw == "opt":
            if not args or not re.fullmatch(r"[a-z0-9][a-z0-9.-]*", args[0]):
                raise SpecError("opt NAME TOKEN...")
            self.opts.append((args[0], args[1:]))
        else:
            raise SpecError("unknown statement '%s'" % kw)

    def props(self):
        """the colour properties: dims that are frame tags"""
        return [d for d in self.dims.values() if d.key]

    def valid(self, side):
        return all(r.ok(side) for r in self.requires)


# ---- pixel formats ---------------------------------------------------------------

# Layouts geq cannot fill are generated in their planar equivalent and repacked by an
# identity cspfix (a pure layout change: the unit tests prove it bit-exact).
REPACK = {
    "nv12": "yuv420p", "nv21": "yuv420p", "nv16": "yuv422p", "nv24": "yuv444p",
    "p010le": "yuv420p10le", "p012le": "yuv420p12le", "p016le": "yuv420p16le",
    "p210le": "yuv422p10le",
    "rgb24": "gbrp", "bgr24": "gbrp", "rgba": "gbrap", "bgra": "gbrap", "argb": "gbrap",
    "abgr": "gbrap", "rgb48le": "gbrp16le", "rgba64le": "gbrap16le", "x2rgb10le": "gbrp10le",
    "gbrpf32le": "gbrp16le", "gbrapf32le": "gbrap16le",
}


def fmt_info(fmt):
    """(rgb, depth, log2 chroma w, log2 chroma h, alpha, gray) of a planar format geq can
    fill"""
    m = re.fullmatch(r"gray(\d+)?(le)?", fmt)
    if m and (not m.group(1) or m.group(2)):
        return False, int(m.group(1) or 8), 0, 0, False, True
    m = re.fullmatch(r"(yuv(a?)4(20|22|44|40|11|10)p|gbr(a?)p)(\d+)?(le)?", fmt)
    if not m or (m.group(5) and not m.group(6)):
        raise SpecError("pixel format %s: only planar yuv[a]4xxp[NNle]/gbr[a]p[NNle]/gray[NNle] "
                        "can be generated, or a layout listed in REPACK (tools/fate-gen.py)" % fmt)
    depth = int(m.group(5) or 8)
    sub = {"20": (1, 1), "22": (1, 0), "44": (0, 0), "40": (0, 1), "11": (2, 0), "10": (2, 2),
           None: (0, 0)}[m.group(3)]
    rgb = m.group(1).startswith("gbr")
    alpha = bool(m.group(2) or m.group(4))
    return rgb, depth, sub[0], sub[1], alpha, False


def geq(fmt, w, h, frames):
    """geq options filling every plane with a ramp over all its samples (X, Y and
    the frame number N) mod 2^depth: a*i + b with a odd, so every code value is hit
    when the plane (or a frame of it) has enough samples; otherwise the values are
    spread evenly over the code range."""
    rgb, depth, hs, vs, alpha, gray = fmt_info(fmt)
    cw, ch = -(-w // (1 << hs)), -(-h // (1 << vs))
    planes = [("r", w, h), ("g", w, h), ("b", w, h)] if rgb else \
             [("lum", w, h)] if gray else [("lum", w, h), ("cb", cw, ch), ("cr", cw, ch)]
    if alpha:
        planes.append(("a", w, h))
    m = 1 << depth
    out = []
    for p, (key, pw, ph) in enumerate(planes):
        n = pw * ph * frames
        step = 1 if n >= m else (-(-m // n)) | 1
        a, b = step * (1, 5, 11, 7)[p], (0, m // 3, 2 * m // 3, m // 5)[p]
        # one frame hits every value: shift the next frame's values (else it is
        # the same picture when the plane size is a multiple of 2^depth)
        d = 101 if pw * ph >= m else 0
        e = "%d*X+%d*Y+%d*N+%d" % (a, a * pw, a * pw * ph + d, b)
        out.append("%s=(%s)-%d*floor((%s)/%d)" % (key, e, m, e, m))
    return ":".join(out)


# ---- tests -------------------------------------------------------------------------

class Test:
    def __init__(self, group, name, sin, sout, kind="md5", extra=(), size=None,
                 frames=None, change=None, outopts=True, field=None):
        self.group, self.name, self.sin, self.sout = group, name, sin, sout
        self.kind, self.extra, self.size, self.frames = kind, list(extra), size, frames
        self.change, self.outopts, self.field = change, outopts, field


def complete(spec, sides, pinned):
    """apply the companion rules until nothing changes; pinned: {(side, dim)}"""
    for _ in range(8):
        changed = False
        for r in spec.companions:
            for s in SIDES:
                if not r.lhs.match(sides[s]):
                    continue
                for k, v in r.rhs.items():
                    for t in ((s,) if r.extra == "side" else SIDES):
                        if (t, k) not in pinned and sides[t][k] != v:
                            sides[t][k] = v
                            changed = True
        if not changed:
            return sides
    raise SpecError("companion rules do not settle")


def make(spec, group, name, sin, sout, pinned=(), **kw):
    sides = complete(spec, {"in": dict(sin), "out": dict(sout)}, set(pinned))
    t = Test(group, name, sides["in"], sides["out"], **kw)
    if t.kind == "md5" and not (spec.valid(t.sin) and spec.valid(t.sout)):
        t.kind, t.name = "err", name + "-err"
    return t


def with_(d, **kw):
    r = dict(d)
    r.update(kw)
    return r


def group_value(spec):
    tests = []
    for d in spec.props():
        for v in d.values:
            tests.append(make(spec, "value", "value-in-%s-%s" % (d.name, v),
                              with_(spec.base, **{d.name: v}), spec.fixed, [("in", d.name)]))
            tests.append(make(spec, "value", "value-out-%s-%s" % (d.name, v),
                              spec.fixed, with_(spec.base, **{d.name: v}), [("out", d.name)]))
        for v in d.unsupported:
            tests.append(Test("value", "value-in-%s-%s-err" % (d.name, v),
                              with_(spec.base, **{d.name: v}), dict(spec.base), "err"))
            tests.append(Test("value", "value-out-%s-%s-err" % (d.name, v),
                              dict(spec.base), with_(spec.base, **{d.name: v}), "err"))
        for v in d.untaggable:
            tests.append(Test("value", "value-in-%s-%s-err" % (d.name, v),
                              with_(spec.base, **{d.name: v}), dict(spec.base), "err"))
    for r in spec.requires:
        for s in r.extra:
            lv = r.lhs.first(spec.dims)
            sides = {"in": dict(spec.base), "out": dict(spec.base)}
            sides[s][r.lhs.dim] = lv
            complete(spec, sides, {(s, r.lhs.dim)})
            rv = r.rhs.first_not(spec.dims, spec.base[r.rhs.dim])
            sides[s][r.rhs.dim] = rv
            if r.ok(sides[s]):
                raise SpecError("cannot break rule %s => %s" % (r.lhs.text, r.rhs.text))
            tests.append(Test("value", "value-%s-%s-%s-%s-%s-err" % (s, r.lhs.dim, lv, r.rhs.dim, rv),
                              sides["in"], sides["out"], "err"))
    return tests


def group_pair(spec):
    tests = []
    for d in spec.props():
        for a, b in itertools.product(d.values, d.values):
            tests.append(make(spec, "pair", "pair-%s-%s-to-%s" % (d.name, a, b),
                              with_(spec.base, **{d.name: a}), with_(spec.base, **{d.name: b}),
                              [("in", d.name), ("out", d.name)]))
    return tests


def group_fmt(spec):
    tests, first = [], spec.base["format"]
    pin = [("in", "format"), ("out", "format")]
    for conv, over in spec.fmtconvs:
        out = with_(spec.base, **over)
        for f in spec.dims["format"].values:
            fin = with_(spec.base, format=f)
            tests.append(make(spec, "fmt", "fmt-%s-in-%s-to-%s" % (conv, f, first), fin,
                              with_(out, format=first), pin))
            tests.append(make(spec, "fmt", "fmt-%s-in-%s-to-same" % (conv, f), fin,
                              with_(out, format=f), pin))
            tests.append(make(spec, "fmt", "fmt-%s-out-%s" % (conv, f), with_(spec.base, format=first),
                              with_(out, format=f), pin))
    return tests


def group_opt(spec):
    tests = []
    for name, tokens in spec.opts:
        sides = {"in": dict(spec.base), "out": dict(spec.base)}
        pinned, extra, kw = set(), [], {}
        for t in tokens:
            k, eq, v = t.partition("=")
            if not eq:
                raise SpecError("opt %s: bad token %s" % (name, t))
            where, dot, dim = k.partition(".")
            if dot and where in ("in", "out", "change"):
                if dim not in spec.dims:
                    raise SpecError("opt %s: unknown dim %s" % (name, dim))
                if where == "change":
                    kw["change"] = (dim, v)
                else:
                    sides[where][dim] = v
                    pinned.add((where, dim))
            elif k == "size":
                kw["size"] = v
            elif k == "frames":
                kw["frames"] = int(v)
            elif k == "expect":
                kw["kind"] = {"error": "err"}[v]
            elif k == "outopts":
                kw["outopts"] = {"none": False}[v]
            elif k == "field":
                if v not in ("tff", "bff", "prog"):
                    raise SpecError("opt %s: field=%s: tff, bff or prog" % (name, v))
                kw["field"] = v
            else:
                extra.append((k, v))
        complete(spec, sides, pinned)
        tests.append(Test("opt", "opt-" + name, sides["in"], sides["out"], extra=extra, **kw))
    return tests


# ---- covering array ----------------------------------------------------------------

def group_pix(spec):
    """every `pixfmt` format as input (from the fixed description to base) and as
    output (from base to the fixed description)"""
    tests = []
    for f, b in spec.pixfmts:
        gray = fmt_info(b)[5]
        pin = [("in", "format"), ("out", "format")]
        src = with_(spec.base, format="gray") if gray else dict(spec.base)
        t = make(spec, "pix", "pix-in-%s" % f.replace("_", "-"), with_(spec.fixed, format=f), dict(spec.base), pin)
        t.needfmt = f
        tests.append(t)
        t = make(spec, "pix", "pix-out-%s" % f.replace("_", "-"), src, with_(spec.fixed, format=f), pin)
        t.needfmt = f
        tests.append(t)
    return tests


def group_cover(spec, stats):
    """Strength-2 covering array (AETG-style greedy, fixed seed) over the input and
    output side of every dim, rows valid under the `require` rules."""
    dims = list(spec.dims)
    params = [(s, d) for s in SIDES for d in dims]
    dom = [spec.dims[d].values for _, d in params]
    np_, nd = len(params), len(dims)
    rng = random.Random(int(spec.cover["seed"]))

    # Extendability of a partial side: only the dims the rules mention matter.
    cdims = [i for i, d in enumerate(dims)
             if any(d in (r.lhs.dim, r.rhs.dim) for r in spec.requires)]
    proj = {}
    for combo in itertools.product(*[range(len(spec.dims[dims[i]].values)) for i in cdims]):
        side = dict(spec.base)
        for i, v in zip(cdims, combo):
            side[dims[i]] = spec.dims[dims[i]].values[v]
        if not spec.valid(side):
            continue
        for mask in range(1 << len(cdims)):
            proj.setdefault(mask, set()).add(
                tuple(v for j, v in enumerate(combo) if mask >> j & 1))
    cpos = {i: j for j, i in enumerate(cdims)}

    def extendable(row):
        for s in range(2):
            mask, key = 0, []
            for i in cdims:
                v = row[s * nd + i]
                if v is not None:
                    mask |= 1 << cpos[i]
                    key.append(v)
            if tuple(key) not in proj.get(mask, ()):
                return False
        return True

    # every coverable pair, as (p, a, q, b) with p < q
    uncovered = set()
    for p, q in itertools.combinations(range(np_), 2):
        for a in range(len(dom[p])):
            for b in range(len(dom[q])):
                row = [None] * np_
                row[p], row[q] = a, b
                if extendable(row):
                    uncovered.add((p, a, q, b))
    total = len(uncovered)
    allpairs = sum(len(dom[p]) * len(dom[q]) for p, q in itertools.combinations(range(np_), 2))

    def gain(row, k, v):
        n = 0
        for j in range(np_):
            w = row[j]
            if w is not None and j != k:
                n += ((j, w, k, v) if j < k else (k, v, j, w)) in uncovered
        return n

    rows = []
    while uncovered:
        # the (param, value) in most uncovered pairs, ties by the seeded generator
        count, partners = {}, {}
        for p, a, q, b in uncovered:
            count[(p, a)] = count.get((p, a), 0) + 1
            count[(q, b)] = count.get((q, b), 0) + 1
        top = max(count.values())
        ties = sorted(k for k, c in count.items() if c == top)
        best = None
        for _ in range(int(spec.cover["candidates"])):
            p, a = rng.choice(ties)
            if (p, a) not in partners:
                partners[(p, a)] = sorted([(q, b) for p0, a0, q, b in uncovered if (p0, a0) == (p, a)] +
                                          [(p0, a0) for p0, a0, q, b in uncovered if (q, b) == (p, a)])
            q, b = rng.choice(partners[(p, a)])
            row = [None] * np_
            row[p], row[q] = a, b
            order = [k for k in range(np_) if k not in (p, q)]
            rng.shuffle(order)
            for k in order:
                vals = list(range(len(dom[k])))
                rng.shuffle(vals)
                pick, score = None, -1
                for v in vals:
                    row[k] = v
                    if extendable(row):
                        g = gain(row, k, v)
                        if g > score:
                            pick, score = v, g
                row[k] = pick
                if pick is None:
                    raise SpecError("cover: no valid value for %s.%s" % params[k])
            new = sum(((i, row[i], j, row[j]) in uncovered)
                      for i, j in itertools.combinations(range(np_), 2))
            if best is None or new > best[0]:
                best = (new, row)
        row = best[1]
        for i, j in itertools.combinations(range(np_), 2):
            uncovered.discard((i, row[i], j, row[j]))
        rows.append(row)

    stats["cover"] = (total, allpairs, len(rows), spec.cover["seed"])
    tests = []
    for n, row in enumerate(rows):
        sides = {"in": {}, "out": {}}
        for (s, d), v, vals in zip(params, row, dom):
            sides[s][d] = vals[v]
        tests.append(Test("cover", "cover-%03d" % (n + 1), sides["in"], sides["out"]))
    # the array must cover everything it counted
    seen = set()
    for t in tests:
        r = [spec.dims[d].values.index((t.sin if s == "in" else t.sout)[d]) for s, d in params]
        seen.update((i, r[i], j, r[j]) for i, j in itertools.combinations(range(np_), 2))
        assert spec.valid(t.sin) and spec.valid(t.sout)
    stats["cover_seen"] = len(seen)
    return tests


# ---- commands ----------------------------------------------------------------------

def source(spec, side, size, frames, rate, field=None):
    w, h = (int(x) for x in size.split("x"))
    fmt = side["format"]
    base = REPACK.get(fmt, fmt)
    tags = []
    for d in spec.props():
        tags.append("%s=%s" % (d.key, spec.dims[d.name].sp.get(side[d.name], side[d.name])))
    if field:
        tags.append("field_mode=%s" % field)
    dur = "%gus" % (frames * 1000000 / rate)
    src = "nullsrc=s=%s:r=%d:d=%s,format=%s,geq=%s,setparams=%s" % (
        size, rate, dur, base, geq(base, w, h, frames), ":".join(tags))
    if base != fmt:
        src += ",cspfix=format=%s:dither=none" % fmt
    return src


def cspfix_opts(spec, t):
    opts = []
    if t.outopts:
        for d in spec.dims.values():
            opts.append((d.opt, t.sout[d.name]))
    extra = dict(t.extra)
    if "dither" not in extra:
        opts.append(("dither", "none"))
    opts += t.extra
    return "cspfix=" + ":".join("%s=%s" % kv for kv in opts)


def graph(spec, t):
    size = t.size or spec.source["size"]
    rate = int(spec.source["rate"])
    frames = t.frames or int(spec.source["frames"])
    filt = cspfix_opts(spec, t)
    if not t.change:
        return "%s,%s" % (source(spec, t.sin, size, frames, rate, t.field), filt)
    # three one-frame segments A B A, B with the field changed; concat cannot carry
    # a change of a negotiated field (it shares one colour space/range list between
    # its inputs), so segment B passes a cspfix that only repacks (identity) to
    # decouple its link.
    dim, v = t.change
    b = with_(t.sin, **{dim: v})
    segs = []
    for n, side in enumerate((t.sin, b, t.sin)):
        s = source(spec, side, size, 1, rate, t.field)
        if side is b and spec.dims[dim].negotiated:
            s += ",cspfix=format=%s" % side["format"]
        segs.append("%s[s%d]" % (s, n))
    return "%s;[s0][s1][s2]concat=n=3,setpts=N/(%d*TB),%s" % (";".join(segs), rate, filt)


def describe(spec, side):
    return "/".join(side[d] for d in spec.dims)


# ---- main --------------------------------------------------------------------------

def generate(spec):
    stats = {}
    tests = group_value(spec) + group_pair(spec) + group_fmt(spec) + \
        group_cover(spec, stats) + group_opt(spec) + group_pix(spec)
    names = set()
    for t in tests:
        if not re.fullmatch(r"[a-z0-9][a-z0-9.-]*", t.name):
            raise SpecError("bad test name %s" % t.name)
        if t.name in names:
            raise SpecError("duplicate test name %s" % t.name)
        names.add(t.name)
    tests.sort(key=lambda t: (GROUPS.index(t.group), t.name))
    return tests, stats


def summary(tests, stats):
    per = {g: sum(t.group == g for t in tests) for g in GROUPS}
    errs = sum(t.kind == "err" for t in tests)
    total, allpairs, rows, seed = stats["cover"]
    return ["%s" % ", ".join("%s %d" % (g, per[g]) for g in GROUPS) +
            "; %d tests (%d error tests)" % (len(tests), errs),
            "cover: %d rows (seed %s) cover %d of %d valid value pairs (%d pairs without "
            "constraints)" % (rows, seed, stats["cover_seen"], total, allpairs)]


def render(spec, tests, stats, stamp):
    out = ["# Generated by tools/fate-gen.py from fate/spec.txt: do not edit.",
           "# input: %s" % stamp]
    out += ["# " + s for s in summary(tests, stats)]
    out.append("")
    out.append("CSPFIX_GROUPS := %s" % " ".join(GROUPS))
    for g in GROUPS:
        out.append("CSPFIX_TESTS_%s :=" % g)
        out += ["CSPFIX_TESTS_%s += %s" % (g, t.name) for t in tests if t.group == g]
    out.append("")
    for t in tests:
        desc = "%s -> %s" % (describe(spec, t.sin), describe(spec, t.sout))
        if t.change:
            desc += ", frame 2: %s=%s" % t.change
        out.append("# %s: %s" % (t.name, desc))
        out.append("CSPFIX_KIND_%s := %s" % (t.name, t.kind))
        if getattr(t, "needfmt", None):
            out.append("CSPFIX_NEEDFMT_%s := %s" % (t.name, t.needfmt))
        out.append('CSPFIX_ARGS_%s := -lavfi "%s"' % (t.name, graph(spec, t)))
    return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("spec", nargs="?",
                    default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fate", "spec.txt"))
    ap.add_argument("-o", "--output", help="write here (kept if already up to date)")
    ap.add_argument("--list", action="store_true", help="list the tests instead")
    args = ap.parse_args()

    h = hashlib.sha256()
    for f in (args.spec, os.path.abspath(__file__)):
        with open(f, "rb") as fh:
            h.update(fh.read())
    stamp = h.hexdigest()[:16]
    if args.output and not args.list and os.path.exists(args.output):
        with open(args.output, encoding="utf-8") as fh:
            head = fh.read(4096).split("\n")
        if len(head) > 1 and head[1] == "# input: %s" % stamp:
            for line in head[2:4]:
                print("fate-gen: %s" % line[2:], file=sys.stderr)
            return 0

    try:
        spec = Spec(args.spec)
        tests, stats = generate(spec)
        text = render(spec, tests, stats, stamp)
    except SpecError as e:
        print("fate-gen: %s" % e, file=sys.stderr)
        return 1
    for line in summary(tests, stats):
        print("fate-gen: %s" % line, file=sys.stderr)
    if args.list:
        for t in tests:
            print("%-52s %-3s %s -> %s%s%s" % (
                t.name, t.kind, describe(spec, t.sin), describe(spec, t.sout),
                "".join(" %s=%s" % kv for kv in t.extra),
                " [frame 2: %s=%s]" % t.change if t.change else ""))
        return 0
    if args.output:
        tmp = args.output + ".tmp"
        with open(tmp, "w", encoding="utf-8") as fh:
            fh.write(text)
        os.replace(tmp, args.output)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
