/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel API subset mstat_core uses, modelled in userspace so that
 * mstat_core.c compiles unchanged (as tools/testing/radix-tree does for
 * lib/). The headers in linux/ mirror the kernel's paths and all include
 * this one.
 *
 * The model: N simulated CPUs, each a thread that sets shim_cpu. Per-CPU
 * memory is one area per CPU at a fixed stride. this_cpu operations are
 * relaxed atomic read-modify-writes on the calling thread's area: atomic
 * against a signal handler that nests on the same thread, as a kernel
 * this_cpu op is against an interrupt. on_each_cpu() is membarrier(2),
 * which runs a full barrier on every CPU running a thread of ours, then
 * the handler for each simulated CPU in turn, on the caller's thread
 * with shim_cpu set to that CPU: it sees the CPU's state after the
 * barrier, not at an interrupted instruction, which x86 (TSO) cannot
 * tell apart. synchronize_rcu() is modelled below. The ordering on weakly
 * ordered CPUs is proven by mstat_core/litmus/, not here.
 *
 * READ_ONCE()/WRITE_ONCE() are relaxed atomics and smp_mb() a seq_cst
 * read-modify-write, so ThreadSanitizer sees every shared access as
 * marked and reports the unmarked ones.
 */
#ifndef _SHIM_H
#define _SHIM_H

#include <endian.h>
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef uint8_t u8;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int64_t s64;

#define __percpu
#undef __always_inline
#define __always_inline		inline __attribute__((__always_inline__))
#define __aligned(x)		__attribute__((__aligned__(x)))
#define barrier()		__asm__ __volatile__("" ::: "memory")
#define SZ_64K			0x10000
#define PCPU_MIN_UNIT_SIZE	(32 << 10)
#define PAGE_SIZE		4096UL
#define BIT(n)			(1UL << (n))
#define SHIM_MAX_CPUS		64
#define SHIM_PCPU_AREA		(1UL << 20)
#define GFP_KERNEL		0

#define BITS_PER_LONG		(8 * (int)sizeof(long))
#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "the shim is little-endian only (it takes glibc's __LITTLE_ENDIAN)"
#endif
#define BUILD_BUG_ON(c)		_Static_assert(!(c), #c)
#define WARN_ON_ONCE(c)		({ bool __c = (c); if (__c) shim_warn(__FILE__, __LINE__, #c); __c; })
#define EXPORT_SYMBOL_GPL(sym)	extern int shim_export_##sym
#define pr_err(fmt, ...)	fprintf(stderr, fmt, ##__VA_ARGS__)
#define pr_warn_ratelimited(fmt, ...)	fprintf(stderr, fmt, ##__VA_ARGS__)

/* Marked accesses. */
#define READ_ONCE(x)		__atomic_load_n(&(x), __ATOMIC_RELAXED)
#define WRITE_ONCE(x, v)	__atomic_store_n(&(x), (v), __ATOMIC_RELAXED)
extern unsigned long shim_fence_word;
#define smp_mb()		((void)__atomic_fetch_add(&shim_fence_word, 0, __ATOMIC_SEQ_CST))
#define smp_store_release(p, v)	__atomic_store_n((p), (v), __ATOMIC_RELEASE)
#define cpu_relax()		__builtin_ia32_pause()

/* CPUs. */
extern __thread int shim_cpu;
extern int shim_nr_cpus;
extern char *shim_pcpu_base;
#define for_each_possible_cpu(cpu) for ((cpu) = 0; (cpu) < shim_nr_cpus; (cpu)++)
#define per_cpu_ptr(ptr, cpu)	((__typeof__(ptr))((char *)(ptr) + (size_t)(cpu) * SHIM_PCPU_AREA))
#define this_cpu_ptr(ptr)	per_cpu_ptr(ptr, shim_cpu)
#if defined(__SANITIZE_THREAD__) || !defined(__x86_64__)
/* Atomics, so that ThreadSanitizer sees every per-CPU access. */
#define this_cpu_add(pcp, val)	((void)__atomic_fetch_add(this_cpu_ptr(&(pcp)), (val), __ATOMIC_RELAXED))
#define this_cpu_add_return(pcp, val) __atomic_add_fetch(this_cpu_ptr(&(pcp)), (val), __ATOMIC_RELAXED)
#else
/*
 * What the kernel does on x86: one unlocked read-modify-write instruction.
 * A signal (interrupt) cannot split it, but unlike a locked atomic it is
 * no barrier, so the store-buffering race the core guards against is
 * real here.
 */
