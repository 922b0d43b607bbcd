#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Do the colour views of an HTML map hold only changes?

usage: viewchanges.py check PAGE.html [--max-bytes N]
       viewchanges.py same OLD.html NEW.html
       viewchanges.py asof MAP.txt
       viewchanges.py doctor repeat|sources PAGE.html OUT.html
       viewchanges.py negative PAGE.html

"check": no change of a view (render_map_html_views.c) leaves its
block's cell as it was: the same bucket, value and, for pollution,
counts as the block's previous change; every change falls on one of
the view's records in "sources", in time order; with --max-bytes the
page is smaller than N bytes.

"same": what views.js shows of every block of every view at every time
a record or change falls on is the same on both pages (bucket, value,
counts, the record the cell comes from and its time): OLD may be a page
of the format before "sources", whose views had a change per record
with its record in "s".

"asof": where `fragview map --format txt --view VIEW` says the cells
come from, as html/selftest.js reads the page's legend ("vsrc="):
"snapshot 3 at 5.001234 s|17" (the "as of" record, seconds to 6
places, and the blocks from an older one), "none|0" without one.

"doctor": the page with a change of the first view that has one made
twice (repeat: the page shows the same, "check" must fail), or every
run of "sources" one record later (sources: the legend must differ).

"negative": "check" must fail on PAGE with a change made twice, and
only for that.

"check", "same" and "negative" print "ok"/"not ok" lines; the status says it too.
"""
import json
import os
import re
import sys


def page_data(path):
    text = open(path).read()
    m = re.search(r'<script[^>]*id="fv-data"[^>]*>(.*?)</script>', text,
                  re.S)
    return json.loads(m.group(1))


def cumulative(dt):
    out, t = [], 0
    for d in dt:
        t += d
        out.append(t)
    return out


def records(views):
    """[(t, block, src)] of views.sources, in order."""
    s = views.get("sources")
    if not s:
        return []
    out, j, T = [], 0, cumulative(s["t"])
    for src, runs in zip(s["s"], s["b"]):
        for g in range(0, len(runs), 2):
            for x in range(runs[g + 1]):
                out.append((T[j], runs[g] + x, src))
                j += 1
    assert j == len(T), "sources: %d times, %d records" % (len(T), j)
    return out


def changes(v):
    """[(t, block, shown)] of a view, shown: what its cell shows."""
    n = v.get("n") or [None] * len(v["t"])
    return [(t, b, (k, val, tuple(c) if c else None))
            for t, b, k, val, c in zip(cumulative(v["t"]), v["b"], v["k"],
                                       v["v"], n)]


def check(path, max_bytes):
    views = page_data(path)["views"]
    recs = records(views)
    bad = 0
    for v in views["list"]:
        was, mine = {}, [r for r in recs
                         if v.get("from", 0) & (2 if r[2] % 2 else 1)]
        at = {(t, b) for t, b, _ in mine}
        for j, (t, b, shown) in enumerate(changes(v)):
            if was.get(b) == shown:
                print("not ok - %s: %s change %d (block %d at %d) repeats "
                      "the block's previous one %s" %
                      (path, v["name"], j, b, t, shown))
                bad += 1
                break
            was[b] = shown
            if v.get("from") and (t, b) not in at:
                print("not ok - %s: %s change %d (block %d at %d) is no "
                      "record of sources" % (path, v["name"], j, b, t))
                bad += 1
                break
        else:
            print("ok - %s: %s: %d changes, none repeats its block's cell" %
                  (path, v["name"], len(v["t"])))
    if max_bytes:
        size = os.path.getsize(path)
        if size < max_bytes:
            print("ok - %s: %d bytes (< %d)" % (path, size, max_bytes))
        else:
            print("not ok - %s: %d bytes (>= %d)" % (path, size, max_bytes))
            bad += 1
    return bad


def shown_by_time(v, recs):
    """{(t, block): (shown, record src, record time)} after everything at
    or before each time a change or record of v falls on, per block
    touched then: old pages' changes carry their record in "s"."""
    old = "s" in v and v.get("from") is None and v["name"] != "steals"
    cells = {}
    ev = [(t, 0, b, s) for t, b, s in changes(v)]
    if old:
        ev = [(t, 0, b, (s, (src, t))) for (t, b, s), src in
              zip(changes(v), v["s"])]
    else:
        ev = [(t, 0, b, (s, None)) for t, b, s in changes(v)]
        ev += [(t, 1, b, (None, (src, t))) for t, b, src in recs
               if v.get("from", 0) & (2 if src % 2 else 1)]
    ev.sort(key=lambda e: e[0])
    out, state = {}, {}
    for t, _, b, (shown, rec) in ev:
        cur = state.get(b, [None, None])
        if shown is not None:
            cur[0] = shown
        if rec is not None:
            cur[1] = rec
        state[b] = cur
        out[(t, b)] = tuple(cur)
    return out


