// SPDX-License-Identifier: GPL-2.0
/*
 * fragview.c - why does memory fragment?  Maps and statistics of
 * pageblock mobility from a trace-cmd capture of the mobility events.
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "fragview.h"
#include "util.h"

struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
};

static const struct command commands[] = {
	{ "map",   cmd_map,   "draw the pageblock map of a capture at any time" },
	{ "stats", cmd_stats, "steal, flip, drain and migration statistics" },
	{ "check", cmd_check, "replay the first snapshot + flips against the last" },
	{ "dump",  cmd_dump,  "draw a debugfs pageblock dump as a map" },
	{ "blame", cmd_blame, "who polluted the blocks: steals and flips by task, stack, site" },
	{ "compact", cmd_compact, "compaction runs, scanners, outcomes; high-order timeline" },
};

#define NR_COMMANDS (sizeof(commands) / sizeof(commands[0]))

static void list_commands(FILE *f)
{
	fprintf(f, "\ncommands:\n");
	for (size_t i = 0; i < NR_COMMANDS; i++)
		fprintf(f, "  %-7s  %s\n", commands[i].name, commands[i].summary);
	fprintf(f, "\n'fragview COMMAND --help' describes a command; "
		   "see also fragview(1).\n");
}

static int show_version(const struct option *opt, const char *arg)
{
	(void)opt;
	(void)arg;
	print_and_exit("fragview " FRAGVIEW_VERSION "\n");
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

int main(int argc, char **argv)
{
	const struct command *cmd;
	int nr;

	/* a closed pipe is a write error we report, not a silent death */
	signal(SIGPIPE, SIG_IGN);

	if (argc < 2) {
		usage_with_options(&syntax, stderr);
		return EXIT_USAGE;
	}
	/* argv[0..nr) is now COMMAND [ARGS], as the command expects it */
	nr = parse_options(&syntax, argc, argv);
	if (!nr)
		usage_error(NULL, "missing COMMAND");
	if (!strcmp(argv[0], "help")) {
		if (nr < 2) {
			usage_with_options(&syntax, stdout);
			print_and_exit("");
		}
		cmd = find_command(argv[1]);
		if (!cmd)
			usage_error(NULL, "'%s' is not a fragview command",
				    argv[1]);
		return cmd->fn(2, (char *[]){ argv[1], "--help", NULL });
	}
	cmd = find_command(argv[0]);
	if (!cmd)
		usage_error(NULL, "'%s' is not a fragview command", argv[0]);
	return cmd->fn(nr, argv);
}
