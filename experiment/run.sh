#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Re-run Mel Gorman's 2005 high-order experiment (Light Fragmentation
# Avoidance v20: "HugePages under load 73 vs 113, after the tests 78 vs
# 118") on 6.1 (`make experiment`).
#
# The same fragmenting load (qemu/guest/scenarios/exp-highalloc.sh) is
# booted with grouping by mobility on (the default) and off (boot
# parameter page_group_by_mobility=off from kernel-patches/), each with
# compaction on and off, several times, interleaved.  Each boot asks the
# hugetlb pool for one order-9 page per pageblock of RAM while the load
# holds its memory and again once it has exited.
#
#   experiment/run.sh [--runs N] [--mem SIZE] [--quick] [--kernel BZIMAGE]
#                     [--report-only]
#
# --kernel uses a prebuilt patched bzImage instead of qemu/build-kernel.sh;
# --report-only redoes maps and tables from the last run's out/experiment/.
#
# Writes experiment/results.md (tables) and out/experiment/maps.html (the
# two block maps side by side; generated, not committed).
set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
export FRAGVIEW_CACHE=${FRAGVIEW_CACHE:-/var/cache/fragview}
OUTDIR=${OUT:-$REPO/out}/experiment
FRAGVIEW=$REPO/tools/fragview/fragview
RESULTS=$REPO/experiment/results.md

say() { echo "==> $*" >&2; }
die() { echo "experiment: error: $*" >&2; exit 1; }

runs=3
mem=1G
kernel=
report_only=0
while [ $# -gt 0 ]; do
	case $1 in
	--runs)
		[ $# -ge 2 ] && [[ $2 =~ ^[1-9][0-9]*$ ]] || die "--runs wants a number"
		runs=$2; shift ;;
	--mem) [ $# -ge 2 ] || die "--mem wants a size"; mem=$2; shift ;;
	--quick) runs=1 ;;
	--report-only) report_only=1 ;;
	--kernel)
		[ $# -ge 2 ] && [ -s "$2" ] || die "--kernel wants a bzImage"
		kernel=$(realpath "$2"); shift ;;
	-h|--help) sed -n '4,20p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) die "unknown option '$1'" ;;
	esac
	shift
done

mkdir -p "$OUTDIR"
CMDS=$OUTDIR/commands.txt
NOTES=$OUTDIR/notes.txt
DATA=$OUTDIR/data.tsv
if [ $report_only = 0 ]; then
	: > "$CMDS"; : > "$NOTES"; : > "$DATA"
else
	[ -s "$DATA" ] || die "--report-only: no $DATA from an earlier run"
	# drop earlier map notes: they are redone below
	grep -v 'map missing\|fragview map failed' "$NOTES" > "$NOTES.tmp" || true
	mv "$NOTES.tmp" "$NOTES"
	sed -i '/fragview map /d' "$CMDS"
fi
note() { echo "$*" | tee -a "$NOTES" >&2; }
record_cmd() { echo "$*" >> "$CMDS"; }
[ -x "$FRAGVIEW" ] || make -s -C "$REPO/tools/fragview" >&2 ||
	die "cannot build fragview"

if [ $report_only = 1 ]; then
	groupings=$(cut -f1 "$DATA" | sort -ru | tr '\n' ' ' | sed 's/ $//')
