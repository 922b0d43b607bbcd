#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# description: negative tests of the host oracles.  Each oracle must pass on
# a small real report (tests/host/fixtures/, cut from a guest run by cut.py)
# and fail, naming the defect, on the same report doctored the way a buggy
# kernel would write it (mutate.py).  TAP lines, then the table
# "defect -> caught"; exit status 1 if any case fails.
# usage: tests/host/negative.sh
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
F=${FRAGVIEW_ORACLE_FIXTURES:-$here/fixtures}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0 bad=0
table=()

result() {	# result STATUS NAME
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else bad=$((bad + 1)); echo "not ok $n - $2"; fi
}

# oracle ORACLE REPORT SIDE ARGS...: run it; @SIDE@ in ARGS stands for SIDE
oracle() {
	local o=$1 r=$2 side=$3
	shift 3
	python3 "$here/$o" --name fixture --report "$r" "${@//@SIDE@/$side}" 2>&1
}

declare -A passed_on
# case DEFECT ORACLE FIXTURE SIDE EXPECT -- ARGS...
#   DEFECT  a mutate.py defect; EXPECT an extended regex a "not ok" line of
#   the oracle must match (the check naming the defect); SIDE the fixture's
#   side file (or -)
case_() {
	local defect=$1 o=$2 fx=$3 side=$4 expect=$5
	shift 6
	local key="$o $fx $*" out rc f ms
	# a case whose input is missing fails: it never silently drops out
	for f in "$fx" "$side"; do
		[ "$f" = - ] || [ -e "$F/$f" ] || {
			result 1 "$o catches $defect: input tests/host/fixtures/$f exists"
			table+=("$defect|$o|$fx|NO INPUT|$f")
			return
		}
	done
	if [ -z "${passed_on[$key]:-}" ]; then
		out=$(oracle "$o" "$F/$fx" "$F/$side" "$@")
		rc=$?
		passed_on[$key]=$rc
		[ $rc -eq 0 ] || sed 's/^/#   /' <<<"$out"
		local args="$*"
		result $rc "$o passes on the real report $fx${args:+ (${args//@SIDE@/$side})}"
	fi
	doctor "$defect" "$fx" "$side" ||
		{ result 1 "$o: mutate.py $defect failed"; table+=("$defect|$o|$fx|NOT RUN|"); return; }
	out=$(oracle "$o" "$tmp/$defect.report" "$ms" "$@")
	verdict "$defect" "$o" "$fx" "$expect" $? "$out"
}

# doctor NAME FIXTURE SIDE: mutate.py NAME into $tmp/NAME.report; ms is the
#   side file to read with it (doctored into $tmp/NAME.side when NAME changes it)
doctor() {
	ms=$F/$3
	if [ "$3" = - ]; then
		python3 "$here/mutate.py" "$1" "$F/$2" "$tmp/$1.report"
	else
		python3 "$here/mutate.py" "$1" "$F/$2" "$tmp/$1.report" "$F/$3" "$tmp/$1.side" &&
			ms=$tmp/$1.side
	fi
}

# valid_ VARIANT ORACLE FIXTURE SIDE EXPECT -- ARGS...: the fixture changed
#   into a report a correct kernel could write (mutate.py VARIANT) passes,
#   with an "ok" line matching EXPECT (the check that could misread it)
valid_() {
	local variant=$1 o=$2 fx=$3 side=$4 expect=$5 out rc hit ms
	shift 6
	doctor "$variant" "$fx" "$side" || { result 1 "$o: mutate.py $variant failed"; return; }
	out=$(oracle "$o" "$tmp/$variant.report" "$ms" "$@")
	rc=$?
	# a skip asserted nothing: the matching line must be a real pass
	hit=$(grep -E '^ok' <<<"$out" | grep -v '# SKIP' | grep -E -m1 "$expect")
	[ $rc -eq 0 ] && [ -n "$hit" ] || { sed 's/^/#   /' <<<"$out"; rc=1; }
	result $rc "$o passes on $fx as $variant: ${hit:-no 'ok' line matching /$expect/}"
}

