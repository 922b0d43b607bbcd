// SPDX-License-Identifier: GPL-2.0
/*
 * test_explain.c - the verdicts of explain.c, one per cause, on models
 * built event by event with hand-worked figures.
 */
#include <stdint.h>
#include <string.h>

#include "../blame.h"
#include "../compaction.h"
#include "../explain.h"
#include "../model.h"
#include "builders.h"
#include "test.h"

#define M FV_MT_MOVABLE
#define Z FV_ZONE_DMA32
#define S 1000000000ULL		/* one second in ns */
#define NB 8			/* blocks 0x1000.. of node 0 DMA32 */
#define PID 7			/* ev_alloc's task */

#define TOP 4			/* nearest blocks */

/*
 * A model with keep_space_times: a snapshot at 1 s where block i has
 * free[i] free pages (512: a whole free block, largest order 9), then a
 * census at 2 s of blocks with census[i] (0: none) free pages, the rest
 * in count kind[i].
 */
static void setup(struct fv_model *m, const uint32_t free[NB],
		  const uint16_t census[NB], int kind)
{
	compact_model_init(m);
	m->keep_space_times = true;
	m->compact->have_compaction_events = true;
	for (int i = 0; i < NB; i++) {
		struct fv_event e = ev_state(1 * S, 1, 0, Z, 0x1000 + i * 0x200, M);

		e.state.free_pages = free[i];
		e.state.largest_order = free[i] == 512 ? 9 : free[i] ? 3 : -1;
		feed(m, e);
	}
	for (int i = 0; census && i < NB; i++)
		if (census[i])
			feed(m, census_move(ev_census(2 * S, 1, 0, Z,
					0x1000 + i * 0x200, M, census[i]),
					FV_CN_LRU, kind, 512 - census[i]));
}

/* Explain the last allocation (a failure) of m, finished. */
static void explain_last(struct fv_model *m, const struct fv_blame *b,
			 struct fv_explanation *e)
{
	compact_model_finish(m);
	fv_explain(m, b, m->compact->nr_allocs - 1, 0, 9, TOP, e);
}

/* A model of free[] and a failed order allocation at 3 s, explained. */
static void explain_failure(struct fv_model *m, struct fv_explanation *e,
			    const uint32_t free[NB], unsigned int order)
{
	setup(m, free, NULL, 0);
	feed(m, ev_alloc(3 * S, UINT64_MAX, order));
	explain_last(m, NULL, e);
}

static void done(struct fv_model *m, struct fv_explanation *e)
{
	fv_explain_free(e);
	compact_model_free(m);
}

static const uint16_t nearly[NB] = { 500, 490, 480, 470, 0, 0, 0, 0 };
static const uint32_t snap_nearly[NB] = { 500, 490, 480, 470, 10, 10, 10, 10 };

static struct fv_event ev_wmark(uint64_t ts, int32_t nid, uint8_t zone,
				 uint32_t min)
{
	return (struct fv_event){ .ts = ts, .kind = FV_EV_WMARK, .wmark = {
		.free = 4000, .min = min, .low = min + 10, .high = min + 20,
		.managed = 4096, .nid = nid, .zone = zone } };
}

/* Free pages under 512 in the zone: no order-9 page could be made. */
static void test_no_free_memory(void)
{
	static const uint32_t f[NB] = { 100, 100, 100, 100, 50, 0, 0, 0 };
	struct fv_model m;
	struct fv_explanation e;

	explain_failure(&m, &e, f, 9);
	CHECK_EQ(e.cause, FV_CAUSE_NO_MEMORY);
	CHECK_EQ(e.nr_zones, 1);
	CHECK_EQ(e.zones[0].free_pages, 450);
	CHECK_EQ(e.zones[0].bound, 0);
	CHECK_EQ(e.zones[0].age_max, 2 * S);
	CHECK(strstr(e.verdict, "450 free pages (figures up to 2.00 s old)"));
	done(&m, &e);
}

