#!/bin/sh
# description: the fragmenting workload under trace-cmd, with baseline and
# final snapshots; the host checks replay, steal/flip pairs and drains
exec sh /scenarios/fragment.sh
