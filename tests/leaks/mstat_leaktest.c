// SPDX-License-Identifier: GPL-2.0
/*
 * mstat_leaktest - leaks at known rates from known stacks, among decoys
 * that must never be called leaks: the truth `mstat leaks` is judged by
 * (scripts/guest/leaks.sh, tests/helpers/leaks.c). It does not depend on
 * mstat. Each pattern allocates from a noinline function of its own, so
 * that its stack is known, and keeps what it allocates on a list through
 * the objects themselves (no allocation of its own grows beside them).
 * Every leak's list but list's is kept hidden: its links are stored
 * XORed with a key, which no pointer scan takes for a pointer, so that
 * to kmemleak (docs/RESULTS.md, "Leak tools side by side") the objects
 * are lost, as a lost pointer's are, while the module can still free them
 * at "stop"; list's links are plain pointers, a list that only grows from
 * the module's own data, which a pointer scan sees as referenced:
 *
 *	leaks (never freed until "stop"):
 *	  lost     kmalloc(256) from the module's kthread: a lost pointer
 *	  list     256-byte objects of the cache mstat_leak_list, on a list
 *	           that only grows, from the kthread (referenced)
 *	  cgroup   kmalloc(512) in the context of the task that writes
 *	           "cgroup" to the control file, so in that task's cgroup
 *	  softirq  kmalloc(128, GFP_ATOMIC) from a soft hrtimer (softirq)
 *	  merged   200-byte objects of the cache mstat_leak_merged, which
 *	           SLUB merges into mstat_leak_host (made just before it, of
 *	           the same size, neither with a constructor), or both into
 *	           a cache of the kernel's: a module's leak counted under
 *	           another cache's name; from the kthread
 *	  tbl0..3  kmalloc(256) from the kthread at table_rates (the
 *	           detection-time table; off unless started by name)
 *	decoys (bounded):
 *	  plateau  cache mstat_leak_plateau, 256 bytes: fills to
 *	           plateau_bytes, then each new object replaces the oldest
 *	  saw      cache mstat_leak_saw, 256 bytes: all freed every
 *	           saw_period_s (a sawtooth)
 *	  life     kmalloc(1024), each freed life_s after its allocation;
 *	           starts in its steady state (life_rate * life_s bytes
 *	           live, their deaths spread over the next life_s)
 *	  wave     kmalloc(2048), live bytes rise from 0 to wave_bytes and
 *	           fall back in each wave_period_s (a triangle)
 *	history decoys (for a verdict from the history: never freed until
 *	"stop", or freed as life's, but none grows steadily to the end):
 *	  keep     kmalloc(512) at keep_rate for keep_s, then kept: objects
 *	           allocated at the start (boot) and kept
 *	  early    cache mstat_leak_early, 192 bytes, at early_rate for
 *	           early_s, then kept: a cache filled early, then stable
 *	  warm     cache mstat_leak_warm, 192 bytes, warm_bytes t / (t +
 *	           warm_tau_s) live at t: a cache warming toward a bound,
 *	           ever slower
 *	  late     kmalloc(1024), from late_after_s after the start, each
 *	           freed late_life_s after its allocation: a workload
 *	           started late that levels off
 *
 * Every pattern but wave allocates at its rate in bytes per second,
 * catching up on each tick (tick_ms) with what its rate owes since its
 * start, so its true rate is its nominal one within a tick.
 *
 *	/sys/kernel/debug/mstat_leaktest/control (write):
 *	  "start GROUP[,GROUP...]"  stop and free everything, then start
 *	                            the patterns of those groups: leaks
 *	                            (lost, list, cgroup, softirq), decoys,
 *	                            table (tbl0..3 whose rate is not 0),
 *	                            history (keep, early, warm, late)
 *	  "stop"                    stop every pattern, free everything
 *	  "cgroup"                  the cgroup leak's catch-up, here
 *	  "tamper 0|1"              1: the truth file lies (below)
 *	/sys/kernel/debug/mstat_leaktest/truth (read): a header line
 *	  "mstat_leaktest 1 elapsed_ms MS tamper 0|1", then a line a pattern:
 *	  "NAME KIND RUNNING FUNC CACHE CGROUP SIZE RATE ALLOCS FREES
 *	   LIVE_BYTES SINCE_MS"
 *	  (KIND leak, decoy, or hold: a decoy that keeps all it allocates
 *	  by design, keep, early and warm; RUNNING 0 or 1; FUNC the function
 *	  that calls the allocator, as %ps names it without its module; CACHE
 *	  the slab cache's name; CGROUP the cgroup v2 path of the allocating task,
 *	  "/" for the kthread's, "softirq" for the timer's, "-" while the
 *	  cgroup leak has had no write; RATE bytes per second, 0 for wave and
 *	  warm; SINCE_MS how long the pattern has run).
 *
 * tamper=1, the test's own test: the truth it reports is false, every
 * leak's rate four times its own, lost's function a decoy's, cgroup's
 * cgroup "/", softirq's cache kmalloc-256, merged's cache
 * mstat_leak_none; the judge must catch each.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cgroup.h>
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/kallsyms.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "../mstat_test_compat.h"

#define LEAK_NTBL	4
#define LEAK_CATCHUP	4096	/* objects one tick may allocate */

