#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""One boot of experiment/run.sh (scenario exp-stress) into DATADIR: a
row of boots.tsv, a row per phase and style of phases.tsv, a row per
attempt of attempts.tsv, and the boot's raw files as runs/NAME.tar.xz
(the trace's steals and flips as text, its per-cpu drains counted per
window and reason: the drains alone are most of a trace.dat).

usage: extract.py BOOTDIR NAME ARM RUN STATUS SECONDS HOST_LOAD DATADIR
ARM is KERNEL-GROUPING-PCP, e.g. 6.12-on-auto.
"""
import io
import os
import re
import subprocess
import sys
import tarfile

BOOT_COLS = ("name", "arm", "kernel", "grouping", "pcp", "run", "status",
             "boot_seconds", "host_load", "kernel_grouping", "pcp_high_min",
             "pcp_high_max", "oom_kills", "pswpout", "pgsteal_file",
             "pgsteal_anon", "steals", "claims", "load_rate_before",
             "load_rate_during", "mix_rate_before", "mix_rate_during")
PHASE_COLS = ("name", "arm", "kernel", "grouping", "pcp", "run", "phase",
              "style", "attempts", "obtained", "refused", "bound",
              "free9_start", "pcp_only_start", "pcp_drains")
ATTEMPT_COLS = ("name", "arm", "phase", "style", "i", "result", "ms")
PHASES = ("under-load", "at-rest")
STYLES = ("hugetlb", "thp")
BLOCK_PAGES = 512
VMSTAT_KEEP = re.compile(r"^(compact_|pgmigrate_|pgscan|pgsteal|allocstall|"
                         r"oom_kill|pswp|nr_free_pages|kswapd|htlb|thp_|"
                         r"pgalloc_|pgfree|workingset_|nr_file|nr_anon)")
EVENT = re.compile(r"\s(\d+\.\d+):\s+(\S+):\s+(.*)$")


def read(path):
    try:
        with open(path, errors="replace") as f:
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


def meminfo_kib(text, key):
    m = re.search(rf"^{re.escape(key)}:\s+(\d+) kB", text or "", re.M)
    return int(m.group(1)) if m else None


def reclaim_bound(meminfo):
    """the free-memory bound in 2 MiB pages: what a perfect reclaim could
    free (free memory, file pages, reclaimable slab, anonymous memory up
    to the free swap) if nothing were fragmented; "" if not readable"""
    f = {k: meminfo_kib(meminfo, k) for k in (
        "MemFree", "Active(file)", "Inactive(file)", "SReclaimable",
        "Active(anon)", "Inactive(anon)", "SwapFree")}
    if None in f.values():
        return ""
    anon = min(f["Active(anon)"] + f["Inactive(anon)"], f["SwapFree"])
    return (f["MemFree"] + f["Active(file)"] + f["Inactive(file)"] +
            f["SReclaimable"] + anon) // 2048


def free_blocks(buddyinfo):
    """order-9 blocks the buddy lists hold (an order-10 page is two)"""
    n = 0
    for line in (buddyinfo or "").splitlines():
        counts = line.split()[4:]
        n += sum(int(c) << (o - 9) for o, c in enumerate(counts) if o >= 9)
    return n


def pcp_only_blocks(census):
    """blocks whose only pages not on the buddy lists are on per-cpu lists
    (census columns after the type: free free_chunks lru movable_ops
    slab_reclaimable slab_unmovable pgtable kernel free_pcp reserved
    offline [hugetlb])"""
    n = 0
    for line in (census or "").splitlines():
        f = line.split()
        if len(f) not in (13, 14) or not f[0].startswith("0x"):
            continue
        c = list(map(int, f[2:]))
        held = c[2:8] + c[9:]
        if c[8] and not any(held):
            n += 1
    return n


def pcp_high(zoneinfo):
    highs = [int(x) for x in re.findall(r"^\s+high:\s+(\d+)", zoneinfo or "",
                                        re.M)]
    return (min(highs), max(highs)) if highs else ("", "")


def trace_report(dat):
    """trace-cmd report's text of DAT, None if there is none"""
    if not os.path.exists(dat):
        return None
    r = subprocess.run(["trace-cmd", "report", "-i", dat],
                       capture_output=True, text=True)
    return None if r.returncode else r.stdout


def trace(report):
    """(steal/flip lines, {(window, reason): drains}, steals, claims,
    drains per phase) of a trace-cmd report"""
    if report is None:
        return None, {}, "", "", {}
    keep, drains, steals, claims = [], {}, 0, 0
    window, phase_drains = "boot", {}
    for line in report.splitlines():
        m = EVENT.search(line)
        if not m:
            continue
        ev, rest = m.group(2), m.group(3)
        if ev == "print":
            msg = rest.split("tracing_mark_write:", 1)[-1].strip()
            if msg.startswith("fv-exp "):
                window = msg[7:]
            keep.append(line)
        elif ev == "pcp_drain":
            reason = re.search(r"reason=(\S+)", rest)
            k = (window, reason.group(1) if reason else "?")
            drains[k] = drains.get(k, 0) + 1
            if window in PHASES:
                phase_drains[window] = phase_drains.get(window, 0) + 1
        else:
            keep.append(line)
            # a claim 6.12 declined took nothing (taken=0): no steal
            if ev == "pageblock_steal" and not re.search(r"taken=0\b", rest):
                steals += 1
                cl = re.search(r"claimed=(\S+)", rest)
                claims += bool(cl and cl.group(1) not in ("0", "no", "false"))
    return "\n".join(keep) + "\n", drains, steals, claims, phase_drains


