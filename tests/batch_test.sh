#!/usr/bin/env bash
# tools/cspfix-batch on a folder of generated clips, -j2, one of them broken;
# then over ssh, with a private sshd on 127.0.0.1 as a second host (skipped,
# with a message, if sshd cannot start there).
# Usage: tests/batch_test.sh BINDIR
# CSPFIX_BATCH=/path/to/cspfix-batch runs the tests on another version of it;
# CSPFIX_TEST_SSHD=/path/to/sshd another sshd (/bin/false: the skip).
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
batch=${CSPFIX_BATCH:-$ROOT/tools/cspfix-batch}
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

"$batch" -j2 --bindir "$bin" --target bt709 "$tmp/in" "$tmp/out" \
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
"$batch" -j2 --sshlogin 2/: --bindir "$bin" --target bt709 --options range=pc --codec rawvideo \
    "$tmp/in" "$tmp/out2" >"$tmp/out2.txt" 2>&1
rc=$?
[ $rc = 0 ] && ok || fail "--sshlogin 2/: run: exit $rc: $(cat "$tmp/out2.txt")"
grep -q "^cspfix-batch: 5 files: 4 converted, 1 skipped, 0 failed" "$tmp/out2.txt" && ok ||
    fail "--sshlogin summary: $(grep '^cspfix-batch: 5' "$tmp/out2.txt")"
[ "$(tags "$tmp/out2/b.mkv")" = "pc,bt709,bt709,bt709" ] && ok || fail "range=pc not applied: $(tags "$tmp/out2/b.mkv")"
# range=pc into ffv1 (limited range only) is reported as failed, not silently tv
"$batch" -j2 --bindir "$bin" --options range=pc "$tmp/in" "$tmp/out3" >"$tmp/out3.txt" 2>&1
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

"$batch" -j2 --bindir "$bin" --report "$tmp/res/report.json" "$tmp/rich" "$tmp/rich.out" \
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
"$batch" -j2 --bindir "$bin" --codec mpeg4 --codec-opts '-q:v 4 -g 12' \
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
"$batch" -j2 --bindir "$bin" --codec rawvideo "$tmp/mp4" "$tmp/mp4.mkv" >"$tmp/mp4mkv.txt" 2>&1
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
"$batch" -j2 --bindir "$tmp/fake" "$tmp/kin" "$tmp/kout" >"$tmp/fail.txt" 2>&1
rc=$?
[ $rc = 1 ] && [ -z "$(ls -A "$tmp/kout")" ] && grep -q "^  a.mkv: ffmpeg: fake ffmpeg: disk full" "$tmp/fail.txt" &&
    grep -q "^cspfix-batch: 2 files: 0 converted, 0 skipped, 2 failed" "$tmp/fail.txt" && ok ||
    fail "failed jobs: exit $rc, left $(ls -A "$tmp/kout"): $(cat "$tmp/fail.txt")"
echo kill >"$tmp/fake/mode"
"$batch" -j2 --bindir "$tmp/fake" "$tmp/kin" "$tmp/kout" >"$tmp/kill.txt" 2>&1
rc=$?
# (the killed job is a failed file, with the reason: the summary adds up)
[ $rc = 1 ] && [ -s "$tmp/kout/a.mkv" ] && [ ! -e "$tmp/kout/d.mkv" ] &&
    grep -q "^cspfix-batch: 2 files: 1 converted, 0 skipped, 1 failed" "$tmp/kill.txt" &&
    grep -q "^  d.mkv: no result: killed by signal 9 on this machine" "$tmp/kill.txt" && ok ||
    fail "killed job: exit $rc, outputs $(ls -A "$tmp/kout" 2>&1): $(cat "$tmp/kill.txt")"
