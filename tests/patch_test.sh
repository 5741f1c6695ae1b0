#!/usr/bin/env bash
# make patch, tested: the series applies with `git am` onto a fresh pristine
# tree of the same FFmpeg version and gives the overlaid tree's files.
# Usage: tests/patch_test.sh OVERLAID_SRC_DIR
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
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
srcdir=$(cd "$1" && pwd)
case ${srcdir##*/} in
ffmpeg-*) ver=${srcdir##*/ffmpeg-} ;;
*) echo "patch: SKIPPED ($srcdir is not a Debian-fetched tree)"; exit 0 ;;
esac
tarball=${HOME:-/tmp}/.cache/cspfix/ffmpeg_$ver.orig.tar.xz
[ -s "$tarball" ] || { echo "patch: FAIL: no $tarball"; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cspfix-patchtest-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
t0=$SECONDS

"$ROOT/tools/make-patch.sh" "$tarball" "$tmp/series" >"$tmp/make-patch.log" 2>&1 ||
    { cat "$tmp/make-patch.log"; echo "patch: FAIL: make-patch.sh"; exit 1; }
n=$(ls "$tmp/series"/*.patch | wc -l)

mkdir "$tmp/fresh"
tar -C "$tmp/fresh" --no-same-owner -xJf "$tarball"
tree=$tmp/fresh/ffmpeg-$ver
g() { git -C "$tree" -c user.name=test -c user.email=test@invalid -c core.autocrlf=false \
          -c commit.gpgsign=false "$@"; }
g init -q; g add -A -f .; g commit -q -m pristine
base=$(g rev-parse HEAD)
if ! g am -q "$tmp/series"/*.patch >"$tmp/am.log" 2>&1; then
    cat "$tmp/am.log"; echo "patch: FAIL: git am of the $n patches does not apply"; exit 1
fi
[ -z "$(g status --porcelain)" ] || { g status --short | head; echo "patch: FAIL: tree dirty after git am"; exit 1; }

# the touched files, checksummed in both trees (two processes, not one per file)
g diff --name-only "$base" HEAD >"$tmp/files"
(cd "$tree" && xargs -d '\n' sha1sum <"$tmp/files") >"$tmp/am.sum"
(cd "$srcdir" && xargs -d '\n' sha1sum <"$tmp/files" 2>/dev/null) >"$tmp/overlay.sum"
same=$(grep -cxFf "$tmp/overlay.sum" "$tmp/am.sum" || true)
differ=$(( $(wc -l <"$tmp/files") - same ))
grep -vxFf "$tmp/overlay.sum" "$tmp/am.sum" | sed 's/^[0-9a-f]*  /  differs from the overlaid tree: /' | head -n 20 || true
echo "patch: $n patches applied with git am onto pristine FFmpeg $ver; $((same + differ)) files" \
     "touched, $same identical to the overlaid tree, $differ different ($((SECONDS - t0)) s)"
[ $differ = 0 ] && [ $same -gt 0 ]
