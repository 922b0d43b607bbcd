#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# compact: fragment memory, then, while the fragmenter still holds its
# scattered survivors, compact all zones by hand.
. /lib/fragview.sh
fv_small_reserves
fv_record_start
rm -f /tmp/fragmenter.ready
fragmenter -r 1 -s "$(fv_spare 16)" -H -R /tmp/fragmenter.ready > "$OUT/fragmenter.out" 2>&1 &
holder=$!
if fv_wait_file /tmp/fragmenter.ready $holder; then
	cat /proc/buddyinfo > "$OUT/before-compaction.buddyinfo"
	echo 1 > /proc/sys/vm/compact_memory || fv_fail "compact_memory"
	cat /proc/buddyinfo > "$OUT/after-compaction.buddyinfo"
	kill -TERM $holder
fi
wait $holder || fv_fail "fragmenter exited with $?"
fv_record_stop
cat "$OUT/fragmenter.out"
echo "buddyinfo before compaction:"; cat "$OUT/before-compaction.buddyinfo"
echo "buddyinfo after compaction:"; cat "$OUT/after-compaction.buddyinfo"
grep -E '^compact_' "$OUT/end.vmstat"
exit $FV_STATUS
