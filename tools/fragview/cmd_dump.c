// SPDX-License-Identifier: GPL-2.0
/* cmd_dump.c - "fragview dump": a debugfs pageblock dump as a map. */
#include <errno.h>
#include <string.h>

#include "dump.h"
#include "fragview.h"
#include "util.h"

static const char about[] =
"Draws the map of a pageblock dump read from the mobility debugfs file\n"
"(FILE '-' reads standard input); no trace is needed.\n";

/*
 * Reads a debugfs pageblock dump into m (finished), as load_capture()
 * reads a capture.  Returns 0, or -1 after one line on stderr.
 */
static int load_dump(const char *path, struct fv_model *m)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "r") : stdin;
	char err[512];
	int ret;

	if (!f) {
		warn("%s: %s", path, strerror(errno));
		return -1;
	}
	ret = fv_dump_load(f, path, m, err, sizeof(err));
	if (f != stdin)
		fclose(f);
	if (ret) {
		warn("%s", err);
		return -1;
	}
	fv_model_finish(m);
	return 0;
}

int cmd_dump(int argc, char **argv)
{
	const char *input = NULL, *path;
	struct map_opts o = { .zone_nid = -1, .zone_type = -1 };
	struct output_choice oc = { 0 };
	const struct option options[] = {
		opt_input(&input),
		opt_not_here("from", "a dump is one instant"),
		opt_not_here("to", "a dump is one instant"),
		opt_not_here("cpu", "a dump has no events"),
		OPT_NO_TASK_FILTER,
		OPT_MAP_DRAWING(&o, &oc)
	};
	const struct cmd_syntax syntax = {
		.name = "dump", .operands = "FILE",
		.missing = "FILE (a pageblock dump, or - for standard input)",
		.about = about, .options = options,
	};
	const struct renderer *r;
	struct fv_model m;
	int ret;

	path = parse_input(&syntax, argc, argv, &input, NULL);
	r = pick_renderer("dump", &oc, RENDER_MAP);
	o.title = path;

	fv_model_init(&m);
	if (load_dump(path, &m) || check_zone_filter(path, &m, &o)) {
		fv_model_free(&m);
		return EXIT_UNREADABLE;
	}
	ret = write_map(r, oc.path, &m, &o);
	fv_model_free(&m);
	return ret ? EXIT_NO_OUTPUT : 0;
}
