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

# Usage: [FFMPEG_GPL=1] tools/deps.sh [--asan]
#
# Checks the build/test dependencies of cspfix, with the codec libraries of
# the full build (`make`; the test build uses dav1d, SVT-AV1 and libaom of them), and
# with FFMPEG_GPL=1 also x264 and x265.  Missing Debian packages are
# installed when running as root; otherwise the install command is printed
# and the script fails.  A fast no-op when everything is present.

set -euo pipefail

missing=()
# need PACKAGE CHECK...: PACKAGE is missing unless CHECK succeeds
need() { "${@:2}" >/dev/null 2>&1 || missing+=("$1"); }
has() { command -v "$1"; }

need gcc                    has cc
need libc6-dev              test -e /usr/include/stdio.h
need make                   has make
need nasm                   has nasm
need pkg-config             has pkg-config
need xz-utils               has xz
need debian-archive-keyring test -e /usr/share/keyrings/debian-archive-keyring.gpg
need libzimg-dev            pkg-config --exists zimg
need zlib1g-dev             pkg-config --exists zlib
need libfreetype-dev        pkg-config --exists freetype2
need libharfbuzz-dev        pkg-config --exists harfbuzz
need liblcms2-dev           pkg-config --exists 'lcms2 >= 2.13'
need fonts-dejavu-core      test -e /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf
need parallel               has parallel
# tests/batch_test.sh runs a private sshd on 127.0.0.1 as a second host
need openssh-server         test -x /usr/sbin/sshd
need git                    has git
# the bench's chart (tools/bench-chart.py)
need gnuplot-nox            has gnuplot
# codecs (tools/build-ffmpeg.sh): AV1 decode, AV1 encode (SVT-AV1 and libaom),
# VP8/VP9, Opus, Vorbis; Debian 12 has dav1d 1.0.0 and SVT-AV1 1.4.1, the
# oldest FFmpeg 8.1 and 9.0 accept (dav1d >= 1.0.0, SvtAv1Enc >= 0.9.0)
need libdav1d-dev           pkg-config --exists 'dav1d >= 1.0.0'
need libsvtav1enc-dev       pkg-config --exists 'SvtAv1Enc >= 0.9.0'
need libaom-dev             pkg-config --exists 'aom >= 2.0.0'
need libvpx-dev             pkg-config --exists 'vpx >= 1.4.0'
need libopus-dev            pkg-config --exists opus
need libvorbis-dev          pkg-config --exists vorbisenc
if [ "${FFMPEG_GPL:-0}" != 0 ]; then
    need libx264-dev        pkg-config --exists x264
    need libx265-dev        pkg-config --exists x265
fi

# --asan: what make check-asan and make fuzz need as well
if [ "${1:-}" = --asan ]; then
    need clang              has clang
    need libclang-rt-dev    sh -c 'echo "int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { return 0; }" |
                                   clang -x c -fsanitize=fuzzer,address,undefined -o /dev/null -'
    need valgrind           has valgrind
fi

[ ${#missing[@]} -gt 0 ] || exit 0

install=(apt-get install -y --no-install-recommends "${missing[@]}")
if [ "$(id -u)" != 0 ]; then
    echo "deps: missing packages: ${missing[*]}" >&2
    echo "deps: install them as root with:  ${install[*]}" >&2
    exit 1
fi
echo "deps: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update >&2
"${install[@]}" >&2