/* The verdict of too little memory quotes zoneinfo's figures and age. */
static void test_no_free_memory_watermarks(void)
{
	static const uint32_t f[NB] = { 100, 100, 100, 100, 50, 0, 0, 0 };
	struct fv_model m;
	struct fv_explanation e;

	setup(&m, f, NULL, 0);
	feed(&m, ev_wmark(2 * S + S / 2, 0, Z, 200));
	feed(&m, ev_alloc(3 * S, UINT64_MAX, 9));
	explain_last(&m, NULL, &e);
	CHECK_EQ(e.cause, FV_CAUSE_NO_MEMORY);
	CHECK(strstr(e.verdict, "; zoneinfo: 4000 free pages against low "
		     "watermarks of 210 (0.50 s old)"));
	done(&m, &e);
}

/*
 * A failure at 3 s of a request compaction_suitable answered @ret, on
 * setup()'s model.
 */
static void explain_noted(struct fv_model *m, const uint32_t free[NB],
			  const uint16_t census[NB], int kind, int ret,
			  struct fv_explanation *e)
{
	setup(m, free, census, kind);
	feed(m, ev_czone(2 * S + 1, FV_EV_CTRY, PID, -1, 0, 9, 0));
	feed(m, ev_czone(2 * S + 2, FV_EV_CSUITABLE, PID, 0, Z, 9, ret));
	feed(m, ev_alloc(3 * S, UINT64_MAX, 9));
	explain_last(m, NULL, e);
}

/* compaction_suitable said skipped: not enough memory, whatever the bound. */
static void test_suitable_skipped(void)
{
	struct fv_model m;
	struct fv_explanation e;

	explain_noted(&m, snap_nearly, NULL, 0, FV_CS_SKIPPED, &e);
	CHECK_EQ(e.cause, FV_CAUSE_NO_MEMORY);
	CHECK(e.tried);
	CHECK_EQ(e.suitable[FV_CS_SKIPPED], 1);
	CHECK(e.zones_named);
	CHECK(strstr(e.verdict, "compaction_suitable said skipped"));
	done(&m, &e);
}

/* A hypothetical allocation with a whole free block: it would succeed. */
static void test_at_free_block(void)
{
	static const uint32_t f[NB] = { 512, 0, 0, 0, 0, 0, 0, 0 };
	struct fv_model m;
	struct fv_explanation e;

	setup(&m, f, NULL, 0);
	compact_model_finish(&m);
	fv_explain(&m, NULL, -1, 3 * S, 9, TOP, &e);
	CHECK_EQ(e.cause, FV_CAUSE_NONE);
	CHECK_EQ(e.zones[0].free_blocks, 1);
	CHECK_EQ(e.window, 2 * S);	/* the second before */
	done(&m, &e);
}

/*
 * The same free block, taken by a successful order-9 allocation after
 * the snapshot: no longer free, and a failure then is not "reserves".
 */
static void test_taken_by_allocation(void)
{
	static const uint32_t f[NB] = { 512, 512, 0, 0, 0, 0, 0, 0 };
	struct fv_model m;
	struct fv_explanation e;

	setup(&m, f, NULL, 0);
	feed(&m, ev_alloc(2 * S, 0x1000, 10));	/* both blocks */
	feed(&m, ev_alloc(3 * S, UINT64_MAX, 9));
	explain_last(&m, NULL, &e);
	CHECK_EQ(e.zones[0].taken, 2);
	CHECK_EQ(e.zones[0].free_blocks, 0);
	CHECK_EQ(e.cause, FV_CAUSE_NO_MEMORY);
	done(&m, &e);
}

/*
 * A successful allocation of an order no kernel has, or at the end of
 * the pfn space (damaged records): it takes no block, and its size is
 * not computed (an order of 64 or more was a shift past the width, which
 * UBSan aborts on; an end in the last block looped for ever).
 */
static void test_taken_by_impossible_order(void)
{
	static const uint32_t f[NB] = { 512, 512, 0, 0, 0, 0, 0, 0 };
	struct fv_model m;
	struct fv_explanation e;

	setup(&m, f, NULL, 0);
	feed(&m, ev_alloc(2 * S, 0x1000, 200));
	feed(&m, ev_alloc(2 * S, 0x1000, FV_ORDER_MAX + 1));
	/* its end in the last block: p += ppb wrapped to 0 (a hang) */
	feed(&m, ev_alloc(2 * S, UINT64_MAX - 1023 + 5, 9));
	/* its end past the last pfn */
	feed(&m, ev_alloc(2 * S, UINT64_MAX - 3, 9));
	feed(&m, ev_alloc(3 * S, UINT64_MAX, 9));
	explain_last(&m, NULL, &e);
	CHECK_EQ(e.zones[0].taken, 0);
	CHECK_EQ(e.zones[0].free_blocks, 2);
	done(&m, &e);
}

