# SPDX-License-Identifier: GPL-2.0
# Shared helpers for the guest scenarios, installed as /lib/fragview.sh.
# Scenarios run with OUT set to their result directory.

TRACING=/sys/kernel/tracing
MOBILITY_DEBUGFS=/sys/kernel/debug/mobility
: "${OUT:?OUT must be set}"
mkdir -p "$OUT"
# Scenarios do not stop at the first failure: the capture must still be
# finished.  Failures set FV_STATUS, which the scenario exits with.
FV_STATUS=0

fv_fail() {
	echo "fragview: FAIL: $*" >&2
	FV_STATUS=1
}

# fv_run FILE CMD...: run CMD with its output in $OUT/FILE and on the log.
fv_run() {
	file=$1
	shift
	"$@" > "$OUT/$file" 2>&1
	rc=$?
	cat "$OUT/$file"
	[ $rc = 0 ] || fv_fail "'$*' exited with $rc"
	return $rc
}

# fv_bad_writes FILE: every malformed write to the trigger FILE (which
# takes exactly "1" or "1\n") must fail with EINVAL; says which did not.
# dd, not the shell's echo, so the error carries the errno's text.
fv_bad_writes() {
	bad_writes=0
	for bad in '2' '0' '\n' 'abc' '11' '-1' '1 1' '1x' ' 1' '10\n'; do
		if printf '%b' "$bad" | dd of="$1" conv=notrunc 2>"$OUT/err"; then
			echo "$1: write '$bad' was accepted"
			bad_writes=1
		elif ! grep -q 'Invalid argument' "$OUT/err"; then
			echo "$1: write '$bad' failed, but not with EINVAL: $(cat "$OUT/err")"
			bad_writes=1
		fi
	done
	return $bad_writes
}

# fv_trigger_once FILE EVENT: write 1 to the trigger FILE with only
# mobility:EVENT enabled, into an empty trace; sets FV_EVENTS (EVENT lines
# in the trace), FV_SEQS (distinct seq= among them) and FV_LOST (LOST
# markers), then leaves tracing as it was (later tests trace too).
# Returns 1 when the write was refused.
fv_trigger_once() {
	was_on=$(cat $TRACING/tracing_on)
	echo 0 > $TRACING/tracing_on
	echo > $TRACING/trace
	echo 1 > "$TRACING/events/mobility/$2/enable"
	echo 1 > $TRACING/tracing_on
	refused=0
	echo 1 > "$1" || refused=1
	echo 0 > $TRACING/tracing_on
	echo 0 > "$TRACING/events/mobility/$2/enable"
	FV_EVENTS=$(grep -c "$2:" $TRACING/trace)
	FV_SEQS=$(grep -o "$2: *seq=[0-9]*" $TRACING/trace | sort -u | wc -l)
	FV_LOST=$(grep -c 'LOST' $TRACING/trace)
	echo > $TRACING/trace
	echo "$was_on" > $TRACING/tracing_on
	return $refused
}

# fv_spare MIB: the memory (MiB) a fragmenter should leave free, MIB on
# the 6.1 test kernels.  The check-debug kernel (tests/debug.sh boots it
# with debug_pagealloc=on) has KASAN, which keeps freed memory in its
# quarantine for a while and takes an eighth of RAM for its shadow: with
# 16 MiB the fragmenter ended in the OOM killer there, so 160 MiB.  Since
# 6.7 the per-cpu lists grow their high mark while a CPU frees a lot, up
# to an eighth of its node's zone (high_max), and only a drain after
# reclaim that made progress gives them back to an allocation (none with
# anonymous memory and no swap): 6.12 guests had 36 MiB, then 65 MiB on
# them when the fragmenter, 16 and 48 MiB spare, was OOM-killed, so an
# eighth of memory more there.
fv_spare() {
	local major minor
	if grep -qw 'debug_pagealloc=on' /proc/cmdline; then
		echo 160
		return
	fi
	IFS=. read -r major minor _ < /proc/sys/kernel/osrelease
	if [ "$major" -gt 6 ] || { [ "$major" = 6 ] && [ "${minor%%[!0-9]*}" -ge 7 ]; }; then
		echo $(($1 + $(awk '/^MemTotal:/ { print int($2 / 8192) }' /proc/meminfo)))
	else
		echo "$1"
	fi
}

