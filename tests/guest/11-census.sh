#!/bin/sh
# description: the census of every pageblock after fragmenting, at rest,
# next to a /proc/kpageflags walk of the same blocks; the host compares
# them (tests/host/census.py)
exec sh /scenarios/census.sh
