#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build the kernel's own mm selftests (tools/testing/selftests/vm/ of
# linux-source-6.1, the tree the guest kernel is built from) as static
# binaries and print the directory that holds them on stdout:
#
#   dir=$(qemu/build-selftests.sh)      $dir/bin/<test>, $dir/build.log
#
# The sources are copied out of the pristine tree ($CACHE/linux-source-6.1,
# never written to) into $CACHE/selftests-<key>/src and compiled there, one
# gcc -static call per test, as tools/testing/selftests/vm/Makefile would
# (same CFLAGS, same extra objects, same libraries) but without its
# dependence on a configured kernel tree.  <key> hashes the source package
# version, the uapi headers' package version, libnuma, gcc and this script,
# so a rerun is a cache hit.  The uapi headers are the system's
# (linux-libc-dev), which must be the same Debian 6.1 version as the
# source; the script says so when they differ.  qemu/build-initramfs.sh
# adds $dir/bin to the initramfs as /selftests.
set -euo pipefail

CACHE=${FRAGVIEW_CACHE:-/var/cache/fragview}
PRISTINE=$CACHE/linux-source-6.1
KEEP=3

# The tests: name, then the extra sources and libraries the Makefile gives
# it.  Chosen from vm/Makefile: what runs in our guest without extra
# hardware, test modules or services (no gup_test/hmm-tests: CONFIG_GUP_TEST
# and TEST_HMM; no protection_keys: no PKU under TCG; no map_populate:
# socketpair(2) would need CONFIG_NET and CONFIG_UNIX).
TESTS=(
	"compaction_test"
	"migration -lnuma"
	"transhuge-stress"
	"khugepaged vm_util.c"
	"hugepage-mmap"
	"hugepage-shm"
	"hugepage-mremap"
	"hugetlb-madvise"
	"map_hugetlb"
	"map_fixed_noreplace"
	"madv_populate vm_util.c"
	"mremap_test"
	"mremap_dontunmap"
	"split_huge_page_test vm_util.c"
	"ksm_tests -lnuma"
	"userfaultfd vm_util.c"
	"soft-dirty vm_util.c"
	"thuge-gen"
)

say() { echo "==> $*" >&2; }
die() { echo "build-selftests: error: $*" >&2; exit 1; }

[ $# -eq 0 ] || { echo "usage: $0" >&2; exit 2; }
VM=tools/testing/selftests/vm
[ -f "$PRISTINE/$VM/Makefile" ] ||
	die "no $PRISTINE/$VM (qemu/build-kernel.sh extracts the source)"

# static libnuma (migration, ksm_tests) comes with libnuma-dev
if [ ! -f /usr/lib/x86_64-linux-gnu/libnuma.a ]; then
	[ "$(id -u)" = 0 ] || die "need libnuma-dev (static libnuma.a)"
	say "installing libnuma-dev (static libnuma for migration, ksm_tests)"
	DEBIAN_FRONTEND=noninteractive apt-get install -y \
		--no-install-recommends libnuma-dev >&2 ||
		die "apt-get install libnuma-dev failed"
fi

src_ver=$(dpkg-query -W -f='${Version}' linux-source-6.1 2>/dev/null || echo none)
hdr_ver=$(dpkg-query -W -f='${Version}' linux-libc-dev 2>/dev/null || echo none)
[ "$src_ver" = "$hdr_ver" ] ||
	say "note: uapi headers are linux-libc-dev $hdr_ver, the source is $src_ver"

key=$({
	echo "linux-source-6.1 $src_ver linux-libc-dev $hdr_ver"
	dpkg-query -W libnuma-dev libc6-dev 2>/dev/null
	gcc --version | head -n 1
	sha256sum < "${BASH_SOURCE[0]}"
} | sha256sum | cut -c1-16)
OUTDIR=$CACHE/selftests-$key

if [ -f "$OUTDIR/done" ]; then
	touch "$OUTDIR"
	say "selftests cached (key $key)"
	echo "$OUTDIR"
	exit 0
fi

mkdir -p "$CACHE"
exec 8> "$CACHE/.build-selftests.lock"
flock 8
if [ -f "$OUTDIR/done" ]; then
	echo "$OUTDIR"
	exit 0
fi

rm -rf "$OUTDIR"
mkdir -p "$OUTDIR/src/tools/testing/selftests" "$OUTDIR/src/include" \
	"$OUTDIR/bin"
say "copying $VM out of $PRISTINE (key $key)"
cp -r "$PRISTINE/$VM" "$OUTDIR/src/$VM"
cp "$PRISTINE"/tools/testing/selftests/kselftest{,_harness}.h \
	"$OUTDIR/src/tools/testing/selftests/"
# ksm_tests includes <include/vdso/time64.h> (-I top_srcdir)
cp -r "$PRISTINE/include/vdso" "$OUTDIR/src/include/"
# migration.c runs each of its three tests for RUNTIME (60) seconds of
# racing migrations against faults: 2 min of a 7-8 min boot under TCG,
# run three times in make check.  20 s still makes thousands of
# migration passes per test; the one change made to a test's source.
sed -i 's/^#define RUNTIME (60)$/#define RUNTIME (20)/' "$OUTDIR/src/$VM/migration.c"
grep -q '^#define RUNTIME (20)$' "$OUTDIR/src/$VM/migration.c" ||
	die "migration.c: no '#define RUNTIME (60)' to shorten"

LOG=$OUTDIR/build.log
: > "$LOG"
say "compiling ${#TESTS[@]} selftests (gcc -static)"
for t in "${TESTS[@]}"; do
	read -r name extra <<<"$t"
	srcs=() libs=()
	for e in $extra; do
		case $e in -l*) libs+=("$e") ;; *) srcs+=("$e") ;; esac
	done
	# vm/Makefile: CFLAGS = -Wall -I $(top_srcdir); LDLIBS = -lrt -lpthread
	cmd=(gcc -static -O2 -Wall -I "$OUTDIR/src" -o "$OUTDIR/bin/$name"
		"$name.c" "${srcs[@]}" "${libs[@]}" -lrt -lpthread)
	echo "+ ${cmd[*]}" >> "$LOG"
	(cd "$OUTDIR/src/$VM" && "${cmd[@]}") >> "$LOG" 2>&1 ||
		{ tail -n 20 "$LOG" >&2; die "compiling $name failed (see $LOG)"; }
done
printf '%s\n' "${TESTS[@]%% *}" > "$OUTDIR/tests"
echo "linux-source-6.1 $src_ver, uapi headers linux-libc-dev $hdr_ver" \
	> "$OUTDIR/source"
touch "$OUTDIR/done"
say "selftests built: $OUTDIR/bin"

ls -1dt "$CACHE"/selftests-*/ 2>/dev/null | tail -n +$((KEEP + 1)) |
	while read -r old; do rm -rf "${old%/}"; done
echo "$OUTDIR"
