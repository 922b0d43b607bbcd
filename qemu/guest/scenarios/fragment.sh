#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# fragment: interleave movable anonymous memory with unmovable pipe
# buffers and reclaimable tmpfs metadata, so the allocator steals from
# (and claims) pageblocks of other migratetypes.
. /lib/fragview.sh
set -e
fv_record_start
fragmenter -r 2 -p 512 -f 2000 | tee "$OUT/fragmenter.out"
fv_record_stop
grep -E 'pgmigrate|compact_|thp_|extfrag' "$OUT/end.vmstat" || true
