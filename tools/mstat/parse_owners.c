// SPDX-License-Identifier: GPL-2.0
/*
 * /proc/mstat_owners' parser (format 1, mstat_owners.c in the module):
 *
 *	mstat_owners - version: 1.0
 *	# rows 3 capacity 512 reused 0 age_ms 0
 *	vmalloc vmalloc 7411 8 0 33554432 hold_vmalloc+0x3e/0x90 [mstat_hold]
 *	percpu - softirq 1 0 64 other
 *
 * a row: source, kind, cgroup, objects allocated, freed, live bytes, the
 * caller (%pS, a module's name after it, or "other"). A later minor may
 * add words at the end of the header and of a row, never move one.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse.h"
#include "util.h"

/* "# rows N capacity N ...": the figures this parser needs. */
static bool owners_header(struct mstat_owners *ow, char *line)
{
	char *w[MSTAT_MAX_WORDS];
	int n = mstat_split(line, w, MSTAT_MAX_WORDS);

	return n >= 5 && !strcmp(w[0], "#") && !strcmp(w[1], "rows") &&
	       mstat_parse_num(w[2], &ow->rows) && ow->rows >= 0 &&
	       !strcmp(w[3], "capacity") &&
	       mstat_parse_num(w[4], &ow->capacity);
}

/* One row into @r, or false. */
static bool owners_row(struct mstat_owner *r, char *line)
{
	char *w[MSTAT_MAX_WORDS];
	long long v[3];
	int n = mstat_split(line, w, MSTAT_MAX_WORDS), i;

	if (n < 7)
		return false;
	memset(r, 0, sizeof(*r));
	if (!strcmp(w[0], mstat_src_names[SRC_VMALLOC]))
		r->src = SRC_VMALLOC;
	else if (!strcmp(w[0], mstat_src_names[SRC_PERCPU]))
		r->src = SRC_PERCPU;
	else
		return false;
	if (strlen(w[1]) >= sizeof(r->kind) ||
	    !mstat_parse_cgroup(w[2], &r->cgroup) ||
	    !mstat_parse_nums(&w[3], 3, v))
		return false;
	for (i = 0; i < 3; i++)
		if (v[i] < 0)
			return false;
	snprintf(r->kind, sizeof(r->kind), "%s", w[1]);
	r->allocs = v[0];
	r->frees = v[1];
	r->bytes = v[2];
	if (r->frees > r->allocs)
		return false;
	r->other = !strcmp(w[6], "other");
	snprintf(r->caller, sizeof(r->caller), "%.*s%s%s",
		 (int)strcspn(w[6], "+"), w[6],
		 n > 7 && w[7][0] == '[' ? " " : "",
		 n > 7 && w[7][0] == '[' ? w[7] : "");
	return true;
}

bool mstat_owners_parse(struct mstat_owners *ow, char *buf, size_t len,
			struct mstat_perror *err)
{
	char *pos = buf, *line, *end;
	size_t cap = 0;
	int nline = 1;
	bool head = false;

	if (!mstat_check_text(buf, len, err))
		return false;
	line = mstat_next_line(&pos);
	if (!mstat_parse_head(line, MSTAT_OWNERS_HEAD, ow->version, &ow->major,
			      &ow->minor, 1, MSTAT_OWNERS_MAJOR, err))
		return false;
	while ((line = mstat_next_line(&pos))) {
		nline++;
		end = line + strlen(line);
		if (!head) {
			if (!owners_header(ow, line)) {
				mstat_unsplit(line, end);
				return mstat_fail(err, MSTAT_E_OWNERS_HEADER,
						  nline, line);
			}
			head = true;
			continue;
		}
		if (ow->n == cap) {
			cap = cap ? 2 * cap : 64;
			ow->r = mstat_alloc(ow->r, cap * sizeof(*ow->r));
		}
		if (!owners_row(&ow->r[ow->n], line)) {
			mstat_unsplit(line, end);
			return mstat_fail(err, MSTAT_E_OWNER_ROW, nline, line);
		}
		ow->n++;
	}
	if (!head)
		return mstat_fail(err, MSTAT_E_OWNERS_HEADER, nline, "");
	if ((long long)ow->n != ow->rows)
		return mstat_fail(err, MSTAT_E_OWNERS_COUNT, nline, "");
	return true;
}
