/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The faces (layer 5) that mstat_mod.c sets up: /proc (mstat_proc.c,
 * the snapshots its opens share and proc_min_interval_ms: mstat_shots.c;
 * /proc/mstat_owners: mstat_owners.c)
 * and debugfs (mstat_debugfs.c). The controls and their module parameters
 * are mstat_ctl.h's; the tracefs events are created by mstat_trace.c; the
 * event stream's file by mstat_stream.c.
 */
#ifndef _MSTAT_FACES_H
#define _MSTAT_FACES_H

#include <linux/types.h>
#include <linux/uidgid.h>

/* proc_min_interval_ms: at most an hour, as mstat serve's --min-interval. */
#define MSTAT_PROC_INTERVAL_MAX	3600000
#define MSTAT_PROC_INTERVAL_DEF	1000

int mstat_proc_init(umode_t mode, kgid_t gid, u64 interval_ms);
void mstat_proc_exit(void);
u64 mstat_proc_interval(void);
void mstat_proc_set_interval(u64 ms);
int mstat_owners_init(umode_t mode, kgid_t gid);
void mstat_owners_exit(void);
void mstat_debugfs_init(void);
void mstat_debugfs_exit(void);

#endif /* _MSTAT_FACES_H */
