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

# Usage: tools/load-test.sh FFMPEG [SECONDS [WORKDIR]]
#
# Load test (make load-test): 4 ffmpeg processes at once, each converting 4K
# frames (a looped raw frame) with cspfix and 2 slice threads for SECONDS
# (default 60), then stopped with SIGINT.  Fails if a process dies or logs an
# error, or if its resident memory grows over the second half of the run by more
# than one input frame plus 8 MiB (ffmpeg's queues between demuxer, decoder and
# filter fill by whole frames; a per-frame leak would grow without bound).
# Prints frames, fps, RSS at half time / at the end, the peak (VmHWM) and the RSS
# series (every 5 s) per process.

set -euo pipefail
ff=$1 secs=${2:-60} dir=${3:-$(mktemp -d /tmp/cspfix-load-XXXX)}
mkdir -p "$dir"
S=3840x2160

# sources: one 4K frame each, 10-bit and 8-bit
[ -s "$dir/src10.yuv" ] || "$ff" -nostdin -v error -f lavfi -i "testsrc2=s=$S:d=0.04" \
    -frames:v 1 -pix_fmt yuv420p10le -f rawvideo -y "$dir/src10.yuv"
[ -s "$dir/src8.yuv" ] || "$ff" -nostdin -v error -f lavfi -i "testsrc2=s=$S:d=0.04" \
    -frames:v 1 -pix_fmt yuv420p -f rawvideo -y "$dir/src8.yuv"

pq="color_primaries=bt2020:color_trc=smpte2084:colorspace=bt2020nc:range=tv"
sd="color_primaries=smpte170m:color_trc=smpte170m:colorspace=smpte170m:range=tv"
jobs=(
    "yuv420p10le src10.yuv setparams=$pq,cspfix=all=bt709:format=yuv420p"
    "yuv420p src8.yuv setparams=$sd,cspfix=all=bt709"
    "yuv420p10le src10.yuv setparams=$pq,cspfix=range=pc:dither=ed"
    "yuv420p src8.yuv setparams=$sd,cspfix=all=bt2020:format=p010le"
)
pids=()
for i in "${!jobs[@]}"; do
    read -r fmt src vf <<<"${jobs[$i]}"
    "$ff" -nostdin -hide_banner -v error -stream_loop -1 -f rawvideo -pix_fmt "$fmt" -s $S \
        -framerate 25 -i "$dir/$src" -vf "$vf" -filter_threads 2 \
        -progress "$dir/progress$i.txt" -f null - 2>"$dir/err$i.log" &
    pids+=($!)
done

rss() { awk '/^VmRSS/ { print $2 }' "/proc/$1/status" 2>/dev/null || echo 0; }
hwm() { awk '/^VmHWM/ { print $2 }' "/proc/$1/status" 2>/dev/null || echo 0; }
declare -a rsshalf rssend peak series
t0=$SECONDS
while [ $((SECONDS - t0)) -lt "$secs" ]; do
    sleep 1
    t=$((SECONDS - t0))
    for i in "${!pids[@]}"; do
        p=${pids[$i]}
        [ -d /proc/$p ] || continue
        r=$(rss "$p")
        [ $((2 * t)) -le "$secs" ] && rsshalf[$i]=$r
        rssend[$i]=$r
        peak[$i]=$(hwm "$p")
        [ $((t % 5)) = 0 ] && series[$i]+=" $((r / 1024))"
    done
done
fail=0
for i in "${!pids[@]}"; do
    p=${pids[$i]}
    alive=1
    [ -d /proc/$p ] || alive=0
    kill -INT "$p" 2>/dev/null || true
    rc=0
    wait "$p" || rc=$?
    frames=$(awk -F= '$1 == "frame" { f = $2 } END { print f + 0 }' "$dir/progress$i.txt")
    rh=${rsshalf[$i]:-0} re=${rssend[$i]:-0} pk=${peak[$i]:-0}
    grow=$((re - rh))
    # one input frame in KiB: 4K 4:2:0, 1 or 2 bytes per sample
    case ${jobs[$i]%% *} in *10le) fk=$((3840 * 2160 * 3 / 1024)) ;; *) fk=$((3840 * 2160 * 3 / 2 / 1024)) ;; esac
    status=ok
    if [ $alive = 0 ]; then status="died early (exit $rc)"
    elif [ $rc != 0 ] && [ $rc != 255 ]; then status="exit $rc"
    elif [ -s "$dir/err$i.log" ]; then status="errors: $(head -c 200 "$dir/err$i.log")"
    elif [ $grow -gt $((fk + 8192)) ]; then status="memory grew by $grow KiB in the second half"
    fi
    [ "$status" = ok ] || fail=1
    printf 'process %d: %s\n  %d frames, %.1f fps; RSS %d MiB at %d s, %d MiB at %d s, peak %d MiB; RSS every 5 s (MiB):%s: %s\n' \
        $((i + 1)) "${jobs[$i]##* }" "$frames" "$(echo "$frames $secs" | awk '{ print $1 / $2 }')" \
        $((rh / 1024)) $((secs / 2)) $((re / 1024)) "$secs" $((pk / 1024)) "${series[$i]}" "$status"
done
[ $fail = 0 ] && echo "load-test: 4 processes, $secs s: no failure, memory flat" ||
    { echo "load-test: FAILED"; exit 1; }
