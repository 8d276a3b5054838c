/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What mstat learns at load from the running kernel's own events
 * (mstat_learn.c, layer 4): which kmalloc events are the kernel's inner,
 * second event of one large kmalloc, for the kmalloc probe to skip.
 */
#ifndef _MSTAT_LEARN_H
#define _MSTAT_LEARN_H

/*
 * Inner events' call sites at most: one per copy of the inlined
 * __do_kmalloc_node() (kmalloc, kmalloc_node, kmalloc_track_caller), and
 * kvmalloc's own copy of the kmalloc path.
 */
#define MSTAT_TWICE_MAX	4

/**
 * struct mstat_twice - the call sites of a kernel's inner kmalloc events
 * @site: the call sites, @nr of them
 * @nr: how many; 0 where every large kmalloc is traced once
 */
struct mstat_twice {
	unsigned long site[MSTAT_TWICE_MAX];
	unsigned int nr;
};

struct tracepoint;
int mstat_twice_learn(struct tracepoint *tp, struct tracepoint *node_tp,
		      struct mstat_twice *learnt);

#endif /* _MSTAT_LEARN_H */
