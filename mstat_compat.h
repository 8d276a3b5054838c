/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Every difference between the kernels mstat builds for (Debian's 6.1 and
 * 6.12, and the 6.12 test kernel) lives here, and only here.
 */
#ifndef _MSTAT_COMPAT_H
#define _MSTAT_COMPAT_H

#include <linux/export.h>
#include <linux/kconfig.h>

/*
 * Internals the KUnit suites call: exported only on kernels with KUnit,
 * in the EXPORTED_FOR_KUNIT_TESTING namespace (kunit/visibility.h, 6.2+).
 */
#if IS_ENABLED(CONFIG_KUNIT)
#include <kunit/visibility.h>
#else
#define EXPORT_SYMBOL_IF_KUNIT(symbol)
#endif

#endif /* _MSTAT_COMPAT_H */
