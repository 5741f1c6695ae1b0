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

# Usage: tools/load-test.sh long|short|lsan FFMPEG SHIM_OR_- [SECONDS [WORKDIR]]
#
#   long   (make load-test) 4 ffmpeg processes at once, each converting 4K frames
#          (a looped raw frame) with cspfix and 2 slice threads for SECONDS
#          (default 60), then stopped with SIGINT.
#   short  (make check) 2 processes converting 960x540 for SECONDS (default 20),
#          then the same run again with a deliberate leak injected
#          (CSPFIX_LOAD_INJECT_LEAK=1: one malloc(64) per frame, see
#          tests/cspfix_alloc_shim.c); passes only if the first run passes and
#          the second fails, naming the leak.
#   lsan   FFMPEG is an ASan build (make ffmpeg-asan): every execution path of
#          cspfix (8-bit, 10-bit, PQ tone mapping, dither modes, mid-stream
#          description changes every 3 frames, sendcmd changes of cspfix's
#          options, 1..4 slice threads) over SECONDS*25 frames each, under
#          LeakSanitizer: any leak report fails.  SHIM is ignored (pass -).
#
# What counts as a leak (long and short): SHIM, a preloaded allocator wrapper,
# reports the process's live heap blocks and bytes every 0.25 s; the test reads
# them with the frame count (-progress) every 0.5 s.  After a warm-up (a quarter
# of the run and at least 25 frames: a 4K process at 0.5 fps fills its queues
# for 20 s) ffmpeg's buffer pools, thread pools and plans are built, so live
# blocks only move with the frames queued between demuxer, decoder, filter and
# muxer: they go up and down within a band whose width the run measures (max -
# min around the least-squares line).  A leak raises the band's floor with
# every frame.  A process fails if the floor of the last third of the samples
# is above the floor of the first third by more than that band plus 16 blocks
# and the least-squares slope of live blocks per frame is at least 0.5, or by
# more than the band plus 64 with a slope of at least 0.25 (one leaked block
# every 4 frames).  Live bytes are printed, not judged: every leaked byte is in
# a leaked block (but for a block grown by realloc), and bytes move by whole
# frames as the queues fill and drain (a run with ten frames more in flight
# from half-way on).  Also fails if a process dies or logs an error.  The
# smallest per-frame leak a run can see is (band + 16) / frames between its
# thirds; the short form fails if that is above 0.75 block/frame (too few frames
# to judge), the long form prints it (and passes a process with fewer than 8
# samples after the warm-up, saying it was not judged).  RSS is printed for
# information only.

set -euo pipefail
mode=$1 ff=$2 shim=$3
case $mode in long) secs=${4:-60} ;; short | lsan) secs=${4:-20} ;;
*) echo "usage: $0 long|short|lsan FFMPEG SHIM [SECONDS [WORKDIR]]" >&2; exit 2 ;; esac
dir=${5:-$(mktemp -d /tmp/cspfix-load-XXXX)}
mkdir -p "$dir"
[ "$mode" = lsan ] || [ -f "$shim" ] || { echo "load-test: allocation shim '$shim' not found" >&2; exit 2; }

pq="color_primaries=bt2020:color_trc=smpte2084:colorspace=bt2020nc:range=tv"
sd="color_primaries=smpte170m:color_trc=smpte170m:colorspace=smpte170m:range=tv"

# source frames, 10-bit and 8-bit, of size $1
sources() {
    [ -s "$dir/src10-$1.yuv" ] || "$ff" -nostdin -v error -f lavfi -i "testsrc2=s=$1:d=0.04" \
        -frames:v 1 -pix_fmt yuv420p10le -f rawvideo -y "$dir/src10-$1.yuv"
    [ -s "$dir/src8-$1.yuv" ] || "$ff" -nostdin -v error -f lavfi -i "testsrc2=s=$1:d=0.04" \
        -frames:v 1 -pix_fmt yuv420p -f rawvideo -y "$dir/src8-$1.yuv"
}

