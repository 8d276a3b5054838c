// SPDX-License-Identifier: GPL-2.0
/*
 * mstat's API for other modules' allocators (mstat.h), layer 4: an
 * allocation or free reported here is counted in the "api" source, in
 * the size class of its bytes, as one write section of the hot path.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/export.h>
#include <linux/gfp.h>
#include <linux/printk.h>

#include "mstat.h"
#include "mstat_count.h"
#include "mstat_sources.h"

/**
 * mstat_account_alloc() - report an allocation of another allocator
 * @req: bytes the caller asked for
 * @alloc: bytes the allocator handed out (>= @req); 0 for a failure
 * @call_site: the caller's address, usually _RET_IP_
 *
 * Counts one allocation of @alloc bytes in the "api" source and in the
 * size class of @alloc, or one failure if @alloc is 0. Report the free
 * with the same @alloc. Does nothing while the api source is disabled.
 * Never sleeps, never allocates.
 *
 * Context: any but NMI. This function is preempt and irq safe.
 * Return: 0, -EINVAL if @alloc is smaller than @req (nothing is counted
 * then), or -ENODEV if the source is disabled.
 */
int mstat_account_alloc(size_t req, size_t alloc, unsigned long call_site)
{
	if (!mstat_source_enabled(MSTAT_SRC_API))
		return -ENODEV;
	if (alloc && alloc < req) {
		pr_warn_ratelimited("%s: %zu bytes allocated for %zu requested, from %pS\n",
				    __func__, alloc, req, (void *)call_site);
		return -EINVAL;
	}
	preempt_disable();
	mstat_count_alloc(MSTAT_SRC_API, req, alloc, GFP_ATOMIC, 0, call_site);
	preempt_enable();
	return 0;
}
EXPORT_SYMBOL_GPL(mstat_account_alloc);

/**
 * mstat_account_free() - report a free of another allocator
 * @alloc: the @alloc given to mstat_account_alloc() for the object
 * @call_site: the caller's address, usually _RET_IP_
 *
 * Context: any but NMI. This function is preempt and irq safe.
 * Return: 0, -EINVAL for a zero @alloc, or -ENODEV if the source is
 * disabled.
 */
int mstat_account_free(size_t alloc, unsigned long call_site)
{
	if (!mstat_source_enabled(MSTAT_SRC_API))
		return -ENODEV;
	if (!alloc) {
		pr_warn_ratelimited("%s: zero size, from %pS\n", __func__,
				    (void *)call_site);
		return -EINVAL;
	}
	preempt_disable();
	mstat_count_free(MSTAT_SRC_API, alloc, 0, call_site);
	preempt_enable();
	return 0;
}
EXPORT_SYMBOL_GPL(mstat_account_free);
