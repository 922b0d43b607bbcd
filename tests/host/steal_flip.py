#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
# description: every claimed pageblock_steal comes, on the same CPU, with a
# pageblock_flip of that block to the allocation's type with reason steal, and
# every steal-reason flip has its claimed steal.  The type a steal reports for
# its block (block_mt), the flips' old_mt and the node/zone of both are checked
# against the block as replayed from the capture's snapshot and flips, not
# taken from the event itself.
# The claim decision is checked against the allocator's rule
# (pageblock_steal.md): a buddy of a block or more claims every block it
# covers and counts nothing; below that a block is claimed exactly when its
# free pages plus the pages alike to the allocation make half a block, and
# `alike` counts only what the rule says it can.  On 6.12 an unclaimed
# steal never scanned its block (--kernel 6.12); what the block held is in
# the claim try_to_steal_block() declined before it (taken=0: nothing
# taken, no flip, no extfrag, the rule's "not enough"), one per fallback
# order tried, largest first, until a claim at a lower order or the
# allocation's single-page steal.  6.1 takes the page with every
# decision: a taken=0 there is a defect.  Where mainline's
# kmem:mm_page_alloc_extfrag is in the capture, it fires once right after
# each steal on the same CPU and must agree with it field by field.  An
# extfrag with no steal before it is a compaction capture (series v3,
# patch 10: compaction_capture() handing a free page of another type to a
# direct compactor): it must come from a task inside a compaction run
# (mm_compaction_begin without its end, not kcompactd), with equal alloc
# and fallback orders, two different types, never from a Movable block
# below pageblock order, and change_ownership as the replayed block says.
# usage: steal_flip.py DIR | --report FILE  [--min-steals N] [--min-claimed N]
#        [--kernel 6.1|6.12]
from report import Tap, events, BlockMap, oracle_args, PAGEBLOCK_ORDER

a = oracle_args('claimed steal <=> steal flip, block types replayed',
                minimum=['steals', 'claimed'],
                extra=lambda p: (
                    p.add_argument('--kernel', choices=('6.1', '6.12'), default='6.1',
                                   help='the base kernel'),
                    p.add_argument('--min-extfrag', type=int, default=0,
                                   help='at least this many kmem:mm_page_alloc_extfrag'),
                    p.add_argument('--min-captures', type=int, default=0,
                                   help='at least this many compaction captures'),
                    p.add_argument('--min-declined', type=int, default=0,
                                   help='at least this many declined claims (taken=0, 6.12)')))
t = Tap('steal/flip ' + a.name)
# The kernel flips the block(s) inside steal_suitable_fallback() (6.1) or
# try_to_steal_block() (6.12) and then emits the steal, so a claimed steal
# consumes the steal flips that precede it on its CPU.
bmap = BlockMap()
before = {}         # pfn -> replayed type before the pending steal flips
pending = {}        # cpu -> steal flips not yet consumed
steals = claimed = flips = checked = 0
unmatched_steals, orphan_flips, wrong_mt, wrong_where = [], [], [], []
wrong_rule, wrong_extfrag = [], []
BLOCK = 1 << PAGEBLOCK_ORDER
# mm_page_alloc_extfrag prints migratetypes as numbers
MT_NUM = {'Unmovable': '0', 'Movable': '1', 'Reclaimable': '2'}
last_steal = {}     # cpu -> (steal, its block's type after it) awaiting its extfrag
no_extfrag = []     # steals followed by another steal on their cpu
extfrags = captures = 0
wrong_capture = []
declined = 0
wrong_declined = []
open_decline = {}   # cpu -> the last declined claim, awaiting the allocation's next try
compacting = {}     # pid -> open mm_compaction_begin runs
NUM_MT = {v: k for k, v in MT_NUM.items()}
HIGHATOMIC = '3'    # MIGRATE_HIGHATOMIC == MIGRATE_PCPTYPES on both bases


def is_taken(e):
    """A fallback taken (taken=1, or a capture older than the field), not
    a claim declined."""
    return e.f.get('taken', '1') in ('1', 'true', 'yes')


