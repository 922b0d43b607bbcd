// SPDX-License-Identifier: GPL-2.0
/*
 * explain.c - why did a high-order allocation fail (explain.h).  Pure:
 * reads the model, the compaction model and blame, writes nothing but
 * the explanation.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blame.h"
#include "compaction.h"
#include "explain.h"
#include "util.h"

const char *fv_cause_name(enum fv_cause c)
{
	static const char *const names[FV_CAUSE_NR] = {
		"none", "no-free-memory", "reserves", "no-compaction",
		"isolation", "pinned", "migration-failed", "per-cpu-lists",
		"unknown",
	};

	return c < FV_CAUSE_NR ? names[c] : "unknown";
}

const char *fv_pin_name(enum fv_pin p)
{
	static const char *const names[FV_PIN_NR] = {
		"unmovable", "movable", "per-cpu", "isolated", "unknown",
	};

	return p < FV_PIN_NR ? names[p] : "unknown";
}

void fv_pin_pages(const uint16_t n[FV_CN_NR], uint32_t pages[FV_PIN_NR])
{
	memset(pages, 0, FV_PIN_NR * sizeof(pages[0]));
	/* what compaction cannot move: reclaimable slab is not migrated */
	pages[FV_PIN_UNMOVABLE] = n[FV_CN_SLAB_UNMOVABLE] +
		n[FV_CN_SLAB_RECLAIMABLE] + n[FV_CN_PGTABLE] +
		n[FV_CN_KERNEL] + n[FV_CN_RESERVED];
	/*
	 * compaction skips hugetlb folios (isolate_migratepages_block() takes
	 * them only for alloc_contig_range()): they hold their block
	 */
	pages[FV_PIN_UNMOVABLE] += n[FV_CN_HUGETLB];
	pages[FV_PIN_MOVABLE] = n[FV_CN_LRU] + n[FV_CN_MOVABLE_OPS];
	pages[FV_PIN_PCP] = n[FV_CN_FREE_PCP];
}

const char *fv_explain_status_phrase(uint8_t status)
{
	switch (status) {
	case FV_CS_COMPLETE:
		return "when the scanners met";
	case FV_CS_SUCCESS:
		return "with a free block it could not keep";
	case FV_CS_CONTENDED:
		return "contended (lock or need to reschedule)";
	case FV_CS_DEFERRED:
		return "deferred";
	case FV_CS_SKIPPED:
		return "skipped (not enough free memory)";
	case FV_CS_PARTIAL_SKIPPED:
		return "with a partial scan (blocks skipped)";
	case FV_CS_NO_SUITABLE_PAGE:
		return "with no suitable page";
	case FV_CS_NOT_SUITABLE_ZONE:
		return "with the zone not suitable";
	default:
		return "without an end in the capture";
	}
}

/* Per block, what is known at T. */
struct figure {
	int64_t state, census;		/* chosen records, -1: none */
	int64_t ts;			/* of the free figure */
	uint32_t free;
	int8_t largest;			/* -1: no free page; census: 0 or order */
	bool known, taken;
};

/* Latest record at or before ts, else the first after: per block. */
static void pick(const void *recs, size_t nr, size_t size, size_t nr_blocks,
		 uint64_t ts, int64_t *out)
{
	for (size_t i = 0; i < nr_blocks; i++)
		out[i] = -1;
	for (size_t k = 0; k < nr; k++) {
		const char *r = (const char *)recs + k * size;
		uint64_t t;
		uint32_t block;

		memcpy(&t, r, sizeof(t));
		memcpy(&block, r + sizeof(t), sizeof(block));
		if (t <= ts || out[block] < 0)
			out[block] = k;
	}
}

_Static_assert(offsetof(struct fv_state_rec, block) == sizeof(uint64_t) &&
	       offsetof(struct fv_census_rec, block) == sizeof(uint64_t),
	       "pick() reads ts, then block");

