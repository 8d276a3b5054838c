/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The options of the commands: main.c parses them (getopt_long()), the
 * commands and formats read them. A header alone, so that they sit below
 * both. mstat check has options of its own, as mstat-check had.
 */
#ifndef MSTAT_OPTS_H
#define MSTAT_OPTS_H

#include <stdbool.h>

#define MSTAT_MAX_FILES		16

enum mstat_cmd {
	CMD_SHOW, CMD_TOP, CMD_PROM, CMD_PPROF, CMD_SERVE, CMD_LEAKS, CMD_MEMORY
};

struct mstat_opts {
	enum mstat_cmd cmd;
	bool cmd_set;
	bool json;
	bool prom_out;			/* leaks --prom */
	const char *file[MSTAT_MAX_FILES];
	int nfile;
	const char *out;
	double delay;
	long iters;
	bool delay_set, iters_set;
	bool caches;			/* top --caches */
	bool sort_live;			/* top --sort live */
	bool sort_set;
	const char *cache_include;	/* prom --cache-include */
	const char *cache_exclude;	/* prom --cache-exclude */
	long cache_max;			/* prom --cache-max */
	bool cache_opts_set;
	const char *listen;		/* serve --listen */
	const char *sites;		/* serve, memory --sites */
	long min_interval;		/* serve --min-interval, ms */
	bool serve_opts_set;
	bool sites_set;
	double duration;		/* leaks -d/--duration, s */
	double interval;		/* leaks -i/--interval, s */
	const char *from;		/* leaks --from DIR */
	const char *save;		/* leaks --save DIR */
	double min_rate;		/* leaks --min-rate, bytes/s */
	double confidence;		/* leaks --confidence */
	bool leaks_opts_set;		/* -i, --from or --save */
	bool rate_opts_set;		/* --min-rate or --confidence */
	bool duration_long;		/* -d given as --duration */
	const char *meminfo;		/* memory --meminfo FILE */
	const char *kallsyms;		/* memory --kallsyms FILE */
};

/* mstat check [-n N] [-i MS] [FILE...] */
struct mstat_check_opts {
	long reads;			/* -n: reads of each file */
	long ms;			/* -i: milliseconds between reads */
	const char **files;		/* FILE...; none: /proc/mstat */
	int nfiles;
};

#endif /* MSTAT_OPTS_H */
