#!/bin/sh
# description: move_pages(2), migrate_pages(2), mbind(2) and a cpuset's
# cpuset.mems between the two nodes under trace-cmd; the host matches
# per-page statuses with migrate_folio events
FV_NEED_CPUSET=1 exec sh /scenarios/migrate.sh
