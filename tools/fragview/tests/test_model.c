// SPDX-License-Identifier: GPL-2.0
/* test_model.c - the pageblock model: replay, check, charts, rings. */
#include <stdlib.h>
#include <string.h>

#include "../integrity.h"
#include "../model.h"
#include "builders.h"
#include "retries.h"
#include "test.h"

#define U FV_MT_UNMOVABLE
#define M FV_MT_MOVABLE
#define R FV_MT_RECLAIMABLE

/* Node 0; flips are steals in Normal: what most tests need. */
static struct fv_event state(uint64_t ts, uint32_t seq, uint64_t pfn,
			     uint8_t zone, uint8_t mt)
{
	return ev_state(ts, seq, 0, zone, pfn, mt);
}

static struct fv_event flip(uint64_t ts, uint64_t pfn, uint8_t old_mt,
			    uint8_t new_mt)
{
	return ev_flip(ts, 0, FV_ZONE_NORMAL, pfn, old_mt, new_mt,
		       FV_FLIP_STEAL);
}

/* Four Normal blocks at 0x1000.. in one snapshot (seq 1) at t=100. */
static void base4(struct fv_model *m)
{
	const uint8_t t[4] = { M, M, U, R };

	for (int i = 0; i < 4; i++)
		feed(m, state(100, 1, 0x1000 + i * 512, FV_ZONE_NORMAL, t[i]));
}

static void test_types_at_exact(void)
{
	struct fv_model m;
	uint8_t mt[4];

	fv_model_init(&m);
	base4(&m);
	feed(&m, flip(200, 0x1000, M, U));
	feed(&m, flip(300, 0x1200, M, R));
	feed(&m, flip(300, 0x1000, U, M));
	feed(&m, flip(400, 0x1600, R, M));
	fv_model_finish(&m);

	CHECK_EQ(m.nr_blocks, 4);
	CHECK_EQ(m.nr_flips, 4);
	fv_model_types_at(&m, 100, mt);
	CHECK(mt[0] == M && mt[1] == M && mt[2] == U && mt[3] == R);
	fv_model_types_at(&m, 199, mt);
	CHECK(mt[0] == M);
	fv_model_types_at(&m, 200, mt);
	CHECK(mt[0] == U && mt[1] == M);
	/* both flips at 300 count, in arrival order */
	fv_model_types_at(&m, 300, mt);
	CHECK(mt[0] == M && mt[1] == R && mt[3] == R);
	fv_model_types_at(&m, UINT64_MAX, mt);
	CHECK(mt[0] == M && mt[1] == R && mt[2] == U && mt[3] == M);
	for (int i = 0; i < 4; i++)
		CHECK_EQ(m.blocks[i].mt, mt[i]);
	CHECK_EQ(m.blocks[1].mt_base, M);
	CHECK_EQ(m.flip_old_mismatch, 0);
	fv_model_free(&m);
}

static void test_find_and_unknown_pfns(void)
{
	struct fv_model m;
	struct fv_event e = { .ts = 500, .kind = FV_EV_MIGRATE };

	fv_model_init(&m);
	base4(&m);
	CHECK_EQ(fv_model_find_block(&m, 0x1000), 0);
	CHECK_EQ(fv_model_find_block(&m, 0x11ff), 0);
	CHECK_EQ(fv_model_find_block(&m, 0x1200), 1);
	CHECK_EQ(fv_model_find_block(&m, 0x1800), -1);
	CHECK_EQ(fv_model_find_block(&m, 0), -1);
	e.migrate.src_pfn = 0x99999;
	feed(&m, e);
	CHECK_EQ(m.unknown_blocks, 1);
	e.migrate.src_pfn = 0x1201;
	e.migrate.result = -16;
	feed(&m, e);
	CHECK_EQ(m.unknown_blocks, 1);
	CHECK_EQ(m.blocks[1].n.migrate_fail, 1);
	/* a stock kernel's steal names a page: its block is the model's */
	e = ev_steal(550, 0, FV_ZONE_NORMAL, 0, U, M, true);
	e.kind = FV_EV_EXTFRAG;
	e.steal.pfn = 0x1205;
	feed(&m, e);
	CHECK_EQ(m.unknown_blocks, 1);
	CHECK_EQ(m.blocks[1].n.claims, 1);
	/* a flip naming a new block extends the table */
	feed(&m, flip(600, 0x8000, M, U));
	CHECK_EQ(m.nr_blocks, 5);
	fv_model_finish(&m);
	CHECK_EQ(fv_model_find_block(&m, 0x8001), 4);
	CHECK_EQ(m.blocks[4].mt_base, M);
	CHECK_EQ(m.blocks[4].mt, U);
	fv_model_free(&m);
}

static void test_out_of_order(void)
{
	struct fv_model m;
	uint8_t mt[4];

	fv_model_init(&m);
	base4(&m);
	feed(&m, flip(500, 0x1000, M, U));
	feed(&m, flip(300, 0x1200, M, U));	/* late: treated as t=500 */
	fv_model_finish(&m);
	CHECK_EQ(m.out_of_order, 1);
	CHECK(m.flips[0].ts <= m.flips[1].ts);
	fv_model_types_at(&m, 400, mt);
	CHECK(mt[0] == M && mt[1] == M);
	fv_model_types_at(&m, 500, mt);
	CHECK(mt[0] == U && mt[1] == U);
	fv_model_free(&m);
}

