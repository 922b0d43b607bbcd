// SPDX-License-Identifier: GPL-2.0
/* capture.c - a capture file into the model (and statistics). */
#include "blame.h"
#include "capture.h"
#include "compaction.h"
#include "integrity.h"
#include "migform.h"
#include "stats.h"
#include "util.h"

struct loader {
	struct fv_model *m;
	struct fv_stats *s;
	struct fv_blame *b;
	struct fv_compact *c;
	const struct fv_trace_info *info;	/* which events the file has */
	struct capture_filter *f;		/* NULL: everything */
	bool started;				/* the window is resolved */
	bool have_form;				/* mig is set (start_form()) */
	struct fv_migform mig;			/* what of the migrations counts */
	/* per CPU: a steal whose mm_page_alloc_extfrag is still to come */
	uint64_t steal_open[CAPTURE_MAX_CPUS / 64];
};

/* The window, once the capture's first event says what "+0" is. */
static void start_window(struct loader *l, uint64_t first_ts)
{
	struct capture_filter *f = l->f;

	l->started = true;
	f->first_ts = first_ts;
	f->from_ns = f->from.set ? opt_time_at(&f->from, first_ts) : 0;
	f->to_ns = f->to.set ? opt_time_at(&f->to, first_ts) : UINT64_MAX;
}

/* ts is in the window (everything without a filter). */
static bool ts_in_window(struct loader *l, uint64_t ts)
{
	if (!l->f)
		return true;
	if (!l->started)
		start_window(l, ts);
	return ts >= l->f->from_ns && ts <= l->f->to_ns;
}

/* The event is in the window; counts those it leaves out. */
static bool in_window(struct loader *l, const struct fv_event *ev)
{
	if (ts_in_window(l, ev->ts))
		return true;
	l->f->nr_outside++;
	return false;
}

/* The event's CPU is one --cpu counts (all without a filter). */
static bool counted_cpu(const struct loader *l, const struct fv_event *ev)
{
	const uint64_t *cpus = l->f ? l->f->cpus : NULL;

	if (!cpus)
		return true;
	return ev->cpu >= 0 && ev->cpu < CAPTURE_MAX_CPUS &&
	       (cpus[ev->cpu / 64] >> (ev->cpu % 64) & 1);
}

/*
 * Is @ev the mm_page_alloc_extfrag of the pageblock_steal just before it
 * on its CPU (its stack aside)?  Keeps each CPU's state: every event but
 * a stack closes the CPU's open steal.  An extfrag without one is a
 * compaction capture of another type (series v3, patch 10), which only
 * the stock event reports.  A declined claim (taken=0) took no page and
 * has no extfrag: it opens nothing, so a capture right after it counts.
 */
static bool extfrag_of_steal(struct loader *l, const struct fv_event *ev)
{
	uint64_t *word, bit;
	bool open;

	if (ev->cpu < 0 || ev->cpu >= CAPTURE_MAX_CPUS || ev->kind == FV_EV_STACK)
		return false;
	word = &l->steal_open[ev->cpu / 64];
	bit = 1ULL << (ev->cpu % 64);
	open = *word & bit;
	*word &= ~bit;
	if (ev->kind == FV_EV_STEAL && !ev->steal.declined)
		*word |= bit;
	return ev->kind == FV_EV_EXTFRAG && open;
}

/*
 * What of the migration events counts depends on which the capture
 * holds (migform.h): the model and the statistics know it before the
 * first event.  The formats come before any record (trace.h).
 */
static void start_form(struct loader *l)
{
	l->have_form = true;
	fv_migform_init(&l->mig, l->info->have);
	l->m->mig = l->mig;
	if (l->s)
		l->s->mig = l->mig;
}

/*
 * The stock events are the fallback for kernels without our series.  A
 * patched kernel emits both for the same allocation or migration, so
 * counting both would count everything twice: the mobility event, which
 * says more, wins.  A capture's extfrag has no mobility event: it counts,
 * as an unclaimed steal, unless its change_ownership says the block
 * already had the request's type (6.1: the page was freed under another
 * type than its block's), where nothing mixes.  The same goes for the
 * migration events: a migrate_folio_failed repeats its migrate_folio,
 * mm_migrate_pages adds up the migrate_folio of its call (fv_mig_role()).
 */
