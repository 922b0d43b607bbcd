#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# description: check-abi.sh accepts the event formats of the series v3
# 6.1 guest and rejects each doctored copy: a field missing (the v1
# layout), a hole in the layout, a symbolic field printed as a number, an
# event missing; and the formats of real captures of older series: v2
# (a census without hugetlb), v2 before patch 9 (no census), v1.  Then the names of the symbolic tables: the 6.1
# and the 6.12 formats are each accepted as their kernel's and rejected as
# the other's; formats with an undocumented name, without a documented
# one, or mixing the two kernels' names are rejected; names only some
# configs have may be absent; every name check-abi.sh knows is in
# tracepoints/README.md.
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
ours='^(pageblock_steal|pageblock_flip|pcp_drain|migrate_folio|migrate_folio_failed|migrate_pass|pageblock_state|pageblock_snapshot|pageblock_census)$'
formats() {
	mkdir -p "$2"
	trace-cmd dump --events -i "$1" 2>/dev/null | awk -v dir="$2" -v ours="$ours" '
		/^name: / { f = ($2 ~ ours) ? dir "/" $2 : "" }
		/^\t\[/ { f = "" }
		f != "" { print > f }'
}

# the 6.1 formats: copies from the patched 6.1 guest
# (tests/fixtures/formats-6.1/README.md)
good=$tmp/good
mkdir -p "$good"
find "$top/tests/fixtures/formats-6.1" -type f ! -name '*.md' -exec cp {} "$good" \;
nev=$(ls "$good" | wc -l)
result $(( nev == 9 ? 0 : 1 )) "the series v3 6.1 formats are there ($nev events)"
out=$("$abi" "$good" 2>&1)
result $? "check-abi.sh accepts the real series v3 6.1 formats: $out"

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
doctor "a steal without taken (series v3 before patch 12)" "pageblock_steal: fields differ" \
	'$_ = "" if /field:bool taken;/' pageblock_steal
doctor "a flip without gen" "pageblock_flip: fields differ" \
	'$_ = "" if /field:unsigned long gen;/' pageblock_flip
doctor "a hole in pcp_drain" "pcp_drain: hole in layout" \
	's/(field:u8 (zone|reason);\toffset:)(\d+)/$1 . ($3 + 4)/e' pcp_drain
doctor "a snapshot phase printed as a number" \
	"pageblock_snapshot: field phase is not printed with __print_symbolic" \
	's/__print_symbolic\(REC->phase, \{ 0, "begin" \}, \{ 1, "end" \}\)/REC->phase/' pageblock_snapshot
doctor "no pageblock_snapshot event" "pageblock_snapshot: no format file" \
	"" pageblock_snapshot
doctor "no migrate_folio_failed event" "migrate_folio_failed: no format file" \
	"" migrate_folio_failed
doctor "a migrate_pass stage printed as a number" \
	"migrate_pass: field stage is not printed with __print_symbolic" \
	's/__print_symbolic\(REC->stage, .*?\), REC->pass/REC->stage, REC->pass/' migrate_pass
doctor "a migrate_pass without nr_retry" "migrate_pass: fields differ" \
	'$_ = "" if /field:unsigned int nr_retry;/' migrate_pass
doctor "a census without free_chunks" "pageblock_census: fields differ" \
	'$_ = "" if /field:unsigned int free_chunks;/' pageblock_census
doctor "a census migratetype printed as a number" \
	"pageblock_census: field mt is not printed with __print_symbolic" \
	's/__print_symbolic\(REC->mt, /__print_flags(REC->mt, "|", /' pageblock_census

# rejected_for_alone NAME DIR EXPECT: check-abi.sh fails DIR with EXPECT,
# every problem it names being of EXPECT's event, apart from what series
# v3 added last, which every older capture lacks: the formats of
# migrate_folio_failed and migrate_pass (patch 11) and pageblock_steal's
# taken (patch 12: its fields differ and its print fmt lacks it); and
# those four are among the problems, so that they are not what fails it
v3new='^check-abi: ((migrate_folio_failed|migrate_pass): no format file|pageblock_steal: (fields differ|print fmt does not use field taken))'
rejected_for_alone() {
	local out rc event=${3%%:*}
	out=$("$abi" "$2" 2>&1)
	rc=$?
	if [ $rc -eq 1 ] && grep -q "^check-abi: $3" <<<"$out" &&
	   [ "$(grep -Ec "$v3new" <<<"$out")" -eq 4 ] &&
	   ! grep '^check-abi: [a-z_]*:' <<<"$out" | grep -Ev "$v3new" |
		grep -qv "^check-abi: $event:"; then
		result 0 "check-abi.sh rejects $1"
	else
		result 1 "check-abi.sh rejects $1 (exit $rc)"
		sed 's/^/#   /' <<<"$out"
	fi
}

# series v2: the same formats but the census's, which lacks hugetlb
v2=$tmp/v2
formats "$top/tests/fixtures/v2-census.dat" "$v2"
grep -q 'field:unsigned int offline;' "$v2/pageblock_census" 2>/dev/null &&
	! grep -q hugetlb "$v2/pageblock_census"
result $? "the series v2 census fixture has a census without hugetlb"
rejected_for_alone "series v2 for its census alone (no hugetlb)" "$v2" \
	"pageblock_census: fields differ"

# the formats of series v2 before patch 9: every event but the census
pre9=$tmp/pre9
formats "$top/tests/fixtures/v2-offline.dat" "$pre9"
rejected_for_alone "series v2 before patch 9 for the census alone" "$pre9" \
	"pageblock_census: no format file"

v1=$tmp/v1
formats "$top/tests/fixtures/fragment.dat" "$v1"
out=$("$abi" "$v1" 2>&1)
rc=$?
if [ $rc -eq 1 ] && grep -q "pageblock_state: fields differ" <<<"$out"; then
	result 0 "check-abi.sh rejects the series v1 formats (no gen, no snapshot event)"
else
	result 1 "check-abi.sh rejects the series v1 formats (exit $rc)"
fi

# ---- the names of the symbolic tables, per kernel
# the 6.12 formats: copies from the patched 6.12 guest
# (tests/fixtures/formats-6.12/README.md)
k612=$top/tests/fixtures/formats-6.12
nev=$(find "$k612" -type f ! -name '*.md' | wc -l)
grep -q '"merge"' "$k612/pageblock_flip" && grep -q '"damon"' "$k612/migrate_folio" &&
	grep -q '"decay"' "$k612/pcp_drain" &&
	! grep -q MIGRATE_SYNC_NO_COPY "$k612/migrate_folio" && [ "$nev" -eq 9 ]
result $? "the real 6.12 formats ($nev events) have merge, decay and damon, no MIGRATE_SYNC_NO_COPY"

# accepts KERNEL-OPTION DIR WANT NAME
accepts() {
	local out
	out=$("$abi" $1 "$2" 2>&1)
	if [ $? -eq 0 ] && [ "$out" = "$3" ]; then
		result 0 "check-abi.sh${1:+ $1} accepts $4: $out"
	else
		result 1 "check-abi.sh${1:+ $1} accepts $4"
		sed 's/^/#   /' <<<"$out"
	fi
}
ok_all="ok: 9 events match the ABI"
accepts "" "$k612" "$ok_all (the names of 6.12)" "the 6.12 formats as 6.12's"
accepts "--kernel 6.12" "$k612" "$ok_all (the names of 6.12)" "the 6.12 formats"
accepts "--kernel 6.1" "$good" "$ok_all (the names of 6.1)" "the 6.1 formats"

# rejects KERNEL-OPTION DIR NAME WANT-LINE...: exit 1, exactly these
# problem lines
rejects() {
	local opt=$1 d=$2 name=$3 out rc
	shift 3
	out=$("$abi" $opt "$d" 2>&1)
	rc=$?
	if [ $rc -eq 1 ] && [ "$(grep -v '^check-abi: [0-9]* problem' <<<"$out")" = "$(printf 'check-abi: %s\n' "$@")" ]; then
		result 0 "check-abi.sh${opt:+ $opt} rejects $name: $(tr '\n' ' ' <<<"$out")"
	else
		result 1 "check-abi.sh${opt:+ $opt} rejects $name (exit $rc)"
		sed 's/^/#   /' <<<"$out"
	fi
}
rejects "--kernel 6.12" "$good" "the 6.1 formats as 6.12's" \
	"pageblock_flip: reason lacks names documented for 6.12: merge" \
	"pcp_drain: reason lacks names documented for 6.12: decay" \
	"migrate_folio: mode prints names not documented for 6.12: MIGRATE_SYNC_NO_COPY" \
	"migrate_folio: reason lacks names documented for 6.12: damon" \
	"migrate_folio_failed: mode prints names not documented for 6.12: MIGRATE_SYNC_NO_COPY" \
	"migrate_folio_failed: reason lacks names documented for 6.12: damon" \
	"migrate_pass: mode prints names not documented for 6.12: MIGRATE_SYNC_NO_COPY" \
	"migrate_pass: reason lacks names documented for 6.12: damon"
rejects "--kernel 6.1" "$k612" "the 6.12 formats as 6.1's" \
	"pageblock_flip: reason prints names not documented for 6.1: merge" \
	"pcp_drain: reason prints names not documented for 6.1: decay" \
	"migrate_folio: mode lacks names documented for 6.1: MIGRATE_SYNC_NO_COPY" \
	"migrate_folio: reason prints names not documented for 6.1: damon" \
	"migrate_folio_failed: mode lacks names documented for 6.1: MIGRATE_SYNC_NO_COPY" \
	"migrate_folio_failed: reason prints names not documented for 6.1: damon" \
	"migrate_pass: mode lacks names documented for 6.1: MIGRATE_SYNC_NO_COPY" \
	"migrate_pass: reason prints names not documented for 6.1: damon"

# names DIR NAME PERL-EXPR EVENT...: d=a copy of DIR with the events edited
names() {
	local src=$1 name=$2 script=$3 ev
	shift 3
	d=$tmp/${name// /-}
	cp -r "$src" "$d"
	for ev in "$@"; do
		perl -i -pe "$script" "$d/$ev"
		cmp -s "$src/$ev" "$d/$ev" && result 1 "$name: the edit changed nothing in $ev"
	done
}
names "$good" "6.1 with merge" 's/(\{ (\d+), "offline" \})/"{ " . ($2 + 1) . ", \"merge\" }, $1"/e' pageblock_flip
rejects "" "$d" "6.1 formats with the 6.12 flip reason merge" \
	"the names are those of no kernel; the closest are those of 6.1:" \
	"pageblock_flip: reason prints names not documented for 6.1: merge"
names "$k612" "an undocumented reason" 's/(\{ (\d+), "steal" \})/"$1, { 42, \"compact\" }"/e' pageblock_flip
rejects "--kernel 6.12" "$d" "a flip reason nobody documented" \
	"pageblock_flip: reason prints names not documented for 6.12: compact"
rejects "" "$d" "a flip reason nobody documented (no --kernel)" \
	"the names are those of no kernel; the closest are those of 6.12:" \
	"pageblock_flip: reason prints names not documented for 6.12: compact"
names "$good" "no cpu_dead" 's/, \{ \d+, "cpu_dead" \}//' pcp_drain
rejects "--kernel 6.1" "$d" "a drain reason table without cpu_dead" \
	"pcp_drain: reason lacks names documented for 6.1: cpu_dead"
names "$good" "no none" 's/(REC->dst_mt, .*?), \{ \d+, "none" \}/$1/' migrate_folio
rejects "--kernel 6.1" "$d" "a dst_mt table without none" \
	"migrate_folio: dst_mt lacks names documented for 6.1: none"
names "$good" "misspelt zone" 's/"Normal"/"normal"/' pageblock_state
rejects "--kernel 6.1" "$d" "a zone misspelt" \
	"pageblock_state: zone prints names not documented for 6.1: normal" \
	"pageblock_state: zone lacks names documented for 6.1: Normal"
names "$k612" "no CMA" 's/, \{ \d+, "CMA" \}//g' pageblock_steal pageblock_flip \
	migrate_folio migrate_folio_failed pageblock_state pageblock_census
accepts "" "$d" "$ok_all (the names of 6.12)" "6.12 formats of a kernel without CONFIG_CMA"

# every name check-abi.sh knows is documented in README.md
undoc=$("$abi" --names | sed 's/^[^:]*: //' | tr ' ' '\n' | sed 's/[?].*//; s/@.*//' |
	sort -u | while read -r w; do
		grep -qF "\`$w\`" "$top/tracepoints/README.md" || echo "$w"
	done)
nnames=$("$abi" --names | sed 's/^[^:]*: //' | tr ' ' '\n' | sed 's/[?].*//; s/@.*//' |
	sort -u | wc -l)
[ -z "$undoc" ] && [ "$nnames" -gt 50 ]
result $? "the $nnames names check-abi.sh knows are all in README.md${undoc:+; not: $undoc}"

echo "$((n - bad)) passed, $bad failed"
[ "$bad" -eq 0 ]
