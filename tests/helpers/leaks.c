// SPDX-License-Identifier: GPL-2.0
/*
 * leaks - the judge of `mstat leaks` (scripts/guest/leaks.sh): its JSON
 * verdict against what mstat_leaktest (tests/leaks/) says it did.
 *
 *	leaks [-f|-o] TRUTH JSON EXIT
 *	leaks -n NAME TRUTH JSON	(exit 0 if leak NAME is named)
 *	leaks -s TRUTH JSON		(the verdict scored, below)
 *	leaks -b			(the busy workload, until killed)
 *	leaks -d CONTROL		(the cgroup leak's driver, below)
 *
 * TRUTH is the module's truth file read after the watch, JSON the output
 * of `mstat leaks --json`, EXIT its exit status. For every leak of the
 * truth that ran (tests/leaks/mstat_leaktest.c: name, function, cache,
 * cgroup, rate):
 *
 *	leaks-NAME-named	one stack suspect, and only one, whose call
 *				site is the leak's function
 *	leaks-NAME-cache	its caches hold the leak's cache (a cache
 *				SLUB merged others into is named by all, and
 *				the leak's is one of them)
 *	leaks-NAME-cgroup	its cgroups hold the leak's cgroup
 *	leaks-NAME-rate		rate_low_bps <= the leak's rate <= rate_high_bps
 *	leaks-NAME-cache-tier	(a leak in a cache of its own, not a kmalloc
 *				one) a cache suspect of that cache whose
 *				interval holds the rate
 *	leaks-NAME-pace		the module kept its rate: allocated bytes
 *				over the time it ran within 5% (and an object)
 *				of the rate it reports
 *
 * and for the whole verdict:
 *
 *	leaks-json		the JSON parses, version 1, a suspects array
 *	leaks-exit		EXIT is 1 (0 with -f)
 *	leaks-no-false-stack	every stack suspect is a leak's site
 *	leaks-no-false-cache	every cache suspect is a leak's cache
 *	leaks-no-decoy-unexplained	no "unexplained" entry names a decoy's
 *				cache or function (others are printed)
 *	leaks-decoys-ran	every decoy that ran allocated and freed
 *	leaks-free-none		(-f) no suspect at all
 *
 * -o judges one read from the module's history (`mstat leaks --once`):
 * the caches' exact counts judge nothing in one read, so no
 * leaks-NAME-cache-tier; and the history's decoys that keep all they
 * allocate (the truth's kind "hold": keep, early, warm) never free, so
 * leaks-decoys-ran asks only that each allocated.
 *
 * -s scores a verdict for the side-by-side (scripts/sidebyside.sh): one
 * line "score: named=A,B stack_true=N stack_false=N cache_true=N
 * cache_false=N false=SITE;CACHE;...", named the leaks of the truth that
 * one stack suspect names (as -n), a stack suspect true when its call
 * site is a leak's function, a cache suspect true when it is a leak's
 * cache (a leak in a kmalloc cache makes that cache grow), false the
 * others' sites and caches, ";" between them (a merged cache's label
 * has commas), "-" for none.
 *
 * The guest's own tasks grow too: the test's processes born since mstat
 * loaded and still live (the busy workload, the cgroup leak's driver,
 * the watching mstat) each hold a thread stack allocated by the fork
 * that made it, kernel_clone() from the clone syscall, and a watch that
 * ends a minute later may find that stack's few samples a steady growth
 * since the history began, which it is. The guest counts them beside
 * the watch (a line "tasks N CPUS" after the module's truth:
 * scripts/guest/lib.sh's tasks_since()), and a stack suspect whose stack
 * is such a fork's is judged against that count, not as a leak's:
 *
 *	leaks-tasks-bound	its low end over its exposure is at most
 *				the thread stacks those tasks and the
 *				per-CPU cache of exited tasks' stacks (two
 *				a CPU) hold, TASK_STACK bytes each
 *
 * and is neither a leak's nor a false suspect; without the line, it is
 * a false one.
 *
 * A leak in a kmalloc cache may also have its cache named as a suspect:
 * that cache does grow. Prints "ok NAME" or "not ok NAME: WHY" per check
 * and "# " lines; exits 1 if a check failed, 2 on bad input.
 *
 * The JSON reader is leaks_json.c; the two workloads, leaks_load.c:
 *
 * -b, the busy workload of the watches, in one process that never forks
 * (a fork's thread stack, when the per-CPU cache of two misses, is
 * vmalloc()ed, and a fresh guest's vmap_area pool then fills for minutes:
 * scripts/guest/leaks.sh): every 20 ms, eight files made, written and removed in
 * /tmp, /proc/meminfo, /proc/self/status and /proc/slabinfo read, four
 * files of /sys read (the same each round), a pipe written and read,
 * 1 MiB mapped, touched and unmapped. -d CONTROL writes "cgroup" to
 * CONTROL every 100 ms, without forking either, until a write fails
 * (the module's "stop"): the allocations run in its context, so in its
 * cgroup.
 */
