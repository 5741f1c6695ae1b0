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

# cspfix: builds FFmpeg (sources from Debian) with the cspfix filter overlaid.
#
#   make               full FFmpeg build installed into build/ (bin, lib, include)
#   make ffmpeg-check  small test build: build/check-<ver>/{obj,prefix}
#   make check         tests against FFMPEG_SERIES, then against $(OLD_SERIES)
#                      (skipped if Debian no longer offers it)
#   make demo          tools/demo.sh on the test build
#   make hdr-demo      tools/hdr-demo.sh: PQ -> SDR with every tonemap= mode, lying metadata,
#                      Dolby Vision profile 5 with and without its RPU (build/hdr-demo/)
#   make dovi-libplacebo  (not part of make check) tools/dovi-vs-libplacebo.sh: cspfix's
#                      Dolby Vision reshaping (BT.2020 PQ, 10-bit codes) and tone mapping
#                      (dE_ITP) against libplacebo's, through FFmpeg's libplacebo filter on
#                      Mesa's lavapipe (CPU Vulkan); builds libplacebo (Debian sid/trixie
#                      source) and a minimal FFmpeg with Vulkan into build/placebo-<ver>/
#                      (first run ~2-4 min, 2 jobs; then ~10 s), runs hdr-demo first if its clip is
#                      missing; report in build/placebo-<ver>/cmp/report.txt
#   make bench         tools/cspfix-bench on the test build (B1..B8 against the peers;
#                      BENCH_ARGS="--only B1 --runs 9" etc. are passed on), and its
#                      chart (tools/bench-chart.py) into doc/images/bench.png
#   make bench-quick   the same with --quick (small frames: a smoke test)
#   make fate          FATE checksum tests only (fate-cspfix) on the test build
#   make fate-regen    precision tests, then (only if they pass) regenerate the
#                      FATE refs into fate/ref/ and check every variant against them
#   make check-asan    FFmpeg built with clang ASan+UBSan (build/asan-<ver>/): API,
#                      bad-input, format, (narrowed) precision, checkasm, CLI tests,
#                      the fuzzer's seeds + FUZZ_SHORT s of fuzzing and one FATE
#                      variant under it; valgrind memcheck on the test build
#   make fuzz          the libFuzzer target for FUZZ_TIME seconds (default 60)
#   make load-test     4 ffmpeg processes converting 4K for LOAD_TIME s (default 60):
#                      fails if a process's live heap blocks (counted by a preloaded
#                      allocator wrapper) trend up with the frames; prints fps and
#                      the live-block series per process.  Then LeakSanitizer (ASan
#                      build) over LOAD_TIME*25 frames of each execution path
#                      (8/10-bit, PQ, dither, description changes, sendcmd, 1..4
#                      threads, C code).  The short form runs in make check.
#   make overlay       fetch FFmpeg and overlay our files only
#   make install PREFIX=/path   install FFmpeg with cspfix (programs, libraries,
#                      headers, pkg-config files) into PREFIX: the full build
#                      (`make`), or the small test build with INSTALL_PROFILE=check
#   make patch         git format-patch series of the overlay against the
#                      fetched FFmpeg version, into build/patch/ffmpeg-<ver>/
#   make clean / distclean
#
# FFMPEG_SRC=/path/to/ffmpeg uses a copy of that tree instead of Debian's.
# FFMPEG_GPL=1 adds x264 and x265 to the full build (and to `make deps`): the
# FFmpeg built is then GPL (cspfix's own code stays LGPL-2.1-or-later).
# FFMPEG_CONFIGURE_FLAGS="..." are extra FFmpeg configure flags, for every build
# profile (full, check, asan); changing them re-runs configure.

