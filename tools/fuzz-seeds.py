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
changes, a wide frame, errors).  The byte layout is the one documented at the
top of tests/cspfix_fuzz.c.

Usage: tools/fuzz-seeds.py [OUTDIR]"""

import os
import random
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
        b += list(tags)
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
    for name, data in seeds.items():
        with open(os.path.join(out, name), "wb") as fh:
            fh.write(data + pixels)
    print(f"fuzz-seeds: {len(seeds)} seeds in {out}")


if __name__ == "__main__":
    main()
