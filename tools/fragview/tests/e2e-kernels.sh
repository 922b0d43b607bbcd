# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2154
# e2e-kernels.sh - captures of the 6.1 and the 6.12 series read alike.
# The 6.12 kernel prints the same events and fields with its own
# symbolic tables (tracepoints/README.md, "Per-kernel differences"): flip
# reason merge (before offline, so offline has another value), migrate
# reason damon, no MIGRATE_SYNC_NO_COPY.  A tests/mkcapture.py v612
# capture must replay exactly, with every merge flip and damon migration
# counted under its name; one whose merge prints as a name no kernel
# documents (v612unknown) must replay exactly too, that reason counted
# as "unknown"; a real 6.12 capture counts its merge flips by name.
# Sourced by tests/e2e.sh in its scratch directory (uses
# its $fv, $here, $fixtures, mk, fact, jget, ok, nok).

# by FILE TABLE KEY: "name=count ..." of a stats json table summed by KEY
by() {
	python3 - "$1" "$2" "$3" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
n = {}
for r in d[sys.argv[2]]["rows"]:
    k = r[sys.argv[3]]
    n[k] = n.get(k, 0) + r.get("count", r.get("ok", 0) + r.get("failed", 0))
print(" ".join("%s=%d" % kv for kv in sorted(n.items())))
PY
}
has() { case " $1 " in *" $2 "*) return 0 ;; esac; return 1; }
lacks() { case $1 in *"$2"*) return 1 ;; esac; return 0; }

