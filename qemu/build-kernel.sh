#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build the fragview guest kernel and print the path of its bzImage on stdout.
#
#   qemu/build-kernel.sh [--kernel VER] [--unpatched] [--extra-config FRAGMENT]...
#
# The kernel is Debian's linux-source-VER plus kernel-patches/VER/series
# (VER: a directory of kernel-patches/, default $FRAGVIEW_KERNEL, else
# 6.1), configured as tinyconfig + qemu/kernel.config + qemu/kernel-VER.config
# when that exists (+ extra fragments).  Builds are cached in
# $FRAGVIEW_CACHE/kernel-<key>/, where <key> hashes everything that can
# change the result (the base and its Debian version included), so a
# second call with the same inputs only prints the cached path.  Progress
# and build logs go to stderr.
# The FRAGVIEW_KEEP_BUILDS (default 12) most recently used builds are kept:
# make check, bench and check-debug use up to seven kernels of 6.1 (patched
# and unpatched, with checkers, jump labels or KASAN) and make check one of
# 6.12, and a build that removes one another run is booting breaks that run.
set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CACHE=${FRAGVIEW_CACHE:-/var/cache/fragview}
FRAGMENT=$REPO/qemu/kernel.config
KEEP_BUILDS=${FRAGVIEW_KEEP_BUILDS:-12}
# shellcheck source=qemu/kernel-base.sh
. "$REPO/qemu/kernel-base.sh"

say() { echo "==> $*" >&2; }
die() { echo "build-kernel: error: $*" >&2; exit 1; }
[[ $KEEP_BUILDS =~ ^[1-9][0-9]*$ ]] ||
	die "FRAGVIEW_KEEP_BUILDS must be a positive number, not '$KEEP_BUILDS'"

usage() {
	echo "usage: $0 [--kernel VER] [--unpatched] [--extra-config FRAGMENT]..." >&2
	exit 2
}

base=${FRAGVIEW_KERNEL:-$fv_default_base}
unpatched=0
extra=()
while [ $# -gt 0 ]; do
	case $1 in
	--kernel)
		[ $# -ge 2 ] || usage
		base=$2
		shift ;;
	--unpatched) unpatched=1 ;;
	--extra-config)
		[ $# -ge 2 ] || usage
		[ -r "$2" ] || die "config fragment '$2' is not readable"
		extra+=("$(realpath "$2")")
		shift ;;
	-h|--help) usage ;;
	*) echo "build-kernel: error: unknown option '$1'" >&2; usage ;;
	esac
	shift
done
[ -r "$FRAGMENT" ] || die "missing $FRAGMENT"
err=$(fv_base_check "$base") || die "$err"
SRC_TARBALL=/usr/src/linux-source-$base.tar.xz
PRISTINE=$CACHE/linux-source-$base
PATCHES=kernel-patches/$base
SERIES=$REPO/$PATCHES/series
fragments=("$FRAGMENT")
[ ! -r "$REPO/qemu/kernel-$base.config" ] ||
	fragments+=("$REPO/qemu/kernel-$base.config")
fragments+=("${extra[@]}")

# The patches to apply, in order: "name [-pN]" lines, '#' comments.
patches=()
if [ "$unpatched" = 0 ]; then
	[ -f "$SERIES" ] || die "no $PATCHES/series (--unpatched builds without it)"
	while read -r name _; do
		case $name in ''|'#'*) continue ;; esac
		[ -r "$REPO/$PATCHES/$name" ] ||
			die "$PATCHES/series lists '$name', which does not exist"
		patches+=("$name")
	done < "$SERIES"
