# SPDX-License-Identifier: GPL-2.0
# mncompat front door. KERNELS=deb-6.1,src-6.12 limits the kernels;
# MNCOMPAT_CACHE is where kernels live (default /var/cache/mncompat for root,
# ${XDG_CACHE_HOME:-~/.cache}/mncompat for anyone else).
# make deps (as root, once): the tool packages; everything else runs as any
# user (as root, matrix and test install missing tools themselves).
# make matrix DRIVER=dir [TESTS=file-or-dir] [CONVERT=compat|native|atomic]:
# your own driver instead of the samples (ci/run/driver-matrix.sh; CONVERT picks
# how semantic-patches/convert.sh converts it, default compat).
# make unit: the unit tier (no kernel, no guest, seconds; make test runs it
# first). Measurements, run by hand (README "Timings" and TIMINGS.md, "Boots you can trust"):
# make benchmark [BENCHMARK="warm driver cold"], make bench (convert.sh
# against grep), make later-breaks (convert.sh against upstream's own hunks:
# 5.10 -> 6.12, 6.1 -> 6.12, 6.12 -> 7.3, semantic-patches/check-pairs.sh),
# make boot-flake FLAKE="[-n BOOTS ...] SUITE_FILE KERNEL...".

# What the command line gives (DRIVER, TESTS, CONVERT, KERNELS, ...) is
# data: taken as written (make expands nothing in it: a $ stays a $), put
# in the environment of the recipes (which name it "$$VAR", quoted) and not
# handed on to the makes the scripts run (kbuild, the matrix's plan).
$(foreach v,$(.VARIABLES),$(if $(filter command line,$(origin $(v))),$(eval \
	override $(v) := $$(value $(v)))$(eval export $(v))))
MAKEOVERRIDES :=

SUITES := $(wildcard drivers-sample/*/*.suite)
export KERNELS MNCOMPAT_CACHE MNCOMPAT_OUT

.PHONY: all deps setup kernels matrix test unit check clean \
	benchmark bench later-breaks boot-flake

all: matrix

deps:
	ci/install-deps.sh

setup: deps

kernels: setup
	ci/kernels/prepare-kernel.sh

matrix: setup
ifneq ($(origin DRIVER),undefined)
	ci/run/driver-matrix.sh $${CONVERT:+"--convert=$$CONVERT"} -- \
		"$$DRIVER" $${TESTS:+"$$TESTS"}
else
	ci/run/matrix.sh $(SUITES)
endif

test:
	ci/test.sh

unit:
	ci/tests/unit/unit.py

check:
	ci/checks/check-style.sh

# BENCHMARK and FLAKE are lists of words: split on blanks, never globbed.
benchmark: setup
	set -f && ci/bench/benchmark.sh $${BENCHMARK-}

bench: setup
	semantic-patches/bench.sh

later-breaks: setup
	semantic-patches/check-pairs.sh

boot-flake: setup
	set -f && ci/bench/boot-flake.sh $${FLAKE-}

clean:
	rm -rf out
