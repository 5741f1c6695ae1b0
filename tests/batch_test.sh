#!/usr/bin/env bash
# tools/cspfix-batch on a folder of generated clips, -j2, one of them broken.
# Usage: tests/batch_test.sh BINDIR
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
ROOT=$(cd "$(dirname "$0")/.." && pwd)
bin=$(cd "$1" && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cspfix-batchtest-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0
ok()   { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); echo "FAIL: $*"; }
tags() {
    "$bin/ffprobe" -v error -select_streams v:0 -show_entries \
        stream=color_primaries,color_transfer,color_space,color_range -of csv=p=0 "$1"
}
clip() { # NAME PRIMARIES TRC MATRIX RANGE
    "$bin/ffmpeg" -nostdin -v error -y -f lavfi \
        -i "testsrc2=s=32x24:d=0.12,format=yuv420p,setparams=color_primaries=$2:color_trc=$3:colorspace=$4:range=$5" \
        -c:v ffv1 "$tmp/in/$1"
}
mkdir -p "$tmp/in/sub"
clip a.mkv smpte170m smpte170m smpte170m tv
clip b.mkv bt709 bt709 bt709 tv                # already at the target: skipped
clip sub/c.mkv bt470bg smpte170m bt470bg pc
clip d.mkv bt2020 bt2020-10 bt2020nc tv
head -c 700 "$tmp/in/a.mkv" >"$tmp/in/broken.mkv"   # truncated: must fail
echo "not a clip" >"$tmp/in/readme.txt"            # skipped

"$ROOT/tools/cspfix-batch" -j2 --bindir "$bin" --target bt709 "$tmp/in" "$tmp/out" \
    >"$tmp/out.txt" 2>"$tmp/progress.txt"
rc=$?
sed 's/^/  | /' "$tmp/out.txt"
[ $rc = 1 ] && ok || fail "exit status $rc with a broken file, expected 1"
grep -q "^cspfix-batch: 6 files: 3 converted, 2 skipped, 1 failed" "$tmp/out.txt" && ok ||
    fail "summary: $(head -n 1 "$tmp/out.txt")"
sed -n '/^failed:/,$p' "$tmp/out.txt" | grep -q "^  broken.mkv: " && ok || fail "broken.mkv not listed as failed"
sed -n '/^skipped:/,/^failed:/p' "$tmp/out.txt" | grep -q "^  b.mkv: already bt709" && ok ||
    fail "b.mkv not listed as skipped (already bt709)"
sed -n '/^skipped:/,/^failed:/p' "$tmp/out.txt" | grep -q "^  readme.txt: " && ok || fail "readme.txt not skipped"
[ "$(grep -c '^\[[0-9]/6\] ' "$tmp/progress.txt")" = 6 ] && ok || fail "progress: $(cat "$tmp/progress.txt")"
for f in a sub/c d; do
    [ "$(tags "$tmp/out/$f.mkv" 2>/dev/null | cut -d, -f2-)" = "bt709,bt709,bt709" ] && ok ||
        fail "$f.mkv: output tags '$(tags "$tmp/out/$f.mkv" 2>&1)'"
done
# full range into ffv1 (limited range only): cspfix converts to limited itself
[ "$(tags "$tmp/out/sub/c.mkv" | cut -d, -f1)" = tv ] && ok || fail "sub/c.mkv: range $(tags "$tmp/out/sub/c.mkv")"
[ ! -e "$tmp/out/broken.mkv" ] && [ ! -e "$tmp/out/b.mkv" ] && ok || fail "outputs for failed/skipped files"

# the same without the broken file, through GNU parallel's --sshlogin (":" is
# this machine, so no ssh is needed): exit 0, options passed on
rm "$tmp/in/broken.mkv"
"$ROOT/tools/cspfix-batch" -j2 --sshlogin 2/: --bindir "$bin" --target bt709 --options range=pc --codec rawvideo \
    "$tmp/in" "$tmp/out2" >"$tmp/out2.txt" 2>&1
rc=$?
[ $rc = 0 ] && ok || fail "--sshlogin 2/: run: exit $rc: $(cat "$tmp/out2.txt")"
grep -q "^cspfix-batch: 5 files: 4 converted, 1 skipped, 0 failed" "$tmp/out2.txt" && ok ||
    fail "--sshlogin summary: $(grep '^cspfix-batch: 5' "$tmp/out2.txt")"
[ "$(tags "$tmp/out2/b.mkv")" = "pc,bt709,bt709,bt709" ] && ok || fail "range=pc not applied: $(tags "$tmp/out2/b.mkv")"
# range=pc into ffv1 (limited range only) is reported as failed, not silently tv
"$ROOT/tools/cspfix-batch" -j2 --bindir "$bin" --options range=pc "$tmp/in" "$tmp/out3" >"$tmp/out3.txt" 2>&1
rc=$?
[ $rc = 1 ] && grep -q "^  a.mkv: output range tv, not pc" "$tmp/out3.txt" && ok ||
    fail "range=pc into ffv1: exit $rc: $(grep -A9 '^failed' "$tmp/out3.txt")"

echo "batch: $passed passed, $failed failed"
[ $failed = 0 ]
