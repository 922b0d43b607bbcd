#!/usr/bin/env python3
# regress.py [FILE]: least squares over the events-off stealloop runs of FILE
# (fvc-runs.tsv by default, or fvc2-runs.tsv)
# (kernels with the fvclaim counters): guest instructions per run (instr/op
# x 200) against the counted work, without and with a "patched" term.
import statistics

def solve(A, b):
    n = len(A)
    M = [row[:] + [bb] for row, bb in zip(A, b)]
    for i in range(n):
        p = max(range(i, n), key=lambda k: abs(M[k][i]))
        M[i], M[p] = M[p], M[i]
        for k in range(n):
            if k != i:
                f = M[k][i] / M[i][i]
                M[k] = [a - f * c for a, c in zip(M[k], M[i])]
    return [M[i][n] / M[i][i] for i in range(n)]

import sys
fn = sys.argv[1] if len(sys.argv) > 1 else "fvc-runs.tsv"
print("# " + fn)
lines = [l.rstrip("\n").split("\t") for l in open(fn)]
COLS, rows = lines[0], lines[1:]
off = [r for r in rows if r[1] == "off"]
y = [float(r[3]) * 200 for r in off]
ymean = sum(y) / len(y)
def col(name):
    if name == "patched":
        return [1.0 if "-p12-" in r[0] else 0.0 for r in off]
    return [float(r[COLS.index(name)]) for r in off]
for names in (["walk_steps"], ["walk_steps", "patched"], ["walk_steps", "steals", "bulk"],
              ["walk_steps", "steals", "bulk", "patched"],
              ["walk_steps", "steals", "bulk", "claim_calls", "patched"]):
    X = [[1.0] + list(v) for v in zip(*[col(n) for n in names])]
    XtX = [[sum(a[i] * a[j] for a in X) for j in range(len(X[0]))] for i in range(len(X[0]))]
    Xty = [sum(a[i] * yy for a, yy in zip(X, y)) for i in range(len(X[0]))]
    b = solve(XtX, Xty)
    r = [yy - sum(bi * xi for bi, xi in zip(b, a)) for a, yy in zip(X, y)]
    dof = len(y) - len(b)
    s2 = sum(e * e for e in r) / dof
    sst = sum((yy - ymean) ** 2 for yy in y)
    print("model: instr/run = %.0f" % b[0] + "".join(" + %.2f*%s" % (c, n) for c, n in zip(b[1:], names)))
    print("  n=%d  residual sd %.0f instr/run (%.3f %% of the mean run, %.0f instr/op)  R^2 %.3f"
          % (len(y), s2 ** 0.5, 100 * s2 ** 0.5 / ymean, s2 ** 0.5 / 200, 1 - sum(e * e for e in r) / sst))
    if "patched" in names:
        k = len(b) - 1
        e = [1.0 if i == k else 0.0 for i in range(len(b))]
        se = (s2 * solve(XtX, e)[k]) ** 0.5
        print("  patched term: %.0f +- %.0f instr/run (1 s.e.) = %.3f +- %.3f %% of a mean run"
              % (b[k], se, 100 * b[k] / ymean, 100 * se / ymean))
for k in ("u", "p12"):
    sel = [r for r in off if "-%s-" % k in r[0]]
    ins = [float(r[COLS.index("instr_per_op")]) for r in sel]
    w = [float(r[COLS.index("walks")]) for r in sel]
    st = [float(r[COLS.index("walk_steps")]) / max(1.0, float(r[COLS.index("walks")])) for r in sel]
    print("%s+fvc off runs: n=%d  instr/op median %.0f (min %.0f max %.0f)  walks/run median %.0f (min %.0f max %.0f)  steps/walk median %.0f"
          % (k, len(sel), statistics.median(ins), min(ins), max(ins), statistics.median(w), min(w), max(w), statistics.median(st)))
