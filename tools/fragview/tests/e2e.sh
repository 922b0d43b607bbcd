#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# End-to-end tests of the fragview binary: synthetic captures with known
# content (tests/mkcapture.py), the lead's fixtures when present
# (tests/fixtures/*.dat), and a table of bad inputs, each with the exact
# one-line error it must produce.  Prints "ok - ..." / "not ok - ...".
#
# usage: tests/e2e.sh [FRAGVIEW]    (run from tools/fragview)
set -u
here=$(cd "$(dirname "$0")" && pwd)
if [ $# -eq 0 ]; then
	# never test a stale binary
	make -s -C "$here/.." fragview >/dev/null || { echo "not ok - build fragview"; exit 1; }
fi
fv=$(realpath "${1:-$here/../fragview}")
fixtures=$here/../../../tests/fixtures
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"

# shellcheck source=tools/fragview/tests/e2e-lib.sh
. "$here/e2e-lib.sh"

# fact FILE.json EXPR: a value from a mkcapture facts file
fact() { python3 -c "import json,sys; f=json.load(open('$1')); print($2)"; }

mk() { python3 "$here/mkcapture.py" "$@" 2>/dev/null; }

mk mobility mob.dat --facts mob.json || nok "mkcapture mobility"
mk mobility mob7.dat --v7
mk lostflip lost.dat --facts lost.json
mk stock stock.dat --facts stock.json
mk none none.dat
mk onesnap one.dat

# ---- check: exact replay, and a lost flip found by pfn and type
expect "check: consistent capture exits 0" 0 "" -- "$fv" check mob.dat
want="check: 256 blocks, $(fact mob.json 'f["flips"]') flips replayed, 0 mismatches"
[ "$(head -1 out.txt)" = "$want" ] && ok "check: summary line counts every flip" ||
	nok "check: summary line" "got: $(head -1 out.txt)" "want: $want"
expect "check: v7/zstd capture reads like v6" 0 "" -- "$fv" check mob7.dat
[ "$(head -1 out.txt)" = "$want" ] && ok "check: v7 summary equals v6" ||
	nok "check: v7 summary" "got: $(head -1 out.txt)"
expect "check: lost flip exits 1" 1 "" -- "$fv" check lost.dat
want="pfn $(fact lost.json 'f["lost"]["pfn"]') expected $(fact lost.json 'f["lost"]["expected"]') got $(fact lost.json 'f["lost"]["got"]')"
grep -qxF "$want" out.txt && grep -q ", 1 mismatches$" out.txt &&
	ok "check: names the block of the lost flip" ||
	nok "check: lost flip line" "got: $(cat out.txt)" "want: $want"
expect "check: one snapshot is unreadable for check" 3 \
	"fragview: one.dat: check needs two pageblock_state snapshots, the capture has 1" \
	-- "$fv" check one.dat

# ---- ABI v2: gens, snapshot boundaries, online/offline, lost events
for v in v2 v2skew v2dropped v2trunc v2gengap; do
	mk $v $v.dat --facts $v.json || nok "mkcapture $v"
done
mk v2 v2-7.dat --v7
nb=$(fact v2.json 'f["blocks"]')
expect "v2 check: consistent capture exits 0" 0 "" -- "$fv" check v2.dat
grep -qx "check: $nb blocks, [0-9]* flips replayed, 0 mismatches" out.txt &&
	[ "$(wc -l <out.txt)" = 1 ] &&
	ok "v2 check: every block (one went offline and online elsewhere) matches" ||
	nok "v2 check summary" "$(cat out.txt)"
expect "v2 check: v7/zstd" 0 "" -- "$fv" check v2-7.dat
expect "v2 check: flips recorded out of lock order replay exactly by gen" 0 "" \
	-- "$fv" check v2skew.dat
grep -q ", 0 mismatches$" out.txt && ok "v2skew: 0 mismatches" ||
	nok "v2skew" "$(cat out.txt)"
# lost events: which CPU, how many, from when; exit 2
d0=$(fact v2dropped.json 'f["dropped"][0]["ts"]')
d1=$(fact v2dropped.json 'f["dropped"][1]["ts"]')
"$fv" check v2dropped.dat >out.txt 2>err.txt
rc=$?
[ $rc = 2 ] && grep -q "^lost events: CPU 1: the ring buffer dropped 5 events between [0-9.]* and $d0 s$" out.txt &&
	grep -q "^lost events: CPU 0: the ring buffer dropped events (count unknown) between [0-9.]* and $d1 s$" out.txt &&
	grep -qx "check: the replay cannot be exact: events are missing" out.txt &&
	ok "v2dropped: check names both CPUs, counts and times, exits 2" ||
	nok "v2dropped check" "status $rc" "$(cat out.txt)"
grep -q "^fragview: v2dropped.dat: events are missing, the replay cannot be exact: 2 ring-buffer overruns" err.txt &&
	[ "$(wc -l <err.txt)" = 1 ] && ok "v2dropped: one line on stderr" ||
	nok "v2dropped stderr" "$(cat err.txt)"
# a truncated snapshot
t=$(fact v2trunc.json '"seq %d node 0 zone %s from [0-9.]* s: %d of %d pageblock_state events, no end event" % (f["truncated"]["seq"], f["truncated"]["zone"], f["truncated"]["seen"], f["truncated"]["nr_blocks"])')
"$fv" check v2trunc.dat >out.txt 2>err.txt
rc=$?
[ $rc = 2 ] && grep -q "^incomplete snapshot: $t$" out.txt &&
	ok "v2trunc: incomplete snapshot reported, exit 2" ||
	nok "v2trunc check" "status $rc" "$(cat out.txt)" "want: $t"
# a flip missing and nothing else says so: the gen gap does
g=$(fact v2gengap.json '"node 0 zone %s: 1 flip lost (gen %d) before " % (f["lost"]["zone"], f["lost"]["gen"])')
"$fv" check v2gengap.dat >out.txt 2>err.txt
rc=$?
[ $rc = 2 ] && grep -q "^gen gap: $g[0-9.]* s$" out.txt &&
	grep -q ", 1 mismatches$" out.txt &&
	ok "v2gengap: the gap names zone and gen, exit 2 (not 1)" ||
	nok "v2gengap check" "status $rc" "$(cat out.txt)" "want: gen gap: $g"
# map and stats warn (one stderr line), and still work
for c in "map --format txt" "stats"; do
	"$fv" $c v2dropped.dat >out.txt 2>err.txt
	rc=$?
	[ $rc = 0 ] && [ "$(wc -l <err.txt)" = 1 ] &&
		grep -q "cannot be exact" err.txt &&
		grep -q "^WARNING: events are missing, the replay cannot be exact" out.txt &&
		ok "v2dropped: $c warns on stderr and in its output" ||
		nok "v2dropped $c" "status $rc" "$(cat err.txt)" "$(head -5 out.txt)"
done
"$fv" map v2.dat --format txt >out.txt 2>err.txt
! grep -q WARNING out.txt && [ ! -s err.txt ] &&
	ok "v2: no warning on a complete capture" || nok "v2 warns" "$(cat err.txt)"
expect "v2 stats json" 0 "" -- "$fv" stats v2.dat --format json -o v2s.json
got=$(jget v2s.json "sum(c['pages_by_type']['high_order'] for c in d['drains']['cpus'])")
want=$(fact v2.json 'f["high_order"]')
[ "$got" = "$want" ] && ok "v2 stats: pcp_drain nr_high_order pages = $want" ||
	nok "v2 stats high order" "got $got want $want"
got=$(jget v2s.json "d['flips']['total']")
want=$(fact v2.json 'f["flips"]')
[ "$got" = "$want" ] && ok "v2 stats: flips (online/offline included) = $want" ||
	nok "v2 stats flips" "got $got want $want"

# ---- every cell at its pfn: holes (one wider than a row), a block
# offline and online in another zone; txt, ansi, svg, html, --at, dump
cellpfn() { python3 "$here/cellpfn.py" "$@"; }
for f in txt svg html; do
	"$fv" map v2.dat --format $f -o v2map.$f 2>/dev/null
	cellpfn $f v2map.$f v2.json
done
"$fv" map v2.dat --format ansi -o v2map.ansi 2>/dev/null
sed 's/\x1b\[[0-9;]*m//g' v2map.ansi > v2ansi.txt
cellpfn txt v2ansi.txt v2.json | sed 's/^\(n*o*t* *ok - \)txt/\1ansi/'
for w in 40 97 200; do
	COLUMNS=$w "$fv" map v2.dat --format txt -o v2w.txt 2>/dev/null
	cellpfn txt v2w.txt v2.json | sed "s/txt:/txt, $w columns:/"
done
n=$(fact v2.json 'len(f["snapshots_at"])')
for i in $(seq 0 $((n - 1))); do
	at=$(fact v2.json "f['snapshots_at'][$i]['at']")
	"$fv" map v2.dat --at "$at" --format txt -o v2at.txt 2>/dev/null
	cellpfn txt v2at.txt v2.json $i | sed "s/txt:/map --at snapshot $((i + 1)):/"
done
# the checker must catch a cell one column off
sed '0,/^  0x[0-9a-f]* [^ ]*  /s/^\(  0x[0-9a-f]* [^ ]*\)  /\1 /' v2map.txt > shifted.txt
cellpfn txt shifted.txt v2.json >/dev/null &&
	nok "cellpfn: a shifted row goes unnoticed" || ok "cellpfn: a shifted row is caught"
# dump: a v2 pageblocks file with a hole, each cell at its pfn
python3 - v2.json > v2.pageblocks <<'PY'
import json, sys
f = json.load(open(sys.argv[1]))
zones = {}
for p, t in f["final"].items():
    z = "Movable" if p == f["offline_online"] else \
        "DMA32" if int(p, 16) < 0x100000 else "Normal"
    zones.setdefault(z, []).append((int(p, 16), t))
for z in ("DMA32", "Normal", "Movable"):
    b = sorted(zones[z])
    start, end = b[0][0], b[-1][0] + 512
    print("node 0 zone %s start_pfn 0x%x end_pfn 0x%x nr_blocks %d "
          "pageblock_order 9 gen 7" % (z, start, end, (end - start) // 512))
    for p, t in b:
        print("0x%x %s 0 -1 7" % (p, t))
PY
expect "dump: v2 pageblocks file" 0 "" -- "$fv" dump v2.pageblocks --format txt -o v2dump.txt
cellpfn txt v2dump.txt v2.json | sed 's/txt:/dump:/'
"$fv" dump v2.pageblocks --format svg -o v2dump.svg
cellpfn svg v2dump.svg v2.json | sed 's/svg:/dump svg:/'

# ---- stats: every count equals what the generator wrote
expect "stats json" 0 "" -- "$fv" stats mob.dat --format json -o s.json
for k in "steals total:steals" "steals claimed:claimed" "flips total:flips" \
	 "drains total:drains" "migrations ok:migrate_ok" \
	 "migrations failed:migrate_fail"; do
	path=${k%%:*}; f=${k#*:}
	got=$(jget s.json "d['${path% *}']['${path#* }']")
	want=$(fact mob.json "f['$f']")
	[ "$got" = "$want" ] && ok "stats: $path = $want" ||
		nok "stats: $path" "got $got want $want"
done
got=$(jget s.json "sum(z['blocks_end']['Isolate'] for z in d['zones'])")
want=$(fact mob.json "sum(1 for v in f['final'].values() if v == 'Isolate')")
[ "$got" = "$want" ] && ok "stats: Isolate blocks at the end (kernel value 4, no CMA)" ||
	nok "stats: final Isolate blocks" "got $got want $want"
expect "stats csv" 0 "" -- "$fv" stats mob.dat --format csv
[ "$(head -1 out.txt)" = "table,node,zone,cpu,from,to,reason,mode,claimed,order,fallback_order,result,metric,value" ] &&
	grep -q "^flip,,,,[A-Za-z]*,[A-Za-z]*,steal,,,,,,count,[0-9]*$" out.txt &&
	ok "stats csv: header and flip rows" || nok "stats csv" "$(head -3 out.txt)"
expect "stats txt" 0 "" -- "$fv" stats mob.dat
grep -q "^Pageblock flips: $(fact mob.json 'f["flips"]')$" out.txt &&
	ok "stats txt: flip total" || nok "stats txt" "$(head -5 out.txt)"

# ---- a patched kernel's mm_page_alloc_extfrag: each steal's is not
# counted again; one alone is a compaction capture (series v3, patch 10),
# an unclaimed steal
if python3 "$here/mkcapture.py" mobility xf.dat --extfrag --facts xf.json 2>/dev/null &&
   "$fv" stats xf.dat --format json -o xf-s.json 2>/dev/null; then
	got="$(jget xf-s.json "d['steals']['total']") $(jget xf-s.json "d['steals']['claimed']")"
	want="$(fact xf.json "f['steals']") $(fact xf.json "f['claimed']")"
	caps=$(fact xf.json "f['captures']")
	same=$(fact xf.json "f['captures_same_type']")
	[ "$got" = "$want" ] && [ "$caps" -gt 0 ] && [ "$same" -gt 0 ] &&
		ok "stats: steals with their extfrag once, $caps lone extfrags as unclaimed steals, $same of the block's own type as none ($got)" ||
		nok "stats: extfrag of steals and of captures" "got $got want $want ($caps captures, $same of the block's type)"
else
	nok "stats: extfrag of steals and of captures" "mkcapture.py --extfrag or stats failed"
fi

# ---- claims declined before anything was taken (pageblock_steal taken=0,
# 6.12): no steal anywhere, counted apart by stats, checked by check
# shellcheck source=tools/fragview/tests/e2e-declined.sh
. "$here/e2e-declined.sh"
e2e_declined

# ---- stock kernel: stats work, map explains
expect "stats on a stock capture" 0 \
	"fragview: stock.dat: stock-kernel capture: steals have no zone or node ('claimed' is change_ownership), no flips, drains or per-page migrations; map and check need the patched kernel" \
	-- "$fv" stats stock.dat --format json -o st.json
[ "$(jget st.json "d['steals']['total']")" = "$(fact stock.json 'f["steals"]')" ] &&
	[ "$(jget st.json "d['migrations']['ok']")" = "$(fact stock.json 'f["migrate_ok"]')" ] &&
	ok "stats: stock steals and migration totals" || nok "stats: stock totals"
expect "map on a stock capture" 3 \
	"fragview: stock.dat: stock-kernel capture (kmem/migrate events only): map and check need the mobility events of the patched kernel" \
	-- "$fv" map stock.dat --format txt

# ---- map: formats, --at, -o atomicity
for f in txt ansi svg html; do
	expect "map --format $f" 0 "" -- "$fv" map mob.dat --format $f -o map.$f
	[ -s map.$f ] && ok "map --format $f wrote a file" || nok "map $f empty"
done
grep -q "<svg" map.svg && ok "map svg has <svg" || nok "map svg"
grep -qi "<html" map.html && ok "map html has <html" || nok "map html"
expect "map --at +0 (the baseline)" 0 "" -- "$fv" map mob.dat --at +0 --format txt
cp out.txt at0.txt
expect "map --at near the end" 0 "" -- "$fv" map mob.dat --at +0.02 --format txt
! cmp -s at0.txt out.txt && ok "map --at: baseline differs from the end" ||
	nok "map --at made no difference"
# the replay at the end of each snapshot is that snapshot, block by block
n=$(fact mob.json 'len(f["snapshots_at"])')
for i in $(seq 0 $((n - 1))); do
	at=$(fact mob.json "f['snapshots_at'][$i]['at']")
	want=$(fact mob.json "f['snapshots_at'][$i]['letters']")
	got=$("$fv" map mob.dat --at "$at" --format txt 2>/dev/null |
	      sed -n 's/^  0x[0-9a-f]* //p' | tr -d ' \n' | tr a-z A-Z)
	[ "$got" = "$want" ] && ok "map --at $at equals snapshot $((i + 1))" ||
		nok "map --at $at" "got  $got" "want $want"
done
expect "map --zone 0/DMA32" 0 "" -- "$fv" map mob.dat --zone 0/DMA32 --format txt
expect "map --zone matching nothing: the input lacks it, exit 3" 3 \
	"fragview: mob.dat: --zone 3/Normal matches none of its zones (0/DMA32, 0/Normal)" \
	-- "$fv" map mob.dat --zone 3/Normal --format txt -o nozone.txt
[ ! -e nozone.txt ] && ok "map --zone failure leaves no output file" ||
	nok "map --zone failure left nozone.txt"
echo good > keep.txt
expect "map -o keeps a good file when the run fails" 3 \
	"fragview: none.dat: no mobility or kmem/migrate events in this capture" \
	-- "$fv" map none.dat --format txt -o keep.txt
[ "$(cat keep.txt)" = good ] && [ -z "$(ls -A | grep fragview-)" ] &&
	ok "-o: old file intact, no temp file left" || nok "-o clobbered or left a temp file"
# -o over a 0600 file through a symbolic link, and over a hard-linked one
chmod 600 keep.txt
ln -s keep.txt keep-link.txt
ln keep.txt keep-hard.txt
expect "map -o through a symbolic link" 0 "" -- "$fv" map mob.dat -f txt -o keep-link.txt
[ -L keep-link.txt ] && [ "$(stat -c %a keep.txt)" = 600 ] &&
	cmp -s keep.txt keep-hard.txt && grep -q "^pageblock order 9 " keep.txt &&
	ok "-o: the link stays a link, its target keeps mode 0600 and its hard link" ||
	nok "-o through a link" "$(ls -l keep*.txt)"

# ---- bad inputs: exact one-line errors
: > empty.dat
echo "hello, not a capture" > text.dat
head -c 5000 mob.dat > trunc.dat
{ printf 'XXXX'; tail -c +5 mob.dat; } > magic.dat
mkdir -p adir
expect "empty file" 3 "fragview: empty.dat: empty file" -- "$fv" map empty.dat
expect "text file" 3 "fragview: text.dat: not a trace-cmd capture (no trace.dat magic)" \
	-- "$fv" stats text.dat
expect "truncated capture" 3 \
	"fragview: trunc.dat: corrupt or truncated capture (libtracecmd cannot open it)" \
	-- "$fv" check trunc.dat
expect "wrong magic" 3 "fragview: magic.dat: not a trace-cmd capture (no trace.dat magic)" \
	-- "$fv" map magic.dat
expect "missing file" 3 "fragview: nosuch.dat: No such file or directory" \
	-- "$fv" stats nosuch.dat
expect "directory" 3 "fragview: adir: not a regular file" -- "$fv" check adir
expect "capture without our events" 3 \
	"fragview: none.dat: no mobility or kmem/migrate events in this capture" \
	-- "$fv" stats none.dat
mk formats formats.dat
for c in stats map check blame; do
	expect "$c: our formats but none of our events: 3" 3 \
		"fragview: formats.dat: no mobility or kmem/migrate events in this capture (only their formats)" \
		-- "$fv" $c formats.dat
done
expect "unknown option" 64 "fragview: map: unknown option '--frobnicate' (see 'fragview map --help')" \
	-- "$fv" map mob.dat --frobnicate
expect "unknown command" 64 "fragview: 'frob' is not a fragview command (see 'fragview --help')" \
	-- "$fv" frob
expect "unknown global option" 64 "fragview: unknown option '--frob' (see 'fragview --help')" \
	-- "$fv" --frob
expect "no operand: trace.dat, as trace-cmd report reads" 3 \
	"fragview: trace.dat: No such file or directory" -- "$fv" check
expect "option without value" 64 "fragview: stats: option '--format' needs a value (see 'fragview stats --help')" \
	-- "$fv" stats mob.dat --format
expect "unknown format" 64 "fragview: stats: unknown format 'svg' (one of txt|csv|json) (see 'fragview stats --help')" \
	-- "$fv" stats mob.dat --format svg
expect "bad --at" 64 "fragview: map: bad time '1.2.3' (want SECONDS[.FRACTION] or +SECONDS) (see 'fragview map --help')" \
	-- "$fv" map mob.dat --at 1.2.3
expect "unwritable -o" 4 "fragview: /nonexistent/x.txt: cannot write: No such file or directory" \
	-- "$fv" stats mob.dat -o /nonexistent/x.txt
expect "-o /dev/full" 4 "fragview: /dev/full: write failed: No space left on device" \
	-- "$fv" stats mob.dat -o /dev/full
"$fv" check mob.dat >/dev/full 2>err.txt
[ $? = 4 ] && [ "$(cat err.txt)" = "fragview: standard output: write failed: No space left on device" ] &&
	ok "stdout on /dev/full fails loudly, exit 4 (not check's 1)" || nok "stdout /dev/full" "$(cat err.txt)"

# ---- dump: a debugfs pageblock map without a trace
cat > good.dump <<'EOF'
# fragview test dump
node 0 zone DMA32 start_pfn 0x1000 nr_blocks 3 pageblock_order 9
0x1000 Movable 512 9
0x1200 Unmovable 3 1
0x1400 Reclaimable 0 -1
node 0 zone Normal start_pfn 0x100000 nr_blocks 2 pageblock_order 9
0x100000 Movable 100 5
0x100200 Isolate 0 -1
EOF
expect "dump: good file" 0 "" -- "$fv" dump good.dump --format txt
sed 's/^0x1200 Unmovable 3 1$/0x1200 Sticky 3 1/' good.dump > bad.dump
expect "dump: unknown type names its line" 3 \
	"fragview: bad.dump:4: unknown migratetype 'Sticky'" -- "$fv" dump bad.dump
sed "s/nr_blocks 3/nr_blocks 2/" good.dump > short.dump
expect "dump: block count checked" 3 \
	"fragview: short.dump:5: zone DMA32 of node 0 has more blocks than the 2 of its header" \
	-- "$fv" dump short.dump
# an order no kernel uses is refused, before any view sizes its legend by it
printf 'node 0 zone Normal start_pfn 0x40000 nr_blocks 1 pageblock_order 18\n0x40000 Movable 0 -1\n' > o18.dump
for f in html txt; do
	expect "dump: pageblock_order 18 refused (-f $f)" 3 \
		"fragview: o18.dump:1: pageblock_order 18 above 16, the largest a kernel uses" \
		-- "$fv" dump o18.dump -f $f
done
sed 's/pageblock_order 18/pageblock_order 16/; s/0x40000 Movable 0 -1/0x40000 Movable 65536 16/' \
	o18.dump > o16.dump
expect "dump: pageblock_order 16, the largest, has an order view" 0 "" \
	-- "$fv" dump o16.dump -f html
grep -q '\["g","#[0-9a-f]*","order 16: a whole block"\]' out.txt &&
	ok "dump: order 16 has its bucket" || nok "dump: order 16 bucket"

# ---- exit status: one policy, the same for every command (fragview(1))
for c in map stats check dump compact; do
	expect "$c: unknown option, 64" 64 \
		"fragview: $c: unknown option '--frobnicate' (see 'fragview $c --help')" \
		-- "$fv" $c mob.dat --frobnicate
	expect "$c: unknown short option, 64" 64 \
		"fragview: $c: unknown option '-q' (see 'fragview $c --help')" \
		-- "$fv" $c -q mob.dat
	expect "$c: value given to --help, 64" 64 \
		"fragview: $c: option '--help' takes no value (see 'fragview $c --help')" \
		-- "$fv" $c --help=yes
	expect "$c: extra operand, 64" 64 \
		"fragview: $c: unexpected argument 'mob7.dat' (see 'fragview $c --help')" \
		-- "$fv" $c mob.dat mob7.dat
	if [ $c = dump ]; then
		expect "$c: missing operand, 64" 64 \
			"fragview: $c: missing FILE (a pageblock dump, or - for standard input) (see 'fragview $c --help')" \
			-- "$fv" $c
	else
		expect "$c: no operand reads trace.dat" 3 \
			"fragview: trace.dat: No such file or directory" -- "$fv" $c
	fi
	expect "$c: unreadable input, 3" 3 \
		"fragview: nosuch.dat: No such file or directory" \
		-- "$fv" $c nosuch.dat
	[ $c = check ] || [ $c = compact ] && continue
	in=mob.dat
	[ $c = dump ] && in=good.dump
	expect "$c: option without its value, 64" 64 \
		"fragview: $c: option '-o' needs a value (see 'fragview $c --help')" \
		-- "$fv" $c mob.dat -o
	expect "$c: output cannot be written, 4" 4 \
		"fragview: /nonexistent/x: cannot write: No such file or directory" \
		-- "$fv" $c "$in" -o /nonexistent/x
done
for c in map stats check; do
	expect "$c: capture without our events, 3" 3 \
		"fragview: none.dat: no mobility or kmem/migrate events in this capture" \
		-- "$fv" $c none.dat
done
expect "dump: a capture is no dump, 3" 3 \
	"fragview: none.dat:1: binary data (NUL byte)" -- "$fv" dump none.dat
expect "dump --zone matching nothing, 3" 3 \
	"fragview: good.dump: --zone 1/DMA matches none of its zones (0/DMA32, 0/Normal)" \
	-- "$fv" dump good.dump --zone 1/DMA -o nozone.txt
[ ! -e nozone.txt ] && ok "dump --zone failure leaves no output file" ||
	nok "dump --zone failure left nozone.txt"
expect "options after the operand, abbreviated, with =" 0 "" \
	-- "$fv" map mob.dat --form=txt --zone 0/DMA32 -onz.txt
[ -s nz.txt ] && ok "-oFILE writes FILE" || nok "-oFILE wrote nothing"
expect "-- ends the options" 3 "fragview: --zone: No such file or directory" \
	-- "$fv" map -- --zone
expect "no command, 64" 64 "fragview: missing COMMAND (see 'fragview --help')" \
	-- "$fv" --
for c in map stats check dump compact; do
	"$fv" $c --help >/dev/full 2>err.txt
	[ $? = 4 ] && [ "$(cat err.txt)" = "fragview: standard output: write failed" ] &&
		ok "$c --help on a full disk: 4" || nok "$c --help on /dev/full" "$(cat err.txt)"
done

# ---- help and version
for c in map stats check dump compact; do
	expect "$c --help" 0 "" -- "$fv" $c --help
	grep -q "^usage: fragview $c" out.txt && ok "$c --help shows usage" ||
		nok "$c --help text"
done
expect "--version" 0 "" -- "$fv" --version
# the libtracecmd running, the workaround it needs, blame's kallsyms hook
sed -n 2p out.txt | grep -q "^libtracecmd [0-9][0-9.]*: version 7 captures " &&
	grep -qx "kallsyms hook: bound (blame resolves stacks)" out.txt &&
	ok "--version: libtracecmd version, v7 workaround, kallsyms hook bound" ||
	nok "--version library lines" "$(cat out.txt)"
FRAGVIEW_TEST_LIBTRACECMD=1.5.1 "$fv" --version | grep -qx "libtracecmd 1.5.1: version 7 captures read in one open (1.5.1 or later)" &&
	FRAGVIEW_TEST_LIBTRACECMD=1.5.0 "$fv" --version | grep -q "^libtracecmd 1.5.0: version 7 captures reopened every 4 MiB" &&
	ok "--version: the chunk-leak workaround for libtracecmd < 1.5.1 only" ||
	nok "--version: workaround by version"
reopens() {
	FRAGVIEW_STATS=1 FRAGVIEW_TEST_LIBTRACECMD=$1 "$fv" map "$2" -f txt 2>&1 >/dev/null |
		sed -n 's/.*, \([0-9]*\) reopens,.*/\1/p'
}
if [ -e "$fixtures/bigtrace.dat" ]; then
	r0=$(reopens 1.3.1 "$fixtures/bigtrace.dat")
	r1=$(reopens 1.5.1 "$fixtures/bigtrace.dat")
	[ "${r0:-0}" -gt 0 ] && [ "$r1" = 0 ] &&
		ok "bigtrace.dat (v7): $r0 reopens with libtracecmd 1.3.1, none with 1.5.1" ||
		nok "v7 reopens by version" "1.3.1: '$r0'" "1.5.1: '$r1'"
fi
# 4100 CPUs, the records on the last two (past the 4096 the reader once
# had room for, which left their pages uncounted: never reopened)
if python3 "$here/mkcapture.py" mobility cpus.dat --v7 --cpus 4100; then
	"$fv" stats cpus.dat >cpus-once.txt 2>&1
	FRAGVIEW_TEST_REOPEN=1 "$fv" stats cpus.dat >cpus-reopened.txt 2>&1
	r=$(FRAGVIEW_TEST_REOPEN=1 reopens 1.3.1 cpus.dat)
	[ "${r:-0}" -gt 0 ] && grep -q "^Events: state 768 " cpus-once.txt &&
		cmp -s cpus-once.txt cpus-reopened.txt &&
		ok "v7 capture of 4100 CPUs: $r reopens, read as in one open" ||
		nok "v7 capture of 4100 CPUs" "reopens: '$r'" \
			"$(diff cpus-once.txt cpus-reopened.txt | head -5)"
	# --cpu names any CPU a capture can have: the steals of CPUs 4098
	# and 4099 add up to all of them, neither none
	n=()
	for c in 4098 4099 ""; do
		"$fv" stats cpus.dat -f json ${c:+--cpu $c} >cpu.json 2>/dev/null
		n+=("$(jget cpu.json "d['steals']['total']" 2>/dev/null)")
	done
	[ "${n[0]:-0}" -gt 0 ] && [ "${n[1]:-0}" -gt 0 ] &&
		[ $((n[0] + n[1])) = "${n[2]}" ] &&
		ok "stats --cpu 4098 / 4099 on 4100 CPUs: ${n[0]} + ${n[1]} = ${n[2]} steals" ||
		nok "stats --cpu past 4095" "steals: ${n[*]}"
else
	nok "mkcapture.py --cpus 4100"
fi
if [ -e "$fixtures/v2-polluter.dat" ]; then
	FRAGVIEW_TEST_UNBOUND_HOOK=1 "$fv" blame "$fixtures/v2-polluter.dat" >/dev/null 2>err.txt
	grep -q "tep_parse_kallsyms() is not the one libtracecmd calls (see fragview --version): stack frames are addresses$" err.txt &&
		ok "blame: a kallsyms hook that did not bind is named, not a capture without symbols" ||
		nok "blame unbound hook" "$(cat err.txt)"
fi

# ---- the lead's fixtures (real guest captures), when they exist
letters() { sed -n 's/^  0x[0-9a-f]* //p' | tr -d ' \n' | tr a-z A-Z; }
for f in "$fixtures"/*.dat; do
	[ -e "$f" ] || continue
	b=$(basename "$f" .dat)
	"$fv" stats "$f" >/dev/null 2>err.txt
	rc=$?
	[ $rc = 0 ] && ! grep -qv '^fragview: ' err.txt &&
		ok "fixture $b: stats" || nok "fixture $b: stats" "status $rc: $(cat err.txt)"
	case $b in
	stock-*)
		expect "fixture $b: map explains the stock kernel" 3 \
			"fragview: $f: stock-kernel capture (kmem/migrate events only): map and check need the mobility events of the patched kernel" \
			-- "$fv" map "$f" --format txt
		continue;;
	esac
	expect "fixture $b: check is exact on the real kernel" 0 "" -- "$fv" check "$f"
	[ -e "${f%.dat}.pageblocks" ] || continue
	# the end map the guest read from debugfs while recording
	want=$("$fv" dump "${f%.dat}.pageblocks" --format txt | letters)
	got=$("$fv" map "$f" --format txt | letters)
	[ -n "$want" ] && [ "$got" = "$want" ] &&
		ok "fixture $b: replayed map equals the debugfs end map" ||
		nok "fixture $b: map vs end map" "got  $got" "want $want"
	# and cell for cell at the same place: row labels, columns, holes
	"$fv" dump "${f%.dat}.pageblocks" --format txt | grep '^  0x' |
		tr a-z A-Z > grid-dump.txt
	"$fv" map "$f" --format txt | grep '^  0x' | tr a-z A-Z > grid-map.txt
	[ -s grid-dump.txt ] && cmp -s grid-dump.txt grid-map.txt &&
		ok "fixture $b: every cell where the debugfs end map has it" ||
		nok "fixture $b: grid differs from the end map" \
			"$(diff grid-map.txt grid-dump.txt | head -4)"
done
# a real v2 capture doctored with each defect check must report
real=$fixtures/v2-offline.dat
if [ -e "$real" ]; then
	# doctored NAME WANT-LINE-REGEX DOCTOR-ARGS...: check exits 2 with it
	# (DOCTORED_RC: another status)
	doctored() {
		local name=$1 want=$2 want_rc=${DOCTORED_RC:-2}
		shift 2
		python3 "$here/doctor.py" "$real" doctored.dat "$@" >/dev/null
		"$fv" check doctored.dat >out.txt 2>err.txt
		local rc=$?
		[ $rc = "$want_rc" ] && grep -q "$want" out.txt &&
			[ "$(grep -c impossible out.txt)" -le 1 ] &&
			ok "real v2 capture, $name: reported, exit $want_rc" ||
			nok "real v2 capture, $name" "status $rc" "$(cat out.txt)"
	}
	doctored "overrun flag set on CPU 1" \
		"^lost events: CPU 1: the ring buffer dropped events (count unknown) between [0-9.]* and [0-9.]* s$" \
		drop 1 4
	doctored "one flip removed (gen gap)" \
		"^gen gap: node 0 zone Movable: 1 flip lost (gen [0-9]*) before [0-9.]* s$" \
		hide pageblock_flip 100
	doctored "one state removed (incomplete snapshot)" \
		"^incomplete snapshot: seq [0-9]* node 0 zone Movable from [0-9.]* s: 157 of 158 pageblock_state events$" \
		hide pageblock_state 700
	# events the ABI says no kernel writes: one line, exit 1
	imp="^check: impossible event: [a-z]* on CPU [0-9] at [0-9.]* s:"
	DOCTORED_RC=1 doctored "a flip to its own type" \
		"$imp old_mt equals new_mt (a flip fires only on a real change)$" \
		set pageblock_flip 5 new_mt =old_mt
	DOCTORED_RC=1 doctored "a flip to none that is no offline" \
		"$imp new_mt none without reason offline, or offline to a type$" \
		set pageblock_flip 5 new_mt 6
	DOCTORED_RC=1 doctored "a flip inside a pageblock" \
		"$imp pfn is not the first pfn of a pageblock$" \
		set pageblock_flip 5 pfn 0x10401
	DOCTORED_RC=1 doctored "a state with free pages and no free order" \
		"$imp free_pages and largest_order disagree on a free page$" \
		set pageblock_state 3 largest_order -1
	DOCTORED_RC=1 doctored "a drain whose total is not its lists'" \
		"$imp total is not the sum of the lists, or zero$" \
		set pcp_drain 0 total 0
	DOCTORED_RC=1 doctored "a migration to no page with a type" \
		"$imp dst_mt none iff dst_pfn 0$" \
		set migrate_folio 0 dst_pfn 0
fi
if [ -e "$fixtures/v2-compact.dat" ]; then
	real=$fixtures/v2-compact.dat
	DOCTORED_RC=1 doctored "a steal of a smaller buddy than asked" \
		"$imp order above fallback_order, or above the largest buddy$" \
		set pageblock_steal 0 order 11
	DOCTORED_RC=1 doctored "a steal whose block is not its pfn's" \
		"$imp block_pfn is not the pageblock of pfn$" \
		set pageblock_steal 0 block_pfn 0
	DOCTORED_RC=1 doctored "a steal inside a buddy" \
		"$imp pfn is not the first pfn of an order-fallback_order buddy$" \
		set pageblock_steal 0 pfn 0x1e801
fi
for f in "$fixtures"/*.pageblocks; do
	[ -e "$f" ] || continue
	expect "fixture $(basename "$f"): dump draws it" 0 "" -- "$fv" dump "$f" --format txt
done

# ---- map --color views and the census part of stats
"$here/e2e-color.sh" "$fv"

# ---- captures of a 6.12 kernel (merge, damon) read like those of 6.1
# shellcheck source=tools/fragview/tests/e2e-kernels.sh
. "$here/e2e-kernels.sh"
e2e_kernels

# ---- migrations as the default recording counts them (failed attempts,
# passes, per-call totals) and with migrate_folio too: each failure once
"$here/e2e-migrate.sh" "$fv"

# ---- compact: runs, scanners, high-order outcomes against trace-cmd report
expect "compact: a capture without compaction events, 3" 3 \
	"fragview: mob.dat: no compaction:* or kmem:mm_page_alloc events in this capture" \
	-- "$fv" compact mob.dat
expect "compact: unknown format, 64" 64 \
	"fragview: compact: unknown format 'svg' (one of txt|csv|json) (see 'fragview compact --help')" \
	-- "$fv" compact mob.dat --format svg
cf=$fixtures/v2-compact.dat
if [ -e "$cf" ]; then
	expect "compact: real capture, json" 0 "" -- "$fv" compact "$cf" --format json -o compact.json
	python3 "$here/compactcheck.py" "$cf" compact.json |
		sed "s/^\(n*o*t* *ok - \)/\1compact v2-compact: /"
	# the oracle must see a failed allocation reported as a success, and
	# a run's free scanner total one page off
	python3 - compact.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
a = next(e for e in d['timeline'] if e['event'] == 'alloc' and e['outcome'] == 'failed')
a['outcome'] = 'ok'
json.dump(d, open('compact-bad1.json', 'w'))
d = json.load(open(sys.argv[1]))
d['runs'][-1]['free']['scanned'] += 1
json.dump(d, open('compact-bad2.json', 'w'))
PY
	for b in 1 2; do
		python3 "$here/compactcheck.py" "$cf" compact-bad$b.json >/dev/null 2>&1 &&
			nok "compact oracle misses doctored output $b" ||
			ok "compact oracle fails on doctored output $b"
	done
	runs=$(jget compact.json "len(d['runs'])")
	allocs=$(jget compact.json "sum(e['event'] == 'alloc' for e in d['timeline'])")
	fails=$(jget compact.json "sum(e['outcome'] == 'failed' for e in d['timeline'])")
	tl=$(jget compact.json "len(d['timeline'])")
	expect "compact: txt" 0 "" -- "$fv" compact "$cf"
	grep -qx "high-order allocations (order >= 9): $allocs, $fails failed" out.txt &&
		grep -q "^compaction: $runs runs ($runs ended)" out.txt &&
		ok "compact: txt summary is the json's" || nok "compact: txt summary" "$(head -3 out.txt)"
	expect "compact: csv, a row per run" 0 "" -- "$fv" compact "$cf" --format csv
	[ "$(wc -l < out.txt)" = $((runs + 1)) ] && ok "compact: csv has $runs runs" ||
		nok "compact: csv rows" "$(wc -l < out.txt)"
	expect "compact --timeline: csv" 0 "" -- "$fv" compact "$cf" -t --format csv
	[ "$(grep -c ',alloc,' out.txt)" = "$allocs" ] &&
		[ "$(grep -c ',failed,' out.txt)" = "$fails" ] &&
		[ "$(wc -l < out.txt)" = $((tl + 1)) ] &&
		ok "compact --timeline: csv rows are the json timeline" ||
		nok "compact --timeline csv" "$(head -3 out.txt)"
	expect "compact --timeline: json has nothing else" 0 "" \
		-- "$fv" compact "$cf" --timeline --format json -o tl.json
	[ "$(jget tl.json "sorted(d)")" = "['allocs_recorded', 'capture', 'pageblock_order', 'schema', 'timeline']" ] &&
		ok "compact --timeline json keys" || nok "compact --timeline json keys" "$(jget tl.json "sorted(d)")"
	# the SVG map marks every block a scanner pass or a failed migration
	# touched up to the time shown: at the end, and before the fourth run
	ts=$(jget compact.json "d['runs'][3]['begin_ns'] - 1")
	for at in "" "$(printf '%d.%09d' $((ts / 1000000000)) $((ts % 1000000000)))"; do
		"$fv" map "$cf" --format svg ${at:+--at $at} -o compact.svg
		got="migrate $(grep -c 'data-scan="migrate' compact.svg) free $(grep -c 'data-scan="[a-z ]*free' compact.svg) fail $(grep -c 'data-fail=' compact.svg)"
		want=$(python3 "$here/compactcheck.py" --marks "$cf" 9 ${at:+$ts})
		[ "$got" = "$want" ] && [ "$got" != "migrate 0 free 0 fail 0" ] &&
			ok "compact: svg map marks the scanned blocks ${at:-at the end}: $got" ||
			nok "compact: svg marks ${at:-at the end}" "got  $got" "want $want"
	done
	expect "compact: output cannot be written, 4" 4 \
		"fragview: /nonexistent/x: cannot write: No such file or directory" \
		-- "$fv" compact "$cf" -o /nonexistent/x
fi
# a stock kernel's capture: compact needs none of the mobility events
if [ -e "$fixtures/stock-fragment.dat" ]; then
	expect "compact: stock-kernel capture" 0 "" -- "$fv" compact "$fixtures/stock-fragment.dat" --format json -o stock.json
	[ "$(jget stock.json "len(d['runs']) > 0 and all(r['status'] for r in d['runs'])")" = True ] &&
		ok "compact: stock-kernel capture has its runs" || nok "compact: stock-kernel runs"
fi
# a capture with compaction events but no kmem:mm_page_alloc says so
if [ -e "$fixtures/fragment.dat" ]; then
	expect "compact: allocations not recorded" 0 "" -- "$fv" compact "$fixtures/fragment.dat"
	grep -qx "high-order allocations: not recorded (no kmem:mm_page_alloc in the capture)" out.txt &&
		ok "compact: says allocations were not recorded" || nok "compact: not recorded" "$(sed -n 3p out.txt)"
fi
# a 6.12 capture with fast_isolate_freepages passes: in the free totals
f612=$fixtures/v612-fragment.dat
if [ -e "$f612" ]; then
	expect "compact: v612-fragment.dat" 0 "" -- "$fv" compact "$f612" --format json -o c612.json
	python3 "$here/compactcheck.py" "$f612" c612.json | grep "runs: task" |
		sed "s/^\(n*o*t* *ok - \)/\1compact v612-fragment (fast free passes): /"
	fast=$(trace-cmd report -i "$f612" 2>/dev/null | grep -c "mm_compaction_fast_isolate_freepages:")
	[ "$fast" -gt 0 ] && ok "compact: v612-fragment.dat has $fast fast free passes" ||
		nok "compact: v612-fragment.dat has no fast free pass to check"
fi

# ---- damaged copies of a capture: never a crash, never a hang
# FRAGVIEW_E2E_MUTATIONS: fewer copies (the ASan suite, tests/e2e-asan.sh)
python3 "$here/mutate.py" "$fv" mob.dat "${FRAGVIEW_E2E_MUTATIONS:-200}" | tail -1

# ---- blame: the real polluter capture, captures without stacks, stock
"$here/e2e-blame.sh" "$fv"

# ---- the conventions of trace-cmd, perf and git: input, formats,
# colour, windows and filters, pager, SIGPIPE, help, completion
"$here/e2e-conv.sh" "$fv"

# ---- text from the capture: valid JSON, XML, UTF-8; CSV without formulas
"$here/e2e-text.sh" "$fv"

# ---- explain: the failures of a real capture against the report oracle
"$here/e2e-explain.sh" "$fv"

# ---- man pages: OPTIONS from the option tables, every -h option in them
"$here/man-sync.sh" "$fv"

# ---- man pages render without groff warnings
for m in "$here"/../Documentation/*.1; do
	MANWIDTH=80 man --warnings -l "$m" >/dev/null 2>err.txt
	[ $? = 0 ] && [ ! -s err.txt ] && ok "man page $(basename "$m")" ||
		nok "man page $(basename "$m")" "$(head -3 err.txt)"
done

# ---- the reader child dying or hanging is one line, not our crash
# (under ASan the child's SIGSEGV becomes ASan's report and exit status 1)
crash="fragview: mob.dat: corrupt or truncated capture (reader crashed: SIGSEGV)"
case $fv in *asan*) crash="fragview: mob.dat: corrupt or truncated capture (reader failed)";; esac
FRAGVIEW_TEST_READER=crash "$fv" stats mob.dat >/dev/null 2>err.txt
[ $? = 3 ] && [ "$(cat err.txt)" = "$crash" ] &&
	ok "reader crash reported" || nok "reader crash" "$(cat err.txt)"
start=$(date +%s)
FRAGVIEW_TEST_READER=hang FRAGVIEW_READ_TIMEOUT=2 "$fv" map mob.dat >/dev/null 2>err.txt
rc=$?
[ $rc = 3 ] && [ $(($(date +%s) - start)) -lt 10 ] &&
	[ "$(cat err.txt)" = "fragview: mob.dat: corrupt capture? the reader made no progress for 2 s" ] &&
	ok "reader hang stopped by the timeout" || nok "reader hang" "status $rc: $(cat err.txt)"

# ---- and damaged copies of real (v7) guest captures, ABI v1 and v2
for f in fragment v2-offline v2-compact; do
	[ -e "$fixtures/$f.dat" ] || continue
	python3 "$here/mutate.py" "$fv" "$fixtures/$f.dat" 100 | tail -1 |
		sed "s/^\(n*o*t* *ok - \)/\1$f.dat: /"
done