fi
flavour=$([ ${#patches[@]} -gt 0 ] && echo patched || echo unpatched)

# Cache key: anything that can change the bzImage.
key=$({
	echo "flavour $flavour"
	echo "base $base"
	dpkg-query -W -f='${Package} ${Version}\n' "linux-source-$base" 2>/dev/null ||
		echo "no-dpkg"
	for p in "${patches[@]}"; do
		echo "patch $p"
		sha256sum < "$REPO/$PATCHES/$p"
	done
	for f in "${fragments[@]}"; do
		echo "fragment"
		sha256sum < "$f"
	done
	sha256sum < "${BASH_SOURCE[0]}"
} | sha256sum | cut -c1-16)
OUTDIR=$CACHE/kernel-$key
BZIMAGE=$OUTDIR/bzImage

if [ -s "$BZIMAGE" ]; then
	touch "$OUTDIR"
	say "kernel cached ($base $flavour, key $key)"
	echo "$BZIMAGE"
	exit 0
fi

mkdir -p "$CACHE"
exec 9> "$CACHE/.build-kernel.lock"
if ! flock -n 9; then
	say "waiting for another build-kernel.sh to finish"
	flock 9
fi
if [ -s "$BZIMAGE" ]; then	# built while we waited
	echo "$BZIMAGE"
	exit 0
fi

# --- pristine source, extracted once and never written to again
if [ ! -f "$PRISTINE/Makefile" ] || [ ! -f "$PRISTINE/mm/page_alloc.c" ]; then
	[ -r "$SRC_TARBALL" ] ||
		die "$SRC_TARBALL missing (run qemu/deps.sh)"
	say "extracting $SRC_TARBALL (once, ~1 min)"
	rm -rf "$CACHE/.extract"
	mkdir -p "$CACHE/.extract"
	tar -xJf "$SRC_TARBALL" -C "$CACHE/.extract"
	rm -rf "$PRISTINE"
	mv "$CACHE/.extract/linux-source-$base" "$PRISTINE"
	rmdir "$CACHE/.extract"
fi

# --- per-key source: a hardlink farm of the pristine tree, patched
rm -rf "$OUTDIR"
mkdir -p "$OUTDIR"
SRC=$OUTDIR/src
# Out-of-tree build in a child of the source tree: kbuild then uses
# srctree "..", so no absolute path reaches the compiler and ccache hits
# survive a different $OUTDIR.
OBJ=$SRC/build
LOG=$OUTDIR/build.log
say "linking source tree ($base $flavour, key $key)"
cp -al "$PRISTINE" "$SRC"

for p in "${patches[@]}"; do
	say "applying $p"
	# Break the hard links of every file the patch touches first, so
	# neither patch nor anything after it can write into the pristine tree.
	grep -E '^(\+\+\+|---) ' "$REPO/$PATCHES/$p" |
		awk '{print $2}' | sed -E 's|^[ab]/||' | sort -u |
		while read -r f; do
			[ "$SRC/$f" -ef "$PRISTINE/$f" ] || continue
			cp --remove-destination "$PRISTINE/$f" "$SRC/$f"
		done
	if ! out=$(patch -d "$SRC" -p1 --forward --batch \
			--no-backup-if-mismatch < "$REPO/$PATCHES/$p" 2>&1); then
		echo "$out" >&2
		die "$PATCHES/$p does not apply to linux-source-$base"
	fi
done

# --- configuration
export KBUILD_BUILD_TIMESTAMP="Thu Jan  1 00:00:00 UTC 2026"
export KBUILD_BUILD_USER=fragview KBUILD_BUILD_HOST=fragview
export CCACHE_DIR=$CACHE/ccache CCACHE_BASEDIR=$CACHE CCACHE_NOHASHDIR=1
mkdir -p "$CCACHE_DIR"
ccache -M 4G >/dev/null 2>&1 || true
jobs=${FRAGVIEW_JOBS:-$(nproc)}
kmake() { make -C "$SRC" O="$OBJ" CC="ccache gcc" "$@"; }

say "configuring: tinyconfig + ${fragments[*]##*/}"
{
	kmake tinyconfig
	(cd "$OBJ" && "$SRC/scripts/kconfig/merge_config.sh" -m -O "$OBJ" \
		"$OBJ/.config" "${fragments[@]}")
	kmake olddefconfig
} > "$LOG" 2>&1 || { tail -n 30 "$LOG" >&2; die "configuration failed (see $LOG)"; }

# Every option the fragments ask for must have survived olddefconfig:
# kconfig silently drops options whose dependencies are not met.  A later
# fragment overrides an earlier one, as in merge_config.sh.
missing=$(cat "${fragments[@]}" | sed -nE \
	-e 's/^(CONFIG_[A-Za-z0-9_]+)=(.*)$/\1=\2/p' \
	-e 's/^# (CONFIG_[A-Za-z0-9_]+) is not set$/\1=n/p' |
	awk -F= '!($1 in want) { order[n++] = $1 } { want[$1] = $0 }
		END { for (i = 0; i < n; i++) print want[order[i]] }' |
	while IFS== read -r opt want; do
		got=$(sed -nE "s/^$opt=(.*)$/\1/p" "$OBJ/.config")
		[ -n "$got" ] || got=n
		[ "$got" = "$want" ] || echo "  $opt: asked $want, got $got"
	done)
if [ -n "$missing" ]; then
	echo "$missing" >&2
	die "config options not set as asked (unmet dependencies?)"
fi

# --- build
start=$(date +%s)
say "building bzImage with -j$jobs (cold ~10 min, ccache-warm ~1-2 min); log: $LOG"
if ! kmake -j"$jobs" bzImage >> "$LOG" 2>&1; then
	grep -E 'error|Error' "$LOG" | head -n 20 >&2 || true
	tail -n 15 "$LOG" >&2
	die "kernel build failed (see $LOG)"
fi
cp "$OBJ/arch/x86/boot/bzImage" "$BZIMAGE.tmp"
cp "$OBJ/.config" "$OUTDIR/config"
mv "$BZIMAGE.tmp" "$BZIMAGE"
say "built in $(( $(date +%s) - start )) s: $BZIMAGE"

# --- keep only the most recently used builds
ls -1dt "$CACHE"/kernel-*/ 2>/dev/null | tail -n +$((KEEP_BUILDS + 1)) |
	while read -r old; do
		say "removing old build ${old%/}"
		rm -rf "${old%/}"
	done

echo "$BZIMAGE"
