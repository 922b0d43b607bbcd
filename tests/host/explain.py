#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
# description: fragview explain names the cause of failed high-order
# allocations.  From `trace-cmd report` alone: every kmem:mm_page_alloc of
# order >= 9 with page=(nil) is a failure, and what the allocating task's
# compaction events said since its previous such allocation (its
# "request") fixes some causes: mm_compaction_suitable ret=skipped means
# not enough free memory; a deferral or ret=not_suitable_zone without a
# mm_compaction_begin of the task means compaction did not run; a begin
# means it ran.  A deferral follows a failed run: when the capture has an
# mm_compaction_defer_compaction of the zone, at an order up to the
# request's, before the failure, what failed that run may be the cause
# (and explain must name a run before the failure as the deferring one);
# without one, only no-compaction (or the free-memory causes) fits, and
# explain must name no deferring run.  `fragview explain --format json` (--fragview BINARY, or
# a saved --json FILE) must explain exactly those failures (time, task),
# agree with every cause the report fixes, and validate against
# Documentation/fragview-explain.schema.json (when python3-jsonschema is
# there).  A planted scenario adds --expect CAUSE: at least --min-ratio
# (default 0.9) of the failures of the --task allocator must get that
# cause, and with --culprit COMM a pinned verdict must name that task.
# usage: explain.py DIR | --report FILE  (--fragview BINARY | --json FILE)
#                   [--expect CAUSE] [--task COMM] [--culprit COMM]
#                   [--min-ratio R] [--min-failures N]
import json
import os
import subprocess
from collections import defaultdict

from report import Tap, LINE, KV, _lines, oracle_args

HERE = os.path.dirname(os.path.abspath(__file__))
SCHEMA = os.path.join(HERE, '..', '..', 'tools', 'fragview', 'Documentation',
                      'fragview-explain.schema.json')
COMPACTION = ('mm_compaction_try_to_compact_pages', 'mm_compaction_suitable',
              'mm_compaction_deferred', 'mm_compaction_begin')


def extra(p):
    p.add_argument('--fragview', help='run fragview explain with this binary')
    p.add_argument('--json', help='a saved fragview explain --format json')
    p.add_argument('--expect', help='the planted cause')
    p.add_argument('--task', help='comm of the allocator whose failures are planted')
    p.add_argument('--culprit', help='comm the pinned verdicts must name')
    p.add_argument('--min-ratio', type=float, default=0.9)


a = oracle_args('fragview explain names the cause of failed allocations',
                minimum=['failures'], extra=extra)
t = Tap('explain ' + a.name)
if not a.fragview and not a.json:
    raise SystemExit('explain.py: give --fragview BINARY or --json FILE')

# ---- the report: failures, and what each task's request said
failures = []               # (ts_us, pid, comm, facts)
request = defaultdict(set)  # pid -> facts since its previous high-order alloc
defers = {}                 # (node, zone) -> lowest order_failed deferred so far
marks = defaultdict(list)   # block pfn -> [(ts_us, pid, kind)]
MARK = {'pageblock_steal': 'steal', 'mm_page_alloc_extfrag': 'extfrag',
        'pageblock_flip': 'flip'}
have_compaction = False
for line in _lines(a.capture):
    m = LINE.match(line)
    if not m:
        continue
    name, pid = m.group('event'), int(m.group('pid'))
    f = dict(KV.findall(m.group('rest')))
    if name in COMPACTION:
        have_compaction = True
        if name == 'mm_compaction_suitable':
            request[pid].add('suitable=' + f.get('ret', '?'))
        else:
            request[pid].add(name)
        if name == 'mm_compaction_deferred':
            z = (f.get('node'), f.get('zone'))
            if z in defers and defers[z] <= int(f.get('order', '0')):
                request[pid].add('deferred-after-failed-run')
        continue
    if name == 'mm_compaction_defer_compaction':
        z = (f.get('node'), f.get('zone'))
        o = int(f.get('order', '0'))
        defers[z] = min(defers.get(z, o), o)
        continue
    if name in MARK:
        ts_us = round(float(m.group('ts')) * 1e6)
        if name == 'pageblock_steal' and f.get('taken') == '0':
            continue    # a claim declined (6.12): nothing taken, no pollution
        if name == 'pageblock_steal':
            block = int(f['block_pfn'], 16)
        elif name == 'mm_page_alloc_extfrag':
            block = int(f['pfn'], 16) & ~((1 << int(f['pageblock_order'])) - 1)
        else:
            block = int(f['pfn'], 16)
        marks[block].append((ts_us, pid, MARK[name]))
        continue
    if name != 'mm_page_alloc' or int(f.get('order', '0')) < 9:
        continue
    if f.get('page') == '(nil)':
        ts_us = round(float(m.group('ts')) * 1e6)
        failures.append((ts_us, pid, m.group('comm').strip(), request[pid]))
    request[pid] = set()


def fixed_cause(facts):
    """The causes the report alone allows for a failure, or None: any."""
    if 'suitable=skipped' in facts:
        return {'no-free-memory'}
    if 'mm_compaction_begin' in facts:
        return {'pinned', 'migration-failed', 'per-cpu-lists', 'isolation',
                'reserves', 'no-free-memory', 'unknown'}
    if 'deferred-after-failed-run' in facts:
        return {'pinned', 'migration-failed', 'per-cpu-lists', 'isolation',
                'reserves', 'no-free-memory', 'no-compaction', 'unknown'}
    if 'mm_compaction_deferred' in facts or 'suitable=not_suitable_zone' in facts:
        return {'no-compaction', 'reserves', 'no-free-memory'}
    return None