[ -n "$(find "$tmp/kout" -name '.d.mkv.partial.*')" ] && ok || fail "killed job: no .partial file (the fake did not run?)"
[ "$(md5sum <"$tmp/kin/d.mkv")" = "$md5_d" ] && ok || fail "killed job: input changed"
# the re-run skips the finished file and redoes the other
"$batch" -j2 --bindir "$bin" "$tmp/kin" "$tmp/kout" >"$tmp/rerun.txt" 2>&1
rc=$?
[ $rc = 0 ] && grep -q "^cspfix-batch: 2 files: 1 converted, 1 skipped, 0 failed" "$tmp/rerun.txt" &&
    grep -q "^  a.mkv: done: a.mkv exists" "$tmp/rerun.txt" &&
    [ "$(ls -A "$tmp/kout" | LC_ALL=C sort | tr '\n' ' ')" = "a.mkv d.mkv " ] &&
    [ "$(tags "$tmp/kout/d.mkv" | cut -d, -f2-)" = bt709,bt709,bt709 ] && ok ||
    fail "re-run: exit $rc, $(ls -A "$tmp/kout" | tr '\n' ' '): $(cat "$tmp/rerun.txt")"

# the pixel format follows format= in --options, and an encoder that cannot
# take it fails the job instead of a silent conversion; --container chooses
"$batch" -j2 --bindir "$bin" --options format=yuv420p10 "$tmp/kin" "$tmp/p10" >"$tmp/p10.txt" 2>&1
rc=$?
[ $rc = 0 ] && [ "$(probe -show_entries stream=pix_fmt -of csv=p=0 "$tmp/p10/d.mkv")" = yuv420p10le ] && ok ||
    fail "format=yuv420p10: exit $rc: $(cat "$tmp/p10.txt")"
"$batch" -j2 --bindir "$bin" --codec mpeg4 --options format=yuv420p10 "$tmp/kin" "$tmp/p10m" \
    >"$tmp/p10m.txt" 2>&1
rc=$?
[ $rc = 1 ] && grep -q "^  a.mkv: output pixel format yuv420p, not yuv420p10 (the encoder mpeg4 does not take it)" "$tmp/p10m.txt" &&
    [ -z "$(ls -A "$tmp/p10m")" ] && ok || fail "format=yuv420p10 into mpeg4: exit $rc: $(cat "$tmp/p10m.txt")"
"$batch" -j2 --bindir "$bin" --codec mpeg4 --container mkv "$tmp/mp4" "$tmp/cont" >"$tmp/cont.txt" 2>&1
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
"$batch" -j2 --bindir "$tmp/fake" "$tmp/kin" "$tmp/tout" >"$tmp/term.txt" 2>&1 &
bpid=$!
for _ in $(seq 50); do [ -n "$(find "$tmp/tout" -name '.*.partial.mkv' 2>/dev/null)" ] && break; sleep 0.1; done
kill -TERM $bpid
wait $bpid
rc=$?
sleep 0.5
[ $rc != 0 ] && [ -z "$(ls -A "$tmp/tout" 2>/dev/null)" ] && ! pgrep -f "$tmp/fake/ffmpeg" >/dev/null && ok ||
    fail "SIGTERM: exit $rc, left $(ls -A "$tmp/tout" 2>&1), fake ffmpeg running: $(pgrep -f "$tmp/fake/ffmpeg" | tr '\n' ' ')"

# ---- --dry-run: tags and plan or reason, nothing written ----------------------------
"$batch" -j2 --dry-run --bindir "$bin" --report "$tmp/res/dry.json" "$tmp/in" "$tmp/dry/out" \
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
"$batch" --dry-run --bindir "$bin" "$tmp/rich" "$tmp/dry2" >"$tmp/dry2.txt" 2>&1
[ "$(grep -c '^    Plan ' "$tmp/dry2.txt")" = 2 ] && grep -q "1 cover(s) copied" "$tmp/dry2.txt" &&
    [ ! -e "$tmp/dry2" ] && ok || fail "--dry-run of two video streams: $(cat "$tmp/dry2.txt")"

