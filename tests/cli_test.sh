#!/usr/bin/env bash
# cspfix command-line tests: real ffmpeg command lines, tags checked with ffprobe.
# Usage: tests/cli_test.sh BINDIR
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
passed=0 failed=0
ok()   { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); echo "FAIL: $*"; }

src170="testsrc2=s=64x48:d=0.4,format=yuv420p,setparams=color_primaries=smpte170m:color_trc=smpte170m:colorspace=smpte170m:range=tv"

# tags: range,matrix,transfer,primaries of the first video stream (one per line, joined:
# csv would add an empty field for the stream's side data, e.g. a mastering display)
tags() {
    "$bin/ffprobe" -v error -select_streams v:0 -show_entries \
        stream=color_primaries,color_transfer,color_space,color_range -of default=nw=1:nk=1 "$1" |
        paste -sd, -
}

expect_tags() { # file expected description
    local got; got=$(tags "$1")
    if [ "$got" = "$2" ]; then ok; else fail "$3: tags '$got', expected '$2'"; fi
}

run() { "$bin/ffmpeg" -nostdin -hide_banner -v error -y "$@"; }

run -f lavfi -i "$src170" -vf cspfix=all=bt709 -c:v ffv1 "$tmp/a.mkv" && ok || fail "all=bt709 encode"
expect_tags "$tmp/a.mkv" "tv,bt709,bt709,bt709" "cspfix=all=bt709"

run -f lavfi -i "$src170" -vf cspfix=range=pc -c:v rawvideo "$tmp/b.mkv" && ok || fail "range=pc encode"
expect_tags "$tmp/b.mkv" "pc,smpte170m,smpte170m,smpte170m" "cspfix=range=pc"

run -f lavfi -i "$src170" -vf cspfix=space=bt709,format=yuv420p -c:v ffv1 "$tmp/c.mkv" && ok || fail "space,format encode"
expect_tags "$tmp/c.mkv" "tv,bt709,smpte170m,smpte170m" "cspfix=space=bt709,format=yuv420p"

run -f lavfi -i "$src170" -vf cspfix=all=bt2020:format=yuv420p10 -c:v ffv1 "$tmp/d.mkv" && ok || fail "bt2020 10-bit encode"
expect_tags "$tmp/d.mkv" "tv,bt2020nc,bt2020-10,bt2020" "cspfix=all=bt2020:format=yuv420p10"

# every frame comes out
n=$(run -f lavfi -i "$src170" -vf cspfix=all=bt709 -f framecrc - | grep -c '^0,')
[ "$n" = 10 ] && ok || fail "frame count: $n of 10"

# help lists the options and their values
"$bin/ffmpeg" -hide_banner -h filter=cspfix > "$tmp/help.txt" 2>&1
for w in iprimaries itrc linearize wpadapt arib-std-b67 chroma-derived-c; do
    grep -q -- "$w" "$tmp/help.txt" && ok || fail "-h filter=cspfix lacks $w"
done

# a bad value gets a clear message and a failing exit status
if run -f lavfi -i "$src170" -vf cspfix=space=ictcp -f null - 2> "$tmp/err.txt"; then
    fail "ictcp from bt709 primaries should fail"
else
    grep -q "ictcp needs primaries bt2020" "$tmp/err.txt" && ok || fail "ictcp message: $(cat "$tmp/err.txt")"
fi


# ---- negotiation: no auto-inserted scale converts after cspfix ----------------
# autoscale LOG: the auto-inserted scale filters ffmpeg -v verbose reports
autoscale() { grep -o "auto-inserting filter 'auto_scale_[0-9]*' between the filter '[^']*' and the filter '[^']*'" "$1"; }
# md5s FILE: the per-frame MD5 column of a framemd5 file
md5s() { grep -v '^#' "$1" | awk -F, '{ gsub(/ /, "", $6); print $6 }'; }
vrun() { "$bin/ffmpeg" -nostdin -hide_banner -v verbose -y "$@"; }

