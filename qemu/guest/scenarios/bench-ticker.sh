#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# bench-ticker: what taking the free-page state periodically costs, for
# bench/ticker.sh (fragview explain wants figures near each failure):
#   tick      one write to mobility/census and one to mobility/snapshot
#             (each walks every pageblock, one zone->lock hold per block,
#             and writes its events): guest ns per write, events and
#             ring-buffer bytes it wrote;
#   faultloop faultloop -s 65536 -n 20 (327,680 order-0 faults, ~2 s
#             of guest time), alone ("none") and with a ticker taking a
#             census, the zone lines and a snapshot every second
#             ("ticker"), alternating run by run.
# The mobility events are on in both modes, into a ring nobody reads
# (overwrite mode): the kernel's side of the cost; copying the bytes out
# is the recorder's, and the tick's bytes say how much there is.
# Kernel parameters read: fv.bench.reps=N (default 5).
# Output lines: "tick FILE REP NS events N bytes B blocks K" and
# "result faultloop MODE REP NS_PER_OP ops N".
. /lib/fragview.sh
set -e
reps=5
for arg in $(cat /proc/cmdline); do
	case $arg in fv.bench.reps=*) reps=${arg#fv.bench.reps=} ;; esac
done
T=$TRACING
[ -w "$MOBILITY_DEBUGFS/census" ] || { echo "bench: no mobility census: unpatched kernel"; exit 1; }
blocks=$(grep -c '^0x' "$MOBILITY_DEBUGFS/pageblocks")
echo "bench: $blocks pageblocks"
echo 0 > "$T/tracing_on"
echo 16384 > "$T/buffer_size_kb"
echo 1 > "$T/events/mobility/enable"

# ring NAME: the sum of NAME (entries, bytes) over the per-cpu stats
ring() {
	cat "$T"/per_cpu/cpu*/stats | awk -v k="$1:" '$1 == k { n += $2 } END { print n + 0 }'
}

i=1
while [ $i -le "$reps" ]; do
	for f in census snapshot; do
		echo > "$T/trace"
		echo 1 > "$T/tracing_on"
		ns=$(bench-mapread -w "$MOBILITY_DEBUGFS/$f" -n 1 |
			awk '{ print $NF }')
		echo 0 > "$T/tracing_on"
		echo "tick $f $i $ns events $(ring entries) bytes $(ring bytes) blocks $blocks"
	done
	i=$((i + 1))
done

ticker() {
	while sleep 1; do
		fv_census
		fv_snapshot	# with the zone lines first
	done
}

faultloop -s 65536 -n 1 > /dev/null	# warm-up
echo 1 > "$T/tracing_on"
i=1
while [ $i -le "$reps" ]; do
	if [ $((i % 2)) = 1 ]; then order="none ticker"; else order="ticker none"; fi
	for m in $order; do
		t=
		if [ "$m" = ticker ]; then
			ticker &
			t=$!
		fi
		out=$(faultloop -s 65536 -n 20)
		[ -z "$t" ] || { kill "$t"; wait "$t" 2>/dev/null || true; }
		echo "result faultloop $m $i $(echo "$out" |
			awk '{ for (i = 1; i < NF; i++) if ($i == "faults") o = $(i + 1)
				print $NF " ops " o }')"
	done
	i=$((i + 1))
done
echo 0 > "$T/tracing_on"
echo "bench: done"
