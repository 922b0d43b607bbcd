#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# description: the kernel series applies in order to Debian's 6.1 and every
# patch is a proper mail: From/Subject "mm: "/Signed-off-by, checkpatch clean.
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
cache=${FRAGVIEW_CACHE:-/var/cache/fragview}
pristine=$cache/linux-source-6.1
series=$top/kernel-patches/series
n=0 bad=0

result() {	# result STATUS NAME [detail...]
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $n - $2"
	else
		bad=$((bad + 1))
		echo "not ok $n - $2"
		shift 2
		[ $# -gt 0 ] && printf '# %s\n' "$@"
	fi
}

if [ ! -f "$series" ]; then
	echo "not ok 1 - kernel-patches/series exists"
	exit 1
fi
if [ ! -d "$pristine" ]; then
	mkdir -p "$cache"
	tar -C "$cache" -xf /usr/src/linux-source-6.1.tar.xz || exit 1
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -al "$pristine" "$work/linux"

mapfile -t patches < <(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$series")
result $(( ${#patches[@]} > 0 ? 0 : 1 )) "series lists patches (${#patches[@]})"

for p in "${patches[@]}"; do
	f=$top/kernel-patches/$p
	hdr=0 why=()
	grep -q '^From: .*<.*@.*>' "$f" || { hdr=1; why+=("no From: with address"); }
	grep -Eq '^Subject: (\[PATCH[^]]*\] )?mm: ' "$f" || { hdr=1; why+=("Subject is not 'mm: ...'"); }
	grep -q '^Signed-off-by: .*<.*@.*>' "$f" || { hdr=1; why+=("no Signed-off-by"); }
	# a rationale: some prose between the headers and the first diff
	body=$(sed -n '/^Subject:/,/^---$/p' "$f" | grep -cv '^\(Subject:\|Signed-off-by:\|---\|\)$')
	[ "$body" -ge 2 ] || { hdr=1; why+=("no rationale in the body"); }
	result $hdr "$p: mail headers and rationale" "${why[@]}"

	out=$(cd "$work/linux" && patch -p1 -s --no-backup-if-mismatch <"$f" 2>&1)
	result $? "$p: applies in order" "$out"

	cp=$(cd "$work/linux" && perl scripts/checkpatch.pl --no-tree --no-color -q "$f" 2>&1)
	st=$?
	mapfile -t cpw < <(echo "$cp" | grep -E '^(ERROR|WARNING|CHECK)' | head -5)
	result $st "$p: checkpatch.pl clean" "${cpw[@]}"
done

# the cover letter: "[PATCH 0/N]" for the N patches of series, naming each
cover=$top/kernel-patches/0000-cover-letter.patch
why=()
if [ ! -f "$cover" ]; then
	why+=("kernel-patches/0000-cover-letter.patch is missing")
else
	grep -Eq "^Subject: \[PATCH 0/${#patches[@]}\] mm: " "$cover" ||
		why+=("Subject is not '[PATCH 0/${#patches[@]}] mm: ...'")
	grep -q '^From: .*<.*@.*>' "$cover" || why+=("no From: with address")
	for p in "${patches[@]}"; do
		subj=$(sed -n 's/^Subject: \[PATCH [0-9]*\/[0-9]*\] //p' "$top/kernel-patches/$p")
		grep -qF "$subj" "$cover" || why+=("does not list '$subj'")
	done
	case " ${patches[*]} " in
	*" 0000-cover-letter.patch "*) why+=("series lists the cover letter, which has no diff") ;;
	esac
fi
result $(( ${#why[@]} > 0 )) "cover letter announces every patch of the series" "${why[@]}"

# the pristine tree must not have been touched through the hard links
if (cd "$pristine" && grep -rqs 'TRACE_SYSTEM mobility' include/trace/events/); then
	result 1 "pristine source untouched by patching"
else
	result 0 "pristine source untouched by patching"
fi

echo "$((n - bad)) passed, $bad failed"
[ "$bad" -eq 0 ]
