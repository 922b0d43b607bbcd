#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A short libFuzzer run for tests/run: the seeds plus RUNS mutations
# (default 20000).  The long run is 'make fuzz' (>= 1M executions).
# Prints one ok/not ok line; a finding (a crash, or an input that takes
# over 25 s: a hang) is left in tests/fuzz-artifacts/.
set -u
here=$(cd "$(dirname "$0")" && pwd)
runs=${1:-20000}
cd "$here/.." || exit 1
mkdir -p tests/fuzz-artifacts
corpus=$(mktemp -d)
trap 'rm -rf "$corpus"' EXIT
if tests/fuzz_trace -runs="$runs" -max_len=4096 -seed=1 -timeout=25 \
	-artifact_prefix=tests/fuzz-artifacts/ "$corpus" tests/fuzz-seeds \
	>"$corpus/log" 2>&1; then
	echo "ok - fuzz smoke: $runs runs of tests/fuzz_trace, no finding"
else
	echo "not ok - fuzz smoke: finding (see tests/fuzz-artifacts/)"
	grep -E "ERROR|SUMMARY|runtime error" "$corpus/log" | head -5 >&2
	exit 1
fi
