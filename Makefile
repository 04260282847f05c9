# SPDX-License-Identifier: GPL-2.0
# mncompat front door. KERNELS=deb-6.1,src-6.12 limits the kernels;
# MNCOMPAT_CACHE is where kernels live (default /var/cache/mncompat for root,
# ${XDG_CACHE_HOME:-~/.cache}/mncompat for anyone else).
# make deps (as root, once): the tool packages; everything else runs as any
# user (as root, matrix and test install missing tools themselves).
# make matrix DRIVER=dir [TESTS=file-or-dir] [CONVERT=compat|native|atomic]:
# your own driver instead of the samples (ci/driver-matrix.sh; CONVERT picks
# how semantic-patches/convert.sh converts it, default compat).

SUITES := $(wildcard drivers-sample/*/*.suite)
export KERNELS MNCOMPAT_CACHE MNCOMPAT_OUT

.PHONY: all deps setup kernels matrix test check clean

all: matrix

deps:
	ci/install-deps.sh

setup: deps

kernels: setup
	ci/prepare-kernel.sh

matrix: setup
ifdef DRIVER
	ci/driver-matrix.sh $(if $(CONVERT),--$(CONVERT)) $(DRIVER) $(TESTS)
else
	ci/matrix.sh $(SUITES)
endif

test:
	ci/test.sh

check:
	ci/check-style.sh

clean:
	rm -rf out
