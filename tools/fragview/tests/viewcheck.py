#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Are fragview's census views and figures what the generator wrote?

usage: viewcheck.py pollution|free MAP.txt FACTS.json CENSUS
       viewcheck.py stats STATS.json FACTS.json
       viewcheck.py facts REPORT.txt > FACTS.json

MAP.txt is `fragview map --format txt --view pollution|free` of a
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

"facts" works the same figures out of `trace-cmd report` of a real
capture (its mobility:pageblock_census lines, as the kernel's print
format shows them): the facts of a guest capture, read apart from
fragview.

Prints one "ok"/"not ok" line; the status says it too.
"""
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cellpfn  # noqa: E402

PPB = cellpfn.PPB


def txt_glyphs(text):
    """pfn -> glyph of a txt map (cellpfn.py reads the rows)."""
    return cellpfn.txt_glyphs(text, zoned=False)


# tracepoints/pageblock_census.md: the mobility of each count and type
MOBILITY = {"lru": "movable", "movable_ops": "movable", "hugetlb": "movable",
            "slab_reclaimable": "reclaimable", "slab_unmovable": "unmovable",
            "pgtable": "unmovable", "kernel": "unmovable"}
MT_MOBILITY = {"Movable": "movable", "CMA": "movable",
               "Reclaimable": "reclaimable", "Unmovable": "unmovable",
               "HighAtomic": "unmovable"}
PAGES = ["free", "lru", "movable_ops", "slab_reclaimable", "slab_unmovable",
         "pgtable", "kernel", "free_pcp", "reserved", "offline", "hugetlb"]
CENSUS_LINE = re.compile(r"\s(\d+\.\d+): pageblock_census:\s+(.*)$")


def facts_from_report(text):
    """{"census": [...]} as mkcapture.py --facts writes it, per census
    (seq) in the order they come, zones keyed "node/zone"."""
    census = {}
    for line in text.splitlines():
        m = CENSUS_LINE.search(line)
        if not m:
            continue
        f = dict(kv.split("=", 1) for kv in m.group(2).split())
        seq, pfn, mt = int(f["seq"]), "0x%x" % int(f["pfn"], 16), f["mt"]
        c = census.setdefault(seq, {"seq": seq, "at": m.group(1),
                                    "foreign": {}, "free": {}, "mt": {},
                                    "zones": {}})
        pages = {}
        for kind, mob in MOBILITY.items():
            pages[mob] = pages.get(mob, 0) + int(f.get(kind, 0))
        own = MT_MOBILITY.get(mt)
        foreign = sum(v for mob, v in pages.items() if own and mob != own)
        c["foreign"][pfn], c["free"][pfn], c["mt"][pfn] = \
            foreign, int(f["free"]), mt
        z = c["zones"].setdefault("%s/%s" % (f["nid"], f["zone"]), {
            "blocks": 0, "pages": 0, "unmovable_pages": 0,
            "unmovable_blocks": 0, "polluted": {}, "foreign": {}})
        z["blocks"] += 1
        z["pages"] += sum(int(f.get(k, 0)) for k in PAGES)  # v2: no hugetlb
        z["unmovable_pages"] += pages["unmovable"]
        z["unmovable_blocks"] += pages["unmovable"] > 0
        if foreign:
            z["polluted"][mt] = z["polluted"].get(mt, 0) + 1
            z["foreign"][mt] = z["foreign"].get(mt, 0) + foreign
    return {"census": [census[k] for k in sorted(census)]}


def zone_key(name):
    return name if "/" in name else "0/" + name


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
    zones = {"%d/%s" % (z["node"], z["zone"]): z for z in d["zones"]}
    wants = {zone_key(k): v for k, v in census["zones"].items()}
    if set(zones) != set(wants):
        return "not ok - stats census: zones %s, want %s" % (
            sorted(zones), sorted(wants))
    for name, want in wants.items():
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
    if sys.argv[1] == "facts":
        json.dump(facts_from_report(open(sys.argv[2]).read()), sys.stdout,
                  indent=1, sort_keys=True)
        return 0
    if sys.argv[1] == "stats":
        line = check_stats(sys.argv[2], json.load(open(sys.argv[3])))
    else:
        line = check_map(sys.argv[1], sys.argv[2], json.load(open(sys.argv[3])),
                         int(sys.argv[4]))
    print(line)
    return 0 if line.startswith("ok") else 1


if __name__ == "__main__":
    sys.exit(main())