# fv_wait_file FILE PID: wait until FILE exists, as long as PID lives.
fv_wait_file() {
	while [ ! -e "$1" ]; do
		kill -0 "$2" 2>/dev/null || { fv_fail "pid $2 died"; return 1; }
		sleep 0.2
	done
}

# The events to record: the mobility system and the stock events around
# fallback, pcp drains, migration and compaction; on an unpatched kernel the
# mobility system is missing and only the rest is recorded.
# kmem:mm_page_pcpu_drain fires once per drained page: 94 % of a fragment
# capture's events, which only the drain oracle (tests/host/drain.py, our
# pcp_drain batch against its pages) reads.  It is recorded only when the
# boot asks for it (fv.per_page_drain=1, as tests/guest.sh does) or the
# scenario sets FV_PER_PAGE_DRAIN=1.  Of the migrate system only the
# per-call summary: set/remove_migration_pte fire twice per migrated page
# and nothing reads them (migrate_folio says where each page went).
# kmem:mm_page_alloc only for orders >= pageblock_order, filtered in the
# kernel: the high-order outcomes (pfn -1 on failure) of fragview compact,
# a few hundred events where all orders would be millions.
# Of the mobility system every event but migrate_folio, which writes one
# event per folio moved (+13 % in a move_pages(2) loop, bench/results.md):
# migrate_folio_failed, migrate_pass and mm_migrate_pages say what
# happened at a bounded cost.  migrate_folio is recorded when the boot
# asks for it (fv.migrate_folio=1, as the tests do: their oracles check
# every attempt) or the scenario sets FV_MIGRATE_FOLIO=1.
fv_events() {
	per_page=${FV_PER_PAGE_DRAIN:-0}
	grep -qw 'fv.per_page_drain=1' /proc/cmdline && per_page=1
	per_folio=${FV_MIGRATE_FOLIO:-0}
	grep -qw 'fv.migrate_folio=1' /proc/cmdline && per_folio=1
	for ev in mobility kmem/mm_page_alloc_extfrag kmem/mm_page_pcpu_drain \
		migrate/mm_migrate_pages compaction kmem/mm_page_alloc; do
		if [ "$ev" = kmem/mm_page_pcpu_drain ] && [ "$per_page" != 1 ]; then
			continue
		fi
		if [ ! -d "$TRACING/events/$ev" ]; then
			echo "fragview: no event $ev in this kernel" >&2
			continue
		fi
		case $ev in
		kmem/mm_page_alloc) echo "-e kmem:mm_page_alloc -f order>=$(fv_pageblock_order)" ;;
		mobility) fv_mobility_events "$per_folio" ;;
		*/*) echo "-e ${ev%/*}:${ev#*/}" ;;
		*) echo "-e $ev" ;;
		esac
	done
	fv_stack_events
}

# fv_mobility_events PER_FOLIO: the mobility events, each by name;
# migrate_folio only if PER_FOLIO is 1
fv_mobility_events() {
	for d in "$TRACING"/events/mobility/*/; do
		e=$(basename "$d")
		[ "$e" != migrate_folio ] || [ "$1" = 1 ] || continue
		echo "-e mobility:$e"
	done
}

# The kernel stack of every event that pollutes or claims a pageblock
# (fragview blame): a stacktrace trigger on the event writes an
# ftrace:kernel_stack record right after it, on the same CPU.  On the
# patched kernel that is pageblock_steal and pageblock_flip (a few hundred
# events a run, the other events stay without stacks); on a stock kernel
# mm_page_alloc_extfrag, its one event at a fallback.  FV_STACKS=0 (or
# fv.stacks=0 on the command line) records no stacks.  trace-cmd takes
# the triggers off again when it stops.
fv_stack_events() {
	stacks=${FV_STACKS:-1}
	grep -qw 'fv.stacks=0' /proc/cmdline && stacks=0
	[ "$stacks" = 1 ] || return 0
	if [ -d "$TRACING/events/mobility" ]; then
		set -- mobility/pageblock_steal mobility/pageblock_flip
	else
		set -- kmem/mm_page_alloc_extfrag
	fi
	for ev in "$@"; do
		[ -e "$TRACING/events/$ev/trigger" ] || continue
		echo "-e ${ev%/*}:${ev#*/} -R stacktrace"
	done
}

