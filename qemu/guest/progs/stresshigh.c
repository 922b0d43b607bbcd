// SPDX-License-Identifier: GPL-2.0
/*
 * stresshigh - order-9 attempts as mmtests' stress-highalloc makes them,
 * for experiment/run.sh: -n attempts of each style, the styles taking
 * turns, -w milliseconds apart, every page obtained held until the end.
 *
 *   hugetlb  grow the hugetlb pool by one 2 MiB page (a write of
 *            nr_hugepages: htlb_alloc_mask() | __GFP_RETRY_MAYFAIL, so
 *            reclaim is retried while it makes progress)
 *   thp      fault the first byte of a 2 MiB-aligned anonymous region
 *            advised MADV_HUGEPAGE (with THP defrag "madvise" the fault
 *            asks GFP_TRANSHUGE: one pass of direct reclaim and
 *            compaction, then the 4 KiB fallback); success is a THP
 *            head under the byte (/proc/kpageflags), then mlock()ed so
 *            that reclaim cannot split and swap it out for the attempts
 *            after it; a failed region is unmapped again
 *
 * With -r an attempt is made only while MemAvailable stays -r MiB above
 * the 2 MiB it takes: the pages held must not drive the load beside them
 * into the OOM killer.  An attempt not made is "refused", not failed.
 *
 * Every attempt is a line of -l FILE ("I STYLE ok|fail|refused MS", MS
 * empty when refused); stdout gets one line per style:
 *
 *   style thp attempts 64 obtained 20 refused 3 seconds 12.5
 *
 * With -H FILE, once done, FILE is created and the pages stay held until
 * SIGTERM or SIGINT (so that the state with them held can be read);
 * the hugetlb pool is emptied on exit.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "meminfo.h"
#include "now_ns.h"
#include "pagemap.h"

#define HUGE_SIZE	(2UL << 20)
#define NR_HUGEPAGES	"/proc/sys/vm/nr_hugepages"
#define KPF_THP		22

enum style { HUGETLB, THP, NR_STYLES };
static const char *const style_name[NR_STYLES] = { "hugetlb", "thp" };

struct tally {
	unsigned long attempts, obtained, refused;
	double seconds;
};

static long pool_pages;

static void write_pool(long n)
{
	FILE *f = fopen(NR_HUGEPAGES, "w");

	if (!f) {
		perror("stresshigh: " NR_HUGEPAGES);
		exit(1);
	}
	/* what the kernel could not allocate is not an error of the
	 * write: the count read back says what it did */
	fprintf(f, "%ld\n", n);
	fclose(f);
}

static long read_pool(void)
{
	FILE *f = fopen(NR_HUGEPAGES, "r");
	long n = -1;

	if (!f || fscanf(f, "%ld", &n) != 1) {
		fprintf(stderr, "stresshigh: cannot read %s\n", NR_HUGEPAGES);
		exit(1);
	}
	fclose(f);
	return n;
}

static int attempt_hugetlb(void)
{
	long before = pool_pages;

	write_pool(before + 1);
	pool_pages = read_pool();
	return pool_pages > before;
}

static int is_thp(char *addr)
{
	uint64_t *pfn = pagemap_pfns("stresshigh", addr, 1);
	uint64_t flags = 0;
	FILE *f = fopen("/proc/kpageflags", "r");

	if (!f || !*pfn || fseek(f, *pfn * sizeof(flags), SEEK_SET) ||
	    fread(&flags, sizeof(flags), 1, f) != 1) {
		fprintf(stderr, "stresshigh: cannot read /proc/kpageflags\n");
		exit(1);
	}
	fclose(f);
	free(pfn);
	return !!(flags & (1ULL << KPF_THP));
}

