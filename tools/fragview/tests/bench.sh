#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Throughput of fragview against the bare library (bench/iterate.c:
# libtracecmd's iteration counting records, nothing decoded) and
# 'trace-cmd report > /dev/null' on the same synthetic capture (2M events
# by default), as file version 6 and as version 7 with zstd chunks.  The
# machine is shared, so CPU time (user + sys, all processes) is reported
# next to wall time; the ratios use CPU time.  Prints "ok"/"not ok"
# against the targets: >= 3M events/s, within 1.5x of the bare library,
# >= 20x trace-cmd report.  bench/run.sh does the same on real captures.
#
# usage: tests/bench.sh [FRAGVIEW] [EVENTS]
set -u
here=$(cd "$(dirname "$0")" && pwd)
fv=$(realpath "${1:-$here/../fragview}")
n=${2:-2000000}
tmp=${TMPDIR:-/tmp}
key=$(cat "$here/mkcapture.py" | md5sum | cut -c1-12)
iterate=$tmp/fragview-bench-iterate.$$
trap 'rm -f "$iterate" /tmp/bench.$$' EXIT
# shellcheck disable=SC2046
cc -O2 -o "$iterate" "$here/../../../bench/iterate.c" \
	$(pkg-config --cflags --libs libtracecmd libtraceevent) || exit 1

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
	echo "$best"
}

for ver in v6 v7; do
	cap=$tmp/fragview-bench-$n-$key-$ver.dat
	if [ ! -s "$cap" ]; then
		echo "# generating $cap" >&2
		opt=
		[ $ver = v7 ] && opt=--v7
		python3 "$here/mkcapture.py" mobility "$cap.tmp" --events "$n" $opt &&
			mv "$cap.tmp" "$cap"
	fi
	events=$("$fv" stats "$cap" --format json | python3 -c \
		'import json,sys; print(sum(json.load(sys.stdin)["events"].values()))')
	read -r fw fc <<< "$(measure "$fv" check "$cap")"
	read -r iw ic <<< "$(measure "$iterate" "$cap")"
	read -r tw tc <<< "$(measure trace-cmd report "$cap")"
	rate=$(echo "$events / $fc" | bc)
	bare=$(echo "scale=2; $fc / $ic" | bc)
	ratio=$(echo "scale=1; $tc / $fc" | bc)
	echo "# $ver, $events events: fragview check ${fw}s wall ${fc}s cpu;" \
		"bare library ${iw}s wall ${ic}s cpu; trace-cmd report ${tw}s wall ${tc}s cpu"
	echo "# $ver: $rate events/s (cpu), ${bare}x the bare library, ${ratio}x trace-cmd report (cpu)"
	[ "$rate" -ge 3000000 ] && echo "ok - $ver: >= 3M events/s" ||
		echo "not ok - $ver: >= 3M events/s ($rate)"
	[ "$(echo "$bare <= 1.5" | bc)" = 1 ] && echo "ok - $ver: within 1.5x of the bare library" ||
		echo "not ok - $ver: within 1.5x of the bare library (${bare}x)"
	[ "$(echo "$ratio >= 20" | bc)" = 1 ] && echo "ok - $ver: >= 20x trace-cmd report" ||
		echo "not ok - $ver: >= 20x trace-cmd report (${ratio}x)"
done
