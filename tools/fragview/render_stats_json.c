// SPDX-License-Identifier: GPL-2.0
/*
 * render_stats_json.c - statistics as one JSON object.
 *
 * fragview's own names and numbers, and the polluters' names (escaped,
 * text.h); the keys mirror the txt tables.
 */
#include <inttypes.h>

#include "integrity.h"
#include "blame.h"
#include "render.h"
#include "render_stats_census.h"
#include "stats.h"
#include "table.h"
#include "text.h"

static void u64_array(FILE *out, const uint64_t *v, int n)
{
	fputc('[', out);
	for (int i = 0; i < n; i++)
		fprintf(out, "%s%" PRIu64, i ? "," : "", v[i]);
	fputc(']', out);
}

static void int_array(FILE *out, const int *v, int n)
{
	fputc('[', out);
	for (int i = 0; i < n; i++)
		fprintf(out, "%s%d", i ? "," : "", v[i]);
	fputc(']', out);
}

static void types(FILE *out, const uint64_t *count)
{
	fputc('{', out);
	for (int t = 0; t < FV_MT_NR; t++)
		fprintf(out, "%s\"%s\":%" PRIu64, t ? "," : "", fv_mt_name(t), count[t]);
	fputc('}', out);
}

static void frag(FILE *out, const char *key, const struct fv_frag *f)
{
	fprintf(out, ",\"%s\":", key);
	if (!f->valid) {
		fputs("null", out);
		return;
	}
	fprintf(out, "{\"free_pages\":%" PRIu64 ",\"free_blocks_estimated\":",
		f->free_pages);
	u64_array(out, f->nr_free, FV_MAX_ORDER);
	fputs(",\"unusable_index_permille\":", out);
	int_array(out, f->unusable, FV_MAX_ORDER);
	fputs(",\"fragmentation_index_permille\":", out);
	int_array(out, f->fragindex, FV_MAX_ORDER);
	fputc('}', out);
}

/* "issues":[{"kind":..,"text":..}]: lost events, incomplete snapshots */
static void issues(FILE *out, const struct fv_model *m)
{
	struct fv_issues is;
	char line[512];

	if (fv_model_issues(m, &is))
		is.nr = 0;
	fputs("\"exact_replay_possible\":", out);
	fputs(is.nr ? "false" : "true", out);
	fputs(",\"issues\":[", out);
	for (size_t i = 0; i < is.nr; i++) {
		fv_issue_text(&is.v[i], line, sizeof(line));
		fprintf(out, "%s\n {\"kind\":\"%s\",\"count\":%" PRId64
			",\"ts_ns\":%" PRIu64 ",\"text\":", i ? "," : "",
			fv_issue_kind_name(is.v[i].kind), is.v[i].count,
			is.v[i].ts);
		text_put_json(out, line, TEXT_JSON);
		fputc('}', out);
	}
	fputs("],\n", out);
	fv_issues_free(&is);
}

