// SPDX-License-Identifier: GPL-2.0
/*
 * censuswalk - read /sys/kernel/debug/mobility/census, classify the pages
 * of every block it lists from /proc/kpageflags, and read the census
 * again, for tests/host/census.py to compare.
 *
 * The walk is the independent side of the comparison: it sees only the
 * page flags the kernel exports, not the census code. Between the two
 * census reads nothing of ours allocates: every buffer is allocated and
 * touched first, and the results are printed only at the end, so a block
 * whose two census lines agree was at rest while it was walked.
 *
 * Output: "census1" + the first read, "buddyinfo1" + /proc/buddyinfo,
 * one "kpf" line per block, "buddyinfo2", "census2" + the second read:
 *
 *   kpf 0xPFN pages free lru slab pgtable reserved offline other nopage
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define KPF_SLAB		7
#define KPF_LRU			5
#define KPF_BUDDY		10
#define KPF_COMPOUND_HEAD	15
#define KPF_COMPOUND_TAIL	16
#define KPF_NOPAGE		20
#define KPF_OFFLINE		23
#define KPF_PGTABLE		26
#define KPF_RESERVED		32

#define BIT(n)		(1ULL << (n))
#define TEXT_MAX	(16UL << 20)
#define MAX_BLOCKS	(1UL << 16)

enum { C_FREE, C_LRU, C_SLAB, C_PGTABLE, C_RESERVED, C_OFFLINE, C_OTHER,
       C_NOPAGE, NR_CLASSES };

struct block {
	unsigned long pfn, pages;
	unsigned int count[NR_CLASSES];
};

static char *census1, *census2, *buddy1, *buddy2;
static struct block *blocks;
static uint64_t *flags;
static unsigned long nr_blocks, block_pages;
static int kpf_fd;

static void die(const char *what)
{
	perror(what);
	exit(1);
}

/* read all of @path into @buf (TEXT_MAX bytes), NUL-terminated */
static void slurp(const char *path, char *buf)
{
	size_t len = 0;
	ssize_t n;
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		die(path);
	while ((n = read(fd, buf + len, TEXT_MAX - 1 - len)) > 0)
		len += n;
	if (n < 0)
		die(path);
	if (len == TEXT_MAX - 1) {
		fprintf(stderr, "censuswalk: %s larger than %lu bytes\n",
			path, TEXT_MAX);
		exit(1);
	}
	buf[len] = '\0';
	close(fd);
}

static uint64_t kpf_at(unsigned long pfn)
{
	uint64_t v;

	if (pread(kpf_fd, &v, sizeof(v), pfn * sizeof(v)) != sizeof(v))
		die("/proc/kpageflags");
	return v;
}

/* The flags that decide a tail page's class are its head's */
static uint64_t head_flags(unsigned long pfn, unsigned long first)
{
	while (pfn > 0) {
		uint64_t f = pfn >= first ? flags[pfn - first] : kpf_at(pfn);

		if (!(f & BIT(KPF_COMPOUND_TAIL)))
			return f;
		pfn--;
	}
	return 0;
}

/* Classify the block's pages in [@start, @end), the same precedence as the census */
static void walk(struct block *b, unsigned long start, unsigned long end)
{
	unsigned long n = end - start, pfn;
	ssize_t want = n * sizeof(uint64_t);

	if (pread(kpf_fd, flags, want, start * sizeof(uint64_t)) != want)
		die("/proc/kpageflags");
	b->pages = n;
	for (pfn = start; pfn < end; pfn++) {
		uint64_t f = flags[pfn - start], h = f;
		int c;

		if (f & BIT(KPF_COMPOUND_TAIL))
			h = head_flags(pfn, start);
		if (f & BIT(KPF_NOPAGE))
			c = C_NOPAGE;
		else if (f & BIT(KPF_BUDDY))
			c = C_FREE;
		else if (f & BIT(KPF_RESERVED))
			c = C_RESERVED;
		else if (f & BIT(KPF_OFFLINE))
			c = C_OFFLINE;
		else if (f & BIT(KPF_PGTABLE))
			c = C_PGTABLE;
		else if (h & BIT(KPF_LRU))
			c = C_LRU;
		else if (f & BIT(KPF_SLAB))
			c = C_SLAB;
		else
			c = C_OTHER;
		b->count[c]++;
	}
}

int main(int argc, char **argv)
{
	const char *census = argc > 1 ? argv[1] :
		"/sys/kernel/debug/mobility/census";
	unsigned long zstart = 0, zend = 0, i;
	char *line, *save;

	census1 = malloc(TEXT_MAX);
	census2 = malloc(TEXT_MAX);
	buddy1 = malloc(TEXT_MAX);
	buddy2 = malloc(TEXT_MAX);
	blocks = calloc(MAX_BLOCKS, sizeof(*blocks));
	flags = malloc((1UL << 18) * sizeof(*flags));
	if (!census1 || !census2 || !buddy1 || !buddy2 || !blocks || !flags)
		die("malloc");
	/* fault everything in now, not between the two reads */
	memset(census1, 0, TEXT_MAX);
	memset(census2, 0, TEXT_MAX);
	memset(buddy1, 0, TEXT_MAX);
	memset(buddy2, 0, TEXT_MAX);
	memset(flags, 0, (1UL << 18) * sizeof(*flags));
	kpf_fd = open("/proc/kpageflags", O_RDONLY);
	if (kpf_fd < 0)
		die("/proc/kpageflags");

	slurp(census, census1);
	slurp("/proc/buddyinfo", buddy1);

	/* the walk: a copy of census1 to tokenise, kept in census2 for now */
	memcpy(census2, census1, TEXT_MAX);
	for (line = strtok_r(census2, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		unsigned long pfn, order;
		struct block *b;

		if (sscanf(line, "node %*d zone %*s start_pfn %lx end_pfn %lx nr_blocks %*u pageblock_order %lu",
			   &zstart, &zend, &order) == 3) {
			block_pages = 1UL << order;
			if (block_pages > (1UL << 18)) {
				fprintf(stderr, "censuswalk: pageblock_order %lu too large\n",
					order);
				return 1;
			}
			continue;
		}
		if (sscanf(line, "0x%lx", &pfn) != 1 || !block_pages) {
			fprintf(stderr, "censuswalk: bad census line '%s'\n", line);
			return 1;
		}
		if (nr_blocks == MAX_BLOCKS) {
			fprintf(stderr, "censuswalk: more than %lu blocks\n",
				MAX_BLOCKS);
			return 1;
		}
		b = &blocks[nr_blocks++];
		b->pfn = pfn;
		walk(b, pfn > zstart ? pfn : zstart,
		     pfn + block_pages < zend ? pfn + block_pages : zend);
	}

	slurp("/proc/buddyinfo", buddy2);
	slurp(census, census2);

	printf("census1\n%sbuddyinfo1\n%s", census1, buddy1);
	for (i = 0; i < nr_blocks; i++) {
		const unsigned int *c = blocks[i].count;

		printf("kpf 0x%lx %lu %u %u %u %u %u %u %u %u\n", blocks[i].pfn,
		       blocks[i].pages, c[C_FREE], c[C_LRU], c[C_SLAB],
		       c[C_PGTABLE], c[C_RESERVED], c[C_OFFLINE], c[C_OTHER],
		       c[C_NOPAGE]);
	}
	printf("buddyinfo2\n%scensus2\n%s", buddy2, census2);
	if (fflush(stdout) || ferror(stdout))
		die("stdout");
	return 0;
}
