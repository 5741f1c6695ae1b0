# cspfix tests, run by `make check` (see the top Makefile) against one FFmpeg build.
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
#
# Variables: FFMPEG_PREFIX (install prefix), FFMPEG_OBJ (build dir, for config.h),
# FFMPEG_SRCDIR (overlaid source tree, for internal headers), OUT (test build dir).
# PRECISION_ARGS narrows the precision test (a conversion-name substring).
# SAN_FLAGS: sanitizer flags for compiling and linking the test programs (check-asan).

T        := tests
CC       ?= cc
SAN_FLAGS ?=
CFLAGS   := -O2 -g -std=c11 -Wall -Wextra -Wno-unused-parameter -Wno-sign-compare -Wno-missing-field-initializers $(SAN_FLAGS)
PKG      := PKG_CONFIG_PATH=$(FFMPEG_PREFIX)/lib/pkgconfig pkg-config
LAVFI_CFLAGS = $(shell $(PKG) --cflags libavfilter)
LAVFI_LIBS   = $(shell $(PKG) --static --libs libavfilter) -lm

PROGS := $(OUT)/map_test $(OUT)/refmodel_selftest $(OUT)/plan_test $(OUT)/api_test $(OUT)/format_test \
         $(OUT)/badinput_test $(OUT)/precision $(OUT)/interlace_test $(OUT)/exec_test \
         $(OUT)/light_test $(OUT)/tone_test $(OUT)/dovi_test $(OUT)/hue_test $(OUT)/icc_test $(OUT)/detect_test \
         $(OUT)/ycgcor_test $(OUT)/hdr_clip $(OUT)/hdr_pattern $(OUT)/cspfix_alloc_shim.so
# seconds of each of the two runs of the short load test (the second with an injected leak)
LOAD_SHORT_TIME ?= 20

# The parts run two at a time (make -j2 -O: each part's output is printed whole when
# it ends), the longest first; precision (its own worker threads) and FATE (make -j2)
# use both cores and run after them.
UNIT_PARTS = unit-batch unit-detect unit-load unit-patch unit-checkasm unit-format unit-exec \
             unit-ycgcor unit-tone unit-example unit-cli unit-encode unit-api unit-badinput \
             unit-hue unit-refmodel unit-dovi unit-interlace unit-map unit-plan unit-light unit-icc

.PHONY: check build unit $(UNIT_PARTS)
check: build
	@$(MAKE) --no-print-directory -f $(T)/tests.mk unit
	@echo "== precision against the float64 reference"; $(OUT)/precision $(PRECISION_ARGS)
	@$(MAKE) --no-print-directory -f $(T)/tests.mk fate

unit: build
	@echo "== $(words $(UNIT_PARTS)) test programs and scripts, two at a time"; t0=$$(date +%s); \
	$(MAKE) --no-print-directory -f $(T)/tests.mk -j2 -O $(UNIT_PARTS); \
	echo "== they took $$(( $$(date +%s) - t0 )) s"

unit-refmodel:
	@echo "== reference model self-test"
	@$(OUT)/refmodel_selftest > $(OUT)/refmodel_selftest.log || { cat $(OUT)/refmodel_selftest.log; exit 1; }
	@tail -n 1 $(OUT)/refmodel_selftest.log
unit-map:
	@echo "== V4L2 and GStreamer colorimetry tables"
	@$(OUT)/map_test > $(OUT)/map_test.log || { cat $(OUT)/map_test.log; exit 1; }
	@tail -n 1 $(OUT)/map_test.log
unit-plan:
	@echo "== planner unit tests";         $(OUT)/plan_test
unit-exec:
	@echo "== execution paths: every fast path against its generic twin"; $(OUT)/exec_test
unit-api:
	@echo "== API tests";                  $(OUT)/api_test
unit-interlace:
	@echo "== interlaced frames";          $(OUT)/interlace_test
unit-light:
	@echo "== measured light (peak=auto)"; $(OUT)/light_test
unit-dovi:
	@echo "== Dolby Vision reshaping";     $(OUT)/dovi_test
