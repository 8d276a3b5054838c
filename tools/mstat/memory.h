/* SPDX-License-Identifier: GPL-2.0 */
/* mstat memory: where the machine's memory is, one account (memory.c). */
#ifndef MSTAT_MEMORY_H
#define MSTAT_MEMORY_H

#include "opts.h"

int do_memory(const struct mstat_opts *o);

#endif /* MSTAT_MEMORY_H */
