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
                   [--comm NAME] [--zone-marks] [--cpus N] [--snapshots N]
--snapshots (mobility, lostflip, census): N snapshots instead of 3, the
events spread between them, as a recorder's periodic ticker writes them
(256 state records each: a block whose free pages stay keeps its
largest order, so most repeat the block's previous record).
--extfrag (mobility, census): kmem:mm_page_alloc_extfrag right after every
steal on its CPU, as the patched kernel writes it, and after every fourth
steal's one a second, alone: a compaction capture (series v3, patch 10),
which counts as an unclaimed steal (facts "captures"; "steals" counts
them too); and after every eighth a capture whose block already had the
request's type (change_ownership=1, as 6.1 writes it), which is no steal
(facts "captures_same_type").
--declined (mobility, census): pageblock_steal has the field taken (series
v3, patch 12): every steal has taken=1, and before about 40% of them, on
their CPU, comes a claim try_to_steal_block() declined (taken=0, claimed
0, as on 6.12; facts "declined", "declined_pairs" {"Alloc>Block": n},
"declined_at": the first one's index among the file's pageblock_steal
records, CPU 0 first).  With --extfrag one also comes right before each
compaction capture's extfrag, which must still count.  Its draws are its
own: the capture is the one without --declined plus these.
--zone-marks (v2 scenarios): the recorder's trace_marker zone lines
before each snapshot (facts "zone_marks").
--cpus: a capture of N CPUs (N > 2): the records of the two CPUs go to
the last two, N - 2 and N - 1, and CPUs 0 to N - 3 have none (trace-cmd
convert drops the CPUs after an empty one in a v7 capture).
--migrate EVENTS (mobility): how migrations are recorded, a comma list of
folio (mobility:migrate_folio), failed (mobility:migrate_folio_failed),
pass (mobility:migrate_pass), sum (migrate:mm_migrate_pages); default
"folio", the single attempts of before.  Any other list simulates
migrate_pages() calls on 6.1 (stage unmap_move): folios of order 0 or 2
tried in passes (EAGAIN: again next pass, up to 10; EBUSY: given up),
each attempt a migrate_folio and, when it failed, a migrate_folio_failed
right after it on its CPU, a migrate_pass after each pass and an
mm_migrate_pages after the call; the capture gets the events listed.
"failed,pass,sum" is the default recording of series v3, patch 11;
"folio,failed,pass,sum" has every failure twice.  The draws do not
depend on the list, so its facts ("mig": attempts and pages, ok and
failed; passes, retries, retried pages; results; failed and ok
attempts per source block) are the same for every list.
--comm: the name of the task of every event (pid 1; default "init"), with
Python escapes for bytes: '=x\\xe2\\x82' is a comm the kernel cut in the
middle of a character.
scenarios:
  mobility   2 zones, 3 snapshots, consistent flips/steals/drains/migrations
  lostflip   as mobility, but one flip is missing from the capture
  stock      only kmem:mm_page_alloc_extfrag and migrate:mm_migrate_pages
  none       only an unrelated event (sched:sched_dummy)
  formats    the formats of the mobility events, only sched_dummy records
  onesnap    mobility events but a single snapshot
  census     as mobility, plus mobility:pageblock_census after the first
             and the last snapshot (pages by kind, a pattern of foreign
             pages; --facts has each census's foreign and free pages per
             block and per zone the unmovable pages and blocks)
ABI v2 (gen fields, pageblock_snapshot, nr_high_order, online/offline),
3 zones with holes (one wider than a map row), flips of other blocks
interleaved with each snapshot, a block offlined and onlined into the
Movable zone:
  v2         consistent
  v2skew     as v2, plus flips recorded after the state record that
             already includes them (and before one that does not): only
             the gen rule replays this exactly
  v2dropped  the ring buffer dropped events on CPU 1 (count stored) and
             CPU 0 (count unknown)
  v2trunc    snapshot 2 lost the last states of a zone and its end event
  v2gengap   one flip is missing (nothing else says so: a gen gap)
A 6.12 kernel (same events and fields, its own symbolic tables: flip
reason merge before offline, so offline has another value; migrate
reason damon; no MIGRATE_SYNC_NO_COPY):
  v612       as v2, with merge flips and migrate_folio events (damon)
  v612unknown as v612, but merge prints as "coalesce", a name no kernel
             documents: fragview must read it as an unknown reason
"""
import codecs
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
# not the kernel's numbers (hugetlb=0 ... move=3): read by name
STAGE_NAMES = {0: "move", 1: "unmap", 2: "hugetlb", 3: "unmap_move"}
STAGE_NUM = {n: v for v, n in STAGE_NAMES.items()}


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
    "migrate_pass": ("mobility", 1709, [
        ("nr_succeeded", U32), ("nr_failed", U32), ("nr_retry", U32),
        ("stage", U8), ("pass", U8), ("mode", U8), ("reason", U8)],
        '"stage=%s pass=%u nr_succeeded=%u nr_failed=%u nr_retry=%u '
        'mode=%s reason=%s", ' + sym("stage", STAGE_NAMES) + ", REC->pass, "
        "REC->nr_succeeded, REC->nr_failed, REC->nr_retry, " +
        sym("mode", MODE_NAMES) + ", " + sym("reason", MR_NAMES)),
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
    "pageblock_census": ("mobility", 1707, [
        ("pfn", U64), ("seq", U32), ("nid", S32), ("free", U32),
        ("free_chunks", U32), ("lru", U32), ("movable_ops", U32),
        ("slab_reclaimable", U32), ("slab_unmovable", U32), ("pgtable", U32),
        ("kernel", U32), ("free_pcp", U32), ("reserved", U32),
        ("offline", U32), ("zone", U8), ("mt", U8)],
        '"seq=%u pfn=0x%lx nid=%d zone=%s mt=%s free=%u free_chunks=%u '
        'lru=%u movable_ops=%u slab_reclaimable=%u slab_unmovable=%u '
        'pgtable=%u kernel=%u free_pcp=%u reserved=%u offline=%u", REC->seq, '
        "REC->pfn, REC->nid, " + sym("zone", ZONE_NAMES) + ", " +
        sym("mt", MT_NAMES) + ", REC->free, REC->free_chunks, REC->lru, "
        "REC->movable_ops, REC->slab_reclaimable, REC->slab_unmovable, "
        "REC->pgtable, REC->kernel, REC->free_pcp, REC->reserved, "
        "REC->offline"),
}

# the class of migrate_folio, failed attempts only (series v3 patch 11):
# its fields and print format under another id
EVENTS["migrate_folio_failed"] = ("mobility", 1708) + EVENTS["migrate_folio"][2:]

# census.h: the mobility of each count, and of each block type
CENSUS_MOBILITY = {"lru": "movable", "movable_ops": "movable",
                   "slab_reclaimable": "reclaimable",
                   "slab_unmovable": "unmovable", "pgtable": "unmovable",
                   "kernel": "unmovable"}
MT_MOBILITY = {"Movable": "movable", "Reclaimable": "reclaimable",
               "Unmovable": "unmovable", "HighAtomic": "unmovable"}


def census_counts(rng, mt, free, k):
    """The pages of a 512-page block of type mt with free pages free: its
    own kind mostly; every 3rd block some foreign pages, more and more."""
    used = 512 - free
    c = {"free": free, "free_chunks": (free + 63) // 64, "free_pcp": 0,
         "reserved": 0, "offline": 0, "lru": 0, "movable_ops": 0,
         "slab_reclaimable": 0, "slab_unmovable": 0, "pgtable": 0,
         "kernel": 0}
    pcp = min(used, rng.randrange(3))
    c["free_pcp"] = pcp
    used -= pcp
    foreign = min(used, [0, 0, 1, 0, 0, 7, 0, 0, 40, 0, 0, 300][k % 12])
    own = {"Movable": "lru", "Reclaimable": "slab_reclaimable",
           "Unmovable": "slab_unmovable", "HighAtomic": "kernel",
           "Isolate": "lru"}[mt]
    other = "lru" if MT_MOBILITY.get(mt) != "movable" else \
        ["kernel", "slab_unmovable", "pgtable", "slab_reclaimable"][k % 4]
    c[other] += foreign
    c[own] += used - foreign
    return c


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


def write_tracefs(tdir, names, comm=b"init"):
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
    with open(os.path.join(tdir, "saved_cmdlines"), "wb") as f:
        f.write(b"1 " + comm + b"\n")


def print_record(text):
    """An ftrace:print record (ID 5 above) of text, as a trace_marker
    write leaves it: ip, then the text with its NUL."""
    body = struct.pack("<HBBiQ", 5, 0, 0, 1, 0) + text.encode() + b"\0"
    body = body.ljust((len(body) + 3) // 4 * 4, b"\0")
    return len(body) // 4, body


def add_zone_marks(cpus, facts, zones):
    """The recorder's zone lines (tools/fragview/zonemark.h) just before
    each snapshot, one a zone of node 0, figures that differ per snapshot
    and zone; facts["zone_marks"] lists them.  Each snapshot also gets a
    marker line that is not a zone line, which readers must skip."""
    facts["zone_marks"] = []
    for k, snap in enumerate(facts["snapshots_at"]):
        s, ns = snap["at"].split(".")
        ts = int(s) * 10**9 + int(ns) - 500_000
        cpus[0].append((ts, print_record("fv-exp phase %d" % k)))
        for j, zone in enumerate(zones):
            m = {"ts": ts + j, "node": 0, "zone": zone,
                 "min": 100 * (k + 1) + j, "boost": k}
            m.update(low=m["min"] + 25, high=m["min"] + 50,
                     free=1000 * (j + 1) + k, managed=65536 * (j + 1))
            cpus[0].append((ts + j, print_record(
                "fragview_zone: node=0 zone=%(zone)s free=%(free)d "
                "min=%(min)d low=%(low)d high=%(high)d boost=%(boost)d "
                "managed=%(managed)d\n" % m)))
            facts["zone_marks"].append(m)


MISSED_EVENTS, MISSED_STORED = 1 << 31, 1 << 30


def ring_pages(events, out, missed=None):
    """events: [(ts, (words, payload))] sorted by ts, written as pages.
    missed: {index of an event: count} - the ring buffer dropped count
    events (-1: without storing the count) just before that event, so
    its page starts there with the kernel's RB_MISSED_* commit flags."""
    room = PAGE - 16 - 8        # keep room for a stored missed count
    data, page_ts, last = [], None, 0
    used = 0
    flags, lost = 0, 0
    missed = missed or {}

    def flush():
        if page_ts is not None:
            body = b"".join(data)
            if flags & MISSED_STORED:
                body += struct.pack("<Q", lost)
            out.write(struct.pack("<QQ", page_ts, (len(body) - (8 if
                      flags & MISSED_STORED else 0)) | flags))
            out.write(body.ljust(PAGE - 16, b"\0"))

    for k, (ts, (words, payload)) in enumerate(events):
        size = 4 + words * 4
        if page_ts is None or used + size > room or \
                ts - last >= (1 << 27) or k in missed:
            flush()
            page_ts, last, data, used = ts, ts, [], 0
            flags, lost = 0, 0
            if k in missed:
                lost = missed[k]
                flags = MISSED_EVENTS | (MISSED_STORED if lost >= 0 else 0)
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


def gen_mobility(n_events, seed=1, lose_flip=False, snapshots=3,
                 census_after=(), steady=False, migrate=("folio",),
                 declined=False):
    sim = Sim(seed, 256)
    rng = sim.rng
    # the declined claims draw from a generator of their own: the rest of
    # the capture is the one without them
    drng = random.Random(seed + 1000) if declined else None
    cpus = [[], []]
    facts = {"flips": 0, "steals": 0, "claimed": 0, "drains": 0,
             "migrate_ok": 0, "migrate_fail": 0, "snapshots": snapshots,
             "blocks": len(sim.blocks), "flip_pairs": {}}
    ts = 5_000_000_000
    lost = None

    facts["snapshots_at"] = []
    # steady: a block whose free pages stay keeps its largest order, as a
    # real one does from tick to tick (else drawn anew each snapshot)
    was = {}

    def snapshot(seq):
        nonlocal ts
        # the map the replay must give at the end of this snapshot
        order = sorted(sim.blocks, key=lambda b: (ZONE_ORDER[b[1]], b[0]))
        letters = "".join(sim.mt[p][0] for p, _ in order)
        for pfn, zone in sim.blocks:
            ts += 1000
            free = sim.free[pfn]
            if not steady or was.get(pfn, (None,))[0] != free:
                was[pfn] = (free, sim.largest(free))
            cpus[0].append((ts, record(
                "pageblock_state", pfn=pfn, seq=seq, free_pages=free,
                nid=0, zone=ZONE_NUM[zone], mt=MT_NUM[sim.mt[pfn]],
                largest_order=was[pfn][1])))
        facts["snapshots_at"].append({"at": "%d.%09d" % divmod(ts, 10**9),
                                      "letters": letters})
        if seq in census_after:
            census(len(facts["census"]) + 1)

    facts["census"] = []
    calls = set(migrate) != {"folio"}
    mig = facts["mig"] = {
        "calls": 0, "ok_attempts": 0, "fail_attempts": 0, "ok_pages": 0,
        "failed_pages": 0, "passes": 0, "retry_passes": 0,
        "retried_pages": 0, "failed_records": 0, "results": {},
        "fail_blocks": {}, "ok_blocks": {}, "events": sorted(migrate),
        # by the folios' last attempt of the call (fragview's migcall.h):
        # with migrate_folio ("folio"), and from migrate_folio_failed
        # alone ("dflt"), which never sees a retry that moved the folio
        "final_fails": {"folio": 0, "dflt": 0},
        "retried": {"folio": 0, "dflt": 0},
        "final_fail_blocks": {"folio": {}, "dflt": {}}}

    def judge_folios(tries):
        """A call's attempts per folio, [(result, block key)] each."""
        for results in tries.values():
            for form in ("folio", "dflt"):
                seen = [r for r in results if form == "folio" or r[0]]
                mig["retried"][form] += sum(1 for r in seen[:-1] if r[0])
                if not seen or not seen[-1][0]:
                    continue
                mig["final_fails"][form] += 1
                blocks = mig["final_fail_blocks"][form]
                blocks[seen[-1][1]] = blocks.get(seen[-1][1], 0) + 1

    def migrate_call(cpu):
        """One migrate_pages() call of 6.1 (migrate.c, stage unmap_move):
        the same draws whatever migrate lists, the events it lists."""
        nonlocal ts
        reason, mode = rng.randrange(9), rng.randrange(4)
        left = []
        for _ in range(rng.randrange(1, 6)):
            block = sim.blocks[rng.randrange(len(sim.blocks))][0]
            order = rng.choice([0, 0, 0, 2])
            left.append((block + (rng.randrange(512) >> order << order),
                         order, block))
        ok_pages = failed_pages = 0
        tries = {}
        for p in range(10):
            moved = gave_up = retry = 0
            again = []
            for src, order, block in left:
                ts += rng.randrange(20, 200)
                r = rng.random()
                result = 0 if r < 0.6 else -11 if r < 0.85 else -16
                pages = 1 << order
                rec = dict(src_pfn=src, dst_pfn=0x200000 + rng.randrange(1 << 16),
                           result=result, order=order, mode=mode,
                           reason=reason, src_mt=MT_NUM[sim.mt[block]],
                           dst_mt=1)
                rec["pass"] = p
                if "folio" in migrate:
                    cpus[cpu].append((ts, record("migrate_folio", **rec)))
                key = "0x%x" % block
                tries.setdefault(src, []).append((result, key))
                if result == 0:
                    moved += pages
                    mig["ok_attempts"] += 1
                    mig["ok_blocks"][key] = mig["ok_blocks"].get(key, 0) + 1
                    continue
                # right after its migrate_folio, on its CPU
                if "failed" in migrate:
                    cpus[cpu].append((ts, record("migrate_folio_failed", **rec)))
                    mig["failed_records"] += 1
                mig["fail_attempts"] += 1
                mig["fail_blocks"][key] = mig["fail_blocks"].get(key, 0) + 1
                mig["results"][str(result)] = mig["results"].get(str(result), 0) + 1
                if result == -11:
                    retry += pages
                    again.append((src, order, block))
                else:
                    gave_up += pages
            ts += 50
            if "pass" in migrate:
                cpus[cpu].append((ts, record(
                    "migrate_pass", nr_succeeded=moved, nr_failed=gave_up,
                    nr_retry=retry, stage=STAGE_NUM["unmap_move"], mode=mode,
                    reason=reason, **{"pass": p})))
            mig["passes"] += 1
            mig["retry_passes"] += p > 0
            mig["retried_pages"] += retry
            ok_pages += moved
            failed_pages += gave_up
            left = again
            if not left:
                break
        # still EAGAIN after the last pass: failed
        failed_pages += sum(1 << order for _, order, _ in left)
        judge_folios(tries)
        ts += 50
        if "sum" in migrate:
            cpus[cpu].append((ts, record(
                "mm_migrate_pages", succeeded=ok_pages, failed=failed_pages,
                mode=mode, reason=reason)))
        mig["calls"] += 1
        mig["ok_pages"] += ok_pages
        mig["failed_pages"] += failed_pages

    def census(cseq):
        """One census of every block, as the kernel walks them: the
        oracle's figures are worked out here, from the spec's rules."""
        nonlocal ts
        fact = {"seq": cseq, "foreign": {}, "free": {}, "mt": {},
                "zones": {}}
        for k, (pfn, zone) in enumerate(sim.blocks):
            ts += 500
            mt = sim.mt[pfn]
            c = census_counts(rng, mt, sim.free[pfn], k + cseq)
            cpus[1].append((ts, record(
                "pageblock_census", pfn=pfn, seq=cseq, nid=0,
                zone=ZONE_NUM[zone], mt=MT_NUM[mt], **c)))
            pages = {}
            for kind, mob in CENSUS_MOBILITY.items():
                pages[mob] = pages.get(mob, 0) + c[kind]
            own = MT_MOBILITY.get(mt)
            foreign = sum(v for mob, v in pages.items() if own and mob != own)
            fact["foreign"]["0x%x" % pfn] = foreign
            fact["free"]["0x%x" % pfn] = c["free"]
            fact["mt"]["0x%x" % pfn] = mt
            z = fact["zones"].setdefault(zone, {
                "blocks": 0, "pages": 0, "unmovable_pages": 0,
                "unmovable_blocks": 0, "polluted": {}, "foreign": {}})
            z["blocks"] += 1
            z["pages"] += sum(v for kind, v in c.items()
                              if kind != "free_chunks")
            z["unmovable_pages"] += pages.get("unmovable", 0)
            z["unmovable_blocks"] += pages.get("unmovable", 0) > 0
            if foreign:
                z["polluted"][mt] = z["polluted"].get(mt, 0) + 1
                z["foreign"][mt] = z["foreign"].get(mt, 0) + foreign
        fact["at"] = "%d.%09d" % divmod(ts, 10**9)
        facts["census"].append(fact)

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
                # drawn in this order: the captures stay as they were
                at, moved, alike = (rng.randrange(512) for _ in range(3))
                order, fallback = rng.randrange(4), rng.randrange(4, 10)
                if drng and drng.random() < 0.4 and \
                        not is_steal_flip(cpus[cpu][-1:]):
                    # 6.12: the claim __rmqueue_claim() tried first, just
                    # before on this CPU: too few free and alike pages
                    # (under half a block), nothing taken
                    cpus[cpu].append((ts - 1, record(
                        "pageblock_steal", pfn=pfn, block_pfn=pfn, nid=0,
                        free_moved=drng.randrange(200),
                        alike=drng.randrange(50), zone=ZONE_NUM[zone],
                        order=order, fallback_order=fallback,
                        alloc_mt=MT_NUM[alloc], block_mt=MT_NUM[sim.mt[pfn]],
                        claimed=0, taken=0)))
                    count_declined(facts, alloc, sim.mt[pfn])
                cpus[cpu].append((ts, record(
                    # the first pfn of an order-fallback buddy (the ABI)
                    "pageblock_steal", pfn=pfn + (at >> fallback << fallback),
                    block_pfn=pfn, nid=0, free_moved=moved,
                    alike=alike, zone=ZONE_NUM[zone],
                    order=order, fallback_order=fallback,
                    alloc_mt=MT_NUM[alloc], block_mt=MT_NUM[sim.mt[pfn]],
                    claimed=int(claimed), taken=1)))
                facts["steals"] += 1
                facts["claimed"] += claimed
            elif kind < 0.75:
                nr = [rng.randrange(64) for _ in range(3)]
                cpus[cpu].append((ts, record(
                    "pcp_drain", cpu=cpu, nid=0, nr_unmovable=nr[0],
                    nr_movable=nr[1], nr_reclaimable=nr[2], total=sum(nr),
                    zone=ZONE_NUM[zone], reason=rng.randrange(5))))
                facts["drains"] += 1
            elif calls:
                migrate_call(cpu)
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


# ---- ABI v2 (see /tmp/abi-v2.md, tracepoints/ once it lands) ----
MT_NAMES_V2 = MT_NAMES + ["none"]       # none = MIGRATE_TYPES
FLIP_NAMES_V2 = FLIP_NAMES + ["online", "offline"]
PHASE_NAMES = ["begin", "end"]
EVENTS_V2 = {
    "pageblock_state": ("mobility", 1701, [
        ("pfn", U64), ("gen", U64), ("seq", U32), ("free_pages", U32),
        ("nid", S32), ("zone", U8), ("mt", U8), ("largest_order", S8)],
        '"seq=%u pfn=0x%lx zone=%s mt=%s gen=%lu", REC->seq, REC->pfn, ' +
        sym("zone", ZONE_NAMES) + ", " + sym("mt", MT_NAMES_V2) +
        ", REC->gen"),
    "pageblock_flip": ("mobility", 1702, [
        ("pfn", U64), ("caller", U64), ("gen", U64), ("nid", S32),
        ("zone", U8), ("old_mt", U8), ("new_mt", U8), ("reason", U8)],
        '"pfn=0x%lx zone=%s old_mt=%s new_mt=%s reason=%s gen=%lu", ' +
        "REC->pfn, " + sym("zone", ZONE_NAMES) + ", " +
        sym("old_mt", MT_NAMES_V2) + ", " + sym("new_mt", MT_NAMES_V2) +
        ", " + sym("reason", FLIP_NAMES_V2) + ", REC->gen"),
    "pcp_drain": ("mobility", 1704, [
        ("cpu", S32), ("nid", S32), ("nr_unmovable", U32),
        ("nr_movable", U32), ("nr_reclaimable", U32),
        ("nr_high_order", U32), ("total", U32), ("zone", U8),
        ("reason", U8)],
        '"cpu=%d zone=%s reason=%s total=%u", REC->cpu, ' +
        sym("zone", ZONE_NAMES) + ", " + sym("reason", DRAIN_NAMES) +
        ", REC->total"),
    "pageblock_snapshot": ("mobility", 1706, [
        ("start_pfn", U64), ("end_pfn", U64), ("gen", U64), ("seq", U32),
        ("nr_blocks", U32), ("nid", S32), ("zone", U8), ("phase", U8)],
        '"seq=%u nid=%d zone=%s phase=%s start_pfn=0x%lx end_pfn=0x%lx '
        'nr_blocks=%u gen=%lu", REC->seq, REC->nid, ' +
        sym("zone", ZONE_NAMES) + ", " + sym("phase", PHASE_NAMES) +
        ", REC->start_pfn, REC->end_pfn, REC->nr_blocks, REC->gen"),
}
MT_NUM_V2 = {n: i for i, n in enumerate(MT_NAMES_V2)}


def use_abi_v2():
    EVENTS.update(EVENTS_V2)
    PACKERS.clear()


# ---- a 6.12 kernel: the names of tracepoints/README.md's per-kernel table
FLIP_NAMES_612 = FLIP_NAMES + ["online", "merge", "offline"]
MODE_NAMES_612 = MODE_NAMES[:3]
MR_NAMES_612 = MR_NAMES + ["damon"]
RESULT_NAMES = {0: "success", 11: "EAGAIN", 16: "EBUSY", 12: "ENOMEM"}


def use_abi_612(merge_name="merge"):
    use_abi_v2()
    flip_names = [merge_name if n == "merge" else n for n in FLIP_NAMES_612]
    system, evid, fields, fmt = EVENTS["pageblock_flip"]
    EVENTS["pageblock_flip"] = (system, evid, fields, fmt.replace(
        sym("reason", FLIP_NAMES_V2), sym("reason", flip_names)))
    EVENTS["migrate_folio"] = ("mobility", 1705, [
        ("src_pfn", U64), ("dst_pfn", U64), ("result", S32), ("order", U8),
        ("mode", U8), ("reason", U8), ("pass", U8), ("src_mt", U8),
        ("dst_mt", U8)],
        '"src_pfn=0x%lx dst_pfn=0x%lx result=%s mode=%s reason=%s '
        'src_mt=%s dst_mt=%s", REC->src_pfn, REC->dst_pfn, '
        "__print_symbolic((-(REC->result)) & 0xffffffff, " +
        table(RESULT_NAMES) + "), " + sym("mode", MODE_NAMES_612) + ", " +
        sym("reason", MR_NAMES_612) + ", " + sym("src_mt", MT_NAMES_V2) +
        ", " + sym("dst_mt", MT_NAMES_V2))


def v2_layout():
    """(pfn, nid, zone) of every block: holes in DMA32 and Normal, one of
    them wider than any map row; the Movable zone starts empty."""
    blocks = []
    for k in range(64):
        if k not in (20, 21, 22):
            blocks.append((0x1000 + k * 512, 0, "DMA32"))
    for k in range(120):
        if 40 <= k < 45:
            continue
        base = 0x100000 if k < 90 else 0x100000 + 0x40000
        blocks.append((base + k * 512, 0, "Normal"))
    return blocks


def gen_v2(n_events, variant, seed=3):
    rng = random.Random(seed)
    k612 = variant.startswith("v612")
    flip_names = FLIP_NAMES_612 if k612 else FLIP_NAMES_V2
    blocks = v2_layout()
    zone_of = {p: z for p, _, z in blocks}
    mt = {}
    for p, _, _ in blocks:
        r = rng.random()
        mt[p] = "Movable" if r < 0.7 else "Unmovable" if r < 0.9 \
            else "Reclaimable"
    free = {p: rng.randrange(0, 513) for p, _, _ in blocks}
    gen = {"DMA32": 5000, "Normal": 9000, "Movable": 300}
    cpus = [[], []]
    facts = {"flips": 0, "snapshots": 3, "snapshots_at": [],
             "drains": 0, "high_order": 0}
    if k612:
        facts.update({"merge_flips": 0, "migrations": 0, "damon": 0,
                      "migrate_ok": 0})
    ts = 5_000_000_000
    offl = [p for p, _, z in blocks if z == "Normal"][30]
    lose_at = n_events // 2 if variant == "v2gengap" else -1
    emitted = 0

    def zones():
        order = sorted({(0, z) for z in zone_of.values()},
                       key=lambda nz: ZONE_ORDER[nz[1]])
        return [z for _, z in order]

    def flip(p, new, reason, at=None):
        z = zone_of[p]
        gen[z] += 1
        old = mt.get(p, "none")
        rec = (at if at is not None else ts, record(
            "pageblock_flip", pfn=p, caller=0xffffffff81000000,
            gen=gen[z], nid=0, zone=ZONE_NUM[z], old_mt=MT_NUM_V2[old],
            new_mt=MT_NUM_V2[new], reason=flip_names.index(reason)))
        mt[p] = new
        if new == "none":
            del mt[p]
        if emitted == lose_at and "lost" not in facts:
            facts["lost"] = {"zone": z, "gen": gen[z], "pfn": "0x%x" % p}
            return
        cpus[rng.randrange(2)].append(rec)
        facts["flips"] += 1
        if reason == "merge":
            facts["merge_flips"] += 1

    mergeable = ("Unmovable", "Movable", "Reclaimable")

    def random_flip(p, at=None):
        old = mt[p]
        new = rng.choice([m for m in MT_NAMES if m not in (old, "Isolate")])
        # 6.12: freeing a buddy merges it with one of another mergeable
        # type, whose block(s) take the merged type
        if k612 and old in mergeable and new in mergeable and \
                rng.random() < 0.4:
            flip(p, new, "merge", at=at)
            return
        flip(p, new, "steal", at=at)

    def migrate(p):
        ok = rng.random() < 0.8
        reason = rng.choice(["damon", "compaction", "damon",
                             "syscall_or_cpuset"])
        dst = 0x1000 + rng.randrange(64) * 512 if ok else 0
        cpus[rng.randrange(2)].append((ts, record(
            "migrate_folio", src_pfn=p + rng.randrange(512), dst_pfn=dst,
            result=0 if ok else -12, order=0,
            mode=MODE_NAMES_612.index(rng.choice(MODE_NAMES_612)),
            reason=MR_NAMES_612.index(reason),
            src_mt=MT_NUM_V2[mt[p]],
            dst_mt=MT_NUM_V2["Movable" if ok else "none"])))
        facts["migrations"] += 1
        facts["migrate_ok"] += ok
        facts["damon"] += reason == "damon"

    def snapshot(seq):
        nonlocal ts
        for z in zones():
            zb = sorted(p for p in mt if zone_of[p] == z)
            if not zb:
                continue
            span = [p for p, _, zz in blocks if zz == z] or zb
            ts += 1000
            begin = (ts, record(
                "pageblock_snapshot", start_pfn=min(span),
                end_pfn=max(span) + 512, gen=gen[z], seq=seq,
                nr_blocks=len(zb), nid=0, zone=ZONE_NUM[z], phase=0))
            cpus[0].append(begin)
            states = []
            for p in zb:
                ts += 1000
                if p not in mt:         # went offline meanwhile
                    continue
                # flips of other blocks between two reads: the lock is
                # taken per block now
                if rng.random() < 0.15:
                    other = rng.choice(sorted(mt))
                    if other != p:
                        ts += 10
                        random_flip(other)
                skew = variant == "v2skew" and rng.random() < 0.1
                if skew:
                    # flipped just before the read, recorded after it
                    random_flip(p, at=ts + 500)
                states.append((ts, record(
                    "pageblock_state", pfn=p, gen=gen[z], seq=seq,
                    free_pages=free[p], nid=0, zone=ZONE_NUM[z],
                    mt=MT_NUM_V2[mt[p]],
                    largest_order=min(9, free[p].bit_length() - 1))))
                if skew:
                    # flipped just after the read, recorded before it
                    random_flip(p, at=ts - 20)
                    ts += 10
            if variant == "v2trunc" and seq == 2 and z == "Normal":
                facts["truncated"] = {"seq": seq, "zone": z,
                                      "nr_blocks": len(zb),
                                      "seen": len(states) - 7}
                cpus[1].extend(states[:-7])
                continue
            cpus[1].extend(states)
            ts += 1000
            cpus[1].append((ts, record(
                "pageblock_snapshot", start_pfn=min(span),
                end_pfn=max(span) + 512, gen=gen[z], seq=seq,
                nr_blocks=len(states), nid=0, zone=ZONE_NUM[z], phase=1)))
        facts["snapshots_at"].append({
            "at": "%d.%09d" % divmod(ts, 10**9),
            "map": {"0x%x" % p: mt[p] for p in mt}})

    snapshot(1)
    per_phase = max(1, n_events // 2)
    for seq in (2, 3):
        for k in range(per_phase):
            ts += rng.randrange(200, 20000)
            emitted += 1
            if seq == 2 and k == per_phase // 2:
                # memory offline of one Normal block, online into Movable
                flip(offl, "Isolate", "isolate")
                ts += 1000
                flip(offl, "none", "offline")
                facts["offline_at"] = ts + 500     # off the map then
                ts += 1000
                zone_of[offl] = "Movable"
                flip(offl, "Isolate", "online")
                ts += 1000
                flip(offl, "Movable", "unisolate")
                continue
            p = rng.choice(sorted(mt))
            if rng.random() < 0.3:
                random_flip(p)
            elif k612 and rng.random() < 0.3:
                migrate(p)
            else:
                nr = [rng.randrange(64) for _ in range(4)]
                cpu = rng.randrange(2)
                cpus[cpu].append((ts, record(
                    "pcp_drain", cpu=cpu, nid=0, nr_unmovable=nr[0],
                    nr_movable=nr[1], nr_reclaimable=nr[2],
                    nr_high_order=nr[3], total=sum(nr),
                    zone=ZONE_NUM[zone_of[p]], reason=rng.randrange(5))))
                facts["drains"] += 1
                facts["high_order"] += nr[3]
        ts += 1_000_000
        snapshot(seq)
    facts["final"] = {"0x%x" % p: mt[p] for p in mt}
    facts["blocks"] = len(mt)
    facts["offline_online"] = "0x%x" % offl
    missed = None
    if variant == "v2dropped":
        for c in cpus:
            c.sort(key=lambda e: e[0])
        # CPU 1: 5 events lost in the second phase, count stored
        k = len(cpus[1]) * 2 // 3
        first = cpus[1][k][0]
        del cpus[1][k - 5:k]
        # CPU 0: some lost, the kernel did not store how many
        j = len(cpus[0]) // 2
        del cpus[0][j - 3:j]
        missed = [{j - 3: -1}, {k - 5: 5}]
        facts["dropped"] = [
            {"cpu": 1, "count": 5, "ts": "%d.%09d" % divmod(first, 10**9)},
            {"cpu": 0, "count": -1,
             "ts": "%d.%09d" % divmod(cpus[0][j - 3][0], 10**9)}]
    return cpus, facts, missed


def fields_of(name, rec):
    """The fields of a record of EVENT name, or None for another event."""
    st, evid, names, _ = packer(name)
    if struct.unpack_from("<H", rec[1])[0] != evid:
        return None
    return dict(zip(names, st.unpack(rec[1])[4:]))


def is_steal_flip(recs):
    """recs ([] or [(ts, rec)]) is a flip of reason steal, which only
    its claim's taken steal may follow on its CPU."""
    f = recs and fields_of("pageblock_flip", recs[0][1])
    return bool(f) and f["reason"] == FLIP_NAMES.index("steal")


def is_declined(rec):
    f = fields_of("pageblock_steal", rec)
    return f is not None and f.get("taken", 1) == 0


def count_declined(facts, alloc, block):
    facts["declined"] = facts.get("declined", 0) + 1
    pairs = facts.setdefault("declined_pairs", {})
    key = "%s>%s" % (alloc, block)
    pairs[key] = pairs.get(key, 0) + 1


def use_taken():
    """pageblock_steal with its last field, taken (series v3 patch 12)."""
    system, evid, fields, fmt = EVENTS["pageblock_steal"]
    EVENTS["pageblock_steal"] = (system, evid, fields + [
        ("taken", ("bool", 1, 0, "B"))], fmt)
    PACKERS.clear()


def declined_at(cpus):
    """The first declined claim's index among the pageblock_steal records
    in file order (CPU by CPU, each in time order), as doctor.py counts."""
    n = 0
    for evs in cpus:
        for _, rec in sorted(evs, key=lambda e: e[0]):
            if fields_of("pageblock_steal", rec) is None:
                continue
            if is_declined(rec):
                return n
            n += 1
    return -1


def add_extfrag(cpus, facts, declined=False):
    """Each steal's mm_page_alloc_extfrag right after it on its CPU, and
    every fourth steal a capture's extfrag alone after that (declined: a
    declined claim, which has no extfrag, right before it)."""
    steal_id = struct.pack("<H", packer("pageblock_steal")[1])
    facts["captures"] = facts["captures_same_type"] = 0
    for c, evs in enumerate(cpus):
        out, n = [], 0
        for ts, rec in evs:
            out.append((ts, rec))
            if rec[1][:2] != steal_id or is_declined(rec):
                continue
            out.append((ts + 1, record(
                "mm_page_alloc_extfrag", pfn=0x1000, alloc_order=0,
                fallback_order=4, alloc_migratetype=0,
                fallback_migratetype=1, change_ownership=0)))
            n += 1
            if n % 4 == 0:
                if declined:
                    out.append((ts + 2, record(
                        "pageblock_steal", pfn=0x1200, block_pfn=0x1200,
                        nid=0, zone=ZONE_NUM["DMA32"], order=3,
                        fallback_order=3, alloc_mt=MT_NUM["Movable"],
                        block_mt=MT_NUM["Unmovable"], claimed=0, taken=0)))
                    count_declined(facts, "Movable", "Unmovable")
                out.append((ts + 2 + declined, record(
                    "mm_page_alloc_extfrag", pfn=0x1200, alloc_order=3,
                    fallback_order=3, alloc_migratetype=1,
                    fallback_migratetype=0, change_ownership=0)))
                facts["captures"] += 1
                facts["steals"] += 1
            if n % 8 == 0:
                # 6.1: a page freed under Movable, captured by an Unmovable
                # request in an Unmovable block: change_ownership=1,
                # nothing mixes, no steal
                out.append((ts + 3 + declined, record(
                    "mm_page_alloc_extfrag", pfn=0x1400, alloc_order=0,
                    fallback_order=0, alloc_migratetype=0,
                    fallback_migratetype=1, change_ownership=1)))
                facts["captures_same_type"] += 1
        cpus[c] = out


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


MIGRATE_EVENTS = {"folio": "migrate_folio", "failed": "migrate_folio_failed",
                  "pass": "migrate_pass", "sum": "mm_migrate_pages"}


def main():
    args = sys.argv[1:]
    if len(args) < 2:
        sys.stderr.write(__doc__)
        return 2
    scenario, out = args[0], os.path.abspath(args[1])
    n = 2000
    missed = None
    v7 = "--v7" in args
    facts_path = None
    if "--events" in args:
        n = int(args[args.index("--events") + 1])
    if "--facts" in args:
        facts_path = args[args.index("--facts") + 1]
    comm = b"init"
    if "--comm" in args:
        comm = codecs.escape_decode(args[args.index("--comm") + 1])[0]
    nr_cpus = int(args[args.index("--cpus") + 1]) if "--cpus" in args else 2
    snaps = 1 if scenario == "onesnap" else 3
    if "--snapshots" in args:
        snaps = int(args[args.index("--snapshots") + 1])

    if scenario in ("mobility", "lostflip", "onesnap", "census"):
        declined = "--declined" in args
        if declined:
            use_taken()
        migrate = ["folio"]
        if "--migrate" in args:
            migrate = args[args.index("--migrate") + 1].split(",")
            if not set(migrate) <= set(MIGRATE_EVENTS):
                sys.stderr.write("--migrate: one of %s\n" %
                                 ",".join(MIGRATE_EVENTS))
                return 2
        cpus, facts = gen_mobility(n, lose_flip=scenario == "lostflip",
                                   snapshots=snaps,
                                   steady="--snapshots" in args,
                                   census_after=(1, 3) if scenario == "census"
                                   else (), migrate=migrate,
                                   declined=declined)
        names = ["pageblock_state", "pageblock_flip", "pageblock_steal",
                 "pcp_drain"] + [MIGRATE_EVENTS[e] for e in migrate]
        if scenario == "census":
            names.append("pageblock_census")
        if "--extfrag" in args:
            add_extfrag(cpus, facts, declined)
            names.append("mm_page_alloc_extfrag")
        if declined:
            facts.setdefault("declined", 0)
            facts["declined_at"] = declined_at(cpus)
    elif scenario.startswith("v2"):
        use_abi_v2()
        cpus, facts, missed = gen_v2(n, scenario)
        if "--zone-marks" in args:
            add_zone_marks(cpus, facts, ["DMA32", "Normal", "Movable"])
        names = ["pageblock_state", "pageblock_flip", "pageblock_snapshot",
                 "pcp_drain"]
    elif scenario in ("v612", "v612unknown"):
        use_abi_612("coalesce" if scenario == "v612unknown" else "merge")
        cpus, facts, missed = gen_v2(n, scenario)
        names = ["pageblock_state", "pageblock_flip", "pageblock_snapshot",
                 "pcp_drain", "migrate_folio"]
    elif scenario == "stock":
        cpus, facts = gen_stock(n)
        names = ["mm_page_alloc_extfrag", "mm_migrate_pages"]
    elif scenario in ("none", "formats"):
        cpus = [[(1_000_000_000 + i * 1000, record("sched_dummy", x=i))
                 for i in range(100)], []]
        facts = {}
        names = ["sched_dummy"]
        if scenario == "formats":
            names += ["pageblock_state", "pageblock_flip", "pageblock_steal",
                      "pcp_drain", "migrate_folio"]
    else:
        sys.stderr.write("unknown scenario %s\n" % scenario)
        return 2

    if nr_cpus > 2:
        idle = [[] for _ in range(nr_cpus - 2)]
        cpus = idle + cpus
        if missed:
            missed = [None] * len(idle) + missed

    tmp = tempfile.mkdtemp(prefix="mkcapture-")
    try:
        tdir = os.path.join(tmp, "tracefs")
        write_tracefs(tdir, names, comm)
        with open(os.path.join(tmp, "kallsyms"), "w") as f:
            f.write("ffffffff81000000 T steal_suitable_fallback\n")
        raws = []
        for i, events in enumerate(cpus):
            events.sort(key=lambda e: e[0])
            raw = os.path.join(tmp, "cpu%d.raw" % i)
            with open(raw, "wb") as f:
                ring_pages(events, f, missed[i] if missed else None)
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