static unsigned long lost_rate = 8192;
module_param(lost_rate, ulong, 0444);
MODULE_PARM_DESC(lost_rate, "lost leak, bytes per second (default 8192)");
static unsigned long list_rate = 4096;
module_param(list_rate, ulong, 0444);
MODULE_PARM_DESC(list_rate, "list leak, bytes per second (default 4096)");
static unsigned long cgroup_rate = 4096;
module_param(cgroup_rate, ulong, 0444);
MODULE_PARM_DESC(cgroup_rate, "cgroup leak, bytes per second (default 4096)");
static unsigned long softirq_rate = 4096;
module_param(softirq_rate, ulong, 0444);
MODULE_PARM_DESC(softirq_rate, "softirq leak, bytes per second (default 4096)");
static unsigned long merged_rate = 4096;
module_param(merged_rate, ulong, 0444);
MODULE_PARM_DESC(merged_rate, "merged leak, bytes per second (default 4096)");
static unsigned long table_rates[LEAK_NTBL];
static int table_nrates;
module_param_array(table_rates, ulong, &table_nrates, 0444);
MODULE_PARM_DESC(table_rates, "tbl0..3 leaks, bytes per second each (default 0: off)");
static unsigned long plateau_bytes = 262144;
module_param(plateau_bytes, ulong, 0444);
MODULE_PARM_DESC(plateau_bytes, "plateau decoy's bound (default 262144)");
static unsigned long plateau_rate = 16384;
module_param(plateau_rate, ulong, 0444);
MODULE_PARM_DESC(plateau_rate, "plateau decoy, bytes per second (default 16384)");
static unsigned long saw_rate = 16384;
module_param(saw_rate, ulong, 0444);
MODULE_PARM_DESC(saw_rate, "sawtooth decoy, bytes per second (default 16384)");
static unsigned int saw_period_s = 20;
module_param(saw_period_s, uint, 0444);
MODULE_PARM_DESC(saw_period_s, "sawtooth decoy: all freed every this many seconds (default 20)");
static unsigned long life_rate = 8192;
module_param(life_rate, ulong, 0444);
MODULE_PARM_DESC(life_rate, "long-lived decoy, bytes per second (default 8192)");
static unsigned int life_s = 40;
module_param(life_s, uint, 0444);
MODULE_PARM_DESC(life_s, "long-lived decoy: each object lives this many seconds (default 40)");
static unsigned long wave_bytes = 524288;
module_param(wave_bytes, ulong, 0444);
MODULE_PARM_DESC(wave_bytes, "rising and falling decoy's peak (default 524288)");
static unsigned int wave_period_s = 40;
module_param(wave_period_s, uint, 0444);
MODULE_PARM_DESC(wave_period_s, "rising and falling decoy's period (default 40)");
static unsigned long keep_rate = 262144;
module_param(keep_rate, ulong, 0444);
MODULE_PARM_DESC(keep_rate, "kept-from-the-start decoy, bytes per second while it allocates (default 262144)");
static unsigned int keep_s = 2;
module_param(keep_s, uint, 0444);
MODULE_PARM_DESC(keep_s, "kept-from-the-start decoy: allocates for this many seconds (default 2)");
static unsigned long early_rate = 65536;
module_param(early_rate, ulong, 0444);
MODULE_PARM_DESC(early_rate, "early-filled decoy, bytes per second while it allocates (default 65536)");
static unsigned int early_s = 10;
module_param(early_s, uint, 0444);
MODULE_PARM_DESC(early_s, "early-filled decoy: allocates for this many seconds (default 10)");
static unsigned long warm_bytes = 2097152;
module_param(warm_bytes, ulong, 0444);
MODULE_PARM_DESC(warm_bytes, "warming decoy's bound (default 2097152)");
static unsigned int warm_tau_s = 10;
module_param(warm_tau_s, uint, 0444);
MODULE_PARM_DESC(warm_tau_s, "warming decoy: half its bound at this many seconds (default 10)");
static unsigned long late_rate = 16384;
module_param(late_rate, ulong, 0444);
MODULE_PARM_DESC(late_rate, "late workload decoy, bytes per second (default 16384)");
static unsigned int late_after_s = 60;
module_param(late_after_s, uint, 0444);
MODULE_PARM_DESC(late_after_s, "late workload decoy: starts this many seconds after the start (default 60)");
static unsigned int late_life_s = 20;
module_param(late_life_s, uint, 0444);
MODULE_PARM_DESC(late_life_s, "late workload decoy: each object lives this many seconds (default 20)");
static unsigned int tick_ms = 100;
module_param(tick_ms, uint, 0444);
MODULE_PARM_DESC(tick_ms, "the patterns' tick, 10 to 1000 ms (default 100)");

