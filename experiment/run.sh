#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Re-run Mel Gorman's 2005 high-order experiment (Light Fragmentation
# Avoidance v20: "HugePages under load 73 vs 113, after the tests 78 vs
# 118") on a kernel base: 6.1 (`make experiment`) or another directory
# of kernel-patches/ (`make experiment KERNEL=6.12`).
#
# Each boot runs qemu/guest/scenarios/exp-highalloc.sh: a mixed load
# (mixload) runs, and while it keeps running N attempts each try to grow
# the hugetlb pool by one order-9 page ("under load"); the load stops,
# caches are dropped, and the N attempts are made again ("at rest").
# Four configurations: grouping by mobility on (default) or off (boot
# parameter page_group_by_mobility=off from kernel-patches/), compaction
# off or on; --runs boots of each, interleaved.
#
#   experiment/run.sh [--base VER] [--runs N] [--mem SIZE] [--load SECS]
#                     [--kernel BZIMAGE] [--report-only] [--dry-run]
#
# --base is the kernel base (default $FRAGVIEW_KERNEL, else 6.1); --kernel
# uses a prebuilt patched bzImage of that base instead of
# qemu/build-kernel.sh (the provenance then names that file);
# --report-only redoes the report from the base's data; --dry-run says
# what a run would build, boot and write, and stops.
#
# Writes experiment/data/ (per-run figures as TSV, each boot's raw files
# as runs/NAME.tar.xz, provenance), experiment/results.md and
# out/experiment/maps.html, all from the data of this run; each boot's
# full output stays in out/experiment/NAME/.  A base other than 6.1
# writes experiment/data-VER/, experiment/results-VER.md and
# out/experiment-VER/ instead, so that the bases' results live side by side.
set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
export FRAGVIEW_CACHE=${FRAGVIEW_CACHE:-/var/cache/fragview}
FRAGVIEW=$REPO/tools/fragview/fragview
# shellcheck source=qemu/kernel-base.sh
. "$REPO/qemu/kernel-base.sh"

say() { echo "==> $*" >&2; }
die() { echo "experiment: error: $*" >&2; exit 1; }

runs=10
mem=512M
load=15
gap=40
kernel=
report_only=0
dry_run=0
base=${FRAGVIEW_KERNEL:-$fv_default_base}
while [ $# -gt 0 ]; do
	case $1 in
	--base) [ $# -ge 2 ] || die "--base wants a kernel base"; base=$2; shift ;;
	--dry-run) dry_run=1 ;;
	--runs)
		[ $# -ge 2 ] && [[ $2 =~ ^[1-9][0-9]*$ ]] || die "--runs wants a number"
		runs=$2; shift ;;
	--mem) [ $# -ge 2 ] || die "--mem wants a size"; mem=$2; shift ;;
	--load)
		[ $# -ge 2 ] && [[ $2 =~ ^[1-9][0-9]*$ ]] || die "--load wants seconds"
		load=$2; shift ;;
	--report-only) report_only=1 ;;
	--kernel)
		[ $# -ge 2 ] && [ -s "$2" ] || die "--kernel wants a bzImage"
		kernel=$(realpath "$2"); shift ;;
	-h|--help) sed -n '4,31p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) die "unknown option '$1'" ;;
	esac
	shift
done
err=$(fv_base_check "$base") || die "$err"
export FRAGVIEW_KERNEL=$base
sfx=$(fv_base_suffix "$base")
SERIES=kernel-patches/$base/series
OUTDIR=${OUT:-$REPO/out}/experiment$sfx
DATA=$REPO/experiment/data$sfx
RESULTS=$REPO/experiment/results$sfx.md
if [ $dry_run = 1 ]; then
	echo "base $base: $([ -f "$REPO/$SERIES" ] && echo "$SERIES" || echo "no $SERIES (nothing to build)")"
	echo "kernel: ${kernel:-qemu/build-kernel.sh --kernel $base}"
	echo "boots: $((runs * 4)) ($runs runs x grouping on/off x compaction off/on), $mem each, load $load s"
	echo "writes: ${DATA#"$REPO"/}/, ${RESULTS#"$REPO"/}, $OUTDIR/"
	exit 0
fi

[ -x "$FRAGVIEW" ] || make -s -C "$REPO/tools/fragview" >&2 ||
	die "cannot build fragview"

if [ $report_only = 1 ]; then
	[ -s "$DATA/runs.tsv" ] || die "--report-only: no $DATA/runs.tsv"
	exec python3 "$REPO/experiment/report.py" "$DATA" \
		"$RESULTS" "$OUTDIR/maps.html" "$FRAGVIEW"
fi

