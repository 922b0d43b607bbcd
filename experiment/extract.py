#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""One boot of experiment/run.sh into experiment/data/: a row of runs.tsv,
the per-zone figures of each moment into zones.tsv, the steals and claims
of each phase into steals.tsv, and the boot's raw files (trace as text,
not trace.dat) into runs/NAME.tar.xz.

usage: extract.py BOOTDIR NAME GROUPING COMPACTION RUN STATUS SECONDS DATADIR
"""
import io
import os
import re
import subprocess
import sys
import tarfile

MOMENTS = ("under-load", "under-load.after", "at-rest", "at-rest.after")
PHASES = ("under-load", "at-rest")
ORDER9 = 512
# vmstat counters kept with the raw files: what reclaim, compaction and
# the OOM killer did
VMSTAT_KEEP = re.compile(r"^(compact_|pgmigrate_|pgscan|pgsteal|allocstall|"
                         r"oom_kill|drop_|pageoutrun|nr_free_pages|"
                         r"kswapd|htlb|pgalloc_|pgfree)")

RUN_COLS = ("name", "grouping", "compaction", "run", "status", "boot_seconds",
            "kernel_grouping", "oom_kills")
PHASE_COLS = ("got", "attempts", "refused", "reserve_kib", "bound",
              "seconds", "node0", "node1",
              "compact_stall", "compact_success", "compact_migrate_scanned",
              "compact_free_scanned", "load_steps")
ZONE_COLS = ("name", "grouping", "compaction", "run", "moment", "nid", "zone",
             "free", "min", "managed", "bound", "blocks_unmovable",
             "blocks_movable", "blocks_reclaimable", "blocks_highatomic",
             "free_by_order", "census_blocks", "polluted", "unmovable_pages",
             "pages", "blocks_with_unmovable")
STEAL_COLS = ("name", "grouping", "compaction", "run", "window", "nid", "zone",
              "alloc_mt", "block_mt", "claimed", "count")


def read(path):
    try:
        with open(path) as f:
            return f.read()
    except OSError:
        return None


def vmstat(text):
    out = {}
    for line in (text or "").splitlines():
        k, _, v = line.partition(" ")
        if v.strip().isdigit():
            out[k] = int(v)
    return out


def zones(text):
    """LABEL.zones: {(nid, zone): (free, min, managed)} of populated zones"""
    out = {}
    for line in (text or "").splitlines():
        f = line.split()
        if len(f) == 7 and int(f[6]) > 0:
            out[(f[0], f[1])] = (int(f[2]), int(f[3]), int(f[6]))
    return out


def bound(free, wmin):
    """order-9 pages the zone's free memory above its min watermark could
    make if it were not fragmented at all"""
    return max(0, free - wmin) // ORDER9


def blocks_per_type(text):
    """pagetypeinfo's "Number of blocks type" section"""
    out, cols, on = {}, [], False
    for line in (text or "").splitlines():
        if line.startswith("Number of blocks type"):
            cols = line.split()[4:]
            on = True
            continue
        m = on and re.match(r"Node\s+(\d+), zone\s+(\S+)\s+(.*)", line)
        if m:
            out[(m.group(1), m.group(2))] = dict(zip(cols, map(int, m.group(3).split())))
        elif on and line.strip() == "":
            on = False
    return out


def buddyinfo(text):
    out = {}
    for line in (text or "").splitlines():
        m = re.match(r"Node (\d+), zone\s+(\S+)\s+(.*)", line)
        if m:
            out[(m.group(1), m.group(2))] = m.group(3).split()
    return out


# census classes (census ABI): block class by migratetype, page classes
BLOCK_CLASS = {"Movable": "movable", "CMA": "movable",
               "Reclaimable": "reclaimable", "Unmovable": "unmovable",
               "HighAtomic": "unmovable"}


