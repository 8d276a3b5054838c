/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mstat leaks' own: the state its files share (struct mstat_leaks) and
 * what each gives the others, as bpftool's main.h does for its commands
 * (what mstat serve uses too: leaks_cache.h, leaks_prom.h).
 * The method is stated at the top of leaks.c. Its files, from the
 * command down (each calls only files below it):
 *
 *   leaks.c         do_leaks(): watch or replay, judge, report
 *   leaks_watch.c   the watch: a read every --interval, kept with --save;
 *                   on a terminal its progress; SIGINT; --until-sure
 *   leaks_save.c    one read of both files; a --save directory, and
 *                   --from's replay of it
 *   leaks_out.c     the verdict as text and JSON; a watch's progress
 *   leaks_prom.c    the verdict as Prometheus text; mstat serve's
 *                   series of the caches' window and of the history
 *   leaks_labels.c  a stack's labels in every form; the suspects' order
 *   leaks_stack.c   the stack tier: samples, lifetimes, leak-like
 *                   samples, the verdict, from the watch or the history;
 *                   the cross check with caches; both tiers judged
 *   leaks_cgroup.c  the cgroups' paths as the watch saw them
 *   leaks_cache.c   the per-cache series (their trend: stats.c)
 */
#ifndef MSTAT_LEAKS_INT_H
#define MSTAT_LEAKS_INT_H

#include <stdbool.h>
#include <stdio.h>
#include <time.h>

#include "leaks_cache.h"
#include "opts.h"
#include "parse.h"
#include "stats.h"
#include "util.h"

struct mstat_cgroups;

/* The stacks (leaks_stack.c), and the whole state */

struct mstat_leak_obj {
	double birth;			/* CLOCK_MONOTONIC s */
	long long bytes;
};

/* A row: a stack with one set of labels, and its live samples. */
struct mstat_leak_row {
	int stack;
	long long cgroup, node;
	char *cache;			/* NULL: unknown */
	struct mstat_leak_obj *obj;	/* as of read @seen, by birth */
	size_t n, cap;
	int seen;
	/*
	 * The read being taken: the live samples of every row of the file
	 * that is this one (a stack cut at its interrupt's entry is the
	 * same stack whatever it interrupted), as of read @now.
	 */
	struct mstat_leak_obj *pend;
	size_t pn, pcap;
	int now;
	/* Sampled since the counts began, less entries dropped (2.5). */
	long long frees;
};

struct mstat_leak_stack {
	char *site;
	char **frame;
	size_t nframe;
	double *life;			/* lifetimes of its sampled frees, s */
	size_t nlife, lifecap;
	/* The verdict, from here to the end: cleared at each judgement. */
	int k, later;
	double min_age;			/* A: leak-like from this age, s */
	double rate, low, high, oldest, usual, bytes;
	double bytes2, wmax;		/* sum of squared weights, largest */
	double cache_frac;		/* of @bytes, in @cache */
	/*
	 * From the history (format 2.4): its sampled frees since the counts
	 * began, the horizon its churn sets in one read, and what its
	 * leak-like samples' births say against a steady leak's
	 * (mstat_leak_judge_history()).
	 */
	long long frees;
	double churn;
	bool stopped, slowing, crowded;
	bool judged, suspect, contradicted, filling, lazy;
	const char *cache;		/* the cache of most leak-like bytes */
};

