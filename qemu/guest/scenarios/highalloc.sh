#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# highalloc: ask for order-9 pages while memory is fragmented and held,
# then again once the fragmenter has gone.
. /lib/fragview.sh
set -e
want=128
fv_record_start
rm -f /tmp/fragmenter.ready
fragmenter -r 1 -p 512 -f 2000 -H -R /tmp/fragmenter.ready \
	> "$OUT/fragmenter.out" &
holder=$!
while [ ! -e /tmp/fragmenter.ready ]; do kill -0 $holder; sleep 0.2; done
echo "under load: $(highalloc -n $want)" | tee "$OUT/highalloc.out"
kill -TERM $holder
wait $holder
echo "at rest: $(highalloc -n $want)" | tee -a "$OUT/highalloc.out"
fv_record_stop
grep -E '^(compact_|htlb)' "$OUT/end.vmstat" || true