vrun -f lavfi -i "$src170" -vf cspfix=space=bt709,format=yuv420p -c:v ffv1 "$tmp/n1.mkv" 2> "$tmp/n1.log"
a=$(autoscale "$tmp/n1.log")
[ -z "$a" ] && ok || fail "cspfix=space=bt709,format=yuv420p -c:v ffv1: $a"
expect_tags "$tmp/n1.mkv" "tv,bt709,smpte170m,smpte170m" "cspfix=space=bt709,format=yuv420p (ffv1)"

# full-range input into ffv1, which takes only limited range: with the range
# left free cspfix converts to it itself (no scale before or after it), and the
# decoded pixels equal cspfix's own range=tv conversion
srcpc="${src170/range=tv/range=pc}"
vrun -f lavfi -i "$srcpc" -vf cspfix=all=bt709 -c:v ffv1 "$tmp/n2.mkv" 2> "$tmp/n2.log"
a=$(autoscale "$tmp/n2.log")
[ -z "$a" ] && ok || fail "pc input, cspfix=all=bt709 -c:v ffv1: $a"
expect_tags "$tmp/n2.mkv" "tv,bt709,bt709,bt709" "pc input, cspfix=all=bt709 into ffv1"
run -i "$tmp/n2.mkv" -f framemd5 "$tmp/n2.md5"
run -f lavfi -i "$srcpc" -vf cspfix=all=bt709:range=tv -f framemd5 "$tmp/n2ref.md5"
if [ -s "$tmp/n2.md5" ] && [ "$(md5s "$tmp/n2.md5")" = "$(md5s "$tmp/n2ref.md5")" ]; then ok
else fail "ffv1 output pixels differ from cspfix=all=bt709:range=tv"; fi

# range=pc into an encoder that takes any range: no scale, tagged pc
vrun -f lavfi -i "$src170" -vf cspfix=range=pc -c:v rawvideo "$tmp/n3.mkv" 2> "$tmp/n3.log"
a=$(autoscale "$tmp/n3.log")
[ -z "$a" ] && ok || fail "cspfix=range=pc -c:v rawvideo: $a"
expect_tags "$tmp/n3.mkv" "pc,smpte170m,smpte170m,smpte170m" "cspfix=range=pc (rawvideo)"
# ... and pixels equal to the filter's own output
run -i "$tmp/n3.mkv" -f framemd5 "$tmp/n3.md5"
run -f lavfi -i "$src170" -vf cspfix=range=pc -f framemd5 "$tmp/n3ref.md5"
[ "$(md5s "$tmp/n3.md5")" = "$(md5s "$tmp/n3ref.md5")" ] && ok || fail "range=pc rawvideo pixels differ"

# range=pc set explicitly, into ffv1 (limited only): the scale ffmpeg must
# insert is not silent
vrun -f lavfi -i "$src170" -vf cspfix=range=pc -c:v ffv1 "$tmp/n4.mkv" 2> "$tmp/n4.log"
if autoscale "$tmp/n4.log" >/dev/null && grep -q "Parsed_cspfix_0.*auto-inserted auto_scale_0 converts it again" "$tmp/n4.log"
then ok; else fail "range=pc into ffv1: no warning about the auto-inserted scale"; fi

# ---- pixel formats: taken natively, converted by cspfix itself ---------------
# 10-bit input with -pix_fmt yuv420p: cspfix makes the 8 bits (no scale after it),
# the pixels those of cspfix=all=bt709:format=yuv420p
src10="${src170/format=yuv420p/format=yuv420p10le}"
vrun -f lavfi -i "$src10" -vf cspfix=all=bt709 -pix_fmt yuv420p -f framemd5 "$tmp/p1.md5" 2> "$tmp/p1.log"
a=$(autoscale "$tmp/p1.log")
[ -z "$a" ] && ok || fail "10-bit input, cspfix=all=bt709 -pix_fmt yuv420p: $a"
grep -q "Plan yuv420p10le .* -> yuv420p " "$tmp/p1.log" && ok || fail "-pix_fmt yuv420p: cspfix did not convert to yuv420p"
run -f lavfi -i "$src10" -vf cspfix=all=bt709:format=yuv420p -f framemd5 "$tmp/p1ref.md5"
[ -s "$tmp/p1.md5" ] && [ "$(md5s "$tmp/p1.md5")" = "$(md5s "$tmp/p1ref.md5")" ] && ok ||
    fail "-pix_fmt yuv420p pixels differ from cspfix=all=bt709:format=yuv420p"
