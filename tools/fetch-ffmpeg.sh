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

# Usage: tools/fetch-ffmpeg.sh [--strict] SERIES      (SERIES e.g. 9.0 or 8.1)
#
# Finds the newest FFmpeg SERIES.x source that Debian (sid) offers, downloads
# its orig tarball with a private apt configuration (no system file touched),
# keeps a copy in ~/.cache/cspfix and extracts it to build/src/ffmpeg-<ver>.
# The last line on stdout is the absolute path of the tree; messages go to
# stderr.  If SERIES is not offered: with --strict exit 3, otherwise fall
# back to the newest version >= SERIES (with a warning).
# With FFMPEG_SRC=/path/to/tree set, that tree is copied to
# build/src/user-<basename> instead (SERIES is ignored).

set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=$ROOT/build
CACHE=${HOME:-/tmp}/.cache/cspfix
APT=$BUILD/apt

say() { echo "fetch-ffmpeg: $*" >&2; }
die() { say "ERROR: $*"; exit 1; }

strict=0
if [ "${1:-}" = --strict ]; then strict=1; shift; fi
[ $# = 1 ] || die "usage: $0 [--strict] SERIES"
series=$1
mkdir -p "$BUILD/src" "$BUILD/dl" "$CACHE"

# --- a user-supplied tree --------------------------------------------------
if [ -n "${FFMPEG_SRC:-}" ]; then
    src=$(cd "$FFMPEG_SRC" && pwd) || die "FFMPEG_SRC=$FFMPEG_SRC: no such directory"
    [ -f "$src/configure" ] && [ -f "$src/libavfilter/allfilters.c" ] ||
        die "FFMPEG_SRC=$src does not look like an FFmpeg source tree"
    dest=$BUILD/src/user-$(basename "$src")
    mkdir -p "$dest"
    say "syncing $src -> $dest"
    # Files the overlay edited are newer than the user's copies: keep them
    # (-u / --keep-newer-files), so that unchanged builds stay unchanged.
    if command -v rsync >/dev/null; then
        rsync -a -u --delete --exclude=/.git --exclude='*cspfix*' "$src/" "$dest/"
    else
        tar -C "$src" --exclude=./.git -cf - . |
            tar -C "$dest" --keep-newer-files --warning=no-ignore-newer -xf -
    fi
    echo "$dest"
    exit 0
fi

# --- version helpers -------------------------------------------------------
upstream() { local v=${1#*:}; echo "${v%-*}"; }   # 7:9.0.2-4 -> 9.0.2

# newest MODE: newest version on stdin whose upstream part is in $series
# (MODE=exact) or is >= $series (MODE=atleast)
newest() {
    local best= v u
    while read -r v; do
        [ -n "$v" ] || continue
        u=$(upstream "$v")
        if [ "$1" = exact ]; then
            case $u in "$series" | "$series".* | "$series"[+~]*) ;; *) continue ;; esac
        else
            dpkg --compare-versions "$u" ge "$series" || continue
        fi
        if [ -z "$best" ] || dpkg --compare-versions "$v" gt "$best"; then best=$v; fi
    done
    echo "$best"
}

# choose debian|cache VERSIONS: sets $ver, or exits (3: --strict and Debian
# does not offer $series; 1: nothing suitable)
choose() {
    local where=$1 offered
    [ "$where" = debian ] && where="Debian sid" || where="the cache $CACHE"
    ver=$(newest exact <<<"$2")
    [ -z "$ver" ] || return 0
    offered=$(for v in $2; do upstream "$v"; done | tr '\n' ' ')
    if [ $strict = 1 ]; then
        [ "$1" = debian ] || die "FFmpeg $series is not in $where (offered: ${offered:-none})"
        say "FFmpeg $series is not offered by $where (offered: ${offered:-none}); skipping (--strict)"
        exit 3
    fi
    ver=$(newest atleast <<<"$2")
    [ -n "$ver" ] || die "no FFmpeg $series or newer in $where (offered: ${offered:-none})"
    say "WARNING: FFmpeg $series is not offered by $where; FALLING BACK to $(upstream "$ver")"
}

cached_versions() {
    local f
    for f in "$CACHE"/ffmpeg_*.orig.tar.xz; do
        [ -s "$f" ] || continue
        f=${f##*/ffmpeg_}; echo "${f%.orig.tar.xz}"
    done
}

# --- resolve with a private apt configuration ------------------------------
mkdir -p "$APT/lists/partial" "$APT/cache/archives/partial"
echo 'deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian sid main' \
    >"$APT/sources.list"
opts=(-o Dir::Etc::SourceList="$APT/sources.list" -o Dir::Etc::SourceParts=/dev/null
      -o Dir::State::Lists="$APT/lists" -o Dir::Cache="$APT/cache"
      -o Debug::NoLocking=1 -o Acquire::Languages=none)
[ "$(id -u)" != 0 ] || opts+=(-o APT::Sandbox::User=root)

online=1
if [ -n "$(find "$APT/lists/.updated" -mmin -360 2>/dev/null)" ]; then
    say "Debian source index is less than 6 hours old, not updating"
elif apt-get "${opts[@]}" -q --error-on=any update >&2; then
    touch "$APT/lists/.updated"
else
    online=0
    say "WARNING: apt-get update failed (offline?); using cached tarballs in $CACHE"
fi

if [ $online = 1 ]; then
    choose debian "$(apt-cache "${opts[@]}" showsrc --only-source ffmpeg | awk '/^Version:/ {print $2}')"
else
    choose cache "$(cached_versions)"
fi
up=$(upstream "$ver")
tarname=ffmpeg_$up.orig.tar.xz

# --- get the tarball: cache, build/dl, or download --------------------------
tarball=
for d in "$CACHE" "$BUILD/dl"; do
    if [ -s "$d/$tarname" ]; then tarball=$d/$tarname; break; fi
done
if [ -z "$tarball" ]; then
    say "downloading ffmpeg=$ver"
    if (cd "$BUILD/dl" && apt-get "${opts[@]}" -q source --download-only --tar-only "ffmpeg=$ver" >&2) &&
        [ -s "$BUILD/dl/$tarname" ]; then
        tarball=$BUILD/dl/$tarname
    else
        say "WARNING: download of ffmpeg=$ver failed; trying the cache $CACHE"
        choose cache "$(cached_versions)"
        up=$ver tarname=ffmpeg_$ver.orig.tar.xz tarball=$CACHE/ffmpeg_$ver.orig.tar.xz
    fi
fi
if [ ! -s "$CACHE/$tarname" ]; then
    cp "$tarball" "$CACHE/$tarname.tmp$$"
    mv "$CACHE/$tarname.tmp$$" "$CACHE/$tarname"
fi

# --- extract (once) ---------------------------------------------------------
dest=$BUILD/src/ffmpeg-$up
if [ ! -e "$dest/.cspfix-extracted" ]; then
    say "extracting $tarball"
    tmp=$(mktemp -d "$BUILD/src/.extract.XXXXXX")
    tar -C "$tmp" --no-same-owner --no-same-permissions -xJf "$tarball"
    top=("$tmp"/*)
    [ ${#top[@]} = 1 ] && [ -f "${top[0]}/configure" ] || die "unexpected layout of $tarball"
    rm -rf "$dest"
    mv "${top[0]}" "$dest"
    chmod 755 "$dest"
    rmdir "$tmp"
    touch "$dest/.cspfix-extracted"
fi
say "FFmpeg $up: $dest"
echo "$dest"
