#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Throughput of fragview against 'trace-cmd report > /dev/null' on the
# same synthetic capture (2M events by default).  The machine is shared,
# so CPU time (user + sys, both processes) is reported next to wall time;
# the ratio uses CPU time.  Prints "ok"/"not ok" against the targets:
# >= 3M events/s and >= 10x trace-cmd report.
#
# usage: tests/bench.sh [FRAGVIEW] [EVENTS]
set -u
here=$(cd "$(dirname "$0")" && pwd)
fv=$(realpath "${1:-$here/../fragview}")
n=${2:-2000000}
key=$(cat "$here/mkcapture.py" | md5sum | cut -c1-12)
cap=${TMPDIR:-/tmp}/fragview-bench-$n-$key.dat
if [ ! -s "$cap" ]; then
	echo "# generating $cap" >&2
	python3 "$here/mkcapture.py" mobility "$cap.tmp" --events "$n" && mv "$cap.tmp" "$cap"
fi

measure() {	# prints "wall cpu" of the best of 3 runs
	local best=
	for _ in 1 2 3; do
		/usr/bin/time -f "%e %U %S" -o /tmp/bench.$$ "$@" >/dev/null 2>&1
		read -r w u s < /tmp/bench.$$
		cpu=$(echo "$u + $s" | bc)
		if [ -z "$best" ] || [ "$(echo "$cpu < ${best#* }" | bc)" = 1 ]; then
			best="$w $cpu"
		fi
	done
	rm -f /tmp/bench.$$
	echo "$best"
}

events=$("$fv" stats "$cap" --format json | python3 -c \
	'import json,sys; print(sum(json.load(sys.stdin)["events"].values()))')
read -r fw fc <<< "$(measure "$fv" check "$cap")"
read -r tw tc <<< "$(measure trace-cmd report "$cap")"
rate=$(echo "$events / $fc" | bc)
ratio=$(echo "scale=1; $tc / $fc" | bc)
echo "# $events events: fragview check ${fw}s wall ${fc}s cpu; trace-cmd report ${tw}s wall ${tc}s cpu"
echo "# $rate events/s (cpu), ${ratio}x trace-cmd report (cpu)"
[ "$rate" -ge 3000000 ] && echo "ok - >= 3M events/s" || echo "not ok - >= 3M events/s ($rate)"
[ "$(echo "$ratio >= 10" | bc)" = 1 ] && echo "ok - >= 10x trace-cmd report" ||
	echo "not ok - >= 10x trace-cmd report (${ratio}x)"
