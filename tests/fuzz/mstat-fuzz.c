// SPDX-License-Identifier: GPL-2.0
/*
 * mstat-fuzz - feed random input to every writable mstat control, in the
 * guest, and check that state changes on valid input only.
 *
 * For each control file: N writes of random input (lengths 0 to 64 KiB,
 * binary, signed, huge and hex numbers, valid values now and then). After
 * every write the file is read back: a write the model says is invalid
 * must fail with EINVAL and leave the value as it was; a valid one must
 * succeed and the value must be what was written.
 *
 * The model of valid input is mstat_ctl.c's parser: kstrtou64() with base
 * 0 (0x for hex, a leading 0 for octal, one optional '+', one optional
 * trailing newline), at most 24 bytes, no NUL byte, at most the control's
 * maximum; reset takes 1 only.
 *
 * With -p, DIR is a module's parameter directory
 * (/sys/module/mstat/parameters), whose files are sysfs: the same parser
 * sees what sysfs hands a parameter's set function, and the model says
 * what that is:
 *  - an empty write never reaches it: write() returns 0, nothing changes;
 *  - a write of more than a page is cut to its first page (write()
 *    returns a page's length when the value is valid: a partial write);
 *  - the parser gets a C string: what was written up to its first NUL
 *    byte, so "1\0junk" sets 1 and write() returns all 6 bytes (an
 *    embedded NUL cannot be seen), while a write that starts with a NUL
 *    is an empty string, refused with EINVAL.
 *
 * Usage: mstat-fuzz [-p] [-n WRITES_PER_FILE] [-s SEED] [DIR]
 *	  (DIR default /sys/kernel/debug/mstat, with -p
 *	  /sys/module/mstat/parameters)
 * Prints one "ok NAME" / "not ok NAME" line per control ("fuzz-NAME",
 * with -p "fuzz-param-NAME").
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

struct control {
	const char *name;
	uint64_t max;
	bool readable;	/* reset is write-only */
};

static const struct control controls[] = {
	{ "enable_kmalloc", 1, true },
	{ "enable_cache", 1, true },
	{ "enable_page", 1, true },
	{ "enable_api", 1, true },
	{ "events_sources", 63, true },
	{ "events_min_size", UINT64_MAX, true },
	{ "profile_rate", 1ULL << 40, true },
	{ "sync_mode", 2, true },
	{ "per_cache", 1, true },
	{ "proc_min_interval_ms", 3600000, true },
	{ "reset", 1, false },
};

static uint64_t rng = 88172645463325252ULL;
static bool params;	/* -p: DIR is sysfs, the parameter model */
static size_t page_size;

static uint64_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static int digit(int c, int base)
{
	int v;

	if (c >= '0' && c <= '9')
		v = c - '0';
	else if (c >= 'a' && c <= 'f')
		v = c - 'a' + 10;
	else if (c >= 'A' && c <= 'F')
		v = c - 'A' + 10;
	else
		return -1;
	return v < base ? v : -1;
}

/* The kernel's kstrtou64(s, 0, &v) on the @len bytes of @s. */
static bool model_parse(const char *s, size_t len, uint64_t *val)
{
	size_t i = 0;
	int base = 10, d;
	uint64_t v = 0;
	bool any = false;

	if (!len || len > 24 || memchr(s, '\0', len))
		return false;
	if (s[i] == '+')
		i++;
	if (i < len && s[i] == '0') {
		if (i + 2 < len && (s[i + 1] | 0x20) == 'x' &&
		    digit(s[i + 2], 16) >= 0) {
			base = 16;
			i += 2;
		} else {
			base = 8;
		}
	}
	for (; i < len && (d = digit(s[i], base)) >= 0; i++) {
		if (v > (UINT64_MAX - d) / base)
			return false;		/* -ERANGE */
		v = v * base + d;
		any = true;
	}
	if (i < len && s[i] == '\n')
		i++;
	if (!any || i != len)
		return false;
	*val = v;
	return true;
}

static size_t gen_input(char *buf, size_t cap, uint64_t max)
{
	size_t len, i;

	switch (rnd() % 9) {
	case 0:		/* a valid value */
		return snprintf(buf, cap, rnd() % 2 ? "%llu\n" : "%llu",
				(unsigned long long)(max == UINT64_MAX ? rnd() :
						     rnd() % (max + 1)));
	case 1:		/* a number, maybe too big, maybe signed */
		return snprintf(buf, cap, "%s%llu", rnd() % 2 ? "-" : "+",
				(unsigned long long)rnd());
	case 2:		/* hex or octal */
		return snprintf(buf, cap, rnd() % 2 ? "0x%llx\n" : "0%llo",
				(unsigned long long)(max >= UINT64_MAX - 1 ?
						     rnd() : rnd() % (max + 2)));
	case 3:		/* empty */
		return 0;
	case 4:		/* long, up to 64 KiB of digits */
		len = rnd() % cap;
		for (i = 0; i < len; i++)
			buf[i] = '0' + rnd() % 10;
		return len;
	case 5:		/* a valid value followed by junk or a NUL */
		len = snprintf(buf, cap, "%llu", (unsigned long long)(rnd() % 2));
		buf[len++] = rnd() % 2 ? '\0' : (char)rnd();
		return len;
	case 6:		/* a valid value, a NUL, then up to 64 KiB of junk */
		len = snprintf(buf, cap, "%llu", (unsigned long long)(rnd() % 2));
		buf[len++] = '\0';
		for (i = len + rnd() % (cap - len); len < i; len++)
			buf[len] = (char)rnd();
		return len;
	default:	/* binary */
		len = rnd() % (rnd() % 4 ? 32 : cap);
		for (i = 0; i < len; i++)
			buf[i] = (char)rnd();
		return len;
	}
}