static void test_sorting_renumbers(void)
{
	struct fv_model m;
	uint8_t mt[3];

	fv_model_init(&m);
	m.keep_hist = true;
	/* arrive as DMA32 0x9000, Normal 0x200, DMA32 0x8000 */
	feed(&m, state(10, 7, 0x9000, FV_ZONE_DMA32, M));
	feed(&m, state(10, 7, 0x200, FV_ZONE_NORMAL, U));
	feed(&m, state(10, 7, 0x8000, FV_ZONE_DMA32, R));
	feed(&m, flip(20, 0x200, U, M));
	for (int i = 0; i < 20; i++)
		feed(&m, flip(30 + i, 0x9000, i & 1 ? U : M, i & 1 ? M : U));
	fv_model_finish(&m);
	CHECK_EQ(m.blocks[0].pfn, 0x8000);
	CHECK_EQ(m.blocks[1].pfn, 0x9000);
	CHECK_EQ(m.blocks[2].pfn, 0x200);
	CHECK_EQ(m.nr_zones, 2);
	CHECK_EQ(m.zones[0].zone, FV_ZONE_DMA32);
	CHECK_EQ(m.zones[0].nr, 2);
	CHECK_EQ(m.zones[1].first, 2);
	CHECK_EQ(m.zones[1].start_pfn, 0x200);
	CHECK_EQ(m.flips[0].block, 2);
	CHECK_EQ(fv_model_find_block(&m, 0x9100), 1);
	fv_model_types_at(&m, 25, mt);
	CHECK(mt[0] == R && mt[1] == M && mt[2] == M);
	CHECK_EQ(m.blocks[2].free_pages, 0);

	/* the ring keeps the last FV_BLOCK_HIST events, oldest first */
	{
		const struct fv_hist_rec *a, *b;
		size_t na, nb, n = fv_model_block_hist(&m, 1, &a, &na, &b, &nb);

		CHECK_EQ(n, FV_BLOCK_HIST);
		CHECK_EQ(na + nb, FV_BLOCK_HIST);
		CHECK_EQ(a[0].ts, 30 + 20 - FV_BLOCK_HIST);
		CHECK_EQ(nb ? b[nb - 1].ts : a[na - 1].ts, 49);
		for (size_t i = 1; i < na; i++)
			CHECK(a[i].ts == a[i - 1].ts + 1);
		n = fv_model_block_hist(&m, 2, &a, &na, &b, &nb);
		CHECK_EQ(n, 1);
		CHECK(na == 1 && a[0].kind == FV_EV_FLIP && a[0].b == M);
		/* a block without events has no ring */
		n = fv_model_block_hist(&m, 0, &a, &na, &b, &nb);
		CHECK(n == 0 && na == 0 && nb == 0);
	}
	fv_model_free(&m);
}

/* Without keep_hist the model keeps no recent events, the rest alike. */
static void test_hist_opt_in(void)
{
	struct fv_model m;
	const struct fv_hist_rec *a, *b;
	size_t na, nb;

	fv_model_init(&m);
	base4(&m);
	feed(&m, flip(200, 0x1000, M, U));
	feed(&m, ev_migrate(210, 0x1200, 0));
	fv_model_finish(&m);
	CHECK_EQ(fv_model_block_hist(&m, 0, &a, &na, &b, &nb), 0);
	CHECK_EQ(fv_model_block_hist(&m, 1, &a, &na, &b, &nb), 0);
	CHECK_EQ(m.nr_flips, 1);
	CHECK_EQ(m.blocks[0].n.flips, 1);
	CHECK_EQ(m.blocks[1].n.migrate_ok, 1);
	fv_model_free(&m);
}

/*
 * A claim try_to_steal_block() declined (taken=0) took nothing: no
 * steal in its block, the charts, the steal times (map --view steals)
 * or the block's history, and no type changed; it still names its
 * block, and a block no snapshot covered enters the table.
 */
static void test_declined_is_no_steal(void)
{
	const struct fv_hist_rec *a, *b;
	uint32_t steals = 0, claims = 0;
	struct fv_model m;
	size_t na, nb;

	fv_model_init(&m);
	m.keep_hist = m.keep_steal_times = true;
	base4(&m);
	feed(&m, ev_declined(200, 0, FV_ZONE_NORMAL, 0x1000, U, M));
	feed(&m, ev_declined(210, 0, FV_ZONE_NORMAL, 0x8000, U, R));
	feed(&m, ev_steal(220, 0, FV_ZONE_NORMAL, 0x1200, U, M, true));
	fv_model_finish(&m);
	for (size_t k = 0; k < m.nr_buckets_used; k++) {
		steals += m.buckets[k].steals;
		claims += m.buckets[k].claims;
	}
	CHECK_EQ(steals, 1);
	CHECK_EQ(claims, 1);
	CHECK_EQ(m.nr_events[FV_EV_STEAL], 3);	/* the records, as read */
	CHECK_EQ(m.blocks[0].n.steals, 0);
	CHECK_EQ(m.blocks[1].n.steals, 1);
	CHECK_EQ(m.nr_steal_recs, 1);
	CHECK_EQ(m.steal_recs[0].block, 1);
	CHECK_EQ(fv_model_block_hist(&m, 0, &a, &na, &b, &nb), 0);
	CHECK_EQ(fv_model_block_hist(&m, 1, &a, &na, &b, &nb), 1);
	CHECK_EQ(m.nr_blocks, 5);
	CHECK_EQ(fv_model_find_block(&m, 0x8000), 4);
	CHECK_EQ(m.blocks[4].mt, R);
	CHECK_EQ(m.blocks[4].n.steals, 0);
	CHECK_EQ(m.blocks[0].mt, M);
	CHECK_EQ(m.nr_impossible, 0);
	fv_model_free(&m);
}

/* Block 0x1000 flipped by a claim on cpu, as the kernel writes it. */
static struct fv_event flip_on(int32_t cpu, uint64_t ts, uint8_t old_mt,
			       uint8_t new_mt, uint8_t reason)
{
	struct fv_event f = ev_flip(ts, 0, FV_ZONE_NORMAL, 0x1000, old_mt,
				    new_mt, reason);

	f.cpu = cpu;
	return f;
}

static struct fv_event declined_on(int32_t cpu, uint64_t ts)
{
	struct fv_event d = ev_declined(ts, 0, FV_ZONE_NORMAL, 0x1200, U, M);

	d.cpu = cpu;
	return d;
}

/*
 * fragview check's rules for a declined claim: it claims nothing
 * (taken=0 with claimed=1), and changes no type: no steal flip of its
 * CPU comes right before it, as one comes right before a claim's
 * taken=1 steal.  Each is the capture's impossible event, and the
 * check report says so (exit 1).
 */
