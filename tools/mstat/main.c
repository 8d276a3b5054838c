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
 *	[--owners FILE] [--owner-max N]
 *					Prometheus text format (prom.c)
 *   mstat pprof [-f FILE] [-o FILE]	/proc/mstat_sites as a gzipped pprof
 *					profile (pprof.c, gzip.c)
 *   mstat check [-n N] [-i MS] [FILE...]
 *					the invariants of each snapshot and
 *					across them (check.c)
 *   mstat serve [--listen ADDR:PORT] [--min-interval MS] [-f FILE]
 *	[--sites FILE] [--cache-include RE] [--cache-exclude RE]
 *	[--cache-max N] [--owners FILE] [--owner-max N]
 *					/metrics and /debug/pprof/{heap,allocs}
 *					over HTTP (serve.c; serve_exec.c in
 *					the static build)
 *   mstat leaks [-d SECS] [-i SECS] [--once] [--until-sure]
 *	[--json|--prom [-o FILE]] [--from DIR] [--save DIR] [--min-rate B]
 *	[--confidence C]
 *					what grows without bound: caches
 *					and stacks (leaks.c, leaks_*.c)
 *   mstat memory [-f FILE] [--meminfo FILE] [--kallsyms FILE]
 *	[--sites FILE] [--by caller] [--cgroup[=PATH]] [--top N]
 *	[--vmallocinfo FILE] [--owners FILE] [--json]
 *					where the memory is: one account
 *					whose lines add up to MemTotal, and
 *					whose it is (memory.c, memory_out.c,
 *					pages.c, vmcallers.c, owners.c)
 *
 * Every file is read by the one parser (parse_snap.c, parse.c). This
 * file holds the table of commands, as bpftool's main.c does: each
 * command's name, its function, its line of the usage. It finds the
 * command named on the command line and hands it the rest, which the
 * command parses with its own table of options (opts.c); nothing calls
 * into this file. The files, each x.c with its x.h, from the commands
 * down:
 *
 *   main.c      the command table, the help, and dispatch
 *   serve.c     mstat serve: /metrics and pprof over HTTP (libmicrohttpd);
 *               serve_exec.c in its place in the static mstat: it execs
 *               mstat-serve, the dynamic build that has serve.c;
 *               serve_cmd.c  its options, for both;
 *               serve_url.c  --listen's address, a request's query
 *   leaks.c     mstat leaks: what grows without bound (the method);
 *               its files below, leaks_int.h their shared state:
 *     leaks_watch.c   the watch, a read every --interval
 *     leaks_save.c    one read; --save's directory and --from's replay
 *     leaks_out.c     the verdict as text, JSON, Prometheus; serve's
 *     leaks_stack.c   the stack tier, and its check against the caches
 *     leaks_cgroup.c  the cgroups' paths as the watch saw them
 *     leaks_cache.c   the per-cache series (serve keeps one too)
 *   memory.c    mstat memory: the account of MemTotal
 *   memory_out.c  ... as text, JSON, and its Prometheus series
 *   vmcallers.c  ... --by caller: the vmalloc line by caller (vmallocinfo)
 *   owners.c  ... --by caller's percpu and slab objects, --cgroup's table
 *   callers.c  ... rows summed by caller, the largest first, the rest as one
 *   parse_owners.c  /proc/mstat_owners' parser
 *   pages.c     ... its page samples by kind and raw caller
 *   top.c       mstat top: rates from successive snapshots
 *   pprof.c     mstat pprof: /proc/mstat_sites as a pprof profile
 *   check.c     mstat check: the snapshot invariants, across reads
 *   show_cmd.c  plain mstat: the snapshot as text or JSON
 *   show.c      the snapshot as text        json.c  ... as JSON, and
 *               the JSON string writer every --json output uses
 *   prom.c      mstat prom: ... in Prometheus's text format
 *   slab.c      SLUB's merged caches: every name of a cache
 *   cgroup.c    the cgroup2 tree: cgroup ids to paths and labels
 *   gzip.c      the gzip container, through zlib
 *   stats.c     the statistics: quantiles, robust slopes, a cache
 *               series' trend, estimates from sampled objects
 *   opts.c      a command's command line: getopt_long() over its table,
 *               one-line errors, the values the commands share
 *   input.c     reading a file in one open(); the tool's read errors
 *   util.c      errors, memory, the string map, the monotonic clock and
 *               sleeping, numbers for people, output files
 *   parse_snap.c  the parser of /proc/mstat; a snapshot's counters
 *   parse.c     the parser of /proc/mstat_sites, and the lines, words
 *               and numbers of both files
 *
 * Not in mstat: check_selftest.c, the checker's test, a program of the
 * test build (make check-selftest) that drives check.c; stats_selftest.c,
 * the statistics' and the shared helpers' (make stats-selftest). Beside
 * the code: test.sh, the tool's tests (testdata/ their fixtures);
 * capture.sh with guest.sh, fixtures from a live module in a guest;
 * guest-leaks.sh and guest-labels.sh, the README's captures; man.sh and
 * mstat.h2m, mstat(8) from --help; profile.proto, pprof's schema;
 * prometheus/, rules on the series mstat serve gives, and their test.
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

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "leaks.h"
#include "memory.h"
#include "opts.h"
#include "pprof.h"
#include "prom.h"
#include "serve.h"
#include "show_cmd.h"
#include "top.h"
#include "util.h"


