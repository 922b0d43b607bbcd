#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Runs each test program given (unit binaries, e2e.sh), passes its "ok"/"not ok" lines
# through and ends with "N passed, N failed".  A binary that crashes or
# exits non-zero without a "not ok" line counts as one failure.
pass=0
fail=0
for t in "$@"; do
	out=$("$t")
	rc=$?
	printf '%s\n' "$out"
	p=$(printf '%s\n' "$out" | grep -c '^ok - ')
	f=$(printf '%s\n' "$out" | grep -c '^not ok - ')
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		echo "not ok - $t exited with status $rc"
		f=1
	fi
	pass=$((pass + p))
	fail=$((fail + f))
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
