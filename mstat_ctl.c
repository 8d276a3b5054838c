// SPDX-License-Identifier: GPL-2.0
/*
 * The runtime controls (layer 5) and their module-parameter face.
 *
 * Each control is one entry of mstat_ctls[]: a maximum, a get and a set
 * function. Two faces write them, through the same parser and the same
 * set function: the debugfs files (mstat_debugfs.c), and the module
 * parameters of the same names here, /sys/module/mstat/parameters/NAME,
 * which also take a value at load (insmod mstat.ko sync_mode=2) and which,
 * unlike a writable debugfs file, a kernel locked down for integrity
 * (Secure Boot) still lets root write. Every write is parsed strictly:
 * bad input gets -EINVAL, one rate-limited log line, and changes nothing.
 *
 * The parameters live longer than the module's state: the kernel parses
 * them before mstat_init() runs, and sysfs takes writes while it runs and
 * after mstat_exit() has started (the files go after ->exit). So a
 * parameter write does what the module's state allows, under
 * kernel_param_lock(THIS_MODULE), which the kernel holds around every
 * parameter's set and get:
 *
 *	BOOT (parsing insmod's arguments)	validate, keep as the load value
 *	INIT (mstat_init() runs)		-EBUSY, with a log line
 *	LIVE					the control's set function
 *	GONE (init failed, or exit started)	-ENODEV
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitmap.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/string.h>

#include "mstat_caches.h"
#include "mstat_ctl.h"
#include "mstat_faces.h"
#include "mstat_mutant.h"
#include "mstat_profile.h"
#include "mstat_sources.h"
#include "mstat_stats.h"
#include "mstat_stream.h"
#include "mstat_vmem.h"

static u64 mstat_enable_get(int src)
{
	return mstat_source_enabled(src);
}

static int mstat_enable_set(int src, u64 val)
{
	int err = mstat_source_set(src, val);

	return mstat_mutant(MSTAT_MUT_SWITCH_LIES) ? 0 : err;
}

/*
 * What the kernel held when counting began, at load and at each reset:
 * its counters (kernel_*_bytes_at_load) and the caches' objects (the
 * cache and kmalloc_class rows' at_load_objects).
 */
static void mstat_ctl_mark(void)
{
	mstat_kernel_mark();
	mstat_caches_mark();
}

static int mstat_reset_set(int arg, u64 val)
{
	int err;

	if (val != 1) {
		pr_warn_ratelimited("reset: write 1 to reset\n");
		return -EINVAL;
	}
	err = mstat_reset(&mstat_core);
	if (err)
		return err;
	mstat_vmem_rebase();
	mstat_ctl_mark();
	return 0;
}

static u64 mstat_ev_sources_get(int arg)
{
	return READ_ONCE(mstat_stream_sources);
}

static int mstat_ev_sources_set(int arg, u64 val)
{
	return mstat_stream_set_sources(val);
}

static u64 mstat_ev_min_get(int arg)
{
	return mstat_stream_min_size();
}

static int mstat_ev_min_set(int arg, u64 val)
{
	mstat_stream_set_min_size(val);
	return 0;
}

static u64 mstat_ev_dropped_get(int arg)
{
	return mstat_stream_dropped();
}

static u64 mstat_profile_rate_get(int arg)
{
	return READ_ONCE(mstat_profile_rate);
}

static int mstat_profile_rate_set(int arg, u64 val)
{
	mstat_profile_set_rate(val);
	return 0;
}

static u64 mstat_profile_pages_get(int arg)
{
	return static_key_enabled(&mstat_profile_pages_key);
}

static int mstat_profile_pages_set(int arg, u64 val)
{
	mstat_profile_set_pages(val);
	return 0;
}

static u64 mstat_sync_get(int arg)
{
	return mstat_get_sync(&mstat_core);
}

static int mstat_sync_set(int arg, u64 val)
{
	return mstat_set_sync(&mstat_core, val);
}

