#!/usr/bin/env bash
# cspfix encoder tests: cspfix in the graph in front of the encoders the build has
# (SVT-AV1 in the test build; x265 and x264 too in a full build with FFMPEG_GPL=1),
# a Dolby Vision profile 5 clip through SVT-AV1 and dav1d with its RPU applied, an HDR10+
# clip through libaom and dav1d with its tone curve run,
# the output decoded back (dav1d, FFmpeg's HEVC/H.264 decoders) and read with ffprobe:
# the colour tags from the bitstream (raw .ivf/.hevc/.h264 files: no container to
# carry them) and the HDR10 side data (mastering display, content light level) the
# decoder exports from the bitstream, against the values that went in.
# Usage: tests/encode_test.sh BINDIR
# ENCODE_TEST_REQUIRE="libsvtav1 libdav1d": fail (instead of skipping) without these.
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
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0 skipped=0
ok()   { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); echo "FAIL: $*"; }
skip() { skipped=$((skipped + 1)); echo "SKIP: $*"; }
start=$SECONDS

run() { "$bin/ffmpeg" -nostdin -hide_banner -v error -y "$@"; }
export SVT_LOG=1   # SVT-AV1: errors only

"$bin/ffmpeg" -hide_banner -encoders >"$tmp/encoders" 2>/dev/null
"$bin/ffmpeg" -hide_banner -decoders >"$tmp/decoders" 2>/dev/null
"$bin/ffmpeg" -hide_banner -muxers   >"$tmp/muxers" 2>/dev/null
"$bin/ffmpeg" -hide_banner -filters  >"$tmp/filters" 2>/dev/null
"$bin/ffmpeg" -hide_banner -bsfs     >"$tmp/bsfs" 2>/dev/null
has_bsf() { grep -qx "$1" "$tmp/bsfs"; }
has() { grep -qE "^ [A-Z.]{6} $2 " "$tmp/$1"; }   # has encoders|decoders NAME
has_mux() { grep -qE "^ [ DE]+ $1 " "$tmp/muxers"; }
for r in ${ENCODE_TEST_REQUIRE:-}; do
    has encoders "$r" || has decoders "$r" || fail "the build lacks $r (ENCODE_TEST_REQUIRE)"
done

# 64x64 (SVT-AV1 before 3.0 takes nothing smaller), 3 frames
sdr="testsrc2=s=64x64:r=10:d=0.3,format=yuv420p,setparams=color_primaries=bt709:color_trc=bt709:colorspace=bt709:range=tv"
pq="testsrc2=s=64x64:r=10:d=0.3,format=yuv420p10,setparams=color_primaries=bt2020:color_trc=smpte2084:colorspace=bt2020nc:range=tv"

# probe FILE DECODER: the first frame, decoded with DECODER, and the stream, as flat
# key=value lines (side data values are rationals such as 46399/65536)
probe() {
    "$bin/ffprobe" -v error -codec:v "$2" -read_intervals '%+#1' -show_frames -show_streams \
        -select_streams v:0 -of flat "$1" 2>&1
}

