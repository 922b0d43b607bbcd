#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# End-to-end tests of the two ways a capture records migrations (series
# v3 patch 11, migform.h): the default recording (migrate_folio_failed,
# migrate_pass, migrate:mm_migrate_pages, no migrate_folio) and one with
# migrate_folio recorded on purpose as well, where every failure is
# there twice.  tests/mkcapture.py writes the same migrate_pages() calls
# in both forms (--migrate), with their facts; fragview must count each
# failure once, the pages moved from mm_migrate_pages (else from
# migrate_pass) and never its failed pages on top, and say where it has
# no per-folio successes instead of showing zeros.  A failure is a
# folio's last attempt of its call; the failed attempts before it are
# retries (migcall.h), which the default recording sees only when the
# retry failed again.  Prints "ok - ..." / "not ok - ...".
#
# usage: tests/e2e-migrate.sh [FRAGVIEW]    (e2e.sh runs it)
set -u
here=$(cd "$(dirname "$0")" && pwd)
fv=$(realpath "${1:-$here/../fragview}")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1

# shellcheck source=tools/fragview/tests/e2e-lib.sh
. "$here/e2e-lib.sh"

fact() { python3 -c "import json,sys; f=json.load(open('$1'))['mig']; print($2)"; }
# same NAME GOT WANT: one line, ok when equal (a long value: its words)
same() {
	local show=$2

	[ ${#show} -le 60 ] || show="$(wc -w <<<"$2") values"
	[ "$2" = "$3" ] && ok "migrate: $1 ($show)" || nok "migrate: $1" "got  $2" "want $3"
}

mk() { python3 "$here/mkcapture.py" mobility "$1.dat" --migrate "$2" --facts "$1.json"; }
mk dflt failed,pass,sum || nok "migrate: mkcapture default recording"
mk both folio,failed,pass,sum || nok "migrate: mkcapture with migrate_folio"
mk nosum failed,pass || nok "migrate: mkcapture without mm_migrate_pages"
okp=$(fact dflt.json 'f["ok_pages"]')
oka=$(fact dflt.json 'f["ok_attempts"]')
fa=$(fact dflt.json 'f["fail_attempts"]')
fp=$(fact dflt.json 'f["failed_pages"]')
# final failures and retries, by what each recording can see
fd=$(fact dflt.json 'f["final_fails"]["dflt"]')
rd=$(fact dflt.json 'f["retried"]["dflt"]')
ff=$(fact dflt.json 'f["final_fails"]["folio"]')
rf=$(fact dflt.json 'f["retried"]["folio"]')
[ $((fd + rd)) = "$fa" ] && [ $((ff + rf)) = "$fa" ] && [ "$rd" -gt 0 ] &&
	[ "$rf" -gt "$rd" ] &&
	ok "migrate: the facts split the $fa failed attempts: $ff folios failed, $rf retried ($fd and $rd from migrate_folio_failed alone)" ||
	nok "migrate: the facts cannot tell retries from failures" "$fd+$rd, $ff+$rf of $fa"
# the facts must be able to tell a double count from a right one
[ "$fp" -gt 0 ] && [ "$okp" != "$oka" ] &&
	[ "$(fact both.json 'f["failed_records"]')" = "$fa" ] &&
	ok "migrate: the captures fail $fa attempts ($fp pages given up), move $okp pages in $oka attempts" ||
	nok "migrate: captures cannot tell the counts apart" "pages failed $fp, ok $okp pages $oka attempts"

for c in dflt both nosum; do
	expect "migrate: $c: check exits 0 (no impossible event)" 0 "" -- "$fv" check $c.dat
	"$fv" stats $c.dat --format json -o $c.s.json 2>err.txt ||
		nok "migrate: $c: stats json" "$(cat err.txt)"
done

# ---- the default recording: failures one by one, pages moved per call
same "default: failed = folios whose last failed record had no later one (not plus mm_migrate_pages' $fp failed pages)" \
	"$(jget dflt.s.json "d['migrations']['failed']")" "$fd"
same "default: retried = failed records a later one of the folio followed" \
	"$(jget dflt.s.json "d['migrations']['retried']")" "$rd"
same "default: ok = mm_migrate_pages' succeeded pages" \
	"$(jget dflt.s.json "d['migrations']['ok']")" "$okp"
same "default: the rows add up, ok and failed" \
	"$(jget dflt.s.json "sum(r['ok'] for r in d['migrations']['rows']), sum(r['failed'] for r in d['migrations']['rows']), sum(r['retried'] for r in d['migrations']['rows'])")" \
	"$okp $fd $rd"
same "default: the rows say where they come from" \
	"$(jget dflt.s.json "sorted(set(r['source'] for r in d['migrations']['rows']))")" \
	"['migrate_folio_failed+mm_migrate_pages']"
same "default: sources, per-folio successes not recorded" \
	"$(jget dflt.s.json "[d['migrations'][k] for k in ('ok_source', 'failed_source', 'per_folio_successes')]")" \
	"['mm_migrate_pages', 'migrate_folio_failed', False]"
same "default: results by errno, no success no event reported" \
	"$(jget dflt.s.json "sorted((str(r['result']), r['count']) for r in d['migrations']['results'])")" \
	"$(fact dflt.json 'sorted(f["results"].items())')"
same "default: events migrate_failed, none as migrate" \
	"$(jget dflt.s.json "(d['events']['migrate_failed'], d['events']['migrate'])")" "($fa, 0)"
same "default: passes, retries, pages left for a retry" \
	"$(jget dflt.s.json "[d['migrate_passes'][k] for k in ('passes', 'retries', 'retried_pages')]")" \
	"$(fact dflt.json '[f[k] for k in ("passes", "retry_passes", "retried_pages")]')"
same "default: the pass rows' pages moved are the calls'" \
	"$(jget dflt.s.json "sum(r['succeeded'] for r in d['migrate_passes']['rows'])")" "$okp"
"$fv" stats dflt.dat >dflt.txt 2>err.txt
grep -qxF "Migrations: $okp pages moved (mm_migrate_pages), $fd folios failed (migrate_folio_failed)" dflt.txt &&
	grep -qxF "  $rd failed records retried (a later one of the folio followed in its call)" dflt.txt &&
	grep -qF "per-folio successes not recorded (enable mobility:migrate_folio)" dflt.txt &&
	ok "migrate: default: stats txt says what it counts and what was not recorded" ||
	nok "migrate: default: stats txt" "$(grep -A1 '^Migrations' dflt.txt)"
"$fv" stats dflt.dat --format csv >dflt.csv 2>/dev/null
same "default: csv migrate_folio_failed rows, failed, retried and ok" \
	"$(awk -F, '$1 == "migrate_folio_failed" && $13 == "failed" { f += $14 } $1 == "migrate_folio_failed" && $13 == "retried" { r += $14 } $1 == "migrate_folio_failed" && $13 == "ok" { o += $14 } END { print f + 0, r + 0, o + 0 }' dflt.csv)" \
	"$fd $rd $okp"
same "default: csv migrate_pass rows by stage" \
	"$(awk -F, '$1 == "migrate_pass" && $13 == "passes" { n[$5] += $14 } END { for (s in n) print s, n[s] }' dflt.csv)" \
	"unmap_move $(fact dflt.json 'f["passes"]')"

# ---- migrate_folio recorded too: its failures are there twice
same "with migrate_folio: failed counts each folio's last failed attempt once" \
	"$(jget both.s.json "d['migrations']['failed']")" "$ff"
same "with migrate_folio: retried = failed attempts a later one of the folio followed" \
	"$(jget both.s.json "d['migrations']['retried']")" "$rf"
same "with migrate_folio: ok = successful attempts" \
	"$(jget both.s.json "d['migrations']['ok']")" "$oka"
same "with migrate_folio: results, successes too" \
	"$(jget both.s.json "sorted((str(r['result']), r['count']) for r in d['migrations']['results'])")" \
	"$(fact both.json 'sorted(list(f["results"].items()) + [("0", f["ok_attempts"])])')"
same "with migrate_folio: the duplicates and the calls' totals are not counted" \
	"$(jget both.s.json "(d['events']['migrate_failed'], d['events']['migrate_sum'], d['events']['migrate'])")" \
	"(0, 0, $((oka + fa)))"
same "with migrate_folio: sources, per-folio successes" \
	"$(jget both.s.json "[d['migrations'][k] for k in ('ok_source', 'failed_source', 'per_folio_successes')]")" \
	"['migrate_folio', 'migrate_folio', True]"
same "with migrate_folio: the passes still counted" \
	"$(jget both.s.json "d['migrate_passes']['passes']")" "$(fact both.json 'f["passes"]')"

# ---- no mm_migrate_pages: the passes say what moved.  No call ends
# but the capture's, and every event has pid 1: a later call's failed
# record of the same folio makes one a retry, so failed is at most $fd
# (and within 5 % of it: random pfns rarely meet again)
same "without mm_migrate_pages: ok from migrate_pass" \
	"$(jget nosum.s.json "(d['migrations']['ok'], d['migrations']['ok_source'])")" \
	"($okp, 'migrate_pass')"
nf=$(jget nosum.s.json "d['migrations']['failed']")
nr=$(jget nosum.s.json "d['migrations']['retried']")
[ $((nf + nr)) = "$fa" ] && [ "$nf" -le "$fd" ] && [ "$nf" -ge $((fd - fd / 20)) ] &&
	ok "migrate: without mm_migrate_pages: $nf failed + $nr retried = $fa failed records, failed <= $fd" ||
	nok "migrate: without mm_migrate_pages: failed and retried" "got $nf + $nr" "want $fa, failed <= $fd"

# ---- the map: per block, failures measured, successes not recorded
# blocks JSON KEY [FORM]: "pfn=count ..." of the facts (sorted as LC_ALL=C
# sort); FORM: the key's table for that recording
blocks() {
	fact "$1" "' '.join(sorted('%s=%d' % kv for kv in f['$2']${3:+['$3']}.items()))"
}
# svg TITLE-REGEX: "pfn=count ..." of the block tooltips that match
svg_blocks() {
	grep -o "<title>pfn 0x[0-9a-f]*-[^<]*" "$1" |
		sed -n "s/^<title>pfn \(0x[0-9a-f]*\)-.*$2.*/\1=\2/p" |
		awk -F= '$2 > 0' | LC_ALL=C sort | tr '\n' ' ' | sed 's/ $//'
}
"$fv" map dflt.dat --format svg -o dflt.svg 2>/dev/null
nb=$(grep -c "<title>pfn 0x" dflt.svg)
same "default: every block's tooltip says its successes were not recorded" \
	"$(grep -c "<title>pfn 0x[^<]*migrations [0-9]* failed, successes not recorded)" dflt.svg)" "$nb"
same "default: each block's failed folios" \
	"$(svg_blocks dflt.svg 'migrations \([0-9]*\) failed')" "$(blocks dflt.json final_fail_blocks dflt)"
"$fv" map both.dat --format svg -o both.svg 2>/dev/null
same "with migrate_folio: each block's failed folios, once" \
	"$(svg_blocks both.svg 'migrated [0-9]* ok \([0-9]*\) failed')" "$(blocks both.json final_fail_blocks folio)"
same "with migrate_folio: each block's successful attempts" \
	"$(svg_blocks both.svg 'migrated \([0-9]*\) ok')" "$(blocks both.json ok_blocks)"
# the compaction overlay marks each block with failures, counted once
for c in dflt both; do
	[ $c = both ] && form=folio || form=dflt
	same "$c: the map's failure marks count each failed folio once" \
		"$(grep -o 'data-block="0x[0-9a-f]*" data-fail="[-0-9]*"><title>migration failed: [0-9]*' $c.svg |
		   sed 's/data-block="\(0x[0-9a-f]*\)".* \([0-9]*\)$/\1=\2/' | LC_ALL=C sort | tr '\n' ' ' | sed 's/ $//')" \
		"$(blocks $c.json final_fail_blocks $form)"
