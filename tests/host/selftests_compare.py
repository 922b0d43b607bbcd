#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
# description: the kernel's mm selftests give the same results on every
# kernel: per test and per subtest (the tests' own kselftest TAP lines,
# khugepaged's OK/Fail/Skip lines, else the exit code: 0 ok, 4 skip), the
# result on each run must be the same.  A result that is not ok on every
# run passes only with a documented reason (KNOWN below); the table lists
# it with that reason.  With --trace RUN, that run's per-test captures
# must have lost no event (trace-cmd's "overrun" counts).
# usage: selftests_compare.py [--trace LABEL] [--table FILE] LABEL=DIR...
#   DIR: the mm-selftests scenario's result directory (results, ID/out)
import argparse
import glob
import os
import re
import subprocess
import sys

# Results that are not ok on the unpatched kernel too, with the reason:
# (regex over the result key "test id" or "test id: subtest", reason).
# Reasons come from the test's source and output in our guest and the
# kernel source; "inferred" or "not investigated" say where they are not proven.
KNOWN = [
    (r'migration(: \d+ migration\.shared_anon)?$',
     'shared_anon: move_pages(2) of the MAP_SHARED anon area that forked '
     'children keep reading does not move it (migrate() returns -2, '
     'migration.c:162); cause inside the kernel not investigated'),
    (r'hugetlb-madvise$',
     '6.1 test vs 6.1 kernel: madvise(MADV_DONTNEED) on hugetlb now rounds the '
     'end down (mm/madvise.c, "avoid unexpected data loss"), the test '
     'expects it rounded up ("Unexpected number of free huge pages line 212")'),
    (r'split_huge_page_test$',
     '6.1 test bug: split_pmd_thp() maps 4 PMD-sized pages and then wants '
     'AnonHugePages of exactly 1 (check_huge_anon(one_page, 1, ...)): '
     '"No THP is allocated" whenever THP works'),
    (r'mremap_test(: \d+ NGB mremap - Source PUD-aligned.*)?$',
     '2 GiB guest without swap: mmap of the 2 GiB source region fails with '
     'ENOMEM ("Failed to map source region"; heuristic overcommit, inferred)'),
    (r'khugepaged-anon(: collapse_(swapin_single_pte|max_ptes_swap) .*Swapout.*)?$',
     'no swap device in the guest: MADV_PAGEOUT cannot swap anon pages out'),
    (r'khugepaged-shmem(: collapse_(full|single_pte_entry) \(\w+:shmem\).*)?$',
     'our guest kernel, not the series: tinyconfig\'s BASE_SMALL makes '
     'XA_CHUNK_SHIFT 4, so MAX_PAGECACHE_ORDER is 7 < HPAGE_PMD_ORDER 9 and '
     'shmem_is_huge() is always false: no shmem THP to collapse '
     '("madvise(MADV_COLLAPSE): Invalid argument"; CONFIG_BASE_FULL=y '
     'should fix it, not tried yet)'),
]

# Results that differ between runs of the same kernel: where they differ
# across kernels, the test is reported as a skip (never a pass), with the
# reason; where they agree it is compared as any other.
FLAKY = [
    (r'ksm_tests-U$',
     'flaky on both kernels: "Not OK" in 5 of 30 runs on the unpatched, 10 of '
     '30 on the patched kernel (15 rounds of -M, -U, -U in one guest each, '
     'events off); probably the test\'s '
     'race: ksm_do_scan(1) waits for full_scans to grow by one, which a scan '
     'already under way when the pages were written satisfies'),
]

# Exit statuses that mean "ran as long as it was allowed": transhuge-stress
# loops until killed (timeout(1) sends SIGTERM: 128 + 15).
BOUNDED = {'transhuge-stress': {143}}
# Tests whose exit status counts their failures (4 is not a skip there)
COUNTS_FAILURES = ('khugepaged-',)


def known(key, table=None):
    for rx, why in (KNOWN if table is None else table):
        if re.match(rx, key):
            return why
    return ''


TAP = re.compile(r'^(ok|not ok) (\d+) (.*?)(?:\s+#\s*(SKIP|skip|TODO)\b.*)?$')
KHUGE_HEAD = re.compile(r'^Run test: (.*)$')
KHUGE_RES = re.compile(r'^(.*?)\s*\x1b\[3([123])m(.*?)\x1b\[0m\s*$')


def norm(desc):
    """A subtest description without run-dependent numbers."""
    return re.sub(r'\d+', 'N', desc).strip()


def exit_result(tid, rc):
    if rc == 0:
        return 'ok'
    if rc in BOUNDED.get(tid, ()):
        return 'ok'
    if rc == 4 and not tid.startswith(COUNTS_FAILURES):
        return 'skip'
    if rc in (124, 143):
        return 'not ok (timeout)'
    return 'not ok (exit %d)' % rc