# real_ pass|catch EXPECT NAME -- ORACLE ARGS...: ORACLE (a tests/host/
#   script, given --name fixture) on a real report, or one doctored here,
#   passes; or fails with a "not ok" line matching EXPECT
real_() {
	local want=$1 expect=$2 name=$3 o=$5 out rc hit
	shift 5
	out=$(python3 "$here/$o" --name fixture "$@" 2>&1)
	rc=$?
	if [ "$want" = pass ]; then
		[ $rc -eq 0 ] || sed 's/^/#   /' <<<"$out"
		result $rc "$o passes on $name"
		return
	fi
	hit=$(grep -m1 "^not ok.*$expect" <<<"$out")
	[ $rc -ne 0 ] && [ -n "$hit" ] || { sed 's/^/#   /' <<<"$out"; hit=; }
	result "$([ -n "$hit" ] && echo 0 || echo 1)" \
		"$o catches $name: ${hit:-no 'not ok' line matching /$expect/}"
}

# verdict DEFECT ORACLE FIXTURE EXPECT RC OUTPUT: the oracle must have
# failed with a "not ok" line matching EXPECT
verdict() {
	local defect=$1 o=$2 fx=$3 expect=$4 rc=$5 out=$6 hit
	hit=$(grep -E '^not ok' <<<"$out" | grep -E -m1 "$expect")
	hit=$(sed -E 's/^not ok [0-9]+ - //' <<<"$hit")
	if [ "$rc" -ne 0 ] && [ -n "$hit" ]; then
		result 0 "$o catches $defect: $hit"
		table+=("$defect|$o|$fx|caught|$hit")
	else
		sed 's/^/#   /' <<<"$out"
		result 1 "$o catches $defect (exit $rc, no 'not ok' line matching /$expect/)"
		table+=("$defect|$o|$fx|MISSED|exit $rc")
	fi
}

# drain_ case_|valid_ NAME EXPECT: drain.py on the offline capture
drain_() {
	"$1" "$2" drain.py offline.report.gz offline.pageblocks "$3" -- \
		--pageblocks @SIDE@ --reasons all,free_high
}

case_ drop-one-flip replay.py fragment.report.gz fragment.pageblocks \
	'no flip lost|lost flip|starts from the replayed type' -- --pageblocks @SIDE@
case_ no-flips replay.py fragment.report.gz - 'flipped blocks' -- --min-flips 1
case_ truncated-snapshot replay.py fragment.report.gz fragment.pageblocks \
	'none truncated' -- --pageblocks @SIDE@
case_ block-mt-is-alloc-mt steal_flip.py fragment.report.gz - 'block_mt is the replayed type' --
case_ claim-below-half steal_flip.py fragment.report.gz - 'follow the 6.1 claim rule' --
case_ unclaimed-above-half steal_flip.py fragment.report.gz - 'follow the 6.1 claim rule' --
case_ highatomic-claimed steal_flip.py fragment.report.gz - 'follow the 6.1 claim rule' --
drain_ case_ drop-drains-but-first 'belongs to a pcp_drain batch'
drain_ case_ drain-wrong-node 'nid/zone are those of the drained pages'
drain_ case_ drain-wrong-cpu 'cpu= is the cpu'
drain_ case_ drain-on-missing-cpu 'a CPU of the capture'
drain_ case_ drain-past-cpus-header 'a CPU of the capture \(2 CPUs\)'
drain_ case_ cpus-header-short 'every CPU that recorded events is one of the 1'
drain_ valid_ idle-cpu-drained 'a CPU of the capture \(3 CPUs\)'
drain_ case_ drain-all-as-cpu-dead 'drained only as cpu_dead'
drain_ valid_ cpu-marked-online 'drained only as cpu_dead'
drain_ case_ other-cpu-marked-online 'drained only as cpu_dead'
drain_ case_ drain-free-high-as-vmstat 'vmstat/decay drain ran in a kworker'

# the vmstat worker's two reasons (cut.py --worker-drains): 6.1's vmstat
# drains empty the other node's zones (run-guest.sh: cpu 0 on node 0, cpu
# 1 on node 1); 6.12's decay drains are their own reason
case_ drain-free-high-as-decay drain.py v612-decay.report.gz - \
	'vmstat/decay drain ran in a kworker' -- --per-page-type drain --cpu-nodes 0,1 \
	--reasons decay
case_ drain-decay-as-vmstat drain.py v612-decay.report.gz - \
	"every vmstat drain empties a remote node's zone" -- --per-page-type drain \
	--cpu-nodes 0,1 --reasons decay
