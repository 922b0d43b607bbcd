#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# End-to-end tests of "fragview blame": the real polluter capture
# (tests/fixtures/v2-polluter.dat, make-blame-fixture.sh) ranked as the
# independent report oracle ranks it (tests/host/blame.py), its sites and
# formats, the stats section; captures without stacks, stock-kernel
# captures and bad arguments with their exact lines and exit codes.
# Prints "ok - ..." / "not ok - ...".
#
# usage: tests/e2e-blame.sh [FRAGVIEW]    (e2e.sh runs it)
set -u
here=$(cd "$(dirname "$0")" && pwd)
fv=$(realpath "${1:-$here/../fragview}")
top=$here/../../..
fixtures=$top/tests/fixtures
pol=$fixtures/v2-polluter.dat
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"

# shellcheck source=tools/fragview/tests/e2e-lib.sh
. "$here/e2e-lib.sh"

# stats' polluters are blame's first five by task and by site, number
# for number, and its totals blame's (stats counts, blame keeps records)
same_top5() {	# CAPTURE
	"$fv" stats "$1" --format json > top-stats.json 2>/dev/null || return 1
	for by in task site; do
		"$fv" blame "$1" --by $by --top 5 --format json \
			> top-blame.json 2>/dev/null || return 1
		python3 - "$by" <<'PY' || return 1
import json, sys
by = sys.argv[1]
cols = ('rank', 'key', 'steals', 'polluted', 'claimed', 'flips', 'events')
s = json.load(open('top-stats.json'))['polluters']
b = json.load(open('top-blame.json'))
assert s[by] and [[g[c] for c in cols] for g in s[by]] == \
    [[g[c] for c in cols] for g in b['groups']], (s[by], b['groups'])
totals = ('steals', 'extfrag', 'flips', 'with_stack')
assert [s[t] for t in totals] == [b[t] for t in totals]
PY
	done
}

python3 "$here/mkcapture.py" none none.dat 2>/dev/null
python3 "$here/mkcapture.py" mobility mob.dat 2>/dev/null

# ---- the real polluter capture
if [ -e "$pol" ]; then
	# the report oracle, with fragview checked against it
	mkdir -p pol && ln -s "$pol" pol/trace.dat
	out=$(python3 "$top/tests/host/blame.py" pol --name v2-polluter.dat \
		--min-steals 20 --fragview "$fv" 2>&1)
	rc=$?
	echo "$out" | sed 's/^\(n*o*t* *ok\) [0-9]* - /\1 - /'
	[ $rc = 0 ] || nok "blame.py on v2-polluter.dat: exit $rc"
	expect "blame --by site: exit 0, nothing on stderr" 0 "" -- \
		"$fv" blame "$pol" --by site --top 1
	grep -qE '^ +1 +[0-9]+ +[0-9]+ +[0-9]+ +[0-9]+  pipe_write$' out.txt &&
		grep -q '^        > pipe_write+0x' out.txt &&
		ok "blame --by site: pipe_write first, its frame marked" ||
		nok "blame --by site" "$(head -8 out.txt)"
	[ "$(grep -cE '^ +[0-9]+ +[0-9]+ ' out.txt)" = 1 ] &&
		ok "blame --top 1: one row" || nok "blame --top 1" "$(cat out.txt)"
	expect "blame --by stack --format json" 0 "" -- \
		"$fv" blame "$pol" --by stack --format json --top 0
	cp out.txt stack.json
	[ "$(jget stack.json 'sum(g["steals"] for g in d["groups"])')" = \
	  "$(jget stack.json 'd["steals"]')" ] &&
	[ "$(jget stack.json 'len(d["groups"])')" = "$(jget stack.json 'd["groups_total"]')" ] &&
		ok "blame json: the stacks' steals add up to the capture's" ||
		nok "blame json totals" "$(head -c 300 stack.json)"
	expect "blame --format csv" 0 "" -- "$fv" blame "$pol" --format csv --top 0
	python3 - out.txt <<'PY' && ok "blame csv: 14 columns a row, the top task first" ||
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
assert rows[0][:4] == ['by', 'rank', 'key', 'steals'] and len(rows) > 1
assert all(len(r) == 14 for r in rows), [len(r) for r in rows]
assert rows[1][2].startswith('fv-polluter-') and 'pipe_write' in rows[1][13]
PY
		nok "blame csv" "$(head -3 out.txt)"
	expect "stats: the capture with tasks" 0 "" -- "$fv" stats "$pol"
	grep -A2 '^top polluters' out.txt | grep -q ' fv-polluter-[0-9]*$' &&
		grep -qE '^  1 +[0-9]+ +[0-9]+ +[0-9]+ +[0-9]+  pipe_write$' out.txt &&
		ok "stats: top polluters, fv-polluter and pipe_write first" ||
		nok "stats top polluters" "$(grep -A10 '^top polluters' out.txt)"
	"$fv" stats "$pol" --format json > stats.json
	[ "$(jget stats.json 'd["polluters"]["task"][0]["task"]["comm"]')" = fv-polluter ] &&
		ok "stats json: polluters" || nok "stats json polluters"
	same_top5 "$pol" && ok "stats: the polluters are blame's top 5" ||
		nok "stats polluters are not blame's top 5"
	expect "blame -o /dev/full" 4 \
		"fragview: /dev/full: write failed: No space left on device" -- \
		"$fv" blame "$pol" -o /dev/full
	python3 "$here/mutate.py" "$fv" "$pol" 60 | tail -1 |
		sed "s/^\(n*o*t* *ok - \)/\1v2-polluter.dat: /"
