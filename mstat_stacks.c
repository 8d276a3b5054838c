// SPDX-License-Identifier: GPL-2.0
/*
 * A sampled allocation's stack (mstat_profile.c's samples): unwound by
 * stack_trace_save() into a buffer on the kernel stack, cut to start at
 * the call site, or for a page, whose event has none, past mstat's own
 * frames and the page allocator's, whose functions are found by name
 * once. Layer 2, beside the profile: nothing here keeps a count (a
 * stack without its call site is returned as leafless, for the
 * profile to count).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kallsyms.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/stacktrace.h>
#ifdef CONFIG_UNWINDER_ORC
#include <asm/unwind.h>
#endif

#include "mstat_compat.h"
#include "mstat_mutant.h"
#include "mstat_stacks.h"
#include "mstat_text.h"

/*
 * The stack from @from (mstat_count.c's mstat_sample_from(): its first
 * entry, then its callers, by the ORC unwinder), or where there is none,
 * from here (stack_trace_save()), into @entries.
 */
static unsigned int mstat_stack_save(struct pt_regs *from,
				     unsigned long *entries)
{
#ifdef CONFIG_UNWINDER_ORC
	struct unwind_state state;
	unsigned int n = 0;
	unsigned long addr;

	if (!from)
		return stack_trace_save(entries, MSTAT_STACK_CAPTURE, 0);
	/* As arch_stack_walk() with regs: @from's address, then the rest. */
	entries[n++] = from->ip;
	for (unwind_start(&state, current, from, NULL);
	     !unwind_done(&state) && n < MSTAT_STACK_CAPTURE;
	     unwind_next_frame(&state)) {
		addr = unwind_get_return_address(&state);
		if (!addr)
			break;
		entries[n++] = addr;
	}
	return n;
#else
	return stack_trace_save(entries, MSTAT_STACK_CAPTURE, 0);
#endif
}

/*
 * The stack of a sampled allocation, into @entries: from its call site
 * out, at most @depth frames, unwound from @from (mstat_stack_save()).
 *
 * The call site of an event is a return address the unwound stack holds.
 * A report through mstat's API (@api) may give another address, the
 * reporter's own (_THIS_IP_): its stack is then that address, followed
 * by the callers of the function that called into mstat. Otherwise a
 * stack without its call site is kept as the call site alone, and
 * counted as leafless.
 *
 * Return: the frames.
 */
unsigned int mstat_stack(struct pt_regs *from, unsigned long *entries,
			 unsigned long site, bool api, unsigned int depth,
			 bool *leafless)
{
	unsigned int n, i = 0;

	if (depth == 1)
		goto alone;
	n = mstat_stack_save(from, entries);
	while (i < n && entries[i] != site)
		i++;
	if (i == n && api) {
		/* mstat's frames, then the reporter's: @site stands for it. */
		for (i = 0; i < n && within_module(entries[i], THIS_MODULE); i++)
			;
		if (i < n)
			entries[i] = site;
	}
	if (i < n) {
		n = min(n - i, depth);
		memmove(entries, &entries[i], n * sizeof(*entries));
		return n;
	}
	*leafless = true;
alone:
	entries[0] = site;
	return 1;
}

/*
 * The page allocator's own functions, which a page's stack holds between
 * mstat's probe and the page's caller, by name as the kernels from 5.10
 * to 7.3 call them (an inline one leaves no frame), and the tracepoint's
 * iterator (with more than one probe on mm_page_alloc, or without static
 * calls). A page has no call site in its event: its stack starts at the
 * first frame that is none of these.
 */
