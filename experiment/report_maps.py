# SPDX-License-Identifier: GPL-2.0
"""The maps section of experiment/results.md and the side-by-side page
MAPS.html: each boot's raw files (its full output directory when kept,
else its tarball in DATADIR/runs/), the pageblock and census maps, what
keeps blocks from being whole, and the top polluters of the boot's trace
by `fragview blame`."""
import collections
import html
import json
import os
import shutil
import subprocess
import tarfile

from fvreport import write_atomic

# the moments of a boot whose dumps the maps show: the start of each phase
MOMENTS = (("under-load", "under load"), ("at-rest", "after the load"))


# where a boot's scenario files are in its output directory BOOTDIR/NAME/:
# there, or in the scenario's own subdirectory (qemu/run-guest.sh)
BOOT_SUBDIRS = ("", "exp-stress")


def boot_file(bootdir, name, member):
    """the path of a boot's kept file, or None"""
    for sub in BOOT_SUBDIRS if bootdir else ():
        path = os.path.join(bootdir, name, sub, member)
        if os.path.exists(path):
            return path
    return None


def kept_trace(data, bootdir, name):
    """the trace.dat of a median boot: DATADIR/traces/NAME.dat, copied
    there from BOOTDIR/NAME/ when that has it, so that the committed data
    alone redoes the report; None if neither has it"""
    keep = os.path.join(data, "traces", name + ".dat")
    src = boot_file(bootdir, name, "trace.dat")
    if src:
        os.makedirs(os.path.dirname(keep), exist_ok=True)
        shutil.copyfile(src, keep + ".new")
        os.replace(keep + ".new", keep)
    return keep if os.path.exists(keep) else None


def drop_other_traces(data, names):
    """DATADIR/traces/ keeps the median boots' traces only"""
    tdir = os.path.join(data, "traces")
    for f in os.listdir(tdir) if os.path.isdir(tdir) else ():
        if f.endswith(".dat") and f[:-4] not in names:
            os.remove(os.path.join(tdir, f))


def raw_file(data, bootdir, name, member):
    """the text of a boot's file: kept in BOOTDIR/NAME/ (boot_file), else
    the member NAME/member of DATADIR/runs/NAME.tar.xz; None if neither"""
    path = boot_file(bootdir, name, member)
    if path:
        try:
            with open(path, errors="replace") as f:
                return f.read()
        except OSError:
            pass
    path = os.path.join(data, "runs", name + ".tar.xz")
    try:
        with tarfile.open(path) as t:
            return t.extractfile(f"{name}/{member}").read().decode()
    except (OSError, KeyError, AttributeError, tarfile.TarError):
        return None


def char_map(text, block_char):
    """lines of 64 characters per node and zone of a debugfs dump
    (pageblocks or census): BLOCK_CHAR(line) gives a block line's
    character, or None for a line that is no block"""
    out, row = [], ""
    for line in (text or "").splitlines():
        f = line.split()
        if f[:1] == ["node"] and len(f) >= 4:
            if row:
                out.append("  " + row)
            out.append(f"node {f[1]} {f[3]}:")
            row = ""
            continue
        ch = block_char(line)
        if ch is None:
            continue
        row += ch
        if len(row) == 64:
            out.append("  " + row)
            row = ""
    if row:
        out.append("  " + row)
    return out


def text_map(dump):
    """one character per pageblock of a debugfs pageblocks dump: the type
    letter (U M R H C I) if fewer than half its pages are free, lower case
    if half or more are, '.' if all are (an order-9 page is there)"""
    def block_char(line):
        f = line.split()
        if len(f) < 3 or not f[0].startswith("0x"):
            return None
        free = int(f[2])
        ch = f[1][0] if f[1] != "HighAtomic" else "H"
        return "." if free >= 512 else ch.lower() if free >= 256 else ch
    return char_map(dump, block_char)


HOLDERS = ("whole free", "per-cpu pages only", "unmovable", "movable",
           "reclaimable slab", "other")
# the mobility class a block of each type is for (census pollution)
BLOCK_CLASS = {"Movable": "movable", "CMA": "movable",
               "Reclaimable": "reclaimable", "Unmovable": "unmovable",
               "HighAtomic": "unmovable"}


