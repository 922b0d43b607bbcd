#!/bin/sh
# description: move_pages(2), migrate_pages(2) and mbind(2) between the two
# nodes under trace-cmd; the host matches per-page statuses with
# migrate_folio events
exec sh /scenarios/migrate.sh
