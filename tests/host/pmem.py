#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
# description: ZONE_DEVICE memory enters and leaves the pageblock map
# exactly: binding a pmem pfn device whose memmap lives in the device (an
# altmap) brings its blocks online (reason online, none to Movable, zone
# Device): the altmap's own pages (memmap_init_range()) and the data area
# (memmap_init_zone_device()); unbinding takes out exactly those (reason
# offline, Movable to none), in each cycle.  The namespace's first block
# starts with the info block, whose struct pages are never initialised:
# a flip of it is a report read from uninitialised memmap.
# usage: pmem.py DIR | --report FILE --ranges FILE
#   ranges: "NS_START NS_END DATA_START DATA_END" pfn lines, one per bind,
#   written by qemu/guest/scenarios/pmem.sh
from report import Tap, events, oracle_args, PAGEBLOCK_ORDER

BLOCK = 1 << PAGEBLOCK_ORDER
a = oracle_args('pmem: the altmap range enters and leaves the map exactly',
                files=[('ranges', 'pmem-ranges', 'bound ranges of the scenario')])
t = Tap('pmem ' + a.name)
cycles = []
if a.ranges:
    for line in open(a.ranges):
        w = line.split()
        if len(w) == 4:
            cycles.append(tuple(int(x, 0) for x in w))
t.check(len(cycles) == 2 and len(set(cycles)) == 1,
        'the scenario bound the pfn device twice, the same ranges each time (%s)'
        % ', '.join('%#x-%#x data %#x-%#x' % c for c in cycles))
if not cycles:
    t.done()
ns_lo, ns_hi, lo, hi = cycles[0]


def starts(first, end):
    """The blocks that start in [first, end): what memmap init reports."""
    pfn = (first + BLOCK - 1) & ~(BLOCK - 1)
    return list(range(pfn, end, BLOCK))


data_blocks = set(starts(lo, hi))
# the capture tells a walk of the initialised memmap from a walk of the
# whole range only if the range starts a block: that block's first page
# is the info block's
t.check(ns_lo % BLOCK == 0 and data_blocks and ns_lo < lo,
        'the namespace starts a block, its data area %d blocks further (%d data blocks)'
        % ((lo - ns_lo) // BLOCK, len(data_blocks)))

life = {}               # pfn -> [(reason, old, new, nid)] of its Device flips
stray, last_gen, gens_bad = [], {}, []
for e in events(a.capture, {'pageblock_flip'}):
    if e.f['zone'] != 'Device':
        continue
    pfn = e.num('pfn')
    if pfn == ns_lo or not ns_lo <= pfn < ns_hi:
        stray.append('%s: %s' % (e, "the info block's block, its memmap never initialised"
                                 if pfn == ns_lo else 'outside the pmem range'))
        continue
    life.setdefault(pfn, []).append((e.f['reason'], e.f['old_mt'], e.f['new_mt'], e.f['nid']))
    key = (e.f['nid'], e.f['zone'])
    g = e.num('gen')
    if key in last_gen and g <= last_gen[key]:
        gens_bad.append('%s: gen %d after %d in the same zone' % (e, g, last_gen[key]))
    last_gen[key] = g

CYCLE = [('online', 'none', 'Movable'), ('offline', 'Movable', 'none')]
bad = []
for pfn in sorted(set(life) | data_blocks):
    seq = life.get(pfn, [])
    if [x[:3] for x in seq] != CYCLE * len(cycles):
        bad.append('%#x: %s, expected %s per bind' % (pfn, [x[:3] for x in seq], CYCLE))
    elif len({x[3] for x in seq}) != 1:
        bad.append('%#x: nodes %s, one node expected' % (pfn, [x[3] for x in seq]))
nflips = sum(len(v) for v in life.values())
t.check(not bad, 'each block went online then offline in each bind, the %d of the data '
        'area among them (%d blocks, %d flips)' % (len(data_blocks), len(life), nflips), bad)
t.check(not stray, "no Device flip of the info block's block or outside the range", stray)
t.check(not gens_bad and nflips > 0, "the Device zone's gens increase in trace order",
        gens_bad)
t.done()
