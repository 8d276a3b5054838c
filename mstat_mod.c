// SPDX-License-Identifier: GPL-2.0
/*
 * mstat - consistent statistics of kernel memory allocation events
 *
 * Counters live in mstat_core (mstat_core/mstat_core.h for the guarantee,
 * mstat_core/mstat_core.c for the argument): probes on the kmem
 * tracepoints add per-CPU deltas without locks or barriers, and a read of
 * /proc/mstat folds them into one snapshot taken at a single cut across
 * all CPUs, in which allocations - frees == live objects holds exactly.
 *
 * This file (layer 6, the top; see docs/ARCHITECTURE.md) holds the
 * load-time module parameters (the runtime controls' parameters are
 * mstat_ctl.c's) and sets the layers up in order, and down in reverse.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/sizes.h>
#include <linux/uidgid.h>
#include <linux/user_namespace.h>

#include "mstat_caches.h"
#include "mstat_ctl.h"
#include "mstat_faces.h"
#include "mstat_kprobes.h"
#include "mstat_mutant.h"
#include "mstat_profile.h"
#include "mstat_sites.h"
#include "mstat_slab.h"
#include "mstat_sources.h"
#include "mstat_stats.h"
#include "mstat_stream.h"
#include "mstat_vmem.h"

static uint proc_mode = 0400;
module_param(proc_mode, uint, 0444);
MODULE_PARM_DESC(proc_mode, "Permissions of /proc/mstat: 0400 (default), 0440 or 0444");

/*
 * A group that may read /proc/mstat and /proc/mstat_sites without root,
 * such as mstat serve's (debian/mstat.mstat-serve.service): their group
 * becomes proc_gid, and a proc_mode of 0400 becomes 0440.
 */
static uint proc_gid;
module_param(proc_gid, uint, 0444);
MODULE_PARM_DESC(proc_gid, "Group of /proc/mstat and /proc/mstat_sites, which may then read them (proc_mode 0400 becomes 0440); 0 (default): root");

static uint events_per_cpu = 4096;
module_param(events_per_cpu, uint, 0444);
MODULE_PARM_DESC(events_per_cpu, "Event stream buffer, records per CPU: 16 to 65536 (default 4096)");

static uint profile_buckets = 4096;
module_param(profile_buckets, uint, 0444);
MODULE_PARM_DESC(profile_buckets, "Heap profile: stacks tracked, 64 to 65536 (default 4096)");

static uint profile_depth = 32;
module_param(profile_depth, uint, 0444);
MODULE_PARM_DESC(profile_depth, "Heap profile: frames a sampled stack keeps, 1 to 64 (default 32; 1: the call site alone)");

static uint profile_addrs = 16384;
module_param(profile_addrs, uint, 0444);
MODULE_PARM_DESC(profile_addrs, "Heap profile: sampled objects tracked at once, 64 to 1048576 (default 16384)");

static uint cache_rows = 140;
module_param(cache_rows, uint, 0444);
MODULE_PARM_DESC(cache_rows, "Per-cache table: rows, one per slab cache seen, 0 to 511 (default 140; 0: no table)");

static uint kmem_objects = 16384;
module_param(kmem_objects, uint, 0444);
MODULE_PARM_DESC(kmem_objects, "vm areas, and percpu objects, counted live at once (each): 64 to 1048576 (default 16384)");

static int __init mstat_check_params(void)
{
	if (proc_mode != 0400 && proc_mode != 0440 && proc_mode != 0444) {
		pr_err("proc_mode=%#o: must be 0400, 0440 or 0444\n", proc_mode);
		return -EINVAL;
	}
	if (!gid_valid(make_kgid(&init_user_ns, proc_gid))) {
		pr_err("proc_gid=%u: not a valid group id\n", proc_gid);
		return -EINVAL;
	}
	if (events_per_cpu < 16 || events_per_cpu > 65536) {
		pr_err("events_per_cpu=%u: must be 16 to 65536\n",
		       events_per_cpu);
		return -EINVAL;
	}
	if (cache_rows > MSTAT_CACHE_ROWS_MAX) {
		pr_err("cache_rows=%u: must be at most %zu (the per-CPU slots must fit in %lu bytes)\n",
		       cache_rows, MSTAT_CACHE_ROWS_MAX,
		       (unsigned long)PCPU_MIN_UNIT_SIZE);
		return -EINVAL;
	}
	if (profile_buckets < 64 || profile_buckets > 65536 ||
	    profile_addrs < 64 || profile_addrs > 1048576 ||
	    profile_depth < 1 || profile_depth > 64) {
		pr_err("profile_buckets=%u profile_addrs=%u profile_depth=%u: out of range (see modinfo)\n",
		       profile_buckets, profile_addrs, profile_depth);
		return -EINVAL;
	}
	if (kmem_objects < 64 || kmem_objects > SZ_1M) {
		pr_err("kmem_objects=%u: must be 64 to 1048576\n",
		       kmem_objects);
		return -EINVAL;
	}
	return 0;
}