# real captures: 6.1's vmstat drains pass, and fail with the CPUs' nodes
# swapped; the 6.12 series v3 before decay said vmstat for its trims
remote="every vmstat drain empties a remote node's zone"
real_ pass "" "v61-vmstat.report.gz (--cpu-nodes 0,1): 6.1's vmstat drains are remote" -- \
	drain.py --report "$F/v61-vmstat.report.gz" --reasons vmstat --cpu-nodes 0,1
real_ catch "$remote" "own-node vmstat drains in v61-vmstat (--cpu-nodes 1,0)" -- \
	drain.py --report "$F/v61-vmstat.report.gz" --cpu-nodes 1,0
real_ catch "$remote" "own-node vmstat drains in v612-v3-vmstat-decay" -- \
	drain.py --report "$F/v612-v3-vmstat-decay.report.gz" --cpu-nodes 0,1 \
	--per-page-type drain
case_ dup-success movepages.py migrate.report.gz migrate.movepages.out \
	'succeeds twice' -- --movepages @SIDE@ --pageblocks "$F/migrate.pageblocks"
case_ missing-failure movepages.py migrate.report.gz migrate.movepages.out \
	'left off its target' -- --movepages @SIDE@ --pageblocks "$F/migrate.pageblocks"
case_ lost-last-step movepages.py migrate.report.gz migrate.movepages.out \
	'the steps were' -- --movepages @SIDE@ --pageblocks "$F/migrate.pageblocks" \
	--steps move_pages,migrate_pages
case_ wrong-dst-mt movepages.py migrate.report.gz migrate.movepages.out \
	'src_mt/dst_mt' -- --movepages @SIDE@ --pageblocks "$F/migrate.pageblocks"
case_ order-0-hugetlb movepages.py hugemigrate.report.gz hugemigrate.movepages.out \
	'order, reason' -- --movepages @SIDE@ --pageblocks "$F/hugemigrate.pageblocks" --order 9
case_ dup-success movepages.py hugemigrate.report.gz hugemigrate.movepages.out \
	'succeeds twice' -- --movepages @SIDE@ --pageblocks "$F/hugemigrate.pageblocks" --order 9
case_ isolate-outside offline.py offline.report.gz offline.attempts \
	'lies in an offline attempt' -- --attempts @SIDE@
case_ no-unisolate offline.py offline.report.gz offline.attempts \
	'unisolated every pageblock' -- --attempts @SIDE@
# ZONE_DEVICE: unbinding a pmem pfn device with an altmap reports exactly
# the blocks that came online (series v2 also reported the info block's)
case_ pmem-reserve-offline pmem.py pmem.report.gz pmem.ranges \
	"info block's block" -- --ranges @SIDE@
case_ pmem-offline-lost pmem.py pmem.report.gz pmem.ranges \
	'went online then offline' -- --ranges @SIDE@
case_ pmem-offline-other-node pmem.py pmem.report.gz pmem.ranges \
	'went online then offline' -- --ranges @SIDE@
# a real defect: offline walked from the data area, the altmap's own block
# stayed online (cut.py --pmem-unpaired)
out=$(python3 "$here/pmem.py" --name fixture --report "$F/v612-pmem-unpaired.report.gz" \
	--ranges "$F/v612-pmem-unpaired.ranges" 2>&1)
rc=$?
hit=$(grep -m1 '^not ok.*went online then offline' <<<"$out")
caught=0
[ $rc -ne 0 ] && [ -n "$hit" ] || { sed 's/^/#   /' <<<"$out"; caught=1; }
result $caught "pmem.py catches the unpaired altmap block: ${hit:-no such not ok}"
# compaction captures (series v3, patch 10; qemu/guest/scenarios/capture.sh)
case_ capture-outside-compaction steal_flip.py capture.report.gz - \
	'compaction capture of another type, in a direct compaction run' -- \
	--min-steals 0 --min-claimed 0 --min-captures 5
case_ capture-same-type steal_flip.py capture.report.gz - \
	'compaction capture of another type, in a direct compaction run' -- \
	--min-steals 0 --min-claimed 0 --min-captures 5
# a real defect: series v2 captured as often and reported nothing
out=$(python3 "$here/steal_flip.py" --name fixture --report "$F/v61-v2-capture.report.gz" \
	--min-steals 0 --min-claimed 0 --min-captures 5 2>&1)
rc=$?
hit=$(grep -m1 '^not ok.*compaction capture' <<<"$out")
caught=0
[ $rc -ne 0 ] && [ -n "$hit" ] || { sed 's/^/#   /' <<<"$out"; caught=1; }
result $caught "steal_flip.py catches series v2's unreported captures: ${hit:-no such not ok}"

