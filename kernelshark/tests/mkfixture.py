#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Write a small synthetic trace.dat holding every `mobility` event.

Why: the KernelShark test must be able to run (and fail) without booting
the guest, with content it knows exactly.  We lay out a fake tracefs
directory (event formats per tracepoints/README.md, with the symbolic
tables a kernel would print) and raw ring-buffer pages for two CPUs, then
let `trace-cmd restore` assemble a genuine trace.dat from them.

Usage: mkfixture.py [--broken|--no-mobility|--k612] [--default-events]
                    [--no-taken] OUTDIR
                          -> OUTDIR/synthetic.dat, OUTDIR/expected-info.txt
Migrations are ten migrate_pages() calls (two CPUs, retry passes, one
hugetlb call, one cut short by -ENOMEM), recorded as the kernel would with
mobility:migrate_folio (every attempt), mobility:migrate_folio_failed (the
failed attempts, each written right after its migrate_folio),
mobility:migrate_pass (the end of each retry pass) and the stock
migrate:mm_migrate_pages (the end of each call).  Forty pageblock_steal
records, every other one claimed, all taken (taken=1) but with --k612.
expected-info.txt has the info text the kernel's own printing gives each
record of pageblock_steal and the three migration events,
"EVENT<TAB>CPU<TAB>TS<TAB>TEXT" in KernelShark's order (time, then CPU),
computed here from the values and the name tables.
  --broken  print migrate_folio(_failed).result with negative keys (which
            libtraceevent cannot match), pcp_drain.reason and
            migrate_pass.stage as numbers: the decode check must reject
            this capture.
  --no-mobility  only ftrace:print events: a capture from a kernel
            without our patches, which the plugin must decline politely.
  --k612    the symbolic tables of the 6.12 series (tracepoints/README.md,
            "Per-kernel differences"): flip reasons online, merge,
            offline; no MIGRATE_SYNC_NO_COPY; migrate reason damon.  A
            quarter of the flips are merges, a tenth of the migrations
            damon's.  Retry passes are 6.12's: an "unmap" then a "move"
            stage per batch (6.1: one "unmap_move" stage).  Steals are
            6.12's: five of the forty are claims try_to_steal_block()
            declined (taken=0, claimed=0, fewer than half a block free
            and compatible), the other unclaimed ones single-page steals
            (free_moved=0 alike=0).
  --default-events  the default recording of series v3 patch 11:
            migrate_folio_failed, migrate_pass and mm_migrate_pages but
            no migrate_folio (neither its records nor its format).
  --no-taken  pageblock_steal as series before v3 patch 12 wrote it: no
            `taken` field (so no declined claims either), as in every
            capture recorded before the field.
