#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bench/stats-rss.sh OLD NEW [REPS] - the parent's peak RSS of `fragview
# stats` and of `fragview check` (FRAGVIEW_STATS=1: the reader child and
# the parent apart) for two fragview binaries on the same 1 M-event
# capture (tools/fragview/tests/mkcapture.py mobility --events 1000000),
# runs interleaved OLD NEW OLD NEW ...  Writes the raw lines to
# bench/data-stats-rss/raw.txt (with the binaries' commits) and prints
# the per-arm min-max.  Peak RSS is a count of pages, not a time: the
# load of the machine does not move it.
set -euo pipefail
old=$1 new=$2 reps=${3:-3}
top=$(cd "$(dirname "$0")/.." && pwd)
out=$top/bench/data-stats-rss
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$out"
python3 "$top/tools/fragview/tests/mkcapture.py" mobility "$tmp/m.dat" --events 1000000 \
	> /dev/null
{
	echo "# capture: mkcapture.py mobility --events 1000000 ($(stat -c %s "$tmp/m.dat") bytes)"
	echo "# old: $old ($(git -C "$(dirname "$old")" rev-parse --short HEAD))"
	echo "# new: $new ($(git -C "$(dirname "$new")" rev-parse --short HEAD))"
	for r in $(seq "$reps"); do
		for arm in old new; do
			bin=${!arm}
			for cmd in stats check; do
				FRAGVIEW_STATS=1 "$bin" $cmd -i "$tmp/m.dat" 2>&1 >/dev/null |
					sed "s/^/$arm $cmd rep $r: /" || true
			done
		done
	done
} > "$out/raw.txt"
for arm in old new; do
	for cmd in stats check; do
		grep "^$arm $cmd rep .*: parent maxrss" "$out/raw.txt" |
			awk -v a=$arm -v c=$cmd '{ v = $(NF - 4); if (!n++ || v < lo) lo = v;
				if (v > hi) hi = v } END { printf "%s %s: parent peak %d-%d KiB (%d runs)\n",
				a, c, lo, hi, n }'
	done
done | tee "$out/summary.txt"