# Y'CbCr into the PNG encoder (RGB only): cspfix converts to RGB itself
vrun -f lavfi -i "$src170" -vf cspfix=all=bt709 -frames:v 1 -f image2 -c:v png "$tmp/p2.png" 2> "$tmp/p2.log"
a=$(autoscale "$tmp/p2.log")
[ -z "$a" ] && ok || fail "cspfix=all=bt709 into png: $a"
grep -q "Plan yuv420p .* -> rgb24 .*/gbr/pc" "$tmp/p2.log" && ok || fail "png: cspfix did not convert to rgb24"
# packed and exotic input formats: no converter before cspfix (testsrc2 -> format
# may need one: not ours)
before() { autoscale "$1" | grep "and the filter 'Parsed_cspfix"; }
for f in yuyv422 uyvy422 y210le xv30le vuyx yuva444p12le gray12le yuva420p16le rgb565le x2bgr10le \
         gbrpf32be ayuv64le nv42 yuv410p yuv411p yuv440p monow; do
    vrun -f lavfi -i "testsrc2=s=34x18:d=0.04,format=$f" -vf cspfix=all=bt709 -f null - 2> "$tmp/p3.log"
    a=$(before "$tmp/p3.log")
    [ -z "$a" ] && grep -q "Plan $f " "$tmp/p3.log" && ok || fail "$f input: $a"
done
# a format cspfix refuses: a clear error, not a silent conversion
vrun -f lavfi -i "testsrc2=s=34x18:d=0.04,format=pal8" -vf cspfix=all=bt709 -f null - 2> "$tmp/p4.log" &&
    fail "pal8 input accepted" || ok
grep -q "Unsupported input pixel format pal8: paletted" "$tmp/p4.log" && ok || fail "pal8: no clear error"
[ -z "$(before "$tmp/p4.log")" ] && ok || fail "pal8: a converter was inserted before cspfix"
# a converter still inserted (format fixed, the consumer takes another): said loudly
vrun -f lavfi -i "$src170" -vf cspfix=all=bt709:format=yuv420p10le -frames:v 1 -f image2 -c:v png "$tmp/p5.png" 2> "$tmp/p5.log"
grep -q "auto-inserted auto_scale_0 after cspfix converts its yuv420p10le output to rgb.*colour model Y'CbCr -> RGB" "$tmp/p5.log" &&
    ok || fail "format=yuv420p10le into png: no warning about the auto-inserted scale"

# ---- runtime commands: sendcmd changes the target mid-stream -----------------
# every output option but format is a runtime option ('T' in -h)
for o in all space matrix trc transfer primaries range chroma_loc interlace colorimetry dither clip clipgamut \
         tonemap desat peak target_peak target_black gamut \
         iall ispace itrc iprimaries irange icolorimetry v4l2_colorspace; do
    grep -q "^ *$o  *<[a-z_]*>  *[.A-Z]*T" "$tmp/help.txt" && ok || fail "option $o is not a runtime option"
done
grep -q "^ *format  *<[a-z_]*>  *[.A-Z]*T" "$tmp/help.txt" && fail "format should not be a runtime option" || ok