else
	# The patched kernel has page_group_by_mobility= and the mobility events
	# the maps need; without it only the grouping-on half can run.
	series=$REPO/kernel-patches/series
	if [ -n "$kernel" ]; then
		note "patched kernel given: $kernel"
	elif [ -s "$series" ] && grep -qv '^[[:space:]]*\(#\|$\)' "$series"; then
		record_cmd "qemu/build-kernel.sh"
		kernel=$("$REPO/qemu/build-kernel.sh") ||
			{ note "the patched kernel did not build"; kernel=; }
	fi
	groupings="on off"
	if [ -z "$kernel" ]; then
		note "NOT MEASURED: grouping off (page_group_by_mobility=off exists only in the patched kernel, which is not available); maps need the mobility events too"
		record_cmd "qemu/build-kernel.sh --unpatched"
		kernel=$("$REPO/qemu/build-kernel.sh" --unpatched) || die "no kernel"
		groupings="on"
	fi
	record_cmd "qemu/build-initramfs.sh"
	initrd=$("$REPO/qemu/build-initramfs.sh") || die "initramfs build failed"

	# Interleave every configuration within a run so that host load (2 shared
	# cores) hits all of them alike.
	for r in $(seq 1 "$runs"); do
		for g in $groupings; do
			for c in off on; do
				name=g$g-c$c-$r
				append="fv.exp.compaction=$c"
				[ "$g" = off ] && append+=" page_group_by_mobility=off"
				say "run $r/$runs: grouping $g, compaction $c (load $(cut -d' ' -f1 /proc/loadavg))"
				rm -rf "${OUTDIR:?}/$name"
				record_cmd "qemu/run-guest.sh --kernel $kernel --initrd $initrd --mem $mem --out $OUTDIR/$name --scenario exp-highalloc --append \"$append\""
				if ! "$REPO/qemu/run-guest.sh" --kernel "$kernel" \
					--initrd "$initrd" --mem "$mem" --out "$OUTDIR/$name" \
					--scenario exp-highalloc --append "$append" \
					--timeout 900 >/dev/null; then
					note "run $name failed (see $OUTDIR/$name/console.log); left out"
					continue
				fi
				log=$OUTDIR/$name/exp-highalloc/log
				got=$(sed -n 's/^exp: mobility grouping //p' "$log")
				oom=$(grep -c 'invoked oom-killer' "$OUTDIR/$name/dmesg" || true)
				awk -v g="$g" -v c="$c" -v r="$r" -v got="$got" -v oom="$oom" '
					/^exp: (under-load|at-rest) requested/ { res[$2] = $6; n = $4 }
					/^exp: vmstat compact_migrate_scanned/ { mig = $4 }
					/^exp: vmstat compact_stall/ { stall = $4 }
					END { print g "\t" c "\t" r "\t" got "\t" n "\t" res["under-load"] "\t" res["at-rest"] "\t" mig "\t" stall "\t" oom }' \
					"$log" >> "$DATA"
			done
		done
	done
fi

# --- maps: grouping on vs off, compaction off (placement alone), run 1
maps=()
if [ "$groupings" = "on off" ]; then
	for g in on off; do
		cap=$OUTDIR/g$g-coff-1/exp-highalloc/trace.dat
		[ -s "$cap" ] || { note "no capture $cap: map missing"; continue; }
		for phase in under-load at-rest; do
			# (awk reads to the end: an early exit would kill
			# trace-cmd with SIGPIPE and pipefail this script)
			at=$(trace-cmd report -i "$cap" 2>/dev/null |
				awk -v p="fv-exp $phase" 'index($0, p) && !done {
					for (i = 1; i <= NF; i++)
						if ($i ~ /^[0-9]+\.[0-9]+:$/) { sub(/:$/, "", $i); print $i; done = 1; break } }')
			if [ -z "$at" ]; then
				note "no '$phase' marker in $cap: map missing"
				continue
			fi
			html=$OUTDIR/map-g$g-$phase.html
			record_cmd "tools/fragview/fragview map $cap --at $at --format html -o $html"
			if "$FRAGVIEW" map "$cap" --at "$at" --format html -o "$html" &&
			   "$FRAGVIEW" map "$cap" --at "$at" --format txt -o "${html%.html}.txt"; then
				maps+=("$g $phase $at $html")
			else
				note "fragview map failed on $cap at $at"
			fi
		done
	done
fi

python3 "$REPO/experiment/report.py" "$DATA" "$CMDS" "$NOTES" "$RESULTS" \
	"$OUTDIR/maps.html" "$mem" "${maps[@]}"
