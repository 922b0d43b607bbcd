#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Write a small synthetic trace.dat holding every `mobility` event.

Why: the KernelShark test must be able to run (and fail) without booting
the guest, with content it knows exactly.  We lay out a fake tracefs
directory (event formats per tracepoints/README.md, with the symbolic
tables a kernel would print) and raw ring-buffer pages for two CPUs, then
let `trace-cmd restore` assemble a genuine trace.dat from them.

Usage: mkfixture.py [--broken|--no-mobility|--k612] OUTDIR
                                                 -> OUTDIR/synthetic.dat
  --broken  print migrate_folio.result with negative keys (which
            libtraceevent cannot match) and pcp_drain.reason as a number:
            the decode check must reject this capture.
  --no-mobility  only ftrace:print events: a capture from a kernel
            without our patches, which the plugin must decline politely.
  --k612    the symbolic tables of the 6.12 series (tracepoints/README.md,
            "Per-kernel differences"): flip reasons online, merge,
            offline; no MIGRATE_SYNC_NO_COPY; migrate reason damon.  A
            quarter of the flips are merges, a tenth of the migrations
            damon's.
"""
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
        '{ 3, "all" }, { 4, "cpu_dead" }'
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


# C type -> (size, signed, struct code), as x86-64 lays them out
CTYPES = {"unsigned long": (8, 0, "Q"), "int": (4, 1, "i"),
          "unsigned int": (4, 0, "I"), "unsigned char": (1, 0, "B"),
          "signed char": (1, 1, "b"), "bool": (1, 0, "B")}


def fields(decls):
    """'ctype name; ...' in the order of the event's TP_STRUCT__entry ->
    [(ctype, name, size, signed, struct-code)]"""
    out = []
    for decl in decls.split(";"):
        ctype, name = decl.strip().rsplit(" ", 1)
        out.append((ctype, name) + CTYPES[ctype])
    return out


# name, id, fields, print fmt
EVENTS = [
    ("pageblock_steal", 1501, fields(
        "unsigned long pfn; unsigned long block_pfn; int nid;"
        " int free_moved; int alike; unsigned char zone;"
        " unsigned char order; unsigned char fallback_order;"
        " unsigned char alloc_mt; unsigned char block_mt; bool claimed"),
     '"pfn=0x%lx block_pfn=0x%lx nid=%d zone=%s order=%u '
     'fallback_order=%u alloc_mt=%s block_mt=%s free_moved=%d alike=%d '
     'claimed=%d", REC->pfn, REC->block_pfn, REC->nid, ' +
     sym("zone", ZONE) + ', REC->order, REC->fallback_order, ' +
     sym("alloc_mt", MT) + ', ' + sym("block_mt", MT) +
     ', REC->free_moved, REC->alike, REC->claimed'),
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
    ("migrate_folio", 1504, fields(
        "unsigned long src_pfn; unsigned long dst_pfn; int result;"
        " unsigned char order; unsigned char mode; unsigned char reason;"
        " unsigned char pass; unsigned char src_mt; unsigned char dst_mt"),
     '"src_pfn=0x%lx dst_pfn=0x%lx order=%u mode=%s reason=%s pass=%u '
     'src_mt=%s dst_mt=%s result=%s", REC->src_pfn, REC->dst_pfn, '
     'REC->order, ' + sym("mode", MODE) + ', ' + sym("reason", MR) +
     ', REC->pass, ' + sym("src_mt", MT) + ', ' + sym("dst_mt", MT) +
     ', ' + sym("result", RESULT, "(-(REC->%s)) & 0xffffffff")),
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


def write_format(tdir, name, evid, fields, fmt):
    d = os.path.join(tdir, "events", "mobility", name)
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


# flip reasons, number of modes and of migrate reasons the workload uses
WORKLOAD = {"flip": (0, 1, 2, 3), "modes": 4, "reasons": 9}


def workload():
    """Known events per CPU: the test asserts on exactly these."""
    by_name = {e[0]: e for e in EVENTS}

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
        cpu0.append((t, ev("pageblock_steal", 200 + i % 3, pfn=0x1000 + i,
                    block_pfn=0x1000, zone=2, order=0, fallback_order=3,
                    alloc_mt=0, block_mt=1, free_moved=300, alike=10,
                    claimed=i % 2)))
        cpu1.append((t + 3_000_000, ev("pageblock_flip", 300,
                    pfn=0x1000 + (i % 4) * 512, caller=0xffffffff81234567,
                    zone=2, old_mt=1, new_mt=(0, 2, 3, 5)[i % 4],
                    reason=WORKLOAD["flip"][i % 4])))
        if i % 3 == 0:
            cpu1.append((t + 7_000_000, ev("pcp_drain", 300, cpu=1,
                        zone=2, reason=i % 5, nr_unmovable=4,
                        nr_movable=30, nr_reclaimable=1, total=35)))
        cpu0.append((t + 11_000_000, ev("migrate_folio", 400,
                    src_pfn=0x2000 + i, dst_pfn=0x8000 + i,
                    result=(0, -11, 0, -16)[i % 4], order=0,
                    mode=i % WORKLOAD["modes"],
                    reason=i % WORKLOAD["reasons"], src_mt=1, dst_mt=1)))
    return sorted(cpu0), sorted(cpu1)


def break_formats():
    """Undo the two decodings a careless kernel patch would get wrong."""
    global EVENTS
    fixed = []
    for name, evid, fields, fmt in EVENTS:
        if name == "migrate_folio":
            fmt = fmt.replace(sym("result", RESULT,
                                  "(-(REC->%s)) & 0xffffffff"),
                              sym("result", RESULT.replace("{ 1", "{ -1")
                                  .replace("{ 3", "{ -3")))
        if name == "pcp_drain":
            fmt = fmt.replace("reason=%s", "reason=%u") \
                     .replace(sym("reason", DRAIN), "REC->reason")
        fixed.append((name, evid, fields, fmt))
    EVENTS = fixed


FLIP_612 = FLIP + ', { 8, "online" }, { 9, "merge" }, { 10, "offline" }'
MODE_612 = MODE.replace(', { 3, "MIGRATE_SYNC_NO_COPY" }', '')
MR_612 = MR + ', { 9, "damon" }'
K612 = {"flip": (0, 1, 2, 9), "modes": 3, "reasons": 10}


def use_612():
    """The tables of a 6.12 kernel; the workload then uses merge/damon."""
    global EVENTS
    fixed = []
    for name, evid, fields, fmt in EVENTS:
        if name == "pageblock_flip":
            fmt = fmt.replace(sym("reason", FLIP), sym("reason", FLIP_612))
        if name == "migrate_folio":
            fmt = fmt.replace(sym("mode", MODE), sym("mode", MODE_612)) \
                     .replace(sym("reason", MR), sym("reason", MR_612))
        fixed.append((name, evid, fields, fmt))
    EVENTS = fixed
    WORKLOAD.update(K612)


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
    if args[:1] == ["--broken"]:
        break_formats()
        args = args[1:]
    elif args[:1] == ["--no-mobility"]:
        events = print_workload
        args = args[1:]
    elif args[:1] == ["--k612"]:
        use_612()
        args = args[1:]
    if len(args) != 1:
        sys.stderr.write("usage: mkfixture.py [--broken|--no-mobility|"
                         "--k612] OUTDIR\n")
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
    for name, evid, fields, fmt in EVENTS:
        if events is workload:
            write_format(tdir, name, evid, fields, fmt)
    with open(os.path.join(tdir, "saved_cmdlines"), "w") as f:
        f.write("1 init\n200 stress-alloc\n201 stress-alloc\n"
                "202 stress-alloc\n300 kcompactd0\n400 migrate-test\n")
    with open(os.path.join(out, "kallsyms"), "w") as f:
        f.write("ffffffff81234560 T steal_suitable_fallback\n")

    cpus = []
    for n, records in enumerate(events()):
        path = os.path.join(out, "cpu%d.raw" % n)
        with open(path, "wb") as f:
            f.write(cpu_pages(records))
        cpus.append(path)

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
