/* SPDX-License-Identifier: GPL-2.0 */
/*
 * meminfo.h - what the guest programs that fill memory read of the
 * allocator's state.  (Included, not compiled on its own.)
 */
#ifndef FV_MEMINFO_H
#define FV_MEMINFO_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef PAGE_SIZE
#define PAGE_SIZE 4096UL
#endif

/* A /proc/meminfo field in KiB, 0 if absent. */
static inline unsigned long meminfo_kib(const char *field)
{
	char line[128];
	unsigned long v = 0;
	size_t len = strlen(field);
	FILE *f = fopen("/proc/meminfo", "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, field, len) && line[len] == ':') {
			v = strtoul(line + len + 1, NULL, 10);
			break;
		}
	fclose(f);
	return v;
}

/* Sum of the zones' low watermarks, in MiB: below it kswapd wakes up. */
static inline unsigned long low_watermarks_mib(void)
{
	char line[256];
	unsigned long pages = 0, v;
	FILE *f = fopen("/proc/zoneinfo", "r");

	if (!f)
		return 64;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, " low %lu", &v) == 1)
			pages += v;
	fclose(f);
	return pages * PAGE_SIZE >> 20;
}

#endif /* FV_MEMINFO_H */
