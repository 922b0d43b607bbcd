#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# explain: order-9 allocations that fail for a known cause, one capture
# per cause in $OUT/CAUSE/, for fragview explain (tests/host/explain.py
# checks that its verdict names the planted cause).  In each, a holder
# builds up its state and keeps it while highalloc asks for huge pages
# one at a time (each a __GFP_RETRY_MAYFAIL allocation):
#   exhausted    lowmem holds node 0 under its low watermark, the gap to
#                min widened (watermark_scale_factor 1000) so that it
#                fits; highalloc asks node 0 alone (-N 0): it takes the
#                free blocks left above min, then every attempt fails and
#                compaction_suitable says skipped (no-free-memory).  Node
#                1 stays free for everyone else: with both nodes held, the
#                recorder's order-0 allocations met the OOM killer;
#   nocompact    fv-holder's anonymous pages with 16 KiB holes fill node 0
#                (polluter -H -p 0, on node 0's CPU), with
#                vm.extfrag_threshold=1000: compaction is judged
#                unsuitable for the zone, or deferred (no-compaction);
#                highalloc asks node 0 alone (-N 0).  Both sysctls are set
#                before the holder starts, proactive compaction off: else
#                kcompactd moves the holder's pages up the zone and frees
#                whole blocks at its start (17 of 20 attempts succeeded).
#                Even so the free blocks the holder leaves on node 0 vary
#                from boot to boot (1, 4 and 15 of 20 attempts succeeded
#                in three boots of the test kernels): 40 attempts, so
#                that the blocks run out and at least 10 fail.
#   pinned       pinholder (fv-holder) fills node 0 with anonymous pages,
#                frees two aligned 8-page groups in each of its blocks and
#                fills pipes from node 0's CPU: the pipe buffers steal the
#                groups, too small to claim a block, so every block keeps
#                unmovable pages of pipe_write(); then it frees half of
#                the rest.  Compaction runs and frees no block.  The
#                recording starts before the holder, so that the steals
#                are in the capture (explain names their task), and the
#                shell and trace-cmd run on node 1's CPU meanwhile, so that
#                their own allocations stay out of node 0's groups.
#                While it builds up, min_free_kbytes 256 and
#                watermark_scale_factor 1: the pipes stop at node 0's low
#                watermark, and the groups they leave free (blocks
#                compaction can free) are those in its worth; and
#                percpu_pagelist_high_fraction 1000000, per-cpu lists of
#                4 batches at most (6.12 tunes them up to an eighth of the
#                zone): a group still on one is out of the pipes' reach.
#   locked       pinholder -M lock (fv-holder) fills node 0, keeps 4
#                pages spread over each block, frees the rest and mlocks
#                what it kept, under vm.compact_unevictable_allowed=0:
#                compaction may not isolate those pages, runs and frees no
#                block (migration-failed: movable pages it did not move).
#                Locking the kept pages alone (mlock() chunk by chunk)
#                splits the mapping: on 6.12 the vm_area_structs fell
#                into the holes and pinned the blocks (pinned, rightly);
#                keeping half of each block let blocks with stray
#                unmovable pages be the nearest to free.  Per-cpu lists
#                of 4 batches (percpu_pagelist_high_fraction 1000000)
#                throughout: on 6.12 the auto-tuned lists of the other
#                CPU held what node 0 lacked, and the fill met the OOM
#                killer (1 boot of 3) or its min + 1 MiB (1 of 1).
#   pcp          pinholder -M pcp fills node 1, frees 40 of its blocks but
#                1 page in each, frees those last from node 1's CPU with
#                percpu_pagelist_high_fraction 8: they stay on that CPU's
#                per-cpu list and each of the 40 blocks is free but for
#                them; the rest it mlocks, compact_unevictable_allowed=0
#                (per-cpu-lists).  What would drain that list:
#                - compaction on its CPU: highalloc and the shell run on
#                  node 0's; THP is off, so khugepaged does not compact;
#                - drain_all_pages() after direct reclaim, which counts as
#                  progress a zone above high + 1024 free pages
#                  (compaction ready): watermark_scale_factor 1000 once
#                  the holder is ready puts the node's ~22,000 free pages
#                  between low + 1024 (below, compaction_suitable says
#                  skipped: no-free-memory) and high + 1024; it stays 10
#                  during the fill, so that what is left free is not 27
#                  free blocks;
#                - on 6.12, free_high: two high-order frees in a row after
#                  a batch of frees drain it.  drop_caches runs before the
#                  holder (after it, the slabs it freed through RCU did it:
#                  29 of 40 attempts succeeded), and the holder allocates
#                  a page every ms while it holds (kswapd's slab frees did
#                  it: 37 of 40);
#                - while kswapd reclaims (each attempt wakes it), a free on
#                  its CPU trims the list to 4 batches (124 pages on
#                  6.12), oldest first: the kept pages are the holder's
#                  last frees, one a block (with 4 a block and its arrays
#                  freed after them, 34 and 39 of 40 succeeded on 6.12);
#                  yet on 6.12 CPU 1's list once held 200 pages when the
#                  recording began (74 to 175 in the 19 other boots of
#                  20), and the trims of the first attempts freed 14
#                  kept pages;
#                - on 6.12, kcompactd: a run that fails drains every CPU's
#                  lists of the zone (kcompactd_do_work()); it is woken
#                  when kswapd goes to sleep, and skips a zone whose
#                  compaction highalloc's failures have deferred.  Once it
#                  ran before the first deferral: 34 of 40 succeeded.
#                  tests/guest.sh boots again when the plant was lost.
# Each section needs a zone whose compaction no section before it has
# deferred: a failed run defers the zone's compaction for up to 64
# requests (defer_compaction()), and a costly order never compacts at the
# priority that ignores that, so most failures would be deferred with no
# run in the capture (no-compaction: 27 of 39 for pcp after locked in one
# boot).  exhausted and nocompact run no compaction; pinned defers node
# 0, so pcp runs on node 1 and locked in a boot of its own.
# fv_explain=CAUSE,... on the kernel command line runs those sections
# (run-guest.sh --append; default exhausted,nocompact,pinned,pcp).
# Recording starts once the holder is ready (pinned: before it starts),
# with a census and a snapshot
# every second, so that explain's figures are at most a second old; the
# holder's state is given 1.5 s to be counted before the first attempt.
# (Not while the holder builds up: a census a second slowed lowmem's fill
# to 190 s on 6.12.)
. /lib/fragview.sh
base=$OUT
fv_small_reserves
echo 0 > /proc/sys/vm/watermark_boost_factor
node0_cpu=$(cut -d, -f1 /sys/devices/system/node/node0/cpulist | cut -d- -f1)
node1_cpu=$(cut -d, -f1 /sys/devices/system/node/node1/cpulist | cut -d- -f1)