#define _DEFAULT_SOURCE		/* POSIX 2008 */

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../tools/mstat/util.h"
#include "leaks_json.h"
#include "leaks_load.h"

/* A frame's function: "f+0x1a/0x40 [mod]" is "f". */
static void fname(const char *frame, char *out, size_t len)
{
	size_t n = strcspn(frame, "+ ");

	if (n >= len)
		n = len - 1;
	memcpy(out, frame, n);
	out[n] = '\0';
}

/* A stack suspect's call site's function. */
static void site_fn(const struct jval *s, char *out, size_t len)
{
	const char *site = jstr(s, "site");
	struct jval *st = jget(s, "stack");

	if (!site && st && st->type == J_ARR && st->kids &&
	    st->kids->type == J_STR)
		site = st->kids->str;
	fname(site ? site : "", out, len);
}

/* The truth. */
#define MAX_PAT	32

struct pattern {
	char name[32], kind[8], fn[128], cache[128], cgroup[256];
	int running;
	unsigned long long size, rate, allocs, frees, live_bytes, since_ms;
};

static struct pattern pat[MAX_PAT];
static int npat, nfailed;
static bool once;		/* -o */

/*
 * The guest's tasks born since mstat's load and live at the watch's end
 * (the watching mstat among them), and its CPUs: -1 without a "tasks"
 * line. A thread stack is THREAD_SIZE, 16 KiB on x86-64 and arm64
 * without KASAN (the guests' kernels).
 */
#define TASK_STACK	16384
#define CACHED_STACKS	2	/* kernel/fork.c's NR_CACHED_STACKS */
static long long bg_tasks = -1, bg_cpus;

static void pass(const char *name)
{
	printf("ok %s\n", name);
}