def rates(text):
    """(copied bytes/s, mixload steps/s) before and during the attempts
    under load, from load.rates"""
    pts = {}
    for line in (text or "").splitlines():
        f = line.split()
        if len(f) == 4:
            pts[f[0]] = tuple(map(float, f[1:]))
    if not all(k in pts for k in ("window", "attempts", "done")):
        return ("",) * 4
    w, a, d = pts["window"], pts["attempts"], pts["done"]

    def rate(p, q, i):
        return round((q[i] - p[i]) / (q[0] - p[0]), 1) if q[0] > p[0] else ""
    return rate(w, a, 1), rate(a, d, 1), rate(w, a, 2), rate(a, d, 2)


def attempts(text):
    rows = []
    for line in (text or "").splitlines():
        f = line.split()
        if len(f) >= 3 and f[1] in STYLES:
            rows.append((int(f[0]), f[1], f[2], f[3] if len(f) > 3 else ""))
    return rows


def append(path, name, cols, rows):
    """rows of boot NAME into the table at PATH, replacing any it has (a
    boot redone after an interrupted run)"""
    old = []
    if os.path.exists(path):
        with open(path) as f:
            old = [line for line in f.readlines()[1:]
                   if line.split("\t", 1)[0] != name]
    with open(path + ".new", "w") as f:
        f.write("\t".join(cols) + "\n")
        f.writelines(old)
        for r in rows:
            f.write("\t".join(str(x) for x in r) + "\n")
    os.replace(path + ".new", path)


def main():
    boot, name, arm, run, status, secs, hload, data = sys.argv[1:9]
    kernel, grouping, pcp = arm.split("-")
    d = os.path.join(boot, "exp-stress")
    log = read(os.path.join(d, "log")) or read(os.path.join(boot, "console.log")) or ""
    m = re.search(r"exp: mobility grouping (o[nf]+)", log)
    kg = m.group(1) if m else "?"
    dmesg = read(os.path.join(boot, "dmesg")) or ""
    if status == "ok" and ("fragview: FAIL" in log or kg != grouping):
        status = "failed"
    v0 = vmstat(read(os.path.join(d, "start.vmstat")))
    v1 = vmstat(read(os.path.join(d, "end.vmstat")))

    def dv(k):
        return v1[k] - v0[k] if k in v0 and k in v1 else ""
    text, drains, steals, claims, phase_drains = trace(
        trace_report(os.path.join(d, "trace.dat")))
    hmin, hmax = pcp_high(read(os.path.join(d, "under-load.zoneinfo")))
    lr = rates(read(os.path.join(d, "load.rates")))
    key = [name, arm, kernel, grouping, pcp, run]
    boot_row = key + [
        None, secs, hload, kg, hmin, hmax,
        dmesg.count("invoked oom-killer"), dv("pswpout"),
        dv("pgsteal_file"), dv("pgsteal_anon"), steals, claims, *lr]

    # attempts per style planned under the load and after it, as the
    # scenario printed them: a boot that made fewer was cut short
    m = re.search(r"(\d+)/(\d+) attempts per style", log)
    planned = dict(zip(PHASES, map(int, m.groups()))) if m else {}
    prows, arows, summary = [], [], []
    for ph in PHASES:
        att = attempts(read(os.path.join(d, ph + ".attempts")))
        for st in STYLES:
            if sum(a[1] == st for a in att) != planned.get(ph):
                status = "failed"
        bound = reclaim_bound(read(os.path.join(d, ph + ".meminfo")))
        free9 = free_blocks(read(os.path.join(d, ph + ".buddyinfo")))
        pcp_only = pcp_only_blocks(read(os.path.join(d, ph + ".census")))
        for st in STYLES:
            mine = [a for a in att if a[1] == st]
            ok = sum(a[2] == "ok" for a in mine)
            refused = sum(a[2] == "refused" for a in mine)
            prows.append(key + [
                ph.replace("-", "_"), st, len(mine), ok, refused, bound,
                free9, pcp_only, phase_drains.get(ph, 0)])
            summary.append(f"{ph} {st} {ok}/{len(mine) - refused}")
        arows += [[name, arm, ph.replace("-", "_"), st, i, res, ms]
                  for i, st, res, ms in att]

    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:xz") as tar:
        def add(arcname, body):
            if body is None:
                return
            b = body.encode()
            ti = tarfile.TarInfo(f"{name}/{arcname}")
            ti.size, ti.mtime = len(b), 0
            tar.addfile(ti, io.BytesIO(b))
        for f in sorted(os.listdir(d)) if os.path.isdir(d) else []:
            if f in ("trace.dat", "event-counts"):
                continue
            t = read(os.path.join(d, f))
            if f.endswith(".vmstat"):
                t = "".join(line + "\n" for line in (t or "").splitlines()
                            if VMSTAT_KEEP.match(line))
            add(f, t)
        add("trace-steals-flips.txt", text)
        add("pcp-drains.tsv", "window\treason\tcount\n" + "".join(
            f"{w}\t{r}\t{n}\n" for (w, r), n in sorted(drains.items())))
        add("dmesg", dmesg or None)
        add("run-error", read(os.path.join(boot, "run-error")))
    with open(os.path.join(data, "runs", name + ".tar.xz"), "wb") as f:
        f.write(buf.getvalue())
    append(os.path.join(data, "phases.tsv"), name, PHASE_COLS, prows)
    append(os.path.join(data, "attempts.tsv"), name, ATTEMPT_COLS, arows)
    # last: a boot is done (run.sh skips it) once its row is here
    boot_row[len(key)] = status
    append(os.path.join(data, "boots.tsv"), name, BOOT_COLS, [boot_row])
    print(f"{name}: {status}, {', '.join(summary)}, {secs} s",
          file=sys.stderr)


if __name__ == "__main__":
    main()