/**
 * struct mstat_cmd - one command of mstat
 * @name: the word that names it; NULL for plain mstat, which a command
 *	line naming no command runs
 * @fn: its command line's words past the command (@argv[0] its name, or
 *	"mstat"), which it parses with its own options: the exit status, or
 *	MSTAT_HELP
 * @opts: the options it takes (its file's table), which say which words
 *	before the command's name are options' arguments
 * @synopsis: its options in the usage, lines apart by '\n'
 * @help: what it does, in one line of the usage
 */
struct mstat_cmd {
	const char *name;
	int (*fn)(int argc, char **argv);
	const struct mstat_optspec *opts;
	const char *synopsis;
	const char *help;
};

static const struct mstat_cmd mstat_cmds[] = {
	{ NULL, cmd_show, &mstat_show_optspec, "[-f FILE] [--json]",
	  "the snapshot in /proc/mstat" },
	{ "top", cmd_top, &mstat_top_optspec,
	  "[-d SECS] [-n ITER] [-f FILE]... [--caches [--sort allocs|live]]",
	  "rates per second, like slabtop" },
	{ "prom", cmd_prom, &mstat_prom_optspec,
	  "[-f FILE] [-o FILE] [--cache-include RE] [--cache-exclude RE]\n"
	  "[--cache-max N] [--meminfo FILE] [--sites FILE] [--owners FILE]\n"
	  "[--owner-max N]",
	  "Prometheus text format" },
	{ "pprof", cmd_pprof, &mstat_pprof_optspec, "[-f FILE] [-o FILE]",
	  "/proc/mstat_sites as a pprof profile" },
	{ "check", cmd_check, &mstat_check_optspec, "[-n N] [-i MS] [FILE...]",
	  "check the snapshot invariants" },
	{ "serve", cmd_serve, &mstat_serve_optspec,
	  "[--listen ADDR:PORT] [--min-interval MS] [-f FILE]\n"
	  "[--sites FILE] [--cache-include RE] [--cache-exclude RE]\n"
	  "[--cache-max N] [--meminfo FILE] [--owners FILE] [--owner-max N]",
	  "/metrics and /debug/pprof/ over HTTP" },
	{ "leaks", cmd_leaks, &mstat_leaks_optspec,
	  "[-d SECS] [-i SECS] [--once] [--until-sure]\n"
	  "[--json|--prom [-o FILE]] [--from DIR] [--save DIR]\n"
	  "[--min-rate BYTES] [--confidence C]",
	  "what grows without bound: a verdict" },
	{ "memory", cmd_memory, &mstat_memory_optspec,
	  "[-f FILE] [--meminfo FILE] [--kallsyms FILE] [--sites FILE]\n"
	  "[--by caller] [--cgroup[=PATH]] [--top N] [--vmallocinfo FILE]\n"
	  "[--owners FILE] [--json]",
	  "where the memory is: one account" },
};

