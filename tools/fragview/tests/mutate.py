#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Run fragview on ~200 damaged copies of a real capture.

Truncations at many offsets and byte flips (header, event formats and
ring-buffer data alike), read in turn by check, stats, blame and
compact.  Every run must end with exit status 0-3 (check: exact,
mismatch, cannot be exact, unreadable; stats, blame, compact: 0 or 3) -
never a signal, never a hang - and an unreadable capture must say why in one
"fragview: FILE: ..." line.  libtracecmd does crash on some of these:
that is what the reader child is for.

usage: mutate.py FRAGVIEW CAPTURE [N]   (prints ok/not ok lines)
"""
import os
import random
import subprocess
import sys
import tempfile


def mutants(data, n, rng):
    size = len(data)
    nt = n // 3
    for i in range(nt):
        # dense near the start (headers, formats), spread over the rest
        cut = (i * 9973) % 16384 if i % 2 else size * i // nt
        yield "truncate@%d" % cut, data[:cut]
    for i in range(n - nt):
        b = bytearray(data)
        region = size if i % 3 else min(size, 16384)
        spots = []
        for _ in range(rng.randrange(1, 9)):
            off = rng.randrange(region)
            b[off] ^= 1 << rng.randrange(8) if i % 2 else rng.randrange(1, 256)
            spots.append(off)
        yield "flip@%s" % ",".join(map(str, spots)), bytes(b)


def main():
    fragview, capture = sys.argv[1], sys.argv[2]
    n = int(sys.argv[3]) if len(sys.argv) > 3 else 200
    data = open(capture, "rb").read()
    rng = random.Random(20261203)
    env = dict(os.environ, FRAGVIEW_READ_TIMEOUT="10")
    failed = 0
    counts = {0: 0, 1: 0, 2: 0, 3: 0}
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "m.dat")
        for i, (what, blob) in enumerate(mutants(data, n, rng)):
            with open(path, "wb") as f:
                f.write(blob)
            cmd = ["check", "stats", "blame", "compact"][i % 4]
            try:
                p = subprocess.run([fragview, cmd, path], env=env,
                                   stdout=subprocess.DEVNULL,
                                   stderr=subprocess.PIPE, timeout=60)
            except subprocess.TimeoutExpired:
                print("not ok - mutant %d %s: hung" % (i, what))
                failed += 1
                continue
            err = p.stderr.decode(errors="replace").splitlines()
            bad = None
            if p.returncode not in counts:
                bad = "exit status %d" % p.returncode
            elif any(not l.startswith("fragview: ") for l in err):
                bad = "stray stderr output: %r" % err
            elif p.returncode == 3 and cmd != "check" and \
                    not (err and err[-1].startswith("fragview: " + path)):
                bad = "no one-line error: %r" % err
            if bad:
                print("not ok - mutant %d %s: %s" % (i, what, bad))
                failed += 1
            else:
                counts[p.returncode] += 1
    print("%s - %d mutants: %d exit 0, %d exit 1, %d exit 2, %d exit 3, "
          "%d bad" % ("not ok" if failed else "ok", n, counts[0], counts[1],
                      counts[2], counts[3], failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
