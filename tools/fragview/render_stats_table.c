// SPDX-License-Identifier: GPL-2.0
/*
 * render_stats_table.c - "fragview stats": one walker over the table
 * emitter (table.h) for the three formats:
 *
 *   txt   a section per kind of event, its tables aligned;
 *   csv   one tidy table (STATS_CSV_COLUMNS): every number is a row;
 *   json  one object: "events", the span, "issues", then "steals",
 *         "claims_declined", "flips", "drains", "migrations", "zones",
 *         "census" and "polluters", the keys mirroring the txt tables.
 *
 * The drains and migrations are walked in render_stats_moves.c, the
 * zones in render_stats_zones.c, the census in render_stats_census.c,
 * the polluters in render_blame.c.
 */
#include <inttypes.h>

#include "blame.h"
#include "integrity.h"
#include "render.h"
#include "render_stats.h"

void stats_csv_row(struct tab *t, const struct stats_row *r)
{
	const char *s[] = { r->from, r->to, r->reason, r->mode };
	const int n[] = { r->claimed, r->order, r->fallback };

	if (t->fmt != TAB_CSV)
		return;
	tab_str(t, NULL, r->table);
	r->node >= 0 ? tab_i64(t, NULL, r->node) : tab_null(t, NULL);
	tab_str(t, NULL, r->zone);
	r->cpu >= 0 ? tab_i64(t, NULL, r->cpu) : tab_null(t, NULL);
	for (size_t i = 0; i < sizeof(s) / sizeof(s[0]); i++)
		tab_str(t, NULL, s[i]);
	for (size_t i = 0; i < sizeof(n) / sizeof(n[0]); i++)
		n[i] >= 0 ? tab_i64(t, NULL, n[i]) : tab_null(t, NULL);
	r->has_result ? tab_i64(t, NULL, r->result) : tab_null(t, NULL);
	tab_str(t, NULL, r->metric);
	tab_i64(t, NULL, r->value);
	tab_row_end(t);
}

void stats_pct(struct tab *t, uint64_t part, uint64_t whole)
{
	if (whole)
		tab_txt(t, " (%" PRIu64 ".%" PRIu64 "%%)", part * 100 / whole,
			part * 1000 / whole % 10);
}

void stats_section(struct tab *t, const char *key, const char *rows,
		   const char *const *names, const uint64_t *totals, int nr)
{
	tab_break(t, "\n");
	tab_open(t, key, '{');
	for (int i = 0; i < nr; i++)
		tab_json_u64(t, names[i], totals[i]);
	tab_open(t, rows, '[');
}

/* The events per kind and the span; txt: after the capture's issues. */
static void summary(struct tab *t, const struct fv_model *m)
{
	if (t->fmt == TAB_TXT && fv_issues_banner(m, fv_banner_text, t->out))
		tab_txt(t, "\n");
	tab_txt(t, "Events:");
	tab_open(t, "events", '{');
	for (int k = 0; k < FV_EV_NR; k++) {
		if (m->nr_events[k] || t->fmt != TAB_TXT)
			STATS_ROW(t, .table = "events", .metric = fv_ev_kind_name(k),
				  .value = m->nr_events[k]);
		if (t->fmt == TAB_JSON)
			tab_u64(t, fv_ev_kind_name(k), m->nr_events[k]);
		else if (m->nr_events[k])
			tab_txt_wrap(t, "       ", " %s %" PRIu64,
				     fv_ev_kind_name(k), m->nr_events[k]);
	}
	tab_close(t);
	tab_txt(t, "\nSpan: %" PRIu64 ".%06" PRIu64 " .. %" PRIu64 ".%06" PRIu64
		" s, snapshots: %u, pageblocks: %zu\n\n",
		m->first_ts / 1000000000, m->first_ts % 1000000000 / 1000,
		m->last_ts / 1000000000, m->last_ts % 1000000000 / 1000,
		m->nr_snapshots, m->nr_blocks);
	if (t->fmt != TAB_JSON)
		return;
	tab_break(t, "\n");
	tab_u64(t, "first_ts_ns", m->first_ts);
	tab_u64(t, "last_ts_ns", m->last_ts);
	tab_u64(t, "snapshots", m->nr_snapshots);
	tab_u64(t, "pageblocks", m->nr_blocks);
	tab_u64(t, "pageblock_order", m->pageblock_order);
}

/*
 * The replay cannot be exact: json the issues with their text; csv one
 * row per issue (count -1: unknown), keyed by cpu for lost events,
 * node/zone for the others, the snapshot's seq as "order".  txt: the
 * banner of summary().
 */
