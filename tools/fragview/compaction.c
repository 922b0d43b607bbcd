// SPDX-License-Identifier: GPL-2.0
/*
 * compaction.c - pure model of compaction runs and high-order outcomes
 * (compaction.h).  No I/O; running out of memory ends the program
 * (xmalloc(), util.h).
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "compaction.h"
#include "migform.h"
#include "util.h"

struct fv_compact *fv_compact_new(void)
{
	struct fv_compact *c = xcalloc(1, sizeof(*c));

	c->min_order = 9;	/* the smallest pageblock_order we meet */
	for (int i = 0; i < FV_CTASKS; i++) {
		c->tasks[i].pid = -1;
		c->tasks[i].run = FV_NO_RUN;
	}
	return c;
}

void fv_compact_free(struct fv_compact *c)
{
	if (!c)
		return;
	free(c->runs);
	free(c->scans);
	free(c->fails);
	fv_migcall_free(&c->calls);
	free(c->allocs);
	free(c->notes);
	free(c->outcomes);
	free(c);
}

/* Room for one more element in *arr of *nr, *cap. */
static void *more(void *arr, size_t nr, size_t *cap, size_t size)
{
	if (nr < *cap)
		return arr;
	*cap = *cap ? *cap * 2 : 64;
	return xrealloc(arr, *cap * size);
}
#define PUSH(c, arr, nr, cap) \
	(((c)->arr = more((c)->arr, (c)->nr, &(c)->cap, sizeof(*(c)->arr))), \
	 memset(&(c)->arr[(c)->nr], 0, sizeof(*(c)->arr)), &(c)->arr[(c)->nr++])

static void task_reset(struct fv_ctask *t, int32_t pid)
{
	t->pid = pid;
	t->nid = -1;
	t->order = FV_ORDER_UNKNOWN;
	t->prio = -1;
	t->run = FV_NO_RUN;
	t->zone = FV_ZONE_UNKNOWN;
}

/*
 * The slot of task pid; with add, a new one: the least recently used,
 * of those without an open run if there are any.
 */
static struct fv_ctask *task(struct fv_compact *c, int32_t pid, bool add)
{
	struct fv_ctask *lru = &c->tasks[0];

	for (int i = 0; i < FV_CTASKS; i++) {
		struct fv_ctask *t = &c->tasks[i];
		bool idle = t->run == FV_NO_RUN, lru_idle = lru->run == FV_NO_RUN;

		if (t->pid == pid) {
			t->used = c->nr_events;
			return t;
		}
		if ((idle && !lru_idle) || (idle == lru_idle && t->used < lru->used))
			lru = t;
	}
	if (!add)
		return NULL;
	task_reset(lru, pid);
	lru->used = c->nr_events;
	return lru;
}

static struct fv_crun *open_run(struct fv_compact *c, int32_t pid)
{
	struct fv_ctask *t = task(c, pid, false);

	return t && t->run != FV_NO_RUN ? &c->runs[t->run] : NULL;
}

static struct fv_coutcome *outcome(struct fv_compact *c, int32_t nid,
				   uint8_t zone, int32_t order)
{
	struct fv_coutcome *o;

	for (size_t i = 0; i < c->nr_outcomes; i++) {
		o = &c->outcomes[i];
		if (o->nid == nid && o->zone == zone && o->order == order)
			return o;
	}
	o = PUSH(c, outcomes, nr_outcomes, outcomes_cap);
	o->nid = nid;
	o->zone = zone;
	o->order = order;
	return o;
}

/* A run from its begin (or from an end whose begin is not known). */
static struct fv_crun *new_run(struct fv_compact *c, const struct fv_event *ev,
			       uint64_t ts)
{
	struct fv_crun *r = PUSH(c, runs, nr_runs, runs_cap);

	r->ts_begin = ts;
	r->zone_start = ev->crun.zone_start;
	r->zone_end = ev->crun.zone_end;
	r->migrate_begin = r->migrate_end = ev->crun.migrate_pfn;
	r->free_begin = r->free_end = ev->crun.free_pfn;
	r->sync = ev->crun.sync;
	r->pid = ev->crun.pid;
	r->nid = -1;
	r->zone = FV_ZONE_UNKNOWN;
	r->order = FV_ORDER_UNKNOWN;
	r->prio = -1;
	r->status = FV_CS_UNKNOWN;
	return r;
}

