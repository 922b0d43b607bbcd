#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The oracle of 'fragview compact': the same runs, scanner totals and
high-order outcomes worked out from `trace-cmd report` of the capture,
independently of fragview's reader and model.

    compactcheck.py CAPTURE FRAGVIEW_JSON [PAGEBLOCK_ORDER]
    compactcheck.py --marks CAPTURE [PAGEBLOCK_ORDER [TS_NS]]
    compactcheck.py --allocs CAPTURE [PAGEBLOCK_ORDER]

CAPTURE is read with `trace-cmd report`; FRAGVIEW_JSON is the output of
`fragview compact --format json CAPTURE`.  Prints one "ok - ..." or
"not ok - ..." line per comparison; exit status 1 if any failed.

--marks prints what the maps must mark up to TS_NS (default: the end):
"migrate N free N fail N", the number of blocks a migrate scanner pass,
a free scanner pass, a failed mobility:migrate_folio touched.  --allocs prints "ok N failed
N": the allocations of order >= PAGEBLOCK_ORDER and how many failed.
"""
import json
import re
import subprocess
import sys

LINE = re.compile(r'^\s*(.*)-(\d+)\s+\[\d+\]\s+(?:\S+\s+)?(\d+)\.(\d+):\s+(\w+):\s+(.*)$')
FIELD = re.compile(r'(\w+)=(\S+)')
RANGE = re.compile(r'range=\(0x([0-9a-f]+) ~ 0x([0-9a-f]+)\)')


def us(ns):
    # trace-cmd report rounds to the nearest microsecond
    return (ns + 500) // 1000


def fields(text):
    return {k: v.rstrip(',') for k, v in FIELD.findall(text)}


def report_lines(capture):
    report = subprocess.run(['trace-cmd', 'report', '-i', capture], check=True,
                            capture_output=True, text=True,
                            errors='replace').stdout
    for line in report.splitlines():
        m = LINE.match(line)
        if m:
            yield (int(m.group(2)), int(m.group(3)) * 10**6 + int(m.group(4)[:6]),
                   m.group(5), fields(m.group(6)), m.group(6))


def marks(capture, order, ts):
    blocks = {'migrate': set(), 'free': set(), 'fail': set()}
    for _, t, ev, f, text in report_lines(capture):
        if ts is not None and t > us(ts):
            break
        if ev in ('mm_compaction_isolate_migratepages',
                  'mm_compaction_isolate_freepages'):
            lo, hi = (int(x, 16) for x in RANGE.search(text).groups())
            hi = max(hi, lo + 1)
            k = 'migrate' if 'migrate' in ev else 'free'
            for b in range(lo >> order, ((hi - 1) >> order) + 1):
                blocks[k].add(b)
        elif ev == 'migrate_folio' and f['result'] != 'success':
            blocks['fail'].add(int(f['src_pfn'], 16) >> order)
    print('migrate %d free %d fail %d' % tuple(len(blocks[k]) for k in
                                                ('migrate', 'free', 'fail')))
    return 0


def alloc_counts(capture, order):
    ok = failed = 0
    for _, _, ev, f, _ in report_lines(capture):
        if ev == 'mm_page_alloc' and int(f['order']) >= order:
            ok += f['page'] != '(nil)'
            failed += f['page'] == '(nil)'
    print('ok %d failed %d' % (ok, failed))
    return 0


def main():
    if sys.argv[1] == '--allocs':
        return alloc_counts(sys.argv[2], int(sys.argv[3]) if len(sys.argv) > 3 else 9)
    if sys.argv[1] == '--marks':
        return marks(sys.argv[2], int(sys.argv[3]) if len(sys.argv) > 3 else 9,
                     int(sys.argv[4]) if len(sys.argv) > 4 else None)
    capture, out = sys.argv[1], sys.argv[2]
    order = int(sys.argv[3]) if len(sys.argv) > 3 else 9
    runs, open_run, allocs = [], {}, []
    for pid, t, ev, f, _ in report_lines(capture):
        if ev == 'mm_compaction_begin':
            r = dict(pid=pid, us=t, migrate_begin=int(f['migrate_pfn'], 16),
                     free_begin=int(f['free_pfn'], 16), ms=0, mt=0, fs=0, ft=0,
                     status=None)
            runs.append(r)
            open_run[pid] = r
        elif ev in ('mm_compaction_isolate_migratepages',
                    'mm_compaction_isolate_freepages',
                    'mm_compaction_fast_isolate_freepages') and pid in open_run:
            k = 'm' if 'migrate' in ev else 'f'
            open_run[pid][k + 's'] += int(f['nr_scanned'])
            open_run[pid][k + 't'] += int(f['nr_taken'])
        elif ev == 'mm_compaction_end':
            r = open_run.pop(pid, None)
            if r is None:
                r = dict(pid=pid, us=t, migrate_begin=int(f['migrate_pfn'], 16),
                         free_begin=int(f['free_pfn'], 16), ms=0, mt=0, fs=0, ft=0)
                runs.append(r)
            r['status'] = f['status']
            r['migrate_end'] = int(f['migrate_pfn'], 16)
            r['free_end'] = int(f['free_pfn'], 16)
        elif ev == 'mm_page_alloc' and int(f['order']) >= order:
            allocs.append((t, int(f['order']), f['page'] != '(nil)'))

    got = json.load(open(out))
    bad = 0

    def check(name, want, have):
        nonlocal bad
        if want == have:
            print('ok - %s' % name)
        else:
            bad += 1
            print('not ok - %s' % name)
            if isinstance(want, list) and isinstance(have, list):
                i = next((i for i, (a, b) in enumerate(zip(want, have)) if a != b),
                         min(len(want), len(have)))
                want, have = 'entry %d of %d: %r' % (i, len(want), want[i:i + 1]), \
                    'entry %d of %d: %r' % (i, len(have), have[i:i + 1])
            print('  want %s\n  have %s' % (want, have), file=sys.stderr)

    check('runs: as many as mm_compaction_begin/end pairs', len(runs), len(got['runs']))
    want = [(r['pid'], r['us'], r['status'], r['migrate_begin'], r.get('migrate_end'),
             r['free_begin'], r.get('free_end'), r['ms'], r['mt'], r['fs'], r['ft'])
            for r in runs]
    have = [(r['pid'], us(r['begin_ns']), r['status'], r['migrate']['begin'],
             r['migrate']['end'] if r['status'] else None, r['free']['begin'],
             r['free']['end'] if r['status'] else None, r['migrate']['scanned'],
             r['migrate']['taken'], r['free']['scanned'], r['free']['taken'])
            for r in got['runs']]
    check('runs: task, begin, status, scanner ranges and totals', want, have)
    have = [(us(e['ts']), e['order'], e['outcome'] == 'ok')
            for e in got['timeline'] if e['event'] == 'alloc']
    check('high-order allocations and failures (order >= %d)' % order, allocs, have)
    check('allocations: some failed, some did not (the fixture shows both)',
          (True, True), (any(a[2] for a in allocs), any(not a[2] for a in allocs)))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
