/* SPDX-License-Identifier: GPL-2.0 */
/*
 * explain.h - why did a high-order allocation fail?  (pure, no I/O)
 *
 * For one allocation of order N at time T (a failed kmem:mm_page_alloc,
 * or a hypothetical one: explain --at), from what the model, the
 * compaction model and blame hold:
 *
 *   1. the zones then: free pages, whole free blocks, the free-memory
 *      bound (order-N pages the free memory would make unfragmented),
 *      each figure with its age (T minus the snapshot or census time it
 *      comes from; negative: taken after T, when nothing was before);
 *   2. the K blocks nearest to free (fewest pages in use, no free order-N
 *      chunk) and what pins each, by census kind, with the failed
 *      migrations in it and the steal or flip that last polluted it;
 *   3. what compaction did for the request: the task's
 *      try_to_compact_pages, suitable and deferred notes since its
 *      previous high-order allocation, and its runs then;
 *   4. a verdict: one cause of a documented set (enum fv_cause), and a
 *      line with the numbers.
 *
 * Free pages at T: each block's latest pageblock_state or census record
 * at or before T (else its first one after), minus the blocks a
 * successful allocation of order >= pageblock_order took between that
 * record and T (those events are in the capture; order-0 traffic is
 * not, which is why every figure carries its age).
 */
#ifndef FRAGVIEW_EXPLAIN_H
#define FRAGVIEW_EXPLAIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model.h"

struct fv_blame;

#define FV_EXPLAIN_TOP 8		/* blocks nearest to free, by default */

/* The causes, in the order explain tests them (fragview-explain(1)). */
enum fv_cause {
	FV_CAUSE_NONE,		/* a free order-N block was there (--at) */
	FV_CAUSE_NO_MEMORY,	/* not enough free memory */
	FV_CAUSE_RESERVES,	/* free blocks only in reserves, or a free
				 * block the allocation did not get */
	FV_CAUSE_NO_COMPACTION,	/* compaction not attempted, deferred or
				 * judged unsuitable */
	FV_CAUSE_ISOLATION,	/* the nearest blocks were isolated */
	FV_CAUSE_PINNED,	/* unmovable or unreclaimable pages */
	FV_CAUSE_MIGRATION,	/* movable pages compaction did not move */
	FV_CAUSE_PCP,		/* free pages held on per-cpu lists */
	FV_CAUSE_UNKNOWN,	/* the capture lacks what would tell */
	FV_CAUSE_NR,
};
const char *fv_cause_name(enum fv_cause c);	/* "no-free-memory", ... */

/* What holds the pages in use of a block (from its census). */
enum fv_pin {
	FV_PIN_UNMOVABLE,	/* slab, page tables, kernel, reserved, hugetlb */
	FV_PIN_MOVABLE,		/* LRU and movable_ops pages still there */
	FV_PIN_PCP,		/* free pages on per-cpu lists */
	FV_PIN_ISOLATED,	/* the block's type was Isolate */
	FV_PIN_UNKNOWN,		/* no census of the block */
	FV_PIN_NR,
};
const char *fv_pin_name(enum fv_pin p);	/* "unmovable", ... */

/* Pages in use of a census record per pin (ISOLATED, UNKNOWN: 0). */
void fv_pin_pages(const uint16_t n[FV_CN_NR], uint32_t pages[FV_PIN_NR]);

struct fv_xzone {
	int32_t nid;
	uint8_t zone;
	uint64_t blocks, known;		/* blocks, of which with a free figure */
	uint64_t free_pages;		/* by the figures at T */
	uint64_t free_blocks;		/* with a free order-N chunk, usable */
	uint64_t reserve_blocks;	/* ... of type HighAtomic, CMA, Isolate */
	uint64_t bound;			/* free_pages >> N */
	uint64_t near90;		/* not whole, >= 90 % free */
	uint64_t taken;			/* blocks high-order allocations took
					 * since their figure */
	bool have_age, have_census;
	int64_t age_min, age_max;	/* ns, of the free figures used */
	int64_t census_age;		/* ns, the oldest census used */
	bool have_wmark;		/* the recorder's zone line (zonemark.h):
					 * the latest at or before T, else the
					 * first after */
	int64_t wmark_age;		/* ns, T minus its time */
	struct fv_wmark wm;
};

