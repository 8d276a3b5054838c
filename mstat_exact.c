// SPDX-License-Identifier: GPL-2.0
/*
 * mstat's probes of the blocks split into order-0 pages (layer 4), in
 * mstat_kprobes.c's table, which registers them, and what they learn at
 * load of how this kernel splits them:
 *
 *  - split_page(page, order): a block made into order-0 pages, each then
 *    freed on its own (vmalloc() gets its pages so since 7.x): counted
 *    as the block's free and its pages' allocations (see
 *    mstat_count_page_split());
 *  - alloc_pages_exact(size, gfp) and alloc_pages_exact_nid(nid, size,
 *    gfp): a block of order get_order(size) whose pages are then freed
 *    at order 0, the unused ones at once. Both give the block to
 *    make_alloc_exact(addr, order, size), private to mm/page_alloc.c
 *    (5.10 to 6.12 at least): a kprobe at its entry, where its
 *    arguments are checked at load, counts the split where the kernel
 *    splits the block inline, without split_page() (6.1, 6.12), and
 *    cuts the block's heap profile sample to the size its caller holds.
 *    Where that function cannot be probed, or its arguments are not
 *    where they should be, two kretprobes on alloc_pages_exact(_nid)()
 *    do the same at their return; a kernel before 5.15 then cannot
 *    unwind a page's stack past their trampoline (the caller is lost,
 *    the function before the trampoline named instead). Where
 *    split_page()'s probe counts the split, neither does. Which, is
 *    learnt at load (mstat_exact_learn()).
 *
 * As every probe of mstat_kprobes.c's, each reads its function's
 * arguments by position; the functions' names, as compat/ found them,
 * are in that table.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kprobes.h>
#include <linux/mm.h>
#include <linux/ptrace.h>
#include <linux/sched.h>

#include "mstat_count.h"
#include "mstat_kprobes.h"
#include "mstat_kprobes_priv.h"
#include "mstat_mutant.h"
#include "mstat_sources.h"
#include "mstat_stats.h"

/*
 * What alloc_pages_exact(_nid)() call with the block: private, so no
 * header says its prototype; mstat_exact_learn() checks its arguments.
 */
#define MSTAT_MAKE_EXACT_FN	"make_alloc_exact"

/* No block is larger than 1 << 20 pages: beyond, not an order. */
#define MSTAT_BLOCK_ORDER_MAX	20

/*
 * Whether split_page()'s probe counts alloc_pages_exact()'s split: 1 if
 * it does, 0 if not, -1 until mstat_exact_learn() has found out.
 */
int mstat_exact_by_split = -1;

/*
 * Whether make_alloc_exact()'s kprobe counts for alloc_pages_exact() and
 * alloc_pages_exact_nid(), in place of their kretprobes (learnt at load,
 * as the name it has in this kernel: mstat_exact_learn()).
 */
bool mstat_exact_inner;

#ifdef MSTAT_CAN_KRETPROBE

/* The name make_alloc_exact() is probed under (a clone's, maybe). */
static char mstat_exact_inner_sym[MSTAT_KPROBE_SYM_LEN];

/*
 * What mstat_exact_learn() saw: the task whose split_page() and
 * make_alloc_exact() calls are recorded (NULL: none), and the last block
 * that task split, in task context, and its order. Written and read by
 * that task only: a probe runs in the context of the task that hit it,
 * and an interrupt on its CPU is not its task context
 * (mstat_probed_context(): in_task() is false in a handler a breakpoint
 * ran).
 */
static struct task_struct *mstat_exact_learner;
static struct page *mstat_exact_seen;
static unsigned int mstat_exact_seen_order;

/* And the last make_alloc_exact() call that task made: its arguments. */
static unsigned long mstat_exact_inner_seen[3];

/*
 * split_page(page, order): a block of order > 0 becomes order-0 pages,
 * each freed on its own (vmalloc() since 7.x; alloc_pages_exact() where
 * the kernel splits its block so).
 */
static int mstat_split_page_entry(struct kprobe *kp, struct pt_regs *regs)
{
	unsigned int order = regs_get_kernel_argument(regs, 1);

	if (unlikely(READ_ONCE(mstat_exact_learner) == current) &&
	    mstat_probed_context() == MSTAT_CTX_TASK) {
		mstat_exact_seen = (void *)regs_get_kernel_argument(regs, 0);
		mstat_exact_seen_order = order;
	}
	if (mstat_probe_empty())
		return 0;
	if (order && order <= MSTAT_BLOCK_ORDER_MAX &&
	    mstat_source_enabled(MSTAT_SRC_PAGE))
		mstat_count_page_split(order);
	return 0;
}

