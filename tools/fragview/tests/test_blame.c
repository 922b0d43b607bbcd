// SPDX-License-Identifier: GPL-2.0
/* test_blame.c - kallsyms resolution, blame attribution and ranking. */
#include <stdlib.h>
#include <string.h>

#include "test.h"
#include "../blame.h"
#include "../ksyms.h"
#include "../wire.h"

static void test_ksyms(void)
{
	static const char text[] =
		"ffffffff81000000 T _stext\n"
		"ffffffff81001000 t pipe_write\n"
		"ffffffff81002000 D some_data\n"		/* not text */
		"0000000000000000 T hidden\n"			/* kptr_restrict */
		"ffffffff81003000 W weak_fn\n"
		"garbage line\n"
		"ffffffffa0000000 t mod_fn\t[virtio_blk]\n"
		"ffffffff81000800 T __alloc_pages";		/* no newline, unsorted */
	struct ksyms *k = ksyms_parse(text, sizeof(text) - 1);
	char buf[KSYM_FRAME_MAX];

	CHECK_EQ(ksyms_count(k), 5);
	ksyms_format(k, 0xffffffff81001010ULL, buf, sizeof(buf));
	CHECK(!strcmp(buf, "pipe_write+0x10"));
	ksyms_format(k, 0xffffffff81000800ULL, buf, sizeof(buf));
	CHECK(!strcmp(buf, "__alloc_pages+0x0"));
	ksyms_format(k, 0xffffffff81002010ULL, buf, sizeof(buf));
	CHECK(!strcmp(buf, "pipe_write+0x1010"));	/* data is skipped */
	ksyms_format(k, 0xffffffffa0000004ULL, buf, sizeof(buf));
	CHECK(!strcmp(buf, "mod_fn+0x4 [virtio_blk]"));
	ksyms_format(k, 0x1000, buf, sizeof(buf));
	CHECK(!strcmp(buf, "0x1000"));
	ksyms_free(k);

	k = ksyms_parse("", 0);
	CHECK_EQ(ksyms_count(k), 0);
	ksyms_format(k, 0xffffffff81001010ULL, buf, sizeof(buf));
	CHECK(!strcmp(buf, "0xffffffff81001010"));
	ksyms_free(k);
}

static void test_internal(void)
{
	CHECK(fv_blame_internal("__alloc_pages+0xda"));
	CHECK(fv_blame_internal("trace_event_raw_event_pageblock_steal+0xbc"));
	CHECK(fv_blame_internal("steal_suitable_fallback.isra.0+0x3"));
	CHECK(fv_blame_internal("kmem_cache_alloc_lru"));
	/* the 6.12 names of the same paths */
	CHECK(fv_blame_internal("try_to_steal_block+0x1b2"));
	CHECK(fv_blame_internal("__rmqueue_steal.constprop.0+0x40"));
	CHECK(fv_blame_internal("alloc_pages_mpol_noprof+0xd7"));
	CHECK(fv_blame_internal("kmem_cache_alloc_noprof+0x2f"));
	CHECK(!fv_blame_internal("pipe_write+0x1cf"));
	CHECK(!fv_blame_internal("__alloc_pages_foo+0x1"));	/* exact names */
	CHECK(!fv_blame_internal("0xffffffff81001010"));
}

/* every internal function is in the SITES section of the man page */
static void test_internals_documented(void)
{
	FILE *f = fopen("Documentation/fragview-blame.1", "r");
	static char page[65536];
	size_t n;

	CHECK(f != NULL);
	if (!f)
		return;
	n = fread(page, 1, sizeof(page) - 1, f);
	page[n] = '\0';
	fclose(f);
	for (const char *const *p = fv_blame_internals; *p; p++) {
		char want[160];

		/* ".BR name ," or ".RB ( name ," */
		snprintf(want, sizeof(want), " %s ", *p);
		if (!strstr(page, want)) {
			fprintf(stderr, "  %s is not in fragview-blame.1\n", *p);
			CHECK(0);
		}
	}
}

static struct fv_event steal(uint64_t ts, int cpu, int pid, uint64_t block,
			     bool claimed)
{
	struct fv_event ev = { .ts = ts, .cpu = cpu, .kind = FV_EV_STEAL };

	ev.steal.pfn = block + 3;
	ev.steal.block_pfn = block;
	ev.steal.alloc_mt = FV_MT_UNMOVABLE;
	ev.steal.block_mt = FV_MT_MOVABLE;
	ev.steal.claimed = claimed;
	ev.steal.pid = pid;
	return ev;
}

static struct fv_event stack(uint64_t ts, int cpu, uint32_t id,
			     uint64_t of_ts, uint8_t of_kind)
{
	struct fv_event ev = { .ts = ts, .cpu = cpu, .kind = FV_EV_STACK };

	ev.stack.id = id;
	ev.stack.of_ts = of_ts;
	ev.stack.of_kind = of_kind;
	return ev;
}

static const char pipe_stack[] =
	"trace_event_raw_event_pageblock_steal+0xbc\n"
	"steal_suitable_fallback+0x217\n"
	"__alloc_pages+0xda\n"
	"pipe_write+0x1cf\n"
	"vfs_write+0x113\n";

