/* SPDX-License-Identifier: GPL-2.0 */
/*
 * wire.h - the byte stream from the trace reader child to its parent.
 *
 * trace.c reads the capture in a child process (libtracecmd can crash on
 * corrupt files) and sends what it decoded as messages: an 8-byte header
 * {tag, payload length} then the payload.  The parent trusts nothing in
 * the stream: wire_decode() checks every header and length, which is why
 * it is a separate pure module the fuzzer can hammer.
 */
#ifndef FRAGVIEW_WIRE_H
#define FRAGVIEW_WIRE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "model.h"

enum wire_tag {
	WIRE_HELLO = 1,		/* struct wire_hello */
	WIRE_EVENTS,		/* n * struct fv_event */
	WIRE_WARN,		/* text: a warning to pass on */
	WIRE_ERROR,		/* text: why the reader gave up */
	WIRE_END,		/* struct wire_end: the stream is complete */
	WIRE_COMM,		/* struct wire_comm: a task's name (blame) */
	WIRE_STACK,		/* struct wire_stack + frames text (blame) */
};

#define WIRE_VERSION 2
#define WIRE_MAX_TEXT 512
#define WIRE_MAX_STACK 8192	/* bytes of a stack's frames text */
#define WIRE_COMM_LEN 16	/* TASK_COMM_LEN */
#define WIRE_BATCH 1024		/* events per WIRE_EVENTS message (<= 64 KiB) */

struct wire_hdr {
	uint32_t tag;
	uint32_t len;
};

struct wire_hello {
	uint32_t version;
	uint32_t have;		/* bit (1 << enum fv_ev_kind): format present */
};

struct wire_end {
	uint64_t nr_records;	/* records libtracecmd handed us */
	uint64_t nr_events;	/* ... that were ours and were sent */
	uint64_t nr_bad;	/* ours but too short for their fields */
	uint64_t nr_missed;	/* records after a ring-buffer overrun */
};

/*
 * Sent, when the command asked for them, before the first event that
 * needs them: the name of a pid (from the capture's saved cmdlines) and
 * the frames of a kernel stack that FV_EV_STACK events refer to by id,
 * "function+0xoffset" innermost first, one per line.
 */
struct wire_comm {
	int32_t pid;
	char comm[WIRE_COMM_LEN];	/* need not be terminated */
};

struct wire_stack {
	uint32_t id;
	uint32_t nr_frames;
	/* followed by the frames text, at most WIRE_MAX_STACK bytes */
};

struct wire_sink {
	int (*hello)(const struct wire_hello *h, void *ctx);
	int (*event)(const struct fv_event *ev, void *ctx);	/* !0: stop */
	void (*text)(bool error, const char *msg, void *ctx);
	void (*end)(const struct wire_end *e, void *ctx);
	/* comm: printable, terminated; frames: printable lines */
	int (*comm)(int32_t pid, const char *comm, void *ctx);	/* !0: stop */
	int (*stack)(uint32_t id, const char *frames, void *ctx);
	void *ctx;
};

struct wire_state {
	bool hello, end;
};

/*
 * Makes a record copied from untrusted bytes safe to use: the only fields
 * with invalid representations are a steal's bools (anything but 0 or 1).
 */
void wire_sanitize(struct fv_event *ev);

/*
 * Decodes the complete messages in buf[0..len).  Returns the number of
 * bytes consumed (a partial message at the end is left for the next
 * call), or -1 with a one-line reason in err on a malformed stream or
 * when a sink callback asked to stop.
 */
ssize_t wire_decode(const uint8_t *buf, size_t len, const struct wire_sink *s,
		    struct wire_state *st, char *err, size_t errlen);

#endif /* FRAGVIEW_WIRE_H */
