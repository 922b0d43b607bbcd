// SPDX-License-Identifier: GPL-2.0
/*
 * render_stats_moves.c - the per-cpu list drains, the migrations and
 * their retry passes of "fragview stats" (a part of the walker of
 * render_stats_table.c).
 */
#include <inttypes.h>
#include <string.h>

#include "migform.h"
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
		cols[1 + r] = (struct tab_col){ 14, NULL };
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

/* a row's source (migform.h): json "source", csv table */
static const char *const source_name[FV_MSRC_NR] = {
	[FV_MSRC_FOLIO] = "migrate_folio",
	[FV_MSRC_CALLS] = "mm_migrate_pages",
	[FV_MSRC_FAILED] = "migrate_folio_failed",
	[FV_MSRC_PASSES] = "migrate_pass",
};
static const char *const source_table[FV_MSRC_NR] = {
	[FV_MSRC_FOLIO] = "migrate",
	[FV_MSRC_CALLS] = "migrate_pages_stock",
	[FV_MSRC_FAILED] = "migrate_folio_failed",
	[FV_MSRC_PASSES] = "migrate_pass_totals",
};

/* txt: a row of the table; json: an object */
static void migrate_row(struct tab *t, const struct fv_stats *s,
			const struct fv_migrate_row *r)
{
	const char *ok_from = fv_migform_ok_source(&s->mig);

	tab_row_open(t, "\n ");
	tab_str(t, "reason", fv_mr_name(r->reason));
	tab_str(t, "mode", fv_mode_name(r->mode));
	/* the default recording: failed per folio, ok per call or pass */
	if (t->fmt == TAB_JSON && r->source == FV_MSRC_FAILED && ok_from)
		tab_strf(t, "source", "migrate_folio_failed+%s", ok_from);
	else if (t->fmt == TAB_JSON)
		tab_str(t, "source", source_name[r->source % FV_MSRC_NR]);
	tab_u64(t, "ok", r->ok);
	tab_u64(t, "failed", r->failed);
	/* a call's or a pass's pages: no attempt to retry */
	if (t->fmt == TAB_TXT && (r->source == FV_MSRC_CALLS ||
				  r->source == FV_MSRC_PASSES))
		tab_str(t, "retried", "-");
	else
		tab_u64(t, "retried", r->retried);
	if (t->fmt == TAB_JSON)
		tab_u64(t, "success_permille", r->rate_permille);
	else if (!r->ok && !r->failed)	/* retried only: no outcome here */
		tab_str(t, NULL, "-");
	else
		tab_strf(t, NULL, "%u.%u%%", r->rate_permille / 10,
			 r->rate_permille % 10);
	/* pages, not attempts; short, to keep the row within 100 columns */
	if (r->source == FV_MSRC_CALLS)
		tab_txt(t, " (mm_migrate_pages)");
	else if (r->source == FV_MSRC_PASSES)
		tab_txt(t, " (migrate_pass)");
	tab_row_close(t);
}

static void migrate_csv_rows(struct tab *t, const struct fv_migrate_row *r)
{
	const char *table = source_table[r->source % FV_MSRC_NR];
	const char *const metric[] = { "ok", "failed", "retried",
				       "success_permille" };
	const int64_t value[] = { r->ok, r->failed, r->retried,
				  r->rate_permille };

	for (int i = 0; i < 4; i++)
		STATS_ROW(t, .table = table, .reason = fv_mr_name(r->reason),
			  .mode = fv_mode_name(r->mode), .metric = metric[i],
			  .value = value[i]);
}

/*
 * migrate_folio results: txt one line, json "results", csv rows.  Every
 * attempt by its result, retried ones too (a folio's EAGAIN once a
 * pass): not the folios' outcomes, and the lines say so.
 */
