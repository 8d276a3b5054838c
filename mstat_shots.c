// SPDX-License-Identifier: GPL-2.0
/*
 * The snapshots that the opens of /proc/mstat and /proc/mstat_sites
 * share (layer 5, for mstat_proc.c), and the bound on how often readers
 * without CAP_SYS_ADMIN take one (proc_min_interval_ms).
 *
 * A reader is a lever: a snapshot waits for a grace period, or sends two
 * rounds of IPIs to every online CPU, isolated ones too (sync_mode). So
 * an open by a reader without CAP_SYS_ADMIN takes a fresh snapshot only
 * if the last one is proc_min_interval_ms old or more, and otherwise gets
 * that last one, shared (reference-counted, read-only) with every open
 * that holds it; root's opens take a fresh one each time. An open file
 * keeps its snapshot alive, and a snapshot can be large (/proc/mstat_sites
 * with a large profile_addrs: tens of MB), so of each file at most
 * MSTAT_SHOTS_BOUNDED snapshots taken for such readers live at once:
 * beyond that they are served the last one, however old, until their
 * files close. Each file keeps its last snapshot until a newer one
 * replaces it, or until unload.
 */
#include <linux/capability.h>
#include <linux/err.h>
#include <linux/kref.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/mutex.h>
#include <linux/user_namespace.h>

#include "mstat_faces.h"
#include "mstat_shots.h"

/* proc_min_interval_ms: 0 (no bound) to MSTAT_PROC_INTERVAL_MAX. */
static unsigned long mstat_proc_interval_ms;

/* Of each file, the snapshots taken for bounded opens that may live. */
#define MSTAT_SHOTS_BOUNDED	4

static void mstat_shot_release(struct kref *ref)
{
	struct mstat_shot *shot = container_of(ref, struct mstat_shot, ref);

	if (shot->bounded)
		atomic_dec(&shot->owner->bounded);
	shot->free(shot);
}

/**
 * mstat_shot_put() - drop a reference to a snapshot
 * @shot: the snapshot, or NULL
 *
 * The last put frees it, with its file's ->free().
 */
void mstat_shot_put(struct mstat_shot *shot)
{
	if (shot)
		kref_put(&shot->ref, mstat_shot_release);
}

/*
 * Whether the opener is bounded: it lacks CAP_SYS_ADMIN in the initial
 * user namespace (the IPIs reach every CPU of the machine, so a
 * container's root is bounded too). Asked at open, in the opener's
 * context, where current's credentials are the ones the file keeps
 * (file->f_cred): the fd cannot have changed hands yet, and the answer
 * is kept with the open's snapshot, never asked again at read (as
 * /proc/kallsyms does). Without audit: nothing is refused here, the
 * answer only picks which snapshot the open gets. capable() and
 * file_ns_capable() are audited: under an LSM whose policy withholds
 * CAP_SYS_ADMIN from a root process (a confined exporter), they would log
 * a denial at every open, a log storm for a reader loop to make; and
 * capable() marks a task that has it as having used superuser privilege
 * (PF_SUPERPRIV) for a plain read.
 */
static bool mstat_proc_bounded(void)
{
	return !ns_capable_noaudit(&init_user_ns, CAP_SYS_ADMIN);
}

/**
 * mstat_shot_get() - the snapshot for an open
 * @s: the open's file's snapshots
 * @po: the open: its shot, age_ms and reused set
 *
 * The snapshot for an open of @s's file, with a reference for the open:
 * the last one if the opener is bounded and it is younger than the
 * interval, or MSTAT_SHOTS_BOUNDED snapshots taken for bounded opens are
 * alive (held by open files); else a fresh one, which becomes the last
 * (while there is an interval). Takes serially: bounded opens that wait
 * here while one takes are then served its snapshot.
 * Context: process; sleeps.
 * Return: 0 or -errno (-EINTR on a signal).
 */
int mstat_shot_get(struct mstat_shots *s, struct mstat_proc_open *po)
{
	u64 ms = READ_ONCE(mstat_proc_interval_ms);
	bool bounded = ms && mstat_proc_bounded();
	struct mstat_shot *shot, *old = NULL;
	u64 now;

	if (mutex_lock_interruptible(&s->lock))
		return -EINTR;
	shot = s->last;
	now = ktime_get_ns();
	po->reused = bounded && shot &&
		     (now - shot->taken_ns < ms * NSEC_PER_MSEC ||
		      atomic_read(&s->bounded) >= MSTAT_SHOTS_BOUNDED);
	if (po->reused) {
		kref_get(&shot->ref);
	} else {
		shot = s->take();
		if (!IS_ERR(shot)) {
			shot->owner = s;
			shot->bounded = bounded;
			if (bounded)
				atomic_inc(&s->bounded);
			shot->taken_ns = ktime_get_ns();
			now = shot->taken_ns;
			old = s->last;
			s->last = NULL;
			if (ms) {
				kref_get(&shot->ref);
				s->last = shot;
			}
		}
	}
	mutex_unlock(&s->lock);
	mstat_shot_put(old);
	if (IS_ERR(shot))
		return PTR_ERR(shot);
	po->shot = shot;
	po->age_ms = div_u64(now - shot->taken_ns, NSEC_PER_MSEC);
	return 0;
}

/**
 * mstat_shots_drop() - drop a file's last snapshot
 * @s: the file's snapshots
 *
 * Context: no open of its file left.
 */
void mstat_shots_drop(struct mstat_shots *s)
{
	mstat_shot_put(s->last);
	s->last = NULL;
}

/**
 * mstat_proc_interval() - proc_min_interval_ms
 *
 * Return: how many ms a snapshot is served to the opens of readers without
 * CAP_SYS_ADMIN before one of them takes a new one; 0: no bound.
 */
u64 mstat_proc_interval(void)
{
	return READ_ONCE(mstat_proc_interval_ms);
}

/**
 * mstat_proc_set_interval() - set proc_min_interval_ms
 * @ms: 0 to %MSTAT_PROC_INTERVAL_MAX (the control's parser checks it)
 *
 * Applies from the next open. A snapshot kept under the old interval is
 * served for as long as the new one allows.
 */
void mstat_proc_set_interval(u64 ms)
{
	WRITE_ONCE(mstat_proc_interval_ms, ms);
}
