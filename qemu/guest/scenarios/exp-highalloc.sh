#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# exp-highalloc: Mel Gorman's 2005 high-order test on 6.1, for
# experiment/run.sh.  Fragment memory, then ask the hugetlb pool for N
# order-9 pages while the fragmenter holds its survivors ("under load")
# and again after it exited ("at rest").
# Kernel parameters read:
#   fv.exp.n=N               huge pages to request (default: one per
#                            pageblock of MemTotal, so the success rate is
#                            the share of RAM obtainable as order-9 pages)
#   fv.exp.compaction=on|off on: stock tunables and a compact_memory write
#                            before each attempt; off: proactiveness 0 and
#                            extfrag_threshold 1000, which makes
#                            compaction_suitable() skip every zone for
#                            order > 3, so neither direct compaction,
#                            kcompactd nor proactive compaction runs
# Grouping by mobility is a boot parameter (page_group_by_mobility=off),
# set by the host; the boot line the kernel printed is echoed.
. /lib/fragview.sh
set -e
n=$(awk '/^MemTotal:/ { print int($2 / 2048) }' /proc/meminfo)
compaction=on
for arg in $(cat /proc/cmdline); do
	case $arg in
	fv.exp.n=*) n=${arg#fv.exp.n=} ;;
	fv.exp.compaction=*) compaction=${arg#fv.exp.compaction=} ;;
	esac
done
VM=/proc/sys/vm
echo "exp: $(dmesg | grep -o 'mobility grouping o[nf]*' | head -n 1)"
echo "exp: compaction $compaction, requesting $n order-9 pages"
# The fragmenter already faults order-0 pages (MADV_NOHUGEPAGE); keep
# khugepaged and THP faults of anything else out of the picture too.
echo never > /sys/kernel/mm/transparent_hugepage/enabled
case $compaction in
on) ;;
off)
	echo 0 > $VM/compaction_proactiveness
	echo 1000 > $VM/extfrag_threshold ;;
*) echo "exp: bad fv.exp.compaction=$compaction" >&2; exit 1 ;;
esac

mark() {	# a ftrace print event the host finds the map times by
	echo "fv-exp $1" > "$TRACING/trace_marker"
}

# N separate attempts, each growing the pool by one page, counting the
# successes: like the seed's module ("it only attempts 160 times, no
# matter how often it succeeds").  One big nr_hugepages write would stop
# at the first failure instead.  Successes are kept until all N are done.
attempt() {	# LABEL
	[ "$compaction" = off ] || echo 1 > $VM/compact_memory
	mark "$1"
	cat /proc/buddyinfo > "$OUT/$1.buddyinfo"
	[ ! -r "$MOBILITY_DEBUGFS/pageblocks" ] ||
		cat "$MOBILITY_DEBUGFS/pageblocks" > "$OUT/$1.pageblocks"
	echo 0 > $VM/nr_hugepages
	got=0 i=0 t0=$(cut -d' ' -f1 /proc/uptime)
	while [ $i -lt "$n" ]; do
		echo $((got + 1)) > $VM/nr_hugepages 2>/dev/null || true
		got=$(cat $VM/nr_hugepages)
		i=$((i + 1))
	done
	echo "exp: $1 requested $n obtained $got" \
		"seconds $(awk -v t0="$t0" '{ print $1 - t0 }' /proc/uptime)"
	cat /proc/buddyinfo > "$OUT/$1.after.buddyinfo"
	echo 0 > $VM/nr_hugepages
}

fv_record_start
rm -f /tmp/fragmenter.ready
fragmenter -r 2 -p 512 -f 2000 -H -R /tmp/fragmenter.ready \
	> "$OUT/fragmenter.out" &
holder=$!
while [ ! -e /tmp/fragmenter.ready ]; do kill -0 $holder; sleep 0.2; done
attempt under-load
kill -TERM $holder
wait $holder
sleep 1
attempt at-rest
fv_record_stop
# did compaction do any work?  (must be 0 with compaction off)
awk 'FNR == NR { a[$1] = $2; next }
     $1 ~ /^compact_(stall|success|fail|migrate_scanned|free_scanned|isolated|daemon_wake)$/ {
	printf "exp: vmstat %s %d\n", $1, $2 - a[$1] }' \
	"$OUT/start.vmstat" "$OUT/end.vmstat"
