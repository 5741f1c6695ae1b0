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

# Usage: tools/install-ffmpeg.sh OBJ_DIR PREFIX
#
# Installs an FFmpeg build (OBJ_DIR, built by tools/build-ffmpeg.sh) into
# PREFIX: FFmpeg's own `make install prefix=PREFIX` (programs, libraries,
# headers, pkg-config files), then the pkg-config files are pointed at PREFIX
# (configure wrote the build's own prefix into them).  Nothing is rebuilt.
# The one path compiled into the programs is FFmpeg's preset directory
# (share/ffmpeg, for -fpre), which stays the build's.

set -euo pipefail
say() { echo "install-ffmpeg: $*" >&2; }
[ $# = 2 ] || { say "usage: $0 OBJ_DIR PREFIX"; exit 1; }
obj=$(cd "$1" && pwd)
[ -f "$obj/ffbuild/config.mak" ] || { say "$obj is not a configured FFmpeg build"; exit 1; }
mkdir -p "$2"
prefix=$(cd "$2" && pwd)
old=$(sed -n 's/^prefix=//p' "$obj/ffbuild/config.mak")

unset MAKEFLAGS MFLAGS MAKELEVEL
make -C "$obj" install prefix="$prefix" >"$prefix/.install.log" 2>&1 ||
    { tail -n 30 "$prefix/.install.log" >&2; say "FAILED (log: $prefix/.install.log)"; exit 1; }
n=0
for pc in "$prefix"/lib/pkgconfig/lib*.pc; do
    [ "$old" = "$prefix" ] || sed -i -e "s#^prefix=$old\$#prefix=$prefix#" \
        -e "s#^libdir=$old/#libdir=$prefix/#" -e "s#^includedir=$old/#includedir=$prefix/#" "$pc"
    n=$((n + 1))
done
[ $n -gt 0 ] || { say "no pkg-config files installed in $prefix/lib/pkgconfig"; exit 1; }
rm -f "$prefix/.install.log"
say "installed $obj into $prefix ($n pkg-config files: $(cd "$prefix/lib/pkgconfig" && echo *.pc))"
