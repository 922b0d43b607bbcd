#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# fragview benchmarks (`make bench`).  Every number is a ratio against a
# peer measured in the same run, never an absolute time alone:
#
#   1. tracepoint overhead: faultloop and bench-pipeloop in the guest on the
#      unpatched kernel, the patched kernel with the mobility events off and
#      with them on (boots interleaved U P U P ...), plus the text size of
#      mm/page_alloc.o and mm/migrate.o in both build trees; both kernels
#      built with qemu/jump-label.config (CONFIG_JUMP_LABEL=y, as
#      distribution kernels: a disabled tracepoint is a nop), booted on
#      one vCPU;
#   2. fragview throughput and per-process peak RSS against the bare
#      library (bench/iterate.c: libtracecmd's iteration, counting only)
#      and `trace-cmd report`, on the same captures: the demo scenario, and
#      a ~1x and ~10x recording of two mixes (per-page drain events, map
#      snapshots; the 10x snapshot one is tests/fixtures/bigtrace.dat),
#      each as recorded (file version 7, zstd) and converted to version 6;
#   3. map dump: the mobility debugfs file against a /proc/kpageflags walk
#      at 1 GiB and 4 GiB of guest RAM;
#   4. irqsoff (only with --only irqsoff, on 6.1, it builds two kernels of its own):
#      the longest IRQs-off section while reading mobility/pageblocks and
#      writing mobility/snapshot, series v1 (64 pageblocks per zone->lock
#      hold, kernel-patches/ at $IRQSOFF_V1, default d62354b) against the
#      current series (one pageblock per hold), both built with
#      qemu/irqsoff.config, at 4 GiB and 1 GiB, plus a baseline window
#      without map access.
#
#   bench/run.sh [--base VER] [--only overhead|size|throughput|mapdump|irqsoff]...
#                [--clock wall|icount] [--quick] [--patched BZIMAGE] [--unpatched BZIMAGE]
#                [--irqsoff-v1 BZIMAGE] [--irqsoff-v2 BZIMAGE] [--dry-run]
#
# --base is the kernel base, a directory of kernel-patches/ (default
# $FRAGVIEW_KERNEL, make's KERNEL=, else 6.1); --dry-run says what would
# be measured and written, and stops.
# --clock measures the overhead on one clock only (default both): icount
# counts guest instructions and is immune to host load, wall is plain
# TCG time and on a shared host mostly noise; the other clock's table
# then says "Not measured".
# --patched/--unpatched use prebuilt kernels from the cache layout of
# qemu/build-kernel.sh (KEY/bzImage next to KEY/src/build) instead of
# calling it, for every part (jump labels or not: the kernel given); --irqsoff-v1/--irqsoff-v2 likewise (KEY/config next to it).
#
# Results: a table on stdout and in bench/results.md (date, machine, the
# exact commands); raw data in $OUT/bench/ (default out/bench), and the
# data the report used (data.tsv, commands, notes, the guests' logs of
# the parts measured) copied into bench/data/ to be committed with it.
# A base other than 6.1 has its own: bench/results-VER.md, bench/data-VER/
# and $OUT/bench-VER/.
# --only re-measures some parts and keeps the others' data (out/bench, or
# bench/data/ when out/bench has none); sections of results.md with no
# data at all are kept as they were, marked with their own run's date.
# Large captures are kept in $FRAGVIEW_CACHE/bench/, never in the repo.
# Takes ~25 min on the 2-core dev machine when the captures have to be
# recorded (once per kernel + initramfs), ~17 min after that; irqsoff
# ~10 min once its two kernels are built (each cold build 10-15 min).
set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
export FRAGVIEW_CACHE=${FRAGVIEW_CACHE:-/var/cache/fragview}
CAPDIR=$FRAGVIEW_CACHE/bench
FRAGVIEW=$REPO/tools/fragview/fragview
IRQSOFF_V1=${IRQSOFF_V1:-d62354b}	# kernel-patches/ of series v1 (6.1)
# shellcheck source=qemu/kernel-base.sh
. "$REPO/qemu/kernel-base.sh"

say() { echo "==> $*" >&2; }
die() { echo "bench: error: $*" >&2; exit 1; }

parts=()
quick=0
dry_run=0
clock=both
base=${FRAGVIEW_KERNEL:-$fv_default_base}
KP= KU= KPJ= KUJ= KI1= KI2=
while [ $# -gt 0 ]; do
	case $1 in
	--base) [ $# -ge 2 ] || die "--base wants a kernel base"; base=$2; shift ;;
	--dry-run) dry_run=1 ;;
	--only)
		[ $# -ge 2 ] || die "--only wants overhead, size, throughput, mapdump or irqsoff"
		case $2 in overhead|size|throughput|mapdump|irqsoff) parts+=("$2") ;;
		*) die "unknown part '$2'" ;; esac
		shift ;;
	--quick) quick=1 ;;
	--clock)
		[ $# -ge 2 ] || die "--clock wants wall or icount"
		case $2 in wall|icount) clock=$2 ;; *) die "unknown clock '$2'" ;; esac
		shift ;;
	--patched|--unpatched)
		[ $# -ge 2 ] && [ -s "$2" ] || die "$1 wants a bzImage"
		if [ "$1" = --patched ]; then KP=$(realpath "$2") KPJ=$KP
		else KU=$(realpath "$2") KUJ=$KU; fi
		shift ;;
	--irqsoff-v1|--irqsoff-v2)
		[ $# -ge 2 ] && [ -s "$2" ] || die "$1 wants a bzImage"
		if [ "$1" = --irqsoff-v1 ]; then KI1=$(realpath "$2"); else KI2=$(realpath "$2"); fi
		shift ;;
	-h|--help) sed -n '4,57p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) die "unknown option '$1'" ;;
	esac
	shift
