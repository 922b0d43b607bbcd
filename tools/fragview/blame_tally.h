/* SPDX-License-Identifier: GPL-2.0 */
/*
 * blame_tally.h - the counts of a blame ranking without its records.
 *
 * fragview blame keeps a record per steal and flip (blame.h) for the
 * examples, top tasks and top stacks it prints; the top polluters of
 * fragview stats need only the counts.  A tally adds each record up as
 * it comes, by task (pid) and by stack id: the steals and flips of each,
 * and each block it polluted or claimed, once.  So its memory grows with
 * the tasks, stacks and the blocks each touched, not with the events.
 * Pure code, no I/O.
 */
#ifndef FRAGVIEW_BLAME_TALLY_H
#define FRAGVIEW_BLAME_TALLY_H

#include <stddef.h>
#include <stdint.h>

#include "blame.h"

/*
 * An extfrag's pfn is kept as its block of 2^FV_TALLY_EXTFRAG_ORDER
 * pages, the smallest a capture's pageblock_order can be (the model's 9,
 * which it only ever infers larger), so that the pageblock_order known
 * at the end still finds each pfn's block.
 */
#define FV_TALLY_EXTFRAG_ORDER 9

struct fv_tally;

struct fv_tally *fv_tally_new(void);
void fv_tally_free(struct fv_tally *t);

/* A steal, extfrag or flip, its stack attached or known to be none. */
void fv_tally_add(struct fv_tally *t, const struct fv_blame_rec *r);

/*
 * fv_blame_rank()'s groups, from the counts: by task, the pids; by
 * stack or site, the stack ids (-1: none).  key() turns each into its
 * group's key; the blocks of extfrag pfns have 2^pageblock_order pages
 * (at least 2^FV_TALLY_EXTFRAG_ORDER).  The groups have no examples and
 * no top task or stack (-1).  *out is allocated (free() it); returns
 * the number of groups.
 */
size_t fv_tally_rank(const struct fv_tally *t, enum fv_blame_by by,
		     int64_t (*key)(int64_t id, void *ctx), void *ctx,
		     unsigned int pageblock_order, struct fv_blame_group **out);

#endif /* FRAGVIEW_BLAME_TALLY_H */
