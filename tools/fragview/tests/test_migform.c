// SPDX-License-Identifier: GPL-2.0
/*
 * test_migform.c - what the migration events of each recording form
 * count (migform.h): in the statistics, the model's blocks and charts,
 * the compaction failures, and which of them the ABI forbids.
 *
 * One call of migrate_pages() throughout, by hand: two folios tried in
 * block 0x1000 and one in 0x1200, of which 0x1003 succeeds at pass 0,
 * 0x1004 gets EAGAIN at pass 0 and EBUSY at pass 1, and 0x1205 (an
 * order-2 folio, 4 pages) succeeds at pass 1.  So: 2 attempts moved
 * 5 pages, 2 attempts failed, of which the EAGAIN was retried (migcall.h):
 * 1 folio failed, 1 page was given up; the passes moved 1 and 4 pages,
 * gave up 0 and 1, left 1 and 0 for a retry.
 */
#include <string.h>

#include "../abi.h"
#include "../migform.h"
#include "../stats.h"
#include "builders.h"
#include "test.h"

#define OK_ATTEMPTS 2
#define FAILED_FOLIOS 1		/* the last attempts that failed */
#define RETRIED_ATTEMPTS 1	/* failed attempts tried again */
#define OK_PAGES 5
#define FAILED_PAGES 1

static const struct fv_migform per_folio = { .folio = true },
	both = { .folio = true, .failed = true, .sum = true, .pass = true },
	dflt = { .failed = true, .sum = true, .pass = true },
	no_sum = { .failed = true, .pass = true },
	failed_only = { .failed = true },
	stock = { .sum = true },
	stock_pass = { .sum = true, .pass = true },
	passes = { .pass = true };

/*
 * The call as the capture holds it: every event of form f, in the
 * kernel's order (a migrate_folio_failed right after its migrate_folio).
 */
static size_t the_call(const struct fv_migform *f, struct fv_event *ev)
{
	size_t n = 0;
	struct fv_event a;

	if (f->folio)
		ev[n++] = ev_migrate(10, 0x1003, 0);
	a = ev_migrate(11, 0x1004, -11);
	if (f->folio)
		ev[n++] = a;
	if (f->failed)
		ev[n++] = ev_migrate_failed(11, 0x1004, -11);
	if (f->pass)
		ev[n++] = ev_mpass(12, 0, 1, 0, 1);
	a = ev_migrate(13, 0x1004, -16);
	a.migrate.pass = 1;
	if (f->folio)
		ev[n++] = a;
	if (f->failed) {
		ev[n] = ev_migrate_failed(13, 0x1004, -16);
		ev[n++].migrate.pass = 1;
	}
	a = ev_migrate(14, 0x1205, 0);
	a.migrate.order = 2;
	a.migrate.pass = 1;
	if (f->folio)
		ev[n++] = a;
	if (f->pass)
		ev[n++] = ev_mpass(15, 1, 4, 1, 0);
	if (f->sum)
		ev[n++] = ev_msum(16, OK_PAGES, FAILED_PAGES);
	return n;
}

static struct fv_stats *stats_of(const struct fv_migform *f,
				 struct fv_model *m)
{
	struct fv_stats *s = fv_stats_new();
	struct fv_event ev[16];
	size_t n = the_call(f, ev);

	fv_model_init(m);
	s->mig = *f;
	for (size_t i = 0; i < n; i++)
		fv_stats_apply(s, &ev[i]);
	fv_model_finish(m);
	fv_stats_finish(s, m);
	return s;
}

static uint64_t result_count(const struct fv_stats *s, int32_t result)
{
	for (size_t i = 0; i < s->nr_results; i++)
		if (s->results[i].result == result)
			return s->results[i].count;
	return 0;
}

