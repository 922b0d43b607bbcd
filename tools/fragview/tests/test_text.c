// SPDX-License-Identifier: GPL-2.0
/*
 * test_text.c - the UTF-8 decoder and the escapers: a comm the kernel cut
 * in the middle of a character, a formula, controls, every way a
 * sequence can be ill-formed.
 */
#include <stdlib.h>
#include <string.h>

#include "test.h"
#include "../text.h"

/* what put(out, s) writes, in a static buffer */
static const char *put(void (*fn)(FILE *, const char *), const char *s)
{
	static char buf[512];
	FILE *f;

	memset(buf, 0, sizeof(buf));
	f = fmemopen(buf, sizeof(buf) - 1, "w");

	fn(f, s);
	fclose(f);
	return buf;
}

static void json(FILE *f, const char *s) { text_put_json(f, s, TEXT_JSON); }
static void json_script(FILE *f, const char *s)
{
	text_put_json(f, s, TEXT_JSON_SCRIPT);
}
static void txt5(FILE *f, const char *s) { text_put_txt_max(f, s, 5); }

#define FFFD "\xef\xbf\xbd"

static void test_decoder(void)
{
	static const struct { const char *s; uint32_t cp; size_t len; } v[] = {
		{ "a", 'a', 1 }, { "", 0, 0 },
		{ "\xc3\xa9", 0xe9, 2 }, { "\xe2\x82\xac", 0x20ac, 3 },
		{ "\xf0\x9f\x98\x80", 0x1f600, 4 }, { "\xef\xbf\xbf", 0xffff, 3 },
		{ "\xe2\x82", TEXT_REPLACEMENT, 1 },	/* cut short */
		{ "\x80", TEXT_REPLACEMENT, 1 },	/* lone continuation */
		{ "\xc0\xaf", TEXT_REPLACEMENT, 1 },	/* overlong '/' */
		{ "\xe0\x80\xaf", TEXT_REPLACEMENT, 1 },/* overlong, 3 bytes */
		{ "\xed\xa0\x80", TEXT_REPLACEMENT, 1 },/* surrogate */
		{ "\xf4\x90\x80\x80", TEXT_REPLACEMENT, 1 },	/* > U+10FFFF */
		{ "\xff", TEXT_REPLACEMENT, 1 },
	};

	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		uint32_t cp;
		size_t len = text_utf8_next(v[i].s, &cp);

		if (len != v[i].len || cp != v[i].cp)
			fprintf(stderr, "  case %zu: len %zu cp %x\n", i, len, cp);
		CHECK_EQ(len, v[i].len);
		CHECK_EQ(cp, v[i].cp);
	}
}

/* a 15-byte comm cut in the middle of the euro sign */
static const char cut_comm[] = "=cmd|\"a,b\"\xc3\xa9\xe2\x82";

static void test_json(void)
{
	CHECK(!strcmp(put(json, cut_comm),
		      "\"=cmd|\\\"a,b\\\"\xc3\xa9" FFFD FFFD "\""));
	CHECK(!strcmp(put(json, "a\\b\n\x7f</x>"),
		      "\"a\\\\b\\u000a\\u007f</x>\""));
	CHECK(!strcmp(put(json_script, "</x>&\xc4\xbc"),
		      "\"\\u003c/x\\u003e\\u0026\xc4\xbc\""));
	CHECK(!strcmp(put(json, "\xff\xfe"), "\"" FFFD FFFD "\""));
}

static void test_csv(void)
{
	CHECK(!strcmp(put(text_put_csv, cut_comm),
		      "\"'=cmd|\"\"a,b\"\"\xc3\xa9" FFFD FFFD "\""));
	CHECK(!strcmp(put(text_put_csv, "plain"), "plain"));
	CHECK(!strcmp(put(text_put_csv, "a,b"), "\"a,b\""));
	CHECK(!strcmp(put(text_put_csv, "+1"), "\"'+1\""));
	CHECK(!strcmp(put(text_put_csv, "-x"), "\"'-x\""));
	CHECK(!strcmp(put(text_put_csv, "@SUM(A1)"), "\"'@SUM(A1)\""));
	CHECK(!strcmp(put(text_put_csv, "\tx"), "\"'\tx\""));
	CHECK(!strcmp(put(text_put_csv, "\rx"), "\"'\rx\""));
	CHECK(!strcmp(put(text_put_csv, "a=b"), "a=b"));	/* not first */
	CHECK(!strcmp(put(text_put_csv, "x\xe2\x82"), "x" FFFD FFFD));
	CHECK(!strcmp(put(text_put_csv, ""), ""));
}

static void test_xml(void)
{
	CHECK(!strcmp(put(text_put_xml, "<a href='x'>&\"\x01\t"),
		      "&lt;a href=&#39;x&#39;&gt;&amp;&quot;?\t"));
	CHECK(!strcmp(put(text_put_xml, cut_comm),
		      "=cmd|&quot;a,b&quot;\xc3\xa9" FFFD FFFD));
	CHECK(!strcmp(put(text_put_xml, "\xef\xbf\xbe"), FFFD));
}

static void test_txt(void)
{
	CHECK(!strcmp(put(text_put_txt, "a\x1b[31m\xc2\x9b" "b\xe2\x82"),
		      "a" FFFD "[31m" FFFD "b" FFFD FFFD));
	CHECK(!strcmp(put(txt5, "abcde"), "abcde"));
	CHECK(!strcmp(put(txt5, "abcdef"), "abcd" TEXT_CUT_MARK));
	/* characters, not bytes: no character is cut in two */
	CHECK(!strcmp(put(txt5, "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"),
		      "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9" TEXT_CUT_MARK));
	CHECK_EQ(text_columns("\xc3\xa9x\xff"), 3);
}

int main(void)
{
	RUN(test_decoder);
	RUN(test_json);
	RUN(test_csv);
	RUN(test_xml);
	RUN(test_txt);
	return TEST_EXIT();
}
