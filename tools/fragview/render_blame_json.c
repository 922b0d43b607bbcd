// SPDX-License-Identifier: GPL-2.0
/* render_blame_json.c - "fragview blame" as one JSON object. */
#include <inttypes.h>
#include <stdlib.h>

#include "blame.h"
#include "render.h"
#include "text.h"

/* comms and frames come from the capture: escaped, valid UTF-8 */
static void jstr(FILE *out, const char *s)
{
	text_put_json(out, s, TEXT_JSON);
}

static void task(FILE *out, const struct fv_blame *b, int32_t pid)
{
	fprintf(out, "{\"pid\":%d,\"comm\":", (int)pid);
	jstr(out, fv_blame_comm_of(b, pid));
	fputc('}', out);
}

static void stack(FILE *out, const struct fv_blame *b, int32_t id)
{
	const struct fv_blame_stack *s = fv_blame_stack_of(b, id);

	if (!s) {
		fputs("null", out);
		return;
	}
	fprintf(out, "{\"id\":%d,\"site\":", (int)id);
	if (s->site >= 0)
		jstr(out, b->sites[s->site_id]);
	else
		fputs("null", out);
	fputs(",\"frames\":[", out);
	for (size_t f = 0; f < s->nr_frames; f++) {
		if (f)
			fputc(',', out);
		jstr(out, s->frames[f]);
	}
	fputs("]}", out);
}

static void group(FILE *out, const struct fv_blame *b, enum fv_blame_by by,
		  size_t rank, const struct fv_blame_group *g, bool full)
{
	char key[128];

	fv_blame_key_name(b, by, g->key, key, sizeof(key));
	fprintf(out, "{\"rank\":%zu,\"key\":", rank);
	jstr(out, key);
	if (by == FV_BLAME_BY_TASK) {
		fputs(",\"task\":", out);
		task(out, b, g->key);
	}
	fprintf(out, ",\"steals\":%" PRIu64 ",\"polluted\":%" PRIu64
		",\"claimed\":%" PRIu64 ",\"flips\":%" PRIu64 ",\"events\":%"
		PRIu64, g->steals, g->polluted, g->claimed, g->flips, g->events);
	if (!full) {
		fputc('}', out);
		return;
	}
	fputs(",\"blocks\":[", out);
	for (unsigned int i = 0; i < g->nr_example; i++)
		fprintf(out, "%s\"0x%" PRIx64 "\"", i ? "," : "", g->example[i]);
	fputs("],\"top_task\":", out);
	task(out, b, g->top_pid);
	fprintf(out, ",\"top_task_events\":%" PRIu64 ",\"top_stack\":",
		g->top_pid_events);
	stack(out, b, g->top_stack);
	fprintf(out, ",\"top_stack_events\":%" PRIu64 "}", g->top_stack_events);
}

static void totals(FILE *out, const struct fv_blame *b)
{
	fprintf(out, "\"steals\":%" PRIu64 ",\"extfrag\":%" PRIu64
		",\"flips\":%" PRIu64 ",\"with_stack\":%" PRIu64,
		b->nr_steals, b->nr_extfrag, b->nr_flips, b->nr_with_stack);
}

int render_blame_json(FILE *out, const struct blame_view *v)
{
	fputs("{\"capture\":", out);
	jstr(out, v->title ? v->title : "-");
	fprintf(out, ",\"by\":\"%s\",", fv_blame_by_name(v->by));
	totals(out, v->b);
	fprintf(out, ",\"groups_total\":%zu,\"groups\":[", v->nr);
	for (size_t i = 0; i < v->top; i++) {
		if (i)
			fputc(',', out);
		group(out, v->b, v->by, i + 1, &v->g[i], true);
	}
	fputs("]}\n", out);
	return 0;
}

/* stats: "polluters":{"steals":..,"task":[...],"site":[...]} */
void render_blame_stats_json(FILE *out, const struct fv_blame *b)
{
	static const enum fv_blame_by by[] = { FV_BLAME_BY_TASK,
					       FV_BLAME_BY_SITE };

	fputs(",\"polluters\":{", out);
	totals(out, b);
	for (int k = 0; k < 2; k++) {
		struct fv_blame_group *g;
		size_t n;

		fprintf(out, ",\"%s\":[", fv_blame_by_name(by[k]));
		n = by[k] == FV_BLAME_BY_SITE && !b->nr_with_stack ? 0 :
		    fv_blame_rank(b, by[k], &g);
		for (size_t i = 0; i < n && i < 5; i++) {
			if (i)
				fputc(',', out);
			group(out, b, by[k], i + 1, &g[i], false);
		}
		if (n)
			free(g);
		fputc(']', out);
	}
	fputc('}', out);
}