done
only=("${parts[@]}")
[ ${#parts[@]} -gt 0 ] || parts=(size overhead throughput mapdump)
want() { [[ " ${parts[*]} " == *" $1 "* ]]; }
err=$(fv_base_check "$base") || die "$err"
export FRAGVIEW_KERNEL=$base
sfx=$(fv_base_suffix "$base")
OUTDIR=${OUT:-$REPO/out}/bench$sfx
RESULTS=$REPO/bench/results$sfx.md
KEEP=$REPO/bench/data$sfx	# committed copy of the data results.md used
PATCHES=kernel-patches/$base
series=$REPO/$PATCHES/series
# series v1 and v2 of the irqsoff part are both 6.1's
! want irqsoff || [ "$base" = 6.1 ] ||
	die "--only irqsoff compares 6.1's series v1 and v2: not on base $base"
if [ $dry_run = 1 ]; then
	echo "base $base: $([ -f "$series" ] && echo "$PATCHES/series" || echo "no $PATCHES/series (unpatched parts only)")"
	echo "parts: ${parts[*]}$([ $quick = 0 ] || echo ' (--quick)')"
	echo "writes: ${RESULTS#"$REPO"/}, ${KEEP#"$REPO"/}/, $OUTDIR/"
	exit 0
fi

# Sizes of the runs; --quick is for trying the script, not for results.
BOOT_PAIRS=6		# U P U P ...
REPS_PER_BOOT=5		# x6 boots = 30 alternating runs per flavour/mode
ICOUNT_PAIRS=2		# instruction-count runs: deterministic, 2 are plenty
ROUNDS_1X=1		# bench-bigtrace rounds for the 1x captures
ROUNDS_10X=10
# the snapshot mix: as tests/fixtures/make-bigtrace.sh records it (1 GiB,
# 200 snapshots of ~512 pageblock_state events a round; keep in step)
BIGTRACE_SNAPSHOTS=200
BIGTRACE_MIB=64
# the drain mix: fragmenter rounds with kmem:mm_page_pcpu_drain on, the mix
# of tests/fixtures/fragment.dat (~120 k events a round)
DRAIN_MIB=480
TOOL_REPS=7
MAP_REPS=5
IRQSOFF_BOOTS=2		# per kernel and guest size, interleaved v1 v2 v1 v2
IRQSOFF_REPS=10		# x3 windows (baseline, pageblocks, snapshot) per boot
IRQSOFF_WINDOW=1	# seconds each window lasts, its command included
IRQSOFF_MEMS="4G 1G"
if [ $quick = 1 ]; then
	IRQSOFF_BOOTS=1 IRQSOFF_REPS=3
	BOOT_PAIRS=1 ICOUNT_PAIRS=1 REPS_PER_BOOT=2 ROUNDS_1X=1 ROUNDS_10X=2
	TOOL_REPS=1
	MAP_REPS=2
fi

command -v trace-cmd >/dev/null || die "trace-cmd missing (make deps)"
[ -x /usr/bin/time ] || die "/usr/bin/time missing (apt-get install time)"
[ -x "$FRAGVIEW" ] || make -s -C "$REPO/tools/fragview" >&2 ||
	die "cannot build fragview"
mkdir -p "$OUTDIR" "$CAPDIR"
DATA=$OUTDIR/data.tsv		# part  key...  value
CMDS=$OUTDIR/commands.txt
NOTES=$OUTDIR/notes.txt
# --only re-measures some parts and keeps the others' earlier data
declare -A rows_of=([size]='size' [overhead]='load|overhead|icount'
	[throughput]='events|mix|tput|tputload' [mapdump]='mapdump'
	[irqsoff]='irqsoff|irqsofficount|irqsoffmeta|irqsoffload')
declare -A cmds_of=([size]='^size ' [overhead]='bench-overhead'
	[throughput]='trace-cmd (report|convert)|fragview (stats|map)|iterate|bench-bigtrace|scenario fragment|^cc '
	[mapdump]='bench-mapdump'
	[irqsoff]='irqsoff')
# Rows of parts not measured now are kept: from out/bench, or from the
# committed copy when out/bench has none.  A full run re-measures every
# part but irqsoff (which builds kernels of its own), so only irqsoff's
# rows, commands and notes (those starting "irqsoff:") survive it.
if [ ! -s "$DATA" ] && [ -s "$KEEP/data.tsv" ]; then
	say "no $DATA: starting from the committed $KEEP/data.tsv"
	cp "$KEEP/data.tsv" "$DATA"
	for f in commands.txt notes.txt; do
		if [ -f "$KEEP/$f" ]; then cp "$KEEP/$f" "$OUTDIR/$f"; else : > "$OUTDIR/$f"; fi
	done
fi
touch "$DATA" "$CMDS" "$NOTES"
if [ ${#only[@]} -eq 0 ]; then
	grep -E "^(${rows_of[irqsoff]})	" "$DATA" > "$DATA.tmp" || true
	grep -E "${cmds_of[irqsoff]}" "$CMDS" > "$CMDS.tmp" || true
	grep '^irqsoff:' "$NOTES" > "$NOTES.tmp" || true
	mv "$DATA.tmp" "$DATA"
	mv "$CMDS.tmp" "$CMDS"
	mv "$NOTES.tmp" "$NOTES"
else
	for p in "${only[@]}"; do
		grep -Ev "^(${rows_of[$p]})	" "$DATA" > "$DATA.tmp" || true
		mv "$DATA.tmp" "$DATA"
		grep -Ev "${cmds_of[$p]}" "$CMDS" > "$CMDS.tmp" || true
		mv "$CMDS.tmp" "$CMDS"
		if [ "$p" = irqsoff ]; then
			grep -v '^irqsoff:' "$NOTES" > "$NOTES.tmp" || true
			mv "$NOTES.tmp" "$NOTES"
		fi
	done
	say "--only ${only[*]}: keeping the other parts' data in $DATA"
fi
# once: --only runs keep the notes of earlier ones
note() {
	echo "$*" >&2
	grep -qxF -- "$*" "$NOTES" || echo "$*" >> "$NOTES"
}
record_cmd() { echo "$*" >> "$CMDS"; }

load() { cut -d' ' -f1 /proc/loadavg; }

# what was measured: the tree's commit and the series' (as the run began:
# the kernels are built from the working tree), and whether either had
# changes not committed
# (the benchmark's own results and data, which --only runs rewrite, aside)
tree_state() {	# PATH...: "commit X" or "commit X + uncommitted changes"
	local rev
	rev=$(git -C "$REPO" log -1 --format=%h -- "$@" 2>/dev/null) || rev=
	[ -n "$rev" ] || { echo "not in git"; return; }
	if [ -n "$(git -C "$REPO" status --porcelain -- "$@" \
		':!bench/data*' ':!bench/results*.md' 2>/dev/null)" ]; then
		echo "commit $rev + uncommitted changes"
	else
		echo "commit $rev"
	fi
}
PROVENANCE="tree $(tree_state .); series kernel-patches/$base/ as of $(tree_state "kernel-patches/$base")"

# --- kernels and initramfs ------------------------------------------------
# the plain kernels only for the parts that boot them: throughput needs
# only the patched kernel, map dump either (size and overhead use the
# jump-label kernels below)
has_series=0
! { [ -s "$series" ] && grep -qv '^[[:space:]]*\(#\|$\)' "$series"; } || has_series=1
say "kernels (cached builds are reused)"
if want throughput || want mapdump; then
if [ -z "$KU" ] && want mapdump && [ -z "$KP" ]; then
	record_cmd "qemu/build-kernel.sh --unpatched"
	KU=$("$REPO/qemu/build-kernel.sh" --unpatched) || die "unpatched kernel build failed"
fi
if [ -n "$KP" ]; then
	note "patched kernel given: $KP"
elif [ $has_series = 1 ]; then
	record_cmd "qemu/build-kernel.sh"
	if ! KP=$("$REPO/qemu/build-kernel.sh"); then
		note "NOT MEASURED (patched parts): the patched kernel did not build"
		KP=
	fi
else
	note "NOT MEASURED (patched parts): $PATCHES/series is missing or empty, no patched kernel to compare"
fi
fi
# size and overhead: the same two kernels with jump labels
if want size || want overhead; then
	jl=$REPO/qemu/jump-label.config
	if [ -z "$KUJ" ]; then
		record_cmd "qemu/build-kernel.sh --unpatched --extra-config qemu/jump-label.config"
		KUJ=$("$REPO/qemu/build-kernel.sh" --unpatched --extra-config "$jl") ||
			die "unpatched jump-label kernel build failed"
	fi
	if [ $has_series = 0 ] && [ -z "$KPJ" ]; then
		note "NOT MEASURED (patched size, overhead): $PATCHES/series is missing or empty"
	elif [ -z "$KPJ" ]; then
		record_cmd "qemu/build-kernel.sh --extra-config qemu/jump-label.config"
		if ! KPJ=$("$REPO/qemu/build-kernel.sh" --extra-config "$jl"); then
			note "NOT MEASURED (patched size, overhead): the patched jump-label kernel did not build"
			KPJ=
		fi
	fi
	for k in $KUJ $KPJ; do
		grep -q '^CONFIG_JUMP_LABEL=y' "$(dirname "$k")/config" 2>/dev/null ||
			note "$k: CONFIG_JUMP_LABEL is not set (a kernel given with --patched/--unpatched?)"
	done
fi
record_cmd "qemu/build-initramfs.sh"
INITRD=$("$REPO/qemu/build-initramfs.sh") || die "initramfs build failed"

# guest NAME KERNEL SCENARIO [run-guest options]: boot once, results in
# $OUTDIR/NAME/; fails loudly (a benchmark with a dead guest means nothing)
guest() {
	local name=$1 kernel=$2 scenario=$3
	shift 3
	rm -rf "${OUTDIR:?}/$name"
	record_cmd "qemu/run-guest.sh --kernel $kernel --initrd $INITRD --out $OUTDIR/$name --scenario $scenario $*"
	"$REPO/qemu/run-guest.sh" --kernel "$kernel" --initrd "$INITRD" \
		--out "$OUTDIR/$name" --scenario "$scenario" "$@" >/dev/null ||
		die "guest $name ($scenario) failed; see $OUTDIR/$name/console.log"
}

# has_mobility DIR: did that guest's kernel have the mobility events?
has_mobility() { ! grep -q "NO mobility events\|NO /sys/kernel/debug/mobility" "$1"; }

# --- 1a. static cost ------------------------------------------------------
if want size; then
	say "text size of mm/page_alloc.o and mm/migrate.o"
	for obj in mm/page_alloc.o mm/migrate.o; do
		for fl in unpatched patched; do
			k=$KUJ
			[ $fl = patched ] && k=$KPJ
			[ -n "$k" ] || continue
			f=$(dirname "$k")/src/build/$obj
			if [ ! -f "$f" ]; then
				note "NOT MEASURED: $f is gone (build tree pruned?)"
				continue
			fi
			record_cmd "size $f"
			size "$f" | awk -v o="$obj" -v fl="$fl" \
				'NR == 2 { print "size\t" o "\t" fl "\t" $1 }' >> "$DATA"
		done
	done
fi

# icount_guest NAME KERNEL REPS: the overhead scenario under TCG with
# -icount shift=0: the guest clock advances one ns per guest instruction,
# so "ns" become instruction counts that host load cannot disturb.
# run-guest.sh has no way to pass QEMU options, hence the direct call;
# results come back on the serial console (no disk needed).
# icount_guest NAME KERNEL REPS [SCENARIO [MIB [APPEND]]]: default
# bench-overhead in 1024 MiB; the scenario's output is in $OUTDIR/NAME/log.
icount_guest() {
	local name=$1 kernel=$2 reps=$3 dir=$OUTDIR/$1
	local scenario=${4:-bench-overhead} mib=${5:-1024} extra=${6:+ $6}
	local cmdline="console=ttyS0 panic=-1 loglevel=4 fv.mode=scenario fv.scenario=$scenario fv.bench.reps=$reps$extra"
	rm -rf "$dir"
	mkdir -p "$dir"
	local q=(qemu-system-x86_64 -accel tcg -cpu max -icount shift=0,sleep=off
		-smp 1 -m "${mib}M"
		-object "memory-backend-ram,id=mem0,size=$((mib / 2))M"
		-object "memory-backend-ram,id=mem1,size=$((mib / 2))M"
		-numa node,nodeid=0,memdev=mem0,cpus=0
		-numa node,nodeid=1,memdev=mem1
		-kernel "$kernel" -initrd "$INITRD"
		-append "$cmdline" -nographic -no-reboot
		-serial "file:$dir/console.log" -monitor none)
	record_cmd "${q[*]}"
	timeout 900 "${q[@]}" < /dev/null > "$dir/qemu.log" 2>&1 ||
		die "icount guest $name failed; see $dir/console.log"
	grep -q '^bench: done' "$dir/console.log" ||
		die "icount guest $name did not finish; see $dir/console.log"
	tr -d '\r' < "$dir/console.log" > "$dir/log"
}

# --- 1b. tracepoint overhead ---------------------------------------------
# result_rows PART FLAVOUR BOOT: bench-overhead's lines "result WORKLOAD
# MODE REP NS ops N [events E NAME=N...]" as rows PART WORKLOAD
# FLAVOUR-MODE BOOT REP NS EVENTS OPS NAME=N,...
result_rows() {
	awk -v part="$1" -v fl="$2" -v b="$3" '$1 == "result" {
		ev = ""; ops = ""; names = ""
		for (i = 6; i < NF; i++) {
			if ($i == "ops") ops = $(i + 1)
			if ($i == "events") ev = $(i + 1)
		}
		for (i = 6; i <= NF; i++)
			if ($i ~ /=/) names = names (names == "" ? "" : ",") $i
		print part "\t" $2 "\t" fl "-" $3 "\t" b "\t" $4 "\t" $5 "\t" ev "\t" ops "\t" names }'
}
if want overhead; then
	[ "$clock" != icount ] || BOOT_PAIRS=0
	[ "$clock" != wall ] || ICOUNT_PAIRS=0
	[ "$clock" = both ] || note "overhead measured on the $clock clock only (--clock $clock)"
	say "overhead: $BOOT_PAIRS x (unpatched boot, patched boot), $REPS_PER_BOOT alternating reps each (load $(load))"
	for b in $(seq 1 "$BOOT_PAIRS"); do
		for fl in unpatched patched; do
			k=$KUJ
			[ $fl = patched ] && k=$KPJ
			[ -n "$k" ] || continue
			say "overhead boot $b $fl (load $(load))"
			echo -e "load\toverhead\t$fl\t$b\t$(load)" >> "$DATA"
			# one vCPU: the benchmark is single-threaded and a
			# second TCG thread would only add host contention
			guest "overhead-$fl-$b" "$k" bench-overhead --cpus 1 \
				--append "fv.bench.reps=$REPS_PER_BOOT" --timeout 900
			log=$OUTDIR/overhead-$fl-$b/bench-overhead/log
			if [ $fl = patched ] && ! has_mobility "$log"; then
				note "the patched kernel has no mobility events: events-on not measured"
			fi
			result_rows overhead "$fl" "$b" < "$log" >> "$DATA"
		done
	done
	say "overhead under -icount: $ICOUNT_PAIRS x (unpatched, patched)"
	for b in $(seq 1 "$ICOUNT_PAIRS"); do
		for fl in unpatched patched; do
			k=$KUJ
			[ $fl = patched ] && k=$KPJ
			[ -n "$k" ] || continue
			say "icount boot $b $fl"
			icount_guest "icount-$fl-$b" "$k" "$REPS_PER_BOOT"
			result_rows icount "$fl" "$b" < "$OUTDIR/icount-$fl-$b/log" >> "$DATA"
		done
	done
fi

# --- 2. fragview throughput ----------------------------------------------
# settle_cache FILE: every capture starts from the same page-cache state,
# that of a file read once: dropped, then read through.  A file just
# written (the v6 conversions) sits in the cache as small folios, one read
# back by readahead as large ones, and a reader's mappings of large folios
# are faulted in a large folio at a time: the resident size of the same
# run differs by several MiB between the two states.
settle_cache() {
	record_cmd "dd if=$1 iflag=nocache count=0; cat $1 > /dev/null"
	dd if="$1" iflag=nocache count=0 status=none
	cat "$1" > /dev/null
}

# timed CAPTURE VERSION TOOL CMD...: one run; a row of wall ns, peak RSS of
# the largest process (/usr/bin/time: a small parent, whose memory before
# the exec would count too), CPU ms of all the tool's processes, and, from
# FRAGVIEW_STATS, the peak RSS of fragview's reader child and of its parent
# and the reader's reopens (iterate: its own peak as "child").  CPU comes
# from those lines where a tool prints them (/usr/bin/time's have 10 ms
# steps): the child's and the parent's, or iterate's.
timed() {
	local cap=$1 ver=$2 tool=$3 t0 t1 u s rss cpu child parent reopens
	shift 3
	record_cmd "FRAGVIEW_STATS=1 /usr/bin/time -f '%e %U %S %M' $* > /dev/null"
	t0=$(date +%s%N)
	FRAGVIEW_STATS=1 /usr/bin/time -f "%e %U %S %M" -o "$OUTDIR/time.out" "$@" \
		> /dev/null 2> "$OUTDIR/tool.err" ||
		{ cat "$OUTDIR/tool.err" >&2; die "$tool failed on $cap ($ver)"; }
	t1=$(date +%s%N)
	read -r _ u s rss < <(tail -n 1 "$OUTDIR/time.out")
	cpu=$(sed -n 's/.*maxrss [0-9]* KiB, cpu \([0-9.]*\) ms.*/\1/p' "$OUTDIR/tool.err" |
		awk '{ n += $1 } END { if (NR) print n }')
	[ -n "$cpu" ] || cpu=$(echo "($u + $s) * 1000" | bc)
	child=$(sed -n 's/.*\(reader\|iterate:\) maxrss \([0-9]*\).*/\2/p' "$OUTDIR/tool.err")
	parent=$(sed -n 's/.*parent maxrss \([0-9]*\).*/\1/p' "$OUTDIR/tool.err")
	reopens=$(sed -n 's/.*, \([0-9]*\) reopens.*/\1/p' "$OUTDIR/tool.err")
	echo -e "tput\t$cap\t$ver\t$tool\t$((t1 - t0))\t$rss\t$cpu\t${child:--}\t${parent:--}\t${reopens:--}" >> "$DATA"
}

# capture NAME SCENARIO [run-guest options]: path of a cached capture,
# recorded with the patched kernel on first use
capture() {
	local name=$1 scenario=$2 key dir
	shift 2
	key=$(basename "$(dirname "$KP")")-$(basename "$INITRD" .cpio.gz)-$name
	dir=$CAPDIR/$key
	if [ ! -s "$dir/$scenario/trace.dat" ]; then
		say "recording capture $name ($scenario $*) (load $(load))"
		rm -rf "$dir"
		record_cmd "qemu/run-guest.sh --kernel $KP --initrd $INITRD --out $dir --scenario $scenario $*"
		"$REPO/qemu/run-guest.sh" --kernel "$KP" --initrd "$INITRD" \
			--out "$dir" --scenario "$scenario" "$@" >/dev/null ||
			die "recording $name failed; see $dir/console.log"
	fi
	echo "$dir/$scenario/trace.dat"
}

# as_v6 CAPTURE: the same capture as file version 6, uncompressed (cached)
as_v6() {
	local v6
	v6=$CAPDIR/v6-$(sha256sum < "$1" | cut -c1-16).dat
	if [ ! -s "$v6" ]; then
		record_cmd "trace-cmd convert -i $1 --file-version 6 --compression none -o V6"
		trace-cmd convert -i "$1" --file-version 6 --compression none \
			-o "$v6.tmp" > /dev/null 2>&1 || die "trace-cmd convert failed on $1"
		mv "$v6.tmp" "$v6"
	fi
	echo "$v6"
}

if want throughput; then
	if [ -z "$KP" ]; then
		note "NOT MEASURED (throughput): fragview needs mobility events, which only the patched kernel has"
	else
		ITERATE=$OUTDIR/iterate
		record_cmd "cc -O2 -o ITERATE bench/iterate.c \$(pkg-config --cflags --libs libtracecmd libtraceevent)"
		# shellcheck disable=SC2046
		cc -O2 -Wall -o "$ITERATE" "$REPO/bench/iterate.c" \
			$(pkg-config --cflags --libs libtracecmd libtraceevent) ||
			die "cannot build bench/iterate.c"
		say "throughput captures"
		snap="fv.bench.snapshots=$BIGTRACE_SNAPSHOTS fv.bench.mib=$BIGTRACE_MIB"
		drain="fv.bench.snapshots=0 fv.bench.mib=$DRAIN_MIB fv.per_page_drain=1"
		declare -A caps=(
			[demo]=$(capture demo fragment)
			[drain-1x]=$(capture "drain-r$ROUNDS_1X-m$DRAIN_MIB" bench-bigtrace \
				--append "fv.bench.rounds=$ROUNDS_1X $drain" --timeout 1800)
			[drain-10x]=$(capture "drain-r$ROUNDS_10X-m$DRAIN_MIB" bench-bigtrace \
				--append "fv.bench.rounds=$ROUNDS_10X $drain" --timeout 3600)
			[snap-1x]=$(capture "snap-r$ROUNDS_1X-s$BIGTRACE_SNAPSHOTS-m$BIGTRACE_MIB" \
				bench-bigtrace --append "fv.bench.rounds=$ROUNDS_1X $snap" --timeout 1800)
		)
		# the 10x snapshot capture is the committed one, so that anyone
		# can compare on the same file (--quick records a short one)
		if [ $quick = 1 ]; then
			caps[snap-10x]=$(capture "snap-r$ROUNDS_10X-s$BIGTRACE_SNAPSHOTS-m$BIGTRACE_MIB" \
				bench-bigtrace --append "fv.bench.rounds=$ROUNDS_10X $snap" --timeout 1800)
		else
			caps[snap-10x]=$REPO/tests/fixtures/bigtrace.dat
		fi
		for c in demo drain-1x drain-10x snap-1x snap-10x; do
			f7=${caps[$c]}
			[ -s "$f7" ] || die "recording the $c capture failed"
			f6=$(as_v6 "$f7")
			# event counts from the capture itself, the same way for all
			record_cmd "iterate --by-event $f7"
			"$ITERATE" --by-event "$f7" > "$OUTDIR/$c.event-counts" ||
				die "iterate failed on $f7"
			ev=$(awk '{ n += $2 } END { print n + 0 }' "$OUTDIR/$c.event-counts")
			mob=$(awk '$1 ~ /^(pageblock_|pcp_drain|migrate_folio|migrate_pass)/ { n += $2 } END { print n + 0 }' "$OUTDIR/$c.event-counts")
			awk -v c="$c" '{ print "mix\t" c "\t" $1 "\t" $2 }' "$OUTDIR/$c.event-counts" >> "$DATA"
			for ver in v7 v6; do
				f=$f7
				[ $ver = v6 ] && f=$f6
				echo -e "events\t$c\t$ver\t$ev\t$mob\t$(stat -c %s "$f")\t$f" >> "$DATA"
				echo -e "tputload\t$c\t$ver\t$(load)" >> "$DATA"
				say "capture $c $ver: $ev events ($mob mobility), $f (load $(load))"
				settle_cache "$f"
				# interleaved, so that load changes hit every tool
				for _ in $(seq 1 "$TOOL_REPS"); do
					timed "$c" "$ver" iterate "$ITERATE" "$f"
					timed "$c" "$ver" fragview-stats "$FRAGVIEW" stats "$f"
					timed "$c" "$ver" fragview-map-txt "$FRAGVIEW" map "$f" --format txt
					timed "$c" "$ver" trace-cmd-report trace-cmd report -i "$f"
				done
			done
		done
	fi
fi

# --- 3. map dump ------------------------------------------------------------
if want mapdump; then
	k=${KP:-$KU}
	for mem in 1G 4G; do
		say "map dump at $mem (load $(load))"
		guest "mapdump-$mem" "$k" bench-mapdump --mem "$mem" --cpus 1 \
			--append "fv.bench.reps=$MAP_REPS" --timeout 900
		log=$OUTDIR/mapdump-$mem/bench-mapdump/log
		has_mobility "$log" ||
			note "NOT MEASURED (map dump, debugfs side): kernel without mobility debugfs"
		awk -v m="$mem" '$1 == "bench-mapread" {
			print "mapdump\t" m "\t" $3 "\t" $5 "\t" $7 "\t" $9 "\t" $11 }' \
			"$log" >> "$DATA"
	done
fi

# --- 4. IRQs-off sections of the map walk -----------------------------------
# irqsoff_kernel V1|V2: bzImage of that series built with qemu/irqsoff.config,
# by that series' own build-kernel.sh, in a copy of its build inputs (the
# cache key hashes contents only): v1 = git archive of $IRQSOFF_V1, v2 =
# the working tree.  The copy's kernel.config loses one line,
# CONFIG_ENABLE_DEFAULT_TRACERS=y: that option depends on !GENERIC_TRACER,
# which IRQSOFF_TRACER selects, so build-kernel.sh's check would always
# fail on it; all it gave, CONFIG_TRACING, IRQSOFF_TRACER selects too.
irqsoff_kernel() {
	local frag=$REPO/qemu/irqsoff.config tree f
	tree=$(mktemp -d /tmp/bench-irqsoff-$1.XXXXXX)
	mkdir -p "$tree/qemu"
	if [ "$1" = v1 ]; then
		git -C "$REPO" archive "$IRQSOFF_V1" kernel-patches qemu/build-kernel.sh \
			qemu/kernel.config | tar -x -C "$tree" || { rm -rf "$tree"; return 1; }
		record_cmd "git archive $IRQSOFF_V1 kernel-patches qemu/build-kernel.sh qemu/kernel.config | tar -x -C TREE    # irqsoff v1"
	else
		cp -r "$REPO/kernel-patches" "$tree/"
		for f in build-kernel.sh kernel-base.sh kernel.config kernel-6.1.config; do
			[ ! -f "$REPO/qemu/$f" ] || cp "$REPO/qemu/$f" "$tree/qemu/"
		done
		record_cmd "cp -r kernel-patches qemu/build-kernel.sh qemu/kernel-base.sh qemu/kernel.config [qemu/kernel-6.1.config] TREE    # irqsoff v2"
	fi
	sed -i '/^CONFIG_ENABLE_DEFAULT_TRACERS=y$/d' "$tree/qemu/kernel.config"
	record_cmd "sed -i '/^CONFIG_ENABLE_DEFAULT_TRACERS=y\$/d' TREE/qemu/kernel.config; TREE/qemu/build-kernel.sh --extra-config qemu/irqsoff.config    # $1"
	"$tree/qemu/build-kernel.sh" --extra-config "$frag" || { rm -rf "$tree"; return 1; }
	rm -rf "$tree"
}

# irqsoff_meta V BZIMAGE SERIES_COMMIT: provenance rows of one kernel
irqsoff_meta() {
	local v=$1 k=$2 c=$3 dir
	dir=$(dirname "$k")
	echo -e "irqsoffmeta\t$v\tseries\t$c" >> "$DATA"
	echo -e "irqsoffmeta\t$v\tkey\t$(basename "$dir")" >> "$DATA"
	echo -e "irqsoffmeta\t$v\tbzimage_sha256\t$(sha256sum < "$k" | cut -c1-16)" >> "$DATA"
	if [ -f "$dir/config" ]; then
		echo -e "irqsoffmeta\t$v\tconfig_sha256\t$(sha256sum < "$dir/config" | cut -c1-16)" >> "$DATA"
		grep -q '^CONFIG_IRQSOFF_TRACER=y' "$dir/config" ||
			die "$k was not built with CONFIG_IRQSOFF_TRACER=y"
	else
		note "irqsoff: no config next to $k: config hash not recorded"
	fi
}

if want irqsoff; then
	say "irqsoff: kernels (series v1 = kernel-patches/ at $IRQSOFF_V1, v2 = the working tree's $PATCHES/) + qemu/irqsoff.config"
	v1c=$(git -C "$REPO" rev-parse --short "$IRQSOFF_V1") || die "no commit $IRQSOFF_V1"
	# the last commit that changed the series or a patch in it
	v2c=$(git -C "$REPO" log -1 --format=%h -- "$PATCHES/series" \
		$(sed -n "s|^\\([^#[:space:]][^[:space:]]*\\).*|$PATCHES/\\1|p" "$series"))
	if [ -n "$(git -C "$REPO" status --porcelain -- "$PATCHES")" ]; then
		v2c="$v2c+uncommitted changes"
		note "irqsoff: $PATCHES/ has uncommitted changes: v2 is the working tree, not $v2c"
	fi
	s1="kernel-patches/ at $v1c (series v1)" s2="$PATCHES/ at $v2c (series v2)"
	if [ -n "$KI1" ]; then
		s1="given with --irqsoff-v1, not built here (meant to be $s1)"
		note "irqsoff: series v1 kernel given: $KI1"
	else
		KI1=$(irqsoff_kernel v1) || die "series v1 irqsoff kernel build failed"
	fi
	if [ -n "$KI2" ]; then
		s2="given with --irqsoff-v2, not built here (meant to be $s2)"
		note "irqsoff: series v2 kernel given: $KI2"
	else
		KI2=$(irqsoff_kernel v2) || die "series v2 irqsoff kernel build failed"
	fi
	echo -e "irqsoffmeta\tall\twindow\t$IRQSOFF_WINDOW" >> "$DATA"
	irqsoff_meta v1 "$KI1" "$s1"
	irqsoff_meta v2 "$KI2" "$s2"
	for mem in $IRQSOFF_MEMS; do
		for b in $(seq 1 "$IRQSOFF_BOOTS"); do
			for v in v1 v2; do
				k=$KI1
				[ $v = v2 ] && k=$KI2
				say "irqsoff $mem boot $b $v (load $(load))"
				echo -e "irqsoffload\t$mem\t$v\t$b\t$(load)" >> "$DATA"
				guest "irqsoff-$mem-$v-$b" "$k" bench-irqsoff --mem "$mem" --cpus 1 \
					--append "fv.bench.reps=$IRQSOFF_REPS fv.bench.window=$IRQSOFF_WINDOW" \
					--timeout 900
				log=$OUTDIR/irqsoff-$mem-$v-$b/bench-irqsoff/log
				awk -v m="$mem" -v v="$v" -v b="$b" '$1 == "irqsoff" {
					print "irqsoff\t" m "\t" v "\t" b "\t" $2 "\t" $3 "\t" $4 "\t" $5 "\t" $6 "\t" $7 "\t" $8 "\t" $9 }' \
					"$log" >> "$DATA"
				awk -v m="$mem" -v v="$v" '/^bench: zone / {
					z = substr($0, 13); sub(/ gen [0-9]+$/, "", z)
					print "irqsoffmeta\t" v "\tzone-" m "\t" z }' "$log" |
					sort -u >> "$DATA"
			done
		done
	done
	# the same under -icount: the guest clock counts instructions (1 ns
	# each), so host load cannot lengthen a section; one boot each
	for mem in $IRQSOFF_MEMS; do
		for v in v1 v2; do
			k=$KI1
			[ $v = v2 ] && k=$KI2
			say "irqsoff icount $mem $v"
			name=irqsoff-icount-$mem-$v
			icount_guest "$name" "$k" "$IRQSOFF_REPS" bench-irqsoff \
				$((${mem%G} * 1024)) "fv.bench.window=$IRQSOFF_WINDOW"
			awk -v m="$mem" -v v="$v" '$1 == "irqsoff" {
				print "irqsofficount\t" m "\t" v "\t1\t" $2 "\t" $3 "\t" $4 "\t" $5 "\t" $6 "\t" $7 "\t" $8 "\t" $9 }' \
				"$OUTDIR/$name/log" >> "$DATA"
		done
	done
	sort -u -o "$DATA.meta" <(grep '^irqsoffmeta	' "$DATA")
	{ grep -v '^irqsoffmeta	' "$DATA"; cat "$DATA.meta"; } > "$DATA.tmp"
	mv "$DATA.tmp" "$DATA"
	rm -f "$DATA.meta"
