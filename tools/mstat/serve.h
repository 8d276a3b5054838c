/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mstat serve: /metrics and /debug/pprof/{heap,allocs} over HTTP. Two
 * units implement it: serve.c, the server (libmicrohttpd), linked into
 * mstat-serve; and serve_exec.c, linked into the static mstat instead,
 * which runs mstat-serve with the same arguments. Both parse them with
 * serve_cmd.c.
 */
#ifndef MSTAT_SERVE_H
#define MSTAT_SERVE_H

#include "opts.h"

/* Default address of mstat serve (see serve.c for the port). */
#define MSTAT_SERVE_LISTEN	"127.0.0.1:9754"

/* The options mstat serve takes (serve_cmd.c). */
extern const struct mstat_optspec mstat_serve_optspec;

/* mstat serve's command line, @argv[0] "serve": parse it and serve. */
int cmd_serve(int argc, char **argv);

/*
 * Serve until SIGTERM or SIGINT, with the options @o parsed from @argc
 * words of @argv; returns the exit status.
 */
int do_serve(const struct mstat_opts *o, int argc, char **argv);

#endif /* MSTAT_SERVE_H */
