/* SPDX-License-Identifier: GPL-2.0 */
/*
 * table.h - the one emitter behind the tables of stats, blame and
 * compact, with three back ends: txt (aligned columns), csv (RFC 4180
 * rows) and json (RFC 8259 objects and arrays).
 *
 * A command's renderer walks its data once and says what each value is
 * (a string, a number, nothing) and where it goes (a member of a JSON
 * object, a CSV cell, a txt column); the emitter writes the separators,
 * the alignment and the escaping (text.h), so no renderer quotes or
 * escapes anything itself.  The shape of the data, as in perf's
 * util/stat-display.c, stays with the walker: JSON nesting (tab_open(),
 * tab_close()) is nothing in csv and txt, a row end (tab_row_end()) is
 * nothing in json.
 */
#ifndef FRAGVIEW_TABLE_H
#define FRAGVIEW_TABLE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* The version of the JSON documents: "schema" in each (fragview(1)). */
#define TAB_SCHEMA 1

/* txt output fits this many columns (long names are cut, text.h) */
#define TAB_TXT_COLUMNS 100

enum tab_format { TAB_TXT, TAB_CSV, TAB_JSON };

/* A txt column: its width (negative: left-aligned) and what precedes it. */
struct tab_col {
	int width;
	const char *sep;	/* NULL: one space; the first column: none */
};

#define TAB_MAX_DEPTH 8

struct tab {
	FILE *out;
	enum tab_format fmt;
	int depth;			/* json: open objects and arrays */
	bool item[TAB_MAX_DEPTH + 1];	/* json: a value at this depth;
					 * csv: a cell in this row */
	char close[TAB_MAX_DEPTH + 1];	/* json: '}' or ']' of each depth */
	const char *brk;		/* json: after the next comma */
	const struct tab_col *cols;	/* txt: the current table's columns */
	int col;			/* txt: the next cell's column */
	size_t x;			/* txt: columns written in this line */
};

void tab_init(struct tab *t, FILE *out, enum tab_format fmt);
/*
 * json: the values that follow are members of an object the caller
 * opened and wrote members of itself (output not yet on the emitter)
 */
void tab_init_member(struct tab *t, FILE *out);

/* json: '{' or '[' (as member key, or an element when key is NULL) */
void tab_open(struct tab *t, const char *key, char bracket);
void tab_close(struct tab *t);
/* json: whitespace written before the next value (after its comma) */
void tab_break(struct tab *t, const char *ws);
/* json: {"schema":TAB_SCHEMA, opens the document */
void tab_open_document(struct tab *t);

/* txt only: free text (headings, notes), counted for the line's width */
void tab_txt(struct tab *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/*
 * txt only: free text that goes on a new line, after indent, when it
 * would pass the 100 columns (a list: " name 1", " name 2", ...)
 */
void tab_txt_wrap(struct tab *t, const char *indent, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* txt only: text from the capture, cut to the line's 100 columns */
void tab_txt_name(struct tab *t, const char *s);

/* txt only: s in the next column, as a name of the row */
void tab_label(struct tab *t, const char *s);
/* csv only: the header row, "a,b,c" (fragview's own names, unescaped) */
void tab_csv_head(struct tab *t, const char *columns);
/* txt: the columns of the rows that follow, and a row of their heads */
void tab_txt_head(struct tab *t, const struct tab_col *cols,
		  const char *const *heads, size_t nr);

/*
 * A row that is a json object (or array): tab_row_open() writes ws
 * (tab_break(), NULL: none) and '{', tab_row_close() the '}' or ']'
 * (json) or the newline (csv, txt).
 */
void tab_row_open(struct tab *t, const char *ws);
void tab_row_close(struct tab *t);

/* csv, txt: the cells of the current row are done: a newline */
void tab_row_end(struct tab *t);
/* txt: the columns of the rows that follow */
void tab_columns(struct tab *t, const struct tab_col *cols);

/*
 * A value: json: a member (key) or an element (key NULL); csv: the next
 * cell (key unused); txt: the next column.
 */
void tab_str(struct tab *t, const char *key, const char *s);
void tab_u64(struct tab *t, const char *key, uint64_t v);
void tab_i64(struct tab *t, const char *key, int64_t v);
void tab_bool(struct tab *t, const char *key, bool v);
/* json only: a member (a total csv and txt give in their own words) */
void tab_json_u64(struct tab *t, const char *key, uint64_t v);
/* unknown: json null, csv an empty cell, txt "-" */
void tab_null(struct tab *t, const char *key);
/* a string from a format (fragview's own text, e.g. "0x1f00") */
void tab_strf(struct tab *t, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif /* FRAGVIEW_TABLE_H */
