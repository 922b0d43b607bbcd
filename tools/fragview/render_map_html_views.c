// SPDX-License-Identifier: GPL-2.0
/*
 * render_map_html_views.c - the colour views of the HTML map (map
 * --color, render_map_color.h) as page data, for html/views.js.
 *
 * Per view: its buckets (glyph, colour, label, exactly what the txt and
 * svg maps draw) and the changes of every shown block's cell in time
 * order, as columns: "t" (ns since the previous change, the first since
 * t0), "b" (block), "k" (bucket), "v" (value) and, for pollution, "n"
 * (the record's page counts, "counts" names them: what the block holds).
 * A block's cell at time t is its last change at or before t, or bucket
 * "init" before its first one: the rule of map_color_cell(), so the page
 * draws what `fragview map --color VIEW --at t` prints.  A record that
 * leaves the cell as it is (most snapshots of a ticker) is no change and
 * is left out, which keeps the page small; steals change a cell only
 * when the count enters another bucket, and their changes carry "s", 0.
 *
 * Which record a cell comes from (the details' "snapshot N", the
 * legend's "as of") is in "sources" (render_map_html_sources.c), once
 * for every view: "from" says which of its records a view reads (1:
 * snapshots, 2: censuses).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "census.h"
#include "render_map_common.h"
#include "render_map_html_views.h"
#include "util.h"

struct view_out {
	FILE *out;
	uint64_t prev_ts;
	size_t n;
	/* the columns are written one after another, named by a letter */
	char col;
};

struct change {
	uint64_t ts;
	int32_t block;			/* emitted index */
	unsigned int bucket;
	int64_t value;
	const uint16_t *n;		/* census counts (pollution) */
};

/* What a block's cell shows: a record that leaves it so is no change. */
struct shown {
	bool set;
	unsigned int bucket;
	int64_t value;
	const uint16_t *n;
};

static void put_change(struct view_out *w, const struct change *c)
{
	const char *sep = w->n++ ? "," : "";

	switch (w->col) {
	case 't':
		fprintf(w->out, "%s%" PRIu64, sep, c->ts - w->prev_ts);
		w->prev_ts = c->ts;
		break;
	case 'b':
		fprintf(w->out, "%s%d", sep, c->block);
		break;
	case 'k':
		fprintf(w->out, "%s%u", sep, c->bucket);
		break;
	case 'v':
		fprintf(w->out, "%s%" PRId64, sep, c->value);
		break;
	case 's':			/* steals only: no record */
		fprintf(w->out, "%s0", sep);
		break;
	case 'n':
		fputs(sep, w->out);
		fputc('[', w->out);
		for (int k = 0; k < FV_CN_NR; k++)
			fprintf(w->out, k ? ",%u" : "%u", c->n ? c->n[k] : 0);
		fputc(']', w->out);
		break;
	}
}

static void record_change(const struct fv_model *m, int color,
			  const struct html_rec *r, struct change *c)
{
	bool classed = true;
	int64_t v;

	if (r->state) {
		v = color == MAP_COLOR_FREE ? (int64_t)r->state->free_pages
					    : r->state->largest_order;
	} else {
		classed = fv_mt_mobility(r->census->mt) != FV_MOB_NONE;
		v = color == MAP_COLOR_FREE ?
			r->census->n[FV_CN_FREE] :
			fv_census_foreign(r->census->n, r->census->mt);
	}
	*c = (struct change){ .ts = r->ts, .block = r->block, .value = v,
		.bucket = map_color_bucket(color, m->pageblock_order, true,
					   classed, v),
		.n = color == MAP_COLOR_POLLUTION ? r->census->n : NULL };
}

/* Whether c changes what the block shows (and then it does). */
static bool changes_cell(struct shown *was, const struct change *c)
{
	if (was->set && was->bucket == c->bucket && was->value == c->value &&
	    (!c->n || !memcmp(was->n, c->n, FV_CN_NR * sizeof(*c->n))))
		return false;
	*was = (struct shown){ .set = true, .bucket = c->bucket,
			       .value = c->value, .n = c->n };
	return true;
}

static void walk_steals(struct view_out *w, const struct fv_model *m,
			const int32_t *newidx, uint32_t *count)
{
	int color = MAP_COLOR_STEALS;

	memset(count, 0, m->nr_blocks * sizeof(*count));
	for (size_t j = 0; j < m->nr_steal_recs; j++) {
		const struct fv_steal_rec *r = &m->steal_recs[j];
		unsigned int before, after;
		struct change c;

		if (newidx[r->block] < 0)
			continue;
		before = map_color_bucket(color, m->pageblock_order, true, true,
					  count[r->block]);
		after = map_color_bucket(color, m->pageblock_order, true, true,
					 ++count[r->block]);
		if (before == after)
			continue;
		c = (struct change){ .ts = r->ts, .block = newidx[r->block],
				     .bucket = after, .value = count[r->block] };
		put_change(w, &c);
	}
}

