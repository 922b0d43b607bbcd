/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hold.h - for the guest programs that build up a state and keep it while
 * the scenario looks at it: say so through a file, then wait for
 * SIGTERM/SIGINT.  (Included, not compiled on its own.)
 */
#ifndef FV_HOLD_H
#define FV_HOLD_H

#include <signal.h>
#include <stdio.h>
#include <unistd.h>

static volatile sig_atomic_t hold_stop;

static void hold_on_signal(int sig)
{
	(void)sig;
	hold_stop = 1;
}

/* before building up: a signal during it ends the hold at once */
static void hold_prepare(void)
{
	signal(SIGTERM, hold_on_signal);
	signal(SIGINT, hold_on_signal);
}

/* create @ready (if any): the state is built; 0, or -1 on error */
static int hold_announce(const char *prog, const char *ready)
{
	if (ready) {
		FILE *f = fopen(ready, "w");

		if (!f || fclose(f)) {
			fprintf(stderr, "%s: ", prog);
			perror(ready);
			return -1;
		}
	}
	return 0;
}

/* announce, then wait for the signal; 0, or -1 on error */
static int hold_until_signal(const char *prog, const char *ready)
{
	if (hold_announce(prog, ready))
		return -1;
	while (!hold_stop)
		pause();
	return 0;
}

#endif /* FV_HOLD_H */
