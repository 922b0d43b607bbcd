// SPDX-License-Identifier: GPL-2.0
/*
 * movepages - move the pages of a buffer between NUMA nodes with the raw
 * move_pages(2) and migrate_pages(2) system calls (no libnuma), and report
 * where every page ended up:
 *
 *   step to_node1 syscall move_pages
 *   page 0x7f0000001000 status 1 pfn_before 0x1234 pfn_after 0x5678
 *   ...
 *   summary to_node1 pages 64 on_target 64 moved 64
 *
 * status is the node the page is on afterwards, or a negative errno.  PFNs
 * come from /proc/self/pagemap (0 if unreadable, e.g. not root).
 * With -H the buffer is n hugetlb (2 MiB) pages: the huge pages of the
 * pool must exist on both nodes (nodeN/hugepages/.../nr_hugepages).
 * With -b a third step binds the buffer to to_node with mbind(2) and
 * MPOL_MF_MOVE, which migrates its pages there (reason mempolicy_mbind).
 * With -c CGROUP (a cgroup v2 directory with the cpuset controller) a
 * last step drops that policy, joins CGROUP with cpuset.mems set to the
 * node the pages are on, then writes the other node to cpuset.mems: the
 * cpuset moves its tasks' pages there (cpuset_migrate_mm(), reason
 * syscall_or_cpuset; v2 always migrates, as v1 with memory_migrate set).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#define PAGE_SIZE 4096UL
#define PM_PFN_MASK ((1ULL << 55) - 1)
#define PM_PRESENT (1ULL << 63)
#define MPOL_MF_MOVE (1 << 1)
#define MPOL_DEFAULT 0
#define MPOL_BIND 2
#define HUGE_SIZE (2UL << 20)

static int pagemap_fd = -1;

static unsigned long page_pfn(void *addr)
{
	uint64_t entry;
	off_t off = (uintptr_t)addr / PAGE_SIZE * sizeof(entry);

	if (pagemap_fd < 0 ||
	    pread(pagemap_fd, &entry, sizeof(entry), off) != sizeof(entry) ||
	    !(entry & PM_PRESENT))
		return 0;
	return entry & PM_PFN_MASK;
}

/* Query (nodes == NULL) or move the pages; status[] gets node or -errno. */
static long sys_move_pages(unsigned long count, void **pages,
			   const int *nodes, int *status)
{
	return syscall(SYS_move_pages, 0, count, pages, nodes, status,
		       MPOL_MF_MOVE);
}

static long sys_migrate_pages(int from, int to)
{
	unsigned long old_nodes = 1UL << from, new_nodes = 1UL << to;

	return syscall(SYS_migrate_pages, 0, sizeof(old_nodes) * 8 + 1,
		       &old_nodes, &new_nodes);
}

static long sys_mbind(void *addr, unsigned long len, int node)
{
	unsigned long nodes = 1UL << node;

	return syscall(SYS_mbind, addr, len, MPOL_BIND, &nodes,
		       sizeof(nodes) * 8 + 1, MPOL_MF_MOVE);
}

/* no policy of its own for the range: the cpuset alone decides */
static long sys_mbind_default(void *addr, unsigned long len)
{
	return syscall(SYS_mbind, addr, len, MPOL_DEFAULT, NULL, 0, 0);
}

/* write "@value\n" to @dir/@file, or exit */
static void write_cgroup(const char *dir, const char *file, long value)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	f = fopen(path, "w");
	if (!f || fprintf(f, "%ld\n", value) < 0 || fclose(f)) {
		fprintf(stderr, "movepages: writing %ld to %s: %s\n", value,
			path, strerror(errno));
		exit(1);
	}
}

static void report(const char *step, unsigned long n, void **pages,
		   const unsigned long *before, int target)
{
	int *status = calloc(n, sizeof(*status));
	unsigned long i, on_target = 0, moved = 0;

	if (!status)
		exit(1);
	if (sys_move_pages(n, pages, NULL, status) < 0) {
		fprintf(stderr, "movepages: query: %s\n", strerror(errno));
		exit(1);
	}
	for (i = 0; i < n; i++) {
		unsigned long after = page_pfn(pages[i]);

		printf("page %p status %d pfn_before 0x%lx pfn_after 0x%lx\n",
		       pages[i], status[i], before[i], after);
		on_target += status[i] == target;
		moved += after != before[i];
	}
	printf("summary %s pages %lu on_target %lu moved %lu\n", step, n,
	       on_target, moved);
	free(status);
}

static void usage(const char *prog)
{
	fprintf(stderr, "usage: %s [-Hb] [-c cgroup] [-n pages] [-f from_node] [-t to_node]\n"
		"  moves the pages from -> to with move_pages(2), then back\n"
		"  with migrate_pages(2); -H: hugetlb pages of 2 MiB;\n"
		"  -b: then to again with mbind(2)\n"
		"  -c: then to the other node by the cpuset of cgroup v2 dir\n",
		prog);
	exit(2);
}