# --- provenance: the series as committed, the kernel it built
t0=$(date +%s)
[ -f "$REPO/$SERIES" ] || die "no $SERIES: base $base has no series yet"
[ -z "$(git -C "$REPO" status --porcelain -- "kernel-patches/$base" qemu experiment/run.sh)" ] ||
	say "warning: kernel-patches/$base/, qemu/ or experiment/run.sh have uncommitted changes"
if [ -z "$kernel" ]; then
	kernel=$("$REPO/qemu/build-kernel.sh") || die "the patched $base kernel did not build"
fi
initrd=$("$REPO/qemu/build-initramfs.sh") || die "initramfs build failed"
config=$(dirname "$kernel")/config
# Boot private copies: the cache keeps only the last few kernels and
# initramfs images, and a build elsewhere may evict these mid-run.
mkdir -p "$OUTDIR/boot"
cp "$kernel" "$OUTDIR/boot/bzImage"
cp "$initrd" "$OUTDIR/boot/initramfs.cpio.gz"
rm -rf "$DATA.new"
mkdir -p "$DATA.new/runs"
{
	echo -e "head\t$(git -C "$REPO" rev-parse HEAD)"
	echo -e "base\t$base"
	echo -e "kernel_source\t$(dpkg-query -W -f='${Package} ${Version}' "linux-source-$base" 2>/dev/null || echo "linux-source-$base")"
	echo -e "series_commit\t$(git -C "$REPO" log -1 --format=%H -- "kernel-patches/$base")"
	echo -e "series\t$(grep -v '^[[:space:]]*\(#\|$\)' "$REPO/$SERIES" | tr '\n' ' ')"
	echo -e "kernel\t$kernel"
	echo -e "kernel_config_sha256\t$( [ -r "$config" ] && sha256sum < "$config" | cut -c1-64 || echo unknown)"
	echo -e "initramfs\t$(basename "$initrd")"
	echo -e "mem\t$mem"
	echo -e "load_seconds\t$load"
	echo -e "gap_ms\t$gap"
	echo -e "runs\t$runs"
	echo -e "host\t$(nproc) CPUs, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)"
	echo -e "started\t$(date -u '+%Y-%m-%d %H:%M') UTC"
} > "$DATA.new/provenance.tsv"

# --- the boots: every configuration once per run, the order alternating
# from run to run so that host load and drift hit all of them alike
configs=(on-off off-off on-on off-on)
for r in $(seq 1 "$runs"); do
	order=("${configs[@]}")
	[ $((r % 2)) = 1 ] || order=(off-on on-on off-off on-off)
	for cfg in "${order[@]}"; do
		g=${cfg%-*} c=${cfg#*-}
		name=$(printf 'g%s-c%s-%02d' "$g" "$c" "$r")
		append="fv.exp.compaction=$c fv.exp.load=$load fv.exp.wait=$gap"
		[ "$g" = on ] || append+=" page_group_by_mobility=off"
		say "run $r/$runs: grouping $g, compaction $c (host load $(cut -d' ' -f1 /proc/loadavg))"
		# a boot that fails is kept (as NAME-failed) and done once more
		for try in 1 2; do
			rm -rf "${OUTDIR:?}/$name"
			b0=$(date +%s)
			status=ok
			"$REPO/qemu/run-guest.sh" --kernel "$OUTDIR/boot/bzImage" \
				--initrd "$OUTDIR/boot/initramfs.cpio.gz" \
				--mem "$mem" --out "$OUTDIR/$name" \
				--scenario exp-highalloc --append "$append" \
				--timeout 900 >/dev/null || status=failed
			[ $status = ok ] || [ $try = 2 ] || {
				rm -rf "${OUTDIR:?}/$name-failed"
				mkdir -p "$OUTDIR/$name"
				mv "$OUTDIR/$name" "$OUTDIR/$name-failed"
				python3 "$REPO/experiment/extract.py" \
					"$OUTDIR/$name-failed" "$name-failed" "$g" "$c" \
					"$r" failed $(( $(date +%s) - b0 )) "$DATA.new" ||
					die "extract.py failed on $name-failed"
				say "$name failed; once more"
				continue
			}
			python3 "$REPO/experiment/extract.py" "$OUTDIR/$name" "$name" \
				"$g" "$c" "$r" "$status" $(( $(date +%s) - b0 )) \
				"$DATA.new" || die "extract.py failed on $name"
			break
		done
	done
done
echo -e "wall_clock_seconds\t$(( $(date +%s) - t0 ))" >> "$DATA.new/provenance.tsv"
echo -e "finished\t$(date -u '+%Y-%m-%d %H:%M') UTC" >> "$DATA.new/provenance.tsv"
rm -rf "$DATA"
mv "$DATA.new" "$DATA"
python3 "$REPO/experiment/report.py" "$DATA" "$RESULTS" \
	"$OUTDIR/maps.html" "$FRAGVIEW"
