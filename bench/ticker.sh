#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# What a periodic census + snapshot costs (`make bench-ticker`): should the
# recorder take the free-page state every second by default, so that
# fragview explain has fresh figures at every failure?
#
#   bench/ticker.sh [--reps N] [--mems "1024 4096"]
#
# Boots the patched guest of the kernel cache (qemu/checkers.config, the
# kernel tests/guest.sh builds: lockdep and DEBUG_VM make every lock and
# page check dearer, so the costs are upper bounds) under TCG with
# -icount shift=0,sleep=off on one vCPU: the guest clock advances one ns
# per guest instruction, so the figures are instruction counts that host
# load cannot disturb.  Per guest size, the scenario bench-ticker
# (qemu/guest/scenarios/bench-ticker.sh) times the census and snapshot
# writes and a fault loop with and without a 1 s ticker, alternating.
#
# Results: bench/results-ticker.md (written by bench/ticker_report.py from
# the data alone) and bench/data-ticker/ (data.tsv, commands, guest logs).
set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
OUTDIR=${OUT:-$REPO/out}/bench-ticker
KEEP=$REPO/bench/data-ticker
reps=5
mems="1024 4096"
die() { echo "bench-ticker: error: $*" >&2; exit 1; }
while [ $# -gt 0 ]; do
	case $1 in
	--reps) [ $# -ge 2 ] || die "--reps wants a number"; reps=$2; shift ;;
	--mems) [ $# -ge 2 ] || die "--mems wants sizes in MiB"; mems=$2; shift ;;
	-h|--help) sed -n '3,20p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) die "unknown option '$1'" ;;
	esac
	shift
done
[[ $reps =~ ^[1-9][0-9]*$ ]] || die "--reps wants a positive number"

export FRAGVIEW_KERNEL=${FRAGVIEW_KERNEL:-6.1}
kernel=$("$REPO/qemu/build-kernel.sh" --extra-config "$REPO/qemu/checkers.config" \
	--extra-config "$REPO/qemu/selftests.config") || die "kernel build failed"
initrd=$("$REPO/qemu/build-initramfs.sh") || die "initramfs build failed"
rm -rf "$OUTDIR"
mkdir -p "$OUTDIR"
data=$OUTDIR/data.tsv
printf 'mem_mib\tkind\tname\trep\tns\tevents\tbytes\tblocks\tops\n' > "$data"
: > "$OUTDIR/commands.txt"

for mib in $mems; do
	dir=$OUTDIR/$mib
	mkdir -p "$dir"
	q=(qemu-system-x86_64 -accel tcg -cpu max -icount shift=0,sleep=off
	   -smp 1 -m "${mib}M"
	   -object "memory-backend-ram,id=mem0,size=$((mib / 2))M"
	   -object "memory-backend-ram,id=mem1,size=$((mib / 2))M"
	   -numa node,nodeid=0,memdev=mem0,cpus=0 -numa node,nodeid=1,memdev=mem1
	   -kernel "$kernel" -initrd "$initrd"
	   -append "console=ttyS0 panic=-1 loglevel=4 fv.mode=scenario fv.scenario=bench-ticker fv.bench.reps=$reps"
	   -nographic -no-reboot -serial "file:$dir/console.log" -monitor none)
	echo "${q[*]}" >> "$OUTDIR/commands.txt"
	echo "==> $mib MiB guest, $reps reps" >&2
	timeout 3600 "${q[@]}" < /dev/null > "$dir/qemu.log" 2>&1 ||
		die "guest of $mib MiB failed; see $dir/console.log"
	tr -d '\r' < "$dir/console.log" > "$dir/log"
	grep -q '^bench: done' "$dir/log" || die "guest of $mib MiB did not finish; see $dir/log"
	awk -v m="$mib" '
		$1 == "tick" { print m "\ttick\t" $2 "\t" $3 "\t" $4 "\t" $6 "\t" $8 "\t" $10 "\t" }
		$1 == "result" { print m "\tfaultloop\t" $3 "\t" $4 "\t" $5 "\t\t\t\t" $7 }' \
		"$dir/log" >> "$data"
done

rm -rf "$KEEP"
mkdir -p "$KEEP"
cp "$data" "$OUTDIR/commands.txt" "$KEEP/"
for mib in $mems; do
	grep -E '^(tick|result|bench:)' "$OUTDIR/$mib/log" > "$KEEP/log-$mib.txt"
done
python3 "$REPO/bench/ticker_report.py" "$KEEP/data.tsv" \
	--commit "$(git -C "$REPO" rev-parse --short HEAD)" > "$REPO/bench/results-ticker.md"
cat "$REPO/bench/results-ticker.md"
