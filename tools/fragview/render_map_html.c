// SPDX-License-Identifier: GPL-2.0
/*
 * render_map_html.c - one self-contained HTML file to explore a capture:
 * the map on a <canvas>, a time slider replaying every flip, block
 * details with their recent history, and charts over time.
 *
 * This file only writes the page skeleton and the model as JSON; the
 * CSS, markup and JavaScript live in html/ and are compiled in by
 * html/embed.sh (see html/README.md), so they can be read and linted as
 * what they are.  Nothing is fetched at view time.
 *
 * The JSON is columnar and delta-coded so that ~100k flips stay a few
 * MB.  Times are ns relative to "t0" (the first event), which keeps them
 * exact as JavaScript numbers.  Only blocks of the zones passing the
 * --zone filter are written, renumbered from 0.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "integrity.h"
#include "migform.h"
#include "render_map_common.h"
#include "render_map_html_views.h"
#include "render_map_compact.h"
#include "util.h"

/*
 * html/ assets, compiled in by html/embed.sh (html/assets.c).  Not
 * selftest.js: test code, which tests/html/run.sh adds to the pages it
 * opens.
 */
extern const char fv_html_css[], fv_html_body[], fv_html_js[],
		  fv_html_charts_js[], fv_html_views_js[],
		  fv_html_blame_js[], fv_html_compact_js[], fv_html_explain_js[];

struct html_ctx {
	FILE *out;
	const struct fv_model *m;
	const struct map_view *v;
	int32_t *newidx;		/* model block -> emitted index, or -1 */
	uint32_t *oldidx;		/* emitted index -> model block */
	size_t n;			/* emitted blocks */
	uint64_t t0;
};

/* Writes key:[f(0),...,f(n-1)] for the emitted blocks. */
#define PUT_BLOCK_ARRAY(c, key, fmt, expr) do {				\
	fprintf((c)->out, ",\n\"%s\":[", key);				\
	for (size_t _k = 0; _k < (c)->n; _k++) {			\
		const struct fv_block *b = &(c)->m->blocks[(c)->oldidx[_k]]; \
		fprintf((c)->out, _k ? "," fmt : fmt, expr);		\
		(void)b;						\
	}								\
	fputc(']', (c)->out);						\
} while (0)

static void put_name_table(FILE *out, const char *key,
			   const char *(*name)(int), int nr)
{
	fprintf(out, "\"%s\":[", key);
	for (int i = 0; i < nr; i++) {
		if (i)
			fputc(',', out);
		map_put_json_str(out, name(i));
	}
	fputc(']', out);
}

/* The name functions take enums; adapt them to one signature. */
static const char *mt_name(int i) { return fv_mt_name(i); }
static const char *zone_name(int i) { return fv_zone_name(i); }
static const char *flip_name(int i) { return fv_flip_reason_name(i); }
static const char *drain_name(int i) { return fv_drain_reason_name(i); }
static const char *mode_name(int i) { return fv_mode_name(i); }
static const char *mr_name(int i) { return fv_mr_name(i); }
static const char *ev_name(int i) { return fv_ev_kind_name(i); }

/* Where the migration counts come from (migform.h): charts, details. */
static void put_migform(FILE *out, const struct fv_migform *f)
{
	const char *from[] = { fv_migform_ok_source(f),
			       fv_migform_failed_source(f) };

	fprintf(out, ",\"mig\":{\"okUnrecorded\":%s",
		fv_migform_ok_unrecorded(f) ? "true" : "false");
	fputs(",\"ok\":", out);
	from[0] ? map_put_json_str(out, from[0]) : (void)fputs("null", out);
	fputs(",\"failed\":", out);
	from[1] ? map_put_json_str(out, from[1]) : (void)fputs("null", out);
	fputc('}', out);
}

static void put_names(FILE *out)
{
	fputs(",\n\"names\":{", out);
	put_name_table(out, "mt", mt_name, FV_MT_NR);
	fputc(',', out);
	put_name_table(out, "zone", zone_name, FV_ZONE_NR);
	fputc(',', out);
	put_name_table(out, "flip", flip_name, FV_FLIP_NR);
	fputc(',', out);
	put_name_table(out, "drain", drain_name, FV_DRAIN_NR);
	fputc(',', out);
	put_name_table(out, "mode", mode_name, FV_MODE_NR);
	fputc(',', out);
	put_name_table(out, "mr", mr_name, FV_MR_NR);
	fputc(',', out);
	put_name_table(out, "ev", ev_name, FV_EV_NR);
	fputc('}', out);
}

/*
 * key:"<one digit per emitted block>": the type before any flip (where
 * the page's replay starts, as fv_model_types_at() does), or now (what
 * the replay must reach at the end).
 */
