#!/bin/bash
# probe.sh NAME BZIMAGE [APPEND...]: one icount boot of the stealprobe
# scenario, as bench/run.sh's icount_guest boots bench-overhead
set -euo pipefail
name=$1 kernel=$2; shift 2
extra="$*"
D=/work/main/bench/data-6.12-stealloop
INITRD=${INITRD:-/work/scratch-steal/initrd-probe.cpio.gz}
SCEN=${SCEN:-stealprobe}
dir=$D/$name
mkdir -p "$dir"
mib=1024
cmdline="console=ttyS0 panic=-1 loglevel=4 fv.mode=scenario fv.scenario=$SCEN fv.bench.reps=5${extra:+ $extra}"
q=(qemu-system-x86_64 -accel tcg -cpu max -icount shift=0,sleep=off
	-smp 1 -m "${mib}M"
	-object "memory-backend-ram,id=mem0,size=$((mib / 2))M"
	-object "memory-backend-ram,id=mem1,size=$((mib / 2))M"
	-numa node,nodeid=0,memdev=mem0,cpus=0
	-numa node,nodeid=1,memdev=mem1
	-kernel "$kernel" -initrd "$INITRD"
	-append "$cmdline" -nographic -no-reboot
	-serial "file:/work/scratch-steal/console-$name.log" -monitor none)
echo "${q[*]}" > "$dir/command"
s=$(date +%s)
timeout 1500 "${q[@]}" < /dev/null > "/work/scratch-steal/qemu-$name.log" 2>&1 || echo "qemu rc $?"
tr -d '\r' < "/work/scratch-steal/console-$name.log" > "$dir/log"
echo "$name: $(( $(date +%s) - s )) s, load $(cut -d' ' -f1 /proc/loadavg)" | tee -a "$dir/command"
grep -q '^bench: done' "$dir/log" || echo "$name: DID NOT FINISH"
