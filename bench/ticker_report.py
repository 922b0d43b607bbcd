#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""bench/results-ticker.md from bench/data-ticker/data.tsv (bench/ticker.sh).

usage: ticker_report.py DATA.tsv [--commit REV]

Every figure below is computed from DATA.tsv; nothing is typed in.  The
rule for "cheap" is fixed here, before any data: a 1 s ticker is cheap at
a guest size if it slows the fault loop by at most 1 % (median of the
per-pair ratios) and its writes take at most 1 % of one CPU.
"""
import argparse
import csv
import statistics
import sys

CHEAP = 0.01
BIG_BLOCKS = 262144          # a 512 GiB machine: the largest guest we boot


def main():
    p = argparse.ArgumentParser()
    p.add_argument('data')
    p.add_argument('--commit', default='?')
    a = p.parse_args()
    rows = list(csv.DictReader(open(a.data), delimiter='\t'))
    if not rows:
        sys.exit('ticker_report.py: %s has no rows' % a.data)
    mems = sorted({int(r['mem_mib']) for r in rows})
    out = ['# Periodic census + snapshot: what it costs',
           '',
           'Written by `bench/ticker_report.py` from `bench/data-ticker/data.tsv` '
           '(`bench/ticker.sh`, tree %s); the guests\' output lines are in '
           '`bench/data-ticker/log-*.txt`, the QEMU command lines in '
           '`bench/data-ticker/commands.txt`.' % a.commit,
           '',
           'Guest: the patched 6.1 kernel with qemu/checkers.config (lockdep, '
           'DEBUG_VM): costs are upper bounds for a production kernel.  TCG with '
           '`-icount shift=0,sleep=off`, one vCPU: "ns" are guest instructions.  '
           'The mobility events are on into a ring nobody reads.',
           '',
           '## One write of each trigger',
           '',
           '| guest | blocks | trigger | median ns | min | max | ns per block | '
           'events | ring bytes | bytes per block | writes |',
           '|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|']
    tick = {}
    for m in mems:
        for name in ('census', 'snapshot'):
            rs = [r for r in rows if int(r['mem_mib']) == m and r['kind'] == 'tick'
                  and r['name'] == name]
            if not rs:
                continue
            ns = [int(r['ns']) for r in rs]
            blocks = int(rs[0]['blocks'])
            ev = statistics.median(int(r['events']) for r in rs)
            by = statistics.median(int(r['bytes']) for r in rs)
            med = statistics.median(ns)
            tick.setdefault(m, {})[name] = (med, by, blocks)
            out.append('| %d MiB | %d | %s | %.0f | %d | %d | %.0f | %.0f | %.0f | %.1f | %d |'
                       % (m, blocks, name, med, min(ns), max(ns), med / blocks, ev, by,
                          by / blocks, len(ns)))
    out += ['',
            '## A fault loop with and without a 1 s ticker',
            '',
            '`faultloop -s 65536 -n 20` (ns per fault); the ticker writes the '
            'census, the zone lines and the snapshot every second.  Runs '
            'alternate none/ticker, reversing the order each round; a pair is '
            'one round.',
            '',
            '| guest | none median ns/fault | ticker median ns/fault | ticker / none '
            '(median of pairs) | min | max | pairs |',
            '|---|---:|---:|---:|---:|---:|---:|']
    slow = {}
    for m in mems:
        rs = [r for r in rows if int(r['mem_mib']) == m and r['kind'] == 'faultloop']
        by_rep = {}
        for r in rs:
            by_rep.setdefault(r['rep'], {})[r['name']] = int(r['ns'])
        ratios = [v['ticker'] / v['none'] for v in by_rep.values()
                  if 'ticker' in v and 'none' in v and v['none'] > 0]
        if not ratios:
            continue
        med = statistics.median(ratios)
        slow[m] = med
        out.append('| %d MiB | %.0f | %.0f | %.4f (%+.2f %%) | %.4f | %.4f | %d |'
                   % (m, statistics.median(v['none'] for v in by_rep.values() if 'none' in v),
                      statistics.median(v['ticker'] for v in by_rep.values() if 'ticker' in v),
                      med, (med - 1) * 100, min(ratios), max(ratios), len(ratios)))
    out += ['', '## At a 1 s period', '',
            '| guest | CPU share of the writes | capture growth | fault loop slowdown | '
            'cheap (<= 1 % and <= 1 %) |',
            '|---|---:|---:|---:|---|']
    for m in mems:
        if m not in tick or len(tick[m]) < 2 or m not in slow:
            continue
        ns = sum(v[0] for v in tick[m].values())
        by = sum(v[1] for v in tick[m].values())
        share = ns / 1e9
        cheap = share <= CHEAP and slow[m] - 1 <= CHEAP
        out.append('| %d MiB | %.2f %% | %.1f kB/s | %+.2f %% | %s |'
                   % (m, share * 100, by / 1000, (slow[m] - 1) * 100,
                      'yes' if cheap else 'no'))
    big = [m for m in mems if m in tick and len(tick[m]) == 2]
    if big:
        m = max(big)
        blocks = tick[m]['census'][2]
        ns_pb = sum(v[0] for v in tick[m].values()) / blocks
        by_pb = sum(v[1] for v in tick[m].values()) / blocks
        out += ['',
                'Both writes walk every block, so their cost grows with memory: '
                'at the %d MiB guest\'s rate (%.0f ns and %.0f bytes per block and '
                'tick), a %d-block machine (512 GiB) would spend %.2f s of CPU and '
                'write %.1f MB per tick (a linear extrapolation, not a measurement).'
                % (m, ns_pb, by_pb, BIG_BLOCKS, ns_pb * BIG_BLOCKS / 1e9,
                   by_pb * BIG_BLOCKS / 1e6)]
    print('\n'.join(out))


if __name__ == '__main__':
    main()