# pageblock_order, from the block size /proc/pagetypeinfo prints (9 if not)
fv_pageblock_order() {
	pages=$(awk '/^Pages per block:/ { print $4; exit }' /proc/pagetypeinfo 2>/dev/null)
	order=0
	while [ "${pages:-0}" -gt 1 ]; do
		pages=$((pages / 2))
		order=$((order + 1))
	done
	[ "$order" -gt 0 ] || order=9
	echo $order
}

# THP support raises min_free_kbytes to ~45 MiB in a 1 GiB guest; all of
# that stays free in large blocks, which fallbacks take (and claim) before
# any small hole.  A small reserve makes the fragmenter's holes matter.
fv_small_reserves() {
	echo 8192 > /proc/sys/vm/min_free_kbytes
}

# fv_state LABEL: copy the allocator's state files to $OUT/LABEL.*
fv_state() {
	cat /proc/pagetypeinfo > "$OUT/$1.pagetypeinfo"
	cat /proc/buddyinfo > "$OUT/$1.buddyinfo"
	cat /proc/vmstat > "$OUT/$1.vmstat"
	cat /proc/zoneinfo > "$OUT/$1.zoneinfo"
	if [ -r "$MOBILITY_DEBUGFS/pageblocks" ]; then
		cat "$MOBILITY_DEBUGFS/pageblocks" > "$OUT/$1.pageblocks"
	fi
	if [ -r "$MOBILITY_DEBUGFS/census" ]; then
		cat "$MOBILITY_DEBUGFS/census" > "$OUT/$1.census"
	fi
}

# Copy every populated zone's free pages and watermarks from
# /proc/zoneinfo into the trace, one trace_marker line a zone
# (tools/fragview/zonemark.h): no kernel event carries them, and
# fragview explain gives them with their age.
fv_zone_marks() {
	[ -w "$TRACING/trace_marker" ] || return 0
	awk '/^Node/ { node = $2; sub(",", "", node); zone = $4 }
	     $1 == "pages" && $2 == "free" { free = $3 }
	     $1 == "boost" { boost = $2 }
	     $1 == "min" { min = $2 }
	     $1 == "low" { low = $2 }
	     $1 == "high" { high = $2 }
	     $1 == "managed" && $2 > 0 {
		printf "fragview_zone: node=%s zone=%s free=%s min=%s low=%s high=%s boost=%s managed=%s\n",
		       node, zone, free, min, low, high, boost, $2 }' /proc/zoneinfo |
	while read -r line; do
		echo "$line" > "$TRACING/trace_marker"
	done
}

# Ask the patched kernel to emit the whole pageblock map into the trace,
# with the zones' watermarks beside it (fv_zone_marks).
fv_snapshot() {
	fv_zone_marks
	if [ -w "$MOBILITY_DEBUGFS/snapshot" ]; then
		echo 1 > "$MOBILITY_DEBUGFS/snapshot" ||
			echo "fragview: snapshot write failed" >&2
	fi
}

# Ask the patched kernel (patch 9) to emit what every block holds into the
# trace: the data of fragview's pollution view and figures.
fv_census() {
	if [ -w "$MOBILITY_DEBUGFS/census" ]; then
		echo 1 > "$MOBILITY_DEBUGFS/census" ||
			echo "fragview: census write failed" >&2
	fi
}

