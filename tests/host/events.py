#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
# description: across the scenarios' captures every mobility event fired, and
# every field prints as documented: known symbolic names, pfns inside the
# blocks of the pageblocks dump, and no event's fields contradict each other.
# With --drain-reasons/--flip-reasons, each of those reasons must occur in
# one of the captures (a scenario alone does not always produce each one,
# e.g. local drains come from compaction).
# usage: events.py [--drain-reasons a,b] [--flip-reasons a,b] DIR...
import argparse
import os
from abi import SYMBOLIC, CENSUS
from report import Tap, events, read_pageblocks

V2_ONLY = {'pageblock_snapshot', 'pageblock_census'}
PFNS = {'pageblock_steal': ('pfn', 'block_pfn'), 'pageblock_flip': ('pfn',),
        'migrate_folio': ('src_pfn',), 'pageblock_state': ('pfn',),
        'pageblock_census': ('pfn',)}


def inconsistent(e):
    """Fields of one event that contradict each other (tracepoints/*.md)."""
    if e.name == 'pageblock_state':
        fp, lo = e.num('free_pages'), int(e.f['largest_order'])
        if fp > 512 or (fp == 0) != (lo == -1):
            return 'free_pages %d with largest_order %d' % (fp, lo)
        if lo >= 0 and fp < min(1 << lo, 512):
            return 'a free order-%d buddy in a block with %d free pages' % (lo, fp)
    elif e.name == 'pageblock_steal':
        if e.num('order') > e.num('fallback_order'):
            return 'order above fallback_order'
        if not (0 <= e.num('free_moved') <= 512 and 0 <= e.num('alike') <= 512):
            return 'free_moved/alike outside 0..512'
    elif e.name == 'migrate_folio':
        # dst_pfn 0: no destination (a folio freed under migration succeeds so)
        if (e.num('dst_pfn') == 0) != (e.f['dst_mt'] == 'none'):
            return 'dst_mt %s with dst_pfn %s' % (e.f['dst_mt'], e.f['dst_pfn'])
    elif e.name == 'pageblock_census':
        # every page of the block inside its zone is counted once
        pages = sum(e.num(f) for f in CENSUS if f in e.f)   # v2: no hugetlb
        free, chunks = e.num('free'), e.num('free_chunks')
        if not 0 < pages <= 512:
            return 'counts add up to %d pages' % pages
        if chunks > free or (chunks == 0 and free not in (0, pages)):
            return '%d free pages in %d free chunks' % (free, chunks)
    elif e.name == 'pcp_drain':
        if e.num('total') == 0:
            return 'an empty batch (the event fires only when pages were freed)'
    return None


p = argparse.ArgumentParser(description='every mobility event fires, as documented')
p.add_argument('dirs', nargs='+')
p.add_argument('--drain-reasons', default='')
p.add_argument('--flip-reasons', default='')
a = p.parse_args()
t = Tap('events')
reasons = {'pcp_drain': {}, 'pageblock_flip': {}}
count = {e: 0 for e in SYMBOLIC}
bad_names, bad_pfns, bad_fields = [], [], []
for d in a.dirs:
    blocks = read_pageblocks(os.path.join(d, 'end.pageblocks'))
    lo = min(blocks) if blocks else 0
    hi = max(blocks) + 512 if blocks else 0
    for e in events(os.path.join(d, 'trace.dat'), set(SYMBOLIC)):
        count[e.name] += 1
        if e.name in reasons:
            r = reasons[e.name]
            r[e.f.get('reason')] = r.get(e.f.get('reason'), 0) + 1
        for field, names in SYMBOLIC[e.name].items():
            if e.f.get(field) not in names:
                bad_names.append('%s: %s=%s' % (e.name, field, e.f.get(field)))
        why = inconsistent(e)
        if why:
            bad_fields.append('%s: %s' % (e, why))
        for field in PFNS.get(e.name, ()):
            # offlined memory leaves the dump, so only check the range
            if not lo <= e.num(field) < hi:
                bad_pfns.append('%s: %s=%s outside %#x-%#x' % (e.name, field,
                                e.f[field], lo, hi))
for name, n in count.items():
    if name not in V2_ONLY or n:
        t.check(n > 0, 'mobility:%s fired (%d)' % (name, n))
for ev, want in (('pcp_drain', a.drain_reasons), ('pageblock_flip', a.flip_reasons)):
    for r in [r for r in want.split(',') if r]:
        t.check(reasons[ev].get(r, 0) > 0, '%s with reason %s happened (%d)'
                % (ev, r, reasons[ev].get(r, 0)))
t.check(not bad_names, 'enum fields print as documented names', sorted(set(bad_names)))
t.check(not bad_pfns, 'pfns lie inside the memory map', bad_pfns)
t.check(not bad_fields, 'no event contradicts itself (free_pages/largest_order, '
        'order/fallback_order, dst_pfn/dst_mt, empty drains)', bad_fields)
t.done()
