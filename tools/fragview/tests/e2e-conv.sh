#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The command-line conventions fragview shares with trace-cmd, perf and
# git (fragview(1): INPUT AND OUTPUT, TIME AND FILTERS, ENVIRONMENT):
# -i and the default trace.dat, the output format from -f or -o's suffix,
# --color WHEN (and the deprecated --color VIEW), --from/--to/--cpu/--pid/
# --comm against 'trace-cmd report', filters refused where they mean
# nothing, the option value types, the pager and --no-pager on a terminal
# (script(1) gives the pty), a closed pipe, 'fragview help CMD', and the
# bash completion.  Prints "ok - ..." / "not ok - ...".
#
# usage: tests/e2e-conv.sh FRAGVIEW    (e2e.sh runs it)
set -u
here=$(cd "$(dirname "$0")" && pwd)
fv=$(realpath "$1")
top=$(cd "$here/../../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1

# shellcheck source=tools/fragview/tests/e2e-lib.sh
. "$here/e2e-lib.sh"

python3 "$here/mkcapture.py" mobility mob.dat --facts mob.json 2>/dev/null ||
	nok "mkcapture mobility"
fact() { python3 -c "import json,sys; f=json.load(open('$1')); print($2)"; }

# ---- the input: -i FILE, the operand, or trace.dat
"$fv" stats mob.dat > want.txt 2>/dev/null
expect "-i FILE reads the capture, as trace-cmd report -i" 0 "" \
	-- "$fv" stats -i mob.dat
cmp -s out.txt want.txt && ok "-i FILE: the same as the operand" ||
	nok "-i FILE output differs"
mkdir dflt && cp mob.dat dflt/trace.dat
(cd dflt && "$fv" stats > ../out.txt 2> ../err.txt)
[ $? = 0 ] && [ ! -s err.txt ] && cmp -s out.txt want.txt &&
	ok "no operand: ./trace.dat, as trace-cmd report" ||
	nok "default trace.dat" "$(cat err.txt)"
expect "-i and an operand: two inputs, 64" 64 \
	"fragview: check: two inputs, -i mob.dat and mob.dat (see 'fragview check --help')" \
	-- "$fv" check -i mob.dat mob.dat

# ---- the renderer: -f wins, else -o's suffix, else the default
expect "map -o m.svg: the suffix names the format" 0 "" -- "$fv" map mob.dat -o m.svg
head -c 200 m.svg | grep -q '<svg' && ok "map -o m.svg writes svg" ||
	nok "map -o m.svg is not svg" "$(head -2 m.svg)"
"$fv" map mob.dat -o m.HTML && grep -qi '<html' m.HTML &&
	ok "map -o m.HTML: the suffix in any case" || nok "map -o m.HTML"
"$fv" map mob.dat -f txt -o t.svg && ! grep -q '<svg' t.svg &&
	grep -q '^  0x' t.svg && ok "-f txt wins over the suffix .svg" ||
	nok "-f txt -o t.svg" "$(head -2 t.svg)"
"$fv" map mob.dat -o m.out && grep -q '^  0x' m.out &&
	ok "-o with another suffix: the default format (txt)" || nok "-o m.out"
for c in stats blame compact; do
	in=mob.dat
	[ $c = compact ] && in=$top/tests/fixtures/v2-compact.dat
	[ -e "$in" ] || continue
	"$fv" $c "$in" -o r.json 2>/dev/null
	python3 -c 'import json; json.load(open("r.json"))' 2>/dev/null &&
		ok "$c -o r.json writes json" || nok "$c -o r.json" "$(head -c 80 r.json)"
	"$fv" $c "$in" -o r.csv 2>/dev/null
	head -1 r.csv | grep -q ',' && ! grep -q '^{' r.csv &&
		ok "$c -o r.csv writes csv" || nok "$c -o r.csv" "$(head -2 r.csv)"
	expect "$c -o r.svg: a format $c cannot write, 64" 64 \
		"fragview: $c: unknown format 'svg' (the suffix of -o) (one of txt|csv|json) (see 'fragview $c --help')" \
		-- "$fv" $c "$in" -o r.svg
done

# ---- --color WHEN, --view VIEW
esc=$'\e['
"$fv" map mob.dat --color=always > c.txt && grep -qF "$esc" c.txt &&
	ok "--color=always colours a pipe" || nok "--color=always"
"$fv" map mob.dat --color always -o c.out && grep -qF "$esc" c.out &&
	ok "--color always colours an -o file without suffix" || nok "--color always -o"
"$fv" map mob.dat --color=always -o c2.txt && ! grep -qF "$esc" c2.txt &&
	ok "the suffix .txt wins over --color always" || nok "--color always -o c2.txt"
"$fv" map mob.dat > c.txt && ! grep -qF "$esc" c.txt &&
	ok "--color auto: no colour into a pipe" || nok "colour into a pipe"
# on a terminal (script's pty), without a pager
tty_run() { script -qec "$1" /dev/null < /dev/null; }
tty_run "'$fv' --no-pager map mob.dat" > t1.txt
grep -qF "$esc" t1.txt && ok "--color auto: colour on a terminal" ||
	nok "no colour on a terminal" "$(head -3 t1.txt)"
NO_COLOR=1 tty_run "'$fv' --no-pager map mob.dat" > t2.txt
grep -q '0x' t2.txt && ! grep -qF "$esc" t2.txt &&
	ok "NO_COLOR: no colour on a terminal" || nok "NO_COLOR" "$(head -3 t2.txt)"
NO_COLOR= tty_run "'$fv' --no-pager map mob.dat" > t3.txt
grep -qF "$esc" t3.txt && ok "NO_COLOR empty: colour" || nok "NO_COLOR empty"
tty_run "'$fv' --no-pager map mob.dat --color=never" > t4.txt
grep -q '0x' t4.txt && ! grep -qF "$esc" t4.txt &&
	ok "--color=never: no colour on a terminal" || nok "--color=never"
NO_COLOR=1 tty_run "'$fv' --no-pager map mob.dat --color=always" > t5.txt
grep -qF "$esc" t5.txt && ok "--color=always wins over NO_COLOR" ||
	nok "--color=always with NO_COLOR"
# the old spelling: the view, and one line on stderr
"$fv" map mob.dat --view steals -f txt > view.txt
expect "--color VIEW still draws the view, with a warning" 0 \
	"fragview: --color steals is deprecated, use --view steals (--color says when to colour: auto, always, never)" \
	-- "$fv" map mob.dat --color steals -f txt
cmp -s out.txt view.txt && grep -q 'colour: steals' out.txt &&
	ok "--color steals draws what --view steals draws" ||
	nok "--color steals differs from --view steals"
expect "-c free: the short spelling too" 0 \
	"fragview: --color free is deprecated, use --view free (--color says when to colour: auto, always, never)" \
	-- "$fv" map mob.dat -c free -f txt
expect "dump has no views: --color steals is a bad WHEN" 64 \
	"fragview: dump: bad --color 'steals' (want auto, always or never) (see 'fragview dump --help')" \
	-- "$fv" dump - --color steals

# ---- time windows and filters, against trace-cmd report -t
trace-cmd report -t -i mob.dat > report.txt 2>/dev/null ||
	nok "trace-cmd report -t mob.dat"
# count EVENT FROM TO [CPU]: EVENT records of report.txt in [FROM, TO]
count() {
	python3 - "$@" <<'PY'
import re, sys
ev, lo, hi = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
cpu = int(sys.argv[4]) if len(sys.argv) > 4 else None
n = 0
for l in open("report.txt"):
    m = re.search(r"\[(\d+)\]\s+(\d+)\.(\d{9}): (\w+):", l)
    if not m or m.group(4) != ev:
        continue
    ts = int(m.group(2)) * 10**9 + int(m.group(3))
    if lo <= ts <= hi and (cpu is None or int(m.group(1)) == cpu):
        n += 1
print(n)
PY
}
ns() { python3 -c "from decimal import Decimal as D; print(int(D('$1') * 10**9))"; }
first=$(ns "$(sed -n 's/.*\] *\([0-9.]*\): pageblock_state:.*/\1/p' report.txt | head -1)")
# the second snapshot starts with its first record (seq=2)
snap2=$(sed -En 's/.*\] +([0-9.]+): pageblock_state: .* seq=2 .*/\1/p' report.txt | head -1)
from=$(ns "$snap2")
to=$((first + 15000000))		# --to +0.015
big=99999999999999999999
"$fv" stats mob.dat --from "$snap2" --to +0.015 -f json -o w.json
for k in "flips:pageblock_flip" "steals:pageblock_steal" "drains:pcp_drain"; do
	got=$(jget w.json "d['${k%%:*}']['total']")
	want=$(count "${k#*:}" "$from" "$to")
	all=$(count "${k#*:}" 0 "$big")
	[ "$got" = "$want" ] && [ "$want" != "$all" ] &&
		ok "stats --from $snap2 --to +0.015: ${k%%:*} $got, as trace-cmd report" ||
		nok "stats window ${k%%:*}" "got $got want $want (all $all)"
done
"$fv" stats mob.dat --cpu 1 -f json -o c1.json
for k in "steals:pageblock_steal" "drains:pcp_drain"; do
	got=$(jget c1.json "d['${k%%:*}']['total']")
	want=$(count "${k#*:}" 0 "$big" 1)
	all=$(count "${k#*:}" 0 "$big")
	[ "$got" = "$want" ] && [ "$want" != "$all" ] &&
		ok "stats --cpu 1: ${k%%:*} $got, as trace-cmd report" ||
		nok "stats --cpu 1 ${k%%:*}" "got $got want $want (all $all)"
done
"$fv" stats mob.dat --cpu 0-1 -f json -o c01.json
"$fv" stats mob.dat -f json -o c.json
cmp -s c01.json c.json && ok "stats --cpu 0-1: every CPU of the capture" ||
	nok "stats --cpu 0-1 differs from all CPUs"
# check: the replay from the second snapshot to the last
expect "check --from the second snapshot: exact" 0 "" -- "$fv" check mob.dat --from "$snap2"
want=$(count pageblock_flip "$from" "$big")
grep -qx "check: 256 blocks, $want flips replayed, 0 mismatches" out.txt &&
	ok "check --from: replays the $want flips after the second snapshot" ||
	nok "check --from" "$(head -1 out.txt)" "want $want flips"
expect "check --to before the second snapshot: one snapshot, 3" 3 \
	"fragview: mob.dat: check needs two pageblock_state snapshots, the window (--from, --to) has 1" \
	-- "$fv" check mob.dat --to +0.005
# map --to T draws the types of the map at T (the marks of later
# steals and flips are not in the window)
types() { grep '^  0x' | tr a-z A-Z; }
"$fv" map mob.dat --at +0.015 -f txt | types > at.txt
"$fv" map mob.dat --to +0.015 -f txt | types > to.txt
"$fv" map mob.dat -f txt | types > end.txt
[ -s to.txt ] && cmp -s at.txt to.txt && ! cmp -s to.txt end.txt &&
	ok "map --to +0.015 draws the map --at +0.015 draws" ||
	nok "map --to" "$(diff at.txt to.txt | head -3)"
expect "--from after --to, 64" 64 \
	"fragview: stats: --from +0.02 is after --to +0.01 (see 'fragview stats --help')" \
	-- "$fv" stats mob.dat --from +0.02 --to +0.01
expect "--from after --to, one absolute, one relative: 64 after the read" 64 \
	"fragview: stats: --from $snap2 is after --to +0.005 (see 'fragview stats --help')" \
	-- "$fv" stats mob.dat --from "$snap2" --to +0.005
expect "a relative time that could wrap, 64" 64 \
	"fragview: map: bad time '+9223372036.854775808' (want SECONDS[.FRACTION] or +SECONDS) (see 'fragview map --help')" \
	-- "$fv" map mob.dat --at +9223372036.854775808
expect "--from beyond 2^64 ns, 64" 64 \
	"fragview: compact: bad time '18446744073.709551616' (want SECONDS[.FRACTION] or +SECONDS) (see 'fragview compact --help')" \
	-- "$fv" compact mob.dat --from 18446744073.709551616
expect "bad --cpu list, 64" 64 \
	"fragview: stats: bad CPU list '1-' (want CPUs and ranges, e.g. 0,2-3) (see 'fragview stats --help')" \
	-- "$fv" stats mob.dat --cpu 1-
# where a filter means nothing: refused, never ignored
for r in "map:cpu 0:a map replays the flips of every CPU" \
	 "check:cpu 0:a replay needs the flips of every CPU" \
	 "compact:cpu 0:a compaction run moves between CPUs" \
	 "stats:pid 1:only blame filters by task" \
	 "map:comm init:only blame filters by task" \
	 "dump:from +1:a dump is one instant" \
	 "dump:to 5:a dump is one instant" \
	 "dump:cpu 0:a dump has no events"; do
	c=${r%%:*}; o=${r#*:}; o=${o%%:*}; why=${r##*:}
	# shellcheck disable=SC2086
	expect "$c --${o% *}: refused, 64" 64 \
		"fragview: $c: --${o% *} does not apply here: $why (see 'fragview $c --help')" \
		-- "$fv" $c mob.dat --$o
done
expect "a refused filter without its value: still why" 64 \
	"fragview: check: --cpu does not apply here: a replay needs the flips of every CPU (see 'fragview check --help')" \
	-- "$fv" check mob.dat --cpu
# blame --pid / --comm on the polluter capture
pol=$top/tests/fixtures/v2-polluter.dat
if [ -e "$pol" ]; then
	trace-cmd report -i "$pol" 2>/dev/null |
		sed -En 's/^ *([^ ]+)-([0-9]+) +\[.*(pageblock_steal|pageblock_flip):.*/\1 \2/p' |
		sort | uniq -c | sort -rn > tasks.txt
	read -r n comm pid < tasks.txt
	total=$(awk '{ s += $1 } END { print s }' tasks.txt)
	"$fv" blame "$pol" --pid "$pid" -f json -o p.json 2>/dev/null
	got=$(jget p.json "d['steals'] + d['flips']")
	[ "$got" = "$n" ] && [ "$n" != "$total" ] &&
		ok "blame --pid $pid: its $n steals and flips, as trace-cmd report" ||
		nok "blame --pid" "got $got want $n (all $total)"
	"$fv" blame "$pol" --comm "$comm" -f json -o c.json 2>/dev/null
	cmp -s p.json c.json && ok "blame --comm $comm: the same as --pid $pid" ||
		nok "blame --comm $comm" "$(jget c.json "d['steals'] + d['flips']")"
	"$fv" blame "$pol" --comm no-such-task -f json -o none.json 2>/dev/null
	[ "$(jget none.json "d['steals'] + d['flips'] + len(d['groups'])")" = 0 ] &&
		ok "blame --comm of no task: nothing ranked" || nok "blame --comm no-such-task"
else
	nok "fixture v2-polluter.dat missing"
fi

# ---- option value types: choice, number with range, flag
expect "--top beyond its range, 64" 64 \
	"fragview: blame: bad count '1000001' (want a whole number from 0 to 1000000) (see 'fragview blame --help')" \
	-- "$fv" blame mob.dat --top 1000001
expect "--top not a number, 64" 64 \
	"fragview: blame: bad count '-1' (want a whole number from 0 to 1000000) (see 'fragview blame --help')" \
	-- "$fv" blame mob.dat -n -1
expect "--by not a choice, 64" 64 \
	"fragview: blame: bad grouping 'cpu' (want stack, task or site) (see 'fragview blame --help')" \
	-- "$fv" blame mob.dat --by cpu
expect "a flag given a value, 64" 64 \
	"fragview: compact: option '--timeline' takes no value (see 'fragview compact --help')" \
	-- "$fv" compact mob.dat --timeline=yes

# ---- the pager: on a terminal only, --no-pager, PAGER, LESS
PAGER='sed s/^/PAGED:/' tty_run "'$fv' stats mob.dat" > p1.txt
grep -q '^PAGED:Events:' p1.txt && ok "a terminal: the text goes through \$PAGER" ||
	nok "no pager on a terminal" "$(head -2 p1.txt)"
FRAGVIEW_PAGER='sed s/^/FV:/' PAGER='sed s/^/PAGED:/' tty_run "'$fv' check mob.dat" > p2.txt
grep -q '^FV:check: 256 blocks' p2.txt && ok "FRAGVIEW_PAGER wins over PAGER" ||
	nok "FRAGVIEW_PAGER" "$(head -2 p2.txt)"
PAGER='sed s/^/PAGED:/' tty_run "'$fv' --no-pager stats mob.dat" > p3.txt
grep -q '^Events:' p3.txt && ! grep -q PAGED p3.txt &&
	ok "--no-pager: no pager on a terminal" || nok "--no-pager" "$(head -2 p3.txt)"
PAGER='sed s/^/PAGED:/' "$fv" stats mob.dat > p4.txt
grep -q '^Events:' p4.txt && ! grep -q PAGED p4.txt &&
	ok "not a terminal: no pager" || nok "pager into a pipe"
PAGER='sed s/^/PAGED:/' tty_run "'$fv' stats mob.dat -o p5.txt" > /dev/null
grep -q '^Events:' p5.txt && ! grep -q PAGED p5.txt &&
	ok "-o FILE: no pager" || nok "pager with -o"
(unset LESS; PAGER='echo "LESS=$LESS"; cat >/dev/null' tty_run "'$fv' stats mob.dat") > p6.txt
LESS=R PAGER='echo "LESS=$LESS"; cat >/dev/null' tty_run "'$fv' stats mob.dat" > p7.txt
grep -q '^LESS=FRX' p6.txt && grep -q '^LESS=R' p7.txt &&
	ok "LESS=FRX unless LESS is set, as git" || nok "LESS" "$(cat p6.txt p7.txt)"
PAGER='cat -' tty_run "'$fv' --no-pager map mob.dat" > w1.txt
PAGER='cat -' tty_run "'$fv' map mob.dat" > w2.txt
cmp -s w1.txt w2.txt && ok "a paged map is the terminal's map (colour, width)" ||
	nok "paged map differs" "$(diff w1.txt w2.txt | head -3)"

# ---- a reader that stops reading: SIGPIPE, silently (exit 141 in a shell)
# closed PIPE_SIGNAL: fragview stats into a pipe nobody reads, SIGPIPE
# as the caller left it (default or ignored): "status stderr"
closed() {
	python3 - "$fv" "$1" <<'PY'
import os, signal, subprocess, sys
r, w = os.pipe()
os.close(r)
ignore = sys.argv[2] == "ignored"
p = subprocess.run([sys.argv[1], "stats", "mob.dat"], stdout=w,
                   stderr=subprocess.PIPE,
                   preexec_fn=(lambda: signal.signal(signal.SIGPIPE,
                                                     signal.SIG_IGN))
                   if ignore else None)
print(p.returncode, repr(p.stderr.decode()))
PY
}
for how in default ignored; do
	got=$(closed $how)
	[ "$got" = "-13 ''" ] &&
		ok "stats into a closed pipe (SIGPIPE $how by the caller): killed by SIGPIPE, silent" ||
		nok "closed pipe, SIGPIPE $how" "$got"
done

# ---- fragview help CMD: man -l on the page beside the binary
mkdir -p fakeman
printf '#!/bin/sh\necho "man $*"\n' > fakeman/man
chmod +x fakeman/man
out=$(PATH=$tmp/fakeman:$PATH "$fv" help map 2>&1)
page=$(dirname "$fv")/Documentation/fragview-map.1
[ "$out" = "man -l $page" ] && ok "help map: man -l $(basename "$page")" ||
	nok "help map" "got: $out" "want: man -l $page"
out=$(PATH=/nonexistent "$fv" help map 2>&1)
[ "$(echo "$out" | head -1)" = "$("$fv" map --help | head -1)" ] &&
	ok "help map without man: the --help text" || nok "help without man" "$out"
expect "help of no command, 64" 64 \
	"fragview: 'frob' is not a fragview command (see 'fragview --help')" \
	-- "$fv" help frob
if command -v man > /dev/null; then
	MANWIDTH=80 "$fv" help stats 2>/dev/null | grep -q '^FRAGVIEW-STATS(1)' &&
		ok "help stats renders fragview-stats(1)" || nok "help stats with man"
fi

# ---- bash completion, from the option tables
comp() {	# comp WORDS...: COMPREPLY for the last word
	PATH=$(dirname "$fv"):$PATH bash -c '
		. "$1"; shift
		COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _fragview
		printf "%s\n" "${COMPREPLY[@]}"' _ \
		"$here/../completion/fragview.bash" "$@"
}
[ "$(comp fragview "")" = "$("$fv" --list-commands)" ] &&
	comp fragview "" | grep -qx blame && comp fragview "" | grep -qx explain &&
	comp fragview "" | grep -qx help &&
	ok "completion: the commands" || nok "completion: commands" "$(comp fragview "")"
[ "$(comp fragview map --v)" = "--view" ] && ok "completion: map --v -> --view" ||
	nok "completion: map --v" "$(comp fragview map --v)"
[ "$(comp fragview map --view "" | tr '\n' ' ')" = "type free order pollution steals " ] &&
	ok "completion: --view's values" || nok "completion: --view values" "$(comp fragview map --view "")"
[ "$(comp fragview map --color = al)" = "always" ] &&
	ok "completion: --color=al -> always" || nok "completion: --color=" "$(comp fragview map --color = al)"
[ "$(comp fragview stats -i mob.d)" = "mob.dat" ] && ok "completion: -i completes files" ||
	nok "completion: -i FILE" "$(comp fragview stats -i mob.d)"
[ -z "$(comp fragview stats --vi)" ] && ok "completion: stats has no --view" ||
	nok "completion: stats --vi" "$(comp fragview stats --vi)"
# every option -h lists is offered
for c in map stats check dump blame compact explain; do
	"$fv" $c --help | sed -En 's/^  (-[[:alnum:]], )? *(--[[:alnum:]-]+).*/\2/p' | sort > h.txt
	comp fragview $c -- | sort > l.txt
	[ -s h.txt ] && cmp -s h.txt l.txt && ok "completion: $c offers every option of -h" ||
		nok "completion: $c options" "$(diff h.txt l.txt | head -4)"
done
