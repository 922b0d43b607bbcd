#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
# description: every claimed pageblock_steal is followed, on the same CPU, by a
# pageblock_flip of that block to the allocation's type with reason steal, and
# every steal-reason flip has its claimed steal.
# usage: steal_flip.py DIR
import os
import sys
from report import Tap, events

d = sys.argv[1]
t = Tap('steal/flip ' + os.path.basename(d.rstrip('/')))
pending = {}        # cpu -> [claimed steal, flips matched so far]
steals = claimed = flips = 0
unmatched_steals, orphan_flips = [], []


def close(cpu):
    s = pending.pop(cpu, None)
    if s and s[1] == 0:
        unmatched_steals.append(s[0].raw)


for e in events(os.path.join(d, 'trace.dat'), {'pageblock_steal', 'pageblock_flip'}):
    if e.name == 'pageblock_steal':
        steals += 1
        close(e.cpu)
        if e.f['claimed'] in ('1', 'true', 'yes'):
            claimed += 1
            pending[e.cpu] = [e, 0]
        continue
    if e.f.get('reason') != 'steal':
        continue
    flips += 1
    s = pending.get(e.cpu)
    pfn = e.num('pfn')
    # an order >= pageblock_order buddy claims all the blocks it covers
    span = 1 << max(9, s[0].num('fallback_order')) if s else 0
    if s and s[0].f['alloc_mt'] == e.f['new_mt'] and \
            s[0].num('block_pfn') <= pfn < s[0].num('block_pfn') + span:
        s[1] += 1
    else:
        orphan_flips.append(e.raw)
for cpu in list(pending):
    close(cpu)
t.check(steals > 0, 'the workload caused fallback steals (%d, %d claimed)' % (steals, claimed))
t.check(claimed > 0, 'some steals claimed their block')
t.check(not unmatched_steals, 'every claimed steal has its flip', unmatched_steals)
t.check(not orphan_flips, 'every steal flip has its claimed steal (%d)' % flips, orphan_flips)
t.done()