static void test_declined_impossible(void)
{
	struct fv_event d = declined_on(0, 200), s;
	struct fv_model m;
	char *out = NULL;
	size_t len = 0;
	FILE *f;

	fv_model_init(&m);
	base4(&m);
	d.steal.claimed = true;
	feed(&m, d);
	CHECK_EQ(m.nr_impossible, 1);
	CHECK(m.impossible_why &&
	      !strcmp(m.impossible_why, "taken=0 with claimed=1 (a declined claim claims no block)"));
	fv_model_free(&m);

	fv_model_init(&m);
	base4(&m);
	/* another CPU's, after a steal, after another event: possible */
	feed(&m, flip_on(1, 200, M, U, FV_FLIP_STEAL));
	feed(&m, declined_on(2, 201));
	s = ev_steal(202, 0, FV_ZONE_NORMAL, 0x1000, U, M, true);
	s.cpu = 1;
	feed(&m, s);
	feed(&m, declined_on(1, 203));
	feed(&m, flip_on(1, 210, U, M, FV_FLIP_STEAL));
	feed(&m, ev_drain(211, 1, 0, FV_ZONE_NORMAL, 4));
	feed(&m, declined_on(1, 212));
	feed(&m, flip_on(1, 220, M, U, FV_FLIP_HIGHATOMIC_RESERVE));
	feed(&m, declined_on(1, 221));
	CHECK_EQ(m.nr_impossible, 0);
	/* right after its CPU's steal flip: the claim changed a type */
	feed(&m, flip_on(7, 230, U, M, FV_FLIP_STEAL));
	feed(&m, declined_on(7, 231));
	CHECK_EQ(m.nr_impossible, 1);
	CHECK_EQ(m.impossible.cpu, 7);
	CHECK(m.impossible_why && strstr(m.impossible_why, "steal flip"));
	for (int i = 0; i < 4; i++)	/* the types of base4(): the replay's */
		feed(&m, state(300, 2, 0x1000 + i * 512, FV_ZONE_NORMAL,
			       (const uint8_t[]){ M, M, U, R }[i]));
	fv_model_finish(&m);
	f = open_memstream(&out, &len);
	CHECK_EQ(fv_check_report(f, &m), FV_CHECK_MISMATCH);
	fclose(f);
	CHECK(strstr(out, "check: impossible event: steal on CPU 7 at 0.000000231 s: taken=0 right after a steal flip"));
	free(out);
	fv_model_free(&m);
}

/*
 * mt_start: the type a block had before any flip, the start of every
 * replay; mt_base: the first snapshot's; mt: every flip applied.
 */
static void test_start_types(void)
{
	struct fv_model m;
	uint8_t mt[5];

	fv_model_init(&m);
	/* a flip at ts 0 names a block before the first snapshot */
	feed(&m, flip(0, 0x1000, R, U));
	base4(&m);
	feed(&m, flip(200, 0x1200, M, U));
	feed(&m, flip(300, 0x8000, FV_MT_UNKNOWN, M));
	fv_model_finish(&m);
	CHECK_EQ(m.blocks[0].mt_start, R);
	CHECK_EQ(m.blocks[0].mt_base, M);
	CHECK_EQ(m.blocks[0].mt, U);
	CHECK_EQ(m.blocks[1].mt_start, M);
	CHECK_EQ(m.blocks[1].mt, U);
	CHECK_EQ(m.blocks[4].mt_start, FV_MT_UNKNOWN);
	/* fv_model_types_at() before the first flip is mt_start */
	fv_model_types_at(&m, 0, mt);
	CHECK(mt[0] == U && mt[1] == M);
	for (size_t i = 1; i < m.nr_blocks; i++)
		CHECK_EQ(mt[i], m.blocks[i].mt_start);
	fv_model_types_at(&m, UINT64_MAX, mt);
	for (size_t i = 0; i < m.nr_blocks; i++)
		CHECK_EQ(mt[i], m.blocks[i].mt);
	fv_model_free(&m);
}

static void test_check_replay(void)
{
	struct fv_model m;
	struct fv_check c;
	struct fv_mismatch mm[8];

	fv_model_init(&m);
	base4(&m);
	CHECK_EQ(fv_model_check(&m, &c, mm), -1);	/* one snapshot */
	feed(&m, flip(200, 0x1000, M, U));
	feed(&m, flip(210, 0x1200, M, R));
	/* second snapshot: block 1 says Unmovable (a flip was lost) */
	feed(&m, state(300, 2, 0x1000, FV_ZONE_NORMAL, U));
	feed(&m, state(300, 2, 0x1200, FV_ZONE_NORMAL, U));
	feed(&m, state(300, 2, 0x1400, FV_ZONE_NORMAL, U));
	/* a flip after the last snapshot record does not count */
	feed(&m, flip(400, 0x1400, U, M));
	fv_model_finish(&m);
	CHECK_EQ(m.nr_snapshots, 2);
	CHECK_EQ(fv_model_check(&m, &c, mm), 0);
	CHECK_EQ(c.nr_compared, 3);
	CHECK_EQ(c.nr_flips, 2);
	CHECK_EQ(c.nr_missing, 1);
	CHECK_EQ(c.nr_mismatches, 1);
	CHECK_EQ(m.blocks[mm[0].block].pfn, 0x1200);
	CHECK_EQ(mm[0].expected, U);
	CHECK_EQ(mm[0].got, R);
	fv_model_free(&m);
}

static void test_check_clean_and_new_block(void)
{
	struct fv_model m;
	struct fv_check c;
	struct fv_mismatch mm[8];
	struct fv_event init = flip(150, 0x4000, FV_MT_UNKNOWN, M);

	fv_model_init(&m);
	base4(&m);
	init.flip.reason = FV_FLIP_INIT;
	feed(&m, init);			/* hot-added block */
	feed(&m, flip(200, 0x1600, R, U));
	for (int i = 0; i < 4; i++)
		feed(&m, state(300, 5, 0x1000 + i * 512, FV_ZONE_NORMAL,
				i == 3 ? U : i == 2 ? U : M));
	feed(&m, state(300, 5, 0x4000, FV_ZONE_NORMAL, M));
	feed(&m, state(300, 5, 0x6000, FV_ZONE_NORMAL, M));	/* never replayed */
	fv_model_finish(&m);
	CHECK_EQ(fv_model_check(&m, &c, mm), 0);
	CHECK_EQ(c.nr_compared, 6);
	CHECK_EQ(c.nr_mismatches, 1);
	CHECK_EQ(m.blocks[mm[0].block].pfn, 0x6000);
	CHECK_EQ(mm[0].got, FV_MT_UNKNOWN);
	fv_model_free(&m);
}

