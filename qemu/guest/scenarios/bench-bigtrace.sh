#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# bench-bigtrace: a long recording for fragview's throughput and memory
# benchmark (bench/run.sh).  Each round: one fragmenter round over M MiB,
# compaction of all zones, then S map snapshots (each one pageblock_state
# event per pageblock).  The snapshots are the only way to get millions of
# events out of a TCG guest in minutes; bench/run.sh keeps S/rounds fixed
# and scales the rounds, so the 1x and 10x captures have the same mix.
# Kernel parameters read: fv.bench.rounds=R (default 2),
# fv.bench.snapshots=S (default 100), fv.bench.mib=M (default 64).
. /lib/fragview.sh
set -e
# the reader's benchmark keeps the event mix it was measured with
FV_STACKS=0
rounds=2 snapshots=100 mib=64
for arg in $(cat /proc/cmdline); do
	case $arg in
	fv.bench.rounds=*) rounds=${arg#fv.bench.rounds=} ;;
	fv.bench.snapshots=*) snapshots=${arg#fv.bench.snapshots=} ;;
	fv.bench.mib=*) mib=${arg#fv.bench.mib=} ;;
	esac
done
fv_record_start
t0=$(cut -d' ' -f1 /proc/uptime)
i=1
while [ $i -le "$rounds" ]; do
	fragmenter -r 1 -m "$mib" -p 64 -f 200 > /dev/null
	echo 1 > /proc/sys/vm/compact_memory
	j=0
	while [ $j -lt "$snapshots" ]; do
		fv_snapshot
		j=$((j + 1))
	done
	i=$((i + 1))
done
echo "bench: $rounds rounds of fragmenter -m $mib, compaction, $snapshots snapshots in" \
	"$(awk -v t0="$t0" '{ print $1 - t0 }' /proc/uptime) s"
fv_record_stop