def census(text):
    """{(nid, zone): (blocks, polluted, unmovable_pages, pages,
    blocks_with_unmovable)} from the debugfs census text"""
    out, key = {}, None
    for line in (text or "").splitlines():
        f = line.split()
        if f[:1] == ["node"] and len(f) >= 4:
            key = (f[1], f[3])
            out[key] = [0, 0, 0, 0, 0]
            continue
        # series v3 adds a last column, hugetlb (movable: fragview's rule)
        if key is None or len(f) not in (13, 14) or not f[0].startswith("0x"):
            continue
        (free, _chunks, lru, movable_ops, slab_r, slab_u, pgtable, kernel,
         free_pcp, reserved, offline, hugetlb) = (list(map(int, f[2:])) + [0])[:12]
        cls = {"movable": lru + movable_ops + hugetlb, "reclaimable": slab_r,
               "unmovable": slab_u + pgtable + kernel}
        z = out[key]
        z[0] += 1
        bc = BLOCK_CLASS.get(f[1])
        if bc and any(n for c, n in cls.items() if c != bc):
            z[1] += 1
        z[2] += cls["unmovable"]
        z[3] += sum(cls.values()) + free + free_pcp + reserved + offline
        z[4] += cls["unmovable"] > 0
    return {k: tuple(v) for k, v in out.items()}


def trace_text(dat):
    if not os.path.exists(dat):
        return None
    r = subprocess.run(["trace-cmd", "report", "-i", dat], capture_output=True,
                       text=True)
    return r.stdout if r.returncode == 0 else None


EVENT = re.compile(r"\s(\d+\.\d+):\s+(\S+):\s+(.*)$")


def steals(text):
    """{(window, nid, zone, alloc_mt, block_mt, claimed): count}; the
    windows are the phases the scenario's markers delimit"""
    window, out = "boot", {}
    marks = {"fv-exp load": "load", "fv-exp under-load": "under-load",
             "fv-exp under-load done": "load-end",
             "fv-exp rest": "stopping", "fv-exp at-rest": "at-rest",
             "fv-exp at-rest done": "end"}
    for line in (text or "").splitlines():
        m = EVENT.search(line)
        if not m:
            continue
        ev, rest = m.group(2), m.group(3)
        if ev == "print":
            msg = rest.split("tracing_mark_write:", 1)[-1].strip()
            window = marks.get(msg, window)
        elif ev == "pageblock_steal":
            f = dict(kv.split("=", 1) for kv in rest.split() if "=" in kv)
            k = (window, f["nid"], f["zone"], f["alloc_mt"], f["block_mt"],
                 f["claimed"])
            out[k] = out.get(k, 0) + 1
    return out


def steps(text):
    """mixload's "steps ..." lines as sums of all workers' steps"""
    return [sum(int(x) for x in line.split()[2::2])
            for line in (text or "").splitlines() if line.startswith("steps ")]


def append(path, cols, rows):
    new = not os.path.exists(path)
    with open(path, "a") as f:
        if new:
            f.write("\t".join(cols) + "\n")
        for r in rows:
            f.write("\t".join(str(x) for x in r) + "\n")


