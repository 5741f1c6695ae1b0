#!/usr/bin/env bash
# tools/cspfix-batch on a folder of generated clips, -j2, one of them broken.
# Usage: tests/batch_test.sh BINDIR
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
# ok never fails: "test && ok || fail" is if-then-else here
# shellcheck disable=SC2015,SC2012
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
bin=$(cd "$1" && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cspfix-batchtest-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0
ok()   { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); echo "FAIL: $*"; }
tags() {
    "$bin/ffprobe" -v error -select_streams v:0 -show_entries \
        stream=color_primaries,color_transfer,color_space,color_range -of csv=p=0 "$1"
}
clip() { # NAME PRIMARIES TRC MATRIX RANGE
    "$bin/ffmpeg" -nostdin -v error -y -f lavfi \
        -i "testsrc2=s=32x24:d=0.12,format=yuv420p,setparams=color_primaries=$2:color_trc=$3:colorspace=$4:range=$5" \
        -c:v ffv1 "$tmp/in/$1"
}
mkdir -p "$tmp/in/sub"
clip a.mkv smpte170m smpte170m smpte170m tv
clip b.mkv bt709 bt709 bt709 tv                # already at the target: skipped
clip sub/c.mkv bt470bg smpte170m bt470bg pc
clip d.mkv bt2020 bt2020-10 bt2020nc tv
head -c 700 "$tmp/in/a.mkv" >"$tmp/in/broken.mkv"   # truncated: must fail
echo "not a clip" >"$tmp/in/readme.txt"            # skipped

"$ROOT/tools/cspfix-batch" -j2 --bindir "$bin" --target bt709 "$tmp/in" "$tmp/out" \
    >"$tmp/out.txt" 2>"$tmp/progress.txt"
rc=$?
sed 's/^/  | /' "$tmp/out.txt"
[ $rc = 1 ] && ok || fail "exit status $rc with a broken file, expected 1"
grep -q "^cspfix-batch: 6 files: 3 converted, 2 skipped, 1 failed" "$tmp/out.txt" && ok ||
    fail "summary: $(head -n 1 "$tmp/out.txt")"
sed -n '/^failed:/,$p' "$tmp/out.txt" | grep -q "^  broken.mkv: " && ok || fail "broken.mkv not listed as failed"
sed -n '/^skipped:/,/^failed:/p' "$tmp/out.txt" | grep -q "^  b.mkv: already bt709" && ok ||
    fail "b.mkv not listed as skipped (already bt709)"
sed -n '/^skipped:/,/^failed:/p' "$tmp/out.txt" | grep -q "^  readme.txt: " && ok || fail "readme.txt not skipped"
[ "$(grep -c '^\[[0-9]/6\] ' "$tmp/progress.txt")" = 6 ] && ok || fail "progress: $(cat "$tmp/progress.txt")"
for f in a sub/c d; do
    [ "$(tags "$tmp/out/$f.mkv" 2>/dev/null | cut -d, -f2-)" = "bt709,bt709,bt709" ] && ok ||
        fail "$f.mkv: output tags '$(tags "$tmp/out/$f.mkv" 2>&1)'"
done
# full range into ffv1 (limited range only): cspfix converts to limited itself
[ "$(tags "$tmp/out/sub/c.mkv" | cut -d, -f1)" = tv ] && ok || fail "sub/c.mkv: range $(tags "$tmp/out/sub/c.mkv")"
[ ! -e "$tmp/out/broken.mkv" ] && [ ! -e "$tmp/out/b.mkv" ] && ok || fail "outputs for failed/skipped files"

# the same without the broken file, through GNU parallel's --sshlogin (":" is
# this machine, so no ssh is needed): exit 0, options passed on
rm "$tmp/in/broken.mkv"
"$ROOT/tools/cspfix-batch" -j2 --sshlogin 2/: --bindir "$bin" --target bt709 --options range=pc --codec rawvideo \
    "$tmp/in" "$tmp/out2" >"$tmp/out2.txt" 2>&1
rc=$?
[ $rc = 0 ] && ok || fail "--sshlogin 2/: run: exit $rc: $(cat "$tmp/out2.txt")"
grep -q "^cspfix-batch: 5 files: 4 converted, 1 skipped, 0 failed" "$tmp/out2.txt" && ok ||
    fail "--sshlogin summary: $(grep '^cspfix-batch: 5' "$tmp/out2.txt")"
