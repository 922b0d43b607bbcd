#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Rewrites the OPTIONS section of fragview's man pages from the option
# tables the binary parses its arguments with ('fragview CMD
# --man-options'); the rest of each page is written by hand.
# fragview-CMD.1 is 'fragview CMD', fragview.1 is fragview itself.
#
# With --check nothing is written: each page whose OPTIONS differ is
# named on stderr with the difference, and the status is 1.
#
# usage: Documentation/gen-man.sh [--check] [--fragview BINARY] [PAGE...]
#        (default: ../fragview and every fragview*.1 beside this script)
set -eu
dir=$(cd "$(dirname "$0")" && pwd)
check=
fv=$dir/../fragview
while [ $# -gt 0 ]; do
	case $1 in
	--check) check=1; shift;;
	--fragview) fv=$2; shift 2;;
	-*) echo "gen-man.sh: unknown option '$1'" >&2; exit 64;;
	*) break;;
	esac
done
[ $# -gt 0 ] || set -- "$dir"/fragview*.1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

status=0
for page in "$@"; do
	name=$(basename "$page" .1)
	cmd=${name#fragview}
	cmd=${cmd#-}
	# $cmd is empty for fragview.1: the binary's own options
	# shellcheck disable=SC2086
	"$fv" $cmd --man-options > "$tmp/options"
	# the generated section replaces ".SH OPTIONS" up to the next .SH
	if ! awk -v gen="$tmp/options" '
		/^\.SH OPTIONS$/ {
			while ((getline line < gen) > 0)
				print line
			found = 1; skip = 1; next
		}
		skip && /^\.SH / { skip = 0 }
		!skip { print }
		END { exit !found }' "$page" > "$tmp/page"; then
		echo "$page: no .SH OPTIONS line to put the options under" >&2
		status=1
		continue
	fi
	cmp -s "$page" "$tmp/page" && continue
	if [ -n "$check" ]; then
		echo "$page: OPTIONS differ from" \
		     "'fragview${cmd:+ $cmd} --man-options'" \
		     "(run Documentation/gen-man.sh):" >&2
		diff -u "$page" "$tmp/page" | sed 1,2d >&2 || true
		status=1
	else
		cat "$tmp/page" > "$page"
		echo "$page: OPTIONS rewritten"
	fi
done
exit $status
