// SPDX-License-Identifier: GPL-2.0
/* test_util.c - checked output, option values, the reader's wire format. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../opts.h"
#include "../rowidx.h"
#include "../util.h"
#include "../wire.h"
#include "test.h"

static char dir[] = "/tmp/fv-test-XXXXXX";

static char *slurp(const char *path)
{
	static char buf[256];
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return NULL;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

static size_t entries(void)
{
	char cmd[128];
	FILE *p;
	size_t n = 0;
	int c;

	snprintf(cmd, sizeof(cmd), "ls -A %s", dir);
	p = popen(cmd, "r");
	while ((c = fgetc(p)) != EOF)
		n += c == '\n';
	pclose(p);
	return n;
}

static void test_out_dev_full(void)
{
	struct out o;

	/* the error shows at the flush, not at the printf */
	CHECK_EQ(out_open(&o, "/dev/full"), 0);
	fprintf(o.f, "hello\n");
	CHECK_EQ(out_close(&o), -1);
}

static void test_out_atomic(void)
{
	char path[64];
	struct out o;

	snprintf(path, sizeof(path), "%s/out.txt", dir);
	CHECK_EQ(out_open(&o, path), 0);
	fprintf(o.f, "first\n");
	/* nothing visible under the final name before the close */
	CHECK(access(path, F_OK) != 0);
	CHECK_EQ(out_close(&o), 0);
	CHECK(!strcmp(slurp(path), "first\n"));

	/* a failed run leaves the old file and no temporary */
	CHECK_EQ(out_open(&o, path), 0);
	fprintf(o.f, "second, half written");
	out_abort(&o);
	CHECK(!strcmp(slurp(path), "first\n"));
	CHECK_EQ(entries(), 1);
}

/* path in the scratch directory, one of four static buffers */
static const char *in_dir(const char *name)
{
	static char buf[4][64];
	static int k;

	k = (k + 1) % 4;
	snprintf(buf[k], sizeof(buf[k]), "%s/%s", dir, name);
	return buf[k];
}

static int write_out(const char *path, const char *text)
{
	struct out o;

	if (out_open(&o, path))
		return -1;
	fputs(text, o.f);
	return out_close(&o);
}

/*
 * -o over an existing file: its mode stays, a symbolic link stays a
 * link to the updated target, a hard link keeps both names on the one
 * file; a new file gets 0666 less the umask.
 */
static void test_out_keeps_file(void)
{
	const char *priv = in_dir("private.txt"), *sym = in_dir("link.txt");
	const char *hard = in_dir("hard.txt"), *fresh = in_dir("new.txt");
	mode_t mask = umask(022);
	struct stat st;

	CHECK_EQ(write_out(priv, "one\n"), 0);
	CHECK_EQ(chmod(priv, 0600), 0);
	CHECK_EQ(write_out(priv, "two\n"), 0);
	CHECK(stat(priv, &st) == 0 && (st.st_mode & 07777) == 0600);

	CHECK_EQ(symlink("private.txt", sym), 0);
	CHECK_EQ(write_out(sym, "three\n"), 0);
	CHECK(lstat(sym, &st) == 0 && S_ISLNK(st.st_mode));
	CHECK(!strcmp(slurp(priv), "three\n"));
	CHECK(stat(priv, &st) == 0 && (st.st_mode & 07777) == 0600);

	CHECK_EQ(link(priv, hard), 0);
	CHECK_EQ(write_out(hard, "four\n"), 0);
	CHECK(!strcmp(slurp(priv), "four\n"));
	CHECK(stat(hard, &st) == 0 && st.st_nlink == 2);

	CHECK_EQ(write_out(fresh, "five\n"), 0);
	CHECK(stat(fresh, &st) == 0 && (st.st_mode & 07777) == 0644);
	umask(mask);
	CHECK_EQ(entries(), 5);	/* out.txt and these four: no temporary */
	unlink(priv);
	unlink(sym);
	unlink(hard);
	unlink(fresh);
}

static void test_out_unwritable(void)
{
	struct out o;

	CHECK_EQ(out_open(&o, "/nonexistent-dir/x"), -1);
}

static void test_parse_time(void)
{
	uint64_t ns;
	bool rel;

	CHECK_EQ(parse_time("1234.567890", &ns, &rel), 0);
	CHECK_EQ(ns, 1234567890000ULL);
	CHECK(!rel);
	CHECK_EQ(parse_time("+2.5", &ns, &rel), 0);
	CHECK_EQ(ns, 2500000000ULL);
	CHECK(rel);
	CHECK_EQ(parse_time("0.1234567891", &ns, &rel), 0);	/* ns: cut */
	CHECK_EQ(ns, 123456789);
	CHECK_EQ(parse_time("7", &ns, &rel), 0);
	CHECK_EQ(ns, 7000000000ULL);
	CHECK_EQ(parse_time(".5", &ns, &rel), 0);
	CHECK_EQ(ns, 500000000);
	CHECK_EQ(parse_time("", &ns, &rel), -1);
	CHECK_EQ(parse_time(".", &ns, &rel), -1);
	CHECK_EQ(parse_time("+", &ns, &rel), -1);
	CHECK_EQ(parse_time("1.2.3", &ns, &rel), -1);
	CHECK_EQ(parse_time("-1", &ns, &rel), -1);
	CHECK_EQ(parse_time("1e3", &ns, &rel), -1);
	CHECK_EQ(parse_time("99999999999999999999", &ns, &rel), -1);
	CHECK_EQ(parse_time("18446744073", &ns, &rel), -1);	/* > 2^64 ns */
	/* a relative time beyond 2^63 ns could wrap when added */
	CHECK_EQ(parse_time("+9223372036.854775808", &ns, &rel), -1);
	CHECK_EQ(parse_time("+9223372036.854775807", &ns, &rel), 0);
	CHECK_EQ(ns, 9223372036854775807ULL);
}

