#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# fragment: interleave movable anonymous memory with unmovable pipe
# buffers and reclaimable tmpfs metadata, so the allocator steals from
# (and claims) pageblocks of other migratetypes.
. /lib/fragview.sh
fv_small_reserves
fv_record_start
fv_run fragmenter.out fragmenter -r 2 -s "$(fv_spare 16)"
fv_record_stop
grep -E '^(pgmigrate|compact_stall|compact_success)' "$OUT/end.vmstat"
exit $FV_STATUS
