/* SPDX-License-Identifier: GPL-2.0 */
/*
 * zoneinfo.h - the watermarks and free pages of one node's zones, from
 * /proc/zoneinfo, for the guest programs that fill a node to a watermark,
 * and map_on_node() for the memory they fill it with.
 * (Included, not compiled on its own.)
 */
#ifndef FV_ZONEINFO_H
#define FV_ZONEINFO_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#define MPOL_BIND 2
#define MAX_ZONES 8

struct zone_wm {
	char name[32];
	unsigned long free, min, low, managed;
};

/* the zones of node @nid that an anonymous allocation can reach */
static int read_zones(int nid, struct zone_wm *z)
{
	char line[256], name[32];
	int node, n = -1, mine = 0;
	unsigned long v;
	FILE *f = fopen("/proc/zoneinfo", "r");

	if (!f) {
		perror("/proc/zoneinfo");
		exit(1);
	}
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "Node %d, zone %31s", &node, name) == 2) {
			mine = node == nid && strcmp(name, "DMA") &&
			       n + 1 < MAX_ZONES;
			if (mine) {
				n++;
				memset(&z[n], 0, sizeof(z[n]));
				strcpy(z[n].name, name);
			}
			continue;
		}
		if (!mine)
			continue;
		if (sscanf(line, " pages free %lu", &v) == 1)
			z[n].free = v;
		else if (sscanf(line, " min %lu", &v) == 1)
			z[n].min = v;
		else if (sscanf(line, " low %lu", &v) == 1)
			z[n].low = v;
		else if (sscanf(line, " managed %lu", &v) == 1)
			z[n].managed = v;
	}
	fclose(f);
	/* empty zones (Normal, Movable in a small guest) are listed too */
	int kept = 0;

	for (int i = 0; i <= n; i++)
		if (z[i].managed)
			z[kept++] = z[i];
	return kept;
}

/* @len bytes of anonymous memory bound to node @nid; NULL on error */
static char *map_on_node(size_t len, int nid)
{
	unsigned long mask = 1UL << nid;
	char *map = mmap(NULL, len, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (map == MAP_FAILED ||
	    syscall(SYS_mbind, map, len, MPOL_BIND, &mask, 64, 0)) {
		perror("mmap/mbind");
		return NULL;
	}
	return map;
}

#endif /* FV_ZONEINFO_H */
