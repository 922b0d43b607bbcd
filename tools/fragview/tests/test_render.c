// SPDX-License-Identifier: GPL-2.0
/*
 * test_render.c - the map renderers (txt, ansi, svg, html) on small
 * models built from synthetic events through the real model code.
 *
 *   test_render                   run the tests ("ok"/"not ok" lines);
 *                                 UPDATE_GOLDEN=1 rewrites tests/golden/
 *   test_render --html FILE       write the fixture's HTML map and print
 *                                 "exp=<ts>:<types>" lines for
 *                                 tests/html/run.sh (types parsed back
 *                                 from the txt map at that time)
 *   test_render --big-html FILE [BLOCKS EVENTS]
 *                                 the same for a 1 M event capture (4096
 *                                 blocks, ~100k flips) or another size
 *   test_render --empty-html FILE the page of a capture without blocks
 *
 * Golden files are compared byte for byte; the HTML is checked for
 * facts (self-contained, escaped, data complete) instead, as its bytes
 * change with every edit of the page code.
 */
#include <ctype.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>

#include "../blame.h"
#include "../model.h"
#include "../render.h"
#include "builders.h"
#include "test.h"

static char golden_dir[4096];
static bool update_golden;

/* ---- building models ---- */

#define PPB 512			/* pages per block, pageblock_order 9 */
#define SEC 1000000000ULL

/* Free space differs from block to block: the details show it. */
static void state(struct fv_model *m, uint64_t ts, uint32_t seq, int nid,
		  int zone, uint64_t pfn, int mt)
{
	struct fv_event ev = ev_state(ts, seq, nid, zone, pfn, mt);

	ev.state.free_pages = (pfn / PPB) % 300;
	ev.state.largest_order = (pfn / PPB) % 11 - 1;
	feed(m, ev);
}

/* A page inside the block, from an order-3 fallback list. */
static void steal(struct fv_model *m, uint64_t ts, int nid, int zone,
		  uint64_t pfn, int alloc_mt, int block_mt, bool claimed)
{
	struct fv_event ev = ev_steal(ts, nid, zone, pfn, alloc_mt, block_mt,
				      claimed);

	ev.steal.pfn = pfn + 8;
	ev.steal.fallback_order = 3;
	feed(m, ev);
}

/* Initial type of block k of a zone: mostly Movable, a pattern of others. */
static int pattern_mt(int zone, unsigned int k)
{
	if (zone == FV_ZONE_DMA)
		return k < 2 ? FV_MT_UNMOVABLE : FV_MT_MOVABLE;
	if (k % 11 == 3)
		return FV_MT_UNMOVABLE;
	if (k % 13 == 5)
		return FV_MT_RECLAIMABLE;
	if (zone == FV_ZONE_DMA32 && k >= 32 && k < 36)
		return FV_MT_CMA;
	if (k == 20)
		return FV_MT_HIGHATOMIC;
	return FV_MT_MOVABLE;
}

/*
 * The fixture: node 0 DMA (8 blocks) and DMA32 (40), node 1 Normal (24,
 * with a hole), a baseline snapshot, steals that claim blocks, flips of
 * every kind, drains, migrations, a block that appears by an init flip
 * (unknown before it), and a final snapshot.
 */
#define FIX_T0		(5 * SEC)
#define FIX_MID		(5 * SEC + 500000000ULL)
#define FIX_END		(6 * SEC)
#define N0_DMA32	0x1000ULL
#define N1_NORMAL	0x100000ULL

