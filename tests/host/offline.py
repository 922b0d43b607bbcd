#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
# description: offlining a memory block isolates its pageblocks (flips with
# reason isolate), migrates its pages with reason memory_hotplug, and
# onlining it again flips them back.
# usage: offline.py DIR
import os
import sys
from report import Tap, events

d = sys.argv[1]
t = Tap('offline ' + os.path.basename(d.rstrip('/')))
flips, migr = {}, {}
for e in events(os.path.join(d, 'trace.dat'), {'pageblock_flip', 'migrate_folio'}):
    if e.name == 'pageblock_flip':
        key = (e.f['reason'], e.f['new_mt'])
        flips[key] = flips.get(key, 0) + 1
    else:
        key = (e.f['reason'], e.f['result'])
        migr[key] = migr.get(key, 0) + 1
iso = flips.get(('isolate', 'Isolate'), 0)
t.check(iso > 0, 'blocks were isolated (%d isolate flips; all flips %s)' % (iso, flips))
t.check(sum(n for (r, res), n in migr.items() if r == 'memory_hotplug' and res == 'success') > 0,
        'pages migrated away with reason memory_hotplug (%s)' % migr)
t.check(sum(n for (r, mt), n in flips.items() if mt != 'Isolate') > 0,
        'onlining gave the blocks a type again')
t.done()
