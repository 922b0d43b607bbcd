#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
# description: move_pages(2)/migrate_pages(2)/mbind(2)/cpuset per-page results
# (pfns from /proc/self/pagemap) agree with the migrate_folio events: each
# page that moved has exactly one successful event from its old pfn to its
# new pfn in its step, of the expected order and the reason of the step's
# system call (mbind: mempolicy_mbind, the others syscall_or_cpuset: a
# cpuset's migration is do_migrate_pages() with MR_SYSCALL), from
# a block of the source node to one of the target node, with src_mt/dst_mt
# the replayed types of those blocks; no success is duplicated; a page left
# off its target has a failed event and no successful one.  With --steps
# the program's steps must be exactly those (a step that silently went
# missing fails).
# usage: movepages.py DIR | --report FILE --movepages FILE [--order N]
#        [--steps SYSCALL,...]
from report import Tap, events, BlockMap, read_pageblocks, oracle_args

a = oracle_args('move_pages(2) statuses == migrate_folio events',
                files=[('movepages', 'movepages.out', 'output of the movepages program'),
                       ('pageblocks', 'end.pageblocks', 'pageblocks dump (node of every block)')],
                extra=lambda p: (p.add_argument('--order', type=int, default=0,
                                                help='order of the moved folios (9: hugetlb)'),
                                 p.add_argument('--steps', help='the steps expected, in order: '
                                                'move_pages,migrate_pages,mbind,cpuset')))
t = Tap('movepages ' + a.name)
steps = []              # {'target': node, 'moved': {before: (after, line)}, 'failed': {...}}
with open(a.movepages) as f:
    for line in f:
        w = line.split()
        if w[:1] == ['step']:
            steps.append({'target': int(w[1].replace('to_node', '')), 'moved': {},
                          'failed': {}, 'pfnless': 0, 'syscall': w[3]})
        elif w[:1] == ['page'] and steps:
            kv = dict(zip(w[2::2], w[3::2]))
            st = steps[-1]
            before, after = int(kv['pfn_before'], 0), int(kv['pfn_after'], 0)
            if not before or not after:
                st['pfnless'] += 1
            elif int(kv['status']) != st['target']:
                st['failed'][before] = line.strip()
            elif before != after:
                st['moved'][before] = (after, line.strip())

bmap = BlockMap(read_pageblocks(a.pageblocks) if a.pageblocks else None)
mig = []                # (event, src type replayed, dst type replayed)
for e in events(a.capture, {'migrate_folio', 'pageblock_state', 'pageblock_flip'}):
    if e.name == 'migrate_folio':
        mig.append((e, bmap.type_of(e.num('src_pfn')), bmap.type_of(e.num('dst_pfn'))))
    else:
        bmap.update(e)

ok = lambda e: e.f['result'] in ('success', '0')
nmoved = sum(len(s['moved']) for s in steps)
nfailed = sum(len(s['failed']) for s in steps)
t.check(len(steps) >= 2 and all(s['moved'] for s in steps),
        'the program moved pages both ways (%s; %d pages left off target)'
        % (', '.join('to node %d by %s: %d' % (s['target'], s['syscall'], len(s['moved']))
                     for s in steps), nfailed))
t.check(not any(s['pfnless'] for s in steps), 'pagemap gave every page its pfn')
if a.steps:
    got = ','.join(s['syscall'] for s in steps)
    t.check(got == a.steps, 'the steps were %s (expected %s)' % (got, a.steps))

missing, dup, fields, wrong_fail = [], [], [], []
# a pfn migrated from twice must have been migrated to in between: the
# steps move pages back and forth, and the allocator may hand a freed pfn
# out again to the same page
moved_from = {}         # src pfn -> dst pfns of its successes since it was refilled
for e, _, _ in mig:
    if not ok(e):
        continue
    src, dst = e.num('src_pfn'), e.num('dst_pfn')
    if dst in moved_from.get(src, ()):
        dup.append('%s: a second success from %#x to %#x, with no migration to %#x between'
                   % (e, src, dst, src))
    moved_from.setdefault(src, set()).add(dst)
    moved_from.pop(dst, None)
# the migrate_reason of each system call (mm/mempolicy.c, mm/migrate.c)
REASON = {'move_pages': 'syscall_or_cpuset', 'migrate_pages': 'syscall_or_cpuset',
          'mbind': 'mempolicy_mbind', 'cpuset': 'syscall_or_cpuset'}
for st in steps:
    reason = REASON[st['syscall']]
    want = {b: after for b, (after, _) in st['moved'].items()}
    mine = [(i, x) for i, x in enumerate(mig) if ok(x[0]) and
            (x[0].num('src_pfn'), x[0].num('dst_pfn')) in want.items()]
    if not mine:
        missing += ['%s: no successful migrate_folio from this pfn to pfn_after' % line
                    for _, line in st['moved'].values()]
        continue
    # the step's window: from its first to its last matching success
    lo, hi = mine[0][0], mine[-1][0]
    window = mig[lo:hi + 1]
    per_src = {}
    for e, smt, dmt in window:
        if ok(e) and e.num('src_pfn') in want:
            per_src.setdefault(e.num('src_pfn'), []).append((e, smt, dmt))
    for before, (after, line) in st['moved'].items():
        got = per_src.get(before, [])
        if not any(e.num('dst_pfn') == after for e, _, _ in got):
            missing.append('%s: no successful migrate_folio from this pfn to pfn_after' % line)
        if len(got) > 1:
            dup.append('%s: %d successful migrate_folio events from this pfn' % (line, len(got)))
        for e, smt, dmt in got:
            src_node = bmap.zone_of(e.num('src_pfn'))
            dst_node = bmap.zone_of(e.num('dst_pfn'))
            why = []
            if e.num('order') != a.order:
                why.append('order %s, expected %d' % (e.f['order'], a.order))
            if e.f['reason'] != reason:
                why.append('reason %s, expected %s (%s)' % (e.f['reason'], reason, st['syscall']))
            if dst_node and dst_node[0] != st['target']:
                why.append('dst_pfn on node %d, the target is %d' % (dst_node[0], st['target']))
            if src_node and src_node[0] == st['target']:
                why.append('src_pfn already on the target node')
            if smt and smt != e.f['src_mt']:
                why.append('src_mt %s, replayed %s' % (e.f['src_mt'], smt))
            if dmt and dmt != e.f['dst_mt']:
                why.append('dst_mt %s, replayed %s' % (e.f['dst_mt'], dmt))
            if why:
                fields.append('%s: %s' % (e, '; '.join(why)))
    for before, line in st['failed'].items():
        evs = [e for e, _, _ in window if e.num('src_pfn') == before]
        if any(ok(e) for e in evs):
            wrong_fail.append('%s: left off its target, yet a successful event' % line)
        elif not evs:
            wrong_fail.append('%s: left off its target with no failed migrate_folio' % line)
t.check(not missing, 'every moved page has its successful migrate_folio event (%d pages)'
        % nmoved, missing)
t.check(not dup, 'no migration succeeds twice', dup)
t.check(not fields, 'order, reason, nodes and src_mt/dst_mt of each success are right '
        '(order %d, reason of the system call, types replayed)' % a.order, fields)
t.check(not wrong_fail, 'every page left off its target has a failed event and no success '
        '(%d pages)' % nfailed, wrong_fail)
t.done()