def main():
    boot, name, g, c, run, status, secs, data = sys.argv[1:9]
    d = os.path.join(boot, "exp-highalloc")
    log = read(os.path.join(d, "log")) or ""
    m = re.search(r"exp: mobility grouping (o[nf]+)", log)
    kg = m.group(1) if m else "?"
    dmesg = read(os.path.join(boot, "dmesg")) or ""
    ooms = dmesg.count("invoked oom-killer")
    if status == "ok" and "FAIL" in log:
        status = "failed"
    key = (name, g, c, run)

    row = [name, g, c, run, status, secs, kg, ooms]
    steps_lines = steps(read(os.path.join(d, "mixload.out")))
    for ph in PHASES:
        res = (read(os.path.join(d, ph + ".highalloc")) or "").split()
        kv = dict(zip(res[0::2], res[1::2]))
        z = zones(read(os.path.join(d, ph + ".zones")))
        reserve = int(kv.get("reserve_kib", 0))
        b = ""
        if z:
            # the zones' free memory, and (highalloc -r) what the reserve
            # leaves of the total
            b = sum(bound(fr, mn) for fr, mn, _ in z.values())
            if reserve:
                b = min(b, max(0, sum(fr for fr, _, _ in z.values()) -
                               reserve // 4) // ORDER9)
        v0 = vmstat(read(os.path.join(d, ph + ".vmstat")))
        v1 = vmstat(read(os.path.join(d, ph + ".after.vmstat")))

        def dv(k):
            return v1[k] - v0[k] if k in v0 and k in v1 else ""
        load_steps = ""
        if ph == "under-load" and len(steps_lines) >= 2:
            load_steps = steps_lines[1] - steps_lines[0]
        row += [kv.get("obtained", ""), kv.get("requested", ""),
                kv.get("refused", ""), kv.get("reserve_kib", ""), b,
                kv.get("seconds", ""), kv.get("node0", ""), kv.get("node1", ""),
                dv("compact_stall"), dv("compact_success"),
                dv("compact_migrate_scanned"), dv("compact_free_scanned"),
                load_steps]
    cols = RUN_COLS + tuple(f"{ph.replace('-', '_')}_{c_}" for ph in PHASES
                            for c_ in PHASE_COLS)
    append(os.path.join(data, "runs.tsv"), cols, [row])

    zrows = []
    for mo in MOMENTS:
        z = zones(read(os.path.join(d, mo + ".zones")))
        bt = blocks_per_type(read(os.path.join(d, mo + ".pagetypeinfo")))
        bi = buddyinfo(read(os.path.join(d, mo + ".buddyinfo")))
        ce = census(read(os.path.join(d, mo + ".census")))
        for (nid, zone), (fr, mn, managed) in sorted(z.items()):
            t = bt.get((nid, zone), {})
            cz = ce.get((nid, zone))
            zrows.append(list(key) + [
                mo, nid, zone, fr, mn, managed, bound(fr, mn),
                t.get("Unmovable", ""), t.get("Movable", ""),
                t.get("Reclaimable", ""), t.get("HighAtomic", ""),
                ",".join(bi.get((nid, zone), [])),
                *(cz if cz else ("",) * 5)])
    append(os.path.join(data, "zones.tsv"), ZONE_COLS, zrows)

    tr = trace_text(os.path.join(d, "trace.dat"))
    st = steals(tr)
    append(os.path.join(data, "steals.tsv"), STEAL_COLS,
           [list(key) + list(k) + [n] for k, n in sorted(st.items())])

    # the raw files, small: no trace.dat (its text has every event), the
    # vmstat counters that matter
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:xz") as tar:
        def add(arcname, text):
            if text is None:
                return
            b = text.encode()
            ti = tarfile.TarInfo(f"{name}/{arcname}")
            ti.size, ti.mtime = len(b), 0
            tar.addfile(ti, io.BytesIO(b))
        for f in sorted(os.listdir(d)) if os.path.isdir(d) else []:
            if f in ("trace.dat", "event-counts"):
                continue
            t = read(os.path.join(d, f))
            if f.endswith(".vmstat"):
                t = "".join(l + "\n" for l in (t or "").splitlines()
                            if VMSTAT_KEEP.match(l))
            add(f, t)
        add("trace.txt", tr)
        add("dmesg", dmesg or None)
        add("run-error", read(os.path.join(boot, "run-error")))
    with open(os.path.join(data, "runs", name + ".tar.xz"), "wb") as f:
        f.write(buf.getvalue())
    n = len(PHASE_COLS)
    print(f"{name}: {status}, under load {row[8]}/{row[9]} (bound {row[12]}),"
          f" at rest {row[8 + n]}/{row[9 + n]} (bound {row[12 + n]}),"
          f" {secs} s", file=sys.stderr)


if __name__ == "__main__":
    main()
