#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# highalloc: ask for order-9 pages while the fragmenter holds memory, then
# again once it has gone.
. /lib/fragview.sh
want=128
fv_small_reserves
fv_record_start
rm -f /tmp/fragmenter.ready
fragmenter -r 1 -s "$(fv_spare 16)" -H -R /tmp/fragmenter.ready > "$OUT/fragmenter.out" 2>&1 &
holder=$!
if fv_wait_file /tmp/fragmenter.ready $holder; then
	loaded=$(highalloc -n $want) || fv_fail "highalloc under load"
	kill -TERM $holder
fi
wait $holder || fv_fail "fragmenter exited with $?"
rested=$(highalloc -n $want) || fv_fail "highalloc at rest"
fv_record_stop
{ echo "under load: $loaded"; echo "at rest: $rested"; } |
	tee "$OUT/highalloc.out"
grep -E '^(compact_|htlb)' "$OUT/end.vmstat"
exit $FV_STATUS
