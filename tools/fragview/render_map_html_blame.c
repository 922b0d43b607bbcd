// SPDX-License-Identifier: GPL-2.0
/*
 * render_map_html_blame.c - who stole from and flipped each block, for
 * the HTML map's block details (html/blame.js):
 *
 *   "blame":{"tasks":{"PID":"comm",...},
 *            "stacks":[[frame,...],...], "site":[frame index or -1,...],
 *            "blocks":{"INDEX":[[t,kind,pid,stack,a,b,c],...],...}}
 *
 * per block its latest FV_BLAME_HTML_EVENTS steals and flips, oldest
 * first: t ns since t0, kind as in "events", stack -1 for none; steal:
 * a, b = alloc_mt, block_mt, c = claimed; flip: old_mt, new_mt, reason.
 */
#include <inttypes.h>
#include <stdlib.h>

#include "blame.h"
#include "render.h"
#include "render_map_common.h"

#define FV_BLAME_HTML_EVENTS 8

struct blk_rec {
	int32_t block;			/* emitted index */
	uint32_t rec;			/* index in fv_blame.recs */
};

static int cmp_blk_rec(const void *x, const void *y)
{
	const struct blk_rec *a = x, *b = y;

	if (a->block != b->block)
		return a->block < b->block ? -1 : 1;
	return a->rec < b->rec ? -1 : a->rec > b->rec;
}

static void put_tasks(FILE *out, const struct fv_blame *b)
{
	fputs("\"tasks\":{", out);
	for (size_t i = 0; i < b->nr_comms; i++) {
		fprintf(out, "%s\"%d\":", i ? "," : "", (int)b->comms[i].pid);
		map_put_json_str(out, b->comms[i].comm);
	}
	fputc('}', out);
}

static void put_stacks(FILE *out, const struct fv_blame *b)
{
	fputs(",\"stacks\":[", out);
	for (size_t i = 0; i < b->nr_stacks; i++) {
		const struct fv_blame_stack *s = &b->stacks[i];

		fputs(i ? ",[" : "[", out);
		for (size_t f = 0; f < s->nr_frames; f++) {
			if (f)
				fputc(',', out);
			map_put_json_str(out, s->frames[f]);
		}
		fputc(']', out);
	}
	fputs("],\"site\":[", out);
	for (size_t i = 0; i < b->nr_stacks; i++)
		fprintf(out, i ? ",%d" : "%d", b->stacks[i].defined ?
			b->stacks[i].site : -1);
	fputc(']', out);
}

void html_put_blame(FILE *out, const struct fv_model *m,
		    const struct fv_blame *b, const int32_t *newidx, uint64_t t0)
{
	struct blk_rec *v = malloc((b->nr_recs + 1) * sizeof(*v));
	size_t n = 0;

	if (!v)
		return;		/* the page without it: nothing to lose */
	for (size_t i = 0; i < b->nr_recs; i++) {
		long blk = fv_model_find_block(m, b->recs[i].block);

		if (blk >= 0 && newidx[blk] >= 0)
			v[n++] = (struct blk_rec){ newidx[blk], i };
	}
	qsort(v, n, sizeof(*v), cmp_blk_rec);
	fputs(",\n\"blame\":{", out);
	put_tasks(out, b);
	put_stacks(out, b);
	fputs(",\"blocks\":{", out);
	for (size_t i = 0, j; i < n; i = j) {
		for (j = i; j < n && v[j].block == v[i].block; j++)
			;
		size_t first = j - i > FV_BLAME_HTML_EVENTS ?
			       j - FV_BLAME_HTML_EVENTS : i;

		fprintf(out, "%s\"%d\":[", i ? ",\n" : "", v[i].block);
		for (size_t k = first; k < j; k++) {
			const struct fv_blame_rec *r = &b->recs[v[k].rec];

			fprintf(out, "%s[%" PRId64 ",%u,%d,%d,%u,%u,%u]",
				k > first ? "," : "",
				(int64_t)(r->ts - t0), r->kind, (int)r->pid,
				(int)r->stack, r->a, r->b,
				r->kind == FV_EV_FLIP ? r->reason : r->claimed);
		}
		fputc(']', out);
	}
	fputs("}}", out);
	free(v);
}
