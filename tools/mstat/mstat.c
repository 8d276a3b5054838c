// SPDX-License-Identifier: GPL-2.0
/*
 * mstat - read, watch, export and profile what the mstat module publishes
 *
 *   mstat [-f FILE] [--json]		the snapshot in /proc/mstat, readable
 *					or as one JSON object
 *   mstat top [-d SECS] [-n ITER] [-f FILE]...
 *					rates per second from successive
 *					snapshots, like slabtop
 *   mstat prom [-f FILE] [-o FILE]	Prometheus text exposition format
 *   mstat pprof [-f FILE] [-o FILE]	/proc/mstat_sites as a gzipped pprof
 *					profile (perftools.profiles.Profile)
 *
 * C99 and POSIX, libc only: the protobuf and the gzip container (stored
 * deflate blocks) are written by hand.
 *
 * Exit status: 0; 1 if the input is missing, unreadable, of an unknown
 * major format version, truncated or malformed, or output fails; 2 on a
 * usage error. Every error is one line on stderr.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MSTAT_PROC		"/proc/mstat"
#define MSTAT_SITES_PROC	"/proc/mstat_sites"
#define MSTAT_HEAD		"mstat - version: "
#define MSTAT_SITES_HEAD	"mstat_sites - version: "
#define MSTAT_MAJOR		1	/* the format major this tool reads */
#define MSTAT_MAX_INPUT		(256u << 20)
#define MSTAT_MAX_FIELDS	32
#define MSTAT_MAX_ROWS		64
#define MSTAT_MAX_FILES		16
/* Rows of format 1.0: a later minor only adds lines. */
#define MSTAT_NR_CLASSES	14
#define MSTAT_NR_ORDERS		11

#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))

enum { EXIT_INPUT = 1, EXIT_USAGE = 2 };

/* The four sources, in the order the file lists them. */
#define MSTAT_NR_SRC		4
static const char *const mstat_src_names[MSTAT_NR_SRC] = {
	"kmalloc", "cache", "page", "api",
};

#define MSTAT_NR_CTX		3
static const char *const mstat_ctx_names[MSTAT_NR_CTX] = {
	"task", "softirq", "hardirq",
};

/* <src>_<field> lines; slab_ has all but enabled and failures. */
enum {
	SRC_ENABLED, SRC_ALLOCS, SRC_FREES, SRC_FAILURES, SRC_BYTES_REQ,
	SRC_BYTES_ALLOC, SRC_BYTES_FREED, SRC_LIVE_OBJ, SRC_LIVE_BYTES, SRC_NR
};

static const char *const mstat_src_fields[SRC_NR] = {
	"enabled", "allocs", "frees", "failures", "bytes_requested",
	"bytes_allocated", "bytes_freed", "live_objects", "live_bytes",
};

static const char *const mstat_slab_fields[] = {
	"allocs", "frees", "bytes_requested", "bytes_allocated",
	"bytes_freed", "live_objects", "live_bytes", "frag_bytes",
};

/* Columns of a "class SIZE ..." row after SIZE. */
enum {
	CLS_ALLOCS, CLS_FREES, CLS_LIVE_OBJ, CLS_BYTES_REQ, CLS_BYTES_ALLOC,
	CLS_BYTES_FREED, CLS_LIVE_BYTES, CLS_FRAG, CLS_FRAG_LIVE_EST, CLS_NR
};

static const char *const mstat_cls_fields[CLS_NR] = {
	"allocs", "frees", "live_objects", "bytes_requested",
	"bytes_allocated", "bytes_freed", "live_bytes", "frag_bytes",
	"frag_live_bytes_est",
};

/* Columns of an "order N ..." row after N. */
enum { ORD_ALLOCS, ORD_FREES, ORD_FAILURES, ORD_LIVE_PAGES, ORD_NR };
static const char *const mstat_ord_fields[ORD_NR] = {
	"allocs", "frees", "failures", "live_pages",
};

struct mstat_counter {
	char name[64];
	long long val;
};

struct mstat_class {
	char name[16];		/* "96" or "large" */
	long long size;		/* bytes; -1 for "large" */
	long long v[CLS_NR];
};

struct mstat_order {
	long long v[ORD_NR];
};

/**
 * struct mstat_snap - one parsed /proc/mstat
 * @path: where it was read from
 * @version: "1.0"
 * @major: format major
 * @minor: format minor
 * @ctr: every "name value" line, in file order
 * @nctr: how many
 * @cls: the size-class rows
 * @ncls: how many
 * @ord: the page-order rows, @ord[n] for order n
 * @nord: how many
 * @src: the per-source lines, by source and SRC_*
 * @gen: its generation
 * @when: CLOCK_MONOTONIC right after the open that took it
 */
struct mstat_snap {
	const char *path;
	char version[16];
	int major, minor;
	struct mstat_counter *ctr;
	size_t nctr;
	struct mstat_class cls[MSTAT_MAX_ROWS];
	int ncls;
	struct mstat_order ord[MSTAT_MAX_ROWS];
	int nord;
	long long src[MSTAT_NR_SRC][SRC_NR];
	long long gen;
	struct timespec when;
};

/* One call site of /proc/mstat_sites. */
struct mstat_site {
	long long est_bytes, est_calls, sampled_bytes, sampled_calls;
	long long allocs, alloc_bytes, frees, free_bytes;
	char *text;		/* as %pS printed it, module included */
	char *func;		/* the symbol, without +off/len */
	char *module;		/* the module, or NULL for the kernel */
};

struct mstat_sites {
	const char *path;
	char version[16];
	long long snapshot, rate, nsites, site_drops, addr_drops, addr_live;
	struct mstat_site *site;
	size_t n, cap;
};

/* Options of every command. */
enum mstat_cmd { CMD_SHOW, CMD_TOP, CMD_PROM, CMD_PPROF };

struct mstat_opts {
	enum mstat_cmd cmd;
	bool cmd_set;
	bool json;
	const char *file[MSTAT_MAX_FILES];
	int nfile;
	const char *out;
	double delay;
	long iters;
	bool delay_set, iters_set;
};

/* Errors */

