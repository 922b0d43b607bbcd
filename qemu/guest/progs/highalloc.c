// SPDX-License-Identifier: GPL-2.0
/*
 * highalloc - ask the kernel for N order-9 (2 MiB) pages through the
 * hugetlb pool and report how many it could assemble:
 *
 *   requested 64 obtained 41
 *
 * Writing /proc/sys/vm/nr_hugepages makes the kernel allocate each huge
 * page with __GFP_RETRY_MAYFAIL, compacting as needed, so the result shows
 * how fragmented physical memory is.  The pool is emptied again on exit
 * unless -k is given.
 *
 * With -a the N pages are N separate attempts instead, each growing the
 * pool by one page, -w milliseconds apart, like the 2005 test's module
 * ("it only attempts 160 times, no matter how often it succeeds"); one
 * write of N stops at the first failure.  The pages obtained are kept
 * until the last attempt, and per node.  With -r an attempt is only made
 * while MemFree stays -r MiB above the 2 MiB it would take, so that the
 * pages held do not starve a load running beside them into the OOM
 * killer; the attempts not made are "refused":
 *
 *   requested 256 obtained 97 refused 0 reserve_kib 0 seconds 4.2 node0 51 node1 46
 *
 * With -N NODE the pool is node NODE's alone (its nr_hugepages in sysfs):
 * every attempt is then one __GFP_THISNODE allocation on that node, where
 * the global pool would go round the nodes and try another after a
 * failure.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define NR_HUGEPAGES "/proc/sys/vm/nr_hugepages"
#define NODE_HUGEPAGES \
	"/sys/devices/system/node/node%d/hugepages/hugepages-2048kB/nr_hugepages"

/* the pool's nr_hugepages: the global one, or a node's (-N) */
static char pool[128] = NR_HUGEPAGES;

static int write_pool(unsigned long n)
{
	FILE *f = fopen(pool, "w");

	if (!f || fprintf(f, "%lu\n", n) < 0 || fclose(f)) {
		fprintf(stderr, "highalloc: write %s: %s\n", pool,
			strerror(errno));
		return -1;
	}
	return 0;
}

static void write_pool_quiet(unsigned long n)
{
	FILE *f = fopen(pool, "w");

	if (f) {
		fprintf(f, "%lu\n", n);
		fclose(f);
	}
}

static long read_pool(void)
{
	FILE *f = fopen(pool, "r");
	long n = -1;

	if (!f || fscanf(f, "%ld", &n) != 1)
		fprintf(stderr, "highalloc: read %s failed\n", pool);
	if (f)
		fclose(f);
	return n;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* " nodeN COUNT" for every node that has a hugepages directory */
static void print_nodes(void)
{
	char path[128];
	int nid;
	long n;

	for (nid = 0; ; nid++) {
		FILE *f;

		snprintf(path, sizeof(path), NODE_HUGEPAGES, nid);
		f = fopen(path, "r");
		if (!f)
			break;
		if (fscanf(f, "%ld", &n) == 1)
			printf(" node%d %ld", nid, n);
		fclose(f);
	}
}

static unsigned long mem_free_kib(void)
{
	char line[128];
	unsigned long kib = 0;
	FILE *f = fopen("/proc/meminfo", "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "MemFree: %lu", &kib) == 1)
			break;
	fclose(f);
	return kib;
}

/* @n attempts of one page each, @wait_ms apart, keeping @reserve_kib
 * free; -1 on error */
static long attempts(unsigned long n, unsigned long wait_ms,
		     unsigned long reserve_kib)
{
	struct timespec gap = { wait_ms / 1000, wait_ms % 1000 * 1000000 };
	long got = 0;
	unsigned long i, refused = 0;
	double t0 = now();

	if (write_pool(0))
		return -1;
	for (i = 0; i < n; i++) {
		if (i && wait_ms)
			nanosleep(&gap, NULL);
		if (reserve_kib && mem_free_kib() < reserve_kib + 2048) {
			refused++;
			continue;
		}
		/* a failed attempt leaves the pool as it was: the count
		 * read back says whether this one succeeded */
		write_pool_quiet(got + 1);
		got = read_pool();
		if (got < 0)
			return -1;
	}
	printf("requested %lu obtained %ld refused %lu reserve_kib %lu"
	       " seconds %.1f", n, got, refused, reserve_kib, now() - t0);
	print_nodes();
	printf("\n");
	return got;
}

static int parse_ulong(const char *s, unsigned long *v)
{
	char *end;

	errno = 0;
	*v = strtoul(s, &end, 0);
	return errno || *end || end == s ? -1 : 0;
}

int main(int argc, char **argv)
{
	unsigned long requested = 32, wait_ms = 0, reserve_mib = 0, nid;
	int keep = 0, one_by_one = 0, opt;
	long obtained;

	while ((opt = getopt(argc, argv, "n:kaw:r:N:")) != -1) {
		switch (opt) {
		case 'N':
			if (parse_ulong(optarg, &nid) || nid > 1023)
				goto usage;
			snprintf(pool, sizeof(pool), NODE_HUGEPAGES, (int)nid);
			if (access(pool, W_OK)) {
				fprintf(stderr, "highalloc: node %lu: %s: %s\n",
					nid, pool, strerror(errno));
				return 1;
			}
			break;
		case 'r':
			if (parse_ulong(optarg, &reserve_mib))
				goto usage;
			break;
		case 'a':
			one_by_one = 1;
			break;
		case 'w':
			if (parse_ulong(optarg, &wait_ms))
				goto usage;
			break;
		case 'n':
			if (parse_ulong(optarg, &requested))
				goto usage;
			break;
		case 'k':
			keep = 1;
			break;
		default:
			goto usage;
		}
	}
	if (optind != argc)
		goto usage;

	if (one_by_one) {
		obtained = attempts(requested, wait_ms, reserve_mib << 10);
		if (obtained < 0)
			return 1;
	} else {
		if (write_pool(0) || write_pool(requested))
			return 1;
		obtained = read_pool();
		if (obtained < 0)
			return 1;
		printf("requested %lu obtained %ld\n", requested, obtained);
	}
	if (!keep && write_pool(0))
		return 1;
	return 0;
usage:
	fprintf(stderr, "usage: %s [-n hugepages] [-k] [-a [-w ms] [-r MiB]] [-N node]\n",
		argv[0]);
	return 2;
}