/* Which event counts for what, in every form a recording can take. */
static void test_roles(void)
{
	static const struct {
		const struct fv_migform *f;
		enum fv_mig_role r[4];	/* migrate, failed, sum, pass */
	} want[] = {
		{ &per_folio, { FV_MIG_ATTEMPT, FV_MIG_DROP, FV_MIG_DROP,
				FV_MIG_PASS_ONLY } },
		{ &both, { FV_MIG_ATTEMPT, FV_MIG_DROP, FV_MIG_DROP,
			   FV_MIG_PASS_ONLY } },
		{ &dflt, { FV_MIG_ATTEMPT, FV_MIG_ATTEMPT, FV_MIG_OK_TOTALS,
			   FV_MIG_PASS_ONLY } },
		{ &no_sum, { FV_MIG_ATTEMPT, FV_MIG_ATTEMPT, FV_MIG_OK_TOTALS,
			     FV_MIG_OK_TOTALS } },
		{ &stock, { FV_MIG_ATTEMPT, FV_MIG_ATTEMPT, FV_MIG_TOTALS,
			    FV_MIG_PASS_ONLY } },
		{ &stock_pass, { FV_MIG_ATTEMPT, FV_MIG_ATTEMPT, FV_MIG_TOTALS,
				 FV_MIG_PASS_ONLY } },
		{ &passes, { FV_MIG_ATTEMPT, FV_MIG_ATTEMPT, FV_MIG_TOTALS,
			     FV_MIG_TOTALS } },
	};
	const struct fv_event ev[4] = {
		ev_migrate(1, 0x1000, 0), ev_migrate_failed(1, 0x1000, -11),
		ev_msum(1, 1, 1), ev_mpass(1, 0, 1, 1, 0),
	};
	struct fv_event drain = ev_drain(1, 0, 0, FV_ZONE_NORMAL, 1);

	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		for (int k = 0; k < 4; k++)
			CHECK_EQ(fv_mig_role(want[i].f, &ev[k]), want[i].r[k]);
	CHECK_EQ(fv_mig_role(&dflt, &drain), FV_MIG_OTHER);
	CHECK(fv_migform_ok_unrecorded(&dflt));
	CHECK(fv_migform_ok_unrecorded(&no_sum));
	CHECK(fv_migform_ok_unrecorded(&failed_only));
	CHECK(!fv_migform_ok_unrecorded(&both));
	CHECK(!fv_migform_ok_unrecorded(&stock));
	CHECK(fv_mig_failed(&ev[1]));
	CHECK(!fv_mig_failed(&ev[0]));
}

static void test_sources(void)
{
	CHECK(!strcmp(fv_migform_ok_source(&both), "migrate_folio"));
	CHECK(!strcmp(fv_migform_failed_source(&both), "migrate_folio"));
	CHECK(!strcmp(fv_migform_ok_source(&dflt), "mm_migrate_pages"));
	CHECK(!strcmp(fv_migform_failed_source(&dflt), "migrate_folio_failed"));
	CHECK(!strcmp(fv_migform_ok_source(&no_sum), "migrate_pass"));
	CHECK(!fv_migform_ok_source(&failed_only));
	CHECK(!strcmp(fv_migform_failed_source(&stock), "mm_migrate_pages"));
	CHECK(!strcmp(fv_migform_failed_source(&passes), "migrate_pass"));
	CHECK(!fv_migform_ok_source(&(struct fv_migform){ 0 }));
}

/*
 * The totals of every form: each failure once, per folio where the
 * capture has them; the pages moved per call, else per pass; the passes
 * in their own table, never in the totals.
 */
static void test_stats_totals(void)
{
	static const struct {
		const struct fv_migform *f;
		uint64_t ok, failed, passes;
		uint8_t source;
		size_t results;		/* distinct results: 0, -11, -16 */
	} want[] = {
		{ &both, OK_ATTEMPTS, FAILED_FOLIOS, 2, FV_MSRC_FOLIO, 3 },
		{ &per_folio, OK_ATTEMPTS, FAILED_FOLIOS, 0, FV_MSRC_FOLIO, 3 },
		{ &dflt, OK_PAGES, FAILED_FOLIOS, 2, FV_MSRC_FAILED, 2 },
		{ &no_sum, OK_PAGES, FAILED_FOLIOS, 2, FV_MSRC_FAILED, 2 },
		{ &failed_only, 0, FAILED_FOLIOS, 0, FV_MSRC_FAILED, 2 },
		{ &stock_pass, OK_PAGES, FAILED_PAGES, 2, FV_MSRC_CALLS, 0 },
		{ &passes, OK_PAGES, FAILED_PAGES, 2, FV_MSRC_PASSES, 0 },
	};

	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		struct fv_model m;
		struct fv_stats *s = stats_of(want[i].f, &m);

		CHECK_EQ(s->nr_migrate_ok, want[i].ok);
		CHECK_EQ(s->nr_migrate_fail, want[i].failed);
		/* the per-call and per-pass forms have no attempts */
		CHECK_EQ(s->nr_migrate_retry,
			 want[i].source == FV_MSRC_FOLIO ||
			 want[i].source == FV_MSRC_FAILED ? RETRIED_ATTEMPTS : 0);
		CHECK_EQ(s->nr_passes, want[i].passes);
		CHECK_EQ(s->nr_results, want[i].results);
		CHECK_EQ(s->nr_migrate_rows, 1);
		if (s->nr_migrate_rows)
			CHECK_EQ(s->migrations[0].source, want[i].source);
		if (t_failed_now)
			fprintf(stderr, "  (form %zu of the table)\n", i);
		fv_stats_free(s);
		fv_model_free(&m);
	}
}

