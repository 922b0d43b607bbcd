#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# run.sh - the HTML map in headless Chromium.
#
# For the synthetic fixture and a trace.dat read by `fragview map` it writes
# the page, computes the expected type of every block at a few times from the
# txt map at those times, adds the checks of html/selftest.js to the page
# (fragview leaves test code out of what it writes), opens it with
# "#selftest;exp=TS:TYPES;..." (and "vexp=VIEW@TS:GLYPHS" for each colour
# view, from the txt map --view VIEW) and reads the PASS/FAIL lines the page writes
# into <pre id="selftest"> (--dump-dom), and "vsrc=VIEW@TS:..." for where the
# txt map says the view's cells come from.  Also checks the browser log for
# uncaught errors, that no change of a colour view leaves its cell as it was
# (tests/viewchanges.py), takes screenshots into out/html/ and measures a 1 M
# event capture.
#
# Prints "ok - ..." / "not ok - ..." lines, "# ..." notes, and ends with
# "N passed, N failed"; exits non-zero on any failure.  No Chromium is a
# failure, not a skip: install it with `apt-get install -y chromium`.
#
# Environment: FRAGVIEW_CAPTURE=trace.dat  check fragview map on it (default:
#                                         a synthetic tests/mkcapture.py one)
#              FRAGVIEW_HTML_BIG=0         leave out the 1 M event run
here=$(cd "$(dirname "$0")" && pwd)
fv=$(cd "$here/../.." && pwd)
top=$(cd "$fv/../.." && pwd)
out=$top/out/html
mkdir -p "$out"
pass=0
fail=0

ok() { echo "ok - html: $1"; pass=$((pass + 1)); }
not_ok() { echo "not ok - html: $1"; fail=$((fail + 1)); }
# nothing to check (e.g. a capture without flips): never counted as passed
skip() { echo "ok - html: $1 # SKIP $2"; skipped=$((skipped + 1)); }
finish() {
	echo "$pass passed, $fail failed${skipped:+, $skipped skipped}"
	[ "$fail" -eq 0 ]
	exit
}

chrome=$(command -v chromium || command -v chromium-browser)
if [ -z "$chrome" ]; then
	not_ok "chromium not installed (apt-get install -y chromium)"
	finish
fi
if ! make -s -C "$fv" tests/test_render >"$out/build.log" 2>&1; then
	not_ok "build tests/test_render (see $out/build.log)"
	finish
fi

# run_chrome LOG ARGS... - headless, isolated, no network side channels
run_chrome() {
	log=$1
	shift
	profile=$(mktemp -d)
	timeout 120 "$chrome" --headless --no-sandbox --disable-gpu \
		--disable-quic --no-first-run --disable-background-networking \
		--disable-component-update --disable-sync --hide-scrollbars \
		--user-data-dir="$profile" --enable-logging=stderr --v=0 \
		"$@" 2>"$log"
	rc=$?
	rm -rf "$profile"
	return $rc
}

# add_selftest HTML - put html/selftest.js into the page, before the page's
# own scripts (fragview.js runs the self-test at its end if it is defined):
# right after the JSON data, the first line that is just "</script>"
add_selftest() {
	awk -v js="$fv/html/selftest.js" '
		{ print }
		/^<\/script>$/ && !done {
			print "<script>"
			while ((getline line < js) > 0)
				print line
			print "</script>"
			done = 1
		}' "$1" >"$1.tmp" && mv "$1.tmp" "$1"
}

