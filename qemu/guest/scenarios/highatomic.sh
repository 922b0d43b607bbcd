#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# highatomic: reserve pageblocks for high-order atomic allocations, then
# take them back.
#  1. lowmem holds node 0's zones below their low watermark (the gap to
#     min widened with watermark_scale_factor, boosts off), so node 0's
#     allocations take the slow path;
#  2. sigflood queues real-time signals: with slub_min_order=3 their slabs
#     are order-3 GFP_ATOMIC allocations, ALLOC_HIGHATOMIC in the slow
#     path: reserve_highatomic_pageblock() (reason highatomic_reserve);
#  3. with sigflood gone, huge pages are asked of node 0 until none is
#     left: that costly __GFP_RETRY_MAYFAIL allocation retries reclaim
#     until, "before OOM", unreserve_highatomic_pageblock(force)
#     (reason highatomic_unreserve).  Costly orders never OOM-kill.
# The mid.* state files are taken at rest with the reserves in place.
# fv-append: slub_min_order=3
. /lib/fragview.sh
node=0
cpu=$(cut -d, -f1 /sys/devices/system/node/node$node/cpulist | cut -d- -f1)
hp=/sys/devices/system/node/node$node/hugepages/hugepages-2048kB/nr_hugepages
[ -w $hp ] || { fv_fail "no hugetlb pool on node $node"; exit 1; }
grep -q 'slub_min_order=3' /proc/cmdline ||
	{ fv_fail "boot with slub_min_order=3 (run-guest.sh adds it)"; exit 1; }
# HighAtomic blocks of the node, from /proc/pagetypeinfo's block counts
highatomic_blocks() {
	awk -v n="Node $node," '/^Number of blocks type/ {
			for (i = 1; i <= NF; i++) if ($i == "HighAtomic") c = i
			next }
		c && index($0, n) == 1 { s += $c } END { print s + 0 }' \
		/proc/pagetypeinfo
}
fv_small_reserves
echo 0 > /proc/sys/vm/watermark_boost_factor
echo 3000 > /proc/sys/vm/watermark_scale_factor
fv_record_start

rm -f /tmp/lowmem.ready /tmp/sigflood.ready
taskset -c "$cpu" lowmem -n $node -R /tmp/lowmem.ready > "$OUT/lowmem.out" 2>&1 &
hog=$!
if fv_wait_file /tmp/lowmem.ready $hog; then
	cat "$OUT/lowmem.out"
	taskset -c "$cpu" sigflood -b $node -n 150000 -R /tmp/sigflood.ready \
		> "$OUT/sigflood.out" 2>&1 &
	flood=$!
	if fv_wait_file /tmp/sigflood.ready $flood; then
		cat "$OUT/sigflood.out"
		fv_state mid
		fv_snapshot
		echo "fragview: node $node: $(highatomic_blocks) HighAtomic blocks"
		kill -TERM $flood
	fi
	wait $flood || fv_fail "sigflood exited with $?"
	echo 512 > $hp
	echo "fragview: node $node: $(cat $hp) huge pages," \
		"$(highatomic_blocks) HighAtomic blocks left"
	echo 0 > $hp
	kill -TERM $hog
fi
wait $hog || fv_fail "lowmem exited with $?"
echo 10 > /proc/sys/vm/watermark_scale_factor
fv_record_stop
exit $FV_STATUS