done
"$fv" map dflt.dat --format html -o dflt.html 2>/dev/null
grep -qF '"mig":{"okUnrecorded":true,"ok":"mm_migrate_pages","failed":"migrate_folio_failed"}' dflt.html &&
	ok "migrate: default: the html page knows the successes were not recorded" ||
	nok "migrate: default: html mig" "$(grep -o '"mig":{[^}]*}' dflt.html)"
"$fv" map both.dat --format html -o both.html 2>/dev/null
grep -qF '"mig":{"okUnrecorded":false,"ok":"migrate_folio","failed":"migrate_folio"}' both.html &&
	ok "migrate: with migrate_folio: the html page has per-folio successes" ||
	nok "migrate: with migrate_folio: html mig" "$(grep -o '"mig":{[^}]*}' both.html)"

# ---- explain: the failed migrations of the nearest blocks, once each.
# A folio failed by its last attempt is failed by its last failed record
# too, and the default recording cannot see a retry that moved it: per
# block it counts at least as many
for c in dflt both; do
	"$fv" explain $c.dat --at +0.02 --format json -o $c.x.json 2>/dev/null
done
near() { jget "$1" "[(b['pfn'], b['failed_migrations']) for b in d['explanations'][0]['nearest']]"; }
python3 -c "import sys; a, b = eval(sys.argv[1]), eval(sys.argv[2]); sys.exit(not (
	[p for p, _ in a] == [p for p, _ in b] and all(x <= y for (_, x), (_, y) in zip(a, b)) and a != b))" \
	"$(near both.x.json)" "$(near dflt.x.json)" &&
	ok "migrate: explain: the nearest blocks' failed migrations, with migrate_folio at most the default recording's" ||
	nok "migrate: explain: nearest blocks' failed migrations" "both $(near both.x.json)" "dflt $(near dflt.x.json)"
