#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
# description: each pcp_drain event accounts for exactly the per-page
# kmem:mm_page_pcpu_drain events of its batch (same CPU), by type and total,
# names the node and zone those pages are in, and the CPU whose lists were
# drained; no per-page drain is left without its batch; the scenario drained
# at least --min-batches batches and with every --reasons reason.  A CPU
# whose lists a cpu_dead drain emptied is offline: until it records an
# event again, or the scenario marks it coming online (trace_marker
# "fragview_cpu: cpu=N online": an onlined CPU fills its lists before it
# records anything), only cpu_dead drains (the rest of
# page_alloc_cpu_dead()'s zones and batches) can name it.  The CPUs that
# exist are the capture's (trace-cmd's cpus=N): drain_all() also empties
# the lists of CPUs that recorded nothing.
# The per-page event's migratetype is the pcp list's type on 6.1 (cached
# when the page was freed), so the batch's counts per list are checked
# exactly; since 6.10 it is the type of the page's block when it is drained
# (--per-page-type drain): the list a page sat on is then not in the capture,
# so only the low-order sum, the high-order count and the total are checked
# per batch, and every per-page migratetype against the replayed block.
# The vmstat worker drains for two reasons: `vmstat` (drain_zone_pages())
# empties an expired list of a zone on another node than its CPU's, NUMA
# only; `decay` (decay_pcp_high(), 6.12) trims the CPU's own lists of any
# zone.  Both run in a kworker on the CPU that owns the lists; with
# --cpu-nodes (the node of each CPU, in CPU order) every vmstat drain's
# zone is on a remote node.
# usage: drain.py DIR | --report FILE  [--min-batches N] [--reasons a,b,...]
#        [--per-page-type free|drain] [--cpu-nodes N,N,...]
import sys
from report import Tap, events, BlockMap, read_pageblocks, oracle_args


def extra(p):
    p.add_argument('--per-page-type', choices=('free', 'drain'), default='free',
                   help="what mm_page_pcpu_drain's migratetype is: the list's type, "
                   "cached at free time (6.1), or the block's type at drain time (6.12)")
    p.add_argument('--cpu-nodes', default='',
                   help='the node of each CPU, in CPU order (comma list): vmstat drains '
                   'empty remote nodes\' zones only')


a = oracle_args('pcp_drain == its per-page mm_page_pcpu_drain events',
                files=[('pageblocks', 'end.pageblocks', 'pageblocks dump (zone of every block)')],
                minimum=['batches'], reasons='drain reasons that must occur (comma list)',
                extra=extra)
by_list = a.per_page_type == 'free'
t = Tap('pcp_drain ' + a.name)
# kmem:mm_page_pcpu_drain prints the pcp list's migratetype as a number;
# the three pcp types are the first three in every config
PCP_TYPES = {'0': 'nr_unmovable', '1': 'nr_movable', '2': 'nr_reclaimable'}
PCP_TYPE_NAMES = {'0': 'Unmovable', '1': 'Movable', '2': 'Reclaimable'}
COSTLY_ORDER = 3
# reasons whose batch runs on the CPU that owns the lists (pcp_drain.md)
OWN_CPU = {'free_high', 'vmstat', 'local', 'decay'}
# reasons of the vmstat worker (refresh_cpu_vm_stats()), a kworker
WORKER = {'vmstat', 'decay'}
cpu_node = [int(n) for n in a.cpu_nodes.split(',')] if a.cpu_nodes else []
bmap = BlockMap(read_pageblocks(a.pageblocks) if a.pageblocks else None)

