// SPDX-License-Identifier: GPL-2.0
/* cmd_common.c - options and output shared by the subcommands. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "fragview.h"
#include "opts.h"
#include "util.h"

static int parse_zone_arg(const struct option *opt, const char *arg)
{
	struct map_opts *o = opt->value;
	int nid, zone;

	if (parse_zone(arg, &nid, &zone))
		return -1;
	o->zone_nid = nid;
	o->zone_type = zone;
	return 0;
}

/* The options of several commands, without the value they store into. */
enum { SHARED_HELP, SHARED_OUTPUT, SHARED_MAP_FORMAT, SHARED_ZONE };

static const struct option shared[] = {
	[SHARED_HELP] = OPT_HELP("this text",
		"Print the usage and the options, and exit."),
	[SHARED_OUTPUT] = OPT_STRING('o', "output", NULL, "FILE",
		"write there instead of standard output (atomically)",
		"Write to\n"
		".I FILE\n"
		"(atomically) instead of standard output."),
	[SHARED_MAP_FORMAT] = OPT_STRING('f', "format", NULL, "FORMAT",
		"ansi (default on a terminal), txt, svg or html",
		".B ansi\n"
		"(coloured, the default when standard output is a terminal),\n"
		".B txt\n"
		"(one letter per block, the default otherwise),\n"
		".BR svg ,\n"
		"or\n"
		".B html\n"
		"(a self-contained page)."),
	[SHARED_ZONE] = {
		.type = OPTION_CALLBACK, .short_name = 'z',
		.long_name = "zone", .argh = "N/ZONE",
		.callback = parse_zone_arg, .bad = "zone",
		.want = "N/ZONE or ZONE, e.g. 0/Normal",
		.help = "only this zone (e.g. 0/Normal, or Normal for all "
			"nodes)",
		.doc = "Only zone\n"
		       ".I ZONE\n"
		       ".RB ( DMA \", \" DMA32 \", \" Normal \", \" "
		       "Movable \", \" Device )\n"
		       "of node\n"
		       ".IR N ;\n"
		       ".I ZONE\n"
		       "alone selects it on every node.\n"
		       "A zone the input does not have is an error\n"
		       "(exit status 3).",
	},
};

static struct option shared_option(int which, void *value)
{
	struct option o = shared[which];

	o.value = value;
	return o;
}

struct option opt_help(void)
{
	return shared[SHARED_HELP];
}

struct option opt_output(const char **path)
{
	return shared_option(SHARED_OUTPUT, path);
}

struct option opt_map_format(const char **format)
{
	return shared_option(SHARED_MAP_FORMAT, format);
}

struct option opt_zone(struct map_opts *o)
{
	return shared_option(SHARED_ZONE, o);
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

static void zone_text(char *buf, size_t size, int nid, int zone)
{
	if (nid >= 0)
		snprintf(buf, size, "%d/%s", nid, fv_zone_name(zone));
	else
		snprintf(buf, size, "%s", fv_zone_name(zone));
}

int check_zone_filter(const char *path, const struct fv_model *m,
		      const struct map_opts *o)
{
	char want[64], have[256] = "";
	size_t used = 0;

	/* a model without zones draws an empty map, filter or not */
	if ((o->zone_nid < 0 && o->zone_type < 0) || !m->nr_zones)
		return 0;
	for (size_t i = 0; i < m->nr_zones; i++) {
		const struct fv_zone *z = &m->zones[i];

		if ((o->zone_nid < 0 || z->nid == o->zone_nid) &&
		    (o->zone_type < 0 || z->zone == o->zone_type))
			return 0;
		if (used < sizeof(have)) {
			char one[64];

			zone_text(one, sizeof(one), z->nid, z->zone);
			used += snprintf(have + used, sizeof(have) - used,
					 "%s%s", used ? ", " : "", one);
		}
	}
	zone_text(want, sizeof(want), o->zone_nid, o->zone_type);
	warn("%s: --zone %s matches none of its zones (%s)", path, want, have);
	return -1;
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
