// SPDX-License-Identifier: GPL-2.0
/*
 * bench-migrateloop - migrate a buffer between NUMA nodes 0 and 1 over and
 * over with move_pages(2), for the tracepoint-overhead benchmark
 * (bench/run.sh): every page moved fires mobility:migrate_folio, so this
 * is the event-heavy side of the comparison.
 *
 *   bench-migrateloop pages P iterations N moves M failed F elapsed_ns T ns_per_move X
 *
 * (M = pages that reached the node asked for, F = those that did not.)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "now_ns.h"

#define PAGE_SIZE 4096UL
#define MPOL_MF_MOVE (1 << 1)

static unsigned long parse(const char *s)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 0);
	if (errno || *end || end == s || !v) {
		fprintf(stderr, "bench-migrateloop: bad number '%s'\n", s);
		exit(2);
	}
	return v;
}

int main(int argc, char **argv)
{
	unsigned long pages = 256, iterations = 20, i, p;
	unsigned long long moves = 0, failed = 0;
	long long start, elapsed;
	void **addr;
	int *nodes, *status, opt;
	char *buf;

	while ((opt = getopt(argc, argv, "n:i:")) != -1) {
		switch (opt) {
		case 'n': pages = parse(optarg); break;
		case 'i': iterations = parse(optarg); break;
		default:
			fprintf(stderr, "usage: %s [-n pages] [-i iterations]\n",
				argv[0]);
			return 2;
		}
	}
	buf = mmap(NULL, pages * PAGE_SIZE, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	addr = calloc(pages, sizeof(*addr));
	nodes = calloc(pages, sizeof(*nodes));
	status = calloc(pages, sizeof(*status));
	if (buf == MAP_FAILED || !addr || !nodes || !status) {
		fprintf(stderr, "bench-migrateloop: out of memory\n");
		return 1;
	}
	madvise(buf, pages * PAGE_SIZE, MADV_NOHUGEPAGE);
	for (p = 0; p < pages; p++) {
		buf[p * PAGE_SIZE] = 1;
		addr[p] = buf + p * PAGE_SIZE;
	}

	start = now_ns();
	for (i = 0; i < 2 * iterations; i++) {
		int target = (i + 1) % 2;	/* 1, 0, 1, 0, ... */

		for (p = 0; p < pages; p++)
			nodes[p] = target;
		if (syscall(SYS_move_pages, 0, pages, addr, nodes, status,
			    MPOL_MF_MOVE) < 0) {
			fprintf(stderr, "bench-migrateloop: move_pages: %s\n",
				strerror(errno));
			return 1;
		}
		for (p = 0; p < pages; p++) {
			if (status[p] == target)
				moves++;
			else
				failed++;
		}
	}
	elapsed = now_ns() - start;
	printf("bench-migrateloop pages %lu iterations %lu moves %llu failed %llu elapsed_ns %lld ns_per_move %lld\n",
	       pages, iterations, moves, failed, elapsed,
	       moves ? elapsed / (long long)moves : 0);
	return failed ? 1 : 0;
}
