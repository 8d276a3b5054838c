// SPDX-License-Identifier: GPL-2.0
/*
 * Plain mstat, the command that names no command: the snapshot, as text
 * (show.c) or with --json as one JSON object (json.c).
 */
#define _POSIX_C_SOURCE 200809L

#include <stdbool.h>
#include <stdio.h>

#include "input.h"
#include "json.h"
#include "opts.h"
#include "parse.h"
#include "show.h"
#include "show_cmd.h"
#include "util.h"

static const struct option mstat_show_longopts[] = {
	{ "help", no_argument, NULL, 'h' },
	{ "json", no_argument, NULL, OPT_JSON },
	{ NULL, 0, NULL, 0 }
};

const struct mstat_optspec mstat_show_optspec = {
	.shortopts = "-:hf:", .longopts = mstat_show_longopts,
	.file = MSTAT_PROC,
};

int cmd_show(int argc, char **argv)
{
	struct mstat_opts o = MSTAT_OPTS_INIT;
	struct mstat_snap *s;
	int err = mstat_opts_parse(&mstat_show_optspec, argc, argv, &o);

	if (err)
		return err;
	s = mstat_snap_read(o.file[0]);
	if (!s)
		return EXIT_INPUT;
	if (o.json)
		mstat_json(s);
	else
		mstat_show(s);
	mstat_snap_free(s);
	return mstat_out_close(stdout, NULL, NULL);
}
