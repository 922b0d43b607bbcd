#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Turn bench/run.sh's data.tsv into the tables of bench/results.md.

usage: report.py DATA.tsv COMMANDS.txt NOTES.txt RESULTS.md

Every figure is a ratio against a peer from the same run; absolute times
are shown next to it only for scale.  Parts without data are listed as
NOT MEASURED with the reason bench/run.sh noted.

A part without any row in DATA.tsv whose section the existing RESULTS.md
has (an earlier run's, e.g. before `bench/run.sh --only X`) keeps that
section verbatim: every section says which run measured it, and the
header, notes and commands of earlier runs that still own a section are
kept under "Earlier runs" at the end.
"""
import collections
import os
import platform
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "tools", "pylib"))
from fvreport import bullets, commands, cpus, med, publish, read_rows, utc_stamp  # noqa: E402


def pct(r):
    return f"{(r - 1) * 100:+.2f} %"


def machine():
    with open("/proc/meminfo") as f:
        mem_kb = int(f.readline().split()[1])
    qemu = subprocess.run(["qemu-system-x86_64", "--version"],
                          capture_output=True, text=True).stdout
    return (f"{cpus()}, {mem_kb / 1048576:.1f} GiB RAM, "
            f"{platform.system()} {platform.release()}; "
            f"{qemu.splitlines()[0] if qemu else 'qemu ?'}, TCG (-cpu max)")


def verdict(r, lo, hi, tolerance):
    """meets/MISSES, unless the runs scatter more than the effect asked."""
    if hi - lo > 2 * tolerance:
        return f"inconclusive: runs spread {100 * (hi - lo):.0f} %"
    return "meets" if r <= 1 + tolerance else "MISSES"


TOOLS = {"iterate": "bare library (`bench/iterate.c`)",
         "trace-cmd-report": "`trace-cmd report`",
         "fragview-stats": "`fragview stats`",
         "fragview-map-txt": "`fragview map --format txt`"}
CAPS = {"demo": "demo (`fragment` scenario)",
        "drain-1x": "drain mix 1x",
        "drain-10x": "drain mix 10x",
        "snap-1x": "snapshot mix 1x",
        "snap-10x": "snapshot mix 10x (`tests/fixtures/bigtrace.dat`)"}
VERS = {"v7": "v7 (zstd)", "v6": "v6"}
FV_TOOLS = ("fragview-stats", "fragview-map-txt")
# the reader's targets: on captures of >= 1 M events
T_BARE, T_REPORT, T_RATE, T_RSS = 1.5, 20, 3e6, 1.5


def ratio_row(w, wl, what, num, den, rs, runs, tolerance):
    """one comparison of the overhead table: runs num against runs den
    (ratio of the medians and of the minima), rs the per-boot or per-pair
    ratios whose spread decides whether the verdict holds"""
    target = f"<= +{100 * tolerance:.0f} %"
    if not (num and den):
        w(f"| {wl} | {what} | not measured | | | | | {target} | |")
        return
    r = med([x[2] for x in num]) / med([x[2] for x in den])
    rmin = min(x[2] for x in num) / min(x[2] for x in den)
    ok = verdict(r, min(rs), max(rs), tolerance)
    w(f"| {wl} | {what} | {r:.4f} ({pct(r)}) | {min(rs):.4f} |"
      f" {max(rs):.4f} | {rmin:.4f} | {runs} | {target} | {ok} |")


# the overhead workloads, what each runs and where it is measured
WORKLOADS = (
    ("faultloop", "on", "patched, events on / events off"),
    ("pipeloop", "on", "patched, events on / events off"),
    ("migrateloop", "on", "patched, events on / events off"),
    ("migrateloop-folio", "folio", "patched, events on with `migrate_folio` too / off"),
    ("migrateloop-kmem", "peer", "patched, mainline `kmem:mm_page_alloc` alone on / off"),
    ("drainloop", "on", "patched, events on / events off"),
    ("stealloop", "on", "patched, events on / events off"),
    ("fliploop", "on", "patched, events on / events off"),
)


def overhead_runs(rows, part):
    """(workload, flavour-mode) -> [(boot, rep, ns, events, ops, {name: n})]"""
    ov = collections.defaultdict(list)
    for r in rows:
        if r[0] != part:
            continue
        ev = int(r[6]) if len(r) > 6 and r[6] else None
        ops = int(r[7]) if len(r) > 7 and r[7] else None
        names = dict((kv.split("=")[0], int(kv.split("=")[1]))
                     for kv in r[8].split(",") if "=" in kv) if len(r) > 8 else {}
        ov[(r[1], r[2])].append((int(r[3]), int(r[4]), int(r[5]), ev, ops, names))
    return ov


def overhead_table(rows, part, title, w):
    ov = overhead_runs(rows, part)
    w(f"### {title}")
    w("")
    if not ov:
        w("Not measured.")
        w("")
        return
    w("| workload | comparison | median ratio | min | max | ratio of minima | runs | target | verdict |")
    w("|---|---|---:|---:|---:|---:|---:|---|---|")
    for wl, mode, what in WORKLOADS:
        u = ov.get((wl, "unpatched-off"), [])
        off = ov.get((wl, "patched-off"), [])
        on = ov.get((wl, f"patched-{mode}"), [])
        if not (u or off or on):
            continue
        if mode == "on":
            per_boot = []
            for b in sorted({x[0] for x in off}):
                ub = [x[2] for x in u if x[0] == b]
                pb = [x[2] for x in off if x[0] == b]
                if ub and pb:
                    per_boot.append(med(pb) / med(ub))
            ratio_row(w, wl, "patched, events off / unpatched", off, u,
                      per_boot, f"{len(off)} vs {len(u)}", 0.01)
        pairs = {(x[0], x[1]): x[2] for x in off}
        rs = [x[2] / pairs[(x[0], x[1])] for x in on if (x[0], x[1]) in pairs]
        ratio_row(w, wl, what, on, off, rs, f"{len(on)} pairs", 0.05)
    w("")
    w("Medians for scale (ns per op): " + "; ".join(
        f"{wl} {k}: {med([x[2] for x in v]):.0f}"
        for (wl, k), v in sorted(ov.items())) + ".")
    w("")
    events_table(ov, part, w)


def events_table(ov, part, w):
    """what the events-on runs wrote: events per op, by name, and (on the
    instruction clock) what one event cost: the added ns per op over the
    events per op"""
    w("Events written per op in the events-on runs (medians; by name as"
      " read back from the ring after each run)"
      + (", and the guest instructions each event added: (on - off) per op"
         " / events per op" if part == "icount" else "") + ":")
    w("")
    w("| workload | ops per run | events per run | events per op | by name (per run) |"
      + (" instructions per event |" if part == "icount" else ""))
    w("|---|---:|---:|---:|---|" + ("---:|" if part == "icount" else ""))
    for wl, mode, _ in WORKLOADS:
        on = [x for x in ov.get((wl, f"patched-{mode}"), []) if x[3] is not None]
        off = ov.get((wl, "patched-off"), [])
        if not on:
            continue
        ops = med([x[4] for x in on if x[4]]) if any(x[4] for x in on) else None
        ev = med([x[3] for x in on])
        names = sorted({n for x in on for n in x[5]})
        by = ", ".join(f"`{n}` {med([x[5].get(n, 0) for x in on]):g}" for n in names) or "none"
        per_op = ev / ops if ops else None
        cells = (f"| {wl} | {ops:g} | {ev:g} | {per_op:.4f} | {by} |" if ops
                 else f"| {wl} | ? | {ev:g} | ? | {by} |")
        if part == "icount":
            # below one event every other op the per-event figure is
            # mostly the loop's own noise divided by a small number
            if per_op and per_op >= 0.5 and off:
                d = med([x[2] for x in on]) - med([x[2] for x in off])
                cells += f" {d / per_op:.0f} |"
            else:
                cells += " - (< 0.5 events per op) |"
        w(cells)
    w("")


OPS = (("baseline", "baseline: idle, no map access"),
       ("pageblocks", "read `mobility/pageblocks`"),
       ("snapshot", "write 1 to `mobility/snapshot`"))


def irqsoff_lat(rows, tag):
    """(mem, v, op) -> [(us, walk, stack, started, ended, command ms)]"""
    lat = collections.defaultdict(list)
    for r in rows:
        if r[0] == tag:
            lat[(r[1], r[2], r[4])].append(
                (int(r[6]), r[8] == "1", r[11], r[9], r[10], int(r[7]),
                 r[8] == "?"))
    return lat


def irqsoff_table(lat, w, unit, msnote):
    """one row per guest size and window kind, v1 against v2"""
    mems = [m for m in ("4G", "1G") if any(k[0] == m for k in lat)]
    mems += sorted({k[0] for k in lat} - set(mems))
    w(f"| guest RAM | window | v1 max {unit} | v1 median {unit} | v1 in walk | v2 max {unit} | v2 median {unit} | v2 in walk | v1/v2 max | v1/v2 median | windows v1 / v2 |"
      + (" window ms v1 / v2 |" if msnote else ""))
    w("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|" + ("---:|" if msnote else ""))
    for mem in mems:
        for op, label in OPS:
            a = lat.get((mem, "v1", op), [])
            b = lat.get((mem, "v2", op), [])
            if not a and not b:
                continue

            def cols(xs):
                if not xs:
                    return "-", "-", "-"
                us = [x[0] for x in xs]
                q = sum(x[6] for x in xs)
                return (f"{max(us)}", f"{med(us):.0f}",
                        f"{sum(x[1] for x in xs)}/{len(xs)}"
                        + (f" ({q} ?)" if q else ""))

            def ms(xs):
                return f"{med([x[5] for x in xs]):.0f}" if xs else "-"
            ca, cb = cols(a), cols(b)
            if a and b:
                ua, ub = [x[0] for x in a], [x[0] for x in b]
                rmax = f"{max(ua) / max(ub):.1f}" if max(ub) else "-"
                rmed = f"{med(ua) / med(ub):.1f}" if med(ub) else "-"
            else:
                rmax = rmed = "-"
            w(f"| {mem} | {label} | {ca[0]} | {ca[1]} | {ca[2]} | {cb[0]} |"
              f" {cb[1]} | {cb[2]} | {rmax} | {rmed} | {len(a)} / {len(b)} |"
              + (f" {ms(a)} / {ms(b)} |" if msnote else ""))
    w("")
    return mems


def irqsoff_where(lat, mems, w, unit):
    """where each kernel's longest sections of the map windows were"""
    for mem in mems:
        for v in ("v1", "v2"):
            for op in ("pageblocks", "snapshot"):
                xs = lat.get((mem, v, op), [])
                if not xs:
                    continue
                c = collections.Counter(
                    (x[3], x[2].replace(",", " < ")) for x in xs)
                top = "; ".join(f"{n}x started at `{st}`, stack `{sk}`"
                                for (st, sk), n in c.most_common(2))
                inwalk = [x[0] for x in xs if x[1]]
                if inwalk:
                    top += (f" (windows whose longest section was the walk's:"
                            f" {len(inwalk)}, max {max(inwalk)} {unit}, median"
                            f" {med(inwalk):.0f} {unit})")
                else:
                    top += (" (the walk never held a window's longest"
                            " section: all its sections were shorter than"
                            " what the rest of the kernel did in the window)")
                w(f"- {mem} {v} {op}: {top}")
    w("")


def irqsoff_section(rows, w):
    """Longest IRQs-off section per window, series v1 vs v2."""
    lat = irqsoff_lat(rows, "irqsoff")
    ilat = irqsoff_lat(rows, "irqsofficount")
    meta = collections.defaultdict(dict)  # v -> key -> value
    zones = collections.defaultdict(list)  # (v, mem) -> [zone lines]
    for r in rows:
        if r[0] == "irqsoffmeta":
            if r[2].startswith("zone-"):
                zones[(r[1], r[2][5:])].append(r[3])
            else:
                meta[r[1]][r[2]] = r[3]
    loads = [(r[1], r[2], r[3], r[4]) for r in rows if r[0] == "irqsoffload"]
    w("In the guest (1 vCPU, TCG), the irqsoff latency tracer"
      " (`current_tracer=irqsoff`, no function tracer, both kernels built"
      " with `qemu/irqsoff.config`) gives the longest section with"
      " interrupts off in a window: `tracing_max_latency` is set to 0, the"
      " command runs, `tracing_max_latency` is read, then (outside the"
      " window) the irqsoff trace of that section"
      " (`qemu/guest/scenarios/bench-irqsoff.sh`). Windows: *pageblocks* ="
      " read the whole file, *snapshot* = `echo 1 >` the file, *baseline* ="
      f" idle for {meta.get('all', {}).get('window', '?')} s, longer than"
      " either command takes (no map access). Only shell builtins run"
      " inside a window: a fork+exec brings IRQs-off sections of its own"
      " (~10k instructions in `get_random_u64()` at exec) that would hide"
      " the walk's. Each rep runs the three windows in turn. The snapshot's events (`pageblock_state`, and"
      " `pageblock_snapshot` where the series has it) are enabled in a trace"
      " instance of their own; without them series v2's write does"
      " nothing. *in walk* = windows whose longest section has a function"
      " of `mm/mobility_debugfs.c` (`scan_batch`, `read_block`,"
      " `snapshot_zone`, `pageblocks_show`, ...) or the debugfs file proxy"
      " (`full_proxy_read`/`full_proxy_write`: the tracer's stack skips the"
      " innermost frames and the walk's static functions are inlined; the"
      " mobility files are the only debugfs files a window touches) in the"
      " stack at its end or at one of its ends, and not an interrupt"
      " handler's (no `asm_*`/`irq_exit*` frame in the stack); *?* = the trace read after"
      " the window was not that of its maximum (never expected: tracing is"
      " switched off after each window). Series v1 holds `zone->lock` with"
      " interrupts off for up to 64 pageblocks (32,768 struct pages) per"
      " hold, series v2 for one pageblock (512).")
    w("")
    w("Under TCG absolute times are inflated, so the result is the v1 / v2"
      " ratio within this run; the baseline shows what the rest of the"
      " kernel does in the same windows. Two clocks, as for the overhead:"
      " icount (instructions, deterministic) and wall clock (host load"
      " lands in whatever section is open).")
    w("")
    clocks = (
        (ilat, "icount (guest instructions)", "kinsn", False,
         "TCG with `-icount shift=0,sleep=off`: the guest clock advances 1 ns"
         " per guest instruction, so a section's \"µs\" are thousands of"
         " instructions (kinsn) executed with interrupts off, immune to host"
         " load (one boot per kernel and size, windows as below)."),
        (lat, "wall clock (TCG)", "µs", True,
         "Plain TCG, `qemu/run-guest.sh --cpus 1`: guest time follows host"
         " time, so a host preemption of the vCPU thread lengthens whatever"
         " section is open. Per window the longest IRQs-off section; max and"
         " median over the windows of each kernel (all boots); *window ms*"
         " = median length of the window (guest /proc/uptime, 10 ms steps)."))
    for xs, title, unit, msnote, text in clocks:
        if not xs:
            continue
        w(f"### {title}")
        w("")
        w(text)
        w("")
        ms = irqsoff_table(xs, w, unit, msnote)
        base = [x[0] for k, v in xs.items() if k[2] == "baseline" for x in v]
        walk = [x[0] for k, v in xs.items() if k[2] != "baseline" for x in v if x[1]]
        if base and walk and max(base) >= min(walk):
            w(f"The idle baseline's own longest sections reach {max(base)}"
              f" {unit}, the shortest walk section that was a window's longest"
              f" is {min(walk)} {unit}: walk sections up to the baseline's are"
              f" no longer than what the rest of the guest does anyway"
              + ("; at this clock host preemption of the vCPU lands in every"
                 " section, so neither those sections nor the ratios can be"
                 " told from noise." if msnote else "."))
            w("")
        w("Where the longest sections of the map windows were (stack at the"
          " section's end, innermost first; count of windows):")
        w("")
        irqsoff_where(xs, ms, w, unit)
    mems = list(dict.fromkeys([k[0] for k in ilat] + [k[0] for k in lat]))
    if meta:
        w("Kernels (Debian linux-source-6.1 + series, tinyconfig +"
          " `qemu/kernel.config` without `CONFIG_ENABLE_DEFAULT_TRACERS=y`"
          " (IRQSOFF_TRACER rules it out, see `qemu/irqsoff.config`) +"
          " `qemu/irqsoff.config`, each series built by its own"
          " `build-kernel.sh`; hashes are sha256 prefixes; the cache key"
          " covers series, fragments and build script):")
        w("")
        w("| kernel | series | cache key | .config sha256 | bzImage sha256 |")
        w("|---|---|---|---|---|")
        for v in sorted(k for k in meta if k != "all"):
            m = meta[v]
            w(f"| {v} | {m.get('series', '?')} | `{m.get('key', '?')}` |"
              f" `{m.get('config_sha256', '?')}` | `{m.get('bzimage_sha256', '?')}` |")
        w("")
    for mem in mems:
        zs = zones.get(("v2", mem)) or zones.get(("v1", mem))
        if zs:
            w(f"Zones walked at {mem} (from the guest's `pageblocks` headers): "
              + "; ".join(f"`{z}`" for z in zs) + ".")
    if loads:
        w("")
        w("Host load (1 min) at each boot: " + ", ".join(
            f"{m} {v} #{b}: {ld}" for m, v, b, ld in loads) + ".")
    w("")


# results.md sections: part -> heading; an older file's sections are
# recognised by heading, every section names its run right below it
SECTIONS = (("size", "Static cost: text size"),
            ("overhead", "Tracepoint overhead (guest, 1 vCPU)"),
            ("throughput", "fragview throughput and memory vs `trace-cmd report`"),
            ("mapdump", "Map dump: debugfs `mobility/pageblocks` vs walking `/proc/kpageflags`"),
            ("irqsoff", "IRQs-off sections of the map walk: series v1 vs v2"))
PARTS_ROWS = {"size": ("size",), "overhead": ("load", "overhead", "icount"),
              "throughput": ("events", "mix", "tput", "tputload"), "mapdump": ("mapdump",),
              "irqsoff": ("irqsoff", "irqsoffmeta", "irqsoffload")}
RUN_LINE = re.compile(r"^_Measured in the run of (\d{4}-\d\d-\d\d \d\d:\d\d) UTC")
MEASURED = re.compile(r"^Measured (\d{4}-\d\d-\d\d \d\d:\d\d) UTC")


def throughput_section(w, rows, ev, tp, tload):
    caps = [c for c in CAPS if any(k[0] == c for k in ev)]
    w("Same captures for every tool, output to /dev/null; every tool runs"
      " once per rep, reps interleaved; medians of the reps. *wall* = elapsed"
      " time, *CPU* = user + system time of all the tool's processes (getrusage();"
      " `trace-cmd report`: `/usr/bin/time`, 10 ms steps)"
      " (fragview: the reader child and the parent, which run at the same"
      " time on the 2 cores; the machine is shared, so wall time carries"
      " other jobs' load and CPU time is the steadier figure). *bare"
      " library* = `bench/iterate.c`: `tracecmd_open()` and"
      " `tracecmd_iterate_events()` counting the records, nothing decoded:"
      " what libtracecmd itself costs. Peak RSS per process: fragview's"
      " reader child and its parent separately (`FRAGVIEW_STATS=1`), max"
      " over the reps.")
    w("")
    w("Captures, all recorded by the patched kernel in a 1 GiB guest:"
      " *demo* = the `fragment` scenario as `make scenario` records it;"
      " *drain mix* = `bench-bigtrace` rounds of the fragmenter over 480 MiB"
      " with `kmem:mm_page_pcpu_drain` on (`fv.per_page_drain=1`), no"
      " snapshots: the mix of `tests/fixtures/fragment.dat`; *snapshot"
      " mix* = `bench-bigtrace` rounds of the fragmenter over 64 MiB,"
      " compaction and 200 map snapshots (`pageblock_state` events), 10x ="
      " `tests/fixtures/bigtrace.dat` (`tests/fixtures/make-bigtrace.sh`)."
      " 1x = 1 round, 10x = 10 rounds. Each as recorded (file version 7,"
      " zstd chunks: what trace-cmd 3.1.6 writes) and converted with"
      " `trace-cmd convert --file-version 6 --compression none`.")
    w("")
    w("| capture | file | events (mobility) | size | tool | wall s | events/s (wall) | wall / bare | CPU s | CPU / bare | report / tool (wall) | RSS MiB: child / parent |")
    w("|---|---|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|")
    verdicts = []
    for cap in caps:
        for ver in VERS:
            if (cap, ver) not in ev:
                continue
            n, mob, size_b = ev[(cap, ver)]
            bare = tp.get((cap, ver, "iterate"))
            rep = tp.get((cap, ver, "trace-cmd-report"))
            bw = med([x[0] for x in bare]) if bare else None
            bmin = min(x[0] for x in bare) if bare else None
            bc = med([x[2] for x in bare]) if bare else None
            rw = med([x[0] for x in rep]) if rep else None
            for tool in TOOLS:
                xs = tp.get((cap, ver, tool))
                if not xs:
                    continue
                t = med([x[0] for x in xs])
                c = med([x[2] for x in xs])
                child = [x[3] for x in xs if x[3] is not None]
                parent = [x[4] for x in xs if x[4] is not None]
                if child and parent:
                    mem = f"{max(child) / 1024:.1f} / {max(parent) / 1024:.1f}"
                elif child:
                    mem = f"{max(child) / 1024:.1f}"
                else:
                    mem = f"{max(x[1] for x in xs) / 1024:.1f}"
                w(f"| {CAPS[cap]} | {VERS[ver]} | {n} ({mob}) | {size_b / 1048576:.1f} MiB |"
                  f" {TOOLS[tool]} | {t / 1e9:.3f} | {n / (t / 1e9):,.0f} |"
                  f" {t / bw:.2f} | {c / 1000:.3f} | {c / bc:.2f} |"
                  f" {rw / t:.1f} | {mem} |" if bw and bc and rw else
                  f" {TOOLS[tool]} | {t / 1e9:.3f} | | | | | | {mem} |")
                if tool in FV_TOOLS and n >= 1_000_000 and bw and rw:
                    verdicts.append((cap, ver, tool, n / (t / 1e9), t / bw,
                                     min(x[0] for x in xs) / bmin, c / bc,
                                     rw / t, rw / bw))
    w("")
    if tload:
        w("Host load (1 min) when each capture's runs began: " + ", ".join(
            f"{c} {v}: {ld}" for (c, v), ld in tload.items()) + ".")
        w("")
    if verdicts:
        w(f"Targets on the captures of >= 1 M events: fragview within {T_BARE}x of the bare"
          f" library (wall), >= {T_REPORT}x `trace-cmd report` (wall), >= {T_RATE / 1e6:.0f} M events/s."
          " Other jobs' load only ever adds wall time, so the first target is judged on"
          " the fastest run of each (*min wall / bare*), next to the ratio of the medians."
          " *report / bare* is how much faster than `trace-cmd report` the bare library"
          " iteration itself is on that file: the ceiling for a reader that reads"
          " through libtracecmd's iteration.")
        w("")
        w("| capture | file | tool | events/s | wall / bare | min wall / bare | CPU / bare | report / tool | report / bare | verdict |")
        w("|---|---|---|---:|---:|---:|---:|---:|---:|---|")
        for cap, ver, tool, rate, rb, rbmin, cb, rr, rbare in verdicts:
            misses = [what for what, bad in (
                (f"min wall / bare > {T_BARE}", rbmin > T_BARE),
                (f"report / tool < {T_REPORT}", rr < T_REPORT),
                (f"< {T_RATE / 1e6:.0f} M events/s", rate < T_RATE)) if bad]
            w(f"| {CAPS[cap]} | {VERS[ver]} | {TOOLS[tool]} | {rate:,.0f} | {rb:.2f} | {rbmin:.2f} | {cb:.2f} |"
              f" {rr:.1f} | {rbare:.1f} | {'meets' if not misses else 'MISSES: ' + ', '.join(misses)} |")
        w("")
    # peak RSS from 1x to 10x, per process
    growth = []
    for mix in ("drain", "snap"):
        for ver in VERS:
            a, b = ev.get((f"{mix}-1x", ver)), ev.get((f"{mix}-10x", ver))
            if not a or not b:
                continue
            for tool in TOOLS:
                xa, xb = tp.get((f"{mix}-1x", ver, tool)), tp.get((f"{mix}-10x", ver, tool))
                if not xa or not xb:
                    continue
                procs = [("process", 1)]
                if tool in FV_TOOLS:
                    procs = [("reader child", 3), ("parent", 4)]
                for pname, i in procs:
                    ra = max((x[i] for x in xa if x[i] is not None), default=None)
                    rb = max((x[i] for x in xb if x[i] is not None), default=None)
                    if ra and rb:
                        growth.append((mix, ver, tool, pname, b[0] / a[0], ra, rb))
    if growth:
        w(f"Peak RSS from the 1x to the 10x recording, per process (target for"
          f" fragview's: <= {T_RSS}x):")
        w("")
        w("| mix | file | tool | process | events 10x / 1x | RSS 1x (MiB) | RSS 10x (MiB) | 10x / 1x | verdict |")
        w("|---|---|---|---|---:|---:|---:|---:|---|")
        for mix, ver, tool, pname, er, ra, rb in growth:
            v = ""
            if tool in FV_TOOLS:
                v = "meets" if rb / ra <= T_RSS else "MISSES"
            w(f"| {mix} | {VERS[ver]} | {TOOLS[tool]} | {pname} | {er:.1f} | {ra / 1024:.1f} |"
              f" {rb / 1024:.1f} | {rb / ra:.2f} | {v} |")
        w("")
    reopens = [(c, x[5]) for (c, v, t), xs in tp.items() for x in xs
               if v == "v7" and t in FV_TOOLS and x[5] is not None]
    if reopens:
        w("fragview's reader reopened the v7 captures (libtracecmd 1.3.1 chunk leak,"
          " tools/fragview/README.md) " + ", ".join(
              f"{c}: {n}x" for c, n in dict(reopens).items()) + "; v6: never.")
        w("")
    mix = collections.defaultdict(list)
    for r in rows:
        if r[0] == "mix":
            mix[r[1]].append((int(r[3]), r[2]))
    w("Event mix (share of all events, top 5):")
    w("")
    for cap in caps:
        if cap in mix:
            tot = sum(n for n, _ in mix[cap])
            top = sorted(mix[cap], reverse=True)[:5]
            w(f"- {CAPS[cap]}: " + ", ".join(f"`{e}` {100 * n / tot:.1f} %" for n, e in top))


def parse_old(path):
    """(run date, preamble lines, {part: lines}, commands lines,
    {date: lines of its 'Earlier runs' entry}) of an existing results.md"""
    try:
        text = open(path).read()
    except FileNotFoundError:
        return None, [], {}, [], {}
    chunks, cur = [("", [])], None
    for line in text.splitlines():
        if line.startswith("## "):
            chunks.append((line[3:].strip(), []))
        else:
            chunks[-1][1].append(line)
    preamble = chunks[0][1]
    date = next((m.group(1) for m in map(MEASURED.match, preamble) if m), None)
    by_title = {t: b for t, b in chunks[1:]}
    parts = {}
    for part, title in SECTIONS:
        if title in by_title:
            parts[part] = by_title[title]
    earlier = {}
    cur = None
    for line in by_title.get("Earlier runs", []):
        m = re.match(r"^### Run of (.*) UTC$", line)
        if m:
            cur = m.group(1)
            earlier[cur] = []
        elif cur:
            earlier[cur].append(line)
    return date, preamble, parts, by_title.get("Commands", []), earlier


def strip_blank(lines):
    while lines and not lines[0].strip():
        lines = lines[1:]
    while lines and not lines[-1].strip():
        lines = lines[:-1]
    return lines


def main():
    data, cmds, notes, out = sys.argv[1:5]
    rows = read_rows(data)
    old_date, old_pre, old_parts, old_cmds, old_earlier = parse_old(out)
    have = {p: any(r[0] in PARTS_ROWS[p] for r in rows) for p in PARTS_ROWS}
    # bench/run.sh --only: rows of the parts not measured now are an earlier
    # run's; where results.md has their section, it stays as that run wrote
    # it (with its date) instead of passing for this run's
    measured = os.environ.get("BENCH_MEASURED")
    if measured is not None:
        for p in have:
            if p not in measured.split() and p in old_parts:
                have[p] = False
    lines = []
    w = lines.append
    stamp = utc_stamp()
    sections = {}       # part -> lines, heading included

    def section(part):
        """start collecting part's section; returns its writer"""
        title = dict(SECTIONS)[part]
        sec = [f"## {title}", "",
               f"_Measured in the run of {stamp} UTC (header above)._", ""]
        sections[part] = sec
        return sec.append

    # the kernel base (bench/run.sh --base): its Debian source package and
    # the directory bench/run.sh keeps the data in
    source = os.environ.get("BENCH_KERNEL_SOURCE", "linux-source-6.1")
    keep = os.environ.get("BENCH_KEEP", "bench/data")
    w("# fragview benchmarks")
    w("")
    w("Written by `bench/run.sh` alone, never by hand; the data it used is"
      f" in `{keep}/` (`data.tsv`, the commands, the notes and the"
      " guests' logs).")
    w("")
    w(f"Measured {stamp} UTC by `bench/run.sh` on {machine()};"
      f" kernel base Debian {source}.")
    prov = os.environ.get("BENCH_PROVENANCE")
    if prov:
        w(f"Source measured: {prov}.")
    w("The machine was shared with other jobs (kernel builds, other guests);"
      " host load average (1 min) at each boot is listed in its section."
      " Runs of compared flavours are interleaved so load hits all of them.")
    w("")
    with open(notes) as f:
        note_text = f.read()
    lines.extend(bullets(dict.fromkeys(note_text.splitlines())))
    if note_text.strip():
        w("")
    pre_end = len(lines)      # where the line on kept sections goes

    # --- static size
    main_w = w
    size = {(r[1], r[2]): int(r[3]) for r in rows if r[0] == "size"}
    w = section("size")
    if size:
        w("Both build trees with `CONFIG_JUMP_LABEL=y` (the overhead kernels below).")
        w("")
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
    w = section("overhead")
    w("Workloads (`qemu/guest/scenarios/bench-overhead.sh`; ns per op):"
      " **faultloop** `faultloop -s 65536 -n 1` (16384 order-0 anonymous"
      " faults, op = fault); **pipeloop** `bench-pipeloop -n 800` (order-0"
      " data pages + order-2/3 pipe rings, op = iteration); **migrateloop**"
      " `bench-migrateloop -n 256 -i 10` (move_pages(2) of 256 pages node 0"
      " -> 1 -> 0, ten times, op = page moved; the default recording writes"
      " a few `migrate_pass` events per call and a `migrate_folio_failed`"
      " per failed attempt);"
      " **migrateloop-folio** the same loop with `migrate_folio` on too,"
      " which a user enables on purpose: one event per op;"
      " **migrateloop-kmem** the same loop with mainline's per-page"
      " `kmem:mm_page_alloc` alone on instead of the mobility events: what"
      " any per-page event costs there, the peer of `migrate_folio`;"
      " **drainloop** `faultloop -s 16384 -n 4` with every per-cpu list's"
      " high mark at its floor (`vm.percpu_pagelist_high_fraction`), so"
      " that the frees trim the lists every few batches: `pcp_drain`;"
      " **stealloop** `bench-pipeloop -0 -k -n 200` (200 pipes of 16"
      " order-0 unmovable pages, kept open until the clock stops, op ="
      " pipe) while `polluter -H` holds all free memory as holes in Movable"
      " pageblocks, so the pages are found by fallbacks: `pageblock_steal`;"
      " **fliploop** `bench-fliploop -n 2 -m 32` (32 MiB of pipes, closed,"
      " then 32 MiB of anonymous memory, unmapped; op = iteration) while"
      " `polluter -H` leaves only 40 MiB above the low watermarks free, in"
      " whole blocks, so that each half claims the blocks the other freed:"
      " `pageblock_steal` with `pageblock_flip`, both ways."
      " The guests have 2 NUMA nodes, one vCPU."
      " Both kernels are built with `CONFIG_JUMP_LABEL=y`"
      " (qemu/jump-label.config), as distribution kernels are: a disabled"
      " tracepoint is a 5-byte nop, enabling it patches the text."
      " Unpatched and patched"
      " kernels booted alternately; inside each patched boot the events are"
      " switched off/on alternately run by run (tracefs only:"
      " \"events on\" is the default recording, `events/mobility/enable`"
      " with `migrate_folio` switched off again; `tracing_on`, nobody reading"
      " the 4 MiB/cpu ring, overwrite mode; every arm, off included, is"
      " prepared alike: events set, ring cleared, tracing on, and its"
      " events counted after it). Ratios: median of all runs of one side over"
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
    ev = {(r[1], r[2]): (int(r[3]), int(r[4]), int(r[5])) for r in rows if r[0] == "events"}
    tp = collections.defaultdict(list)  # (cap, ver, tool) -> [(ns, rss, cpu ms, child, parent, reopens)]
    for r in rows:
        if r[0] == "tput" and len(r) >= 10:
            tp[(r[1], r[2], r[3])].append(
                (int(r[4]), int(r[5]), float(r[6]),
                 *(int(x) if x != "-" else None for x in r[7:10])))
    tload = {(r[1], r[2]): r[3] for r in rows if r[0] == "tputload"}
    w = section("throughput")
    if ev and tp:
        throughput_section(w, rows, ev, tp, tload)
    else:
        w("Not measured (see the notes above).")
    w("")

    # --- map dump
    md = collections.defaultdict(list)       # (mem, mode) -> [(ns, bytes, units)]
    for r in rows:
        if r[0] == "mapdump":
            md[(r[1], r[2])].append((int(r[6]), int(r[4]), int(r[5])))
    w = section("mapdump")
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

    # --- IRQs-off latency of the map walk
    w = section("irqsoff")
    if have["irqsoff"]:
        irqsoff_section(rows, w)
    else:
        w("Not measured (`bench/run.sh --only irqsoff`).")
        w("")

    # --- sections: this run's, or an earlier run's kept verbatim
    w = main_w
    kept = []           # (part, its run's date)
    for part, title in SECTIONS:
        if not have[part] and part in old_parts:
            body = strip_blank(old_parts[part])
            m = RUN_LINE.match(body[0]) if body else None
            if m:
                date = m.group(1)
            else:           # an older file: the run of its header
                date = old_date or "unknown date"
                body = [f"_Measured in the run of {date} UTC; kept verbatim"
                        " from that run's results.md (not re-measured since;"
                        " its raw data was not committed: bench/data/ did not"
                        " exist yet). That run's header, notes and commands:"
                        " \"Earlier runs\" below._", ""] + body
            kept.append((part, date))
            lines.extend([f"## {title}", ""] + body + [""])
        else:
            lines.extend(sections[part])
    if kept:
        lines[pre_end:pre_end] = [
            "Sections not re-measured by this run keep the text of the run"
            " that measured them, which each names: " + ", ".join(
                f"{dict(SECTIONS)[p].split(':')[0]} ({d} UTC)"
                for p, d in kept) + ".", ""]

    # --- commands
    w("## Commands")
    w("")
    w("`make bench` = `bench/run.sh`, which ran (repeats counted):")
    w("")
    w("```")
    lines.extend(commands(cmds))
    w("```")
    w("")

    # --- earlier runs that still own a section
    dates = list(dict.fromkeys(d for _, d in kept))
    if dates:
        w("## Earlier runs")
        w("")
        w("Header, notes and commands of the runs whose sections are kept"
          " above.")
        w("")
        for d in dates:
            w(f"### Run of {d} UTC")
            w("")
            if d in old_earlier:
                body = strip_blank(old_earlier[d])
            elif d == old_date:
                pre = [ln for ln in old_pre if not ln.startswith("# ")
                       and not ln.startswith("Written by")
                       and not ln.startswith("Sections not re-measured")]
                body = strip_blank(pre) + ["", "Commands of that run:", ""] \
                    + strip_blank(old_cmds)
            else:
                body = ["(no record of that run's header was found)"]
            lines.extend(body)
            w("")
    publish(out, "\n".join(strip_blank(lines)) + "\n")


if __name__ == "__main__":
    main()