# a real defect: series v2's census on 6.1 with a hugetlb pool in use and
# free counted it as kernel and free_pcp pages (cut.py --census-v2-hugetlb)
r=v61-v2-census-hugetlb
out=$(python3 "$here/census.py" --name fixture --report "$F/$r.report.gz" \
	--walk "$F/$r.walk.txt" --hugepages "$F/$r.hugepages.txt" 2>&1)
rc=$?
hit=$(grep -m1 '^not ok.*census hugetlb = kpageflags' <<<"$out")
caught=0
[ $rc -ne 0 ] && [ -n "$hit" ] || { sed 's/^/#   /' <<<"$out"; caught=1; }
result $caught "census.py catches series v2's census of a hugetlb pool: ${hit:-no such not ok}"
case_ one-block-movable grouping_off.py grouping-off.report.gz grouping-off.dmesg \
	'is Unmovable' -- --dmesg-file @SIDE@ --pageblocks "$F/grouping-off.pageblocks"

# a real defect, not a mutant: series v2 on 6.12 with grouping off left
# the rest of blocks half taken by free page reporting on the Movable
# free lists (cut.py --reporting-off); the same boot's pagetypeinfo from
# before the reporting is the control
r=v612-v2-reporting-off
for when in start end; do
	args=(--report "$F/$r.report.gz" --dmesg-file "$F/$r.dmesg"
	      --pageblocks "$F/$r.pageblocks" --pagetypeinfo "$F/$r.$when.pagetypeinfo")
	if [ $when = start ]; then
		real_ pass "" "$r before the reporting" -- grouping_off.py "${args[@]}"
	else
		real_ catch 'every free page is on an Unmovable free list' \
			"series v2's free pages on Movable lists after it ($r)" -- \
			grouping_off.py "${args[@]}"
	fi
done

# 6.12: an unmap pass -ENOMEM cut short is not reported; the 24 folios
# freed under it before the ENOMEM are in no pass, and the move pass
# after it counts its own 192 pages (cut.py --unmap-enomem).  The move
# pass counting those 24 too, or one page fewer, is caught.
r=v612-unmap-enomem
for moved in 192 216 191; do
	zcat "$F/$r.report.gz" |
		sed "s/stage=move pass=0 nr_succeeded=192 /stage=move pass=0 nr_succeeded=$moved /" \
		> "$tmp/$r-$moved.report"
	[ $moved = 192 ] && want=pass || want=catch
	real_ $want 'each migrate_pass counts the pages' "$r with a move pass of $moved pages" -- \
		migrate_pass.py --report "$tmp/$r-$moved.report" --kernel 6.12 --min-passes 1
done

