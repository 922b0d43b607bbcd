/* SPDX-License-Identifier: GPL-2.0 */
/* render_compact.h - what the fragview compact renderers share. */
#ifndef FRAGVIEW_RENDER_COMPACT_H
#define FRAGVIEW_RENDER_COMPACT_H

#include <stdio.h>
#include <stdlib.h>

#include "compaction.h"

struct compact_totals {
	size_t ended;			/* runs with an end */
	size_t mpasses, fpasses;	/* scanner passes */
	size_t outside;			/* ... of no run (alloc_contig_range) */
	size_t alloc_fails;		/* high-order allocations that failed */
};
void compact_totals(const struct fv_compact *c, struct compact_totals *t);

/* mm_compaction_suitable verdicts of an outcome row */
uint32_t compact_nr_suitable(const struct fv_coutcome *o);

/* "success 3, complete 1" for the non-zero entries of n[FV_CS_NR] */
void compact_put_counts(FILE *out, const uint32_t *n, const char *none);

/* Migration failures by result: pages, and blocks they were in. */
#define COMPACT_MAX_RESULTS 32
struct compact_fail_count {
	int32_t result;
	size_t pages, blocks;
};
size_t compact_count_fails(const struct fv_compact *c, unsigned int pb_order,
			   struct compact_fail_count *fc);

#endif /* FRAGVIEW_RENDER_COMPACT_H */
