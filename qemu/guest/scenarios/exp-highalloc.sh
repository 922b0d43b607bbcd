#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# exp-highalloc: the 2005 high-order test on 6.1, for experiment/run.sh.
# A mixed load (mixload: anonymous faults and frees, page cache reads and
# writes, file create/unlink, pipes, forks) runs; while it keeps running,
# N separate attempts each try to grow the hugetlb pool by one order-9
# page ("under load").  Then the load stops, its memory is freed, caches
# are dropped, and the N attempts are made again ("at rest").
# Kernel parameters read:
#   fv.exp.compaction=on|off on: stock tunables; off: proactiveness 0 and
#                            extfrag_threshold 1000, which makes
#                            compaction_suitable() skip every zone for
#                            order > 3, so neither direct compaction nor
#                            kcompactd compacts for an order-9 request
#   fv.exp.load=SECONDS      how long the load runs before the attempts
#                            under load (default 15)
#   fv.exp.n=N               attempts per phase (default: one per
#                            pageblock of MemTotal)
#   fv.exp.wait=MS           between two attempts (default 40; 2005: 100)
# Under load an attempt is made only while MemFree stays a sixteenth of
# RAM above the 2 MiB it takes (highalloc -r): the pages held would
# otherwise starve the load, which has no swap, into the OOM killer.
# The load's size scales with MemTotal: a quarter in anonymous memory, an
# eighth in page cache (tmpfs files), 20000 empty files, 256 pipes; while
# the others build and churn, the page cache first fills memory down to a
# tenth of it free, then randomly chosen files are deleted back to its
# eighth (mixload -F), so that the kernel allocations of the churn are
# spread as page cache leaves.
# Grouping by mobility is a boot parameter (page_group_by_mobility=off),
# set by the host; the boot line the kernel printed is echoed.
# Written to $OUT, per moment (under-load, under-load.after, at-rest,
# at-rest.after): pageblocks (debugfs map), census (if the kernel has
# it), buddyinfo, pagetypeinfo, zones ("node zone free min low high
# managed"), vmstat; and trace.dat (steals, flips, compaction requests).
. /lib/fragview.sh
n=$(awk '/^MemTotal:/ { print int($2 / 2048) }' /proc/meminfo)
mem_mib=$(awk '/^MemTotal:/ { print int($2 / 1024) }' /proc/meminfo)
compaction=on
load=15
gap=40
for arg in $(cat /proc/cmdline); do
	case $arg in
	fv.exp.n=*) n=${arg#fv.exp.n=} ;;
	fv.exp.load=*) load=${arg#fv.exp.load=} ;;
	fv.exp.wait=*) gap=${arg#fv.exp.wait=} ;;
	fv.exp.compaction=*) compaction=${arg#fv.exp.compaction=} ;;
	esac
done
VM=/proc/sys/vm
echo "exp: $(dmesg | grep -o 'mobility grouping o[nf]*' | head -n 1)"
echo "exp: compaction $compaction, load ${load}s, $n attempts per phase ${gap} ms apart"
# order-0 anonymous faults only, as in 2005; no khugepaged
echo never > /sys/kernel/mm/transparent_hugepage/enabled
case $compaction in
on) ;;
off)
	echo 0 > $VM/compaction_proactiveness
	echo 1000 > $VM/extfrag_threshold ;;
*) echo "exp: bad fv.exp.compaction=$compaction" >&2; exit 1 ;;
esac
echo "exp: min_free_kbytes $(cat $VM/min_free_kbytes)"

mark() {	# a ftrace print event that dates each phase in the trace
	echo "fv-exp $1" > "$TRACING/trace_marker"
}

