// SPDX-License-Identifier: GPL-2.0
/*
 * render_stats_moves.c - the per-cpu list drains and the migrations of
 * "fragview stats" (a part of the walker of render_stats_table.c).
 */
#include <inttypes.h>
#include <string.h>

#include "render.h"
#include "render_stats.h"

/*
 * txt: two tables, to stay in the 100 columns: per cpu the drains/pages
 * of each reason but the last, then the pages per list type
 */
static void drain_heads(struct tab *t, struct tab_col *cols)
{
	const char *heads[FV_DRAIN_NR] = { "cpu" };

	cols[0] = (struct tab_col){ 4, "  " };
	for (int r = 0; r < FV_DRAIN_NR - 1; r++) {
		cols[1 + r] = (struct tab_col){ 15, NULL };
		heads[1 + r] = fv_drain_reason_name(r);
	}
	tab_txt_head(t, cols, heads, FV_DRAIN_NR);
}

static void pages_by_type(struct tab *t, const struct fv_stats *s)
{
	struct tab_col cols[1 + FV_DRAIN_LISTS] = { { 4, "  " } };
	const char *heads[1 + FV_DRAIN_LISTS] = { "cpu" };

	for (int l = 0; l < FV_DRAIN_LISTS; l++) {
		cols[1 + l] = (struct tab_col){ 11, NULL };
		heads[1 + l] = fv_drain_list_name(l);
	}
	tab_txt(t, "  pages returned per list type:\n");
	tab_txt_head(t, cols, heads, 1 + FV_DRAIN_LISTS);
	for (size_t i = 0; i < s->nr_drain_rows; i++) {
		tab_i64(t, NULL, s->drains[i].cpu);
		for (int l = 0; l < FV_DRAIN_LISTS; l++)
			tab_u64(t, NULL, s->drains[i].by_type[l]);
		tab_row_end(t);
	}
}

static void drain_csv_rows(struct tab *t, const struct fv_drain_row *d)
{
	for (int r = 0; r < FV_DRAIN_NR; r++) {
		if (!d->drains[r])
			continue;
		STATS_ROW(t, .table = "drain", .cpu = d->cpu,
			  .reason = fv_drain_reason_name(r), .metric = "drains",
			  .value = d->drains[r]);
		STATS_ROW(t, .table = "drain", .cpu = d->cpu,
			  .reason = fv_drain_reason_name(r), .metric = "pages",
			  .value = d->pages[r]);
	}
	for (int l = 0; l < FV_DRAIN_LISTS; l++)
		STATS_ROW(t, .table = "drain_pages_by_type", .cpu = d->cpu,
			  .from = fv_drain_list_name(l), .metric = "pages",
			  .value = d->by_type[l]);
}

void stats_drains(struct tab *t, const struct fv_stats *s)
{
	struct tab_col cols[FV_DRAIN_NR];

	tab_txt(t, "\nPer-cpu list drains: %" PRIu64 ", pages returned: %"
		PRIu64 "\n", s->nr_drains, s->nr_drained_pages);
	stats_section(t, "drains", "cpus", (const char *const[]){ "total", "pages" },
		(const uint64_t[]){ s->nr_drains, s->nr_drained_pages }, 2);
	if (s->nr_drain_rows)
		drain_heads(t, cols);
	for (size_t i = 0; i < s->nr_drain_rows; i++) {
		const struct fv_drain_row *d = &s->drains[i];

		if (t->fmt == TAB_CSV) {
			drain_csv_rows(t, d);
			continue;
		}
		tab_row_open(t, "\n ");
		tab_i64(t, "cpu", d->cpu);
		tab_open(t, "reasons", '{');
		for (int r = 0; r < FV_DRAIN_NR; r++) {
			if (t->fmt == TAB_TXT) {
				if (r < FV_DRAIN_NR - 1)
					tab_strf(t, NULL, "%" PRIu64 "/%" PRIu64 "p",
						 d->drains[r], d->pages[r]);
				continue;
			}
			tab_open(t, fv_drain_reason_name(r), '{');
			tab_u64(t, "drains", d->drains[r]);
			tab_u64(t, "pages", d->pages[r]);
			tab_close(t);
		}
		tab_close(t);
		tab_open(t, "pages_by_type", '{');
		for (int l = 0; t->fmt == TAB_JSON && l < FV_DRAIN_LISTS; l++)
			tab_u64(t, fv_drain_list_name(l), d->by_type[l]);
		tab_close(t);
		tab_row_close(t);
	}
	if (s->nr_drain_rows && t->fmt == TAB_TXT) {
		tab_txt(t, "  (cells: drains/pages)\n");
		pages_by_type(t, s);
	}
	tab_close(t);
	tab_close(t);
}

