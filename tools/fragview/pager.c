// SPDX-License-Identifier: GPL-2.0
/* pager.c - long text on a terminal goes through a pager (pager.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pager.h"
#include "util.h"

bool pager_off;

static int tty = -1;		/* stdout_is_tty(): -1 not asked yet */
static int columns;
static pid_t pager_pid;

static void look_at_stdout(void)
{
	struct winsize ws;
	const char *cols = getenv("COLUMNS");

	if (tty >= 0)
		return;
	tty = isatty(STDOUT_FILENO);
	columns = 80;
	if (cols && atoi(cols) > 0)
		columns = atoi(cols);
	else if (!ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) && ws.ws_col)
		columns = ws.ws_col;
}

bool stdout_is_tty(void)
{
	look_at_stdout();
	return tty;
}

int term_columns(void)
{
	look_at_stdout();
	return columns;
}

static const char *pager_command(void)
{
	const char *p = getenv("FRAGVIEW_PAGER");

	if (!p)
		p = getenv("PAGER");
	if (!p)
		p = "less";
	return *p && strcmp(p, "cat") ? p : NULL;
}

/* At exit: the pager sees the end of the text, and quits when read. */
static void wait_for_pager(void)
{
	fflush(stdout);
	close(STDOUT_FILENO);
	while (waitpid(pager_pid, NULL, 0) < 0 && errno == EINTR)
		;
}

void setup_pager(void)
{
	const char *pager = pager_command();
	int fd[2];

	if (pager_off || pager_pid || !stdout_is_tty() || !pager)
		return;
	fflush(stdout);
	if (pipe(fd))
		return;		/* unpaged output is still output */
	pager_pid = fork();
	if (pager_pid < 0) {
		pager_pid = 0;
		close(fd[0]);
		close(fd[1]);
		return;
	}
	if (!pager_pid) {
		dup2(fd[0], STDIN_FILENO);
		close(fd[0]);
		close(fd[1]);
		setenv("LESS", "FRX", 0);
		execl("/bin/sh", "sh", "-c", pager, (char *)NULL);
		warn("cannot run the pager '%s': %s", pager, strerror(errno));
		_exit(127);
	}
	dup2(fd[1], STDOUT_FILENO);
	close(fd[0]);
	close(fd[1]);
	atexit(wait_for_pager);
}
