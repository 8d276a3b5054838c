// SPDX-License-Identifier: GPL-2.0
/*
 * mstat - read, watch, export, profile and check what the mstat module
 * publishes
 *
 *   mstat [-f FILE] [--json]		the snapshot in /proc/mstat, readable
 *					(show.c) or as one JSON object (json.c)
 *   mstat top [-d SECS] [-n ITER] [-f FILE]... [--caches [--sort allocs|live]]
 *					rates per second from successive
 *					snapshots, like slabtop (top.c); by
 *					slab cache with --caches
 *   mstat prom [-f FILE] [-o FILE] [--cache-include RE]
 *	[--cache-exclude RE] [--cache-max N] [--meminfo FILE] [--sites FILE]
 *					Prometheus text format (prom.c)
 *   mstat pprof [-f FILE] [-o FILE]	/proc/mstat_sites as a gzipped pprof
 *					profile (pprof.c, gzip.c)
 *   mstat check [-n N] [-i MS] [FILE...]
 *					the invariants of each snapshot and
 *					across them (check.c)
 *   mstat serve [--listen ADDR:PORT] [--min-interval MS] [-f FILE]
 *	[--sites FILE] [--cache-include RE] [--cache-exclude RE]
 *	[--cache-max N]		/metrics and /debug/pprof/{heap,allocs}
 *					over HTTP (serve.c; serve_exec.c in
 *					the static build)
 *   mstat leaks [-d SECS] [-i SECS] [--json|--prom [-o FILE]] [--from DIR]
 *	[--save DIR] [--min-rate B] [--confidence C]
 *					what grows without bound: caches
 *					and stacks (leaks.c, leaks_*.c)
 *   mstat memory [-f FILE] [--meminfo FILE] [--kallsyms FILE]
 *	[--sites FILE] [--json]		where the memory is: one account
 *					whose lines add up to MemTotal
 *					(memory.c, pages.c)
 *
 * Every file is read by the one parser, parse.c. This file parses the
 * options and dispatches, and nothing calls into it. The files, each
 * x.c with its x.h, from the commands down:
 *
 *   main.c      options (getopt_long(), check's too) and dispatch (show,
 *               --json, prom; top, pprof, check, serve, leaks)
 *   serve.c     mstat serve: /metrics and pprof over HTTP (libmicrohttpd);
 *               serve_exec.c in its place in the static mstat: it execs
 *               mstat-serve, the dynamic build that has serve.c
 *   leaks.c     mstat leaks: what grows without bound (the method);
 *               its files below, leaks_int.h their shared state:
 *     leaks_watch.c   the watch, a read every --interval
 *     leaks_save.c    one read; --save's directory and --from's replay
 *     leaks_out.c     the verdict as text, JSON, Prometheus; serve's
 *     leaks_stack.c   the stack tier, and its check against the caches
 *     leaks_cgroup.c  the cgroups' paths as the watch saw them
 *     leaks_cache.c   the per-cache series (serve keeps one too)
 *   memory.c    mstat memory: the account of MemTotal
 *   pages.c     ... its page samples by kind and raw caller
 *   top.c       mstat top: rates from successive snapshots
 *   pprof.c     mstat pprof: /proc/mstat_sites as a pprof profile
 *   check.c     mstat check: the snapshot invariants, across reads
 *   show.c      the snapshot as text        json.c  ... as JSON, and
 *               the JSON string writer every --json output uses
 *   prom.c      ... in Prometheus's text format
 *   slab.c      SLUB's merged caches: every name of a cache
 *   cgroup.c    the cgroup2 tree: cgroup ids to paths and labels
 *   gzip.c      the gzip container, through zlib
 *   stats.c     the statistics: quantiles, robust slopes, a cache
 *               series' trend, estimates from sampled objects
 *   input.c     reading a file in one open(); the tool's read errors
 *   util.c      errors, memory, the string map, the monotonic clock and
 *               sleeping, numbers for people, output files
 *   parse.c     the parser of /proc/mstat and /proc/mstat_sites
 *   opts.h      the options main.c parses for the commands (no .c)
 *
 * Not in mstat: check_selftest.c, the checker's test, a program of the
 * test build (make check-selftest) that drives check.c; stats_selftest.c,
 * the statistics' and the shared helpers' (make stats-selftest).
 *
 * A file includes and calls only files below it in this list (or beside
 * it, as the formats are): scripts/layers.sh checks that no two units
 * depend on each other, by include or by call.
 *
 * Exit status: 0; 1 if the input is missing, unreadable, of an unknown
 * major format version, truncated or malformed, or output fails; 2 on a
 * usage error. Every error is one line on stderr. mstat check has the
 * exit status of the mstat-check it replaces (check.c); mstat leaks 0 for
 * no suspect, 1 for a suspect, 2 for any error, 3 for no verdict
 * (leaks.c).
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "input.h"
#include "json.h"
#include "leaks.h"
#include "memory.h"
#include "opts.h"
#include "parse.h"
#include "pprof.h"
#include "prom.h"
#include "serve.h"
#include "show.h"
#include "top.h"
#include "util.h"

/* Commands and options */

