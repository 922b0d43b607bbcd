// SPDX-License-Identifier: GPL-2.0
/* wire.c - checks and decodes the reader child's message stream. */
#include <stdio.h>
#include <string.h>

#include "wire.h"

#define MAX_PAYLOAD (WIRE_BATCH * sizeof(struct fv_event))

void wire_sanitize(struct fv_event *ev)
{
	uint8_t claimed;

	memcpy(&claimed, &ev->steal.claimed, 1);
	claimed = claimed != 0;
	memcpy(&ev->steal.claimed, &claimed, 1);
}

static ssize_t bad(char *err, size_t errlen, const char *what)
{
	snprintf(err, errlen, "reader stream corrupt: %s", what);
	return -1;
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
	if (!st->hello && (h->tag == WIRE_EVENTS || h->tag == WIRE_END))
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
		for (char *c = text; *c; c++)
			if ((unsigned char)*c < ' ' || (unsigned char)*c == 0x7f)
				*c = ' ';
		if (s->text)
			s->text(h->tag == WIRE_ERROR, text, s->ctx);
		if (h->tag == WIRE_ERROR)
			st->end = true;
		return 0;
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
