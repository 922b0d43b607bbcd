#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
# description: offlining a memory block isolates each of its pageblocks
# (reason isolate, to Isolate), migrates its pages away with reason
# memory_hotplug, (v2: takes the blocks out of the map and back, reasons
# offline/online) and onlining it unisolates each of them again (to
# Movable).  Every isolation, unisolation and memory_hotplug migration lies
# in a range the scenario tried to offline, every success leaves the offlined
# range, and the blocks' flips name zone Movable.
# usage: offline.py DIR | --report FILE --attempts FILE
#   attempts: "memoryN FIRST_PFN END_PFN offline|refused" lines, written by
#   qemu/guest/scenarios/offline.sh (older captures: parsed from DIR/log)
import os
import re
from report import Tap, events, oracle_args, PAGEBLOCK_ORDER

a = oracle_args('offline isolates, migrates away and unisolates the offlined block',
                files=[('attempts', 'offline-attempts', 'offline attempts of the scenario'),
                       ('log', 'log', 'scenario log (older captures)')])
t = Tap('offline ' + a.name)
attempts = []           # (name, lo, hi, result)
if a.attempts:
    for line in open(a.attempts):
        w = line.split()
        if len(w) == 4:
            attempts.append((w[0], int(w[1], 0), int(w[2], 0), w[3]))
elif a.log:
    text = open(a.log, errors='replace').read()
    m = re.search(r'movable blocks of (\d+) MiB', text)
    pages = int(m.group(1)) << 8 if m else 0
    for m2 in re.finditer(r'fragview: memory(\d+) (refused to go offline|is offline)', text):
        n = int(m2.group(1))
        attempts.append(('memory%d' % n, n * pages, (n + 1) * pages,
                         'offline' if 'is offline' in m2.group(2) else 'refused'))
off = [x for x in attempts if x[3] == 'offline']
t.check(len(off) == 1, 'the scenario offlined one memory block (%s)'
        % ', '.join('%s %#x-%#x %s' % x for x in attempts))
if not off:
    t.done()
_, lo, hi, _ = off[0]


def inside(pfn, ranges):
    return any(r[1] <= pfn < r[2] for r in ranges)


blocks = range(lo, hi, 1 << PAGEBLOCK_ORDER)
seqs = {}               # pfn -> [(reason, old, new)] of flips in the offlined range
stray, wrong_zone = [], []
migr = {}
left_in, stray_migr = [], []
for e in events(a.capture, {'pageblock_flip', 'migrate_folio'}):
    if e.name == 'pageblock_flip':
        pfn, reason = e.num('pfn'), e.f['reason']
        if reason in ('isolate', 'unisolate', 'offline', 'online') and not inside(pfn, attempts):
            stray.append('%s: outside every offline attempt' % e)
        if lo <= pfn < hi:
            seqs.setdefault(pfn, []).append((reason, e.f['old_mt'], e.f['new_mt']))
            if e.f['zone'] != 'Movable':
                wrong_zone.append('%s: the block is onlined movable' % e)
        continue
    key = (e.f['reason'], e.f['result'])
    migr[key] = migr.get(key, 0) + 1
    if e.f['reason'] == 'memory_hotplug':
        if not inside(e.num('src_pfn'), attempts):
            stray_migr.append('%s: source outside every offline attempt' % e)
        if e.f['result'] in ('success', '0') and lo <= e.num('dst_pfn') < hi:
            left_in.append('%s: moved into the block being offlined' % e)

# the life of each pageblock of the offlined range
V1 = [('isolate', 'Isolate'), ('unisolate', 'Movable')]
V2 = [('isolate', 'Isolate'), ('offline', 'none'), ('online', 'Isolate'), ('unisolate', 'Movable')]
bad_life, no_iso, no_uniso = [], [], []
for pfn in blocks:
    life = [(r, new) for r, _, new in seqs.get(pfn, [])]
    # steals/compaction may flip a block before it is isolated: keep the
    # flips from the isolation on
    i = next((k for k, x in enumerate(life) if x == ('isolate', 'Isolate')), None)
    if i is None:
        no_iso.append('%#x: no isolate flip (flips: %s)' % (pfn, life))
        continue
    life = life[i:]
    if not any(x == ('unisolate', 'Movable') for x in life):
        no_uniso.append('%#x: isolated, never unisolated to Movable (flips: %s)' % (pfn, life))
    elif life not in (V1, V2):
        bad_life.append('%#x: flips %s, expected %s or (v2) %s' % (pfn, life, V1, V2))
nmig = sum(n for (r, res), n in migr.items() if r == 'memory_hotplug' and res in ('success', '0'))
t.check(not no_iso, 'every pageblock of %s (%#x-%#x, %d blocks) was isolated'
        % (off[0][0], lo, hi, len(blocks)), no_iso)
t.check(not no_uniso, 'onlining unisolated every pageblock of it to Movable', no_uniso)
t.check(not bad_life, 'each block went isolate (offline, online) unisolate, nothing else',
        bad_life)
t.check(not stray, 'every isolate/unisolate/offline/online flip lies in an offline attempt',
        stray)
t.check(not wrong_zone, 'the flips of the offlined range name zone Movable', wrong_zone)
t.check(nmig > 0, 'pages migrated away with reason memory_hotplug (%d; %s)' % (nmig, migr))
t.check(not stray_migr and not left_in, 'memory_hotplug migrations start in an offline '
        'attempt and never end in the offlined range', stray_migr + left_in)
t.done()
