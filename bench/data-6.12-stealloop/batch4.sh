#!/bin/bash
# layout controls: the unpatched kernel with an unreferenced 64 KiB / 1 MiB
# array in init/version.c, and the 11-patch kernel of the 06:42 bench run,
# each 6 boots of bench-overhead, interleaved
KPAD64=/var/cache/fragview/kernel-511de0253194ada2/bzImage
KPAD1M=/var/cache/fragview/kernel-8df4a9e880869b6a/bzImage
KP11=/var/cache/fragview/kernel-baa2a62d6096551f/bzImage
export INITRD=/var/cache/fragview/initramfs-e29c8fc71c03b385.cpio.gz SCEN=bench-overhead
for b in 1 2 3 4 5 6; do
	./probe.sh bo-upad64k-$b $KPAD64
	./probe.sh bo-upad1m-$b $KPAD1M
	./probe.sh bo-p11-$b $KP11
done
