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

"""Writes the fuzzer's seed corpus (tests/fuzz-corpus/): one small valid
conversion per supported pixel format, and the main paths (HDR, ICtCp,
constant luminance, dithering, siting, foreign descriptions, mid-stream
changes, a wide frame, errors, ICC profiles).  The byte layout is the one
documented at the top of tests/cspfix_fuzz.c.  Inputs that made the fuzzer
fail are kept in the same directory beside these, under their own names.

Usage: tools/fuzz-seeds.py [OUTDIR]"""

import os
import random
import struct
import sys

HEAD = 80
NB_FORMATS = 48
RGB_FORMATS = set(range(26, 45))   # gbr*, packed RGB (45..47: gray)
# option key indices in tests/cspfix_fuzz.c
OPT = {name: i for i, name in enumerate(
    "all primaries trc space range format iall iprimaries itrc ispace irange fast dither "
    "wpadapt linearize chroma_loc ichroma_loc guess clip clipgamut colorimetry icolorimetry "
    "v4l2_colorspace v4l2_ycbcr_enc v4l2_quantization v4l2_xfer_func".split())}
INT_LO = {"all": -1, "iall": -1, "fast": 0, "dither": -2, "wpadapt": -1, "linearize": -1,
          "chroma_loc": -1, "ichroma_loc": -1, "guess": 0, "clip": 0, "clipgamut": 0}

SD = (6, 6, 6, 1, 1)        # primaries, transfer, matrix, range, chroma location
HD = (1, 1, 1, 1, 1)
RGB = (1, 13, 0, 2, 0)
PQ = (9, 16, 9, 1, 3)
HLG = (9, 18, 9, 1, 3)


def opt(name, value):
    """Key byte and value byte(s) of one option (value as the filter sees it)."""
    key = OPT[name]
    if name in INT_LO:
        return [key, value - INT_LO[name]]
    return [key, value]       # enums (value < 28), format index, list index


def icc_tags(prim, gamma):
    """The bytes of a version 2 matrix/TRC display profile after its 128-byte header
    (the fuzzer writes the header): primaries prim (x, y of R, G, B) with D65, adapted
    to the D50 connection space by Bradford, its white point D65, no chad (as version 2
    profiles are), and a pure power curve."""
    def xyz(x, y):
        return [x / y, 1.0, (1 - x - y) / y]

    def inv(m):
        a, b, c = m
        det = a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0]) + \
            a[2] * (b[0] * c[1] - b[1] * c[0])
        return [[(m[(j + 1) % 3][(i + 1) % 3] * m[(j + 2) % 3][(i + 2) % 3] -
                  m[(j + 1) % 3][(i + 2) % 3] * m[(j + 2) % 3][(i + 1) % 3]) / det
                 for j in range(3)] for i in range(3)]

    def mul(a, b):
        return [[sum(a[i][k] * b[k][j] for k in range(3)) for j in range(3)] for i in range(3)]

    w65, d50 = xyz(0.3127, 0.3290), [0.9642, 1.0, 0.8249]
    p = [list(col) for col in zip(*[xyz(*c) for c in prim])]
    s = [sum(r[k] * w65[k] for k in range(3)) for r in inv(p)]
    npm = [[p[i][j] * s[j] for j in range(3)] for i in range(3)]
    brad = [[0.8951, 0.2664, -0.1614], [-0.7502, 1.7135, 0.0367], [0.0389, -0.0685, 1.0296]]
    ri = [sum(brad[i][k] * w65[k] for k in range(3)) for i in range(3)]
    ro = [sum(brad[i][k] * d50[k] for k in range(3)) for i in range(3)]
    adapt = mul(inv(brad), mul([[ro[i] / ri[i] if i == j else 0 for j in range(3)]
                                for i in range(3)], brad))
    m = mul(adapt, npm)

    def s15(v):
        return struct.pack(">i", int(round(v * 65536)))

    def xyz_tag(v):
        return b"XYZ " + bytes(4) + b"".join(s15(c) for c in v)

    tags = [(b"rXYZ", xyz_tag([m[i][0] for i in range(3)])),
            (b"gXYZ", xyz_tag([m[i][1] for i in range(3)])),
            (b"bXYZ", xyz_tag([m[i][2] for i in range(3)])),
            (b"wtpt", xyz_tag(w65))]     # version 2: the media's own white
    curv = b"curv" + bytes(4) + struct.pack(">IH", 1, int(round(gamma * 256))) + bytes(2)
    tags += [(b"rTRC", curv), (b"gTRC", curv), (b"bTRC", curv)]
    table, data, off = b"", b"", 128 + 4 + 12 * len(tags)
    for sig, body in tags:
        table += sig + struct.pack(">II", off + len(data), len(body))
        data += body + bytes(-len(body) % 4)
    return struct.pack(">I", len(tags)) + table + data


