#!/bin/sh
# description: pageblocks is read in a loop from both CPUs (whole reads and
# 7-byte reads, so seq_file restarts between reads) while a ZONE_MOVABLE
# memory block goes offline and online again; every read succeeds, the
# offline block vanishes from the map and comes back as Movable, and the
# kernel logs no warning
# fv-append: movablecore=640M
dbg=/sys/kernel/debug/mobility
mem=/sys/devices/system/memory
cycles=3
rc=0
fail() { echo "FAIL: $*"; rc=1; }

# reader ID: read pageblocks until $OUT/stop exists, count the reads
reader() {
	n=0
	while [ ! -e "$OUT/stop" ]; do
		if [ $((n % 2)) = 0 ]; then
			cat $dbg/pageblocks > /dev/null 2>> "$OUT/reader-$1.err"
		else
			# (dd reports its record counts on stderr too)
			dd if=$dbg/pageblocks bs=7 of=/dev/null 2> "$OUT/dd-$1" &&
				! grep -v ' records ' "$OUT/dd-$1" >> "$OUT/reader-$1.err"
		fi || echo "reader $1: read $n failed" >> "$OUT/fail"
		n=$((n + 1))
	done
	echo "$n" > "$OUT/reader-$1.count"
}

# lines of pageblocks whose pfn lies in [$1, $2)
blocks_in() {
	awk -v lo="$1" -v hi="$2" '$1 ~ /^0x/ {
		pfn = 0; s = tolower(substr($1, 3))
		for (i = 1; i <= length(s); i++)
			pfn = pfn * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
		if (pfn >= lo && pfn < hi) print }' $dbg/pageblocks
}

if [ "${1:-}" = reader ]; then		# re-invoked below, pinned to one CPU
	reader "$2"
	exit 0
fi

[ -r $dbg/pageblocks ] || { echo "no $dbg/pageblocks"; exit 1; }
blocks=
for dir in $mem/memory[0-9]*; do
	if [ "$(cat "$dir/state")" = online ] &&
	   [ "$(cat "$dir/valid_zones")" = Movable ]; then
		blocks="$blocks $dir"
	fi
done
[ -n "$blocks" ] || { echo "no online ZONE_MOVABLE block (movablecore=?)"; exit 1; }
size=$(printf %d 0x$(cat $mem/block_size_bytes))
pages=$((size / 4096))
# the header names its fields (v2 added end_pfn and gen after the order)
order=$(awk '$1 == "node" { for (i = 1; i < NF; i++) if ($i == "pageblock_order") print $(i + 1); exit }' \
	$dbg/pageblocks)
per_block=$((pages >> order))
echo "movable blocks:" $blocks "($pages pages, $per_block pageblocks each)"

# the kernel log from here on is checked at the end
dmesg_before=$(dmesg | wc -l)
rm -f "$OUT/stop" "$OUT/fail"
taskset 1 sh "$0" reader 0 &
r0=$!
taskset 2 sh "$0" reader 1 &
r1=$!
sleep 1

block=
c=0
while [ $c -lt $cycles ]; do
	c=$((c + 1))
	done_cycle=
	for dir in ${block:-$blocks}; do
		if echo offline > "$dir/state" 2> /dev/null; then
			block=$dir
			done_cycle=1
			break
		fi
		echo "cycle $c: ${dir##*/} refused to go offline"
	done
	[ -n "$done_cycle" ] || { fail "cycle $c: no movable block went offline"; break; }
	first=$(( ${block##*/memory} * pages ))
	last=$((first + pages))
	n=$(blocks_in $first $last | wc -l)
	echo "cycle $c: ${block##*/} $(cat "$block/state"), $n of its pageblocks listed"
	[ "$n" = 0 ] || fail "cycle $c: offline ${block##*/} still has $n lines in pageblocks"
	sleep 1		# let the readers walk the map with the hole
	echo online_movable > "$block/state" || { fail "cycle $c: onlining ${block##*/}"; break; }
	blocks_in $first $last > "$OUT/online-$c"
	n=$(wc -l < "$OUT/online-$c")
	movable=$(awk '$2 == "Movable"' "$OUT/online-$c" | wc -l)
	echo "cycle $c: ${block##*/} $(cat "$block/state"), $n pageblocks listed, $movable Movable"
	[ "$n" = "$per_block" ] && [ "$movable" = "$per_block" ] ||
		fail "cycle $c: expected $per_block Movable pageblocks after onlining"
	sleep 1
done

touch "$OUT/stop"
wait $r0 $r1
for id in 0 1; do
	n=$(cat "$OUT/reader-$id.count" 2>/dev/null)
	echo "reader $id: ${n:-no} reads"
	[ "${n:-0}" -ge $((cycles * 2)) ] || fail "reader $id made too few reads"
	[ -s "$OUT/reader-$id.err" ] && { cat "$OUT/reader-$id.err"; fail "reader $id errors"; }
done
[ -e "$OUT/fail" ] && { cat "$OUT/fail"; fail "reads failed"; }

dmesg | sed "1,${dmesg_before}d" > "$OUT/dmesg"
# for tests/debug.sh: is the debug kernel still checking?  (lockdep turns
# itself off after its first report; debug_pagealloc=on maps the kernel's
# direct map with 4k pages only)
{
	grep DirectMap /proc/meminfo
	grep debug_locks /proc/lockdep_stats 2>/dev/null
} > "$OUT/debug-state"
if grep -E 'WARNING|BUG|lockdep|circular|Call Trace|Oops' "$OUT/dmesg"; then
	fail "kernel warnings during the test"
fi
exit $rc
