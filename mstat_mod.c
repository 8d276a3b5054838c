// SPDX-License-Identifier: GPL-2.0
/*
 * mstat - consistent statistics of kernel memory allocation events
 *
 * Counters live in mstat_core (see mstat_core/mstat_core.h for the
 * protocol): writers add per-CPU deltas without locks or barriers, and a
 * read of /proc/mstat folds them into one snapshot taken at a single cut
 * across all CPUs, so that allocations - frees == live, exactly.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/proc_fs.h>
#include <linux/seq_file.h>
#include <linux/slab.h>

#include "mstat.h"
#include "mstat_core/mstat_core.h"

/* The format of /proc/mstat; bump the minor for added lines. */
#define MSTAT_FORMAT_VERSION	"1.0"

/**
 * struct mstat_stats - the counters one section updates
 * @api: allocations reported by other modules through mstat_account_*()
 *
 * Layout of a core slot: u64 and s64 counters only.
 */
struct mstat_stats {
	struct mstat_source_stats {
		u64 allocs;
		u64 frees;
		u64 failures;
		u64 bytes_req;
		u64 bytes_alloc;
		u64 bytes_freed;
	} api;
};

static struct mstat_core mstat_core;

#define mstat_stat_add(s, field, val) \
	mstat_add(s, struct mstat_stats, field, val)

/**
 * mstat_account_alloc() - report an allocation of another allocator
 * @req: bytes the caller asked for
 * @alloc: bytes the allocator handed out (>= @req); 0 for a failure
 * @call_site: the caller's address, usually _RET_IP_
 *
 * Counts one allocation of @alloc bytes, or one failure if @alloc is 0.
 * Never sleeps, never allocates.
 *
 * Context: any but NMI. This function is preempt and irq safe.
 */
void mstat_account_alloc(size_t req, size_t alloc, unsigned long call_site)
{
	struct mstat_section s;

	mstat_write_begin(&mstat_core, &s);
	if (alloc) {
		mstat_stat_add(&s, api.allocs, 1);
		mstat_stat_add(&s, api.bytes_req, req);
		mstat_stat_add(&s, api.bytes_alloc, alloc);
	} else {
		mstat_stat_add(&s, api.failures, 1);
	}
	mstat_write_end(&mstat_core, &s);
}
EXPORT_SYMBOL_GPL(mstat_account_alloc);

/**
 * mstat_account_free() - report a free of another allocator
 * @alloc: bytes the allocator had handed out for the object
 * @call_site: the caller's address, usually _RET_IP_
 *
 * Context: any but NMI. This function is preempt and irq safe.
 */
void mstat_account_free(size_t alloc, unsigned long call_site)
{
	struct mstat_section s;

	mstat_write_begin(&mstat_core, &s);
	mstat_stat_add(&s, api.frees, 1);
	mstat_stat_add(&s, api.bytes_freed, alloc);
	mstat_write_end(&mstat_core, &s);
}
EXPORT_SYMBOL_GPL(mstat_account_free);

struct mstat_proc_snap {
	struct mstat_snapshot snap;
	struct mstat_stats st;
};

static int mstat_proc_show(struct seq_file *m, void *v)
{
	const struct mstat_proc_snap *ps = m->private;
	const struct mstat_source_stats *a = &ps->st.api;

	seq_puts(m, "mstat - version: " MSTAT_FORMAT_VERSION "\n");
	seq_printf(m, "generation %llu\n", ps->snap.gen);
	seq_printf(m, "api_allocs %llu\n", a->allocs);
	seq_printf(m, "api_frees %llu\n", a->frees);
	seq_printf(m, "api_failures %llu\n", a->failures);
	seq_printf(m, "api_bytes_requested %llu\n", a->bytes_req);
	seq_printf(m, "api_bytes_allocated %llu\n", a->bytes_alloc);
	seq_printf(m, "api_bytes_freed %llu\n", a->bytes_freed);
	seq_printf(m, "live_objects %lld\n", (s64)(a->allocs - a->frees));
	seq_printf(m, "live_bytes %lld\n",
		   (s64)(a->bytes_alloc - a->bytes_freed));
	return 0;
}

/* One open is one snapshot, however the output is read. */
static int mstat_proc_open(struct inode *inode, struct file *file)
{
	struct mstat_proc_snap *ps;
	int err;

	ps = kmalloc(sizeof(*ps), GFP_KERNEL);
	if (!ps)
		return -ENOMEM;
	err = mstat_read(&mstat_core, &ps->snap, &ps->st);
	if (!err)
		err = single_open(file, mstat_proc_show, ps);
	if (err)
		kfree(ps);
	return err;
}

static int mstat_proc_release(struct inode *inode, struct file *file)
{
	struct seq_file *m = file->private_data;

	kfree(m->private);
	return single_release(inode, file);
}

static const struct proc_ops mstat_proc_ops = {
	.proc_open	= mstat_proc_open,
	.proc_read	= seq_read,
	.proc_lseek	= seq_lseek,
	.proc_release	= mstat_proc_release,
};

static int __init mstat_init(void)
{
	int err;

	err = mstat_core_init(&mstat_core, sizeof(struct mstat_stats));
	if (err)
		return err;
	if (!proc_create("mstat", 0400, NULL, &mstat_proc_ops)) {
		mstat_core_destroy(&mstat_core);
		return -ENOMEM;
	}
	pr_info("loaded\n");
	return 0;
}

static void __exit mstat_exit(void)
{
	remove_proc_entry("mstat", NULL);
	mstat_core_destroy(&mstat_core);
}

module_init(mstat_init);
module_exit(mstat_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Consistent snapshots of kernel memory allocation statistics");
