// SPDX-License-Identifier: GPL-2.0
/*
 * render_blame.c - "fragview blame" and the polluters of "fragview stats"
 * through the table emitter (table.h), one walker for txt, csv and json:
 *
 *   txt   a ranked table, each row with example blocks and the stack
 *         (or task) behind most of its events;
 *   csv   a row per group, the blocks and the stack's frames joined by ';';
 *   json  one object: the totals and "groups", each with its top task
 *         and stack.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "blame.h"
#include "render.h"
#include "table.h"
#include "util.h"

/* txt: rank, steals, polluted, claimed, flips, key (blame, stats) */
static const struct tab_col blame_cols[] = {
	{ 4, NULL }, { 8, NULL }, { 8, NULL }, { 7, NULL }, { 6, NULL },
	{ 0, "  " },
};
static const struct tab_col stats_cols[] = {
	{ -5, "  " }, { 8, NULL }, { 8, NULL }, { 7, NULL }, { 6, NULL },
	{ 0, "  " },
};

static void heading(struct tab *t, const struct blame_view *v)
{
	const struct fv_blame *b = v->b;

	/* the capture last: cut to what the line has left */
	tab_txt(t, "fragview blame, by %s", fv_blame_by_name(v->by));
	if (v->top < v->nr)
		tab_txt(t, " (the first %zu of %zu)", v->top, v->nr);
	tab_txt(t, ": ");
	tab_txt_name(t, v->title ? v->title : "-");
	tab_txt(t, "\n%" PRIu64 " %s, %" PRIu64 " flips; %" PRIu64 " of %"
		PRIu64 " with a kernel stack\n", b->nr_steals,
		b->nr_extfrag ? "fallbacks (kmem:mm_page_alloc_extfrag)" :
		"steals", b->nr_flips, b->nr_with_stack,
		b->nr_steals + b->nr_flips);
	tab_txt(t, "polluted: blocks an unclaimed steal left mixed; claimed: "
		"blocks a steal took over\n\n");
}

/* json "steals", "extfrag", "flips", "with_stack" */
static void totals(struct tab *t, const struct fv_blame *b)
{
	if (t->fmt != TAB_JSON)
		return;
	tab_u64(t, "steals", b->nr_steals);
	tab_u64(t, "extfrag", b->nr_extfrag);
	tab_u64(t, "flips", b->nr_flips);
	tab_u64(t, "with_stack", b->nr_with_stack);
}

/* txt: the columns, their heads: rank first and the key last */
static void column_heads(struct tab *t, const struct tab_col *cols,
			 const char *rank, enum fv_blame_by by)
{
	static const char *const head[] = { "steals", "polluted", "claimed",
					    "flips" };

	if (t->fmt != TAB_TXT)
		return;
	tab_columns(t, cols);
	tab_str(t, NULL, rank);
	for (int i = 0; i < 4; i++)
		tab_str(t, NULL, head[i]);
	tab_str(t, NULL, fv_blame_by_name(by));
	tab_row_end(t);
}

static void task(struct tab *t, const char *key, const struct fv_blame *b,
		 int32_t pid)
{
	tab_open(t, key, '{');
	tab_i64(t, "pid", pid);
	tab_str(t, "comm", fv_blame_comm_of(b, pid));
	tab_close(t);
}

/* json: the stack object; csv: its id (the site and frames come last) */
static void stack(struct tab *t, const struct fv_blame *b, int32_t id)
{
	const struct fv_blame_stack *s = fv_blame_stack_of(b, id);

	if (t->fmt == TAB_CSV || !s) {
		if (t->fmt == TAB_CSV && id >= 0)
			tab_i64(t, NULL, id);
		else
			tab_null(t, "top_stack");
		return;
	}
	tab_open(t, "top_stack", '{');
	tab_i64(t, "id", id);
	if (s->site >= 0)
		tab_str(t, "site", b->sites[s->site_id]);
	else
		tab_null(t, "site");
	tab_open(t, "frames", '[');
	for (size_t f = 0; f < s->nr_frames; f++)
		tab_str(t, NULL, s->frames[f]);
	tab_close(t);
	tab_close(t);
}

