// SPDX-License-Identifier: GPL-2.0
/*
 * render_compact_txt.c - "fragview compact" as text: what compaction did
 * (runs, scanner ranges, outcomes per zone and order) and what the
 * high-order allocations got (the timeline).
 */
#include <inttypes.h>

#include "compaction.h"
#include "render.h"
#include "render_compact.h"
#include "text.h"

static void put_order(FILE *out, int32_t order)
{
	if (order == FV_ORDER_UNKNOWN)
		fprintf(out, " %-6s", "?");
	else if (order < 0)
		fprintf(out, " %-6s", "zone");
	else
		fprintf(out, " %-6d", order);
}

static void put_where(FILE *out, int32_t nid, uint8_t zone)
{
	if (nid < 0)
		fprintf(out, " %4s %-8s", "-", zone == FV_ZONE_UNKNOWN ? "-" :
			fv_zone_name(zone));
	else
		fprintf(out, " %4d %-8s", nid, fv_zone_name(zone));
}

static void put_summary(FILE *out, const struct fv_model *m,
			const struct fv_compact *c)
{
	struct compact_totals t;

	compact_totals(c, &t);
	fprintf(out, "compaction: %zu runs (%zu ended), %zu scanner passes "
		"(migrate %zu, free %zu; %zu outside a run), %zu pages failed to migrate\n",
		c->nr_runs, t.ended, c->nr_scans, t.mpasses, t.fpasses,
		t.outside, c->nr_fails);
	if (c->have_alloc_event)
		fprintf(out, "high-order allocations (order >= %u): %zu, %zu failed\n",
			m->pageblock_order, c->nr_allocs, t.alloc_fails);
	else
		fputs("high-order allocations: not recorded (no kmem:mm_page_alloc in the capture)\n",
		      out);
}

static void put_outcomes(FILE *out, const struct fv_compact *c)
{
	bool head = false;

	for (size_t i = 0; i < c->nr_outcomes; i++) {
		const struct fv_coutcome *o = &c->outcomes[i];
		uint32_t runs = 0;

		for (int s = 0; s < FV_CS_NR; s++)
			runs += o->runs[s];
		if (!runs && !o->deferred && !compact_nr_suitable(o))
			continue;
		if (!head)
			fprintf(out, "\nOutcomes by zone and order (order 'zone': whole zones, compact_memory or proactive)\n"
				"%4s %-8s %-6s %5s %8s  %s\n", "node", "zone",
				"order", "runs", "deferred", "runs ended with; suitable said");
		head = true;
		put_where(out, o->nid, o->zone);
		put_order(out, o->order);
		fprintf(out, " %5u %8u  ", runs, o->deferred);
		compact_put_counts(out, o->runs, "-");
		if (compact_nr_suitable(o)) {
			fputs("; ", out);
			compact_put_counts(out, o->suitable, "");
		}
		fputc('\n', out);
	}
}

static void put_runs(FILE *out, const struct fv_compact *c)
{
	if (!c->nr_runs)
		return;
	fprintf(out, "\nRuns (migrate scanner: up from its start; free scanner: down)\n"
		"%4s %14s %10s %7s %4s %-8s %-6s %-5s %-27s %8s %6s %-27s %8s %6s %8s %6s  %s\n",
		"#", "begin (s)", "took (ms)", "pid", "node", "zone", "order",
		"mode", "migrate scanner", "scanned", "taken", "free scanner",
		"scanned", "taken", "migrated", "failed", "status");
	for (size_t i = 0; i < c->nr_runs; i++) {
		const struct fv_crun *r = &c->runs[i];
		char mig[64], fre[64];

		snprintf(mig, sizeof(mig), "0x%" PRIx64 "->0x%" PRIx64,
			 r->migrate_begin, r->migrate_end);
		snprintf(fre, sizeof(fre), "0x%" PRIx64 "->0x%" PRIx64,
			 r->free_begin, r->free_end);
		fprintf(out, "%4zu %14.6f ", i, r->ts_begin / 1e9);
		if (r->have_end)
			fprintf(out, "%10.3f", (r->ts_end - r->ts_begin) / 1e6);
		else
			fprintf(out, "%10s", "-");
		fprintf(out, " %7d", r->pid);
		put_where(out, r->nid, r->zone);
		put_order(out, r->order);
		fprintf(out, " %-5s %-27s %8" PRIu64 " %6" PRIu64 " %-27s %8" PRIu64
			" %6" PRIu64 " %8" PRIu64 " %6" PRIu64 "  %s\n",
			r->sync ? "sync" : "async", mig, r->mscanned, r->mtaken,
			fre, r->fscanned, r->ftaken, r->migrated, r->failed,
			r->have_end ? fv_cstatus_name(r->status) : "(no end)");
	}
}

static void put_fails(FILE *out, const struct fv_model *m,
		      const struct fv_compact *c)
{
	struct compact_fail_count fc[COMPACT_MAX_RESULTS];
	size_t n = compact_count_fails(c, m->pageblock_order, fc);

	if (!n)
		return;
	fputs("\nMigration failures (mobility:migrate_folio)\n", out);
	for (size_t i = 0; i < n; i++) {
		const char *e = fv_errno_name(fc[i].result);

		fprintf(out, "%8d %-10s %8zu pages in %zu blocks\n", fc[i].result,
			e ? e : "?", fc[i].pages, fc[i].blocks);
	}
}

static void put_timeline(FILE *out, const struct fv_model *m,
			 const struct fv_compact *c)
{
	struct fv_ctl *tl;
	size_t n;

	tl = fv_compact_timeline(c, &n);
	fprintf(out, "\nHigh-order timeline: allocations of order >= %u, compaction run ends\n"
		"%14s %-8s %4s %-8s %-6s %-16s %s\n", m->pageblock_order,
		"time (s)", "event", "node", "zone", "order", "outcome", "detail");
	for (size_t i = 0; i < n; i++) {
		fprintf(out, "%14.6f ", tl[i].ts / 1e9);
		if (tl[i].run) {
			const struct fv_crun *r = &c->runs[tl[i].idx];

			fputs("compact ", out);
			put_where(out, r->nid, r->zone);
			put_order(out, r->order);
			fprintf(out, " %-16s run %u, pid %d, migrated %" PRIu64
				", failed %" PRIu64 "\n",
				r->have_end ? fv_cstatus_name(r->status) : "(no end)",
				tl[i].idx, r->pid, r->migrated, r->failed);
		} else {
			const struct fv_halloc *a = &c->allocs[tl[i].idx];

			fputs("alloc   ", out);
			put_where(out, -1, FV_ZONE_UNKNOWN);
			put_order(out, a->order);
			fprintf(out, " %-16s ", a->ok ? "ok" : "FAILED");
			if (a->ok)
				fprintf(out, "pfn 0x%" PRIx64 ", ", a->pfn);
			fprintf(out, "%s, gfp 0x%" PRIx64 ", pid %d\n",
				fv_mt_name(a->mt), a->gfp, a->pid);
		}
	}
	if (!n)
		fputs("(none)\n", out);
	free(tl);
}

int render_compact_txt(FILE *out, const struct fv_model *m,
		       const struct compact_opts *o)
{
	const struct fv_compact *c = m->compact;

	fputs("fragview compact: ", out);
	text_put_txt(out, o->title ? o->title : "-");
	fputc('\n', out);
	put_summary(out, m, c);
	if (!o->timeline) {
		put_outcomes(out, c);
		put_runs(out, c);
		put_fails(out, m, c);
	}
	put_timeline(out, m, c);
	return 0;
}
