// SPDX-License-Identifier: GPL-2.0
/* test_compact.c - the compaction model (compaction.c), fed as capture.c does. */
#include <stdint.h>
#include <string.h>

#include "../compaction.h"
#include "../model.h"
#include "builders.h"
#include "retries.h"
#include "test.h"

#define M FV_MT_MOVABLE
#define Z FV_ZONE_DMA32

/* Node 0 DMA32: four blocks at 0x1000..0x1600, so zones resolve by pfn. */
static void base4(struct fv_model *m)
{
	for (int i = 0; i < 4; i++)
		feed(m, ev_state(100, 1, 0, Z, 0x1000 + i * 0x200, M));
}

/* Two tasks compact at once: each pass and migration goes to its run. */
static void test_runs_by_task(void)
{
	struct fv_model m;
	const struct fv_compact *c;

	compact_model_init(&m);
	base4(&m);
	feed(&m, ev_czone(200, FV_EV_CTRY, 10, -1, 0, 9, 0));
	feed(&m, ev_czone(201, FV_EV_CSUITABLE, 10, 0, Z, 9, FV_CS_CONTINUE));
	feed(&m, ev_crun(202, FV_EV_CBEGIN, 10, 0x1000, 0x1800, 0x1000, 0x1600, 0));
	feed(&m, ev_crun(203, FV_EV_CBEGIN, 20, 0x1000, 0x1800, 0x1200, 0x1700, 0));
	feed(&m, ev_cscan(210, 10, false, 0x1000, 0x1100, 256, 30));
	feed(&m, ev_cscan(211, 20, false, 0x1200, 0x1400, 512, 5));
	feed(&m, ev_cscan(212, 10, true, 0x1600, 0x1680, 128, 30));
	feed(&m, (struct fv_event){ .ts = 213, .kind = FV_EV_CMIGRATED,
		.cmig = { .nr_migrated = 28, .nr_failed = 2, .pid = 10 } });
	feed(&m, ev_crun(220, FV_EV_CEND, 10, 0x1000, 0x1800, 0x1100, 0x1600,
			 FV_CS_SUCCESS));
	feed(&m, ev_cscan(221, 20, true, 0x1600, 0x1700, 256, 5));
	feed(&m, ev_crun(230, FV_EV_CEND, 20, 0x1000, 0x1800, 0x1400, 0x1600,
			 FV_CS_COMPLETE));
	compact_model_finish(&m);
	c = m.compact;

	CHECK_EQ(c->nr_runs, 2);
	CHECK_EQ(c->nr_scans, 4);
	CHECK_EQ(c->runs[0].pid, 10);
	CHECK_EQ(c->runs[0].mscanned, 256);
	CHECK_EQ(c->runs[0].mtaken, 30);
	CHECK_EQ(c->runs[0].fscanned, 128);
	CHECK_EQ(c->runs[0].migrated, 28);
	CHECK_EQ(c->runs[0].failed, 2);
	CHECK_EQ(c->runs[0].order, 9);
	CHECK_EQ(c->runs[0].prio, 1);
	CHECK_EQ(c->runs[0].nid, 0);
	CHECK_EQ(c->runs[0].status, FV_CS_SUCCESS);
	CHECK_EQ(c->runs[0].migrate_begin, 0x1000);
	CHECK_EQ(c->runs[0].migrate_end, 0x1100);
	CHECK_EQ(c->runs[0].ts_end, 220);
	CHECK_EQ(c->runs[1].pid, 20);
	CHECK_EQ(c->runs[1].mscanned, 512);
	CHECK_EQ(c->runs[1].fscanned, 256);
	CHECK_EQ(c->runs[1].nr_mscans, 1);
	CHECK_EQ(c->runs[1].nr_fscans, 1);
	CHECK_EQ(c->runs[1].migrated, 0);
	CHECK_EQ(c->runs[1].status, FV_CS_COMPLETE);
	/* no suitable/finished for task 20: zone from zone_start's block */
	CHECK_EQ(c->runs[1].nid, 0);
	CHECK_EQ(c->runs[1].zone, Z);
	CHECK_EQ(c->runs[1].order, FV_ORDER_UNKNOWN);
	CHECK_EQ(c->scans[0].run, 0);
	CHECK_EQ(c->scans[1].run, 1);
	CHECK_EQ(c->scans[3].run, 1);
	CHECK(c->scans[2].free && !c->scans[0].free);
	compact_model_free(&m);
}

