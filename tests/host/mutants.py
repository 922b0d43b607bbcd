#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Mutation suite: do the observers notice a capture a buggy kernel wrote?

From each committed real capture (tests/fixtures/v2-*.dat of the 6.1
series, v612-*.dat of the 6.12 one, v3-census.dat of series v3 on 6.1,
v3-compact.dat and v612-v3-compact.dat of series v3's migration events,
v612-v3-polluter.dat of its declined claims, pageblock_steal taken=0) it
makes mutants, each one defect in
the binary events, for every mobility event and every field:
  swap      the field's values of two events exchanged
  +1, -1    the field of one event shifted by one
  sym=NAME  a symbolic field of one event set to another name of its table
and for every event: drop (one event lost), dup (one event written twice),
reorder (one event exchanged with the next of its kind on its CPU).  Each
kind of mutant (event, field, operator) is made in --per-class of the
captures that have the event, so that the suite stays within minutes.
Every observer reads every mutant: `fragview check` (killed: exit status
not 0), and the oracles of tests/host/ on its `trace-cmd report` (killed:
one of them fails): fields.py, replay.py, steal_flip.py, drain.py (with
kmem:mm_page_pcpu_drain), migrations.py, migrate_pass.py.  They stop at the
first that kills it unless --all.

A mutant no observer kills must be matched by a pattern of
tests/host/equivalent-mutants.txt, which says why: no observer could tell
(an equivalent mutant), or only an oracle this tree does not have yet
could (pending).  Prints one TAP line per observer on the original
captures and per event field, the survivors, and as its last line the
score: killed / (mutants - equivalent); a pending survivor counts
against it.  Fails below --min-score (95 %) or with a survivor that file
does not explain.  The mutants are chosen by
a seeded generator: the same on every run.

usage: mutants.py [--seed N] [--captures NAME,...] [--per-class K] [--all]
                  [--score-file F] [--list] [--self-tests] [--fragview PATH]
