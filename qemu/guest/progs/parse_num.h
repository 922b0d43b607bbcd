/* SPDX-License-Identifier: GPL-2.0 */
/*
 * parse_num.h - the guest programs' one parser for numeric options.
 * (Included, not compiled on its own.)
 */
#ifndef FV_PARSE_NUM_H
#define FV_PARSE_NUM_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

/* @s as a number (decimal, 0x hex or 0 octal); exit 2 if it is not one */
static unsigned long parse_num(const char *s, const char *prog)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 0);
	if (errno || *end || end == s) {
		fprintf(stderr, "%s: bad number '%s'\n", prog, s);
		exit(2);
	}
	return v;
}

#endif
