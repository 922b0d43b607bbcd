#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
# description: the default recording's migration events say what
# migrate_folio says, on a capture that has all three (the guest tests
# record migrate_folio on purpose).  Per task, in order: the
# migrate_folio_failed records are exactly its migrate_folio records whose
# result is not success, field for field; a migrate_pass ends the pass its
# task's migrate_folio events since its previous migrate_pass (or call end)
# belong to: nr_succeeded is the pages of their successes, nr_retry those
# of their EAGAINs, nr_failed at least those of their permanent failures
# (not ENOSYS or ENOMEM: a large folio that splits is not failed) and at
# most those of all their failures (on 6.12 an unmap pass cut short by
# -ENOMEM is not reported: its attempts up to the ENOMEM count in no
# pass); the events of a pass have the pass's
# stage (hugetlb: order >= 9 hugetlb pages, which migrate first; no
# unmap_move on 6.12, no unmap/move on 6.1), number, mode and reason; a
# pass p > 0 follows the same stage's pass p - 1, a first pass the stage
# before it (hugetlb passes first in a call; on 6.12 a batch's move stage
# right after its unmap stage, unless -ENOMEM cut that short, its unmap
# stage after the call's start, a hugetlb pass or a move stage); and per migrate_pages() call
# (migrate:mm_migrate_pages ends it) its passes have its reason and mode
# (on 6.12 or MIGRATE_ASYNC: a synchronous call's first try), and moved the pages it
# reports moved, a call with an ENOMEM attempt aside (the pass it cut is
# not reported: only such a pass's attempts may follow a call's last
# migrate_pass).  A task's first call may have begun before tracing did: its
# first pass is not checked.
# usage: migrate_pass.py DIR | --report FILE [--min-passes N]
#        [--kernel 6.1|6.12]
from report import Tap, events, oracle_args

a = oracle_args('migrate_folio_failed and migrate_pass against migrate_folio',
                minimum=['passes'],
                extra=lambda p: p.add_argument('--kernel', choices=('6.1', '6.12'),
                                               default='6.1', help='the base kernel'))
t = Tap('migrate_pass ' + a.name)
STAGES = {'6.1': ('hugetlb', 'unmap_move'), '6.12': ('hugetlb', 'unmap', 'move')}
OK = ('success', '0')
FIELDS = ('src_pfn', 'dst_pfn', 'order', 'result', 'mode', 'reason', 'pass',
          'src_mt', 'dst_mt')

folio_fails = {}        # pid -> failed migrate_folio records not yet matched
unmatched, wrong_fail = [], []
segment = {}            # pid -> migrate_folio events since its last pass/call end
complete = set()        # pids whose segments began after tracing did
last_pass = {}          # pid -> its previous migrate_pass in this call
call_passes = {}        # pid -> its migrate_pass events in this call
# the stages a stage's first pass may follow (None: the call's start)
FIRST_AFTER = {'hugetlb': (None, 'hugetlb'), 'unmap_move': (None, 'hugetlb', 'unmap_move'),
               'unmap': (None, 'hugetlb', 'move'), 'move': ('unmap',)}
call_moved = {}         # pid -> pages its passes moved in this call
call_nomem = set()      # pids whose call had an ENOMEM attempt
calls_ended = set()     # pids with a call ended: their later calls are whole
wrong_count, wrong_stage, wrong_seq, wrong_call = [], [], [], []
passes = folios = fails = calls = 0


def pages(e):
    return 1 << e.num('order')


def on_failed(e):
    """A migrate_folio_failed record: the next failed migrate_folio of its task."""
    global fails
    fails += 1
    pending = folio_fails.get(e.pid, [])
    if not pending:
        unmatched.append('%s: no failed migrate_folio before it' % e)
        return
    f = pending.pop(0)
    diff = [k for k in FIELDS if f.f.get(k) != e.f.get(k)]
    if diff:
        wrong_fail.append('%s: differs from %s in %s' % (e, f, ', '.join(diff)))


