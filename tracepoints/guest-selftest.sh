#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# guest-selftest.sh [CHECK_ABI]: run inside the guest (busybox sh) on the
# patched kernel. Checks the kernel side of the mobility ABI:
#  - events/mobility/* formats match tracepoints/README.md (check-abi.sh,
#    path given as $1 or next to this script), names those of the
#    series of `uname -r` (6.1 or 6.12);
#  - /sys/kernel/debug/mobility/snapshot accepts "1" and "1\n" and rejects
#    everything else with EINVAL; a snapshot emits one pageblock_state per
#    line of pageblocks, all with one new seq;
#  - pageblocks has the documented format, and per zone the block counts
#    per type equal /proc/pagetypeinfo's "Number of blocks type" line;
#  - reading pageblocks 1 byte or 7 bytes at a time, or from an odd
#    offset, gives the same lines (pfn and type columns; free counts may
#    move between reads).
# One line per failure, "PASS"/"FAIL" at the end; exit 0 only if all pass.
T=/sys/kernel/tracing
D=/sys/kernel/debug/mobility
here=$(dirname "$0")
check_abi=${1:-$here/check-abi.sh}
tmp=${TMPDIR:-/tmp}/mobility-selftest.$$
failures=0

fail() {
	echo "FAIL: $*"
	failures=$((failures + 1))
}

mkdir -p "$tmp" || exit 1
trap 'rm -rf "$tmp"' EXIT

[ -d "$T/events/mobility" ] || { echo "FAIL: no mobility events in $T"; exit 1; }
[ -r "$D/pageblocks" ] || { echo "FAIL: no $D/pageblocks"; exit 1; }

# --- formats
mkdir -p "$tmp/formats"
for e in "$T"/events/mobility/*/; do
	cp "$e/format" "$tmp/formats/$(basename "$e")"
done
# the names of the running kernel's series, when it is one we know
case $(uname -r) in
6.1.*) abi_kernel="--kernel 6.1" ;;
6.12.*) abi_kernel="--kernel 6.12" ;;
*) abi_kernel= ;;
esac
if [ -r "$check_abi" ]; then
	# shellcheck disable=SC2086
	sh "$check_abi" $abi_kernel "$tmp/formats" || fail "formats do not match the ABI"
else
	fail "check-abi.sh not found at $check_abi"
fi

# --- snapshot input validation
for bad in 2 0 11 1x "1 " 123 "
"; do
	if printf '%s' "$bad" > "$D/snapshot" 2> /dev/null; then
		fail "snapshot accepted '$bad'"
	fi
done
printf '1\n\n' > "$D/snapshot" 2> /dev/null && fail "snapshot accepted '1\\n\\n'"
printf '1' > "$D/snapshot" || fail "snapshot rejected '1'"
echo 1 > "$D/snapshot" || fail "snapshot rejected '1\\n'"

# --- a snapshot emits one pageblock_state per listed block, one seq
echo 0 > "$T/tracing_on"
echo > "$T/trace"
echo 1 > "$T/events/mobility/pageblock_state/enable"
echo 1 > "$T/tracing_on"
echo 1 > "$D/snapshot" || fail "snapshot write failed"
echo 0 > "$T/tracing_on"
echo 0 > "$T/events/mobility/pageblock_state/enable"
cat "$D/pageblocks" > "$tmp/pageblocks"
grep -c ' pageblock_state: ' "$T/trace" > "$tmp/nstate"
grep -c '^0x' "$tmp/pageblocks" > "$tmp/nblocks"
dropped=$(grep -o 'entries-in-buffer/entries-written: [0-9]*/[0-9]*' "$T/trace" |
	awk -F'[ /]' '{ print $(NF) - $(NF - 1) }')
if [ "${dropped:-0}" = 0 ] && ! cmp -s "$tmp/nstate" "$tmp/nblocks"; then
	fail "snapshot emitted $(cat "$tmp/nstate") events for $(cat "$tmp/nblocks") blocks"
fi
nseq=$(grep ' pageblock_state: ' "$T/trace" | sed 's/.* seq=\([0-9]*\) .*/\1/' | sort -u | wc -l)
[ "$nseq" = 1 ] || fail "one snapshot carried $nseq different seq values"
echo > "$T/trace"

# --- pageblocks format
bad=$(awk '
	/^node [0-9]+ zone [A-Za-z0-9]+ start_pfn 0x[0-9a-f]+ nr_blocks [0-9]+ pageblock_order [0-9]+$/ { next }
	/^0x[0-9a-f]+ (Unmovable|Movable|Reclaimable|HighAtomic|CMA|Isolate) [0-9]+ (-1|[0-9]+)$/ { next }
	{ print NR": "$0; exit }' "$tmp/pageblocks")
[ -z "$bad" ] || fail "pageblocks: bad line $bad"

# --- counts per zone and type == /proc/pagetypeinfo
# counts_match: 0 if a fresh read of both files agrees
counts_match() {
	cat "$D/pageblocks" > "$tmp/pb"
	cat /proc/pagetypeinfo > "$tmp/pagetypeinfo"
	awk '/^node/ { z = $2 " " $4; next }
	     { n[z " " $2]++ }
	     END { for (k in n) print k, n[k] }' "$tmp/pb" | sort > "$tmp/ours"
	awk '/^Number of blocks type/ {
		for (i = 5; i <= NF; i++) name[i - 4] = $i
		cols = NF - 4; on = 1; next
	     }
	     on && /^Node/ {
		sub(",", "", $2)
		for (i = 1; i <= cols; i++)
			if ($(4 + i) > 0) print $2, $4, name[i], $(4 + i)
		next
	     }
	     { on = 0 }' "$tmp/pagetypeinfo" | sort > "$tmp/theirs"
	[ -s "$tmp/ours" ] && cmp -s "$tmp/ours" "$tmp/theirs"
}
# blocks can change type between the two reads: three tries
if ! counts_match && ! counts_match && ! counts_match; then
	fail "pageblocks counts differ from /proc/pagetypeinfo"
	echo "  pageblocks:"; sed 's/^/    /' "$tmp/ours"
	echo "  pagetypeinfo:"; sed 's/^/    /' "$tmp/theirs"
fi

# --- small and odd reads
cut -d' ' -f1 "$tmp/pageblocks" > "$tmp/col1"
for bs in 1 7; do
	dd if="$D/pageblocks" bs=$bs 2> /dev/null | cut -d' ' -f1 > "$tmp/col1.$bs"
	cmp -s "$tmp/col1" "$tmp/col1.$bs" || fail "pageblocks read with bs=$bs differs"
done
dd if="$D/pageblocks" bs=13 skip=5 2> /dev/null > "$tmp/skip"
dd if="$D/pageblocks" bs=1 skip=65 2> /dev/null > "$tmp/skip1"
[ "$(wc -c < "$tmp/skip")" -gt 0 ] || fail "pageblocks read at offset 65 returned nothing"
cmp -s "$tmp/skip" "$tmp/skip1" ||
	[ "$(wc -l < "$tmp/skip")" = "$(wc -l < "$tmp/skip1")" ] ||
	fail "pageblocks reads at offset 65 differ"

if [ "$failures" -gt 0 ]; then
	echo "FAIL ($failures)"
	exit 1
fi
echo PASS
