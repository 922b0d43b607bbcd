// SPDX-License-Identifier: GPL-2.0
/*
 * test_zonemark.c - the recorder's zone lines (zonemark.c): what parses,
 * and every way a line that is not one is refused.
 */
#include <stdint.h>
#include <string.h>

#include "../abi.h"
#include "../zonemark.h"
#include "test.h"

static bool parse(const char *s, struct fv_wmark *w)
{
	return fv_zonemark_parse(s, strlen(s), w);
}

static void test_line(void)
{
	struct fv_wmark w;

	CHECK(parse("fragview_zone: node=1 zone=DMA32 free=1234 min=90 low=112 "
		    "high=134 boost=5 managed=250000\n", &w));
	CHECK_EQ(w.nid, 1);
	CHECK_EQ(w.zone, FV_ZONE_DMA32);
	CHECK_EQ(w.free, 1234);
	CHECK_EQ(w.min, 90);
	CHECK_EQ(w.low, 112);
	CHECK_EQ(w.high, 134);
	CHECK_EQ(w.boost, 5);
	CHECK_EQ(w.managed, 250000);
	/* any order, unknown keys skipped, optional keys 0 */
	CHECK(parse("fragview_zone: high=3 promo=9 low=2 min=1 zone=Normal node=0", &w));
	CHECK_EQ(w.zone, FV_ZONE_NORMAL);
	CHECK_EQ(w.high, 3);
	CHECK_EQ(w.free, 0);
	/* a count beyond 32 bits saturates */
	CHECK(parse("fragview_zone: node=0 zone=Normal min=1 low=2 high=99999999999999999999", &w));
	CHECK_EQ(w.high, UINT32_MAX);
}

/* the record ends at its length, not at a NUL that is not there */
static void test_length(void)
{
	static const char rec[] = "fragview_zone: node=0 zone=DMA min=1 low=2 high=3XYZ";
	struct fv_wmark w;

	CHECK(fv_zonemark_parse(rec, strlen(rec) - 3, &w));
	CHECK_EQ(w.high, 3);
	CHECK(!fv_zonemark_parse(rec, strlen(rec), &w));
	CHECK(!fv_zonemark_parse(rec, 5, &w));
}

static void test_refused(void)
{
	static const char *const bad[] = {
		"",
		"fv-exp phase 1",				/* another marker */
		"fragview_zone:",
		"fragview_zone: node=0 zone=DMA32 min=1 low=2",	/* no high */
		"fragview_zone: zone=DMA32 min=1 low=2 high=3",	/* no node */
		"fragview_zone: node=0 zone=Bogus min=1 low=2 high=3",
		"fragview_zone: node=0 zone=DMA32 min=-1 low=2 high=3",
		"fragview_zone: node=0 zone=DMA32 min=1x low=2 high=3",
		"fragview_zone: node=0 zone=DMA32 min= low=2 high=3",
		"fragview_zone: node=0 zone=DMA32 min=1 low=2 high=3 junk",
		"fragview_zone: node=4294967295 zone=DMA32 min=1 low=2 high=3",
		"Fragview_zone: node=0 zone=DMA32 min=1 low=2 high=3",
	};
	struct fv_wmark w;
	char big[400];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (parse(bad[i], &w)) {
			fprintf(stderr, "  accepted: '%s'\n", bad[i]);
			CHECK(0);
		}
	/* longer than any line the recorder writes */
	memset(big, ' ', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	memcpy(big, "fragview_zone: node=0 zone=DMA min=1 low=2 high=3",
	       strlen("fragview_zone: node=0 zone=DMA min=1 low=2 high=3"));
	CHECK(!parse(big, &w));
}

/* abi.c: watermarks out of order are no kernel's (fragview check exit 1) */
static void test_impossible(void)
{
	struct fv_event ev = { .kind = FV_EV_WMARK, .wmark = {
		.min = 10, .low = 12, .high = 14 } };

	CHECK(!fv_event_impossible(&ev, 9));
	ev.wmark.low = ev.wmark.high = ev.wmark.min;	/* equal: possible */
	CHECK(!fv_event_impossible(&ev, 9));
	ev.wmark.min = 11;
	CHECK(fv_event_impossible(&ev, 9));
	ev.wmark = (struct fv_wmark){ .min = 1, .low = 3, .high = 2 };
	CHECK(fv_event_impossible(&ev, 9));
}

int main(void)
{
	RUN(test_line);
	RUN(test_length);
	RUN(test_refused);
	RUN(test_impossible);
	return TEST_EXIT();
}
