#!/bin/sh
# description: move_pages(2)/migrate_pages(2) of hugetlb pages between the
# two nodes under trace-cmd; the host matches statuses with order-9
# migrate_folio events
exec sh /scenarios/hugemigrate.sh
