// SPDX-License-Identifier: GPL-2.0
/* util.c - errors, allocation, and output that never fails silently. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util.h"

static void vmsg(const char *fmt, va_list ap)
{
	fputs("fragview: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(fmt, ap);
	va_end(ap);
	exit(EXIT_NO_OUTPUT);
}

void warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(fmt, ap);
	va_end(ap);
}

void usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fputs("fragview: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, " (see 'fragview %s%s--help')\n",
		cmd ? cmd : "", cmd ? " " : "");
	exit(EXIT_USAGE);
}

void *xmalloc(size_t size)
{
	void *p = malloc(size ? size : 1);

	if (!p)
		die("out of memory");
	return p;
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (!p)
		die("out of memory");
	return p;
}

void *xrealloc(void *p, size_t size)
{
	p = realloc(p, size ? size : 1);
	if (!p)
		die("out of memory");
	return p;
}

char *xstrdup(const char *s)
{
	char *p = strdup(s);

	if (!p)
		die("out of memory");
	return p;
}

/*
 * Special files (/dev/null, /dev/full, a fifo) cannot be replaced by a
 * rename; write to them directly, the close still checks every write.
 */
static bool is_special(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && !S_ISREG(st.st_mode);
}

/*
 * The file a write to path lands in: path with its symbolic links
 * followed (one that dangles still names where its target would be),
 * so -o through a link updates the target and keeps the link.
 */
static char *link_target(const char *path)
{
	char *cur = xstrdup(path);

	for (int depth = 0; depth < 40; depth++) {
		char buf[4096], *next;
		const char *slash;
		ssize_t n = readlink(cur, buf, sizeof(buf) - 1);

		if (n < 0)
			return cur;	/* not a link (or not there) */
		buf[n] = 0;
		slash = strrchr(cur, '/');
		if (buf[0] == '/' || !slash)
			next = xstrdup(buf);
		else if (asprintf(&next, "%.*s%s", (int)(slash - cur + 1), cur,
				  buf) < 0)
			die("out of memory");
		free(cur);
		cur = next;
	}
	return cur;			/* a loop: the open fails with ELOOP */
}

int out_open(struct out *o, const char *path)
{
	const char *slash;
	struct stat st;
	bool exists;
	int fd;

	memset(o, 0, sizeof(*o));
	if (!path || !strcmp(path, "-")) {
		o->f = stdout;
		return 0;
	}
	o->path = link_target(path);
	if (is_special(o->path)) {
		o->f = fopen(o->path, "w");
		if (!o->f) {
			warn("%s: %s", path, strerror(errno));
			free(o->path);
			return -1;
		}
		return 0;
	}
	exists = stat(o->path, &st) == 0;
	/* a rename would cut a hard-linked file off its other names */
	o->in_place = exists && st.st_nlink > 1;
	slash = strrchr(o->path, '/');
	if (asprintf(&o->tmp, "%.*s.fragview-XXXXXX",
		     (int)(slash ? slash - o->path + 1 : 0), o->path) < 0)
		die("out of memory");
	fd = mkstemp(o->tmp);
	if (fd >= 0)
		o->f = fdopen(fd, "w");
	if (fd < 0 || !o->f) {
		warn("%s: cannot write: %s", path, strerror(errno));
		if (fd >= 0) {
			close(fd);
			unlink(o->tmp);
		}
		free(o->tmp);
		free(o->path);
		return -1;
	}
	if (exists) {
		/* the file it replaces keeps its mode (and owner, if we may) */
		if (fchown(fd, st.st_uid, st.st_gid))
			errno = 0;
		fchmod(fd, st.st_mode & 07777);
	} else {
		/* mkstemp makes 0600; new files get the usual umask'd 0666 */
		mode_t mask = umask(0);

		umask(mask);
		fchmod(fd, 0666 & ~mask);
	}
	return 0;
}

/*
 * A hard-linked target: the finished temporary file copied over it, in
 * place.  Not atomic, but only once the whole output is there; the
 * temporary file goes.  Returns 0 or an errno.
 */
static int copy_in_place(const char *tmp, const char *path)
{
	char buf[65536];
	int in = open(tmp, O_RDONLY), out = -1, err = 0;
	ssize_t n;

	if (in >= 0)
		out = open(path, O_WRONLY | O_TRUNC);
	if (in < 0 || out < 0)
		err = errno;
	while (!err && (n = read(in, buf, sizeof(buf))) != 0) {
		if (n < 0 || write(out, buf, n) != n)
			err = n < 0 || errno ? errno : EIO;
	}
	if (out >= 0 && (fsync(out) || close(out)) && !err)
		err = errno;
	if (in >= 0)
		close(in);
	unlink(tmp);
	return err;
}

void out_abort(struct out *o)
{
	if (o->f && o->f != stdout)
		fclose(o->f);
	if (o->tmp)
		unlink(o->tmp);
	free(o->tmp);
	free(o->path);
	memset(o, 0, sizeof(*o));
}

int out_close(struct out *o)
{
	const char *name = o->path ? o->path : "standard output";
	int err = 0;

	errno = 0;
	if (fflush(o->f) || ferror(o->f))
		err = errno ? errno : EIO;
	if (o->f != stdout) {
		if (!err && o->tmp && fsync(fileno(o->f)))
			err = errno;
		if (fclose(o->f) && !err)
			err = errno ? errno : EIO;
	}
	o->f = NULL;
	if (!err && o->tmp && o->in_place)
		err = copy_in_place(o->tmp, o->path);
	else if (!err && o->tmp && rename(o->tmp, o->path))
		err = errno;
	if (err) {
		warn("%s: write failed: %s", name, strerror(err));
		out_abort(o);
		return -1;
	}
	free(o->tmp);
	free(o->path);
	memset(o, 0, sizeof(*o));
	return 0;
}
