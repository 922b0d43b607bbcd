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
import re
import struct
import subprocess
import sys
import tempfile

MISSED_EVENTS = 1 << 31


def cpu_data(d):
    """(offset, size) of each CPU's pages: the v6 flyrecord section."""
    i = d.find(b"flyrecord\0")
    if i < 0:
        sys.exit("doctor.py: no flyrecord section")
    ncpu = struct.unpack_from("<I", d, d.rfind(b"options  \0", 0, i) - 4)[0] \
        if d.rfind(b"options  \0", 0, i) > 0 else 2
    return [struct.unpack_from("<QQ", d, i + 10 + 16 * k) for k in range(ncpu)]


def records(d, off, size):
    """(offset of the record's payload, words) of every data record."""
    for page in range(off, off + size, 4096):
        commit = struct.unpack_from("<Q", d, page + 8)[0] & ((1 << 27) - 1)
        p, end = page + 16, page + 16 + commit
        while p < end:
            hdr = struct.unpack_from("<I", d, p)[0]
            tl = hdr & 31
            if tl == 29:                       # padding
                if hdr >> 5 == 0:
                    break
                p += 4 + struct.unpack_from("<I", d, p + 4)[0]
            elif tl in (30, 31):              # time extend / stamp
                p += 8
            elif tl == 0:                      # length in the next word
                n = struct.unpack_from("<I", d, p + 4)[0]
                yield p + 8, n - 4
                p += 4 + n
            else:
                yield p + 4, tl * 4
                p += 4 + tl * 4


def nth_record(d, cpus, fid, n):
    """(payload offset, CPU) of the N-th record of event id FID."""
    seen = 0
    for cpu, (off, size) in enumerate(cpus):
        for p, _ in records(d, off, size):
            if struct.unpack_from("<H", d, p)[0] != fid:
                continue
            if seen == n:
                return p, cpu
            seen += 1
    sys.exit("doctor.py: only %d records of id %d" % (seen, fid))


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
    cpus = cpu_data(d)
    if what == "drop":
        cpu, page = int(sys.argv[4]), int(sys.argv[5])
        off, size = cpus[cpu]
        if page * 4096 >= size:
            sys.exit("doctor.py: CPU %d has %d pages" % (cpu, size // 4096))
        at = off + page * 4096 + 8
        struct.pack_into("<Q", d, at,
                         struct.unpack_from("<Q", d, at)[0] | MISSED_EVENTS)
        print("CPU %d page %d: missed events flag set" % (cpu, page))
    elif what == "set":
        name, n, field, value = sys.argv[4], int(sys.argv[5]), sys.argv[6], sys.argv[7]
        fid = int(re.search(r"name: %s\nID: (\d+)" % name, fmts).group(1))
        p, cpu = nth_record(d, cpus, fid, n)
        off, size = field_at(fmts, name, field)
        if value.startswith("="):
            o2, s2 = field_at(fmts, name, value[1:])
            v = int.from_bytes(d[p + o2:p + o2 + s2], "little")
        else:
            v = int(value, 0)
        d[p + off:p + off + size] = (v % (1 << 8 * size)).to_bytes(size, "little")
        print("%s #%d on CPU %d: %s = %d" % (name, n, cpu, field, v))
    elif what == "hide":
        name, n = sys.argv[4], int(sys.argv[5])
        fid = int(re.search(r"name: %s\nID: (\d+)" % name, fmts).group(1))
        seen = 0
        for cpu, (off, size) in enumerate(cpus):
            for p, _ in records(d, off, size):
                if struct.unpack_from("<H", d, p)[0] != fid:
                    continue
                if seen == n:
                    pfn = struct.unpack_from("<Q", d, p + 8)[0]
                    struct.pack_into("<H", d, p, 65000)
                    print("hid %s #%d (pfn 0x%x) on CPU %d"
                          % (name, n, pfn, cpu))
                    open(out, "wb").write(d)
                    return 0
                seen += 1
        sys.exit("doctor.py: only %d %s records" % (seen, name))
    open(out, "wb").write(d)
    return 0


if __name__ == "__main__":
    sys.exit(main())
