/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What every file of the mstat tool may use (util.c): one-line errors,
 * the exit statuses, memory that never fails (out of memory exits), a
 * growing byte buffer, a string map, the monotonic clock and sleeping on
 * it, numbers for people, output files written beside their target and
 * renamed over it. It calls nothing of the tool but
 * parse.h's types.
 */
#ifndef MSTAT_UTIL_H
#define MSTAT_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <time.h>

#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))

#define MSTAT_PRINTF(a, b)	__attribute__((format(printf, a, b)))

enum { EXIT_INPUT = 1, EXIT_USAGE = 2 };

struct mstat_class;

/* "mstat: " and the message, on one line of stderr. */
void mstat_err(const char *fmt, ...) MSTAT_PRINTF(1, 2);
/*
 * Also keep the last message, without "mstat: ", in @buf of @len bytes
 * (mstat serve answers with it); @len 0: stop. The calling thread's
 * messages only: each thread keeps its own.
 */
void mstat_err_keep(char *buf, size_t len);
/*
 * realloc(), or exit after a message "out of memory": with EXIT_INPUT,
 * or the status mstat_alloc_status() set (a command whose 1 means
 * something else: mstat leaks's suspect, mstat check's violation).
 */
void *mstat_alloc(void *old, size_t n);
void mstat_alloc_status(int status);
/* The @n bytes at @s, NUL-terminated, in memory of their own. */
char *mstat_strdup(const char *s, size_t n);

/* A growing byte buffer. */
struct mstat_buf {
	unsigned char *p;
	size_t len, cap;
};

void mstat_buf_put(struct mstat_buf *b, const void *d, size_t n);

/*
 * A map of strings to their indices, 0 up in the order they were first
 * added (mstat pprof's string table, mstat leaks' series, stacks and
 * rows): open addressing on FNV-1a, at most half the slots taken. All
 * zero is empty; mstat_strmap_free() makes it so again.
 */
struct mstat_strmap {
	char **str;		/* the strings, by index */
	size_t n, cap;
	size_t *slot;		/* index + 1; 0: empty */
	size_t nslot;		/* a power of two */
};

/* The index of @s, or -1. */
long mstat_strmap_find(const struct mstat_strmap *m, const char *s);
/* The index of @s: if new, a copy of it is added with the next one. */
long mstat_strmap_add(struct mstat_strmap *m, const char *s);
void mstat_strmap_free(struct mstat_strmap *m);

/* @ts in seconds. */
double mstat_secs(const struct timespec *ts);
/* CLOCK_MONOTONIC, in seconds. */
double mstat_now(void);
/* Sleep @secs >= 0 seconds; a signal does not cut it short. */
void mstat_sleep(double secs);
/* Sleep until mstat_now() reads @t (not at all if it has); likewise. */
/*
 * Sleep until CLOCK_MONOTONIC second @t, or a signal caught: false if
 * one ended the sleep first.
 */
bool mstat_sleep_until_signal(double t);
void mstat_sleep_until(double t);

/* Numbers for people, into @buf of 32 bytes. */
const char *mstat_count(char *buf, long long v);	/* "1,234,567" */
const char *mstat_bytes(char *buf, double v);		/* "3.2 KiB" */
const char *mstat_class_label(char *buf, const struct mstat_class *c);
const char *mstat_rate(char *buf, double r);
/* A value as the module printed it: an s64 if @s64, else a u64; 24 bytes. */
const char *mstat_num(char *buf, int s64, long long v);
/* A u64 counter's value, for mstat_bytes() and rates. */
#define mstat_u64(v)		((double)(unsigned long long)(v))

/* Prometheus' exposition format: a metric's HELP and TYPE lines. */
void mstat_prom_head(FILE *f, const char *name, const char *type,
		     const char *help);
/* A label value as the exposition format wants it: \\, \" and \n. */
void mstat_prom_label(FILE *f, const char *v);
void mstat_prom_label_n(FILE *f, const char *v, size_t n);

/* Standard output if @path is NULL, else @tmp, renamed to @path. */
FILE *mstat_out_open(const char *path, char *tmp, size_t len);
int mstat_out_close(FILE *f, const char *path, const char *tmp);

#endif /* MSTAT_UTIL_H */
