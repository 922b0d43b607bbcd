#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Synthetic trace.dat captures with known content, for fragview's tests.

Why: the end-to-end tests, the fuzz seeds and the throughput benchmark
need captures whose every event is known, without booting the guest.
We write a fake tracefs (event formats as tracepoints/README.md lays
them out, with __print_symbolic tables like a kernel prints) and raw
ring-buffer pages, and let `trace-cmd restore` build a real trace.dat.

The kernel's enum numbers are deliberately NOT fragview's (the "nocma"
kernel has no MIGRATE_CMA, so Isolate is 4; zones and reasons are
permuted), so a reader that hard-codes numbers gets the tests wrong.

usage: mkcapture.py SCENARIO OUT.dat [--events N] [--v7] [--facts F.json]
scenarios:
  mobility   2 zones, 3 snapshots, consistent flips/steals/drains/migrations
  lostflip   as mobility, but one flip is missing from the capture
  stock      only kmem:mm_page_alloc_extfrag and migrate:mm_migrate_pages
  none       only an unrelated event (sched:sched_dummy)
  onesnap    mobility events but a single snapshot
"""
import json
import os
import random
import shutil
import struct
import subprocess
import sys
import tempfile

PAGE = 4096

MT_NAMES = ["Unmovable", "Movable", "Reclaimable", "HighAtomic", "Isolate"]
ZONE_NAMES = {0: "DMA32", 1: "Normal", 2: "Movable", 3: "DMA"}
FLIP_NAMES = ["init", "steal", "highatomic_reserve", "highatomic_unreserve",
              "isolate", "unisolate", "cma", "isolate_free"]
DRAIN_NAMES = ["vmstat", "free_high", "local", "all", "cpu_dead"]
MODE_NAMES = ["MIGRATE_ASYNC", "MIGRATE_SYNC_LIGHT", "MIGRATE_SYNC",
              "MIGRATE_SYNC_NO_COPY"]
MR_NAMES = ["compaction", "memory_failure", "memory_hotplug",
            "syscall_or_cpuset", "mempolicy_mbind", "numa_misplaced",
            "contig_range", "longterm_pin", "demotion"]


def table(names):
    if isinstance(names, dict):
        items = sorted(names.items())
    else:
        items = list(enumerate(names))
    return ", ".join('{ %d, "%s" }' % (v, n) for v, n in items)


def sym(field, names):
    return "__print_symbolic(REC->%s, %s)" % (field, table(names))


U8, S8, U32, S32, U64 = ("unsigned char", 1, 0, "B"), \
    ("signed char", 1, 1, "b"), ("unsigned int", 4, 0, "I"), \
    ("int", 4, 1, "i"), ("unsigned long", 8, 0, "Q")

# system, name, id, fields [(name, type)], print args
EVENTS = {
    "pageblock_state": ("mobility", 1701, [
        ("pfn", U64), ("seq", U32), ("free_pages", U32), ("nid", S32),
        ("zone", U8), ("mt", U8), ("largest_order", S8)],
        '"pfn=0x%lx seq=%u zone=%s mt=%s", REC->pfn, REC->seq, ' +
        sym("zone", ZONE_NAMES) + ", " + sym("mt", MT_NAMES)),
    "pageblock_flip": ("mobility", 1702, [
        ("pfn", U64), ("caller", U64), ("nid", S32), ("zone", U8),
        ("old_mt", U8), ("new_mt", U8), ("reason", U8)],
        '"pfn=0x%lx zone=%s old_mt=%s new_mt=%s reason=%s", REC->pfn, ' +
        sym("zone", ZONE_NAMES) + ", " + sym("old_mt", MT_NAMES) + ", " +
        sym("new_mt", MT_NAMES) + ", " + sym("reason", FLIP_NAMES)),
    "pageblock_steal": ("mobility", 1703, [
        ("pfn", U64), ("block_pfn", U64), ("nid", S32), ("free_moved", S32),
        ("alike", S32), ("zone", U8), ("order", U8), ("fallback_order", U8),
        ("alloc_mt", U8), ("block_mt", U8), ("claimed", ("bool", 1, 0, "B"))],
        '"pfn=0x%lx alloc_mt=%s block_mt=%s zone=%s", REC->pfn, ' +
        sym("alloc_mt", MT_NAMES) + ", " + sym("block_mt", MT_NAMES) +
        ", " + sym("zone", ZONE_NAMES)),
    "pcp_drain": ("mobility", 1704, [
        ("cpu", S32), ("nid", S32), ("nr_unmovable", U32),
        ("nr_movable", U32), ("nr_reclaimable", U32), ("total", U32),
        ("zone", U8), ("reason", U8)],
        '"cpu=%d zone=%s reason=%s total=%u", REC->cpu, ' +
        sym("zone", ZONE_NAMES) + ", " + sym("reason", DRAIN_NAMES) +
        ", REC->total"),
    "migrate_folio": ("mobility", 1705, [
        ("src_pfn", U64), ("dst_pfn", U64), ("result", S32), ("order", U8),
        ("mode", U8), ("reason", U8), ("pass", U8), ("src_mt", U8),
        ("dst_mt", U8)],
        '"src_pfn=0x%lx mode=%s reason=%s src_mt=%s dst_mt=%s", ' +
        "REC->src_pfn, " + sym("mode", MODE_NAMES) + ", " +
        sym("reason", MR_NAMES) + ", " + sym("src_mt", MT_NAMES) + ", " +
        sym("dst_mt", MT_NAMES)),
    "mm_page_alloc_extfrag": ("kmem", 1801, [
        ("pfn", U64), ("alloc_order", S32), ("fallback_order", S32),
        ("alloc_migratetype", S32), ("fallback_migratetype", S32),
        ("change_ownership", S32)],
        '"pfn=0x%lx alloc_migratetype=%d fallback_migratetype=%d", '
        "REC->pfn, REC->alloc_migratetype, REC->fallback_migratetype"),
    "mm_migrate_pages": ("migrate", 1802, [
        ("succeeded", U64), ("failed", U64), ("thp_succeeded", U64),
        ("thp_failed", U64), ("thp_split", U64), ("mode", S32),
        ("reason", S32)],
        '"nr_succeeded=%lu nr_failed=%lu mode=%s reason=%s", '
        "REC->succeeded, REC->failed, " + sym("mode", MODE_NAMES) + ", " +
        sym("reason", MR_NAMES)),
    "sched_dummy": ("sched", 1901, [("x", S32)], '"x=%d", REC->x'),
}


def layout(fields):
    off, out = 8, []
    for name, (ctype, size, signed, code) in fields:
        off = (off + size - 1) // size * size
        out.append((name, ctype, size, signed, code, off))
        off += size
    return out, off


PACKERS = {}


def packer(name):
    if name not in PACKERS:
        system, evid, fields, _ = EVENTS[name]
        laid, size = layout(fields)
        fmt = "<HBBi"
        pos = 8
        for fname, _, fsize, _, code, off in laid:
            fmt += "%dx" % (off - pos) if off > pos else ""
            fmt += code
            pos = off + fsize
        words = (pos + 3) // 4
        fmt += "%dx" % (words * 4 - pos) if words * 4 > pos else ""
        st = struct.Struct(fmt)
        PACKERS[name] = (st, evid, [f[0] for f in laid], words)
    return PACKERS[name]


def record(name, **vals):
    st, evid, names, words = packer(name)
    return words, st.pack(evid, 0, 0, 1, *[vals.get(n, 0) for n in names])


def write_tracefs(tdir, names):
    ev = os.path.join(tdir, "events")
    os.makedirs(ev)
    with open(os.path.join(ev, "header_page"), "w") as f:
        f.write("\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
                "\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
                "\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
                "\tfield: char data;\toffset:16;\tsize:%d;\tsigned:1;\n"
                % (PAGE - 16))
    with open(os.path.join(ev, "header_event"), "w") as f:
        f.write("# compressed entry header\n\ttype_len    :    5 bits\n"
                "\ttime_delta  :   27 bits\n\tarray       :   32 bits\n\n"
                "\tpadding     : type == 29\n\ttime_extend : type == 30\n"
                "\ttime_stamp : type == 31\n\tdata max type_len  == 28\n")
    for name in names:
        system, evid, fields, fmt = EVENTS[name]
        d = os.path.join(ev, system, name)
        os.makedirs(d)
        lines = ["name: %s" % name, "ID: %d" % evid, "format:",
                 "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;",
                 "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;",
                 "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;",
                 "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;", ""]
        for fname, ctype, size, signed, _, off in layout(fields)[0]:
            lines.append("\tfield:%s %s;\toffset:%d;\tsize:%d;\tsigned:%d;"
                         % (ctype, fname, off, size, signed))
        lines += ["", "print fmt: " + fmt]
        with open(os.path.join(d, "format"), "w") as f:
            f.write("\n".join(lines) + "\n")
    # trace-cmd restore crashes without an ftrace system; kernels have one
    d = os.path.join(ev, "ftrace", "print")
    os.makedirs(d)
    with open(os.path.join(d, "format"), "w") as f:
        f.write("name: print\nID: 5\nformat:\n"
                "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
                "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
                "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
                "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
                "\tfield:unsigned long ip;\toffset:8;\tsize:8;\tsigned:0;\n"
                "\tfield:char buf[];\toffset:16;\tsize:0;\tsigned:1;\n\n"
                'print fmt: "%ps: %s", (void *)REC->ip, REC->buf\n')
    with open(os.path.join(tdir, "saved_cmdlines"), "w") as f:
        f.write("1 init\n")


def ring_pages(events, out):
    """events: [(ts, (words, payload))] sorted by ts, written as pages."""
    room = PAGE - 16
    data, page_ts, last = [], None, 0
    used = 0

    def flush():
        if page_ts is not None:
            body = b"".join(data)
            out.write(struct.pack("<QQ", page_ts, len(body)))
            out.write(body.ljust(room, b"\0"))

    for ts, (words, payload) in events:
        size = 4 + words * 4
        if page_ts is None or used + size > room or ts - last >= (1 << 27):
            flush()
            page_ts, last, data, used = ts, ts, [], 0
        data.append(struct.pack("<I", words | ((ts - last) << 5)))
        data.append(payload)
        used += size
        last = ts
    flush()


MT_NUM = {n: i for i, n in enumerate(MT_NAMES)}
ZONE_ORDER = {"DMA": 0, "DMA32": 1, "Normal": 2, "Movable": 3}  # fragview's
ZONE_NUM = {n: v for v, n in ZONE_NAMES.items()}


class Sim:
    """A consistent little machine: blocks, types, free space."""

    def __init__(self, seed, nblocks):
        self.rng = random.Random(seed)
        self.blocks = []        # (pfn, zone name)
        for i in range(nblocks):
            zone = "DMA32" if i < nblocks // 4 else "Normal"
            pfn = (0x1000 + i * 512) if zone == "DMA32" else \
                (0x100000 + (i - nblocks // 4) * 512)
            self.blocks.append((pfn, zone))
        self.mt = {}
        for pfn, _ in self.blocks:
            r = self.rng.random()
            self.mt[pfn] = "Movable" if r < 0.7 else "Unmovable" if r < 0.9 \
                else "Reclaimable"
        self.free = {pfn: self.rng.randrange(0, 513) for pfn, _ in self.blocks}

    def largest(self, free):
        if not free:
            return -1
        o = min(9, free.bit_length() - 1)
        return self.rng.randrange(max(0, o - 3), o + 1)


def gen_mobility(n_events, seed=1, lose_flip=False, snapshots=3):
    sim = Sim(seed, 256)
    rng = sim.rng
    cpus = [[], []]
    facts = {"flips": 0, "steals": 0, "claimed": 0, "drains": 0,
             "migrate_ok": 0, "migrate_fail": 0, "snapshots": snapshots,
             "blocks": len(sim.blocks), "flip_pairs": {}}
    ts = 5_000_000_000
    lost = None

    facts["snapshots_at"] = []

    def snapshot(seq):
        nonlocal ts
        # the map the replay must give at the end of this snapshot
        order = sorted(sim.blocks, key=lambda b: (ZONE_ORDER[b[1]], b[0]))
        letters = "".join(sim.mt[p][0] for p, _ in order)
        for pfn, zone in sim.blocks:
            ts += 1000
            free = sim.free[pfn]
            cpus[0].append((ts, record(
                "pageblock_state", pfn=pfn, seq=seq, free_pages=free,
                nid=0, zone=ZONE_NUM[zone], mt=MT_NUM[sim.mt[pfn]],
                largest_order=sim.largest(free))))
        facts["snapshots_at"].append({"at": "%d.%09d" % divmod(ts, 10**9),
                                      "letters": letters})

    per_phase = max(1, n_events // max(1, snapshots - 1))
    snapshot(1)
    seq = 1
    emitted = 0
    while seq < snapshots:
        for _ in range(per_phase):
            ts += rng.randrange(200, 20000)
            cpu = rng.randrange(2)
            kind = rng.random()
            pfn, zone = sim.blocks[rng.randrange(len(sim.blocks))]
            if kind < 0.25:
                old = sim.mt[pfn]
                new = rng.choice([m for m in MT_NAMES if m != old])
                reason = "steal" if new != "Isolate" else "isolate"
                if lose_flip and lost is None and emitted > n_events // 3:
                    lost = (pfn, old, new)
                else:
                    cpus[cpu].append((ts, record(
                        "pageblock_flip", pfn=pfn, caller=0xffffffff81000000,
                        nid=0, zone=ZONE_NUM[zone], old_mt=MT_NUM[old],
                        new_mt=MT_NUM[new], reason=FLIP_NAMES.index(reason))))
                    facts["flips"] += 1
                    key = "%s>%s" % (old, new)
                    facts["flip_pairs"][key] = facts["flip_pairs"].get(key, 0) + 1
                sim.mt[pfn] = new
            elif kind < 0.55:
                claimed = rng.random() < 0.3
                alloc = rng.choice(["Unmovable", "Reclaimable"])
                cpus[cpu].append((ts, record(
                    "pageblock_steal", pfn=pfn + rng.randrange(512),
                    block_pfn=pfn, nid=0, free_moved=rng.randrange(512),
                    alike=rng.randrange(512), zone=ZONE_NUM[zone],
                    order=rng.randrange(4), fallback_order=rng.randrange(4, 10),
                    alloc_mt=MT_NUM[alloc], block_mt=MT_NUM[sim.mt[pfn]],
                    claimed=int(claimed))))
                facts["steals"] += 1
                facts["claimed"] += claimed
            elif kind < 0.75:
                nr = [rng.randrange(64) for _ in range(3)]
                cpus[cpu].append((ts, record(
                    "pcp_drain", cpu=cpu, nid=0, nr_unmovable=nr[0],
                    nr_movable=nr[1], nr_reclaimable=nr[2], total=sum(nr),
                    zone=ZONE_NUM[zone], reason=rng.randrange(5))))
                facts["drains"] += 1
            else:
                result = rng.choice([0, 0, 0, -11, -16, -12])
                cpus[cpu].append((ts, record(
                    "migrate_folio", src_pfn=pfn + rng.randrange(512),
                    dst_pfn=0x200000 + rng.randrange(1 << 16),
                    result=result,
                    order=0, mode=rng.randrange(4), reason=rng.randrange(9),
                    src_mt=MT_NUM[sim.mt[pfn]], dst_mt=1)))
                facts["migrate_ok" if result == 0 else "migrate_fail"] += 1
            if rng.random() < 0.05:
                sim.free[pfn] = rng.randrange(0, 513)
            emitted += 1
        seq += 1
        ts += 1_000_000
        snapshot(seq)
    facts["final"] = {"0x%x" % p: sim.mt[p] for p, _ in sim.blocks}
    if lost:
        facts["lost"] = {"pfn": "0x%x" % lost[0], "expected": lost[2],
                         "got": lost[1]}
    return cpus, facts


def gen_stock(n_events, seed=2):
    rng = random.Random(seed)
    cpus = [[], []]
    ts = 7_000_000_000
    facts = {"steals": 0, "claimed": 0, "migrate_ok": 0, "migrate_fail": 0}
    for i in range(n_events):
        ts += rng.randrange(1000, 50000)
        if i % 2:
            own = rng.randrange(2)
            cpus[i % 2].append((ts, record(
                "mm_page_alloc_extfrag", pfn=0x100000 + rng.randrange(1 << 16),
                alloc_order=0, fallback_order=rng.randrange(3, 10),
                alloc_migratetype=0, fallback_migratetype=1,
                change_ownership=own)))
            facts["steals"] += 1
            facts["claimed"] += own
        else:
            ok, bad = rng.randrange(32), rng.randrange(4)
            cpus[i % 2].append((ts, record(
                "mm_migrate_pages", succeeded=ok, failed=bad, mode=1,
                reason=0)))
            facts["migrate_ok"] += ok
            facts["migrate_fail"] += bad
    return cpus, facts


def main():
    args = sys.argv[1:]
    if len(args) < 2:
        sys.stderr.write(__doc__)
        return 2
    scenario, out = args[0], os.path.abspath(args[1])
    n = 2000
    v7 = "--v7" in args
    facts_path = None
    if "--events" in args:
        n = int(args[args.index("--events") + 1])
    if "--facts" in args:
        facts_path = args[args.index("--facts") + 1]

    if scenario in ("mobility", "lostflip", "onesnap"):
        cpus, facts = gen_mobility(n, lose_flip=scenario == "lostflip",
                                   snapshots=1 if scenario == "onesnap" else 3)
        names = ["pageblock_state", "pageblock_flip", "pageblock_steal",
                 "pcp_drain", "migrate_folio"]
    elif scenario == "stock":
        cpus, facts = gen_stock(n)
        names = ["mm_page_alloc_extfrag", "mm_migrate_pages"]
    elif scenario == "none":
        cpus = [[(1_000_000_000 + i * 1000, record("sched_dummy", x=i))
                 for i in range(100)], []]
        facts = {}
        names = ["sched_dummy"]
    else:
        sys.stderr.write("unknown scenario %s\n" % scenario)
        return 2

    tmp = tempfile.mkdtemp(prefix="mkcapture-")
    try:
        tdir = os.path.join(tmp, "tracefs")
        write_tracefs(tdir, names)
        with open(os.path.join(tmp, "kallsyms"), "w") as f:
            f.write("ffffffff81000000 T steal_suitable_fallback\n")
        raws = []
        for i, events in enumerate(cpus):
            events.sort(key=lambda e: e[0])
            raw = os.path.join(tmp, "cpu%d.raw" % i)
            with open(raw, "wb") as f:
                ring_pages(events, f)
            raws.append(raw)
        head = os.path.join(tmp, "head.dat")
        quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
        subprocess.run(["trace-cmd", "restore", "-c", "-t", tdir, "-k",
                        os.path.join(tmp, "kallsyms"), "-o", head],
                       check=True, **quiet)
        dat = out if not v7 else os.path.join(tmp, "v6.dat")
        subprocess.run(["trace-cmd", "restore", "-i", head, "-o", dat] + raws,
                       check=True, **quiet)
        if v7:
            subprocess.run(["trace-cmd", "convert", "-i", dat, "-o", out,
                            "--file-version", "7", "--compression", "zstd"],
                           check=True, **quiet)
    finally:
        shutil.rmtree(tmp)
    facts["events"] = sum(len(c) for c in cpus)
    if facts_path:
        with open(facts_path, "w") as f:
            json.dump(facts, f, indent=1, sort_keys=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