static void mstat_usage(FILE *f)
{
	fputs("usage: mstat [-f FILE] [--json]          the snapshot in /proc/mstat\n"
	      "       mstat top [-d SECS] [-n ITER] [-f FILE]... [--caches [--sort allocs|live]]\n"
	      "                                         rates per second, like slabtop\n"
	      "       mstat prom [-f FILE] [-o FILE] [--cache-include RE] [--cache-exclude RE]\n"
	      "                  [--cache-max N] [--meminfo FILE] [--sites FILE]\n"
	      "                                         Prometheus text format\n"
	      "       mstat pprof [-f FILE] [-o FILE]    /proc/mstat_sites as a pprof profile\n"
	      "       mstat check [-n N] [-i MS] [FILE...]\n"
	      "                                         check the snapshot invariants\n"
	      "       mstat serve [--listen ADDR:PORT] [--min-interval MS] [-f FILE]\n"
	      "                   [--sites FILE] [--cache-include RE] [--cache-exclude RE]\n"
	      "                   [--cache-max N] [--meminfo FILE]\n"
	      "                                         /metrics and /debug/pprof/ over HTTP\n"
	      "       mstat leaks [-d SECS] [-i SECS] [--json|--prom [-o FILE]] [--from DIR]\n"
	      "                   [--save DIR] [--min-rate BYTES] [--confidence C]\n"
	      "                                         what grows without bound: a verdict\n"
	      "       mstat memory [-f FILE] [--meminfo FILE] [--kallsyms FILE] [--sites FILE]\n"
	      "                    [--json]\n"
	      "                                         where the memory is: one account\n"
	      "       mstat -h|--help                    print this help\n",
	      f);
	/* In pieces: C99 compilers need take no string past 4095 bytes. */
	fputs("\n"
	      "  -f FILE  read FILE instead of /proc/mstat (/proc/mstat_sites for pprof);\n"
	      "           top takes several and reads them in turn, the last repeating\n"
	      "  -d SECS  top: seconds between snapshots (default 2; decimals allowed)\n"
	      "  -n ITER  top: print ITER frames and exit (default: until interrupted)\n"
	      "  -o FILE  prom, pprof, leaks --prom: write FILE (atomically, by rename)\n"
	      "           instead of standard output\n"
	      "  --json   print the snapshot as one JSON object\n"
	      "  --prom   leaks: the verdict as Prometheus text, for the node exporter's\n"
	      "           textfile collector (exit 0 with suspects: they are in it)\n"
	      "  -c, --caches  top: per slab cache (format 1.2)\n"
	      "  --cache-include RE, --cache-exclude RE  prom, serve: only the caches\n"
	      "           whose names match (do not match) the POSIX extended regex RE:\n"
	      "           a cache SLUB merged others into is named by all, comma-joined\n"
	      "  --cache-max N  prom, serve: at most N caches, those with the most live bytes\n"
	      "           (default 200; 0: none)\n"
	      "  --sort allocs|live  top --caches: by allocations/s (the default) or by\n"
	      "           live bytes\n"
	      "  -n N     check: read each FILE N times (default 1)\n"
	      "  -i MS    check: wait MS milliseconds between reads (default 0)\n"
	      "  --listen ADDR:PORT  serve: the address to listen on (default\n"
	      "           127.0.0.1:9754; [ADDR]:PORT for IPv6)\n"
	      "  --min-interval MS  serve: a /metrics scrape or a profile takes a new\n"
	      "           snapshot at most every MS milliseconds, else gets the last\n"
	      "           one (default 1000)\n"
	      "  --sites FILE  serve, memory, prom: read FILE instead of /proc/mstat_sites\n"
	      "           (memory reads none beside a -f FILE without it)\n"
	      "  -d, --duration SECS  leaks: watch for SECS seconds (default 600)\n"
	      "  -i, --interval SECS  leaks: read both files every SECS seconds (default 10)\n"
	      "  --from DIR  leaks: judge the reads a --save left in DIR instead of\n"
	      "           watching\n"
	      "  --save DIR  leaks: keep each read as DIR/NNNN.mstat, NNNN.sites and\n"
	      "           NNNN.time (CLOCK_MONOTONIC seconds), and SLUB's merged caches'\n"
	      "           names as slab-names\n"
	      "  --min-rate BYTES  leaks, serve: call nothing a leak that grows by fewer\n"
	      "           bytes a second, at the low end of its interval (default 0)\n"
	      "  --confidence C  leaks, serve: the intervals' confidence, in (0.5, 1)\n"
	      "           (default 0.99)\n"
	      "  --meminfo FILE  memory, prom, serve: read FILE instead of /proc/meminfo\n"
	      "           (prom and serve read none beside a -f FILE without it)\n"
	      "  --kallsyms FILE  memory: read FILE instead of /proc/kallsyms (the size\n"
	      "           of boot's first percpu chunk; none beside a -f FILE without it)\n"
	      "  -h, --help  print this help and exit\n"
	      "  Arguments: -f FILE or -fFILE, --sort live or --sort=live; the command\n"
	      "  may come after options, but check comes first.\n"
	      "\n"
	      "Examples:\n"
	      "  mstat top -d 1 -n 5\n"
	      "  mstat top --caches --sort live\n"
	      "  mstat prom -o /var/lib/prometheus/node-exporter/mstat.prom\n"
	      "  mstat pprof -o mstat.pb.gz && go tool pprof -traces mstat.pb.gz\n"
	      "  go tool pprof -tagfocus 'cgroup=^/system.slice(/|$)' -top mstat.pb.gz\n"
	      "  mstat check -n 100 -i 10\n"
	      "  mstat serve --listen 127.0.0.1:9754\n"
	      "  mstat leaks -d 600 -i 10 --json\n"
	      "  mstat memory\n"
	      "  mstat leaks --save /var/tmp/leaks -d 3600 -i 30 && mstat leaks --from /var/tmp/leaks\n"
	      "  go tool pprof -top http://127.0.0.1:9754/debug/pprof/heap\n"
	      "  systemctl enable --now mstat-textfile.timer\n"
	      "  mstat leaks --prom -o /var/lib/prometheus/node-exporter/mstat-leaks.prom\n"
	      "\n"
	      "Exit status: 0; 1 on missing, unreadable or bad input; 2 on usage errors.\n"
	      "mstat check: 0 if every invariant holds; 1 on a violation or bad input;\n"
	      "2 on usage, open or read errors.\n"
	      "mstat leaks: 0 if nothing is a suspect; 1 if something is; 2 on any error;\n"
	      "with --prom, 0 unless an error.\n",
	      f);
}

