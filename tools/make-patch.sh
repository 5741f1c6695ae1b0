#!/usr/bin/env bash
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

# Usage: tools/make-patch.sh TARBALL OUT_DIR
#
# Writes our overlay as a `git format-patch` series against the pristine
# FFmpeg of TARBALL (the Debian orig tarball cached in ~/.cache/cspfix):
# the tarball is extracted into a temporary git repository, committed, then
# tools/overlay.sh is run on it and its changes are committed in four
# patches (the filter with its documentation and SIMD, checkasm, the v4l2
# input, FATE).  Author and dates are fixed, so the series is reproducible.
# OUT_DIR/*.patch is replaced; the last stdout line is OUT_DIR.

set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
say() { echo "make-patch: $*" >&2; }
[ $# = 2 ] && [ -s "$1" ] || { say "usage: $0 TARBALL OUT_DIR"; exit 1; }
tarball=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
mkdir -p "$2"
out=$(cd "$2" && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cspfix-patch-XXXXXX")
trap 'rm -rf "$tmp"' EXIT

tar -C "$tmp" --no-same-owner -xJf "$tarball"
top=("$tmp"/*)
[ ${#top[@]} = 1 ] && [ -f "${top[0]}/configure" ] || { say "unexpected layout of $tarball"; exit 1; }
src=${top[0]}
ver=${src##*/ffmpeg-}

export GIT_AUTHOR_NAME="cspfix developers" GIT_AUTHOR_EMAIL="cspfix@invalid"
export GIT_COMMITTER_NAME="cspfix developers" GIT_COMMITTER_EMAIL="cspfix@invalid"
export GIT_AUTHOR_DATE="2026-01-01T00:00:00Z" GIT_COMMITTER_DATE="2026-01-01T00:00:00Z"
g() { git -C "$src" -c core.autocrlf=false -c commit.gpgsign=false "$@"; }
g init -q
g add -A -f .
g commit -q -m "FFmpeg $ver (pristine)"
base=$(g rev-parse HEAD)

"$ROOT/tools/overlay.sh" "$src" >&2

# commit PATHS MESSAGE: commit what the overlay changed under PATHS
commit() {
    g add -A -f -- $1 2>/dev/null || true
    if ! g diff --cached --quiet; then g commit -q -m "$2"; fi
}
commit "libavfilter doc/filters.texi" "avfilter: add cspfix, a colour description conversion filter

Converts primaries (with white point adaptation), transfer characteristics,
Y'CbCr matrix and range for every value FFmpeg can tag a frame with, with
input overrides, V4L2 and GStreamer colour descriptions as options, and
x86 SIMD kernels."
commit "tests/checkasm" "checkasm: add cspfix kernel tests"
commit "libavdevice" "avdevice/v4l2: tag captured streams with the colorimetry of VIDIOC_G_FMT

The colorspace, ycbcr_enc, quantization and xfer_func the driver reports
are mapped (with the kernel's default rules) to the stream's colour fields."
commit "tests/fate-cspfix tests/Makefile" "fate: add cspfix tests"
commit "." "cspfix: remaining overlay files"

rm -f "$out"/*.patch
g format-patch -q -o "$out" "$base"..HEAD
n=$(ls "$out"/*.patch | wc -l)
say "FFmpeg $ver: $n patches, $(g diff --name-only "$base" HEAD | wc -l) files, in $out"
echo "$out"
