// SPDX-License-Identifier: GPL-2.0
/*
 * caches - the judge of the per-cache test: mstat's cache rows against
 * what mstat_cachetest (tests/caches/) says it did.
 *
 *	caches [-n] [-a] [-k N] BEFORE AFTER EXPECT
 *
 * BEFORE and AFTER are /proc/mstat read around the test module's run,
 * EXPECT what its run file said. Every expected row must be in AFTER,
 * exactly once, with exactly its counts and state: matched by name, or
 * with -n (a build whose names must fail validation) by object size,
 * every row's name then being "-". Rows it made to fill the table
 * ("many N"): each that got a row counts 1 and 1, gone; the rest must be
 * in the overflow row, which may hold no more besides than the cache
 * source's background (what the source counted that the test's rows did
 * not). -a: the re-created cache must have had the destroyed one's
 * address (on kernels without KASAN's quarantine, where SLUB reuses it).
 * -k N: N of the objects mstat_ct_pre held at mstat's load were KFENCE's
 * (/sys/kernel/debug/kfence/objects), which /proc/slabinfo, where the
 * load counts a cache's objects, does not count: its row's objects at
 * load are that many fewer than the frees less the allocations.
 *
 * Prints "ok caches-NAME" or "not ok caches-NAME: WHY" per check, and
 * "# " lines; exits 1 if a check failed, 2 on bad input.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_ROWS	4096
#define MAX_EXPECT	64

struct row {
	long long id, size, allocs, frees, failures, live, live_bytes, at_load;
	char state[8];
	char name[300];
	bool used;
};

struct snap {
	struct row row[MAX_ROWS];
	int n;
	long long over[5];	/* allocs frees failures live live_bytes */
	long long cache_allocs, cache_frees, rows, used, named, at_load;
	bool has_table;
};

struct expect {
	char name[300];
	long long size, allocs, frees;
	char state[8];
};

static struct snap before, after;
static struct expect exp_rows[MAX_EXPECT];
static int nexp, nfailed;
static long long merged = -1, same_addr = -1, many = -1;

static void pass(const char *name)
{
	printf("ok caches-%s\n", name);
}

static void not_ok(const char *name, const char *why)
{
	printf("not ok caches-%s: %s\n", name, why);
	nfailed++;
}

static int read_snap(const char *path, struct snap *s)
{
	char line[1024], name[64];
	long long v;
	FILE *f = fopen(path, "r");

	if (!f) {
		perror(path);
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		struct row *r = &s->row[s->n];

		line[strcspn(line, "\n")] = '\0';
		if (!strncmp(line, "cache ", 6)) {
			/* From format 1.8 the row ends in its objects at load. */
			r->at_load = 0;
			if (s->n == MAX_ROWS ||
			    sscanf(line, "cache %lld %lld %lld %lld %lld %lld %lld %7s %299s %lld",
				   &r->id, &r->size, &r->allocs, &r->frees,
				   &r->failures, &r->live, &r->live_bytes,
				   r->state, r->name, &r->at_load) < 9) {
				fprintf(stderr, "%s: bad row: %s\n", path, line);
				fclose(f);
				return -1;
			}
			s->n++;
		} else if (!strncmp(line, "cache_overflow ", 15)) {
			if (sscanf(line, "cache_overflow %lld %lld %lld %lld %lld",
				   &s->over[0], &s->over[1], &s->over[2],
				   &s->over[3], &s->over[4]) != 5) {
				fprintf(stderr, "%s: bad overflow: %s\n", path,
					line);
				fclose(f);
				return -1;
			}
			s->has_table = true;
		} else if (sscanf(line, "%63s %lld", name, &v) == 2) {
			if (!strcmp(name, "cache_allocs"))
				s->cache_allocs = v;
			else if (!strcmp(name, "cache_frees"))
				s->cache_frees = v;
			else if (!strcmp(name, "caches_rows"))
				s->rows = v;
			else if (!strcmp(name, "caches_used"))
				s->used = v;
			else if (!strcmp(name, "caches_named"))
				s->named = v;
			else if (!strcmp(name, "caches_at_load"))
				s->at_load = v;
		}
	}
	fclose(f);
	if (!s->has_table)
		fprintf(stderr, "%s: no cache table (format 1.2)\n", path);
	return s->has_table ? 0 : -1;
}