FFMPEG_SERIES ?= 9.0
OLD_SERIES    ?= 8.1
# FATE against the old series: every test with the detected CPU flags (plain C, the
# SIMD masks and the thread counts run against the current series only: the kernels
# are the same code, and CI time is bounded)
OLD_FATE_VARIANTS ?= base:all:1
FFMPEG_SRC    ?=
FFMPEG_GPL    ?=
FFMPEG_CONFIGURE_FLAGS ?=
STRICT        ?=
FATE_JOBS     ?= 2
BUILD         := $(CURDIR)/build
export FFMPEG_SRC FFMPEG_GPL FFMPEG_CONFIGURE_FLAGS

# 'fetch' resolves the FFmpeg tree once per make invocation and writes its
# path to $(STATE) (empty: skipped); the later recipes read it with $(LOAD).
STATE := $(BUILD)/.src-$(if $(FFMPEG_SRC),user,$(FFMPEG_SERIES))
LOAD   = src=$$(cat $(STATE)); [ -n "$$src" ] || exit 0; \
         ver=$$(basename $$src | sed 's/^ffmpeg-//'); chk=$(BUILD)/check-$$ver;

.PHONY: all deps fetch overlay ffmpeg-check check check-one demo hdr-demo fate fate-regen clean distclean \
        install patch ffmpeg-asan check-asan fuzz load-test dovi-libplacebo

all: overlay
	@set -e; $(LOAD) tools/build-ffmpeg.sh full $$src $(BUILD)/obj-full-$$ver $(BUILD)

deps:
	@tools/deps.sh

fetch: deps
	@mkdir -p $(BUILD); rm -f $(STATE); rc=0; \
	tools/fetch-ffmpeg.sh $(if $(STRICT),--strict) $(FFMPEG_SERIES) >$(STATE).tmp || rc=$$?; \
	if [ $$rc = 3 ] && [ -n "$(STRICT)" ]; then \
		echo "*** FFmpeg $(FFMPEG_SERIES) is not offered by Debian any more: SKIPPED"; \
		: >$(STATE); exit 0; fi; \
	[ $$rc = 0 ] || exit $$rc; tail -n 1 $(STATE).tmp >$(STATE); rm -f $(STATE).tmp

overlay: fetch
	@set -e; $(LOAD) tools/overlay.sh $$src

ffmpeg-check: overlay
	@set -e; $(LOAD) tools/build-ffmpeg.sh check $$src $$chk/obj $$chk/prefix

check-one: ffmpeg-check
	@set -e; $(LOAD) echo "*** testing cspfix against FFmpeg $$ver"; \
	$(MAKE) -f tests/tests.mk check FFMPEG_PREFIX=$$chk/prefix FFMPEG_OBJ=$$chk/obj \
		FFMPEG_SRCDIR=$$src OUT=$$chk/tests $(if $(FATE_VARIANTS),FATE_VARIANTS="$(FATE_VARIANTS)"); \
	echo "== bench smoke run: cspfix-bench --quick (builds and runs every graph; timings not checked)"; \
	$(MAKE) --no-print-directory $$chk/bench/cspfix-bench; \
	$$chk/bench/cspfix-bench --quick --peers colorspace,zscale,zimg-avx2,copy --json \
		> $$chk/tests/bench-quick.json 2>/dev/null; \
	if grep -q '"status": "failed"' $$chk/tests/bench-quick.json; then \
		grep '"status": "failed"' $$chk/tests/bench-quick.json; echo "bench: FAILED"; exit 1; fi; \
	echo "bench: $$(grep -c '"status": "ok"' $$chk/tests/bench-quick.json) lines ran, none failed"; \
	tools/bench-chart.py $$chk/tests/bench-quick.json $$chk/tests/bench-quick.png; \
	echo "bench chart: $$chk/tests/bench-quick.png ($$(wc -c <$$chk/tests/bench-quick.png) bytes)"

check:
	$(MAKE) check-one
ifeq ($(FFMPEG_SRC),)
ifneq ($(OLD_SERIES),$(FFMPEG_SERIES))
	$(MAKE) check-one FFMPEG_SERIES=$(OLD_SERIES) STRICT=1 FATE_VARIANTS="$(OLD_FATE_VARIANTS)"
endif
endif

