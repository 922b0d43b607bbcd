// SPDX-License-Identifier: GPL-2.0
/*
 * iterate.c - the bare-library peer of fragview's reader: open a capture
 * the way fragview does and let libtracecmd hand over every record, in
 * time order, without decoding any of them.  Whatever fragview spends
 * above this is fragview's; below it, only a different library could go.
 *
 *   iterate FILE            prints "records N"
 *   iterate --by-event FILE prints "NAME COUNT" per event (event-counts)
 *
 * With FRAGVIEW_STATS set, prints "iterate: maxrss N KiB, cpu N ms" to
 * stderr at the end, as fragview does for its processes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include <trace-cmd.h>
#include <event-parse.h>

static int count(struct tracecmd_input *h, struct tep_record *rec, int cpu,
		 void *data)
{
	(void)h;
	(void)rec;
	(void)cpu;
	++*(unsigned long long *)data;
	return 0;
}

static unsigned long long *per_id;

static int count_id(struct tracecmd_input *h, struct tep_record *rec, int cpu,
		    void *data)
{
	int id = tep_data_type(tracecmd_get_tep(h), rec);

	(void)cpu;
	(void)data;
	if (id >= 0 && id < 65536)
		per_id[id]++;
	return 0;
}

int main(int argc, char **argv)
{
	struct tracecmd_input *h;
	unsigned long long n = 0;
	bool by_event = argc == 3 && !strcmp(argv[1], "--by-event");
	const char *path = argv[argc - 1];

	if (argc != 2 && !by_event) {
		fprintf(stderr, "usage: iterate [--by-event] FILE\n");
		return 2;
	}
	tracecmd_set_loglevel(TEP_LOG_NONE);
	h = tracecmd_open(path, TRACECMD_FL_LOAD_NO_PLUGINS |
			  TRACECMD_FL_LOAD_NO_SYSTEM_PLUGINS);
	if (!h) {
		fprintf(stderr, "iterate: %s: cannot open\n", path);
		return 1;
	}
	if (by_event) {
		struct tep_handle *tep = tracecmd_get_tep(h);

		per_id = calloc(65536, sizeof(*per_id));
		if (!per_id ||
		    tracecmd_iterate_events(h, NULL, 0, count_id, NULL) < 0)
			return 1;
		for (int id = 0; id < 65536; id++) {
			struct tep_event *ev;

			if (!per_id[id])
				continue;
			ev = tep_find_event(tep, id);
			printf("%s %llu\n", ev ? ev->name : "unknown", per_id[id]);
		}
	} else {
		if (tracecmd_iterate_events(h, NULL, 0, count, &n) < 0)
			return 1;
		printf("records %llu\n", n);
	}
	if (getenv("FRAGVIEW_STATS")) {
		struct rusage ru;

		getrusage(RUSAGE_SELF, &ru);
		fprintf(stderr, "iterate: maxrss %ld KiB, cpu %.3f ms\n", ru.ru_maxrss,
			(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e3 +
			(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e3);
	}
	/* no tracecmd_close(), as fragview's reader: exit frees it all */
	return 0;
}
