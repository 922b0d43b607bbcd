#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# bench-mapdump: time reading the mobility debugfs pageblock dump against
# walking /proc/kpageflags for every pfn, alternating, for bench/run.sh.
# Kernel parameters read: fv.bench.reps=N (default 5).
. /lib/fragview.sh
set -e
reps=5
for arg in $(cat /proc/cmdline); do
	case $arg in fv.bench.reps=*) reps=${arg#fv.bench.reps=} ;; esac
done
dump=$MOBILITY_DEBUGFS/pageblocks
echo "bench: MemTotal $(awk '/^MemTotal/ { print $2 }' /proc/meminfo) kB"
if [ ! -r "$dump" ]; then
	echo "bench: NO $dump in this kernel (unpatched): debugfs side not measured"
fi
bench-mapread -k -n 1 > /dev/null 2>&1	# warm-up
i=1
while [ $i -le "$reps" ]; do
	if [ -r "$dump" ]; then
		bench-mapread -f "$dump" -n 1 | sed "s/rep 0/rep $i/"
	fi
	bench-mapread -k -n 1 | sed "s/rep 0/rep $i/"
	i=$((i + 1))
done
[ ! -r "$dump" ] || head -n 5 "$dump"
echo "bench: done"