acc = {}            # running cpu -> per-page events since its last batch
seen = set()        # cpus whose first batch may have started before tracing
drains = pages = checked_zone = 0
biggest = longest = 0   # the largest and longest complete batch
v2 = None
bad, short_first, wrong_cpu, wrong_zone, reasons = [], [], [], [], {}
cpus = set()        # the CPUs that recorded events
header = {}         # cpus: the capture's CPU count, when the report says
drained = []        # every pcp_drain
dead_cpu, not_worker, own_node = [], [], []
offline = {}        # cpu -> its cpu_dead drain, until it records an event
after_dead = []
wrong_type, typed, unmapped, perpage = [], 0, 0, 0  # unmapped: before any snapshot
for i, e in enumerate(events(a.capture, header=header)):
    cpus.add(e.cpu)
    offline.pop(e.cpu, None)            # it runs: online (again)
    # the scenario brings a CPU back (qemu/guest/scenarios/drain.sh): it
    # may fill its lists before it records anything
    if e.name == 'print' and 'fragview_cpu:' in e.raw and ' online' in e.raw:
        offline.pop(int(e.f.get('cpu', -1)), None)
        continue
    if e.name != 'mm_page_pcpu_drain' and e.cpu in acc:
        acc[e.cpu]['cut'] = False      # a batch runs with irqs off: nothing between
    if e.name in ('pageblock_state', 'pageblock_flip'):
        bmap.update(e)
        continue
    if e.name == 'mm_page_pcpu_drain':
        perpage += 1
        a_ = acc.setdefault(e.cpu, {'pages': [], 'ev': [], 'zones': set(), 'cut': True})
        a_['pages'].append((e.num('order'), e.f.get('migratetype')))
        a_['ev'].append(i)
        a_.setdefault('t0', e.ts)
        a_['t1'] = e.ts
        a_['zones'].add(bmap.zone_of(e.num('pfn')))
        if not by_list:
            block_mt = bmap.type_of(e.num('pfn'))
            page_mt = PCP_TYPE_NAMES.get(e.f.get('migratetype'))
            unmapped += not bmap.mt
            if block_mt and page_mt:
                typed += 1
                if block_mt != page_mt:
                    wrong_type.append('%s: its block is %s (replayed)' % (e, block_mt))
        continue
    if e.name != 'pcp_drain':
        continue
    v2 = 'nr_high_order' in e.f
    a_ = acc.pop(e.cpu, {'pages': [], 'zones': set()})
    if e.cpu in seen and a_['pages']:
        biggest = max(biggest, e.num('total'))
        longest = max(longest, e.ts - a_['t0'])
    drains += 1
    reason = e.f['reason']
    reasons[reason] = reasons.get(reason, 0) + 1
    pages += e.num('total')
    keys = ['nr_unmovable', 'nr_movable', 'nr_reclaimable'] + (['nr_high_order'] if v2 else [])
    want = {k: e.num(k) for k in keys + ['total']}
    got = dict.fromkeys(want, 0)
    for order, mt in a_['pages']:
        if v2 and order > COSTLY_ORDER:
            key = 'nr_high_order'
        else:
            # HighAtomic/CMA pages sit on the Movable list (free_unref_page)
            key = PCP_TYPES.get(mt, 'nr_movable')
        got[key] += 1 << order
        got['total'] += 1 << order
    if not by_list:
        # the low-order lists only as one sum: see the description
        low = ['nr_unmovable', 'nr_movable', 'nr_reclaimable']
        for d in (want, got):
            d['nr_low_order'] = sum(d.pop(k) for k in low)
    if e.cpu in seen:
        if want != got:
            bad.append('%s: per-page events give %s' % (e, got))
    elif any(got[k] > want[k] for k in want):
        # the first batch on a cpu may have begun before tracing did: it
        # can miss per-page events, never have more
        short_first.append('%s: per-page events give %s' % (e, got))
    seen.add(e.cpu)
    if sum(e.num(k) for k in keys) != want['total']:
        bad.append('%s: the per-type counts do not add up to total' % e)
    drained.append(e)
    if reason in OWN_CPU and e.num('cpu') != e.cpu:
        wrong_cpu.append('%s: reason %s runs on the owner, but ran on cpu %d' % (e, reason, e.cpu))
    # refresh_cpu_vm_stats() runs in the vmstat worker, a kworker
    if reason in WORKER and not e.comm.startswith('kworker/'):
        not_worker.append('%s: run by %s-%d' % (e, e.comm, e.pid))
    # drain_zone_pages() is only called for zones of other nodes
    if reason == 'vmstat' and e.num('cpu') < len(cpu_node) and \
            cpu_node[e.num('cpu')] == e.num('nid'):
        own_node.append('%s: cpu %d is on node %d' % (e, e.num('cpu'), e.num('nid')))
    # a dead CPU runs nothing: its lists are drained by the CPU that
    # took it down (page_alloc_cpu_dead())
    if reason == 'cpu_dead' and e.num('cpu') == e.cpu:
        dead_cpu.append('%s: a dead cpu drains nothing, yet cpu= is the running one' % e)
    # nothing fills an offline CPU's lists, and drain_all_pages() walks
    # the online CPUs only
    if e.num('cpu') in offline and reason != 'cpu_dead':
        after_dead.append('%s: cpu %d is offline since %s' % (e, e.num('cpu'),
                                                            offline[e.num('cpu')]))
    if reason == 'cpu_dead':
        offline[e.num('cpu')] = e
    zones = a_['zones'] - {None}
    if zones:
        checked_zone += 1
        if zones != {(e.num('nid'), e.f['zone'])}:
            wrong_zone.append('%s: its pages are in %s' % (e, ', '.join(
                'node %d %s' % z for z in sorted(zones))))

