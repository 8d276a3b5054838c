/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The snapshots that the opens of /proc's files share (mstat_shots.c,
 * layer 5): one per open, reference-counted, read-only once taken; of
 * each file its last, served again to bounded readers.
 */
#ifndef _MSTAT_SHOTS_H
#define _MSTAT_SHOTS_H

#include <linux/atomic.h>
#include <linux/kallsyms.h>
#include <linux/kref.h>
#include <linux/mutex.h>
#include <linux/types.h>

struct mstat_shots;

/*
 * A snapshot that opens share: taken by one, then read by any number,
 * never written again; freed by the last put.
 */
struct mstat_shot {
	struct kref ref;
	u64 taken_ns;			/* ktime_get_ns() once it was taken */
	struct mstat_shots *owner;	/* its file's */
	bool bounded;			/* taken for a bounded open */
	void (*free)(struct mstat_shot *shot);
};

/* A file's last snapshot, and how to take a new one. */
struct mstat_shots {
	struct mutex lock;		/* @last, and one take at a time */
	struct mstat_shot *last;	/* a reference of its own */
	atomic_t bounded;		/* snapshots with ->bounded alive */
	struct mstat_shot *(*take)(void);	/* a fresh one, or ERR_PTR() */
};

/* One open's: its snapshot, and what its first lines say of it. */
struct mstat_proc_open {
	struct mstat_shot *shot;
	u64 age_ms;			/* the snapshot's age at the open */
	bool reused;			/* taken by an earlier open */
	char sym[KSYM_SYMBOL_LEN];	/* a frame's name (mstat_sites) */
};

int mstat_shot_get(struct mstat_shots *s, struct mstat_proc_open *po);
void mstat_shot_put(struct mstat_shot *shot);
void mstat_shots_drop(struct mstat_shots *s);

#endif /* _MSTAT_SHOTS_H */
