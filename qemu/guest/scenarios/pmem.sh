#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# pmem: ZONE_DEVICE memory enters and leaves the pageblock map.  memmap=
# marks 128 MiB of RAM persistent (e820 type 12): a legacy pmem namespace.
# Bound as a pfn device (what `ndctl create-namespace -m fsdax -M dev`
# sets up: a uuid, the namespace, mode "pmem") whose memmap lives in the
# device itself (an altmap), the range is ZONE_DEVICE memory; the memmap of the
# reserve at its start (info block and memmap) is never initialised, so
# only the blocks of the data area come online.  Unbinding the device
# takes the range out of the zone.  Two cycles of bind and unbind.
# Writes $OUT/pmem-ranges: "NAMESPACE_START NAMESPACE_END DATA_START
# DATA_END" (pfns, hex) per cycle.
# fv-append: memmap=128M!768M
. /lib/fragview.sh

nd=/sys/bus/nd
drv=$nd/drivers/nd_pmem
ns=$(cd $nd/devices 2>/dev/null && ls -d namespace*.* 2>/dev/null | head -n 1)
if [ -z "$ns" ] || [ ! -d $drv ]; then
	fv_fail "no legacy pmem namespace (memmap=SIZE!START, X86_PMEM_LEGACY)"
	exit 1
fi
region=$(basename "$(readlink -f $nd/devices/$ns/..)")
pfn_of_hex() { printf '0x%x' $(($1 >> 12)); }
: > "$OUT/pmem-ranges"

# cycle N: bind the pfn device (the first bind writes its info block,
# the second finds it), note its ranges, use it, unbind it
cycle() {
	echo "$pfn" > $drv/bind || { fv_fail "$pfn: bind"; return 1; }
	ns_start=$(cat $nd/devices/$ns/resource)
	ns_size=$(cat $nd/devices/$ns/size)
	data=$(cat $nd/devices/$pfn/resource)
	size=$(cat $nd/devices/$pfn/size)
	echo "fragview: cycle $1: $pfn on $ns [$ns_start +$ns_size], data [$data +$size]"
	echo "$(pfn_of_hex $ns_start) $(pfn_of_hex $((ns_start + ns_size))) $(pfn_of_hex $data) $(pfn_of_hex $((data + size)))" \
		>> "$OUT/pmem-ranges"
	# the block device at work on the device's pages: write, read back
	dd if=/dev/urandom of=/tmp/pmem.in bs=64k count=16 2>/dev/null
	{ dd if=/tmp/pmem.in of=/dev/pmem0 bs=64k 2>/dev/null &&
		dd if=/dev/pmem0 of=/tmp/pmem.out bs=64k count=16 2>/dev/null &&
		cmp -s /tmp/pmem.in /tmp/pmem.out; } ||
		fv_fail "$pfn: /dev/pmem0 does not read back what was written"
	echo "$pfn" > $drv/unbind || { fv_fail "$pfn: unbind"; return 1; }
}

# the raw namespace is bound at boot: release it for the pfn device
[ ! -e $drv/$ns ] || echo "$ns" > $drv/unbind || fv_fail "unbind $ns"
pfn=$(cat $nd/devices/$region/pfn_seed)
if [ -z "$pfn" ] || [ ! -d $nd/devices/$pfn ] ||
   ! cat /proc/sys/kernel/random/uuid > $nd/devices/$pfn/uuid ||
   ! echo "$ns" > $nd/devices/$pfn/namespace ||
   ! echo pmem > $nd/devices/$pfn/mode; then
	fv_fail "cannot make ${pfn:-a pfn device} of $ns with mode pmem"
	exit 1
fi
fv_record_start
cycle 1 && cycle 2
fv_record_stop
exit $FV_STATUS
