#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""experiment/results.md from experiment/data/ (written by run.sh through
extract.py), and the side-by-side map page out/experiment/maps.html.
Every figure in results.md is computed here from the committed data.

usage: report.py DATADIR RESULTS.md MAPS.html FRAGVIEW
"""
import collections
import html
import io
import os
import statistics
import subprocess
import sys
import tarfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "tools", "pylib"))
from fvreport import publish, write_atomic  # noqa: E402

CONFIGS = (("off", "off"), ("on", "off"), ("off", "on"), ("on", "on"))
PHASES = (("under_load", "under-load", "under load"),
          ("at_rest", "at-rest", "at rest"))
MOMENTS = ("under-load", "under-load.after", "at-rest", "at-rest.after")


def read_tsv(path):
    if not os.path.exists(path):
        return []
    with open(path) as f:
        lines = [l.rstrip("\n").split("\t") for l in f if l.strip()]
    return [dict(zip(lines[0], l)) for l in lines[1:]]


def num(x):
    try:
        return float(x)
    except (TypeError, ValueError):
        return None


def quartiles(xs):
    xs = sorted(xs)
    if len(xs) == 1:
        return xs[0], xs[0]
    q = statistics.quantiles(xs, n=4, method="inclusive")
    return q[0], q[2]


def g(x):
    return f"{x:.0f}" if x == int(x) else f"{x:.1f}"


def spread(xs):
    """median [Q1-Q3] min-max"""
    if not xs:
        return "not measured"
    q1, q3 = quartiles(xs)
    return (f"**{g(statistics.median(xs))}** [{g(q1)}–{g(q3)}]"
            f" {g(min(xs))}–{g(max(xs))}")


def cfg_name(gr, co):
    return f"grouping {gr}, compaction {co}"


def outliers(xs_by_run):
    """runs whose value is 0 or beyond 1.5 IQR from the quartiles"""
    xs = [v for _, v in xs_by_run]
    if len(xs) < 4:
        return [(r, v) for r, v in xs_by_run if v == 0]
    q1, q3 = quartiles(xs)
    lo, hi = q1 - 1.5 * (q3 - q1), q3 + 1.5 * (q3 - q1)
    return [(r, v) for r, v in xs_by_run if v == 0 or v < lo or v > hi]


def ready_made(free_by_order):
    """free order-9 pages the buddy lists already hold (orders >= 9)"""
    c = [int(x) for x in free_by_order.split(",") if x]
    return sum(n << (o - 9) for o, n in enumerate(c) if o >= 9)


def raw_file(data, name, member):
    path = os.path.join(data, "runs", name + ".tar.xz")
    try:
        with tarfile.open(path) as t:
            return t.extractfile(f"{name}/{member}").read().decode()
    except (OSError, KeyError, tarfile.TarError):
        return None


def text_map(dump):
    """one character per pageblock of a debugfs pageblocks dump: the type
    letter (U M R H C I) if fewer than half its pages are free, lower case
    if half or more are, '.' if all are (an order-9 page is there)"""
    out = []
    for line in (dump or "").splitlines():
        f = line.split()
        if f[:1] == ["node"]:
            out.append(f"node {f[1]} {f[3]}:")
            row = ""
            continue
        if len(f) < 3 or not f[0].startswith("0x"):
            continue
        free = int(f[2])
        ch = f[1][0] if f[1] != "HighAtomic" else "H"
        ch = "." if free >= 512 else ch.lower() if free >= 256 else ch
        row += ch
        if len(row) == 64:
            out.append("  " + row)
            row = ""
    return out

HOLDERS = ("whole free", "per-cpu pages only", "unmovable", "movable",
           "reclaimable slab", "other")


def holders(census_text):
    """blocks by what keeps each from being a whole free order-9 page:
    nothing, only pages on per-cpu lists, then the first class present
    of unmovable, movable (LRU, movable_ops), reclaimable slab"""
    c = dict.fromkeys(HOLDERS, 0)
    for line in (census_text or "").splitlines():
        f = line.split()
        if len(f) != 13 or not f[0].startswith("0x"):
            continue
        (free, _ch, lru, mops, slab_r, slab_u, pgtable, kernel, pcp,
         reserved, offline) = map(int, f[2:])
        if free == 512:
            k = "whole free"
        elif slab_u + pgtable + kernel:
            k = "unmovable"
        elif lru + mops:
            k = "movable"
        elif slab_r:
            k = "reclaimable slab"
        elif pcp and not reserved + offline:
            k = "per-cpu pages only"
        else:
            k = "other"
        c[k] += 1
    return c


def blockers(w, data, by):
    """what keeps blocks from being whole at each set of attempts, from
    the census of every run"""
    w("## What keeps blocks from being whole")
    w("")
    w("Every pageblock at the moment of the attempts, by the census:"
      " whole free (an order-9 page is there), held only by pages on"
      " per-cpu lists (free, but not in the buddy lists: direct reclaim"
      " drains those lists only after it made progress,"
      " `__alloc_pages_direct_reclaim()`, and with this much free memory"
      " it makes none), else by the first of: an unmovable page, a"
      " movable page, a reclaimable slab page. Medians over the runs.")
    w("")
    w("| configuration | moment | " + " | ".join(HOLDERS) + " | got |")
    w("|---|---|" + "---:|" * (len(HOLDERS) + 1))
    per_run = {}
    for gr, co in CONFIGS:
        for col, mo, label in PHASES:
            rows = []
            for r in by[(gr, co)]:
                h = holders(raw_file(data, r["name"], mo + ".census"))
                per_run[(r["name"], mo)] = h
                rows.append(h)
            if not rows:
                continue
            got = [num(r[col + "_got"]) for r in by[(gr, co)]]
            w(f"| {cfg_name(gr, co)} | {label} | " +
              " | ".join(g(statistics.median(h[k] for h in rows)) for k in HOLDERS) +
              f" | {g(statistics.median(x for x in got if x is not None))} |")
    w("")
    w("At rest with compaction off, each run: successes against blocks held"
      " only by per-cpu pages:")
    w("")
    for gr in ("off", "on"):
        rs = sorted(by[(gr, "off")], key=lambda r: num(r["at_rest_got"]) or 0)
        w(f"- {cfg_name(gr, 'off')}: " + ", ".join(
            f"{r['at_rest_got']} / {per_run[(r['name'], 'at-rest')]['per-cpu pages only']}"
            for r in rs))
    w("")


def main():
    data, out, maps_html, fragview = sys.argv[1:5]
    prov = {r[0]: r[1] for r in (l.split("\t", 1) for l in
            open(os.path.join(data, "provenance.tsv")).read().splitlines())
            if len(r) == 2}
    runs = read_tsv(os.path.join(data, "runs.tsv"))
    zones = read_tsv(os.path.join(data, "zones.tsv"))
    steals = read_tsv(os.path.join(data, "steals.tsv"))
    # the kernel base (data written before there were bases is 6.1's) and
    # the directory of the data: experiment/data/ or data-VER/
    base = prov.get("base", "6.1")
    ddir = "experiment/" + os.path.basename(os.path.normpath(data))

    good = [r for r in runs if r["status"] == "ok" and
            r["kernel_grouping"] == r["grouping"]]
    bad = [r for r in runs if r not in good]
    by = collections.defaultdict(list)
    for r in good:
        by[(r["grouping"], r["compaction"])].append(r)

    def vals(gr, co, col):
        return [v for v in (num(r[col]) for r in by[(gr, co)]) if v is not None]

    census_on = any(z["census_blocks"] for z in zones)
    mem = prov.get("mem", "?")
    L = []
    w = L.append
    w(f"# The 2005 high-order experiment on {base}")
    w("")
    w("Generated by `experiment/run.sh` (`make experiment"
      f"{'' if base == '6.1' else ' KERNEL=' + base}`) from"
      f" `{ddir}/`; do not edit.")
    w("")
    w("## Provenance")
    w("")
    w("| | |")
    w("|---|---|")
    w(f"| kernel base | `{prov.get('kernel_source', 'linux-source-' + base)}` |")
    for k, label in (("series_commit", "series commit (last change to the series)"),
                     ("head", "tree (HEAD when the run started)"),
                     ("series", "patches"),
                     ("kernel_config_sha256", "kernel .config sha256"),
                     ("initramfs", "initramfs"),
                     ("host", "host"), ("started", "started"),
                     ("finished", "finished"),
                     ("wall_clock_seconds", "wall clock, s")):
        w(f"| {label} | `{prov.get(k, '?')}` |")
    w(f"| guest | {mem} RAM in 2 NUMA nodes, 2 vCPUs, QEMU TCG, no swap |")
    w(f"| runs | {prov.get('runs', '?')} boots per configuration, interleaved"
      f" (order alternating between runs); {len(good)} of {len(runs)} boots"
      " usable |")
    w(f"| census | {'in this series: polluted blocks counted' if census_on else 'not in this series: no polluted-block figures'} |")
    w("")
    if bad:
        w("Boots left out:")
        w("")
        for r in bad:
            why = (f"kernel reported grouping {r['kernel_grouping']}"
                   if r["kernel_grouping"] != r["grouping"] else r["status"])
            w(f"- `{r['name']}`: {why} (raw files in `{ddir}/runs/{r['name']}.tar.xz`)")
        w("")

    w("## What each boot does")
    w("")
    w("`qemu/guest/scenarios/exp-highalloc.sh`, with the load"
      " `qemu/guest/progs/mixload.c` and the attempts"
      " `qemu/guest/progs/highalloc.c -a`:")
    w("")
    w("1. A mixed load starts and keeps running: anonymous memory in slots of"
      " 4-128 pages (a quarter of RAM) unmapped and remapped at random,"
      " page cache files (tmpfs, an eighth of RAM) read or rewritten, a"
      " ring of 20,000 empty files created and unlinked (dentries,"
      " inodes), 256 pipes filled and drained, a process forked and"
      " reaped; each worker sleeps 1 ms per step. While the others build"
      " up and churn, the page cache first fills memory down to a tenth"
      " free, then randomly chosen files are deleted back to its eighth,"
      " so that the churn's kernel allocations are spread as page cache"
      " comes and goes.")
    w(f"2. After {prov.get('load_seconds', '?')} s of load, **under load**:"
      f" N attempts (N = one per pageblock of MemTotal),"
      f" {prov.get('gap_ms', '?')} ms apart, each trying to grow the hugetlb"
      " pool by one order-9 page (`alloc_pages(__GFP_COMP |"
      " __GFP_RETRY_MAYFAIL, 9)`); the pages obtained are kept until the"
      " last attempt. The load keeps running (its steps during the"
      " attempts: `under_load_load_steps` in `runs.tsv`). An attempt is"
      " made only while MemFree stays a sixteenth of RAM above the 2 MiB"
      " it takes: the pages held would otherwise drive the load (no swap)"
      " into the OOM killer; attempts not made count as failures"
      " (`under_load_refused`).")
    w("3. **At rest**: the load is stopped, its memory freed and its files"
      " deleted, `sync; echo 3 > drop_caches`, 1 s, then the same N"
      " attempts.")
    w("")
    w("The allocator's state is read at the moment of each set of attempts"
      " and right after it (with the pages still held): debugfs"
      " `pageblocks`, " + ("`census`, " if census_on else "") +
      "`/proc/buddyinfo`, `pagetypeinfo`, `zoneinfo`, `vmstat`; steals"
      " and claims come from `mobility:pageblock_steal` events.")
    w("")
    w("**max** beside each figure is the median free-memory bound at the"
      " moment of the attempts: the sum over zones of (free pages − min"
      " watermark) / 512, under load no more than (MemFree − the reserve) /"
      " 2 MiB, i.e. the order-9 pages the free memory could make if it"
      " were not fragmented at all. Nothing else can be had: there is no"
      " swap, so reclaim can only drop caches and slab.")
    w("")
    w("Grouping off is the boot parameter `page_group_by_mobility=off`;"
      " each boot checks the kernel's own \"mobility grouping on/off\""
      " line. Compaction off is `vm.compaction_proactiveness=0` and"
      " `vm.extfrag_threshold=1000` (then `compaction_suitable()` skips"
      " every zone for an order > 3, so neither direct compaction nor"
      " kcompactd compacts for these requests); compaction on is the stock"
      " tunables.")
    w("")

    def table(co, title):
        w(f"## {title}")
        w("")
        w("Order-9 pages obtained of N attempts: **median** [quartiles]"
          " min–max over the runs; max = free-memory bound (median).")
        w("")
        w("| | grouping off | grouping on | change of medians |")
        w("|---|---:|---:|---:|")
        for col, _, label in PHASES:
            cells = []
            for gr in ("off", "on"):
                xs = vals(gr, co, col + "_got")
                bd = vals(gr, co, col + "_bound")
                n_ = len(xs)
                mb = statistics.median(bd) if bd else None
                near = (" — at the bound" if xs and mb and
                        statistics.median(xs) >= 0.9 * mb else "")
                cells.append(f"{spread(xs)} (n={n_}, max {g(mb) if mb is not None else '?'}{near})")
            a, b = vals("off", co, col + "_got"), vals("on", co, col + "_got")
            ch = ""
            if a and b:
                ma, mb = statistics.median(a), statistics.median(b)
                ch = f"{100 * (mb - ma) / ma:+.0f} %" if ma else f"{g(ma)} → {g(mb)}"
            n_att = vals("on", co, col + "_attempts") or vals("off", co, col + "_attempts")
            att = f" (N = {g(n_att[0])})" if n_att else ""
            w(f"| {label}{att} | {cells[0]} | {cells[1]} | {ch} |")
        w("")

    table("off", "Headline: compaction off (the 2005 setting)")
    w("The seed (Light Fragmentation Avoidance v20 on 2.6.14-mm2, 160"
      " attempts at order 10, one every 0.1 s):")
    w("")
    w("| | clean | anti-defrag | change |")
    w("|---|---:|---:|---:|")
    w("| HugePages under load | 73 | 113 | +54 % |")
    w("| HugePages after tests | 78 | 118 | +51 % |")
    w("")
    w("(The letter's detailed section reports 96 under load and 102 after"
      " the tests for anti-defrag; its summary table says 113 and 118.)"
      " Differences in setup: 2005 ran updatedb and seven kernel compiles"
      " (load average 12) on a machine with swap, and its attempts forced"
      " pageout of that page cache; here the load is synthetic and sized"
      " to RAM, there is no swap and no disk file system, so anonymous and"
      " tmpfs pages can only be moved (by compaction), never paged out,"
      " and reclaim has only slab and dropped caches to give. 2005 had no"
      " compaction at all; the seed's attempts were order 10 of 160, ours"
      " order 9 of one per pageblock.")
    w("")

    table("on", "Compaction on")
    mig = {gr: vals(gr, "on", "under_load_compact_migrate_scanned") for gr in ("off", "on")}
    fsc = {gr: vals(gr, "on", "under_load_compact_free_scanned") for gr in ("off", "on")}
    stl = {gr: vals(gr, "on", "under_load_compact_stall") for gr in ("off", "on")}
    suc = {gr: vals(gr, "on", "under_load_compact_success") for gr in ("off", "on")}
    if all(mig.values()):
        w("These rows do not compare grouping alone. Compaction's free"
          " scanner takes migration targets only from Movable (and CMA)"
          " blocks (`suitable_migration_target()`), and with"
          " `page_group_by_mobility=off` every block is Unmovable, so only"
          " the last-resort direct compaction at MIN_COMPACT_PRIORITY,"
          " which ignores block types, finds any target. During the"
          " attempts under load (medians per boot):")
        w("")
        w("| | grouping off | grouping on |")
        w("|---|---:|---:|")
        for label, d in (("compact_stall", stl), ("compact_success", suc),
                         ("compact_migrate_scanned", mig),
                         ("compact_free_scanned", fsc)):
            w(f"| {label} | {g(statistics.median(d['off']))} |"
              f" {g(statistics.median(d['on']))} |")
        w("")
        w("So the compaction-on columns compare \"grouping + compaction\""
          " with \"compaction that can hardly move anything\".")
        w("")
    off_c = [r for r in by[("on", "off")] + by[("off", "off")]
             if any(num(r[p + "_compact_migrate_scanned"]) for p in ("under_load", "at_rest"))]
    if off_c:
        w("With compaction off, these boots still show compaction at work"
          " (for requests of order <= 3, which `extfrag_threshold` does not"
          " cover): " + ", ".join(f"`{r['name']}`" for r in off_c) + ".")
        w("")

    # outliers, with what the allocator held at the moment
    z_at = {(z["name"], z["moment"], z["nid"], z["zone"]): z for z in zones}
    ready = collections.defaultdict(int)
    for z in zones:
        ready[(z["name"], z["moment"])] += ready_made(z["free_by_order"])
    w("## Spread and outliers")
    w("")
    w("Runs with 0 successes or beyond 1.5 × the interquartile range, with"
      " the order-9 pages already free in the buddy lists at the moment of"
      " the attempts (orders ≥ 9, from buddyinfo) and the free-memory bound:")
    w("")
    any_out = False
    for gr, co in CONFIGS:
        for col, mo, label in PHASES:
            xs = [(r, num(r[col + "_got"])) for r in by[(gr, co)]
                  if num(r[col + "_got"]) is not None]
            for r, v in outliers(xs):
                any_out = True
                w(f"- {cfg_name(gr, co)}, {label}: `{r['name']}` got {g(v)}"
                  f" (median {g(statistics.median(x for _, x in xs))});"
                  f" ready-made order-9 pages {ready[(r['name'], mo)]},"
                  f" max {r[col + '_bound']}, OOM kills {r['oom_kills']}")
    for r in good:
        for col, _, label in PHASES:
            got, bd = num(r[col + "_got"]), num(r[col + "_bound"])
            if got is not None and bd is not None and got > bd:
                any_out = True
                w(f"- `{r['name']}`, {label}: got {g(got)}, more than the"
                  f" free-memory bound {g(bd)} taken at the start of the"
                  " attempts: memory was freed during them"
                  + (" (the load keeps allocating and freeing)"
                     if col == "under_load" else ""))
    if not any_out:
        w("- none")
    w("")
    w("How much of each result was already free: median successes against"
      " the median of order-9 pages ready-made in the buddy lists at the"
      " moment of the attempts:")
    w("")
    w("| configuration | under load: got / ready-made | at rest: got / ready-made |")
    w("|---|---:|---:|")
    for gr, co in CONFIGS:
        cells = []
        for col, mo, _ in PHASES:
            got = vals(gr, co, col + "_got")
            rm = [ready[(r["name"], mo)] for r in by[(gr, co)]]
            cells.append(f"{g(statistics.median(got))} / {g(statistics.median(rm))}"
                         if got and rm else "–")
        w(f"| {cfg_name(gr, co)} | {cells[0]} | {cells[1]} |")
    w("")

    # per-zone figures: medians over the runs of each configuration
    w("## Per zone (medians over the runs)")
    w("")
    w("At the moment of each set of attempts. Blocks per type from"
      " `pagetypeinfo`; " + ("polluted = blocks holding a page of another"
      " mobility class than the block's type (census); unmovable pages as"
      " a share of the zone's pages against the share of blocks holding"
      " one; " if census_on else "") + "steals and claims = fallbacks"
      " during the load before the attempts (`pageblock_steal`, claimed ="
      " the block changed type); free pages by order 0..10 from buddyinfo;"
      " got = pages obtained on the node.")
    w("")
    hdr = ("| configuration | moment | zone | free | max | U/M/R/H blocks |"
           + (" polluted | unmov. pages / blocks |" if census_on else "")
           + " steals (claimed) | free by order 0..10 | got |")
    w(hdr)
    w("|" + "---|" * (hdr.count("|") - 1))
    st_by = collections.defaultdict(lambda: [0, 0])
    for s in steals:
        if s["window"] == "load":
            k = (s["name"], s["nid"], s["zone"])
            st_by[k][0] += int(s["count"])
            st_by[k][1] += int(s["count"]) if s["claimed"] == "1" else 0
    for gr, co in CONFIGS:
        names = [r["name"] for r in by[(gr, co)]]
        for col, mo, label in PHASES:
            zkeys = sorted({(z["nid"], z["zone"]) for z in zones
                            if z["name"] in names and z["moment"] == mo})
            for nid, zone in zkeys:
                zs = [z_at[(n, mo, nid, zone)] for n in names
                      if (n, mo, nid, zone) in z_at]

                def med(col_):
                    xs = [num(z[col_]) for z in zs if num(z[col_]) is not None]
                    return g(statistics.median(xs)) if xs else "–"
                orders = [[int(x) for x in z["free_by_order"].split(",")] for z in zs
                          if z["free_by_order"]]
                fbo = (" ".join(g(statistics.median(o[i] for o in orders))
                                for i in range(len(orders[0])))
                       if orders else "–")
                cen = ""
                if census_on:
                    pol = [(num(z["polluted"]), num(z["census_blocks"])) for z in zs
                           if num(z["census_blocks"])]
                    up = [100 * num(z["unmovable_pages"]) / num(z["pages"]) for z in zs
                          if num(z["pages"])]
                    ub = [100 * num(z["blocks_with_unmovable"]) / num(z["census_blocks"])
                          for z in zs if num(z["census_blocks"])]
                    cen = (f" {g(statistics.median(p for p, _ in pol))} of"
                           f" {g(statistics.median(b for _, b in pol))} |"
                           f" {statistics.median(up):.1f} % / {statistics.median(ub):.0f} % |"
                           if pol else " – | – |")
                stv = [st_by[(n, nid, zone)] for n in names]
                stc = (f"{g(statistics.median(s[0] for s in stv))}"
                       f" ({g(statistics.median(s[1] for s in stv))})"
                       if mo == "under-load" else "")
                gotn = vals(gr, co, f"{col}_node{nid}")
                w(f"| {cfg_name(gr, co)} | {label} | {nid} {zone} | {med('free')} |"
                  f" {med('bound')} | {med('blocks_unmovable')}/{med('blocks_movable')}/"
                  f"{med('blocks_reclaimable')}/{med('blocks_highatomic')} |{cen}"
                  f" {stc} | {fbo} | {g(statistics.median(gotn)) if gotn else '–'} |")
    w("")
    if census_on:
        w("With grouping off every block is Unmovable, so every block"
          " holding an LRU page counts as polluted: compare the share of"
          " blocks holding an unmovable page instead (the right-hand figure"
          " of \"unmov. pages / blocks\"). The census is read without"
          " `zone->lock` while the load runs: approximate for blocks that"
          " change meanwhile.")
        w("")
    w("Steals during the load, all zones, by allocation → block type"
      " (median per boot; claimed in parentheses):")
    w("")
    kinds = sorted({(s["alloc_mt"], s["block_mt"]) for s in steals
                    if s["window"] == "load"})
    if kinds:
        w("| configuration | " + " | ".join(f"{a} → {b}" for a, b in kinds) + " |")
        w("|---|" + "---:|" * len(kinds))
        for gr, co in CONFIGS:
            cells = []
            for a, b in kinds:
                per = collections.defaultdict(lambda: [0, 0])
                for s in steals:
                    if (s["window"] == "load" and s["grouping"] == gr and
                            s["compaction"] == co and (s["alloc_mt"], s["block_mt"]) == (a, b)):
                        per[s["name"]][0] += int(s["count"])
                        per[s["name"]][1] += int(s["count"]) if s["claimed"] == "1" else 0
                xs = [per[r["name"]] for r in by[(gr, co)]]
                cells.append(f"{g(statistics.median(x[0] for x in xs))}"
                             f" ({g(statistics.median(x[1] for x in xs))})" if xs else "–")
            w(f"| {cfg_name(gr, co)} | " + " | ".join(cells) + " |")
        w("")
        w("With grouping off every block and every allocation is Unmovable,"
          " so no fallback happens and no steal is recorded.")
    else:
        w("None recorded.")
    w("")

    if census_on:
        blockers(w, data, by)
    # maps: the run with the median under-load result of each configuration
    w("## Maps")
    w("")
    w("For each configuration the run with the median under-load result,"
      " at the moment of the attempts and right after them (huge pages"
      " held). One character per pageblock: the type letter (U M R H) if"
      " less than half the block is free, lower case if half or more is,"
      " `.` if the whole block is free. With grouping off every block is"
      " Unmovable by design. `out/experiment/maps.html` has the same"
      " dumps drawn by `fragview dump --format html`, side by side"
      " (regenerate with `experiment/run.sh --report-only`).")
    w("")
    panels = []
    for gr, co in CONFIGS:
        rs = sorted((r for r in by[(gr, co)] if num(r["under_load_got"]) is not None),
                    key=lambda r: (num(r["under_load_got"]), r["name"]))
        if not rs:
            continue
        rep = rs[(len(rs) - 1) // 2]
        w(f"### {cfg_name(gr, co)}: `{rep['name']}`"
          f" (under load {rep['under_load_got']}, at rest {rep['at_rest_got']})")
        w("")
        w("```")
        for mo in MOMENTS:
            dump = raw_file(data, rep["name"], mo + ".pageblocks")
            w(f"{mo}:")
            L.extend(text_map(dump) or ["  (no dump)"])
            if dump:
                panels.append((cfg_name(gr, co), rep["name"], mo, dump))
        w("```")
        w("")
    write_maps(maps_html, panels, fragview, ddir)

    w("## Per run")
    w("")
    w("| boot | status | under load (max) | at rest (max) | compact_stall u/r |"
      " migrate_scanned u/r | load steps during attempts | OOM kills | boot s |")
    w("|---|---|---:|---:|---:|---:|---:|---:|---:|")
    for r in runs:
        w(f"| `{r['name']}` | {r['status']} | {r['under_load_got']} ({r['under_load_bound']}) |"
          f" {r['at_rest_got']} ({r['at_rest_bound']}) |"
          f" {r['under_load_compact_stall']}/{r['at_rest_compact_stall']} |"
          f" {r['under_load_compact_migrate_scanned']}/{r['at_rest_compact_migrate_scanned']} |"
          f" {r['under_load_load_steps']} | {r['oom_kills']} | {r['boot_seconds']} |")
    w("")
    w(f"Raw data: `{ddir}/runs.tsv` (one row per boot),"
      " `zones.tsv` (per zone and moment), `steals.tsv` (per phase),"
      " `provenance.tsv`, and each boot's files (logs, dumps, trace as"
      " text) in `runs/NAME.tar.xz`.")
    publish(out, "\n".join(L) + "\n")


def write_maps(path, panels, fragview, ddir):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    out = ["<!DOCTYPE html>", "<meta charset=utf-8>",
           "<title>fragview: the experiment's pageblock maps</title>",
           "<style>body{font-family:sans-serif;margin:1em}"
           ".row{display:flex;gap:1em}.col{flex:1}"
           "iframe{width:100%;height:60vh;border:1px solid #888}</style>",
           "<h1>Pageblock maps at the attempts and after</h1>",
           f"<p>Generated by experiment/report.py from {ddir}/:"
           " <code>fragview dump --format html</code> of the debugfs dumps"
           " of the median run of each configuration.</p>"]
    rows = collections.OrderedDict()
    for cfg, name, mo, dump in panels:
        rows.setdefault(cfg, []).append((name, mo, dump))
    for cfg, ps in rows.items():
        out.append(f"<h2>{html.escape(cfg)}</h2><div class=row>")
        for name, mo, dump in ps:
            r = subprocess.run([fragview, "dump", "-", "--format", "html"],
                               input=dump, capture_output=True, text=True)
            doc = r.stdout if r.returncode == 0 else f"<p>{html.escape(r.stderr)}</p>"
            out.append(f"<div class=col><h3>{html.escape(name)} {html.escape(mo)}</h3>"
                       f"<iframe srcdoc=\"{html.escape(doc, quote=True)}\"></iframe></div>")
        out.append("</div>")
    write_atomic(path, "\n".join(out) + "\n")


if __name__ == "__main__":
    main()
