#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
# description: booted with page_group_by_mobility=off, the kernel says so, and
# the fragmenting workload causes no fallback steal and no pageblock flip.
# usage: grouping_off.py DIR DMESG
import os
import re
import sys
from report import Tap, events

d, dmesg = sys.argv[1], sys.argv[2]
t = Tap('grouping off')
log = open(dmesg, errors='replace').read()
t.check(re.search(r'mobility grouping off', log) is not None,
        'the kernel reports "mobility grouping off"')
count = {}
for e in events(os.path.join(d, 'trace.dat'),
                {'pageblock_steal', 'pageblock_flip', 'pageblock_state', 'mm_page_alloc_extfrag'}):
    count[e.name] = count.get(e.name, 0) + 1
t.check(count.get('pageblock_state', 0) > 0, 'the capture holds snapshots (%s)' % count)
t.check(count.get('pageblock_steal', 0) == 0 and count.get('mm_page_alloc_extfrag', 0) == 0,
        'no fallback steal')
t.check(count.get('pageblock_flip', 0) == 0, 'no pageblock flip')
t.done()
