// SPDX-License-Identifier: GPL-2.0
/*
 * lowmem - hold every zone of one NUMA node between its min and low
 * watermarks, then wait for SIGTERM/SIGINT.
 *
 * Below the low watermark the allocator's fast path fails, so every
 * allocation on that node goes through __alloc_pages_slowpath(): that is
 * where a GFP_ATOMIC high-order allocation gets ALLOC_HIGHATOMIC and
 * reserves a pageblock (reserve_highatomic_pageblock()), and where a
 * retrying costly allocation ends up unreserving one.  Staying above min
 * keeps the guest out of the OOM killer.
 *
 * Anonymous memory is faulted in 1 MiB at a time, bound to the node with
 * mbind(2) (the zonelist would otherwise spill onto the other node and
 * drain the first one to min), reading /proc/zoneinfo after each step.
 * ZONE_DMA is left alone: lowmem_reserve keeps it out of reach anyway.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "hold.h"
#include "zoneinfo.h"

#define PAGE_SIZE 4096UL
#define STEP (1UL << 20)

static void usage(const char *prog)
{
	fprintf(stderr, "usage: %s -n NODE [-m MARGIN_MiB] [-R ready_file]\n"
		"  fills NODE until each of its zones is MARGIN below its low\n"
		"  watermark (default 16 MiB), never within MARGIN of min;\n"
		"  creates ready_file and holds until SIGTERM/SIGINT\n", prog);
	exit(2);
}

int main(int argc, char **argv)
{
	struct zone_wm z[MAX_ZONES];
	unsigned long margin = 16UL << 20, held = 0;
	const char *ready = NULL;
	int nid = -1, opt, nz, i;

	while ((opt = getopt(argc, argv, "n:m:R:")) != -1) {
		switch (opt) {
		case 'n': nid = atoi(optarg); break;
		case 'm': margin = strtoul(optarg, NULL, 0) << 20; break;
		case 'R': ready = optarg; break;
		default: usage(argv[0]);
		}
	}
	if (nid < 0 || nid > 63 || optind != argc)
		usage(argv[0]);
	margin /= PAGE_SIZE;
	hold_prepare();

	for (;;) {
		int below = 0;

		nz = read_zones(nid, z);
		if (!nz) {
			fprintf(stderr, "lowmem: node %d has no zone\n", nid);
			return 1;
		}
		for (i = 0; i < nz; i++) {
			if (z[i].free <= z[i].min + margin) {
				fprintf(stderr, "lowmem: %s at %lu pages, min %lu:"
					" stopping short\n", z[i].name,
					z[i].free, z[i].min);
				return 1;
			}
			below += z[i].free + margin < z[i].low;
		}
		if (below == nz)
			break;

		char *p = map_on_node(STEP, nid);

		if (!p)
			return 1;
		/* no THP: a huge page would take 2 MiB at once */
		madvise(p, STEP, MADV_NOHUGEPAGE);
		for (unsigned long off = 0; off < STEP; off += PAGE_SIZE)
			p[off] = 1;
		held += STEP;
	}
	printf("lowmem: node %d: holding %lu MiB\n", nid, held >> 20);
	for (i = 0; i < nz; i++)
		printf("lowmem: node %d %s: free %lu min %lu low %lu"
		       " managed %lu pages\n", nid, z[i].name, z[i].free,
		       z[i].min, z[i].low, z[i].managed);
	fflush(stdout);
	if (hold_until_signal("lowmem", ready))
		return 1;
	return 0;
}
