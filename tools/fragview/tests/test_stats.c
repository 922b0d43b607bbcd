// SPDX-License-Identifier: GPL-2.0
/* test_stats.c - counts, and the vmstat.c indices against hand results. */
#include <string.h>

#include "../stats.h"
#include "builders.h"
#include "retries.h"
#include "test.h"

static void test_indices_by_hand(void)
{
	struct fv_frag f = { 0 };

	/* 10 free order-0 blocks, 5 order-1, 1 order-3: 28 pages, 16 blocks */
	f.pages_at[0] = 10;
	f.pages_at[1] = 10;
	f.pages_at[3] = 8;
	fv_frag_compute(&f);
	CHECK_EQ(f.free_pages, 28);
	CHECK_EQ(f.nr_free[1], 5);
	/* order 0: every free page is usable */
	CHECK_EQ(f.unusable[0], 0);
	CHECK_EQ(f.fragindex[0], -1000);
	/* order 2: 2 suitable blocks of 4 pages: (28 - 8) * 1000 / 28 */
	CHECK_EQ(f.unusable[2], 714);
	CHECK_EQ(f.fragindex[2], -1000);
	/* order 3: 1 suitable: (28 - 8) * 1000 / 28 */
	CHECK_EQ(f.unusable[3], 714);
	/* order 4: none: 1000 - (1000 + 28 * 1000 / 16) / 16 = 1000 - 171 */
	CHECK_EQ(f.unusable[4], 1000);
	CHECK_EQ(f.fragindex[4], 829);
	/* order 10: 1000 - (1000 + 28000 / 1024) / 16 = 1000 - 64 */
	CHECK_EQ(f.fragindex[10], 936);
}

static void test_indices_empty(void)
{
	struct fv_frag f = { 0 };

	fv_frag_compute(&f);
	/* vmstat.c: no free memory is all unusable, and no fragmentation */
	CHECK_EQ(f.unusable[3], 1000);
	CHECK_EQ(f.fragindex[3], 0);
}

static void test_block_decomposition(void)
{
	struct fv_frag f = { 0 };

	/* 300 free, largest order 7: 128 + 128 + 32 + 8 + 4 */
	fv_frag_add_block(&f, 300, 7, 9);
	CHECK_EQ(f.pages_at[7], 256);
	CHECK_EQ(f.pages_at[5], 32);
	CHECK_EQ(f.pages_at[3], 8);
	CHECK_EQ(f.pages_at[2], 4);
	/* a free order-10 buddy spans two order-9 pageblocks */
	fv_frag_add_block(&f, 512, 10, 9);
	fv_frag_add_block(&f, 512, 10, 9);
	/* inconsistent input: 3 pages cannot hold an order-5 block */
	fv_frag_add_block(&f, 3, 5, 9);
	fv_frag_add_block(&f, 0, -1, 9);
	fv_frag_compute(&f);
	CHECK_EQ(f.nr_free[10], 1);
	CHECK_EQ(f.nr_free[7], 2);
	CHECK_EQ(f.nr_free[1], 1);
	CHECK_EQ(f.nr_free[0], 1);
	CHECK_EQ(f.free_pages, 300 + 1024 + 3);
}

static struct fv_event steal(uint8_t a, uint8_t b, bool claimed, uint8_t order)
{
	struct fv_event e = ev_steal(0, 0, FV_ZONE_NORMAL, 0, a, b, claimed);

	e.steal.order = order;
	e.steal.fallback_order = 9;
	return e;
}

