// SPDX-License-Identifier: GPL-2.0
/*
 * parse-options.c - argv, -h and the man page's OPTIONS from one table
 * per command (see parse-options.h).
 */
#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "opts.h"
#include "parse-options.h"
#include "util.h"

/* -h is wrapped to fit an 80-column terminal */
#define HELP_WIDTH	79

static void bad_usage(const struct cmd_syntax *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3), noreturn));

static void bad_usage(const struct cmd_syntax *cmd, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (cmd->name)
		usage_error(cmd->name, "%s: %s", cmd->name, msg);
	usage_error(NULL, "%s", msg);
}

static void __attribute__((noreturn)) exit_after_stdout(void)
{
	if (fflush(stdout) || ferror(stdout))
		die("standard output: write failed");
	exit(0);
}

void print_and_exit(const char *text)
{
	fputs(text, stdout);
	exit_after_stdout();
}

/* "type free order": the values completion offers */
static void choices_text(const struct option *o, char *buf, size_t size)
{
	size_t used = 0;

	buf[0] = '\0';
	for (const char *const *c = o->choices; *c && used < size; c++)
		used += snprintf(buf + used, size - used, "%s%s",
				 c == o->choices ? "" : " ", *c);
}

/* "type, free or order" */
static void choices_want(const struct option *o, char *buf, size_t size)
{
	size_t used = 0;
	int n = 0;

	while (o->choices[n])
		n++;
	buf[0] = '\0';
	for (int i = 0; i < n && used < size; i++)
		used += snprintf(buf + used, size - used, "%s%s",
				 !i ? "" : i == n - 1 ? " or " : ", ",
				 o->choices[i]);
}

static int take_choice(const struct option *o, const char *arg)
{
	for (int i = 0; o->choices[i]; i++)
		if (!strcmp(o->choices[i], arg)) {
			*(int *)o->value = i;
			return 0;
		}
	return -1;
}

static int take_ulong(const struct option *o, const char *arg)
{
	unsigned long long v;
	char *end;

	if (!isdigit((unsigned char)*arg))
		return -1;
	errno = 0;
	v = strtoull(arg, &end, 10);
	if (errno || *end || v < o->min || v > o->max)
		return -1;
	*(unsigned long *)o->value = v;
	return 0;
}

static int take_time(const struct option *o, const char *arg)
{
	struct opt_time *t = o->value;

	if (parse_time(arg, &t->ns, &t->relative))
		return -1;
	t->set = true;
	t->text = arg;
	return 0;
}

/* "bad view 'x' (want one of type|free)" */
static void __attribute__((noreturn)) bad_value(const struct cmd_syntax *cmd,
						const struct option *o,
						const char *arg)
{
	char want[256];

	if (o->want)
		snprintf(want, sizeof(want), "%s", o->want);
	else if (o->type == OPTION_CHOICE)
		choices_want(o, want, sizeof(want));
	else if (o->type == OPTION_ULONG)
		snprintf(want, sizeof(want), "a whole number from %lu to %lu",
			 o->min, o->max);
	else
		snprintf(want, sizeof(want), "SECONDS[.FRACTION] or +SECONDS");
	bad_usage(cmd, "bad %s '%s' (want %s)", o->bad ? o->bad : "value", arg,
		  want);
}

static void take(const struct cmd_syntax *cmd, const struct option *o,
		 const char *arg)
{
	int err = 0;

	switch (o->type) {
	case OPTION_STRING:
		*(const char **)o->value = arg;
		break;
	case OPTION_SET_TRUE:
		*(bool *)o->value = true;
		break;
	case OPTION_CHOICE:
		err = take_choice(o, arg);
		break;
	case OPTION_ULONG:
		err = take_ulong(o, arg);
		break;
	case OPTION_TIME:
		err = take_time(o, arg);
		break;
	case OPTION_CALLBACK:
		err = o->callback(o, arg);
		break;
	case OPTION_NOT_HERE:
		bad_usage(cmd, "--%s does not apply here: %s", o->long_name,
			  o->reject);
	case OPTION_HELP:
		usage_with_options(cmd, stdout);
		exit_after_stdout();
	case OPTION_END:
		break;
	}
	if (err)
		bad_value(cmd, o, arg);
}

/* Options -h and the man page show: not those rejected here. */
static bool shown(const struct option *o)
{
	return o->type != OPTION_NOT_HERE;
}

/* An exact name, else the one option it abbreviates. */
static const struct option *find_long(const struct cmd_syntax *cmd,
				      const char *name, size_t len)
{
	const struct option *o, *found = NULL;
	char others[256] = "";

	if (!len)		/* "--=x" abbreviates nothing */
		return NULL;
	for (o = cmd->options; o->type != OPTION_END; o++) {
		if (!o->long_name || strncmp(o->long_name, name, len))
			continue;
		if (strlen(o->long_name) == len)
			return o;
		if (found) {
			size_t used = strlen(others);

			snprintf(others + used, sizeof(others) - used, "%s--%s",
				 used ? ", " : "", o->long_name);
			continue;
		}
		found = o;
	}
	if (found && others[0])
		bad_usage(cmd, "option '--%.*s' is ambiguous (--%s, %s)",
			  (int)len, name, found->long_name, others);
	return found;
}

