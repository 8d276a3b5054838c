/* SPDX-License-Identifier: GPL-2.0 */
/* mstat pprof: /proc/mstat_sites as a gzipped pprof profile (pprof.c). */
#ifndef MSTAT_PPROF_H
#define MSTAT_PPROF_H

#include <stdbool.h>

#include "opts.h"
#include "parse.h"
#include "util.h"

/* Which of Go's two heap profiles: their default sample type differs. */
enum mstat_pprof_kind {
	MSTAT_PPROF_HEAP,	/* /debug/pprof/heap: inuse_space */
	MSTAT_PPROF_ALLOCS,	/* /debug/pprof/allocs: alloc_space */
};

/**
 * mstat_pprof_gz() - /proc/mstat_sites as a gzipped pprof profile
 * @z: gets the profile (appended; free z->p)
 * @ss: a read of /proc/mstat_sites
 * @base: NULL, or an earlier read: the profile is then @ss minus @base,
 *	stack by stack (Go's ?seconds=N delta), stacks of no change left out
 * @kind: the default sample type
 *
 * Every stack is a Sample, its frames Locations (one per distinct frame)
 * and Functions (one per distinct function), leaf first. From format 2.2
 * a row is one Sample per live line (its in-use share, labels cgroup,
 * node and age) and one for the rest (its alloc values and the in-use no
 * live line covers; cgroup and node); in a delta, one Sample per row
 * (cgroup and node, no age). Cgroup ids are resolved in the tree of
 * mstat_cgroups_open().
 *
 * Return: false after a message (gzip failed).
 */
bool mstat_pprof_gz(struct mstat_buf *z, const struct mstat_sites *ss,
		    const struct mstat_sites *base, enum mstat_pprof_kind kind);

/* Returns the exit status. */
int do_pprof(const struct mstat_opts *o);

/* The options mstat pprof takes. */
extern const struct mstat_optspec mstat_pprof_optspec;

/*
 * mstat pprof's command line, @argv[0] "pprof": parse it and run;
 * returns the exit status (MSTAT_HELP for --help).
 */
int cmd_pprof(int argc, char **argv);

#endif /* MSTAT_PPROF_H */