static void figures(const struct fv_model *m, uint64_t ts, struct figure *f)
{
	unsigned int pbo = m->pageblock_order;
	uint32_t ppb = 1U << pbo;
	int64_t *st = xmalloc(m->nr_blocks * sizeof(*st));
	int64_t *cn = xmalloc(m->nr_blocks * sizeof(*cn));

	pick(m->states, m->nr_states, sizeof(*m->states), m->nr_blocks, ts, st);
	pick(m->census, m->nr_census, sizeof(*m->census), m->nr_blocks, ts, cn);
	for (size_t i = 0; i < m->nr_blocks; i++) {
		struct figure *g = &f[i];
		const struct fv_state_rec *s = st[i] >= 0 ? &m->states[st[i]] : NULL;
		const struct fv_census_rec *c = cn[i] >= 0 ? &m->census[cn[i]] : NULL;
		bool use_census;

		*g = (struct figure){ .state = st[i], .census = cn[i] };
		if (!s && !c)
			continue;
		/* the later record before ts; with none before, the earlier */
		if (!s || !c)
			use_census = c;
		else if ((s->ts <= ts) != (c->ts <= ts))
			use_census = c->ts <= ts;
		else
			use_census = s->ts <= ts ? c->ts > s->ts : c->ts < s->ts;
		g->known = true;
		if (use_census) {
			g->ts = c->ts;
			g->free = c->n[FV_CN_FREE];
			g->largest = g->free >= ppb ? (int8_t)pbo : 0;
		} else {
			g->ts = s->ts;
			g->free = s->free_pages;
			g->largest = s->largest_order;
		}
	}
	free(st);
	free(cn);
}

/* Blocks a successful high-order allocation took after their figure. */
static void take_allocs(const struct fv_model *m, uint64_t ts, struct figure *f)
{
	const struct fv_compact *c = m->compact;
	uint64_t ppb = 1ULL << m->pageblock_order;

	for (size_t k = 0; c && k < c->nr_allocs && c->allocs[k].ts <= ts; k++) {
		const struct fv_halloc *a = &c->allocs[k];
		uint64_t last, nr;

		/*
		 * No kernel allocates more, or pages past the last pfn: a
		 * damaged record takes nothing.
		 */
		if (!a->ok || a->order > FV_ORDER_MAX ||
		    a->pfn > UINT64_MAX - ((1ULL << a->order) - 1))
			continue;
		last = a->pfn + ((1ULL << a->order) - 1);
		/* counted: a pfn in the last block would wrap p around */
		nr = (last >> m->pageblock_order) - (a->pfn >> m->pageblock_order) + 1;
		for (uint64_t j = 0; j < nr; j++) {
			uint64_t p = fv_block_start(m, a->pfn) + j * ppb;
			long i = fv_model_find_block(m, p);

			if (i >= 0 && f[i].known && (uint64_t)f[i].ts < a->ts) {
				f[i].taken = true;
				f[i].free = 0;
				f[i].largest = -1;
			}
		}
	}
}

static bool reserve_type(uint8_t mt)
{
	return mt == FV_MT_HIGHATOMIC || mt == FV_MT_CMA || mt == FV_MT_ISOLATE;
}

/* Whether block i (of a zone) starts a free run of order >= order. */
static bool has_chunk(const struct fv_model *m, const struct fv_zone *z,
		      size_t i, const struct figure *f, unsigned int order)
{
	unsigned int pbo = m->pageblock_order;
	uint64_t span;

	if (order <= pbo)
		return f[i].known && f[i].largest >= (int)order;
	/* more blocks than the zone has (a damaged order, too): none */
	if (order - pbo >= 64 || (span = 1ULL << (order - pbo)) > z->nr)
		return false;
	if ((m->blocks[i].pfn >> pbo) % span)
		return false;
	for (uint64_t j = 0; j < span; j++) {
		size_t k = i + j;

		if (k >= z->first + z->nr || !f[k].known ||
		    f[k].largest < (int)pbo ||
		    m->blocks[k].pfn != m->blocks[i].pfn + (j << pbo))
			return false;
	}
	return true;
}

static bool zone_wanted(const struct fv_explanation *e, const struct fv_zone *z)
{
	if (!e->zones_named)
		return true;
	for (size_t i = 0; i < e->nr_zones; i++)
		if (e->zones[i].nid == z->nid && e->zones[i].zone == z->zone)
			return true;
	return false;
}

