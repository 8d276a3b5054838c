/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reading a file of the module's, or a copy of one, in one open() (one
 * snapshot), and through the parser (input.c).
 */
#ifndef MSTAT_INPUT_H
#define MSTAT_INPUT_H

#include <stddef.h>
#include <time.h>

#include "parse.h"

#define MSTAT_MAX_INPUT		(256u << 20)

enum mstat_read_fail { MSTAT_READ_OPEN, MSTAT_READ_READ, MSTAT_READ_BIG };

/**
 * mstat_slurp() - read a whole file through one open (one snapshot)
 * @path: the file
 * @max: refuse files of @max bytes or more; 0: no limit
 * @when: if not NULL, CLOCK_MONOTONIC right after the open
 * @len: gets the length
 * @how: where it failed
 *
 * Return: the NUL-terminated contents, to free(), or NULL with errno set
 * (ENOMEM: out of memory).
 */
char *mstat_slurp(const char *path, size_t max, struct timespec *when,
		  size_t *len, enum mstat_read_fail *how);

/* Read, parse and index a complete snapshot, or NULL after a message. */
struct mstat_snap *mstat_snap_read(const char *path);
void mstat_snap_free(struct mstat_snap *s);
struct mstat_sites *mstat_sites_read(const char *path);
void mstat_sites_free(struct mstat_sites *ss);
struct mstat_owners *mstat_owners_read(const char *path);
void mstat_owners_free(struct mstat_owners *ow);

#endif /* MSTAT_INPUT_H */