# e2e_kernels: the checks, run in the caller's scratch directory
e2e_kernels() {
	local v nb merge damon flips mig modes n all rc

	for v in v612 v612unknown; do
		mk $v $v.dat --facts $v.json || nok "kernels: mkcapture $v"
	done
	nb=$(fact v612.json 'f["blocks"]')
	merge=$(fact v612.json 'f["merge_flips"]')
	damon=$(fact v612.json 'f["damon"]')

	# ---- replay: a merge flip is a type change like any other
	for v in v612 v612unknown; do
		"$fv" check $v.dat >out.txt 2>err.txt
		rc=$?
		[ $rc = 0 ] && [ ! -s err.txt ] &&
			grep -qx "check: $nb blocks, [0-9]* flips replayed, 0 mismatches" out.txt &&
			ok "kernels: $v: check replays every block exactly ($(cat out.txt))" ||
			nok "kernels: $v: check" "status $rc" "$(cat out.txt err.txt)"
	done

	# ---- stats: flips and migrations under the names the kernel printed
	"$fv" stats v612.dat --format json -o v612.s.json 2>err.txt ||
		nok "kernels: stats json on v612" "$(cat err.txt)"
	flips=$(by v612.s.json flips reason)
	has "$flips" "merge=$merge" && has "$flips" "offline=1" &&
		has "$flips" "online=1" && lacks "$flips" unknown &&
		ok "kernels: stats: $merge merge flips by name, offline/online by name though offline's value moved ($flips)" ||
		nok "kernels: stats flips by reason" "got: $flips" "want merge=$merge offline=1 online=1, no unknown"
	[ "$(jget v612.s.json "d['flips']['total']")" = "$(fact v612.json 'f["flips"]')" ] &&
		ok "kernels: stats: flip total" || nok "kernels: stats: flip total"
	mig=$(by v612.s.json migrations reason)
	modes=$(by v612.s.json migrations mode)
	has "$mig" "damon=$damon" && lacks "$mig $modes" unknown &&
		ok "kernels: stats: $damon damon migrations by name, no unknown reason or mode ($modes)" ||
		nok "kernels: stats migrations" "reasons: $mig" "modes: $modes" "want damon=$damon"
	[ "$(jget v612.s.json "d['migrations']['ok']")" = "$(fact v612.json 'f["migrate_ok"]')" ] &&
		ok "kernels: stats: migrations ok" || nok "kernels: stats: migrations ok"
	"$fv" stats v612.dat --format csv >out.txt 2>/dev/null
	n=$(awk -F, '$1 == "flip" && $7 == "merge" && $13 == "count" { s += $14 } END { print s + 0 }' out.txt)
	[ "$n" = "$merge" ] && ok "kernels: stats csv: merge rows add up to $merge" ||
		nok "kernels: stats csv merge rows" "got $n want $merge"
	"$fv" stats v612.dat >out.txt 2>/dev/null
	grep -Eq "^  [A-Za-z]+ +[A-Za-z]+ +merge +[0-9]+$" out.txt &&
		ok "kernels: stats txt: merge rows" || nok "kernels: stats txt merge rows" "$(grep -m3 merge out.txt)"

	# ---- the map page names the reason of each flip
	"$fv" map v612.dat --format html -o v612.html 2>err.txt
	python3 - v612.html "$merge" <<-'PY' && ok "kernels: map html: $merge flips carry the reason merge" ||
	import re, sys
	html = open(sys.argv[1]).read()
	names = re.search(r'"flip":\[([^]]*)\]', html)
	flip_m = re.search(r'"flipM":\[([^]]*)\]', html)
	if not names or not flip_m:
	    sys.exit("no names.flip or flipM in the page")
	names = [n.strip('"') for n in names.group(1).split(",")]
	reasons = [int(m) >> 6 for m in flip_m.group(1).split(",") if m]
	n = sum(1 for r in reasons if names[r] == "merge")
	if n != int(sys.argv[2]):
	    sys.exit("%d merge flips in the page, want %s" % (n, sys.argv[2]))
	PY
		nok "kernels: map html merge flips" "$(cat err.txt)"

	# ---- a name no kernel documents: read as unknown, nothing else changes
	"$fv" stats v612unknown.dat --format json -o u.s.json 2>err.txt
	flips=$(by u.s.json flips reason)
	has "$flips" "unknown=$merge" && lacks "$flips" merge &&
		ok "kernels: v612unknown: the undocumented reason counts as unknown ($flips)" ||
		nok "kernels: v612unknown flips" "got: $flips" "want unknown=$merge"

	# ---- and a real 6.1 capture: its tables (MIGRATE_SYNC_NO_COPY, no merge,
	# no damon) read without an unknown name
	if [ -e "$fixtures/v2-compact.dat" ]; then
		"$fv" stats "$fixtures/v2-compact.dat" --format json -o c.s.json 2>err.txt
		all="$(by c.s.json flips reason) $(by c.s.json migrations reason) $(by c.s.json migrations mode)"
		lacks "$all" unknown &&
			[ "$(jget c.s.json "d['migrations']['ok'] + d['migrations']['failed']")" -gt 0 ] &&
			ok "kernels: 6.1 capture v2-compact.dat: every reason and mode by name ($all)" ||
			nok "kernels: 6.1 capture" "$all" "$(cat err.txt)"
	fi

	# ---- a real 6.12 capture (tests/fixtures/make-fixtures.sh --v612):
	# its merge flips, as trace-cmd reports them, counted under that name
	if [ -e "$fixtures/v612-fragment.dat" ]; then
		"$fv" stats "$fixtures/v612-fragment.dat" --format json -o r.s.json 2>err.txt
		flips=$(by r.s.json flips reason)
		merge=$(trace-cmd report -i "$fixtures/v612-fragment.dat" 2>/dev/null |
			grep -c 'pageblock_flip:.* reason=merge ')
		all="$flips $(by r.s.json migrations reason) $(by r.s.json migrations mode)"
		[ "$merge" -gt 0 ] && has "$flips" "merge=$merge" && lacks "$all" unknown &&
			ok "kernels: 6.12 capture v612-fragment.dat: $merge merge flips by name, no unknown name ($all)" ||
			nok "kernels: 6.12 capture" "trace-cmd report: $merge merge flips" "$all" "$(cat err.txt)"
	fi
}
