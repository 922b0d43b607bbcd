#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
# description: booted with page_group_by_mobility=off, the kernel says so,
# every block of every snapshot and of the end dump is Unmovable, drained
# per-cpu pages are all counted Unmovable, every free page sits on an
# Unmovable free list (/proc/pagetypeinfo at the start and the end: a
# page on another type's list is one an Unmovable allocation can only
# reach by a fallback), and the workload causes no fallback steal and no
# pageblock flip.
# usage: grouping_off.py DIR DMESG | --report FILE --dmesg FILE
#        [--pageblocks FILE] [--pagetypeinfo FILE,FILE]
import os
import re
from report import Tap, events, read_pageblocks, oracle_args


def free_lists(path):
    """(node, zone), type, free blocks per order: the rows of
    /proc/pagetypeinfo's 'Free pages count per migrate type'."""
    row = re.compile(r'^Node\s+(\d+), zone\s+(\S+), type\s+(\S+)((?:\s+\d+)+)\s*$')
    for line in open(path):
        m = row.match(line)
        if m:
            yield (m.group(1), m.group(2)), m.group(3), [int(x) for x in m.group(4).split()]


a = oracle_args('grouping off: all Unmovable, no steal, no flip',
                files=[('dmesg_file', None, 'kernel log of the boot'),
                       ('pageblocks', 'end.pageblocks', 'pageblocks dump at the end'),
                       ('pagetypeinfo', None, '/proc/pagetypeinfo copies, '
                        'comma-separated (default DIR/start.pagetypeinfo,'
                        'DIR/end.pagetypeinfo)')],
                extra=lambda p: p.add_argument('dmesg', nargs='?', help='kernel log (old form)'))
t = Tap('grouping off')
log = open(a.dmesg_file or a.dmesg, errors='replace').read()
t.check('mobility grouping off' in log, 'the kernel reports "mobility grouping off"')
count, not_unmov, drains_typed, snaps = {}, [], [], {}
for e in events(a.capture, {'pageblock_steal', 'pageblock_flip', 'pageblock_state',
                            'mm_page_alloc_extfrag', 'pcp_drain'}):
    count[e.name] = count.get(e.name, 0) + 1
    if e.name == 'pageblock_state':
        snaps[e.num('seq')] = snaps.get(e.num('seq'), 0) + 1
        if e.f['mt'] != 'Unmovable':
            not_unmov.append('%s: not Unmovable' % e)
    elif e.name == 'pcp_drain' and (e.num('nr_movable') or e.num('nr_reclaimable')):
        drains_typed.append('%s: pages counted on Movable/Reclaimable lists' % e)
dump = read_pageblocks(a.pageblocks) if a.pageblocks else {}
not_unmov += ['%#x: %s in the end dump' % (p, v[2]) for p, v in sorted(dump.items())
              if v[2] != 'Unmovable']
t.check(len(snaps) >= 2 and len(set(snaps.values())) == 1 and
        (not dump or set(snaps.values()) == {len(dump)}),
        'the capture holds complete snapshots (blocks per seq %s, dump %d)'
        % (snaps, len(dump)))
t.check(not not_unmov, 'every block of every snapshot and of the dump is Unmovable', not_unmov)
ptis = (a.pagetypeinfo.split(',') if a.pagetypeinfo else
        [os.path.join(a.dir, f) for f in ('start.pagetypeinfo', 'end.pagetypeinfo')]
        if a.dir else [])
lists, off_list = 0, []
for path in ptis:
    if not os.path.exists(path):
        off_list.append('%s: missing' % path)
        continue
    for zone, mt, counts in free_lists(path):
        lists += 1
        if mt != 'Unmovable' and any(counts):
            off_list.append('%s: node %s zone %s: %d free pages on %s lists '
                            '(per order %s)' % (os.path.basename(path), zone[0],
                                                zone[1], sum(c << o for o, c in
                                                             enumerate(counts)),
                                                mt, ' '.join(map(str, counts))))
if ptis:  # a DIR always has them; a --report only with --pagetypeinfo
    t.check(lists and not off_list,
            'every free page is on an Unmovable free list (%d lists in %d '
            'pagetypeinfo copies)' % (lists, len(ptis)), off_list)
t.check(count.get('pcp_drain', 0) > 0 and not drains_typed,
        'every drained per-cpu page was Unmovable (%d batches)' % count.get('pcp_drain', 0),
        drains_typed)
t.check(count.get('pageblock_steal', 0) == 0 and count.get('mm_page_alloc_extfrag', 0) == 0,
        'no fallback steal (%d)' % count.get('pageblock_steal', 0))
t.check(count.get('pageblock_flip', 0) == 0, 'no pageblock flip (%d)'
        % count.get('pageblock_flip', 0))
t.done()
