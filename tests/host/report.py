# SPDX-License-Identifier: GPL-2.0
"""Read a capture through `trace-cmd report`: an oracle independent of fragview.

Every event line of trace-cmd's default output looks like
    comm-pid [cpu] ts: event: key=value key=value ...
and our events print each field as name=value (tracepoints/README.md).

Every oracle reads either a capture directory (DIR/trace.dat through
`trace-cmd report`, plus the scenario's other files) or, with --report, a
saved `trace-cmd report` text (plain or .gz), so that tests/host/negative.sh
can feed it doctored reports.
"""
import argparse
import gzip
import os
import re
import subprocess
import sys

LINE = re.compile(r'^\s*(?P<comm>.*?)-(?P<pid>\d+)\s+\[(?P<cpu>\d+)\]\s+'
                  r'(?:\S+\s+)?(?P<ts>\d+\.\d+):\s+(?P<event>[\w:]+):\s*(?P<rest>.*)$')
KV = re.compile(r'(\w+)=(\S+)')
PAGEBLOCK_ORDER = 9


class Event:
    __slots__ = ('ts', 'cpu', 'name', 'f', 'raw', 'pid', 'comm')

    def __init__(self, ts, cpu, name, f, raw, pid=None, comm=None):
        self.ts, self.cpu, self.name, self.f, self.raw = ts, cpu, name, f, raw
        self.pid, self.comm = pid, comm

    def num(self, key):
        return int(self.f[key], 0)

    def __str__(self):
        return self.raw.strip()


def _lines(path):
    """Lines of the report of PATH: a trace.dat, or a saved report text."""
    with open(path, 'rb') as f:
        head = f.read(10)
    if head.startswith(b'\x17\x08\x44tracing'):
        p = subprocess.Popen(['trace-cmd', 'report', '-i', path], stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, text=True, errors='replace')
        yield from p.stdout
        if p.wait() != 0:
            raise RuntimeError('trace-cmd report -i %s failed' % path)
    elif head.startswith(b'\x1f\x8b'):
        with gzip.open(path, 'rt', errors='replace') as f:
            yield from f
    else:
        with open(path, errors='replace') as f:
            yield from f


CPUS = re.compile(r'^cpus=(\d+)\s*$')


def events(path, names=None, header=None):
    """Yield Event for every event line of the report (optionally only names).
    With a dict HEADER, its 'cpus' becomes the capture's CPU count when the
    report states it (trace-cmd's "cpus=N" line; a saved report may not)."""
    for line in _lines(path):
        m = LINE.match(line)
        if not m:
            c = CPUS.match(line)
            if c and header is not None:
                header['cpus'] = int(c.group(1))
            continue
        name = m.group('event')
        if names and name not in names:
            continue
        yield Event(float(m.group('ts')), int(m.group('cpu')), name,
                    dict(KV.findall(m.group('rest'))), line.rstrip('\n'),
                    int(m.group('pid')), m.group('comm'))


def read_zoneinfo(path):
    """{(nid, zone): {key: pages}} from /proc/zoneinfo: "pages free" as
    free, and min, low, high, boost, managed; every zone it lists."""
    zones, key = {}, None
    with open(path) as f:
        for line in f:
            w = line.split()
            if w[:1] == ['Node'] and 'zone' in w:
                key = (int(w[1].rstrip(',')), w[3])
                zones[key] = {}
            elif key and w[:2] == ['pages', 'free']:
                zones[key]['free'] = int(w[2])
            elif key and len(w) == 2 and w[0] in ('min', 'low', 'high', 'boost', 'managed'):
                zones[key][w[0]] = int(w[1])
    return zones


def read_pageblocks(path):
    """Parse a debugfs pageblocks dump: {pfn: (nid, zone, type)}.
    Accepts the v1 (4 columns) and v2 (5 columns, gen) forms."""
    blocks = {}
    nid = zone = None
    with open(path) as f:
        for line in f:
            w = line.split()
            if not w:
                continue
            if w[0] == 'node':
                nid, zone = int(w[1]), w[3]
            elif w[0].startswith('0x'):
                blocks[int(w[0], 16)] = (nid, zone, w[1])
    return blocks


def read_pageblock_gens(path):
    """{pfn: gen} from a v2 pageblocks dump (5th column); {} for v1."""
    gens = {}
    with open(path) as f:
        for line in f:
            w = line.split()
            if len(w) >= 5 and w[0].startswith('0x'):
                gens[int(w[0], 16)] = int(w[4])
    return gens