moment() {	# LABEL: the allocator's state now
	cat /proc/buddyinfo > "$OUT/$1.buddyinfo"
	cat /proc/pagetypeinfo > "$OUT/$1.pagetypeinfo"
	cat /proc/vmstat > "$OUT/$1.vmstat"
	awk '/^Node/ { sub(",", "", $2); nid = $2; zone = $4 }
	     $1 == "pages" && $2 == "free" { free = $3 }
	     $1 == "min" { min = $2 } $1 == "low" { low = $2 }
	     $1 == "high" { high = $2 }
	     $1 == "managed" { print nid, zone, free, min, low, high, $2 }' \
		/proc/zoneinfo > "$OUT/$1.zones"
	[ ! -r "$MOBILITY_DEBUGFS/pageblocks" ] ||
		cat "$MOBILITY_DEBUGFS/pageblocks" > "$OUT/$1.pageblocks"
	[ ! -r "$MOBILITY_DEBUGFS/census" ] ||
		cat "$MOBILITY_DEBUGFS/census" > "$OUT/$1.census"
}

attempt() {	# PHASE RESERVE_MIB: N attempts, the pages kept until the
		# state is read
	moment "$1"
	mark "$1"
	highalloc -a -k -w "$gap" -r "$2" -n "$n" > "$OUT/$1.highalloc" ||
		fv_fail "highalloc $1"
	mark "$1 done"
	moment "$1.after"
	echo "exp: $1 $(cat "$OUT/$1.highalloc")"
	echo 0 > $VM/nr_hugepages
}

# Only what the per-zone figures need: steals and claims (flips); what
# compaction did is in the vmstat of each moment.  Small buffers: a few
# thousand events per boot.
moment start
trace-cmd record -C global -b 2048 \
	-e mobility:pageblock_steal -e mobility:pageblock_flip \
	-o "$OUT/trace.dat" > "$OUT/trace-cmd.log" 2>&1 &
recorder=$!
i=0
while [ "$(cat "$TRACING/tracing_on")" != 1 ] ||
      [ "$(cat "$TRACING/events/mobility/pageblock_steal/enable" 2>/dev/null)" != 1 ]; do
	i=$((i + 1))
	if [ $i -gt 300 ] || ! kill -0 $recorder 2>/dev/null; then
		cat "$OUT/trace-cmd.log" >&2
		echo "exp: trace-cmd did not start" >&2
		exit 1
	fi
	sleep 0.1
done

mark load
# its own tmpfs: /dev/shm's half of RAM is less than the fill takes
mkdir -p /tmp/mixload
mount -t tmpfs -o size=${mem_mib}m tmpfs /tmp/mixload
rm -f /tmp/mixload.ready
mixload -d /tmp/mixload/load -a $((mem_mib / 4)) -c $((mem_mib / 8)) -F $((mem_mib / 10)) \
	-R /tmp/mixload.ready \
	> "$OUT/mixload.out" 2> "$OUT/mixload.err" &
loader=$!
fv_wait_file /tmp/mixload.ready $loader || exit 1
echo "exp: load built at $(cut -d' ' -f1 /proc/uptime) s"
sleep "$load"
kill -USR1 $loader
# the load's memory moves around: the pages held leave it a reserve (a
# sixteenth of RAM) rather than drive it into the OOM killer
attempt under-load $((mem_mib / 16))
kill -USR1 $loader
kill -0 $loader 2>/dev/null || fv_fail "mixload died under load"
kill -TERM $loader
wait $loader || fv_fail "mixload exited with $?"
cat "$OUT/mixload.out" "$OUT/mixload.err"
umount /tmp/mixload
mark rest
sync
echo 3 > $VM/drop_caches
sleep 1
attempt at-rest 0
moment end
kill -INT $recorder
wait $recorder || fv_fail "trace-cmd exited with $?"
echo "exp: trace $(wc -c < "$OUT/trace.dat") bytes"
# what compaction did (with compaction off: never for order 9)
awk 'FNR == NR { a[$1] = $2; next }
     $1 ~ /^compact_(stall|success|fail|migrate_scanned|free_scanned|isolated|daemon_wake)$/ {
	printf "exp: vmstat %s %d\n", $1, $2 - a[$1] }' \
	"$OUT/start.vmstat" "$OUT/end.vmstat"
exit $FV_STATUS
