/* SPDX-License-Identifier: GPL-2.0 */
/*
 * builders.h - canonical events for the unit tests, and feeding them to
 * the model.
 *
 * Header-only (static inline): a test binary stays one .c file plus the
 * code under test.  A builder fills what its event needs with plain
 * values (node and zone as given, no free page, order-0 steals, async
 * compaction); a test sets anything else on the event it gets back, or
 * adds a gen with with_gen().
 */
#ifndef FRAGVIEW_TESTS_BUILDERS_H
#define FRAGVIEW_TESTS_BUILDERS_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "../compaction.h"
#include "../model.h"

static inline struct fv_event ev_state(uint64_t ts, uint32_t seq, int32_t nid,
				       uint8_t zone, uint64_t pfn, uint8_t mt)
{
	return (struct fv_event){ .ts = ts, .kind = FV_EV_STATE, .state = {
		.pfn = pfn, .seq = seq, .nid = nid, .zone = zone, .mt = mt,
		.largest_order = -1 } };
}

static inline struct fv_event ev_flip(uint64_t ts, int32_t nid, uint8_t zone,
				      uint64_t pfn, uint8_t old_mt,
				      uint8_t new_mt, uint8_t reason)
{
	return (struct fv_event){ .ts = ts, .kind = FV_EV_FLIP, .flip = {
		.pfn = pfn, .nid = nid, .zone = zone, .old_mt = old_mt,
		.new_mt = new_mt, .reason = reason } };
}

/* The block's first page, order 0, taken from a fallback list. */
static inline struct fv_event ev_steal(uint64_t ts, int32_t nid, uint8_t zone,
				       uint64_t block_pfn, uint8_t alloc_mt,
				       uint8_t block_mt, bool claimed)
{
	return (struct fv_event){ .ts = ts, .kind = FV_EV_STEAL, .steal = {
		.pfn = block_pfn, .block_pfn = block_pfn, .nid = nid,
		.zone = zone, .alloc_mt = alloc_mt, .block_mt = block_mt,
		.claimed = claimed } };
}

/*
 * The claim of that block try_to_steal_block() declined (pageblock_steal
 * taken=0, 6.12): nothing taken, nothing counted.
 */
static inline struct fv_event ev_declined(uint64_t ts, int32_t nid,
					  uint8_t zone, uint64_t block_pfn,
					  uint8_t alloc_mt, uint8_t block_mt)
{
	struct fv_event e = ev_steal(ts, nid, zone, block_pfn, alloc_mt,
				     block_mt, false);

	e.steal.declined = true;
	return e;
}

/* A Movable folio moved by async compaction; result 0 or -errno. */
static inline struct fv_event ev_migrate(uint64_t ts, uint64_t src_pfn,
					 int32_t result)
{
	return (struct fv_event){ .ts = ts, .kind = FV_EV_MIGRATE, .migrate = {
		.src_pfn = src_pfn, .result = result, .mode = FV_MODE_ASYNC,
		.reason = FV_MR_COMPACTION, .src_mt = FV_MT_MOVABLE,
		.dst_mt = FV_MT_MOVABLE } };
}

/* The same attempt as migrate_folio_failed (series v3 patch 11). */
static inline struct fv_event ev_migrate_failed(uint64_t ts, uint64_t src_pfn,
						int32_t result)
{
	struct fv_event e = ev_migrate(ts, src_pfn, result);

	e.kind = FV_EV_MIGRATE_FAILED;
	return e;
}

/* migrate:mm_migrate_pages of an async compaction call: pages. */
static inline struct fv_event ev_msum(uint64_t ts, uint64_t succeeded,
				      uint64_t failed)
{
	return (struct fv_event){ .ts = ts, .kind = FV_EV_MIGRATE_SUM,
		.msum = { .succeeded = succeeded, .failed = failed,
			  .mode = FV_MODE_ASYNC, .reason = FV_MR_COMPACTION } };
}

/* mobility:migrate_pass of the same call, stage unmap_move (6.1). */
static inline struct fv_event ev_mpass(uint64_t ts, uint8_t pass,
				       uint32_t succeeded, uint32_t failed,
				       uint32_t retry)
{
	return (struct fv_event){ .ts = ts, .kind = FV_EV_MIGRATE_PASS,
		.mpass = { .nr_succeeded = succeeded, .nr_failed = failed,
			   .nr_retry = retry, .stage = FV_STAGE_UNMAP_MOVE,
			   .pass = pass, .mode = FV_MODE_ASYNC,
			   .reason = FV_MR_COMPACTION } };
}

/* vmstat draining a CPU's Movable list. */
static inline struct fv_event ev_drain(uint64_t ts, int32_t cpu, int32_t nid,
				       uint8_t zone, uint32_t pages)
{
	return (struct fv_event){ .ts = ts, .cpu = cpu, .kind = FV_EV_DRAIN,
		.drain = { .nid = nid, .zone = zone,
			   .nr = { [FV_MT_MOVABLE] = pages }, .total = pages,
			   .reason = FV_DRAIN_VMSTAT } };
}