#define this_cpu_add(pcp, val) do {					\
	__typeof__(&(pcp)) __p = this_cpu_ptr(&(pcp));			\
	__typeof__(pcp) __v = (val);					\
	__asm__ __volatile__("add %1, %0" : "+m" (*__p) : "r" (__v));	\
} while (0)
#define this_cpu_add_return(pcp, val) ({				\
	__typeof__(&(pcp)) __p = this_cpu_ptr(&(pcp));			\
	__typeof__(pcp) __v = (val), __r = __v;				\
	__asm__ __volatile__("xadd %1, %0" : "+m" (*__p), "+r" (__r));	\
	__r + __v;							\
})
#endif
#define this_cpu_read(pcp)	__atomic_load_n(this_cpu_ptr(&(pcp)), __ATOMIC_RELAXED)
#define this_cpu_write(pcp, v)	__atomic_store_n(this_cpu_ptr(&(pcp)), (v), __ATOMIC_RELAXED)
#define for_each_online_cpu(cpu) for_each_possible_cpu(cpu)
#define cpus_read_lock()	do { } while (0)
#define cpus_read_unlock()	do { } while (0)

/*
 * RCU, as the kernel gives it to preempt-disabled regions since v4.20:
 * a CPU's preempt-disabled regions are read-side critical sections, and
 * synchronize_rcu() returns once every region that began before it has
 * ended, with the region's stores visible. Modelled per simulated CPU by
 * a word like mstat's own sequence word (regions completed << 8 | depth,
 * read then written, so that a signal handler nesting in between leaves
 * it as it found it) and by membarrier(2) on both sides of the wait.
 * Threads that are no CPU (shim_cpu < 0) are never in a region.
 */
struct shim_rcu_cpu {
	unsigned long word;
} __attribute__((aligned(64)));
extern struct shim_rcu_cpu shim_rcu[SHIM_MAX_CPUS];

static inline void shim_preempt_disable(void)
{
	unsigned long *w;

	if (shim_cpu < 0)
		return;
	w = &shim_rcu[shim_cpu].word;
	__atomic_store_n(w, __atomic_load_n(w, __ATOMIC_RELAXED) + 1,
			 __ATOMIC_RELAXED);
	barrier();
}

static inline void shim_preempt_enable(void)
{
	unsigned long *w, v;

	barrier();
	if (shim_cpu < 0)
		return;
	w = &shim_rcu[shim_cpu].word;
	v = __atomic_load_n(w, __ATOMIC_RELAXED);
	__atomic_store_n(w, v + ((v & 0xff) == 1 ? 0xff : -1UL),
			 __ATOMIC_RELAXED);
}

#ifdef SHIM_PREEMPT_COUNT_ONLY
/*
 * For the writer benchmark: preempt_disable() as the kernel's costs it, an
 * add to a per-CPU (here per-thread) count, without the RCU model above.
 * synchronize_rcu() then waits for nothing: such a build must read in
 * MSTAT_SYNC_IPI mode.
 */
extern __thread int shim_preempt_count;
#define preempt_disable()		do { shim_preempt_count++; barrier(); } while (0)
#define preempt_enable()		do { barrier(); shim_preempt_count--; } while (0)
#else
#define preempt_disable()		shim_preempt_disable()
#define preempt_enable()		shim_preempt_enable()
#endif
#define preempt_disable_notrace()	preempt_disable()
#define preempt_enable_notrace()	preempt_enable()

void synchronize_rcu(void);
#define synchronize_rcu_expedited()	synchronize_rcu()

void *__alloc_percpu(size_t size, size_t align);
void free_percpu(void *ptr);
void on_each_cpu(void (*func)(void *), void *info, int wait);

/* Memory, time, sleeping. */
#define kzalloc(size, gfp)	calloc(1, (size))
#define kfree(p)		free(p)
u64 ktime_get_ns(void);
void usleep_range(unsigned long min, unsigned long max);

/* Mutexes. */
struct mutex {
	pthread_mutex_t m;
};
#define mutex_init(l)		pthread_mutex_init(&(l)->m, NULL)
#define mutex_destroy(l)	pthread_mutex_destroy(&(l)->m)
#define mutex_lock(l)		pthread_mutex_lock(&(l)->m)
#define mutex_unlock(l)		pthread_mutex_unlock(&(l)->m)
static inline int mutex_lock_interruptible(struct mutex *l)
{
	return pthread_mutex_lock(&l->m);
}

#define DEFINE_MUTEX(name)	struct mutex name = { PTHREAD_MUTEX_INITIALIZER }

/*
 * Static keys: a flag that every switch makes visible to every CPU
 * before it returns, with a full barrier on each (the kernel patches the
 * code and serializes every CPU, text_poke_bp()).
 */
struct static_key_false {
	bool enabled;
};
#define DEFINE_STATIC_KEY_FALSE(name)	struct static_key_false name = { false }
#define DECLARE_STATIC_KEY_FALSE(name)	extern struct static_key_false name
#define static_branch_unlikely(k)	__builtin_expect(READ_ONCE((k)->enabled), 0)
#define static_key_enabled(k)		READ_ONCE((k)->enabled)
void shim_static_key_set(struct static_key_false *k, bool on);
#define static_branch_enable(k)		shim_static_key_set((k), true)
#define static_branch_disable(k)	shim_static_key_set((k), false)

void shim_init(int nr_cpus);
void shim_warn(const char *file, int line, const char *cond);

#endif /* _SHIM_H */
