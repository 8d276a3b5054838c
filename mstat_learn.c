// SPDX-License-Identifier: GPL-2.0
/*
 * What mstat learns at load from the running kernel's own events (layer
 * 4), not from its version, which vendor kernels' backports make a poor
 * guide: which call sites of the kmalloc event are the kernel's inner,
 * second event of one large kmalloc (mstat_twice_learn()).
 *
 * Some kernels (6.12) trace one kmalloc above KMALLOC_MAX_CACHE_SIZE
 * whose size is not a compile-time constant twice, once in
 * __kmalloc_large_node() with a call site inside the slab allocator,
 * once more with the real caller; the kfree is traced once. The kmalloc
 * probe (mstat_sources.c) skips the inner events' call sites learnt
 * here. The learner runs once, before any of the sources' probes is
 * registered, with probes of its own that it removes before it returns:
 * nothing here runs on the allocation path.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/mm.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/tracepoint.h>

#include "mstat_compat.h"
#include "mstat_learn.h"
#include "mstat_mutant.h"

/* What the learning probe saw: the kmalloc events of one task. */
struct mstat_twice_seen {
	struct task_struct *task;
	unsigned int nr;
	struct {
		unsigned long site;
		const void *ptr;
	} ev[16];
};

/*
 * Only the learning task's own events, in its own context: an interrupt
 * on its CPU runs with current still the learning task, and its large
 * kmalloc, whose pages the next kmalloc of ours may well reuse, would be
 * taken for an inner event of ours (its site then skipped for good).
 */
static void __mstat_probe_twice(struct mstat_twice_seen *seen,
				unsigned long call_site, const void *ptr)
{
	if (READ_ONCE(seen->task) != current ||
	    (!in_task() && !mstat_mutant(MSTAT_MUT_LEARN_IRQ)) ||
	    seen->nr == ARRAY_SIZE(seen->ev))
		return;
	seen->ev[seen->nr].site = call_site;
	seen->ev[seen->nr].ptr = ptr;
	seen->nr++;
}

/* On the kmalloc event, and before 6.0 kmalloc_node's (node_tp). */
static void mstat_probe_twice_node(void *data, unsigned long call_site,
				   const void *ptr, size_t bytes_req,
				   size_t bytes_alloc, gfp_t gfp_flags,
				   int node)
{
	__mstat_probe_twice(data, call_site, ptr);
}

#ifdef MSTAT_HAVE_TP_KMALLOC_NODE
#define mstat_probe_twice	mstat_probe_twice_node
#else
static void mstat_probe_twice(void *data, unsigned long call_site,
			      const void *ptr, size_t bytes_req,
			      size_t bytes_alloc, gfp_t gfp_flags)
{
	__mstat_probe_twice(data, call_site, ptr);
}
#endif

/* Whether @site is one of the inner events' sites learnt so far. */
static bool mstat_twice_known(const struct mstat_twice *learnt,
			      unsigned long site)
{
	unsigned int k;

	for (k = 0; k < learnt->nr; k++)
		if (learnt->site[k] == site)
			return true;
	return false;
}

static void mstat_twice_add(struct mstat_twice *learnt, unsigned long site)
{
	if (!mstat_twice_known(learnt, site) && learnt->nr < MSTAT_TWICE_MAX)
		learnt->site[learnt->nr++] = site;
}

/* How many of @seen's events are of @ptr, and how many of those ours. */
static unsigned int mstat_twice_events(const struct mstat_twice_seen *seen,
				       const struct mstat_twice *learnt,
				       const void *ptr, unsigned int *mine,
				       unsigned int *counted)
{
	unsigned int i, n = 0;

	*mine = 0;
	*counted = 0;
	for (i = 0; i < seen->nr; i++) {
		if (seen->ev[i].ptr != ptr)
			continue;
		n++;
		*mine += within_module(seen->ev[i].site, THIS_MODULE);
		*counted += !mstat_twice_known(learnt, seen->ev[i].site);
	}
	return n;
}

