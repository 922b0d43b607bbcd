# SPDX-License-Identifier: GPL-2.0
"""What experiment/report.py reads from DATADIR and how it writes figures:
the TSV tables (boots.tsv, phases.tsv, attempts.tsv, provenance.tsv),
the usable boots of each arm, and the formats of a figure, a spread, a
p value and a Markdown table."""
import collections
import math
import os

import stats

ARMS = ("6.1-on-pinned", "6.1-off-pinned", "6.12-on-pinned",
        "6.12-off-pinned", "6.12-on-auto")
PHASES = (("under_load", "under load"), ("at_rest", "after the load"))
STYLES = ("hugetlb", "thp")


# ---- reading ---------------------------------------------------------------

def read_tsv(path):
    """rows of a TSV file with a header line, as dicts in which a column
    the row or the header lacks reads as "" (not measured); [] if the
    file is missing"""
    if not os.path.exists(path):
        return []
    with open(path) as f:
        lines = [l.rstrip("\n").split("\t") for l in f if l.strip()]
    return ([collections.defaultdict(str, zip(lines[0], l)) for l in lines[1:]]
            if lines else [])


def read_prov(path):
    """provenance.tsv as (key, value) pairs, in order"""
    if not os.path.exists(path):
        return []
    with open(path) as f:
        return [tuple(l.rstrip("\n").split("\t", 1)) for l in f
                if "\t" in l]


def num(x):
    """a measured number, or None ("", "?", "nan": not measured)"""
    try:
        v = float(x)
    except (TypeError, ValueError):
        return None
    return None if math.isnan(v) or math.isinf(v) else v


# ---- formatting ------------------------------------------------------------

def g(x):
    """a figure: whole numbers without decimals, others with one, or two
    significant digits below 0.1"""
    if x is None:
        return "not measured"
    if x == int(x):
        return f"{x:.0f}"
    return f"{x:.1f}" if abs(x) >= 0.1 else f"{x:.2g}"


def pct(x):
    return "not measured" if x is None else f"{100 * x:.0f} %"


def fp(p):
    if p is None:
        return "not tested"
    return (f"{p:.1e}" if p < 0.001 else f"{p:.4f}" if p < 0.01 else
            f"{p:.3f}")


def spread(xs):
    """median [Q1–Q3] min–max, inclusive quartiles"""
    if not xs:
        return "not measured"
    return (f"**{g(stats.median(xs))}** [{g(stats.quantile(xs, .25))}–"
            f"{g(stats.quantile(xs, .75))}] {g(min(xs))}–{g(max(xs))}")


def mid(xs, f=g):
    """median [min–max]"""
    if not xs:
        return "not measured"
    return f"{f(stats.median(xs))} [{f(min(xs))}–{f(max(xs))}]"


def table(w, head, rows, align=None):
    w("| " + " | ".join(head) + " |")
    w("|" + "".join("---|" if a == "l" else "---:|"
                    for a in (align or "l" + "r" * (len(head) - 1))))
    for r in rows:
        w("| " + " | ".join(str(c) for c in r) + " |")
    w("")


# ---- the data --------------------------------------------------------------

class Data:
    def __init__(self, d):
        self.prov = read_prov(os.path.join(d, "provenance.tsv"))
        self.p = dict(self.prov)
        self.boots = read_tsv(os.path.join(d, "boots.tsv"))
        self.good, self.bad = [], []
        for b in self.boots:
            why = None
            if b.get("status") != "ok":
                why = f"status {b.get('status') or 'not recorded'}"
            elif b.get("kernel_grouping") and b.get("grouping") and \
                    b["kernel_grouping"] != b["grouping"]:
                why = (f"asked for grouping {b['grouping']}, kernel reported"
                       f" {b['kernel_grouping']}")
            (self.bad if why else self.good).append((b, why) if why else b)
        names = {b["name"] for b in self.good}
        extra = sorted({b["arm"] for b in self.boots} - set(ARMS))
        self.arms = [a for a in ARMS + tuple(extra)
                     if any(b["arm"] == a for b in self.boots)]
        self.by_arm = collections.defaultdict(list)
        for b in sorted(self.good, key=lambda b: (num(b["run"]) or 0, b["name"])):
            self.by_arm[b["arm"]].append(b)
        self.ph, self.ph_all = {}, {}
        for r in read_tsv(os.path.join(d, "phases.tsv")):
            self.ph_all[(r["name"], r["phase"], r["style"])] = r
            if r["name"] in names:
                self.ph[(r["name"], r["phase"], r["style"])] = r
        self.att = [a for a in read_tsv(os.path.join(d, "attempts.tsv"))
                    if a["name"] in names]

    def n(self, arm):
        return len(self.by_arm[arm])

    def boot_val(self, b, phase, style, col):
        """one boot's figure; style "both": the sum over the styles; a
        per-phase column (style None): the first style row that has it"""
        if style == "both":
            xs = [self.boot_val(b, phase, s, col) for s in STYLES]
            return None if None in xs else sum(xs)
        if style is None:
            for s in STYLES:
                v = self.boot_val(b, phase, s, col)
                if v is not None:
                    return v
            return None
        r = self.ph.get((b["name"], phase, style))
        return num(r.get(col)) if r else None

    def vals(self, arm, phase, style, col):
        return [v for v in (self.boot_val(b, phase, style, col)
                            for b in self.by_arm[arm]) if v is not None]

    def ratios(self, arm, phase, style, top, bottom):
        """per boot top / bottom, bottom a function of the boot"""
        out = []
        for b in self.by_arm[arm]:
            t, d = self.boot_val(b, phase, style, top), bottom(b)
            if t is not None and d:
                out.append(t / d)
        return out

    def made(self, b, phase, style):
        a = self.boot_val(b, phase, style, "attempts")
        r = self.boot_val(b, phase, style, "refused")
        return None if a is None else a - (r or 0)
