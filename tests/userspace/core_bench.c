// SPDX-License-Identifier: GPL-2.0
/*
 * core_bench - cost of one allocation event's counter updates (8 u64
 * counters) in the userspace build, for each way of keeping them:
 *
 *  floor	unsynchronized per-CPU adds (unlocked add, as this_cpu_add)
 *  atomic	one global struct, locked atomic adds
 *  seqcount	per-CPU seqcount bracket (u64_stats style: seq++, adds, seq++)
 *  irqoff	per-CPU adds inside pushf/popf, the flags save/restore of
 *		local_irq_save() (cli itself is not allowed in user mode)
 *  golit	Go's scheme ported literally: per-CPU sequence with a locked
 *		atomic add, three shared slots updated with atomic adds
 *  mstat	mstat_core's write section (its preempt_disable() an add to
 *		a per-thread count, as the kernel's to a per-CPU one: this
 *		build has no RCU model, so its reader runs in IPI mode)
 *
 * Usage: core_bench [--threads N] [--iters N] [--reader-hz HZ (-1: spin)]
 *		      [--only NAME] [--reader-lat CPUS]
 * Prints ns per event (median and p99 over batches of 1000).
 * --reader-lat N times mstat_read() in IPI mode with N simulated CPUs
 * instead.
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
static int nr_threads = 1, reader_hz, reader_lat;
static volatile int stop_reader;

#define BATCH 1000
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

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

/* One global struct, shared by all threads. */
static struct bench_stats atomic_stats;

static __attribute__((noinline)) void event_atomic(u64 size)
{
	__atomic_fetch_add(&atomic_stats.allocs, 1, __ATOMIC_RELAXED);
	__atomic_fetch_add(&atomic_stats.bytes_req, size, __ATOMIC_RELAXED);
	__atomic_fetch_add(&atomic_stats.bytes_alloc, size + 8, __ATOMIC_RELAXED);
	__atomic_fetch_add(&atomic_stats.cls_allocs, 1, __ATOMIC_RELAXED);
	__atomic_fetch_add(&atomic_stats.cls_req, size, __ATOMIC_RELAXED);
	__atomic_fetch_add(&atomic_stats.cls_alloc, size + 8, __ATOMIC_RELAXED);
	__atomic_fetch_add(&atomic_stats.ctx_allocs, 1, __ATOMIC_RELAXED);
	__atomic_fetch_add(&atomic_stats.gfp, 1, __ATOMIC_RELAXED);
}

struct seq_stats {
	unsigned long seq;
	struct bench_stats st;
};
static struct seq_stats __percpu *seq_stats;

static __attribute__((noinline)) void event_seqcount(u64 size)
{
	struct seq_stats *p = this_cpu_ptr(seq_stats);

	WRITE_ONCE(p->seq, p->seq + 1);
	barrier();	/* orders seq before the adds (smp_wmb, on x86) */
	this_cpu_add(seq_stats->st.allocs, 1);
	this_cpu_add(seq_stats->st.bytes_req, size);
	this_cpu_add(seq_stats->st.bytes_alloc, size + 8);
	this_cpu_add(seq_stats->st.cls_allocs, 1);
	this_cpu_add(seq_stats->st.cls_req, size);
	this_cpu_add(seq_stats->st.cls_alloc, size + 8);
	this_cpu_add(seq_stats->st.ctx_allocs, 1);
	this_cpu_add(seq_stats->st.gfp, 1);
	barrier();
	WRITE_ONCE(p->seq, p->seq + 1);
}

static __attribute__((noinline)) void event_irqoff(u64 size)
{
	unsigned long flags;

	__asm__ __volatile__("pushf; pop %0" : "=rm" (flags) : : "memory");
	event_floor(size);
	__asm__ __volatile__("push %0; popf" : : "g" (flags) : "memory", "cc");
}

/* Go's consistentHeapStats, literally: shared slots, atomic everything. */
static struct bench_stats golit_slot[3];
static unsigned int golit_gen;
static unsigned long __percpu *golit_seq;

static __attribute__((noinline)) void event_golit(u64 size)
{
	unsigned long *seq = this_cpu_ptr(golit_seq);
	struct bench_stats *d;

	__atomic_fetch_add(seq, 1, __ATOMIC_SEQ_CST);
	d = &golit_slot[__atomic_load_n(&golit_gen, __ATOMIC_SEQ_CST)];
	__atomic_fetch_add(&d->allocs, 1, __ATOMIC_RELAXED);
	__atomic_fetch_add(&d->bytes_req, size, __ATOMIC_RELAXED);
	__atomic_fetch_add(&d->bytes_alloc, size + 8, __ATOMIC_RELAXED);
	__atomic_fetch_add(&d->cls_allocs, 1, __ATOMIC_RELAXED);
	__atomic_fetch_add(&d->cls_req, size, __ATOMIC_RELAXED);
	__atomic_fetch_add(&d->cls_alloc, size + 8, __ATOMIC_RELAXED);
	__atomic_fetch_add(&d->ctx_allocs, 1, __ATOMIC_RELAXED);
	__atomic_fetch_add(&d->gfp, 1, __ATOMIC_RELAXED);
	__atomic_fetch_add(seq, 1, __ATOMIC_SEQ_CST);
}

