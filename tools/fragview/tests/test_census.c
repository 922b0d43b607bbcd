// SPDX-License-Identifier: GPL-2.0
/*
 * test_census.c - mobility:pageblock_census in the model (the latest
 * record at or before a time, block numbers after sorting) and the
 * pollution figures of census.c, against hand-worked values.
 */
#include <stdlib.h>
#include <string.h>

#include "../census.h"
#include "../model.h"
#include "builders.h"
#include "test.h"

#define U FV_MT_UNMOVABLE
#define M FV_MT_MOVABLE
#define R FV_MT_RECLAIMABLE
#define NORMAL FV_ZONE_NORMAL

static void test_mobility_of_counts_and_types(void)
{
	CHECK_EQ(fv_census_count_mobility(FV_CN_LRU), FV_MOB_MOVABLE);
	CHECK_EQ(fv_census_count_mobility(FV_CN_MOVABLE_OPS), FV_MOB_MOVABLE);
	CHECK_EQ(fv_census_count_mobility(FV_CN_SLAB_RECLAIMABLE),
		 FV_MOB_RECLAIMABLE);
	CHECK_EQ(fv_census_count_mobility(FV_CN_SLAB_UNMOVABLE), FV_MOB_UNMOVABLE);
	CHECK_EQ(fv_census_count_mobility(FV_CN_PGTABLE), FV_MOB_UNMOVABLE);
	CHECK_EQ(fv_census_count_mobility(FV_CN_KERNEL), FV_MOB_UNMOVABLE);
	CHECK_EQ(fv_census_count_mobility(FV_CN_FREE), FV_MOB_NONE);
	CHECK_EQ(fv_census_count_mobility(FV_CN_FREE_CHUNKS), FV_MOB_NONE);
	CHECK_EQ(fv_census_count_mobility(FV_CN_FREE_PCP), FV_MOB_NONE);
	CHECK_EQ(fv_census_count_mobility(FV_CN_RESERVED), FV_MOB_NONE);
	CHECK_EQ(fv_census_count_mobility(FV_CN_OFFLINE), FV_MOB_NONE);
	CHECK_EQ(fv_mt_mobility(FV_MT_MOVABLE), FV_MOB_MOVABLE);
	CHECK_EQ(fv_mt_mobility(FV_MT_CMA), FV_MOB_MOVABLE);
	CHECK_EQ(fv_mt_mobility(FV_MT_RECLAIMABLE), FV_MOB_RECLAIMABLE);
	CHECK_EQ(fv_mt_mobility(FV_MT_UNMOVABLE), FV_MOB_UNMOVABLE);
	CHECK_EQ(fv_mt_mobility(FV_MT_HIGHATOMIC), FV_MOB_UNMOVABLE);
	CHECK_EQ(fv_mt_mobility(FV_MT_ISOLATE), FV_MOB_NONE);
	CHECK_EQ(fv_mt_mobility(FV_MT_UNKNOWN), FV_MOB_NONE);
	CHECK_EQ(fv_mt_mobility(FV_MT_NONE), FV_MOB_NONE);
	CHECK(!strcmp(fv_census_count_name(FV_CN_SLAB_RECLAIMABLE),
		      "slab_reclaimable"));
	CHECK(!strcmp(fv_ev_kind_name(FV_EV_CENSUS), "census"));
}

static void test_foreign_pages(void)
{
	struct fv_event e = ev_census(1, 1, 0, NORMAL, 0x1000, M, 100);
	uint32_t pages[FV_MOB_NR];

	/* a Movable block: 3 kernel, 2 page-table, 4 reclaimable slab */
	e = census_move(e, FV_CN_LRU, FV_CN_KERNEL, 3);
	e = census_move(e, FV_CN_LRU, FV_CN_PGTABLE, 2);
	e = census_move(e, FV_CN_LRU, FV_CN_SLAB_RECLAIMABLE, 4);
	e = census_move(e, FV_CN_LRU, FV_CN_FREE_PCP, 6);	/* nobody's */
	e.census.n[FV_CN_FREE_CHUNKS] = 9;			/* not pages */
	fv_census_by_mobility(e.census.n, pages);
	CHECK_EQ(pages[FV_MOB_MOVABLE], 412 - 15);
	CHECK_EQ(pages[FV_MOB_RECLAIMABLE], 4);
	CHECK_EQ(pages[FV_MOB_UNMOVABLE], 5);
	CHECK_EQ(fv_census_pages(e.census.n), 512);
	CHECK_EQ(fv_census_foreign(e.census.n, M), 9);
	CHECK_EQ(fv_census_foreign(e.census.n, FV_MT_CMA), 9);
	/* the same pages in an Unmovable block: the LRU pages are foreign */
	CHECK_EQ(fv_census_foreign(e.census.n, U), 397 + 4);
	CHECK_EQ(fv_census_foreign(e.census.n, R), 397 + 5);
	/* an Isolate block is never polluted */
	CHECK_EQ(fv_census_foreign(e.census.n, FV_MT_ISOLATE), 0);
	/* a clean block */
	e = ev_census(1, 1, 0, NORMAL, 0x1000, M, 0);
	CHECK_EQ(fv_census_foreign(e.census.n, M), 0);
}