static void issues(struct tab *t, const struct fv_model *m)
{
	struct fv_issues is;
	char line[512];

	if (t->fmt == TAB_TXT)
		return;
	if (fv_model_issues(m, &is))
		is.nr = 0;
	tab_break(t, "\n");
	if (t->fmt == TAB_JSON)
		tab_bool(t, "exact_replay_possible", !is.nr);
	tab_open(t, "issues", '[');
	for (size_t i = 0; i < is.nr; i++) {
		const struct fv_issue *x = &is.v[i];
		bool lost = x->kind == FV_ISSUE_LOST;
		/* a snapshot missing whole is of no zone: its seq only */
		bool zoneless = lost || x->kind == FV_ISSUE_SNAP_SEQ;
		bool seq = x->kind == FV_ISSUE_SNAPSHOT ||
			   x->kind == FV_ISSUE_SNAP_SEQ;

		STATS_ROW(t, .table = "issue", .node = zoneless ? -1 : x->nid,
			  .zone = zoneless ? NULL : fv_zone_name(x->zone),
			  .cpu = lost ? x->cpu : -1,
			  .order = seq ? (int)x->seq : -1,
			  .metric = fv_issue_kind_name(x->kind), .value = x->count);
		if (t->fmt != TAB_JSON)
			continue;
		fv_issue_text(x, line, sizeof(line));
		tab_row_open(t, "\n ");
		tab_str(t, "kind", fv_issue_kind_name(x->kind));
		tab_i64(t, "count", x->count);
		tab_u64(t, "ts_ns", x->ts);
		tab_str(t, "text", line);
		tab_close(t);
	}
	tab_close(t);
	fv_issues_free(&is);
}

#define STEAL_DETAIL_ROWS 12

/* txt: the first STEAL_DETAIL_ROWS rows; json: every row */
static void steal_row(struct tab *t, const struct fv_steal_row *r)
{
	tab_row_open(t, "\n ");
	tab_str(t, "alloc_mt", fv_mt_name(r->alloc_mt));
	tab_str(t, "block_mt", fv_mt_name(r->block_mt));
	if (t->fmt == TAB_TXT)
		tab_str(t, NULL, r->claimed ? "yes" : "no");
	else
		tab_bool(t, "claimed", r->claimed);
	tab_u64(t, "order", r->order);
	tab_u64(t, "fallback_order", r->fallback_order);
	tab_u64(t, "count", r->count);
	tab_row_close(t);
}

/*
 * txt: steals and declined claims per (allocation type, block type),
 * then the top rows of the steals
 */
static void steal_tables(struct tab *t, const struct fv_stats *s)
{
	static const struct tab_col pair_cols[] = {
		{ -12, "  " }, { -12, NULL }, { 10, NULL }, { 10, NULL },
		{ 10, NULL },
	};
	static const char *const pair_heads[] = {
		"allocation", "from block", "steals", "claimed", "declined",
	};
	static const struct tab_col row_cols[] = {
		{ -12, "  " }, { -12, NULL }, { -7, NULL }, { 5, NULL },
		{ 8, NULL }, { 10, NULL },
	};
	static const char *const row_heads[] = {
		"allocation", "from block", "claimed", "order", "fallback",
		"count",
	};
	uint64_t pair[FV_MT_NR][FV_MT_NR][2] = { { { 0 } } };
	size_t shown = 0;

	for (size_t i = 0; i < s->nr_steal_rows; i++) {
		const struct fv_steal_row *r = &s->steals[i];

		pair[r->alloc_mt % FV_MT_NR][r->block_mt % FV_MT_NR][r->claimed] += r->count;
	}
	tab_txt_head(t, pair_cols, pair_heads, 5);
	for (int a = 0; a < FV_MT_NR; a++) {
		for (int b = 0; b < FV_MT_NR; b++) {
			uint64_t declined = s->declined_tab[a][b];

			if (!(pair[a][b][0] + pair[a][b][1] + declined))
				continue;
			tab_str(t, NULL, fv_mt_name(a));
			tab_str(t, NULL, fv_mt_name(b));
			tab_u64(t, NULL, pair[a][b][0] + pair[a][b][1]);
			tab_u64(t, NULL, pair[a][b][1]);
			tab_u64(t, NULL, declined);
			tab_row_end(t);
		}
	}
	if (!s->nr_steal_rows)
		return;
	tab_txt(t, "  most frequent by order:\n");
	tab_txt_head(t, row_cols, row_heads, 6);
	for (; shown < s->nr_steal_rows && shown < STEAL_DETAIL_ROWS; shown++)
		steal_row(t, &s->steals[shown]);
	if (shown < s->nr_steal_rows)
		tab_txt(t, "  ... %zu more rows (--format csv or json has them all)\n",
			s->nr_steal_rows - shown);
}