[ "$(jget dflt.x.json "sum(b['failed_migrations'] for b in d['explanations'][0]['nearest'])")" -gt 0 ] &&
	ok "migrate: explain: the nearest blocks have failed migrations to count" ||
	nok "migrate: explain: no failed migration near: the check above proves nothing"

# ---- check: the new events' ABI rules
doctored() {	# NAME WANT-REGEX DOCTOR-ARGS...
	local name=$1 want=$2
	shift 2
	python3 "$here/doctor.py" dflt.dat doctored.dat "$@" >/dev/null
	"$fv" check doctored.dat >out.txt 2>err.txt
	local rc=$?
	[ $rc = 1 ] && grep -q "$want" out.txt &&
		ok "migrate: check: $name: impossible, exit 1" ||
		nok "migrate: check: $name" "status $rc" "$(cat out.txt err.txt)"
}
imp="^check: impossible event: migrate_[a-z]* on CPU [0-9] at [0-9.]* s:"
doctored "a migrate_folio_failed that succeeded" \
	"$imp result success (migrate_folio_failed fires on a failure only)$" \
	set migrate_folio_failed 3 result 0
doctored "a migrate_pass beyond the retry loops" \
	"$imp pass beyond the retry loops' passes$" \
	set migrate_pass 5 pass 10
