#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# migrate: move a buffer's pages from node 0 to node 1 with move_pages(2)
# and back with migrate_pages(2).
. /lib/fragview.sh
nodes=$(ls -d /sys/devices/system/node/node[0-9]* | wc -l)
echo "fragview: $nodes NUMA nodes"
[ "$nodes" -ge 2 ] || { fv_fail "migrate needs two NUMA nodes"; exit 1; }
fv_record_start
movepages -n 256 > "$OUT/movepages.out" 2>&1 || fv_fail "movepages exited with $?"
fv_record_stop
grep -vE '^page ' "$OUT/movepages.out"
# every page must have reached its node both ways
awk '/^summary/ { n++; if ($4 != $6) bad = 1 } END { exit bad || n != 2 }' \
	"$OUT/movepages.out" || fv_fail "pages did not all reach their node"
exit $FV_STATUS
