#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
# description: the pageblocks dump covers every zone from its first to its
# last pageblock, also when the zone start is not block aligned: the header
# counts the slots from the aligned start (series v1 divided the span and
# dropped the last block), and the blocks holding the zone's first and last
# pfn are both listed.  With --unaligned, at least one zone must start off
# a block boundary (so that the boot really tested the case).
# usage: zone_layout.py [--unaligned] PAGEBLOCKS...
import argparse
import os

from report import Tap

p = argparse.ArgumentParser(description=__doc__)
p.add_argument('--unaligned', action='store_true',
               help='require a zone whose start is not block aligned')
p.add_argument('dumps', nargs='+', help='debugfs pageblocks dumps')
a = p.parse_args()

t = Tap('zone layout')
for path in a.dumps:
    where = os.path.join(os.path.basename(os.path.dirname(path)), os.path.basename(path))
    zones, cur = [], None
    with open(path) as f:
        for line in f:
            w = line.split()
            if w and w[0] == 'node':
                h = dict(zip(w[0::2], w[1::2]))
                cur = {'name': 'node %s zone %s' % (h['node'], h['zone']),
                       'start': int(h['start_pfn'], 16),
                       'end': int(h['end_pfn'], 16) if 'end_pfn' in h else None,
                       'nr': int(h['nr_blocks']),
                       'order': int(h['pageblock_order']), 'blocks': set()}
                zones.append(cur)
            elif w and w[0].startswith('0x') and cur is not None:
                cur['blocks'].add(int(w[0], 16))
    bad, unaligned = [], []
    for z in zones:
        size = 1 << z['order']
        if z['end'] is None:
            bad.append('%s: header has no end_pfn (series v1 format)' % z['name'])
            continue
        first = z['start'] // size * size
        last = (z['end'] - 1) // size * size
        slots = (last - first) // size + 1
        if z['start'] % size:
            unaligned.append('%s starts at 0x%x' % (z['name'], z['start']))
        if z['nr'] != slots:
            bad.append('%s: nr_blocks %d, the span [0x%x, 0x%x) touches %d blocks'
                       % (z['name'], z['nr'], z['start'], z['end'], slots))
        for pfn, what in ((first, 'first'), (last, 'last')):
            if pfn not in z['blocks']:
                bad.append('%s: its %s block 0x%x is not listed' % (z['name'], what, pfn))
        outside = [b for b in z['blocks'] if not first <= b <= last]
        if outside:
            bad.append('%s: blocks outside its span: %s'
                       % (z['name'], ' '.join('0x%x' % b for b in sorted(outside)[:5])))
    t.check(len(zones) > 0, '%s: the dump has zones (%d)' % (where, len(zones)))
    t.check(not bad, '%s: every zone lists its blocks from first to last (%s)'
            % (where, '; '.join(unaligned) or 'all zone starts aligned'), bad)
    if a.unaligned:
        t.check(bool(unaligned), '%s: a zone starts off a block boundary' % where)
t.done()
