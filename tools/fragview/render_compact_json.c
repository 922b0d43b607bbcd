// SPDX-License-Identifier: GPL-2.0
/*
 * render_compact_json.c - "fragview compact" as one JSON object:
 *   {"capture", "pageblock_order", "runs":[...], "outcomes":[...],
 *    "migration_failures":[...], "timeline":[...]}
 * (with --timeline: capture, pageblock_order and timeline only).
 * Times in ns of the trace clock; null: unknown.
 */
#include <inttypes.h>

#include "compaction.h"
#include "render.h"
#include "render_compact.h"
#include "text.h"

static void put_where(FILE *out, int32_t nid, uint8_t zone)
{
	if (nid >= 0)
		fprintf(out, "\"node\":%d,\"zone\":\"%s\"", nid, fv_zone_name(zone));
	else
		fputs("\"node\":null,\"zone\":null", out);
}

static void put_order(FILE *out, int32_t order)
{
	if (order != FV_ORDER_UNKNOWN)
		fprintf(out, ",\"order\":%d", order);
	else
		fputs(",\"order\":null", out);
}

static void put_counts(FILE *out, const char *key, const uint32_t *n)
{
	bool any = false;

	fprintf(out, ",\"%s\":{", key);
	for (int s = 0; s < FV_CS_NR; s++) {
		if (!n[s])
			continue;
		fprintf(out, "%s\"%s\":%u", any ? "," : "", fv_cstatus_name(s), n[s]);
		any = true;
	}
	fputc('}', out);
}

static void put_runs(FILE *out, const struct fv_compact *c)
{
	fputs(",\n\"runs\":[", out);
	for (size_t i = 0; i < c->nr_runs; i++) {
		const struct fv_crun *r = &c->runs[i];

		fprintf(out, "%s{\"run\":%zu,\"begin_ns\":%" PRIu64 ",\"end_ns\":",
			i ? ",\n" : "", i, r->ts_begin);
		if (r->have_end)
			fprintf(out, "%" PRIu64, r->ts_end);
		else
			fputs("null", out);
		fprintf(out, ",\"pid\":%d,", r->pid);
		put_where(out, r->nid, r->zone);
		put_order(out, r->order);
		fprintf(out, ",\"mode\":\"%s\",\"prio\":", r->sync ? "sync" : "async");
		if (r->prio >= 0)
			fprintf(out, "%d", r->prio);
		else
			fputs("null", out);
		fputs(",\"status\":", out);
		if (r->have_end)
			fprintf(out, "\"%s\"", fv_cstatus_name(r->status));
		else
			fputs("null", out);
		fprintf(out, ",\"zone_start\":%" PRIu64 ",\"zone_end\":%" PRIu64
			",\"migrate\":{\"begin\":%" PRIu64 ",\"end\":%" PRIu64
			",\"passes\":%u,\"scanned\":%" PRIu64 ",\"taken\":%" PRIu64
			"},\"free\":{\"begin\":%" PRIu64 ",\"end\":%" PRIu64
			",\"passes\":%u,\"scanned\":%" PRIu64 ",\"taken\":%" PRIu64
			"},\"migrated\":%" PRIu64 ",\"failed\":%" PRIu64 "}",
			r->zone_start, r->zone_end, r->migrate_begin,
			r->migrate_end, r->nr_mscans, r->mscanned, r->mtaken,
			r->free_begin, r->free_end, r->nr_fscans, r->fscanned,
			r->ftaken, r->migrated, r->failed);
	}
	fputc(']', out);
}

static void put_outcomes(FILE *out, const struct fv_compact *c)
{
	fputs(",\n\"outcomes\":[", out);
	for (size_t i = 0; i < c->nr_outcomes; i++) {
		const struct fv_coutcome *o = &c->outcomes[i];

		fputs(i ? ",\n{" : "{", out);
		put_where(out, o->nid, o->zone);
		put_order(out, o->order);
		put_counts(out, "runs", o->runs);
		put_counts(out, "suitable", o->suitable);
		fprintf(out, ",\"deferred\":%u,\"allocs\":%u,\"alloc_fails\":%u}",
			o->deferred, o->allocs, o->alloc_fails);
	}
	fputc(']', out);
}

static void put_fails(FILE *out, const struct fv_model *m,
		      const struct fv_compact *c)
{
	struct compact_fail_count fc[COMPACT_MAX_RESULTS];
	size_t n = compact_count_fails(c, m->pageblock_order, fc);

	fputs(",\n\"migration_failures\":[", out);
	for (size_t i = 0; i < n; i++) {
		const char *e = fv_errno_name(fc[i].result);

		fprintf(out, "%s{\"result\":%d,\"errno\":", i ? "," : "",
			fc[i].result);
		if (e)
			fprintf(out, "\"%s\"", e);
		else
			fputs("null", out);
		fprintf(out, ",\"pages\":%zu,\"blocks\":%zu}", fc[i].pages,
			fc[i].blocks);
	}
	fputc(']', out);
}

static void put_timeline(FILE *out, const struct fv_compact *c)
{
	struct fv_ctl *tl;
	size_t n;

	tl = fv_compact_timeline(c, &n);
	fputs(",\n\"timeline\":[", out);
	for (size_t i = 0; i < n; i++) {
		fprintf(out, "%s{\"ts\":%" PRIu64 ",", i ? ",\n" : "", tl[i].ts);
		if (tl[i].run) {
			const struct fv_crun *r = &c->runs[tl[i].idx];

			fputs("\"event\":\"compact\",", out);
			put_where(out, r->nid, r->zone);
			put_order(out, r->order);
			fputs(",\"outcome\":", out);
			if (r->have_end)
				fprintf(out, "\"%s\"", fv_cstatus_name(r->status));
			else
				fputs("null", out);
			fprintf(out, ",\"pid\":%d,\"run\":%u}", r->pid, tl[i].idx);
		} else {
			const struct fv_halloc *a = &c->allocs[tl[i].idx];

			fprintf(out, "\"event\":\"alloc\",\"order\":%u,\"outcome\":\"%s\",\"pfn\":",
				a->order, a->ok ? "ok" : "failed");
			if (a->ok)
				fprintf(out, "%" PRIu64, a->pfn);
			else
				fputs("null", out);
			fprintf(out, ",\"migratetype\":\"%s\",\"gfp\":%" PRIu64
				",\"pid\":%d}", fv_mt_name(a->mt), a->gfp, a->pid);
		}
	}
	fputc(']', out);
	free(tl);
}

int render_compact_json(FILE *out, const struct fv_model *m,
			const struct compact_opts *o)
{
	const struct fv_compact *c = m->compact;

	fputs("{\"capture\":", out);
	text_put_json(out, o->title ? o->title : "-", TEXT_JSON);
	fprintf(out, ",\"pageblock_order\":%u,\"allocs_recorded\":%s",
		m->pageblock_order, c->have_alloc_event ? "true" : "false");
	if (!o->timeline) {
		put_runs(out, c);
		put_outcomes(out, c);
		put_fails(out, m, c);
	}
	put_timeline(out, c);
	fputs("}\n", out);
	return 0;
}
