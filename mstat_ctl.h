/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The runtime controls (layer 5): one table, one parser and one set
 * function per control, behind two faces: the debugfs files of
 * mstat_debugfs.c and the module parameters of mstat_ctl.c
 * (/sys/module/mstat/parameters/, which lockdown leaves writable).
 */
#ifndef _MSTAT_CTL_H
#define _MSTAT_CTL_H

#include <linux/types.h>

/* Longest accepted control write: a u64 in decimal plus a newline. */
#define MSTAT_CTL_MAX	24

/* The controls, in the order of mstat_ctls[]. */
enum mstat_ctl_id {
	MSTAT_CTL_ENABLE_KMALLOC,
	MSTAT_CTL_ENABLE_CACHE,
	MSTAT_CTL_ENABLE_PAGE,
	MSTAT_CTL_ENABLE_API,
	MSTAT_CTL_RESET,
	MSTAT_CTL_EVENTS_SOURCES,
	MSTAT_CTL_EVENTS_MIN_SIZE,
	MSTAT_CTL_EVENTS_DROPPED,
	MSTAT_CTL_PROFILE_RATE,
	MSTAT_CTL_SYNC_MODE,
	MSTAT_CTL_PER_CACHE,
	MSTAT_CTL_PROC_INTERVAL,
	MSTAT_CTL_ENABLE_VMALLOC,
	MSTAT_CTL_ENABLE_PERCPU,
	MSTAT_CTL_PROFILE_PAGES,
	MSTAT_NR_CTLS,
};

/**
 * struct mstat_ctl - a numeric control
 * @name: its debugfs file's and its module parameter's name
 * @mode: its debugfs file's mode
 * @max: the largest value it takes
 * @def: its value at load when no parameter gives one
 * @at_start: mstat_ctl_start() sets its load-time value with @set (the
 *	others' layers take theirs from mstat_ctl_boot() at init)
 * @arg: what tells the per-source controls apart, passed to @get and @set
 * @get: its value now; NULL for a write-only control
 * @set: change it; may refuse a value (-errno); NULL for a read-only one
 */
struct mstat_ctl {
	const char *name;
	umode_t mode;
	u64 max;
	u64 def;
	bool at_start;
	int arg;
	u64 (*get)(int arg);
	int (*set)(int arg, u64 val);
};

extern const struct mstat_ctl mstat_ctls[MSTAT_NR_CTLS];

int mstat_ctl_show(const struct mstat_ctl *c, char *buf, size_t size);
int mstat_ctl_store(const struct mstat_ctl *c, const char *face,
		    const char *buf, size_t len);
u64 mstat_ctl_boot(enum mstat_ctl_id id);
void mstat_ctl_begin(void);
int mstat_ctl_start(void);
void mstat_ctl_stop(void);

#endif /* _MSTAT_CTL_H */