unit-tone:
	@echo "== tone curves: monotonic, neutral stays neutral"; $(OUT)/tone_test
unit-hue:
	@echo "== hue and lightness through tone mapping"; $(OUT)/hue_test
unit-icc:
	@echo "== ICC profiles in and out, against lcms2"; $(OUT)/icc_test
unit-detect:
	@echo "== the detector of mislabelled input: hits and false alarms"; $(OUT)/detect_test
unit-ycgcor:
	@echo "== YCgCo-R: exact lifting, lossless round trips"; $(OUT)/ycgcor_test
unit-badinput:
	@echo "== bad input and nothing lost"; GLIBC_TUNABLES=glibc.malloc.tcache_count=0 $(OUT)/badinput_test
unit-format:
	@echo "== pixel format tests";         $(OUT)/format_test
unit-cli:
	@echo "== command-line tests";         $(T)/cli_test.sh $(FFMPEG_PREFIX)/bin
unit-example: example
unit-batch:
	@echo "== cspfix-batch on generated clips (-j2, and over ssh to a private sshd on 127.0.0.1)"; $(T)/batch_test.sh $(FFMPEG_PREFIX)/bin
unit-load: load-short
unit-patch:
	@echo "== make patch: git am onto a pristine tree"; $(T)/patch_test.sh $(FFMPEG_SRCDIR)
unit-encode:
	@echo "== encoders: cspfix in front of SVT-AV1 (x265, x264 if built), HDR10 read back"; \
	    ENCODE_TEST_REQUIRE="libsvtav1 libaom-av1 libdav1d" HDR_CLIP=$(OUT)/hdr_clip \
	    HDR_PATTERN=$(OUT)/hdr_pattern $(T)/encode_test.sh $(FFMPEG_PREFIX)/bin
unit-checkasm:
	@echo "== checkasm: SIMD kernels against C"
	@$(MAKE) -s -C $(FFMPEG_OBJ) checkasm >/dev/null
	@$(FFMPEG_OBJ)/tests/checkasm/checkasm --test=cspfix
	@if grep -qw avx512bw /proc/cpuinfo; then \
	    echo "AVX-512: this CPU has it; its kernels were checked above and run in FATE's base variant (avx2t2 masks them)"; \
	else \
	    echo "AVX-512: this CPU lacks it; the AVX-512 kernels were NOT checked (checkasm and FATE skip them)"; fi

build: $(PROGS)

$(OUT):
	mkdir -p $@

LIBDEPS := $(FFMPEG_PREFIX)/lib/libavfilter.a

$(OUT)/refmodel_selftest: $(T)/cspfix_refmodel.c $(T)/cspfix_refmodel_selftest.c $(T)/cspfix_refmodel.h | $(OUT)
	$(CC) $(CFLAGS) -o $@ $(T)/cspfix_refmodel.c $(T)/cspfix_refmodel_selftest.c -lm

LAVU_CFLAGS = $(shell $(PKG) --cflags libavutil)
LAVU_LIBS   = $(shell $(PKG) --static --libs libavutil) -lm

$(OUT)/map_test: $(T)/cspfix_map_test.c libavfilter/cspfix_v4l2.c libavfilter/cspfix_gst.c | $(OUT)
	$(CC) $(CFLAGS) -I. $(LAVU_CFLAGS) -o $@ $^ $(LAVU_LIBS)

$(OUT)/plan_test: $(T)/cspfix_plan_test.c $(T)/cspfix_refmodel.c $(LIBDEPS) | $(OUT)
	$(CC) $(CFLAGS) -I$(T) -I$(FFMPEG_SRCDIR) -I$(FFMPEG_OBJ) $(LAVFI_CFLAGS) -o $@ \
		$(T)/cspfix_plan_test.c $(T)/cspfix_refmodel.c $(LAVFI_LIBS)

