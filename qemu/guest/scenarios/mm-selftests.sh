#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# mm-selftests: the kernel's own mm selftests (tools/testing/selftests/vm/
# of linux-source-6.1, static, in /selftests: qemu/build-selftests.sh,
# FRAGVIEW_SELFTESTS=DIR qemu/build-initramfs.sh), invoked as
# run_vmtests.sh of 6.1 invokes them, each in its own directory
# $OUT/<id>/ with its output in out and "ID EXIT SECONDS" in $OUT/results.
# With fv.selftests.trace=1 on the command line each test runs under
# trace-cmd record -e mobility, with a pageblock snapshot at start and end
# (fv_record_start/stop): $OUT/<id>/trace.dat, end.pageblocks.  The host
# (tests/host/selftests_compare.py) turns exit codes and the tests' own
# TAP/OK lines into results; this script fails only when it cannot run
# them (no binaries, trace-cmd failing), not when a selftest fails.
. /lib/fragview.sh
ROOT=$OUT
BIN=/selftests

# fv.selftests.only=ID,ID runs only those tests; fv.selftests.repeat=N
# runs them N times, into $OUT/rep1/ ... $OUT/repN/ (the host re-runs a
# test whose result differs between kernels before it counts as one)
trace=0 only= repeat=0
for arg in $(cat /proc/cmdline); do
	case $arg in
	fv.selftests.trace=1) trace=1 ;;
	fv.selftests.only=*) only=",${arg#*=}," ;;
	fv.selftests.repeat=*) repeat=${arg#*=} ;;
	esac
done
# only the mobility events: the selftests migrate and compact for
# minutes, and the stock per-page events would multiply the capture
fv_events() { echo "-e mobility"; }

[ -x "$BIN/compaction_test" ] ||
	{ fv_fail "no selftests in $BIN (initramfs without FRAGVIEW_SELFTESTS)"; exit 1; }
echo "fragview: mm selftests, $(nproc) cpus," \
	"$(awk '/MemTotal/ { print int($2 / 1024) }' /proc/meminfo) MiB," \
	"tracing $([ $trace = 1 ] && echo on || echo off)"
cat /selftests/source 2>/dev/null
: > "$ROOT/results"
ulimit -l unlimited 2>/dev/null
# the tests open relative paths (hugepage-mmap: huge/hugepagefile)
WORK=/tmp/selftests
mkdir -p "$WORK"
cd "$WORK" || exit 1

# st ID SECONDS CMD...: run one selftest, bounded, in $ROOT/ID/
st() {
	id=$1 limit=$2
	shift 2
	case $only in ''|*",$id,"*) ;; *) return ;; esac
	OUT=$ROOT/$id
	mkdir -p "$OUT"
	if [ $trace = 1 ]; then
		fv_record_start || { echo "$id recorder-failed 0" >> "$ROOT/results"; OUT=$ROOT; return; }
	fi
	t0=$(cut -d' ' -f1 /proc/uptime)
	timeout "$limit" "$@" > "$OUT/out" 2>&1 < /dev/null
	st_rc=$?	# (not $rc: fv_record_stop sets that)
	t1=$(cut -d' ' -f1 /proc/uptime)
	[ $trace = 1 ] && fv_record_stop
	secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')
	echo "$id $st_rc $secs" >> "$ROOT/results"
	echo "== $id: exit $st_rc, $secs s: $*"
	tail -n 3 "$OUT/out" | sed 's/^/   /'
	OUT=$ROOT
}

