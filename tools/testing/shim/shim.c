// SPDX-License-Identifier: GPL-2.0
/* The userspace model of the kernel API that mstat_core uses; see shim.h. */
#include <linux/membarrier.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "shim.h"

__thread int shim_cpu = -1;
int shim_nr_cpus;
char *shim_pcpu_base;
unsigned long shim_fence_word;
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

/*
 * The kernel's on_each_cpu() interrupts every online CPU, and its handler
 * runs in between two instructions of whatever that CPU was doing.
 * membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED) gives the same ordering to
 * every thread of this process: a full barrier on each running one, a
 * context switch (also a barrier) for the others.
 */
void on_each_cpu(void (*func)(void *), void *info, int wait)
{
	(void)wait;
	if (syscall(__NR_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0)) {
		perror("shim: membarrier");
		abort();
	}
	func(info);
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