static u64 mstat_per_cache_get(int arg)
{
	return static_key_enabled(&mstat_caches_key);
}

static int mstat_per_cache_set(int arg, u64 val)
{
	int err = mstat_caches_enable(val);

	if (err)
		pr_warn_ratelimited("per_cache: no table to count in (cache_rows=0)\n");
	return err;
}

static u64 mstat_proc_interval_get(int arg)
{
	return mstat_proc_interval();
}

static int mstat_proc_interval_set(int arg, u64 val)
{
	mstat_proc_set_interval(val);
	return 0;
}

const struct mstat_ctl mstat_ctls[MSTAT_NR_CTLS] = {
	[MSTAT_CTL_ENABLE_KMALLOC] = {
		"enable_kmalloc", 0600, 1, 1, true, MSTAT_SRC_KMALLOC,
		mstat_enable_get, mstat_enable_set },
	[MSTAT_CTL_ENABLE_CACHE] = {
		"enable_cache", 0600, 1, 1, true, MSTAT_SRC_CACHE,
		mstat_enable_get, mstat_enable_set },
	[MSTAT_CTL_ENABLE_PAGE] = {
		"enable_page", 0600, 1, 1, true, MSTAT_SRC_PAGE,
		mstat_enable_get, mstat_enable_set },
	[MSTAT_CTL_ENABLE_API] = {
		"enable_api", 0600, 1, 1, true, MSTAT_SRC_API,
		mstat_enable_get, mstat_enable_set },
	[MSTAT_CTL_RESET] = {
		"reset", 0200, 1, 0, false, 0, NULL, mstat_reset_set },
	[MSTAT_CTL_EVENTS_SOURCES] = {
		"events_sources", 0600, BIT(MSTAT_NR_SOURCES) - 1, 0, true, 0,
		mstat_ev_sources_get, mstat_ev_sources_set },
	[MSTAT_CTL_EVENTS_MIN_SIZE] = {
		"events_min_size", 0600, U64_MAX, 0, true, 0,
		mstat_ev_min_get, mstat_ev_min_set },
	[MSTAT_CTL_EVENTS_DROPPED] = {
		"events_dropped", 0400, 0, 0, false, 0,
		mstat_ev_dropped_get, NULL },
	[MSTAT_CTL_PROFILE_RATE] = {
		"profile_rate", 0600, MSTAT_PROFILE_RATE_MAX, 512 * 1024, true,
		0, mstat_profile_rate_get, mstat_profile_rate_set },
	[MSTAT_CTL_SYNC_MODE] = {
		"sync_mode", 0600, MSTAT_NR_SYNC - 1, MSTAT_SYNC_RCU, false, 0,
		mstat_sync_get, mstat_sync_set },
	[MSTAT_CTL_PER_CACHE] = {
		"per_cache", 0600, 1, 1, false, 0,
		mstat_per_cache_get, mstat_per_cache_set },
	[MSTAT_CTL_PROC_INTERVAL] = {
		"proc_min_interval_ms", 0600, MSTAT_PROC_INTERVAL_MAX,
		MSTAT_PROC_INTERVAL_DEF, false, 0,
		mstat_proc_interval_get, mstat_proc_interval_set },
	[MSTAT_CTL_ENABLE_VMALLOC] = {
		"enable_vmalloc", 0600, 1, 1, true, MSTAT_SRC_VMALLOC,
		mstat_enable_get, mstat_enable_set },
	[MSTAT_CTL_ENABLE_PERCPU] = {
		"enable_percpu", 0600, 1, 1, true, MSTAT_SRC_PERCPU,
		mstat_enable_get, mstat_enable_set },
	[MSTAT_CTL_PROFILE_PAGES] = {
		"profile_pages", 0600, 1, 0, true, 0,
		mstat_profile_pages_get, mstat_profile_pages_set },
};

