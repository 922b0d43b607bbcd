// SPDX-License-Identifier: GPL-2.0
/*
 * render_map_html_sources.c - which record each cell of a colour view
 * comes from, as HTML page data ("sources" of render_map_html_views.c).
 *
 * A view writes a change only when a block's cell changes, but the page
 * still names the record the cell comes from (the block details'
 * "snapshot N", the legend's "as of census N at T"), which is every
 * block's latest pageblock_state or census record at or before the time
 * shown, as map_color_cell() takes it.  Those records are written here
 * once for every view, in runs: "s" the run's record (seq * 2 + 1 for a
 * census, seq * 2 for a snapshot); "b" per run its blocks as [first,
 * count, ...]: count blocks from first up, one record each; "t" per
 * record the ns since the previous one (the first since t0).  A snapshot
 * walks the blocks in order, so a run is one or a few [first, count]
 * and the page pays a time per record, not a column per view.
 */
#include <inttypes.h>

#include "render_map_html_views.h"

void html_rec_walk_init(struct html_rec_walk *w, const struct fv_model *m,
			const int32_t *newidx, bool states, bool census)
{
	*w = (struct html_rec_walk){ .m = m, .newidx = newidx,
				     .states = states, .census = census };
}

/*
 * The next record of a shown block, in time order; at the same time the
 * census comes last, and wins, as in map_color_cell().
 */
bool html_rec_next(struct html_rec_walk *w, struct html_rec *r)
{
	const struct fv_model *m = w->m;

	while ((w->states && w->s < m->nr_states) ||
	       (w->census && w->k < m->nr_census)) {
		bool take_state = w->states && w->s < m->nr_states &&
			(!w->census || w->k >= m->nr_census ||
			 m->states[w->s].ts <= m->census[w->k].ts);

		*r = (struct html_rec){ 0 };
		if (take_state) {
			r->state = &m->states[w->s++];
			r->ts = r->state->ts;
			r->block = w->newidx[r->state->block];
			r->src = r->state->seq * 2;
		} else {
			r->census = &m->census[w->k++];
			r->ts = r->census->ts;
			r->block = w->newidx[r->census->block];
			r->src = r->census->seq * 2 + 1;
		}
		if (r->block >= 0)
			return true;
	}
	return false;
}

/* "s": one per run of records of the same snapshot or census */
static void put_runs(FILE *out, struct html_rec_walk *w)
{
	struct html_rec r;
	bool any = false;
	uint32_t src = 0;

	while (html_rec_next(w, &r)) {
		if (any && r.src == src)
			continue;
		fprintf(out, any ? ",%" PRIu32 : "%" PRIu32, r.src);
		any = true;
		src = r.src;
	}
}

/* "b": per run, its blocks as [first, count, ...] */
static void put_blocks(FILE *out, struct html_rec_walk *w)
{
	struct html_rec r;
	bool any = false;
	uint32_t src = 0;
	int32_t first = 0, count = 0;

	while (html_rec_next(w, &r)) {
		bool same_run = any && r.src == src;

		if (same_run && r.block == first + count) {
			count++;
			continue;
		}
		if (any)
			fprintf(out, "%" PRId32 ",%" PRId32 "%s", first, count,
				same_run ? "," : "],");
		if (!same_run)
			fputc('[', out);
		any = true;
		src = r.src;
		first = r.block;
		count = 1;
	}
	if (any)
		fprintf(out, "%" PRId32 ",%" PRId32 "]", first, count);
}

/* "t": per record, the ns since the previous one */
static void put_times(FILE *out, struct html_rec_walk *w, uint64_t t0)
{
	struct html_rec r;
	bool any = false;

	while (html_rec_next(w, &r)) {
		fprintf(out, any ? ",%" PRIu64 : "%" PRIu64, r.ts - t0);
		any = true;
		t0 = r.ts;
	}
}

void html_put_sources(FILE *out, const struct fv_model *m,
		      const int32_t *newidx, uint64_t t0)
{
	struct html_rec_walk w;

	fputs(",\"sources\":{\"s\":[", out);
	html_rec_walk_init(&w, m, newidx, true, true);
	put_runs(out, &w);
	fputs("],\"b\":[", out);
	html_rec_walk_init(&w, m, newidx, true, true);
	put_blocks(out, &w);
	fputs("],\"t\":[", out);
	html_rec_walk_init(&w, m, newidx, true, true);
	put_times(out, &w, t0);
	fputs("]}", out);
}
