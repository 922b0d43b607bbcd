#!/bin/bash
# bench-overhead with the fvclaim counters: 5 x (U+fvc, P12+fvc)
KUF=/var/cache/fragview/kernel-26fd074a090893c2/bzImage
KPF=/var/cache/fragview/kernel-de2befde5f4c5c72/bzImage
export INITRD=/work/scratch-steal/initrd-probe.cpio.gz SCEN=bench-overhead-fvc
while pgrep -f batch2.sh > /dev/null; do sleep 5; done
for b in 1 2 3 4 5; do
	./probe.sh bof-u-$b $KUF
	./probe.sh bof-p12-$b $KPF
done