/* "--name", "--name=value" or "--name value"; returns argv words used */
static int parse_long(const struct cmd_syntax *cmd, const char *name,
		      const char *next)
{
	const char *eq = strchr(name, '=');
	size_t len = eq ? (size_t)(eq - name) : strlen(name);
	const struct option *o;

	/* hidden: Documentation/gen-man.sh asks for the man page's part */
	if (!strcmp(name, "man-options")) {
		options_roff(cmd, stdout);
		exit_after_stdout();
	}
	/* hidden: bash completion asks for the options and their values */
	if (!strcmp(name, "list-options")) {
		options_list(cmd, stdout);
		exit_after_stdout();
	}
	o = find_long(cmd, name, len);
	if (!o)
		bad_usage(cmd, "unknown option '--%.*s'", (int)len, name);
	if (o->type == OPTION_NOT_HERE)		/* why, even without a value */
		take(cmd, o, NULL);
	if (!o->argh) {
		if (eq)
			bad_usage(cmd, "option '--%s' takes no value",
				  o->long_name);
		take(cmd, o, NULL);
		return 0;
	}
	if (eq) {
		take(cmd, o, eq + 1);
		return 0;
	}
	if (!next)
		bad_usage(cmd, "option '--%s' needs a value", o->long_name);
	take(cmd, o, next);
	return 1;
}

/* "-x", "-xVALUE", "-x VALUE", "-hx"; returns argv words used */
static int parse_short(const struct cmd_syntax *cmd, const char *cluster,
		       const char *next)
{
	for (const char *p = cluster; *p; p++) {
		const struct option *o;

		for (o = cmd->options; o->type != OPTION_END; o++)
			if (o->short_name == *p)
				break;
		if (o->type == OPTION_END)
			bad_usage(cmd, "unknown option '-%c'", *p);
		if (!o->argh) {
			take(cmd, o, NULL);
			continue;
		}
		if (p[1]) {
			take(cmd, o, p + 1);
			return 0;
		}
		if (!next)
			bad_usage(cmd, "option '-%c' needs a value", *p);
		take(cmd, o, next);
		return 1;
	}
	return 0;
}

int parse_options(const struct cmd_syntax *cmd, int argc, char **argv)
{
	int nr = 0, i;

	/* operands move down to argv[nr], never past the word being read */
	for (i = 1; i < argc; i++) {
		const char *arg = argv[i];
		const char *next = i + 1 < argc ? argv[i + 1] : NULL;

		if (arg[0] != '-' || !arg[1]) {	/* "-" is standard input */
			if (cmd->flags & PARSE_OPT_STOP_AT_NON_OPTION)
				break;
			argv[nr++] = argv[i];
			continue;
		}
		if (!strcmp(arg, "--")) {
			i++;
			break;
		}
		if (arg[1] == '-')
			i += parse_long(cmd, arg + 2, next);
		else
			i += parse_short(cmd, arg + 1, next);
	}
	while (i < argc)
		argv[nr++] = argv[i++];
	return nr;
}

/* Appends word to a line at column col, wrapping to indent. */
static int put_word(FILE *f, const char *word, size_t len, int col,
		    int indent)
{
	if (col > indent && col + 1 + (int)len > HELP_WIDTH) {
		fprintf(f, "\n%*s", indent, "");
		col = indent;
	}
	if (col > indent) {
		fputc(' ', f);
		col++;
	}
	fwrite(word, 1, len, f);
	return col + len;
}

static void put_wrapped(FILE *f, const char *text, int col)
{
	int indent = col;

	while (*text) {
		size_t len;

		text += strspn(text, " ");
		len = strcspn(text, " ");
		if (!len)
			break;
		col = put_word(f, text, len, col, indent);
		text += len;
	}
	fputc('\n', f);
}

/* "-a, --at TIME", "    --long", "-x VALUE" */
static void option_spec(const struct option *o, char *buf, size_t size)
{
	int n = 0;

	if (o->short_name)
		n = snprintf(buf, size, "-%c%s", o->short_name,
			     o->long_name ? ", " : "");
	else
		n = snprintf(buf, size, "    ");
	if (o->long_name)
		n += snprintf(buf + n, size - n, "--%s", o->long_name);
	if (o->argh)
		snprintf(buf + n, size - n, " %s", o->argh);
}

