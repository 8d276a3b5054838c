/* SPDX-License-Identifier: GPL-2.0 */
/* mstat prom: the snapshot in Prometheus's text format (prom.c). */
#ifndef MSTAT_PROM_H
#define MSTAT_PROM_H

#include <regex.h>
#include <stdbool.h>
#include <stdio.h>

#include "opts.h"
#include "parse.h"

/**
 * struct mstat_prom_filter - the caches that get series
 * @include: --cache-include, compiled, if @has_include
 * @exclude: --cache-exclude, compiled, if @has_exclude
 * @has_include: @include holds a regex
 * @has_exclude: @exclude holds a regex
 * @max: --cache-max: at most so many, those with the most live bytes
 * @owner_max: --owner-max: the callers of each source, and the cgroups,
 *	that get series of their own (mstat_owners_prom())
 */
struct mstat_prom_filter {
	regex_t include, exclude;
	bool has_include, has_exclude;
	long max;
	long owner_max;
};

/*
 * @o's --cache-* options, the regexes compiled once, into @pf; false
 * after a message naming the option if a regex is bad (nothing to free).
 */
bool mstat_prom_filter_init(struct mstat_prom_filter *pf,
			    const struct mstat_opts *o);
void mstat_prom_filter_free(struct mstat_prom_filter *pf);

struct mstat_owners;

/*
 * The snapshot @s into @f, the caches that @pf lets through, mstat
 * memory's account with @meminfo and the sites file @ss (or NULL) beside
 * it (mstat_memory_prom()), and whose the memory is from the owners file
 * @ow and @ss (mstat_owners_prom(); nothing without either).
 */
void mstat_prom(FILE *f, const struct mstat_snap *s,
		const struct mstat_prom_filter *pf, const char *meminfo,
		const struct mstat_sites *ss, const struct mstat_owners *ow);

/* The options mstat prom takes. */
extern const struct mstat_optspec mstat_prom_optspec;

/*
 * mstat prom's command line, @argv[0] "prom": parse it and run;
 * returns the exit status (MSTAT_HELP for --help).
 */
int cmd_prom(int argc, char **argv);

#endif /* MSTAT_PROM_H */
