#!/bin/sh
# description: snapshot writes from both CPUs at once while pageblocks is
# read: every write succeeds, each of the 40 snapshots emits exactly one
# pageblock_state per block (snapshots never interleave or lose blocks),
# and the kernel logs no warning
dbg=/sys/kernel/debug/mobility
tr=/sys/kernel/tracing
per_writer=20

if [ "${1:-}" = writer ]; then		# re-invoked below, pinned to one CPU
	i=0
	while [ $i -lt $per_writer ]; do
		echo 1 > $dbg/snapshot || echo "snapshot write failed" >> "$OUT/fail"
		i=$((i + 1))
	done
	exit 0
fi

# tracing must be on (an earlier test may have left it off) with room for
# 40 snapshots, else the writes trace nothing and the test proves nothing
was_on=$(cat $tr/tracing_on)
was_kb=$(cat $tr/buffer_size_kb)
echo 0 > $tr/tracing_on
echo 8192 > $tr/buffer_size_kb
echo > $tr/trace
echo 1 > $tr/events/mobility/pageblock_state/enable
echo 1 > $tr/tracing_on
dmesg -c > /dev/null
taskset 1 "$0" writer &
a=$!
taskset 2 "$0" writer &
b=$!
for i in 1 2 3 4 5; do cat $dbg/pageblocks > /dev/null || echo "read failed" >> "$OUT/fail"; done
wait $a $b
echo 0 > $tr/tracing_on
echo 0 > $tr/events/mobility/pageblock_state/enable
dmesg > "$OUT/dmesg"
rc=0
[ -e "$OUT/fail" ] && { cat "$OUT/fail"; rc=1; }
if grep -E 'WARNING|BUG|lockdep|circular|Call Trace' "$OUT/dmesg"; then rc=1; fi

# states per snapshot seq: every one of the 2 x $per_writer has every block
blocks=$(grep -c '^0x' $dbg/pageblocks)
grep -o 'pageblock_state: *seq=[0-9]*' $tr/trace | awk '{ print $2 }' |
	sort | uniq -c > "$OUT/states-per-seq"
lost=$(grep -c 'LOST' $tr/trace)
seqs=$(wc -l < "$OUT/states-per-seq")
short=$(awk -v n="$blocks" '$1 != n' "$OUT/states-per-seq" | wc -l)
echo "snapshots traced: $seqs (expected $((2 * per_writer))), $blocks blocks each," \
	"$short with another count, lost events: $lost"
if [ "$seqs" -ne $((2 * per_writer)) ] || [ "$short" -ne 0 ] || [ "$lost" -ne 0 ] ||
   [ "$blocks" -eq 0 ]; then
	awk -v n="$blocks" '$1 != n' "$OUT/states-per-seq" | head
	rc=1
fi
echo > $tr/trace
echo "$was_kb" > $tr/buffer_size_kb
echo "$was_on" > $tr/tracing_on
exit $rc
