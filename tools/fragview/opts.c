// SPDX-License-Identifier: GPL-2.0
/* opts.c - parsing of option values shared by the subcommands. */
#include <ctype.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "opts.h"

int parse_time(const char *s, uint64_t *ns, bool *relative)
{
	uint64_t sec = 0, frac = 0;
	int digits = 0, frac_digits = 0;

	*relative = *s == '+';
	if (*relative)
		s++;
	for (; isdigit((unsigned char)*s); s++, digits++) {
		if (sec > 100000000000ULL)
			return -1;
		sec = sec * 10 + (*s - '0');
	}
	if (*s == '.') {
		for (s++; isdigit((unsigned char)*s); s++, frac_digits++)
			if (frac_digits < 9)
				frac = frac * 10 + (*s - '0');
		/* "1." and ".5" are fine, "." alone is not */
		if (!digits && !frac_digits)
			return -1;
	} else if (!digits) {
		return -1;
	}
	if (*s || sec > (UINT64_MAX - 999999999ULL) / 1000000000ULL)
		return -1;
	for (int i = frac_digits; i < 9; i++)
		frac *= 10;
	*ns = sec * 1000000000ULL + frac;
	return *ns > INT64_MAX ? -1 : 0;
}

uint64_t opt_time_at(const struct opt_time *t, uint64_t first_ts)
{
	/* both are below 2^63: the sum cannot wrap */
	return t->relative ? first_ts + t->ns : t->ns;
}

int parse_zone(const char *s, int *nid, int *zone)
{
	const char *slash = strchr(s, '/');
	const char *name = s;

	*nid = -1;
	if (slash) {
		char *end;
		long n;

		if (slash == s || !isdigit((unsigned char)*s))
			return -1;
		n = strtol(s, &end, 10);
		if (end != slash || n < 0 || n > INT_MAX)
			return -1;
		*nid = n;
		name = slash + 1;
	}
	*zone = fv_zone_parse(name);
	return *zone == FV_ZONE_UNKNOWN ? -1 : 0;
}