$(OUT)/exec_test: $(T)/cspfix_exec_test.c $(T)/cspfix_testutil.c $(LIBDEPS) | $(OUT)
	$(CC) $(CFLAGS) -I$(T) -I$(FFMPEG_SRCDIR) -I$(FFMPEG_OBJ) $(LAVFI_CFLAGS) -o $@ \
		$(T)/cspfix_exec_test.c $(T)/cspfix_testutil.c $(LAVFI_LIBS)

$(OUT)/api_test: $(T)/cspfix_api_test.c $(T)/cspfix_testutil.c $(LIBDEPS) | $(OUT)
	$(CC) $(CFLAGS) -I$(T) $(LAVFI_CFLAGS) -o $@ $(T)/cspfix_api_test.c $(T)/cspfix_testutil.c $(LAVFI_LIBS)

$(OUT)/tone_test: $(T)/cspfix_tone_test.c $(T)/cspfix_testutil.c $(LIBDEPS) | $(OUT)
	$(CC) $(CFLAGS) -I$(T) -I$(FFMPEG_SRCDIR) -I$(FFMPEG_OBJ) $(LAVFI_CFLAGS) -o $@ \
		$(T)/cspfix_tone_test.c $(T)/cspfix_testutil.c $(LAVFI_LIBS)

$(OUT)/light_test: $(T)/cspfix_light_test.c $(T)/cspfix_testutil.c $(LIBDEPS) | $(OUT)
	$(CC) $(CFLAGS) -I$(T) $(LAVFI_CFLAGS) -o $@ $(T)/cspfix_light_test.c $(T)/cspfix_testutil.c $(LAVFI_LIBS)

$(OUT)/hue_test: $(T)/cspfix_hue_test.c $(T)/cspfix_testutil.c $(LIBDEPS) | $(OUT)
	$(CC) $(CFLAGS) -I$(T) $(LAVFI_CFLAGS) -o $@ $(T)/cspfix_hue_test.c $(T)/cspfix_testutil.c $(LAVFI_LIBS)

# the Dolby Vision and HDR10+ clips of the encoder tests (FFmpeg's SVT-AV1 and libaom
# writers) and their pattern
$(OUT)/hdr_clip: tools/hdr_clip.c tools/hdr_pattern.h $(LIBDEPS) | $(OUT)
	$(CC) $(CFLAGS) $(shell $(PKG) --cflags libavformat libavcodec) -o $@ tools/hdr_clip.c \
	    $(shell $(PKG) --static --libs libavformat libavcodec libavutil) -lm

$(OUT)/hdr_pattern: tools/hdr_pattern.c tools/hdr_pattern.h | $(OUT)
	$(CC) $(CFLAGS) -o $@ tools/hdr_pattern.c -lm

$(OUT)/detect_test: $(T)/cspfix_detect_test.c $(T)/cspfix_testutil.c $(LIBDEPS) | $(OUT)
	$(CC) $(CFLAGS) -I$(T) $(LAVFI_CFLAGS) -o $@ $(T)/cspfix_detect_test.c $(T)/cspfix_testutil.c $(LAVFI_LIBS)

$(OUT)/ycgcor_test: $(T)/cspfix_ycgcor_test.c $(T)/cspfix_testutil.c $(LIBDEPS) | $(OUT)
	$(CC) $(CFLAGS) -I$(T) $(LAVFI_CFLAGS) -o $@ $(T)/cspfix_ycgcor_test.c $(T)/cspfix_testutil.c $(LAVFI_LIBS)

$(OUT)/icc_test: $(T)/cspfix_icc_test.c $(T)/cspfix_testutil.c $(LIBDEPS) | $(OUT)
	$(CC) $(CFLAGS) -I$(T) $(shell $(PKG) --cflags libavfilter libavcodec lcms2) -o $@ $(T)/cspfix_icc_test.c \
	    $(T)/cspfix_testutil.c $(shell $(PKG) --static --libs libavfilter libavcodec) $(shell pkg-config --libs lcms2) -lm