static void build_fixture(struct fv_model *m)
{
	uint64_t ts = FIX_T0;

	compact_model_init(m);
	m->keep_hist = true;		/* the HTML block details */
	m->keep_space_times = true;	/* and its colour views, as map sets */
	for (unsigned int k = 0; k < 8; k++)
		state(m, ts, 1, 0, FV_ZONE_DMA, k * PPB, pattern_mt(FV_ZONE_DMA, k));
	for (unsigned int k = 0; k < 40; k++)
		state(m, ts, 1, 0, FV_ZONE_DMA32, N0_DMA32 + k * PPB,
		      pattern_mt(FV_ZONE_DMA32, k));
	for (unsigned int k = 0; k < 26; k++) {
		if (k == 10 || k == 11)		/* a hole in node 1 */
			continue;
		state(m, ts, 1, 1, FV_ZONE_NORMAL, N1_NORMAL + k * PPB,
		      pattern_mt(FV_ZONE_NORMAL, k));
	}

	/* Unmovable allocations fall back to Movable blocks and claim some */
	for (unsigned int k = 0; k < 6; k++) {
		uint64_t pfn = N0_DMA32 + (5 + 4 * k) * PPB;

		ts += 20000000;
		steal(m, ts, 0, FV_ZONE_DMA32, pfn, FV_MT_UNMOVABLE,
		      FV_MT_MOVABLE, k % 2 == 0);
		if (k % 2 == 0)
			feed(m, ev_flip(ts, 0, FV_ZONE_DMA32, pfn,
					FV_MT_MOVABLE, FV_MT_UNMOVABLE,
					FV_FLIP_STEAL));
		feed(m, ev_drain(ts + 1000, 0, 0, FV_ZONE_DMA32, 31));
	}
	/* by FIX_MID (5.5 s): compaction moves pages, an isolation */
	ts = FIX_MID - 100000000;
	for (unsigned int k = 0; k < 5; k++)
		feed(m, ev_migrate(ts + k * 1000, N1_NORMAL + 7 * PPB + k,
				   k == 4 ? -16 : 0));
	feed(m, ev_flip(ts + 10000, 1, FV_ZONE_NORMAL, N1_NORMAL + 2 * PPB,
			FV_MT_MOVABLE, FV_MT_ISOLATE, FV_FLIP_ISOLATE));
	feed(m, ev_flip(FIX_MID, 1, FV_ZONE_NORMAL, N1_NORMAL + 20 * PPB,
			FV_MT_HIGHATOMIC, FV_MT_MOVABLE,
			FV_FLIP_HIGHATOMIC_UNRESERVE));
	/* after the middle: unisolate, a reserve, hot-added block appears */
	feed(m, ev_flip(FIX_MID + 1, 1, FV_ZONE_NORMAL, N1_NORMAL + 2 * PPB,
			FV_MT_ISOLATE, FV_MT_MOVABLE, FV_FLIP_UNISOLATE));
	feed(m, ev_flip(FIX_MID + 200000000, 0, FV_ZONE_DMA32,
			N0_DMA32 + 9 * PPB, FV_MT_MOVABLE, FV_MT_HIGHATOMIC,
			FV_FLIP_HIGHATOMIC_RESERVE));
	feed(m, ev_flip(FIX_MID + 300000000, 1, FV_ZONE_NORMAL,
			N1_NORMAL + 26 * PPB, FV_MT_UNKNOWN, FV_MT_MOVABLE,
			FV_FLIP_INIT));
	steal(m, FIX_MID + 300000001, 1, FV_ZONE_NORMAL, N1_NORMAL + 3 * PPB,
	      FV_MT_RECLAIMABLE, FV_MT_MOVABLE, false);
	/* final snapshot */
	for (size_t i = 0; i < m->nr_blocks; i++)
		state(m, FIX_END, 2, m->blocks[i].nid, m->blocks[i].zone,
		      m->blocks[i].pfn, m->blocks[i].mt);
	compact_model_finish(m);
}

/* ~1 M events on 4096 blocks, ~100k flips: the HTML must stay usable. */
static void build_big(struct fv_model *m, size_t nb, size_t nev)
{
	uint64_t ts = 10 * SEC, seed = 42;
	uint8_t *cur = malloc(nb);

	fv_model_init(m);
	m->keep_hist = true;
	m->keep_space_times = true;
	for (size_t k = 0; k < nb; k++) {
		int zone = k < nb / 4 ? FV_ZONE_DMA32 : FV_ZONE_NORMAL;

		cur[k] = pattern_mt(zone, k);
		state(m, ts, 1, 0, zone, 0x1000 + k * PPB, cur[k]);
	}
	for (size_t e = 0; e < nev; e++) {
		size_t k;
		int zone;

		seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
		k = (seed >> 33) % nb;
		zone = k < nb / 4 ? FV_ZONE_DMA32 : FV_ZONE_NORMAL;
		ts += 60000 + (seed >> 50) % 1000;	/* ~60 s per 1 M */
		switch ((seed >> 20) % 10) {
		case 0: {
			int to = (seed >> 40) % 3;

			if (to == cur[k])	/* a flip changes the type */
				to = (to + 1) % 3;

			feed(m, ev_flip(ts, 0, zone, 0x1000 + k * PPB, cur[k],
					to, FV_FLIP_STEAL));
			cur[k] = to;
			break;
		}
		case 1: case 2: case 3:
			steal(m, ts, 0, zone, 0x1000 + k * PPB, FV_MT_UNMOVABLE,
			      cur[k], false);
			break;
		case 4: case 5: case 6:
			feed(m, ev_migrate(ts, 0x1000 + k * PPB + 5,
					   (seed >> 45) % 8 ? 0 : -11));
			break;
		default:
			feed(m, ev_drain(ts, 0, 0, zone, 31));
		}
	}
	free(cur);
	fv_model_finish(m);
}

/* ---- running renderers into memory ---- */

static char *render(int (*fn)(FILE *, const struct fv_model *,
			      const struct map_opts *),
		    const struct fv_model *m, const struct map_opts *o,
		    int *ret)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	*ret = fn(f, m, o);
	fclose(f);
	return buf;
}

static struct map_opts opts(void)
{
	return (struct map_opts){ .zone_nid = -1, .zone_type = -1,
				  .width = 80, .title = "fixture.dat" };
}

