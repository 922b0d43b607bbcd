#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# description: fragview installs like a Debian tool.  `make install
# DESTDIR=... PREFIX=/usr` puts fragview, its man pages, its bash
# completion and the KernelShark plugin in the directories where Debian's trace-cmd and kernelshark
# packages put theirs (read from `dpkg -L`), and nothing else; PREFIX is
# honoured.  dpkg-buildpackage -b -us -uc, in a scratch copy of the working
# tree, builds the fragview and kernelshark-plugin-fragview .debs; they are
# extracted into a scratch root, and fragview runs from there (--help,
# --version against debian/changelog, `stats` of a fixture, the same as
# the make-install build), its man pages render with `man -l` and are
# found by name, the plugin resolves its libraries.  Negative: the layout
# check must reject a root with a man page missing and one installed under
# /usr/local.  TAP lines, then "N passed, N failed".
# usage: tests/host/install.sh
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/lib/tap.sh
. "$top/tests/lib/tap.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
logdir=${FRAGVIEW_TESTS_LOG:-$top/out/tests}
mkdir -p "$logdir"
fixture=$top/tests/fixtures/fragment.dat
stamp=$tmp/start
touch "$stamp"

# say FILE: FILE's last lines as TAP comments
say() { tail -n 20 "$1" | sed 's/^/# /'; }

for tool in dpkg-buildpackage dpkg-architecture dh man; do
	command -v "$tool" >/dev/null ||
		{ result 1 "$tool is installed (tools/deps.sh)"; finish; }
done
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
arch=$(dpkg-architecture -qDEB_HOST_ARCH)
version=$(cd "$top" && dpkg-parsechangelog -S Version)

# Where Debian's own packages put their binary, man pages and plugins.
debdir() {	# debdir PACKAGE REGEX: the directory of PACKAGE's first match
	dpkg -L "$1" 2>/dev/null | grep -m1 -E "$2" | xargs -r dirname |
		sed 's|^/||'
}
bindir=$(debdir trace-cmd '/bin/trace-cmd$')
mandir=$(debdir trace-cmd '/man1/trace-cmd\.1\.gz$')
plugindir=$(debdir kernelshark '/kernelshark/plugins/plugin-[^/]*\.so$')
compdir=$(debdir trace-cmd '/bash-completion/completions/trace-cmd[^/]*$')
if [ -z "$bindir" ] || [ -z "$mandir" ] || [ -z "$plugindir" ] ||
   [ -z "$compdir" ]; then
	result 1 "trace-cmd and kernelshark are installed (tools/deps.sh)"
	finish
fi
echo "# Debian's layout: $bindir, $mandir, $plugindir, $compdir"

