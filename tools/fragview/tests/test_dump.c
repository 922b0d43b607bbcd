// SPDX-License-Identifier: GPL-2.0
/* test_dump.c - the debugfs pageblock dump parser. */
#include <string.h>

#include "../dump.h"
#include "test.h"

static int parse(const char *text, struct fv_dump *d, char *err, size_t len)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	int ret = fv_dump_parse(f, "t.dump", d, err, len);

	fclose(f);
	return ret;
}

static const char good[] =
	"# a comment\n"
	"node 0 zone DMA32 start_pfn 0x1001 nr_blocks 3 pageblock_order 9\n"
	"0x1000 Movable 512 9\n"
	"\n"
	"0x1200 HighAtomic 3 1\n"
	"node 1 zone Normal start_pfn 0x100000 nr_blocks 1 pageblock_order 9\n"
	"0x100000 Isolate 0 -1\n";

static void test_good(void)
{
	struct fv_dump d;
	char err[256] = "";

	CHECK_EQ(parse(good, &d, err, sizeof(err)), 0);
	CHECK_EQ(d.nr, 3);
	CHECK_EQ(d.pageblock_order, 9);
	CHECK_EQ(d.ev[0].kind, FV_EV_STATE);
	CHECK_EQ(d.ev[0].state.pfn, 0x1000);
	CHECK_EQ(d.ev[0].state.zone, FV_ZONE_DMA32);
	CHECK_EQ(d.ev[0].state.free_pages, 512);
	CHECK_EQ(d.ev[1].state.mt, FV_MT_HIGHATOMIC);
	CHECK_EQ(d.ev[1].state.largest_order, 1);
	CHECK_EQ(d.ev[2].state.nid, 1);
	CHECK_EQ(d.ev[2].state.largest_order, -1);
	fv_dump_free(&d);
}

/* ABI v2: end_pfn and gen in the header, a gen column */
static const char good_v2[] =
	"node 0 zone DMA32 start_pfn 0x1001 end_pfn 0x1600 nr_blocks 3 pageblock_order 9 gen 77\n"
	"0x1000 Movable 512 9 70\n"
	"0x1400 Unmovable 0 -1 77\n"
	"node 0 zone Movable start_pfn 0x8000 end_pfn 0x8200 nr_blocks 1 pageblock_order 9 gen 3\n"
	"0x8000 Isolate 0 -1 3\n";

static void test_good_v2(void)
{
	struct fv_dump d;
	char err[256] = "";

	CHECK_EQ(parse(good_v2, &d, err, sizeof(err)), 0);
	CHECK_EQ(d.nr, 3);
	CHECK_EQ(d.ev[0].flags, FV_EVF_GEN);
	CHECK_EQ(d.ev[0].state.gen, 70);
	CHECK_EQ(d.ev[1].state.pfn, 0x1400);
	CHECK_EQ(d.ev[1].state.gen, 77);
	CHECK_EQ(d.ev[2].state.zone, FV_ZONE_MOVABLE);
	CHECK_EQ(d.ev[2].state.mt, FV_MT_ISOLATE);
	fv_dump_free(&d);
	/* the v1 form carries no gen */
	CHECK_EQ(parse(good, &d, err, sizeof(err)), 0);
	CHECK_EQ(d.ev[0].flags, 0);
	fv_dump_free(&d);
}

#define V2_HDR "node 0 zone Normal start_pfn 0x1000 end_pfn 0x1400 nr_blocks 2 pageblock_order 9 gen 5\n"

