// SPDX-License-Identifier: GPL-2.0
/*
 * test_blame_tally.c - the counts stats ranks its polluters from
 * (blame_tally.c) against the records fragview blame ranks.
 */
#include <stdlib.h>
#include <string.h>

#include "builders.h"
#include "test.h"
#include "../blame.h"
#include "../blame_tally.h"

static struct fv_event steal_by(uint64_t ts, int cpu, int pid, uint64_t block,
				uint8_t alloc_mt, bool claimed)
{
	struct fv_event ev = ev_steal(ts, 0, 0, block, alloc_mt, FV_MT_MOVABLE,
				      claimed);

	ev.cpu = cpu;
	ev.steal.pid = pid;
	return ev;
}

static struct fv_event stack_of(int cpu, uint32_t id, uint64_t of_ts,
				uint8_t of_kind)
{
	return (struct fv_event){ .ts = of_ts, .cpu = cpu, .kind = FV_EV_STACK,
				  .stack = { .of_ts = of_ts, .id = id,
					     .of_kind = of_kind } };
}

/* A tallied blame of ev[0..n) (not finished: the stacks may follow). */
static void tally_of(struct fv_blame *b, const struct fv_event *ev, size_t n)
{
	fv_blame_init_tallied(b);
	for (size_t i = 0; i < n; i++)
		fv_blame_apply(b, &ev[i]);
}

/* The group of key, or NULL. */
static const struct fv_blame_group *group(const struct fv_blame_group *g,
					  size_t n, int64_t key)
{
	for (size_t i = 0; i < n; i++)
		if (g[i].key == key)
			return &g[i];
	return NULL;
}

static const char site_a[] = "__alloc_pages+0x1\npipe_write+0x2\n";
static const char site_b[] = "__alloc_pages+0x1\nfoo_alloc+0x2\n";

static void test_tally_counts(void)
{
	const uint8_t U = FV_MT_UNMOVABLE, M = FV_MT_MOVABLE;
	struct fv_event ev[] = {
		/* pid 100 pollutes 0x200 twice, 0x400 once: 2 blocks */
		steal_by(10, 0, 100, 0x200, U, false),
		stack_of(0, 0, 10, FV_EV_STEAL),
		steal_by(20, 0, 100, 0x200, U, false),
		stack_of(0, 2, 20, FV_EV_STEAL),
		steal_by(30, 1, 100, 0x400, U, false),
		stack_of(1, 2, 30, FV_EV_STEAL),
		/* ... claims 0x600 twice: 1 block; a steal of its own type */
		steal_by(40, 1, 100, 0x600, U, true),
		steal_by(50, 1, 100, 0x600, U, true),
		steal_by(60, 1, 100, 0x800, M, false),
		/* pid 200: a steal with a stack never defined, a flip */
		steal_by(70, 0, 200, 0x200, U, false),
		stack_of(0, 7, 70, FV_EV_STEAL),
		ev_flip(80, 0, 0, 0xa00, M, U, 0),
	};
	struct fv_blame_group *g;
	const struct fv_blame_group *x;
	struct fv_blame b;
	size_t n;

	ev[11].flip.pid = 200;
	tally_of(&b, ev, sizeof(ev) / sizeof(ev[0]));
	fv_blame_add_stack(&b, 0, site_a);
	fv_blame_add_stack(&b, 2, site_a);	/* another stack, same site */
	fv_blame_finish(&b, 9);
	CHECK_EQ(b.nr_recs, 0);			/* no records kept */
	CHECK_EQ(b.nr_steals, 7);
	CHECK_EQ(b.nr_flips, 1);
	CHECK_EQ(b.nr_with_stack, 3);		/* #7 was never defined */

	n = fv_blame_rank(&b, FV_BLAME_BY_TASK, &g);
	CHECK_EQ(n, 2);
	CHECK_EQ(g[0].key, 100);
	CHECK_EQ(g[0].steals, 6);
	CHECK_EQ(g[0].polluted, 2);		/* 0x200 twice, 0x400 */
	CHECK_EQ(g[0].claimed, 1);		/* 0x600 twice */
	CHECK_EQ(g[0].flips, 0);
	CHECK_EQ(g[0].events, 6);
	CHECK_EQ(g[1].key, 200);
	CHECK_EQ(g[1].polluted, 1);		/* 0x200: its own count */
	CHECK_EQ(g[1].flips, 1);
	CHECK_EQ(g[1].events, 2);
	free(g);

	n = fv_blame_rank(&b, FV_BLAME_BY_SITE, &g);
	CHECK_EQ(n, 2);
	x = group(g, n, 0);			/* pipe_write: stacks #0, #2 */
	CHECK(x != NULL);
	if (x) {
		CHECK_EQ(x->steals, 3);
		CHECK_EQ(x->polluted, 2);	/* 0x200 of both stacks once */
	}
	x = group(g, n, -1);			/* no stack, or #7 */
	CHECK(x != NULL);
	if (x) {
		CHECK_EQ(x->steals, 4);
		CHECK_EQ(x->polluted, 1);
		CHECK_EQ(x->claimed, 1);
		CHECK_EQ(x->flips, 1);
	}
	CHECK_EQ(g[0].key, -1);			/* more steals */
	free(g);
	fv_blame_free(&b);
}