# ---- re-runs redo outputs made with other settings (issue 28, item 11) ------------
ptm() { # FILE -> primaries/transfer/matrix of its first video stream
    local p t m
    p=$(probe -select_streams v:0 -show_entries stream=color_primaries -of default=nw=1:nk=1 "$1" | head -n 1)
    t=$(probe -select_streams v:0 -show_entries stream=color_transfer -of default=nw=1:nk=1 "$1" | head -n 1)
    m=$(probe -select_streams v:0 -show_entries stream=color_space -of default=nw=1:nk=1 "$1" | head -n 1)
    echo "$p/$t/$m"
}
mkdir -p "$tmp/rin"
cp "$tmp/in/a.mkv" "$tmp/rin/"
"$batch" -j2 --bindir "$bin" --target bt709 "$tmp/rin" "$tmp/rout" >"$tmp/r1.txt" 2>&1
"$batch" -j2 --bindir "$bin" --target bt2020 "$tmp/rin" "$tmp/rout" >"$tmp/r2.txt" 2>&1
rc=$?
[ $rc = 0 ] && grep -q "^cspfix-batch: 1 files: 1 converted, 0 skipped, 0 failed" "$tmp/r2.txt" &&
    grep -q "redone: a.mkv was made with target=bt709; options=; codec=ffv1; codec_opts=" "$tmp/r2.txt" &&
    [ "$(ptm "$tmp/rout/a.mkv")" = bt2020/bt2020-10/bt2020nc ] && ok ||
    fail "re-run with --target bt2020 after bt709: exit $rc, output $(ptm "$tmp/rout/a.mkv"): $(cat "$tmp/r2.txt")"
"$batch" -j2 --bindir "$bin" --target bt2020 "$tmp/rin" "$tmp/rout" >"$tmp/r3.txt" 2>&1
rc=$?
[ $rc = 0 ] && grep -q "^  a.mkv: done: a.mkv exists (same settings)" "$tmp/r3.txt" && ok ||
    fail "re-run with the same settings: exit $rc: $(cat "$tmp/r3.txt")"
"$batch" -j2 --bindir "$bin" --target bt2020 --force "$tmp/rin" "$tmp/rout" >"$tmp/r4.txt" 2>&1
rc=$?
[ $rc = 0 ] && grep -q "^cspfix-batch: 1 files: 1 converted, 0 skipped, 0 failed" "$tmp/r4.txt" && ok ||
    fail "re-run with --force: exit $rc: $(cat "$tmp/r4.txt")"
# the settings as the outputs keep them: Matroska a tag, mp4 the encoding tool
[ "$(probe -show_entries format_tags=CSPFIX_SETTINGS -of default=nw=1:nk=1 "$tmp/rout/a.mkv")" = \
  "target=bt2020; options=; codec=ffv1; codec_opts=" ] &&
[ "$(probe -show_entries format_tags=encoder -of default=nw=1:nk=1 "$tmp/mp4.out/m.mp4")" = \
  "cspfix-batch target=bt709; options=; codec=mpeg4; codec_opts=-q:v 4 -g 12" ] && ok ||
    fail "settings tags: $(probe -show_entries format_tags -of compact "$tmp/rout/a.mkv" 2>&1) $(probe -show_entries format_tags -of compact "$tmp/mp4.out/m.mp4" 2>&1)"
"$batch" -j2 --bindir "$bin" --codec mpeg4 --codec-opts '-q:v 4 -g 12' "$tmp/mp4" "$tmp/mp4.out" >"$tmp/r5.txt" 2>&1
rc=$?
[ $rc = 0 ] && grep -q "^  m.mp4: done: m.mp4 exists (same settings)" "$tmp/r5.txt" && ok ||
    fail "mp4 re-run with the same settings: exit $rc: $(cat "$tmp/r5.txt")"

# ---- HDR targets, and tone mapping said (item 12) ---------------------------------
mkdir -p "$tmp/hin"
"$bin/ffmpeg" -nostdin -v error -y -f lavfi \
    -i "testsrc2=s=32x24:d=0.12,format=yuv420p10,setparams=color_primaries=bt2020:color_trc=smpte2084:colorspace=bt2020nc:range=tv" \
    -c:v ffv1 "$tmp/hin/hdr10.mkv"
