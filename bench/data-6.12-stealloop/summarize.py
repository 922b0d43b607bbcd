#!/usr/bin/env python3
# summarize.py: the tables of README.md, from the logs in this directory
import glob, os, re, statistics as st

def offs(path):
    return [int(l.split()[4]) for l in open(path) if l.startswith("result stealloop off ")]

print("## bench/run.sh's own icount boots (data.tsv of three runs), stealloop events off, instr/op")
for run in ("bench-run-0554", "bench-run-0642", "bench-run-1211"):
    per = {}
    for l in open(run + "/data.tsv"):
        f = l.rstrip("\n").split("\t")
        if f[0] == "icount" and f[1] == "stealloop" and f[2].endswith("-off"):
            per.setdefault((f[2], f[3]), []).append(int(f[5]))
    for (fl, b), v in sorted(per.items()):
        print("%s %-14s boot %s: median %6d  runs %s" % (run, fl, b, st.median(v), " ".join(map(str, v))))

print("\n## repeated boots of bench-overhead (bo-*, boi0642-*, boexact-*), stealloop events off, instr/op")
groups = {}
for d in sorted(glob.glob("bo-*/log") + glob.glob("boi*/log") + glob.glob("boexact*/log")):
    name = d.split("/")[0]
    k = name.rsplit("-", 1)[0]
    v = offs(d)
    if not v:
        continue
    groups.setdefault(k, []).append((name, v))
for k, boots in groups.items():
    allv = [x for _, v in boots for x in v]
    meds = [st.median(v) for _, v in boots]
    print("%-12s %d boots: per-boot medians %s | all %d runs: median %d min %d max %d"
          % (k, len(boots), " ".join("%d" % m for m in meds), len(allv), st.median(allv), min(allv), max(allv)))

print("\n## stealprobe boots: off instr/op; fallbacks (kmem:mm_page_alloc_extfrag) per run in xf/kmem runs")
for d in ("u-h0", "p12-h0", "u-h1", "p11-h1", "u-h2", "p11-h2"):
    L = open(d + "/log").read().splitlines()
    v = offs(d + "/log")
    xf = [int(re.search(r"mm_page_alloc_extfrag=(\d+)", l).group(1)) for l in L
          if l.startswith("result stealloop xf ") or l.startswith("result stealloop kmem ")]
    zl = [sum(int(x) for x in re.findall(r"o0\.mt0\.r1=(\d+)", l)) for l in L if l.startswith("probe zl ")]
    print("%-7s off median %d (%s)  fallbacks/run median %d (%d..%d)  unmovable order-0 pages from buddy/run median %d"
          % (d, st.median(v), " ".join(map(str, v)), st.median(xf), min(xf), max(xf), st.median(zl)))

print("\n## bench-overhead-fvc2 (counters of the timed loop alone), off runs")
rows = []
for d in sorted(glob.glob("bof2-*/log")):
    name = d.split("/")[0]
    for l in open(d):
        if l.startswith("fvcrun stealloop "):
            f = l.split()
            mode, rep = f[2], f[3]
            kv = dict(zip(f[5::2], f[6::2]))
            rows.append((name, mode, rep, int(kv["ns_per_iteration"]),
                         int(kv["fvc_walks"]), int(kv["fvc_walk_steps"]),
                         int(kv["fvc_steals"]), int(kv["fvc_bulk"]), int(kv["fvc_claim_calls"]),
                         int(kv["fvc_claimed"])))
if rows:
    with open("fvc2-runs.tsv", "w") as o:
        o.write("boot\tmode\trep\tinstr_per_op\twalks\twalk_steps\tsteals\tbulk\tclaim_calls\tclaimed\n")
        for r in rows:
            o.write("\t".join(map(str, r)) + "\n")
    for k in ("-u-", "-p12-"):
        sel = [r for r in rows if k in r[0] and r[1] == "off"]
        if sel:
            print("%s off: n=%d instr/op median %d (%d..%d) walks/run median %d (%d..%d) steals/run median %d bulk/run median %d claim_calls median %d"
                  % (k.strip("-"), len(sel), st.median(r[3] for r in sel), min(r[3] for r in sel), max(r[3] for r in sel),
                     st.median(r[4] for r in sel), min(r[4] for r in sel), max(r[4] for r in sel),
                     st.median(r[6] for r in sel), st.median(r[7] for r in sel), st.median(r[8] for r in sel)))