static void steals(struct tab *t, const struct fv_stats *s)
{
	static const char *const steal_totals[] = { "total", "claimed",
						    "from_extfrag" };

	tab_txt(t, "Steals (fallback allocations): %" PRIu64
		", claimed the block: %" PRIu64, s->nr_steals, s->nr_claimed);
	stats_pct(t, s->nr_claimed, s->nr_steals);
	tab_txt(t, "\n");
	if (s->nr_extfrag)
		tab_txt(t, "  (%" PRIu64 " from kmem:mm_page_alloc_extfrag: "
			"'claimed' is its change_ownership)\n", s->nr_extfrag);
	tab_txt(t, "Claims declined (nothing taken): %" PRIu64 "\n",
		s->nr_declined);
	if (t->fmt == TAB_TXT) {
		if (s->nr_steal_rows || s->nr_declined)
			steal_tables(t, s);
		return;
	}
	stats_section(t, "steals", "rows", steal_totals, (const uint64_t[]){
		s->nr_steals, s->nr_claimed, s->nr_extfrag }, 3);
	for (size_t i = 0; i < s->nr_steal_rows; i++) {
		const struct fv_steal_row *r = &s->steals[i];

		STATS_ROW(t, .table = "steal", .from = fv_mt_name(r->alloc_mt),
			  .to = fv_mt_name(r->block_mt), .claimed = r->claimed,
			  .order = r->order, .fallback = r->fallback_order,
			  .metric = "count", .value = r->count);
		if (t->fmt == TAB_JSON)
			steal_row(t, r);
	}
	tab_close(t);
	tab_close(t);
}

/*
 * csv, json: the claims try_to_steal_block() declined (pageblock_steal
 * taken=0, 6.12), per (allocation type, block type); txt: steals()
 */
static void declined(struct tab *t, const struct fv_stats *s)
{
	if (t->fmt == TAB_TXT)
		return;
	stats_section(t, "claims_declined", "rows",
		      (const char *const[]){ "total" }, &s->nr_declined, 1);
	for (int a = 0; a < FV_MT_NR; a++) {
		for (int b = 0; b < FV_MT_NR; b++) {
			uint64_t n = s->declined_tab[a][b];

			if (!n)
				continue;
			STATS_ROW(t, .table = "claim_declined",
				  .from = fv_mt_name(a), .to = fv_mt_name(b),
				  .metric = "count", .value = n);
			if (t->fmt != TAB_JSON)
				continue;
			tab_row_open(t, "\n ");
			tab_str(t, "alloc_mt", fv_mt_name(a));
			tab_str(t, "block_mt", fv_mt_name(b));
			tab_u64(t, "count", n);
			tab_row_close(t);
		}
	}
	tab_close(t);
	tab_close(t);
}

static void flips(struct tab *t, const struct fv_stats *s)
{
	static const struct tab_col cols[] = {
		{ -12, "  " }, { -12, NULL }, { -20, NULL }, { 10, NULL },
	};
	static const char *const heads[] = { "old", "new", "reason", "count" };

	tab_txt(t, "\nPageblock flips: %" PRIu64 "\n", s->nr_flips);
	stats_section(t, "flips", "rows", (const char *const[]){ "total" },
		&s->nr_flips, 1);
	if (s->nr_flip_rows)
		tab_txt_head(t, cols, heads, 4);
	for (size_t i = 0; i < s->nr_flip_rows; i++) {
		const struct fv_flip_row *r = &s->flips[i];
		const char *why = fv_flip_reason_name(r->reason);

		STATS_ROW(t, .table = "flip", .from = fv_mt_name(r->old_mt),
			  .to = fv_mt_name(r->new_mt), .reason = why,
			  .metric = "count", .value = r->count);
		if (t->fmt == TAB_CSV)
			continue;
		tab_row_open(t, "\n ");
		tab_str(t, "old_mt", fv_mt_name(r->old_mt));
		tab_str(t, "new_mt", fv_mt_name(r->new_mt));
		tab_str(t, "reason", why);
		tab_u64(t, "count", r->count);
		tab_row_close(t);
	}
	tab_close(t);
	tab_close(t);
}

static int render_stats(FILE *out, const struct fv_model *m,
			const struct fv_stats *s, enum tab_format fmt)
{
	struct tab t;

	tab_init(&t, out, fmt);
	tab_csv_head(&t, STATS_CSV_COLUMNS);
	tab_open_document(&t);
	summary(&t, m);
	issues(&t, m);
	steals(&t, s);
	declined(&t, s);
	flips(&t, s);
	stats_drains(&t, s);
	stats_migrations(&t, s);
	stats_zones(&t, s);
	stats_census(&t, s);
	if (s->blame && fv_blame_events(s->blame))
		render_blame_stats(&t, s->blame);
	tab_close(&t);
	if (fmt == TAB_JSON)
		fputc('\n', out);
	return 0;
}

int render_stats_txt(FILE *out, const struct fv_model *m, const struct fv_stats *s)
{
	return render_stats(out, m, s, TAB_TXT);
}

int render_stats_csv(FILE *out, const struct fv_model *m, const struct fv_stats *s)
{
	return render_stats(out, m, s, TAB_CSV);
}

int render_stats_json(FILE *out, const struct fv_model *m, const struct fv_stats *s)
{
	return render_stats(out, m, s, TAB_JSON);
}
