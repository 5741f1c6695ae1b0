#!/usr/bin/env bash
# cspfix demo: converts the built-in SMPTE 170M clip to BT.709 and draws a contact sheet of
# the correct conversion beside the four classic mistakes.
# Usage: tools/demo.sh FFMPEG_PREFIX OUTDIR
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
prefix=$1
out=$2
here=$(cd "$(dirname "$0")" && pwd)
ff="$prefix/bin/ffmpeg -nostdin -hide_banner -v error -y"
font=/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf
mkdir -p "$out"

cc -O2 -o "$out/demo_pattern" "$here/demo_pattern.c" -lm
"$out/demo_pattern" 25 > "$out/source.yuv"
src="-f rawvideo -pixel_format yuv420p -video_size 640x360 -framerate 25
     -color_primaries smpte170m -color_trc smpte170m -colorspace smpte170m -color_range tv
     -i $out/source.yuv"

# The main job: the tagged BT.709 clip.
$ff $src -vf cspfix=all=bt709 -c:v ffv1 "$out/bt709.mkv"
$ff $src -c:v ffv1 "$out/source-smpte170m.mkv"

# Each panel is what a BT.709 player shows: BT.709 Y'CbCr decoded with the BT.709 matrix,
# no further colour management (cspfix=format=gbrp keeps primaries and transfer).
show="cspfix=iall=bt709:irange=tv:format=gbrp"
label() { echo "drawtext=fontfile=$font:text='$1':x=8:y=h-28:fontsize=18:fontcolor=white:box=1:boxcolor=black@0.7"; }
panels=(
    "cspfix=all=bt709,$show,$(label 'correct\: cspfix all=bt709')"
    "cspfix=all=bt709:iprimaries=bt709,$show,$(label 'mistake\: 170M primaries read as 709')"
    "cspfix=all=bt709:itrc=iec61966-2-1,$show,$(label 'mistake\: BT.709 transfer read as sRGB')"
    "cspfix=all=bt709:ispace=bt709,$show,$(label 'mistake\: BT.601 matrix read as BT.709')"
    "cspfix=range=pc,cspfix=all=bt709:irange=tv,$show,$(label 'mistake\: full range read as limited')"
    "cspfix=format=gbrp,$(label 'source codes shown unconverted (as 709)')"
)
graph="[0:v]split=${#panels[@]}"
for i in "${!panels[@]}"; do graph+="[s$i]"; done
graph+=";"
for i in "${!panels[@]}"; do graph+="[s$i]${panels[$i]}[p$i];"; done
graph+="[p0][p1][p2][p3][p4][p5]xstack=inputs=6:layout=0_0|w0_0|0_h0|w0_h0|0_h0+h0|w0_h0+h0,format=rgb24"
$ff $src -frames:v 1 -filter_complex "$graph" -update 1 "$out/contact-sheet.png"

# ICC: the pattern as a Display P3 PNG with its profile (icc_out writes it, the PNG
# encoder puts it in iCCP), shown without colour management, through cspfix (icc=auto)
# to sRGB, and the pattern converted to sRGB directly
$ff $src -frames:v 1 -vf "cspfix=primaries=display-p3:trc=iec61966-2-1:space=rgb:format=rgb24" \
    -update 1 "$out/display-p3.png"
srgb="cspfix=primaries=bt709:trc=iec61966-2-1:space=rgb:format=rgb24"
$ff -i "$out/display-p3.png" $src -frames:v 1 -filter_complex "
    [0:v]split[a][b];
    [a]cspfix=icc=ignore:format=rgb24,$(label 'Display P3 PNG, its profile ignored')[p0];
    [b]$srgb,$(label 'the same PNG through cspfix (icc=auto)')[p1];
    [1:v]$srgb,$(label 'the pattern converted to sRGB directly')[p2];
    [p0][p1][p2]hstack=inputs=3,format=rgb24" -update 1 "$out/icc-display-p3.png"

# the detector: the pattern in full range, tagged limited range
$ff $src -frames:v 12 -vf "cspfix=range=pc,setparams=range=tv" -c:v ffv1 "$out/full-tagged-tv.mkv"
"$prefix/bin/ffmpeg" -nostdin -hide_banner -i "$out/full-tagged-tv.mkv" \
    -vf cspfix=all=bt709 -f null - 2>&1 | grep -i 'cspfix' >"$out/detector.log" || true

"$prefix/bin/ffprobe" -v error -select_streams v:0 -show_entries \
    stream=color_range,color_space,color_transfer,color_primaries -of default=nw=1 "$out/bt709.mkv"
echo "demo: wrote $out/bt709.mkv, $out/contact-sheet.png, $out/icc-display-p3.png and $out/detector.log"
