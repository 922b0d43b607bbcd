#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Mel Gorman's 2005 high-order test (Light Fragmentation Avoidance v20:
# "HugePages under load 73 vs 113, after the tests 78 vs 118"), as
# mmtests' stress-highalloc measures it, on 6.1 and 6.12 in one run.
#
# Every boot runs qemu/guest/scenarios/exp-stress.sh: a load that reclaim
# can act on (a kernel tree copied and read on ext4, swap, mixload's
# anonymous memory, files, slab, pipes and forks), order-9 attempts of
# two styles (hugetlb pool, THP fault) under the load and after it.
# Compaction is off in every arm: only reclaim makes order-9 blocks,
# which is the mechanism grouping by mobility is about.  Arms:
#
#   6.1-on-pinned  6.1-off-pinned  6.12-on-pinned  6.12-off-pinned
#       kernel x grouping by mobility (page_group_by_mobility=off from
#       kernel-patches/), per-cpu lists pinned the same on both kernels
#       (vm.percpu_pagelist_high_fraction=--pcp)
#   6.12-on-auto
#       6.12's per-cpu high auto-tuning left on (fraction 0)
#
# Run r boots every arm once (6.12-on-auto in the first --auto-runs runs
# only: it tests a hypothesis, the four others are the headline), in an
# order rotated from run to run, so that host load and drift hit all
# arms alike.
#
#   experiment/run.sh [--runs N] [--auto-runs N] [--arms A,B,...]
#                     [--mem SIZE] [--n N] [--nload N] [--pcp FRACTION]
#                     [--load SECS] [--jobs N] [--fresh]
#                     [--report-only] [--dry-run]
#
# Defaults: 20 runs, 10 of them with 6.12-on-auto, 384 MiB guests.
# --n is the attempts per style and phase (default half of RAM in
# 2 MiB pages, so that the two styles' attempts of a phase could take
# all of it); --nload the same under the load (default a twelfth of RAM
# in 2 MiB pages: there each hugetlb attempt reclaims until it succeeds,
# seconds each under TCG);
# --jobs boots that many guests at a time (default 2: a TCG guest keeps
# about one host CPU busy; both arms of a pair share the host alike).
#
# Resumable: a boot whose row is in experiment/data/boots.tsv is not made
# again, so a run that stopped goes on where it stopped (the kernels,
# disks and settings must be the ones its provenance names, else run.sh
# stops; --fresh starts over).  Writes experiment/data/ (boots.tsv,
# phases.tsv, attempts.tsv, each boot's raw files as runs/NAME.tar.xz,
# provenance.tsv), then experiment/results.md and out/experiment/maps.html
# (report.py); each boot's full output (with trace.dat) stays in
# out/experiment/NAME/.
set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
invocation="experiment/run.sh $*"
export FRAGVIEW_CACHE=${FRAGVIEW_CACHE:-/var/cache/fragview}
FRAGVIEW=$REPO/tools/fragview/fragview

say() { echo "==> $*" >&2; }
die() { echo "experiment: error: $*" >&2; exit 1; }

ALL_ARMS=6.1-on-pinned,6.1-off-pinned,6.12-on-pinned,6.12-off-pinned,6.12-on-auto
runs=20
auto_runs=10
arms=$ALL_ARMS
mem=384M
n=
nload=
pcp=128
load=15
window=8
gap=40
jobs=2
fresh=0
report_only=0
dry_run=0
while [ $# -gt 0 ]; do
	case $1 in
	--runs|--auto-runs|--n|--nload|--pcp|--load|--jobs)
		[ $# -ge 2 ] && [[ $2 =~ ^[0-9]+$ ]] && [ "$2" -gt 0 ] ||
			die "$1 wants a positive number"
		case $1 in
		--runs) runs=$2 ;; --n) n=$2 ;; --pcp) pcp=$2 ;; --load) load=$2 ;;
		--jobs) jobs=$2 ;; --nload) nload=$2 ;; --auto-runs) auto_runs=$2 ;;
		esac
		shift ;;
	--arms)
		[ $# -ge 2 ] || die "--arms wants a list"
		for a in ${2//,/ }; do
			[[ ,$ALL_ARMS, == *,$a,* ]] || die "unknown arm '$a' (have $ALL_ARMS)"
		done
		arms=$2; shift ;;
	--mem) [ $# -ge 2 ] && [[ $2 =~ ^[0-9]+[MG]$ ]] || die "--mem wants e.g. 512M"
		mem=$2; shift ;;
	--fresh) fresh=1 ;;
	--report-only) report_only=1 ;;
	--dry-run) dry_run=1 ;;
	-h|--help) awk 'NR >= 4 && !/^#/ { exit } NR >= 4' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) die "unknown option '$1'" ;;
	esac
	shift