[ "$(tags "$tmp/out2/b.mkv")" = "pc,bt709,bt709,bt709" ] && ok || fail "range=pc not applied: $(tags "$tmp/out2/b.mkv")"
# range=pc into ffv1 (limited range only) is reported as failed, not silently tv
"$ROOT/tools/cspfix-batch" -j2 --bindir "$bin" --options range=pc "$tmp/in" "$tmp/out3" >"$tmp/out3.txt" 2>&1
rc=$?
[ $rc = 1 ] && grep -q "^  a.mkv: output range tv, not pc" "$tmp/out3.txt" && ok ||
    fail "range=pc into ffv1: exit $rc: $(grep -A9 '^failed' "$tmp/out3.txt")"


# ---- nothing lost: every stream, chapters, metadata, cover art ------------------
# two video streams (converted, each with its own filter), cover art (copied),
# two audio tracks, srt and ass subtitles, a font attachment, chapters, global
# and stream metadata; the file name has spaces and quotes
ff() { "$bin/ffmpeg" -nostdin -hide_banner -v error -y "$@"; }
probe() { "$bin/ffprobe" -v error "$@"; }
count() { # FILE TYPE -> number of streams of that type (attached pictures counted apart as "pic")
    # (the lines without a disposition are the streams listed again in MP4's stream groups)
    probe -show_entries stream=codec_type:stream_disposition=attached_pic -of csv=p=0 "$1" |
        awk -F, -v t="$2" 'NF == 2 { k = ($2 == 1 ? "pic" : $1) } NF == 2 && k == t { n++ } END { print n + 0 }'
}
vtags() { # FILE -> the tags of every video stream that is not cover art
    probe -show_entries stream=codec_type,color_primaries,color_transfer,color_space:stream_disposition=attached_pic \
        -of csv=p=0 "$1" | awk -F, '$1 == "video" && $NF == 0 { printf "%s/%s/%s ", $2, $3, $4 }'
}
mkdir -p "$tmp/rich" "$tmp/mp4" "$tmp/res"
src="testsrc2=s=32x24:d=1,format=yuv420p"
ff -f lavfi -i "testsrc2=s=16x16:d=0.04" -frames:v 1 "$tmp/cover.png"
printf '1\n00:00:00,100 --> 00:00:00,500\nhello\n\n2\n00:00:00,600 --> 00:00:00,900\nworld\n' >"$tmp/s.srt"
cat >"$tmp/s.ass" <<'END'
[Script Info]
ScriptType: v4.00+
PlayResX: 32
PlayResY: 24

[V4+ Styles]
Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding
Style: Default,DejaVu Sans,8,&H00FFFFFF,&H000000FF,&H00000000,&H00000000,0,0,0,0,100,100,0,0,1,1,0,2,1,1,1,1

[Events]
Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text
Dialogue: 0,0:00:00.20,0:00:00.80,Default,,0,0,0,,styled
END
printf ';FFMETADATA1\ntitle=rich clip\nartist=cspfix\n[CHAPTER]\nTIMEBASE=1/1000\nSTART=0\nEND=500\ntitle=one\n[CHAPTER]\nTIMEBASE=1/1000\nSTART=500\nEND=1000\ntitle=two\n' >"$tmp/meta.txt"
font=/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf
[ -r "$font" ] || { font=$tmp/DejaVuSans.ttf; head -c 4096 /dev/urandom >"$font"; }
cp "$font" "$tmp/DejaVuSans.ttf" 2>/dev/null || true
rich=$tmp/rich/"it's a \"rich\" clip.mkv"
ff -f lavfi -i "$src,setparams=color_primaries=smpte170m:color_trc=smpte170m:colorspace=smpte170m:range=tv" \
   -f lavfi -i "$src,setparams=color_primaries=bt470bg:color_trc=smpte170m:colorspace=bt470bg:range=tv" \
   -f lavfi -i "sine=f=440:d=1" -f lavfi -i "sine=f=880:d=1" -i "$tmp/s.srt" -i "$tmp/s.ass" -i "$tmp/meta.txt" \
   -map 0 -map 1 -map 2 -map 3 -map 4 -map 5 -map_metadata 6 -map_chapters 6 \
   -c:v ffv1 -c:a pcm_s16le -c:s copy -metadata:s:a:1 language=fra -metadata:s:s:0 title=plain \
   -attach "$tmp/DejaVuSans.ttf" -metadata:s:t:0 mimetype=application/x-truetype-font \
   -attach "$tmp/cover.png" -metadata:s:t:1 mimetype=image/png -metadata:s:t:1 filename=cover.png "$rich"
