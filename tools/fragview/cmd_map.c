// SPDX-License-Identifier: GPL-2.0
/* cmd_map.c - "fragview map": the pageblock map of a capture. */
#include <getopt.h>
#include <string.h>

#include "capture.h"
#include "fragview.h"
#include "opts.h"
#include "util.h"

static const char help[] =
"usage: fragview map CAPTURE [--at TIME] [--zone N/ZONE]\n"
"                    [--format ansi|svg|html|txt] [-o OUTPUT]\n"
"\n"
"Draws every pageblock of the captured zones, coloured by migratetype,\n"
"as it was at TIME: the first pageblock_state snapshot replayed with\n"
"every pageblock_flip up to TIME (default: the end of the capture).\n"
"\n"
"  -a, --at TIME      trace time in seconds as 'trace-cmd report' prints\n"
"                     it (e.g. 1234.567890), or +SECONDS from the first event\n"
"  -z, --zone N/ZONE  only this zone (e.g. 0/Normal, or Normal for all nodes)\n"
"  -f, --format FMT   ansi (default on a terminal), txt, svg or html\n"
"  -o, --output FILE  write there instead of standard output (atomically)\n"
"  -h, --help         this text\n";

static const struct option long_opts[] = {
	{ "at",     required_argument, NULL, 'a' },
	{ "zone",   required_argument, NULL, 'z' },
	{ "format", required_argument, NULL, 'f' },
	{ "output", required_argument, NULL, 'o' },
	{ "help",   no_argument,       NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

int cmd_map(int argc, char **argv)
{
	const char *format = NULL, *output = NULL, *path, *at = NULL;
	struct map_opts o = { .zone_nid = -1, .zone_type = -1 };
	struct fv_trace_info info;
	const struct renderer *r;
	struct fv_model m;
	bool relative = false;
	int c, ret;

	while ((c = next_opt("map", argc, argv, ":a:z:f:o:h", long_opts)) != -1) {
		switch (c) {
		case 'a':
			at = optarg;
			if (parse_time(at, &o.at_ts, &relative))
				usage_error("map", "map: bad time '%s' (want SECONDS[.FRACTION] or +SECONDS)",
					    at);
			o.have_at = true;
			break;
		case 'z':
			parse_zone_opt("map", optarg, &o);
			break;
		case 'f':
			format = optarg;
			break;
		case 'o':
			output = optarg;
			break;
		case 'h':
			show_help(help);
		}
	}
	path = one_operand("map", argc, argv, "CAPTURE (a trace.dat file)");
	r = pick_renderer("map", format, true, output);
	o.title = path;

	fv_model_init(&m);
	ret = load_capture(path, &m, NULL, NEED_SNAPSHOT, &info);
	if (!ret && o.have_at) {
		if (relative)
			o.at_ts += m.first_ts;
		if (o.at_ts < m.first_ts || o.at_ts > m.last_ts)
			warn("%s: --at %s is outside the capture (%llu.%06llu .. %llu.%06llu)",
			     path, at,
			     (unsigned long long)(m.first_ts / 1000000000),
			     (unsigned long long)(m.first_ts % 1000000000 / 1000),
			     (unsigned long long)(m.last_ts / 1000000000),
			     (unsigned long long)(m.last_ts % 1000000000 / 1000));
	}
	if (ret) {
		fv_model_free(&m);
		return EXIT_UNREADABLE;
	}
	ret = write_map(r, output, &m, &o);
	fv_model_free(&m);
	return ret ? 1 : 0;
}
