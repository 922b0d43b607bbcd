#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# description: the test harness itself, on the host, booting nothing: the
# splat scanner and the guest-result checks of tests/lib/tap.sh must fail
# on doctored consoles and results (a WARNING, a lockdep report, a BUG, a
# sleeping function called from invalid context...; a garbled "not ok", a
# plan mismatch, a non-zero status, a timeout), and qemu/run-guest.sh,
# driven by a stub QEMU, must bring results back through the tar only.
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=tests/lib/tap.sh
. "$top/tests/lib/tap.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# expect NAME "P F S" CMD...: run CMD with counters of its own; its TAP
# lines must count P passed, F failed, S skipped.  They are shown only
# as comments, so that none of them counts in tests/run.
expect() {
	local name=$1 want=$2 got
	shift 2
	(tap_n=0 tap_bad=0; "$@") > "$work/out" 2>&1
	got=$(tap_count "$work/out")
	[ "$got" = "$want" ] || sed 's/^/#   | /' "$work/out"
	result "$([ "$got" = "$want" ] && echo 0 || echo 1)" \
		"$name: counts $want (passed failed skipped), got $got"
}

# boot DIR [STATUS [TAP-LINE...]]: a doctored boot result; no STATUS: the
# guest brought nothing back
boot() {
	local d=$work/$1
	rm -rf "$d"
	mkdir -p "$d"
	printf '[    0.000000] Linux version 6.1.0 (fragview@fragview)\n' \
		> "$d/console.log"
	[ $# -ge 2 ] || return 0
	echo "$2" > "$d/status"
	cp "$d/console.log" "$d/dmesg"
	[ $# -ge 3 ] || return 0
	printf '%s\n' "${@:3}" > "$d/tap"
}

# --- guest TAP from the results tar
boot good 0 'TAP version 13' 1..3 'ok 1 01-formats' '# a comment' \
	'ok 2 02-snapshot-einval' 'ok 3 03-pagetypeinfo # SKIP'
expect "tap: all ok, one skip" "3 0 1" guest_tap guest "$work/good" 0

boot failed 1 1..2 'ok 1 01-formats' 'not ok 2 04-odd-reads # exit 1'
expect "tap: a failed test fails once" "2 1 0" guest_tap guest "$work/failed" 1

boot garbled 1 1..3 'ok 1 01-formats' 'nt ok 2 04-odd-reads # exit 1' \
	'ok 3 05-concurrent'
expect "tap: garbled 'not ok' fails" "2 1 0" guest_tap guest "$work/garbled" 1

boot short 0 1..4 'ok 1 a' 'ok 2 b' 'ok 3 c'
expect "tap: plan 1..4, 3 results fails" "3 1 0" guest_tap guest "$work/short" 0

boot long 0 1..2 'ok 1 a' 'ok 2 b' 'ok 3 c'
expect "tap: plan 1..2, 3 results fails" "3 1 0" guest_tap guest "$work/long" 0

boot noplan 0 'ok 1 a' 'ok 2 b'
expect "tap: no plan fails" "2 1 0" guest_tap guest "$work/noplan" 0

boot order 0 1..2 'ok 2 b' 'ok 1 a'
expect "tap: results out of order fail" "2 1 0" guest_tap guest "$work/order" 0

boot status 3 1..2 'ok 1 a' 'ok 2 b'
expect "tap: status 3 with every test ok fails" "2 1 0" \
	guest_tap guest "$work/status" 3

boot status0 0 1..2 'ok 1 a' 'not ok 2 b # exit 1'
expect "tap: status 0 with a failed test fails twice" "1 2 0" \
	guest_tap guest "$work/status0" 0

boot rc 0 1..1 'ok 1 a'
expect "tap: run-guest.sh exit 1 on status 0 fails" "1 1 0" \
	guest_tap guest "$work/rc" 1

boot notap 0
expect "tap: no TAP file fails" "0 1 0" guest_tap guest "$work/notap" 0

boot empty 0 1..0
expect "tap: no results fails" "0 1 0" guest_tap guest "$work/empty" 0

boot badstatus 'segfault' 1..1 'ok 1 a'
expect "tap: garbled status fails, nothing passes" "0 1 0" \
	guest_tap guest "$work/badstatus" 1

# a timeout: run-guest.sh saw the console say "ok" but nothing came back
boot timeout
printf 'ok 1 01-formats\nok 2 02-snapshot-einval\n' >> "$work/timeout/console.log"
echo "guest timed out after 1500s" > "$work/timeout/run-error"
# shellcheck disable=SC2317 # called through expect
timed_out() {
	guest_tap guest "$work/timeout" 1
	checkers_alive "tests boot" "$work/timeout"
	check_logs "tests boot" "$work/timeout"
}
expect "tap: a timeout is one failure, no pass" "0 1 0" timed_out
expect "scenario boot: a timeout is one failure" "0 1 0" \
	boot_status off "$work/timeout" 1
boot offok 0
expect "scenario boot: status 0" "1 0 0" boot_status off "$work/offok" 0
boot offbad 1
expect "scenario boot: status 1 fails" "0 1 0" boot_status off "$work/offbad" 1

# --- the splat scanner, on doctored consoles and kernel logs
# splat NAME FILE LINE...: a boot whose FILE has LINEs among clean ones
# must fail check_logs
splat() {
	local name=$1 file=$2
	boot splat 0
	mkdir -p "$(dirname "$work/splat/$file")"
	printf '%s\n' "${@:3}" '[   30.000000] fragview-init: status 0' \
		>> "$work/splat/$file"
	expect "splats: $name" "0 1 0" check_logs boot "$work/splat"
}
splat "WARN_ON" console.log \
	'[   12.345678] ------------[ cut here ]------------' \
	'[   12.345679] WARNING: CPU: 1 PID: 97 at mm/page_alloc.c:2650 steal_suitable_fallback+0x1a/0x200'
splat "lockdep circular" console.log \
	'[   20.100000] ======================================================' \
	'[   20.100001] WARNING: possible circular locking dependency detected' \
	'[   20.100002] 6.1.0 #1 Not tainted'
splat "lockdep report whose head line is interleaved" console.log \
	'[   20.100001] WARNfragview-init: up 2.1 s, 2 cpus, 2 NUMA nodes' \
	'ING: inconsistent lock state'
splat "lockdep turned off" dmesg \
	'[   20.200000] INFO: lockdep is turned off.' \
	'[   20.200001] turning off the locking correctness validator.'
splat "BUG: page fault" console.log \
	'[   15.000000] BUG: unable to handle page fault for address: ffffea0000000000'
splat "kernel BUG at" console.log \
	'[   15.000000] kernel BUG at mm/page_alloc.c:1234!' \
	'[   15.000001] invalid opcode: 0000 [#1] PREEMPT SMP NOPTI'
# real reports: series v2's unbind of a pmem pfn device on each base,
# reading the never-initialised struct page of the info block
for v in 6.1 6.12; do
	boot realsplat 139
	cp "$top/tests/host/fixtures/v${v/./}-v2-pmem.console.log" "$work/realsplat/console.log"
	expect "splats: series v2's pmem unbind on $v, a real console (VM_BUG_ON_PAGE)" \
		"0 1 0" check_logs boot "$work/realsplat"
done
splat "sleeping function called from invalid context" console.log \
	'[   16.000000] BUG: sleeping function called from invalid context at mm/page_alloc.c:5180' \
	'[   16.000001] in_atomic(): 1, irqs_disabled(): 1, non_block: 0, pid: 98, name: cat'
splat "the same, head line garbled" console.log \
	'[   16.000000] BU[   16.1] fragview-init: G: sleeping function called from invalid context at mm/page_alloc.c:5180'
splat "bad page state" console.log \
	'[   17.000000] BUG: Bad page state in process fragmenter  pfn:2a3c0'
splat "VM_BUG_ON_PAGE" console.log \
	'[   17.000000] page:00000000deadbeef refcount:0 mapcount:0 mapping:0000000000000000 index:0x0 pfn:0x2a3c0' \
	'[   17.000001] page dumped because: VM_BUG_ON_PAGE(PageTail(page))'
splat "KASAN" console.log \
	'[   18.000000] BUG: KASAN: slab-out-of-bounds in mobility_pageblocks_show+0x1c0/0x300'
splat "RCU stall" console.log \
	'[   19.000000] rcu: INFO: rcu_sched self-detected stall on CPU'
splat "list corruption" console.log \
	'[   19.000000] list_add corruption. prev->next should be next (ffff88803fffd0c8), but was 0000000000000000.'
splat "Oops" console.log \
	'[   19.000000] Oops: 0000 [#1] PREEMPT SMP NOPTI'
splat "WARNING only in the guest's dmesg" dmesg \
	'[   12.345679] WARNING: CPU: 0 PID: 1 at mm/migrate.c:300 migrate_folio+0x10/0x20'
splat "WARNING only in a test's dmesg copy" 06-offline-read/dmesg \
	'[   12.345679] WARNING: CPU: 0 PID: 1 at mm/memory_hotplug.c:300 offline_pages+0x10/0x20'
splat "an allowed line does not hide a BUG" console.log \
	'[   17.000000] page dumped because: unmovable page' \
	'[   17.000001] kernel BUG at mm/page_isolation.c:100!'

boot clean 0
printf '%s\n' '[    1.000000] Lock dependency validator: Copyright (c) 2006 Red Hat, Inc., Ingo Molnar' \
	'[    9.000000] page:000000001e2a3c40 refcount:1 mapcount:0 mapping:0000000000000000 index:0x0 pfn:0x1c000' \
	'[    9.000001] flags: 0x1000(reserved|node=0|zone=1)' \
	'[    9.000002] page dumped because: unmovable page' \
	>> "$work/clean/console.log"
expect "splats: a clean boot and an offline's unmovable page pass" "1 0 0" \
	check_logs boot "$work/clean"
expect "splats: no console log fails" "0 1 0" check_logs boot "$work/nonexistent"

# --- qemu/run-guest.sh with a stub QEMU: no boot, the real script
mkdir -p "$work/bin" "$work/img"
: > "$work/img/bzImage"
: > "$work/img/initrd"
# The stub writes $STUB_CONSOLE to the serial file and a tar of $STUB_OUT
# (if set) onto the disk, then sleeps $STUB_SLEEP seconds.
cat > "$work/bin/qemu-system-x86_64" <<'EOF'
#!/bin/bash
for a in "$@"; do
	case $a in
	file:*) console=${a#file:} ;;
	file=*,*) disk=${a#file=}; disk=${disk%%,*} ;;
	esac
done
cat "$STUB_CONSOLE" > "$console"
[ -z "${STUB_OUT:-}" ] || tar cf - -C "$STUB_OUT" . |
	dd of="$disk" conv=notrunc status=none
sleep "${STUB_SLEEP:-0}"
EOF
chmod +x "$work/bin/qemu-system-x86_64"
printf 'fragview-init: up 2.0 s\nTAP version 13\n1..2\nok 1 01-formats\nok 2 02-snapshot-einval\n' \
	> "$work/console"

# stub_guest NAME RC-FILE TIMEOUT: a --tests boot (tests/lib/tap.sh
# guest_boot, as the guest suites boot) on the stub; its output in
# $work/NAME.log, run-guest.sh's exit status in RC-FILE
stub_guest() {
	local bz=$work/img/bzImage initrd=$work/img/initrd boot_rc
	PATH=$work/bin:$PATH STUB_CONSOLE=$work/console \
		guest_boot "$work/$1" 1G "$3" '' --tests > "$work/$1.log" 2>&1
	echo "$boot_rc" > "$2"
}

STUB_SLEEP=30 stub_guest stub-timeout "$work/rc.txt" 2
rc=$(cat "$work/rc.txt")
result "$([ "${rc:-0}" -ne 0 ] && grep -q 'timed out' "$work/stub-timeout/run-error" &&
	echo 0 || echo 1)" "run-guest.sh: a timeout fails and says so (exit $rc)"
grep -q 'console| ok 2 02-snapshot-einval' "$work/stub-timeout.log"
result $? "run-guest.sh: a timeout shows the console's tail"
expect "run-guest.sh: the tail's 'ok' lines count for nothing" "0 0 0" \
	cat "$work/stub-timeout.log"
expect "run-guest.sh: a timeout is one failure in the harness" "0 1 0" \
	guest_tap guest "$work/stub-timeout" "$rc"

# the guest's results disagree with its console: the tar wins
mkdir -p "$work/tar"
echo 1 > "$work/tar/status"
printf '1..2\nok 1 01-formats\nnot ok 2 02-snapshot-einval # exit 1\n' \
	> "$work/tar/tap"
STUB_OUT=$work/tar stub_guest stub-results "$work/rc.txt" 20
rc=$(cat "$work/rc.txt")
expect "run-guest.sh: results come from the tar, not the console" "2 1 0" \
	guest_tap guest "$work/stub-results" "$rc"
# a result of an earlier boot in the same directory does not count
STUB_SLEEP=30 stub_guest stub-results "$work/rc.txt" 2
expect "run-guest.sh: a stale result is not reused" "0 1 0" \
	guest_tap guest "$work/stub-results" "$(cat "$work/rc.txt")"

# --- tests/run's tally: skips are not passes, prose is not a result
printf '%s\n' 'ok 1 - a' 'ok 2 - b # SKIP no hugetlb' 'not ok 3 - c' \
	'    ok - indented' 'ok: prose' '# ok 4 - commented' '  console| ok 5 x' \
	> "$work/tally"
got=$(tap_count "$work/tally")
result "$([ "$got" = "2 1 1" ] && echo 0 || echo 1)" \
	"tests/run tally: 2 passed, 1 failed, 1 skipped (got $got)"

# --- tests/run's verdict on a suite: nothing can pass empty
# verdict_case NAME "P F S" RC PLAN LINE...: a suite that exited RC after
# printing LINE..., whose entry declares PLAN, must count P F S
verdict_case() {
	local name=$1 want=$2 rc=$3 plan=$4 got
	shift 4
	printf '%s\n' "$@" > "$work/suite.log"
	suite_verdict suite "$work/suite.log" "$rc" "$plan" > "$work/verdict"
	got="$sv_p $sv_f $sv_s"
	[ "$got" = "$want" ] || sed 's/^/#   | /' "$work/verdict"
	result "$([ "$got" = "$want" ] && echo 0 || echo 1)" \
		"tests/run verdict: $name: counts $want, got $got"
}
verdict_case "a suite meeting its plan" "2 0 0" 0 2 'ok 1 - a' 'ok 2 - b'
verdict_case "exit 0 with no result fails" "0 1 0" 0 0 'all fine'
verdict_case "fewer results than the plan fail" "2 1 0" 0 3 'ok 1 - a' 'ok 2 - b'
verdict_case "only skips fail" "0 1 2" 0 1 'ok 1 - a # SKIP' 'ok 2 - b # SKIP'
verdict_case "exit 1 without a 'not ok' fails" "1 1 0" 1 1 'ok 1 - a'
verdict_case "a failure is counted once" "1 1 0" 1 2 'ok 1 - a' 'not ok 2 - b'
# every suite of tests/run declares a plan of at least one result
plans=$(sed -nE 's/^\s*"[a-z0-9.-]+:([0-9]+):.*/\1/p' "$top/tests/run")
nsuites=$(grep -cE '^\s*"[a-z0-9.-]+:' "$top/tests/run")
result "$([ "$(grep -c '^[1-9]' <<<"$plans")" -eq "$nsuites" ] && echo 0 || echo 1)" \
	"tests/run: every one of its $nsuites suite entries declares a plan >= 1"

# --- the selftests comparison: skipped on every kernel is a skip, not a pass
for k in a b c; do
	mkdir -p "$work/st-$k"
	printf 'ran-test 0 1.0\nskipped-test 4 1.0\n' > "$work/st-$k/results"
done
python3 "$top/tests/host/selftests_compare.py" a="$work/st-a" b="$work/st-b" \
	c="$work/st-c" > "$work/st.out" 2>&1
got=$(tap_count "$work/st.out")
[ "$got" = "1 0 1" ] || sed 's/^/#   | /' "$work/st.out"
result "$([ "$got" = "1 0 1" ] && echo 0 || echo 1)" \
	"selftests_compare.py: a test skipped on every kernel counts as a skip (got $got)"

# a difference between kernels is re-run before it counts: one that every
# re-run repeats is a failure, one that comes and goes a skip
# st_runs DIR UNPATCHED-EXIT PATCHED-EXIT: first runs of test t on two kernels
st_runs() {
	mkdir -p "$1/u" "$1/p"
	echo "t $2 1.0" > "$1/u/results"
	echo "t $3 1.0" > "$1/p/results"
}
# st_rerun DIR LABEL EXIT...: re-runs of test t on kernel LABEL
st_rerun() {
	local d=$1 lb=$2 k=0 x
	shift 2
	for x in "$@"; do
		k=$((k + 1))
		mkdir -p "$d/rerun/$lb/mm-selftests/rep$k"
		echo "t $x 1.0" > "$d/rerun/$lb/mm-selftests/rep$k/results"
	done
}
st_compare() {
	python3 "$top/tests/host/selftests_compare.py" u="$1/u" p="$1/p" "${@:2}" \
		> "$1/out" 2>&1
	tap_count "$1/out"
}
st_runs "$work/st-diff" 0 1
got=$(st_compare "$work/st-diff" --differing "$work/st-diff/ids")
result "$([ "$got" = "0 1 0" ] && [ "$(cat "$work/st-diff/ids")" = t ] && echo 0 || echo 1)" \
	"selftests_compare.py: a difference fails and is listed for a re-run (got $got)"
st_rerun "$work/st-diff" u 0 0 0
st_rerun "$work/st-diff" p 1 1 1
got=$(st_compare "$work/st-diff" --reruns "$work/st-diff/rerun")
result "$([ "$got" = "0 1 0" ] && echo 0 || echo 1)" \
	"selftests_compare.py: a difference every re-run repeats fails (got $got)"
st_runs "$work/st-flaky" 0 1
st_rerun "$work/st-flaky" u 0 1 0
st_rerun "$work/st-flaky" p 1 0 0
got=$(st_compare "$work/st-flaky" --reruns "$work/st-flaky/rerun")
grep -q 'u not ok 1/4, p not ok 2/4' "$work/st-flaky/out" || sed 's/^/#   | /' "$work/st-flaky/out"
result "$([ "$got" = "0 0 1" ] && grep -q 'u not ok 1/4, p not ok 2/4' "$work/st-flaky/out" && echo 0 || echo 1)" \
	"selftests_compare.py: a difference the re-runs do not repeat is a skip with its flake rates (got $got)"

# --- the oracles' negative tests: a missing input fails, never drops out
mkdir -p "$work/no-fixtures"
FRAGVIEW_ORACLE_FIXTURES=$work/no-fixtures "$top/tests/host/negative.sh" \
	> "$work/negative.out" 2>&1
rc=$?
read -r _ nf _ < <(tap_count "$work/negative.out")
ncases=$(grep -cE '^\s*case_ ' "$top/tests/host/negative.sh")
# (checks of the captures in tests/fixtures/ still pass: not these inputs)
np=$(grep -cE '^ok .*(catches|on the real report)' "$work/negative.out")
result "$([ $rc -ne 0 ] && [ "$np" -eq 0 ] && [ "$nf" -ge "$ncases" ] && echo 0 || echo 1)" \
	"negative.sh without its fixtures: exit $rc, $np oracle cases passed, $nf failed (>= its $ncases cases)"

# --- an oracle's check over nothing (no steal, no call, a minimum of 0)
# is a skip, not a pass; over something it passes
F=$top/tests/host/fixtures
oracle_tally() {	# ORACLE ARGS...: "passed failed skipped" of its lines
	local log=$work/oracle.out
	python3 "$top/tests/host/$1" "${@:2}" > "$log" 2>&1
	tap_count "$log"
}
got=$(oracle_tally steal_flip.py --report "$F/grouping-off.report.gz" --kernel 6.1 \
	--min-steals 0 --min-claimed 0)
result "$([ "$got" = "0 0 10" ] && echo 0 || echo 1)" \
	"steal_flip.py on a capture without steals, minimums 0: 10 skips, no pass ($got)"
got=$(oracle_tally migrations.py --report "$F/grouping-off.report.gz" --kernel 6.1 --min-calls 0)
result "$([ "${got%% *}" = 0 ] && [ "${got##* }" -ge 5 ] && echo 0 || echo 1)" \
	"migrations.py on a capture without migrate_pages() calls: no pass ($got)"
got=$(oracle_tally steal_flip.py --report "$F/extfrag.report.gz" --kernel 6.1)
read -r p f s <<<"$got"
# two skips: the compaction-capture check, and that capture has no
# capture; the declined-claim check, and 6.1 declines none
result "$([ "$p" -ge 7 ] && [ "$f" = 0 ] && [ "$s" = 2 ] && echo 0 || echo 1)" \
	"steal_flip.py on a capture with steals but no compaction capture or decline: passes, those checks skip ($got)"

# --- make check: the tally is the last line, also when a test failed
mk=$work/mk
mkdir -p "$mk/tools/fragview" "$mk/tests"
printf '#!/bin/sh\nexit 0\n' > "$mk/tools/deps.sh"
printf 'all:\n\t@true\n' > "$mk/tools/fragview/Makefile"
printf '#!/bin/sh\necho "not ok 1 - x"\necho "0 passed, 1 failed, 0 skipped"\nexit 1\n' \
	> "$mk/tests/run"
chmod +x "$mk/tools/deps.sh" "$mk/tests/run"
(cd "$mk" && make -f "$top/Makefile" check > out 2>&1)
rc=$?
last=$(tail -n 1 "$mk/out")
[ "$last" = "0 passed, 1 failed, 0 skipped" ] || sed 's/^/#   | /' "$mk/out"
result "$([ $rc -ne 0 ] && [ "$last" = "0 passed, 1 failed, 0 skipped" ] && echo 0 || echo 1)" \
	"make check on a failure: exit $rc, last line is the tally ($last)"
finish
