#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# demo.sh - the main job: build (or reuse) the patched guest, boot it, record
# a scenario under trace-cmd, bring trace.dat back and render it.
#
#   tools/demo.sh [--scenario NAME] [--mem SIZE] [--out DIR] [--reuse]
#
# --reuse renders an existing DIR/trace.dat again without booting.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
scenario=fragment mem=1G out=$top/out/demo reuse=0
usage() {
	echo "usage: $0 [--scenario fragment|compact|migrate|offline|highalloc|idle|polluter|census]" \
		"[--mem SIZE] [--out DIR] [--reuse]" >&2
	exit 2
}
while [ $# -gt 0 ]; do
	case $1 in
	--scenario) [ $# -ge 2 ] || usage; scenario=$2; shift ;;
	--mem) [ $# -ge 2 ] || usage; mem=$2; shift ;;
	--out) [ $# -ge 2 ] || usage; out=$2; shift ;;
	--reuse) reuse=1 ;;
	-h|--help) usage ;;
	*) echo "demo: unknown option '$1'" >&2; usage ;;
	esac
	shift
done
[ -f "$top/qemu/guest/scenarios/$scenario.sh" ] ||
	{ echo "demo: no scenario '$scenario' in qemu/guest/scenarios/" >&2; exit 2; }

say() { echo "==> $*" >&2; }
fragview=$top/tools/fragview/fragview
start=$SECONDS

if [ "$reuse" = 0 ] || [ ! -s "$out/trace.dat" ]; then
	bz=$("$top/qemu/build-kernel.sh")
	initrd=$("$top/qemu/build-initramfs.sh")
	rm -rf "$out.boot"
	say "booting the guest (TCG), scenario $scenario, $mem"
	"$top/qemu/run-guest.sh" --kernel "$bz" --initrd "$initrd" --mem "$mem" \
		--out "$out.boot" --scenario "$scenario"
	mkdir -p "$out"
	cp "$out.boot/$scenario"/* "$out/"
	cp "$out.boot/console.log" "$out/"
	rm -rf "$out.boot"
fi

say "rendering $out/"
"$fragview" map --format html -o "$out/map.html" "$out/trace.dat"
"$fragview" map --format svg -o "$out/map.svg" "$out/trace.dat"
"$fragview" stats --format txt -o "$out/stats.txt" "$out/trace.dat"
# what the blocks hold (the census at the end of the capture), who stole
# from them, what compaction did: each needs events a capture may lack
# (an older kernel, a scenario without steals), which is worth a line,
# not the end of the demo
optional() {	# optional FILE fragview-args...: render, or say why not
	local file=$1
	shift
	"$fragview" "$@" -o "$out/$file" "$out/trace.dat" 2> "$out/$file.err" ||
		say "no $file: $(head -n 1 "$out/$file.err")"
	[ -s "$out/$file.err" ] || rm -f "$out/$file.err"
}
optional map-pollution.svg map --format svg --view pollution
optional map-pollution.txt map --format txt --view pollution
optional blame.txt blame --by task
optional blame-site.txt blame --by site
optional compact.txt compact
"$fragview" map --format ansi "$out/trace.dat"
echo
sed -n '1,40p' "$out/stats.txt"
for f in map-pollution.txt blame.txt blame-site.txt; do
	[ -s "$out/$f" ] || continue
	echo
	sed -n '1,30p' "$out/$f"
done
cat <<EOT

$out/ holds trace.dat, map.html, map.svg, stats.txt, and where the capture
allows map-pollution.svg/.txt, blame.txt, blame-site.txt, compact.txt
($((SECONDS - start)) s).
  browse the map:   xdg-open $out/map.html   (one self-contained file:
                    colour by type/free/order/pollution/steals, who stole
                    from each block, compaction scanners, high-order timeline)
  KernelShark:      make kernelshark CAPTURE=$out/trace.dat
  replay check:     $fragview check $out/trace.dat
EOT
