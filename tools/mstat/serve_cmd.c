// SPDX-License-Identifier: GPL-2.0
/*
 * mstat serve's command line, in both builds: the static mstat checks it
 * before it runs mstat-serve (serve_exec.c), which parses it again and
 * serves (serve.c).
 */
#define _POSIX_C_SOURCE 200809L

#include <stddef.h>

#include "opts.h"
#include "parse.h"
#include "serve.h"

static const struct option mstat_serve_longopts[] = {
	{ "help", no_argument, NULL, 'h' },
	{ "listen", required_argument, NULL, OPT_LISTEN },
	{ "min-interval", required_argument, NULL, OPT_MIN_INTERVAL },
	{ "sites", required_argument, NULL, OPT_SITES },
	{ "owners", required_argument, NULL, OPT_OWNERS },
	{ "owner-max", required_argument, NULL, OPT_OWNER_MAX },
	{ "cache-include", required_argument, NULL, OPT_CACHE_INCLUDE },
	{ "cache-exclude", required_argument, NULL, OPT_CACHE_EXCLUDE },
	{ "cache-max", required_argument, NULL, OPT_CACHE_MAX },
	{ "meminfo", required_argument, NULL, OPT_MEMINFO },
	{ "min-rate", required_argument, NULL, OPT_MIN_RATE },
	{ "confidence", required_argument, NULL, OPT_CONFIDENCE },
	{ NULL, 0, NULL, 0 }
};

const struct mstat_optspec mstat_serve_optspec = {
	.name = "serve", .shortopts = "-:hf:",
	.longopts = mstat_serve_longopts, .file = MSTAT_PROC,
};

int cmd_serve(int argc, char **argv)
{
	struct mstat_opts o = MSTAT_OPTS_INIT;
	int err = mstat_opts_parse(&mstat_serve_optspec, argc, argv, &o);

	return err ? err : do_serve(&o, argc, argv);
}