/* Where a usage line's help begins. */
#define MSTAT_HELP_COL	41

/*
 * One usage line: "@lead mstat @name" and @synopsis, its lines below each
 * other, then @help at MSTAT_HELP_COL, beside a one-line synopsis that
 * leaves room, else on a line of its own.
 */
static void mstat_usage_line(FILE *f, const char *lead, const char *name,
			     const char *synopsis, const char *help)
{
	int indent = fprintf(f, "%smstat %s%s", lead, name ? name : "",
			     name ? " " : "");
	const char *p = synopsis, *nl;
	int col;

	while ((nl = strchr(p, '\n'))) {
		fprintf(f, "%.*s\n%*s", (int)(nl - p), p, indent, "");
		p = nl + 1;
	}
	col = indent + fprintf(f, "%s", p);
	if (p != synopsis || col + 2 > MSTAT_HELP_COL) {
		fputc('\n', f);
		col = 0;
	}
	fprintf(f, "%*s%s\n", MSTAT_HELP_COL - col, "", help);
}

/* The help: the commands from their table, then the options in full. */
static void mstat_usage(FILE *f)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(mstat_cmds); i++)
		mstat_usage_line(f, i ? "       " : "usage: ",
				 mstat_cmds[i].name, mstat_cmds[i].synopsis,
				 mstat_cmds[i].help);
	mstat_usage_line(f, "       ", NULL, "-h|--help", "print this help");
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
	      "  --once      leaks: one read, judged from the module's history (the\n"
	      "           live samples' ages since its load; /proc/mstat_sites 2.4);\n"
	      "           with --from, its first read\n"
	      "  --until-sure  leaks: end the watch once the exact counts can judge and\n"
	      "           three reads in a row named the same suspects (or none)\n"
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
	      "  --by caller  memory: then the vmalloc line by caller, from the kernel's\n"
	      "           /proc/vmallocinfo (root only), with each caller's areas since\n"
	      "           load, and the percpu objects by caller (/proc/mstat_owners)\n"
	      "  --cgroup[=PATH]  memory: then each cgroup's kernel memory by kind (PATH:\n"
	      "           its subtree alone, from the cgroup root), beside its memory.stat\n"
	      "  --top N  memory --by caller, --cgroup: the N largest, then the rest as\n"
	      "           one (default 10)\n"
	      "  --vmallocinfo FILE  memory --by caller: read FILE instead of\n"
	      "           /proc/vmallocinfo (none beside a -f FILE without it)\n"
	      "  --owners FILE  memory, prom, serve: read FILE instead of\n"
	      "           /proc/mstat_owners (none beside a -f FILE without it)\n"
	      "  --owner-max N  prom, serve: series for at most N callers of each source\n"
	      "           and N cgroups, the rest as one \"other\" (default 20)\n"
	      "  -h, --help  print this help and exit\n"
	      "  Arguments: -f FILE or -fFILE, --sort live or --sort=live; the command\n"
	      "  may come after options.\n",
	      f);
	/* Two strings: C99 promises 4095 bytes in one. */
	fputs("\n"
	      "Examples:\n"
	      "  mstat top -d 1 -n 5\n"
	      "  mstat top --caches --sort live\n"
	      "  mstat prom -o /var/lib/prometheus/node-exporter/mstat.prom\n"
	      "  mstat pprof -o mstat.pb.gz && go tool pprof -traces mstat.pb.gz\n"
	      "  go tool pprof -tagfocus 'cgroup=^/system.slice(/|$)' -top mstat.pb.gz\n"
	      "  mstat check -n 100 -i 10\n"
	      "  mstat serve --listen 127.0.0.1:9754\n"
	      "  mstat leaks --once\n"
	      "  mstat leaks -d 600 -i 10 --until-sure\n"
	      "  mstat leaks -d 600 -i 10 --json\n"
	      "  mstat memory\n"
	      "  mstat memory --by caller --top 20\n"
	      "  mstat memory --cgroup=/kubepods.slice\n"
	      "  mstat leaks --save /var/tmp/leaks -d 3600 -i 30 && mstat leaks --from /var/tmp/leaks\n"
	      "  go tool pprof -top http://127.0.0.1:9754/debug/pprof/heap\n"
	      "  systemctl enable --now mstat-textfile.timer\n"
	      "  mstat leaks --prom -o /var/lib/prometheus/node-exporter/mstat-leaks.prom\n"
	      "\n"
	      "Exit status: 0; 1 on missing, unreadable or bad input; 2 on usage errors.\n"
	      "mstat check: 0 if every invariant holds; 1 on a violation or bad input;\n"
	      "2 on usage, open or read errors.\n"
	      "mstat leaks: 0 if nothing is a suspect; 1 if something is; 2 on any error;\n"
	      "3 if no verdict (too few reads, no history); the same of the reads so far\n"
	      "when SIGINT (Ctrl-C) or SIGTERM ends the watch; with --prom, 0 unless an\n"
	      "error.\n",
	      f);
}