doctored "a migrate_folio_failed beyond the retry loops" \
	"$imp pass beyond the retry loops' passes$" \
	set migrate_folio_failed 2 pass 12

# ---- real captures of series v3 (tests/fixtures/make-fixtures.sh
# --v3-migrate, 6.1 and 6.12): the same migrate scenario recorded by
# default (no migrate_folio), and compaction recorded with migrate_folio
# too.  What fragview counts against what trace-cmd reads out of the same
# file, and the two kernels against each other and the workload, whose
# mbind(2) step moves exactly 256 pages (qemu/guest/scenarios/migrate.sh)
real=$here/../../../tests/fixtures
# report FILE EVENT FIELD: the sum of FIELD over EVENT's records (FIELD
# "-": their number)
report() {
	trace-cmd report -i "$1" 2>/dev/null | awk -v e="$2:" -v f="$3" '
		$0 ~ " " e " " {
			if (f == "-") { n++; next }
			for (i = 1; i <= NF; i++) {
				split($i, kv, "=")
				if (kv[1] == f) n += kv[2]
			}
		}
		END { print n + 0 }'
}
for k in v3 v612-v3; do
	d=$real/$k-migrate-default.dat
	[ -r "$d" ] || { nok "migrate: real: $k-migrate-default.dat missing"; continue; }
	"$fv" stats "$d" --format json -o real.json 2>err.txt ||
		{ nok "migrate: real: $k: stats" "$(cat err.txt)"; continue; }
	[ "$(report "$d" migrate_folio -)" = 0 ] && [ "$(report "$d" migrate_pass -)" -gt 0 ]
	[ $? = 0 ] && ok "migrate: real: $k default capture: no migrate_folio, $(report "$d" migrate_pass -) migrate_pass" ||
		nok "migrate: real: $k default capture is not one"
	same "real: $k default: ok = mm_migrate_pages' nr_succeeded" \
		"$(jget real.json "d['migrations']['ok']")" "$(report "$d" mm_migrate_pages nr_succeeded)"
	same "real: $k default: failed = migrate_folio_failed records" \
		"$(jget real.json "d['migrations']['failed']")" "$(report "$d" migrate_folio_failed -)"
	same "real: $k default: mbind moved the workload's 256 pages" \
		"$(jget real.json "sum(r['ok'] for r in d['migrations']['rows'] if r['reason'] == 'mempolicy_mbind')")" 256
	same "real: $k default: the passes moved what the calls did" \
		"$(report "$d" migrate_pass nr_succeeded)" "$(report "$d" mm_migrate_pages nr_succeeded)"
	c=$real/$k-compact.dat
	[ -r "$c" ] || { nok "migrate: real: $k-compact.dat missing"; continue; }
	"$fv" stats "$c" --format json -o realc.json 2>err.txt ||
		{ nok "migrate: real: $k compact: stats" "$(cat err.txt)"; continue; }
	[ "$(report "$c" migrate_folio_failed -)" -gt 0 ] &&
		ok "migrate: real: $k compact has failures to count twice ($(report "$c" migrate_folio_failed -))" ||
		nok "migrate: real: $k compact has no migrate_folio_failed: the checks below prove little"
	ok_events=$(trace-cmd report -i "$c" 2>/dev/null | grep -c ' migrate_folio: .*result=success ')
	same "real: $k compact: failed = the failed migrate_folio, once" \
		"$(jget realc.json "d['migrations']['failed']")" \
		"$(($(report "$c" migrate_folio -) - ok_events))"
	same "real: $k compact: ok = the successful migrate_folio" \
		"$(jget realc.json "d['migrations']['ok']")" "$ok_events"