/* finished inside a run names its zone and order; what came before a
 * begin does not leak into the task's next run */
static void test_zone_order_sources(void)
{
	struct fv_model m;
	const struct fv_compact *c;

	compact_model_init(&m);
	feed(&m, ev_crun(10, FV_EV_CBEGIN, 5, 0x9000, 0xa000, 0x9000, 0x9e00, 0));
	feed(&m, ev_czone(11, FV_EV_CFINISHED, 5, 1, FV_ZONE_NORMAL, -1,
			  FV_CS_CONTINUE));
	feed(&m, ev_czone(12, FV_EV_CFINISHED, 5, 0, FV_ZONE_DMA, 3,
			  FV_CS_CONTINUE));
	feed(&m, ev_crun(13, FV_EV_CEND, 5, 0x9000, 0xa000, 0x9400, 0x9c00,
			 FV_CS_COMPLETE));
	feed(&m, ev_czone(14, FV_EV_CSUITABLE, 5, 1, FV_ZONE_NORMAL, 10,
			  FV_CS_SKIPPED));
	feed(&m, ev_czone(15, FV_EV_CDEFERRED, 5, 1, FV_ZONE_NORMAL, 10, 0));
	feed(&m, ev_crun(20, FV_EV_CBEGIN, 5, 0x9000, 0xa000, 0x9000, 0x9e00, 0));
	feed(&m, ev_crun(21, FV_EV_CEND, 5, 0x9000, 0xa000, 0x9000, 0x9e00,
			 FV_CS_CONTENDED));
	feed(&m, ev_crun(30, FV_EV_CBEGIN, 5, 0x9000, 0xa000, 0x9000, 0x9e00, 0));
	feed(&m, ev_crun(31, FV_EV_CEND, 5, 0x9000, 0xa000, 0x9000, 0x9e00,
			 FV_CS_SKIPPED));
	compact_model_finish(&m);
	c = m.compact;

	CHECK_EQ(c->nr_runs, 3);
	/* the first finished wins */
	CHECK_EQ(c->runs[0].nid, 1);
	CHECK_EQ(c->runs[0].zone, FV_ZONE_NORMAL);
	CHECK_EQ(c->runs[0].order, -1);
	/* the suitable before begin */
	CHECK_EQ(c->runs[1].order, 10);
	CHECK_EQ(c->runs[1].nid, 1);
	/* nothing said, no block at 0x9000: unknown */
	CHECK_EQ(c->runs[2].order, FV_ORDER_UNKNOWN);
	CHECK_EQ(c->runs[2].nid, -1);
	/* outcomes sorted by (node, zone, order) */
	CHECK_EQ(c->nr_outcomes, 3);
	CHECK_EQ(c->outcomes[0].nid, -1);
	CHECK_EQ(c->outcomes[0].runs[FV_CS_SKIPPED], 1);
	CHECK_EQ(c->outcomes[1].order, -1);
	CHECK_EQ(c->outcomes[1].runs[FV_CS_COMPLETE], 1);
	CHECK_EQ(c->outcomes[2].order, 10);
	CHECK_EQ(c->outcomes[2].runs[FV_CS_CONTENDED], 1);
	CHECK_EQ(c->outcomes[2].suitable[FV_CS_SKIPPED], 1);
	CHECK_EQ(c->outcomes[2].deferred, 1);
	compact_model_free(&m);
}

/* An end whose begin is not in the capture still makes a run. */
/*
 * fast_isolate_freepages passes count in the run's free scanner totals,
 * but draw no mark: their range was searched on the free lists, not
 * walked.
 */
