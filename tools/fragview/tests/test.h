/* SPDX-License-Identifier: GPL-2.0 */
/*
 * test.h - the smallest test harness that can fail.
 *
 * Each RUN() prints "ok - name" or "not ok - name"; failed CHECK()s print
 * where and what on stderr.  tests/run-unit.sh adds the lines up.
 */
#ifndef FRAGVIEW_TEST_H
#define FRAGVIEW_TEST_H

#include <stdio.h>

static int t_pass, t_fail, t_failed_now;

#define CHECK(cond) do {						\
	if (!(cond)) {							\
		fprintf(stderr, "  %s:%d: failed: %s\n",		\
			__FILE__, __LINE__, #cond);			\
		t_failed_now = 1;					\
	}								\
} while (0)

#define CHECK_EQ(a, b) do {						\
	long long _a = (long long)(a), _b = (long long)(b);		\
	if (_a != _b) {							\
		fprintf(stderr, "  %s:%d: %s == %lld, want %s == %lld\n",\
			__FILE__, __LINE__, #a, _a, #b, _b);		\
		t_failed_now = 1;					\
	}								\
} while (0)

#define RUN(fn) do {							\
	t_failed_now = 0;						\
	fn();								\
	printf("%s - %s\n", t_failed_now ? "not ok" : "ok", #fn);	\
	if (t_failed_now)						\
		t_fail++;						\
	else								\
		t_pass++;						\
} while (0)

#define TEST_EXIT() (t_fail ? 1 : 0)

#endif /* FRAGVIEW_TEST_H */
