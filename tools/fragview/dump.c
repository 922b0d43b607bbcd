// SPDX-License-Identifier: GPL-2.0
/* dump.c - the debugfs pageblock dump as FV_EV_STATE events. */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "dump.h"

#define MAX_TOKENS 16

struct parser {
	const char *name;
	unsigned long line;
	char *err;
	size_t errlen;
	bool have_zone;
	int32_t nid;
	uint8_t zone;
	uint64_t start_pfn, end_pfn, nr_blocks, seen;
	uint64_t last_pfn;
	bool v2;			/* end_pfn and gen in the header */
};

static int fail(struct parser *p, const char *fmt, ...)
{
	va_list ap;
	int n;

	n = snprintf(p->err, p->errlen, "%s:%lu: ", p->name, p->line);
	if (n < 0 || (size_t)n >= p->errlen)
		return -1;
	va_start(ap, fmt);
	vsnprintf(p->err + n, p->errlen - n, fmt, ap);
	va_end(ap);
	return -1;
}

/* Whole token as an unsigned number (decimal or 0x hex), no sign. */
static bool parse_u64(const char *tok, uint64_t *v)
{
	char *end;

	if (!*tok || *tok == '-' || *tok == '+')
		return false;
	errno = 0;
	*v = strtoull(tok, &end, 0);
	return !errno && !*end;
}

static bool parse_s64(const char *tok, int64_t *v)
{
	char *end;

	if (!*tok)
		return false;
	errno = 0;
	*v = strtoll(tok, &end, 10);
	return !errno && !*end;
}

static int split(char *s, char **tok)
{
	int n = 0;

	for (char *t = strtok(s, " \t\r\n"); t; t = strtok(NULL, " \t\r\n")) {
		if (n == MAX_TOKENS)
			return n + 1;
		tok[n++] = t;
	}
	return n;
}

/*
 * v1: node N zone NAME start_pfn PFN nr_blocks K pageblock_order P
 * v2: node N zone NAME start_pfn PFN end_pfn PFN nr_blocks K
 *     pageblock_order P gen G
 */
static int zone_header(struct parser *p, struct fv_dump *d, char **tok, int n)
{
	uint64_t nid, start, end = 0, nr, order, gen;
	bool v2 = n == 14;
	int k = v2 ? 2 : 0;	/* v2 has end_pfn before nr_blocks */

	if ((n != 10 && n != 14) || strcmp(tok[2], "zone") ||
	    strcmp(tok[4], "start_pfn") || strcmp(tok[6 + k], "nr_blocks") ||
	    strcmp(tok[8 + k], "pageblock_order") ||
	    (v2 && (strcmp(tok[6], "end_pfn") || strcmp(tok[12], "gen"))))
		return fail(p, "expected 'node N zone NAME start_pfn PFN [end_pfn PFN] nr_blocks K pageblock_order P [gen G]'");
	if (!parse_u64(tok[1], &nid) || nid > INT32_MAX)
		return fail(p, "bad node number '%s'", tok[1]);
	if (fv_zone_parse(tok[3]) == FV_ZONE_UNKNOWN)
		return fail(p, "unknown zone '%s'", tok[3]);
	if (!parse_u64(tok[5], &start))
		return fail(p, "bad start_pfn '%s'", tok[5]);
	if (v2 && (!parse_u64(tok[7], &end) || end < start))
		return fail(p, "bad end_pfn '%s'", tok[7]);
	if (!parse_u64(tok[7 + k], &nr))
		return fail(p, "bad nr_blocks '%s'", tok[7 + k]);
	if (!parse_u64(tok[9 + k], &order) || order < 1)
		return fail(p, "bad pageblock_order '%s'", tok[9 + k]);
	if (order > FV_ORDER_MAX)
		return fail(p, "pageblock_order %s above %d, the largest a kernel uses",
			    tok[9 + k], FV_ORDER_MAX);
	if (v2 && !parse_u64(tok[13], &gen))
		return fail(p, "bad gen '%s'", tok[13]);
	if (d->pageblock_order && d->pageblock_order != order)
		return fail(p, "pageblock_order %llu differs from %u above",
			    (unsigned long long)order, d->pageblock_order);
	d->pageblock_order = order;
	p->have_zone = true;
	p->nid = nid;
	p->zone = fv_zone_parse(tok[3]);
	p->start_pfn = start;
	p->end_pfn = end;
	p->v2 = v2;
	p->nr_blocks = nr;
	p->seen = 0;
	return 0;
}