static const char *const mstat_page_allocator[] = {
	"__alloc_pages", "__alloc_pages_noprof", "__alloc_pages_nodemask",
	"alloc_pages", "alloc_pages_noprof", "alloc_pages_current",
	"alloc_pages_vma", "alloc_pages_mpol", "alloc_pages_mpol_noprof",
	"__alloc_frozen_pages_noprof", "alloc_frozen_pages_noprof",
	"__folio_alloc", "__folio_alloc_noprof", "folio_alloc",
	"folio_alloc_noprof", "folio_alloc_mpol", "folio_alloc_mpol_noprof",
	"vma_alloc_folio", "vma_alloc_folio_noprof", "__get_free_pages",
	"get_free_pages_noprof", "get_zeroed_page", "get_zeroed_page_noprof",
	"alloc_pages_exact", "alloc_pages_exact_noprof", "alloc_pages_exact_nid",
	"alloc_pages_exact_nid_noprof", "alloc_page_interleave",
	"alloc_pages_preferred_many", "__alloc_pages_bulk",
	"alloc_pages_bulk_noprof", "alloc_pages_bulk_array_mempolicy",
	"alloc_pages_bulk_array_mempolicy_noprof", "alloc_pages_bulk_mempolicy_noprof",
	"alloc_pages_bulk_array_interleave", "alloc_pages_bulk_array_preferred_many",
	"alloc_pages_bulk_interleave", "alloc_pages_bulk_preferred_many",
	"alloc_pages_nolock", "alloc_pages_nolock_noprof",
	"__traceiter_mm_page_alloc",
};

/*
 * The clones a compiler makes of a function, under its name and a suffix
 * (fn.constprop.0, fn.isra.0, the cold part fn.cold), each looked for as
 * a function of its own. Of the page allocator's, Debian's 5.10 to 7.3
 * have only .cold parts (7.2 on: alloc_pages_exact_nid_noprof.cold,
 * alloc_pages_bulk_noprof.cold); each suffix costs a look-up per name.
 */
static const char *const mstat_clone_suffix[] = {
	"", ".constprop.0", ".isra.0", ".cold",
};

/*
 * Where those functions' text lies, found by name once, in process
 * context, when page sampling is first switched on
 * (mstat_page_text_resolve()); a page's stack then tells the allocator's
 * frames by a compare per function, with nothing printed and no lock,
 * in any context. Set once, never emptied (the kernel's text; a module's
 * frames are never the allocator's), and published by
 * mstat_page_text_nr's release.
 *
 * The trade-off: the alternative, a symbol printed for each frame not
 * yet seen and its verdict kept (per CPU, or shared), still prints a
 * symbol in the sampling context (a hard irq's too) at each new return
 * address, under a buffer of its own with interrupts off. Found by name,
 * a function the list misses or a clone under another suffix (".isra.1",
 * ".part.0") is not the allocator's: its frame is taken as the page's
 * caller, as an unknown kernel's allocator function's always was; and the
 * names are looked up once, a walk of all the kernel's symbols each
 * before 6.2 (kallsyms_lookup_name()): the first switch-on took 6.2 s for
 * these 172 names in a 5.10 guest, 0.05 s in a 6.12 one (qemu TCG, this
 * machine beside a build, 2026-12-06).
 */
#define MSTAT_PAGE_TEXTS	64
static struct mstat_text_range mstat_page_text[MSTAT_PAGE_TEXTS];
static unsigned int mstat_page_text_nr;
static bool mstat_page_text_found;
static DEFINE_MUTEX(mstat_page_text_lock);

/*
 * Find the page allocator's functions: each of mstat_page_allocator[]
 * with each of mstat_clone_suffix[].
 * Context: process; sleeps.
 */