def census_rows(census_text):
    """(pfn, type, free, {class: pages}, pcp, reserved + offline) per
    block of a census dump; 13 columns, or 14 with series v3's hugetlb
    column (movable pages, as fragview counts them)"""
    for line in (census_text or "").splitlines():
        f = line.split()
        if len(f) not in (13, 14) or not f[0].startswith("0x"):
            continue
        (free, _ch, lru, mops, slab_r, slab_u, pgtable, kernel, pcp,
         reserved, offline, hugetlb) = (list(map(int, f[2:])) + [0])[:12]
        cls = {"movable": lru + mops + hugetlb, "reclaimable": slab_r,
               "unmovable": slab_u + pgtable + kernel}
        yield f[0], f[1], free, cls, pcp, reserved + offline


def holder(free, cls, pcp, other):
    """what keeps a block from being a whole free order-9 page: nothing,
    only pages on per-cpu lists, else the first class present of
    unmovable, movable (LRU, movable_ops, hugetlb), reclaimable slab"""
    if free == 512:
        return "whole free"
    if cls["unmovable"]:
        return "unmovable"
    if cls["movable"]:
        return "movable"
    if cls["reclaimable"]:
        return "reclaimable slab"
    if pcp and not other:
        return "per-cpu pages only"
    return "other"


def holders(census_text):
    """{holder: blocks} over a census dump (holder())"""
    c = dict.fromkeys(HOLDERS, 0)
    for _pfn, _t, free, cls, pcp, other in census_rows(census_text):
        c[holder(free, cls, pcp, other)] += 1
    return c


def polluted(btype, cls):
    """a block holding a page of another mobility class than its type's"""
    bc = BLOCK_CLASS.get(btype)
    return bool(bc) and any(n for c, n in cls.items() if c != bc)


def census_map(census_text):
    """one character per block of a census dump: '.' whole free, 'p' held
    only by per-cpu pages, '#' polluted (holds a page of another
    mobility class than its type's), else the type's letter in lower
    case; and the number of polluted blocks"""
    npol = 0

    def block_char(line):
        nonlocal npol
        got = list(census_rows(line))
        if not got:
            return None
        _pfn, btype, free, cls, pcp, other = got[0]
        h = holder(free, cls, pcp, other)
        if h == "whole free":
            return "."
        if h == "per-cpu pages only":
            return "p"
        if polluted(btype, cls):
            npol += 1
            return "#"
        return ("H" if btype == "HighAtomic" else btype[0]).lower()
    out = char_map(census_text, block_char)
    return out, npol


def blame(fragview, trace, top=5):
    """([rows], note): the top tasks behind the fallback steals and flips
    of a trace, by `fragview blame -f json`; rows are dicts of the JSON"""
    if not trace or not os.path.exists(trace):
        return [], "trace not kept"
    try:
        r = subprocess.run([fragview, "blame", "-i", trace, "-f", "json",
                            "-n", str(top)], capture_output=True, text=True,
                           timeout=600)
    except (OSError, subprocess.TimeoutExpired) as e:
        return [], f"fragview blame did not run ({e})"
    try:
        doc = json.loads(r.stdout)
    except ValueError:
        err = (r.stderr.strip().splitlines() or ["no output"])[-1]
        return [], f"fragview blame gave no result ({err})"
    note = (f"{doc.get('steals', 0)} steals, {doc.get('flips', 0)} flips in"
            f" the trace, {doc.get('groups_total', 0)} tasks")
    return doc.get("groups", []), note