/* The entry of a zone in e->zones, added if new. */
static struct fv_xzone *xzone(struct fv_explanation *e, int32_t nid,
			      uint8_t zone)
{
	for (size_t i = 0; i < e->nr_zones; i++)
		if (e->zones[i].nid == nid && e->zones[i].zone == zone)
			return &e->zones[i];
	e->zones = xrealloc(e->zones, (e->nr_zones + 1) * sizeof(*e->zones));
	e->zones[e->nr_zones] = (struct fv_xzone){ .nid = nid, .zone = zone };
	return &e->zones[e->nr_zones++];
}

/*
 * A request that named no zone (compaction not tried): the zones the
 * task's latest earlier suitable or deferred note named, the zones its
 * allocations go to (a __GFP_THISNODE allocation can fail on one node
 * while another has free blocks; the event does not say the node).
 */
static void earlier_zones(const struct fv_compact *c, struct fv_explanation *e)
{
	uint64_t ts = 0;

	for (size_t k = e->notes_lo; k-- > 0;) {
		const struct fv_cnote *n = &c->notes[k];

		if (n->pid != e->pid || n->kind == FV_EV_CTRY)
			continue;
		if (e->zones_named && n->ts != ts)
			break;
		ts = n->ts;
		xzone(e, n->nid, n->zone);
		e->zones_named = e->zones_earlier = true;
	}
}

/*
 * The request's ranges of notes, runs and failed migrations: for an
 * allocation, those between the task's previous high-order allocation
 * and this one in event order (several can share a timestamp); for a
 * hypothetical one, those of the second before.
 */
static void ranges(const struct fv_compact *c, struct fv_explanation *e)
{
	const struct fv_halloc *a, *prev = NULL;

	if (e->alloc < 0) {
		e->window = e->ts > 1000000000ULL ? e->ts - 1000000000ULL : 0;
		e->fails_lo = fv_compact_fails_upto(c, e->window);
		e->fails_hi = fv_compact_fails_upto(c, e->ts);
		e->runs_hi = c->nr_runs;
		return;
	}
	a = &c->allocs[e->alloc];
	for (int64_t k = e->alloc - 1; k >= 0 && !prev; k--)
		if (c->allocs[k].pid == e->pid)
			prev = &c->allocs[k];
	if (prev) {
		e->window = prev->ts;
		e->notes_lo = prev->notes_at;
		e->runs_lo = prev->runs_at;
		e->fails_lo = prev->fails_at;
	}
	e->notes_hi = a->notes_at;
	e->runs_hi = a->runs_at;
	e->fails_hi = a->fails_at;
}

/*
 * A request that compaction deferred without a run of its own: the run
 * that deferred it.  defer_compaction() follows a sync run that ended
 * complete or partial_skipped (kcompactd's or a direct one) and defers
 * every order from the run's up, in that zone: the latest such run
 * before the allocation, in a zone the request named, of an order up to
 * the request's.  Its failure is the reason the request could not
 * compact, so the verdict goes by what held the blocks then.
 */
static void deferring_run(const struct fv_compact *c, struct fv_explanation *e)
{
	e->deferred_by = -1;
	if (e->alloc < 0 || e->nr_runs ||
	    !(e->deferred || e->suitable[FV_CS_DEFERRED]))
		return;
	for (size_t k = e->runs_hi; k-- > 0;) {
		const struct fv_crun *r = &c->runs[k];
		bool named = false;

		if (!r->have_end || !r->sync || r->order < 0 ||
		    (unsigned int)r->order > e->order ||
		    (r->status != FV_CS_COMPLETE &&
		     r->status != FV_CS_PARTIAL_SKIPPED))
			continue;
		for (size_t i = 0; i < e->nr_zones && !named; i++)
			named = e->zones[i].nid == r->nid &&
				e->zones[i].zone == r->zone;
		if (named) {
			e->deferred_by = k;
			return;
		}
	}
}