/*
 * An object's first bytes: the pattern's list, and its birth. The links
 * (next, and the pattern's head and tail) are stored XORed with the
 * pattern's key: 0, or LEAK_HIDE for a hidden one. LEAK_HIDE turns a
 * kernel address into a non-canonical one (and NULL into LEAK_HIDE).
 */
#define LEAK_HIDE	0x5a5a5a5a5a5a5a5aUL

struct leak_obj {
	unsigned long next;
	u64 born_ns;
};

enum leak_group {
	LEAK_LEAKS = 1, LEAK_DECOYS = 2, LEAK_TABLE = 4, LEAK_HISTORY = 8,
};

struct leak_pattern {
	const char *name;
	bool leak;
	enum leak_group group;
	void *(*alloc)(gfp_t gfp);	/* the pattern's own call site */
	const char *cache;
	size_t size;
	unsigned long *rate;		/* bytes per second */
	/* State: the kthread's, the timer's or the control's (below). */
	bool running;
	u64 start_ns;			/* 0: not started (cgroup: no write) */
	unsigned long key;		/* 0, or LEAK_HIDE: leak_init() */
	unsigned long head, tail;	/* oldest first, XORed with key */
	unsigned long allocs, frees, live;
	u64 mark_ns;			/* saw: the last clearing */
	char cgroup[128];
};

static struct kmem_cache *leak_list_cache, *leak_plateau_cache, *leak_saw_cache;
static struct kmem_cache *leak_host_cache, *leak_merged_cache;
static struct kmem_cache *leak_early_cache, *leak_warm_cache;

static void leak_ctor(void *obj)
{
}

/*
 * Each pattern's own call site: noinline, its result used after the call,
 * so that it is neither inlined nor left by a tail call.
 */
static noinline void *mstat_leak_lost_alloc(gfp_t gfp)
{
	void *p = kmalloc(256, gfp);

	OPTIMIZER_HIDE_VAR(p);
	return p;
}

static noinline void *mstat_leak_list_alloc(gfp_t gfp)
{
	void *p = kmem_cache_alloc(leak_list_cache, gfp);

	OPTIMIZER_HIDE_VAR(p);
	return p;
}

static noinline void *mstat_leak_cgroup_alloc(gfp_t gfp)
{
	void *p = kmalloc(512, gfp);

	OPTIMIZER_HIDE_VAR(p);
	return p;
}

static noinline void *mstat_leak_softirq_alloc(gfp_t gfp)
{
	void *p = kmalloc(128, gfp);

	OPTIMIZER_HIDE_VAR(p);
	return p;
}

static noinline void *mstat_leak_merged_alloc(gfp_t gfp)
{
	void *p = kmem_cache_alloc(leak_merged_cache, gfp);

	OPTIMIZER_HIDE_VAR(p);
	return p;
}

static noinline void *mstat_leak_tbl0_alloc(gfp_t gfp)
{
	void *p = kmalloc(256, gfp);

	OPTIMIZER_HIDE_VAR(p);
	return p;
}

static noinline void *mstat_leak_tbl1_alloc(gfp_t gfp)
{
	void *p = kmalloc(256, gfp);

	OPTIMIZER_HIDE_VAR(p);
	return p;
}

static noinline void *mstat_leak_tbl2_alloc(gfp_t gfp)
{
	void *p = kmalloc(256, gfp);

	OPTIMIZER_HIDE_VAR(p);
	return p;
}

static noinline void *mstat_leak_tbl3_alloc(gfp_t gfp)
{
	void *p = kmalloc(256, gfp);

	OPTIMIZER_HIDE_VAR(p);
	return p;
}

static noinline void *mstat_leak_plateau_alloc(gfp_t gfp)
{
	void *p = kmem_cache_alloc(leak_plateau_cache, gfp);

	OPTIMIZER_HIDE_VAR(p);
	return p;
}

