#!/bin/sh
# description: a known culprit: fv-polluter's unmovable pipe buffers fall
# back into Movable pageblocks, recorded with their kernel stacks; the host
# checks that blame puts fv-polluter and pipe_write() on top
exec sh /scenarios/polluter.sh