static bool superseded(struct loader *l, const struct fv_event *ev)
{
	bool of_steal = extfrag_of_steal(l, ev);

	if (ev->kind == FV_EV_EXTFRAG && l->info->have[FV_EV_STEAL])
		return of_steal || ev->steal.claimed;
	return fv_mig_role(&l->mig, ev) == FV_MIG_DROP;
}

/*
 * A migrate_pages() call ended (mm_migrate_pages of its task): its
 * folios' failed attempts are final (migcall.h), whether or not the
 * event counts (migform.h) and whichever CPU it ran on, for everyone
 * who counts attempts.
 */
static void end_migrate_call(struct loader *l, const struct fv_event *ev)
{
	fv_model_end_migrate_call(l->m, ev->msum.pid);
	if (l->s)
		fv_stats_end_migrate_call(l->s, ev->msum.pid);
	if (l->c)
		fv_compact_end_migrate_call(l->c, ev->msum.pid);
}

static int on_event(const struct fv_event *ev, void *ctx)
{
	struct loader *l = ctx;

	bool counted;

	if (!l->have_form)
		start_form(l);
	if (superseded(l, ev)) {
		if (ev->kind == FV_EV_MIGRATE_SUM && ts_in_window(l, ev->ts))
			end_migrate_call(l, ev);
		return 0;
	}
	if (!in_window(l, ev))
		return 0;
	/* a stack follows its event on the same CPU: both or neither */
	counted = counted_cpu(l, ev);
	if (l->b && counted)
		fv_blame_apply(l->b, ev);
	if (ev->kind == FV_EV_STACK)
		return 0;
	if (fv_model_apply(l->m, ev))
		return -1;
	if (l->s && counted)
		fv_stats_apply(l->s, ev);
	else if (l->s && ev->kind == FV_EV_MIGRATE_SUM)
		fv_stats_end_migrate_call(l->s, ev->msum.pid);
	if (l->c)
		fv_compact_apply(l->c, ev, ev->ts);
	return 0;
}

static int on_comm(int32_t pid, const char *comm, void *ctx)
{
	struct loader *l = ctx;

	fv_blame_add_comm(l->b, pid, comm);
	return 0;
}

static int on_stack(uint32_t id, const char *frames, void *ctx)
{
	struct loader *l = ctx;

	fv_blame_add_stack(l->b, id, frames);
	return 0;
}

/* The window left events out: messages speak of it, not the capture. */
static bool windowed(const struct capture_filter *f)
{
	return f && f->nr_outside;
}

/* One line when the replay cannot be exact; the details: fragview check. */
static void warn_issues(const char *path, const struct fv_model *m)
{
	struct fv_issues is;
	char sum[256];

	if (fv_model_issues(m, &is))
		die("out of memory");
	if (is.nr) {
		fv_issues_summary(&is, sum, sizeof(sum));
		warn("%s: events are missing, the replay cannot be exact: %s (details: fragview check)",
		     path, sum);
	}
	fv_issues_free(&is);
}

/* fragview compact: the compaction events, or mm_page_alloc. */
static int compaction_needs(const char *path, const struct fv_model *m,
			    const struct fv_trace_info *info)
{
	bool any = false;

	for (int k = FV_EV_FIRST_COMPACT; k < FV_EV_END_COMPACT; k++)
		any |= info->have[k];
	if (!any) {
		warn("%s: no compaction:* or kmem:mm_page_alloc events in this capture",
		     path);
		return -1;
	}
	warn_issues(path, m);
	if (info->nr_bad)
		warn("%s: %llu records too short for their event format were skipped",
		     path, (unsigned long long)info->nr_bad);
	return 0;
}

void capture_free(struct fv_model *m)
{
	fv_compact_free(m->compact);
	fv_model_free(m);
}