sections=$(sed -n 's/.*fv_explain=\([^ ]*\).*/\1/p' /proc/cmdline | tr , ' ')

# want NAME: the section is to run
want() {
	case " ${sections:-exhausted nocompact pinned pcp} " in
	*" $1 "*) return 0 ;;
	esac
	return 1
}

# census and snapshot every $1 seconds, until killed
state_every() {
	while sleep "$1"; do
		fv_census
		fv_snapshot
	done
}

# begin NAME: the capture goes into $base/NAME
begin() {
	OUT=$base/$1
	mkdir -p "$OUT"
	FV_RECORDER=
	ticker=
	rm -f /tmp/hold.ready
}

# attempt NAME HIGHALLOC-OPTIONS...: record (unless recording already),
# with the census and snapshot ticker, huge pages one at a time once the
# holder's state is counted
attempt() {
	name=$1
	shift
	[ -n "$FV_RECORDER" ] || fv_record_start || return 1
	state_every 1 &
	ticker=$!
	sleep 1.5
	highalloc -a -w 100 "$@" > "$OUT/highalloc.out" 2>&1 ||
		fv_fail "$name: highalloc"
	cat "$OUT/highalloc.out"
}

# end PID...: stop the ticker and the holders, stop recording
end() {
	if [ -n "$ticker" ]; then
		kill "$ticker"
		wait "$ticker" 2>/dev/null
	fi
	for p in "$@"; do
		kill -TERM "$p"
		wait "$p" || fv_fail "holder $p exited with $?"
	done
	fv_record_stop || fv_fail "$OUT: nothing recorded"
}

scale=$(cat /proc/sys/vm/watermark_scale_factor)
threshold=$(cat /proc/sys/vm/extfrag_threshold)
proactive=$(cat /proc/sys/vm/compaction_proactiveness)
min_free=$(cat /proc/sys/vm/min_free_kbytes)
pcp_fraction=$(cat /proc/sys/vm/percpu_pagelist_high_fraction)
unevictable=$(cat /proc/sys/vm/compact_unevictable_allowed)
all_cpus=$(taskset -p $$ | sed 's/.*: //')

if want exhausted; then
begin exhausted
echo 1000 > /proc/sys/vm/watermark_scale_factor
lowmem -n 0 -R /tmp/hold.ready > "$OUT/lowmem.out" 2>&1 &
h=$!
fv_wait_file /tmp/hold.ready $h && {
	cat "$OUT/lowmem.out"
	attempt exhausted -N 0 -n 40
}
end $h
echo "$scale" > /proc/sys/vm/watermark_scale_factor
fi

