#!/bin/bash
# the bench's own icount boots of bench-overhead, repeated: 6 x (U, P12)
KU=/var/cache/fragview/kernel-0570e6b4e8a28baf/bzImage
KP12=/var/cache/fragview/kernel-c9438967cc2bdff4/bzImage
export INITRD=/var/cache/fragview/initramfs-e29c8fc71c03b385.cpio.gz SCEN=bench-overhead
for b in 1 2 3 4 5 6; do
	./probe.sh bo-u-$b $KU
	./probe.sh bo-p12-$b $KP12
done