# the explain scenario's pinned plant (cut.py --pinned-plant): a 6.12
# boot where it held, and one where the blocks the pipes missed were the
# nearest to free (tests/guest.sh boots again then)
for r in held:0 lost:1; do
	out=$(python3 "$here/pinned_plant.py" --report "$F/v612-pinned-${r%:*}.report.gz" 2>&1)
	rc=$?
	[ $rc -eq "${r#*:}" ] || sed 's/^/#   /' <<<"$out"
	result "$([ $rc -eq "${r#*:}" ] && echo 0 || echo 1)" \
		"pinned_plant.py on v612-pinned-${r%:*}: exit $rc: $out"
done

# ABI v2 (gens, snapshot begin/end, nr_high_order), from a v2 kernel's capture
case_ drop-one-flip replay.py v2-fragment.report.gz v2-fragment.pageblocks \
	'consecutive gens, no flip lost' -- --pageblocks @SIDE@
case_ truncated-snapshot replay.py v2-fragment.report.gz v2-fragment.pageblocks \
	'none truncated \(2 snapshots; v2' -- --pageblocks @SIDE@
case_ block-mt-is-alloc-mt steal_flip.py v2-fragment.report.gz - \
	'block_mt is the replayed type' --
case_ drop-drains-but-first drain.py v2-drain.report.gz v2-fragment.pageblocks \
	'belongs to a pcp_drain batch' -- --pageblocks @SIDE@
case_ high-order-as-movable drain.py v2-drain.report.gz v2-fragment.pageblocks \
	'every batch equals' -- --pageblocks @SIDE@
case_ flip-in-wrong-zone replay.py v2-hotplug-zones.report.gz v2-hotplug-zones.pageblocks \
	"names its block's node and zone" -- --pageblocks @SIDE@ --reasons offline,online
case_ drop-one-flip replay.py v2-hotplug-zones.report.gz v2-hotplug-zones.pageblocks \
	'consecutive gens, no flip lost' -- --pageblocks @SIDE@ --reasons offline,online

# the recorder's zone lines against /proc/zoneinfo (an idle run)
zm=(--zoneinfo "$F/zonemarks.start.zoneinfo")
case_ zonemark-min-off zonemarks.py zonemarks.report.gz zonemarks.end.zoneinfo \
	"first line has the start zoneinfo's" -- --end-zoneinfo @SIDE@ "${zm[@]}"
case_ zonemark-low-above-high zonemarks.py zonemarks.report.gz zonemarks.end.zoneinfo \
	'min <= low <= high' -- --end-zoneinfo @SIDE@ "${zm[@]}"
case_ zonemark-managed-wrong zonemarks.py zonemarks.report.gz zonemarks.end.zoneinfo \
	"last line has the end zoneinfo's" -- --end-zoneinfo @SIDE@ "${zm[@]}"
case_ zonemark-dropped zonemarks.py zonemarks.report.gz zonemarks.end.zoneinfo \
	'every snapshot .* has zone lines' -- --end-zoneinfo @SIDE@ "${zm[@]}"

# high-order atomic reserves (qemu/guest/scenarios/highatomic.sh)
ha=(--end-pagetypeinfo "$F/highatomic.end.pagetypeinfo"
    --zoneinfo "$F/highatomic.start.zoneinfo")
case_ drop-reserves highatomic.py highatomic.report.gz highatomic.mid.pagetypeinfo \
	'highatomic_reserve flips' -- --mid-pagetypeinfo @SIDE@ "${ha[@]}"
case_ drop-unreserves highatomic.py highatomic.report.gz highatomic.mid.pagetypeinfo \
	'highatomic_unreserve flips' -- --mid-pagetypeinfo @SIDE@ "${ha[@]}"
case_ reserve-over-limit highatomic.py highatomic.report.gz highatomic.mid.pagetypeinfo \
	'more HighAtomic blocks than the kernel allows' -- --mid-pagetypeinfo @SIDE@ "${ha[@]}"
case_ drop-reserves replay.py highatomic.report.gz - \
	'flips with reason highatomic_reserve' -- --reasons highatomic_reserve,highatomic_unreserve
case_ isolate-free-from-movable flip_rule.py reporting.report.gz - 'each goes from' -- \
	--reason isolate_free --from Unmovable,Reclaimable --to Movable --caller __isolate_free_page

# events.py reads scenario directories (DIR/trace.dat, which may be a
# report text, and DIR/end.pageblocks): the v2-fragment and the offline
# reports together have every event.  The names it accepts are those of
# the 6.1 and the 6.12 series: a report printing merge and damon passes,
# one with a name neither series prints fails.
# evdirs NAME [DEFECT|sed:EXPR]: $tmp/NAME-{a,b}, the offline part doctored
evdirs() {
	local d=$tmp/$1 how=${2:-}
	mkdir -p "$d-a" "$d-b"
	zcat "$F/v2-fragment.report.gz" > "$d-a/trace.dat"
	cp "$F/v2-fragment.pageblocks" "$d-a/end.pageblocks"
	cp "$F/offline.pageblocks" "$d-b/end.pageblocks"
	case $how in
	"") zcat "$F/offline.report.gz" > "$d-b/trace.dat" ;;
	sed:*) zcat "$F/offline.report.gz" | sed "${how#sed:}" > "$d-b/trace.dat" ;;
	*) python3 "$here/mutate.py" "$how" "$F/offline.report.gz" "$d-b/trace.dat" ;;
	esac
}
# events_case NAME WANT-RC EXPECT DIR-SETUP...: events.py on evdirs
events_case() {
	local name=$1 want=$2 expect=$3 out rc
	shift 3
	evdirs "$name" "$@" || { result 1 "events.py: $name: setup failed"; return; }
	out=$(python3 "$here/events.py" "$tmp/$name-a" "$tmp/$name-b" 2>&1)
	rc=$?
	if [ "$want" -eq 0 ]; then
		[ $rc -eq 0 ] || sed 's/^/#   /' <<<"$out"
		result $rc "events.py passes on $name"
	else
		verdict "$name" events.py v2-fragment+offline "$expect" $rc "$out"
	fi
}
events_case real-reports 0 ""
events_case names-only-6.12-prints 0 "" \
	'sed:0,/reason=isolate /s//reason=merge /; 0,/reason=memory_hotplug /s//reason=damon /'