static noinline void *mstat_leak_saw_alloc(gfp_t gfp)
{
	void *p = kmem_cache_alloc(leak_saw_cache, gfp);

	OPTIMIZER_HIDE_VAR(p);
	return p;
}

static noinline void *mstat_leak_life_alloc(gfp_t gfp)
{
	void *p = kmalloc(1024, gfp);

	OPTIMIZER_HIDE_VAR(p);
	return p;
}

static noinline void *mstat_leak_wave_alloc(gfp_t gfp)
{
	void *p = kmalloc(2048, gfp);

	OPTIMIZER_HIDE_VAR(p);
	return p;
}

static noinline void *mstat_leak_keep_alloc(gfp_t gfp)
{
	void *p = kmalloc(512, gfp);

	OPTIMIZER_HIDE_VAR(p);
	return p;
}

static noinline void *mstat_leak_early_alloc(gfp_t gfp)
{
	void *p = kmem_cache_alloc(leak_early_cache, gfp);

	OPTIMIZER_HIDE_VAR(p);
	return p;
}

static noinline void *mstat_leak_warm_alloc(gfp_t gfp)
{
	void *p = kmem_cache_alloc(leak_warm_cache, gfp);

	OPTIMIZER_HIDE_VAR(p);
	return p;
}

static noinline void *mstat_leak_late_alloc(gfp_t gfp)
{
	void *p = kmalloc(1024, gfp);

	OPTIMIZER_HIDE_VAR(p);
	return p;
}

static unsigned long leak_no_rate;

enum {
	LEAK_LOST, LEAK_LIST, LEAK_CGROUP, LEAK_SOFTIRQ, LEAK_MERGED,
	LEAK_TBL0, LEAK_TBL1, LEAK_TBL2, LEAK_TBL3,
	LEAK_PLATEAU, LEAK_SAW, LEAK_LIFE, LEAK_WAVE,
	LEAK_KEEP, LEAK_EARLY, LEAK_WARM, LEAK_LATE, LEAK_NPAT
};

static struct leak_pattern leak_pat[LEAK_NPAT] = {
	[LEAK_LOST] = { "lost", true, LEAK_LEAKS, mstat_leak_lost_alloc,
			"kmalloc-256", 256, &lost_rate },
	[LEAK_LIST] = { "list", true, LEAK_LEAKS, mstat_leak_list_alloc,
			"mstat_leak_list", 256, &list_rate },
	[LEAK_CGROUP] = { "cgroup", true, LEAK_LEAKS, mstat_leak_cgroup_alloc,
			  "kmalloc-512", 512, &cgroup_rate },
	[LEAK_SOFTIRQ] = { "softirq", true, LEAK_LEAKS,
			   mstat_leak_softirq_alloc, "kmalloc-128", 128,
			   &softirq_rate },
	[LEAK_MERGED] = { "merged", true, LEAK_LEAKS, mstat_leak_merged_alloc,
			  "mstat_leak_merged", 200, &merged_rate },
	[LEAK_TBL0] = { "tbl0", true, LEAK_TABLE, mstat_leak_tbl0_alloc,
			"kmalloc-256", 256, &table_rates[0] },
	[LEAK_TBL1] = { "tbl1", true, LEAK_TABLE, mstat_leak_tbl1_alloc,
			"kmalloc-256", 256, &table_rates[1] },
	[LEAK_TBL2] = { "tbl2", true, LEAK_TABLE, mstat_leak_tbl2_alloc,
			"kmalloc-256", 256, &table_rates[2] },
	[LEAK_TBL3] = { "tbl3", true, LEAK_TABLE, mstat_leak_tbl3_alloc,
			"kmalloc-256", 256, &table_rates[3] },
	[LEAK_PLATEAU] = { "plateau", false, LEAK_DECOYS,
			   mstat_leak_plateau_alloc, "mstat_leak_plateau", 256,
			   &plateau_rate },
	[LEAK_SAW] = { "saw", false, LEAK_DECOYS, mstat_leak_saw_alloc,
		       "mstat_leak_saw", 256, &saw_rate },
	[LEAK_LIFE] = { "life", false, LEAK_DECOYS, mstat_leak_life_alloc,
			"kmalloc-1024", 1024, &life_rate },
	[LEAK_WAVE] = { "wave", false, LEAK_DECOYS, mstat_leak_wave_alloc,
			"kmalloc-2048", 2048, &leak_no_rate },
	[LEAK_KEEP] = { "keep", false, LEAK_HISTORY, mstat_leak_keep_alloc,
			"kmalloc-512", 512, &keep_rate },
	[LEAK_EARLY] = { "early", false, LEAK_HISTORY, mstat_leak_early_alloc,
			 "mstat_leak_early", 192, &early_rate },
	[LEAK_WARM] = { "warm", false, LEAK_HISTORY, mstat_leak_warm_alloc,
			"mstat_leak_warm", 192, &warm_bytes },
	[LEAK_LATE] = { "late", false, LEAK_HISTORY, mstat_leak_late_alloc,
			"kmalloc-1024", 1024, &late_rate },
};