static void begin_run(struct fv_compact *c, const struct fv_event *ev,
		      uint64_t ts)
{
	struct fv_ctask *t = task(c, ev->crun.pid, true);
	/* a begin without the previous run's end: that one stays open-ended */
	struct fv_crun *r = new_run(c, ev, ts);

	t->run = c->nr_runs - 1;
	r->nid = t->nid;
	r->zone = t->zone;
	r->order = t->order;
	r->prio = t->prio;
	/* what the task said before applies to this run only */
	t->nid = -1;
	t->zone = FV_ZONE_UNKNOWN;
	t->order = FV_ORDER_UNKNOWN;
	t->prio = -1;
}

static void end_run(struct fv_compact *c, const struct fv_event *ev,
		    uint64_t ts)
{
	struct fv_ctask *t = task(c, ev->crun.pid, false);
	struct fv_crun *r;

	if (!t || t->run == FV_NO_RUN) {
		/* its begin was before the capture, or lost: a run of one end */
		c->nr_ends_unmatched++;
		r = new_run(c, ev, ts);
	} else {
		r = &c->runs[t->run];
		t->run = FV_NO_RUN;
	}
	r->ts_end = ts;
	r->have_end = true;
	r->migrate_end = ev->crun.migrate_pfn;
	r->free_end = ev->crun.free_pfn;
	r->status = ev->crun.status < FV_CS_NR ? ev->crun.status : FV_CS_UNKNOWN;
}

static void add_scan(struct fv_compact *c, const struct fv_event *ev,
		     uint64_t ts)
{
	struct fv_ctask *t = task(c, ev->cscan.pid, false);
	bool free_scanner = ev->kind == FV_EV_CSCAN_FREE;
	struct fv_cscan *s = PUSH(c, scans, nr_scans, scans_cap);
	struct fv_crun *r;

	s->ts = ts;
	s->start = ev->cscan.start_pfn;
	s->end = ev->cscan.end_pfn;
	s->scanned = ev->cscan.nr_scanned > UINT32_MAX ? UINT32_MAX :
		     ev->cscan.nr_scanned;
	s->taken = ev->cscan.nr_taken > UINT32_MAX ? UINT32_MAX :
		   ev->cscan.nr_taken;
	s->free = free_scanner;
	s->run = t ? t->run : FV_NO_RUN;
	if (s->run == FV_NO_RUN)
		return;
	r = &c->runs[s->run];
	if (free_scanner) {
		r->fscanned += ev->cscan.nr_scanned;
		r->ftaken += ev->cscan.nr_taken;
		r->nr_fscans++;
	} else {
		r->mscanned += ev->cscan.nr_scanned;
		r->mtaken += ev->cscan.nr_taken;
		r->nr_mscans++;
	}
}

/*
 * fast_isolate_freepages(): the free scanner taking pages straight off
 * the free lists, before the linear scan.  Its pages count in the run's
 * free scanner totals, but its range (the lowest pfn it would take ~ the
 * free scanner's position) was not walked: no scan record, no map mark.
 */
static void add_fast_scan(struct fv_compact *c, const struct fv_event *ev)
{
	struct fv_crun *r = open_run(c, ev->cscan.pid);

	if (!r)
		return;
	r->fscanned += ev->cscan.nr_scanned;
	r->ftaken += ev->cscan.nr_taken;
	r->nr_fscans++;
}

static void add_note(struct fv_compact *c, const struct fv_event *ev,
		     uint64_t ts, uint8_t ret)
{
	struct fv_cnote *n = PUSH(c, notes, nr_notes, notes_cap);

	n->ts = ts;
	n->pid = ev->czone.pid;
	n->nid = ev->kind == FV_EV_CTRY ? -1 : ev->czone.nid;
	n->order = ev->czone.order;
	n->prio = ev->kind == FV_EV_CTRY ? ev->czone.prio : -1;
	n->kind = ev->kind;
	n->zone = ev->kind == FV_EV_CTRY ? FV_ZONE_UNKNOWN : ev->czone.zone;
	n->ret = ret;
}