"""
import re
import os
import struct
import subprocess
import sys

PAGE = os.sysconf("SC_PAGE_SIZE")
COMMON = [("unsigned short", "common_type", 2, 0),
          ("unsigned char", "common_flags", 1, 0),
          ("unsigned char", "common_preempt_count", 1, 0),
          ("int", "common_pid", 4, 1)]

MT = '{ 0, "Unmovable" }, { 1, "Movable" }, { 2, "Reclaimable" }, ' \
     '{ 3, "HighAtomic" }, { 4, "CMA" }, { 5, "Isolate" }'
ZONE = '{ 0, "DMA" }, { 1, "DMA32" }, { 2, "Normal" }, { 3, "Movable" }'
FLIP = '{ 0, "steal" }, { 1, "highatomic_reserve" }, ' \
       '{ 2, "highatomic_unreserve" }, { 3, "isolate" }, ' \
       '{ 4, "unisolate" }, { 5, "cma" }, { 6, "isolate_free" }, ' \
       '{ 7, "init" }'
DRAIN = '{ 0, "free_high" }, { 1, "vmstat" }, { 2, "local" }, ' \
        '{ 3, "all" }, { 4, "cpu_dead" }, { 5, "decay" }'
MODE = '{ 0, "MIGRATE_ASYNC" }, { 1, "MIGRATE_SYNC_LIGHT" }, ' \
       '{ 2, "MIGRATE_SYNC" }, { 3, "MIGRATE_SYNC_NO_COPY" }'
MR = '{ 0, "compaction" }, { 1, "memory_failure" }, ' \
     '{ 2, "memory_hotplug" }, { 3, "syscall_or_cpuset" }, ' \
     '{ 4, "mempolicy_mbind" }, { 5, "numa_misplaced" }, ' \
     '{ 6, "contig_range" }, { 7, "longterm_pin" }, { 8, "demotion" }'
# libtraceevent reads an int field without sign extension and ignores casts
# here, so negative errnos only decode when printed negated and masked.
RESULT = '{ 0, "success" }, { 11, "EAGAIN" }, { 16, "EBUSY" }, ' \
         '{ 12, "ENOMEM" }, { 38, "ENOSYS" }'


def sym(field, table, expr="REC->%s"):
    return '__print_symbolic(%s, %s)' % (expr % field, table)


# dst_mt is "none" when no destination was allocated (dst_pfn=0)
MT_DST = MT + ', { 6, "none" }'
# enum migrate_pass_stage (patch 11); same values on 6.1 and 6.12
STAGE = '{ 0, "hugetlb" }, { 1, "unmap_move" }, { 2, "unmap" }, ' \
        '{ 3, "move" }'
# the stock migrate:mm_migrate_pages tables (6.1: no MIGRATE_SYNC_NO_COPY)
STOCK_MODE = '{0, "MIGRATE_ASYNC"}, {1, "MIGRATE_SYNC_LIGHT"}, ' \
             '{2, "MIGRATE_SYNC"}'
STOCK_MR = '{0, "compaction"}, {1, "memory_failure"}, ' \
           '{2, "memory_hotplug"}, {3, "syscall_or_cpuset"}, ' \
           '{4, "mempolicy_mbind"}, {5, "numa_misplaced"}, ' \
           '{6, "contig_range"}, {7, "longterm_pin"}, {8, "demotion"}'


def names(table):
    """'{ 0, "a" }, ...' -> {0: "a", ...}: how the expected text is made"""
    return {int(v): n for v, n in
            re.findall(r'\{\s*(-?\d+),\s*"([^"]*)"\s*\}', table)}


# C type -> (size, signed, struct code), as x86-64 lays them out
CTYPES = {"unsigned long": (8, 0, "Q"), "int": (4, 1, "i"),
          "unsigned int": (4, 0, "I"), "unsigned char": (1, 0, "B"),
          "signed char": (1, 1, "b"), "bool": (1, 0, "B"),
          "u8": (1, 0, "B"), "enum migrate_mode": (4, 0, "I")}


def fields(decls):
    """'ctype name; ...' in the order of the event's TP_STRUCT__entry ->
    [(ctype, name, size, signed, struct-code)]"""
    out = []
    for decl in decls.split(";"):
        ctype, name = decl.strip().rsplit(" ", 1)
        out.append((ctype, name) + CTYPES[ctype])
    return out


# One event class (patch 11): migrate_folio and migrate_folio_failed.
# Print format as the kernel's (tests/fixtures/formats-6.1/migrate_folio).
MIGRATE_FOLIO_FIELDS = fields(
    "unsigned long src_pfn; unsigned long dst_pfn; int result; u8 order;"
    " u8 mode; u8 reason; u8 pass; u8 src_mt; u8 dst_mt")
MIGRATE_FOLIO_FMT = (
    '"src_pfn=0x%lx dst_pfn=0x%lx order=%u result=%s mode=%s reason=%s '
    'pass=%u src_mt=%s dst_mt=%s", REC->src_pfn, REC->dst_pfn, '
    'REC->order, ' + sym("result", RESULT, "(-(REC->%s)) & 0xffffffff") +
    ', ' + sym("mode", MODE) + ', ' + sym("reason", MR) + ', REC->pass, ' +
    sym("src_mt", MT) + ', ' + sym("dst_mt", MT_DST))

# name, id, fields, print fmt
EVENTS = [
    ("pageblock_steal", 1501, fields(
        "unsigned long pfn; unsigned long block_pfn; int nid;"
        " int free_moved; int alike; unsigned char zone;"
        " unsigned char order; unsigned char fallback_order;"
        " unsigned char alloc_mt; unsigned char block_mt; bool claimed;"
        " bool taken"),
     '"pfn=0x%lx block_pfn=0x%lx nid=%d zone=%s order=%u '
     'fallback_order=%u alloc_mt=%s block_mt=%s free_moved=%d alike=%d '
     'claimed=%d taken=%d", REC->pfn, REC->block_pfn, REC->nid, ' +
     sym("zone", ZONE) + ', REC->order, REC->fallback_order, ' +
     sym("alloc_mt", MT) + ', ' + sym("block_mt", MT) +
     ', REC->free_moved, REC->alike, REC->claimed, REC->taken'),
    ("pageblock_flip", 1502, fields(
        "unsigned long pfn; unsigned long caller; int nid;"
        " unsigned char zone; unsigned char old_mt; unsigned char new_mt;"
        " unsigned char reason"),
     '"pfn=0x%lx nid=%d zone=%s old_mt=%s new_mt=%s reason=%s caller=%pS", '
     'REC->pfn, REC->nid, ' + sym("zone", ZONE) + ', ' +
     sym("old_mt", MT) + ', ' + sym("new_mt", MT) + ', ' +
     sym("reason", FLIP) + ', (void *)REC->caller'),
    ("pcp_drain", 1503, fields(
        "int cpu; int nid; unsigned int nr_unmovable;"
        " unsigned int nr_movable; unsigned int nr_reclaimable;"
        " unsigned int total; unsigned char zone; unsigned char reason"),
     '"cpu=%d nid=%d zone=%s reason=%s unmovable=%u movable=%u '
     'reclaimable=%u total=%u", REC->cpu, REC->nid, ' +
     sym("zone", ZONE) + ', ' + sym("reason", DRAIN) +
     ', REC->nr_unmovable, REC->nr_movable, REC->nr_reclaimable, '
     'REC->total'),
    ("migrate_folio", 1504, MIGRATE_FOLIO_FIELDS, MIGRATE_FOLIO_FMT),
    ("pageblock_state", 1505, fields(
        "unsigned long pfn; unsigned int seq; unsigned int free_pages;"
        " int nid; unsigned char zone; unsigned char mt;"
        " signed char largest_order"),
     '"pfn=0x%lx seq=%u nid=%d zone=%s mt=%s free_pages=%u '
     'largest_order=%d", REC->pfn, REC->seq, REC->nid, ' +
     sym("zone", ZONE) + ', ' + sym("mt", MT) +
     # sign-extended by hand, as the kernel's format does: libtraceevent
     # would print an s8 -1 as 255
     ', REC->free_pages, (REC->largest_order & 0x80) ? '
     '(REC->largest_order | ~0xff) : REC->largest_order'),
    # patch 11: migrate_folio's event class, only attempts that failed
    ("migrate_folio_failed", 1506, MIGRATE_FOLIO_FIELDS, MIGRATE_FOLIO_FMT),
    ("migrate_pass", 1507, fields(
        "unsigned int nr_succeeded; unsigned int nr_failed;"
        " unsigned int nr_retry; u8 stage; u8 pass; u8 mode; u8 reason"),
     '"stage=%s pass=%u nr_succeeded=%u nr_failed=%u nr_retry=%u mode=%s '
     'reason=%s", ' + sym("stage", STAGE) + ', REC->pass, '
     'REC->nr_succeeded, REC->nr_failed, REC->nr_retry, ' +
     sym("mode", MODE) + ', ' + sym("reason", MR)),
]

# Stock events of the default recording, other systems: (system, event).
STOCK = [
    ("migrate", "mm_migrate_pages", 238, fields(
        "unsigned long succeeded; unsigned long failed;"
        " unsigned long thp_succeeded; unsigned long thp_failed;"
        " unsigned long thp_split; enum migrate_mode mode; int reason"),
     '"nr_succeeded=%lu nr_failed=%lu nr_thp_succeeded=%lu '
     'nr_thp_failed=%lu nr_thp_split=%lu mode=%s reason=%s", '
     'REC->succeeded, REC->failed, REC->thp_succeeded, REC->thp_failed, '
     'REC->thp_split, ' + sym("mode", STOCK_MODE) + ', ' +
     sym("reason", STOCK_MR)),
]

HEADER_PAGE = """\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;
\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;
\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;
\tfield: char data;\toffset:16;\tsize:%d;\tsigned:1;
""" % (PAGE - 16)

# trace-cmd insists on an ftrace system; a kernel always has this event.
FTRACE_PRINT = """name: print
ID: 5
format:
\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;
\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;
\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;
\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;