static void feed(struct fv_blame *b)
{
	struct fv_event ev[] = {
		steal(10, 0, 100, 0x200, false),
		stack(10, 0, 0, 10, FV_EV_STEAL),	/* attached */
		steal(20, 0, 100, 0x200, false),	/* same block */
		stack(20, 0, 0, 20, FV_EV_STEAL),
		steal(30, 0, 100, 0x400, false),
		stack(30, 0, 1, 30, FV_EV_STEAL),
		steal(40, 1, 100, 0x600, true),		/* claimed */
		stack(40, 1, 0, 39, FV_EV_STEAL),	/* not its event */
		steal(50, 1, 200, 0x800, false),
		stack(50, 0, 0, 50, FV_EV_STEAL),	/* another CPU's */
	};
	struct fv_event flip = { .ts = 60, .cpu = 1, .kind = FV_EV_FLIP };
	struct fv_event ext = { .ts = 70, .cpu = 1, .kind = FV_EV_EXTFRAG };

	flip.flip.pfn = 0xa00;
	flip.flip.pid = 200;
	ext.steal.pfn = 0x2345;
	ext.steal.pid = 300;
	ext.steal.alloc_mt = FV_MT_MOVABLE;
	ext.steal.block_mt = FV_MT_MOVABLE;	/* neither polluted nor claimed */
	for (size_t i = 0; i < sizeof(ev) / sizeof(ev[0]); i++)
		fv_blame_apply(b, &ev[i]);
	fv_blame_apply(b, &flip);
	fv_blame_apply(b, &ext);
	fv_blame_add_stack(b, 0, pipe_stack);
	fv_blame_add_stack(b, 1, "__alloc_pages+0x1\nget_page_from_freelist+0x2");
	fv_blame_add_stack(b, 1, "ignored+0x0");	/* defined once */
	fv_blame_add_comm(b, 100, "old-name");
	fv_blame_add_comm(b, 200, "fv-other");
	fv_blame_add_comm(b, 100, "fv-polluter");	/* the last one wins */
	fv_blame_finish(b, 9);
}

static void test_blame_attach(void)
{
	struct fv_blame b;

	fv_blame_init(&b);
	feed(&b);
	CHECK_EQ(b.nr_recs, 7);
	CHECK_EQ(b.nr_steals, 6);
	CHECK_EQ(b.nr_extfrag, 1);
	CHECK_EQ(b.nr_flips, 1);
	CHECK_EQ(b.nr_stack_events, 5);
	CHECK_EQ(b.nr_with_stack, 3);
	CHECK_EQ(b.recs[0].stack, 0);
	CHECK_EQ(b.recs[2].stack, 1);
	CHECK_EQ(b.recs[3].stack, -1);
	CHECK_EQ(b.recs[4].stack, -1);
	CHECK_EQ(b.recs[6].block, 0x2200);	/* extfrag: pfn to its block */
	CHECK(!strcmp(fv_blame_comm_of(&b, 100), "fv-polluter"));
	CHECK(!strcmp(fv_blame_comm_of(&b, 300), "<...>"));
	CHECK_EQ(b.stacks[0].site, 3);
	CHECK(!strcmp(b.sites[b.stacks[0].site_id], "pipe_write"));
	CHECK_EQ(b.stacks[1].site, -1);		/* internals only */
	CHECK_EQ(b.stacks[1].nr_frames, 2);
	fv_blame_free(&b);
}

static void test_blame_rank(void)
{
	struct fv_blame_group *g;
	struct fv_blame b;
	char name[64];
	size_t n;

	fv_blame_init(&b);
	feed(&b);
	n = fv_blame_rank(&b, FV_BLAME_BY_TASK, &g);
	CHECK_EQ(n, 3);
	CHECK_EQ(g[0].key, 100);
	CHECK_EQ(g[0].steals, 4);
	CHECK_EQ(g[0].polluted, 2);		/* 0x200 twice, 0x400 */
	CHECK_EQ(g[0].claimed, 1);
	CHECK_EQ(g[0].nr_example, 3);
	CHECK_EQ(g[0].example[0], 0x200);
	CHECK_EQ(g[0].example[2], 0x600);	/* claimed after polluted */
	CHECK_EQ(g[0].top_stack, 0);
	CHECK_EQ(g[0].top_stack_events, 2);
	fv_blame_key_name(&b, FV_BLAME_BY_TASK, g[0].key, name, sizeof(name));
	CHECK(!strcmp(name, "fv-polluter-100"));
	CHECK_EQ(g[1].key, 200);		/* a steal and a flip */
	CHECK_EQ(g[1].steals, 1);
	CHECK_EQ(g[1].flips, 1);
	CHECK_EQ(g[2].key, 300);
	CHECK_EQ(g[2].polluted + g[2].claimed, 0);
	free(g);

	n = fv_blame_rank(&b, FV_BLAME_BY_SITE, &g);
	CHECK_EQ(n, 2);
	fv_blame_key_name(&b, FV_BLAME_BY_SITE, g[0].key, name, sizeof(name));
	CHECK(!strcmp(name, "(no site)"));	/* 5 events without */
	CHECK_EQ(g[0].events, 5);
	fv_blame_key_name(&b, FV_BLAME_BY_SITE, g[1].key, name, sizeof(name));
	CHECK(!strcmp(name, "pipe_write"));
	CHECK_EQ(g[1].top_pid, 100);
	free(g);

	n = fv_blame_rank(&b, FV_BLAME_BY_STACK, &g);
	CHECK_EQ(n, 3);				/* #0, #1, none */
	free(g);
	fv_blame_free(&b);
}