static void test_counts(void)
{
	struct fv_stats *s = fv_stats_new();
	struct fv_model m;
	struct fv_event e;

	fv_model_init(&m);
	for (int i = 0; i < 5; i++) {
		e = steal(FV_MT_UNMOVABLE, FV_MT_MOVABLE, i < 2, 0);
		fv_stats_apply(s, &e);
	}
	e = steal(FV_MT_RECLAIMABLE, FV_MT_MOVABLE, false, 200);	/* order clamps */
	fv_stats_apply(s, &e);

	e = ev_flip(0, 0, FV_ZONE_NORMAL, 0, FV_MT_MOVABLE, FV_MT_UNMOVABLE,
		    FV_FLIP_STEAL);
	fv_stats_apply(s, &e);
	fv_stats_apply(s, &e);

	e = ev_drain(0, 3, 0, FV_ZONE_NORMAL, 30);
	e.drain.total = 31;
	fv_stats_apply(s, &e);
	e.cpu = 1;
	fv_stats_apply(s, &e);
	fv_stats_apply(s, &e);

	e = ev_migrate(0, 0, 0);
	e.migrate.mode = FV_MODE_SYNC;
	for (int i = 0; i < 3; i++)
		fv_stats_apply(s, &e);
	e.migrate.result = -16;
	fv_stats_apply(s, &e);
	e = (struct fv_event){ .kind = FV_EV_MIGRATE_SUM };
	e.msum.succeeded = 7;
	e.msum.failed = 1;
	e.msum.mode = FV_MODE_ASYNC;
	e.msum.reason = FV_MR_SYSCALL;
	fv_stats_apply(s, &e);

	fv_model_finish(&m);
	fv_stats_finish(s, &m);
	CHECK_EQ(s->nr_steals, 6);
	CHECK_EQ(s->nr_claimed, 2);
	CHECK_EQ(s->nr_steal_rows, 3);
	/* largest count first */
	CHECK_EQ(s->steals[0].count, 3);
	CHECK_EQ(s->steals[0].claimed, 0);
	CHECK_EQ(s->steals[0].alloc_mt, FV_MT_UNMOVABLE);
	CHECK_EQ(s->steals[2].order, FV_STAT_ORDERS - 1);
	CHECK_EQ(s->nr_flip_rows, 1);
	CHECK_EQ(s->flips[0].count, 2);
	CHECK_EQ(s->nr_drain_rows, 2);
	CHECK_EQ(s->drains[0].cpu, 1);		/* sorted by cpu */
	CHECK_EQ(s->drains[0].drains[FV_DRAIN_VMSTAT], 2);
	CHECK_EQ(s->drains[0].pages[FV_DRAIN_VMSTAT], 62);
	CHECK_EQ(s->drains[1].by_type[1], 30);
	CHECK_EQ(s->nr_drained_pages, 93);
	CHECK_EQ(s->nr_migrate_ok, 10);
	CHECK_EQ(s->nr_migrate_fail, 2);
	CHECK_EQ(s->nr_migrate_rows, 2);
	CHECK_EQ(s->migrations[0].rate_permille, 750);
	CHECK_EQ(s->migrations[1].source, FV_MSRC_CALLS);
	CHECK_EQ(s->migrations[1].rate_permille, 875);
	CHECK_EQ(s->nr_results, 2);
	CHECK_EQ(s->results[0].result, 0);
	CHECK_EQ(s->results[0].count, 3);
	CHECK_EQ(s->results[1].result, -16);
	fv_stats_free(s);
	fv_model_free(&m);
}

/* The claim of a block try_to_steal_block() declined (taken=0). */
static struct fv_event declined(uint8_t a, uint8_t b)
{
	struct fv_event e = steal(a, b, false, 0);

	e.steal.declined = true;
	return e;
}

/*
 * Declined claims are no steals: counted apart, per (allocation type,
 * block type), and in no steal row.
 */
static void test_declined_claims(void)
{
	const uint8_t U = FV_MT_UNMOVABLE, M = FV_MT_MOVABLE,
		      R = FV_MT_RECLAIMABLE;
	const struct fv_event ev[] = {
		steal(U, M, true, 0), steal(U, M, false, 0),
		declined(U, M), declined(U, M), declined(U, M), declined(R, U),
	};
	struct fv_stats *s = fv_stats_new();
	uint64_t rows = 0;
	struct fv_model m;

	fv_model_init(&m);
	for (size_t i = 0; i < sizeof(ev) / sizeof(ev[0]); i++)
		fv_stats_apply(s, &ev[i]);
	fv_model_finish(&m);
	fv_stats_finish(s, &m);
	for (size_t i = 0; i < s->nr_steal_rows; i++)
		rows += s->steals[i].count;
	CHECK_EQ(rows, 2);
	CHECK_EQ(s->nr_steals, 2);
	CHECK_EQ(s->nr_claimed, 1);
	CHECK_EQ(s->nr_declined, 4);
	CHECK_EQ(s->declined_tab[U][M], 3);
	CHECK_EQ(s->declined_tab[R][U], 1);
	CHECK_EQ(s->declined_tab[M][U], 0);
	fv_stats_free(s);
	fv_model_free(&m);
}

