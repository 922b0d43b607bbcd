#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# bench-bigtrace: a long fragment + compact recording, for fragview's
# throughput and memory benchmark (bench/run.sh).  Each round runs the
# fragmenter to completion, then compacts all zones; every round also
# writes a map snapshot.  Kernel parameters read: fv.bench.rounds=N
# (default 4); bench/run.sh scales N for the 1x and 10x captures.
. /lib/fragview.sh
set -e
rounds=4
for arg in $(cat /proc/cmdline); do
	case $arg in fv.bench.rounds=*) rounds=${arg#fv.bench.rounds=} ;; esac
done
fv_record_start
i=1
while [ $i -le "$rounds" ]; do
	fragmenter -r 2 -p 256 -f 1000 -m 256 > /dev/null
	echo 1 > /proc/sys/vm/compact_memory
	fv_snapshot
	i=$((i + 1))
done
fv_record_stop
echo "bench: $rounds rounds"