static int __init mstat_init(void)
{
	const char *what;
	int err;

	mstat_ctl_begin();
	err = mstat_check_params();
	if (err) {
		mstat_ctl_stop();
		return err;
	}
	what = "the sources";
	err = mstat_sources_init();
	if (err)
		goto out;
	what = "the per-cache table";
	err = mstat_caches_init(cache_rows,
				mstat_ctl_boot(MSTAT_CTL_PER_CACHE));
	if (err)
		goto out;
	what = "the slab layout";
	err = mstat_slab_init();
	if (err)
		goto err_caches;
	what = "the counters";
	err = mstat_stats_init(mstat_ctl_boot(MSTAT_CTL_SYNC_MODE),
			       mstat_caches_slot_size());
	if (err)
		goto err_caches;
	what = "the vm area and percpu tables";
	err = mstat_vmem_init(kmem_objects);
	if (err)
		goto err_core;
	what = "the event stream";
	err = mstat_stream_init(events_per_cpu);
	if (err)
		goto err_vmem;
	what = "the heap profile";
	/* Sampling off until the sources are on: mstat_ctl_start(). */
	err = mstat_profile_init(0, profile_buckets, profile_addrs,
				 profile_depth);
	if (err)
		goto err_events;
	what = "/proc/mstat";
	err = mstat_proc_init(proc_gid && proc_mode == 0400 ? 0440 : proc_mode,
			      make_kgid(&init_user_ns, proc_gid),
			      mstat_ctl_boot(MSTAT_CTL_PROC_INTERVAL));
	if (err)
		goto err_profile;
	what = "/proc/mstat_owners";
	err = mstat_owners_init(proc_gid && proc_mode == 0400 ? 0440 : proc_mode,
				make_kgid(&init_user_ns, proc_gid));
	if (err)
		goto err_proc;
	mstat_debugfs_init();
	what = "the bulk APIs' probes";
	err = mstat_kprobes_init();
	if (err)
		goto err_debugfs;
	/* The sources last, with the stream's settings: mstat_ctl_start(). */
	what = "a source's tracepoints";
	err = mstat_ctl_start();
	if (err)
		goto err_sources;
	pr_info("loaded: /proc/mstat, %u CPUs possible\n", num_possible_cpus());
	return 0;

err_sources:
	mstat_sources_exit();
	mstat_kprobes_exit();
err_debugfs:
	mstat_debugfs_exit();
	mstat_owners_exit();
err_proc:
	mstat_proc_exit();
err_profile:
	if (!mstat_mutant(MSTAT_MUT_LEAK_PROFILE)) {
		mstat_sites_exit();
		mstat_profile_exit();
	} else {
		mstat_profile_unhook();	/* the tables leak, not the hook */
	}
err_events:
	mstat_stream_exit();
err_vmem:
	mstat_vmem_exit();
err_core:
	mstat_stats_exit();
err_caches:
	mstat_caches_exit();
out:
	mstat_ctl_stop();
	pr_err("not loaded: %s: %pe\n", what, ERR_PTR(err));
	return err;
}

static void __exit mstat_exit(void)
{
	/* No parameter write may reach a layer going down. */
	mstat_ctl_stop();
	/* No probe may run once the core and the buffers are freed. */
	mstat_sources_exit();
	mstat_kprobes_exit();
	mstat_debugfs_exit();
	mstat_owners_exit();
	mstat_proc_exit();
	mstat_sites_exit();
	mstat_profile_exit();
	mstat_stream_exit();
	mstat_vmem_exit();
	mstat_stats_exit();
	mstat_caches_exit();
}

module_init(mstat_init);
module_exit(mstat_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Consistent snapshots of kernel memory allocation statistics");