# analyse SERIES SECONDS MINRES: one line "verdict|figures" for one process.
# SERIES has lines "t frame blocks bytes"; MINRES: fail if the resolution (the
# smallest per-frame leak the run could see) is above it (0: only print it).
analyse() {
    awk -v secs="$2" -v minres="$3" '
    function lsq(xs, ys, n,   i, mx, my, sxy, sxx) {
        mx = my = 0
        for (i = 1; i <= n; i++) { mx += xs[i]; my += ys[i] }
        mx /= n; my /= n; sxy = sxx = 0
        for (i = 1; i <= n; i++) { sxy += (xs[i] - mx) * (ys[i] - my); sxx += (xs[i] - mx) ^ 2 }
        return sxx > 0 ? sxy / sxx : 0
    }
    { t = $1; if (t >= warm && $2 >= 25) { n++; T[n] = t; F[n] = $2; B[n] = $3; Y[n] = $4 } }
    BEGIN { warm = secs / 4; if (warm < 3) warm = 3 }
    END {
        if (n < 8) {
            # the short form must judge; the long form says so (a 4K process may
            # make 25 frames in a minute on a loaded machine)
            printf "%s|not judged: %d samples after the warm-up (%d s and 25 frames)\n", \
                (minres > 0 ? "FAIL: too few frames to judge" : "ok"), n, warm
            exit
        }
        k = int(n / 3)
        slope = lsq(F, B, n); yslope = lsq(F, Y, n)
        # band: how far live blocks (bytes) move around their trend line, i.e.
        # with the frames in flight; floors: the lowest of the first and last thirds
        for (i = 1; i <= n; i++) {
            r = B[i] - slope * F[i]; s = Y[i] - yslope * F[i]
            if (i == 1 || r < rlo) rlo = r; if (i == 1 || r > rhi) rhi = r
            if (i == 1 || s < slo) slo = s; if (i == 1 || s > shi) shi = s
        }
        band = int(rhi - rlo + 0.5); yband = shi - slo
        fa = B[1]; fyA = Y[1]; fc = B[n - k + 1]; fyC = Y[n - k + 1]; mfa = mfc = 0
        for (i = 1; i <= k; i++) { if (B[i] < fa) fa = B[i]; if (Y[i] < fyA) fyA = Y[i]; mfa += F[i] }
        for (i = n - k + 1; i <= n; i++) { if (B[i] < fc) fc = B[i]; if (Y[i] < fyC) fyC = Y[i]; mfc += F[i] }
        mfa /= k; mfc /= k; between = mfc - mfa
        tol = band + 16
        growth = fc - fa; ygrowth = fyC - fyA
        res = between > 0 ? tol / between : 1e9
        v = "ok"
        if ((growth > tol && slope >= 0.5) || (growth > band + 64 && slope >= 0.25))
            v = sprintf("FAIL: live heap blocks grow (a leak): floor +%d blocks over %d frames, %.2f blocks/frame (band %d)", growth, between, slope, band)
        else if (minres > 0 && res > minres)
            v = sprintf("FAIL: too few frames to judge (%d between the thirds: a leak below %.2f blocks/frame would not show)", between, res)
        printf "%s|slope %.3f blocks/frame, %.0f bytes/frame; floor %d -> %d blocks (band %d, tolerance %d), %.1f -> %.1f MiB; %d samples after %d s; resolution %.2f blocks/frame\n", \
            v, slope, yslope, fa, fc, band, tol, fyA / 1048576, fyC / 1048576, n, warm, res
    }' "$1"
}

# sampler FIFO SERIES STATS T0: reads ffmpeg's -progress from FIFO; at the end
# of each report (every 0.5 s) appends "t frame <the shim's stats line>" to SERIES
# (t in seconds since T0).  Builtins only: a loaded machine does not delay it.
sampler() {
    local l f=0 st t
    while IFS= read -r l; do
        case $l in
        frame=*) f=${l#frame=} ;;
        progress=continue)
            st=
            read -r st <"$3" 2>/dev/null || true
            [ -z "$st" ] && continue
            t=$(( (${EPOCHREALTIME/./} - ${4/./}) / 1000 ))
            printf '%d.%03d %s %s\n' $((t / 1000)) $((t % 1000)) "$f" "$st" >>"$2" ;;
        esac
    done <"$1"
}

