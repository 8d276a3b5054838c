/* SPDX-License-Identifier: GPL-2.0 */
/* mstat memory: where the machine's memory is, one account (memory.c). */
#ifndef MSTAT_MEMORY_H
#define MSTAT_MEMORY_H

#include <stdio.h>

#include "opts.h"
#include "parse.h"

int do_memory(const struct mstat_opts *o);
const char *mstat_memory_meminfo(const struct mstat_opts *o);
const char *mstat_memory_kallsyms(const struct mstat_opts *o);
int mstat_memory_sites(const struct mstat_opts *o, struct mstat_sites **ss);
int mstat_memory_owners(const struct mstat_opts *o, struct mstat_owners **ow);
void mstat_memory_prom(FILE *f, const struct mstat_snap *s,
		       const char *meminfo, const struct mstat_sites *ss);

/* The options mstat memory takes. */
extern const struct mstat_optspec mstat_memory_optspec;

/*
 * mstat memory's command line, @argv[0] "memory": parse it and run;
 * returns the exit status (MSTAT_HELP for --help).
 */
int cmd_memory(int argc, char **argv);

#endif /* MSTAT_MEMORY_H */