/*
 * A failed allocation of an order no kernel has, explained: no free run
 * that large, and no shift past the width (UBSan aborted on it).
 */
static void test_failed_impossible_order(void)
{
	static const uint32_t f[NB] = { 512, 512, 512, 512, 0, 0, 0, 0 };
	struct fv_model m;
	struct fv_explanation e;

	explain_failure(&m, &e, f, 246);
	CHECK_EQ(e.order, 246);
	CHECK_EQ(e.zones[0].free_blocks, 0);
	CHECK_EQ(e.zones[0].bound, 0);
	done(&m, &e);
}

/* A free block by the figures and yet a failure: reserves or stale. */
static void test_free_block_failed(void)
{
	static const uint32_t f[NB] = { 512, 0, 0, 0, 0, 0, 0, 0 };
	struct fv_model m;
	struct fv_explanation e;

	explain_failure(&m, &e, f, 9);
	CHECK_EQ(e.cause, FV_CAUSE_RESERVES);
	done(&m, &e);
}

/*
 * A free block by the figures, and what compaction_suitable said of the
 * zone for the request outweighs it: skipped, the watermark kept the
 * block (memory is short); not_suitable_zone, the kernel saw no free
 * order-9 chunk there (a fragmentation index >= 0): the figure is stale
 * and compaction not running is the cause.
 */
static void test_free_block_noted(void)
{
	static const uint32_t f[NB] = { 512, 0, 0, 0, 0, 0, 0, 0 };
	static const int ret[] = { FV_CS_SKIPPED, FV_CS_NOT_SUITABLE_ZONE };
	static const uint8_t cause[] = {
		FV_CAUSE_NO_MEMORY, FV_CAUSE_NO_COMPACTION
	};
	struct fv_model m;
	struct fv_explanation e;

	for (int i = 0; i < 2; i++) {
		explain_noted(&m, f, NULL, 0, ret[i], &e);
		CHECK_EQ(e.zones[0].free_blocks, 1);
		CHECK_EQ(e.cause, cause[i]);
		fv_explain_free(&e);
		compact_model_free(&m);
	}
}

/* No try_to_compact_pages, no run: compaction was not attempted. */
static void test_not_attempted(void)
{
	struct fv_model m;
	struct fv_explanation e;

	setup(&m, snap_nearly, nearly, FV_CN_SLAB_UNMOVABLE);
	feed(&m, ev_alloc(3 * S, UINT64_MAX, 9));
	explain_last(&m, NULL, &e);
	CHECK_EQ(e.cause, FV_CAUSE_NO_COMPACTION);
	CHECK(!e.tried);
	CHECK(strstr(e.verdict, "not attempted"));
	done(&m, &e);
}

/* A capture without compaction's events cannot say it was not attempted. */
static void test_compaction_not_recorded(void)
{
	struct fv_model m;
	struct fv_explanation e;

	setup(&m, snap_nearly, nearly, FV_CN_SLAB_UNMOVABLE);
	m.compact->have_compaction_events = false;
	feed(&m, ev_alloc(3 * S, UINT64_MAX, 9));
	explain_last(&m, NULL, &e);
	CHECK_EQ(e.cause, FV_CAUSE_PINNED);
	CHECK(strstr(e.verdict, "compaction did not run"));
	done(&m, &e);
}

/* suitable: not_suitable_zone (extfrag_threshold), no run. */
static void test_not_suitable(void)
{
	struct fv_model m;
	struct fv_explanation e;

	explain_noted(&m, snap_nearly, nearly, FV_CN_SLAB_UNMOVABLE,
		      FV_CS_NOT_SUITABLE_ZONE, &e);
	CHECK_EQ(e.cause, FV_CAUSE_NO_COMPACTION);
	CHECK(strstr(e.verdict, "extfrag_threshold"));
	done(&m, &e);
}

/*
 * Two requests at one timestamp (the trace clock can repeat): each
 * failure has the notes between it and the task's allocation before,
 * in event order.
 */
