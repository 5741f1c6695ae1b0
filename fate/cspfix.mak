# cspfix FATE tests: checksums of every combination of colour descriptions and
# pixel formats, identical under every CPU flag mask and thread count.
#
# Copied to tests/fate-cspfix/ and included from tests/Makefile by
# tools/overlay.sh, which also writes tests/fate-cspfix/list.mak: the tests
# expanded by tools/fate-gen.py from the declarative fate/spec.txt.  Refs are
# tests/fate-cspfix/ref/cspfix-<test> (fate/ref/ in the cspfix repository).
#
#   make fate-cspfix               every test, every variant
#   make fate-cspfix-GROUP         one group: value pair fmt cover opt pix
#   make fate-cspfix-primary       every test, first variant only (GEN=1 uses it)
#   make fate-list | grep cspfix
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

CSPFIX_DIR := $(SRC_PATH)/tests/fate-cspfix
include $(CSPFIX_DIR)/list.mak

# Invariance variants, one word each: NAME:CPUFLAGS:FILTER_THREADS.  Every test
# runs once per variant against the same ref.  The first variant's targets are
# fate-cspfix-TEST, the others fate-cspfix-TEST-NAME.  CPUFLAGS is an ffmpeg
# -cpuflags value (all: the detected flags, 0: plain C, sse2: only SSE2, ...);
# FILTER_THREADS the filter graph's thread count.  Adding a mask is adding a
# word, e.g. sse2t2:sse2:2 ssse3t1:ssse3:1 sse4.1t3:sse4.1:3 avx2t2:avx2:2
CSPFIX_VARIANTS := base:all:1 c0t3:0:3 sse41t2:sse4.1:2
# On a CPU with AVX-512, `all` runs the AVX-512 kernels; the avx2t2 variant masks
# them (a -cpuflags value with a leading - is relative to the detected flags) so
# that the AVX2 kernels are checked too. The SIMD masks run every group but the
# covering array (which only recombines the values, pairs and formats of the
# others; it runs with the detected flags and in plain C).
CSPFIX_VARIANT_GROUPS_sse41t2 := value pair fmt opt pix
CSPFIX_HOST_AVX512 := $(shell grep -qw avx512bw /proc/cpuinfo 2>/dev/null && echo yes)
ifeq ($(CSPFIX_HOST_AVX512),yes)
CSPFIX_VARIANTS += avx2t2:-avx512-avx512icl:2
CSPFIX_VARIANT_GROUPS_avx2t2 := value pair fmt opt pix
endif
# the groups a variant runs (default: all)
cspfix_var_groups = $(or $(CSPFIX_VARIANT_GROUPS_$(call cspfix_var,$(1),1)),$(CSPFIX_GROUPS))

# framemd5 of the output; error tests: the filter's error lines (see
# cspfix-expect-error.sh)
CSPFIX_RUN_md5 = framemd5
CSPFIX_RUN_err = . $(CSPFIX_DIR)/cspfix-expect-error.sh; cspfix_expect_error

CSPFIX_FIRST := $(firstword $(CSPFIX_VARIANTS))
cspfix_var    = $(word $(2),$(subst :, ,$(1)))

# $(1) test, $(2) group, $(3) variant, $(4) target
define CSPFIX_TEST
FATE_CSPFIX += $(4)
FATE_CSPFIX_$(2) += $(4)
$(if $(filter $(3),$(CSPFIX_FIRST)),FATE_CSPFIX_PRIMARY += $(4))
$(4): CPUFLAGS = $(call cspfix_var,$(3),2)
$(4): CMD = $$(CSPFIX_RUN_$$(CSPFIX_KIND_$(1))) -filter_complex_threads $(call cspfix_var,$(3),3) $$(CSPFIX_ARGS_$(1))
$(4): REF = $(CSPFIX_DIR)/ref/cspfix-$(1)
endef

# `pix` tests need their pixel format in the FFmpeg under test (8.1 has fewer than 9.0)
CSPFIX_PIXFMTS := $(shell sed -n 's/^ *\.name *= *"\([^"]*\)".*/\1/p' $(SRC_PATH)/libavutil/pixdesc.c)
cspfix_has_fmt = $(if $(CSPFIX_NEEDFMT_$(1)),$(filter $(CSPFIX_NEEDFMT_$(1)),$(CSPFIX_PIXFMTS)),yes)

$(foreach g,$(CSPFIX_GROUPS),$(foreach t,$(CSPFIX_TESTS_$(g)),$(if $(call cspfix_has_fmt,$(t)),$(foreach v,$(CSPFIX_VARIANTS),$(if $(filter $(g),$(call cspfix_var_groups,$(v))),\
    $(eval $(call CSPFIX_TEST,$(t),$(g),$(v),fate-cspfix-$(t)$(if $(filter $(v),$(CSPFIX_FIRST)),,-$(call cspfix_var,$(v),1)))))),\
    $(eval .PHONY: fate-cspfix-$(t))$(eval fate-cspfix-$(t): ; @echo "SKIP fate-cspfix-$(t): no $(CSPFIX_NEEDFMT_$(t)) in this FFmpeg"))))

CSPFIX_NEEDS = CSPFIX_FILTER NULLSRC_FILTER FORMAT_FILTER GEQ_FILTER SETPARAMS_FILTER \
               CONCAT_FILTER SETPTS_FILTER FRAMEMD5_MUXER NULL_MUXER RAWVIDEO_ENCODER \
               WRAPPED_AVFRAME_ENCODER PIPE_PROTOCOL

ifeq ($(call ALLYES, $(CSPFIX_NEEDS)),yes)
FATE_FFMPEG += $(FATE_CSPFIX)
fate-cspfix: $(FATE_CSPFIX)
fate-cspfix-primary: $(FATE_CSPFIX_PRIMARY)
$(foreach g,$(CSPFIX_GROUPS),$(eval fate-cspfix-$(g): $$(FATE_CSPFIX_$(g))))
else
fate-cspfix fate-cspfix-primary $(CSPFIX_GROUPS:%=fate-cspfix-%):
	@echo "$@: this FFmpeg build lacks some of: $(CSPFIX_NEEDS)"; false
endif