static void test_bucket_merging(void)
{
	struct fv_model m;
	uint64_t flips = 0, t;
	const uint64_t span = 10ULL * 1000 * 1000 * 1000;	/* 10 s */

	fv_model_init(&m);
	base4(&m);
	for (t = 1; t <= 1000; t++) {
		uint8_t from = t & 1 ? M : U, to = t & 1 ? U : M;

		feed(&m, flip(100 + t * (span / 1000), 0x1000, from, to));
	}
	fv_model_finish(&m);
	CHECK(m.bucket_ns * FV_NBUCKETS > span);
	CHECK(m.bucket_ns * FV_NBUCKETS / 2 <= span);
	CHECK(m.nr_buckets_used <= FV_NBUCKETS);
	CHECK(m.nr_buckets_used > FV_NBUCKETS / 2);
	for (size_t i = 0; i < FV_NBUCKETS; i++)
		flips += m.buckets[i].flips;
	CHECK_EQ(flips, 1000);
	/* an even number of flips leaves block 0 Movable: M,M,U,R */
	CHECK_EQ(m.buckets[m.nr_buckets_used - 1].blocks[M], 2);
	CHECK_EQ(m.buckets[m.nr_buckets_used - 1].blocks[U], 1);
	/* every bucket's counts add up to the 4 blocks */
	for (size_t i = 0; i < m.nr_buckets_used; i++) {
		uint64_t sum = 0;

		for (int k = 0; k < FV_MT_NR; k++)
			sum += m.buckets[i].blocks[k];
		CHECK_EQ(sum, 4);
	}
	fv_model_free(&m);
}

static void test_many_blocks(void)
{
	struct fv_model m;
	uint8_t *mt;
	const size_t n = 100000;

	fv_model_init(&m);
	for (size_t i = 0; i < n; i++)
		feed(&m, state(1, 1, (n - i) * 512, FV_ZONE_NORMAL, i % 3));
	for (size_t i = 0; i < n; i += 7)
		feed(&m, flip(2, (n - i) * 512, i % 3, FV_MT_ISOLATE));
	fv_model_finish(&m);
	CHECK_EQ(m.nr_blocks, n);
	mt = malloc(n);
	fv_model_types_at(&m, 2, mt);
	for (size_t i = 0; i < n; i++) {
		size_t orig = n - (i + 1);	/* sorted by pfn ascending */

		if (mt[i] != (orig % 7 ? orig % 3 : FV_MT_ISOLATE)) {
			CHECK(!"type mismatch");
			break;
		}
	}
	free(mt);
	fv_model_free(&m);
}

static void test_names(void)
{
	CHECK_EQ(fv_mt_parse("HighAtomic"), FV_MT_HIGHATOMIC);
	CHECK_EQ(fv_mt_parse("movable"), FV_MT_MOVABLE);
	CHECK_EQ(fv_mt_parse("Bogus"), FV_MT_UNKNOWN);
	CHECK_EQ(fv_mt_parse(NULL), FV_MT_UNKNOWN);
	CHECK_EQ(fv_zone_parse("DMA32"), FV_ZONE_DMA32);
	CHECK_EQ(fv_mode_parse("MIGRATE_SYNC_LIGHT"), FV_MODE_SYNC_LIGHT);
	CHECK_EQ(fv_mode_parse("sync"), FV_MODE_SYNC);
	CHECK_EQ(fv_mr_parse("syscall_or_cpuset"), FV_MR_SYSCALL);
	CHECK_EQ(fv_flip_reason_parse("isolate_free"), FV_FLIP_ISOLATE_FREE);
	CHECK_EQ(fv_drain_reason_parse("cpu_dead"), FV_DRAIN_CPU_DEAD);
	CHECK_EQ(fv_drain_reason_parse("decay"), FV_DRAIN_DECAY);
	CHECK(!strcmp(fv_mt_name(FV_MT_CMA), "CMA"));
	CHECK(!strcmp(fv_mt_name(200), "unknown"));
	CHECK(!strcmp(fv_ev_kind_name(FV_EV_MIGRATE_SUM), "migrate_sum"));
	for (int i = 0; i < FV_MT_NR - 1; i++)
		CHECK_EQ(fv_mt_parse(fv_mt_name(i)), i);
	for (int i = 0; i < FV_MR_NR - 1; i++)
		CHECK_EQ(fv_mr_parse(fv_mr_name(i)), i);
	for (int i = 0; i < FV_MODE_NR - 1; i++)
		CHECK_EQ(fv_mode_parse(fv_mode_name(i)), i);
	for (int i = 0; i < FV_FLIP_NR - 1; i++)
		CHECK_EQ(fv_flip_reason_parse(fv_flip_reason_name(i)), i);
}

/*
 * The names only one supported kernel prints are read like the others:
 * merge and damon (6.12), MIGRATE_SYNC_NO_COPY (6.1).  A name no kernel
 * documents is "unknown", never another reason.
 */
static void test_names_per_kernel(void)
{
	CHECK_EQ(fv_flip_reason_parse("merge"), FV_FLIP_MERGE);
	CHECK(!strcmp(fv_flip_reason_name(FV_FLIP_MERGE), "merge"));
	CHECK_EQ(fv_mr_parse("damon"), FV_MR_DAMON);
	CHECK(!strcmp(fv_mr_name(FV_MR_DAMON), "damon"));
	CHECK_EQ(fv_mode_parse("MIGRATE_SYNC_NO_COPY"), FV_MODE_SYNC_NO_COPY);
	CHECK_EQ(fv_flip_reason_parse("merged"), FV_FLIP_UNKNOWN);
	CHECK_EQ(fv_flip_reason_parse("coalesce"), FV_FLIP_UNKNOWN);
	CHECK_EQ(fv_flip_reason_parse(""), FV_FLIP_UNKNOWN);
	CHECK_EQ(fv_mr_parse("damon_reclaim"), FV_MR_UNKNOWN);
	CHECK_EQ(fv_mode_parse("MIGRATE_SYNC_NO_WAIT"), FV_MODE_UNKNOWN);
	CHECK(!strcmp(fv_flip_reason_name(FV_FLIP_UNKNOWN), "unknown"));
	CHECK(!strcmp(fv_flip_reason_name(200), "unknown"));
	CHECK(!strcmp(fv_mr_name(200), "unknown"));
}