static int mstat_bad_usage(const char *what, const char *arg)
{
	mstat_err("%s%s%s (see mstat --help)", what, arg ? " " : "",
		  arg ? arg : "");
	return EXIT_USAGE;
}

/* The long options' values past every short option's character. */
enum {
	OPT_JSON = 256, OPT_PROM_OUT, OPT_SORT, OPT_CACHE_INCLUDE, OPT_CACHE_EXCLUDE,
	OPT_CACHE_MAX, OPT_LISTEN, OPT_MIN_INTERVAL, OPT_SITES, OPT_DURATION,
	OPT_FROM, OPT_SAVE, OPT_MIN_RATE, OPT_CONFIDENCE, OPT_MEMINFO,
	OPT_KALLSYMS,
};

/*
 * For getopt_long(): "-" hands over the operands (the command, mstat
 * check's FILEs) in order, as option 1, whatever POSIXLY_CORRECT says;
 * ":" reports a missing argument as ':', apart from a bad option.
 */
static const char mstat_shortopts[] = "-:hcf:o:d:n:i:";

static const struct option mstat_longopts[] = {
	{ "help", no_argument, NULL, 'h' },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "prom", no_argument, NULL, OPT_PROM_OUT },
	{ "caches", no_argument, NULL, 'c' },
	{ "sort", required_argument, NULL, OPT_SORT },
	{ "cache-include", required_argument, NULL, OPT_CACHE_INCLUDE },
	{ "cache-exclude", required_argument, NULL, OPT_CACHE_EXCLUDE },
	{ "cache-max", required_argument, NULL, OPT_CACHE_MAX },
	{ "listen", required_argument, NULL, OPT_LISTEN },
	{ "min-interval", required_argument, NULL, OPT_MIN_INTERVAL },
	{ "sites", required_argument, NULL, OPT_SITES },
	{ "duration", required_argument, NULL, OPT_DURATION },
	{ "interval", required_argument, NULL, 'i' },
	{ "from", required_argument, NULL, OPT_FROM },
	{ "save", required_argument, NULL, OPT_SAVE },
	{ "min-rate", required_argument, NULL, OPT_MIN_RATE },
	{ "confidence", required_argument, NULL, OPT_CONFIDENCE },
	{ "meminfo", required_argument, NULL, OPT_MEMINFO },
	{ "kallsyms", required_argument, NULL, OPT_KALLSYMS },
	{ NULL, 0, NULL, 0 }
};

