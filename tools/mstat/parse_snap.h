/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The parser of /proc/mstat (parse_snap.c), and what the commands ask of
 * a snapshot; its types, and the grammar, are parse.h's.
 */
#ifndef MSTAT_PARSE_SNAP_H
#define MSTAT_PARSE_SNAP_H

#include <stdbool.h>
#include <stddef.h>

#include "parse.h"

/**
 * mstat_snap_parse() - parse a /proc/mstat text
 * @s: gets the lines (zeroed first; @s->path is kept)
 * @buf: the text, NUL-terminated; the parser writes into it
 * @len: its length (a NUL before it is an error)
 * @flags: 0 or MSTAT_PARSE_EXACT
 * @dup: told of each line given twice (which is not kept); NULL: a line
 *	 given twice stops the parse with MSTAT_E_DUP
 * @arg: for @dup
 * @err: why it stopped
 *
 * Return: true if the whole text parsed. It checks no relation between
 * values: see mstat_snap_missing() and `mstat check` for that.
 */
bool mstat_snap_parse(struct mstat_snap *s, char *buf, size_t len,
		      unsigned int flags, mstat_dup_fn *dup, void *arg,
		      struct mstat_perror *err);

const struct mstat_counter *mstat_find(const struct mstat_snap *s,
				       const char *name);
/* The value of counter @name, 0 if there is none. */
long long mstat_get(const struct mstat_snap *s, const char *name);

/*
 * @s's age when it was read, in seconds: its "snapshot_age_ms", which a
 * snapshot served again to a reader under proc_min_interval_ms has (0,
 * or none, for one taken at the open).
 */
double mstat_snap_age(const struct mstat_snap *s);
/* When the kernel took @s (CLOCK_MONOTONIC, s): @s->when less its age. */
double mstat_snap_taken(const struct mstat_snap *s);
/*
 * Is @s a snapshot of generation @gen, read before at @age_ms old,
 * served again ("snapshot_reused 1", older since)? Its counters then
 * say nothing of the time between. A file read twice has not aged.
 */
bool mstat_snap_again(const struct mstat_snap *s, long long gen,
		      long long age_ms);

/* The first counter of format 1.0 @s lacks, in file order, or NULL. */
const char *mstat_snap_missing(const struct mstat_snap *s);

/* Fill @s->src and @s->gen from its counters. */
void mstat_snap_index(struct mstat_snap *s);

#endif /* MSTAT_PARSE_SNAP_H */