# tags FRAMES: range,matrix,primaries of every frame of a lavfi graph (ffprobe)
frame_tags() {
    "$bin/ffprobe" -v error -f lavfi -i "$1" -show_entries frame=color_range,color_space,color_primaries \
        -of csv=p=0 | tr '\n' ' '
}
cmds="sendcmd=c='0.2 cspfix@c range pc;0.28 cspfix@c space bt709, cspfix@c primaries bt709'"
got=$(frame_tags "$src170,$cmds,cspfix@c")
want="tv,smpte170m,smpte170m tv,smpte170m,smpte170m tv,smpte170m,smpte170m tv,smpte170m,smpte170m tv,smpte170m,smpte170m pc,smpte170m,smpte170m pc,smpte170m,smpte170m pc,bt709,bt709 pc,bt709,bt709 pc,bt709,bt709 "
[ "$got" = "$want" ] && ok || fail "sendcmd frame tags: '$got', expected '$want'"
# pixels: frame by frame equal to the static conversions in force at that frame
run -f lavfi -i "$src170" -vf "$cmds,cspfix@c" -f framemd5 "$tmp/s.md5" 2> "$tmp/s.log"
vrun -f lavfi -i "$src170" -vf "$cmds,cspfix@c" -f null - 2> "$tmp/s.log"
run -f lavfi -i "$src170" -vf null -f framemd5 "$tmp/s0.md5"
run -f lavfi -i "$src170" -vf cspfix=range=pc -f framemd5 "$tmp/s1.md5"
run -f lavfi -i "$src170" -vf cspfix=range=pc:space=bt709:primaries=bt709 -f framemd5 "$tmp/s2.md5"
want=$( { md5s "$tmp/s0.md5" | sed -n 1,5p; md5s "$tmp/s1.md5" | sed -n 6,7p; md5s "$tmp/s2.md5" | sed -n 8,10p; } )
[ -n "$want" ] && [ "$(md5s "$tmp/s.md5")" = "$want" ] && ok || fail "sendcmd: frame pixels do not follow the commands"
# each command that changes the target rebuilds the plan: 3 plans in all
n=$(grep -c "Parsed_cspfix_0 .*\] Plan \|\[cspfix@c .*\] Plan " "$tmp/s.log")
[ "$n" = 3 ] && ok || fail "sendcmd: $n plans built, expected 3"
# colorimetry as a command sets all four fields
got=$(frame_tags "$src170,sendcmd=c='0.2 cspfix@c colorimetry bt2020',cspfix@c" | awk '{ print $1, $10 }')
[ "$got" = "tv,smpte170m,smpte170m tv,bt2020nc,bt2020" ] && ok || fail "colorimetry command: '$got'"

# an upstream change of the range mid-stream, into ffv1 (limited only): the downstream
# cspfix, whose output range was negotiated tv, converts the pc frames back to tv
run -f lavfi -i "$src170,sendcmd=c='0.2 cspfix@u range pc',cspfix@u,cspfix" -c:v ffv1 "$tmp/m.mkv" &&
    run -i "$tmp/m.mkv" -f framemd5 "$tmp/m.md5" && ok || fail "mid-stream range change into ffv1"
run -f lavfi -i "$src170" -vf cspfix=range=pc,cspfix=range=tv -f framemd5 "$tmp/m1.md5"
want=$( { md5s "$tmp/s0.md5" | sed -n 1,5p; md5s "$tmp/m1.md5" | sed -n 6,10p; } )
[ "$(md5s "$tmp/m.md5")" = "$want" ] && ok || fail "mid-stream pc frames not converted to the negotiated tv"
# a command that changes the output description mid-stream is warned (encoders keep the first)
run -v warning -f lavfi -i "$src170" -vf "sendcmd=c='0.2 cspfix@c range pc',cspfix@c" -f null - 2> "$tmp/w.log"
grep -q "mis-tagged" "$tmp/w.log" && ok || fail "no warning for a mid-stream output change: $(cat "$tmp/w.log")"
# the documented example fixes a mislabelled segment, with a constant output: no warning,
# a correctly tagged file
run -v warning -f lavfi -i "$src170" -vf "sendcmd=c='0.2 cspfix irange pc',cspfix=all=bt709:range=tv" \
    -c:v ffv1 "$tmp/x.mkv" 2> "$tmp/x.log" && ok || fail "documented sendcmd example"