def subtests(tid, path):
    """{key: result} from the test's own output."""
    res = {}
    head = ''
    try:
        lines = open(path, errors='replace').read().splitlines()
    except OSError:
        return res
    for line in lines:
        m = TAP.match(line)
        if m:
            r = 'skip' if m.group(4) in ('SKIP', 'skip') else \
                ('ok' if m.group(1) == 'ok' else 'not ok')
            key = '%s: %s %s' % (tid, m.group(2), norm(m.group(3)))
            res[key] = r
            continue
        m = KHUGE_HEAD.match(line)
        if m:
            head = m.group(1).strip()
            continue
        m = KHUGE_RES.match(line)
        if m:
            r = {'2': 'ok', '1': 'not ok', '3': 'skip'}[m.group(2)]
            key = '%s: %s: %s' % (tid, head, norm(m.group(1).rstrip('.')))
            n = 2
            while key in res:          # the same check twice in one test
                key = '%s: %s: %s (%d)' % (tid, head, norm(m.group(1).rstrip('.')), n)
                n += 1
            res[key] = r
    return res


def read_run(d):
    """({key: result}, {test id: seconds}, [test ids in order])"""
    res, secs, order = {}, {}, []
    with open(os.path.join(d, 'results')) as f:
        for line in f:
            w = line.split()
            if len(w) < 3:
                continue
            tid = w[0]
            order.append(tid)
            secs[tid] = float(w[2])
            if not w[1].isdigit():
                res[tid] = 'not ok (%s)' % w[1]
            else:
                res[tid] = exit_result(tid, int(w[1]))
            res.update(subtests(tid, os.path.join(d, tid, 'out')))
    return res, secs, order


def rerun_rates(rerun_dir, labels, tid, keys, got):
    """None without re-runs; else (regression, summary): the results of the
    KEYS of test TID in the first run and every re-run, per kernel.  A
    regression only when each kernel gave one result in all its runs and
    the kernels disagree; the summary gives each kernel's not-ok rate."""
    if not rerun_dir:
        return None
    regression, parts = bool(keys), []
    for i, lb in enumerate(labels):
        runs = sorted(glob.glob(os.path.join(rerun_dir, lb, 'mm-selftests', 'rep*')))
        reps = [read_run(d)[0] for d in runs if os.path.exists(os.path.join(d, 'results'))]
        seen = {}
        for k in keys:
            res = [got[k][i]] + [r.get(k, 'missing') for r in reps]
            seen[k] = res
        bad = sum(1 for k in keys for r in seen[k] if r not in ('ok', 'skip'))
        total = sum(len(seen[k]) for k in keys)
        parts.append('%s not ok %d/%d' % (lb, bad, total))
        if len(reps) == 0 or any(len(set(seen[k])) != 1 for k in keys):
            regression = False
    return regression, ', '.join(parts)


def lost_events(capture):
    """Events the kernel lost while recording: the per-cpu "overrun" and
    "dropped events" counts of `trace-cmd report --stat`; None if unread."""
    if not os.path.exists(capture):
        return None
    p = subprocess.run(['trace-cmd', 'report', '--stat', '-i', capture],
                       capture_output=True, text=True, errors='replace')
    counts = [int(x) for x in re.findall(r'^(?:overrun|dropped events):\s*(\d+)',
                                         p.stdout, re.M)]
    return sum(counts) if p.returncode == 0 and counts else None


