#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# description: the guest tests on a debug build of the patched kernel
# (qemu/checkers.config and qemu/selftests.config, as in make check:
# lockdep, DEBUG_VM, atomic-sleep and list checks, and what the guest tests
# need, such as CPUSETS for 20-migrate; plus qemu/debug.config:
# DEBUG_PAGEALLOC, KASAN): boot it
# twice (every tests/guest/*.sh; and the fragment scenario with
# page_group_by_mobility=off), then fail on any kernel splat in the
# console logs and kernel logs of both boots (tests/lib/tap.sh).
#   FRAGVIEW_DEBUG_TIMEOUT=S   per boot; default 1200 s
#   FRAGVIEW_KERNEL=VER        the base (make check-debug KERNEL=VER),
#                              default 6.1; results in out/debug-tests-VER
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
# The debug guest (KASAN) ran the tests in 205 s and the grouping-off
# scenario in 129 s (TCG, shared 2-core host): ~6x headroom, yet two hung
# boots still fit in a CI hour
tests_timeout=${FRAGVIEW_DEBUG_TIMEOUT:-1200}
# freed pages are unmapped from the direct map: stray accesses fault
debug_append="debug_pagealloc=on"

# shellcheck source=tests/lib/tap.sh
. "$top/tests/lib/tap.sh"
# shellcheck source=qemu/kernel-base.sh
. "$top/qemu/kernel-base.sh"
base=${FRAGVIEW_KERNEL:-$fv_default_base}
if ! err=$(fv_base_check "$base"); then
	result 1 "$err"
	finish
fi
out=${FRAGVIEW_OUT:-$top/out}/debug-tests$(fv_base_suffix "$base")

build_guest "debug kernel" "$top/qemu/checkers.config" \
	"$top/qemu/selftests.config" "$top/qemu/debug.config"
# the checkers we rely on are really in the kernel we boot
checkers_built "$(dirname "$bz")/config" PROVE_LOCKING DEBUG_ATOMIC_SLEEP \
	DEBUG_VM DEBUG_LIST DEBUG_PAGEALLOC KASAN

rm -rf "$out"
mkdir -p "$out"

# --- boot 1: every guest test (run-guest.sh adds the boot options they
# declare, e.g. movablecore= for the offline tests)
# 1.5 GiB: KASAN's shadow takes an eighth of memory, and the tests boot
# gives 640 MiB to ZONE_MOVABLE (movablecore=), so at 1 GiB the other
# zones are too small for the drain scenario's fragmenter (it was
# OOM-killed there, pipe buffers cannot use ZONE_MOVABLE)
guest_boot "$out/on" 1536M "$tests_timeout" "$debug_append" --tests
guest_tap "debug guest" "$out/on" "$boot_rc"
checkers_alive "debug tests boot" "$out/on"
state=$out/on/06-offline-read/debug-state
if [ -f "$out/on/status" ]; then
	[ -r "$state" ] && ! grep -Eq '^DirectMap(2M|1G): *[1-9]' "$state"
	result $? "debug_pagealloc is on (direct map in 4k pages only)"
fi
check_logs "tests boot" "$out/on"

# --- boot 2: grouping by mobility off, the fragment scenario
guest_boot "$out/off" 1G "$tests_timeout" \
	"$debug_append page_group_by_mobility=off" --scenario fragment
boot_status "debug guest, grouping off: fragment scenario" "$out/off" "$boot_rc"
check_logs "grouping-off boot" "$out/off"
finish