static void test_fast_free_passes(void)
{
	struct fv_model m;
	struct fv_event fast = ev_cscan(211, 10, true, 0x1000, 0x1600, 128, 128);
	const struct fv_crun *r;
	struct fv_cmark mk[4];

	fast.kind = FV_EV_CSCAN_FAST;
	compact_model_init(&m);
	base4(&m);
	feed(&m, ev_crun(210, FV_EV_CBEGIN, 10, 0x1000, 0x1800, 0x1000, 0x1600, 0));
	feed(&m, fast);
	fast.cscan.nr_scanned = 12;
	fast.cscan.nr_taken = 8;
	feed(&m, fast);
	feed(&m, ev_cscan(212, 10, true, 0x1600, 0x1640, 64, 64));
	feed(&m, ev_crun(220, FV_EV_CEND, 10, 0x1000, 0x1800, 0x1000, 0x1600,
			  FV_CS_SUCCESS));
	compact_model_finish(&m);
	CHECK_EQ(m.compact->nr_runs, 1);
	r = &m.compact->runs[0];
	CHECK_EQ(r->fscanned, 128 + 12 + 64);
	CHECK_EQ(r->ftaken, 128 + 8 + 64);
	CHECK_EQ(r->nr_fscans, 3);
	CHECK_EQ(m.compact->nr_scans, 1);
	/* only the linear pass's block is marked */
	CHECK_EQ(fv_compact_marks(m.compact, &m, UINT64_MAX, mk), 1);
	CHECK(!strcmp(fv_ev_kind_name(FV_EV_CSCAN_FAST), "compact_scan_fast"));
	compact_model_free(&m);
}

static void test_end_without_begin(void)
{
	struct fv_model m;
	const struct fv_compact *c;

	compact_model_init(&m);
	feed(&m, ev_cscan(5, 3, false, 0x1000, 0x1010, 16, 0));
	feed(&m, ev_crun(9, FV_EV_CEND, 3, 0x1000, 0x1800, 0x1010, 0x1600,
			 FV_CS_PARTIAL_SKIPPED));
	feed(&m, ev_crun(12, FV_EV_CBEGIN, 3, 0x1000, 0x1800, 0x1010, 0x1600, 0));
	compact_model_finish(&m);
	c = m.compact;

	CHECK_EQ(c->nr_ends_unmatched, 1);
	CHECK_EQ(c->nr_runs, 2);
	CHECK(c->runs[0].have_end);
	CHECK_EQ(c->runs[0].status, FV_CS_PARTIAL_SKIPPED);
	CHECK(!c->runs[1].have_end);
	CHECK_EQ(c->runs[1].status, FV_CS_UNKNOWN);
	CHECK_EQ(c->scans[0].run, FV_NO_RUN);
	CHECK(fv_compact_any(c));
	compact_model_free(&m);
}

/* Only orders >= pageblock_order are kept; pfn -1 is a failure. */
static void test_high_order_allocs(void)
{
	struct fv_model m;
	const struct fv_compact *c;
	struct fv_ctl *tl;
	size_t n;

	compact_model_init(&m);
	feed(&m, ev_alloc(10, 0x2000, 0));
	feed(&m, ev_alloc(11, 0x2200, 9));
	feed(&m, ev_crun(12, FV_EV_CBEGIN, 1, 0, 0x1000, 0, 0xe00, 0));
	feed(&m, ev_crun(12, FV_EV_CEND, 1, 0, 0x1000, 0, 0xe00, FV_CS_SUCCESS));
	feed(&m, ev_alloc(12, UINT64_MAX, 9));
	feed(&m, ev_alloc(13, UINT64_MAX, 10));
	compact_model_finish(&m);
	c = m.compact;

	CHECK_EQ(c->nr_allocs, 3);
	CHECK_EQ(c->nr_allocs_low, 1);
	CHECK(c->allocs[0].ok);
	CHECK(!c->allocs[1].ok);
	CHECK(!c->allocs[2].ok);
	CHECK_EQ(c->allocs[2].order, 10);
	/* outcome rows of any node: order 9 2 (1 failed), order 10 1 */
	CHECK_EQ(c->outcomes[0].nid, -1);
	CHECK_EQ(c->outcomes[0].order, FV_ORDER_UNKNOWN);	/* the run */
	CHECK_EQ(c->outcomes[1].allocs, 2);
	CHECK_EQ(c->outcomes[1].alloc_fails, 1);
	CHECK_EQ(c->outcomes[2].allocs, 1);
	/* timeline: in time order, allocation first at equal times */
	tl = fv_compact_timeline(c, &n);
	CHECK_EQ(n, 4);
	CHECK(!tl[0].run && tl[0].ts == 11);
	CHECK(!tl[1].run && tl[1].ts == 12);
	CHECK(tl[2].run && tl[2].ts == 12);
	CHECK(!tl[3].run && tl[3].ts == 13);
	free(tl);
	compact_model_free(&m);

	/* with pageblock_order 10, order 9 is not high order */
	compact_model_init(&m);
	fv_model_set_pageblock_order(&m, 10);
	feed(&m, ev_alloc(11, 0x2200, 9));
	feed(&m, ev_alloc(13, UINT64_MAX, 10));
	compact_model_finish(&m);
	CHECK_EQ(m.compact->nr_allocs, 1);
	CHECK_EQ(m.compact->allocs[0].order, 10);
	compact_model_free(&m);
}