def on_pass(p):
    global passes
    passes += 1
    evs = segment.pop(p.pid, [])
    checked = p.pid in complete
    complete.add(p.pid)
    stage, n = p.f['stage'], p.num('pass')
    if stage not in STAGES[a.kernel]:
        wrong_stage.append('%s: stage %s on %s' % (p, stage, a.kernel))
    prev = last_pass.get(p.pid)
    if n and checked and not (prev and prev.f['stage'] == stage and prev.num('pass') == n - 1):
        wrong_seq.append('%s: after %s' % (p, prev or 'no pass of its call'))
    # (an unmap pass cut short by -ENOMEM goes on to the move stage unreported)
    cut = any(e.f['result'] == 'ENOMEM' for e in evs)
    if not n and checked and stage in FIRST_AFTER and not cut and \
            (prev.f['stage'] if prev else None) not in FIRST_AFTER[stage]:
        wrong_seq.append('%s: a first pass after %s' % (p, prev or 'the call\'s start'))
    last_pass[p.pid] = p
    call_passes.setdefault(p.pid, []).append(p)
    call_moved[p.pid] = call_moved.get(p.pid, 0) + p.num('nr_succeeded')
    for e in evs:
        if (e.num('pass') != n or e.f['mode'] != p.f['mode'] or
                e.f['reason'] != p.f['reason']):
            wrong_stage.append('%s: in %s' % (e, p))
        if stage == 'hugetlb' and e.num('order') < 9:
            wrong_stage.append('%s: an order-%d folio in %s' % (e, e.num('order'), p))
    if not checked:
        return
    # 6.12: an unmap pass cut short by -ENOMEM goes on to the move stage
    # unreported; its attempts up to the ENOMEM (folios freed under it
    # succeed there) are in no pass's counts, only in the call's
    last_nomem = max((i for i, e in enumerate(evs) if e.f['result'] == 'ENOMEM'), default=-1)
    evs = evs[last_nomem + 1:]
    ok = sum(pages(e) for e in evs if e.f['result'] in OK)
    again = sum(pages(e) for e in evs if e.f['result'] == 'EAGAIN')
    failed_any = sum(pages(e) for e in evs if e.f['result'] not in OK + ('EAGAIN',))
    failed_good = sum(pages(e) for e in evs
                      if e.f['result'] not in OK + ('EAGAIN', 'ENOSYS', 'ENOMEM'))
    why = []
    if p.num('nr_succeeded') != ok:
        why.append('%d pages of successes' % ok)
    if p.num('nr_retry') != again:
        why.append('%d pages of EAGAIN' % again)
    if not failed_good <= p.num('nr_failed') <= failed_any:
        why.append('%d to %d pages of failures' % (failed_good, failed_any))
    if why:
        wrong_count.append('%s: its %d migrate_folio events give %s'
                           % (p, len(evs), '; '.join(why)))


def on_call(c):
    global calls
    calls += 1
    evs = segment.pop(c.pid, [])
    whole = c.pid in calls_ended
    # only a pass cut short by -ENOMEM ends without its migrate_pass
    if evs and whole and evs[-1].f['result'] != 'ENOMEM':
        wrong_call.append('%s: %d migrate_folio events after its last migrate_pass'
                          % (c, len(evs)))
    moved = call_moved.pop(c.pid, 0)
    if whole and c.pid not in call_nomem and moved != c.num('nr_succeeded'):
        wrong_call.append('%s: its passes moved %d pages' % (c, moved))
    modes = {c.f['mode'], 'MIGRATE_ASYNC'} if a.kernel == '6.12' else {c.f['mode']}
    for p in call_passes.pop(c.pid, []):
        if whole and (p.f['reason'] != c.f['reason'] or p.f['mode'] not in modes):
            wrong_call.append('%s: in %s' % (p, c))
    call_nomem.discard(c.pid)
    last_pass.pop(c.pid, None)
    complete.add(c.pid)
    calls_ended.add(c.pid)


for e in events(a.capture, {'migrate_folio', 'migrate_folio_failed', 'migrate_pass',
                            'mm_migrate_pages'}):
    if e.name == 'migrate_folio':
        folios += 1
        segment.setdefault(e.pid, []).append(e)
        if e.f['result'] == 'ENOMEM':
            call_nomem.add(e.pid)
        if e.f['result'] not in OK:
            folio_fails.setdefault(e.pid, []).append(e)
    elif e.name == 'migrate_folio_failed':
        on_failed(e)
    elif e.name == 'migrate_pass':
        on_pass(e)
    else:
        on_call(e)

left = [f for v in folio_fails.values() for f in v]
t.check(passes >= a.min_passes, 'migrate_pass events (%d >= %d; %d migrate_folio, '
        '%d migrate_folio_failed, %d calls)' % (passes, a.min_passes, folios, fails, calls),
        vacuous=not a.min_passes)
t.check(folios or not (fails or passes), 'the capture has migrate_folio to check them '
        'against (%d events)' % folios)
none = not folios
t.check(not unmatched and not wrong_fail and not left,
        'migrate_folio_failed is exactly the failed migrate_folio records (%d), field '
        'for field' % fails, unmatched + wrong_fail +
        ['%s: no migrate_folio_failed after it' % f for f in left], vacuous=none)
t.check(not wrong_count, 'each migrate_pass counts the pages of its pass\'s successes, '
        'EAGAINs and failures', wrong_count, vacuous=not passes)
t.check(not wrong_stage, 'each pass\'s attempts have its number, mode and reason, and '
        'its stage is one of %s' % '/'.join(STAGES[a.kernel]), wrong_stage,
        vacuous=not passes)
t.check(not wrong_seq, 'a pass p > 0 follows pass p - 1 of the same stage, a pass 0 '
        'the stage before it', wrong_seq, vacuous=not passes)
t.check(not wrong_call, 'per call, the passes have its reason and mode and moved what '
        'mm_migrate_pages reports, and no attempt comes after the last pass', wrong_call,
        vacuous=not calls)
t.done()