static bool read_value(int dirfd, const char *name, uint64_t *val)
{
	char buf[64];
	ssize_t n;
	int fd;

	fd = openat(dirfd, name, O_RDONLY);
	if (fd < 0)
		return false;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return false;
	buf[n] = '\0';
	*val = strtoull(buf, NULL, 10);
	return true;
}

static int fuzz_control(int dirfd, const struct control *c, long writes)
{
	static char buf[65536];
	uint64_t before, after, want;
	long i, valid = 0, bad = 0;
	size_t len;
	ssize_t n;
	int fd;

	for (i = 0; i < writes; i++) {
		len = gen_input(buf, sizeof(buf), c->max);
		if (c->readable && !read_value(dirfd, c->name, &before)) {
			printf("# %s: cannot read\n", c->name);
			return 1;
		}
		fd = openat(dirfd, c->name, O_WRONLY);
		if (fd < 0) {
			printf("# %s: open: %s\n", c->name, strerror(errno));
			return 1;
		}
		errno = 0;
		n = write(fd, buf, len);
		close(fd);
		/* What reaches the parser, and what a valid write returns. */
		size_t seen = len, took = len;

		if (params) {
			took = len < page_size ? len : page_size;
			seen = strnlen(buf, took);
		}
		bool ok = model_parse(buf, seen, &want) && want <= c->max;

		if (!strcmp(c->name, "reset") && ok && want != 1)
			ok = false;	/* reset takes 1 only */
		if (params && !len) {
			/* sysfs returns 0 for an empty write, unparsed. */
			if (n != 0 && bad++ < 5)
				printf("# %s: empty write returned %zd errno %d, not 0\n",
				       c->name, n, errno);
			continue;
		}
		valid += ok;
		if (ok != (n == (ssize_t)took) || (!ok && errno != EINVAL)) {
			if (bad++ < 5)
				printf("# %s: input of %zu bytes: write returned %zd errno %d, model says %s\n",
				       c->name, len, n, errno,
				       ok ? "valid" : "invalid");
			continue;
		}
		if (!c->readable)
			continue;
		if (!read_value(dirfd, c->name, &after))
			return 1;
		if (after != (ok ? want : before)) {
			if (bad++ < 5)
				printf("# %s: value %llu after %s write, wanted %llu\n",
				       c->name, (unsigned long long)after,
				       ok ? "a valid" : "an invalid",
				       (unsigned long long)(ok ? want : before));
		}
	}
	printf("# %s: %ld writes, %ld valid, %ld mismatches\n", c->name, writes,
	       valid, bad);
	return bad != 0;
}

int main(int argc, char **argv)
{
	const char *dir = NULL;
	long writes = 100000;
	int opt, dirfd, fails = 0;
	size_t i;

	while ((opt = getopt(argc, argv, "pn:s:")) != -1) {
		switch (opt) {
		case 'p':
			params = true;
			break;
		case 'n':
			writes = atol(optarg);
			break;
		case 's':
			rng = strtoull(optarg, NULL, 0) | 1;
			break;
		default:
			fprintf(stderr, "usage: %s [-p] [-n WRITES] [-s SEED] [DIR]\n",
				argv[0]);
			return 2;
		}
	}
	if (optind < argc)
		dir = argv[optind];
	else
		dir = params ? "/sys/module/mstat/parameters" :
			       "/sys/kernel/debug/mstat";
	page_size = sysconf(_SC_PAGESIZE);
	dirfd = open(dir, O_RDONLY | O_DIRECTORY);
	if (dirfd < 0) {
		fprintf(stderr, "mstat-fuzz: %s: %s\n", dir, strerror(errno));
		return 2;
	}
	for (i = 0; i < ARRAY_SIZE(controls); i++) {
		int bad = fuzz_control(dirfd, &controls[i], writes);

		printf("%sok fuzz-%s%s\n", bad ? "not " : "",
		       params ? "param-" : "", controls[i].name);
		fails += bad;
	}
	return fails != 0;
}
