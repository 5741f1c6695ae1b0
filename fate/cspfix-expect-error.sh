# cspfix FATE: error tests.  Sourced by tests/fate-run.sh from the CMD of an
# error test (see cspfix.mak), so it can use fate-run.sh's ffmpeg function and
# variables ($outdir, $test, $cleanfiles).
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

# cspfix_expect_error ARGS...
# Runs ffmpeg ARGS -f null -, which must fail without crashing, and prints the
# error lines logged by cspfix instances, without the "[Parsed_cspfix_N @ 0x...] "
# prefix: the ref holds the expected messages.  Anything else (success, a
# signal, no cspfix error line) prints a diagnostic and the log, and fails.
cspfix_expect_error(){
    cspfix_log="${outdir}/${test}.log"
    cleanfiles="$cleanfiles $cspfix_log"
    ffmpeg -v error "$@" -f null - 2>"$cspfix_log"
    cspfix_ret=$?
    case $cspfix_ret in
    0)
        echo "cspfix: ffmpeg succeeded, an error was expected"
        cat "$cspfix_log"
        return 1 ;;
    132|134|135|136|139)
        echo "cspfix: ffmpeg crashed (exit status $cspfix_ret)"
        cat "$cspfix_log"
        return 1 ;;
    esac
    sed -n 's/^\[Parsed_cspfix_[0-9]* @ 0x[0-9a-fA-F]*\] //p' "$cspfix_log" | uniq >"$cspfix_log.msg"
    cleanfiles="$cleanfiles $cspfix_log.msg"
    if [ ! -s "$cspfix_log.msg" ]; then
        echo "cspfix: ffmpeg failed (exit status $cspfix_ret) without a cspfix error"
        cat "$cspfix_log"
        return 1
    fi
    cat "$cspfix_log.msg"
}
