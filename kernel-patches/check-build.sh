#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# check-build.sh - every prefix of the series compiles, and the whole
# series compiles under the config variants a reviewer asks about.
#
#   kernel-patches/check-build.sh [--prefixes] [--variants]   (default: both)
#
# Prefixes: after each patch, the mm/ objects the series touches are
# compiled with -Werror (guest config: tinyconfig + qemu/kernel.config).
# Variants: with the whole series, all of mm/ is compiled with -Werror with
# one option turned off at a time: CMA, MEMORY_HOTPLUG, DEBUG_FS,
# FTRACE+TRACING (no tracepoints at all), NUMA, COMPACTION+THP, SLUB (SLOB
# instead: no per-page slab cache for the census to look at).
# Works in a scratch copy of $FRAGVIEW_CACHE/linux-source-6.1 (hard links,
# broken by patch), ccache in $FRAGVIEW_CACHE/ccache.  Not part of make
# check: a cold run compiles mm/ eight times (about 35 min on 2 cores).
# Prints "ok ..." / "FAIL ..." per build; exit 1 if any failed.
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
cache=${FRAGVIEW_CACHE:-/var/cache/fragview}
pristine=$cache/linux-source-6.1
[ -d "$pristine" ] || { echo "check-build: no $pristine (run qemu/build-kernel.sh once)" >&2; exit 2; }
export CCACHE_DIR=$cache/ccache CCACHE_BASEDIR=$cache

want_prefixes=1 want_variants=1
case ${1:-} in
--prefixes) want_variants=0 ;;
--variants) want_prefixes=0 ;;
'') ;;
*) echo "usage: $0 [--prefixes|--variants]" >&2; exit 2 ;;
esac

work=$(mktemp -d "$cache/check-build.XXXXXX")
trap 'rm -rf "$work"' EXIT
cp -al "$pristine" "$work/src"
src=$work/src
mapfile -t patches < <(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$top/kernel-patches/6.1/series")
failed=0

# configure DIR [scripts/config args...]: the guest config, then the edits
configure() {
	local o=$1
	shift
	mkdir -p "$o"
	make -s -C "$src" O="$o" tinyconfig >/dev/null 2>&1 &&
	(cd "$o" && "$src/scripts/kconfig/merge_config.sh" -m -O "$o" \
		"$o/.config" "$top/qemu/kernel.config" >/dev/null 2>&1) &&
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
		< "$top/kernel-patches/6.1/${patches[$applied]}" || return 1
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
	for v in "CMA:-d CMA" "MEMORY_HOTPLUG:-d MEMORY_HOTPLUG" \
		 "DEBUG_FS:-d DEBUG_FS" "FTRACE:-d FTRACE -d TRACING" \
		 "NUMA:-d NUMA" "COMPACTION:-d COMPACTION -d TRANSPARENT_HUGEPAGE" \
		 "SLUB:-d SLUB -e SLOB"; do
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
