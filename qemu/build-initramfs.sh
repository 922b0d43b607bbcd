#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build the fragview guest initramfs and print the path of the gzip cpio on
# stdout.  Contents: busybox (static, all applets), trace-cmd with its
# shared libraries and loader, the static guest programs, /init, the
# scenarios and the repo's tests/guest/ as /tests.  The archive is cached
# under a hash of all of its inputs and is byte-for-byte reproducible
# (fixed mtimes, sorted names, root ownership, gzip -n).
set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CACHE=${FRAGVIEW_CACHE:-/var/cache/fragview}
GUEST=$REPO/qemu/guest
TESTS=$REPO/tests/guest
TRACE_CMD=$(command -v trace-cmd || true)
BUSYBOX=/bin/busybox
KEEP=6

say() { echo "==> $*" >&2; }
die() { echo "build-initramfs: error: $*" >&2; exit 1; }

[ $# -eq 0 ] || { echo "usage: $0" >&2; exit 2; }
[ -n "$TRACE_CMD" ] || die "trace-cmd not installed (run qemu/deps.sh)"
[ -x "$BUSYBOX" ] && ! ldd "$BUSYBOX" >/dev/null 2>&1 ||
	die "$BUSYBOX is not a static busybox (install busybox-static)"

# trace-cmd's libraries and loader, as ldd resolves them
libs=$(ldd "$TRACE_CMD" | awk '$2 == "=>" && $3 ~ /^\// { print $3 }
			       $1 ~ /^\// { print $1 }' | sort -u)
plugins=$(ls /usr/lib/x86_64-linux-gnu/traceevent/plugins/*.so 2>/dev/null || true)

key=$({
	sha256sum "${BASH_SOURCE[0]}"
	find "$GUEST" -type f | sort | xargs sha256sum
	[ -d "$TESTS" ] && find "$TESTS" -type f | sort | xargs -r sha256sum
	dpkg-query -W busybox-static trace-cmd libc6 libtraceevent1 \
		libtracefs1 libzstd1 2>/dev/null
	gcc --version | head -n 1
	# FRAGVIEW_SELFTESTS=DIR (qemu/build-selftests.sh): DIR/bin/* as /selftests
	[ -z "${FRAGVIEW_SELFTESTS:-}" ] || (cd "$FRAGVIEW_SELFTESTS" && sha256sum bin/* source)
} | sed "s|$REPO/||" | sha256sum | cut -c1-16)
OUT=$CACHE/initramfs-$key.cpio.gz

if [ -s "$OUT" ]; then
	touch "$OUT"
	say "initramfs cached (key $key)"
	echo "$OUT"
	exit 0
fi

mkdir -p "$CACHE"
STAGE=$(mktemp -d "$CACHE/.initramfs-stage.XXXXXX")
trap 'rm -rf "$STAGE"' EXIT
R=$STAGE/root
mkdir -p "$R"/{bin,sbin,usr/bin,usr/sbin,lib,lib64,proc,sys,dev,tmp,out,root,etc,scenarios,tests}
mkdir -p "$R"/sys/kernel "$R"/usr/share/fragview

say "compiling guest programs (static)"
for src in "$GUEST"/progs/*.c; do
	prog=$(basename "$src" .c)
	gcc -static -O2 -Wall -Wextra -Werror -o "$R/bin/$prog" "$src" ||
		die "compiling $src failed"
done

say "adding busybox, trace-cmd and its libraries"
cp "$BUSYBOX" "$R/bin/busybox"
"$BUSYBOX" --list-full | while read -r applet; do
	[ -e "$R/$applet" ] || ln -s /bin/busybox "$R/$applet"
done
cp "$TRACE_CMD" "$R/usr/bin/trace-cmd"
for lib in $libs $plugins; do
	mkdir -p "$R$(dirname "$lib")"
	cp -L "$lib" "$R$lib"
done

cp "$GUEST/init" "$R/init"
cp "$GUEST/lib.sh" "$R/lib/fragview.sh"
cp "$GUEST"/scenarios/*.sh "$R/scenarios/"
if [ -d "$TESTS" ]; then
	cp -r "$TESTS"/. "$R/tests/"
fi
if [ -n "${FRAGVIEW_SELFTESTS:-}" ]; then
	mkdir -p "$R/selftests"
	cp "$FRAGVIEW_SELFTESTS"/bin/* "$FRAGVIEW_SELFTESTS/source" "$R/selftests/"
fi
chmod 755 "$R/init" "$R"/scenarios/*.sh
echo "root:x:0:0:root:/root:/bin/sh" > "$R/etc/passwd"
echo "root:x:0:" > "$R/etc/group"
# The kernel opens /dev/console before devtmpfs is mounted.
mknod -m 600 "$R/dev/console" c 5 1

say "packing cpio"
find "$R" -exec touch -h -d @0 {} +
(cd "$R" && find . -mindepth 1 | LC_ALL=C sort |
	cpio --quiet -o -H newc -R 0:0 --reproducible) |
	gzip -n -6 > "$STAGE/initramfs.cpio.gz"
mv "$STAGE/initramfs.cpio.gz" "$OUT"
say "initramfs $(( $(stat -c %s "$OUT") / 1024 )) KiB: $OUT"

ls -1t "$CACHE"/initramfs-*.cpio.gz | tail -n +$((KEEP + 1)) | xargs -r rm -f
echo "$OUT"
