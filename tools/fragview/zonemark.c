// SPDX-License-Identifier: GPL-2.0
/*
 * zonemark.c - the zone lines the recorder writes to trace_marker
 * (zonemark.h).  Untrusted text: every byte is bounds-checked.
 */
#include <stdint.h>
#include <string.h>

#include "zonemark.h"

#define MAX_LINE 256

/* "123" -> 123, saturated at UINT32_MAX; false unless all digits */
static bool parse_count(const char *s, uint32_t *v)
{
	uint64_t n = 0;

	if (!*s)
		return false;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return false;
		n = n * 10 + (uint64_t)(*s - '0');
		if (n > UINT32_MAX)
			n = UINT32_MAX + 1ULL;	/* stays put: no overflow */
	}
	*v = n > UINT32_MAX ? UINT32_MAX : (uint32_t)n;
	return true;
}

bool fv_zonemark_parse(const char *text, size_t len, struct fv_wmark *w)
{
	size_t plen = strlen(FV_ZONEMARK_PREFIX);
	char line[MAX_LINE], *save = NULL, *tok;
	unsigned int seen = 0;
	enum { NODE = 1, ZONE = 2, MIN = 4, LOW = 8, HIGH = 16 };
	uint32_t node = 0;

	if (len < plen || memcmp(text, FV_ZONEMARK_PREFIX, plen))
		return false;
	text += plen;
	len -= plen;
	/* the kernel's print records end at a NUL or the record's end */
	len = strnlen(text, len);
	if (len >= sizeof(line))
		return false;
	memcpy(line, text, len);
	line[len] = '\0';
	memset(w, 0, sizeof(*w));
	for (tok = strtok_r(line, " \t\n", &save); tok;
	     tok = strtok_r(NULL, " \t\n", &save)) {
		char *val = strchr(tok, '=');
		uint32_t *dst = NULL;
		unsigned int bit = 0;

		if (!val)
			return false;
		*val++ = '\0';
		if (!strcmp(tok, "zone")) {
			enum fv_zone_type z = fv_zone_parse(val);

			if (z >= FV_ZONE_UNKNOWN)
				return false;
			w->zone = z;
			seen |= ZONE;
			continue;
		}
		if (!strcmp(tok, "node"))
			dst = &node, bit = NODE;
		else if (!strcmp(tok, "free"))
			dst = &w->free;
		else if (!strcmp(tok, "min"))
			dst = &w->min, bit = MIN;
		else if (!strcmp(tok, "low"))
			dst = &w->low, bit = LOW;
		else if (!strcmp(tok, "high"))
			dst = &w->high, bit = HIGH;
		else if (!strcmp(tok, "boost"))
			dst = &w->boost;
		else if (!strcmp(tok, "managed"))
			dst = &w->managed;
		else
			continue;	/* a key a later recorder adds */
		if (!parse_count(val, dst))
			return false;
		seen |= bit;
	}
	if (seen != (NODE | ZONE | MIN | LOW | HIGH) || node > INT32_MAX)
		return false;
	w->nid = (int32_t)node;
	return true;
}
