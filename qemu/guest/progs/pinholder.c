// SPDX-License-Identifier: GPL-2.0
/*
 * pinholder - every pageblock of one NUMA node held by a known task (comm
 * "fv-holder") in a way no compaction can undo, with most of the node
 * free (fragview explain's causes), by -M MODE:
 *
 * pipes (default): unmovable pages of the holder in every block, half of
 * the node free ("pinned").
 * 1. Fill the node's zones (mbind) with order-0 anonymous pages until each
 *    is at most -m MiB above its low watermark.
 * 2. In every pageblock, find from /proc/self/pagemap -g aligned groups of
 *    2^-o pages that are all the holder's, and free them: the first group
 *    of every block, then the second of every block (the last pages freed
 *    stay on the per-cpu list, out of the allocator's reach, and it is
 *    the second groups that stay there).  Each group merges into a free
 *    chunk of order -o, larger than most of what step 1 left free.
 * 3. Fill pipes with what the node has above its low watermark, and some
 *    more: with no free Unmovable page left, the buffers steal from the
 *    largest free chunks first, the groups of 2 among them, and a chunk
 *    of 2^-o pages is too small for a steal to claim its block: the block
 *    stays Movable with pipe pages in it, by pipe_write() of this task.
 *    Below the low watermark the rest goes to the other nodes.
 * 4. Free one -c KiB chunk in two of everything else held.
 *
 * lock: step 1, then keep -k pages evenly spread in each block and free
 * the rest, then mlock2(MLOCK_ONFAULT) the mapping, whole (no split
 * vm_area_struct): under vm.compact_unevictable_allowed=0 compaction
 * may not isolate them ("migration-failed": movable pages it did not
 * move).  Run it on a CPU of the node.
 *
 * pcp: step 1, then -b blocks held whole are freed but for -k pages in
 * each, spread; the holder's own arrays are freed; after -w ms (kswapd done: while it reclaims, a per-cpu
 * list keeps only 4 batches) -f is written to
 * vm.percpu_pagelist_high_fraction and the kept pages are freed from
 * this CPU: they stay on its per-cpu list of the zone, each of those
 * blocks free but for them ("per-cpu-lists").  The rest is mlocked as
 * in lock.  Run it on a CPU of the node, with lists kept small while the
 * blocks are freed (vm.percpu_pagelist_high_fraction 1000000: the bulk
 * goes to the buddy lists); no allocator of the node's huge pages may
 * run there (compaction drains its own CPU's lists), and the lists are
 * drained by drain_all_pages() after direct reclaim that made progress,
 * or found compaction ready (free pages above high + 2^(order+1)).
 * Since 6.7 a list is also drained when its CPU frees two high-order
 * pages in a row after a batch of frees with no allocation (free_high:
 * kswapd's slab frees on the node's CPU did it): while it holds, the
 * holder faults in and frees one page of the node every millisecond, an
 * allocation that halves that count of frees, and takes the same page
 * each time, the last freed, off the list's head.
 *
 * Then print what is left, create the ready file and hold until
 * SIGTERM/SIGINT.  Run it on a CPU of the node: the pipe buffers are
 * allocated on the local node first.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "hold.h"
#include "pagemap.h"
#include "parse_num.h"
#include "zoneinfo.h"

#define PAGE_SIZE 4096UL
#define STEP (1UL << 20)
#define PIPE_BYTES (1UL << 20)
/* x86-64 with 4 KiB pages: a pageblock is a PMD */
#define PAGEBLOCK_ORDER 9
#define KPF_BUDDY 10
#define KPF_UNEVICTABLE 18

enum mode { PIPES, LOCK, PCP };

struct held {
	uint64_t pfn;
	size_t page;	/* index in the mapping */
};

static int by_pfn(const void *a, const void *b)
{
	const struct held *x = a, *y = b;

	return x->pfn < y->pfn ? -1 : x->pfn > y->pfn;
}

/* 1: fault in @map 1 MiB at a time until no zone is @margin above low */
/*
 * A zone that reaches its min + 1 MiB between two steps (other tasks'
 * allocations, per-cpu lists) ends the fill: an error for pipes, whose
 * pipe pages must reach below low, and a full enough node for lock and
 * pcp (on 6.12 a fresh boot's locked fill once went from above low + 2
 * MiB to min + 237 pages in one step: min 1000, low 1250).
 */