static DEFINE_MUTEX(leak_lock);		/* control and truth */
static struct task_struct *leak_thread;
static struct hrtimer leak_timer;
static bool leak_timer_on;
static bool leak_tamper;
static u64 leak_start_ns;
static struct dentry *leak_dir;

static struct kmem_cache *leak_cache_of(struct leak_pattern *p)
{
	if (p == &leak_pat[LEAK_LIST])
		return leak_list_cache;
	if (p == &leak_pat[LEAK_PLATEAU])
		return leak_plateau_cache;
	if (p == &leak_pat[LEAK_SAW])
		return leak_saw_cache;
	if (p == &leak_pat[LEAK_MERGED])
		return leak_merged_cache;
	if (p == &leak_pat[LEAK_EARLY])
		return leak_early_cache;
	if (p == &leak_pat[LEAK_WARM])
		return leak_warm_cache;
	return NULL;
}

static struct leak_obj *leak_dec(const struct leak_pattern *p,
				 unsigned long v)
{
	return (struct leak_obj *)(v ^ p->key);
}

static unsigned long leak_enc(const struct leak_pattern *p,
			      const struct leak_obj *o)
{
	return (unsigned long)o ^ p->key;
}

/* One object, at the tail; false if the allocator had none. */
static bool leak_push(struct leak_pattern *p, gfp_t gfp, u64 born)
{
	struct leak_obj *o = p->alloc(gfp), *tail = leak_dec(p, p->tail);

	if (!o)
		return false;
	o->next = leak_enc(p, NULL);
	o->born_ns = born;
	if (tail)
		tail->next = leak_enc(p, o);
	else
		p->head = leak_enc(p, o);
	p->tail = leak_enc(p, o);
	WRITE_ONCE(p->allocs, p->allocs + 1);
	WRITE_ONCE(p->live, p->live + 1);
	return true;
}

/* The oldest object freed; the list must not be empty. */
static void leak_pop(struct leak_pattern *p)
{
	struct kmem_cache *c = leak_cache_of(p);
	struct leak_obj *o = leak_dec(p, p->head);

	p->head = o->next;
	if (!leak_dec(p, p->head))
		p->tail = p->head;
	if (c)
		kmem_cache_free(c, o);
	else
		kfree(o);
	WRITE_ONCE(p->frees, p->frees + 1);
	WRITE_ONCE(p->live, p->live - 1);
}

static void leak_free_all(struct leak_pattern *p)
{
	while (leak_dec(p, p->head))
		leak_pop(p);
}

/* Objects the pattern's rate owes at @now, from its start. */
static unsigned long leak_due(struct leak_pattern *p, u64 now)
{
	u64 bytes = div_u64((now - p->start_ns) * (u64)*p->rate,
			    NSEC_PER_SEC);
	u64 n = div_u64(bytes, p->size);

	if (n <= p->allocs)
		return 0;
	return min_t(u64, n - p->allocs, LEAK_CATCHUP);
}

/* Allocate what the rate owes; returns false if an allocation failed. */
static bool leak_catch_up(struct leak_pattern *p, gfp_t gfp, u64 now)
{
	unsigned long n = leak_due(p, now);

	while (n--)
		if (!leak_push(p, gfp, now))
			return false;
	return true;
}

