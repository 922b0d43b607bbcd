#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# deps.sh [--test] - install the Debian packages the KernelShark plugin needs
# (--test: also what kernelshark/test.sh needs).  Only missing ones are
# installed, so this is quick when everything is there.
set -u

pkgs=(kernelshark libkshark-dev libjson-c-dev libtraceevent-dev
      pkg-config gcc g++ make)
[ "${1:-}" = "--test" ] &&
	pkgs+=(trace-cmd python3 xvfb xauth x11-apps imagemagick coreutils)

missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null |
		grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
	echo "kernelshark/deps.sh: missing packages: ${missing[*]}" \
	     "(run as root to install)" >&2
	exit 1
fi
echo "kernelshark/deps.sh: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
# Another apt may hold the lock for a while on a shared machine: wait.
apt=(apt-get -o DPkg::Lock::Timeout=900)
"${apt[@]}" install -y -qq "${missing[@]}" >/dev/null 2>&1 ||
	{ "${apt[@]}" update -qq >/dev/null 2>&1 &&
	  "${apt[@]}" install -y -qq "${missing[@]}" >/dev/null; } ||
	{ echo "kernelshark/deps.sh: could not install ${missing[*]}" >&2
	  exit 1; }
