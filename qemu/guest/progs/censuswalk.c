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
 * whose census lines agree was at rest while it was walked. The census
 * and buddyinfo files stay open and are read again from offset 0: each
 * open allocates the file's seq_file buffer, a slab object, and a slab
 * page freed and allocated again around the walk would be slab in both
 * censuses but not in the walk.
 *
 * A page can leave a state and come back between two reads: on 6.12 a
 * folio waiting in a per-CPU LRU batch has PG_lru clear, set again when
 * the batch drains.  So the cycle is census, walk, census, walk, census:
 * a block is at rest when its three census lines and its two walks
 * agree (one flip of a page's state after the first census and one back
 * before the second passed for rest when there was one walk).
 *
 * A zone is at rest when its part of the census and its /proc/buddyinfo
 * line read the same before and after the walk. Background work (vmstat,
 * kworkers) touches a few pages now and then, more so on a loaded host:
 * the cycle is repeated, up to MAX_ATTEMPTS times, until some zone was at
 * rest, and the attempt with the most zones at rest is printed.
 *
 * Output: "attempts N zones_at_rest Z", "census1" + the first read,
 * "buddyinfo1" + /proc/buddyinfo, one "kpf" line per block, "buddyinfo2",
 * "census2" + the second read, one "kpf2" line per block (the second
 * walk), "census3" + the third read:
 *
 *   kpf 0xPFN pages free lru slab pgtable reserved offline other nopage huge
 *
 * huge: pages of hugetlb folios (KPF_HUGE, on head and tails), which the
 * census counts as hugetlb since series v3; the column comes last so that
 * older outputs read the same.
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
#define KPF_HUGE		17
#define KPF_NOPAGE		20
#define KPF_OFFLINE		23
#define KPF_PGTABLE		26
#define KPF_RESERVED		32

#define BIT(n)		(1ULL << (n))
#define TEXT_MAX	(2UL << 20)
#define MAX_BLOCKS	(1UL << 16)
#define MAX_ATTEMPTS	5

enum { C_FREE, C_LRU, C_SLAB, C_PGTABLE, C_RESERVED, C_OFFLINE, C_OTHER,
       C_NOPAGE, C_HUGE, NR_CLASSES };

struct block {
	unsigned long pfn, pages;
	unsigned int count[NR_CLASSES];
};

/* One census-walk-census-walk-census cycle */
struct attempt {
	char *census1, *census2, *census3, *buddy1, *buddy2;
	struct block *blocks, *blocks2;
	unsigned long nr_blocks;
	int zones_at_rest;
};

static struct attempt try, best;
static char *scratch;
static uint64_t *flags;
static unsigned long block_pages;
static int kpf_fd;

static void die(const char *what)
{
	perror(what);
	exit(1);
}

static int open_or_die(const char *path)
{
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		die(path);
	return fd;
}

/* read all of @fd (@path) from offset 0 into @buf (TEXT_MAX bytes), NUL-terminated */
static void slurp(int fd, const char *path, char *buf)
{
	size_t len = 0;
	ssize_t n;

	if (lseek(fd, 0, SEEK_SET) != 0)
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
		else if (f & BIT(KPF_HUGE))
			c = C_HUGE;
		else if (h & BIT(KPF_LRU))
			c = C_LRU;
		else if (f & BIT(KPF_SLAB))
			c = C_SLAB;
		else
			c = C_OTHER;
		b->count[c]++;
	}
}

static void *zalloc(size_t size)
{
	void *p = calloc(1, size);	/* calloc touches nothing: */

	if (!p)
		die("calloc");
	memset(p, 0, size);		/* fault it in now */
	return p;
}

static void alloc_attempt(struct attempt *a)
{
	a->census1 = zalloc(TEXT_MAX);
	a->census2 = zalloc(TEXT_MAX);
	a->census3 = zalloc(TEXT_MAX);
	a->buddy1 = zalloc(TEXT_MAX);
	a->buddy2 = zalloc(TEXT_MAX);
	a->blocks = zalloc(MAX_BLOCKS * sizeof(*a->blocks));
	a->blocks2 = zalloc(MAX_BLOCKS * sizeof(*a->blocks2));
}

/*
 * Walk every block census1 lists into @blocks; 0, or -1 on a census it
 * cannot read
 */