static char *read_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = malloc(n + 1);
	if (fread(buf, 1, n, f) != (size_t)n)
		n = 0;
	buf[n] = 0;
	fclose(f);
	return buf;
}

/* Compares text with golden/name, or rewrites it under UPDATE_GOLDEN=1. */
static void check_golden(const char *name, const char *text)
{
	char path[4200];
	char *want;

	snprintf(path, sizeof(path), "%s/%s", golden_dir, name);
	if (update_golden) {
		FILE *f = fopen(path, "w");

		CHECK(f && fputs(text, f) >= 0 && fclose(f) == 0);
		return;
	}
	want = read_file(path);
	if (!want) {
		fprintf(stderr, "  missing golden file %s (UPDATE_GOLDEN=1 writes it)\n",
			path);
		t_failed_now = 1;
		return;
	}
	if (strcmp(want, text)) {
		size_t i = 0;

		while (want[i] && want[i] == text[i])
			i++;
		fprintf(stderr, "  %s differs at byte %zu (UPDATE_GOLDEN=1 "
			"to accept)\n", path, i);
		t_failed_now = 1;
	}
	free(want);
}

static size_t count_str(const char *s, const char *needle)
{
	size_t n = 0;

	for (s = strstr(s, needle); s; s = strstr(s + 1, needle))
		n++;
	return n;
}

/*
 * Letters of the txt map (rows "  0x<pfn> <cells>") as type digits,
 * lowercase marks ignored: what `fragview map --format txt` shows.
 */
static size_t txt_types(const char *txt, char *out, size_t max)
{
	size_t n = 0;

	for (const char *l = txt; l && *l; l = strchr(l, '\n')) {
		const char *p;

		if (*l == '\n')
			l++;
		if (strncmp(l, "  0x", 4))
			continue;
		p = strchr(l + 4, ' ');
		for (p++; *p && *p != '\n'; p++) {
			const char *hit = strchr("UMRHCI?", toupper((unsigned char)*p));

			if (*p == ' ' || !hit)
				continue;
			if (n < max)
				out[n] = '0' + (hit - "UMRHCI?");
			n++;
		}
	}
	if (n < max)
		out[n] = 0;
	return n;
}

/* ---- a small XML well-formedness check for the SVG ---- */

static bool xml_entity(const char **s)
{
	const char *p = *s + 1;

	if (*p == '#') {
		p++;
		if (*p == 'x')
			p++;
		if (!isxdigit((unsigned char)*p))
			return false;
		while (isxdigit((unsigned char)*p))
			p++;
	} else {
		if (!isalpha((unsigned char)*p))
			return false;
		while (isalpha((unsigned char)*p))
			p++;
	}
	if (*p != ';')
		return false;
	*s = p;
	return true;
}

static bool xml_well_formed(const char *s, const char **where)
{
	char stack[64][32];
	int depth = 0, roots = 0;

	for (; *s; s++) {
		char name[32];
		size_t n = 0;
		bool close;

		*where = s;
		if (*s == '&' && !xml_entity(&s))
			return false;
		if (*s != '<')
			continue;
		if (!strncmp(s, "<?", 2) || !strncmp(s, "<!--", 4)) {
			s = strstr(s, s[1] == '?' ? "?>" : "-->");
			if (!s)
				return false;
			continue;
		}
		close = s[1] == '/';
		s += close ? 2 : 1;
		while (isalnum((unsigned char)*s) || strchr(":_-", *s))
			if (n < sizeof(name) - 1)
				name[n++] = *s++;
			else
				return false;
		name[n] = 0;
		if (!n)
			return false;
		if (close) {
			if (!depth || strcmp(stack[--depth], name) || *s != '>')
				return false;
			continue;
		}
		for (;;) {		/* attributes */
			while (isspace((unsigned char)*s))
				s++;
			if (*s == '>' || (s[0] == '/' && s[1] == '>'))
				break;
			if (!isalpha((unsigned char)*s))
				return false;
			while (isalnum((unsigned char)*s) || strchr(":_-", *s))
				s++;
			if (s[0] != '=' || s[1] != '"')
				return false;
			for (s += 2; *s != '"'; s++)
				if (!*s || *s == '<' || (*s == '&' && !xml_entity(&s)))
					return false;
			s++;
		}
		if (*s == '/') {
			s++;
			roots += !depth;
			continue;
		}
		if (depth == 64)
			return false;
		roots += !depth;
		strcpy(stack[depth++], name);
	}
	return depth == 0 && roots == 1;
}

/* ---- tests ---- */

static struct fv_model fix;