# mp4: mpeg4 video, cover art, two aac tracks, mov_text subtitles, a timecode
# track and a chapter track (the two data streams)
ff -f lavfi -i "$src,setparams=color_primaries=smpte170m:color_trc=smpte170m:colorspace=smpte170m:range=tv" \
   -i "$tmp/cover.png" -f lavfi -i "sine=f=440:d=1" -f lavfi -i "sine=f=880:d=1" -i "$tmp/s.srt" -i "$tmp/meta.txt" \
   -map 0 -map 1 -map 2 -map 3 -map 4 -map_metadata 5 -map_chapters 5 -c:v:0 mpeg4 -c:v:1 copy -disposition:v:1 attached_pic \
   -c:a aac -b:a 32k -c:s mov_text -metadata:s:a:1 language=fra -metadata:s:v:0 timecode=01:00:00:00 \
   "$tmp/mp4/m.mp4"
md5_rich=$(md5sum <"$rich")

"$ROOT/tools/cspfix-batch" -j2 --bindir "$bin" --report "$tmp/res/report.json" "$tmp/rich" "$tmp/rich.out" \
    >"$tmp/rich.txt" 2>&1
rc=$?
out=$tmp/rich.out/"it's a \"rich\" clip.mkv"
[ $rc = 0 ] && [ -s "$out" ] && ok || fail "rich mkv: exit $rc: $(cat "$tmp/rich.txt")"
for t in video:2 pic:1 audio:2 subtitle:2 attachment:1; do
    [ "$(count "$out" "${t%:*}" 2>/dev/null)" = "${t#*:}" ] && ok ||
        fail "rich mkv: ${t#*:} ${t%:*} stream(s) expected, got $(count "$out" "${t%:*}" 2>&1)"
done
[ "$(vtags "$out" 2>/dev/null)" = "bt709/bt709/bt709 bt709/bt709/bt709 " ] && ok ||
    fail "rich mkv: both video streams converted? tags $(vtags "$out" 2>&1)"
[ "$(probe -show_chapters -of csv=p=0 "$out" 2>/dev/null | grep -c .)" = 2 ] && ok || fail "rich mkv: chapters lost"
[ "$(probe -show_entries format_tags=title -of default=nw=1:nk=1 "$out" 2>/dev/null)" = "rich clip" ] && ok ||
    fail "rich mkv: global metadata lost"
[ "$(probe -select_streams a:1 -show_entries stream_tags=language -of default=nw=1:nk=1 "$out" 2>/dev/null)" = fra ] && ok ||
    fail "rich mkv: stream metadata (language of a:1) lost"
[ "$(probe -select_streams t:0 -show_entries stream_tags=filename -of default=nw=1:nk=1 "$out" 2>/dev/null)" = DejaVuSans.ttf ] && ok ||
    fail "rich mkv: font attachment lost"
[ "$(probe -show_entries stream_tags=filename:stream_disposition=attached_pic -of csv=p=0 "$out" 2>/dev/null | grep -c '^1,cover.png')" = 1 ] && ok ||
    fail "rich mkv: cover art not an attached picture named cover.png: $(probe -show_entries stream_tags=filename:stream_disposition=attached_pic -of csv=p=0 "$out" 2>&1)"
[ "$(md5sum <"$rich")" = "$md5_rich" ] && ok || fail "rich mkv: input changed"
[ -z "$(find "$tmp/rich.out" -name '.*')" ] && ok || fail "rich mkv: temporary files left: $(find "$tmp/rich.out" -name '.*')"

