#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Usage: ci/kernels/kernel-rows.sh
# Print the kernels of ci/kernels/kernels.list ($KERNELS_LIST) as a JSON array of
# names, in order: the GitHub Actions template fans out one job per row
# from it, so a row added to the list is a job.
set -eu
. "$(dirname "$0")/../lib.sh"

kernel_names | awk '{ printf "%s\"%s\"", (NR > 1 ? ", " : "["), $1 }
	END { print (NR ? "]" : "[]") }'
