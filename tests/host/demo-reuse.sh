#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# description: tools/demo.sh --reuse renders a real capture the way make
# demo does (map, stats, and the census, blame and compaction views where
# the capture has their events), and fails on a capture it cannot read
# instead of leaving a half-rendered directory that looks finished.
# usage: tests/host/demo-reuse.sh   (TAP, "N passed, N failed")
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0 bad=0
result() {	# result STATUS NAME
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else bad=$((bad + 1)); echo "not ok $n - $2"; fi
}
make -s -C "$top/tools/fragview" >/dev/null || { echo "not ok 1 - fragview builds"; exit 1; }

# demo CAPTURE DIR: demo.sh --reuse on a copy of CAPTURE in DIR
demo() {
	mkdir -p "$2"
	cp "$1" "$2/trace.dat"
	"$top/tools/demo.sh" --reuse --out "$2" > "$2.log" 2>&1
}

# a capture with the census (the census scenario, at rest)
d=$tmp/census
demo "$top/tests/fixtures/v2-census.dat" "$d"
result $? "demo --reuse renders the census fixture"
for f in map.html map.svg stats.txt map-pollution.svg map-pollution.txt compact.txt; do
	[ -s "$d/$f" ]
	result $? "census fixture: $f written"
done
grep -q '^<svg' "$d/map-pollution.svg" && grep -q 'colour: pollution' "$d/map-pollution.txt"
result $? "census fixture: the pollution map is an SVG and a txt map coloured by pollution"
grep -q 'Census' "$d/stats.txt"
result $? "census fixture: stats.txt has the census figures"

# a series v1 capture: no census, so no pollution map, and the demo says so
d=$tmp/v1
demo "$top/tests/fixtures/fragment.dat" "$d"
result $? "demo --reuse renders a capture without the census"
[ ! -e "$d/map-pollution.svg" ] && grep -q 'no map-pollution.svg: ' "$d.log"
result $? "without the census: no pollution map, one line saying why"
[ -s "$d/map.html" ] && [ -s "$d/blame.txt" ]
result $? "without the census: map.html and blame.txt written"

# a truncated capture: demo fails, and says what failed
d=$tmp/bad
mkdir -p "$d"
head -c 70000 "$top/tests/fixtures/v2-census.dat" > "$tmp/truncated.dat"
demo "$tmp/truncated.dat" "$d"
rc=$?
[ $rc -ne 0 ] && grep -q 'corrupt or truncated' "$d.log"
result $? "a truncated capture: demo exits $rc with the reader's error"

echo "$((n - bad)) passed, $bad failed"
[ "$bad" -eq 0 ]