# tags of the stream (from the bitstream: raw files carry no container tags)
expect_tags() { # probe-output expected what
    local got
    got=$(awk -F= '/^streams\.stream\.0\.color_(range|space|transfer|primaries)=/ {
                  gsub(/"/, "", $2); v[$1] = $2 }
              END { print v["streams.stream.0.color_range"] "," v["streams.stream.0.color_space"] "," \
                          v["streams.stream.0.color_transfer"] "," v["streams.stream.0.color_primaries"] }' "$1")
    if [ "$got" = "$2" ]; then ok; else fail "$3: stream tags '$got', expected '$2'"; fi
}

# hdr10 PROBE-OUTPUT: the first frame's mastering display and content light level as
# "rx ry gx gy bx by wx wy maxlum minlum maxcll maxfall" in decimals ("-" for an absent
# part: "- ... -" without a mastering display, "... - -" without a content light level)
hdr10() {
    awk -F= '
        function val(s,   p) { gsub(/"/, "", s); split(s, p, "/"); return p[2] ? p[1] / p[2] : p[1] }
        /^frames\.frame\.0\.side_data_list\.side_data\.[0-9]+\.side_data_type=/ {
            n = $1; sub(/\.side_data_type$/, "", n); type[n] = $2 }
        /^frames\.frame\.0\.side_data_list\.side_data\.[0-9]+\./ {
            k = $1; n = k; sub(/\.[a-z_]+$/, "", n); sub(/.*\./, "", k); kv[n, k] = $2 }
        END {
            split("red_x red_y green_x green_y blue_x blue_y white_point_x white_point_y max_luminance min_luminance", mk, " ")
            md = cl = ""
            for (n in type) {
                if (type[n] ~ /Mastering display metadata/)
                    for (i = 1; i <= 10; i++) md = md sprintf("%.4f ", val(kv[n, mk[i]]))
                if (type[n] ~ /Content light level metadata/)
                    cl = sprintf("%d %d", val(kv[n, "max_content"]), val(kv[n, "max_average"]))
            }
            if (md == "") md = "- - - - - - - - - - "
            if (cl == "") cl = "- -"
            print md cl
        }' "$1"
}

# expect_hdr10 PROBE-OUTPUT "EXPECTED" WHAT: each number within 0.0002 (the bitstreams
# store chromaticities in 16-bit fractions, luminances in 1/256 and 1/16384 cd/m2)
hdr10_matches() {
    awk -v a="$1" -v b="$2" 'BEGIN {
        n = split(a, x, " "); m = split(b, y, " "); if (n != m) exit 1
        for (i = 1; i <= n; i++) {
            if ((x[i] == "-") != (y[i] == "-")) exit 1
            if (x[i] != "-" && (x[i] - y[i] > 0.0002 || y[i] - x[i] > 0.0002)) exit 1
        }
    }'
}
expect_hdr10() {
    local got; got=$(hdr10 "$1")
    if hdr10_matches "$got" "$2"; then ok; else
        fail "$3: HDR10 side data '$got', expected '$2'"; fi
}

# av1_headers FILE: from the AV1 bitstream itself (trace_headers): the sequence header's
# color_config (primaries, transfer, matrix, full range) and the metadata OBUs' max_cll,
# max_fall and luminance_max (1/256 cd/m2), "-" where absent
av1_headers() {
    "$bin/ffmpeg" -nostdin -hide_banner -i "$1" -c copy -bsf:v trace_headers -f null - 2>&1 |
        awk '{ k = $5; v = $NF }
             k ~ /^(color_primaries|transfer_characteristics|matrix_coefficients|color_range|max_cll|max_fall|luminance_max)$/ &&
             !(k in f) { f[k] = v }
             END { n = split("color_primaries transfer_characteristics matrix_coefficients color_range max_cll max_fall luminance_max", o, " ")
                   for (i = 1; i <= n; i++) printf "%s%s", (k = o[i]) in f ? f[k] : "-", i < n ? " " : "\n" }'
}
expect_av1_headers() { # file expected what
    local got
    has_bsf trace_headers || return 0
    got=$(av1_headers "$1")
    if [ "$got" = "$2" ]; then ok; else fail "$3: AV1 headers '$got', expected '$2'"; fi
}

# mastering displays: BT.2020 (what cspfix writes for SDR made HDR), DCI-P3 D65
mdcv2020="0.7080 0.2920 0.1700 0.7970 0.1310 0.0460 0.3127 0.3290"
mdcvp3="0.6800 0.3200 0.2650 0.6900 0.1500 0.0600 0.3127 0.3290"
none="- - - - - - - - - - - -"

# enc_tests NAME ENCODER DECODER EXT ENCODER-OPTS...: cspfix in front of ENCODER
enc_tests() {
    local name=$1 enc=$2 dec=$3 ext=$4 t
    shift 4
    if ! has encoders "$enc" || ! has decoders "$dec" || ! has_mux "$ext"; then
        skip "$name: the build has no $enc encoder, $dec decoder or $ext muxer"
        return
    fi
    t=$SECONDS

    # SDR made HDR10: cspfix creates the mastering display (the output primaries,
    # target_peak) and content light level; the encoder gets them before the first
    # frame from the output link
    if run -f lavfi -i "$sdr" -vf cspfix=primaries=bt2020:trc=smpte2084:space=bt2020nc:format=yuv420p10:target_peak=600 \
           -c:v "$enc" "$@" "$tmp/$name-a.$ext"; then ok; else fail "$name: SDR to PQ encode"; fi
    probe "$tmp/$name-a.$ext" "$dec" >"$tmp/$name-a.txt"
    expect_tags "$tmp/$name-a.txt" "tv,bt2020nc,smpte2084,bt2020" "$name: SDR to PQ"
    expect_hdr10 "$tmp/$name-a.txt" "$mdcv2020 600 0 600 600" "$name: SDR to PQ, target_peak=600 (MaxFALL: MaxCLL, its bound)"
    [ "$ext" != ivf ] || expect_av1_headers "$tmp/$name-a.$ext" "9 16 9 0 600 600 153600" "$name: SDR to PQ"

    # an HDR10 input (the P3 mastering display, 1000/0.005 cd/m2, MaxCLL 1000, MaxFALL
    # 400, from the bitstream of $hdrin) converted PQ -> PQ (full range): kept as it was
    if run -i "$hdrin" -vf cspfix=range=pc -c:v "$enc" "$@" "$tmp/$name-b.$ext"; then ok; else
        fail "$name: PQ to PQ encode"; fi
    probe "$tmp/$name-b.$ext" "$dec" >"$tmp/$name-b.txt"
    expect_tags "$tmp/$name-b.txt" "pc,bt2020nc,smpte2084,bt2020" "$name: PQ to PQ full range"
    expect_hdr10 "$tmp/$name-b.txt" "$mdcvp3 1000 0.005 1000 400" "$name: PQ to PQ"

    # tone mapped to a 400 cd/m2 peak: the luminances the encoder writes are lowered
    if run -i "$hdrin" -vf cspfix=tonemap=bt2390:target_peak=400 -c:v "$enc" "$@" "$tmp/$name-c.$ext"; then ok; else
        fail "$name: PQ tone-mapped encode"; fi
    probe "$tmp/$name-c.$ext" "$dec" >"$tmp/$name-c.txt"
    expect_hdr10 "$tmp/$name-c.txt" "$mdcvp3 400 0.005 400 400" "$name: PQ tonemap=bt2390:target_peak=400"

    # a 4000 cd/m2 HDR10 input into HLG (1000 cd/m2): tone mapped, and the metadata the
    # encoder writes says 1000
    if run -i "$hdrin4k" -vf cspfix=trc=hlg -c:v "$enc" "$@" "$tmp/$name-g.$ext"; then ok; else
        fail "$name: PQ 4000 to HLG encode"; fi
    probe "$tmp/$name-g.$ext" "$dec" >"$tmp/$name-g.txt"
    expect_hdr10 "$tmp/$name-g.txt" "$mdcvp3 1000 0.005 1000 1000" "$name: PQ 4000 cd/m2 to HLG"

    # HDR10 made SDR: no HDR metadata in the SDR bitstream
    if run -i "$hdrin" -vf cspfix=all=bt709:format=yuv420p -c:v "$enc" "$@" "$tmp/$name-d.$ext"; then ok; else
        fail "$name: PQ to SDR encode"; fi
    probe "$tmp/$name-d.$ext" "$dec" >"$tmp/$name-d.txt"
    expect_tags "$tmp/$name-d.txt" "tv,bt709,bt709,bt709" "$name: PQ to SDR"
    expect_hdr10 "$tmp/$name-d.txt" "$none" "$name: PQ to SDR"
    [ "$ext" != ivf ] || expect_av1_headers "$tmp/$name-d.$ext" "1 1 1 0 - - -" "$name: PQ to SDR"

    # the check fails when the side data does not reach the encoder: a PQ input
    # without HDR10 side data, and (with the sidedata filter) the mastering display
    # deleted behind cspfix, from the link and the frames
    if run -f lavfi -i "$pq" -vf cspfix=range=pc -c:v "$enc" "$@" "$tmp/$name-e.$ext"; then ok; else
        fail "$name: PQ without side data encode"; fi
    probe "$tmp/$name-e.$ext" "$dec" >"$tmp/$name-e.txt"
    if hdr10_matches "$(hdr10 "$tmp/$name-e.txt")" "$mdcvp3 1000 0.005 1000 400"; then
        fail "$name: the HDR10 check passed on a file made without HDR10 side data"
    else ok; fi
    expect_hdr10 "$tmp/$name-e.txt" "$none" "$name: PQ input without side data"
    if grep -qE '^ [A-Z.]+ sidedata ' "$tmp/filters"; then
        if run -i "$hdrin" -vf cspfix=range=pc,sidedata=mode=delete:type=MASTERING_DISPLAY_METADATA \
               -c:v "$enc" "$@" "$tmp/$name-f.$ext"; then ok; else fail "$name: sidedata=delete encode"; fi
        probe "$tmp/$name-f.$ext" "$dec" >"$tmp/$name-f.txt"
        if hdr10_matches "$(hdr10 "$tmp/$name-f.txt")" "$mdcvp3 1000 0.005 1000 400"; then
            fail "$name: the HDR10 check passed on a file without a mastering display"
        else ok; fi
        expect_hdr10 "$tmp/$name-f.txt" "- - - - - - - - - - 1000 400" "$name: mastering display deleted"
    fi
    echo "$name: $((SECONDS - t)) s"
}

# The HDR10 input: PQ frames with their mastering display and content light level in
# the AV1 bitstream (SVT-AV1's own parameters; no cspfix), decoded by dav1d in the tests
hdrin=$tmp/hdr10.ivf
if has encoders libsvtav1 && has decoders libdav1d; then
    if run -f lavfi -i "$pq" -c:v libsvtav1 -preset 12 -svtav1-params \
           'mastering-display=G(0.265,0.690)B(0.150,0.060)R(0.680,0.320)WP(0.3127,0.3290)L(1000,0.005):content-light=1000,400' \
           "$hdrin"; then ok; else fail "HDR10 input: SVT-AV1 encode"; fi
    probe "$hdrin" libdav1d >"$tmp/hdrin.txt"
    expect_tags "$tmp/hdrin.txt" "tv,bt2020nc,smpte2084,bt2020" "HDR10 input"
    expect_hdr10 "$tmp/hdrin.txt" "$mdcvp3 1000 0.005 1000 400" "HDR10 input"
    hdrin4k=$tmp/hdr10-4000.ivf
    run -f lavfi -i "$pq" -c:v libsvtav1 -preset 12 -svtav1-params \
        'mastering-display=G(0.265,0.690)B(0.150,0.060)R(0.680,0.320)WP(0.3127,0.3290)L(4000,0.005):content-light=4000,1000' \
        "$hdrin4k" && ok || fail "HDR10 4000 cd/m2 input: SVT-AV1 encode"
    # the test's own checks can fail: a frame without HDR10 side data does not match
    if hdr10_matches "$none" "$mdcvp3 1000 0.005 1000 400" ||
       hdr10_matches "$mdcvp3 1000 0.005 1000 399" "$mdcvp3 1000 0.005 1000 400"; then
        fail "hdr10_matches accepts what differs"; else ok; fi

    enc_tests svtav1 libsvtav1 libdav1d ivf -preset 12
    enc_tests x265 libx265 hevc hevc -preset ultrafast -x265-params log-level=error
    enc_tests x264 libx264 h264 h264 -preset ultrafast
else
    skip "the build has no libsvtav1 encoder and libdav1d decoder (the HDR10 input is made with them)"
fi

# Dolby Vision profile 5 (AV1 profile 10.0) through FFmpeg's own writer and parser:
# tools/hdr_clip.c dovi (HDR_CLIP, built against the build under test) encodes the HDR
# test pattern as a reshaped IPT-PQ-c2 base layer with its RPU (libsvtav1, dolbyvision=1);
# dav1d reads the RPU back; cspfix applies it (dovi=auto) and comes out as the pattern
# converted directly (tools/hdr_pattern.c, HDR_PATTERN), not as the base layer read as HDR10
if [ -n "${HDR_CLIP:-}" ] && [ -n "${HDR_PATTERN:-}" ] && command -v python3 >/dev/null &&
   has encoders libsvtav1 && has decoders libdav1d; then
    t=$SECONDS
    dv=$tmp/dovi-profile5.mkv
    if "$HDR_CLIP" dovi "$dv" 1 >/dev/null 2>&1; then ok; else fail "DV: hdr_clip encode"; fi
    probe "$dv" libdav1d >"$tmp/dv.txt"
    if grep -q 'side_data_type="Dolby Vision Metadata"' "$tmp/dv.txt"; then ok
    else fail "DV: dav1d exports no RPU (AV_FRAME_DATA_DOVI_METADATA) from the file"; fi
    expect_tags "$tmp/dv.txt" "pc,ipt-c2,smpte2084,bt2020" "DV base layer"
    "$HDR_PATTERN" 1 >"$tmp/pattern.yuv"
    tm="cspfix=all=bt709:format=gbrp:peak=4000"
    run -c:v libdav1d -i "$dv" -vf "$tm" -frames:v 1 -f rawvideo "$tmp/dv-rpu.rgb" &&
    run -c:v libdav1d -i "$dv" -vf "$tm:dovi=ignore:ispace=bt2020nc:irange=pc" -frames:v 1 \
        -f rawvideo "$tmp/dv-ignore.rgb" &&
    run -f rawvideo -pixel_format yuv420p10le -video_size 640x360 -color_primaries bt2020 \
        -color_trc smpte2084 -colorspace bt2020nc -color_range tv -i "$tmp/pattern.yuv" \
        -vf "$tm" -frames:v 1 -f rawvideo "$tmp/dv-truth.rgb" && ok || fail "DV: conversions"
    if python3 - "$tmp/dv-rpu.rgb" "$tmp/dv-ignore.rgb" "$tmp/dv-truth.rgb" <<'EOF'
import sys
rpu, ign, truth = (open(f, 'rb').read() for f in sys.argv[1:4])
mean = lambda a, b: sum(abs(x - y) for x, y in zip(a, b)) / max(len(a), 1)
m_rpu, m_ign = mean(rpu, truth), mean(ign, truth)
print('DV profile 5 (SVT-AV1 -> dav1d): with the RPU %.2f 8-bit codes from the pattern on '
      'average, the base layer read as HDR10 %.2f' % (m_rpu, m_ign))
sys.exit(0 if len(rpu) == len(truth) > 0 and m_rpu < 4.0 and m_ign > 20.0 else 1)
EOF
    then ok; else fail "DV: the RPU's picture is not the pattern's"; fi
    if run -c:v libdav1d -i "$dv" -vf "$tm,showinfo" -frames:v 1 -f null - -v info 2>&1 |
       grep -q 'side data - Dolby Vision'; then fail "DV: the RPU is still on the converted frames"; else ok; fi
    # the RPU's L2 trim for a 1000 cd/m2 display runs when the output is that display
    if "$bin/ffmpeg" -nostdin -hide_banner -v verbose -c:v libdav1d -i "$dv" \
           -vf cspfix=target_peak=1000 -frames:v 1 -f null - 2>&1 |
       grep -q 'L2 trim for a 100[0-9.]* cd/m2 display: slope 1.125'; then ok
    else fail "DV: the RPU's L2 trim for a 1000 cd/m2 display did not run at target_peak=1000"; fi
    echo "dovi: $((SECONDS - t)) s"
else
    skip "Dolby Vision round trip: needs HDR_CLIP, HDR_PATTERN, python3, libsvtav1 and libdav1d"
fi

# HDR10+ through FFmpeg's own writer and parser: tools/hdr_clip.c hdr10plus encodes the
# pattern as HDR10 with ST 2094-40 metadata (MaxSCL 4000 cd/m2, a tone curve for a 400 cd/m2
# display) with libaom, which writes it as ITU-T T.35; dav1d reads it back; cspfix runs the
# curve when the target is that display (tonemap=auto with target_peak=400), as
# tonemap=st2094-40 does, and not for another target
if [ -n "${HDR_CLIP:-}" ] && has encoders libaom-av1 && has decoders libdav1d; then
    t=$SECONDS
    hp=$tmp/hdr10plus.mkv
    if "$HDR_CLIP" hdr10plus "$hp" 1 >/dev/null 2>&1; then ok; else fail "HDR10+: hdr_clip encode"; fi
    probe "$hp" libdav1d >"$tmp/hp.txt"
    if grep -q 'side_data_type="HDR Dynamic Metadata SMPTE2094-40 (HDR10+)"' "$tmp/hp.txt"; then ok
    else fail "HDR10+: dav1d exports no AV_FRAME_DATA_DYNAMIC_HDR_PLUS from the file"; fi
    expect_tags "$tmp/hp.txt" "tv,bt2020nc,smpte2084,bt2020" "HDR10+ clip"
    tm="cspfix=all=bt709:format=yuv420p"
    "$bin/ffmpeg" -nostdin -hide_banner -v verbose -c:v libdav1d -i "$hp" -vf "$tm:target_peak=400" \
        -f framemd5 "$tmp/hp-auto.md5" >"$tmp/hp-auto.log" 2>&1
    # the knee (160, 380)/4095 and 9 anchors of tools/hdr_clip.c, made for 400 cd/m2
    if grep -q 'HDR10+ tone curve: knee (0.039072, 0.0927961), 9 anchors, made for a 400 cd/m2 display' \
           "$tmp/hp-auto.log"; then ok
    else fail "HDR10+: tonemap=auto with target_peak=400 does not run the clip's curve"; fi
    run -c:v libdav1d -i "$hp" -vf "$tm:target_peak=400:tonemap=st2094-40" -f framemd5 "$tmp/hp-st.md5"
    run -c:v libdav1d -i "$hp" -vf "$tm:target_peak=400:tonemap=bt2390" -f framemd5 "$tmp/hp-bt.md5"
    if [ -s "$tmp/hp-auto.md5" ] && cmp -s "$tmp/hp-auto.md5" "$tmp/hp-st.md5" &&
       ! cmp -s "$tmp/hp-auto.md5" "$tmp/hp-bt.md5"; then ok
    else fail "HDR10+: auto at the curve's display is not st2094-40, or st2094-40 is bt2390"; fi
    "$bin/ffmpeg" -nostdin -hide_banner -v verbose -c:v libdav1d -i "$hp" -vf "$tm" -f null - \
        >"$tmp/hp-203.log" 2>&1
    if grep -q 'HDR10+ tone curve' "$tmp/hp-203.log"; then
        fail "HDR10+: the curve for 400 cd/m2 runs for a 203 cd/m2 target"
    elif grep -q 'Source peak 4000 cd/m2 (HDR10+ scene MaxSCL)' "$tmp/hp-203.log"; then ok
    else fail "HDR10+: the scene's MaxSCL is not the source peak"; fi
    echo "hdr10plus: $((SECONDS - t)) s"
else
    skip "HDR10+ round trip: needs HDR_CLIP, libaom-av1 and libdav1d"
fi

echo "encode tests: $passed passed, $failed failed, $skipped skipped ($((SECONDS - start)) s)"
[ "$failed" = 0 ]