/*
 * Whether the option word @w takes the next word as its argument, as the
 * commands' tables say: a short option that wants one ends @w, or a long
 * one that wants one (every long one @w abbreviates wants one) has no
 * "=VALUE". An option takes or wants no argument alike in every command
 * that has it.
 */
static bool mstat_wants_next(const char *w)
{
	const struct mstat_optspec *sp;
	const struct option *lo;
	int with = 0, without = 0;
	const char *p, *q;
	size_t i, n;

	for (p = w + 1; w[1] != '-' && *p; p++) {
		for (i = 0; *p != ':' && i < ARRAY_SIZE(mstat_cmds); i++) {
			q = strchr(mstat_cmds[i].opts->shortopts + 2, *p);
			if (q && q[1] == ':')
				return !p[1];
		}
	}
	if (w[1] != '-' || strchr(w, '='))
		return false;
	n = strlen(w + 2);
	for (i = 0; i < ARRAY_SIZE(mstat_cmds); i++) {
		sp = mstat_cmds[i].opts;
		for (lo = sp->longopts; lo->name; lo++) {
			if (strncmp(lo->name, w + 2, n))
				continue;
			if (!lo->name[n])
				return lo->has_arg == required_argument;
			with += lo->has_arg == required_argument;
			without += lo->has_arg != required_argument;
		}
	}
	return with && !without;
}

/*
 * The command @argv names: its first operand, a word that is neither an
 * option nor an option's argument (the command may come after options),
 * or the word after "--". Returns the operand's index if it names a
 * command, and sets *@cmd to it; else 0, and *@cmd is plain mstat, whose
 * parser rejects the operand.
 */
static int mstat_find_cmd(int argc, char **argv, const struct mstat_cmd **cmd)
{
	size_t k;
	int i;

	*cmd = &mstat_cmds[0];
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--")) {
			i++;
			break;
		}
		if (argv[i][0] != '-' || !argv[i][1])
			break;
		i += mstat_wants_next(argv[i]);
	}
	for (k = 1; i < argc && k < ARRAY_SIZE(mstat_cmds); k++) {
		if (!strcmp(argv[i], mstat_cmds[k].name)) {
			*cmd = &mstat_cmds[k];
			return i;
		}
	}
	return 0;
}

int main(int argc, char **argv)
{
	const struct mstat_cmd *cmd;
	int at = mstat_find_cmd(argc, argv, &cmd), err;
	char **args = argv;

	/* The command's name first, then every other word in order. */
	if (at) {
		args = mstat_alloc(NULL, argc * sizeof(*args));
		args[0] = argv[at];
		memcpy(args + 1, argv + 1, (at - 1) * sizeof(*args));
		memcpy(args + at, argv + at + 1,
		       (argc - at - 1) * sizeof(*args));
	}
	err = cmd->fn(argc - !!at, args);
	if (err == MSTAT_HELP) {
		mstat_usage(stdout);
		return 0;
	}
	return err;
}
