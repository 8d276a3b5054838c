// SPDX-License-Identifier: GPL-2.0
/*
 * The page watches' table and their bulk side: a bulk call in flight
 * takes a watch (mstat_page_watch_begin()), the mm_page_alloc probe notes
 * its pages in it (mstat_watch.h), and the call's return reads the last
 * (mstat_page_watch_end()). mstat_watch.h says why.
 */
#include <linux/atomic.h>
#include <linux/export.h>
#include <linux/module.h>

#include "mstat_compat.h"
#include "mstat_watch.h"

struct mstat_page_watch mstat_watch[MSTAT_WATCH_SLOTS];
static atomic_long_t mstat_watch_full;
/*
 * Watches held, on every CPU: while none is, the mm_page_alloc probe
 * looks for none (a load and a jump, where the four ways cost it a hash
 * and four loads). A task that holds a watch raised it before its bulk
 * call's pages come, in its own program order, whichever CPU it is on.
 */
atomic_t mstat_watches;

/**
 * mstat_page_watch_begin() - watch the order-0 pages a probed call allocates
 *
 * Context: a kprobe's or kretprobe's entry handler, on a function that
 * may allocate pages; ended by mstat_page_watch_end() when that function
 * returns. Watches of one task and context nest.
 * Return: the watch, or -1 if none was free (counted in page_watch_full).
 */
int mstat_page_watch_begin(void)
{
	unsigned long key = mstat_watch_probed_key();
	unsigned int way;

	for (way = 0; way < MSTAT_WATCH_WAYS; way++) {
		struct mstat_page_watch *w = mstat_watch_way(key, way);

		/*
		 * Fully ordered on success. Pairs with smp_store_release() in
		 * mstat_page_watch_end(): the previous owner's read of the
		 * page comes before this owner's write
		 * (mstat_core/litmus/page-watch-reuse.litmus).
		 */
		if (!READ_ONCE(w->key) && !cmpxchg(&w->key, 0, key)) {
			WRITE_ONCE(w->page, NULL);
			atomic_inc(&mstat_watches);
			return w - mstat_watch;
		}
	}
	atomic_long_inc(&mstat_watch_full);
	return -1;
}
EXPORT_SYMBOL_IF_KUNIT(mstat_page_watch_begin);

/**
 * mstat_page_watch_end() - end a watch
 * @watch: what mstat_page_watch_begin() returned
 *
 * Context: the probed function's return (a kretprobe's return handler).
 * Return: the last order-0 page the page allocator traced in this task
 * and context since, or NULL (none, or @watch is -1).
 */
struct page *mstat_page_watch_end(int watch)
{
	struct mstat_page_watch *w;
	struct page *page;

	if (watch < 0)
		return NULL;
	w = &mstat_watch[watch];
	page = READ_ONCE(w->page);
	/*
	 * Pairs with the cmpxchg() in mstat_page_watch_begin(): the read of
	 * the page above comes before the next owner's clearing of it.
	 */
	smp_store_release(&w->key, 0);
	atomic_dec(&mstat_watches);
	return page;
}
EXPORT_SYMBOL_IF_KUNIT(mstat_page_watch_end);

/**
 * mstat_page_watch_full() - bulk calls that found no watch free
 *
 * Return: how many, since load.
 */
unsigned long mstat_page_watch_full(void)
{
	return atomic_long_read(&mstat_watch_full);
}

