/* SPDX-License-Identifier: GPL-2.0 */
/* util.h - errors, allocation, and output that never fails silently. */
#ifndef FRAGVIEW_UTIL_H
#define FRAGVIEW_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/*
 * Exit status, one policy for every command (fragview(1), EXIT STATUS):
 * a script can tell what check found (1, 2) from why a command did not
 * run (3: its input, 4: its output, 64: its arguments).
 */
#define EXIT_MISMATCH	1	/* check: blocks do not match */
#define EXIT_INEXACT	2	/* check: events are missing */
#define EXIT_UNREADABLE	3	/* the input cannot be used: unreadable,
				 * corrupt, without the events or the zone
				 * the command needs */
#define EXIT_NO_OUTPUT	4	/* no result: the output cannot be
				 * written, or fragview ran out of
				 * memory or processes */
#define EXIT_USAGE	64	/* bad command line (EX_USAGE) */

/* One "fragview: ..." line on stderr, then exit EXIT_NO_OUTPUT. */
void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
void warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void usage_error(const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3), noreturn));

void *xmalloc(size_t size);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t size);
char *xstrdup(const char *s);

/*
 * Checked output.  out_open("-") is stdout; any other path is written
 * to a temporary file in the same directory and renamed over path by
 * out_close() only if every write succeeded, so a failed run neither
 * leaves a truncated file nor clobbers a good one.  out_close() returns
 * 0, or -1 after printing one line (the temp file is removed).
 * out_abort() drops the temp file (error paths).
 * A file replaced keeps its mode (and owner when allowed); a symbolic
 * link is followed, the target replaced and the link kept; a file with
 * other hard links is written in place once the temporary file is
 * complete (a rename would cut it off its other names), so a failure
 * while copying can leave it truncated, with the error reported.
 */
struct out {
	FILE *f;
	char *path;		/* final name, links followed; NULL: stdout */
	char *tmp;		/* temporary name */
	bool in_place;		/* path has hard links: copy, not rename */
};

int out_open(struct out *o, const char *path);
int out_close(struct out *o);
void out_abort(struct out *o);

#endif /* FRAGVIEW_UTIL_H */
