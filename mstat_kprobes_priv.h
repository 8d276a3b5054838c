/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What mstat_kprobes.c and mstat_exact.c share, private to the two
 * (layer 4): whether this kernel has kretprobes, the longest name probed,
 * and the split probes of mstat_exact.c that mstat_kprobes.c's table
 * registers, with what mstat_exact_learn() learnt of them.
 */
#ifndef _MSTAT_KPROBES_PRIV_H
#define _MSTAT_KPROBES_PRIV_H

#include <linux/kconfig.h>
#include <linux/kprobes.h>
#include <linux/types.h>

/* Without both, no probe is registered (their handlers are not built). */
#if IS_ENABLED(CONFIG_KRETPROBES) && \
	IS_ENABLED(CONFIG_HAVE_REGS_AND_STACK_ACCESS_API)
#define MSTAT_CAN_KRETPROBE
#endif

/* The longest name probed: a function's, and a clone's suffix. */
#define MSTAT_KPROBE_SYM_LEN	64

/* What mstat_exact_learn() learnt (mstat_exact.c says what each means). */
extern int mstat_exact_by_split;
extern bool mstat_exact_inner;

/*
 * mstat_exact.c's probes: the three of mstat_kprobes.c's table, and
 * make_alloc_exact()'s, which mstat_exact_learn() registers in place of
 * the two kretprobes, and mstat_kprobes.c removes and reports with them.
 */
extern struct kprobe mstat_split_page_kp;
extern struct kprobe mstat_exact_inner_kp;
extern struct kretprobe mstat_exact_rp;
extern struct kretprobe mstat_exact_nid_rp;

int mstat_exact_learn(bool split);

#endif /* _MSTAT_KPROBES_PRIV_H */