static void put_types(struct html_ctx *c, const char *key, bool start)
{
	fprintf(c->out, ",\n\"%s\":\"", key);
	for (size_t k = 0; k < c->n; k++) {
		const struct fv_block *b = &c->m->blocks[c->oldidx[k]];

		fputc('0' + map_mt_clamp(start ? b->mt_start : b->mt), c->out);
	}
	fputc('"', c->out);
}

static void put_blocks(struct html_ctx *c)
{
	const struct fv_model *m = c->m;
	uint64_t prev = 0;
	size_t first = 0;
	bool any = false;

	fputs(",\n\"zones\":[", c->out);
	for (size_t z = 0; z < m->nr_zones; z++) {
		const struct fv_zone *zone = &m->zones[z];

		if (!c->v->zone_shown[z])
			continue;
		fprintf(c->out, "%s[%d,%u,%zu,%zu]", any ? "," : "", zone->nid,
			zone->zone, first, zone->nr);
		first += zone->nr;
		any = true;
	}
	fputs("],\n\"pfn\":[", c->out);
	for (size_t k = 0; k < c->n; k++) {
		uint64_t pfn = m->blocks[c->oldidx[k]].pfn;

		/* deltas; negative only across zones of different nodes */
		fprintf(c->out, k ? ",%" PRId64 : "%" PRId64,
			(int64_t)(pfn - prev));
		prev = pfn;
	}
	fputc(']', c->out);
	put_types(c, "start", true);
	put_types(c, "final", false);
	PUT_BLOCK_ARRAY(c, "steals", "%u", b->n.steals);
	PUT_BLOCK_ARRAY(c, "claims", "%u", b->n.claims);
	PUT_BLOCK_ARRAY(c, "flips", "%u", b->n.flips);
	PUT_BLOCK_ARRAY(c, "mok", "%u", b->n.migrate_ok);
	PUT_BLOCK_ARRAY(c, "mfail", "%u", b->n.migrate_fail);
	PUT_BLOCK_ARRAY(c, "free", "%u", b->free_pages);
	PUT_BLOCK_ARRAY(c, "lorder", "%d", b->largest_order);
}

/* A flip the page replays: of a shown block, not already in its base. */
static bool flip_shown(const struct html_ctx *c, const struct fv_flip_rec *r)
{
	return c->newidx[r->block] >= 0 && !(r->flags & FV_FLIP_BEFORE);
}

static void put_flips(struct html_ctx *c)
{
	const struct fv_model *m = c->m;
	uint64_t prev = c->t0;
	bool any;

	/* t: ns since the previous flip written (the first: since t0) */
	fputs(",\n\"flipT\":[", c->out);
	any = false;
	for (size_t f = 0; f < m->nr_flips; f++) {
		if (!flip_shown(c, &m->flips[f]))
			continue;
		fprintf(c->out, any ? ",%" PRIu64 : "%" PRIu64,
			m->flips[f].ts - prev);
		prev = m->flips[f].ts;
		any = true;
	}
	fputs("],\n\"flipB\":[", c->out);
	any = false;
	for (size_t f = 0; f < m->nr_flips; f++) {
		int32_t k = c->newidx[m->flips[f].block];

		if (!flip_shown(c, &m->flips[f]))
			continue;
		fprintf(c->out, any ? ",%d" : "%d", k);
		any = true;
	}
	/* new_mt | old_mt << 3 | reason << 6 */
	fputs("],\n\"flipM\":[", c->out);
	any = false;
	for (size_t f = 0; f < m->nr_flips; f++) {
		const struct fv_flip_rec *r = &m->flips[f];

		if (!flip_shown(c, r))
			continue;
		fprintf(c->out, any ? ",%u" : "%u",
			map_mt_clamp(r->new_mt) | map_mt_clamp(r->old_mt) << 3 |
			(r->reason < FV_FLIP_NR ? r->reason : FV_FLIP_UNKNOWN) << 6);
		any = true;
	}
	fputc(']', c->out);
}

static void put_hist_rec(struct html_ctx *c, const struct fv_hist_rec *r,
			 bool first)
{
	fprintf(c->out, "%s[%" PRId64 ",%u,%u,%u,%u,%d]", first ? "" : ",",
		(int64_t)(r->ts - c->t0), r->kind, r->a, r->b, r->c, r->v);
}

