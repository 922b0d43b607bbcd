# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# tests/lib/tap.sh - TAP results, guest builds and boots, and guest-boot
# checks shared by tests/run, tests/guest.sh, tests/debug.sh,
# tests/selftests.sh and tests/harness.sh (bash, sourced).
#
# What a guest boot (qemu/run-guest.sh) leaves in its DIR and what counts:
#   DIR/status    the guest's exit status, from the results tar; missing
#                 when nothing came back (timeout, panic, no tar)
#   DIR/tap       --tests only: the guest's TAP ("1..N" and one
#                 "ok N name" / "not ok N name # exit S" /
#                 "ok N name # SKIP" per test), from the results tar
#   DIR/run-error why run-guest.sh gave up, if it did
#   DIR/console.log, DIR/dmesg, DIR/*/dmesg  kernel logs, scanned for splats
# Results are never read from the console: kernel lines interleave there.

tap_n=0 tap_bad=0
# the checkout, for the qemu/ scripts below, wherever the suite runs from
tap_top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)

# result STATUS NAME: one TAP line of ours, numbered; STATUS 0 is ok
result() {
	tap_n=$((tap_n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $tap_n - $2"
	else
		tap_bad=$((tap_bad + 1))
		echo "not ok $tap_n - $2"
	fi
}

# skipped NAME: a skip, never a pass
skipped() {
	tap_n=$((tap_n + 1))
	echo "ok $tap_n - $1 # SKIP"
}

# finish: the closing tally and the exit status
finish() {
	echo "$((tap_n - tap_bad)) passed, $tap_bad failed"
	[ "$tap_bad" -eq 0 ]
	exit
}

# tap_count LOG: "PASSED FAILED SKIPPED" over LOG's result lines ("ok N",
# "ok -", "not ok ..."; indented ones too).  A skip is not a pass.
# shellcheck disable=SC2034 # used by tests/run
tap_result_re='^[[:space:]]*(not ok|ok)( [0-9]+| -)'
tap_count() {
	local p s f
	p=$(grep -Ec '^[[:space:]]*ok( [0-9]+| -)' "$1")
	s=$(grep -Eci '^[[:space:]]*ok( [0-9]+| -).*#[[:space:]]*skip' "$1")
	f=$(grep -Ec '^[[:space:]]*not ok( [0-9]+| -)' "$1")
	echo "$((p - s)) $f $s"
}

# tap_distinct LOG: how many distinct checks LOG's results are: a result
# that repeats another but for its numbers (the same check on another
# page, scale, block or capture) counts once
tap_distinct() {
	grep -E "$tap_result_re" "$1" |
		sed -E 's/^[[:space:]]*(not ok|ok)( [0-9]+)?( -)?[[:space:]]*//;
			s/[[:space:]]*#[[:space:]]*[Ss][Kk][Ii][Pp].*$//;
			s/0x[0-9a-fA-F]+|[0-9]+/N/g' | sort -u | wc -l
}

# suite_verdict NAME LOG RC PLAN: what tests/run counts for a suite that
# exited RC leaving LOG, whose entry declares at least PLAN results.  Sets
# sv_p sv_f sv_s (passed, failed, skipped) and prints one "not ok" line per
# way the suite can look green without having tested anything: exiting
# non-zero without a failure, no result at all, fewer results than its
# plan (a fixture or a scenario went missing), or nothing but skips.
sv_p=0 sv_f=0 sv_s=0
suite_verdict() {
	local name=$1 log=$2 rc=$3 plan=$4 total
	read -r sv_p sv_f sv_s < <(tap_count "$log")
	total=$((sv_p + sv_f + sv_s))
	if [ "$rc" -ne 0 ] && [ "$sv_f" -eq 0 ]; then
		echo "    not ok - $name exited $rc without reporting a failure:"
		tail -n 15 "$log" | sed 's/^/    | /'
		sv_f=$((sv_f + 1))
	fi
	if [ "$total" -lt "$plan" ]; then
		echo "    not ok - $name: $total results, its plan is at least $plan"
		sv_f=$((sv_f + 1))
	elif [ "$sv_p" -eq 0 ] && [ "$sv_f" -eq 0 ]; then
		echo "    not ok - $name: no test passed ($sv_s skipped)"
		sv_f=$((sv_f + 1))
	fi
}

# build_guest WHAT CONFIG...: the patched kernel with the extra config
# fragments CONFIG... into $bz, and the initramfs into $initrd, one result
# each; without both there is nothing to boot, so a failure ends the suite
build_guest() {
	local what=$1 c configs=()
	shift
	for c in "$@"; do
		configs+=(--extra-config "$c")
	done
	bz=$("$tap_top/qemu/build-kernel.sh" "${configs[@]}")
	result $? "$what builds ($bz)"
	initrd=$("$tap_top/qemu/build-initramfs.sh")
	result $? "initramfs builds ($initrd)"
	[ "$tap_bad" -eq 0 ] || finish
}

# guest_boot DIR MEM TIMEOUT APPEND RUN...: boot $bz with $initrd (see
# build_guest) into DIR, APPEND ('' for none) added to the kernel command
# line, RUN being run-guest.sh's --tests or --scenario NAME.  Sets
# boot_rc to run-guest.sh's exit status, which the checks below take as
# RC, and says how long the boot took.
guest_boot() {
	local dir=$1 mem=$2 timeout=$3 append=$4 start=$SECONDS
	shift 4
	# the oracles check every migration attempt: record migrate_folio,
	# which the default recording leaves out, unless the boot says
	# fv.migrate_folio=0
	case " $append " in
	*" fv.migrate_folio="*) ;;
	*) append="fv.migrate_folio=1${append:+ $append}" ;;
	esac
	"$tap_top/qemu/run-guest.sh" --kernel "$bz" --initrd "$initrd" \
		--out "$dir" --mem "$mem" --timeout "$timeout" \
		${append:+--append "$append"} "$@"
	boot_rc=$?
	echo "# boot into $dir: run-guest.sh exit $boot_rc, $((SECONDS - start)) s"
}

