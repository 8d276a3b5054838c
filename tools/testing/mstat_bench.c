// SPDX-License-Identifier: GPL-2.0
/*
 * mstat_bench - cost of one write section of the userspace-built core,
 * next to the floor: an unsynchronized per-CPU update of the same fields
 * (the same unlocked add instructions, no sequence word, no slot choice).
 *
 * Usage: mstat_bench [--threads N] [--iters N] [--reader-hz HZ]
 * Prints ns per event (median and p99 over batches) for each variant.
 */
#include <getopt.h>
#include <time.h>
#include <unistd.h>

#include "../../mstat_core/mstat_core.h"

/* The fields an allocation event updates in the module (mstat_count_alloc). */
struct bench_stats {
	u64 allocs, bytes_req, bytes_alloc;
	u64 cls_allocs, cls_req, cls_alloc;
	u64 ctx_allocs, gfp;
};

static struct mstat_core core;
static struct bench_stats __percpu *floor_stats;
static long iters = 2000000;
static int nr_threads = 1, reader_hz;
static volatile int stop_reader;

#define BATCH 1000

static __attribute__((noinline)) void event_floor(u64 size)
{
	this_cpu_add(floor_stats->allocs, 1);
	this_cpu_add(floor_stats->bytes_req, size);
	this_cpu_add(floor_stats->bytes_alloc, size + 8);
	this_cpu_add(floor_stats->cls_allocs, 1);
	this_cpu_add(floor_stats->cls_req, size);
	this_cpu_add(floor_stats->cls_alloc, size + 8);
	this_cpu_add(floor_stats->ctx_allocs, 1);
	this_cpu_add(floor_stats->gfp, 1);
}

#define BADD(f, v) mstat_add(&s, struct bench_stats, f, v)

static __attribute__((noinline)) void event_mstat(u64 size)
{
	struct mstat_section s;

	__mstat_write_begin(&core, &s);
	BADD(allocs, 1);
	BADD(bytes_req, size);
	BADD(bytes_alloc, size + 8);
	BADD(cls_allocs, 1);
	BADD(cls_req, size);
	BADD(cls_alloc, size + 8);
	BADD(ctx_allocs, 1);
	BADD(gfp, 1);
	__mstat_write_end(&core, &s);
}

struct run {
	void (*fn)(u64);
	int cpu;
	double *ns;	/* per batch */
	pthread_t t;
};

static void *bench_thread(void *arg)
{
	struct run *r = arg;
	long b, i, nb = iters / BATCH;
	u64 t0;

	shim_cpu = r->cpu;
	for (b = 0; b < nb; b++) {
		t0 = ktime_get_ns();
		for (i = 0; i < BATCH; i++)
			r->fn(i & 255);
		r->ns[b] = (double)(ktime_get_ns() - t0) / BATCH;
	}
	return NULL;
}

static void *reader_thread(void *arg)
{
	struct bench_stats st;
	struct mstat_snapshot snap;
	struct timespec ts = { 0, reader_hz ? 1000000000L / reader_hz : 0 };

	while (!stop_reader) {
		mstat_read(&core, &snap, &st);
		if (reader_hz)
			nanosleep(&ts, NULL);
	}
	return NULL;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static void bench(const char *name, void (*fn)(u64))
{
	long nb = iters / BATCH, n = nb * nr_threads;
	struct run *r = calloc(nr_threads, sizeof(*r));
	double *all = calloc(n, sizeof(double));
	pthread_t reader;
	int t;

	stop_reader = 0;
	if (fn == event_mstat && reader_hz)
		pthread_create(&reader, NULL, reader_thread, NULL);
	for (t = 0; t < nr_threads; t++) {
		r[t].fn = fn;
		r[t].cpu = t;
		r[t].ns = all + t * nb;
		pthread_create(&r[t].t, NULL, bench_thread, &r[t]);
	}
	for (t = 0; t < nr_threads; t++)
		pthread_join(r[t].t, NULL);
	if (fn == event_mstat && reader_hz) {
		stop_reader = 1;
		pthread_join(reader, NULL);
	}
	qsort(all, n, sizeof(double), cmp_double);
	printf("%-8s threads=%d reader_hz=%d ns_per_event median=%.2f p99=%.2f\n",
	       name, nr_threads, fn == event_mstat ? reader_hz : 0,
	       all[n / 2], all[n * 99 / 100]);
	free(all);
	free(r);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "threads", required_argument, NULL, 't' },
		{ "iters", required_argument, NULL, 'i' },
		{ "reader-hz", required_argument, NULL, 'r' },
		{ "only", required_argument, NULL, 'o' },
		{ }
	};
	const char *only = NULL;
	int c;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 't':
			nr_threads = atoi(optarg);
			break;
		case 'i':
			iters = atol(optarg);
			break;
		case 'r':
			reader_hz = atoi(optarg);
			break;
		case 'o':
			only = optarg;
			break;
		default:
			return 2;
		}
	}
	if (nr_threads < 1 || nr_threads > SHIM_MAX_CPUS || iters < BATCH)
		return 2;
	shim_init(nr_threads);
	floor_stats = __alloc_percpu(sizeof(*floor_stats), 8);
	if (mstat_core_init(&core, sizeof(struct bench_stats)))
		return 2;
	if (!only || !strcmp(only, "floor"))
		bench("floor", event_floor);
	if (!only || !strcmp(only, "mstat"))
		bench("mstat", event_mstat);
	return 0;
}
