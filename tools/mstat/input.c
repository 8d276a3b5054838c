// SPDX-License-Identifier: GPL-2.0
/*
 * Reading /proc/mstat and /proc/mstat_sites, or copies of them: each
 * file in one open() (one snapshot), through the parser, with the tool's
 * one-line messages for whatever goes wrong.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "input.h"
#include "parse_snap.h"
#include "util.h"

char *mstat_slurp(const char *path, size_t max, struct timespec *when,
		  size_t *len, enum mstat_read_fail *how)
{
	size_t n = 0, cap = 65536;
	char *buf, *nb;
	ssize_t got = -1;
	int fd, err;

	*how = MSTAT_READ_OPEN;
	do {
		fd = open(path, O_RDONLY);
	} while (fd < 0 && errno == EINTR);
	if (fd < 0)
		return NULL;
	if (when)
		clock_gettime(CLOCK_MONOTONIC, when);
	*how = MSTAT_READ_READ;
	buf = malloc(cap);
	for (;;) {
		if (buf && n + 1 >= cap) {
			if (max && cap >= max) {
				*how = MSTAT_READ_BIG;
				errno = EFBIG;
				break;
			}
			cap *= 2;
			nb = realloc(buf, cap);
			if (!nb)
				free(buf);
			buf = nb;
		}
		if (!buf) {
			errno = ENOMEM;
			break;
		}
		got = read(fd, buf + n, cap - n - 1);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			break;
		n += got;
	}
	err = errno;
	close(fd);
	if (!buf || got != 0) {
		free(buf);
		errno = err;
		return NULL;
	}
	buf[n] = '\0';
	*len = n;
	return buf;
}

/* Errors */

static void open_error(const char *path, int err)
{
	bool denied = err == EACCES || err == EPERM;
	bool proc = !strncmp(path, "/proc/", 6);

	if (err == ENOENT && proc)
		mstat_err("%s not found: is the mstat module loaded?", path);
	else if (err == ENOENT)
		mstat_err("%s not found", path);
	else if (denied && (!strcmp(path, MSTAT_PROC) ||
			    !strcmp(path, MSTAT_SITES_PROC)))
		/* Both files are created with the module's proc_mode. */
		mstat_err("%s: permission denied (root only by default; see proc_mode)",
			  path);
	else if (denied)
		mstat_err("%s: permission denied", path);
	else
		mstat_err("%s: %s", path, strerror(err));
}

/* The contents of @path, or NULL after a message. */
static char *read_input(const char *path, struct timespec *when, size_t *len)
{
	enum mstat_read_fail how;
	char *buf = mstat_slurp(path, MSTAT_MAX_INPUT, when, len, &how);

	if (buf)
		return buf;
	if (errno == ENOMEM)
		mstat_err("out of memory");
	else if (how == MSTAT_READ_OPEN)
		open_error(path, errno);
	else if (how == MSTAT_READ_BIG)
		mstat_err("%s: larger than %u MiB", path, MSTAT_MAX_INPUT >> 20);
	else
		mstat_err("%s: read: %s", path, strerror(errno));
	return NULL;
}

static const char *const dup_kind[] = {
	[MSTAT_DUP_COUNTER] = "", [MSTAT_DUP_CLASS] = "class ",
	[MSTAT_DUP_ORDER] = "order ", [MSTAT_DUP_KCLASS] = "kmalloc_class ",
	[MSTAT_DUP_CACHE] = "cache ", [MSTAT_DUP_VM] = "vm ",
};

