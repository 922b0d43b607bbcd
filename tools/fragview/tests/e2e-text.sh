#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# End-to-end tests of text from the capture in every output: a comm the
# kernel cut in the middle of a UTF-8 character that starts like a
# spreadsheet formula (tests/mkcapture.py --comm), read from a file whose
# name is not UTF-8.  Every JSON output must parse (python3 json, strict
# UTF-8), every SVG must parse as XML, every CSV field must read back
# with the formula neutralised, every txt output must be UTF-8 without
# control characters.  Each validator is also run on a doctored output
# and must reject it.  Prints "ok - ..." / "not ok - ...".
#
# usage: tests/e2e-text.sh [FRAGVIEW]    (e2e.sh runs it)
set -u
here=$(cd "$(dirname "$0")" && pwd)
fv=$(realpath "${1:-$here/../fragview}")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1

# shellcheck source=tools/fragview/tests/e2e-lib.sh
. "$here/e2e-lib.sh"

# 15 bytes: '=', a quoted comma, an e-acute, the first 2 bytes of a euro sign
comm='=cmd|"a,b"\xc3\xa9\xe2\x82'
python3 "$here/mkcapture.py" mobility cap.dat --comm "$comm" 2>/dev/null ||
	nok "mkcapture --comm"
cap=$'cap\xff<&>.dat'		# a file name that is not UTF-8
mv cap.dat "$cap"
# what the comm must read as: invalid bytes are U+FFFD, one per byte
want_comm='=cmd|"a,b"\u00e9\ufffd\ufffd'
# jis FILE.json EXPR: EXPR (of d, the document) equals want_comm
jis() {
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1], encoding="utf-8"))
sys.exit(eval(sys.argv[2]) != sys.argv[3].encode().decode("unicode_escape"))' "$@"
}
# the compaction capture, for compact's title
compact_cap=$here/../../../tests/fixtures/v2-compact.dat
[ -e "$compact_cap" ] && ln -s "$compact_cap" $'compact\xff<&>.dat'

# valid_json FILE: RFC 8259 text in strict UTF-8
valid_json() {
	python3 -c 'import json,sys; json.loads(open(sys.argv[1], "rb").read().decode())' "$1" \
		2>/dev/null && python3 -m json.tool "$1" >/dev/null 2>&1
}
# has_schema FILE: a JSON object whose first member is "schema":1
has_schema() {
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1], encoding="utf-8"))
sys.exit(not (isinstance(d, dict) and list(d)[:1] == ["schema"] and d["schema"] == 1))' "$1" 2>/dev/null
}
# valid_xml FILE: well-formed XML
valid_xml() {
	python3 -c 'import sys, xml.etree.ElementTree as E; E.parse(sys.argv[1])' "$1" 2>/dev/null
}
# safe_csv FILE: RFC 4180 in strict UTF-8, no field a formula (a number
# may start with '-')
safe_csv() {
	python3 - "$1" <<'PY' 2>/dev/null
import csv, io, re, sys
text = open(sys.argv[1], "rb").read().decode()
for row in csv.reader(io.StringIO(text, newline="")):
    for f in row:
        assert not re.match(r"[=+@\t\r]", f) and not re.match(r"-(?![0-9.]+$)", f), f
PY
}
# safe_txt FILE: strict UTF-8, no control characters but newline
safe_txt() {
	python3 -c '
import re, sys
t = open(sys.argv[1], "rb").read().decode()
sys.exit(1 if re.search("[\x00-\x09\x0b-\x1f\x7f-\x9f]", t) else 0)' "$1" 2>/dev/null
}

# every validator rejects a doctored file: it can fail
printf '{"comm":"a\xe2\x82"}\n' >bad.json
printf '{"comm":"a\n"}\n' >bad2.json
echo '{"a":"\u00e9"}' >good.json
! valid_json bad.json && ! valid_json bad2.json && valid_json good.json &&
	ok "validator: JSON with a cut character or a raw newline is rejected" ||
	nok "validator: JSON"
echo '{"a":1,"schema":1}' >late.json
echo '{"schema":2}' >two.json
! has_schema good.json && ! has_schema late.json && ! has_schema two.json &&
	echo '{"schema":1,"a":1}' >good.json && has_schema good.json &&
	ok "validator: JSON without \"schema\":1 first is rejected" ||
	nok "validator: schema"
printf '<svg><title>a\xe2\x82</title></svg>\n' >bad.svg
printf '<svg><title>a<&</title></svg>\n' >bad2.svg
! valid_xml bad.svg && ! valid_xml bad2.svg &&
	ok "validator: SVG with a cut character or a raw < & is rejected" ||
	nok "validator: SVG"
printf 'k,v\n=cmd,1\n' >bad.csv
printf 'k,v\nx\xe2\x82,1\n' >bad2.csv
printf 'k,v\n-x,-1\n' >bad3.csv
! safe_csv bad.csv && ! safe_csv bad2.csv && ! safe_csv bad3.csv &&
	printf 'k,v\n"'"'"'=x",-1.5\n' >good.csv && safe_csv good.csv &&
	ok "validator: CSV with a formula or a cut character is rejected" ||
	nok "validator: CSV"