static int attempt_thp(void)
{
	char *map = mmap(NULL, 2 * HUGE_SIZE, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	char *huge;
	size_t head;

	if (map == MAP_FAILED) {
		perror("stresshigh: mmap");
		exit(1);
	}
	huge = (char *)(((uintptr_t)map + HUGE_SIZE - 1) & ~(HUGE_SIZE - 1));
	/* keep exactly the aligned 2 MiB: nothing else faults in here */
	head = huge - map;
	if (head)
		munmap(map, head);
	munmap(huge + HUGE_SIZE, HUGE_SIZE - head);
	if (madvise(huge, HUGE_SIZE, MADV_HUGEPAGE)) {
		perror("stresshigh: madvise(MADV_HUGEPAGE)");
		exit(1);
	}
	*(volatile char *)huge = 1;
	if (is_thp(huge)) {
		/* held until exit: locked, or reclaim would split and swap
		 * it out for the attempts after it */
		if (mlock(huge, HUGE_SIZE)) {
			perror("stresshigh: mlock");
			exit(1);
		}
		return 1;
	}
	munmap(huge, HUGE_SIZE);
	return 0;
}

static volatile sig_atomic_t stop;

static void on_stop(int sig)
{
	(void)sig;
	stop = 1;
}

static void usage(void)
{
	fprintf(stderr, "usage: stresshigh [-n per_style] [-w ms] [-r MiB]"
		" [-s hugetlb|thp|both] [-l log] [-H ready_file]\n");
	exit(2);
}

static unsigned long number(const char *s)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *end || end == s)
		usage();
	return v;
}

int main(int argc, char **argv)
{
	unsigned long per_style = 32, wait_ms = 40, reserve_kib = 0, i;
	const char *log_path = NULL, *hold = NULL;
	struct tally t[NR_STYLES] = { 0 };
	int first = HUGETLB, nstyles = NR_STYLES, opt;
	sigset_t block, unblocked;
	FILE *log = NULL;

	while ((opt = getopt(argc, argv, "n:w:r:s:l:H:")) != -1) {
		switch (opt) {
		case 'n': per_style = number(optarg); break;
		case 'w': wait_ms = number(optarg); break;
		case 'r': reserve_kib = number(optarg) << 10; break;
		case 'l': log_path = optarg; break;
		case 'H': hold = optarg; break;
		case 's':
			if (!strcmp(optarg, "hugetlb"))
				nstyles = 1;
			else if (!strcmp(optarg, "thp"))
				first = THP, nstyles = 1;
			else if (strcmp(optarg, "both"))
				usage();
			break;
		default: usage();
		}
	}
	if (optind != argc)
		usage();
	if (log_path && !(log = fopen(log_path, "w"))) {
		perror(log_path);
		return 1;
	}
	sigemptyset(&block);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGINT);
	sigprocmask(SIG_BLOCK, &block, &unblocked);
	signal(SIGTERM, on_stop);
	signal(SIGINT, on_stop);
	pool_pages = read_pool();
	for (i = 0; i < per_style * nstyles; i++) {
		struct timespec gap = { wait_ms / 1000, wait_ms % 1000 * 1000000 };
		int s = nstyles == 1 ? first : (int)(i % NR_STYLES);
		uint64_t t0;
		int ok;

		if (i && wait_ms)
			nanosleep(&gap, NULL);
		t[s].attempts++;
		if (reserve_kib && meminfo_kib("MemAvailable") < reserve_kib + 2048) {
			t[s].refused++;
			if (log)
				fprintf(log, "%lu %s refused\n", i, style_name[s]);
			continue;
		}
		t0 = now_ns();
		ok = s == HUGETLB ? attempt_hugetlb() : attempt_thp();
		t0 = now_ns() - t0;
		t[s].obtained += ok;
		t[s].seconds += t0 / 1e9;
		if (log)
			fprintf(log, "%lu %s %s %.3f\n", i, style_name[s],
				ok ? "ok" : "fail", t0 / 1e6);
	}
	if (log && fclose(log)) {
		perror(log_path);
		return 1;
	}
	for (int s = 0; s < NR_STYLES; s++)
		if (t[s].attempts)
			printf("style %s attempts %lu obtained %lu refused %lu seconds %.1f\n",
			       style_name[s], t[s].attempts, t[s].obtained,
			       t[s].refused, t[s].seconds);
	fflush(stdout);
	if (hold) {
		FILE *f = fopen(hold, "w");

		if (!f || fclose(f)) {
			perror(hold);
			return 1;
		}
		while (!stop)
			sigsuspend(&unblocked);
	}
	write_pool(0);
	return 0;
}
