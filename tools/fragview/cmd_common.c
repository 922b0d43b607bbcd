// SPDX-License-Identifier: GPL-2.0
/* cmd_common.c - option handling and output shared by the subcommands. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "fragview.h"
#include "opts.h"
#include "util.h"

int next_opt(const char *cmd, int argc, char **argv, const char *shortopts,
	     const struct option *longopts)
{
	int c;

	opterr = 0;
	c = getopt_long(argc, argv, shortopts, longopts, NULL);
	if (c == '?') {
		if (optopt)
			usage_error(cmd, "%s: unknown option '-%c'", cmd, optopt);
		usage_error(cmd, "%s: unknown option '%s'", cmd, argv[optind - 1]);
	}
	if (c == ':')
		usage_error(cmd, "%s: option '%s' needs a value", cmd,
			    argv[optind - 1]);
	return c;
}

const char *one_operand(const char *cmd, int argc, char **argv,
			const char *what)
{
	if (optind >= argc)
		usage_error(cmd, "%s: missing %s", cmd, what);
	if (optind + 1 < argc)
		usage_error(cmd, "%s: unexpected argument '%s'", cmd,
			    argv[optind + 1]);
	return argv[optind];
}

const struct renderer *pick_renderer(const char *cmd, const char *format,
				     bool for_map, const char *out_path)
{
	const struct renderer *r;

	if (!format) {
		bool to_tty = (!out_path || !strcmp(out_path, "-")) &&
			      isatty(STDOUT_FILENO);

		format = for_map ? (to_tty ? "ansi" : "txt") : "txt";
	}
	r = renderer_find(format);
	if (!r || !(for_map ? r->map != NULL : r->stats != NULL))
		usage_error(cmd, "%s: unknown format '%s' (one of %s)", cmd,
			    format, renderer_names(for_map));
	return r;
}

static int terminal_width(void)
{
	struct winsize ws;
	const char *cols = getenv("COLUMNS");

	if (cols && atoi(cols) > 0)
		return atoi(cols);
	if (!ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) && ws.ws_col)
		return ws.ws_col;
	return 80;
}

int write_map(const struct renderer *r, const char *path,
	      const struct fv_model *m, const struct map_opts *o)
{
	struct map_opts opts = *o;
	struct out out;

	if (!opts.width)
		opts.width = terminal_width();
	if (out_open(&out, path))
		return -1;
	if (r->map(out.f, m, &opts)) {
		out_abort(&out);
		return -1;
	}
	return out_close(&out);
}

void show_help(const char *text)
{
	fputs(text, stdout);
	if (fflush(stdout) || ferror(stdout))
		die("standard output: write failed");
	exit(0);
}

void parse_zone_opt(const char *cmd, const char *arg, struct map_opts *o)
{
	int nid, zone;

	if (parse_zone(arg, &nid, &zone))
		usage_error(cmd, "%s: bad zone '%s' (want N/ZONE or ZONE, e.g. 0/Normal)",
			    cmd, arg);
	o->zone_nid = nid;
	o->zone_type = zone;
}
