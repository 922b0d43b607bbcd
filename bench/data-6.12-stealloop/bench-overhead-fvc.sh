#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# bench-overhead: time workloads with the mobility events off and on,
# alternating, for bench/run.sh.  Each workload is where one event fires
# heavily, or a common path where it should cost nothing:
#   faultloop    order-0 anonymous faults (and pcp_drain free_high trims)
#   pipeloop     order-0/2/3 pipe allocations
#   migrateloop  move_pages between two nodes with the default recording
#                (migrate_folio_failed, migrate_pass: a few events per
#                call); again as migrateloop-folio with migrate_folio on
#                too, on purpose ("folio": one event per page), and as
#                migrateloop-kmem with mainline's per-page
#                kmem:mm_page_alloc alone on ("peer"): what any per-page
#                event costs there
#   drainloop    faultloop with the per-cpu lists at their smallest high
#                mark (vm.percpu_pagelist_high_fraction), so that frees
#                trim them every few batches: pcp_drain
#   stealloop    bench-pipeloop -0 -k (200 pipes of 16 order-0 unmovable
#                pages, kept open until the clock stops) while polluter -H
#                holds all free memory as holes in Movable pageblocks and
#                the per-cpu lists are at their floor: the unmovable pages
#                are found by fallbacks, pageblock_steal
#   fliploop     bench-fliploop -n 2 -m 32 (32 MiB of pipes, closed, then
#                32 MiB of anonymous memory, unmapped) while polluter -H
#                leaves only 40 MiB above the low watermarks free, in whole
#                blocks: each half claims blocks the other half freed,
#                pageblock_steal with pageblock_flip
# No trace-cmd: the events are switched on through tracefs alone and
# nobody reads the ring buffer (overwrite mode), which is the cost a user
# pays while recording.  Every timed run has the ring to itself, so the
# events it wrote are counted per run, and by name.
# Kernel parameters read: fv.bench.reps=N (default 10).
# Output lines: "result WORKLOAD MODE REP VALUE_NS ops N [events N NAME=N...]",
# MODE off, on, folio or peer; VALUE_NS per op.
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
# (high is printed), so frees trim it: pcp_drain free_high events
echo "bench: pcp high $(grep -E '^ +high:' /proc/zoneinfo | awk '{ printf "%s ", $2 }')"
# large enough that no run's events overwrite each other (counted by name)
echo 4096 > "$T/buffer_size_kb"

# events written to the ring buffer since the last clear, all cpus
ring_events() {
	cat "$T"/per_cpu/cpu*/stats |
		awk '/^(entries|overrun):/ { n += $2 } END { print n + 0 }'
}

# NAME=COUNT for each event name in the ring (what is left of it if
# overrun, which ring_events shows)
event_counts() {
	sed -n 's/^.* [0-9.]*: \([a-z_0-9]*\): .*/\1/p' "$T/trace" |
		sort | uniq -c | awk '{ printf " %s=%s", $2, $1 }'
}

# set_mode MODE: every arm is prepared the same way before its timed run
# (events off, an empty ring, tracing on) and differs only in the events
# it enables: none (off), the default recording's mobility events, all
# but migrate_folio (on), all of them (folio) or mainline's per-page
# kmem:mm_page_alloc (peer).  set_mode idle: everything off, between runs.
set_mode() {
	echo 0 > "$T/tracing_on"
	[ ! -d "$T/events/mobility" ] ||
		echo 0 > "$T/events/mobility/enable"
	echo 0 > "$T/events/kmem/mm_page_alloc/enable"
	[ "$1" != idle ] || return 0
	echo > "$T/trace"
	case $1 in
	on)
		echo 1 > "$T/events/mobility/enable"
		echo 0 > "$T/events/mobility/migrate_folio/enable"
		;;
	folio) echo 1 > "$T/events/mobility/enable" ;;
	peer) echo 1 > "$T/events/kmem/mm_page_alloc/enable" ;;
	esac
	echo 1 > "$T/tracing_on"
}

# run WORKLOAD MODE REP OPS_FIELD CMD...: one timed run; OPS_FIELD names
# the word of CMD's output followed by its count of operations
run() {
	wl=$1 mode=$2 rep=$3 opsf=$4
	shift 4
	set_mode "$mode"
	if ! out=$("$@"); then
		set_mode idle
		echo "bench: $wl: $* failed, no result: $out"
		return 0
	fi
	# stop writing first: reading the ring allocates pages itself; read
	# back after every arm alike (an off run must have written nothing)
	echo 0 > "$T/tracing_on"
	ev=" events $(ring_events)$(event_counts)"
	set_mode idle
	echo "result $wl $mode $rep $(echo "$out" |
		awk -v f="$opsf" '{ for (i = 1; i < NF; i++) if ($i == f) o = $(i + 1)
			print $NF " ops " o }')$ev"
}

# reps REPS MODES WORKLOAD...: REPS rounds of every workload in every
# mode, the order of the modes alternating round by round so that drift
# hits all of them; WORKLOAD is a function "WL MODE REP"
reps() {
	n=$1 ms=$2 i=1
	shift 2
	while [ $i -le "$n" ]; do
		if [ $((i % 2)) = 1 ]; then order=$ms; else
			order=$(echo "$ms" | awk '{ for (i = NF; i > 0; i--) printf "%s ", $i }')
		fi
		for m in $order; do
			for wl in "$@"; do "$wl" "$m" "$i"; done
		done
		i=$((i + 1))
	done
}