/* 3: the task's notes and runs in the request */
static void request(const struct fv_model *m, struct fv_explanation *e)
{
	const struct fv_compact *c = m->compact;

	e->prio = -1;
	e->deferred_by = -1;
	if (!c)
		return;
	e->window = m->first_ts;
	ranges(c, e);
	for (size_t k = e->notes_lo; e->alloc >= 0 && k < e->notes_hi; k++) {
		const struct fv_cnote *n = &c->notes[k];

		if (n->pid != e->pid)
			continue;
		if (n->kind == FV_EV_CTRY) {
			e->tried = true;
			e->prio = n->prio;
			continue;
		}
		if (n->kind == FV_EV_CSUITABLE)
			e->suitable[n->ret < FV_CS_NR ? n->ret : FV_CS_UNKNOWN]++;
		else
			e->deferred++;
		xzone(e, n->nid, n->zone);
		e->zones_named = true;
	}
	if (!e->zones_named && e->alloc >= 0)
		earlier_zones(c, e);
	for (size_t k = e->runs_lo; k < e->runs_hi; k++) {
		const struct fv_crun *r = &c->runs[k];
		uint64_t end = r->have_end ? r->ts_end : r->ts_begin;

		/* an allocation's: its task's; --at: any that ended then */
		if (e->alloc >= 0 ? r->pid != e->pid :
				    r->ts_begin > e->ts || end <= e->window)
			continue;
		e->runs = xrealloc(e->runs, (e->nr_runs + 1) * sizeof(*e->runs));
		e->runs[e->nr_runs++] = k;
		e->migrated += r->migrated;
		e->failed += r->failed;
	}
	deferring_run(c, e);
}

/* 1: per zone */
/* The zone's watermark record for T: the latest at or before, else the
 * first after (m->wmarks is in time order). */
static void zone_wmark(const struct fv_model *m, struct fv_xzone *x,
		       uint64_t ts)
{
	const struct fv_wmark_rec *best = NULL;

	for (size_t i = 0; i < m->nr_wmarks; i++) {
		const struct fv_wmark_rec *r = &m->wmarks[i];

		if (r->w.nid != x->nid || r->w.zone != x->zone)
			continue;
		if (r->ts > ts && best)
			break;
		best = r;
		if (r->ts > ts)
			break;
	}
	if (!best)
		return;
	x->have_wmark = true;
	x->wmark_age = (int64_t)(ts - best->ts);
	x->wm = best->w;
}

static void zones(const struct fv_model *m, struct fv_explanation *e,
		  const struct figure *f, const uint8_t *mt)
{
	uint32_t ppb = 1U << m->pageblock_order;

	for (size_t zi = 0; zi < m->nr_zones; zi++) {
		const struct fv_zone *z = &m->zones[zi];
		struct fv_xzone *x;

		if (!zone_wanted(e, z))
			continue;
		x = xzone(e, z->nid, z->zone);
		zone_wmark(m, x, e->ts);
		for (size_t i = z->first; i < z->first + z->nr; i++) {
			const struct figure *g = &f[i];
			int64_t age = (int64_t)(e->ts - g->ts);

			x->blocks++;
			if (!g->known)
				continue;
			x->known++;
			x->free_pages += g->free;
			x->taken += g->taken;
			if (has_chunk(m, z, i, f, e->order)) {
				if (reserve_type(mt[i]))
					x->reserve_blocks++;
				else
					x->free_blocks++;
			} else if ((uint64_t)g->free * 10 >= (uint64_t)ppb * 9) {
				x->near90++;
			}
			if (!x->have_age || age < x->age_min)
				x->age_min = age;
			if (!x->have_age || age > x->age_max)
				x->age_max = age;
			x->have_age = true;
			if (g->census >= 0) {
				int64_t ca = (int64_t)(e->ts - m->census[g->census].ts);

				if (!x->have_census || ca > x->census_age)
					x->census_age = ca;
				x->have_census = true;
			}
		}
	}
	/* (a zone suitable named may be one the model does not have) */
	for (size_t i = 0; i < e->nr_zones; i++)
		e->zones[i].bound = e->order < 64 ?
				    e->zones[i].free_pages >> e->order : 0;
}

static int cmp_near(const void *pa, const void *pb)
{
	const struct fv_xblock *a = pa, *b = pb;

	if (a->free != b->free)
		return a->free > b->free ? -1 : 1;
	return a->pfn < b->pfn ? -1 : a->pfn > b->pfn;
}

/*
 * What keeps a block from being freed by compaction: one unmovable page
 * is enough, whatever else it holds; else the movable pages compaction
 * left there or the free pages on per-cpu lists, whichever are more.
 */