# selftest NAME HTML EXPFILE [CHROME ARGS] - open the page in self-test
# mode, report
selftest() {
	name=$1 html=$2 exp=$3
	shift 3
	hash="#selftest;$(tr '\n' ';' <"$exp" | sed 's/;$//')"
	start=$(date +%s%N)
	if ! run_chrome "$out/$name.log" "$@" --dump-dom "file://$html$hash" \
		>"$out/$name.dom"; then
		not_ok "$name: chromium failed (see $out/$name.log)"
		return
	fi
	end=$(date +%s%N)
	echo "# $name: chromium run (start, load, self-test, dump) $(( (end - start) / 1000000 )) ms"
	# the page's own report: the last <pre id="selftest"> of the DOM
	awk '/<pre id="selftest">/ { on = 1; buf = "" }
	     on { buf = buf $0 "\n" }
	     /<\/pre>/ && on { on = 0; last = buf }
	     END { printf "%s", last }' "$out/$name.dom" |
		sed 's/.*<pre id="selftest">//; s/<\/pre>.*//' >"$out/$name.selftest"
	if ! grep -q '^DONE ' "$out/$name.selftest"; then
		not_ok "$name: page wrote no self-test report (see $out/$name.log)"
		return
	fi
	# quiet: the caller judges the report itself
	[ -n "$selftest_quiet" ] && return
	while IFS= read -r line; do
		case $line in
		PASS\ *) ok "$name: ${line#PASS }" ;;
		FAIL\ *) not_ok "$name: ${line#FAIL }" ;;
		SKIP\ *)
			rest=${line#SKIP }
			skip "$name: ${rest%%: *}" "${rest#*: }" ;;
		INFO\ *) echo "# $name: ${line#INFO }" ;;
		esac
	done <"$out/$name.selftest"
	# errors the page did not catch itself
	if grep -E 'Uncaught|CONSOLE.*(Error|error)' "$out/$name.log" \
		>"$out/$name.errors"; then
		not_ok "$name: console errors: $(head -c 300 "$out/$name.errors")"
	else
		ok "$name: no console errors"
	fi
}

# screenshot NAME URL - a 1400x900 picture for people to look at
screenshot() {
	rm -f "$out/$1.png"
	run_chrome "$out/$1-shot.log" --window-size=1400,900 \
		--screenshot="$out/$1.png" "$2" >/dev/null
	if [ -s "$out/$1.png" ]; then
		ok "$1: screenshot $out/$1.png"
	else
		not_ok "$1: no screenshot (see $out/$1-shot.log)"
	fi
}

# --- the synthetic fixture (tests/test_render.c) ---
if "$fv/tests/test_render" --html "$out/fixture.html" >"$out/fixture.exp"; then
	add_selftest "$out/fixture.html"
	selftest fixture "$out/fixture.html" "$out/fixture.exp"
	# canvas pixels vs CSS pixels: a high-DPI screen
	selftest fixture-hidpi "$out/fixture.html" "$out/fixture.exp" \
		--force-device-scale-factor=2 --window-size=1400,900
	screenshot fixture "file://$out/fixture.html#b=20"
else
	not_ok "fixture: test_render --html failed"
fi

# --- the self-test must be able to fail: wrong expectations ---
if [ -s "$out/fixture.exp" ]; then
	# every block one type off at the middle time; the end time left alone
	sed -n 3p "$out/fixture.exp" | awk -F: '{
		s = "";
		for (i = 1; i <= length($2); i++)
			s = s ((substr($2, i, 1) + 1) % 7);
		print $1 ":" s }' >"$out/wrong.exp"
	sed -n 5p "$out/fixture.exp" >>"$out/wrong.exp"
	selftest_quiet=1 selftest wrong "$out/fixture.html" "$out/wrong.exp"
	if grep -q '^FAIL typesAt@' "$out/wrong.selftest" &&
	   grep -q '^FAIL cells@' "$out/wrong.selftest" &&
	   [ "$(grep -c '^FAIL' "$out/wrong.selftest")" -eq 2 ]; then
		ok "wrong: self-test catches wrong types (and only those)"
	else
		not_ok "wrong: self-test did not catch wrong types exactly (see $out/wrong.selftest)"
	fi
fi

# --- a capture without blocks: the page must still load cleanly ---
if "$fv/tests/test_render" --empty-html "$out/empty.html" >/dev/null; then
	add_selftest "$out/empty.html"
	echo "exp=0:" >"$out/empty.exp"
	selftest_quiet=1 selftest empty "$out/empty.html" "$out/empty.exp"
	if grep -q '^PASS no-js-errors' "$out/empty.selftest" &&
	   grep -q '^PASS one-cell-per-block' "$out/empty.selftest" &&
	   ! grep -qE 'Uncaught|CONSOLE.*(Error|error)' "$out/empty.log"; then
		ok "empty: page of an empty capture loads without errors"
	else
		not_ok "empty: page of an empty capture (see $out/empty.selftest)"
	fi