/* csv: the site, and the frames joined by ';' */
static void csv_site_frames(struct tab *t, const struct fv_blame *b,
			    int32_t id)
{
	const struct fv_blame_stack *s = fv_blame_stack_of(b, id);
	size_t len = 1;
	char *text;

	tab_str(t, NULL, s && s->site >= 0 ? b->sites[s->site_id] : "");
	for (size_t f = 0; s && f < s->nr_frames; f++)
		len += strlen(s->frames[f]) + 1;
	text = xcalloc(1, len);
	for (size_t f = 0; s && f < s->nr_frames; f++) {
		if (f)
			strcat(text, ";");
		strcat(text, s->frames[f]);
	}
	tab_str(t, NULL, text);
	free(text);
}

/* txt: the lines under a row: blocks, top task, top stack */
static void txt_details(struct tab *t, const struct blame_view *v,
			const struct fv_blame_group *g)
{
	const struct fv_blame_stack *s = fv_blame_stack_of(v->b, g->top_stack);
	char name[128];

	if (g->nr_example) {
		tab_txt(t, "        blocks");
		for (unsigned int i = 0; i < g->nr_example; i++)
			tab_txt(t, " 0x%" PRIx64, g->example[i]);
		tab_txt(t, "\n");
	}
	if (v->by != FV_BLAME_BY_TASK) {
		fv_blame_key_name(v->b, FV_BLAME_BY_TASK, g->top_pid, name,
				  sizeof(name));
		tab_txt(t, "        task ");
		tab_txt_name(t, name);
		tab_txt(t, " (%" PRIu64 " of %" PRIu64 " events)\n",
			g->top_pid_events, g->events);
	}
	if (!s) {
		tab_txt(t, "        no kernel stack (%" PRIu64 " of %" PRIu64
			" events)\n", g->top_stack_events, g->events);
		return;
	}
	tab_txt(t, "        stack #%d (%" PRIu64 " of %" PRIu64 " events)",
		g->top_stack, g->top_stack_events, g->events);
	if (s->site >= 0) {
		tab_txt(t, ", site ");
		tab_txt_name(t, v->b->sites[s->site_id]);
	}
	tab_txt(t, ":\n");
	for (size_t f = 0; f < s->nr_frames; f++) {
		tab_txt(t, "        %s ", (int)f == s->site ? ">" : " ");
		tab_txt_name(t, s->frames[f]);
		tab_txt(t, "\n");
	}
}

/*
 * A group: rank, key and counts in every format (txt: the key last);
 * full: with its blocks, top task and top stack (blame, not stats).
 */
static void group(struct tab *t, const struct blame_view *v,
		  enum fv_blame_by by, size_t rank,
		  const struct fv_blame_group *g, bool full)
{
	const struct fv_blame *b = v->b;
	char key[128], name[128];

	fv_blame_key_name(b, by, g->key, key, sizeof(key));
	tab_open(t, NULL, '{');
	if (t->fmt == TAB_CSV)
		tab_str(t, NULL, fv_blame_by_name(by));
	tab_u64(t, "rank", rank);
	if (t->fmt != TAB_TXT)
		tab_str(t, "key", key);
	if (t->fmt == TAB_JSON && by == FV_BLAME_BY_TASK)
		task(t, "task", b, g->key);
	tab_u64(t, "steals", g->steals);
	tab_u64(t, "polluted", g->polluted);
	tab_u64(t, "claimed", g->claimed);
	tab_u64(t, "flips", g->flips);
	if (t->fmt == TAB_JSON)
		tab_u64(t, "events", g->events);
	if (t->fmt == TAB_TXT) {
		tab_str(t, NULL, key);
		tab_row_end(t);
	}
	if (full && t->fmt == TAB_TXT) {
		txt_details(t, v, g);
	} else if (full) {
		tab_open(t, "blocks", '[');
		if (t->fmt == TAB_CSV) {
			char blocks[FV_BLAME_EXAMPLES * 20 + 1] = "";

			for (unsigned int i = 0; i < g->nr_example; i++)
				snprintf(blocks + strlen(blocks), sizeof(blocks) -
					 strlen(blocks), "%s0x%" PRIx64,
					 i ? ";" : "", g->example[i]);
			tab_str(t, NULL, blocks);
		}
		for (unsigned int i = 0; t->fmt == TAB_JSON && i < g->nr_example; i++)
			tab_strf(t, NULL, "0x%" PRIx64, g->example[i]);
		tab_close(t);
		if (t->fmt == TAB_CSV) {
			fv_blame_key_name(b, FV_BLAME_BY_TASK, g->top_pid, name,
					  sizeof(name));
			tab_str(t, NULL, name);
		} else {
			task(t, "top_task", b, g->top_pid);
		}
		tab_u64(t, "top_task_events", g->top_pid_events);
		stack(t, b, g->top_stack);
		tab_u64(t, "top_stack_events", g->top_stack_events);
		if (t->fmt == TAB_CSV)
			csv_site_frames(t, b, g->top_stack);
	}
	tab_close(t);
	if (t->fmt == TAB_CSV)	/* txt: the row ended before its details */
		tab_row_end(t);
}

