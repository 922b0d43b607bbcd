#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# fragview explain against fragview stats on one capture: CPU time (user
# + system, of the parent and the reader child) of RUNS alternating runs
# each, and the ratio of the medians.  The goal: explain takes at most
# twice the time of stats.  explain runs on a hypothetical allocation at
# the end of the capture when it has no failed allocation to explain
# (tests/fixtures/bigtrace.dat has no kmem:mm_page_alloc), so that its
# whole path (free figures, census, blame, compaction) runs once.
# Exit status 1 when the ratio is above 2.
#
# usage: bench/explain.sh [FRAGVIEW] [CAPTURE] [RUNS]
#        (default: tools/fragview/fragview, tests/fixtures/bigtrace.dat, 7)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
fv=${1:-$top/tools/fragview/fragview}
cap=${2:-$top/tests/fixtures/bigtrace.dat}
runs=${3:-7}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if "$fv" explain "$cap" >/dev/null 2>&1; then
	explain=(explain "$cap")
else
	end=$("$fv" stats --format json "$cap" 2>/dev/null | python3 -c \
		'import json,sys; t = json.load(sys.stdin)["last_ts_ns"]; print("%d.%09d" % divmod(t, 10**9))')
	explain=(explain "$cap" --at "$end")
fi
cpu() {	# CPU seconds of one run
	/usr/bin/time -f '%U %S' -o "$tmp/t" "$fv" "$@" >/dev/null 2>&1
	awk '{ printf "%.3f\n", $1 + $2 }' "$tmp/t"
}
for _ in $(seq "$runs"); do
	cpu stats "$cap" >> "$tmp/stats"
	cpu "${explain[@]}" >> "$tmp/explain"
done
median() { sort -n "$1" | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
s=$(median "$tmp/stats")
e=$(median "$tmp/explain")
ratio=$(awk -v e="$e" -v s="$s" 'BEGIN { printf "%.2f", (s > 0 ? e / s : 0) }')
echo "capture $(basename "$cap"), $runs runs each, CPU s (median): stats $s, ${explain[*]#"$cap"} $e, ratio $ratio (goal <= 2)"
awk -v r="$ratio" 'BEGIN { exit !(r <= 2) }'
