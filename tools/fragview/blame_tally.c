// SPDX-License-Identifier: GPL-2.0
/* blame_tally.c - the counts of a blame ranking, added up as they come. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "blame_tally.h"
#include "util.h"

/*
 * What an entry counts for its task or stack: its steals or flips (n of
 * them), or one block it polluted or claimed, which a later steal of the
 * same block finds there.  The ranking sorts its entries in this order.
 */
enum count { C_STEALS, C_FLIPS, C_POLLUTED, C_CLAIMED };

struct entry {
	uint64_t block;		/* polluted, claimed: the block */
	uint64_t n;		/* steals, flips: how many */
	int32_t id;		/* pid, or stack id */
	uint8_t count;		/* enum count */
	bool extfrag;		/* block: an extfrag pfn's (EXTFRAG_ORDER) */
	bool used;
};

/* The entries of one axis: open addressing, at most half full. */
struct table {
	struct entry *e;
	size_t cap, nr;
};

struct fv_tally {
	struct table by_pid, by_stack;
};

struct fv_tally *fv_tally_new(void)
{
	return xcalloc(1, sizeof(struct fv_tally));
}

void fv_tally_free(struct fv_tally *t)
{
	if (!t)
		return;
	free(t->by_pid.e);
	free(t->by_stack.e);
	free(t);
}

/* splitmix64's finalizer: pfns are multiples of 512, ids small */
static uint64_t mix(uint64_t x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ULL;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebULL;
	return x ^ x >> 31;
}

static size_t slot_of(const struct entry *k, size_t cap)
{
	uint64_t what = (uint64_t)(uint32_t)k->id << 3 | k->count << 1 |
			k->extfrag;

	return mix(k->block ^ mix(what)) & (cap - 1);
}

static bool same(const struct entry *a, const struct entry *b)
{
	return a->block == b->block && a->id == b->id &&
	       a->count == b->count && a->extfrag == b->extfrag;
}

static struct entry *find(struct table *t, const struct entry *k)
{
	size_t i = slot_of(k, t->cap);

	while (t->e[i].used && !same(&t->e[i], k))
		i = (i + 1) & (t->cap - 1);
	return &t->e[i];
}

static void grow(struct table *t)
{
	struct table bigger = { .cap = t->cap ? 2 * t->cap : 256 };

	bigger.e = xcalloc(bigger.cap, sizeof(*bigger.e));
	for (size_t i = 0; i < t->cap; i++)
		if (t->e[i].used)
			*find(&bigger, &t->e[i]) = t->e[i];
	bigger.nr = t->nr;
	free(t->e);
	*t = bigger;
}

/* The entry of k, a new one (n 0) the first time. */
static struct entry *get(struct table *t, const struct entry *k)
{
	struct entry *e;

	if (2 * (t->nr + 1) > t->cap)
		grow(t);
	e = find(t, k);
	if (!e->used) {
		*e = *k;
		e->used = true;
		t->nr++;
	}
	return e;
}

void fv_tally_add(struct fv_tally *t, const struct fv_blame_rec *r)
{
	enum fv_blame_what w = fv_blame_what(r);
	struct table *axis[] = { &t->by_pid, &t->by_stack };
	const int32_t id[] = { r->pid, r->stack };
	const uint64_t mask = ~((1ULL << FV_TALLY_EXTFRAG_ORDER) - 1);

	for (int i = 0; i < 2; i++) {
		struct entry k = {
			.id = id[i],
			.count = w == FV_BLAME_FLIPPED ? C_FLIPS : C_STEALS,
		};

		get(axis[i], &k)->n++;
		if (w != FV_BLAME_POLLUTED && w != FV_BLAME_CLAIMED)
			continue;
		k.count = w == FV_BLAME_POLLUTED ? C_POLLUTED : C_CLAIMED;
		k.extfrag = r->kind == FV_EV_EXTFRAG;
		k.block = k.extfrag ? r->block & mask : r->block;
		get(axis[i], &k);
	}
}

/* ---- ranking ---- */

struct item {
	int64_t key;
	uint64_t block, n;
	uint8_t count;
};

static int cmp_item(const void *x, const void *y)
{
	const struct item *a = x, *b = y;

	if (a->key != b->key)
		return a->key < b->key ? -1 : 1;
	if (a->count != b->count)
		return a->count < b->count ? -1 : 1;
	return a->block < b->block ? -1 : a->block > b->block;
}

/* A group of it[0..n), one key: its blocks once each, as fill_group() */
static void fill_group(struct fv_blame_group *g, const struct item *it,
		       size_t n)
{
	memset(g, 0, sizeof(*g));
	g->key = it[0].key;
	g->top_pid = -1;
	g->top_stack = -1;
	for (size_t i = 0; i < n; i++) {
		bool first = !i || it[i].count != it[i - 1].count ||
			     it[i].block != it[i - 1].block;

		g->steals += it[i].count == C_STEALS ? it[i].n : 0;
		g->flips += it[i].count == C_FLIPS ? it[i].n : 0;
		g->polluted += it[i].count == C_POLLUTED && first;
		g->claimed += it[i].count == C_CLAIMED && first;
	}
	g->events = g->steals + g->flips;
}

size_t fv_tally_rank(const struct fv_tally *t, enum fv_blame_by by,
		     int64_t (*key)(int64_t id, void *ctx), void *ctx,
		     unsigned int pageblock_order, struct fv_blame_group **out)
{
	const struct table *tb = by == FV_BLAME_BY_TASK ? &t->by_pid :
							  &t->by_stack;
	struct item *it = xmalloc((tb->nr + 1) * sizeof(*it));
	struct fv_blame_group *g;
	size_t n = 0, nr = 0;
	uint64_t mask;

	if (pageblock_order < FV_TALLY_EXTFRAG_ORDER)
		pageblock_order = FV_TALLY_EXTFRAG_ORDER;
	mask = ~((1ULL << pageblock_order) - 1);
	for (size_t i = 0; i < tb->cap; i++) {
		const struct entry *e = &tb->e[i];

		if (!e->used)
			continue;
		it[n++] = (struct item){
			.key = key(e->id, ctx), .n = e->n, .count = e->count,
			.block = e->extfrag ? e->block & mask : e->block,
		};
	}
	qsort(it, n, sizeof(*it), cmp_item);
	g = xmalloc((n + 1) * sizeof(*g));
	for (size_t i = 0, j; i < n; i = j) {
		for (j = i; j < n && it[j].key == it[i].key; j++)
			;
		fill_group(&g[nr++], it + i, j - i);
	}
	g = xrealloc(g, (nr + 1) * sizeof(*g));
	qsort(g, nr, sizeof(*g), fv_blame_group_cmp);
	free(it);
	*out = g;
	return nr;
}