# Sanitizer build: the check profile with clang ASan+UBSan in build/asan-<ver>/.
ASAN_MK = $(MAKE) --no-print-directory -f tests/tests.mk CC=clang \
          SAN_FLAGS="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer" \
          FFMPEG_PREFIX=$$asan/prefix FFMPEG_OBJ=$$asan/obj FFMPEG_SRCDIR=$$src OUT=$$asan/tests
FUZZ_TIME ?= 60
LOAD_TIME ?= 60

ffmpeg-asan: overlay
	@tools/deps.sh --asan
	@set -e; $(LOAD) tools/build-ffmpeg.sh asan $$src $(BUILD)/asan-$$ver/obj $(BUILD)/asan-$$ver/prefix

check-asan: ffmpeg-asan ffmpeg-check
	@set -e; $(LOAD) asan=$(BUILD)/asan-$$ver; t0=$$(date +%s); \
	echo "*** testing cspfix under ASan+UBSan against FFmpeg $$ver"; \
	$(ASAN_MK) check-asan; \
	$(TESTS_MK) valgrind; \
	echo "*** check-asan: tests took $$(( $$(date +%s) - t0 )) s"

fuzz: ffmpeg-asan
	@set -e; $(LOAD) asan=$(BUILD)/asan-$$ver; $(ASAN_MK) fuzz FUZZ_TIME=$(FUZZ_TIME)

# the long form on the test build with the allocation counter, then every
# execution path under LeakSanitizer on the ASan build (LOAD_TIME * 25 frames each)
load-test: ffmpeg-check ffmpeg-asan
	@set -e; $(LOAD) $(TESTS_MK) $$chk/tests/cspfix_alloc_shim.so; \
	tools/load-test.sh long $$chk/prefix/bin/ffmpeg $$chk/tests/cspfix_alloc_shim.so $(LOAD_TIME) $(BUILD)/load-test; \
	tools/load-test.sh lsan $(BUILD)/asan-$$ver/prefix/bin/ffmpeg - $(LOAD_TIME) $(BUILD)/load-test

# tests/tests.mk for the test build of the current series
TESTS_MK = $(MAKE) --no-print-directory -f tests/tests.mk FFMPEG_PREFIX=$$chk/prefix \
           FFMPEG_OBJ=$$chk/obj FFMPEG_SRCDIR=$$src OUT=$$chk/tests

fate: ffmpeg-check
	@set -e; $(LOAD) $(TESTS_MK) fate

# Refs are regenerated with FATE's GEN=1 on the first variant of every test
# (fate-cspfix-primary), written into the FFmpeg tree and copied back into
# fate/ref/; then every variant runs against them.
fate-regen: ffmpeg-check
	@set -e; $(LOAD) ref=$$src/tests/fate-cspfix/ref; \
	echo "*** fate-regen: precision tests first; refs are only written if they pass"; \
	$(TESTS_MK) $$chk/tests/precision; \
	$$chk/tests/precision || { echo "*** fate-regen: precision tests FAILED: refs not regenerated"; exit 1; }; \
	echo "*** fate-regen: GEN=1 make fate-cspfix-primary (log: $$chk/tests/fate-regen.log)"; \
	rm -rf $$ref; mkdir -p $$ref fate/ref; \
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -C $$chk/obj -k -j$(FATE_JOBS) GEN=1 \
		fate-cspfix-primary >$$chk/tests/fate-regen.log 2>&1 || true; \
	new=0; chg=0; same=0; del=0; \
	for f in $$ref/*; do b=$${f##*/}; \
		if [ ! -f fate/ref/$$b ]; then new=$$((new + 1)); \
		elif cmp -s $$f fate/ref/$$b; then same=$$((same + 1)); continue; \
		else chg=$$((chg + 1)); fi; cp $$f fate/ref/$$b; done; \
	for f in fate/ref/*; do [ -f $$ref/$${f##*/} ] || { rm -f $$f; del=$$((del + 1)); }; done; \
	echo "*** fate-regen: $$((new + chg + same)) refs in fate/ref: $$chg changed, $$new new, $$del removed, $$same unchanged"; \
	echo "*** fate-regen: checking every variant against them"; \
	$(TESTS_MK) fate