\tfield:unsigned long ip;\toffset:8;\tsize:8;\tsigned:0;
\tfield:char buf[];\toffset:16;\tsize:0;\tsigned:1;

print fmt: "%ps: %s", (void *)REC->ip, REC->buf
"""

HEADER_EVENT = """# compressed entry header
\ttype_len    :    5 bits
\ttime_delta  :   27 bits
\tarray       :   32 bits

\tpadding     : type == 29
\ttime_extend : type == 30
\ttime_stamp : type == 31
\tdata max type_len  == 28
"""


def layout(fields):
    """Offsets as the compiler would place them (natural alignment)."""
    off, out = 8, []
    for ctype, name, size, signed, code in fields:
        off = (off + size - 1) // size * size
        out.append((ctype, name, size, signed, code, off))
        off += size
    return out, (off + 7) // 8 * 8


def write_format(tdir, name, evid, fields, fmt, system="mobility"):
    d = os.path.join(tdir, "events", system, name)
    os.makedirs(d, exist_ok=True)
    lines = ["name: %s" % name, "ID: %d" % evid, "format:"]
    off = 0
    for ctype, fname, size, signed in COMMON:
        lines.append("\tfield:%s %s;\toffset:%d;\tsize:%d;\tsigned:%d;"
                     % (ctype, fname, off, size, signed))
        off += size
    lines.append("")
    for ctype, fname, size, signed, _, foff in layout(fields)[0]:
        lines.append("\tfield:%s %s;\toffset:%d;\tsize:%d;\tsigned:%d;"
                     % (ctype, fname, foff, size, signed))
    lines.append("")
    lines.append("print fmt: " + fmt)
    with open(os.path.join(d, "format"), "w") as f:
        f.write("\n".join(lines) + "\n")


def record(evid, fields, pid, values):
    laid, size = layout(fields)
    buf = bytearray(size)
    struct.pack_into("<HBBi", buf, 0, evid, 0, 0, pid)
    for ctype, name, fsize, signed, code, off in laid:
        struct.pack_into("<" + code, buf, off, values.get(name, 0))
    return bytes(buf)


def cpu_pages(events):
    """events: [(ts_ns, payload)] sorted; returns raw ring-buffer pages."""
    pages, data, page_ts, last = [], b"", None, None
    room = PAGE - 16

    def flush():
        if page_ts is not None:
            pages.append(struct.pack("<QQ", page_ts, len(data)) +
                         data.ljust(room, b"\0"))

    for ts, payload in events:
        words = (len(payload) + 3) // 4
        assert 1 <= words <= 28
        body = payload.ljust(words * 4, b"\0")
        if page_ts is None or len(data) + 4 + len(body) > room or \
                ts - last >= (1 << 27):
            flush()
            page_ts, last, data = ts, ts, b""
        hdr = words | ((ts - last) << 5)
        data += struct.pack("<I", hdr) + body
        last = ts
    flush()
    return b"".join(pages)


# flip reasons, number of modes and of migrate reasons the workload uses;
# which kernel's retry passes and steals; whether migrate_folio is
# recorded; whether pageblock_steal has its taken field (patch 12)
WORKLOAD = {"flip": (0, 1, 2, 3), "modes": 4, "reasons": 9,
            "kernel": "6.1", "migrate_folio": True, "taken": True}
# the tables the expected info text is made with (use_612 changes them)
TABLES = {"mode": MODE, "reason": MR}
# "EVENT\tCPU\tTS\tTEXT" lines, see expect()
EXPECTED = []
# the events whose info text expected-info.txt holds
EXPECTED_EVENTS = ("pageblock_steal", "migrate_folio", "migrate_folio_failed",
                   "migrate_pass")


def expect(name, cpu, ts, vals):
    """Note the text record @vals of @name shows; ties keep write order."""
    if name in EXPECTED_EVENTS:
        EXPECTED.append((ts, cpu, len(EXPECTED), name, info_text(name, vals)))


def info_text(name, v):
    """The text the kernel's print format gives record @v of @name."""
    if name == "pageblock_steal":
        text = ("pfn=0x%x block_pfn=0x%x nid=%d zone=%s order=%d "
                "fallback_order=%d alloc_mt=%s block_mt=%s free_moved=%d "
                "alike=%d claimed=%d" %
                (v["pfn"], v["block_pfn"], v.get("nid", 0),
                 names(ZONE)[v["zone"]], v["order"], v["fallback_order"],
                 names(MT)[v["alloc_mt"]], names(MT)[v["block_mt"]],
                 v["free_moved"], v["alike"], v["claimed"]))
        if WORKLOAD["taken"]:
            text += " taken=%d" % v["taken"]
        return text
    mode = names(TABLES["mode"])[v["mode"]]
    reason = names(TABLES["reason"])[v["reason"]]
    if name == "migrate_pass":
        return ("stage=%s pass=%d nr_succeeded=%d nr_failed=%d nr_retry=%d "
                "mode=%s reason=%s" % (names(STAGE)[v["stage"]], v["pass"],
                                       v["nr_succeeded"], v["nr_failed"],
                                       v["nr_retry"], mode, reason))
    return ("src_pfn=0x%x dst_pfn=0x%x order=%d result=%s mode=%s reason=%s "
            "pass=%d src_mt=%s dst_mt=%s" %
            (v["src_pfn"], v["dst_pfn"], v["order"],
             names(RESULT)[-v["result"] & 0xffffffff], mode, reason,
             v["pass"], names(MT)[v["src_mt"]], names(MT_DST)[v["dst_mt"]]))


