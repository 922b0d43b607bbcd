// SPDX-License-Identifier: GPL-2.0
/*
 * render_blame_csv.c - "fragview blame" as one CSV table: a row per
 * group, the blocks and the stack's frames joined by ';'.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "blame.h"
#include "render.h"
#include "text.h"

/* RFC 4180, formulas neutralised, valid UTF-8 (text.h) */
static void field(FILE *out, const char *s, bool last)
{
	text_put_csv(out, s);
	fputc(last ? '\n' : ',', out);
}

static void frames(FILE *out, const struct fv_blame *b, int32_t id)
{
	const struct fv_blame_stack *s = fv_blame_stack_of(b, id);
	size_t len = 1;
	char *text;

	for (size_t f = 0; s && f < s->nr_frames; f++)
		len += strlen(s->frames[f]) + 1;
	text = calloc(1, len);
	if (!text)
		return;		/* the caller's ferror() check: ENOMEM */
	for (size_t f = 0; s && f < s->nr_frames; f++) {
		if (f)
			strcat(text, ";");
		strcat(text, s->frames[f]);
	}
	field(out, text, true);
	free(text);
}

static void row(FILE *out, const struct fv_blame *b, enum fv_blame_by by,
		size_t rank, const struct fv_blame_group *g)
{
	const struct fv_blame_stack *s = fv_blame_stack_of(b, g->top_stack);
	char key[128], task[128];

	fv_blame_key_name(b, by, g->key, key, sizeof(key));
	fv_blame_key_name(b, FV_BLAME_BY_TASK, g->top_pid, task, sizeof(task));
	fprintf(out, "%s,%zu,", fv_blame_by_name(by), rank);
	field(out, key, false);
	fprintf(out, "%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",",
		g->steals, g->polluted, g->claimed, g->flips);
	for (unsigned int i = 0; i < g->nr_example; i++)
		fprintf(out, "%s0x%" PRIx64, i ? ";" : "", g->example[i]);
	fputc(',', out);
	field(out, task, false);
	fprintf(out, "%" PRIu64 ",", g->top_pid_events);
	if (g->top_stack >= 0)
		fprintf(out, "%d", g->top_stack);
	fprintf(out, ",%" PRIu64 ",", g->top_stack_events);
	field(out, s && s->site >= 0 ? b->sites[s->site_id] : "", false);
	frames(out, b, g->top_stack);
}

static const char columns[] =
	"by,rank,key,steals,polluted,claimed,flips,blocks,top_task,"
	"top_task_events,top_stack,top_stack_events,site,stack\n";

int render_blame_csv(FILE *out, const struct blame_view *v)
{
	fputs(columns, out);
	for (size_t i = 0; i < v->top; i++)
		row(out, v->b, v->by, i + 1, &v->g[i]);
	return 0;
}

/*
 * stats: the first five tasks and sites as rows of the stats table
 * (table polluter_task / polluter_site, the key in "from", the rank in
 * "order", metrics steals, polluted, claimed, flips)
 */
void render_blame_stats_csv(FILE *out, const struct fv_blame *b)
{
	static const enum fv_blame_by by[] = { FV_BLAME_BY_TASK,
					       FV_BLAME_BY_SITE };
	static const char *const metric[] = { "steals", "polluted", "claimed",
					      "flips" };

	for (int k = 0; k < 2; k++) {
		struct fv_blame_group *g;
		size_t n;

		if (by[k] == FV_BLAME_BY_SITE && !b->nr_with_stack)
			continue;
		n = fv_blame_rank(b, by[k], &g);
		for (size_t i = 0; i < n && i < 5; i++) {
			const uint64_t val[] = { g[i].steals, g[i].polluted,
						 g[i].claimed, g[i].flips };
			char key[128];

			fv_blame_key_name(b, by[k], g[i].key, key, sizeof(key));
			for (int m = 0; m < 4; m++) {
				fprintf(out, "polluter_%s,,,,", fv_blame_by_name(by[k]));
				field(out, key, false);
				fprintf(out, ",,,,%zu,,,%s,%" PRIu64 "\n", i + 1,
					metric[m], val[m]);
			}
		}
		free(g);
	}
}