static const char *result_name(int32_t r)
{
	/* INT32_MIN has no positive counterpart (and is no errno) */
	const char *n = r < 0 && r > INT32_MIN ? strerrorname_np(-r) : NULL;

	return r == 0 ? "success" : n ? n : "?";
}

/* txt: a row of the table; json: an object */
static void migrate_row(struct tab *t, const struct fv_migrate_row *r)
{
	tab_row_open(t, "\n ");
	tab_str(t, "reason", fv_mr_name(r->reason));
	tab_str(t, "mode", fv_mode_name(r->mode));
	if (t->fmt == TAB_JSON)
		tab_str(t, "source", r->stock ? "mm_migrate_pages" :
			"migrate_folio");
	tab_u64(t, "ok", r->ok);
	tab_u64(t, "failed", r->failed);
	if (t->fmt == TAB_JSON)
		tab_u64(t, "success_permille", r->rate_permille);
	else
		tab_strf(t, NULL, "%u.%u%%", r->rate_permille / 10,
			 r->rate_permille % 10);
	if (r->stock)
		tab_txt(t, " (migrate:mm_migrate_pages)");
	tab_row_close(t);
}

static void migrate_csv_rows(struct tab *t, const struct fv_migrate_row *r)
{
	const char *table = r->stock ? "migrate_pages_stock" : "migrate";
	const char *const metric[] = { "ok", "failed", "success_permille" };
	const int64_t value[] = { r->ok, r->failed, r->rate_permille };

	for (int i = 0; i < 3; i++)
		STATS_ROW(t, .table = table, .reason = fv_mr_name(r->reason),
			  .mode = fv_mode_name(r->mode), .metric = metric[i],
			  .value = value[i]);
}

/* migrate_folio results: txt one line, json "results", csv rows */
static void migrate_results(struct tab *t, const struct fv_stats *s)
{
	if (s->nr_results)
		tab_txt(t, "  results:");
	tab_open(t, "results", '[');
	for (size_t i = 0; i < s->nr_results; i++) {
		int32_t res = s->results[i].result;

		STATS_ROW(t, .table = "migrate_result", .has_result = true,
			  .result = res, .metric = "count",
			  .value = s->results[i].count);
		tab_txt_wrap(t, "          ", " %s %" PRIu64, result_name(res),
			     s->results[i].count);
		if (t->fmt != TAB_JSON)
			continue;
		tab_row_open(t, NULL);
		tab_i64(t, "result", res);
		tab_u64(t, "count", s->results[i].count);
		tab_close(t);
	}
	tab_close(t);
	if (s->nr_results && s->results_other)
		tab_txt_wrap(t, "          ", " other %" PRIu64, s->results_other);
	if (s->nr_results)
		tab_txt(t, "\n");
	tab_json_u64(t, "results_other", s->results_other);
}

void stats_migrations(struct tab *t, const struct fv_stats *s)
{
	static const struct tab_col head_cols[] = {
		{ -18, "  " }, { -21, NULL }, { 10, NULL }, { 10, NULL },
		{ 7, NULL },
	};
	static const struct tab_col cols[] = {	/* "100.0%" under "success" */
		{ -18, "  " }, { -21, NULL }, { 10, NULL }, { 10, NULL },
		{ 8, NULL },
	};
	static const char *const heads[] = { "reason", "mode", "ok", "failed",
					     "success" };

	tab_txt(t, "\nMigrations: %" PRIu64 " succeeded, %" PRIu64 " failed",
		s->nr_migrate_ok, s->nr_migrate_fail);
	stats_pct(t, s->nr_migrate_ok, s->nr_migrate_ok + s->nr_migrate_fail);
	tab_txt(t, "\n");
	stats_section(t, "migrations", "rows", (const char *const[]){ "ok", "failed" },
		(const uint64_t[]){ s->nr_migrate_ok, s->nr_migrate_fail }, 2);
	if (s->nr_migrate_rows) {
		tab_txt_head(t, head_cols, heads, 5);
		tab_columns(t, cols);
	}
	for (size_t i = 0; i < s->nr_migrate_rows; i++) {
		const struct fv_migrate_row *r = &s->migrations[i];

		migrate_csv_rows(t, r);
		if (t->fmt != TAB_CSV)
			migrate_row(t, r);
	}
	tab_close(t);
	if (s->nr_migrate_rows || t->fmt != TAB_TXT)	/* txt: under the rows */
		migrate_results(t, s);
	tab_close(t);
}