static uint8_t block_pin(const struct fv_xblock *x)
{
	uint32_t pages[FV_PIN_NR];

	if (x->mt == FV_MT_ISOLATE)
		return FV_PIN_ISOLATED;
	if (!x->have_census)
		return FV_PIN_UNKNOWN;
	fv_pin_pages(x->n, pages);
	if (pages[FV_PIN_UNMOVABLE])
		return FV_PIN_UNMOVABLE;
	if (pages[FV_PIN_PCP] > pages[FV_PIN_MOVABLE])
		return FV_PIN_PCP;
	return pages[FV_PIN_MOVABLE] ? FV_PIN_MOVABLE : FV_PIN_UNKNOWN;
}

/* 2: the blocks nearest to free, what pins them */
static void nearest(const struct fv_model *m, struct fv_explanation *e,
		    const struct figure *f, const uint8_t *mt, size_t top)
{
	uint32_t ppb = 1U << m->pageblock_order;
	struct fv_xblock *all = NULL;
	size_t n = 0, cap = 0;

	for (size_t zi = 0; zi < m->nr_zones; zi++) {
		const struct fv_zone *z = &m->zones[zi];

		if (!zone_wanted(e, z))
			continue;
		for (size_t i = z->first; i < z->first + z->nr; i++) {
			const struct figure *g = &f[i];
			struct fv_xblock *x;

			if (!g->known || g->taken || !g->free || g->free >= ppb ||
			    has_chunk(m, z, i, f, e->order))
				continue;
			if (n == cap) {
				cap = cap ? 2 * cap : 16;
				all = xrealloc(all, cap * sizeof(*all));
			}
			x = &all[n++];
			*x = (struct fv_xblock){
				.block = i, .pfn = m->blocks[i].pfn, .mt = mt[i],
				.free = g->free, .used = ppb - g->free,
				.age = (int64_t)(e->ts - g->ts), .blame = -1 };
			if (g->census >= 0) {
				const struct fv_census_rec *c = &m->census[g->census];

				x->have_census = true;
				x->census_age = (int64_t)(e->ts - c->ts);
				memcpy(x->n, c->n, sizeof(x->n));
			}
		}
	}
	if (n)
		qsort(all, n, sizeof(*all), cmp_near);
	e->nr_near = n < top ? n : top;
	e->near = all;
	for (size_t k = 0; k < e->nr_near; k++) {
		e->near[k].pin = block_pin(&e->near[k]);
		e->pins[e->near[k].pin]++;
	}
}

static struct fv_xblock *near_block(struct fv_explanation *e,
				    const struct fv_model *m, uint64_t pfn)
{
	uint64_t start = fv_block_start(m, pfn);

	for (size_t k = 0; k < e->nr_near; k++)
		if (e->near[k].pfn == start)
			return &e->near[k];
	return NULL;
}

/* Failed migrations in the nearest blocks, during the request. */
static void failures(const struct fv_model *m, struct fv_explanation *e)
{
	const struct fv_compact *c = m->compact;

	for (size_t k = e->fails_lo; c && k < e->fails_hi; k++) {
		struct fv_xblock *x = near_block(e, m, c->fails[k].pfn);

		if (x) {
			x->fails++;
			x->fail_result = c->fails[k].result;
		}
	}
}

/* Who last stole from or flipped each nearest block, and the culprit. */
static void culprits(const struct fv_model *m, const struct fv_blame *b,
		     struct fv_explanation *e)
{
	int32_t best_pid = -1;
	uint32_t best = 0;

	e->culprit_pid = e->culprit_stack = -1;
	if (!b)
		return;
	for (size_t k = 0; k < b->nr_recs && b->recs[k].ts <= e->ts; k++) {
		const struct fv_blame_rec *r = &b->recs[k];
		struct fv_xblock *x = near_block(e, m, r->block);

		/* a steal says more than a flip: keep the latest steal */
		if (x && (x->blame < 0 || r->kind != FV_EV_FLIP ||
			  b->recs[x->blame].kind == FV_EV_FLIP))
			x->blame = k;
	}
	for (size_t i = 0; i < e->nr_near; i++) {
		uint32_t n = 0;
		int32_t pid;

		if (e->near[i].pin != FV_PIN_UNMOVABLE || e->near[i].blame < 0)
			continue;
		pid = b->recs[e->near[i].blame].pid;
		for (size_t j = 0; j < e->nr_near; j++)
			n += e->near[j].pin == FV_PIN_UNMOVABLE &&
			     e->near[j].blame >= 0 &&
			     b->recs[e->near[j].blame].pid == pid;
		if (n > best || (n == best && pid < best_pid)) {
			best = n;
			best_pid = pid;
			e->culprit_stack = b->recs[e->near[i].blame].stack;
		}
	}
	e->culprit_pid = best_pid;
	e->culprit_blocks = best;
}

