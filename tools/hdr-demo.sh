#!/usr/bin/env bash
# cspfix HDR demo: tone maps an HDR10 (PQ, BT.2020) test pattern to SDR BT.709 with every
# tonemap= mode and draws a contact sheet (build/hdr-demo/hdr-tonemap.png); with SVT-AV1 and
# dav1d also the lying-metadata picture (hdr-lying-metadata.png) and Dolby Vision profile 5
# without and with its reshaping (dovi-profile5.png, the generator built against the prefix).
# Usage: tools/hdr-demo.sh FFMPEG_PREFIX OUTDIR
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

cc -O2 -o "$out/hdr_pattern" "$here/hdr_pattern.c" -lm
"$out/hdr_pattern" 1 > "$out/source.yuv"
src="-f rawvideo -pixel_format yuv420p10le -video_size 640x360 -framerate 25
     -color_primaries bt2020 -color_trc smpte2084 -colorspace bt2020nc -color_range tv
     -i $out/source.yuv"
$ff $src -c:v ffv1 "$out/source-pq.mkv"

# Each panel: the PQ pattern (4000 cd/m2 master, no metadata: peak=4000) converted in one
# cspfix pass to SDR BT.709 (100 cd/m2 white) RGB, as an SDR display shows it.
label() { echo "drawtext=fontfile=$font:text='$1':x=6:y=h-22:fontsize=14:fontcolor=white:box=1:boxcolor=black@0.7"; }
tm="cspfix=all=bt709:format=gbrp:peak=4000"
panels=(
    "$tm:tonemap=bt2390,$(label 'tonemap=bt2390 (default)')"
    "$tm:tonemap=bt2390:gamut=compress,$(label 'tonemap=bt2390 gamut=compress')"
    "$tm:tonemap=clip,$(label 'tonemap=clip')"
    "$tm:tonemap=reinhard,$(label 'tonemap=reinhard')"
    "$tm:tonemap=hable,$(label 'tonemap=hable')"
    "$tm:tonemap=mobius,$(label 'tonemap=mobius')"
    "$tm:tonemap=bt2390:desat=0.7,$(label 'tonemap=bt2390 desat=0.7')"
    "$tm:tonemap=none,$(label 'tonemap=none (highlights clip per channel)')"
)
graph="[0:v]split=${#panels[@]}"
for i in "${!panels[@]}"; do graph+="[s$i]"; done
graph+=";"
for i in "${!panels[@]}"; do graph+="[s$i]${panels[$i]},scale=480:270:flags=area[p$i];"; done
graph+="[p0][p1][p2][p3][p4][p5][p6][p7]xstack=inputs=8:layout=0_0|w0_0|0_h0|w0_h0|0_h0+h0|w0_h0+h0|0_h0+h0+h0|w0_h0+h0+h0,format=rgb24"
$ff $src -frames:v 1 -filter_complex "$graph" -update 1 "$out/hdr-tonemap.png"
for t in bt2390 clip reinhard hable mobius none; do
    $ff $src -frames:v 1 -vf "$tm:tonemap=$t,format=rgb24" -update 1 "$out/tonemap-$t.png"
