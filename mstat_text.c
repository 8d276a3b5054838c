// SPDX-License-Identifier: GPL-2.0
/*
 * Text that mstat reads out of the kernel and shows: a string read
 * where a wrong offset could point anywhere, a call site named without
 * leaking the kernel's layout, a function's text found by its name. A
 * leaf (layer 0): no mstat header but its own.
 */
#include <linux/kallsyms.h>
#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

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

/**
 * mstat_site_name() - a call site as text, never a raw address
 * @buf: at least KSYM_SYMBOL_LEN bytes
 * @size: its size
 * @site: the call site
 *
 * A site is a return address: "%pB" names the function that holds the
 * call, also when the call is its last instruction and the address is
 * the next function's first ("%pS" would name that one). It prints the
 * bare address of a site it cannot name (__init code, an unloaded
 * module): that would leak the kernel's layout, so such a site becomes
 * "[unknown]" followed by its hashed address ("%p").
 *
 * Return: @buf.
 */
char *mstat_site_name(char *buf, size_t size, unsigned long site)
{
	snprintf(buf, size, "%pB", (void *)site);
	if (!strncmp(buf, "0x", 2))
		snprintf(buf, size, "[unknown]/%p", (void *)site);
	return buf;
}

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
