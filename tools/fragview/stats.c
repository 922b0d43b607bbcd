// SPDX-License-Identifier: GPL-2.0
/*
 * stats.c - statistics aggregated from the event stream (pure).  Out of
 * memory is fatal (xmalloc(), util.h): a count is never dropped quietly.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "migform.h"
#include "stats.h"
#include "util.h"

struct fv_stats *fv_stats_new(void)
{
	return xcalloc(1, sizeof(struct fv_stats));
}

void fv_stats_free(struct fv_stats *s)
{
	if (!s)
		return;
	free(s->steals);
	free(s->flips);
	free(s->drains);
	free(s->migrations);
	free(s->passes);
	free(s->zones);
	free(s->census);
	free(s->steal_index);
	fv_rowidx_free(&s->drain_index);
	fv_migcall_free(&s->calls);
	free(s);
}

static unsigned int clamp(unsigned int v, unsigned int nr)
{
	return v < nr ? v : nr - 1;
}

static void count_result(struct fv_stats *s, int32_t result)
{
	for (size_t i = 0; i < s->nr_results; i++) {
		if (s->results[i].result == result) {
			s->results[i].count++;
			return;
		}
	}
	if (s->nr_results == FV_NR_RESULTS) {
		s->results_other++;
		return;
	}
	s->results[s->nr_results++] = (struct fv_result_row){ result, 1 };
}

const char *fv_drain_list_name(unsigned int list)
{
	return list < FV_DRAIN_LISTS - 1 ? fv_mt_name(list) : "high_order";
}

static uint64_t drain_hash(const void *row)
{
	return (uint32_t)((const struct fv_drain_row *)row)->cpu;
}

static bool drain_same(const void *row, const void *key_row)
{
	return ((const struct fv_drain_row *)row)->cpu ==
	       ((const struct fv_drain_row *)key_row)->cpu;
}

static const struct fv_rowidx_ops drain_ops = {
	.size = sizeof(struct fv_drain_row),
	.hash = drain_hash, .same = drain_same,
};

static void count_drain(struct fv_stats *s, const struct fv_event *ev)
{
	unsigned int reason = clamp(ev->drain.reason, FV_DRAIN_NR);
	struct fv_drain_row key = { .cpu = ev->cpu }, *row;
	long r = fv_rowidx_find(&s->drain_index, s->drains, &key, &drain_ops);

	if (r < 0) {
		if (s->nr_drain_rows == s->drain_rows_cap) {
			s->drain_rows_cap = s->drain_rows_cap ?
					    s->drain_rows_cap * 2 : 16;
			s->drains = xrealloc(s->drains, s->drain_rows_cap *
							sizeof(*s->drains));
		}
		r = s->nr_drain_rows++;
		s->drains[r] = key;
		fv_rowidx_add(&s->drain_index, s->drains, s->nr_drain_rows,
			      &drain_ops);
	}
	row = &s->drains[r];
	row->drains[reason]++;
	row->pages[reason] += ev->drain.total;
	for (int t = 0; t < FV_DRAIN_LISTS; t++)
		row->by_type[t] += ev->drain.nr[t];
	s->nr_drains++;
	s->nr_drained_pages += ev->drain.total;
}

static uint32_t steal_key(const struct fv_steal_row *r)
{
	return (((r->alloc_mt * FV_MT_NR + r->block_mt) * 2 + r->claimed) *
		FV_STAT_ORDERS + r->order) * FV_STAT_ORDERS + r->fallback_order;
}

static size_t steal_slot(const struct fv_stats *s, uint32_t key)
{
	size_t i = (key * 2654435761u) & (s->steal_index_cap - 1);

	while (s->steal_index[i] &&
	       steal_key(&s->steals[s->steal_index[i] - 1]) != key)
		i = (i + 1) & (s->steal_index_cap - 1);
	return i;
}

static void steal_grow(struct fv_stats *s)
{
	size_t cap = s->steal_index_cap ? s->steal_index_cap * 2 : 64;

	while (cap / 2 < s->nr_steal_rows + 1)
		cap *= 2;
	s->steals = xrealloc(s->steals, cap / 2 * sizeof(*s->steals));
	s->steal_rows_cap = cap / 2;
	free(s->steal_index);
	s->steal_index = xcalloc(cap, sizeof(*s->steal_index));
	s->steal_index_cap = cap;
	for (size_t r = 0; r < s->nr_steal_rows; r++)
		s->steal_index[steal_slot(s, steal_key(&s->steals[r]))] = r + 1;
}

static void count_steal(struct fv_stats *s, const struct fv_event *ev)
{
	struct fv_steal_row row = {
		.alloc_mt = clamp(ev->steal.alloc_mt, FV_MT_NR),
		.block_mt = clamp(ev->steal.block_mt, FV_MT_NR),
		.claimed = ev->steal.claimed,
		.order = clamp(ev->steal.order, FV_STAT_ORDERS),
		.fallback_order = clamp(ev->steal.fallback_order, FV_STAT_ORDERS),
	};
	uint32_t key = steal_key(&row);
	size_t slot;

	if (s->nr_steal_rows + 1 > s->steal_rows_cap)
		steal_grow(s);
	slot = steal_slot(s, key);
	if (!s->steal_index[slot]) {
		s->steals[s->nr_steal_rows] = row;
		s->steal_index[slot] = ++s->nr_steal_rows;
	}
	s->steals[s->steal_index[slot] - 1].count++;
}

static void count_pass(struct fv_stats *s, const struct fv_event *ev)
{
	struct fv_mpass_row *r = &s->pass_tab[clamp(ev->mpass.reason, FV_MR_NR)]
					      [clamp(ev->mpass.mode, FV_MODE_NR)]
					      [clamp(ev->mpass.stage, FV_STAGE_NR)];

	r->passes++;
	r->retries += ev->mpass.pass > 0;
	r->succeeded += ev->mpass.nr_succeeded;
	r->failed += ev->mpass.nr_failed;
	r->retried += ev->mpass.nr_retry;
	s->nr_passes++;
	s->nr_retry_passes += ev->mpass.pass > 0;
	s->nr_retried_pages += ev->mpass.nr_retry;
}

/* ok and failed of a row: attempts per folio, pages per call or pass */
static void count_mig(struct fv_stats *s, enum fv_mig_source src,
		      unsigned int reason, unsigned int mode, uint64_t ok,
		      uint64_t failed)
{
	reason = clamp(reason, FV_MR_NR);
	mode = clamp(mode, FV_MODE_NR);
	s->mig_ok[src][reason][mode] += ok;
	s->mig_fail[src][reason][mode] += failed;
	s->nr_migrate_ok += ok;
	s->nr_migrate_fail += failed;
}

