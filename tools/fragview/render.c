// SPDX-License-Identifier: GPL-2.0
/* render.c - the table of output formats. */
#include <string.h>

#include "render.h"

static const struct renderer renderers[] = {
	{ "ansi", render_map_ansi, NULL,              NULL,             NULL },
	{ "txt",  render_map_txt,  render_stats_txt,  render_blame_txt, render_compact_txt },
	{ "svg",  render_map_svg,  NULL,              NULL,             NULL },
	{ "html", render_map_html, NULL,              NULL,             NULL },
	{ "csv",  NULL,            render_stats_csv,  render_blame_csv, render_compact_csv },
	{ "json", NULL,            render_stats_json, render_blame_json, render_compact_json },
};

#define NR_RENDERERS (sizeof(renderers) / sizeof(renderers[0]))

const struct renderer *renderer_find(const char *name)
{
	for (size_t i = 0; i < NR_RENDERERS; i++)
		if (!strcmp(renderers[i].name, name))
			return &renderers[i];
	return NULL;
}

const char *renderer_names(bool for_map)
{
	static char buf[2][64];
	char *b = buf[for_map];

	if (b[0])
		return b;
	for (size_t i = 0; i < NR_RENDERERS; i++) {
		if (for_map ? !renderers[i].map : !renderers[i].stats)
			continue;
		if (b[0])
			strcat(b, "|");
		strcat(b, renderers[i].name);
	}
	return b;
}