/**
 * mstat_ctl_show() - a control's value as text
 * @c: the control
 * @buf: where to print it
 * @size: room in @buf
 *
 * Context: process; the control's layer is up.
 * Return: the length printed ("%llu\n"), or -EINVAL for a write-only
 * control.
 */
int mstat_ctl_show(const struct mstat_ctl *c, char *buf, size_t size)
{
	if (!c->get)
		return -EINVAL;
	return scnprintf(buf, size, "%llu\n", c->get(c->arg));
}

/*
 * Parse a control write into @val: a number as kstrtou64() reads it (base
 * prefix, one '+', one trailing newline), 1 to MSTAT_CTL_MAX bytes with
 * no NUL among them, at most @c->max. @buf holds @len bytes and a NUL, and
 * is not read unless @len is in range. 0, or -EINVAL with one rate-limited
 * log line for anything else (overflow included).
 */
static int mstat_ctl_parse(const struct mstat_ctl *c, const char *face,
			   const char *buf, size_t len, u64 *val)
{
	/* An embedded NUL would end the string early: refuse it. */
	if (len && len <= MSTAT_CTL_MAX && strlen(buf) == len &&
	    !kstrtou64(buf, 0, val) && *val <= c->max)
		return 0;
	pr_warn_ratelimited("%s %s: invalid input (%zu bytes); expected 0 to %llu\n",
			    face, c->name, len, c->max);
	return -EINVAL;
}

/**
 * mstat_ctl_store() - parse a write to a control and set it
 * @c: the control
 * @face: what was written ("debugfs", "parameter"), for the log line
 * @buf: @len bytes, then a NUL; not read unless @len is 1 to
 *	%MSTAT_CTL_MAX
 * @len: the bytes written
 *
 * Context: process; sleeps; the control's layer is up.
 * Return: 0; -EINVAL, with one rate-limited log line, for input that is
 * not a value of @c; or what @c's set function returned.
 */
int mstat_ctl_store(const struct mstat_ctl *c, const char *face,
		    const char *buf, size_t len)
{
	u64 val;
	int err;

	if (!c->set)
		return -EINVAL;
	err = mstat_ctl_parse(c, face, buf, len, &val);
	if (!err)
		err = c->set(c->arg, val);
	return err;
}

/* The module parameters' state; see the top of this file. */
enum mstat_ctl_state {
	MSTAT_CTL_BOOT,
	MSTAT_CTL_INIT,
	MSTAT_CTL_LIVE,
	MSTAT_CTL_GONE,
};

/* All three under kernel_param_lock(THIS_MODULE). */
static enum mstat_ctl_state mstat_ctl_state;
static u64 mstat_ctl_boot_val[MSTAT_NR_CTLS];
static DECLARE_BITMAP(mstat_ctl_given, MSTAT_NR_CTLS);

/**
 * mstat_ctl_boot() - a control's value at load
 * @id: the control
 *
 * Context: mstat_init(), after mstat_ctl_begin().
 * Return: the value insmod's parameter gave it, else its default.
 */
u64 mstat_ctl_boot(enum mstat_ctl_id id)
{
	return test_bit(id, mstat_ctl_given) ? mstat_ctl_boot_val[id] :
					       mstat_ctls[id].def;
}

static void mstat_ctl_set_state(enum mstat_ctl_state state)
{
	kernel_param_lock(THIS_MODULE);
	mstat_ctl_state = state;
	kernel_param_unlock(THIS_MODULE);
}

/**
 * mstat_ctl_begin() - init starts: parameter writes get -EBUSY from now
 *
 * Context: process, first thing in mstat_init().
 */
void mstat_ctl_begin(void)
{
	mstat_ctl_set_state(MSTAT_CTL_INIT);
}

/**
 * mstat_ctl_start() - init is done: set the load values, then go live
 *
 * Sets, through their set functions, the load-time values of the controls
 * whose layers take none at init (the sources, switched on last, the
 * stream's, and the profile's rate, after the sources: an object sampled
 * while some were off could have its free missed, and every switch
 * would drop it again); from then on, a parameter write sets its control.
 * Parameter writes wait meanwhile.
 *
 * Context: process; sleeps; every layer up.
 * Return: 0, or the first set function's error (state unchanged then).
 */