static void test_same_timestamp(void)
{
	struct fv_model m;
	struct fv_explanation e;

	setup(&m, snap_nearly, nearly, FV_CN_SLAB_UNMOVABLE);
	feed(&m, ev_czone(3 * S, FV_EV_CTRY, PID, -1, 0, 9, 0));
	feed(&m, ev_czone(3 * S, FV_EV_CSUITABLE, PID, 0, Z, 9, FV_CS_SKIPPED));
	feed(&m, ev_alloc(3 * S, UINT64_MAX, 9));
	feed(&m, ev_alloc(3 * S, 0x1e00, 9));
	feed(&m, ev_czone(3 * S, FV_EV_CTRY, PID, -1, 0, 9, 0));
	feed(&m, ev_czone(3 * S, FV_EV_CSUITABLE, PID, 0, Z, 9,
			  FV_CS_NOT_SUITABLE_ZONE));
	feed(&m, ev_alloc(3 * S, UINT64_MAX, 9));
	compact_model_finish(&m);
	fv_explain(&m, NULL, 0, 0, 9, TOP, &e);
	CHECK_EQ(e.cause, FV_CAUSE_NO_MEMORY);
	CHECK_EQ(e.suitable[FV_CS_NOT_SUITABLE_ZONE], 0);
	fv_explain_free(&e);
	fv_explain(&m, NULL, 2, 0, 9, TOP, &e);
	CHECK_EQ(e.cause, FV_CAUSE_NO_COMPACTION);
	CHECK_EQ(e.suitable[FV_CS_SKIPPED], 0);
	CHECK_EQ(e.suitable[FV_CS_NOT_SUITABLE_ZONE], 1);
	done(&m, &e);
}

/* One compaction run of the task that ended when the scanners met. */
static void compaction_ran(struct fv_model *m)
{
	feed(m, ev_czone(2 * S + 1, FV_EV_CTRY, PID, -1, 0, 9, 0));
	feed(m, ev_czone(2 * S + 2, FV_EV_CSUITABLE, PID, 0, Z, 9, FV_CS_CONTINUE));
	feed(m, ev_crun(2 * S + 3, FV_EV_CBEGIN, PID, 0x1000, 0x2000, 0x1000,
			0x1e00, 0));
	feed(m, ev_crun(2 * S + 4, FV_EV_CEND, PID, 0x1000, 0x2000, 0x1e00,
			0x1e00, FV_CS_COMPLETE));
}

/*
 * Unmovable pages in the four nearest blocks, three stolen by task 95
 * through pipe_write, one by task 96: pinned, from pipe_write
 * (fragmenter-95), 3 of them.
 */
static void test_pinned_with_culprit(void)
{
	struct fv_model m;
	struct fv_blame b;
	struct fv_explanation e;

	setup(&m, snap_nearly, nearly, FV_CN_SLAB_UNMOVABLE);
	fv_blame_init(&b);
	fv_blame_add_comm(&b, 95, "fragmenter");
	fv_blame_add_comm(&b, 96, "other");
	fv_blame_add_stack(&b, 0, "__alloc_pages+0x1\npipe_write+0x2\nvfs_write+0x3");
	for (int i = 0; i < 4; i++) {
		struct fv_event s = ev_steal(S + S / 2 + i, 0, Z, 0x1000 + i * 0x200,
					     FV_MT_UNMOVABLE, M, false);
		struct fv_event st = { .ts = s.ts, .kind = FV_EV_STACK,
			.stack = { .of_ts = s.ts, .id = 0, .of_kind = FV_EV_STEAL } };

		s.steal.pid = i == 3 ? 96 : 95;
		feed(&m, s);
		fv_blame_apply(&b, &s);
		fv_blame_apply(&b, &st);
	}
	compaction_ran(&m);
	feed(&m, ev_alloc(3 * S, UINT64_MAX, 9));
	compact_model_finish(&m);
	fv_blame_finish(&b, 9);
	fv_explain(&m, &b, m.compact->nr_allocs - 1, 0, 9, TOP, &e);
	CHECK_EQ(e.cause, FV_CAUSE_PINNED);
	CHECK_EQ(e.nr_near, 4);
	CHECK_EQ(e.near[0].pfn, 0x1000);
	CHECK_EQ(e.near[0].free, 500);
	CHECK_EQ(e.pins[FV_PIN_UNMOVABLE], 4);
	CHECK_EQ(e.culprit_pid, 95);
	CHECK_EQ(e.culprit_blocks, 3);
	CHECK_EQ(e.nr_runs, 1);
	CHECK(strstr(e.verdict, "4 of the 4 nearest to free pinned by unmovable "
			       "pages from pipe_write (fragmenter-95) (3 of them)"));
	CHECK(strstr(e.verdict, "compaction ran 1 time and ended when the scanners met"));
	fv_explain_free(&e);
	fv_blame_free(&b);
	compact_model_free(&m);
}

