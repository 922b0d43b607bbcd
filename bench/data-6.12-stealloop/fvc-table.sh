#!/bin/sh
# one row per stealloop run of the bof-* boots: boot mode rep instr/op counters
cd /work/main/bench/data-6.12-stealloop
for d in bof-*; do
	awk -v boot="$d" '$1=="fvcsnap" { k=$3" "$4; for (i=5;i<=NF;i++) { split($i,a,"="); if ($2=="before") b[k,a[1]]=a[2]; else d[k,a[1]]=a[2]-b[k,a[1]] }
		if ($2=="after") { printf "%s\t%s\t%s\t%s", boot, $3, $4, ins; for (i=5;i<=NF;i++) { split($i,a,"="); printf "\t%d", d[k,a[1]] } printf "\n" } }
		$1=="result" && $2=="stealloop" { ins=$5 }' $d/log
done