"$batch" -j2 --bindir "$bin" --target bt709 "$tmp/hin" "$tmp/hout" >"$tmp/h1.txt" 2>&1
rc=$?
[ $rc = 0 ] && grep -q "^\[1/1\] ok      hdr10.mkv: bt2020,smpte2084,bt2020nc,tv -> bt709,bt709,bt709,tv, tone map PQ -> SDR " "$tmp/h1.txt" &&
    ok || fail "HDR10 to bt709: exit $rc, no 'tone map' in the line: $(cat "$tmp/h1.txt")"
# PQ tone mapped with the measured light and look-ahead (issue 30): said, every frame out
nf=$(probe -count_frames -show_entries stream=nb_read_frames -of default=nw=1:nk=1 "$tmp/hout/hdr10.mkv")
grep -q "tone map PQ -> SDR (measured light, look-ahead 12 frames)" "$tmp/h1.txt" && [ "$nf" = 3 ] &&
    ok || fail "HDR10 to bt709: measured light not said, or $nf of 3 frames: $(cat "$tmp/h1.txt")"
"$batch" --dry-run --bindir "$bin" --target bt2020 "$tmp/hin" "$tmp/hdry" >"$tmp/h2.txt" 2>&1
grep -q "^\[1/1\] planned hdr10.mkv: would write hdr10.mkv with ffv1, tone map PQ -> SDR" "$tmp/h2.txt" && ok ||
    fail "--dry-run of HDR10 to bt2020: $(cat "$tmp/h2.txt")"
"$batch" -j2 --bindir "$bin" --target bt2100-pq "$tmp/rin" "$tmp/hpq" >"$tmp/h3.txt" 2>&1
rc=$?
[ $rc = 0 ] && [ "$(ptm "$tmp/hpq/a.mkv" 2>/dev/null)" = bt2020/smpte2084/bt2020nc ] &&
    [ "$(probe -show_entries stream=pix_fmt -of default=nw=1:nk=1 "$tmp/hpq/a.mkv")" = yuv420p10le ] &&
    grep -q "^\[1/1\] ok      a.mkv: .*, SDR -> PQ " "$tmp/h3.txt" && ok ||
    fail "--target bt2100-pq: exit $rc, output $(ptm "$tmp/hpq/a.mkv" 2>&1): $(cat "$tmp/h3.txt")"
"$batch" -j2 --bindir "$bin" --target bt2100-hlg "$tmp/hin" "$tmp/hhlg" >"$tmp/h4.txt" 2>&1
rc=$?
[ $rc = 0 ] && [ "$(ptm "$tmp/hhlg/hdr10.mkv" 2>/dev/null)" = bt2020/arib-std-b67/bt2020nc ] &&
    grep -q "^\[1/1\] ok      hdr10.mkv: .*, PQ -> HLG " "$tmp/h4.txt" && ok ||
    fail "--target bt2100-hlg: exit $rc, output $(ptm "$tmp/hhlg/hdr10.mkv" 2>&1): $(cat "$tmp/h4.txt")"