/*
 * Blocks at 0x1000 and 0x1200 (snapshot at t=10), censuses at t=20
 * (seq 1) and t=40 (seq 2), a census of a block no snapshot covered
 * (0x800, lower than the others: the sort renumbers it) at t=40.
 */
static void build(struct fv_model *m)
{
	fv_model_init(m);
	m->keep_steal_times = true;
	m->keep_space_times = true;
	feed(m, ev_state(10, 1, 0, NORMAL, 0x1000, M));
	feed(m, ev_state(10, 1, 0, NORMAL, 0x1200, U));
	feed(m, ev_census(20, 1, 0, NORMAL, 0x1000, M, 10));
	feed(m, ev_census(20, 1, 0, NORMAL, 0x1200, U, 20));
	feed(m, ev_steal(25, 0, NORMAL, 0x1200, U, U, false));
	feed(m, ev_steal(30, 0, NORMAL, 0x1200, U, U, false));
	feed(m, census_move(ev_census(40, 2, 0, NORMAL, 0x1000, M, 11),
			    FV_CN_LRU, FV_CN_SLAB_UNMOVABLE, 5));
	feed(m, ev_census(40, 2, 0, NORMAL, 0x1200, U, 21));
	feed(m, ev_census(40, 2, 0, NORMAL, 0x800, R, 512));
	feed(m, ev_steal(50, 0, NORMAL, 0x1200, U, U, false));
	fv_model_finish(m);
}

static void test_latest_census_at(void)
{
	struct fv_block_at at[3];
	struct fv_model m;
	long a, b, c;

	build(&m);
	CHECK_EQ(m.nr_blocks, 3);
	CHECK_EQ(m.nr_census, 5);
	CHECK_EQ(m.nr_censuses, 2);
	CHECK_EQ(m.nr_events[FV_EV_CENSUS], 5);
	a = fv_model_find_block(&m, 0x1000);
	b = fv_model_find_block(&m, 0x1200);
	c = fv_model_find_block(&m, 0x800);
	CHECK_EQ(c, 0);		/* sorted by pfn: the census-only block first */
	/* the census gave the new block its type */
	CHECK_EQ(m.blocks[c].mt, R);
	/* before the first census: nothing */
	fv_model_blocks_at(&m, 19, at);
	CHECK_EQ(at[a].census, -1);
	CHECK_EQ(at[a].state, 0);
	/* at and after the first: census 1, until the second */
	fv_model_blocks_at(&m, 20, at);
	CHECK(at[a].census >= 0 && m.census[at[a].census].seq == 1);
	CHECK_EQ(m.census[at[a].census].block, a);
	CHECK_EQ(m.census[at[a].census].n[FV_CN_FREE], 10);
	fv_model_blocks_at(&m, 39, at);
	CHECK(at[b].census >= 0 && m.census[at[b].census].seq == 1);
	CHECK_EQ(m.census[at[b].census].block, b);
	CHECK_EQ(at[c].census, -1);
	CHECK_EQ(at[b].steals, 2);
	fv_model_blocks_at(&m, 40, at);
	CHECK(at[a].census >= 0 && m.census[at[a].census].seq == 2);
	CHECK_EQ(fv_census_foreign(m.census[at[a].census].n, M), 5);
	CHECK(at[c].census >= 0 && m.census[at[c].census].block == (uint32_t)c);
	CHECK_EQ(at[b].steals, 2);
	fv_model_blocks_at(&m, UINT64_MAX, at);
	CHECK_EQ(at[b].steals, 3);
	CHECK_EQ(at[a].steals, 0);
	CHECK_EQ(m.states[at[b].state].block, b);
	fv_model_free(&m);
}

/* Without keep_steal_times (stats, check) no steal times are kept. */
static void test_steal_times_optional(void)
{
	struct fv_model m;

	fv_model_init(&m);
	feed(&m, ev_state(10, 1, 0, NORMAL, 0x1000, M));
	feed(&m, ev_steal(25, 0, NORMAL, 0x1000, U, M, false));
	fv_model_finish(&m);
	CHECK_EQ(m.nr_steal_recs, 0);
	CHECK_EQ(m.blocks[0].n.steals, 1);
	fv_model_free(&m);
}

/*
 * Without keep_space_times (stats, check, blame, a map of types) no
 * pageblock_state record is kept and a census run replaces the one
 * before it: memory does not grow with snapshots.
 */