fi

say "report"
BENCH_MEASURED="${parts[*]}" BENCH_KEEP=${KEEP#"$REPO"/} \
BENCH_PROVENANCE=$PROVENANCE \
BENCH_KERNEL_SOURCE=$(dpkg-query -W -f='${Package} ${Version}' "linux-source-$base" 2>/dev/null ||
	echo "linux-source-$base") \
	python3 "$REPO/bench/report.py" "$DATA" "$CMDS" "$NOTES" "$RESULTS"

# --- the data results.md was made from, committed beside it --------------
# data.tsv, commands and notes as the report read them; per part measured
# now, the guests' logs the rows were parsed from (and, for irqsoff, the
# irqsoff trace of every window); parts not measured now keep theirs.
mkdir -p "$KEEP"
cp "$DATA" "$KEEP/data.tsv"
cp "$CMDS" "$KEEP/commands.txt"
cp "$NOTES" "$KEEP/notes.txt"
for p in "${parts[@]}"; do
	rm -rf "${KEEP:?}/$p"
	mkdir -p "$KEEP/$p"
	case $p in
	size) globs= ;;	# the rows are the whole record (size(1) of two objects)
	overhead) globs="overhead-*/bench-overhead/log icount-*/log" ;;
	throughput) globs= ;;
	mapdump) globs="mapdump-*/bench-mapdump/log" ;;
	irqsoff) globs="irqsoff-*/bench-irqsoff/log irqsoff-icount-*/log" ;;
	esac
	for g in $globs; do
		for f in "$OUTDIR"/$g; do
			[ -f "$f" ] || continue
			rel=${f#"$OUTDIR"/}
			mkdir -p "$KEEP/$p/$(dirname "$rel")"
			cp "$f" "$KEEP/$p/$rel"
		done
	done
	if [ $p = irqsoff ]; then	# every window's irqsoff trace, one file a boot
		for d in "$OUTDIR"/irqsoff-*/bench-irqsoff; do
			[ -d "$d" ] || continue
			rel=${d#"$OUTDIR"/}
			mkdir -p "$KEEP/$p/$rel"
			for t in $(cd "$d" && ls trace-* | sort -t- -k3n -k2); do
				echo "==> $t <=="
				cat "$d/$t"
			done > "$KEEP/$p/$rel/traces"
		done
	fi
	if [ $p = throughput ]; then	# the captures' event counts
		for f in "$OUTDIR"/*.event-counts; do
			[ ! -f "$f" ] || cp "$f" "$KEEP/$p/"
		done
	fi
	rmdir "$KEEP/$p" 2>/dev/null || true
done
say "data the report used: $KEEP/ (commit it with ${RESULTS#"$REPO"/})"
