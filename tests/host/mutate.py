#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Doctor a saved `trace-cmd report` the way a buggy kernel would have
written it, for tests/host/negative.sh:

    mutate.py DEFECT IN OUT [SIDE_IN SIDE_OUT]

IN is a report (plain or .gz), OUT the doctored text; SIDE_* a scenario
file some defects change too (movepages output).  Every defect changes at
least one line, or mutate.py fails: a no-op mutation must not pass as caught.
"""
import gzip
import re
import sys


def lines_of(path):
    op = gzip.open if path.endswith('.gz') else open
    with op(path, 'rt') as f:
        return f.read().splitlines()


EV = re.compile(r'\[(\d+)\]\s+\S*\s*\d+\.\d+:\s+(\w+):')


def ev(line):
    m = EV.search(line)
    return m.group(2) if m else None


def field(line, key):
    m = re.search(r'\b%s=(\S+)' % key, line)
    return m.group(1) if m else None


def setf(line, key, value):
    return re.sub(r'\b%s=\S+' % key, '%s=%s' % (key, value), line, count=1)


def drop_one_flip(L, side):
    i = next(i for i, l in enumerate(L) if ev(l) == 'pageblock_flip')
    return L[:i] + L[i + 1:]


def no_flips(L, side):
    """A kernel that never flips, on a scenario whose map ends as it began."""
    seqs = [int(field(l, 'seq')) for l in L if ev(l) == 'pageblock_state']
    first, base = min(seqs), {}
    out = []
    for l in L:
        if ev(l) == 'pageblock_flip':
            continue
        if ev(l) == 'pageblock_state':
            if int(field(l, 'seq')) == first:
                base[field(l, 'pfn')] = field(l, 'mt')
            else:
                l = setf(l, 'mt', base.get(field(l, 'pfn'), field(l, 'mt')))
        out.append(l)
    return out


def truncated_snapshot(L, side):
    """The ring buffer lost the end of the last snapshot (64 blocks)."""
    idx = [i for i, l in enumerate(L) if ev(l) == 'pageblock_state']
    last = field(L[idx[-1]], 'seq')
    drop = set([i for i in idx if field(L[i], 'seq') == last][-64:])
    return [l for i, l in enumerate(L) if i not in drop]


def block_mt_is_alloc_mt(L, side):
    """No steal flip, and each steal says its block already had alloc_mt."""
    out = []
    for l in L:
        if ev(l) == 'pageblock_flip' and field(l, 'reason') == 'steal':
            continue
        if ev(l) == 'pageblock_steal':
            l = setf(l, 'block_mt', field(l, 'alloc_mt'))
        out.append(l)
    return out


def drop_drains_but_first(L, side):
    seen, out = set(), []
    for l in L:
        if ev(l) == 'pcp_drain':
            cpu = EV.search(l).group(1)
            if cpu in seen:
                continue
            seen.add(cpu)
        out.append(l)
    return out


def drain_wrong_node(L, side):
    i = next(i for i, l in enumerate(L) if ev(l) == 'pcp_drain')
    L = list(L)
    L[i] = setf(L[i], 'nid', 1 - int(field(L[i], 'nid')))
    return L


def drain_wrong_cpu(L, side):
    i = next(i for i, l in enumerate(L) if ev(l) == 'pcp_drain' and
             field(l, 'reason') in ('free_high', 'vmstat', 'local'))
    L = list(L)
    L[i] = setf(L[i], 'cpu', 1 - int(field(L[i], 'cpu')))
    return L


def _first_drain(L, reason):
    return next(i for i, l in enumerate(L) if ev(l) == 'pcp_drain' and field(l, 'reason') == reason)


def drain_dead_cpu_as_running(L, side):
    """A drain of a dead CPU's lists (cpu_dead) that reports the CPU
    running it."""
    L = list(L)
    i = _first_drain(L, 'cpu_dead')
    L[i] = setf(L[i], 'cpu', EV.search(L[i]).group(1))
    return L


def drain_all_as_cpu_dead(L, side):
    """One batch of a drain_all_pages() of a CPU reported as cpu_dead,
    while that CPU's lists are drained again right after as all, with the
    CPU recording nothing in between (it was never offline)."""
    L = list(L)
    for i, l in enumerate(L):
        if ev(l) != 'pcp_drain' or field(l, 'reason') != 'all':
            continue
        cpu = field(l, 'cpu')
        for m in L[i + 1:]:
            if EV.search(m) and EV.search(m).group(1).lstrip('0') == cpu.lstrip('0'):
                break
            if ev(m) == 'pcp_drain' and field(m, 'cpu') == cpu:
                L[i] = setf(l, 'reason', 'cpu_dead')
                return L
    raise SystemExit('mutate.py: no drain of a CPU followed by another of it')


def _marked_online(L, cpu_of):
    """drain_all_as_cpu_dead, then the scenario's trace_marker line saying
    CPU cpu_of(cpu) is coming online, right after the cpu_dead drain."""
    L = drain_all_as_cpu_dead(L, side=None)
    i = next(i for i, l in enumerate(L) if ev(l) == 'pcp_drain' and
             field(l, 'reason') == 'cpu_dead')
    head = L[i].split(':')[0].rsplit(' ', 1)[0]
    cpu = cpu_of(int(field(L[i], 'cpu')))
    L.insert(i + 1, '%s %s: print:                tracing_mark_write: '
             'fragview_cpu: cpu=%d online' % (head, field_ts(L[i]), cpu))
    return L


def field_ts(line):
    return re.search(r'(\d+\.\d+):', line).group(1)


def cpu_marked_online(L, side):
    """A CPU whose lists a cpu_dead drain emptied, then marked coming
    online (drain.sh's trace_marker) and drained by drain_all_pages()
    before it records an event: a correct kernel writes this."""
    return _marked_online(L, lambda cpu: cpu)


def other_cpu_marked_online(L, side):
    """drain_all_as_cpu_dead with a marker naming another CPU coming
    online: it excuses nothing."""
    return _marked_online(L, lambda cpu: cpu + 7)


def _task_free_high_as(L, reason):
    """The first free_high drain run by a task (not a kworker), as reason."""
    L = list(L)
    i = next(i for i, l in enumerate(L) if ev(l) == 'pcp_drain' and
             field(l, 'reason') == 'free_high' and 'kworker/' not in l.split('[')[0])
    L[i] = setf(L[i], 'reason', reason)
    return L


def drain_free_high_as_vmstat(L, side):
    """A drain of a list gone above its high mark, in a task freeing
    pages, reported as the vmstat worker's."""
    return _task_free_high_as(L, 'vmstat')


def drain_free_high_as_decay(L, side):
    """A drain of a list gone above its high mark, in a task freeing
    pages, reported as the vmstat worker's decay_pcp_high() trim."""
    return _task_free_high_as(L, 'decay')


def drain_decay_as_vmstat(L, side):
    """6.12's decay_pcp_high() trims, of the CPU's own lists of its own
    node's zones too, reported as vmstat (as series v3 did before decay)."""
    return [setf(l, 'reason', 'vmstat') if ev(l) == 'pcp_drain' and
            field(l, 'reason') == 'decay' else l for l in L]


def drain_on_missing_cpu(L, side):
    """A drain of all CPUs' lists (reason all) naming a CPU the machine
    does not have."""
    L = list(L)
    i = _first_drain(L, 'all')
    L[i] = setf(L[i], 'cpu', _recorded_cpus(L))
    return L


def _recorded_cpus(L):
    return 1 + max(int(EV.search(l).group(1)) for l in L if EV.search(l))


def drain_past_cpus_header(L, side):
    """With trace-cmd's "cpus=N" line, a drain of all CPUs' lists naming
    CPU N: one past the last CPU of the capture."""
    n = _recorded_cpus(L)
    L = ['cpus=%d' % n] + list(L)
    i = _first_drain(L, 'all')
    L[i] = setf(L[i], 'cpu', n)
    return L


def cpus_header_short(L, side):
    """A "cpus=N" line with fewer CPUs than recorded events."""
    return ['cpus=%d' % (_recorded_cpus(L) - 1)] + list(L)


def idle_cpu_drained(L, side):
    """Not a defect: drain_all() empties the lists of a CPU of the capture
    that recorded no event (cpus=N names one more CPU than recorded)."""
    n = _recorded_cpus(L)
    L = ['cpus=%d' % (n + 1)] + list(L)
    i = _first_drain(L, 'all')
    L[i] = setf(L[i], 'cpu', n)
    return L


def _steal(L, claimed):
    """A fallback taken (not a declined claim) below pageblock order."""
    return next(i for i, l in enumerate(L) if ev(l) == 'pageblock_steal' and
                field(l, 'claimed') == claimed and field(l, 'taken') != '0' and
                int(field(l, 'fallback_order')) < 9)


def _declined(L):
    """A claim declined (taken=0, 6.12) below pageblock order."""
    return next(i for i, l in enumerate(L) if ev(l) == 'pageblock_steal' and
                field(l, 'taken') == '0' and int(field(l, 'fallback_order')) < 9)


def _cpu(line):
    return EV.search(line).group(1)


def _next_on_cpu(L, i, name):
    """Index of the first NAME event after L[i] on L[i]'s CPU."""
    return next(j for j in range(i + 1, len(L)) if ev(L[j]) == name and
                _cpu(L[j]) == _cpu(L[i]))


def declined_claimed(L, side):
    """A declined claim (taken=0) that says it claimed the block."""
    L = list(L)
    i = _declined(L)
    L[i] = setf(L[i], 'claimed', 1)
    return L


def declined_with_enough(L, side):
    """A claim declined with more than half a block free: the kernel
    claims that block."""
    L = list(L)
    i = _declined(L)
    L[i] = setf(setf(L[i], 'free_moved', 300), 'alike', 0)
    return L


def declined_on_61(L, side):
    """6.1 reporting a steal as a declined claim (taken=0): its
    steal_suitable_fallback() takes the page with every decision."""
    L = list(L)
    i = _steal(L, '0')
    L[i] = L[i].replace(' taken=1', ' taken=0')
    return L


def _taken_after_decline(L):
    """Index of the first fallback taken (taken=1) right after a declined
    claim on its CPU: the end of that allocation's tries."""
    for i, l in enumerate(L):
        if ev(l) == 'pageblock_steal' and field(l, 'taken') == '0' and \
                int(field(l, 'fallback_order')) < 9:
            j = _next_on_cpu(L, i, 'pageblock_steal')
            if field(L[j], 'taken') == '1':
                return j
    raise SystemExit('mutate.py: no declined claim followed by a steal')


def steal_as_declined(L, side):
    """The steal or claim ending an allocation's declined claims reported
    as another declined claim: a fallback taken with no event saying so."""
    L = list(L)
    i = _taken_after_decline(L)
    L[i] = L[i].replace(' taken=1', ' taken=0')
    return L


def declined_unfollowed(L, side):
    """A declined claim whose allocation's steal was lost (its extfrag
    stays)."""
    L = list(L)
    i = _taken_after_decline(L)
    return L[:i] + L[i + 1:]


def declined_twice(L, side):
    """A declined claim written twice: __rmqueue_claim() tries one
    candidate per fallback order."""
    L = list(L)
    i = _declined(L)
    return L[:i + 1] + [L[i]] + L[i + 1:]


def declined_other_order(L, side):
    """A declined claim of another allocation order than the steal that
    follows it."""
    L = list(L)
    i = _declined(L)
    L[i] = setf(L[i], 'order', int(field(L[i], 'order')) + 1)
    return L


def claim_below_half(L, side):
    """A block claimed although its free and alike pages are far from
    half a block."""
    L = list(L)
    i = _steal(L, '1')
    L[i] = setf(setf(L[i], 'free_moved', 10), 'alike', 0)
    return L


def highatomic_claimed(L, side):
    """A steal from a HighAtomic block (6.1: a race with a reservation,
    which moves the page alone) reported as claiming the block."""
    L = list(L)
    i = _steal(L, '1')
    L[i] = setf(L[i], 'block_mt', 'HighAtomic')
    return L


def unclaimed_above_half(L, side):
    """A steal that moved most of a block's pages and did not claim it."""
    L = list(L)
    i = _steal(L, '0')
    L[i] = setf(setf(L[i], 'free_moved', 400), 'alike', 0)
    return L




def _migrate_fail(L):
    return next(i for i, l in enumerate(L) if ev(l) == 'migrate_folio' and
                field(l, 'result') not in ('success', 'EAGAIN'))


def migration_failure_as_success(L, side):
    """A migration that failed for good (-ENOMEM, -EBUSY, ...) reported as
    a success."""
    L = list(L)
    i = _migrate_fail(L)
    L[i] = setf(L[i], 'result', 'success')
    return L


def _first_migration_other(L, key, name, instead):
    """The first migrate_folio's key printed as name (instead if it was)."""
    L = list(L)
    i = next(i for i, l in enumerate(L) if ev(l) == 'migrate_folio')
    L[i] = setf(L[i], key, name if field(L[i], key) != name else instead)
    return L


def migration_wrong_mode(L, side):
    """One attempt reports a mode its migrate_pages() call never used."""
    return _first_migration_other(L, 'mode', 'MIGRATE_SYNC', 'MIGRATE_SYNC_LIGHT')


def migration_wrong_reason(L, side):
    """One attempt reports another reason than its call's."""
    return _first_migration_other(L, 'reason', 'numa_misplaced', 'compaction')


PID = re.compile(r'-(\d+)\s+\[')


def _seen_call_index(L, event, want):
    """The index of the first EVENT line for which want(line) holds in a
    call tracing saw from its start (its task ended one before)."""
    ended = set()
    for i, l in enumerate(L):
        pid = PID.search(l).group(1) if PID.search(l) else None
        if ev(l) == 'mm_migrate_pages':
            ended.add(pid)
        elif ev(l) == event and pid in ended and want(l):
            return i
    raise SystemExit('mutate.py: no %s in a call seen whole' % event)


def _in_seen_call(L, want):
    """The first migrate_folio, with its call's end, of a call tracing saw
    from its start (its task ended one before) for which want(line) holds."""
    i = _seen_call_index(L, 'migrate_folio', want)
    pid = PID.search(L[i]).group(1)
    end = next(m for m in L[i:] if ev(m) == 'mm_migrate_pages' and
               PID.search(m).group(1) == pid)
    return i, end


def migration_pass_without_retry(L, side):
    """A first attempt reported at pass 1: the pass counter of a call that
    tracing saw from its start runs ahead."""
    i, _ = _in_seen_call(L, lambda l: field(l, 'pass') == '0')
    return L[:i] + [setf(L[i], 'pass', 1)] + L[i + 1:]


def migration_sync_before_async(L, side):
    """6.12: an attempt of the MIGRATE_ASYNC batch of a synchronous call
    reported in the call's own mode, as if the batch had been skipped."""
    i, end = _in_seen_call(L, lambda l: field(l, 'mode') == 'MIGRATE_ASYNC')
    return L[:i] + [setf(L[i], 'mode', field(end, 'mode'))] + L[i + 1:]



def migration_sync_unbatched(L, side):
    """6.12: in a call tracing joined late, an attempt reported in the
    call's own mode with no MIGRATE_ASYNC attempt of its folio, after more
    MIGRATE_ASYNC attempts than one batch holds: it cannot be of the batch
    whose MIGRATE_ASYNC round tracing missed."""
    ended, seen_async = set(), {}
    for i, l in enumerate(L):
        pid = PID.search(l).group(1) if PID.search(l) else None
        if ev(l) == 'mm_migrate_pages':
            ended.add(pid)
            seen_async.pop(pid, None)
        elif ev(l) == 'migrate_folio' and pid not in ended and \
                field(l, 'mode') == 'MIGRATE_ASYNC':
            got = seen_async.setdefault(pid, [])
            if sum(got[:-1]) >= 512:
                end = next(m for m in L[i:] if ev(m) == 'mm_migrate_pages' and
                           PID.search(m).group(1) == pid)
                return L[:i] + [setf(l, 'mode', field(end, 'mode'))] + L[i + 1:]
            got.append(1 << int(field(l, 'order')))
    raise SystemExit('mutate.py: no call joined late with more than a batch')


def migration_out_of_list_order(L, side):
    """6.1: two attempts of one compaction pass exchanged, against the
    order of cc->migratepages."""
    L = list(L)
    for i, l in enumerate(L[:-1]):
        m = L[i + 1]
        if ev(l) == ev(m) == 'migrate_folio' and field(l, 'reason') == 'compaction' and \
                PID.search(l).group(1) == PID.search(m).group(1) and \
                field(l, 'pass') == field(m, 'pass') and field(l, 'order') == field(m, 'order'):
            L[i], L[i + 1] = EV_TAIL.sub(tail(m), l), EV_TAIL.sub(tail(l), m)
            return L
    raise SystemExit('mutate.py: no two attempts of one compaction pass')


EV_TAIL = re.compile(r'(?<=migrate_folio:).*$')


def tail(line):
    return EV_TAIL.search(line).group(0)


def extfrag_wrong_order(L, side):
    """mm_page_alloc_extfrag and pageblock_steal disagree on the fallback
    order of one steal."""
    L = list(L)
    i = next(i for i, l in enumerate(L) if ev(l) == 'pageblock_steal' and
             int(field(l, 'fallback_order')) < 9)
    L[i] = setf(L[i], 'fallback_order', int(field(L[i], 'fallback_order')) ^ 1)
    return L


def dup_success(L, side):
    """The first successful migration of a moved page is reported twice."""
    i = _moved_success(L, side)
    return L[:i + 1] + L[i:]


def missing_failure(L, side):
    """One page ends off its target: the program says so, the kernel
    reports its successful move and no failure."""
    for k, s in enumerate(side[0]):
        w = s.split()
        if w[:1] == ['page']:
            side[0][k] = s.replace(' status %s ' % w[3], ' status %d ' % (1 - int(w[3])))
            return L
    raise SystemExit('no page line')


def lost_last_step(L, side):
    """The program's last step went missing (e.g. a kernel without the
    cpuset controller): its output ends before it, the events stay."""
    k = max(k for k, s in enumerate(side[0]) if s.split()[:1] == ['step'])
    del side[0][k:]
    return L


def _moved_success(L, side):
    """Index of the first success that moved a page of the program (its
    pfn_before to its pfn_after: pfns are reused between steps)."""
    moves = {(int(w[5], 0), int(w[7], 0)) for w in (s.split() for s in side[0])
             if w[:1] == ['page']}
    return next(i for i, l in enumerate(L) if ev(l) == 'migrate_folio' and
                field(l, 'result') == 'success' and
                (int(field(l, 'src_pfn'), 0), int(field(l, 'dst_pfn'), 0)) in moves)


def order_0_hugetlb(L, side):
    """A hugetlb page's migration reported as order 0."""
    L = list(L)
    i = _moved_success(L, side)
    L[i] = setf(L[i], 'order', 0)
    return L


def wrong_dst_mt(L, side):
    """A success names a destination type its block does not have."""
    L = list(L)
    i = _moved_success(L, side)
    L[i] = setf(L[i], 'dst_mt', 'Unmovable' if field(L[i], 'dst_mt') != 'Unmovable' else 'Movable')
    return L


def isolate_outside(L, side):
    """One isolation flip lands in a block outside the offlined range."""
    L = list(L)
    i = next(i for i, l in enumerate(L) if ev(l) == 'pageblock_flip' and
             field(l, 'reason') == 'isolate')
    L[i] = setf(L[i], 'pfn', '0x200')
    return L


def no_unisolate(L, side):
    return [l for l in L if not (ev(l) == 'pageblock_flip' and
                                 field(l, 'reason') == 'unisolate')]


def one_block_movable(L, side):
    L = list(L)
    i = [i for i, l in enumerate(L) if ev(l) == 'pageblock_state'][-1]
    L[i] = setf(L[i], 'mt', 'Movable')
    return L


def flip_in_wrong_zone(L, side):
    """An unisolate flip names the zone its block has just left."""
    L = list(L)
    zones = [field(l, 'zone') for l in L if ev(l) == 'pageblock_flip']
    i = next(i for i, l in enumerate(L) if ev(l) == 'pageblock_flip' and
             field(l, 'reason') == 'unisolate')
    other = next(z for z in zones if z != field(L[i], 'zone'))
    L[i] = setf(L[i], 'zone', other)
    return L


def high_order_as_movable(L, side):
    """v2: a batch's THP pages counted as Movable instead of high-order."""
    L = list(L)
    i = next(i for i, l in enumerate(L) if ev(l) == 'pcp_drain' and
             int(field(l, 'nr_high_order') or 0) > 0)
    hi = int(field(L[i], 'nr_high_order'))
    L[i] = setf(setf(L[i], 'nr_movable', int(field(L[i], 'nr_movable')) + hi), 'nr_high_order', 0)
    return L


def _flips(L, reason):
    return [i for i, l in enumerate(L) if ev(l) == 'pageblock_flip' and field(l, 'reason') == reason]


def drop_reserves(L, side):
    """A kernel that reserves without telling: no highatomic_reserve flip."""
    gone = set(_flips(L, 'highatomic_reserve'))
    return [l for i, l in enumerate(L) if i not in gone]


def drop_unreserves(L, side):
    """A kernel that gives reserves back without telling."""
    gone = set(_flips(L, 'highatomic_unreserve'))
    return [l for i, l in enumerate(L) if i not in gone]


def reserve_over_limit(L, side):
    """Two more blocks reserved right after the last reserve: past the
    managed / 100 + one block limit of reserve_highatomic_pageblock()."""
    L = list(L)
    i = _flips(L, 'highatomic_reserve')[-1]
    nid, zone = field(L[i], 'nid'), field(L[i], 'zone')
    seq = min(int(field(l, 'seq')) for l in L if ev(l) == 'pageblock_state')
    held = {field(l, 'pfn') for l in L if ev(l) == 'pageblock_flip'}
    movable = [field(l, 'pfn') for l in L if ev(l) == 'pageblock_state' and
               int(field(l, 'seq')) == seq and field(l, 'nid') == nid and
               field(l, 'zone') == zone and field(l, 'mt') == 'Movable' and
               field(l, 'pfn') not in held]
    extra = [setf(setf(L[i], 'pfn', pfn), 'old_mt', 'Movable') for pfn in movable[-2:]]
    return L[:i + 1] + extra + L[i + 1:]


def isolate_free_from_movable(L, side):
    """__isolate_free_page() 'resetting' a block that was Movable already."""
    L = list(L)
    i = _flips(L, 'isolate_free')[0]
    L[i] = setf(L[i], 'old_mt', 'Movable')
    return L


def census_block_twice(L, side):
    """A census that lists one block twice."""
    i = next(i for i, l in enumerate(L) if ev(l) == 'pageblock_census')
    return L[:i + 1] + L[i:]


# hugetlb and huge: series v3's census and censuswalk (older files lack them)
CENSUS_COLS = ('free', 'free_chunks', 'lru', 'movable_ops', 'slab_reclaimable',
               'slab_unmovable', 'pgtable', 'kernel', 'free_pcp', 'reserved', 'offline',
               'hugetlb')
KPF_COLS = ('pages', 'free', 'lru', 'slab', 'pgtable', 'reserved', 'offline', 'other',
            'nopage', 'huge')


def _walk_lines(W):
    """pfn -> indexes of its census lines (census1, 2, 3) and of its kpf and
    kpf2 lines in a censuswalk output."""
    census, kpf = {}, {}
    for n, line in enumerate(W):
        w = line.split()
        if len(w) in (13, 14) and w[0].startswith('0x'):
            census.setdefault(w[0], []).append(n)
        elif len(w) in (11, 12) and w[0] in ('kpf', 'kpf2'):
            kpf.setdefault(w[1], []).append(n)
    return census, kpf


def _at_rest_with(W, col):
    """A block the oracle compares (every census read and every walk of it
    alike) whose census has pages in col."""
    census, kpf = _walk_lines(W)
    i = CENSUS_COLS.index(col) + 2
    return next(pfn for pfn, ns in census.items()
                if len(set(W[n] for n in ns)) == 1 and int(W[ns[0]].split()[i]) > 0 and
                len(set(W[n].split(None, 1)[1] for n in kpf[pfn])) == 1)


def _shift(W, n, cols, key, to, skip):
    w = W[n].split()
    i, j = cols.index(key) + skip, cols.index(to) + skip
    w[i], w[j] = str(int(w[i]) - 1), str(int(w[j]) + 1)
    W[n] = ' '.join(w)


def _census_move(side, key, to):
    """One page of a block counted as `to` instead of `key`, in every census
    read of a censuswalk output (side[0]): the block still looks at rest."""
    W = list(side[0])
    victim = _at_rest_with(W, key)
    for n in _walk_lines(W)[0][victim]:
        _shift(W, n, CENSUS_COLS, key, to, 2)
    side[0] = W


def walk_changed_between(L, side):
    """Not a defect: an LRU page of a block at rest left the LRU during the
    first walk and came back before the second: the walks disagree, the
    block is not at rest and is not compared."""
    W = list(side[0])
    victim = _at_rest_with(W, 'lru')
    _shift(W, _walk_lines(W)[1][victim][0], KPF_COLS, 'lru', 'other', 2)
    side[0] = W
    return L


def census_changed_after_walks(L, side):
    """Not a defect: an LRU page of a block left the LRU after the second
    census read (both walks and the third census see it off the LRU): the
    census reads disagree, the block is not at rest and is not compared."""
    W = list(side[0])
    victim = _at_rest_with(W, 'lru')
    census, kpf = _walk_lines(W)
    for n in kpf[victim]:
        _shift(W, n, KPF_COLS, 'lru', 'other', 2)
    _shift(W, census[victim][2], CENSUS_COLS, 'lru', 'kernel', 2)
    side[0] = W
    return L


def walk2_drops_block(L, side):
    """A second walk that misses one census block."""
    W = list(side[0])
    n = _walk_lines(W)[1][_at_rest_with(W, 'free')][1]
    side[0] = W[:n] + W[n + 1:]
    return L


def census_hugetlb_as_kernel(L, side):
    """The census of series v2: no hugetlb column, its pages counted as
    kernel pages, in every census read of the walk."""
    W = list(side[0])
    i, k = CENSUS_COLS.index('hugetlb') + 2, CENSUS_COLS.index('kernel') + 2
    moved = 0
    for ns in _walk_lines(W)[0].values():
        for n in ns:
            w = W[n].split()
            if len(w) <= i:
                continue
            moved += int(w[i])
            w[k] = str(int(w[k]) + int(w[i]))
            W[n] = ' '.join(w[:i])
    assert moved, 'no hugetlb page in the walk'
    side[0] = W
    return L


def capture_outside_compaction(L, side):
    """Compaction captures reported with no compaction run around them:
    every mm_compaction_begin lost."""
    return [l for l in L if ev(l) != 'mm_compaction_begin']


def capture_same_type(L, side):
    """A compaction capture reported between two equal types."""
    i = next(i for i, l in enumerate(L) if ev(l) == 'mm_page_alloc_extfrag' and
             field(l, 'alloc_order') == '9' and
             not any(ev(k) == 'pageblock_steal' for k in L[max(i - 1, 0):i]))
    a = field(L[i], 'alloc_migratetype')
    L = list(L)
    L[i] = re.sub(r'\bfallback_migratetype=\S+', 'fallback_migratetype=' + a, L[i])
    return L


def census_lru_as_kernel(L, side):
    """An LRU page of a block counted as a kernel page."""
    _census_move(side, 'lru', 'kernel')
    return L


def census_free_as_pcp(L, side):
    """A free buddy page counted as a per-cpu one (free chunks as before)."""
    _census_move(side, 'free', 'free_pcp')
    return L


def census_slab_as_pgtable(L, side):
    """A slab page counted as a page table."""
    _census_move(side, 'slab_unmovable', 'pgtable')
    return L


OWNER = re.compile(r'^(\s*)(\S.*?-\d+)(\s+\[\d+\])')


def _polluter(l):
    m = OWNER.match(l)
    return m and m.group(2).startswith('fv-polluter-')


def blamed_elsewhere(L, side):
    """The polluter's steals, flips and stacks given to another task (a
    wrong pid, or the comm of another pid)."""
    other = next((OWNER.match(l).group(2) for l in L if OWNER.match(l) and
                  OWNER.match(l).group(2).startswith('fv-holder-')), 'kworker/0:1-23')
    return [OWNER.sub(lambda m: m.group(1) + other + m.group(3), l) if _polluter(l) else l
            for l in L]


def stack_elsewhere(L, side):
    """The polluter's stacks from another path than its write(2) (the
    stack of another event, or frames resolved wrongly)."""
    out, mine = [], False
    wrong = {'pipe_write': 'do_anonymous_page', 'vfs_write': 'handle_mm_fault',
             'ksys_write': 'exc_page_fault', '__x64_sys_write': 'asm_exc_page_fault'}
    for l in L:
        if ev(l):
            mine = ev(l) == 'kernel_stack' and _polluter(l)
        elif mine and l.startswith('=> '):
            f = l[3:].split()[0]
            l = l.replace(f, wrong.get(f, f), 1)
        out.append(l)
    return out


def polluter_claims(L, side):
    """The polluter's steals reported as claiming their blocks."""
    return [setf(l, 'claimed', 1) if ev(l) == 'pageblock_steal' and _polluter(l) else l
            for l in L]


def drain_stale_type(L, side):
    """Since 6.10 a drained page's migratetype is its block's at drain time:
    one Movable page reported with the Unmovable type, as a kernel that kept
    the type cached at free time would."""
    i = next(i for i, l in enumerate(L) if ev(l) == 'mm_page_pcpu_drain' and
             field(l, 'migratetype') == '1')
    L = list(L)
    L[i] = setf(L[i], 'migratetype', 0)
    return L


def _rename(L, event, key, name):
    """The first event's key printed as a name no kernel documents."""
    i = next(i for i, l in enumerate(L) if ev(l) == event and field(l, key))
    return L[:i] + [setf(L[i], key, name)] + L[i + 1:]


def undocumented_flip_reason(L, side):
    """A flip reason neither the 6.1 nor the 6.12 series prints."""
    return _rename(L, 'pageblock_flip', 'reason', 'coalesce')


def undocumented_migrate_reason(L, side):
    """A migration reason neither series prints (the kernel's table grew
    and the documentation did not)."""
    return _rename(L, 'migrate_folio', 'reason', 'damon_reclaim')


def _zone_lines(L):
    return [i for i, l in enumerate(L) if 'fragview_zone:' in l]


def _set_zone_line(L, i, key, value):
    return L[:i] + [setf(L[i], key, value)] + L[i + 1:]


def zonemark_min_off(L, side):
    """The recorder copied the wrong watermark: first zone line's min + 1."""
    i = _zone_lines(L)[0]
    return _set_zone_line(L, i, 'min', int(field(L[i], 'min')) + 1)


def zonemark_low_above_high(L, side):
    i = _zone_lines(L)[-1]
    return _set_zone_line(L, i, 'low', int(field(L[i], 'high')) + 1)


def zonemark_managed_wrong(L, side):
    """The last zone line of a zone reports stale managed pages."""
    i = _zone_lines(L)[-1]
    return _set_zone_line(L, i, 'managed', int(field(L[i], 'managed')) - 512)


def zonemark_dropped(L, side):
    """The zone lines before the last snapshot never reached the trace."""
    snaps = [i for i, l in enumerate(L) if ev(l) == 'pageblock_snapshot']
    last_seq = field(L[snaps[-1]], 'seq')
    first_of_last = next(i for i in snaps if field(L[i], 'seq') == last_seq)
    prev = max([i for i in snaps if i < first_of_last] or [-1])
    return [l for i, l in enumerate(L)
            if not (prev < i < first_of_last and 'fragview_zone:' in l)]


def _device_flips(L, reason):
    return [i for i, l in enumerate(L) if ev(l) == 'pageblock_flip' and
            field(l, 'zone') == 'Device' and field(l, 'reason') == reason]


def pmem_reserve_offline(L, side):
    """Unbind reports the namespace's first block, whose first page is the
    pfn device's info block (series v2: the walk read its never-initialised
    struct page)."""
    ns_lo, _, lo, _ = (int(x, 0) for x in side[0][0].split())
    first = (ns_lo + 511) & ~511
    assert first < lo, 'no whole block in the reserve'
    L = list(L)
    i = _device_flips(L, 'offline')[0]
    return L[:i] + [setf(L[i], 'pfn', '0x%x' % first)] + L[i:]


def pmem_offline_lost(L, side):
    """Unbind leaves the last block of the data area in the map."""
    i = _device_flips(L, 'offline')[-1]
    return L[:i] + L[i + 1:]


def pmem_offline_other_node(L, side):
    """An offline flip names a node its block was not online in."""
    L = list(L)
    i = _device_flips(L, 'offline')[0]
    L[i] = setf(L[i], 'nid', str(int(field(L[i], 'nid')) ^ 1))
    return L


def _first(L, event, want=lambda l: True):
    return next(i for i, l in enumerate(L) if ev(l) == event and want(l))


def _pass_in_seen_call(L, want):
    """The first migrate_pass for which want(line) holds of a call tracing
    saw from its start."""
    return _seen_call_index(L, 'migrate_pass', want)


def failed_record_dropped(L, side):
    """migrate_folio_failed misses one failed attempt migrate_folio reports
    (its condition tested the wrong value)."""
    i = _first(L, 'migrate_folio_failed')
    return L[:i] + L[i + 1:]


def success_recorded_failed(L, side):
    """migrate_folio_failed also writes a successful attempt (no condition)."""
    i = _first(L, 'migrate_folio', lambda l: field(l, 'result') == 'success')
    return L[:i + 1] + [L[i].replace('migrate_folio: ', 'migrate_folio_failed: ', 1)] + L[i + 1:]


def failed_record_other_dst(L, side):
    """migrate_folio_failed reports another destination than its attempt's
    (fields assigned from stale arguments)."""
    L = list(L)
    i = _first(L, 'migrate_folio_failed')
    L[i] = setf(L[i], 'dst_pfn', '0x%x' % (int(field(L[i], 'dst_pfn'), 16) + 1))
    return L


def pass_success_miscounted(L, side):
    """A pass reports one page more moved than its attempts moved."""
    L = list(L)
    i = _pass_in_seen_call(L, lambda l: int(field(l, 'nr_succeeded')) > 0)
    L[i] = setf(L[i], 'nr_succeeded', int(field(L[i], 'nr_succeeded')) + 1)
    return L


def pass_retry_miscounted(L, side):
    """A pass misreports the pages it left for the next pass (nr_retry
    from the wrong counter): none where it left some, else some."""
    L = list(L)
    try:
        i = _pass_in_seen_call(L, lambda l: int(field(l, 'nr_retry')) > 0)
        L[i] = setf(L[i], 'nr_retry', 0)
    except SystemExit:
        i = _pass_in_seen_call(L, lambda l: int(field(l, 'nr_succeeded')) > 0)
        L[i] = setf(L[i], 'nr_retry', field(L[i], 'nr_succeeded'))
    return L


def pass_other_stage(L, side):
    """A batch pass reports a stage its kernel does not have (6.1's
    unmap_move on 6.12, 6.12's unmap on 6.1)."""
    L = list(L)
    i = _first(L, 'migrate_pass', lambda l: field(l, 'stage') != 'hugetlb')
    L[i] = setf(L[i], 'stage', 'unmap' if field(L[i], 'stage') == 'unmap_move'
                else 'unmap_move')
    return L


def pass_dropped(L, side):
    """The end of one pass with attempts never reached the trace."""
    i = _pass_in_seen_call(L, lambda l: int(field(l, 'nr_succeeded')) > 0)
    return L[:i] + L[i + 1:]

DEFECTS = {f.__name__.replace('_', '-'): f for f in (
    pmem_reserve_offline, pmem_offline_lost, pmem_offline_other_node,
    zonemark_min_off, zonemark_low_above_high, zonemark_managed_wrong, zonemark_dropped,
    undocumented_flip_reason, undocumented_migrate_reason,
    polluter_claims, drain_stale_type, blamed_elsewhere, stack_elsewhere,
    high_order_as_movable, flip_in_wrong_zone, order_0_hugetlb, wrong_dst_mt,
    drop_one_flip, no_flips, truncated_snapshot, block_mt_is_alloc_mt, drop_drains_but_first,
    drain_wrong_node, drain_wrong_cpu, drain_dead_cpu_as_running, drain_all_as_cpu_dead,
    other_cpu_marked_online,
    drain_on_missing_cpu, drain_past_cpus_header, cpus_header_short,
    drain_free_high_as_vmstat, drain_free_high_as_decay, drain_decay_as_vmstat,
    dup_success, missing_failure, lost_last_step, isolate_outside,
    no_unisolate, one_block_movable, drop_reserves, drop_unreserves, reserve_over_limit,
    capture_outside_compaction, capture_same_type,
    isolate_free_from_movable, census_hugetlb_as_kernel, census_lru_as_kernel,
    census_free_as_pcp,
    census_slab_as_pgtable, census_block_twice, walk2_drops_block, claim_below_half,
    unclaimed_above_half, highatomic_claimed,
    migration_failure_as_success, migration_wrong_mode,
    migration_wrong_reason, migration_pass_without_retry, migration_sync_before_async,
    migration_sync_unbatched, migration_out_of_list_order,
    extfrag_wrong_order, failed_record_dropped, success_recorded_failed,
    failed_record_other_dst, pass_success_miscounted, pass_retry_miscounted, pass_other_stage,
    pass_dropped, declined_claimed, declined_with_enough, declined_on_61, steal_as_declined,
    declined_unfollowed, declined_twice, declined_other_order)}

# reports a correct kernel could write, that an oracle must pass
VALID = {f.__name__.replace('_', '-'): f for f in (
    idle_cpu_drained, cpu_marked_online, walk_changed_between,
    census_changed_after_walks)}

if __name__ == '__main__':
    if len(sys.argv) not in (4, 6) or sys.argv[1] not in {**DEFECTS, **VALID}:
        sys.exit('usage: mutate.py {%s} IN OUT [SIDE_IN SIDE_OUT]'
                 % '|'.join(list(DEFECTS) + list(VALID)))
    name, src, dst = sys.argv[1:4]
    L = lines_of(src)
    side = [lines_of(sys.argv[4])] if len(sys.argv) == 6 else [None]
    side0 = list(side[0]) if side[0] else None
    out = {**DEFECTS, **VALID}[name](L, side)
    if out == L and side[0] == side0:
        sys.exit('mutate.py: %s changed nothing' % name)
    with open(dst, 'w') as f:
        f.write('\n'.join(out) + '\n')
    if len(sys.argv) == 6:
        with open(sys.argv[5], 'w') as f:
            f.write('\n'.join(side[0]) + '\n')