static const char csv_columns[] =
	"by,rank,key,steals,polluted,claimed,flips,blocks,top_task,"
	"top_task_events,top_stack,top_stack_events,site,stack";

static int render_blame(FILE *out, const struct blame_view *v,
			enum tab_format fmt)
{
	struct tab t;

	tab_init(&t, out, fmt);
	tab_csv_head(&t, csv_columns);
	tab_open_document(&t);
	heading(&t, v);
	if (fmt == TAB_JSON) {
		tab_str(&t, "capture", v->title ? v->title : "-");
		tab_str(&t, "by", fv_blame_by_name(v->by));
		totals(&t, v->b);
		tab_u64(&t, "groups_total", v->nr);
	}
	column_heads(&t, blame_cols, "#", v->by);
	tab_open(&t, "groups", '[');
	for (size_t i = 0; i < v->top; i++)
		group(&t, v, v->by, i + 1, &v->g[i], true);
	tab_close(&t);
	tab_close(&t);
	if (fmt == TAB_JSON)
		fputc('\n', out);
	if (!v->nr)
		tab_txt(&t, "(no steals or flips in this capture)\n");
	return 0;
}

int render_blame_txt(FILE *out, const struct blame_view *v)
{
	return render_blame(out, v, TAB_TXT);
}

int render_blame_csv(FILE *out, const struct blame_view *v)
{
	return render_blame(out, v, TAB_CSV);
}

int render_blame_json(FILE *out, const struct blame_view *v)
{
	return render_blame(out, v, TAB_JSON);
}

/*
 * stats: the first five tasks and sites, without stacks:
 *   txt   a section "top polluters";
 *   csv   rows of the stats table: table polluter_task / polluter_site,
 *         the key in "from", the rank in "order", metrics steals,
 *         polluted, claimed, flips;
 *   json  "polluters":{"steals":..,"task":[...],"site":[...]}.
 */
static void csv_polluter(struct tab *t, enum fv_blame_by by, const char *key,
			 size_t rank, const struct fv_blame_group *g)
{
	static const char *const metric[] = { "steals", "polluted", "claimed",
					      "flips" };
	const uint64_t val[] = { g->steals, g->polluted, g->claimed, g->flips };

	for (int m = 0; m < 4; m++) {
		tab_strf(t, NULL, "polluter_%s", fv_blame_by_name(by));
		for (int i = 0; i < 3; i++)	/* node, zone, cpu */
			tab_null(t, NULL);
		tab_str(t, NULL, key);
		for (int i = 0; i < 4; i++)	/* to, reason, mode, claimed */
			tab_null(t, NULL);
		tab_u64(t, NULL, rank);
		for (int i = 0; i < 2; i++)	/* fallback_order, result */
			tab_null(t, NULL);
		tab_str(t, NULL, metric[m]);
		tab_u64(t, NULL, val[m]);
		tab_row_end(t);
	}
}

void render_blame_stats(struct tab *t, const struct fv_blame *b)
{
	static const enum fv_blame_by by[] = { FV_BLAME_BY_TASK,
					       FV_BLAME_BY_SITE };
	const struct blame_view v = { .b = b };

	tab_txt(t, "\ntop polluters (fragview blame for more)\n");
	tab_open(t, "polluters", '{');
	totals(t, b);
	for (int k = 0; k < 2; k++) {
		struct fv_blame_group *g = NULL;
		size_t n = 0;

		/* sites come from stacks */
		if (by[k] != FV_BLAME_BY_SITE || b->nr_with_stack)
			n = fv_blame_rank(b, by[k], &g);
		else if (t->fmt != TAB_JSON)
			continue;
		column_heads(t, stats_cols, "", by[k]);
		tab_open(t, fv_blame_by_name(by[k]), '[');
		for (size_t i = 0; i < n && i < 5; i++) {
			char key[128];

			fv_blame_key_name(b, by[k], g[i].key, key, sizeof(key));
			if (t->fmt == TAB_CSV)
				csv_polluter(t, by[k], key, i + 1, &g[i]);
			else
				group(t, &v, by[k], i + 1, &g[i], false);
		}
		tab_close(t);
		free(g);
	}
	tab_close(t);
}