done
mem_mib=${mem%[MG]}
[[ $mem == *G ]] && mem_mib=$((mem_mib * 1024))
n=${n:-$((mem_mib / 4))}
nload=${nload:-$((mem_mib / 24))}
read -r -a arm_list <<<"${arms//,/ }"
OUTDIR=${OUT:-$REPO/out}/experiment
DATA=$REPO/experiment/data
RESULTS=$REPO/experiment/results.md
if [ $dry_run = 1 ]; then
	echo "arms: ${arm_list[*]}"
	echo "runs: $runs of the arms but 6.12-on-auto, $((auto_runs < runs ? auto_runs : runs)) of it; $mem each, $nload/$n attempts per style under/after the load"
	echo "kernels: qemu/build-kernel.sh [--kernel 6.12] --extra-config qemu/experiment.config"
	echo "writes: experiment/data/, experiment/results.md, $OUTDIR/"
	exit 0
fi
[ -x "$FRAGVIEW" ] || make -s -C "$REPO/tools/fragview" >&2 ||
	die "cannot build fragview"
report() {
	python3 "$REPO/experiment/report.py" "$DATA" "$RESULTS" \
		"$OUTDIR/maps.html" "$FRAGVIEW" "$OUTDIR"
}
if [ $report_only = 1 ]; then
	[ -s "$DATA/boots.tsv" ] || die "--report-only: no $DATA/boots.tsv"
	report
	exit
fi

# --- what every boot shares: the kernels, the initramfs, the disks
t0=$(date +%s)
mkdir -p "$OUTDIR/boot"
declare -A kernel
for base in 6.1 6.12; do
	k=$("$REPO/qemu/build-kernel.sh" --kernel "$base" \
		--extra-config "$REPO/qemu/experiment.config") ||
		die "the patched $base kernel did not build"
	# private copies: a build elsewhere may evict the cache's
	cp "$k" "$OUTDIR/boot/bzImage-$base"
	cp "$(dirname "$k")/config" "$OUTDIR/boot/config-$base"
	kernel[$base]=$k
done
initrd=$("$REPO/qemu/build-initramfs.sh") || die "initramfs build failed"
cp "$initrd" "$OUTDIR/boot/initramfs.cpio.gz"
src=$FRAGVIEW_CACHE/linux-source-6.1
read -r fs_sha fs_mib < <("$REPO/experiment/mkdisks.sh" "$OUTDIR/disks" "$src") ||
	die "the experiment's disks could not be made"

# the settings a resumed run must share with the boots already made
settings() {
	echo -e "mem\t$mem"
	echo -e "cpus\t2"
	echo -e "attempts_per_style_after_load\t$n"
	echo -e "attempts_per_style_under_load\t$nload"
	echo -e "pcp_fraction\t$pcp"
	echo -e "load_seconds\t$load"
	echo -e "window_seconds\t$window"
	echo -e "gap_ms\t$gap"
	echo -e "reserve_mib\t$((mem_mib / 8))"
	echo -e "fs_image_sha256\t$fs_sha"
	echo -e "fs_image_mib\t$fs_mib"
	echo -e "swap_mib\t256"
	echo -e "initramfs\t$(basename "$initrd")"
	for base in 6.1 6.12; do
		echo -e "kernel_$base\t$(basename "$(dirname "${kernel[$base]}")") $(dpkg-query -W -f='${Package} ${Version}' "linux-source-$base" 2>/dev/null)"
		echo -e "config_sha256_$base\t$(sha256sum < "$OUTDIR/boot/config-$base" | cut -c1-64)"
		echo -e "series_commit_$base\t$(git -C "$REPO" log -1 --format=%H -- "kernel-patches/$base")"
	done
}
settings > "$OUTDIR/settings.new"
if [ $fresh = 1 ] || [ ! -s "$DATA/settings.tsv" ]; then
	rm -rf "$DATA"
	mkdir -p "$DATA/runs"
	cp "$OUTDIR/settings.new" "$DATA/settings.tsv"
	{
		echo -e "head\t$(git -C "$REPO" rev-parse HEAD)"
		echo -e "host\t$(nproc) CPUs, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)"
		echo -e "started\t$(date -u '+%Y-%m-%d %H:%M') UTC"
	} > "$DATA/started.tsv"
