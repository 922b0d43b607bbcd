#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# experiment/mkdisks.sh DIR KERNEL_SOURCE: the experiment's two virtio
# disks, made once into DIR (reused while their inputs are the same):
#
#   DIR/fs.img    ext4, 1 GiB: src/ is a kernel-tree-like file mix (fs mm
#                 kernel include lib block net of KERNEL_SOURCE, about
#                 30,000 files) and src.manifest lists its copy units
#                 ("BYTES PATH", the entries two levels down), for the
#                 guest's copy loop to count the bytes it moved
#   DIR/swap.img  swap, 256 MiB
#
# The guest opens both with snapshot=on (qemu/run-guest.sh --drive), so
# each boot starts from these same images.  Prints "FS_SHA256 FS_MIB".
set -euo pipefail
die() { echo "mkdisks: error: $*" >&2; exit 1; }
[ $# = 2 ] || die "usage: mkdisks.sh DIR KERNEL_SOURCE"
dir=$1 src=$2
[ -d "$src/mm" ] || die "$src is not a kernel source tree"
command -v mkfs.ext4 >/dev/null && command -v mkswap >/dev/null ||
	die "needs mkfs.ext4 (e2fsprogs) and mkswap (util-linux)"
mkdir -p "$dir"
parts="fs mm kernel include lib block net"
stamp="$(realpath "$src") $parts v1"
if [ ! -s "$dir/fs.img" ] || [ "$(cat "$dir/stamp" 2>/dev/null)" != "$stamp" ]; then
	rm -rf "$dir/stage" "$dir/fs.img" "$dir/stamp"
	mkdir -p "$dir/stage/src"
	(cd "$src" && cp -a $parts "$dir/stage/src/")
	(cd "$dir/stage" && find src -mindepth 2 -maxdepth 2 | LC_ALL=C sort |
		while read -r p; do
			echo "$(du -sb --apparent-size "$p" | cut -f1) $p"
		done) > "$dir/stage/src.manifest"
	# fixed UUID and hash seed: the same tree makes the same file system
	truncate -s 1G "$dir/fs.img"
	mkfs.ext4 -q -F -L fvexp -N 200000 -U 6f7a1c2e-0b8d-4e1a-9c3f-5d2b7e4a6c10 \
		-E hash_seed=3c1f5e2a-7b9d-4c6e-8a0f-1e2d3c4b5a69,root_owner=0:0 \
		-d "$dir/stage" "$dir/fs.img"
	rm -rf "$dir/stage"
	echo "$stamp" > "$dir/stamp"
fi
if [ ! -s "$dir/swap.img" ]; then
	truncate -s 256M "$dir/swap.img.new"
	mkswap -q -L fvswap -U 0c4e6a8b-2d1f-4b3a-9e5c-7f6a8b9c0d1e "$dir/swap.img.new" >/dev/null
	mv "$dir/swap.img.new" "$dir/swap.img"
fi
echo "$(sha256sum < "$dir/fs.img" | cut -c1-64) $(( $(stat -c %s "$dir/fs.img") >> 20 ))"