else
	not_ok "empty: test_render --empty-html failed"
fi

# --- real trace.dat files through the fragview command line ---
# capture_test NAME CAPTURE [TS...] - the page `fragview map` writes,
# against the types `fragview map --format txt --at T` prints at a third,
# two thirds and the end of the capture (and at each TS, trace ns), read
# by pfn (tests/cellpfn.py exp): a block the txt map leaves out is offline
capture_test() {
	name=$1 cap=$2
	shift 2
	if ! "$fv/fragview" map "$cap" --format html -o "$out/$name.html"; then
		not_ok "$name: fragview map $cap --format html failed"
		return
	fi
	# a colour view writes changes, not records: none repeats its cell
	if python3 "$fv/tests/viewchanges.py" check "$out/$name.html" \
		${capture_max_bytes:+--max-bytes $capture_max_bytes} \
		>"$out/$name.changes"; then
		ok "$name: no colour view change repeats its block's cell${capture_max_bytes:+, page < $capture_max_bytes bytes}"
	else
		not_ok "$name: $(grep -m1 '^not ok' "$out/$name.changes")"
	fi
	# what users get has no test code: the definition of the self-test,
	# or its longest line, would give it away
	longest=$(awk 'length > length(l) { l = $0 } END { print l }' \
		"$fv/html/selftest.js")
	if grep -q 'fragviewSelftest = function' "$out/$name.html" ||
	   grep -qF -- "$longest" "$out/$name.html"; then
		not_ok "$name: fragview map --format html output contains html/selftest.js"
	else
		ok "$name: fragview map --format html output has no self-test code"
	fi
	add_selftest "$out/$name.html"
	t0=$(sed -n 's/.*"t0":\([0-9]*\),"tEnd":\([0-9]*\).*/\1/p' "$out/$name.html")
	te=$(sed -n 's/.*"t0":\([0-9]*\),"tEnd":\([0-9]*\).*/\2/p' "$out/$name.html")
	: >"$out/$name.exp"
	num=0
	times=
	for ts in $((t0 + te / 3)) $((t0 + te * 2 / 3)) $((t0 + te)) "$@"; do
		num=$((num + 1))
		secs=$(printf '%d.%09d' $((ts / 1000000000)) $((ts % 1000000000)))
		if ! "$fv/fragview" map "$cap" --format txt --at "$secs" \
			-o "$out/$name-$num.txt"; then
			not_ok "$name: fragview map --format txt --at $secs failed"
			continue
		fi
		types=$(python3 "$fv/tests/cellpfn.py" exp "$out/$name-$num.txt" \
			"$out/$name.html")
		echo "exp=$ts:$types" >>"$out/$name.exp"
		# each colour view the capture has data for, the same way
		for view in free order pollution steals; do
			"$fv/fragview" map "$cap" --format txt --view $view \
				--at "$secs" -o "$out/$name-$num-$view.txt" \
				2>/dev/null || continue
			glyphs=$(python3 "$fv/tests/cellpfn.py" expglyphs \
				"$out/$name-$num-$view.txt" "$out/$name.html" |
				python3 -c 'import sys, urllib.parse
print(urllib.parse.quote(sys.stdin.read().strip(), safe=""))')
			echo "vexp=$view@$ts:$glyphs" >>"$out/$name.exp"
			src=$(python3 "$fv/tests/viewchanges.py" asof \
				"$out/$name-$num-$view.txt" | python3 -c 'import sys, urllib.parse
print(urllib.parse.quote(sys.stdin.read().strip(), safe=""))')
			echo "vsrc=$view@$ts:$src" >>"$out/$name.exp"
		done
		times="$times $ts"
	done
	# more expectations at the same times, from the function named
	# by $capture_more (called with the capture and the times)
	[ -n "$capture_more" ] && $capture_more "$cap" $times >>"$out/$name.exp"
	selftest "$name" "$out/$name.html" "$out/$name.exp"
}

# FRAGVIEW_CAPTURE, else synthetic ones from tests/mkcapture.py (real
# trace.dat files written by trace-cmd restore, with known content).
if ! make -s -C "$fv" fragview >"$out/build-fragview.log" 2>&1; then
	not_ok "capture: build fragview (see $out/build-fragview.log)"
elif [ -n "$FRAGVIEW_CAPTURE" ]; then
	capture_test capture "$FRAGVIEW_CAPTURE"
	screenshot capture "file://$out/capture.html"
elif ! python3 "$fv/tests/mkcapture.py" mobility "$out/mobility.dat" \
		--events 50000 >"$out/mkcapture.log" 2>&1 ||
     ! python3 "$fv/tests/mkcapture.py" lostflip "$out/lostflip.dat" \
		>>"$out/mkcapture.log" 2>&1; then
	not_ok "capture: tests/mkcapture.py failed (see $out/mkcapture.log)"
else
	capture_test capture "$out/mobility.dat"
	screenshot capture "file://$out/capture.html"
	if grep -q '^INFO check_mismatches 0$' "$out/capture.selftest"; then
		ok "capture: replay matches the last snapshot, nothing marked"
	else
		not_ok "capture: replay check marks blocks on a consistent capture"
	fi
	# one flip missing: the page must say so and mark a block
	capture_test lostflip "$out/lostflip.dat"
	if grep -q 'replay check: 1 block of' "$out/lostflip.dom" &&
	   grep -q '^INFO check_mismatches 1$' "$out/lostflip.selftest"; then
		ok "lostflip: page warns about and marks the block that lost a flip"
	else
		not_ok "lostflip: no warning or mark for the lost flip"
	fi
	# ABI v2: holes (one wider than a row), a block offline and online
	# in another zone; then the same with events dropped on two CPUs
	if python3 "$fv/tests/mkcapture.py" v2 "$out/v2.dat" \
		--facts "$out/v2.json" >>"$out/mkcapture.log" 2>&1 &&
	   python3 "$fv/tests/mkcapture.py" v2dropped "$out/v2dropped.dat" \
		>>"$out/mkcapture.log" 2>&1; then
		# also while a block is offline: a gap, type "none"
		capture_test v2 "$out/v2.dat" "$(python3 -c "import json, sys
print(json.load(open(sys.argv[1]))['offline_at'])" "$out/v2.json")"
		if grep -q "^exp=[0-9]*:[0-9]*7" "$out/v2.exp"; then
			ok "v2: one expected map has a block offline"
		else
			not_ok "v2: no expected map with a block offline"
		fi
		if grep -q 'WARNING: events are missing' "$out/v2.dom"; then
			not_ok "v2: warning banner on a complete capture"
		else
			ok "v2: no warning banner on a complete capture"
		fi
		capture_test v2dropped "$out/v2dropped.dat" 2>/dev/null
		if grep -q '^PASS viewcells@free@' "$out/v2.selftest" &&
		   ! grep -q '^PASS viewcells@pollution@' "$out/v2.selftest"; then
			ok "v2: free view checked, no pollution view without a census"
		else
			not_ok "v2: colour views checked wrongly (see $out/v2.selftest)"
		fi
		if grep -q 'id="fv-warn">WARNING: events are missing, the replay cannot be exact: 2 ring-buffer overruns' \
			"$out/v2dropped.dom" &&
		   grep -q 'lost events: CPU 1: the ring buffer dropped 5 events' \
			"$out/v2dropped.dom"; then
			ok "v2dropped: the page shows the lost-events banner"
		else
			not_ok "v2dropped: no lost-events banner on the page"
		fi
	else
		not_ok "v2: tests/mkcapture.py failed (see $out/mkcapture.log)"
	fi
fi

# --- colour views on a capture with censuses (tests/mkcapture.py census) ---
if python3 "$fv/tests/mkcapture.py" census "$out/census.dat" \
	>>"$out/mkcapture.log" 2>&1; then
	capture_test census "$out/census.dat"
	for view in free order pollution steals; do
		if [ "$(grep -c "^PASS viewcells@$view@" "$out/census.selftest")" = 3 ]; then
			ok "census: $view view painted as the txt map at 3 times"
		else
			not_ok "census: $view view not checked at 3 times"
		fi
	done
	# the page opens in the view --color asks for
	"$fv/fragview" map "$out/census.dat" --format html --view pollution \
		-o "$out/census-pol.html"
	add_selftest "$out/census-pol.html"
	selftest_quiet=1 selftest census-pol "$out/census-pol.html" "$out/census.exp"
	if grep -q '^PASS view-opened' "$out/census-pol.selftest" &&
	   grep -q '"views":{"initial":"pollution"' "$out/census-pol.html" &&
	   ! grep -q '^FAIL' "$out/census-pol.selftest"; then
		ok "census: --view pollution opens the page in that view"
	else
		not_ok "census: page of --view pollution (see $out/census-pol.selftest)"
	fi
	screenshot census-pollution "file://$out/census.html#c=pollution"
	# negative: every bucket of every view the same colour must fail
	python3 - "$out/census.html" "$out/samecolour.html" <<'PY'
import re, sys
page = open(sys.argv[1]).read()
head, views = page.split('"views":', 1)
views = re.sub(r'\[("[^"]*"),"#[0-9a-f]{6}",', r'[\1,"#777777",', views)
open(sys.argv[2], "w").write(head + '"views":' + views)
PY
	selftest_quiet=1 selftest samecolour "$out/samecolour.html" "$out/census.exp"
	if [ "$(grep -c '^FAIL viewcells@' "$out/samecolour.selftest")" -ge 4 ] &&
	   ! grep -q '^FAIL viewAt@' "$out/samecolour.selftest" &&
	   ! grep -q '^FAIL cells@' "$out/samecolour.selftest"; then
		ok "samecolour: a page painting every bucket alike fails (and only there)"
	else
		not_ok "samecolour: the self-test missed one-colour views (see $out/samecolour.selftest)"
	fi
	# negative: a page without the census counts must not say what a
	# block holds
	sed 's/"v":\(\[[^]]*\]\),"n":\[/"v":\1,"counts_gone":[/' "$out/census.html" \
		>"$out/nocounts.html"
	selftest_quiet=1 selftest nocounts "$out/nocounts.html" "$out/census.exp"
	if grep -q '^PASS view-details' "$out/census.selftest" &&
	   grep -q '^FAIL view-details' "$out/nocounts.selftest" &&
	   [ "$(grep -c '^FAIL' "$out/nocounts.selftest")" = 1 ]; then
		ok "nocounts: the details of a page without census counts fail (and only they)"
	else
		not_ok "nocounts: view-details did not tell (see $out/nocounts.selftest)"
	fi
	# negative: a wrong glyph in the expectations must fail the replay
	sed '/^vexp=pollution@/{s/:\(.\)/:%7E/;}' "$out/census.exp" >"$out/wrongview.exp"
	selftest_quiet=1 selftest wrongview "$out/census.html" "$out/wrongview.exp"
	if [ "$(grep -c '^FAIL viewAt@pollution' "$out/wrongview.selftest")" = 3 ] &&
	   [ "$(grep -c '^FAIL view' "$out/wrongview.selftest")" = 6 ]; then
		ok "wrongview: a wrong expected glyph fails viewAt and viewcells"
	else
		not_ok "wrongview: wrong expected glyphs not caught exactly (see $out/wrongview.selftest)"
	fi
	# negative: a change made twice (the page shows the same) must fail
	# tests/viewchanges.py, and a page that names the wrong records the
	# legend check
	line=$(python3 "$fv/tests/viewchanges.py" negative "$out/census.html")
	case $line in
	"ok - "*) ok "repeat: ${line#ok - }" ;;
	*) not_ok "repeat: ${line#not ok - }" ;;
	esac
	python3 "$fv/tests/viewchanges.py" doctor sources "$out/census.html" \
		"$out/wrongsrc.html"
	selftest_quiet=1 selftest wrongsrc "$out/wrongsrc.html" "$out/census.exp"
	if [ "$(grep -c '^FAIL viewsrc@' "$out/wrongsrc.selftest")" -ge 6 ] &&
	   [ "$(grep -c '^FAIL' "$out/wrongsrc.selftest")" = \
	     "$(grep -c '^FAIL viewsrc@' "$out/wrongsrc.selftest")" ]; then
		ok "wrongsrc: a page naming other records fails the legend check (and only it)"
	else
		not_ok "wrongsrc: viewsrc did not tell (see $out/wrongsrc.selftest)"
	fi