static const char mstat_check_shortopts[] = "-:hn:i:";

static const struct option mstat_check_longopts[] = {
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

/*
 * getopt_long() returned @c, '?' or ':', for the option it stopped at:
 * say which option (as "-x" or "--name") and what is wrong with it, and
 * return EXIT_USAGE. @shortopts and @longopts are what it was given,
 * @argv its argv, @cmd "" or " for mstat check".
 */
static int mstat_bad_opt(int c, const char *shortopts,
			 const struct option *longopts, char **argv,
			 const char *cmd)
{
	const struct option *lo;
	int matches = 0;
	char name[64];
	size_t n;

	if (!optopt) {
		/* An unknown or ambiguous long option: it is the word. */
		n = strcspn(argv[optind - 1], "=");
		snprintf(name, sizeof(name), "%.*s", (int)(n < 48 ? n : 48),
			 argv[optind - 1]);
		for (lo = longopts; n > 2 && lo->name; lo++)
			matches += !strncmp(lo->name, name + 2, n - 2);
		mstat_err("%s option %s%s (see mstat --help)",
			  matches > 1 ? "ambiguous" : "unknown", name, cmd);
		return EXIT_USAGE;
	}
	/* A short option's character, unless it is known by its long name. */
	snprintf(name, sizeof(name), "-%c", optopt);
	for (lo = longopts; lo->name; lo++) {
		if (lo->val != optopt)
			continue;
		/*
		 * '?' for a known option: its long name was given an
		 * argument it does not take (--json=1). A value past 255,
		 * or a character that is no short option: it has only
		 * the long name.
		 */
		if (c == '?' || optopt > 255 || !strchr(shortopts, optopt))
			snprintf(name, sizeof(name), "--%s", lo->name);
		break;
	}
	if (c == ':')
		mstat_err("missing argument to %s%s (see mstat --help)", name,
			  cmd);
	else if (lo->name)
		mstat_err("%s takes no argument%s (see mstat --help)", name,
			  cmd);
	else
		mstat_err("unknown option %s%s (see mstat --help)", name, cmd);
	return EXIT_USAGE;
}

static bool mstat_parse_delay(const char *s, double *d)
{
	char *end;

	errno = 0;
	*d = strtod(s, &end);
	return !errno && end != s && !*end && *d > 0 && *d <= 86400;
}

/* A number in [@min, @max] into *@d, or false. */
static bool mstat_parse_rate(const char *s, double min, double max, double *d)
{
	char *end;

	errno = 0;
	*d = strtod(s, &end);
	return !errno && end != s && !*end && *d >= min && *d <= max;
}

static bool mstat_parse_iters(const char *s, long *n)
{
	char *end;

	if (*s < '1' || *s > '9')
		return false;
	errno = 0;
	*n = strtol(s, &end, 10);
	return !errno && !*end;
}

/* @s in [@min, @max] into *@n, or false. */
static bool mstat_parse_long(const char *s, long min, long max, long *n)
{
	unsigned long long v;

	if (!mstat_parse_u64(s, &v) || v < (unsigned long long)min ||
	    v > (unsigned long long)max)
		return false;
	*n = v;
	return true;
}

static int mstat_set_cmd(struct mstat_opts *o, const char *a)
{
	static const char *const names[] = {
		[CMD_TOP] = "top", [CMD_PROM] = "prom", [CMD_PPROF] = "pprof",
		[CMD_SERVE] = "serve", [CMD_LEAKS] = "leaks",
		[CMD_MEMORY] = "memory",
	};
	size_t i;

	for (i = CMD_TOP; !o->cmd_set && i < ARRAY_SIZE(names); i++) {
		if (!strcmp(a, names[i])) {
			o->cmd = i;
			o->cmd_set = true;
			return 0;
		}
	}
	return mstat_bad_usage("unexpected argument", a);
}

/* Option @c of mstat_longopts with its argument @v; 0 or an exit status. */
static int mstat_opt_arg(struct mstat_opts *o, int c, const char *v)
{
	switch (c) {
	case 'f':
		if (o->nfile == MSTAT_MAX_FILES)
			return mstat_bad_usage("too many -f", NULL);
		o->file[o->nfile++] = v;
		return 0;
	case 'o':
		o->out = v;
		return 0;
	case OPT_DURATION:
		o->duration_long = true;
		/* fall through */
	case 'd':
		o->delay_set = true;
		return mstat_parse_delay(v, &o->delay) ? 0 :
			mstat_bad_usage("-d wants seconds in (0, 86400], got", v);
	case 'n':
		o->iters_set = true;
		return mstat_parse_iters(v, &o->iters) ? 0 :
			mstat_bad_usage("-n wants a positive count, got", v);
	case 'i':
		o->leaks_opts_set = true;
		return mstat_parse_delay(v, &o->interval) ? 0 :
			mstat_bad_usage("-i wants seconds in (0, 86400], got", v);
	case OPT_MEMINFO:
		o->meminfo = v;
		return 0;
	case OPT_KALLSYMS:
		o->kallsyms = v;
		return 0;
	case OPT_FROM:
		o->from = v;
		o->leaks_opts_set = true;
		return 0;
	case OPT_SAVE:
		o->save = v;
		o->leaks_opts_set = true;
		return 0;
	case OPT_MIN_RATE:
		o->rate_opts_set = true;
		return mstat_parse_rate(v, 0, 1e15, &o->min_rate) ? 0 :
			mstat_bad_usage("--min-rate wants bytes per second, 0 or more, got", v);
	case OPT_CONFIDENCE:
		o->rate_opts_set = true;
		return mstat_parse_rate(v, 0.5, 1, &o->confidence) &&
			o->confidence > 0.5 && o->confidence < 1 ? 0 :
			mstat_bad_usage("--confidence wants a number in (0.5, 1), got", v);
	case OPT_SORT:
		if (strcmp(v, "allocs") && strcmp(v, "live"))
			return mstat_bad_usage("--sort wants allocs or live, got", v);
		o->sort_live = !strcmp(v, "live");
		o->sort_set = true;
		return 0;
	case OPT_LISTEN:
		o->listen = v;
		o->serve_opts_set = true;
		return 0;
	case OPT_SITES:
		o->sites = v;
		o->sites_set = true;
		return 0;
	case OPT_MIN_INTERVAL:
		if (!mstat_parse_long(v, 0, 3600000, &o->min_interval))
			return mstat_bad_usage("--min-interval wants 0 to 3600000 ms, got", v);
		o->serve_opts_set = true;
		return 0;
	case OPT_CACHE_INCLUDE:
		o->cache_include = v;
		break;
	case OPT_CACHE_EXCLUDE:
		o->cache_exclude = v;
		break;
	case OPT_CACHE_MAX:
		if (!mstat_parse_long(v, 0, 1000000, &o->cache_max))
			return mstat_bad_usage("--cache-max wants 0 to 1000000, got", v);
		break;
	}
	o->cache_opts_set = true;
	return 0;
}

/*
 * A watch of mstat leaks long enough for a verdict: its reads (one every
 * -i over -d, and the first) at least what the confidence asks.
 */
static int mstat_leaks_enough(const struct mstat_opts *o)
{
	long reads = (long)floor(o->duration / o->interval + 1e-9) + 1;
	int need = mstat_leak_min_reads(o->confidence);
	char what[160];

	if (need && reads >= need)
		return 0;
	if (need)
		snprintf(what, sizeof(what),
			 "mstat leaks: -d / -i gives %ld reads; a verdict at confidence %.12g needs %d",
			 reads, o->confidence, need);
	else
		snprintf(what, sizeof(what),
			 "mstat leaks: no watch can give a verdict at confidence %.12g",
			 o->confidence);
	return mstat_bad_usage(what, NULL);
}

/* Which options go with which command. */
static int mstat_check_opts(struct mstat_opts *o)
{
	if (o->json && o->cmd != CMD_SHOW && o->cmd != CMD_LEAKS &&
	    o->cmd != CMD_MEMORY)
		return mstat_bad_usage("--json goes with plain mstat, mstat leaks and mstat memory only", NULL);
	if (o->meminfo && o->cmd != CMD_MEMORY && o->cmd != CMD_PROM &&
	    o->cmd != CMD_SERVE)
		return mstat_bad_usage("--meminfo goes with mstat memory, prom and serve only", NULL);
	if (o->kallsyms && o->cmd != CMD_MEMORY)
		return mstat_bad_usage("--kallsyms goes with mstat memory only", NULL);
	if (o->prom_out && o->cmd != CMD_LEAKS)
		return mstat_bad_usage("--prom goes with mstat leaks only (see mstat prom)", NULL);
	if (o->cmd == CMD_LEAKS) {
		if (o->prom_out && o->json)
			return mstat_bad_usage("--json and --prom go apart", NULL);
		if (o->out && !o->prom_out)
			return mstat_bad_usage("-o goes with mstat leaks --prom", NULL);
		if (o->iters_set)
			return mstat_bad_usage("-n goes with mstat top only", NULL);
		if (o->nfile)
			return mstat_bad_usage("mstat leaks reads no -f (see --from)", NULL);
		if (o->from && o->save)
			return mstat_bad_usage("--from and --save go apart", NULL);
		if (o->delay_set)
			o->duration = o->delay;
		if (o->interval > o->duration)
			return mstat_bad_usage("mstat leaks: -i longer than -d", NULL);
		if (!o->from)
			return mstat_leaks_enough(o);
		return 0;
	}
	if (o->leaks_opts_set || o->duration_long)
		return mstat_bad_usage("-i, --duration, --from and --save go with mstat leaks only", NULL);
	if (o->rate_opts_set && o->cmd != CMD_SERVE)
		return mstat_bad_usage("--min-rate and --confidence go with mstat leaks and serve only", NULL);
	if ((o->delay_set || o->iters_set) && o->cmd != CMD_TOP)
		return mstat_bad_usage("-d goes with mstat top and leaks, -n with top only", NULL);
	if (o->out && o->cmd != CMD_PROM && o->cmd != CMD_PPROF)
		return mstat_bad_usage("-o goes with prom and pprof only", NULL);
	if (o->nfile > 1 && o->cmd != CMD_TOP)
		return mstat_bad_usage("several -f go with mstat top only", NULL);
	if ((o->caches || o->sort_set) && o->cmd != CMD_TOP)
		return mstat_bad_usage("--caches and --sort go with mstat top only", NULL);
	if (o->sort_set && !o->caches)
		return mstat_bad_usage("--sort goes with --caches", NULL);
	if (o->cache_opts_set && o->cmd != CMD_PROM && o->cmd != CMD_SERVE)
		return mstat_bad_usage("--cache-* go with mstat prom and serve only", NULL);
	if (o->sites_set && o->cmd != CMD_SERVE && o->cmd != CMD_MEMORY &&
	    o->cmd != CMD_PROM)
		return mstat_bad_usage("--sites goes with mstat serve, memory and prom only", NULL);
	if (o->serve_opts_set && o->cmd != CMD_SERVE)
		return mstat_bad_usage("--listen and --min-interval go with mstat serve only", NULL);
	if (!o->nfile)
		o->file[o->nfile++] = o->cmd == CMD_PPROF ? MSTAT_SITES_PROC :
							   MSTAT_PROC;
	return 0;
}

/*
 * Every command but check: its options, "--opt value" or "--opt=value",
 * and its name, in any order. Returns 0, an exit status, or -1 for --help.
 */
static int mstat_parse_args(struct mstat_opts *o, int argc, char **argv)
{
	int c, err = 0;

	opterr = 0;
	while (!err && (c = getopt_long(argc, argv, mstat_shortopts,
					mstat_longopts, NULL)) != -1) {
		switch (c) {
		case 'h':
			return -1;
		case OPT_JSON:
			o->json = true;
			break;
		case OPT_PROM_OUT:
			o->prom_out = true;
			break;
		case 'c':
			o->caches = true;
			break;
		case 1:
			err = mstat_set_cmd(o, optarg);
			break;
		case '?':
		case ':':
			return mstat_bad_opt(c, mstat_shortopts, mstat_longopts,
					     argv, "");
		default:
			err = mstat_opt_arg(o, c, optarg);
		}
	}
	/* After "--": operands only. */
	for (; !err && optind < argc; optind++)
		err = mstat_set_cmd(o, argv[optind]);
	return err ? err : mstat_check_opts(o);
}

/*
 * mstat check [-n N] [-i MS] [FILE...], @argv[0] being "check": its own
 * options, as mstat-check had them. Returns 0, an exit status, or -1 for
 * --help; @o->files lives until exit.
 */
static int mstat_parse_check(struct mstat_check_opts *o, int argc,
			     char **argv)
{
	const char **files = mstat_alloc(NULL, argc * sizeof(*files));
	int c;

	o->files = files;
	opterr = 0;
	while ((c = getopt_long(argc, argv, mstat_check_shortopts,
				mstat_check_longopts, NULL)) != -1) {
		switch (c) {
		case 'h':
			return -1;
		case 'n':
			if (!mstat_parse_long(optarg, 1, 1000000, &o->reads))
				return mstat_bad_usage("check: -n wants 1 to 1000000 reads, got",
						       optarg);
			break;
		case 'i':
			if (!mstat_parse_long(optarg, 0, 1000000, &o->ms))
				return mstat_bad_usage("check: -i wants 0 to 1000000 ms, got",
						       optarg);
			break;
		case 1:
			files[o->nfiles++] = optarg;
			break;
		default:
			return mstat_bad_opt(c, mstat_check_shortopts,
					     mstat_check_longopts, argv,
					     " for mstat check");
		}
	}
	while (optind < argc)
		files[o->nfiles++] = argv[optind++];
	return 0;
}

static int mstat_one_snapshot(const struct mstat_opts *o)
{
	struct mstat_prom_filter pf;
	struct mstat_sites *ss = NULL;
	struct mstat_snap *s;
	char tmp[4096];
	FILE *f;
	int err;

	if (o->cmd != CMD_PROM) {
		s = mstat_snap_read(o->file[0]);
		if (!s)
			return EXIT_INPUT;
		if (o->json)
			mstat_json(s);
		else
			mstat_show(s);
		mstat_snap_free(s);
		return mstat_out_close(stdout, NULL, NULL);
	}
	/* First, so that a bad regex writes nothing. */
	if (!mstat_prom_filter_init(&pf, o))
		return EXIT_USAGE;
	s = mstat_snap_read(o->file[0]);
	/* The raw pages' series come from the sites file: read before -o. */
	if (s && mstat_memory_sites(o, &ss)) {
		mstat_snap_free(s);
		s = NULL;
	}
	f = s ? mstat_out_open(o->out, tmp, sizeof(tmp)) : NULL;
	if (f) {
		mstat_prom(f, s, &pf, mstat_memory_meminfo(o), ss);
		err = mstat_out_close(f, o->out, tmp);
	} else {
		err = EXIT_INPUT;
	}
	mstat_snap_free(s);
	mstat_sites_free(ss);
	mstat_prom_filter_free(&pf);
	return err;
}

int main(int argc, char **argv)
{
	struct mstat_opts o = { .delay = 2, .cache_max = 200,
				.min_interval = 1000, .duration = 600,
				.interval = 10, .confidence = 0.99 };
	struct mstat_check_opts co = { .reads = 1 };
	int err;

	/* The checker keeps the command line it had as mstat-check. */
	if (argc > 1 && !strcmp(argv[1], "check"))
		err = mstat_parse_check(&co, argc - 1, argv + 1);
	else
		err = mstat_parse_args(&o, argc, argv);
	if (err < 0) {
		mstat_usage(stdout);
		return 0;
	}
	if (err)
		return err;
	if (co.files)
		return do_check(&co);
	switch (o.cmd) {
	case CMD_TOP:
		return do_top(&o);
	case CMD_PPROF:
		return do_pprof(&o);
	case CMD_SERVE:
		return do_serve(&o, argv);
	case CMD_LEAKS:
		return do_leaks(&o);
	case CMD_MEMORY:
		return do_memory(&o);
	default:
		return mstat_one_snapshot(&o);
	}
}
