# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# qemu/kernel-base.sh - the kernel bases the series is kept against (bash,
# sourced).  A base is a directory kernel-patches/VER/ holding that base's
# series (its patches, their "series" file and the cover letter), against
# Debian's linux-source-VER, /usr/src/linux-source-VER.tar.xz.  The base
# a script builds is FRAGVIEW_KERNEL (make's KERNEL=), default 6.1.

fv_base_top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
fv_default_base=6.1

# fv_bases: every base, one a line, in version order
fv_bases() {
	local d
	for d in "$fv_base_top"/kernel-patches/*/; do
		[ -d "$d" ] && basename "$d"
	done | sort -V
}

# fv_base_check VER: true if VER is a base; else false, and why on stdout
# (for the caller's error message: err=$(fv_base_check VER) || die "$err")
fv_base_check() {
	local b
	for b in $(fv_bases); do
		[ "$1" = "$b" ] && return 0
	done
	echo "no kernel base '$1': bases are the directories of kernel-patches/ ($(fv_bases | paste -sd' '))"
	return 1
}

# fv_base_suffix VER: "" for the default base, "-VER" for another, for
# file names that must not clobber the default base's (results-6.12.md)
fv_base_suffix() {
	[ "$1" = "$fv_default_base" ] || echo "-$1"
}
