// SPDX-License-Identifier: GPL-2.0
/*
 * fragmenter - mix movable and unmovable allocations so that the page
 * allocator has to fall back into pageblocks of another migratetype.
 *
 * First a ballast of transparent huge pages takes most of free memory, so
 * that later fallbacks cannot simply take (and claim) large free blocks.
 * Then each round:
 *  1. faults in the anonymous (movable) region chunk by chunk,
 *  2. frees one chunk in every -i, leaving small holes in movable blocks,
 *  3. fills pipes (pipe buffers are unmovable kernel pages) and creates
 *     tmpfs files (page cache is movable, dentries and inodes are
 *     reclaimable slab): these only find the holes, so they steal from
 *     movable pageblocks, claiming a block only where enough of it is free,
 *  4. frees the rest of the region, then every other pipe and file, so the
 *     survivors stay scattered over mixed blocks.
 * With -H the last round's survivors (and the ballast) are kept until
 * SIGTERM/SIGINT, so a caller can compact or allocate against them.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "meminfo.h"
#include "parse_num.h"

#define PAGE_SIZE 4096UL
#define PIPE_FILL (64 * 1024)	/* default pipe capacity: 16 pages */

struct options {
	long ballast_mib;		/* -1: MemFree - anon - spare */
	unsigned long spare_mib;
	unsigned long anon_mib;
	unsigned long chunk_kib;
	unsigned int interleave;
	unsigned int pipes;
	unsigned int files;
	unsigned int rounds;
	const char *dir;
	const char *ready_file;
	int hold;
	long floor_mib;		/* MiB above the low watermarks */
};

/*
 * Pipes and files are made until free memory falls to the floor: the kernel
 * boosts watermarks after fragmenting fallbacks and keeps pages on per-cpu
 * lists, so a fixed budget either OOMs or leaves large blocks unused.
 * Pipe buffers cannot come from ZONE_MOVABLE (movablecore=), so only the
 * other zones count.
 */
static int above_floor(const struct options *o)
{
	char line[256], zone[32] = "";
	unsigned long free_pages = 0, low_pages = 0, v;
	FILE *f = fopen("/proc/zoneinfo", "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "Node %*d, zone %31s", zone) == 1)
			continue;
		if (!strcmp(zone, "Movable"))
			continue;
		if (sscanf(line, " pages free %lu", &v) == 1)
			free_pages += v;
		else if (sscanf(line, " low %lu", &v) == 1)
			low_pages += v;
	}
	fclose(f);
	return free_pages > low_pages &&
	       (long)((free_pages - low_pages) * PAGE_SIZE >> 20) >
	       o->floor_mib;
}

static volatile sig_atomic_t stop_holding;

static void on_signal(int sig)
{
	(void)sig;
	stop_holding = 1;
}

static void usage(const char *prog)
{
	fprintf(stderr,
		"usage: %s [-b ballast_MiB] [-s spare_MiB] [-m anon_MiB]\n"
		"       [-c chunk_KiB] [-i N] [-p pipes] [-f files] [-r rounds]\n"
		"       [-d tmpfs_dir] [-H [-R ready_file]]\n"
		"  -b  THP ballast held throughout (default: MemFree - low\n"
		"      watermarks - anon - spare)\n"
		"  -s  spare memory left free (default 16)\n"
		"  -m  interleaved anonymous memory per round (default 256)\n"
		"  -c  chunk size (default 64)\n"
		"  -i  free one chunk in every N to make the holes (default 3)\n"
		"  -p  pipes filled with 64 KiB each (default 1024)\n"
		"  -f  4 KiB tmpfs files (default 2000)\n"
		"  -r  rounds (default 3)\n"
		"  -H  keep the last round's survivors until SIGTERM/SIGINT\n"
		"  -R  create this file once holding\n", prog);
	exit(2);
}

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

