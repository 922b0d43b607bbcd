#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# drain: the per-cpu list drains other than free_high/vmstat.
#  cpu_dead  CPU 1 goes offline with pages on its lists (and comes back)
#  all       order-9 hugetlb allocations under fragmentation reclaim, and a
#            reclaim that gives no page drains every CPU's lists
#            (drain_all_pages())
#  local     the same allocations compact directly, and compaction drains
#            the local lists when it leaves a block it migrated from; how
#            much it migrates varies (38, 3 and 0 local drains in three
#            runs), so the host asks for local drains across all captures
. /lib/fragview.sh
cpu1=/sys/devices/system/cpu/cpu1/online
[ -w $cpu1 ] || { fv_fail "cpu1 cannot go offline (CONFIG_HOTPLUG_CPU?)"; exit 1; }
fv_small_reserves
fv_record_start
# fill CPU 1's lists: memory faulted in and freed there stays on them
taskset -c 1 faultloop -s 8192 -n 2 > "$OUT/faultloop.out" 2>&1 ||
	fv_fail "faultloop exited with $?"
echo 0 > $cpu1 || fv_fail "cpu1 offline"
echo "fragview: cpu1 online=$(cat $cpu1)"
# for the host's drain oracle: from here CPU 1 may fill its lists again
# before it records an event of its own
[ ! -w "$TRACING/trace_marker" ] ||
	echo "fragview_cpu: cpu=1 online" > "$TRACING/trace_marker"
echo 1 > $cpu1 || fv_fail "cpu1 online"
echo "fragview: cpu1 online=$(cat $cpu1)"
rm -f /tmp/fragmenter.ready
# The fragmenter's spare is what the pipes, tmpfs files, page tables, the
# per-cpu lists and trace-cmd's output (in RAM) take while it holds the
# rest: its default 16 MiB ended in the OOM killer in a tests boot, with
# 11 MiB on the per-cpu lists; 48 MiB leaves the hugetlb attempts still
# short of memory, so reclaim still fails and drains every CPU.
spare=$(fv_spare 48)
fragmenter -r 1 -s $spare -H -R /tmp/fragmenter.ready > "$OUT/fragmenter.out" 2>&1 &
holder=$!
if fv_wait_file /tmp/fragmenter.ready $holder; then
	highalloc -n 128 > "$OUT/highalloc.out" || fv_fail "highalloc under load"
	kill -TERM $holder
fi
wait $holder || fv_fail "fragmenter exited with $?"
fv_record_stop
cat "$OUT/highalloc.out"
grep -E '^(compact_|pgsteal|allocstall)' "$OUT/end.vmstat"
exit $FV_STATUS
