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
};

#define NR_COMMANDS (sizeof(commands) / sizeof(commands[0]))

static void usage(FILE *f)
{
	fprintf(f, "usage: fragview [--version] [--help] COMMAND [ARGS]\n\n"
		   "commands:\n");
	for (size_t i = 0; i < NR_COMMANDS; i++)
		fprintf(f, "  %-6s  %s\n", commands[i].name, commands[i].summary);
	fprintf(f, "\n'fragview COMMAND --help' describes a command; "
		   "see also fragview(1).\n");
}

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

	/* a closed pipe is a write error we report, not a silent death */
	signal(SIGPIPE, SIG_IGN);

	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage(stdout);
		show_help("");
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V"))
		show_help("fragview " FRAGVIEW_VERSION "\n");
	if (!strcmp(argv[1], "help")) {
		if (argc < 3) {
			usage(stdout);
			show_help("");
		}
		cmd = find_command(argv[2]);
		if (!cmd)
			usage_error(NULL, "'%s' is not a fragview command", argv[2]);
		return cmd->fn(2, (char *[]){ argv[2], "--help", NULL });
	}
	if (argv[1][0] == '-')
		usage_error(NULL, "unknown option '%s'", argv[1]);
	cmd = find_command(argv[1]);
	if (!cmd)
		usage_error(NULL, "'%s' is not a fragview command", argv[1]);
	return cmd->fn(argc - 1, argv + 1);
}
