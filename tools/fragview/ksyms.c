// SPDX-License-Identifier: GPL-2.0
/* ksyms.c - kernel addresses to symbols, from a capture's kallsyms. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ksyms.h"
#include "util.h"

#define KSYM_NAME_MAX 128	/* the kernel's KSYM_NAME_LEN */

struct ksym {
	uint64_t addr;
	uint32_t name;		/* offset in names */
	uint32_t mod;		/* offset of the module name, 0: none */
};

struct ksyms {
	struct ksym *syms;
	size_t nr;
	char *names;		/* NUL-separated; names[0] is "" */
	size_t names_len;
};

static uint32_t add_name(struct ksyms *k, size_t *cap, const char *s,
			 size_t len)
{
	uint32_t off = k->names_len;

	if (k->names_len + len + 1 > *cap) {
		*cap = (k->names_len + len + 1) * 2;
		k->names = xrealloc(k->names, *cap);
	}
	memcpy(k->names + off, s, len);
	k->names[off + len] = '\0';
	k->names_len += len + 1;
	return off;
}

static int cmp_sym(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* One line: "ffffffff81000000 T _stext" or "... t name\t[module]". */
static void parse_line(struct ksyms *k, size_t *cap, size_t *scap,
		       const char *p, const char *end)
{
	uint64_t addr = 0;
	const char *name, *mod = NULL;
	size_t nlen, mlen = 0;
	int digits = 0;
	char type;

	for (; p < end && digits < 17; p++, digits++) {
		int d = *p >= '0' && *p <= '9' ? *p - '0' :
			*p >= 'a' && *p <= 'f' ? *p - 'a' + 10 :
			*p >= 'A' && *p <= 'F' ? *p - 'A' + 10 : -1;

		if (d < 0)
			break;
		addr = addr << 4 | d;
	}
	if (!digits || digits > 16 || end - p < 4 || *p != ' ' || p[2] != ' ')
		return;
	type = p[1];
	if (!strchr("tTwW", type) || !addr)
		return;
	name = p + 3;
	for (nlen = 0; name + nlen < end && name[nlen] != ' ' &&
		       name[nlen] != '\t'; nlen++)
		;
	if (!nlen || nlen >= KSYM_NAME_MAX)
		return;
	for (p = name + nlen; p < end && (*p == ' ' || *p == '\t'); p++)
		;
	if (p < end && *p == '[') {
		mod = p + 1;
		while (mod + mlen < end && mod[mlen] != ']')
			mlen++;
		if (!mlen || mlen >= KSYM_NAME_MAX)
			mod = NULL;
	}
	if (k->nr == *scap) {
		*scap = *scap ? *scap * 2 : 1024;
		k->syms = xrealloc(k->syms, *scap * sizeof(*k->syms));
	}
	k->syms[k->nr].addr = addr;
	k->syms[k->nr].name = add_name(k, cap, name, nlen);
	k->syms[k->nr].mod = mod ? add_name(k, cap, mod, mlen) : 0;
	k->nr++;
}

struct ksyms *ksyms_parse(const char *text, size_t len)
{
	struct ksyms *k = xcalloc(1, sizeof(*k));
	size_t cap = 0, scap = 0;
	const char *p = text, *end = text + len;

	add_name(k, &cap, "", 0);
	while (p < end) {
		const char *nl = memchr(p, '\n', end - p);

		if (!nl)
			nl = end;
		parse_line(k, &cap, &scap, p, nl);
		p = nl + 1;
	}
	if (k->nr)
		qsort(k->syms, k->nr, sizeof(*k->syms), cmp_sym);
	return k;
}

void ksyms_free(struct ksyms *k)
{
	if (!k)
		return;
	free(k->syms);
	free(k->names);
	free(k);
}

size_t ksyms_count(const struct ksyms *k)
{
	return k->nr;
}

void ksyms_format(const struct ksyms *k, uint64_t addr, char *buf, size_t size)
{
	size_t lo = 0, hi = k->nr;
	const struct ksym *s;

	/* the last symbol at or below addr */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (k->syms[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo) {
		snprintf(buf, size, "0x%llx", (unsigned long long)addr);
		return;
	}
	s = &k->syms[lo - 1];
	if (s->mod)
		snprintf(buf, size, "%s+0x%llx [%s]", k->names + s->name,
			 (unsigned long long)(addr - s->addr), k->names + s->mod);
	else
		snprintf(buf, size, "%s+0x%llx", k->names + s->name,
			 (unsigned long long)(addr - s->addr));
}
