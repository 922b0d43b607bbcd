#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# bench-irqsoff: the longest interrupts-off section while the mobility
# debugfs walks the pageblock map, for bench/run.sh --only irqsoff.  Needs
# a kernel built with qemu/irqsoff.config (the irqsoff latency tracer).
#
# Every rep measures three windows, in turn:
#   baseline    idle for WINDOW seconds, no map access
#   pageblocks  read /sys/kernel/debug/mobility/pageblocks to the end
#   snapshot    echo 1 > /sys/kernel/debug/mobility/snapshot
# each as: tracing_max_latency = 0, the command, tracing_max_latency,
# then (outside the window) the irqsoff trace of that maximum: where it
# started and ended, and the stack at its end.  Inside a window only
# shell builtins run (read, echo, a read -t on a fifo to idle): a
# fork+exec has IRQs-off sections of its own (~10k instructions in
# get_random_u64() at exec), which would hide the walk's.  The baseline's
# idle second is longer than either command takes, so it shows at least
# what the rest of the kernel does over a map window.  The snapshot
# events (pageblock_state, pageblock_snapshot if the kernel has it) are
# enabled in a trace instance of their own for the whole run, so the
# top-level buffer holds only the irqsoff trace; without them series v2's
# write does nothing.
# Kernel parameters read: fv.bench.reps=N (default 10),
# fv.bench.window=SECONDS (default 1).
# Output lines:
#   irqsoff OP REP LATENCY_US WINDOW_MS WALK STARTED ENDED STACK
# WALK is 1 when the section's stack or its ends are in the mobility walk
# (mm/mobility_debugfs.c functions or the debugfs proxy, see $WALK) and it
# is not an interrupt handler's (no asm_* or irq_exit* frame), ? when the irqsoff trace read after
# the window is not that of its maximum (its header gives another
# latency; tracing_on=0 after each window should prevent it), STACK the
# functions of the stack at
# the section's end, innermost first, comma-separated.
. /lib/fragview.sh
reps=10
window=1
for arg in $(cat /proc/cmdline); do
	case $arg in
	fv.bench.reps=*) reps=${arg#fv.bench.reps=} ;;
	fv.bench.window=*) window=${arg#fv.bench.window=} ;;
	esac
done
T=$TRACING
dump=$MOBILITY_DEBUGFS/pageblocks
snap=$MOBILITY_DEBUGFS/snapshot

echo "bench: kernel $(uname -r) $(cat /proc/sys/kernel/version)"
echo "bench: MemTotal $(awk '/^MemTotal/ { print $2 }' /proc/meminfo) kB, $(nproc) cpus"
if ! grep -qw irqsoff "$T/available_tracers"; then
	echo "bench: NO irqsoff tracer in this kernel (build with qemu/irqsoff.config);" \
		"available: $(cat "$T/available_tracers")"
	exit 1
fi
if [ ! -r "$dump" ] || [ ! -w "$snap" ]; then
	echo "bench: NO $MOBILITY_DEBUGFS in this kernel (unpatched)"
	exit 1
fi
# the zones walked, and their size in blocks
grep '^node' "$dump" | sed 's/^/bench: zone /'

# the snapshot's events, in an instance of their own
I=$T/instances/bench-irqsoff
mkdir "$I" || { echo "bench: cannot create trace instance $I"; exit 1; }
echo 4096 > "$I/buffer_size_kb"
evs=
for ev in pageblock_state pageblock_snapshot; do
	if [ -d "$I/events/mobility/$ev" ]; then
		echo 1 > "$I/events/mobility/$ev/enable"
		evs="$evs $ev"
	fi
done
[ -n "$evs" ] || { echo "bench: NO pageblock_state event"; exit 1; }
echo 1 > "$I/tracing_on"
echo "bench: snapshot events enabled in $I:$evs"

IDLE=/tmp/bench-irqsoff-idle	# a fifo nobody writes: read -t idles
mkfifo "$IDLE"
echo 0 > "$T/tracing_on"
echo irqsoff > "$T/current_tracer" || { echo "bench: cannot select irqsoff"; exit 1; }
echo 0 > "$T/tracing_thresh"
echo 1 > "$T/tracing_on"
echo "bench: current_tracer $(cat "$T/current_tracer"), baseline windows of ${window} s, $reps reps"

# functions of mm/mobility_debugfs.c in series v1 and v2, and the debugfs
# file proxy that calls them: the tracer's stack skips the innermost
# frames and static functions get inlined, so the walk's sections often
# show only full_proxy_read/full_proxy_write; the mobility files are the
# only debugfs files a window touches (tracefs files do not go through
# the proxy)
WALK='scan_batch|scan_batch_locked|read_block|read_block_locked|snapshot_zone|snapshot_write|pageblocks_show|pageblocks_start|pageblocks_next|account_buddy|covering_buddy_order|zone_nr_online_blocks|full_proxy_read|full_proxy_write'

measure() {	# OP REP
	op=$1 rep=$2
	echo > "$T/trace"	# empties the max buffer
	echo 1 > "$T/tracing_on"
	# the window: builtins only
	echo 0 > "$T/tracing_max_latency"
	read -r t0 _ < /proc/uptime
	case $op in
	baseline) read -r -t "$window" _ <> "$IDLE" ;;
	pageblocks) while read -r _; do :; done < "$dump" ;;
	snapshot) echo 1 > "$snap" || fv_fail "snapshot write failed" ;;
	esac
	read -r t1 _ < /proc/uptime
	read -r lat < "$T/tracing_max_latency"
	# no section is timed from here on, so the trace read next (a fork
	# and exec, with sections of their own) is that of the window's max
	echo 0 > "$T/tracing_on"
	# /proc/uptime has centiseconds; "1" ahead of them keeps "09" decimal
	ms=$(( (${t1%.*} * 100 + 1${t1#*.} - ${t0%.*} * 100 - 1${t0#*.}) * 10 ))
	cat "$T/trace" > "$OUT/trace-$op-$rep"
	started=$(sed -n 's/^#  *=> started at: *//p' "$OUT/trace-$op-$rep" | head -n 1)
	ended=$(sed -n 's/^#  *=> ended at: *//p' "$OUT/trace-$op-$rep" | head -n 1)
	# the buffer keeps the stacks of earlier candidate sections too: the
	# maximum's is the last one
	stack=$(awk '/<stack trace>/ { s = ""; next }
		/^ => / { f = $2; sub(/\+.*/, "", f); s = s (s == "" ? "" : ",") f }
		END { print s }' "$OUT/trace-$op-$rep")
	# the trace must be that of this maximum: its header gives the same
	# latency (else it says nothing about this window: WALK ?)
	hdr=$(sed -n 's/^# latency: \([0-9]*\) us.*/\1/p' "$OUT/trace-$op-$rep")
	walk=0
	if [ "$hdr" != "$lat" ]; then
		walk=?
	elif echo "$stack" | tr ',' '\n' | grep -Eq '^(asm_|irq_exit)'; then
		# an interrupt taken while the walk ran with IRQs on: its
		# handler's section, not a lock hold of the walk
		walk=0
	elif echo "$started,$ended,$stack" | tr ',' '\n' | sed 's/[+ ].*//' |
	   grep -Eqx "$WALK"; then
		walk=1
	fi
	echo "irqsoff $op $rep $lat $ms $walk ${started:--} ${ended:--} ${stack:--}" >> "$OUT/results"
}

# results are printed at the end: console output during the windows would
# add serial interrupts (the tty drains after echo returns) to them
: > "$OUT/results"
i=1
while [ "$i" -le "$reps" ]; do
	for op in baseline pageblocks snapshot; do
		measure "$op" "$i"
	done
	i=$((i + 1))
done
echo 0 > "$T/tracing_on"
echo nop > "$T/current_tracer"
cat "$OUT/results"
# how many pageblock_state events one snapshot wrote (the instance holds
# the last ones; its stats count them all)
echo "bench: snapshot instance entries $(cat "$I"/per_cpu/cpu*/stats |
	awk '/^(entries|overrun):/ { n += $2 } END { print n + 0 }') over $reps snapshots"
echo "bench: done"
exit $FV_STATUS
