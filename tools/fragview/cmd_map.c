// SPDX-License-Identifier: GPL-2.0
/* cmd_map.c - "fragview map": the pageblock map of a capture. */
#include <string.h>

#include "capture.h"
#include "fragview.h"
#include "opts.h"
#include "util.h"

static const char about[] =
"Draws every pageblock of the captured zones, coloured by migratetype,\n"
"as it was at TIME: the first pageblock_state snapshot replayed with\n"
"every pageblock_flip up to TIME (default: the end of the capture).\n";

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
		OPT_MAP_DRAWING(&o, &format, &output)
	};
	const struct cmd_syntax syntax = {
		.name = "map", .operands = "CAPTURE",
		.missing = "CAPTURE (a trace.dat file)", .about = about,
		.options = options,
	};
	struct fv_trace_info info;
	const struct renderer *r;
	struct fv_model m;
	int ret;

	path = parse_options_one_operand(&syntax, argc, argv);
	r = pick_renderer("map", format, true, output);
	o.title = path;

	fv_model_init(&m);
	ret = load_capture(path, &m, NULL, NEED_SNAPSHOT, &info);
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
	if (ret || check_zone_filter(path, &m, &o)) {
		fv_model_free(&m);
		return EXIT_UNREADABLE;
	}
	ret = write_map(r, output, &m, &o);
	fv_model_free(&m);
	return ret ? EXIT_NO_OUTPUT : 0;
}
