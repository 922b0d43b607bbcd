/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pagemap.h - the pfn of each page of a mapping, from /proc/self/pagemap
 * (root only: others read pfn 0).  (Included, not compiled on its own.)
 */
#ifndef FV_PAGEMAP_H
#define FV_PAGEMAP_H

#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define PAGEMAP_PRESENT		(1ULL << 63)
#define PAGEMAP_PFN_MASK	((1ULL << 55) - 1)

/*
 * The pfn of each of the @pages pages from @map, 0 for one not present:
 * a malloc'ed array; exits with a message naming @prog on failure.
 */
static uint64_t *pagemap_pfns(const char *prog, const char *map, size_t pages)
{
	uint64_t *pm = malloc(pages * sizeof(*pm));
	ssize_t want = pages * sizeof(*pm);
	int fd = open("/proc/self/pagemap", O_RDONLY);

	if (!pm || fd < 0 ||
	    pread(fd, pm, want, (uintptr_t)map / getpagesize() * sizeof(*pm)) != want) {
		fprintf(stderr, "%s: ", prog);
		perror("/proc/self/pagemap");
		exit(1);
	}
	close(fd);
	for (size_t i = 0; i < pages; i++)
		pm[i] = pm[i] & PAGEMAP_PRESENT ? pm[i] & PAGEMAP_PFN_MASK : 0;
	return pm;
}

#endif /* FV_PAGEMAP_H */
