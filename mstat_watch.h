/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The page watches (mstat_watch.c, layer 4): the mm_page_alloc probe's
 * half inline (mstat_page_watch_note()), the alloc_pages_bulk() probe's
 * (begin, end) out of line.
 */
#ifndef _MSTAT_WATCH_H
#define _MSTAT_WATCH_H

#include <linux/atomic.h>
#include <linux/bits.h>
#include <linux/build_bug.h>
#include <linux/compiler.h>
#include <linux/hash.h>
#include <linux/sched.h>

#include "mstat_count.h"

/*
 * The page watches: how the alloc_pages_bulk() probe tells the
 * single-page fallback's page, which the page allocator traced, from a
 * page it took from the per-CPU lists, which it did not. A bulk call in
 * flight holds a watch, keyed by its task and its context (task, softirq,
 * hardirq: mstat_context()); the mm_page_alloc probe records each order-0
 * page in the watch of the key it runs under. The fallback runs in the
 * bulk call's own task and context, whichever CPU it ends on (it may
 * sleep and migrate); an interrupt that allocates a page meanwhile runs
 * under another key, and cannot overwrite the record.
 *
 * A key's entry is one of MSTAT_WATCH_WAYS from its hash. A call that
 * finds them all taken is not watched (counted in page_watch_full), and
 * its one new page among several missing counts as untraced: such a
 * fallback counts twice. MSTAT_WATCH_SLOTS is many more than the bulk
 * calls in flight on a machine of 384 CPUs, one a CPU but for a fallback
 * asleep in reclaim; in static storage, so that the bulk probe's
 * handlers, which outlive the tracepoints (mstat_kprobes_exit() comes
 * after mstat_sources_exit()), never see it freed.
 */
#define MSTAT_WATCH_BITS	9
#define MSTAT_WATCH_SLOTS	BIT(MSTAT_WATCH_BITS)
#define MSTAT_WATCH_WAYS	4

struct mstat_page_watch {
	unsigned long key;	/* 0: free */
	struct page *page;	/* the key's last traced order-0 page */
};

/* The watches (mstat_watch.c), and how many are held. */
extern struct mstat_page_watch mstat_watch[MSTAT_WATCH_SLOTS];
extern atomic_t mstat_watches;

/* The caller's task and context, as one word: a task is word aligned. */
static __always_inline unsigned long mstat_watch_key(void)
{
	BUILD_BUG_ON(__alignof__(struct task_struct) < MSTAT_NR_CTX);
	return (unsigned long)current | mstat_context();
}

/* The same, from a kprobe handler, for the probed function. */
static __always_inline unsigned long mstat_watch_probed_key(void)
{
	return (unsigned long)current | mstat_probed_context();
}

static __always_inline struct mstat_page_watch *
mstat_watch_way(unsigned long key, unsigned int way)
{
	return &mstat_watch[(hash_long(key, MSTAT_WATCH_BITS) + way) &
			    (MSTAT_WATCH_SLOTS - 1)];
}

/*
 * The mm_page_alloc probe's half: @page, in each of the caller's watches.
 * A call watched inside another of the same task and context (a bulk
 * allocation in the direct reclaim of another) has a way of its own with
 * the same key: both saw the page, and the inner one must not end with
 * nothing (kunit: mstat_page_watch_nested).
 */
static __always_inline void mstat_page_watch_note(struct page *page)
{
	unsigned long key;
	unsigned int way;

	if (likely(!atomic_read(&mstat_watches)))
		return;
	key = mstat_watch_key();
	for (way = 0; way < MSTAT_WATCH_WAYS; way++) {
		struct mstat_page_watch *w = mstat_watch_way(key, way);

		/* Only the key's owner, this context, writes its page. */
		if (READ_ONCE(w->key) == key)
			WRITE_ONCE(w->page, page);
	}
}

int mstat_page_watch_begin(void);
struct page *mstat_page_watch_end(int watch);
unsigned long mstat_page_watch_full(void);

#endif /* _MSTAT_WATCH_H */
