#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Boot the fragview guest in QEMU, run a scenario / the guest tests / a
# shell, and bring the guest's /out back into DIR:
#
#   qemu/run-guest.sh --kernel BZ --initrd CPIO --out DIR
#       [--mem 1G] [--cpus 2] [--append "..."] [--timeout SECS] [--verbose]
#       [--drive IMAGE]... (--scenario NAME | --tests | --shell)
#
# The guest gets two NUMA nodes splitting memory evenly, a serial console
# logged to DIR/console.log and a sparse raw disk it writes a tar of /out
# onto; the host extracts that into DIR.  Exit status: the guest's
# scenario/tests status, or 1 with a clear message (timeout, no results),
# which also goes to DIR/run-error.  Each --drive IMAGE is one more
# virtio disk (/dev/vdb, /dev/vdc, ... in order), a raw image opened with
# snapshot=on: the guest's writes go to a temporary overlay, so every
# boot starts from the same image.
# TCG by default (-cpu max); FRAGVIEW_KVM=1 uses KVM instead.
set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
DISK_SIZE=512M

die() { echo "run-guest: error: $*" >&2; exit 1; }
say() { echo "==> $*" >&2; }
# fail MSG: give up on a boot; the reason also goes to DIR/run-error, for
# the test harness, and the console's last lines to stderr, marked so
# that no "ok N ..." line of the guest's can pass for a result
fail() {
	echo "$*" > "$out/run-error"
	{ tail -n 20 "$console" | tr -d '\r' | sed 's/^/  console| /'; } \
		>&2 2>/dev/null || true
	die "$*"
}
usage() {
	sed -n '7,10p' "${BASH_SOURCE[0]}" | sed '1s/^#  */usage: /; 2,$s/^#//' >&2
	exit 2
}

kernel= initrd= out= mem=1G cpus=2 append= timeout=600 verbose=0 mode=
scenario=
drives=()
while [ $# -gt 0 ]; do
	case $1 in
	--kernel|--initrd|--out|--mem|--cpus|--append|--timeout|--scenario|--drive)
		[ $# -ge 2 ] || usage ;;
	esac
	case $1 in
	--kernel) kernel=$2; shift ;;
	--initrd) initrd=$2; shift ;;
	--out) out=$2; shift ;;
	--mem) mem=$2; shift ;;
	--cpus) cpus=$2; shift ;;
	--append) append=$2; shift ;;
	--timeout) timeout=$2; shift ;;
	--drive)
		[ -r "$2" ] || die "drive image '$2' not readable"
		drives+=(-drive "file=$(realpath "$2"),format=raw,if=virtio,snapshot=on")
		shift ;;
	--scenario) mode=scenario; scenario=$2; shift ;;
	--tests) mode=tests ;;
	--shell) mode=shell ;;
	--verbose|-v) verbose=1 ;;
	-h|--help) usage ;;
	*) echo "run-guest: error: unknown option '$1'" >&2; usage ;;
	esac
	shift
done
[ -n "$kernel" ] && [ -n "$initrd" ] && [ -n "$out" ] && [ -n "$mode" ] ||
	usage
[ -r "$kernel" ] || die "kernel '$kernel' not readable"
[ -r "$initrd" ] || die "initrd '$initrd' not readable"
[[ $timeout =~ ^[0-9]+$ ]] || die "--timeout wants seconds, got '$timeout'"
[[ $cpus =~ ^[1-9][0-9]*$ ]] || die "--cpus wants a number, got '$cpus'"
if [ "$mode" = scenario ]; then
	[[ $scenario =~ ^[A-Za-z0-9_-]+$ ]] ||
		die "bad scenario name '$scenario'"
	[ -f "$REPO/qemu/guest/scenarios/$scenario.sh" ] ||
		die "no scenario '$scenario' (have: $(cd "$REPO/qemu/guest/scenarios" && ls | sed 's/\.sh$//' | tr '\n' ' '))"
fi

# memory in MiB, split evenly over two nodes
case $mem in
*[Gg]) mem_mib=$(( ${mem%[Gg]} * 1024 )) ;;
*[Mm]) mem_mib=${mem%[Mm]} ;;
*[0-9]) mem_mib=$mem ;;
*) die "--mem wants e.g. 1G or 768M, got '$mem'" ;;
esac
[[ $mem_mib =~ ^[0-9]+$ ]] && [ "$mem_mib" -ge 256 ] ||
	die "--mem must be at least 256M, got '$mem'"
node_mib=$(( mem_mib / 2 / 2 * 2 ))
mem_mib=$(( node_mib * 2 ))