/*
 * Every zone the request named, compaction_suitable called
 * not_suitable_zone: a fragmentation index >= 0, which the kernel only
 * computes for a zone without a free chunk of the order, of any type.
 */
static bool kernel_saw_no_chunk(const struct fv_explanation *e)
{
	uint32_t notes = 0;

	for (int c = 0; c < FV_CS_NR; c++)
		notes += e->suitable[c];
	return notes && !e->deferred &&
	       e->suitable[FV_CS_NOT_SUITABLE_ZONE] == notes;
}

static uint8_t decide(const struct fv_model *m,
		      const struct fv_explanation *e)
{
	uint64_t known = 0, bound = 0, free_blocks = 0, reserve = 0;
	uint8_t best = FV_PIN_NR;
	static const uint8_t pin_cause[FV_PIN_NR] = {
		[FV_PIN_UNMOVABLE] = FV_CAUSE_PINNED,
		[FV_PIN_MOVABLE] = FV_CAUSE_MIGRATION,
		[FV_PIN_PCP] = FV_CAUSE_PCP,
		[FV_PIN_ISOLATED] = FV_CAUSE_ISOLATION,
	};

	for (size_t i = 0; i < e->nr_zones; i++) {
		known += e->zones[i].known;
		bound += e->zones[i].bound;
		free_blocks += e->zones[i].free_blocks;
		reserve += e->zones[i].reserve_blocks;
	}
	if (!known)
		return FV_CAUSE_UNKNOWN;
	/*
	 * skipped is the kernel's own word, at the request, that the zone's
	 * free pages were under the watermark plus compaction's gap: it
	 * outweighs a free block in figures that can be a second old (the
	 * free block a watermark keeps is that same shortage).
	 */
	if (e->suitable[FV_CS_SKIPPED])
		return FV_CAUSE_NO_MEMORY;
	/* and a free chunk where the kernel saw none is a stale figure */
	if (kernel_saw_no_chunk(e))
		free_blocks = reserve = 0;
	if (free_blocks)
		return e->alloc < 0 ? FV_CAUSE_NONE : FV_CAUSE_RESERVES;
	if (!bound)
		return FV_CAUSE_NO_MEMORY;
	if (reserve)
		return FV_CAUSE_RESERVES;
	if (e->alloc >= 0 && m->compact->have_compaction_events && !e->nr_runs &&
	    e->deferred_by < 0 && (!e->tried || e->deferred || e->suitable[FV_CS_DEFERRED] ||
	     e->suitable[FV_CS_NOT_SUITABLE_ZONE]))
		return FV_CAUSE_NO_COMPACTION;
	/* the pin of most nearest blocks; ties: the order of enum fv_pin */
	for (uint8_t p = 0; p < FV_PIN_UNKNOWN; p++)
		if (e->pins[p] && (best == FV_PIN_NR || e->pins[p] > e->pins[best]))
			best = p;
	if (best != FV_PIN_NR)
		return pin_cause[best];
	return e->failed ? FV_CAUSE_MIGRATION : FV_CAUSE_UNKNOWN;
}

struct sum {
	uint64_t free_pages, bound, free_blocks, reserve, near90;
	uint64_t wm_free, wm_low;	/* zoneinfo, zones with a zone line */
	int64_t age_max, wmark_age;	/* wmark_age: the oldest line used */
	bool have_age, have_wmark;
};

static struct sum sum_zones(const struct fv_explanation *e)
{
	struct sum s = { 0 };