/* "hist":{"<index>":[[t,kind,a,b,c,v],...],...}, oldest first */
static void put_hist(struct html_ctx *c)
{
	bool any = false;

	fputs(",\n\"hist\":{", c->out);
	for (size_t k = 0; k < c->n; k++) {
		const struct fv_hist_rec *p1, *p2;
		size_t n1, n2;

		if (!fv_model_block_hist(c->m, c->oldidx[k], &p1, &n1, &p2, &n2))
			continue;
		fprintf(c->out, "%s\"%zu\":[", any ? ",\n" : "", k);
		for (size_t j = 0; j < n1; j++)
			put_hist_rec(c, &p1[j], j == 0);
		for (size_t j = 0; j < n2; j++)
			put_hist_rec(c, &p2[j], n1 == 0 && j == 0);
		fputc(']', c->out);
		any = true;
	}
	fputc('}', c->out);
}

#define PUT_BUCKETS(c, key, field) do {					\
	fprintf((c)->out, ",\"%s\":[", key);				\
	for (size_t _i = 0; _i < (c)->m->nr_buckets_used; _i++)		\
		fprintf((c)->out, _i ? ",%u" : "%u",			\
			(c)->m->buckets[_i].field);			\
	fputc(']', (c)->out);						\
} while (0)

static void put_buckets(struct html_ctx *c)
{
	const struct fv_model *m = c->m;

	fprintf(c->out, ",\n\"buckets\":{\"ns\":%" PRIu64 ",\"n\":%zu",
		m->bucket_ns, m->nr_buckets_used);
	PUT_BUCKETS(c, "steals", steals);
	PUT_BUCKETS(c, "claims", claims);
	PUT_BUCKETS(c, "flips", flips);
	PUT_BUCKETS(c, "drains", drains);
	PUT_BUCKETS(c, "drained", drained_pages);
	PUT_BUCKETS(c, "mok", migrate_ok);
	PUT_BUCKETS(c, "mfail", migrate_fail);
	/* blocks per type before the first flip, all zones: the base of
	 * the "change" chart */
	{
		uint64_t start[FV_MT_NR] = { 0 };

		for (size_t i = 0; i < m->nr_blocks; i++)
			start[map_mt_clamp(m->blocks[i].mt_start)]++;
		fputs(",\"start\":[", c->out);
		for (int t = 0; t < FV_MT_NR; t++)
			fprintf(c->out, t ? ",%" PRIu64 : "%" PRIu64, start[t]);
		fputc(']', c->out);
	}
	/* blocks per type at each bucket's end, FV_MT_NR per bucket */
	fputs(",\"types\":[", c->out);
	for (size_t i = 0; i < m->nr_buckets_used; i++)
		for (int t = 0; t < FV_MT_NR; t++)
			fprintf(c->out, i || t ? ",%u" : "%u",
				m->buckets[i].blocks[t]);
	fputs("]}", c->out);
}

/*
 * The replay check (fv_model_check): blocks whose replayed type differs
 * from the last snapshot, i.e. where events were lost.  null with fewer
 * than two snapshots.
 */
static void put_check(struct html_ctx *c)
{
	const struct fv_model *m = c->m;
	struct fv_mismatch *mm;
	struct fv_check chk;
	bool any = false;

	if (m->nr_snapshots < 2 || !m->nr_blocks) {
		fputs(",\n\"check\":null", c->out);
		return;
	}
	mm = xcalloc(m->nr_blocks, sizeof(*mm));
	if (fv_model_check(m, &chk, mm)) {
		fputs(",\n\"check\":null", c->out);
		free(mm);
		return;
	}
	fprintf(c->out, ",\n\"check\":{\"compared\":%zu,\"flips\":%zu,"
		"\"missing\":%zu,\"mismatches\":%zu,\"blocks\":[",
		chk.nr_compared, chk.nr_flips, chk.nr_missing,
		chk.nr_mismatches);
	/* [index, type in the snapshot, type by replay] of shown blocks */
	for (size_t k = 0; k < chk.nr_mismatches; k++) {
		int32_t i = c->newidx[mm[k].block];

		if (i < 0)
			continue;
		fprintf(c->out, "%s[%d,%u,%u]", any ? "," : "", i,
			map_mt_clamp(mm[k].expected), map_mt_clamp(mm[k].got));
		any = true;
	}
	fputs("]}", c->out);
	free(mm);
}

/* "issues":[lines]: the warning banner (lost events, ...), as text */
static void put_issue_line(const char *line, bool title, void *ctx)
{
	struct html_ctx *c = ctx;

	fputs(title ? "" : ",", c->out);
	map_put_json_str(c->out, line);
}

