#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# polluter: a known culprit for fragview blame.  fv-holder fills memory
# with movable pages and small holes, then its child fv-polluter fills
# pipes: the pipe buffers are unmovable and have to fall back into the
# holes of Movable pageblocks, so the capture's pageblock_steal events
# (with their kernel stacks) come from fv-polluter in pipe_write().
# Watermark boosting is off for the run: the fallbacks would otherwise
# wake kswapd, whose reclaim has nothing to do with the culprit.
. /lib/fragview.sh
fv_small_reserves
boost=$(cat /proc/sys/vm/watermark_boost_factor)
echo 0 > /proc/sys/vm/watermark_boost_factor
fv_record_start
fv_run polluter.out polluter
fv_record_stop
echo "$boost" > /proc/sys/vm/watermark_boost_factor
exit $FV_STATUS
