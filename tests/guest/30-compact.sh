#!/bin/sh
# description: fragment, then compact_memory, under trace-cmd; the host
# checks the replay across compaction's migrations and isolations
exec sh /scenarios/compact.sh