/*
 * An extfrag's pfn counts as its block, of the order known at the end; a
 * steal's block_pfn is its block as it is.
 */
static void test_tally_extfrag(void)
{
	const uint64_t pfn[] = { 0x2345, 0x2201, 0x2001 };
	struct fv_blame_group *g;
	struct fv_blame b;

	for (unsigned int order = 9; order <= 10; order++) {
		fv_blame_init_tallied(&b);
		for (size_t i = 0; i < 3; i++) {
			struct fv_event ev = steal_by(i, 0, 5, 0, FV_MT_UNMOVABLE,
						      false);

			ev.kind = FV_EV_EXTFRAG;
			ev.steal.pfn = pfn[i];
			fv_blame_apply(&b, &ev);
		}
		fv_blame_finish(&b, order);
		CHECK_EQ(b.nr_extfrag, 3);
		CHECK_EQ(fv_blame_rank(&b, FV_BLAME_BY_TASK, &g), 1);
		/* 0x2200, 0x2000 at order 9; 0x2000 at order 10 */
		CHECK_EQ(g[0].polluted, order == 9 ? 2 : 1);
		free(g);
		fv_blame_free(&b);

		/* and a steal of 0x2200 after them: 0x2200 at both orders */
		fv_blame_init_tallied(&b);
		for (size_t i = 0; i < 4; i++) {
			struct fv_event ev = steal_by(i, 0, 5, 0x2200,
						      FV_MT_UNMOVABLE, false);

			if (i < 3) {
				ev.kind = FV_EV_EXTFRAG;
				ev.steal.pfn = pfn[i];
			}
			fv_blame_apply(&b, &ev);
		}
		fv_blame_finish(&b, order);
		CHECK_EQ(fv_blame_rank(&b, FV_BLAME_BY_TASK, &g), 1);
		CHECK_EQ(g[0].polluted, 2);
		free(g);
		fv_blame_free(&b);
	}
}

/* Equal steals: more blocks polluted first, then claimed, flips, key. */
static void test_tally_ties(void)
{
	const uint8_t U = FV_MT_UNMOVABLE;
	struct fv_event ev[] = {
		steal_by(1, 0, 40, 0x200, U, false),	/* 1 polluted */
		steal_by(2, 0, 40, 0x200, U, false),
		steal_by(3, 0, 30, 0x200, U, false),	/* 2 polluted */
		steal_by(4, 0, 30, 0x400, U, false),
		steal_by(5, 0, 20, 0x200, U, true),	/* 1 claimed */
		steal_by(6, 0, 20, 0x200, U, false),
		steal_by(7, 0, 10, 0x200, U, true),	/* the same as 20 */
		steal_by(8, 0, 10, 0x200, U, false),
		steal_by(9, 0, 50, 0x200, U, false),	/* a flip more */
		steal_by(10, 0, 50, 0x200, U, false),
		ev_flip(11, 0, 0, 0x200, U, FV_MT_MOVABLE, 0),
	};
	const int64_t want[] = { 30, 10, 20, 50, 40 };
	struct fv_blame_group *g;
	struct fv_blame b;
	size_t n;

	ev[10].flip.pid = 50;
	tally_of(&b, ev, sizeof(ev) / sizeof(ev[0]));
	fv_blame_finish(&b, 9);
	n = fv_blame_rank(&b, FV_BLAME_BY_TASK, &g);
	CHECK_EQ(n, 5);
	for (size_t i = 0; i < n && i < 5; i++)
		CHECK_EQ(g[i].key, want[i]);
	free(g);
	fv_blame_free(&b);
}

