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
#   make bench         tools/cspfix-bench on the test build (B1..B8 against the peers;
#                      BENCH_ARGS="--only B1 --runs 9" etc. are passed on)
#   make bench-quick   the same with --quick (small frames: a smoke test)
#   make overlay       fetch FFmpeg and overlay our files only
#   make clean / distclean
#
# FFMPEG_SRC=/path/to/ffmpeg uses a copy of that tree instead of Debian's.

FFMPEG_SERIES ?= 9.0
OLD_SERIES    ?= 8.1
FFMPEG_SRC    ?=
STRICT        ?=
BUILD         := $(CURDIR)/build
export FFMPEG_SRC

# 'fetch' resolves the FFmpeg tree once per make invocation and writes its
# path to $(STATE) (empty: skipped); the later recipes read it with $(LOAD).
STATE := $(BUILD)/.src-$(if $(FFMPEG_SRC),user,$(FFMPEG_SERIES))
LOAD   = src=$$(cat $(STATE)); [ -n "$$src" ] || exit 0; \
         ver=$$(basename $$src | sed 's/^ffmpeg-//'); chk=$(BUILD)/check-$$ver;

.PHONY: all deps fetch overlay ffmpeg-check check check-one demo clean distclean

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
		FFMPEG_SRCDIR=$$src OUT=$$chk/tests

check:
	$(MAKE) check-one
ifeq ($(FFMPEG_SRC),)
ifneq ($(OLD_SERIES),$(FFMPEG_SERIES))
	$(MAKE) check-one FFMPEG_SERIES=$(OLD_SERIES) STRICT=1
endif
endif

demo: ffmpeg-check
	@set -e; $(LOAD) tools/demo.sh $$chk/prefix $(BUILD)/demo

# The benchmark is built against the check build's static libraries, into
# build/check-<ver>/bench/ (the rule below, reached through a recursive make).
BENCH_ARGS   ?=
BENCH_CFLAGS := -O2 -g -std=c11 -Wall -Wextra

.PHONY: bench bench-quick
bench bench-quick: ffmpeg-check
	@set -e; $(LOAD) $(MAKE) --no-print-directory $$chk/bench/cspfix-bench; \
	$$chk/bench/cspfix-bench $(if $(filter bench-quick,$@),--quick) $(BENCH_ARGS)

$(BUILD)/%/bench/cspfix-bench: tools/cspfix-bench.c $(BUILD)/%/prefix/lib/libavfilter.a
	@mkdir -p $(@D)
	$(CC) $(BENCH_CFLAGS) $$(PKG_CONFIG_PATH=$(BUILD)/$*/prefix/lib/pkgconfig pkg-config --cflags libavfilter) \
		-o $@ $< $$(PKG_CONFIG_PATH=$(BUILD)/$*/prefix/lib/pkgconfig pkg-config --static --libs libavfilter) -lm

clean:
	rm -rf $(BUILD)/check-* $(BUILD)/obj-*

distclean:
	rm -rf $(BUILD)