static void txt_final(void)
{
	struct map_opts o = opts();
	int ret;
	char *t = render(render_map_txt, &fix, &o, &ret);
	char types[256];

	CHECK_EQ(ret, 0);
	check_golden("map.txt", t);
	/* one cell per block, and no escape sequences */
	CHECK_EQ(txt_types(t, types, sizeof(types)), fix.nr_blocks);
	CHECK(!strchr(t, '\033'));
	for (size_t i = 0; i < fix.nr_blocks; i++)
		CHECK_EQ(types[i] - '0', fix.blocks[i].mt);
	free(t);
}

static void txt_at_times(void)
{
	const uint64_t times[] = { FIX_T0, FIX_MID, FIX_MID + 1, FIX_END };
	uint8_t want[256];
	char types[256];

	for (size_t k = 0; k < sizeof(times) / sizeof(times[0]); k++) {
		struct map_opts o = opts();
		int ret;
		char *t;

		o.have_at = true;
		o.at_ts = times[k];
		t = render(render_map_txt, &fix, &o, &ret);
		CHECK_EQ(ret, 0);
		CHECK_EQ(txt_types(t, types, sizeof(types)), fix.nr_blocks);
		fv_model_types_at(&fix, times[k], want);
		for (size_t i = 0; i < fix.nr_blocks; i++)
			CHECK_EQ(types[i] - '0',
				 want[i] < FV_MT_NR ? want[i] : FV_MT_UNKNOWN);
		if (times[k] == FIX_MID)
			check_golden("map-at-mid.txt", t);
		free(t);
	}
}

static void txt_zone_filter_and_width(void)
{
	struct map_opts o = opts();
	int ret;
	char *t;

	o.zone_nid = 1;
	o.zone_type = FV_ZONE_NORMAL;
	o.width = 40;
	t = render(render_map_txt, &fix, &o, &ret);
	CHECK_EQ(ret, 0);
	check_golden("map-node1-normal-w40.txt", t);
	CHECK(strstr(t, "node 1 zone Normal"));
	CHECK(!strstr(t, "zone DMA"));
	for (const char *l = t; *l; l = strchr(l, '\n') + 1) {
		CHECK((size_t)(strchr(l, '\n') - l) <= 40 || strncmp(l, "  0x", 4));
		if (!strchr(l, '\n')[1])
			break;
	}
	free(t);
	/* a filter matching nothing is an error, not an empty map */
	o.zone_nid = 7;
	t = render(render_map_txt, &fix, &o, &ret);
	CHECK_EQ(ret, -1);
	free(t);
}

static void txt_empty_model(void)
{
	struct fv_model m;
	struct map_opts o = opts();
	int ret;
	char *t;

	fv_model_init(&m);
	fv_model_finish(&m);
	t = render(render_map_txt, &m, &o, &ret);
	CHECK_EQ(ret, 0);
	CHECK(strstr(t, "no pageblocks"));
	free(t);
	t = render(render_map_svg, &m, &o, &ret);
	CHECK_EQ(ret, 0);
	free(t);
	t = render(render_map_html, &m, &o, &ret);
	CHECK_EQ(ret, 0);
	CHECK(strstr(t, "data-blocks=\"0\""));
	free(t);
	compact_model_free(&m);
}

static void ansi_colours(void)
{
	struct map_opts o = opts();
	int ret;
	char *t;

	setenv("COLORTERM", "truecolor", 1);
	t = render(render_map_ansi, &fix, &o, &ret);
	CHECK_EQ(ret, 0);
	check_golden("map-truecolor.ansi", t);
	CHECK(strstr(t, "48;2;"));
	free(t);
	unsetenv("COLORTERM");
	t = render(render_map_ansi, &fix, &o, &ret);
	CHECK_EQ(ret, 0);
	check_golden("map-256.ansi", t);
	CHECK(strstr(t, "48;5;"));
	CHECK(!strstr(t, "48;2;"));
	/* stripped of escapes it is the txt map: readable without colour */
	{
		char *plain = render(render_map_txt, &fix, &o, &ret);
		char *s = t, *d = t;

		while (*s) {
			if (*s == '\033') {
				s = strchr(s, 'm') + 1;
				continue;
			}
			*d++ = *s++;
		}
		*d = 0;
		CHECK(!strcmp(t, plain));
		free(plain);
	}
	free(t);
}

static void svg_map(void)
{
	struct map_opts o = opts();
	const char *where = NULL;
	int ret;
	char *t;

	o.title = "a <b>&\"c\"'.dat";
	t = render(render_map_svg, &fix, &o, &ret);
	CHECK_EQ(ret, 0);
	check_golden("map.svg", t);
	if (!xml_well_formed(t, &where)) {
		fprintf(stderr, "  SVG not well-formed near: %.40s\n", where);
		t_failed_now = 1;
	}
	CHECK_EQ(count_str(t, "><title>pfn 0x"), fix.nr_blocks);
	CHECK(strstr(t, "a &lt;b&gt;&amp;&quot;c&quot;&#39;.dat"));
	CHECK(!strstr(t, "<b>"));
	/* marks: a corner square per block stolen from, a hollow square
	 * (two rects) per block flipped, once more each in the legend */
	{
		size_t stolen = 0, flipped = 0;

		for (size_t i = 0; i < fix.nr_blocks; i++) {
			stolen += fix.blocks[i].n.steals > 0;
			flipped += fix.blocks[i].n.flips > 0;
		}
		CHECK(stolen > 0 && flipped > 0);
		CHECK_EQ(count_str(t, "width=\"3\" height=\"3\" fill=\"#111111\""),
			 stolen + 1);
		CHECK_EQ(count_str(t, "width=\"2\" height=\"2\" fill=\"#ffffff\""),
			 flipped + 1);
	}
	free(t);
}