if want nocompact; then
begin nocompact
echo 1000 > /proc/sys/vm/extfrag_threshold
echo 0 > /proc/sys/vm/compaction_proactiveness
taskset -c "$node0_cpu" polluter -H /tmp/hold.ready -p 0 > "$OUT/polluter.out" 2>&1 &
h=$!
fv_wait_file /tmp/hold.ready $h && {
	cat "$OUT/polluter.out"
	attempt nocompact -N 0 -n 40
}
end $h
echo "$threshold" > /proc/sys/vm/extfrag_threshold
echo "$proactive" > /proc/sys/vm/compaction_proactiveness
fi

# the holder's build-up settings back: before the attempts, and on error
restore_watermarks() {
	echo "$min_free" > /proc/sys/vm/min_free_kbytes
	echo "$scale" > /proc/sys/vm/watermark_scale_factor
	echo "$pcp_fraction" > /proc/sys/vm/percpu_pagelist_high_fraction
}

if want pinned; then
begin pinned
echo 0 > /proc/sys/vm/compaction_proactiveness
taskset -p -c "$node1_cpu" $$ > /dev/null
if fv_record_start; then
	echo 256 > /proc/sys/vm/min_free_kbytes
	echo 1 > /proc/sys/vm/watermark_scale_factor
	echo 1000000 > /proc/sys/vm/percpu_pagelist_high_fraction
	taskset -c "$node0_cpu" pinholder -n 0 -R /tmp/hold.ready \
		> "$OUT/pinholder.out" 2>&1 &
	h=$!
	fv_wait_file /tmp/hold.ready $h && {
		restore_watermarks
		cat "$OUT/pinholder.out"
		attempt pinned -N 0 -n 40
	}
	end $h
fi
taskset -p "$all_cpus" $$ > /dev/null
restore_watermarks
echo "$proactive" > /proc/sys/vm/compaction_proactiveness
fi

# hold NAME NODE PINHOLDER-OPTIONS...: pinholder on node NODE (0 or 1)
# and its CPU, the shell (the recorder, highalloc) on the other node's
# CPU, attempts on node NODE once it is ready and on_ready has run
hold() {
	name=$1
	node=$2
	shift 2
	begin "$name"
	echo 0 > /proc/sys/vm/compaction_proactiveness
	echo 3 > /proc/sys/vm/drop_caches
	if [ "$node" = 0 ]; then
		taskset -p -c "$node1_cpu" $$ > /dev/null
		cpu=$node0_cpu
	else
		taskset -p -c "$node0_cpu" $$ > /dev/null
		cpu=$node1_cpu
	fi
	taskset -c "$cpu" pinholder -n "$node" -R /tmp/hold.ready "$@" \
		> "$OUT/pinholder.out" 2>&1 &
	h=$!
	fv_wait_file /tmp/hold.ready $h && {
		cat "$OUT/pinholder.out"
		on_ready
		attempt "$name" -N "$node" -n 40
	}
	end $h
	taskset -p "$all_cpus" $$ > /dev/null
	echo "$proactive" > /proc/sys/vm/compaction_proactiveness
}

on_ready() { :; }

if want locked; then
	echo 0 > /proc/sys/vm/compact_unevictable_allowed
	echo 1000000 > /proc/sys/vm/percpu_pagelist_high_fraction
	hold locked 0 -M lock
	echo "$pcp_fraction" > /proc/sys/vm/percpu_pagelist_high_fraction
	echo "$unevictable" > /proc/sys/vm/compact_unevictable_allowed
fi

thp=/sys/kernel/mm/transparent_hugepage/enabled
if want pcp; then
	thp_was=$(sed 's/.*\[\(.*\)\].*/\1/' "$thp" 2>/dev/null)
	[ -z "$thp_was" ] || echo never > "$thp"
	echo 0 > /proc/sys/vm/compact_unevictable_allowed
	echo 1000000 > /proc/sys/vm/percpu_pagelist_high_fraction
	on_ready() { echo 1000 > /proc/sys/vm/watermark_scale_factor; }
	hold pcp 1 -M pcp -k 1
	echo "$scale" > /proc/sys/vm/watermark_scale_factor
	echo "$pcp_fraction" > /proc/sys/vm/percpu_pagelist_high_fraction
	echo "$unevictable" > /proc/sys/vm/compact_unevictable_allowed
	[ -z "$thp_was" ] || echo "$thp_was" > "$thp"
fi
exit $FV_STATUS
