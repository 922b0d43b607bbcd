// SPDX-License-Identifier: GPL-2.0
/* cmd_map.c - "fragview map": the pageblock map of a capture. */
#include <string.h>

#include "blame.h"
#include "capture.h"
#include "fragview.h"
#include "opts.h"
#include "render_map_color.h"
#include "util.h"

static const char about[] =
"Draws every pageblock of the captured zones, coloured by migratetype,\n"
"as it was at TIME: the first pageblock_state snapshot replayed with\n"
"every pageblock_flip up to TIME (default: the end of the capture).\n"
"--view shows instead the free pages, the largest free order or the\n"
"foreign pages of each block as its latest snapshot or census at or\n"
"before TIME says, or the steals from it up to TIME.\n";

/* --view's choices, the views of render_map_color.h */
static const char *const *view_names(void)
{
	static const char *names[MAP_COLOR_NR + 1];

	for (int i = 0; i < MAP_COLOR_NR; i++)
		names[i] = map_color_name(i);
	return names;
}

static const char view_doc[] =
"What a block's colour (txt: its character) shows:\n"
".B type\n"
"(the migratetype, the default),\n"
".B free\n"
"(free pages, in eighths of a block),\n"
".B order\n"
"(the largest free order: where an allocation of "
"that order can come from),\n"
".B pollution\n"
"(foreign pages: pages whose mobility is not the "
"block type's, from\n"
".BR mobility:pageblock_census ),\n"
"or\n"
".B steals\n"
"(fallback steals from the block up to\n"
".IR TIME ).\n"
"Free pages, orders and foreign pages are known at "
"snapshot and census times only: each block shows "
"its latest record at or before\n"
".IR TIME ,\n"
"and the legend says from when.\n"
"A capture without the view's events is an error "
"(exit status 3).\n"
"Before\n"
".B \\-\\-view\n"
"existed,\n"
".B \\-\\-color\n"
".I VIEW\n"
"chose the view; that spelling still works, with a warning.";

static const char at_doc[] =
"Draw the map at\n"
".IR TIME :\n"
"seconds as\n"
".B trace-cmd report\n"
"prints them (for example\n"
".BR 1234.567890 ),\n"
"or\n"
".BI + SECONDS\n"
"after the first event.\n"
"Default: the end of the capture (or of the window, see\n"
".BR \\-\\-to ).\n"
"A time outside the capture is drawn with a warning.";

/*
 * A view the capture has no data for is an error (exit 3), in one line
 * that says what to record; not an empty map.
 */
static int check_color(const char *path, const struct fv_model *m, int color)
{
	switch (color) {
	case MAP_COLOR_POLLUTION:
		if (m->nr_census)
			return 0;
		warn("no mobility:pageblock_census events in %s: --view pollution needs a census (echo 1 > /sys/kernel/debug/mobility/census while recording)",
		     path);
		return -1;
	case MAP_COLOR_STEALS:
		if (m->expect_steal_events)
			return 0;
		warn("no mobility:pageblock_steal events in %s: --view steals needs them (record with -e mobility:pageblock_steal)",
		     path);
		return -1;
	}
	return 0;
}

static void put_ts(char *buf, size_t size, uint64_t ts)
{
	snprintf(buf, size, "%llu.%06llu", (unsigned long long)(ts / 1000000000),
		 (unsigned long long)(ts % 1000000000 / 1000));
}

/* --at: relative to the capture's first event, warned about if outside */
static void resolve_at(const char *path, const struct fv_model *m,
		       const struct capture_filter *f,
		       const struct opt_time *at, struct map_opts *o)
{
	char first[32], last[32];

	if (!at->set)
		return;
	o->have_at = true;
	o->at_ts = opt_time_at(at, f->first_ts);
	if (o->at_ts >= m->first_ts && o->at_ts <= m->last_ts)
		return;
	put_ts(first, sizeof(first), m->first_ts);
	put_ts(last, sizeof(last), m->last_ts);
	warn("%s: --at %s is outside the %s (%s .. %s)", path, at->text,
	     f->nr_outside ? "window" : "capture", first, last);
}

int cmd_map(int argc, char **argv)
{
	const char *input = NULL, *path;
	struct map_opts o = { .zone_nid = -1, .zone_type = -1 };
	struct output_choice oc = { .view = &o.color };
	struct capture_filter filter = { 0 };
	struct opt_time at = { 0 };
	const struct option options[] = {
		opt_input(&input),
		{ .type = OPTION_TIME, .short_name = 'a', .long_name = "at",
		  .argh = "TIME", .value = &at, .bad = "time",
		  .help = "draw the map at TIME: seconds as 'trace-cmd report' "
			  "prints them (e.g. 1234.567890), or +SECONDS from "
			  "the first event; default: the end",
		  .doc = at_doc },
		OPT_WINDOW(&filter),
		OPT_CHOICE(0, "view", &o.color, "VIEW", view_names(), "view",
			   "colour blocks by type (default), free (free "
			   "pages), order (largest free order), pollution "
			   "(foreign pages, from the census) or steals "
			   "(steals up to TIME)", view_doc),
		opt_not_here("cpu", "a map replays the flips of every CPU"),
		OPT_NO_TASK_FILTER,
		OPT_MAP_DRAWING(&o, &oc)
	};
	const struct cmd_syntax syntax = CAPTURE_SYNTAX("map", about, options);
	struct fv_trace_info info;
	const struct renderer *r;
	struct fv_blame b;
	struct fv_model m;
	int ret;

	path = parse_capture(&syntax, argc, argv, &input, &filter);
	r = pick_renderer("map", &oc, RENDER_MAP);
	o.title = path;

	fv_model_init(&m);
	/* the views of free space, orders and pollution over time */
	m.keep_space_times = r->map == render_map_html ||
			     o.color != MAP_COLOR_TYPE;
	fv_blame_init(&b);
	/* the HTML block details say who stole from and flipped a block */
	ret = load_capture_blame(path, &m, NULL, r->map == render_map_html ?
				 &b : NULL, NEED_SNAPSHOT, &info, &filter);
	if (b.nr_recs)
		o.blame = &b;
	if (!ret) {
		check_window("map", &filter);
		resolve_at(path, &m, &filter, &at, &o);
	}
	if (ret || check_zone_filter(path, &m, &o) ||
	    check_color(path, &m, o.color)) {
		fv_blame_free(&b);
		capture_free(&m);
		return EXIT_UNREADABLE;
	}
	ret = write_map(r, oc.path, &m, &o);
	fv_blame_free(&b);
	capture_free(&m);
	return ret ? EXIT_NO_OUTPUT : 0;
}
