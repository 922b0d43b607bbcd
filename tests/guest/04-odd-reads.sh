#!/bin/sh
# description: pageblocks reads the same with tiny buffers and odd offsets
# (seq_file iterator restarts in the middle of zones and lines)
dbg=/sys/kernel/debug/mobility
layout() { awk '{ print $1, $2 }'; }	# pfn and type: free counts move

cat $dbg/pageblocks | layout > "$OUT/whole"
[ -s "$OUT/whole" ] || { echo "empty pageblocks"; exit 1; }
rc=0
for bs in 1 7 100 4095; do
	dd if=$dbg/pageblocks bs=$bs 2>/dev/null | layout > "$OUT/bs$bs"
	cmp -s "$OUT/whole" "$OUT/bs$bs" || { echo "bs=$bs differs"; rc=1; }
done
# start at an odd byte offset: must equal the tail of a whole read
size=$(cat $dbg/pageblocks | wc -c)
for off in 1 333 $((size / 2)) $((size - 1)); do
	dd if=$dbg/pageblocks bs=1 skip=$off 2>/dev/null | wc -c > "$OUT/n$off"
	got=$(cat "$OUT/n$off")
	# free counts may change a line's width by a digit or two
	diff=$((got - (size - off)))
	[ "$diff" -lt 0 ] && diff=$((-diff))
	[ "$diff" -le 64 ] || { echo "skip=$off: $got bytes, expected ~$((size - off))"; rc=1; }
done
exit $rc
