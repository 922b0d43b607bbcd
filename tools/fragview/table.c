// SPDX-License-Identifier: GPL-2.0
/*
 * table.c - the table emitter (table.h): separators, alignment and
 * escaping of the txt, csv and json outputs, in one place.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <string.h>

#include "table.h"
#include "text.h"

void tab_init(struct tab *t, FILE *out, enum tab_format fmt)
{
	*t = (struct tab){ .out = out, .fmt = fmt };
}

/* json: the comma, the pending break and the key before a value */
static void json_member(struct tab *t, const char *key)
{
	if (t->item[t->depth])
		fputc(',', t->out);
	t->item[t->depth] = true;
	if (t->brk) {
		fputs(t->brk, t->out);
		t->brk = NULL;
	}
	if (key) {
		text_put_json(t->out, key, TEXT_JSON);
		fputc(':', t->out);
	}
}

void tab_open(struct tab *t, const char *key, char bracket)
{
	if (t->fmt != TAB_JSON)
		return;
	json_member(t, key);
	fputc(bracket, t->out);
	if (t->depth < TAB_MAX_DEPTH) {	/* deeper: the walker's bug */
		t->depth++;
		t->item[t->depth] = false;
		t->close[t->depth] = bracket == '[' ? ']' : '}';
	}
}

void tab_close(struct tab *t)
{
	if (t->fmt != TAB_JSON || !t->depth)
		return;
	fputc(t->close[t->depth--], t->out);
}

void tab_break(struct tab *t, const char *ws)
{
	if (t->fmt == TAB_JSON)
		t->brk = ws;
}

void tab_open_document(struct tab *t)
{
	if (t->fmt != TAB_JSON)
		return;
	tab_open(t, NULL, '{');
	tab_u64(t, "schema", TAB_SCHEMA);
}

void tab_init_member(struct tab *t, FILE *out)
{
	tab_init(t, out, TAB_JSON);
	t->depth = 1;
	t->item[1] = true;
	t->close[1] = '}';
}

void tab_columns(struct tab *t, const struct tab_col *cols)
{
	t->cols = cols;
	t->col = 0;
}

void tab_csv_head(struct tab *t, const char *columns)
{
	if (t->fmt == TAB_CSV)
		fprintf(t->out, "%s\n", columns);
}

void tab_txt_head(struct tab *t, const struct tab_col *cols,
		  const char *const *heads, size_t nr)
{
	if (t->fmt != TAB_TXT)
		return;
	tab_columns(t, cols);
	for (size_t i = 0; i < nr; i++)
		tab_str(t, NULL, heads[i]);
	tab_row_end(t);
}

void tab_row_end(struct tab *t)
{
	if (t->fmt == TAB_JSON)
		return;
	fputc('\n', t->out);
	t->item[0] = false;
	t->col = 0;
	t->x = 0;
}

void tab_row_open(struct tab *t, const char *ws)
{
	if (ws)
		tab_break(t, ws);
	tab_open(t, NULL, '{');
}

void tab_row_close(struct tab *t)
{
	tab_close(t);
	tab_row_end(t);
}

/* txt: s as it is, its columns counted */
static void txt_put(struct tab *t, const char *s)
{
	for (const char *p = s; *p; p++)
		t->x = *p == '\n' ? 0 : t->x + 1;
	fputs(s, t->out);
}

/* txt: free text; on a new line after indent if it would pass the width */
static void txt_vput(struct tab *t, const char *indent, const char *fmt,
		     va_list ap)
{
	char buf[512];

	if (t->fmt != TAB_TXT)
		return;
	vsnprintf(buf, sizeof(buf), fmt, ap);
	if (indent && t->x > strlen(indent) &&
	    t->x + strlen(buf) > TAB_TXT_COLUMNS) {
		txt_put(t, "\n");
		txt_put(t, indent);
	}
	txt_put(t, buf);
}

void tab_txt(struct tab *t, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	txt_vput(t, NULL, fmt, ap);
	va_end(ap);
}

void tab_txt_wrap(struct tab *t, const char *indent, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	txt_vput(t, indent, fmt, ap);
	va_end(ap);
}

/* a name gets what is left of the line, but never fewer columns than this */
#define TAB_MIN_NAME 24

void tab_txt_name(struct tab *t, const char *s)
{
	size_t room = t->x + TAB_MIN_NAME < TAB_TXT_COLUMNS ?
		      TAB_TXT_COLUMNS - t->x : TAB_MIN_NAME;

	if (t->fmt == TAB_TXT)
		t->x += text_put_txt_max(t->out, s, room);
}

/* txt: s in the next column, padded to its width; a free-width column
 * (width 0) is a name, cut to the line's width */
static void txt_cell(struct tab *t, const char *s)
{
	const struct tab_col *c = t->cols ? &t->cols[t->col++] : NULL;
	int w = c ? c->width : 0;
	size_t n = text_columns(s), pad = (size_t)(w < 0 ? -w : w);

	pad = pad > n ? pad - n : 0;
	if (c && c->sep)
		tab_txt(t, "%s", c->sep);
	else if (t->col > 1)
		tab_txt(t, " ");
	if (w > 0)
		tab_txt(t, "%*s", (int)pad, "");
	if (w)
		t->x += text_put_txt_max(t->out, s, SIZE_MAX);
	else
		tab_txt_name(t, s);
	if (w < 0)
		tab_txt(t, "%*s", (int)pad, "");
}

void tab_label(struct tab *t, const char *s)
{
	if (t->fmt == TAB_TXT)
		txt_cell(t, s);
}

/* a value as text: quoted or not in json, escaped in every format */
static void value(struct tab *t, const char *key, const char *s, bool quoted)
{
	switch (t->fmt) {
	case TAB_JSON:
		json_member(t, key);
		if (quoted)
			text_put_json(t->out, s, TEXT_JSON);
		else
			fputs(s, t->out);
		break;
	case TAB_CSV:
		if (t->item[0])
			fputc(',', t->out);
		t->item[0] = true;
		if (quoted)
			text_put_csv(t->out, s);
		else		/* a number: '-' is its sign, not a formula */
			fputs(s, t->out);
		break;
	case TAB_TXT:
		txt_cell(t, s);
		break;
	}
}

void tab_str(struct tab *t, const char *key, const char *s)
{
	value(t, key, s ? s : "", true);
}

void tab_strf(struct tab *t, const char *key, const char *fmt, ...)
{
	char buf[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	value(t, key, buf, true);
}

void tab_u64(struct tab *t, const char *key, uint64_t v)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "%" PRIu64, v);
	value(t, key, buf, false);
}

void tab_json_u64(struct tab *t, const char *key, uint64_t v)
{
	if (t->fmt == TAB_JSON)
		tab_u64(t, key, v);
}

void tab_i64(struct tab *t, const char *key, int64_t v)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "%" PRId64, v);
	value(t, key, buf, false);
}

void tab_bool(struct tab *t, const char *key, bool v)
{
	value(t, key, v ? "true" : "false", false);
}

void tab_null(struct tab *t, const char *key)
{
	value(t, key, t->fmt == TAB_JSON ? "null" : t->fmt == TAB_CSV ? "" : "-",
	      false);
}