# run_load TAG NPROC SIZE SECONDS INJECT MINRES: NPROC ffmpeg processes with the
# shim; prints one report per process; returns 1 if any process fails.
run_load() {
    local tag=$1 nproc=$2 S=$3 secs=$4 inject=$5 minres=$6
    sources "$S"
    local all=(
        "yuv420p10le src10 setparams=$pq,cspfix=all=bt709:format=yuv420p"
        "yuv420p src8 setparams=$sd,cspfix=all=bt709"
        "yuv420p10le src10 setparams=$pq,cspfix=range=pc:dither=ed"
        "yuv420p src8 setparams=$sd,cspfix=all=bt2020:format=p010le"
    )
    local jobs=("${all[@]:0:$nproc}") pids=() readers=() i p fmt src vf
    local t0=$EPOCHREALTIME
    for i in "${!jobs[@]}"; do
        read -r fmt src vf <<<"${jobs[$i]}"
        rm -f "$dir/$tag-stats$i" "$dir/$tag-progress$i"
        : >"$dir/$tag-series$i"
        mkfifo "$dir/$tag-progress$i"
        sampler "$dir/$tag-progress$i" "$dir/$tag-series$i" "$dir/$tag-stats$i" "$t0" &
        readers+=($!)
        CSPFIX_ALLOC_STATS="$dir/$tag-stats$i" CSPFIX_LOAD_INJECT_LEAK=$inject LD_PRELOAD="$shim" \
            "$ff" -nostdin -hide_banner -v error -stream_loop -1 -f rawvideo -pix_fmt "$fmt" -s "$S" \
            -framerate 25 -i "$dir/$src-$S.yuv" -vf "$vf" -filter_threads 2 -stats_period 0.5 \
            -progress "$dir/$tag-progress$i" -f null - 2>"$dir/$tag-err$i.log" &
        pids+=($!)
    done
    # RSS every 2 s, for information; builtins only, and the run ends at T0 + SECONDS
    # however late the loop wakes on a loaded machine
    declare -a rss
    local end=$(( ${t0/./} / 1000 + secs * 1000 )) now key val unit
    while :; do
        now=$(( ${EPOCHREALTIME/./} / 1000 ))
        [ $now -lt $end ] || break
        sleep "$(( (end - now) > 2000 ? 2 : 1 ))"
        for i in "${!pids[@]}"; do
            val=0
            while read -r key val unit; do [ "$key" = VmRSS: ] && break; val=0; done \
                <"/proc/${pids[$i]}/status" 2>/dev/null || true
            rss[$i]="${rss[$i]:-} $((val / 1024))"
        done
    done
    local fail=0 alive rc frames status fig v series fps
    for i in "${!pids[@]}"; do
        p=${pids[$i]}
        alive=1
        [ -d "/proc/$p" ] || alive=0
        kill -INT "$p" 2>/dev/null || true
        rc=0
        wait "$p" || rc=$?
        # the sampler ends at the FIFO's end; it is killed if ffmpeg never opened it
        for _ in 1 2 3 4 5 6 7 8 9 10; do [ -d "/proc/${readers[$i]}" ] || break; sleep 0.2; done
        kill "${readers[$i]}" 2>/dev/null || true
        wait "${readers[$i]}" 2>/dev/null || true
        frames=$(awk '{ f = $2 } END { print f + 0 }' "$dir/$tag-series$i")
        v=$(analyse "$dir/$tag-series$i" "$secs" "$minres")
        status=${v%%|*} fig=${v#*|}
        if [ $alive = 0 ]; then status="FAIL: died early (exit $rc)"
        elif [ $rc != 0 ] && [ $rc != 255 ]; then status="FAIL: exit $rc"
        elif [ -s "$dir/$tag-err$i.log" ]; then status="FAIL: errors: $(head -c 200 "$dir/$tag-err$i.log")"
        fi
        [ "$status" = ok ] || fail=1
        fps=$(awk -v f="$frames" -v s="$secs" 'BEGIN { printf "%.1f", f / s }')
        # live blocks every 2 s (every 4th sample), warm-up included
        series=$(awk 'NR % 4 == 0 { printf " %d", $3 }' "$dir/$tag-series$i")
        printf '%s process %d: %s\n  %d frames, %s fps; %s\n  live blocks every 2 s:%s\n  RSS every 2 s (MiB, not judged):%s\n  %s\n' \
            "$tag" $((i + 1)) "${jobs[$i]##* }" "$frames" "$fps" "$fig" "$series" \
            "${rss[$i]:-}" "$status"
    done
    return $fail
}

# ---- LeakSanitizer over every execution path --------------------------------
# lsan_run LOG FORMAT SETPARAMS FILTERS THREADS [PRELOAD]
# (THREADS cN: N threads and -cpuflags 0, FFmpeg's and cspfix's C code only)
lsan_run() {
    local cpu=()
    [ "${5#c}" = "$5" ] || cpu=(-cpuflags 0)
    env ${6:+LD_PRELOAD=$6} ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:exitcode=23 LSAN_OPTIONS=exitcode=23 \
        UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
        "$ff" -nostdin -hide_banner -loglevel level+verbose -f lavfi \
        -i "testsrc2=s=$S:r=25:d=$secs,format=$2,setparams=$3" -vf "$4" \
        -filter_threads "${5#c}" "${cpu[@]}" -f null - >"$1" 2>&1
}

lsan() {
    local frames=$((secs * 25)) S=640x360 fail=0 n=0 th name in vf cmd rc
    # first, LeakSanitizer must see a leak: a preloaded constructor that drops
    # one malloc(64) (skipped without a C compiler)
    if printf '%s\n' '#include <stdlib.h>' 'void *volatile cspfix_lsan_probe;' \
        '__attribute__((constructor)) static void leak(void) { cspfix_lsan_probe = malloc(64); cspfix_lsan_probe = 0; }' \
        >"$dir/leak64.c" && ${CC:-cc} -shared -fPIC -o "$dir/leak64.so" "$dir/leak64.c" 2>/dev/null; then
        rc=0
        secs=1 lsan_run "$dir/lsan-probe.log" yuv420p "$sd" cspfix=all=bt709 1 "$dir/leak64.so" || rc=$?
        if [ $rc = 23 ] && grep -q "LeakSanitizer: detected memory leaks" "$dir/lsan-probe.log"; then
            echo "lsan probe: a preloaded malloc(64) without free is reported ($(grep -m1 "^SUMMARY" "$dir/lsan-probe.log"))"
        else
            echo "load-test lsan: FAILED: LeakSanitizer did not report a deliberate leak (exit $rc; is $ff an ASan build?)"
            return 1
        fi
    fi
    : >"$dir/lsan-cmds.txt"
    # every 3 frames (0.12 s) the upstream cspfix@u changes the description the
    # tested cspfix@c sees; every 7 frames a sendcmd changes cspfix@c's options
    awk -v n="$frames" 'BEGIN {
        split("range pc|range tv|space bt709|primaries bt709|space smpte170m|primaries smpte170m|range tv", u, "|")
        for (i = 1; i * 3 < n; i++) printf "%.2f cspfix@u %s;\n", i * 0.12, u[(i % 7) + 1]
    }' >"$dir/lsan-sd.cmd"
    awk -v n="$frames" 'BEGIN {
        split("dither ed|dither none|all bt2020|dither ordered|all bt709|range pc|gamut compress|range tv|gamut none", c, "|")
        for (i = 1; i * 7 < n; i++) printf "%.2f cspfix@c %s;\n", i * 0.28 + 0.02, c[(i % 9) + 1]
    }' >"$dir/lsan-sdc.cmd"
    awk -v n="$frames" 'BEGIN {
        split("transfer arib-std-b67|range pc|transfer smpte2084|range tv", u, "|")
        for (i = 1; i * 3 < n; i++) printf "%.2f cspfix@u %s;\n", i * 0.12, u[(i % 4) + 1]
    }' >"$dir/lsan-pq.cmd"
    awk -v n="$frames" 'BEGIN {
        split("tonemap bt2390|dither ed|tonemap hable|desat 0.5|tonemap mobius|dither none|peak 4000|tonemap clip|gamut desaturate|tonemap reinhard|target_peak 203", c, "|")
        for (i = 1; i * 7 < n; i++) printf "%.2f cspfix@c %s;\n", i * 0.28 + 0.02, c[(i % 11) + 1]
    }' >"$dir/lsan-pqc.cmd"
    local runs=(
        "8bit yuv420p $sd sendcmd=f=$dir/lsan-sd.cmd,cspfix@u,sendcmd=f=$dir/lsan-sdc.cmd,cspfix@c=all=bt709:dither=ed"
        "10bit yuv420p10le $sd sendcmd=f=$dir/lsan-sd.cmd,cspfix@u,sendcmd=f=$dir/lsan-sdc.cmd,cspfix@c=all=bt2020:format=yuv420p10le"
        "pq yuv420p10le $pq sendcmd=f=$dir/lsan-pq.cmd,cspfix@u,sendcmd=f=$dir/lsan-pqc.cmd,cspfix@c=all=bt709:format=yuv420p:dither=ed"
    )
    for th in 1 2 3 4 c2; do
        for r in "${runs[@]}"; do
            read -r name fmt in vf <<<"$r"
            n=$((n + 1))
            local log="$dir/lsan-$name-t$th.log" t1=$SECONDS rc=0
            lsan_run "$log" "$fmt" "$in" "$vf" $th || rc=$?
            if [ $rc != 0 ] || grep -q "LeakSanitizer\|AddressSanitizer\|runtime error\|^\[error\]\|^\[fatal\]" "$log"; then
                fail=1
                echo "lsan $name, ${th/c/C code, } thread(s): FAIL (exit $rc): $(grep -m1 "ERROR\|SUMMARY\|runtime error\|^\[error\]\|^\[fatal\]" "$log" || tail -c 300 "$log")"
            else
                echo "lsan $name, ${th/c/C code, } thread(s): $frames frames, $(grep -c "cspfix@c .*\] Plan " "$log") plans built by the tested cspfix, no leak, $((SECONDS - t1)) s"
            fi
        done
    done
    [ $fail = 0 ] && echo "load-test lsan: $n runs of $frames frames (8-bit, 10-bit, PQ tone mapping, description changes every 3 frames, sendcmd every 7, 1..4 threads, C code): no leak" ||
        { echo "load-test lsan: FAILED (logs: $dir/lsan-*.log)"; return 1; }
}

