// SPDX-License-Identifier: GPL-2.0
/*
 * bench-fliploop - make whole free pageblocks change hands between the
 * unmovable and the movable allocations, for the tracepoint-overhead
 * benchmark (bench-overhead's fliploop):
 *
 *   bench-fliploop iterations N mib M elapsed_ns T ns_per_iteration X
 *
 * Each iteration fills pipes with M MiB (unmovable pages, kept until the
 * half ends), closes them, then faults in M MiB of anonymous memory
 * (movable) and unmaps it.  When free memory is little more than M MiB,
 * all of it in whole free blocks (a holder takes the rest), each half
 * finds the other half's blocks on its fallback lists and claims them:
 * pageblock_steal with a flip (pageblock_flip) per block, both ways.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "now_ns.h"
#include "parse_num.h"

#define PAGE_SIZE 4096UL
#define PIPE_BYTES (256 * 1024)

/* a positive number, or exit 2 */
static unsigned long positive(const char *s)
{
	unsigned long v = parse_num(s, "bench-fliploop");

	if (!v) {
		fprintf(stderr, "bench-fliploop: '%s' must be > 0\n", s);
		exit(2);
	}
	return v;
}

/* @n pipes of PIPE_BYTES, full, closed again: 0 or -1 */
static int unmovable_half(int *fds, unsigned long n, const char *buf)
{
	unsigned long made = 0;
	int ret = 0;

	for (; made < n; made++) {
		if (pipe2(&fds[2 * made], O_NONBLOCK) ||
		    fcntl(fds[2 * made + 1], F_SETPIPE_SZ, PIPE_BYTES) < 0 ||
		    write(fds[2 * made + 1], buf, PIPE_BYTES) != PIPE_BYTES) {
			fprintf(stderr, "bench-fliploop: pipe: %s\n",
				strerror(errno));
			ret = -1;
			break;
		}
	}
	for (unsigned long i = 0; i < 2 * made; i++)
		close(fds[i]);
	return ret;
}

/* @len bytes of anonymous memory faulted in page by page, unmapped */
static int movable_half(size_t len)
{
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		perror("bench-fliploop: mmap");
		return -1;
	}
	madvise(p, len, MADV_NOHUGEPAGE);
	for (size_t off = 0; off < len; off += PAGE_SIZE)
		p[off] = 1;
	munmap(p, len);
	return 0;
}

int main(int argc, char **argv)
{
	unsigned long iterations = 10, mib = 16, pipes, i;
	static char buf[PIPE_BYTES];
	long long start, elapsed;
	struct rlimit rl;
	int opt, *fds;

	while ((opt = getopt(argc, argv, "n:m:")) != -1) {
		switch (opt) {
		case 'n': iterations = positive(optarg); break;
		case 'm': mib = positive(optarg); break;
		default:
			fprintf(stderr, "usage: %s [-n iterations] [-m MiB]\n",
				argv[0]);
			return 2;
		}
	}
	if (optind != argc) {
		fprintf(stderr, "usage: %s [-n iterations] [-m MiB]\n", argv[0]);
		return 2;
	}
	pipes = mib * 1024 * 1024 / PIPE_BYTES;
	rl.rlim_cur = rl.rlim_max = 2 * pipes + 64;
	fds = calloc(2 * pipes, sizeof(*fds));
	if (!fds || setrlimit(RLIMIT_NOFILE, &rl)) {
		perror("bench-fliploop");
		return 1;
	}
	memset(buf, 0x5a, sizeof(buf));
	start = now_ns();
	for (i = 0; i < iterations; i++)
		if (unmovable_half(fds, pipes, buf) ||
		    movable_half(mib * 1024 * 1024))
			return 1;
	elapsed = now_ns() - start;
	printf("bench-fliploop iterations %lu mib %lu elapsed_ns %lld ns_per_iteration %lld\n",
	       iterations, mib, elapsed, elapsed / (long long)iterations);
	return 0;
}