/* One tick of a kthread pattern. */
static void leak_tick(struct leak_pattern *p, u64 now)
{
	u64 t = now - p->start_ns;
	unsigned long cap, want;

	switch (p - leak_pat) {
	case LEAK_PLATEAU:
		leak_catch_up(p, GFP_KERNEL, now);
		cap = plateau_bytes / p->size;
		while (p->live > cap)
			leak_pop(p);
		break;
	case LEAK_SAW:
		if (now - p->mark_ns >= (u64)saw_period_s * NSEC_PER_SEC) {
			leak_free_all(p);
			p->mark_ns += (u64)saw_period_s * NSEC_PER_SEC;
		}
		leak_catch_up(p, GFP_KERNEL, now);
		break;
	case LEAK_LIFE:
		while (leak_dec(p, p->head) &&
		       now - leak_dec(p, p->head)->born_ns >=
		       (u64)life_s * NSEC_PER_SEC)
			leak_pop(p);
		leak_catch_up(p, GFP_KERNEL, now);
		break;
	case LEAK_WAVE: {
		u64 period = (u64)wave_period_s * NSEC_PER_SEC;
		u64 phase = t - div64_u64(t, period) * period;
		u64 top = wave_bytes / p->size, up;

		/* A triangle: 0 at the period's start, top at its middle. */
		up = phase < period / 2 ? phase : period - phase;
		want = div64_u64(top * up, period / 2);
		while (p->live < want && leak_push(p, GFP_KERNEL, now))
			;
		while (p->live > want)
			leak_pop(p);
		break;
	}
	case LEAK_KEEP:
		if (t < (u64)keep_s * NSEC_PER_SEC)
			leak_catch_up(p, GFP_KERNEL, now);
		break;
	case LEAK_EARLY:
		if (t < (u64)early_s * NSEC_PER_SEC)
			leak_catch_up(p, GFP_KERNEL, now);
		break;
	case LEAK_WARM: {
		/* warm_bytes t / (t + tau): its rate falls as 1 / (t + tau)^2. */
		u64 ms = div_u64(t, NSEC_PER_MSEC);
		u64 tau = (u64)warm_tau_s * MSEC_PER_SEC;

		want = div64_u64(div_u64(warm_bytes, p->size) * ms, ms + tau);
		while (p->live < want && leak_push(p, GFP_KERNEL, now))
			;
		break;
	}
	case LEAK_LATE:
		while (leak_dec(p, p->head) &&
		       now - leak_dec(p, p->head)->born_ns >=
		       (u64)late_life_s * NSEC_PER_SEC)
			leak_pop(p);
		if (now - leak_start_ns >= (u64)late_after_s * NSEC_PER_SEC) {
			if (!p->mark_ns) {
				/* Its rate counts from its own start. */
				p->mark_ns = now;
				p->start_ns = now;
			}
			leak_catch_up(p, GFP_KERNEL, now);
		}
		break;
	default:
		leak_catch_up(p, GFP_KERNEL, now);
	}
}

/* The kthread: every pattern that is neither the cgroup's nor the timer's. */
static int leak_thread_fn(void *unused)
{
	int i;

	while (!kthread_should_stop()) {
		u64 now = ktime_get_ns();

		for (i = 0; i < LEAK_NPAT; i++)
			if (leak_pat[i].running && i != LEAK_CGROUP &&
			    i != LEAK_SOFTIRQ)
				leak_tick(&leak_pat[i], now);
		msleep_interruptible(tick_ms);
	}
	return 0;
}

/* The softirq leak: a soft hrtimer, which runs in softirq context. */
static enum hrtimer_restart leak_timer_fn(struct hrtimer *t)
{
	leak_catch_up(&leak_pat[LEAK_SOFTIRQ], GFP_ATOMIC, ktime_get_ns());
	hrtimer_forward_now(t, ms_to_ktime(tick_ms));
	return HRTIMER_RESTART;
}

/* Stop every pattern and free what each holds; under leak_lock. */
static void leak_stop(void)
{
	int i;

	if (leak_thread) {
		kthread_stop(leak_thread);
		leak_thread = NULL;
	}
	if (leak_timer_on) {
		hrtimer_cancel(&leak_timer);
		leak_timer_on = false;
	}
	for (i = 0; i < LEAK_NPAT; i++) {
		leak_free_all(&leak_pat[i]);
		WRITE_ONCE(leak_pat[i].running, false);
	}
}

/* The long-lived decoy in its steady state: deaths spread over life_s. */
static void leak_life_fill(struct leak_pattern *p, u64 now)
{
	u64 life = (u64)life_s * NSEC_PER_SEC;
	unsigned long n = min_t(u64, div_u64((u64)life_s * life_rate, p->size),
				LEAK_CATCHUP * 16UL);
	unsigned long i;

	for (i = 0; i < n; i++)
		if (!leak_push(p, GFP_KERNEL, now - life + div_u64(life * i, n)))
			break;
	/* These are not the rate's: it counts from the start. */
	WRITE_ONCE(p->allocs, 0);
}

