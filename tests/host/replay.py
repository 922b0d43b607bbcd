#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
# description: replay oracle, independent of fragview: the first snapshot plus
# every pageblock_flip equals the last snapshot and the pageblocks dump taken
# at the end, block for block; every snapshot is complete; every flip starts
# from the replayed type and names its block's node and zone; with ABI v2
# gens, each zone's flips carry consecutive gens (a gap is a lost flip) and
# flips apply on a state iff flip.gen > state.gen; at least --min-flips flips.
# usage: replay.py DIR | --report FILE [--pageblocks FILE] [--min-flips N] [--reasons a,b]
from report import (Tap, events, read_pageblocks, read_pageblock_gens, oracle_args,
                    PAGEBLOCK_ORDER)

a = oracle_args('first snapshot + flips == last snapshot == end dump',
                files=[('pageblocks', 'end.pageblocks', 'pageblocks dump taken at the end')],
                minimum=['flips'], reasons='flip reasons that must occur (comma list)')
t = Tap('replay ' + a.name)
ABSENT = 'none'             # v2: a block offline (not in the map)

snaps = {}                  # seq -> {pfn: (mt, gen, nid, zone)}
order = []                  # seqs in order of appearance
bounds = {}                 # (seq, nid, zone) -> {'begin': ev, 'end': ev, 'states': n}
flips = []                  # (trace index, event)
for idx, e in enumerate(events(a.capture, {'pageblock_state', 'pageblock_flip',
                                           'pageblock_snapshot'})):
    if e.name == 'pageblock_state':
        seq = e.num('seq')
        if seq not in snaps:
            snaps[seq] = {}
            order.append(seq)
        g = e.num('gen') if 'gen' in e.f else None
        snaps[seq][e.num('pfn')] = (e.f['mt'], g, e.num('nid'), e.f['zone'], idx)
        b = bounds.setdefault((seq, e.num('nid'), e.f['zone']), {})
        b['states'] = b.get('states', 0) + 1
        b['state_ts'] = b.get('state_ts', e.ts)
    elif e.name == 'pageblock_snapshot':
        b = bounds.setdefault((e.num('seq'), e.num('nid'), e.f['zone']), {})
        b[e.f['phase']] = e
        if e.num('seq') not in snaps:
            snaps[e.num('seq')] = {}
            order.append(e.num('seq'))
    else:
        flips.append((idx, e))
v2 = any('gen' in e.f for _, e in flips) or any(
    v[1] is not None for s in snaps.values() for v in s.values())

t.check(len(order) >= 1 and snaps[order[0]], 'capture holds a baseline snapshot (%d states)'
        % (len(snaps[order[0]]) if order else 0))
t.check(len(order) >= 2, 'capture holds a final snapshot after the baseline (seqs %s)'
        % order)
if len(order) < 2 or not snaps[order[0]]:
    t.done()
first, lastseq = order[0], order[-1]
dump = read_pageblocks(a.pageblocks) if a.pageblocks else {}

# --- completeness of every snapshot
trunc = []
if any('begin' in b or 'end' in b for b in bounds.values()):
    for (seq, nid, zone), b in sorted(bounds.items()):
        n = b.get('states', 0)
        if 'begin' not in b or 'end' not in b:
            trunc.append('seq %d node %d %s: %s missing, %d states' % (
                seq, nid, zone, ' and '.join(p for p in ('begin', 'end') if p not in b), n))
        elif not b['begin'].num('nr_blocks') == b['end'].num('nr_blocks') == n:
            trunc.append('seq %d node %d %s: begin says %d blocks, end %d, %d states seen'
                         % (seq, nid, zone, b['begin'].num('nr_blocks'),
                            b['end'].num('nr_blocks'), n))
    kind = 'v2 begin/end nr_blocks'
else:
    kind = 'v1: same blocks as the baseline and the dump'
# v1 (and v2 as well): a snapshot lists every block in the map at its time;
# without offline/online flips that is the baseline's set of blocks
moved = {e.num('pfn') for _, e in flips if ABSENT in (e.f['old_mt'], e.f['new_mt'])}
ref = set(dump)
for seq in order:
    ref |= set(snaps[seq])
for seq in order:
    missing = sorted(ref - set(snaps[seq]) - moved)
    if missing:
        trunc.append('seq %d: %d blocks missing (%s%s)' % (
            seq, len(missing), ', '.join('%#x' % p for p in missing[:4]),
            ', ...' if len(missing) > 4 else ''))
t.check(not trunc, 'every snapshot is complete, none truncated (%d snapshots; %s)'
        % (len(order), kind), trunc)

