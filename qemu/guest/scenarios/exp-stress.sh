#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# exp-stress: one boot of experiment/run.sh, stress-highalloc style.
# /dev/vdb is ext4 with a kernel-tree-like file mix (src/, copy units in
# src.manifest), /dev/vdc is swap (experiment/mkdisks.sh).  All
# tunables are set before the load starts, the same in every arm:
# compaction off (proactiveness 0, extfrag_threshold 1000: no zone is
# compacted for order > 3, so only reclaim makes order-9 blocks), THP
# "madvise" for both enabled and defrag (only stresshigh's regions are
# huge), and with fv.exp.pcp=F > 0 vm.percpu_pagelist_high_fraction=F
# (every per-cpu list's high fixed, on 6.12 high_min = high_max: no
# auto-tuning); fv.exp.pcp=0 leaves the kernel's default.
#
# The load, started together: a copy loop (the src/ units copied one by
# one into w0/ and w1/ in turn, each emptied first: a build reading and
# writing a tree; the bytes copied are counted) and mixload on the same
# file system (anonymous memory a quarter of RAM, ext4 files an eighth,
# dentry/inode churn, pipes, forks).  After fv.exp.load seconds, a
# window of fv.exp.window seconds measures the load's rate alone; then
# stresshigh makes fv.exp.n attempts of each style (hugetlb, thp) taking
# turns, fv.exp.wait ms apart, each refused while MemAvailable is within
# an eighth of RAM of the 2 MiB it takes; the load's rate while they run
# is measured too ("under-load"; fv.exp.nload attempts of each style
# instead when given: under the load each hugetlb attempt reclaims until
# it succeeds, seconds each under TCG).  The pages are dropped, the load is
# stopped (its processes exit; its files stay on disk and in the page
# cache) and after 2 s the same attempts are made again, no reserve
# ("at-rest", after the load).
#
# Written to $OUT: per moment (start, under-load, under-load.after,
# at-rest, at-rest.after, end) meminfo, vmstat, buddyinfo, pagetypeinfo,
# zoneinfo, pageblocks and census (debugfs); per phase PHASE.attempts
# (stresshigh's log) and PHASE.summary; load.rates ("LABEL SECONDS
# COPIED_BYTES MIX_STEPS" at the window's start, the attempts' start and
# their end); trace.dat (steals, flips, per-cpu drains, phase markers).
. /lib/fragview.sh
mem_mib=$(awk '/^MemTotal:/ { print int($2 / 1024) }' /proc/meminfo)
n=$((mem_mib / 8))
nload=
load=20
window=10
gap=40
pcp=0
for arg in $(cat /proc/cmdline); do
	case $arg in
	fv.exp.n=*) n=${arg#fv.exp.n=} ;;
	fv.exp.nload=*) nload=${arg#fv.exp.nload=} ;;
	fv.exp.load=*) load=${arg#fv.exp.load=} ;;
	fv.exp.window=*) window=${arg#fv.exp.window=} ;;
	fv.exp.wait=*) gap=${arg#fv.exp.wait=} ;;
	fv.exp.pcp=*) pcp=${arg#fv.exp.pcp=} ;;
	esac
done
VM=/proc/sys/vm
THP=/sys/kernel/mm/transparent_hugepage
echo "exp: $(dmesg | grep -o 'mobility grouping o[nf]*' | head -n 1)"
nload=${nload:-$n}
echo "exp: load ${load}s, window ${window}s, $nload/$n attempts per style under load/after ${gap} ms apart, pcp fraction $pcp"

mkdir -p /mnt/fs
mount -t ext4 /dev/vdb /mnt/fs || { echo "exp: no ext4 on /dev/vdb" >&2; exit 1; }
swapon /dev/vdc || { echo "exp: no swap on /dev/vdc" >&2; exit 1; }
echo 0 > $VM/compaction_proactiveness
echo 1000 > $VM/extfrag_threshold
echo madvise > $THP/enabled
echo madvise > $THP/defrag
[ "$pcp" = 0 ] || echo "$pcp" > $VM/percpu_pagelist_high_fraction ||
	{ echo "exp: bad fv.exp.pcp=$pcp" >&2; exit 1; }
echo "exp: min_free_kbytes $(cat $VM/min_free_kbytes)"

mark() {	# a ftrace print event that dates each phase in the trace
	echo "fv-exp $1" > "$TRACING/trace_marker"
}

moment() {	# LABEL: the allocator's state now
	for f in meminfo vmstat buddyinfo pagetypeinfo zoneinfo; do
		cat /proc/$f > "$OUT/$1.$f"
	done
	[ ! -r "$MOBILITY_DEBUGFS/pageblocks" ] ||
		cat "$MOBILITY_DEBUGFS/pageblocks" > "$OUT/$1.pageblocks"
	[ ! -r "$MOBILITY_DEBUGFS/census" ] ||
		cat "$MOBILITY_DEBUGFS/census" > "$OUT/$1.census"
}

rates() {	# LABEL: the load's counters now
	copied=$(awk '{ s += $1 } END { print s + 0 }' /tmp/copied 2>/dev/null)
	kill -USR1 $mixer 2>/dev/null
	sleep 0.2
	steps=$(awk '/^steps/ { s = 0; for (i = 3; i <= NF; i += 2) s += $i }
		     END { print s + 0 }' "$OUT/mixload.out")
	echo "$1 $(cut -d' ' -f1 /proc/uptime) ${copied:-0} $steps" >> "$OUT/load.rates"
}

attempts() {	# PHASE RESERVE_MIB N
	moment "$1"
	mark "$1"
	rm -f /tmp/held
	stresshigh -n "$3" -w "$gap" -r "$2" -l "$OUT/$1.attempts" \
		-H /tmp/held > "$OUT/$1.summary" &
	holder=$!
	fv_wait_file /tmp/held $holder || fv_fail "stresshigh $1"
	mark "$1 done"
}

release() {	# PHASE
	moment "$1.after"
	kill -TERM $holder
	wait $holder || fv_fail "stresshigh exited with $?"
	echo "exp: $1 $(tr '\n' ' ' < "$OUT/$1.summary")"
}

copier() {
	i=0
	while :; do
		w=/mnt/fs/w$((i % 2))
		rm -rf "$w"
		while read -r bytes path; do
			mkdir -p "$w/${path%/*}"
			cp -a "/mnt/fs/$path" "$w/${path%/*}/" || exit 1
			echo "$bytes" >> /tmp/copied
		done < /mnt/fs/src.manifest
		i=$((i + 1))
	done
}

moment start
trace-cmd record -C global -b 4096 \
	-e mobility:pageblock_steal -e mobility:pageblock_flip \
	-e mobility:pcp_drain \
	-o "$OUT/trace.dat" > "$OUT/trace-cmd.log" 2>&1 &
recorder=$!
i=0
while [ "$(cat "$TRACING/tracing_on")" != 1 ] ||
      [ "$(cat "$TRACING/events/mobility/pcp_drain/enable" 2>/dev/null)" != 1 ]; do
	i=$((i + 1))
	if [ $i -gt 300 ] || ! kill -0 $recorder 2>/dev/null; then
		cat "$OUT/trace-cmd.log" >&2
		echo "exp: trace-cmd did not start" >&2
		exit 1
	fi
	sleep 0.1
done

mark load
: > /tmp/copied
copier > "$OUT/copier.out" 2>&1 &
copying=$!
rm -f /tmp/mixload.ready
mixload -d /mnt/fs/mix -a $((mem_mib / 4)) -c $((mem_mib / 8)) \
	-R /tmp/mixload.ready > "$OUT/mixload.out" 2> "$OUT/mixload.err" &
mixer=$!
fv_wait_file /tmp/mixload.ready $mixer || exit 1
echo "exp: load built at $(cut -d' ' -f1 /proc/uptime) s"
sleep "$load"
rates window
sleep "$window"
rates attempts
attempts under-load $((mem_mib / 8)) "$nload"
rates done
release under-load
kill -0 $mixer 2>/dev/null || fv_fail "mixload died under load"
kill -0 $copying 2>/dev/null || fv_fail "the copy loop died under load"
kill -TERM $mixer $copying
wait $mixer || fv_fail "mixload exited with $?"
wait $copying
cat "$OUT/mixload.err"
mark rest
sleep 2
attempts at-rest 0 "$n"
release at-rest
moment end
swapoff /dev/vdc 2>/dev/null
kill -INT $recorder
wait $recorder || fv_fail "trace-cmd exited with $?"
echo "exp: trace $(wc -c < "$OUT/trace.dat") bytes"
awk 'FNR == NR { a[$1] = $2; next }
     $1 ~ /^(compact_stall|compact_success|pswpout|pswpin|oom_kill|pgsteal_(kswapd|direct)|allocstall_(dma32|normal|movable))$/ {
	printf "exp: vmstat %s %d\n", $1, $2 - a[$1] }' \
	"$OUT/start.vmstat" "$OUT/end.vmstat"
exit $FV_STATUS