static void migrate_results(struct tab *t, const struct fv_stats *s)
{
	if (s->nr_results)
		tab_txt(t, "  attempts by result:");
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

/*
 * The headline.  The default recording (migform.h) counts pages moved
 * per call and failed attempts per folio, and cannot say which folio
 * moved: it says so, and where each count comes from.
 */
static void migrate_headline(struct tab *t, const struct fv_stats *s)
{
	const char *ok_from = fv_migform_ok_source(&s->mig);

	if (!fv_migform_ok_unrecorded(&s->mig)) {
		tab_txt(t, "\nMigrations: %" PRIu64 " succeeded, %" PRIu64
			" failed", s->nr_migrate_ok, s->nr_migrate_fail);
		stats_pct(t, s->nr_migrate_ok,
			  s->nr_migrate_ok + s->nr_migrate_fail);
		if (s->mig.folio)
			tab_txt(t, ", %" PRIu64 " failed attempts retried",
				s->nr_migrate_retry);
		tab_txt(t, "\n");
		return;
	}
	if (ok_from)
		tab_txt(t, "\nMigrations: %" PRIu64 " pages moved (%s), ",
			s->nr_migrate_ok, ok_from);
	else
		tab_txt(t, "\nMigrations: pages moved not recorded, ");
	tab_txt(t, "%" PRIu64 " folios failed (migrate_folio_failed)\n",
		s->nr_migrate_fail);
	tab_txt(t, "  %" PRIu64 " failed records retried (a later one of the "
		"folio followed in its call)\n", s->nr_migrate_retry);
	tab_txt(t, "  per-folio successes not recorded (enable "
		"mobility:migrate_folio): no moves per block\n");
}

/* json: where the counts come from; null: not recorded */
static void migrate_sources(struct tab *t, const struct fv_stats *s)
{
	const char *from[] = { fv_migform_ok_source(&s->mig),
			       fv_migform_failed_source(&s->mig) };
	const char *const key[] = { "ok_source", "failed_source" };

	if (t->fmt != TAB_JSON)
		return;
	for (int i = 0; i < 2; i++)
		from[i] ? tab_str(t, key[i], from[i]) : tab_null(t, key[i]);
	tab_bool(t, "per_folio_successes",
		 !fv_migform_ok_unrecorded(&s->mig));
}

/*
 * The passes of the retry loops (mobility:migrate_pass): how often a
 * call had to try again, and how many pages each stage left for the
 * next pass, whatever counts the migrations.
 */
static void migrate_passes(struct tab *t, const struct fv_stats *s)
{
	static const struct tab_col cols[] = {
		{ -18, "  " }, { -21, NULL }, { -10, NULL }, { 7, NULL },
		{ 7, NULL }, { 8, NULL }, { 8, NULL }, { 8, NULL },
	};
	static const char *const heads[] = { "reason", "mode", "stage",
		"passes", "retries", "moved", "failed", "retried" };
	static const char *const totals[] = { "passes", "retries",
					      "retried_pages" };

	if (s->nr_passes)
		tab_txt(t, "\nMigration passes (mobility:migrate_pass): %" PRIu64
			", %" PRIu64 " of them retries; pages left for a retry: %"
			PRIu64 "\n", s->nr_passes, s->nr_retry_passes,
			s->nr_retried_pages);
	stats_section(t, "migrate_passes", "rows", totals, (const uint64_t[]){
		s->nr_passes, s->nr_retry_passes, s->nr_retried_pages }, 3);
	if (s->nr_pass_rows)
		tab_txt_head(t, cols, heads, 8);
	for (size_t i = 0; i < s->nr_pass_rows; i++) {
		const struct fv_mpass_row *r = &s->passes[i];
		const char *const metric[] = { "passes", "retries", "succeeded",
					       "failed", "retried" };
		const uint64_t value[] = { r->passes, r->retries, r->succeeded,
					   r->failed, r->retried };

		for (int k = 0; k < 5; k++)
			STATS_ROW(t, .table = "migrate_pass",
				  .from = fv_stage_name(r->stage),
				  .reason = fv_mr_name(r->reason),
				  .mode = fv_mode_name(r->mode),
				  .metric = metric[k], .value = value[k]);
		if (t->fmt == TAB_CSV)
			continue;
		tab_row_open(t, "\n ");
		tab_str(t, "reason", fv_mr_name(r->reason));
		tab_str(t, "mode", fv_mode_name(r->mode));
		tab_str(t, "stage", fv_stage_name(r->stage));
		for (int k = 0; k < 5; k++)
			tab_u64(t, metric[k], value[k]);
		tab_row_close(t);
	}
	if (s->nr_pass_rows)
		tab_txt(t, "  (pages; retries: passes after a loop's first; "
			"retried: left for the next pass, EAGAIN)\n");
	tab_close(t);
	tab_close(t);
}

void stats_migrations(struct tab *t, const struct fv_stats *s)
{
	/* a stock row and its "(mm_migrate_pages)" within 100 columns */
	static const struct tab_col head_cols[] = {
		{ -18, "  " }, { -20, NULL }, { 8, NULL }, { 8, NULL },
		{ 8, NULL }, { 7, NULL },
	};
	static const struct tab_col cols[] = {	/* "100.0%" under "success" */
		{ -18, "  " }, { -20, NULL }, { 8, NULL }, { 8, NULL },
		{ 8, NULL }, { 8, NULL },
	};
	static const char *const heads[] = { "reason", "mode", "ok", "failed",
					     "retried", "success" };

	migrate_headline(t, s);
	stats_section(t, "migrations", "rows",
		(const char *const[]){ "ok", "failed", "retried" },
		(const uint64_t[]){ s->nr_migrate_ok, s->nr_migrate_fail,
				    s->nr_migrate_retry }, 3);
	if (s->nr_migrate_rows) {
		tab_txt_head(t, head_cols, heads, 6);
		tab_columns(t, cols);
	}
	for (size_t i = 0; i < s->nr_migrate_rows; i++) {
		const struct fv_migrate_row *r = &s->migrations[i];

		migrate_csv_rows(t, r);
		if (t->fmt != TAB_CSV)
			migrate_row(t, s, r);
	}
	tab_close(t);
	if (s->nr_migrate_rows && fv_migform_ok_unrecorded(&s->mig))
		tab_txt(t, "  (ok: pages moved per call or pass; failed: folios "
			"by their last failed record\n   of the call; retried: "
			"failed records a later one of the folio followed;\n"
			"   success: what "
			"migrate_folio gives when every folio is a base page)\n");
	else if (s->nr_migrate_rows && s->mig.folio)
		tab_txt(t, "  (failed: folios whose last attempt of the call "
			"failed; retried: failed attempts\n   the folio "
			"tried again in the call, not failures)\n");
	if (s->nr_migrate_rows || t->fmt != TAB_TXT)	/* txt: under the rows */
		migrate_results(t, s);
	migrate_sources(t, s);
	tab_close(t);
	migrate_passes(t, s);
}