# ---- the report in UTF-8 whatever the names, the jobs said, the ETA (item 14) -----
mkdir -p "$tmp/uin"
cp "$tmp/in/a.mkv" "$tmp/uin/"$'caf\xe9.mkv'              # Latin-1, not UTF-8
cp "$tmp/in/d.mkv" "$tmp/uin/"$'\xce\xbb\x01.mkv'         # UTF-8 lambda, a control character
cp "$tmp/in/a.mkv" "$tmp/uin/"$'new\nline.mkv'            # no job can take these two: failed,
cp "$tmp/in/a.mkv" "$tmp/uin/"$'a\ttab.mkv'               # with the reason, counted, reported
"$batch" -j3 --bindir "$bin" --report "$tmp/res/u.json" "$tmp/uin" "$tmp/uout" >"$tmp/u.txt" 2>&1
rc=$?
[ $rc = 1 ] && python3 - "$tmp/res/u.json" <<'END' && ok || fail "report of non-UTF-8 names: exit $rc: $(cat "$tmp/u.txt") $(cat -v "$tmp/res/u.json")"
import json, sys
r = json.load(open(sys.argv[1], encoding="utf-8"))
f = {x["file"]: x for x in r["files"]}
assert set(f) == {"caf\ufffd.mkv", "\u03bb\u0001.mkv", "new\nline.mkv", "a\ttab.mkv"}, f
assert f["new\nline.mkv"]["status"] == f["a\ttab.mkv"]["status"] == "failed", f
assert "newline or a tab" in f["a\ttab.mkv"]["error"] and r["failed"] == 2, (f, r)
assert f["caf\ufffd.mkv"]["file_bytes"] == "caf\\xE9.mkv" and f["caf\ufffd.mkv"]["status"] == "ok", f
assert "file_bytes" not in f["\u03bb\u0001.mkv"], f
assert r["converted"] == 2 and r["jobs"] == 2, r
END
# -j3 with two files: two jobs run, and the first line says so
grep -q "^cspfix-batch: 4 files, target bt709, 2 jobs at a time$" "$tmp/u.txt" && ok ||
    fail "jobs in the first line: $(head -n 1 "$tmp/u.txt")"
grep -q "^cspfix-batch: 4 files: 2 converted, 0 skipped, 2 failed" "$tmp/u.txt" &&
    grep -q '^  new line.mkv: the name has a newline or a tab' "$tmp/u.txt" && ok ||
    fail "names with a newline or tab not counted as failed: $(cat "$tmp/u.txt")"
