#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Is every cell of a rendered map at its physical address?

usage: cellpfn.py txt|svg|html MAP FACTS.json [SNAPSHOT]
       cellpfn.py exp MAP.txt PAGE.html
       cellpfn.py expglyphs MAP.txt PAGE.html


Reads the cells back from the output - txt: row label + column (groups
of 8 separated by a space), svg: each cell's data-pfn, its column from
x and its row's label, html: the "pfn" deltas of the page's data - and
compares pfn -> type with the generator's facts (mkcapture.py --facts):
"final", or the map at the end of snapshot SNAPSHOT (0-based).
Prints one "ok"/"not ok" line.

"exp" prints the type digits of every block of the HTML page, in the
page's order, as the txt map shows them (by pfn; a block the txt map
does not show is offline: "none"), for tests/html/run.sh.
"expglyphs" prints the characters of a txt map of another colour view
(map --view) the same way, "_" for a block the map does not show.
"""
import json
import re
import sys

PPB = 512
LETTER = {"U": "Unmovable", "M": "Movable", "R": "Reclaimable",
          "H": "HighAtomic", "C": "CMA", "I": "Isolate", "?": "unknown"}


def txt_glyphs(text, zoned=True):
    """(node, zone, pfn) -> character of a txt map of any view, or pfn ->
    character: a block that changed zones has a cell in each zone's map
    (only one drawn at a time)."""
    cells, zone = {}, None
    for line in text.splitlines():
        z = re.match(r"node (\d+) zone (\w+)  ", line)
        if z:
            zone = (int(z.group(1)), z.group(2))
            continue
        m = re.match(r"  0x([0-9a-f]+) (.*)$", line)
        if not m:
            continue
        label, row = int(m.group(1), 16), m.group(2)
        for j, ch in enumerate(row):
            if j % 9 == 8:
                if ch != " ":
                    raise ValueError("no group gap at %d: %r" % (j, line))
                continue
            if ch != " ":
                pfn = label + (j // 9 * 8 + j % 9) * PPB
                key = zone + (pfn,) if zoned else pfn
                if key in cells:
                    raise ValueError("pfn 0x%x drawn twice" % pfn)
                cells[key] = ch
    return cells


def txt_cells(text, zoned=False):
    """pfn -> type, or (node, zone, pfn) -> type (txt_glyphs)."""
    return {k: LETTER[ch.upper()] for k, ch in txt_glyphs(text, zoned).items()}


def svg_cells(text):
    cells, row_pfn, row_y = {}, None, None
    pitch, x0 = 11, 16 + 64
    for m in re.finditer(r'<text class="row" x="\d+" y="(\d+)"[^>]*>0x([0-9a-f]+)<'
                         r'|data-pfn="0x([0-9a-f]+)"[^>]*?>?(?:<title>pfn '
                         r'0x([0-9a-f]+)-0x[0-9a-f]+ (\w+)[^<]*</title>)?'
                         r'(?:<rect )?x="(\d+)" y="(\d+)"', text):
        if m.group(1):
            row_y, row_pfn = int(m.group(1)) - 9, int(m.group(2), 16)
            continue
        pfn = int(m.group(3), 16)
        x, y = int(m.group(6)), int(m.group(7))
        want = row_pfn + (x - x0) // pitch * PPB
        if y != row_y or pfn != want:
            raise ValueError("cell 0x%x at x %d y %d: row 0x%x y %d says 0x%x"
                             % (pfn, x, y, row_pfn, row_y, want))
        cells[pfn] = None
    # types from the titles (a marked block: <g data-pfn><title>...)
    for m in re.finditer(r'data-pfn="0x([0-9a-f]+)"[^<]*<title>pfn 0x([0-9a-f]+)'
                         r'-0x[0-9a-f]+ (\w+)', text):
        if m.group(1) != m.group(2):
            raise ValueError("data-pfn 0x%s, title 0x%s" % m.group(1, 2))
        cells[int(m.group(1), 16)] = m.group(3)
    return cells


def html_data(text):
    return json.loads(re.search(r'<script type="application/json" '
                                r'id="fv-data">\n(.*?)</script>', text,
                                re.S).group(1))


def exp_digits(txt_path, html_path):
    """The txt map's types in the page's block order, as digits."""
    cells = txt_cells(open(txt_path).read(), zoned=True)
    d = html_data(open(html_path).read())
    names, out, pfn = d["names"]["mt"], [], 0
    zone_of = {}
    for nid, zone, first, nr in d["zones"]:
        for i in range(first, first + nr):
            zone_of[i] = (nid, d["names"]["zone"][zone])
    for i, delta in enumerate(d["pfn"]):
        pfn += delta
        t = cells.get(zone_of[i] + (pfn,), "none")
        out.append(str(names.index(t)))
    return "".join(out)


def exp_glyphs(txt_path, html_path):
    """The txt map's characters in the page's block order."""
    cells = txt_glyphs(open(txt_path).read())
    d = html_data(open(html_path).read())
    out, pfn, zone_of = [], 0, {}
    for nid, zone, first, nr in d["zones"]:
        for i in range(first, first + nr):
            zone_of[i] = (nid, d["names"]["zone"][zone])
    for i, delta in enumerate(d["pfn"]):
        pfn += delta
        out.append(cells.get(zone_of[i] + (pfn,), "_"))
    return "".join(out)


def html_cells(text):
    d = html_data(text)
    names, cells, pfn = d["names"]["mt"], {}, 0
    for i, delta in enumerate(d["pfn"]):
        pfn += delta
        t = names[int(d["final"][i])]
        if t != "none":
            cells[pfn] = t
    return cells


def main():
    if sys.argv[1] == "exp":
        print(exp_digits(sys.argv[2], sys.argv[3]))
        return 0
    if sys.argv[1] == "expglyphs":
        print(exp_glyphs(sys.argv[2], sys.argv[3]))
        return 0
    kind, path, facts_path = sys.argv[1:4]
    facts = json.load(open(facts_path))
    want = facts["final"] if len(sys.argv) < 5 else \
        facts["snapshots_at"][int(sys.argv[4])]["map"]
    want = {int(p, 16): t for p, t in want.items()}
    text = open(path).read()
    try:
        got = {"txt": txt_cells, "svg": svg_cells, "html": html_cells}[kind](text)
    except (ValueError, AttributeError) as e:
        print("not ok - %s cells at their pfn: %s" % (kind, e))
        return 1
    bad = [p for p in set(got) | set(want) if got.get(p, "?") != want.get(p)]
    if bad:
        p = min(bad)
        print("not ok - %s cells at their pfn: %d wrong, first 0x%x: drawn %s, "
              "want %s" % (kind, len(bad), p, got.get(p), want.get(p)))
        return 1
    print("ok - %s: all %d cells at their pfn with their type" % (kind, len(got)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
