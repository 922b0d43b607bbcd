/* SPDX-License-Identifier: GPL-2.0 */
/*
 * render.h - one interface for every output format, chosen by --format.
 *
 * A renderer may draw the block map, the statistics tables, or both;
 * a NULL hook means "this format does not apply to this command" and
 * the command says so.  Renderers only write to the FILE they are
 * given; the caller checks the stream (fflush/ferror) and reports
 * write errors, so a short output file is never silent.
 */
#ifndef FRAGVIEW_RENDER_H
#define FRAGVIEW_RENDER_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct fv_model;
struct fv_stats;
struct fv_blame;
struct fv_blame_group;

/* What "fragview blame" shows: a ranking and where it comes from. */
struct blame_view {
	const struct fv_blame *b;
	const struct fv_blame_group *g;	/* the ranking, best first */
	size_t nr;			/* groups in all */
	size_t top;			/* rows to show (<= nr) */
	int by;				/* enum fv_blame_by */
	const char *title;		/* capture file name */
};

struct map_opts {
	bool have_at;		/* --at given: draw the map at at_ts */
	uint64_t at_ts;		/* ns, trace clock */
	int zone_nid;		/* --zone N/ZONE filter; -1: all */
	int zone_type;		/* enum fv_zone_type; -1: all */
	int width;		/* terminal columns for ansi/txt (0: 80) */
	int color;		/* enum map_color (render_map_color.h) */
	const char *title;	/* capture file name, shown in headers */
	const struct fv_blame *blame;	/* who stole and flipped (html), or NULL */
};

struct fv_explanation;

/* What "fragview explain" shows: one explanation per allocation. */
struct explain_view {
	const struct fv_model *m;
	const struct fv_blame *b;	/* or NULL */
	const struct fv_explanation *e;
	size_t nr;
	size_t nr_failed;		/* failures of order >= order in all */
	unsigned int order;		/* --order */
	bool at;			/* --at: one hypothetical allocation */
	const char *title;		/* capture file name */
};

struct compact_opts {
	bool timeline;		/* --timeline: only the high-order timeline */
	const char *title;	/* capture file name, shown in headers */
};

struct renderer {
	const char *name;
	/* return 0, or -1 with errno set / message printed by warn() */
	int (*map)(FILE *out, const struct fv_model *m, const struct map_opts *o);
	int (*stats)(FILE *out, const struct fv_model *m, const struct fv_stats *s);
	int (*blame)(FILE *out, const struct blame_view *v);
	/* fragview compact: runs, outcomes, the high-order timeline */
	int (*compact)(FILE *out, const struct fv_model *m,
		       const struct compact_opts *o);
	/* fragview explain: why high-order allocations failed */
	int (*explain)(FILE *out, const struct explain_view *v);
};

/* What a command renders: which hook of a renderer it calls. */
enum render_kind { RENDER_MAP, RENDER_STATS, RENDER_BLAME, RENDER_COMPACT,
		   RENDER_EXPLAIN, RENDER_NR };

const struct renderer *renderer_find(const char *name);
/* The i-th format of the table, NULL past its end (for the fuzzer). */
const struct renderer *renderer_at(size_t i);
/* r has the hook of kind */
bool renderer_does(const struct renderer *r, enum render_kind kind);
/* "ansi|txt|svg|html" style list of the formats that have the hook */
const char *renderer_names(enum render_kind kind);

int render_map_ansi(FILE *out, const struct fv_model *m, const struct map_opts *o);
int render_map_txt(FILE *out, const struct fv_model *m, const struct map_opts *o);
int render_map_svg(FILE *out, const struct fv_model *m, const struct map_opts *o);
int render_map_html(FILE *out, const struct fv_model *m, const struct map_opts *o);

int render_stats_txt(FILE *out, const struct fv_model *m, const struct fv_stats *s);
int render_stats_csv(FILE *out, const struct fv_model *m, const struct fv_stats *s);
int render_stats_json(FILE *out, const struct fv_model *m, const struct fv_stats *s);

int render_blame_txt(FILE *out, const struct blame_view *v);
int render_blame_csv(FILE *out, const struct blame_view *v);
int render_blame_json(FILE *out, const struct blame_view *v);

/*
 * The top polluters (tasks and sites) for the stats renderers, when the
 * capture has tasks (stats.blame set): a section of each format
 * (render_blame.c).
 */
struct tab;
void render_blame_stats(struct tab *t, const struct fv_blame *b);

/*
 * The HTML map's ",\"blame\":{...}" member: for each emitted block
 * (newidx: model block -> emitted index, -1: not shown) its latest steals
 * and flips with task and stack (render_map_html_blame.c).
 */
void html_put_blame(FILE *out, const struct fv_model *m,
		    const struct fv_blame *b, const int32_t *newidx, uint64_t t0);

/*
 * The HTML map's ",\"explain\":[...]" member: each failed high-order
 * allocation's cause, verdict and nearest blocks (emitted indices), for
 * the timeline (render_map_html_explain.c).
 */
void html_put_explain(FILE *out, const struct fv_model *m,
		      const struct fv_blame *b, const int32_t *newidx, uint64_t t0);

int render_compact_txt(FILE *out, const struct fv_model *m, const struct compact_opts *o);
int render_compact_csv(FILE *out, const struct fv_model *m, const struct compact_opts *o);
int render_compact_json(FILE *out, const struct fv_model *m, const struct compact_opts *o);

int render_explain_txt(FILE *out, const struct explain_view *v);
int render_explain_json(FILE *out, const struct explain_view *v);

#endif /* FRAGVIEW_RENDER_H */
