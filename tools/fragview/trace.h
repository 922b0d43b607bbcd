/* SPDX-License-Identifier: GPL-2.0 */
/*
 * trace.h - reading a trace-cmd capture into canonical events.
 *
 * trace.c is the only module that talks to libtracecmd/libtraceevent.
 * It does so in a child process, because libtracecmd 3.1.6 can crash or
 * hang on corrupt files; the parent gets decoded events over a pipe
 * (wire.h) and turns any failure of the child into one line on stderr.
 */
#ifndef FRAGVIEW_TRACE_H
#define FRAGVIEW_TRACE_H

#include <stdbool.h>
#include <stdint.h>

#include "model.h"

struct fv_trace_info {
	bool have[FV_EV_NR];	/* the capture holds the event's format */
	uint64_t nr_records;	/* records in the capture */
	uint64_t nr_events;	/* ... decoded as ours */
	uint64_t nr_bad;	/* ours but malformed (skipped) */
	uint64_t nr_missed;	/* records after a ring-buffer overrun */
};

typedef int (*fv_event_fn)(const struct fv_event *ev, void *ctx);

/*
 * Reads path, calling fn for every event of ours in time order (fn
 * returning non-zero stops the read as an error).  Returns 0, or -1
 * after printing one line "fragview: PATH: what went wrong".
 * The child gets FRAGVIEW_READ_TIMEOUT seconds (default 30) without
 * progress before it is killed.
 */
int fv_trace_read(const char *path, struct fv_trace_info *info,
		  fv_event_fn fn, void *ctx);

/*
 * Who polluted a block: with these, the reader also decodes the task
 * (common_pid) of every steal, flip and extfrag, names each pid once
 * from the capture's saved cmdlines (comm), and sends the kernel stack
 * recorded right after such an event on its CPU (a stacktrace trigger's
 * ftrace:kernel_stack) as an FV_EV_STACK event after it, whose id a
 * stack() call defines (frames resolved with the capture's kallsyms;
 * before or after the first event naming it).  Only then does the
 * reader parse the capture's kallsyms, and only once it meets a stack.
 */
struct fv_trace_blame {
	int (*comm)(int32_t pid, const char *comm, void *ctx);	/* !0: stop */
	int (*stack)(uint32_t id, const char *frames, void *ctx);
	void *ctx;
};

/* fv_trace_read(), and blame's extras to b (NULL: none). */
/*
 * "libtracecmd 1.3.1: ..." and "kallsyms hook: ..." lines (fragview
 * --version): the library version running, whether version 7 captures
 * are reopened for its chunk leak, whether blame's kallsyms hook bound.
 */
void fv_trace_describe(char *buf, size_t len);

int fv_trace_read_blame(const char *path, struct fv_trace_info *info,
			fv_event_fn fn, void *ctx,
			const struct fv_trace_blame *b);

#endif /* FRAGVIEW_TRACE_H */
