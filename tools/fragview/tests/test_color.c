// SPDX-License-Identifier: GPL-2.0
/*
 * test_color.c - map --color: the buckets of each view, the record a
 * block shows at a time (the latest at or before it), and the txt, ansi
 * and svg maps drawing every block with its bucket.  A small model of
 * ten Normal blocks whose values hit the bucket edges.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "../model.h"
#include "../render.h"
#include "../render_map_common.h"
#include "builders.h"
#include "test.h"

#define NB 10
#define BASE 0x100000ULL
#define PFN(k) (BASE + (k) * 512ULL)
#define M FV_MT_MOVABLE
#define NORMAL FV_ZONE_NORMAL

static const uint32_t free0[NB] = { 0, 1, 63, 64, 511, 512, 256, 100, 0, 300 };
static const int8_t order0[NB] = { -1, 0, 5, 6, 8, 10, 8, 6, -1, 9 };
static const uint16_t kernel1[NB] = { 0, 1, 9, 10, 99, 100, 500, 0, 5, 0 };
static const unsigned int steals[NB] = { 0, 1, 12, 150, 0, 0, 0, 0, 0, 0 };

/*
 * t=100 snapshot 1 of all blocks (block 8 Isolate); steals at t=150-159
 * and 20 claims of block 4 declined at t=155 (no steals: taken=0);
 * t=200 census 1 (32 free pages each, kernel1[k] kernel pages); t=300
 * snapshot 2 of blocks 0-4 only, all free.
 */
static void build(struct fv_model *m)
{
	fv_model_init(m);
	m->keep_steal_times = true;
	m->keep_space_times = true;
	for (int k = 0; k < NB; k++) {
		struct fv_event e = ev_state(100, 1, 0, NORMAL, PFN(k),
					     k == 8 ? FV_MT_ISOLATE : M);

		e.state.free_pages = free0[k];
		e.state.largest_order = order0[k];
		feed(m, e);
	}
	/* in time order: the s-th steal of each block at 150 + s / 16 */
	for (unsigned int s = 0; s < 150; s++) {
		for (int d = 0; s == 5 * 16 && d < 20; d++)
			feed(m, ev_declined(155, 0, NORMAL, PFN(4),
					    FV_MT_UNMOVABLE, M));
		for (int k = 0; k < NB; k++)
			if (s < steals[k])
				feed(m, ev_steal(150 + s / 16, 0, NORMAL, PFN(k),
						 FV_MT_UNMOVABLE, M, false));
	}
	for (int k = 0; k < NB; k++)
		feed(m, census_move(ev_census(200, 1, 0, NORMAL, PFN(k),
					      k == 8 ? FV_MT_ISOLATE : M, 32),
				    FV_CN_LRU, FV_CN_KERNEL, kernel1[k]));
	for (int k = 0; k < 5; k++) {
		struct fv_event e = ev_state(300, 2, 0, NORMAL, PFN(k), M);

		e.state.free_pages = 512;
		e.state.largest_order = 10;
		feed(m, e);
	}
	fv_model_finish(m);
}

static char *render(int (*fn)(FILE *, const struct fv_model *,
			      const struct map_opts *),
		    const struct fv_model *m, int color, uint64_t at)
{
	struct map_opts o = { .zone_nid = -1, .zone_type = -1, .width = 80,
			      .title = "color.dat", .color = color,
			      .have_at = at != UINT64_MAX, .at_ts = at };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	CHECK_EQ(fn(f, m, &o), 0);
	fclose(f);
	return buf;
}

/* The cells of a txt map's rows ("  0x<pfn> <cells>"), gaps left out. */
static void txt_cells(const char *txt, char *out, size_t max)
{
	size_t n = 0;

	for (const char *l = txt; l && *l; l = strchr(l, '\n')) {
		const char *p;

		if (*l == '\n')
			l++;
		if (strncmp(l, "  0x", 4))
			continue;
		for (p = strchr(l + 4, ' ') + 1; *p && *p != '\n'; p++)
			if (*p != ' ' && n + 1 < max)
				out[n++] = *p;
	}
	out[n] = 0;
}

