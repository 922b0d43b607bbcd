#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# e2e-color.sh - map --view and the census part of stats, end to end:
# a tests/mkcapture.py census capture (two censuses) drawn in each view
# at several times and read back by pfn against the generator's facts
# (tests/viewcheck.py), each oracle also on a doctored output it must
# reject, and the exact error of each view a capture has no data for.
# Run by tests/e2e.sh; prints "ok - ..." / "not ok - ...".
#
# usage: tests/e2e-color.sh FRAGVIEW
set -u
here=$(cd "$(dirname "$0")" && pwd)
fv=$(realpath "$1")
fixtures=$here/../../../tests/fixtures
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1

ok() { echo "ok - color: $1"; }
nok() { echo "not ok - color: $1"; shift; for l in "$@"; do echo "  $l" >&2; done; }
fact() { python3 -c "import json,sys; f=json.load(open('$1')); print($2)"; }
# view ARGS: tests/viewcheck.py's line; no line (it crashed) is a failure
view() {
	local line
	line=$(python3 "$here/viewcheck.py" "$@" 2>&1 | tail -1)
	case $line in
	"ok - "* | "not ok - "*) echo "$line" | sed 's/^\(n*o*t* *ok - \)/\1color: /' ;;
	*) echo "not ok - color: viewcheck.py $1 $2 gave no verdict: $line" ;;
	esac
}

# expect NAME STATUS STDERR-LINE -- CMD...: exact status, exact stderr
expect() {
	local name=$1 want_rc=$2 want_err=$3
	shift 4
	"$@" >out.txt 2>err.txt
	local rc=$?
	if [ "$rc" = "$want_rc" ] && [ "$(cat err.txt)" = "$want_err" ]; then
		ok "$name"
	else
		nok "$name" "status $rc (want $want_rc)" "stderr: $(cat err.txt)" \
			"want:   $want_err"
	fi
}

if ! python3 "$here/mkcapture.py" census census.dat --facts census.json ||
   ! python3 "$here/mkcapture.py" mobility mob.dat ||
   ! python3 "$here/mkcapture.py" v2 v2.dat; then
	nok "tests/mkcapture.py census/mobility/v2"
	exit 1
fi

# ---- every cell of the pollution and free views by pfn
expect "map --view pollution (end: census 2)" 0 "" -- \
	"$fv" map census.dat --view pollution --format txt -o pol.txt
view pollution pol.txt census.json 1
# between the censuses (at snapshot 2) a block shows census 1
mid=$(fact census.json 'f["snapshots_at"][1]["at"]')
"$fv" map census.dat --view pollution --at "$mid" --format txt -o pol1.txt
view pollution pol1.txt census.json 0
grep -q "as of census 1 at $(fact census.json 'f["census"][0]["at"]') s" pol1.txt &&
	ok "pollution legend names census 1 and its time" ||
	nok "pollution legend" "$(grep 'as of' pol1.txt)"
# before the first census nothing is known
first=$(fact census.json 'f["snapshots_at"][0]["at"]')
"$fv" map census.dat --view pollution --at "$first" --format txt -o pol0.txt
grep -q "no census at or before the time drawn" pol0.txt &&
	[ "$(python3 -c "import sys; sys.path.insert(0, '$here')
import viewcheck; print(''.join(sorted(set(viewcheck.txt_glyphs(open('pol0.txt').read()).values()))))")" = "?" ] &&
	ok "pollution before the first census: every block '?'" ||
	nok "pollution before the first census" "$(tail -9 pol0.txt)"
# the census is later than the last snapshot: its free pages
"$fv" map census.dat --view free --format txt -o free.txt
view free free.txt census.json 1
# ansi draws the same cells
"$fv" map census.dat --view pollution --format ansi -o pol.ansi
sed 's/\x1b\[[0-9;]*m//g' pol.ansi >pol-ansi.txt
view pollution pol-ansi.txt census.json 1 | sed 's/pollution view/ansi pollution view/'
# negative: the oracle must catch one wrong cell and the wrong census
sed '0,/^  0x[0-9a-f]* \./s/^\(  0x[0-9a-f]* \)\./\13/' pol.txt >doctored.txt
if ! cmp -s pol.txt doctored.txt &&
   ! python3 "$here/viewcheck.py" pollution doctored.txt census.json 1 >/dev/null; then
	ok "viewcheck catches a doctored cell"
