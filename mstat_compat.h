/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Every difference between the kernels mstat builds for (Debian's 6.1 and
 * 6.12, the 6.12 test kernels, and later ones) lives here, and only here.
 * A leaf: it includes no mstat header, and any file may include it.
 */
#ifndef _MSTAT_COMPAT_H
#define _MSTAT_COMPAT_H

#include <linux/export.h>
#include <linux/kconfig.h>
#include <linux/module.h>
#include <linux/version.h>

/*
 * MSTAT_HAVE_*: what compat/conftest.sh found by compiling against the
 * target kernel's headers (one test a file in compat/). Prefer these to
 * LINUX_VERSION_CODE: vendor kernels backport under an old version.
 */
#include "mstat_conftest.h"

/*
 * Internals the KUnit suites call: exported only on kernels with KUnit,
 * in the EXPORTED_FOR_KUNIT_TESTING namespace. kunit/visibility.h came
 * in 6.2; before it, the same export by hand.
 */
#if IS_ENABLED(CONFIG_KUNIT)
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 2, 0)
#include <kunit/visibility.h>
#else
#define EXPORT_SYMBOL_IF_KUNIT(symbol) \
	EXPORT_SYMBOL_NS(symbol, EXPORTED_FOR_KUNIT_TESTING)
#endif
#else
#define EXPORT_SYMBOL_IF_KUNIT(symbol)
#endif

/*
 * What a KUnit suite writes to use those internals. MODULE_IMPORT_NS()
 * takes the namespace as a string from 6.13 on, as a bare word before.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 13, 0)
#define MSTAT_IMPORT_KUNIT_NS() MODULE_IMPORT_NS("EXPORTED_FOR_KUNIT_TESTING")
#else
#define MSTAT_IMPORT_KUNIT_NS() MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING)
#endif

/*
 * KUnit cases marked slow (skipped by "kunit.py run --filter speed>slow"):
 * case attributes came in 6.6; before, such a case is a plain one.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 6, 0)
#define MSTAT_KUNIT_CASE_SLOW(fn)	KUNIT_CASE_SLOW(fn)
#define MSTAT_KUNIT_CASE_PARAM_SLOW(fn, gen) \
	KUNIT_CASE_PARAM_ATTR(fn, gen, { .speed = KUNIT_SPEED_SLOW })
#else
#define MSTAT_KUNIT_CASE_SLOW(fn)	KUNIT_CASE(fn)
#define MSTAT_KUNIT_CASE_PARAM_SLOW(fn, gen)	KUNIT_CASE_PARAM(fn, gen)
#endif

/*
 * Whether kmem_cache_alloc_bulk() returns a bool, all objects or none
 * (7.2 on), rather than how many it allocated.
 */
#ifdef MSTAT_HAVE_CACHE_ALLOC_BULK_BOOL
#define MSTAT_CACHE_ALLOC_BULK_BOOL	true
#else
#define MSTAT_CACHE_ALLOC_BULK_BOOL	false
#endif

/*
 * An hrtimer set up with its function: hrtimer_setup() came in 6.13,
 * and hrtimer_init() is gone since 6.15.
 */
#ifdef MSTAT_HAVE_HRTIMER_SETUP
#define mstat_hrtimer_setup(timer, fn, clock, mode) \
	hrtimer_setup(timer, fn, clock, mode)
#else
#define mstat_hrtimer_setup(timer, fn, clock, mode)	\
	do {						\
		hrtimer_init(timer, clock, mode);	\
		(timer)->function = (fn);		\
	} while (0)
#endif

#endif /* _MSTAT_COMPAT_H */
