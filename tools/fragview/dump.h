/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dump.h - parser for the debugfs pageblock dump (tracepoints/debugfs.md):
 *
 *   node N zone NAME start_pfn 0xPFN nr_blocks K pageblock_order P
 *   0xPFN TypeName free_pages largest_order
 *   ...
 *
 * or, ABI v2, with the zone's end and generation:
 *
 *   node N zone NAME start_pfn 0xPFN end_pfn 0xPFN nr_blocks K pageblock_order P gen G
 *   0xPFN TypeName free_pages largest_order gen
 *
 * Each block line becomes one FV_EV_STATE event (ts 0, seq 1), so a dump
 * is a one-snapshot capture for the model.  Blank lines and lines
 * starting with '#' are ignored.  As the kernel writes it, start_pfn
 * need not be block aligned and a zone lists at most nr_blocks blocks
 * (holes and offline memory are left out).
 */
#ifndef FRAGVIEW_DUMP_H
#define FRAGVIEW_DUMP_H

#include <stdio.h>

#include "model.h"

struct fv_dump {
	unsigned int pageblock_order;
	struct fv_event *ev;
	size_t nr, cap;
};

/*
 * Parses the whole stream.  Returns 0, or -1 with a one-line message
 * "NAME:LINE: what is wrong" in err.
 */
int fv_dump_parse(FILE *f, const char *name, struct fv_dump *d,
		  char *err, size_t errlen);
void fv_dump_free(struct fv_dump *d);

/*
 * Parses the dump into m (not finished: fv_model_finish() is the
 * caller's), as fragview dump reads it.  Returns 0, or -1 with a
 * one-line message in err.
 */
int fv_dump_load(FILE *f, const char *name, struct fv_model *m,
		 char *err, size_t errlen);

#endif /* FRAGVIEW_DUMP_H */
