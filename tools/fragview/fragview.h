/* SPDX-License-Identifier: GPL-2.0 */
/* fragview.h - the subcommands and what they share. */
#ifndef FRAGVIEW_H
#define FRAGVIEW_H

#include <stdbool.h>

#include "model.h"
#include "render.h"

#define FRAGVIEW_VERSION "0.1"

int cmd_map(int argc, char **argv);
int cmd_stats(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_dump(int argc, char **argv);

/*
 * getopt_long() with our own messages: returns the option, or -1 at the
 * end; unknown options and missing arguments exit 2 with one line.
 */
struct option;
int next_opt(const char *cmd, int argc, char **argv, const char *shortopts,
	     const struct option *longopts);

/* Exactly one positional argument after the options, or exit 2. */
const char *one_operand(const char *cmd, int argc, char **argv,
			const char *what);

/* The renderer for --format (NULL: the default for a map), or exit 2. */
const struct renderer *pick_renderer(const char *cmd, const char *format,
				     bool for_map, const char *out_path);

/* Renders the map to path ("-" or NULL: stdout); 0 or -1 (reported). */
int write_map(const struct renderer *r, const char *path,
	      const struct fv_model *m, const struct map_opts *o);

/* --zone N/ZONE into o, or exit 2. */
void parse_zone_opt(const char *cmd, const char *arg, struct map_opts *o);

/* Reads a debugfs pageblock dump into m (finished); 0 or -1 (reported). */
int load_dump(const char *path, struct fv_model *m);

/* Prints "usage" text for cmd to stdout and exits 0. */
void show_help(const char *text) __attribute__((noreturn));

#endif /* FRAGVIEW_H */