struct fv_xblock {
	size_t block;			/* index into m->blocks */
	uint64_t pfn;
	uint8_t mt;			/* type at T */
	uint8_t pin;			/* enum fv_pin */
	uint32_t free, used;		/* pages */
	int64_t age;			/* ns, of the free figure */
	bool have_census;
	int64_t census_age;
	uint16_t n[FV_CN_NR];		/* the census, if have_census */
	uint32_t fails;			/* failed migrations, in the window */
	int32_t fail_result;		/* the latest one's -errno */
	int64_t blame;			/* index into fv_blame.recs: the latest
					 * steal (else flip) at or before T, -1 */
};

struct fv_explanation {
	uint64_t ts;
	unsigned int order;
	int64_t alloc;			/* index into compact->allocs, -1: --at */
	int32_t pid;			/* -1: --at */
	uint64_t gfp;
	uint64_t window;		/* start of the request: the task's
					 * previous high-order allocation */
	/* the request's notes, runs, failed migrations: index ranges */
	size_t notes_lo, notes_hi, runs_lo, runs_hi, fails_lo, fails_hi;
	/* 1 */
	struct fv_xzone *zones;
	size_t nr_zones;
	bool zones_named;		/* suitable/deferred named them */
	bool zones_earlier;		/* ... before the request (the task's
					 * latest that did) */
	/* 2 */
	struct fv_xblock *near;
	size_t nr_near;
	uint32_t pins[FV_PIN_NR];	/* nearest blocks per pin */
	/* 3 */
	bool tried;			/* try_to_compact_pages in the window */
	int32_t prio;
	uint32_t suitable[FV_CS_NR];
	uint32_t deferred;
	uint32_t *runs;			/* indices into compact->runs */
	size_t nr_runs;
	uint64_t migrated, failed;	/* by those runs */
	int64_t deferred_by;		/* deferred with no run of its own:
					 * the run whose failure deferred it
					 * (index into compact->runs), -1 */
	/* 4 */
	uint8_t cause;			/* enum fv_cause */
	int32_t culprit_pid;		/* pinned: the task behind most of the
					 * nearest pinned blocks, -1 */
	int32_t culprit_stack;		/* ... its stack of those, -1 */
	uint32_t culprit_blocks;
	char verdict[512];
};

/*
 * Explain the allocation alloc (index into m->compact->allocs; -1: a
 * hypothetical one of order at ts).  b may be NULL (no culprits).  top:
 * blocks nearest to free to list.  No verdict says compaction was not
 * attempted unless the capture records compaction's own events
 * (m->compact->have_compaction_events).  Fills *e; free with
 * fv_explain_free().
 */
void fv_explain(const struct fv_model *m, const struct fv_blame *b,
		int64_t alloc, uint64_t ts, unsigned int order, size_t top,
		struct fv_explanation *e);
void fv_explain_free(struct fv_explanation *e);

/*
 * The failed allocations of order >= order to explain, all of them or
 * only allocation alloc (SIZE_MAX: all): their indices into c->allocs
 * into idx (room for c->nr_allocs), how many; *nr_failed: all such
 * failures.
 */
struct fv_compact;
size_t fv_explain_pick(const struct fv_compact *c, size_t alloc,
		       unsigned int order, int64_t *idx, size_t *nr_failed);

/* "when the scanners met", ... for the end of a run */
const char *fv_explain_status_phrase(uint8_t status);

#endif /* FRAGVIEW_EXPLAIN_H */