int mstat_ctl_start(void)
{
	const struct mstat_ctl *c;
	int err = 0;
	u64 val;

	kernel_param_lock(THIS_MODULE);
	for (c = mstat_ctls; c < mstat_ctls + MSTAT_NR_CTLS && !err; c++) {
		val = mstat_ctl_boot(c - mstat_ctls);
		if (!c->at_start || c->get(c->arg) == val)
			continue;
		err = c->set(c->arg, val);
		/*
		 * A load does not go on without what it was asked for, even
		 * if a set function says it was made when it was not (the
		 * broken test build's does, for the enables).
		 */
		if (!err && c->get(c->arg) != val)
			err = -EIO;
	}
	if (!err) {
		mstat_ctl_mark();
		mstat_ctl_state = MSTAT_CTL_LIVE;
	}
	kernel_param_unlock(THIS_MODULE);
	return err;
}

/**
 * mstat_ctl_stop() - exit starts, or init failed: parameter writes get
 *	-ENODEV from now
 *
 * Waits for a parameter write in progress.
 *
 * Context: process; sleeps; before any layer goes down.
 */
void mstat_ctl_stop(void)
{
	mstat_ctl_set_state(MSTAT_CTL_GONE);
}

/* A parameter write, under kernel_param_lock(THIS_MODULE). */
static int mstat_param_set(const char *val, const struct kernel_param *kp)
{
	const struct mstat_ctl *c = kp->arg;
	enum mstat_ctl_id id = c - mstat_ctls;
	u64 v;
	int err;

	switch (mstat_ctl_state) {
	case MSTAT_CTL_BOOT:
		if (id == MSTAT_CTL_RESET) {
			pr_warn_ratelimited("parameter reset: nothing to reset at load\n");
			return -EINVAL;
		}
		err = mstat_ctl_parse(c, "parameter", val, strlen(val), &v);
		if (!err) {
			mstat_ctl_boot_val[id] = v;
			__set_bit(id, mstat_ctl_given);
		}
		return err;
	case MSTAT_CTL_INIT:
		pr_warn_ratelimited("parameter %s: mstat is loading; try again\n",
				    c->name);
		return -EBUSY;
	case MSTAT_CTL_LIVE:
		return mstat_ctl_store(c, "parameter", val, strlen(val));
	default:
		return -ENODEV;
	}
}

/* A parameter read, under kernel_param_lock(THIS_MODULE). */
static int mstat_param_get(char *buf, const struct kernel_param *kp)
{
	const struct mstat_ctl *c = kp->arg;

	switch (mstat_ctl_state) {
	case MSTAT_CTL_LIVE:
		return mstat_ctl_show(c, buf, PAGE_SIZE);
	case MSTAT_CTL_GONE:
		return -ENODEV;
	default:
		if (!c->get)
			return -EINVAL;
		return scnprintf(buf, PAGE_SIZE, "%llu\n",
				 mstat_ctl_boot(c - mstat_ctls));
	}
}

static const struct kernel_param_ops mstat_param_ops = {
	.set	= mstat_param_set,
	.get	= mstat_param_get,
};

/*
 * One parameter per writable control, of the control's name, with its
 * entry as the argument: 0644, reset 0200 (it has no value to read). They
 * take what the debugfs files take: the enables 0 and 1, not y and n.
 */
module_param_cb(enable_kmalloc, &mstat_param_ops,
		(void *)&mstat_ctls[MSTAT_CTL_ENABLE_KMALLOC], 0644);
MODULE_PARM_DESC(enable_kmalloc, "Count kmalloc/kfree: 1 (default) or 0");
module_param_cb(enable_cache, &mstat_param_ops,
		(void *)&mstat_ctls[MSTAT_CTL_ENABLE_CACHE], 0644);
