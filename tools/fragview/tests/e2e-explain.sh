#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# End-to-end tests of "fragview explain": the failures of real captures
# (tests/fixtures/v2-compact.dat, v2-explain-{pinned,locked,pcp}.dat) explained as the
# report oracle (tests/host/explain.py) finds them, which must reject
# doctored answers; --alloc, --at and the txt form; bad arguments and captures
# that cannot answer, with their exact lines and exit codes.
# Prints "ok - ..." / "not ok - ...".
#
# usage: tests/e2e-explain.sh [FRAGVIEW]    (e2e.sh runs it)
set -u
here=$(cd "$(dirname "$0")" && pwd)
fv=$(realpath "${1:-$here/../fragview}")
top=$here/../../..
fixtures=$top/tests/fixtures
cap=$fixtures/v2-compact.dat
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"

# shellcheck source=tools/fragview/tests/e2e-lib.sh
. "$here/e2e-lib.sh"

oracle() {
	python3 "$top/tests/host/explain.py" --report "$cap" --name "$@" 2>&1
}

# Runs the oracle on a doctored JSON (with $reject_args); it must fail.
reject_args=()
reject() {
	local name=$1 doctor=$2
	python3 -c "import json,sys; d=json.load(open('good.json')); $doctor; json.dump(d, open('bad.json','w'))"
	if oracle "$name" --json bad.json "${reject_args[@]}" >oracle.txt; then
		nok "explain.py rejects $name" "$(grep 'not ok' oracle.txt | head -2)"
	else
		ok "explain.py rejects $name"
	fi
}

if [ -e "$cap" ]; then
	out=$(oracle v2-compact.dat --fragview "$fv" --min-failures 50 \
		--expect no-free-memory --task fragmenter)
	rc=$?
	echo "$out" | sed 's/^\(n*o*t* *ok\) [0-9]* - /\1 - /'
	[ $rc = 0 ] || nok "explain.py on v2-compact.dat: exit $rc"
	"$fv" explain --format json "$cap" > good.json 2>/dev/null
	reject "a cause changed" "d['explanations'][0]['cause'] = 'pinned'"
	reject "a failure dropped" "d['explanations'].pop(); d['failed_allocations'] -= 1"
	reject "a failure moved" "d['explanations'][3]['ts_ns'] += 5000"
	reject "a field the schema lacks" "d['explanations'][0]['extra'] = 1"
	reject "the planted cause missed" \
		"[e.update(cause='no-compaction') for e in d['explanations'][:10]]"

	# one allocation, its sections, the JSON of one
	expect "explain --alloc 237: exit 0, nothing on stderr" 0 "" -- \
		"$fv" explain "$cap" --alloc 237
	grep -qx "  verdict (no-free-memory): not enough free memory: 2169 free pages (figures up to 4.44 s old), room for 4 order-9 pages if unfragmented; compaction_suitable said skipped: free pages under the watermark plus compaction's gap" out.txt &&
		grep -qx "    try_to_compact_pages: priority 2" out.txt &&
		grep -qx "    free pages 2169, figures 4.43 s to 4.44 s old (237 blocks since taken by high-order allocations)" out.txt &&
		ok "explain --alloc 237: verdict, figures with their age, compaction" ||
		nok "explain --alloc 237" "$(sed -n 4,6p out.txt)"
	expect "explain --at +4: exit 0" 0 "" -- "$fv" explain "$cap" --at +4 --format json
	[ "$(jget out.txt "d['explanations'][0]['cause'], d['hypothetical'], len(d['explanations'][0]['nearest'])")" = "none True 8" ] &&
		ok "explain --at: a hypothetical allocation, 8 nearest blocks" ||
		nok "explain --at" "$(head -c 300 out.txt)"

	# a capture's name is not text: the txt output stays valid UTF-8
	ln -s "$cap" $'bad\xff.dat'
	"$fv" explain $'bad\xff.dat' --alloc 237 > name.txt 2>/dev/null
	python3 -c 'import sys; open(sys.argv[1], "rb").read().decode("utf-8")' name.txt 2>/dev/null &&
		grep -q "^fragview explain: bad.*\.dat$" name.txt &&
		ok "explain: a capture named with byte 0xff, valid UTF-8 txt" ||
		nok "explain: capture name with 0xff" "$(head -1 name.txt | od -c | head -2)"

	# requests it cannot answer
	expect "explain --alloc of a successful allocation: exit 3" 3 \
		"fragview: $cap: --alloc 0 is not a failed allocation of order >= 9 (the capture has 422 high-order allocations; fragview compact --timeline lists them)" -- \
		"$fv" explain "$cap" --alloc 0