static int block_line(struct parser *p, struct fv_dump *d, char **tok, int n)
{
	uint64_t pfn, free_pages, gen = 0;
	int64_t largest;
	enum fv_mt mt;
	struct fv_event *e;

	if (!p->have_zone)
		return fail(p, "block line before any 'node N zone NAME ...' header");
	if (n != (p->v2 ? 5 : 4))
		return fail(p, p->v2 ? "expected 'PFN TYPE FREE_PAGES LARGEST_ORDER GEN'" :
			    "expected 'PFN TYPE FREE_PAGES LARGEST_ORDER'");
	/* holes and offline memory are left out: at most nr_blocks lines */
	if (p->seen == p->nr_blocks)
		return fail(p, "zone %s of node %d has more blocks than the %llu of its header",
			    fv_zone_name(p->zone), p->nid,
			    (unsigned long long)p->nr_blocks);
	if (!parse_u64(tok[0], &pfn))
		return fail(p, "bad pfn '%s'", tok[0]);
	if (pfn & ((1ULL << d->pageblock_order) - 1))
		return fail(p, "pfn %s is not pageblock aligned", tok[0]);
	/* start_pfn need not be aligned: its block starts below it */
	if (pfn < (p->start_pfn & ~((1ULL << d->pageblock_order) - 1)))
		return fail(p, "pfn %s below the zone's start_pfn", tok[0]);
	if (p->v2 && pfn >= p->end_pfn)
		return fail(p, "pfn %s not below the zone's end_pfn", tok[0]);
	if (p->seen && pfn <= p->last_pfn)
		return fail(p, "pfn %s not above the previous block's", tok[0]);
	mt = fv_mt_parse(tok[1]);
	/* the kernel prints "Unknown" for a value outside its table */
	if ((mt == FV_MT_UNKNOWN && strcmp(tok[1], "Unknown")) ||
	    mt == FV_MT_NONE)
		return fail(p, "unknown migratetype '%s'", tok[1]);
	if (!parse_u64(tok[2], &free_pages) ||
	    free_pages > (1ULL << d->pageblock_order))
		return fail(p, "bad free page count '%s'", tok[2]);
	if (!parse_s64(tok[3], &largest) || largest < -1 ||
	    largest > FV_ORDER_MAX)
		return fail(p, "bad largest order '%s'", tok[3]);
	if ((largest < 0) != (free_pages == 0) ||
	    (largest >= 0 && free_pages < (1ULL << largest) &&
	     largest <= (int64_t)d->pageblock_order))
		return fail(p, "largest order %s does not fit %s free pages",
			    tok[3], tok[2]);
	if (p->v2 && !parse_u64(tok[4], &gen))
		return fail(p, "bad gen '%s'", tok[4]);
	if (d->nr == d->cap) {
		size_t cap = d->cap ? d->cap * 2 : 256;
		void *q = realloc(d->ev, cap * sizeof(*d->ev));

		if (!q)
			return fail(p, "out of memory");
		d->ev = q;
		d->cap = cap;
	}
	e = &d->ev[d->nr++];
	memset(e, 0, sizeof(*e));
	e->kind = FV_EV_STATE;
	e->cpu = -1;
	e->state.pfn = pfn;
	e->state.seq = 1;
	e->state.free_pages = free_pages;
	e->state.nid = p->nid;
	e->state.zone = p->zone;
	e->state.mt = mt;
	e->state.largest_order = largest;
	if (p->v2) {
		e->flags = FV_EVF_GEN;
		e->state.gen = gen;
	}
	p->seen++;
	p->last_pfn = pfn;
	return 0;
}

int fv_dump_parse(FILE *f, const char *name, struct fv_dump *d,
		  char *err, size_t errlen)
{
	struct parser p = { .name = name, .err = err, .errlen = errlen };
	char *line = NULL, *tok[MAX_TOKENS];
	size_t cap = 0;
	ssize_t len;
	int ret = 0;

	memset(d, 0, sizeof(*d));
	while (!ret && (len = getline(&line, &cap, f)) >= 0) {
		int n;

		p.line++;
		if (memchr(line, '\0', len)) {
			ret = fail(&p, "binary data (NUL byte)");
			break;
		}
		n = split(line, tok);
		if (!n || tok[0][0] == '#')
			continue;
		if (!strcmp(tok[0], "node"))
			ret = zone_header(&p, d, tok, n);
		else
			ret = block_line(&p, d, tok, n);
	}
	if (!ret && ferror(f)) {
		snprintf(err, errlen, "%s: read error: %s", name, strerror(errno));
		ret = -1;
	}
	if (!ret && !p.have_zone) {
		snprintf(err, errlen, "%s: no 'node N zone NAME ...' header: not a pageblock dump",
			 name);
		ret = -1;
	}
	free(line);
	if (ret)
		fv_dump_free(d);
	return ret;
}

void fv_dump_free(struct fv_dump *d)
{
	free(d->ev);
	memset(d, 0, sizeof(*d));
}

int fv_dump_load(FILE *f, const char *name, struct fv_model *m,
		 char *err, size_t errlen)
{
	struct fv_dump d;
	int ret = 0;

	if (fv_dump_parse(f, name, &d, err, errlen))
		return -1;
	fv_model_set_pageblock_order(m, d.pageblock_order);
	for (size_t i = 0; i < d.nr && !ret; i++)
		ret = fv_model_apply(m, &d.ev[i]);
	fv_dump_free(&d);
	/* the model's only failure: more blocks than it can index */
	if (ret)
		snprintf(err, errlen, "%s: too many pageblocks for the block table",
			 name);
	return ret ? -1 : 0;
}
