#!/bin/sh
# description: offline and re-online a ZONE_MOVABLE memory block under
# trace-cmd; the host checks isolation flips and memory_hotplug migrations
exec sh /scenarios/offline.sh
