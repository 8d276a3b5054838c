/* SPDX-License-Identifier: GPL-2.0 */
/* mstat pprof: /proc/mstat_sites as a gzipped pprof profile (pprof.c). */
#ifndef MSTAT_PPROF_H
#define MSTAT_PPROF_H

#include "opts.h"

/* Returns the exit status. */
int do_pprof(const struct mstat_opts *o);

#endif /* MSTAT_PPROF_H */
