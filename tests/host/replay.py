#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
# description: replay oracle, independent of fragview: the first snapshot plus
# every pageblock_flip equals the last snapshot and the pageblocks dump taken
# at the end, block for block.
# usage: replay.py DIR   (DIR holds trace.dat and end.pageblocks)
import os
import sys
from report import Tap, events, read_pageblocks

d = sys.argv[1]
t = Tap('replay ' + os.path.basename(d.rstrip('/')))
state = {}          # pfn -> type, replayed
last = {}           # pfn -> (seq, type) from the latest snapshot
first_seq = None
nflips = nstate = 0
order_errors = []
for e in events(os.path.join(d, 'trace.dat'),
                {'pageblock_state', 'pageblock_flip'}):
    pfn = e.num('pfn')
    if e.name == 'pageblock_state':
        nstate += 1
        seq = e.num('seq')
        if first_seq is None:
            first_seq = seq
        if seq == first_seq:
            state[pfn] = e.f['mt']
        last[pfn] = (seq, e.f['mt'])
    else:
        nflips += 1
        if pfn in state:
            if state[pfn] != e.f['old_mt']:
                order_errors.append('%#x: flip says old %s, replay has %s at %.6f'
                                    % (pfn, e.f['old_mt'], state[pfn], e.ts))
            state[pfn] = e.f['new_mt']

t.check(first_seq is not None, 'capture holds a baseline snapshot (%d states)' % nstate)
seqs = {s for s, _ in last.values()}
t.check(len(seqs) == 1 and first_seq not in seqs,
        'capture holds a final snapshot after the baseline')
t.check(not order_errors, 'every flip starts from the replayed type (%d flips)' % nflips,
        order_errors)
bad = ['%#x: replay %s, last snapshot %s' % (p, state.get(p), mt)
       for p, (s, mt) in sorted(last.items()) if state.get(p) != mt]
t.check(not bad, 'baseline + flips == last snapshot (%d blocks, %d mismatches)'
        % (len(last), len(bad)), bad)
dump = read_pageblocks(os.path.join(d, 'end.pageblocks'))
bad = ['%#x: replay %s, dump %s' % (p, state.get(p), v[2])
       for p, v in sorted(dump.items()) if state.get(p) != v[2]]
t.check(dump and not bad, 'baseline + flips == pageblocks dump at the end '
        '(%d blocks, %d mismatches)' % (len(dump), len(bad)), bad)
t.done()
