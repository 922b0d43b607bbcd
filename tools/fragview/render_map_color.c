// SPDX-License-Identifier: GPL-2.0
/* render_map_color.c - the views of map --color: buckets, glyphs, colours. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "census.h"
#include "render_map_color.h"

static const char *const names[MAP_COLOR_NR] = {
	"type", "free", "order", "pollution", "steals",
};

static const char *const titles[MAP_COLOR_NR] = {
	"migratetype",
	"free pages per block",
	"largest free order per block",
	"foreign pages per block (pages of another mobility than the block type's)",
	"fallback steals from the block so far",
};

const char *map_color_name(int color)
{
	return color >= 0 && color < MAP_COLOR_NR ? names[color] : "?";
}

const char *map_color_title(int color)
{
	return color >= 0 && color < MAP_COLOR_NR ? titles[color] : "?";
}

int map_color_parse(const char *name)
{
	for (int c = 0; c < MAP_COLOR_NR; c++)
		if (!strcmp(name, names[c]))
			return c;
	return -1;
}

/* xterm-256: the 6x6x6 cube or the grey ramp, whichever is nearer. */
static uint8_t nearest_ansi256(int r, int g, int b)
{
	static const int lv[6] = { 0, 95, 135, 175, 215, 255 };
	int best = 16, best_d = 1 << 30;

	for (int i = 0; i < 6 * 6 * 6; i++) {
		int dr = lv[i / 36] - r, dg = lv[i / 6 % 6] - g, db = lv[i % 6] - b;
		int d = dr * dr + dg * dg + db * db;

		if (d < best_d) {
			best_d = d;
			best = 16 + i;
		}
	}
	for (int i = 0; i < 24; i++) {
		int v = 8 + 10 * i, d = (v - r) * (v - r) + (v - g) * (v - g) +
					(v - b) * (v - b);

		if (d < best_d) {
			best_d = d;
			best = 232 + i;
		}
	}
	return best;
}