static void test_parse_zone(void)
{
	int nid, zone;

	CHECK_EQ(parse_zone("0/Normal", &nid, &zone), 0);
	CHECK(nid == 0 && zone == FV_ZONE_NORMAL);
	CHECK_EQ(parse_zone("DMA32", &nid, &zone), 0);
	CHECK(nid == -1 && zone == FV_ZONE_DMA32);
	CHECK_EQ(parse_zone("12/movable", &nid, &zone), 0);
	CHECK(nid == 12 && zone == FV_ZONE_MOVABLE);
	CHECK_EQ(parse_zone("/Normal", &nid, &zone), -1);
	CHECK_EQ(parse_zone("x/Normal", &nid, &zone), -1);
	CHECK_EQ(parse_zone("0/", &nid, &zone), -1);
	CHECK_EQ(parse_zone("0/Highmem", &nid, &zone), -1);
	CHECK_EQ(parse_zone("-1/Normal", &nid, &zone), -1);
}

/* ---- wire ---- */

static uint8_t stream[4096];
static size_t stream_len;

static void put(uint32_t tag, const void *p, uint32_t len)
{
	struct wire_hdr h = { tag, len };

	memcpy(stream + stream_len, &h, sizeof(h));
	memcpy(stream + stream_len + sizeof(h), p, len);
	stream_len += sizeof(h) + len;
}

static int nr_events, nr_warn, nr_end;
static uint64_t last_ts;
static struct fv_event last_ev;

static int on_event(const struct fv_event *ev, void *ctx)
{
	(void)ctx;
	nr_events++;
	last_ts = ev->ts;
	last_ev = *ev;
	return 0;
}

static void on_text(bool error, const char *msg, void *ctx)
{
	(void)ctx;
	(void)error;
	nr_warn += !strcmp(msg, "a warning here");
}

static void on_end(const struct wire_end *e, void *ctx)
{
	(void)ctx;
	nr_end += e->nr_records == 42;
}

static const struct wire_sink sink = {
	.event = on_event, .text = on_text, .end = on_end,
};

static void test_wire_roundtrip(void)
{
	struct wire_hello hello = { .version = WIRE_VERSION, .have = 3 };
	struct fv_event ev[3] = { { .ts = 1 }, { .ts = 2 }, { .ts = 3 } };
	struct wire_end end = { .nr_records = 42 };
	struct wire_state st = { 0 };
	char err[128];
	ssize_t used;
	size_t off = 0;

	stream_len = 0;
	put(WIRE_WARN, "a warning\nhere", 14);
	put(WIRE_HELLO, &hello, sizeof(hello));
	put(WIRE_EVENTS, ev, sizeof(ev));
	put(WIRE_END, &end, sizeof(end));
	nr_events = nr_warn = nr_end = 0;
	/* fed in 7-byte dribbles, as a pipe may deliver it */
	for (size_t have = 0; have < stream_len;) {
		have = have + 7 < stream_len ? have + 7 : stream_len;
		used = wire_decode(stream + off, have - off, &sink, &st, err,
				   sizeof(err));
		CHECK(used >= 0);
		if (used < 0)
			return;
		off += used;
	}
	CHECK_EQ(off, stream_len);
	CHECK_EQ(nr_events, 3);
	CHECK_EQ(last_ts, 3);
	CHECK_EQ(nr_warn, 1);	/* newline turned into a space */
	CHECK_EQ(nr_end, 1);
}

/* One event through the stream, as the parent gets it. */
static struct fv_event wire_one(const struct fv_event *ev)
{
	struct wire_hello hello = { .version = WIRE_VERSION, .have = 3 };
	struct wire_state st = { 0 };
	char err[128];

	stream_len = 0;
	put(WIRE_HELLO, &hello, sizeof(hello));
	put(WIRE_EVENTS, ev, sizeof(*ev));
	memset(&last_ev, 0xa5, sizeof(last_ev));
	CHECK_EQ(wire_decode(stream, stream_len, &sink, &st, err, sizeof(err)),
		 (ssize_t)stream_len);
	return last_ev;
}

/*
 * The stream changes nothing but a steal's bool: a compaction run of pid
 * 599 (0x257, whose second byte shares the bool's place) stays 599.
 */
