#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The man pages against the option tables the binary parses with: the
# OPTIONS section of each Documentation/fragview*.1 must be what
# 'fragview CMD --man-options' prints (Documentation/gen-man.sh --check),
# and every option 'fragview CMD -h' lists must be in the page's OPTIONS
# and, but --help, in its SYNOPSIS.  Doctored copies of a page (an
# option taken out) must be reported.  Prints "ok - ..." / "not ok - ...".
#
# usage: tests/man-sync.sh [FRAGVIEW]    (e2e.sh runs it)
set -u
here=$(cd "$(dirname "$0")" && pwd)
fv=$(realpath "${1:-$here/../fragview}")
doc=$here/../Documentation
gen=$doc/gen-man.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

ok() { echo "ok - $1"; }
nok() { echo "not ok - $1"; shift; for l in "$@"; do echo "  $l" >&2; done; }

# the command a page documents: fragview-map.1 -> map, fragview.1 -> ""
page_cmd() { local n; n=$(basename "$1" .1); n=${n#fragview}; echo "${n#-}"; }

# section PAGE NAME: the lines of ".SH NAME" up to the next .SH
section() {
	awk -v s="$2" '$0 == ".SH " s { on = 1; next }
		on && /^\.SH / { on = 0 } on' "$1"
}

# has_word FILE WORD: WORD stands in FILE, followed by a space, a quote
# or the end of the line (so \-\-at is not found in \-\-atime)
has_word() {
	W=$2 awk 'BEGIN { w = ENVIRON["W"] }
		{
			for (s = $0; (i = index(s, w)); s = substr(s, i + 1)) {
				c = substr(s, i + length(w), 1)
				if (c == "" || c == " " || c == "\"")
					found = 1
			}
		}
		END { exit !found }' "$1"
}

# help_vs_page CMD PAGE: prints what -h lists and the page lacks
help_vs_page() {
	local cmd=$1 page=$2 short long heads n=0
	# shellcheck disable=SC2086
	"$fv" $cmd --help > "$tmp/help" ||
		{ echo "'fragview $cmd --help' failed"; return; }
	# the line after each .TP: the option's name(s) in roff
	section "$page" OPTIONS |
		awk 'tp { print; tp = 0 } /^\.TP$/ { tp = 1 }' > "$tmp/heads"
	section "$page" SYNOPSIS > "$tmp/synopsis"
	# "--long -s" or "--long": an option without a short name must not
	# leave its long name in $short
	while read -r long short; do
		n=$((n + 1))
		has_word "$tmp/heads" "${long//-/\\-}" ||
			echo "$long is not in OPTIONS"
		[ -z "$short" ] || has_word "$tmp/heads" "${short//-/\\-}" ||
			echo "$short is not in OPTIONS"
		[ "$long" = --help ] ||
			has_word "$tmp/synopsis" "${long//-/\\-}" ||
			echo "$long is not in SYNOPSIS"
	done < <(sed -En 's/^  (-[[:alnum:]])?(, )? *(--[[:alnum:]-]+).*/\3 \1/p' \
		 "$tmp/help")
	[ "$n" -gt 0 ] || echo "no option found in 'fragview $cmd --help'"
	heads=$(wc -l < "$tmp/heads")
	[ "$heads" = "$n" ] ||
		echo "OPTIONS has $heads options, 'fragview $cmd --help' $n"
}

for page in "$doc"/fragview*.1; do
	p=$(basename "$page")
	cmd=$(page_cmd "$page")
	if "$gen" --check --fragview "$fv" "$page" 2> "$tmp/err"; then
		ok "$p: OPTIONS are what 'fragview${cmd:+ $cmd} --man-options' prints"
	else
		nok "$p: OPTIONS out of sync (run Documentation/gen-man.sh)" \
			"$(head -20 "$tmp/err")"
	fi
	miss=$(help_vs_page "$cmd" "$page")
	[ -z "$miss" ] &&
		ok "$p: every option of 'fragview${cmd:+ $cmd} -h' is in it" ||
		nok "$p: options of -h missing" "$miss"
done

# ---- a doctored fragview-map.1 must be caught
mkdir "$tmp/doc"
cp "$doc/fragview-map.1" "$tmp/doc/fragview-map.1"
# --zone's .TP paragraph taken out of OPTIONS
awk '/^\.(TP|SH)/ { drop = 0 }
	/^\.TP$/ { tp = 1; next }
	tp { tp = 0; if (index($0, "\\-\\-zone")) { drop = 1; next }; print ".TP" }
	!drop' "$doc/fragview-map.1" > "$tmp/doc/fragview-map.1"
if cmp -s "$doc/fragview-map.1" "$tmp/doc/fragview-map.1" ||
   section "$tmp/doc/fragview-map.1" OPTIONS | grep -q -- '\\-\\-zone'; then
	nok "doctoring fragview-map.1 (no --zone in OPTIONS)"
fi
"$gen" --check --fragview "$fv" "$tmp/doc/fragview-map.1" 2> "$tmp/err"
rc=$?
[ $rc = 1 ] &&
	grep -q "^$tmp/doc/fragview-map.1: OPTIONS differ from 'fragview map --man-options'" \
		"$tmp/err" &&
	grep -q '^+.*\\-\\-zone' "$tmp/err" &&
	ok "gen-man.sh --check: a page without --zone in OPTIONS is out of sync" ||
	nok "gen-man.sh --check missed the doctored page" "status $rc" \
		"$(cat "$tmp/err")"
miss=$(help_vs_page map "$tmp/doc/fragview-map.1")
printf '%s\n' "$miss" | grep -qx -- "--zone is not in OPTIONS" &&
	ok "-h vs page: --zone missing from OPTIONS is reported" ||
	nok "-h vs page missed --zone in OPTIONS" "$miss"
"$gen" --fragview "$fv" "$tmp/doc/fragview-map.1" >/dev/null &&
	cmp -s "$doc/fragview-map.1" "$tmp/doc/fragview-map.1" &&
	ok "gen-man.sh puts --zone back: the page equals the committed one" ||
	nok "gen-man.sh did not restore the doctored page" \
		"$(diff "$doc/fragview-map.1" "$tmp/doc/fragview-map.1" | head)"
# --output taken out of the SYNOPSIS
sed '/^\.SH SYNOPSIS$/,/^\.SH /{/^\.RB \[ \\-\\-output$/,/^\.IR FILE \]$/d}' \
	"$doc/fragview-map.1" > "$tmp/doc/fragview-map.1"
miss=$(help_vs_page map "$tmp/doc/fragview-map.1")
[ "$miss" = "--output is not in SYNOPSIS" ] &&
	ok "-h vs page: --output missing from SYNOPSIS is reported" ||
	nok "-h vs page missed --output in SYNOPSIS" "$miss"
