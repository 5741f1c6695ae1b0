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

# Usage: tools/build-ffmpeg.sh check|asan|full|placebo SRC_DIR OBJ_DIR PREFIX
#
# Out-of-tree FFmpeg build of SRC_DIR in OBJ_DIR, installed to PREFIX.
#   check: small static build with only what the cspfix tests need (~2 min)
#   asan:  the check build with clang, AddressSanitizer and UndefinedBehaviorSanitizer
#          (every UB report fatal), frame pointers and debug info; asm stays enabled
#   full:  FFmpeg defaults plus zimg/freetype/harfbuzz/zlib and the codec
#          libraries of tools/deps.sh: dav1d, SVT-AV1, libaom, libvpx, Opus,
#          Vorbis; with FFMPEG_GPL=1 also --enable-gpl x264 x265 (23 min of CPU:
#          ~12-16 min on 2 idle cores)
#   placebo: a minimal build with Vulkan and FFmpeg's libplacebo filter (dav1d
#          decoding, cspfix, libplacebo, hwupload/hwdownload) for
#          tools/dovi-vs-libplacebo.sh, which builds libplacebo and sets
#          PKG_CONFIG_PATH to it (not part of make check)
# (drawtext needs both freetype and harfbuzz; lavfi input needs the
# wrapped_avframe decoder; the check build's SVT-AV1 and libaom encoders (libaom writes
# HDR10+ as ITU-T T.35, SVT-AV1 Dolby Vision RPUs) and dav1d decoder with the ivf
# muxer/demuxer and trace_headers are for tests/encode_test.sh.)
# FFMPEG_JOBS: make's job count (default: nproc)
# FFMPEG_CONFIGURE_FLAGS: extra configure flags for every profile, appended last
# (shell quoting works: FFMPEG_CONFIGURE_FLAGS="--extra-cflags='-O3 -g'").
# configure is re-run only when its flags, SRC_DIR/configure or
# SRC_DIR/libavfilter/allfilters.c (the filter list) changed.
# Output goes to OBJ_DIR/{configure,make,install}.log.

set -euo pipefail

say() { echo "build-ffmpeg: $*" >&2; }
[ $# = 4 ] || { say "usage: $0 check|asan|full SRC_DIR OBJ_DIR PREFIX"; exit 1; }
profile=$1
src=$(cd "$2" && pwd)
mkdir -p "$3" "$4"
obj=$(cd "$3" && pwd)
prefix=$(cd "$4" && pwd)

case $profile in
check | asan)
    flags=(--disable-everything --disable-doc --disable-network --disable-autodetect
        --enable-zlib --enable-libfreetype --enable-libharfbuzz --enable-libzimg --enable-lcms2 --disable-debug
        --enable-filter=cspfix,colorspace,scale,zscale,format,null,copy,testsrc2,split,hstack,vstack,xstack,drawtext,pad,crop,setparams,tonemap,sendcmd,showinfo,trim,concat,fps,scale2ref,nullsrc,geq,setpts,sine,aresample,aformat,anull,atrim
        --enable-demuxer=rawvideo,matroska,image2,yuv4mpegpipe,lavfi,mov,srt,ass,ffmetadata
        --enable-muxer=rawvideo,framecrc,framemd5,matroska,image2,yuv4mpegpipe,null,md5,framehash,streamhash,mov,mp4,srt,ass
        --enable-encoder=rawvideo,png,ffv1,wrapped_avframe,mpeg4,aac,pcm_s16le,subrip,ass,movtext
        --enable-decoder=rawvideo,png,ffv1,wrapped_avframe,mpeg4,aac,pcm_s16le,subrip,ass,movtext
        --enable-protocol=file,pipe --enable-indev=lavfi,v4l2 --enable-parser=png,aac,mpeg4video --enable-bsf=null
        --enable-libsvtav1 --enable-libdav1d --enable-encoder=libsvtav1 --enable-decoder=libdav1d
        --enable-libaom --enable-encoder=libaom_av1
        --enable-muxer=ivf --enable-demuxer=ivf --enable-parser=av1 --enable-bsf=trace_headers)
    if [ "$profile" = asan ]; then
        san="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
        flags+=(--cc=clang --cxx=clang++ --ld=clang --disable-stripping
            --extra-cflags="$san -g" --extra-ldflags="$san")
    fi ;;
full)
    flags=(--enable-libzimg --enable-libfreetype --enable-libharfbuzz --enable-zlib --enable-lcms2 --disable-doc
        --enable-libdav1d --enable-libsvtav1 --enable-libaom --enable-libvpx
        --enable-libopus --enable-libvorbis)
    [ "${FFMPEG_GPL:-0}" = 0 ] || flags+=(--enable-gpl --enable-libx264 --enable-libx265) ;;
placebo)
    flags=(--disable-everything --disable-doc --disable-network --disable-autodetect --disable-debug
        --enable-vulkan --enable-libplacebo --enable-libdav1d --enable-decoder=libdav1d,rawvideo
        --enable-parser=av1 --enable-demuxer=matroska,rawvideo --enable-muxer=rawvideo,null
        --enable-encoder=rawvideo,wrapped_avframe --enable-protocol=file,pipe
        --enable-filter=cspfix,libplacebo,hwupload,hwdownload,format,scale,null,setparams,showinfo) ;;
*)
    say "unknown profile '$profile' (check, asan, full or placebo)"; exit 1 ;;
esac
eval "extra=(${FFMPEG_CONFIGURE_FLAGS:-})"
flags=(--prefix="$prefix" "${flags[@]}" "${extra[@]}")

# Do not leak the calling make's flags/variables into FFmpeg's make.
unset MAKEFLAGS MFLAGS MAKELEVEL

# run LOG CMD...: run CMD in OBJ_DIR, output to OBJ_DIR/LOG.log; on failure
# show the end of the log and exit
run() {
    local name=$1 log=$obj/$1.log start=$SECONDS
    shift
    say "$profile: $name (log: $log)"
    if ! (cd "$obj" && "$@") >"$log" 2>&1; then
        tail -n 40 "$log" >&2
        say "FAILED: $* (full log: $log)"
        [ "$name" != configure ] || say "configure details: $obj/ffbuild/config.log"
        exit 1
    fi
    say "  done in $((SECONDS - start)) s"
}

stamp=$obj/.cspfix-configure-stamp
want=$(printf '%s\n' "$src" "${flags[@]}"; cksum <"$src/configure"; cksum <"$src/libavfilter/allfilters.c")
if [ -f "$obj/ffbuild/config.mak" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$want" ]; then
    say "$profile: configuration unchanged, not re-running configure"
else
    rm -f "$stamp"
    run configure "$src/configure" "${flags[@]}"
    echo "$want" >"$stamp"
fi
run make make -j"${FFMPEG_JOBS:-$(nproc)}"
run install make install
say "$profile: installed to $prefix"