def claim_rule(e, block_type):
    """Why the steal's claimed/free_moved/alike break the allocator's rule,
    or None.  block_type: the block's replayed type before the steal."""
    fo, moved, alike = e.num('fallback_order'), e.num('free_moved'), e.num('alike')
    claimed = e.f['claimed'] in ('1', 'true', 'yes')
    if not is_taken(e) and claimed:
        return 'a declined claim (taken=0) claimed its block'
    if not is_taken(e) and a.kernel == '6.1':
        return '6.1 takes the page with every claim decision: no taken=0'

    if e.f['block_mt'] == 'HighAtomic':
        # 6.1 tests for a HighAtomic block (a race with a reservation)
        # before the order: only the page moves (pageblock_steal.md)
        if claimed or moved or alike:
            return 'a HighAtomic block is never claimed and counts nothing'
        return None
    if fo >= PAGEBLOCK_ORDER:
        if not claimed or moved or alike:
            return 'a buddy of order >= %d claims its blocks and counts nothing' % PAGEBLOCK_ORDER
        return None
    if moved + alike > BLOCK:
        return 'free_moved + alike is more than a block'
    if e.f['alloc_mt'] != 'Movable' and block_type != 'Movable' and alike:
        return 'alike counts only movable pages, or non-movable ones of a Movable block'
    enough = moved > 0 and moved + alike >= BLOCK // 2
    if claimed != enough:
        return '%s with free_moved + alike = %d (half a block: %d)' % (
            'claimed' if claimed else 'not claimed', moved + alike, BLOCK // 2)
    if a.kernel == '6.12' and not claimed and is_taken(e) and (moved or alike):
        return 'an unclaimed steal on 6.12 scans nothing (free_moved=alike=0)'
    return None


def check_block(e, bpfn, replayed):
    """The claim rule, and block_mt, node, zone and pfn against the block
    at bpfn as replayed (its type replayed, before e's own flips, or
    None); whether there was a replayed type to compare."""
    why = claim_rule(e, replayed or e.f['block_mt'])
    if why:
        wrong_rule.append('%s: %s' % (e, why))
    if replayed is not None and replayed != e.f['block_mt']:
        wrong_mt.append('%s: the block was %s (replayed)' % (e, replayed))
    where = bmap.zone_of(bpfn)
    if where and where != (e.num('nid'), e.f['zone']):
        wrong_where.append('%s: block_pfn is in node %d %s' % ((e,) + where))
    if e.num('fallback_order') < PAGEBLOCK_ORDER and bmap.block(e.num('pfn')) != bpfn:
        wrong_where.append('%s: pfn is not in block_pfn\'s block' % e)
    return replayed is not None


def follow_decline(e):
    """e, a steal event after a declined claim d on its CPU (6.12's
    __rmqueue_claim() tries one candidate per fallback order, largest
    first, then __rmqueue_steal() takes a page): the same allocation's
    next try.  A decline at pageblock order or more may end the
    allocation's try in this zone (ALLOC_NOFRAGMENT): nothing to pair."""
    d = open_decline.pop(e.cpu, None)
    if d is None or d.num('fallback_order') >= PAGEBLOCK_ORDER:
        return
    why = []
    for k in ('order', 'alloc_mt', 'nid', 'zone'):
        if e.f.get(k) != d.f.get(k):
            why.append('%s %s, the declined claim\'s %s' % (k, e.f.get(k), d.f.get(k)))
    single = is_taken(e) and e.f['claimed'] not in ('1', 'true', 'yes')
    if not single and e.num('fallback_order') >= d.num('fallback_order'):
        why.append('a %s at fallback_order %d after a decline at %d: claims go largest first'
                   % ('claim' if is_taken(e) else 'decline', e.num('fallback_order'),
                      d.num('fallback_order')))
    if why:
        wrong_declined.append('%s: %s (declined: %s)' % (e, '; '.join(why), d))


def check_capture(x):
    """x, an extfrag with no steal before it: a compaction capture?"""
    global captures
    why = []
    if not compacting.get(x.pid) or x.comm.startswith('kcompactd'):
        why.append('no steal before it on its cpu, and not in a direct compaction run of its task')
    order, fallback = x.f.get('alloc_order'), x.f.get('fallback_order')
    if order != fallback:
        why.append('a capture hands over the order asked for (alloc_order %s, fallback_order %s)'
                   % (order, fallback))
    am, fm = x.f.get('alloc_migratetype'), x.f.get('fallback_migratetype')
    if am == fm or am not in NUM_MT or fm not in list(NUM_MT) + [HIGHATOMIC]:
        why.append('types %s -> %s: a capture is reported only between two types, '
                   'never from CMA or Isolate' % (fm, am))
    elif fm == MT_NUM['Movable'] and int(order or 0) < PAGEBLOCK_ORDER:
        why.append('below pageblock order nothing but a Movable request captures from '
                   'a Movable block, and that is no pollution')
    block = bmap.type_of(bmap.block(x.num('pfn')))
    if block is not None and x.f.get('change_ownership') != ('1' if block == NUM_MT.get(am)
                                                             else '0'):
        why.append('change_ownership=%s, the block is %s (replayed)'
                   % (x.f.get('change_ownership'), block))
    if why:
        wrong_capture.append('%s: %s' % (x, '; '.join(why)))
    else:
        captures += 1


def check_extfrag(x):
    """mm_page_alloc_extfrag x against the steal just before it on its CPU."""
    s, after = last_steal.pop(x.cpu, (None, None))
    if s is None:
        check_capture(x)
        return
    why = []
    # 6.12's claim path traces the page __rmqueue_smallest() returned
    if (a.kernel == '6.1' or s.f['claimed'] == '0') and x.num('pfn') != s.num('pfn'):
        why.append('pfn %s' % x.f['pfn'])
    for k, v in (('alloc_order', s.f['order']), ('fallback_order', s.f['fallback_order']),
                 ('alloc_migratetype', MT_NUM.get(s.f['alloc_mt']))):
        if x.f.get(k) != v:
            why.append('%s=%s, the steal says %s' % (k, x.f.get(k), v))
    # change_ownership: the page's block has the allocation's type now
    owned = s.f['claimed'] in ('1', 'true', 'yes') or after == s.f['alloc_mt']
    if x.f.get('change_ownership') != ('1' if owned else '0'):
        why.append('change_ownership=%s, the steal %s' % (
            x.f.get('change_ownership'), 'claimed' if owned else 'left the block as it was'))
    if why:
        wrong_extfrag.append('%s: %s (steal: %s)' % (x, '; '.join(why), s))


for e in events(a.capture, {'pageblock_steal', 'pageblock_flip', 'pageblock_state',
                            'mm_page_alloc_extfrag', 'mm_compaction_begin',
                            'mm_compaction_end'}):
    if e.name == 'mm_compaction_begin':
        compacting[e.pid] = compacting.get(e.pid, 0) + 1
        continue
    if e.name == 'mm_compaction_end':
        compacting[e.pid] = max(compacting.get(e.pid, 0) - 1, 0)
        continue
    if e.name == 'mm_page_alloc_extfrag':
        extfrags += 1
        check_extfrag(e)
        continue
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
    follow_decline(e)
    bpfn = e.num('block_pfn')
    if not is_taken(e):
        # nothing taken: no flip, no extfrag; the rule and the block's
        # replayed type and place still hold
        declined += 1
        open_decline[e.cpu] = e
        check_block(e, bpfn, bmap.type_of(bpfn))
        continue
    steals += 1
    mine_all = pending.pop(e.cpu, [])
    # the block as replayed: its type before this steal's own flips
    own = [f for f in mine_all if f.num('pfn') == bpfn]
    replayed = before.get(bpfn) if own else bmap.type_of(bpfn)
    for f in mine_all:
        before.pop(f.num('pfn'), None)
    if e.cpu in last_steal:
        no_extfrag.append(last_steal.pop(e.cpu)[0])
    last_steal[e.cpu] = (e, bmap.type_of(bpfn))
    checked += check_block(e, bpfn, replayed)
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
wrong_declined += ['%s: no claim or steal of its allocation after it' % d
                   for d in open_decline.values() if d.num('fallback_order') < PAGEBLOCK_ORDER]
# a minimum of 0 asserts nothing, and neither does a rule over no steals:
# those are skips
t.check(steals >= a.min_steals, 'the workload caused fallback steals (%d >= %d, %d claimed)'
        % (steals, a.min_steals, claimed), vacuous=not a.min_steals)
t.check(claimed >= a.min_claimed, 'steals claimed their block (%d >= %d)'
        % (claimed, a.min_claimed), vacuous=not a.min_claimed)
t.check(not unmatched_steals, 'every claimed steal has its flip (%d claimed)' % claimed,
        unmatched_steals, vacuous=not claimed)
t.check(not orphan_flips, 'every steal flip has its claimed steal (%d)' % flips, orphan_flips,
        vacuous=not flips)
# with no steal at all (--min-steals 0) there is nothing to replay
t.check((checked > 0 or not steals) and not wrong_mt, 'block_mt is the replayed type of the block '
        '(%d of %d steals on replayed blocks)' % (checked, steals), wrong_mt,
        vacuous=not steals)
t.check(not wrong_where, 'nid/zone/pfn of steals are those of their block', wrong_where,
        vacuous=not steals)
t.check(not wrong_rule, 'claimed, free_moved and alike follow the %s claim rule (%d steals, '
        '%d declined claims)' % (a.kernel, steals, declined), wrong_rule,
        vacuous=not steals and not declined)
t.check(declined >= a.min_declined and not wrong_declined, 'each declined claim (taken=0) '
        'is followed on its CPU by its allocation\'s claim at a lower fallback order, '
        'another decline lower down, or its single-page steal (%d declined >= %d)'
        % (declined, a.min_declined), wrong_declined,
        vacuous=not a.min_declined and not declined)
if extfrags:
    no_extfrag += [s for s, _ in last_steal.values()]
    wrong_extfrag += ['%s: no mm_page_alloc_extfrag after it' % s for s in no_extfrag]
t.check(extfrags >= a.min_extfrag and not wrong_extfrag, 'each steal has its '
        'mm_page_alloc_extfrag, agreeing on pfn, orders, alloc type and ownership '
        '(%d extfrag events >= %d)' % (extfrags, a.min_extfrag), wrong_extfrag,
        vacuous=not a.min_extfrag and not (extfrags and steals))
t.check(captures >= a.min_captures and not wrong_capture, 'every extfrag without its steal is '
        'a compaction capture of another type, in a direct compaction run (%d >= %d)'
        % (captures, a.min_captures), wrong_capture,
        vacuous=not a.min_captures and not captures)
t.done()
