#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
# description: the per-folio migrate_folio events of every migrate_pages()
# call add up to what mainline's migrate:mm_migrate_pages reports for that
# call at its end.  A call's events are those of its task since the task's
# previous mm_migrate_pages (a task runs one call at a time).  Per call:
# every event has the call's reason; its mode is the call's (on 6.12 a
# synchronous call first tries its folios with MIGRATE_ASYNC, --kernel
# 6.12); nr_succeeded is the sum of 2^order of the successful events;
# nr_thp_succeeded is at most their order-9 ones (hugetlb pages are not
# counted as THPs); nr_failed at least the pages of the folios whose last
# event is a permanent failure, at most those of the folios whose last
# event failed (mm/migrate.c counts an -EAGAIN left at the last pass, and
# on -ENOMEM the -EAGAIN folios of that pass).  A task's first call may
# have begun before tracing did: its events may fall short, never exceed.
# A folio comes back on a later pass only after -EAGAIN: an event at pass
# p > 0 follows, among its folio's events in the call, an -EAGAIN at pass
# p - 1 (a split's pieces and 6.12's stages and synchronous round start
# again at pass 0, which needs no predecessor; a large folio that a
# longterm pin could not split yet is retried after -ENOMEM).  On 6.12
# a synchronous call tries a folio in its own mode only after the
# MIGRATE_ASYNC batch failed to move it (migrate_pages_sync()): such an
# event follows an unsuccessful MIGRATE_ASYNC event of its folio (hugetlb
# pages go straight to the call's mode, before any other folio: the
# call's events of order >= 9 before its first MIGRATE_ASYNC one).  In a
# call tracing joined late, such an event whose folio has no earlier
# attempt is of the batch tracing joined: the MIGRATE_ASYNC attempts
# before it fit in one batch (all but its last folio under
# NR_MAX_BATCHED_MIGRATION, 512 pages).  On 6.1 a compaction call tries
# its folios in the order of cc->migratepages, which
# isolate_migratepages_block() fills by list_add(): each pass in strictly
# descending src_pfn (the pieces of a split large folio apart).
# usage: migrations.py DIR | --report FILE  [--min-calls N] [--reasons a,b]
#        [--kernel 6.1|6.12]
from report import Tap, events, oracle_args

a = oracle_args('migrate_folio events == mm_migrate_pages per call',
                minimum=['calls'], reasons='call reasons that must occur (comma list)',
                extra=lambda p: p.add_argument('--kernel', choices=('6.1', '6.12'),
                                               default='6.1', help='the base kernel'))
t = Tap('migrations ' + a.name)
HPAGE_PMD_ORDER = 9
NR_MAX_BATCHED_MIGRATION = 512      # pages, mm/migrate.c (HPAGE_PMD_NR)
# the results that end a folio's migration in this call for good
NOT_FINAL = ('success', 'EAGAIN', 'ENOMEM', 'ENOSYS')

open_calls = {}         # pid -> migrate_folio events since its last call ended
seen = set()            # pids with a call ended: later calls are complete
calls, reasons = 0, {}
wrong_reason, wrong_mode, wrong_count, over, wrong_pass = [], [], [], [], []
wrong_order = []
folios = 0


def pages(e):
    return 1 << e.num('order')


def retried(prev, p):
    """Whether prev, a folio's previous event, sends it to pass p."""
    if not prev or prev.num('pass') != p - 1:
        return False
    return prev.f['result'] == 'EAGAIN' or (prev.f['result'] == 'ENOMEM' and prev.num('order')
                                             and prev.f['reason'] == 'longterm_pin')


def sync_without_async(e, prev, mode, complete, hugetlb_done, async_pages):
    """6.12: e is in the call's synchronous mode, yet its folio's previous
    attempt is not a failed MIGRATE_ASYNC one (prev: that attempt), or it
    has none and cannot be of the batch tracing joined (async_pages: the
    pages of the MIGRATE_ASYNC attempts before it, per folio in order)."""
    if a.kernel != '6.12' or mode == 'MIGRATE_ASYNC' or e.f['mode'] != mode:
        return False
    if e.num('order') >= HPAGE_PMD_ORDER and not hugetlb_done:
        return False
    if prev is None:
        return complete or sum(async_pages[:-1]) >= NR_MAX_BATCHED_MIGRATION
    return prev.f['mode'] == 'MIGRATE_ASYNC' and prev.f['result'] in ('success', '0')


def out_of_list_order(evs):
    """6.1 compaction: the events of one pass not in descending src_pfn,
    the pieces of a large folio that failed before apart."""
    bad, split, prev = [], [], None
    for e in evs:
        pfn, p = e.num('src_pfn'), e.num('pass')
        piece = any(lo <= pfn < hi for lo, hi in split)
        if prev and not piece and p == prev.num('pass') and pfn >= prev.num('src_pfn'):
            bad.append('%s: after %s in the same pass' % (e, prev))
        if e.num('order') and e.f['result'] not in ('success', '0'):
            split.append((pfn, pfn + pages(e)))
        if not piece:
            prev = e
    return bad


