// SPDX-License-Identifier: GPL-2.0
/*
 * mixload - a mixed load that keeps running: the "under load" of
 * experiment/run.sh, in the spirit of the 2005 test's updatedb and kernel
 * compiles (anonymous memory, page cache, dentries and inodes, pipes,
 * processes coming and going).  Five workers, each its own process:
 *
 *   anon   slots of anonymous memory (4-128 pages each, random); every
 *          step unmaps one slot and maps and touches another of a new size
 *   cache  files of -C KiB in DIR/cache: every step one is read through,
 *          or truncated and written again (page cache, movable).  With
 *          -F it first writes files until MemFree falls to -F MiB, then
 *          deletes randomly chosen ones down to -c MiB: like page cache
 *          filling memory and being dropped, this spreads what the other
 *          workers allocate meanwhile over all of memory
 *   slab   a ring of -n empty files in DIR/slab: every step unlinks the
 *          oldest and creates a new one (dentries, inodes)
 *   pipe   -p pipes: every step fills one with up to 64 KiB and drains
 *          another (pipe buffers, unmovable kernel pages)
 *   fork   forks a child that touches 64 pages and exits, and waits for
 *          it (page tables, kernel stack, task structures)
 *
 * Each worker sleeps -s microseconds after each step, so that the load
 * does not starve whatever is measured beside it.  Once every worker has
 * built its footprint the ready file (-R) is created.  SIGUSR1 prints
 * the steps done so far ("steps anon N cache N slab N pipe N fork N");
 * SIGTERM/SIGINT stops the workers, which free their memory and delete
 * their files, and mixload exits once they are gone.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "parse_num.h"

#define PAGE_SIZE 4096UL
#define PIPE_MAX (64 * 1024)

enum { W_ANON, W_CACHE, W_SLAB, W_PIPE, W_FORK, NR_WORKERS };
static const char *const worker_name[NR_WORKERS] = {
	"anon", "cache", "slab", "pipe", "fork"
};

struct options {
	unsigned long anon_mib;
	unsigned long cache_mib;
	unsigned long file_kib;
	unsigned int slab_files;
	unsigned int pipes;
	unsigned int sleep_us;
	unsigned long fill_floor_mib;
	const char *dir;
	const char *ready;
};

/* shared with the workers: steps done, footprint built */
struct shared {
	volatile unsigned long steps[NR_WORKERS];
	volatile int built[NR_WORKERS];
};

static struct shared *sh;
static volatile sig_atomic_t stop, report;

static void on_stop(int sig)
{
	(void)sig;
	stop = 1;
}

static void on_report(int sig)
{
	(void)sig;
	report = 1;
}

static void die(const char *what)
{
	fprintf(stderr, "mixload: %s: %s\n", what, strerror(errno));
	exit(1);
}

/* xorshift: the workers need cheap, not good, randomness */
static unsigned long rnd_state;

static unsigned long rnd(unsigned long n)
{
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 7;
	rnd_state ^= rnd_state << 17;
	return rnd_state % n;
}

static void pace(const struct options *o)
{
	if (o->sleep_us)
		usleep(o->sleep_us);
}

static void touch(char *p, size_t len)
{
	for (size_t off = 0; off < len; off += PAGE_SIZE)
		p[off] = 1;
}

struct slot {
	char *p;
	size_t len;
};

static void map_slot(struct slot *s)
{
	s->len = (4 + rnd(125)) * PAGE_SIZE;
	s->p = mmap(NULL, s->len, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (s->p == MAP_FAILED)
		die("mmap");
	madvise(s->p, s->len, MADV_NOHUGEPAGE);
	touch(s->p, s->len);
}

static void run_anon(const struct options *o)
{
	/* slots of 66 pages on average */
	unsigned long n = (o->anon_mib << 20) / (66 * PAGE_SIZE);
	struct slot *slots = calloc(n, sizeof(*slots));
	unsigned long i;

	if (!slots)
		die("calloc");
	for (i = 0; i < n && !stop; i++)
		map_slot(&slots[i]);
	sh->built[W_ANON] = 1;
	while (!stop) {
		struct slot *s = &slots[rnd(n)];

		munmap(s->p, s->len);
		map_slot(s);
		sh->steps[W_ANON]++;
		pace(o);
	}
	for (i = 0; i < n; i++)
		if (slots[i].p)
			munmap(slots[i].p, slots[i].len);
}

static void write_file(const char *path, const char *buf, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);

	if (fd < 0)
		die(path);
	if (write(fd, buf, len) != (ssize_t)len) {
		fprintf(stderr, "mixload: %s: short write (%s)\n", path,
			errno ? strerror(errno) : "file system full?");
		exit(1);
	}
	close(fd);
}

