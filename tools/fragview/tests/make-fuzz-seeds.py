#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Write the binary fuzz seeds (reader stream, raw events) to fuzz-seeds/.

Layout of struct fv_event on x86-64 (56 bytes): ts u64, cpu i32, kind u8,
then the union at offset 16.  State: pfn u64, seq u32, free u32, nid
i32, zone u8, mt u8, largest s8.  Flip: pfn u64, caller u64, nid i32,
zone, old_mt, new_mt, reason u8.
"""
import os
import struct


def event(ts, kind, body):
    return struct.pack("<QiB3x", ts, 0, kind) + body.ljust(40, b"\0")


def state(ts, seq, pfn, mt):
    return event(ts, 0, struct.pack("<QIIiBBb", pfn, seq, 100, 0, 2, mt, 3))


def flip(ts, pfn, old, new):
    return event(ts, 1, struct.pack("<QQiBBBB", pfn, 0, 0, 2, old, new, 0))


evs = [state(10, 1, 0x1000, 1), state(10, 1, 0x1200, 0),
       flip(20, 0x1000, 1, 0), flip(30, 0x1200, 0, 2),
       state(40, 2, 0x1000, 0), state(40, 2, 0x1200, 1)]
here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fuzz-seeds")
with open(os.path.join(here, "events.bin"), "wb") as f:
    f.write(b"\2" + b"".join(evs))
with open(os.path.join(here, "wire.bin"), "wb") as f:
    body = b"".join(evs)
    f.write(b"\1" + struct.pack("<II", 1, 8) + struct.pack("<II", 1, 3))
    f.write(struct.pack("<II", 2, len(body)) + body)
    f.write(struct.pack("<II", 5, 32) + struct.pack("<4Q", 6, 6, 0, 0))