def check_call(call, evs, complete):
    """The events evs of one migrate_pages() call against its end event."""
    global folios
    mode, reason = call.f['mode'], call.f['reason']
    modes = {mode, 'MIGRATE_ASYNC'} if a.kernel == '6.12' else {mode}
    for e in evs:
        if e.f['reason'] != reason:
            wrong_reason.append('%s: in a call with reason %s' % (e, reason))
        if e.f['mode'] not in modes:
            wrong_mode.append('%s: in a call with mode %s' % (e, mode))
    ok = [e for e in evs if e.f['result'] in ('success', '0')]
    last = {}
    hugetlb_done = False    # a MIGRATE_ASYNC event ends migrate_hugetlbs()
    async_pages = {}        # src_pfn -> pages of the MIGRATE_ASYNC attempts, in order
    for e in evs:
        hugetlb_done = hugetlb_done or e.f['mode'] == 'MIGRATE_ASYNC'
        prev, p = last.get(e.num('src_pfn')), e.num('pass')
        if p and (prev or complete) and not retried(prev, p):
            wrong_pass.append('%s: pass %d after %s' % (e, p, prev or 'no earlier attempt'))
        if sync_without_async(e, prev, mode, complete, hugetlb_done, list(async_pages.values())):
            wrong_mode.append('%s: in mode %s before a failed MIGRATE_ASYNC attempt (after %s; '
                              '%d pages of MIGRATE_ASYNC attempts before it)'
                              % (e, mode, prev or 'none', sum(async_pages.values())))
        if e.f['mode'] == 'MIGRATE_ASYNC':
            async_pages[e.num('src_pfn')] = pages(e)
        last[e.num('src_pfn')] = e
    if a.kernel == '6.1' and reason == 'compaction':
        wrong_order.extend(out_of_list_order(evs))
    folios += len(last)
    failed_last = sum(pages(e) for e in last.values() if e.f['result'] not in ('success', '0'))
    failed_for_good = sum(pages(e) for e in last.values() if e.f['result'] not in NOT_FINAL)
    got = {'nr_succeeded': sum(pages(e) for e in ok),
           'nr_thp_succeeded': sum(1 for e in ok if e.num('order') == HPAGE_PMD_ORDER)}
    want = {k: call.num(k) for k in ('nr_succeeded', 'nr_thp_succeeded', 'nr_failed')}
    why = []
    if complete:
        if got['nr_succeeded'] != want['nr_succeeded']:
            why.append('successful events give %d pages' % got['nr_succeeded'])
        if not failed_for_good <= want['nr_failed'] <= failed_last:
            why.append('failed folios give %d to %d pages' % (failed_for_good, failed_last))
    elif got['nr_succeeded'] > want['nr_succeeded']:
        over.append('%s: its successful events give %d pages' % (call, got['nr_succeeded']))
    if want['nr_thp_succeeded'] > got['nr_thp_succeeded']:
        why.append('%d successful order-%d events' % (got['nr_thp_succeeded'], HPAGE_PMD_ORDER))
    if why:
        wrong_count.append('%s: %s (%d events)' % (call, '; '.join(why), len(evs)))


for e in events(a.capture, {'migrate_folio', 'mm_migrate_pages'}):
    if e.name == 'migrate_folio':
        open_calls.setdefault(e.pid, []).append(e)
        continue
    calls += 1
    reasons[e.f['reason']] = reasons.get(e.f['reason'], 0) + 1
    check_call(e, open_calls.pop(e.pid, []), e.pid in seen)
    seen.add(e.pid)

left = sum(len(v) for v in open_calls.values())
t.check(calls >= a.min_calls and (calls or not left), 'migrate_pages() calls ended '
        '(%d >= %d: %s; %d migrate_folio events of calls still running at the end)' % (
            calls, a.min_calls, ', '.join('%s %d' % kv for kv in sorted(reasons.items())), left),
        vacuous=not a.min_calls)
# the rules below over no call assert nothing: skips then
none = not calls
for r in a.reasons:
    t.check(reasons.get(r, 0) > 0, 'calls with reason %s happened (%d)' % (r, reasons.get(r, 0)))
t.check(not wrong_reason, "every migrate_folio has its call's reason", wrong_reason,
        vacuous=none)
t.check(not wrong_mode, "every migrate_folio has its call's mode%s" % (
    ' or MIGRATE_ASYNC (6.12), its own only after a failed MIGRATE_ASYNC attempt'
    if a.kernel == '6.12' else ''), wrong_mode, vacuous=none)
t.check(not wrong_count, 'per call, the successful and failed folios add up to '
        'mm_migrate_pages (%d folios)' % folios, wrong_count, vacuous=none)
t.check(not wrong_pass, 'a folio is retried at pass p > 0 only after -EAGAIN at pass p - 1',
        wrong_pass, vacuous=none)
if a.kernel == '6.1':
    t.check(not wrong_order, 'compaction tries each pass in descending src_pfn, the order '
            'isolate_migratepages_block() lists the folios', wrong_order, vacuous=none)
t.check(not over, "no task's first call has more successes than it reports", over,
        vacuous=none)
t.done()
