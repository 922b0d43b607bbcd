#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Write the fuzz seeds to fuzz-seeds/: usage make-fuzz-seeds.py [FUZZER].

Every seed starts with the header of tests/fuzz_trace.c: entry point,
job, width, flags.  The jobs are numbered by the fuzzer (FUZZER, default
tests/fuzz_trace next to this script, run with FV_FUZZ_JOBS=1 to list
them), so the seeds follow its render table: one seed per job on a
capture that has something for every view and overlay, the maps of a
dump per format, and tests/fuzz-reach.sh checks they reach them all.

Layout of struct fv_event on x86-64 (56 bytes): ts u64, cpu i32, kind u8,
flags u8 (1: gen valid), then the union at offset 16.  State: pfn u64,
gen u64, seq u32, free u32, nid i32, zone u8, mt u8, largest s8.  Flip:
pfn u64, caller u64, gen u64, nid i32, zone, old_mt, new_mt, reason u8.
Snapshot: start_pfn, end_pfn, gen u64, seq u32, nr_blocks u32, nid i32,
zone u8, phase u8.  Lost: count i64, prev_ts u64.  Steal: pfn, block_pfn
u64, nid, free_moved, alike i32, zone, order, fallback_order, alloc_mt,
block_mt, claimed, declined u8 (the kernel's taken negated), pid i32 (at
36).  Stack: of_ts u64, id u32, of_kind u8.  Census: pfn u64, seq u32,
nid i16, 12 u16 counts, zone, mt u8.
Compaction scans: start, end, scanned, taken u64, pid i32.  Runs (begin,
end): zone_start, migrate_pfn, free_pfn, zone_end u64, pid i32, sync,
status u8.  Migrated: migrated, failed u64, pid.  Zone records: nid,
order, pid, prio i32, zone, ret u8.  Alloc: pfn, gfp u64, pid, order i32,
mt u8.  Watermarks: free, min, low, high, boost, managed u32, nid i32,
zone u8.  Migrate and migrate_failed: src_pfn, dst_pfn u64, result i32,
order, mode, reason, pass, src_mt, dst_mt u8.  Migrate_sum: succeeded,
failed u64, mode, reason u8.  Migrate_pass: nr_succeeded, nr_failed,
nr_retry u32, stage, pass, mode, reason u8.  The stream adds comm (pid i32, comm[16]) and stack (id u32, nr
u32, frames text) messages for blame.
"""
import os
import struct
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "fuzz-seeds")
DUMP, WIRE, EVENTS, KSYMS = range(4)
# flags (fuzz_trace.c): at middle, compact --timeline, blame --by, explain --at
AT_MID, TIMELINE, EXPLAIN_AT = 2, 0x10, 0x80
FAIL = 2**64 - 1


def event(ts, kind, body, flags=1):
    return struct.pack("<QiBB2x", ts, 0, kind, flags) + body.ljust(40, b"\0")


def state(ts, seq, pfn, mt, gen, free=100, largest=3):
    return event(ts, 0, struct.pack("<QQIIiBBb", pfn, gen, seq, free, 0, 2,
                                    mt, largest))


def flip(ts, pfn, old, new, gen):
    return event(ts, 1, struct.pack("<QQQiBBBB", pfn, 0, gen, 0, 2, old, new,
                                    0))


def snap(ts, seq, phase, nr, gen):
    return event(ts, 7, struct.pack("<QQQIIiBB", 0x1000, 0x1400, gen, seq,
                                    nr, 0, 2, phase), 0)


def lost(ts, count):
    return event(ts, 8, struct.pack("<qQ", count, ts - 5), 0)


def steal(ts, pfn, claimed, pid, declined=0):
    return event(ts, 2, struct.pack("<QQiiiBBBBBBBxi", pfn, pfn & ~511, 0, 3, 0,
                                    2, 0, 3, 0, 1, claimed, declined, pid), 0)


def stack(ts, of_ts, sid):
    return event(ts, 10, struct.pack("<QIB", of_ts, sid, 2), 0)


def census(ts, seq, pfn, mt, free, lru, slab):
    counts = [free, 1, lru, 0, 0, slab, 0, 512 - free - lru - slab, 0, 0, 0, 0]
    return event(ts, 9, struct.pack("<QIh12HBB", pfn, seq, 0, *counts, 2, mt), 0)


def migrate(ts, src, result, kind=4):
    return event(ts, kind, struct.pack("<QQiBBBBBB", src, 0x1400, result, 0, 0,
                                       2, 1, 1, 1), 0)


def msum(ts, ok, failed):
    return event(ts, 6, struct.pack("<QQBB", ok, failed, 0, 0), 0)


def mpass(ts, pass_, ok, failed, retry):
    return event(ts, 24, struct.pack("<IIIBBBB", ok, failed, retry, 1, pass_,
                                     0, 0), 0)


def drain(ts, pages):
    return event(ts, 3, struct.pack("<i4IIBB", 0, 0, pages, 0, 0, pages, 2, 1), 0)


def czone(ts, kind, order, ret):
    return event(ts, kind, struct.pack("<iiiiBB", 0, order, 55, 1, 2, ret), 0)


def crun(ts, kind, status):
    return event(ts, kind, struct.pack("<QQQQiBB", 0x1000, 0x1000, 0x13ff,
                                       0x1400, 55, 1, status), 0)


def cscan(ts, kind, start, end):
    return event(ts, kind, struct.pack("<QQQQi", start, end, 32, 4, 55), 0)


def wmark(ts, free, low):
    return event(ts, 22, struct.pack("<6IiB", free, low - 10, low, low + 10, 0,
                                     250000, 0, 2), 0)


def alloc(ts, pfn, order):
    return event(ts, 20, struct.pack("<QQiiB", pfn, 0xcc0, 55, order, 1), 0)


# two snapshots around flips, a lost-event gap, steals with their stacks
# (and a claim declined before one), a census, migrations, a drain, a
# compaction run, failed order-9 allocations and a zone's watermarks:
# something for every view, table and overlay
EVS = [wmark(8, 600, 100), snap(9, 1, 0, 2, 4), state(10, 1, 0x1000, 1, 4),
       state(10, 1, 0x1200, 0, 4, free=512, largest=9), snap(11, 1, 1, 2, 4),
       flip(20, 0x1000, 1, 0, 5), lost(25, 3), flip(30, 0x1200, 0, 2, 7),
       census(32, 1, 0x1000, 0, 40, 400, 30), census(32, 1, 0x1200, 2, 8, 0, 500),
       migrate(33, 0x1003, 0), migrate(33, 0x1004, -11), drain(34, 31),
       czone(35, 19, 9, 0), czone(35, 16, 9, 2), crun(36, 13, 0),
       cscan(37, 11, 0x1000, 0x1200), cscan(37, 12, 0x1200, 0x1400),
       cscan(37, 21, 0x1200, 0x1400),
       event(38, 15, struct.pack("<QQi", 3, 1, 55), 0), crun(38, 14, 6),
       czone(38, 17, 9, 6), alloc(38, FAIL, 9), alloc(38, 0x1200, 9),
       snap(39, 2, 0, 2, 7), state(40, 2, 0x1000, 0, 7, free=12, largest=1),
       state(40, 2, 0x1200, 1, 7, free=0, largest=-1),
       steal(41, 0x1200, 0, 77, declined=1),
       steal(41, 0x1003, 0, 77), stack(41, 41, 0), steal(42, 0x1205, 1, 78),
       stack(42, 42, 1), czone(43, 18, 10, 1), alloc(43, FAIL, 10)]


# the default recording of migrations (series v3 patch 11): failed
# attempts per folio, passes and per-call totals, no migrate_folio; then
# a migrate_folio that makes the next migrate_folio_failed a repeat
MIGFORM = EVS[:5] + [
    migrate(33, 0x1004, -11, kind=23), mpass(33, 0, 3, 0, 1),
    migrate(34, 0x1004, -16, kind=23), mpass(34, 1, 0, 1, 0), msum(34, 3, 1),
    migrate(35, 0x1203, -11), migrate(35, 0x1203, -11, kind=23),
    mpass(35, 0, 0, 0, 1)] + EVS[5:]


def wire(evs):
    body = b"".join(evs)
    frames = b"steal_suitable_fallback+0x217\n__alloc_pages+0xda\npipe_write+0x1cf\n"
    return (struct.pack("<II", 1, 8) + struct.pack("<II", 2, 2**22 - 1) +
            struct.pack("<II", 6, 20) + struct.pack("<i16s", 77, b"fv-polluter") +
            struct.pack("<II", 7, 8 + len(frames)) + struct.pack("<II", 0, 3) +
            frames + struct.pack("<II", 2, len(body)) + body +
            struct.pack("<II", 5, 32) + struct.pack("<4Q", 6, 6, 0, 0))


DUMP_V1 = b"""node 0 zone DMA32 start_pfn 0x1000 nr_blocks 2 pageblock_order 9
0x1000 Movable 512 9
0x1200 HighAtomic 3 1
node 1 zone Normal start_pfn 0x100000 nr_blocks 1 pageblock_order 9
0x100000 Isolate 0 -1
"""
DUMP_V2 = b"""node 0 zone Normal start_pfn 0x1001 end_pfn 0x1600 nr_blocks 3 pageblock_order 9 gen 77
0x1000 Movable 512 9 70
0x1400 Unmovable 0 -1 77
"""
# the largest pageblock_order a dump may say, and its largest free order
DUMP_MAX_ORDER = b"""node 0 zone Normal start_pfn 0x10000 nr_blocks 2 pageblock_order 16
0x10000 Movable 65536 16
0x20000 Unmovable 4 2
"""
KALLSYMS = (b"ffffffff81000000 T _stext\nffffffff81001000 t pipe_write\n"
            b"ffffffffa0000000 t mod_fn\t[virtio_blk]\n0000000000000000 T hidden\n"
            b"fragview_zone: node=0 zone=DMA32 free=1234 min=90 low=112 "
            b"high=134 boost=0 managed=250000\n")


def jobs(fuzzer):
    out = subprocess.run([fuzzer], env=dict(os.environ, FV_FUZZ_JOBS="1"),
                         capture_output=True, check=True, text=True).stdout
    return {name: int(i) for i, name in (l.split() for l in out.splitlines())}


def seed(name, entry, job, payload, width=100, flags=AT_MID):
    with open(os.path.join(OUT, name), "wb") as f:
        f.write(bytes([entry, job, width, flags]) + payload)


def main():
    job = jobs(sys.argv[1] if len(sys.argv) > 1 else
               os.path.join(HERE, "fuzz_trace"))
    for old in os.listdir(OUT):
        os.unlink(os.path.join(OUT, old))
    capture = wire(EVS)
    for name, j in job.items():
        tag = name.replace("/", "-")
        seed("wire-%s.bin" % tag, WIRE, j, capture, flags=AT_MID | (j % 3) << 5)
        if name.startswith("compact/"):
            seed("wire-%s-timeline.bin" % tag, WIRE, j, capture,
                 flags=TIMELINE)
        if name.startswith("explain/"):
            seed("wire-%s-at.bin" % tag, WIRE, j, capture, width=9,
                 flags=EXPLAIN_AT)
        if name.startswith("map/") and name.endswith("/type"):
            seed("dump-%s.txt" % tag, DUMP, j, DUMP_V1, width=3)
        if name.startswith("map/") and name.endswith("/order"):
            seed("dump-order16-%s.txt" % tag, DUMP, j, DUMP_MAX_ORDER)
    seed("dump-v2.txt", DUMP, job["map/txt/type"], DUMP_V2)
    seed("events.bin", EVENTS, job["stats/txt"], b"".join(EVS))
    seed("events-migform.bin", EVENTS, job["stats/txt"], b"".join(MIGFORM))
    seed("kallsyms.txt", KSYMS, job["check/report"], KALLSYMS)


main()
