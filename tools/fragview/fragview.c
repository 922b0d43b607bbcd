// SPDX-License-Identifier: GPL-2.0
/*
 * fragview.c - why does memory fragment?  Maps and statistics of
 * pageblock mobility from a trace-cmd capture of the mobility events.
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fragview.h"
#include "pager.h"
#include "trace.h"
#include "util.h"

struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
};

static int cmd_help(int argc, char **argv);

/* Every command: a new one is one line here, its cmd_NAME.c and its page. */
static const struct command commands[] = {
	{ "map",   cmd_map,   "draw the pageblock map of a capture at any time" },
	{ "stats", cmd_stats, "steal, flip, drain and migration statistics" },
	{ "check", cmd_check, "replay the first snapshot + flips against the last" },
	{ "dump",  cmd_dump,  "draw a debugfs pageblock dump as a map" },
	{ "blame", cmd_blame, "who polluted the blocks: steals and flips by task, stack, site" },
	{ "compact", cmd_compact, "compaction runs, scanners, outcomes; high-order timeline" },
	{ "explain", cmd_explain, "why high-order allocations failed: zone, blocks, compaction, verdict" },
	{ "help",  cmd_help,  "the manual page of a command: fragview help COMMAND" },
};

#define NR_COMMANDS (sizeof(commands) / sizeof(commands[0]))

static void list_commands(FILE *f)
{
	fprintf(f, "\ncommands:\n");
	for (size_t i = 0; i < NR_COMMANDS; i++)
		fprintf(f, "  %-7s  %s\n", commands[i].name, commands[i].summary);
	fprintf(f, "\n'fragview COMMAND --help' describes a command, "
		   "'fragview help COMMAND' opens its manual page; see also "
		   "fragview(1).\n");
}

static int show_version(const struct option *opt, const char *arg)
{
	(void)opt;
	(void)arg;
	static char text[512];

	snprintf(text, sizeof(text), "fragview " FRAGVIEW_VERSION "\n");
	fv_trace_describe(text + strlen(text), sizeof(text) - strlen(text));
	print_and_exit(text);
}

static const struct option options[] = {
	OPT_HELP("this text",
		 "Print the list of commands.\n"
		 ".B fragview\n"
		 ".I command\n"
		 ".B \\-\\-help\n"
		 "describes one command."),
	{ .type = OPTION_CALLBACK, .short_name = 'V', .long_name = "version",
	  .callback = show_version, .help = "print the version and exit",
	  .doc = "Print the version and exit." },
	OPT_SET_TRUE(0, "no-pager", &pager_off,
		     "never send the output through a pager",
		     "Never send the output through a pager (see\n"
		     ".BR ENVIRONMENT )."),
	OPT_END()
};

static const struct cmd_syntax syntax = {
	.operands = "COMMAND [ARGS]", .missing = "COMMAND",
	.epilogue = list_commands, .flags = PARSE_OPT_STOP_AT_NON_OPTION,
	.options = options,
};

static const struct command *find_command(const char *name)
{
	for (size_t i = 0; i < NR_COMMANDS; i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

/* dir/name if it is a file */
static bool page_at(char *page, size_t size, const char *dir,
		    const char *name)
{
	return (size_t)snprintf(page, size, "%s/%s", dir, name) < size &&
	       !access(page, R_OK);
}

/*
 * The manual page of the binary that runs: Documentation/ beside it in
 * the source tree, else share/man/man1/ of its installation prefix
 * (PREFIX/bin/fragview), plain or gzipped as Debian installs it.
 */
static bool find_man_page(const char *cmd, char *page, size_t size)
{
	char exe[PATH_MAX], dir[PATH_MAX + 32], name[64];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	char *slash;

	if (n <= 0)
		return false;
	exe[n] = '\0';
	slash = strrchr(exe, '/');
	if (!slash)
		return false;
	*slash = '\0';
	snprintf(name, sizeof(name), "fragview%s%s.1", cmd ? "-" : "",
		 cmd ? cmd : "");
	snprintf(dir, sizeof(dir), "%s/Documentation", exe);
	if (page_at(page, size, dir, name))
		return true;
	snprintf(dir, sizeof(dir), "%s/../share/man/man1", exe);
	if (page_at(page, size, dir, name))
		return true;
	strcat(name, ".gz");
	return page_at(page, size, dir, name);
}

static const struct command *find_command(const char *name);

/*
 * "fragview help CMD": its manual page through man -l, as git help
 * does; the -h text when there is no page or no man.
 */
static int cmd_help(int argc, char **argv)
{
	const struct command *cmd = NULL;
	char page[PATH_MAX];

	if (argc < 2 || argv[1][0] == '-') {
		usage_with_options(&syntax, stdout);
		print_and_exit("");
	}
	if (strcmp(argv[1], "fragview")) {
		cmd = find_command(argv[1]);
		if (!cmd)
			usage_error(NULL, "'%s' is not a fragview command",
				    argv[1]);
	}
	if (find_man_page(cmd ? cmd->name : NULL, page, sizeof(page))) {
		fflush(stdout);
		execlp("man", "man", "-l", page, (char *)NULL);
		if (errno != ENOENT)
			warn("man: %s", strerror(errno));
	}
	if (!cmd) {
		usage_with_options(&syntax, stdout);
		print_and_exit("");
	}
	return cmd->fn(2, (char *[]){ (char *)cmd->name, "--help", NULL });
}

int main(int argc, char **argv)
{
	const struct command *cmd;
	int nr;

	/*
	 * A reader that stops reading (fragview stats | head, a pager
	 * quit early) ends fragview silently by SIGPIPE, as it does git
	 * and trace-cmd; even if the caller ignored the signal.
	 */
	signal(SIGPIPE, SIG_DFL);
	/* whether stdout is a terminal, before a pager takes it over */
	stdout_is_tty();

	/* hidden: bash completion asks for the commands */
	if (argc == 2 && !strcmp(argv[1], "--list-commands")) {
		for (size_t i = 0; i < NR_COMMANDS; i++)
			printf("%s\n", commands[i].name);
		print_and_exit("");
	}
	if (argc < 2) {
		usage_with_options(&syntax, stderr);
		return EXIT_USAGE;
	}
	/* argv[0..nr) is now COMMAND [ARGS], as the command expects it */
	nr = parse_options(&syntax, argc, argv);
	if (!nr)
		usage_error(NULL, "missing COMMAND");
	cmd = find_command(argv[0]);
	if (!cmd)
		usage_error(NULL, "'%s' is not a fragview command", argv[0]);
	return cmd->fn(nr, argv);
}
