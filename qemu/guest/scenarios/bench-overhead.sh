#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# bench-overhead: time faultloop (order-0 anonymous faults),
# bench-pipeloop (order-0/2/3 pipe allocations) and bench-migrateloop
# (move_pages between two nodes) with the mobility events off and on,
# alternating, for bench/run.sh.  No trace-cmd: the events are
# switched on through tracefs alone and nobody reads the ring buffer
# (overwrite mode), which is the cost a user pays while recording.
# Kernel parameters read: fv.bench.reps=N (default 10).
# Output lines: "result WORKLOAD MODE REP VALUE_NS [events N]".
. /lib/fragview.sh
set -e
reps=10
for arg in $(cat /proc/cmdline); do
	case $arg in fv.bench.reps=*) reps=${arg#fv.bench.reps=} ;; esac
done
T=$TRACING
if [ -d "$T/events/mobility" ]; then
	modes="off on"
	echo "bench: mobility events present"
else
	modes="off"
	echo "bench: NO mobility events in this kernel (unpatched): events-on not measured"
fi
echo 0 > "$T/tracing_on"
# faultloop unmaps 64 MiB at a time: more than a per-cpu list holds
# (high is printed), so frees trim the list: pcp_drain free_high events
echo "bench: pcp high $(grep -E '^ +high:' /proc/zoneinfo | awk '{ printf "%s ", $2 }')"
echo 1024 > "$T/buffer_size_kb"

# events written to the ring buffer since the last clear, all cpus
ring_events() {
	cat "$T"/per_cpu/cpu*/stats |
		awk '/^(entries|overrun):/ { n += $2 } END { print n + 0 }'
}

set_mode() {
	if [ "$1" = on ]; then
		echo > "$T/trace"
		echo 1 > "$T/events/mobility/enable"
		echo 1 > "$T/tracing_on"
	elif [ -d "$T/events/mobility" ]; then
		echo 0 > "$T/tracing_on"
		echo 0 > "$T/events/mobility/enable"
	fi
}

# move_pages between the two nodes fires migrate_folio once per page: the
# event-heavy workload
numa=0
[ ! -d /sys/devices/system/node/node1 ] || numa=1
[ $numa = 1 ] || echo "bench: one NUMA node: migrateloop not run"

run_one() {	# MODE REP
	set_mode "$1"
	f=$(faultloop -s 65536 -n 1)
	p=$(bench-pipeloop -n 800)
	m=
	[ $numa = 0 ] || m=$(bench-migrateloop -n 256 -i 10) ||
		echo "bench: migrateloop: pages failed to move: $m"
	ev=
	[ "$1" = on ] && ev=" events $(ring_events)"
	set_mode off
	echo "result faultloop $1 $2 $(echo "$f" | awk '{ print $NF }')$ev"
	echo "result pipeloop $1 $2 $(echo "$p" | awk '{ print $NF }')"
	[ $numa = 0 ] ||
		echo "result migrateloop $1 $2 $(echo "$m" | awk '{ print $NF }')"
}

# warm-up: page tables, slab caches, pcp lists
faultloop -s 65536 -n 1 > /dev/null
bench-pipeloop -n 500 > /dev/null
[ $numa = 0 ] || bench-migrateloop -n 256 -i 2 > /dev/null
i=1
while [ $i -le "$reps" ]; do
	# alternate which mode goes first so drift hits both equally
	if [ $((i % 2)) = 1 ]; then order=$modes; else
		order=$(echo "$modes" | awk '{ for (i = NF; i > 0; i--) printf "%s ", $i }')
	fi
	for m in $order; do run_one "$m" "$i"; done
	i=$((i + 1))
done
echo "bench: done"