static void html_map(void)
{
	struct map_opts o = opts();
	char want[64];
	int ret;
	char *t;

	o.title = "x</script><script>alert(1)</script>&.dat";
	t = render(render_map_html, &fix, &o, &ret);
	CHECK_EQ(ret, 0);
	/* self-contained: nothing to fetch */
	CHECK(!strstr(t, "http://") && !strstr(t, "https://"));
	CHECK(!strstr(t, "<link") && !strstr(t, " src=") && !strstr(t, "@import"));
	/* the title cannot break out of <title> or the JSON <script>:
	 * the data, charts.js, views.js, blame.js, compact.js, explain.js,
	 * fragview.js */
	CHECK_EQ(count_str(t, "<script"), 7);
	CHECK_EQ(count_str(t, "</script>"), 7);
	/* no tasks in the model: no blame data */
	CHECK(!strstr(t, "\"blame\":{"));
	/* html/selftest.js is test code: tests/html/run.sh adds it */
	CHECK(!strstr(t, "fragviewSelftest = function"));
	CHECK(strstr(t, "<title>fragview: x&lt;/script&gt;&lt;script&gt;"));
	snprintf(want, sizeof(want), "data-blocks=\"%zu\"", fix.nr_blocks);
	CHECK(strstr(t, want));
	/* every flip and block is in the data */
	{
		const char *fb = strstr(t, "\"flipB\":[");
		const char *st = strstr(t, "\"start\":\"");

		CHECK(fb && st);
		if (fb && st) {
			size_t commas = 0;

			for (fb += 9; *fb != ']'; fb++)
				commas += *fb == ',';
			CHECK_EQ(commas + 1, fix.nr_flips);
			CHECK_EQ(strchr(st + 9, '"') - (st + 9), fix.nr_blocks);
		}
	}
	CHECK(strstr(t, "window.fragview"));
	/* two snapshots: the replay check is in, and finds nothing */
	CHECK(strstr(t, "\"check\":{\"compared\":73,"));
	CHECK(strstr(t, "\"mismatches\":0,\"blocks\":[]}"));
	CHECK(strstr(t, "<canvas id=\"fv-map\""));
	free(t);

	/* the zone filter keeps only that zone's blocks and flips */
	o.zone_nid = 0;
	o.zone_type = FV_ZONE_DMA;
	t = render(render_map_html, &fix, &o, &ret);
	CHECK_EQ(ret, 0);
	CHECK(strstr(t, "data-blocks=\"8\""));
	CHECK(strstr(t, "\"flipB\":[]"));
	free(t);
}

/* who stole from a block: its steals with task and stack in the data */
static void html_blame(void)
{
	struct map_opts o = opts();
	struct fv_event ev = { .ts = fix.first_ts + 1, .cpu = 0,
			       .kind = FV_EV_STEAL };
	struct fv_event st = { .ts = fix.first_ts + 1, .cpu = 0,
			       .kind = FV_EV_STACK };
	struct fv_blame b;
	char want[64];
	int ret;
	char *t;

	fv_blame_init(&b);
	ev.steal.block_pfn = fix.blocks[3].pfn;
	ev.steal.pid = 42;
	st.stack.of_ts = ev.ts;
	st.stack.of_kind = FV_EV_STEAL;
	fv_blame_apply(&b, &ev);
	fv_blame_apply(&b, &st);
	fv_blame_add_comm(&b, 42, "fv-\"polluter");
	fv_blame_add_stack(&b, 0, "__alloc_pages+0x1\npipe_write+0x2\n");
	fv_blame_finish(&b, fix.pageblock_order);
	o.blame = &b;
	t = render(render_map_html, &fix, &o, &ret);
	CHECK_EQ(ret, 0);
	CHECK(strstr(t, "\"tasks\":{\"42\":\"fv-\\\"polluter\"}"));
	CHECK(strstr(t, "\"stacks\":[[\"__alloc_pages+0x1\",\"pipe_write+0x2\"]],\"site\":[1]"));
	snprintf(want, sizeof(want), "\"blocks\":{\"3\":[[1,%d,42,0,", FV_EV_STEAL);
	CHECK(strstr(t, want));
	free(t);
	fv_blame_free(&b);
}

