#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Usage: ci/tests/check-templates.sh
# The CI templates (ci/templates/) as a vendor copies them: each is YAML
# (yq parses it), fans out one job per row of ci/kernels/kernels.list (GitHub: the
# rows job's ci/kernels/kernel-rows.sh feeds the matrix; GitLab: the KERNEL list
# equals the rows), caches the kernel cache per row, runs the kit as the
# ordinary user "ci" after `make deps`, and ends in a job that needs every
# kernel job and runs ci/report/merge-results.sh. Broken copies (a row missing, a
# file that is no YAML, a kernel job as root) must fail the same checks.
# shellcheck disable=SC2016 # the CI expressions are literal text here
set -eu
. "$(dirname "$0")/../lib.sh"
. "$MNCOMPAT_TOP/ci/tap.sh"

templates=$MNCOMPAT_TOP/ci/templates
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The rows, read here without ci/lib.sh, which ci/kernels/kernel-rows.sh uses.
rows=$(awk '$1 !~ /^#/ && NF { print $1 }' "$MNCOMPAT_TOP/ci/kernels/kernels.list" |
	tr '\n' ' ' | sed 's/ $//')

# has FILE FILTER BRE WHY: a line of yq's raw output of FILTER on FILE
# matches BRE; else say WHY and fail.
has() {
	yq -r "$2" "$1" | grep -q "$3" || { echo "$4" && return 1; }
}

# is FILE FILTER VALUE WHY: yq's raw output of FILTER on FILE, its lines
# joined by blanks, is VALUE; else say WHY and fail.
is() {
	[ "$(yq -r "$2" "$1" | tr '\n' ' ' | sed 's/ $//')" = "$3" ] ||
		{ echo "$4" && return 1; }
}

# github_ok FILE: the GitHub Actions checks; the first failure is printed.
github_ok() {
	yq . "$1" >/dev/null &&
		is "$1" .jobs.kernel.strategy.matrix.kernel \
			'${{ fromJSON(needs.rows.outputs.kernels) }}' \
			"kernel matrix is not the rows job's output" &&
		has "$1" '.jobs.rows.steps[].run // empty' 'ci/kernels/kernel-rows.sh' \
			"rows job does not run ci/kernels/kernel-rows.sh" &&
		{ [ "$("$MNCOMPAT_TOP/ci/kernels/kernel-rows.sh" | jq -r '.[]' | tr '\n' ' ')" = "$rows " ] ||
			{ echo "ci/kernels/kernel-rows.sh is not the rows of ci/kernels/kernels.list" && false; }; } &&
		has "$1" '.jobs.kernel.steps[].run // empty' '^make deps$' \
			"kernel job does not run make deps" &&
		has "$1" '.jobs.kernel.steps[].run // empty' \
			'^runuser -u ci -- make matrix KERNELS=\${{ matrix.kernel }}' \
			"kernel job does not run make matrix as ci for its row" &&
		has "$1" '.jobs.kernel.steps[] | select(.uses // "" | startswith("actions/cache")) | .with.path + " " + .with.key' \
			'^/home/ci/.cache/mncompat mncompat-\${{ matrix.kernel }}-' \
			"kernel job does not cache ~ci/.cache/mncompat per row" &&
		is "$1" .jobs.report.needs kernel \
			"report job does not need the kernel jobs" &&
		has "$1" '.jobs.report.steps[].run // empty' 'ci/report/merge-results.sh' \
			"report job does not run ci/report/merge-results.sh"
}

# gitlab_ok FILE: the GitLab CI checks; the first failure is printed.
gitlab_ok() {
	yq . "$1" >/dev/null &&
		is "$1" '.kernel.parallel.matrix[0].KERNEL[]' "$rows" \
			"KERNEL list is not the rows of ci/kernels/kernels.list ($rows)" &&
		has "$1" '.kernel.before_script[]' '^make deps$' \
			"kernel job does not run make deps" &&
		has "$1" '.kernel.script[]' \
			'^runuser -u ci -- make matrix KERNELS=\$KERNEL ' \
			"kernel job does not run make matrix as ci for its row" &&
		is "$1" '.kernel.cache.key + " " + .kernel.cache.paths[0]' \
			'mncompat-$KERNEL .mncompat-cache/' \
			"kernel job does not cache .mncompat-cache per row" &&
		is "$1" .variables.MNCOMPAT_CACHE '$CI_PROJECT_DIR/.mncompat-cache' \
			"MNCOMPAT_CACHE is not the cached folder" &&
		is "$1" '.report.needs[]' kernel \
			"report job does not need the kernel jobs" &&
		has "$1" '.report.script[]' 'ci/report/merge-results.sh' \
			"report job does not run ci/report/merge-results.sh"
}

check "github-actions.yml: YAML, a job per row, cache, user ci, merge job" \
	github_ok "$templates/github-actions.yml"
check "gitlab-ci.yml: YAML, a job per row, cache, user ci, merge job" \
	gitlab_ok "$templates/gitlab-ci.yml"

# Negative controls: each broken copy must fail its check.
# refused WHAT CHECK FILE: CHECK must fail on FILE.
refused() {
	if "$2" "$3" >"$work/out" 2>&1; then
		not_ok "broken copy refused: $1"
	else
		ok "broken copy refused: $1 ($(tail -n 1 "$work/out"))"
	fi
}
sed 's/ fix413-6.1,//' "$templates/gitlab-ci.yml" >"$work/gitlab-missing-row.yml"
refused "gitlab-ci.yml without the fix413-6.1 row" gitlab_ok \
	"$work/gitlab-missing-row.yml"
sed 's/runuser -u ci -- make matrix/make matrix/' "$templates/gitlab-ci.yml" \
	>"$work/gitlab-root.yml"
refused "gitlab-ci.yml running make matrix as root" gitlab_ok \
	"$work/gitlab-root.yml"
sed 's/^  kernel:$/  kernel: [/' "$templates/github-actions.yml" \
	>"$work/github-not-yaml.yml"
refused "github-actions.yml that is no YAML" github_ok \
	"$work/github-not-yaml.yml"
sed '/uses: actions\/cache@v4/,/restore-keys/d' "$templates/github-actions.yml" \
	>"$work/github-no-cache.yml"
refused "github-actions.yml without the kernel cache" github_ok \
	"$work/github-no-cache.yml"
sed 's/^    needs: kernel$/    needs: rows/' "$templates/github-actions.yml" \
	>"$work/github-no-merge.yml"
refused "github-actions.yml whose report job does not wait for the kernels" \
	github_ok "$work/github-no-merge.yml"
tap_end templates
