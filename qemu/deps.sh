#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Install the Debian 12 packages the qemu/ pipeline needs (only the missing
# ones; apt-get update runs once, and only if something is missing).
set -euo pipefail

PACKAGES=(
	linux-source-6.1 build-essential bc bison flex libelf-dev libssl-dev
	cpio ccache qemu-system-x86 busybox-static trace-cmd libtracecmd-dev
	libtraceevent-dev libtracefs-dev libzstd-dev pkg-config quilt zstd
	xz-utils
)

missing=()
for p in "${PACKAGES[@]}"; do
	dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
	echo "==> all ${#PACKAGES[@]} packages installed" >&2
	exit 0
fi

if [ "$(id -u)" != 0 ]; then
	echo "deps.sh: error: need root to install: ${missing[*]}" >&2
	exit 1
fi
echo "==> installing: ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update >&2
apt-get install -y --no-install-recommends "${missing[@]}" >&2