/* The count of a legend line "  G label   N", or -1. */
static long legend_count(const char *txt, char glyph, const char *label)
{
	char head[64];
	const char *l;

	snprintf(head, sizeof(head), "\n  %c %s ", glyph, label);
	l = strstr(txt, head);
	return l ? strtol(l + strlen(head), NULL, 10) : -1;
}

static char *cells_of(const struct fv_model *m, int color, uint64_t at)
{
	static char cells[64];
	char *t = render(render_map_txt, m, color, at);

	txt_cells(t, cells, sizeof(cells));
	free(t);
	return cells;
}

static void test_bucket_edges(void)
{
	const unsigned int o9 = 9;
	struct map_bucket b[MAP_MAX_BUCKETS];
	size_t n;

	/* free: ? . 0..7 8 */
	n = map_color_buckets(MAP_COLOR_FREE, o9, b);
	CHECK_EQ(n, 11);
	CHECK_EQ(b[map_color_bucket(MAP_COLOR_FREE, o9, false, true, 7)].glyph, '?');
	CHECK_EQ(b[map_color_bucket(MAP_COLOR_FREE, o9, true, true, 0)].glyph, '.');
	CHECK_EQ(b[map_color_bucket(MAP_COLOR_FREE, o9, true, true, 1)].glyph, '0');
	CHECK_EQ(b[map_color_bucket(MAP_COLOR_FREE, o9, true, true, 63)].glyph, '0');
	CHECK_EQ(b[map_color_bucket(MAP_COLOR_FREE, o9, true, true, 64)].glyph, '1');
	CHECK_EQ(b[map_color_bucket(MAP_COLOR_FREE, o9, true, true, 511)].glyph, '7');
	CHECK_EQ(b[map_color_bucket(MAP_COLOR_FREE, o9, true, true, 512)].glyph, '8');
	/* order 10 blocks: 1024 pages, an eighth is 128 */
	CHECK_EQ(map_color_bucket(MAP_COLOR_FREE, 10, true, true, 127), 2);
	CHECK_EQ(map_color_bucket(MAP_COLOR_FREE, 10, true, true, 128), 3);
	/* order: . 0-9 a(10 or more) */
	n = map_color_buckets(MAP_COLOR_ORDER, o9, b);
	CHECK_EQ(n, 13);
	CHECK_EQ(b[map_color_bucket(MAP_COLOR_ORDER, o9, true, true, -1)].glyph, '.');
	CHECK_EQ(b[map_color_bucket(MAP_COLOR_ORDER, o9, true, true, 0)].glyph, '0');
	CHECK_EQ(b[map_color_bucket(MAP_COLOR_ORDER, o9, true, true, 9)].glyph, '9');
	CHECK_EQ(b[map_color_bucket(MAP_COLOR_ORDER, o9, true, true, 10)].glyph, 'a');
	CHECK_EQ(b[map_color_bucket(MAP_COLOR_ORDER, o9, true, true, 13)].glyph, 'a');
	CHECK(strstr(b[2 + 9].label, "a whole block"));
	/* pollution: ? - . 1-4 */
	n = map_color_buckets(MAP_COLOR_POLLUTION, o9, b);
	CHECK_EQ(n, 7);
	CHECK_EQ(b[map_color_bucket(MAP_COLOR_POLLUTION, o9, true, false, 9)].glyph, '-');
	CHECK_EQ(b[map_color_bucket(MAP_COLOR_POLLUTION, o9, true, true, 0)].glyph, '.');
	CHECK_EQ(b[map_color_bucket(MAP_COLOR_POLLUTION, o9, true, true, 9)].glyph, '1');
	CHECK_EQ(b[map_color_bucket(MAP_COLOR_POLLUTION, o9, true, true, 10)].glyph, '2');
	CHECK_EQ(b[map_color_bucket(MAP_COLOR_POLLUTION, o9, true, true, 999)].glyph, '3');
	CHECK_EQ(b[map_color_bucket(MAP_COLOR_POLLUTION, o9, true, true, 1000)].glyph, '4');
	/* steals: . 1-4, no "unknown" */
	n = map_color_buckets(MAP_COLOR_STEALS, o9, b);
	CHECK_EQ(n, 5);
	CHECK_EQ(b[map_color_bucket(MAP_COLOR_STEALS, o9, true, true, 0)].glyph, '.');
	CHECK_EQ(b[map_color_bucket(MAP_COLOR_STEALS, o9, true, true, 99)].glyph, '2');
	CHECK_EQ(b[map_color_bucket(MAP_COLOR_STEALS, o9, true, true, 123456)].glyph, '4');
}

