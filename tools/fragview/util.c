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

int out_open(struct out *o, const char *path)
{
	const char *slash;
	int fd;

	memset(o, 0, sizeof(*o));
	if (!path || !strcmp(path, "-")) {
		o->f = stdout;
		return 0;
	}
	o->path = xstrdup(path);
	if (is_special(path)) {
		o->f = fopen(path, "w");
		if (!o->f) {
			warn("%s: %s", path, strerror(errno));
			free(o->path);
			return -1;
		}
		return 0;
	}
	slash = strrchr(path, '/');
	if (asprintf(&o->tmp, "%.*s.fragview-XXXXXX",
		     (int)(slash ? slash - path + 1 : 0), path) < 0)
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
	/* mkstemp makes 0600; output files get the usual umask'd 0666 */
	{
		mode_t mask = umask(0);

		umask(mask);
		fchmod(fd, 0666 & ~mask);
	}
	return 0;
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
	if (!err && o->tmp && rename(o->tmp, o->path))
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