$(OUT)/dovi_test: $(T)/cspfix_dovi_test.c $(T)/cspfix_testutil.c $(LIBDEPS) | $(OUT)
	$(CC) $(CFLAGS) -I$(T) $(LAVFI_CFLAGS) -o $@ $(T)/cspfix_dovi_test.c $(T)/cspfix_testutil.c $(LAVFI_LIBS)

$(OUT)/interlace_test: $(T)/cspfix_interlace_test.c $(T)/cspfix_testutil.c $(LIBDEPS) | $(OUT)
	$(CC) $(CFLAGS) -I$(T) $(LAVFI_CFLAGS) -o $@ $(T)/cspfix_interlace_test.c $(T)/cspfix_testutil.c $(LAVFI_LIBS)

# --wrap: the test counts (and fails) libavutil's allocations
$(OUT)/badinput_test: $(T)/cspfix_badinput_test.c $(T)/cspfix_testutil.c $(LIBDEPS) | $(OUT)
	$(CC) $(CFLAGS) -I$(T) $(LAVFI_CFLAGS) -o $@ $(T)/cspfix_badinput_test.c $(T)/cspfix_testutil.c \
		-Wl,--wrap=posix_memalign,--wrap=realloc $(LAVFI_LIBS)

$(OUT)/format_test: $(T)/cspfix_format_test.c $(T)/cspfix_testutil.c $(T)/cspfix_refmodel.c $(LIBDEPS) | $(OUT)
	$(CC) $(CFLAGS) -I$(T) $(LAVFI_CFLAGS) -o $@ $(T)/cspfix_format_test.c $(T)/cspfix_testutil.c \
		$(T)/cspfix_refmodel.c $(LAVFI_LIBS)

$(OUT)/precision: $(T)/cspfix_precision.c $(T)/cspfix_testutil.c $(T)/cspfix_refmodel.c $(LIBDEPS) | $(OUT)
	$(CC) $(CFLAGS) -I$(T) $(LAVFI_CFLAGS) -o $@ $(T)/cspfix_precision.c \
		$(T)/cspfix_testutil.c $(T)/cspfix_refmodel.c $(LAVFI_LIBS)

# the load test's allocation counter (tools/load-test.sh), preloaded into ffmpeg:
# not built with SAN_FLAGS (it wraps the allocator of a normal build)
$(OUT)/cspfix_alloc_shim.so: $(T)/cspfix_alloc_shim.c | $(OUT)
	$(CC) -O2 -g -std=gnu11 -Wall -Wextra -fPIC -shared -pthread -o $@ $< -ldl

# the short form of make load-test (about 45 s): 2 processes at 960x540 must keep
# their live heap blocks flat, then the same with an injected leak must fail
.PHONY: load-short
load-short: $(OUT)/cspfix_alloc_shim.so
	@echo "== load test, short form: live heap flat over $(LOAD_SHORT_TIME) s, and an injected leak caught"
	@tools/load-test.sh short $(FFMPEG_PREFIX)/bin/ffmpeg $(OUT)/cspfix_alloc_shim.so $(LOAD_SHORT_TIME) $(OUT)/load-test

# make install into a fresh prefix (tools/install-ffmpeg.sh on this build), then
# the example application built against it with pkg-config only, and run.
INST := $(OUT)/install
.PHONY: example
example:
	@echo "== make install (tools/install-ffmpeg.sh) and doc/examples/cspfix_example.c through pkg-config"
	@rm -rf $(INST); tools/install-ffmpeg.sh $(FFMPEG_OBJ) $(INST)
	@echo "pkg-config: libavfilter $$(PKG_CONFIG_PATH=$(INST)/lib/pkgconfig pkg-config --modversion libavfilter), prefix $$(PKG_CONFIG_PATH=$(INST)/lib/pkgconfig pkg-config --variable=prefix libavfilter)"
	$(CC) $(CFLAGS) -o $(OUT)/cspfix_example doc/examples/cspfix_example.c \
		$$(PKG_CONFIG_PATH=$(INST)/lib/pkgconfig pkg-config --cflags --libs libavfilter) -lm
	@$(OUT)/cspfix_example
	@rm -rf $(INST)