# the ETA by the bytes converted: a big file skipped first is no work done. A
# fake ffmpeg takes 0.7 s more per conversion; after b.mkv the ETA is that of
# c.mkv, the same time (the old ETA counted a-big.txt as work done: 0:00:00)
mkdir -p "$tmp/ein" "$tmp/slow"
truncate -s 200M "$tmp/ein/a-big.txt"
cp "$tmp/in/a.mkv" "$tmp/ein/b.mkv"
cp "$tmp/in/a.mkv" "$tmp/ein/c.mkv"
ln -s "$bin/ffprobe" "$tmp/slow/ffprobe"
cat >"$tmp/slow/ffmpeg" <<END
#!/usr/bin/env bash
case \${!#} in *.partial.*) sleep 0.7 ;; esac
exec "$bin/ffmpeg" "\$@"
END
chmod +x "$tmp/slow/ffmpeg"
"$batch" -j1 --bindir "$tmp/slow" "$tmp/ein" "$tmp/eout" >"$tmp/e.txt" 2>&1
rc=$?
[ $rc = 0 ] && grep -q "^\[2/3\] ok      b.mkv: .*, ETA 0:00:0[1-9])$" "$tmp/e.txt" && ok ||
    fail "ETA after a skipped big file: exit $rc: $(grep '^\[' "$tmp/e.txt")"

# ---- over ssh: a private sshd on 127.0.0.1 as a second host (items 10, 13) --------
# Nothing in ~/.ssh or /etc/ssh is used: the test's own host and client keys,
# sshd_config, ssh_config and known_hosts, through PARALLEL_SSH (an ssh that
# reads only the test's config).  Hosts, every one 127.0.0.1: "up" (the
# sshd), "refused" (a port where nothing listens), "badkey" (the sshd under a
# host key alias known_hosts does not have: host key verification fails), and
# "flaky" (the sshd, but after its first login every connection fails, as a
# host that goes down during the batch)
sshd_pid='' made_run=0
ssh_cleanup() {
    [ -z "$sshd_pid" ] || { kill "$sshd_pid" 2>/dev/null; wait "$sshd_pid" 2>/dev/null; }
    [ $made_run = 0 ] || rmdir /run/sshd 2>/dev/null
    rm -rf "$tmp"
}
trap ssh_cleanup EXIT
trap 'exit 143' TERM
trap 'exit 130' INT
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
ssh_start() { # -> 0 when the sshd answers on 127.0.0.1, else 1 and the reason in why
    local sshd i port
    sshd=${CSPFIX_TEST_SSHD:-$(command -v sshd || echo /usr/sbin/sshd)}
    [ -x "$sshd" ] || { why="no sshd (tools/deps.sh installs openssh-server)"; return 1; }
    command -v ssh >/dev/null && command -v ssh-keygen >/dev/null || { why="no ssh client"; return 1; }
    if [ ! -d /run/sshd ]; then   # sshd's privilege separation directory
        [ "$(id -u)" = 0 ] && mkdir -m 0755 /run/sshd 2>/dev/null && made_run=1 ||
            { why="no /run/sshd (and cannot create it)"; return 1; }
    fi
    mkdir -p "$tmp/ssh"
    ssh-keygen -q -t ed25519 -N '' -C cspfix-test-host -f "$tmp/ssh/host_key" &&
        ssh-keygen -q -t ed25519 -N '' -C cspfix-test-client -f "$tmp/ssh/client_key" || { why="ssh-keygen failed"; return 1; }
    cp "$tmp/ssh/client_key.pub" "$tmp/ssh/authorized_keys"
    for i in 1 2 3; do
        port=$(free_port) || { why="no free port (python3)"; return 1; }
        cat >"$tmp/ssh/sshd_config" <<END
ListenAddress 127.0.0.1:$port
HostKey $tmp/ssh/host_key
PidFile none
AuthorizedKeysFile $tmp/ssh/authorized_keys
StrictModes no
UsePAM no
PubkeyAuthentication yes
PasswordAuthentication no
KbdInteractiveAuthentication no
PermitRootLogin prohibit-password
AllowUsers $(id -un)
AllowTcpForwarding no
X11Forwarding no
PrintMotd no
MaxStartups 100
MaxSessions 100
END
        # in the foreground (-D) under timeout: gone in 10 minutes even if this
        # test is killed before its trap can stop it
        timeout 600 "$sshd" -D -e -f "$tmp/ssh/sshd_config" </dev/null >>"$tmp/ssh/sshd.log" 2>&1 &
        sshd_pid=$!
        printf '[127.0.0.1]:%s %s\n' "$port" "$(cut -d' ' -f1,2 "$tmp/ssh/host_key.pub")" >"$tmp/ssh/known_hosts"
        cat >"$tmp/ssh/ssh_config" <<END
Host up flaky badkey
  Port $port
Host badkey
  HostKeyAlias cspfix-test-unknown-key
Host refused
  Port $(free_port)
Host *
  HostName 127.0.0.1
  User $(id -un)
  IdentityFile $tmp/ssh/client_key
  IdentitiesOnly yes
  UserKnownHostsFile $tmp/ssh/known_hosts
  GlobalKnownHostsFile /dev/null
  StrictHostKeyChecking yes
  BatchMode yes
  ConnectTimeout 5
  ControlMaster no
  ControlPath none
  LogLevel ERROR
END
        cat >"$tmp/ssh/ssh" <<END
#!/bin/sh
# "flaky": its first login works (the preflight), the others fail
for a; do
    [ "\$a" = flaky ] || continue
    mkdir "$tmp/ssh/flaky.once" 2>/dev/null && break
    echo "ssh: connect to host flaky port $port: Connection reset by peer" >&2
    echo refused >>"$tmp/ssh/flaky.log"
    exit 255
done
exec ssh -F "$tmp/ssh/ssh_config" "\$@"
END
        chmod +x "$tmp/ssh/ssh"
        for _ in $(seq 30); do
            timeout 10 "$tmp/ssh/ssh" up true 2>"$tmp/ssh/try.log" && return 0
            kill -0 "$sshd_pid" 2>/dev/null || break
            sleep 0.2
        done
        kill "$sshd_pid" 2>/dev/null; wait "$sshd_pid" 2>/dev/null; sshd_pid=
    done
    why="sshd on 127.0.0.1 did not answer: $(tail -n 2 "$tmp/ssh/sshd.log" "$tmp/ssh/try.log" 2>/dev/null | grep -v '^==>' | grep . | tr '\n' ' ')"
    return 1
}
why=
if ! ssh_start; then
    echo "SKIP: the tests over ssh: $why"
else
    export PARALLEL_SSH=$tmp/ssh/ssh
    # nine files (as in the issue), over this machine, the sshd, and three
    # hosts that fail: all nine converted, each host that failed named
    mkdir -p "$tmp/sin"
    for i in 1 2 3 4 5 6 7 8 9; do cp "$tmp/in/a.mkv" "$tmp/sin/f$i.mkv"; done
    "$batch" -j1 --bindir "$bin" --sshlogin : --sshlogin up --sshlogin refused --sshlogin badkey \
        --sshlogin flaky --report "$tmp/res/ssh.json" "$tmp/sin" "$tmp/sout" >"$tmp/s1.txt" 2>&1
    rc=$?
    sed 's/^/  | /' "$tmp/s1.txt"
    [ $rc = 0 ] && grep -q "^cspfix-batch: 9 files: 9 converted, 0 skipped, 0 failed" "$tmp/s1.txt" && ok ||
        fail "ssh: 9 files over 2 good and 3 bad hosts: exit $rc"
    grep -q "^cspfix-batch: host refused left out: ssh: connect to host 127.0.0.1 port [0-9]*: Connection refused" "$tmp/s1.txt" &&
        grep -q "^cspfix-batch: host badkey left out: Host key verification failed." "$tmp/s1.txt" && ok ||
        fail "ssh: the unreachable hosts not named"
    grep -q "^cspfix-batch: 9 files, target bt709, 3 jobs at a time: 1 on this machine, 1 on up, 1 on flaky" "$tmp/s1.txt" && ok ||
        fail "ssh: first line: $(grep '^cspfix-batch: 9 files,' "$tmp/s1.txt")"
    python3 - "$tmp/res/ssh.json" <<'END' && ok || fail "ssh: report: $(cat "$tmp/res/ssh.json")"
import json, sys
r = json.load(open(sys.argv[1], encoding="utf-8"))
f = r["files"]
assert len(f) == 9 and all(x["status"] == "ok" for x in f), f
hosts = {x["host"] for x in f}
assert "up" in hosts and ":" in hosts and "flaky" not in hosts, hosts
h = {x["sshlogin"]: x["status"] for x in r["hosts"]}
assert h == {":": "ok", "up": "ok", "refused": "left out", "badkey": "left out", "flaky": "ok"}, h
END
    # jobs were given to "flaky", which failed them: they were retried
    # elsewhere (above: all converted, none on flaky)
    [ -s "$tmp/ssh/flaky.log" ] && ok || fail "ssh: no job was tried on the flaky host"
    bad=
    for i in 1 2 3 4 5 6 7 8 9; do
        [ "$(ptm "$tmp/sout/f$i.mkv" 2>/dev/null)" = bt709/bt709/bt709 ] || bad+=" f$i.mkv"
    done
    [ -z "$bad" ] && ok || fail "ssh: not converted:$bad"
    # the first line's jobs are what runs: -j2 on two hosts, four files, a fake
    # ffmpeg that counts the conversions running at once (each waits up to 5 s
    # for the four to have started, so a busy machine does not fail it)
    mkdir -p "$tmp/conc/run" "$tmp/conc/done" "$tmp/cin"
    cp "$tmp/sin/f1.mkv" "$tmp/sin/f2.mkv" "$tmp/sin/f3.mkv" "$tmp/sin/f4.mkv" "$tmp/cin/"
    ln -s "$bin/ffprobe" "$tmp/conc/ffprobe"
    cat >"$tmp/conc/ffmpeg" <<END
#!/usr/bin/env bash
case \${!#} in *.partial.*) ;; *) exec "$bin/ffmpeg" "\$@" ;; esac
touch "$tmp/conc/run/\$\$"
for _ in {1..50}; do [ \$(ls "$tmp/conc/run" | wc -l) -ge 4 ] && break; sleep 0.1; done
echo \$((\$(ls "$tmp/conc/run" | wc -l) - \$(ls "$tmp/conc/done" | wc -l))) >>"$tmp/conc/counts"
"$bin/ffmpeg" "\$@"
rc=\$?
touch "$tmp/conc/done/\$\$"
exit \$rc
END
    chmod +x "$tmp/conc/ffmpeg"
    "$batch" -j2 --bindir "$tmp/conc" --sshlogin : --sshlogin up "$tmp/cin" "$tmp/cout" >"$tmp/s5.txt" 2>&1
    rc=$?
    most=$(sort -n "$tmp/conc/counts" 2>/dev/null | tail -n 1)
    [ $rc = 0 ] && [ "$most" = 4 ] &&
        grep -q "^cspfix-batch: 4 files, target bt709, 4 jobs at a time: 2 on this machine, 2 on up$" "$tmp/s5.txt" && ok ||
        fail "ssh: jobs said and run: exit $rc, ${most:-no} conversions at once: $(head -n 1 "$tmp/s5.txt")"

    # a host that fails every job: each file failed, with ssh's reason; exit 1
    rmdir "$tmp/ssh/flaky.once"
    rm -f "$tmp/ssh/flaky.log"
    "$batch" -j1 --bindir "$bin" --sshlogin flaky --report "$tmp/res/flaky.json" "$tmp/rin" "$tmp/fout" >"$tmp/s2.txt" 2>&1
    rc=$?
    [ $rc = 1 ] && grep -q "^cspfix-batch: 1 files: 0 converted, 0 skipped, 1 failed" "$tmp/s2.txt" &&
        grep -q "^  a.mkv: no result: ssh to flaky failed (ssh: connect to host flaky port [0-9]*: Connection reset by peer)" "$tmp/s2.txt" &&
        python3 -c 'import json, sys; r = json.load(open(sys.argv[1])); assert [f["status"] for f in r["files"]] == ["failed"], r' \
            "$tmp/res/flaky.json" && ok ||
        fail "ssh: a host failing every job: exit $rc: $(cat "$tmp/s2.txt")"

    # item 13: without --bindir the remote login's PATH has no ffmpeg (unless
    # this machine has one with cspfix there): the host is named and left out
    if "$tmp/ssh/ssh" up 'command -v ffprobe' >/dev/null 2>&1; then
        echo "SKIP: the ssh test of a host without ffmpeg: ffprobe is on the PATH of an ssh login here"
    else
        mkdir -p "$tmp/pin"
        cp "$tmp/sin/f1.mkv" "$tmp/sin/f2.mkv" "$tmp/sin/f3.mkv" "$tmp/sin/f4.mkv" "$tmp/pin/"
        PATH=$bin:$PATH "$batch" -j1 --sshlogin : --sshlogin up "$tmp/pin" "$tmp/pout" >"$tmp/s3.txt" 2>&1
        rc=$?
        [ $rc = 0 ] && grep -q "^cspfix-batch: host up left out: no ffmpeg (not on PATH .*; see --bindir)" "$tmp/s3.txt" &&
            grep -q "^cspfix-batch: 4 files: 4 converted, 0 skipped, 0 failed" "$tmp/s3.txt" && ok ||
            fail "ssh: a host without ffmpeg: exit $rc: $(cat "$tmp/s3.txt")"
        PATH=$bin:$PATH "$batch" -j1 --sshlogin up "$tmp/rin" "$tmp/pout2" >"$tmp/s4.txt" 2>&1
        rc=$?
        [ $rc = 1 ] && grep -q "^cspfix-batch: no usable host" "$tmp/s4.txt" && ok ||
            fail "ssh: the only host without ffmpeg: exit $rc: $(cat "$tmp/s4.txt")"
    fi
    unset PARALLEL_SSH
fi

echo "batch: $passed passed, $failed failed"
[ $failed = 0 ]