def seed(fmt, w=16, h=8, opts=(), frames=(SD,), threads=1, cmds=(), c_only=False,
         changes=None, wide=None):
    flags = (threads - 1) | (8 if c_only else 0) | ((len(frames) - 1) << 5)
    b = [flags]
    if wide:
        b += [0xe0, (wide - 1) & 0xff, (wide - 1) >> 8]
    else:
        b += [w - 1]
    b += [h - 1, fmt, len(opts)]
    for o in opts:
        b += opt(*o)
    for i, tags in enumerate(frames):
        # a byte >= 0xc0 switches the frame to format index (byte % 45)
        b += [192 + (changes[i] - 192) % NB_FORMATS if changes and changes[i] is not None else 0]
        b += list(tags[:5])
        b += [tags[5] if len(tags) > 5 else 0]    # 0x80: an ICC profile of the pixel bytes
    for c in cmds:
        # a byte >= 0xc0 sends the command of option (byte % 26)
        b += [192 + (OPT[c[0]] - 192) % len(OPT), c[1]] if c else [0]
    assert len(b) <= HEAD, len(b)
    return bytes(b + [0] * (HEAD - len(b)))


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.normpath(
        os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "fuzz-corpus"))
    os.makedirs(out, exist_ok=True)
    rnd = random.Random(20261203)
    pixels = bytes(rnd.randrange(256) for _ in range(96))
    seeds = {}
    for f in range(NB_FORMATS):
        tags = RGB if f in RGB_FORMATS else SD
        w, h = (16, 8) if f % 2 == 0 else (7, 5)
        seeds[f"fmt{f:02d}"] = seed(f, w, h, [("all", 5)], [tags], threads=1 + f % 3)
    seeds["pq-to-sdr"] = seed(3, opts=[("all", 5), ("format", 0)], frames=[PQ])
    seeds["hlg-to-pq"] = seed(5, opts=[("trc", 16)], frames=[HLG])
    seeds["ictcp"] = seed(5, opts=[("space", 14)], frames=[PQ])
    seeds["bt2020c"] = seed(5, opts=[("space", 10), ("clipgamut", 1)], frames=[PQ], c_only=True)
    seeds["ycgco-fast"] = seed(2, opts=[("space", 8), ("fast", 1)])
    seeds["scene-vonkries"] = seed(0, opts=[("all", 8), ("linearize", 1), ("wpadapt", 1)])
    seeds["dither-ed"] = seed(3, 33, 17, [("all", 5), ("format", 0), ("dither", 2)], threads=2)
    seeds["siting"] = seed(0, 9, 9, [("chroma_loc", 3), ("ichroma_loc", 5)])
    seeds["colorimetry"] = seed(0, opts=[("icolorimetry", 0), ("colorimetry", 4)])
    seeds["v4l2"] = seed(18, opts=[("v4l2_colorspace", 1), ("v4l2_quantization", 2), ("all", 5)])
    seeds["guess0"] = seed(0, opts=[("guess", 0)], frames=[(2, 2, 2, 0, 0)])
    seeds["guessed"] = seed(0, 8, 8, [("all", 5)], frames=[(2, 2, 2, 0, 0)])
    seeds["clip-range"] = seed(1, opts=[("range", 2), ("clip", 1)])
    seeds["midstream"] = seed(0, 12, 6, [("all", 5)], frames=[SD, HD, PQ], threads=2,
                              changes=[None, 2, 22], cmds=[("trc", 1), None])
    seeds["wide"] = seed(0, h=2, opts=[("all", 5)], wide=2999)
    seeds["tiny"] = seed(12, 1, 1, [("all", 8), ("format", 22)])
    seeds["bad-tags"] = seed(0, frames=[(3, 3, 3, 3, 9)])
    seeds["unsupported-fmt"] = seed(0xe0 + 1, opts=[("all", 5)])
    # ICC profiles: the pixel bytes are the profile after its header (Adobe RGB (1998):
    # opRGB's values; its primaries with a gamma 1.8: a curve of its own)
    adobe = [(0.64, 0.33), (0.21, 0.71), (0.15, 0.06)]
    icc = {"icc-adobe-rgb": icc_tags(adobe, 563 / 256),
           "icc-gamma18-own-curve": icc_tags(adobe, 1.8)}
    seeds["icc-adobe-rgb"] = seed(0, opts=[("primaries", 1)], frames=[(2, 2, 1, 1, 0, 0x80)])
    seeds["icc-gamma18-own-curve"] = seed(0, opts=[("primaries", 1)], frames=[(2, 2, 1, 1, 0, 0x80)])
    for name, data in seeds.items():
        with open(os.path.join(out, name), "wb") as fh:
            fh.write(data + icc.get(name, pixels))
    print(f"fuzz-seeds: {len(seeds)} seeds in {out}")


if __name__ == "__main__":
    main()