def migrations(ev, cpus):
    """Ten migrate_pages() calls, on alternate CPUs, recorded as patch 11
    records them.  Each call: folios A, B, C; A moves in pass 0, B is
    retried (EAGAIN) and moves in pass 1, C fails for good (EBUSY).  Call 2
    migrates hugetlb folios (order 9, stage hugetlb); in call 5 the retry
    of B (6.1) or the unmap of C (6.12) fails with ENOMEM, which ends the
    pass without a migrate_pass.  On 6.12 a batch is unmapped (C fails
    there; the unmapped A and B are counted by the move stage), then moved.
    """
    k612 = WORKLOAD["kernel"] == "6.12"
    t_base = 1_000_000_000 + 50_000_000 + 31_000_137

    def emit(name, cpu, ts, pid, **vals):
        cpus[cpu].append((ts, ev(name, pid, **vals)))
        expect(name, cpu, ts, vals)

    for k in range(10):
        cpu, pid = k % 2, 400 + k % 2
        clock = [t_base + (k // 2) * 160_000_000 + cpu * 1_050_000]
        mode, reason = k % WORKLOAD["modes"], k % WORKLOAD["reasons"]
        huge, enomem = k == 2, k == 5
        order = [9] * 3 if huge else [k % 3, (k + 1) % 3, 0]
        pages = [1 << o for o in order]
        step = 0x200 if huge else 4
        src = [(0x40000 if huge else 0x2000 + 16 * k) + step * j
               for j in range(3)]
        dst = [(0x60000 if huge else 0x8000 + 16 * k) + step * j
               for j in range(3)]

        def attempt(j, result, pass_, dst_pfn=None):
            clock[0] += 300_000
            d = dst[j] if dst_pfn is None else dst_pfn
            vals = {"src_pfn": src[j], "dst_pfn": d, "result": result,
                    "order": order[j], "mode": mode, "reason": reason,
                    "pass": pass_, "src_mt": 1, "dst_mt": 1 if d else 6}
            if WORKLOAD["migrate_folio"]:
                emit("migrate_folio", cpu, clock[0], pid, **vals)
            if result:	# written right after migrate_folio's record
                emit("migrate_folio_failed", cpu, clock[0] + 40, pid,
                     **vals)

        def pass_end(stage, pass_, moved, failed, retry):
            clock[0] += 100_000
            emit("migrate_pass", cpu, clock[0], pid,
                 stage=names_rev(STAGE)[stage], **{"pass": pass_},
                 nr_succeeded=moved, nr_failed=failed, nr_retry=retry,
                 mode=mode, reason=reason)

        moved, failed = 0, 0
        if huge or not k612:
            stage = "hugetlb" if huge else "unmap_move"
            attempt(0, 0, 0)
            attempt(1, -11, 0)
            attempt(2, -16, 0)
            pass_end(stage, 0, pages[0], pages[2], pages[1])
            moved, failed = pages[0], pages[2]
            if enomem:	# a new destination for the retry: none left
                attempt(1, -12, 1, dst_pfn=0)
                failed += pages[1]
            else:	# a new destination per attempt: 6.1, and hugetlb
                attempt(1, 0, 1, dst_pfn=dst[2] + step)
                pass_end(stage, 1, pages[1], 0, 0)
                moved += pages[1]
        else:
            if enomem:
                attempt(2, -12, 0, dst_pfn=0)
            else:
                attempt(2, -16, 0)
                pass_end("unmap", 0, 0, pages[2], 0)
            failed = pages[2]
            attempt(0, 0, 0)
            attempt(1, -11, 0)
            pass_end("move", 0, pages[0], 0, pages[1])
            attempt(1, 0, 1)	# the move stage keeps its destination
            pass_end("move", 1, pages[1], 0, 0)
            moved = pages[0] + pages[1]
        clock[0] += 100_000
        emit("mm_migrate_pages", cpu, clock[0], pid, succeeded=moved,
             failed=failed, mode=mode, reason=reason)


def names_rev(table):
    return {n: v for v, n in names(table).items()}


def workload():
    """Known events per CPU: the test asserts on exactly these."""
    by_name = {e[0]: e for e in EVENTS}
    by_name.update({e[1]: e[1:] for e in STOCK})

    def ev(name, pid, **vals):
        _, evid, fields, _ = by_name[name]
        return record(evid, fields, pid, vals)

    base = 1_000_000_000
    cpu0, cpu1 = [], []
    for i in range(8):
        cpu0.append((base + i * 1000, ev("pageblock_state", 1, pfn=i * 512,
                    seq=1, free_pages=100 + i, zone=2, mt=1 if i else 0,
                    largest_order=3 if i != 5 else -1)))
    t = base + 50_000_000
    for i in range(40):
        t += 20_000_000
        # a steal that claims, and one that does not, by alternate tasks
        steal = dict(pfn=0x1000 + i, block_pfn=0x1000, zone=2, order=0,
                     fallback_order=3, alloc_mt=0, block_mt=1,
                     free_moved=300, alike=10, claimed=i % 2, taken=1)
        if WORKLOAD["kernel"] == "6.12" and WORKLOAD["taken"] and \
                i % 2 == 0:
            if i % 8 == 0:
                # a claim declined: too few free + compatible pages
                # (under half a block, 256 here), nothing taken
                steal.update(taken=0, free_moved=100 + i, alike=20)
            else:
                # __rmqueue_steal(): one buddy, the block not scanned
                steal.update(free_moved=0, alike=0)
        if not WORKLOAD["taken"]:
            del steal["taken"]
        cpu0.append((t, ev("pageblock_steal", 200 + i % 3, **steal)))
        expect("pageblock_steal", 0, t, steal)
        cpu1.append((t + 3_000_000, ev("pageblock_flip", 300,
                    pfn=0x1000 + (i % 4) * 512, caller=0xffffffff81234567,
                    zone=2, old_mt=1, new_mt=(0, 2, 3, 5)[i % 4],
                    reason=WORKLOAD["flip"][i % 4])))
        if i % 3 == 0:
            cpu1.append((t + 7_000_000, ev("pcp_drain", 300, cpu=1,
                        zone=2, reason=i // 3 % 6, nr_unmovable=4,
                        nr_movable=30, nr_reclaimable=1, total=35)))
    migrations(ev, (cpu0, cpu1))
    return sorted(cpu0), sorted(cpu1)


def break_formats():
    """Undo the decodings a careless kernel patch would get wrong."""
    global EVENTS
    fixed = []
    for name, evid, fields, fmt in EVENTS:
        if name in ("migrate_folio", "migrate_folio_failed"):
            fmt = fmt.replace(sym("result", RESULT,
                                  "(-(REC->%s)) & 0xffffffff"),
                              sym("result", RESULT.replace("{ 1", "{ -1")
                                  .replace("{ 3", "{ -3")))
        if name == "pcp_drain":
            fmt = fmt.replace("reason=%s", "reason=%u") \
                     .replace(sym("reason", DRAIN), "REC->reason")
        if name == "migrate_pass":
            fmt = fmt.replace("stage=%s", "stage=%u") \
                     .replace(sym("stage", STAGE), "REC->stage")
        fixed.append((name, evid, fields, fmt))
    EVENTS = fixed


FLIP_612 = FLIP + ', { 8, "online" }, { 9, "merge" }, { 10, "offline" }'
MODE_612 = MODE.replace(', { 3, "MIGRATE_SYNC_NO_COPY" }', '')
MR_612 = MR + ', { 9, "damon" }'
STOCK_MR_612 = STOCK_MR + ', {9, "damon"}'
K612 = {"flip": (0, 1, 2, 9), "modes": 3, "reasons": 10, "kernel": "6.12"}


def use_612():
    """The tables of a 6.12 kernel; the workload then uses merge/damon."""
    global EVENTS, STOCK
    fixed = []
    for name, evid, flds, fmt in EVENTS:
        if name == "pageblock_flip":
            fmt = fmt.replace(sym("reason", FLIP), sym("reason", FLIP_612))
        if name in ("migrate_folio", "migrate_folio_failed",
                    "migrate_pass"):
            fmt = fmt.replace(sym("mode", MODE), sym("mode", MODE_612)) \
                     .replace(sym("reason", MR), sym("reason", MR_612))
        fixed.append((name, evid, flds, fmt))
    EVENTS = fixed
    # 6.12's mm_migrate_pages: nr_split (large_folio_split) and damon
    STOCK = [("migrate", "mm_migrate_pages", 288, fields(
        "unsigned long succeeded; unsigned long failed;"
        " unsigned long thp_succeeded; unsigned long thp_failed;"
        " unsigned long thp_split; unsigned long large_folio_split;"
        " enum migrate_mode mode; int reason"),
        '"nr_succeeded=%lu nr_failed=%lu nr_thp_succeeded=%lu '
        'nr_thp_failed=%lu nr_thp_split=%lu nr_split=%lu mode=%s '
        'reason=%s", REC->succeeded, REC->failed, REC->thp_succeeded, '
        'REC->thp_failed, REC->thp_split, REC->large_folio_split, ' +
        sym("mode", STOCK_MODE) + ', ' + sym("reason", STOCK_MR_612))]
    WORKLOAD.update(K612)
    TABLES.update(mode=MODE_612, reason=MR_612)


def default_events():
    """Patch 11's default recording: no migrate_folio at all."""
    global EVENTS
    EVENTS = [e for e in EVENTS if e[0] != "migrate_folio"]
    WORKLOAD["migrate_folio"] = False


def no_taken():
    """pageblock_steal as written before patch 12: no taken field."""
    global EVENTS
    fixed = []
    for name, evid, flds, fmt in EVENTS:
        if name == "pageblock_steal":
            flds = [f for f in flds if f[1] != "taken"]
            fmt = fmt.replace(" taken=%d", "").replace(", REC->taken", "")
        fixed.append((name, evid, flds, fmt))
    EVENTS = fixed
    WORKLOAD["taken"] = False


def print_workload():
    """Plain trace_printk-style records, one per 10 ms on CPU 0."""
    cpu0 = []
    for i in range(20):
        text = b"tick %d\n\0" % i
        cpu0.append((1_000_000_000 + i * 10_000_000,
                     struct.pack("<HBBiQ", 5, 0, 0, 1, 0) + text))
    return cpu0, []


def main():
    args = sys.argv[1:]
    events = workload
    flags = {"--broken", "--no-mobility", "--k612", "--default-events",
             "--no-taken"}
    while args and args[0] in flags:
        flag = args.pop(0)
        if flag == "--broken":
            break_formats()
        elif flag == "--no-mobility":
            events = print_workload
        elif flag == "--k612":
            use_612()
        elif flag == "--no-taken":
            no_taken()
        else:
            default_events()
    if len(args) != 1 or args[0].startswith("--"):
        sys.stderr.write("usage: mkfixture.py [--broken|--no-mobility|"
                         "--k612] [--default-events] [--no-taken] "
                         "OUTDIR\n")
        return 2
    out = os.path.abspath(args[0])
    tdir = os.path.join(out, "tracefs")
    os.makedirs(os.path.join(tdir, "events"), exist_ok=True)
    with open(os.path.join(tdir, "events", "header_page"), "w") as f:
        f.write(HEADER_PAGE)
    with open(os.path.join(tdir, "events", "header_event"), "w") as f:
        f.write(HEADER_EVENT)
    os.makedirs(os.path.join(tdir, "events", "ftrace", "print"),
                exist_ok=True)
    with open(os.path.join(tdir, "events", "ftrace", "print", "format"),
              "w") as f:
        f.write(FTRACE_PRINT)
    if events is workload:
        for name, evid, fields, fmt in EVENTS:
            write_format(tdir, name, evid, fields, fmt)
        for system, name, evid, fields, fmt in STOCK:
            write_format(tdir, name, evid, fields, fmt, system)
    with open(os.path.join(tdir, "saved_cmdlines"), "w") as f:
        f.write("1 init\n200 stress-alloc\n201 stress-alloc\n"
                "202 stress-alloc\n300 kcompactd0\n400 migrate-test\n"
                "401 migrate-test\n")
    with open(os.path.join(out, "kallsyms"), "w") as f:
        f.write("ffffffff81234560 T steal_suitable_fallback\n")

    cpus = []
    for n, records in enumerate(events()):
        path = os.path.join(out, "cpu%d.raw" % n)
        with open(path, "wb") as f:
            f.write(cpu_pages(records))
        cpus.append(path)
    # KernelShark's order: by time, a tie to the lower CPU, else as written
    with open(os.path.join(out, "expected-info.txt"), "w") as f:
        for ts, cpu, _, name, text in sorted(EXPECTED):
            f.write("%s\t%d\t%d\t%s\n" % (name, cpu, ts, text))

    head = os.path.join(out, "head.dat")
    dat = os.path.join(out, "synthetic.dat")
    run = ["trace-cmd", "restore", "-c", "-t", tdir,
           "-k", os.path.join(out, "kallsyms"), "-o", head]
    subprocess.run(run, check=True, stdout=subprocess.DEVNULL)
    subprocess.run(["trace-cmd", "restore", "-i", head, "-o", dat] + cpus,
                   check=True, stdout=subprocess.DEVNULL)
    print(dat)
    return 0


if __name__ == "__main__":
    sys.exit(main())