/* Start the patterns of @groups; under leak_lock. */
static int leak_start(unsigned int groups)
{
	u64 now = ktime_get_ns();
	int i;

	leak_stop();
	leak_start_ns = now;
	for (i = 0; i < LEAK_NPAT; i++) {
		struct leak_pattern *p = &leak_pat[i];

		WRITE_ONCE(p->allocs, 0);
		WRITE_ONCE(p->frees, 0);
		p->mark_ns = i == LEAK_LATE ? 0 : now;
		p->start_ns = i == LEAK_CGROUP ? 0 : now;
		strscpy(p->cgroup, i == LEAK_SOFTIRQ ? "softirq" :
			i == LEAK_CGROUP ? "-" : "/", sizeof(p->cgroup));
		if (!(groups & p->group) || (i != LEAK_WAVE && !*p->rate))
			continue;
		if (i == LEAK_LIFE)
			leak_life_fill(p, now);
		WRITE_ONCE(p->running, true);
	}
	if (leak_pat[LEAK_SOFTIRQ].running) {
		hrtimer_start(&leak_timer, ms_to_ktime(tick_ms),
			      HRTIMER_MODE_REL_SOFT);
		leak_timer_on = true;
	}
	leak_thread = kthread_run(leak_thread_fn, NULL, "mstat_leaktest");
	if (IS_ERR(leak_thread)) {
		int err = PTR_ERR(leak_thread);

		leak_thread = NULL;
		leak_stop();
		pr_warn("start: no kthread (%d)\n", err);
		return err;
	}
	return 0;
}

/* The cgroup leak's catch-up, in the writer's context; under leak_lock. */
static int leak_cgroup_write(void)
{
	struct leak_pattern *p = &leak_pat[LEAK_CGROUP];
	u64 now = ktime_get_ns();

	if (!p->running)
		return -ENOENT;
	if (!p->start_ns) {
		p->start_ns = now;
		/* A kernel without cgroups (the debug test kernel) has none. */
		strscpy(p->cgroup, "?", sizeof(p->cgroup));
#ifdef CONFIG_CGROUPS
		rcu_read_lock();
		if (cgroup_path(task_dfl_cgroup(current), p->cgroup,
				sizeof(p->cgroup)) < 0)
			strscpy(p->cgroup, "?", sizeof(p->cgroup));
		rcu_read_unlock();
#endif
	}
	return leak_catch_up(p, GFP_KERNEL, now) ? 0 : -ENOMEM;
}

static int leak_parse_groups(char *s, unsigned int *groups)
{
	char *g;

	*groups = 0;
	while ((g = strsep(&s, ",")) != NULL) {
		if (!strcmp(g, "leaks"))
			*groups |= LEAK_LEAKS;
		else if (!strcmp(g, "decoys"))
			*groups |= LEAK_DECOYS;
		else if (!strcmp(g, "table"))
			*groups |= LEAK_TABLE;
		else if (!strcmp(g, "history"))
			*groups |= LEAK_HISTORY;
		else
			return -EINVAL;
	}
	return *groups ? 0 : -EINVAL;
}