/* What the maps draw: scanner extents per block and failures, up to ts. */
static void test_marks(void)
{
	struct fv_model m;
	struct fv_cmark mk[4];
	size_t n;

	compact_model_init(&m);
	base4(&m);
	feed(&m, ev_crun(200, FV_EV_CBEGIN, 1, 0x1000, 0x1800, 0x1000, 0x1600, 0));
	feed(&m, ev_cscan(210, 1, false, 0x1010, 0x1100, 240, 1));
	feed(&m, ev_cscan(220, 1, false, 0x1180, 0x1200, 128, 1));
	feed(&m, ev_cscan(230, 1, true, 0x1600, 0x1640, 64, 64));
	feed(&m, ev_migrate(240, 0x1210, -11));
	feed(&m, ev_migrate(241, 0x1220, 0));
	feed(&m, ev_migrate(242, 0x1230, -16));
	/* a pass that claims to span two blocks marks both */
	feed(&m, ev_cscan(250, 1, false, 0x1300, 0x1500, 512, 0));
	feed(&m, ev_crun(260, FV_EV_CEND, 1, 0x1000, 0x1800, 0x1500, 0x1600,
			 FV_CS_COMPLETE));
	compact_model_finish(&m);

	CHECK_EQ(m.compact->nr_fails, 2);
	n = fv_compact_marks(m.compact, &m, 215, mk);
	CHECK_EQ(n, 1);
	CHECK_EQ(mk[0].flags, FV_CMARK_MIGRATE);
	CHECK_EQ(mk[0].mlo, 0x10);
	CHECK_EQ(mk[0].mhi, 0x100);
	n = fv_compact_marks(m.compact, &m, 245, mk);
	CHECK_EQ(n, 3);
	CHECK_EQ(mk[0].mlo, 0x10);
	CHECK_EQ(mk[0].mhi, 0x200);
	CHECK_EQ(mk[1].flags, FV_CMARK_FAIL);
	CHECK_EQ(mk[1].nr_fail, 2);
	CHECK_EQ(mk[1].fail_result, -16);
	CHECK_EQ(mk[3].flags, FV_CMARK_FREE);
	CHECK_EQ(mk[3].flo, 0);
	CHECK_EQ(mk[3].fhi, 0x40);
	n = fv_compact_marks(m.compact, &m, UINT64_MAX, mk);
	CHECK_EQ(n, 4);
	CHECK_EQ(mk[1].flags, FV_CMARK_FAIL | FV_CMARK_MIGRATE);
	CHECK_EQ(mk[1].mlo, 0x100);
	CHECK_EQ(mk[1].mhi, 0x200);
	CHECK_EQ(mk[2].flags, FV_CMARK_MIGRATE);
	CHECK_EQ(mk[2].mlo, 0);
	CHECK_EQ(mk[2].mhi, 0x100);
	CHECK_EQ(fv_compact_scans_upto(m.compact, 229), 2);
	CHECK_EQ(fv_compact_fails_upto(m.compact, 241), 1);
	CHECK(!strcmp(fv_errno_name(-11), "EAGAIN"));
	CHECK(fv_errno_name(-4095) == NULL);
	compact_model_free(&m);
}

