#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
# description: every claimed pageblock_steal comes, on the same CPU, with a
# pageblock_flip of that block to the allocation's type with reason steal, and
# every steal-reason flip has its claimed steal.
# usage: steal_flip.py DIR
import os
import sys
from report import Tap, events

d = sys.argv[1]
t = Tap('steal/flip ' + os.path.basename(d.rstrip('/')))
# The kernel flips the block(s) inside steal_suitable_fallback() and then
# emits the steal, so a claimed steal consumes the steal flips that precede
# it on its CPU.
pending = {}        # cpu -> steal flips not yet consumed
steals = claimed = flips = 0
unmatched_steals, orphan_flips = [], []

for e in events(os.path.join(d, 'trace.dat'), {'pageblock_steal', 'pageblock_flip'}):
    if e.name == 'pageblock_flip':
        if e.f.get('reason') == 'steal':
            flips += 1
            pending.setdefault(e.cpu, []).append(e)
        continue
    steals += 1
    before = pending.pop(e.cpu, [])
    if e.f['claimed'] not in ('1', 'true', 'yes'):
        orphan_flips += [f.raw for f in before]
        continue
    claimed += 1
    # an order >= pageblock_order buddy claims every block it covers
    span = 1 << max(9, e.num('fallback_order'))
    lo = e.num('pfn') & ~(span - 1)
    mine = [f for f in before if lo <= f.num('pfn') < lo + span and
            f.f['new_mt'] == e.f['alloc_mt']]
    orphan_flips += [f.raw for f in before if f not in mine]
    # A page can sit on another type's free list inside a block that
    # already has the allocation's type: claiming that block changes
    # nothing, and flips are only traced for real changes.
    if not mine and e.f['block_mt'] != e.f['alloc_mt']:
        unmatched_steals.append(e.raw)
for rest in pending.values():
    orphan_flips += [f.raw for f in rest]
t.check(steals > 0, 'the workload caused fallback steals (%d, %d claimed)' % (steals, claimed))
t.check(claimed > 0, 'some steals claimed their block')
t.check(not unmatched_steals, 'every claimed steal has its flip', unmatched_steals)
t.check(not orphan_flips, 'every steal flip has its claimed steal (%d)' % flips, orphan_flips)
t.done()