/*
 * A declined claim (pageblock_steal taken=0) took no page: no steal, no
 * block polluted or claimed, for any task, with records or tallied; the
 * stack its trigger records goes to no steal.
 */
static void test_blame_declined(void)
{
	struct fv_event ev[] = {
		steal(10, 0, 100, 0x200, false),
		steal(20, 0, 400, 0x400, false),	/* declined below */
		stack(20, 0, 0, 20, FV_EV_STEAL),
	};
	struct fv_blame_group *g;
	struct fv_blame b;
	size_t n;

	ev[1].steal.declined = true;
	for (int tallied = 0; tallied < 2; tallied++) {
		if (tallied)
			fv_blame_init_tallied(&b);
		else
			fv_blame_init(&b);
		for (size_t i = 0; i < sizeof(ev) / sizeof(ev[0]); i++)
			fv_blame_apply(&b, &ev[i]);
		fv_blame_add_stack(&b, 0, pipe_stack);
		fv_blame_finish(&b, 9);
		CHECK_EQ(b.nr_steals, 1);
		CHECK_EQ(b.nr_with_stack, 0);
		n = fv_blame_rank(&b, FV_BLAME_BY_TASK, &g);
		CHECK_EQ(n, 1);
		CHECK_EQ(g[0].key, 100);
		CHECK_EQ(g[0].steals, 1);
		CHECK_EQ(g[0].polluted, 1);
		free(g);
		fv_blame_free(&b);
	}
}

/* ---- the reader's blame messages ---- */

static uint8_t stream[4096];
static size_t stream_len;
static int nr_comm, nr_stack;
static char last_comm[32], last_frames[64];

static void put(uint32_t tag, const void *p, uint32_t len)
{
	struct wire_hdr h = { tag, len };

	memcpy(stream + stream_len, &h, sizeof(h));
	memcpy(stream + stream_len + sizeof(h), p, len);
	stream_len += sizeof(h) + len;
}

static int on_comm(int32_t pid, const char *comm, void *ctx)
{
	(void)ctx;
	(void)pid;
	nr_comm++;
	snprintf(last_comm, sizeof(last_comm), "%s", comm);
	return 0;
}

static int on_stack(uint32_t id, const char *frames, void *ctx)
{
	(void)ctx;
	(void)id;
	nr_stack++;
	snprintf(last_frames, sizeof(last_frames), "%s", frames);
	return 0;
}

static const struct wire_sink sink = { .comm = on_comm, .stack = on_stack };

static ssize_t decode(void)
{
	struct wire_state st = { 0 };
	char err[128];

	return wire_decode(stream, stream_len, &sink, &st, err, sizeof(err));
}

static void test_wire_blame(void)
{
	struct wire_hello hello = { .version = WIRE_VERSION };
	struct wire_comm c = { .pid = 7 };
	uint8_t st[sizeof(struct wire_stack) + 16] = { 0 };

	memcpy(c.comm, "0123456789abcd\tf", 16);	/* unterminated, a tab */
	memcpy(st + sizeof(struct wire_stack), "a+0x1\nb\x01+0x2\n", 13);
	stream_len = 0;
	put(WIRE_HELLO, &hello, sizeof(hello));
	put(WIRE_COMM, &c, sizeof(c));
	put(WIRE_STACK, st, sizeof(struct wire_stack) + 13);
	nr_comm = nr_stack = 0;
	CHECK_EQ(decode(), stream_len);
	CHECK_EQ(nr_comm, 1);
	CHECK(!strcmp(last_comm, "0123456789abcd f"));
	CHECK_EQ(nr_stack, 1);
	CHECK(!strcmp(last_frames, "a+0x1\nb +0x2\n"));

	/* before the hello, a short comm, a stack without its header */
	stream_len = 0;
	put(WIRE_COMM, &c, sizeof(c));
	CHECK_EQ(decode(), -1);
	stream_len = 0;
	put(WIRE_HELLO, &hello, sizeof(hello));
	put(WIRE_COMM, &c, sizeof(c) - 1);
	CHECK_EQ(decode(), -1);
	stream_len = 0;
	put(WIRE_HELLO, &hello, sizeof(hello));
	put(WIRE_STACK, st, 4);
	CHECK_EQ(decode(), -1);
}

int main(void)
{
	RUN(test_ksyms);
	RUN(test_internal);
	RUN(test_internals_documented);
	RUN(test_blame_attach);
	RUN(test_blame_rank);
	RUN(test_blame_declined);
	RUN(test_wire_blame);
	return TEST_EXIT();
}
