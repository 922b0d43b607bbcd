#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# reporting: free page reporting (virtio-balloon with free-page-reporting)
# hands free pages of order >= pageblock_order to the host.  It takes each
# off its free list with __isolate_free_page(), which makes the pageblocks
# of a page of at least half a block Movable when they were Unmovable or
# Reclaimable (reason isolate_free).  The fragmenter's unmovable pipe
# buffers claim blocks; once it exits, blocks it filled alone are free
# again, whole, on the Unmovable free list: the reporting worker (2 s
# after a high-order free) turns them Movable.  fv_reporting_order=N on
# the kernel command line reports from order N.
# fv-device: virtio-balloon-pci,free-page-reporting=on
. /lib/fragview.sh
order=/sys/module/page_reporting/parameters/page_reporting_order
if [ ! -d /sys/bus/virtio/drivers/virtio_balloon ] || [ ! -r $order ]; then
	fv_fail "no virtio_balloon driver with page reporting"
	exit 1
fi
# fv_reporting_order=N: report from order N (the boot parameter
# page_reporting.page_reporting_order is overwritten by the driver on 6.1)
want=$(sed -n 's/.*fv_reporting_order=\([0-9]*\).*/\1/p' /proc/cmdline)
if [ -n "$want" ] && ! echo "$want" > $order; then
	fv_fail "cannot set page_reporting_order $want"
	exit 1
fi
echo "fragview: page_reporting_order $(cat $order)"
fv_small_reserves
fv_record_start
fv_run fragmenter.out fragmenter -r 2 -s "$(fv_spare 16)"
# the worker runs 2 s after the last notification, then every 2 s while
# it finds pages to report
sleep 8
fv_record_stop
exit $FV_STATUS
