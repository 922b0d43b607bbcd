#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
# description: the census (debugfs mobility/census, pageblock_census events)
# agrees with the kernel's own page flags. censuswalk (qemu/guest/progs/)
# read the census, classified the pages of every listed block from
# /proc/kpageflags and read the census again, then walked and read it once
# more; for every block whose census lines and walks agree (it was at rest
# while walked; a walk.txt of one walk has two census reads) each count
# must equal
# the walk's: free = KPF_BUDDY, lru = KPF_LRU (of the compound head),
# slab_reclaimable + slab_unmovable = KPF_SLAB, pgtable, reserved, offline,
# hugetlb = KPF_HUGE (series v3), and movable_ops + kernel + free_pcp = the
# rest. The scenario holds a hugetlb pool with pages in use and free
# (hugepages.txt: /proc/meminfo's HugePages_Total and _Free around the
# walk): the census's hugetlb pages are the pool's, whole. Per zone at rest, the
# free pages and free chunks add up to /proc/buddyinfo (censuswalk repeats
# its cycle, up to 5 times, until some zone was at rest). The capture's
# pageblock_census events list the census's blocks, counts adding up.
# usage: census.py DIR | --report FILE --walk WALK.txt [--min-stable PCT]
from report import Tap, events, oracle_args

HUGE_PAGE = 512     # pages of the scenario's huge pages (2 MiB, x86-64)

# the census's columns (hugetlb since series v3) and censuswalk's (huge
# since the census has hugetlb): an older file has fewer, read as absent
COUNTS = ('free', 'free_chunks', 'lru', 'movable_ops', 'slab_reclaimable',
          'slab_unmovable', 'pgtable', 'kernel', 'free_pcp', 'reserved', 'offline',
          'hugetlb')
KPF = ('pages', 'free', 'lru', 'slab', 'pgtable', 'reserved', 'offline', 'other', 'nopage',
       'huge')


def extra(p):
    # the tests boot has kworkers and the vmstat worker moving a few
    # pages (94-97 % of blocks stable in practice); the blocks that moved
    # are left out, the rest must match exactly
    p.add_argument('--min-stable', type=float, default=80.0,
                   help='at least this %% of blocks at rest during the walk (default 80)')


def parse_walk(path):
    """{section: ...}: census1/census2 {pfn: (zone, type, counts)} with zone
    headers {zone: (start, end)}, buddyinfo1/2 {zone: [n per order]},
    kpf {pfn: {name: n}}."""
    out = {'census1': {}, 'census2': {}, 'census3': None, 'buddyinfo1': {}, 'buddyinfo2': {},
           'kpf': {}, 'kpf2': None, 'zones1': {}, 'zones2': {}, 'attempts': 1, 'zones_at_rest': None}
    section = zone = None
    with open(path) as f:
        for line in f:
            w = line.split()
            if not w:
                continue
            if w[0] == 'attempts':
                out['attempts'], out['zones_at_rest'] = int(w[1]), int(w[3])
            elif w[0] in ('census1', 'census2', 'census3', 'buddyinfo1', 'buddyinfo2'):
                section = w[0]
                if out[section] is None:
                    out[section] = {}
            elif section is None:
                continue
            elif w[0] in ('kpf', 'kpf2'):
                if out[w[0]] is None:
                    out[w[0]] = {}
                out[w[0]][int(w[1], 16)] = dict(zip(KPF, map(int, w[2:])))
            elif section.startswith('census') and w[0] == 'node':
                zone = 'node%s/%s' % (w[1], w[3])
                out.setdefault('zones' + section[-1], {})[zone] = (int(w[5], 16),
                                                                   int(w[7], 16))
            elif section.startswith('census') and w[0].startswith('0x'):
                out[section][int(w[0], 16)] = (zone, w[1],
                                               dict(zip(COUNTS, map(int, w[2:]))))
            elif section.startswith('buddyinfo') and w[0] == 'Node':
                out[section]['node%s/%s' % (w[1].rstrip(','), w[3])] = list(map(int, w[4:]))
    return out


a = oracle_args('the census agrees with /proc/kpageflags',
                files=[('walk', 'walk.txt', 'censuswalk output'),
                       ('hugepages', 'hugepages.txt',
                        'HugePages_Total and HugePages_Free around the walk')],
                extra=extra)
t = Tap('census %s' % a.name)
if not a.walk:
    t.check(False, 'censuswalk output present')
    t.done()
w = parse_walk(a.walk)
c1, c2, kpf = w['census1'], w['census2'], w['kpf']
# censuswalk tells hugetlb pages apart (its huge column) since series v3
walk_has_huge = any('huge' in k for k in kpf.values())
t.check(c1 and set(c1) == set(kpf) == set(c2),
        'the walk covers every census block (%d census, %d walked)' % (len(c1), len(kpf)))

# with a second walk and a third census (censuswalk since both), those
# must agree too: a page's state may leave and come back between reads
c3, kpf2 = w['census3'], w['kpf2']
if c3 is not None or kpf2 is not None:
    t.check(c3 is not None and kpf2 is not None and set(c3) == set(c1) == set(kpf2),
            'the second walk and third census cover every census block (%d, %d)'
            % (len(kpf2 or ()), len(c3 or ())))
stable = [pfn for pfn in sorted(c1) if c1[pfn] == c2.get(pfn) and pfn in kpf and
          (c3 is None or c3.get(pfn) == c1[pfn]) and
          (kpf2 is None or kpf2.get(pfn) == kpf[pfn])]