[ ! -s "$tmp/x.log" ] && ok || fail "documented sendcmd example logs: $(cat "$tmp/x.log")"
expect_tags "$tmp/x.mkv" "tv,bt709,bt709,bt709" "documented sendcmd example"

# ---- the help lists only values that work; numeric GStreamer colorimetry escaping ----
for v in smpte2085 ipt-c2 ictcp ycgco-re ycgco-ro; do
    grep -q -- "^ *$v " "$tmp/help.txt" && ok || fail "-h does not offer $v"
done
grep -q "^ *all .*(default unset)" "$tmp/help.txt" && ok || fail "-h: all has no named default"
grep -q "^ *format .*-pix_fmts" "$tmp/help.txt" && ok || fail "-h: format does not say its values"
grep -q "^ *v4l2_colorspace .*rec709" "$tmp/help.txt" && ok || fail "-h: v4l2_colorspace does not list its values"
run -f lavfi -i "$src170" -vf "cspfix=colorimetry='2\:6\:14\:7'" -c:v ffv1 "$tmp/g.mkv" &&
    expect_tags "$tmp/g.mkv" "tv,bt2020nc,smpte2084,bt2020" "colorimetry='2\:6\:14\:7' (the documented escaping)" ||
    fail "colorimetry='2\:6\:14\:7' rejected"

# ---- timeline: enable= ----------------------------------------------------------
got=$(frame_tags "$src170,cspfix=all=bt709:enable='between(n,3,5)'")
want="tv,smpte170m,smpte170m tv,smpte170m,smpte170m tv,smpte170m,smpte170m tv,bt709,bt709 tv,bt709,bt709 tv,bt709,bt709 tv,smpte170m,smpte170m tv,smpte170m,smpte170m tv,smpte170m,smpte170m tv,smpte170m,smpte170m "
[ "$got" = "$want" ] && ok || fail "enable=between(n,3,5) frame tags: '$got'"
run -f lavfi -i "$src170" -vf "cspfix=all=bt709:enable='between(n,3,5)'" -f framemd5 "$tmp/e.md5"
run -f lavfi -i "$src170" -vf cspfix=all=bt709 -f framemd5 "$tmp/e1.md5"
want=$( { md5s "$tmp/s0.md5" | sed -n 1,3p; md5s "$tmp/e1.md5" | sed -n 4,6p; md5s "$tmp/s0.md5" | sed -n 7,10p; } )
[ "$(md5s "$tmp/e.md5")" = "$want" ] && ok || fail "enable=between(n,3,5): frame pixels"

# ---- interlaced frames ------------------------------------------------------------
# the output keeps the frame's interlacing and field order; tff and bff give the same
# pixels, per field (not those of the frame-wide interpolation); the verbose log says so
for fm in tff bff; do
    got=$("$bin/ffprobe" -v error -f lavfi -i "$src170,setparams=field_mode=$fm,cspfix=all=bt709" \
          -show_entries frame=interlaced_frame,top_field_first -of csv=p=0 | sort -u | tr '\n' ' ')
    want=$([ $fm = tff ] && echo "1,1 " || echo "1,0 ")
    [ "$got" = "$want" ] && ok || fail "field_mode=$fm: output frame flags '$got', expected '$want'"
    run -f lavfi -i "$src170,setparams=field_mode=$fm" -vf cspfix=all=bt709 -f framemd5 "$tmp/i_$fm.md5"
done
run -f lavfi -i "$src170,setparams=field_mode=tff" -vf cspfix=all=bt709:interlace=progressive -f framemd5 "$tmp/i_p.md5"
[ "$(md5s "$tmp/i_tff.md5")" = "$(md5s "$tmp/i_bff.md5")" ] && ok || fail "tff and bff pixels differ"
[ "$(md5s "$tmp/i_tff.md5")" != "$(md5s "$tmp/i_p.md5")" ] && ok || fail "interlaced frames resampled frame-wide"
vrun -f lavfi -i "$src170,setparams=field_mode=bff" -vf cspfix=all=bt709 -f null - 2> "$tmp/i.log"
grep -q "vertical chroma resampling: per field (interlaced)" "$tmp/i.log" && ok || fail "no per-field line in the verbose plan"

