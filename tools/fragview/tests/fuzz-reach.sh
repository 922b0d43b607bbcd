#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Do the seeds reach every output?  tests/fuzz_trace counts, under
# FV_FUZZ_REACHED, each job (a hook of a format of the render table, a
# map view, check's report) and overlay it drew with data to draw; a
# count of 0 after the seeds is a renderer the fuzzer would mutate
# towards blindly, if at all.  Then the same check on the seeds without
# the HTML map's must name what they alone reach (it can fail).
set -u
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/.." || exit 1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# the jobs and overlays never reached by the seeds given, one a line
never_reached() {
	rm -f "$tmp/reached"
	FV_FUZZ_REACHED=$tmp/reached tests/fuzz_trace "$@" >"$tmp/log" 2>&1 ||
		{ echo "(the fuzzer failed: $(grep -m1 ERROR "$tmp/log"))"; return; }
	[ -s "$tmp/reached" ] || { echo "(no $tmp/reached written)"; return; }
	awk '$1 == 0 { print $2 }' "$tmp/reached"
}

status=0
missing=$(never_reached tests/fuzz-seeds/*)
total=$(wc -l <"$tmp/reached" 2>/dev/null || echo 0)
if [ -z "$missing" ] && [ "$total" -gt 0 ]; then
	echo "ok - fuzz seeds reach all $total jobs and overlays of tests/fuzz_trace"
else
	echo "not ok - fuzz seeds never reach:" $missing
	status=1
fi

mapfile -t some < <(ls tests/fuzz-seeds/* | grep -v -e '-html-')
missing=$(never_reached "${some[@]}")
if grep -qx 'map/html/pollution' <<<"$missing" &&
   grep -qx 'map/html+explain' <<<"$missing"; then
	echo "ok - without the HTML map's seeds the reach check names map/html/pollution and map/html+explain"
else
	echo "not ok - without the HTML map's seeds the reach check says:" $missing
	status=1
fi
exit $status