pct = 100.0 * len(stable) / max(len(c1), 1)
t.check(pct >= a.min_stable, 'at rest: %d of %d blocks (%.1f %%) unchanged across the '
        'walk, at least %.0f %%' % (len(stable), len(c1), pct, a.min_stable))

rules = (
    ('free', lambda c: c['free'], lambda k: k['free']),
    ('lru', lambda c: c['lru'], lambda k: k['lru']),
    ('slab', lambda c: c['slab_reclaimable'] + c['slab_unmovable'], lambda k: k['slab']),
    ('pgtable', lambda c: c['pgtable'], lambda k: k['pgtable']),
    ('reserved', lambda c: c['reserved'], lambda k: k['reserved']),
    ('offline', lambda c: c['offline'], lambda k: k['offline']),
    ('hugetlb', lambda c: c.get('hugetlb', 0), lambda k: k.get('huge', 0)),
    ('rest', lambda c: c['movable_ops'] + c['kernel'] + c['free_pcp'], lambda k: k['other']),
    ('pages', lambda c: sum(v for n, v in c.items() if n != 'free_chunks'),
     lambda k: k['pages'] - k['nopage']),
)
totals = {name: 0 for name, _, _ in rules}
for name, of_census, of_kpf in rules:
    bad = []
    for pfn in stable:
        got, want = of_census(c1[pfn][2]), of_kpf(kpf[pfn])
        totals[name] += got
        if got != want:
            bad.append('block %#x (%s %s): census %s=%d, kpageflags %d'
                       % (pfn, c1[pfn][0], c1[pfn][1], name, got, want))
    # a walk without the huge column (before series v3) has nothing to
    # compare hugetlb with
    t.check(not bad, 'per block at rest, census %s = kpageflags (%d pages in all)'
            % (name, totals[name]), bad,
            vacuous=name == 'hugetlb' and not walk_has_huge)
t.check(totals['lru'] > 0 and totals['slab'] > 0 and totals['free'] > 0,
        'the blocks hold LRU, slab and free pages (lru %d, slab %d, free %d)'
        % (totals['lru'], totals['slab'], totals['free']))
t.check(all(kpf[pfn]['nopage'] == 0 for pfn in kpf), 'every census block is backed by pages')

# a walk that tells hugetlb pages apart (censuswalk's huge column) comes
# from the scenario that holds a pool in use and free: its pages are all
# in the census, as hugetlb
if walk_has_huge:
    pool = {}
    if a.hugepages:
        with open(a.hugepages) as f:
            for line in f:
                tag, *nums = line.split()
                if len(nums) == 2 and tag in ('before', 'after'):
                    pool[tag] = (int(nums[0]), int(nums[1]))
    total, free = pool.get('before', (0, 0))
    t.check(pool.get('before') and pool.get('before') == pool.get('after') and
            0 < free < total,
            'a hugetlb pool with pages in use and free, unchanged across the walk (%s)'
            % (', '.join('%s: %d of %d free' % (k, v[1], v[0]) for k, v in sorted(pool.items()))
               or 'no hugepages.txt'))
    got = sum(c[2].get('hugetlb', 0) for c in c1.values())
    t.check(got == total * HUGE_PAGE,
            'the census counts the pool as hugetlb: %d pages, the pool %d huge pages of %d'
            % (got, total, HUGE_PAGE))

# zones at rest: every block stable and /proc/buddyinfo unchanged
zones_checked, bad = 0, []
for zone in w['zones1']:
    blocks = [pfn for pfn in c1 if c1[pfn][0] == zone]
    b1, b2 = w['buddyinfo1'].get(zone), w['buddyinfo2'].get(zone)
    if not blocks or b1 is None or b1 != b2 or any(c1[p] != c2.get(p) for p in blocks):
        continue
    zones_checked += 1
    free = sum(c1[p][2]['free'] for p in blocks)
    chunks = sum(c1[p][2]['free_chunks'] for p in blocks)
    want_free = sum(n << o for o, n in enumerate(b1))
    if (free, chunks) != (want_free, sum(b1)):
        bad.append('%s: census %d free pages in %d chunks, buddyinfo %d in %d'
                   % (zone, free, chunks, want_free, sum(b1)))
if w['zones_at_rest'] is not None and w['zones_at_rest'] != zones_checked:
    bad.append('censuswalk counted %d zones at rest, the oracle %d'
               % (w['zones_at_rest'], zones_checked))
t.check(zones_checked > 0 and not bad, 'per zone at rest, free pages and chunks = '
        '/proc/buddyinfo (%d of %d zones at rest, walk attempt %d)'
        % (zones_checked, len(w['zones1']), w['attempts']), bad)

# the capture: each census lists the blocks of the text census
seqs, bad = {}, []
for e in events(a.capture, {'pageblock_census'}):
    seqs.setdefault(e.num('seq'), []).append(e.num('pfn'))
    pages = sum(e.num(n) for n in COUNTS if n != 'free_chunks' and n in e.f)
    walked = kpf.get(e.num('pfn'), {'pages': 0, 'nopage': 0})
    if pages != walked['pages'] - walked['nopage']:
        bad.append('%s: counts add up to %d, the block has %d pages in its zone'
                   % (e, pages, walked['pages'] - walked['nopage']))
twice = ['census %d lists block %#x %d times' % (seq, pfn, pfns.count(pfn))
         for seq, pfns in sorted(seqs.items()) for pfn in sorted(set(pfns))
         if pfns.count(pfn) > 1]
t.check(seqs and all(set(s) == set(c1) for s in seqs.values()) and not twice,
        'every pageblock_census of the capture lists every census block once (%d censuses)'
        % len(seqs), twice)
t.check(not bad, 'every pageblock_census counts the pages of its block in its zone', bad)
t.done()
