#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# migrate: move a buffer's pages from node 0 to node 1 with move_pages(2),
# back with migrate_pages(2), and to node 1 again with mbind(2)
# (MPOL_MF_MOVE).  A cpuset's memory_migrate, the one other trigger of
# these migrations, needs CONFIG_CPUSETS, which the guest kernel lacks.
. /lib/fragview.sh
nodes=$(ls -d /sys/devices/system/node/node[0-9]* | wc -l)
echo "fragview: $nodes NUMA nodes"
[ "$nodes" -ge 2 ] || { fv_fail "migrate needs two NUMA nodes"; exit 1; }
fv_record_start
movepages -b -n 256 > "$OUT/movepages.out" 2>&1 || fv_fail "movepages exited with $?"
fv_record_stop
grep -vE '^page ' "$OUT/movepages.out"
# every page must have reached its node in all three steps
awk '/^summary/ { n++; if ($4 != $6) bad = 1 } END { exit bad || n != 3 }' \
	"$OUT/movepages.out" || fv_fail "pages did not all reach their node"
exit $FV_STATUS
