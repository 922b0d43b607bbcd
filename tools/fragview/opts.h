/* SPDX-License-Identifier: GPL-2.0 */
/* opts.h - parsing of option values shared by the subcommands. */
#ifndef FRAGVIEW_OPTS_H
#define FRAGVIEW_OPTS_H

#include <stdbool.h>
#include <stdint.h>

/*
 * A time as trace-cmd report prints it: "SECONDS[.FRACTION]" of trace
 * clock, or "+SECONDS[.FRACTION]" relative to the first event.  Parsed
 * exactly (no floating point) to nanoseconds, at most 2^63 - 1 (so that
 * a relative time plus the first event's can never wrap).  Returns 0 or
 * -1.
 */
int parse_time(const char *s, uint64_t *ns, bool *relative);

/* A time option (--at, --from, --to) as given, until the capture is read. */
struct opt_time {
	bool set;
	bool relative;		/* "+SECONDS": after the first event */
	uint64_t ns;
	const char *text;	/* as given, for messages */
};

/* The time in trace clock ns, relative ones counted from first_ts. */
uint64_t opt_time_at(const struct opt_time *t, uint64_t first_ts);

/*
 * "N/ZONE" (node N only) or "ZONE" (any node), ZONE as the kernel
 * names it (DMA, DMA32, Normal, Movable, Device).  Returns 0 or -1.
 */
int parse_zone(const char *s, int *nid, int *zone);

#endif /* FRAGVIEW_OPTS_H */
