// SPDX-License-Identifier: GPL-2.0
/* The userspace model of the kernel API that mstat_core uses; see shim.h. */
#include <linux/membarrier.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "shim.h"

__thread int shim_cpu = -1;
__thread int shim_preempt_count;
int shim_nr_cpus;
char *shim_pcpu_base;
unsigned long shim_fence_word;
struct shim_rcu_cpu shim_rcu[SHIM_MAX_CPUS];
static size_t shim_pcpu_used;
static pthread_mutex_t shim_pcpu_lock = PTHREAD_MUTEX_INITIALIZER;

void shim_warn(const char *file, int line, const char *cond)
{
	fprintf(stderr, "WARNING: %s:%d: %s\n", file, line, cond);
	abort();
}

void shim_init(int nr_cpus)
{
	if (nr_cpus < 1 || nr_cpus > SHIM_MAX_CPUS) {
		fprintf(stderr, "shim: 1 to %d CPUs\n", SHIM_MAX_CPUS);
		exit(2);
	}
	shim_nr_cpus = nr_cpus;
	shim_pcpu_base = mmap(NULL, SHIM_MAX_CPUS * SHIM_PCPU_AREA,
			      PROT_READ | PROT_WRITE,
			      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (shim_pcpu_base == MAP_FAILED) {
		perror("shim: mmap");
		exit(2);
	}
	if (syscall(__NR_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED,
		    0, 0)) {
		perror("shim: membarrier register");
		exit(2);
	}
}

/* A bump allocator in CPU 0's area; the other CPUs' copies follow it. */
void *__alloc_percpu(size_t size, size_t align)
{
	void *p = NULL;

	pthread_mutex_lock(&shim_pcpu_lock);
	shim_pcpu_used = (shim_pcpu_used + align - 1) & ~(align - 1);
	if (shim_pcpu_used + size <= SHIM_PCPU_AREA) {
		p = shim_pcpu_base + shim_pcpu_used;
		shim_pcpu_used += size;
	}
	pthread_mutex_unlock(&shim_pcpu_lock);
	return p;
}

/* Memory of the simulated per-CPU areas is never reused. */
void free_percpu(void *ptr)
{
	(void)ptr;
}

static void shim_membarrier(void)
{
	if (syscall(__NR_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0)) {
		perror("shim: membarrier");
		abort();
	}
}

/*
 * The kernel's on_each_cpu() interrupts every online CPU, and its handler
 * runs in between two instructions of whatever that CPU was doing.
 * membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED) gives the same ordering to
 * every thread of this process: a full barrier on each running one, a
 * context switch (also a barrier) for the others. Then the handler runs
 * once per simulated CPU, as that CPU, on this thread.
 */
void on_each_cpu(void (*func)(void *), void *info, int wait)
{
	int saved = shim_cpu, cpu;

	(void)wait;
	shim_membarrier();
	for (cpu = 0; cpu < shim_nr_cpus; cpu++) {
		shim_cpu = cpu;
		func(info);
	}
	shim_cpu = saved;
}

void shim_static_key_set(struct static_key_false *k, bool on)
{
	WRITE_ONCE(k->enabled, on);
	shim_membarrier();
}

/*
 * A grace period: a barrier on every CPU (so that regions which begin
 * after it see what the caller stored before), a wait for every region
 * open then, and a barrier again (so that the stores of those regions are
 * visible to the caller). The same wait as mstat's IPI mode, by design:
 * what is tested here is the core's use of RCU, not RCU.
 */
void synchronize_rcu(void)
{
	struct timespec nap = { 0, 20000 };
	unsigned long first, now;
	int cpu, spins;

	shim_membarrier();
	for (cpu = 0; cpu < shim_nr_cpus; cpu++) {
		first = __atomic_load_n(&shim_rcu[cpu].word, __ATOMIC_RELAXED);
		if (!(first & 0xff))
			continue;
		for (spins = 0;; spins++) {
			now = __atomic_load_n(&shim_rcu[cpu].word,
					      __ATOMIC_RELAXED);
			if (!(now & 0xff) || (now >> 8) != (first >> 8))
				break;
			/* The writer may be a descheduled thread: let it run. */
			if (spins < 16)
				sched_yield();
			else
				nanosleep(&nap, NULL);
		}
	}
	shim_membarrier();
}

u64 ktime_get_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

void usleep_range(unsigned long min, unsigned long max)
{
	struct timespec ts = { 0, (long)(min + max) / 2 * 1000 };

	nanosleep(&ts, NULL);
}
