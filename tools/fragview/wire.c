// SPDX-License-Identifier: GPL-2.0
/* wire.c - checks and decodes the reader child's message stream. */
#include <stdio.h>
#include <string.h>

#include "wire.h"

#define MAX_PAYLOAD (WIRE_BATCH * sizeof(struct fv_event))

_Static_assert(sizeof(struct wire_stack) + WIRE_MAX_STACK <= MAX_PAYLOAD,
	       "a stack fits in a message");

/* A bool's byte as 0 or 1: any other value is undefined in C. */
static void clean_bool(bool *b)
{
	uint8_t v;

	memcpy(&v, b, 1);
	v = v != 0;
	memcpy(b, &v, 1);
}

/*
 * Only a steal's or an extfrag's union holds the bools: the same bytes
 * are a pid's in a compaction event (599 became 343).
 */
void wire_sanitize(struct fv_event *ev)
{
	if (ev->kind != FV_EV_STEAL && ev->kind != FV_EV_EXTFRAG)
		return;
	clean_bool(&ev->steal.claimed);
	clean_bool(&ev->steal.declined);
}

static ssize_t bad(char *err, size_t errlen, const char *what)
{
	snprintf(err, errlen, "reader stream corrupt: %s", what);
	return -1;
}

/* Control characters (but newlines, if keep_nl) become spaces. */
static void printable(char *t, bool keep_nl)
{
	for (; *t; t++)
		if (((unsigned char)*t < ' ' && !(keep_nl && *t == '\n')) ||
		    (unsigned char)*t == 0x7f)
			*t = ' ';
}

static int blame_message(const struct wire_hdr *h, const uint8_t *p,
			 const struct wire_sink *s, char *err, size_t errlen)
{
	static char text[WIRE_MAX_STACK + 1];
	struct wire_comm c;
	struct wire_stack st;
	int rc = 0;

	if (h->tag == WIRE_COMM) {
		char comm[WIRE_COMM_LEN + 1];

		if (h->len != sizeof(c))
			return bad(err, errlen, "bad comm");
		memcpy(&c, p, sizeof(c));
		memcpy(comm, c.comm, WIRE_COMM_LEN);
		comm[WIRE_COMM_LEN] = '\0';
		printable(comm, false);
		if (s->comm)
			rc = s->comm(c.pid, comm, s->ctx);
	} else {
		if (h->len < sizeof(st) ||
		    h->len - sizeof(st) > WIRE_MAX_STACK)
			return bad(err, errlen, "bad stack");
		memcpy(&st, p, sizeof(st));
		memcpy(text, p + sizeof(st), h->len - sizeof(st));
		text[h->len - sizeof(st)] = '\0';
		printable(text, true);
		if (s->stack)
			rc = s->stack(st.id, text, s->ctx);
	}
	if (rc) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	return 0;
}

static int one_message(const struct wire_hdr *h, const uint8_t *p,
		       const struct wire_sink *s, struct wire_state *st,
		       char *err, size_t errlen)
{
	char text[WIRE_MAX_TEXT + 1];
	struct fv_event ev;
	struct wire_hello hello;
	struct wire_end end;

	if (st->end)
		return bad(err, errlen, "message after the end");
	if (!st->hello && (h->tag == WIRE_EVENTS || h->tag == WIRE_END ||
			   h->tag == WIRE_COMM || h->tag == WIRE_STACK))
		return bad(err, errlen, "no hello");
	switch (h->tag) {
	case WIRE_HELLO:
		if (st->hello || h->len != sizeof(hello))
			return bad(err, errlen, "bad hello");
		memcpy(&hello, p, sizeof(hello));
		if (hello.version != WIRE_VERSION)
			return bad(err, errlen, "version mismatch");
		st->hello = true;
		if (s->hello && s->hello(&hello, s->ctx)) {
			snprintf(err, errlen, "stopped");
			return -1;
		}
		return 0;
	case WIRE_EVENTS:
		if (h->len % sizeof(ev))
			return bad(err, errlen, "partial event");
		for (size_t off = 0; off < h->len; off += sizeof(ev)) {
			memcpy(&ev, p + off, sizeof(ev));
			wire_sanitize(&ev);
			if (ev.kind >= FV_EV_NR)
				return bad(err, errlen, "unknown event kind");
			if (s->event && s->event(&ev, s->ctx)) {
				snprintf(err, errlen, "out of memory");
				return -1;
			}
		}
		return 0;
	case WIRE_WARN:
	case WIRE_ERROR:
		if (h->len > WIRE_MAX_TEXT)
			return bad(err, errlen, "text too long");
		memcpy(text, p, h->len);
		text[h->len] = '\0';
		/* one line, printable: it goes straight to the terminal */
		printable(text, false);
		if (s->text)
			s->text(h->tag == WIRE_ERROR, text, s->ctx);
		if (h->tag == WIRE_ERROR)
			st->end = true;
		return 0;
	case WIRE_COMM:
	case WIRE_STACK:
		return blame_message(h, p, s, err, errlen);
	case WIRE_END:
		if (h->len != sizeof(end))
			return bad(err, errlen, "bad end");
		memcpy(&end, p, sizeof(end));
		st->end = true;
		if (s->end)
			s->end(&end, s->ctx);
		return 0;
	}
	return bad(err, errlen, "unknown message");
}

ssize_t wire_decode(const uint8_t *buf, size_t len, const struct wire_sink *s,
		    struct wire_state *st, char *err, size_t errlen)
{
	size_t off = 0;

	while (len - off >= sizeof(struct wire_hdr)) {
		struct wire_hdr h;

		memcpy(&h, buf + off, sizeof(h));
		if (h.len > MAX_PAYLOAD)
			return bad(err, errlen, "message too long");
		if (len - off - sizeof(h) < h.len)
			break;
		if (one_message(&h, buf + off + sizeof(h), s, st, err, errlen))
			return -1;
		off += sizeof(h) + h.len;
	}
	return off;
}