/* suitable before a begin, finished inside a run: node, zone, order */
static void zone_event(struct fv_compact *c, const struct fv_event *ev,
		       uint64_t ts)
{
	struct fv_crun *r = open_run(c, ev->czone.pid);
	uint8_t ret = ev->czone.ret < FV_CS_NR ? ev->czone.ret : FV_CS_UNKNOWN;
	struct fv_ctask *t;

	if (ev->kind != FV_EV_CFINISHED)
		add_note(c, ev, ts, ret);

	switch (ev->kind) {
	case FV_EV_CSUITABLE:
		outcome(c, ev->czone.nid, ev->czone.zone,
			ev->czone.order)->suitable[ret]++;
		t = task(c, ev->czone.pid, true);
		t->nid = ev->czone.nid;
		t->zone = ev->czone.zone;
		t->order = ev->czone.order;
		break;
	case FV_EV_CDEFERRED:
		outcome(c, ev->czone.nid, ev->czone.zone,
			ev->czone.order)->deferred++;
		break;
	case FV_EV_CFINISHED:
		if (r && r->nid < 0) {
			r->nid = ev->czone.nid;
			r->zone = ev->czone.zone;
		}
		if (r && r->order == FV_ORDER_UNKNOWN)
			r->order = ev->czone.order;
		break;
	case FV_EV_CTRY:
		t = task(c, ev->czone.pid, true);
		t->prio = ev->czone.prio;
		if (t->order == FV_ORDER_UNKNOWN)
			t->order = ev->czone.order;
		break;
	}
}

void fv_compact_end_migrate_call(struct fv_compact *c, int32_t pid)
{
	fv_migcall_end(&c->calls, pid);
}

/*
 * A folio's attempt: a failure is pushed when it comes, in time order,
 * and marked retried when the folio's next attempt in the call comes.
 */
static void add_attempt(struct fv_compact *c, const struct fv_event *ev,
			uint64_t ts)
{
	struct fv_cfail *f;
	uint64_t retried;

	if (fv_migcall_attempt(&c->calls, ev, c->nr_fails, &retried))
		c->fails[retried].retried = true;
	if (!fv_mig_failed(ev))
		return;
	f = PUSH(c, fails, nr_fails, fails_cap);
	f->ts = ts;
	f->pfn = ev->migrate.src_pfn;
	f->result = ev->migrate.result;
	f->reason = ev->migrate.reason;
}

void fv_compact_apply(struct fv_compact *c, const struct fv_event *ev,
		      uint64_t ts)
{
	bool attempt = ev->kind == FV_EV_MIGRATE ||
		       ev->kind == FV_EV_MIGRATE_FAILED;
	struct fv_crun *r;

	if (ev->kind == FV_EV_MIGRATE_SUM)
		fv_compact_end_migrate_call(c, ev->msum.pid);
	if (!fv_compact_kind(ev->kind) && !attempt)
		return;
	/* records in the order of the model's (fv_model_apply()) */
	if (ts < c->last_ts)
		ts = c->last_ts;
	c->last_ts = ts;
	/*
	 * migrate_folio_failed: the failures of a default recording (a
	 * capture with migrate_folio too has them twice: capture.c drops
	 * them, migform.h)
	 */
	if (attempt) {
		add_attempt(c, ev, ts);
		return;
	}
	if (!fv_compact_kind(ev->kind))
		return;
	c->nr_events++;
	switch (ev->kind) {
	case FV_EV_CSCAN_MIGRATE:
	case FV_EV_CSCAN_FREE:
		add_scan(c, ev, ts);
		break;
	case FV_EV_CSCAN_FAST:
		add_fast_scan(c, ev);
		break;
	case FV_EV_CBEGIN:
		begin_run(c, ev, ts);
		break;
	case FV_EV_CEND:
		end_run(c, ev, ts);
		break;
	case FV_EV_CMIGRATED:
		r = open_run(c, ev->cmig.pid);
		if (r) {
			r->migrated += ev->cmig.nr_migrated;
			r->failed += ev->cmig.nr_failed;
		}
		break;
	case FV_EV_CSUITABLE:
	case FV_EV_CFINISHED:
	case FV_EV_CDEFERRED:
	case FV_EV_CTRY:
		zone_event(c, ev, ts);
		break;
	case FV_EV_ALLOC:
		if (ev->alloc.order < 0 || (unsigned int)ev->alloc.order < c->min_order) {
			c->nr_allocs_low++;
			break;
		}
		{
			struct fv_halloc *a = PUSH(c, allocs, nr_allocs, allocs_cap);

			a->ts = ts;
			a->pfn = ev->alloc.pfn;
			a->gfp = ev->alloc.gfp;
			a->pid = ev->alloc.pid;
			a->order = ev->alloc.order > 255 ? 255 : ev->alloc.order;
			a->mt = ev->alloc.mt;
			a->ok = ev->alloc.pfn != UINT64_MAX;
			a->notes_at = c->nr_notes;
			a->runs_at = c->nr_runs;
			a->fails_at = c->nr_fails;
		}
		break;
	}
}

