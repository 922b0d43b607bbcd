/* SPDX-License-Identifier: GPL-2.0 */
/*
 * compaction.h - pure model of compaction runs and high-order outcomes.
 *
 * Fed by fv_model_apply() with the stock compaction events, the
 * mobility:migrate_folio (or migrate_folio_failed) failures and
 * kmem:mm_page_alloc, it keeps:
 *
 *   - one struct fv_crun per compaction run (mm_compaction_begin to
 *     mm_compaction_end of one task): its zone, order, where the migrate
 *     and free scanners started and stopped, what they scanned and took,
 *     how many pages it migrated, and the status it ended with;
 *   - every scanner pass (mm_compaction_isolate_*: one per pageblock the
 *     scanner looked at), with its pfn range, for the maps;
 *   - migrations that failed (mobility:migrate_folio, result != 0, or
 *     migrate_folio_failed: migform.h): where and why, for the maps;
 *     a folio's last attempt of its call only, the ones before it were
 *     retries (migcall.h);
 *   - allocations of order >= pageblock_order, and whether they failed
 *     (kmem:mm_page_alloc, pfn -1 when __alloc_pages() returns NULL);
 *   - outcomes per (node, zone, order): runs by end status, deferrals,
 *     mm_compaction_suitable verdicts.
 *
 * Events of one run are matched by task (common_pid): begin, the scanner
 * passes, the migrations and the end of a run all happen in the task that
 * called compact_zone(), and a task runs one compact_zone() at a time.
 * The node and zone of a run come from the first mm_compaction_finished
 * of the run (or the mm_compaction_suitable just before it), else from
 * the block holding zone_start; the order from the same events, -1 for
 * compaction of whole zones (/proc/sys/vm/compact_memory, proactive).
 */
#ifndef FRAGVIEW_COMPACTION_H
#define FRAGVIEW_COMPACTION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "migcall.h"
#include "model.h"

#define FV_NO_RUN UINT32_MAX
#define FV_ORDER_UNKNOWN INT32_MIN	/* fv_crun.order: no event said it */
#define FV_CTASKS 64

struct fv_crun {
	uint64_t ts_begin, ts_end;	/* ts_end: 0 when no end was seen */
	uint64_t zone_start, zone_end;
	uint64_t migrate_begin, free_begin;	/* scanner positions at begin */
	uint64_t migrate_end, free_end;		/* ... at end (begin's if none) */
	uint64_t mscanned, mtaken;	/* migrate scanner: pages scanned, isolated */
	uint64_t fscanned, ftaken;	/* free scanner */
	uint64_t migrated, failed;	/* mm_compaction_migratepages */
	uint32_t nr_mscans, nr_fscans;	/* scanner passes (isolate events) */
	int32_t pid, nid, order;	/* nid -1: unknown; order -1: whole zone,
					 * FV_ORDER_UNKNOWN */
	int32_t prio;			/* try_to_compact_pages priority, -1: none */
	uint8_t zone;			/* enum fv_zone_type */
	uint8_t status;			/* enum fv_compact_status; UNKNOWN: no end */
	bool sync, have_end;
};

/* One scanner pass over [start, end): mm_compaction_isolate_* */
struct fv_cscan {
	uint64_t ts, start, end;
	uint32_t scanned, taken;
	uint32_t run;			/* index into runs, FV_NO_RUN: none open */
	bool free;			/* free scanner (else migrate scanner) */
};

/* A folio that failed to migrate (migrate_folio, migrate_folio_failed) */
struct fv_cfail {
	uint64_t ts, pfn;
	int32_t result;			/* -errno */
	uint8_t reason;			/* enum fv_migrate_reason */
	bool retried;			/* while reading: a later attempt of the
					 * folio followed (none after finish) */
};

/* An allocation of order >= pageblock_order (kmem:mm_page_alloc) */
struct fv_halloc {
	uint64_t ts, pfn, gfp;		/* pfn: -1 when it failed */
	/*
	 * notes, runs and fails before it in event order: events at the
	 * same ts still say which allocation they came before
	 */
	uint32_t notes_at, runs_at, fails_at;
	int32_t pid;
	uint8_t order, mt;
	bool ok;
};

/*
 * What the allocator and compaction said about one request, in time
 * order: mm_compaction_try_to_compact_pages (order, priority),
 * mm_compaction_suitable (node, zone, order, verdict) and
 * mm_compaction_deferred (node, zone, order), with the task; explain.c
 * reads those of the task before a failed allocation (fv_halloc.notes_at).
 */
struct fv_cnote {
	uint64_t ts;
	int32_t pid, nid, order, prio;
	uint8_t kind;			/* FV_EV_CTRY, FV_EV_CSUITABLE, FV_EV_CDEFERRED */
	uint8_t zone, ret;		/* ret: enum fv_compact_status (suitable) */
};

/* Outcomes for one (node, zone, order); order -1: whole-zone compaction */
struct fv_coutcome {
	int32_t nid, order;
	uint8_t zone;
	uint32_t runs[FV_CS_NR];	/* runs by end status (UNKNOWN: no end) */
	uint32_t suitable[FV_CS_NR];	/* mm_compaction_suitable verdicts */
	uint32_t deferred;		/* mm_compaction_deferred */
	uint32_t allocs, alloc_fails;	/* high-order allocations (node, zone
					 * unknown: nid -1) */
};