"""
import argparse
import contextlib
import fnmatch
import io
import os
import random
import runpy
import subprocess
import sys
import tempfile
import time

import datfile

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(HERE))
FIXTURES = os.path.join(TOP, 'tests', 'fixtures')
CAPTURES = ('v2-census', 'v2-compact', 'v2-hotplug-zones', 'v2-offline', 'v2-polluter',
            'v612-fragment', 'v612-offline', 'v3-census', 'v3-compact', 'v612-v3-compact',
            'v612-v3-polluter')
# the events mutated in a capture, where not all: v612-v3-polluter is a
# default recording (no migrate_folio, which the migration oracles check
# against) kept for its declined claims
MUTATED = {'v612-v3-polluter': {'pageblock_steal', 'pageblock_flip', 'pageblock_state',
                                'pageblock_snapshot', 'pcp_drain'}}
# the report oracles (@PB@: the capture's pageblocks dump), each on the
# captures that have records of the events it needs (None: every capture)
ORACLES = (
    ('fields.py', ['--pageblocks', '@PB@'], None),
    ('replay.py', ['--pageblocks', '@PB@', '--min-flips', '0'], None),
    ('steal_flip.py', ['--min-steals', '0', '--min-claimed', '0'], None),
    ('drain.py', ['--pageblocks', '@PB@'], 'mm_page_pcpu_drain'),
    # both against migrate_folio, which a default recording (v612-v3-polluter)
    # has not
    ('migrations.py', [], ('mm_migrate_pages', 'migrate_folio')),
    ('migrate_pass.py', [], ('migrate_pass', 'migrate_folio')),
)
EVENT_OPS = ('drop', 'dup', 'reorder')
SYMBOLS_PER_FIELD = 2


class Capture:
    """A capture converted to v6, its formats and records."""

    def __init__(self, name, tmp):
        self.name = name
        self.pageblocks = os.path.join(FIXTURES, name + '.pageblocks')
        self.path = os.path.join(tmp, name + '.dat')
        datfile.convert(os.path.join(FIXTURES, name + '.dat'), self.path)
        with open(self.path, 'rb') as f:
            self.data = bytes(f.read())
        self.formats = datfile.formats(self.path)
        recs = datfile.records(self.data)
        # the mainline events present, which some oracles compare with
        kmem = {eid: name for system in ('kmem', 'migrate')
                for name, (eid, _) in datfile.formats(self.path, system).items()}
        self.kmem = {kmem[r.id] for r in recs if r.id in kmem}
        self.by_event = {}
        for ev, (eid, _) in sorted(self.formats.items()):
            rs = [r for r in recs if r.id == eid]
            if rs:
                self.by_event[ev] = rs
        self.mutated = MUTATED.get(name, set(self.by_event))


def field_mutants(cap, ev, f, seed):
    """(id, edit) of the mutants of field f of event ev in cap."""
    recs, d = cap.by_event[ev], cap.data
    vals = [f.get(d, r.at) for r in recs]
    base = '%s %s.%s' % (cap.name, ev, f.name)

    def rng(op):
        return random.Random('%d %s %s' % (seed, base, op))

    def setter(k, value):
        return lambda b: f.put(b, recs[k].at, value)
    pairs = [(i, j) for i in range(len(recs)) for j in (i + 1, len(recs) // 2, len(recs) - 1)
             if j < len(recs) and vals[i] != vals[j]][:4096]
    if pairs:
        i, j = rng('swap').choice(pairs)
        yield '%s swap @%d,%d' % (base, i, j), \
            lambda b, i=i, j=j: (setter(i, vals[j])(b), setter(j, vals[i])(b))
    for delta in (1, -1):
        k = rng(delta).randrange(len(recs))
        yield '%s %+d @%d' % (base, delta, k), setter(k, vals[k] + delta)
    if f.names:
        k = rng('sym').randrange(len(recs))
        others = sorted(v for v in f.names if v != vals[k])
        for v in rng('sym names').sample(others, min(SYMBOLS_PER_FIELD, len(others))):
            yield '%s sym=%s @%d' % (base, f.names[v], k), setter(k, v)


def event_mutants(cap, ev, seed):
    recs, d = cap.by_event[ev], cap.data
    base = '%s %s' % (cap.name, ev)

    def rng(op):
        return random.Random('%d %s %s' % (seed, base, op))
    k = rng('drop').randrange(len(recs))
    yield '%s drop @%d' % (base, k), lambda b, r=recs[k]: datfile.drop(b, r)
    room = [k for k, r in enumerate(recs) if datfile.page_slack(d, r) >= r.at + r.size - r.head]
    if room:
        k = rng('dup').choice(room)
        yield '%s dup @%d' % (base, k), lambda b, r=recs[k]: datfile.duplicate(b, r)
    # the next record of the same event on the same CPU, with other contents
    nxt = [(k, k + 1) for k in range(len(recs) - 1) if recs[k].cpu == recs[k + 1].cpu and
           d[recs[k].at:recs[k].at + recs[k].size] !=
           d[recs[k + 1].at:recs[k + 1].at + recs[k + 1].size]]
    if nxt:
        i, j = rng('reorder').choice(nxt)
        yield '%s reorder @%d,%d' % (base, i, j), \
            lambda b, p=recs[i], q=recs[j]: datfile.swap_payloads(b, p, q)


def all_mutants(caps, seed, per_class):
    """Every mutant of the kind (event, field, operator) in per_class of
    the captures that have one, chosen by the seed."""
    kinds = {}
    for cap in caps:
        for ev in sorted(cap.mutated & set(cap.by_event)):
            for f in cap.formats[ev][1]:
                for mid, edit in field_mutants(cap, ev, f, seed):
                    kinds.setdefault((ev, f.name, mid.split()[2].split('=')[0]),
                                     []).append((cap, ev, f.name, mid, edit))
            for mid, edit in event_mutants(cap, ev, seed):
                kinds.setdefault((ev, '(event)', mid.split()[2]), []).append(
                    (cap, ev, '(event)', mid, edit))
    for kind, ms in sorted(kinds.items()):
        names = sorted({m[0].name for m in ms})
        keep = set(random.Random('%d %s' % (seed, kind)).sample(
            names, min(per_class, len(names))))
        for m in ms:
            if m[0].name in keep:
                yield m


def applies(need, cap):
    """Whether an oracle needing the events of need (a name, a tuple of
    names, None) reads cap: each recorded in it."""
    needs = (need,) if isinstance(need, str) else need or ()
    return all(n in cap.kmem or n in cap.by_event for n in needs)


def run_oracle(script, argv):
    """Exit status of a tests/host oracle run in this process."""
    out = io.StringIO()
    old = sys.argv
    sys.argv = [script] + argv
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
            runpy.run_path(os.path.join(HERE, script), run_name='__main__')
        rc = 0
    except SystemExit as e:
        rc = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
    except Exception as e:      # an oracle crashing on a mutant also rejects it
        out.write('crash: %r' % e)
        rc = 1
    finally:
        sys.argv = old
    return rc, out.getvalue()


class Observers:
    def __init__(self, fragview, tmp, all_):
        self.fragview, self.tmp, self.all = fragview, tmp, all_
        self.report = os.path.join(tmp, 'report.txt')

    def names(self, cap):
        return ['fragview check'] + [o for o, _, need in ORACLES if applies(need, cap)]

    def run(self, cap, path):
        """{observer: (killed, detail)}; stops at the first kill unless all."""
        res = {}
        p = subprocess.run([self.fragview, 'check', path], capture_output=True, text=True)
        res['fragview check'] = (p.returncode != 0, (p.stdout + p.stderr).strip()[-300:])
        if res['fragview check'][0] and not self.all:
            return res
        with open(self.report, 'w') as f:
            subprocess.run(['trace-cmd', 'report', '-i', path], stdout=f,
                           stderr=subprocess.DEVNULL)
        for script, args, need in ORACLES:
            if not applies(need, cap):
                continue
            argv = ['--report', self.report, '--name', cap.name] + \
                [cap.pageblocks if a == '@PB@' else a for a in args]
            if script in ('steal_flip.py', 'migrations.py', 'migrate_pass.py') and \
                    cap.name.startswith('v612-'):
                argv += ['--kernel', '6.12']    # that base's claim rule
            rc, out = run_oracle(script, argv)
            res[script] = (rc != 0, '; '.join(l for l in out.splitlines()
                                              if l.startswith('not ok'))[:300])
            if rc and not self.all:
                break
        return res


# Every check of fields.py fails on a real capture doctored for it:
# (check, capture, edits); an edit is ('set', EVENT, WHICH, FIELD, VALUE),
# ('drop', EVENT, WHICH), ('swap', EVENT, WHICH, WHICH) or ('dump', HOW).
# WHICH: the index of a record of EVENT (negative from the end) or
# (FIELD, NAME), its first record whose FIELD prints NAME; VALUE: a
# number, '+N' added, '^N' xored, '=FIELD' that field's value, or a name.
SELFTESTS = (
    ('names', 'v2-offline', [('set', 'pageblock_flip', 5, 'old_mt', 99)]),
    ('numbers', 'v2-offline', [('set', 'pageblock_state', 3, 'free_pages', 513)]),
    ('aligned', 'v2-offline', [('set', 'pageblock_flip', 5, 'pfn', '+1')]),
    ('orders', 'v2-compact', [('set', 'pageblock_steal', 0, 'order', 11)]),
    ('counts', 'v2-offline', [('set', 'pcp_drain', 0, 'total', '+1')]),
    ('steal', 'v2-compact', [('set', 'pageblock_steal', 0, 'alloc_mt', 'HighAtomic')]),
    ('flip', 'v2-offline', [('set', 'pageblock_flip', 5, 'new_mt', '=old_mt')]),
    ('migrate', 'v2-offline', [('set', 'migrate_folio', 0, 'dst_pfn', '=src_pfn')]),
    ('gen-order', 'v2-compact', [('swap', 'pageblock_flip', 0, 1)]),
    ('gen-gaps', 'v2-compact', [('set', 'pageblock_flip', -1, 'gen', '+5')]),
    ('snapshot', 'v2-offline', [('drop', 'pageblock_state', 700)]),
    ('snap-gen', 'v2-offline', [('set', 'pageblock_state', 3, 'gen', '+1000')]),
    # the second snapshot's begin of node 0, older than that zone's flips
    # a second before it (its states' gens still lie between begin and end)
    ('snap-gen', 'v2-compact', [('set', 'pageblock_snapshot', 4, 'gen', 0)]),
    # a census before the first snapshot, of a block no flip touches
    ('types', 'v3-census', [('set', 'pageblock_census', 0, 'mt', 'Reclaimable')]),
    ('zones', 'v2-offline', [('set', 'pageblock_state', 0, 'nid', 1)]),
    ('span', 'v2-offline', [('set', 'pageblock_state', 97, 'pfn', '+0x200')]),
    ('where', 'v2-offline', [('set', 'pcp_drain', 0, 'nid', 5)]),
    ('types', 'v2-offline', [('set', 'migrate_folio', 0, 'src_mt', 'Movable')]),
    ('cpu', 'v2-offline', [('set', 'pcp_drain', ('reason', 'free_high'), 'cpu', '^1')]),
    ('cpu', 'v2-offline', [('set', 'pcp_drain', ('reason', 'all'), 'cpu', '^1'),
                           ('set', 'pcp_drain', ('reason', 'all'), 'reason', 'cpu_dead')]),
    ('census', 'v612-offline', [('drop', 'pageblock_census', 5)]),
    ('census-pages', 'v612-offline', [('set', 'pageblock_census', 5, 'lru', '+1')]),
    ('dump', 'v2-offline', [('dump', 'repeat a block line')]),
)


def doctor(cap, edits, b, dump):
    """Apply SELFTESTS edits to b (the capture) and dump (its lines)."""
    def rec(ev, which):
        recs = cap.by_event[ev]
        if isinstance(which, tuple):
            f = field_of(cap, ev, which[0])
            return next(r for r in recs if f.names.get(f.get(b, r.at)) == which[1])
        return recs[which]

    def field_of(cap, ev, name):
        return next(f for f in cap.formats[ev][1] if f.name == name)
    for e in edits:
        if e[0] == 'set':
            _, ev, which, name, value = e
            r, f = rec(ev, which), field_of(cap, ev, name)
            old = f.get(b, r.at)
            if isinstance(value, str) and value[0] in '+^=':
                arg = value[1:]
                value = old + int(arg, 0) if value[0] == '+' else \
                    old ^ int(arg, 0) if value[0] == '^' else \
                    field_of(cap, ev, arg).get(b, r.at)
            elif isinstance(value, str):
                value = next(v for v, n in f.names.items() if n == value)
            f.put(b, r.at, value)
        elif e[0] == 'drop':
            datfile.drop(b, rec(e[1], e[2]))
        elif e[0] == 'swap':
            datfile.swap_payloads(b, rec(e[1], e[2]), rec(e[1], e[3]))
        else:
            i = next(i for i, l in enumerate(dump) if l.startswith('0x'))
            dump.insert(i + 1, dump[i])


def read_equivalents(path):
    """[(kind, pattern, reason)] of the lines 'KIND PATTERN -- REASON':
    KIND equivalent (no observer could tell: out of the score) or pending
    (an observer could, none here does yet: a survivor, explained)."""
    out = []
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith('#'):
                continue
            head, sep, why = line.partition(' -- ')
            kind, _, pat = head.partition(' ')
            if not sep or kind not in ('equivalent', 'pending') or not why.strip():
                raise SystemExit('%s:%d: want KIND PATTERN -- REASON' % (path, n))
            out.append((kind, pat.strip(), why.strip()))
    return out


def selftest(caps, obs, tmp, tap):
    """Each check of fields.py fails, by name, on its doctored capture."""
    import fields
    names = dict(fields.CHECKS)
    by_name = {c.name: c for c in caps}
    for check, name, edits in SELFTESTS:
        cap = by_name.get(name)
        if cap is None:
            continue
        b = bytearray(cap.data)
        with open(cap.pageblocks) as f:
            dump = f.read().splitlines()
        doctor(cap, edits, b, dump)
        path, pb = os.path.join(tmp, 'doctored.dat'), os.path.join(tmp, 'doctored.pageblocks')
        with open(path, 'wb') as f:
            f.write(b)
        with open(pb, 'w') as f:
            f.write('\n'.join(dump) + '\n')
        with open(obs.report, 'w') as f:
            subprocess.run(['trace-cmd', 'report', '-i', path], stdout=f,
                           stderr=subprocess.DEVNULL)
        rc, out = run_oracle('fields.py', ['--report', obs.report, '--pageblocks', pb,
                                           '--name', name])
        hit = [l for l in out.splitlines() if l.startswith('not ok') and names[check] in l]
        tap(rc == 1 and hit, 'fields.py check %s fails on %s doctored: %s' %
            (check, name, edits), [] if hit else out.splitlines()[-12:])


def main():
    p = argparse.ArgumentParser(description='mutation suite over the real captures')
    p.add_argument('--seed', type=int, default=20261204)
    p.add_argument('--captures', default=','.join(CAPTURES))
    p.add_argument('--all', action='store_true', help='run every observer on every mutant')
    p.add_argument('--per-class', type=int, default=1,
                   help='captures per kind of mutant (event, field, operator)')
    p.add_argument('--min-score', type=float, default=95.0)
    p.add_argument('--score-file', default=os.path.join(TOP, 'out', 'tests',
                                                        'mutation-score.txt'))
    p.add_argument('--equivalents', default=os.path.join(HERE, 'equivalent-mutants.txt'))
    p.add_argument('--fragview', default=os.path.join(TOP, 'tools', 'fragview', 'fragview'))
    p.add_argument('--list', action='store_true', help='list the mutants, run nothing')
    p.add_argument('--self-tests', action='store_true',
                   help='only the observers on the captures and the self-tests')
    a = p.parse_args()
    start = time.time()
    n = bad = 0

    def tap(ok, what, detail=()):
        nonlocal n, bad
        n += 1
        bad += not ok
        print('%s %d - %s' % ('ok' if ok else 'not ok', n, what))
        for d in detail:
            print('#   %s' % d)

    equivalents = read_equivalents(a.equivalents)
    with tempfile.TemporaryDirectory() as tmp:
        caps = [Capture(c, tmp) for c in a.captures.split(',') if c]
        if a.list:
            for _, _, _, mid, _ in all_mutants(caps, a.seed, a.per_class):
                print(mid)
            return 0
        obs = Observers(a.fragview, tmp, a.all)
        # every observer accepts every original capture: else it kills nothing
        for cap in caps:
            obs.all = True
            res = obs.run(cap, cap.path)
            obs.all = a.all
            for name in obs.names(cap):
                killed, why = res[name]
                tap(not killed, '%s accepts the real capture %s' % (name, cap.name),
                    [why] if killed else ())
        if bad:
            print('mutation score: not measured, an observer rejects a real capture')
            return 1
        selftest(caps, obs, tmp, tap)
        if a.self_tests:
            print('%d passed, %d failed' % (n - bad, bad))
            return 1 if bad else 0
        path = os.path.join(tmp, 'mutant.dat')
        rows = {}           # (event, field) -> [killed, equivalent, survivors, by observer]
        killers = {}
        survivors, pending = [], []
        total = killed = equiv = 0
        for cap, ev, field, mid, edit in all_mutants(caps, a.seed, a.per_class):
            b = bytearray(cap.data)
            edit(b)
            if b == cap.data:
                continue        # no defect: nothing to detect
            with open(path, 'wb') as f:
                f.write(b)
            res = obs.run(cap, path)
            row = rows.setdefault((ev, field), [0, 0, 0, 0])
            row[3] += 1
            total += 1
            who = [o for o, (k, _) in res.items() if k]
            if who:
                killed += 1
                row[0] += 1
                killers[who[0]] = killers.get(who[0], 0) + 1
                continue
            kind = next((k for k, pat, _ in equivalents if fnmatch.fnmatchcase(mid, pat)), None)
            if kind == 'equivalent':
                equiv += 1
                row[1] += 1
                continue
            row[2] += 1
            if kind == 'pending':
                pending.append(mid)
            else:
                survivors.append(mid)
        for (ev, field), (k, e, s, t) in sorted(rows.items()):
            mine = [m for m in survivors + pending
                    if ' %s.%s ' % (ev, field) in m or (field == '(event)' and ' %s ' % ev in m)]
            tap(not set(mine) & set(survivors),
                'mutants of %s.%s: %d of %d killed, %d equivalent, %d survive' %
                (ev, field, k, t, e, s), [m + (' (pending)' if m in pending else '')
                                          for m in mine])
        score = 100.0 * killed / max(1, total - equiv)
        print('# killed first by: %s' % ', '.join('%s %d' % kv for kv in sorted(killers.items())))
        print('# %d mutants of %d captures in %.0f s, seed %d' %
              (total, len(caps), time.time() - start, a.seed))
        tap(score >= a.min_score, 'score %.1f %% >= %.1f %%' % (score, a.min_score))
        tap(not survivors, 'every survivor is listed in %s (%d pending an oracle)' %
            (os.path.basename(a.equivalents), len(pending)), survivors)
    line = ('mutation score: %.1f %% (%d killed of %d mutants, %d equivalent, %d survivors '
            'pending an oracle)' % (score, killed, total, equiv, len(pending)))
    os.makedirs(os.path.dirname(os.path.abspath(a.score_file)), exist_ok=True)
    with open(a.score_file, 'w') as f:
        f.write(line + '\n')
    print('%d passed, %d failed' % (n - bad, bad))
    print(line)
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