# FATE checksum tests (fate/cspfix.mak): make fate-cspfix in the FFmpeg build
# directory, with FFmpeg's make free of our flags and variables.  Fails when a
# checksum differs; the full log is $(FATE_LOG).
FATE_JOBS ?= 2
FATE_TARGET ?= fate-cspfix
FATE_LOG   = $(OUT)/fate-cspfix.log
.PHONY: fate
fate:
	@echo "== FATE checksums: make -j$(FATE_JOBS) $(if $(word 2,$(FATE_TARGET)),<$(words $(FATE_TARGET)) tests>,$(FATE_TARGET)) (log: $(FATE_LOG))"
	@mkdir -p $(OUT); t0=$$(date +%s); rc=0; \
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -C $(FFMPEG_OBJ) -k -j$(FATE_JOBS) \
		$(if $(FATE_VARIANTS),CSPFIX_VARIANTS="$(FATE_VARIANTS)") \
		$(FATE_TARGET) >$(FATE_LOG) 2>&1 || rc=$$?; \
	n=$$(grep -c '^TEST ' $(FATE_LOG)); \
	failed=$$(sed -n 's/^Test \(.*\) failed\..*/\1/p' $(FATE_LOG) | sort); \
	echo "$$n FATE runs in $$(( $$(date +%s) - t0 )) s, $$(printf '%s' "$$failed" | grep -c .) failed"; \
	if [ $$rc != 0 ]; then \
		if [ -n "$$failed" ]; then \
			printf '  %s\n' $$failed | head -n 50; \
			echo "  (diffs: $(FFMPEG_OBJ)/tests/data/fate/<test>.diff, logs: <test>.err)"; \
		else tail -n 30 $(FATE_LOG); fi; \
		exit 1; \
	fi

# ---- sanitizers and fuzzing (make check-asan, make fuzz in the top Makefile) ----
# Run against the ASan+UBSan build (tools/build-ffmpeg.sh asan) with CC=clang and
# SAN_FLAGS set; every finding is fatal.
SAN_ENV := ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1 \
           UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
# the precision test narrowed to a few conversions (the full one is in make check)
ASAN_PRECISION ?= 4:2:0
FUZZ_SHORT     ?= 30

# The parts run two at a time (make -j2, each part's output kept together): the
# execution-path test, the longest part under the sanitizers, in ASAN_EXEC_SHARDS shards.
ASAN_EXEC_SHARDS ?= 4
ASAN_EXEC  = $(addprefix asan-exec-,$(shell seq 0 $$(($(ASAN_EXEC_SHARDS) - 1))))
ASAN_PARTS = $(ASAN_EXEC) asan-plan asan-api asan-interlace asan-light asan-dovi asan-tone asan-hue \
             asan-icc asan-detect asan-ycgcor asan-badinput asan-badinput-c asan-format \
             asan-precision asan-checkasm asan-cli asan-fuzz

.PHONY: check-asan $(ASAN_PARTS)
check-asan: $(OUT)/plan_test $(OUT)/exec_test $(OUT)/api_test $(OUT)/interlace_test $(OUT)/format_test $(OUT)/badinput_test $(OUT)/precision $(OUT)/cspfix_fuzz $(OUT)/light_test $(OUT)/tone_test $(OUT)/dovi_test $(OUT)/hue_test $(OUT)/icc_test $(OUT)/detect_test $(OUT)/ycgcor_test
	@$(MAKE) -s -C $(FFMPEG_OBJ) checkasm >/dev/null
	@echo "== [asan] $(words $(ASAN_PARTS)) parts, two at a time"; t0=$$(date +%s); \
	$(MAKE) --no-print-directory -f $(T)/tests.mk -j2 -O $(ASAN_PARTS); \
	echo "== [asan] the parts took $$(( $$(date +%s) - t0 )) s"
	@echo "== [asan] FATE, first variant, groups: $(ASAN_FATE_GROUPS)"
	@$(SAN_ENV) $(MAKE) --no-print-directory -f $(T)/tests.mk fate FATE_TARGET="$(ASAN_FATE_TARGETS)"