/*
 * Every pageblock order a dump or an inference can give (up to
 * FV_ORDER_MAX, and beyond it should one slip through): the order view
 * fits its buckets, and every value lands in one of them.
 */
static void test_order_view_every_order(void)
{
	for (unsigned int order = 1; order <= 24; order++) {
		struct map_bucket b[MAP_MAX_BUCKETS + 8];
		size_t n = map_color_buckets(MAP_COLOR_ORDER, order, b);

		CHECK(n <= MAP_MAX_BUCKETS);
		for (int64_t v = -1; v <= 40; v++)
			CHECK(map_color_bucket(MAP_COLOR_ORDER, order, true,
					       true, v) < n);
		if (n > MAP_MAX_BUCKETS) {
			fprintf(stderr, "  order %u: %zu buckets\n", order, n);
			break;
		}
	}
}

/*
 * Within a view no two buckets share a glyph, and their colours differ
 * by 40 or more (sum of the RGB differences): the page's self-test
 * reads a cell's bucket back from its pixels within 30.
 */
static void test_buckets_distinct(void)
{
	/* x86-64 with and without CONFIG_HUGETLB_PAGE: orders 9 and 10 */
	for (int k = 0; k < 2 * MAP_COLOR_NR; k++) {
		int c = k % MAP_COLOR_NR;
		struct map_bucket b[MAP_MAX_BUCKETS];
		size_t n;

		if (c == MAP_COLOR_TYPE)
			continue;
		n = map_color_buckets(c, 9 + k / MAP_COLOR_NR, b);

		CHECK(n >= 5 && n <= MAP_MAX_BUCKETS);
		for (size_t i = 0; i < n; i++) {
			CHECK(b[i].glyph > ' ' && b[i].label[0]);
			for (size_t j = 0; j < i; j++) {
				CHECK(b[i].glyph != b[j].glyph);
				CHECK(abs(b[i].r - b[j].r) + abs(b[i].g - b[j].g) +
				      abs(b[i].b - b[j].b) >= 40);
			}
		}
	}
	CHECK_EQ(map_color_parse("pollution"), MAP_COLOR_POLLUTION);
	CHECK_EQ(map_color_parse("type"), MAP_COLOR_TYPE);
	CHECK_EQ(map_color_parse("Free"), -1);
	CHECK_EQ(map_color_parse(""), -1);
}

