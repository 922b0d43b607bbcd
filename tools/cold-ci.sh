#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tools/cold-ci.sh [--demo] [DIR] - time .ci/run (with --demo: `make demo`,
# README's first command) as on a fresh Debian 12 machine: debootstrap a
# bookworm minbase root in DIR (default /var/tmp/cold), clone this
# repository's HEAD into it, and run the command there in a chroot with
# nothing installed but make, an empty kernel cache and an empty ccache.
# Prints "rc=N seconds=S" (the time from the command's start to its end,
# debootstrap and make's own install not included) and leaves the log in
# DIR/ci.log.  Needs root, network
# access to Debian's archive and ~20 GiB in DIR.  The chroot's /tmp is a
# tmpfs, as on distributions that mount one.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
cmd="bash .ci/run"
if [ "${1:-}" = --demo ]; then
	cmd="make demo"
	shift
fi
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
# README's commands start with make, which a minbase root lacks
[ "$cmd" = "bash .ci/run" ] ||
	chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
		DEBIAN_FRONTEND=noninteractive bash -c \
		'apt-get update -q && apt-get install -y -q make' > "$dir/make.log" 2>&1

mount -t proc proc "$root/proc"
mount -t sysfs sys "$root/sys"
mount --rbind /dev "$root/dev"
mount -t tmpfs tmpfs "$root/tmp"
trap 'umount -R "$root/dev" "$root/proc" "$root/sys" "$root/tmp" 2>/dev/null' EXIT
start=$(date +%s)
rc=0
chroot "$root" /usr/bin/env -i HOME=/root PATH=/usr/sbin:/usr/bin:/sbin:/bin \
	CI=true TERM=dumb bash -c "cd /root/fragview && $cmd" \
	> "$dir/ci.log" 2>&1 || rc=$?
echo "rc=$rc seconds=$(( $(date +%s) - start ))" | tee "$dir/result"
tail -n 1 "$dir/ci.log"