/* Visible columns of a line: escape sequences take no room. */
static size_t visible_len(const char *l)
{
	size_t n = 0;

	while (*l && *l != '\n') {
		if (*l == '\033') {
			l = strchr(l, 'm') + 1;
			continue;
		}
		n++;
		l++;
	}
	return n;
}

static void ansi_fits_width(void)
{
	const int widths[] = { 24, 40, 80, 133 };

	for (size_t k = 0; k < sizeof(widths) / sizeof(widths[0]); k++) {
		struct map_opts o = opts();
		size_t cells = 0;
		int ret;
		char *t;

		o.width = widths[k];
		t = render(render_map_ansi, &fix, &o, &ret);
		CHECK_EQ(ret, 0);
		for (const char *l = t; *l; l = strchr(l, '\n') + 1) {
			if (!strncmp(l, "  0x", 4)) {
				CHECK((int)visible_len(l) <= widths[k]);
				cells += visible_len(l) - 13;
			}
			if (!strchr(l, '\n'))
				break;
		}
		/* the gaps between groups of 8 are not cells */
		CHECK(cells >= fix.nr_blocks);
		free(t);
	}
}

static void deterministic_output(void)
{
	int (*const fns[])(FILE *, const struct fv_model *,
			   const struct map_opts *) = {
		render_map_txt, render_map_ansi, render_map_svg, render_map_html,
	};

	for (size_t k = 0; k < sizeof(fns) / sizeof(fns[0]); k++) {
		struct map_opts o = opts();
		int r1, r2;
		char *a = render(fns[k], &fix, &o, &r1);
		char *b = render(fns[k], &fix, &o, &r2);

		CHECK(r1 == 0 && r2 == 0 && !strcmp(a, b));
		free(a);
		free(b);
	}
}

static void legend_counts(void)
{
	struct map_opts o = opts();
	uint64_t count[FV_MT_NR];
	char line[64];
	int ret;
	char *t = render(render_map_txt, &fix, &o, &ret);

	fv_model_count_types(&fix, false, count);
	CHECK_EQ(count[FV_MT_NONE], 0);		/* no offline block here */
	for (int mt = 0; mt < FV_MT_NONE; mt++) {
		snprintf(line, sizeof(line), " %-12s %8llu\n", fv_mt_name(mt),
			 (unsigned long long)count[mt]);
		CHECK(strstr(t, line));
	}
	free(t);
}

static void html_at_time(void)
{
	struct map_opts o = opts();
	char want[64];
	int ret;
	char *t;

	o.have_at = true;
	o.at_ts = FIX_MID;
	t = render(render_map_html, &fix, &o, &ret);
	CHECK_EQ(ret, 0);
	/* the page opens at --at, as ns since the first event */
	snprintf(want, sizeof(want), "\"at\":%llu,",
		 (unsigned long long)(FIX_MID - fix.first_ts));
	CHECK(strstr(t, want));
	free(t);
	o.have_at = false;
	t = render(render_map_html, &fix, &o, &ret);
	CHECK(strstr(t, "\"at\":null,"));
	free(t);
}

static void svg_zone_filter(void)
{
	struct map_opts o = opts();
	int ret;
	char *t;

	o.zone_type = FV_ZONE_DMA;
	t = render(render_map_svg, &fix, &o, &ret);
	CHECK_EQ(ret, 0);
	CHECK_EQ(count_str(t, "><title>pfn 0x"), 8);
	CHECK(strstr(t, "zone DMA<") && !strstr(t, "zone DMA32"));
	free(t);
}

static void renderer_write_error(void)
{
	/* a stream that fails: the renderers return, the caller sees ferror */
	struct map_opts o = opts();
	FILE *f = fopen("/dev/full", "w");

	if (!f) {
		t_failed_now = 1;
		return;
	}
	setvbuf(f, NULL, _IONBF, 0);
	render_map_svg(f, &fix, &o);
	CHECK(ferror(f));
	fclose(f);
}

/* ---- HTML fixtures for tests/html/run.sh ---- */

static int write_html(const char *path, struct fv_model *m,
		      const uint64_t *times, size_t nt, const char *title)
{
	struct map_opts o = opts();
	char *types = malloc(m->nr_blocks + 1);
	FILE *f = fopen(path, "w");

	o.title = title;
	if (!f || !types || render_map_html(f, m, &o) || fclose(f)) {
		fprintf(stderr, "test_render: cannot write %s\n", path);
		return 1;
	}
	for (size_t k = 0; k < nt; k++) {
		int ret;
		char *t;

		o.have_at = true;
		o.at_ts = times[k];
		t = render(render_map_txt, m, &o, &ret);
		if (ret || txt_types(t, types, m->nr_blocks + 1) != m->nr_blocks)
			return 1;
		printf("exp=%llu:%s\n", (unsigned long long)times[k], types);
		free(t);
	}
	free(types);
	return 0;
}

