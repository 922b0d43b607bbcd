#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# census: what each pageblock holds, checked against /proc/kpageflags.
# Memory is fragmented first (the fragmenter: movable anonymous memory,
# pipe buffers, tmpfs metadata), then, with nothing of ours running,
# censuswalk reads the census, classifies every listed block's pages from
# /proc/kpageflags and reads the census again (tests/host/census.py
# compares them). A short capture after that carries the census as
# mobility:pageblock_census events, at rest, next to a snapshot.
. /lib/fragview.sh
fv_small_reserves
if [ ! -r "$MOBILITY_DEBUGFS/census" ]; then
	fv_fail "no $MOBILITY_DEBUGFS/census in this kernel"
	exit $FV_STATUS
fi
fv_run fragmenter.out fragmenter -r 2 -s "$(fv_spare 16)"
# the fragmenter's pages go back; let the per-cpu LRU batches and the
# vmstat worker settle before the walk
sync
sleep 2
censuswalk > "$OUT/walk.txt" 2> "$OUT/walk.err" ||
	fv_fail "censuswalk: $(cat "$OUT/walk.err")"
echo "census: walked $(grep -c '^kpf ' "$OUT/walk.txt") blocks"
fv_record_start
sleep 1
fv_record_stop
exit $FV_STATUS
