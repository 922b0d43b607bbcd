#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# capture: huge pages asked for on node 0 while its Unmovable blocks hold
# nothing but movable pages (capturer): the direct compactor frees such a
# block whole and compaction_capture() hands it over, a block of another
# migratetype than the request: an mm_page_alloc_extfrag with no
# pageblock_steal before it (series v3, patch 10; steal_flip.py
# --min-captures).
. /lib/fragview.sh
fv_small_reserves
hp=/sys/devices/system/node/node0/hugepages/hugepages-2048kB/nr_hugepages
rm -f /tmp/capturer.ready
taskset -c 0 capturer -n 0 -R /tmp/capturer.ready > "$OUT/capturer.out" 2>&1 &
holder=$!
if ! fv_wait_file /tmp/capturer.ready $holder; then
	fv_fail "capturer exited: $(cat "$OUT/capturer.out")"
	exit $FV_STATUS
fi
cat "$OUT/capturer.out"
fv_record_start
# a write stops at its first failed huge page; earlier failures (the
# capturer's own) may have deferred compaction for up to 64 requests
taskset -c 0 sh -c "for i in \$(seq 80); do echo 64 > $hp; done"
echo "capture: node 0 huge pages: $(cat $hp) of 64"
fv_record_stop
kill -TERM $holder
wait $holder || fv_fail "capturer exited with $?"
echo 0 > $hp
exit $FV_STATUS
