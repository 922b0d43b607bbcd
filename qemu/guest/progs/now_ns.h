/* SPDX-License-Identifier: GPL-2.0 */
/*
 * now_ns.h - the benchmark programs' clock: CLOCK_MONOTONIC in ns (under
 * QEMU -icount, guest instructions).  (Included, not compiled on its own.)
 */
#ifndef FV_NOW_NS_H
#define FV_NOW_NS_H

#include <time.h>

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

#endif
