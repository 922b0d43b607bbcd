#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
# description: did the explain scenario's pinned plant hold?  Its holder
# leaves pipe pages (unmovable) in every block of node --node, and the
# blocks without (where no group could be freed, or the pipes did not
# reach) must not be the nearest to free, or the failures are rightly
# "movable pages compaction did not move" and tell nothing about the
# pinned verdict.  From `trace-cmd report` alone: at each failed
# order >= 9 kmem:mm_page_alloc of --task, the last complete census
# before it (pageblock_census, one seq whole) gives the node's blocks not
# wholly free; of the 8 with the most free pages, more than half must
# hold unmovable pages (kernel, slab or page-table counts).  The plant
# held when that is so at more than half of the failures (boots that
# held: 25 to 36 of 34 to 39 failures; the one that did not: 0 of 34).
# Prints one line; exit 0: held, 1: lost, 2: no failure or no census.
# usage: pinned_plant.py DIR | --report FILE  [--task COMM] [--node N]
import sys

from report import events, oracle_args

NEAREST = 8
BLOCK = 512
UNMOVABLE = ('kernel', 'slab_unmovable', 'slab_reclaimable', 'pgtable')


def extra(p):
    p.add_argument('--task', default='highalloc', help='comm of the allocator')
    p.add_argument('--node', type=int, default=0, help='the node the holder filled')


a = oracle_args('the pinned plant held', extra=extra)
census, seq, complete = {}, None, None
failures = held = 0
for e in events(a.capture, {'pageblock_census', 'mm_page_alloc'}):
    if e.name == 'pageblock_census':
        if e.num('seq') != seq:
            complete, seq = census.get(seq), e.num('seq')
        census.setdefault(seq, []).append(e)
        continue
    if (e.comm != a.task or e.num('order') < 9 or e.f.get('page') != '(nil)'
            or complete is None):
        continue
    blocks = [c for c in complete if c.num('nid') == a.node and c.num('free') < BLOCK]
    near = sorted(blocks, key=lambda c: -c.num('free'))[:NEAREST]
    pinned = sum(1 for c in near if any(c.num(k) for k in UNMOVABLE))
    failures += 1
    held += pinned * 2 > len(near)
if not failures:
    print('pinned plant: no failed order >= 9 allocation of %s after a census' % a.task)
    sys.exit(2)
ok = held * 2 > failures
print('pinned plant %s: at %d of %d failures of %s most of the %d blocks of node %d nearest '
      'to free held unmovable pages' % ('held' if ok else 'lost', held, failures, a.task,
                                        NEAREST, a.node))
sys.exit(0 if ok else 1)
