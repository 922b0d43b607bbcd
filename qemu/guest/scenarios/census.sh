#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# census: what each pageblock holds, checked against /proc/kpageflags.
# Memory is fragmented first (the fragmenter: movable anonymous memory,
# pipe buffers, tmpfs metadata), then, with nothing of ours running,
# censuswalk reads the census, classifies every listed block's pages from
# /proc/kpageflags and reads the census again (tests/host/census.py
# compares them). A short capture after that carries the census as
# mobility:pageblock_census events, at rest, next to a snapshot.
# A hugetlb pool of 8 pages, 4 of them in use by a hugetlbfs file, is
# there from before the fragmenter to the end: the census counts both
# kinds as hugetlb (series v2 counted them as kernel and free_pcp).
. /lib/fragview.sh
fv_small_reserves
if [ ! -r "$MOBILITY_DEBUGFS/census" ]; then
	fv_fail "no $MOBILITY_DEBUGFS/census in this kernel"
	exit $FV_STATUS
fi
hugepages() {	# hugepages TAG: the pool's size and free pages, as census.py reads them
	awk -v tag="$1" '/^HugePages_Total:/ { t = $2 } /^HugePages_Free:/ { f = $2 }
		END { print tag, t, f }' /proc/meminfo >> "$OUT/hugepages.txt"
}
echo 8 > /proc/sys/vm/nr_hugepages
mkdir -p /mnt/huge
if ! mount -t hugetlbfs none /mnt/huge || ! fallocate -l 8M /mnt/huge/held; then
	fv_fail "no hugetlb pages in use: hugetlbfs or fallocate failed"
fi
fv_run fragmenter.out fragmenter -r 2 -s "$(fv_spare 16)"
# the fragmenter's pages go back; let the per-cpu LRU batches and the
# vmstat worker settle before the walk
sync
sleep 2
hugepages before
censuswalk > "$OUT/walk.txt" 2> "$OUT/walk.err" ||
	fv_fail "censuswalk: $(cat "$OUT/walk.err")"
hugepages after
echo "census: hugetlb pool (total free): $(tr '\n' ' ' < "$OUT/hugepages.txt")"
echo "census: walked $(grep -c '^kpf ' "$OUT/walk.txt") blocks"
fv_record_start
sleep 1
fv_record_stop
rm -f /mnt/huge/held
umount /mnt/huge
echo 0 > /proc/sys/vm/nr_hugepages
exit $FV_STATUS
