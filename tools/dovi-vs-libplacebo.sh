#!/usr/bin/env bash
# cspfix against libplacebo on Dolby Vision (issue 30, item 6): the profile 5 clip of
# tools/hdr-demo.sh (dovi-profile5.mkv) rendered by cspfix and by FFmpeg's libplacebo filter
# on a CPU Vulkan driver (Mesa's lavapipe), compared by tools/dovi_compare.c:
#   1. the reshaped signal as BT.2020 PQ (no tone mapping, gamut mapping, dithering or peak
#      detection), in 10-bit PQ codes and dE_ITP, flat areas and edges apart, with
#      libplacebo's default chroma upscaler and with bilinear; each against the exact pattern
#   2. tone mapped to SDR BT.709: each with its defaults, then both with clip and with
#      BT.2390; dE_ITP (BT.2124) of the light of a BT.1886 display, white 203 cd/m2.
# Not part of make check (`make dovi-libplacebo`). It builds, once, into OUTDIR:
#   deps/     libplacebo (>= 7.351, what FFmpeg 9 needs; Debian 12 has 4.208) from Debian's
#             source package (sid, else trixie) with meson and ninja, and the Vulkan and
#             SPIR-V headers of Debian's vulkan-loader and spirv-headers sources (newer
#             than Debian 12's), fetched with a private apt configuration (OUTDIR/apt)
#   obj/, prefix/  FFmpeg SRC_DIR (overlaid with cspfix) in tools/build-ffmpeg.sh's
#             placebo profile: Vulkan, libplacebo, dav1d, cspfix
#   cmp/      the renders (gbrp16le) and report.txt
# Builds run with at most 2 jobs (DOVI_JOBS).
# Usage: tools/dovi-vs-libplacebo.sh SRC_DIR OUTDIR [CLIP]
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

say() { echo "dovi-libplacebo: $*" >&2; }
die() { say "ERROR: $*"; exit 1; }

