#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build the fragview guest kernel and print the path of its bzImage on stdout.
#
#   qemu/build-kernel.sh [--unpatched] [--extra-config FRAGMENT]...
#
# The kernel is Debian's linux-source-6.1 plus kernel-patches/6.1/series,
# configured as tinyconfig + qemu/kernel.config (+ extra fragments).  Builds
# are cached in $FRAGVIEW_CACHE/kernel-<key>/, where <key> hashes everything
# that can change the result, so a second call with the same inputs only
# prints the cached path.  Progress and build logs go to stderr.
# The FRAGVIEW_KEEP_BUILDS (default 8) most recently used builds are kept:
# make check, bench and check-debug use up to seven kernels (patched and
# unpatched, with checkers, jump labels or KASAN), and a build that
# removes one another run is booting breaks that run.
set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CACHE=${FRAGVIEW_CACHE:-/var/cache/fragview}
SRC_TARBALL=/usr/src/linux-source-6.1.tar.xz
PRISTINE=$CACHE/linux-source-6.1
SERIES=$REPO/kernel-patches/6.1/series
FRAGMENT=$REPO/qemu/kernel.config
KEEP_BUILDS=${FRAGVIEW_KEEP_BUILDS:-8}

say() { echo "==> $*" >&2; }
die() { echo "build-kernel: error: $*" >&2; exit 1; }
[[ $KEEP_BUILDS =~ ^[1-9][0-9]*$ ]] ||
	die "FRAGVIEW_KEEP_BUILDS must be a positive number, not '$KEEP_BUILDS'"

usage() {
	echo "usage: $0 [--unpatched] [--extra-config FRAGMENT]..." >&2
	exit 2
}

unpatched=0
fragments=("$FRAGMENT")
while [ $# -gt 0 ]; do
	case $1 in
	--unpatched) unpatched=1 ;;
	--extra-config)
		[ $# -ge 2 ] || usage
		[ -r "$2" ] || die "config fragment '$2' is not readable"
		fragments+=("$(realpath "$2")")
		shift ;;
	-h|--help) usage ;;
	*) echo "build-kernel: error: unknown option '$1'" >&2; usage ;;
	esac
	shift
done
[ -r "$FRAGMENT" ] || die "missing $FRAGMENT"

# The patches to apply, in order: "name [-pN]" lines, '#' comments.
patches=()
if [ "$unpatched" = 0 ] && [ -s "$SERIES" ]; then
	while read -r name _; do
		case $name in ''|'#'*) continue ;; esac
		[ -r "$REPO/kernel-patches/6.1/$name" ] ||
			die "kernel-patches/6.1/series lists '$name', which does not exist"
		patches+=("$name")
	done < "$SERIES"
fi
flavour=$([ ${#patches[@]} -gt 0 ] && echo patched || echo unpatched)

# Cache key: anything that can change the bzImage.
key=$({
	echo "flavour $flavour"
	dpkg-query -W -f='${Package} ${Version}\n' linux-source-6.1 2>/dev/null ||
		echo "no-dpkg"
	for p in "${patches[@]}"; do
		echo "patch $p"
		sha256sum < "$REPO/kernel-patches/6.1/$p"
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
	say "kernel cached ($flavour, key $key)"
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
	mv "$CACHE/.extract/linux-source-6.1" "$PRISTINE"
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
say "linking source tree ($flavour, key $key)"
cp -al "$PRISTINE" "$SRC"

for p in "${patches[@]}"; do
	say "applying $p"
	# Break the hard links of every file the patch touches first, so
	# neither patch nor anything after it can write into the pristine tree.
	grep -E '^(\+\+\+|---) ' "$REPO/kernel-patches/6.1/$p" |
		awk '{print $2}' | sed -E 's|^[ab]/||' | sort -u |
		while read -r f; do
			[ "$SRC/$f" -ef "$PRISTINE/$f" ] || continue
			cp --remove-destination "$PRISTINE/$f" "$SRC/$f"
		done
	if ! out=$(patch -d "$SRC" -p1 --forward --batch \
			--no-backup-if-mismatch < "$REPO/kernel-patches/6.1/$p" 2>&1); then
		echo "$out" >&2
		die "kernel-patches/6.1/$p does not apply to linux-source-6.1"
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
# kconfig silently drops options whose dependencies are not met.
missing=$(cat "${fragments[@]}" | sed -nE \
	-e 's/^(CONFIG_[A-Za-z0-9_]+)=(.*)$/\1=\2/p' \
	-e 's/^# (CONFIG_[A-Za-z0-9_]+) is not set$/\1=n/p' |
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