else
	not_ok "census: tests/mkcapture.py census failed (see $out/mkcapture.log)"
fi

# --- a ticker's capture: 3000 snapshots, 1 M events, most records the
# block's previous ones; the page holds only changes, and is checked at a
# time in the middle of a snapshot too ---
if [ "${FRAGVIEW_HTML_BIG:-1}" != 0 ]; then
	if python3 "$fv/tests/mkcapture.py" mobility "$out/ticker.dat" \
		--events 250000 --snapshots 3000 --facts "$out/ticker.json" \
		>>"$out/mkcapture.log" 2>&1; then
		mid=$(python3 -c "import json, sys
at = json.load(open(sys.argv[1]))['snapshots_at'][1500]['at']
s, ns = at.split('.')
print(int(s) * 10**9 + int(ns) - 100000)" "$out/ticker.json")
		capture_max_bytes=8000000
		capture_test ticker "$out/ticker.dat" "$mid"
		capture_max_bytes=
		echo "# ticker: page of $(python3 -c "import json, sys
print(json.load(open(sys.argv[1]))['events'])" "$out/ticker.json") events: $(stat -c %s "$out/ticker.html") bytes"
		# free, order and steals (no census) at 4 times
		if [ "$(grep -c '^PASS viewsrc@' "$out/ticker.selftest")" = 12 ]; then
			ok "ticker: every view's records named as the txt map at 4 times"
		else
			not_ok "ticker: viewsrc not checked at 4 times (see $out/ticker.selftest)"
		fi
	else
		not_ok "ticker: tests/mkcapture.py mobility --snapshots failed (see $out/mkcapture.log)"
	fi
fi

# --- a real capture with the steals' tasks and stacks: who did it ---
polluter=$top/tests/fixtures/v2-polluter.dat
if [ -z "$FRAGVIEW_CAPTURE" ] && [ -e "$polluter" ]; then
	capture_test polluter "$polluter"
	if grep -q '^PASS blame-panel' "$out/polluter.selftest"; then
		ok "polluter: the block details name fv-polluter, with its stack"
	else
		not_ok "polluter: no blame in the block details (see $out/polluter.selftest)"
	fi
	if grep -q 'class="fv-who">fv-polluter-' "$out/polluter.dom"; then
		ok "polluter: the page names fv-polluter"
	else
		not_ok "polluter: fv-polluter not on the page"
	fi
fi

# --- compaction: the overlay and the high-order timeline on a real
# capture of the compact scenario, against tests/compactcheck.py (what
# trace-cmd report says): blocks marked at each time, allocations drawn;
# a page with the scanner passes, or the allocations, taken out of its
# data must fail ---
compact_more() {
	c=$1
	shift
	for ts in "$@"; do
		echo "cmarks=$ts:$(python3 "$fv/tests/compactcheck.py" --marks "$c" 9 "$ts" |
			awk '{ print $2 ":" $4 ":" $6 }')"
	done
	echo "callocs=$(python3 "$fv/tests/compactcheck.py" --allocs "$c" 9 |
		awk '{ print $2 ":" $4 }')"
	# the first and the last failure, as fragview explain gives them
	"$fv/fragview" explain --format json "$c" | python3 -c '
