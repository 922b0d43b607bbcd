// SPDX-License-Identifier: GPL-2.0
/*
 * faultloop - page-fault microbenchmark: map K KiB of anonymous memory,
 * touch every page, unmap, N times; prints
 *
 *   faultloop iterations N pages P faults F elapsed_ns T ns_per_fault X
 *
 * so the cost of tracepoints in the allocation path can be compared
 * between kernels (or with the events enabled and disabled).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "now_ns.h"

#define PAGE_SIZE 4096UL

int main(int argc, char **argv)
{
	unsigned long size_kib = 4096, iterations = 100, pages, i, off;
	long long start, elapsed;
	int opt;

	while ((opt = getopt(argc, argv, "s:n:")) != -1) {
		switch (opt) {
		case 's': size_kib = strtoul(optarg, NULL, 0); break;
		case 'n': iterations = strtoul(optarg, NULL, 0); break;
		default:
			fprintf(stderr, "usage: %s [-s KiB] [-n iterations]\n",
				argv[0]);
			return 2;
		}
	}
	pages = size_kib * 1024 / PAGE_SIZE;
	if (!pages || !iterations) {
		fprintf(stderr, "faultloop: size and iterations must be > 0\n");
		return 2;
	}

	start = now_ns();
	for (i = 0; i < iterations; i++) {
		char *p = mmap(NULL, pages * PAGE_SIZE, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (p == MAP_FAILED) {
			fprintf(stderr, "faultloop: mmap: %s\n",
				strerror(errno));
			return 1;
		}
		madvise(p, pages * PAGE_SIZE, MADV_NOHUGEPAGE);
		for (off = 0; off < pages * PAGE_SIZE; off += PAGE_SIZE)
			p[off] = 1;
		munmap(p, pages * PAGE_SIZE);
	}
	elapsed = now_ns() - start;
	printf("faultloop iterations %lu pages %lu faults %lu elapsed_ns %lld ns_per_fault %lld\n",
	       iterations, pages, iterations * pages, elapsed,
	       elapsed / (long long)(iterations * pages));
	return 0;
}
