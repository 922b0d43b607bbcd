#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""experiment/extract.py on a real boot of experiment/run.sh
(tests/host/fixtures/exp-boot.*, made by make-exp-boot.sh): every figure
it writes is recomputed here from the boot's own files by other means
(stresshigh's own summary for the counts, the trace text for steals and
drains), and the boots it must reject or redo are made from the same boot.
TAP output.
"""
import gzip
import os
import re
import shutil
import sys
import tarfile
import tempfile

TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
FIX = os.path.join(TOP, "tests", "host", "fixtures")
sys.path.insert(0, os.path.join(TOP, "experiment"))
sys.path.insert(0, os.path.join(TOP, "tests", "lib"))
import extract  # noqa: E402
from tap import check, finish  # noqa: E402

def table(path):
    with open(path) as f:
        rows = [line.rstrip("\n").split("\t") for line in f]
    return [dict(zip(rows[0], r)) for r in rows[1:]]


with gzip.open(os.path.join(FIX, "exp-boot.report.gz"), "rt") as f:
    REPORT = f.read()
extract.trace_report = lambda dat: REPORT


def run(tmp, name, arm, mutate=None):
    """unpack the boot as NAME, let MUTATE change its files, extract it"""
    boot = os.path.join(tmp, "boots", name)
    shutil.rmtree(boot, ignore_errors=True)
    os.makedirs(boot)
    with tarfile.open(os.path.join(FIX, "exp-boot.tar.xz")) as t:
        t.extractall(boot)
    if mutate:
        mutate(os.path.join(boot, "exp-stress"))
    data = os.path.join(tmp, "data")
    os.makedirs(os.path.join(data, "runs"), exist_ok=True)
    sys.argv = ["extract.py", boot, name, arm, "1", "ok", "100", "1.0", data]
    extract.main()
    return data, os.path.join(boot, "exp-stress")


def read(d, f):
    with open(os.path.join(d, f)) as fh:
        return fh.read()


tmp = tempfile.mkdtemp()
try:
    data, d = run(tmp, "b1", "6.1-on-pinned")
    boots, phases = table(f"{data}/boots.tsv"), table(f"{data}/phases.tsv")
    b = boots[0]
    check(len(boots) == 1 and b["status"] == "ok" and b["kernel_grouping"] == "on",
          "a good boot is ok, grouping as the kernel printed it", boots)
    steal_lines = [l for l in REPORT.splitlines()
                   if " pageblock_steal: " in l and " taken=0" not in l]
    check(int(b["steals"]) == len(steal_lines) > 0,
          f"steals: the trace's {len(steal_lines)} pageblock_steal events", b["steals"])
    check(int(b["claims"]) == sum("claimed=1" in l for l in steal_lines),
          "claims: the steals with claimed=1", b["claims"])
    highs = [int(x) for x in re.findall(r"\n\s+high:\s+(\d+)", read(d, "under-load.zoneinfo"))]
    check((int(b["pcp_high_min"]), int(b["pcp_high_max"])) == (min(highs), max(highs)),
          "per-cpu high: the zoneinfo's smallest and largest", (b, highs))
    v0 = {l.split()[0]: int(l.split()[1]) for l in read(d, "start.vmstat").splitlines()}
    v1 = {l.split()[0]: int(l.split()[1]) for l in read(d, "end.vmstat").splitlines()}
    check(int(b["pswpout"]) == v1["pswpout"] - v0["pswpout"] > 0,
          "swap-outs: the boot's vmstat difference (and the load swapped)", b["pswpout"])
    pts = {l.split()[0]: [float(x) for x in l.split()[1:]]
           for l in read(d, "load.rates").splitlines()}
    before = (pts["attempts"][1] - pts["window"][1]) / (pts["attempts"][0] - pts["window"][0])
    check(abs(float(b["load_rate_before"]) - before) < 0.1,
          "the load's rate before the attempts: bytes over seconds of the window",
          (b["load_rate_before"], before))

    check(len(phases) == 4 and {(p["phase"], p["style"]) for p in phases} ==
          {(ph, st) for ph in ("under_load", "at_rest") for st in ("hugetlb", "thp")},
          "four phase rows: under_load and at_rest x hugetlb and thp", phases)
    for p in phases:
        ph = p["phase"].replace("_", "-")
        summ = re.search(rf"style {p['style']} attempts (\d+) obtained (\d+) refused (\d+)",
                         read(d, ph + ".summary")).groups()
        check((p["attempts"], p["obtained"], p["refused"]) == summ,
              f"{ph} {p['style']}: attempts, obtained, refused as stresshigh summed them {summ}", p)
        mi = {l.split(":")[0]: int(l.split()[1]) for l in read(d, ph + ".meminfo").splitlines()}
        can = (mi["MemFree"] + mi["Active(file)"] + mi["Inactive(file)"] + mi["SReclaimable"] +
               min(mi["Active(anon)"] + mi["Inactive(anon)"], mi["SwapFree"])) // 2048
        check(int(p["bound"]) == can and can <= mi["MemTotal"] // 2048,
              f"{ph} {p['style']}: the bound is what reclaim could free, in 2 MiB pages ({can})",
              p["bound"])
        order9 = 0
        for line in read(d, ph + ".buddyinfo").splitlines():
            c = line.split()[4:]
            order9 += sum(int(c[o]) * 2 ** (o - 9) for o in range(9, len(c)))
        check(int(p["free9_start"]) == order9,
              f"{ph} {p['style']}: order-9 blocks free at the start ({order9})", p["free9_start"])
        inside, drains = False, 0
        for line in REPORT.splitlines():
            if f"fv-exp {ph} done" in line:
                inside = False
            elif f"fv-exp {ph}" in line:
                inside = True
            elif inside and " pcp_drain: " in line:
                drains += 1
        check(int(p["pcp_drains"]) == drains,
              f"{ph} {p['style']}: per-cpu drains between its markers ({drains})", p["pcp_drains"])
    att = table(f"{data}/attempts.tsv")
    lines = read(d, "under-load.attempts").splitlines() + read(d, "at-rest.attempts").splitlines()
    check(len(att) == len(lines) and all(a["name"] == "b1" for a in att),
          f"attempts.tsv: one row per attempt ({len(lines)})", len(att))

    # the same boot extracted again replaces its rows
    run(tmp, "b1", "6.1-on-pinned")
    check(len(table(f"{data}/boots.tsv")) == 1 and len(table(f"{data}/phases.tsv")) == 4
          and len(table(f"{data}/attempts.tsv")) == len(lines),
          "a boot redone replaces its rows, none twice")

    # negative: what must not pass for a good boot
    run(tmp, "b2", "6.1-off-pinned")
    b2 = [r for r in table(f"{data}/boots.tsv") if r["name"] == "b2"][0]
    check(b2["status"] == "failed",
          "a kernel that ignored page_group_by_mobility=off: the boot failed", b2)

    def failing(dd):
        with open(os.path.join(dd, "log"), "a") as f:
            f.write("fragview: FAIL: stresshigh under-load\n")
    run(tmp, "b3", "6.1-on-pinned", failing)
    b3 = [r for r in table(f"{data}/boots.tsv") if r["name"] == "b3"][0]
    check(b3["status"] == "failed", "a scenario that logged a FAIL: the boot failed", b3)

    def truncated(dd):
        os.remove(os.path.join(dd, "at-rest.attempts"))
    run(tmp, "b4", "6.1-on-pinned", truncated)
    p4 = [r for r in table(f"{data}/phases.tsv")
          if r["name"] == "b4" and r["phase"] == "at_rest"]
    b4 = [r for r in table(f"{data}/boots.tsv") if r["name"] == "b4"][0]
    check(b4["status"] == "failed" and len(p4) == 2 and
          all(r["attempts"] == "0" and r["obtained"] == "0" for r in p4),
          "a boot cut short (no at-rest attempts): failed, 0 attempts there, not a made-up count",
          (b4, p4))

    def fewer(dd):
        path = os.path.join(dd, "under-load.attempts")
        with open(path) as f:
            keep = f.readlines()[:-1]
        with open(path, "w") as f:
            f.writelines(keep)
    run(tmp, "b5", "6.1-on-pinned", fewer)
    b5 = [r for r in table(f"{data}/boots.tsv") if r["name"] == "b5"][0]
    check(b5["status"] == "failed", "one attempt fewer than the scenario planned: failed", b5)

    census = ("node 0 zone DMA32 start_pfn 0x1000 end_pfn 0x2000\n"
              "0x1000 Movable 500 3 0 0 0 0 0 0 12 0 0 0\n"
              "0x1200 Movable 499 3 1 0 0 0 0 0 12 0 0 0\n"
              "0x1400 Unmovable 512 1 0 0 0 0 0 0 0 0 0 0\n"
              "0x1600 Movable 400 3 0 0 0 0 0 0 100 12 0\n")
    check(extract.pcp_only_blocks(census) == 1,
          "per-cpu-only blocks: free and per-cpu pages alone (one LRU page, a reserved"
          " page or none on the lists do not count)", extract.pcp_only_blocks(census))
finally:
    shutil.rmtree(tmp)

sys.exit(finish())