static void test_txt_views_at_times(void)
{
	struct fv_model m;
	char *t;

	build(&m);
	/* before any snapshot: unknown */
	CHECK(!strcmp(cells_of(&m, MAP_COLOR_FREE, 99), "??????????"));
	CHECK(!strcmp(cells_of(&m, MAP_COLOR_POLLUTION, 199), "??????????"));
	/* snapshot 1 */
	CHECK(!strcmp(cells_of(&m, MAP_COLOR_FREE, 100), ".0017841.4"));
	CHECK(!strcmp(cells_of(&m, MAP_COLOR_ORDER, 150), ".0568a86.9"));
	/* the census is later: its free pages, 32 = under an eighth */
	CHECK(!strcmp(cells_of(&m, MAP_COLOR_FREE, 250), "0000000000"));
	/* ... but it has no orders */
	CHECK(!strcmp(cells_of(&m, MAP_COLOR_ORDER, 250), ".0568a86.9"));
	CHECK(!strcmp(cells_of(&m, MAP_COLOR_POLLUTION, 250), ".112233.-."));
	/* snapshot 2 covers blocks 0-4 */
	CHECK(!strcmp(cells_of(&m, MAP_COLOR_FREE, UINT64_MAX), "8888800000"));
	CHECK(!strcmp(cells_of(&m, MAP_COLOR_ORDER, UINT64_MAX), "aaaaaa86.9"));
	/* steals up to the time */
	CHECK(!strcmp(cells_of(&m, MAP_COLOR_STEALS, 149), ".........."));
	/* at 155: 1, 12 and 96 steals */
	CHECK(!strcmp(cells_of(&m, MAP_COLOR_STEALS, 155), ".122......"));
	CHECK(!strcmp(cells_of(&m, MAP_COLOR_STEALS, UINT64_MAX), ".123......"));
	/* the type view is the map as ever */
	CHECK(!strcmp(cells_of(&m, MAP_COLOR_TYPE, UINT64_MAX), "MmmmMMMMIM"));

	/* legends: where the cells come from, blocks per bucket */
	t = render(render_map_txt, &m, MAP_COLOR_FREE, UINT64_MAX);
	CHECK(strstr(t, "as of snapshot 2 at 0.000000300 s: each block's latest "
		     "pageblock_state snapshot or census at or before the time "
		     "drawn (5 from an older one, the oldest at 0.000000200 s)"));
	CHECK_EQ(legend_count(t, '8', "all 512 free"), 5);
	CHECK_EQ(legend_count(t, '0', "1-63 pages: under 1/8"), 5);
	CHECK_EQ(legend_count(t, '?', "no snapshot yet"), 0);
	CHECK(strstr(t, "colour: free\n"));
	free(t);
	t = render(render_map_txt, &m, MAP_COLOR_POLLUTION, 250);
	CHECK(strstr(t, "as of census 1 at 0.000000200 s: each block's latest "
		     "census at or before the time drawn\n"));
	CHECK_EQ(legend_count(t, '-', "not classed (Isolate)"), 1);
	CHECK_EQ(legend_count(t, '.', "clean: no foreign page"), 3);
	CHECK_EQ(legend_count(t, '3', "100-999 foreign pages"), 2);
	free(t);
	t = render(render_map_txt, &m, MAP_COLOR_POLLUTION, 199);
	CHECK(strstr(t, "no census at or before the time drawn"));
	free(t);
	fv_model_free(&m);
}

/* ansi: every cell on its bucket's 256-colour background */
static void test_ansi_colours(void)
{
	struct map_bucket b[MAP_MAX_BUCKETS];
	struct fv_model m;
	char want[32];
	char *t;

	build(&m);
	map_color_buckets(MAP_COLOR_POLLUTION, 9, b);
	t = render(render_map_ansi, &m, MAP_COLOR_POLLUTION, UINT64_MAX);
	/* block 5: 100 kernel pages, bucket 3 (100-999), then block 6 too */
	snprintf(want, sizeof(want), ";48;5;%dm33", b[5].ansi256);
	CHECK(strstr(t, want));
	snprintf(want, sizeof(want), ";48;5;%dm-", b[1].ansi256);
	CHECK(strstr(t, want));
	/* no marks outside the type view */
	CHECK(!strstr(t, "\033[0;1;4"));
	free(t);
	fv_model_free(&m);
}