# ---- issue 28: real media ----------------------------------------------------------
# grey PNGs made by FFmpeg's own encoder (its decoder tags them rgb) are taken, and the
# verbose log says the matrix tag was ignored and why
for f in gray gray16be ya8; do
    run -f lavfi -i "testsrc2=s=64x48:d=0.04,format=$f" -frames:v 1 "$tmp/g_$f.png" || fail "$f PNG encode"
    if vrun -i "$tmp/g_$f.png" -vf cspfix=trc=bt709 -frames:v 1 "$tmp/g_$f-out.png" 2>"$tmp/g_$f.log"; then ok; else
        fail "$f PNG through cspfix: $(grep -i 'error\|cspfix' "$tmp/g_$f.log" | head -n 2)"; fi
    grep -q "Input matrix rgb ignored on the gray format" "$tmp/g_$f.log" && ok ||
        fail "$f PNG: -v verbose does not say the rgb matrix tag was ignored"
done

# untagged cropped HD is BT.709 (width 1280 or more, or more than 576 rows)
for s in 1280x544 1920x800; do
    "$bin/ffmpeg" -nostdin -hide_banner -y -f lavfi -i "testsrc2=s=$s:d=0.04,format=yuv420p" \
        -vf cspfix=all=bt709 -f null - 2>"$tmp/u.log"
    grep -q "Input matrix unspecified: guessing bt709 (HD size" "$tmp/u.log" && ok ||
        fail "untagged $s: $(grep 'matrix unspecified' "$tmp/u.log")"
done

# SDR made PQ: the content light level has a MaxFALL, so Matroska keeps it (its demuxer
# drops a MaxCLL/MaxFALL pair with a zero), and MP4 too
for c in mkv:ffv1 mp4:ffv1 mov:ffv1; do
    ext=${c%%:*}
    run -f lavfi -i "$src170" -vf cspfix=all=bt2020:trc=smpte2084:format=yuv420p10:target_peak=400 \
        -c:v "${c#*:}" "$tmp/pq.$ext" || fail "SDR to PQ into $ext"
    got=$("$bin/ffprobe" -v error -select_streams v:0 -show_entries stream_side_data=max_content,max_average,max_luminance \
          -of default=nw=1 "$tmp/pq.$ext" | sort | paste -sd, -)
    [ "$got" = "max_average=400,max_content=400,max_luminance=400/1" ] ||
        [ "$got" = "max_average=400,max_content=400,max_luminance=4000000/10000" ] && ok ||
        fail "SDR to PQ in $ext: stream side data '$got'"
done

# the timeline: converting some frames to another description mixes two in one stream,
# which tags cannot carry: warned; a mislabelled segment converted to the stream's
# description is not
wrun() { "$bin/ffmpeg" -nostdin -hide_banner -y "$@"; }   # warnings shown
wrun -f lavfi -i "$src170" -vf "cspfix=all=bt709:enable='between(n,1,2)'" -f null - 2>"$tmp/tl.log"
grep -q "one stream with two descriptions" "$tmp/tl.log" && ok || fail "enable= to another description not warned"
wrun -f lavfi -i "$src170" -vf "cspfix=iall=bt709:all=smpte170m:enable='between(n,1,2)'" -f null - 2>"$tmp/tl2.log"
grep -q "two descriptions" "$tmp/tl2.log" && fail "enable= fixing a segment to the stream's description warned" || ok

# yuvj is full range: a yuvj input tagged tv is read as full range, so the PNG encoder gets
# the same picture as from the same frames tagged pc (the auto-inserted converter before the
# encoder would read a tv tag as limited)
for r in tv pc; do
    run -f lavfi -i "testsrc2=s=64x48:d=0.04,format=yuvj420p,setparams=range=$r:colorspace=bt709:color_primaries=bt709:color_trc=bt709" \
        -vf cspfix -frames:v 1 -f framemd5 "$tmp/j_$r.md5" || fail "yuvj420p tagged $r to PNG"