case $mode in
long)
    run_load long 4 3840x2160 "$secs" "${CSPFIX_LOAD_INJECT_LEAK:-0}" 0 && echo "load-test: 4 processes, 4K, $secs s: no failure, live heap flat" ||
        { echo "load-test: FAILED"; exit 1; } ;;
short)
    t0=$SECONDS rc=0
    run_load short 2 960x540 "$secs" 0 0.75 || rc=1
    [ $rc = 0 ] || { echo "load-test short: FAILED without any injected leak"; exit 1; }
    out=$(run_load inject 2 960x540 "$secs" 1 0.75) && rc=0 || rc=$?
    echo "$out"
    for i in 0 1; do
        awk -v i=$((i + 1)) 'NR == FNR { inj = $4; next } { f = $2 } END {
            printf "inject process %d: %d blocks of 64 bytes leaked on purpose in %d frames (%.2f per frame)\n", i, inj, f, f ? inj / f : 0 }' \
            "$dir/inject-stats$i" "$dir/inject-series$i"
    done
    n=$(echo "$out" | grep -c "FAIL: live heap blocks grow (a leak)" || true)
    if [ $rc = 0 ] || [ "$n" != 2 ]; then
        echo "load-test short: FAILED: the injected leak (one malloc(64) per frame) was caught in $n of 2 processes"
        exit 1
    fi
    echo "load-test short: 2 processes, 960x540, $secs s: live heap flat; the injected leak of one block per frame caught in 2 of 2 ($((SECONDS - t0)) s)" ;;
lsan)
    lsan ;;
esac
