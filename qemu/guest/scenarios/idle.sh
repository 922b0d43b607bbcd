#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# idle: baseline and final map around a one-second sleep: a tiny capture
# for test fixtures.
. /lib/fragview.sh
set -e
fv_record_start
sleep 1
fv_record_stop
