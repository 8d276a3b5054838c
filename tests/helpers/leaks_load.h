/* SPDX-License-Identifier: GPL-2.0 */
/*
 * leaks_load.c: the busy workload (leaks -b) and the cgroup leak's
 * driver (leaks -d), described in leaks.c.
 */
#ifndef LEAKS_LOAD_H
#define LEAKS_LOAD_H

/* Files, /proc and /sys reads, a pipe and a mapping every 20 ms; never returns. */
void busy_loop(void);
/* "cgroup" to @control every 100 ms until a write fails; returns 0. */
int drive(const char *control);

#endif /* LEAKS_LOAD_H */
