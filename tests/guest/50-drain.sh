#!/bin/sh
# description: CPU 1 offline/online and hugetlb allocations under
# fragmentation, under trace-cmd; the host checks pcp_drain batches with
# reasons cpu_dead, local and all
exec sh /scenarios/drain.sh