/* Why @path (whose first line starts with @head) did not parse. */
static void parse_error(const char *path, const char *head,
			const struct mstat_perror *e)
{
	static const char *const what[] = {
		[MSTAT_E_LINE] = "malformed line",
		[MSTAT_E_CLASS] = "malformed class row",
		[MSTAT_E_ORDER] = "malformed order row",
		[MSTAT_E_VM] = "malformed vm row",
		[MSTAT_E_TOO_MANY] = "more lines of this kind than mstat reads",
		[MSTAT_E_SITES_HEADER] = "malformed header",
		[MSTAT_E_SITE_ROW] = "malformed site row",
		[MSTAT_E_SITE_CGROUP] = "malformed cgroup (an id >= 1, hardirq, softirq or -)",
		[MSTAT_E_SITE_NODE] = "malformed node (a number or -)",
		[MSTAT_E_SITE_CACHE] = "malformed cache (a name or -)",
		[MSTAT_E_SITE_SOURCE] = "unknown source (a source's name or -)",
		[MSTAT_E_SITE_LIVE] = "malformed live line (+ AGE_MS BYTES)",
		[MSTAT_E_SITE_PLACE] = "frame before any row or after its row's live lines",
		[MSTAT_E_SITE_COLUMNS] = "not the columns of the file's version",
		[MSTAT_E_OWNERS_HEADER] = "no \"# rows N capacity N\" line after the version",
		[MSTAT_E_OWNER_ROW] = "malformed owner row",
	};

	switch (e->code) {
	case MSTAT_E_NUL:
		mstat_err("%s: not a text file (NUL byte at offset %zu)", path,
			  e->off);
		break;
	case MSTAT_E_EMPTY:
		mstat_err("%s: empty (no version line)", path);
		break;
	case MSTAT_E_PARTIAL:
		mstat_err("%s: truncated (the last line is incomplete)", path);
		break;
	case MSTAT_E_HEAD:
		mstat_err("%s: not an %.*s file (first line \"%.40s\")", path,
			  (int)strcspn(head, " "), head, e->text);
		break;
	case MSTAT_E_VERSION:
		mstat_err("%s: bad version \"%.16s\"", path,
			  e->text + strlen(head));
		break;
	case MSTAT_E_MAJOR:
		mstat_err("%s: unsupported format version %s (this mstat reads %d.x)",
			  path, e->text + strlen(head), MSTAT_MAJOR);
		break;
	case MSTAT_E_COUNTER:
		mstat_err("%s: line %d: malformed \"%s\"", path, e->line,
			  e->text);
		break;
	case MSTAT_E_DUP:
		mstat_err("%s: line %d: %s%s given twice", path, e->line,
			  dup_kind[e->dup.kind], e->dup.what);
		break;
	case MSTAT_E_OWNER_ROW:
	case MSTAT_E_SITE_ROW:
	case MSTAT_E_SITE_CGROUP:
	case MSTAT_E_SITE_NODE:
	case MSTAT_E_SITE_CACHE:
	case MSTAT_E_SITE_SOURCE:
	case MSTAT_E_SITE_LIVE:
	case MSTAT_E_SITE_PLACE:
	case MSTAT_E_SITE_COLUMNS:
		mstat_err("%s: line %d: %s: \"%.80s\"", path, e->line,
			  e->code == MSTAT_E_SITE_PLACE && e->text[0] == '+' ?
			  "live line before any row" : what[e->code], e->text);
		break;
	case MSTAT_E_NOMEM:
		mstat_err("out of memory");
		break;
	default:
		mstat_err("%s: line %d: %s", path, e->line,
			  (size_t)e->code < ARRAY_SIZE(what) && what[e->code] ?
			  what[e->code] : "malformed");
	}
}

/* /proc/mstat */

/* Class rows end at "large", orders count up from 0. */
static bool in_order(const struct mstat_snap *s)
{
	int i;

	for (i = 1; i < s->ncls; i++) {
		if (!s->cls[i - 1].size) {
			mstat_err("%s: line %d: class row after \"large\"",
				  s->path, s->cls[i].line);
			return false;
		}
	}
	for (i = 0; i < s->nord; i++) {
		if (s->ord[i].n != (unsigned int)i) {
			mstat_err("%s: line %d: malformed order row", s->path,
				  s->ord[i].line);
			return false;
		}
	}
	return true;
}

