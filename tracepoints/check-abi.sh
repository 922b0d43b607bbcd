#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# check-abi.sh DIR: check the format files of the mobility trace events
# against the ABI documented in tracepoints/README.md.
#
# DIR holds one format file per event, copied out of the guest's
# /sys/kernel/tracing/events/mobility/: either DIR/EVENT/format (a copy of
# the whole directory) or DIR/EVENT or DIR/EVENT.format.
#
# Checked for every event: it exists; its fields (after the common_ ones)
# are exactly the documented ones, in the documented order, with the
# documented types; they are laid out without holes; the print format
# names every documented field and decodes the symbolic ones with
# __print_symbolic().  Prints one line per problem and exits 1 if any,
# 2 on bad usage, 0 (and "ok: N events") when everything matches.
set -u

usage() {
	echo "usage: $0 DIR  (DIR: the events/mobility/*/format files)" >&2
	exit 2
}
[ $# -eq 1 ] || usage
dir=$1
[ -d "$dir" ] || { echo "check-abi: error: '$dir' is not a directory" >&2; exit 2; }

# The ABI: "event: type name, type name, ..." (README.md, field order).
abi='pageblock_steal: unsigned long pfn, unsigned long block_pfn, int nid, int free_moved, int alike, u8 zone, u8 order, u8 fallback_order, u8 alloc_mt, u8 block_mt, bool claimed
pageblock_flip: unsigned long pfn, unsigned long caller, unsigned long gen, int nid, u8 zone, u8 old_mt, u8 new_mt, u8 reason
pcp_drain: int cpu, int nid, unsigned int nr_unmovable, unsigned int nr_movable, unsigned int nr_reclaimable, unsigned int nr_high_order, unsigned int total, u8 zone, u8 reason
migrate_folio: unsigned long src_pfn, unsigned long dst_pfn, int result, u8 order, u8 mode, u8 reason, u8 pass, u8 src_mt, u8 dst_mt
pageblock_state: unsigned long pfn, unsigned long gen, unsigned int seq, unsigned int free_pages, int nid, u8 zone, u8 mt, s8 largest_order
pageblock_snapshot: unsigned long start_pfn, unsigned long end_pfn, unsigned long gen, unsigned int seq, unsigned int nr_blocks, int nid, u8 zone, u8 phase
pageblock_census: unsigned long pfn, unsigned int seq, int nid, unsigned int free, unsigned int free_chunks, unsigned int lru, unsigned int movable_ops, unsigned int slab_reclaimable, unsigned int slab_unmovable, unsigned int pgtable, unsigned int kernel, unsigned int free_pcp, unsigned int reserved, unsigned int offline, u8 zone, u8 mt'

# Fields printed through a __print_symbolic() table.
symbolic='pageblock_steal: zone alloc_mt block_mt
pageblock_flip: zone old_mt new_mt reason
pcp_drain: zone reason
migrate_folio: result mode reason src_mt dst_mt
pageblock_state: zone mt
pageblock_snapshot: zone phase
pageblock_census: zone mt'

format_of() {
	for f in "$dir/$1/format" "$dir/$1.format" "$dir/$1"; do
		[ -f "$f" ] && { echo "$f"; return 0; }
	done
	return 1
}

problems=0
problem() {
	echo "check-abi: $*"
	problems=$((problems + 1))
}

tmp=$(mktemp) || exit 2
trap 'rm -f "$tmp"' EXIT
echo "$abi" > "$tmp"

while IFS= read -r line; do
	event=${line%%:*}
	want=${line#*: }
	if ! fmt=$(format_of "$event"); then
		problem "$event: no format file in $dir"
		continue
	fi
	# "type name offset size" per non-common field, in file order;
	# u8/s8 may also be spelled unsigned char/signed char.
	got=$(sed -n 's/^[[:space:]]*field:\(.*\);[[:space:]]*offset:\([0-9]*\);[[:space:]]*size:\([0-9]*\);.*/\1|\2|\3/p' "$fmt" |
		grep -v '^[^|]* common_' |
		sed 's/^unsigned char /u8 /; s/^signed char /s8 /')
	got_fields=$(echo "$got" | awk -F'|' '{ printf "%s%s", (NR > 1 ? ", " : ""), $1 }')
	if [ "$got_fields" != "$want" ]; then
		problem "$event: fields differ"
		echo "  want: $want"
		echo "  got:  $got_fields"
	fi
	# no holes: each field starts where the previous one ended
	holes=$(echo "$got" | awk -F'|' '
		NR > 1 && $2 != end { printf "%s at %d, previous field ends at %d; ", $1, $2, end }
		{ end = $2 + $3 }')
	[ -z "$holes" ] || problem "$event: hole in layout: $holes"
	pfmt=$(sed -n 's/^print fmt: //p' "$fmt")
	[ -n "$pfmt" ] || problem "$event: no print fmt"
	for f in $(echo "$want" | tr ',' '\n' | awk '{ print $NF }'); do
		case $pfmt in
		*"REC->$f"*) ;;
		*) problem "$event: print fmt does not use field $f" ;;
		esac
	done
	for f in $(echo "$symbolic" | sed -n "s/^$event: //p"); do
		if ! echo "$pfmt" | grep -q "__print_symbolic([^,]*REC->$f[^A-Za-z0-9_]"; then
			problem "$event: field $f is not printed with __print_symbolic()"
		fi
	done
done < "$tmp"

n=$(wc -l < "$tmp")
if [ "$problems" -gt 0 ]; then
	echo "check-abi: $problems problem(s)"
	exit 1
fi
echo "ok: $n events match the ABI"
