/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The heap profile's page samples as mstat memory sorts them (pages.c):
 * by what each page became, as its stack says, and the raw ones, pages
 * no counter of the kernel's names, by caller, each estimate with its
 * variance.
 */
#ifndef MSTAT_PAGES_H
#define MSTAT_PAGES_H

#include <stdbool.h>

#include "parse.h"

/*
 * What a sampled page became, as its stack says: the innermost frame
 * that is one of pages.c's page_frames decides (a page table's page comes
 * under a page fault, as a user page does: its own frame is nearer),
 * compared without a clone's suffix (frame_func()). A stack with none of
 * them, or whose innermost is PK_RAW's, is a raw page: one that no
 * counter of the kernel's names. A process's PUD pages and the kernel's
 * own PTE pages are page tables of kinds of their own, which some kernels
 * leave out of NR_PAGETABLE (format 1.10's kernel_pud_uncounted,
 * kernel_pte_kernel_uncounted): mstat memory names them there.
 */
enum mstat_page_kind {
	PK_RAW, PK_SLAB, PK_VMALLOC, PK_PAGE_TABLES, PK_STACKS, PK_PERCPU,
	PK_FILE, PK_ANON, PK_PT_PUD, PK_PT_KERNEL, PK_NR
};

extern const char *const mstat_page_kind_name[PK_NR];

/* Raw pages' callers shown one by one; the rest are one line. */
#define MSTAT_RAW_CALLERS	5

/*
 * The page source's samples (/proc/mstat_sites 2.3, profile_pages=1):
 * in use, by what they became, and the raw pages by caller (pages.c's
 * page_caller()), each with the variance of its estimate (row_estimate()):
 * a kind's is its rows' summed, as its rows are sampled independently.
 */
struct mstat_page_samples {
	bool have;		/* a sites file of 2.3 with page samples */
	long long rate, samples;
	long long dropped;	/* samples the profile had no room for */
	long long kind[PK_NR], kind_n[PK_NR];
	double kind_var[PK_NR];	/* of each kind's estimate */
	double raw_var;		/* of the raw pages' estimate */
	int ncaller;
	struct {
		char name[128];
		long long bytes, n;
		double var;	/* of its estimate */
	} caller[MSTAT_RAW_CALLERS + 1];	/* the last: every other one */
};

/*
 * @ss's page samples into @ps: by kind, and the raw ones by caller.
 * Nothing (@ps->have false) before format 2.3 or without page rows.
 */
void mstat_page_samples(struct mstat_page_samples *ps,
			const struct mstat_sites *ss);

/* What @st's pages became, as its stack says (a row of the page source). */
enum mstat_page_kind mstat_page_kind(const struct mstat_site *st);

/*
 * A row's bytes in use, estimated from its samples at @rate, and into
 * *@var that estimate's variance (any source's row).
 */
long long mstat_row_estimate(const struct mstat_site *st, long long rate,
			     double *var);

/*
 * One standard error of a sampled estimate whose variance is @var (a
 * kind's or a caller's @*_var above): about bytes / sqrt(samples) where
 * the objects are far below the rate, 0 where they are far above it.
 */
long long mstat_page_se(double var);

#endif /* MSTAT_PAGES_H */