else
	nok "fixture v2-polluter.dat missing (tests/fixtures/make-blame-fixture.sh)"
fi

# ---- what a capture lacks
expect "blame: none of our events" 3 \
	"fragview: none.dat: no mobility or kmem/migrate events in this capture" -- \
	"$fv" blame none.dat
expect "blame --by task without stacks: a warning, exit 0" 0 \
	"fragview: mob.dat: no kernel stacks after the steals and flips (trace-cmd record ... -e EVENT -R stacktrace): tasks only" -- \
	"$fv" blame mob.dat
expect "blame --by site without stacks: exit 3" 3 \
	"fragview: mob.dat: no kernel stacks after the steals and flips: --by site needs them (trace-cmd record ... -e EVENT -R stacktrace)" -- \
	"$fv" blame mob.dat --by site
expect "blame --by stack without stacks: exit 3" 3 \
	"fragview: mob.dat: no kernel stacks after the steals and flips: --by stack needs them (trace-cmd record ... -e EVENT -R stacktrace)" -- \
	"$fv" blame mob.dat --by stack
f=$fixtures/stock-fragment.dat
if [ -e "$f" ]; then
	expect "blame on a stock-kernel capture says what is missing" 0 \
		"fragview: $f: stock-kernel capture: fallbacks from kmem:mm_page_alloc_extfrag ('claimed' is change_ownership); no block type changes (pageblock_flip) to attribute
fragview: $f: no kernel stacks after the steals and flips (trace-cmd record ... -e EVENT -R stacktrace): tasks only" -- \
		"$fv" blame "$f"
	grep -q '^[0-9]* fallbacks (kmem:mm_page_alloc_extfrag), 0 flips' out.txt &&
		ok "blame on a stock-kernel capture: extfrag fallbacks ranked" ||
		nok "blame stock" "$(head -3 out.txt)"
fi
f=$fixtures/stock-polluter.dat
if [ -e "$f" ]; then
	expect "blame on a stock-kernel capture with stacks" 0 \
		"fragview: $f: stock-kernel capture: fallbacks from kmem:mm_page_alloc_extfrag ('claimed' is change_ownership); no block type changes (pageblock_flip) to attribute" -- \
		"$fv" blame "$f" --by site --top 1
	grep -qE '^ +1 .*  pipe_write$' out.txt &&
		ok "blame on a stock-kernel capture: extfrag stacks give pipe_write" ||
		nok "blame stock stacks" "$(head -8 out.txt)"
	same_top5 "$f" &&
		ok "stats on a stock-kernel capture: the polluters are blame's top 5" ||
		nok "stats polluters (stock) are not blame's top 5"
fi
f=$fixtures/idle.dat
if [ -e "$f" ]; then
	expect "blame: no steal or flip, exit 0" 0 "" -- "$fv" blame "$f"
	grep -qx '(no steals or flips in this capture)' out.txt &&
		ok "blame: says there is nothing" || nok "blame idle" "$(cat out.txt)"
fi

# ---- usage errors
expect "blame --by bogus" 64 \
	"fragview: blame: bad grouping 'bogus' (want stack, task or site) (see 'fragview blame --help')" -- \
	"$fv" blame mob.dat --by bogus
expect "blame --top -1" 64 \
	"fragview: blame: bad count '-1' (want a whole number from 0 to 1000000) (see 'fragview blame --help')" -- \
	"$fv" blame mob.dat --top -1
expect "blame --format svg" 64 \
	"fragview: blame: unknown format 'svg' (one of txt|csv|json) (see 'fragview blame --help')" -- \
	"$fv" blame mob.dat --format svg