/* A mig_fail cell, as a migcall cookie: source, reason, mode. */
static uint64_t fail_cell(enum fv_mig_source src, unsigned int reason,
			  unsigned int mode)
{
	return (uint64_t)src << 16 | clamp(reason, FV_MR_NR) << 8 |
	       clamp(mode, FV_MODE_NR);
}

/*
 * One attempt of a folio, per folio source: a failure counts as final
 * until the folio's next attempt in its call makes it a retry, in the
 * cell (mode included: 6.12's async round) where it was counted.
 */
static void count_attempt(struct fv_stats *s, enum fv_mig_source src,
			  const struct fv_event *ev)
{
	bool bad = fv_mig_failed(ev);
	uint64_t cell = fail_cell(src, ev->migrate.reason, ev->migrate.mode);
	uint64_t retried;

	if (fv_migcall_attempt(&s->calls, ev, cell, &retried)) {
		unsigned int k = retried >> 16, r = retried >> 8 & 0xff;
		unsigned int m = retried & 0xff;

		s->mig_fail[k][r][m]--;
		s->mig_retry[k][r][m]++;
		s->nr_migrate_fail--;
		s->nr_migrate_retry++;
	}
	count_mig(s, src, ev->migrate.reason, ev->migrate.mode, !bad, bad);
	count_result(s, ev->migrate.result);
}

void fv_stats_end_migrate_call(struct fv_stats *s, int32_t pid)
{
	fv_migcall_end(&s->calls, pid);
}

/* As the capture's form says (migform.h): never one failure twice. */
static void count_migration(struct fv_stats *s, const struct fv_event *ev)
{
	enum fv_mig_role role = fv_mig_role(&s->mig, ev);
	bool pass = ev->kind == FV_EV_MIGRATE_PASS;
	enum fv_mig_source src;
	uint64_t ok, failed;

	if (pass)
		count_pass(s, ev);
	if (ev->kind == FV_EV_MIGRATE_SUM)
		fv_stats_end_migrate_call(s, ev->msum.pid);
	switch (role) {
	case FV_MIG_ATTEMPT:
		src = ev->kind == FV_EV_MIGRATE ? FV_MSRC_FOLIO : FV_MSRC_FAILED;
		count_attempt(s, src, ev);
		break;
	case FV_MIG_TOTALS:
	case FV_MIG_OK_TOTALS:
		fv_mig_pages(ev, &ok, &failed);
		if (role == FV_MIG_OK_TOTALS) {
			/* the rows of migrate_folio_failed's failures */
			src = FV_MSRC_FAILED;
			failed = 0;
		} else {
			src = pass ? FV_MSRC_PASSES : FV_MSRC_CALLS;
		}
		count_mig(s, src, pass ? ev->mpass.reason : ev->msum.reason,
			  pass ? ev->mpass.mode : ev->msum.mode, ok, failed);
		break;
	default:
		break;
	}
}

