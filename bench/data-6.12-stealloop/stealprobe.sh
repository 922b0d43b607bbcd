#!/bin/sh
# stealprobe: the stealloop of bench-overhead.sh (same history, same holder),
# instrumented with stock events and /proc counters, identical on an
# unpatched and a patched kernel.  Kernel parameters:
#   fv.bench.reps=N    reps of the loops before the stealloop (default 5)
#   fv.probe.hist=H    0: warm-up only before the drainloop setup;
#                      1: the earlier loops in mode "off" only (same work
#                         on both kernels);
#                      2: as bench-overhead: the patched kernel also runs
#                         the "on", "peer" and "folio" arms
#   fv.probe.reps=N    stealloop reps per mode (default 4)
#   fv.probe.modes=..  comma-separated stealloop modes, default off,xf,kmem
#     off  nothing enabled (instruction count comparable to the bench)
#     xf   kmem:mm_page_alloc_extfrag only
#     kmem xf + mm_page_alloc_zone_locked + mm_page_pcpu_drain +
#          mm_page_alloc + mm_page_free (+ _batched)
# Output: "probe ..." lines.
. /lib/fragview.sh
set -e
reps=5 hist=2 preps=4 pmodes="off,xf,kmem"
for arg in $(cat /proc/cmdline); do
	case $arg in
	fv.bench.reps=*) reps=${arg#fv.bench.reps=} ;;
	fv.probe.hist=*) hist=${arg#fv.probe.hist=} ;;
	fv.probe.reps=*) preps=${arg#fv.probe.reps=} ;;
	fv.probe.modes=*) pmodes=${arg#fv.probe.modes=} ;;
	esac
done
pmodes=$(echo "$pmodes" | tr ',' ' ')
T=$TRACING
if [ -d "$T/events/mobility" ]; then patched=1; else patched=0; fi
modes=off
[ "$hist" != 2 ] || [ $patched = 0 ] || modes="off on"
echo "probe: kernel $(uname -r) patched=$patched hist=$hist reps=$reps preps=$preps pmodes=$pmodes earlier-modes=$modes"
echo 0 > "$T/tracing_on"
echo "probe: pcp high $(grep -E '^ +high:' /proc/zoneinfo | awk '{ printf "%s ", $2 }')"
echo 4096 > "$T/buffer_size_kb"

ring_events() {
	cat "$T"/per_cpu/cpu*/stats |
		awk '/^(entries|overrun):/ { n += $2 } END { print n + 0 }'
}
event_counts() {
	sed -n 's/^.* [0-9.]*: \([a-z_0-9]*\): .*/\1/p' "$T/trace" |
		sort | uniq -c | awk '{ printf " %s=%s", $2, $1 }'
}
allkmem="mm_page_alloc_extfrag mm_page_alloc_zone_locked mm_page_pcpu_drain mm_page_alloc mm_page_free mm_page_free_batched"
set_mode() {
	echo 0 > "$T/tracing_on"
	[ ! -d "$T/events/mobility" ] || echo 0 > "$T/events/mobility/enable"
	for e in $allkmem; do echo 0 > "$T/events/kmem/$e/enable"; done
	[ "$1" != idle ] || return 0
	echo > "$T/trace"
	case $1 in
	on)
		echo 1 > "$T/events/mobility/enable"
		echo 0 > "$T/events/mobility/migrate_folio/enable" ;;
	folio) echo 1 > "$T/events/mobility/enable" ;;
	peer) echo 1 > "$T/events/kmem/mm_page_alloc/enable" ;;
	xf) echo 1 > "$T/events/kmem/mm_page_alloc_extfrag/enable" ;;
	kmem) for e in $allkmem; do echo 1 > "$T/events/kmem/$e/enable"; done ;;
	esac
	echo 1 > "$T/tracing_on"
}
run() {
	wl=$1 mode=$2 rep=$3 opsf=$4
	shift 4
	set_mode "$mode"
	if ! out=$("$@"); then
		set_mode idle
		echo "probe: $wl: $* failed: $out"
		return 0
	fi
	echo 0 > "$T/tracing_on"
	ev=" events $(ring_events)$(event_counts)"
	set_mode idle
	echo "result $wl $mode $rep $(echo "$out" |
		awk -v f="$opsf" '{ for (i = 1; i < NF; i++) if ($i == f) o = $(i + 1)
			print $NF " ops " o }')$ev"
}
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
numa=0
[ ! -d /sys/devices/system/node/node1 ] || numa=1
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