# Scenarios and tests declare kernel parameters they need with a
# "# fv-append: ..." line (e.g. movablecore= for offlining) and QEMU
# devices with "# fv-device: ..." (e.g. a free-page-reporting balloon).
# A test that runs a scenario (exec sh /scenarios/NAME.sh) needs what
# that scenario declares; the tests boot needs only what its tests run.
case $mode in
scenario) needs=("$REPO/qemu/guest/scenarios/$scenario.sh") ;;
tests)
	needs=("$REPO"/tests/guest/*.sh)
	for s in $(sed -n 's|.*/scenarios/\([A-Za-z0-9_-]*\)\.sh.*|\1|p' \
			"$REPO"/tests/guest/*.sh | sort -u); do
		needs+=("$REPO/qemu/guest/scenarios/$s.sh")
	done
	;;
shell) needs=() ;;
esac
declared() {
	(cat /dev/null "${needs[@]}" 2>/dev/null || true) |
		sed -n "s/^# fv-$1: *//p" | sort -u
}
declared=$(declared append | tr '\n' ' ')
devices=()
for d in $(declared device); do devices+=(-device "$d"); done

# no_timer_check: under a loaded host TCG can miss the IO-APIC timer test
# and panic at boot ("IO-APIC + timer doesn't work")
cmdline="console=ttyS0 panic=-1 loglevel=6 no_timer_check fv.mode=$mode"
[ "$mode" = scenario ] && cmdline+=" fv.scenario=$scenario"
cmdline+=" ${declared}${append}"

if [ "${FRAGVIEW_KVM:-0}" = 1 ]; then
	[ -w /dev/kvm ] || die "FRAGVIEW_KVM=1 but /dev/kvm is not usable"
	accel=(-accel kvm -cpu host)
else
	accel=(-accel tcg -cpu "${FRAGVIEW_CPU:-max}")
fi

mkdir -p "$out"
out=$(cd "$out" && pwd)
# no result of an earlier boot in DIR may pass for this one's
rm -rf "${out:?}"/status "$out"/tap "$out"/dmesg "$out"/run-error \
	"$out"/console.log "$out"/disk.img
disk=$out/disk.img
truncate -s "$DISK_SIZE" "$disk"
console=$out/console.log

# vCPUs split like memory: the first half on node 0, the rest on node 1
# (a single vCPU leaves node 1 memory-only)
half=$(( (cpus + 1) / 2 ))
node1=(-numa node,nodeid=1,memdev=mem1)
[ "$cpus" -lt 2 ] || node1=(-numa node,nodeid=1,memdev=mem1,cpus=$half-$((cpus - 1)))
# one socket per vCPU: vCPUs of one socket on two nodes make the kernel
# WARN in topology_sane()
qemu=(qemu-system-x86_64 "${accel[@]}" -smp "$cpus,sockets=$cpus,cores=1,threads=1"
	-m "${mem_mib}M"
	-object memory-backend-ram,id=mem0,size=${node_mib}M
	-object memory-backend-ram,id=mem1,size=${node_mib}M
	-numa node,nodeid=0,memdev=mem0,cpus=0-$((half - 1)) "${node1[@]}"
	-kernel "$kernel" -initrd "$initrd" -append "$cmdline"
	-drive file="$disk",format=raw,if=virtio,cache=unsafe "${drives[@]}"
	"${devices[@]}"
	-nic none -nographic -no-reboot)

say "booting ($mode${scenario:+ $scenario}, ${mem_mib} MiB, $cpus vCPUs, ${accel[1]}), timeout ${timeout}s"
say "cmdline: $cmdline"
start=$(date +%s)
rc=0
if [ "$mode" = shell ]; then
	"${qemu[@]}" -chardev stdio,id=con,mux=on,signal=off,logfile="$console" \
		-serial chardev:con -mon chardev=con || rc=$?
else
	tailer=
	: > "$console"
	if [ "$verbose" = 1 ]; then
		tail -n +1 -f "$console" >&2 &
		tailer=$!
	fi
	timeout -k 10 "$timeout" "${qemu[@]}" -serial file:"$console" \
		-monitor none < /dev/null > "$out/qemu.log" 2>&1 || rc=$?
	[ -z "$tailer" ] || { sleep 0.5; kill "$tailer" 2>/dev/null || true; }
fi
elapsed=$(( $(date +%s) - start ))

if [ $rc = 124 ] || [ $rc = 137 ]; then
	fail "guest timed out after ${timeout}s (console: $console)"
fi
if [ $rc != 0 ]; then
	sed 's/^/  qemu| /' "$out/qemu.log" >&2 2>/dev/null || true
	fail "qemu exited with $rc"
fi

# the guest's /out: a tar at the start of the disk
if ! tar -xf "$disk" -C "$out" 2>"$out/untar.log"; then
	cat "$out/untar.log" >&2
	fail "no results on the guest disk (console: $console)"
fi
rm -f "$disk" "$out/untar.log"

if [ ! -s "$out/status" ]; then
	fail "guest wrote no status file (console: $console)"
fi
status=$(cat "$out/status")
[[ $status =~ ^[0-9]+$ ]] || fail "garbled guest status '$status'"

# per-event counts of every capture, for the log and the tests
for dat in "$out"/*/trace.dat; do
	[ -f "$dat" ] || continue
	trace-cmd report -i "$dat" 2>/dev/null |
		awk '{ for (i = 2; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) {
			name = $(i + 1); sub(/:$/, "", name); n[name]++; break } }
		     END { for (e in n) print e, n[e] }' | sort \
		> "${dat%/trace.dat}/event-counts" || true
done

say "guest finished in ${elapsed}s with status $status; results in $out"
exit "$status"