MODULE_PARM_DESC(enable_cache, "Count kmem_cache_alloc/free: 1 (default) or 0");
module_param_cb(enable_page, &mstat_param_ops,
		(void *)&mstat_ctls[MSTAT_CTL_ENABLE_PAGE], 0644);
MODULE_PARM_DESC(enable_page, "Count page allocations and frees: 1 (default) or 0");
module_param_cb(enable_api, &mstat_param_ops,
		(void *)&mstat_ctls[MSTAT_CTL_ENABLE_API], 0644);
MODULE_PARM_DESC(enable_api, "Count what modules report with mstat_account_*(): 1 (default) or 0");
module_param_cb(reset, &mstat_param_ops,
		(void *)&mstat_ctls[MSTAT_CTL_RESET], 0200);
MODULE_PARM_DESC(reset, "Write 1 to zero every count (at runtime only)");
module_param_cb(events_sources, &mstat_param_ops,
		(void *)&mstat_ctls[MSTAT_CTL_EVENTS_SOURCES], 0644);
MODULE_PARM_DESC(events_sources, "Event stream: a bit per source to stream (1 kmalloc, 2 cache, 4 page, 8 api, 16 vmalloc, 32 percpu; default 0: off)");
module_param_cb(events_min_size, &mstat_param_ops,
		(void *)&mstat_ctls[MSTAT_CTL_EVENTS_MIN_SIZE], 0644);
MODULE_PARM_DESC(events_min_size, "Event stream: only events of this many bytes or more (default 0)");
module_param_cb(profile_rate, &mstat_param_ops,
		(void *)&mstat_ctls[MSTAT_CTL_PROFILE_RATE], 0644);
MODULE_PARM_DESC(profile_rate, "Heap profile: mean bytes between samples, at most 2^40; 1: every allocation, 0: off (default 524288)");
module_param_cb(sync_mode, &mstat_param_ops,
		(void *)&mstat_ctls[MSTAT_CTL_SYNC_MODE], 0644);
MODULE_PARM_DESC(sync_mode, "How a read waits for writers: 0 synchronize_rcu, interrupts no CPU (default); 1 synchronize_rcu_expedited; 2 IPIs to every online CPU, lowest latency");
module_param_cb(per_cache, &mstat_param_ops,
		(void *)&mstat_ctls[MSTAT_CTL_PER_CACHE], 0644);
MODULE_PARM_DESC(per_cache, "Count per slab cache: 1 (default) or 0 (every cache event in the overflow row; with cache_rows=0, no table: 1 has no effect at load and is refused at runtime)");
module_param_cb(proc_min_interval_ms, &mstat_param_ops,
		(void *)&mstat_ctls[MSTAT_CTL_PROC_INTERVAL], 0644);
MODULE_PARM_DESC(proc_min_interval_ms, "An open of /proc/mstat or /proc/mstat_sites by a reader without CAP_SYS_ADMIN takes a new snapshot at most every this many ms, else gets the last one: 0 to 3600000 (default 1000; 0: every open takes one)");
module_param_cb(enable_vmalloc, &mstat_param_ops,
		(void *)&mstat_ctls[MSTAT_CTL_ENABLE_VMALLOC], 0644);
MODULE_PARM_DESC(enable_vmalloc, "Count vm areas (vmalloc, vmap, ioremap) made and removed: 1 (default) or 0");
module_param_cb(enable_percpu, &mstat_param_ops,
		(void *)&mstat_ctls[MSTAT_CTL_ENABLE_PERCPU], 0644);
MODULE_PARM_DESC(enable_percpu, "Count percpu objects allocated and freed: 1 (default) or 0");
module_param_cb(profile_pages, &mstat_param_ops,
		(void *)&mstat_ctls[MSTAT_CTL_PROFILE_PAGES], 0644);
MODULE_PARM_DESC(profile_pages, "Heap profile: sample the page allocator's pages too, their stacks from their caller: 1 or 0 (default)");