# the stealloop, instrumented: /proc/vmstat and the pcp counts around
# each run (read outside the timed loop), the events aggregated
vm_snap() { cat /proc/vmstat > "$1"; }
pcp_counts() {
	awk '/^Node/ { z = $2 $4 } /^ +count:/ { printf "%s=%s ", z, $2 }' /proc/zoneinfo
}
FVC=/sys/kernel/debug/fvclaim
fvc_snap() {
	[ -d $FVC ] || return 0
	for f in bulk claim_calls tsb walks walk_steps claimed steals; do
		read -r v < $FVC/$f
		echo "$f $v"
	done > "$1"
}
fvc_delta() {
	[ -d $FVC ] || return 0
	echo "probe fvc $1 $2 $(awk 'NR == FNR { b[$1] = $2; next }
		{ printf "%s=%d ", $1, $2 - b[$1] }' /tmp/fvc.before /tmp/fvc.after)"
}
steal_wl() {
	mode=$1 rep=$2
	vm_snap /tmp/vm.before
	fvc_snap /tmp/fvc.before
	pb=$(pcp_counts)
	fb=$(awk '/^MemFree/ { print $2 }' /proc/meminfo)
	run stealloop "$mode" "$rep" iterations bench-pipeloop -0 -k -n 200
	fvc_snap /tmp/fvc.after
	fvc_delta "$mode" "$rep"
	vm_snap /tmp/vm.after
	echo "probe pcp $mode $rep before $pb after $(pcp_counts)"
	echo "probe memfree $mode $rep before $fb after $(awk '/^MemFree/ { print $2 }' /proc/meminfo)"
	echo "probe vmdelta $mode $rep $(awk 'NR == FNR { b[$1] = $2; next }
		{ d = $2 - b[$1]; if (d != 0) printf "%s=%d ", $1, d }' /tmp/vm.before /tmp/vm.after)"
	case $mode in
	xf|kmem)
		# extfrag by fallback_order, fallback type, change_ownership
		echo "probe xf $mode $rep $(grep ' mm_page_alloc_extfrag:' "$T/trace" |
			sed 's/.*fallback_order=\([0-9]*\).*alloc_migratetype=\([0-9]*\) fallback_migratetype=\([0-9]*\).*change_ownership=\([0-9]*\).*/fo\1.a\2.f\3.co\4/' |
			sort | uniq -c | awk '{ printf "%s=%s ", $2, $1 }')"
		;;
	esac
	case $mode in
	kmem)
		echo "probe zl $mode $rep $(grep ' mm_page_alloc_zone_locked:' "$T/trace" |
			sed 's/.*order=\([0-9]*\) migratetype=\([0-9]*\) percpu_refill=\([0-9]*\).*/o\1.mt\2.r\3/' |
			sort | uniq -c | awk '{ printf "%s=%s ", $2, $1 }')"
		echo "probe pa $mode $rep $(grep ' mm_page_alloc:' "$T/trace" |
			sed 's/.*order=\([0-9]*\) .*migratetype=\([0-9]*\).*/o\1.mt\2/' |
			sort | uniq -c | awk '{ printf "%s=%s ", $2, $1 }')"
		;;
	esac
	if [ "$mode" = xf ] && [ "$rep" = 1 ]; then
		grep ' mm_page_alloc_extfrag:' "$T/trace" |
			sed 's/.*pfn=\(0x[0-9a-f]*\).*fallback_order=\([0-9]*\).*fallback_migratetype=\([0-9]*\).*change_ownership=\([0-9]*\).*/xfraw \1 \2 \3 \4/'
	fi
}

faultloop -s 65536 -n 1 > /dev/null
bench-pipeloop -n 500 > /dev/null
[ $numa = 0 ] || bench-migrateloop -n 256 -i 2 > /dev/null
if [ "$hist" != 0 ]; then
	reps "$reps" "$modes" faultloop_wl pipeloop_wl migrateloop_wl
	[ "$modes" = off ] || reps "$reps" "off peer" migratepeer_wl
	[ "$modes" = off ] || reps "$reps" "off folio" migratefolio_wl
fi
fraction=$(cat /proc/sys/vm/percpu_pagelist_high_fraction)
echo 100000000 > /proc/sys/vm/percpu_pagelist_high_fraction
echo "probe: drainloop pcp high $(grep -E '^ +high:' /proc/zoneinfo | awk '{ printf "%s ", $2 }')"
faultloop -s 16384 -n 4 > /dev/null
[ $numa = 0 ] || bench-migrateloop -n 8192 -i 1 > /dev/null
[ "$hist" = 0 ] || reps "$reps" "$modes" drainloop_wl

boost=$(cat /proc/sys/vm/watermark_boost_factor)
echo 0 > /proc/sys/vm/watermark_boost_factor
fv_small_reserves
rm -f /tmp/held
polluter -H /tmp/held -s "$(fv_spare 8)" -c 16 -i 16 -p 96 -k 256 > /tmp/holder.out &
holder=$!
while [ ! -e /tmp/held ]; do
	kill -0 $holder 2>/dev/null || { echo "probe: holder failed: $(cat /tmp/holder.out)"; exit 1; }
	sleep 1
done
echo "probe: holder: $(tr '\n' ' ' < /tmp/holder.out)"
echo "probe: free before: $(awk '/^MemFree/ { print $2 " kB" }' /proc/meminfo)"
sed 's/^/probe pti0 /' /proc/pagetypeinfo
set_mode xf
fvc_snap /tmp/fvc.before
bench-pipeloop -0 -k -n 200 > /tmp/warm.out
fvc_snap /tmp/fvc.after
fvc_delta warm 0
echo 0 > "$T/tracing_on"
echo "probe xfwarm $(grep -c ' mm_page_alloc_extfrag:' "$T/trace") $(cat /tmp/warm.out)"
set_mode idle
sed 's/^/probe pti1 /' /proc/pagetypeinfo
reps "$preps" "$pmodes" steal_wl
echo "probe: free after: $(awk '/^MemFree/ { print $2 " kB" }' /proc/meminfo)"
sed 's/^/probe pti2 /' /proc/pagetypeinfo
grep -E '^Node|^ +(count|high|batch|high_min|high_max):|^ +cpu:' /proc/zoneinfo | sed 's/^/probe zi /'
kill $holder
wait $holder || true
echo "$fraction" > /proc/sys/vm/percpu_pagelist_high_fraction
echo "$boost" > /proc/sys/vm/watermark_boost_factor
echo "bench: done"
