// SPDX-License-Identifier: GPL-2.0
/* cmd_dump.c - "fragview dump": a debugfs pageblock dump as a map. */
#include <errno.h>
#include <getopt.h>
#include <string.h>

#include "dump.h"
#include "fragview.h"
#include "util.h"

static const char help[] =
"usage: fragview dump FILE [--format ansi|svg|html|txt] [-o OUTPUT]\n"
"\n"
"Draws the map of a pageblock dump read from the mobility debugfs file\n"
"(FILE '-' reads standard input); no trace is needed.\n"
"\n"
"  -f, --format FMT   ansi (default on a terminal), txt, svg or html\n"
"  -z, --zone N/ZONE  only this zone (e.g. 0/Normal, or Normal for all nodes)\n"
"  -o, --output FILE  write there instead of standard output (atomically)\n"
"  -h, --help         this text\n";

static const struct option long_opts[] = {
	{ "format", required_argument, NULL, 'f' },
	{ "zone",   required_argument, NULL, 'z' },
	{ "output", required_argument, NULL, 'o' },
	{ "help",   no_argument,       NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

int load_dump(const char *path, struct fv_model *m)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "r") : stdin;
	struct fv_dump d;
	char err[512];
	int ret;

	if (!f) {
		warn("%s: %s", path, strerror(errno));
		return -1;
	}
	ret = fv_dump_parse(f, path, &d, err, sizeof(err));
	if (f != stdin)
		fclose(f);
	if (ret) {
		warn("%s", err);
		return -1;
	}
	fv_model_set_pageblock_order(m, d.pageblock_order);
	for (size_t i = 0; i < d.nr && !ret; i++)
		ret = fv_model_apply(m, &d.ev[i]);
	fv_dump_free(&d);
	if (ret) {
		warn("%s: out of memory", path);
		return -1;
	}
	fv_model_finish(m);
	return 0;
}

int cmd_dump(int argc, char **argv)
{
	const char *format = NULL, *output = NULL, *path;
	struct map_opts o = { .zone_nid = -1, .zone_type = -1 };
	const struct renderer *r;
	struct fv_model m;
	int c, ret;

	while ((c = next_opt("dump", argc, argv, ":f:z:o:h", long_opts)) != -1) {
		switch (c) {
		case 'f':
			format = optarg;
			break;
		case 'z':
			parse_zone_opt("dump", optarg, &o);
			break;
		case 'o':
			output = optarg;
			break;
		case 'h':
			show_help(help);
		}
	}
	path = one_operand("dump", argc, argv, "dump FILE");
	r = pick_renderer("dump", format, true, output);
	o.title = path;

	fv_model_init(&m);
	if (load_dump(path, &m)) {
		fv_model_free(&m);
		return EXIT_UNREADABLE;
	}
	ret = write_map(r, output, &m, &o);
	fv_model_free(&m);
	return ret ? 1 : 0;
}
