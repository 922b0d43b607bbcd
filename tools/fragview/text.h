/* SPDX-License-Identifier: GPL-2.0 */
/*
 * text.h - text from the capture made safe to print: one UTF-8 decoder
 * and the escapers built on it (JSON, CSV, XML/HTML, terminal text).
 *
 * Task names, stack frames and file names come from the capture or the
 * command line and may be any bytes: the kernel cuts a comm at 15 bytes,
 * in the middle of a character if need be.  Every byte that does not
 * start a well-formed UTF-8 sequence (RFC 3629: no overlong forms, no
 * surrogates, nothing above U+10FFFF, nothing cut short) is written as
 * U+REPLACEMENT CHARACTER (U+FFFD, bytes ef bf bd), one per byte, so every
 * output is valid UTF-8 and an invalid byte stays visible.
 */
#ifndef FRAGVIEW_TEXT_H
#define FRAGVIEW_TEXT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define TEXT_REPLACEMENT 0xfffd

/*
 * The character at s: its length in bytes (1 to 4), or 0 at the
 * terminating NUL; *cp is its code point, or TEXT_REPLACEMENT for a byte
 * that starts no well-formed sequence (length 1).
 */
size_t text_utf8_next(const char *s, uint32_t *cp);

/* cp as UTF-8 */
void text_put_cp(FILE *out, uint32_t cp);

/* Terminal text: valid UTF-8, controls (C0, DEL, C1) as U+FFFD too. */
void text_put_txt(FILE *out, const char *s);

/* Characters (code points) in s, each counted as one column. */
size_t text_columns(const char *s);

/*
 * Terminal text in at most max columns: when s is longer, its first
 * max - 1 characters and TEXT_CUT_MARK.  Returns the columns written.
 */
#define TEXT_CUT_MARK "~"
size_t text_put_txt_max(FILE *out, const char *s, size_t max);

/*
 * A JSON string (RFC 8259) in quotes: " and \ escaped, controls as
 * \u00XX.  TEXT_JSON_SCRIPT also writes < > & as \u003c \u003e \u0026,
 * for JSON inside an HTML <script> element ("</script>" cannot end it).
 */
enum { TEXT_JSON = 0, TEXT_JSON_SCRIPT = 1 };
void text_put_json(FILE *out, const char *s, int flags);

/*
 * A CSV field (RFC 4180): quoted when it holds a comma, quote, CR or LF,
 * quotes doubled.  A field that starts with = + - @ TAB or CR would be a
 * formula to a spreadsheet: it gets a leading ' and quotes (OWASP, CSV
 * injection).
 */
void text_put_csv(FILE *out, const char *s);

/*
 * XML 1.0 character data or attribute value (SVG, HTML): < > & " '
 * as entities, the controls XML forbids as '?', U+FFFE and U+FFFF as
 * U+FFFD.
 */
void text_put_xml(FILE *out, const char *s);

#endif /* FRAGVIEW_TEXT_H */
