#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# lost-events: the fragment workload recorded into a deliberately tiny ring
# buffer (trace-cmd record -b 8: 8 KiB per CPU), so that the per-page drain
# events overrun it.  The host requires fragview check to say which CPU
# lost events and to exit 2 (cannot be exact), never 0, and the replay
# oracle to fail: the overrun must take events the replay needs.  Which
# events a reader that falls behind loses is timing, so one snapshot is
# taken while the readers are stopped: its 512 and more pageblock_state
# events cannot fit in 8 KiB, and the overrun takes some of them for sure.
. /lib/fragview.sh
# the per-page drain events are what overruns the buffer
FV_PER_PAGE_DRAIN=1
fv_small_reserves
fv_record_start -b 8
fv_run fragmenter.out fragmenter -r 2 -s "$(fv_spare 16)"
readers=$(pidof trace-cmd)
kill -STOP $readers
fv_snapshot
kill -CONT $readers
fv_record_stop
exit $FV_STATUS