static void test_wire_keeps_fields(void)
{
	struct fv_event run = { .ts = 5, .kind = FV_EV_CBEGIN }, steal, got;
	uint8_t two = 2;

	run.crun.pid = 599;
	run.crun.sync = 1;
	got = wire_one(&run);
	CHECK_EQ(got.crun.pid, 599);
	CHECK(!memcmp(&got, &run, sizeof(run)));
	memset(&steal, 0, sizeof(steal));
	steal.kind = FV_EV_STEAL;
	steal.steal.pid = 599;
	memcpy(&steal.steal.claimed, &two, 1);
	memcpy(&steal.steal.declined, &two, 1);
	got = wire_one(&steal);
	CHECK_EQ(got.steal.claimed, true);
	CHECK_EQ(got.steal.declined, true);
	CHECK_EQ(got.steal.pid, 599);
	/* a pageblock_steal without taken (0 bytes): taken, a steal */
	memset(&steal.steal.declined, 0, 1);
	got = wire_one(&steal);
	CHECK(fv_ev_is_steal(&got) && !fv_ev_is_declined(&got));
}

static void test_wire_rejects(void)
{
	struct wire_hello hello = { .version = WIRE_VERSION };
	struct fv_event ev = { .kind = FV_EV_NR };
	struct wire_state st;
	char err[128];

	/* events before the hello */
	stream_len = 0;
	put(WIRE_EVENTS, &ev, sizeof(ev));
	st = (struct wire_state){ 0 };
	CHECK_EQ(wire_decode(stream, stream_len, &sink, &st, err, sizeof(err)), -1);
	/* an unknown event kind */
	stream_len = 0;
	put(WIRE_HELLO, &hello, sizeof(hello));
	put(WIRE_EVENTS, &ev, sizeof(ev));
	st = (struct wire_state){ 0 };
	CHECK_EQ(wire_decode(stream, stream_len, &sink, &st, err, sizeof(err)), -1);
	CHECK(!strcmp(err, "reader stream corrupt: unknown event kind"));
	/* a partial event */
	stream_len = 0;
	put(WIRE_HELLO, &hello, sizeof(hello));
	put(WIRE_EVENTS, &ev, sizeof(ev) - 1);
	st = (struct wire_state){ 0 };
	CHECK_EQ(wire_decode(stream, stream_len, &sink, &st, err, sizeof(err)), -1);
	/* a huge length is refused at once, not waited for */
	stream_len = 0;
	put(WIRE_HELLO, &hello, sizeof(hello));
	{
		struct wire_hdr h = { WIRE_EVENTS, 0xffffffff };

		memcpy(stream + stream_len, &h, sizeof(h));
		stream_len += sizeof(h);
	}
	st = (struct wire_state){ 0 };
	CHECK_EQ(wire_decode(stream, stream_len, &sink, &st, err, sizeof(err)), -1);
	CHECK(!strcmp(err, "reader stream corrupt: message too long"));
}

struct key_row {
	uint32_t key, hits;
};

static uint64_t key_hash(const void *row)
{
	return ((const struct key_row *)row)->key;
}

static uint64_t same_hash(const void *row)
{
	(void)row;
	return 42;
}

static bool key_same(const void *row, const void *key_row)
{
	return ((const struct key_row *)row)->key ==
	       ((const struct key_row *)key_row)->key;
}

/*
 * n rows added then each found again: slots looked at per row.  With a
 * hash that tells the keys apart a few, with one that does not (the
 * linear search the index replaces) about n / 2.
 */
static uint64_t rowidx_probes(uint64_t (*hash)(const void *), uint32_t n)
{
	const struct fv_rowidx_ops ops = {
		.size = sizeof(struct key_row), .hash = hash, .same = key_same,
	};
	struct key_row *rows = calloc(n, sizeof(*rows));
	struct fv_rowidx x = { 0 };
	uint64_t probes;

	for (uint32_t k = 0; k < n; k++) {
		struct key_row want = { .key = k * 2654435761u };

		CHECK_EQ(fv_rowidx_find(&x, rows, &want, &ops), -1);
		rows[k] = want;
		fv_rowidx_add(&x, rows, k + 1, &ops);
	}
	for (uint32_t k = 0; k < n; k++) {
		struct key_row want = { .key = k * 2654435761u };

		CHECK_EQ(fv_rowidx_find(&x, rows, &want, &ops), k);
	}
	probes = x.probes;
	fv_rowidx_free(&x);
	free(rows);
	return probes / n;
}

static void test_rowidx(void)
{
	CHECK(rowidx_probes(key_hash, 20000) <= 16);
	/* the bound fails an index that degenerates into a scan */
	CHECK(rowidx_probes(same_hash, 2000) > 16);
}

int main(void)
{
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	RUN(test_out_dev_full);
	RUN(test_out_atomic);
	RUN(test_out_keeps_file);
	RUN(test_out_unwritable);
	RUN(test_parse_time);
	RUN(test_parse_zone);
	RUN(test_wire_roundtrip);
	RUN(test_wire_keeps_fields);
	RUN(test_wire_rejects);
	RUN(test_rowidx);
	{
		char cmd[64];

		snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
		if (system(cmd))
			return 1;
	}
	return TEST_EXIT();
}
