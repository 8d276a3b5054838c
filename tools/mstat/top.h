/* SPDX-License-Identifier: GPL-2.0 */
/* mstat top: rates from successive snapshots (top.c). */
#ifndef MSTAT_TOP_H
#define MSTAT_TOP_H

#include "opts.h"

/* Returns the exit status. */
int do_top(const struct mstat_opts *o);

/* The options mstat top takes. */
extern const struct mstat_optspec mstat_top_optspec;

/*
 * mstat top's command line, @argv[0] "top": parse it and run;
 * returns the exit status (MSTAT_HELP for --help).
 */
int cmd_top(int argc, char **argv);

#endif /* MSTAT_TOP_H */
