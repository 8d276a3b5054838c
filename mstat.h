/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mstat's API for other modules: report the allocations of an allocator
 * of your own, and they are counted in /proc/mstat with the kernel's.
 */
#ifndef _MSTAT_H
#define _MSTAT_H

#include <linux/types.h>

int mstat_account_alloc(size_t req, size_t alloc, unsigned long call_site);
int mstat_account_free(size_t alloc, unsigned long call_site);

#endif /* _MSTAT_H */
