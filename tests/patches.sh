#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# description: every base's kernel series (kernel-patches/VER/, against
# Debian's linux-source-VER) applies in order to that base's pristine tree
# and every patch is a proper mail: From/Subject "mm: "/Signed-off-by,
# clean by the base's own checkpatch.pl; the cover letter announces every
# patch.  A base directory without a series is a failure.
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
cache=${FRAGVIEW_CACHE:-/var/cache/fragview}
# shellcheck source=tests/lib/tap.sh
. "$top/tests/lib/tap.sh"
# shellcheck source=qemu/kernel-base.sh
. "$top/qemu/kernel-base.sh"
# detail_result STATUS NAME [detail...]: details as "#" lines under a failure
detail_result() {
	result "$1" "$2"
	[ "$1" -eq 0 ] || { shift 2; [ $# -gt 0 ] && printf '# %s\n' "$@"; }
	return 0
}

# cover_problems COVER DIR PATCH...: one line per way COVER fails to
# announce the series ("[PATCH 0/N]" for its N patches, From:, every
# patch's subject; the patches in DIR)
cover_problems() {
	local cover=$1 dir=$2 p subj
	shift 2
	if [ ! -f "$cover" ]; then
		echo "$cover is missing"
		return
	fi
	grep -Eq "^Subject: \[PATCH 0/$#\] mm: " "$cover" ||
		echo "Subject is not '[PATCH 0/$#] mm: ...'"
	grep -q '^From: .*<.*@.*>' "$cover" || echo "no From: with address"
	for p in "$@"; do
		subj=$(sed -n 's/^Subject: \[PATCH [0-9]*\/[0-9]*\] //p' "$dir/$p")
		grep -qF "$subj" "$cover" || echo "does not list '$subj'"
	done
	case " $* " in
	*" 0000-cover-letter.patch "*) echo "series lists the cover letter, which has no diff" ;;
	esac
}

# check_base VER: the checks of kernel-patches/VER/ against linux-source-VER
check_base() {
	local b=$1 dir=$top/kernel-patches/$1 pristine=$cache/linux-source-$1
	local work p f hdr why body out cp st cpw patches cover
	if [ ! -f "$dir/series" ]; then
		result 1 "kernel-patches/$b/series exists"
		return
	fi
	if [ ! -d "$pristine" ]; then
		mkdir -p "$cache"
		if ! out=$(tar -C "$cache" -xf "/usr/src/linux-source-$b.tar.xz" 2>&1); then
			result 1 "$b: /usr/src/linux-source-$b.tar.xz extracts: $(head -n 1 <<<"$out")"
			return
		fi
	fi

	# a hard-link farm must sit on the pristine tree's file system (/tmp
	# may be a tmpfs); a failed copy is a failure, not a silent half tree
	work=$(mktemp -d "$cache/.patches.XXXXXX")
	if ! cp -al "$pristine" "$work/linux" 2> "$work/cp.err"; then
		result 1 "$b: hard-link copy of the pristine tree: $(head -n 1 "$work/cp.err")"
		rm -rf "$work"
		return
	fi

	mapfile -t patches < <(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$dir/series")
	result $(( ${#patches[@]} > 0 ? 0 : 1 )) "$b: series lists patches (${#patches[@]})"

	for p in "${patches[@]}"; do
		f=$dir/$p
		hdr=0 why=()
		grep -q '^From: .*<.*@.*>' "$f" || { hdr=1; why+=("no From: with address"); }
		grep -Eq '^Subject: (\[PATCH[^]]*\] )?mm: ' "$f" || { hdr=1; why+=("Subject is not 'mm: ...'"); }
		grep -q '^Signed-off-by: .*<.*@.*>' "$f" || { hdr=1; why+=("no Signed-off-by"); }
		# a rationale: some prose between the headers and the first diff
		body=$(sed -n '/^Subject:/,/^---$/p' "$f" | grep -cv '^\(Subject:\|Signed-off-by:\|---\|\)$')
		[ "$body" -ge 2 ] || { hdr=1; why+=("no rationale in the body"); }
		detail_result $hdr "$b/$p: mail headers and rationale" "${why[@]}"

		out=$(cd "$work/linux" && patch -p1 -s --no-backup-if-mismatch <"$f" 2>&1)
		detail_result $? "$b/$p: applies in order" "$out"

		# the base's own checkpatch.pl: its rules are those of that kernel
		cp=$(cd "$work/linux" && perl scripts/checkpatch.pl --no-tree --no-color -q "$f" 2>&1)
		st=$?
		mapfile -t cpw < <(echo "$cp" | grep -E '^(ERROR|WARNING|CHECK)' | head -5)
		detail_result $st "$b/$p: checkpatch.pl of $b clean" "${cpw[@]}"
	done

	cover=$dir/0000-cover-letter.patch
	mapfile -t why < <(cover_problems "$cover" "$dir" "${patches[@]}")
	detail_result $(( ${#why[@]} > 0 )) "$b: cover letter announces every patch of the series" "${why[@]}"
	# and the check itself fails on a cover letter that forgot the last patch
	if [ ${#patches[@]} -gt 0 ] && [ -f "$cover" ]; then
		sed "s|^\(Subject: \[PATCH 0/\)[0-9]*|\1$(( ${#patches[@]} - 1 ))|" "$cover" |
			grep -vF "$(sed -n 's/^Subject: \[PATCH [0-9]*\/[0-9]*\] //p' \
				"$dir/${patches[-1]}")" > "$work/short-cover"
		mapfile -t why < <(cover_problems "$work/short-cover" "$dir" "${patches[@]}")
		result $(( ${#why[@]} >= 2 ? 0 : 1 )) "$b: the cover check rejects a cover letter without the last patch (${#why[@]} problems)"
	fi

	# the pristine tree must not have been touched through the hard links
	if (cd "$pristine" && grep -rqs 'TRACE_SYSTEM mobility' include/trace/events/); then
		result 1 "$b: pristine source untouched by patching"
	else
		result 0 "$b: pristine source untouched by patching"
	fi
	rm -rf "$work"
}

bases=$(fv_bases | paste -sd' ')
result "$([ -n "$bases" ] && echo 0 || echo 1)" "kernel-patches/ has bases ($bases)"

# kernel-patches/series, quilt's series of the default base, lists that
# base's series in order, as BASE/NAME
# series_names FILE [PREFIX]: its patch names, comments dropped, PREFIX added
series_names() {
	sed -e 's/#.*//' -e '/^[[:space:]]*$/d' -e "s|^[[:space:]]*|${2:-}|" \
		-e 's/[[:space:]].*//' "$1"
}
want=$(series_names "$top/kernel-patches/$fv_default_base/series" "$fv_default_base/")
got=$(series_names "$top/kernel-patches/series")
result "$([ -n "$want" ] && [ "$got" = "$want" ] && echo 0 || echo 1)" \
	"kernel-patches/series is kernel-patches/$fv_default_base/series ($(wc -l <<<"$got") patches)"
short=$(head -n -1 <<<"$want")
result "$([ "$short" != "$want" ] && [ "$got" != "$short" ] && echo 0 || echo 1)" \
	"the series check rejects a list without the last patch"
for b in $bases; do
	check_base "$b"
done
finish