# (a static pattern rule: make looks up no implicit rule for a phony target)
$(ASAN_EXEC): asan-exec-%:
	@echo "== [asan] execution paths, C kernels only, shard $*/$(ASAN_EXEC_SHARDS)"
	@CSPFIX_CPUFLAGS=0 $(SAN_ENV) $(OUT)/exec_test --shard $*/$(ASAN_EXEC_SHARDS)
asan-plan:
	@echo "== [asan] planner unit tests";  $(SAN_ENV) $(OUT)/plan_test
asan-api:
	@echo "== [asan] API tests";           $(SAN_ENV) $(OUT)/api_test
asan-interlace:
	@echo "== [asan] interlaced frames";   $(SAN_ENV) $(OUT)/interlace_test
asan-light:
	@echo "== [asan] measured light";      $(SAN_ENV) $(OUT)/light_test
asan-dovi:
	@echo "== [asan] Dolby Vision reshaping"; $(SAN_ENV) $(OUT)/dovi_test
asan-tone:
	@echo "== [asan] tone curves";         $(SAN_ENV) $(OUT)/tone_test
asan-hue:
	@echo "== [asan] hue and lightness through tone mapping"; $(SAN_ENV) $(OUT)/hue_test
asan-icc:
	@echo "== [asan] ICC profiles";        $(SAN_ENV) $(OUT)/icc_test
asan-detect:
	@echo "== [asan] detector";            $(SAN_ENV) $(OUT)/detect_test
asan-ycgcor:
	@echo "== [asan] YCgCo-R";             $(SAN_ENV) $(OUT)/ycgcor_test
asan-badinput:
	@echo "== [asan] bad input and nothing lost"; $(SAN_ENV) $(OUT)/badinput_test
asan-badinput-c:
	@echo "== [asan] bad input, C kernels only (ASan sees their accesses)"
	@CSPFIX_CPUFLAGS=0 $(SAN_ENV) $(OUT)/badinput_test
asan-format:
	@echo "== [asan] pixel format tests";  $(SAN_ENV) $(OUT)/format_test
asan-precision:
	@echo "== [asan] precision: '$(ASAN_PRECISION)'"; $(SAN_ENV) $(OUT)/precision $(ASAN_PRECISION)
asan-checkasm:
	@echo "== [asan] checkasm"
	@$(SAN_ENV) $(FFMPEG_OBJ)/tests/checkasm/checkasm --test=cspfix
asan-cli:
	@echo "== [asan] command-line tests";  $(SAN_ENV) $(T)/cli_test.sh $(FFMPEG_PREFIX)/bin
