/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The commands' command lines (opts.c): each command has a table of the
 * options it takes (struct mstat_optspec, in the command's own file) and
 * parses its command line with mstat_opts_parse(), so an option a command
 * does not take is unknown to it. The values land in struct mstat_opts,
 * which the commands and the formats they share read (mstat prom's cache
 * filter and mstat serve's, mstat memory's files and mstat prom's).
 */
#ifndef MSTAT_OPTS_H
#define MSTAT_OPTS_H

#include <getopt.h>
#include <stdbool.h>

#define MSTAT_MAX_FILES		16

/* What a command returns for -h or --help: main.c prints the help. */
#define MSTAT_HELP		(-1)

/* The long options' values past every short option's character. */
enum {
	OPT_JSON = 256, OPT_PROM_OUT, OPT_SORT, OPT_CACHE_INCLUDE,
	OPT_CACHE_EXCLUDE, OPT_CACHE_MAX, OPT_LISTEN, OPT_MIN_INTERVAL,
	OPT_SITES, OPT_DURATION, OPT_FROM, OPT_SAVE, OPT_MIN_RATE,
	OPT_CONFIDENCE, OPT_MEMINFO, OPT_KALLSYMS, OPT_BY, OPT_TOP,
	OPT_VMALLOCINFO, OPT_CGROUP, OPT_OWNERS, OPT_OWNER_MAX, OPT_ONCE,
	OPT_UNTIL_SURE,
};

/**
 * struct mstat_optspec - the options one command takes
 * @name: the command's name, NULL for plain mstat (for messages)
 * @shortopts: for getopt_long(), beginning "-:" ("-": the operands in
 *	order, as option 1, whatever POSIXLY_CORRECT says; ":": a missing
 *	argument as ':', apart from an unknown option), and with "h"
 * @longopts: for getopt_long(), with "help" as 'h'
 * @operands: the command takes operands (mstat check's FILEs); if not,
 *	one is a usage error
 * @opt: called with each option as getopt_long() gives it (1 for an
 *	operand) and its argument, returns 0 or an exit status; NULL:
 *	mstat_opt_value()
 * @file: the -f of the command given none (a struct mstat_opts), or NULL
 */
struct mstat_optspec {
	const char *name;
	const char *shortopts;
	const struct option *longopts;
	bool operands;
	int (*opt)(void *o, int c, const char *v);
	const char *file;
};

/* The values of the options of every command but check. */
struct mstat_opts {
	bool json;			/* plain mstat, leaks, memory */
	bool prom_out;			/* leaks --prom */
	const char *file[MSTAT_MAX_FILES];	/* -f: top takes several */
	int nfile;
	const char *out;		/* -o */
	double delay;			/* top, leaks -d, s */
	bool delay_set;
	long iters;			/* top -n */
	bool caches;			/* top --caches */
	bool sort_live;			/* top --sort live */
	bool sort_set;
	const char *cache_include;	/* prom, serve --cache-include */
	const char *cache_exclude;	/* prom, serve --cache-exclude */
	long cache_max;			/* prom, serve --cache-max */
	long owner_max;			/* prom, serve --owner-max */
	const char *listen;		/* serve --listen */
	const char *sites;		/* serve, memory, prom --sites */
	long min_interval;		/* serve --min-interval, ms */
	double duration;		/* leaks -d/--duration, s */
	double interval;		/* leaks -i/--interval, s */
	const char *from;		/* leaks --from DIR */
	const char *save;		/* leaks --save DIR */
	bool once;			/* leaks --once */
	bool until_sure;		/* leaks --until-sure */
	double min_rate;		/* leaks, serve --min-rate, bytes/s */
	double confidence;		/* leaks, serve --confidence */
	const char *meminfo;		/* memory, prom, serve --meminfo */
	const char *kallsyms;		/* memory --kallsyms FILE */
	bool by_caller;			/* memory --by caller */
	long top;			/* memory --top N */
	const char *vmallocinfo;	/* memory --vmallocinfo FILE */
	bool cgroup;			/* memory --cgroup[=PATH] */
	const char *cgroup_path;	/* its PATH, NULL: every cgroup */
	const char *owners;		/* memory --owners FILE */
};

/* Every option's default. */
#define MSTAT_OPTS_INIT { .delay = 2, .cache_max = 200, .owner_max = 20, \
			  .min_interval = 1000, .duration = 600, \
			  .interval = 10, .confidence = 0.99, .top = 10 }

/* mstat check [-n N] [-i MS] [FILE...] */
struct mstat_check_opts {
	long reads;			/* -n: reads of each file */
	long ms;			/* -i: milliseconds between reads */
	const char **files;		/* FILE...; none: /proc/mstat */
	int nfiles;
};

/**
 * mstat_opts_parse() - parse one command's command line
 * @sp: the options the command takes
 * @argc: @argv's words
 * @argv: the command's name, then its options and operands in any order
 *	("--opt value" or "--opt=value"; after "--", operands only)
 * @o: what @sp->opt fills; with @sp->file, a struct mstat_opts
 *
 * An option @sp has not, or an option given wrong, is a one-line message
 * naming it and the command.
 *
 * Return: 0; an exit status, after a message; MSTAT_HELP for -h or --help.
 */
int mstat_opts_parse(const struct mstat_optspec *sp, int argc, char **argv,
		     void *o);

/*
 * For @opt: an option's argument @v into the struct mstat_opts @o, as
 * every command but check reads it (-f once: mstat top takes several).
 */
int mstat_opt_value(void *o, int c, const char *v);

/* A usage error: "@what @arg (see mstat --help)"; returns EXIT_USAGE. */
int mstat_bad_usage(const char *what, const char *arg);

/* @s in [@min, @max] into *@n, or false. */
bool mstat_parse_long(const char *s, long min, long max, long *n);

/* -f FILE once more, of at most @max; 0 or EXIT_USAGE. */
int mstat_opt_file(struct mstat_opts *o, const char *v, int max);

#endif /* MSTAT_OPTS_H */