static size_t fill(char *map, size_t cap, int nid, unsigned long margin,
		   bool strict)
{
	struct zone_wm z[MAX_ZONES];
	size_t len = 0;

	while (len + STEP <= cap) {
		int nz = read_zones(nid, z), above = 0;

		for (int i = 0; i < nz; i++) {
			if (z[i].free <= z[i].min + STEP / PAGE_SIZE) {
				fprintf(stderr, "pinholder: %s at %lu pages,"
					" min %lu: stopping short\n",
					z[i].name, z[i].free, z[i].min);
				if (strict)
					exit(1);
				return len;
			}
			above += z[i].free > z[i].low + margin;
		}
		if (!nz || !above)
			break;
		for (size_t off = 0; off < STEP; off += PAGE_SIZE)
			map[len + off] = 1;
		len += STEP;
	}
	return len;
}

/* the pfn of every page held, sorted; *nr of them */
static struct held *held_pages(char *map, size_t len, size_t *nr)
{
	size_t pages = len / PAGE_SIZE, n = 0;
	uint64_t *pm = pagemap_pfns("pinholder", map, pages);
	struct held *h = malloc(pages * sizeof(*h));

	if (!h) {
		perror("pinholder: malloc");
		exit(1);
	}
	for (size_t i = 0; i < pages; i++)
		if (pm[i])
			h[n++] = (struct held){ pm[i], i };
	free(pm);
	if (!n) {
		fprintf(stderr, "pinholder: no pfn in pagemap (not root?)\n");
		exit(1);
	}
	qsort(h, n, sizeof(*h), by_pfn);
	*nr = n;
	return h;
}

/*
 * 2: free group @pass (0, 1, ...) of every block: the pass-th aligned run
 * of 2^@order pfns in @h that lies in one block.  Returns the groups freed.
 */
static size_t free_groups(char *map, struct held *h, size_t n,
			  unsigned int order, unsigned int pass, uint64_t *pfns)
{
	size_t group = 1UL << order, freed = 0;
	uint64_t block = UINT64_MAX;
	unsigned int seen = 0;

	for (size_t i = 0; i + group <= n; i++) {
		size_t k;

		if (h[i].pfn >> PAGEBLOCK_ORDER != block) {
			block = h[i].pfn >> PAGEBLOCK_ORDER;
			seen = 0;
		}
		if (h[i].pfn & (group - 1))
			continue;
		for (k = 1; k < group && h[i + k].pfn == h[i].pfn + k; k++)
			;
		if (k < group)
			continue;
		if (seen++ == pass) {
			for (k = 0; k < group; k++)
				madvise(map + h[i + k].page * PAGE_SIZE,
					PAGE_SIZE, MADV_DONTNEED);
			pfns[freed++] = h[i].pfn;
		}
		i += group - 1;
	}
	return freed;
}

/* the pages at @pfns with kpageflags bit @bit set; *none: with no flag */
static size_t flagged(const uint64_t *pfns, size_t nr, int bit, size_t *none)
{
	int fd = open("/proc/kpageflags", O_RDONLY);
	size_t set = 0;
	uint64_t flags;

	if (fd < 0) {
		perror("pinholder: /proc/kpageflags");
		exit(1);
	}
	*none = 0;
	for (size_t i = 0; i < nr; i++) {
		if (pread(fd, &flags, sizeof(flags), pfns[i] * sizeof(flags)) !=
		    sizeof(flags))
			continue;
		set += !!(flags & (1ULL << bit));
		*none += !flags;
	}
	close(fd);
	return set;
}

/*
 * lock, pcp: keep the held pages at every (blocksize / @keep)-th pfn of
 * each block and free the rest, a run of the mapping at a time; the
 * kept pages' pfns and indexes into @kept.  Returns how many.
 */
static size_t thin_out(char *map, size_t len, const struct held *h, size_t n,
		       unsigned int keep, struct held *kept)
{
	size_t pages = len / PAGE_SIZE, nk = 0;
	uint64_t stride = (1UL << PAGEBLOCK_ORDER) / keep;
	unsigned char *is_kept = calloc(pages, 1);

	if (!is_kept) {
		perror("pinholder: calloc");
		exit(1);
	}
	for (size_t i = 0; i < n; i++)
		if (h[i].pfn % stride == 0) {
			is_kept[h[i].page] = 1;
			kept[nk++] = h[i];
		}
	for (size_t i = 0, j; i < pages; i = j) {
		for (j = i; j < pages && is_kept[j] == is_kept[i]; j++)
			;
		if (!is_kept[i])
			madvise(map + i * PAGE_SIZE, (j - i) * PAGE_SIZE,
				MADV_DONTNEED);
	}
	free(is_kept);
	return nk;
}