static void test_zone_stats_from_snapshots(void)
{
	struct fv_stats *s = fv_stats_new();
	struct fv_model m;
	struct fv_event e = ev_state(0, 1, 0, FV_ZONE_NORMAL, 0, FV_MT_MOVABLE);

	fv_model_init(&m);
	e.state.free_pages = 512;
	e.state.largest_order = 9;
	feed(&m, e);
	e.state.pfn = 512;
	e.state.free_pages = 6;		/* 4 + 2 */
	e.state.largest_order = 2;
	feed(&m, e);
	/* the latest snapshot: block 0 has no free page left; a flip made
	 * block 1 Unmovable */
	feed(&m, ev_flip(5, 0, FV_ZONE_NORMAL, 512, FV_MT_MOVABLE,
			 FV_MT_UNMOVABLE, FV_FLIP_STEAL));
	feed(&m, ev_state(10, 2, 0, FV_ZONE_NORMAL, 0, FV_MT_MOVABLE));
	fv_model_finish(&m);
	fv_stats_finish(s, &m);
	CHECK_EQ(s->nr_zones, 1);
	CHECK(s->zones[0].frag_start.valid);
	CHECK_EQ(s->zones[0].frag_start.free_pages, 518);
	CHECK_EQ(s->zones[0].frag_start.nr_free[9], 1);
	CHECK_EQ(s->zones[0].frag_start.nr_free[1], 1);
	/* block 0 is empty in the latest snapshot; block 1 kept its 6 */
	CHECK_EQ(s->zones[0].frag_end.free_pages, 6);
	CHECK_EQ(s->zones[0].frag_end.fragindex[3], 1000 - (1000 + 6000 / 8) / 2);
	CHECK_EQ(s->zones[0].blocks_start[FV_MT_MOVABLE], 2);
	/* the end counts have the flip: the model's type now */
	CHECK_EQ(s->zones[0].blocks_end[FV_MT_MOVABLE], 1);
	CHECK_EQ(s->zones[0].blocks_end[FV_MT_UNMOVABLE], 1);
	fv_stats_free(s);
	fv_model_free(&m);
}

/*
 * Flips and migrations are tabulated by reason name, whichever kernel
 * printed it: merge and damon (6.12) get rows of their own, a reason no
 * kernel documents lands in "unknown".
 */
static void test_rows_by_reason(void)
{
	struct fv_stats *s = fv_stats_new();
	struct fv_model m;
	const uint8_t reasons[] = { FV_FLIP_STEAL, FV_FLIP_MERGE, FV_FLIP_MERGE,
				    FV_FLIP_MERGE, FV_FLIP_UNKNOWN, 77 };
	struct fv_event e;
	uint64_t merge = 0, unknown = 0, steal = 0;

	fv_model_init(&m);
	for (size_t i = 0; i < sizeof(reasons); i++) {
		e = ev_flip(0, 0, FV_ZONE_NORMAL, 0, FV_MT_UNMOVABLE,
			    FV_MT_MOVABLE, reasons[i]);
		fv_stats_apply(s, &e);
	}
	e = ev_migrate(0, 0, 0);
	e.migrate.reason = FV_MR_DAMON;
	e.migrate.mode = FV_MODE_ASYNC;
	fv_stats_apply(s, &e);
	e.migrate.mode = FV_MODE_SYNC_NO_COPY;
	e.migrate.reason = FV_MR_COMPACTION;
	fv_stats_apply(s, &e);
	fv_model_finish(&m);
	fv_stats_finish(s, &m);
	CHECK_EQ(s->nr_flips, 6);
	CHECK_EQ(s->nr_flip_rows, 3);
	for (size_t i = 0; i < s->nr_flip_rows; i++) {
		const char *name = fv_flip_reason_name(s->flips[i].reason);

		if (!strcmp(name, "merge"))
			merge += s->flips[i].count;
		else if (!strcmp(name, "unknown"))
			unknown += s->flips[i].count;
		else if (!strcmp(name, "steal"))
			steal += s->flips[i].count;
	}
	CHECK_EQ(merge, 3);
	CHECK_EQ(unknown, 2);
	CHECK_EQ(steal, 1);
	CHECK_EQ(s->nr_migrate_rows, 2);
	CHECK(!strcmp(fv_mr_name(s->migrations[0].reason), "damon") ||
	      !strcmp(fv_mr_name(s->migrations[1].reason), "damon"));
	CHECK(s->migrations[0].mode == FV_MODE_SYNC_NO_COPY ||
	      s->migrations[1].mode == FV_MODE_SYNC_NO_COPY);
	fv_stats_free(s);
	fv_model_free(&m);
}

/*
 * A drain per CPU of 40000 CPUs, twice: one row per CPU, each found
 * through the index (a few slots per event), never by a scan of the
 * rows (which is quadratic in the CPUs: 800 M rows looked at here).
 */