static void test_space_times_optional(void)
{
	struct fv_model m;

	fv_model_init(&m);
	feed(&m, ev_state(10, 1, 0, NORMAL, 0x1000, M));
	feed(&m, ev_state(10, 1, 0, NORMAL, 0x1200, U));
	feed(&m, ev_census(20, 1, 0, NORMAL, 0x1000, M, 10));
	feed(&m, ev_census(20, 1, 0, NORMAL, 0x1200, U, 20));
	feed(&m, ev_state(30, 2, 0, NORMAL, 0x1000, M));
	feed(&m, ev_census(40, 2, 0, NORMAL, 0x1000, M, 11));
	fv_model_finish(&m);
	CHECK_EQ(m.nr_states, 0);
	CHECK_EQ(m.nr_census, 1);
	CHECK_EQ(m.census[0].seq, 2);
	CHECK_EQ(m.census[0].n[FV_CN_FREE], 11);
	CHECK_EQ(m.nr_censuses, 2);
	CHECK_EQ(m.nr_events[FV_EV_CENSUS], 3);
	CHECK_EQ(m.nr_snapshots, 2);
	fv_model_free(&m);
}

/*
 * Two zones, census 2 is the latest.  DMA32: a Movable block with 3
 * kernel pages, an Unmovable block with 12 LRU pages, an Isolate block
 * with 1 page-table page.  Normal: one clean Movable block, partly
 * outside the zone (256 pages).
 */
static void test_census_zones_fleet_figure(void)
{
	struct fv_census_zone *z;
	struct fv_model m;
	size_t nr;

	fv_model_init(&m);
	feed(&m, ev_census(5, 1, 0, NORMAL, 0x100000, U, 0));	/* old */
	feed(&m, census_move(ev_census(10, 2, 0, FV_ZONE_DMA32, 0x1000, M, 100),
			     FV_CN_LRU, FV_CN_KERNEL, 3));
	feed(&m, census_move(census_move(
		ev_census(11, 2, 0, FV_ZONE_DMA32, 0x1200, U, 0),
		FV_CN_LRU, FV_CN_SLAB_UNMOVABLE, 500),
		FV_CN_LRU, FV_CN_PGTABLE, 0));
	feed(&m, census_move(ev_census(12, 2, 0, FV_ZONE_DMA32, 0x1400,
				       FV_MT_ISOLATE, 0),
			     FV_CN_LRU, FV_CN_PGTABLE, 1));
	{
		struct fv_event e = ev_census(13, 2, 0, NORMAL, 0x100000, M, 6);

		e.census.n[FV_CN_LRU] = 250;
		feed(&m, e);
	}
	fv_model_finish(&m);
	nr = fv_census_zones(&m, &z);
	CHECK_EQ(nr, 2);
	if (nr != 2) {
		free(z);
		fv_model_free(&m);
		return;
	}
	CHECK_EQ(z[0].zone, FV_ZONE_DMA32);
	CHECK_EQ(z[0].seq, 2);
	CHECK_EQ(z[0].ts, 10);
	CHECK_EQ(z[0].blocks, 3);
	CHECK_EQ(z[0].pages, 3 * 512);
	CHECK_EQ(z[0].by_mobility[FV_MOB_UNMOVABLE], 3 + 500 + 1);
	CHECK_EQ(z[0].by_mobility[FV_MOB_MOVABLE], 409 + 12 + 511);
	CHECK_EQ(z[0].polluted[M], 1);
	CHECK_EQ(z[0].foreign[M][FV_MOB_UNMOVABLE], 3);
	CHECK_EQ(z[0].polluted[U], 1);
	CHECK_EQ(z[0].foreign[U][FV_MOB_MOVABLE], 12);
	CHECK_EQ(z[0].polluted[FV_MT_ISOLATE], 0);
	CHECK_EQ(z[0].blocks_of[FV_MT_ISOLATE], 1);
	CHECK_EQ(z[0].unmovable_blocks, 3);
	/* 504 of 1536 pages = 328.1 permille; 3 of 3 blocks */
	CHECK_EQ(fv_census_unmovable_pages_permille(&z[0]), 328);
	CHECK_EQ(fv_census_unmovable_blocks_permille(&z[0]), 1000);
	/* Normal: census 1's Unmovable record is not the latest */
	CHECK_EQ(z[1].zone, NORMAL);
	CHECK_EQ(z[1].blocks, 1);
	CHECK_EQ(z[1].pages, 256);
	CHECK_EQ(z[1].polluted[M], 0);
	CHECK_EQ(z[1].blocks_of[U], 0);
	CHECK_EQ(fv_census_unmovable_pages_permille(&z[1]), 0);
	CHECK_EQ(fv_census_unmovable_blocks_permille(&z[1]), 0);
	free(z);
	fv_model_free(&m);
}

static void test_no_census(void)
{
	struct fv_census_zone *z = (void *)1;
	struct fv_model m;

	fv_model_init(&m);
	feed(&m, ev_state(10, 1, 0, NORMAL, 0x1000, M));
	fv_model_finish(&m);
	CHECK_EQ(fv_census_zones(&m, &z), 0);
	CHECK(z == NULL);
	fv_model_free(&m);
}

int main(void)
{
	RUN(test_mobility_of_counts_and_types);
	RUN(test_foreign_pages);
	RUN(test_latest_census_at);
	RUN(test_steal_times_optional);
	RUN(test_space_times_optional);
	RUN(test_census_zones_fleet_figure);
	RUN(test_no_census);
	printf("%d passed, %d failed\n", t_pass, t_fail);
	return TEST_EXIT();
}