done
# Metadata that lies (issue 30): the pattern mastered to 1000 cd/m2 (cspfix HDR -> HDR), then
# encoded with SVT-AV1 claiming a 10000 cd/m2 mastering display and MaxCLL 10000 (what some
# files say), decoded by libdav1d with that side data: tone mapped from the metadata (too
# dark), with peak=auto (measured), and with the true peak.
lying=
if $ff -hide_banner -encoders 2>/dev/null | grep -q libsvtav1 &&
   $ff -hide_banner -decoders 2>/dev/null | grep -q libdav1d; then
    $ff $src -frames:v 1 -vf "cspfix=all=bt2020:trc=smpte2084:format=yuv420p10le:peak=4000:target_peak=1000" \
        -c:v libsvtav1 -preset 12 -crf 10 -svtav1-params \
        'mastering-display=G(0.265,0.690)B(0.150,0.060)R(0.680,0.320)WP(0.3127,0.3290)L(10000,0.005):content-light=10000,400' \
        "$out/lying-10000.ivf"
    sdr="cspfix=all=bt709:format=gbrp"
    graph="[0:v]split=3[a][b][c];"
    graph+="[a]$sdr,$(label 'metadata says 10000 cd/m2 (a lie)'),scale=480:270:flags=area[p0];"
    graph+="[b]$sdr:peak=auto,$(label 'peak=auto (measured)'),scale=480:270:flags=area[p1];"
    graph+="[c]$sdr:peak=1000,$(label 'the true peak (peak=1000)'),scale=480:270:flags=area[p2];"
    graph+="[p0][p1][p2]hstack=inputs=3,format=rgb24"
    $ff -c:v libdav1d -i "$out/lying-10000.ivf" -frames:v 1 -filter_complex "$graph" -update 1 \
        "$out/hdr-lying-metadata.png"
    lying=", $out/hdr-lying-metadata.png"

    # Dolby Vision profile 5 (in AV1: 10.0): the pattern as a reshaped IPT-PQ-c2 base layer
    # (tools/hdr_clip.c dovi), its RPU written by FFmpeg's libsvtav1 wrapper (dolbyvision=1)
    # and parsed back by libdav1d's. Panels: the base layer read as HDR10 (a player without
    # Dolby Vision), cspfix applying the RPU (dovi=auto), the pattern converted directly.
    pc="env PKG_CONFIG_PATH=$prefix/lib/pkgconfig pkg-config"
    libs="libavformat libavcodec libavutil"
    cc -O2 $($pc --cflags $libs) -o "$out/hdr_clip" "$here/hdr_clip.c" \
        $($pc --static --libs $libs) -lm
    "$out/hdr_clip" dovi "$out/dovi-profile5.mkv"
    graph="[0:v]split=3[a][b][rb];[1:v]split[c][rc];"
    graph+="[a]$tm:dovi=ignore:ispace=bt2020nc:irange=pc,$(label 'base layer read as HDR10 (no Dolby Vision)'),scale=480:270:flags=area[p0];"
    graph+="[b]$tm,$(label 'cspfix with the RPU (dovi=auto)'),scale=480:270:flags=area[p1];"
    graph+="[c]$tm,$(label 'the pattern converted directly'),scale=480:270:flags=area[p2];"
    graph+="[p0][p1][p2]hstack=inputs=3,format=rgb24[out];"
    graph+="[rb]$tm,format=rgb24[outb];[rc]$tm,format=rgb24[outc]"
    $ff -c:v libdav1d -i "$out/dovi-profile5.mkv" $src -filter_complex "$graph" \
        -map '[out]' -frames:v 1 -update 1 "$out/dovi-profile5.png" \
        -map '[outb]' -frames:v 1 -f rawvideo "$out/dovi-rpu.rgb" \
        -map '[outc]' -frames:v 1 -f rawvideo "$out/dovi-truth.rgb"
    if command -v python3 > /dev/null; then
        python3 - "$out/dovi-rpu.rgb" "$out/dovi-truth.rgb" <<'EOF'
import sys
b, c = (open(f, 'rb').read() for f in sys.argv[1:3])
d = sorted(abs(x - y) for x, y in zip(b, c))
print('hdr-demo: Dolby Vision with the RPU against the pattern converted directly, 8-bit '
      'codes: mean %.2f, median %d, 99th percentile %d, max %d'
      % (sum(d) / len(d), d[len(d) // 2], d[len(d) * 99 // 100], d[-1]))
EOF
    fi
    lying+=" and $out/dovi-profile5.png"
else
    echo "hdr-demo: no libsvtav1 encoder or libdav1d decoder: the lying-metadata and Dolby Vision pictures are skipped"
fi
echo "hdr-demo: wrote $out/hdr-tonemap.png, $out/tonemap-*.png$lying"