import json, sys
ex = json.load(sys.stdin)["explanations"]
for e in ex[:1] + ex[-1:]:
    print("cexplain=%d:%s:%d" % (e["alloc"], e["cause"], len(e["nearest"])))'
}
cf=$top/tests/fixtures/v2-compact.dat
if [ -e "$cf" ]; then
	capture_more=compact_more
	capture_test compact "$cf"
	capture_more=
	# the overlay read back at device scale 2
	selftest compact-hidpi "$out/compact.html" "$out/compact.exp" \
		--force-device-scale-factor=2 --window-size=1400,900
	screenshot compact "file://$out/compact.html"
	# doctor KEY...: the page with those columns of D.compact emptied
	doctor() {
		python3 - "$out/compact.html" "$@" <<'PY'
import re, sys
page = open(sys.argv[1]).read()
for key in sys.argv[2:]:
    page, n = re.subn(r'"%s":\[[^\]]*\]' % key, '"%s":[]' % key, page)
    assert n == 1, key
sys.stdout.write(page)
PY
	}
	doctor scanT scanB scanLo scanHi scanF >"$out/compact-noscan.html"
	selftest_quiet=1 selftest compact-noscan "$out/compact-noscan.html" "$out/compact.exp"
	if grep -q '^FAIL compact-overlay@' "$out/compact-noscan.selftest" &&
	   grep -q '^PASS compact-timeline' "$out/compact-noscan.selftest"; then
		ok "compact-noscan: a page without the scanner passes fails the overlay check"
	else
		not_ok "compact-noscan: overlay check passed without scanner passes (see $out/compact-noscan.selftest)"
	fi
	doctor allocT allocO allocOk >"$out/compact-noalloc.html"
	selftest_quiet=1 selftest compact-noalloc "$out/compact-noalloc.html" "$out/compact.exp"
	if grep -q '^FAIL compact-timeline' "$out/compact-noalloc.selftest" &&
	   ! grep -q '^FAIL compact-overlay' "$out/compact-noalloc.selftest"; then
		ok "compact-noalloc: an empty timeline fails the timeline check"
	else
		not_ok "compact-noalloc: timeline check passed on an empty timeline (see $out/compact-noalloc.selftest)"
	fi
	# the explanations without their blocks: the outlines must fail
	python3 - "$out/compact.html" >"$out/compact-noexplain.html" <<'PY'
