/* SPDX-License-Identifier: GPL-2.0 */
/* opts.h - parsing of option values shared by the subcommands. */
#ifndef FRAGVIEW_OPTS_H
#define FRAGVIEW_OPTS_H

#include <stdbool.h>
#include <stdint.h>

/*
 * A time as trace-cmd report prints it: "SECONDS[.FRACTION]" of trace
 * clock, or "+SECONDS[.FRACTION]" relative to the first event.  Parsed
 * exactly (no floating point) to nanoseconds.  Returns 0 or -1.
 */
int parse_time(const char *s, uint64_t *ns, bool *relative);

/*
 * "N/ZONE" (node N only) or "ZONE" (any node), ZONE as the kernel
 * names it (DMA, DMA32, Normal, Movable, Device).  Returns 0 or -1.
 */
int parse_zone(const char *s, int *nid, int *zone);

#endif /* FRAGVIEW_OPTS_H */