/* 3: pipes holding @pages pages, left open; the pages written */
static unsigned long fill_pipes(unsigned long pages)
{
	unsigned long per = PIPE_BYTES / PAGE_SIZE, written = 0;
	unsigned long pipes = (pages + per - 1) / per;
	struct rlimit rl = { 2 * pipes + 64, 2 * pipes + 64 };
	char *buf = malloc(PIPE_BYTES);

	if (!buf || setrlimit(RLIMIT_NOFILE, &rl)) {
		perror("pinholder: pipes");
		exit(1);
	}
	memset(buf, 0x5a, PIPE_BYTES);
	for (unsigned long p = 0; p < pipes; p++) {
		int fds[2];
		ssize_t w;

		if (pipe2(fds, O_NONBLOCK) ||
		    fcntl(fds[1], F_SETPIPE_SZ, (int)PIPE_BYTES) < 0) {
			perror("pinholder: pipe");
			exit(1);
		}
		w = write(fds[1], buf, PIPE_BYTES);
		if (w < 0) {
			perror("pinholder: write");
			exit(1);
		}
		written += w / PAGE_SIZE;
	}
	free(buf);
	return written;
}

/* pipes, steps 2-4 */
static void pin_with_pipes(char *map, size_t len, struct held *h, size_t n,
			   int nid, unsigned int order, unsigned int groups,
			   unsigned long spill, unsigned long chunk_kib)
{
	struct zone_wm z[MAX_ZONES];
	uint64_t *pfns = malloc(n * sizeof(*pfns));
	size_t freed = 0, buddy, none;
	unsigned long above = 0;
	int nz;

	if (!pfns) {
		perror("pinholder: malloc");
		exit(1);
	}
	for (unsigned int g = 0; g < groups; g++)
		freed += free_groups(map, h, n, order, g, pfns + freed);

	nz = read_zones(nid, z);
	for (int i = 0; i < nz; i++)
		above += z[i].free > z[i].low ? z[i].free - z[i].low : 0;
	printf("pinholder: node %d: held %zu MiB, freed %zu groups of order %u,"
	       " pipe pages %lu\n", nid, len >> 20, freed, order,
	       fill_pipes(above + (spill << 20 >> 12)));
	/* a group the pipes left is a block they may not have reached */
	buddy = flagged(pfns, freed, KPF_BUDDY, &none);
	printf("pinholder: groups still free after the pipes: %zu of %zu\n",
	       buddy, freed);
	free(pfns);

	for (size_t off = 0; off + chunk_kib * 1024 <= len; off += 2 * chunk_kib * 1024)
		madvise(map + off, chunk_kib * 1024, MADV_DONTNEED);
}

/* the whole mapping: a part would split its vm_area_struct */
static void mlock_all(char *map, size_t cap)
{
	if (mlock2(map, cap, MLOCK_ONFAULT)) {
		perror("pinholder: mlock2");
		exit(1);
	}
}

/*
 * pcp: of the blocks held whole (every pfn in @h), @blocks spread over
 * them: their pages freed but for @keep in each, spread; the kept pages'
 * in @kept.  Returns how many.
 */
static size_t free_blocks(char *map, const struct held *h, size_t n,
			  unsigned int blocks, unsigned int keep,
			  struct held *kept)
{
	size_t per = 1UL << PAGEBLOCK_ORDER, whole = 0, nk = 0, *start;
	uint64_t stride = per / keep;

	start = malloc((n / per + 1) * sizeof(*start));
	if (!start) {
		perror("pinholder: malloc");
		exit(1);
	}
	for (size_t i = 0; i + per <= n; i++)
		if (!(h[i].pfn % per) && h[i + per - 1].pfn == h[i].pfn + per - 1) {
			start[whole++] = i;
			i += per - 1;
		}
	if (whole < blocks) {
		fprintf(stderr, "pinholder: %zu blocks held whole, not %u\n",
			whole, blocks);
		exit(1);
	}
	for (unsigned int b = 0; b < blocks; b++) {
		size_t first = start[(size_t)b * whole / blocks];

		for (size_t i = first; i < first + per; i++) {
			if (h[i].pfn % stride == 0)
				kept[nk++] = h[i];
			else
				madvise(map + h[i].page * PAGE_SIZE, PAGE_SIZE,
					MADV_DONTNEED);
		}
	}
	free(start);
	return nk;
}

