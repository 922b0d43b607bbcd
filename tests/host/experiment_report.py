#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Tests of experiment/extract.py and experiment/report.py on data made
up here, whose figures are known: the census pollution count, the
headline cells (median, inclusive quartiles, min, max, bound), and the
checks that must catch a bad boot (a 0, more pages than the free memory
allows, a kernel that ignored page_group_by_mobility=off).  TAP output.
"""
import os
import subprocess
import sys
import tempfile

TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(TOP, "experiment"))
import extract  # noqa: E402

n = failed = 0


def check(ok, what, detail=""):
    global n, failed
    n += 1
    if not ok:
        failed += 1
        for line in str(detail).splitlines():
            print(f"#   {line}")
    print(f"{'ok' if ok else 'not ok'} {n} - {what}")


CENSUS = """\
node 0 zone DMA32 start_pfn 0x1 end_pfn 0x10000 nr_blocks 3 pageblock_order 9 gen 5
0x0 Unmovable 10 3 0 0 0 400 50 52 0 0 0
0x200 Movable 100 4 400 0 0 12 0 0 0 0 0
0x400 Movable 512 1 0 0 0 0 0 0 0 0 0
node 1 zone DMA32 start_pfn 0x10000 end_pfn 0x20000 nr_blocks 2 pageblock_order 9 gen 2
0x10000 Reclaimable 0 0 0 0 512 0 0 0 0 0 0
0x10200 Isolate 0 0 500 0 0 12 0 0 0 0 0
"""


def test_census():
    got = extract.census(CENSUS)
    # node 0: only 0x200 holds a foreign page (12 unmovable slab pages in
    # a Movable block); unmovable pages 400+50+52+12, in 2 blocks
    check(got.get(("0", "DMA32")) == (3, 1, 514, 1536, 2),
          "census: polluted blocks and unmovable pages of a zone", got)
    # node 1: an Isolate block is never polluted
    check(got.get(("1", "DMA32")) == (2, 0, 12, 1024, 1),
          "census: an Isolate block is never polluted", got)
    doctored = CENSUS.replace("0x0 Unmovable 10 3 0 0 0 400",
                              "0x0 Unmovable 10 3 7 0 0 393")
    check(extract.census(doctored)[("0", "DMA32")][1] == 2,
          "census (negative): movable pages in an Unmovable block count")


RUN_COLS = extract.RUN_COLS + tuple(
    f"{ph}_{c}" for ph in ("under_load", "at_rest") for c in extract.PHASE_COLS)


def run_row(name, g, c, r, under, rest, bound=100, kg=None, status="ok"):
    v = dict.fromkeys(RUN_COLS, "0")
    v.update(name=name, grouping=g, compaction=c, run=str(r), status=status,
             kernel_grouping=kg or g, under_load_got=str(under),
             at_rest_got=str(rest), under_load_bound=str(bound),
             at_rest_bound="200", under_load_attempts="245",
             at_rest_attempts="245")
    return "\t".join(v[k] for k in RUN_COLS)


def make_data(d, extra=()):
    os.makedirs(os.path.join(d, "runs"))
    # grouping on, compaction off, under load: 10 20 30 40 50 -> median
    # 30, inclusive quartiles 20 and 40; grouping off: 5 5 6 7 8
    rows = []
    for r, (on, off) in enumerate(zip((50, 10, 40, 20, 30), (8, 5, 7, 5, 6)), 1):
        rows.append(run_row(f"gon-coff-{r:02d}", "on", "off", r, on, 150))
        rows.append(run_row(f"goff-coff-{r:02d}", "off", "off", r, off, 90))
        rows.append(run_row(f"gon-con-{r:02d}", "on", "on", r, 90, 190))
        rows.append(run_row(f"goff-con-{r:02d}", "off", "on", r, 9, 120))
    rows.extend(extra)
    with open(os.path.join(d, "runs.tsv"), "w") as f:
        f.write("\t".join(RUN_COLS) + "\n" + "\n".join(rows) + "\n")
    for name, cols in (("zones.tsv", extract.ZONE_COLS),
                       ("steals.tsv", extract.STEAL_COLS)):
        with open(os.path.join(d, name), "w") as f:
            f.write("\t".join(cols) + "\n")
    with open(os.path.join(d, "provenance.tsv"), "w") as f:
        f.write("series_commit\tabc\nruns\t5\nmem\t512M\n")


def report(d):
    out = os.path.join(d, "results.md")
    r = subprocess.run([sys.executable, os.path.join(TOP, "experiment", "report.py"),
                        d, out, os.path.join(d, "maps.html"), "true"],
                       capture_output=True, text=True)
    if r.returncode:
        return None, r.stderr
    with open(out) as f:
        return f.read(), ""


def headline_row(md, label):
    head = md.split("## Headline", 1)[1].split("\n## ", 1)[0]
    return next((l for l in head.splitlines() if l.startswith(f"| {label}")), "")


def test_report():
    with tempfile.TemporaryDirectory() as d:
        make_data(os.path.join(d, "a"))
        md, err = report(os.path.join(d, "a"))
        check(md is not None, "report.py writes results.md", err)
        if md is None:
            return
        row = headline_row(md, "under load")
        check("**30** [20–40] 10–50 (n=5, max 100)" in row,
              "headline: grouping on = median [quartiles] min-max, bound", row)
        check("**6** [5–7] 5–8 (n=5, max 100)" in row,
              "headline: grouping off likewise", row)
        check("+400 %" in row, "headline: change of medians", row)
        check("- none" in md.split("## Spread", 1)[1].split("## ", 1)[0],
              "no outlier in clean data")

        # negative: a 0, a result above the free-memory bound, a kernel
        # that kept grouping on although asked for off
        make_data(os.path.join(d, "b"), extra=(
            run_row("gon-coff-06", "on", "off", 6, 0, 150),
            run_row("goff-coff-06", "off", "off", 6, 7, 300),
            run_row("goff-con-06", "off", "on", 6, 9, 120, kg="on")))
        md, err = report(os.path.join(d, "b"))
        check(md is not None, "report.py on doctored data", err)
        if md is None:
            return
        spread = md.split("## Spread", 1)[1].split("\n## ", 1)[0]
        check("`gon-coff-06` got 0" in spread,
              "negative: a run with 0 successes is listed", spread)
        check("`goff-coff-06`, at rest: got 300, more than the free-memory"
              " bound 200" in spread,
              "negative: more pages than the bound is listed", spread)
        check("`goff-con-06`: kernel reported grouping on" in md,
              "negative: a kernel that ignored grouping off is left out")
        con = md.split("## Compaction on", 1)[1].split("\n## ", 1)[0]
        row = next((l for l in con.splitlines() if l.startswith("| under load")), "")
        check("**9** [9–9] 9–9 (n=5," in row.split("|")[2],
              "negative: the left-out boot is not counted", row)


def test_holders():
    sys.path.insert(0, os.path.join(TOP, "tools", "pylib"))
    import report
    text = CENSUS + "0x10400 Movable 500 2 0 0 0 0 0 0 12 0 0\n"
    h = report.holders(text)
    check(h == {"whole free": 1, "per-cpu pages only": 1, "unmovable": 3,
                "movable": 0, "reclaimable slab": 1, "other": 0},
          "holders: what keeps each block from being whole", h)
    h = report.holders(text.replace("0x10400 Movable 500 2 0 0 0 0 0 0 12",
                                    "0x10400 Movable 500 2 0 0 0 0 0 1 11"))
    check(h["per-cpu pages only"] == 0 and h["unmovable"] == 4,
          "holders (negative): one kernel page is not a per-cpu block", h)


test_census()
test_holders()
test_report()
print(f"1..{n}")
sys.exit(1 if failed else 0)