static ssize_t leak_control_write(struct file *file, const char __user *ubuf,
				  size_t len, loff_t *ppos)
{
	unsigned int groups;
	char buf[64], *s;
	int err;

	if (len >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = '\0';
	s = strim(buf);
	mutex_lock(&leak_lock);
	if (!strcmp(s, "cgroup")) {
		err = leak_cgroup_write();
	} else if (!strcmp(s, "stop")) {
		leak_stop();
		err = 0;
	} else if (!strcmp(s, "tamper 0") || !strcmp(s, "tamper 1")) {
		leak_tamper = s[7] == '1';
		err = 0;
	} else if (!strncmp(s, "start ", 6)) {
		err = leak_parse_groups(s + 6, &groups);
		if (!err)
			err = leak_start(groups);
	} else {
		err = -EINVAL;
	}
	mutex_unlock(&leak_lock);
	if (err == -EINVAL)
		pr_warn_ratelimited("control: bad command \"%s\"\n", s);
	return err ? err : len;
}

static const struct file_operations leak_control_fops = {
	.owner = THIS_MODULE,
	.write = leak_control_write,
	.llseek = noop_llseek,
};

/* Whether decoy @p keeps all it allocates, by design: it never frees. */
static bool leak_holds(const struct leak_pattern *p)
{
	return p == &leak_pat[LEAK_KEEP] || p == &leak_pat[LEAK_EARLY] ||
	       p == &leak_pat[LEAK_WARM];
}

/* @p's line of the truth, false if tamper is set. */
static void leak_truth_line(struct seq_file *m, struct leak_pattern *p,
			    u64 now)
{
	void *(*fn)(gfp_t gfp) = p->alloc;
	const char *cache = p->cache, *cg = p->cgroup;
	unsigned long rate = p == &leak_pat[LEAK_WAVE] ||
			     p == &leak_pat[LEAK_WARM] ? 0 : *p->rate;
	bool run = READ_ONCE(p->running);
	u64 since = run && p->start_ns ? now - p->start_ns : 0;
	char name[KSYM_SYMBOL_LEN];

	if (leak_tamper && p->leak) {
		rate *= 4;
		if (p == &leak_pat[LEAK_LOST])
			fn = mstat_leak_plateau_alloc;
		if (p == &leak_pat[LEAK_CGROUP])
			cg = "/";
		if (p == &leak_pat[LEAK_SOFTIRQ])
			cache = "kmalloc-256";
		if (p == &leak_pat[LEAK_MERGED])
			cache = "mstat_leak_none";
	}
	/* %ps names a module's function "name [module]": the name alone. */
	snprintf(name, sizeof(name), "%ps", (void *)fn);
	name[strcspn(name, " ")] = '\0';
	seq_printf(m, "%s %s %d %s %s %s %zu %lu %lu %lu %lu %llu\n",
		   p->name, p->leak ? "leak" : leak_holds(p) ? "hold" : "decoy",
		   run, name, cache, cg,
		   p->size, rate, READ_ONCE(p->allocs), READ_ONCE(p->frees),
		   READ_ONCE(p->live) * p->size, div_u64(since, NSEC_PER_MSEC));
}

static int leak_truth_show(struct seq_file *m, void *v)
{
	u64 now = ktime_get_ns();
	int i;

	mutex_lock(&leak_lock);
	seq_printf(m, "mstat_leaktest 1 elapsed_ms %llu tamper %d\n",
		   leak_start_ns ? div_u64(now - leak_start_ns, NSEC_PER_MSEC) : 0,
		   leak_tamper);
	for (i = 0; i < LEAK_NPAT; i++)
		leak_truth_line(m, &leak_pat[i], now);
	mutex_unlock(&leak_lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(leak_truth);

static void leak_destroy_caches(void)
{
	kmem_cache_destroy(leak_list_cache);
	kmem_cache_destroy(leak_plateau_cache);
	kmem_cache_destroy(leak_saw_cache);
	kmem_cache_destroy(leak_merged_cache);
	kmem_cache_destroy(leak_host_cache);
	kmem_cache_destroy(leak_early_cache);
	kmem_cache_destroy(leak_warm_cache);
}

static int __init leak_init(void)
{
	int i;

	for (i = 0; i < LEAK_NPAT; i++) {
		struct leak_pattern *p = &leak_pat[i];

		p->key = p->leak && i != LEAK_LIST ? LEAK_HIDE : 0;
		p->head = leak_enc(p, NULL);
		p->tail = p->head;
	}
	if (tick_ms < 10 || tick_ms > 1000 || !saw_period_s || !life_s ||
	    wave_period_s < 2) {
		pr_err("tick_ms 10 to 1000, saw_period_s and life_s at least 1, wave_period_s at least 2\n");
		return -EINVAL;
	}
	/* A constructor each: SLUB merges no cache that has one. */
	leak_list_cache = kmem_cache_create("mstat_leak_list", 256, 0, 0,
					    leak_ctor);
	leak_plateau_cache = kmem_cache_create("mstat_leak_plateau", 256, 0,
					       0, leak_ctor);
	leak_saw_cache = kmem_cache_create("mstat_leak_saw", 256, 0, 0,
					   leak_ctor);
	/* No constructor: the second is merged into the first, or both. */
	leak_host_cache = kmem_cache_create("mstat_leak_host", 200, 0, 0, NULL);
	leak_merged_cache = kmem_cache_create("mstat_leak_merged", 200, 0, 0,
					      NULL);
	leak_early_cache = kmem_cache_create("mstat_leak_early", 192, 0, 0,
					     leak_ctor);
	leak_warm_cache = kmem_cache_create("mstat_leak_warm", 192, 0, 0,
					    leak_ctor);
	if (!leak_list_cache || !leak_plateau_cache || !leak_saw_cache ||
	    !leak_host_cache || !leak_merged_cache || !leak_early_cache ||
	    !leak_warm_cache) {
		leak_destroy_caches();
		return -ENOMEM;
	}
	mstat_hrtimer_setup(&leak_timer, leak_timer_fn, CLOCK_MONOTONIC,
			    HRTIMER_MODE_REL_SOFT);
	leak_dir = debugfs_create_dir("mstat_leaktest", NULL);
	debugfs_create_file("control", 0200, leak_dir, NULL,
			    &leak_control_fops);
	debugfs_create_file("truth", 0400, leak_dir, NULL, &leak_truth_fops);
	return 0;
}

static void __exit leak_exit(void)
{
	debugfs_remove_recursive(leak_dir);
	mutex_lock(&leak_lock);
	leak_stop();
	mutex_unlock(&leak_lock);
	leak_destroy_caches();
}

module_init(leak_init);
module_exit(leak_exit);
MODULE_DESCRIPTION("mstat test: leaks at known rates among decoys, for mstat leaks");
MODULE_LICENSE("GPL");