struct fv_compact {
	uint64_t last_ts;		/* latest event: later ones never older */
	struct fv_crun *runs;
	size_t nr_runs, runs_cap;
	struct fv_cscan *scans;
	size_t nr_scans, scans_cap;
	struct fv_cfail *fails;
	size_t nr_fails, fails_cap;
	uint64_t nr_retried;		/* failed attempts retried: not in fails */
	struct fv_migcall calls;	/* cookie: the index into fails */
	struct fv_halloc *allocs;
	size_t nr_allocs, allocs_cap;
	struct fv_cnote *notes;
	size_t nr_notes, notes_cap;
	struct fv_coutcome *outcomes;	/* sorted by (nid, zone, order) at finish */
	size_t nr_outcomes, outcomes_cap;
	uint64_t nr_events;		/* compaction and page_alloc events seen */
	uint64_t nr_ends_unmatched;	/* ends without a begin of their task */
	uint64_t nr_allocs_low;		/* mm_page_alloc below the order kept */
	unsigned int min_order;		/* allocations kept: order >= this */
	bool have_alloc_event;		/* the capture has kmem:mm_page_alloc
					 * (set by the reader's caller) */
	bool have_compaction_events;	/* ... and try_to_compact_pages or
					 * mm_compaction_begin (the same) */
	/*
	 * Per task, while reading: its open run (FV_NO_RUN: none), and what
	 * the events before a begin said (suitable: node, zone, order;
	 * try_to_compact_pages: order, priority).  A few tasks compact at
	 * once; the least recently used slot is reused.
	 */
	struct fv_ctask {
		int32_t pid, nid, order, prio;
		uint32_t run;
		uint64_t used;
		uint8_t zone;
	} tasks[FV_CTASKS];
};

struct fv_compact *fv_compact_new(void);
void fv_compact_free(struct fv_compact *c);

/* Whether fv_compact_apply() wants this kind of event. */
static inline bool fv_compact_kind(uint8_t kind)
{
	return kind >= FV_EV_FIRST_COMPACT && kind < FV_EV_END_COMPACT;
}

/*
 * Feed one event (an older ts is taken as the latest one's, as the model
 * does).  Takes the compaction kinds, FV_EV_ALLOC, and the failed
 * attempts of FV_EV_MIGRATE and FV_EV_MIGRATE_FAILED (migform.h: feed
 * the latter only when the capture has no migrate_folio); ignores the
 * rest.
 */
void fv_compact_apply(struct fv_compact *c, const struct fv_event *ev,
		      uint64_t ts);

/* fv_model_end_migrate_call(), for the compaction model */
void fv_compact_end_migrate_call(struct fv_compact *c, int32_t pid);

/*
 * After the last event: drops the retried failures and allocations
 * below pageblock_order, fills unknown run zones from the model's
 * blocks, sorts the outcomes.
 */
void fv_compact_finish(struct fv_compact *c, const struct fv_model *m);

/* Whether the capture had anything of ours (runs, scans, allocations). */
bool fv_compact_any(const struct fv_compact *c);

/* Number of scans (resp. failures) with ts <= ts: they are in time order. */
size_t fv_compact_scans_upto(const struct fv_compact *c, uint64_t ts);
size_t fv_compact_fails_upto(const struct fv_compact *c, uint64_t ts);

/*
 * Per block of the model, what the scanners covered up to ts: flags
 * FV_CMARK_* and, per scanner, the lowest and highest pfn offset in the
 * block (0..pages per block) their passes covered.  Arrays of
 * m->nr_blocks entries; returns the number of blocks marked.
 */
#define FV_CMARK_MIGRATE 1
#define FV_CMARK_FREE	 2
#define FV_CMARK_FAIL	 4
struct fv_cmark {
	uint32_t mlo, mhi, flo, fhi;	/* page offsets in the block, [lo, hi) */
	uint32_t nr_fail;
	int32_t fail_result;		/* the latest failure's result */
	uint8_t flags;
};
size_t fv_compact_marks(const struct fv_compact *c, const struct fv_model *m,
			uint64_t ts, struct fv_cmark *marks);

/*
 * The high-order timeline: every kept allocation and the end of every
 * run (its begin if it has none), in time order (allocation first at
 * equal times).  Returns a malloc'ed array of *nr entries.
 */
struct fv_ctl {
	uint64_t ts;
	uint32_t idx;			/* into allocs or runs */
	bool run;
};
struct fv_ctl *fv_compact_timeline(const struct fv_compact *c, size_t *nr);

/*
 * The blocks of the model one scanner pass covers, with the page
 * offsets [lo, hi) in each; a pass covers one block, one claiming more
 * is cut at FV_CPIECES.  Returns the number written to out.
 */
#define FV_CPIECES 64
struct fv_cpiece {
	size_t block;
	uint32_t lo, hi;
};
size_t fv_compact_scan_blocks(const struct fv_model *m,
			      const struct fv_cscan *sc,
			      struct fv_cpiece *out);

/* "EAGAIN" for -11, ...; NULL when unknown. */
const char *fv_errno_name(int32_t result);

#endif /* FRAGVIEW_COMPACTION_H */