demo: ffmpeg-check
	@set -e; $(LOAD) tools/demo.sh $$chk/prefix $(BUILD)/demo

hdr-demo: ffmpeg-check
	@set -e; $(LOAD) tools/hdr-demo.sh $$chk/prefix $(BUILD)/hdr-demo

# Outside make check: libplacebo and a second FFmpeg (Vulkan, libplacebo) in build/placebo-<ver>/
dovi-libplacebo: overlay
	@set -e; $(LOAD) [ -s $(BUILD)/hdr-demo/dovi-profile5.mkv ] || $(MAKE) --no-print-directory hdr-demo; \
	tools/dovi-vs-libplacebo.sh $$src $(BUILD)/placebo-$$ver $(BUILD)/hdr-demo/dovi-profile5.mkv

# The benchmark is built against the check build's static libraries, into
# build/check-<ver>/bench/ (the rule below, reached through a recursive make).
BENCH_ARGS   ?=
BENCH_CFLAGS := -O2 -g -std=c11 -Wall -Wextra

.PHONY: bench bench-quick
# the chart of the run: build/check-<ver>/bench/<target>.png; a full run also puts it in
# doc/images/bench.png, which the README shows
bench bench-quick: ffmpeg-check
	@set -e; $(LOAD) $(MAKE) --no-print-directory $$chk/bench/cspfix-bench
	@set -e; $(LOAD) $$chk/bench/cspfix-bench $(if $(filter bench-quick,$@),--quick) \
		--json-file $$chk/bench/$@.json $(BENCH_ARGS); \
	tools/bench-chart.py $$chk/bench/$@.json $$chk/bench/$@.png; echo "chart: $$chk/bench/$@.png"; \
	if [ $@ = bench ]; then cp $$chk/bench/$@.png doc/images/bench.png; echo "chart: doc/images/bench.png"; fi

$(BUILD)/%/bench/cspfix-bench: tools/cspfix-bench.c $(BUILD)/%/prefix/lib/libavfilter.a
	@mkdir -p $(@D)
	$(CC) $(BENCH_CFLAGS) $$(PKG_CONFIG_PATH=$(BUILD)/$*/prefix/lib/pkgconfig pkg-config --cflags libavfilter) \
		$$(pkg-config --cflags lcms2) -o $@ $< \
		$$(PKG_CONFIG_PATH=$(BUILD)/$*/prefix/lib/pkgconfig pkg-config --static --libs libavfilter) \
		$$(pkg-config --libs lcms2) -lm

# make install PREFIX=/path [INSTALL_PROFILE=check]
PREFIX          ?=
INSTALL_PROFILE ?= full
ifneq ($(filter install,$(MAKECMDGOALS)),)
ifeq ($(PREFIX),)
$(error make install needs PREFIX=/path (INSTALL_PROFILE=check for the small test build))
endif
endif
install: $(if $(filter check,$(INSTALL_PROFILE)),ffmpeg-check,all)
	@set -e; $(LOAD) obj=$(if $(filter check,$(INSTALL_PROFILE)),$$chk/obj,$(BUILD)/obj-full-$$ver); \
	tools/install-ffmpeg.sh $$obj "$(PREFIX)"

# make patch: the overlay as a git format-patch series (tools/make-patch.sh)
patch: fetch
	@set -e; $(LOAD) [ -z "$(FFMPEG_SRC)" ] || { echo "make patch needs a Debian-fetched FFmpeg, not FFMPEG_SRC"; exit 1; }; \
	tools/make-patch.sh $${HOME:-/tmp}/.cache/cspfix/ffmpeg_$$ver.orig.tar.xz $(BUILD)/patch/ffmpeg-$$ver

clean:
	rm -rf $(BUILD)/check-* $(BUILD)/asan-* $(BUILD)/obj-*

distclean:
	rm -rf $(BUILD)
