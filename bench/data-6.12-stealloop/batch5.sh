#!/bin/bash
# bench-overhead-fvc2 (counters of the timed loop alone): 5 x (U+fvc, P12+fvc)
KUF=/var/cache/fragview/kernel-26fd074a090893c2/bzImage
KPF=/var/cache/fragview/kernel-de2befde5f4c5c72/bzImage
export INITRD=/work/scratch-steal/initrd-probe2.cpio.gz SCEN=bench-overhead-fvc2
while pgrep -f batch4.sh > /dev/null; do sleep 5; done
for b in 1 2 3 4 5; do
	./probe.sh bof2-u-$b $KUF
	./probe.sh bof2-p12-$b $KPF
done
