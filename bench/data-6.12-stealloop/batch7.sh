#!/bin/bash
# the bench's exact command line (no trailing space after fv.bench.reps=5,
# as bench/run.sh's icount_guest), 06:42 initramfs: 2 x (P11, U)
KU=/var/cache/fragview/kernel-0570e6b4e8a28baf/bzImage
KP11=/var/cache/fragview/kernel-baa2a62d6096551f/bzImage
export INITRD=/var/cache/fragview/initramfs-c74107996afa1c00.cpio.gz SCEN=bench-overhead
for b in 1 2; do
	./probe.sh boexact-p11-$b $KP11
	./probe.sh boexact-u-$b $KU
done