int main(int argc, char **argv)
{
	unsigned long n = 64, i, size = PAGE_SIZE;
	int flags = MAP_PRIVATE | MAP_ANONYMOUS;
	int from = 0, to = 1, opt, *nodes, *status, bind = 0, here;
	const char *cgroup = NULL;
	char step[32];
	unsigned long *pfns;
	void **pages;
	char *buf;
	long ret;

	while ((opt = getopt(argc, argv, "Hbc:n:f:t:h")) != -1) {
		switch (opt) {
		case 'H': size = HUGE_SIZE; flags |= MAP_HUGETLB; break;
		case 'b': bind = 1; break;
		case 'c': cgroup = optarg; break;
		case 'n': n = strtoul(optarg, NULL, 0); break;
		case 'f': from = atoi(optarg); break;
		case 't': to = atoi(optarg); break;
		default: usage(argv[0]);
		}
	}
	if (optind != argc || !n || from < 0 || to < 0 || from > 63 ||
	    to > 63 || from == to)
		usage(argv[0]);

	pagemap_fd = open("/proc/self/pagemap", O_RDONLY);
	buf = mmap(NULL, n * size, PROT_READ | PROT_WRITE, flags, -1, 0);
	pages = calloc(n, sizeof(*pages));
	nodes = calloc(n, sizeof(*nodes));
	pfns = calloc(n, sizeof(*pfns));
	status = calloc(n, sizeof(*status));
	if (buf == MAP_FAILED || !pages || !nodes || !pfns || !status) {
		fprintf(stderr, "movepages: out of memory\n");
		return 1;
	}
	if (size == PAGE_SIZE)
		madvise(buf, n * size, MADV_NOHUGEPAGE);
	for (i = 0; i < n; i++) {
		pages[i] = buf + i * size;
		buf[i * size] = (char)i;
	}

	/* start from a known node, quietly */
	for (i = 0; i < n; i++)
		nodes[i] = from;
	ret = sys_move_pages(n, pages, nodes, status);
	if (ret < 0) {
		fprintf(stderr, "movepages: move_pages: %s\n", strerror(errno));
		return 1;
	}

	for (i = 0; i < n; i++) {
		pfns[i] = page_pfn(pages[i]);
		nodes[i] = to;
	}
	snprintf(step, sizeof(step), "to_node%d", to);
	printf("step %s syscall move_pages\n", step);
	ret = sys_move_pages(n, pages, nodes, status);
	if (ret < 0) {
		fprintf(stderr, "movepages: move_pages: %s\n", strerror(errno));
		return 1;
	}
	report(step, n, pages, pfns, to);

	for (i = 0; i < n; i++)
		pfns[i] = page_pfn(pages[i]);
	snprintf(step, sizeof(step), "to_node%d", from);
	printf("step %s syscall migrate_pages\n", step);
	ret = sys_migrate_pages(to, from);
	if (ret < 0) {
		fprintf(stderr, "movepages: migrate_pages: %s\n",
			strerror(errno));
		return 1;
	}
	report(step, n, pages, pfns, from);

	if (bind) {
		for (i = 0; i < n; i++)
			pfns[i] = page_pfn(pages[i]);
		snprintf(step, sizeof(step), "to_node%d", to);
		printf("step %s syscall mbind\n", step);
		if (sys_mbind(buf, n * size, to) < 0) {
			fprintf(stderr, "movepages: mbind: %s\n",
				strerror(errno));
			return 1;
		}
		report(step, n, pages, pfns, to);
	}

	if (cgroup) {
		here = bind ? to : from;
		if (sys_mbind_default(buf, n * size) < 0) {
			fprintf(stderr, "movepages: mbind: %s\n",
				strerror(errno));
			return 1;
		}
		/* joining moves nothing: the pages are on the cpuset's node */
		write_cgroup(cgroup, "cpuset.mems", here);
		write_cgroup(cgroup, "cgroup.procs", getpid());
		for (i = 0; i < n; i++)
			pfns[i] = page_pfn(pages[i]);
		snprintf(step, sizeof(step), "to_node%d", here == to ? from : to);
		printf("step %s syscall cpuset\n", step);
		/* returns once the cpuset's migration work has run */
		write_cgroup(cgroup, "cpuset.mems", here == to ? from : to);
		report(step, n, pages, pfns, here == to ? from : to);
	}

	for (i = 0; i < n; i++)
		if (buf[i * size] != (char)i) {
			fprintf(stderr, "movepages: page %lu lost its data\n",
				i);
			return 1;
		}
	return 0;
}
