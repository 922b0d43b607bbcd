#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# hotplug-zones: memory leaves the pageblock map and comes back in another
# zone.  A ZONE_MOVABLE memory block goes offline and comes back with
# online_kernel, into the node's kernel zone: Normal, empty until then, so
# a zone appears in the final snapshot.  (Kernel allocations go to the
# new highest kernel zone at once, so the block cannot go offline again
# to come back as Movable.)  The host replays the first snapshot with the
# flips and must reach the final one exactly.
# Writes $OUT/zone-moves: "NAME FIRST_PFN END_PFN ZONE" per onlining.
# fv-append: movablecore=640M
. /lib/fragview.sh

size=$(printf %d 0x$(cat /sys/devices/system/memory/block_size_bytes))
pages=$((size / 4096))
: > "$OUT/zone-moves"

# online STATE DIR: bring DIR online as STATE, note the zone it landed in
online() {
	echo "$1" > "$2/state" || { fv_fail "$1 ${2##*/}"; return 1; }
	first=$(( ${2##*/memory} * pages ))
	# valid_zones of an online block is the zone it is in
	printf '%s 0x%x 0x%x %s\n' "${2##*/}" $first $((first + pages)) \
		"$(cat "$2/valid_zones")" >> "$OUT/zone-moves"
	echo "fragview: ${2##*/} $1: valid_zones $(cat "$2/valid_zones")"
}

fv_record_start
block=
for dir in /sys/devices/system/memory/memory[0-9]*; do
	[ "$(cat "$dir/state")" = online ] || continue
	[ "$(cat "$dir/valid_zones")" = Movable ] || continue
	if echo offline > "$dir/state"; then
		block=$dir
		break
	fi
done
if [ -z "$block" ]; then
	fv_fail "no movable block went offline"
	fv_record_stop
	exit $FV_STATUS
fi
echo "fragview: ${block##*/} offline, may go to: $(cat "$block/valid_zones")"
online online_kernel "$block"
fv_record_stop
exit $FV_STATUS