elif ! cmp -s "$OUTDIR/settings.new" "$DATA/settings.tsv"; then
	diff "$DATA/settings.tsv" "$OUTDIR/settings.new" >&2 || true
	die "experiment/data/ was made with other settings or kernels (above): --fresh to start over"
fi

# every invocation that adds boots, in the data: a run resumed with other
# --runs or --arms says so in the provenance
echo -e "$(date -u '+%Y-%m-%d %H:%M') UTC\t$invocation" >> "$DATA/invocations.tsv"

done_boot() { [ -s "$DATA/boots.tsv" ] && cut -f1 "$DATA/boots.tsv" | grep -qx "$1"; }

# --- the boots: run r boots every arm once, the order rotated by r;
# --jobs boots at a time, each taking every --jobs-th boot of that order
plan=()
for r in $(seq 1 "$runs"); do
	run_arms=()
	for a in "${arm_list[@]}"; do
		[[ $a == *-auto ]] && [ "$r" -gt "$auto_runs" ] || run_arms+=("$a")
	done
	k=${#run_arms[@]}
	for j in $(seq 0 $((k - 1))); do
		plan+=("$r ${run_arms[$(( (j + r - 1) % k ))]}")
	done
done

boot() {	# RUN ARM
	local r=$1 arm=$2 base grouping pcpmode name append try hload b0 status
	IFS=- read -r base grouping pcpmode <<<"$arm"
	name=$(printf '%s-%02d' "$arm" "$r")
	done_boot "$name" && return 0
	append="fv.exp.n=$n fv.exp.nload=$nload fv.exp.load=$load fv.exp.window=$window fv.exp.wait=$gap"
	[ "$pcpmode" = auto ] && append+=" fv.exp.pcp=0" || append+=" fv.exp.pcp=$pcp"
	[ "$grouping" = on ] || append+=" page_group_by_mobility=off"
	# a boot that fails is kept (as NAME-failed) and made once more
	for try in 1 2; do
		hload=$(cut -d' ' -f1 /proc/loadavg)
		say "run $r/$runs: $arm (host load $hload)"
		rm -rf "${OUTDIR:?}/$name"
		b0=$(date +%s)
		status=ok
		"$REPO/qemu/run-guest.sh" --kernel "$OUTDIR/boot/bzImage-$base" \
			--initrd "$OUTDIR/boot/initramfs.cpio.gz" --mem "$mem" \
			--drive "$OUTDIR/disks/fs.img" --drive "$OUTDIR/disks/swap.img" \
			--out "$OUTDIR/$name" --scenario exp-stress \
			--append "$append" --timeout 1200 >/dev/null 2>&1 || status=failed
		if [ $status = failed ] && [ $try = 1 ]; then
			rm -rf "${OUTDIR:?}/$name-failed"
			mv "$OUTDIR/$name" "$OUTDIR/$name-failed"
			flock "$OUTDIR/.lock" python3 "$REPO/experiment/extract.py" \
				"$OUTDIR/$name-failed" "$name-failed" "$arm" "$r" failed \
				$(( $(date +%s) - b0 )) "$hload" "$DATA" ||
				die "extract.py failed on $name-failed"
			say "$name failed; once more"
			continue
		fi
		# the extract of one boot at a time: the tables are rewritten
		flock "$OUTDIR/.lock" python3 "$REPO/experiment/extract.py" \
			"$OUTDIR/$name" "$name" "$arm" "$r" "$status" \
			$(( $(date +%s) - b0 )) "$hload" "$DATA" ||
			die "extract.py failed on $name"
		return 0
	done
}

worker() {	# W: every --jobs-th boot of the plan from the W-th
	local i
	for ((i = $1; i < ${#plan[@]}; i += jobs)); do
		# shellcheck disable=SC2086
		boot ${plan[$i]}
	done
}
pids=()
for ((w = 0; w < jobs; w++)); do
	worker $w &
	pids+=($!)
	sleep 5
done
for p in "${pids[@]}"; do
	wait "$p" || die "a worker stopped (its error is above)"
done
{
	cat "$DATA/started.tsv" "$DATA/settings.tsv"
	awk -F'\t' '{ printf "invocation_%d\t%s: %s\n", NR, $1, $2 }' "$DATA/invocations.tsv"
	echo -e "runs\t$runs"
	echo -e "auto_runs\t$auto_runs"
	echo -e "arms\t$arms"
	echo -e "last_session_seconds\t$(( $(date +%s) - t0 ))"
	echo -e "finished\t$(date -u '+%Y-%m-%d %H:%M') UTC"
} > "$DATA/provenance.tsv"
report
