#!/usr/bin/env bash
# cspfix command-line tests: real ffmpeg command lines, tags checked with ffprobe.
# Usage: tests/cli_test.sh BINDIR
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
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0
ok()   { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); echo "FAIL: $*"; }

src170="testsrc2=s=64x48:d=0.4,format=yuv420p,setparams=color_primaries=smpte170m:color_trc=smpte170m:colorspace=smpte170m:range=tv"

# tags: range,matrix,transfer,primaries of the first video stream
tags() {
    "$bin/ffprobe" -v error -select_streams v:0 -show_entries \
        stream=color_primaries,color_transfer,color_space,color_range -of csv=p=0 "$1"
}

expect_tags() { # file expected description
    local got; got=$(tags "$1")
    if [ "$got" = "$2" ]; then ok; else fail "$3: tags '$got', expected '$2'"; fi
}

run() { "$bin/ffmpeg" -nostdin -hide_banner -v error -y "$@"; }

run -f lavfi -i "$src170" -vf cspfix=all=bt709 -c:v ffv1 "$tmp/a.mkv" && ok || fail "all=bt709 encode"
expect_tags "$tmp/a.mkv" "tv,bt709,bt709,bt709" "cspfix=all=bt709"

run -f lavfi -i "$src170" -vf cspfix=range=pc -c:v rawvideo "$tmp/b.mkv" && ok || fail "range=pc encode"
expect_tags "$tmp/b.mkv" "pc,smpte170m,smpte170m,smpte170m" "cspfix=range=pc"

run -f lavfi -i "$src170" -vf cspfix=space=bt709,format=yuv420p -c:v ffv1 "$tmp/c.mkv" && ok || fail "space,format encode"
expect_tags "$tmp/c.mkv" "tv,bt709,smpte170m,smpte170m" "cspfix=space=bt709,format=yuv420p"

run -f lavfi -i "$src170" -vf cspfix=all=bt2020:format=yuv420p10 -c:v ffv1 "$tmp/d.mkv" && ok || fail "bt2020 10-bit encode"
expect_tags "$tmp/d.mkv" "tv,bt2020nc,bt2020-10,bt2020" "cspfix=all=bt2020:format=yuv420p10"

# every frame comes out
n=$(run -f lavfi -i "$src170" -vf cspfix=all=bt709 -f framecrc - | grep -c '^0,')
[ "$n" = 10 ] && ok || fail "frame count: $n of 10"

# help lists the options and their values
"$bin/ffmpeg" -hide_banner -h filter=cspfix > "$tmp/help.txt" 2>&1
for w in iprimaries itrc linearize wpadapt arib-std-b67 chroma-derived-c; do
    grep -q -- "$w" "$tmp/help.txt" && ok || fail "-h filter=cspfix lacks $w"
done

# a bad value gets a clear message and a failing exit status
if run -f lavfi -i "$src170" -vf cspfix=space=ictcp -f null - 2> "$tmp/err.txt"; then
    fail "ictcp from bt709 primaries should fail"
else
    grep -q "ictcp needs primaries bt2020" "$tmp/err.txt" && ok || fail "ictcp message: $(cat "$tmp/err.txt")"
fi

echo "cli: $passed passed, $failed failed"
[ "$failed" = 0 ]
