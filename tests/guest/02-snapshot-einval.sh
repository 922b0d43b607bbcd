#!/bin/sh
# description: the snapshot trigger takes "1" and emits one pageblock_state
# per block of the pageblocks map; any other write fails with EINVAL
. /lib/fragview.sh
dbg=/sys/kernel/debug/mobility
tr=/sys/kernel/tracing
rc=0

fv_bad_writes $dbg/snapshot || rc=1

was_on=$(cat $tr/tracing_on)
echo 0 > $tr/tracing_on
echo > $tr/trace
echo 1 > $tr/events/mobility/pageblock_state/enable
echo 1 > $tr/tracing_on
if ! echo 1 > $dbg/snapshot; then
	echo "write '1' (echo, with newline) was refused"
	rc=1
fi
echo 0 > $tr/tracing_on
echo 0 > $tr/events/mobility/pageblock_state/enable

states=$(grep -c 'pageblock_state:' $tr/trace)
blocks=$(grep -c '^0x' $dbg/pageblocks)
lost=$(grep -c 'LOST' $tr/trace)
echo "pageblock_state events: $states, blocks in pageblocks: $blocks, lost: $lost"
if [ "$states" -ne "$blocks" ] || [ "$blocks" -eq 0 ]; then
	rc=1
fi
# leave tracing as it was: later tests trace too
echo > $tr/trace
echo "$was_on" > $tr/tracing_on
exit $rc