int load_capture(const char *path, struct fv_model *m, struct fv_stats *s,
		 enum capture_need need, struct fv_trace_info *info,
		 struct capture_filter *f)
{
	return load_capture_blame(path, m, s, NULL, need, info, f);
}

int load_capture_blame(const char *path, struct fv_model *m,
		       struct fv_stats *s, struct fv_blame *b,
		       enum capture_need need, struct fv_trace_info *info,
		       struct capture_filter *f)
{
	struct loader l = { .m = m, .s = s, .b = b, .info = info, .f = f };
	struct fv_trace_blame tb = { .comm = on_comm, .stack = on_stack,
				     .ctx = &l };
	bool mobility = false, stock;

	/*
	 * Only a map can show the blocks' recent events (the HTML block
	 * details); stats and check would keep them for nothing.
	 */
	m->keep_hist = need == NEED_SNAPSHOT;
	m->keep_steal_times = need == NEED_SNAPSHOT;	/* map --color steals */
	/*
	 * compaction runs: for compact, the map's scanner overlay and
	 * explain's requests
	 */
	if (need == NEED_SNAPSHOT || need == NEED_COMPACTION ||
	    need == NEED_EXPLAIN)
		l.c = m->compact = fv_compact_new();
	if (fv_trace_read_blame(path, info, on_event, &l, b ? &tb : NULL))
		return -1;
	if (!l.have_form)	/* no event: the formats still say what is missing */
		start_form(&l);
	m->expect_snap_events = info->have[FV_EV_SNAPSHOT];
	if (l.c) {
		l.c->have_alloc_event = info->have[FV_EV_ALLOC];
		l.c->have_compaction_events = info->have[FV_EV_CTRY] ||
					      info->have[FV_EV_CBEGIN];
	}
	m->expect_steal_events = info->have[FV_EV_STEAL] ||
				 info->have[FV_EV_EXTFRAG];
	fv_model_finish(m);
	if (l.c)
		fv_compact_finish(l.c, m);
	if (s)
		fv_stats_finish(s, m);
	if (b)
		fv_blame_finish(b, m->pageblock_order);

	if (need == NEED_COMPACTION)
		return compaction_needs(path, m, info);
	for (int k = FV_EV_STATE; k <= FV_EV_MIGRATE; k++)
		mobility |= info->have[k];
	mobility |= info->have[FV_EV_CENSUS] ||
		    info->have[FV_EV_MIGRATE_FAILED] ||
		    info->have[FV_EV_MIGRATE_PASS];
	stock = info->have[FV_EV_EXTFRAG] || info->have[FV_EV_MIGRATE_SUM];
	if (!mobility && !stock) {
		warn("%s: no mobility or kmem/migrate events in this capture", path);
		return -1;
	}
	/* their formats without a record: as unusable as no formats */
	if (!info->nr_events) {
		warn("%s: no mobility or kmem/migrate events in this capture (only their formats)",
		     path);
		return -1;
	}
	warn_issues(path, m);
	if (info->nr_bad)
		warn("%s: %llu records too short for their event format were skipped",
		     path, (unsigned long long)info->nr_bad);
	if (!mobility) {
		if (need >= NEED_SNAPSHOT) {
			warn("%s: stock-kernel capture (kmem/migrate events only): map and check need the mobility events of the patched kernel",
			     path);
			return -1;
		}
		if (need == NEED_ANY || need == NEED_EXPLAIN)
			warn("%s: stock-kernel capture: steals have no zone or node ('claimed' is change_ownership), no flips, drains or per-page migrations; map and check need the patched kernel",
			     path);
		return 0;
	}
	if (need >= NEED_SNAPSHOT && !m->have_baseline) {
		warn("%s: no mobility:pageblock_state snapshot in this %s: nothing to draw the map from",
		     path, windowed(f) ? "window (--from, --to)" : "capture");
		return -1;
	}
	if (need == NEED_TWO_SNAPSHOTS && m->nr_snapshots < 2) {
		warn("%s: check needs two pageblock_state snapshots, the %s has %u",
		     path, windowed(f) ? "window (--from, --to)" : "capture",
		     m->nr_snapshots);
		return -1;
	}
	return 0;
}