	for (size_t i = 0; i < e->nr_zones; i++) {
		const struct fv_xzone *z = &e->zones[i];

		s.free_pages += z->free_pages;
		s.bound += z->bound;
		s.free_blocks += z->free_blocks;
		s.reserve += z->reserve_blocks;
		s.near90 += z->near90;
		if (z->have_age && (!s.have_age || z->age_max > s.age_max))
			s.age_max = z->age_max;
		s.have_age |= z->have_age;
		if (z->have_wmark) {
			s.wm_free += z->wm.free;
			s.wm_low += z->wm.low;
			if (!s.have_wmark || z->wmark_age > s.wmark_age)
				s.wmark_age = z->wmark_age;
			s.have_wmark = true;
		}
	}
	return s;
}

/* "4.21 s old", "0.30 s after" */
static void fmt_age(char *buf, size_t len, int64_t age)
{
	if (age >= 0)
		snprintf(buf, len, "%" PRId64 ".%02" PRId64 " s old",
			 age / 1000000000, age % 1000000000 / 10000000);
	else
		snprintf(buf, len, "taken %" PRId64 ".%02" PRId64 " s after",
			 -age / 1000000000, -age % 1000000000 / 10000000);
}

/* "; compaction ran 3 times and ended when the scanners met" */
static int put_compaction(char *buf, size_t len, const struct fv_model *m,
			  const struct fv_explanation *e)
{
	const struct fv_crun *last;

	if (e->deferred_by >= 0) {
		last = &m->compact->runs[e->deferred_by];
		return snprintf(buf, len, "; compaction was deferred (%u "
				"deferrals) after the run at %" PRIu64 ".%03" PRIu64
				" s by pid %d ended %s",
				e->deferred + e->suitable[FV_CS_DEFERRED],
				last->ts_end / 1000000000,
				last->ts_end % 1000000000 / 1000000, last->pid,
				fv_explain_status_phrase(last->status));
	}
	if (!e->nr_runs)
		return snprintf(buf, len, "; compaction did not run%s",
				e->alloc >= 0 && e->tried ?
				" (try_to_compact_pages was called)" : "");
	last = &m->compact->runs[e->runs[e->nr_runs - 1]];
	return snprintf(buf, len, "; compaction ran %zu time%s and ended %s",
			e->nr_runs, e->nr_runs == 1 ? "" : "s",
			fv_explain_status_phrase(last->status));
}

static void verdict(const struct fv_model *m, const struct fv_blame *b,
		    struct fv_explanation *e)
{
	struct sum s = sum_zones(e);
	char *v = e->verdict, age[48], who[160] = "";
	size_t len = sizeof(e->verdict), n = 0;
	unsigned int o = e->order;