static int cmp_outcome(const void *pa, const void *pb)
{
	const struct fv_coutcome *a = pa, *b = pb;

	if (a->nid != b->nid)
		return a->nid < b->nid ? -1 : 1;
	if (a->zone != b->zone)
		return a->zone < b->zone ? -1 : 1;
	return a->order < b->order ? -1 : a->order > b->order;
}

/*
 * The failures are the folios' last attempts: drop the retried ones,
 * and renumber the allocations' fails_at (failures before them) to
 * match.  The capture's end ends every call.
 */
static void drop_retried(struct fv_compact *c)
{
	uint32_t *kept_before = xmalloc((c->nr_fails + 1) * sizeof(*kept_before));
	size_t k = 0;

	for (size_t i = 0; i < c->nr_fails; i++) {
		kept_before[i] = k;
		if (c->fails[i].retried)
			c->nr_retried++;
		else
			c->fails[k++] = c->fails[i];
	}
	kept_before[c->nr_fails] = k;
	c->nr_fails = k;
	for (size_t i = 0; i < c->nr_allocs; i++)
		c->allocs[i].fails_at = kept_before[c->allocs[i].fails_at];
	free(kept_before);
	fv_migcall_free(&c->calls);
}

void fv_compact_finish(struct fv_compact *c, const struct fv_model *m)
{
	size_t k = 0;

	drop_retried(c);

	/* allocations below the capture's pageblock_order are not ours */
	for (size_t i = 0; i < c->nr_allocs; i++) {
		if (c->allocs[i].order >= m->pageblock_order)
			c->allocs[k++] = c->allocs[i];
		else
			c->nr_allocs_low++;
	}
	c->nr_allocs = k;
	for (size_t i = 0; i < c->nr_runs; i++) {
		struct fv_crun *r = &c->runs[i];

		if (r->nid < 0) {
			long b = fv_model_find_block(m, r->zone_start);

			if (b < 0)
				b = fv_model_find_block(m, r->migrate_begin);
			if (b >= 0) {
				r->nid = m->blocks[b].nid;
				r->zone = m->blocks[b].zone;
			}
		}
		outcome(c, r->nid, r->zone, r->order)->runs[r->status]++;
	}
	for (size_t i = 0; i < c->nr_allocs; i++) {
		struct fv_coutcome *o = outcome(c, -1, FV_ZONE_UNKNOWN,
						c->allocs[i].order);

		o->allocs++;
		o->alloc_fails += !c->allocs[i].ok;
	}
	if (c->nr_outcomes)
		qsort(c->outcomes, c->nr_outcomes, sizeof(*c->outcomes),
		      cmp_outcome);
}

bool fv_compact_any(const struct fv_compact *c)
{
	return c && (c->nr_events || c->nr_fails);
}

/* Entries of arr[n] (size bytes each, a uint64_t ts first, in time
 * order) with ts <= ts. */
static size_t upto(const void *arr, size_t n, size_t size, uint64_t ts)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		uint64_t t;

		memcpy(&t, (const char *)arr + mid * size, sizeof(t));
		if (t <= ts)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

_Static_assert(offsetof(struct fv_cscan, ts) == 0 &&
	       offsetof(struct fv_cfail, ts) == 0, "upto() reads ts first");

size_t fv_compact_scans_upto(const struct fv_compact *c, uint64_t ts)
{
	return upto(c->scans, c->nr_scans, sizeof(*c->scans), ts);
}

size_t fv_compact_fails_upto(const struct fv_compact *c, uint64_t ts)
{
	return upto(c->fails, c->nr_fails, sizeof(*c->fails), ts);
}

