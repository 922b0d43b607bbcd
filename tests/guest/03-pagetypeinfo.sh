#!/bin/sh
# description: the per-type block counts of debugfs pageblocks equal
# /proc/pagetypeinfo's "Number of blocks type" table, zone by zone
dbg=/sys/kernel/debug/mobility

count_pageblocks() {	# -> "node zone type count" lines
	awk '$1 == "node" { node = $2; zone = $4; next }
	     $1 ~ /^0x/ { n[node " " zone " " $2]++ }
	     END { for (k in n) print k, n[k] }' $dbg/pageblocks | sort
}

count_pagetypeinfo() {
	awk '/^Number of blocks type/ { for (i = 5; i <= NF; i++) t[i - 3] = $i; on = 1; next }
	     on && /^Node/ { node = $2; sub(",", "", node); zone = $4
		for (i = 5; i <= NF; i++) if ($i > 0) print node, zone, t[i - 3], $i; next }
	     on { on = 0 }' /proc/pagetypeinfo | sort
}

# the counts move while the system runs: a few attempts on a quiet guest
for try in 1 2 3; do
	count_pageblocks > "$OUT/pageblocks.counts"
	count_pagetypeinfo > "$OUT/pagetypeinfo.counts"
	if cmp -s "$OUT/pageblocks.counts" "$OUT/pagetypeinfo.counts" &&
	   [ -s "$OUT/pageblocks.counts" ]; then
		cat "$OUT/pageblocks.counts"
		exit 0
	fi
	sleep 1
done
echo "pageblocks:"; cat "$OUT/pageblocks.counts"
echo "pagetypeinfo:"; cat "$OUT/pagetypeinfo.counts"
exit 1
