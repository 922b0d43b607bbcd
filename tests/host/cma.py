#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
# description: a gigantic (1 GiB) hugetlb page taken from the hugetlb CMA
# area (qemu/guest/scenarios/cma.sh) goes through alloc_contig_range(): the
# pageblocks isolated are exactly one 1 GiB-aligned GiB inside the CMA area
# the kernel reserved (dmesg), each isolated from CMA and unisolated back to
# CMA; pages migrate out with reason contig_range, from inside that range
# to outside it; nothing else in the capture is isolated.
# usage: cma.py DIR | --report FILE --dmesg-file FILE
import re
from report import Tap, events, oracle_args, PAGEBLOCK_ORDER

a = oracle_args('CMA allocation: one aligned GiB isolated, migrated out, released',
                files=[('dmesg_file', '../dmesg', 'kernel log of the boot')])
t = Tap('cma ' + a.name)
log = open(a.dmesg_file, errors='replace').read()
m = re.search(r'cma: Reserved (\d+) MiB at (0x[0-9a-f]+)', log)
t.check(m is not None, 'the kernel reserved a CMA area (%s)' % (m.group(0) if m else 'none'))
if not m:
    t.done()
area_lo = int(m.group(2), 16) >> 12
area_hi = area_lo + (int(m.group(1)) << 8)
GIG = 1 << 18                       # pages in 1 GiB
life, migr, succ = {}, {}, []   # succ: contig_range successes
for e in events(a.capture, {'pageblock_flip', 'migrate_folio'}):
    if e.name == 'pageblock_flip':
        if e.f['reason'] in ('isolate', 'unisolate'):
            life.setdefault(e.num('pfn'), []).append((e.f['reason'], e.f['old_mt'], e.f['new_mt']))
        continue
    if e.f['reason'] == 'contig_range':
        migr[e.f['result']] = migr.get(e.f['result'], 0) + 1
        if e.f['result'] == 'success':
            succ.append(e)
pfns = sorted(life)
lo = pfns[0] & ~(GIG - 1) if pfns else 0
want = list(range(lo, lo + GIG, 1 << PAGEBLOCK_ORDER))
t.check(pfns == want and area_lo <= lo and lo + GIG <= area_hi,
        'the isolated blocks are one 1 GiB-aligned GiB inside the CMA area %#x-%#x '
        '(%d blocks isolated, %#x-%#x)' % (area_lo, area_hi, len(pfns), lo, lo + GIG),
        ['%d isolated blocks outside %#x-%#x' % (len(set(pfns) - set(want)), lo, lo + GIG)]
        if pfns else [])
wrong = ['%#x: %s' % (p, life[p]) for p in pfns
         if life[p] != [('isolate', 'CMA', 'Isolate'), ('unisolate', 'Isolate', 'CMA')]]
t.check(pfns and not wrong, 'each block went CMA -> Isolate (isolate) -> CMA (unisolate)',
        wrong)
out = ['%s: not from inside the range to outside it' % e for e in succ
       if not (lo <= e.num('src_pfn') < lo + GIG) or lo <= e.num('dst_pfn') < lo + GIG]
t.check(migr.get('success', 0) > 0 and not out, 'pages migrated out of the range with '
        'reason contig_range (%s)' % migr, out)
t.done()