/*
 * A merge flip (6.12: __free_one_page() gives a free buddy's block the
 * type of the buddy it merges with) is a type change like any other:
 * the replay applies it and the next snapshot agrees.
 */
static void test_merge_flip_replays(void)
{
	struct fv_model m;
	struct fv_check c;
	struct fv_event e = flip(200, 0x1400, U, M);
	uint8_t mt[4];

	fv_model_init(&m);
	base4(&m);
	e.flip.reason = FV_FLIP_MERGE;
	feed(&m, e);
	for (int i = 0; i < 4; i++)
		feed(&m, state(300, 2, 0x1000 + i * 512, FV_ZONE_NORMAL,
			       i == 3 ? R : M));
	fv_model_finish(&m);
	CHECK_EQ(m.nr_flips, 1);
	CHECK_EQ(m.flips[0].reason, FV_FLIP_MERGE);
	fv_model_types_at(&m, 199, mt);
	CHECK_EQ(mt[2], U);
	fv_model_types_at(&m, 200, mt);
	CHECK_EQ(mt[2], M);
	CHECK_EQ(m.blocks[2].n.flips, 1);
	CHECK_EQ(m.flip_old_mismatch, 0);
	CHECK_EQ(fv_model_check(&m, &c, NULL), 0);
	CHECK_EQ(c.nr_compared, 4);
	CHECK_EQ(c.nr_mismatches, 0);
	CHECK_EQ(c.nr_flips, 1);
	fv_model_free(&m);
}

static void test_pageblock_order_inferred(void)
{
	struct fv_model m;
	struct fv_event e = { .ts = 5, .kind = FV_EV_MIGRATE };

	fv_model_init(&m);
	/* a kernel without CONFIG_HUGETLB_PAGE: 1024-page blocks */
	for (int i = 0; i < 4; i++)
		feed(&m, state(1, 1, i * 1024, FV_ZONE_NORMAL, M));
	fv_model_finish(&m);
	CHECK_EQ(m.pageblock_order, 10);
	CHECK_EQ(fv_model_find_block(&m, 0x600), 1);	/* second half */
	e.migrate.src_pfn = 0x700;
	feed(&m, e);
	CHECK_EQ(m.unknown_blocks, 0);
	fv_model_free(&m);

	/* blocks 2^18 pages apart are not neighbours: no order that big */
	fv_model_init(&m);
	for (int i = 1; i <= 4; i++)
		feed(&m, state(1, 1, (uint64_t)i << 18, FV_ZONE_NORMAL, M));
	fv_model_finish(&m);
	CHECK_EQ(m.pageblock_order, 9);
	CHECK_EQ(m.nr_blocks, 4);
	fv_model_free(&m);

	/* the usual 512-page blocks stay 9; a dump's order is kept */
	fv_model_init(&m);
	base4(&m);
	fv_model_finish(&m);
	CHECK_EQ(m.pageblock_order, 9);
	fv_model_free(&m);
	fv_model_init(&m);
	fv_model_set_pageblock_order(&m, 9);
	feed(&m, state(1, 1, 0x400, FV_ZONE_NORMAL, M));
	feed(&m, state(1, 1, 0xc00, FV_ZONE_NORMAL, M));
	fv_model_finish(&m);
	CHECK_EQ(m.pageblock_order, 9);
	fv_model_free(&m);
}

/* ---- ABI v2: generations, snapshot boundaries, online/offline ---- */

static struct fv_event gstate(uint64_t ts, uint32_t seq, uint64_t pfn,
			      uint8_t mt, uint64_t gen)
{
	return with_gen(state(ts, seq, pfn, FV_ZONE_NORMAL, mt), gen);
}

static struct fv_event gflip(uint64_t ts, uint64_t pfn, uint8_t old_mt,
			     uint8_t new_mt, uint64_t gen)
{
	return with_gen(flip(ts, pfn, old_mt, new_mt), gen);
}

static struct fv_event snap(uint64_t ts, uint32_t seq, int phase,
			    uint32_t nr, uint64_t gen)
{
	return ev_snap(ts, seq, 0, FV_ZONE_NORMAL, phase, nr, gen);
}

/*
 * Trace order disagrees with the lock order: a flip recorded after the
 * state record that already includes it, one recorded before the record
 * it is not part of.  The gen rule replays it exactly; trace order
 * (what a v1 capture gets) sees a mismatch.
 */
static void build_skewed(struct fv_model *m, bool with_gen)
{
	struct fv_event ev[] = {
		snap(100, 1, FV_SNAP_BEGIN, 2, 9),
		gstate(101, 1, 0x1000, U, 10),
		gflip(102, 0x1000, M, U, 10),	/* in the record above */
		gflip(103, 0x1200, M, R, 11),	/* not in the record below */
		gstate(104, 1, 0x1200, M, 10),
		snap(105, 1, FV_SNAP_END, 2, 11),
		gflip(200, 0x1000, U, M, 12),
		snap(300, 2, FV_SNAP_BEGIN, 2, 12),
		gstate(301, 2, 0x1000, M, 12),
		gstate(302, 2, 0x1200, R, 12),
		snap(303, 2, FV_SNAP_END, 2, 12),
	};

	fv_model_init(m);
	m->expect_snap_events = true;
	for (size_t i = 0; i < sizeof(ev) / sizeof(ev[0]); i++) {
		if (!with_gen)
			ev[i].flags = 0;
		feed(m, ev[i]);
	}
	fv_model_finish(m);
}

static void test_gen_rule(void)
{
	struct fv_model m;
	struct fv_check c;
	struct fv_mismatch mm[4];
	struct fv_issues is;
	uint8_t mt[2];

	build_skewed(&m, true);
	CHECK(m.have_gen);
	CHECK_EQ(fv_model_check(&m, &c, mm), 0);
	CHECK_EQ(c.nr_compared, 2);
	CHECK_EQ(c.nr_mismatches, 0);
	CHECK_EQ(c.nr_flips, 2);	/* gen 11 for 0x1200, gen 12 for 0x1000 */
	/* the map: the flip already in the first record is not replayed */
	CHECK(m.flips[0].flags & FV_FLIP_BEFORE);
	fv_model_types_at(&m, 150, mt);
	CHECK(mt[0] == U && mt[1] == R);
	fv_model_types_at(&m, UINT64_MAX, mt);
	CHECK(mt[0] == M && mt[1] == R);
	/* gens 10..12 all seen, snapshots complete: nothing to report */
	CHECK_EQ(fv_model_issues(&m, &is), 0);
	CHECK_EQ(is.nr, 0);
	fv_issues_free(&is);
	fv_model_free(&m);

	/* the same records without gens: trace order is all there is */
	build_skewed(&m, false);
	CHECK_EQ(fv_model_check(&m, &c, mm), 0);
	CHECK_EQ(c.nr_mismatches, 1);
	CHECK_EQ(m.blocks[mm[0].block].pfn, 0x1200);
	fv_model_free(&m);
}

