// SPDX-License-Identifier: GPL-2.0
/*
 * Text that mstat reads out of the kernel and shows: a string read
 * where a wrong offset could point anywhere, a call site named without
 * leaking the kernel's layout, a call site's name kept for when its text
 * is gone, a function's text found by its name. A leaf (layer 0): no
 * mstat header but its own and the compat header (for the KUnit
 * exports).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kallsyms.h>
#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "mstat_compat.h"
#include "mstat_text.h"

/**
 * mstat_string_nofault() - copy a kernel string that may not be one
 * @buf: the copy, always NUL-terminated
 * @src: the string
 * @size: bytes of @buf
 *
 * strncpy_from_kernel_nofault() is not exported. Byte by byte, through
 * copy_from_kernel_nofault(): never a read past the string's NUL, where
 * its allocation may end (KASAN checks these reads).
 *
 * Return: 0, or -EFAULT (@buf is "" then).
 */
int mstat_string_nofault(char *buf, const char *src, size_t size)
{
	size_t i;

	for (i = 0; i < size - 1; i++) {
		if (copy_from_kernel_nofault(&buf[i], src + i, 1)) {
			buf[0] = '\0';
			return -EFAULT;
		}
		if (!buf[i])
			return 0;
	}
	buf[i] = '\0';
	return 0;
}

/*
 * Names kept for call sites whose text went away (a module unloaded, a
 * module's init text freed: see mstat_profile.c's module notifier),
 * resolved while the text was still there. A frame that stood for such
 * a site holds the name's token instead of the address: 1 + its index
 * here, far below any kernel address (and never 0, no frame's value),
 * so that it is never named after whatever text is at that address
 * later. The names are kept until mstat goes, each name once (a module
 * loaded and unloaded again names the same sites the same), at most
 * MSTAT_TEXT_KEPT of them (about 60 bytes each): past that, a site is
 * named "[unloaded]", still not another's name. Added under
 * mstat_text_kept_lock; each published by a release that the readers'
 * acquire pairs with, before any frame holds its token.
 */
#define MSTAT_TEXT_KEPT		1024
#define MSTAT_TEXT_UNNAMED	(MSTAT_TEXT_KEPT + 1)
static const char *mstat_text_kept[MSTAT_TEXT_KEPT];
static unsigned int mstat_text_kept_nr;
static DEFINE_MUTEX(mstat_text_kept_lock);

/* Tokens are below a page: no kernel text is at the first page of memory. */
static_assert(MSTAT_TEXT_UNNAMED < PAGE_SIZE);

/**
 * mstat_text_keep() - keep a call site's name, for when its text is gone
 * @site: the call site, whose text is still there
 *
 * Context: process; sleeps. Before @site's text goes.
 * Return: the token a frame holds in place of @site from now on:
 * mstat_site_name() gives the name @site has now.
 */
unsigned long mstat_text_keep(unsigned long site)
{
	char buf[KSYM_SYMBOL_LEN];
	unsigned long token = MSTAT_TEXT_UNNAMED;
	unsigned int i;
	char *name;

	if (mstat_text_kept_token(site))
		return site;
	mstat_site_name(buf, sizeof(buf), site);
	mutex_lock(&mstat_text_kept_lock);
	for (i = 0; i < mstat_text_kept_nr; i++)
		if (!strcmp(mstat_text_kept[i], buf))
			break;
	if (i < mstat_text_kept_nr) {
		token = i + 1;
	} else if (i < MSTAT_TEXT_KEPT) {
		name = kstrdup(buf, GFP_KERNEL);
		if (name) {
			/* Pairs with smp_load_acquire() in mstat_site_name(). */
			smp_store_release(&mstat_text_kept[i], name);
			mstat_text_kept_nr++;
			token = i + 1;
		}
	}
	mutex_unlock(&mstat_text_kept_lock);
	if (token == MSTAT_TEXT_UNNAMED)
		pr_warn_once("more than %u call sites of unloaded modules: the later ones named [unloaded]\n",
			     MSTAT_TEXT_KEPT);
	return token;
}

/**
 * mstat_text_kept_token() - whether a frame holds a kept name's token
 * @frame: a frame of a stack (a return address, or a token)
 *
 * Return: true if @frame is mstat_text_keep()'s token, not an address.
 */
bool mstat_text_kept_token(unsigned long frame)
{
	return frame && frame <= MSTAT_TEXT_UNNAMED;
}
EXPORT_SYMBOL_IF_KUNIT(mstat_text_kept_token);

