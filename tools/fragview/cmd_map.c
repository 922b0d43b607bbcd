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
"--color shows instead the free pages, the largest free order or the\n"
"foreign pages of each block as its latest snapshot or census at or\n"
"before TIME says, or the steals from it up to TIME.\n";

static int parse_color_arg(const struct option *opt, const char *arg)
{
	int c = map_color_parse(arg);

	if (c < 0)
		return -1;
	*(int *)opt->value = c;
	return 0;
}

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
		warn("no mobility:pageblock_census events in %s: --color pollution needs a census (echo 1 > /sys/kernel/debug/mobility/census while recording)",
		     path);
		return -1;
	case MAP_COLOR_STEALS:
		if (m->expect_steal_events)
			return 0;
		warn("no mobility:pageblock_steal events in %s: --color steals needs them (record with -e mobility:pageblock_steal)",
		     path);
		return -1;
	}
	return 0;
}

/* --at: kept as given for the warning, relative until the capture is read */
struct at_arg {
	struct map_opts *map;
	const char *text;
	bool relative;
};

static int parse_at_arg(const struct option *opt, const char *arg)
{
	struct at_arg *at = opt->value;

	if (parse_time(arg, &at->map->at_ts, &at->relative))
		return -1;
	at->map->have_at = true;
	at->text = arg;
	return 0;
}

int cmd_map(int argc, char **argv)
{
	const char *format = NULL, *output = NULL, *path;
	struct map_opts o = { .zone_nid = -1, .zone_type = -1 };
	struct at_arg at = { .map = &o };
	const struct option options[] = {
		{ .type = OPTION_CALLBACK, .short_name = 'a', .long_name = "at",
		  .argh = "TIME", .value = &at, .callback = parse_at_arg,
		  .bad = "time", .want = "SECONDS[.FRACTION] or +SECONDS",
		  .help = "trace time in seconds as 'trace-cmd report' prints "
			  "it (e.g. 1234.567890), or +SECONDS from the first "
			  "event; default: the end of the capture",
		  .doc = "Trace time in seconds as\n"
			 ".B trace-cmd report\n"
			 "prints it (for example\n"
			 ".BR 1234.567890 ),\n"
			 "or\n"
			 ".BI + SECONDS\n"
			 "after the first event.\n"
			 "Default: the end of the capture.\n"
			 "A time outside the capture is drawn with a "
			 "warning." },
		{ .type = OPTION_CALLBACK, .short_name = 'c', .long_name = "color",
		  .argh = "VIEW", .value = &o.color, .callback = parse_color_arg,
		  .bad = "view", .want = "type, free, order, pollution or steals",
		  .help = "colour blocks by type (default), free (free pages), "
			  "order (largest free order), pollution (foreign "
			  "pages, from the census) or steals (steals up to "
			  "TIME)",
		  .doc = "What a block's colour (txt: its character) shows:\n"
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
			 "(exit status 3)." },
		OPT_MAP_DRAWING(&o, &format, &output)
	};
	const struct cmd_syntax syntax = {
		.name = "map", .operands = "CAPTURE",
		.missing = "CAPTURE (a trace.dat file)", .about = about,
		.options = options,
	};
	struct fv_trace_info info;
	const struct renderer *r;
	struct fv_blame b;
	struct fv_model m;
	int ret;

	path = parse_options_one_operand(&syntax, argc, argv);
	r = pick_renderer("map", format, true, output);
	o.title = path;

	fv_model_init(&m);
	/* the views of free space, orders and pollution over time */
	m.keep_space_times = r->map == render_map_html ||
			     o.color != MAP_COLOR_TYPE;
	fv_blame_init(&b);
	/* the HTML block details say who stole from and flipped a block */
	ret = load_capture_blame(path, &m, NULL, r->map == render_map_html ?
				 &b : NULL, NEED_SNAPSHOT, &info);
	if (b.nr_recs)
		o.blame = &b;
	if (!ret && o.have_at) {
		if (at.relative)
			o.at_ts += m.first_ts;
		if (o.at_ts < m.first_ts || o.at_ts > m.last_ts)
			warn("%s: --at %s is outside the capture (%llu.%06llu .. %llu.%06llu)",
			     path, at.text,
			     (unsigned long long)(m.first_ts / 1000000000),
			     (unsigned long long)(m.first_ts % 1000000000 / 1000),
			     (unsigned long long)(m.last_ts / 1000000000),
			     (unsigned long long)(m.last_ts % 1000000000 / 1000));
	}
	if (ret || check_zone_filter(path, &m, &o) ||
	    check_color(path, &m, o.color)) {
		fv_blame_free(&b);
		fv_model_free(&m);
		return EXIT_UNREADABLE;
	}
	ret = write_map(r, output, &m, &o);
	fv_blame_free(&b);
	fv_model_free(&m);
	return ret ? EXIT_NO_OUTPUT : 0;
}