mapfile -t mans < <(cd "$top/tools/fragview/Documentation" && ls -- *.1)
[ ${#mans[@]} -gt 0 ] || { result 1 "man pages in tools/fragview/Documentation"; finish; }

# expected MODE: the files a root must hold, sorted.  MODE make: `make
# install`; deb: the extracted packages (gzipped man pages, doc files).
expected() {
	local m gz='' p
	[ "$1" = deb ] && gz=.gz
	{
		echo "$bindir/fragview"
		echo "$compdir/fragview"
		for m in "${mans[@]}"; do echo "$mandir/$m$gz"; done
		echo "$plugindir/plugin-mobility.so"
		if [ "$1" = deb ]; then
			for p in fragview kernelshark-plugin-fragview; do
				echo "usr/share/doc/$p/changelog.gz"
				echo "usr/share/doc/$p/copyright"
			done
		fi
	} | sort
}

# layout ROOT MODE: ROOT holds exactly the expected files, fragview
# executable; says what is missing or extra
layout() {
	local root=$1 bad=0 f
	find "$root" \( -type f -o -type l \) -printf '%P\n' | sort > "$tmp/have"
	expected "$2" > "$tmp/want"
	while IFS= read -r f; do
		echo "# $root: missing $f"
		bad=1
	done < <(comm -13 "$tmp/have" "$tmp/want")
	while IFS= read -r f; do
		echo "# $root: unexpected $f"
		bad=1
	done < <(comm -23 "$tmp/have" "$tmp/want")
	if [ -f "$root/$bindir/fragview" ] && [ ! -x "$root/$bindir/fragview" ]; then
		echo "# $root: $bindir/fragview is not executable"
		bad=1
	fi
	return $bad
}

# --- make install
stage=$tmp/stage
make -C "$top" install DESTDIR="$stage" PREFIX=/usr > "$tmp/install.log" 2>&1
rc=$?
[ $rc -eq 0 ] || say "$tmp/install.log"
result $rc "make install DESTDIR=... PREFIX=/usr"
layout "$stage" make
result $? "make install: fragview, ${#mans[@]} man pages, the bash completion and the plugin where trace-cmd and kernelshark keep theirs, nothing else"

# completes ROOT: the installed completion, run on the installed binary,
# offers map's options and the commands
completes() {
	local root=$1
	PATH=$root/$bindir:$PATH bash -c '
		. "$1"
		COMP_WORDS=(fragview ma); COMP_CWORD=1; _fragview
		echo "cmd: ${COMPREPLY[*]}"
		COMP_WORDS=(fragview map --vi); COMP_CWORD=2; _fragview
		echo "opt: ${COMPREPLY[*]}"
		COMP_WORDS=(fragview map --view st); COMP_CWORD=3; _fragview
		echo "val: ${COMPREPLY[*]}"' _ "$root/$compdir/fragview"
}
completes "$stage" > "$tmp/complete" 2>&1
printf 'cmd: map\nopt: --view\nval: steals\n' | cmp -s - "$tmp/complete"
rc=$?
[ $rc -eq 0 ] || say "$tmp/complete"
result $rc "make install: the bash completion completes commands, options and their values"

staged_fv=$stage/$bindir/fragview
# (the first line; the next ones name the libtracecmd it runs on)
out=$("$staged_fv" --version 2>&1 | head -n 1)
[ "$out" = "fragview $version" ]
result $? "make install: fragview --version is the package's version ($out; debian/changelog: $version)"

local_stage=$tmp/local
make -C "$top" install DESTDIR="$local_stage" PREFIX=/usr/local \
	> "$tmp/install-local.log" 2>&1 &&
	[ -x "$local_stage/usr/local/bin/fragview" ] &&
	[ -f "$local_stage/usr/local/share/man/man1/fragview.1" ] &&
	[ -f "$local_stage/usr/local/lib/$multiarch/kernelshark/plugins/plugin-mobility.so" ]
result $? "make install PREFIX=/usr/local: everything under usr/local"
layout "$local_stage" make > "$tmp/neg-local" 2>&1
rc=$?
[ $rc -ne 0 ] && grep -q "missing $bindir/fragview" "$tmp/neg-local" &&
	grep -q 'unexpected usr/local/bin/fragview' "$tmp/neg-local"
result $? "negative: the layout check rejects an install under /usr/local"

# --- the Debian packages, built in a scratch copy of the working tree
src=$tmp/build/fragview-$version
mkdir -p "$src"
(cd "$top" && git ls-files -z -c -o --exclude-standard |
	while IFS= read -r -d '' f; do
		[ -e "$f" ] && printf '%s\0' "$f"
	done | tar --null -T - -cf -) | tar -C "$src" -xf -
[ -x "$src/debian/rules" ] && [ -f "$src/tools/fragview/Makefile" ]
result $? "scratch copy of the working tree"

buildlog=$logdir/install-dpkg-buildpackage.log
(cd "$src" && dpkg-buildpackage -b -us -uc) > "$buildlog" 2>&1
rc=$?
[ $rc -eq 0 ] || say "$buildlog"
result $rc "dpkg-buildpackage -b -us -uc (log $buildlog)"

debs=()
for p in fragview kernelshark-plugin-fragview; do
	d=$tmp/build/${p}_${version}_$arch.deb
	[ -f "$d" ] && debs+=("$d")
done
[ ${#debs[@]} -eq 2 ]
result $? "built fragview_${version}_$arch.deb and kernelshark-plugin-fragview_${version}_$arch.deb"
[ ${#debs[@]} -eq 2 ] || finish

fv_deps=$(dpkg-deb -f "$tmp/build/fragview_${version}_$arch.deb" Depends)
ks_deps=$(dpkg-deb -f "$tmp/build/kernelshark-plugin-fragview_${version}_$arch.deb" Depends)
[[ $fv_deps =~ (^|, )libtracecmd ]] && [[ $ks_deps =~ (^|, )kernelshark( |,|$) ]]
result $? "dependencies: fragview on libtracecmd, the plugin on kernelshark"

root=$tmp/root
mkdir -p "$root"
rc=0
for d in "${debs[@]}"; do dpkg-deb -x "$d" "$root" || rc=1; done
result $rc "dpkg-deb -x the packages into a scratch root"
layout "$root" deb
result $? "packages: fragview, ${#mans[@]} gzipped man pages, the bash completion, the plugin and their doc files where Debian keeps them, nothing else"
completes "$root" > "$tmp/complete" 2>&1
printf 'cmd: map\nopt: --view\nval: steals\n' | cmp -s - "$tmp/complete"
result $? "package: the bash completion completes commands, options and their values"
# fragview help opens the installed, gzipped page (a man that says how it was called)
mkdir -p "$tmp/fakeman"
printf '#!/bin/sh\necho "man $*"\n' > "$tmp/fakeman/man"
chmod +x "$tmp/fakeman/man"
out=$(PATH=$tmp/fakeman:$PATH "$root/$bindir/fragview" help stats 2>&1)
[ "$out" = "man -l $root/$bindir/../share/man/man1/fragview-stats.1.gz" ]
result $? "package: fragview help stats opens its installed page ($out)"

fv=$root/$bindir/fragview
"$fv" --help > "$tmp/help" 2>&1 && grep -q '^usage: fragview' "$tmp/help"
result $? "installed fragview --help"
out=$("$fv" --version 2>&1 | head -n 1)
[ "$out" = "fragview $version" ]
result $? "installed fragview --version: $out"
"$fv" stats "$fixture" > "$tmp/stats.deb" 2>&1 &&
	grep -q '^Events:' "$tmp/stats.deb" &&
	"$staged_fv" stats "$fixture" > "$tmp/stats.make" 2>&1 &&
	cmp -s "$tmp/stats.deb" "$tmp/stats.make"
rc=$?
[ $rc -eq 0 ] || head -n 5 "$tmp/stats.deb" | sed 's/^/# /'
result $rc "installed fragview stats $(basename "$fixture"): as from make install"

for m in "${mans[@]}"; do
	page=$root/$mandir/$m.gz
	MANWIDTH=80 man --warnings -l "$page" > "$tmp/man.out" 2> "$tmp/man.err"
	rc=$?
	name=$(echo "${m%.1}" | tr '[:lower:]' '[:upper:]')
	[ $rc -eq 0 ] && [ ! -s "$tmp/man.err" ] &&
		grep -q "^$name(1)" "$tmp/man.out" && grep -q '^NAME' "$tmp/man.out"
	rc=$?
	[ $rc -eq 0 ] || say "$tmp/man.err"
	result $rc "man -l $mandir/$m.gz renders, no groff warning"
done
MANWIDTH=80 man -M "$root/${mandir%/man1}" fragview-stats > "$tmp/man.out" 2>&1
grep -q '^FRAGVIEW-STATS(1)' "$tmp/man.out"
result $? "man -M <root>/${mandir%/man1} fragview-stats finds the page by name"

so=$root/$plugindir/plugin-mobility.so
ldd "$so" > "$tmp/ldd" 2>&1 && ! grep -q 'not found' "$tmp/ldd" &&
	nm -D --defined-only "$so" > "$tmp/nm" &&
	grep -q ' kshark_data_plugin_initializer$' "$tmp/nm"
result $? "plugin: libraries resolve, exports kshark_data_plugin_initializer"

# The layout check is not vacuous: a root with one man page missing
doctored=$tmp/doctored
cp -a "$root" "$doctored"
gone=$mandir/${mans[0]}.gz
rm "$doctored/$gone"
layout "$doctored" deb > "$tmp/neg-man" 2>&1
rc=$?
[ $rc -ne 0 ] && grep -qF "missing $gone" "$tmp/neg-man"
result $? "negative: the layout check rejects a package without $gone"

# Nothing of the package build lands in the repository or next to it
leftovers=$(find "$top" "$top/.." -maxdepth 1 -newer "$stamp" \
	\( -name '*.deb' -o -name '*.changes' -o -name '*.buildinfo' \) 2>/dev/null
	find "$top/debian" -maxdepth 1 -newer "$stamp" \( -name tmp -o -name files \
	-o -name fragview -o -name '*.substvars' -o -name .debhelper \) 2>/dev/null)
[ -z "$leftovers" ] || echo "# left behind: $leftovers"
result "$([ -z "$leftovers" ] && echo 0 || echo 1)" "the package build leaves nothing in the repository"

finish
