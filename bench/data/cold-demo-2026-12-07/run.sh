#!/bin/bash
# a cold `make demo` (tools/cold-ci.sh --demo: a debootstrap'ed bookworm
# minbase chroot, empty kernel cache and ccache), with the machine and the
# load average each minute
out=/work/colddemo
{ echo "start $(date -u +%FT%TZ) head $(git -C /work/main rev-parse --short HEAD)"
  lscpu | grep -E "Model name|^CPU\(s\)"; free -g | head -2
  echo "loadavg at start: $(cat /proc/loadavg)"
  echo "chroot: fresh debootstrap, empty /var/cache/fragview and ccache inside it"; } > $out/env.txt
( while sleep 30; do echo "$(date -u +%T) $(cat /proc/loadavg)"; done ) > $out/load.txt &
s=$!
/work/main/tools/cold-ci.sh --demo /var/tmp/colddemo > $out/cold-ci.out 2>&1
echo "rc=$?" >> $out/cold-ci.out
kill $s
