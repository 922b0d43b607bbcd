#!/bin/bash
# the initramfs of the 06:42 bench run (c74107996afa1c00) with its two
# kernels (U, and the 11-patch P11 it measured): 3 x (U, P11)
KU=/var/cache/fragview/kernel-0570e6b4e8a28baf/bzImage
KP11=/var/cache/fragview/kernel-baa2a62d6096551f/bzImage
export INITRD=/var/cache/fragview/initramfs-c74107996afa1c00.cpio.gz SCEN=bench-overhead
while pgrep -f batch5.sh > /dev/null; do sleep 5; done
for b in 1 2 3; do
	./probe.sh boi0642-u-$b $KU
	./probe.sh boi0642-p11-$b $KP11
done
