#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
# description: each pcp_drain event accounts for exactly the per-page
# kmem:mm_page_pcpu_drain events of its batch (same CPU), by type and total.
# usage: drain.py DIR
import os
import sys
from report import Tap, events

d = sys.argv[1]
t = Tap('pcp_drain ' + os.path.basename(d.rstrip('/')))
# kmem:mm_page_pcpu_drain prints the pcp list's migratetype as a number;
# the three pcp types are the first three in every config
PCP_TYPES = {'0': 'nr_unmovable', '1': 'nr_movable', '2': 'nr_reclaimable'}
acc = {}            # cpu -> {field: pages} of per-page events since the last batch
seen = set()        # cpus whose first batch may have started before tracing
drains = pages = 0
bad, reasons = [], {}
for e in events(os.path.join(d, 'trace.dat'), {'pcp_drain', 'mm_page_pcpu_drain'}):
    a = acc.setdefault(e.cpu, {})
    if e.name == 'mm_page_pcpu_drain':
        n = 1 << e.num('order')
        # HighAtomic/CMA pages sit on the Movable list (free_unref_page)
        key = PCP_TYPES.get(e.f.get('migratetype'), 'nr_movable')
        a[key] = a.get(key, 0) + n
        a['total'] = a.get('total', 0) + n
        continue
    drains += 1
    reasons[e.f['reason']] = reasons.get(e.f['reason'], 0) + 1
    pages += e.num('total')
    want = {k: e.num(k) for k in ('nr_unmovable', 'nr_movable', 'nr_reclaimable', 'total')}
    got = {k: a.get(k, 0) for k in want}
    if e.cpu in seen and want != got:
        bad.append('%s: per-page events give %s' % (e.raw.strip(), got))
    if sum(want[k] for k in PCP_TYPES.values()) != want['total']:
        bad.append('%s: types do not add up to total' % e.raw.strip())
    seen.add(e.cpu)
    acc[e.cpu] = {}
t.check(drains > 0, 'the workload drained per-cpu lists (%d batches, %d pages, %s)'
        % (drains, pages, ', '.join('%s %d' % kv for kv in sorted(reasons.items()))))
t.check(not bad, 'every batch equals its per-page mm_page_pcpu_drain events', bad)
t.done()
