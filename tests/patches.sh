#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# description: the kernel series applies in order to Debian's 6.1 and every
# patch is a proper mail: From/Subject "mm: "/Signed-off-by, checkpatch clean.
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
cache=${FRAGVIEW_CACHE:-/var/cache/fragview}
pristine=$cache/linux-source-6.1
series=$top/kernel-patches/6.1/series
# shellcheck source=tests/lib/tap.sh
. "$top/tests/lib/tap.sh"
# detail_result STATUS NAME [detail...]: details as "#" lines under a failure
detail_result() {
	result "$1" "$2"
	[ "$1" -eq 0 ] || { shift 2; [ $# -gt 0 ] && printf '# %s\n' "$@"; }
	return 0
}

if [ ! -f "$series" ]; then
	result 1 "kernel-patches/6.1/series exists"
	finish
fi
if [ ! -d "$pristine" ]; then
	mkdir -p "$cache"
	tar -C "$cache" -xf /usr/src/linux-source-6.1.tar.xz || exit 1
fi

# a hard-link farm must sit on the pristine tree's file system (/tmp may
# be a tmpfs); a failed copy is a failure, not a silent half tree
work=$(mktemp -d "$cache/.patches.XXXXXX")
trap 'rm -rf "$work"' EXIT
if ! cp -al "$pristine" "$work/linux" 2> "$work/cp.err"; then
	result 1 "hard-link copy of the pristine tree: $(head -n 1 "$work/cp.err")"
	finish
fi

mapfile -t patches < <(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$series")
result $(( ${#patches[@]} > 0 ? 0 : 1 )) "series lists patches (${#patches[@]})"

for p in "${patches[@]}"; do
	f=$top/kernel-patches/6.1/$p
	hdr=0 why=()
	grep -q '^From: .*<.*@.*>' "$f" || { hdr=1; why+=("no From: with address"); }
	grep -Eq '^Subject: (\[PATCH[^]]*\] )?mm: ' "$f" || { hdr=1; why+=("Subject is not 'mm: ...'"); }
	grep -q '^Signed-off-by: .*<.*@.*>' "$f" || { hdr=1; why+=("no Signed-off-by"); }
	# a rationale: some prose between the headers and the first diff
	body=$(sed -n '/^Subject:/,/^---$/p' "$f" | grep -cv '^\(Subject:\|Signed-off-by:\|---\|\)$')
	[ "$body" -ge 2 ] || { hdr=1; why+=("no rationale in the body"); }
	detail_result $hdr "$p: mail headers and rationale" "${why[@]}"

	out=$(cd "$work/linux" && patch -p1 -s --no-backup-if-mismatch <"$f" 2>&1)
	detail_result $? "$p: applies in order" "$out"

	cp=$(cd "$work/linux" && perl scripts/checkpatch.pl --no-tree --no-color -q "$f" 2>&1)
	st=$?
	mapfile -t cpw < <(echo "$cp" | grep -E '^(ERROR|WARNING|CHECK)' | head -5)
	detail_result $st "$p: checkpatch.pl clean" "${cpw[@]}"
done

# cover_problems COVER: one line per way COVER fails to announce the series
# ("[PATCH 0/N]" for its N patches, From:, every patch's subject)
cover_problems() {
	local cover=$1 p subj
	if [ ! -f "$cover" ]; then
		echo "$cover is missing"
		return
	fi
	grep -Eq "^Subject: \[PATCH 0/${#patches[@]}\] mm: " "$cover" ||
		echo "Subject is not '[PATCH 0/${#patches[@]}] mm: ...'"
	grep -q '^From: .*<.*@.*>' "$cover" || echo "no From: with address"
	for p in "${patches[@]}"; do
		subj=$(sed -n 's/^Subject: \[PATCH [0-9]*\/[0-9]*\] //p' "$top/kernel-patches/6.1/$p")
		grep -qF "$subj" "$cover" || echo "does not list '$subj'"
	done
	case " ${patches[*]} " in
	*" 0000-cover-letter.patch "*) echo "series lists the cover letter, which has no diff" ;;
	esac
}
cover=$top/kernel-patches/6.1/0000-cover-letter.patch
mapfile -t why < <(cover_problems "$cover")
detail_result $(( ${#why[@]} > 0 )) "cover letter announces every patch of the series" "${why[@]}"
# and the check itself fails on a cover letter that forgot the last patch
sed "s|^\(Subject: \[PATCH 0/\)[0-9]*|\1$(( ${#patches[@]} - 1 ))|" "$cover" | grep -vF "$(sed -n 's/^Subject: \[PATCH [0-9]*\/[0-9]*\] //p' \
	"$top/kernel-patches/6.1/${patches[-1]}")" > "$work/short-cover"
mapfile -t why < <(cover_problems "$work/short-cover")
result $(( ${#why[@]} >= 2 ? 0 : 1 )) "the cover check rejects a cover letter without the last patch (${#why[@]} problems)"

# the pristine tree must not have been touched through the hard links
if (cd "$pristine" && grep -rqs 'TRACE_SYSTEM mobility' include/trace/events/); then
	result 1 "pristine source untouched by patching"
else
	result 0 "pristine source untouched by patching"
fi

finish
