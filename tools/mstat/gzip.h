/* SPDX-License-Identifier: GPL-2.0 */
/* The gzip container, through zlib (gzip.c). */
#ifndef MSTAT_GZIP_H
#define MSTAT_GZIP_H

#include <stdbool.h>
#include <stddef.h>

#include "util.h"

/* @n bytes at @p, gzipped, appended to @z; false on failure. */
bool mstat_gzip(struct mstat_buf *z, const void *p, size_t n);

#endif /* MSTAT_GZIP_H */