struct kprobe mstat_split_page_kp = {
	.pre_handler = mstat_split_page_entry,
};

/*
 * alloc_pages_exact(size, gfp), alloc_pages_exact_nid(nid, size, gfp):
 * a block of order get_order(size), traced by mm_page_alloc at that
 * order, given to make_alloc_exact(addr, order, size), which makes it
 * into order-0 pages (inline on 6.1 and 6.12: no split_page()) and frees
 * those the caller does not need; the others are freed by
 * free_pages_exact(), each traced by mm_page_free at order 0. Whichever
 * probe counts (make_alloc_exact()'s kprobe, or the two kretprobes),
 * it counts the split as split_page()'s probe would, where that probe
 * does not count this split itself (mstat_exact_learn()): never both.
 * On every kernel it cuts the block's sample in the heap profile, if it
 * has one, to the size its caller holds (mstat_count_page_trim()): the
 * block's tail, freed before the call returns, is no part of it.
 */
static void mstat_exact_count(void *addr, unsigned int order, size_t size)
{
	/* One page is no block; an order beyond the largest, no order. */
	if (!addr || !order || order > MSTAT_BLOCK_ORDER_MAX ||
	    !mstat_source_enabled(MSTAT_SRC_PAGE))
		return;
	if (!mstat_exact_by_split)
		mstat_count_page_split(order);
	mstat_count_page_trim(virt_to_page(addr), size);
}

/*
 * make_alloc_exact(addr, order, size): at its entry the block is whole
 * and traced, and nothing of the probe is on the stack of its caller's
 * page allocation, which is over: the kretprobes' trampoline, which
 * replaces alloc_pages_exact()'s return address for the whole call, is
 * where 5.10's unwinder stops a page's stack. @addr is 0 when the
 * allocation failed. The learning task's calls are kept for
 * mstat_exact_learn(), which checks that the arguments are where this
 * reads them (a clone's may not be).
 */
static int mstat_exact_inner_entry(struct kprobe *kp, struct pt_regs *regs)
{
	unsigned long addr = regs_get_kernel_argument(regs, 0);
	unsigned long order = regs_get_kernel_argument(regs, 1);
	unsigned long size = regs_get_kernel_argument(regs, 2);

	if (unlikely(READ_ONCE(mstat_exact_learner) == current) &&
	    mstat_probed_context() == MSTAT_CTX_TASK) {
		mstat_exact_inner_seen[0] = addr;
		mstat_exact_inner_seen[1] = order;
		mstat_exact_inner_seen[2] = size;
		return 0;
	}
	if (mstat_probe_empty())
		return 0;
	/* Not yet checked: nothing counted (the sources are off anyway). */
	if (!READ_ONCE(mstat_exact_inner))
		return 0;
	mstat_exact_count((void *)addr, order, size);
	return 0;
}

struct kprobe mstat_exact_inner_kp = {
	.pre_handler = mstat_exact_inner_entry,
};

static int mstat_exact_entry(struct kretprobe_instance *ri,
			     struct pt_regs *regs)
{
	if (mstat_probe_empty())
		return 0;
	*(size_t *)ri->data = regs_get_kernel_argument(regs, 0);
	return 0;
}

static int mstat_exact_nid_entry(struct kretprobe_instance *ri,
				 struct pt_regs *regs)
{
	if (mstat_probe_empty())
		return 0;
	*(size_t *)ri->data = regs_get_kernel_argument(regs, 1);
	return 0;
}

static int mstat_exact_ret(struct kretprobe_instance *ri,
			   struct pt_regs *regs)
{
	size_t size = *(size_t *)ri->data;
	void *addr = (void *)regs_return_value(regs);

	if (mstat_probe_empty())
		return 0;

	/* A size beyond the largest block: no order. */
	if (size > (PAGE_SIZE << MSTAT_BLOCK_ORDER_MAX))
		return 0;
	mstat_exact_count(addr, get_order(size), size);
	return 0;
}

struct kretprobe mstat_exact_rp = {
	.entry_handler = mstat_exact_entry,
	.handler = mstat_exact_ret,
	.data_size = sizeof(size_t),
};

struct kretprobe mstat_exact_nid_rp = {
	.entry_handler = mstat_exact_nid_entry,
	.handler = mstat_exact_ret,
	.data_size = sizeof(size_t),
};

/*
 * Probe make_alloc_exact() (or the one clone of it this kernel has, as
 * mstat_kprobe_symbol() finds it), its kprobe counting nothing until
 * mstat_exact_learn() has checked its arguments. Return: whether it is
 * registered.
 */
