#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# offline: take a ZONE_MOVABLE memory block offline (its pages migrate
# away, the block is isolated) and bring it back online.
# fv-append: movablecore=256M
. /lib/fragview.sh
block=
for dir in /sys/devices/system/memory/memory[0-9]*; do
	if [ "$(cat "$dir/state")" = online ] &&
	   [ "$(cat "$dir/valid_zones")" = Movable ]; then
		block=$dir
	fi
done
if [ -z "$block" ]; then
	fv_fail "no online memory block in ZONE_MOVABLE (boot with movablecore=)"
	exit 1
fi
size=$(printf %d 0x$(cat /sys/devices/system/memory/block_size_bytes))
echo "fragview: using ${block##*/}, $((size >> 20)) MiB"
# give the block something to migrate, without filling memory
rm -f /tmp/fragmenter.ready
fragmenter -b 0 -r 1 -m 256 -p 64 -f 200 -H -R /tmp/fragmenter.ready \
	> "$OUT/fragmenter.out" 2>&1 &
holder=$!
fv_wait_file /tmp/fragmenter.ready $holder
fv_record_start
echo offline > "$block/state" || fv_fail "offlining ${block##*/}"
echo "fragview: ${block##*/} is $(cat "$block/state")"
echo online_movable > "$block/state" || fv_fail "onlining ${block##*/}"
echo "fragview: ${block##*/} is $(cat "$block/state")"
fv_record_stop
kill -TERM $holder
wait $holder || fv_fail "fragmenter exited with $?"
cat "$OUT/fragmenter.out"
grep -E '^pgmigrate' "$OUT/end.vmstat"
exit $FV_STATUS
