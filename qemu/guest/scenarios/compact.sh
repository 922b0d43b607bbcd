#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# compact: fragment memory, then, while the fragmenter still holds its
# scattered survivors, compact all zones by hand.
# The host checks the steals of this capture against the claim rule, so
# the capture must have some: whether one fragmenter round falls back at
# all is timing on 6.12 (none in some boots on a loaded host).  A trace
# instance of its own counts pageblock_steal events, without consuming the
# recording's, and the fragmenter runs again, up to 4 times, until it has.
. /lib/fragview.sh
fv_small_reserves
fv_record_start
counter=$TRACING/instances/fv-compact-steals
mkdir -p "$counter"
echo 1 > "$counter/events/mobility/pageblock_steal/enable" ||
	fv_fail "no steal counter"
holder=
attempt=0
while [ $attempt -lt 4 ]; do
	attempt=$((attempt + 1))
	[ -z "$holder" ] || { kill -TERM $holder; wait $holder; }
	rm -f /tmp/fragmenter.ready
	fragmenter -r 1 -s "$(fv_spare 16)" -H -R /tmp/fragmenter.ready \
		> "$OUT/fragmenter.out" 2>&1 &
	holder=$!
	fv_wait_file /tmp/fragmenter.ready $holder || break
	steals=$(grep -c 'pageblock_steal:' "$counter/trace")
	echo "fragmenter attempt $attempt: $steals steals so far"
	[ "$steals" -gt 0 ] && break
done
echo 0 > "$counter/events/mobility/pageblock_steal/enable"
rmdir "$counter"
if [ -e /tmp/fragmenter.ready ]; then
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
