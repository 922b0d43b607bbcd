// SPDX-License-Identifier: GPL-2.0
/*
 * sigflood - queue many real-time signals to itself, then hold them
 * until SIGTERM/SIGINT.
 *
 * Each queued signal is a struct sigqueue, allocated with GFP_ATOMIC in
 * __send_signal_locked().  With slub_min_order=3 on the kernel command
 * line every new slab of that cache is an order-3 GFP_ATOMIC allocation:
 * the one userspace-driven kind of allocation that gets ALLOC_HIGHATOMIC
 * in the page allocator's slow path (order > 0, __GFP_HIGH, no direct
 * reclaim), which reserves its pageblock as MIGRATE_HIGHATOMIC.
 * Exiting frees the slabs.  With -b NODE the task's memory policy binds
 * those slabs to NODE: the zonelist would otherwise find room on the
 * other node in the fast path.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "hold.h"

#define MPOL_BIND 2


int main(int argc, char **argv)
{
	const char *ready = NULL;
	unsigned long n = 100000, queued = 0, failed = 0;
	struct rlimit rl;
	sigset_t rt;
	int opt, bind = -1;

	while ((opt = getopt(argc, argv, "b:n:R:")) != -1) {
		switch (opt) {
		case 'b': bind = atoi(optarg); break;
		case 'n': n = strtoul(optarg, NULL, 0); break;
		case 'R': ready = optarg; break;
		default:
			fprintf(stderr, "usage: %s [-b node] [-n signals] [-R ready_file]\n",
				argv[0]);
			return 2;
		}
	}
	if (bind >= 0) {
		unsigned long mask = 1UL << bind;

		if (bind > 63 ||
		    syscall(SYS_set_mempolicy, MPOL_BIND, &mask, 64)) {
			perror("sigflood: set_mempolicy");
			return 1;
		}
	}
	/* RLIMIT_SIGPENDING is max_threads / 2 by default: a few thousand */
	rl.rlim_cur = rl.rlim_max = n + 64;
	if (setrlimit(RLIMIT_SIGPENDING, &rl)) {
		perror("sigflood: setrlimit(RLIMIT_SIGPENDING)");
		return 1;
	}
	sigemptyset(&rt);
	sigaddset(&rt, SIGRTMIN);
	if (sigprocmask(SIG_BLOCK, &rt, NULL)) {
		perror("sigflood: sigprocmask");
		return 1;
	}
	hold_prepare();

	for (unsigned long i = 0; i < n; i++) {
		union sigval v = { .sival_int = (int)i };

		if (sigqueue(getpid(), SIGRTMIN, v) == 0) {
			queued++;
		} else if (errno == EAGAIN) {
			/* no memory (or the rlimit): count it, go on */
			failed++;
		} else {
			perror("sigflood: sigqueue");
			return 1;
		}
	}
	printf("sigflood: %lu signals queued, %lu refused\n", queued, failed);
	fflush(stdout);
	if (hold_until_signal("sigflood", ready))
		return 1;
	return queued ? 0 : 1;
}