static const struct {
	const char *text, *err;
} bad[] = {
	{ V2_HDR "0x1000 Movable 1 0\n",
	  "t.dump:2: expected 'PFN TYPE FREE_PAGES LARGEST_ORDER GEN'" },
	{ V2_HDR "0x1000 Movable 1 0 x\n", "t.dump:2: bad gen 'x'" },
	{ V2_HDR "0x1400 Movable 1 0 5\n",
	  "t.dump:2: pfn 0x1400 not below the zone's end_pfn" },
	{ V2_HDR "0x1000 none 0 -1 5\n", "t.dump:2: unknown migratetype 'none'" },
	{ "node 0 zone Normal start_pfn 0x1000 end_pfn 0x800 nr_blocks 2 pageblock_order 9 gen 5\n",
	  "t.dump:1: bad end_pfn '0x800'" },
	{ "node 0 zone Normal start_pfn 0x1000 stop_pfn 0x1400 nr_blocks 2 pageblock_order 9 gen 5\n",
	  "t.dump:1: expected 'node N zone NAME start_pfn PFN [end_pfn PFN] nr_blocks K pageblock_order P [gen G]'" },
	{ "0x1000 Movable 1 0\n",
	  "t.dump:1: block line before any 'node N zone NAME ...' header" },
	{ "node 0 zone Normal start_pfn 0 nr_blocks 1 pageblock_order 9\n"
	  "0x1000 Sticky 1 0\n", "t.dump:2: unknown migratetype 'Sticky'" },
	{ "node 0 zone Normal start_pfn 0 nr_blocks 1 pageblock_order 9\n"
	  "0x1001 Movable 1 0\n", "t.dump:2: pfn 0x1001 is not pageblock aligned" },
	{ "node 0 zone Normal start_pfn 0 nr_blocks 1 pageblock_order 9\n"
	  "0x1000 Movable 513 9\n", "t.dump:2: bad free page count '513'" },
	{ "node 0 zone Normal start_pfn 0 nr_blocks 1 pageblock_order 9\n"
	  "0x1000 Movable 3 4\n",
	  "t.dump:2: largest order 4 does not fit 3 free pages" },
	{ "node 0 zone Normal start_pfn 0 nr_blocks 1 pageblock_order 9\n"
	  "0x1000 Movable 3\n",
	  "t.dump:2: expected 'PFN TYPE FREE_PAGES LARGEST_ORDER'" },
	{ "node 0 zone Normal start_pfn 0 nr_blocks 1 pageblock_order 9\n"
	  "0x1000 Movable -3 1\n", "t.dump:2: bad free page count '-3'" },
	{ "node 0 zone Normal start_pfn 0x40000 nr_blocks 1 pageblock_order 18\n"
	  "0x40000 Movable 0 -1\n",
	  "t.dump:1: pageblock_order 18 above 16, the largest a kernel uses" },
	{ "node 0 zone Normal start_pfn 0 nr_blocks 1 pageblock_order 9\n"
	  "0x1000 Movable 512 17\n", "t.dump:2: bad largest order '17'" },
	{ "node 0 zone Highmem start_pfn 0 nr_blocks 1 pageblock_order 9\n",
	  "t.dump:1: unknown zone 'Highmem'" },
	{ "node 0 zone Normal start_pfn 0 nr_blocks 1 pageblock_order 9\n"
	  "0x1000 Movable 1 0\n0x1200 Movable 1 0\n",
	  "t.dump:3: zone Normal of node 0 has more blocks than the 1 of its header" },
	{ "node 0 zone Normal start_pfn 0x201 nr_blocks 2 pageblock_order 9\n"
	  "0x0 Movable 1 0\n",
	  "t.dump:2: pfn 0x0 below the zone's start_pfn" },
	{ "node 0 zone Normal start_pfn 0 nr_blocks 2 pageblock_order 9\n"
	  "0x1200 Movable 1 0\n0x1000 Movable 1 0\n",
	  "t.dump:3: pfn 0x1000 not above the previous block's" },
	{ "hello world\n",
	  "t.dump:1: block line before any 'node N zone NAME ...' header" },
	{ "", "t.dump: no 'node N zone NAME ...' header: not a pageblock dump" },
	{ "node 0 zone Normal start_pfn 0 nr_blocks 0 pageblock_order 9\n"
	  "node 0 zone DMA start_pfn 0 nr_blocks 0 pageblock_order 10\n",
	  "t.dump:2: pageblock_order 10 differs from 9 above" },
};

static void test_bad_lines(void)
{
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct fv_dump d;
		char err[256] = "";

		CHECK_EQ(parse(bad[i].text, &d, err, sizeof(err)), -1);
		if (strcmp(err, bad[i].err)) {
			fprintf(stderr, "  case %zu: got '%s'\n  want '%s'\n", i,
				err, bad[i].err);
			CHECK(!"error message");
		}
		CHECK(d.ev == NULL && d.nr == 0);
	}
}

static void test_nul_byte(void)
{
	static const char text[] = "node 0 zone Normal\0 start_pfn";
	FILE *f = fmemopen((void *)text, sizeof(text), "r");
	struct fv_dump d;
	char err[256] = "";

	CHECK_EQ(fv_dump_parse(f, "t.dump", &d, err, sizeof(err)), -1);
	CHECK(!strcmp(err, "t.dump:1: binary data (NUL byte)"));
	fclose(f);
}

int main(void)
{
	RUN(test_good);
	RUN(test_good_v2);
	RUN(test_bad_lines);
	RUN(test_nul_byte);
	return TEST_EXIT();
}
