// SPDX-License-Identifier: GPL-2.0
/* render_stats_txt.c - statistics as tables for people. */
#include <inttypes.h>
#include <string.h>

#include "integrity.h"
#include "blame.h"
#include "render.h"
#include "render_stats_census.h"
#include "stats.h"
#include "table.h"

static const char *result_name(int32_t r)
{
	/* INT32_MIN has no positive counterpart (and is no errno) */
	const char *n = r < 0 && r > INT32_MIN ? strerrorname_np(-r) : NULL;

	return r == 0 ? "success" : n ? n : "?";
}

static void pct(FILE *out, uint64_t part, uint64_t whole)
{
	if (whole)
		fprintf(out, " (%" PRIu64 ".%" PRIu64 "%%)", part * 100 / whole,
			part * 1000 / whole % 10);
}

#define STEAL_DETAIL_ROWS 12

static void steals(FILE *out, const struct fv_stats *s)
{
	uint64_t pair[FV_MT_NR][FV_MT_NR][2] = { { { 0 } } };
	size_t shown = 0;

	fprintf(out, "Steals (fallback allocations): %" PRIu64 ", claimed the block: %" PRIu64,
		s->nr_steals, s->nr_claimed);
	pct(out, s->nr_claimed, s->nr_steals);
	fputc('\n', out);
	if (s->nr_extfrag)
		fprintf(out, "  (%" PRIu64 " from kmem:mm_page_alloc_extfrag: 'claimed' is its change_ownership)\n",
			s->nr_extfrag);
	if (!s->nr_steal_rows)
		return;
	for (size_t i = 0; i < s->nr_steal_rows; i++) {
		const struct fv_steal_row *r = &s->steals[i];

		pair[r->alloc_mt % FV_MT_NR][r->block_mt % FV_MT_NR][r->claimed] += r->count;
	}
	fprintf(out, "  %-12s %-12s %10s %10s\n", "allocation", "from block",
		"steals", "claimed");
	for (int a = 0; a < FV_MT_NR; a++)
		for (int b = 0; b < FV_MT_NR; b++)
			if (pair[a][b][0] + pair[a][b][1])
				fprintf(out, "  %-12s %-12s %10" PRIu64 " %10" PRIu64 "\n",
					fv_mt_name(a), fv_mt_name(b),
					pair[a][b][0] + pair[a][b][1], pair[a][b][1]);
	fprintf(out, "  most frequent by order:\n");
	fprintf(out, "  %-12s %-12s %-7s %5s %8s %10s\n", "allocation", "from block",
		"claimed", "order", "fallback", "count");
	for (; shown < s->nr_steal_rows && shown < STEAL_DETAIL_ROWS; shown++) {
		const struct fv_steal_row *r = &s->steals[shown];

		fprintf(out, "  %-12s %-12s %-7s %5u %8u %10" PRIu64 "\n",
			fv_mt_name(r->alloc_mt), fv_mt_name(r->block_mt),
			r->claimed ? "yes" : "no", r->order, r->fallback_order,
			r->count);
	}
	if (shown < s->nr_steal_rows)
		fprintf(out, "  ... %zu more rows (--format csv or json has them all)\n",
			s->nr_steal_rows - shown);
}

static void flips(FILE *out, const struct fv_stats *s)
{
	fprintf(out, "\nPageblock flips: %" PRIu64 "\n", s->nr_flips);
	if (!s->nr_flip_rows)
		return;
	fprintf(out, "  %-12s %-12s %-20s %10s\n", "old", "new", "reason", "count");
	for (size_t i = 0; i < s->nr_flip_rows; i++) {
		const struct fv_flip_row *r = &s->flips[i];

		fprintf(out, "  %-12s %-12s %-20s %10" PRIu64 "\n",
			fv_mt_name(r->old_mt), fv_mt_name(r->new_mt),
			fv_flip_reason_name(r->reason), r->count);
	}
}

static void drains(FILE *out, const struct fv_stats *s)
{
	fprintf(out, "\nPer-cpu list drains: %" PRIu64 ", pages returned: %" PRIu64 "\n",
		s->nr_drains, s->nr_drained_pages);
	if (!s->nr_drain_rows)
		return;
	fprintf(out, "  %4s", "cpu");
	for (int r = 0; r < FV_DRAIN_NR - 1; r++)
		fprintf(out, " %15s", fv_drain_reason_name(r));
	for (int t = 0; t < FV_DRAIN_LISTS; t++)
		fprintf(out, " %11s", fv_drain_list_name(t));
	fputc('\n', out);
	for (size_t i = 0; i < s->nr_drain_rows; i++) {
		const struct fv_drain_row *d = &s->drains[i];

		fprintf(out, "  %4d", d->cpu);
		for (int r = 0; r < FV_DRAIN_NR - 1; r++) {
			char cell[48];

			snprintf(cell, sizeof(cell), "%" PRIu64 "/%" PRIu64 "p",
				 d->drains[r], d->pages[r]);
			fprintf(out, " %15s", cell);
		}
		for (int t = 0; t < FV_DRAIN_LISTS; t++)
			fprintf(out, " %11" PRIu64, d->by_type[t]);
		fputc('\n', out);
	}
	fprintf(out, "  (cells: drains/pages)\n");
}

