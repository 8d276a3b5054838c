/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Text that mstat reads out of the kernel and shows (mstat_text.c, layer
 * 0): a kernel string that may not be one, a call site as text (its
 * name kept for when its text is gone), a function's text found by its
 * name.
 */
#ifndef _MSTAT_TEXT_H
#define _MSTAT_TEXT_H

#include <linux/kallsyms.h>	/* KSYM_SYMBOL_LEN, for mstat_site_name()'s buffer */
#include <linux/types.h>

/* A function's text: [@start, @start + @size); @size 0: none found. */
struct mstat_text_range {
	unsigned long start;
	unsigned long size;
};

int mstat_string_nofault(char *buf, const char *src, size_t size);
char *mstat_site_name(char *buf, size_t size, unsigned long site);
unsigned long mstat_text_keep(unsigned long site);
bool mstat_text_kept_token(unsigned long frame);
void mstat_text_kept_free(void);
int mstat_text_resolve(const char *const *names, unsigned int n,
		       struct mstat_text_range *r);

#endif /* _MSTAT_TEXT_H */