#define BADD(f, v) mstat_add(&s, struct bench_stats, f, v)

static __attribute__((noinline)) void event_mstat(u64 size)
{
	struct mstat_section s;

	mstat_write_begin(&core, &s);
	BADD(allocs, 1);
	BADD(bytes_req, size);
	BADD(bytes_alloc, size + 8);
	BADD(cls_allocs, 1);
	BADD(cls_req, size);
	BADD(cls_alloc, size + 8);
	BADD(ctx_allocs, 1);
	BADD(gfp, 1);
	mstat_write_end(&core, &s);
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
	struct timespec ts = { 0, reader_hz > 0 ? 1000000000L / reader_hz : 0 };

	while (!stop_reader) {
		mstat_read(&core, &snap, &st);
		if (reader_hz > 0)
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

static const struct {
	const char *name;
	void (*fn)(u64);
} variants[] = {
	{ "floor", event_floor },
	{ "atomic", event_atomic },
	{ "seqcount", event_seqcount },
	{ "irqoff", event_irqoff },
	{ "golit", event_golit },
	{ "mstat", event_mstat },
};

#define LAT_WORDS_MULT 16

/* Two writers spinning on simulated CPUs 0 and 1, or none (idle). */
static void *lat_writer(void *arg)
{
	shim_cpu = (int)(long)arg;
	while (!stop_reader)
		event_mstat(64);
	return NULL;
}

static void lat_run(int cpus, bool load)
{
	const int n = 2000;
	double *lat = calloc(n, sizeof(double));
	struct bench_stats st[LAT_WORDS_MULT];
	struct mstat_snapshot snap;
	pthread_t w[SHIM_MAX_CPUS];
	int i, nw = load ? (cpus < 2 ? cpus : 2) : 0;

	stop_reader = 0;
	for (i = 0; i < nw; i++)
		pthread_create(&w[i], NULL, lat_writer, (void *)(long)i);
	for (i = 0; i < n; i++) {
		u64 t0 = ktime_get_ns();

		mstat_read(&core, &snap, st);
		lat[i] = (ktime_get_ns() - t0) / 1000.0;
	}
	stop_reader = 1;
	for (i = 0; i < nw; i++)
		pthread_join(w[i], NULL);
	qsort(lat, n, sizeof(double), cmp_double);
	printf("reader cpus=%d writers=%d snapshot_us p50=%.2f p90=%.2f p99=%.2f max=%.2f\n",
	       cpus, nw, lat[n / 2], lat[n * 9 / 10], lat[n * 99 / 100],
	       lat[n - 1]);
	free(lat);
}

static int bench_reader_latency(int cpus)
{
	shim_init(cpus);
	/* A slot of the module's size: about 1 KiB. */
	if (mstat_core_init(&core, sizeof(struct bench_stats[LAT_WORDS_MULT])))
		return 2;
	/*
	 * IPI mode, whose IPIs membarrier(2) stands for. The shim's grace
	 * period is the same wait, not RCU's: the RCU modes' latency is
	 * measured in a guest (scripts/guest/isolation.sh).
	 */
	mstat_set_sync(&core, MSTAT_SYNC_IPI);
	lat_run(cpus, false);
	lat_run(cpus, true);
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "threads", required_argument, NULL, 't' },
		{ "iters", required_argument, NULL, 'i' },
		{ "reader-hz", required_argument, NULL, 'r' },
		{ "only", required_argument, NULL, 'o' },
		{ "reader-lat", required_argument, NULL, 'l' },
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
		case 'l':
			reader_lat = atoi(optarg);
			break;
		default:
			return 2;
		}
	}
	if (nr_threads < 1 || nr_threads > SHIM_MAX_CPUS || iters < BATCH)
		return 2;
	if (reader_lat)
		return bench_reader_latency(reader_lat);
	shim_init(nr_threads);
	floor_stats = __alloc_percpu(sizeof(*floor_stats), 8);
	seq_stats = __alloc_percpu(sizeof(*seq_stats), 8);
	golit_seq = __alloc_percpu(sizeof(*golit_seq), 8);
	if (mstat_core_init(&core, sizeof(struct bench_stats)))
		return 2;
	mstat_set_sync(&core, MSTAT_SYNC_IPI);	/* see the header */
	for (c = 0; c < (int)ARRAY_SIZE(variants); c++)
		if (!only || !strcmp(only, variants[c].name))
			bench(variants[c].name, variants[c].fn);
	return 0;
}