fi

python3 "$here/mkcapture.py" mobility mob.dat 2>/dev/null
expect "explain without kmem:mm_page_alloc: exit 3" 3 \
	"fragview: mob.dat: no kmem:mm_page_alloc in this capture: no allocation to explain (--at TIME explains a hypothetical one)" -- \
	"$fv" explain mob.dat
expect "explain --at without kmem:mm_page_alloc: exit 0" 0 "" -- \
	"$fv" explain mob.dat --at +0
expect "explain --at and --alloc: exit 64" 64 \
	"fragview: explain: --at and --alloc exclude each other (see 'fragview explain --help')" -- \
	"$fv" explain mob.dat --at +1 --alloc 2
expect "explain --format csv: exit 64" 64 \
	"fragview: explain: unknown format 'csv' (one of txt|json) (see 'fragview explain --help')" -- \
	"$fv" explain mob.dat --format csv
expect "explain --order 40: exit 64" 64 \
	"fragview: explain: bad order '40' (want a whole number from 0 to 20) (see 'fragview explain --help')" -- \
	"$fv" explain mob.dat --order 40
expect "explain --from: refused with the reason, exit 64" 64 \
	"fragview: explain: --from does not apply here: each failure is explained by the capture up to it; --alloc or --at picks one (see 'fragview explain --help')" -- \
	"$fv" explain mob.dat --from 1
expect "explain -o x.svg: a suffix explain cannot write, exit 64" 64 \
	"fragview: explain: unknown format 'svg' (the suffix of -o) (one of txt|json) (see 'fragview explain --help')" -- \
	"$fv" explain mob.dat --at +0 -o x.svg
# -i FILE and -o's suffix as every command takes them
"$fv" explain -i mob.dat --at +0 -o at.json 2>/dev/null &&
	[ "$(jget at.json "d['hypothetical']")" = True ] &&
	ok "explain -i FILE -o at.json: JSON by the suffix" ||
	nok "explain -i FILE -o at.json" "$(head -c 200 at.json 2>&1)"

# a planted cause (qemu/guest/scenarios/explain.sh, pinned): every block
# of node 0 holding pipe pages of fv-holder; who polluted each block
pin=$fixtures/v2-explain-pinned.dat
if [ -e "$pin" ]; then
	cap=$pin
	reject_args=(--expect pinned --task highalloc --culprit fv-holder)
	out=$(oracle v2-explain-pinned.dat --fragview "$fv" --min-failures 10 \
		"${reject_args[@]}")
	rc=$?
	echo "$out" | sed 's/^\(n*o*t* *ok\) [0-9]* - /\1 - /'
	[ $rc = 0 ] || nok "explain.py on v2-explain-pinned.dat: exit $rc"
	"$fv" explain --format json "$cap" > good.json 2>/dev/null
	first="[n for e in d['explanations'] for n in e['nearest'] if n['polluted_by']][0]['polluted_by']"
	reject "a block's polluter of another pid" "$first['pid'] += 1"
	reject "a block's polluter dropped" \
		"next(n for e in d['explanations'] for n in e['nearest'] if n['polluted_by']).update(polluted_by=None)"
	reject "an older steal named as a block's polluter" "$first['ts_ns'] -= 1000000"
	reject "a steal named as a flip" "$first['kind'] = 'flip'"
	reject "the pinned culprit of another task" \
		"[e['culprit'].update(comm='highalloc') for e in d['explanations'] if e['culprit']]"
	reject_args=()
	"$fv" explain "$cap" > pin.txt 2>/dev/null
	n=$(grep -c "^  verdict (pinned): no free order-9 block; .* pinned by unmovable pages from pipe_write (fv-holder-[0-9]*); compaction " pin.txt)
	[ "$n" -ge 10 ] &&
		ok "explain txt: $n verdicts name the pipe pages of fv-holder" ||
		nok "explain txt pinned verdicts" "$(grep -m 2 verdict pin.txt)"
	cap=$fixtures/v2-compact.dat
else
	nok "no tests/fixtures/v2-explain-pinned.dat"
fi

