// SPDX-License-Identifier: GPL-2.0
/*
 * capturer - Unmovable pageblocks of one NUMA node that hold nothing but
 * movable pages, so that a direct compactor asking for huge pages frees
 * them whole and compaction_capture() hands such a block, of another
 * migratetype than the request, to it (series v3, patch 10: an
 * mm_page_alloc_extfrag with no pageblock_steal before it).
 *
 * Run it on a CPU of node -n (pipe buffers come from the local node):
 * 1. Pipes of 16 pages each until -p % of the node's free memory is
 *    theirs: with no free Unmovable page left, their buffers claim whole
 *    free blocks, which turn Unmovable; the rest of the node stays
 *    Movable.
 * 2. Two pipes in every five are closed: every Unmovable block keeps
 *    about 60 % pipe pages, too few free pages for a later steal to
 *    claim it.
 * 3. Anonymous memory of the node until its zones are -m MiB above low:
 *    the Movable blocks first, then, with no free Movable page left, it
 *    falls back into the Unmovable ones without claiming them.
 * 4. The other pipes are closed: those Unmovable blocks hold the
 *    anonymous pages and free pages only.
 * 5. Every other anonymous page in a block of type Movable (the
 *    mobility/pageblocks dump says which) is freed: free pages where
 *    compaction may put what it moves.
 * Then it prints how many of its pages lie in Unmovable blocks, creates
 * the ready file and holds until SIGTERM/SIGINT.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <unistd.h>

#include "hold.h"
#include "pagemap.h"
#include "parse_num.h"
#include "zoneinfo.h"

#define PAGE_SIZE 4096UL
#define STEP (1UL << 20)
#define PIPE_BYTES (16 * PAGE_SIZE)
#define PAGEBLOCK_ORDER 9
#define PAGEBLOCKS "/sys/kernel/debug/mobility/pageblocks"

/* the node's zones are all at most @margin pages above low */
static int node_full(int nid, unsigned long margin)
{
	struct zone_wm z[MAX_ZONES];
	int nz = read_zones(nid, z);

	for (int i = 0; i < nz; i++)
		if (z[i].free > z[i].low + margin)
			return 0;
	return nz > 0;
}

/* the node's free pages, all zones */
static unsigned long node_free(int nid)
{
	struct zone_wm z[MAX_ZONES];
	unsigned long free = 0;
	int nz = read_zones(nid, z);

	for (int i = 0; i < nz; i++)
		free += z[i].free;
	return free;
}

/* 1: pipes of PIPE_BYTES until the node has @floor free pages; both ends */
static int *fill_pipes(int nid, unsigned long floor, size_t *nr)
{
	static char buf[PIPE_BYTES];
	struct rlimit rl = { 1 << 20, 1 << 20 };
	size_t cap = 1024, n = 0;
	int *fds = malloc(cap * sizeof(*fds));

	if (!fds || setrlimit(RLIMIT_NOFILE, &rl)) {
		perror("capturer: pipes");
		exit(1);
	}
	memset(buf, 0x5a, sizeof(buf));
	while (node_free(nid) > floor) {
		for (int k = 0; k < 64; k++) {
			int p[2];

			if (n + 2 > cap) {
				cap *= 2;
				fds = realloc(fds, cap * sizeof(*fds));
				if (!fds) {
					perror("capturer: realloc");
					exit(1);
				}
			}
			if (pipe2(p, O_NONBLOCK) ||
			    write(p[1], buf, sizeof(buf)) != sizeof(buf)) {
				perror("capturer: pipe");
				exit(1);
			}
			fds[n++] = p[0];
			fds[n++] = p[1];
		}
	}
	*nr = n;
	return fds;
}

/* close pipe i (its two ends) for every i with (i % 5) in @which */
static void close_pipes(int *fds, size_t n, const char *which)
{
	for (size_t i = 0; 2 * i + 1 < n; i++) {
		if (fds[2 * i] < 0 || !strchr(which, '0' + (int)(i % 5)))
			continue;
		close(fds[2 * i]);
		close(fds[2 * i + 1]);
		fds[2 * i] = fds[2 * i + 1] = -1;
	}
}

/* 3: fault in @map a MiB at a time until the node is full */
static size_t fill_anon(char *map, size_t cap, int nid, unsigned long margin)
{
	size_t len = 0;

	while (len + STEP <= cap && !node_full(nid, margin)) {
		for (size_t off = 0; off < STEP; off += PAGE_SIZE)
			map[len + off] = 1;
		len += STEP;
	}
	return len;
}