/* A random stream of steals, extfrags, flips and stacks on a few CPUs. */
static void random_stream(unsigned int seed, struct fv_blame *a,
			  struct fv_blame *b)
{
	struct fv_event last[4];
	bool have[4] = { false };

	srand(seed);
	for (uint64_t ts = 1; ts < 400; ts++) {
		int cpu = rand() % 4, r = rand() % 8;
		struct fv_event ev;

		if (r < 2 && have[cpu]) {
			/* its CPU's last event's stack, or another's */
			ev = stack_of(cpu, rand() % 6, last[cpu].ts - (r & 1),
				      last[cpu].kind);
		} else if (r == 2) {
			ev = ev_flip(ts, 0, 0, (rand() % 8) << 9, rand() % 3,
				     rand() % 3, 0);
			ev.flip.pid = rand() % 5;
		} else {
			ev = steal_by(ts, cpu, rand() % 5, (rand() % 8) << 9,
				      rand() % 3, rand() % 4 == 0);
			ev.steal.block_mt = rand() % 3;
			if (seed % 3 == 0 && rand() % 2) {
				ev.kind = FV_EV_EXTFRAG;
				ev.steal.pfn = rand() % (1 << 13);
			}
		}
		ev.cpu = rand() % 16 ? cpu : -1;	/* now and then none */
		if (ev.kind != FV_EV_STACK && ev.cpu >= 0) {
			last[cpu] = ev;
			have[cpu] = true;
		}
		fv_blame_apply(a, &ev);
		fv_blame_apply(b, &ev);
	}
	for (uint32_t id = 0; id < 5; id++) {	/* #5 never defined */
		fv_blame_add_stack(a, id, id % 2 ? site_a : site_b);
		fv_blame_add_stack(b, id, id % 2 ? site_a : site_b);
	}
	fv_blame_finish(a, 9 + seed % 3);
	fv_blame_finish(b, 9 + seed % 3);
}

/* The tally ranks every stream as the records rank it. */
static void test_tally_as_records(void)
{
	int differ = 0;

	for (unsigned int seed = 0; seed < 300; seed++) {
		struct fv_blame recs, tally;

		fv_blame_init(&recs);
		fv_blame_init_tallied(&tally);
		random_stream(seed, &recs, &tally);
		differ += recs.nr_with_stack != tally.nr_with_stack ||
			  recs.nr_steals != tally.nr_steals ||
			  recs.nr_flips != tally.nr_flips;
		for (int by = 0; by < 3; by++) {
			struct fv_blame_group *g, *h;
			size_t n = fv_blame_rank(&recs, by, &g);

			differ += fv_blame_rank(&tally, by, &h) != n;
			for (size_t i = 0; i < n && !differ; i++)
				differ += g[i].key != h[i].key ||
					  g[i].steals != h[i].steals ||
					  g[i].polluted != h[i].polluted ||
					  g[i].claimed != h[i].claimed ||
					  g[i].flips != h[i].flips ||
					  g[i].events != h[i].events;
			free(g);
			free(h);
		}
		fv_blame_free(&recs);
		fv_blame_free(&tally);
		if (differ) {
			fprintf(stderr, "  seed %u: the rankings differ\n", seed);
			break;
		}
	}
	CHECK_EQ(differ, 0);
}

int main(void)
{
	RUN(test_tally_counts);
	RUN(test_tally_extfrag);
	RUN(test_tally_ties);
	RUN(test_tally_as_records);
	return TEST_EXIT();
}
