/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stats.h - statistics aggregated from the event stream (pure).
 *
 * Counts are kept in dense tables indexed by fragview's enums (small:
 * the enums have a handful of values each) and turned into row lists
 * for the renderers by fv_stats_finish().
 */
#ifndef FRAGVIEW_STATS_H
#define FRAGVIEW_STATS_H

#include <stdbool.h>
#include <stdint.h>

#include "census.h"
#include "migcall.h"
#include "model.h"
#include "rowidx.h"

#define FV_MAX_ORDER 11		/* MAX_ORDER of x86-64 in 6.1: orders 0..10 */
#define FV_STAT_ORDERS 16	/* orders kept apart in steal rows; more clamp */

struct fv_steal_row {
	uint8_t alloc_mt, block_mt, order, fallback_order;
	bool claimed;
	uint64_t count;
};

struct fv_flip_row {
	uint8_t old_mt, new_mt, reason;
	uint64_t count;
};

/* Per-cpu lists a drain counts: three by type, then high order (v2). */
#define FV_DRAIN_LISTS 4
const char *fv_drain_list_name(unsigned int list);	/* "Unmovable", ... "high_order" */

struct fv_drain_row {
	int32_t cpu;
	uint64_t drains[FV_DRAIN_NR];
	uint64_t pages[FV_DRAIN_NR];	/* total pages per reason */
	uint64_t by_type[FV_DRAIN_LISTS];	/* see fv_drain_list_name() */
};

/*
 * Where a row of migrations comes from, by the capture's form (migform.h):
 * per folio the counts are attempts, per call or pass they are pages.
 * Per folio a failure is the folio's last attempt of its call, and the
 * failed attempts before it are retried (migcall.h).
 */
enum fv_mig_source {
	FV_MSRC_FOLIO,		/* migrate_folio: ok and failed attempts */
	FV_MSRC_CALLS,		/* mm_migrate_pages alone: pages */
	FV_MSRC_FAILED,		/* failed: migrate_folio_failed attempts;
				 * ok: pages of mm_migrate_pages, else of
				 * migrate_pass */
	FV_MSRC_PASSES,		/* migrate_pass alone: pages */
	FV_MSRC_NR,
};

struct fv_migrate_row {
	uint8_t reason, mode;
	uint8_t source;			/* enum fv_mig_source */
	uint64_t ok, failed;
	uint64_t retried;		/* failed attempts tried again later in
					 * their call: not in failed */
	uint32_t rate_permille;		/* ok * 1000 / (ok + failed) */
};

/*
 * The passes of migrate_pages()' retry loops (mobility:migrate_pass) by
 * reason, mode and stage, whatever counts the migrations; pages.
 */
struct fv_mpass_row {
	uint8_t reason, mode, stage;	/* stage: enum fv_mpass_stage */
	uint64_t passes, retries;	/* retries: passes after a loop's first */
	uint64_t succeeded, failed, retried;	/* nr_retry: left for the next */
};

/* every attempt by its result, retried ones included: not per folio */
#define FV_NR_RESULTS 16
struct fv_result_row {
	int32_t result;			/* 0 or -errno */
	uint64_t count;
};

/* Free space as fill_contig_page_info() would see it, and the indices. */
struct fv_frag {
	bool valid;			/* a snapshot gave free space for the zone */
	uint64_t pages_at[FV_MAX_ORDER];	/* free pages in blocks of each order */
	uint64_t free_pages;
	uint64_t nr_free[FV_MAX_ORDER];	/* free buddy blocks per order (estimated) */
	int unusable[FV_MAX_ORDER];	/* unusable_free_index, 0..1000 */
	int fragindex[FV_MAX_ORDER];	/* __fragmentation_index, -1000..1000 */
};

struct fv_zone_stats {
	int32_t nid;
	uint8_t zone;
	uint64_t blocks_start[FV_MT_NR];	/* at the baseline */
	uint64_t blocks_end[FV_MT_NR];		/* after replay */
	struct fv_frag frag_start, frag_end;
};