/*
 * The default recording, row by row: failures one by one from
 * migrate_folio_failed with their errno, never a success no event
 * reported; the passes per stage.
 */
static void test_stats_default(void)
{
	struct fv_model m;
	struct fv_stats *s = stats_of(&dflt, &m);

	CHECK_EQ(s->migrations[0].ok, OK_PAGES);
	CHECK_EQ(s->migrations[0].failed, FAILED_FOLIOS);
	CHECK_EQ(s->migrations[0].retried, RETRIED_ATTEMPTS);
	CHECK_EQ(s->migrations[0].reason, FV_MR_COMPACTION);
	CHECK_EQ(result_count(s, -11), 1);
	CHECK_EQ(result_count(s, -16), 1);
	CHECK_EQ(result_count(s, 0), 0);
	CHECK_EQ(s->nr_retry_passes, 1);
	CHECK_EQ(s->nr_retried_pages, 1);
	CHECK_EQ(s->nr_pass_rows, 1);
	CHECK_EQ(s->passes[0].stage, FV_STAGE_UNMAP_MOVE);
	CHECK_EQ(s->passes[0].succeeded, OK_PAGES);
	CHECK_EQ(s->passes[0].failed, FAILED_PAGES);
	CHECK_EQ(s->passes[0].retried, 1);
	fv_stats_free(s);
	fv_model_free(&m);
}

/* migrate_folio recorded on purpose: each failure's errno once. */
static void test_stats_both(void)
{
	struct fv_model m;
	struct fv_stats *s = stats_of(&both, &m);

	CHECK_EQ(result_count(s, 0), OK_ATTEMPTS);
	CHECK_EQ(result_count(s, -11), 1);
	CHECK_EQ(result_count(s, -16), 1);
	fv_stats_free(s);
	fv_model_free(&m);
}

/* The blocks and the charts of a model fed the call of form f. */
static void model_of(const struct fv_migform *f, struct fv_model *m)
{
	struct fv_event ev[16];
	size_t n = the_call(f, ev);

	compact_model_init(m);
	m->mig = *f;
	feed(m, ev_state(1, 1, 0, FV_ZONE_NORMAL, 0x1000, FV_MT_MOVABLE));
	feed(m, ev_state(1, 1, 0, FV_ZONE_NORMAL, 0x1200, FV_MT_MOVABLE));
	for (size_t i = 0; i < n; i++)
		if (fv_mig_role(f, &ev[i]) != FV_MIG_DROP)	/* capture.c */
			feed(m, ev[i]);
	compact_model_finish(m);
}

static void bucket_sums(const struct fv_model *m, uint64_t *ok,
			uint64_t *failed, uint64_t *retried)
{
	*ok = *failed = *retried = 0;
	for (size_t i = 0; i < m->nr_buckets_used; i++) {
		*ok += m->buckets[i].migrate_ok;
		*failed += m->buckets[i].migrate_fail;
		*retried += m->buckets[i].migrate_retry;
	}
}