def maps_section(w, data, bootdir, fragview, reps, fmt):
    """the Maps section for reps, [(arm, boot row, at-rest sum)]; returns
    the panels of MAPS.html"""
    w("## Maps of the median boots")
    w("")
    w("For each arm, the boot whose total obtained after the load (hugetlb"
      " + thp) is the arm's median (ties: the lowest run), at the start of"
      " each phase's attempts. Pageblock map: one character per block, the"
      " type letter (U M R H) if less than half the block is free, lower"
      " case if half or more is, `.` if the whole block is free. Census"
      " map: `.` whole free, `p` held only by pages on per-cpu lists, `#`"
      " polluted (holds a page of another mobility class than the block's"
      " type), else the type letter in lower case. With grouping off"
      " every block is Unmovable, so every block holding a movable page"
      " counts as polluted there. Holders: each block by what keeps it"
      " from being a whole free order-9 page (whole free, per-cpu pages"
      " only, else the first present of unmovable, movable, reclaimable"
      " slab).")
    w("")
    panels = []
    if bootdir:
        drop_other_traces(data, {r["name"] for _, r, _ in reps})
    for arm, r, total in reps:
        name = r["name"]
        w(f"### {arm}: `{name}` (run {r['run']}, obtained after the load"
          f" {fmt(total)})")
        w("")
        hrows = []
        for mo, label in MOMENTS:
            dump = raw_file(data, bootdir, name, mo + ".pageblocks")
            cen = raw_file(data, bootdir, name, mo + ".census")
            cmap, npol = census_map(cen)
            w(f"{label}, pageblocks" + (":" if dump else ": not kept"))
            if dump:
                w("")
                w("```")
                for line in text_map(dump):
                    w(line)
                w("```")
                panels.append((label, arm, name, dump))
            w("")
            w(f"{label}, census" + (f" ({npol} polluted blocks):" if cen
                                    else ": not kept"))
            if cen:
                w("")
                w("```")
                for line in cmap:
                    w(line)
                w("```")
                hrows.append((label, holders(cen)))
            w("")
        if hrows:
            w("| moment | " + " | ".join(HOLDERS) + " |")
            w("|---|" + "---:|" * len(HOLDERS))
            for label, h in hrows:
                w(f"| {label} | " + " | ".join(str(h[k]) for k in HOLDERS) + " |")
            w("")
        rows, note = blame(fragview, kept_trace(data, bootdir, name))
        w(f"Top polluters (`fragview blame`, by task, whole boot): {note}.")
        w("")
        if rows:
            w("| # | task | steals | polluted | claimed | flips | site of the top stack |")
            w("|---:|---|---:|---:|---:|---:|---|")
            for g in rows:
                site = (g.get("top_stack") or {}).get("site", "")
                w(f"| {g.get('rank')} | `{g.get('key')}` | {g.get('steals')} |"
                  f" {g.get('polluted')} | {g.get('claimed')} | {g.get('flips')} |"
                  f" {'`' + site + '`' if site else ''} |")
            w("")
    return panels


def write_maps(path, panels, fragview, ddir):
    """MAPS.html: `fragview dump --format html` of each panel, (row
    title, column title, boot, dump), one row per row title"""
    d = os.path.dirname(path)
    if d:
        os.makedirs(d, exist_ok=True)
    out = ["<!DOCTYPE html>", "<meta charset=utf-8>",
           "<title>fragview: the experiment's pageblock maps</title>",
           "<style>body{font-family:sans-serif;margin:1em}"
           ".row{display:flex;gap:1em}.col{flex:1}"
           "iframe{width:100%;height:60vh;border:1px solid #888}</style>",
           "<h1>Pageblock maps of each arm's median boot</h1>",
           f"<p>Generated by experiment/report.py from {html.escape(ddir)}/:"
           " <code>fragview dump --format html</code> of the debugfs dumps"
           " at the start of the attempts, the median boot of each arm side"
           " by side.</p>"]
    rows = collections.OrderedDict()
    for title, col, name, dump in panels:
        rows.setdefault(title, []).append((col, name, dump))
    for title, ps in rows.items():
        out.append(f"<h2>{html.escape(title)}</h2><div class=row>")
        for col, name, dump in ps:
            try:
                r = subprocess.run([fragview, "dump", "-", "--format", "html"],
                                   input=dump, capture_output=True, text=True)
                doc = (r.stdout if r.returncode == 0
                       else f"<p>{html.escape(r.stderr)}</p>")
            except OSError as e:
                doc = f"<p>{html.escape(str(e))}</p>"
            out.append(f"<div class=col><h3>{html.escape(col)}:"
                       f" {html.escape(name)}</h3>"
                       f"<iframe srcdoc=\"{html.escape(doc, quote=True)}\">"
                       "</iframe></div>")
        out.append("</div>")
    write_atomic(path, "\n".join(out) + "\n")
