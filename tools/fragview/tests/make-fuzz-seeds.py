#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Write the binary fuzz seeds (reader stream, raw events) to fuzz-seeds/.

Layout of struct fv_event on x86-64 (56 bytes): ts u64, cpu i32, kind u8,
flags u8 (1: gen valid), then the union at offset 16.  State: pfn u64,
gen u64, seq u32, free u32, nid i32, zone u8, mt u8, largest s8.  Flip:
pfn u64, caller u64, gen u64, nid i32, zone, old_mt, new_mt, reason u8.
Snapshot: start_pfn, end_pfn, gen u64, seq u32, nr_blocks u32, nid i32,
zone u8, phase u8.  Lost: count i64, prev_ts u64.
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


evs = [snap(9, 1, 0, 2, 4), state(10, 1, 0x1000, 1, 4),
       state(10, 1, 0x1200, 0, 4), snap(11, 1, 1, 2, 4),
       flip(20, 0x1000, 1, 0, 5), lost(25, 3), flip(30, 0x1200, 0, 2, 7),
       snap(39, 2, 0, 2, 7), state(40, 2, 0x1000, 0, 7),
       state(40, 2, 0x1200, 1, 7)]
here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fuzz-seeds")
with open(os.path.join(here, "events.bin"), "wb") as f:
    f.write(b"\2" + b"".join(evs))
with open(os.path.join(here, "wire.bin"), "wb") as f:
    body = b"".join(evs)
    f.write(b"\1" + struct.pack("<II", 1, 8) + struct.pack("<II", 1, 3))
    f.write(struct.pack("<II", 2, len(body)) + body)
    f.write(struct.pack("<II", 5, 32) + struct.pack("<4Q", 6, 6, 0, 0))