static bool mstat_exact_inner_register(void)
{
	int err;

	if (mstat_mutant(MSTAT_MUT_NO_EXACT))
		return false;
	err = mstat_kprobe_symbol(MSTAT_MAKE_EXACT_FN, mstat_exact_inner_sym,
				  sizeof(mstat_exact_inner_sym));
	if (!err) {
		mstat_exact_inner_kp.symbol_name = mstat_exact_inner_sym;
		mstat_exact_inner_kp.addr = NULL;
		err = register_kprobe(&mstat_exact_inner_kp);
	}
	if (!err)
		return true;
	pr_info("alloc_pages_exact(): no probe on %s() (%d): kretprobes on alloc_pages_exact() and alloc_pages_exact_nid() count it\n",
		MSTAT_MAKE_EXACT_FN, err);
	return false;
}

/**
 * mstat_exact_learn() - learn which probe counts alloc_pages_exact()'s split
 * @split: whether split_page()'s probe is registered
 *
 * Make one alloc_pages_exact() of five pages (a block of order 3) while
 * split_page()'s and make_alloc_exact()'s probes record this task's
 * calls, and free it.
 *
 * If split_page()'s probe saw this very block split at order 3, it
 * counts the split: the exact probes do not. If not (the kernel splits
 * the block inline), they count it; and so they do, with nothing to
 * learn, where split_page() is not probed.
 *
 * If make_alloc_exact()'s kprobe saw this block, order 3 and five pages'
 * bytes as its arguments, it counts for alloc_pages_exact() and
 * alloc_pages_exact_nid(), whose kretprobes are then not registered; if
 * it saw anything else (an inlined copy called instead, a clone with
 * other arguments, a changed prototype), it is unregistered and they
 * are.
 *
 * GFP_NOWAIT first: no direct compaction, which splits free pages too,
 * runs within it (within the GFP_KERNEL retry it could, but it would
 * have to split this very block at this order). Called before
 * mstat_ctl_start() turns the sources on, so none of this is counted.
 *
 * Context: process; sleeps. From mstat_kprobes_init(), after
 * split_page()'s probe is registered, before alloc_pages_exact()'s.
 * Return: 0 or -ENOMEM.
 */
int mstat_exact_learn(bool split)
{
	size_t size = 5 * PAGE_SIZE;
	bool inner;
	void *p;

	mstat_exact_by_split = 0;
	mstat_exact_inner = false;
	inner = mstat_exact_inner_register();
	if (!split && !inner)
		return 0;
	mstat_exact_seen = NULL;
	memset(mstat_exact_inner_seen, 0, sizeof(mstat_exact_inner_seen));
	WRITE_ONCE(mstat_exact_learner, current);
	p = alloc_pages_exact(size, GFP_NOWAIT | __GFP_NOWARN);
	if (!p)
		p = alloc_pages_exact(size, GFP_KERNEL);
	WRITE_ONCE(mstat_exact_learner, NULL);
	if (!p) {
		if (inner)
			unregister_kprobe(&mstat_exact_inner_kp);
		pr_err("cannot learn how alloc_pages_exact() splits its block: no memory\n");
		return -ENOMEM;
	}
	mstat_exact_by_split = split && mstat_exact_seen == virt_to_page(p) &&
			       mstat_exact_seen_order == get_order(size);
	if (inner && (mstat_exact_inner_seen[0] != (unsigned long)p ||
		      mstat_exact_inner_seen[1] != get_order(size) ||
		      mstat_exact_inner_seen[2] != size)) {
		pr_warn("alloc_pages_exact(): %s() did not see its block, order %u, %zu bytes (%s, %lu, %lu): kretprobes on alloc_pages_exact() and alloc_pages_exact_nid() count it\n",
			mstat_exact_inner_sym, get_order(size), size,
			mstat_exact_inner_seen[0] == (unsigned long)p ?
			"the block" : "another address",
			mstat_exact_inner_seen[1], mstat_exact_inner_seen[2]);
		unregister_kprobe(&mstat_exact_inner_kp);
		inner = false;
	}
	free_pages_exact(p, size);
	WRITE_ONCE(mstat_exact_inner, inner);
	pr_info("alloc_pages_exact() splits its block %s; its sample cut %s%s%s\n",
		mstat_exact_by_split ? "through split_page(): counted there" :
		split ? "inline, not through split_page()" :
		"(split_page() not probed: counted with the cut)",
		inner ? "at " : "by kretprobes on alloc_pages_exact() and alloc_pages_exact_nid()",
		inner ? mstat_exact_inner_sym : "", inner ? "()" : "");
	return 0;
}

#else /* no kretprobes */

/* What mstat_kprobes.c's table points to: probes never registered. */
struct kretprobe mstat_exact_rp, mstat_exact_nid_rp;
struct kprobe mstat_split_page_kp, mstat_exact_inner_kp;

#endif