static void touch(char *p, size_t len, unsigned char val)
{
	for (size_t off = 0; off < len; off += PAGE_SIZE)
		p[off] = val;
}

struct pipe_pair {
	int rd, wr;
};

static unsigned int open_pipes(const struct options *o, struct pipe_pair *pp)
{
	unsigned int n = o->pipes;
	static char buf[PIPE_FILL];
	unsigned int i;

	memset(buf, 0x5a, sizeof(buf));
	for (i = 0; i < n; i++) {
		int fds[2];

		if (i % 16 == 0 && !above_floor(o))
			break;
		if (pipe2(fds, O_NONBLOCK)) {
			fprintf(stderr, "fragmenter: pipe: %s (%u opened)\n",
				strerror(errno), i);
			break;
		}
		pp[i].rd = fds[0];
		pp[i].wr = fds[1];
		/* a short write is fine: the pipe is full */
		if (write(pp[i].wr, buf, sizeof(buf)) < 0 && errno != EAGAIN)
			fprintf(stderr, "fragmenter: pipe write: %s\n",
				strerror(errno));
	}
	return i;
}

static void close_pipe(struct pipe_pair *pp)
{
	if (pp->rd < 0)
		return;
	close(pp->rd);
	close(pp->wr);
	pp->rd = pp->wr = -1;
}

static unsigned int make_files(const struct options *o, unsigned int round)
{
	const char *dir = o->dir;
	unsigned int n = o->files;
	char path[256], data[PAGE_SIZE];
	unsigned int i, made = 0;

	memset(data, 0xa5, sizeof(data));
	for (i = 0; i < n; i++) {
		int fd;

		if (i % 64 == 0 && !above_floor(o))
			break;
		snprintf(path, sizeof(path), "%s/r%u-f%u", dir, round, i);
		fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0600);
		if (fd < 0) {
			fprintf(stderr, "fragmenter: %s: %s\n", path,
				strerror(errno));
			break;
		}
		if (write(fd, data, sizeof(data)) != sizeof(data))
			fprintf(stderr, "fragmenter: short write to %s\n",
				path);
		close(fd);
		made++;
	}
	return made;
}

static void remove_files(const char *dir, unsigned int round,
			 unsigned int n, unsigned int first, unsigned int step)
{
	char path[256];

	for (unsigned int i = first; i < n; i += step) {
		snprintf(path, sizeof(path), "%s/r%u-f%u", dir, round, i);
		unlink(path);
	}
}