static void read_file(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		die(path);
	if (read(fd, buf, len) < 0)
		die("read");
	close(fd);
}

static int others_built(void)
{
	int w;

	for (w = 0; w < NR_WORKERS; w++)
		if (w != W_CACHE && !sh->built[w])
			return 0;
	return 1;
}

static unsigned long mem_free_mib(void)
{
	char line[128];
	unsigned long kib = 0;
	FILE *f = fopen("/proc/meminfo", "r");

	if (!f)
		die("/proc/meminfo");
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "MemFree: %lu", &kib) == 1)
			break;
	fclose(f);
	return kib >> 10;
}

/*
 * Files 0..made-1 exist; keep @n of them, chosen at random, renamed to
 * 0..n-1 so that the steady state picks among those.
 */
static void shrink_cache(const struct options *o, unsigned long made,
			 unsigned long n)
{
	char path[512], to[512];
	unsigned long i;

	while (made > n && !stop) {
		i = rnd(made--);
		snprintf(path, sizeof(path), "%s/cache/%lu", o->dir, i);
		unlink(path);
		if (i == made)
			continue;
		snprintf(to, sizeof(to), "%s/cache/%lu", o->dir, made);
		if (rename(to, path))
			die("rename");
	}
}

static void run_cache(const struct options *o)
{
	size_t len = o->file_kib << 10;
	unsigned long n = (o->cache_mib << 10) / o->file_kib, i;
	char *buf = malloc(len), path[512];

	if (!buf)
		die("malloc");
	memset(buf, 0x5a, len);
	for (i = 0; !stop; i++) {
		/* the fill waits for the others' footprint, then runs
		 * beside their churn */
		while (i == n && o->fill_floor_mib && !others_built() && !stop)
			usleep(100000);
		if (i >= n && (!o->fill_floor_mib ||
			       (i % 16 == 0 && mem_free_mib() < o->fill_floor_mib)))
			break;
		snprintf(path, sizeof(path), "%s/cache/%lu", o->dir, i);
		write_file(path, buf, len);
	}
	shrink_cache(o, i, n);
	sh->built[W_CACHE] = 1;
	while (!stop) {
		snprintf(path, sizeof(path), "%s/cache/%lu", o->dir, rnd(n));
		if (rnd(2))
			read_file(path, buf, len);
		else
			write_file(path, buf, len);
		sh->steps[W_CACHE]++;
		pace(o);
	}
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/cache/%lu", o->dir, i);
		unlink(path);
	}
}

static void make_empty(const char *dir, unsigned long i)
{
	char path[512];
	int fd;

	snprintf(path, sizeof(path), "%s/slab/%lu", dir, i);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd < 0)
		die(path);
	close(fd);
}

static void unlink_empty(const char *dir, unsigned long i)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/slab/%lu", dir, i);
	unlink(path);
}

static void run_slab(const struct options *o)
{
	unsigned long n = o->slab_files, head = 0, tail = 0;

	for (; head < n && !stop; head++)
		make_empty(o->dir, head);
	sh->built[W_SLAB] = 1;
	while (!stop) {
		unlink_empty(o->dir, tail++);
		make_empty(o->dir, head++);
		sh->steps[W_SLAB]++;
		pace(o);
	}
	while (tail < head)
		unlink_empty(o->dir, tail++);
}

static void run_pipe(const struct options *o)
{
	static char buf[PIPE_MAX];
	int (*fds)[2] = calloc(o->pipes, sizeof(*fds));
	unsigned int i;

	if (!fds)
		die("calloc");
	memset(buf, 0xa5, sizeof(buf));
	for (i = 0; i < o->pipes && !stop; i++) {
		if (pipe2(fds[i], O_NONBLOCK))
			die("pipe");
		if (write(fds[i][1], buf, 1 + rnd(PIPE_MAX)) < 0 &&
		    errno != EAGAIN)
			die("pipe write");
	}
	sh->built[W_PIPE] = 1;
	while (!stop) {
		/* a short write is fine: the pipe is full */
		if (write(fds[rnd(o->pipes)][1], buf, 1 + rnd(PIPE_MAX)) < 0 &&
		    errno != EAGAIN)
			die("pipe write");
		if (read(fds[rnd(o->pipes)][0], buf, PIPE_MAX) < 0 &&
		    errno != EAGAIN)
			die("pipe read");
		sh->steps[W_PIPE]++;
		pace(o);
	}
}

