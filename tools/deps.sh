#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Install, from Debian's archive, every package the project needs that is
# not installed yet.  Quiet and quick when nothing is missing.
set -euo pipefail

pkgs=(
	# guest kernel, initramfs, QEMU
	linux-source-6.1 build-essential bc bison flex libelf-dev libssl-dev
	cpio ccache qemu-system-x86 busybox-static xz-utils zstd quilt
	# trace-cmd in the guest, libtracecmd for fragview
	trace-cmd libtracecmd-dev libtraceevent-dev libtracefs-dev libzstd-dev
	pkg-config
	# tests: fuzzing, the HTML page in a browser, KernelShark under X
	clang libclang-rt-14-dev chromium kernelshark libkshark-dev
	# libkshark-plot.h includes GL/gl.h and GL/glu.h, which
	# libkshark-dev does not pull in
	libgl-dev libglu1-mesa-dev
	xvfb xauth x11-apps imagemagick libjson-c-dev
	# test and benchmark scripts
	python3 time
	# the kernel's mm selftests, built static for the guest (tests/selftests.sh)
	libnuma-dev
	# the Debian packages (debian/) and their test (tests/host/install.sh):
	# dpkg-buildpackage, dh, and man -l for the installed pages
	dpkg-dev debhelper man-db
)

missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
		missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "==> installing ${#missing[@]} packages: ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get -o DPkg::Lock::Timeout=900 update -q >&2
apt-get -o DPkg::Lock::Timeout=900 install -y -q "${missing[@]}" >&2
