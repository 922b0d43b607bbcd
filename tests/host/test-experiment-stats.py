#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Tests of experiment/stats.py against values known by hand, textbooks
and brute-force enumeration, and of experiment/report.py on a DATADIR
made up here (every arm reported, the Holm family size stated, a failed
boot counted and left out of every statistic, the maps' fallbacks).
TAP output; exits non-zero if any check fails.

usage: tests/host/test-experiment-stats.py
"""
import itertools
import math
import os
import random
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import traceback

TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(TOP, "experiment"))
sys.path.insert(0, os.path.join(TOP, "tests", "lib"))
import stats  # noqa: E402
from tap import check, finish, skip  # noqa: E402

FRAGVIEW = os.path.join(TOP, "tools", "fragview", "fragview")
def close(a, b, rel=1e-9, abs_=0.0):
    return a is not None and b is not None and \
        math.isclose(a, b, rel_tol=rel, abs_tol=abs_)


def brute_p(xs, ys):
    """two-sided exact p by enumerating every split of the pooled
    midranks: twice the smaller tail of the rank sum, at most 1"""
    pooled = xs + ys
    ranks = stats.midranks(pooled)
    r1 = sum(ranks[:len(xs)])
    sums = [sum(c) for c in itertools.combinations(ranks, len(xs))]
    le = sum(1 for s in sums if s <= r1 + 1e-9)
    ge = sum(1 for s in sums if s >= r1 - 1e-9)
    return min(1.0, 2 * min(le, ge) / len(sums))


def test_basics():
    check(stats.median([3, 1, 2]) == 2 and stats.median([4, 1, 2, 3]) == 2.5,
          "median of odd and even samples")
    check(stats.median([]) is None, "median of nothing is None")
    xs = [7, 1, 3, 9, 4, 4, 12]
    q = statistics.quantiles(xs, n=4, method="inclusive")
    got = [stats.quantile(xs, p) for p in (.25, .5, .75)]
    check(all(close(a, b) for a, b in zip(got, q)),
          "quantile: inclusive quartiles as statistics.quantiles", (got, q))
    check(stats.quantile(xs, 0) == 1 and stats.quantile(xs, 1) == 12,
          "quantile 0 and 1 are min and max")
    check(stats.midranks([10, 20, 20, 30]) == [1, 2.5, 2.5, 4],
          "midranks: tied values share their mean rank")


def test_mann_whitney():
    xs, ys = list(range(1, 11)), list(range(11, 21))
    u, p = stats.mann_whitney_u(xs, ys)
    want = 2 / math.comb(20, 10)
    check(u == 0 and close(p, want) and close(p, 1.0825088224469e-05, 1e-6),
          "Mann-Whitney: [1..10] vs [11..20], U = 0, exact p = 2/C(20,10)",
          (u, p, want))
    u, p = stats.mann_whitney_u(ys, xs)
    check(u == 100 and close(p, want), "Mann-Whitney: swapped, U = n1 n2",
          (u, p))
    check(close(brute_p(xs, ys), want),
          "brute-force enumeration agrees on 2/C(20,10)")
    # scipy.stats.mannwhitneyu's documented example (Conover): U = 17,
    # exact p = 0.1111 (14/126), asymptotic with continuity 0.11134688653
    males, females = [19, 22, 16, 29, 24], [20, 11, 17, 12]
    u, p = stats.mann_whitney_u(males, females)
    check(u == 17 and close(p, 14 / 126), "Mann-Whitney: textbook exact p",
          (u, p))
    u, p = stats.mann_whitney_u(males, females, exact=False)
    check(u == 17 and close(p, 0.11134688653314041, 1e-9),
          "Mann-Whitney: textbook normal approximation (continuity)", (u, p))
    # the exact distribution with ties, against enumeration
    rng = random.Random(7)
    worst = 0.0
    for _ in range(40):
        a = [rng.randint(0, 5) for _ in range(rng.randint(1, 7))]
        b = [rng.randint(0, 5) for _ in range(rng.randint(1, 7))]
        _, p = stats.mann_whitney_u(a, b, exact=True)
        worst = max(worst, abs(p - brute_p(a, b)))
    check(worst < 1e-12, "exact p with ties equals enumeration, 40 samples",
          worst)
    # moderate n: the normal approximation near the exact distribution
    for ties in (False, True):
        rng = random.Random(11 + ties)
        worst = 0.0
        for _ in range(20):
            if ties:
                a = [rng.randint(0, 6) for _ in range(15)]
                b = [rng.randint(1, 7) for _ in range(15)]
            else:
                a = [rng.gauss(0, 1) for _ in range(15)]
                b = [rng.gauss(0.7, 1) for _ in range(15)]
            _, pe = stats.mann_whitney_u(a, b, exact=True)
            _, pn = stats.mann_whitney_u(a, b)
            worst = max(worst, abs(pe - pn))
        check(worst < 0.02, "normal approximation within 0.02 of exact, n ="
              f" 15/15{', ties' if ties else ''}", worst)
    # the tie correction: with it, heavy ties give a smaller p than the
    # variance of untied ranks would
    a, b = [0] * 12 + [1] * 3, [0] * 3 + [1] * 12
    _, p = stats.mann_whitney_u(a, b, exact=False)
    n1 = n2 = 15
    z = (abs(n1 * n2 / 2 - stats.mann_whitney_u(a, b)[0]) - .5) / \
        math.sqrt(n1 * n2 * (n1 + n2 + 1) / 12)
    check(p < math.erfc(z / math.sqrt(2)),
          "tie correction shrinks the variance", p)
    # negative: no difference
    same = [3, 1, 4, 1, 5, 9, 2, 6]
    check(stats.mann_whitney_u(same, list(same))[1] == 1.0,
          "negative: identical samples, exact p = 1")
    big = [rng.randint(0, 50) for _ in range(30)]
    check(stats.mann_whitney_u(big, list(big))[1] > 0.99,
          "negative: identical samples, normal p ~ 1")
    check(stats.mann_whitney_u([2] * 12, [2] * 12)[1] == 1.0,
          "negative: every value tied, p = 1")
    check(stats.mann_whitney_u([], [1, 2]) == (None, None),
          "an empty sample is not tested")


def test_holm():
    got = stats.holm([0.01, 0.04, 0.03, 0.005])
    check(all(close(a, b) for a, b in zip(got, [0.03, 0.06, 0.06, 0.02])),
          "Holm: textbook example", got)
    got = stats.holm([0.5, None, 0.01])
    check(got[1] is None and close(got[2], 0.02) and close(got[0], 0.5),
          "Holm: None is not tested and not in the family", got)
    got = stats.holm([0.01, 0.02, 0.011])
    check(all(close(a, 0.03) for a in got),
          "Holm: monotone (a larger p never gets a smaller adjusted p)", got)
    got = stats.holm([0.9, 0.04, 0.02])
    check(all(close(a, b) for a, b in zip(got, [0.9, 0.08, 0.06])),
          "Holm: m, m - 1, ... 1 times the sorted p", got)
    check(stats.holm([0.6, 0.6]) == [1.0, 1.0], "Holm: capped at 1")


def test_bootstrap():
    rng = random.Random(3)
    ys = [rng.gauss(100, 5) for _ in range(25)]
    xs = [y + 10 for y in ys]
    a = stats.bootstrap_diff_ci(xs, ys, seed=42)
    b = stats.bootstrap_diff_ci(xs, ys, seed=42)
    c = stats.bootstrap_diff_ci(xs, ys, seed=43)
    check(a == b, "bootstrap: the same seed, the same interval", (a, b))
    check(a != c, "bootstrap: another seed, another interval", (a, c))
    est, lo, hi, p = a
    check(close(est, 10) and lo < 10 < hi and lo > 0,
          "bootstrap: a shift of 10, interval holds 10 and not 0", a)
    check(p < 0.01, "bootstrap p of a clear shift is small", p)
    est, lo, hi, p = stats.bootstrap_diff_ci(ys, list(ys), seed=1)
    check(est == 0 and lo <= 0 <= hi and p > 0.5,
          "negative: identical samples, interval holds 0", (est, lo, hi, p))
    # difference of differences: the 6.1 effect 5, the 6.12 effect 15
    base = [rng.gauss(50, 3) for _ in range(12)]
    a_off, a_on = base, [x + 5 for x in base]
    b_off = [rng.gauss(60, 3) for _ in range(12)]
    b_on = [x + 15 for x in b_off]
    est, lo, hi, p = stats.bootstrap_did_ci(a_on, a_off, b_on, b_off, seed=5)
    check(close(est, 10, abs_=1e-9) and lo < 10 < hi and lo > 0 and p < 0.05,
          "bootstrap DiD: an interaction of 10 is found", (est, lo, hi, p))
    b_on = [x + 5 for x in b_off]
    est, lo, hi, p = stats.bootstrap_did_ci(a_on, a_off, b_on, b_off, seed=5)
    check(lo <= 0 <= hi and p > 0.05,
          "negative: equal effects, DiD interval holds 0", (est, lo, hi, p))
    check(stats.bootstrap_did_ci([], a_off, b_on, b_off) == (None,) * 4,
          "DiD with an empty cell is not computed")


def test_power():
    z = statistics.NormalDist().inv_cdf(0.975) + \
        statistics.NormalDist().inv_cdf(0.8)
    want = math.ceil(2 * z * z / (3 / math.pi))
    got = stats.n_for_power([0, 1, 2], [1, 2, 3])
    check(got == want == 17, "power: SD 1, difference 1: 17 per cell",
          (got, want))
    got = stats.n_for_power_did([0, 1, 2], [1, 2, 3], [0, 1, 2], [2, 3, 4])
    check(got == math.ceil(4 * z * z / (3 / math.pi)) == 33,
          "power: a DiD of 1 with SD 1 needs 33 per cell", got)
    check(stats.n_for_power([1, 2, 3], [1, 2, 3]) is None,
          "power: no difference, no n")
    check(stats.n_for_power([1], [2, 3]) is None,
          "power: a cell of one boot, no n")


# ---- report.py on made-up data ----------------------------------------------

ARMS = ("6.1-on-pinned", "6.1-off-pinned", "6.12-on-pinned",
        "6.12-off-pinned", "6.12-on-auto")
BOOT_COLS = ("name arm kernel grouping pcp run status boot_seconds host_load"
             " kernel_grouping pcp_high_min pcp_high_max oom_kills pswpout"
             " pgsteal_file pgsteal_anon steals claims load_rate_before"
             " load_rate_during mix_rate_before mix_rate_during").split()
PHASE_COLS = ("name arm kernel grouping pcp run phase style attempts obtained"
              " refused bound free9_start pcp_only_start pcp_drains").split()
# per arm, after the load, hugetlb obtained for runs 1..5 (the median
# boot is run 3); thp is half of it
REST = {"6.1-on-pinned": (10, 20, 30, 40, 50),
        "6.1-off-pinned": (5, 8, 15, 16, 20),
        "6.12-on-pinned": (30, 32, 34, 36, 38),
        "6.12-off-pinned": (2, 4, 6, 8, 10),
        "6.12-on-auto": (31, 33, 35, 37, 39)}
PAGEBLOCKS = """\
node 0 zone DMA32 start_pfn 0x1 end_pfn 0x1000 nr_blocks 4 pageblock_order 9 gen 1
0x0 Unmovable 0 -1 1
0x200 Movable 512 9 1
0x400 Reclaimable 433 8 1
0x600 Movable 12 2 1
"""
CENSUS = """\
node 0 zone DMA32 start_pfn 0x1 end_pfn 0x1000 nr_blocks 4 pageblock_order 9 gen 1
0x0 Unmovable 0 0 256 0 0 0 0 0 0 255 0 0
0x200 Movable 512 1 0 0 0 0 0 0 0 0 0 0
0x400 Reclaimable 433 8 0 0 0 0 0 0 79 0 0 0
0x600 Movable 12 2 480 0 0 20 0 0 0 0 0 0
"""


def make_data(d, bootdir, rest=None):
    rest = rest or REST
    os.makedirs(os.path.join(d, "runs"))
    boots, phases, atts = [], [], []

    def boot(arm, run, status="ok", rest=None, kg=None):
        k, gr, pcp = arm.split("-")
        name = f"{arm}-{run:02d}"
        b = dict.fromkeys(BOOT_COLS, "")
        b.update(name=name, arm=arm, kernel=k, grouping=gr,
                 pcp="8" if pcp == "pinned" else "0", run=str(run),
                 status=status, boot_seconds="600", host_load="1.5",
                 kernel_grouping=kg or gr, pcp_high_min="40", pcp_high_max="200",
                 oom_kills="0", pswpout=str(1000 * run), pgsteal_file="5000",
                 pgsteal_anon="300", steals="50", claims="10",
                 load_rate_before="20", load_rate_during="15",
                 mix_rate_before="100", mix_rate_during="")
        boots.append(b)
        for phase, base in (("under_load", 1), ("at_rest", rest)):
            for style, got in (("hugetlb", base), ("thp", base // 2)):
                refused = 3 if phase == "under_load" else 0
                p = dict(zip(PHASE_COLS, [name, arm, k, gr, b["pcp"], str(run),
                                          phase, style, "60", str(got),
                                          str(refused), "120", "2",
                                          str(run + (pcp == "pinned") * 10),
                                          "7", "30", "5", "9", "40"]))
                phases.append(p)
                for i in range(60):
                    res = ("refused" if i < refused else
                           "ok" if i < refused + min(got, 17) else "fail")
                    ms = "" if res == "refused" else str(1 + i * 37 % 1500)
                    atts.append([name, arm, phase, style, str(i), res, ms])
        return name

    runs = len(rest[ARMS[0]])
    for run in range(1, runs + 1):
        for arm in ARMS:
            name = boot(arm, run, rest=rest[arm][run - 1])
            if arm == "6.1-on-pinned" and run == (runs + 1) // 2:
                median = name
            if arm == "6.12-on-auto" and run == (runs + 1) // 2:
                auto = name
    # a failed boot of 6.1-on-pinned whose figures would move its median,
    # and a boot whose kernel kept grouping on when asked for off
    boot("6.1-on-pinned", runs + 1, status="failed", rest=999)
    boot("6.12-off-pinned", runs + 1, rest=998, kg="on")
    for fn, cols, rows in (("boots.tsv", BOOT_COLS, [[b[c] for c in BOOT_COLS]
                                                     for b in boots]),
                           ("phases.tsv", PHASE_COLS, [[p[c] for c in PHASE_COLS]
                                                       for p in phases]),
                           ("attempts.tsv", "name arm phase style i result ms".split(),
                            atts)):
        with open(os.path.join(d, fn), "w") as f:
            f.write("\t".join(cols) + "\n")
            f.writelines("\t".join(r) + "\n" for r in rows)
    with open(os.path.join(d, "provenance.tsv"), "w") as f:
        f.write("head\tabc123\nmem\t1024M\ncpus\t2\nattempts_per_phase\t60\n"
                "pcp_fraction\t8\nreserve_mib\t64\nkernel_6.1\t6.1.90\n"
                "kernel_6.12\t6.12.10\n")
    # the median boot of 6.1-on-pinned: its dumps in its tarball; its
    # trace in BOOTDIR
    src = os.path.join(d, "src", median)
    os.makedirs(src)
    for mo in ("under-load", "at-rest"):
        for ext, text in (("pageblocks", PAGEBLOCKS), ("census", CENSUS)):
            with open(os.path.join(src, f"{mo}.{ext}"), "w") as f:
                f.write(text)
    with tarfile.open(os.path.join(d, "runs", median + ".tar.xz"), "w:xz") as t:
        t.add(src, arcname=median)
    os.makedirs(os.path.join(bootdir, median))
    shutil.copy(os.path.join(TOP, "tests", "fixtures", "v2-polluter.dat"),
                os.path.join(bootdir, median, "trace.dat"))
    # the median boot of 6.12-on-auto: no tarball, its full output in the
    # scenario's subdirectory of BOOTDIR/NAME/
    sub = os.path.join(bootdir, auto, "exp-stress")
    shutil.copytree(src, sub)
    with open(os.path.join(sub, "at-rest.pageblocks"), "w") as f:
        f.write(PAGEBLOCKS.replace("0x200 Movable 512", "0x200 Movable 100"))
    shutil.copy(os.path.join(TOP, "tests", "fixtures", "v2-polluter.dat"),
                os.path.join(sub, "trace.dat"))
    return median


def run_report(d, bootdir=None, fragview=FRAGVIEW):
    out = os.path.join(d, "results.md")
    cmd = [sys.executable, os.path.join(TOP, "experiment", "report.py"), d,
           out, os.path.join(d, "out", "maps.html"), fragview]
    r = subprocess.run(cmd + ([bootdir] if bootdir else []),
                       capture_output=True, text=True)
    if r.returncode:
        return None, r.stderr
    with open(out) as f:
        return f.read(), ""


def section(md, title):
    return md.split(f"\n## {title}", 1)[-1].split("\n## ", 1)[0] \
        if f"\n## {title}" in md else ""


def row(text, start):
    return next((l for l in text.splitlines() if l.startswith(start)), "")


def test_report():
    with tempfile.TemporaryDirectory() as tmp:
        d, bootdir = os.path.join(tmp, "data"), os.path.join(tmp, "boots")
        median = make_data(d, bootdir)
        md, err = run_report(d, bootdir)
        check(md is not None, "report.py writes RESULTS.md", err)
        if md is None:
            return
        head = section(md, "Headline")
        for arm in ARMS:
            check(f"| {arm} |" in head and f"| {arm} |" in section(md, "Method"),
                  f"every arm reported: {arm}")
        check("family of all 26 comparisons" in md,
              "the Holm family size is stated (26 comparisons)")
        # the failed boot: counted, listed, and not in any statistic
        meth = section(md, "Method")
        check("Boots: 27 in 6 runs, 25 usable, 2 left out" in meth,
              "the failed boot is counted", meth[:600])
        check("`6.1-on-pinned-06` (6.1-on-pinned, run 6): status failed" in meth,
              "the failed boot is listed with its reason")
        check("`6.12-off-pinned-06` (6.12-off-pinned, run 6): asked for"
              " grouping off, kernel reported on" in meth,
              "negative: a boot whose kernel ignored grouping off is left out")
        check("| 6.12-off-pinned | 6.12 | off | 8 | 5 | 1 |" in meth,
              "left-out boots counted per arm")
        rest = section(md, "Headline").split("### after the load, hugetlb", 1)[-1]
        r = row(rest, "| 6.1-on-pinned |")
        check("| 5 | **30** [20–40] 10–50 |" in r,
              "the failed boot is left out: n = 5, median 30, quartiles", r)
        check("999" not in head and "998" not in head,
              "negative: the left-out boots' 999 and 998 are nowhere in the"
              " headline")
        check("Boots left out: 2 of 27" in section(md, "What this can"),
              "the limits section counts the left-out boots")
        r = row(head.split("### under load, hugetlb", 1)[-1], "| 6.12-on-auto |")
        check("3 / 15 / 5" in r and "2 % [2 %–2 %]" in r,
              "refusals reported apart: median / total / boots; success of"
              " attempts made", r)
        quot = section(md, "Quotable lines")
        want = ("- 6.1, after the load, hugetlb: grouping on obtains 30 vs 15"
                " off (difference 15, 95 % CI [")
        check(want in quot, "a quotable line with medians and CI", quot)
        check("n = 5/5" in quot and "Holm-adjusted p = " in quot,
              "quotable lines carry n and the adjusted p")
        comp = section(md, "Comparisons")
        r = row(comp.split("\n", 3)[-1],
                "| 2 | under load, hugetlb, obtained: 6.12-on-pinned − 6.12-off-pinned")
        check("| 1.000 (exact) | 1.000 | no difference shown |" in r,
              "negative: equal samples, exact p = 1, no difference shown", r)
        check("(6.12 on − off) − (6.1 on − off)" in comp,
              "the difference of grouping effects is tested")
        check("pcp_only_start: 6.12-on-auto − 6.12-on-pinned" in comp,
              "the pcp hypothesis is tested")
        check("**below**" in section(md, "Power") or "enough" in section(md, "Power"),
              "the power table flags n per cell")
        check("40; 6.12 max 200; 6.12 min 40: the same on both kernels" in
              section(md, "Per-cpu page lists"),
              "pcp high of the pinned arms compared across kernels")
        lat = section(md, "Latency of the attempts")
        check("| after the load | hugetlb | 6.1-on-pinned | 300 | 78 |" in lat,
              "latency: made and obtained attempts of the usable boots",
              row(lat, "| after the load | hugetlb | 6.1-on-pinned"))
        load = section(md, "The load and reclaim")
        r = row(load, "| 6.12-on-auto |")
        check("25 % [25 %–25 %] | not measured |" in r,
              "load slowdown, and not measured for an empty rate", r)
        maps = section(md, "Maps of the median boots")
        check(f"### 6.1-on-pinned: `{median}`" in maps,
              "the median boot (ties: lowest run) is mapped")
        check("  U.rM" in maps and "  #.p#" in maps and "(2 polluted blocks)" in maps,
              "pageblock and census maps of the median boot", maps[:1500])
        check("| after the load | 1 | 1 | 1 | 1 | 0 | 0 |" in maps,
              "holders of the median boot's blocks")
        check("trace not kept" in maps,
              "a boot without trace.dat: trace not kept")
        a = maps.split("### 6.12-on-auto", 1)[-1]
        check("after the load, pageblocks:\n\n```\nnode 0 DMA32:\n  UMrM" in a,
              "dumps read from BOOTDIR/NAME/exp-stress before the tarball", a)
        if os.access(FRAGVIEW, os.X_OK):
            check(maps.count("`fv-polluter-92`") == 2,
                  "top polluters by fragview blame, trace.dat in BOOTDIR/NAME/"
                  " or its exp-stress/", maps[-1500:])
        else:
            skip("top polluters by fragview blame", "fragview not built")
        html = os.path.join(d, "out", "maps.html")
        check(os.path.exists(html) and median in open(html).read(),
              "MAPS.html holds the median boots' maps")
        md2, _ = run_report(d, bootdir)
        check(md2 == md, "the report is the same file every time (seeded)")
        # without BOOTDIR and without a working fragview: no failure
        md3, err = run_report(d, None, "true")
        check(md3 is not None and "trace not kept" in
              section(md3, "Maps of the median boots"),
              "without BOOTDIR: traces not kept, report still written", err)


def main():
    for t in (test_basics, test_mann_whitney, test_holm, test_bootstrap,
              test_power, test_report):
        try:
            t()
        except Exception:
            check(False, f"{t.__name__} ran to its end", traceback.format_exc())
    return finish()


if __name__ == "__main__":
    sys.exit(main())
