/* SPDX-License-Identifier: GPL-2.0 */
/* fragview.h - the subcommands and what they share. */
#ifndef FRAGVIEW_H
#define FRAGVIEW_H

#include <stdbool.h>

#include "capture.h"
#include "model.h"
#include "parse-options.h"
#include "render.h"
#include "util.h"

#define FRAGVIEW_VERSION "0.1"

int cmd_map(int argc, char **argv);
int cmd_stats(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_dump(int argc, char **argv);
int cmd_blame(int argc, char **argv);
int cmd_compact(int argc, char **argv);
int cmd_explain(int argc, char **argv);

/* --color: when a map is drawn in colour (the ansi format) */
enum color_when { COLOR_AUTO, COLOR_ALWAYS, COLOR_NEVER };

/* Where a command writes, and in which format (-f, -o, --color). */
struct output_choice {
	const char *format;	/* -f; NULL: from -o's suffix, or the default */
	const char *path;	/* -o; NULL or "-": standard output */
	int color;		/* enum color_when */
	int *view;		/* map: where the deprecated --color VIEW goes;
				 * NULL: no views */
};

/*
 * Options more than one command takes: one -h line and one man page
 * paragraph each (cmd_common.c).
 */
struct option opt_zone(struct map_opts *o);	/* -z, --zone N/ZONE */
struct option opt_map_format(const char **format);	/* -f, --format */
struct option opt_output(const char **path);	/* -o, --output FILE */
struct option opt_input(const char **path);	/* -i, --input FILE */
struct option opt_color(struct output_choice *oc);	/* --color WHEN */
struct option opt_from(struct opt_time *t);	/* --from TIME */
struct option opt_to(struct opt_time *t);	/* --to TIME */
struct option opt_cpu(uint64_t **cpus);	/* --cpu LIST */
struct option opt_help(void);			/* -h, --help */
/* An option other commands take, rejected here with the reason why. */
struct option opt_not_here(const char *long_name, const char *why);

/* The options that draw a map: the end of map's and dump's tables. */
#define OPT_MAP_DRAWING(map_opts, oc) \
	opt_zone(map_opts), opt_map_format(&(oc)->format), \
	opt_output(&(oc)->path), opt_color(oc), opt_help(), OPT_END()

/* --from and --to of a capture command */
#define OPT_WINDOW(filter) opt_from(&(filter)->from), opt_to(&(filter)->to)

/* -f FORMAT of the table commands (stats, blame, compact) */
#define OPT_TABLE_FORMAT(oc, doc) \
	OPT_STRING('f', "format", &(oc)->format, "FORMAT", \
		   "txt (default), csv or json", doc)

/* The man page's --format paragraph of a table command starts so */
#define TABLE_FORMAT_DOC ".B txt\n(tables, the default),\n.B csv\n"

/* -o FILE, -h: the end of a command's options */
#define OPT_OUTPUT_END(oc) opt_output(&(oc)->path), opt_help(), OPT_END()

/* The syntax of a command that reads one capture, trace.dat by default */
#define CAPTURE_SYNTAX(cmd, about_text, opts) { \
	.name = (cmd), .operands = "[CAPTURE]", \
	.missing = "CAPTURE (a trace.dat file)", .about = (about_text), \
	.options = (opts) }

/* Where --pid and --comm mean nothing: every command but blame */
#define OPT_NO_TASK_FILTER \
	opt_not_here("pid", "only blame filters by task"), \
	opt_not_here("comm", "only blame filters by task")

/*
 * The capture: the operand, or -i FILE, or "trace.dat" as trace-cmd
 * report reads by default (dflt NULL: the operand is required).  Parses
 * argv by syntax; exits 64 on two inputs or an extra operand.
 */
const char *parse_input(const struct cmd_syntax *syntax, int argc,
			char **argv, const char *const *input_opt,
			const char *dflt);

/*
 * parse_input() with trace.dat as the default, then check_window(): the
 * capture of a command that takes --from and --to.
 */
const char *parse_capture(const struct cmd_syntax *syntax, int argc,
			  char **argv, const char *const *input_opt,
			  const struct capture_filter *filter);

/*
 * The renderer: -f if given, else the one -o's suffix names (".svg"),
 * else the default of the kind (a map: ansi when colour is on, txt
 * otherwise; the rest: txt).  A format the command cannot write exits 64.
 */
const struct renderer *pick_renderer(const char *cmd,
				     const struct output_choice *oc,
				     enum render_kind kind);

/*
 * --from after --to: exit 64.  Called after the options (both absolute
 * or both relative) and after the load (one of each: the capture says
 * where "+0" is).
 */
void check_window(const char *cmd, const struct capture_filter *f);

/*
 * out_open(), starting the pager first when the output is a terminal
 * (pager.h).
 */
int out_open_paged(struct out *out, const char *path);

/*
 * After the renderer: out_close(), or out_abort() when it failed
 * (render_ret non-zero).  0, or -1 when nothing was written.
 */
int out_finish(struct out *out, int render_ret);

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
