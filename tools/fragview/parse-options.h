/* SPDX-License-Identifier: GPL-2.0 */
/*
 * parse-options.h - one option table per command, after perf's
 * tools/lib/subcmd/parse-options.h.  The table parses argv, prints
 * "fragview CMD --help" and the usage errors, and prints the OPTIONS
 * section of the command's man page (the hidden --man-options that
 * Documentation/gen-man.sh runs), so the three cannot drift apart.
 */
#ifndef FRAGVIEW_PARSE_OPTIONS_H
#define FRAGVIEW_PARSE_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

enum parse_opt_type {
	OPTION_END,
	OPTION_STRING,		/* *(const char **)value = the argument */
	OPTION_SET_TRUE,	/* *(bool *)value = true; takes no argument */
	OPTION_CHOICE,		/* *(int *)value = index of the argument in
				 * choices[] */
	OPTION_ULONG,		/* *(unsigned long *)value, min..max */
	OPTION_TIME,		/* *(struct opt_time *)value (opts.h) */
	OPTION_CALLBACK,	/* callback(opt, argument) checks and stores */
	OPTION_HELP,		/* print the command's help, exit 0 */
	OPTION_NOT_HERE,	/* an option of other commands that means
				 * nothing here: exit 64 saying why (reject);
				 * not in -h nor in the man page's OPTIONS */
};

struct option;

/*
 * Stores arg (NULL for an option without argument) through opt->value.
 * Returns 0, or -1 when arg is malformed: the parser then exits 64 with
 * "bad <opt->bad> '<arg>' (want <opt->want>)".
 */
typedef int parse_opt_cb(const struct option *opt, const char *arg);

struct option {
	enum parse_opt_type type;
	int short_name;		/* 0: none */
	const char *long_name;	/* NULL: none */
	const char *argh;	/* the argument's name; NULL: takes none */
	void *value;
	parse_opt_cb *callback;
	const char *const *choices;	/* OPTION_CHOICE: NULL-terminated; any
					 * other: what completion offers */
	unsigned long min, max;	/* OPTION_ULONG: the values allowed */
	const char *bad;	/* what a value is ("time"), for errors */
	const char *want;	/* its syntax, for errors; NULL: derived */
	const char *help;	/* -h: plain text, one paragraph */
	const char *doc;	/* man page: roff; NULL: help */
	const char *reject;	/* OPTION_NOT_HERE: why not */
};

#define OPT_END()	{ .type = OPTION_END }
#define OPT_STRING(s, l, v, a, h, d) \
	{ .type = OPTION_STRING, .short_name = (s), .long_name = (l), \
	  .value = (v), .argh = (a), .help = (h), .doc = (d) }
#define OPT_SET_TRUE(s, l, v, h, d) \
	{ .type = OPTION_SET_TRUE, .short_name = (s), .long_name = (l), \
	  .value = (v), .help = (h), .doc = (d) }
#define OPT_CHOICE(s, l, v, a, c, bad_, h, d) \
	{ .type = OPTION_CHOICE, .short_name = (s), .long_name = (l), \
	  .value = (v), .argh = (a), .choices = (c), .bad = (bad_), \
	  .help = (h), .doc = (d) }
#define OPT_ULONG(s, l, v, a, lo, hi, bad_, h, d) \
	{ .type = OPTION_ULONG, .short_name = (s), .long_name = (l), \
	  .value = (v), .argh = (a), .min = (lo), .max = (hi), \
	  .bad = (bad_), .help = (h), .doc = (d) }
#define OPT_NOT_HERE(l, a, why) \
	{ .type = OPTION_NOT_HERE, .long_name = (l), .argh = (a), \
	  .reject = (why) }
#define OPT_HELP(h, d) \
	{ .type = OPTION_HELP, .short_name = 'h', .long_name = "help", \
	  .help = (h), .doc = (d) }

/* cmd_syntax.flags: options end at the first operand (fragview's own) */
#define PARSE_OPT_STOP_AT_NON_OPTION	1

/* What -h and the usage errors say of a command, and its options. */
struct cmd_syntax {
	const char *name;	/* "map"; NULL: fragview itself */
	const char *operands;	/* usage line: "CAPTURE" */
	const char *missing;	/* error without operand: "CAPTURE (a ...)" */
	const char *about;	/* -h: what the command does; may be NULL */
	void (*epilogue)(FILE *f);	/* -h: after the options, or NULL */
	int flags;
	const struct option *options;
};

/*
 * Parses the options in argv[1..argc) by cmd's table; as with
 * getopt_long(), options may follow operands (unless
 * PARSE_OPT_STOP_AT_NON_OPTION), long names may be abbreviated, and "--"
 * ends the options.  Returns the number of operands, moved in order to
 * argv[0..n).  Usage errors exit 64 after one line on stderr; -h/--help
 * and --man-options print to stdout and exit 0.
 */
int parse_options(const struct cmd_syntax *cmd, int argc, char **argv);

/* The text of -h: usage line, about, options, epilogue. */
void usage_with_options(const struct cmd_syntax *cmd, FILE *f);

/* The man page's ".SH OPTIONS" section, in roff. */
void options_roff(const struct cmd_syntax *cmd, FILE *f);

/*
 * For shell completion (the hidden --list-options): one line per
 * option, "-x --long" (or "--long"), then "=" and the choices, "=FILE"
 * for a file name, "=" for another value; without "=" the option takes
 * none.
 */
void options_list(const struct cmd_syntax *cmd, FILE *f);

/* An option's value that is a file name: completion offers files. */
bool option_takes_file(const struct option *o);

/* Prints text to stdout and exits 0; die()s if stdout cannot be written. */
void print_and_exit(const char *text) __attribute__((noreturn));

#endif /* FRAGVIEW_PARSE_OPTIONS_H */
