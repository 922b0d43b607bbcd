// SPDX-License-Identifier: GPL-2.0
/* text.c - one UTF-8 decoder and the escapers of every output format. */
#include <stdbool.h>
#include <string.h>

#include "text.h"

size_t text_utf8_next(const char *s, uint32_t *cp)
{
	const unsigned char *u = (const unsigned char *)s;
	uint32_t c = u[0], min;
	size_t len;

	*cp = c;
	if (c < 0x80)
		return c ? 1 : 0;
	if (c >= 0xc2 && c <= 0xdf)
		len = 2, c &= 0x1f, min = 0x80;
	else if (c >= 0xe0 && c <= 0xef)
		len = 3, c &= 0x0f, min = 0x800;
	else if (c >= 0xf0 && c <= 0xf4)
		len = 4, c &= 0x07, min = 0x10000;
	else
		goto bad;	/* a continuation byte, c0, c1, f5-ff */
	for (size_t i = 1; i < len; i++) {
		if ((u[i] & 0xc0) != 0x80)	/* also stops at the NUL */
			goto bad;
		c = c << 6 | (u[i] & 0x3f);
	}
	if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		goto bad;
	*cp = c;
	return len;
bad:
	*cp = TEXT_REPLACEMENT;
	return 1;
}

void text_put_cp(FILE *out, uint32_t cp)
{
	if (cp < 0x80) {
		fputc(cp, out);
	} else if (cp < 0x800) {
		fputc(0xc0 | cp >> 6, out);
		fputc(0x80 | (cp & 0x3f), out);
	} else if (cp < 0x10000) {
		fputc(0xe0 | cp >> 12, out);
		fputc(0x80 | (cp >> 6 & 0x3f), out);
		fputc(0x80 | (cp & 0x3f), out);
	} else {
		fputc(0xf0 | cp >> 18, out);
		fputc(0x80 | (cp >> 12 & 0x3f), out);
		fputc(0x80 | (cp >> 6 & 0x3f), out);
		fputc(0x80 | (cp & 0x3f), out);
	}
}

/* C0, DEL and C1: a terminal may take them for commands */
static bool is_control(uint32_t cp)
{
	return cp < 0x20 || (cp >= 0x7f && cp < 0xa0);
}

size_t text_columns(const char *s)
{
	size_t n = 0, len;
	uint32_t cp;

	for (; s && (len = text_utf8_next(s, &cp)); s += len)
		n++;
	return n;
}

size_t text_put_txt_max(FILE *out, const char *s, size_t max)
{
	bool cut = text_columns(s) > max;
	size_t n = 0, len;
	uint32_t cp;

	for (; s && (len = text_utf8_next(s, &cp)); s += len) {
		if (cut && n + 1 >= max)
			break;
		text_put_cp(out, is_control(cp) ? TEXT_REPLACEMENT : cp);
		n++;
	}
	if (cut && max) {
		fputs(TEXT_CUT_MARK, out);
		n++;
	}
	return n;
}

void text_put_txt(FILE *out, const char *s)
{
	text_put_txt_max(out, s, SIZE_MAX);
}

void text_put_json(FILE *out, const char *s, int flags)
{
	size_t len;
	uint32_t cp;

	fputc('"', out);
	for (; s && (len = text_utf8_next(s, &cp)); s += len) {
		if (cp == '"' || cp == '\\')
			fprintf(out, "\\%c", cp);
		else if (cp < 0x20 || cp == 0x7f ||
			 ((flags & TEXT_JSON_SCRIPT) && cp < 0x80 &&
			  strchr("<>&", cp)))
			fprintf(out, "\\u%04x", cp);
		else
			text_put_cp(out, cp);
	}
	fputc('"', out);
}

void text_put_csv(FILE *out, const char *s)
{
	bool formula = s && *s && strchr("=+-@\t\r", *s);
	size_t len;
	uint32_t cp;

	if (!s)
		return;
	if (!formula && !strpbrk(s, ",\"\r\n")) {
		for (; (len = text_utf8_next(s, &cp)); s += len)
			text_put_cp(out, cp);
		return;
	}
	fputs(formula ? "\"'" : "\"", out);
	for (; (len = text_utf8_next(s, &cp)); s += len) {
		if (cp == '"')
			fputc('"', out);
		text_put_cp(out, cp);
	}
	fputc('"', out);
}

/* the XML entity of cp, or NULL */
static const char *xml_entity(uint32_t cp)
{
	static const char *const entity[] = {
		['<'] = "&lt;", ['>'] = "&gt;", ['&'] = "&amp;",
		['"'] = "&quot;", ['\''] = "&#39;",
	};

	return cp < sizeof(entity) / sizeof(entity[0]) ? entity[cp] : NULL;
}

void text_put_xml(FILE *out, const char *s)
{
	size_t len;
	uint32_t cp;

	for (; s && (len = text_utf8_next(s, &cp)); s += len) {
		if (xml_entity(cp))
			fputs(xml_entity(cp), out);
		else if (cp == 0xfffe || cp == 0xffff)	/* not XML characters */
			text_put_cp(out, TEXT_REPLACEMENT);
		else if (cp < 0x20 && cp != '\t' && cp != '\n' && cp != '\r')
			fputc('?', out);	/* XML 1.0 forbids most controls */
		else
			text_put_cp(out, cp);
	}
}
