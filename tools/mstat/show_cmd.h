/* SPDX-License-Identifier: GPL-2.0 */
/* Plain mstat: the snapshot as text or JSON (show_cmd.c). */
#ifndef MSTAT_SHOW_CMD_H
#define MSTAT_SHOW_CMD_H

#include "opts.h"

/* The options plain mstat takes. */
extern const struct mstat_optspec mstat_show_optspec;

/*
 * Plain mstat's command line, @argv[0] its name: parse it and run;
 * returns the exit status (MSTAT_HELP for --help).
 */
int cmd_show(int argc, char **argv);

#endif /* MSTAT_SHOW_CMD_H */