/* svg: each cell filled with its bucket's colour, its value in the title */
static void test_svg_cells(void)
{
	struct map_bucket b[MAP_MAX_BUCKETS];
	struct fv_model m;
	char want[256];
	char *t;

	build(&m);
	map_color_buckets(MAP_COLOR_FREE, 9, b);
	t = render(render_map_svg, &m, MAP_COLOR_FREE, 100);
	for (int k = 0; k < NB; k++) {
		unsigned int bk = map_color_bucket(MAP_COLOR_FREE, 9, true, true,
						   free0[k]);
		const char *cell;

		snprintf(want, sizeof(want), "data-pfn=\"0x%llx\"",
			 (unsigned long long)PFN(k));
		cell = strstr(t, want);
		CHECK(cell);
		if (!cell)
			continue;
		snprintf(want, sizeof(want), "fill=\"#%02x%02x%02x\"",
			 b[bk].r, b[bk].g, b[bk].b);
		CHECK(strstr(cell, want) && strstr(cell, want) < strstr(cell, "</rect>"));
		snprintf(want, sizeof(want), ", free: %s (%u, snapshot 1)</title>",
			 b[bk].label, free0[k]);
		CHECK(strstr(cell, want) && strstr(cell, want) < strstr(cell, "</rect>"));
	}
	free(t);
	/* pollution: what the block holds, from its census record */
	t = render(render_map_svg, &m, MAP_COLOR_POLLUTION, UINT64_MAX);
	CHECK(strstr(t, "pollution: 100-999 foreign pages (100, census 1); holds "
		     "free 32, lru 380, kernel 100</title>"));
	CHECK(strstr(t, "pollution: not classed (Isolate) (0, census 1); holds "
		     "free 32, lru 475, kernel 5</title>"));
	free(t);
	t = render(render_map_svg, &m, MAP_COLOR_FREE, 100);
	/* the legend: title, source, one key per bucket */
	CHECK(strstr(t, ">free pages per block</text>"));
	CHECK(strstr(t, "as of snapshot 1 at 0.000000100 s"));
	{
		size_t keys = 0;

		for (const char *p = strstr(t, "class=\"key\""); p;
		     p = strstr(p + 1, "class=\"key\""))
			keys++;
		CHECK_EQ(keys, 11);
	}
	free(t);
	fv_model_free(&m);
}

/* The count of comma-separated numbers in the array after key in s. */
static long array_len(const char *s, const char *key)
{
	const char *p = strstr(s, key);
	long n = 0;

	if (!p)
		return -1;
	p += strlen(key);
	if (*p == ']')
		return 0;
	for (n = 1; *p && *p != ']'; p++)
		n += *p == ',';
	return n;
}

/*
 * html: the page opens in the view asked for; each view carries its
 * buckets and one change per record (free: every snapshot and census
 * record; steals: one per bucket a block's count enters).
 */
static void test_html_views(void)
{
	struct fv_model m;
	const char *free_view, *steals_view;
	char *t;

	build(&m);
	t = render(render_map_html, &m, MAP_COLOR_POLLUTION, UINT64_MAX);
	CHECK(strstr(t, "\"views\":{\"initial\":\"pollution\""));
	free_view = strstr(t, "{\"name\":\"free\"");
	steals_view = strstr(t, "{\"name\":\"steals\"");
	CHECK(free_view && steals_view);
	if (free_view && steals_view) {
		/* 10 + 5 pageblock_state records, 10 census records */
		CHECK_EQ(array_len(free_view, "\"b\":["), 25);
		CHECK(strstr(free_view, "\"have\":true,\"from\":3,\"init\":0,"));
		CHECK(strstr(free_view, "[\"8\",\"#2166ac\",\"all 512 free\"]"));
		/* blocks 1, 2, 3: 1, 2 and 3 buckets entered */
		CHECK_EQ(array_len(steals_view, "\"b\":["), 6);
		CHECK(strstr(steals_view, "\"b\":[1,2,3,2,3,3]"));
		CHECK(strstr(steals_view, "\"v\":[1,1,1,10,10,100]"));
		/* only pollution has the counts: 10 records of 12 */
		CHECK(!strstr(free_view, "\"n\":[") ||
		      strstr(free_view, "\"n\":[") > strstr(free_view, "}"));
	}
	{
		const char *pol = strstr(t, "{\"name\":\"pollution\"");

		CHECK(pol && strstr(pol, "\"n\":[[32,0,480,0,0,0,0,0,0,0,0,0],"
					  "[32,0,479,0,0,0,0,1,0,0,0,0],"));
		CHECK(strstr(t, "\"counts\":[\"free\",\"free_chunks\",\"lru\","));
	}
	free(t);
	fv_model_free(&m);
	/* no census: the pollution view is there, but not offered */
	fv_model_init(&m);
	feed(&m, ev_state(1, 1, 0, NORMAL, BASE, M));
	fv_model_finish(&m);
	t = render(render_map_html, &m, MAP_COLOR_TYPE, UINT64_MAX);
	CHECK(strstr(t, "\"views\":{\"initial\":\"type\""));
	CHECK(strstr(t, "{\"name\":\"pollution\",") &&
	      strstr(strstr(t, "{\"name\":\"pollution\","), "\"have\":false"));
	free(t);
	fv_model_free(&m);
}

