/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rowidx.h - a hash index over the rows of a growing array.
 *
 * Tables keyed by what the capture names (a CPU, a snapshot zone) can
 * have as many rows as the capture has events: a linear search per
 * event is quadratic.  The caller keeps the rows; the index maps a key
 * to its row in O(1) amortised (open addressing, at most half full).
 */
#ifndef FRAGVIEW_ROWIDX_H
#define FRAGVIEW_ROWIDX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct fv_rowidx_ops {
	size_t size;				/* of a row */
	uint64_t (*hash)(const void *row);
	bool (*same)(const void *row, const void *key_row);
};

struct fv_rowidx {
	uint32_t *slot;			/* row + 1, 0: empty */
	size_t cap;			/* power of two, > 2 * rows */
	uint64_t probes;		/* slots looked at: for the tests */
};

/* The row of rows[] equal to key_row (ops->same), or -1. */
long fv_rowidx_find(struct fv_rowidx *x, const void *rows,
		    const void *key_row, const struct fv_rowidx_ops *ops);
/* Index rows[nr - 1], just appended (rows may have moved). */
void fv_rowidx_add(struct fv_rowidx *x, const void *rows, size_t nr,
		   const struct fv_rowidx_ops *ops);
void fv_rowidx_free(struct fv_rowidx *x);

#endif /* FRAGVIEW_ROWIDX_H */