/* All of format 1.0 there: a cut file loses its tail. */
static bool complete(const struct mstat_snap *s)
{
	const char *missing = mstat_snap_missing(s);

	if (missing) {
		mstat_err("%s: truncated or incomplete: no \"%s\" line",
			  s->path, missing);
		return false;
	}
	if (s->ncls < MSTAT_NR_CLASSES || s->cls[s->ncls - 1].size) {
		mstat_err("%s: truncated or incomplete: %d size-class rows, want %d ending in \"large\"",
			  s->path, s->ncls, MSTAT_NR_CLASSES);
		return false;
	}
	if (s->nord < MSTAT_NR_ORDERS) {
		mstat_err("%s: truncated or incomplete: %d page-order rows, want %d",
			  s->path, s->nord, MSTAT_NR_ORDERS);
		return false;
	}
	return true;
}

void mstat_snap_free(struct mstat_snap *s)
{
	free(s);
}

struct mstat_snap *mstat_snap_read(const char *path)
{
	struct mstat_snap *s = mstat_alloc(NULL, sizeof(*s));
	struct mstat_perror e;
	struct timespec when;
	size_t len;
	char *buf;
	bool ok;

	buf = read_input(path, &when, &len);
	if (!buf) {
		free(s);
		return NULL;
	}
	s->path = path;
	ok = mstat_snap_parse(s, buf, len, 0, NULL, NULL, &e);
	/* The first error in the file: rows out of order come before. */
	if (!ok && in_order(s))
		parse_error(path, MSTAT_HEAD, &e);
	else if (ok)
		ok = in_order(s) && complete(s);
	free(buf);
	if (!ok) {
		free(s);
		return NULL;
	}
	s->when = when;
	mstat_snap_index(s);
	return s;
}

/* /proc/mstat_sites */

void mstat_sites_free(struct mstat_sites *ss)
{
	if (ss)
		mstat_sites_clear(ss);
	free(ss);
}

struct mstat_sites *mstat_sites_read(const char *path)
{
	struct mstat_sites *ss = mstat_alloc(NULL, sizeof(*ss));
	struct mstat_perror e;
	size_t len;
	char *buf;
	bool ok;

	memset(ss, 0, sizeof(*ss));
	ss->path = path;
	buf = read_input(path, NULL, &len);
	ok = buf && mstat_sites_parse(ss, buf, len, &e);
	if (buf && !ok && e.code == MSTAT_E_SITES_COUNT)
		mstat_err("%s: truncated or incomplete: %zu site rows, header says %lld",
			  path, ss->n, ss->nsites);
	else if (buf && !ok)
		parse_error(path, MSTAT_SITES_HEAD, &e);
	free(buf);
	if (!ok) {
		mstat_sites_free(ss);
		return NULL;
	}
	return ss;
}

/* /proc/mstat_owners */

struct mstat_owners *mstat_owners_read(const char *path)
{
	struct mstat_owners *ow = mstat_alloc(NULL, sizeof(*ow));
	struct mstat_perror e;
	size_t len;
	char *buf;
	bool ok;

	memset(ow, 0, sizeof(*ow));
	ow->path = path;
	buf = read_input(path, NULL, &len);
	ok = buf && mstat_owners_parse(ow, buf, len, &e);
	if (buf && !ok && e.code == MSTAT_E_OWNERS_COUNT)
		mstat_err("%s: truncated or incomplete: %zu owner rows, header says %lld",
			  path, ow->n, ow->rows);
	else if (buf && !ok)
		parse_error(path, MSTAT_OWNERS_HEAD, &e);
	free(buf);
	if (!ok) {
		mstat_owners_free(ow);
		return NULL;
	}
	return ow;
}

void mstat_owners_free(struct mstat_owners *ow)
{
	if (!ow)
		return;
	free(ow->r);
	free(ow);
}
