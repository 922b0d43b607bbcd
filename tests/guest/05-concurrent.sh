#!/bin/sh
# description: snapshot writes from both CPUs at once while pageblocks is
# read: every write succeeds and the kernel logs no warning
dbg=/sys/kernel/debug/mobility
tr=/sys/kernel/tracing

if [ "${1:-}" = writer ]; then		# re-invoked below, pinned to one CPU
	i=0
	while [ $i -lt 20 ]; do
		echo 1 > $dbg/snapshot || echo "snapshot write failed" >> "$OUT/fail"
		i=$((i + 1))
	done
	exit 0
fi

echo 1 > $tr/events/mobility/pageblock_state/enable
dmesg -c > /dev/null
taskset 1 "$0" writer &
a=$!
taskset 2 "$0" writer &
b=$!
for i in 1 2 3 4 5; do cat $dbg/pageblocks > /dev/null || echo "read failed" >> "$OUT/fail"; done
wait $a $b
echo 0 > $tr/events/mobility/pageblock_state/enable
dmesg > "$OUT/dmesg"
rc=0
[ -e "$OUT/fail" ] && { cat "$OUT/fail"; rc=1; }
if grep -E 'WARNING|BUG|lockdep|circular|Call Trace' "$OUT/dmesg"; then rc=1; fi
exit $rc