/**
 * mstat_text_kept_free() - forget the kept names
 *
 * Context: process; no frame holding a token is read any more (mstat
 * going).
 */
void mstat_text_kept_free(void)
{
	unsigned int i;

	mutex_lock(&mstat_text_kept_lock);
	for (i = 0; i < mstat_text_kept_nr; i++) {
		kfree(mstat_text_kept[i]);
		mstat_text_kept[i] = NULL;
	}
	mstat_text_kept_nr = 0;
	mutex_unlock(&mstat_text_kept_lock);
}

/**
 * mstat_site_name() - a call site as text, never a raw address
 * @buf: at least KSYM_SYMBOL_LEN bytes
 * @size: its size
 * @site: the call site, or a kept name's token (mstat_text_keep())
 *
 * A site is a return address: "%pB" names the function that holds the
 * call, also when the call is its last instruction and the address is
 * the next function's first ("%pS" would name that one). It prints the
 * bare address of a site it cannot name (__init code, an unloaded
 * module): that would leak the kernel's layout, so such a site becomes
 * "[unknown]" followed by its hashed address ("%p"). A token gives the
 * name its site had when it was kept.
 *
 * Return: @buf.
 */
char *mstat_site_name(char *buf, size_t size, unsigned long site)
{
	const char *kept;

	if (mstat_text_kept_token(site)) {
		kept = NULL;
		if (site < MSTAT_TEXT_UNNAMED) {
			/* Pairs with smp_store_release() in mstat_text_keep(). */
			kept = smp_load_acquire(&mstat_text_kept[site - 1]);
		}
		strscpy(buf, kept ?: "[unloaded]", size);
		return buf;
	}
	snprintf(buf, size, "%pB", (void *)site);
	if (!strncmp(buf, "0x", 2))
		snprintf(buf, size, "[unknown]/%p", (void *)site);
	return buf;
}
EXPORT_SYMBOL_IF_KUNIT(mstat_site_name);

/**
 * mstat_text_resolve() - find functions of the kernel by their names
 * @names: their names, as /proc/kallsyms spells them (a clone's with its
 *	suffix: "fn.constprop.0")
 * @n: how many
 * @r: set to each one's text (@r[i].size 0: not found)
 *
 * A module has no kallsyms_lookup_name() (unexported since 5.7): each
 * name is resolved as a kprobe on it is, by registering one disabled,
 * never armed (the function runs untouched), and its size is read back
 * with sprint_symbol() ("fn+0x4/0x1a0": on a kernel with IBT a kprobe's
 * address is past the function's endbr). A name the kernel does not
 * have, or does not let a kprobe on (the kprobes' blacklist, noinstr
 * text, a kernel without kprobes), is not found. The kprobes are
 * unregistered together: one grace period for all.
 *
 * Context: process; sleeps. Slow where the kernel looks a name up by a
 * walk of all its symbols (before 6.2): for a load, not a hot path.
 * Return: how many were found, or -ENOMEM.
 */
int mstat_text_resolve(const char *const *names, unsigned int n,
		       struct mstat_text_range *r)
{
	unsigned long off, size, addr;
	char sym[KSYM_SYMBOL_LEN];
	struct kprobe *kp, **reg;
	unsigned int i, nr = 0;
	int found = 0;
	char *plus;

	kp = kcalloc(n, sizeof(*kp), GFP_KERNEL);
	reg = kcalloc(n, sizeof(*reg), GFP_KERNEL);
	if (!kp || !reg) {
		kfree(reg);
		kfree(kp);
		return -ENOMEM;
	}
	for (i = 0; i < n; i++) {
		r[i].start = 0;
		r[i].size = 0;
		kp[i].symbol_name = names[i];
		kp[i].flags = KPROBE_FLAG_DISABLED;
		if (register_kprobe(&kp[i]))
			continue;
		reg[nr++] = &kp[i];
		addr = (unsigned long)kp[i].addr;
		sprint_symbol(sym, addr);
		plus = strrchr(sym, '+');
		if (!plus || sscanf(plus, "+%lx/%lx", &off, &size) != 2 ||
		    off >= size || off > addr)
			continue;
		r[i].start = addr - off;
		r[i].size = size;
		found++;
	}
	if (nr)
		unregister_kprobes(reg, nr);
	kfree(reg);
	kfree(kp);
	return found;
}
