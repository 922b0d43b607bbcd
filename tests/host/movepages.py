#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
# description: move_pages(2)/migrate_pages(2) per-page results agree with the
# migrate_folio events: each page that moved has one successful event from
# its old pfn to its new pfn, and no page that failed has a successful one.
# usage: movepages.py DIR   (DIR holds trace.dat and movepages.out)
import os
import sys
from report import Tap, events

d = sys.argv[1]
t = Tap('movepages ' + os.path.basename(d.rstrip('/')))
moved, failed = {}, {}          # pfn_before -> (pfn_after, line)
with open(os.path.join(d, 'movepages.out')) as f:
    for line in f:
        w = line.split()
        if not w or w[0] != 'page':
            continue
        kv = dict(zip(w[2::2], w[3::2]))
        before, after = int(kv['pfn_before'], 0), int(kv['pfn_after'], 0)
        if int(kv['status']) < 0:
            failed[before] = line.strip()
        elif before != after:
            moved[before] = (after, line.strip())

ok_events = {}
reasons = set()
for e in events(os.path.join(d, 'trace.dat'), {'migrate_folio'}):
    if e.f['result'] in ('success', '0'):
        ok_events.setdefault(e.num('src_pfn'), []).append(e)
        reasons.add(e.f['reason'])

t.check(len(moved) > 0, 'the program moved pages (%d moved, %d failed)'
        % (len(moved), len(failed)))
missing = ['%s: no successful migrate_folio from this pfn' % line
           for pfn, (after, line) in moved.items()
           if not any(e.num('dst_pfn') == after for e in ok_events.get(pfn, ()))]
t.check(not missing, 'every moved page has its successful migrate_folio event', missing)
wrong = [line for pfn, line in failed.items() if pfn in ok_events]
t.check(not wrong, 'no failed page has a successful event', wrong)
t.check('syscall_or_cpuset' in reasons, 'the events carry reason syscall_or_cpuset (%s)'
        % ', '.join(sorted(reasons)))
t.done()
