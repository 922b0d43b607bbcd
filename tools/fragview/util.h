/* SPDX-License-Identifier: GPL-2.0 */
/* util.h - errors, allocation, and output that never fails silently. */
#ifndef FRAGVIEW_UTIL_H
#define FRAGVIEW_UTIL_H

#include <stddef.h>
#include <stdio.h>

/*
 * Exit codes: 0 ok (check: exact); 1 failure (output, no zone for
 * --zone) or, for check, mismatches; 2 check: the replay cannot be exact
 * (lost events, incomplete snapshot, gen gap); 3 the input cannot be
 * read or lacks what the command needs; 64 usage (EX_USAGE).
 */
#define EXIT_MISMATCH 1
#define EXIT_INEXACT 2
#define EXIT_UNREADABLE 3
#define EXIT_USAGE 64

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
 */
struct out {
	FILE *f;
	char *path;		/* final name, NULL for stdout */
	char *tmp;		/* temporary name */
};

int out_open(struct out *o, const char *path);
int out_close(struct out *o);
void out_abort(struct out *o);

#endif /* FRAGVIEW_UTIL_H */