grep -q 'pageblock_flip: .* reason=merge ' "$tmp/names-only-6.12-prints-b/trace.dat" &&
	grep -q 'migrate_folio: .* reason=damon ' "$tmp/names-only-6.12-prints-b/trace.dat"
result $? "events.py's 6.12 case has a merge flip and a damon migration"
events_case undocumented-flip-reason 1 'enum fields print as documented names' \
	undocumented-flip-reason
events_case undocumented-migrate-reason 1 'enum fields print as documented names' \
	undocumented-migrate-reason

# migrate_pages() calls against mainline's mm_migrate_pages (migrations.py),
# from fragview's real 6.1 and 6.12 captures (cut.py --fragview-captures)
case_ migration-failure-as-success migrations.py compact.report.gz - \
	'add up to mm_migrate_pages' --
case_ migration-wrong-mode migrations.py compact.report.gz - "call's mode" --
case_ migration-wrong-reason migrations.py compact.report.gz - "call's reason" --
case_ migration-wrong-mode migrations.py v612-compact.report.gz - "call's mode" -- --kernel 6.12
case_ migration-pass-without-retry migrations.py compact.report.gz - 'only after -EAGAIN' --
case_ migration-pass-without-retry migrations.py v612-compact.report.gz - 'only after -EAGAIN' -- \
	--kernel 6.12
case_ migration-sync-before-async migrations.py v612-compact.report.gz - "call's mode" -- \
	--kernel 6.12
case_ migration-sync-unbatched migrations.py v612-offline.report.gz - "call's mode" -- \
	--kernel 6.12
case_ migration-out-of-list-order migrations.py compact.report.gz - 'descending src_pfn' --
# the default recording's migrate_folio_failed and migrate_pass against
# migrate_folio and mm_migrate_pages (migrate_pass.py), from the real 6.1
# and 6.12 compaction captures of series v3 (cut.py --v3-migrate)
for k in 6.1 6.12; do
	fx=v3-compact.report.gz
	[ $k = 6.1 ] || fx=v612-v3-compact.report.gz
	case_ failed-record-dropped migrate_pass.py $fx - 'exactly the failed' -- --kernel $k
	case_ success-recorded-failed migrate_pass.py $fx - 'exactly the failed' -- --kernel $k
	case_ failed-record-other-dst migrate_pass.py $fx - 'exactly the failed' -- --kernel $k
	case_ pass-success-miscounted migrate_pass.py $fx - 'counts the pages' -- --kernel $k
	case_ pass-retry-miscounted migrate_pass.py $fx - 'counts the pages' -- --kernel $k
	case_ pass-other-stage migrate_pass.py $fx - 'its stage is one of' -- --kernel $k
	case_ pass-dropped migrate_pass.py $fx - 'counts the pages|no attempt comes after' -- \
		--kernel $k
done
# each steal against the claim rule and mainline's mm_page_alloc_extfrag
case_ extfrag-wrong-order steal_flip.py extfrag.report.gz - 'mm_page_alloc_extfrag' --
case_ extfrag-wrong-order steal_flip.py v612-extfrag.report.gz - 'mm_page_alloc_extfrag' -- \
	--kernel 6.12
case_ claim-below-half steal_flip.py v612-extfrag.report.gz - 'follow the 6.12 claim rule' -- \
	--kernel 6.12
# claims 6.12 declined (taken=0, patch 12) and 6.1's taken=1 everywhere
decl=v612-declined.report.gz
case_ declined-claimed steal_flip.py $decl - 'follow the 6.12 claim rule' -- --kernel 6.12
case_ declined-claimed fields.py $decl - 'declined claim \(taken=0\) claims nothing' --
case_ declined-with-enough steal_flip.py $decl - 'follow the 6.12 claim rule' -- --kernel 6.12
case_ steal-as-declined steal_flip.py $decl - 'is followed on its CPU|compaction capture' -- \
	--kernel 6.12
case_ declined-unfollowed steal_flip.py $decl - 'is followed on its CPU|compaction capture' -- \
	--kernel 6.12
