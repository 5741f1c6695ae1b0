#!/bin/sh
# cspfix under valgrind memcheck: ffmpeg command lines through the filter's main
# paths with the default CPU flags (SIMD kernels included) and slice threads; any
# invalid access, use of uninitialised memory or leak fails.
# Usage: tests/valgrind_test.sh "VALGRIND COMMAND" FFMPEG
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
set -u
vg=$1 ff=$2
n=0 failed=0 t0=$(date +%s)

# run SOURCE_FORMAT TAGS FILTER: 3 frames of 97x41 (odd sizes) through FILTER
run() {
    n=$((n + 1))
    if ! $vg "$ff" -nostdin -hide_banner -v error -filter_threads 2 \
        -f lavfi -i "testsrc2=s=97x41:d=0.12,format=$1,setparams=$2" \
        -vf "$3" -f null - >/dev/null 2>"${TMPDIR:-/tmp}/cspfix-vg.$$"; then
        failed=$((failed + 1))
        echo "FAIL: $1 -> $3"
        head -n 40 "${TMPDIR:-/tmp}/cspfix-vg.$$"
    fi
    rm -f "${TMPDIR:-/tmp}/cspfix-vg.$$"
}

sd="color_primaries=smpte170m:color_trc=smpte170m:colorspace=smpte170m:range=tv"
pq="color_primaries=bt2020:color_trc=smpte2084:colorspace=bt2020nc:range=tv"
hlg="color_primaries=bt2020:color_trc=arib-std-b67:colorspace=bt2020nc:range=tv"
rgb="color_primaries=bt709:color_trc=iec61966-2-1:colorspace=gbr:range=pc"

run yuv420p    "$sd"  "cspfix=all=bt709"
run yuv420p10  "$sd"  "cspfix=all=bt709:format=yuv420p:dither=ed"
run nv12       "$sd"  "cspfix=all=bt709:format=p010le:chroma_loc=topleft"
run yuva422p   "$sd"  "cspfix=all=bt709:format=rgba"
run rgb24      "$rgb" "cspfix=all=bt2020:format=yuv420p10"
run gbrpf32le  "$rgb" "cspfix=trc=bt709:format=x2rgb10le"
run yuv444p10  "$pq"  "cspfix=trc=arib-std-b67:format=yuv422p10"
run yuv420p10  "$hlg" "cspfix=all=bt709:format=nv12"
run yuv444p10  "$pq"  "cspfix=space=ictcp:format=yuv444p12"
run yuv444p10  "$pq"  "cspfix=space=bt2020c:clipgamut=rgb"
run gray10le   "color_primaries=bt709:color_trc=bt709:colorspace=bt709:range=tv" "cspfix=range=pc:format=gray8"
run yuv420p    "$sd"  "cspfix=range=pc"

echo "valgrind: $((n - failed)) of $n command lines clean ($(( $(date +%s) - t0 )) s)"
[ $failed = 0 ]