all_tests() {
	# hugetlb tests, as run_vmtests.sh: 256 MiB of huge pages (and 2 * nr_cpus
	# for userfaultfd hugetlb), hugetlbfs on ./huge
	hpg_kb=$(awk '/Hugepagesize/ { print $2 }' /proc/meminfo)
	half_ufd_mb=$(( ( ($(nproc) * hpg_kb / 1024 + 127) / 128) * 128 ))
	need=$(( half_ufd_mb * 2 * 1024 / hpg_kb ))
	echo 3 > /proc/sys/vm/drop_caches
	echo "$need" > /proc/sys/vm/nr_hugepages
	echo "fragview: nr_hugepages $(cat /proc/sys/vm/nr_hugepages) (asked $need)"
	mkdir -p huge
	mount -t hugetlbfs none huge || fv_fail "mounting hugetlbfs failed"
	st hugepage-mmap 300 $BIN/hugepage-mmap
	shmmax=$(cat /proc/sys/kernel/shmmax)
	shmall=$(cat /proc/sys/kernel/shmall)
	echo 268435456 > /proc/sys/kernel/shmmax
	echo 4194304 > /proc/sys/kernel/shmall
	st hugepage-shm 300 $BIN/hugepage-shm
	echo "$shmmax" > /proc/sys/kernel/shmmax
	echo "$shmall" > /proc/sys/kernel/shmall
	st map_hugetlb 300 $BIN/map_hugetlb
	st hugepage-mremap 300 $BIN/hugepage-mremap huge/huge_mremap
	rm -f huge/huge_mremap
	st hugetlb-madvise 300 $BIN/hugetlb-madvise huge/madvise-test
	rm -f huge/madvise-test
	st map_fixed_noreplace 300 $BIN/map_fixed_noreplace
	# userfaultfd: 16 bounces go through every combination of the 4 bounce
	# modes (random, racing faults, verify, poll: userfaultfd.c).  hugetlb with
	# run_vmtests.sh's 128 MiB x 32 bounces took 207 s under TCG: 32 MiB (16
	# huge pages, 4 per cpu) x 16 here
	st userfaultfd-anon 600 $BIN/userfaultfd anon 20 16
	st userfaultfd-hugetlb 600 $BIN/userfaultfd hugetlb 32 16
	st userfaultfd-hugetlb_shared 600 $BIN/userfaultfd hugetlb_shared 32 16 huge/uffd-test
	rm -f huge/uffd-test
	# shmem took 75-110 s with 20 MiB: 10 MiB goes through the same 16
	# bounces (every combination of the bounce modes)
	st userfaultfd-shmem 600 $BIN/userfaultfd shmem 10 16
	umount huge
	echo 0 > /proc/sys/vm/nr_hugepages

	st compaction_test 600 $BIN/compaction_test
	st mremap_test 600 $BIN/mremap_test
	st mremap_dontunmap 300 $BIN/mremap_dontunmap
	st thuge-gen 300 $BIN/thuge-gen
	st madv_populate 300 $BIN/madv_populate
	st ksm_tests-M 300 $BIN/ksm_tests -M -p 10
	st ksm_tests-U 300 $BIN/ksm_tests -U
	st ksm_tests-Z0 300 $BIN/ksm_tests -Z -p 10 -z 0
	st ksm_tests-Z1 300 $BIN/ksm_tests -Z -p 10 -z 1
	st ksm_tests-N1 300 $BIN/ksm_tests -N -m 1
	st ksm_tests-N0 300 $BIN/ksm_tests -N -m 0
	st soft-dirty 300 $BIN/soft-dirty
	st split_huge_page_test 300 $BIN/split_huge_page_test
	st khugepaged-anon 600 $BIN/khugepaged all:anon
	st khugepaged-shmem 600 $BIN/khugepaged all:shmem
	# the three tests run 20 s each (RUNTIME in migration.c, shortened from
	# 60 by qemu/build-selftests.sh)
	st migration 600 $BIN/migration
	# loops until killed: bounded to 30 s here, 256 MiB (exit 143 expected)
	st transhuge-stress 30 $BIN/transhuge-stress 256

}

if [ "$repeat" -gt 0 ] 2>/dev/null; then
	top=$ROOT k=1
	while [ $k -le "$repeat" ]; do
		ROOT=$top/rep$k OUT=$top/rep$k
		mkdir -p "$ROOT"
		: > "$ROOT/results"
		all_tests
		echo "fragview: repetition $k: $(wc -l < "$ROOT/results") selftests run"
		k=$((k + 1))
	done
	ROOT=$top OUT=$top
	exit $FV_STATUS
fi
all_tests
echo "fragview: $(wc -l < "$ROOT/results") selftests run"
exit $FV_STATUS