/*
 * Every change of the view, in time order, to w (one column per call):
 * free merges the pageblock_state and census records, order reads the
 * first, pollution the second.
 */
static void walk(struct view_out *w, const struct fv_model *m, int color,
		 const int32_t *newidx, struct shown *shown)
{
	struct html_rec_walk it;
	struct html_rec r;
	struct change c;

	html_rec_walk_init(&it, m, newidx, color != MAP_COLOR_POLLUTION,
			   color != MAP_COLOR_ORDER);
	memset(shown, 0, m->nr_blocks * sizeof(*shown));
	while (html_rec_next(&it, &r)) {
		record_change(m, color, &r, &c);
		if (changes_cell(&shown[r.block], &c))
			put_change(w, &c);
	}
}

/* Whether the capture has what the view shows (else: not offered). */
static bool view_has_data(const struct fv_model *m, int color)
{
	switch (color) {
	case MAP_COLOR_FREE:
		return m->nr_states || m->nr_census;
	case MAP_COLOR_ORDER:
		return m->nr_states;
	case MAP_COLOR_POLLUTION:
		return m->nr_census;
	case MAP_COLOR_STEALS:	/* the times are kept for maps only */
		return m->keep_steal_times &&
		       (m->expect_steal_events || m->nr_events[FV_EV_STEAL] ||
			m->nr_events[FV_EV_EXTFRAG]);
	}
	return true;
}

/*
 * Per view: what the legend says its cells come from, the records it
 * reads ("from": 1 snapshots, 2 censuses) and the columns of its changes.
 */
static const struct view_kind {
	const char *source;
	int from;
	const char *columns;
} kinds[MAP_COLOR_NR] = {
	[MAP_COLOR_FREE] = { "pageblock_state snapshot or census", 3, "tbkv" },
	[MAP_COLOR_ORDER] = { "pageblock_state snapshot", 1, "tbkv" },
	[MAP_COLOR_POLLUTION] = { "census", 2, "tbkvn" },
	[MAP_COLOR_STEALS] = { "", 0, "tbkvs" },
};

void html_put_views(FILE *out, const struct fv_model *m,
		    const int32_t *newidx, uint64_t t0, int initial)
{
	size_t nr = m->nr_blocks ? m->nr_blocks : 1;
	uint32_t *count = xcalloc(nr, sizeof(*count));
	struct shown *shown = xcalloc(nr, sizeof(*shown));

	fputs(",\n\"views\":{\"initial\":", out);
	map_put_json_str(out, map_color_name(initial));
	fputs(",\"counts\":[", out);
	for (int k = 0; k < FV_CN_NR; k++) {
		if (k)
			fputc(',', out);
		map_put_json_str(out, fv_census_count_name(k));
	}
	fputs("],\"list\":[", out);
	for (int color = MAP_COLOR_FREE; color < MAP_COLOR_NR; color++) {
		struct map_bucket b[MAP_MAX_BUCKETS];
		size_t nb = map_color_buckets(color, m->pageblock_order, b);
		bool have = view_has_data(m, color);
		const struct view_kind *kind = &kinds[color];

		fprintf(out, "%s\n{\"name\":", color > MAP_COLOR_FREE ? "," : "");
		map_put_json_str(out, map_color_name(color));
		fputs(",\"title\":", out);
		map_put_json_str(out, map_color_title(color));
		fputs(",\"source\":", out);
		map_put_json_str(out, kind->source);
		fprintf(out, ",\"have\":%s,\"from\":%d,\"init\":%u,\"buckets\":[",
			have ? "true" : "false", kind->from,
			map_color_bucket(color, m->pageblock_order,
					 color == MAP_COLOR_STEALS, true, 0));
		for (size_t k = 0; k < nb; k++) {
			char glyph[2] = { b[k].glyph, 0 };

			fprintf(out, "%s[", k ? "," : "");
			map_put_json_str(out, glyph);
			fprintf(out, ",\"#%02x%02x%02x\",", b[k].r, b[k].g, b[k].b);
			map_put_json_str(out, b[k].label);
			fputc(']', out);
		}
		fputc(']', out);
		for (const char *col = kind->columns; *col; col++) {
			struct view_out w = { .out = out, .prev_ts = t0, .col = *col };

			fprintf(out, ",\"%c\":[", *col);
			if (color == MAP_COLOR_STEALS)
				walk_steals(&w, m, newidx, count);
			else
				walk(&w, m, color, newidx, shown);
			fputc(']', out);
		}
		fputc('}', out);
	}
	fputc(']', out);
	html_put_sources(out, m, newidx, t0);
	fputc('}', out);
	free(shown);
	free(count);
}