/* ---- every cell at its physical address ---- */

/*
 * A zone with holes: one of two blocks, one wider than any row (0x40000
 * pages), and a block offline at the end.
 */
static void build_holes(struct fv_model *m)
{
	uint64_t pfn = N1_NORMAL;

	fv_model_init(m);
	for (unsigned int k = 0; k < 300; k++) {
		if (k >= 10 && k < 12)
			continue;
		if (k == 150)
			pfn += 0x40000;
		state(m, FIX_T0, 1, 0, FV_ZONE_NORMAL, pfn + k * PPB,
		      pattern_mt(FV_ZONE_NORMAL, k));
	}
	feed(m, ev_flip(FIX_END, 0, FV_ZONE_NORMAL, N1_NORMAL + 3 * PPB,
			pattern_mt(FV_ZONE_NORMAL, 3), FV_MT_NONE,
			FV_FLIP_OFFLINE));
	fv_model_finish(m);
}

/*
 * Each letter of the txt map read back as (row label + column) -> pfn,
 * against the model: same block, same type; every block drawn once
 * (offline ones: not at all).
 */
static void check_txt_pfns(const struct fv_model *m, const char *txt,
			   const uint8_t *mt)
{
	size_t cells = 0, want = 0;

	for (const char *l = txt; l && *l; l = strchr(l, '\n')) {
		unsigned long long label;
		const char *p;
		size_t j;

		if (*l == '\n')
			l++;
		if (sscanf(l, "  0x%llx ", &label) != 1 || strncmp(l, "  0x", 4))
			continue;
		p = strchr(l + 4, ' ') + 1;
		for (j = 0; p[j] && p[j] != '\n'; j++) {
			const char *hit;
			uint64_t pfn;
			long i;

			if (j % (8 + 1) == 8) {		/* the group gap */
				CHECK(p[j] == ' ');
				continue;
			}
			if (p[j] == ' ')
				continue;
			pfn = label + ((j / 9) * 8 + j % 9) * PPB;
			i = fv_model_find_block(m, pfn);
			hit = strchr("UMRHCI?", toupper((unsigned char)p[j]));
			if (i < 0 || m->blocks[i].pfn != pfn || !hit ||
			    hit - "UMRHCI?" != mt[i]) {
				fprintf(stderr, "  cell '%c' at pfn 0x%llx: block %ld\n",
					p[j], (unsigned long long)pfn, i);
				t_failed_now = 1;
			}
			cells++;
		}
	}
	for (size_t i = 0; i < m->nr_blocks; i++)
		want += mt[i] != FV_MT_NONE;
	CHECK_EQ(cells, want);
}

static void txt_cells_at_pfn(void)
{
	struct map_opts o = opts();
	struct fv_model h;
	uint8_t *mt;
	char *t;
	int ret;

	/* the fixture: a hole of two blocks in node 1 Normal */
	mt = malloc(fix.nr_blocks);
	fv_model_types_at(&fix, UINT64_MAX, mt);
	t = render(render_map_txt, &fix, &o, &ret);
	check_txt_pfns(&fix, t, mt);
	free(t);
	free(mt);
	/* a hole wider than a row starts a new labelled row; any width */
	build_holes(&h);
	mt = malloc(h.nr_blocks);
	fv_model_types_at(&h, UINT64_MAX, mt);
	CHECK_EQ(mt[3], FV_MT_NONE);
	for (int w = 30; w <= 200; w += 17) {
		o.width = w;
		t = render(render_map_txt, &h, &o, &ret);
		CHECK_EQ(ret, 0);
		check_txt_pfns(&h, t, mt);
		CHECK(strstr(t, "(297 blocks, 1 off the map)"));
		/* 56 columns: block 150 (0x152c00) is in the row of slot 616 */
		if (w == 81)
			CHECK(strstr(t, "\n  0x0014d000 "));
		free(t);
	}
	/* before it went offline the block is drawn */
	o.have_at = true;
	o.at_ts = FIX_T0;
	fv_model_types_at(&h, FIX_T0, mt);
	CHECK(mt[3] != FV_MT_NONE);
	t = render(render_map_txt, &h, &o, &ret);
	check_txt_pfns(&h, t, mt);
	free(t);
	free(mt);
	compact_model_free(&h);
}

/*
 * SVG: each cell carries data-pfn; its column is its slot in the zone
 * modulo the 64 columns, its row the row label's (the label's pfn is
 * the row's first slot).
 */
