#!/bin/bash
# cold .ci/run on this fresh machine, timed, with a load sampler
cd /work/coldclone
{ echo "start $(date -u +%FT%TZ) head $(git rev-parse --short HEAD)"; lscpu | grep -E "Model name|^CPU\(s\)"; free -g | head -2; echo "cache: $(ls /var/cache/fragview 2>&1)"; echo "ccache/linux-source/qemu installed: $(dpkg -l ccache linux-source-6.1 qemu-system-x86 2>&1 | grep -c ^ii)"; } > /work/coldlog/env.txt
( while sleep 60; do echo "$(date -u +%T) $(cat /proc/loadavg)"; done ) > /work/coldlog/load.txt &
sampler=$!
start=$(date +%s)
set +e
TIMEFORMAT='real %R user %U sys %S'
{ time bash .ci/run > /work/coldlog/ci.log 2>&1; echo "rc=$?" ; } 2> /work/coldlog/time.txt
echo "seconds=$(( $(date +%s) - start ))" >> /work/coldlog/time.txt
kill $sampler
