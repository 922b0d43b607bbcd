#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# e2e-color.sh - map --color and the census part of stats, end to end:
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
view() { python3 "$here/viewcheck.py" "$@" | sed 's/^\(n*o*t* *ok - \)/\1color: /'; }

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
expect "map --color pollution (end: census 2)" 0 "" -- \
	"$fv" map census.dat --color pollution --format txt -o pol.txt
view pollution pol.txt census.json 1
# between the censuses (at snapshot 2) a block shows census 1
mid=$(fact census.json 'f["snapshots_at"][1]["at"]')
"$fv" map census.dat -c pollution --at "$mid" --format txt -o pol1.txt
view pollution pol1.txt census.json 0
grep -q "as of census 1 at $(fact census.json 'f["census"][0]["at"]') s" pol1.txt &&
	ok "pollution legend names census 1 and its time" ||
	nok "pollution legend" "$(grep 'as of' pol1.txt)"
# before the first census nothing is known
first=$(fact census.json 'f["snapshots_at"][0]["at"]')
"$fv" map census.dat -c pollution --at "$first" --format txt -o pol0.txt
grep -q "no census at or before the time drawn" pol0.txt &&
	[ "$(python3 -c "import sys; sys.path.insert(0, '$here')
import viewcheck; print(''.join(sorted(set(viewcheck.txt_glyphs(open('pol0.txt').read()).values()))))")" = "?" ] &&
	ok "pollution before the first census: every block '?'" ||
	nok "pollution before the first census" "$(tail -9 pol0.txt)"
# the census is later than the last snapshot: its free pages
"$fv" map census.dat --color free --format txt -o free.txt
view free free.txt census.json 1
# ansi draws the same cells
"$fv" map census.dat --color pollution --format ansi -o pol.ansi
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
		"$fv" map census.dat --color $c --format $f -o m.$f 2>err.txt
		rc=$?
		[ $rc = 0 ] && [ ! -s err.txt ] && [ -s m.$f ] ||
			nok "map --color $c --format $f" "status $rc" "$(cat err.txt)"
	done
done && ok "map: every view in txt, ansi, svg and html"
"$fv" map census.dat --color order --format html -o order.html
grep -q '"views":{"initial":"order"' order.html &&
	ok "html --color order: the page opens in the order view" ||
	nok "html --color order: initial view"
"$fv" map census.dat --color order --format svg -o order.svg
n=$(grep -c 'class="key"' order.svg)
[ "$n" = 13 ] && grep -q '>largest free order per block</text>' order.svg &&
	ok "svg order view: title and 13 legend keys" ||
	nok "svg order view legend" "$n keys"
"$fv" map census.dat --format txt -o type.txt
"$fv" map census.dat --color type --format txt -o type2.txt
cmp -s type.txt type2.txt && ok "--color type is the default map" ||
	nok "--color type differs from the default map"

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
grep -q "node 0 Normal: .* pages: $z" s.txt &&
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
expect "--color pollution without a census" 3 \
	"fragview: no mobility:pageblock_census events in mob.dat: --color pollution needs a census (echo 1 > /sys/kernel/debug/mobility/census while recording)" \
	-- "$fv" map mob.dat --color pollution
expect "--color steals without steal events" 3 \
	"fragview: no mobility:pageblock_steal events in v2.dat: --color steals needs them (record with -e mobility:pageblock_steal)" \
	-- "$fv" map v2.dat --color steals --format svg
expect "--color with an unknown view" 64 \
	"fragview: map: bad view 'heat' (want type, free, order, pollution or steals) (see 'fragview map --help')" \
	-- "$fv" map mob.dat --color heat
expect "--color without its value" 64 \
	"fragview: map: option '--color' needs a value (see 'fragview map --help')" \
	-- "$fv" map mob.dat --color
"$fv" map mob.dat --color pollution -o refused.txt 2>/dev/null
[ $? = 3 ] && [ ! -e refused.txt ] && ok "a refused view writes no file" ||
	nok "a refused view wrote a file"

# ---- a real guest capture with a census (tests/fixtures/make-fixtures.sh)
cap=$fixtures/v2-census.dat
if [ -e "$cap" ]; then
	for c in free order pollution steals; do
		expect "fixture v2-census.dat: --color $c" 0 "" -- \
			"$fv" map "$cap" --color $c --format txt -o fix-$c.txt
	done
	expect "fixture v2-census.dat: stats json" 0 "" -- \
		"$fv" stats "$cap" --format json -o fix.json
	python3 - fix.json fix-pollution.txt "$here" <<'PY' && ok "fixture v2-census.dat: pollution map and stats agree" || nok "fixture v2-census.dat: pollution map and stats disagree"
import json, sys
sys.path.insert(0, sys.argv[3])
import viewcheck
d = json.load(open(sys.argv[1]))["census"]
cells = viewcheck.txt_glyphs(open(sys.argv[2]).read())
polluted = sum(t["polluted"] for z in d["zones"] for t in z["block_types"].values())
drawn = sum(1 for g in cells.values() if g in "1234")
blocks = sum(z["blocks"] for z in d["zones"])
print("# fixture: %d blocks censused, %d polluted, %d drawn polluted" % (blocks, polluted, drawn))
sys.exit(0 if polluted == drawn and blocks > 0 else 1)
PY
fi