case_ declined-twice steal_flip.py $decl - 'is followed on its CPU' -- --kernel 6.12
case_ declined-other-order steal_flip.py $decl - 'is followed on its CPU' -- --kernel 6.12
case_ declined-on-61 steal_flip.py v61-taken.report.gz - 'follow the 6.1 claim rule' -- \
	--kernel 6.1

# the census against /proc/kpageflags (qemu/guest/scenarios/census.sh)
case_ census-lru-as-kernel census.py census.report.gz census.walk.txt \
	'census lru = kpageflags' -- --walk @SIDE@
case_ census-free-as-pcp census.py census.report.gz census.walk.txt \
	'census free = kpageflags' -- --walk @SIDE@
case_ census-slab-as-pgtable census.py census.report.gz census.walk.txt \
	'census slab = kpageflags' -- --walk @SIDE@
case_ census-block-twice census.py census.report.gz census.walk.txt \
	'lists every census block once' -- --walk @SIDE@
case_ walk2-drops-block census.py census.report.gz census.walk.txt \
	'second walk and third census cover every census block' -- --walk @SIDE@
# series v3: a hugetlb pool in use and free; v2's census counted it as kernel
case_ census-hugetlb-as-kernel census.py census-v3.report.gz census-v3.walk.txt \
	'census hugetlb = kpageflags' -- --walk @SIDE@ --hugepages "$F/census-v3.hugepages.txt"
case_ census-lru-as-kernel census.py census-v3.report.gz census-v3.walk.txt \
	'census lru = kpageflags' -- --walk @SIDE@ --hugepages "$F/census-v3.hugepages.txt"
# a block whose page states moved between the reads is not compared: the
# walks disagree, or the census reads do (their census lru would differ)
valid_ walk-changed-between census.py census.report.gz census.walk.txt \
	'at rest: 481 of 512 blocks' -- --walk @SIDE@
valid_ census-changed-after-walks census.py census.report.gz census.walk.txt \
	'at rest: 481 of 512 blocks' -- --walk @SIDE@

# the known culprit of the polluter scenario (qemu/guest/scenarios/polluter.sh)
case_ blamed-elsewhere blame.py polluter.report.gz - 'fv-polluter has the most steals' -- \
	--min-steals 20
case_ stack-elsewhere blame.py polluter.report.gz - 'top stack .* has pipe_write' -- \
	--min-steals 20
case_ polluter-claims blame.py polluter.report.gz - 'most of its steals polluted' -- \
	--min-steals 20

# 6.12: a drained page's migratetype is its block's at drain time
case_ drain-stale-type drain.py v612-drain.report.gz v612-drain.pageblocks \
	"migratetype is its block's replayed type" -- --pageblocks @SIDE@ --per-page-type drain
case_ high-order-as-movable drain.py v612-drain.report.gz v612-drain.pageblocks \
	'every batch equals' -- --pageblocks @SIDE@ --per-page-type drain
case_ drain-dead-cpu-as-running drain.py v612-drain.report.gz v612-drain.pageblocks \
	'cpu_dead drains is the dead cpu' -- --pageblocks @SIDE@ --per-page-type drain

# fields.py (every field in its documented domain) passes on every real
# capture of both bases: the reports cut from guest runs and the committed
# captures but bigtrace.dat (a million snapshot records of the same events);
# each of its checks fails on a capture doctored for it in the mutation
# suite's self-tests (tests/host/mutants.py --self-tests)
for r in "$F"/*.report.gz "$here"/../fixtures/{idle,fragment,migrate,v2-*,v612-*}.dat; do
	pb=${r%.report.gz}
	pb=${pb%.dat}.pageblocks
	args=()
	[ -e "$pb" ] && args=(--pageblocks "$pb")
	out=$(python3 "$here/fields.py" --report "$r" --name "${r##*/}" "${args[@]}" 2>&1)
	rc=$?
	[ $rc -eq 0 ] || sed 's/^/#   /' <<<"$out"
	result $rc "fields.py passes on the real capture ${r##*/}${args:+ and its pageblocks}"
done

echo "# defect -> caught (mutation of a real report; oracle; fixture; the failing check)"
for row in "${table[@]}"; do
	IFS='|' read -r d o fx c why <<<"$row"
	printf '#   %-22s %-15s %-27s %-7s %s\n' "$d" "$o" "${fx%.report.gz}" "$c" "$why"
done
echo "$((n - bad)) passed, $bad failed"
[ "$bad" -eq 0 ]
