#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# hugemigrate: move hugetlb (order-9) pages from node 0 to node 1 with
# move_pages(2) and back with migrate_pages(2); migrate_folio events of
# order 9 from the hugetlb path.
. /lib/fragview.sh
n=8
hp=hugepages/hugepages-2048kB/nr_hugepages
nodes=$(ls -d /sys/devices/system/node/node[0-9]* | wc -l)
[ "$nodes" -ge 2 ] || { fv_fail "hugemigrate needs two NUMA nodes"; exit 1; }
# a pool of n huge pages on each node: the pages start on node 0 and
# need free huge pages on node 1 to move to, and back
for node in 0 1; do
	echo $n > /sys/devices/system/node/node$node/$hp
	got=$(cat /sys/devices/system/node/node$node/$hp)
	echo "fragview: node$node huge pages: $got"
	[ "$got" -ge $n ] || fv_fail "node$node: only $got of $n huge pages"
done
fv_record_start
taskset -c 0 movepages -H -n $n > "$OUT/movepages.out" 2>&1 ||
	fv_fail "movepages -H exited with $?"
fv_record_stop
for node in 0 1; do echo 0 > /sys/devices/system/node/node$node/$hp; done
grep -vE '^page ' "$OUT/movepages.out"
awk '/^summary/ { n++; if ($4 != $6) bad = 1 } END { exit bad || n != 2 }' \
	"$OUT/movepages.out" || fv_fail "huge pages did not all reach their node"
exit $FV_STATUS
