#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
# description: high-order atomic reserves (qemu/guest/scenarios/highatomic.sh):
# pageblocks were reserved (reason highatomic_reserve, to HighAtomic from a
# mergeable type, on the node under pressure) and given back (reason
# highatomic_unreserve, from HighAtomic to a mergeable type); a zone never
# holds more HighAtomic blocks than reserve_highatomic_pageblock() allows
# (managed / 100 + one block, from the start zoneinfo); the HighAtomic blocks
# of the replayed map equal /proc/pagetypeinfo's count per zone while the
# reserves are held (mid) and at the end.
# usage: highatomic.py DIR | --report FILE --mid-pagetypeinfo F --end-pagetypeinfo F
#        --zoneinfo F [--node N] [--min-reserves N] [--min-unreserves N]
from report import BlockMap, Tap, events, oracle_args, read_zoneinfo, PAGEBLOCK_ORDER

MERGEABLE = {'Unmovable', 'Movable', 'Reclaimable'}
HA = 'HighAtomic'


def highatomic_counts(path):
    """{(nid, zone): HighAtomic blocks} from /proc/pagetypeinfo's block counts."""
    counts, col = {}, None
    with open(path) as f:
        for line in f:
            w = line.split()
            if line.startswith('Number of blocks type'):
                col = w.index(HA) - 4 if HA in w else None
            elif col is not None and len(w) > 4 and w[0] == 'Node' and w[2] == 'zone':
                counts[(int(w[1].rstrip(',')), w[3])] = int(w[4 + col])
    return counts


a = oracle_args('high-order atomic reserves made, bounded, given back',
                files=[('mid_pagetypeinfo', 'mid.pagetypeinfo', 'pagetypeinfo with the reserves held'),
                       ('end_pagetypeinfo', 'end.pagetypeinfo', 'pagetypeinfo at the end'),
                       ('zoneinfo', 'start.zoneinfo', 'zoneinfo at the start')],
                minimum=['reserves', 'unreserves'],
                extra=lambda p: p.add_argument('--node', type=int, default=0,
                                               help='the node under pressure (default 0)'))
t = Tap('highatomic ' + a.name)
for name in ('mid_pagetypeinfo', 'end_pagetypeinfo', 'zoneinfo'):
    if not getattr(a, name):
        t.check(False, 'the scenario wrote its %s file' % name)
        t.done()

bm = BlockMap()
held = {}                   # (nid, zone) -> HighAtomic blocks in the replayed map
most = {}                   # (nid, zone) -> the most at any time
seqs, at_seq = [], {}       # snapshot seqs in order; seq -> held when it began
reserves, unreserves, bad_res, bad_unres = [], [], [], []


def count(zone_key, delta):
    held[zone_key] = held.get(zone_key, 0) + delta
    most[zone_key] = max(most.get(zone_key, 0), held[zone_key])


for e in events(a.capture, {'pageblock_state', 'pageblock_flip'}):
    if e.name == 'pageblock_state':
        seq = e.num('seq')
        if seq not in at_seq:
            seqs.append(seq)
            at_seq[seq] = dict(held)
        if e.num('pfn') not in bm.mt and e.f['mt'] == HA:
            count((e.num('nid'), e.f['zone']), 1)
        bm.update(e)
        continue
    key = (e.num('nid'), e.f['zone'])
    before = bm.type_of(e.num('pfn'))
    if e.f['reason'] == 'highatomic_reserve':
        reserves.append(e)
        if e.f['new_mt'] != HA or e.f['old_mt'] not in MERGEABLE or key[0] != a.node:
            bad_res.append(str(e))
    elif e.f['reason'] == 'highatomic_unreserve':
        unreserves.append(e)
        if e.f['old_mt'] != HA or e.f['new_mt'] not in MERGEABLE:
            bad_unres.append(str(e))
    bm.update(e)
    after = bm.type_of(e.num('pfn'))
    if before is not None and (before == HA) != (after == HA):
        count(key, 1 if after == HA else -1)

t.check(len(reserves) >= a.min_reserves and not bad_res,
        'at least %d highatomic_reserve flips, each to HighAtomic from a mergeable type '
        'on node %d (%d)' % (a.min_reserves, a.node, len(reserves)), bad_res)
t.check(len(unreserves) >= a.min_unreserves and not bad_unres,
        'at least %d highatomic_unreserve flips, each from HighAtomic to a mergeable '
        'type (%d)' % (a.min_unreserves, len(unreserves)), bad_unres)

# reserve_highatomic_pageblock(): no new reserve once nr_reserved_highatomic
# >= managed / 100 + pageblock_nr_pages
block = 1 << PAGEBLOCK_ORDER
managed = {k: v.get('managed', 0) for k, v in read_zoneinfo(a.zoneinfo).items()}


def allowed(k):
    return -(-(managed.get(k, 0) // 100 + block) // block)


over = ['node %d %s: %d HighAtomic blocks, at most %d allowed (managed %d pages)'
        % (k + (n, allowed(k), managed.get(k, 0)))
        for k, n in sorted(most.items()) if n > allowed(k)]
t.check(most and not over, 'no zone holds more HighAtomic blocks than the kernel allows '
        '(most: %s)' % {'%d/%s' % k: n for k, n in sorted(most.items())}, over)


def agree(label, path, replayed):
    real = {k: n for k, n in highatomic_counts(path).items() if n}
    mine = {k: n for k, n in replayed.items() if n}
    t.check(real == mine, '%s: HighAtomic blocks per zone of the replayed map == '
            '/proc/pagetypeinfo (%s)' % (label, {'%d/%s' % k: n for k, n in sorted(real.items())}),
            ['replayed %s, pagetypeinfo %s' % (mine, real)])


# the scenario takes mid.* right before its middle snapshot: the second one
if len(seqs) >= 3:
    agree('with the reserves held', a.mid_pagetypeinfo, at_seq[seqs[1]])
else:
    t.check(False, 'capture holds start, mid and end snapshots (seqs %s)' % seqs)
agree('at the end', a.end_pagetypeinfo, held)
t.done()