/**
 * mstat_twice_learn() - learn which kmalloc events are a kernel's inner ones
 * @tp: the kmalloc tracepoint
 * @node_tp: the kmalloc_node tracepoint (before 6.0), or NULL
 * @learnt: set to the call sites of the kernel's inner events (none where
 *	every large kmalloc is traced once)
 *
 * Make one large kmalloc through each exported entry that inlines
 * __do_kmalloc_node(), and one large kvmalloc(), with a size the compiler
 * cannot see, while a probe of our own records this task's kmalloc
 * events. An object with more than one event, one of them with its call
 * site in this module, was traced twice: its other events are the
 * kernel's inner ones (6.12: kmalloc's, 7.x: kvmalloc's own copy of the
 * kmalloc path too), and their sites are skipped from then on. An object
 * with one event was traced once, wherever its site (6.1; kvmalloc on
 * 6.12, whose event names kvmalloc; 5.10 on arm64, which does not
 * tail-call the large path). Then every object must have exactly one
 * event counted; if one has not, nothing is skipped, and the log says
 * that large kmallocs may count twice. noinline: kmalloc_track_caller()'s
 * call site is our caller, in this module too.
 *
 * Context: process, at load, before any of the sources' probes is
 * registered; sleeps.
 * Return: 0, or -errno (a probe not registered, or no memory).
 */
noinline int mstat_twice_learn(struct tracepoint *tp,
			       struct tracepoint *node_tp,
			       struct mstat_twice *learnt)
{
	static struct mstat_twice_seen seen;
	size_t size = KMALLOC_MAX_CACHE_SIZE + 1;
	unsigned int i, j, n, mine, counted, bad = 0;
	void *obj[4];
	int err;

	OPTIMIZER_HIDE_VAR(size);
	memset(&seen, 0, sizeof(seen));
	memset(learnt, 0, sizeof(*learnt));
	err = tracepoint_probe_register(tp, mstat_probe_twice, &seen);
	if (err)
		return err;
	if (node_tp) {
		err = tracepoint_probe_register(node_tp, mstat_probe_twice_node,
						&seen);
		if (err) {
			tracepoint_probe_unregister(tp, mstat_probe_twice, &seen);
			return err;
		}
	}
	WRITE_ONCE(seen.task, current);
	obj[0] = kmalloc(size, GFP_KERNEL);
	obj[1] = kmalloc_node(size, GFP_KERNEL, NUMA_NO_NODE);
	obj[2] = kmalloc_track_caller(size, GFP_KERNEL);
	obj[3] = kvmalloc(size, GFP_KERNEL);
	WRITE_ONCE(seen.task, NULL);
	if (node_tp)
		tracepoint_probe_unregister(node_tp, mstat_probe_twice_node,
					    &seen);
	tracepoint_probe_unregister(tp, mstat_probe_twice, &seen);
	tracepoint_synchronize_unregister();

	for (j = 0; j < ARRAY_SIZE(obj); j++) {
		if (!obj[j] || mstat_twice_events(&seen, learnt, obj[j], &mine,
						  &counted) < 2 || mine != 1)
			continue;
		for (i = 0; i < seen.nr; i++)
			if (seen.ev[i].ptr == obj[j] &&
			    !within_module(seen.ev[i].site, THIS_MODULE))
				mstat_twice_add(learnt, seen.ev[i].site);
	}
	for (j = 0; j < ARRAY_SIZE(obj); j++) {
		/* A kvmalloc() that fell back to vmalloc() traced none. */
		if (!obj[j] || is_vmalloc_addr(obj[j]))
			continue;
		n = mstat_twice_events(&seen, learnt, obj[j], &mine, &counted);
		if (counted != 1) {
			pr_warn("large kmalloc #%u: %u events, %u of them from this module, %u counted\n",
				j, n, mine, counted);
			bad++;
		}
	}
	for (j = 0; j < 3; j++) {
		if (!obj[j])
			err = -ENOMEM;
		kfree(obj[j]);
	}
	kvfree(obj[3]);
	if (err) {
		pr_err("cannot learn how large kmallocs are traced: %d\n", err);
		return err;
	}
	if (bad) {
		learnt->nr = 0;
		pr_warn("large kmallocs traced in a way mstat does not know: each event counted, a large kmalloc may count twice\n");
	} else if (learnt->nr) {
		pr_info("this kernel traces a large kmalloc twice (%u sites): counting it once\n",
			learnt->nr);
	}
	return 0;
}
