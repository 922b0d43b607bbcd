# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2154
# e2e-declined.sh - claims try_to_steal_block() declined (pageblock_steal
# taken=0, series v3 patch 12, written by 6.12), end to end: a capture
# with them is the capture without them (tests/mkcapture.py mobility,
# e2e.sh's mob.dat) plus a count of its own in stats; no map, blame or
# steal count sees them; check holds them to the ABI.  mob.dat has no
# taken field, as every committed fixture: it reads taken=1.
# Sourced by tests/e2e.sh in its scratch directory (uses its $fv, $here,
# mk, fact, jget, expect, ok, nok, and mob.dat, mob.json).

# e2e_declined: the checks, run in the caller's scratch directory
e2e_declined() {
	local n got want caps v at

	mk mobility dec.dat --declined --facts dec.json &&
		mk mobility dxf.dat --declined --extfrag --facts dxf.json ||
		nok "declined: mkcapture.py --declined"
	n=$(fact dec.json 'f["declined"]')

	# ---- stats: steals as without them, the declined claims apart
	expect "declined: stats json of a capture without taken" 0 "" \
		-- "$fv" stats mob.dat -f json -o mob-d.json
	got=$(jget mob-d.json "(d['steals']['total'], d['claims_declined'])")
	want="($(fact mob.json 'f["steals"]'), {'total': 0, 'rows': []})"
	[ "$got" = "$want" ] &&
		ok "declined: no taken field: every steal taken, 0 declined $got" ||
		nok "declined: no taken field" "got  $got" "want $want"
	expect "declined: stats json" 0 "" -- "$fv" stats dec.dat -f json -o dec-s.json
	got=$(jget dec-s.json "(d['steals']['total'], d['steals']['claimed'])")
	want=$(fact mob.json '(f["steals"], f["claimed"])')
	[ "$n" -gt 0 ] && [ "$got" = "$want" ] &&
		ok "declined: $n declined claims are no steals: steals, claimed $got as without them" ||
		nok "declined: steals" "got  $got" "want $want ($n declined)"
	got=$(jget dec-s.json "(d['claims_declined']['total'], sorted('%s>%s=%d' % (r['alloc_mt'], r['block_mt'], r['count']) for r in d['claims_declined']['rows']))")
	want=$(fact dec.json '(f["declined"], sorted("%s=%d" % kv for kv in f["declined_pairs"].items()))')
	[ "$got" = "$want" ] &&
		ok "declined: stats json claims_declined by (allocation, block type)" ||
		nok "declined: stats json claims_declined" "got  $got" "want $want"
	[ "$(jget dec-s.json "d['events']['steal']")" = $(($(fact mob.json 'f["steals"]') + n)) ] &&
		ok "declined: stats json events: every pageblock_steal record" ||
		nok "declined: events" "$(jget dec-s.json "d['events']")"
	"$fv" stats dec.dat > dec.txt
	grep -qx "Claims declined (nothing taken): $n" dec.txt &&
		grep -q "^  allocation   from block       steals    claimed   declined$" dec.txt &&
		[ "$(awk '/ declined$/ { on = 1; next } /most frequent/ { on = 0 } on { s += $5 } END { print s }' dec.txt)" = "$n" ] &&
		ok "declined: stats txt headline and per pair column" ||
		nok "declined: stats txt" "$(sed -n '3,8p' dec.txt)"
	"$fv" stats mob.dat | grep -qx "Claims declined (nothing taken): 0" &&
		ok "declined: stats txt says 0 without the field" || nok "declined: stats txt 0"
	"$fv" stats dec.dat -f csv > dec.csv
	[ "$(awk -F, '$1 == "claim_declined" { s += $14 } END { print s }' dec.csv)" = "$n" ] &&
		[ "$(awk -F, '$1 == "steal" { s += $14 } END { print s }' dec.csv)" = "$(fact mob.json 'f["steals"]')" ] &&
		! "$fv" stats mob.dat -f csv | grep -q "^claim_declined," &&
		ok "declined: stats csv claim_declined rows" ||
		nok "declined: stats csv" "$(grep -m3 '^claim_declined' dec.csv)"

	# ---- a compaction capture's lone extfrag right after a declined
	# claim: the claim took nothing, so the extfrag is no steal's: it counts
	expect "declined: stats json with extfrag" 0 "" -- "$fv" stats dxf.dat -f json -o dxf-s.json
	got=$(jget dxf-s.json "(d['steals']['total'], d['claims_declined']['total'])")
	want=$(fact dxf.json '(f["steals"], f["declined"])')
	caps=$(fact dxf.json 'f["captures"]')
	[ "$got" = "$want" ] && [ "$caps" -gt 0 ] &&
		ok "declined: $caps captures right after a declined claim count as steals $got" ||
		nok "declined: extfrag after a declined claim" "got  $got" "want $want"

	# ---- map and blame: as without them
	for v in "--view steals -f txt" "-f svg" "--view steals -f svg"; do
		# shellcheck disable=SC2086
		"$fv" map mob.dat $v 2>/dev/null | sed 's/mob\.dat/X/g' > m-mob
		# shellcheck disable=SC2086
		"$fv" map dec.dat $v 2>/dev/null | sed 's/dec\.dat/X/g' > m-dec
		[ -s m-mob ] && cmp -s m-mob m-dec &&
			ok "declined: map $v as without them" ||
			nok "declined: map $v" "$(diff m-mob m-dec | head -4)"
	done
	"$fv" blame mob.dat -f json -o b-mob.json 2>/dev/null
	"$fv" blame dec.dat -f json -o b-dec.json 2>/dev/null
	got=$(jget b-dec.json "(d['steals'], d['groups'])")
	[ -n "$got" ] && [ "$got" = "$(jget b-mob.json "(d['steals'], d['groups'])")" ] &&
		ok "declined: blame as without them" || nok "declined: blame" "$got"

	# ---- check: exact; a declined claim that claimed is impossible, exit 1
	expect "declined: check exits 0" 0 "" -- "$fv" check dec.dat
	at=$(fact dec.json 'f["declined_at"]')
	python3 "$here/doctor.py" dec.dat dec-bad.dat set pageblock_steal "$at" claimed 1 >/dev/null
	expect_line "declined: check: taken=0 with claimed=1 is impossible, exit 1" 1 \
		'^check: impossible event: steal on CPU 0 at [0-9.]* s: taken=0 with claimed=1 \(a declined claim claims no block\)$' \
		-- "$fv" check dec-bad.dat
	e2e_declined_bases
}

