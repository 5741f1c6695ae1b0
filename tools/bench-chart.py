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

"""Chart of a cspfix-bench JSON report: per conversion, each peer's speed
relative to cspfix (cspfix's time / the peer's: 1 is cspfix's speed, below 1
the peer is slower), one panel per thread count, the CPU in the title.

Usage: tools/bench-chart.py REPORT.json OUT.png   (needs gnuplot)
"""

import json
import os
import re
import subprocess
import sys
import tempfile


# one colour per peer, the same in every panel (the copy, last, in grey)
COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2",
           "#17becf", "#bcbd22", "#393b79", "#637939", "#8c6d31", "#843c39", "#7b4173",
           "#7f7f7f"]


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__.strip().splitlines()[-1].strip())
    rep = json.load(open(sys.argv[1], encoding="utf-8"))
    rows = [r for r in rep["results"]
            if re.fullmatch(r"B\d+", r["conv"]) and r.get("status") == "ok"]
    ref = {(r["conv"], r["threads"]): r["ms_per_frame"] for r in rows if r["filter"] == "cspfix"}
    convs = sorted({r["conv"] for r in rows}, key=lambda c: int(c[1:]))
    peers = sorted({r["filter"] for r in rows if r["filter"] != "cspfix"},
                   key=lambda p: (p == "copy", p))
    colours = {p: COLOURS[i] for i, p in enumerate(q for q in peers if q != "copy")}
    colours["copy"] = COLOURS[-1]
    threads = sorted({r["threads"] for r in rows})
    if not rows or not peers or not ref:
        sys.exit("bench-chart: no cspfix and peer results in %s" % sys.argv[1])
    flags = rep.get("cpu_flags", "")
    isa = "AVX-512" if rep.get("avx512") else "AVX2" if " avx2 " in " %s " % flags else "no AVX2"
    title = "cspfix-bench: each peer's speed relative to cspfix (1 = cspfix, below 1: slower)\\n" \
            "%s (%d cores, %s), FFmpeg %s%s" % (rep.get("cpu", "?"), rep.get("nproc", 0), isa,
                                                 rep.get("ffmpeg", "?"),
                                                 ", quick run (small frames)" if rep.get("quick") else "")
    with tempfile.TemporaryDirectory() as tmp:
        for t in threads:
            with open(os.path.join(tmp, "t%d.dat" % t), "w") as f:
                f.write("conv " + " ".join('"%s"' % p for p in peers) + "\n")
                for c in convs:
                    vals = []
                    for p in peers:
                        ms = [r["ms_per_frame"] for r in rows
                              if r["conv"] == c and r["threads"] == t and r["filter"] == p]
                        base = ref.get((c, t))
                        vals.append("%.4f" % (base / ms[0]) if ms and base and ms[0] > 0 else "NaN")
                    f.write("%s %s\n" % (c, " ".join(vals)))
        gp = ["set terminal pngcairo size 1400,%d font 'DejaVu Sans,11'" % (380 * len(threads) + 60),
              "set output '%s'" % sys.argv[2].replace("'", "''"),
              "set multiplot layout %d,1 title \"%s\" font ',13'" % (len(threads), title),
              "set style data histograms", "set style histogram clustered gap 1",
              "set style fill solid 0.85 border -1", "set boxwidth 0.9",
              "set logscale y 2", "set yrange [0.03:32]",
              "set ytics (0.0625, 0.125, 0.25, 0.5, 1, 2, 4, 8, 16)",
              "set grid ytics", "set key outside right top", "set ylabel 'peer speed / cspfix speed'"]
        for t in threads:
            # the peers measured at this thread count (zimg-avx2 runs one thread only)
            cols = [i for i, p in enumerate(peers)
                    if any(r["threads"] == t and r["filter"] == p for r in rows)]
            gp += ["set title '%d thread%s'" % (t, "" if t == 1 else "s"),
                   "plot 1 with lines lw 2 lc rgb 'black' title 'cspfix', " +
                   ", ".join("'%s/t%d.dat' using %d:xtic(1) title columnheader(%d) lc rgb '%s'"
                             % (tmp, t, i + 2, i + 2, colours.get(peers[i], COLOURS[i % len(COLOURS)]))
                             for i in cols)]
        gp.append("unset multiplot")
        subprocess.run(["gnuplot"], input="\n".join(gp) + "\n", text=True, check=True)


if __name__ == "__main__":
    main()