static void write_sysctl(const char *path, unsigned long value)
{
	FILE *f = fopen(path, "w");

	if (!f || fprintf(f, "%lu\n", value) < 0 || fclose(f)) {
		fprintf(stderr, "pinholder: %s: %s\n", path, strerror(errno));
		exit(1);
	}
}

/* lock: keep -k pages a block, free the rest, mlock what is kept */
static void lock_thin(char *map, size_t cap, size_t len, struct held *h,
		      size_t n, unsigned int keep, unsigned int wait_ms)
{
	struct held *kept = malloc(n * sizeof(*kept));
	uint64_t *pfns = malloc(n * sizeof(*pfns));
	size_t nk, set, none;

	if (!kept || !pfns) {
		perror("pinholder: malloc");
		exit(1);
	}
	nk = thin_out(map, len, h, n, keep, kept);
	mlock_all(map, cap);
	for (size_t i = 0; i < nk; i++)
		pfns[i] = kept[i].pfn;
	/* mlock's per-cpu batch goes to the unevictable list */
	usleep(wait_ms * 1000);
	set = flagged(pfns, nk, KPF_UNEVICTABLE, &none);
	printf("pinholder: held %zu MiB, kept %zu pages, mlocked;"
	       " unevictable %zu\n", len >> 20, nk, set);
	free(kept);
	free(pfns);
}

/*
 * pcp: the kept pages freed onto this CPU's list, the rest mlocked.  The
 * last pages this CPU frees to the zone before the hold: every free after
 * them (the reader's arrays, a few hundred pages) would push them to the
 * list's tail, the first to go when it is trimmed.
 */
static void release_kept(char *map, size_t cap, size_t len,
			 const struct held *kept, uint64_t *pfns, size_t nk,
			 unsigned int blocks, unsigned int wait_ms,
			 unsigned long fraction)
{
	size_t set, none;

	usleep(wait_ms * 1000);
	write_sysctl("/proc/sys/vm/percpu_pagelist_high_fraction", fraction);
	for (size_t i = 0; i < nk; i++)
		madvise(map + kept[i].page * PAGE_SIZE, PAGE_SIZE,
			MADV_DONTNEED);
	mlock_all(map, cap);
	set = flagged(pfns, nk, KPF_BUDDY, &none);
	printf("pinholder: held %zu MiB, freed %u blocks but %zu pages,"
	       " then those: %zu with no page flag (per-cpu lists), %zu"
	       " in the buddy lists; the rest mlocked\n", len >> 20,
	       blocks, nk, none, set);
}

/* pcp: hold until SIGTERM/SIGINT, allocating one page of @nid a ms */
static int hold_allocating(int nid, const char *ready)
{
	char *page = map_on_node(PAGE_SIZE, nid);

	if (!page || hold_announce("pinholder", ready))
		return -1;
	while (!hold_stop) {
		page[0] = 1;
		madvise(page, PAGE_SIZE, MADV_DONTNEED);
		usleep(1000);
	}
	return 0;
}

static void usage(const char *prog)
{
	fprintf(stderr, "usage: %s -n NODE [-M pipes|lock|pcp] [-m MiB] [-o ORDER]"
		" [-g N] [-s MiB] [-c KiB] [-k N] [-w ms] [-R ready_file]\n"
		"  -M  how the blocks are held (default pipes)\n"
		"  -m  fill until each zone is at most MiB above low (default 2)\n"
		"  pipes:\n"
		"  -o  order of the freed groups (default 3)\n"
		"  -g  groups freed in each block (default 2)\n"
		"  -s  pipe pages beyond the node's low watermark (default 4 MiB)\n"
		"  -c  then free one chunk of KiB in two (default 16)\n"
		"  lock, pcp:\n"
		"  -k  pages kept in each block, a power of 2 (default 4)\n"
		"  -w  ms to wait before the kept pages are counted (lock)"
		" or freed (pcp) (default 1000)\n"
		"  pcp:\n"
		"  -b  blocks freed but for the kept pages (default 40)\n"
		"  -f  percpu_pagelist_high_fraction for the kept pages"
		" (default 8)\n", prog);
	exit(2);
}

