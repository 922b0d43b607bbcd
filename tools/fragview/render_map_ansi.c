// SPDX-License-Identifier: GPL-2.0
/*
 * render_map_ansi.c - the pageblock map for a terminal: the txt grid
 * with each letter on its type's background colour; blocks stolen from
 * or flipped are bold, underlined and lowercase, so the map still reads
 * without colour (e.g. in a log) and through `less -R`.
 *
 * 24-bit colour when the terminal announces it (COLORTERM=truecolor or
 * 24bit, the de-facto convention), else the xterm 256-colour cube.
 */
#include <stdlib.h>
#include <string.h>

#include "render_map_common.h"

static void ansi_end_run(FILE *out, struct map_text_style *st)
{
	if (st->last >= 0)
		fputs("\033[0m", out);
	st->last = -1;
}

static void ansi_cell(FILE *out, struct map_text_style *st,
		      const struct map_view *v, unsigned int bucket, bool marked)
{
	const struct map_bucket *c = &v->buckets[bucket];
	int style = (int)bucket * 2 + marked;
	char letter = c->glyph;

	if (style != st->last) {
		int fg = c->dark ? 255 : 16;

		fputs("\033[0", out);
		if (marked)
			fputs(";1;4", out);
		if (st->truecolour)
			fprintf(out, ";38;2;%d;%d;%d;48;2;%d;%d;%dm",
				c->dark ? 255 : 0, c->dark ? 255 : 0,
				c->dark ? 255 : 0, c->r, c->g, c->b);
		else
			fprintf(out, ";38;5;%d;48;5;%dm", fg, c->ansi256);
		st->last = style;
	}
	if (marked && letter >= 'A' && letter <= 'Z')
		letter += 'a' - 'A';
	fputc(letter, out);
}

static bool terminal_has_truecolour(void)
{
	const char *ct = getenv("COLORTERM");

	return ct && (!strcmp(ct, "truecolor") || !strcmp(ct, "24bit"));
}

int render_map_ansi(FILE *out, const struct fv_model *m,
		    const struct map_opts *o)
{
	struct map_text_style ansi = {
		.cell = ansi_cell,
		.end_run = ansi_end_run,
		.truecolour = terminal_has_truecolour(),
		.last = -1,
	};

	return map_text_render(out, m, o, &ansi);
}