static void migrations(FILE *out, const struct fv_stats *s)
{
	fprintf(out, "\nMigrations: %" PRIu64 " succeeded, %" PRIu64 " failed",
		s->nr_migrate_ok, s->nr_migrate_fail);
	pct(out, s->nr_migrate_ok, s->nr_migrate_ok + s->nr_migrate_fail);
	fputc('\n', out);
	if (!s->nr_migrate_rows)
		return;
	fprintf(out, "  %-18s %-21s %10s %10s %7s\n", "reason", "mode", "ok",
		"failed", "success");
	for (size_t i = 0; i < s->nr_migrate_rows; i++) {
		const struct fv_migrate_row *r = &s->migrations[i];

		fprintf(out, "  %-18s %-21s %10" PRIu64 " %10" PRIu64 " %5u.%u%%%s\n",
			fv_mr_name(r->reason), fv_mode_name(r->mode), r->ok,
			r->failed, r->rate_permille / 10, r->rate_permille % 10,
			r->stock ? "  (migrate:mm_migrate_pages)" : "");
	}
	if (s->nr_results) {
		fprintf(out, "  results:");
		for (size_t i = 0; i < s->nr_results; i++)
			fprintf(out, " %s %" PRIu64, result_name(s->results[i].result),
				s->results[i].count);
		if (s->results_other)
			fprintf(out, " other %" PRIu64, s->results_other);
		fputc('\n', out);
	}
}

static void frag_lines(FILE *out, const char *when, const struct fv_frag *f)
{
	if (!f->valid)
		return;
	fprintf(out, "    %-5s free pages %" PRIu64 "\n", when, f->free_pages);
	fprintf(out, "      %-22s", "order");
	for (int o = 0; o < FV_MAX_ORDER; o++)
		fprintf(out, " %6d", o);
	fprintf(out, "\n      %-22s", "free blocks (est.)");
	for (int o = 0; o < FV_MAX_ORDER; o++)
		fprintf(out, " %6" PRIu64, f->nr_free[o]);
	fprintf(out, "\n      %-22s", "unusable free index");
	for (int o = 0; o < FV_MAX_ORDER; o++)
		fprintf(out, " %2d.%03d", f->unusable[o] / 1000, f->unusable[o] % 1000);
	fprintf(out, "\n      %-22s", "fragmentation index");
	for (int o = 0; o < FV_MAX_ORDER; o++) {
		int v = f->fragindex[o];

		if (v < 0)	/* -1000: a request of this order would succeed */
			fprintf(out, " %6s", "-1");
		else
			fprintf(out, " %2d.%03d", v / 1000, v % 1000);
	}
	fputc('\n', out);
}

static void zones(FILE *out, const struct fv_stats *s)
{
	if (!s->nr_zones)
		return;
	fprintf(out, "\nPageblocks per zone (start -> end of the capture):\n");
	for (size_t z = 0; z < s->nr_zones; z++) {
		const struct fv_zone_stats *zs = &s->zones[z];

		fprintf(out, "  node %d %s:", zs->nid, fv_zone_name(zs->zone));
		for (int t = 0; t < FV_MT_NR; t++)
			if (zs->blocks_start[t] || zs->blocks_end[t])
				fprintf(out, " %s %" PRIu64 "->%" PRIu64, fv_mt_name(t),
					zs->blocks_start[t], zs->blocks_end[t]);
		fputc('\n', out);
		frag_lines(out, "start", &zs->frag_start);
		frag_lines(out, "end", &zs->frag_end);
	}
}

int render_stats_txt(FILE *out, const struct fv_model *m, const struct fv_stats *s)
{
	if (fv_issues_banner(m, fv_banner_text, out))
		fputc('\n', out);
	fprintf(out, "Events:");
	for (int k = 0; k < FV_EV_NR; k++)
		if (m->nr_events[k])
			fprintf(out, " %s %" PRIu64, fv_ev_kind_name(k), m->nr_events[k]);
	fprintf(out, "\nSpan: %" PRIu64 ".%06" PRIu64 " .. %" PRIu64 ".%06" PRIu64 " s",
		m->first_ts / 1000000000, m->first_ts % 1000000000 / 1000,
		m->last_ts / 1000000000, m->last_ts % 1000000000 / 1000);
	fprintf(out, ", snapshots: %u, pageblocks: %zu\n\n", m->nr_snapshots,
		m->nr_blocks);
	steals(out, s);
	flips(out, s);
	drains(out, s);
	migrations(out, s);
	zones(out, s);
	census_stats_txt(out, s);
	if (s->blame && s->blame->nr_recs) {
		struct tab t;

		tab_init(&t, out, TAB_TXT);
		render_blame_stats(&t, s->blame);
	}
	return 0;
}