int main(int argc, char **argv)
{
	unsigned long margin = 2, spill = 4, chunk_kib = 16;
	unsigned int order = 3, groups = 2, keep = 4, wait_ms = 1000;
	unsigned int blocks = 40;
	unsigned long fraction = 8;
	struct zone_wm z[MAX_ZONES];
	enum mode mode = PIPES;
	const char *ready = NULL;
	size_t cap, len, n, nk = 0;
	struct held *h, *kept = NULL;
	uint64_t *pfns = NULL;
	int nid = -1, opt, nz;
	char *map;

	while ((opt = getopt(argc, argv, "n:M:m:o:g:s:c:k:w:b:f:R:")) != -1) {
		switch (opt) {
		case 'n': nid = parse_num(optarg, "pinholder"); break;
		case 'M':
			if (!strcmp(optarg, "pipes"))
				mode = PIPES;
			else if (!strcmp(optarg, "lock"))
				mode = LOCK;
			else if (!strcmp(optarg, "pcp"))
				mode = PCP;
			else
				usage(argv[0]);
			break;
		case 'm': margin = parse_num(optarg, "pinholder"); break;
		case 'o': order = parse_num(optarg, "pinholder"); break;
		case 'g': groups = parse_num(optarg, "pinholder"); break;
		case 's': spill = parse_num(optarg, "pinholder"); break;
		case 'c': chunk_kib = parse_num(optarg, "pinholder"); break;
		case 'k': keep = parse_num(optarg, "pinholder"); break;
		case 'w': wait_ms = parse_num(optarg, "pinholder"); break;
		case 'b': blocks = parse_num(optarg, "pinholder"); break;
		case 'f': fraction = parse_num(optarg, "pinholder"); break;
		case 'R': ready = optarg; break;
		default: usage(argv[0]);
		}
	}
	if (nid < 0 || nid > 63 || optind != argc || order >= PAGEBLOCK_ORDER ||
	    !groups || !chunk_kib || chunk_kib % 4 || !keep ||
	    keep > (1U << PAGEBLOCK_ORDER) || (keep & (keep - 1)) || !blocks)
		usage(argv[0]);
	prctl(PR_SET_NAME, "fv-holder");
	hold_prepare();

	nz = read_zones(nid, z);
	cap = 0;
	for (int i = 0; i < nz; i++)
		cap += z[i].free * PAGE_SIZE;
	cap &= ~(STEP - 1);
	if (!nz) {
		fprintf(stderr, "pinholder: node %d has no zone\n", nid);
		return 1;
	}
	map = map_on_node(cap, nid);
	if (!map)
		return 1;
	madvise(map, cap, MADV_NOHUGEPAGE);
	len = fill(map, cap, nid, margin << 20 >> 12, mode == PIPES);

	h = held_pages(map, len, &n);
	if (mode == PIPES) {
		pin_with_pipes(map, len, h, n, nid, order, groups, spill,
			       chunk_kib);
	} else if (mode == LOCK) {
		lock_thin(map, cap, len, h, n, keep, wait_ms);
	} else {
		kept = malloc((size_t)blocks * keep * sizeof(*kept));
		pfns = malloc((size_t)blocks * keep * sizeof(*pfns));
		if (!kept || !pfns) {
			perror("pinholder: malloc");
			return 1;
		}
		nk = free_blocks(map, h, n, blocks, keep, kept);
		for (size_t i = 0; i < nk; i++)
			pfns[i] = kept[i].pfn;
	}
	free(h);
	if (mode == PCP)
		release_kept(map, cap, len, kept, pfns, nk, blocks, wait_ms,
			     fraction);

	nz = read_zones(nid, z);
	for (int i = 0; i < nz; i++)
		printf("pinholder: node %d %s: free %lu min %lu low %lu"
		       " managed %lu pages\n", nid, z[i].name, z[i].free,
		       z[i].min, z[i].low, z[i].managed);
	fflush(stdout);
	if (mode == PCP)
		return hold_allocating(nid, ready) ? 1 : 0;
	return hold_until_signal("pinholder", ready) ? 1 : 0;
}