import re, sys
page = open(sys.argv[1]).read()
head, sep, tail = page.partition('"explain":[')
assert sep
sys.stdout.write(head + sep + re.sub(r'"blocks":\[[^\]]*\]', '"blocks":[]', tail))
PY
	selftest_quiet=1 selftest compact-noexplain "$out/compact-noexplain.html" "$out/compact.exp"
	if grep -q '^FAIL explain-click@' "$out/compact-noexplain.selftest" &&
	   ! grep -q '^FAIL compact-timeline' "$out/compact-noexplain.selftest"; then
		ok "compact-noexplain: explanations without their blocks fail the outline check"
	else
		not_ok "compact-noexplain: outline check passed without blocks (see $out/compact-noexplain.selftest)"
	fi
else
	not_ok "compact: no tests/fixtures/v2-compact.dat"
fi

# --- every view on a guest capture with censuses (tests/fixtures/) ---
guest=$top/tests/fixtures/v2-census.dat
if [ -z "$FRAGVIEW_CAPTURE" ] && [ -e "$guest" ]; then
	capture_test guest-census "$guest"
	n=0
	for view in free order pollution steals; do
		n=$((n + $(grep -c "^PASS viewcells@$view@" "$out/guest-census.selftest")))
	done
	if [ "$n" = 12 ]; then
		ok "guest-census: 4 views painted as the txt map at 3 times"
	else
		not_ok "guest-census: $n of 12 view checks passed (see $out/guest-census.selftest)"
	fi
fi

# --- 1 M events: size and speed (figures reported, not judged) ---
if [ "${FRAGVIEW_HTML_BIG:-1}" != 0 ]; then
	start=$(date +%s%N)
	if "$fv/tests/test_render" --big-html "$out/big.html" >"$out/big.exp"; then
		end=$(date +%s%N)
		size=$(stat -c %s "$out/big.html")
		echo "# big: model of 1 M events + HTML written in $(( (end - start) / 1000000 )) ms, $size bytes"
		add_selftest "$out/big.html"
		if [ "$size" -lt 10000000 ]; then
			ok "big: page of 1 M events is $((size / 1024)) KiB (< 10 MB)"
		else
			not_ok "big: page of 1 M events is $size bytes (>= 10 MB)"
		fi
		selftest big "$out/big.html" "$out/big.exp"
		screenshot big "file://$out/big.html"
	else
		not_ok "big: test_render --big-html failed"
	fi
fi
finish