# --- v2: per zone, consecutive gens
gaps = []
if v2:
    byzone = {}
    for _, e in flips:
        byzone.setdefault((e.num('nid'), e.f['zone']), []).append(e.num('gen'))
    for (nid, zone), gens in sorted(byzone.items()):
        gens.sort()
        for x, y in zip(gens, gens[1:]):
            if y == x:
                gaps.append('node %d %s: two flips with gen %d' % (nid, zone, x))
            elif y != x + 1:
                gaps.append('node %d %s: lost flip(s): gens %d..%d missing' % (nid, zone, x + 1, y - 1))
    # every change between the baseline and the final snapshot is in the
    # capture: a zone's gen counts all of them
    for (seq, nid, zone), b in sorted(bounds.items()):
        end = bounds.get((lastseq, nid, zone), {}).get('end')
        if seq != first or 'begin' not in b or not end:
            continue
        g0, g1 = b['begin'].num('gen'), end.num('gen')
        have = set(byzone.get((nid, zone), []))
        missing = [g for g in range(g0 + 1, g1 + 1) if g not in have]
        if missing:
            gaps.append('node %d %s: lost flip(s): %d of the gens %d..%d between the baseline '
                        'and the final snapshot have no flip (%s)' % (
                            nid, zone, len(missing), g0 + 1, g1,
                            ', '.join(map(str, missing[:6]))))
    t.check(not gaps, 'v2: every zone\'s flips carry consecutive gens, no flip lost', gaps)

# --- replay, block by block.  A flip F comes after a state S of its block
# iff (v2, same zone) F.gen > S.gen, else (v1, or the block changed zones
# through offline/online in between) F is later in the trace.
INF = float('inf')
blockflips = {}
for idx, e in flips:
    blockflips.setdefault(e.num('pfn'), []).append((idx, e))


def after(idx, e, st):
    """Flip (idx, e) comes after state st = (mt, gen, nid, zone, idx)."""
    if st is None:
        return True
    if v2 and st[1] is not None and (e.num('nid'), e.f['zone']) == (st[2], st[3]):
        return e.num('gen') > st[1]
    return idx > st[4]


base = snaps[first]
order_errors, misplaced, state = [], [], {}
for idx, e in flips:
    if e.num('pfn') & ((1 << PAGEBLOCK_ORDER) - 1):
        misplaced.append('%s: pfn is not the first of a pageblock' % e)
for pfn, fl in blockflips.items():
    b = base.get(pfn)
    if b is None and not any(e.f['old_mt'] == ABSENT for _, e in fl):
        continue            # never in a snapshot: nothing to replay it on
    cur = b[0] if b else ABSENT
    loc = (b[2], b[3]) if b else None
    lastgen = {}
    for idx, e in fl:
        z = (e.num('nid'), e.f['zone'])
        if v2:
            if lastgen.get(z, -1) >= e.num('gen'):
                order_errors.append('%s: gen not above the gen %d of the block\'s earlier '
                                    'flip in that zone' % (e, lastgen[z]))
            lastgen[z] = e.num('gen')
        # where the block is: from the baseline on in trace order (a block
        # changes zones only by going offline and online)
        if b is None or idx > b[4]:
            if e.f['old_mt'] != ABSENT and loc and z != loc:
                misplaced.append('%s: the block is in node %d %s' % ((e,) + loc))
            if e.f['new_mt'] != ABSENT:
                loc = z
        if not after(idx, e, b):
            continue        # already in the baseline
        if cur != e.f['old_mt']:
            order_errors.append('%s: flip says old %s, replay has %s' % (e, e.f['old_mt'], cur))
        cur = e.f['new_mt']
    state[pfn] = cur
for pfn, b in base.items():
    state.setdefault(pfn, b[0])


def replayed_at(pfn, st):
    """Type of pfn as of state st: the baseline plus the flips between."""
    b = base.get(pfn)
    mt = b[0] if b else ABSENT
    for idx, e in blockflips.get(pfn, ()):
        if after(idx, e, b) and not after(idx, e, st):
            mt = e.f['new_mt']
    return mt


t.check(not misplaced, 'every flip names its block\'s node and zone (zone changes '
        'only through offline/online)', misplaced)
nflips = len(flips)
# a minimum of 0 asserts nothing (a skip); the snapshot and dump
# comparisons below still hold with no flip: no block changed unseen
t.check(nflips >= a.min_flips, 'the scenario flipped blocks (%d flips >= %d)'
        % (nflips, a.min_flips), vacuous=not a.min_flips)
for r in a.reasons:
    k = sum(1 for _, e in flips if e.f['reason'] == r)
    t.check(k > 0, 'flips with reason %s happened (%d)' % (r, k))
t.check(not order_errors, 'every flip starts from the replayed type (%d flips)' % nflips,
        order_errors, vacuous=not nflips)
last = snaps[lastseq]
bad = ['%#x: replay %s, last snapshot %s' % (p, replayed_at(p, st), st[0])
       for p, st in sorted(last.items()) if replayed_at(p, st) != st[0]]
bad += ['%#x: replay %s, absent from the last snapshot' % (p, mt)
        for p, mt in sorted(state.items()) if mt != ABSENT and p not in last and
        not trunc]
t.check(not bad, 'no flip lost: baseline + flips == last snapshot (%d blocks, %d mismatches)'
        % (len(last), len(bad)), bad)
if a.pageblocks:
    # a v2 dump says each block's gen (5th column): flips after it do not count
    gens = read_pageblock_gens(a.pageblocks)
    at = {p: (v[2], gens.get(p), v[0], v[1], INF) for p, v in dump.items()}
    bad = ['%#x: replay %s, dump %s' % (p, replayed_at(p, at[p]), v[2])
           for p, v in sorted(dump.items()) if replayed_at(p, at[p]) != v[2]]
    t.check(dump and not bad, 'baseline + flips == pageblocks dump at the end '
            '(%d blocks, %d mismatches)' % (len(dump), len(bad)), bad)
t.done()
