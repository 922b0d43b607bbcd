// SPDX-License-Identifier: GPL-2.0
/* cmd_common.c - options and output shared by the subcommands. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "fragview.h"
#include "opts.h"
#include "pager.h"
#include "render_map_color.h"
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

/*
 * --cpu LIST: "0,2-3" as trace-cmd report --cpu takes it, into a bitmap
 * of CAPTURE_MAX_CPUS bits.
 */
static int parse_cpus_arg(const struct option *opt, const char *arg)
{
	uint64_t **cpus = opt->value;
	uint64_t *map = xcalloc(CAPTURE_MAX_CPUS / 64, sizeof(*map));
	const char *p = arg;

	do {
		unsigned long lo, hi;
		char *end;

		if (!isdigit((unsigned char)*p))
			goto bad;
		lo = hi = strtoul(p, &end, 10);
		if (*end == '-') {
			if (!isdigit((unsigned char)end[1]))
				goto bad;
			hi = strtoul(end + 1, &end, 10);
		}
		if (lo > hi || hi >= CAPTURE_MAX_CPUS ||
		    (*end && *end != ','))
			goto bad;
		for (unsigned long c = lo; c <= hi; c++)
			map[c / 64] |= 1ULL << (c % 64);
		p = *end ? end + 1 : end;
	} while (*p);
	free(*cpus);
	*cpus = map;
	return 0;
bad:
	free(map);
	return -1;
}

static const char *const color_names[] = { "auto", "always", "never", NULL };

/*
 * --color WHEN; the old --color VIEW of map still draws that view, with
 * a warning (the views moved to --view).
 */
static int parse_color_arg(const struct option *opt, const char *arg)
{
	struct output_choice *oc = opt->value;
	int view;

	for (int i = 0; color_names[i]; i++)
		if (!strcmp(arg, color_names[i])) {
			oc->color = i;
			return 0;
		}
	view = oc->view ? map_color_parse(arg) : -1;
	if (view < 0)
		return -1;
	warn("--color %s is deprecated, use --view %s (--color says when to colour: auto, always, never)",
	     arg, arg);
	*oc->view = view;
	return 0;
}

static const char time_doc[] =
"in seconds as\n"
".B trace-cmd report\n"
"prints it (for example\n"
".BR 1234.567890 ),\n"
"or\n"
".BI + SECONDS\n"
"after the first event of the capture.";

/* The options of several commands, without the value they store into. */
enum { SHARED_HELP, SHARED_OUTPUT, SHARED_INPUT, SHARED_MAP_FORMAT,
       SHARED_ZONE, SHARED_COLOR, SHARED_FROM, SHARED_TO, SHARED_CPU };

