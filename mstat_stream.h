/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The alloc/free event stream (mstat_stream.c): per-CPU rings that the
 * hot path fills and /sys/kernel/debug/mstat/events drains. Layer 2, a
 * recorder: the hot path calls it, it calls nothing above the model.
 */
#ifndef _MSTAT_STREAM_H
#define _MSTAT_STREAM_H

#include <linux/bits.h>
#include <linux/compiler.h>
#include <linux/jump_label.h>
#include <linux/types.h>

#include "mstat_stats.h"

struct dentry;

/*
 * The sources streamed, a bit per &enum mstat_source (none: off). The hot
 * path looks at them only while mstat_stream_key is on, that is while any
 * is set: set them with mstat_stream_set_sources().
 */
extern unsigned int mstat_stream_sources;
DECLARE_STATIC_KEY_FALSE(mstat_stream_key);

/**
 * mstat_streamed() - whether events of @src go to the stream
 * @src: the source
 *
 * A patched-out jump while the stream is off.
 *
 * Return: true if the caller is to call mstat_stream_event().
 */
static __always_inline bool mstat_streamed(enum mstat_source src)
{
	return static_branch_unlikely(&mstat_stream_key) &&
	       (READ_ONCE(mstat_stream_sources) & BIT(src));
}

void mstat_stream_event(enum mstat_source src, bool alloc, unsigned long ptr,
			size_t size, unsigned long site);
int mstat_stream_set_sources(unsigned int sources);
unsigned long mstat_stream_records(void);
u64 mstat_stream_min_size(void);
void mstat_stream_set_min_size(u64 size);
u64 mstat_stream_dropped(void);
int mstat_stream_init(unsigned int per_cpu);
void mstat_stream_exit(void);
struct dentry *mstat_stream_debugfs(struct dentry *dir);

#endif /* _MSTAT_STREAM_H */
