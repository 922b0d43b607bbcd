# SPDX-License-Identifier: GPL-2.0
"""TAP for the Python test scripts: check() prints "ok N - WHAT" or
"not ok N - WHAT" (with DETAIL as "#" lines), skip() an "ok ... # SKIP",
finish() the plan and the "N passed, N failed" line and returns the exit
status."""

n = failed = 0


def check(ok, what, detail=""):
    global n, failed
    n += 1
    if not ok:
        failed += 1
        for line in str(detail).splitlines():
            print(f"#   {line}")
    print(f"{'ok' if ok else 'not ok'} {n} - {what}")
    return ok


def skip(what, why):
    global n
    n += 1
    print(f"ok {n} - {what} # SKIP {why}")


def finish():
    print(f"1..{n}")
    print(f"{n - failed} passed, {failed} failed")
    return 1 if failed else 0
