#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# offline: take a ZONE_MOVABLE memory block offline (its pages migrate
# away, the block is isolated) and bring it back online.
# ZONE_MOVABLE starts a few pages off a block boundary (that block reports
# "none"), and the top block of each node holds early kernel allocations
# that cannot move: 640M leaves one clean movable block per node.
# fv-append: movablecore=640M
. /lib/fragview.sh
blocks=
for dir in /sys/devices/system/memory/memory[0-9]*; do
	echo "fragview: ${dir##*/} $(cat "$dir/state") $(cat "$dir/valid_zones")"
	if [ "$(cat "$dir/state")" = online ] &&
	   [ "$(cat "$dir/valid_zones")" = Movable ]; then
		blocks="$blocks $dir"
	fi
done
if [ -z "$blocks" ]; then
	fv_fail "no online memory block in ZONE_MOVABLE (boot with movablecore=)"
	exit 1
fi
size=$(printf %d 0x$(cat /sys/devices/system/memory/block_size_bytes))
echo "fragview: movable blocks of $((size >> 20)) MiB:" ${blocks}
# On CPU 0 (node 0) the fragmenter's memory comes from node 0's movable
# blocks first (highest zone): the block taken offline has pages to migrate.
rm -f /tmp/fragmenter.ready
taskset -c 0 fragmenter -b 160 -r 1 -m 64 -p 64 -f 200 -H \
	-R /tmp/fragmenter.ready > "$OUT/fragmenter.out" 2>&1 &
holder=$!
fv_wait_file /tmp/fragmenter.ready $holder
fv_record_start
: > "$OUT/offline-attempts"
# A block with a memory hole (the end of RAM) cannot go offline (EINVAL):
# take the first one that does.  Each attempt's pfn range goes to
# $OUT/offline-attempts (NAME FIRST_PFN END_PFN offline|refused): a refused
# attempt isolates and unisolates blocks too, and the host ties every
# isolation to an attempted range.
pages=$((size / 4096))
block=
for dir in $blocks; do
	first=$(( ${dir##*/memory} * pages ))
	range=$(printf '%s 0x%x 0x%x' "${dir##*/}" $first $((first + pages)))
	if echo offline > "$dir/state"; then
		echo "$range offline" >> "$OUT/offline-attempts"
		block=$dir
		break
	fi
	echo "$range refused" >> "$OUT/offline-attempts"
	echo "fragview: ${dir##*/} refused to go offline"
done
if [ -n "$block" ]; then
	echo "fragview: ${block##*/} is $(cat "$block/state")"
	echo online_movable > "$block/state" ||
		fv_fail "onlining ${block##*/}"
	echo "fragview: ${block##*/} is $(cat "$block/state")"
else
	fv_fail "no movable block went offline"
fi
fv_record_stop
kill -TERM $holder
wait $holder || fv_fail "fragmenter exited with $?"
cat "$OUT/fragmenter.out"
grep -E '^pgmigrate' "$OUT/end.vmstat"
exit $FV_STATUS
