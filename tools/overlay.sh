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

# Usage: tools/overlay.sh SRC_DIR
#
# Copies the cspfix files of this repository into the FFmpeg tree SRC_DIR and
# registers them (allfilters.c, Makefiles, filters.texi, FATE, checkasm).
# Idempotent: our old registration lines are removed and re-inserted, and a
# file is only rewritten when its content changes (so make rebuilds nothing
# needlessly).  Prints a one-line summary.

set -euo pipefail
shopt -s nullglob

ROOT=$(cd "$(dirname "$0")/.." && pwd)
[ $# = 1 ] && [ -f "$1/libavfilter/allfilters.c" ] || {
    echo "usage: $0 FFMPEG_SRC_DIR" >&2; exit 1; }
S=$(cd "$1" && pwd)
cd "$ROOT"
[ -f libavfilter/vf_cspfix.c ] || { echo "overlay: libavfilter/vf_cspfix.c missing" >&2; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
changed=()

# put FILE... DIR: copy each FILE into $S/DIR unless it is already identical
put() {
    local dir=$S/${!#} f
    for f in "${@:1:$#-1}"; do
        if ! cmp -s "$f" "$dir/${f##*/}"; then
            mkdir -p "$dir"
            cp "$f" "$dir/"
            changed+=("${dir#"$S"/}/${f##*/}")
        fi
    done
}

# edit FILE DELETE MODE ANCHOR TEXT
# Deletes our old lines from $S/FILE (sed expression DELETE), then inserts TEXT
# (if not empty) relative to the first line that starts with ANCHOR (leading
# blanks ignored).  MODE: line = after that line; bs = after its backslash-
# continued block; endif = after the next #endif; texi = before the first
# later @section sorting after "cspfix"; fate = after the last ANCHOR line
# sorting before "cspfix".  Returns 1 if the anchor is not found.
edit() {
    local f=$S/$1 n=
    sed -e "$2" "$f" >"$tmp/a"
    if [ -n "$5" ]; then
        n=$(awk -v m="$3" -v a="$4" '
            { s = $0; sub(/^[ \t]+/, "", s) }
            m == "texi" {
                if (s == a) f = 1
                else if (f && (s ~ /^@chapter/ || (s ~ /^@section / && $2 > "cspfix"))) {
                    print (anc == NR - 1 ? NR - 2 : NR - 1); exit }
                if (s ~ /^@anchor/) anc = NR
                next }
            m == "fate" {
                if (index(s, a) == 1) {
                    if (substr(s, length(a) + 1) < "cspfix") p = NR; else if (!p) p = NR - 1 }
                next }
            !f && index(s, a) == 1 { f = 1 }
            f && (m == "line" || (m == "bs" && s !~ /\\$/) || (m == "endif" && s ~ /^#endif/)) {
                print NR; exit }
            END { if (p) print p }' "$tmp/a")
        [ -n "$n" ] || { echo "overlay: '$4' not found in $1" >&2; return 1; }
        printf '%s\n' "$5" >"$tmp/t"
        sed -e "${n}r $tmp/t" "$tmp/a" >"$tmp/b"
    else
        cp "$tmp/a" "$tmp/b"
    fi
    cmp -s "$tmp/b" "$f" || { cat "$tmp/b" >"$f"; changed+=("$1"); }
}

# objs FILE.c...: the object names, without #included *_template.c/*_tmpl.c
objs() {
    local f o=
    for f in "$@"; do
        case $f in *_template.c | *_tmpl.c) continue ;; esac
        o+=" ${f%.c}.o"
    done
    echo "${o# }"
}

# --- filter sources and registration ----------------------------------------
put libavfilter/vf_cspfix.c libavfilter/cspfix*.[ch] libavfilter
edit libavfilter/allfilters.c '/^extern const FFFilter ff_vf_cspfix;/d' line \
    'extern const FFFilter ff_vf_colorspace;' 'extern const FFFilter ff_vf_cspfix;'
o=$(cd libavfilter && objs vf_cspfix.c cspfix*.c)
edit libavfilter/Makefile '/CONFIG_CSPFIX_FILTER/d' bs 'OBJS-$(CONFIG_COLORSPACE_FILTER)' \
    "$(printf '%-45s+= %s' 'OBJS-$(CONFIG_CSPFIX_FILTER)' "$o")"

# --- x86 SIMD ---------------------------------------------------------------
# ICC profiles through Little CMS 2 when FFmpeg is configured with --enable-lcms2
edit configure '/^cspfix_filter_suggest=/d' line 'iccdetect_filter_deps=' 'cspfix_filter_suggest="lcms2"'

x86=(libavfilter/x86/cspfix*)
text=
if [ ${#x86[@]} -gt 0 ]; then
    put "${x86[@]}" libavfilter/x86
    o=$(cd libavfilter && objs x86/cspfix*.c)
    a=$(cd libavfilter && for f in x86/cspfix*.asm; do printf ' %s' "${f%.asm}.o"; done)
    [ -z "$o" ] || text=$(printf '%-45s+= %s' 'OBJS-$(CONFIG_CSPFIX_FILTER)' "$o")
    [ -z "$a" ] || text+=${text:+$'\n'}$(printf '%-45s+=%s' 'X86ASM-OBJS-$(CONFIG_CSPFIX_FILTER)' "$a")
fi
edit libavfilter/x86/Makefile '/CONFIG_CSPFIX_FILTER/d' bs 'X86ASM-OBJS-$(CONFIG_COLORSPACE_FILTER)' "$text"

# --- files of ours the repository no longer has ---------------------------
# A renamed or removed cspfix source (e.g. the old x86/cspfix.asm, or checkasm's
# cspfix.c, now vf_cspfix.c) left in a tree overlaid earlier is not built (the
# Makefile lines above list only ours), but it is deleted all the same, so that
# nothing can pick it up by a pattern.  (cspfi[x].c: a pattern, so nothing when absent.)
for f in "$S"/libavfilter/cspfix* "$S"/libavfilter/x86/cspfix* "$S"/tests/checkasm/cspfi[x].c; do
    rel=${f#"$S"/}
    [ -e "$rel" ] || { rm -f "$f"; changed+=("$rel (deleted)"); }
done

# --- libavdevice v4l2: tag captured streams from VIDIOC_G_FMT ----------------
# After the format is set, one more VIDIOC_G_FMT reads the colorimetry the
# driver reports; ff_cspfix_v4l2_tag() maps it to the stream's codec
# parameters (so decoded frames carry it).  The mapping is libavfilter's
# cspfix_v4l2.c, duplicated into libavdevice for shared builds (FFmpeg's
# SHLIBOBJS pattern).
v4l2_inc=$(cat <<'END'
/* cspfix-inc-begin: colorimetry of captured frames (cspfix overlay) */
#include "config_components.h"
#if CONFIG_CSPFIX_FILTER
#include "libavfilter/cspfix_v4l2.h"
#endif
/* cspfix-inc-end */
END
)
v4l2_tag=$(cat <<'END'
    /* cspfix-tag-begin: tag the stream with the colorimetry VIDIOC_G_FMT reports */
#if CONFIG_CSPFIX_FILTER
    {
        struct v4l2_format cf = { .type = s->buf_type };
        if (v4l2_ioctl(s->fd, VIDIOC_G_FMT, &cf) >= 0) {
            const AVPixFmtDescriptor *d = av_pix_fmt_desc_get(st->codecpar->format);
            CspfixV4L2 v = {
                s->multiplanar ? cf.fmt.pix_mp.colorspace   : cf.fmt.pix.colorspace,
                s->multiplanar ? cf.fmt.pix_mp.ycbcr_enc    : cf.fmt.pix.ycbcr_enc,
                s->multiplanar ? cf.fmt.pix_mp.quantization : cf.fmt.pix.quantization,
                s->multiplanar ? cf.fmt.pix_mp.xfer_func    : cf.fmt.pix.xfer_func,
            };
            ff_cspfix_v4l2_tag(ctx, &v, d && (d->flags & AV_PIX_FMT_FLAG_RGB),
                               &st->codecpar->color_primaries, &st->codecpar->color_trc,
                               &st->codecpar->color_space, &st->codecpar->color_range);
        }
    }
#endif
    /* cspfix-tag-end */
END
)
v4l2_del_inc='/cspfix-inc-begin/,/cspfix-inc-end/d'
v4l2_del_tag='/cspfix-tag-begin/,/cspfix-tag-end/d'
v4l2_del_mk='/cspfix_v4l2\.o/d'
if [ -f libavdevice/cspfix_v4l2.c ] && [ -f "$S/libavdevice/v4l2.c" ] &&
    grep -q '^#include "v4l2-common.h"' "$S/libavdevice/v4l2.c" &&
    grep -q '^ *st->codecpar->height = s->height;' "$S/libavdevice/v4l2.c" &&
    grep -q '^SHLIBOBJS-$(CONFIG_DECKLINK_OUTDEV)' "$S/libavdevice/Makefile"; then
    put libavdevice/cspfix_v4l2.c libavdevice
    edit libavdevice/Makefile "$v4l2_del_mk" line 'SHLIBOBJS-$(CONFIG_DECKLINK_OUTDEV)' \
        "$(printf '%-41s+= %s' 'SHLIBOBJS-$(CONFIG_V4L2_INDEV)' cspfix_v4l2.o)"
    edit libavdevice/v4l2.c "$v4l2_del_inc" line '#include "v4l2-common.h"' "$v4l2_inc"
    edit libavdevice/v4l2.c "$v4l2_del_tag" line 'st->codecpar->height = s->height;' "$v4l2_tag"
else
    echo "overlay: WARNING: libavdevice/v4l2.c layout of $S not recognised; v4l2 input not tagged" >&2
    [ ! -f "$S/libavdevice/v4l2.c" ] || {
        edit libavdevice/Makefile "$v4l2_del_mk" line x ''
        edit libavdevice/v4l2.c "$v4l2_del_inc" line x ''
        edit libavdevice/v4l2.c "$v4l2_del_tag" line x ''
    }
fi

# --- documentation ----------------------------------------------------------
text=
[ ! -f doc/cspfix.texi ] || text=$(printf '@c cspfix-begin\n%s\n\n@c cspfix-end' "$(cat doc/cspfix.texi)")
edit doc/filters.texi '/^@c cspfix-begin$/,/^@c cspfix-end$/d' texi '@section colorspace' "$text"

# --- FATE -------------------------------------------------------------------
text=
for d in tests/fate fate; do
    [ -f $d/cspfix.mak ] || continue
    if [ ! -e "$S/tests/fate-cspfix" ]; then
        # a fresh tree: one copy instead of a comparison per file
        mkdir -p "$S/tests/fate-cspfix"
        cp -R "$d/." "$S/tests/fate-cspfix/"
        while IFS= read -r f; do changed+=("tests/fate-cspfix/${f#"$d"/}"); done < <(find $d -type f)
    else
        while IFS= read -r f; do
            rel=${f#"$d"/}
            dir=tests/fate-cspfix
            case $rel in */*) dir+=/${rel%/*} ;; esac
            put "$f" "$dir"
        done < <(find $d -type f)
    fi
    if [ -f $d/spec.txt ]; then
        # the test list, expanded from the spec (rewritten only when it
        # changes); fate-gen.py's output is cached in build/fate-gen-cache/
        # under the checksum of its input and of the generator
        list=$S/tests/fate-cspfix/list.mak
        old=$({ cksum <"$list"; } 2>/dev/null || true)
        key=$(cat $d/spec.txt tools/fate-gen.py | cksum | tr ' ' -)
        cache=$ROOT/build/fate-gen-cache/$key.mak
        if [ -s "$cache" ]; then
            cp "$cache" "$list"
        else
            python3 tools/fate-gen.py -o "$list" $d/spec.txt ||
                { echo "overlay: tools/fate-gen.py failed" >&2; exit 1; }
            mkdir -p "${cache%/*}"
            cp "$list" "$cache.tmp$$" && mv "$cache.tmp$$" "$cache"
        fi
        [ "$old" = "$(cksum <"$list")" ] || changed+=(tests/fate-cspfix/list.mak)
    fi
    text='include $(SRC_PATH)/tests/fate-cspfix/cspfix.mak'
    break
done
edit tests/Makefile '\|tests/fate-cspfix/cspfix.mak|d' fate 'include $(SRC_PATH)/tests/fate/' "$text"

# --- checkasm ---------------------------------------------------------------
ca_del='/^[[:space:]]*#if CONFIG_CSPFIX_FILTER/,/^[[:space:]]*#endif/d'
ca_h='/^void checkasm_check_cspfix(void);/d'
ca_mk='/CONFIG_CSPFIX_FILTER/d'
if [ -f tests/checkasm/vf_cspfix.c ] &&
    grep -q '^AVFILTEROBJS-$(CONFIG_COLORSPACE_FILTER)' "$S/tests/checkasm/Makefile" &&
    grep -q '^ *#if CONFIG_COLORSPACE_FILTER' "$S/tests/checkasm/checkasm.c" &&
    grep -q '^void checkasm_check_colorspace(void);' "$S/tests/checkasm/checkasm.h"; then
    put tests/checkasm/vf_cspfix.c tests/checkasm
    edit tests/checkasm/Makefile "$ca_mk" bs 'AVFILTEROBJS-$(CONFIG_COLORSPACE_FILTER)' \
        'AVFILTEROBJS-$(CONFIG_CSPFIX_FILTER)     += vf_cspfix.o'
    edit tests/checkasm/checkasm.c "$ca_del" endif '#if CONFIG_COLORSPACE_FILTER' \
        "$(printf '    #if CONFIG_CSPFIX_FILTER\n        { "cspfix", checkasm_check_cspfix },\n    #endif')"
    edit tests/checkasm/checkasm.h "$ca_h" line 'void checkasm_check_colorspace(void);' \
        'void checkasm_check_cspfix(void);'
else
    [ ! -f tests/checkasm/vf_cspfix.c ] ||
        echo "overlay: WARNING: checkasm layout of $S not recognised; cspfix checkasm test not registered" >&2
    edit tests/checkasm/Makefile "$ca_mk" line x ''
    edit tests/checkasm/checkasm.c "$ca_del" line x ''
    edit tests/checkasm/checkasm.h "$ca_h" line x ''
fi

if [ ${#changed[@]} = 0 ]; then
    echo "overlay: $S is up to date"
else
    # FATE refs are many: name them by count
    refs=0 names=()
    for f in "${changed[@]}"; do
        case $f in tests/fate-cspfix/ref/*) refs=$((refs + 1)) ;; *) names+=("$f") ;; esac
    done
    [ $refs = 0 ] || names+=("tests/fate-cspfix/ref/ ($refs refs)")
    echo "overlay: ${#changed[@]} file(s) updated in $S: ${names[*]}"
fi