size_t fv_compact_scan_blocks(const struct fv_model *m,
			      const struct fv_cscan *sc,
			      struct fv_cpiece *out)
{
	uint64_t ppb = 1ULL << m->pageblock_order;
	uint64_t end = sc->end > sc->start ? sc->end : sc->start + 1;
	size_t n = 0;

	if (end - sc->start > FV_CPIECES * ppb)
		end = sc->start + FV_CPIECES * ppb;
	for (uint64_t b = fv_block_start(m, sc->start);
	     b < end && n < FV_CPIECES; b += ppb) {
		long i = fv_model_find_block(m, b);

		if (i >= 0)
			out[n++] = (struct fv_cpiece){
				.block = i,
				.lo = sc->start > b ? sc->start - b : 0,
				.hi = end - b < ppb ? end - b : ppb };
		if (b + ppb < b)
			break;
	}
	return n;
}

static void widen(uint32_t *lo, uint32_t *hi, uint32_t a, uint32_t b,
		  bool first)
{
	if (first || a < *lo)
		*lo = a;
	if (first || b > *hi)
		*hi = b;
}

size_t fv_compact_marks(const struct fv_compact *c, const struct fv_model *m,
			uint64_t ts, struct fv_cmark *marks)
{
	struct fv_cpiece pc[FV_CPIECES];
	size_t nr = 0;

	memset(marks, 0, m->nr_blocks * sizeof(*marks));
	for (size_t s = 0, n = fv_compact_scans_upto(c, ts); s < n; s++) {
		const struct fv_cscan *sc = &c->scans[s];
		uint8_t bit = sc->free ? FV_CMARK_FREE : FV_CMARK_MIGRATE;

		for (size_t j = 0, np = fv_compact_scan_blocks(m, sc, pc); j < np; j++) {
			struct fv_cmark *k = &marks[pc[j].block];

			if (!k->flags)
				nr++;
			if (sc->free)
				widen(&k->flo, &k->fhi, pc[j].lo, pc[j].hi,
				      !(k->flags & bit));
			else
				widen(&k->mlo, &k->mhi, pc[j].lo, pc[j].hi,
				      !(k->flags & bit));
			k->flags |= bit;
		}
	}
	for (size_t f = 0, n = fv_compact_fails_upto(c, ts); f < n; f++) {
		long i = fv_model_find_block(m, c->fails[f].pfn);

		if (i < 0)
			continue;
		if (!marks[i].flags)
			nr++;
		marks[i].flags |= FV_CMARK_FAIL;
		marks[i].nr_fail++;
		marks[i].fail_result = c->fails[f].result;
	}
	return nr;
}

const char *fv_errno_name(int32_t result)
{
	static const struct { int e; const char *name; } tab[] = {
		{ 1, "EPERM" }, { 2, "ENOENT" }, { 5, "EIO" }, { 11, "EAGAIN" },
		{ 12, "ENOMEM" }, { 14, "EFAULT" }, { 16, "EBUSY" },
		{ 22, "EINVAL" }, { 28, "ENOSPC" }, { 38, "ENOSYS" },
		{ 133, "EHWPOISON" },
	};

	for (size_t i = 0; i < sizeof(tab) / sizeof(tab[0]); i++)
		if (result == -tab[i].e)
			return tab[i].name;
	return NULL;
}

static int cmp_ctl(const void *pa, const void *pb)
{
	const struct fv_ctl *a = pa, *b = pb;

	if (a->ts != b->ts)
		return a->ts < b->ts ? -1 : 1;
	if (a->run != b->run)
		return a->run ? 1 : -1;
	return a->idx < b->idx ? -1 : a->idx > b->idx;
}

struct fv_ctl *fv_compact_timeline(const struct fv_compact *c, size_t *nr)
{
	struct fv_ctl *t = xmalloc((c->nr_allocs + c->nr_runs + 1) * sizeof(*t));
	size_t n = 0;

	for (size_t i = 0; i < c->nr_allocs; i++)
		t[n++] = (struct fv_ctl){ .ts = c->allocs[i].ts, .idx = i };
	for (size_t i = 0; i < c->nr_runs; i++)
		t[n++] = (struct fv_ctl){
			.ts = c->runs[i].have_end ? c->runs[i].ts_end :
						    c->runs[i].ts_begin,
			.idx = i, .run = true };
	qsort(t, n, sizeof(*t), cmp_ctl);
	*nr = n;
	return t;
}