static void test_model_default(void)
{
	struct fv_model m;
	uint64_t ok, failed, retried;

	model_of(&dflt, &m);
	CHECK_EQ(m.nr_blocks, 2);
	CHECK_EQ(m.blocks[0].n.migrate_fail, FAILED_FOLIOS);
	CHECK_EQ(m.blocks[0].n.migrate_ok, 0);	/* not measured */
	CHECK_EQ(m.blocks[1].n.migrate_fail, 0);
	bucket_sums(&m, &ok, &failed, &retried);
	CHECK_EQ(ok, OK_PAGES);
	CHECK_EQ(failed, FAILED_FOLIOS);
	CHECK_EQ(retried, RETRIED_ATTEMPTS);
	CHECK_EQ(m.blocks[0].n.migrate_retry, RETRIED_ATTEMPTS);
	/* every final failure is one of the compaction failures, its errno */
	CHECK_EQ(m.compact->nr_fails, FAILED_FOLIOS);
	CHECK_EQ(m.compact->nr_retried, RETRIED_ATTEMPTS);
	if (m.compact->nr_fails == FAILED_FOLIOS) {
		CHECK_EQ(m.compact->fails[0].result, -16);
		CHECK_EQ(m.compact->fails[0].pfn, 0x1004);
	}
	compact_model_free(&m);
}

static void test_model_both(void)
{
	struct fv_model m;
	uint64_t ok, failed, retried;

	model_of(&both, &m);
	CHECK_EQ(m.blocks[0].n.migrate_fail, FAILED_FOLIOS);
	CHECK_EQ(m.blocks[0].n.migrate_ok, 1);
	CHECK_EQ(m.blocks[1].n.migrate_ok, 1);
	bucket_sums(&m, &ok, &failed, &retried);
	CHECK_EQ(ok, OK_ATTEMPTS);
	CHECK_EQ(failed, FAILED_FOLIOS);
	CHECK_EQ(retried, RETRIED_ATTEMPTS);
	CHECK_EQ(m.compact->nr_fails, FAILED_FOLIOS);
	compact_model_free(&m);
}

/* What no kernel writes (fragview check, exit 1). */
static void test_impossible(void)
{
	struct fv_event e = ev_migrate_failed(1, 0x1000, -11);

	e.migrate.dst_mt = FV_MT_NONE;
	CHECK(!fv_event_impossible(&e, 9));
	e.migrate.result = 0;
	CHECK(fv_event_impossible(&e, 9));
	e.kind = FV_EV_MIGRATE;
	CHECK(!fv_event_impossible(&e, 9));
	e.migrate.pass = FV_MIGRATE_PASSES - 1;
	CHECK(!fv_event_impossible(&e, 9));
	e.migrate.pass = FV_MIGRATE_PASSES;
	CHECK(fv_event_impossible(&e, 9));

	e = ev_mpass(1, 0, 0, 0, 0);
	CHECK(!fv_event_impossible(&e, 9));	/* 6.12 unmap: counts nothing */
	e.mpass.stage = FV_STAGE_HUGETLB;
	CHECK(fv_event_impossible(&e, 9));
	e.mpass.nr_retry = 1;
	CHECK(!fv_event_impossible(&e, 9));
	e.mpass.pass = FV_MIGRATE_PASSES;
	CHECK(fv_event_impossible(&e, 9));
}

static void test_names(void)
{
	static const char *const stages[] = { "hugetlb", "unmap_move",
					      "unmap", "move" };

	for (int i = 0; i < 4; i++) {
		CHECK_EQ(fv_stage_parse(stages[i]), i);
		CHECK(!strcmp(fv_stage_name(i), stages[i]));
	}
	CHECK_EQ(fv_stage_parse("unmap_and_move"), FV_STAGE_UNKNOWN);
	CHECK(!strcmp(fv_stage_name(200), "unknown"));
	CHECK(!strcmp(fv_ev_kind_name(FV_EV_MIGRATE_FAILED), "migrate_failed"));
	CHECK(!strcmp(fv_ev_kind_name(FV_EV_MIGRATE_PASS), "migrate_pass"));
}

int main(void)
{
	RUN(test_roles);
	RUN(test_sources);
	RUN(test_stats_totals);
	RUN(test_stats_default);
	RUN(test_stats_both);
	RUN(test_model_default);
	RUN(test_model_both);
	RUN(test_impossible);
	RUN(test_names);
	return TEST_EXIT();
}
