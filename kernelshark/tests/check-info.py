#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Compare the info text KernelShark shows with the one expected, field by
field.

Usage: check-info.py EXPECTED DECODED NAME EVENT...

EXPECTED is a synthetic capture's expected-info.txt (mkfixture.py:
"EVENT<TAB>CPU<TAB>TS<TAB>TEXT", in KernelShark's order), DECODED the
output of ks-decode ("info EVENT: TEXT" lines, in KernelShark's order).
For each EVENT prints TAP lines: as many entries shown as written, then
one line per field ("stage=", "nr_retry=", ...) saying in how many entries
it shows the expected value, and one for the whole text.  A field that is
missing or shows another value fails its line, naming the first entry
where it does.  Exit 1 if any line failed.
"""
import sys


def tokens(text):
    """'a=1 b=x' -> [("a", "1"), ("b", "x")]; a word without '=' keeps
    an empty name, so nothing is silently dropped."""
    out = []
    for word in text.split():
        name, eq, value = word.partition("=")
        out.append((name, value) if eq else ("", word))
    return out


def main():
    if len(sys.argv) < 5:
        sys.stderr.write(__doc__)
        return 2
    expected_path, decoded_path, label = sys.argv[1:4]
    events = sys.argv[4:]
    want = {ev: [] for ev in events}
    with open(expected_path) as f:
        for line in f:
            ev, cpu, ts, text = line.rstrip("\n").split("\t", 3)
            if ev in want:
                want[ev].append(("cpu %s ts %s" % (cpu, ts), text))
    got = {ev: [] for ev in events}
    with open(decoded_path) as f:
        for line in f:
            if not line.startswith("info "):
                continue
            ev, _, text = line[5:].rstrip("\n").partition(": ")
            if ev in got:
                got[ev].append(text)

    failed = 0

    def result(ok, what):
        nonlocal failed
        print("%s - %s: %s" % ("ok" if ok else "not ok", label, what))
        failed += not ok

    for ev in events:
        w, g = want[ev], got[ev]
        result(len(w) > 0 and len(g) == len(w),
               "%s: %d entries shown (%d written)" % (ev, len(g), len(w)))
        if not w:
            continue
        fields = []
        for _, text in w:
            for name, _ in tokens(text):
                if name not in fields:
                    fields.append(name)
        for name in fields:
            n, bad = 0, None
            for i, (where, text) in enumerate(w):
                exp = dict(tokens(text)).get(name)
                if exp is None:
                    continue
                n += 1
                shown = dict(tokens(g[i])).get(name) if i < len(g) else None
                if shown != exp and bad is None:
                    bad = (i, where, exp, shown)
            if bad is None:
                result(True, "%s: %s= as written in %d/%d entries"
                       % (ev, name, n, n))
            else:
                i, where, exp, shown = bad
                result(False, "%s: %s= wrong: entry %d (%s) shows %s, "
                       "want %s=%s" % (ev, name, i + 1, where,
                                       "no %s=" % name if shown is None
                                       else "%s=%s" % (name, shown),
                                       name, exp))
        same = sum(1 for i, (_, text) in enumerate(w)
                   if i < len(g) and g[i] == text)
        result(same == len(w) == len(g),
               "%s: whole text as the kernel prints it in %d/%d entries"
               % (ev, same, len(w)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