static int walk_census(struct attempt *a, struct block *blocks)
{
	unsigned long zstart = 0, zend = 0;
	char *line, *save;

	a->nr_blocks = 0;
	memcpy(scratch, a->census1, TEXT_MAX);
	for (line = strtok_r(scratch, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		unsigned long pfn, order;
		struct block *b;

		if (sscanf(line, "node %*d zone %*s start_pfn %lx end_pfn %lx nr_blocks %*u pageblock_order %lu",
			   &zstart, &zend, &order) == 3) {
			block_pages = 1UL << order;
			if (block_pages > (1UL << 18)) {
				fprintf(stderr, "censuswalk: pageblock_order %lu too large\n",
					order);
				return -1;
			}
			continue;
		}
		if (sscanf(line, "0x%lx", &pfn) != 1 || !block_pages) {
			fprintf(stderr, "censuswalk: bad census line '%s'\n", line);
			return -1;
		}
		if (a->nr_blocks == MAX_BLOCKS) {
			fprintf(stderr, "censuswalk: more than %lu blocks\n",
				MAX_BLOCKS);
			return -1;
		}
		b = &blocks[a->nr_blocks++];
		memset(b, 0, sizeof(*b));
		b->pfn = pfn;
		walk(b, pfn > zstart ? pfn : zstart,
		     pfn + block_pages < zend ? pfn + block_pages : zend);
	}
	return 0;
}

/* The zone part of census text @text starting at @zone (a "node" line) */
static size_t zone_len(const char *zone)
{
	const char *next = strstr(zone + 1, "\nnode ");

	return next ? (size_t)(next + 1 - zone) : strlen(zone);
}

/* The /proc/buddyinfo line of node @nid zone @name in @text, or NULL */
static const char *buddy_line(const char *text, int nid, const char *name,
			      size_t *len)
{
	const char *p;

	for (p = text; *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : p + strlen(p)) {
		char zname[32];
		int n;

		if (sscanf(p, "Node %d, zone %31s", &n, zname) == 2 &&
		    n == nid && !strcmp(zname, name)) {
			const char *end = strchr(p, '\n');

			*len = end ? (size_t)(end - p) : strlen(p);
			return p;
		}
	}
	return NULL;
}

/* Zones whose census text and buddyinfo line did not change */
static int zones_at_rest(const struct attempt *a)
{
	const char *z1 = a->census1, *z2 = a->census2;
	int rest = 0;

	while (!strncmp(z1, "node ", 5) && !strncmp(z2, "node ", 5)) {
		size_t l1 = zone_len(z1), l2 = zone_len(z2), b1, b2;
		const char *y1, *y2;
		char name[32];
		int nid;

		if (sscanf(z1, "node %d zone %31s", &nid, name) == 2 &&
		    l1 == l2 && !memcmp(z1, z2, l1) &&
		    (y1 = buddy_line(a->buddy1, nid, name, &b1)) &&
		    (y2 = buddy_line(a->buddy2, nid, name, &b2)) &&
		    b1 == b2 && !memcmp(y1, y2, b1))
			rest++;
		z1 += l1;
		z2 += l2;
	}
	return rest;
}

static void print_walk(const char *tag, const struct block *b, unsigned long n)
{
	for (unsigned long i = 0; i < n; i++) {
		const unsigned int *c = b[i].count;

		printf("%s 0x%lx %lu %u %u %u %u %u %u %u %u %u\n", tag,
		       b[i].pfn, b[i].pages, c[C_FREE], c[C_LRU], c[C_SLAB],
		       c[C_PGTABLE], c[C_RESERVED], c[C_OFFLINE], c[C_OTHER],
		       c[C_NOPAGE], c[C_HUGE]);
	}
}

int main(int argc, char **argv)
{
	const char *census = argc > 1 ? argv[1] :
		"/sys/kernel/debug/mobility/census";
	const char *buddyinfo = "/proc/buddyinfo";
	struct attempt tmp;
	int n, census_fd, buddy_fd;

	alloc_attempt(&try);
	alloc_attempt(&best);
	best.zones_at_rest = -1;
	scratch = zalloc(TEXT_MAX);
	flags = zalloc((1UL << 18) * sizeof(*flags));
	kpf_fd = open_or_die("/proc/kpageflags");
	census_fd = open_or_die(census);
	buddy_fd = open_or_die(buddyinfo);

	for (n = 1; n <= MAX_ATTEMPTS; n++) {
		slurp(census_fd, census, try.census1);
		slurp(buddy_fd, buddyinfo, try.buddy1);
		if (walk_census(&try, try.blocks))
			return 1;
		slurp(buddy_fd, buddyinfo, try.buddy2);
		slurp(census_fd, census, try.census2);
		if (walk_census(&try, try.blocks2))
			return 1;
		slurp(census_fd, census, try.census3);
		try.zones_at_rest = zones_at_rest(&try);
		if (try.zones_at_rest > best.zones_at_rest) {
			tmp = best;
			best = try;
			try = tmp;
		}
		if (best.zones_at_rest > 0)
			break;
	}

	printf("attempts %d zones_at_rest %d\n", n > MAX_ATTEMPTS ? MAX_ATTEMPTS : n,
	       best.zones_at_rest);
	printf("census1\n%sbuddyinfo1\n%s", best.census1, best.buddy1);
	print_walk("kpf", best.blocks, best.nr_blocks);
	printf("buddyinfo2\n%scensus2\n%s", best.buddy2, best.census2);
	print_walk("kpf2", best.blocks2, best.nr_blocks);
	printf("census3\n%s", best.census3);
	if (fflush(stdout) || ferror(stdout))
		die("stdout");
	return 0;
}
