# SPDX-License-Identifier: GPL-2.0
# mncompat front door. KERNELS=deb-6.1,src-6.12 limits the kernels;
# MNCOMPAT_CACHE (default /var/cache/mncompat) is where kernels live.

SUITES := $(wildcard drivers-sample/*/*.suite)
export KERNELS MNCOMPAT_CACHE MNCOMPAT_OUT

.PHONY: all setup kernels matrix test check clean

all: matrix

setup:
	ci/install-deps.sh

kernels: setup
	ci/prepare-kernel.sh

matrix: setup
	ci/matrix.sh $(SUITES)

test:
	ci/test.sh

check:
	ci/check-style.sh

clean:
	rm -rf out
