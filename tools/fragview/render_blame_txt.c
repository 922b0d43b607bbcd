// SPDX-License-Identifier: GPL-2.0
/*
 * render_blame_txt.c - "fragview blame" as a ranked table, each row with
 * example blocks and the stack (or task) behind most of its events.
 */
#include <inttypes.h>
#include <stdlib.h>

#include "blame.h"
#include "render.h"
#include "text.h"

static void header(FILE *out, const struct blame_view *v)
{
	const struct fv_blame *b = v->b;

	fputs("fragview blame: ", out);
	text_put_txt(out, v->title ? v->title : "-");
	fprintf(out, ", by %s", fv_blame_by_name(v->by));
	if (v->top < v->nr)
		fprintf(out, " (the first %zu of %zu)", v->top, v->nr);
	fprintf(out, "\n%" PRIu64 " %s, %" PRIu64 " flips; %" PRIu64 " of %"
		PRIu64 " with a kernel stack\n",
		b->nr_steals, b->nr_extfrag ? "fallbacks (kmem:mm_page_alloc_extfrag)" :
		"steals", b->nr_flips, b->nr_with_stack, b->nr_steals + b->nr_flips);
	fputs("polluted: blocks an unclaimed steal left mixed; claimed: blocks "
	      "a steal took over\n\n", out);
}

static void stack_lines(FILE *out, const struct fv_blame *b, int32_t id,
			uint64_t events, uint64_t of)
{
	const struct fv_blame_stack *s = fv_blame_stack_of(b, id);

	if (!s) {
		fprintf(out, "        no kernel stack (%" PRIu64 " of %" PRIu64
			" events)\n", events, of);
		return;
	}
	fprintf(out, "        stack #%d (%" PRIu64 " of %" PRIu64 " events)",
		id, events, of);
	if (s->site >= 0) {
		fputs(", site ", out);
		text_put_txt(out, b->sites[s->site_id]);
	}
	fputs(":\n", out);
	for (size_t f = 0; f < s->nr_frames; f++) {
		fprintf(out, "        %s ", (int)f == s->site ? ">" : " ");
		text_put_txt(out, s->frames[f]);
		fputc('\n', out);
	}
}

static void row(FILE *out, const struct blame_view *v, size_t rank,
		const struct fv_blame_group *g)
{
	char key[128], task[128];

	fv_blame_key_name(v->b, v->by, g->key, key, sizeof(key));
	fprintf(out, "%4zu %8" PRIu64 " %8" PRIu64 " %7" PRIu64 " %6" PRIu64
		"  ", rank, g->steals, g->polluted, g->claimed, g->flips);
	text_put_txt(out, key);
	fputc('\n', out);
	if (g->nr_example) {
		fputs("        blocks", out);
		for (unsigned int i = 0; i < g->nr_example; i++)
			fprintf(out, " 0x%" PRIx64, g->example[i]);
		fputc('\n', out);
	}
	if (v->by != FV_BLAME_BY_TASK) {
		fv_blame_key_name(v->b, FV_BLAME_BY_TASK, g->top_pid, task,
				  sizeof(task));
		fputs("        task ", out);
		text_put_txt(out, task);
		fprintf(out, " (%" PRIu64 " of %" PRIu64 " events)\n",
			g->top_pid_events, g->events);
	}
	stack_lines(out, v->b, g->top_stack, g->top_stack_events, g->events);
}

int render_blame_txt(FILE *out, const struct blame_view *v)
{
	header(out, v);
	fprintf(out, "%4s %8s %8s %7s %6s  %s\n", "#", "steals", "polluted",
		"claimed", "flips", fv_blame_by_name(v->by));
	for (size_t i = 0; i < v->top; i++)
		row(out, v, i + 1, &v->g[i]);
	if (!v->nr)
		fputs("(no steals or flips in this capture)\n", out);
	return 0;
}

/* stats: the first rows by task and by site, without stacks */
void render_blame_stats_txt(FILE *out, const struct fv_blame *b)
{
	static const enum fv_blame_by by[] = { FV_BLAME_BY_TASK,
					       FV_BLAME_BY_SITE };

	fputs("\ntop polluters (fragview blame for more)\n", out);
	for (int k = 0; k < 2; k++) {
		struct fv_blame_group *g;
		size_t n;

		if (by[k] == FV_BLAME_BY_SITE && !b->nr_with_stack)
			continue;	/* sites come from stacks */
		n = fv_blame_rank(b, by[k], &g);
		fprintf(out, "  %-5s %8s %8s %7s %6s  %s\n",
			"", "steals", "polluted", "claimed", "flips",
			fv_blame_by_name(by[k]));
		for (size_t i = 0; i < n && i < 5; i++) {
			char key[128];

			fv_blame_key_name(b, by[k], g[i].key, key, sizeof(key));
			fprintf(out, "  %-5zu %8" PRIu64 " %8" PRIu64 " %7"
				PRIu64 " %6" PRIu64 "  ", i + 1, g[i].steals,
				g[i].polluted, g[i].claimed, g[i].flips);
			text_put_txt(out, key);
			fputc('\n', out);
		}
		free(g);
	}
}
