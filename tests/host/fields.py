#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
# description: field-invariant oracle from the documented ABI alone
# (tracepoints/*.md), on any capture: every field of every mobility event lies
# in its documented domain (names in their tables, orders up to the largest
# buddy order, pfns aligned where documented, counts that add up); a flip
# changes the type (old != new) as its reason says; per zone, the gens of the
# flips written under zone->lock strictly increase in trace order and all of
# a zone's flips are numbered without gaps; every snapshot and every census
# lists each block once, zone by zone in order, as many as announced, inside
# the zone's span; a census block's ten page counts add up to exactly its
# pages inside the zone (the kernel's walk advances by what it counts); and a pageblocks dump (--pageblocks) lists each block once,
# in order, no more than nr_blocks, which matches the span.
# usage: fields.py DIR | --report FILE [--pageblocks FILE]
from abi import (SYMBOLIC, MT, MOBILITY_MT, ZONES, ERRNO, CENSUS, DRAIN_COUNTS, BLOCK,
                 PAGEBLOCK_ORDER, MAX_BUDDY_ORDER, GIGANTIC_ORDER, MIGRATE_PASSES,
                 UNLOCKED_FLIPS, ISOLATING_MIGRATIONS)
from report import BlockMap

# every check, in the order printed: a name for the ok/not ok line
CHECKS = (
    ('names', 'enum fields print as documented names'),
    ('numbers', 'numeric fields are numbers in their documented range'),
    ('aligned', 'pfns are aligned as documented (pageblock, buddy, folio)'),
    ('orders', 'orders are at most the largest buddy order, order <= fallback_order'),
    ('counts', 'counts add up (drain total, census pages, free_pages/largest_order)'),
    ('steal', 'steals of a whole buddy >= a pageblock claim it, moving nothing; '
              'a declined claim (taken=0) claims nothing'),
    ('flip', 'a flip changes the type, from/to what its reason says'),
    ('migrate', 'migrations: dst_pfn 0 iff dst_mt none, src != dst, pass in range'),
    ('gen-order', "a zone's flips carry increasing gens in trace order: the locked ones, "
                  "and the others per CPU"),
    ('gen-gaps', "a zone's flips are numbered without gaps or repeats"),
    ('snapshot', 'each snapshot zone: begin, nr_blocks states in pfn order, end alike'),
    ('snap-gen', "a snapshot's states carry gens between its zone's begin and end, "
                 "which are no older than its zone's flips of 10 ms before"),
    ('zones', 'snapshots and censuses list zones node by node, zone by zone, once'),
    ('span', 'states and census blocks lie in the span of their zone'),
    ('where', 'every event names a node and zone a snapshot lists'),
    ('types', 'migrations and census name the replayed types of their blocks'),
    ('cpu', 'a drain of the running CPU (free_high, vmstat, local) names it, '
            'a cpu_dead drain another'),
    ('census', 'each census lists the blocks of the snapshots, each once, in order'),
    ('census-pages', "a census block's counts add up to its pages inside its zone's span"),
    ('dump', 'the pageblocks dump lists each block once, in order, as its header says'),
)


def num(v):
    """The integer a report prints (decimal or 0x hex), or None."""
    try:
        return int(v, 0)
    except (TypeError, ValueError):
        return None


def zone_rank(nid, zone):
    return (nid, ZONES.index(zone) if zone in ZONES else len(ZONES))