# the report
python3 - "$tmp/res/report.json" <<'END' && ok || fail "report: $(cat "$tmp/res/report.json")"
import json, sys
r = json.load(open(sys.argv[1]))
f = r["files"]
assert len(f) == 1, f
f = f[0]
assert f["file"] == "it's a \"rich\" clip.mkv" and f["status"] == "ok" and f["error"] is None, f
assert isinstance(f["seconds"], int), f
assert [t["primaries"] for t in f["input_tags"]] == ["smpte170m", "bt470bg"], f
assert [t["matrix"] for t in f["output_tags"]] == ["bt709", "bt709"], f
assert r["converted"] == 1 and r["failed"] == 0, r
END

# mp4 stays mp4 (with an encoder its muxer takes), its streams too
"$ROOT/tools/cspfix-batch" -j2 --bindir "$bin" --codec mpeg4 --codec-opts '-q:v 4 -g 12' \
    "$tmp/mp4" "$tmp/mp4.out" >"$tmp/mp4.txt" 2>&1
rc=$?
[ $rc = 0 ] && [ -s "$tmp/mp4.out/m.mp4" ] && [ ! -e "$tmp/mp4.out/m.mkv" ] && ok ||
    fail "mp4: exit $rc, $(ls -A "$tmp/mp4.out" 2>&1): $(cat "$tmp/mp4.txt")"
for t in video:1 pic:1 audio:2 subtitle:1 data:2; do
    [ "$(count "$tmp/mp4.out/m.mp4" "${t%:*}" 2>/dev/null)" = "${t#*:}" ] && ok ||
        fail "mp4: ${t#*:} ${t%:*} stream(s) expected, got $(count "$tmp/mp4.out/m.mp4" "${t%:*}" 2>&1)"
done
[ "$(vtags "$tmp/mp4.out/m.mp4" 2>/dev/null)" = "bt709/bt709/bt709 " ] && ok || fail "mp4: tags $(vtags "$tmp/mp4.out/m.mp4" 2>&1)"
[ "$(probe -show_chapters -of csv=p=0 "$tmp/mp4.out/m.mp4" 2>/dev/null | grep -c .)" = 2 ] && ok || fail "mp4: chapters lost"
# with rawvideo, which mp4 does not take, the same file is written as .mkv, and
# the job says so; the timecode track stays the video's timecode tag, the
# mov_text subtitles become SubRip, the cover art stays cover art
"$ROOT/tools/cspfix-batch" -j2 --bindir "$bin" --codec rawvideo "$tmp/mp4" "$tmp/mp4.mkv" >"$tmp/mp4mkv.txt" 2>&1
rc=$?
o=$tmp/mp4.mkv/m.mkv
[ $rc = 0 ] && [ ! -e "$tmp/mp4.mkv/m.mp4" ] && [ -s "$o" ] &&
    grep -q "(as .mkv: the mp4 muxer refused: " "$tmp/mp4mkv.txt" &&
    grep -q "mov_text made SubRip; stream #4 (chapter track) kept as chapters; stream #5 (timecode track) kept as the video's timecode tag" "$tmp/mp4mkv.txt" &&
    [ "$(probe -show_chapters -of csv=p=0 "$o" | grep -c .)" = 2 ] &&
    [ "$(count "$o" pic)" = 1 ] && [ "$(count "$o" audio)" = 2 ] && [ "$(count "$o" subtitle)" = 1 ] &&
    [ "$(probe -select_streams v:0 -show_entries stream_tags=timecode -of default=nw=1:nk=1 "$o")" = 01:00:00:00 ] && ok ||
    fail "mp4 with rawvideo: exit $rc, not written as .mkv with all its streams: $(cat "$tmp/mp4mkv.txt")"

