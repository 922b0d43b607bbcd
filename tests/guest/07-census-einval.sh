#!/bin/sh
# description: the census trigger takes "1" and emits one pageblock_census
# per block of the pageblocks map, whose counts add up to the block; any
# other write fails with EINVAL; census reads the same blocks as pageblocks
. /lib/fragview.sh
dbg=/sys/kernel/debug/mobility
tr=/sys/kernel/tracing
rc=0

fv_bad_writes $dbg/census || rc=1

# the text: the blocks (pfn, type) of pageblocks, 14 columns each; a
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
		if (NF != 14 || $3+$5+$6+$7+$8+$9+$10+$11+$12+$13+$14 != hi - lo) print }' $dbg/census | head -n 3)
[ -z "$bad" ] || { echo "census lines whose page counts do not add up to the block: $bad"; rc=1; }
grep -q '^node .* pageblock_order 9 gen' $dbg/census || { echo "no zone header in census"; rc=1; }

# with the event off the write succeeds (and walks nothing)
echo 0 > $tr/events/mobility/pageblock_census/enable
echo 1 > $dbg/census || { echo "write '1' with the event off was refused"; rc=1; }
if ! fv_trigger_once $dbg/census pageblock_census; then
	echo "write '1' (echo, with newline) was refused"
	rc=1
fi
blocks=$(grep -c '^0x' $dbg/pageblocks)
echo "pageblock_census events: $FV_EVENTS in $FV_SEQS census, blocks in pageblocks: $blocks, lost: $FV_LOST"
if [ "$FV_EVENTS" -ne "$blocks" ] || [ "$blocks" -eq 0 ] || [ "$FV_SEQS" -ne 1 ]; then
	rc=1
fi
exit $rc
