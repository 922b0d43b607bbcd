// SPDX-License-Identifier: GPL-2.0
/*
 * render_map_html_views.c - the colour views of the HTML map (map
 * --color, render_map_color.h) as page data, for html/views.js.
 *
 * Per view: its buckets (glyph, colour, label, exactly what the txt and
 * svg maps draw) and the changes of every shown block's cell in time
 * order, as columns: "t" (ns since the previous change, the first since
 * t0), "b" (block), "k" (bucket), "v" (value), "s" (the record: seq * 2
 * + 1 for a census, 0 for steals) and, for pollution, "n" (the record's
 * page counts, "counts" names them: what the block holds).  A block's
 * cell at time t is its last
 * change at or before t, or bucket "init" before its first one: the
 * rule of map_color_cell(), so the page draws what `fragview map --color
 * VIEW --at t` prints.  Steals change a cell only when the count enters
 * another bucket, which keeps the page small.
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
	/* the columns are written one after another: pass 0..5 */
	int col;
};

struct change {
	uint64_t ts;
	int32_t block;			/* emitted index */
	unsigned int bucket;
	int64_t value;
	uint32_t src;
	const uint16_t *n;		/* census counts (pollution) */
};

static void put_change(struct view_out *w, const struct change *c)
{
	const char *sep = w->n++ ? "," : "";

	switch (w->col) {
	case 0:
		fprintf(w->out, "%s%" PRIu64, sep, c->ts - w->prev_ts);
		w->prev_ts = c->ts;
		break;
	case 1:
		fprintf(w->out, "%s%d", sep, c->block);
		break;
	case 2:
		fprintf(w->out, "%s%u", sep, c->bucket);
		break;
	case 3:
		fprintf(w->out, "%s%" PRId64, sep, c->value);
		break;
	case 4:
		fprintf(w->out, "%s%" PRIu32, sep, c->src);
		break;
	case 5:
		fputs(sep, w->out);
		fputc('[', w->out);
		for (int k = 0; k < FV_CN_NR; k++)
			fprintf(w->out, k ? ",%u" : "%u", c->n ? c->n[k] : 0);
		fputc(']', w->out);
		break;
	}
}

static void state_change(const struct fv_model *m, int color,
			 const struct fv_state_rec *r, int32_t block,
			 struct change *c)
{
	int64_t v = color == MAP_COLOR_FREE ? (int64_t)r->free_pages
					    : r->largest_order;

	*c = (struct change){ .ts = r->ts, .block = block, .value = v,
		.bucket = map_color_bucket(color, m->pageblock_order, true,
					   true, v),
		.src = r->seq * 2 };
}

static void census_change(const struct fv_model *m, int color,
			  const struct fv_census_rec *r, int32_t block,
			  struct change *c)
{
	bool classed = fv_mt_mobility(r->mt) != FV_MOB_NONE;
	int64_t v = color == MAP_COLOR_FREE ? r->n[FV_CN_FREE]
					    : fv_census_foreign(r->n, r->mt);

	*c = (struct change){ .ts = r->ts, .block = block, .value = v,
		.bucket = map_color_bucket(color, m->pageblock_order, true,
					   classed, v),
		.src = r->seq * 2 + 1, .n = r->n };
}

/*
 * Every change of the view, in time order, to w (one column per call).
 * free merges the pageblock_state and census records; at the same time
 * the census comes last, and wins, as in map_color_cell().
 */
static void walk(struct view_out *w, const struct fv_model *m, int color,
		 const int32_t *newidx, uint32_t *count)
{
	size_t s = 0, k = 0;
	bool states = color == MAP_COLOR_FREE || color == MAP_COLOR_ORDER;
	bool census = color == MAP_COLOR_FREE || color == MAP_COLOR_POLLUTION;
	struct change c;

	if (color == MAP_COLOR_STEALS) {
		memset(count, 0, m->nr_blocks * sizeof(*count));
		for (size_t j = 0; j < m->nr_steal_recs; j++) {
			const struct fv_steal_rec *r = &m->steal_recs[j];
			unsigned int before, after;

			if (newidx[r->block] < 0)
				continue;
			before = map_color_bucket(color, m->pageblock_order,
						  true, true, count[r->block]);
			after = map_color_bucket(color, m->pageblock_order,
						 true, true, ++count[r->block]);
			if (before == after)
				continue;
			c = (struct change){ .ts = r->ts,
				.block = newidx[r->block], .bucket = after,
				.value = count[r->block] };
			put_change(w, &c);
		}
		return;
	}
	while ((states && s < m->nr_states) || (census && k < m->nr_census)) {
		bool take_state = states && s < m->nr_states &&
			(!census || k >= m->nr_census ||
			 m->states[s].ts <= m->census[k].ts);

		if (take_state) {
			const struct fv_state_rec *r = &m->states[s++];

			if (newidx[r->block] < 0)
				continue;
			state_change(m, color, r, newidx[r->block], &c);
		} else {
			const struct fv_census_rec *r = &m->census[k++];

			if (newidx[r->block] < 0)
				continue;
			census_change(m, color, r, newidx[r->block], &c);
		}
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

static const char *source_name(int color)
{
	switch (color) {
	case MAP_COLOR_FREE:
		return "pageblock_state snapshot or census";
	case MAP_COLOR_ORDER:
		return "pageblock_state snapshot";
	case MAP_COLOR_POLLUTION:
		return "census";
	}
	return "";
}

void html_put_views(FILE *out, const struct fv_model *m,
		    const int32_t *newidx, uint64_t t0, int initial)
{
	static const char *const cols[6] = { "t", "b", "k", "v", "s", "n" };
	uint32_t *count = xcalloc(m->nr_blocks ? m->nr_blocks : 1,
				  sizeof(*count));

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

		fprintf(out, "%s\n{\"name\":", color > MAP_COLOR_FREE ? "," : "");
		map_put_json_str(out, map_color_name(color));
		fputs(",\"title\":", out);
		map_put_json_str(out, map_color_title(color));
		fputs(",\"source\":", out);
		map_put_json_str(out, source_name(color));
		fprintf(out, ",\"have\":%s,\"init\":%u,\"buckets\":[",
			have ? "true" : "false",
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
		for (int col = 0; col < (color == MAP_COLOR_POLLUTION ? 6 : 5);
		     col++) {
			struct view_out w = { .out = out, .prev_ts = t0, .col = col };

			fprintf(out, ",\"%s\":[", cols[col]);
			walk(&w, m, color, newidx, count);
			fputc(']', out);
		}
		fputc('}', out);
	}
	fputs("]}", out);
	free(count);
}