/*
 * A block straddling a zone boundary: one snapshot lists it in two
 * zones (DMA32 from its first pfn, Normal from the zone start inside
 * it).  That is reported, once, with both zones; a block listed in one
 * zone per snapshot, even a different one each time, is not.
 */
static void test_zone_straddle_issue(void)
{
	struct fv_model m;
	struct fv_issues is;
	char line[256];
	struct fv_event dma32 = gstate(101, 1, 0x1000, M, 10);

	dma32.state.zone = FV_ZONE_DMA32;
	fv_model_init(&m);
	feed(&m, dma32);
	feed(&m, gstate(102, 1, 0x1000, U, 4));
	feed(&m, gstate(103, 1, 0x1200, M, 4));
	fv_model_finish(&m);
	CHECK_EQ(fv_model_issues(&m, &is), 0);
	CHECK_EQ(is.nr, 1);
	CHECK_EQ(is.nr_kind[FV_ISSUE_STRADDLE], 1);
	fv_issue_text(&is.v[0], line, sizeof(line));
	CHECK(!strcmp(line, "zone boundary: snapshot 1 lists block 0x1000 in node 0 zone DMA32 and node 0 zone Normal (1 such block): its flips are numbered by either zone") ||
	      (fprintf(stderr, "  got: %s\n", line), 0));
	fv_issues_free(&is);
	fv_model_free(&m);

	/* the same block in DMA32, then in Normal in a later snapshot */
	fv_model_init(&m);
	feed(&m, dma32);
	feed(&m, gstate(200, 2, 0x1000, U, 4));
	fv_model_finish(&m);
	CHECK_EQ(fv_model_issues(&m, &is), 0);
	CHECK_EQ(is.nr_kind[FV_ISSUE_STRADDLE], 0);
	fv_issues_free(&is);
	fv_model_free(&m);
}

/* Snapshots 1 and 4 recorded, 2 and 3 lost whole: one issue, at 4's start. */
static void test_missing_snapshot_issue(void)
{
	struct fv_model m;
	struct fv_issues is;
	char line[256];

	fv_model_init(&m);
	feed(&m, gstate(100, 1, 0x1000, M, 0));
	feed(&m, gstate(400, 4, 0x1000, M, 0));
	feed(&m, gstate(500, 5, 0x1000, M, 0));
	fv_model_finish(&m);
	CHECK_EQ(fv_model_issues(&m, &is), 0);
	CHECK_EQ(is.nr, 1);
	CHECK_EQ(is.nr_kind[FV_ISSUE_SNAP_SEQ], 1);
	CHECK_EQ(is.v[0].count, 2);
	fv_issue_text(&is.v[0], line, sizeof(line));
	CHECK(!strcmp(line, "missing snapshot: seq 2-3 are not in the capture, before 0.000000400 s (its events were lost, or it was taken for another recording)") ||
	      (fprintf(stderr, "  got: %s\n", line), 0));
	fv_issues_free(&is);
	fv_model_free(&m);

	/* a capture may start at any seq: only holes between two count */
	fv_model_init(&m);
	feed(&m, gstate(100, 7, 0x1000, M, 0));
	feed(&m, gstate(200, 8, 0x1000, M, 0));
	fv_model_finish(&m);
	CHECK_EQ(fv_model_issues(&m, &is), 0);
	CHECK_EQ(is.nr, 0);
	fv_issues_free(&is);
	fv_model_free(&m);
}

/*
 * Gen gaps of a zone with a snapshot of gen 0 and flips with gens[]
 * (at 200, 300, ...), no snapshot events; line: the first gap's text.
 */
static size_t gen_gaps(const uint64_t *gens, size_t n, char *line)
{
	struct fv_model m;
	struct fv_issues is;
	size_t gaps;

	fv_model_init(&m);
	feed(&m, gstate(100, 1, 0x1000, M, 0));
	for (size_t k = 0; k < n; k++)
		feed(&m, gflip(200 + 100 * k, 0x1000, k % 2 ? U : M,
			       k % 2 ? M : U, gens[k]));
	fv_model_finish(&m);
	CHECK_EQ(fv_model_issues(&m, &is), 0);
	gaps = is.nr_kind[FV_ISSUE_GEN_GAP];
	line[0] = 0;
	if (is.nr)
		fv_issue_text(&is.v[0], line, 256);
	fv_issues_free(&is);
	fv_model_free(&m);
	return gaps;
}

/*
 * 20000 snapshot zones (seq, nid, zone), each with a begin, a state and
 * an end, interleaved so that the last entry is never the hit: each
 * event finds its zone through the index in a few slots.
 */
static void test_many_snapshot_zones(void)
{
	enum { NR = 20000 };
	struct fv_model m;
	struct fv_issues is;

	fv_model_init(&m);
	m.expect_snap_events = true;
	for (uint32_t k = 0; k < NR; k += 2) {
		for (int j = 0; j < 2; j++)
			feed(&m, ev_snap(k + 1, k + 1, j, FV_ZONE_NORMAL,
					 FV_SNAP_BEGIN, 1, 0));
		for (int j = 0; j < 2; j++) {
			struct fv_event e = gstate(k + 1, k + 1, 0x1000, M, 0);

			e.state.nid = j;
			feed(&m, e);
		}
		for (int j = 0; j < 2; j++)
			feed(&m, ev_snap(k + 1, k + 1, j, FV_ZONE_NORMAL,
					 FV_SNAP_END, 1, 0));
	}
	fv_model_finish(&m);
	CHECK_EQ(m.nr_snap_zones, NR);
	/* a scan would look at NR * NR / 2 rows */
	CHECK(m.snap_zone_index.probes <= 16 * NR);
	CHECK_EQ(fv_model_issues(&m, &is), 0);
	CHECK_EQ(is.nr_kind[FV_ISSUE_SNAPSHOT], 0);
	fv_issues_free(&is);
	fv_model_free(&m);
}

