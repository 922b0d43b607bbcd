#!/bin/sh
# description: a movable memory block goes offline and comes back online in
# the kernel zone (Normal appears); the host replays the capture's first
# snapshot with its flips, online and offline ones included, onto the last
exec sh /scenarios/hotplug-zones.sh