done
run -f lavfi -i "testsrc2=s=64x48:d=0.04,format=yuvj420p,setparams=range=pc:colorspace=bt709:color_primaries=bt709:color_trc=bt709" \
    -vf cspfix -frames:v 1 -c:v png -f framemd5 "$tmp/jp.md5"
run -f lavfi -i "testsrc2=s=64x48:d=0.04,format=yuvj420p,setparams=range=tv:colorspace=bt709:color_primaries=bt709:color_trc=bt709" \
    -vf cspfix -frames:v 1 -c:v png -f framemd5 "$tmp/jt.md5"
[ -s "$tmp/jp.md5" ] && [ "$(md5s "$tmp/jp.md5")" = "$(md5s "$tmp/jt.md5")" ] && ok ||
    fail "yuvj420p tagged tv and pc differ through cspfix into PNG"
# range=tv on yuvj input: limited codes in a yuv format, not in yuvj
# frame: pix_fmt, colour space, range of the first frame of a lavfi graph
frame() { "$bin/ffprobe" -v error -f lavfi -i "$1" -read_intervals '%+#1' \
              -show_entries frame=pix_fmt,color_space,color_range -of csv=p=0; }
got=$(frame "testsrc2=s=64x48:d=0.04,format=yuvj420p,cspfix=range=tv" | cut -d, -f1,2)
[ "$got" = "yuv420p,tv" ] && ok || fail "yuvj420p with range=tv: '$got', expected yuv420p,tv"

# messages: what a converter after cspfix changes is named right; space=rgb and a Y'CbCr
# space on RGB input negotiate the format; peak and desat on SDR input are warned about
wrun -f lavfi -i "$src170" -vf cspfix=all=bt709 -pix_fmt pal8 -f null - 2>"$tmp/m1.log"
grep -q "colour model Y'CbCr -> paletted RGB" "$tmp/m1.log" && ! grep -q "as set" "$tmp/m1.log" && ok ||
    fail "pal8 after cspfix: $(grep cspfix "$tmp/m1.log")"
wrun -f lavfi -i "$src170" -vf cspfix=all=bt709 -pix_fmt xyz12le -f null - 2>"$tmp/m2.log"
grep -q "colour model Y'CbCr -> XYZ" "$tmp/m2.log" && ! grep -q "as set" "$tmp/m2.log" && ok ||
    fail "xyz12le after cspfix: $(grep cspfix "$tmp/m2.log")"
wrun -f lavfi -i "$src170" -vf cspfix=all=bt709:format=gbrp -pix_fmt pal8 -f null - 2>"$tmp/m3.log"
grep -q "set by the options\|as set" "$tmp/m3.log" && fail "gbrp -> pal8: a matrix/range called set: $(grep cspfix "$tmp/m3.log")" || ok
got=$(frame "$src170,cspfix=space=rgb" | cut -d, -f1-3)  # (an ICC profile adds a column)
case $got in rgb*,pc,gbr|gbr*,pc,gbr) ok ;; *) fail "space=rgb without format: '$got', expected RGB" ;; esac
got=$(frame "testsrc2=s=64x48:d=0.04,format=gbrp,cspfix=space=bt709")
case $got in yuv*,tv,bt709) ok ;; *) fail "space=bt709 on gbrp input without format: '$got', expected Y'CbCr" ;; esac
wrun -f lavfi -i "$src170" -vf cspfix=all=bt709:peak=1000:desat=0.5 -f null - 2>"$tmp/m4.log"
grep -q "peak=1000 has no effect" "$tmp/m4.log" && grep -q "desat=0.5 has no effect" "$tmp/m4.log" && ok ||
    fail "peak/desat on SDR input: $(grep cspfix "$tmp/m4.log")"

echo "cli: $passed passed, $failed failed"
[ "$failed" = 0 ]