static void run_fork(const struct options *o)
{
	sh->built[W_FORK] = 1;
	while (!stop) {
		pid_t pid = fork();

		if (pid < 0)
			die("fork");
		if (pid == 0) {
			char *p = mmap(NULL, 64 * PAGE_SIZE,
				       PROT_READ | PROT_WRITE,
				       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

			if (p != MAP_FAILED)
				touch(p, 64 * PAGE_SIZE);
			_exit(0);
		}
		while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
			;
		sh->steps[W_FORK]++;
		pace(o);
	}
}

static void (*const worker_fn[NR_WORKERS])(const struct options *) = {
	run_anon, run_cache, run_slab, run_pipe, run_fork
};

static void print_steps(void)
{
	int w;

	printf("steps");
	for (w = 0; w < NR_WORKERS; w++)
		printf(" %s %lu", worker_name[w], sh->steps[w]);
	printf("\n");
	fflush(stdout);
}

static int all_built(void)
{
	int w;

	for (w = 0; w < NR_WORKERS; w++)
		if (!sh->built[w])
			return 0;
	return 1;
}

static void make_dir(const char *dir, const char *sub)
{
	char path[512];

	snprintf(path, sizeof(path), "%s%s", dir, sub);
	if (mkdir(path, 0700) && errno != EEXIST)
		die(path);
}

static void rmdir_sub(const char *dir, const char *sub)
{
	char path[512];

	snprintf(path, sizeof(path), "%s%s", dir, sub);
	if (rmdir(path))
		fprintf(stderr, "mixload: rmdir %s: %s\n", path,
			strerror(errno));
}

static void usage(void)
{
	fprintf(stderr,
		"usage: mixload [-a anon_MiB] [-c cache_MiB] [-C file_KiB]\n"
		"       [-n slab_files] [-p pipes] [-s sleep_us] [-d dir]\n"
		"       [-F fill_floor_MiB] [-R ready_file]\n"
		"  defaults: -a 128 -c 64 -C 256 -n 20000 -p 256 -s 1000\n"
		"            -d /dev/shm/mixload\n");
	exit(2);
}

int main(int argc, char **argv)
{
	struct options o = {
		.anon_mib = 128, .cache_mib = 64, .file_kib = 256,
		.slab_files = 20000, .pipes = 256, .sleep_us = 1000,
		.dir = "/dev/shm/mixload",
	};
	struct sigaction sa = { .sa_handler = on_stop };
	pid_t pids[NR_WORKERS];
	int opt, w, ready = 0, status = 0;

	while ((opt = getopt(argc, argv, "a:c:C:n:p:s:d:F:R:")) != -1) {
		switch (opt) {
		case 'a': o.anon_mib = parse_num(optarg, "mixload"); break;
		case 'c': o.cache_mib = parse_num(optarg, "mixload"); break;
		case 'C': o.file_kib = parse_num(optarg, "mixload"); break;
		case 'n': o.slab_files = parse_num(optarg, "mixload"); break;
		case 'p': o.pipes = parse_num(optarg, "mixload"); break;
		case 's': o.sleep_us = parse_num(optarg, "mixload"); break;
		case 'd': o.dir = optarg; break;
		case 'F': o.fill_floor_mib = parse_num(optarg, "mixload"); break;
		case 'R': o.ready = optarg; break;
		default: usage();
		}
	}
	if (optind != argc || !o.anon_mib || !o.cache_mib || !o.file_kib ||
	    o.file_kib > o.cache_mib << 10 || !o.slab_files || !o.pipes)
		usage();

	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED)
		die("mmap");
	make_dir(o.dir, "");
	make_dir(o.dir, "/cache");
	make_dir(o.dir, "/slab");

	/* no SA_RESTART: a signal ends the parent's sleep at once */
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sa.sa_handler = on_report;
	sigaction(SIGUSR1, &sa, NULL);
	for (w = 0; w < NR_WORKERS; w++) {
		pids[w] = fork();
		if (pids[w] < 0)
			die("fork");
		if (pids[w] == 0) {
			signal(SIGUSR1, SIG_IGN);
			rnd_state = 0x9e3779b97f4a7c15UL ^ (getpid() * 2654435761UL);
			worker_fn[w](&o);
			_exit(0);
		}
	}

	while (!stop) {
		pid_t dead = waitpid(-1, NULL, WNOHANG);

		if (dead > 0) {
			fprintf(stderr, "mixload: a worker (pid %d) died\n",
				(int)dead);
			status = 1;
			break;
		}
		if (report) {
			report = 0;
			print_steps();
		}
		if (!ready && all_built()) {
			ready = 1;
			if (o.ready) {
				FILE *f = fopen(o.ready, "w");

				if (!f || fclose(f))
					die(o.ready);
			}
		}
		usleep(100000);
	}
	for (w = 0; w < NR_WORKERS; w++)
		kill(pids[w], SIGTERM);
	while (wait(NULL) > 0 || errno == EINTR)
		;
	print_steps();
	rmdir_sub(o.dir, "/cache");
	rmdir_sub(o.dir, "/slab");
	rmdir_sub(o.dir, "");
	return status;
}
