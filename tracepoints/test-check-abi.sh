#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# description: check-abi.sh accepts the event formats of a real series v2
# capture and rejects each doctored copy: a field missing (the v1 layout),
# a hole in the layout, a symbolic field printed as a number, an event
# missing, the formats of a capture before patch 9 (no census), and those
# of a series v1 capture.
# usage: tracepoints/test-check-abi.sh   (TAP, "N passed, N failed")
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
abi=$top/tracepoints/check-abi.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0 bad=0
result() {	# result STATUS NAME
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else bad=$((bad + 1)); echo "not ok $n - $2"; fi
}

# formats DAT DIR: one file per mobility event, as the guest's format files
# (trace-cmd dump names events, not their systems: pick ours by name)
ours='^(pageblock_steal|pageblock_flip|pcp_drain|migrate_folio|pageblock_state|pageblock_snapshot|pageblock_census)$'
formats() {
	mkdir -p "$2"
	trace-cmd dump --events -i "$1" 2>/dev/null | awk -v dir="$2" -v ours="$ours" '
		/^name: / { f = ($2 ~ ours) ? dir "/" $2 : "" }
		/^\t\[/ { f = "" }
		f != "" { print > f }'
}

good=$tmp/good
formats "$top/tests/fixtures/v2-census.dat" "$good"
nev=$(ls "$good" | wc -l)
result $(( nev >= 7 ? 0 : 1 )) "the v2 fixture has the mobility formats ($nev events)"
out=$("$abi" "$good" 2>&1)
result $? "check-abi.sh accepts the real v2 formats: $out"

# doctor NAME EXPECT PERL-EXPR EVENT: a copy with EVENT's format edited
# (an empty PERL-EXPR: without EVENT's format)
doctor() {
	local name=$1 expect=$2 script=$3 event=$4 d=$tmp/${1// /-} out rc
	[ -f "$good/$event" ] || { result 1 "$name: no $event format to doctor"; return; }
	cp -r "$good" "$d"
	if [ -n "$script" ]; then
		perl -i -pe "$script" "$d/$event"
		cmp -s "$good/$event" "$d/$event" && { result 1 "$name: the edit changed nothing"; return; }
	else
		rm "$d/$event"
	fi
	out=$("$abi" "$d" 2>&1)
	rc=$?
	if [ $rc -eq 1 ] && grep -Eq "$expect" <<<"$out"; then
		result 0 "check-abi.sh rejects $name: $(grep -E -m1 "$expect" <<<"$out")"
	else
		result 1 "check-abi.sh rejects $name (exit $rc)"
		sed 's/^/#   /' <<<"$out"
	fi
}
doctor "a flip without gen" "pageblock_flip: fields differ" \
	'$_ = "" if /field:unsigned long gen;/' pageblock_flip
doctor "a hole in pcp_drain" "pcp_drain: hole in layout" \
	's/(field:u8 (zone|reason);\toffset:)(\d+)/$1 . ($3 + 4)/e' pcp_drain
doctor "a snapshot phase printed as a number" \
	"pageblock_snapshot: field phase is not printed with __print_symbolic" \
	's/__print_symbolic\(REC->phase, \{ 0, "begin" \}, \{ 1, "end" \}\)/REC->phase/' pageblock_snapshot
doctor "no pageblock_snapshot event" "pageblock_snapshot: no format file" \
	"" pageblock_snapshot
doctor "a census without free_chunks" "pageblock_census: fields differ" \
	'$_ = "" if /field:unsigned int free_chunks;/' pageblock_census
doctor "a census migratetype printed as a number" \
	"pageblock_census: field mt is not printed with __print_symbolic" \
	's/__print_symbolic\(REC->mt, /__print_flags(REC->mt, "|", /' pageblock_census

# the formats of series v2 before patch 9: every event but the census
pre9=$tmp/pre9
formats "$top/tests/fixtures/v2-offline.dat" "$pre9"
out=$("$abi" "$pre9" 2>&1)
rc=$?
if [ $rc -eq 1 ] && [ "$(grep -c '^check-abi: [a-z_]*:' <<<"$out")" -eq 1 ] &&
   grep -q "pageblock_census: no format file" <<<"$out"; then
	result 0 "check-abi.sh rejects series v2 before patch 9 for the census alone"
else
	result 1 "check-abi.sh rejects series v2 before patch 9 for the census alone (exit $rc)"
	sed 's/^/#   /' <<<"$out"
fi

v1=$tmp/v1
formats "$top/tests/fixtures/fragment.dat" "$v1"
out=$("$abi" "$v1" 2>&1)
rc=$?
if [ $rc -eq 1 ] && grep -q "pageblock_state: fields differ" <<<"$out"; then
	result 0 "check-abi.sh rejects the series v1 formats (no gen, no snapshot event)"
else
	result 1 "check-abi.sh rejects the series v1 formats (exit $rc)"
fi

echo "$((n - bad)) passed, $bad failed"
[ "$bad" -eq 0 ]