[ $# -ge 2 ] && [ $# -le 3 ] || die "usage: $0 SRC_DIR OUTDIR [CLIP]"
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
src=$(cd "$1" && pwd)
mkdir -p "$2"
out=$(cd "$2" && pwd)
clip=${3:-$root/build/hdr-demo/dovi-profile5.mkv}
[ -s "$clip" ] || die "no $clip: run 'make hdr-demo' first (it writes the Dolby Vision clip)"
jobs=${DOVI_JOBS:-2}
start=$SECONDS
deps=$out/deps
cache=${HOME:-/tmp}/.cache/cspfix
mkdir -p "$out/dl" "$out/src" "$out/cmp" "$deps/include" "$deps/lib/pkgconfig" "$cache"

# --- Debian packages: the build tools and libplacebo's dependencies, lavapipe ------------
missing=()
for p in meson ninja-build pkg-config nasm glslang-dev python3-jinja2 liblcms2-dev \
         libxxhash-dev libvulkan-dev libvulkan1 mesa-vulkan-drivers libdav1d-dev xz-utils \
         debian-archive-keyring; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
    [ "$(id -u)" = 0 ] || die "missing packages: ${missing[*]} (as root: apt-get install ${missing[*]})"
    say "installing ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update >&2
    apt-get install -y --no-install-recommends "${missing[@]}" >&2
fi

# --- sources, with a private apt configuration (as tools/fetch-ffmpeg.sh does) ------------
apt=$out/apt
mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial"
for suite in sid trixie; do
    echo "deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian $suite main"
done >"$apt/sources.list"
aopts=(-o Dir::Etc::SourceList="$apt/sources.list" -o Dir::Etc::SourceParts=/dev/null
       -o Dir::State::Lists="$apt/lists" -o Dir::Cache="$apt/cache"
       -o Debug::NoLocking=1 -o Acquire::Languages=none)
[ "$(id -u)" != 0 ] || aopts+=(-o APT::Sandbox::User=root)
updated=0
apt_update() {
    [ $updated = 0 ] || return 0
    updated=1
    if [ -n "$(find "$apt/lists/.updated" -mmin -360 2>/dev/null)" ]; then return 0; fi
    if apt-get "${aopts[@]}" -q --error-on=any update >>"$out/apt.log" 2>&1; then
        touch "$apt/lists/.updated"
    else
        say "WARNING: apt-get update failed (offline?; $out/apt.log); only cached tarballs can be used"
    fi
}

# fetch PKG MIN: the orig tarball of the newest version of source package PKG whose
# upstream version is >= MIN (from the cache, else the newest Debian sid/trixie offers that
# the mirror serves); extracts it once into OUTDIR/src and prints the tree's path
fetch() {
    local pkg=$1 min=$2 v u f tarball= versions
    for f in "$cache/${pkg}_"*.orig.tar.*; do
        [ -s "$f" ] || continue
        u=${f##*/"${pkg}"_}; u=${u%.orig.tar.*}
        dpkg --compare-versions "$u" ge "$min" || continue
        if [ -z "$tarball" ] || dpkg --compare-versions "$u" gt "$v"; then tarball=$f v=$u; fi
    done
    if [ -z "$tarball" ]; then
        apt_update
        versions=$(apt-cache "${aopts[@]}" showsrc --only-source "$pkg" 2>/dev/null |
                   awk '/^Version:/ {print $2}' | sort -u | sort -r -V)
        for v in $versions; do
            u=${v#*:}; u=${u%-*}
            dpkg --compare-versions "$u" ge "$min" || continue
            say "downloading $pkg=$v"
            rm -f "$out/dl/${pkg}_$u".orig.tar.*
            if (cd "$out/dl" && apt-get "${aopts[@]}" -q source --download-only --tar-only "$pkg=$v") \
                    >>"$out/apt.log" 2>&1; then
                for f in "$out/dl/${pkg}_$u".orig.tar.*; do [ -s "$f" ] && tarball=$f; done
            fi
            [ -z "$tarball" ] || break
            say "  $pkg=$v is offered but could not be downloaded ($out/apt.log); trying an older one"
        done
        [ -n "$tarball" ] || die "no $pkg >= $min could be downloaded (offered: ${versions:-none})"
        cp "$tarball" "$cache/${tarball##*/}.tmp$$" && mv "$cache/${tarball##*/}.tmp$$" "$cache/${tarball##*/}"
        v=$u
    fi
    local dest=$out/src/$pkg-$v
    if [ ! -e "$dest/.extracted" ]; then
        say "extracting ${tarball##*/}"
        local tmp
        tmp=$(mktemp -d "$out/src/.x.XXXXXX")
        tar -C "$tmp" --no-same-owner -xf "$tarball"
        local top=("$tmp"/*)
        [ ${#top[@]} = 1 ] || die "unexpected layout of $tarball"
        rm -rf "$dest"
        mv "${top[0]}" "$dest"
        rmdir "$tmp"
        touch "$dest/.extracted"
    fi
    echo "$dest"
}

placebo_src=$(fetch libplacebo 7.351)
loader_src=$(fetch vulkan-loader 1.4)     # its tarball carries Vulkan-Headers
spirv_src=$(fetch spirv-headers 1.6.1+1.4)

# --- headers: Vulkan (FFmpeg 9 needs >= 1.3.277, libplacebo 7.3xx VK_VERSION_1_4) and SPIR-V
# (FFmpeg's swscale SPIR-V backend uses SpvFPEncoding; Debian 12's spirv-headers predate it)
vkh=$loader_src/vulkan-headers
[ -f "$vkh/include/vulkan/vulkan_core.h" ] || die "no vulkan-headers/ in $loader_src"
grep -q 'define VK_VERSION_1_4 ' "$vkh/include/vulkan/vulkan_core.h" ||
    die "$loader_src: its Vulkan headers predate Vulkan 1.4 (libplacebo needs them)"
vkver=$(awk '/define VK_HEADER_VERSION / {print $3}' "$vkh/include/vulkan/vulkan_core.h")
grep -rq SpvFPEncoding "$spirv_src/include/spirv/unified1/spirv.h" ||
    die "$spirv_src: no SpvFPEncoding in its spirv.h (FFmpeg 9's swscale needs it)"
rm -rf "$deps/include/vulkan" "$deps/include/vk_video" "$deps/include/spirv" "$deps/share/vulkan"
mkdir -p "$deps/share/vulkan"
cp -pR "$vkh/include/vulkan" "$vkh/include/vk_video" "$spirv_src/include/spirv" "$deps/include/"
cp -pR "$vkh/registry" "$deps/share/vulkan/"
cat >"$deps/lib/pkgconfig/vulkan.pc" <<EOF
prefix=$deps
includedir=\${prefix}/include

Name: Vulkan-Loader
Description: Vulkan headers 1.4.$vkver (Debian's vulkan-loader source) and the system's loader
Version: 1.4.$vkver
Libs: -lvulkan
Cflags: -I\${includedir}
EOF
# libplacebo 7.360 names VK_KHR_swapchain_maintenance1 (Vulkan 1.4.312 headers); older
# headers have the EXT twin, same values and layouts (presentation only: unused here)
compat=$deps/include/vk_khr_compat.h
cat >"$compat" <<'EOF'
/* Generated by tools/dovi-vs-libplacebo.sh: the KHR names of swapchain/surface_maintenance1
 * for Vulkan headers that only have the EXT ones (same values and layouts) */
#ifndef VK_ENABLE_BETA_EXTENSIONS
#define VK_ENABLE_BETA_EXTENSIONS /* as libplacebo's src/vulkan/common.h does */
#endif
#include <vulkan/vulkan_core.h>
#ifndef VK_KHR_swapchain_maintenance1
#define VK_KHR_SWAPCHAIN_MAINTENANCE_1_EXTENSION_NAME "VK_KHR_swapchain_maintenance1"
#define VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SWAPCHAIN_MAINTENANCE_1_FEATURES_KHR VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SWAPCHAIN_MAINTENANCE_1_FEATURES_EXT
#define VK_STRUCTURE_TYPE_SWAPCHAIN_PRESENT_FENCE_INFO_KHR VK_STRUCTURE_TYPE_SWAPCHAIN_PRESENT_FENCE_INFO_EXT
#define VK_STRUCTURE_TYPE_SWAPCHAIN_PRESENT_MODES_CREATE_INFO_KHR VK_STRUCTURE_TYPE_SWAPCHAIN_PRESENT_MODES_CREATE_INFO_EXT
#define VK_SWAPCHAIN_CREATE_DEFERRED_MEMORY_ALLOCATION_BIT_KHR VK_SWAPCHAIN_CREATE_DEFERRED_MEMORY_ALLOCATION_BIT_EXT
typedef VkPhysicalDeviceSwapchainMaintenance1FeaturesEXT VkPhysicalDeviceSwapchainMaintenance1FeaturesKHR;
typedef VkSwapchainPresentFenceInfoEXT VkSwapchainPresentFenceInfoKHR;
typedef VkSwapchainPresentModesCreateInfoEXT VkSwapchainPresentModesCreateInfoKHR;
#endif
#ifndef VK_KHR_surface_maintenance1
#define VK_KHR_SURFACE_MAINTENANCE_1_EXTENSION_NAME "VK_KHR_surface_maintenance1"
#endif
EOF

export PKG_CONFIG_PATH=$deps/lib/pkgconfig
unset MAKEFLAGS MFLAGS MAKELEVEL

# --- libplacebo ------------------------------------------------------------------------------
pver=${placebo_src##*/libplacebo-}
pobj=$out/libplacebo-obj
mflags=(--prefix="$deps" --libdir=lib --buildtype=release -Ddefault_library=shared
        -Dvulkan=enabled -Dvulkan-registry="$deps/share/vulkan/registry/vk.xml"
        -Dc_args="-include $compat" -Dopengl=disabled -Dd3d11=disabled -Dglslang=enabled
        -Dshaderc=disabled -Dlcms=enabled -Dlibdovi=disabled -Ddemos=false -Dtests=false
        -Dunwind=disabled)
want=$(printf '%s\n' "$placebo_src" "$vkver" "${mflags[@]}")
if [ "$(cat "$deps/.libplacebo-stamp" 2>/dev/null)" != "$want" ] ||
   ! pkg-config --exists "libplacebo = $pver"; then
    say "building libplacebo $pver (log: $out/libplacebo.log)"
    t0=$SECONDS
    rm -rf "$pobj"
    { meson setup "$pobj" "$placebo_src" "${mflags[@]}" &&
      ninja -C "$pobj" -j"$jobs" && ninja -C "$pobj" install; } >"$out/libplacebo.log" 2>&1 ||
        { tail -n 30 "$out/libplacebo.log" >&2; die "libplacebo build failed (log: $out/libplacebo.log)"; }
    echo "$want" >"$deps/.libplacebo-stamp"
    say "  done in $((SECONDS - t0)) s"
fi

# --- FFmpeg (incremental: tools/build-ffmpeg.sh re-runs configure only on a change) ----------
say "FFmpeg $src -> $out/prefix (logs: $out/obj/*.log)"
FFMPEG_CONFIGURE_FLAGS="--extra-cflags='-I$deps/include' --extra-ldflags='-Wl,-rpath,$deps/lib' ${FFMPEG_CONFIGURE_FLAGS:-}" \
    FFMPEG_JOBS=$jobs "$here/build-ffmpeg.sh" placebo "$src" "$out/obj" "$out/prefix"
ff=$out/prefix/bin/ffmpeg
cc -O2 -Wall -o "$out/dovi_compare" "$here/dovi_compare.c" -lm
cmpx=$out/dovi_compare

# --- the renders -------------------------------------------------------------------------------
# Mesa's lavapipe, unless the caller chose a Vulkan driver
if [ -z "${VK_ICD_FILENAMES:-}${VK_DRIVER_FILES:-}" ]; then
    icd=/usr/share/vulkan/icd.d/lvp_icd.$(uname -m).json
    [ -f "$icd" ] || die "no lavapipe ICD ($icd): apt-get install mesa-vulkan-drivers"
    export VK_ICD_FILENAMES=$icd VK_DRIVER_FILES=$icd
fi
c=$out/cmp
rm -f "$c"/*.gbrp16le
w=640 h=360
run() { # run NAME FILTERS: one frame of the clip through FILTERS into cmp/NAME.gbrp16le
    local name=$1 vf=$2
    if ! $ff -nostdin -hide_banner -v error -y -init_hw_device vulkan=vk:0 -filter_hw_device vk \
            -c:v libdav1d -i "$clip" -frames:v 1 -vf "$vf" -f rawvideo "$c/$name.gbrp16le" \
            2>"$c/$name.log"; then
        cat "$c/$name.log" >&2
        die "render $name failed: $ff ... -vf '$vf'"
    fi
}
cs="cspfix=space=gbr:range=pc:format=gbrp16le"
pl="hwupload,libplacebo=format=gbrp16le:colorspace=gbr:range=pc:dithering=none"
dl="hwdownload,format=gbrp16le"
pqo="color_primaries=bt2020:color_trc=smpte2084:tonemapping=clip:gamut_mode=clip:peak_detect=0:contrast_recovery=0"
sdo="color_primaries=bt709:color_trc=bt709"
say "rendering (Vulkan: ${VK_ICD_FILENAMES:-$VK_DRIVER_FILES})"
t0=$SECONDS
run cs-pq       "$cs:primaries=bt2020:trc=smpte2084"
run pl-pq       "$pl:$pqo,$dl"
run pl-pq-bil   "$pl:$pqo:extra_opts='plane_upscaler=bilinear',$dl"
run cs-sdr      "$cs:all=bt709"
run pl-sdr      "$pl:$sdo,$dl"
run cs-sdr-clip "$cs:all=bt709:tonemap=clip:gamut=clip"
run pl-sdr-clip "$pl:$sdo:tonemapping=clip:gamut_mode=clip:peak_detect=0:contrast_recovery=0,$dl"
run cs-sdr-2390 "$cs:all=bt709:tonemap=bt2390:gamut=clip"
run pl-sdr-2390 "$pl:$sdo:tonemapping=bt.2390:gamut_mode=clip:peak_detect=0:contrast_recovery=0,$dl"
# the closest pair: libplacebo's BT.2390 with the Recommendation's knee (KS = 1.5 maxLum -
# 0.5; its default offset is 1.0) and its black (BT.2390 step 4 lifts to the target's 0.203
# cd/m2), cspfix's on the intensity of IPT (libplacebo tone maps IPT's I) with that black lift,
# where this cspfix has those options
csm="$cs:all=bt709:tonemap=bt2390:gamut=clip"
opts=$("$ff" -hide_banner -h filter=cspfix 2>/dev/null || true)
grep -q '^ *tmmode ' <<<"$opts" && csm+=":tmmode=ipt"
grep -q '^ *target_black ' <<<"$opts" && csm+=":target_black=0.203"
run cs-sdr-match "$csm"
run pl-sdr-match "$pl:$sdo:tonemapping=bt.2390:tonemapping_param=0.5:gamut_mode=clip:peak_detect=0:contrast_recovery=0,$dl"
"$cmpx" pattern "$c/pattern.gbrp16le"
render_s=$((SECONDS - t0))

# --- the report --------------------------------------------------------------------------------
m=(-m "$c/cs-pq.gbrp16le")   # flat/edge from cspfix's reshaped PQ, in every comparison
{
    echo "cspfix against libplacebo $pver (FFmpeg's libplacebo filter, $("$ff" -hide_banner -version | head -n 1 | cut -d' ' -f1-3))"
    echo "clip: $clip (Dolby Vision profile 5, ${w}x$h, one frame)"
    echo "Vulkan: $(grep -o '"library_path": *"[^"]*"' "${VK_ICD_FILENAMES:-$VK_DRIVER_FILES}" | cut -d'"' -f4)"
    echo "cspfix:     $cs:..."
    echo "libplacebo: $pl:...,$dl (apply_dolbyvision=1 by default)"
    echo
    echo "== 1. reshaped, BT.2020 PQ (libplacebo: $pqo)"
    echo "-- cspfix against libplacebo (its default chroma upscaler, spline36)"
    "$cmpx" "${m[@]}" pq $w $h "$c/cs-pq.gbrp16le" "$c/pl-pq.gbrp16le"
    echo "-- cspfix against libplacebo with plane_upscaler=bilinear"
    "$cmpx" "${m[@]}" pq $w $h "$c/cs-pq.gbrp16le" "$c/pl-pq-bil.gbrp16le"
    echo "-- cspfix against the exact pattern (hdr_pattern.h; the clip is AV1 at CRF 1 in IPT 4:2:0)"
    "$cmpx" "${m[@]}" pq $w $h "$c/cs-pq.gbrp16le" "$c/pattern.gbrp16le"
    echo "-- libplacebo against the exact pattern"
    "$cmpx" "${m[@]}" pq $w $h "$c/pl-pq.gbrp16le" "$c/pattern.gbrp16le"
    echo "-- libplacebo (bilinear chroma) against the exact pattern"
    "$cmpx" "${m[@]}" pq $w $h "$c/pl-pq-bil.gbrp16le" "$c/pattern.gbrp16le"
    echo
    echo "== 2. tone mapped to SDR BT.709 (target 203 cd/m2 = SDR white in both), dE_ITP"
    echo "   A = cspfix, B = libplacebo; both on one BT.1886 display, white 203 cd/m2, black 0"
    echo "   (a pure 2.4 power, cspfix's display); 'own displays': B on libplacebo's, black"
    echo "   203/1000 cd/m2 (it encodes SDR for a 1000:1 BT.1886 display: its black is code 0)"
    for k in "sdr|defaults (cspfix: bt2390 on max-RGB, gamut none; libplacebo: auto curve, peak detection, perceptual gamut mapping, contrast recovery 0.3)" \
             "sdr-clip|cspfix tonemap=clip:gamut=clip; libplacebo tonemapping=clip:gamut_mode=clip:peak_detect=0:contrast_recovery=0" \
             "sdr-2390|cspfix tonemap=bt2390:gamut=clip; libplacebo tonemapping=bt.2390:gamut_mode=clip:peak_detect=0:contrast_recovery=0"; do
        echo "-- ${k#*|}"
        "$cmpx" "${m[@]}" sdr $w $h "$c/cs-${k%%|*}.gbrp16le" "$c/pl-${k%%|*}.gbrp16le" | sed -n '/dE_ITP/,$p'
        echo "   own displays:"
        "$cmpx" "${m[@]}" -K 0.203 sdr $w $h "$c/cs-${k%%|*}.gbrp16le" "$c/pl-${k%%|*}.gbrp16le" |
            sed -n '/dE_ITP/,$p' | tail -n +2
    done
    echo "-- the closest pair, own displays: cspfix ${csm#"$cs:"};"
    echo "   libplacebo tonemapping=bt.2390:tonemapping_param=0.5 (the Recommendation's knee):"
    echo "   gamut_mode=clip:peak_detect=0:contrast_recovery=0"
    "$cmpx" "${m[@]}" -K 0.203 sdr $w $h "$c/cs-sdr-match.gbrp16le" "$c/pl-sdr-match.gbrp16le" |
        sed -n '/dE_ITP/,$p' | tail -n +2
    echo
    echo "renders: ${render_s} s; the whole run: $((SECONDS - start)) s"
} | tee "$c/report.txt"
say "report: $c/report.txt (renders: $c/*.gbrp16le, ${w}x$h gbrp16le)"
