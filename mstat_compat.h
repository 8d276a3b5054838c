/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Every difference between the kernels mstat builds for (Debian's 6.1 and
 * 6.12, and the 6.12 test kernel) lives here, and only here.
 */
#ifndef _MSTAT_COMPAT_H
#define _MSTAT_COMPAT_H

#include <linux/export.h>
#include <linux/kconfig.h>
#include <linux/mmzone.h>
#include <linux/version.h>

/* The highest page order: MAX_ORDER was exclusive until 6.4, then renamed. */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 8, 0)
#define MSTAT_MAX_PAGE_ORDER	MAX_PAGE_ORDER
#elif LINUX_VERSION_CODE >= KERNEL_VERSION(6, 4, 0)
#define MSTAT_MAX_PAGE_ORDER	MAX_ORDER
#else
#define MSTAT_MAX_PAGE_ORDER	(MAX_ORDER - 1)
#endif

/*
 * Internals the KUnit suites call are exported only on kernels with KUnit
 * (EXPORT_SYMBOL_IF_KUNIT arrived in 6.2, with a namespace to import).
 */
#if IS_ENABLED(CONFIG_KUNIT)
#define MSTAT_EXPORT_FOR_KUNIT(sym)	EXPORT_SYMBOL_GPL(sym)
#else
#define MSTAT_EXPORT_FOR_KUNIT(sym)
#endif

#endif /* _MSTAT_COMPAT_H */