# ---- atomic and resumable -----------------------------------------------------------
# a fake ffmpeg that writes part of the output, then fails (mode fail) or
# kills the job converting d.mkv (SIGKILL, no clean-up possible; mode kill)
mkdir -p "$tmp/fake" "$tmp/kin"
ln -s "$bin/ffprobe" "$tmp/fake/ffprobe"
cat >"$tmp/fake/ffmpeg" <<END
#!/usr/bin/env bash
out=\${!#}
case \$(cat "$tmp/fake/mode"):\$out in
fail:*.partial.*|kill:*/.d.mkv.partial.*) ;;
*) exec "$bin/ffmpeg" "\$@" ;;
esac
"$bin/ffmpeg" "\$@" || exit
size=\$(stat -c %s "\$out")
truncate -s \$((size / 2)) "\$out"
case \$(cat "$tmp/fake/mode") in
kill) kill -KILL \$PPID; sleep 1 ;;
*)    echo "fake ffmpeg: disk full" >&2; exit 1 ;;
esac
END
chmod +x "$tmp/fake/ffmpeg"
cp "$tmp/in/a.mkv" "$tmp/in/d.mkv" "$tmp/kin/"
md5_d=$(md5sum <"$tmp/kin/d.mkv")
echo fail >"$tmp/fake/mode"
"$ROOT/tools/cspfix-batch" -j2 --bindir "$tmp/fake" "$tmp/kin" "$tmp/kout" >"$tmp/fail.txt" 2>&1
rc=$?
[ $rc = 1 ] && [ -z "$(ls -A "$tmp/kout")" ] && grep -q "^  a.mkv: ffmpeg: fake ffmpeg: disk full" "$tmp/fail.txt" &&
    grep -q "^cspfix-batch: 2 files: 0 converted, 0 skipped, 2 failed" "$tmp/fail.txt" && ok ||
    fail "failed jobs: exit $rc, left $(ls -A "$tmp/kout"): $(cat "$tmp/fail.txt")"
echo kill >"$tmp/fake/mode"
"$ROOT/tools/cspfix-batch" -j2 --bindir "$tmp/fake" "$tmp/kin" "$tmp/kout" >"$tmp/kill.txt" 2>&1
rc=$?
[ $rc = 1 ] && [ -s "$tmp/kout/a.mkv" ] && [ ! -e "$tmp/kout/d.mkv" ] &&
    grep -q "^cspfix-batch: only 1 of 2 jobs reported" "$tmp/kill.txt" && ok ||
    fail "killed job: exit $rc, outputs $(ls -A "$tmp/kout" 2>&1): $(cat "$tmp/kill.txt")"
[ -n "$(find "$tmp/kout" -name '.d.mkv.partial.*')" ] && ok || fail "killed job: no .partial file (the fake did not run?)"
[ "$(md5sum <"$tmp/kin/d.mkv")" = "$md5_d" ] && ok || fail "killed job: input changed"
# the re-run skips the finished file and redoes the other
"$ROOT/tools/cspfix-batch" -j2 --bindir "$bin" "$tmp/kin" "$tmp/kout" >"$tmp/rerun.txt" 2>&1
rc=$?
[ $rc = 0 ] && grep -q "^cspfix-batch: 2 files: 1 converted, 1 skipped, 0 failed" "$tmp/rerun.txt" &&
    grep -q "^  a.mkv: done: a.mkv exists" "$tmp/rerun.txt" &&
    [ "$(ls -A "$tmp/kout" | LC_ALL=C sort | tr '\n' ' ')" = "a.mkv d.mkv " ] &&
    [ "$(tags "$tmp/kout/d.mkv" | cut -d, -f2-)" = bt709,bt709,bt709 ] && ok ||
    fail "re-run: exit $rc, $(ls -A "$tmp/kout" | tr '\n' ' '): $(cat "$tmp/rerun.txt")"

# the pixel format follows format= in --options, and an encoder that cannot
# take it fails the job instead of a silent conversion; --container chooses
"$ROOT/tools/cspfix-batch" -j2 --bindir "$bin" --options format=yuv420p10 "$tmp/kin" "$tmp/p10" >"$tmp/p10.txt" 2>&1
rc=$?
[ $rc = 0 ] && [ "$(probe -show_entries stream=pix_fmt -of csv=p=0 "$tmp/p10/d.mkv")" = yuv420p10le ] && ok ||
    fail "format=yuv420p10: exit $rc: $(cat "$tmp/p10.txt")"
"$ROOT/tools/cspfix-batch" -j2 --bindir "$bin" --codec mpeg4 --options format=yuv420p10 "$tmp/kin" "$tmp/p10m" \
    >"$tmp/p10m.txt" 2>&1
rc=$?
[ $rc = 1 ] && grep -q "^  a.mkv: output pixel format yuv420p, not yuv420p10 (the encoder mpeg4 does not take it)" "$tmp/p10m.txt" &&
    [ -z "$(ls -A "$tmp/p10m")" ] && ok || fail "format=yuv420p10 into mpeg4: exit $rc: $(cat "$tmp/p10m.txt")"
