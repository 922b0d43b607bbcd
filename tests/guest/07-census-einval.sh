#!/bin/sh
# description: the census trigger takes "1" and emits one pageblock_census
# per block of the pageblocks map, whose counts add up to the block; any
# other write fails with EINVAL; census reads the same blocks as pageblocks
. /lib/fragview.sh
dbg=/sys/kernel/debug/mobility
tr=/sys/kernel/tracing
rc=0

fv_bad_writes $dbg/census || rc=1

# the text: the blocks (pfn, type) of pageblocks, 13 columns each; a
# block may change type between the two reads, so a few tries
same=0
for try in 1 2 3; do
	awk '/^0x/ { print $1, $2 }' $dbg/pageblocks > "$OUT/pageblocks.layout"
	awk '/^0x/ { print $1, $2 }' $dbg/census > "$OUT/census.layout"
	cmp -s "$OUT/pageblocks.layout" "$OUT/census.layout" && { same=1; break; }
done
[ $same = 1 ] || { echo "census lists other blocks than pageblocks:"; diff "$OUT/pageblocks.layout" "$OUT/census.layout" | head; rc=1; }
# the counts add up to the pages of the block inside its zone
bad=$(awk '/^node/ { start = $6 + 0; end = $8 + 0
		n = 1; for (i = 0; i < $12; i++) n *= 2 }
	/^0x/ { pfn = $1 + 0; lo = pfn > start ? pfn : start
		hi = pfn + n < end ? pfn + n : end
		if (NF != 13 || $3+$5+$6+$7+$8+$9+$10+$11+$12+$13 != hi - lo) print }' $dbg/census | head -n 3)
[ -z "$bad" ] || { echo "census lines whose page counts do not add up to the block: $bad"; rc=1; }
grep -q '^node .* pageblock_order 9 gen' $dbg/census || { echo "no zone header in census"; rc=1; }

was_on=$(cat $tr/tracing_on)
echo 0 > $tr/tracing_on
echo > $tr/trace
# disabled: the write succeeds and emits nothing
echo 1 > $dbg/census || { echo "write '1' with the event off was refused"; rc=1; }
echo 1 > $tr/events/mobility/pageblock_census/enable
echo 1 > $tr/tracing_on
if ! echo 1 > $dbg/census; then
	echo "write '1' (echo, with newline) was refused"
	rc=1
fi
echo 0 > $tr/tracing_on
echo 0 > $tr/events/mobility/pageblock_census/enable

events=$(grep -c 'pageblock_census:' $tr/trace)
seqs=$(grep -o 'pageblock_census: *seq=[0-9]*' $tr/trace | sort -u | wc -l)
blocks=$(grep -c '^0x' $dbg/pageblocks)
lost=$(grep -c 'LOST' $tr/trace)
echo "pageblock_census events: $events in $seqs census, blocks in pageblocks: $blocks, lost: $lost"
if [ "$events" -ne "$blocks" ] || [ "$blocks" -eq 0 ] || [ "$seqs" -ne 1 ]; then
	rc=1
fi
# leave tracing as it was: later tests trace too
echo > $tr/trace
echo "$was_on" > $tr/tracing_on
exit $rc
