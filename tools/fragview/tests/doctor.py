#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Doctor a real capture so that it carries one defect fragview must report.

usage: doctor.py IN.dat OUT.dat drop CPU PAGE
       doctor.py IN.dat OUT.dat hide EVENT N
       doctor.py IN.dat OUT.dat set EVENT N FIELD VALUE|=FIELD2

IN.dat is converted to an uncompressed trace.dat v6 (trace-cmd convert),
then, in the ring-buffer pages of the flyrecord section:
  drop       sets the kernel's RB_MISSED_EVENTS flag (no stored count) in
             the commit word of page PAGE of CPU: "events were lost
             before this page", as after a real overrun;
  hide       turns the N-th record of the mobility EVENT (over all CPUs,
             file order) into a record of an event id no format has, so
             it is gone as if the ring buffer had lost it: a flip leaves
             a gen gap, a pageblock_state an incomplete snapshot.
Prints what it did on stdout.
"""
import os
import re
import struct
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "..", "tests", "host"))
import datfile  # noqa: E402  (the one reader of the ring-buffer pages)

MISSED_EVENTS = 1 << 31


def nth_record(d, fmts, name, n):
    """The N-th record (datfile.Record) of EVENT NAME, over all CPUs."""
    fid = int(re.search(r"name: %s\nID: (\d+)" % name, fmts).group(1))
    seen = 0
    for r in datfile.records(d):
        if r.id != fid:
            continue
        if seen == n:
            return r
        seen += 1
    sys.exit("doctor.py: only %d %s records" % (seen, name))


def field_at(fmts, name, field):
    """(offset, size) of FIELD in EVENT's format."""
    block = fmts[fmts.index("name: %s\n" % name):]
    m = re.search(r"field:[^;]*\b%s;\s*offset:(\d+);\s*size:(\d+);" % field, block)
    if not m:
        sys.exit("doctor.py: %s has no field %s" % (name, field))
    return int(m.group(1)), int(m.group(2))


def main():
    src, out, what = sys.argv[1], sys.argv[2], sys.argv[3]
    with tempfile.NamedTemporaryFile(suffix=".dat") as t:
        subprocess.run(["trace-cmd", "convert", "-i", src, "-o", t.name,
                        "--file-version", "6"], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        d = bytearray(open(t.name, "rb").read())
        fmts = subprocess.run(["trace-cmd", "report", "-i", t.name,
                               "--events"], capture_output=True,
                              text=True).stdout
    try:
        cpus = datfile.cpu_sections(d)
    except ValueError as e:
        sys.exit("doctor.py: %s" % e)
    if what == "drop":
        cpu, page = int(sys.argv[4]), int(sys.argv[5])
        off, size = cpus[cpu]
        if page * datfile.PAGE >= size:
            sys.exit("doctor.py: CPU %d has %d pages" % (cpu, size // datfile.PAGE))
        at = off + page * datfile.PAGE + 8
        struct.pack_into("<Q", d, at,
                         struct.unpack_from("<Q", d, at)[0] | MISSED_EVENTS)
        print("CPU %d page %d: missed events flag set" % (cpu, page))
    elif what == "set":
        name, n, field, value = sys.argv[4], int(sys.argv[5]), sys.argv[6], sys.argv[7]
        r = nth_record(d, fmts, name, n)
        off, size = field_at(fmts, name, field)
        if value.startswith("="):
            o2, s2 = field_at(fmts, name, value[1:])
            v = int.from_bytes(d[r.at + o2:r.at + o2 + s2], "little")
        else:
            v = int(value, 0)
        d[r.at + off:r.at + off + size] = (v % (1 << 8 * size)).to_bytes(size, "little")
        print("%s #%d on CPU %d: %s = %d" % (name, n, r.cpu, field, v))
    elif what == "hide":
        name, n = sys.argv[4], int(sys.argv[5])
        r = nth_record(d, fmts, name, n)
        pfn = struct.unpack_from("<Q", d, r.at + 8)[0]
        struct.pack_into("<H", d, r.at, datfile.NO_EVENT)
        print("hid %s #%d (pfn 0x%x) on CPU %d" % (name, n, pfn, r.cpu))
    open(out, "wb").write(d)
    return 0


if __name__ == "__main__":
    sys.exit(main())