static void check_svg_pfns(const struct fv_model *m, const char *svg)
{
	const char *p = svg;
	size_t cells = 0;
	unsigned long long row_pfn = 0;
	int row_y = -1000;

	while ((p = strstr(p, "<text class=\"row\"")) || 0) {
		const char *next_row = strstr(p + 1, "<text class=\"row\"");
		const char *c = p;
		int y;

		CHECK(sscanf(p, "<text class=\"row\" x=\"%*d\" y=\"%d\"", &y) == 1);
		CHECK(sscanf(strchr(p, '>') + 1, "0x%llx", &row_pfn) == 1);
		row_y = y - 9;		/* label baseline: CELL - 1 below the top */
		while ((c = strstr(c + 1, "data-pfn=\"")) &&
		       (!next_row || c < next_row)) {
			unsigned long long pfn;
			int x = -1, cy = -1;
			const char *r = strstr(c, "<rect");
			long col;

			CHECK(sscanf(c, "data-pfn=\"0x%llx\"", &pfn) == 1);
			/* a marked block is a <g>: its square is the first rect */
			if (!strncmp(c - 3, "<g ", 3) && r)
				c = r + 5;
			CHECK(sscanf(strstr(c, "x=\""), "x=\"%d\" y=\"%d\"", &x, &cy) == 2);
			col = (x - 16 - 64) / 11;
			if (pfn != row_pfn + (unsigned long long)col * PPB ||
			    cy != row_y || fv_model_find_block(m, pfn) < 0) {
				fprintf(stderr, "  svg cell 0x%llx at col %ld y %d, row 0x%llx y %d\n",
					pfn, col, cy, row_pfn, row_y);
				t_failed_now = 1;
			}
			cells++;
		}
		p += 1;
	}
	CHECK(cells > 0);
	(void)cells;
}

static void svg_cells_at_pfn(void)
{
	struct map_opts o = opts();
	struct fv_model h;
	char *t;
	int ret;

	t = render(render_map_svg, &fix, &o, &ret);
	check_svg_pfns(&fix, t);
	CHECK_EQ(count_str(t, "data-pfn=\""), fix.nr_blocks);
	free(t);
	build_holes(&h);
	t = render(render_map_svg, &h, &o, &ret);
	check_svg_pfns(&h, t);
	/* the offline block is a gap */
	CHECK_EQ(count_str(t, "data-pfn=\""), h.nr_blocks - 1);
	free(t);
	compact_model_free(&h);
}

int main(int argc, char **argv)
{
	char self[4096];

	snprintf(self, sizeof(self), "%s", argv[0]);
	snprintf(golden_dir, sizeof(golden_dir), "%s/golden", dirname(self));
	update_golden = getenv("UPDATE_GOLDEN") && *getenv("UPDATE_GOLDEN") == '1';
	unsetenv("COLORTERM");
	build_fixture(&fix);

	if (argc == 3 && !strcmp(argv[1], "--html")) {
		const uint64_t times[] = { FIX_T0 - 1, FIX_T0 + 50000000, FIX_MID,
					   FIX_MID + 1, FIX_END };

		return write_html(argv[2], &fix, times, 5, "fixture <&> \"test\".dat");
	}
	if (argc == 3 && !strcmp(argv[1], "--empty-html")) {
		struct fv_model empty;
		int ret;

		fv_model_init(&empty);
		fv_model_finish(&empty);
		ret = write_html(argv[2], &empty, NULL, 0, "empty");
		compact_model_free(&empty);
		return ret;
	}
	if ((argc == 3 || argc == 5) && !strcmp(argv[1], "--big-html")) {
		size_t nb = argc == 5 ? strtoul(argv[3], NULL, 0) : 4096;
		size_t nev = argc == 5 ? strtoul(argv[4], NULL, 0) : 1000000;
		struct fv_model big;
		uint64_t times[3];
		int ret;

		if (nb < 4 || nev < 100) {
			fprintf(stderr, "test_render: want >= 4 blocks, >= 100 events\n");
			return 2;
		}
		build_big(&big, nb, nev);
		times[0] = big.first_ts + (big.last_ts - big.first_ts) / 3;
		times[1] = big.flips[big.nr_flips / 2].ts;
		times[2] = big.last_ts;
		ret = write_html(argv[2], &big, times, 3, "synthetic capture");
		compact_model_free(&big);
		return ret;
	}
	if (argc != 1) {
		fprintf(stderr, "usage: test_render "
			"[--html|--empty-html FILE | --big-html FILE [BLOCKS EVENTS]]\n");
		return 2;
	}
	RUN(txt_final);
	RUN(txt_at_times);
	RUN(txt_zone_filter_and_width);
	RUN(txt_empty_model);
	RUN(ansi_colours);
	RUN(svg_map);
	RUN(html_map);
	RUN(html_blame);
	RUN(ansi_fits_width);
	RUN(deterministic_output);
	RUN(legend_counts);
	RUN(html_at_time);
	RUN(svg_zone_filter);
	RUN(renderer_write_error);
	RUN(txt_cells_at_pfn);
	RUN(svg_cells_at_pfn);
	compact_model_free(&fix);
	printf("%d passed, %d failed\n", t_pass, t_fail);
	return TEST_EXIT();
}
