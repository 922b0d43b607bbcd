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
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define NR_HUGEPAGES "/proc/sys/vm/nr_hugepages"

static int write_pool(unsigned long n)
{
	FILE *f = fopen(NR_HUGEPAGES, "w");

	if (!f || fprintf(f, "%lu\n", n) < 0 || fclose(f)) {
		fprintf(stderr, "highalloc: write %s: %s\n", NR_HUGEPAGES,
			strerror(errno));
		return -1;
	}
	return 0;
}

static long read_pool(void)
{
	FILE *f = fopen(NR_HUGEPAGES, "r");
	long n = -1;

	if (!f || fscanf(f, "%ld", &n) != 1)
		fprintf(stderr, "highalloc: read %s failed\n", NR_HUGEPAGES);
	if (f)
		fclose(f);
	return n;
}

int main(int argc, char **argv)
{
	unsigned long requested = 32;
	int keep = 0, opt;
	long obtained;
	char *end;

	while ((opt = getopt(argc, argv, "n:k")) != -1) {
		switch (opt) {
		case 'n':
			errno = 0;
			requested = strtoul(optarg, &end, 0);
			if (errno || *end || end == optarg)
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

	if (write_pool(0) || write_pool(requested))
		return 1;
	obtained = read_pool();
	if (obtained < 0)
		return 1;
	printf("requested %lu obtained %ld\n", requested, obtained);
	if (!keep && write_pool(0))
		return 1;
	return 0;
usage:
	fprintf(stderr, "usage: %s [-n hugepages] [-k]\n", argv[0]);
	return 2;
}
