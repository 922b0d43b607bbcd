#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# cma: allocate from a CMA area while movable memory sits in it.  The kernel
# config has no DMA_CMA (so no cma=); the one CMA area it can have is the
# hugetlb one for gigantic pages.  Boot with --mem 8G --append
# hugetlb_cma=1:2G: the area comes in whole GiBs, only 2 MiB aligned, below
# the node's top few MiB, so it takes 2 GiB to hold one 1 GiB-aligned GiB,
# and only node 1 (5-9 GiB; node 0 is split by the PCI hole) has 2 GiB of
# contiguous RAM.  A 1 GiB gigantic page then
# comes from that area through alloc_contig_range(): its pageblocks are
# isolated (CMA -> Isolate), their pages migrate out (reason contig_range),
# every CPU's lists drain (reason all), and the blocks go back to CMA.
# Without the area the scenario says so and exits 4 (a skip in --tests).
. /lib/fragview.sh
node=1
gp=/sys/devices/system/node/node$node/hugepages/hugepages-1048576kB/nr_hugepages
cma=$(grep -c '^0x[0-9a-f]* CMA ' "$MOBILITY_DEBUGFS/pageblocks")
echo "fragview: $cma CMA pageblocks"
if [ "$cma" = 0 ] || [ ! -w $gp ]; then
	echo "fragview: no CMA area (--mem 8G --append hugetlb_cma=1:2G): skipped"
	exit 4
fi
fv_small_reserves
fv_record_start
# movable memory on node 1 (4 GiB, half of it CMA), 2.5 GiB of THPs, so much of
# it in the CMA area (the allocator
# serves movable requests from CMA while over half the free pages are CMA)
rm -f /tmp/fragmenter.ready
taskset -c 1 fragmenter -b 2560 -m 128 -r 1 -H -R /tmp/fragmenter.ready \
	> "$OUT/fragmenter.out" 2>&1 &
holder=$!
if fv_wait_file /tmp/fragmenter.ready $holder; then
	grep -E 'nr_free_cma|nr_free_pages' /proc/zoneinfo > "$OUT/loaded.zoneinfo"
	echo 1 > $gp || fv_fail "gigantic page allocation"
	got=$(cat $gp)
	echo "fragview: gigantic pages: $got"
	[ "$got" = 1 ] || fv_fail "no gigantic page from the CMA area"
	echo 0 > $gp
	kill -TERM $holder
fi
wait $holder || fv_fail "fragmenter exited with $?"
fv_record_stop
grep -E '^(pgmigrate|cma_)' "$OUT/end.vmstat"
exit $FV_STATUS
