# SPDX-License-Identifier: GPL-2.0
"""Read a capture through `trace-cmd report`: an oracle independent of fragview.

Every event line of trace-cmd's default output looks like
    comm-pid [cpu] ts: event: key=value key=value ...
and our events print each field as name=value (tracepoints/README.md).
"""
import re
import subprocess
import sys

LINE = re.compile(r'^\s*(?P<comm>.*?)-(?P<pid>\d+)\s+\[(?P<cpu>\d+)\]\s+'
                  r'(?:\S+\s+)?(?P<ts>\d+\.\d+):\s+(?P<event>[\w:]+):\s*(?P<rest>.*)$')
KV = re.compile(r'(\w+)=(\S+)')


class Event:
    __slots__ = ('ts', 'cpu', 'name', 'f', 'raw')

    def __init__(self, ts, cpu, name, f, raw):
        self.ts, self.cpu, self.name, self.f, self.raw = ts, cpu, name, f, raw

    def num(self, key):
        return int(self.f[key], 0)


def events(path, names=None):
    """Yield Event for every line of `trace-cmd report` (optionally only names)."""
    cmd = ['trace-cmd', 'report', '-i', path]
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                         text=True, errors='replace')
    for line in p.stdout:
        m = LINE.match(line)
        if not m:
            continue
        name = m.group('event')
        if names and name not in names:
            continue
        yield Event(float(m.group('ts')), int(m.group('cpu')), name,
                    dict(KV.findall(m.group('rest'))), line.rstrip('\n'))
    if p.wait() != 0:
        raise RuntimeError('trace-cmd report -i %s failed' % path)


def read_pageblocks(path):
    """Parse a debugfs pageblocks dump: {pfn: (nid, zone, type)}."""
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


class Tap:
    """ok/not ok lines; exit status 1 if anything failed."""

    def __init__(self, prefix):
        self.prefix, self.n, self.bad = prefix, 0, 0

    def check(self, cond, name, detail=()):
        self.n += 1
        if cond:
            print('ok %d - %s: %s' % (self.n, self.prefix, name))
        else:
            self.bad += 1
            print('not ok %d - %s: %s' % (self.n, self.prefix, name))
            for d in list(detail)[:10]:
                print('#   %s' % d)
        return cond

    def done(self):
        sys.exit(1 if self.bad else 0)