def oracle_args(description, files=(), minimum=(), reasons=None, extra=None):
    """Command line of an oracle: DIR, or --report FILE plus its other files.

    files: (name, default file in DIR, help) for inputs besides the capture.
    minimum: names of --min-NAME options (default 1): activity the
    scenario must show.  reasons: help of a --reasons option (a comma list
    that must all occur), given as the list a.reasons.
    extra: function(parser) adding more options.
    Returns the parsed namespace with .capture and each file set (or None)."""
    p = argparse.ArgumentParser(description=description)
    p.add_argument('dir', nargs='?', help='scenario result directory (trace.dat, ...)')
    p.add_argument('--report', help='saved `trace-cmd report` output instead of DIR/trace.dat')
    p.add_argument('--name', help='name in the ok/not ok lines')
    for name, default, hlp in files:
        p.add_argument('--' + name.replace('_', '-'), dest=name,
                       help='%s (default DIR/%s)' % (hlp, default))
    for name in minimum:
        p.add_argument('--min-' + name, type=int, default=1,
                       help='at least this many %s (default 1)' % name)
    if reasons:
        p.add_argument('--reasons', default='', help=reasons)
    if extra:
        extra(p)
    a = p.parse_args()
    if reasons:
        a.reasons = [r for r in a.reasons.split(',') if r]
    if not a.dir and not a.report:
        p.error('give DIR or --report FILE')
    a.capture = a.report or os.path.join(a.dir, 'trace.dat')
    for name, default, _ in files:
        if getattr(a, name) is None and a.dir and default:
            path = os.path.join(a.dir, default)
            setattr(a, name, path if os.path.exists(path) else None)
    if not a.name:
        a.name = os.path.basename((a.dir or a.report).rstrip('/'))
    return a


class BlockMap:
    """Where every pageblock is and what type it has, replayed from the
    capture alone: the first pageblock_state of a block, then every
    pageblock_flip of it.  With ABI v2 gens a flip of the block in the
    state's zone applies iff its gen is above the state's (gens count per
    zone); otherwise (v1, or the block moved zones through offline/online)
    trace order decides (states and flips of a block are ordered by
    zone->lock and the global clock).  Feed it every pageblock_state/
    pageblock_flip event in trace order with update(); query between
    events."""

    def __init__(self, dump=None):
        self.where = {}             # pfn -> (nid, zone)
        self.mt = {}                # pfn -> replayed type (only once a state was seen)
        self.gen = {}               # pfn -> (nid, zone, gen) of its state (v2)
        if dump:
            for pfn, (nid, zone, _) in dump.items():
                self.where[pfn] = (nid, zone)

    def update(self, e):
        pfn = e.num('pfn')
        if e.name == 'pageblock_state':
            self.where.setdefault(pfn, (int(e.f['nid']), e.f['zone']))
            if pfn not in self.mt:
                self.mt[pfn] = e.f['mt']
                if 'gen' in e.f:
                    self.gen[pfn] = (int(e.f['nid']), e.f['zone'], e.num('gen'))
        elif e.name == 'pageblock_flip':
            if e.f.get('new_mt') != 'none':
                self.where[pfn] = (int(e.f['nid']), e.f['zone'])
            if pfn in self.mt:
                st = self.gen.get(pfn)
                if st is None or 'gen' not in e.f or \
                        (int(e.f['nid']), e.f['zone']) != st[:2] or e.num('gen') > st[2]:
                    self.mt[pfn] = e.f['new_mt']
                    self.gen.pop(pfn, None)     # from here on, trace order

    def block(self, pfn):
        return pfn & ~((1 << PAGEBLOCK_ORDER) - 1)

    def zone_of(self, pfn):
        """(nid, zone) of the block holding pfn, or None if never seen."""
        return self.where.get(self.block(pfn))

    def type_of(self, pfn):
        return self.mt.get(self.block(pfn))


class Tap:
    """ok/not ok lines; exit status 1 if anything failed."""

    def __init__(self, prefix):
        self.prefix, self.n, self.bad = prefix, 0, 0

    def check(self, cond, name, detail=(), vacuous=False):
        """vacuous: the capture holds nothing the check is about (or its
        minimum is 0): a pass would assert nothing, so it is a skip."""
        self.n += 1
        if cond and vacuous:
            print('ok %d - %s: %s # SKIP nothing to check in this capture'
                  % (self.n, self.prefix, name))
        elif cond:
            print('ok %d - %s: %s' % (self.n, self.prefix, name))
        else:
            self.bad += 1
            print('not ok %d - %s: %s' % (self.n, self.prefix, name))
            detail = list(detail)
            for d in detail[:10]:
                print('#   %s' % d)
            if len(detail) > 10:
                print('#   ... and %d more' % (len(detail) - 10))
        return cond

    def done(self):
        sys.exit(1 if self.bad else 0)