printf 'a\x1b[31mb\n' >bad.txt
printf 'a\xe2\x82\n' >bad2.txt
! safe_txt bad.txt && ! safe_txt bad2.txt &&
	ok "validator: txt with an escape sequence or a cut character is rejected" ||
	nok "validator: txt"

# ---- every JSON output parses, and has the comm
# (compact: the title only, from the compaction fixture)
for args in "blame" "blame --top 0" "stats" "compact" "compact --timeline"; do
	c=$cap
	case $args in compact*)
		[ -e "$compact_cap" ] || continue
		c=$'compact\xff<&>.dat' ;;
	esac
	# shellcheck disable=SC2086
	"$fv" $args "$c" -f json >out.json 2>/dev/null
	valid_json out.json && ok "$args -f json: valid JSON" ||
		nok "$args -f json: not JSON" "$(head -c 300 out.json | od -c | head -5)"
	has_schema out.json && ok "$args -f json: \"schema\":1 first" ||
		nok "$args -f json: no schema" "$(head -c 100 out.json)"
done
"$fv" blame "$cap" -f json >blame.json 2>/dev/null
jis blame.json 'd["groups"][0]["task"]["comm"]' "$want_comm" &&
	jis blame.json 'd["capture"]' 'cap\ufffd<&>.dat' &&
	ok "blame json: the comm and the file name with U+FFFD for each invalid byte" ||
	nok "blame json: comm" "$(jget blame.json 'd["groups"][0]["task"]')"
"$fv" stats "$cap" -f json >stats.json 2>/dev/null
jis stats.json 'd["polluters"]["task"][0]["task"]["comm"]' "$want_comm" &&
	ok "stats json: the polluter's comm" ||
	nok "stats json: comm" "$(jget stats.json 'd["polluters"]')"

# ---- CSV: read back as written, the formula neutralised
for args in "blame" "stats"; do
	# shellcheck disable=SC2086
	"$fv" $args "$cap" -f csv >out.csv 2>/dev/null
	safe_csv out.csv && ok "$args -f csv: RFC 4180, UTF-8, no formula" ||
		nok "$args -f csv" "$(head -3 out.csv)"
done
"$fv" blame "$cap" -f csv >blame.csv 2>/dev/null
python3 - blame.csv "$want_comm" <<'PY' && ok "blame csv: the comm reads back behind a '" ||
import csv, sys
rows = list(csv.reader(open(sys.argv[1], encoding="utf-8", newline="")))
want = "'" + sys.argv[2].encode().decode("unicode_escape") + "-1"
assert rows[1][2] == want and rows[1][8] == want, (rows[1], want)
assert all(len(r) == 14 for r in rows)
PY
	nok "blame csv: comm" "$(cat blame.csv)"

# ---- txt: UTF-8, no control characters
for args in "blame" "stats" "compact"; do
	c=$cap
	case $args in compact*)
		[ -e "$compact_cap" ] || continue
		c=$'compact\xff<&>.dat' ;;
	esac
	# shellcheck disable=SC2086
	"$fv" $args "$c" >out.txt 2>/dev/null
	safe_txt out.txt && ok "$args txt: UTF-8 without control characters" ||
		nok "$args txt" "$(head -3 out.txt | od -c | head)"
done

# ---- txt of the table commands within 100 columns, on every fixture
# fits_100 FILE: no line longer than 100 characters (UTF-8)
fits_100() {
	python3 -c 'import sys
sys.exit(any(len(l) > 100 for l in open(sys.argv[1], encoding="utf-8").read().split("\n")))' "$1" 2>/dev/null
}
printf '%101s\n' x >wide.txt
! fits_100 wide.txt && ok "validator: a line of 101 columns is rejected" ||
	nok "validator: 100 columns"
for f in "$here"/../../../tests/fixtures/*.dat; do
	wide=""
	for args in "stats" "compact" "compact --timeline" "blame"; do
		# shellcheck disable=SC2086
		"$fv" $args "$f" >out.txt 2>/dev/null
		fits_100 out.txt || wide="$wide, $args"
	done
	[ -z "$wide" ] && ok "$(basename "$f"): stats, compact, blame txt within 100 columns" ||
		nok "$(basename "$f"): txt wider than 100 columns: ${wide#, }"
done

# ---- the maps: SVG is XML, HTML is UTF-8, the title with U+FFFD
"$fv" map "$cap" -f svg >map.svg 2>/dev/null
valid_xml map.svg &&
	python3 -c 'import sys, xml.etree.ElementTree as E
t = E.parse(sys.argv[1]).getroot().find("{http://www.w3.org/2000/svg}title").text
assert "cap\ufffd<&>.dat" in t, t' map.svg 2>/dev/null &&
	ok "map svg: well-formed XML, the file name with U+FFFD" ||
	nok "map svg" "$(head -3 map.svg | od -c | head)"
"$fv" map "$cap" -f html >map.html 2>/dev/null
python3 -c 'import sys; open(sys.argv[1], "rb").read().decode()' map.html 2>/dev/null &&
	grep -q 'cap�&lt;&amp;&gt;.dat' map.html &&
	ok "map html: UTF-8, the file name escaped" ||
	nok "map html" "$(grep -a -m1 title map.html)"