static void test_gen_gap_and_snapshot_issues(void)
{
	struct fv_model m;
	struct fv_issues is;
	char line[256];

	fv_model_init(&m);
	m.expect_snap_events = true;
	feed(&m, snap(100, 1, FV_SNAP_BEGIN, 2, 10));
	feed(&m, gstate(101, 1, 0x1000, M, 10));
	feed(&m, gstate(102, 1, 0x1200, M, 10));
	feed(&m, snap(103, 1, FV_SNAP_END, 2, 10));
	feed(&m, gflip(2000000000, 0x1000, M, U, 11));
	/* gens 12 and 13 lost */
	feed(&m, gflip(3000000000, 0x1200, M, U, 14));
	/* snapshot 2 lost a state and its end */
	feed(&m, snap(4000000000, 2, FV_SNAP_BEGIN, 2, 15));
	feed(&m, gstate(4000000001, 2, 0x1000, U, 15));
	fv_model_finish(&m);
	CHECK_EQ(fv_model_issues(&m, &is), 0);
	CHECK_EQ(is.nr, 3);
	CHECK_EQ(is.nr_kind[FV_ISSUE_GEN_GAP], 2);
	CHECK_EQ(is.nr_kind[FV_ISSUE_SNAPSHOT], 1);
	fv_issue_text(&is.v[0], line, sizeof(line));
	CHECK(!strcmp(line, "gen gap: node 0 zone Normal: 2 flips lost (gen 12-13) before 3.000000000 s"));
	fv_issue_text(&is.v[1], line, sizeof(line));
	CHECK(!strcmp(line, "incomplete snapshot: seq 2 node 0 zone Normal from 4.000000000 s: 1 of 2 pageblock_state events, no end event"));
	/* the begin of snapshot 2 says gen 15: the flip with gen 15 is lost */
	fv_issue_text(&is.v[2], line, sizeof(line));
	CHECK(!strcmp(line, "gen gap: node 0 zone Normal: 1 flip lost (gen 15) before 4.000000000 s") ||
	      (fprintf(stderr, "  got: %s\n", line), 0));
	fv_issues_free(&is);
	fv_model_free(&m);

	/* a zone whose first flip has gen 0: no gap before it or after */
	CHECK_EQ(gen_gaps((const uint64_t[]){ 0, 1, 2 }, 3, line), 0);
	/* and the gen after 0 missing is one gap, gen 1 */
	CHECK_EQ(gen_gaps((const uint64_t[]){ 0, 2 }, 2, line), 1);
	CHECK(!strcmp(line, "gen gap: node 0 zone Normal: 1 flip lost (gen 1) before 0.000000300 s") ||
	      (fprintf(stderr, "  got: %s\n", line), 0));

	/* states of a zone whose begin and end were both lost */
	fv_model_init(&m);
	m.expect_snap_events = true;
	feed(&m, state(100, 1, 0x1000, FV_ZONE_NORMAL, M));
	feed(&m, state(100, 1, 0x1200, FV_ZONE_NORMAL, M));
	fv_model_finish(&m);
	CHECK_EQ(fv_model_issues(&m, &is), 0);
	CHECK_EQ(is.nr, 1);
	fv_issue_text(&is.v[0], line, sizeof(line));
	CHECK(!strcmp(line, "incomplete snapshot: seq 1 node 0 zone Normal from 0.000000100 s: 2 pageblock_state events, no begin event, no end event"));
	fv_issues_free(&is);
	fv_model_free(&m);
	/* the same states in a v1 capture (no pageblock_snapshot format) */
	fv_model_init(&m);
	feed(&m, state(100, 1, 0x1000, FV_ZONE_NORMAL, M));
	fv_model_finish(&m);
	CHECK_EQ(fv_model_issues(&m, &is), 0);
	CHECK_EQ(is.nr, 0);
	fv_issues_free(&is);
	fv_model_free(&m);
}

static void test_lost_events(void)
{
	struct fv_model m;
	struct fv_issues is;
	struct fv_event e = { .ts = 5500000000ULL, .cpu = 1,
			      .kind = FV_EV_LOST };
	char line[256], sum[128];

	fv_model_init(&m);
	base4(&m);
	e.lost.count = 42;
	e.lost.prev_ts = 5000000000ULL;
	feed(&m, e);
	e.cpu = 0;
	e.lost.count = -1;
	e.lost.prev_ts = 0;
	e.ts = 6000000000ULL;
	feed(&m, e);
	fv_model_finish(&m);
	CHECK_EQ(fv_model_issues(&m, &is), 0);
	CHECK_EQ(is.nr, 2);
	fv_issue_text(&is.v[0], line, sizeof(line));
	CHECK(!strcmp(line, "lost events: CPU 1: the ring buffer dropped 42 events between 5.000000000 and 5.500000000 s"));
	fv_issue_text(&is.v[1], line, sizeof(line));
	CHECK(!strcmp(line, "lost events: CPU 0: the ring buffer dropped events (count unknown) before 6.000000000 s"));
	fv_issues_summary(&is, sum, sizeof(sum));
	CHECK(!strcmp(sum, "2 ring-buffer overruns"));
	fv_issues_free(&is);
	fv_model_free(&m);
}

/*
 * Memory offline takes a block off the map; online puts it in another
 * zone: a second entry for the pfn there, the first one stays in its
 * zone, off the map from the offline on.
 */
