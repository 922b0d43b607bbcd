#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# idle: baseline and final map around a one-second sleep: a tiny capture
# for test fixtures.
. /lib/fragview.sh
fv_record_start
sleep 1
fv_record_stop
exit $FV_STATUS