# ---- fragview's answer
if a.json:
    with open(a.json) as f:
        text = f.read()
else:
    p = subprocess.run([a.fragview, 'explain', '--format', 'json', a.capture],
                       capture_output=True, text=True)
    t.check(p.returncode == 0, 'fragview explain exits 0',
            ['exit %d' % p.returncode, p.stderr.strip()])
    text = p.stdout
try:
    d = json.loads(text)
except ValueError as e:
    t.check(False, 'fragview explain prints JSON', [str(e)])
    t.done()

try:
    import jsonschema
    with open(SCHEMA) as f:
        schema = json.load(f)
    err = None
    try:
        jsonschema.validate(d, schema)
    except jsonschema.ValidationError as e:
        err = e.message
    t.check(err is None, 'the JSON follows fragview-explain.schema.json', [err])
except ImportError:
    print('# python3-jsonschema missing: the schema is not checked')

ex = d.get('explanations', [])
t.check(len(failures) >= a.min_failures,
        '%d failed allocations of order >= 9 (at least %d)' %
        (len(failures), a.min_failures))
t.check(d.get('failed_allocations') == len(failures) and len(ex) == len(failures),
        'explain counts %s failures and explains %d, the report has %d' %
        (d.get('failed_allocations'), len(ex), len(failures)))
mism = []
for (ts_us, pid, comm, _), e in zip(failures, ex):
    if abs(e['ts_ns'] / 1000 - ts_us) > 1 or e['pid'] != pid:
        mism.append('report %d us pid %d, explain %d ns pid %s' %
                    (ts_us, pid, e['ts_ns'], e['pid']))
t.check(not mism, 'each explanation is the failure at its time, of its task', mism)

wrong, fixed = [], 0
for (ts_us, pid, comm, facts), e in zip(failures, ex):
    allowed = fixed_cause(facts) if have_compaction else None
    if allowed is None:
        continue
    fixed += 1
    if e['cause'] not in allowed:
        wrong.append('%d us %s-%d: %s, the report allows %s (%s)' %
                     (ts_us, comm, pid, e['cause'], '|'.join(sorted(allowed)),
                      ', '.join(sorted(facts))))
t.check(not wrong, '%d causes the compaction events fix, all agree' % fixed, wrong)

# the deferring run: named only after a defer_compaction, and before the
# failure, a run that ended complete or partial_skipped
bad = []
for (ts_us, pid, comm, facts), e in zip(failures, ex):
    by = (e.get('compaction') or {}).get('deferred_by')
    if by is None:
        continue
    if have_compaction and 'deferred-after-failed-run' not in facts:
        bad.append('%d us %s-%d: deferred by run %s, but no '
                   'mm_compaction_defer_compaction of its zone came before'
                   % (ts_us, comm, pid, by.get('run')))
    elif (by.get('end_ns') is None or by['end_ns'] / 1000 > ts_us + 1 or
          by.get('status') not in ('complete', 'partial_skipped')):
        bad.append('%d us %s-%d: deferred by run %s ending %s at %s ns'
                   % (ts_us, comm, pid, by.get('run'), by.get('status'),
                      by.get('end_ns')))
t.check(not bad, 'every deferring run explain names is a failed run before '
        'the failure, after which the kernel deferred', bad)

# who polluted each nearest block: the latest steal of the block before
# the failure, else its latest flip, else nothing (fragview-explain(1)).
# A patched kernel reports each fallback twice, as pageblock_steal and as
# mm_page_alloc_extfrag: then the steal is the one.
have_steal = any(m[2] == 'steal' for ms in marks.values() for m in ms)
bad = []
for (ts_us, pid, comm, _), e in zip(failures, ex):
    for n in e.get('nearest', []):
        before = [m for m in marks.get(n['pfn'], [])
                  if m[0] <= ts_us + 1 and (m[2] != 'extfrag' or not have_steal)]
        steals = [m for m in before if m[2] != 'flip']
        want = (steals or before or [None])[-1]
        got = n.get('polluted_by')
        if want is None and got is None:
            continue
        if (want is None or got is None or
                got['kind'] != ('flip' if want[2] == 'flip' else 'steal') or
                got['pid'] != want[1] or
                abs(round(got['ts_ns'] / 1000) - want[0]) > 1):
            bad.append('%d us %s-%d: block 0x%x polluted by %s, the report '
                       'has %s' % (ts_us, comm, pid, n['pfn'],
                                   got and '%s %s-%d at %d ns' % (
                                       got['kind'], got['comm'], got['pid'],
                                       got['ts_ns']),
                                   want and '%s by %d at %d us' % (
                                       want[2], want[1], want[0])))
t.check(not bad, 'every nearest block names its latest steal (else flip) '
        'before the failure, as the report has it', bad[:5])

if a.expect:
    mine = [(f, e) for f, e in zip(failures, ex)
            if not a.task or f[2] == a.task]
    hit = [e for _, e in mine if e['cause'] == a.expect]
    if a.culprit:
        hit = [e for e in hit if (e.get('culprit') or {}).get('comm') == a.culprit]
    ratio = len(hit) / len(mine) if mine else 0
    seen = defaultdict(int)
    for _, e in mine:
        seen[e['cause']] += 1
    t.check(mine and ratio >= a.min_ratio,
            '%d of %d failures%s explained as %s%s (>= %d %%)' %
            (len(hit), len(mine), ' of ' + a.task if a.task else '', a.expect,
             ' by ' + a.culprit if a.culprit else '', a.min_ratio * 100),
            ['causes: ' + ', '.join('%s %d' % kv for kv in sorted(seen.items()))] +
            [e['verdict'] for _, e in mine if e['cause'] != a.expect][:3])
t.done()