/* block pfn -> 'M' (Movable), 'U' (Unmovable), '?' other, from the dump */
static char *block_types(uint64_t *nr_blocks)
{
	FILE *f = fopen(PAGEBLOCKS, "r");
	uint64_t cap = 1 << 16;
	char *t = calloc(cap, 1);
	char line[256], type[32];
	unsigned long long pfn;

	if (!f || !t) {
		perror("capturer: " PAGEBLOCKS);
		exit(1);
	}
	while (fgets(line, sizeof(line), f)) {
		uint64_t b;

		if (sscanf(line, "0x%llx %31s", &pfn, type) != 2)
			continue;
		b = pfn >> PAGEBLOCK_ORDER;
		if (b >= cap) {
			t = realloc(t, 2 * b);
			if (!t) {
				perror("capturer: realloc");
				exit(1);
			}
			memset(t + cap, 0, 2 * b - cap);
			cap = 2 * b;
		}
		t[b] = !strcmp(type, "Movable") ? 'M' :
		       !strcmp(type, "Unmovable") ? 'U' : '?';
	}
	fclose(f);
	*nr_blocks = cap;
	return t;
}

/* 5, and the count: pages in Unmovable blocks, freed in Movable ones */
static void thin_movable(char *map, size_t len, size_t *in_unmovable,
			 size_t *freed)
{
	size_t pages = len / PAGE_SIZE, seen = 0;
	uint64_t *pm = pagemap_pfns("capturer", map, pages), nb;
	char *type = block_types(&nb);

	*in_unmovable = *freed = 0;
	for (size_t i = 0; i < pages; i++) {
		uint64_t b = pm[i] >> PAGEBLOCK_ORDER;

		if (!pm[i] || b >= nb)
			continue;
		if (type[b] == 'U')
			(*in_unmovable)++;
		else if (type[b] == 'M' && seen++ % 2) {
			madvise(map + i * PAGE_SIZE, PAGE_SIZE, MADV_DONTNEED);
			(*freed)++;
		}
	}
	free(pm);
	free(type);
}

static void usage(const char *prog)
{
	fprintf(stderr, "usage: %s -n NODE [-m MiB] [-R ready_file]\n"
		"  -m  fill until each zone is at most MiB above low"
		" (default 4)\n"
		"  -p  %% of the node's free memory the pipes take"
		" (default 50)\n", prog);
	exit(2);
}

int main(int argc, char **argv)
{
	unsigned long margin = 4, percent = 50;
	const char *ready = NULL;
	struct zone_wm z[MAX_ZONES];
	size_t nfd, cap = 0, len, in_unmovable, freed;
	int nid = -1, opt, nz, *fds;
	char *map;

	while ((opt = getopt(argc, argv, "n:m:p:R:")) != -1) {
		switch (opt) {
		case 'n': nid = parse_num(optarg, "capturer"); break;
		case 'm': margin = parse_num(optarg, "capturer"); break;
		case 'p': percent = parse_num(optarg, "capturer"); break;
		case 'R': ready = optarg; break;
		default: usage(argv[0]);
		}
	}
	if (nid < 0 || nid > 63 || optind != argc || !percent || percent > 90)
		usage(argv[0]);
	prctl(PR_SET_NAME, "fv-capturer");
	hold_prepare();
	margin = margin << 20 >> 12;

	nz = read_zones(nid, z);
	for (int i = 0; i < nz; i++)
		cap += z[i].free * PAGE_SIZE;
	cap &= ~(STEP - 1);
	if (!nz || !cap) {
		fprintf(stderr, "capturer: node %d has no free memory\n", nid);
		return 1;
	}
	fds = fill_pipes(nid, node_free(nid) * (100 - percent) / 100, &nfd);
	close_pipes(fds, nfd, "13");
	map = map_on_node(cap, nid);
	if (!map)
		return 1;
	madvise(map, cap, MADV_NOHUGEPAGE);
	len = fill_anon(map, cap, nid, margin);
	close_pipes(fds, nfd, "01234");
	thin_movable(map, len, &in_unmovable, &freed);
	printf("capturer: node %d: %zu pipes, %zu MiB anonymous, %zu of its"
	       " pages in Unmovable blocks, %zu freed in Movable blocks\n",
	       nid, nfd / 2, len >> 20, in_unmovable, freed);
	nz = read_zones(nid, z);
	for (int i = 0; i < nz; i++)
		printf("capturer: node %d %s: free %lu min %lu low %lu\n", nid,
		       z[i].name, z[i].free, z[i].min, z[i].low);
	fflush(stdout);
	return hold_until_signal("capturer", ready) ? 1 : 0;
}