# boot_returned LABEL DIR RC: did the boot in DIR bring results back?  If
# not (timeout, crash, no tar; RC is run-guest.sh's exit status) that is
# one failure, and nothing of that boot may count as a pass.
boot_returned() {
	local why
	if [ -f "$2/status" ] && grep -qx '[0-9]\+' "$2/status"; then
		return 0
	fi
	why=$(head -n 1 "$2/run-error" 2>/dev/null)
	result 1 "$1: no results from the guest (${why:-run-guest.sh exited $3})"
	return 1
}

# boot_status LABEL DIR RC: a scenario boot; ok iff it returned status 0
boot_status() {
	boot_returned "$@" || return 1
	local st
	st=$(cat "$2/status")
	result "$([ "$st" = 0 ] && [ "$3" = 0 ] && echo 0 || echo 1)" \
		"$1: guest status $st"
}

# guest_tap LABEL DIR RC: the guest's TAP of a --tests boot, renumbered
# into ours, then one check that it is whole: a "1..N" plan, N results in
# order, no unparsable line, and a guest status that agrees (0 iff no
# test failed; run-guest.sh exiting with it).
guest_tap() {
	local label=$1 dir=$2 rc=$3 plan='' got=0 nok=0 st line num rest why=''
	boot_returned "$@" || return 1
	st=$(cat "$dir/status")
	if [ ! -f "$dir/tap" ]; then
		result 1 "$label: the guest wrote no TAP file (status $st)"
		return 1
	fi
	while IFS= read -r line || [ -n "$line" ]; do
		case $line in
		''|'TAP version 13'|'#'*) continue ;;
		esac
		if [[ $line =~ ^1\.\.([0-9]+)$ ]] && [ -z "$plan" ] &&
				[ "$got" = 0 ]; then
			plan=${BASH_REMATCH[1]}
			continue
		fi
		if ! [[ $line =~ ^(ok|not\ ok)\ ([0-9]+)\ (.+)$ ]]; then
			why+=" unparsable line '$line';"
			continue
		fi
		num=${BASH_REMATCH[2]}
		rest=${BASH_REMATCH[3]}
		got=$((got + 1))
		[ "$num" = "$got" ] || why+=" result $got numbered $num;"
		if [ "${BASH_REMATCH[1]}" = ok ]; then
			if [[ ${rest,,} =~ \#[[:space:]]*skip ]]; then
				skipped "$label: ${rest%% #*}"
			else
				result 0 "$label: $rest"
			fi
		else
			nok=$((nok + 1))
			result 1 "$label: $rest"
		fi
	done < "$dir/tap"
	[ -n "$plan" ] || why+=" no 1..N plan;"
	[ -z "$plan" ] || [ "$plan" = "$got" ] ||
		why+=" plan 1..$plan but $got results;"
	[ "$got" -gt 0 ] || why+=" no results;"
	if [ "$nok" = 0 ] && [ "$st" != 0 ]; then
		why+=" guest status $st without a failed test;"
	elif [ "$nok" != 0 ] && [ "$st" = 0 ]; then
		why+=" guest status 0 with $nok failed tests;"
	fi
	[ "$rc" = "$st" ] || why+=" run-guest.sh exited $rc, guest status $st;"
	[ -z "$why" ] || echo "# $label:$why"
	result "$([ -z "$why" ] && echo 0 || echo 1)" \
		"$label: TAP whole (plan 1..${plan:-?}, $got results, status $st)"
}

# What counts as a kernel splat: oopses, BUG()/WARN(), lockdep and
# atomic-context reports, DEBUG_VM page dumps and bad pages, DEBUG_LIST
# corruption, KASAN/UBSAN, RCU stalls, soft/hard lockups, hung tasks.
splat_re='BUG:|WARNING:|Oops|Call Trace|KASAN:|UBSAN:|kernel BUG|'
splat_re+='possible circular locking|inconsistent lock state|'
splat_re+='possible recursive locking|possible irq lock inversion|'
splat_re+='suspicious RCU usage|sleeping function called from invalid context|'
splat_re+='turning off the locking correctness validator|'
splat_re+='page dumped because|Bad page|detected stall|'
splat_re+='general protection fault|list_(add|del) corruption|'
splat_re+='blocked for more than|Kernel panic'

# Splats the platform or the tests cause on purpose, not a bug.  Each
# entry is an extended regex matched against a whole console line; keep
# it minimal and say why.
splat_allow=(
	# Memory offlining names the page that keeps a block from going
	# offline (has_unmovable_pages(), REPORT_FAILURE): the offline tests
	# and scenario try the movable blocks in turn, and the first ones
	# hold memblock allocations (PG_reserved; with KASAN its shadow).  A
	# dump_page() from VM_BUG_ON_PAGE / bad_page() is still caught by
	# its "kernel BUG at" / "BUG: Bad page" line.
	'page dumped because: unmovable page$'
)

# splats FILE: the splat lines of FILE that no allowlist entry matches
splats() {
	local line a
	tr -d '\r' < "$1" | grep -E -- "$splat_re" | while IFS= read -r line; do
		for a in "${splat_allow[@]}"; do
			[[ $line =~ $a ]] && continue 2
		done
		printf '%s\n' "$line"
	done
}

# check_logs LABEL DIR: no splat in DIR's console log nor in the kernel
# logs the guest brought back (its dmesg, the tests' own dmesg copies).
# A boot that brought nothing back was already counted as failed: a
# clean console then is no pass.
check_logs() {
	local f found=0
	for f in "$2/console.log" "$2/dmesg" "$2"/*/dmesg; do
		[ -r "$f" ] || continue
		if [ -n "$(splats "$f")" ]; then
			found=1
			echo "# kernel splats in $f:"
			splats "$f" | head -n 40 | sed 's/^/#   /'
		fi
	done
	[ -r "$2/console.log" ] || { echo "# no console log in $2"; found=1; }
	# whole reports, for the findings
	[ "$found" = 0 ] || tr -d '\r' < "$2/console.log" 2>/dev/null |
		grep -E -A 60 -- "$splat_re" > "$2/splats.txt"
	if [ "$found" = 0 ] && [ ! -f "$2/status" ]; then
		echo "# $1: no kernel splat in what the console caught"
		return 0
	fi
	result $found "$1: no BUG/WARNING/lockdep/KASAN/Oops in the kernel logs"
}

# checkers_built CONFIG OPTION...: the kernel's .config has every OPTION=y
checkers_built() {
	local config=$1 opt missing=''
	shift
	for opt in "$@"; do
		grep -qx "CONFIG_$opt=y" "$config" 2>/dev/null || missing+=" $opt"
	done
	[ -z "$missing" ] || echo "# $config lacks:$missing"
	result "$([ -z "$missing" ] && echo 0 || echo 1)" "kernel has $*"
}

# checkers_alive LABEL DIR: lockdep started in the --tests boot in DIR
# and still validates after the hotplug cycles of 06-offline-read (it
# turns itself off after its first report)
checkers_alive() {
	local state=$2/06-offline-read/debug-state
	[ -f "$2/status" ] || return 0
	grep -q 'Lock dependency validator' "$2/console.log" "$2/dmesg" 2>/dev/null
	result $? "$1: lockdep is active in the guest"
	[ -r "$state" ] && sed 's/^/# /' "$state"
	grep -Eq '^ *debug_locks: *1$' "$state" 2>/dev/null
	result $? "$1: lockdep still validating after the offline test (debug_locks 1)"
}
