/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the files of the mstat tool share: options, errors, memory,
 * numbers for people, output files, reading, and each subcommand's and
 * output format's entry point. The formats themselves are parse.h's.
 *
 *   main.c      options and dispatch (show, --json, prom; top, pprof,
 *               check)
 *   input.c     reading a file in one open(); the tool's read errors
 *   parse.c     the parser of /proc/mstat and /proc/mstat_sites
 *   util.c      errors, memory, numbers for people, output files
 *   show.c      the snapshot as text        json.c  ... as JSON
 *   prom.c      ... in Prometheus's text format
 *   top.c       mstat top: rates from successive snapshots
 *   pprof.c     mstat pprof: /proc/mstat_sites as a pprof profile
 *   gzip.c      the gzip container, through zlib
 *   check.c     mstat check: the snapshot invariants, across reads
 *   check_selftest.c  mstat check --selftest
 */
#ifndef MSTAT_MAIN_H
#define MSTAT_MAIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <time.h>

#include "parse.h"

#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))
#define MSTAT_MAX_INPUT		(256u << 20)
#define MSTAT_MAX_FILES		16

#define MSTAT_PRINTF(a, b)	__attribute__((format(printf, a, b)))

enum { EXIT_INPUT = 1, EXIT_USAGE = 2 };

enum mstat_cmd { CMD_SHOW, CMD_TOP, CMD_PROM, CMD_PPROF };

/* Options of every command but check, which has its own. */
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
	bool caches;			/* top --caches */
	bool sort_live;			/* top --sort live */
	bool sort_set;
	const char *cache_include;	/* prom --cache-include */
	const char *cache_exclude;	/* prom --cache-exclude */
	long cache_max;			/* prom --cache-max */
	bool cache_opts_set;
};

/* util.c */
void mstat_err(const char *fmt, ...) MSTAT_PRINTF(1, 2);
void *mstat_alloc(void *old, size_t n);
char *mstat_strdup(const char *s, size_t n);

/* A growing byte buffer. */
struct mstat_buf {
	unsigned char *p;
	size_t len, cap;
};

void mstat_buf_put(struct mstat_buf *b, const void *d, size_t n);

/* Numbers for people, into @buf of 32 bytes. */
const char *mstat_count(char *buf, long long v);	/* "1,234,567" */
const char *mstat_bytes(char *buf, double v);		/* "3.2 KiB" */
const char *mstat_class_label(char *buf, const struct mstat_class *c);
const char *mstat_rate(char *buf, double r);

/* Standard output if @path is NULL, else @tmp, renamed to @path. */
FILE *mstat_out_open(const char *path, char *tmp, size_t len);
int mstat_out_close(FILE *f, const char *path, const char *tmp);

/* input.c */
enum mstat_read_fail { MSTAT_READ_OPEN, MSTAT_READ_READ, MSTAT_READ_BIG };

/**
 * mstat_slurp() - read a whole file through one open (one snapshot)
 * @path: the file
 * @max: refuse files of @max bytes or more; 0: no limit
 * @when: if not NULL, CLOCK_MONOTONIC right after the open
 * @len: gets the length
 * @how: where it failed
 *
 * Return: the NUL-terminated contents, to free(), or NULL with errno set
 * (ENOMEM: out of memory).
 */
char *mstat_slurp(const char *path, size_t max, struct timespec *when,
		  size_t *len, enum mstat_read_fail *how);

/* Read, parse and index a complete snapshot, or NULL after a message. */
struct mstat_snap *mstat_snap_read(const char *path);
void mstat_snap_free(struct mstat_snap *s);
struct mstat_sites *mstat_sites_read(const char *path);
void mstat_sites_free(struct mstat_sites *ss);

/* Output formats of one snapshot. */
void mstat_show(const struct mstat_snap *s);		/* show.c */
void mstat_json(const struct mstat_snap *s);		/* json.c */
int mstat_prom(FILE *f, const struct mstat_snap *s,
	       const struct mstat_opts *o);			/* prom.c */
void mstat_show_caches(const struct mstat_snap *s, int rows);	/* show.c */
/*
 * A cache row's name for people: its name (control bytes, bytes of 0x7f
 * and up and the backslash as \ooo), or "#ID" if it has none; @len at
 * least 4 * MSTAT_CACHE_NAME_MAX.
 */
const char *mstat_cache_label(char *buf, size_t len,
			      const struct mstat_cache *c);

/* gzip.c: @n bytes at @p, gzipped, appended to @z; false on failure. */
bool mstat_gzip(struct mstat_buf *z, const void *p, size_t n);

/* Subcommands: each returns the exit status. */
int do_top(const struct mstat_opts *o);			/* top.c */
int do_pprof(const struct mstat_opts *o);		/* pprof.c */
int do_check(int argc, char **argv);			/* check.c */

#endif /* MSTAT_MAIN_H */
