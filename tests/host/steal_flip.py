#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
# description: every claimed pageblock_steal comes, on the same CPU, with a
# pageblock_flip of that block to the allocation's type with reason steal, and
# every steal-reason flip has its claimed steal.  The type a steal reports for
# its block (block_mt), the flips' old_mt and the node/zone of both are checked
# against the block as replayed from the capture's snapshot and flips, not
# taken from the event itself.
# usage: steal_flip.py DIR | --report FILE  [--min-steals N] [--min-claimed N]
from report import Tap, events, BlockMap, oracle_args, PAGEBLOCK_ORDER

a = oracle_args('claimed steal <=> steal flip, block types replayed',
                minimum=['steals', 'claimed'])
t = Tap('steal/flip ' + a.name)
# The kernel flips the block(s) inside steal_suitable_fallback() (6.1) or
# try_to_steal_block() (6.12) and then emits the steal, so a claimed steal
# consumes the steal flips that precede it on its CPU.
bmap = BlockMap()
before = {}         # pfn -> replayed type before the pending steal flips
pending = {}        # cpu -> steal flips not yet consumed
steals = claimed = flips = checked = 0
unmatched_steals, orphan_flips, wrong_mt, wrong_where = [], [], [], []

for e in events(a.capture, {'pageblock_steal', 'pageblock_flip', 'pageblock_state'}):
    if e.name == 'pageblock_state':
        bmap.update(e)
        continue
    if e.name == 'pageblock_flip':
        if e.f.get('reason') == 'steal':
            flips += 1
            pending.setdefault(e.cpu, []).append(e)
            before.setdefault(e.num('pfn'), bmap.type_of(e.num('pfn')))
        bmap.update(e)
        continue
    steals += 1
    mine_all = pending.pop(e.cpu, [])
    bpfn = e.num('block_pfn')
    # the block as replayed: its type before this steal's own flips
    own = [f for f in mine_all if f.num('pfn') == bpfn]
    replayed = before.get(bpfn) if own else bmap.type_of(bpfn)
    for f in mine_all:
        before.pop(f.num('pfn'), None)
    if replayed is not None:
        checked += 1
        if replayed != e.f['block_mt']:
            wrong_mt.append('%s: the block was %s (replayed)' % (e, replayed))
    where = bmap.zone_of(bpfn)
    if where and where != (e.num('nid'), e.f['zone']):
        wrong_where.append('%s: block_pfn is in node %d %s' % ((e,) + where))
    if e.num('fallback_order') < PAGEBLOCK_ORDER and bmap.block(e.num('pfn')) != bpfn:
        wrong_where.append('%s: pfn is not in block_pfn\'s block' % e)
    if e.f['claimed'] not in ('1', 'true', 'yes'):
        orphan_flips += [f.raw for f in mine_all]
        continue
    claimed += 1
    # an order >= pageblock_order buddy claims every block it covers
    span = 1 << max(PAGEBLOCK_ORDER, e.num('fallback_order'))
    lo = e.num('pfn') & ~(span - 1)
    mine = [f for f in mine_all if lo <= f.num('pfn') < lo + span and
            f.f['new_mt'] == e.f['alloc_mt'] and
            (f.num('nid'), f.f['zone']) == (e.num('nid'), e.f['zone'])]
    orphan_flips += [f.raw for f in mine_all if f not in mine]
    # A page can sit on another type's free list inside a block that
    # already has the allocation's type: claiming that block changes
    # nothing, and flips are only traced for real changes.  Whether the
    # block already had that type is the replay's word, not the event's.
    if not mine and (replayed or e.f['block_mt']) != e.f['alloc_mt']:
        unmatched_steals.append(e.raw)
for rest in pending.values():
    orphan_flips += [f.raw for f in rest]
t.check(steals >= a.min_steals, 'the workload caused fallback steals (%d >= %d, %d claimed)'
        % (steals, a.min_steals, claimed))
t.check(claimed >= a.min_claimed, 'steals claimed their block (%d >= %d)'
        % (claimed, a.min_claimed))
t.check(not unmatched_steals, 'every claimed steal has its flip', unmatched_steals)
t.check(not orphan_flips, 'every steal flip has its claimed steal (%d)' % flips, orphan_flips)
# with no steal at all (--min-steals 0) there is nothing to replay
t.check((checked > 0 or not steals) and not wrong_mt, 'block_mt is the replayed type of the block '
        '(%d of %d steals on replayed blocks)' % (checked, steals), wrong_mt)
t.check(not wrong_where, 'nid/zone/pfn of steals are those of their block', wrong_where)
t.done()
