#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# check-build.sh - every prefix of the series compiles, and the whole
# series compiles under the config variants a reviewer asks about.
#
#   kernel-patches/check-build.sh [--kernel VER] [--prefixes] [--variants]
#
# The series of one base, kernel-patches/VER/ (default $FRAGVIEW_KERNEL,
# else 6.1); both checks unless one is asked for.
# Prefixes: after each patch, the mm/ objects the series touches are
# compiled with -Werror (guest config: tinyconfig + qemu/kernel.config +
# qemu/kernel-VER.config).
# Variants: with the whole series, all of mm/ is compiled with -Werror with
# one option turned off at a time: CMA, MEMORY_HOTPLUG, DEBUG_FS,
# FTRACE+TRACING (no tracepoints at all), NUMA, COMPACTION+THP, and, on a
# base that still has SLOB (6.1), SLUB (SLOB instead: no per-page slab
# cache for the census to look at).
# Works in a scratch copy of $FRAGVIEW_CACHE/linux-source-VER (hard links,
# broken by patch), ccache in $FRAGVIEW_CACHE/ccache.  Not part of make
# check: a cold run compiles mm/ eight times (about 35 min on 2 cores).
# Prints "ok ..." / "FAIL ..." per build; exit 1 if any failed.
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
cache=${FRAGVIEW_CACHE:-/var/cache/fragview}
export CCACHE_DIR=$cache/ccache CCACHE_BASEDIR=$cache
# shellcheck source=qemu/kernel-base.sh
. "$top/qemu/kernel-base.sh"

base=${FRAGVIEW_KERNEL:-$fv_default_base}
want_prefixes=1 want_variants=1
usage() { echo "usage: $0 [--kernel VER] [--prefixes|--variants]" >&2; exit 2; }
while [ $# -gt 0 ]; do
	case $1 in
	--kernel) [ $# -ge 2 ] || usage; base=$2; shift ;;
	--prefixes) want_variants=0 ;;
	--variants) want_prefixes=0 ;;
	*) usage ;;
	esac
	shift
done
err=$(fv_base_check "$base") || { echo "check-build: $err" >&2; exit 2; }
dir=$top/kernel-patches/$base
pristine=$cache/linux-source-$base
[ -f "$dir/series" ] || { echo "check-build: no kernel-patches/$base/series" >&2; exit 2; }
[ -d "$pristine" ] || { echo "check-build: no $pristine (run qemu/build-kernel.sh --kernel $base once)" >&2; exit 2; }
fragments=("$top/qemu/kernel.config")
[ ! -r "$top/qemu/kernel-$base.config" ] || fragments+=("$top/qemu/kernel-$base.config")

work=$(mktemp -d "$cache/check-build.XXXXXX")
trap 'rm -rf "$work"' EXIT
cp -al "$pristine" "$work/src"
src=$work/src
mapfile -t patches < <(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$dir/series")
failed=0

# configure DIR [scripts/config args...]: the guest config, then the edits
configure() {
	local o=$1
	shift
	mkdir -p "$o"
	make -s -C "$src" O="$o" tinyconfig >/dev/null 2>&1 &&
	(cd "$o" && "$src/scripts/kconfig/merge_config.sh" -m -O "$o" \
		"$o/.config" "${fragments[@]}" >/dev/null 2>&1) &&
	if [ $# -gt 0 ]; then "$src/scripts/config" --file "$o/.config" "$@"; fi &&
	make -s -C "$src" O="$o" olddefconfig >/dev/null 2>&1
}

# compile WHAT DIR TARGETS...
compile() {
	local what=$1 o=$2 out
	shift 2
	if out=$(make -s -C "$src" O="$o" -j"$(nproc)" CC="ccache gcc" \
			KCFLAGS=-Werror "$@" 2>&1); then
		echo "ok $what"
	else
		echo "FAIL $what"
		grep -Ev '^make(\[[0-9]+\])?: ' <<<"$out" | tail -n 20 | sed 's/^/  /'
		failed=1
	fi
}

applied=0
apply_next() {
	patch -s -p1 -d "$src" --no-backup-if-mismatch \
		< "$dir/${patches[$applied]}" || return 1
	applied=$((applied + 1))
}

if [ $want_prefixes = 1 ]; then
	configure "$work/prefix" || { echo "check-build: configuring failed" >&2; exit 1; }
	while [ $applied -lt ${#patches[@]} ]; do
		p=${patches[$applied]}
		apply_next || { echo "FAIL $p: does not apply"; exit 1; }
		objs=()
		for f in page_alloc page_isolation memory_hotplug migrate mm_init \
			 compaction mobility_trace mobility_debugfs; do
			[ -f "$src/mm/$f.c" ] && objs+=("mm/$f.o")
		done
		compile "prefix $applied ($p): ${objs[*]}" "$work/prefix" "${objs[@]}"
	done
fi

if [ $want_variants = 1 ]; then
	while [ $applied -lt ${#patches[@]} ]; do apply_next || exit 1; done
	variants=("CMA:-d CMA" "MEMORY_HOTPLUG:-d MEMORY_HOTPLUG"
		  "DEBUG_FS:-d DEBUG_FS" "FTRACE:-d FTRACE -d TRACING"
		  "NUMA:-d NUMA" "COMPACTION:-d COMPACTION -d TRANSPARENT_HUGEPAGE")
	# SLOB left after 6.3; SLUB is the only slab allocator since 6.8
	! grep -q '^config SLOB$' "$src/mm/Kconfig" || variants+=("SLUB:-d SLUB -e SLOB")
	for v in "${variants[@]}"; do
		name=${v%%:*}
		# shellcheck disable=SC2086 # the edits are words
		configure "$work/v-$name" ${v#*:} || { echo "FAIL $name off: config"; failed=1; continue; }
		if grep -q "^CONFIG_$name=y" "$work/v-$name/.config"; then
			echo "FAIL $name off: still set after olddefconfig"
			failed=1
			continue
		fi
		compile "whole series, $name off: mm/" "$work/v-$name" mm/
		rm -rf "$work/v-$name"
	done
fi
exit $failed