void fv_stats_apply(struct fv_stats *s, const struct fv_event *ev)
{
	switch (ev->kind) {
	case FV_EV_STEAL:
	case FV_EV_EXTFRAG:
		if (fv_ev_is_declined(ev)) {
			s->declined_tab[clamp(ev->steal.alloc_mt, FV_MT_NR)]
				       [clamp(ev->steal.block_mt, FV_MT_NR)]++;
			s->nr_declined++;
			break;
		}
		count_steal(s, ev);
		s->nr_steals++;
		s->nr_claimed += ev->steal.claimed;
		s->nr_extfrag += ev->kind == FV_EV_EXTFRAG;
		break;
	case FV_EV_FLIP:
		s->flip_tab[clamp(ev->flip.old_mt, FV_MT_NR)]
			   [clamp(ev->flip.new_mt, FV_MT_NR)]
			   [clamp(ev->flip.reason, FV_FLIP_NR)]++;
		s->nr_flips++;
		break;
	case FV_EV_DRAIN:
		count_drain(s, ev);
		break;
	case FV_EV_MIGRATE:
	case FV_EV_MIGRATE_FAILED:
	case FV_EV_MIGRATE_SUM:
	case FV_EV_MIGRATE_PASS:
		count_migration(s, ev);
		break;
	default:
		break;
	}
}

void fv_frag_add_block(struct fv_frag *f, uint32_t free_pages,
		       int largest_order, unsigned int pageblock_order)
{
	uint64_t rem = free_pages, chunk;
	int top;

	if (!free_pages || largest_order < 0)
		return;
	top = largest_order < FV_MAX_ORDER ? largest_order : FV_MAX_ORDER - 1;
	/* fewer pages than the largest order claims: trust the page count */
	while (top > 0 && top <= (int)pageblock_order && (1ULL << top) > rem)
		top--;
	/* a block above pageblock_order spans blocks: each adds its share */
	chunk = top > (int)pageblock_order ? rem : 1ULL << top;
	if (chunk > rem)
		chunk = rem;
	f->pages_at[top] += chunk;
	rem -= chunk;
	for (int o = top; o >= 0 && rem; o--) {
		uint64_t n = rem >> o;

		f->pages_at[o] += n << o;
		rem -= n << o;
	}
}

/*
 * mm/vmstat.c: fill_contig_page_info(), unusable_free_index() and
 * __fragmentation_index(), with the same integer arithmetic.
 */
void fv_frag_compute(struct fv_frag *f)
{
	uint64_t total = 0;

	f->free_pages = 0;
	for (int o = 0; o < FV_MAX_ORDER; o++) {
		f->nr_free[o] = f->pages_at[o] >> o;
		total += f->nr_free[o];
		f->free_pages += f->nr_free[o] << o;
	}
	for (int order = 0; order < FV_MAX_ORDER; order++) {
		uint64_t suitable = 0, requested = 1ULL << order;

		for (int o = order; o < FV_MAX_ORDER; o++)
			suitable += f->nr_free[o] << (o - order);

		if (!f->free_pages)
			f->unusable[order] = 1000;
		else
			f->unusable[order] = (f->free_pages - (suitable << order)) *
					     1000ULL / f->free_pages;

		if (!total)
			f->fragindex[order] = 0;
		else if (suitable)
			f->fragindex[order] = -1000;
		else
			f->fragindex[order] = 1000 - (1000 + f->free_pages * 1000ULL /
						      requested) / total;
	}
}

static int cmp_steal(const void *a, const void *b)
{
	const struct fv_steal_row *x = a, *y = b;

	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	if (x->alloc_mt != y->alloc_mt)
		return x->alloc_mt - y->alloc_mt;
	if (x->block_mt != y->block_mt)
		return x->block_mt - y->block_mt;
	if (x->claimed != y->claimed)
		return x->claimed - y->claimed;
	if (x->order != y->order)
		return x->order - y->order;
	return x->fallback_order - y->fallback_order;
}

static int cmp_flip(const void *a, const void *b)
{
	const struct fv_flip_row *x = a, *y = b;

	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	if (x->old_mt != y->old_mt)
		return x->old_mt - y->old_mt;
	if (x->new_mt != y->new_mt)
		return x->new_mt - y->new_mt;
	return x->reason - y->reason;
}

static int cmp_drain(const void *a, const void *b)
{
	const struct fv_drain_row *x = a, *y = b;

	return (x->cpu > y->cpu) - (x->cpu < y->cpu);
}

static int cmp_result(const void *a, const void *b)
{
	const struct fv_result_row *x = a, *y = b;

	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return (x->result < y->result) - (x->result > y->result);
}