/* The numbers of the array after key in s (at most max) into out. */
static int int_array(const char *s, const char *key, long *out, int max)
{
	const char *p = s ? strstr(s, key) : NULL;
	int n = 0;

	if (!p)
		return -1;
	p += strlen(key);
	while (*p && *p != ']' && n < max) {
		char *end;

		out[n++] = strtol(p, &end, 10);
		p = *end == ',' ? end + 1 : end;
	}
	return n;
}

/* No change of the view starting at v leaves its block's cell as it was. */
static bool only_changes(const char *v)
{
	long b[64], k[64], val[64];
	int n = int_array(v, "\"b\":[", b, 64);

	if (n < 0 || int_array(v, "\"k\":[", k, 64) != n ||
	    int_array(v, "\"v\":[", val, 64) != n)
		return false;
	for (int j = 0; j < n; j++)
		for (int i = j - 1; i >= 0; i--)
			if (b[i] == b[j]) {
				if (k[i] == k[j] && val[i] == val[j])
					return false;
				break;
			}
	return true;
}

/*
 * html of a ticker's records: three snapshots of three blocks, the
 * second the first again, the third with block 1 freer (same largest
 * order), a census of block 0 between with its free pages.  Only what
 * changes a cell is a change (times from the previous change), and every
 * record is in "sources", which say which one each cell comes from.
 */
static void test_html_only_changes(void)
{
	static const uint32_t free3[3] = { 10, 300, 10 };
	struct fv_model m;
	const char *fv, *ov;
	char *t;

	fv_model_init(&m);
	m.keep_space_times = true;
	for (int snap = 1; snap <= 3; snap++) {
		for (int k = 0; k < 3; k++) {
			struct fv_event e = ev_state(100 * snap, snap, 0, NORMAL,
						     PFN(k), M);

			e.state.free_pages = snap == 3 ? free3[k] : 10;
			e.state.largest_order = 2;
			feed(&m, e);
		}
		if (snap == 2)
			feed(&m, ev_census(250, 1, 0, NORMAL, PFN(0), M, 10));
	}
	fv_model_finish(&m);
	t = render(render_map_html, &m, MAP_COLOR_FREE, UINT64_MAX);
	fv = strstr(t, "{\"name\":\"free\"");
	ov = strstr(t, "{\"name\":\"order\"");
	CHECK(fv && ov);
	CHECK(only_changes(fv));
	CHECK(only_changes(ov));
	CHECK(fv && strstr(fv, "\"from\":3,"));
	CHECK(fv && strstr(fv, "\"t\":[0,0,0,200],\"b\":[0,1,2,1],"));
	CHECK(ov && strstr(ov, "\"t\":[0,0,0],\"b\":[0,1,2],"));
	CHECK(strstr(t, "\"sources\":{\"s\":[2,4,3,6],"
			"\"b\":[[0,3],[0,3],[0,1],[0,3]],"
			"\"t\":[0,0,0,100,0,0,50,50,0,0]}"));
	free(t);
	fv_model_free(&m);
}

int main(void)
{
	unsetenv("COLORTERM");
	RUN(test_bucket_edges);
	RUN(test_buckets_distinct);
	RUN(test_order_view_every_order);
	RUN(test_txt_views_at_times);
	RUN(test_ansi_colours);
	RUN(test_svg_cells);
	RUN(test_html_views);
	RUN(test_html_only_changes);
	printf("%d passed, %d failed\n", t_pass, t_fail);
	return TEST_EXIT();
}