/* A zone's pageblock_snapshot begin or end (ABI v2). */
static inline struct fv_event ev_snap(uint64_t ts, uint32_t seq, int32_t nid,
				      uint8_t zone, uint8_t phase,
				      uint32_t nr_blocks, uint64_t gen)
{
	return (struct fv_event){ .ts = ts, .kind = FV_EV_SNAPSHOT, .snap = {
		.seq = seq, .nid = nid, .zone = zone, .phase = phase,
		.nr_blocks = nr_blocks, .gen = gen } };
}

/*
 * A census record of a block of type mt: free pages free, the rest LRU
 * pages; a test moves pages to other counts on the event it gets back.
 */
static inline struct fv_event ev_census(uint64_t ts, uint32_t seq,
					int32_t nid, uint8_t zone,
					uint64_t pfn, uint8_t mt,
					uint16_t free)
{
	struct fv_event e = { .ts = ts, .kind = FV_EV_CENSUS, .census = {
		.pfn = pfn, .seq = seq, .nid = nid, .zone = zone, .mt = mt } };

	e.census.n[FV_CN_FREE] = free;
	e.census.n[FV_CN_LRU] = 512 - free;
	return e;
}

/* Moves n pages of a census record from one count to another. */
static inline struct fv_event census_move(struct fv_event e, int from,
					  int to, uint16_t n)
{
	e.census.n[from] -= n;
	e.census.n[to] += n;
	return e;
}

/* A compaction scanner pass of task pid (free: the free scanner). */
static inline struct fv_event ev_cscan(uint64_t ts, int32_t pid, bool free,
				       uint64_t start, uint64_t end,
				       uint64_t scanned, uint64_t taken)
{
	return (struct fv_event){ .ts = ts, .kind = free ? FV_EV_CSCAN_FREE :
		FV_EV_CSCAN_MIGRATE, .cscan = { .start_pfn = start,
		.end_pfn = end, .nr_scanned = scanned, .nr_taken = taken,
		.pid = pid } };
}

/* mm_compaction_begin (kind FV_EV_CBEGIN) or _end, sync. */
static inline struct fv_event ev_crun(uint64_t ts, uint8_t kind, int32_t pid,
				      uint64_t zone_start, uint64_t zone_end,
				      uint64_t migrate_pfn, uint64_t free_pfn,
				      uint8_t status)
{
	return (struct fv_event){ .ts = ts, .kind = kind, .crun = {
		.zone_start = zone_start, .zone_end = zone_end,
		.migrate_pfn = migrate_pfn, .free_pfn = free_pfn, .pid = pid,
		.sync = 1, .status = status } };
}

/* suitable/finished/deferred (ret: status), try_to_compact_pages. */
static inline struct fv_event ev_czone(uint64_t ts, uint8_t kind, int32_t pid,
				       int32_t nid, uint8_t zone, int32_t order,
				       uint8_t ret)
{
	return (struct fv_event){ .ts = ts, .kind = kind, .czone = {
		.nid = nid, .zone = zone, .order = order, .pid = pid,
		.ret = ret, .prio = 1 } };
}

/* kmem:mm_page_alloc of a Movable page; pfn UINT64_MAX: failed. */
static inline struct fv_event ev_alloc(uint64_t ts, uint64_t pfn, int32_t order)
{
	return (struct fv_event){ .ts = ts, .kind = FV_EV_ALLOC, .alloc = {
		.pfn = pfn, .order = order, .mt = FV_MT_MOVABLE, .pid = 7 } };
}

/* The same state or flip record with a zone generation (ABI v2). */
static inline struct fv_event with_gen(struct fv_event e, uint64_t gen)
{
	e.flags |= FV_EVF_GEN;
	if (e.kind == FV_EV_STATE)
		e.state.gen = gen;
	else if (e.kind == FV_EV_FLIP)
		e.flip.gen = gen;
	return e;
}

/*
 * Into the model, and into its compaction runs when it has them (as
 * capture.c feeds them).  A refused event leaves every later check
 * meaningless (and fixtures are built outside any RUN()), so it ends
 * the test binary.
 */
static inline void feed(struct fv_model *m, struct fv_event ev)
{
	if (fv_model_apply(m, &ev)) {
		fprintf(stderr, "fv_model_apply refused a %s event at ts %llu\n",
			fv_ev_kind_name(ev.kind), (unsigned long long)ev.ts);
		exit(2);
	}
	if (m->compact)
		fv_compact_apply(m->compact, &ev, ev.ts);
}

/* A model with compaction runs, finished and freed as capture.c does. */
static inline void compact_model_init(struct fv_model *m)
{
	fv_model_init(m);
	m->compact = fv_compact_new();
}

static inline void compact_model_finish(struct fv_model *m)
{
	fv_model_finish(m);
	if (m->compact)
		fv_compact_finish(m->compact, m);
}

static inline void compact_model_free(struct fv_model *m)
{
	fv_compact_free(m->compact);
	fv_model_free(m);
}

#endif /* FRAGVIEW_TESTS_BUILDERS_H */