static void build_flip_rows(struct fv_stats *s)
{
	size_t n = 0;

	s->flips = xcalloc(FV_MT_NR * FV_MT_NR * FV_FLIP_NR, sizeof(*s->flips));
	for (int a = 0; a < FV_MT_NR; a++)
		for (int b = 0; b < FV_MT_NR; b++)
			for (int r = 0; r < FV_FLIP_NR; r++)
				if (s->flip_tab[a][b][r])
					s->flips[n++] = (struct fv_flip_row){
						a, b, r, s->flip_tab[a][b][r] };
	s->nr_flip_rows = n;
	qsort(s->flips, n, sizeof(*s->flips), cmp_flip);
}

static void build_migrate_rows(struct fv_stats *s)
{
	size_t n = 0;

	s->migrations = xcalloc(FV_MSRC_NR * FV_MR_NR * FV_MODE_NR,
				sizeof(*s->migrations));
	for (int k = 0; k < FV_MSRC_NR; k++)
		for (int r = 0; r < FV_MR_NR; r++)
			for (int m = 0; m < FV_MODE_NR; m++) {
				uint64_t ok = s->mig_ok[k][r][m];
				uint64_t bad = s->mig_fail[k][r][m];
				uint64_t again = s->mig_retry[k][r][m];

				if (!ok && !bad && !again)
					continue;
				/* only retried: no rate (0, txt "-") */
				s->migrations[n++] = (struct fv_migrate_row){
					.reason = r, .mode = m, .source = k,
					.ok = ok, .failed = bad, .retried = again,
					.rate_permille = ok + bad ?
						ok * 1000 / (ok + bad) : 0 };
			}
	s->nr_migrate_rows = n;
}

/* by reason, mode and stage, the order of the enums */
static void build_pass_rows(struct fv_stats *s)
{
	size_t n = 0;

	s->passes = xcalloc(FV_MR_NR * FV_MODE_NR * FV_STAGE_NR,
			    sizeof(*s->passes));
	for (int r = 0; r < FV_MR_NR; r++)
		for (int m = 0; m < FV_MODE_NR; m++)
			for (int g = 0; g < FV_STAGE_NR; g++) {
				struct fv_mpass_row row = s->pass_tab[r][m][g];

				if (!row.passes)
					continue;
				row.reason = r;
				row.mode = m;
				row.stage = g;
				s->passes[n++] = row;
			}
	s->nr_pass_rows = n;
}

static void zone_stats(struct fv_stats *s, const struct fv_model *m)
{
	s->zones = xcalloc(m->nr_zones, sizeof(*s->zones));
	s->nr_zones = m->nr_zones;
	for (size_t z = 0; z < m->nr_zones; z++) {
		const struct fv_zone *mz = &m->zones[z];
		struct fv_zone_stats *zs = &s->zones[z];

		zs->nid = mz->nid;
		zs->zone = mz->zone;
		for (size_t i = mz->first; i < mz->first + mz->nr; i++) {
			uint32_t free_pages;
			int8_t largest;

			zs->blocks_start[m->blocks[i].mt_base % FV_MT_NR]++;
			/* the type now is every flip replayed */
			zs->blocks_end[m->blocks[i].mt % FV_MT_NR]++;
			if (fv_model_block_free(m, i, true, &free_pages, &largest)) {
				zs->frag_start.valid = true;
				fv_frag_add_block(&zs->frag_start, free_pages,
						  largest, m->pageblock_order);
			}
			if (fv_model_block_free(m, i, false, &free_pages, &largest)) {
				zs->frag_end.valid = true;
				fv_frag_add_block(&zs->frag_end, free_pages,
						  largest, m->pageblock_order);
			}
		}
		fv_frag_compute(&zs->frag_start);
		fv_frag_compute(&zs->frag_end);
	}
}

void fv_stats_finish(struct fv_stats *s, const struct fv_model *m)
{
	if (s->finished)
		return;
	s->finished = true;
	/* the capture's end ends every call: what is pending is final */
	fv_migcall_free(&s->calls);
	/* the index dies with the order of the rows */
	free(s->steal_index);
	s->steal_index = NULL;
	s->steal_index_cap = s->steal_rows_cap = 0;
	fv_rowidx_free(&s->drain_index);
	if (s->nr_steal_rows)
		qsort(s->steals, s->nr_steal_rows, sizeof(*s->steals), cmp_steal);
	build_flip_rows(s);
	build_migrate_rows(s);
	build_pass_rows(s);
	if (s->nr_drain_rows)
		qsort(s->drains, s->nr_drain_rows, sizeof(*s->drains), cmp_drain);
	if (s->nr_results)
		qsort(s->results, s->nr_results, sizeof(*s->results), cmp_result);
	zone_stats(s, m);
	s->nr_census_zones = fv_census_zones(m, &s->census);
}
