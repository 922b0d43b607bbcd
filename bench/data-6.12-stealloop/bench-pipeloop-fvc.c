// SPDX-License-Identifier: GPL-2.0
/*
 * bench-pipeloop - an order-0/2/3 page alloc/free loop driven from user
 * space, for the tracepoint-overhead benchmark (bench/run.sh):
 *
 *   bench-pipeloop iterations N elapsed_ns T ns_per_iteration X
 *
 * Each iteration opens a pipe, resizes it to 1 MiB or 2 MiB (alternately),
 * writes 16 pages into it and closes it.  The resize allocates the pipe's
 * ring of 256 or 512 struct pipe_buffer (40 bytes each: 10 or 20 KiB);
 * SLUB hands kmalloc()s above 8 KiB straight to the page allocator, so
 * those are order-2 and order-3 pages.  The 16 data pages are order-0.
 * Everything is freed again on close.  Anonymous faults (faultloop) only
 * exercise order 0, hence this second loop.
 *
 * With -0 the pipe keeps its default ring (16 buffers, a slab object):
 * only the 16 order-0 data pages come from the page allocator.  With -k
 * the pipes stay open until the clock has stopped, so no page of the loop
 * is freed (and reused) inside it.  -0 -k is the stealloop of
 * bench-overhead, where every unmovable page has to be found in the holes
 * of Movable pageblocks: reused pages would come from the per-cpu list
 * instead, and an order-2/3 ring would send each iteration into direct
 * compaction.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "now_ns.h"

/* bench-pipeloop-fvc: the fvclaim counters (debugfs, kernels with
 * fvc-*.patch) read right before and after the timed loop */
static const char *fvc_names[] = { "bulk", "claim_calls", "tsb", "walks",
				   "walk_steps", "claimed", "steals" };
#define FVC_N 7
static int fvc_fd[FVC_N];
/* debugfs attribute files are not seekable (no pread): open, read, close */
static void fvc_read(unsigned long *v)
{
	char b[32], p[128];
	int i, fd;
	for (i = 0; i < FVC_N; i++) {
		snprintf(p, sizeof(p), "/sys/kernel/debug/fvclaim/%s", fvc_names[i]);
		fd = open(p, O_RDONLY);
		ssize_t n = fd < 0 ? -1 : read(fd, b, sizeof(b) - 1);
		if (fd >= 0)
			close(fd);
		if (n <= 0) {
			fprintf(stderr, "bench-pipeloop-fvc: %s unreadable\n", p);
			exit(1);
		}
		b[n] = 0;
		v[i] = strtoul(b, NULL, 10);
	}
}

#define PAGE_SIZE 4096
#define DATA_PAGES 16

int main(int argc, char **argv)
{
	static const int ring_bytes[] = { 1 << 20, 2 << 20 };
	static char buf[DATA_PAGES * PAGE_SIZE];
	unsigned long iterations = 2000, i;
	long long start, elapsed;
	int opt, resize = 1, keep = 0, *fds_kept = NULL;
	char *end;

	while ((opt = getopt(argc, argv, "0kn:")) != -1) {
		switch (opt) {
		case '0':
			resize = 0;
			break;
		case 'k':
			keep = 1;
			break;
		case 'n':
			errno = 0;
			iterations = strtoul(optarg, &end, 0);
			if (errno || *end || end == optarg || !iterations)
				goto usage;
			break;
		default:
			goto usage;
		}
	}
	if (optind != argc)
		goto usage;
	memset(buf, 0x5a, sizeof(buf));
	if (keep) {
		struct rlimit rl = { 2 * iterations + 64, 2 * iterations + 64 };

		fds_kept = calloc(2 * iterations, sizeof(*fds_kept));
		if (!fds_kept || setrlimit(RLIMIT_NOFILE, &rl)) {
			fprintf(stderr, "bench-pipeloop: -k: %s\n",
				strerror(errno));
			return 1;
		}
	}

	for (int j = 0; j < FVC_N; j++) {
		char p[128];
		snprintf(p, sizeof(p), "/sys/kernel/debug/fvclaim/%s", fvc_names[j]);
		fvc_fd[j] = open(p, O_RDONLY);
		if (fvc_fd[j] < 0) { perror(p); return 1; }
	}
	unsigned long fv0[FVC_N], fv1[FVC_N];
	fvc_read(fv0);
	start = now_ns();
	for (i = 0; i < iterations; i++) {
		int fds[2];

		if (pipe2(fds, O_NONBLOCK)) {
			fprintf(stderr, "bench-pipeloop: pipe: %s\n",
				strerror(errno));
			return 1;
		}
		if (resize &&
		    fcntl(fds[1], F_SETPIPE_SZ, ring_bytes[i % 2]) < 0) {
			fprintf(stderr, "bench-pipeloop: F_SETPIPE_SZ: %s\n",
				strerror(errno));
			return 1;
		}
		if (write(fds[1], buf, sizeof(buf)) != sizeof(buf)) {
			fprintf(stderr, "bench-pipeloop: short pipe write\n");
			return 1;
		}
		if (keep) {
			fds_kept[2 * i] = fds[0];
			fds_kept[2 * i + 1] = fds[1];
		} else {
			close(fds[0]);
			close(fds[1]);
		}
	}
	elapsed = now_ns() - start;
	fvc_read(fv1);
	for (i = 0; keep && i < 2 * iterations; i++)
		close(fds_kept[i]);
	printf("bench-pipeloop iterations %lu elapsed_ns %lld", iterations, elapsed);
	for (int j = 0; j < FVC_N; j++)
		printf(" fvc_%s %lu", fvc_names[j], fv1[j] - fv0[j]);
	printf(" ns_per_iteration %lld\n", elapsed / (long long)iterations);
	return 0;
usage:
	fprintf(stderr, "usage: %s [-0] [-k] [-n iterations]\n", argv[0]);
	return 2;
}
