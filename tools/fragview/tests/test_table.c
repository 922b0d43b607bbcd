// SPDX-License-Identifier: GPL-2.0
/*
 * test_table.c - the table emitter: JSON nesting and commas, CSV cells
 * (numbers as they are, text escaped), txt columns and cut names.
 */
#include <stdlib.h>
#include <string.h>

#include "test.h"
#include "../table.h"
#include "../text.h"

static char buf[1024];

static FILE *open_buf(void)
{
	memset(buf, 0, sizeof(buf));
	return fmemopen(buf, sizeof(buf) - 1, "w");
}

/* the same walk in every format */
static void walk(struct tab *t)
{
	static const struct tab_col cols[] = {
		{ 3, NULL }, { -6, "  " }, { 0, NULL },
	};

	tab_open_document(t);
	tab_txt(t, "heading\n");
	tab_columns(t, cols);
	tab_open(t, "rows", '[');
	for (int i = 0; i < 2; i++) {
		tab_break(t, "\n ");
		tab_open(t, NULL, '{');
		tab_i64(t, "n", i - 1);
		tab_str(t, "name", i ? "=x,\"y\"" : "ab");
		tab_null(t, "none");
		tab_close(t);
		tab_row_end(t);
	}
	tab_close(t);
	tab_open(t, "empty", '{');
	tab_close(t);
	tab_bool(t, "ok", true);
	tab_close(t);
}

static const char *run(enum tab_format fmt)
{
	struct tab t;
	FILE *f = open_buf();

	tab_init(&t, f, fmt);
	walk(&t);
	fclose(f);
	return buf;
}

static void test_json(void)
{
	const char *want = "{\"schema\":1,\"rows\":[\n {\"n\":-1,\"name\":\"ab\","
			   "\"none\":null},\n {\"n\":0,\"name\":\"=x,\\\"y\\\"\","
			   "\"none\":null}],\"empty\":{},\"ok\":true}";

	if (strcmp(run(TAB_JSON), want))
		fprintf(stderr, "  got  %s\n  want %s\n", buf, want);
	CHECK(!strcmp(buf, want));
}

static void test_csv(void)
{
	/* a negative number stays a number, a formula is neutralised */
	const char *want = "-1,ab,\n0,\"'=x,\"\"y\"\"\",\ntrue";

	if (strcmp(run(TAB_CSV), want))
		fprintf(stderr, "  got  %s\n  want %s\n", buf, want);
	CHECK(!strcmp(buf, want));
}

static void test_txt(void)
{
	const char *want = "heading\n -1  ab     -\n  0  =x,\"y\" -\ntrue";

	if (strcmp(run(TAB_TXT), want))
		fprintf(stderr, "  got  %s\n  want %s\n", buf, want);
	CHECK(!strcmp(buf, want));
}

/* a name gets the rest of the 100 columns, and a cut mark */
static void test_txt_cut(void)
{
	char name[200];
	struct tab t;
	FILE *f = open_buf();

	memset(name, 'n', sizeof(name) - 1);
	name[sizeof(name) - 1] = 0;
	tab_init(&t, f, TAB_TXT);
	tab_txt(&t, "%40s", "");
	tab_txt_name(&t, name);
	tab_txt(&t, "\n");
	tab_txt_name(&t, "short");
	fclose(f);
	CHECK_EQ(strchr(buf, '\n') - buf, TAB_TXT_COLUMNS);
	CHECK(!strncmp(buf + TAB_TXT_COLUMNS - 1, TEXT_CUT_MARK "\nshort", 7));
	/* already past the width: still a readable part of the name */
	f = open_buf();
	tab_init(&t, f, TAB_TXT);
	tab_txt(&t, "%120s", "");
	tab_txt_name(&t, name);
	fclose(f);
	CHECK(strlen(buf) > 130 && strlen(buf) < 150);
	CHECK_EQ(buf[strlen(buf) - 1], TEXT_CUT_MARK[0]);
}

/* heads, labels and totals each show in one format only; a row object */
static const char *run_parts(enum tab_format fmt)
{
	static const struct tab_col cols[] = { { -4, "  " }, { 5, NULL } };
	static const char *const heads[] = { "name", "n" };
	struct tab t;
	FILE *f = open_buf();

	tab_init(&t, f, fmt);
	tab_csv_head(&t, "name,n");
	tab_open_document(&t);
	tab_json_u64(&t, "total", 7);
	tab_txt_head(&t, cols, heads, 2);
	tab_open(&t, "rows", '[');
	tab_row_open(&t, "\n");
	tab_label(&t, "ab");
	tab_u64(&t, "n", 3);
	tab_row_close(&t);
	tab_close(&t);
	tab_close(&t);
	fclose(f);
	return buf;
}

static void test_parts(void)
{
	static const char *const want[] = {
		[TAB_TXT] = "  name     n\n  ab       3\n",
		[TAB_CSV] = "name,n\n3\n",
		[TAB_JSON] = "{\"schema\":1,\"total\":7,\"rows\":[\n{\"n\":3}]}",
	};

	for (int fmt = TAB_TXT; fmt <= TAB_JSON; fmt++) {
		if (strcmp(run_parts(fmt), want[fmt]))
			fprintf(stderr, "  got  %s\n  want %s\n", buf, want[fmt]);
		CHECK(!strcmp(buf, want[fmt]));
	}
}

/* a list wraps before it would pass the 100 columns, under its indent */
static void test_txt_wrap(void)
{
	struct tab t;
	FILE *f = open_buf();
	char *nl;

	tab_init(&t, f, TAB_TXT);
	tab_txt(&t, "list:");
	for (int i = 0; i < 30; i++)
		tab_txt_wrap(&t, "     ", " item%d", i);
	fclose(f);
	nl = strchr(buf, '\n');
	CHECK(nl && nl - buf <= TAB_TXT_COLUMNS && nl - buf > TAB_TXT_COLUMNS - 7);
	CHECK(nl && !strncmp(nl, "\n      item", 11));
	for (char *p = buf; (nl = strchr(p, '\n')); p = nl + 1)
		CHECK(nl - p <= TAB_TXT_COLUMNS);
	CHECK(strstr(buf, " item29"));
}

int main(void)
{
	RUN(test_json);
	RUN(test_csv);
	RUN(test_txt);
	RUN(test_txt_cut);
	RUN(test_parts);
	RUN(test_txt_wrap);
	return TEST_EXIT();
}