# per-page drains after the last batch of their cpu: only one batch cut
# off by the end of the capture (nothing else recorded on that cpu from its
# first per-page event on, no more pages and time than a whole batch took)
left = []
for cpu, a_ in acc.items():
    n = sum(1 << o for o, _ in a_['pages'])
    if not a_['cut']:
        left.append('cpu %d: %d per-page drain events (%d pages) with no pcp_drain after '
                    'them, and more events on that cpu' % (cpu, len(a_['ev']), n))
    elif n > biggest or a_['t1'] - a_['t0'] > longest + 0.001:
        left.append('cpu %d: %d pages over %.6f s at the end with no pcp_drain: more than '
                    'one batch (the largest had %d pages, the longest took %.6f s)'
                    % (cpu, n, a_['t1'] - a_['t0'], biggest, longest))

t.check(drains >= a.min_batches, 'the workload drained per-cpu lists (%d batches >= %d, '
        '%d pages, %s)' % (drains, a.min_batches, pages,
                           ', '.join('%s %d' % kv for kv in sorted(reasons.items()))),
        vacuous=not a.min_batches)
# a rule over no batch (or no batch of the kind it is about) asserts
# nothing: a skip then
none = not drains
local_kinds = sum(reasons.get(r, 0) for r in OWN_CPU)
worker_kinds = sum(reasons.get(r, 0) for r in WORKER)
for r in a.reasons:
    t.check(reasons.get(r, 0) > 0, 'drains with reason %s happened (%d)' % (r, reasons.get(r, 0)))
t.check(not bad, 'every batch equals its per-page mm_page_pcpu_drain events (%s%s)'
        % ('v2, nr_high_order = order > %d' % COSTLY_ORDER if v2 else 'v1',
           '' if by_list else ', low-order lists summed'), bad, vacuous=none)
if not by_list:
    # drains recorded before the first snapshot have no block type to
    # compare with (the recorder's own start can drain): only those after
    # one must be checked
    t.check((typed > 0 or perpage == unmapped) and not wrong_type,
            "every per-page drain's migratetype is its block's replayed type "
            "(%d pages checked, %d drained before the first snapshot)"
            % (typed, unmapped), wrong_type, vacuous=not typed)
t.check(not short_first, 'no first batch on a cpu has more per-page events than it counts',
        short_first, vacuous=none)
t.check(not left, 'every per-page drain event belongs to a pcp_drain batch', left,
        vacuous=not perpage)
t.check(not wrong_cpu, 'cpu= is the cpu that ran free_high/vmstat/local/decay drains',
        wrong_cpu, vacuous=not local_kinds)
# drain_all() empties the lists of CPUs that may record nothing: the CPUs
# that exist are the capture's (trace-cmd's cpus=N); a saved report without
# that line has only those that recorded events
if 'cpus' in header:
    strays = cpus - set(range(header['cpus']))
    t.check(not strays, 'every CPU that recorded events is one of the %d of the capture'
            % header['cpus'], ['cpu %d' % c for c in sorted(strays)])
    cpus = set(range(header['cpus']))
nowhere = ['%s: no cpu %d in the capture (cpus %s)' % (e, e.num('cpu'), sorted(cpus))
           for e in drained if e.num('cpu') not in cpus]
t.check(not nowhere, 'cpu= of every batch is a CPU of the capture (%d CPUs%s)'
        % (len(cpus), '' if 'cpus' in header else ' that recorded events'), nowhere,
        vacuous=none)
t.check(not not_worker, 'every vmstat/decay drain ran in a kworker (%d batches)'
        % worker_kinds, not_worker, vacuous=not worker_kinds)
if cpu_node:
    t.check(not own_node, "every vmstat drain empties a remote node's zone, decay_pcp_high() "
            "trims are decay (%d batches, cpu nodes %s)" % (reasons.get('vmstat', 0),
                                                            a.cpu_nodes),
            own_node, vacuous=not reasons.get('vmstat'))
t.check(not dead_cpu, 'cpu= of cpu_dead drains is the dead cpu, not the one running '
        '(%d batches)' % reasons.get('cpu_dead', 0), dead_cpu,
        vacuous=not reasons.get('cpu_dead'))
t.check(not after_dead, 'after a cpu_dead drain of a CPU, until it records an event '
        'again or is marked coming online, its lists are drained only as cpu_dead', after_dead,
        vacuous=not reasons.get('cpu_dead'))
t.check((checked_zone > 0 or not drains) and not wrong_zone, 'nid/zone are those of the '
        'drained pages (%d batches checked)' % checked_zone, wrong_zone, vacuous=none)
t.done()