int render_stats_json(FILE *out, const struct fv_model *m, const struct fv_stats *s)
{
	fprintf(out, "{\"schema\":%d,\"events\":{", TAB_SCHEMA);
	for (int k = 0; k < FV_EV_NR; k++)
		fprintf(out, "%s\"%s\":%" PRIu64, k ? "," : "", fv_ev_kind_name(k),
			m->nr_events[k]);
	fprintf(out, "},\n\"first_ts_ns\":%" PRIu64 ",\"last_ts_ns\":%" PRIu64
		",\"snapshots\":%u,\"pageblocks\":%zu,\"pageblock_order\":%u,\n",
		m->first_ts, m->last_ts, m->nr_snapshots, m->nr_blocks,
		m->pageblock_order);
	issues(out, m);

	fprintf(out, "\"steals\":{\"total\":%" PRIu64 ",\"claimed\":%" PRIu64
		",\"from_extfrag\":%" PRIu64 ",\"rows\":[", s->nr_steals,
		s->nr_claimed, s->nr_extfrag);
	for (size_t i = 0; i < s->nr_steal_rows; i++) {
		const struct fv_steal_row *r = &s->steals[i];

		fprintf(out, "%s\n {\"alloc_mt\":\"%s\",\"block_mt\":\"%s\",\"claimed\":%s,"
			"\"order\":%u,\"fallback_order\":%u,\"count\":%" PRIu64 "}",
			i ? "," : "", fv_mt_name(r->alloc_mt), fv_mt_name(r->block_mt),
			r->claimed ? "true" : "false", r->order, r->fallback_order,
			r->count);
	}
	fprintf(out, "]},\n\"flips\":{\"total\":%" PRIu64 ",\"rows\":[", s->nr_flips);
	for (size_t i = 0; i < s->nr_flip_rows; i++) {
		const struct fv_flip_row *r = &s->flips[i];

		fprintf(out, "%s\n {\"old_mt\":\"%s\",\"new_mt\":\"%s\",\"reason\":\"%s\","
			"\"count\":%" PRIu64 "}", i ? "," : "", fv_mt_name(r->old_mt),
			fv_mt_name(r->new_mt), fv_flip_reason_name(r->reason), r->count);
	}
	fprintf(out, "]},\n\"drains\":{\"total\":%" PRIu64 ",\"pages\":%" PRIu64
		",\"cpus\":[", s->nr_drains, s->nr_drained_pages);
	for (size_t i = 0; i < s->nr_drain_rows; i++) {
		const struct fv_drain_row *d = &s->drains[i];

		fprintf(out, "%s\n {\"cpu\":%d,\"reasons\":{", i ? "," : "", d->cpu);
		for (int r = 0; r < FV_DRAIN_NR; r++)
			fprintf(out, "%s\"%s\":{\"drains\":%" PRIu64 ",\"pages\":%" PRIu64 "}",
				r ? "," : "", fv_drain_reason_name(r), d->drains[r],
				d->pages[r]);
		fputs("},\"pages_by_type\":{", out);
		for (int t = 0; t < FV_DRAIN_LISTS; t++)
			fprintf(out, "%s\"%s\":%" PRIu64, t ? "," : "",
				fv_drain_list_name(t), d->by_type[t]);
		fputs("}}", out);
	}
	fprintf(out, "]},\n\"migrations\":{\"ok\":%" PRIu64 ",\"failed\":%" PRIu64
		",\"rows\":[", s->nr_migrate_ok, s->nr_migrate_fail);
	for (size_t i = 0; i < s->nr_migrate_rows; i++) {
		const struct fv_migrate_row *r = &s->migrations[i];

		fprintf(out, "%s\n {\"reason\":\"%s\",\"mode\":\"%s\",\"source\":\"%s\","
			"\"ok\":%" PRIu64 ",\"failed\":%" PRIu64 ",\"success_permille\":%u}",
			i ? "," : "", fv_mr_name(r->reason), fv_mode_name(r->mode),
			r->stock ? "mm_migrate_pages" : "migrate_folio", r->ok,
			r->failed, r->rate_permille);
	}
	fprintf(out, "],\"results\":[");
	for (size_t i = 0; i < s->nr_results; i++)
		fprintf(out, "%s{\"result\":%d,\"count\":%" PRIu64 "}", i ? "," : "",
			s->results[i].result, s->results[i].count);
	fprintf(out, "],\"results_other\":%" PRIu64 "},\n\"zones\":[", s->results_other);
	for (size_t z = 0; z < s->nr_zones; z++) {
		const struct fv_zone_stats *zs = &s->zones[z];

		fprintf(out, "%s\n {\"node\":%d,\"zone\":\"%s\",\"blocks_start\":",
			z ? "," : "", zs->nid, fv_zone_name(zs->zone));
		types(out, zs->blocks_start);
		fputs(",\"blocks_end\":", out);
		types(out, zs->blocks_end);
		frag(out, "start", &zs->frag_start);
		frag(out, "end", &zs->frag_end);
		fputc('}', out);
	}
	fputc(']', out);
	census_stats_json(out, s);
	if (s->blame && s->blame->nr_recs) {
		struct tab t;

		tab_init_member(&t, out);
		render_blame_stats(&t, s->blame);
	}
	fputs("}\n", out);
	return 0;
}