static void set(struct map_bucket *b, char glyph, uint32_t rgb,
		const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static void set(struct map_bucket *b, char glyph, uint32_t rgb,
		const char *fmt, ...)
{
	va_list ap;

	b->glyph = glyph;
	b->r = rgb >> 16;
	b->g = rgb >> 8;
	b->b = rgb;
	b->ansi256 = nearest_ansi256(b->r, b->g, b->b);
	/* Rec. 601 luma: a white glyph on the darker half */
	b->dark = b->r * 299 + b->g * 587 + b->b * 114 < 140 * 1000;
	va_start(ap, fmt);
	vsnprintf(b->label, sizeof(b->label), fmt, ap);
	va_end(ap);
}

/* Colour k of n between from and to (n = 1: from). */
static uint32_t ramp(unsigned int k, unsigned int n, uint32_t from, uint32_t to)
{
	uint32_t out = 0;

	if (n < 2)
		return from;
	for (int shift = 16; shift >= 0; shift -= 8) {
		int a = from >> shift & 0xff, z = to >> shift & 0xff;

		out |= (uint32_t)(a + (z - a) * (int)k / (int)(n - 1)) << shift;
	}
	return out;
}

#define UNKNOWN_RGB 0xd3d3d3		/* as the type view's unknown */
#define FREE_DIGITS 8			/* eighths of a block */

/*
 * The largest order the order view tells apart (MAX_ORDER - 1 of x86),
 * within the MAP_MAX_BUCKETS it has.
 */
static unsigned int top_order(unsigned int pageblock_order)
{
	if (pageblock_order > FV_ORDER_MAX)
		return FV_ORDER_MAX;
	return pageblock_order > 10 ? pageblock_order : 10;
}

static char hexdigit(unsigned int v)
{
	return v < 10 ? '0' + v : 'a' + v - 10;
}

size_t map_color_buckets(int color, unsigned int pageblock_order,
			 struct map_bucket *b)
{
	/* YlGn from nothing free to 7/8 free, all free stands out */
	static const uint32_t ylgn[9] = {
		0xffffe5, 0xf7fcb9, 0xd9f0a3, 0xaddd8e, 0x78c679, 0x41ab5d,
		0x238443, 0x006837, 0x004529,
	};
	static const uint32_t heat[5] = {
		0xf7f7f7, 0xfdd49e, 0xfc8d59, 0xd7301f, 0x7f0000,
	};
	uint64_t ppb = 1ULL << pageblock_order;
	size_t n = 0;

	switch (color) {
	case MAP_COLOR_FREE:
		set(&b[n++], '?', UNKNOWN_RGB, "no snapshot yet");
		set(&b[n++], '.', ylgn[0], "none free");
		for (unsigned int d = 0; d < FREE_DIGITS; d++)
			if (d)
				set(&b[n++], '0' + d, ylgn[d + 1],
				    "%" PRIu64 "-%" PRIu64 " pages: %u/8 or more",
				    ppb * d / FREE_DIGITS,
				    ppb * (d + 1) / FREE_DIGITS - 1, d);
			else
				set(&b[n++], '0', ylgn[1],
				    "1-%" PRIu64 " pages: under 1/8",
				    ppb / FREE_DIGITS - 1);
		set(&b[n++], '8', 0x2166ac, "all %" PRIu64 " free", ppb);
		break;
	case MAP_COLOR_ORDER: {
		unsigned int top = top_order(pageblock_order);

		set(&b[n++], '?', UNKNOWN_RGB, "no snapshot yet");
		set(&b[n++], '.', ylgn[0], "no free page");
		for (unsigned int o = 0; o <= top; o++) {
			if (o < pageblock_order)
				set(&b[n++], hexdigit(o),
				    ramp(o, pageblock_order, 0xdeebf7, 0x2171b5),
				    "order %u", o);
			else
				set(&b[n++], hexdigit(o),
				    ramp(o - pageblock_order, top - pageblock_order + 1,
					 0x807dba, 0x3f007d),
				    "order %u%s", o, o == pageblock_order ?
				    ": a whole block" : o == top ? " or more" :
				    " (spans blocks)");
		}
		break;
	}
	case MAP_COLOR_POLLUTION:
		set(&b[n++], '?', UNKNOWN_RGB, "no census yet");
		set(&b[n++], '-', 0x9c755f, "not classed (Isolate)");
		set(&b[n++], '.', 0xedf8e9, "clean: no foreign page");
		set(&b[n++], '1', 0xfee08b, "1-9 foreign pages");
		set(&b[n++], '2', 0xfdae61, "10-99 foreign pages");
		set(&b[n++], '3', 0xf46d43, "100-999 foreign pages");
		set(&b[n++], '4', 0xa50026, "1000 or more foreign pages");
		break;
	case MAP_COLOR_STEALS:
		set(&b[n++], '.', heat[0], "no steal");
		set(&b[n++], '1', heat[1], "1-9 steals");
		set(&b[n++], '2', heat[2], "10-99 steals");
		set(&b[n++], '3', heat[3], "100-999 steals");
		set(&b[n++], '4', heat[4], "1000 or more steals");
		break;
	}
	return n;
}

/* 1 for 1-9, 2 for 10-99, ..., capped at top */
static unsigned int decades(int64_t v, unsigned int top)
{
	unsigned int d = 0;

	for (; v > 0 && d < top; v /= 10)
		d++;
	return d;
}

unsigned int map_color_bucket(int color, unsigned int pageblock_order,
			      bool known, bool classed, int64_t value)
{
	uint64_t ppb = 1ULL << pageblock_order;

	switch (color) {
	case MAP_COLOR_FREE:
		if (!known)
			return 0;
		if (value <= 0)
			return 1;
		if ((uint64_t)value >= ppb)
			return 2 + FREE_DIGITS;
		return 2 + (uint64_t)value * FREE_DIGITS / ppb;
	case MAP_COLOR_ORDER:
		if (!known)
			return 0;
		if (value < 0)
			return 1;
		return 2 + (value > top_order(pageblock_order) ?
			    top_order(pageblock_order) : value);
	case MAP_COLOR_POLLUTION:
		if (!known)
			return 0;
		if (!classed)
			return 1;
		return 2 + decades(value, 4);
	case MAP_COLOR_STEALS:
		return decades(value, 4);
	}
	return 0;
}

void map_color_cell(const struct fv_model *m, int color,
		    const struct fv_block_at *at, struct map_cell *c)
{
	const struct fv_state_rec *s = at->state >= 0 ? &m->states[at->state] : NULL;
	const struct fv_census_rec *r = at->census >= 0 ? &m->census[at->census] : NULL;
	bool classed = true;

	memset(c, 0, sizeof(*c));
	c->value = -1;
	c->known = color == MAP_COLOR_STEALS;
	switch (color) {
	case MAP_COLOR_FREE:
		/* the later of the two; a census at the same time wins */
		if (r && (!s || r->ts >= s->ts)) {
			c->value = r->n[FV_CN_FREE];
			c->ts = r->ts;
			c->seq = r->seq;
			c->census = true;
			c->known = true;
		} else if (s) {
			c->known = true;
			c->value = s->free_pages;
			c->ts = s->ts;
			c->seq = s->seq;
		}
		break;
	case MAP_COLOR_ORDER:
		if (s) {
			c->known = true;
			c->value = s->largest_order;
			c->ts = s->ts;
			c->seq = s->seq;
		}
		break;
	case MAP_COLOR_POLLUTION:
		if (r) {
			c->known = true;
			classed = fv_mt_mobility(r->mt) != FV_MOB_NONE;
			c->value = fv_census_foreign(r->n, r->mt);
			c->ts = r->ts;
			c->seq = r->seq;
			c->census = true;
			c->rec = r;
		}
		break;
	case MAP_COLOR_STEALS:
		c->value = at->steals;
		break;
	}
	c->bucket = map_color_bucket(color, m->pageblock_order,
				     c->known, classed,
				     c->value);
}

void map_census_holds(char *buf, size_t len, const struct fv_census_rec *r)
{
	size_t off = 0;

	buf[0] = 0;
	for (int k = 0; k < FV_CN_NR && off < len; k++) {
		int n;

		if (k == FV_CN_FREE_CHUNKS || !r->n[k])
			continue;
		n = snprintf(buf + off, len - off, "%s%s %u", off ? ", " : "",
			     fv_census_count_name(k), r->n[k]);
		if (n < 0)
			break;
		off += n;
	}
}
