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

T        := tests
CC       ?= cc
CFLAGS   := -O2 -g -std=c11 -Wall -Wextra -Wno-unused-parameter -Wno-sign-compare -Wno-missing-field-initializers
PKG      := PKG_CONFIG_PATH=$(FFMPEG_PREFIX)/lib/pkgconfig pkg-config
LAVFI_CFLAGS = $(shell $(PKG) --cflags libavfilter)
LAVFI_LIBS   = $(shell $(PKG) --static --libs libavfilter) -lm

PROGS := $(OUT)/map_test $(OUT)/refmodel_selftest $(OUT)/plan_test $(OUT)/api_test $(OUT)/format_test $(OUT)/precision

.PHONY: check build
check: build
	@echo "== reference model self-test"
	@$(OUT)/refmodel_selftest > $(OUT)/refmodel_selftest.log || { cat $(OUT)/refmodel_selftest.log; exit 1; }
	@tail -n 1 $(OUT)/refmodel_selftest.log
	@echo "== V4L2 and GStreamer colorimetry tables"
	@$(OUT)/map_test > $(OUT)/map_test.log || { cat $(OUT)/map_test.log; exit 1; }
	@tail -n 1 $(OUT)/map_test.log
	@echo "== planner unit tests";         $(OUT)/plan_test
	@echo "== API tests";                  $(OUT)/api_test
	@echo "== pixel format tests";         $(OUT)/format_test
	@echo "== command-line tests";         $(T)/cli_test.sh $(FFMPEG_PREFIX)/bin
	@$(MAKE) --no-print-directory -f $(T)/tests.mk example
	@echo "== cspfix-batch on generated clips (-j2)"; $(T)/batch_test.sh $(FFMPEG_PREFIX)/bin
	@echo "== make patch: git am onto a pristine tree"; $(T)/patch_test.sh $(FFMPEG_SRCDIR)
	@echo "== checkasm: SIMD kernels against C"
	@$(MAKE) -s -C $(FFMPEG_OBJ) checkasm >/dev/null
	@$(FFMPEG_OBJ)/tests/checkasm/checkasm --test=cspfix
	@echo "== precision against the float64 reference"; $(OUT)/precision $(PRECISION_ARGS)
	@$(MAKE) --no-print-directory -f $(T)/tests.mk fate

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

$(OUT)/api_test: $(T)/cspfix_api_test.c $(T)/cspfix_testutil.c $(LIBDEPS) | $(OUT)
	$(CC) $(CFLAGS) -I$(T) $(LAVFI_CFLAGS) -o $@ $(T)/cspfix_api_test.c $(T)/cspfix_testutil.c $(LAVFI_LIBS)

$(OUT)/format_test: $(T)/cspfix_format_test.c $(T)/cspfix_testutil.c $(T)/cspfix_refmodel.c $(LIBDEPS) | $(OUT)
	$(CC) $(CFLAGS) -I$(T) $(LAVFI_CFLAGS) -o $@ $(T)/cspfix_format_test.c $(T)/cspfix_testutil.c \
		$(T)/cspfix_refmodel.c $(LAVFI_LIBS)

$(OUT)/precision: $(T)/cspfix_precision.c $(T)/cspfix_testutil.c $(T)/cspfix_refmodel.c $(LIBDEPS) | $(OUT)
	$(CC) $(CFLAGS) -I$(T) $(LAVFI_CFLAGS) -o $@ $(T)/cspfix_precision.c \
		$(T)/cspfix_testutil.c $(T)/cspfix_refmodel.c $(LAVFI_LIBS)

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
FATE_LOG   = $(OUT)/fate-cspfix.log
.PHONY: fate
fate:
	@echo "== FATE checksums: make -j$(FATE_JOBS) fate-cspfix (log: $(FATE_LOG))"
	@mkdir -p $(OUT); t0=$$(date +%s); rc=0; \
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -C $(FFMPEG_OBJ) -k -j$(FATE_JOBS) \
		fate-cspfix >$(FATE_LOG) 2>&1 || rc=$$?; \
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
