#!/bin/sh
# description: pageblocks reads the same with tiny buffers and odd offsets
# (seq_file iterator restarts in the middle of zones and lines)
dbg=/sys/kernel/debug/mobility
layout() { awk '{ print $1, $2 }'; }	# pfn and type: free counts move

# A block may change type between two reads (a fallback claims it): that
# is the map being right, not the reader being wrong, so each comparison
# gets a few tries of back-to-back reads, as 03-pagetypeinfo does.
rc=0
for bs in 1 7 100 4095; do
	same=0
	for try in 1 2 3; do
		cat $dbg/pageblocks | layout > "$OUT/whole"
		dd if=$dbg/pageblocks bs=$bs 2>/dev/null | layout > "$OUT/bs$bs"
		[ -s "$OUT/whole" ] || { echo "empty pageblocks"; exit 1; }
		if cmp -s "$OUT/whole" "$OUT/bs$bs"; then
			same=1
			break
		fi
	done
	[ $same = 1 ] || { echo "bs=$bs differs in 3 tries:"; diff "$OUT/whole" "$OUT/bs$bs" | head; rc=1; }
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
