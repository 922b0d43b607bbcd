#!/bin/sh
# description: the snapshot trigger takes "1" and emits one pageblock_state
# per block of the pageblocks map; any other write fails with EINVAL
. /lib/fragview.sh
dbg=/sys/kernel/debug/mobility
rc=0

fv_bad_writes $dbg/snapshot || rc=1

if ! fv_trigger_once $dbg/snapshot pageblock_state; then
	echo "write '1' (echo, with newline) was refused"
	rc=1
fi
blocks=$(grep -c '^0x' $dbg/pageblocks)
echo "pageblock_state events: $FV_EVENTS in $FV_SEQS snapshot, blocks in pageblocks: $blocks, lost: $FV_LOST"
if [ "$FV_EVENTS" -ne "$blocks" ] || [ "$blocks" -eq 0 ]; then
	rc=1
fi
exit $rc