int main(int argc, char **argv)
{
	struct options o = {
		.ballast_mib = -1, .spare_mib = 16, .anon_mib = 256,
		.interleave = 3,
		.chunk_kib = 64, .pipes = 1024, .files = 2000, .rounds = 3,
		.dir = "/tmp/fragmenter",
	};
	struct pipe_pair *pp;
	struct rlimit rl;
	unsigned int round;
	int opt;

	while ((opt = getopt(argc, argv, "b:s:m:c:i:p:f:r:d:HR:h")) != -1) {
		switch (opt) {
		case 'b': o.ballast_mib = parse_num(optarg, argv[0]); break;
		case 's': o.spare_mib = parse_num(optarg, argv[0]); break;
		case 'm': o.anon_mib = parse_num(optarg, argv[0]); break;
		case 'c': o.chunk_kib = parse_num(optarg, argv[0]); break;
		case 'i': o.interleave = parse_num(optarg, argv[0]); break;
		case 'p': o.pipes = parse_num(optarg, argv[0]); break;
		case 'f': o.files = parse_num(optarg, argv[0]); break;
		case 'r': o.rounds = parse_num(optarg, argv[0]); break;
		case 'd': o.dir = optarg; break;
		case 'H': o.hold = 1; break;
		case 'R': o.ready_file = optarg; break;
		default: usage(argv[0]);
		}
	}
	if (optind != argc || !o.chunk_kib || o.chunk_kib % 4 || !o.rounds ||
	    !o.anon_mib || o.interleave < 2)
		usage(argv[0]);
	o.floor_mib = 24;
	if (o.ballast_mib < 0) {
		long free_mib = meminfo_kib("MemFree") / 1024 -
				low_watermarks_mib();

		/*
		 * Pipes and files are not counted: they must fit into the
		 * holes (plus the spare), or they would find large free
		 * blocks instead.
		 */
		o.ballast_mib = free_mib - (long)(o.anon_mib + o.spare_mib);
		if (o.ballast_mib < 0)
			o.ballast_mib = 0;
	}

	/* every pipe costs two descriptors */
	rl.rlim_cur = rl.rlim_max = 2UL * o.pipes + 64;
	if (setrlimit(RLIMIT_NOFILE, &rl))
		fprintf(stderr, "fragmenter: setrlimit: %s\n", strerror(errno));
	if (mkdir(o.dir, 0700) && errno != EEXIST) {
		fprintf(stderr, "fragmenter: mkdir %s: %s\n", o.dir,
			strerror(errno));
		return 1;
	}
	pp = calloc(o.pipes ? o.pipes : 1, sizeof(*pp));
	if (!pp)
		return 1;
	signal(SIGTERM, on_signal);
	signal(SIGINT, on_signal);

	if (o.ballast_mib > 0) {
		size_t len = (size_t)o.ballast_mib << 20;
		long long t0 = now_ms();
		char *ballast = mmap(NULL, len, PROT_READ | PROT_WRITE,
				     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (ballast == MAP_FAILED) {
			fprintf(stderr, "fragmenter: ballast mmap: %s\n",
				strerror(errno));
			return 1;
		}
		madvise(ballast, len, MADV_HUGEPAGE);
		touch(ballast, len, 3);
		printf("ballast_mib %ld elapsed_ms %lld\n", o.ballast_mib,
		       now_ms() - t0);
		fflush(stdout);
	}

	for (round = 0; round < o.rounds; round++) {
		size_t chunk = o.chunk_kib * 1024UL;
		size_t len = o.anon_mib << 20;
		size_t nchunks = len / chunk;
		unsigned int npipes, nfiles, i;
		int last = round == o.rounds - 1;
		long long t0 = now_ms();
		char *anon;

		anon = mmap(NULL, len, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (anon == MAP_FAILED) {
			fprintf(stderr, "fragmenter: mmap %zu MiB: %s\n",
				len >> 20, strerror(errno));
			return 1;
		}
		/* order-0 faults: a THP would hide the interleaving */
		madvise(anon, len, MADV_NOHUGEPAGE);
		touch(anon, len, 1);
		for (i = 0; i < nchunks; i += o.interleave)
			madvise(anon + i * chunk, chunk, MADV_DONTNEED);

		/* files first: the pipes then take what is left to the floor */
		nfiles = make_files(&o, round);
		npipes = open_pipes(&o, pp);

		madvise(anon, len, MADV_DONTNEED);
		for (i = 0; i < npipes; i += 2)
			close_pipe(&pp[i]);
		remove_files(o.dir, round, nfiles, 0, 2);

		printf("round %u anon_mib %lu chunk_kib %lu interleave %u pipes %u files %u elapsed_ms %lld\n",
		       round, o.anon_mib, o.chunk_kib, o.interleave, npipes,
		       nfiles, now_ms() - t0);
		fflush(stdout);

		if (last && o.hold) {
			if (o.ready_file)
				close(open(o.ready_file, O_CREAT | O_WRONLY,
					   0600));
			printf("holding\n");
			fflush(stdout);
			while (!stop_holding)
				pause();
		}
		munmap(anon, len);
		for (i = 1; i < npipes; i += 2)
			close_pipe(&pp[i]);
		remove_files(o.dir, round, nfiles, 1, 2);
	}
	rmdir(o.dir);
	return 0;
}