else
	nok "viewcheck misses a doctored cell"
fi
python3 "$here/viewcheck.py" pollution pol1.txt census.json 1 >/dev/null &&
	nok "viewcheck takes census 1's map for census 2's" ||
	ok "viewcheck tells census 1's map from census 2's"

# ---- every format draws every view
for c in type free order pollution steals; do
	for f in txt ansi svg html; do
		"$fv" map census.dat --view $c --format $f -o m.$f 2>err.txt
		rc=$?
		[ $rc = 0 ] && [ ! -s err.txt ] && [ -s m.$f ] ||
			nok "map --view $c --format $f" "status $rc" "$(cat err.txt)"
	done
done && ok "map: every view in txt, ansi, svg and html"
"$fv" map census.dat --view order --format html -o order.html
grep -q '"views":{"initial":"order"' order.html &&
	ok "html --view order: the page opens in the order view" ||
	nok "html --view order: initial view"
"$fv" map census.dat --view order --format svg -o order.svg
n=$(grep -c 'class="key"' order.svg)
[ "$n" = 13 ] && grep -q '>largest free order per block</text>' order.svg &&
	ok "svg order view: title and 13 legend keys" ||
	nok "svg order view legend" "$n keys"
"$fv" map census.dat --format txt -o type.txt
"$fv" map census.dat --view type --format txt -o type2.txt
cmp -s type.txt type2.txt && ok "--view type is the default map" ||
	nok "--view type differs from the default map"

# ---- stats: the census part against the generator's figures
expect "stats --format json of a census capture" 0 "" -- \
	"$fv" stats census.dat --format json -o s.json
view stats s.json census.json
python3 - s.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["census"]["zones"][0]["block_types"]["Movable"]["polluted"] += 1
json.dump(d, open("doctored.json", "w"))
PY
python3 "$here/viewcheck.py" stats doctored.json census.json >/dev/null &&
	nok "viewcheck misses a doctored polluted count" ||
	ok "viewcheck catches a doctored polluted count"
"$fv" stats census.dat --format txt -o s.txt
z=$(fact census.json '"unmovable pages are %d.%d %% of the zone\x27s pages but occupy %d.%d %% of its blocks" % (lambda z: (z["unmovable_pages"] * 1000 // z["pages"] // 10, z["unmovable_pages"] * 1000 // z["pages"] % 10, z["unmovable_blocks"] * 1000 // z["blocks"] // 10, z["unmovable_blocks"] * 1000 // z["blocks"] % 10))(f["census"][-1]["zones"]["Normal"])')
grep -A1 "^  node 0 Normal: " s.txt | grep -qx "    $z" &&
	ok "stats txt: the fleet figure of Normal" ||
	nok "stats txt fleet figure" "want: $z" "$(grep Normal s.txt | tail -1)"
"$fv" stats census.dat --format csv -o s.csv
grep -q "^census,0,Normal,,,,,,,,,,seq,2$" s.csv &&
	grep -q "^census_foreign,0,Normal,,Movable,unmovable," s.csv &&
	ok "stats csv: census rows" || nok "stats csv census rows"
"$fv" stats mob.dat --format json -o nocensus.json
[ "$(fact nocensus.json 'f["census"]')" = None ] && ! "$fv" stats mob.dat | grep -q "^Census" &&
	ok "stats without a census: null in json, no txt section" ||
	nok "stats without a census"

# ---- a view the capture has no data for: one line, exit 3
expect "--view pollution without a census" 3 \
	"fragview: no mobility:pageblock_census events in mob.dat: --view pollution needs a census (echo 1 > /sys/kernel/debug/mobility/census while recording)" \
	-- "$fv" map mob.dat --view pollution
expect "--view steals without steal events" 3 \
	"fragview: no mobility:pageblock_steal events in v2.dat: --view steals needs them (record with -e mobility:pageblock_steal)" \
	-- "$fv" map v2.dat --view steals --format svg
expect "--view with an unknown view" 64 \
	"fragview: map: bad view 'heat' (want type, free, order, pollution or steals) (see 'fragview map --help')" \
	-- "$fv" map mob.dat --view heat
expect "--color with neither a WHEN nor a view" 64 \
	"fragview: map: bad --color 'heat' (want auto, always or never) (see 'fragview map --help')" \
	-- "$fv" map mob.dat --color heat