asan-fuzz:
	@echo "== [asan] fuzzer: seed corpus, then $(FUZZ_SHORT) s of fuzzing"
	@$(SAN_ENV) $(OUT)/cspfix_fuzz $(T)/fuzz-corpus/* 2>$(OUT)/fuzz-replay.log || { tail -n 40 $(OUT)/fuzz-replay.log; exit 1; }
	@echo "$$(ls $(T)/fuzz-corpus | wc -l) seeds replayed clean"
	@rm -rf $(OUT)/fuzz-corpus-short
	@$(MAKE) --no-print-directory -f $(T)/tests.mk fuzz FUZZ_TIME=$(FUZZ_SHORT) FUZZ_CORPUS=$(OUT)/fuzz-corpus-short

# FATE under the sanitizers: the first variant of the groups in ASAN_FATE_GROUPS (every
# value, format, pixel format and option; the pairs and the covering array only
# recombine them, through the same code); ASAN_FATE_GROUPS=all runs every test
# (fate-cspfix-primary).
ASAN_FATE_GROUPS ?= value fmt opt pix
empty :=
space := $(empty) $(empty)
ASAN_FATE_TARGETS = $(if $(filter all,$(ASAN_FATE_GROUPS)),fate-cspfix-primary,$(shell sed -n \
    's/^CSPFIX_TESTS_\($(subst $(space),\|,$(strip $(ASAN_FATE_GROUPS)))\) += \(.*\)/fate-cspfix-\2/p' \
    $(FFMPEG_SRCDIR)/tests/fate-cspfix/list.mak))

# The fuzzer: the cspfix sources recompiled with coverage instrumentation (they
# replace libavfilter.a's members at link time), the rest of FFmpeg from the
# sanitizer build.
FUZZ_CC    ?= clang
FUZZ_SAN   := -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
FF_CPPFLAGS = -D_ISOC11_SOURCE -D_FILE_OFFSET_BITS=64 -D_LARGEFILE_SOURCE -D_POSIX_C_SOURCE=200112 \
              -D_XOPEN_SOURCE=600 -DPIC -DHAVE_AV_CONFIG_H -I$(FFMPEG_OBJ) -I$(FFMPEG_SRCDIR) \
              -I$(FFMPEG_SRCDIR)/compat/stdbit
FUZZ_SRCS  := $(filter-out %_template.c,$(wildcard libavfilter/vf_cspfix.c libavfilter/cspfix*.c libavfilter/x86/cspfix*.c))
FUZZ_OBJS   = $(FUZZ_SRCS:libavfilter/%.c=$(OUT)/fuzzobj/%.o)

$(OUT)/fuzzobj/%.o: libavfilter/%.c $(LIBDEPS)
	@mkdir -p $(@D)
	$(FUZZ_CC) -c -O1 -g -std=c17 $(FF_CPPFLAGS) -fsanitize=fuzzer-no-link $(FUZZ_SAN) -o $@ $(FFMPEG_SRCDIR)/$<

$(OUT)/cspfix_fuzz: $(T)/cspfix_fuzz.c $(FUZZ_OBJS) $(LIBDEPS) | $(OUT)
	$(FUZZ_CC) -O1 -g -fsanitize=fuzzer $(FUZZ_SAN) $(LAVFI_CFLAGS) -o $@ $(T)/cspfix_fuzz.c \
		$(FUZZ_OBJS) $(LAVFI_LIBS)

# make fuzz FUZZ_TIME=600: the committed seeds plus a working corpus in $(OUT);
# findings are written to $(OUT)/fuzz-artifacts/.
FUZZ_TIME   ?= 60
FUZZ_CORPUS ?= $(OUT)/fuzz-corpus
.PHONY: fuzz
fuzz: $(OUT)/cspfix_fuzz
	@mkdir -p $(FUZZ_CORPUS) $(OUT)/fuzz-artifacts
	@echo "fuzzing for $(FUZZ_TIME) s (log: $(OUT)/fuzz.log)"
	@rc=0; $(SAN_ENV) $(OUT)/cspfix_fuzz -max_total_time=$(FUZZ_TIME) -timeout=20 -rss_limit_mb=3072 \
		-max_len=4096 -print_final_stats=1 -artifact_prefix=$(OUT)/fuzz-artifacts/ \
		$(FUZZ_CORPUS) $(T)/fuzz-corpus >$(OUT)/fuzz.log 2>&1 || rc=$$?; \
	grep -E '^#[0-9]+ +(INITED|DONE)|stat::number_of_executed_units|stat::peak_rss|cov:' $(OUT)/fuzz.log | \
		grep -E 'INITED|DONE|stat::' ; \
	if [ $$rc != 0 ]; then tail -n 60 $(OUT)/fuzz.log; echo "fuzzer FAILED: see $(OUT)/fuzz-artifacts/"; exit 1; fi

# valgrind memcheck on the normal (gcc) build: the SIMD kernels too, which ASan
# does not instrument
VALGRIND := valgrind -q --leak-check=full --errors-for-leak-kinds=definite,indirect --error-exitcode=99
.PHONY: valgrind
valgrind: $(OUT)/badinput_test
	@echo "== valgrind memcheck"
	@sh $(T)/valgrind_test.sh "$(VALGRIND)" $(FFMPEG_PREFIX)/bin/ffmpeg
