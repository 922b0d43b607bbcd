/* SPDX-License-Identifier: GPL-2.0 */
/* fragview.h - the subcommands and what they share. */
#ifndef FRAGVIEW_H
#define FRAGVIEW_H

#include <stdbool.h>

#include "model.h"
#include "parse-options.h"
#include "render.h"

#define FRAGVIEW_VERSION "0.1"

int cmd_map(int argc, char **argv);
int cmd_stats(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_dump(int argc, char **argv);
int cmd_blame(int argc, char **argv);
int cmd_compact(int argc, char **argv);

/*
 * Options more than one command takes: one -h line and one man page
 * paragraph each (cmd_common.c).
 */
struct option opt_zone(struct map_opts *o);	/* -z, --zone N/ZONE */
struct option opt_map_format(const char **format);	/* -f, --format */
struct option opt_output(const char **path);	/* -o, --output FILE */
struct option opt_help(void);			/* -h, --help */

/* The options that draw a map: the end of map's and dump's tables. */
#define OPT_MAP_DRAWING(map_opts, format, output) \
	opt_zone(map_opts), opt_map_format(format), opt_output(output), \
	opt_help(), OPT_END()

/* The renderer for --format (NULL: the default for a map), or exit 64. */
const struct renderer *pick_renderer(const char *cmd, const char *format,
				     bool for_map, const char *out_path);

/*
 * 0 if --zone is unset or picks a zone of m; else -1 after one line
 * naming path and the zones it has (the input lacks what was asked).
 */
int check_zone_filter(const char *path, const struct fv_model *m,
		      const struct map_opts *o);

/* Renders the map to path ("-" or NULL: stdout); 0 or -1 (reported). */
int write_map(const struct renderer *r, const char *path,
	      const struct fv_model *m, const struct map_opts *o);

#endif /* FRAGVIEW_H */
