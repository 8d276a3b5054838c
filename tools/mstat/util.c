// SPDX-License-Identifier: GPL-2.0
/*
 * What every subcommand of mstat uses: one-line errors, memory that
 * never fails (out of memory exits), a string map, the monotonic clock
 * and sleeping on it, numbers for people, output files written beside
 * their target and renamed over it.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "parse.h"
#include "util.h"

/*
 * Where mstat_err() also keeps its message: the calling thread's own
 * (mstat serve's threads each keep theirs, so that a message of one
 * request's work never lands in the reason another gives).
 */
static __thread char *mstat_err_buf;
static __thread size_t mstat_err_len;

void mstat_err(const char *fmt, ...)
{
	va_list ap;

	fputs("mstat: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	if (mstat_err_buf) {
		va_start(ap, fmt);
		vsnprintf(mstat_err_buf, mstat_err_len, fmt, ap);
		va_end(ap);
	}
}

void mstat_err_keep(char *buf, size_t len)
{
	mstat_err_buf = len ? buf : NULL;
	mstat_err_len = len;
}

static int mstat_oom_status = EXIT_INPUT;

void mstat_alloc_status(int status)
{
	mstat_oom_status = status;
}

void *mstat_alloc(void *old, size_t n)
{
	void *p = realloc(old, n ? n : 1);

	if (!p) {
		mstat_err("out of memory");
		exit(mstat_oom_status);
	}
	return p;
}

char *mstat_strdup(const char *s, size_t n)
{
	char *p = mstat_alloc(NULL, n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

void mstat_buf_put(struct mstat_buf *b, const void *d, size_t n)
{
	if (b->len + n > b->cap) {
		b->cap = (b->len + n) * 2 + 64;
		b->p = mstat_alloc(b->p, b->cap);
	}
	memcpy(b->p + b->len, d, n);
	b->len += n;
}

/* Numbers for people */

/* FNV-1a, 64 bits. */
static uint64_t mstat_fnv(const char *s)
{
	uint64_t h = 14695981039346656037ULL;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return h;
}

/* @s's slot in @m: the one holding it, or the empty one it would take. */
static size_t mstat_strmap_slot(const struct mstat_strmap *m, const char *s)
{
	size_t h;

	for (h = mstat_fnv(s) & (m->nslot - 1); m->slot[h];
	     h = (h + 1) & (m->nslot - 1))
		if (!strcmp(m->str[m->slot[h] - 1], s))
			break;
	return h;
}

long mstat_strmap_find(const struct mstat_strmap *m, const char *s)
{
	size_t h;

	if (!m->nslot)
		return -1;
	h = mstat_strmap_slot(m, s);
	return m->slot[h] ? (long)m->slot[h] - 1 : -1;
}

/* Twice the slots (at least 64), the strings hashed again. */
static void mstat_strmap_grow(struct mstat_strmap *m)
{
	size_t i;

	free(m->slot);
	m->nslot = m->nslot ? 2 * m->nslot : 64;
	m->slot = mstat_alloc(NULL, m->nslot * sizeof(*m->slot));
	memset(m->slot, 0, m->nslot * sizeof(*m->slot));
	for (i = 0; i < m->n; i++)
		m->slot[mstat_strmap_slot(m, m->str[i])] = i + 1;
}

long mstat_strmap_add(struct mstat_strmap *m, const char *s)
{
	size_t h;

	/* At most half the slots taken: the probes stay short. */
	if (2 * (m->n + 1) > m->nslot)
		mstat_strmap_grow(m);
	h = mstat_strmap_slot(m, s);
	if (m->slot[h])
		return (long)m->slot[h] - 1;
	if (m->n == m->cap) {
		m->cap = m->cap ? 2 * m->cap : 64;
		m->str = mstat_alloc(m->str, m->cap * sizeof(*m->str));
	}
	m->str[m->n] = mstat_strdup(s, strlen(s));
	m->slot[h] = ++m->n;
	return (long)m->n - 1;
}

void mstat_strmap_free(struct mstat_strmap *m)
{
	size_t i;

	for (i = 0; i < m->n; i++)
		free(m->str[i]);
	free(m->str);
	free(m->slot);
	memset(m, 0, sizeof(*m));
}

double mstat_secs(const struct timespec *ts)
{
	return ts->tv_sec + ts->tv_nsec / 1e9;
}

double mstat_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return mstat_secs(&ts);
}

/* @secs >= 0 as a timespec. */
static struct timespec mstat_timespec(double secs)
{
	struct timespec ts = { .tv_sec = (time_t)secs };

	ts.tv_nsec = (long)((secs - (double)ts.tv_sec) * 1e9);
	return ts;
}

void mstat_sleep(double secs)
{
	struct timespec ts = mstat_timespec(secs);

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

bool mstat_sleep_until_signal(double t)
{
	struct timespec ts = mstat_timespec(t);

	return !clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
}

void mstat_sleep_until(double t)
{
	struct timespec ts = mstat_timespec(t);

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) ==
	       EINTR)
		;
}

const char *mstat_num(char *buf, int s64, long long v)
{
	if (s64)
		snprintf(buf, 24, "%lld", v);
	else
		snprintf(buf, 24, "%llu", (unsigned long long)v);
	return buf;
}

const char *mstat_count(char *buf, long long v)
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
const char *mstat_bytes(char *buf, double v)
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
const char *mstat_class_label(char *buf, const struct mstat_class *c)
{
	if (!c->size)
		snprintf(buf, 32, "large");
	else if (c->size % 1024 == 0)
		snprintf(buf, 32, "%llu KiB", c->size / 1024);
	else
		snprintf(buf, 32, "%llu B", c->size);
	return buf;
}

/*
 * A rate: one decimal below 100, else a rounded count; from 2^63 on,
 * which no long long holds, "%.3e".
 */
const char *mstat_rate(char *buf, double r)
{
	if (r > -100 && r < 100) {
		snprintf(buf, 32, "%.1f", r);
		return buf;
	}
	if (r >= 9223372036854775807.0 || r <= -9223372036854775807.0) {
		snprintf(buf, 32, "%.3e", r);
		return buf;
	}
	return mstat_count(buf, (long long)(r < 0 ? r - 0.5 : r + 0.5));
}

/* Output files: written beside the target and renamed over it. */

FILE *mstat_out_open(const char *path, char *tmp, size_t len)
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

int mstat_out_close(FILE *f, const char *path, const char *tmp)
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

void mstat_prom_head(FILE *f, const char *name, const char *type,
		     const char *help)
{
	fprintf(f, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

void mstat_prom_label(FILE *f, const char *v)
{
	mstat_prom_label_n(f, v, strlen(v));
}

/* The first @n bytes of @v (or to its end), escaped as mstat_prom_label(). */
void mstat_prom_label_n(FILE *f, const char *v, size_t n)
{
	for (; n && *v; v++, n--) {
		if (*v == '\\' || *v == '"')
			fprintf(f, "\\%c", *v);
		else if (*v == '\n')
			fputs("\\n", f);
		else
			putc(*v, f);
	}
}