expect "--color without its value" 64 \
	"fragview: map: option '--color' needs a value (see 'fragview map --help')" \
	-- "$fv" map mob.dat --color
"$fv" map mob.dat --view pollution -o refused.txt 2>/dev/null
[ $? = 3 ] && [ ! -e refused.txt ] && ok "a refused view writes no file" ||
	nok "a refused view wrote a file"

# census_end REPORT SEQ: the time of census SEQ's last record (trace-cmd
# report -t: nanoseconds)
census_end() {
	python3 - "$1" "$2" <<'PY'
import re, sys
t = [m.group(1) for m in (re.search(r"\s(\d+\.\d+): pageblock_census:.*\bseq=%s\b"
                                    % sys.argv[2], l)
                          for l in open(sys.argv[1])) if m]
print(t[-1])
PY
}

# ---- the same figures out of `trace-cmd report`: what the guest
# fixture below is checked with, cross-checked here with the generator's
trace-cmd report -t -i census.dat >report.txt 2>/dev/null
python3 "$here/viewcheck.py" facts report.txt >rfacts.json
python3 - census.json rfacts.json <<'PY' &&
import json, sys
want, got = (json.load(open(p))["census"] for p in sys.argv[1:3])
for w in want:
    w["zones"] = {"0/" + k: v for k, v in w["zones"].items()}
    del w["at"]
for g in got:
    del g["at"]
sys.exit(want != got)
PY
	ok "viewcheck.py facts: trace-cmd report gives the generator's figures" ||
	nok "viewcheck.py facts differ from the generator's"
python3 "$here/viewcheck.py" pollution doctored.txt rfacts.json 1 >/dev/null &&
	nok "viewcheck with report facts misses a doctored cell" ||
	ok "viewcheck with report facts catches a doctored cell"
at=$(census_end report.txt 1)
"$fv" map census.dat --view pollution --at "$at" --format txt -o pol-end1.txt
view pollution pol-end1.txt rfacts.json 0 |
	sed 's/pollution view/at the end of census 1 (trace-cmd report -t): pollution view/'
"$fv" map census.dat --view pollution --at "$(python3 -c "print('%.9f' % (float('$at') - 1e-9))")" \
	--format txt -o pol-before1.txt
python3 "$here/viewcheck.py" pollution pol-before1.txt rfacts.json 0 >/dev/null &&
	nok "a map 1 ns before census 1 ended passes as census 1's" ||
	ok "a map 1 ns before census 1 ended is not census 1's (a block shows '?')"

# ---- a real guest capture with censuses (tests/fixtures/make-fixtures.sh):
# its pollution map and stats against its own `trace-cmd report`
cap=$fixtures/v2-census.dat
if [ -e "$cap" ]; then
	trace-cmd report -t -i "$cap" >fix-report.txt 2>/dev/null
	python3 "$here/viewcheck.py" facts fix-report.txt >fix-facts.json
	n=$(fact fix-facts.json 'len(f["census"])')
	if [ "$n" -ge 1 ]; then
		ok "fixture v2-census.dat: $n censuses in its report"
	else
		nok "fixture v2-census.dat: no census in its report"
	fi
	expect "fixture v2-census.dat: map --view pollution" 0 "" -- \
		"$fv" map "$cap" --view pollution --format txt -o fix-pol.txt
	view pollution fix-pol.txt fix-facts.json $((n - 1)) |
		sed 's/pollution view/fixture v2-census.dat: pollution view/'
	if [ "$n" -ge 2 ]; then
		# right after the first census: every block shows it
		at=$(census_end fix-report.txt "$(fact fix-facts.json 'f["census"][0]["seq"]')")
		"$fv" map "$cap" --view pollution --at "$at" --format txt -o fix-pol0.txt
		view pollution fix-pol0.txt fix-facts.json 0 |
			sed 's/pollution view/fixture v2-census.dat at the first census: pollution view/'
	fi
	expect "fixture v2-census.dat: stats json" 0 "" -- \
		"$fv" stats "$cap" --format json -o fix.json
	view stats fix.json fix-facts.json |
		sed 's/stats census/fixture v2-census.dat: stats census/'
	for c in free order steals; do
		expect "fixture v2-census.dat: --view $c" 0 "" -- \
			"$fv" map "$cap" --view $c --format txt -o fix-$c.txt
	done
fi
