#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Turn bench/run.sh's data.tsv into the tables of bench/results.md.

usage: report.py DATA.tsv COMMANDS.txt NOTES.txt RESULTS.md

Every figure is a ratio against a peer from the same run; absolute times
are shown next to it only for scale.  Parts without data are listed as
NOT MEASURED with the reason bench/run.sh noted.
"""
import collections
import datetime
import os
import platform
import statistics
import subprocess
import sys


def med(xs):
    return statistics.median(xs) if xs else float("nan")


def pct(r):
    return f"{(r - 1) * 100:+.2f} %"


def machine():
    cpu = "?"
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    with open("/proc/meminfo") as f:
        mem_kb = int(f.readline().split()[1])
    qemu = subprocess.run(["qemu-system-x86_64", "--version"],
                          capture_output=True, text=True).stdout
    return (f"{os.cpu_count()} CPUs ({cpu}), {mem_kb / 1048576:.1f} GiB RAM, "
            f"{platform.system()} {platform.release()}; "
            f"{qemu.splitlines()[0] if qemu else 'qemu ?'}, TCG (-cpu max)")


def verdict(r, lo, hi, tolerance):
    """meets/MISSES, unless the runs scatter more than the effect asked."""
    if hi - lo > 2 * tolerance:
        return f"inconclusive: runs spread {100 * (hi - lo):.0f} %"
    return "meets" if r <= 1 + tolerance else "MISSES"


TOOLS = {"trace-cmd-report": "`trace-cmd report`",
         "fragview-stats": "`fragview stats`",
         "fragview-map-txt": "`fragview map --format txt`"}
CAPS = {"small": "fragment (small, real)",
        "1x": "bigtrace 1x",
        "10x": "bigtrace 10x"}


def overhead_table(rows, part, title, w):
    ov = collections.defaultdict(list)  # (workload, flavour-mode) -> [(boot, rep, ns, events)]
    for r in rows:
        if r[0] == part:
            ov[(r[1], r[2])].append((int(r[3]), int(r[4]), int(r[5]),
                                     int(r[6]) if len(r) > 6 and r[6] else None))
    w(f"### {title}")
    w("")
    if not ov:
        w("Not measured.")
        w("")
        return
    w("| workload | comparison | median ratio | min | max | ratio of minima | runs | target | verdict |")
    w("|---|---|---:|---:|---:|---:|---:|---|---|")
    for wl in ("faultloop", "pipeloop", "migrateloop"):
        u = ov.get((wl, "unpatched-off"), [])
        off = ov.get((wl, "patched-off"), [])
        on = ov.get((wl, "patched-on"), [])
        if u and off:
            r = med([x[2] for x in off]) / med([x[2] for x in u])
            rmin = min(x[2] for x in off) / min(x[2] for x in u)
            per_boot = []
            for b in sorted({x[0] for x in off}):
                ub = [x[2] for x in u if x[0] == b]
                pb = [x[2] for x in off if x[0] == b]
                if ub and pb:
                    per_boot.append(med(pb) / med(ub))
            ok = verdict(r, min(per_boot), max(per_boot), 0.01)
            w(f"| {wl} | patched, events off / unpatched | {r:.4f} ({pct(r)}) |"
              f" {min(per_boot):.4f} | {max(per_boot):.4f} | {rmin:.4f} |"
              f" {len(off)} vs {len(u)} | <= +1 % | {ok} |")
        else:
            w(f"| {wl} | patched, events off / unpatched | not measured | | | | | <= +1 % | |")
        if off and on:
            pairs = {(x[0], x[1]): x[2] for x in off}
            rs = [x[2] / pairs[(x[0], x[1])] for x in on if (x[0], x[1]) in pairs]
            r = med([x[2] for x in on]) / med([x[2] for x in off])
            rmin = min(x[2] for x in on) / min(x[2] for x in off)
            ok = verdict(r, min(rs), max(rs), 0.05)
            w(f"| {wl} | patched, events on / events off | {r:.4f} ({pct(r)}) |"
              f" {min(rs):.4f} | {max(rs):.4f} | {rmin:.4f} | {len(on)} pairs |"
              f" <= +5 % | {ok} |")
        else:
            w(f"| {wl} | patched, events on / events off | not measured | | | | | <= +5 % | |")
    w("")
    w("Medians for scale (ns): " + "; ".join(
        f"{wl} {k}: {med([x[2] for x in v]):.0f}"
        for (wl, k), v in sorted(ov.items())) + ".")
    evs = [x[3] for x in ov.get(("faultloop", "patched-on"), []) if x[3] is not None]
    if evs:
        w(f"Mobility events written per events-on run (all workloads):"
          f" median {med(evs):.0f}, min {min(evs)}, max {max(evs)}.")
    w("")


def main():
    data, cmds, notes, out = sys.argv[1:5]
    rows = [line.rstrip("\n").split("\t") for line in open(data) if line.strip()]
    lines = []
    w = lines.append
    now = datetime.datetime.now(datetime.timezone.utc)
    w("# fragview benchmarks")
    w("")
    w(f"Measured {now:%Y-%m-%d %H:%M} UTC by `bench/run.sh` on {machine()}.")
    w("The machine was shared with other jobs (kernel builds, other guests);"
      " host load average (1 min) at each overhead boot is listed below."
      " Runs of compared flavours are interleaved so load hits all of them.")
    w("")
    for n in dict.fromkeys(open(notes).read().splitlines()):
        if n.strip():
            w(f"- **{n}**")
    if open(notes).read().strip():
        w("")

    # --- static size
    size = {(r[1], r[2]): int(r[3]) for r in rows if r[0] == "size"}
    w("## Static cost: text size")
    w("")
    if size:
        w("| object | unpatched text (B) | patched text (B) | patched / unpatched |")
        w("|---|---:|---:|---:|")
        for obj in ("mm/page_alloc.o", "mm/migrate.o"):
            u, p = size.get((obj, "unpatched")), size.get((obj, "patched"))
            ratio = f"{p / u:.4f} ({pct(p / u)})" if u and p else "not measured"
            w(f"| `{obj}` | {u or '-'} | {p or 'not measured'} | {ratio} |")
    else:
        w("Not measured.")
    w("")

    # --- overhead
    loads = [(r[2], r[3], r[4]) for r in rows if r[0] == "load"]
    w("## Tracepoint overhead (guest, 1 vCPU)")
    w("")
    w("`faultloop -s 65536 -n 1` (16384 order-0 anonymous faults; 64 MiB is"
      " more than a per-cpu list holds, so the frees trim it: `pcp_drain`;"
      " ns per fault), `bench-pipeloop -n 800` (order-0 data pages +"
      " order-2/3 pipe rings, ns per iteration) and `bench-migrateloop -n"
      " 256 -i 10` (move_pages(2) of 256 pages node 0 -> 1 -> 0, ten"
      " times: one `migrate_folio` event per page moved, the event-heavy"
      " case; ns per page moved; the guests have 2 NUMA nodes). Unpatched and patched"
      " kernels booted alternately; inside each patched boot the events are"
      " switched off/on alternately run by run (tracefs only:"
      " `events/mobility/enable`, `tracing_on`, nobody reading the 1 MiB/cpu"
      " ring, overwrite mode). Ratios: median of all runs of one side over"
      " the median of the other; min/max over the per-boot (off vs"
      " unpatched) or per-pair (on vs off) ratios.")
    w("")
    w("Two clocks: **wall** = plain TCG, guest time follows host time, so"
      " host load (other jobs on the 2 shared cores) is noise in every"
      " number; **icount** = TCG with `-icount shift=0`: the guest clock"
      " advances 1 ns per executed guest instruction, so the ratios are"
      " ratios of guest instructions executed, immune to host load (but"
      " blind to cache and branch-prediction effects).")
    w("")
    for part, title in (("icount", "icount (guest instructions)"),
                        ("overhead", "wall clock (TCG)")):
        overhead_table(rows, part, title, w)
    if loads:
        w("Host load (1 min) at each wall-clock boot: " + ", ".join(
            f"{fl} #{b}: {ld}" for fl, b, ld in loads) + ".")
    w("")

    # --- throughput
    ev = {r[1]: (int(r[2]), int(r[3]), int(r[4]), r[5]) for r in rows if r[0] == "events"}
    tp = collections.defaultdict(list)       # (cap, tool) -> [(ns, rss)]
    for r in rows:
        if r[0] == "tput":
            tp[(r[1], r[2])].append((int(r[3]), int(r[4])))
    w("## fragview throughput and memory vs `trace-cmd report`")
    w("")
    if ev and tp:
        w("Same captures for every tool; output to /dev/null; wall time median"
          " of the runs, peak RSS from `/usr/bin/time` (max over runs)."
          " Events = every event in the capture (as `trace-cmd report` lists"
          " them), mobility = the `mobility` system's share. Captures:"
          " *fragment* = the `fragment` scenario as `make scenario` records"
          " it (1 GiB guest); *bigtrace 1x / 10x* = `bench-bigtrace` with 1"
          " and 10 rounds (2 GiB guest; each round a fragmenter round, a"
          " full compaction and 100 map snapshots; snapshots are the only way"
          " to get > 1 M events out of a TCG guest in minutes, hence the"
          " `pageblock_state` share). Host timings, same shared machine.")
        w("")
        w("| capture | events (mobility) | trace.dat | tool | median s | events/s | time / trace-cmd report | peak RSS (MiB) |")
        w("|---|---:|---:|---|---:|---:|---:|---:|")
        for cap in ("small", "1x", "10x"):
            if cap not in ev:
                continue
            n, mob, size_b, _ = ev[cap]
            base = med([x[0] for x in tp[(cap, "trace-cmd-report")]])
            for tool in ("trace-cmd-report", "fragview-stats", "fragview-map-txt"):
                xs = tp.get((cap, tool))
                if not xs:
                    continue
                t = med([x[0] for x in xs])
                w(f"| {CAPS[cap]} | {n} ({mob}) | {size_b / 1048576:.1f} MiB | {TOOLS[tool]} |"
                  f" {t / 1e9:.3f} | {n / (t / 1e9):,.0f} | {t / base:.3f} |"
                  f" {max(x[1] for x in xs) / 1024:.1f} |")
        mix = collections.defaultdict(list)
        for r in rows:
            if r[0] == "mix":
                mix[r[1]].append((int(r[3]), r[2]))
        w("")
        w("Event mix (share of all events, top 5):")
        w("")
        for cap in ("small", "1x", "10x"):
            if cap in mix:
                tot = sum(n for n, _ in mix[cap])
                top = sorted(mix[cap], reverse=True)[:5]
                w(f"- {CAPS[cap]}: " + ", ".join(f"`{e}` {100 * n / tot:.1f} %" for n, e in top))
        if "1x" in ev and "10x" in ev:
            w("")
            w("Peak RSS growth from the 1x to the 10x recording"
              f" ({ev['10x'][0] / ev['1x'][0]:.1f}x the events):")
            w("")
            w("| tool | RSS 1x (MiB) | RSS 10x (MiB) | 10x / 1x |")
            w("|---|---:|---:|---:|")
            for tool in ("trace-cmd-report", "fragview-stats", "fragview-map-txt"):
                a = tp.get(("1x", tool))
                b = tp.get(("10x", tool))
                if a and b:
                    ra, rb = max(x[1] for x in a), max(x[1] for x in b)
                    w(f"| {TOOLS[tool]} | {ra / 1024:.1f} | {rb / 1024:.1f} | {rb / ra:.2f} |")
    else:
        w("Not measured (see the notes above).")
    w("")

    # --- map dump
    md = collections.defaultdict(list)       # (mem, mode) -> [(ns, bytes, units)]
    for r in rows:
        if r[0] == "mapdump":
            md[(r[1], r[2])].append((int(r[6]), int(r[4]), int(r[5])))
    w("## Map dump: debugfs `mobility/pageblocks` vs walking `/proc/kpageflags`")
    w("")
    if md:
        w("In the guest (1 vCPU), `bench-mapread` alternately reads the whole"
          " debugfs dump and walks `/proc/kpageflags` for every pfn (per-block"
          " counts of buddy/slab/LRU pages, as tools/mm/page-types reads it;"
          " kpageflags has no migratetype, so it cannot even give the same"
          " map). Median of the runs.")
        w("")
        w("| guest RAM | debugfs ms (bytes) | kpageflags ms (bytes) | kpageflags / debugfs | runs |")
        w("|---|---:|---:|---:|---:|")
        for mem in ("1G", "4G"):
            d = md.get((mem, "debugfs"), [])
            k = md.get((mem, "kpageflags"), [])
            if not k:
                continue
            kt = med([x[0] for x in k])
            if d:
                dt = med([x[0] for x in d])
                w(f"| {mem} | {dt / 1e6:.2f} ({d[0][1]}) | {kt / 1e6:.2f} ({k[0][1]}) |"
                  f" {kt / dt:.1f} | {len(d)} / {len(k)} |")
            else:
                w(f"| {mem} | not measured | {kt / 1e6:.2f} ({k[0][1]}) | not measured | 0 / {len(k)} |")
    else:
        w("Not measured.")
    w("")

    # --- commands
    w("## Commands")
    w("")
    w("`make bench` = `bench/run.sh`, which ran (repeats counted):")
    w("")
    w("```")
    seen = collections.OrderedDict()
    for c in open(cmds).read().splitlines():
        seen[c] = seen.get(c, 0) + 1
    for c, n in seen.items():
        w(f"{c}" + (f"    # x{n}" if n > 1 else ""))
    w("```")
    text = "\n".join(lines) + "\n"
    tmp = out + ".tmp"
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, out)
    sys.stdout.write(text)


if __name__ == "__main__":
    main()