/* LRU pages compaction left, with failed migrations: migration-failed. */
static void test_migration_failed(void)
{
	struct fv_model m;
	struct fv_explanation e;

	setup(&m, snap_nearly, nearly, FV_CN_LRU);
	compaction_ran(&m);
	feed(&m, ev_migrate(2 * S + 5, 0x1010, -11));
	feed(&m, ev_alloc(3 * S, UINT64_MAX, 9));
	explain_last(&m, NULL, &e);
	CHECK_EQ(e.cause, FV_CAUSE_MIGRATION);
	CHECK_EQ(e.near[0].fails, 1);
	CHECK_EQ(e.near[0].fail_result, -11);
	done(&m, &e);
}

/*
 * A request that compaction deferred, after the task's previous request
 * whose sync run ended complete: the deferral is that failure's, so the
 * pins decide (pinned), and the run is named as the deferring one.
 */
static void test_deferred_after_failed_run(void)
{
	struct fv_model m;
	struct fv_explanation e;

	setup(&m, snap_nearly, nearly, FV_CN_SLAB_UNMOVABLE);
	compaction_ran(&m);
	feed(&m, ev_alloc(2 * S + 6, UINT64_MAX, 9));
	feed(&m, ev_czone(2 * S + 7, FV_EV_CTRY, PID, -1, 0, 9, 0));
	feed(&m, ev_czone(2 * S + 8, FV_EV_CDEFERRED, PID, 0, Z, 9, 0));
	feed(&m, ev_alloc(3 * S, UINT64_MAX, 9));
	explain_last(&m, NULL, &e);
	CHECK_EQ(e.nr_runs, 0);
	CHECK_EQ(e.deferred, 1);
	CHECK_EQ(e.deferred_by, 0);
	CHECK_EQ(e.cause, FV_CAUSE_PINNED);
	CHECK(strstr(e.verdict, "compaction was deferred (1 deferrals) after the run at 2.000 s"));
	done(&m, &e);
}

/* ... but a run that did not fail, or an async one, defers nothing */
static void test_deferred_run_not_failed(void)
{
	static const uint8_t status[] = { FV_CS_SUCCESS, FV_CS_COMPLETE };

	for (size_t i = 0; i < 2; i++) {
		struct fv_model m;
		struct fv_explanation e;

		setup(&m, snap_nearly, nearly, FV_CN_SLAB_UNMOVABLE);
		feed(&m, ev_czone(2 * S + 2, FV_EV_CSUITABLE, PID, 0, Z, 9,
				  FV_CS_CONTINUE));
		struct fv_event b = ev_crun(2 * S + 3, FV_EV_CBEGIN, PID, 0x1000,
					    0x2000, 0x1000, 0x1e00, 0);
		b.crun.sync = i == 0;
		feed(&m, b);
		feed(&m, ev_crun(2 * S + 4, FV_EV_CEND, PID, 0x1000, 0x2000,
				 0x1e00, 0x1e00, status[i]));
		feed(&m, ev_alloc(2 * S + 6, UINT64_MAX, 9));
		feed(&m, ev_czone(2 * S + 8, FV_EV_CDEFERRED, PID, 0, Z, 9, 0));
		feed(&m, ev_alloc(3 * S, UINT64_MAX, 9));
		explain_last(&m, NULL, &e);
		CHECK_EQ(e.deferred_by, -1);
		CHECK_EQ(e.cause, FV_CAUSE_NO_COMPACTION);
		CHECK(strstr(e.verdict, "compaction was deferred (1 deferrals)"));
		done(&m, &e);
	}
}