static const struct option shared[] = {
	[SHARED_HELP] = OPT_HELP("this text",
		"Print the usage and the options, and exit."),
	[SHARED_OUTPUT] = OPT_STRING('o', "output", NULL, "FILE",
		"write there instead of standard output (atomically); "
		"without -f, its suffix (.txt, .svg, .html, .csv, .json) "
		"names the format",
		"Write to\n"
		".I FILE\n"
		"(atomically) instead of standard output.\n"
		"Without\n"
		".BR \\-f ,\n"
		"the suffix of\n"
		".I FILE\n"
		"names the format:\n"
		".BR .txt ,\n"
		".BR .svg ,\n"
		".B .html\n"
		"or\n"
		".BR .htm ,\n"
		".BR .csv ,\n"
		".BR .json ;\n"
		"one the command cannot write is a usage error,\n"
		"any other suffix gives the default format."),
	[SHARED_INPUT] = OPT_STRING('i', "input", NULL, "FILE",
		"read FILE (default: the operand, else trace.dat, as "
		"trace-cmd report)",
		"Read\n"
		".IR FILE ,\n"
		"as\n"
		".B trace\\-cmd report \\-i\n"
		"does; the same as the operand.\n"
		"Without either, the capture is\n"
		".I trace.dat\n"
		"in the current directory."),
	[SHARED_MAP_FORMAT] = OPT_STRING('f', "format", NULL, "FORMAT",
		"ansi, txt, svg or html; default: from -o's suffix, else "
		"ansi when coloured (see --color), else txt",
		".B ansi\n"
		"(coloured),\n"
		".B txt\n"
		"(one letter per block),\n"
		".BR svg ,\n"
		"or\n"
		".B html\n"
		"(a self-contained page).\n"
		"It wins over the suffix of\n"
		".BR \\-o ;\n"
		"without either, the map is\n"
		".B ansi\n"
		"when\n"
		".B \\-\\-color\n"
		"says to colour, else\n"
		".BR txt ."),
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
	[SHARED_COLOR] = {
		.type = OPTION_CALLBACK, .short_name = 'c',
		.long_name = "color", .argh = "WHEN",
		.callback = parse_color_arg, .bad = "--color",
		.choices = color_names,
		.want = "auto, always or never",
		.help = "colour the map: auto (default: on a terminal, "
			"unless NO_COLOR is set), always or never",
		.doc = "When to draw the map in colour (the\n"
		       ".B ansi\n"
		       "format, unless\n"
		       ".B \\-f\n"
		       "or the suffix of\n"
		       ".B \\-o\n"
		       "names another):\n"
		       ".B auto\n"
		       "(the default: when standard output is a terminal and\n"
		       ".B NO_COLOR\n"
		       "is unset or empty),\n"
		       ".BR always ,\n"
		       "or\n"
		       ".BR never .\n"
		       "The other commands print no colour.",
	},
	[SHARED_FROM] = {
		.type = OPTION_TIME, .long_name = "from", .argh = "TIME",
		.bad = "time",
		.help = "only the events from TIME on (seconds as trace-cmd "
			"report prints them, or +SECONDS from the first event)",
	},
	[SHARED_TO] = {
		.type = OPTION_TIME, .long_name = "to", .argh = "TIME",
		.bad = "time",
		.help = "only the events up to TIME (seconds, or +SECONDS "
			"from the first event)",
	},
	[SHARED_CPU] = {
		.type = OPTION_CALLBACK, .long_name = "cpu", .argh = "LIST",
		.callback = parse_cpus_arg, .bad = "CPU list",
		.want = "CPUs and ranges, e.g. 0,2-3",
		.help = "count only the events of these CPUs (e.g. 0,2-3), "
			"as trace-cmd report --cpu",
		.doc = "Count only the events recorded on these CPUs, a "
		       "comma-separated list of numbers and ranges such as\n"
		       ".BR 0,2\\-3 ,\n"
		       "as\n"
		       ".B trace\\-cmd report \\-\\-cpu\n"
		       "takes it.",
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

struct option opt_input(const char **path)
{
	return shared_option(SHARED_INPUT, path);
}

struct option opt_map_format(const char **format)
{
	return shared_option(SHARED_MAP_FORMAT, format);
}

struct option opt_zone(struct map_opts *o)
{
	return shared_option(SHARED_ZONE, o);
}

struct option opt_color(struct output_choice *oc)
{
	return shared_option(SHARED_COLOR, oc);
}

struct option opt_cpu(uint64_t **cpus)
{
	return shared_option(SHARED_CPU, cpus);
}

/* --from and --to: one paragraph of the man page each, from time_doc */
static struct option time_option(int which, struct opt_time *t,
				 const char *what)
{
	static char doc[2][512];
	struct option o = shared_option(which, t);
	char *d = doc[which == SHARED_TO];

	snprintf(d, sizeof(doc[0]), "%s\n.IR TIME ,\n%s", what, time_doc);
	o.doc = d;
	return o;
}

struct option opt_from(struct opt_time *t)
{
	return time_option(SHARED_FROM, t,
			   "Only the events at or after");
}

struct option opt_to(struct opt_time *t)
{
	return time_option(SHARED_TO, t, "Only the events at or before");
}

struct option opt_not_here(const char *long_name, const char *why)
{
	/* "--cpu 1" must say why, not take "1" for the operand */
	return (struct option)OPT_NOT_HERE(long_name, "X", why);
}

const char *parse_input(const struct cmd_syntax *syntax, int argc,
			char **argv, const char *const *input_opt,
			const char *dflt)
{
	int nr = parse_options(syntax, argc, argv);

	if (nr > 1)
		usage_error(syntax->name, "%s: unexpected argument '%s'",
			    syntax->name, argv[1]);
	if (nr && *input_opt)
		usage_error(syntax->name, "%s: two inputs, -i %s and %s",
			    syntax->name, *input_opt, argv[0]);
	if (nr)
		return argv[0];
	if (*input_opt)
		return *input_opt;
	if (!dflt)
		usage_error(syntax->name, "%s: missing %s", syntax->name,
			    syntax->missing);
	return dflt;
}

const char *parse_capture(const struct cmd_syntax *syntax, int argc,
			  char **argv, const char *const *input_opt,
			  const struct capture_filter *filter)
{
	const char *path = parse_input(syntax, argc, argv, input_opt,
				       "trace.dat");

	check_window(syntax->name, filter);
	return path;
}

/* The format -o's suffix names, or NULL */
static const char *suffix_format(const char *path)
{
	static const char *const suffixes[][2] = {
		{ ".txt", "txt" }, { ".svg", "svg" }, { ".html", "html" },
		{ ".htm", "html" }, { ".csv", "csv" }, { ".json", "json" },
	};
	size_t len = path ? strlen(path) : 0;

	for (size_t i = 0; i < sizeof(suffixes) / sizeof(suffixes[0]); i++) {
		size_t n = strlen(suffixes[i][0]);

		if (len > n && !strcasecmp(path + len - n, suffixes[i][0]))
			return suffixes[i][1];
	}
	return NULL;
}

static bool to_stdout(const char *path)
{
	return !path || !strcmp(path, "-");
}

/* --color: auto colours a terminal, as no-color.org asks of NO_COLOR */
static bool coloured(const struct output_choice *oc)
{
	const char *no_color = getenv("NO_COLOR");

	if (oc->color != COLOR_AUTO)
		return oc->color == COLOR_ALWAYS;
	return to_stdout(oc->path) && stdout_is_tty() &&
	       !(no_color && *no_color);
}

const struct renderer *pick_renderer(const char *cmd,
				     const struct output_choice *oc,
				     enum render_kind kind)
{
	const char *format = oc->format, *from = "";
	const struct renderer *r;

	if (!format) {
		format = suffix_format(oc->path);
		from = " (the suffix of -o)";
	}
	if (!format) {
		format = kind == RENDER_MAP && coloured(oc) ? "ansi" : "txt";
		from = "";
	}
	r = renderer_find(format);
	if (!r || !renderer_does(r, kind))
		usage_error(cmd, "%s: unknown format '%s'%s (one of %s)", cmd,
			    format, from, renderer_names(kind));
	return r;
}

void check_window(const char *cmd, const struct capture_filter *f)
{
	bool alike = f->from.relative == f->to.relative;

	if (!f->from.set || !f->to.set)
		return;
	/* absolute against relative: only the capture says which is later */
	if (alike ? f->from.ns > f->to.ns : f->from_ns > f->to_ns)
		usage_error(cmd, "%s: --from %s is after --to %s", cmd,
			    f->from.text, f->to.text);
}

int out_open_paged(struct out *out, const char *path)
{
	if (to_stdout(path))
		setup_pager();
	return out_open(out, path);
}

int out_finish(struct out *out, int render_ret)
{
	if (render_ret) {
		out_abort(out);
		return -1;
	}
	return out_close(out);
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

int write_map(const struct renderer *r, const char *path,
	      const struct fv_model *m, const struct map_opts *o)
{
	struct map_opts opts = *o;
	struct out out;

	if (!opts.width)
		opts.width = term_columns();
	if (out_open_paged(&out, path))
		return -1;
	return out_finish(&out, r->map(out.f, m, &opts));
}