static int read_expect(const char *path)
{
	char line[512];
	FILE *f = fopen(path, "r");

	if (!f) {
		perror(path);
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		struct expect *e = &exp_rows[nexp];

		if (!strncmp(line, "expect ", 7)) {
			if (nexp == MAX_EXPECT ||
			    sscanf(line, "expect %299s %lld %lld %lld %7s",
				   e->name, &e->size, &e->allocs, &e->frees,
				   e->state) != 5)
				goto bad;
			nexp++;
		} else if (sscanf(line, "merged %lld", &merged) != 1 &&
			   sscanf(line, "same_addr %lld", &same_addr) != 1 &&
			   sscanf(line, "many %lld", &many) != 1) {
			goto bad;
		}
	}
	fclose(f);
	if (!nexp || merged < 0 || same_addr < 0 || many < 0) {
		fprintf(stderr, "%s: incomplete\n", path);
		return -1;
	}
	return 0;
bad:
	fprintf(stderr, "%s: bad line: %s", path, line);
	fclose(f);
	return -1;
}

static bool is_many(const struct row *r, bool by_size)
{
	if (by_size)
		return r->size >= 3601 && r->size < 3601 + 2 * many &&
		       r->size % 2;
	return !strncmp(r->name, "mstat_ct_many_", 14);
}