"$ROOT/tools/cspfix-batch" -j2 --bindir "$bin" --codec mpeg4 --container mkv "$tmp/mp4" "$tmp/cont" >"$tmp/cont.txt" 2>&1
rc=$?
[ $rc = 0 ] && [ "$(ls -A "$tmp/cont")" = m.mkv ] && [ "$(count "$tmp/cont/m.mkv" audio)" = 2 ] && ok ||
    fail "--container mkv: exit $rc, $(ls -A "$tmp/cont"): $(cat "$tmp/cont.txt")"

# SIGTERM to the batch while a job runs: the job stops, nothing is left. The fake
# ffmpeg converts, then sleeps; like ffmpeg itself it stops on TERM or INT, taking its
# child with it (else the real ffmpeg would go on writing after the job's cleanup)
cat >"$tmp/fake/ffmpeg" <<END
#!/usr/bin/env bash
out=\${!#}
case \$out in *.partial.*) ;; *) exec "$bin/ffmpeg" "\$@" ;; esac
trap 'kill \$child 2>/dev/null; wait \$child; exit 143' TERM INT
"$bin/ffmpeg" "\$@" & child=\$!
wait \$child || exit \$?
exec -a "$tmp/fake/ffmpeg (sleeping)" sleep 30
END
"$ROOT/tools/cspfix-batch" -j2 --bindir "$tmp/fake" "$tmp/kin" "$tmp/tout" >"$tmp/term.txt" 2>&1 &
bpid=$!
for _ in $(seq 50); do [ -n "$(find "$tmp/tout" -name '.*.partial.mkv' 2>/dev/null)" ] && break; sleep 0.1; done
kill -TERM $bpid
wait $bpid
rc=$?
sleep 0.5
[ $rc != 0 ] && [ -z "$(ls -A "$tmp/tout" 2>/dev/null)" ] && ! pgrep -f "$tmp/fake/ffmpeg" >/dev/null && ok ||
    fail "SIGTERM: exit $rc, left $(ls -A "$tmp/tout" 2>&1), fake ffmpeg running: $(pgrep -f "$tmp/fake/ffmpeg" | tr '\n' ' ')"

# ---- --dry-run: tags and plan or reason, nothing written ----------------------------
"$ROOT/tools/cspfix-batch" -j2 --dry-run --bindir "$bin" --report "$tmp/res/dry.json" "$tmp/in" "$tmp/dry/out" \
    >"$tmp/dry.txt" 2>&1
rc=$?
[ $rc = 0 ] && [ ! -e "$tmp/dry" ] && ok || fail "--dry-run: exit $rc, $(ls -R "$tmp/dry" 2>&1)"
grep -q "^\[[0-9]/5\] planned sub/c.mkv: would write sub/c.mkv" "$tmp/dry.txt" &&
    grep -q "^    Plan yuv420p bt470bg/smpte170m/bt470bg/tv -> yuv420p bt709/bt709/bt709/tv" "$tmp/dry.txt" &&
    grep -q "^\[[0-9]/5\] skipped b.mkv: already bt709" "$tmp/dry.txt" &&
    grep -q "^cspfix-batch: 5 files: 3 to convert, 2 skipped, 0 failed (dry run, nothing written)" "$tmp/dry.txt" && ok ||
    fail "--dry-run output: $(cat "$tmp/dry.txt")"
python3 -c 'import json, sys; r = json.load(open(sys.argv[1])); assert r["dry_run"] and r["planned"] == 3, r' \
    "$tmp/res/dry.json" && ok || fail "--dry-run report: $(cat "$tmp/res/dry.json")"
# the rich file: both video streams planned, the cover art not
"$ROOT/tools/cspfix-batch" --dry-run --bindir "$bin" "$tmp/rich" "$tmp/dry2" >"$tmp/dry2.txt" 2>&1
[ "$(grep -c '^    Plan ' "$tmp/dry2.txt")" = 2 ] && grep -q "1 cover(s) copied" "$tmp/dry2.txt" &&
    [ ! -e "$tmp/dry2" ] && ok || fail "--dry-run of two video streams: $(cat "$tmp/dry2.txt")"

echo "batch: $passed passed, $failed failed"
[ $failed = 0 ]