static void put_data(struct html_ctx *c, const struct map_opts *o)
{
	const struct fv_model *m = c->m;
	char when[64];

	map_fmt_when(when, sizeof(when), o);
	fputs("{\"version\":1,\"title\":", c->out);
	map_put_json_str(c->out, o->title ? o->title : "-");
	fputs(",\"when\":", c->out);
	map_put_json_str(c->out, when);
	fprintf(c->out, ",\"order\":%u,\"t0\":%" PRIu64 ",\"tEnd\":%" PRIu64,
		m->pageblock_order, c->t0, m->last_ts - c->t0);
	if (o->have_at)
		fprintf(c->out, ",\"at\":%" PRId64, (int64_t)(o->at_ts - c->t0));
	else
		fputs(",\"at\":null", c->out);
	fprintf(c->out, ",\"nrBlocksModel\":%zu,\"filtered\":%s",
		m->nr_blocks, c->n != m->nr_blocks ? "true" : "false");
	fprintf(c->out, ",\"baseline\":%s,\"snapshots\":%u,\"unknownBlocks\":%"
		PRIu64 ",\"outOfOrder\":%" PRIu64 ",\"flipOldMismatch\":%" PRIu64,
		m->have_baseline ? "true" : "false", m->nr_snapshots,
		m->unknown_blocks, m->out_of_order,
		/* v2: trace order may differ from gen order; gaps say it all */
		m->have_gen ? 0 : m->flip_old_mismatch);
	fputs(",\"issues\":[", c->out);
	fv_issues_banner(m, put_issue_line, c);
	fputs("],\"events\":[", c->out);
	for (int k = 0; k < FV_EV_NR; k++)
		fprintf(c->out, k ? ",%" PRIu64 : "%" PRIu64, m->nr_events[k]);
	fputc(']', c->out);
	put_migform(c->out, &m->mig);
	put_names(c->out);
	fputs(",\n\"palette\":[", c->out);
	for (int t = 0; t < FV_MT_NR; t++)
		fprintf(c->out, "%s\"#%02x%02x%02x\"", t ? "," : "",
			map_palette[t].r, map_palette[t].g, map_palette[t].b);
	fputc(']', c->out);
	put_blocks(c);
	put_flips(c);
	put_hist(c);
	put_buckets(c);
	put_check(c);
	html_put_views(c->out, m, c->newidx, c->t0, o->color);
	if (o->blame)
		html_put_blame(c->out, m, o->blame, c->newidx, c->t0);
	map_compact_html(c->out, m, c->newidx, c->t0);
	html_put_explain(c->out, m, o->blame, c->newidx, c->t0);
	fputs("}\n", c->out);
}

static void ctx_init(struct html_ctx *c, FILE *out, const struct fv_model *m,
		     const struct map_view *v)
{
	memset(c, 0, sizeof(*c));
	c->out = out;
	c->m = m;
	c->v = v;
	c->t0 = m->first_ts;
	c->newidx = xmalloc(m->nr_blocks * sizeof(*c->newidx));
	c->oldidx = xmalloc(m->nr_blocks * sizeof(*c->oldidx));
	for (size_t i = 0; i < m->nr_blocks; i++)
		c->newidx[i] = -1;
	for (size_t z = 0; z < m->nr_zones; z++) {
		const struct fv_zone *zone = &m->zones[z];

		if (!v->zone_shown[z])
			continue;
		for (size_t i = zone->first; i < zone->first + zone->nr; i++) {
			c->newidx[i] = c->n;
			c->oldidx[c->n++] = i;
		}
	}
}

static void ctx_free(struct html_ctx *c)
{
	free(c->newidx);
	free(c->oldidx);
}

int render_map_html(FILE *out, const struct fv_model *m,
		    const struct map_opts *o)
{
	struct map_view v;
	struct html_ctx c;

	if (map_view_init(&v, m, o))
		return -1;
	ctx_init(&c, out, m, &v);
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
	      "<meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width\">\n"
	      "<title>fragview: ", out);
	map_put_xml(out, o->title ? o->title : "-");
	fputs("</title>\n<style>\n", out);
	fputs(fv_html_css, out);
	fprintf(out, "</style>\n</head>\n<body data-blocks=\"%zu\">\n", c.n);
	fputs(fv_html_body, out);
	fputs("<script type=\"application/json\" id=\"fv-data\">\n", out);
	put_data(&c, o);
	fputs("</script>\n<script>\n", out);
	fputs(fv_html_charts_js, out);
	fputs("</script>\n<script>\n", out);
	fputs(fv_html_views_js, out);
	fputs("</script>\n<script>\n", out);
	fputs(fv_html_blame_js, out);
	fputs("</script>\n<script>\n", out);
	fputs(fv_html_compact_js, out);
	fputs("</script>\n<script>\n", out);
	fputs(fv_html_explain_js, out);
	fputs("</script>\n<script>\n", out);
	fputs(fv_html_js, out);
	fputs("</script>\n</body>\n</html>\n", out);
	ctx_free(&c);
	map_view_free(&v);
	return 0;
}
