#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# tools/deps.sh [GROUP...] - install, from Debian's archive, the packages
# GROUP needs that are not installed yet (default: all).  Quiet and quick
# when nothing is missing.  Each make target asks for its own group, so
# that e.g. `make demo` on a fresh machine does not pull in Chromium:
#   fragview     build tools/fragview (libtracecmd)
#   guest        the guest pipeline: kernel build tools, initramfs, QEMU
#   kernel-VER   the Debian kernel source of base VER (6.1, 6.12): make demo
#                asks for guest and its base's source, not every base's
#   kernelshark  build the KernelShark plugin and open a capture in it
#   bench        make bench, make experiment (report scripts; the
#                experiment's ext4 and swap images)
#   check        every test suite of make check (all of the above and more)
#   all          every group
set -euo pipefail

declare -A group
group[fragview]="build-essential pkg-config libtracecmd-dev libtraceevent-dev
	libtracefs-dev libzstd-dev trace-cmd"
group[guest]="${group[fragview]} bc bison flex libelf-dev libssl-dev cpio ccache
	qemu-system-x86 busybox-static xz-utils zstd quilt"
group[kernel-6.1]="linux-source-6.1"
group[kernel-6.12]="linux-source-6.12"
# libkshark-plot.h includes GL/gl.h and GL/glu.h, which libkshark-dev does
# not pull in
group[kernelshark]="build-essential pkg-config kernelshark libkshark-dev
	libjson-c-dev libtraceevent-dev libgl-dev libglu1-mesa-dev"
group[bench]="${group[guest]} python3 time e2fsprogs util-linux"
# on top: fuzzing (clang), the HTML page in a browser, KernelShark under X,
# the kernel's mm selftests built static (libnuma), the Debian packages and
# their test (dpkg-buildpackage, dh, man -l; git lists the files of the
# scratch copy it builds from)
group[check]="${group[bench]} ${group[kernelshark]} ${group[kernel-6.1]}
	${group[kernel-6.12]} clang libclang-rt-14-dev
	chromium xvfb xauth x11-apps imagemagick libnuma-dev
	dpkg-dev debhelper man-db git python3-jsonschema"
group[all]=${group[check]}

[ $# -gt 0 ] || set -- all
pkgs=()
for g in "$@"; do
	[ -n "${group[$g]:-}" ] || {
		echo "deps.sh: unknown group '$g' (${!group[*]})" >&2
		exit 2
	}
	read -r -a more <<<"$(echo ${group[$g]})"
	pkgs+=("${more[@]}")
done

missing=()
for p in $(printf '%s\n' "${pkgs[@]}" | sort -u); do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
		missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" != 0 ]; then
	echo "deps.sh: need root to install: ${missing[*]}" >&2
	exit 1
fi
echo "==> installing ${#missing[@]} packages for $*: ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
# another apt may hold the lock for a while on a shared machine: wait
apt-get -o DPkg::Lock::Timeout=900 update -q >&2
# The demo's packages without their recommends: qemu-system-x86 alone
# recommends the GTK/SDL front end, OVMF and qemu-utils, none of which the
# headless guest uses (`apt-get -s -o Dir::State::status=/dev/null
# install` of the 20 packages of groups guest and kernel-6.1: 202 packages
# without recommends, 557 with, counting the base system).  The extras
# of make check (Chromium, KernelShark, X) keep theirs: fonts and the like.
lean=() full=()
read -r -a demo <<<"$(echo ${group[bench]} ${group[kernel-6.1]} ${group[kernel-6.12]})"
for p in "${missing[@]}"; do
	case " ${demo[*]} " in
	*" $p "*) lean+=("$p") ;;
	*) full+=("$p") ;;
	esac
done
[ ${#lean[@]} -eq 0 ] || apt-get -o DPkg::Lock::Timeout=900 install -y -q \
	--no-install-recommends "${lean[@]}" >&2
[ ${#full[@]} -eq 0 ] || apt-get -o DPkg::Lock::Timeout=900 install -y -q \
	"${full[@]}" >&2
