/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the eBPF comparison's programs (mstat_bpf.bpf.c) and their loader
 * (tests/helpers/mstat-bpf.c) share: the size classes, the same as
 * mstat's kmalloc source (mstat_stats.h), and the per-CPU cell each class
 * counts in.
 *
 * Two program sets, each a pair of raw tracepoint programs on kmem:kmalloc
 * and kmem:kfree that add to a per-CPU array, one cell per class:
 *
 *  - counters: the cheapest eBPF that counts by size. kmalloc adds to its
 *    class's allocs and bytes; kfree, which has no size, counts in the
 *    unsized cell (eBPF cannot call ksize()).
 *  - sized: memleak's way of sizing a free. kmalloc also records the
 *    object's size in a hash of pointer to size; kfree looks it up,
 *    deletes it and counts in the class's frees and bytes_freed, or, for
 *    an object it never saw allocated, in the unsized cell.
 *
 * As in mstat, NULL (and ZERO_SIZE_PTR) kfrees and failed kmallocs are
 * not events.
 */
#ifndef _MSTAT_BPF_H
#define _MSTAT_BPF_H

/* kmalloc's size classes, 8 B to 8 KiB with 96 and 192, then "large". */
#define MSTAT_BPF_NR_CLASSES	14
#define MSTAT_BPF_CLASS_LARGE	(MSTAT_BPF_NR_CLASSES - 1)
/* Frees of unknown size; for the sized set, also kmallocs it could not record. */
#define MSTAT_BPF_UNSIZED	MSTAT_BPF_NR_CLASSES
#define MSTAT_BPF_NR_CELLS	(MSTAT_BPF_NR_CLASSES + 1)

/* Objects the sized set can track at once (its hash, preallocated). */
#define MSTAT_BPF_MAX_LIVE	65536

/* One CPU's counts for one class. Each field has one writer program. */
struct mstat_bpf_cell {
	__u64 allocs;		/* kmalloc: events (unsized: not recorded) */
	__u64 bytes;		/* kmalloc: bytes_alloc */
	__u64 frees;		/* kfree: events */
	__u64 bytes_freed;	/* kfree: bytes, sized set only */
};

#endif /* _MSTAT_BPF_H */