static void test_drains_of_many_cpus(void)
{
	enum { NR_CPUS = 40000 };
	struct fv_stats *s = fv_stats_new();
	struct fv_model m;

	fv_model_init(&m);
	for (int pass = 0; pass < 2; pass++)
		for (int cpu = 0; cpu < NR_CPUS; cpu++) {
			struct fv_event e = ev_drain(0, cpu * 7919 % NR_CPUS,
						     0, FV_ZONE_NORMAL, 1);

			fv_stats_apply(s, &e);
		}
	CHECK(s->drain_index.probes <= 16 * NR_CPUS);
	fv_model_finish(&m);
	fv_stats_finish(s, &m);
	CHECK_EQ(s->nr_drain_rows, NR_CPUS);
	CHECK_EQ(s->nr_drains, 2 * NR_CPUS);
	CHECK_EQ(s->drains[0].cpu, 0);
	CHECK_EQ(s->drains[NR_CPUS - 1].cpu, NR_CPUS - 1);
	CHECK_EQ(s->drains[NR_CPUS - 1].drains[FV_DRAIN_VMSTAT], 2);
	fv_stats_free(s);
	fv_model_free(&m);
}

/* A case into the statistics, as capture.c feeds them. */
static struct fv_stats *stats_of_case(const struct retry_case *c,
				      struct fv_model *m)
{
	struct fv_stats *s = fv_stats_new();

	fv_model_init(m);
	s->mig = c->form;
	for (size_t k = 0; k < c->nr; k++) {
		const struct fv_event *ev = &c->ev[k];

		if (fv_mig_role(&c->form, ev) == FV_MIG_DROP)
			fv_stats_end_migrate_call(s, ev->msum.pid);
		else
			fv_stats_apply(s, ev);
	}
	fv_model_finish(m);
	fv_stats_finish(s, m);
	return s;
}

/*
 * The migration table: failures are folios' last attempts of their
 * call, retried attempts a column of their own; the rows add up to
 * the totals.  The results count every attempt.
 */
static void test_migrate_retries(void)
{
	struct retry_case cases[8];
	size_t n = retry_cases(cases);

	for (size_t i = 0; i < n; i++) {
		const struct retry_case *c = &cases[i];
		uint64_t rows_failed = 0, rows_retried = 0, results = 0;
		int failed_before = t_failed_now;	/* say which case fails */
		struct fv_model m;
		struct fv_stats *s = stats_of_case(c, &m);

		t_failed_now = 0;
		for (size_t r = 0; r < s->nr_migrate_rows; r++) {
			rows_failed += s->migrations[r].failed;
			rows_retried += s->migrations[r].retried;
		}
		for (size_t r = 0; r < s->nr_results; r++)
			results += s->results[r].count;
		/* the default form's ok are pages of mm_migrate_pages: 0 */
		CHECK_EQ(s->nr_migrate_ok, c->form.folio ? c->ok : 0);
		CHECK_EQ(s->nr_migrate_fail, c->failed);
		CHECK_EQ(s->nr_migrate_retry, c->retried);
		CHECK_EQ(rows_failed, c->failed);
		CHECK_EQ(rows_retried, c->retried);
		CHECK_EQ(results, (c->form.folio ? c->ok : 0) + c->failed +
			 c->retried);
		if (t_failed_now)
			fprintf(stderr, "  (case: %s)\n", c->name);
		t_failed_now |= failed_before;
		fv_stats_free(s);
		fv_model_free(&m);
	}
}

/*
 * 6.12: the retried attempt stays in the cell of its own mode, the
 * MIGRATE_ASYNC round's, which then has no failure and no rate.
 */
static void test_migrate_async_round(void)
{
	struct retry_case cases[8];
	struct fv_model m;
	struct fv_stats *s;

	retry_cases(cases);
	s = stats_of_case(&cases[2], &m);
	CHECK_EQ(s->nr_migrate_rows, 2);
	if (s->nr_migrate_rows == 2) {
		CHECK_EQ(s->migrations[0].mode, FV_MODE_ASYNC);
		CHECK_EQ(s->migrations[0].ok, 0);
		CHECK_EQ(s->migrations[0].failed, 0);
		CHECK_EQ(s->migrations[0].retried, 1);
		CHECK_EQ(s->migrations[0].rate_permille, 0);
		CHECK_EQ(s->migrations[1].mode, FV_MODE_SYNC);
		CHECK_EQ(s->migrations[1].ok, 1);
		CHECK_EQ(s->migrations[1].rate_permille, 1000);
	}
	fv_stats_free(s);
	fv_model_free(&m);
}

int main(void)
{
	RUN(test_indices_by_hand);
	RUN(test_indices_empty);
	RUN(test_block_decomposition);
	RUN(test_counts);
	RUN(test_declined_claims);
	RUN(test_zone_stats_from_snapshots);
	RUN(test_rows_by_reason);
	RUN(test_drains_of_many_cpus);
	RUN(test_migrate_retries);
	RUN(test_migrate_async_round);
	return TEST_EXIT();
}
