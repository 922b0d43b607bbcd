// SPDX-License-Identifier: GPL-2.0
/*
 * bench-mapread - time the two ways user space can look at physical memory
 * block by block, for the map-dump benchmark (bench/run.sh):
 *
 *   bench-mapread -f FILE [-n reps]   read FILE (the mobility debugfs
 *                                     pageblocks dump) to the end
 *   bench-mapread -k [-n reps]        walk /proc/kpageflags for every pfn,
 *                                     as tools/mm/page-types does, and sum
 *                                     per-pageblock counts of free (buddy),
 *                                     slab and LRU pages
 *   bench-mapread -w FILE [-n reps]   write "1" to FILE (the mobility
 *                                     snapshot or census trigger: the
 *                                     kernel walks every block then)
 *
 * Prints one line per run:
 *
 *   bench-mapread mode M rep R bytes B units U elapsed_ns T
 *
 * (units: lines of the dump, or pageblocks of the walk).  kpageflags has
 * no migratetype, so the walk cannot even produce the same map; it is the
 * cheapest equivalent that mainline offers.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "now_ns.h"

#define KPAGEFLAGS "/proc/kpageflags"
#define KPF_SLAB 7
#define KPF_BUDDY 10
#define KPF_LRU 5
#define PAGEBLOCK_PFNS 512		/* order-9 pageblocks on x86-64 */
#define CHUNK_PFNS (64 * 1024)		/* 512 KiB of flags per read */

static int write_one(const char *path, unsigned long long *bytes,
		     unsigned long *units)
{
	int fd = open(path, O_WRONLY);

	if (fd < 0 || write(fd, "1", 1) != 1) {
		fprintf(stderr, "bench-mapread: write %s: %s\n", path,
			strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	close(fd);
	*bytes = 1;
	*units = 1;
	return 0;
}

static int read_file(const char *path, unsigned long long *bytes,
		     unsigned long *lines)
{
	static char buf[256 * 1024];
	ssize_t n;
	int fd = open(path, O_RDONLY);

	if (fd < 0) {
		fprintf(stderr, "bench-mapread: %s: %s\n", path,
			strerror(errno));
		return -1;
	}
	*bytes = 0;
	*lines = 0;
	while ((n = read(fd, buf, sizeof(buf))) > 0) {
		*bytes += n;
		for (ssize_t i = 0; i < n; i++)
			*lines += buf[i] == '\n';
	}
	close(fd);
	if (n < 0) {
		fprintf(stderr, "bench-mapread: read %s: %s\n", path,
			strerror(errno));
		return -1;
	}
	return 0;
}

/* Per-pageblock counts; the sums are printed so the work cannot be elided. */
static int walk_kpageflags(unsigned long long *bytes, unsigned long *blocks)
{
	static uint64_t flags[CHUNK_PFNS];
	unsigned long long buddy = 0, slab = 0, lru = 0, pfn = 0;
	unsigned int in_block = 0, block_free = 0, mixed = 0;
	ssize_t n;
	int fd = open(KPAGEFLAGS, O_RDONLY);

	if (fd < 0) {
		fprintf(stderr, "bench-mapread: %s: %s\n", KPAGEFLAGS,
			strerror(errno));
		return -1;
	}
	*bytes = 0;
	*blocks = 0;
	while ((n = pread(fd, flags, sizeof(flags), pfn * 8)) > 0) {
		for (ssize_t i = 0; i < n / 8; i++) {
			uint64_t f = flags[i];

			buddy += !!(f & (1ULL << KPF_BUDDY));
			slab += !!(f & (1ULL << KPF_SLAB));
			lru += !!(f & (1ULL << KPF_LRU));
			block_free += !!(f & (1ULL << KPF_BUDDY));
			if (++in_block == PAGEBLOCK_PFNS) {
				(*blocks)++;
				mixed += block_free && block_free < PAGEBLOCK_PFNS;
				in_block = block_free = 0;
			}
		}
		*bytes += n;
		pfn += n / 8;
	}
	close(fd);
	if (n < 0) {
		fprintf(stderr, "bench-mapread: read %s: %s\n", KPAGEFLAGS,
			strerror(errno));
		return -1;
	}
	fprintf(stderr, "bench-mapread: pfns %llu buddy %llu slab %llu lru %llu partly-free blocks %u\n",
		pfn, buddy, slab, lru, mixed);
	return 0;
}

int main(int argc, char **argv)
{
	const char *file = NULL;
	unsigned long reps = 5, units;
	unsigned long long bytes;
	int kpageflags = 0, writing = 0, opt;
	char *end;

	while ((opt = getopt(argc, argv, "f:kn:w:")) != -1) {
		switch (opt) {
		case 'f': file = optarg; break;
		case 'w': file = optarg; writing = 1; break;
		case 'k': kpageflags = 1; break;
		case 'n':
			errno = 0;
			reps = strtoul(optarg, &end, 0);
			if (errno || *end || end == optarg || !reps)
				goto usage;
			break;
		default: goto usage;
		}
	}
	if (optind != argc || !!file == kpageflags)
		goto usage;

	for (unsigned long rep = 0; rep < reps; rep++) {
		long long start = now_ns();
		int err = kpageflags ? walk_kpageflags(&bytes, &units) :
			  writing ? write_one(file, &bytes, &units) :
				    read_file(file, &bytes, &units);

		if (err)
			return 1;
		printf("bench-mapread mode %s rep %lu bytes %llu units %lu elapsed_ns %lld\n",
		       kpageflags ? "kpageflags" : writing ? "write" : "debugfs",
		       rep, bytes, units,
		       now_ns() - start);
	}
	return 0;
usage:
	fprintf(stderr, "usage: %s (-f FILE | -k | -w FILE) [-n reps]\n", argv[0]);
	return 2;
}
