/* SPDX-License-Identifier: GPL-2.0 */
/* render_compact.h - what the fragview compact renderers share. */
#ifndef FRAGVIEW_RENDER_COMPACT_H
#define FRAGVIEW_RENDER_COMPACT_H

#include <stdio.h>
#include <stdlib.h>

#include "compaction.h"
#include "render.h"
#include "table.h"

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
void compact_counts_text(char *buf, size_t size, const uint32_t *n,
			 const char *none);
void compact_put_counts(FILE *out, const uint32_t *n, const char *none);

/*
 * The cells of the walker (render_compact_table.c) its parts share:
 * node and zone (unknown: null; txt "-", or the zone when only it is
 * known), order (txt: "zone" for whole zones, "?" unknown).
 */
void compact_put_where(struct tab *t, int32_t nid, uint8_t zone);
void compact_put_order(struct tab *t, int32_t order);

/*
 * Parts of the walker (render_compact_parts.c): the heading (txt: the
 * totals; json: the capture), outcomes per zone and order, migration
 * failures (txt, json).
 */
void compact_heading(struct tab *t, const struct fv_model *m,
		     const struct compact_opts *o);
void compact_outcomes(struct tab *t, const struct fv_compact *c);
void compact_fails(struct tab *t, const struct fv_model *m,
		   const struct fv_compact *c);

/* Migration failures by result: pages, and blocks they were in. */
#define COMPACT_MAX_RESULTS 32
struct compact_fail_count {
	int32_t result;
	size_t pages, blocks;
};
size_t compact_count_fails(const struct fv_compact *c, unsigned int pb_order,
			   struct compact_fail_count *fc);

#endif /* FRAGVIEW_RENDER_COMPACT_H */