# e2e_declined_bases: the same workload on both bases reads the same
# (tests/fixtures/v3-polluter.dat on 6.1, v612-v3-polluter.dat on 6.12;
# make-fixtures.sh --v3-polluter [--kernel 6.12]).  A steal is a page
# taken by fallback on both, each followed by its mm_page_alloc_extfrag
# (tracepoints/per-base.md): fragview's steals are the report's taken
# steals and its extfrag records of them; the declined claims, 6.12's
# alone, are its taken=0 records; check passes; and fv-polluter, the
# planted culprit, leads blame by steals, its top site pipe_write.
e2e_declined_bases() {
	local b cap base rep got want declines_as_base
	for b in v3-polluter:6.1 v612-v3-polluter:6.12; do
		cap=$fixtures/${b%%:*}.dat base=${b##*:}
		[ -e "$cap" ] || { nok "bases: $cap is committed"; continue; }
		trace-cmd report -i "$cap" 2>/dev/null > rep.txt
		rep=$(awk '/ pageblock_steal: .* taken=1$/ { t++ } / pageblock_steal: .* taken=0$/ { d++ }
			/ mm_page_alloc_extfrag: / { x++ } END { printf "%d %d %d", t, d, x }' rep.txt)
		"$fv" stats "$cap" -f json -o bases.json 2>/dev/null
		got=$(jget bases.json "'%d %d' % (d['steals']['total'], d['claims_declined']['total'])")
		want=$(awk '{ print $1, $2 }' <<<"$rep")
		# 6.1 declines nothing, 6.12's polluter does
		case $base:$(awk '{ print ($2 > 0) }' <<<"$rep") in
		6.1:0|6.12:1) declines_as_base=yes ;;
		*) declines_as_base=no ;;
		esac
		[ "$got" = "$want" ] && [ "${rep%% *}" -gt 0 ] &&
			[ "$(awk '{ print $1 }' <<<"$rep")" = "$(awk '{ print $3 }' <<<"$rep")" ] &&
			[ $declines_as_base = yes ] &&
			ok "bases: $base polluter: steals = taken=1 records = extfrag records, declined = taken=0 records (taken, declined, extfrag: $rep)" ||
			nok "bases: $base polluter steals, declined" "fragview $got" "report $rep"
		expect "bases: $base polluter: check exits 0" 0 "" -- "$fv" check "$cap"
		"$fv" blame "$cap" -f json -o bases-b.json 2>/dev/null
		got=$(jget bases-b.json "(d['groups'][0]['task']['comm'], d['groups'][0]['top_stack']['site'])")
		[ "$got" = "('fv-polluter', 'pipe_write')" ] &&
			ok "bases: $base polluter: fv-polluter in pipe_write leads blame" ||
			nok "bases: $base polluter blame" "$got"
	done
}