# the two planted pins that are not unmovable pages: mlocked pages under
# compact_unevictable_allowed=0 (locked), free pages on a per-cpu list
# (pcp); each capture's verdicts name its cause, the other's is rejected
for planted in locked:migration-failed:per-cpu-lists:"held by movable pages compaction did not move" \
	       pcp:per-cpu-lists:migration-failed:"held by free pages on per-cpu lists"; do
	IFS=: read -r name cause other phrase <<<"$planted"
	cap=$fixtures/v2-explain-$name.dat
	if [ ! -e "$cap" ]; then
		nok "no tests/fixtures/v2-explain-$name.dat"
		continue
	fi
	out=$(oracle "v2-explain-$name.dat" --fragview "$fv" --min-failures 10 \
		--expect "$cause" --task highalloc)
	rc=$?
	echo "$out" | sed 's/^\(n*o*t* *ok\) [0-9]* - /\1 - /'
	[ $rc = 0 ] || nok "explain.py on v2-explain-$name.dat: exit $rc"
	"$fv" explain --format json "$cap" > good.json 2>/dev/null
	reject_args=(--expect "$other" --task highalloc)
	reject "$other as the cause of the $name capture" "pass"
	reject_args=(--expect "$cause" --task highalloc)
	reject "the $name capture's causes changed to pinned" \
		"[e.update(cause='pinned') for e in d['explanations'][::2]]"
	reject_args=()
	"$fv" explain "$cap" > "$name.txt" 2>/dev/null
	n=$(grep -c "^  verdict ($cause): no free order-9 block; .* of the 8 nearest to free $phrase" "$name.txt")
	[ "$n" -ge 10 ] &&
		ok "explain txt: $n verdicts of the $name capture say $cause" ||
		nok "explain txt $name verdicts" "$(grep -m 2 verdict "$name.txt")"
done
cap=$fixtures/v2-compact.dat

# the recorder's zone lines (zonemark.h): each zone's latest at or before
# T, its age; other marker lines skipped; none in the capture: null
if python3 "$here/mkcapture.py" v2 zm.dat --facts zm.json --zone-marks 2>/dev/null &&
   python3 "$here/mkcapture.py" v2 nozm.dat 2>/dev/null; then
	at=$(jget zm.json "d['snapshots_at'][1]['at']")
	"$fv" explain zm.dat --at "$at" --format json > zm.out 2>/dev/null
	python3 - zm.json zm.out "$at" \
		"$here/../Documentation/fragview-explain.schema.json" > zm.check 2>&1 <<'PY'
import json, sys
facts, out = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
s, ns = sys.argv[3].split('.')
t = int(s) * 10**9 + int(ns)
zones = out['explanations'][0]['zones']
assert len(zones) == 3, zones
for z in zones:
    want = [m for m in facts['zone_marks'] if m['zone'] == z['zone'] and m['ts'] <= t][-1]
    got = z['watermarks']
    for k in ('min', 'low', 'high', 'boost', 'free', 'managed'):
        assert got[k] == want[k], (z['zone'], k, got[k], want[k])
    assert got['age_ns'] == t - want['ts'], (z['zone'], got['age_ns'], t - want['ts'])
import jsonschema
jsonschema.validate(out, json.load(open(sys.argv[4])))
print('ok')
PY
	[ "$(cat zm.check)" = ok ] &&
		ok "explain --at: each zone's latest zone line before T, with its age, JSON per schema" ||
		nok "explain zone lines" "$(tail -n 2 zm.check)"
	"$fv" explain zm.dat --at "$at" > zm.txt 2>/dev/null
	grep -q "^    watermarks: min 201 low 226 high 251 (boost 1), zone free 2001 of 131072 managed (zoneinfo, " zm.txt &&
		ok "explain txt: the zone's watermarks and zoneinfo's free pages" ||
		nok "explain txt watermarks" "$(grep watermarks zm.txt | head -3)"
	"$fv" explain nozm.dat --at "$at" --format json > nozm.out 2>/dev/null
	[ "$(jget nozm.out "[z['watermarks'] for z in d['explanations'][0]['zones']]")" = "[None, None, None]" ] &&
		ok "explain: no zone lines, watermarks null" ||
		nok "explain no zone lines" "$(head -c 300 nozm.out)"
else
	nok "tests/mkcapture.py v2 --zone-marks"
fi