struct mstat_leaks {
	const struct mstat_opts *o;
	struct mstat_leak_window *w;
	struct mstat_strmap stackmap, rowmap;
	struct mstat_leak_stack *st;
	int nst, stcap;
	struct mstat_leak_row *row;
	int nrow, rowcap;
	int *by_stack, *stack_at;	/* rows by stack: mstat_leak_group() */
	int reads;
	double t0, t1;			/* first and last read */
	double tprev;			/* the read before, while reading one */
	/*
	 * The stack tier's times: the reads' times corrected to the
	 * module's clock (mstat_leak_align()), first, last and the one
	 * before; @corr the correction, @tol the births' tolerance.
	 */
	double s0, s1, sprev, corr, tol;
	/*
	 * The samples tell of every birth since @sv: the watch's start, or
	 * the read before the last one after which the module dropped
	 * entries of its address table without their frees (addr_phantoms
	 * grew: a source switched off or on, a free probe that missed
	 * calls, a reset). @phantoms: addr_phantoms of the last read (-1:
	 * not given); @lost: this read's is above it, so the samples gone
	 * since the last read may not have been freed; @restarts: how many
	 * times so.
	 */
	double sv;
	long long phantoms;
	bool lost;
	int restarts;
	long long rate;			/* sample_rate of the last read */
	/*
	 * The reads gave the profile's history (format 2.4): @sv is then its
	 * start, on the reads' clock, not the watch's, and @counts the
	 * seconds the last read's counts cover (its counts_ms).
	 */
	bool history;
	double counts;
	bool ages;			/* the sites files had live lines (2.2) */
	bool judged;			/* a cache's exact counts judged */
	bool interrupted;		/* the watch ended by SIGINT or SIGTERM */
	int planned;			/* the reads the watch was to take */
	struct mstat_cgroups *cg;
	/*
	 * The cgroups' paths, by id, as they were during the watch: learnt
	 * from this host's tree at each read that names a cgroup not known
	 * yet (mstat_leak_cg_learn()), and kept with --save in DIR/cgroups,
	 * from which --from takes them; --from never looks at this host's
	 * tree, whose ids are not the watched host's (another boot, another
	 * machine). @cg_walk: the read of the last walk of the tree; @cgf:
	 * DIR/cgroups of --save.
	 */
	long long *cg_id;
	char **cg_path;
	int ncg, cgcap, cg_walk;
	FILE *cgf;
};

/* leaks_cgroup.c */

void mstat_leak_cg_learn(struct mstat_leaks *lk, long long id);
bool mstat_leak_cg_load(struct mstat_leaks *lk, const char *dir);
const char *mstat_leak_cg_label(const struct mstat_leaks *lk,
				long long id, char *buf, size_t len);

/* leaks_stack.c */

void mstat_leak_sites(struct mstat_leaks *lk,
		      const struct mstat_sites *ss, double t);
bool mstat_leak_like(const struct mstat_leaks *lk,
		     const struct mstat_leak_obj *o, double min_age);
void mstat_leak_judge_stack(struct mstat_leaks *lk, int si);
void mstat_leak_cross(struct mstat_leaks *lk);
int mstat_leak_judge(struct mstat_leaks *lk);
void mstat_leaks_free(struct mstat_leaks *lk);

/* leaks_save.c */

bool mstat_leak_read(struct mstat_leaks *lk, const char *mpath,
		     const char *spath, double t);
bool mstat_leak_copy(const char *src, const char *dst, struct timespec *when);
int mstat_leak_from(struct mstat_leaks *lk, const char *dir);

/* leaks_watch.c */

int mstat_leak_watch(struct mstat_leaks *lk);

/* leaks_out.c */

int mstat_leak_report(struct mstat_leaks *lk, int *suspects);
void mstat_leak_progress(const struct mstat_leaks *lk, int planned);

/* leaks_prom.c */

/*
 * The verdict of @lk as Prometheus text into @f: its suspect stacks @ord
 * (@ns, sorted) and caches @cs (@ncs).
 */
void mstat_leak_prom_verdict(FILE *f, struct mstat_leaks *lk, const int *ord,
			     int ns, struct mstat_leak_cache **cs, int ncs);

/* leaks_labels.c */

/* Does row @rw hold a leak-like sample of its stack? */
bool mstat_leak_row_counts(const struct mstat_leaks *lk,
			   const struct mstat_leak_row *rw);

/* What mstat_leak_labels() lists. */
enum {
	MSTAT_LEAK_CGROUPS,
	MSTAT_LEAK_NODES,
	MSTAT_LEAK_CACHES,
	/* What a fleet knows the cgroups by (mstat_cgroup_tags()). */
	MSTAT_LEAK_CONTAINERS,	/* RUNTIME:ID, or ID; in words, 12 digits */
	MSTAT_LEAK_PODS,	/* pod UIDs */
	MSTAT_LEAK_UNITS,	/* systemd units */
};

/*
 * How mstat_leak_labels() writes: words ("-" for none), JSON, or words
 * with whole container ids and nothing for none (a Prometheus label).
 */
enum { MSTAT_LEAK_FMT_TEXT, MSTAT_LEAK_FMT_JSON, MSTAT_LEAK_FMT_WORDS };

/*
 * The labels of stack @si's leak-like samples, each once, as @fmt
 * gives, into @f: @which MSTAT_LEAK_*.
 */
void mstat_leak_labels(FILE *f, struct mstat_leaks *lk, int si, int which,
		       int fmt);
/* Stacks @ord (@ns of them) sorted: by the low end of their rate. */
void mstat_leak_sort(const struct mstat_leaks *lk, int *ord, int ns);

#endif /* MSTAT_LEAKS_INT_H */
