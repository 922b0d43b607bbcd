#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# description: the guest tests on a debug build of the patched kernel
# (qemu/debug.config: lockdep, DEBUG_VM, DEBUG_PAGEALLOC, atomic-sleep
# checks, KASAN): boot it twice (every tests/guest/*.sh; and the fragment scenario
# with page_group_by_mobility=off), then fail on any kernel splat in the
# console logs and kernel logs of both boots.
#   FRAGVIEW_DEBUG_TIMEOUT=S   per boot; default 1200 s
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
out=${FRAGVIEW_OUT:-$top/out}/debug-tests
# The debug guest (KASAN) ran the tests in 205 s and the grouping-off
# scenario in 129 s (TCG, shared 2-core host): ~6x headroom, yet two hung
# boots still fit in a CI hour
tests_timeout=${FRAGVIEW_DEBUG_TIMEOUT:-1200}
# freed pages are unmapped from the direct map: stray accesses fault
debug_append="debug_pagealloc=on"

n=0 bad=0
result() {	# result STATUS NAME
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else bad=$((bad + 1)); echo "not ok $n - $2"; fi
}
finish() { echo "$((n - bad)) passed, $bad failed"; [ "$bad" -eq 0 ]; exit; }

# What counts as a kernel splat: oopses, BUG()/WARN(), lockdep and
# atomic-context reports, DEBUG_VM page dumps, KASAN, RCU stalls.
splat_re='BUG:|WARNING:|Oops|Call Trace|KASAN:|kernel BUG|'
splat_re+='possible circular locking|inconsistent lock state|'
splat_re+='possible recursive locking|possible irq lock inversion|'
splat_re+='suspicious RCU usage|sleeping function called from invalid context|'
splat_re+='turning off the locking correctness validator|'
splat_re+='page dumped because|Bad page|detected stall|general protection fault'

# Splats the emulated platform causes, not our code.  Each entry is an
# extended regex matched against a whole console line; keep it minimal and
# say why.
allow=(
	# Memory offlining names the page that keeps a block from going
	# offline (has_unmovable_pages(), REPORT_FAILURE): the offline tests
	# try the movable blocks in turn, and with KASAN the first ones hold
	# its memblock-allocated shadow (PG_reserved).  A dump_page() that
	# comes from VM_BUG_ON_PAGE / bad_page() is still caught by its
	# "kernel BUG at" / "BUG: Bad page" line.
	'page dumped because: unmovable page$'
)

# splats FILE: the splat lines of FILE that no allowlist entry matches
splats() {
	local line a
	tr -d '\r' < "$1" | grep -E -- "$splat_re" | while IFS= read -r line; do
		for a in "${allow[@]}"; do
			[[ $line =~ $a ]] && continue 2
		done
		printf '%s\n' "$line"
	done
}

# check_logs NAME DIR: no splat in DIR's console log nor in the kernel
# logs the guest brought back (its dmesg and the tests' own dmesg copies)
check_logs() {
	local f found=0
	for f in "$2/console.log" "$2/dmesg" "$2"/*/dmesg; do
		[ -r "$f" ] || continue
		if [ -n "$(splats "$f")" ]; then
			found=1
			echo "# kernel splats in ${f#"$out"/}:"
			splats "$f" | head -n 40 | sed 's/^/#   /'
		fi
	done
	[ -r "$2/console.log" ] || { echo "# no console log in $2"; found=1; }
	# whole reports, for the findings
	[ "$found" = 0 ] || tr -d '\r' < "$2/console.log" |
		grep -E -A 60 -- "$splat_re" > "$2/splats.txt"
	result $found "$1: no BUG/WARNING/lockdep/KASAN/Oops in the kernel logs"
}

checkers="PROVE_LOCKING DEBUG_ATOMIC_SLEEP DEBUG_VM DEBUG_PAGEALLOC KASAN"
bz=$("$top/qemu/build-kernel.sh" --extra-config "$top/qemu/debug.config")
result $? "debug kernel builds ($bz)"
initrd=$("$top/qemu/build-initramfs.sh")
result $? "initramfs builds ($initrd)"
[ "$bad" -eq 0 ] || finish

# the checkers we rely on are really in the kernel we boot
config=$(dirname "$bz")/config
missing=
for opt in $checkers; do
	grep -qx "CONFIG_$opt=y" "$config" || missing+=" $opt"
done
[ -z "$missing" ] || echo "# $config lacks:$missing"
result "$([ -z "$missing" ] && echo 0 || echo 1)" "debug kernel has $checkers"

rm -rf "$out"
mkdir -p "$out"

# --- boot 1: every guest test (run-guest.sh adds the boot options they
# declare, e.g. movablecore= for the offline tests)
start=$(date +%s)
"$top/qemu/run-guest.sh" --kernel "$bz" --initrd "$initrd" --out "$out/on" \
	--mem 1G --timeout "$tests_timeout" --append "$debug_append" --tests
echo "# guest exit status $?, $(( $(date +%s) - start )) s"
if [ -r "$out/on/console.log" ]; then
	grep -q 'Lock dependency validator' "$out/on/console.log" "$out/on/dmesg" 2>/dev/null
	result $? "lockdep is active in the guest"
	# the guest's own TAP lines, renumbered into ours
	while read -r st rest; do
		name=$(echo "$rest" | sed -E 's/^[0-9]+ //')
		case $st in
		ok) result 0 "debug guest: $name" ;;
		*) result 1 "debug guest: $name" ;;
		esac
	done < <(tr -d '\r' < "$out/on/console.log" | grep -E '^(ok|not ok) [0-9]+ ' |
		 sed -E 's/^not ok/not_ok/')
fi
result "$([ -s "$out/on/status" ] && echo 0 || echo 1)" "debug guest ran the tests and wrote back its results"
# saved by 06-offline-read after its hotplug cycles
state=$out/on/06-offline-read/debug-state
[ -r "$state" ] && sed 's/^/# /' "$state"
grep -Eq '^ *debug_locks: *1$' "$state" 2>/dev/null
result $? "lockdep still validating after the offline test (debug_locks 1)"
[ -r "$state" ] && ! grep -Eq '^DirectMap(2M|1G): *[1-9]' "$state"
result $? "debug_pagealloc is on (direct map in 4k pages only)"
check_logs "tests boot" "$out/on"

# --- boot 2: grouping by mobility off, the fragment scenario
start=$(date +%s)
"$top/qemu/run-guest.sh" --kernel "$bz" --initrd "$initrd" --out "$out/off" \
	--mem 1G --timeout "$tests_timeout" \
	--append "$debug_append page_group_by_mobility=off" --scenario fragment
result $? "debug guest, grouping off: fragment scenario ($(( $(date +%s) - start )) s)"
check_logs "grouping-off boot" "$out/off"
finish