static void mstat_err(const char *fmt, ...)
{
	va_list ap;

	fputs("mstat: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static void *mstat_alloc(void *old, size_t n)
{
	void *p = realloc(old, n ? n : 1);

	if (!p) {
		mstat_err("out of memory");
		exit(EXIT_INPUT);
	}
	return p;
}

static char *mstat_strdup(const char *s, size_t n)
{
	char *p = mstat_alloc(NULL, n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

/* Reading */

static bool mstat_is_proc(const char *path)
{
	return !strncmp(path, "/proc/", 6);
}

static void mstat_open_error(const char *path, int err)
{
	bool denied = err == EACCES || err == EPERM;

	if (err == ENOENT && mstat_is_proc(path))
		mstat_err("%s not found: is the mstat module loaded?", path);
	else if (err == ENOENT)
		mstat_err("%s not found", path);
	else if (denied && !strcmp(path, MSTAT_PROC))
		mstat_err("%s: permission denied (root only by default; see proc_mode)",
			  path);
	else if (denied && !strcmp(path, MSTAT_SITES_PROC))
		/* proc_mode does not apply to it: it is always 0400. */
		mstat_err("%s: permission denied (root only)", path);
	else if (denied)
		mstat_err("%s: permission denied", path);
	else
		mstat_err("%s: %s", path, strerror(err));
}

/* open() retried on EINTR: a reader waiting for its turn may get one. */
static int mstat_open(const char *path)
{
	int fd;

	do {
		fd = open(path, O_RDONLY);
	} while (fd < 0 && errno == EINTR);
	if (fd < 0)
		mstat_open_error(path, errno);
	return fd;
}

static char *mstat_read_fd(int fd, const char *path, size_t *lenp)
{
	size_t len = 0, cap = 65536;
	char *buf = mstat_alloc(NULL, cap);
	ssize_t n;

	for (;;) {
		if (len + 1 >= cap) {
			if (cap >= MSTAT_MAX_INPUT) {
				mstat_err("%s: larger than %u MiB", path,
					  MSTAT_MAX_INPUT >> 20);
				free(buf);
				return NULL;
			}
			cap *= 2;
			buf = mstat_alloc(buf, cap);
		}
		n = read(fd, buf + len, cap - len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			mstat_err("%s: read: %s", path, strerror(errno));
			free(buf);
			return NULL;
		}
		if (!n)
			break;
		len += n;
	}
	buf[len] = '\0';
	*lenp = len;
	return buf;
}

/**
 * mstat_slurp() - read a whole file through one open (one snapshot)
 * @path: the file
 * @when: if not NULL, CLOCK_MONOTONIC right after the open
 *
 * Return: the NUL-terminated contents, to free(), or NULL after an error
 * message.
 */
static char *mstat_slurp(const char *path, struct timespec *when)
{
	size_t len;
	char *buf;
	int fd = mstat_open(path);

	if (fd < 0)
		return NULL;
	if (when)
		clock_gettime(CLOCK_MONOTONIC, when);
	buf = mstat_read_fd(fd, path, &len);
	close(fd);
	if (buf && strlen(buf) != len) {
		mstat_err("%s: not a text file (NUL byte at offset %zu)", path,
			  strlen(buf));
		free(buf);
		return NULL;
	}
	if (buf && !len) {
		mstat_err("%s: empty (no version line)", path);
		free(buf);
		return NULL;
	}
	if (buf && buf[len - 1] != '\n') {
		mstat_err("%s: truncated (the last line is incomplete)", path);
		free(buf);
		return NULL;
	}
	return buf;
}

/* Cut the next line off *@pos; NULL at the end. */
static char *mstat_next_line(char **pos)
{
	char *line = *pos, *nl;

	if (!*line)
		return NULL;
	nl = strchr(line, '\n');	/* mstat_slurp() made sure there is one */
	*nl = '\0';
	*pos = nl + 1;
	return line;
}

/* Split @line at blanks into at most @max fields; -1 if there are more. */
static int mstat_split(char *line, char **f, int max)
{
	int n = 0;

	for (;;) {
		while (*line == ' ' || *line == '\t')
			*line++ = '\0';
		if (!*line)
			return n;
		if (n == max)
			return -1;
		f[n++] = line;
		while (*line && *line != ' ' && *line != '\t')
			line++;
	}
}

/* A decimal integer, nothing else; values above LLONG_MAX wrap. */
static bool mstat_parse_num(const char *s, long long *v)
{
	const char *d = *s == '-' ? s + 1 : s;
	char *end;

	if (*d < '0' || *d > '9')
		return false;
	errno = 0;
	if (*s == '-')
		*v = strtoll(s, &end, 10);
	else
		*v = (long long)strtoull(s, &end, 10);
	return !errno && !*end;
}

/* "1.0" into major and minor; false if it is not two numbers. */
static bool mstat_parse_version(const char *s, int *major, int *minor)
{
	char *end;
	long a, b;

	if (*s < '0' || *s > '9')
		return false;
	a = strtol(s, &end, 10);
	if (*end != '.' || end[1] < '0' || end[1] > '9')
		return false;
	b = strtol(end + 1, &end, 10);
	if (*end || a > 9999 || b > 9999)
		return false;
	*major = a;
	*minor = b;
	return true;
}

/**
 * mstat_check_version() - check a file's first line
 * @path: for messages
 * @line: the first line
 * @head: what it must start with, "mstat - version: "
 * @version: gets the version string
 * @minor: gets the minor
 *
 * Return: true if it names format MSTAT_MAJOR.x, else false after an error
 * message.
 */
static bool mstat_check_version(const char *path, const char *line,
				const char *head, char *version, int *minor)
{
	int major;

	if (strncmp(line, head, strlen(head))) {
		mstat_err("%s: not an %.*s file (first line \"%.40s\")", path,
			  (int)(strcspn(head, " ")), head, line);
		return false;
	}
	line += strlen(head);
	if (strlen(line) >= 16 || !mstat_parse_version(line, &major, minor)) {
		mstat_err("%s: bad version \"%.16s\"", path, line);
		return false;
	}
	if (major != MSTAT_MAJOR) {
		mstat_err("%s: unsupported format version %s (this mstat reads %d.x)",
			  path, line, MSTAT_MAJOR);
		return false;
	}
	snprintf(version, 16, "%s", line);
	return true;
}

/* /proc/mstat */

static const struct mstat_counter *mstat_find(const struct mstat_snap *s,
					      const char *name)
{
	size_t i;

	for (i = 0; i < s->nctr; i++)
		if (!strcmp(s->ctr[i].name, name))
			return &s->ctr[i];
	return NULL;
}

/* A counter known to be there (mstat_check_complete() made sure). */
static long long mstat_get(const struct mstat_snap *s, const char *name)
{
	const struct mstat_counter *c = mstat_find(s, name);

	return c ? c->val : 0;
}

static bool mstat_valid_name(const char *n)
{
	if (!*n || strlen(n) >= sizeof(((struct mstat_counter *)0)->name))
		return false;
	for (; *n; n++)
		if (!(*n == '_' || (*n >= 'a' && *n <= 'z') ||
		      (*n >= '0' && *n <= '9')))
			return false;
	return true;
}

static bool mstat_add_counter(struct mstat_snap *s, char **f, int line)
{
	struct mstat_counter *c;
	long long v;

	if (!mstat_valid_name(f[0]) || !mstat_parse_num(f[1], &v)) {
		mstat_err("%s: line %d: malformed \"%s %s\"", s->path, line,
			  f[0], f[1]);
		return false;
	}
	if (mstat_find(s, f[0])) {
		mstat_err("%s: line %d: %s given twice", s->path, line, f[0]);
		return false;
	}
	s->ctr = mstat_alloc(s->ctr, (s->nctr + 1) * sizeof(*s->ctr));
	c = &s->ctr[s->nctr++];
	snprintf(c->name, sizeof(c->name), "%s", f[0]);
	c->val = v;
	return true;
}

static bool mstat_parse_nums(char **f, int n, long long *v)
{
	int i;

	for (i = 0; i < n; i++)
		if (!mstat_parse_num(f[i], &v[i]))
			return false;
	return true;
}

/* "class SIZE|large" and CLS_NR numbers; a later minor may add columns. */
static bool mstat_add_class(struct mstat_snap *s, char **f, int n, int line)
{
	struct mstat_class *c = &s->cls[s->ncls];
	bool large = !strcmp(f[1], "large");

	if (s->ncls && s->cls[s->ncls - 1].size < 0) {
		mstat_err("%s: line %d: class row after \"large\"", s->path,
			  line);
		return false;
	}
	if (n < 2 + CLS_NR || s->ncls == MSTAT_MAX_ROWS ||
	    strlen(f[1]) >= sizeof(c->name) ||
	    (!large && (!mstat_parse_num(f[1], &c->size) || c->size <= 0)) ||
	    !mstat_parse_nums(f + 2, CLS_NR, c->v)) {
		mstat_err("%s: line %d: malformed class row", s->path, line);
		return false;
	}
	if (large)
		c->size = -1;
	snprintf(c->name, sizeof(c->name), "%s", f[1]);
	s->ncls++;
	return true;
}

/* "order N" and ORD_NR numbers, N counting up from 0. */
static bool mstat_add_order(struct mstat_snap *s, char **f, int n, int line)
{
	long long o;

	if (n < 2 + ORD_NR || !mstat_parse_num(f[1], &o) || o != s->nord ||
	    s->nord == MSTAT_MAX_ROWS ||
	    !mstat_parse_nums(f + 2, ORD_NR, s->ord[s->nord].v)) {
		mstat_err("%s: line %d: malformed order row", s->path, line);
		return false;
	}
	s->nord++;
	return true;
}

static bool mstat_parse_line(struct mstat_snap *s, char *text, int line)
{
	char *f[MSTAT_MAX_FIELDS];
	int n = mstat_split(text, f, MSTAT_MAX_FIELDS);

	if (!n || (n > 0 && f[0][0] == '#'))
		return true;
	if (n > 1 && !strcmp(f[0], "class"))
		return mstat_add_class(s, f, n, line);
	if (n > 1 && !strcmp(f[0], "order"))
		return mstat_add_order(s, f, n, line);
	if (n == 2)
		return mstat_add_counter(s, f, line);
	/* A later minor may add lines of other shapes. */
	if (s->minor > 0)
		return true;
	mstat_err("%s: line %d: malformed line", s->path, line);
	return false;
}

static bool mstat_need(const struct mstat_snap *s, const char *name)
{
	if (mstat_find(s, name))
		return true;
	mstat_err("%s: truncated or incomplete: no \"%s\" line", s->path,
		  name);
	return false;
}

static bool mstat_need_lines(const struct mstat_snap *s)
{
	static const char *const misc[] = {
		"generation", "snapshot_wait_ns", "snapshot_waited_cpus",
		"page_live_pages", "gfp_sleep_allocs", "gfp_atomic_allocs",
	};
	char name[64];
	size_t i, j;

	for (i = 0; i < ARRAY_SIZE(misc); i++)
		if (!mstat_need(s, misc[i]))
			return false;
	for (i = 0; i < MSTAT_NR_SRC; i++) {
		for (j = 0; j < SRC_NR; j++) {
			snprintf(name, sizeof(name), "%s_%s",
				 mstat_src_names[i], mstat_src_fields[j]);
			if (!mstat_need(s, name))
				return false;
		}
	}
	for (i = 0; i < ARRAY_SIZE(mstat_slab_fields); i++) {
		snprintf(name, sizeof(name), "slab_%s", mstat_slab_fields[i]);
		if (!mstat_need(s, name))
			return false;
	}
	for (i = 0; i < MSTAT_NR_CTX * 2; i++) {
		snprintf(name, sizeof(name), "ctx_%s_%s", mstat_ctx_names[i / 2],
			 i % 2 ? "frees" : "allocs");
		if (!mstat_need(s, name))
			return false;
	}
	return true;
}

/* A truncated file loses its tail: the tables come last. */
static bool mstat_check_complete(struct mstat_snap *s)
{
	int i, j;

	if (!mstat_need_lines(s))
		return false;
	if (s->ncls < MSTAT_NR_CLASSES || s->cls[s->ncls - 1].size >= 0) {
		mstat_err("%s: truncated or incomplete: %d size-class rows, want %d ending in \"large\"",
			  s->path, s->ncls, MSTAT_NR_CLASSES);
		return false;
	}
	if (s->nord < MSTAT_NR_ORDERS) {
		mstat_err("%s: truncated or incomplete: %d page-order rows, want %d",
			  s->path, s->nord, MSTAT_NR_ORDERS);
		return false;
	}
	for (i = 0; i < MSTAT_NR_SRC; i++) {
		for (j = 0; j < SRC_NR; j++) {
			char name[64];

			snprintf(name, sizeof(name), "%s_%s",
				 mstat_src_names[i], mstat_src_fields[j]);
			s->src[i][j] = mstat_get(s, name);
		}
	}
	s->gen = mstat_get(s, "generation");
	return true;
}

static void mstat_snap_free(struct mstat_snap *s)
{
	if (s)
		free(s->ctr);
	free(s);
}

/**
 * mstat_snap_read() - read and parse /proc/mstat or a copy of it
 * @path: the file
 *
 * Return: the snapshot (mstat_snap_free() it) or NULL after an error
 * message.
 */
static struct mstat_snap *mstat_snap_read(const char *path)
{
	struct mstat_snap *s = mstat_alloc(NULL, sizeof(*s));
	char *buf, *pos, *line;
	bool ok;
	int n = 1;

	memset(s, 0, sizeof(*s));
	s->path = path;
	buf = mstat_slurp(path, &s->when);
	if (!buf) {
		mstat_snap_free(s);
		return NULL;
	}
	pos = buf;
	line = mstat_next_line(&pos);
	ok = mstat_check_version(path, line, MSTAT_HEAD, s->version, &s->minor);
	s->major = MSTAT_MAJOR;
	while (ok && (line = mstat_next_line(&pos)))
		ok = mstat_parse_line(s, line, ++n);
	ok = ok && mstat_check_complete(s);
	free(buf);
	if (!ok) {
		mstat_snap_free(s);
		return NULL;
	}
	return s;
}

/* Numbers for people */

/* "1,234,567" */
static const char *mstat_count(char *buf, long long v)
{
	unsigned long long u = v < 0 ? -(unsigned long long)v : (unsigned long long)v;
	char tmp[24];
	int n = snprintf(tmp, sizeof(tmp), "%llu", u), i, o = 0;

	if (v < 0)
		buf[o++] = '-';
	for (i = 0; i < n; i++) {
		if (i && (n - i) % 3 == 0)
			buf[o++] = ',';
		buf[o++] = tmp[i];
	}
	buf[o] = '\0';
	return buf;
}

/* "512 B", "3.2 KiB", "21.1 MiB" */
static const char *mstat_bytes(char *buf, double v)
{
	static const char *const unit[] = { "KiB", "MiB", "GiB", "TiB", "PiB" };
	int u = -1;

	if (v > -1024 && v < 1024) {
		snprintf(buf, 32, "%.0f B", v);
		return buf;
	}
	while ((v <= -1024 || v >= 1024) && u < (int)ARRAY_SIZE(unit) - 1) {
		v /= 1024;
		u++;
	}
	snprintf(buf, 32, "%.1f %s", v, unit[u]);
	return buf;
}

/* A size class: "96 B", "1 KiB", "large" */
static const char *mstat_class_label(char *buf, const struct mstat_class *c)
{
	if (c->size < 0)
		snprintf(buf, 32, "large");
	else if (c->size % 1024 == 0)
		snprintf(buf, 32, "%lld KiB", c->size / 1024);
	else
		snprintf(buf, 32, "%lld B", c->size);
	return buf;
}

/* A rate: one decimal below 100, else a rounded count. */
static const char *mstat_rate(char *buf, double r)
{
	if (r > -100 && r < 100) {
		snprintf(buf, 32, "%.1f", r);
		return buf;
	}
	return mstat_count(buf, (long long)(r < 0 ? r - 0.5 : r + 0.5));
}

/* mstat: the snapshot, readable */

static void mstat_show_sources(const struct mstat_snap *s)
{
	char b[7][32];
	int i;

	printf("%-8s %3s %14s %14s %9s %14s %11s %11s %11s\n", "source",
	       "on", "allocs", "frees", "failures", "live objects",
	       "live bytes", "allocated", "requested");
	for (i = 0; i < MSTAT_NR_SRC; i++) {
		const long long *v = s->src[i];

		printf("%-8s %3lld %14s %14s %9s %14s %11s %11s %11s\n",
		       mstat_src_names[i], v[SRC_ENABLED],
		       mstat_count(b[0], v[SRC_ALLOCS]),
		       mstat_count(b[1], v[SRC_FREES]),
		       mstat_count(b[2], v[SRC_FAILURES]),
		       mstat_count(b[3], v[SRC_LIVE_OBJ]),
		       mstat_bytes(b[4], v[SRC_LIVE_BYTES]),
		       mstat_bytes(b[5], v[SRC_BYTES_ALLOC]),
		       mstat_bytes(b[6], v[SRC_BYTES_REQ]));
	}
	printf("%-8s %3s %14s %14s %9s %14s %11s %11s %11s\n", "slab", "-",
	       mstat_count(b[0], mstat_get(s, "slab_allocs")),
	       mstat_count(b[1], mstat_get(s, "slab_frees")), "-",
	       mstat_count(b[3], mstat_get(s, "slab_live_objects")),
	       mstat_bytes(b[4], mstat_get(s, "slab_live_bytes")),
	       mstat_bytes(b[5], mstat_get(s, "slab_bytes_allocated")),
	       mstat_bytes(b[6], mstat_get(s, "slab_bytes_requested")));
}

static void mstat_show_misc(const struct mstat_snap *s)
{
	char b[3][32], name[64];
	int i;

	printf("\nlive pages %s (%s); slab fragmentation %s (cumulative)\n",
	       mstat_count(b[0], mstat_get(s, "page_live_pages")),
	       mstat_bytes(b[1], mstat_get(s, "page_live_bytes")),
	       mstat_bytes(b[2], mstat_get(s, "slab_frag_bytes")));
	printf("gfp: %s may sleep, %s atomic\n\n",
	       mstat_count(b[0], mstat_get(s, "gfp_sleep_allocs")),
	       mstat_count(b[1], mstat_get(s, "gfp_atomic_allocs")));
	printf("%-8s %14s %14s\n", "context", "allocs", "frees");
	for (i = 0; i < MSTAT_NR_CTX; i++) {
		snprintf(name, sizeof(name), "ctx_%s_allocs", mstat_ctx_names[i]);
		mstat_count(b[0], mstat_get(s, name));
		snprintf(name, sizeof(name), "ctx_%s_frees", mstat_ctx_names[i]);
		printf("%-8s %14s %14s\n", mstat_ctx_names[i], b[0],
		       mstat_count(b[1], mstat_get(s, name)));
	}
}

static void mstat_show_classes(const struct mstat_snap *s)
{
	char b[9][32];
	int i;

	printf("\n%-8s %14s %14s %14s %11s %11s %11s %11s %11s\n", "class",
	       "allocs", "frees", "live objects", "live bytes", "requested",
	       "allocated", "frag", "frag live~");
	for (i = 0; i < s->ncls; i++) {
		const long long *v = s->cls[i].v;

		printf("%-8s %14s %14s %14s %11s %11s %11s %11s %11s\n",
		       mstat_class_label(b[0], &s->cls[i]),
		       mstat_count(b[1], v[CLS_ALLOCS]),
		       mstat_count(b[2], v[CLS_FREES]),
		       mstat_count(b[3], v[CLS_LIVE_OBJ]),
		       mstat_bytes(b[4], v[CLS_LIVE_BYTES]),
		       mstat_bytes(b[5], v[CLS_BYTES_REQ]),
		       mstat_bytes(b[6], v[CLS_BYTES_ALLOC]),
		       mstat_bytes(b[7], v[CLS_FRAG]),
		       mstat_bytes(b[8], v[CLS_FRAG_LIVE_EST]));
	}
}

static void mstat_show_orders(const struct mstat_snap *s)
{
	char b[4][32];
	int i;

	printf("\n%-8s %14s %14s %9s %14s\n", "order", "allocs", "frees",
	       "failures", "live pages");
	for (i = 0; i < s->nord; i++) {
		const long long *v = s->ord[i].v;

		printf("%-8d %14s %14s %9s %14s\n", i,
		       mstat_count(b[0], v[ORD_ALLOCS]),
		       mstat_count(b[1], v[ORD_FREES]),
		       mstat_count(b[2], v[ORD_FAILURES]),
		       mstat_count(b[3], v[ORD_LIVE_PAGES]));
	}
}

static void mstat_show(const struct mstat_snap *s)
{
	char b[3][32];

	printf("mstat %s  generation %s  (snapshot waited %s ns for %s CPUs)\n\n",
	       s->version, mstat_count(b[0], s->gen),
	       mstat_count(b[1], mstat_get(s, "snapshot_wait_ns")),
	       mstat_count(b[2], mstat_get(s, "snapshot_waited_cpus")));
	mstat_show_sources(s);
	mstat_show_misc(s);
	mstat_show_classes(s);
	mstat_show_orders(s);
}

/* mstat --json */

static void mstat_json_fields(const char *const *names, const long long *v,
			      int n)
{
	int i;

	for (i = 0; i < n; i++)
		printf("%s\"%s\": %lld", i ? ", " : "", names[i], v[i]);
}

static void mstat_json_counters(const struct mstat_snap *s)
{
	size_t i;

	printf("  \"counters\": {\n");
	for (i = 0; i < s->nctr; i++)
		printf("    \"%s\": %lld%s\n", s->ctr[i].name, s->ctr[i].val,
		       i + 1 < s->nctr ? "," : "");
	printf("  },\n");
}

static void mstat_json_sources(const struct mstat_snap *s)
{
	int i;

	printf("  \"sources\": {\n");
	for (i = 0; i < MSTAT_NR_SRC; i++) {
		printf("    \"%s\": {", mstat_src_names[i]);
		mstat_json_fields(mstat_src_fields, s->src[i], SRC_NR);
		printf("}%s\n", i + 1 < MSTAT_NR_SRC ? "," : "");
	}
	printf("  },\n");
}

static void mstat_json_tables(const struct mstat_snap *s)
{
	int i;

	printf("  \"classes\": [\n");
	for (i = 0; i < s->ncls; i++) {
		const struct mstat_class *c = &s->cls[i];

		if (c->size < 0)
			printf("    {\"class\": \"large\", \"size\": null, ");
		else
			printf("    {\"class\": \"%s\", \"size\": %lld, ",
			       c->name, c->size);
		mstat_json_fields(mstat_cls_fields, c->v, CLS_NR);
		printf("}%s\n", i + 1 < s->ncls ? "," : "");
	}
	printf("  ],\n  \"orders\": [\n");
	for (i = 0; i < s->nord; i++) {
		printf("    {\"order\": %d, ", i);
		mstat_json_fields(mstat_ord_fields, s->ord[i].v, ORD_NR);
		printf("}%s\n", i + 1 < s->nord ? "," : "");
	}
	printf("  ]\n");
}

static void mstat_json(const struct mstat_snap *s)
{
	printf("{\n  \"version\": \"%s\",\n  \"generation\": %lld,\n",
	       s->version, s->gen);
	mstat_json_counters(s);
	mstat_json_sources(s);
	mstat_json_tables(s);
	printf("}\n");
}

/* mstat prom */

static void mstat_prom_head(FILE *f, const char *name, const char *type,
			    const char *help)
{
	fprintf(f, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

/* One metric with a source="..." label per source. */
static void mstat_prom_by_source(FILE *f, const struct mstat_snap *s,
				 const char *name, const char *type, int field,
				 const char *help)
{
	int i;

	mstat_prom_head(f, name, type, help);
	for (i = 0; i < MSTAT_NR_SRC; i++)
		fprintf(f, "%s{source=\"%s\"} %lld\n", name,
			mstat_src_names[i], s->src[i][field]);
}

static void mstat_prom_sources(FILE *f, const struct mstat_snap *s)
{
	static const struct {
		const char *name, *type;
		int field;
		const char *help;
	} m[] = {
		{ "mstat_allocs_total", "counter", SRC_ALLOCS,
		  "Successful allocations." },
		{ "mstat_frees_total", "counter", SRC_FREES,
		  "Frees." },
		{ "mstat_failures_total", "counter", SRC_FAILURES,
		  "Allocations that returned NULL." },
		{ "mstat_requested_bytes_total", "counter", SRC_BYTES_REQ,
		  "Bytes callers asked for." },
		{ "mstat_allocated_bytes_total", "counter", SRC_BYTES_ALLOC,
		  "Bytes the allocated objects occupy." },
		{ "mstat_freed_bytes_total", "counter", SRC_BYTES_FREED,
		  "Bytes freed objects occupied." },
		{ "mstat_live_objects", "gauge", SRC_LIVE_OBJ,
		  "Allocations minus frees since load (may be negative)." },
		{ "mstat_live_bytes", "gauge", SRC_LIVE_BYTES,
		  "Allocated minus freed bytes since load (may be negative)." },
		{ "mstat_source_enabled", "gauge", SRC_ENABLED,
		  "1 if the source is counted now." },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(m); i++)
		mstat_prom_by_source(f, s, m[i].name, m[i].type, m[i].field,
				     m[i].help);
}

static void mstat_prom_classes(FILE *f, const struct mstat_snap *s)
{
	static const struct {
		const char *name, *type;
		int field;
		const char *help;
	} m[] = {
		{ "mstat_class_allocs_total", "counter", CLS_ALLOCS,
		  "Allocations by kmalloc size class." },
		{ "mstat_class_frees_total", "counter", CLS_FREES,
		  "Frees by size class." },
		{ "mstat_class_requested_bytes_total", "counter", CLS_BYTES_REQ,
		  "Bytes requested by size class." },
		{ "mstat_class_allocated_bytes_total", "counter", CLS_BYTES_ALLOC,
		  "Bytes allocated by size class." },
		{ "mstat_class_freed_bytes_total", "counter", CLS_BYTES_FREED,
		  "Bytes freed by size class." },
		{ "mstat_class_frag_bytes_total", "counter", CLS_FRAG,
		  "Internal fragmentation (allocated - requested) by size class." },
		{ "mstat_class_live_objects", "gauge", CLS_LIVE_OBJ,
		  "Live objects by size class (net since load)." },
		{ "mstat_class_live_bytes", "gauge", CLS_LIVE_BYTES,
		  "Live bytes by size class (net since load)." },
		{ "mstat_class_frag_live_bytes", "gauge", CLS_FRAG_LIVE_EST,
		  "Estimated fragmentation of the live objects by size class." },
	};
	size_t i;
	int j;

	for (i = 0; i < ARRAY_SIZE(m); i++) {
		mstat_prom_head(f, m[i].name, m[i].type, m[i].help);
		for (j = 0; j < s->ncls; j++)
			fprintf(f, "%s{class=\"%s\"} %lld\n", m[i].name,
				s->cls[j].name, s->cls[j].v[m[i].field]);
	}
}

static void mstat_prom_orders(FILE *f, const struct mstat_snap *s)
{
	static const struct {
		const char *name, *type;
		int field;
		const char *help;
	} m[] = {
		{ "mstat_page_order_allocs_total", "counter", ORD_ALLOCS,
		  "Page allocations by order." },
		{ "mstat_page_order_frees_total", "counter", ORD_FREES,
		  "Page frees by order." },
		{ "mstat_page_order_failures_total", "counter", ORD_FAILURES,
		  "Failed page allocations by order." },
		{ "mstat_page_order_live_pages", "gauge", ORD_LIVE_PAGES,
		  "Live pages by order (net since load)." },
	};
	size_t i;
	int j;

	for (i = 0; i < ARRAY_SIZE(m); i++) {
		mstat_prom_head(f, m[i].name, m[i].type, m[i].help);
		for (j = 0; j < s->nord; j++)
			fprintf(f, "%s{order=\"%d\"} %lld\n", m[i].name, j,
				s->ord[j].v[m[i].field]);
	}
}

static void mstat_prom_misc(FILE *f, const struct mstat_snap *s)
{
	char name[64];
	int i;

	mstat_prom_head(f, "mstat_context_allocs_total", "counter",
			"Allocations by the context they ran in.");
	for (i = 0; i < MSTAT_NR_CTX; i++) {
		snprintf(name, sizeof(name), "ctx_%s_allocs", mstat_ctx_names[i]);
		fprintf(f, "mstat_context_allocs_total{context=\"%s\"} %lld\n",
			mstat_ctx_names[i], mstat_get(s, name));
	}
	mstat_prom_head(f, "mstat_context_frees_total", "counter",
			"Frees by the context they ran in.");
	for (i = 0; i < MSTAT_NR_CTX; i++) {
		snprintf(name, sizeof(name), "ctx_%s_frees", mstat_ctx_names[i]);
		fprintf(f, "mstat_context_frees_total{context=\"%s\"} %lld\n",
			mstat_ctx_names[i], mstat_get(s, name));
	}
	mstat_prom_head(f, "mstat_gfp_allocs_total", "counter",
			"Allocations whose GFP flags may (sleep) or may not (atomic) sleep.");
	fprintf(f, "mstat_gfp_allocs_total{gfp=\"sleep\"} %lld\n",
		mstat_get(s, "gfp_sleep_allocs"));
	fprintf(f, "mstat_gfp_allocs_total{gfp=\"atomic\"} %lld\n",
		mstat_get(s, "gfp_atomic_allocs"));
	mstat_prom_head(f, "mstat_slab_frag_bytes_total", "counter",
			"Slab internal fragmentation (allocated - requested bytes), cumulative.");
	fprintf(f, "mstat_slab_frag_bytes_total %lld\n",
		mstat_get(s, "slab_frag_bytes"));
	mstat_prom_head(f, "mstat_page_live_pages", "gauge",
			"Pages allocated minus freed since load, all orders.");
	fprintf(f, "mstat_page_live_pages %lld\n",
		mstat_get(s, "page_live_pages"));
}

static void mstat_prom_snapshot(FILE *f, const struct mstat_snap *s)
{
	mstat_prom_head(f, "mstat_generation", "gauge",
			"Number of the snapshot these values come from.");
	fprintf(f, "mstat_generation %lld\n", s->gen);
	mstat_prom_head(f, "mstat_snapshot_wait_seconds", "gauge",
			"How long the snapshot waited for open write sections.");
	fprintf(f, "mstat_snapshot_wait_seconds %.9f\n",
		mstat_get(s, "snapshot_wait_ns") / 1e9);
	mstat_prom_head(f, "mstat_snapshot_waited_cpus", "gauge",
			"How many CPUs the snapshot waited on.");
	fprintf(f, "mstat_snapshot_waited_cpus %lld\n",
		mstat_get(s, "snapshot_waited_cpus"));
	mstat_prom_head(f, "mstat_info", "gauge",
			"Format version of /proc/mstat; always 1.");
	fprintf(f, "mstat_info{version=\"%s\"} 1\n", s->version);
}

static void mstat_prom(FILE *f, const struct mstat_snap *s)
{
	mstat_prom_sources(f, s);
	mstat_prom_misc(f, s);
	mstat_prom_classes(f, s);
	mstat_prom_orders(f, s);
	mstat_prom_snapshot(f, s);
}

/* Output files: written beside the target and renamed over it. */

static FILE *mstat_out_open(const char *path, char *tmp, size_t len)
{
	FILE *f;

	if (!path)
		return stdout;
	snprintf(tmp, len, "%s.tmp.%ld", path, (long)getpid());
	f = fopen(tmp, "wb");
	if (!f)
		mstat_err("%s: %s", tmp, strerror(errno));
	return f;
}

static int mstat_out_close(FILE *f, const char *path, const char *tmp)
{
	bool bad = fflush(f) || ferror(f);

	if (f == stdout) {
		if (bad)
			mstat_err("write error on standard output");
		return bad ? EXIT_INPUT : 0;
	}
	bad |= fclose(f) != 0;
	if (!bad && rename(tmp, path)) {
		mstat_err("%s: %s", path, strerror(errno));
		unlink(tmp);
		return EXIT_INPUT;
	}
	if (bad) {
		mstat_err("%s: write error", tmp);
		unlink(tmp);
		return EXIT_INPUT;
	}
	return 0;
}

/* mstat top */

struct mstat_rate {
	char name[32];
	int idx;			/* display order on ties */
	double allocs, frees, bytes;
	long long live_obj, live_bytes;
};

static int mstat_rate_cmp(const void *a, const void *b)
{
	const struct mstat_rate *x = a, *y = b;

	if (x->allocs != y->allocs)
		return x->allocs < y->allocs ? 1 : -1;
	return x->idx - y->idx;
}

static double mstat_elapsed(const struct timespec *a, const struct timespec *b)
{
	return (b->tv_sec - a->tv_sec) + (b->tv_nsec - a->tv_nsec) / 1e9;
}

/* Counters that went back: the module was reloaded or reset. */
static bool mstat_went_back(const struct mstat_snap *a,
			    const struct mstat_snap *b)
{
	int i;

	if (b->gen < a->gen || b->ncls != a->ncls)
		return true;
	for (i = 0; i < MSTAT_NR_SRC; i++)
		if (b->src[i][SRC_ALLOCS] < a->src[i][SRC_ALLOCS] ||
		    b->src[i][SRC_FREES] < a->src[i][SRC_FREES])
			return true;
	return false;
}

static void mstat_top_row(const struct mstat_rate *r)
{
	char b[5][32];

	printf("%-8s %12s %12s %12s/s %14s %11s\n", r->name,
	       mstat_rate(b[0], r->allocs), mstat_rate(b[1], r->frees),
	       mstat_bytes(b[2], r->bytes), mstat_count(b[3], r->live_obj),
	       mstat_bytes(b[4], r->live_bytes));
}

static void mstat_top_sources(const struct mstat_snap *a,
			      const struct mstat_snap *b, double dt)
{
	struct mstat_rate r[MSTAT_NR_SRC];
	int i;

	for (i = 0; i < MSTAT_NR_SRC; i++) {
		const long long *x = a->src[i], *y = b->src[i];

		snprintf(r[i].name, sizeof(r[i].name), "%s", mstat_src_names[i]);
		r[i].idx = i;
		r[i].allocs = (y[SRC_ALLOCS] - x[SRC_ALLOCS]) / dt;
		r[i].frees = (y[SRC_FREES] - x[SRC_FREES]) / dt;
		r[i].bytes = (y[SRC_BYTES_ALLOC] - x[SRC_BYTES_ALLOC]) / dt;
		r[i].live_obj = y[SRC_LIVE_OBJ];
		r[i].live_bytes = y[SRC_LIVE_BYTES];
	}
	qsort(r, MSTAT_NR_SRC, sizeof(r[0]), mstat_rate_cmp);
	printf("%-8s %12s %12s %14s %14s %11s\n", "source", "allocs/s",
	       "frees/s", "alloc bytes/s", "live objects", "live bytes");
	for (i = 0; i < MSTAT_NR_SRC; i++)
		mstat_top_row(&r[i]);
}

static void mstat_top_classes(const struct mstat_snap *a,
			      const struct mstat_snap *b, double dt)
{
	struct mstat_rate r[MSTAT_MAX_ROWS];
	int i;

	for (i = 0; i < b->ncls; i++) {
		const long long *x = a->cls[i].v, *y = b->cls[i].v;

		mstat_class_label(r[i].name, &b->cls[i]);
		r[i].idx = i;
		r[i].allocs = (y[CLS_ALLOCS] - x[CLS_ALLOCS]) / dt;
		r[i].frees = (y[CLS_FREES] - x[CLS_FREES]) / dt;
		r[i].bytes = (y[CLS_BYTES_ALLOC] - x[CLS_BYTES_ALLOC]) / dt;
		r[i].live_obj = y[CLS_LIVE_OBJ];
		r[i].live_bytes = y[CLS_LIVE_BYTES];
	}
	qsort(r, b->ncls, sizeof(r[0]), mstat_rate_cmp);
	printf("\n%-8s %12s %12s %14s %14s %11s\n", "class", "allocs/s",
	       "frees/s", "alloc bytes/s", "live objects", "live bytes");
	for (i = 0; i < b->ncls; i++)
		mstat_top_row(&r[i]);
}

static void mstat_top_orders(const struct mstat_snap *a,
			     const struct mstat_snap *b, double dt)
{
	char c[4][32];
	int i;

	printf("\n%-8s %12s %12s %12s %14s\n", "order", "allocs/s", "frees/s",
	       "failures/s", "live pages");
	for (i = 0; i < b->nord && i < a->nord; i++) {
		const long long *x = a->ord[i].v, *y = b->ord[i].v;

		printf("%-8d %12s %12s %12s %14s\n", i,
		       mstat_rate(c[0], (y[ORD_ALLOCS] - x[ORD_ALLOCS]) / dt),
		       mstat_rate(c[1], (y[ORD_FREES] - x[ORD_FREES]) / dt),
		       mstat_rate(c[2], (y[ORD_FAILURES] - x[ORD_FAILURES]) / dt),
		       mstat_count(c[3], y[ORD_LIVE_PAGES]));
	}
}

static void mstat_top_frame(const struct mstat_snap *a,
			    const struct mstat_snap *b, bool tty)
{
	double dt = mstat_elapsed(&a->when, &b->when);
	char clock[16] = "", g[32];
	time_t now = time(NULL);
	struct tm tm;

	if (localtime_r(&now, &tm))
		strftime(clock, sizeof(clock), "%H:%M:%S", &tm);
	printf("%smstat top - %s  generation %s (+%lld)  interval %.2f s\n\n",
	       tty ? "\033[H\033[2J" : "", clock, mstat_count(g, b->gen),
	       b->gen - a->gen, dt);
	if (mstat_went_back(a, b) || dt <= 0) {
		printf("counters went back (module reloaded or reset): %s\n",
		       "rates from the next frame");
		return;
	}
	mstat_top_sources(a, b, dt);
	mstat_top_classes(a, b, dt);
	mstat_top_orders(a, b, dt);
}

static void mstat_sleep(double secs)
{
	struct timespec ts = {
		.tv_sec = (time_t)secs,
		.tv_nsec = (long)((secs - (time_t)secs) * 1e9),
	};

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* Frame k compares snapshot k with k + 1; file k + 1, the last repeating. */
static int mstat_top(const struct mstat_opts *o)
{
	bool tty = isatty(STDOUT_FILENO);
	struct mstat_snap *a, *b;
	long k;

	a = mstat_snap_read(o->file[0]);
	if (!a)
		return EXIT_INPUT;
	for (k = 0; !o->iters || k < o->iters; k++) {
		mstat_sleep(o->delay);
		b = mstat_snap_read(o->file[k + 1 < o->nfile ? k + 1 : o->nfile - 1]);
		if (!b) {
			mstat_snap_free(a);
			return EXIT_INPUT;
		}
		if (k && !tty)
			putchar('\n');
		mstat_top_frame(a, b, tty);
		if (fflush(stdout)) {
			mstat_snap_free(a);
			mstat_snap_free(b);
			mstat_err("write error on standard output");
			return EXIT_INPUT;
		}
		mstat_snap_free(a);
		a = b;
	}
	mstat_snap_free(a);
	return 0;
}

/* /proc/mstat_sites */

/* "func+0x5e/0xc0 [mod]": func, and mod or NULL. */
static void mstat_site_split(struct mstat_site *st)
{
	const char *t = st->text, *sp = strchr(t, ' ');
	size_t n = strcspn(t, "+ ");

	st->func = mstat_strdup(t, n);
	st->module = NULL;
	if (sp && sp[1] == '[' && sp[strlen(sp) - 1] == ']')
		st->module = mstat_strdup(sp + 2, strlen(sp) - 3);
}

/* "# snapshot N sample_rate R sites N ...": known keys, others skipped. */
static bool mstat_sites_header(struct mstat_sites *ss, char *line)
{
	struct { const char *key; long long *v; bool seen; } k[] = {
		{ "snapshot", &ss->snapshot, false },
		{ "sample_rate", &ss->rate, false },
		{ "sites", &ss->nsites, false },
		{ "site_drops", &ss->site_drops, false },
		{ "addr_drops", &ss->addr_drops, false },
		{ "addr_live", &ss->addr_live, false },
	};
	char *f[MSTAT_MAX_FIELDS];
	int n = mstat_split(line, f, MSTAT_MAX_FIELDS), i;
	size_t j;

	if (n < 1 || strcmp(f[0], "#") || n % 2 == 0)
		return false;
	for (i = 1; i < n; i += 2)
		for (j = 0; j < ARRAY_SIZE(k); j++)
			if (!strcmp(f[i], k[j].key))
				k[j].seen = mstat_parse_num(f[i + 1], k[j].v);
	return k[0].seen && k[1].seen && k[2].seen && ss->nsites >= 0;
}

/* Eight numbers, then the site, which may hold a blank: "f+0x1/0x2 [m]". */
static bool mstat_sites_row(struct mstat_sites *ss, char *line)
{
	struct mstat_site *st;
	long long v[8];
	char *f[8];
	int i;

	for (i = 0; i < 8; i++) {
		line += strspn(line, " ");
		f[i] = line;
		line += strcspn(line, " ");
		if (!*line)
			return false;
		*line++ = '\0';
	}
	line += strspn(line, " ");
	if (!*line || !mstat_parse_nums(f, 8, v))
		return false;
	if (ss->n == ss->cap) {
		ss->cap = ss->cap ? ss->cap * 2 : 256;
		ss->site = mstat_alloc(ss->site, ss->cap * sizeof(*ss->site));
	}
	st = &ss->site[ss->n++];
	memcpy(&st->est_bytes, v, sizeof(v));
	st->text = mstat_strdup(line, strlen(line));
	mstat_site_split(st);
	return true;
}

static void mstat_sites_free(struct mstat_sites *ss)
{
	size_t i;

	if (!ss)
		return;
	for (i = 0; i < ss->n; i++) {
		free(ss->site[i].text);
		free(ss->site[i].func);
		free(ss->site[i].module);
	}
	free(ss->site);
	free(ss);
}

static bool mstat_sites_parse(struct mstat_sites *ss, char *pos)
{
	char *line = mstat_next_line(&pos);
	bool head = false;
	int minor, n = 1;

	if (!mstat_check_version(ss->path, line, MSTAT_SITES_HEAD,
				 ss->version, &minor))
		return false;
	while ((line = mstat_next_line(&pos))) {
		n++;
		if (!head && line[0] == '#') {
			head = mstat_sites_header(ss, line);
			continue;
		}
		if (line[0] == '#')
			continue;
		if (!head || !mstat_sites_row(ss, line)) {
			mstat_err("%s: line %d: malformed %s", ss->path, n,
				  head ? "site row" : "header");
			return false;
		}
	}
	if (!head || (long long)ss->n != ss->nsites) {
		mstat_err("%s: truncated or incomplete: %zu site rows, header says %lld",
			  ss->path, ss->n, head ? ss->nsites : -1LL);
		return false;
	}
	return true;
}

/**
 * mstat_sites_read() - read and parse /proc/mstat_sites or a copy of it
 * @path: the file
 *
 * Return: the sites (mstat_sites_free() them) or NULL after an error
 * message.
 */
static struct mstat_sites *mstat_sites_read(const char *path)
{
	struct mstat_sites *ss = mstat_alloc(NULL, sizeof(*ss));
	char *buf;
	bool ok;

	memset(ss, 0, sizeof(*ss));
	ss->path = path;
	buf = mstat_slurp(path, NULL);
	ok = buf && mstat_sites_parse(ss, buf);
	free(buf);
	if (!ok) {
		mstat_sites_free(ss);
		return NULL;
	}
	return ss;
}

/* Protocol buffers, by hand */

struct mstat_buf {
	unsigned char *p;
	size_t len, cap;
};

enum { PB_VARINT = 0, PB_LEN = 2 };

static void mstat_buf_put(struct mstat_buf *b, const void *d, size_t n)
{
	if (b->len + n > b->cap) {
		b->cap = (b->len + n) * 2 + 64;
		b->p = mstat_alloc(b->p, b->cap);
	}
	memcpy(b->p + b->len, d, n);
	b->len += n;
}

static void pb_varint(struct mstat_buf *b, uint64_t v)
{
	unsigned char c[10];
	int n = 0;

	do {
		c[n] = v & 0x7f;
		v >>= 7;
		if (v)
			c[n] |= 0x80;
		n++;
	} while (v);
	mstat_buf_put(b, c, n);
}

static void pb_key(struct mstat_buf *b, unsigned int field, unsigned int wt)
{
	pb_varint(b, (uint64_t)field << 3 | wt);
}

/* int64, uint64 and bool: proto3 leaves zeros out. */
static void pb_int(struct mstat_buf *b, unsigned int field, int64_t v)
{
	if (!v)
		return;
	pb_key(b, field, PB_VARINT);
	pb_varint(b, (uint64_t)v);	/* negative: ten bytes */
}

static void pb_bytes(struct mstat_buf *b, unsigned int field, const void *d,
		     size_t n)
{
	pb_key(b, field, PB_LEN);
	pb_varint(b, n);
	mstat_buf_put(b, d, n);
}

/* Append message @m as field @field and empty @m for the next one. */
static void pb_msg(struct mstat_buf *b, unsigned int field,
		   struct mstat_buf *m)
{
	pb_bytes(b, field, m->p, m->len);
	m->len = 0;
}

static void pb_packed(struct mstat_buf *b, unsigned int field,
		      const int64_t *v, size_t n, struct mstat_buf *tmp)
{
	size_t i;

	tmp->len = 0;
	for (i = 0; i < n; i++)
		pb_varint(tmp, (uint64_t)v[i]);
	pb_msg(b, field, tmp);
}

/* The string table: "" first, each string once (FNV-1a open hashing). */
struct mstat_strtab {
	char **str;
	size_t n, cap;
	size_t *slot;		/* index + 1; 0: empty */
	size_t nslot;
};

static uint32_t mstat_fnv(const char *s)
{
	uint32_t h = 2166136261u;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h;
}

static void mstat_strtab_grow(struct mstat_strtab *t)
{
	size_t i, h;

	free(t->slot);
	t->nslot = t->nslot ? t->nslot * 2 : 1024;
	t->slot = mstat_alloc(NULL, t->nslot * sizeof(*t->slot));
	memset(t->slot, 0, t->nslot * sizeof(*t->slot));
	for (i = 0; i < t->n; i++) {
		for (h = mstat_fnv(t->str[i]) % t->nslot; t->slot[h];
		     h = (h + 1) % t->nslot)
			;
		t->slot[h] = i + 1;
	}
}

static int64_t mstat_str(struct mstat_strtab *t, const char *s)
{
	size_t h;

	if (2 * (t->n + 1) > t->nslot)
		mstat_strtab_grow(t);
	for (h = mstat_fnv(s) % t->nslot; t->slot[h]; h = (h + 1) % t->nslot)
		if (!strcmp(t->str[t->slot[h] - 1], s))
			return t->slot[h] - 1;
	if (t->n == t->cap) {
		t->cap = t->cap ? t->cap * 2 : 256;
		t->str = mstat_alloc(t->str, t->cap * sizeof(*t->str));
	}
	t->str[t->n] = mstat_strdup(s, strlen(s));
	t->slot[h] = ++t->n;
	return t->n - 1;
}

static void mstat_strtab_free(struct mstat_strtab *t)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		free(t->str[i]);
	free(t->str);
	free(t->slot);
}

/* gzip of stored deflate blocks (RFC 1951 3.2.4, RFC 1952) */

static uint32_t mstat_crc32(uint32_t crc, const unsigned char *p, size_t n)
{
	static uint32_t tab[256];
	uint32_t c;
	int i, k;

	if (!tab[1]) {
		for (i = 0; i < 256; i++) {
			for (c = i, k = 0; k < 8; k++)
				c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
			tab[i] = c;
		}
	}
	crc = ~crc;
	while (n--)
		crc = tab[(crc ^ *p++) & 0xff] ^ (crc >> 8);
	return ~crc;
}

static void mstat_le32(unsigned char *p, uint32_t v)
{
	p[0] = v;
	p[1] = v >> 8;
	p[2] = v >> 16;
	p[3] = v >> 24;
}

/* Blocks of at most 65535 bytes: BFINAL, BTYPE 00, LEN, ~LEN, the data. */
static void mstat_deflate_stored(struct mstat_buf *z, const unsigned char *p,
				 size_t n)
{
	size_t off = 0;

	do {
		size_t k = n - off > 65535 ? 65535 : n - off;
		unsigned char h[5] = {
			off + k == n, k & 0xff, k >> 8, ~k & 0xff, (~k >> 8) & 0xff,
		};

		mstat_buf_put(z, h, sizeof(h));
		mstat_buf_put(z, p + off, k);
		off += k;
	} while (off < n);
}

static void mstat_gzip(struct mstat_buf *z, const unsigned char *p, size_t n)
{
	/* ID1 ID2 CM=deflate FLG=0 MTIME=0 XFL=0 OS=Unix */
	static const unsigned char head[10] = {
		0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3,
	};
	unsigned char tail[8];

	mstat_buf_put(z, head, sizeof(head));
	mstat_deflate_stored(z, p, n);
	mstat_le32(tail, mstat_crc32(0, p, n));
	mstat_le32(tail + 4, (uint32_t)n);
	mstat_buf_put(z, tail, sizeof(tail));
}

/* mstat pprof */

/* Field numbers of perftools.profiles (profile.proto beside this file). */
enum {
	PROFILE_SAMPLE_TYPE = 1, PROFILE_SAMPLE = 2, PROFILE_MAPPING = 3,
	PROFILE_LOCATION = 4,
	PROFILE_FUNCTION = 5, PROFILE_STRING_TABLE = 6, PROFILE_TIME_NANOS = 9,
	PROFILE_PERIOD_TYPE = 11, PROFILE_PERIOD = 12, PROFILE_COMMENT = 13,
	PROFILE_DEFAULT_SAMPLE_TYPE = 14,
	VALUE_TYPE_TYPE = 1, VALUE_TYPE_UNIT = 2,
	SAMPLE_LOCATION_ID = 1, SAMPLE_VALUE = 2, SAMPLE_LABEL = 3,
	LABEL_KEY = 1, LABEL_NUM = 3, LABEL_NUM_UNIT = 4,
	MAPPING_ID = 1, MAPPING_FILENAME = 5, MAPPING_HAS_FUNCTIONS = 7,
	LOCATION_ID = 1, LOCATION_MAPPING_ID = 2, LOCATION_LINE = 4,
	LINE_FUNCTION_ID = 1,
	FUNCTION_ID = 1, FUNCTION_NAME = 2, FUNCTION_SYSTEM_NAME = 3,
	FUNCTION_FILENAME = 4,
};

struct mstat_pprof {
	struct mstat_buf out, msg, sub;
	struct mstat_strtab strs;
	int64_t *map;		/* filename string of mapping i + 1 */
	size_t nmap;
};

/* 1 - e^-x for x >= 0, without libm: halve, sum the series, square back. */
static double mstat_one_minus_exp_neg(double x)
{
	double e = 1, term = 1;
	int i, k = 0;

	if (x < 0.0001)
		return x - x * x / 2;
	while (x > 0.25 && k < 64) {
		x /= 2;
		k++;
	}
	for (i = 1; i < 16; i++) {
		term *= -x / i;
		e += term;
	}
	while (k--)
		e *= e;
	return 1 - e;
}

/*
 * The ratio by which the kernel scales a site's sampled figures into its
 * est_ columns (mstat_scale() in mstat_profile.c): 1 / (1 - e^(-avg/rate))
 * with avg the site's mean sampled object size.
 */
static double mstat_site_scale(const struct mstat_site *st, long long rate)
{
	double p;

	if (rate <= 1 || st->allocs <= 0)
		return 1;
	p = mstat_one_minus_exp_neg((double)(st->alloc_bytes / st->allocs) /
				    rate);
	return p > 0 ? 1 / p : 1;
}

static void mstat_pprof_value_type(struct mstat_pprof *pp, unsigned int field,
				   const char *type, const char *unit)
{
	pb_int(&pp->sub, VALUE_TYPE_TYPE, mstat_str(&pp->strs, type));
	pb_int(&pp->sub, VALUE_TYPE_UNIT, mstat_str(&pp->strs, unit));
	pb_msg(&pp->out, field, &pp->sub);
}

/*
 * One Mapping per object file, "vmlinux" or a module, marked as having
 * functions already, so that pprof looks for no binary to symbolize with.
 */
static int64_t mstat_pprof_mapping(struct mstat_pprof *pp, const char *file)
{
	int64_t f = mstat_str(&pp->strs, file);
	size_t i;

	for (i = 0; i < pp->nmap; i++)
		if (pp->map[i] == f)
			return i + 1;
	pp->map = mstat_alloc(pp->map, (pp->nmap + 1) * sizeof(*pp->map));
	pp->map[pp->nmap++] = f;
	return pp->nmap;
}

static void mstat_pprof_mappings(struct mstat_pprof *pp)
{
	size_t i;

	for (i = 0; i < pp->nmap; i++) {
		pb_int(&pp->msg, MAPPING_ID, i + 1);
		pb_int(&pp->msg, MAPPING_FILENAME, pp->map[i]);
		pb_int(&pp->msg, MAPPING_HAS_FUNCTIONS, 1);
		pb_msg(&pp->out, PROFILE_MAPPING, &pp->msg);
	}
}

/* Where a site is: its module, the kernel, or unknown (a bare address). */
static const char *mstat_site_file(const struct mstat_site *st)
{
	if (st->module)
		return st->module;
	if (!strncmp(st->func, "0x", 2))
		return "[unknown]";
	return "vmlinux";
}

/* Sample i + 1 at location i + 1, whose one line is in function i + 1. */
static void mstat_pprof_site(struct mstat_pprof *pp, const struct mstat_site *st,
			     size_t i, long long rate)
{
	double r = mstat_site_scale(st, rate);
	int64_t v[4] = {
		(int64_t)(st->allocs * r + 0.5), (int64_t)(st->alloc_bytes * r + 0.5),
		st->est_calls, st->est_bytes,
	};
	const char *file = mstat_site_file(st);
	int64_t loc = i + 1;
	char name[512];

	pb_packed(&pp->msg, SAMPLE_LOCATION_ID, &loc, 1, &pp->sub);
	pb_packed(&pp->msg, SAMPLE_VALUE, v, 4, &pp->sub);
	pb_int(&pp->sub, LABEL_KEY, mstat_str(&pp->strs, "bytes"));
	pb_int(&pp->sub, LABEL_NUM, st->allocs ? st->alloc_bytes / st->allocs : 0);
	pb_int(&pp->sub, LABEL_NUM_UNIT, mstat_str(&pp->strs, "bytes"));
	pb_msg(&pp->msg, SAMPLE_LABEL, &pp->sub);
	pb_msg(&pp->out, PROFILE_SAMPLE, &pp->msg);

	pb_int(&pp->msg, LOCATION_ID, loc);
	pb_int(&pp->msg, LOCATION_MAPPING_ID, mstat_pprof_mapping(pp, file));
	pb_int(&pp->sub, LINE_FUNCTION_ID, loc);
	pb_msg(&pp->msg, LOCATION_LINE, &pp->sub);
	pb_msg(&pp->out, PROFILE_LOCATION, &pp->msg);

	if (st->module)
		snprintf(name, sizeof(name), "%s [%s]", st->func, st->module);
	else
		snprintf(name, sizeof(name), "%s", st->func);
	pb_int(&pp->msg, FUNCTION_ID, loc);
	pb_int(&pp->msg, FUNCTION_NAME, mstat_str(&pp->strs, name));
	pb_int(&pp->msg, FUNCTION_SYSTEM_NAME, mstat_str(&pp->strs, st->text));
	pb_int(&pp->msg, FUNCTION_FILENAME, mstat_str(&pp->strs, file));
	pb_msg(&pp->out, PROFILE_FUNCTION, &pp->msg);
}

/* How the values were made; a comment in every profile. */
static const char mstat_pprof_note[] =
	"inuse_* = est_calls/est_bytes; alloc_* = allocs/alloc_bytes / (1 - exp(-avg/rate))";

static void mstat_pprof_comments(struct mstat_pprof *pp,
				 const struct mstat_sites *ss)
{
	char c[256];

	snprintf(c, sizeof(c),
		 "mstat_sites %s snapshot %lld sample_rate %lld sites %lld site_drops %lld addr_drops %lld addr_live %lld",
		 ss->version, ss->snapshot, ss->rate, ss->nsites,
		 ss->site_drops, ss->addr_drops, ss->addr_live);
	pb_int(&pp->out, PROFILE_COMMENT, mstat_str(&pp->strs, c));
	pb_int(&pp->out, PROFILE_COMMENT, mstat_str(&pp->strs, mstat_pprof_note));
}

/* The encoded Profile, uncompressed, in pp->out. */
static void mstat_pprof_build(struct mstat_pprof *pp,
			      const struct mstat_sites *ss)
{
	struct timespec now;
	size_t i;

	mstat_str(&pp->strs, "");
	mstat_pprof_value_type(pp, PROFILE_SAMPLE_TYPE, "alloc_objects", "count");
	mstat_pprof_value_type(pp, PROFILE_SAMPLE_TYPE, "alloc_space", "bytes");
	mstat_pprof_value_type(pp, PROFILE_SAMPLE_TYPE, "inuse_objects", "count");
	mstat_pprof_value_type(pp, PROFILE_SAMPLE_TYPE, "inuse_space", "bytes");
	for (i = 0; i < ss->n; i++)
		mstat_pprof_site(pp, &ss->site[i], i, ss->rate);
	mstat_pprof_mappings(pp);
	clock_gettime(CLOCK_REALTIME, &now);
	pb_int(&pp->out, PROFILE_TIME_NANOS,
	       (int64_t)now.tv_sec * 1000000000 + now.tv_nsec);
	mstat_pprof_value_type(pp, PROFILE_PERIOD_TYPE, "space", "bytes");
	pb_int(&pp->out, PROFILE_PERIOD, ss->rate);
	mstat_pprof_comments(pp, ss);
	pb_int(&pp->out, PROFILE_DEFAULT_SAMPLE_TYPE,
	       mstat_str(&pp->strs, "inuse_space"));
	/* Last: every string has its index by now. */
	for (i = 0; i < pp->strs.n; i++)
		pb_bytes(&pp->out, PROFILE_STRING_TABLE, pp->strs.str[i],
			 strlen(pp->strs.str[i]));
}

static int mstat_pprof_write(const struct mstat_opts *o, struct mstat_buf *z)
{
	char tmp[4096];
	FILE *f;

	if (!o->out && isatty(STDOUT_FILENO)) {
		mstat_err("not writing a binary profile to a terminal: use -o FILE");
		return EXIT_USAGE;
	}
	f = mstat_out_open(o->out, tmp, sizeof(tmp));
	if (!f)
		return EXIT_INPUT;
	fwrite(z->p, 1, z->len, f);
	return mstat_out_close(f, o->out, tmp);
}

static int mstat_pprof(const struct mstat_opts *o)
{
	struct mstat_sites *ss = mstat_sites_read(o->file[0]);
	struct mstat_pprof pp;
	struct mstat_buf z = { 0 };
	int err;

	if (!ss)
		return EXIT_INPUT;
	memset(&pp, 0, sizeof(pp));
	mstat_pprof_build(&pp, ss);
	mstat_gzip(&z, pp.out.p, pp.out.len);
	err = mstat_pprof_write(o, &z);
	free(z.p);
	free(pp.out.p);
	free(pp.msg.p);
	free(pp.sub.p);
	free(pp.map);
	mstat_strtab_free(&pp.strs);
	mstat_sites_free(ss);
	return err;
}

/* Commands and options */

static void mstat_usage(FILE *f)
{
	fputs("usage: mstat [-f FILE] [--json]          the snapshot in /proc/mstat\n"
	      "       mstat top [-d SECS] [-n ITER] [-f FILE]...\n"
	      "                                         rates per second, like slabtop\n"
	      "       mstat prom [-f FILE] [-o FILE]     Prometheus text format\n"
	      "       mstat pprof [-f FILE] [-o FILE]    /proc/mstat_sites as a pprof profile\n"
	      "\n"
	      "  -f FILE  read FILE instead of /proc/mstat (/proc/mstat_sites for pprof);\n"
	      "           top takes several and reads them in turn, the last repeating\n"
	      "  -d SECS  seconds between snapshots (default 2; decimals allowed)\n"
	      "  -n ITER  print ITER frames and exit (default: until interrupted)\n"
	      "  -o FILE  write FILE (atomically, by rename) instead of standard output\n"
	      "  --json   print the snapshot as one JSON object\n"
	      "\n"
	      "Exit status: 0; 1 on missing, unreadable or bad input; 2 on usage errors.\n",
	      f);
}

static int mstat_bad_usage(const char *what, const char *arg)
{
	mstat_err("%s%s%s (see mstat --help)", what, arg ? " " : "",
		  arg ? arg : "");
	return EXIT_USAGE;
}

static bool mstat_parse_delay(const char *s, double *d)
{
	char *end;

	errno = 0;
	*d = strtod(s, &end);
	return !errno && end != s && !*end && *d > 0 && *d <= 86400;
}

static bool mstat_parse_iters(const char *s, long *n)
{
	char *end;

	if (*s < '1' || *s > '9')
		return false;
	errno = 0;
	*n = strtol(s, &end, 10);
	return !errno && !*end;
}

/* One option with its argument @val; returns 0 or an exit status. */
static int mstat_opt_arg(struct mstat_opts *o, char opt, const char *val)
{
	switch (opt) {
	case 'f':
		if (o->nfile == MSTAT_MAX_FILES)
			return mstat_bad_usage("too many -f", NULL);
		o->file[o->nfile++] = val;
		return 0;
	case 'o':
		o->out = val;
		return 0;
	case 'd':
		o->delay_set = true;
		return mstat_parse_delay(val, &o->delay) ? 0 :
			mstat_bad_usage("-d wants seconds in (0, 86400], got", val);
	case 'n':
		o->iters_set = true;
		return mstat_parse_iters(val, &o->iters) ? 0 :
			mstat_bad_usage("-n wants a positive count, got", val);
	}
	return mstat_bad_usage("unknown option", NULL);
}

static int mstat_set_cmd(struct mstat_opts *o, const char *a)
{
	static const char *const names[] = {
		[CMD_TOP] = "top", [CMD_PROM] = "prom", [CMD_PPROF] = "pprof",
	};
	size_t i;

	for (i = CMD_TOP; !o->cmd_set && i < ARRAY_SIZE(names); i++) {
		if (!strcmp(a, names[i])) {
			o->cmd = i;
			o->cmd_set = true;
			return 0;
		}
	}
	return mstat_bad_usage("unexpected argument", a);
}

/* Which options go with which command. */
static int mstat_check_opts(struct mstat_opts *o)
{
	if (o->json && o->cmd != CMD_SHOW)
		return mstat_bad_usage("--json goes with plain mstat only", NULL);
	if ((o->delay_set || o->iters_set) && o->cmd != CMD_TOP)
		return mstat_bad_usage("-d and -n go with mstat top only", NULL);
	if (o->out && o->cmd != CMD_PROM && o->cmd != CMD_PPROF)
		return mstat_bad_usage("-o goes with prom and pprof only", NULL);
	if (o->nfile > 1 && o->cmd != CMD_TOP)
		return mstat_bad_usage("several -f go with mstat top only", NULL);
	if (!o->nfile)
		o->file[o->nfile++] = o->cmd == CMD_PPROF ? MSTAT_SITES_PROC :
							   MSTAT_PROC;
	return 0;
}

/* Returns 0, an exit status, or -1 for --help. */
static int mstat_parse_args(struct mstat_opts *o, int argc, char **argv)
{
	int i, err;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "-h") || !strcmp(a, "--help"))
			return -1;
		if (!strcmp(a, "--json")) {
			o->json = true;
			continue;
		}
		if (a[0] != '-')
			err = mstat_set_cmd(o, a);
		else if (strlen(a) != 2 || !strchr("fodn", a[1]))
			err = mstat_bad_usage("unknown option", a);
		else if (i + 1 == argc)
			err = mstat_bad_usage("missing argument to", a);
		else
			err = mstat_opt_arg(o, a[1], argv[++i]);
		if (err)
			return err;
	}
	return mstat_check_opts(o);
}

static int mstat_one_snapshot(const struct mstat_opts *o)
{
	struct mstat_snap *s = mstat_snap_read(o->file[0]);
	char tmp[4096];
	FILE *f;
	int err;

	if (!s)
		return EXIT_INPUT;
	if (o->cmd == CMD_PROM) {
		f = mstat_out_open(o->out, tmp, sizeof(tmp));
		if (!f) {
			mstat_snap_free(s);
			return EXIT_INPUT;
		}
		mstat_prom(f, s);
		err = mstat_out_close(f, o->out, tmp);
	} else {
		if (o->json)
			mstat_json(s);
		else
			mstat_show(s);
		err = mstat_out_close(stdout, NULL, NULL);
	}
	mstat_snap_free(s);
	return err;
}

int main(int argc, char **argv)
{
	struct mstat_opts o = { .delay = 2 };
	int err = mstat_parse_args(&o, argc, argv);

	if (err < 0) {
		mstat_usage(stdout);
		return 0;
	}
	if (err)
		return err;
	switch (o.cmd) {
	case CMD_TOP:
		return mstat_top(&o);
	case CMD_PPROF:
		return mstat_pprof(&o);
	default:
		return mstat_one_snapshot(&o);
	}
}
