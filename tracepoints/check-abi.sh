#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# check-abi.sh [--kernel 6.1|6.12] DIR: check the format files of the
# mobility trace events against the ABI documented in tracepoints/README.md.
#
# DIR holds one format file per event, copied out of the guest's
# /sys/kernel/tracing/events/mobility/: either DIR/EVENT/format (a copy of
# the whole directory) or DIR/EVENT or DIR/EVENT.format.
#
# Checked for every event: it exists; its fields (after the common_ ones)
# are exactly the documented ones, in the documented order, with the
# documented types; they are laid out without holes; the print format
# names every documented field and decodes the symbolic ones with
# __print_symbolic(), whose table holds exactly the documented names of
# the kernel (those only some configs have may be missing).  The 6.1 and
# the 6.12 series print slightly different names (README.md, "Per-kernel
# differences"): --kernel says which to expect; without it the names must
# be those of one of them, and the last line says which.  Prints one line
# per problem and exits 1 if any, 2 on bad usage, 0 (and "ok: N events
# ...") when everything matches.  Runs under busybox sh and awk.
#
# check-abi.sh --names prints the names table below (NAME? only with some
# configs, NAME@K only on kernel K).
set -u

kernels='6.1 6.12'
usage() {
	echo "usage: $0 [--kernel 6.1|6.12] DIR  (DIR: the events/mobility/*/format files)" >&2
	echo "       $0 --names  (print the documented names of the symbolic fields)" >&2
	exit 2
}
kernel=
if [ $# -eq 1 ] && [ "$1" = --names ]; then
	list_names=yes	# print the documented names, below
elif [ $# -ge 1 ] && [ "$1" = --kernel ]; then
	[ $# -ge 2 ] || usage
	case " $kernels " in
	*" $2 "*) kernel=$2 ;;
	*) echo "check-abi: error: unknown kernel '$2' (known: $kernels)" >&2; exit 2 ;;
	esac
	shift 2
fi

# The ABI: "event: type name, type name, ..." (README.md, field order).
abi='pageblock_steal: unsigned long pfn, unsigned long block_pfn, int nid, int free_moved, int alike, u8 zone, u8 order, u8 fallback_order, u8 alloc_mt, u8 block_mt, bool claimed, bool taken
pageblock_flip: unsigned long pfn, unsigned long caller, unsigned long gen, int nid, u8 zone, u8 old_mt, u8 new_mt, u8 reason
pcp_drain: int cpu, int nid, unsigned int nr_unmovable, unsigned int nr_movable, unsigned int nr_reclaimable, unsigned int nr_high_order, unsigned int total, u8 zone, u8 reason
migrate_folio: unsigned long src_pfn, unsigned long dst_pfn, int result, u8 order, u8 mode, u8 reason, u8 pass, u8 src_mt, u8 dst_mt
migrate_folio_failed: unsigned long src_pfn, unsigned long dst_pfn, int result, u8 order, u8 mode, u8 reason, u8 pass, u8 src_mt, u8 dst_mt
migrate_pass: unsigned int nr_succeeded, unsigned int nr_failed, unsigned int nr_retry, u8 stage, u8 pass, u8 mode, u8 reason
pageblock_state: unsigned long pfn, unsigned long gen, unsigned int seq, unsigned int free_pages, int nid, u8 zone, u8 mt, s8 largest_order
pageblock_snapshot: unsigned long start_pfn, unsigned long end_pfn, unsigned long gen, unsigned int seq, unsigned int nr_blocks, int nid, u8 zone, u8 phase
pageblock_census: unsigned long pfn, unsigned int seq, int nid, unsigned int free, unsigned int free_chunks, unsigned int lru, unsigned int movable_ops, unsigned int slab_reclaimable, unsigned int slab_unmovable, unsigned int pgtable, unsigned int kernel, unsigned int free_pcp, unsigned int reserved, unsigned int offline, unsigned int hugetlb, u8 zone, u8 mt'

# The names each field printed through __print_symbolic() has
# (README.md): NAME on every kernel, NAME? only with some configs
# (CONFIG_CMA, CONFIG_ZONE_DMA, ...), NAME@K only on kernel K.
mt='Unmovable Movable Reclaimable HighAtomic CMA? Isolate?'
zone='DMA? DMA32? Normal HighMem? Device? Movable'
errnos='success EAGAIN EBUSY ENOMEM ENOSYS EINVAL EFAULT EIO ENOSPC EHWPOISON EPERM ENOENT EEXIST ENODEV EOVERFLOW EDEADLK'
names="pageblock_steal zone: $zone
pageblock_steal alloc_mt: $mt
pageblock_steal block_mt: $mt
pageblock_flip zone: $zone
pageblock_flip old_mt: $mt none
pageblock_flip new_mt: $mt none
pageblock_flip reason: steal highatomic_reserve highatomic_unreserve isolate unisolate cma isolate_free init online merge@6.12 offline
pcp_drain zone: $zone
pcp_drain reason: free_high vmstat local all cpu_dead decay@6.12
migrate_folio result: $errnos
migrate_folio mode: MIGRATE_ASYNC MIGRATE_SYNC_LIGHT MIGRATE_SYNC MIGRATE_SYNC_NO_COPY@6.1
migrate_folio reason: compaction memory_failure memory_hotplug syscall_or_cpuset mempolicy_mbind numa_misplaced contig_range longterm_pin demotion damon@6.12
migrate_folio src_mt: $mt
migrate_folio dst_mt: $mt none
migrate_folio_failed result: $errnos
migrate_folio_failed mode: MIGRATE_ASYNC MIGRATE_SYNC_LIGHT MIGRATE_SYNC MIGRATE_SYNC_NO_COPY@6.1
migrate_folio_failed reason: compaction memory_failure memory_hotplug syscall_or_cpuset mempolicy_mbind numa_misplaced contig_range longterm_pin demotion damon@6.12
migrate_folio_failed src_mt: $mt
migrate_folio_failed dst_mt: $mt none
migrate_pass stage: hugetlb unmap_move unmap move
migrate_pass mode: MIGRATE_ASYNC MIGRATE_SYNC_LIGHT MIGRATE_SYNC MIGRATE_SYNC_NO_COPY@6.1
migrate_pass reason: compaction memory_failure memory_hotplug syscall_or_cpuset mempolicy_mbind numa_misplaced contig_range longterm_pin demotion damon@6.12
pageblock_state zone: $zone
pageblock_state mt: $mt
pageblock_snapshot zone: $zone
pageblock_snapshot phase: begin end
pageblock_census zone: $zone
pageblock_census mt: $mt"

if [ "${list_names:-}" = yes ]; then
	echo "$names"
	exit 0
fi
[ $# -eq 1 ] || usage
dir=$1
[ -d "$dir" ] || { echo "check-abi: error: '$dir' is not a directory" >&2; exit 2; }

# symbols EVENT FORMAT: "EVENT FIELD NAME..." per __print_symbolic() of
# the print fmt (values are not checked: they depend on the config)
symbols() {
	sed -n 's/^print fmt: //p' "$2" | awk -v ev="$1" '{
		s = $0
		while ((i = index(s, "__print_symbolic(")) > 0) {
			s = substr(s, i + 17)
			j = index(s, ", {")
			if (j == 0)
				break
			arg = substr(s, 1, j - 1)
			s = substr(s, j)
			tab = substr(s, 1, index(s, ")") - 1)
			out = ev " ?"
			if (match(arg, /REC->[A-Za-z0-9_]+/))
				out = ev " " substr(arg, RSTART + 5, RLENGTH - 5)
			while (match(tab, /"[^"]*"/)) {
				out = out " " substr(tab, RSTART + 1, RLENGTH - 2)
				tab = substr(tab, RSTART + RLENGTH)
			}
			print out
		}
	}'
}

# check_names KERNEL: a problem line per symbolic table ($syms) whose
# names are not those documented for KERNEL
check_names() {
	echo "$names" | awk -v k="$1" -v syms="$syms" '
	BEGIN {
		while ((getline l < syms) > 0) {
			split(l, w, " ")
			tab[w[1] " " w[2]] = l
		}
	}
	{
		f = $2
		sub(/:$/, "", f)
		if (!(($1 " " f) in tab))
			next
		n = split(tab[$1 " " f], got, " ")
		split("", have)
		split("", doc)
		for (i = 3; i <= n; i++)
			have[got[i]] = 1
		missing = extra = ""
		for (i = 3; i <= NF; i++) {
			name = $i
			opt = sub(/\?$/, "", name)
			only = ""
			if ((p = index(name, "@")) > 0) {
				only = substr(name, p + 1)
				name = substr(name, 1, p - 1)
			}
			if (only != "" && only != k)
				continue
			doc[name] = 1
			if (!opt && !(name in have))
				missing = missing " " name
		}
		for (i = 3; i <= n; i++)
			if (!(got[i] in doc))
				extra = extra " " got[i]
		if (extra != "")
			printf "%s: %s prints names not documented for %s:%s\n", $1, f, k, extra
		if (missing != "")
			printf "%s: %s lacks names documented for %s:%s\n", $1, f, k, missing
	}'
}

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
syms=$(mktemp) || exit 2
trap 'rm -f "$tmp" "$syms" "$syms".*' EXIT
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
	symbols "$event" "$fmt" >> "$syms"
	for f in $(echo "$names" | sed -n "s/^$event \([a-z_]*\):.*/\1/p"); do
		grep -q "^$event $f " "$syms" ||
			problem "$event: field $f is not printed with __print_symbolic()"
	done
done < "$tmp"

# The names: of the kernel asked for, else of the one they match (or
# come closest to)
best=
for k in ${kernel:-$kernels}; do
	check_names "$k" > "$syms.$k"
	if [ -z "$best" ] || [ "$(wc -l < "$syms.$k")" -lt "$(wc -l < "$syms.$best")" ]; then
		best=$k
	fi
done
if [ -s "$syms.$best" ]; then
	[ -n "$kernel" ] || problem "the names are those of no kernel; the closest are those of $best:"
	while IFS= read -r line; do
		problem "$line"
	done < "$syms.$best"
fi

n=$(wc -l < "$tmp")
if [ "$problems" -gt 0 ]; then
	echo "check-abi: $problems problem(s)"
	exit 1
fi
echo "ok: $n events match the ABI (the names of $best)"
