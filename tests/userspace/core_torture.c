// SPDX-License-Identifier: GPL-2.0
/*
 * core_torture - the core in userspace, hammered (the kernel's own
 * torture module is tests/torture/mstat_torture.c).
 *
 * One writer thread per simulated CPU (more threads than host cores, so
 * the host preempts writers mid-section as it would a vCPU), a thread
 * that sends SIGUSR1 to random writers whose handler opens a section on
 * the interrupted writer's CPU (an interrupt nesting into a writer), and
 * one reader that rotates at least --rotations times and checks every
 * snapshot:
 *
 *  - paired fields are equal (a == b, a + neg == 0, n == n2);
 *  - cumulative counters never decrease;
 *  - the snapshot lies between what writers had finished before the read
 *    began and what they had started when it returned;
 *
 * and at the end that the last snapshot equals the sum of every writer's
 * private tally. --sync picks how the reader waits for writers (the RCU
 * modes use the shim's model of RCU); --sync switch changes the mode
 * before every read, rcu and ipi in turn, so that the writers' sequence
 * words go on and off while writers run (mstat_seq_get()).
 * --broken=nowait|nosync|seq-nogp builds a broken reader (seq-nogp: the
 * words on for IPI mode without the grace period, which only --sync
 * switch meets); the test must then fail (exit 1), which
 * `make -C tests/userspace check` asserts.
 *
 * Usage: core_torture [--cpus N] [--offline N] [--rotations N]
 *			[--seconds S] [--sync rcu|rcu_expedited|ipi|switch]
 *			[--broken nowait|nosync|seq-nogp] [--quiet]
 */
#include <getopt.h>
#include <signal.h>
#include <sched.h>
#include <time.h>
#include <unistd.h>

#include "../../mstat_core/mstat_core.h"

struct torture_stats {
	u64 a;		/* += k */
	s64 neg;	/* -= k */
	u64 b;		/* += k, after a possible yield */
	u64 n;		/* sections */
	u64 irq;	/* sections from the signal handler */
	u64 n2;		/* sections, last in the section */
};

/* Per writer; padded so that tallies of different writers do not share. */
struct tally {
	u64 started_a;	/* bumped before the section opens */
	u64 done_a;	/* bumped after it closes */
	u64 started_n;
	u64 done_n;
	u64 irq;
	unsigned int seed;
	pthread_t thread;
} __aligned(128);

static struct mstat_core core;
static struct tally *tally;
static int nr_writers = 8, nr_offline = 2;
static long min_rotations = 10000;
static double max_seconds = 120;
static int stop_writers, stop_irq;
static bool quiet;
static unsigned int sync_mode;
static enum mstat_broken broken;

#define ADD(field, v)	mstat_add(&s, struct torture_stats, field, v)

/* One section: what the writer and the "interrupt" both do. */
static void torture_write(struct tally *t, u64 k, bool irq, bool yield)
{
	struct mstat_section s;

	__atomic_fetch_add(&t->started_a, k, __ATOMIC_RELAXED);
	__atomic_fetch_add(&t->started_n, 1, __ATOMIC_RELAXED);
	mstat_write_begin(&core, &s);
	ADD(a, k);
	ADD(neg, -(s64)k);
	if (yield)
		sched_yield();
	ADD(b, k);
	ADD(n, 1);
	if (irq)
		ADD(irq, 1);
	ADD(n2, 1);
	/* Half the sections, outer and nested, end as the rare paths do. */
	if (k & 1)
		mstat_write_end_cold(&core);
	else
		mstat_write_end(&core, &s);
	__atomic_fetch_add(&t->done_a, k, __ATOMIC_RELAXED);
	__atomic_fetch_add(&t->done_n, 1, __ATOMIC_RELAXED);
	if (irq)
		__atomic_fetch_add(&t->irq, 1, __ATOMIC_RELAXED);
}

static void torture_irq(int sig)
{
	struct tally *t = &tally[shim_cpu];

	(void)sig;
	torture_write(t, 1 + (shim_cpu & 7), true, false);
}

static void *torture_writer(void *arg)
{
	struct tally *t = arg;

	sigset_t set;

	/* Take "interrupts" only once this thread is a CPU. */
	shim_cpu = t - tally;
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	pthread_sigmask(SIG_UNBLOCK, &set, NULL);
	while (!__atomic_load_n(&stop_writers, __ATOMIC_RELAXED)) {
		unsigned int r = rand_r(&t->seed);

		torture_write(t, 1 + (r & 255), false, (r >> 8) % 64 == 0);
	}
	return NULL;
}