struct fv_blame;

struct fv_stats {
	/* raw tables, filled by fv_stats_apply() */
	uint64_t flip_tab[FV_MT_NR][FV_MT_NR][FV_FLIP_NR];
	/* set before the first event: what of the migrations counts */
	struct fv_migform mig;
	uint64_t mig_ok[FV_MSRC_NR][FV_MR_NR][FV_MODE_NR];
	uint64_t mig_fail[FV_MSRC_NR][FV_MR_NR][FV_MODE_NR];
	uint64_t mig_retry[FV_MSRC_NR][FV_MR_NR][FV_MODE_NR];
	/*
	 * failed attempts a later one of the folio may retry; cookie: the
	 * mig_fail cell it counts in (stats.c)
	 */
	struct fv_migcall calls;
	struct fv_mpass_row pass_tab[FV_MR_NR][FV_MODE_NR][FV_STAGE_NR];
	uint64_t nr_passes, nr_retry_passes, nr_retried_pages;
	uint64_t nr_steals, nr_claimed, nr_extfrag;
	/*
	 * claims try_to_steal_block() declined (pageblock_steal taken=0,
	 * 6.12): no steal, counted apart by allocation and block type
	 */
	uint64_t nr_declined;
	uint64_t declined_tab[FV_MT_NR][FV_MT_NR];
	uint64_t nr_flips, nr_drains, nr_drained_pages;
	uint64_t nr_migrate_ok, nr_migrate_fail;	/* the rows' sums */
	uint64_t nr_migrate_retry;
	uint64_t results_other;		/* results that did not fit the table */
	/* steal rows are few of the 25088 possible keys: rows + hash index */
	uint32_t *steal_index;		/* slot: row + 1, 0 empty */
	size_t steal_index_cap;		/* power of two, > 2 * rows */
	size_t steal_rows_cap;
	struct fv_rowidx drain_index;	/* rows by CPU, until finish */
	size_t drain_rows_cap;

	/* rows: steals, drains and results as they come, the rest at finish */
	struct fv_steal_row *steals;
	size_t nr_steal_rows;
	struct fv_flip_row *flips;
	size_t nr_flip_rows;
	struct fv_drain_row *drains;
	size_t nr_drain_rows;
	struct fv_migrate_row *migrations;
	size_t nr_migrate_rows;
	struct fv_mpass_row *passes;	/* the rows of pass_tab with passes */
	size_t nr_pass_rows;
	struct fv_result_row results[FV_NR_RESULTS];
	size_t nr_results;
	struct fv_zone_stats *zones;
	size_t nr_zones;
	/* the latest census, per zone it counted (census.h); none: 0 */
	struct fv_census_zone *census;
	size_t nr_census_zones;
	bool finished;
	/* who polluted (blame.h), set by the caller when the capture has it */
	const struct fv_blame *blame;
};

/* Allocated, as it grows with the capture; never NULL (util.h). */
struct fv_stats *fv_stats_new(void);
void fv_stats_free(struct fv_stats *s);
void fv_stats_apply(struct fv_stats *s, const struct fv_event *ev);
/* fv_model_end_migrate_call(), for the statistics (a dropped call end) */
void fv_stats_end_migrate_call(struct fv_stats *s, int32_t pid);
/* After fv_model_finish(m): rows, per-zone counts and indices. */
void fv_stats_finish(struct fv_stats *s, const struct fv_model *m);

/*
 * The snapshots give per block only (free pages, largest free order),
 * not the buddy lists, so the zone's free blocks are estimated: each
 * pageblock holds one block of its largest order and the rest in the
 * biggest pieces that fit.  Adds the block to f->pages_at.
 */
void fv_frag_add_block(struct fv_frag *f, uint32_t free_pages,
		       int largest_order, unsigned int pageblock_order);
/* nr_free, free_pages and the indices of mm/vmstat.c from pages_at. */
void fv_frag_compute(struct fv_frag *f);

#endif /* FRAGVIEW_STATS_H */