def same(old_path, new_path):
    old, new = page_data(old_path)["views"], page_data(new_path)["views"]
    recs = records(new)
    bad = 0
    for vo, vn in zip(old["list"], new["list"]):
        if vo["name"] == "steals":
            a = (vo["t"], vo["b"], vo["k"], vo["v"], vo["s"])
            b = (vn["t"], vn["b"], vn["k"], vn["v"], vn["s"])
            ok = a == b
        else:
            a, b = shown_by_time(vo, []), shown_by_time(vn, recs)
            # every (time, block) of either: the old page has one per
            # record, the new one per record too (from sources)
            ok = a == b
        print("%s - %s: %s view shows the same as %s" %
              ("ok" if ok else "not ok", new_path, vo["name"], old_path))
        bad += not ok
    return bad


def asof(path):
    text = open(path).read()
    m = re.search(r"as of (\w+ \d+) at (\d+\.\d+) s", text)
    older = re.search(r"\((\d+) from an older one", text)
    where = "%s at %.6f s" % (m.group(1), float(m.group(2))) if m else "none"
    return "%s|%s" % (where, older.group(1) if older else "0")


def negative(path):
    """check of a page with a repeated change: exactly one complaint"""
    out = path + ".repeat.html"
    doctor("repeat", path, out)
    with open(os.devnull, "w") as null:
        saved, sys.stdout = sys.stdout, null
        try:
            bad = check(out, 0)
        finally:
            sys.stdout = saved
    os.unlink(out)
    if bad == 1:
        print("ok - %s with a change made twice fails the check" % path)
        return 0
    print("not ok - %s with a change made twice: %d complaints, not 1" %
          (path, bad))
    return 1


def doctor(how, path, out):
    text = open(path).read()
    m = re.search(r'(<script[^>]*id="fv-data"[^>]*>)(.*?)(</script>)',
                  text, re.S)
    D = json.loads(m.group(2))
    views = D["views"]
    if how == "repeat":
        v = next(v for v in views["list"] if v["t"])
        for col in "tbkvsn":
            if col in v:
                v[col].insert(1, 0 if col == "t" else v[col][0])
    else:
        views["sources"]["s"] = [s + 2 for s in views["sources"]["s"]]
    data = json.dumps(D, separators=(",", ":")).replace("</", "<\\/")
    open(out, "w").write(text[:m.start(2)] + data + text[m.end(2):])


def main():
    args = sys.argv[1:]
    if len(args) == 2 and args[0] == "asof":
        print(asof(args[1]))
        return 0
    if len(args) == 2 and args[0] == "negative":
        return negative(args[1])
    if len(args) == 4 and args[0] == "doctor":
        doctor(args[1], args[2], args[3])
        return 0
    if len(args) >= 2 and args[0] == "check":
        mb = int(args[args.index("--max-bytes") + 1]) \
            if "--max-bytes" in args else 0
        return 1 if check(args[1], mb) else 0
    if len(args) == 3 and args[0] == "same":
        return 1 if same(args[1], args[2]) else 0
    sys.stderr.write(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main())
