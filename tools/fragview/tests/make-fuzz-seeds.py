#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Write the binary fuzz seeds (reader stream, raw events) to fuzz-seeds/.

Layout of struct fv_event on x86-64 (56 bytes): ts u64, cpu i32, kind u8,
flags u8 (1: gen valid), then the union at offset 16.  State: pfn u64,
gen u64, seq u32, free u32, nid i32, zone u8, mt u8, largest s8.  Flip:
pfn u64, caller u64, gen u64, nid i32, zone, old_mt, new_mt, reason u8.
Snapshot: start_pfn, end_pfn, gen u64, seq u32, nr_blocks u32, nid i32,
zone u8, phase u8.  Lost: count i64, prev_ts u64.  Steal: pfn, block_pfn
u64, nid, free_moved, alike i32, zone, order, fallback_order, alloc_mt,
block_mt, claimed u8, pid i32 (at 36).  Stack: of_ts u64, id u32, of_kind
u8.  The stream adds comm (pid i32, comm[16]) and stack (id u32, nr u32,
frames text) messages for blame.
"""
import os
import struct


def event(ts, kind, body, flags=1):
    return struct.pack("<QiBB2x", ts, 0, kind, flags) + body.ljust(40, b"\0")


def state(ts, seq, pfn, mt, gen):
    return event(ts, 0, struct.pack("<QQIIiBBb", pfn, gen, seq, 100, 0, 2,
                                    mt, 3))


def flip(ts, pfn, old, new, gen):
    return event(ts, 1, struct.pack("<QQQiBBBB", pfn, 0, gen, 0, 2, old, new,
                                    0))


def snap(ts, seq, phase, nr, gen):
    return event(ts, 7, struct.pack("<QQQIIiBB", 0x1000, 0x1400, gen, seq,
                                    nr, 0, 2, phase), 0)


def lost(ts, count):
    return event(ts, 8, struct.pack("<qQ", count, ts - 5), 0)


def steal(ts, pfn, claimed, pid):
    return event(ts, 2, struct.pack("<QQiiiBBBBBBxxi", pfn, pfn & ~511, 0, 3, 0,
                                    2, 0, 3, 0, 1, claimed, pid), 0)


def stack(ts, of_ts, sid):
    return event(ts, 10, struct.pack("<QIB", of_ts, sid, 2), 0)


evs = [snap(9, 1, 0, 2, 4), state(10, 1, 0x1000, 1, 4),
       state(10, 1, 0x1200, 0, 4), snap(11, 1, 1, 2, 4),
       flip(20, 0x1000, 1, 0, 5), lost(25, 3), flip(30, 0x1200, 0, 2, 7),
       snap(39, 2, 0, 2, 7), state(40, 2, 0x1000, 0, 7),
       state(40, 2, 0x1200, 1, 7), steal(41, 0x1003, 0, 77),
       stack(41, 41, 0), steal(42, 0x1205, 1, 78), stack(42, 42, 1)]
here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fuzz-seeds")
with open(os.path.join(here, "events.bin"), "wb") as f:
    f.write(b"\2" + b"".join(evs))
with open(os.path.join(here, "kallsyms.txt"), "wb") as f:
    f.write(b"\3ffffffff81000000 T _stext\nffffffff81001000 t pipe_write\n"
            b"ffffffffa0000000 t mod_fn\t[virtio_blk]\n0000000000000000 T hidden\n")
with open(os.path.join(here, "wire.bin"), "wb") as f:
    body = b"".join(evs)
    f.write(b"\1" + struct.pack("<II", 1, 8) + struct.pack("<II", 2, 3))
    f.write(struct.pack("<II", 6, 20) + struct.pack("<i16s", 77, b"fv-polluter"))
    frames = b"steal_suitable_fallback+0x217\n__alloc_pages+0xda\npipe_write+0x1cf\n"
    f.write(struct.pack("<II", 7, 8 + len(frames)) + struct.pack("<II", 0, 3) + frames)
    f.write(struct.pack("<II", 2, len(body)) + body)
    f.write(struct.pack("<II", 5, 32) + struct.pack("<4Q", 6, 6, 0, 0))