/* A deferral with no run in the capture: no-compaction. */
static void test_deferred_no_run(void)
{
	struct fv_model m;
	struct fv_explanation e;

	setup(&m, snap_nearly, nearly, FV_CN_SLAB_UNMOVABLE);
	feed(&m, ev_czone(2 * S + 8, FV_EV_CDEFERRED, PID, 0, Z, 9, 0));
	feed(&m, ev_alloc(3 * S, UINT64_MAX, 9));
	explain_last(&m, NULL, &e);
	CHECK_EQ(e.deferred_by, -1);
	CHECK_EQ(e.cause, FV_CAUSE_NO_COMPACTION);
	done(&m, &e);
}

/* Free pages on per-cpu lists in the nearest blocks. */
static void test_pcp(void)
{
	struct fv_model m;
	struct fv_explanation e;

	setup(&m, snap_nearly, nearly, FV_CN_FREE_PCP);
	compaction_ran(&m);
	feed(&m, ev_alloc(3 * S, UINT64_MAX, 9));
	explain_last(&m, NULL, &e);
	CHECK_EQ(e.cause, FV_CAUSE_PCP);
	CHECK_EQ(e.pins[FV_PIN_PCP], 4);
	done(&m, &e);
}

/*
 * One slab page among 211 LRU pages pins its block: compaction could move
 * the rest, never free the block.
 */
static void test_one_unmovable_page_pins(void)
{
	struct fv_model m;
	struct fv_explanation e;

	compact_model_init(&m);
	m.keep_space_times = true;
	m.compact->have_compaction_events = true;
	for (int i = 0; i < 4; i++) {
		struct fv_event st = ev_state(S, 1, 0, Z, 0x1000 + i * 0x200, M);

		st.state.free_pages = 300;
		feed(&m, st);
		feed(&m, census_move(ev_census(2 * S, 1, 0, Z, 0x1000 + i * 0x200,
					       M, 300), FV_CN_LRU,
				     FV_CN_SLAB_UNMOVABLE, i < 3 ? 1 : 0));
	}
	compaction_ran(&m);
	feed(&m, ev_alloc(3 * S, UINT64_MAX, 9));
	explain_last(&m, NULL, &e);
	CHECK_EQ(e.pins[FV_PIN_UNMOVABLE], 3);
	CHECK_EQ(e.pins[FV_PIN_MOVABLE], 1);
	CHECK_EQ(e.cause, FV_CAUSE_PINNED);
	done(&m, &e);
}

/* Nearest blocks isolated (a flip to Isolate before the failure). */
static void test_isolation(void)
{
	struct fv_model m;
	struct fv_explanation e;

	setup(&m, snap_nearly, nearly, FV_CN_LRU);
	for (int i = 0; i < 4; i++)
		feed(&m, ev_flip(2 * S, 0, Z, 0x1000 + i * 0x200, M,
				 FV_MT_ISOLATE, FV_FLIP_ISOLATE));
	compaction_ran(&m);
	feed(&m, ev_alloc(3 * S, UINT64_MAX, 9));
	explain_last(&m, NULL, &e);
	CHECK_EQ(e.cause, FV_CAUSE_ISOLATION);
	done(&m, &e);
}

/* Without a census nothing says what pins the blocks: unknown. */
static void test_no_census(void)
{
	struct fv_model m;
	struct fv_explanation e;

	setup(&m, snap_nearly, NULL, 0);
	compaction_ran(&m);
	feed(&m, ev_alloc(3 * S, UINT64_MAX, 9));
	explain_last(&m, NULL, &e);
	CHECK_EQ(e.cause, FV_CAUSE_UNKNOWN);
	CHECK_EQ(e.pins[FV_PIN_UNKNOWN], 4);
	done(&m, &e);
}

/* A figure taken only after T is used, with a negative age. */
static void test_figure_after(void)
{
	struct fv_model m;
	struct fv_explanation e;

	setup(&m, snap_nearly, NULL, 0);
	compact_model_finish(&m);
	fv_explain(&m, NULL, -1, S / 2, 9, TOP, &e);
	CHECK_EQ(e.zones[0].age_max, -(int64_t)(S / 2));
	done(&m, &e);
}