static void *torture_irq_sender(void *arg)
{
	unsigned int seed = 42;
	struct timespec ts = { 0, 20000 };

	(void)arg;
	while (!__atomic_load_n(&stop_irq, __ATOMIC_RELAXED)) {
		pthread_kill(tally[rand_r(&seed) % nr_writers].thread, SIGUSR1);
		nanosleep(&ts, NULL);
	}
	return NULL;
}

static void sum_tallies(u64 *started_a, u64 *done_a, u64 *started_n,
			u64 *done_n, u64 *irq)
{
	int i;

	*started_a = *done_a = *started_n = *done_n = *irq = 0;
	for (i = 0; i < nr_writers; i++) {
		*done_a += __atomic_load_n(&tally[i].done_a, __ATOMIC_RELAXED);
		*done_n += __atomic_load_n(&tally[i].done_n, __ATOMIC_RELAXED);
		*irq += __atomic_load_n(&tally[i].irq, __ATOMIC_RELAXED);
	}
	/* Read "started" after "done": started >= done for every writer. */
	for (i = 0; i < nr_writers; i++) {
		*started_a += __atomic_load_n(&tally[i].started_a, __ATOMIC_SEQ_CST);
		*started_n += __atomic_load_n(&tally[i].started_n, __ATOMIC_SEQ_CST);
	}
}

static long violations;

#define CHECK(cond, fmt, ...) do {					\
	if (!(cond)) {							\
		if (violations++ < 10)					\
			fprintf(stderr, "violation: %s: " fmt "\n", #cond, \
				##__VA_ARGS__);				\
	}								\
} while (0)

/* Checks that every snapshot must pass. */
static void check_snapshot(const struct torture_stats *st,
			   const struct torture_stats *prev,
			   u64 done_a_before, u64 done_n_before,
			   u64 started_a_after, u64 started_n_after, u64 gen)
{
	CHECK(st->a == st->b, "gen %llu a %llu b %llu",
	      (unsigned long long)gen, (unsigned long long)st->a,
	      (unsigned long long)st->b);
	CHECK((s64)st->a + st->neg == 0, "gen %llu a %llu neg %lld",
	      (unsigned long long)gen, (unsigned long long)st->a,
	      (long long)st->neg);
	CHECK(st->n == st->n2, "gen %llu n %llu n2 %llu",
	      (unsigned long long)gen, (unsigned long long)st->n,
	      (unsigned long long)st->n2);
	CHECK(st->a >= prev->a && st->n >= prev->n && st->irq >= prev->irq,
	      "gen %llu went backwards", (unsigned long long)gen);
	CHECK(st->a >= done_a_before && st->n >= done_n_before,
	      "gen %llu a %llu < finished before the read %llu",
	      (unsigned long long)gen, (unsigned long long)st->a,
	      (unsigned long long)done_a_before);
	CHECK(st->a <= started_a_after && st->n <= started_n_after,
	      "gen %llu a %llu > started by the end of the read %llu",
	      (unsigned long long)gen, (unsigned long long)st->a,
	      (unsigned long long)started_a_after);
}

static int parse_args(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "cpus", required_argument, NULL, 'c' },
		{ "offline", required_argument, NULL, 'o' },
		{ "rotations", required_argument, NULL, 'r' },
		{ "seconds", required_argument, NULL, 's' },
		{ "broken", required_argument, NULL, 'b' },
		{ "sync", required_argument, NULL, 'y' },
		{ "quiet", no_argument, NULL, 'q' },
		{ }
	};
	int c;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'c':
			nr_writers = atoi(optarg);
			break;
		case 'o':
			nr_offline = atoi(optarg);
			break;
		case 'r':
			min_rotations = atol(optarg);
			break;
		case 's':
			max_seconds = atof(optarg);
			break;
		case 'b':
			if (!strcmp(optarg, "nowait"))
				broken = MSTAT_BROKEN_NOWAIT;
			else if (!strcmp(optarg, "nosync"))
				broken = MSTAT_BROKEN_NOSYNC;
			else if (!strcmp(optarg, "seq-nogp"))
				broken = MSTAT_BROKEN_SEQ_NOGP;
			else
				return -1;
			break;
		case 'y':
			for (sync_mode = 0; sync_mode < MSTAT_NR_SYNC; sync_mode++)
				if (!strcmp(optarg, mstat_sync_name[sync_mode]))
					break;
			/* MSTAT_NR_SYNC: switch. */
			if (sync_mode == MSTAT_NR_SYNC && strcmp(optarg, "switch"))
				return -1;
			break;
		case 'q':
			quiet = true;
			break;
		default:
			return -1;
		}
	}
	if (nr_writers < 1 || nr_offline < 0 ||
	    nr_writers + nr_offline > SHIM_MAX_CPUS || min_rotations < 1)
		return -1;
	return 0;
}

