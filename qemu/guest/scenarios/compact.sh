#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# compact: fragment memory, then, while the fragmenter still holds its
# interleaved survivors, compact all zones by hand.
. /lib/fragview.sh
set -e
fv_record_start
rm -f /tmp/fragmenter.ready
fragmenter -r 1 -p 512 -f 2000 -H -R /tmp/fragmenter.ready \
	> "$OUT/fragmenter.out" &
holder=$!
while [ ! -e /tmp/fragmenter.ready ]; do
	kill -0 $holder
	sleep 0.2
done
cat /proc/buddyinfo > "$OUT/before-compaction.buddyinfo"
echo 1 > /proc/sys/vm/compact_memory
cat /proc/buddyinfo > "$OUT/after-compaction.buddyinfo"
kill -TERM $holder
wait $holder
fv_record_stop
cat "$OUT/fragmenter.out"
echo "buddyinfo before compaction:"; cat "$OUT/before-compaction.buddyinfo"
echo "buddyinfo after compaction:"; cat "$OUT/after-compaction.buddyinfo"
grep -E '^compact_' "$OUT/end.vmstat"
