/* SPDX-License-Identifier: GPL-2.0 */
/* mstat prom: the snapshot in Prometheus's text format (prom.c). */
#ifndef MSTAT_PROM_H
#define MSTAT_PROM_H

#include <stdio.h>

#include "opts.h"
#include "parse.h"

/* Into @f, with @o's --cache-* options; 0 or an exit status. */
int mstat_prom(FILE *f, const struct mstat_snap *s,
	       const struct mstat_opts *o);

#endif /* MSTAT_PROM_H */