int main(int argc, char **argv)
{
	bool by_size = false, want_reuse = false;
	long long many_rows = 0, mine_allocs = 0, kfence = 0, d_over, bg;
	char why[1024], what[64];
	int i, j, c, found;

	while ((c = getopt(argc, argv, "nak:")) != -1) {
		if (c == 'n')
			by_size = true;
		else if (c == 'a')
			want_reuse = true;
		else if (c == 'k')
			kfence = atoll(optarg);
		else
			return 2;
	}
	if (argc - optind != 3 || kfence < 0) {
		fprintf(stderr, "usage: caches [-n] [-a] [-k N] BEFORE AFTER EXPECT\n");
		return 2;
	}
	if (read_snap(argv[optind], &before) ||
	    read_snap(argv[optind + 1], &after) ||
	    read_expect(argv[optind + 2]))
		return 2;
	printf("# table: %lld rows, %lld used before, %lld after; names %lld; merged %lld, same_addr %lld\n",
	       after.rows, before.used, after.used, after.named, merged,
	       same_addr);

	/*
	 * Each expected row: once, exactly. Its live count starts from the
	 * objects its cache held at mstat's load (format 1.8), which it
	 * must have exactly where they are known: those of mstat_ct_pre,
	 * made, filled and shrunk before the load and all freed since, are
	 * its frees less its allocations, but for those KFENCE held (-k);
	 * every other test cache is made after the load and held none.
	 */
	for (i = 0; i < nexp; i++) {
		const struct expect *e = &exp_rows[i];
		long long then = e->frees > e->allocs ? e->frees - e->allocs : 0;

		if (then)
			then = then > kfence ? then - kfence : 0;
		struct row *hit = NULL;

		found = 0;
		for (j = 0; j < after.n; j++) {
			struct row *r = &after.row[j];

			if (r->used || r->size != e->size ||
			    (!by_size && strcmp(r->name, e->name)))
				continue;
			/* Two rows of one name and size: match in id order. */
			if (strcmp(r->state, e->state))
				continue;
			found++;
			if (!hit)
				hit = r;
		}
		snprintf(what, sizeof(what), "row-%d", i);
		if (!hit) {
			snprintf(why, sizeof(why), "%.300s (size %lld, %.7s): no row",
				 e->name, e->size, e->state);
			not_ok(what, why);
			continue;
		}
		hit->used = true;
		mine_allocs += hit->allocs;
		printf("# %s: row %lld, allocs %lld frees %lld live %lld at load %lld %s (expected %lld %lld %s)\n",
		       e->name, hit->id, hit->allocs, hit->frees, hit->live,
		       hit->at_load, hit->state, e->allocs, e->frees, e->state);
		if (hit->allocs != e->allocs || hit->frees != e->frees ||
		    hit->failures ||
		    hit->live != hit->at_load + e->allocs - e->frees ||
		    (after.at_load && hit->at_load != then) ||
		    hit->live_bytes != hit->live * hit->size) {
			snprintf(why, sizeof(why), "%.300s: allocs %lld frees %lld live %lld at load %lld, expected %lld %lld %lld%s",
				 e->name, hit->allocs, hit->frees, hit->live,
				 hit->at_load, e->allocs, e->frees,
				 (after.at_load ? then : hit->at_load) +
				 e->allocs - e->frees,
				 after.at_load ? "" : " (objects at load not known)");
			not_ok(what, why);
		} else if (by_size && strcmp(hit->name, "-")) {
			snprintf(why, sizeof(why), "row %lld is named \"%.300s\" though names must be off",
				 hit->id, hit->name);
			not_ok(what, why);
		} else {
			pass(what);
		}
	}

	/* No row of the second merged cache's name when they merged. */
	if (!by_size && merged == 1) {
		found = 0;
		for (j = 0; j < after.n; j++)
			found += !strcmp(after.row[j].name, "mstat_ct_merge_b");
		if (found)
			not_ok("merged", "a row for mstat_ct_merge_b, which SLUB merged into mstat_ct_merge_a");
		else
			pass("merged");
	}
	if (want_reuse && same_addr != 1)
		not_ok("reused", "the re-created cache did not get the destroyed one's address: the hazard was not tested");
	else if (want_reuse)
		pass("reused");

	/* Names: all known, or (-n) none. */
	if (after.named != !by_size) {
		snprintf(why, sizeof(why), "caches_named %lld", after.named);
		not_ok("names", why);
	} else {
		for (j = 0; j < after.n && (!by_size || !strcmp(after.row[j].name, "-")); j++)
			;
		if (j < after.n) {
			snprintf(why, sizeof(why), "row %lld named \"%.300s\"",
				 after.row[j].id, after.row[j].name);
			not_ok("names", why);
		} else {
			pass("names");
		}
	}

	/* The table filled; what got no row is in the overflow. */
	for (j = 0; j < after.n; j++) {
		struct row *r = &after.row[j];

		if (r->used || !is_many(r, by_size))
			continue;
		r->used = true;
		many_rows++;
		mine_allocs += r->allocs;
		if (r->allocs != 1 || r->frees != 1 || strcmp(r->state, "gone")) {
			snprintf(why, sizeof(why), "row %lld (%.300s): allocs %lld frees %lld %.7s, expected 1 1 gone",
				 r->id, r->name, r->allocs, r->frees, r->state);
			not_ok("many-row", why);
		}
	}
	d_over = after.over[0] - before.over[0];
	/* What the source counted that none of the test's caches made. */
	bg = after.cache_allocs - before.cache_allocs - mine_allocs -
	     (many - many_rows);
	printf("# many: %lld caches, %lld got rows, overflow +%lld allocs, rows used %lld of %lld\n",
	       many, many_rows, d_over, after.used, after.rows);
	if (after.used != after.rows || many_rows >= many) {
		snprintf(why, sizeof(why), "the table did not fill: %lld of %lld rows, %lld of %lld caches got rows",
			 after.used, after.rows, many_rows, many);
		not_ok("overflow", why);
	} else if (d_over < many - many_rows ||
		   d_over - (many - many_rows) > bg) {
		snprintf(why, sizeof(why), "overflow +%lld allocs for %lld caches without a row (background of the source: %lld)",
			 d_over, many - many_rows, bg);
		not_ok("overflow", why);
	} else {
		pass("overflow");
	}
	return nfailed ? 1 : 0;
}
