/* SPDX-License-Identifier: GPL-2.0 */
/* mstat top: rates from successive snapshots (top.c). */
#ifndef MSTAT_TOP_H
#define MSTAT_TOP_H

#include "opts.h"

/* Returns the exit status. */
int do_top(const struct mstat_opts *o);

#endif /* MSTAT_TOP_H */
