# SPDX-License-Identifier: GPL-2.0
"""The records of a trace.dat, to change one event's fields in place.

Open converts the capture to an uncompressed trace.dat v6 (trace-cmd
convert), so that every CPU's ring-buffer pages lie in the file as the
kernel wrote them (the layout tools/fragview/tests/doctor.py doctors), and
reads the event formats (`trace-cmd report --events`): each field's offset,
size and sign, and the values of its __print_symbolic() table.
"""
import re
import struct
import subprocess

PAGE = 4096
HDR = 16                    # page header: timestamp, commit
COMMIT_MASK = (1 << 27) - 1
NO_EVENT = 65000            # an event id no format has: the record is gone


class Field:
    __slots__ = ('name', 'offset', 'size', 'signed', 'names')

    def __init__(self, name, offset, size, signed):
        self.name, self.offset, self.size, self.signed = name, offset, size, signed
        self.names = {}     # value -> symbolic name (its print format's table)

    def get(self, payload, at):
        return int.from_bytes(payload[at + self.offset:at + self.offset + self.size],
                              'little', signed=self.signed)

    def put(self, buf, at, value):
        bits = 8 * self.size
        buf[at + self.offset:at + self.offset + self.size] = \
            (value % (1 << bits)).to_bytes(self.size, 'little')


def formats(path, system='mobility'):
    """{event name: (id, [Field])} of SYSTEM's events in the capture."""
    txt = subprocess.run(['trace-cmd', 'report', '-i', path, '--events'],
                         capture_output=True, text=True, check=True).stdout
    out = {}
    section = re.search(r'^system: %s\n(.*?)(?=^system: |\Z)' % system, txt, re.M | re.S)
    for block in (section.group(1) if section else '').split('name: ')[1:]:
        name = block.split('\n', 1)[0].strip()
        m = re.search(r'^ID: (\d+)', block, re.M)
        if not m:
            continue
        fields = []
        for fm in re.finditer(r'field:[^;]*?(\w+)(?:\[\d*\])?;\s*offset:(\d+);\s*size:(\d+);'
                              r'\s*signed:(\d+);', block):
            if not fm.group(1).startswith('common_'):
                fields.append(Field(fm.group(1), int(fm.group(2)), int(fm.group(3)),
                                    fm.group(4) == '1'))
        fmt = block[block.find('print fmt:'):]
        for f in fields:
            sm = re.search(r'__print_symbolic\(\(?[^,]*?REC->%s\b[^,]*,(.*?)\)\s*(?:,|$)'
                           % f.name, fmt, re.S)
            if sm:
                # migrate_folio.result: looked up by its negation (README.md)
                sign = -1 if '-(REC->%s)' % f.name in fmt else 1
                f.names = {sign * int(v, 0): n for v, n in
                           re.findall(r'\{\s*(-?\w+)\s*,\s*"([^"]*)"\s*\}', sm.group(1))}
        out[name] = (int(m.group(1)), fields)
    return out


def cpu_sections(d):
    """(offset, size) of each CPU's pages: the v6 flyrecord section."""
    i = d.find(b'flyrecord\0')
    if i < 0:
        raise ValueError('no flyrecord section')
    k = d.rfind(b'options  \0', 0, i)
    ncpu = struct.unpack_from('<I', d, k - 4)[0] if k > 0 else 2
    return [struct.unpack_from('<QQ', d, i + 10 + 16 * c) for c in range(ncpu)]


class Record:
    __slots__ = ('cpu', 'page', 'head', 'at', 'size', 'id')

    def __init__(self, cpu, page, head, at, size, rid):
        self.cpu, self.page, self.head, self.at, self.size, self.id = \
            cpu, page, head, at, size, rid


def records(d):
    """Every data record, CPU by CPU in file order: where its header and
    payload are (at: payload offset), its size and event id."""
    out = []
    for cpu, (off, size) in enumerate(cpu_sections(d)):
        for page in range(off, off + size, PAGE):
            commit = struct.unpack_from('<Q', d, page + 8)[0] & COMMIT_MASK
            p, end = page + HDR, page + HDR + commit
            while p < end:
                hdr = struct.unpack_from('<I', d, p)[0]
                tl = hdr & 31
                if tl == 29:                   # padding
                    if hdr >> 5 == 0:
                        break
                    p += 4 + struct.unpack_from('<I', d, p + 4)[0]
                elif tl in (30, 31):           # time extend / stamp
                    p += 8
                elif tl == 0:                  # length in the next word
                    n = struct.unpack_from('<I', d, p + 4)[0]
                    out.append(Record(cpu, page, p, p + 8, n - 4,
                                      struct.unpack_from('<H', d, p + 8)[0]))
                    p += 4 + n
                else:
                    out.append(Record(cpu, page, p, p + 4, tl * 4,
                                      struct.unpack_from('<H', d, p + 4)[0]))
                    p += 4 + tl * 4
    return out


def page_slack(d, r):
    """Free bytes at the end of the page holding record r."""
    commit = struct.unpack_from('<Q', d, r.page + 8)[0] & COMMIT_MASK
    return PAGE - HDR - commit


def duplicate(d, r):
    """A copy of record r right after it, at the same time (delta 0): the
    page's later records shift, its commit grows.  Needs page_slack."""
    n = r.at + r.size - r.head
    copy = bytearray(d[r.head:r.head + n])
    hdr = struct.unpack_from('<I', copy, 0)[0]
    struct.pack_into('<I', copy, 0, hdr & 31)          # time delta 0
    word = struct.unpack_from('<Q', d, r.page + 8)[0]
    commit = word & COMMIT_MASK
    end = r.page + HDR + commit
    tail = bytes(d[r.at + r.size:end])
    d[r.at + r.size:end + n] = bytes(copy) + tail
    struct.pack_into('<Q', d, r.page + 8, (word & ~COMMIT_MASK) | (commit + n))


def drop(b, r):
    """Record r of buffer b becomes one of no event: lost."""
    b[r.at:r.at + 2] = NO_EVENT.to_bytes(2, 'little')


def swap_payloads(b, p, q):
    """Records p and q of buffer b exchange their events (not their times)."""
    x, y = bytes(b[p.at:p.at + p.size]), bytes(b[q.at:q.at + q.size])
    b[p.at:p.at + p.size], b[q.at:q.at + q.size] = y, x


def convert(src, dst):
    subprocess.run(['trace-cmd', 'convert', '-i', src, '-o', dst, '--file-version', '6'],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