done

# ---- every real capture with per-folio events, 6.1 and 6.12: fragview's
# failed folios against the kernel's own count, worked out here from
# 'trace-cmd report' alone.  A call is its task's records up to its
# mm_migrate_pages (the end of the capture ends the rest); a folio
# (src_pfn) failed when its last record of the call failed.  As
# tests/host/migrations.py:check_call, the kernel's nr_failed lies
# between the pages of the folios whose last record is a permanent
# failure and the pages of those whose last record failed; the captures
# fail order-0 folios only, so there folios are pages and fragview's
# count must be the kernel's sum of nr_failed exactly.
# judge_calls FILE EVENT: "failed_folios failed_last_pages
# failed_for_good_pages nr_failed_sum nr_calls"
judge_calls() {
	trace-cmd report -i "$1" 2>/dev/null | awk -v ev="$2:" '
	function judge(k,   r, pages) {
		r = res[k]
		if (r != "success" && r != "0") {
			pages = 2 ^ ord[k]
			folios++
			last_pages += pages
			if (r != "EAGAIN" && r != "ENOMEM" && r != "ENOSYS")
				good_pages += pages
		}
		delete res[k]
		delete ord[k]
	}
	function end_call(pid,   k, s) {
		for (k in res) {
			split(k, s, SUBSEP)
			if (s[1] == pid)
				judge(k)
		}
	}
	{
		for (i = 2; i <= NF && $i !~ /^\[[0-9]+\]$/; i++)
			;
		n = split($(i - 1), t, "-")
		pid = t[n]
		delete f
		for (j = i + 1; j <= NF; j++)
			if (split($j, kv, "=") == 2)
				f[kv[1]] = kv[2]
	}
	$(i + 2) == ev {
		res[pid, f["src_pfn"]] = f["result"]
		ord[pid, f["src_pfn"]] = f["order"]
	}
	$(i + 2) == "mm_migrate_pages:" {
		end_call(pid)
		nr_failed += f["nr_failed"]
		calls++
	}
	END {
		for (k in res)
			judge(k)
		print folios + 0, last_pages + 0, good_pages + 0, nr_failed + 0, calls + 0
	}'
}
for d in "$real"/*.dat; do
	k=$(basename "$d" .dat)
	n=$(report "$d" migrate_folio -)
	e=migrate_folio
	[ "$n" -gt 0 ] || { e=migrate_folio_failed; n=$(report "$d" $e -); }
	[ "$n" -gt 0 ] || continue
	read -r folios last good sum calls <<<"$(judge_calls "$d" $e)"
	got=$("$fv" stats "$d" --format json 2>/dev/null |
		python3 -c "import json, sys; print(json.load(sys.stdin)['migrations']['failed'])")
	[ "$got" = "$folios" ] && [ "$good" -le "$sum" ] && [ "$sum" -le "$last" ] &&
		[ "$last" = "$folios" ] && [ "$got" = "$sum" ] &&
		ok "migrate: real: $k: failed = $got folios whose last $e of the call failed = the kernel's nr_failed over $calls calls" ||
		nok "migrate: real: $k: failed folios" "fragview $got, last records $folios folios ($last pages), permanent $good pages" \
			"nr_failed of $calls calls: $sum"
done