static void test_offline_online(void)
{
	struct fv_model m;
	struct fv_check c;
	struct fv_event off = gflip(200, 0x1200, FV_MT_ISOLATE, FV_MT_NONE, 11);
	struct fv_event on = gflip(300, 0x1200, FV_MT_NONE, FV_MT_ISOLATE, 3);
	struct fv_event un = gflip(310, 0x1200, FV_MT_ISOLATE, M, 4);
	uint8_t mt[5];

	fv_model_init(&m);
	for (int i = 0; i < 4; i++)
		feed(&m, gstate(100, 1, 0x1000 + i * 512, M, 9));
	feed(&m, gflip(150, 0x1200, M, FV_MT_ISOLATE, 10));
	off.flip.reason = FV_FLIP_OFFLINE;
	feed(&m, off);
	on.flip.reason = FV_FLIP_ONLINE;
	on.flip.zone = FV_ZONE_MOVABLE;
	feed(&m, on);
	un.flip.zone = FV_ZONE_MOVABLE;
	feed(&m, un);
	for (int i = 0; i < 4; i++) {
		struct fv_event e = gstate(400, 2, 0x1000 + i * 512, M,
					   i == 1 ? 4 : 11);

		if (i == 1)
			e.state.zone = FV_ZONE_MOVABLE;
		feed(&m, e);
	}
	fv_model_finish(&m);
	CHECK_EQ(m.nr_blocks, 5);
	CHECK_EQ(m.nr_zones, 2);
	CHECK_EQ(m.zones[0].nr, 4);
	CHECK_EQ(m.zones[1].zone, FV_ZONE_MOVABLE);
	CHECK_EQ(m.blocks[1].pfn, 0x1200);
	CHECK_EQ(m.blocks[4].pfn, 0x1200);
	CHECK_EQ(fv_model_find_block(&m, 0x1200), 4);	/* where it is now */
	fv_model_types_at(&m, 150, mt);
	CHECK(mt[1] == FV_MT_ISOLATE && mt[4] == FV_MT_NONE);
	fv_model_types_at(&m, 250, mt);
	CHECK(mt[1] == FV_MT_NONE && mt[4] == FV_MT_NONE);
	fv_model_types_at(&m, UINT64_MAX, mt);
	CHECK(mt[1] == FV_MT_NONE && mt[4] == M);
	CHECK_EQ(m.blocks[1].n.flips, 2);
	CHECK_EQ(m.blocks[4].n.flips, 2);
	/* the old entry is rightly not in the last snapshot */
	CHECK_EQ(fv_model_check(&m, &c, NULL), 0);
	CHECK_EQ(c.nr_compared, 4);
	CHECK_EQ(c.nr_mismatches, 0);
	CHECK_EQ(c.nr_missing, 0);
	CHECK_EQ(c.nr_flips, 2);
	CHECK(!strcmp(fv_mt_name(FV_MT_NONE), "none"));
	CHECK_EQ(fv_mt_parse("none"), FV_MT_NONE);
	CHECK_EQ(fv_flip_reason_parse("offline"), FV_FLIP_OFFLINE);
	fv_model_free(&m);
}

/*
 * Each failure once, by its folio's last attempt of the call: on the
 * block and in the chart; the attempts before it are retries.
 */
static void test_migrate_retries(void)
{
	struct retry_case cases[8];
	size_t n = retry_cases(cases);

	for (size_t i = 0; i < n; i++) {
		const struct retry_case *c = &cases[i];
		struct fv_bucket sum = { 0 };
		int failed_before = t_failed_now;	/* say which case fails */
		struct fv_model m;

		t_failed_now = 0;
		fv_model_init(&m);
		m.mig = c->form;
		feed(&m, state(1, 1, RETRY_BLOCK, FV_ZONE_NORMAL, M));
		for (size_t k = 0; k < c->nr; k++)
			retry_feed(&m, c, &c->ev[k]);
		fv_model_finish(&m);
		for (size_t b = 0; b < m.nr_buckets_used; b++) {
			sum.migrate_ok += m.buckets[b].migrate_ok;
			sum.migrate_fail += m.buckets[b].migrate_fail;
			sum.migrate_retry += m.buckets[b].migrate_retry;
		}
		/* the default form does not see which folio moved */
		CHECK_EQ(m.blocks[0].n.migrate_ok, c->form.folio ? c->ok : 0);
		CHECK_EQ(m.blocks[0].n.migrate_fail, c->failed);
		CHECK_EQ(m.blocks[0].n.migrate_retry, c->retried);
		CHECK_EQ(sum.migrate_ok, c->ok);
		CHECK_EQ(sum.migrate_fail, c->failed);
		CHECK_EQ(sum.migrate_retry, c->retried);
		if (t_failed_now)
			fprintf(stderr, "  (case: %s)\n", c->name);
		t_failed_now |= failed_before;
		fv_model_free(&m);
	}
}

/*
 * The chart counts a failure at its folio's last attempt, and the retry
 * where it was tried, also when the charts widened in between.
 */
static void test_migrate_retry_buckets(void)
{
	struct fv_model m;

	fv_model_init(&m);
	feed(&m, state(1000, 1, 0x1000, FV_ZONE_NORMAL, M));
	feed(&m, ev_migrate(1500, 0x1005, -11));
	/* 600 buckets of 1000 ns later: merged to 2000 ns each */
	feed(&m, ev_migrate(601000, 0x1005, -11));
	fv_model_finish(&m);
	CHECK_EQ(m.bucket_ns, 2000);
	CHECK_EQ(m.buckets[0].migrate_fail, 0);
	CHECK_EQ(m.buckets[0].migrate_retry, 1);
	CHECK_EQ(m.buckets[300].migrate_fail, 1);
	CHECK_EQ(m.buckets[300].migrate_retry, 0);
	fv_model_free(&m);
}

int main(void)
{
	RUN(test_types_at_exact);
	RUN(test_find_and_unknown_pfns);
	RUN(test_out_of_order);
	RUN(test_sorting_renumbers);
	RUN(test_hist_opt_in);
	RUN(test_declined_is_no_steal);
	RUN(test_declined_impossible);
	RUN(test_start_types);
	RUN(test_check_replay);
	RUN(test_check_clean_and_new_block);
	RUN(test_bucket_merging);
	RUN(test_many_blocks);
	RUN(test_names);
	RUN(test_names_per_kernel);
	RUN(test_merge_flip_replays);
	RUN(test_pageblock_order_inferred);
	RUN(test_gen_rule);
	RUN(test_gen_gap_and_snapshot_issues);
	RUN(test_many_snapshot_zones);
	RUN(test_zone_straddle_issue);
	RUN(test_missing_snapshot_issue);
	RUN(test_lost_events);
	RUN(test_offline_online);
	RUN(test_migrate_retries);
	RUN(test_migrate_retry_buckets);
	return TEST_EXIT();
}
