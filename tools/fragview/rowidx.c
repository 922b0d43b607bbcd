// SPDX-License-Identifier: GPL-2.0
/* rowidx.c - a hash index over the rows of a growing array. */
#include <stdlib.h>

#include "rowidx.h"
#include "util.h"

static const void *row_at(const void *rows, size_t r,
			  const struct fv_rowidx_ops *ops)
{
	return (const char *)rows + r * ops->size;
}

/* splitmix64's finaliser: every bit of h moves the low bits taken */
static uint64_t mix(uint64_t h)
{
	h = (h ^ h >> 30) * 0xbf58476d1ce4e5b9ULL;
	h = (h ^ h >> 27) * 0x94d049bb133111ebULL;
	return h ^ h >> 31;
}

/* The slot of key_row: where it is, or the empty one it would take. */
static size_t find_slot(struct fv_rowidx *x, const void *rows,
			const void *key_row, const struct fv_rowidx_ops *ops)
{
	size_t i = mix(ops->hash(key_row)) & (x->cap - 1);

	for (;; i = (i + 1) & (x->cap - 1)) {
		x->probes++;
		if (!x->slot[i] ||
		    ops->same(row_at(rows, x->slot[i] - 1, ops), key_row))
			return i;
	}
}

long fv_rowidx_find(struct fv_rowidx *x, const void *rows,
		    const void *key_row, const struct fv_rowidx_ops *ops)
{
	size_t i;

	if (!x->cap)
		return -1;
	i = find_slot(x, rows, key_row, ops);
	return x->slot[i] ? (long)x->slot[i] - 1 : -1;
}

void fv_rowidx_add(struct fv_rowidx *x, const void *rows, size_t nr,
		   const struct fv_rowidx_ops *ops)
{
	if (nr * 2 >= x->cap) {
		size_t cap = x->cap ? x->cap * 2 : 64;

		free(x->slot);
		x->slot = xcalloc(cap, sizeof(*x->slot));
		x->cap = cap;
		for (size_t r = 0; r + 1 < nr; r++)
			x->slot[find_slot(x, rows, row_at(rows, r, ops), ops)] =
				r + 1;
	}
	x->slot[find_slot(x, rows, row_at(rows, nr - 1, ops), ops)] = nr;
}

void fv_rowidx_free(struct fv_rowidx *x)
{
	free(x->slot);
	x->slot = NULL;
	x->cap = 0;
}