void mstat_page_text_resolve(void)
{
	const unsigned int nf = ARRAY_SIZE(mstat_page_allocator);
	const unsigned int ns = ARRAY_SIZE(mstat_clone_suffix);
	struct mstat_text_range *r;
	unsigned int i, nr = 0;
	char **names;
	int found = -ENOMEM;

	mutex_lock(&mstat_page_text_lock);
	if (mstat_page_text_found)
		goto unlock;
	names = kcalloc(nf * ns, sizeof(*names), GFP_KERNEL);
	r = kcalloc(nf * ns, sizeof(*r), GFP_KERNEL);
	if (!names || !r)
		goto out;
	for (i = 0; i < nf * ns; i++) {
		names[i] = kasprintf(GFP_KERNEL, "%s%s",
				     mstat_page_allocator[i / ns],
				     mstat_clone_suffix[i % ns]);
		if (!names[i])
			goto out;
	}
	found = mstat_text_resolve((const char *const *)names, nf * ns, r);
	for (i = 0; found > 0 && i < nf * ns; i++) {
		if (!r[i].size)
			continue;
		if (nr == MSTAT_PAGE_TEXTS) {
			pr_warn("page stacks: more than %u of the page allocator's functions: %s and later ones named as callers\n",
				MSTAT_PAGE_TEXTS, names[i]);
			break;
		}
		mstat_page_text[nr++] = r[i];
	}
	/* Pairs with smp_load_acquire() in mstat_page_allocator_ip(). */
	smp_store_release(&mstat_page_text_nr, nr);
	mstat_page_text_found = true;
	pr_info("page stacks: %u of the page allocator's functions found, their frames skipped\n",
		nr);
out:
	if (found < 0)
		pr_warn("page stacks: no memory to find the page allocator's functions: pages' stacks start in it\n");
	for (i = 0; names && i < nf * ns; i++)
		kfree(names[i]);
	kfree(names);
	kfree(r);
unlock:
	mutex_unlock(&mstat_page_text_lock);
}

/*
 * The broken build's (MSTAT_MUT_PAGE_SYMBOLS): a frame's symbol printed
 * as its page is sampled, as it was before the allocator's text was known.
 */
static noinline void mstat_page_symbol_mutant(unsigned long ip)
{
	char name[KSYM_SYMBOL_LEN];

	sprint_symbol_no_offset(name, ip);
}

/*
 * Whether @ip, a return address of a page's stack, is in the allocator's
 * text. Context: any; no lock, nothing printed.
 */
static bool mstat_page_allocator_ip(unsigned long ip)
{
	/* Pairs with smp_store_release() in mstat_page_text_resolve(). */
	unsigned int i, n = smp_load_acquire(&mstat_page_text_nr);

	if (mstat_mutant(MSTAT_MUT_PAGE_SYMBOLS))
		mstat_page_symbol_mutant(ip);

	/* A return address is past its call: the call's own byte is in it. */
	for (i = 0; i < n; i++)
		if (ip - 1 - mstat_page_text[i].start < mstat_page_text[i].size)
			return true;
	return false;
}

/*
 * A page's stack, into @entries: from the first frame that is neither
 * mstat's nor the page allocator's, at most @depth frames. Without
 * one, the first frame past mstat's alone, counted as leafless.
 *
 * @site, if not 0, is the return address of the allocator's call that
 * mstat saw return (alloc_pages_bulk()'s kretprobe): the stack starts at
 * that frame, past the kprobes' own frames between mstat's and it, then
 * past the allocator's (a wrapper of the bulk allocator, as vmalloc()'s
 * alloc_pages_bulk_array_mempolicy_noprof()). Where the unwinder did not
 * give that frame back (it could not cross the probe's trampoline),
 * @site alone, counted as leafless: never a frame of the kprobes' code.
 */
unsigned int mstat_page_stack(unsigned long *entries, unsigned long site,
			      unsigned int depth, bool *leafless)
{
	unsigned int n, i = 0, first;

	n = stack_trace_save(entries, MSTAT_STACK_CAPTURE, 0);
	if (site) {
		while (i < n && entries[i] != site)
			i++;
		if (i == n) {
			*leafless = true;
			entries[0] = site;
			return 1;
		}
	} else {
		while (i < n && within_module(entries[i], THIS_MODULE))
			i++;
	}
	first = i;
	while (i < n && mstat_page_allocator_ip(entries[i]))
		i++;
	if (i == n) {
		*leafless = true;
		if (first == n)
			return 0;
		entries[0] = entries[first];
		return 1;
	}
	n = min(n - i, depth);
	memmove(entries, &entries[i], n * sizeof(*entries));
	return n;
}
