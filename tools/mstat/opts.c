// SPDX-License-Identifier: GPL-2.0
/*
 * The commands' command lines: getopt_long() over one command's table of
 * options, its errors as one line each naming the option, the command and
 * what is wrong, and the values of the options every command but check
 * shares. Which command takes which option is its table, in its own file.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <getopt.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opts.h"
#include "parse.h"
#include "util.h"

int mstat_bad_usage(const char *what, const char *arg)
{
	mstat_err("%s%s%s (see mstat --help)", what, arg ? " " : "",
		  arg ? arg : "");
	return EXIT_USAGE;
}

/*
 * getopt_long() returned @c, '?' or ':', for the option it stopped at in
 * @argv, parsing with @sp: say which option (as "-x" or "--name"), for
 * which command, and what is wrong with it, and return EXIT_USAGE.
 */
static int mstat_bad_opt(int c, const struct mstat_optspec *sp, char **argv)
{
	const struct option *lo;
	int matches = 0;
	char name[64], cmd[32];
	size_t n;

	snprintf(cmd, sizeof(cmd), " for %s%s", sp->name ? "mstat " : "plain mstat",
		 sp->name ? sp->name : "");
	if (!optopt) {
		/* An unknown or ambiguous long option: it is the word. */
		n = strcspn(argv[optind - 1], "=");
		snprintf(name, sizeof(name), "%.*s", (int)(n < 48 ? n : 48),
			 argv[optind - 1]);
		for (lo = sp->longopts; n > 2 && lo->name; lo++)
			matches += !strncmp(lo->name, name + 2, n - 2);
		mstat_err("%s option %s%s (see mstat --help)",
			  matches > 1 ? "ambiguous" : "unknown", name, cmd);
		return EXIT_USAGE;
	}
	/* A short option's character, unless it is known by its long name. */
	snprintf(name, sizeof(name), "-%c", optopt);
	for (lo = sp->longopts; lo->name; lo++) {
		if (lo->val != optopt)
			continue;
		/*
		 * '?' for a known option: its long name was given an
		 * argument it does not take (--json=1). A value past 255,
		 * or a character that is no short option: it has only
		 * the long name.
		 */
		if (c == '?' || optopt > 255 || !strchr(sp->shortopts, optopt))
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

int mstat_opts_parse(const struct mstat_optspec *sp, int argc, char **argv,
		     void *o)
{
	int (*opt)(void *o, int c, const char *v) = sp->opt ? sp->opt :
						       mstat_opt_value;
	struct mstat_opts *mo = o;
	int c, err = 0;

	/* From the first word past @argv[0], whatever ran before. */
	optind = 0;
	opterr = 0;
	while (!err && (c = getopt_long(argc, argv, sp->shortopts,
					sp->longopts, NULL)) != -1) {
		switch (c) {
		case 'h':
			return MSTAT_HELP;
		case '?':
		case ':':
			return mstat_bad_opt(c, sp, argv);
		case 1:
			if (!sp->operands)
				return mstat_bad_usage("unexpected argument",
						       optarg);
			/* fall through */
		default:
			err = opt(o, c, optarg);
		}
	}
	/* After "--": operands only. */
	for (; !err && optind < argc; optind++) {
		if (!sp->operands)
			return mstat_bad_usage("unexpected argument",
					       argv[optind]);
		err = opt(o, 1, argv[optind]);
	}
	if (!err && sp->file && !mo->nfile)
		mo->file[mo->nfile++] = sp->file;
	return err;
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

bool mstat_parse_long(const char *s, long min, long max, long *n)
{
	unsigned long long v;

	if (!mstat_parse_u64(s, &v) || v < (unsigned long long)min ||
	    v > (unsigned long long)max)
		return false;
	*n = v;
	return true;
}

int mstat_opt_file(struct mstat_opts *o, const char *v, int max)
{
	if (o->nfile == max)
		return mstat_bad_usage(max == 1 ? "several -f go with mstat top only" :
				       "too many -f", NULL);
	o->file[o->nfile++] = v;
	return 0;
}

/* The options that name a file, an address or a pattern, kept as given. */
static const struct {
	int c;
	size_t off;
} mstat_opt_strings[] = {
	{ 'o', offsetof(struct mstat_opts, out) },
	{ OPT_MEMINFO, offsetof(struct mstat_opts, meminfo) },
	{ OPT_KALLSYMS, offsetof(struct mstat_opts, kallsyms) },
	{ OPT_VMALLOCINFO, offsetof(struct mstat_opts, vmallocinfo) },
	{ OPT_OWNERS, offsetof(struct mstat_opts, owners) },
	{ OPT_FROM, offsetof(struct mstat_opts, from) },
	{ OPT_SAVE, offsetof(struct mstat_opts, save) },
	{ OPT_LISTEN, offsetof(struct mstat_opts, listen) },
	{ OPT_SITES, offsetof(struct mstat_opts, sites) },
	{ OPT_CACHE_INCLUDE, offsetof(struct mstat_opts, cache_include) },
	{ OPT_CACHE_EXCLUDE, offsetof(struct mstat_opts, cache_exclude) },
};

static int mstat_opt_string(struct mstat_opts *o, int c, const char *v)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(mstat_opt_strings); i++)
		if (mstat_opt_strings[i].c == c)
			*(const char **)((char *)o + mstat_opt_strings[i].off) = v;
	return 0;
}

int mstat_opt_value(void *p, int c, const char *v)
{
	struct mstat_opts *o = p;

	switch (c) {
	case 'f':
		return mstat_opt_file(o, v, 1);
	case OPT_JSON:
		o->json = true;
		return 0;
	case OPT_PROM_OUT:
		o->prom_out = true;
		return 0;
	case OPT_ONCE:
		o->once = true;
		return 0;
	case OPT_UNTIL_SURE:
		o->until_sure = true;
		return 0;
	case 'c':
		o->caches = true;
		return 0;
	case OPT_DURATION:
	case 'd':
		o->delay_set = true;
		return mstat_parse_delay(v, &o->delay) ? 0 :
			mstat_bad_usage("-d wants seconds in (0, 86400], got", v);
	case 'n':
		return mstat_parse_iters(v, &o->iters) ? 0 :
			mstat_bad_usage("-n wants a positive count, got", v);
	case 'i':
		return mstat_parse_delay(v, &o->interval) ? 0 :
			mstat_bad_usage("-i wants seconds in (0, 86400], got", v);
	case OPT_MIN_RATE:
		return mstat_parse_rate(v, 0, 1e15, &o->min_rate) ? 0 :
			mstat_bad_usage("--min-rate wants bytes per second, 0 or more, got", v);
	case OPT_CONFIDENCE:
		return mstat_parse_rate(v, 0.5, 1, &o->confidence) &&
			o->confidence > 0.5 && o->confidence < 1 ? 0 :
			mstat_bad_usage("--confidence wants a number in (0.5, 1), got", v);
	case OPT_SORT:
		if (strcmp(v, "allocs") && strcmp(v, "live"))
			return mstat_bad_usage("--sort wants allocs or live, got", v);
		o->sort_live = !strcmp(v, "live");
		o->sort_set = true;
		return 0;
	case OPT_MIN_INTERVAL:
		return mstat_parse_long(v, 0, 3600000, &o->min_interval) ? 0 :
			mstat_bad_usage("--min-interval wants 0 to 3600000 ms, got", v);
	case OPT_BY:
		if (strcmp(v, "caller"))
			return mstat_bad_usage("--by wants caller, got", v);
		o->by_caller = true;
		return 0;
	case OPT_CGROUP:
		if (v && v[0] != '/')
			return mstat_bad_usage("--cgroup= wants a path from the cgroup root (/system.slice/x.service), got", v);
		o->cgroup = true;
		o->cgroup_path = v;
		return 0;
	case OPT_TOP:
		return mstat_parse_long(v, 1, 10000, &o->top) ? 0 :
			mstat_bad_usage("--top wants 1 to 10000, got", v);
	case OPT_OWNER_MAX:
		return mstat_parse_long(v, 0, 10000, &o->owner_max) ? 0 :
			mstat_bad_usage("--owner-max wants 0 to 10000, got", v);
	case OPT_CACHE_MAX:
		return mstat_parse_long(v, 0, 1000000, &o->cache_max) ? 0 :
			mstat_bad_usage("--cache-max wants 0 to 1000000, got", v);
	}
	return mstat_opt_string(o, c, v);
}