# move_pages between the two nodes: migrate_folio once per page, the
# default recording a few migrate_pass events per call
numa=0
[ ! -d /sys/devices/system/node/node1 ] || numa=1
[ $numa = 1 ] || echo "bench: one NUMA node: migrateloop not run"

faultloop_wl() { run faultloop "$1" "$2" faults faultloop -s 65536 -n 1; }
pipeloop_wl() { run pipeloop "$1" "$2" iterations bench-pipeloop -n 800; }
migrateloop_wl() {
	[ $numa = 0 ] || run migrateloop "$1" "$2" moves bench-migrateloop -n 256 -i 10
}
migratepeer_wl() {
	[ $numa = 0 ] || run migrateloop-kmem "$1" "$2" moves bench-migrateloop -n 256 -i 10
}
migratefolio_wl() {
	[ $numa = 0 ] || run migrateloop-folio "$1" "$2" moves bench-migrateloop -n 256 -i 10
}
drainloop_wl() { run drainloop "$1" "$2" faults faultloop -s 16384 -n 4; }
fliploop_wl() { run fliploop "$1" "$2" iterations bench-fliploop -n 2 -m 32; }
# bench-overhead-fvc: bench-overhead with the fvclaim debugfs counters
# (kernels with fvc-*.patch) printed around each stealloop run, by shell
# builtins only
fvc_print() {
	[ -d /sys/kernel/debug/fvclaim ] || return 0
	line="fvcsnap $1"
	for f in bulk claim_calls tsb walks walk_steps claimed steals; do
		read -r v < /sys/kernel/debug/fvclaim/$f
		line="$line $f=$v"
	done
	echo "$line"
}
stealloop_wl() {
	fvc_print "before $1 $2"
	run stealloop "$1" "$2" iterations bench-pipeloop -0 -k -n 200
	fvc_print "after $1 $2"
}

# start_holder WORKLOAD POLLUTER_OPTION...: polluter -H in the background,
# until its holes (and pipes) are made; stop_holder ends it
start_holder() {
	wl=$1
	shift
	rm -f /tmp/held
	polluter -H /tmp/held "$@" > /tmp/holder.out &
	holder=$!
	while [ ! -e /tmp/held ]; do
		kill -0 $holder 2>/dev/null || {
			echo "bench: $wl: the holder failed: $(cat /tmp/holder.out)"
			exit 1
		}
		sleep 1
	done
	echo "bench: $wl holder: $(tr '\n' ' ' < /tmp/holder.out)"
}

stop_holder() {
	kill $holder
	wait $holder || true
}

# warm-up: page tables, slab caches, pcp lists
faultloop -s 65536 -n 1 > /dev/null
bench-pipeloop -n 500 > /dev/null
[ $numa = 0 ] || bench-migrateloop -n 256 -i 2 > /dev/null
reps "$reps" "$modes" faultloop_wl pipeloop_wl migrateloop_wl
# the peer: mainline's per-page event, in the same loop and boot; and
# migrate_folio, which a user enables on purpose
[ "$modes" = off ] || reps "$reps" "off peer" migratepeer_wl
[ "$modes" = off ] || reps "$reps" "off folio" migratefolio_wl

# drainloop: every zone's per-cpu high at its floor (4 batches); it
# stays there for the stealloop, whose holes and freed pages must not
# wait on (or come back from) a per-cpu list
fraction=$(cat /proc/sys/vm/percpu_pagelist_high_fraction)
echo 100000000 > /proc/sys/vm/percpu_pagelist_high_fraction
echo "bench: drainloop pcp high $(grep -E '^ +high:' /proc/zoneinfo | awk '{ printf "%s ", $2 }')"
faultloop -s 16384 -n 4 > /dev/null
# the lists keep what they held until pages pass through them: node 1's
# (the vCPU is on node 0) are emptied by moving 32 MiB there and back
[ $numa = 0 ] || bench-migrateloop -n 8192 -i 1 > /dev/null
reps "$reps" "$modes" drainloop_wl

# stealloop: the holder takes all free memory but 8 MiB above the low
# watermarks, frees 16 KiB in every 256 KiB (1/16 of each block: a steal
# cannot claim it), and fills 24 MiB of pipes, which take the rest of the
# large free chunks: what is left free is the holes.  The fallbacks must
# not raise the watermarks (watermark boosting, which also keeps the
# earlier loops' boosts until the watermarks are set again, below) nor
# wake kswapd, as in the polluter scenario
boost=$(cat /proc/sys/vm/watermark_boost_factor)
echo 0 > /proc/sys/vm/watermark_boost_factor
fv_small_reserves
start_holder stealloop -s "$(fv_spare 8)" -c 16 -i 16 -p 96 -k 256
echo "bench: stealloop free before: $(awk '/^MemFree/ { print $2 " kB" }' /proc/meminfo)"
bench-pipeloop -0 -k -n 200 > /dev/null
reps "$reps" "$modes" stealloop_wl
echo "bench: stealloop free after: $(awk '/^MemFree/ { print $2 " kB" }' /proc/meminfo)"
stop_holder

# fliploop: the holder takes all free memory but 40 MiB above the low
# watermarks, which stay free in whole blocks; the loop's halves of 32 MiB
# then claim each other's blocks (see bench-fliploop.c)
start_holder fliploop -s "$(fv_spare 40)" -c 16 -i 1000000 -p 1 -k 4
bench-fliploop -n 1 -m 32 > /dev/null
reps "$reps" "$modes" fliploop_wl
stop_holder
echo "$fraction" > /proc/sys/vm/percpu_pagelist_high_fraction
echo "$boost" > /proc/sys/vm/watermark_boost_factor
echo "bench: done"