/* Of three snapshots, the latest at or before T: not the first or last. */
static void test_latest_figure(void)
{
	static const uint32_t f[NB] = { 512, 512, 512, 512, 512, 512, 512, 512 };
	struct fv_model m;
	struct fv_explanation e;

	setup(&m, f, NULL, 0);
	for (uint32_t seq = 2; seq <= 3; seq++)
		for (int i = 0; i < NB; i++) {
			struct fv_event ev = ev_state(seq * S, seq, 0, Z,
						      0x1000 + i * 0x200, M);

			ev.state.free_pages = seq == 2 ? 10 : 512;
			ev.state.largest_order = seq == 2 ? 1 : 9;
			feed(&m, ev);
		}
	compact_model_finish(&m);
	fv_explain(&m, NULL, -1, 2 * S + S / 2, 9, TOP, &e);
	CHECK_EQ(e.zones[0].free_pages, 80);
	CHECK_EQ(e.zones[0].age_max, S / 2);
	CHECK_EQ(e.cause, FV_CAUSE_NO_MEMORY);
	done(&m, &e);
}

/*
 * The zone's watermarks: its latest line at or before T, not one of
 * another zone or node, nor a later one; none: have_wmark false.
 */
static void test_watermarks(void)
{
	struct fv_model m;
	struct fv_explanation e;

	setup(&m, snap_nearly, NULL, 0);
	feed(&m, ev_wmark(1 * S, 0, Z, 100));
	feed(&m, ev_wmark(2 * S, 0, Z, 200));
	feed(&m, ev_wmark(2 * S + 1, 1, Z, 300));	/* another node */
	feed(&m, ev_wmark(2 * S + 2, 0, FV_ZONE_NORMAL, 400));
	feed(&m, ev_wmark(4 * S, 0, Z, 500));		/* after T */
	compact_model_finish(&m);
	fv_explain(&m, NULL, -1, 3 * S, 9, TOP, &e);
	CHECK_EQ(e.nr_zones, 1);
	CHECK(e.zones[0].have_wmark);
	CHECK_EQ(e.zones[0].wm.min, 200);
	CHECK_EQ(e.zones[0].wm.low, 210);
	CHECK_EQ(e.zones[0].wmark_age, S);
	fv_explain_free(&e);
	/* before the first line: the first one after, with a negative age */
	fv_explain(&m, NULL, -1, S / 2, 9, TOP, &e);
	CHECK_EQ(e.zones[0].wm.min, 100);
	CHECK_EQ(e.zones[0].wmark_age, -(int64_t)(S / 2));
	fv_explain_free(&e);
	compact_model_free(&m);

	setup(&m, snap_nearly, NULL, 0);
	feed(&m, ev_wmark(1 * S, 1, Z, 100));		/* only another node's */
	compact_model_finish(&m);
	fv_explain(&m, NULL, -1, 3 * S, 9, TOP, &e);
	CHECK(!e.zones[0].have_wmark);
	done(&m, &e);
}

static void test_names(void)
{
	for (int c = 0; c < FV_CAUSE_NR; c++)
		CHECK(strcmp(fv_cause_name(c), "unknown") || c == FV_CAUSE_UNKNOWN);
	CHECK(!strcmp(fv_cause_name(FV_CAUSE_PINNED), "pinned"));
	CHECK(!strcmp(fv_pin_name(FV_PIN_PCP), "per-cpu"));
}

int main(void)
{
	RUN(test_no_free_memory);
	RUN(test_no_free_memory_watermarks);
	RUN(test_suitable_skipped);
	RUN(test_at_free_block);
	RUN(test_taken_by_allocation);
	RUN(test_taken_by_impossible_order);
	RUN(test_failed_impossible_order);
	RUN(test_free_block_failed);
	RUN(test_free_block_noted);
	RUN(test_not_attempted);
	RUN(test_compaction_not_recorded);
	RUN(test_not_suitable);
	RUN(test_same_timestamp);
	RUN(test_pinned_with_culprit);
	RUN(test_migration_failed);
	RUN(test_deferred_after_failed_run);
	RUN(test_deferred_run_not_failed);
	RUN(test_deferred_no_run);
	RUN(test_pcp);
	RUN(test_one_unmovable_page_pins);
	RUN(test_isolation);
	RUN(test_no_census);
	RUN(test_figure_after);
	RUN(test_latest_figure);
	RUN(test_watermarks);
	RUN(test_names);
	return TEST_EXIT();
}