# fv_record_start [extra trace-cmd options]: start trace-cmd in the
# background, wait until the events are live, take a census and snapshot
# the map.
# fv_text_kallsyms: trace-cmd saves /proc/kallsyms whole in the capture:
# 1.4 MiB on the 6.1 guest, 355 kB of zstd, most of a demo capture.  Only
# code addresses are ever resolved (stacks, the callers that TP_printk
# prints with %pS), by fragview, trace-cmd report and KernelShark alike,
# so the recorder is shown the text symbols alone (0.9 MiB, 190 kB), less
# 6.12's __pfx_ padding symbols, where no return address can point.
fv_text_kallsyms() {
	[ ! -e /tmp/kallsyms.text ] || return 0
	grep ' [tTwW] ' /proc/kallsyms | grep -v ' __pfx_' > /tmp/kallsyms.text &&
		mount -o bind /tmp/kallsyms.text /proc/kallsyms ||
		echo "fragview: kallsyms not filtered: the capture keeps all of it"
}

fv_record_start() {
	fv_state start
	fv_text_kallsyms
	events=$(fv_events)
	# the saved comms (pid -> name) that blame names tasks by: the
	# default 128 are too few for a scenario's shells and helpers
	echo 4096 > "$TRACING/saved_cmdlines_size" 2>/dev/null
	# 10 MiB per cpu: trace-cmd drains continuously, but under TCG and a
	# loaded host it falls behind the per-page drain events; a lost event
	# would make the replay inexact.
	# The global clock orders events across CPUs as zone->lock does, which
	# the replay of flips against snapshots relies on (the default local
	# clock is per CPU).
	trace-cmd record -C global -b 10240 $events "$@" -o "$OUT/trace.dat" \
		> "$OUT/trace-cmd.log" 2>&1 &
	FV_RECORDER=$!
	first=$(echo "$events" | head -n 1 | sed 's/^-e //; s|:|/|')
	i=0
	# (an event with a trigger reads "1*": enabled, with a trigger)
	while ! grep -q '^1' "$TRACING/events/$first/enable" 2>/dev/null ||
	      [ "$(cat "$TRACING/tracing_on")" != 1 ]; do
		i=$((i + 1))
		if [ $i -gt 300 ] || ! kill -0 "$FV_RECORDER" 2>/dev/null; then
			fv_fail "trace-cmd did not start"
			cat "$OUT/trace-cmd.log" >&2
			FV_RECORDER=
			return 1
		fi
		sleep 0.1
	done
	# the census first: the snapshot is what the replay needs, so it is
	# the last thing written (a small ring buffer keeps the latest)
	fv_census
	fv_snapshot
	fv_state_ticker_start
	echo "fragview: recording:" $events
}

# The free-page state every N seconds while recording, for fragview
# explain's figures near each failure: FV_STATE_PERIOD=N in the scenario
# or fv.state_period=N on the kernel command line (0 or unset: only at
# the start and the end).  Off by default: bench/results-ticker.md has
# what each tick costs, in CPU and capture bytes, per block.
fv_state_ticker_start() {
	period=${FV_STATE_PERIOD:-0}
	for arg in $(cat /proc/cmdline); do
		case $arg in fv.state_period=*) period=${arg#fv.state_period=} ;; esac
	done
	FV_TICKER=
	case $period in ''|0|*[!0-9]*) return 0 ;; esac
	( while sleep "$period"; do fv_census; fv_snapshot; done ) &
	FV_TICKER=$!
	echo "fragview: census and snapshot every $period s"
}

fv_state_ticker_stop() {
	[ -n "${FV_TICKER:-}" ] || return 0
	kill "$FV_TICKER" 2>/dev/null
	wait "$FV_TICKER" 2>/dev/null
	FV_TICKER=
}

fv_record_stop() {
	[ -n "$FV_RECORDER" ] || return 1
	fv_state_ticker_stop
	# the end dump is read while still recording, so every flip before it
	# is in the capture: baseline + flips must give exactly this map
	fv_census
	fv_state end
	fv_snapshot
	kill -INT "$FV_RECORDER"
	wait "$FV_RECORDER"
	rc=$?
	if [ $rc != 0 ]; then
		fv_fail "trace-cmd exited with $rc"
		cat "$OUT/trace-cmd.log" >&2
		return 1
	fi
	echo "fragview: trace $(wc -c < "$OUT/trace.dat") bytes"
}
