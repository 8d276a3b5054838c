/* SPDX-License-Identifier: GPL-2.0 */
/* The event stream, between mstat_events.c and its debugfs reader. */
#ifndef _MSTAT_EVENTS_H
#define _MSTAT_EVENTS_H

#include <linux/jump_label.h>
#include <linux/types.h>
#include <linux/wait.h>

struct mstat_event_rec {
	u64 ts;
	unsigned long ptr;
	unsigned long site;
	u64 size;
	u8 src;
	bool alloc;
	u16 cpu;
};

/*
 * Filters: a bit per source (none: off) and a minimum size. The probes
 * look at the sources only while mstat_events_key is on, that is while
 * any is set: set them with mstat_events_set_sources().
 */
extern unsigned int mstat_events_sources;
extern u64 mstat_events_min_size;
DECLARE_STATIC_KEY_FALSE(mstat_events_key);
void mstat_events_set_sources(unsigned int sources);

bool mstat_events_pending(void);
bool mstat_events_next(struct mstat_event_rec *out);
u64 mstat_events_dropped(void);
wait_queue_head_t *mstat_events_waitq(void);

#endif /* _MSTAT_EVENTS_H */