static MSTAT_PRINTF(2, 3)
void not_ok(const char *name, const char *fmt, ...)
{
	va_list ap;

	nfailed++;
	printf("not ok %s: ", name);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

static void read_truth(const char *path)
{
	FILE *f = fopen(path, "r");
	char line[1024];

	if (!f) {
		fprintf(stderr, "leaks: %s: %s\n", path, strerror(errno));
		exit(2);
	}
	if (!fgets(line, sizeof(line), f) ||
	    strncmp(line, "mstat_leaktest 1 ", 17)) {
		fprintf(stderr, "leaks: %s: not a mstat_leaktest truth (version 1)\n",
			path);
		exit(2);
	}
	while (fgets(line, sizeof(line), f) && npat < MAX_PAT) {
		struct pattern *p = &pat[npat];

		if (!strncmp(line, "tasks ", 6)) {
			if (sscanf(line, "tasks %lld %lld", &bg_tasks,
				   &bg_cpus) != 2 || bg_tasks < 0 ||
			    bg_cpus < 0) {
				fprintf(stderr, "leaks: %s: bad line: %s",
					path, line);
				exit(2);
			}
			continue;
		}
		if (sscanf(line, "%31s %7s %d %127s %127s %255s %llu %llu %llu %llu %llu %llu",
			   p->name, p->kind, &p->running, p->fn, p->cache,
			   p->cgroup, &p->size, &p->rate, &p->allocs,
			   &p->frees, &p->live_bytes, &p->since_ms) != 12) {
			fprintf(stderr, "leaks: %s: bad line: %s", path, line);
			exit(2);
		}
		npat++;
	}
	fclose(f);
	if (!npat) {
		fprintf(stderr, "leaks: %s: no pattern\n", path);
		exit(2);
	}
}

static char *read_file(const char *path)
{
	FILE *f = fopen(path, "r");
	size_t cap = 1 << 16, n = 0, r;
	char *buf;

	if (!f) {
		fprintf(stderr, "leaks: %s: %s\n", path, strerror(errno));
		exit(2);
	}
	buf = xalloc(cap + 1);
	while ((r = fread(buf + n, 1, cap - n, f)) > 0) {
		n += r;
		if (n == cap) {
			char *t = realloc(buf, 2 * cap + 1);

			if (!t) {
				fprintf(stderr, "leaks: out of memory\n");
				exit(2);
			}
			buf = t;
			cap *= 2;
		}
	}
	fclose(f);
	buf[n] = '\0';
	return buf;
}

static bool is_leak(const struct pattern *p)
{
	return p->running && !strcmp(p->kind, "leak");
}

static bool is_decoy(const struct pattern *p)
{
	return p->running &&
	       (!strcmp(p->kind, "decoy") || !strcmp(p->kind, "hold"));
}

/* The stack suspects whose site is @fn: how many, and the last. */
static int find_stack(struct jval *sus, const char *fn, struct jval **found)
{
	struct jval *s;
	char f[128];
	int n = 0;

	for (s = sus ? sus->kids : NULL; s; s = s->next) {
		const char *kind = jstr(s, "kind");

		if (!kind || strcmp(kind, "stack"))
			continue;
		site_fn(s, f, sizeof(f));
		if (!strcmp(f, fn)) {
			*found = s;
			n++;
		}
	}
	return n;
}

static struct jval *find_cache(struct jval *sus, const char *cache)
{
	struct jval *s;

	for (s = sus ? sus->kids : NULL; s; s = s->next) {
		const char *kind = jstr(s, "kind"), *c = jstr(s, "cache");

		if (kind && !strcmp(kind, "cache") && c && names_has(c, cache))
			return s;
	}
	return NULL;
}

static bool rate_in(const struct jval *s, double rate, double *lo,
		    double *hi)
{
	return jnum(s, "rate_low_bps", lo) && jnum(s, "rate_high_bps", hi) &&
	       *lo <= rate && rate <= *hi;
}

static void judge_leak(struct pattern *p, struct jval *sus)
{
	struct jval *s = NULL;
	char name[96];
	double lo = 0, hi = 0, est = 0, k = 0, ms = p->since_ms ? p->since_ms : 1;
	double done = (double)p->allocs * p->size;
	double want = p->rate * ms / 1000.0;
	int n;

	snprintf(name, sizeof(name), "leaks-%.31s-pace", p->name);
	if (done >= 0.95 * want - p->size && done <= 1.05 * want + p->size)
		pass(name);
	else
		not_ok(name, "%.0f bytes in %.0f ms, the rate says %.0f", done,
		       ms, want);

	n = find_stack(sus, p->fn, &s);
	snprintf(name, sizeof(name), "leaks-%.31s-named", p->name);
	if (n == 1)
		pass(name);
	else
		not_ok(name, "%d stack suspects at %s", n, p->fn);
	if (n < 1) {
		static const char *const what[] = { "cache", "cgroup", "rate" };

		for (n = 0; n < 3; n++) {
			snprintf(name, sizeof(name), "leaks-%.31s-%s", p->name,
				 what[n]);
			not_ok(name, "not named");
		}
	} else {
		if (!jnum(s, "rate_bps", &est))
			est = -1;
		if (!jnum(s, "samples", &k))
			k = -1;
		if (!jnum(s, "rate_low_bps", &lo))
			lo = -1;
		if (!jnum(s, "rate_high_bps", &hi))
			hi = -1;
		printf("# %s: %s rate %.0f [%.0f, %.0f] samples %.0f cgroups %s",
		       p->name, p->fn, est, lo, hi, k, jlist_str(s, "cgroups"));
		printf(" caches %s; truth %llu B/s %s %s\n",
		       jlist_str(s, "caches"), p->rate, p->cgroup, p->cache);
		snprintf(name, sizeof(name), "leaks-%.31s-cache", p->name);
		if (jhas(s, "caches", p->cache))
			pass(name);
		else
			not_ok(name, "caches %s, not %s", jlist_str(s, "caches"),
			       p->cache);
		snprintf(name, sizeof(name), "leaks-%.31s-cgroup", p->name);
		if (jhas(s, "cgroups", p->cgroup))
			pass(name);
		else
			not_ok(name, "cgroups %s, not %s",
			       jlist_str(s, "cgroups"), p->cgroup);
		snprintf(name, sizeof(name), "leaks-%.31s-rate", p->name);
		if (rate_in(s, p->rate, &lo, &hi))
			pass(name);
		else
			not_ok(name, "%llu B/s not in [%.0f, %.0f]", p->rate, lo,
			       hi);
	}
	if (!strncmp(p->cache, "kmalloc-", 8) || once)
		return;
	snprintf(name, sizeof(name), "leaks-%.31s-cache-tier", p->name);
	s = find_cache(sus, p->cache);
	if (!s)
		not_ok(name, "no cache suspect %s", p->cache);
	else if (rate_in(s, p->rate, &lo, &hi))
		pass(name);
	else
		not_ok(name, "%s: %llu B/s not in [%.0f, %.0f]", p->cache,
		       p->rate, lo, hi);
}

/* A leak that ran has @fn as its function (@cache: as its cache). */
static bool leak_fn(const char *fn)
{
	int i;

	for (i = 0; i < npat; i++)
		if (is_leak(&pat[i]) && !strcmp(pat[i].fn, fn))
			return true;
	return false;
}

static bool leak_cache(const char *cache)
{
	int i;

	for (i = 0; i < npat; i++)
		if (is_leak(&pat[i]) && names_has(cache, pat[i].cache))
			return true;
	return false;
}

static const struct pattern *decoy_of(const char *fn, const char *cache)
{
	int i;

	for (i = 0; i < npat; i++)
		if (is_decoy(&pat[i]) &&
		    ((fn && !strcmp(pat[i].fn, fn)) ||
		     (cache && names_has(cache, pat[i].cache))))
			return &pat[i];
	return NULL;
}

/*
 * Is stack suspect @s a user task's fork: kernel_clone() called by a
 * clone, clone3, fork or vfork syscall's function (__do_sys_clone on
 * x86-64, __arm64_sys_clone on arm64), not kthreadd's kernel_thread(),
 * whose kernel threads the guest does not count?
 */
static bool is_fork(const struct jval *s)
{
	struct jval *st = jget(s, "stack"), *e;
	bool clone = false;
	char f[128];

	for (e = st && st->type == J_ARR ? st->kids : NULL; e; e = e->next) {
		if (e->type != J_STR)
			continue;
		fname(e->str, f, sizeof(f));
		if (!strcmp(f, "kernel_clone"))
			clone = true;
		else if (clone && (strstr(f, "sys_clone") ||
				   strstr(f, "sys_fork") || strstr(f, "sys_vfork")))
			return true;
	}
	return false;
}

/*
 * A fork's stack suspect @s of verdict @root within what the guest's
 * tasks hold: its low end times its exposure (the history less its
 * churn's horizon, or the span of its samples' births and the gap a
 * steady leak leaves before the oldest, whichever is shorter: the
 * tool's), at most the tasks' and the cached stacks' bytes.
 */
static bool fork_bounded(const struct jval *root, const struct jval *s,
			 bool say)
{
	double h, a = 0, old, k, low, te, most;

	if (bg_tasks < 0 || !jnum(root, "history_s", &h) ||
	    !jnum(s, "oldest_s", &old) || !jnum(s, "samples", &k) || k < 1 ||
	    !jnum(s, "rate_low_bps", &low))
		return false;
	jnum(s, "churn_horizon_s", &a);
	te = h - a;
	if ((old - a) * (k + 1) / k < te)
		te = (old - a) * (k + 1) / k;
	most = (double)(bg_tasks + CACHED_STACKS * bg_cpus) * TASK_STACK;
	if (say)
		printf("# the guest's tasks: %s, %.0f bytes at its low end over %.0f s, %lld tasks and %lld CPUs hold %.0f at most\n",
		       jstr(s, "site"), low * te, te, bg_tasks, bg_cpus,
		       most);
	return low * te <= most;
}

/* Is suspect @s the guest's tasks within their bound, not a leak's? */
static bool is_tasks(const struct jval *root, const struct jval *s)
{
	const char *kind = jstr(s, "kind");
	char f[128];

	if (!kind || strcmp(kind, "stack") || !is_fork(s))
		return false;
	site_fn(s, f, sizeof(f));
	return !leak_fn(f) && fork_bounded(root, s, false);
}

/* The stack suspects that are the guest's tasks within their bound. */
static int judge_tasks(const struct jval *root, struct jval *sus)
{
	int n = 0, bad = 0;
	struct jval *s;
	char f[128];

	for (s = sus ? sus->kids : NULL; s; s = s->next) {
		const char *kind = jstr(s, "kind");

		if (!kind || strcmp(kind, "stack") || !is_fork(s))
			continue;
		site_fn(s, f, sizeof(f));
		if (leak_fn(f) || bg_tasks < 0)
			continue;
		if (fork_bounded(root, s, true))
			n++;
		else
			bad++;
	}
	if (bad)
		not_ok("leaks-tasks-bound", "%d of %d", bad, n + bad);
	else if (n)
		pass("leaks-tasks-bound");
	return n;
}

static void judge_false(const struct jval *root, struct jval *sus,
			struct jval *unex)
{
	int bad_stack = 0, bad_cache = 0, bad_unex = 0;
	struct jval *s;
	char f[128];

	for (s = sus ? sus->kids : NULL; s; s = s->next) {
		const char *kind = jstr(s, "kind"), *c = jstr(s, "cache");

		if (kind && !strcmp(kind, "stack")) {
			site_fn(s, f, sizeof(f));
			if (is_tasks(root, s))
				continue;	/* judge_tasks()'s */
			if (!leak_fn(f)) {
				printf("# false stack suspect: %s, caches %s\n",
				       f, jlist_str(s, "caches"));
				bad_stack++;
			}
		} else if (!c || !leak_cache(c)) {
			printf("# false cache suspect: %s\n", c ? c : "(none)");
			bad_cache++;
		}
	}
	if (bad_stack)
		not_ok("leaks-no-false-stack", "%d", bad_stack);
	else
		pass("leaks-no-false-stack");
	if (bad_cache)
		not_ok("leaks-no-false-cache", "%d", bad_cache);
	else
		pass("leaks-no-false-cache");

	for (s = unex ? unex->kids : NULL; s; s = s->next) {
		const char *c = jstr(s, "cache"), *why = jstr(s, "why");
		const struct pattern *d;

		f[0] = '\0';
		if (jstr(s, "site"))
			fname(jstr(s, "site"), f, sizeof(f));
		d = decoy_of(f[0] ? f : NULL, c);
		printf("# unexplained: %s %s (%s)%s%s\n",
		       jstr(s, "kind") ? jstr(s, "kind") : "?",
		       c ? c : f, why ? why : "", d ? ": decoy " : "",
		       d ? d->name : "");
		bad_unex += !!d;
	}
	if (bad_unex)
		not_ok("leaks-no-decoy-unexplained", "%d", bad_unex);
	else
		pass("leaks-no-decoy-unexplained");
}

/* A suspect of -s's: is it a leak's? Its site or cache into @what. */
static bool score_true(struct jval *s, char *f, size_t len, const char **what)
{
	const char *kind = jstr(s, "kind"), *c = jstr(s, "cache");

	if (kind && !strcmp(kind, "stack")) {
		site_fn(s, f, len);
		*what = f;
		return leak_fn(f);
	}
	*what = c ? c : "(none)";
	return c && leak_cache(c);
}

/*
 * -s: one line that scores the verdict; the guest's tasks within their
 * bound (judge_tasks()) are neither true nor false: tasks=N.
 */
static void score_line(const struct jval *root, struct jval *sus)
{
	int n[2][2] = { { 0 } }, i, k = 0, tasks = 0;
	const char *kind, *what;
	struct jval *s;
	char f[128];

	printf("score: named=");
	for (i = 0; i < npat; i++)
		if (is_leak(&pat[i]) && sus &&
		    find_stack(sus, pat[i].fn, &s) == 1)
			printf("%s%s", k++ ? "," : "", pat[i].name);
	if (!k)
		printf("-");
	for (s = sus ? sus->kids : NULL; s; s = s->next) {
		bool cache;

		kind = jstr(s, "kind");
		cache = !kind || strcmp(kind, "stack");
		if (!cache && is_tasks(root, s))
			tasks++;
		else
			n[cache][score_true(s, f, sizeof(f), &what)]++;
	}
	printf(" stack_true=%d stack_false=%d cache_true=%d cache_false=%d tasks=%d false=",
	       n[0][1], n[0][0], n[1][1], n[1][0], tasks);
	k = 0;
	for (s = sus ? sus->kids : NULL; s; s = s->next)
		if (!is_tasks(root, s) && !score_true(s, f, sizeof(f), &what))
			printf("%s%s", k++ ? ";" : "", what);
	printf("%s\n", k ? "" : "-");
}

/* A decoy that never frees until "stop" (kind "hold"), in a one-read judge. */
static bool holds(const struct pattern *p)
{
	return once && !strcmp(p->kind, "hold");
}

static void judge_decoys(void)
{
	int i, ran = 0, idle = 0;

	for (i = 0; i < npat; i++) {
		if (!is_decoy(&pat[i]))
			continue;
		ran++;
		if (!pat[i].allocs || (!pat[i].frees && !holds(&pat[i]))) {
			printf("# decoy %s: %llu allocs %llu frees\n",
			       pat[i].name, pat[i].allocs, pat[i].frees);
			idle++;
		}
	}
	if (idle)
		not_ok("leaks-decoys-ran", "%d of %d did nothing", idle, ran);
	else
		pass("leaks-decoys-ran");
}

static void help(void)
{
	fprintf(stderr, "usage: leaks [-f|-o] TRUTH JSON EXIT\n"
			"       leaks -n NAME TRUTH JSON | -s TRUTH JSON\n"
			"       leaks -b | -d CONTROL\n");
	exit(2);
}

int main(int argc, char **argv)
{
	const char *named = NULL;
	bool free_run = false, scored = false;
	struct jval *root, *sus, *unex, *s;
	const char *jerr;
	double version = 0;
	int i, status = -1, opt, nsus = 0, tasks, want;
	char *end;

	while ((opt = getopt(argc, argv, "bd:fn:os")) != -1) {
		switch (opt) {
		case 'b':
			busy_loop();
			return 0;
		case 'd':
			return drive(optarg);
		case 'f':
			free_run = true;
			break;
		case 'n':
			named = optarg;
			break;
		case 'o':
			once = true;
			break;
		case 's':
			scored = true;
			break;
		default:
			help();
		}
	}
	if (argc - optind != (named || scored ? 2 : 3))
		help();
	if (!named && !scored) {
		status = (int)strtol(argv[optind + 2], &end, 10);
		if (*end || end == argv[optind + 2])
			help();
	}
	read_truth(argv[optind]);
	root = jtree(read_file(argv[optind + 1]), &jerr);
	sus = jget(root, "suspects");
	unex = jget(root, "unexplained");
	if (named) {
		/* The detection table: is leak NAME named yet? */
		for (i = 0; i < npat; i++)
			if (!strcmp(pat[i].name, named))
				return !(sus && find_stack(sus, pat[i].fn, &s) == 1);
		fprintf(stderr, "leaks: no pattern %s\n", named);
		return 2;
	}
	if (scored) {
		if (jerr || root->type != J_OBJ) {
			fprintf(stderr, "leaks: %s\n", jerr ? jerr : "not an object");
			return 2;
		}
		score_line(root, sus);
		return 0;
	}
	if (jerr || root->type != J_OBJ || !jnum(root, "version", &version) ||
	    version != 1 || !sus || sus->type != J_ARR) {
		not_ok("leaks-json", "%s", jerr ? jerr :
		       "not an object of version 1 with a suspects array");
		return 1;
	}
	pass("leaks-json");
	for (s = sus->kids; s; s = s->next)
		nsus++;
	tasks = judge_tasks(root, sus);
	printf("# %d suspects (%d the guest's tasks), exit %d\n", nsus, tasks,
	       status);
	/* Leak-free but for the guest's tasks: 1 all the same. */
	want = free_run && nsus == tasks ? !!tasks : 1;
	if (status == want)
		pass("leaks-exit");
	else
		not_ok("leaks-exit", "%d, not %d", status, want);
	if (free_run) {
		if (nsus > tasks)
			not_ok("leaks-free-none", "%d suspects", nsus - tasks);
		else
			pass("leaks-free-none");
	}
	for (i = 0; i < npat; i++)
		if (is_leak(&pat[i]))
			judge_leak(&pat[i], sus);
	judge_false(root, sus, unex);
	judge_decoys();
	printf("# checks failed: %d\n", nfailed);
	return nfailed ? 1 : 0;
}
