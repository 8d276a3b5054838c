// SPDX-License-Identifier: GPL-2.0
/*
 * Text that mstat reads out of the kernel and shows: a string read
 * where a wrong offset could point anywhere, a call site named without
 * leaking the kernel's layout. A leaf (layer 0): no mstat header but its
 * own.
 */
#include <linux/kallsyms.h>
#include <linux/kernel.h>
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