def main():
    p = argparse.ArgumentParser(description='compare mm selftest results across kernels')
    p.add_argument('runs', nargs='+', metavar='LABEL=DIR')
    p.add_argument('--trace', help='LABEL of the run recorded with trace-cmd')
    p.add_argument('--table', help='also write the comparison table (markdown) here')
    p.add_argument('--differing', help='write the ids of the tests whose results '
                   'differ between kernels here, one a line (for a re-run)')
    p.add_argument('--reruns', help='DIR/LABEL/mm-selftests/repN/: the differing '
                   'tests run again on each kernel; a difference counts only '
                   'when every run of each kernel agrees')
    a = p.parse_args()
    runs = []
    for r in a.runs:
        label, _, d = r.partition('=')
        runs.append((label, d))

    n = bad = skips = 0

    def check(cond, name, detail=()):
        nonlocal n, bad, skips
        n += 1
        print('%s %d - %s' % ('ok' if cond else 'not ok', n, name))
        if not cond:
            bad += 1
            for x in detail:
                print('#   ' + x)

    data = {}
    for label, d in runs:
        try:
            data[label] = read_run(d)
        except OSError as e:
            check(False, 'selftests %s: results readable (%s)' % (label, e))
    if len(data) != len(runs):
        print('%d passed, %d failed' % (n - bad, bad))
        return 1
    labels = [label for label, _ in runs]
    order = []
    for label in labels:
        for tid in data[label][2]:
            if tid not in order:
                order.append(tid)
    keys = []
    for tid in order:
        for label in labels:
            for k in data[label][0]:
                if (k == tid or k.startswith(tid + ': ')) and k not in keys:
                    keys.append(k)

    def short(r):
        return r if r in ('ok', 'skip') else 'NOT OK' + r[6:]

    differing = []
    table = ['| test | %s | reason if not ok |' % ' | '.join(labels),
             '|---|%s---|' % ('---|' * len(labels))]
    for tid in order:
        tkeys = [k for k in keys if k == tid or k.startswith(tid + ': ')]
        got = {k: [data[lb][0].get(k, 'missing') for lb in labels] for k in tkeys}
        differ = [k for k in tkeys if len(set(got[k])) != 1]
        failing = [k for k in tkeys if k not in differ and got[k][0] not in ('ok', 'skip')]
        undocumented = [k for k in failing if not known(k)]
        reasons = []
        for k in failing:
            if known(k) not in reasons:
                reasons.append(known(k))
        subs = [k for k in tkeys if k != tid]
        cells = []
        for i, lb in enumerate(labels):
            top = data[lb][0].get(tid, 'missing')
            cell = short(top)
            if subs:
                nok = sum(1 for k in subs if got[k][i] == 'ok')
                nskip = sum(1 for k in subs if got[k][i] == 'skip')
                cell += ' (%d/%d subtests ok%s)' % (
                    nok, len(subs), ', %d skip' % nskip if nskip else '')
            cells.append(cell)
        table.append('| %s | %s | %s |' % (tid, ' | '.join(cells), '; '.join(
            reasons + ['UNDOCUMENTED: %s' % k for k in undocumented])))
        detail = ['%s: %s' % (k, ', '.join('%s %s' % (lb, g) for lb, g in
                                           zip(labels, got[k]))) for k in differ]
        flaky = [known(k, FLAKY) for k in differ]
        rates = rerun_rates(a.reruns, labels, tid, differ, got) if differ else None
        if differ:
            differing.append(tid)
        if differ and rates is not None and not rates[0]:
            n += 1
            skips += 1
            print('ok %d - selftest %s: results differ, not on every re-run (%s) '
                  '# SKIP flaky: %s' % (n, tid, '; '.join(detail), rates[1]))
            table[-1] = table[-1][:-2] + 'FLAKY on re-runs, not compared: %s |' % rates[1]
        elif differ and rates is not None:
            check(False, 'selftest %s: results differ on every re-run (%s)'
                  % (tid, rates[1]), detail)
        elif differ and all(flaky):
            n += 1
            skips += 1
            print('ok %d - selftest %s: results differ (%s) # SKIP known flaky: %s'
                  % (n, tid, '; '.join(detail), '; '.join(sorted(set(flaky)))))
            table[-1] = table[-1][:-2] + 'FLAKY, not compared: %s |' % flaky[0]
        elif differ:
            check(False, 'selftest %s: same results on every kernel (%d of %d differ)'
                  % (tid, len(differ), len(tkeys)),
                  detail + ['output: %s/%s/out' % (d, tid) for _, d in runs])
        elif all(got[k][0] == 'skip' for k in tkeys):
            # the same on every kernel, but nothing was tested: a skip
            n += 1
            skips += 1
            print('ok %d - selftest %s: skipped on every kernel # SKIP %s'
                  % (n, tid, cells[0]))
        elif undocumented:
            check(False, 'selftest %s: not ok on every kernel, no documented reason'
                  % tid, ['%s: %s' % (k, got[k][0]) for k in undocumented] +
                  ['output: %s/%s/out' % (d, tid) for _, d in runs])
        else:
            check(True, 'selftest %s: same on every kernel: %s%s' % (
                tid, cells[0], ' (%d results not ok on every kernel, reasons known)' % len(failing) if failing else ''))
        for k in failing:
            print('#   not ok on every kernel: %s -- %s' % (k, known(k) or '?'))

    if a.differing:
        with open(a.differing, 'w') as f:
            f.write(''.join(t + '\n' for t in differing))
    if a.trace:
        d = dict(runs)[a.trace]
        for tid in data[a.trace][2]:
            lost = lost_events(os.path.join(d, tid, 'trace.dat'))
            check(lost == 0, 'selftest %s (%s): no lost events (overrun + dropped: %s)'
                  % (tid, a.trace, lost if lost is not None else 'not reported'))

    table.append('| total seconds of the tests | %s | |' % ' | '.join(
        '%.0f' % sum(data[lb][1].values()) for lb in labels))
    print('# selftests: %d tests, %d results compared over %s'
          % (len(order), len(keys), ', '.join(labels)))
    for line in table:
        print('# ' + line)
    if a.table:
        with open(a.table, 'w') as f:
            f.write('\n'.join(table) + '\n')
    print('# per-test seconds (%s): %s' % ('/'.join(labels), '; '.join(
        '%s %s' % (tid, '/'.join('%.0f' % data[lb][1].get(tid, 0) for lb in labels))
        for tid in order)))
    print('%d passed, %d failed, %d skipped' % (n - bad - skips, bad, skips))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
