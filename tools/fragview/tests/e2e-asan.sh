#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tests/e2e.sh on ./fragview-asan (ASan + UBSan, -fno-sanitize-recover:
# any finding aborts the command, which e2e then reports as a wrong exit
# status or message).  Everything e2e.sh runs, but 40 damaged copies of
# a capture instead of 200 (tests/mutate.py): the copies are what a
# sanitizer adds least to, the reader child (libtracecmd, not
# instrumented) taking most of their time.  Run side by side with e2e.sh
# on a loaded machine it took 1.3 times as long (12 against 9.5 min at a
# load of 15; e2e.sh alone takes ~1.5 min on an idle one).
# Leaks are not reported: a command exits through die() holding its
# model, which is not a leak worth a failure.
#
# usage: tests/e2e-asan.sh    (from anywhere; builds fragview-asan)
set -u
here=$(cd "$(dirname "$0")" && pwd)
make -s -C "$here/.." fragview-asan >/dev/null ||
	{ echo "not ok - build fragview-asan"; exit 1; }
export ASAN_OPTIONS=detect_leaks=0:abort_on_error=0:exitcode=99
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
FRAGVIEW_E2E_MUTATIONS=40 exec "$here/e2e.sh" "$here/../fragview-asan"
