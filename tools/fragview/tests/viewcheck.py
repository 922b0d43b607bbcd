#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Are fragview's census views and figures what the generator wrote?

usage: viewcheck.py pollution|free MAP.txt FACTS.json CENSUS
       viewcheck.py stats STATS.json FACTS.json

MAP.txt is `fragview map --format txt --color pollution|free` of a
`mkcapture.py census` capture at a time whose latest census is number
CENSUS (0-based) of FACTS.json (--facts), and for free later than any
snapshot.  Every cell, read back by pfn, must be the bucket of the
generator's value as fragview-map(1) defines them: pollution: '-' for an
Isolate block, '.' no foreign page, else the number of decimal digits of
the foreign pages (at most 4); free: '.' none, '8' all 512, else eighths.

"stats" compares the census part of `fragview stats --format json` with
the generator's figures of the last census: blocks, pages, unmovable
pages and blocks (the fleet figure, in permille), polluted blocks and
foreign pages per block type.

Prints one "ok"/"not ok" line; the status says it too.
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cellpfn  # noqa: E402

PPB = cellpfn.PPB


def txt_glyphs(text):
    """pfn -> glyph of a txt map (cellpfn.py reads the rows)."""
    return cellpfn.txt_glyphs(text, zoned=False)


def pollution_glyph(mt, foreign):
    if mt == "Isolate":
        return "-"
    return "." if not foreign else str(min(4, len(str(foreign))))


def free_glyph(free):
    if not free:
        return "."
    return "8" if free >= PPB else str(free * 8 // PPB)


def check_map(view, map_path, facts, k):
    census = facts["census"][k]
    got = txt_glyphs(open(map_path).read())
    want = {}
    for p, foreign in census["foreign"].items():
        pfn = int(p, 16)
        want[pfn] = pollution_glyph(census["mt"][p], foreign) \
            if view == "pollution" else free_glyph(census["free"][p])
    bad = sorted(p for p in set(got) | set(want) if got.get(p) != want.get(p))
    if bad:
        p = bad[0]
        return "not ok - %s view: %d of %d cells wrong, first 0x%x: drawn %s, " \
            "want %s (census %d)" % (view, len(bad), len(want), p, got.get(p),
                                     want.get(p), census["seq"])
    return "ok - %s view: all %d cells are census %d's buckets" % (
        view, len(want), census["seq"])


def check_stats(stats_path, facts):
    d = json.load(open(stats_path))["census"]
    census = facts["census"][-1]
    if not d or d["seq"] != census["seq"]:
        return "not ok - stats census: seq %s, want %d" % (
            d and d["seq"], census["seq"])
    zones = {z["zone"]: z for z in d["zones"]}
    if set(zones) != set(census["zones"]):
        return "not ok - stats census: zones %s, want %s" % (
            sorted(zones), sorted(census["zones"]))
    for name, want in census["zones"].items():
        z = zones[name]
        pairs = [("blocks", z["blocks"], want["blocks"]),
                 ("pages", z["pages"], want["pages"]),
                 ("unmovable pages", z["pages_by_mobility"]["unmovable"],
                  want["unmovable_pages"]),
                 ("unmovable blocks", z["unmovable_blocks"],
                  want["unmovable_blocks"]),
                 ("unmovable_pages_permille", z["unmovable_pages_permille"],
                  want["unmovable_pages"] * 1000 // want["pages"]),
                 ("unmovable_blocks_permille", z["unmovable_blocks_permille"],
                  want["unmovable_blocks"] * 1000 // want["blocks"])]
        for mt, t in z["block_types"].items():
            pairs.append(("%s polluted" % mt, t["polluted"],
                          want["polluted"].get(mt, 0)))
            pairs.append(("%s foreign" % mt, sum(t["foreign"].values()),
                          want["foreign"].get(mt, 0)))
        for what, got, exp in pairs:
            if got != exp:
                return "not ok - stats census: %s %s is %s, want %s" % (
                    name, what, got, exp)
    return "ok - stats census: every zone's figures of census %d" % \
        census["seq"]


def main():
    if sys.argv[1] == "stats":
        line = check_stats(sys.argv[2], json.load(open(sys.argv[3])))
    else:
        line = check_map(sys.argv[1], sys.argv[2], json.load(open(sys.argv[3])),
                         int(sys.argv[4]))
    print(line)
    return 0 if line.startswith("ok") else 1


if __name__ == "__main__":
    sys.exit(main())
