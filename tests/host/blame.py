#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
# description: the known culprit of the polluter scenario is found.  From
# `trace-cmd report` alone, every pageblock_steal and pageblock_flip is
# given to its task (comm-pid of the line) and to the kernel_stack that
# follows it on its CPU; the task with the most steals must be the culprit
# (--task, default fv-polluter), with most of its steals polluting blocks
# and its most frequent stack through the culprit's syscall path (--frames,
# default pipe_write and ksys_write or __x64_sys_write).  Every steal and
# flip must have its stack.  With --fragview BINARY (and DIR), `fragview
# blame --by task --format json` must rank the same task first with the
# same steals and the same top stack.
# usage: blame.py DIR | --report FILE  [--task COMM] [--frames F,F|G]
#                 [--min-steals N] [--fragview BINARY]
import json
import os
import re
import subprocess
from collections import Counter, defaultdict

from report import Tap, LINE, KV, _lines, oracle_args


def extra(p):
    p.add_argument('--task', default='fv-polluter', help='comm of the culprit')
    p.add_argument('--frames', default='pipe_write,ksys_write|__x64_sys_write',
                   help='functions its top stack must have (a|b: either)')
    p.add_argument('--fragview', help='also check fragview blame against this')


a = oracle_args('the polluter is blamed, with its stack', minimum=['steals'],
                extra=extra)
t = Tap('blame ' + a.name)
FRAME = re.compile(r'^=> (\S+)')

recs = []                   # [task, event, frames or None, polluting block]
last = {}                   # cpu -> the record its last line was, if ours
cur = None                  # frames of the kernel_stack being read

for line in _lines(a.capture):
    m = FRAME.match(line)
    if m:
        if cur is not None:
            cur.append(m.group(1))
        continue
    m = LINE.match(line)
    if not m:
        continue
    cpu, name = int(m.group('cpu')), m.group('event')
    cur = None
    prev = last.pop(cpu, None)
    if name == 'kernel_stack':
        # a stacktrace trigger writes it right after its event, same CPU
        if prev is not None and prev[2] is None:
            prev[2] = cur = []
        continue
    if name not in ('pageblock_steal', 'pageblock_flip'):
        continue
    f = dict(KV.findall(m.group('rest')))
    if name == 'pageblock_steal' and f.get('taken') == '0':
        continue        # a claim declined (6.12): nothing taken
    block = None
    if name == 'pageblock_steal' and f.get('claimed') not in ('1', 'true', 'yes') \
            and f.get('alloc_mt') != f.get('block_mt'):
        block = f.get('block_pfn')
    rec = ['%s-%s' % (m.group('comm').strip(), m.group('pid')), name, None, block]
    recs.append(rec)
    last[cpu] = rec

steals, polluting, polluted = Counter(), Counter(), defaultdict(set)
stacks = defaultdict(Counter)
for task, name, frames, block in recs:
    if name == 'pageblock_steal':
        steals[task] += 1
        if block:
            polluting[task] += 1
            polluted[task].add(block)
    stacks[task][tuple(frames or ())] += 1
missing = ['%s %s' % (r[0], r[1]) for r in recs if not r[2]]

ranked = sorted(steals.items(), key=lambda kv: (-kv[1], kv[0]))
top, top_n = ranked[0] if ranked else ('(none)', 0)
culprit = [k for k, _ in ranked if k.rsplit('-', 1)[0] == a.task]
t.check(top_n >= a.min_steals and top.rsplit('-', 1)[0] == a.task,
        '%s has the most steals (%d >= %d)' % (a.task, top_n, a.min_steals),
        ['%s: %d steals' % kv for kv in ranked[:5]])
mine = culprit[0] if culprit else top
# 6.1 moves a polluted block's free pages to the allocation's list with
# its first steal; since 6.10 every page taken is a steal of its own, so
# the steals are counted, not the blocks
t.check(polluting[mine] * 2 >= steals[mine],
        '%s: most of its steals polluted a block (%d of %d steals, %d distinct blocks)'
        % (mine, polluting[mine], steals[mine], len(polluted[mine])))
top_stack, top_stack_n = (stacks[mine].most_common(1) or [((), 0)])[0]
need = [alt.split('|') for alt in a.frames.split(',') if alt]
lacks = [' or '.join(alt) for alt in need if not any(f in top_stack for f in alt)]
t.check(top_stack and not lacks,
        "%s's top stack (%d of %d events) has %s" % (mine, top_stack_n,
                                                   sum(stacks[mine].values()), a.frames),
        ['lacks: %s' % ', '.join(lacks)] + ['=> %s' % f for f in top_stack])
t.check(recs and not missing, 'every steal and flip has its kernel stack (%d of %d)'
        % (len(recs) - len(missing), len(recs)), missing)

if a.fragview:
    if not a.dir:
        t.check(False, '--fragview needs DIR (the capture itself)')
    else:
        p = subprocess.run([a.fragview, 'blame', '--by', 'task', '--format', 'json',
                            '--top', '0', os.path.join(a.dir, 'trace.dat')],
                           capture_output=True, text=True)
        try:
            g = json.loads(p.stdout)['groups']
        except (ValueError, KeyError):
            g = []
        first = g[0] if g else {}
        t.check(p.returncode == 0 and first.get('key') == top and
                first.get('steals') == top_n and
                first.get('polluted') == len(polluted[top]),
                'fragview blame ranks %s first, %d steals, %d blocks polluted'
                % (top, top_n, len(polluted[top])),
                ['exit %d: %s' % (p.returncode, p.stderr.strip()),
                 'first: %s' % {k: first.get(k) for k in ('key', 'steals', 'polluted')}])
        frames = tuple(f.split('+')[0] for f in
                       ((first.get('top_stack') or {}).get('frames') or []))
        t.check(frames == top_stack, "fragview blame's top stack of %s is the report's" % top,
                ['fragview: %s' % ' '.join(frames), 'report:   %s' % ' '.join(top_stack)])
t.done()