static void put_usage_line(const struct cmd_syntax *cmd, FILE *f)
{
	bool operands_last = cmd->flags & PARSE_OPT_STOP_AT_NON_OPTION;
	const struct option *o;
	char word[128];
	int col, indent;

	col = fprintf(f, "usage: fragview %s%s", cmd->name ? cmd->name : "",
		      cmd->name ? " " : "");
	indent = col;
	if (cmd->operands && !operands_last)
		col = put_word(f, cmd->operands, strlen(cmd->operands),
			       col, indent);
	for (o = cmd->options; o->type != OPTION_END; o++) {
		if (o->type == OPTION_HELP || !shown(o))
			continue;
		if (o->long_name)
			snprintf(word, sizeof(word), "[--%s%s%s]", o->long_name,
				 o->argh ? " " : "", o->argh ? o->argh : "");
		else
			snprintf(word, sizeof(word), "[-%c%s%s]", o->short_name,
				 o->argh ? " " : "", o->argh ? o->argh : "");
		col = put_word(f, word, strlen(word), col, indent);
	}
	if (cmd->operands && operands_last)
		put_word(f, cmd->operands, strlen(cmd->operands), col, indent);
	fputc('\n', f);
}

void usage_with_options(const struct cmd_syntax *cmd, FILE *f)
{
	const struct option *o;
	char spec[128];
	int width = 0;

	put_usage_line(cmd, f);
	if (cmd->about)
		fprintf(f, "\n%s", cmd->about);
	fputc('\n', f);
	for (o = cmd->options; o->type != OPTION_END; o++) {
		option_spec(o, spec, sizeof(spec));
		if (shown(o) && (int)strlen(spec) > width)
			width = strlen(spec);
	}
	for (o = cmd->options; o->type != OPTION_END; o++) {
		if (!shown(o))
			continue;
		option_spec(o, spec, sizeof(spec));
		fprintf(f, "  %-*s  ", width, spec);
		put_wrapped(f, o->help, 2 + width + 2);
	}
	if (cmd->epilogue)
		cmd->epilogue(f);
}

/* An argument's name in roff: letters italic, punctuation bold. */
static void put_roff_argh(FILE *f, const char *argh)
{
	int italic = -1;

	for (; *argh; argh++) {
		int want = isalnum((unsigned char)*argh) || *argh == '_';

		if (want != italic)
			fputs(want ? "\\fI" : "\\fB", f);
		italic = want;
		if (*argh == '-')
			fputs("\\-", f);
		else
			fputc(*argh, f);
	}
	fputs("\\fR", f);
}

static void put_roff_dashes(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '-')
			fputs("\\-", f);
		else
			fputc(*s, f);
	}
}

/* Plain text as one roff paragraph: no requests, no escapes. */
static void put_roff_text(FILE *f, const char *s)
{
	if (*s == '.' || *s == '\'')
		fputs("\\&", f);
	for (; *s; s++) {
		if (*s == '\\')
			fputs("\\e", f);
		else if (*s == '-')
			fputs("\\-", f);
		else
			fputc(*s, f);
	}
	fputc('\n', f);
}

void options_roff(const struct cmd_syntax *cmd, FILE *f)
{
	const struct option *o;

	fprintf(f, ".SH OPTIONS\n"
		   ".\\\" Generated by Documentation/gen-man.sh from "
		   "'fragview%s%s --man-options':\n"
		   ".\\\" edit the command's option table, not this section.\n",
		cmd->name ? " " : "", cmd->name ? cmd->name : "");
	for (o = cmd->options; o->type != OPTION_END; o++) {
		bool both = o->short_name && o->long_name;

		if (!shown(o))
			continue;
		/* .BR alternates bold (names) and roman (", ", argument) */
		fputs(both || o->argh ? ".TP\n.BR " : ".TP\n.B ", f);
		if (o->short_name)
			fprintf(f, "\\-%c", o->short_name);
		if (both)
			fputs(" \", \" ", f);
		if (o->long_name) {
			fputs("\\-\\-", f);
			put_roff_dashes(f, o->long_name);
		}
		if (o->argh) {
			fputs(" \" ", f);
			put_roff_argh(f, o->argh);
			fputc('"', f);
		}
		fputc('\n', f);
		if (o->doc)
			fprintf(f, "%s%s", o->doc,
				o->doc[strlen(o->doc) - 1] == '\n' ? "" : "\n");
		else
			put_roff_text(f, o->help);
	}
}

bool option_takes_file(const struct option *o)
{
	return o->argh && (!strcmp(o->argh, "FILE") ||
			   !strcmp(o->argh, "CAPTURE"));
}

void options_list(const struct cmd_syntax *cmd, FILE *f)
{
	for (const struct option *o = cmd->options; o->type != OPTION_END;
	     o++) {
		char choices[256];

		if (!shown(o))
			continue;
		if (o->short_name)
			fprintf(f, "-%c%s", o->short_name,
				o->long_name ? " " : "");
		if (o->long_name)
			fprintf(f, "--%s", o->long_name);
		if (o->choices) {
			choices_text(o, choices, sizeof(choices));
			fprintf(f, "=%s", choices);
		} else if (o->argh) {
			fprintf(f, "=%s", option_takes_file(o) ? "FILE" : "");
		}
		fputc('\n', f);
	}
}