/* More tasks than slots: the oldest is forgotten, nothing breaks. */
static void test_many_tasks(void)
{
	struct fv_model m;
	const struct fv_compact *c;

	compact_model_init(&m);
	for (int pid = 0; pid < FV_CTASKS + 8; pid++)
		feed(&m, ev_crun(10 + pid, FV_EV_CBEGIN, pid, 0, 0x1000, 0, 0xe00, 0));
	for (int pid = 0; pid < FV_CTASKS + 8; pid++)
		feed(&m, ev_crun(200 + pid, FV_EV_CEND, pid, 0, 0x1000, 0x10,
				 0xe00, FV_CS_COMPLETE));
	compact_model_finish(&m);
	c = m.compact;
	/* the first 8 tasks' begins were forgotten: their ends start runs */
	CHECK_EQ(c->nr_ends_unmatched, 8);
	CHECK_EQ(c->nr_runs, FV_CTASKS + 16);
	CHECK(c->runs[FV_CTASKS + 7].have_end);
	CHECK_EQ(c->runs[FV_CTASKS + 7].pid, FV_CTASKS + 7);
	CHECK(!c->runs[0].have_end);
	CHECK(c->runs[8].have_end);
	CHECK_EQ(c->runs[FV_CTASKS + 8].pid, 0);	/* the first lone end */
	compact_model_free(&m);
}

static void test_cstatus_names(void)
{
	for (int s = 0; s < FV_CS_NR; s++)
		CHECK_EQ(fv_cstatus_parse(fv_cstatus_name(s)), s);
	CHECK_EQ(fv_cstatus_parse("no_such"), FV_CS_UNKNOWN);
	CHECK_EQ(fv_cstatus_parse(NULL), FV_CS_UNKNOWN);
	CHECK(!strcmp(fv_ev_kind_name(FV_EV_ALLOC), "page_alloc"));
}

/* The failures the maps and explain show: folios' last attempts only. */
static void test_migrate_retries(void)
{
	struct retry_case cases[8];
	size_t n = retry_cases(cases);

	for (size_t i = 0; i < n; i++) {
		const struct retry_case *c = &cases[i];
		int failed_before = t_failed_now;	/* say which case fails */
		struct fv_model m;

		t_failed_now = 0;
		compact_model_init(&m);
		m.mig = c->form;
		feed(&m, ev_state(1, 1, 0, Z, RETRY_BLOCK, M));
		for (size_t k = 0; k < c->nr; k++)
			retry_feed(&m, c, &c->ev[k]);
		compact_model_finish(&m);
		CHECK_EQ(m.compact->nr_fails, c->failed);
		CHECK_EQ(m.compact->nr_retried, c->retried);
		if (t_failed_now)
			fprintf(stderr, "  (case: %s)\n", c->name);
		t_failed_now |= failed_before;
		compact_model_free(&m);
	}
}

/*
 * An allocation's failures before it (explain) leave out those that a
 * later attempt retried, as the list does.
 */
static void test_retried_before_alloc(void)
{
	struct fv_model m;

	compact_model_init(&m);
	base4(&m);
	feed(&m, attempt(200, 7, 1, -11));
	feed(&m, attempt(201, 7, 2, -16));
	feed(&m, ev_alloc(202, UINT64_MAX, 9));
	feed(&m, attempt(203, 7, 1, 0));
	feed(&m, ev_alloc(204, UINT64_MAX, 9));
	compact_model_finish(&m);
	CHECK_EQ(m.compact->nr_fails, 1);
	CHECK_EQ(m.compact->nr_allocs, 2);
	if (m.compact->nr_fails == 1 && m.compact->nr_allocs == 2) {
		CHECK_EQ(m.compact->fails[0].result, -16);
		CHECK_EQ(m.compact->allocs[0].fails_at, 1);
		CHECK_EQ(m.compact->allocs[1].fails_at, 1);
	}
	CHECK_EQ(fv_compact_fails_upto(m.compact, 200), 0);
	compact_model_free(&m);
}

int main(void)
{
	RUN(test_runs_by_task);
	RUN(test_zone_order_sources);
	RUN(test_fast_free_passes);
	RUN(test_end_without_begin);
	RUN(test_high_order_allocs);
	RUN(test_marks);
	RUN(test_many_tasks);
	RUN(test_cstatus_names);
	RUN(test_migrate_retries);
	RUN(test_retried_before_alloc);
	return TEST_EXIT();
}
