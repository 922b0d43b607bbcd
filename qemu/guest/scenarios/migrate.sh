#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# migrate: move a buffer's pages from node 0 to node 1 with move_pages(2)
# and back with migrate_pages(2).
. /lib/fragview.sh
set -e
nodes=$(ls -d /sys/devices/system/node/node[0-9]* | wc -l)
echo "fragview: $nodes NUMA nodes"
if [ "$nodes" -lt 2 ]; then
	echo "fragview: migrate needs two NUMA nodes" >&2
	exit 1
fi
fv_record_start
movepages -n 256 > "$OUT/movepages.out"
fv_record_stop
grep -E '^(step|summary)' "$OUT/movepages.out"
# every page must have reached its node both ways
awk '/^summary/ && $4 != $6 { bad = 1 } END { exit bad }' "$OUT/movepages.out"
