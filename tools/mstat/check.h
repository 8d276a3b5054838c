/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mstat check: the invariants of /proc/mstat, within each read and across
 * reads (check.c). Its self-test, which shows it catches their
 * violations, is check_selftest.c, a program of the test build.
 */
#ifndef MSTAT_CHECK_H
#define MSTAT_CHECK_H

#include <stddef.h>
#include <stdint.h>

#include "opts.h"
#include "parse.h"
#include "util.h"

/* What it prints begins so, as it did when it was mstat-check. */
#define CHECK_TAG	"mstat-check: "

/**
 * struct checker - one sequence of reads
 * @what: the current read, for messages
 * @reads: reads so far
 * @violations: violations so far
 * @max_print: print only the first ones; 0: all
 * @have_prev: @prev holds the previous read
 * @gen_first: the generation of the first read
 * @gen_last: the generation of the last read
 * @page_size: PAGE_SIZE of the kernel that wrote the reads
 * @prev: the previous read that parsed
 * @cur: the current read
 */
struct checker {
	const char *what;
	int reads;
	int violations;
	int max_print;
	int have_prev;
	uint64_t gen_first, gen_last;
	uint64_t page_size;
	struct mstat_snap prev, cur;
};

void check_violation(struct checker *c, const char *fmt, ...)
	MSTAT_PRINTF(2, 3);

/* One read: parse and check @buf (NUL-terminated, modified), remember it. */
void check_read(struct checker *c, char *buf, size_t len);

/*
 * mstat check [-n N] [-i MS] [FILE...], as main.c parsed it: the exit
 * status of mstat-check, which it replaces.
 */
int do_check(const struct mstat_check_opts *o);

/* The options mstat check takes. */
extern const struct mstat_optspec mstat_check_optspec;

/*
 * mstat check's command line, @argv[0] "check": parse it and run;
 * returns the exit status (MSTAT_HELP for --help).
 */
int cmd_check(int argc, char **argv);

#endif /* MSTAT_CHECK_H */
