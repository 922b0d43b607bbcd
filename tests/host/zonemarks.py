#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
# description: the recorder's zone lines (trace_marker "fragview_zone: ...",
# tools/fragview/zonemark.h) say what /proc/zoneinfo said: the first line
# of every zone has the start zoneinfo's watermarks and managed pages, the
# last one the end zoneinfo's (min/low/high less boost: the boost moves);
# every line has min <= low <= high and free <= managed; every populated
# zone has lines; and every snapshot has a zone line since the one before.
# usage: zonemarks.py DIR | --report FILE --zoneinfo F [--end-zoneinfo F]
from report import Tap, events, oracle_args, read_zoneinfo

KEYS = ('node', 'zone', 'free', 'min', 'low', 'high', 'boost', 'managed')


def zoneinfo(path):
    """The populated zones of /proc/zoneinfo."""
    return {k: v for k, v in read_zoneinfo(path).items() if v.get('managed', 0) > 0}


def base(z):
    """What only a sysctl or hotplug changes: watermarks less the boost."""
    return (z['min'] - z['boost'], z['low'] - z['boost'], z['high'] - z['boost'],
            z['managed'])


a = oracle_args('zone lines match /proc/zoneinfo',
                files=[('zoneinfo', 'start.zoneinfo', 'zoneinfo at the start'),
                       ('end_zoneinfo', 'end.zoneinfo', 'zoneinfo at the end')])
t = Tap('zonemarks ' + a.name)
if not a.zoneinfo:
    t.check(False, 'the scenario wrote its start.zoneinfo')
    t.done()
start = zoneinfo(a.zoneinfo)
end = zoneinfo(a.end_zoneinfo) if a.end_zoneinfo else None

lines, bad, gaps = {}, [], []
for e in events(a.capture, {'print'}):
    if 'fragview_zone:' not in e.raw:
        continue
    try:
        z = {k: (e.f[k] if k == 'zone' else int(e.f[k])) for k in KEYS}
    except (KeyError, ValueError):
        bad.append('%s: not a complete zone line' % e.raw)
        continue
    if not (z['min'] <= z['low'] <= z['high']) or z['free'] > z['managed']:
        bad.append('%s: min <= low <= high, free <= managed broken' % e.raw)
    lines.setdefault((z['node'], z['zone']), []).append((e.ts, z))

# snapshots: each seq's first begin must follow a zone line since the last seq
last_seq, since, nsnap = None, 0, 0
for e in events(a.capture, {'print', 'pageblock_snapshot'}):
    if e.name == 'print':
        since += 'fragview_zone:' in e.raw
    elif e.f.get('phase') == 'begin' and e.f.get('seq') != last_seq:
        last_seq, nsnap = e.f.get('seq'), nsnap + 1
        if not since:
            gaps.append('snapshot seq %s at %.6f: no zone line since the one before'
                        % (last_seq, e.ts))
        since = 0

t.check(not bad, 'every zone line complete, min <= low <= high, free <= managed', bad)
missing = sorted(set(start) - set(lines))
t.check(lines and not missing, 'every populated zone of the start zoneinfo has zone lines',
        ['node %d %s: none' % k for k in missing] or ['no zone line at all'])
first = ['node %d %s: %s, zoneinfo %s' % (k[0], k[1], base(v[0][1]), base(start[k]))
         for k, v in sorted(lines.items()) if k in start and base(v[0][1]) != base(start[k])]
t.check(not first, "each zone's first line has the start zoneinfo's watermarks and managed pages",
        first)
if end is not None:
    last = ['node %d %s: %s, zoneinfo %s' % (k[0], k[1], base(v[-1][1]), base(end[k]))
            for k, v in sorted(lines.items()) if k in end and base(v[-1][1]) != base(end[k])]
    t.check(not last, "each zone's last line has the end zoneinfo's watermarks and managed pages",
            last)
t.check(nsnap > 0 and not gaps, 'every snapshot (%d) has zone lines since the one before' % nsnap,
        gaps or ['no snapshot'])
t.done()