def slots(start, end):
    """Pageblock slots a zone span touches (tracepoints/debugfs.md)."""
    return ((end - 1) // BLOCK + 1) - start // BLOCK


class Fields:
    """Feed events in trace order (add), then failures() per check."""

    def __init__(self):
        self.bad = {k: [] for k, _ in CHECKS}
        self.flips = {}         # (nid, zone) -> [(gen, locked, event)]
        self.runs = {}          # ('state'|'census', seq) -> [event]
        self.bounds = {}        # (seq, nid, zone) -> {'begin': e, 'end': e}
        self.spans = {}         # (nid, zone) -> (start, end)
        self.all_spans = {}     # (nid, zone) -> every span a snapshot gave it
        self.census_pages = []  # (nid, zone, pfn, pages, event)
        self.order = []         # (seq, nid, zone) of the snapshot events, in trace order
        self.where = []         # (nid, zone, event) of every event
        self.bmap = BlockMap()
        self.cpus = 0           # CPUs seen running events
        # census records of blocks the replay did not know yet:
        # pfn -> [event]; a flip of the block drops them (unordered)
        self.early_census = {}

    def fail(self, check, e, why):
        self.bad[check].append('%s: %s' % (why, e))

    def add(self, e):
        if e.name not in SYMBOLIC:
            return
        for key, names in SYMBOLIC[e.name].items():
            if e.f.get(key) not in names:
                self.fail('names', e, '%s=%s' % (key, e.f.get(key)))
        self.cpus = max(self.cpus, e.cpu + 1)
        if 'nid' in e.f and 'zone' in e.f:
            self.where.append((num(e.f['nid']), e.f['zone'], e))
        getattr(self, e.name)(e)
        if e.name in ('pageblock_state', 'pageblock_flip') and num(e.f.get('pfn')) is not None:
            self.bmap.update(e)

    def pageblock_state(self, e):
        self._state(e)
        # a census before the block's first state, and no flip of the
        # block since: the block had the type this state gives it
        pfn = num(e.f.get('pfn'))
        for c in self.early_census.pop(pfn, []):
            if c.f.get('mt') != e.f.get('mt'):
                self.fail('types', c, 'mt %s, the block is %s in the next snapshot, no flip '
                          'between' % (c.f.get('mt'), e.f.get('mt')))

    def replayed(self, e, key, pfn):
        """The type e names for the block of pfn is the replayed one."""
        mt = self.bmap.type_of(pfn)
        if mt is not None and e.f.get(key) != mt:
            self.fail('types', e, '%s %s, the block is %s' % (key, e.f.get(key), mt))

    def need(self, e, *keys, lo=0, hi=None):
        """The numbers of keys, each in [lo, hi]; None if one is not."""
        vals = []
        for k in keys:
            v = num(e.f.get(k))
            if v is None or v < lo or (hi is not None and v > hi):
                self.fail('numbers', e, '%s=%s outside %s..%s' % (k, e.f.get(k), lo, hi))
                return None
            vals.append(v)
        return vals

    def block_aligned(self, e, *keys):
        for k in keys:
            v = num(e.f.get(k))
            if v is not None and v % BLOCK:
                self.fail('aligned', e, '%s is not a pageblock start' % k)

    def pageblock_steal(self, e):
        v = self.need(e, 'pfn', 'block_pfn', 'nid', 'order', 'fallback_order', 'claimed')
        w = self.need(e, 'free_moved', 'alike', hi=BLOCK)
        if v is None or w is None:
            return
        pfn, block, _, order, fb, claimed = v
        taken = num(e.f.get('taken', '1'))
        self.block_aligned(e, 'block_pfn')
        if claimed > 1 or taken not in (0, 1):
            self.fail('numbers', e, 'claimed and taken are bools')
        if not taken and claimed:
            self.fail('steal', e, 'a declined claim (taken=0) claimed nothing')
        if pfn % (1 << min(fb, 63)):
            self.fail('aligned', e, 'pfn is not the start of an order-%d buddy' % fb)
        if block != pfn - pfn % BLOCK:
            self.fail('aligned', e, 'block_pfn is not the block of pfn')
        if fb > MAX_BUDDY_ORDER or order > fb:
            self.fail('orders', e, 'order %d, fallback_order %d' % (order, fb))
        if e.f.get('alloc_mt') not in MOBILITY_MT:
            self.fail('steal', e, 'an allocation of a type that never falls back')
        # a HighAtomic block (6.1: a race with a reservation, tested
        # before the order in steal_suitable_fallback()) moves the page
        # alone: not claimed, 0/0, whatever the order
        if e.f.get('block_mt') == 'HighAtomic':
            if claimed or w != [0, 0]:
                self.fail('steal', e, 'a HighAtomic block is never claimed, 0/0 moved')
        elif fb >= PAGEBLOCK_ORDER and (not claimed or w != [0, 0]):
            self.fail('steal', e, 'a buddy of a block or more is claimed, 0/0 moved')
        if not claimed and w[0] > 0 and w[1] > BLOCK - w[0]:
            self.fail('counts', e, 'free_moved + alike above a block')

    def pageblock_flip(self, e):
        v = self.need(e, 'pfn', 'nid', *[k for k in ('gen',) if k in e.f])
        if v is None:
            return
        self.block_aligned(e, 'pfn')
        old, new, why = e.f.get('old_mt'), e.f.get('new_mt'), e.f.get('reason')
        rule = {'steal': new in MOBILITY_MT, 'merge': old in MOBILITY_MT and new in MOBILITY_MT,
                'highatomic_reserve': new == 'HighAtomic',
                'highatomic_unreserve': old == 'HighAtomic', 'isolate': new == 'Isolate',
                'unisolate': old == 'Isolate', 'cma': new == 'CMA',
                'isolate_free': new == 'Movable'}.get(why, True)
        if old == new:
            self.fail('flip', e, 'old_mt == new_mt')
        elif (old == 'none') != (why == 'online') or (new == 'none') != (why == 'offline'):
            self.fail('flip', e, 'none only as old_mt of online, new_mt of offline')
        elif not rule:
            self.fail('flip', e, 'reason %s with %s -> %s' % (why, old, new))
        if len(v) < 3:
            return      # series v1: no gens
        key = (v[1], e.f.get('zone'))
        self.early_census.pop(v[0], None)
        self.flips.setdefault(key, []).append((v[2], why not in UNLOCKED_FLIPS, e))
        if why in UNLOCKED_FLIPS:
            self.flips.setdefault(key + (e.cpu,), []).append((v[2], True, e))

    def pcp_drain(self, e):
        v = self.need(e, 'cpu', 'nid', 'total', *[k for k in DRAIN_COUNTS if k in e.f])
        if v is None:
            return
        if v[2] == 0 or v[2] != sum(v[3:]):
            self.fail('counts', e, 'total %d, the lists %s' % (v[2], v[3:]))
        if e.f.get('reason') in ('free_high', 'vmstat', 'local') and v[0] != e.cpu:
            self.fail('cpu', e, 'cpu=%d drained on CPU %d' % (v[0], e.cpu))
        if e.f.get('reason') == 'cpu_dead' and v[0] == e.cpu:
            self.fail('cpu', e, 'cpu=%d is dead, yet it ran its own drain' % v[0])
        hi = num(e.f.get('nr_high_order'))
        if hi and hi % BLOCK:
            self.fail('counts', e, 'nr_high_order is not whole pageblock THPs')

    def migrate_folio(self, e):
        v = self.need(e, 'src_pfn', 'dst_pfn', 'order', 'pass')
        if v is None:
            return
        src, dst, order, npass = v
        res = e.f.get('result')
        if res not in ERRNO and not (res or '').startswith('0x'):
            self.fail('names', e, 'result=%s' % res)
        if order > MAX_BUDDY_ORDER and order != GIGANTIC_ORDER:
            self.fail('orders', e, 'a folio of order %d' % order)
        if src % (1 << order) or dst % (1 << order):
            self.fail('aligned', e, 'src_pfn/dst_pfn not the start of an order-%d folio' % order)
        if (dst == 0) != (e.f.get('dst_mt') == 'none'):
            self.fail('migrate', e, 'dst_mt %s with dst_pfn %#x' % (e.f.get('dst_mt'), dst))
        if src == dst or npass >= MIGRATE_PASSES:
            self.fail('migrate', e, 'src_pfn == dst_pfn or pass %d' % npass)
        if e.f.get('reason') in ISOLATING_MIGRATIONS and e.f.get('src_mt') != 'Isolate':
            self.fail('migrate', e, 'the source range of %s is isolated' % e.f.get('reason'))
        self.replayed(e, 'src_mt', src)
        if dst:
            self.replayed(e, 'dst_mt', dst)

    def _state(self, e):
        v = self.need(e, 'pfn', 'seq', 'nid', *[k for k in ('gen',) if k in e.f])
        w = self.need(e, 'free_pages', hi=BLOCK)
        lo = self.need(e, 'largest_order', lo=-1, hi=MAX_BUDDY_ORDER)
        if v is None or w is None or lo is None:
            return
        self.block_aligned(e, 'pfn')
        fp, lo = w[0], lo[0]
        if (fp == 0) != (lo == -1) or (lo >= 0 and fp < min(1 << lo, BLOCK)):
            self.fail('counts', e, 'free_pages %d with largest_order %d' % (fp, lo))
        self.runs.setdefault(('state', v[1]), []).append(e)

    def pageblock_snapshot(self, e):
        v = self.need(e, 'start_pfn', 'end_pfn', 'gen', 'seq', 'nr_blocks', 'nid')
        if v is None:
            return
        start, end, gen, seq, nr, nid = v
        zone, phase = e.f.get('zone'), e.f.get('phase')
        # begin and end read the zone's gen when they are emitted, with
        # preemption off: no older than a flip of the zone long before
        older = [f for g, _, f in self.flips.get((nid, zone), [])
                 if g > gen and f.ts < e.ts - 0.010]
        if older:
            self.fail('snap-gen', e, 'gen %d, a flip of its zone 10 ms before has gen %s'
                      % (gen, older[-1].f.get('gen')))
        if start >= end or nr > slots(start, end):
            self.fail('snapshot', e, 'span [%#x, %#x) with %d blocks' % (start, end, nr))
        b = self.bounds.setdefault((seq, nid, zone), {})
        if phase in b:
            self.fail('snapshot', e, 'a second %s' % phase)
        b[phase] = e
        if phase == 'begin':
            self.order.append((seq, nid, zone))
        self.all_spans.setdefault((nid, zone), set()).add((start, end))
        span = self.spans.setdefault((nid, zone), (start, end))
        if span != (start, end):
            self.fail('snapshot', e, 'the span of a zone changed with no hotplug')
        self.runs.setdefault(('state', seq), []).append(e)

    def pageblock_census(self, e):
        v = self.need(e, 'pfn', 'seq', 'nid')
        # series v2 has no hugetlb count: every other one is required
        w = self.need(e, 'free_chunks', *[k for k in CENSUS if k in e.f or k != 'hugetlb'],
                      hi=BLOCK)
        if v is None or w is None:
            return
        v += w
        self.block_aligned(e, 'pfn')
        chunks, counts = v[3], v[4:]
        pages, free = sum(counts), counts[0]
        if not 0 < pages <= BLOCK or chunks > free or \
                (chunks == 0 and free not in (0, pages)):
            self.fail('counts', e, '%d pages, %d free in %d chunks' % (pages, free, chunks))
        self.runs.setdefault(('census', v[1]), []).append(e)
        self.census_pages.append((v[2], e.f.get('zone'), v[0], pages, e))
        if self.bmap.type_of(v[0]) is None:
            self.early_census.setdefault(v[0], []).append(e)
        self.replayed(e, 'mt', v[0])

    # --- per zone and per snapshot, once every event is in
    def gens(self):
        for key, fl in self.flips.items():
            last = None
            for g, locked, e in fl:
                if locked and last is not None and g <= last:
                    self.fail('gen-order', e, 'gen %d after gen %d in %s' % (g, last, key))
                if locked:
                    last = g
            gs = sorted(g for g, _, _ in fl)
            if len(key) == 2 and gs != list(range(gs[0], gs[0] + len(gs))):
                self.fail('gen-gaps', fl[0][2], '%s: gens %s' % (key, gs[:12]))

    def snapshots(self):
        for (kind, seq), evs in sorted(self.runs.items()):
            seen, at, zones = set(), {}, []
            for e in evs:
                z = (num(e.f.get('nid')), e.f.get('zone'))
                if e.name == 'pageblock_snapshot':
                    continue
                if not zones or zones[-1] != z:
                    if z in zones or (zones and zone_rank(*z) < zone_rank(*zones[-1])):
                        self.fail('zones', e, '%s %d lists zone %s out of order' % (kind, seq, z))
                    zones.append(z)
                pfn = num(e.f['pfn'])
                if (z, pfn) in seen or pfn <= at.get(z, -1):
                    self.fail(kind if kind == 'census' else 'snapshot', e,
                              'block listed again or out of order')
                seen.add((z, pfn))
                at[z] = pfn
                span = self.spans.get(z)
                if span and not span[0] - span[0] % BLOCK <= pfn < span[1]:
                    self.fail('span', e, 'outside [%#x, %#x)' % span)
            if kind == 'state':
                self.bracket(seq, evs)
            else:
                self.census_blocks(seq, seen)

    def bracket(self, seq, evs):
        states = {}
        for e in evs:
            if e.name == 'pageblock_state':
                states.setdefault((num(e.f['nid']), e.f['zone']), []).append(e)
        for (s, nid, zone), b in self.bounds.items():
            if s != seq:
                continue
            got = states.pop((nid, zone), [])
            for ph in ('begin', 'end'):
                if ph not in b:
                    self.fail('snapshot', (got or [list(b.values())[0]])[0],
                              'seq %d %s/%s has no %s' % (seq, nid, zone, ph))
                elif num(b[ph].f['nr_blocks']) != len(got):
                    self.fail('snapshot', b[ph], '%d states follow' % len(got))
            if 'begin' in b and 'end' in b:
                lo, hi = num(b['begin'].f['gen']), num(b['end'].f['gen'])
                gens = [num(e.f['gen']) for e in got]
                if lo > hi or any(not lo <= g <= hi for g in gens) or gens != sorted(gens):
                    self.fail('snap-gen', b['begin'], 'states gens %s outside %d..%d or '
                              'decreasing' % (sorted(set(gens))[:6], lo, hi))
        if any(k[0] == seq for k in self.bounds):
            for z, got in states.items():
                self.fail('snapshot', got[0], 'states of %s outside its begin/end' % (z,))
        # the snapshot events of one seq bracket their zone's states in trace order
        inside = None
        for e in evs:
            z = (seq, num(e.f.get('nid')), e.f.get('zone'))
            if e.name == 'pageblock_snapshot':
                ph = e.f.get('phase')
                if (ph == 'begin') != (inside is None) or (ph == 'end' and inside != z):
                    self.fail('snapshot', e, '%s out of place' % ph)
                inside = z if ph == 'begin' else None
            elif self.bounds.get(z) and inside != z:
                self.fail('snapshot', e, 'a state outside its zone\'s begin/end')

    def census_blocks(self, seq, blocks):
        """A census walks the blocks of pageblocks, as does every snapshot."""
        snaps = [{(num(e.f['nid']), e.f['zone'], num(e.f['pfn'])) for e in evs
                  if e.name == 'pageblock_state'}
                 for (kind, _), evs in self.runs.items() if kind == 'state']
        census = {(z[0], z[1], p) for z, p in blocks}
        if snaps and census not in snaps:
            self.fail('census', self.runs[('census', seq)][0],
                      'census %d lists blocks no snapshot lists' % seq)

    def census_sums(self):
        """census_block() walks [max(pfn, start), min(pfn + BLOCK, end)) and
        advances by the pages each step counts, so the counts add up to that
        overlap exactly, even for a block that changed while it was walked.
        Memory hotplug moves a span between snapshots: any span the zone had
        will do."""
        for nid, zone, pfn, pages, e in self.census_pages:
            inside = {min(pfn + BLOCK, end) - max(pfn, start)
                      for start, end in self.all_spans.get((nid, zone), ())} - {0}
            if inside and pages not in inside:
                self.fail('census-pages', e, '%d pages counted, the block has %s in its zone'
                          % (pages, ' or '.join(map(str, sorted(inside)))))

    def zones(self):
        listed = {(num(e.f['nid']), e.f['zone']) for (kind, _), evs in self.runs.items()
                  if kind == 'state' for e in evs}
        for nid, zone, e in self.where if listed else ():
            if (nid, zone) not in listed:
                self.fail('where', e, 'node %s zone %s is in no snapshot' % (nid, zone))

    def failures(self):
        self.zones()
        self.gens()
        self.snapshots()
        self.census_sums()
        return self.bad


def check_dump(path, bad):
    """A debugfs pageblocks dump: headers and block lines (debugfs.md)."""
    with open(path) as f:
        lines = f.read().splitlines()
    head, listed, at, zones = None, 0, -1, []

    def close():
        if head and listed > head[2]:
            bad.append('%s lists %d blocks, nr_blocks %d' % (head[3], listed, head[2]))
    for line in lines:
        w = line.split()
        if not w:
            continue
        if w[0] == 'node':
            close()
            h = dict(zip(w[::2], w[1::2]))
            try:
                nid, zone, start = int(h['node']), h['zone'], int(h['start_pfn'], 16)
                nr, order = int(h['nr_blocks']), int(h['pageblock_order'])
                # series v1 had neither end_pfn nor gen
                end = int(h['end_pfn'], 16) if 'end_pfn' in h else None
                gen = int(h.get('gen', 0))
            except (KeyError, ValueError):
                bad.append('bad header: %s' % line)
                head = None
                continue
            z = zone_rank(nid, zone)
            if zone not in ZONES or (zones and z <= zones[-1]) or order != PAGEBLOCK_ORDER \
                    or (end is not None and (start >= end or nr != slots(start, end))):
                bad.append('header out of order or nr_blocks not the span\'s: %s' % line)
            zones.append(z)
            head, listed, at = (start, end or (start + nr * BLOCK), nr, line, gen), 0, -1
            continue
        try:
            pfn, mt, fp, lo = int(w[0], 16), w[1], int(w[2]), int(w[3])
            gen = int(w[4]) if len(w) > 4 else 0
        except (IndexError, ValueError):
            bad.append('bad block line: %s' % line)
            continue
        listed += 1
        if head is None or pfn <= at or pfn % BLOCK or \
                not head[0] - head[0] % BLOCK <= pfn < head[1]:
            bad.append('block out of order, unaligned or outside its zone: %s' % line)
        if mt not in MT or not 0 <= fp <= BLOCK or not -1 <= lo <= MAX_BUDDY_ORDER or \
                (fp == 0) != (lo == -1) or (lo >= 0 and fp < min(1 << lo, BLOCK)):
            bad.append('block fields out of their domain: %s' % line)
        if head and gen < head[4]:
            bad.append('block read before its header (gen %d < %d): %s' % (gen, head[4], line))
        at = pfn
    close()


def main():
    from report import Tap, events, oracle_args
    a = oracle_args('every field in its documented domain',
                    files=[('pageblocks', 'end.pageblocks', 'pageblocks dump')])
    t = Tap('fields ' + a.name)
    fl = Fields()
    n = 0
    for e in events(a.capture, set(SYMBOLIC)):
        fl.add(e)
        n += 1
    bad = fl.failures()
    if a.pageblocks:
        check_dump(a.pageblocks, bad['dump'])
    t.check(n > 0, 'the capture has mobility events (%d)' % n)
    for key, name in CHECKS:
        if key != 'dump' or a.pageblocks:
            t.check(not bad[key], name, bad[key])
    t.done()


if __name__ == '__main__':
    main()