	fmt_age(age, sizeof(age), s.age_max);
#define PUT(...) (n += snprintf(v + n, n < len ? len - n : 0, __VA_ARGS__))
	switch (e->cause) {
	case FV_CAUSE_NONE:
		PUT("an order-%u allocation would find a free block: %" PRIu64
		    " blocks with a free order-%u chunk (figures up to %s)",
		    o, s.free_blocks, o, age);
		return;
	case FV_CAUSE_NO_MEMORY:
		PUT("not enough free memory: %" PRIu64 " free pages (figures up to %s), "
		    "room for %" PRIu64 " order-%u pages if unfragmented",
		    s.free_pages, age, s.bound, o);
		if (e->suitable[FV_CS_SKIPPED])
			PUT("; compaction_suitable said skipped: free pages "
			    "under the watermark plus compaction's gap");
		if (s.have_wmark) {
			fmt_age(age, sizeof(age), s.wmark_age);
			PUT("; zoneinfo: %" PRIu64 " free pages against low "
			    "watermarks of %" PRIu64 " (%s)", s.wm_free, s.wm_low, age);
		}
		return;
	case FV_CAUSE_RESERVES:
		if (s.free_blocks)
			PUT("%" PRIu64 " blocks had a free order-%u chunk by figures "
			    "up to %s, yet it failed: watermarks or reserves kept "
			    "them, or the figures are stale", s.free_blocks, o, age);
		else
			PUT("free order-%u blocks only in reserves: %" PRIu64
			    " HighAtomic, CMA or Isolate blocks", o, s.reserve);
		return;
	default:
		break;
	}
	PUT("no free order-%u block; %" PRIu64 " blocks >= 90 %% free", o, s.near90);
	switch (e->cause) {
	case FV_CAUSE_NO_COMPACTION:
		if (e->deferred || e->suitable[FV_CS_DEFERRED])
			PUT("; compaction was deferred (%u deferrals)",
			    e->deferred + e->suitable[FV_CS_DEFERRED]);
		else if (e->suitable[FV_CS_NOT_SUITABLE_ZONE])
			PUT("; compaction was judged unsuitable: compaction_suitable "
			    "said not_suitable_zone (fragmentation index under "
			    "extfrag_threshold)");
		else
			PUT("; compaction was not attempted: no try_to_compact_pages "
			    "since the task's previous high-order allocation");
		return;
	case FV_CAUSE_PINNED:
		if (e->culprit_pid >= 0 && b) {
			const struct fv_blame_stack *st =
				fv_blame_stack_of(b, e->culprit_stack);

			if (st && st->site_id >= 0)
				snprintf(who, sizeof(who), " from %s (%s-%d)",
					 b->sites[st->site_id],
					 fv_blame_comm_of(b, e->culprit_pid),
					 e->culprit_pid);
			else
				snprintf(who, sizeof(who), " from %s-%d",
					 fv_blame_comm_of(b, e->culprit_pid),
					 e->culprit_pid);
		}
		PUT(", %u of the %zu nearest to free pinned by unmovable pages%s",
		    e->pins[FV_PIN_UNMOVABLE], e->nr_near, who);
		if (e->culprit_pid >= 0 && e->culprit_blocks != e->pins[FV_PIN_UNMOVABLE])
			PUT(" (%u of them)", e->culprit_blocks);
		break;
	case FV_CAUSE_MIGRATION:
		PUT(", %u of the %zu nearest to free held by movable pages "
		    "compaction did not move (%" PRIu64 " failed to migrate)",
		    e->pins[FV_PIN_MOVABLE], e->nr_near, e->failed);
		break;
	case FV_CAUSE_PCP:
		PUT(", %u of the %zu nearest to free held by free pages on "
		    "per-cpu lists", e->pins[FV_PIN_PCP], e->nr_near);
		break;
	case FV_CAUSE_ISOLATION:
		PUT(", %u of the %zu nearest to free isolated (migratetype Isolate)",
		    e->pins[FV_PIN_ISOLATED], e->nr_near);
		break;
	default:
		PUT("; what holds the nearest blocks is not in the capture "
		    "(no census)");
		break;
	}
	if (n < len)
		put_compaction(v + n, len - n, m, e);
#undef PUT
}

void fv_explain(const struct fv_model *m, const struct fv_blame *b,
		int64_t alloc, uint64_t ts, unsigned int order, size_t top,
		struct fv_explanation *e)
{
	struct figure *f = xcalloc(m->nr_blocks + 1, sizeof(*f));
	uint8_t *mt = xmalloc(m->nr_blocks + 1);

	memset(e, 0, sizeof(*e));
	e->alloc = alloc;
	e->ts = ts;
	e->order = order;
	e->pid = -1;
	if (alloc >= 0) {
		const struct fv_halloc *a = &m->compact->allocs[alloc];

		e->ts = a->ts;
		e->order = a->order;
		e->pid = a->pid;
		e->gfp = a->gfp;
	}
	request(m, e);
	figures(m, e->ts, f);
	take_allocs(m, e->ts, f);
	fv_model_types_at(m, e->ts, mt);
	zones(m, e, f, mt);
	nearest(m, e, f, mt, top);
	failures(m, e);
	culprits(m, b, e);
	e->cause = decide(m, e);
	verdict(m, b, e);
	free(f);
	free(mt);
}

void fv_explain_free(struct fv_explanation *e)
{
	free(e->zones);
	free(e->near);
	free(e->runs);
	memset(e, 0, sizeof(*e));
}

size_t fv_explain_pick(const struct fv_compact *c, size_t alloc,
		       unsigned int order, int64_t *idx, size_t *nr_failed)
{
	size_t n = 0;

	*nr_failed = 0;
	for (size_t i = 0; i < c->nr_allocs; i++) {
		if (c->allocs[i].ok || c->allocs[i].order < order)
			continue;
		++*nr_failed;
		if (alloc == SIZE_MAX || alloc == i)
			idx[n++] = i;
	}
	return n;
}