int main(int argc, char **argv)
{
	struct torture_stats st = { 0 }, prev = { 0 };
	u64 sa, da, sn, dn, irq, sa2, da2, sn2, dn2, irq2;
	u64 t0, max_wait = 0, waited_reads = 0;
	struct mstat_snapshot snap;
	struct sigaction sigact = { .sa_handler = torture_irq };
	pthread_t irq_thread;
	sigset_t set;
	int i;
	long rot = 0;

	if (parse_args(argc, argv)) {
		fprintf(stderr, "usage: %s [--cpus N] [--offline N] [--rotations N] [--seconds S] [--sync rcu|rcu_expedited|ipi|switch] [--broken nowait|nosync|seq-nogp] [--quiet]\n",
			argv[0]);
		return 2;
	}
	shim_init(nr_writers + nr_offline);
	if (mstat_core_init(&core, sizeof(struct torture_stats))) {
		fprintf(stderr, "mstat_core_init failed\n");
		return 2;
	}
	mstat_set_broken(&core, broken);
	if (sync_mode < MSTAT_NR_SYNC)
		mstat_set_sync(&core, sync_mode);

	sigemptyset(&sigact.sa_mask);
	sigact.sa_flags = SA_RESTART;
	sigaction(SIGUSR1, &sigact, NULL);
	/* Threads inherit this; writers unblock it once they have a CPU. */
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	pthread_sigmask(SIG_BLOCK, &set, NULL);

	tally = aligned_alloc(128, nr_writers * sizeof(*tally));
	memset(tally, 0, nr_writers * sizeof(*tally));
	for (i = 0; i < nr_writers; i++) {
		tally[i].seed = i + 1;
		pthread_create(&tally[i].thread, NULL, torture_writer, &tally[i]);
	}
	pthread_create(&irq_thread, NULL, torture_irq_sender, NULL);

	t0 = ktime_get_ns();
	while (rot < min_rotations &&
	       ktime_get_ns() - t0 < (u64)(max_seconds * 1e9)) {
		/* rcu, then ipi: the words off, then on, while writers run. */
		if (sync_mode == MSTAT_NR_SYNC)
			mstat_set_sync(&core, rot % 2 ? MSTAT_SYNC_IPI :
					MSTAT_SYNC_RCU);
		sum_tallies(&sa, &da, &sn, &dn, &irq);
		mstat_read(&core, &snap, &st);
		sum_tallies(&sa2, &da2, &sn2, &dn2, &irq2);
		check_snapshot(&st, &prev, da, dn, sa2, sn2, snap.gen);
		if (snap.wait_ns > max_wait)
			max_wait = snap.wait_ns;
		waited_reads += snap.waited_cpus > 0;
		prev = st;
		rot++;
	}

	__atomic_store_n(&stop_irq, 1, __ATOMIC_RELAXED);
	pthread_join(irq_thread, NULL);
	__atomic_store_n(&stop_writers, 1, __ATOMIC_RELAXED);
	for (i = 0; i < nr_writers; i++)
		pthread_join(tally[i].thread, NULL);

	/* Quiescent: the last snapshot must equal every private tally. */
	sum_tallies(&sa, &da, &sn, &dn, &irq);
	mstat_read(&core, &snap, &st);
	check_snapshot(&st, &prev, da, dn, sa, sn, snap.gen);
	CHECK(st.a == da && st.a == sa, "final a %llu tally %llu",
	      (unsigned long long)st.a, (unsigned long long)da);
	CHECK(st.n == dn && st.irq == irq, "final n %llu tally %llu irq %llu tally %llu",
	      (unsigned long long)st.n, (unsigned long long)dn,
	      (unsigned long long)st.irq, (unsigned long long)irq);
	CHECK(rot >= min_rotations, "only %ld rotations in %.0f s", rot,
	      max_seconds);

	if (!quiet || violations)
		printf("core_torture: %s sync=%s broken=%d cpus=%d+%d offline rotations=%ld sections=%llu irq_sections=%llu waited_reads=%llu max_wait_ns=%llu violations=%ld time_s=%.2f\n",
		       violations ? "FAILURE" : "SUCCESS",
		       sync_mode < MSTAT_NR_SYNC ? mstat_sync_name[sync_mode] :
						   "switch",
		       broken, nr_writers,
		       nr_offline, rot, (unsigned long long)st.n,
		       (unsigned long long)st.irq,
		       (unsigned long long)waited_reads,
		       (unsigned long long)max_wait, violations,
		       (ktime_get_ns() - t0) / 1e9);
	mstat_core_destroy(&core);
	free(tally);
	return violations ? 1 : 0;
}
