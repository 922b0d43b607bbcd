#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# migrate: move a buffer's pages from node 0 to node 1 with move_pages(2),
# back with migrate_pages(2), and to node 1 again with mbind(2)
# (MPOL_MF_MOVE), then back by a cpuset whose cpuset.mems changes (cgroup
# v2, where memory_migrate is always on), when the kernel has the cpuset
# controller (the test kernels: qemu/selftests.config); with
# FV_NEED_CPUSET=1 its absence is a failure.
. /lib/fragview.sh
cgroup=/sys/fs/cgroup
cpuset=
if grep -qw cpuset /proc/cgroups 2>/dev/null; then
	mountpoint -q $cgroup || mount -t cgroup2 none $cgroup
	echo +cpuset > $cgroup/cgroup.subtree_control &&
		mkdir -p $cgroup/fv-migrate && cpuset=-c$cgroup/fv-migrate
	[ -n "$cpuset" ] || fv_fail "no cgroup v2 cpuset under $cgroup"
elif [ "${FV_NEED_CPUSET:-0}" = 1 ]; then
	fv_fail "the kernel has no cpuset controller (CONFIG_CPUSETS)"
fi
steps=3
[ -z "$cpuset" ] || steps=4
nodes=$(ls -d /sys/devices/system/node/node[0-9]* | wc -l)
echo "fragview: $nodes NUMA nodes"
[ "$nodes" -ge 2 ] || { fv_fail "migrate needs two NUMA nodes"; exit 1; }
fv_record_start
movepages -b $cpuset -n 256 > "$OUT/movepages.out" 2>&1 || fv_fail "movepages exited with $?"
fv_record_stop
grep -vE '^page ' "$OUT/movepages.out"
# every page must have reached its node in every step
awk -v steps=$steps '/^summary/ { n++; if ($4 != $6) bad = 1 }
	END { exit bad || n != steps }' \
	"$OUT/movepages.out" || fv_fail "pages did not all reach their node"
exit $FV_STATUS
