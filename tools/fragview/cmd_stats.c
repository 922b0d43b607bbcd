// SPDX-License-Identifier: GPL-2.0
/* cmd_stats.c - "fragview stats": what moved, where, and why. */
#include <getopt.h>

#include "capture.h"
#include "fragview.h"
#include "stats.h"
#include "util.h"

static const char help[] =
"usage: fragview stats CAPTURE [--format txt|csv|json] [-o OUTPUT]\n"
"\n"
"Steals by (allocation type -> block type, claimed, order, fallback order),\n"
"pageblock flips by (old -> new, reason), per-cpu list drains by (cpu,\n"
"reason, pages per type), migrations by (reason, mode) with success rates\n"
"and results, blocks per type and zone at the start and the end, and the\n"
"unusable free space and fragmentation indices of mm/vmstat.c per order\n"
"(estimated from the snapshots' per-block free pages and largest order).\n"
"\n"
"  -f, --format FMT   txt (default), csv or json\n"
"  -o, --output FILE  write there instead of standard output (atomically)\n"
"  -h, --help         this text\n";

static const struct option long_opts[] = {
	{ "format", required_argument, NULL, 'f' },
	{ "output", required_argument, NULL, 'o' },
	{ "help",   no_argument,       NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

int cmd_stats(int argc, char **argv)
{
	const char *format = NULL, *output = NULL, *path;
	struct fv_trace_info info;
	const struct renderer *r;
	struct fv_stats *s;
	struct fv_model m;
	struct out out;
	int c, ret;

	while ((c = next_opt("stats", argc, argv, ":f:o:h", long_opts)) != -1) {
		switch (c) {
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
	path = one_operand("stats", argc, argv, "CAPTURE (a trace.dat file)");
	r = pick_renderer("stats", format, false, output);

	fv_model_init(&m);
	s = fv_stats_new();
	if (!s)
		die("out of memory");
	if (load_capture(path, &m, s, NEED_ANY, &info)) {
		fv_stats_free(s);
		fv_model_free(&m);
		return EXIT_UNREADABLE;
	}
	ret = out_open(&out, output);
	if (!ret) {
		if (r->stats(out.f, &m, s)) {
			out_abort(&out);
			ret = -1;
		} else {
			ret = out_close(&out);
		}
	}
	fv_stats_free(s);
	fv_model_free(&m);
	return ret ? 1 : 0;
}
