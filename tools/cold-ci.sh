#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tools/cold-ci.sh [DIR] - time .ci/run as on a fresh Debian 12 machine:
# debootstrap a bookworm minbase root in DIR (default /var/tmp/cold), clone
# this repository's HEAD into it, and run .ci/run there in a chroot with
# nothing installed, an empty kernel cache and an empty ccache.  Prints
# "rc=N seconds=S" (the time from .ci/run's start to its end, debootstrap
# not included) and leaves the log in DIR/ci.log.  Needs root, network
# access to Debian's archive and ~20 GiB in DIR.  The chroot's /tmp is a
# tmpfs, as on distributions that mount one.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:-/var/tmp/cold}
root=$dir/root
[ "$(id -u)" = 0 ] || { echo "cold-ci: needs root" >&2; exit 1; }
command -v debootstrap >/dev/null || apt-get install -y -q debootstrap
mountpoint -q "$root/proc" && { echo "cold-ci: $root in use" >&2; exit 1; }
rm -rf "$root"
mkdir -p "$dir"
debootstrap --variant=minbase bookworm "$root" http://deb.debian.org/debian \
	> "$dir/debootstrap.log" 2>&1
# the host's sources (security updates included) and resolver
cp /etc/apt/sources.list.d/*.sources "$root/etc/apt/sources.list.d/" 2>/dev/null &&
	rm -f "$root/etc/apt/sources.list"
cp /etc/resolv.conf "$root/etc/"
git clone -q "$repo" "$root/root/fragview"

mount -t proc proc "$root/proc"
mount -t sysfs sys "$root/sys"
mount --rbind /dev "$root/dev"
mount -t tmpfs tmpfs "$root/tmp"
trap 'umount -R "$root/dev" "$root/proc" "$root/sys" "$root/tmp" 2>/dev/null' EXIT
start=$(date +%s)
rc=0
chroot "$root" /usr/bin/env -i HOME=/root PATH=/usr/sbin:/usr/bin:/sbin:/bin \
	CI=true TERM=dumb bash -c 'cd /root/fragview && bash .ci/run' \
	> "$dir/ci.log" 2>&1 || rc=$?
echo "rc=$rc seconds=$(( $(date +%s) - start ))" | tee "$dir/result"
tail -n 1 "$dir/ci.log"
