// SPDX-License-Identifier: GPL-2.0
/*
 * polluter - a known culprit for fragview blame: unmovable pipe buffers
 * forced into Movable pageblocks.
 *
 * 1. The holder (comm "fv-holder") faults in most of free memory as
 *    order-0 anonymous (movable) pages and frees one chunk in every -i,
 *    so that nearly every pageblock is Movable, in use, with small holes;
 *    less than half of a block is free, so a steal cannot claim it.
 * 2. The polluter, a child with comm "fv-polluter", fills -p pipes of
 *    -s KiB each from write(2): pipe buffers are unmovable kernel pages
 *    (GFP_HIGHUSER | __GFP_ACCOUNT, no __GFP_MOVABLE), and with no free
 *    Unmovable block left they fall back into the holes of the Movable
 *    blocks: pageblock_steal events, from pipe_write(), by fv-polluter.
 * 3. Both free everything and exit.
 * Prints "holder_mib H holes_mib F" and "polluter pipes P kib K".
 * With -H FILE there is no polluter child: the holder itself fills the
 * -p pipes (they take up what free memory is left outside the holes),
 * creates FILE and keeps everything until SIGTERM/SIGINT, so that a
 * benchmark can run its own unmovable allocations against the holes
 * (bench-overhead's stealloop).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "hold.h"
#include "meminfo.h"
#include "parse_num.h"

/* @pipes pipes of @kib KiB each, full of data and left open: how many */
static unsigned int fill_pipes(unsigned int pipes, unsigned long kib)
{
	size_t len = kib * 1024;
	char *buf = malloc(len);
	unsigned int made = 0;
	struct rlimit rl = { 2UL * pipes + 64, 2UL * pipes + 64 };

	if (!buf)
		return 0;
	memset(buf, 0x5a, len);
	setrlimit(RLIMIT_NOFILE, &rl);
	for (; made < pipes; made++) {
		int fds[2];

		if (pipe2(fds, O_NONBLOCK)) {
			fprintf(stderr, "polluter: pipe: %s\n", strerror(errno));
			break;
		}
		/* the pipe's capacity in pages, then fill it */
		if (fcntl(fds[1], F_SETPIPE_SZ, (int)len) < 0)
			fprintf(stderr, "polluter: F_SETPIPE_SZ: %s\n",
				strerror(errno));
		if (write(fds[1], buf, len) < 0 && errno != EAGAIN) {
			fprintf(stderr, "polluter: write: %s\n", strerror(errno));
			break;
		}
	}
	free(buf);
	return made;
}

/* the child: pipes full of data, kept open until the parent says */
static int pollute(unsigned int pipes, unsigned long kib, int go_fd)
{
	unsigned int made;
	char c;

	prctl(PR_SET_NAME, "fv-polluter");
	made = fill_pipes(pipes, kib);
	printf("polluter pipes %u kib %lu\n", made, made * kib);
	fflush(stdout);
	/* hold the pipes until the parent closes its end */
	while (read(go_fd, &c, 1) < 0 && errno == EINTR)
		;
	return made ? 0 : 1;
}

int main(int argc, char **argv)
{
	unsigned long spare = 16, chunk_kib = 16, kib = 256, holder, low;
	unsigned int interleave = 4, pipes = 256;
	const char *ready = NULL;
	int opt, go[2], status;
	size_t len, chunk;
	char *anon;
	pid_t pid;

	while ((opt = getopt(argc, argv, "s:c:i:p:k:H:")) != -1) {
		switch (opt) {
		case 's': spare = parse_num(optarg, "polluter"); break;
		case 'c': chunk_kib = parse_num(optarg, "polluter"); break;
		case 'i': interleave = parse_num(optarg, "polluter"); break;
		case 'p': pipes = parse_num(optarg, "polluter"); break;
		case 'k': kib = parse_num(optarg, "polluter"); break;
		case 'H': ready = optarg; break;
		default:
			fprintf(stderr,
				"usage: %s [-s spare_MiB] [-c chunk_KiB] [-i N] [-p pipes] [-k KiB] [-H FILE]\n"
				"  -s  MiB left free above the low watermarks,\n"
				"      besides the holes (default 16)\n"
				"  -c  chunk freed for a hole (default 16)\n"
				"  -i  one chunk in every N is freed (default 4)\n"
				"  -p  pipes (default 256), -k KiB in each (default 256)\n"
				"  -H  no child: fill the pipes, create FILE, hold until SIGTERM\n",
				argv[0]);
			return 2;
		}
	}
	if (!chunk_kib || chunk_kib % 4 || interleave < 2 || !kib || kib % 4)
		return 2;
	prctl(PR_SET_NAME, "fv-holder");
	hold_prepare();
	holder = meminfo_kib("MemFree") / 1024;
	low = low_watermarks_mib();
	holder = holder > low + spare + 16 ? holder - low - spare : 16;
	len = holder << 20;
	chunk = chunk_kib * 1024;
	anon = mmap(NULL, len, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (anon == MAP_FAILED) {
		perror("polluter: mmap");
		return 1;
	}
	/* order-0 faults: movable pages all over the blocks */
	madvise(anon, len, MADV_NOHUGEPAGE);
	for (size_t off = 0; off < len; off += PAGE_SIZE)
		anon[off] = 1;
	for (size_t off = 0; off + chunk <= len; off += interleave * chunk)
		madvise(anon + off, chunk, MADV_DONTNEED);
	printf("holder_mib %lu holes_mib %lu\n", holder,
	       holder / interleave);
	fflush(stdout);
	if (ready) {
		unsigned int made = fill_pipes(pipes, kib);

		printf("held pipes %u kib %lu\n", made, made * kib);
		fflush(stdout);
		status = hold_until_signal("polluter", ready);
		munmap(anon, len);
		return status ? 1 : 0;
	}

	if (pipe(go)) {
		perror("polluter: pipe");
		return 1;
	}
	pid = fork();
	if (pid < 0) {
		perror("polluter: fork");
		return 1;
	}
	if (pid == 0) {
		close(go[1]);
		_exit(pollute(pipes, kib, go[0]));
	}
	close(go[0]);
	/* the child reads EOF once its pipes are full, then lets them go */
	close(go[1]);
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) ||
	    WEXITSTATUS(status)) {
		fprintf(stderr, "polluter: the polluter failed\n");
		return 1;
	}
	munmap(anon, len);
	return 0;
}
