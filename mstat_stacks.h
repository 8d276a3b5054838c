/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A sampled allocation's stack (mstat_stacks.c, layer 2): for the
 * profile's samples.
 */
#ifndef _MSTAT_STACKS_H
#define _MSTAT_STACKS_H

#include <linux/types.h>

/* Entries a capture may hold (on the kernel stack: 512 bytes, as KASAN). */
#define MSTAT_STACK_CAPTURE	64

/*
 * Into @entries (MSTAT_STACK_CAPTURE of them), at most @depth frames;
 * *@leafless set when the stack is not what was asked (see each).
 * Context: any but NMI.
 */
struct pt_regs;
unsigned int mstat_stack(struct pt_regs *from, unsigned long *entries,
			 unsigned long site, bool api, unsigned int depth,
			 bool *leafless);
unsigned int mstat_page_stack(unsigned long *entries, unsigned long site,
			      unsigned int depth, bool *leafless);
/* Find the page allocator's functions, once. Context: process; sleeps. */
void mstat_page_text_resolve(void);

#endif /* _MSTAT_STACKS_H */
