#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# offline: take a ZONE_MOVABLE memory block offline (its pages migrate
# away, the block is isolated) and bring it back online.
# fv-append: movablecore=256M
. /lib/fragview.sh
set -e
block=
for dir in /sys/devices/system/memory/memory[0-9]*; do
	if [ "$(cat "$dir/state")" = online ] &&
	   [ "$(cat "$dir/valid_zones")" = Movable ]; then
		block=$dir
	fi
done
if [ -z "$block" ]; then
	echo "fragview: no online memory block in ZONE_MOVABLE" \
		"(boot with movablecore=)" >&2
	exit 1
fi
echo "fragview: using ${block##*/}," \
	"$(( $(printf %d 0x$(cat /sys/devices/system/memory/block_size_bytes)) >> 20 )) MiB"
# give the block something to migrate
fragmenter -r 1 -p 64 -f 200 -m 256 -H -R /tmp/fragmenter.ready \
	> "$OUT/fragmenter.out" &
holder=$!
while [ ! -e /tmp/fragmenter.ready ]; do kill -0 $holder; sleep 0.2; done
fv_record_start
echo offline > "$block/state"
echo "fragview: ${block##*/} is $(cat "$block/state")"
echo online_movable > "$block/state"
echo "fragview: ${block##*/} is $(cat "$block/state")"
fv_record_stop
kill -TERM $holder
wait $holder
grep -E '^pgmigrate' "$OUT/end.vmstat"
